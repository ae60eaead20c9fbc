/* Read-side queries over the store: runs, pairs, results, selections, diffs. */
#include "core/tiadash.h"
#include "core/query.h"
#include "core/idmatch.h"
#include "core/paircache.h"
#include "core/rekey.h"
#include "core/repo.h"
#include "core/util.h"

static const char *const kind_names[] = { "shadow", "full" };
static const char *const verdict_names[] = { "pass", "fail", "error" };
static const char *const decision_names[] = { "none", "selected", "run_all", "nothing" };
static const char *const git_names[] = { "ok", "unknown", "none" };
static const char *const outcome_names[] = { "failed", "error", "flaky" };

const char *run_kind_name(enum run_kind k) { return kind_names[k]; }
const char *verdict_name(enum verdict v) { return verdict_names[v]; }
const char *decision_name(enum decision d) { return decision_names[d]; }
const char *git_state_name(enum git_state g) { return git_names[g]; }
const char *outcome_name(enum outcome o) { return outcome_names[o]; }

static int index_of(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

bool run_kind_parse(const char *s, enum run_kind *out)
{
	int i = index_of(kind_names, ARRAY_SIZE(kind_names), s);

	if (i >= 0)
		*out = (enum run_kind)i;
	return i >= 0;
}

bool verdict_parse(const char *s, enum verdict *out)
{
	int i = index_of(verdict_names, ARRAY_SIZE(verdict_names), s);

	if (i >= 0)
		*out = (enum verdict)i;
	return i >= 0;
}

bool decision_parse(const char *s, enum decision *out)
{
	int i = index_of(decision_names, ARRAY_SIZE(decision_names), s);

	if (i > 0)
		*out = (enum decision)i;
	return i > 0;
}

static int enum_col(sqlite3_stmt *st, int col, const char *const *names, size_t n)
{
	int i = index_of(names, n, store_col_text(st, col));

	return i < 0 ? 0 : i;
}

void pair_info_release(struct pair_info *p)
{
	for (size_t i = 0; i < p->nr; i++)
		strlist_release(&p->runs[i].reasons);
	free(p->runs);
	free(p->repo);
	memset(p, 0, sizeof(*p));
}

const struct run_info *pair_latest(const struct pair_info *p, enum run_kind k)
{
	const struct run_info *best = NULL;

	for (size_t i = 0; i < p->nr; i++)
		if (p->runs[i].kind == k &&
		    (!best || p->runs[i].attempt > best->attempt))
			best = &p->runs[i];
	return best;
}

size_t pair_count(const struct pair_info *p, enum run_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->runs[i].kind == k;
	return n;
}

static int64_t count_of(struct store *s, const char *sql, int64_t *out)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return store_error(s, "cannot count");
	}
	*out = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

void identity_figures_release(struct identity_figures *f)
{
	strlist_release(&f->unresolved);
	strlist_release(&f->quarantine_names);
	memset(f, 0, sizeof(*f));
}

void identity_figures_finish(struct identity_figures *f)
{
	struct strlist *l = &f->unresolved;
	size_t n = 0;

	strlist_sort(l);
	for (size_t i = 0; i < l->nr; i++) {
		if (n && !strcmp(l->items[n - 1], l->items[i])) {
			free(l->items[i]);
		} else if (n >= IDENTITY_LISTED) {
			free(l->items[i]);
		} else {
			l->items[n++] = l->items[i];
		}
	}
	l->nr = n;
}

#define QUARANTINE_OF_WINDOW                                                    \
	" JOIN run r ON r.id = q.run_id JOIN head h ON h.id = r.head_id"           \
	" WHERE q.resolved IS NOT NULL AND h.at >= ?1 AND h.at < ?2"             \
	" AND (?3 = '' OR h.repo = ?3)"

static void bind_window_or_all(sqlite3_stmt *st, const struct window *w)
{
	sqlite3_bind_int64(st, 1, w ? w->since : INT64_MIN);
	sqlite3_bind_int64(st, 2, w ? w->until : INT64_MAX);
	sqlite3_bind_text(st, 3, w && w->repo ? w->repo : "", -1, SQLITE_TRANSIENT);
}

/*
 * A quarantine line (q, its text n) that ties to nothing: the tree had
 * nothing by its name, or it is a suite name (2) no selection declares
 * (the part before a ':' of `money:adds`).
 */
#define QUARANTINE_UNRESOLVED                                                   \
	"(q.resolved = 0 OR (q.resolved = 2 AND NOT EXISTS (SELECT 1 FROM"         \
	" declared_name d JOIN name dn ON dn.id = d.name_id WHERE dn.text ="       \
	" CASE WHEN instr(n.text, ':') > 0 THEN substr(n.text, 1, instr(n.text, ':') - 1)" \
	" ELSE n.text END)))"

int query_quarantine_identity(struct store *s, const struct window *w,
			      struct identity_figures *f)
{
	static const char counts_sql[] =
		"SELECT count(DISTINCT q.name_id),"
		" count(DISTINCT CASE WHEN " QUARANTINE_UNRESOLVED " THEN q.name_id END)"
		" FROM quarantine q JOIN name n ON n.id = q.name_id" QUARANTINE_OF_WINDOW;
	static const char names_sql[] =
		"SELECT DISTINCT n.text FROM quarantine q JOIN name n ON n.id = q.name_id"
		QUARANTINE_OF_WINDOW " AND " QUARANTINE_UNRESOLVED " ORDER BY n.text LIMIT 100";
	sqlite3_stmt *st = store_stmt(s, counts_sql);
	int rc;

