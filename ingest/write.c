/* The ingest writer: one run, its selection, results, diff and coverage, in one transaction. */
#include "core/tiadash.h"
#include "core/lineset.h"
#include "ingest/run_data.h"

int write_find_run(struct store *s, const char *repo, const char *head,
		   enum run_kind kind, int attempt, int64_t *source_id,
		   char **digest, char **uri)
{
	static const char sql[] =
		"SELECT s.id, s.digest, s.uri FROM run r"
		" JOIN head h ON h.id = r.head_id JOIN source s ON s.id = r.source_id"
		" WHERE h.repo = ?1 AND h.sha = ?2 AND r.kind = ?3 AND r.attempt = ?4";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, head, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, run_kind_name(kind), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, attempt);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*source_id = sqlite3_column_int64(st, 0);
		free(*digest);
		free(*uri);
		*digest = xstrdup(store_col_text(st, 1));
		*uri = xstrdup(store_col_text(st, 2));
	}
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_error(s, "cannot look up a run");
}

static int upsert_head(struct store *s, const struct manifest *m, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO head (repo, sha, pr, at) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (repo, sha) DO UPDATE SET pr = coalesce(excluded.pr, pr)"
		" RETURNING id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_text(st, 1, m->repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, m->head, -1, SQLITE_STATIC);
	store_bind_opt_int(st, 3, m->has_pr, m->pr);
	sqlite3_bind_int64(st, 4, m->started_at);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot write a head");
}

static int insert_source(struct store *s, const struct run_source *rs,
			 const struct run_data *d, int64_t now, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO source (uri, digest, ingested_at) VALUES (?1, ?2, ?3)"
		" RETURNING id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_text(st, 1, rs->uri, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, d->digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot write a source");
}

static int insert_diff_files(struct store *s, int64_t diff_id, const struct repo_diff *diff)
{
	static const char sql[] =
		"INSERT INTO diff_file (diff_id, pos, path, status, old_path, added)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	struct strbuf added = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < diff->nr && !ret; i++) {
		const struct changed_file *f = &diff->files[i];
		sqlite3_stmt *st = store_stmt(s, sql);

		strbuf_reset(&added);
		lineset_format(&f->added, &added);
		sqlite3_bind_int64(st, 1, diff_id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_text(st, 3, f->path, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, change_status_name(f->status), -1, SQLITE_STATIC);
		store_bind_text(st, 5, f->old_path);
		sqlite3_bind_text(st, 6, added.buf, (int)added.len, SQLITE_STATIC);
		ret = store_exec_stmt(s, st, "cannot write a changed file");
	}
	strbuf_release(&added);
	return ret;
}

/*
 * The diff of (base, head) is shared by every run of that pair of commits:
 * reuse the stored one, replacing it only when it was unknown and is known now.
 */
