/*
 * Main's line (SPEC 4, inherited): the first-parent history of each
 * repository's main branch, kept in the store so that metrics can tell a
 * run of main from a head that lacks its shadow run, and find the run of
 * main that covers a pair's fork point, without reading git.
 */
#include "core/tiadash.h"
#include "core/strmap.h"
#include "ingest/mainline.h"

/* How far back the line reaches before the oldest run of main it serves. */
#define SLACK_S (30 * 86400)
/* At most this many commits are read in one refresh (a history that big is walked over several ingests). */
#define WALK_LIMIT 200000

/* A head with full runs that name no PR and no shadow run: main's, when its commit is on the line. */
struct candidate {
	char sha[41];
	int64_t first_ms, newest_run;
};

struct line {
	const char *repo;
	struct strmap seq; /* sha -> seq */
	bool has_state, complete;
	char tip[41], bottom[41];
	int64_t bottom_at, bottom_seq;
};

static int read_candidates(struct store *s, const char *repo, struct candidate **out,
			   size_t *nr)
{
	static const char sql[] =
		"SELECT h.sha, min(r.started_at), max(r.id) FROM run r JOIN head h ON h.id = r.head_id"
		" WHERE h.repo = ?1 AND r.kind = 'full' AND r.pr IS NULL AND NOT EXISTS"
		"  (SELECT 1 FROM run x WHERE x.head_id = h.id AND x.kind = 'shadow')"
		" GROUP BY h.id";
	sqlite3_stmt *st = store_stmt(s, sql);
	size_t alloc = 0;
	int rc;

	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct candidate *c;

		ALLOC_GROW(*out, *nr + 1, alloc);
		c = &(*out)[(*nr)++];
		snprintf(c->sha, sizeof(c->sha), "%s", store_col_text(st, 0));
		c->first_ms = sqlite3_column_int64(st, 1);
		c->newest_run = sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read the runs of main");
}

/* The line's commits into l->seq, afresh. */
static int read_rows(struct store *s, struct line *l)
{
	static const char rows[] = "SELECT sha, seq FROM mainline WHERE repo = ?1";
	sqlite3_stmt *st = store_stmt(s, rows);
	int rc;

	strmap_clear(&l->seq);
	sqlite3_bind_text(st, 1, l->repo, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = store_col_text(st, 0);

		strmap_put(&l->seq, sha, strlen(sha), sqlite3_column_int64(st, 1));
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : store_error(s, "cannot read main's line");
}

static int read_line(struct store *s, struct line *l)
{
	static const char state[] =
		"SELECT tip, bottom, bottom_at, complete FROM mainline_state WHERE repo = ?1";
	sqlite3_stmt *st;
	int rc;

	if (read_rows(s, l) < 0)
		return -1;
	st = store_stmt(s, state);
	sqlite3_bind_text(st, 1, l->repo, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		l->has_state = true;
		snprintf(l->tip, sizeof(l->tip), "%s", store_col_text(st, 0));
		snprintf(l->bottom, sizeof(l->bottom), "%s", store_col_text(st, 1));
		l->bottom_at = sqlite3_column_int64(st, 2);
		l->complete = sqlite3_column_int(st, 3);
		strmap_get(&l->seq, l->bottom, &l->bottom_seq);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
		store_error(s, "cannot read main's line");
}

/* The main branch's tip: $MQ_AFFECTED_BASE (record's base), the remote's HEAD, then main or master. */
static const char *main_tip(struct repo *r, char out[41])
{
	const char *revs[] = { getenv("MQ_AFFECTED_BASE"), "origin/HEAD", "origin/main",
			       "origin/master", "main", "master" };

	for (size_t i = 0; i < ARRAY_SIZE(revs); i++) {
		git_object *o;

		if (!revs[i] || !*revs[i])
			continue;
		/* Quietly: a ref that is not there is the next one's turn. */
		if (git_revparse_single(&o, r->git, revs[i]) < 0)
			continue;
		git_object_free(o);
		if (repo_resolve(r, revs[i], out) == 0)
			return revs[i];
	}
	return NULL;
}

/* Commits read down the first-parent line: sha and commit time. */
struct walk {
	struct strlist shas;
	int64_t *times;
	size_t alloc;
	bool reached_root;
};

/*
 * Down the first parents from `from` (included unless skip_first), until
 * stop() says so, the root, or WALK_LIMIT commits. -1 after error().
 */
static int walk_down(struct repo *r, const char *from, bool skip_first,
		     bool (*stop)(const char *sha, int64_t at, void *data), void *data,
		     struct walk *w)
{
	git_oid oid;
	git_commit *c = NULL;

	if (git_oid_fromstr(&oid, from) < 0 || git_commit_lookup(&c, r->git, &oid) < 0)
		return error("main's line: cannot read commit %.12s", from);
	for (size_t n = 0; n < WALK_LIMIT; n++) {
		char hex[41];
		git_commit *parent;

		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		if (!(skip_first && n == 0)) {
			if (stop(hex, git_commit_time(c), data))
				break;
			ALLOC_GROW(w->times, w->shas.nr + 1, w->alloc);
			w->times[w->shas.nr] = git_commit_time(c);
			strlist_push(&w->shas, hex);
		}
		if (git_commit_parentcount(c) == 0) {
			w->reached_root = true;
			break;
		}
		if (git_commit_parent(&parent, c, 0) < 0) {
			/* A shallow clone ends here: as far as the line can go. */
			w->reached_root = true;
			break;
		}
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
	return 0;
}

struct down_stop {
	const struct line *l;
	struct strmap cand_index; /* the candidates' commits: a walk asks at every commit */
	size_t nr, found;
	int64_t threshold_s;
	bool stop_at_known;
	bool met;
	char met_sha[41]; /* the known commit the walk stopped at */
};

static bool is_candidate(const struct down_stop *d, const char *sha)
{
	return strmap_has(&d->cand_index, sha);
}

static bool stop_down(const char *sha, int64_t at, void *data)
{
	struct down_stop *d = data;
	int64_t seq;

	if (d->stop_at_known && strmap_get(&d->l->seq, sha, &seq)) {
		d->met = true;
		snprintf(d->met_sha, sizeof(d->met_sha), "%s", sha);
		return true;
	}
	if (is_candidate(d, sha))
		d->found++;
	return d->found >= d->nr && at < d->threshold_s;
}

static int put_commit(struct store *s, const char *repo, const char *sha, int64_t seq)
{
	static const char sql[] = "INSERT OR REPLACE INTO mainline (repo, sha, seq) VALUES (?1, ?2, ?3)";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, seq);
	return store_exec_stmt(s, st, "cannot write main's line");
}

static int put_state(struct store *s, const struct line *l)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO mainline_state (repo, tip, bottom, bottom_at, complete)"
		" VALUES (?1, ?2, ?3, ?4, ?5)";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, l->repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, l->tip, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, l->bottom, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, l->bottom_at);
	sqlite3_bind_int(st, 5, l->complete);
	return store_exec_stmt(s, st, "cannot write main's line");
}