	bind_window_or_all(st, w);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		f->quarantine_lines = sqlite3_column_int64(st, 0);
		f->quarantine_unresolved = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot count quarantine lines");
	if (!f->quarantine_unresolved)
		return 0;
	st = store_stmt(s, names_sql);
	bind_window_or_all(st, w);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strlist_push(&f->quarantine_names, store_col_text(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot list quarantine lines");
}

/*
 * A result's resolution as it stands now (enum resolved): a suite name
 * counts as one only while some selection has declared it (schema 14), so
 * a selection ingested later settles the reports ingested before it.
 */
#define RESOLVED_NOW(r)                                                              \
	"CASE WHEN " r "resolved = 2 AND NOT EXISTS (SELECT 1 FROM declared_name"      \
	" WHERE name_id = " r "suite_id) THEN 3 ELSE coalesce(" r "resolved, -1) END"

/* Every stored run's identity figures (status). */
static int status_identity(struct store *s, struct identity_figures *f)
{
	static const char counts_sql[] =
		"SELECT count(*), coalesce(sum(j IN (1, 2)), 0), coalesce(sum(j = 2), 0)"
		" FROM (SELECT " RESOLVED_NOW("") " AS j FROM result"
		" WHERE outcome IN ('failed', 'error'))";
	static const char ids_sql[] =
		"SELECT DISTINCT su.text, ca.text FROM result r"
		" JOIN name su ON su.id = r.suite_id JOIN name ca ON ca.id = r.case_id"
		" WHERE r.outcome IN ('failed', 'error') AND " RESOLVED_NOW("r.") " NOT IN (1, 2)"
		" ORDER BY su.text, ca.text LIMIT 100";
	static const char entries_sql[] =
		"SELECT coalesce(sum(entries_total), 0), coalesce(sum(entries_unresolved), 0),"
		" count(entries_unmatched), coalesce(sum(entries_unmatched), 0)"
		" FROM selection WHERE decision = 'selected'";
	sqlite3_stmt *st = store_stmt(s, counts_sql);
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		f->failing_tests = sqlite3_column_int64(st, 0);
		f->resolved = sqlite3_column_int64(st, 1);
		f->by_name = sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot count test identity");
	st = store_stmt(s, ids_sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct strbuf id = STRBUF_INIT;

		test_id_format(&id, store_col_text(st, 0), store_col_text(st, 1));
		strlist_push_owned(&f->unresolved, strbuf_detach(&id, NULL));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot list unresolved tests");
	st = store_stmt(s, entries_sql);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		f->selection_entries = sqlite3_column_int64(st, 0);
		f->entries_unresolved = sqlite3_column_int64(st, 1);
		f->has_unmatched = sqlite3_column_int64(st, 2) > 0;
		f->entries_unmatched = sqlite3_column_int64(st, 3);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot count selection entries");
	identity_figures_finish(f);
	return query_quarantine_identity(s, NULL, f);
}

int query_status(struct store *s, struct store_status *out)
{
	static const char shadow_sql[] = "SELECT count(*) FROM run WHERE kind = 'shadow'";
	static const char full_sql[] = "SELECT count(*) FROM run WHERE kind = 'full'";
	static const char pairs_sql[] =
		"SELECT count(*) FROM head h WHERE"
		" EXISTS (SELECT 1 FROM run WHERE head_id = h.id AND kind = 'shadow') AND"
		" EXISTS (SELECT 1 FROM run WHERE head_id = h.id AND kind = 'full')";
	static const char tests_sql[] = "SELECT coalesce(sum(tests), 0) FROM run";
	/* Every failing case counts (SPEC 3.3). */
	static const char failures_sql[] =
		"SELECT coalesce(sum(count), 0) FROM result WHERE outcome IN ('failed', 'error')";
	static const char sources_sql[] = "SELECT count(*) FROM source";
	static const char first_sql[] = "SELECT coalesce(min(started_at), -1) FROM run";
	static const char last_sql[] = "SELECT coalesce(max(started_at), -1) FROM run";

	memset(out, 0, sizeof(*out));
	if (count_of(s, shadow_sql, &out->shadow_runs) < 0 ||
	    count_of(s, full_sql, &out->full_runs) < 0 ||
	    count_of(s, pairs_sql, &out->pairs) < 0 ||
	    count_of(s, tests_sql, &out->tests) < 0 ||
	    count_of(s, failures_sql, &out->failures) < 0 ||
	    count_of(s, sources_sql, &out->sources) < 0 ||
	    count_of(s, first_sql, &out->first) < 0 ||
	    count_of(s, last_sql, &out->last) < 0 ||
	    status_identity(s, &out->identity) < 0)
		return -1;
	if (out->shadow_runs + out->full_runs == 0) {
		out->first = INT64_MIN;
		out->last = INT64_MAX;
	}
	return 0;
}

/* Columns of a head joined with one of its runs; see fill_run and fill_head. */
#define PAIR_COLUMNS                                                           \
	"SELECT h.id, h.repo, h.sha, h.pr, h.at,"                              \
	" r.id, r.source_id, r.diff_id, r.kind, r.attempt, r.pr, r.base,"     \
	" r.started_at, r.wall_clock_s, r.verdict, r.git, r.tests,"           \
	" r.failures, r.errors, r.skipped, r.cov_lines, r.cov_hit, r.flaky,"  \
	" s.decision, s.total_tests, s.selected_count,"                       \
	" (SELECT group_concat(reason, char(0)) FROM (SELECT reason FROM"     \
	"   selection_reason WHERE run_id = r.id ORDER BY pos)),"             \
	" s.entries_total, s.entries_unresolved, s.entries_unmatched"         \
	" FROM head h JOIN run r ON r.head_id = h.id"                         \
	" LEFT JOIN selection s ON s.run_id = r.id "

static void split_reasons(sqlite3_stmt *st, int col, struct strlist *out)
{
	const char *t = (const char *)sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);
	int start = 0;

	if (!t)
		return;
	for (int i = 0; i <= n; i++) {
		if (i == n || t[i] == '\0') {
			strlist_push_owned(out,
					   xstrndup(t + start, (size_t)(i - start)));
			start = i + 1;
		}
	}
}

static void copy_sha(char dst[41], const char *src)
{
	snprintf(dst, 41, "%s", src);
}

static void fill_run(sqlite3_stmt *st, struct run_info *r)
{
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 5);
	r->source_id = sqlite3_column_int64(st, 6);
	r->diff_id = sqlite3_column_int64(st, 7);
	r->kind = (enum run_kind)enum_col(st, 8, kind_names, ARRAY_SIZE(kind_names));
	r->attempt = sqlite3_column_int(st, 9);
	r->has_pr = !store_col_is_null(st, 10);
	r->pr = sqlite3_column_int64(st, 10);
	copy_sha(r->base, store_col_text(st, 11));
	r->started_at = sqlite3_column_int64(st, 12);
	r->wall_clock_s = store_col_double(st, 13);
	r->verdict = (enum verdict)enum_col(st, 14, verdict_names, ARRAY_SIZE(verdict_names));
	r->git = (enum git_state)enum_col(st, 15, git_names, ARRAY_SIZE(git_names));
	r->tests = sqlite3_column_int64(st, 16);
	r->failures = sqlite3_column_int64(st, 17);
	r->errors = sqlite3_column_int64(st, 18);
	r->skipped = sqlite3_column_int64(st, 19);
	r->has_cov = !store_col_is_null(st, 20);
	r->cov_lines = sqlite3_column_int64(st, 20);
	r->cov_hit = sqlite3_column_int64(st, 21);
	r->flaky = sqlite3_column_int64(st, 22);
	if (!store_col_is_null(st, 23)) {
		r->decision = (enum decision)enum_col(st, 23, decision_names,
						      ARRAY_SIZE(decision_names));
		r->has_total = !store_col_is_null(st, 24);
		r->total_tests = sqlite3_column_int64(st, 24);
		r->has_selected = !store_col_is_null(st, 25);
		r->selected_count = sqlite3_column_int64(st, 25);
		split_reasons(st, 26, &r->reasons);
		r->has_entry_counts = !store_col_is_null(st, 27);
		r->entries_total = sqlite3_column_int64(st, 27);
		r->entries_unresolved = sqlite3_column_int64(st, 28);
		r->has_unmatched = !store_col_is_null(st, 29);
		r->entries_unmatched = sqlite3_column_int64(st, 29);
	}
}

static void fill_head(sqlite3_stmt *st, struct pair_info *p)
{
	p->head_id = sqlite3_column_int64(st, 0);
	p->repo = xstrdup(store_col_text(st, 1));
	copy_sha(p->sha, store_col_text(st, 2));
	p->has_pr = !store_col_is_null(st, 3);
	p->pr = sqlite3_column_int64(st, 3);
	p->at = sqlite3_column_int64(st, 4);
}

static void add_run_row(sqlite3_stmt *st, struct pair_info *p)
{
	ALLOC_GROW(p->runs, p->nr + 1, p->alloc);
	fill_run(st, &p->runs[p->nr++]);
}

/*
 * Step st (rows grouped by head) and hand each complete head to fn. Heads
 * are assembled from consecutive rows, so memory stays one head at a time.
 */
/* Shadow runs first, then full; attempts ascending. */
static int cmp_runs(const void *a, const void *b)
{
	const struct run_info *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind == RUN_SHADOW ? -1 : 1;
	return (x->attempt > y->attempt) - (x->attempt < y->attempt);
}

static int emit(const struct pair_info *p, pair_fn fn, void *data)
{
	if (p->nr > 1)
		qsort(p->runs, p->nr, sizeof(*p->runs), cmp_runs);
	return fn(p, data);
}

static int stream_pairs(struct store *s, sqlite3_stmt *st, pair_fn fn, void *data)
{
	struct pair_info p = { 0 };
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t head_id = sqlite3_column_int64(st, 0);

		if (p.head_id && p.head_id != head_id) {
			ret = emit(&p, fn, data);
			pair_info_release(&p);
			if (ret)
				break;
		}
		if (!p.head_id)
			fill_head(st, &p);
		add_run_row(st, &p);
	}
	if (!ret && rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read runs");
	else if (!ret && p.head_id)
		ret = emit(&p, fn, data);
	pair_info_release(&p);
	sqlite3_reset(st);
	return ret;
}

/* A window as ?1 since, ?2 until and ?3 repo ('' for every repo). */
static void bind_window(sqlite3_stmt *st, const struct window *w)
{
	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	sqlite3_bind_text(st, 3, w->repo ? w->repo : "", -1, SQLITE_STATIC);
}

int query_pairs(struct store *s, const struct window *w, pair_fn fn, void *data)
{
	static const char sql[] = PAIR_COLUMNS
		"WHERE h.at >= ?1 AND h.at < ?2 AND (?3 = '' OR h.repo = ?3)"
		" ORDER BY h.at, h.id";
	sqlite3_stmt *st;
	int ret = pair_cache_pairs(s, w, fn, data);

	if (ret != 1)
		return ret;
	st = store_stmt(s, sql);
	bind_window(st, w);
	return stream_pairs(s, st, fn, data);
}

int query_pairs_backward(struct store *s, const struct window *w, pair_fn fn, void *data)
{
	return pair_cache_pairs_desc(s, w, fn, data);
}

int query_head_pair(struct store *s, int64_t head_id, pair_fn fn, void *data)
{
	static const char sql[] = PAIR_COLUMNS "WHERE h.id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, head_id);
	return stream_pairs(s, st, fn, data);
}

int query_stale_pairs(struct store *s, pair_fn fn, void *data)
{
	static const char sql[] = PAIR_COLUMNS
		"WHERE h.id IN (SELECT head_id FROM pair_stale) ORDER BY h.id";

	return stream_pairs(s, store_stmt(s, sql), fn, data);
}

int query_window_count(struct store *s, const struct window *w, int64_t *heads)
{
	static const char sql[] =
		"SELECT count(*) FROM head"
		" WHERE at >= ?1 AND at < ?2 AND (?3 = '' OR repo = ?3)";
	/* Every repository: the head_at index alone, not each head's row (the
	 * dashboard counts before its first frame). */
	static const char all_sql[] = "SELECT count(*) FROM head WHERE at >= ?1 AND at < ?2";
	/* Every head (at is NOT NULL): SQLite counts the index's pages, reading no entry. */
	static const char every_sql[] = "SELECT count(*) FROM head";
	bool every = w->since == INT64_MIN && w->until == INT64_MAX;
	sqlite3_stmt *st = store_stmt(s, w->repo && *w->repo ? sql : every ? every_sql : all_sql);
	int rc;

	bind_window(st, w);
	rc = sqlite3_step(st);
	*heads = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot count heads");
}

int query_repos(struct store *s, struct strlist *out)
{
	static const char sql[] =
		"WITH RECURSIVE r(repo) AS (SELECT min(repo) FROM head"
		" UNION ALL SELECT (SELECT min(repo) FROM head WHERE repo > r.repo)"
		"  FROM r WHERE r.repo IS NOT NULL)"
		" SELECT repo FROM r WHERE repo IS NOT NULL";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strlist_push(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read the repositories");
}

/* One end of the window: min or max alone is one look-up in the head_at index. */
static int window_end(struct store *s, const char *sql, const struct window *w,
		      int64_t *at, int64_t none)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	rc = sqlite3_step(st);
	*at = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL ?
		sqlite3_column_int64(st, 0) : none;
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot read the window's heads");
}

int query_window_span(struct store *s, const struct window *w, int64_t *first,
		      int64_t *last)
{
	static const char first_sql[] = "SELECT min(at) FROM head WHERE at >= ?1 AND at < ?2";
	static const char last_sql[] = "SELECT max(at) FROM head WHERE at >= ?1 AND at < ?2";

	if (window_end(s, first_sql, w, first, INT64_MAX) < 0)
		return -1;
	return window_end(s, last_sql, w, last, INT64_MIN);
}

int query_pairs_page(struct store *s, const struct window *w, int64_t offset,
		     int64_t limit, pair_fn fn, void *data)
{
	/* The page's head ids come from the head_at index alone; then their runs. */
	static const char sql[] = PAIR_COLUMNS
		"WHERE h.id IN (SELECT id FROM head"
		"  WHERE at >= ?1 AND at < ?2 AND (?3 = '' OR repo = ?3)"
		"  ORDER BY at, id LIMIT ?4 OFFSET ?5)"
		" ORDER BY h.at, h.id, r.kind DESC, r.attempt";
	sqlite3_stmt *st = store_stmt(s, sql);

	bind_window(st, w);
	sqlite3_bind_int64(st, 4, limit);
	sqlite3_bind_int64(st, 5, offset);
	return stream_pairs(s, st, fn, data);
}

int query_pairs_by_ids(struct store *s, const int64_t *ids, size_t nr,
		       pair_fn fn, void *data)
{
	/* The ids travel as one JSON array; json_each's key keeps their order. */
	static const char sql[] = PAIR_COLUMNS
		"JOIN json_each(?1) j ON j.value = h.id"
		" ORDER BY j.key, r.kind DESC, r.attempt";
	sqlite3_stmt *st;
	struct strbuf arr = STRBUF_INIT;
	int ret;

	if (!nr)
		return 0;
	strbuf_addch(&arr, '[');
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&arr, "%s%" PRId64, i ? "," : "", ids[i]);
	strbuf_addch(&arr, ']');
	st = store_stmt(s, sql);
	sqlite3_bind_text(st, 1, arr.buf, (int)arr.len, SQLITE_STATIC);
	ret = stream_pairs(s, st, fn, data);
	strbuf_release(&arr);
	return ret;
}

