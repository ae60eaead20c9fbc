/*
 * Ingest by URL: indexes and manifests fetched (conditionally, by the
 * validators the store remembers) and their runs' files downloaded while
 * workers parse and this thread commits runs in order; bare files by URL.
 */
#include "core/tiadash.h"
#include "ingest/fetch.h"
#include "ingest/run_data.h"

#include <curl/curl.h>
#include <pthread.h>

/* Indexes and manifests are small; anything bigger is not one. */
#define HTTP_DOC_LIMIT ((size_t)64 << 20)
/* Indexes may list indexes; this deep at most. */
#define HTTP_INDEX_DEPTH 8
/*
 * Files queued ahead of the run being ingested: keeps the transfers busy
 * while runs ingest, and bounds the memory a week of artifacts takes.
 */
#define HTTP_AHEAD_FILES 256

/* ---- URLs: references resolved below a manifest's directory --------- */

/* The URL without its fragment, normalised by curl; NULL when not http(s). */
static char *url_normalise(const char *url)
{
	CURLU *h = url_parse(url);
	char *scheme, *out = NULL;

	if (!h)
		return NULL;
	scheme = url_part(h, CURLUPART_SCHEME, 0);
	if (scheme && (!strcmp(scheme, "http") || !strcmp(scheme, "https"))) {
		curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
		out = url_part(h, CURLUPART_URL, 0);
	}
	free(scheme);
	curl_url_cleanup(h);
	return out;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decode s once into sb. */
static void percent_decode(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		int hi, lo;

		if (*s == '%' && (hi = hexval(s[1])) >= 0 && (lo = hexval(s[2])) >= 0) {
			strbuf_addch(sb, hi << 4 | lo);
			s += 2;
		} else {
			strbuf_addch(sb, *s);
		}
	}
}

/*
 * Is a relative reference safe as a path, as written and at every stage of
 * percent-decoding (a server that decodes `%2e%2e`, or `%252e%252e` twice,
 * must not be walked out of the directory either)? No NUL or backslash.
 */
static bool ref_is_contained(const char *ref)
{
	struct strbuf cur = STRBUF_INIT, next = STRBUF_INIT;
	bool ok = path_is_contained(ref);

	strbuf_addstr(&cur, ref);
	while (ok) {
		strbuf_reset(&next);
		percent_decode(&next, cur.buf);
		ok = strlen(next.buf) == next.len && !strchr(next.buf, '\\') &&
		     path_is_contained(next.buf);
		if (next.len == cur.len && !memcmp(next.buf, cur.buf, cur.len))
			break;
		strbuf_reset(&cur);
		strbuf_add(&cur, next.buf, next.len);
	}
	strbuf_release(&cur);
	strbuf_release(&next);
	return ok;
}

/* Remove dot segments (RFC 3986 5.2.4) from an absolute path, in place. */
static void remove_dot_segments(struct strbuf *path)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = path->buf;

	while (*p) {
		const char *end = strchr(p + 1, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		/* p points at '/', n covers "/segment". */
		if (n == 2 && p[1] == '.') {
			if (!end)
				strbuf_addch(&out, '/');
		} else if (n == 3 && p[1] == '.' && p[2] == '.') {
			char *slash = memrchr(out.buf, '/', out.len);

			strbuf_setlen(&out, slash ? (size_t)(slash - out.buf) : 0);
			if (!end)
				strbuf_addch(&out, '/');
		} else {
			strbuf_add(&out, p, n);
		}
		p += n;
	}
	strbuf_release(path);
	*path = out;
}

/*
 * A raw URL path percent-decoded once, backslashes as slashes and dot
 * segments removed: what a lenient server could map it to.
 */
static char *path_effective(const char *raw)
{
	struct strbuf dec = STRBUF_INIT;

	percent_decode(&dec, raw);
	for (size_t i = 0; i < dec.len; i++)
		if (dec.buf[i] == '\\')
			dec.buf[i] = '/';
	remove_dot_segments(&dec);
	return strbuf_detach(&dec, NULL);
}

/* A manifest's or an index's URL, parsed once, to resolve references against. */
struct url_base {
	char *prefix;  /* the URL up to its directory's last '/' (no query) */
	char *dir_raw; /* the path of that directory, as in the URL */
	char *dir;     /* its effective path (path_effective) */
};

