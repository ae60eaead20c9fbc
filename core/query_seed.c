/* The query layer's reading of defect-seeding experiments (core/query.h): an experiment, its changes and mutants. */
#include "core/tiadash.h"
#include "core/query.h"

static const char *const verdict_names[] = { "subset", "full", "none", "invalid" };

const char *seed_verdict_name(enum seed_verdict v)
{
	return verdict_names[v];
}

bool seed_verdict_parse(const char *s, enum seed_verdict *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(verdict_names); i++) {
		if (!strcmp(s, verdict_names[i])) {
			*out = (enum seed_verdict)i;
			return true;
		}
	}
	return false;
}

void seed_info_release(struct seed_info *i)
{
	for (size_t k = 0; k < i->nr_changes; k++) {
		free(i->changes[k].decision);
		free(i->changes[k].skipped);
	}
	for (size_t k = 0; k < i->nr_mutants; k++) {
		struct seed_mutant_info *m = &i->mutants[k];

		free(m->path);
		free(m->op);
		free(m->before);
		free(m->after);
		free(m->why);
		strlist_release(&m->caught_by);
	}
	free(i->changes);
	free(i->mutants);
	free(i->repo);
	free(i->state);
	free(i->selector);
	free(i->test_cmd);
	free(i->full_cmd);
	memset(i, 0, sizeof(*i));
}

static int64_t col_bound(sqlite3_stmt *st, int col, int64_t none)
{
	return store_col_is_null(st, col) ? none : sqlite3_column_int64(st, col);
}

static char *col_opt_text(sqlite3_stmt *st, int col)
{
	return store_col_is_null(st, col) ? NULL : xstrdup(store_col_text(st, col));
}

static int read_changes(struct store *s, struct seed_info *out)
{
	static const char sql[] =
		"SELECT pos, sha, pr, decision, selected, candidates, reached, skipped "
		"FROM seed_change WHERE experiment_id = ?1 ORDER BY pos";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t alloc = 0;
	int rc;

	sqlite3_bind_int64(st, 1, out->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct seed_change_info *c;

		ALLOC_GROW(out->changes, out->nr_changes + 1, alloc);
		c = &out->changes[out->nr_changes++];
		memset(c, 0, sizeof(*c));
		c->pos = sqlite3_column_int64(st, 0);
		snprintf(c->sha, sizeof(c->sha), "%s", store_col_text(st, 1));
		c->has_pr = !store_col_is_null(st, 2);
		c->pr = sqlite3_column_int64(st, 2);
		c->decision = xstrdup(store_col_text(st, 3));
		c->selected = col_bound(st, 4, -1);
		c->candidates = sqlite3_column_int64(st, 5);
		c->reached = sqlite3_column_int64(st, 6);
		c->skipped = col_opt_text(st, 7);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read the seeded changes");
}

static const char *col_opt_text_borrowed(sqlite3_stmt *st, int col)
{
	return store_col_is_null(st, col) ? NULL : store_col_text(st, col);
}

static int read_mutant(sqlite3_stmt *st, struct seed_mutant_info *m, struct store *s)
{
	memset(m, 0, sizeof(*m));
	m->pos = sqlite3_column_int64(st, 0);
	m->change = sqlite3_column_int64(st, 1);
	m->path = xstrdup(store_col_text(st, 2));
	m->line = sqlite3_column_int64(st, 3);
	m->col = sqlite3_column_int64(st, 4);
	m->op = xstrdup(store_col_text(st, 5));
	m->before = xstrdup(store_col_text(st, 6));
	m->after = xstrdup(store_col_text(st, 7));
	m->timed_out = sqlite3_column_int(st, 9) != 0;
	m->why = col_opt_text(st, 10);
	m->subset_s = store_col_double(st, 11);
	m->full_s = store_col_double(st, 12);
	if (!seed_verdict_parse(store_col_text(st, 8), &m->verdict))
		return error("store '%s': seeded mutant %" PRId64 " has verdict '%s'",
			     s->path, m->pos, store_col_text(st, 8));
	if (store_strings_decode(sqlite3_column_blob(st, 13),
				 (size_t)sqlite3_column_bytes(st, 13), &m->caught_by) < 0)
		return error("store '%s': seeded mutant %" PRId64 ": a corrupt test list",
			     s->path, m->pos);
	if (!seed_executed_parse(col_opt_text_borrowed(st, 14), &m->executed))
		return error("store '%s': seeded mutant %" PRId64 " has executed '%s'",
			     s->path, m->pos, store_col_text(st, 14));
	return 0;
}

static int read_mutants(struct store *s, struct seed_info *out)
{
	static const char sql[] =
		"SELECT pos, change_pos, path, line, col, operator, before, after, verdict, "
		"timed_out, why, subset_s, full_s, caught_by, executed "
		"FROM seed_mutant WHERE experiment_id = ?1 ORDER BY pos";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t alloc = 0;
	int rc, ret = 0;

	sqlite3_bind_int64(st, 1, out->id);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(out->mutants, out->nr_mutants + 1, alloc);
		ret = read_mutant(st, &out->mutants[out->nr_mutants++], s);
	}
	sqlite3_reset(st);
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read the seeded mutants");
	return ret;
}