void pair_info_copy(struct pair_info *out, const struct pair_info *p)
{
	*out = *p;
	out->repo = xstrdup(p->repo ? p->repo : "");
	out->runs = xmalloc((p->nr ? p->nr : 1) * sizeof(*p->runs));
	out->alloc = p->nr;
	for (size_t i = 0; i < p->nr; i++) {
		out->runs[i] = p->runs[i];
		memset(&out->runs[i].reasons, 0, sizeof(out->runs[i].reasons));
		for (size_t j = 0; j < p->runs[i].reasons.nr; j++)
			strlist_push(&out->runs[i].reasons, p->runs[i].reasons.items[j]);
	}
}

int pair_info_take_first(const struct pair_info *p, void *data)
{
	pair_info_copy(data, p);
	return 1;
}

/* Heads matching a PR or sha prefix: count them, then load the first. */
static int lookup(struct store *s, sqlite3_stmt *count_st, sqlite3_stmt *st,
		  const char *what, struct pair_info *out)
{
	int64_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_step(count_st) != SQLITE_ROW) {
		sqlite3_reset(count_st);
		return store_error(s, "cannot look up a pair");
	}
	n = sqlite3_column_int64(count_st, 0);
	sqlite3_reset(count_st);
	if (n == 0)
		return 1;
	if (n > 1)
		return error("'%s' names %" PRId64 " heads; give a longer "
			     "commit id (or the full sha)", what, n);
	rc = stream_pairs(s, st, pair_info_take_first, out);
	return rc == 1 ? 0 : rc < 0 ? -1 : 1;
}

