/* The query layer's reading of main's record (core/query.h): the main line, the run that covers a pair's fork, main's runs. */
#include "core/tiadash.h"
#include "core/query.h"

int query_mainline_seq(struct store *s, const char *repo, const char *sha, int64_t *seq)
{
	static const char sql[] = "SELECT seq FROM mainline WHERE repo = ?1 AND sha = ?2";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, "cannot read main's line");
	return rc == SQLITE_ROW;
}

/* The diff's merge base into fork (NUL-terminated), "" when it has none. */
static int diff_fork(struct store *s, int64_t diff_id, char fork[41])
{
	static const char sql[] = "SELECT merge_base FROM diff WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	fork[0] = '\0';
	sqlite3_bind_int64(st, 1, diff_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && !store_col_is_null(st, 0))
		snprintf(fork, 41, "%s", store_col_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, "cannot read a diff's merge base");
	return 0;
}

int query_main_cover(struct store *s, const char *repo, int64_t diff_id, int64_t head_id,
		     struct main_cover *out)
{
	/* Down main's line from the fork to the first commit main ran. */
	static const char sql[] =
		"SELECT r.id, h.sha FROM mainline m"
		" JOIN head h ON h.repo = m.repo AND h.sha = m.sha"
		" JOIN run r ON r.head_id = h.id"
		" WHERE m.repo = ?1 AND m.seq <= ?2 AND h.id != ?3"
		"   AND r.kind = 'full' AND r.pr IS NULL"
		" ORDER BY m.seq DESC, r.attempt DESC LIMIT 1";
	char fork[41];
	int64_t seq;
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!diff_id)
		return 0;
	if (diff_fork(s, diff_id, fork) < 0)
		return -1;
	out->fork_known = fork[0] != '\0';
	if (!out->fork_known)
		return 0;
	rc = query_mainline_seq(s, repo, fork, &seq);
	if (rc <= 0)
		return rc;
	out->fork_on_line = true;
	st = store_stmt(s, sql);
	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, seq);
	sqlite3_bind_int64(st, 3, head_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->run_id = sqlite3_column_int64(st, 0);
		snprintf(out->sha, sizeof(out->sha), "%s", store_col_text(st, 1));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, "cannot read main's runs");
	return 0;
}

/*
 * Main's runs are read through the partial index run_main (the full runs
 * without a PR), named: without ANALYZE statistics SQLite otherwise walks
 * every full run (run_kind) or every run of the window (run_started) and
 * looks each head up, a quarter of a report's time at 10^5 pairs without
 * a single run of main.
 */
int query_class_stamp(struct store *s, struct strbuf *out)
{
	static const char sql[] =
		"SELECT (SELECT count(*) || ':' || coalesce(min(seq), '') || ':' ||"
		"        coalesce(max(seq), '') || ':' ||"
		"        (SELECT coalesce(group_concat(tip), '') FROM mainline_state) FROM mainline),"
		"       (SELECT count(*) || ':' || coalesce(max(r.id), '') FROM run r INDEXED BY run_main"
		"        JOIN head h ON h.id = r.head_id"
		"        JOIN mainline m ON m.repo = h.repo AND m.sha = h.sha"
		"        WHERE r.kind = 'full' AND r.pr IS NULL),"
		"       (SELECT count(*) FROM declared_name)";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		strbuf_addf(out, "line %s runs %s declared %s", store_col_text(st, 0),
			    store_col_text(st, 1), store_col_text(st, 2));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot read main's record");
	return 0;
}

void main_runs_release(struct main_run *runs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(runs[i].repo);
		strlist_release(&runs[i].red);
	}
	free(runs);
}

int query_main_runs(struct store *s, const char *repo, int64_t until, struct main_run **out,
		    size_t *nr)
{
	static const char sql[] =
		"SELECT h.id, h.repo, h.sha, m.seq, r.id, r.started_at, r.verdict"
		" FROM run r INDEXED BY run_main"
		" JOIN head h ON h.id = r.head_id"
		" JOIN mainline m ON m.repo = h.repo AND m.sha = h.sha"
		" WHERE (?1 IS NULL OR m.repo = ?1) AND r.kind = 'full' AND r.pr IS NULL"
		"   AND r.started_at < ?2 AND r.attempt = (SELECT max(attempt) FROM run x"
		"     WHERE x.head_id = h.id AND x.kind = 'full' AND x.pr IS NULL)"
		" ORDER BY m.repo, m.seq";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t alloc = 0;
	int rc, ret = 0;

	*out = NULL;
	*nr = 0;
	store_bind_text(st, 1, repo);
	sqlite3_bind_int64(st, 2, until);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct main_run *m;

		ALLOC_GROW(*out, *nr + 1, alloc);
		m = &(*out)[(*nr)++];
		memset(m, 0, sizeof(*m));
		m->head_id = sqlite3_column_int64(st, 0);
		m->repo = xstrdup(store_col_text(st, 1));
		snprintf(m->sha, sizeof(m->sha), "%s", store_col_text(st, 2));
		m->seq = sqlite3_column_int64(st, 3);
		m->run_id = sqlite3_column_int64(st, 4);
		m->started_at = sqlite3_column_int64(st, 5);
		if (!verdict_parse(store_col_text(st, 6), &m->verdict))
			m->verdict = VERDICT_ERROR;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot read main's runs");
	for (size_t i = 0; !ret && i < *nr; i++)
		ret = query_run_failed_ids(s, (*out)[i].run_id, &(*out)[i].red);
	return ret;
}

int query_newest_run(struct store *s, int64_t *id)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT coalesce(max(id), 0) FROM run");
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot read the runs");
}
