/* A seeding experiment written to the store as it goes: the experiment, its changes, each finished mutant, its end. */
#include "core/tiadash.h"
#include "core/store.h"
#include "seed/seed.h"

/* One statement in a transaction of its own. */
static int exec_one(struct store *st, sqlite3_stmt *q, const char *what)
{
	int ret;

	if (store_begin(st) < 0) {
		sqlite3_reset(q);
		return -1;
	}
	ret = store_exec_stmt(st, q, what);
	if (ret < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st);
}

int seed_store_begin(struct store *st, const struct seed_experiment_meta *m, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO seed_experiment (repo, started_at, state, since, until, seed, "
		"selector, test_cmd, full_cmd, changes_wanted, mutants_wanted) "
		"VALUES (?1, ?2, 'running', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
	sqlite3_stmt *q = store_stmt(st, sql);

	store_bind_text(q, 1, m->repo);
	sqlite3_bind_int64(q, 2, m->started_at);
	store_bind_opt_int(q, 3, m->since != INT64_MIN, m->since);
	store_bind_opt_int(q, 4, m->until != INT64_MAX, m->until);
	sqlite3_bind_int64(q, 5, (int64_t)m->seed);
	store_bind_text(q, 6, m->selector);
	store_bind_text(q, 7, m->test_cmd);
	store_bind_text(q, 8, m->full_cmd);
	sqlite3_bind_int64(q, 9, (int64_t)m->changes);
	sqlite3_bind_int64(q, 10, (int64_t)m->mutants);
	if (exec_one(st, q, "cannot store the seeding experiment") < 0)
		return -1;
	*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int seed_store_changes(struct store *st, int64_t id, const struct seed_sample *s)
{
	static const char sql[] =
		"INSERT INTO seed_change (experiment_id, pos, sha, pr, decision, selected, skipped) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	int ret = 0;

	if (store_begin(st) < 0)
		return -1;
	for (size_t i = 0; !ret && i < s->nr; i++) {
		const struct seed_change *c = &s->changes[i];
		sqlite3_stmt *q = store_stmt(st, sql);
		bool listed = !strcmp(c->decision, "selected") || !strcmp(c->decision, "nothing");

		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int64(q, 2, (int64_t)c->pos);
		store_bind_text(q, 3, c->commit->sha);
		store_bind_opt_int(q, 4, c->commit->has_pr, c->commit->pr);
		store_bind_text(q, 5, c->decision);
		store_bind_opt_int(q, 6, listed, (int64_t)c->subset.nr);
		store_bind_text(q, 7, c->skipped);
		ret = store_exec_stmt(st, q, "cannot store a seeded change");
	}
	if (ret < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st);
}

int seed_store_change_end(struct store *st, int64_t id, const struct seed_change *c)
{
	static const char sql[] =
		"UPDATE seed_change SET candidates = ?3, reached = ?4, skipped = ?5 "
		"WHERE experiment_id = ?1 AND pos = ?2";
	sqlite3_stmt *q = store_stmt(st, sql);

	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, (int64_t)c->pos);
	sqlite3_bind_int64(q, 3, (int64_t)c->files.nr);
	sqlite3_bind_int64(q, 4, c->reached);
	store_bind_text(q, 5, c->skipped);
	return exec_one(st, q, "cannot store a seeded change");
}

int seed_store_mutant(struct store *st, int64_t id, size_t pos, const struct seed_mutant *m)
{
	static const char sql[] =
		"INSERT INTO seed_mutant (experiment_id, pos, change_pos, path, line, col, "
		"operator, before, after, verdict, timed_out, why, subset_s, full_s, caught_by, "
		"executed) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)";
	sqlite3_stmt *q = store_stmt(st, sql);
	struct strbuf blob = STRBUF_INIT;
	int ret;

	store_strings_encode(m->caught_by, &blob);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, (int64_t)pos);
	sqlite3_bind_int64(q, 3, (int64_t)m->change);
	store_bind_text(q, 4, m->path);
	sqlite3_bind_int64(q, 5, m->line);
	sqlite3_bind_int64(q, 6, (int64_t)m->col);
	store_bind_text(q, 7, m->op);
	store_bind_text(q, 8, m->before);
	store_bind_text(q, 9, m->after);
	store_bind_text(q, 10, seed_verdict_name(m->verdict));
	sqlite3_bind_int(q, 11, m->timed_out);
	store_bind_text(q, 12, m->why);
	store_bind_opt_double(q, 13, m->subset_s);
	store_bind_opt_double(q, 14, m->full_s);
	sqlite3_bind_blob(q, 15, blob.buf, (int)blob.len, SQLITE_TRANSIENT);
	store_bind_text(q, 16, seed_executed_key(m->executed));
	ret = exec_one(st, q, "cannot store a seeded mutant");
	strbuf_release(&blob);
	return ret;
}

int seed_store_end(struct store *st, int64_t id, enum seed_stop stop, int64_t at)
{
	static const char sql[] =
		"UPDATE seed_experiment SET state = ?2, finished_at = ?3 WHERE id = ?1";
	sqlite3_stmt *q = store_stmt(st, sql);

	sqlite3_bind_int64(q, 1, id);
	store_bind_text(q, 2, seed_stop_name(stop));
	sqlite3_bind_int64(q, 3, at);
	return exec_one(st, q, "cannot store the end of the seeding experiment");
}