static int url_base_init(struct url_base *b, const char *url)
{
	CURLU *h = url_parse(url);
	char *path, *full = NULL;

	memset(b, 0, sizeof(*b));
	if (!h)
		return -1;
	curl_url_set(h, CURLUPART_QUERY, NULL, 0);
	curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
	path = url_part(h, CURLUPART_PATH, 0);
	full = url_part(h, CURLUPART_URL, 0);
	curl_url_cleanup(h);
	/* With query and fragment gone, the URL ends with its path. */
	if (path && full && *path == '/' && ends_with(full, path)) {
		size_t dir_len = (size_t)(strrchr(path, '/') - path) + 1;
		size_t cut = strlen(full) - strlen(path) + dir_len;

		b->prefix = xstrndup(full, cut);
		b->dir_raw = xstrndup(path, dir_len);
		b->dir = path_effective(b->dir_raw);
	}
	free(path);
	free(full);
	return b->prefix ? 0 : -1;
}

static void url_base_release(struct url_base *b)
{
	free(b->prefix);
	free(b->dir_raw);
	free(b->dir);
	memset(b, 0, sizeof(*b));
}

/*
 * Resolve a relative path reference against base: percent-encode it as a
 * path, drop its "." and empty segments, append it to the directory, then
 * check that the effective path of the result (decoded, dot segments
 * removed) is still below the directory's, so no encoding walks out of it.
 * Returns the URL (caller frees) or NULL.
 */
static char *url_base_resolve(const struct url_base *b, const char *ref)
{
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT;
	char *enc, *eff, *url = NULL;
	const char *seg;
	bool ok;

	if (!b->prefix || !ref_is_contained(ref))
		return NULL;
	/*
	 * A reference is a path, as on disk: '%', '?', '#' and spaces name
	 * files, not URL parts.
	 */
	enc = http_pct_encode(ref, "/");
	for (seg = enc; *seg; ) {
		const char *end = strchrnul(seg, '/');
		size_t n = (size_t)(end - seg);

		if (n && !(n == 1 && *seg == '.')) {
			if (rel.len)
				strbuf_addch(&rel, '/');
			strbuf_add(&rel, seg, n);
		}
		seg = *end ? end + 1 : end;
	}
	strbuf_addstr(&path, b->dir_raw);
	strbuf_add(&path, rel.buf, rel.len);
	eff = path_effective(path.buf);
	ok = rel.len && starts_with(eff, b->dir) && strlen(eff) > strlen(b->dir);
	if (ok)
		url = xstrfmt("%s%s", b->prefix, rel.buf);
	free(enc);
	free(eff);
	strbuf_release(&rel);
	strbuf_release(&path);
	return url;
}

/* ---- the store's memory of validators ----------------------------------- */

/*
 * http_cache holds, per index or manifest URL, the validators and the body
 * of its last good answer (a 304 must be answered from somewhere);
 * http_part holds, per manifest, the validators each file it names had
 * when the run was stored, so a file shared by two manifests is judged for
 * each of them.
 */
static bool cache_load_doc(struct store *s, const char *url, struct http_get *g,
			   struct strbuf *body)
{
	static const char sql[] =
		"SELECT etag, last_modified, body FROM http_cache WHERE url = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	bool found = false;

	store_bind_text(st, 1, url);
	if (sqlite3_step(st) == SQLITE_ROW && !store_col_is_null(st, 2) &&
	    (!store_col_is_null(st, 0) || !store_col_is_null(st, 1))) {
		if (!store_col_is_null(st, 0))
			g->if_none_match = xstrdup(store_col_text(st, 0));
		if (!store_col_is_null(st, 1))
			g->if_modified_since = xstrdup(store_col_text(st, 1));
		strbuf_add(body, sqlite3_column_blob(st, 2),
			   (size_t)sqlite3_column_bytes(st, 2));
		found = true;
	}
	sqlite3_reset(st);
	return found;
}

static bool cache_load_part(struct store *s, const char *doc, struct http_get *g)
{
	static const char sql[] =
		"SELECT etag, last_modified FROM http_part WHERE doc_url = ?1 AND url = ?2";
	sqlite3_stmt *st = store_stmt(s, sql);
	bool found = false;

	store_bind_text(st, 1, doc);
	store_bind_text(st, 2, g->name);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (!store_col_is_null(st, 0) || !store_col_is_null(st, 1))) {
		if (!store_col_is_null(st, 0))
			g->if_none_match = xstrdup(store_col_text(st, 0));
		if (!store_col_is_null(st, 1))
			g->if_modified_since = xstrdup(store_col_text(st, 1));
		found = true;
	}
	sqlite3_reset(st);
	return found;
}

