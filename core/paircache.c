/* The pair cache: each head with its runs as one row, rebuilt where triggers say it is stale. */
#include "core/tiadash.h"
#include "core/paircache.h"
#include "core/blob.h"
#include "core/util.h"

/* ---- the blob (core/blob.h) ---- */

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
		blob_put_i(out, v[i]);
	blob_put_double(out, r->wall_clock_s);
	blob_put_str(out, r->base);
	blob_put_u(out, r->reasons.nr);
	for (size_t i = 0; i < r->reasons.nr; i++)
		blob_put_str(out, r->reasons.items[i]);
}

/* A run's integers as encode_run writes them, then the rest. */
static void decode_run(struct blob_reader *rd, struct run_info *r)
{
	int64_t v[RUN_INTS];

	blob_get_ints(rd, v, ARRAY_SIZE(v));
	memset(r, 0, sizeof(*r));
	r->id = v[0];
	r->source_id = v[1];
	r->diff_id = v[2];
	r->kind = (enum run_kind)blob_enum(rd, v[3], 2);
	r->attempt = (int)v[4];
	r->has_pr = v[5] != 0;
	r->pr = v[6];
	r->started_at = v[7];
	r->verdict = (enum verdict)blob_enum(rd, v[8], 3);
	r->git = (enum git_state)blob_enum(rd, v[9], 3);
	r->tests = v[10];
	r->failures = v[11];
	r->errors = v[12];
	r->skipped = v[13];
	r->flaky = v[14];
	r->has_cov = v[15] != 0;
	r->cov_lines = v[16];
	r->cov_hit = v[17];
	r->decision = (enum decision)blob_enum(rd, v[18], 4);
	r->has_total = v[19] != 0;
	r->total_tests = v[20];
	r->has_selected = v[21] != 0;
	r->selected_count = v[22];
	r->has_entry_counts = v[23] != 0;
	r->entries_total = v[24];
	r->entries_unresolved = v[25];
	r->has_unmatched = v[26] != 0;
	r->entries_unmatched = v[27];
	r->wall_clock_s = blob_get_double(rd);
	blob_get_sha(rd, r->base);
	for (uint64_t i = 0, n = blob_get_u(rd); i < n && !rd->bad; i++) {
		char *reason = blob_get_str(rd);

		if (reason)
			strlist_push_owned(&r->reasons, reason);
	}
}

/*
 * Only a run's id, kind and decision, the rest skipped (left zero, no
 * reasons): what the blind spots collect, at a fifth of the decoding.
 */
static void decode_run_brief(struct blob_reader *rd, struct run_info *r)
{
	int64_t v[4];

	memset(r, 0, sizeof(*r));
	blob_get_ints(rd, v, 4);
	r->id = v[0];
	r->kind = (enum run_kind)blob_enum(rd, v[3], 2);
	blob_skip_ints(rd, 14);
	blob_get_ints(rd, v, 1);
	r->decision = (enum decision)blob_enum(rd, v[0], 4);
	blob_skip_ints(rd, RUN_INTS - 19);
	(void)blob_get_double(rd);
	blob_skip_str(rd);
	for (uint64_t i = 0, n = blob_get_u(rd); i < n && !rd->bad; i++)
		blob_skip_str(rd);
}