int query_pair_lookup(struct store *s, const char *what, struct pair_info *out)
{
	static const char pr_count[] = "SELECT count(*) FROM head WHERE pr = ?1";
	static const char pr_sql[] = PAIR_COLUMNS
		"WHERE h.pr = ?1 ORDER BY h.id";
	static const char sha_count[] =
		"SELECT count(*) FROM head WHERE substr(sha, 1, length(?1)) = ?1";
	static const char sha_sql[] = PAIR_COLUMNS
		"WHERE substr(h.sha, 1, length(?1)) = ?1"
		" ORDER BY h.id";
	const char *p = *what == '#' ? what + 1 : what;
	bool hex = strlen(what) >= 4 && strspn(what, "0123456789abcdef") == strlen(what);
	int64_t pr;
	int rc;

	if (parse_int64(p, &pr) && pr >= 0 && (*what == '#' || strlen(what) < 7)) {
		sqlite3_stmt *c = store_stmt(s, pr_count), *st = store_stmt(s, pr_sql);

		sqlite3_bind_int64(c, 1, pr);
		sqlite3_bind_int64(st, 1, pr);
		rc = lookup(s, c, st, what, out);
		if (rc != 1 || !hex)
			return rc;
	}
	if (!hex)
		return 1;
	{
		sqlite3_stmt *c = store_stmt(s, sha_count), *st = store_stmt(s, sha_sql);

		sqlite3_bind_text(c, 1, what, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 1, what, -1, SQLITE_STATIC);
		return lookup(s, c, st, what, out);
	}
}