/* Remember a document (or forget it, when its answer had no validators). */
static int cache_put_doc(struct store *s, const char *url, const char *etag,
			 const char *last_modified, const struct strbuf *body, int64_t now)
{
	static const char put_sql[] =
		"INSERT INTO http_cache (url, etag, last_modified, checked_at, body)"
		" VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (url) DO UPDATE SET"
		" etag = excluded.etag, last_modified = excluded.last_modified,"
		" checked_at = excluded.checked_at, body = excluded.body";
	static const char del_sql[] = "DELETE FROM http_cache WHERE url = ?1";
	static const char parts_sql[] = "DELETE FROM http_part WHERE doc_url = ?1";
	sqlite3_stmt *st;

	st = store_stmt(s, parts_sql);
	store_bind_text(st, 1, url);
	if (store_exec_stmt(s, st, "cannot forget HTTP validators") < 0)
		return -1;
	if (!etag && !last_modified) {
		st = store_stmt(s, del_sql);
		store_bind_text(st, 1, url);
		return store_exec_stmt(s, st, "cannot forget HTTP validators");
	}
	st = store_stmt(s, put_sql);
	store_bind_text(st, 1, url);
	store_bind_text(st, 2, etag);
	store_bind_text(st, 3, last_modified);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_blob(st, 5, body->buf, (int)body->len, SQLITE_STATIC);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

static int cache_put_part(struct store *s, const char *doc, const char *url,
			  const char *etag, const char *last_modified)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO http_part (doc_url, url, etag, last_modified)"
		" VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *st = store_stmt(s, sql);

	store_bind_text(st, 1, doc);
	store_bind_text(st, 2, url);
	store_bind_text(st, 3, etag);
	store_bind_text(st, 4, last_modified);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

static int cache_touch(struct store *s, const char *url, int64_t now)
{
	static const char sql[] = "UPDATE http_cache SET checked_at = ?2 WHERE url = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	store_bind_text(st, 1, url);
	sqlite3_bind_int64(st, 2, now);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

/* ---- ingesting by URL ----------------------------------------------------- */

/*
 * Where a run by URL is: its files downloading; handed to a worker to parse
 * (ingest_prepare); parsed; or settled without parsing (a download failed,
 * or nothing changed since it was stored from here).
 */
enum run_state { RUN_FETCHING, RUN_PREPARING, RUN_PREPARED, RUN_FAILED, RUN_SAME };

/* A manifest by URL, on its way to ingest_commit. */
struct url_run {
	struct run_source rs;      /* rs.uri: the manifest's URL (no credentials) */
	struct url_base base;      /* the manifest's URL after redirects */
	char *trusted;             /* origin the token may go to, or NULL */
	char *etag, *last_modified; /* the manifest's validators */
	bool not_modified;         /* the manifest answered 304 */
	bool revalidate;           /* files asked "changed since the stored run?" */
	struct strlist urls;       /* distinct file URLs, in reference order */
	struct strmap index;       /* file URL -> position in urls */
	struct http_get *files;    /* one per urls entry */
	struct spill *spill;       /* where their bodies go */
	struct http_budget budget; /* what they may add up to */
	enum run_state state;
	struct run_data d;         /* what ingest_prepare made of it */
	int prepared;              /* PREPARE_*, once state is RUN_PREPARED */
};

/*
 * Workers parse runs (ingest_prepare, each with its own store connection
 * and repository, as the folder ingest does) while this thread downloads
 * and commits in order; a worker that finishes wakes the fetcher's poll.
 */
struct prep_pool {
	struct ingest *ing;
	struct http_client *wake;
	pthread_mutex_t mu;
	pthread_cond_t cond;
	struct url_run **jobs;
	size_t next, nr, alloc;
	bool closing;
	pthread_t *threads;
	int nthreads;
};

/*
 * Runs to ingest, in order: runs[head..nr) are not committed yet,
 * runs[head..settled) have left RUN_FETCHING, runs[head..started) have
 * their files queued.
 */
struct run_queue {
	struct url_run **runs;
	size_t head, settled, started, nr, alloc;
	size_t files_ahead; /* files queued for runs not yet committed */
	struct prep_pool pool; /* workers, from the first run to the last */
	bool pooled;
};

static void url_run_free(struct url_run *r)
{
	run_source_release(&r->rs);
	url_base_release(&r->base);
	free(r->trusted);
	free(r->etag);
	free(r->last_modified);
	for (size_t i = 0; r->files && i < r->urls.nr; i++)
		http_get_release(&r->files[i]);
	free(r->files);
	spill_unref(r->spill);
	strlist_release(&r->urls);
	strmap_clear(&r->index);
	run_data_release(&r->d);
	free(r);
}

static bool seen_before(struct ingest *ing, const char *key)
{
	bool added;

	strmap_intern(&ing->seen, key, strlen(key), 0, &added);
	return !added;
}

/* Resolve one reference of a manifest; the input waits for its body. */
static int resolve_ref(struct input *in, const char *ref, void *data)
{
	struct url_run *r = data;
	char *url, *name;
	bool added;

	if (!ref_is_contained(ref))
		return error("%s: '%s' leaves the manifest's directory once "
			     "percent-decoded", r->rs.uri, ref);
	url = url_base_resolve(&r->base, ref);
	if (!url)
		return error("%s: '%s' does not resolve to a URL inside the "
			     "manifest's directory", r->rs.uri, ref);
	name = url_display(url);
	strmap_intern(&r->index, name, strlen(name), (int64_t)r->urls.nr, &added);
	if (added)
		strlist_push(&r->urls, url);
	input_from_memory(in, name, NULL, 0);
	free(name);
	free(url);
	return 0;
}

/* Give each input its downloaded body (a file named twice shares it). */
static void attach_bodies(struct url_run *r)
{
	size_t n;
	struct input **ins = run_source_list_inputs(&r->rs, &n);
	struct input **first = xcalloc(r->urls.nr + 1, sizeof(*first));

	for (size_t i = 0; i < n; i++) {
		char *name = xstrdup(ins[i]->name);
		int64_t k;

		if (!strmap_get(&r->index, name, &k))
			BUG("no download for '%s'", name);
		input_release(ins[i]);
		if (!first[k]) {
			input_from_spill(ins[i], name, &r->files[k].spilled);
			first[k] = ins[i];
		} else {
			input_share_spill(ins[i], name, first[k]);
		}
		free(name);
	}
	free(first);
	free(ins);
}

/* Was this run stored from this very URL (so its validators describe it)? */
static bool stored_from_here(struct ingest *ing, struct url_run *r)
{
	int64_t source;
	char *digest = NULL, *uri = NULL;
	int rc = write_find_run(ing->store, r->rs.m.repo, r->rs.m.head, r->rs.m.kind,
				r->rs.m.attempt, &source, &digest, &uri);
	bool here = rc == 1 && uri && !strcmp(uri, r->rs.uri);

	free(digest);
	free(uri);
	return here;
}

static void prepare_files(struct ingest *ing, struct url_run *r)
{
	size_t limit = http_client_options(ing->http)->max_size;

	r->files = xcalloc(r->urls.nr + 1, sizeof(*r->files));
	r->spill = spill_new();
	r->budget.limit = http_client_options(ing->http)->max_source;
	for (size_t i = 0; i < r->urls.nr; i++) {
		http_get_init(&r->files[i], r->urls.items[i], r->trusted, limit);
		http_get_spill(&r->files[i], r->spill);
		r->files[i].budget = &r->budget;
	}
	/*
	 * A manifest that answered 304 and whose run was stored from it: ask
	 * each file whether it changed since. Any file without validators
	 * means asking is pointless: download them all.
	 */
	r->revalidate = r->not_modified && stored_from_here(ing, r);
	for (size_t i = 0; r->revalidate && i < r->urls.nr; i++)
		r->revalidate = cache_load_part(ing->store, r->rs.uri, &r->files[i]);
	for (size_t i = 0; !r->revalidate && i < r->urls.nr; i++) {
		FREE_NULL(r->files[i].if_none_match);
		FREE_NULL(r->files[i].if_modified_since);
	}
}

/* Report the run's failed downloads; true when there was one. */
static bool report_failures(struct ingest *ing, struct url_run *r)
{
	bool failed = false, over_budget = false;

	for (size_t i = 0; i < r->urls.nr; i++) {
		if (r->files[i].result != GET_FAILED)
			continue;
		failed = true;
		/* The run's budget runs out for every file still coming: say it once. */
		if (r->files[i].over_budget && over_budget)
			continue;
		over_budget |= r->files[i].over_budget;
		error("%s", r->files[i].message);
	}
	if (failed) {
		ing->stats.sources++;
		ing->stats.failed++;
	}
	return failed;
}

static void remember_run(struct ingest *ing, struct url_run *r)
{
	struct store *s = ing->store;
	int ret;

	if (store_begin(s) < 0)
		return;
	ret = cache_put_doc(s, r->rs.uri, r->etag, r->last_modified,
			    &r->rs.head_bytes, ing->now);
	for (size_t i = 0; !ret && (r->etag || r->last_modified) && i < r->urls.nr; i++) {
		struct http_get *g = &r->files[i];

		ret = cache_put_part(s, r->rs.uri, g->name, g->etag, g->last_modified);
	}
	if (ret < 0)
		store_rollback(s);
	else
		store_commit(s);
}

static void touch_run(struct ingest *ing, struct url_run *r)
{
	if (store_begin(ing->store) < 0)
		return;
	if (cache_touch(ing->store, r->rs.uri, ing->now) < 0)
		store_rollback(ing->store);
	else
		store_commit(ing->store);
}

/* Queue the files of the runs ahead, up to HTTP_AHEAD_FILES (at least one run). */
static void top_up(struct ingest *ing, struct run_queue *q)
{
	while (q->started < q->nr &&
	       (q->files_ahead < HTTP_AHEAD_FILES || q->started == q->head)) {
		struct url_run *r = q->runs[q->started++];

		prepare_files(ing, r);
		for (size_t k = 0; k < r->urls.nr; k++)
			http_add(ing->http, &r->files[k], HTTP_FIRST);
		q->files_ahead += r->urls.nr;
	}
}

static void *prep_worker(void *arg)
{
	struct prep_pool *p = arg;
	struct ingest_env env = { p->ing, NULL, NULL, identity_cache_new() };
	bool ok = store_open(&env.store, p->ing->store->path, STORE_EXISTING) == 0 &&
		  (!p->ing->repo || repo_open(&env.repo, p->ing->repo->root) == 0);

	for (;;) {
		struct url_run *r;
		int prepared;

		pthread_mutex_lock(&p->mu);
		while (p->next == p->nr && !p->closing)
			pthread_cond_wait(&p->cond, &p->mu);
		r = p->next < p->nr ? p->jobs[p->next++] : NULL;
		pthread_mutex_unlock(&p->mu);
		if (!r)
			break;
		prepared = ok ? ingest_prepare(&env, &r->rs, &r->d) : PREPARE_FAILED;
		pthread_mutex_lock(&p->mu);
		r->prepared = prepared;
		r->state = RUN_PREPARED;
		pthread_mutex_unlock(&p->mu);
		http_client_wake(p->wake);
	}
	store_close(env.store);
	identity_cache_free(env.ids);
	repo_close(env.repo);
	return NULL;
}

/* Start the workers; false when there is no point (or no thread). */
static bool pool_start(struct prep_pool *p, struct ingest *ing)
{
	int n = ing->jobs;

	memset(p, 0, sizeof(*p));
	if (n < 2)
		return false;
	p->ing = ing;
	p->wake = ing->http;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threads = xcalloc((size_t)n, sizeof(*p->threads));
	while (p->nthreads < n &&
	       !pthread_create(&p->threads[p->nthreads], NULL, prep_worker, p))
		p->nthreads++;
	if (p->nthreads)
		return true;
	/* No thread: parse on this one. */
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cond);
	free(p->threads);
	memset(p, 0, sizeof(*p));
	return false;
}

static void pool_stop(struct prep_pool *p)
{
	if (!p->threads)
		return;
	pthread_mutex_lock(&p->mu);
	p->closing = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cond);
	free(p->threads);
	free(p->jobs);
	memset(p, 0, sizeof(*p));
}