static int wipe_line(struct store *s, const char *repo)
{
	static const char sql[] = "DELETE FROM mainline WHERE repo = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	return store_exec_stmt(s, st, "cannot write main's line");
}

static int drop_above(struct store *s, struct line *l, int64_t seq)
{
	static const char sql[] = "DELETE FROM mainline WHERE repo = ?1 AND seq > ?2";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_text(st, 1, l->repo, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, seq);
	if (store_exec_stmt(s, st, "cannot write main's line") < 0)
		return -1;
	return read_rows(s, l);
}

/* The walk's commits onto the line: the first gets top, each next one less. */
static int put_walk(struct store *s, struct line *l, const struct walk *w, int64_t top)
{
	for (size_t i = 0; i < w->shas.nr; i++) {
		if (put_commit(s, l->repo, w->shas.items[i], top - (int64_t)i) < 0)
			return -1;
		strmap_put(&l->seq, w->shas.items[i], strlen(w->shas.items[i]), top - (int64_t)i);
	}
	return 0;
}

static void walk_release(struct walk *w)
{
	strlist_release(&w->shas);
	free(w->times);
}

/* From the new tip down to the line as it was; a tip the line does not reach rebuilds it. */
static int extend_up(struct store *s, struct repo *r, struct line *l, struct down_stop *d,
		     const char *tip)
{
	struct walk w = { STRLIST_INIT, NULL, 0, false };
	int64_t top;
	int ret;

	d->stop_at_known = l->seq.nr > 0;
	d->met = false;
	ret = walk_down(r, tip, false, stop_down, d, &w);
	if (!ret && d->met) {
		int64_t met_seq = 0;

		strmap_get(&l->seq, d->met_sha, &met_seq);
		top = met_seq + (int64_t)w.shas.nr;
		/* A rewritten main met its old line below the old tip: what was above is gone. */
		ret = drop_above(s, l, met_seq);
	} else if (!ret) {
		/* A new line, or a rewritten history: numbered afresh from its bottom. */
		if (l->seq.nr && wipe_line(s, l->repo) < 0)
			ret = -1;
		strmap_clear(&l->seq);
		top = (int64_t)w.shas.nr - 1;
		l->complete = w.reached_root;
		if (w.shas.nr) {
			snprintf(l->bottom, sizeof(l->bottom), "%s", w.shas.items[w.shas.nr - 1]);
			l->bottom_at = w.times[w.shas.nr - 1];
			l->bottom_seq = 0;
		}
	}
	if (!ret)
		ret = put_walk(s, l, &w, top);
	walk_release(&w);
	snprintf(l->tip, sizeof(l->tip), "%s", tip);
	return ret;
}

