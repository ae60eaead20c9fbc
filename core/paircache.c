/* The pair cache: each head with its runs as one row, rebuilt where triggers say it is stale. */
#include "core/tiadash.h"
#include "core/paircache.h"
#include "core/util.h"

/* ---- the blob: zigzag varints, doubles as their 8 bytes, strings with their length ---- */

static void put_u(struct strbuf *out, uint64_t v)
{
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		strbuf_addch(out, byte | (v ? 0x80 : 0));
	} while (v);
}

static void put_i(struct strbuf *out, int64_t v)
{
	put_u(out, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_str(struct strbuf *out, const char *s)
{
	size_t n = strlen(s);

	put_u(out, n);
	strbuf_add(out, s, n);
}

struct reader {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t get_u_long(struct reader *r)
{
	uint64_t v = 0;

	for (int shift = 0; !r->bad; shift += 7) {
		if (r->p == r->end || shift > 63) {
			r->bad = true;
			break;
		}
		v |= (uint64_t)(*r->p & 0x7f) << shift;
		if (!(*r->p++ & 0x80))
			return v;
	}
	return 0;
}

/* Most values of a run fit one byte: those without the loop. */
static inline uint64_t get_u(struct reader *r)
{
	if (!r->bad && r->p < r->end && !(*r->p & 0x80))
		return *r->p++;
	return get_u_long(r);
}

static int64_t get_i(struct reader *r)
{
	uint64_t u = get_u(r);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* A string of the blob, or NULL (r->bad) when it runs past the end. */
static char *get_str(struct reader *r)
{
	uint64_t n = get_u(r);

	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return xstrndup((const char *)r->p - n, (size_t)n);
}

/* A string of at most 40 bytes into dst (a longer one is corrupt). */
static void get_sha(struct reader *r, char dst[41])
{
	uint64_t n = get_u(r);

	if (r->bad || n > 40 || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		n = 0;
	}
	memcpy(dst, r->p, (size_t)n);
	dst[n] = '\0';
	r->p += n;
}

static double get_double(struct reader *r)
{
	double d = 0;

	if ((size_t)(r->end - r->p) < sizeof(d)) {
		r->bad = true;
		return 0;
	}
	memcpy(&d, r->p, sizeof(d));
	r->p += sizeof(d);
	return d;
}

/* The integers of a run in the blob, before its wall-clock, base and reasons. */
#define RUN_INTS 28

static void encode_run(const struct run_info *r, struct strbuf *out)
{
	const int64_t v[] = {
		r->id, r->source_id, r->diff_id, r->kind, r->attempt, r->has_pr, r->pr,
		r->started_at, r->verdict, r->git, r->tests, r->failures, r->errors,
		r->skipped, r->flaky, r->has_cov, r->cov_lines, r->cov_hit, r->decision,
		r->has_total, r->total_tests, r->has_selected, r->selected_count,
		r->has_entry_counts, r->entries_total, r->entries_unresolved,
		r->has_unmatched, r->entries_unmatched,
	};
	_Static_assert(sizeof(v) / sizeof(v[0]) == RUN_INTS, "decode_run reads RUN_INTS");

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		put_i(out, v[i]);
	strbuf_add(out, &r->wall_clock_s, sizeof(r->wall_clock_s));
	put_str(out, r->base);
	put_u(out, r->reasons.nr);
	for (size_t i = 0; i < r->reasons.nr; i++)
		put_str(out, r->reasons.items[i]);
}

/* v as an enum below n, or 0 (rd->bad) when out of range. */
static int check_enum(struct reader *rd, int64_t v, int64_t n)
{
	if (v < 0 || v >= n) {
		rd->bad = true;
		return 0;
	}
	return (int)v;
}

/* A varint of two bytes or more at *p (0 and *bad at a truncated or overlong one). */
static uint64_t get_u_slow(const unsigned char **p, const unsigned char *end, bool *bad)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift <= 63; shift += 7) {
		unsigned char byte = *(*p)++;

		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	*bad = true;
	*p = end;
	return 0;
}

/*
 * n zigzag varints into v, with the cursor in locals: a pass decodes 28 a
 * run for 2 x 10^5 runs, and through get_i each byte went by the reader in
 * memory.
 */
static void get_ints(struct reader *r, int64_t *v, size_t n)
{
	const unsigned char *p = r->p, *end = r->end;
	bool bad = r->bad;

	for (size_t i = 0; i < n; i++) {
		uint64_t u = p < end && *p < 0x80 ? *p++ : get_u_slow(&p, end, &bad);

		v[i] = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
	}
	r->p = p;
	r->bad = bad;
}

/* A run's integers as encode_run writes them, then the rest. */
static void decode_run(struct reader *rd, struct run_info *r)
{
	int64_t v[RUN_INTS];

	get_ints(rd, v, ARRAY_SIZE(v));
	memset(r, 0, sizeof(*r));
	r->id = v[0];
	r->source_id = v[1];
	r->diff_id = v[2];
	r->kind = (enum run_kind)check_enum(rd, v[3], 2);
	r->attempt = (int)v[4];
	r->has_pr = v[5] != 0;
	r->pr = v[6];
	r->started_at = v[7];
	r->verdict = (enum verdict)check_enum(rd, v[8], 3);
	r->git = (enum git_state)check_enum(rd, v[9], 3);
	r->tests = v[10];
	r->failures = v[11];
	r->errors = v[12];
	r->skipped = v[13];
	r->flaky = v[14];
	r->has_cov = v[15] != 0;
	r->cov_lines = v[16];
	r->cov_hit = v[17];
	r->decision = (enum decision)check_enum(rd, v[18], 4);
	r->has_total = v[19] != 0;
	r->total_tests = v[20];
	r->has_selected = v[21] != 0;
	r->selected_count = v[22];
	r->has_entry_counts = v[23] != 0;
	r->entries_total = v[24];
	r->entries_unresolved = v[25];
	r->has_unmatched = v[26] != 0;
	r->entries_unmatched = v[27];
	r->wall_clock_s = get_double(rd);
	get_sha(rd, r->base);
	for (uint64_t i = 0, n = get_u(rd); i < n && !rd->bad; i++) {
		char *reason = get_str(rd);

		if (reason)
			strlist_push_owned(&r->reasons, reason);
	}
}

/* Past n varints: a byte without its high bit ends one. */
static void skip_ints(struct reader *r, size_t n)
{
	const unsigned char *p = r->p;

	while (n && p < r->end)
		n -= !(*p++ & 0x80);
	r->bad |= n > 0;
	r->p = p;
}

static void skip_str(struct reader *r)
{
	uint64_t n = get_u(r);

	if (r->bad || n > (uint64_t)(r->end - r->p))
		r->bad = true;
	else
		r->p += n;
}

/*
 * Only a run's id, kind and decision, the rest skipped (left zero, no
 * reasons): what the blind spots collect, at a fifth of the decoding.
 */
static void decode_run_brief(struct reader *rd, struct run_info *r)
{
	int64_t v[4];

	memset(r, 0, sizeof(*r));
	get_ints(rd, v, 4);
	r->id = v[0];
	r->kind = (enum run_kind)check_enum(rd, v[3], 2);
	skip_ints(rd, 14);
	get_ints(rd, v, 1);
	r->decision = (enum decision)check_enum(rd, v[0], 4);
	skip_ints(rd, RUN_INTS - 19);
	(void)get_double(rd);
	skip_str(rd);
	for (uint64_t i = 0, n = get_u(rd); i < n && !rd->bad; i++)
		skip_str(rd);
}

void pair_cache_encode(const struct pair_info *p, struct strbuf *out)
{
	put_str(out, p->sha);
	put_i(out, p->has_pr);
	put_i(out, p->pr);
	put_u(out, p->nr);
	for (size_t i = 0; i < p->nr; i++)
		encode_run(&p->runs[i], out);
}

/*
 * Decode into out, reusing what it holds from the pair before (its runs
 * array, its repo string when equal): a report decodes 10^5 of them.
 */
static int decode_into(const void *blob, size_t len, int64_t head_id, const char *repo,
		       int64_t at, bool brief, struct pair_info *out)
{
	struct reader rd = { blob, (const unsigned char *)blob + len, false };
	uint64_t nr;

	for (size_t i = 0; i < out->nr; i++)
		strlist_release(&out->runs[i].reasons);
	out->nr = 0;
	if (!out->repo || strcmp(out->repo, repo)) {
		free(out->repo);
		out->repo = xstrdup(repo);
	}
	out->head_id = head_id;
	out->at = at;
	get_sha(&rd, out->sha);
	out->has_pr = get_i(&rd) != 0;
	out->pr = get_i(&rd);
	nr = get_u(&rd);
	/* A run takes at least 38 bytes: a count beyond that is corrupt. */
	if (rd.bad || nr > len / 32 + 1)
		return -1;
	ALLOC_GROW(out->runs, (size_t)nr, out->alloc);
	for (; out->nr < nr && !rd.bad; out->nr++)
		(brief ? decode_run_brief : decode_run)(&rd, &out->runs[out->nr]);
	return rd.bad || rd.p != rd.end ? -1 : 0;
}

int pair_cache_decode(const void *blob, size_t len, int64_t head_id, const char *repo,
		      int64_t at, struct pair_info *out)
{
	memset(out, 0, sizeof(*out));
	if (decode_into(blob, len, head_id, repo, at, false, out) < 0) {
		pair_info_release(out);
		return -1;
	}
	return 0;
}

/* ---- keeping it fresh ---- */

static int has_stale(struct store *s, bool *stale)
{
	static const char sql[] = "SELECT EXISTS (SELECT 1 FROM pair_stale)";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = sqlite3_step(st);

	*stale = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int delete_row(struct store *s, int64_t head_id)
{
	static const char sql[] = "DELETE FROM pair_row WHERE head_id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, head_id);
	return sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
}

static int write_row(const struct pair_info *p, void *data)
{
	static const char sql[] =
		"INSERT INTO pair_row (at, head_id, repo, data) VALUES (?1, ?2, ?3, ?4)";
	struct store *s = data;
	struct strbuf blob = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	pair_cache_encode(p, &blob);
	st = store_stmt(s, sql);
	sqlite3_bind_int64(st, 1, p->at);
	sqlite3_bind_int64(st, 2, p->head_id);
	sqlite3_bind_text(st, 3, p->repo ? p->repo : "", -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, blob.buf, (int)blob.len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	strbuf_release(&blob);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The blind spots' days (core/blindday.h) of the stale heads' rows, before and after. */
static int mark_days(struct store *s)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO blind_stale (day) SELECT " STORE_DAY_SQL("at")
		" FROM pair_row WHERE head_id IN (SELECT head_id FROM pair_stale)";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Drop the stale heads' rows, write them again from the tables, clear the list. */
static int rebuild(struct store *s, void *data)
{
	static const char ids_sql[] = "SELECT head_id FROM pair_stale";
	static const char clear_sql[] = "DELETE FROM pair_stale";
	sqlite3_stmt *st;
	int rc;

	UNUSED(data);
	if (mark_days(s) < 0)
		return -1;
	st = store_stmt(s, ids_sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (delete_row(s, sqlite3_column_int64(st, 0)) < 0)
			break;
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return -1;
	if (query_stale_pairs(s, write_row, s) != 0 || mark_days(s) < 0)
		return -1;
	st = store_stmt(s, clear_sql);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int pair_cache_refresh(struct store *s)
{
	bool stale;

	if (has_stale(s, &stale) < 0)
		return 1;
	if (!stale)
		return 0;
	/* A reader rebuilds only when the write lock is free now; else it reads the tables. */
	return store_write_now(s, rebuild, NULL, "cannot rebuild the pair cache");
}

#define PAIR_ROWS_SQL "SELECT head_id, repo, at, data FROM pair_row WHERE at >= ?1 AND at < ?2"
static int each_pair(struct store *s, const struct window *w, bool brief, bool desc,
		     pair_fn fn, void *data)
{
	/* [desc][repo]: every repository needs no test of each row's repo (10^5 rows). */
	static const char *const sqls[2][2] = {
		{ PAIR_ROWS_SQL " ORDER BY at, head_id",
		  PAIR_ROWS_SQL " AND repo = ?3 ORDER BY at, head_id" },
		{ PAIR_ROWS_SQL " ORDER BY at DESC, head_id DESC",
		  PAIR_ROWS_SQL " AND repo = ?3 ORDER BY at DESC, head_id DESC" },
	};
	bool one_repo = w->repo && *w->repo;
	struct pair_info p = { 0 };
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;

	if (pair_cache_refresh(s) != 0)
		return 1;
	st = store_stmt(s, sqls[desc][one_repo]);
	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	if (one_repo)
		sqlite3_bind_text(st, 3, w->repo, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (decode_into(sqlite3_column_blob(st, 3), (size_t)sqlite3_column_bytes(st, 3),
				sqlite3_column_int64(st, 0), store_col_text(st, 1),
				sqlite3_column_int64(st, 2), brief, &p) < 0) {
			ret = error("store '%s': the pair cache row of head %" PRId64
				    " is corrupt", s->path, (int64_t)sqlite3_column_int64(st, 0));
			break;
		}
		ret = fn(&p, data);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read the pair cache");
	sqlite3_reset(st);
	pair_info_release(&p);
	return ret;
}

int pair_cache_pairs(struct store *s, const struct window *w, pair_fn fn, void *data)
{
	return each_pair(s, w, false, false, fn, data);
}

int pair_cache_pairs_desc(struct store *s, const struct window *w, pair_fn fn, void *data)
{
	return each_pair(s, w, false, true, fn, data);
}

int pair_cache_pairs_brief(struct store *s, const struct window *w, pair_fn fn, void *data)
{
	return each_pair(s, w, true, false, fn, data);
}