static void pool_submit(struct prep_pool *p, struct url_run *r)
{
	pthread_mutex_lock(&p->mu);
	r->state = RUN_PREPARING;
	ALLOC_GROW(p->jobs, p->nr + 1, p->alloc);
	p->jobs[p->nr++] = r;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->mu);
}

static enum run_state run_state_of(struct prep_pool *p, struct url_run *r)
{
	enum run_state st;

	if (!p->threads)
		return r->state;
	pthread_mutex_lock(&p->mu);
	st = r->state;
	pthread_mutex_unlock(&p->mu);
	return st;
}

/*
 * Once a run's downloads are in, decide what it needs: nothing (failed, or
 * unchanged since stored from here), its unchanged files again in full (a
 * file changed; back to fetching), or parsing. Returns false while it is
 * still fetching.
 */
static bool settle(struct ingest *ing, struct prep_pool *pool, struct url_run *r)
{
	bool all_same = true, refetch = false;

	for (size_t k = 0; k < r->urls.nr; k++)
		if (r->files[k].state != GET_DONE)
			return false;
	for (size_t k = 0; k < r->urls.nr; k++) {
		if (r->files[k].result == GET_FAILED) {
			r->state = RUN_FAILED;
			return true;
		}
		all_same &= r->files[k].result == GET_NOT_MODIFIED;
	}
	/* Checked again: a run before this one may have replaced it. */
	if (r->revalidate && all_same && stored_from_here(ing, r)) {
		r->state = RUN_SAME;
		return true;
	}
	/* Something changed: the run needs every body, so ask again plainly. */
	for (size_t k = 0; k < r->urls.nr; k++) {
		struct http_get *g = &r->files[k];

		if (g->result != GET_NOT_MODIFIED)
			continue;
		FREE_NULL(g->if_none_match);
		FREE_NULL(g->if_modified_since);
		http_get_rearm(g);
		http_add(ing->http, g, HTTP_FIRST);
		refetch = true;
	}
	r->revalidate = false;
	if (refetch)
		return false;
	attach_bodies(r);
	if (pool->threads) {
		pool_submit(pool, r);
	} else {
		struct ingest_env env = { ing, ing->store, ing->repo, ing->ids };

		r->prepared = ingest_prepare(&env, &r->rs, &r->d);
		r->state = RUN_PREPARED;
	}
	return true;
}