/* One experiment row (st stepped onto it) and its changes and mutants. */
static int read_experiment(struct store *s, sqlite3_stmt *st, struct seed_info *out)
{
	out->id = sqlite3_column_int64(st, 0);
	out->repo = xstrdup(store_col_text(st, 1));
	out->started_at = sqlite3_column_int64(st, 2);
	out->finished_at = col_bound(st, 3, INT64_MIN);
	out->state = xstrdup(store_col_text(st, 4));
	out->since = col_bound(st, 5, INT64_MIN);
	out->until = col_bound(st, 6, INT64_MAX);
	out->seed = sqlite3_column_int64(st, 7);
	out->selector = xstrdup(store_col_text(st, 8));
	out->test_cmd = xstrdup(store_col_text(st, 9));
	out->full_cmd = xstrdup(store_col_text(st, 10));
	out->changes_wanted = sqlite3_column_int64(st, 11);
	out->mutants_wanted = sqlite3_column_int64(st, 12);
	sqlite3_reset(st);
	return read_changes(s, out) < 0 || read_mutants(s, out) < 0 ? -1 : 0;
}

#define EXPERIMENT_COLUMNS                                                      \
	"SELECT id, repo, started_at, finished_at, state, since, until, seed, "  \
	"selector, test_cmd, full_cmd, changes_wanted, mutants_wanted "          \
	"FROM seed_experiment "

static int step_experiment(struct store *s, sqlite3_stmt *st, struct seed_info *out)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return read_experiment(s, st, out);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 1 : store_error(s, "cannot read seeding experiments");
}

int query_seed_latest(struct store *s, const struct window *w, struct seed_info *out)
{
	static const char sql[] = EXPERIMENT_COLUMNS
		"WHERE started_at >= ?1 AND started_at < ?2 AND (?3 = '' OR repo = ?3) "
		"ORDER BY started_at DESC, id DESC LIMIT 1";
	sqlite3_stmt *st = store_stmt(s, sql);

	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(st, 1, w->since);
	sqlite3_bind_int64(st, 2, w->until);
	store_bind_text(st, 3, w->repo ? w->repo : "");
	return step_experiment(s, st, out);
}

int query_seed_by_id(struct store *s, int64_t id, struct seed_info *out)
{
	static const char sql[] = EXPERIMENT_COLUMNS "WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	memset(out, 0, sizeof(*out));
	sqlite3_bind_int64(st, 1, id);
	return step_experiment(s, st, out);
}

static const char *const executed_unknown[] = {
	[SEED_EXEC_NO_COVERAGE] = "no coverage",
	[SEED_EXEC_NO_FILE] = "file not in the coverage",
	[SEED_EXEC_NO_LINE] = "line not in the coverage",
};
static const char *const executed_keys[] = {
	[SEED_EXEC_YES] = "yes", [SEED_EXEC_NO] = "no",
	[SEED_EXEC_NO_FILE] = "no-file", [SEED_EXEC_NO_LINE] = "no-line",
};

const char *seed_executed_name(enum seed_executed e)
{
	switch (e) {
	case SEED_EXEC_YES: return "yes";
	case SEED_EXEC_NO: return "no";
	case SEED_EXEC_NO_COVERAGE: return "unknown (no coverage)";
	case SEED_EXEC_NO_FILE: return "unknown (file not in the coverage)";
	case SEED_EXEC_NO_LINE: return "unknown (line not in the coverage)";
	}
	return "unknown";
}

const char *seed_executed_unknown(enum seed_executed e)
{
	return e == SEED_EXEC_YES || e == SEED_EXEC_NO ? NULL : executed_unknown[e];
}

const char *seed_executed_key(enum seed_executed e)
{
	return executed_keys[e];
}

bool seed_executed_parse(const char *key, enum seed_executed *out)
{
	*out = SEED_EXEC_NO_COVERAGE;
	for (size_t i = 0; key && i < ARRAY_SIZE(executed_keys); i++) {
		if (executed_keys[i] && !strcmp(key, executed_keys[i])) {
			*out = (enum seed_executed)i;
			return true;
		}
	}
	return !key;
}