int query_pair_by_sha(struct store *s, const char *sha, struct pair_info *out)
{
	static const char count_sql[] = "SELECT count(*) FROM head WHERE sha = ?1";
	static const char sql[] = PAIR_COLUMNS
		"WHERE h.sha = ?1 ORDER BY h.id";
	sqlite3_stmt *c = store_stmt(s, count_sql), *st = store_stmt(s, sql);

	sqlite3_bind_text(c, 1, sha, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
	return lookup(s, c, st, sha, out);
}

/*
 * The rows of sorted run ids, from a scan over their range (?1 the first,
 * ?2 the last) in run id order: id_cursor_keeps tells the rows of the ids
 * (ID_LISTED); or a scan of the whole table that keeps every row (ID_ALL)
 * or those of runs not in the ids (ID_UNLISTED).
 */
enum id_keep { ID_LISTED, ID_ALL, ID_UNLISTED };

struct id_cursor {
	const int64_t *ids;
	size_t nr, next;
	enum id_keep keep;
};

static void id_cursor_bind(struct id_cursor *c, sqlite3_stmt *st, const int64_t *ids,
			   size_t nr, enum id_keep keep)
{
	bool whole = keep != ID_LISTED;

	c->ids = ids;
	c->nr = nr;
	c->next = 0;
	c->keep = keep;
	sqlite3_bind_int64(st, 1, whole ? INT64_MIN : nr ? ids[0] : 1);
	sqlite3_bind_int64(st, 2, whole ? INT64_MAX : nr ? ids[nr - 1] : 0);
}

static bool id_cursor_keeps(struct id_cursor *c, int64_t id)
{
	bool listed;

	if (c->keep == ID_ALL)
		return true;
	while (c->next < c->nr && c->ids[c->next] < id)
		c->next++;
	listed = c->next < c->nr && c->ids[c->next] == id;
	return c->keep == ID_LISTED ? listed : !listed;
}

/*
 * Step rows of (suite, case, outcome, digest, excerpt, count, resolved) into
 * fn. by_id: suite and case are name ids (store_name_text, not two joins a
 * row).
 */
static int stream_results(struct store *s, sqlite3_stmt *st, bool by_id, result_fn fn,
			  void *data)
{
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *suite = by_id ? store_name_text(s, sqlite3_column_int64(st, 0))
					  : store_col_text(st, 0);
		const char *name = by_id ? store_name_text(s, sqlite3_column_int64(st, 1))
					 : store_col_text(st, 1);

		if (!suite || !name) {
			ret = -1;
			break;
		}
		struct test_result r = {
			.suite = suite,
			.name = name,
			.outcome = (enum outcome)enum_col(st, 2, outcome_names,
							  ARRAY_SIZE(outcome_names)),
			.digest = (const char *)sqlite3_column_text(st, 3),
			.excerpt = (const char *)sqlite3_column_text(st, 4),
			.cases = sqlite3_column_int64(st, 5),
			.resolved = (enum resolved)sqlite3_column_int(st, 6),
		};

		ret = fn(&r, data);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read test results");
	sqlite3_reset(st);
	return ret;
}

static int run_results(struct store *s, const char *sql, bool by_id, int64_t run_id,
		       result_fn fn, void *data)
{
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, run_id);
	return stream_results(s, st, by_id, fn, data);
}

int query_run_results(struct store *s, int64_t run_id, result_fn fn, void *data)
{
	static const char sql[] =
		"SELECT su.text, ca.text, r.outcome, r.digest, r.excerpt, r.count,"
		" " RESOLVED_NOW("r.") " FROM result r"
		" JOIN name su ON su.id = r.suite_id JOIN name ca ON ca.id = r.case_id"
		" WHERE r.run_id = ?1 ORDER BY su.text, ca.text";

	return run_results(s, sql, false, run_id, fn, data);
}

/* In the stored (run, suite id, case id) order. */
int query_run_results_unordered(struct store *s, int64_t run_id, result_fn fn, void *data)
{
	static const char sql[] =
		"SELECT suite_id, case_id, outcome, digest, excerpt, count,"
		" " RESOLVED_NOW("") " FROM result WHERE run_id = ?1";

	return run_results(s, sql, true, run_id, fn, data);
}

void window_runs_add(struct window_runs *wr, const struct pair_info *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct run_info *r = &p->runs[i];

		int_vec_push(&wr->all, r->id);
		if (r->kind == RUN_FULL)
			int_vec_push(&wr->full, r->id);
		else if (r->decision == DECISION_SELECTED)
			int_vec_push(&wr->narrowed, r->id);
	}
}

/* A run is in one head: sorting is all (heads come in window order, ids mostly ascend). */
void window_runs_sort(struct window_runs *wr)
{
	int_vec_sort_unique(&wr->all);
	int_vec_sort_unique(&wr->full);
	int_vec_sort_unique(&wr->narrowed);
}

void window_runs_release(struct window_runs *wr)
{
	int_vec_release(&wr->all);
	int_vec_release(&wr->full);
	int_vec_release(&wr->narrowed);
	wr->every = false;
}

static int add_window_runs(const struct pair_info *p, void *data)
{
	window_runs_add(data, p);
	return 0;
}

/* Whether window w holds every head of the store: every repository, and every head's time. */
static int window_holds_every_head(struct store *s, const struct window *w, bool *every)
{
	static const struct window all = WINDOW_ALL;
	int64_t first, last;

	*every = false;
	if (w->repo && *w->repo)
		return 0;
	if (query_window_span(s, &all, &first, &last) < 0)
		return -1;
	/* No head at all (first > last), or all of them inside. */
	*every = first > last || (first >= w->since && last < w->until);
	return 0;
}

/* The full runs of the store, from the run_kind index (the runs' rows are wide). */
static int every_full_run(struct store *s, struct window_runs *out)
{
	static const char sql[] = "SELECT id FROM run WHERE kind = 'full' ORDER BY id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		int_vec_push(&out->full, sqlite3_column_int64(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read the runs");
}

int query_window_runs(struct store *s, const struct window *w, struct window_runs *out)
{
	bool every;
	int ret = window_holds_every_head(s, w, &every);

	out->every = every;
	if (!ret && every)
		ret = every_full_run(s, out);
	else if (!ret)
		ret = pair_cache_pairs_brief(s, w, add_window_runs, out);
	if (ret == 1)
		ret = query_pairs(s, w, add_window_runs, out);

	window_runs_sort(out);
	return ret;
}

int query_window_failure_ids(struct store *s, const struct window_runs *wr,
			     struct int_vec *out)
{
	static const char sql[] =
		"SELECT run_id, suite_id, case_id FROM result"
		" WHERE run_id BETWEEN ?1 AND ?2 AND outcome IN ('failed', 'error')"
		" ORDER BY run_id";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct id_cursor keep;
	int rc;

	id_cursor_bind(&keep, st, wr->full.v, wr->full.nr, ID_LISTED);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!id_cursor_keeps(&keep, sqlite3_column_int64(st, 0)))
			continue;
		int_vec_push(out, sqlite3_column_int64(st, 1));
		int_vec_push(out, sqlite3_column_int64(st, 2));
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read test results");
}