/* Write a settled run (in order), and remember its validators when it landed. */
static int commit(struct ingest *ing, struct url_run *r)
{
	switch (r->state) {
	case RUN_FAILED:
		report_failures(ing, r);
		return -1;
	case RUN_SAME:
		/* Nothing changed since the run was stored from here. */
		ing->stats.sources++;
		ing->stats.unchanged++;
		touch_run(ing, r);
		return 0;
	case RUN_PREPARED:
		if (ingest_commit(ing, &r->rs, &r->d, r->prepared) < 0)
			return -1;
		remember_run(ing, r);
		return 0;
	default:
		BUG("committing a run that is not settled");
	}
}

/*
 * Move the queued runs along, in order: download the files of the runs
 * ahead, parse the runs whose files are in on the workers, commit settled
 * runs on this thread. Without finish, return as soon as the next run to
 * commit is not settled; with it, go on until every run is committed (and
 * stop the workers). Returns -1 when some run failed.
 */
static int pump(struct ingest *ing, struct run_queue *q, bool finish)
{
	size_t ahead = (size_t)(ing->jobs > 1 ? ing->jobs : 1) * 4;
	int ret = 0;

	if (!q->pooled && q->head < q->nr) {
		pool_start(&q->pool, ing);
		q->pooled = true;
	}
	while (q->head < q->nr) {
		struct url_run *r = q->runs[q->head];
		enum run_state st;

		top_up(ing, q);
		http_step(ing->http, false);
		while (q->settled < q->started && q->settled - q->head < ahead &&
		       settle(ing, &q->pool, q->runs[q->settled]))
			q->settled++;
		st = q->settled > q->head ? run_state_of(&q->pool, r) : RUN_FETCHING;
		if (st == RUN_FETCHING || st == RUN_PREPARING) {
			if (!finish)
				break;
			http_step(ing->http, true);
			continue;
		}
		if (commit(ing, r) < 0)
			ret = -1;
		q->head++;
		q->files_ahead -= r->urls.nr;
		url_run_free(r);
	}
	if (q->head == q->nr)
		q->head = q->settled = q->started = q->nr = q->files_ahead = 0;
	if (finish && q->pooled) {
		pool_stop(&q->pool);
		q->pooled = false;
	}
	return ret;
}

