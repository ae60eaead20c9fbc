/* The figures kept in the store (metrics/figcache.h): their key, and a struct
 * metrics without its per-head parts as one blob of the figures table. */
#include "core/tiadash.h"
#include "core/blob.h"
#include "core/digest.h"
#include "core/idmatch.h"
#include "metrics/figcache.h"
#include "metrics/mainrec.h"

/*
 * The blob holds struct metrics' bytes as this build lays them out (its
 * pointers cleared), then what they pointed to: change the format with the
 * blob's order; the struct's size is in the key too.
 */
#define FIGCACHE_FORMAT "tiadash figures 1"

static void key_add(struct digest *d, const char *fmt, ...) ATTR_FORMAT(2, 3);
static void key_add(struct digest *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	digest_add(d, sb.buf, sb.len);
	digest_boundary(d);
	strbuf_release(&sb);
}

void figcache_key(const struct window *w, const struct metrics_opts *opts, const char *repo_key,
		  struct strbuf *key)
{
	struct digest d;
	char hex[33];
	/* The trend's previous window ends at since and is as long as [since, now). */
	bool moves = w->since != INT64_MIN && w->until == INT64_MAX;

	digest_init(&d);
	key_add(&d, "%s %zu", FIGCACHE_FORMAT, sizeof(struct metrics));
	key_add(&d, "%" PRId64 " %" PRId64, w->since, w->until);
	key_add(&d, "%s", w->repo ? w->repo : "");
	key_add(&d, "%.17g %.17g %.17g", opts->threshold, opts->confidence,
		opts->escape_target);
	idmap_fingerprint(opts->idmap, hex);
	key_add(&d, "%s", hex);
	key_add(&d, "%s", opts->repo ? repo_key : "");
	key_add(&d, "%" PRId64, moves ? opts->now : 0);
	/* An unbounded until: the pace knows whether there is a now at all. */
	key_add(&d, "%d", opts->now != 0);
	digest_hex(&d, hex);
	strbuf_reset(key);
	strbuf_addstr(key, hex);
}

/* ---- the blob ---- */

static void put_bytes(struct strbuf *out, const void *p, size_t n)
{
	blob_put_u(out, n);
	strbuf_add(out, p, n);
}

/* n bytes into dst, or r->bad when the blob says another size. */
static void get_bytes(struct blob_reader *r, void *dst, size_t n)
{
	uint64_t len = blob_get_u(r);

	if (r->bad || len != n || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, r->p, n);
	r->p += n;
}

static void put_list(struct strbuf *out, const struct strlist *l)
{
	blob_put_u(out, l->nr);
	for (size_t i = 0; i < l->nr; i++)
		blob_put_str(out, l->items[i]);
}

static void get_list(struct blob_reader *r, struct strlist *l)
{
	uint64_t n = blob_get_u(r);

	memset(l, 0, sizeof(*l));
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		char *s = blob_get_str(r);

		if (s)
			strlist_push_owned(l, s);
	}
}

static void put_opt_str(struct strbuf *out, const char *s)
{
	blob_put_u(out, s != NULL);
	if (s)
		blob_put_str(out, s);
}

static char *get_opt_str(struct blob_reader *r)
{
	return blob_get_u(r) ? blob_get_str(r) : NULL;
}

/* The experiment's figures stay; what it owns goes (the strings travel apart). */
static void seed_info_clear(struct seed_info *i)
{
	i->repo = i->state = i->selector = i->test_cmd = i->full_cmd = NULL;
	i->changes = NULL;
	i->mutants = NULL;
	i->nr_changes = i->nr_mutants = 0;
}

/* The struct's own bytes, with every pointer and list it owns left out. */
static void put_head(struct strbuf *out, const struct metrics *m)
{
	struct metrics h = *m;

	h.repo = NULL;
	h.reasons = NULL;
	h.escape_prs = NULL;
	h.escape_list = NULL;
	h.nr_escape_list = 0;
	memset(&h.red_on_main, 0, sizeof(h.red_on_main));
	h.red_spans = NULL;
	h.pair_notes = NULL;
	h.nr_pair_notes = 0;
	h.incomplete = NULL;
	memset(&h.blind.never, 0, sizeof(h.blind.never));
	memset(&h.blind.failed, 0, sizeof(h.blind.failed));
	memset(&h.blind.new_tests, 0, sizeof(h.blind.new_tests));
	h.blind.new_selected = NULL;
	h.verifier = NULL;
	h.nr_verifier = 0;
	seed_info_clear(&h.seeded.info);
	memset(&h.identity.unresolved, 0, sizeof(h.identity.unresolved));
	memset(&h.identity.quarantine_names, 0, sizeof(h.identity.quarantine_names));
	h.days = NULL;
	h.rows = NULL;
	h.nr_rows = h.alloc_rows = 0;
	memset(&h.pool_, 0, sizeof(h.pool_));
	memset(&h.pool_index_, 0, sizeof(h.pool_index_));
	h.pool_last_ = NULL;
	put_bytes(out, &h, sizeof(h));
}