int query_narrowed_selections(struct store *s, const struct window_runs *wr,
			      entry_fn fn, void *data, int64_t *runs)
{
	static const char sql[] =
		"SELECT run_id, entries FROM selection"
		" WHERE run_id BETWEEN ?1 AND ?2 AND decision = 'selected' ORDER BY run_id";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct id_cursor keep;
	int64_t n = 0;
	int rc, ret = 0;

	/* Every run: each selection but the full runs' (a run not full is shadow). */
	if (wr->every)
		id_cursor_bind(&keep, st, wr->full.v, wr->full.nr, ID_UNLISTED);
	else
		id_cursor_bind(&keep, st, wr->narrowed.v, wr->narrowed.nr, ID_LISTED);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!id_cursor_keeps(&keep, sqlite3_column_int64(st, 0)))
			continue;
		n++;
		ret = store_strings_each(sqlite3_column_blob(st, 1),
					 (size_t)sqlite3_column_bytes(st, 1), fn, data);
		if (ret < 0)
			ret = error("store '%s': the selection of run %" PRId64 " is corrupt",
				    s->path, (int64_t)sqlite3_column_int64(st, 0));
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read selections");
	sqlite3_reset(st);
	if (runs)
		*runs = n;
	return ret;
}

/* A set of ids as a bitmap: test-list ids are dense rowids, each run names thousands. */
struct idbits {
	uint64_t *words;
	size_t nr;
};

static void idbits_set(struct idbits *b, int64_t id)
{
	size_t w = (size_t)id / 64;

	if (w >= b->nr) {
		size_t nr = w + 1 > 2 * b->nr ? w + 1 : 2 * b->nr;

		b->words = xrealloc(b->words, nr * sizeof(*b->words));
		memset(b->words + b->nr, 0, (nr - b->nr) * sizeof(*b->words));
		b->nr = nr;
	}
	b->words[w] |= UINT64_C(1) << (id % 64);
}

/* Hand the group in the current row (suite, cases, first_at) to fn. */
static int emit_group(struct store *s, sqlite3_stmt *st, test_group_fn fn, void *data)
{
	struct strlist cases = STRLIST_INIT;
	struct test_group g = { store_col_text(st, 0), &cases, sqlite3_column_int64(st, 2) };
	int ret;

	if (store_strings_decode(sqlite3_column_blob(st, 1),
				 (size_t)sqlite3_column_bytes(st, 1), &cases) < 0)
		ret = error("store '%s': the test list of suite '%s' is corrupt",
			    s->path, g.suite);
	else
		ret = fn(&g, data);
	strlist_release(&cases);
	return ret;
}

int query_groups_each(struct store *s, const int64_t *ids, size_t nr, test_group_fn fn,
		      void *data)
{
	static const char sql[] =
		"SELECT n.text, g.cases, g.first_at FROM test_group g"
		" JOIN name n ON n.id = g.suite_id WHERE g.id = ?1";
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		sqlite3_stmt *st = store_stmt(s, sql);
		int rc;

		sqlite3_bind_int64(st, 1, ids[i]);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			ret = emit_group(s, st, fn, data);
		else if (rc != SQLITE_DONE)
			ret = store_error(s, "cannot read a test list");
		sqlite3_reset(st);
	}
	return ret;
}

/* The ids of b into out, ascending. */
static void idbits_append(const struct idbits *b, struct int_vec *out)
{
	for (size_t w = 0; w < b->nr; w++)
		for (int bit = 0; bit < 64; bit++)
			if (b->words[w] >> bit & 1)
				int_vec_push(out, (int64_t)(w * 64 + (size_t)bit));
}

int query_window_group_ids(struct store *s, const struct window_runs *wr,
			   struct int_vec *out, int64_t *listed)
{
	static const char sql[] =
		"SELECT run_id, groups FROM run_tests WHERE run_id BETWEEN ?1 AND ?2"
		" ORDER BY run_id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int64_t *ids = NULL, n_listed = 0;
	size_t nr = 0, alloc = 0;
	struct idbits groups = { NULL, 0 };
	struct strmap seen = STRMAP_INIT; /* full runs mostly ran the same tests */
	struct strbuf prev = STRBUF_INIT;
	struct id_cursor keep;
	int rc, ret = 0;

	/* Every run: each row (run_tests' rows belong to runs: a foreign key). */
	id_cursor_bind(&keep, st, wr->all.v, wr->all.nr, wr->every ? ID_ALL : ID_LISTED);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *blob = sqlite3_column_blob(st, 1);
		size_t len = (size_t)sqlite3_column_bytes(st, 1);
		bool added;

		if (!id_cursor_keeps(&keep, sqlite3_column_int64(st, 0)))
			continue;
		n_listed++;
		/* Most often the list of the run before: a compare, not a hash. */
		if (n_listed > 1 && len == prev.len && (!len || !memcmp(blob, prev.buf, len)))
			continue;
		strbuf_reset(&prev);
		if (len)
			strbuf_add(&prev, blob, len);
		strmap_intern(&seen, blob ? blob : "", len, 0, &added);
		if (!added)
			continue;
		nr = 0;
		if (store_ints_decode(blob, len, &ids, &nr, &alloc) < 0) {
			ret = error("store '%s': the test list of run %" PRId64
				    " is corrupt", s->path, (int64_t)sqlite3_column_int64(st, 0));
			break;
		}
		for (size_t i = 0; i < nr && !ret; i++) {
			/* Rowids of test_group: far below 2^40 in any store. */
			if (ids[i] >= INT64_C(1) << 40)
				ret = error("store '%s': the test list of run %" PRId64
					    " is corrupt", s->path,
					    (int64_t)sqlite3_column_int64(st, 0));
			else
				idbits_set(&groups, ids[i]);
		}
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read test lists");
	sqlite3_reset(st);
	strmap_clear(&seen);
	strbuf_release(&prev);
	*listed = n_listed;
	if (!ret)
		idbits_append(&groups, out);
	free(ids);
	free(groups.words);
	return ret;
}

int query_run_group_ids(struct store *s, int64_t run_id, struct int_vec *out)
{
	static const char sql[] = "SELECT groups FROM run_tests WHERE run_id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc, ret = 0;

	out->nr = 0;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW &&
	    store_ints_decode(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
			      &out->v, &out->nr, &out->alloc) < 0)
		ret = error("store '%s': the test list of run %" PRId64 " is corrupt",
			    s->path, run_id);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read a test list");
	sqlite3_reset(st);
	return !ret && rc != SQLITE_ROW ? 1 : ret;
}

int query_run_tests_each(struct store *s, int64_t run_id, test_group_fn fn, void *data)
{
	struct int_vec ids = INT_VEC_INIT;
	int ret = query_run_group_ids(s, run_id, &ids);

	if (!ret && ids.nr)
		ret = query_groups_each(s, ids.v, ids.nr, fn, data);
	int_vec_release(&ids);
	return ret;
}