void pair_cache_encode(const struct pair_info *p, struct strbuf *out)
{
	blob_put_str(out, p->sha);
	blob_put_i(out, p->has_pr);
	blob_put_i(out, p->pr);
	blob_put_u(out, p->nr);
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
	struct blob_reader rd = BLOB_READER(blob, len);
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
	blob_get_sha(&rd, out->sha);
	out->has_pr = blob_get_i(&rd) != 0;
	out->pr = blob_get_i(&rd);
	nr = blob_get_u(&rd);
	/* A run takes at least 38 bytes: a count beyond that is corrupt. */
	if (rd.bad || nr > len / 32 + 1)
		return -1;
	ALLOC_GROW(out->runs, (size_t)nr, out->alloc);
	for (; out->nr < nr && !rd.bad; out->nr++)
		(brief ? decode_run_brief : decode_run)(&rd, &out->runs[out->nr]);
	return blob_done(&rd) ? 0 : -1;
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

/* One statement without rows or parameters (-1 when it fails). */
static int exec_stmt(struct store *s, const char *sql)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The blind spots' days (core/blindday.h) of the stale heads' rows, before and after. */
static int mark_days(struct store *s)
{
	return exec_stmt(s, "INSERT OR IGNORE INTO blind_stale (day) SELECT " STORE_DAY_SQL("at")
			 " FROM pair_row WHERE head_id IN (SELECT head_id FROM pair_stale)");
}

/* The stale heads' facts go with their rows; those of them still heads are listed to be made. */
static int drop_facts(struct store *s)
{
	if (exec_stmt(s, "DELETE FROM pair_fact WHERE head_id IN (SELECT head_id FROM pair_stale)") ||
	    exec_stmt(s, "DELETE FROM pair_unfacted WHERE head_id IN (SELECT head_id FROM pair_stale)"))
		return -1;
	return exec_stmt(s, "INSERT INTO pair_unfacted SELECT s.head_id FROM pair_stale s"
			 " JOIN head h ON h.id = s.head_id");
}

/* Drop the stale heads' rows, write them again from the tables, clear the list. */
static int rebuild(struct store *s, void *data)
{
	static const char ids_sql[] = "SELECT head_id FROM pair_stale";
	static const char clear_sql[] = "DELETE FROM pair_stale";
	sqlite3_stmt *st;
	int rc;

	UNUSED(data);
	if (mark_days(s) < 0 || drop_facts(s) < 0)
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
	/*
	 * The tables changed under the cache: by a writer that did not bump the
	 * generation (plain SQL), when no commit of this one follows. The
	 * figures kept (metrics/figcache.h) are stale either way.
	 */
	if (exec_stmt(s, "UPDATE generation SET n = n + 1") < 0)
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

/*
 * row for each row of the statement sqls[desc][one repository] over
 * window w (?1 and ?2 its times, ?3 its repository: every one needs no
 * test of each row's), once the cache is fresh: 1 (no row) when it cannot
 * be. Stops at row's first non-zero return, which it returns.
 */
typedef int (*row_fn)(struct store *s, sqlite3_stmt *st, void *data);
static int each_row(struct store *s, const char *const sqls[2][2], const struct window *w,
		    bool desc, row_fn row, void *data, const char *what)
{
	bool one_repo = w->repo && *w->repo;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;

	if (pair_cache_refresh(s) != 0)
		return 1;
	st = store_stmt(s, sqls[desc][one_repo]);
	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	if (one_repo)
		sqlite3_bind_text(st, 3, w->repo, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = row(s, st, data);
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(s, what);
	sqlite3_reset(st);
	return ret;
}

struct pair_rows {
	struct pair_info p; /* reused from row to row */
	bool brief;
	pair_fn fn;
	void *data;
};

static int pair_row(struct store *s, sqlite3_stmt *st, void *data)
{
	struct pair_rows *pr = data;

	if (decode_into(sqlite3_column_blob(st, 3), (size_t)sqlite3_column_bytes(st, 3),
			sqlite3_column_int64(st, 0), store_col_text(st, 1),
			sqlite3_column_int64(st, 2), pr->brief, &pr->p) < 0)
		return error("store '%s': the pair cache row of head %" PRId64 " is corrupt",
			     s->path, (int64_t)sqlite3_column_int64(st, 0));
	return pr->fn(&pr->p, pr->data);
}

#define PAIR_ROWS_SQL "SELECT head_id, repo, at, data FROM pair_row WHERE at >= ?1 AND at < ?2"
static int each_pair(struct store *s, const struct window *w, bool brief, bool desc,
		     pair_fn fn, void *data)
{
	static const char *const sqls[2][2] = {
		{ PAIR_ROWS_SQL " ORDER BY at, head_id",
		  PAIR_ROWS_SQL " AND repo = ?3 ORDER BY at, head_id" },
		{ PAIR_ROWS_SQL " ORDER BY at DESC, head_id DESC",
		  PAIR_ROWS_SQL " AND repo = ?3 ORDER BY at DESC, head_id DESC" },
	};
	struct pair_rows pr = { { 0 }, brief, fn, data };
	int ret = each_row(s, sqls, w, desc, pair_row, &pr, "cannot read the pair cache");

	pair_info_release(&pr.p);
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

/* ---- facts ---- */

struct fact_rows {
	int64_t key;
	facts_fn fn;
	void *data;
};

/* Facts of a stale head are of what it was: each_row reads them from a fresh cache only. */
static int fact_row(struct store *s, sqlite3_stmt *st, void *data)
{
	struct fact_rows *fr = data;
	struct pair_fact_row f = {
		sqlite3_column_int64(st, 0), store_col_text(st, 1), sqlite3_column_int64(st, 2),
		sqlite3_column_blob(st, 4), (size_t)sqlite3_column_bytes(st, 4),
	};

	UNUSED(s);
	return sqlite3_column_int64(st, 3) == fr->key ? fr->fn(&f, fr->data) : 1;
}

#define FACT_ROWS_SQL "SELECT head_id, repo, at, key, data FROM pair_fact WHERE at >= ?1 AND at < ?2"
int pair_facts_each(struct store *s, const struct window *w, int64_t key, bool desc,
		    facts_fn fn, void *data)
{
	static const char *const sqls[2][2] = {
		{ FACT_ROWS_SQL " ORDER BY at, head_id",
		  FACT_ROWS_SQL " AND repo = ?3 ORDER BY at, head_id" },
		{ FACT_ROWS_SQL " ORDER BY at DESC, head_id DESC",
		  FACT_ROWS_SQL " AND repo = ?3 ORDER BY at DESC, head_id DESC" },
	};
	struct fact_rows fr = { key, fn, data };

	return each_row(s, sqls, w, desc, fact_row, &fr, "cannot read the pair facts");
}

#define WINDOW_HEADS "h.at >= ?1 AND h.at < ?2 AND (?3 = '' OR h.repo = ?3)"
int pair_facts_missing(struct store *s, const struct window *w, int64_t key, bool every,
		       struct int_vec *ids)
{
	/*
	 * From the list to the heads (CROSS JOIN keeps that order): the list
	 * is empty once the facts are kept, and SQLite without statistics
	 * otherwise walks every head of the window to probe it.
	 */
	static const char listed_sql[] =
		"SELECT h.id FROM pair_unfacted u CROSS JOIN head h ON h.id = u.head_id"
		" WHERE " WINDOW_HEADS;
	static const char every_sql[] =
		"SELECT h.id FROM head h WHERE " WINDOW_HEADS
		" AND NOT EXISTS (SELECT 1 FROM pair_fact f"
		"  WHERE f.at = h.at AND f.head_id = h.id AND f.key = ?4)";
	sqlite3_stmt *st = store_stmt(s, every ? every_sql : listed_sql);
	int rc;

	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	sqlite3_bind_text(st, 3, w->repo ? w->repo : "", -1, SQLITE_STATIC);
	if (every)
		sqlite3_bind_int64(st, 4, key);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		int_vec_push(ids, sqlite3_column_int64(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot find the heads without facts");
	int_vec_sort_unique(ids);
	return 0;
}

int pair_facts_put(struct store *s, const struct pair_fact_row *f, int64_t key)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO pair_fact (at, head_id, repo, key, data)"
		" VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, f->at);
	sqlite3_bind_int64(st, 2, f->head_id);
	sqlite3_bind_text(st, 3, f->repo, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, key);
	sqlite3_bind_blob(st, 5, f->data, (int)f->len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE) {
		st = store_stmt(s, "DELETE FROM pair_unfacted WHERE head_id = ?1");
		sqlite3_bind_int64(st, 1, f->head_id);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot keep the pair facts");
}