static void encode(const struct metrics *m, struct strbuf *out)
{
	const struct seed_info *si = &m->seeded.info;

	put_head(out, m);
	blob_put_i(out, m->first_head_at);
	blob_put_str(out, m->repo ? m->repo : "");
	for (size_t i = 0; i < m->nr_reasons; i++) {
		blob_put_str(out, m->reasons[i].reason);
		put_bytes(out, &m->reasons[i], sizeof(m->reasons[i]));
	}
	for (size_t i = 0; i < m->nr_escape_prs; i++)
		blob_put_i(out, m->escape_prs[i]);
	put_list(out, &m->red_on_main);
	for (size_t i = 0; i < m->nr_red_spans; i++) {
		const struct metrics_red_span *rs = &m->red_spans[i];

		put_opt_str(out, rs->repo);
		put_opt_str(out, rs->test);
		put_bytes(out, rs, sizeof(*rs));
		blob_put_u(out, rs->prs.nr);
		for (size_t k = 0; k < rs->prs.nr; k++)
			blob_put_i(out, rs->prs.v[k]);
	}
	for (size_t i = 0; i < m->nr_incomplete; i++) {
		blob_put_str(out, m->incomplete[i].why ? m->incomplete[i].why : "");
		blob_put_i(out, m->incomplete[i].heads);
	}
	put_list(out, &m->blind.never);
	put_list(out, &m->blind.failed);
	put_list(out, &m->blind.new_tests);
	for (size_t i = 0; i < m->blind.new_tests.nr; i++)
		blob_put_u(out, m->blind.new_selected ? m->blind.new_selected[i] : 0);
	put_opt_str(out, si->repo);
	put_opt_str(out, si->state);
	put_opt_str(out, si->selector);
	put_opt_str(out, si->test_cmd);
	put_opt_str(out, si->full_cmd);
	put_list(out, &m->identity.unresolved);
	put_list(out, &m->identity.quarantine_names);
	strbuf_add(out, m->days, m->nr_days * sizeof(*m->days));
}

/* The pieces after the struct's bytes, whose counts it holds. */
static void decode_lists(struct blob_reader *r, struct metrics *m)
{
	struct seed_info *si = &m->seeded.info;
	size_t days;

	m->reasons = xcalloc(m->nr_reasons ? m->nr_reasons : 1, sizeof(*m->reasons));
	for (size_t i = 0; i < m->nr_reasons && !r->bad; i++) {
		char *reason = blob_get_str(r);

		get_bytes(r, &m->reasons[i], sizeof(m->reasons[i]));
		m->reasons[i].reason = reason;
	}
	m->escape_prs = xcalloc(m->nr_escape_prs ? m->nr_escape_prs : 1, sizeof(int64_t));
	for (size_t i = 0; i < m->nr_escape_prs && !r->bad; i++)
		m->escape_prs[i] = blob_get_i(r);
	get_list(r, &m->red_on_main);
	m->red_spans = xcalloc(m->nr_red_spans ? m->nr_red_spans : 1, sizeof(*m->red_spans));
	for (size_t i = 0; i < m->nr_red_spans && !r->bad; i++) {
		struct metrics_red_span *rs = &m->red_spans[i];
		char *repo = get_opt_str(r), *test = get_opt_str(r);
		uint64_t n;

		get_bytes(r, rs, sizeof(*rs));
		rs->repo = repo;
		rs->test = test;
		memset(&rs->prs, 0, sizeof(rs->prs));
		n = blob_get_u(r);
		for (uint64_t k = 0; k < n && !r->bad; k++)
			int_vec_push(&rs->prs, blob_get_i(r));
	}
	m->incomplete = xcalloc(m->nr_incomplete ? m->nr_incomplete : 1, sizeof(*m->incomplete));
	for (size_t i = 0; i < m->nr_incomplete && !r->bad; i++) {
		char *why = blob_get_str(r);

		/* The reasons are the pool's, as metrics_compute's rows' are. */
		if (why)
			strlist_push_owned(&m->pool_, why);
		m->incomplete[i].why = why;
		m->incomplete[i].heads = blob_get_i(r);
	}
	get_list(r, &m->blind.never);
	get_list(r, &m->blind.failed);
	get_list(r, &m->blind.new_tests);
	m->blind.new_selected = xcalloc(m->blind.new_tests.nr ? m->blind.new_tests.nr : 1,
					sizeof(bool));
	for (size_t i = 0; i < m->blind.new_tests.nr && !r->bad; i++)
		m->blind.new_selected[i] = blob_get_u(r) != 0;
	si->repo = get_opt_str(r);
	si->state = get_opt_str(r);
	si->selector = get_opt_str(r);
	si->test_cmd = get_opt_str(r);
	si->full_cmd = get_opt_str(r);
	get_list(r, &m->identity.unresolved);
	get_list(r, &m->identity.quarantine_names);
	days = m->nr_days;
	m->nr_days = 0;
	if (r->bad || (size_t)(r->end - r->p) != days * sizeof(*m->days)) {
		r->bad = true;
		return;
	}
	m->days = xcalloc(days ? days : 1, sizeof(*m->days));
	memcpy(m->days, r->p, days * sizeof(*m->days));
	m->nr_days = days;
	r->p += days * sizeof(*m->days);
}