int query_tests_before(struct store *s, const char *repo, int64_t before,
		       test_group_fn fn, void *data)
{
	static const char sql[] =
		"SELECT n.text, g.cases, g.first_at FROM test_group g"
		" JOIN name n ON n.id = g.suite_id WHERE (?2 = '' OR g.repo = ?2)"
		" AND (g.first_at < ?1 OR g.first_at = (SELECT min(first_at)"
		"  FROM test_group WHERE ?2 = '' OR repo = ?2))";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = SQLITE_DONE, ret = 0;

	sqlite3_bind_int64(st, 1, before);
	sqlite3_bind_text(st, 2, repo ? repo : "", -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = emit_group(s, st, fn, data);
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read test lists");
	sqlite3_reset(st);
	return ret;
}

int query_pr_heads(struct store *s, const char *repo, int64_t pr, pair_fn fn, void *data)
{
	static const char sql[] = PAIR_COLUMNS
		"WHERE h.repo = ?1 AND h.pr = ?2 ORDER BY h.at, h.id";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, repo ? repo : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, pr);
	return stream_pairs(s, st, fn, data);
}

static int collect_failed(const struct test_result *r, void *data)
{
	struct strbuf id = STRBUF_INIT;

	if (r->outcome != OUTCOME_FLAKY) {
		test_id_format(&id, r->suite, r->name);
		strlist_push_owned(data, strbuf_detach(&id, NULL));
	}
	return 0;
}

int query_run_failed_ids(struct store *s, int64_t run_id, struct strlist *out)
{
	int ret = query_run_results(s, run_id, collect_failed, out);

	strlist_sort(out);
	return ret;
}

/* fn for each string of a selection's blob column; *known: the column is not NULL. */
static int selection_column_each(struct store *s, const char *sql, int64_t run_id,
				 entry_fn fn, void *data, bool *known)
{
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc, ret = 0;

	*known = false;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*known = true;
		ret = store_strings_each(sqlite3_column_blob(st, 0),
					 (size_t)sqlite3_column_bytes(st, 0), fn, data);
		if (ret < 0)
			ret = error("store '%s': the selection of run %" PRId64 " is corrupt",
				    s->path, run_id);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read a selection");
	return ret;
}

int query_selection_each(struct store *s, int64_t run_id, entry_fn fn, void *data)
{
	static const char sql[] = "SELECT entries FROM selection WHERE run_id = ?1";
	bool known;

	return selection_column_each(s, sql, run_id, fn, data, &known);
}

static int push_entry(const char *entry, size_t len, void *data)
{
	UNUSED(len);
	strlist_push(data, entry);
	return 0;
}

int query_selection_entries(struct store *s, int64_t run_id, struct strlist *out)
{
	return query_selection_each(s, run_id, push_entry, out);
}

void selection_entries_release(struct selection_entries *e)
{
	for (size_t i = 0; e->keys && i < e->entries.nr; i++)
		free(e->keys[i]);
	free(e->keys);
	e->keys = NULL;
	strlist_release(&e->entries);
}

int query_selection_keyed(struct store *s, int64_t run_id, struct selection_entries *out)
{
	static const char sql[] = "SELECT entries, keys FROM selection WHERE run_id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct keyed_entries k = KEYED_ENTRIES_INIT;
	int rc, ret = 0;

	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW &&
	    (store_strings_each(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
				push_entry, &out->entries) < 0 ||
	     keyed_entries_decode(sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1),
				  &out->entries, &k) < 0))
		ret = error("store '%s': the selection of run %" PRId64 " is corrupt",
			    s->path, run_id);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read a selection");
	if (!ret)
		out->keys = xcalloc(out->entries.nr + 1, sizeof(*out->keys));
	/* The places are within the entries (keyed_entries_decode checked): each key moves there. */
	for (size_t i = 0; !ret && i < k.nr; i++) {
		out->keys[k.at[i].pos] = k.at[i].key;
		k.at[i].key = NULL;
	}
	keyed_entries_release(&k);
	if (ret)
		selection_entries_release(out);
	return ret;
}

const char *selection_entry_key_of(const struct selection_entries *e, const char *entry)
{
	size_t at = strlist_sorted_find(&e->entries, entry);

	return at != SIZE_MAX ? e->keys[at] : NULL;
}

int query_unmatched_selections(struct store *s, unmatched_fn fn, void *data)
{
	static const char sql[] =
		"SELECT s.run_id, s.entries_unmatched, (SELECT f.id FROM run f"
		"  WHERE f.head_id = r.head_id AND f.kind = 'full' ORDER BY f.attempt DESC LIMIT 1)"
		" FROM selection s JOIN run r ON r.id = s.run_id"
		" WHERE s.decision = 'selected' AND s.entries_unmatched > 0 ORDER BY s.run_id";
	sqlite3_stmt *st = store_stmt(s, sql);
	struct int_vec rows = INT_VEC_INIT;
	int rc, ret = 0;

	/* Read first: fn reads the store with statements of its own. */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 3; i++)
			int_vec_push(&rows, sqlite3_column_int64(st, i));
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		ret = store_error(s, "cannot read the selections' unmatched entries");
	for (size_t i = 0; !ret && i + 2 < rows.nr; i += 3)
		ret = fn(rows.v[i], rows.v[i + 2], rows.v[i + 1], data);
	int_vec_release(&rows);
	return ret;
}

int query_selection_unmatched(struct store *s, int64_t run_id, struct strlist *out,
			      bool *known)
{
	static const char sql[] = "SELECT unmatched FROM selection WHERE run_id = ?1";

	return selection_column_each(s, sql, run_id, push_entry, out, known);
}

int query_selection_ran(struct store *s, int64_t run_id, struct strlist *ran_broad,
			struct strlist *skipped_named, bool *known)
{
	static const char broad_sql[] = "SELECT ran_broad FROM selection WHERE run_id = ?1";
	static const char skipped_sql[] =
		"SELECT skipped_named FROM selection WHERE run_id = ?1";
	bool also;
	int ret = selection_column_each(s, broad_sql, run_id, push_entry, ran_broad, known);

	if (!ret && *known)
		ret = selection_column_each(s, skipped_sql, run_id, push_entry, skipped_named,
					    &also);
	return ret;
}

void quarantine_list_release(struct quarantine_list *q)
{
	strlist_release(&q->lines);
	strlist_release(&q->keys);
}