/* Below the line's bottom, while runs of main older than it may lie there. */
static int extend_down(struct store *s, struct repo *r, struct line *l, struct down_stop *d)
{
	struct walk w = { STRLIST_INIT, NULL, 0, false };
	int ret;

	d->stop_at_known = false;
	ret = walk_down(r, l->bottom, true, stop_down, d, &w);
	if (!ret)
		ret = put_walk(s, l, &w, l->bottom_seq - 1);
	if (!ret && w.shas.nr) {
		snprintf(l->bottom, sizeof(l->bottom), "%s", w.shas.items[w.shas.nr - 1]);
		l->bottom_at = w.times[w.shas.nr - 1];
		l->bottom_seq -= (int64_t)w.shas.nr;
	}
	l->complete = l->complete || w.reached_root;
	walk_release(&w);
	return ret;
}

static size_t count_on_line(const struct line *l, const struct candidate *c, size_t nr)
{
	size_t n = 0;
	int64_t seq;

	for (size_t i = 0; i < nr; i++)
		n += strmap_get(&l->seq, c[i].sha, &seq);
	return n;
}

static void warn_off_line(const struct line *l, const char *ref, const struct candidate *c,
			  size_t nr, int64_t since_run)
{
	int64_t seq;

	for (size_t i = 0; i < nr; i++)
		if (c[i].newest_run > since_run && !strmap_get(&l->seq, c[i].sha, &seq))
			warning("%s: the full run of %.12s names no PR and its commit is not on "
				"the first-parent line of %s: stored as a head without a shadow "
				"run, not as a run of main", l->repo, c[i].sha, ref);
}

static int refresh_repo(struct store *s, struct repo *r, const char *repo, int64_t since_run)
{
	struct line l = { .repo = repo, .seq = STRMAP_INIT };
	struct candidate *cands = NULL;
	size_t nr = 0;
	struct down_stop d = { .l = &l, .cand_index = STRMAP_INIT };
	char tip[41];
	const char *ref;
	int ret = read_candidates(s, repo, &cands, &nr);

	if (ret || !nr)
		goto out;
	ref = main_tip(r, tip);
	if (!ref) {
		warning("%s: no main branch here (origin/HEAD, origin/main, main, master): "
			"full runs without a PR are not read as main's record", repo);
		goto out;
	}
	ret = read_line(s, &l);
	for (size_t i = 0; i < nr; i++)
		strmap_put(&d.cand_index, cands[i].sha, strlen(cands[i].sha), 1);
	d.nr = d.cand_index.nr;
	d.threshold_s = INT64_MAX;
	for (size_t i = 0; i < nr; i++)
		if (cands[i].first_ms / 1000 - SLACK_S < d.threshold_s)
			d.threshold_s = cands[i].first_ms / 1000 - SLACK_S;
	if (!ret && strcmp(l.tip, tip)) {
		d.found = count_on_line(&l, cands, nr);
		ret = extend_up(s, r, &l, &d, tip);
	}
	d.found = count_on_line(&l, cands, nr);
	if (!ret && !l.complete && *l.bottom && (d.found < nr || l.bottom_at >= d.threshold_s))
		ret = extend_down(s, r, &l, &d);
	if (!ret)
		ret = put_state(s, &l);
	if (!ret)
		warn_off_line(&l, ref, cands, nr, since_run);
out:
	free(cands);
	strmap_clear(&l.seq);
	strmap_clear(&d.cand_index);
	return ret;
}

int mainline_refresh(struct store *s, struct repo *r, int64_t since_run)
{
	static const char sql[] =
		"SELECT DISTINCT h.repo FROM run r JOIN head h ON h.id = r.head_id"
		" WHERE r.kind = 'full' AND r.pr IS NULL";
	struct strlist repos = STRLIST_INIT;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (!r)
		return 0;
	st = store_stmt(s, sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strlist_push(&repos, store_col_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		ret = store_error(s, "cannot read the runs of main");
	if (!ret)
		ret = store_begin(s);
	for (size_t i = 0; !ret && i < repos.nr; i++)
		ret = refresh_repo(s, r, repos.items[i], since_run);
	if (!ret)
		ret = store_commit(s);
	else if (s->depth)
		store_rollback(s);
	strlist_release(&repos);
	return ret;
}