/*
 * out from a blob: its struct bytes hold counts of what follows and stale
 * pointers, which are cleared before anything can release them.
 */
static int decode(const void *blob, size_t len, int64_t *first_at, struct metrics *out)
{
	struct blob_reader r = BLOB_READER(blob, len);
	struct metrics *m = out;
	char *repo;

	get_bytes(&r, m, sizeof(*m));
	m->repo = NULL;
	m->reasons = NULL;
	m->escape_prs = NULL;
	memset(&m->red_on_main, 0, sizeof(m->red_on_main));
	m->red_spans = NULL;
	m->incomplete = NULL;
	memset(&m->blind.never, 0, sizeof(m->blind.never));
	memset(&m->blind.failed, 0, sizeof(m->blind.failed));
	memset(&m->blind.new_tests, 0, sizeof(m->blind.new_tests));
	m->blind.new_selected = NULL;
	seed_info_clear(&m->seeded.info);
	memset(&m->identity.unresolved, 0, sizeof(m->identity.unresolved));
	memset(&m->identity.quarantine_names, 0, sizeof(m->identity.quarantine_names));
	m->days = NULL;
	if (r.bad) {
		memset(m, 0, sizeof(*m));
		return -1;
	}
	*first_at = blob_get_i(&r);
	repo = blob_get_str(&r);
	m->repo = repo ? repo : xstrdup("");
	/* Counts a corrupt blob could make huge: each entry takes a byte at least. */
	if (m->nr_reasons > len || m->nr_escape_prs > len || m->nr_red_spans > len ||
	    m->nr_incomplete > len || m->nr_days > len)
		r.bad = true;
	if (r.bad) {
		m->nr_reasons = m->nr_escape_prs = m->nr_red_spans = m->nr_incomplete = 0;
		m->nr_days = 0;
		metrics_release(m);
		return -1;
	}
	decode_lists(&r, m);
	if (!blob_done(&r)) {
		metrics_release(m);
		return -1;
	}
	return 0;
}

int figcache_get(struct store *s, const char *key, int64_t now, struct metrics *out)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT data FROM figures"
				      " WHERE key = ?1 AND generation = (SELECT n FROM generation)"
				      /* A plain SQL edit no reader has seen yet. */
				      " AND NOT EXISTS (SELECT 1 FROM pair_stale)");
	int64_t first_at = INT64_MIN;
	int rc, ret = 1;

	memset(out, 0, sizeof(*out));
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		/* A blob that does not decode is computed again, as none would be. */
		ret = decode(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
			     &first_at, out) < 0 ? 1 : 0;
		if (!ret)
			metrics_days_needed(out, first_at, now);
	} else if (rc != SQLITE_DONE) {
		ret = store_error(s, "cannot read the figures kept");
	}
	sqlite3_reset(st);
	return ret;
}

struct put {
	const char *key;
	int64_t generation;
	const struct strbuf *blob;
};

static int put_row(struct store *s, void *data)
{
	struct put *p = data;
	int64_t now;
	sqlite3_stmt *st;

	if (store_generation(s, &now) < 0)
		return -1;
	/* Written since it was read: the figures may not be this store's. */
	if (now != p->generation)
		return -1;
	st = store_stmt(s, "DELETE FROM figures WHERE generation != ?1 OR key = ?2");
	sqlite3_bind_int64(st, 1, p->generation);
	sqlite3_bind_text(st, 2, p->key, -1, SQLITE_STATIC);
	if (store_exec_stmt(s, st, "cannot drop the figures kept") < 0)
		return -1;
	st = store_stmt(s, "INSERT INTO figures (key, generation, data) VALUES (?1, ?2, ?3)");
	sqlite3_bind_text(st, 1, p->key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, p->generation);
	sqlite3_bind_blob(st, 3, p->blob->buf, (int)p->blob->len, SQLITE_STATIC);
	return store_exec_stmt(s, st, "cannot keep the figures");
}

int figcache_put(struct store *s, const char *key, int64_t generation,
		 const struct metrics *m)
{
	struct strbuf blob = STRBUF_INIT;
	struct put p = { key, generation, &blob };
	int ret;

	encode(m, &blob);
	ret = store_write_now(s, put_row, &p, "cannot keep the figures");
	strbuf_release(&blob);
	return ret;
}