/* A line as the figures match it: the key an id-map gave it, else as written. */
#define QUARANTINE_ENTRY "coalesce(q.key, n.text), q.key IS NOT NULL"

int query_quarantine(struct store *s, int64_t run_id, struct quarantine_list *out)
{
	static const char sql[] =
		"SELECT " QUARANTINE_ENTRY " FROM quarantine q JOIN name n ON n.id = q.name_id"
		" WHERE q.run_id = ?1 ORDER BY 1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strlist_push(sqlite3_column_int(st, 1) ? &out->keys : &out->lines,
			     store_col_text(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read a quarantine list");
}

int query_quarantine_index(struct store *s, struct quarantine_index *out)
{
	static const char sql[] =
		"SELECT q.run_id, " QUARANTINE_ENTRY " FROM quarantine q"
		" JOIN name n ON n.id = q.name_id ORDER BY q.run_id, 2";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr].run_id = sqlite3_column_int64(st, 0);
		out->items[out->nr].keyed = sqlite3_column_int(st, 2);
		out->items[out->nr++].name = xstrdup(store_col_text(st, 1));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		quarantine_index_release(out);
		return store_error(s, "cannot read the quarantine lists");
	}
	return 0;
}

void quarantine_index_get(const struct quarantine_index *q, int64_t run_id,
			  struct quarantine_list *out)
{
	size_t lo = 0, hi = q->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->items[mid].run_id < run_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < q->nr && q->items[lo].run_id == run_id; lo++)
		strlist_push(q->items[lo].keyed ? &out->keys : &out->lines, q->items[lo].name);
}

void quarantine_index_release(struct quarantine_index *q)
{
	for (size_t i = 0; i < q->nr; i++)
		free(q->items[i].name);
	free(q->items);
	memset(q, 0, sizeof(*q));
}

void diff_info_release(struct diff_info *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->files[i].path);
		free(d->files[i].old_path);
		lineset_release(&d->files[i].added);
	}
	free(d->files);
	memset(d, 0, sizeof(*d));
}

static int read_diff_files(struct store *s, struct diff_info *out)
{
	static const char sql[] =
		"SELECT path, status, old_path, added FROM diff_file"
		" WHERE diff_id = ?1 ORDER BY pos";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, out->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct diff_file_info *f;

		ALLOC_GROW(out->files, out->nr + 1, out->alloc);
		f = &out->files[out->nr++];
		memset(f, 0, sizeof(*f));
		f->path = xstrdup(store_col_text(st, 0));
		f->status = change_status_from_name(store_col_text(st, 1));
		if (!store_col_is_null(st, 2))
			f->old_path = xstrdup(store_col_text(st, 2));
		lineset_parse(&f->added, store_col_text(st, 3));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot read changed files");
	return 0;
}

int query_diff(struct store *s, int64_t diff_id, struct diff_info *out)
{
	static const char sql[] =
		"SELECT base, head, coalesce(merge_base, ''), state FROM diff WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(st, 1, diff_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = diff_id;
		copy_sha(out->base, store_col_text(st, 0));
		copy_sha(out->head, store_col_text(st, 1));
		copy_sha(out->merge_base, store_col_text(st, 2));
		out->unknown = !strcmp(store_col_text(st, 3), "unknown");
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot read a diff");
	return read_diff_files(s, out);
}

int query_diff_paths(struct store *s, diff_path_fn fn, void *data)
{
	static const char sql[] =
		"SELECT diff_id, path, old_path FROM diff_file ORDER BY diff_id, pos";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *old = store_col_is_null(st, 2) ? NULL : store_col_text(st, 2);

		ret = fn(sqlite3_column_int64(st, 0), store_col_text(st, 1), old, data);
		if (ret)
			break;
	}
	sqlite3_reset(st);
	if (!ret && rc != SQLITE_DONE)
		return store_error(s, "cannot read changed files");
	return ret;
}

void run_coverage_release(struct run_coverage *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->files[i].path);
		lineset_release(&c->files[i].executable);
		lineset_release(&c->files[i].executed);
	}
	free(c->files);
	memset(c, 0, sizeof(*c));
}

int query_run_coverage(struct store *s, int64_t run_id, struct run_coverage *out)
{
	static const char sql[] =
		"SELECT path, executable, executed FROM coverage WHERE run_id = ?1"
		" ORDER BY path";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct coverage_info *c;

		ALLOC_GROW(out->files, out->nr + 1, out->alloc);
		c = &out->files[out->nr++];
		memset(c, 0, sizeof(*c));
		c->path = xstrdup(store_col_text(st, 0));
		lineset_parse(&c->executable, store_col_text(st, 1));
		lineset_parse(&c->executed, store_col_text(st, 2));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot read coverage");
	return 0;
}

int query_notes(struct store *s, int64_t head_id, struct note_info **out, size_t *nr)
{
	static const char sql[] =
		"SELECT id, created_at, text FROM note WHERE head_id = ?1 ORDER BY id";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	sqlite3_bind_int64(st, 1, head_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[*nr].id = sqlite3_column_int64(st, 0);
		(*out)[*nr].created_at = sqlite3_column_int64(st, 1);
		(*out)[*nr].text = xstrdup(store_col_text(st, 2));
		(*nr)++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot read notes");
	return 0;
}

int query_note_index(struct store *s, struct note_index *out)
{
	static const char sql[] = "SELECT head_id, text FROM note ORDER BY head_id, id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t head_id = sqlite3_column_int64(st, 0);
		struct note_latest *last = out->nr ? &out->items[out->nr - 1] : NULL;

		if (last && last->head_id == head_id) {
			free(last->text); /* a later note of the same head */
		} else {
			ALLOC_GROW(out->items, out->nr + 1, out->alloc);
			last = &out->items[out->nr++];
			last->head_id = head_id;
		}
		last->text = xstrdup(store_col_text(st, 1));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		note_index_release(out);
		return store_error(s, "cannot read notes");
	}
	return 0;
}

const char *note_index_get(const struct note_index *n, int64_t head_id)
{
	size_t lo = 0, hi = n->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (n->items[mid].head_id < head_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n->nr && n->items[lo].head_id == head_id ? n->items[lo].text : NULL;
}

void note_index_release(struct note_index *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->items[i].text);
	free(n->items);
	memset(n, 0, sizeof(*n));
}

void notes_release(struct note_info *notes, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(notes[i].text);
	free(notes);
}