/* A document by URL: the get, and the cached body a 304 stands for. */
struct doc {
	struct http_get get;
	struct strbuf cached;
	bool skip;
};

static int add_run(struct ingest *ing, struct doc *d, const char *text, size_t len,
		   struct run_queue *q)
{
	struct url_run *r = xcalloc(1, sizeof(*r));
	struct http_get *g = &d->get;

	run_source_init(&r->rs);
	run_data_init(&r->d);
	r->rs.uri = xstrdup(g->name);
	run_source_set_head(&r->rs, text, len);
	url_base_init(&r->base, g->final_url);
	r->trusted = g->trusted ? xstrdup(g->trusted) : NULL;
	r->not_modified = g->result == GET_NOT_MODIFIED;
	if (r->not_modified) {
		r->etag = g->if_none_match ? xstrdup(g->if_none_match) : NULL;
		r->last_modified = g->if_modified_since ? xstrdup(g->if_modified_since) : NULL;
	} else {
		r->etag = g->etag ? xstrdup(g->etag) : NULL;
		r->last_modified = g->last_modified ? xstrdup(g->last_modified) : NULL;
	}
	if (manifest_parse(text, len, g->name, &r->rs.m) < 0 ||
	    run_source_open_refs_with(&r->rs, resolve_ref, r) < 0) {
		ing->stats.sources++;
		ing->stats.failed++;
		url_run_free(r);
		return -1;
	}
	ALLOC_GROW(q->runs, q->nr + 1, q->alloc);
	q->runs[q->nr++] = r;
	return 0;
}