static int write_diff(struct store *s, const struct manifest *m,
		      const struct run_data *d, int64_t *diff_id)
{
	static const char find_sql[] = "SELECT id, state FROM diff WHERE base = ?1 AND head = ?2";
	static const char del_sql[] = "DELETE FROM diff_file WHERE diff_id = ?1";
	static const char upsert_sql[] =
		"INSERT INTO diff (base, head, merge_base, state) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (base, head) DO UPDATE SET merge_base = excluded.merge_base,"
		" state = excluded.state RETURNING id";
	sqlite3_stmt *st = store_stmt(s, find_sql);
	bool known = d->git == RUN_GIT_OK;
	int rc;

	*diff_id = 0;
	if (d->git == RUN_GIT_NONE)
		return 0;
	sqlite3_bind_text(st, 1, m->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, m->head, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*diff_id = sqlite3_column_int64(st, 0);
		known = known && !strcmp(store_col_text(st, 1), "unknown");
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, "cannot read a diff");
	if (rc == SQLITE_ROW && !known)
		return 0;
	st = store_stmt(s, upsert_sql);
	sqlite3_bind_text(st, 1, m->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, m->head, -1, SQLITE_STATIC);
	store_bind_text(st, 3, d->git == RUN_GIT_OK ? d->diff.merge_base : NULL);
	sqlite3_bind_text(st, 4, d->git == RUN_GIT_OK ? "ok" : "unknown", -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*diff_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot write a diff");
	if (d->git != RUN_GIT_OK)
		return 0;
	st = store_stmt(s, del_sql);
	sqlite3_bind_int64(st, 1, *diff_id);
	if (store_exec_stmt(s, st, "cannot replace a diff") < 0)
		return -1;
	return insert_diff_files(s, *diff_id, &d->diff);
}

static int insert_run(struct store *s, const struct manifest *m, const struct run_data *d,
		      int64_t source_id, int64_t head_id, int64_t diff_id, int64_t *run_id)
{
	static const char sql[] =
		"INSERT INTO run (source_id, head_id, kind, attempt, pr, base, started_at,"
		" wall_clock_s, verdict, git, diff_id, tests, failures, errors, skipped,"
		" flaky, cov_lines, cov_hit) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) RETURNING id";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, source_id);
	sqlite3_bind_int64(st, 2, head_id);
	sqlite3_bind_text(st, 3, run_kind_name(m->kind), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, m->attempt);
	store_bind_opt_int(st, 5, m->has_pr, m->pr);
	store_bind_text(st, 6, *m->base ? m->base : NULL);
	sqlite3_bind_int64(st, 7, m->started_at);
	store_bind_opt_double(st, 8, m->wall_clock_s);
	sqlite3_bind_text(st, 9, verdict_name(m->verdict), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, git_state_name(d->git), -1, SQLITE_STATIC);
	store_bind_opt_int(st, 11, diff_id != 0, diff_id);
	sqlite3_bind_int64(st, 12, d->stats.tests);
	sqlite3_bind_int64(st, 13, d->nr_failing);
	sqlite3_bind_int64(st, 14, d->nr_errors);
	sqlite3_bind_int64(st, 15, d->stats.skipped);
	sqlite3_bind_int64(st, 16, d->nr_flaky);
	store_bind_opt_int(st, 17, d->has_coverage, d->cov_lines);
	store_bind_opt_int(st, 18, d->has_coverage, d->cov_hit);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : store_error(s, "cannot write a run");
}

/*
 * The quarantine lines, each with whether it names a test file or suite
 * (NULL: no tree to tell); one an id-map may key again, with the id-map's
 * fingerprint, the directory it was judged from and the key the id-map
 * gave it (core/rekey.h).
 */
static int insert_quarantine(struct store *s, int64_t run_id, const struct run_data *d)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO quarantine (run_id, name_id, resolved, keyed_by, workdir, key)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	char fingerprint[33];

	idmap_fingerprint(d->idmap, fingerprint);
	for (size_t i = 0; i < d->quarantine.nr; i++) {
		const char *name = d->quarantine.items[i];
		const struct quarantine_judged *j = &d->quarantine_at[i];
		sqlite3_stmt *st;
		int64_t id;

		if (store_name_id(s, name, strlen(name), &id) < 0)
			return -1;
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, id);
		store_bind_opt_int(st, 3, j->joined >= 0, j->joined);
		store_bind_text(st, 4, j->keyed ? fingerprint : NULL);
		store_bind_text(st, 5, j->keyed ? d->workdir : NULL);
		store_bind_text(st, 6, j->key);
		if (store_exec_stmt(s, st, "cannot write a quarantine line") < 0)
			return -1;
	}
	return 0;
}

/* The suite names the selection declares (ingest/run_data.h), once each in the store. */
static int insert_declared(struct store *s, const struct run_data *d)
{
	static const char sql[] = "INSERT OR IGNORE INTO declared_name (name_id) VALUES (?1)";

	for (size_t i = 0; i < d->declared.nr; i++) {
		const char *name = d->declared.items[i];
		sqlite3_stmt *st;
		int64_t id;

		if (store_name_id(s, name, strlen(name), &id) < 0)
			return -1;
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, id);
		if (store_exec_stmt(s, st, "cannot write a declared suite") < 0)
			return -1;
	}
	return 0;
}