static int ingest_docs(struct ingest *ing, const struct strlist *urls,
		       const char *trusted, int depth);

/* One entry of an index by URL: an absolute http(s) URL or a contained path. */
static char *index_entry_url(const char *index, const struct url_base *base,
			     const char *ref)
{
	char *url;

	if (http_is_url(ref)) {
		url = url_normalise(ref);
		if (!url)
			error("%s: run '%s' is not a valid URL", index, ref);
		return url;
	}
	url = url_base_resolve(base, ref);
	if (!url)
		error("%s: run '%s' is neither an http(s) URL nor a relative path "
		      "inside the index's directory", index, ref);
	return url;
}

static int ingest_index_doc(struct ingest *ing, struct doc *d, const char *text,
			    size_t len, int depth)
{
	struct http_get *g = &d->get;
	struct strlist runs = STRLIST_INIT, targets = STRLIST_INIT;
	struct url_base base;
	int ret = 0;

	if (index_parse(text, len, g->name, &runs) < 0) {
		strlist_release(&runs);
		return -1;
	}
	if (depth >= HTTP_INDEX_DEPTH) {
		strlist_release(&runs);
		return error("%s: indexes nested more than %d deep", g->name,
			     HTTP_INDEX_DEPTH);
	}
	url_base_init(&base, g->final_url);
	for (size_t i = 0; i < runs.nr; i++) {
		char *url = index_entry_url(g->name, &base, runs.items[i]);

		if (url)
			strlist_push_owned(&targets, url);
		else
			ret = -1;
	}
	url_base_release(&base);
	if (store_begin(ing->store) == 0) {
		int rc;

		if (g->result == GET_NOT_MODIFIED)
			rc = cache_touch(ing->store, g->name, ing->now);
		else
			rc = cache_put_doc(ing->store, g->name, g->etag,
					   g->last_modified, &g->body, ing->now);
		if (rc < 0)
			store_rollback(ing->store);
		else
			store_commit(ing->store);
	}
	ret |= ingest_docs(ing, &targets, g->trusted, depth + 1);
	strlist_release(&runs);
	strlist_release(&targets);
	return ret ? -1 : 0;
}

/*
 * Fetch indexes and manifests (together), then handle each in order:
 * an index's entries recursively, manifests in windows of downloads.
 */