static int insert_selection(struct store *s, const struct manifest *m,
			    const struct run_data *d, int64_t run_id)
{
	static const char sel_sql[] =
		"INSERT INTO selection (run_id, decision, total_tests, selected_count,"
		" format, entries, entries_total, entries_unresolved, entries_unmatched, unmatched,"
		" ran_broad, skipped_named, keys, keyed_by, workdir)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
	static const char reason_sql[] =
		"INSERT INTO selection_reason (run_id, pos, reason) VALUES (?1, ?2, ?3)";
	char fingerprint[33];
	sqlite3_stmt *st;
	const char *format;
	int ret;

	if (!m->sel.present)
		return 0;
	format = m->sel.engine_file ? "cbm" : m->sel.selected_file ? "list" : "inline";
	st = store_stmt(s, sel_sql);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, decision_name(d->decision), -1, SQLITE_STATIC);
	store_bind_opt_int(st, 3, d->has_total, d->total_tests);
	store_bind_opt_int(st, 4, d->has_selected, d->selected_count);
	sqlite3_bind_text(st, 5, format, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, d->entries_blob.buf, (int)d->entries_blob.len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, d->entry_ids.total);
	sqlite3_bind_int64(st, 8, d->entry_ids.unresolved);
	store_bind_opt_int(st, 9, d->has_unmatched, d->entries_unmatched);
	if (d->has_unmatched)
		sqlite3_bind_blob(st, 10, d->unmatched_blob.buf, (int)d->unmatched_blob.len,
				  SQLITE_STATIC);
	/* Empty is a list (the run ran no test but by id), NULL none kept. */
	if (d->has_unmatched && d->ran_broad_kept) {
		sqlite3_bind_blob(st, 11, d->ran_broad_blob.buf, (int)d->ran_broad_blob.len,
				  SQLITE_STATIC);
		sqlite3_bind_blob(st, 12, d->skipped_named_blob.buf,
				  (int)d->skipped_named_blob.len, SQLITE_STATIC);
	}
	/* The entries an id-map may key, its fingerprint, and where they were judged from. */
	if (d->keys_blob.len) {
		idmap_fingerprint(d->idmap, fingerprint);
		sqlite3_bind_blob(st, 13, d->keys_blob.buf, (int)d->keys_blob.len, SQLITE_STATIC);
		sqlite3_bind_text(st, 14, fingerprint, -1, SQLITE_STATIC);
		store_bind_text(st, 15, m->workdir);
	}
	ret = store_exec_stmt(s, st, "cannot write a selection");
	for (size_t i = 0; i < d->reasons.nr && !ret; i++) {
		st = store_stmt(s, reason_sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_text(st, 3, d->reasons.items[i], -1, SQLITE_STATIC);
		ret = store_exec_stmt(s, st, "cannot write a reason");
	}
	return ret;
}

static int insert_results(struct store *s, const struct run_data *d, int64_t run_id)
{
	static const char sql[] =
		"INSERT INTO result (run_id, suite_id, case_id, outcome, digest, excerpt,"
		" count, resolved, raw, keyed_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
	char fingerprint[33];

	idmap_fingerprint(d->idmap, fingerprint);

	for (size_t i = 0; i < d->failures.cap; i++) {
		const struct strmap_entry *e = &d->failures.slots[i];
		const struct fail_row *f;
		size_t slen;
		int64_t suite_id, case_id;
		const struct strmap_entry *de;
		const struct failure_detail *fd = NULL;
		sqlite3_stmt *st;

		if (!e->key)
			continue;
		f = &d->rows[e->value];
		de = strmap_find(&d->detail_index, e->key, e->keylen);
		if (de && fail_row_outcome(f) != OUTCOME_FLAKY)
			fd = &d->details[de->value];
		slen = strlen(e->key);
		if (store_name_id(s, e->key, slen, &suite_id) < 0 ||
		    store_name_id(s, e->key + slen + 1, e->keylen - slen - 1, &case_id) < 0)
			return -1;
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int64(st, 2, suite_id);
		sqlite3_bind_int64(st, 3, case_id);
		sqlite3_bind_text(st, 4, outcome_name(fail_row_outcome(f)), -1, SQLITE_STATIC);
		store_bind_text(st, 5, fd ? fd->digest : NULL);
		store_bind_text(st, 6, fd ? fd->excerpt : NULL);
		sqlite3_bind_int64(st, 7, fail_row_cases(f));
		sqlite3_bind_int(st, 8, f->state == ID_RESOLVED ? RESOLVED_PATH :
					f->state == ID_NAME ? RESOLVED_NAME : RESOLVED_NOT);
		if (f->raw) {
			sqlite3_bind_blob(st, 9, f->raw, (int)f->raw_len, SQLITE_STATIC);
			sqlite3_bind_text(st, 10, fingerprint, -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_null(st, 9);
			sqlite3_bind_null(st, 10);
		}
		if (store_exec_stmt(s, st, "cannot write a test result") < 0)
			return -1;
	}
	return 0;
}

/* Coverage of the changed lines only: what diff coverage and the detail view need. */
static int insert_coverage(struct store *s, const struct run_data *d, int64_t run_id)
{
	static const char sql[] =
		"INSERT INTO coverage (run_id, path, executable, executed) VALUES (?1, ?2, ?3, ?4)";
	struct strbuf ex = STRBUF_INIT, hit = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; d->has_coverage && i < d->diff.nr && !ret; i++) {
		sqlite3_stmt *st;

		if (!d->cov_seen[i])
			continue;
		strbuf_reset(&ex);
		strbuf_reset(&hit);
		lineset_format(&d->executable[i], &ex);
		lineset_format(&d->executed[i], &hit);
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, d->diff.files[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, ex.buf, (int)ex.len, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, hit.buf, (int)hit.len, SQLITE_STATIC);
		ret = store_exec_stmt(s, st, "cannot write coverage");
	}
	strbuf_release(&ex);
	strbuf_release(&hit);
	return ret;
}