static int ingest_docs(struct ingest *ing, const struct strlist *urls,
		       const char *trusted, int depth)
{
	struct doc *docs = xcalloc(urls->nr + 1, sizeof(*docs));
	struct run_queue q;
	size_t limit = http_client_options(ing->http)->max_size < HTTP_DOC_LIMIT ?
		       http_client_options(ing->http)->max_size : HTTP_DOC_LIMIT;
	int ret = 0;

	memset(&q, 0, sizeof(q));

	for (size_t i = 0; i < urls->nr; i++) {
		struct doc *d = &docs[i];

		d->cached = (struct strbuf)STRBUF_INIT;
		http_get_init(&d->get, urls->items[i], trusted, limit);
		if (seen_before(ing, d->get.name)) {
			d->skip = true;
			continue;
		}
		cache_load_doc(ing->store, d->get.name, &d->get, &d->cached);
		http_add(ing->http, &d->get, HTTP_LATER);
	}
	/* Runs go in as their manifests come, while later manifests download. */
	for (size_t i = 0; i < urls->nr; i++) {
		struct doc *d = &docs[i];
		struct http_get *g = &d->get;
		const struct strbuf *text;

		if (d->skip)
			continue;
		while (g->state != GET_DONE) {
			ret |= pump(ing, &q, false);
			if (g->state != GET_DONE)
				http_step(ing->http, true);
		}
		text = g->result == GET_NOT_MODIFIED ? &d->cached : &g->body;
		if (g->result == GET_FAILED) {
			ing->stats.sources++;
			ing->stats.failed++;
			ret = error("%s", g->message);
			continue;
		}
		switch (manifest_sniff(text->buf, text->len)) {
		case JSON_INDEX:
			ret |= pump(ing, &q, true);
			ret |= ingest_index_doc(ing, d, text->buf, text->len, depth);
			break;
		case JSON_MANIFEST:
			ret |= add_run(ing, d, text->buf, text->len, &q);
			ret |= pump(ing, &q, false);
			break;
		default:
			ing->stats.sources++;
			ing->stats.failed++;
			ret = error("%s: neither a run manifest (tiadash.run.v1) nor "
				    "an index (tiadash.index.v1); to ingest bare "
				    "files give --kind and --head", g->name);
		}
	}
	ret |= pump(ing, &q, true);
	for (size_t i = 0; i < urls->nr; i++) {
		http_get_release(&docs[i].get);
		strbuf_release(&docs[i].cached);
	}
	free(q.runs);
	free(docs);
	return ret ? -1 : 0;
}

static int ingest_url_trusting(struct ingest *ing, const char *url, bool trust)
{
	struct strlist urls = STRLIST_INIT;
	bool own = !ing->http;
	char *norm, *origin;
	int ret;

	norm = http_ingest_client(ing) ? url_normalise(url) : NULL;
	if (!norm) {
		ing->stats.sources++;
		ing->stats.failed++;
		ret = ing->http ? error("'%s' is not a valid http or https URL", url) : -1;
	} else {
		origin = trust ? url_origin(norm) : NULL;
		strlist_push_owned(&urls, norm);
		ret = ingest_docs(ing, &urls, origin, 0);
		strlist_release(&urls);
		free(origin);
	}
	if (own) {
		http_client_free(ing->http);
		ing->http = NULL;
	}
	return ret;
}

int ingest_url(struct ingest *ing, const char *url)
{
	return ingest_url_trusting(ing, url, true);
}

int ingest_url_untrusted(struct ingest *ing, const char *url)
{
	return ingest_url_trusting(ing, url, false);
}

int http_fetch_inputs(struct ingest *ing, char *const *names, size_t n,
		      struct input *ins)
{
	struct http_get *gets = xcalloc(n + 1, sizeof(*gets));
	struct http_get **run = xcalloc(n + 1, sizeof(*run));
	bool *is_url = xcalloc(n + 1, sizeof(*is_url));
	bool own = !ing->http;
	struct spill *sp = spill_new();
	struct http_budget budget = { 0, 0 };
	size_t nr = 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		is_url[i] = http_is_url(names[i]);
	for (size_t i = 0; i < n && !ret; i++) {
		char *url, *origin;

		if (!is_url[i])
			continue;
		if (!http_ingest_client(ing)) {
			ret = -1;
			break;
		}
		url = url_normalise(names[i]);
		if (!url) {
			ret = error("'%s' is not a valid http or https URL", names[i]);
			break;
		}
		origin = url_origin(url);
		http_get_init(&gets[i], url, origin, http_client_options(ing->http)->max_size);
		http_get_spill(&gets[i], sp);
		budget.limit = http_client_options(ing->http)->max_source;
		gets[i].budget = &budget;
		run[nr++] = &gets[i];
		free(url);
		free(origin);
	}
	if (!ret)
		http_run(ing->http, run, nr);
	for (size_t i = 0; i < n; i++) {
		if (!is_url[i] || !gets[i].url)
			continue;
		if (!ret && gets[i].result == GET_FAILED)
			ret = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!is_url[i] || !gets[i].url)
			continue;
		if (gets[i].result == GET_FAILED && gets[i].message)
			error("%s", gets[i].message);
		else if (!ret)
			input_from_spill(&ins[i], gets[i].name, &gets[i].spilled);
		http_get_release(&gets[i]);
	}
	spill_unref(sp);
	free(gets);
	free(run);
	free(is_url);
	if (own) {
		http_client_free(ing->http);
		ing->http = NULL;
	}
	return ret;
}