/* A head's window time: its first shadow run, else its first full run. */
static int update_head_time(struct store *s, int64_t head_id)
{
	static const char sql[] =
		"UPDATE head SET at = coalesce("
		" (SELECT min(started_at) FROM run WHERE head_id = ?1 AND kind = 'shadow'),"
		" (SELECT min(started_at) FROM run WHERE head_id = ?1)) WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, head_id);
	return store_exec_stmt(s, st, "cannot update a head");
}

static int delete_source(struct store *s, int64_t source_id)
{
	static const char sql[] = "DELETE FROM source WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, source_id);
	return store_exec_stmt(s, st, "cannot replace a run");
}

/* Inside the write lock: has a concurrent ingest stored this run meanwhile? */
static int recheck(struct store *s, const struct run_source *rs, const struct run_data *d)
{
	int64_t src = 0;
	char *digest = NULL, *uri = NULL;
	int rc = write_find_run(s, rs->m.repo, rs->m.head, rs->m.kind, rs->m.attempt,
				&src, &digest, &uri);

	if (rc == 1 && src != d->old_source) {
		rc = !strcmp(digest, d->digest) ? WRITE_UNCHANGED :
		     error("%s: %s run %.12s attempt %d was stored from '%s' while "
			   "this ingest ran", rs->uri, run_kind_name(rs->m.kind),
			   rs->m.head, rs->m.attempt, uri);
	} else if (rc == 1) {
		rc = 0;
	}
	free(digest);
	free(uri);
	return rc;
}

int write_run(struct ingest *ing, struct run_source *rs, struct run_data *d)
{
	struct store *s = ing->store;
	int64_t head_id = 0, source_id = 0, diff_id = 0, run_id = 0;
	int rc;

	if (!s->depth)
		BUG("write_run outside a transaction");
	rc = recheck(s, rs, d);
	if (rc != 0)
		return rc < 0 ? WRITE_REFUSED : rc;
	if ((d->old_source && delete_source(s, d->old_source) < 0) ||
	    upsert_head(s, &rs->m, &head_id) < 0 ||
	    insert_source(s, rs, d, ing->now, &source_id) < 0 ||
	    write_diff(s, &rs->m, d, &diff_id) < 0 ||
	    insert_run(s, &rs->m, d, source_id, head_id, diff_id, &run_id) < 0 ||
	    insert_selection(s, &rs->m, d, run_id) < 0 ||
	    insert_results(s, d, run_id) < 0 ||
	    insert_quarantine(s, run_id, d) < 0 || insert_declared(s, d) < 0 ||
	    insert_coverage(s, d, run_id) < 0 ||
	    (d->keep_tests &&
	     testset_write(s, rs->m.repo, rs->m.started_at, run_id, &d->tests) < 0) ||
	    update_head_time(s, head_id) < 0)
		return error("%s: not ingested", rs->uri);
	return 0;
}
