/* Store lifecycle, schema migrations, transactions and statement cache. */
#include "core/tiadash.h"
#include "core/store.h"
#include "core/util.h"
#include "core/tiadir.h"

#include <sys/stat.h>
#include <unistd.h>

/*
 * Migrations: element i takes a store from version i to i + 1. Never edit a
 * released step; append a new one. Times are milliseconds since the epoch.
 */
static const char *const migrations[] = {
	/* 0 -> 1: runs, selections, results, diffs, coverage. */
	"CREATE TABLE source ("
	"  id INTEGER PRIMARY KEY,"
	"  uri TEXT NOT NULL,"
	"  digest TEXT NOT NULL,"
	"  ingested_at INTEGER NOT NULL);"
	"CREATE INDEX source_uri ON source (uri);"
	"CREATE TABLE name ("
	"  id INTEGER PRIMARY KEY,"
	"  text TEXT NOT NULL UNIQUE);"
	"CREATE TABLE head ("
	"  id INTEGER PRIMARY KEY,"
	"  repo TEXT NOT NULL,"
	"  sha TEXT NOT NULL,"
	"  pr INTEGER,"
	"  at INTEGER NOT NULL,"
	"  UNIQUE (repo, sha));"
	"CREATE INDEX head_at ON head (at);"
	"CREATE INDEX head_pr ON head (pr);"
	"CREATE TABLE diff ("
	"  id INTEGER PRIMARY KEY,"
	"  base TEXT NOT NULL,"
	"  head TEXT NOT NULL,"
	"  merge_base TEXT,"
	"  state TEXT NOT NULL CHECK (state IN ('ok', 'unknown')),"
	"  UNIQUE (base, head));"
	"CREATE TABLE diff_file ("
	"  diff_id INTEGER NOT NULL REFERENCES diff (id) ON DELETE CASCADE,"
	"  pos INTEGER NOT NULL,"
	"  path TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  old_path TEXT,"
	"  added TEXT NOT NULL,"
	"  PRIMARY KEY (diff_id, pos)) WITHOUT ROWID;"
	"CREATE TABLE run ("
	"  id INTEGER PRIMARY KEY,"
	"  source_id INTEGER NOT NULL REFERENCES source (id) ON DELETE CASCADE,"
	"  head_id INTEGER NOT NULL REFERENCES head (id),"
	"  kind TEXT NOT NULL CHECK (kind IN ('shadow', 'full')),"
	"  attempt INTEGER NOT NULL CHECK (attempt >= 1),"
	"  pr INTEGER,"
	"  base TEXT,"
	"  started_at INTEGER NOT NULL,"
	"  wall_clock_s REAL,"
	"  verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail', 'error')),"
	"  git TEXT NOT NULL CHECK (git IN ('ok', 'unknown', 'none')),"
	"  diff_id INTEGER REFERENCES diff (id),"
	"  tests INTEGER NOT NULL DEFAULT 0,"
	"  failures INTEGER NOT NULL DEFAULT 0,"
	"  errors INTEGER NOT NULL DEFAULT 0,"
	"  skipped INTEGER NOT NULL DEFAULT 0,"
	"  flaky INTEGER NOT NULL DEFAULT 0,"
	"  cov_lines INTEGER,"
	"  cov_hit INTEGER,"
	"  UNIQUE (head_id, kind, attempt));"
	"CREATE INDEX run_source ON run (source_id);"
	"CREATE INDEX run_started ON run (started_at);"
	/*
	 * entries: the selection's entries, sorted and front-coded
	 * (store_strings_encode): test ids share long prefixes, so a
	 * selection of 30% of 10^5 tests takes tens of kilobytes, not a row
	 * per test.
	 */
	"CREATE TABLE selection ("
	"  run_id INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,"
	"  decision TEXT NOT NULL CHECK (decision IN ('selected', 'run_all', 'nothing')),"
	"  total_tests INTEGER,"
	"  selected_count INTEGER,"
	"  format TEXT NOT NULL,"
	"  entries BLOB NOT NULL);"
	"CREATE TABLE selection_reason ("
	"  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	"  pos INTEGER NOT NULL,"
	"  reason TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, pos)) WITHOUT ROWID;"
	"CREATE TABLE result ("
	"  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	"  suite_id INTEGER NOT NULL,"
	"  case_id INTEGER NOT NULL,"
	"  outcome TEXT NOT NULL CHECK (outcome IN ('failed', 'error', 'flaky')),"
	"  PRIMARY KEY (run_id, suite_id, case_id)) WITHOUT ROWID;"
	"CREATE TABLE quarantine ("
	"  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	"  name_id INTEGER NOT NULL,"
	"  PRIMARY KEY (run_id, name_id)) WITHOUT ROWID;"
	"CREATE TABLE coverage ("
	"  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  executable TEXT NOT NULL,"
	"  executed TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, path)) WITHOUT ROWID;",

	/* 1 -> 2: explained escapes, and HTTP validators for conditional GET. */
	"CREATE TABLE note ("
	"  id INTEGER PRIMARY KEY,"
	"  head_id INTEGER NOT NULL REFERENCES head (id),"
	"  kind TEXT NOT NULL CHECK (kind IN ('explained')),"
	"  text TEXT NOT NULL,"
	"  created_at INTEGER NOT NULL);"
	"CREATE INDEX note_head ON note (head_id);"
	"CREATE TABLE http_cache ("
	"  url TEXT PRIMARY KEY,"
	"  etag TEXT,"
	"  last_modified TEXT,"
	"  checked_at INTEGER NOT NULL);",

	/*
	 * 2 -> 3: a 304 is answered from the cached body of an index or a
	 * manifest, and a manifest's files are revalidated against the
	 * validators they had when its run was stored (ingest/url.c).
	 */
	"ALTER TABLE http_cache ADD COLUMN body BLOB;"
	"CREATE TABLE http_part ("
	"  doc_url TEXT NOT NULL REFERENCES http_cache (url) ON DELETE CASCADE,"
	"  url TEXT NOT NULL,"
	"  etag TEXT,"
	"  last_modified TEXT,"
	"  PRIMARY KEY (doc_url, url)) WITHOUT ROWID;",

	/*
	 * 3 -> 4: what `ingest --github/--gitlab` pulled (ingest/ciapi.c): per
	 * workflow (GitHub) or job name (GitLab) the newest run or job id
	 * ingested, and per run or job its updated_at when it landed, so a
	 * re-run fetches only what is new or changed.
	 */
	"CREATE TABLE ci_cursor ("
	"  provider TEXT NOT NULL CHECK (provider IN ('github', 'gitlab')),"
	"  api TEXT NOT NULL,"
	"  project TEXT NOT NULL,"
	"  pipeline TEXT NOT NULL,"
	"  newest_id INTEGER NOT NULL,"
	"  checked_at INTEGER NOT NULL,"
	"  PRIMARY KEY (provider, api, project, pipeline)) WITHOUT ROWID;"
	"CREATE TABLE ci_seen ("
	"  provider TEXT NOT NULL,"
	"  api TEXT NOT NULL,"
	"  project TEXT NOT NULL,"
	"  pipeline TEXT NOT NULL,"
	"  run_id INTEGER NOT NULL,"
	"  updated_at TEXT NOT NULL,"
	"  runs INTEGER NOT NULL,"
	"  seen_at INTEGER NOT NULL,"
	"  PRIMARY KEY (provider, api, project, pipeline, run_id)) WITHOUT ROWID;",

	/*
	 * 4 -> 5: what the trust figures need (issue 16). Per failing result,
	 * a digest of its message and first lines (same digest = the same
	 * failure, for the verifier check) and an excerpt of its text (the
	 * files it names). Per full run, the tests it ran, for the blind
	 * spots: not a row per test (10^5 tests x 10^4 runs), but each
	 * distinct set of cases of a suite once (test_group: front-coded case
	 * names, and when a full run first ran that set), and per run the
	 * sorted ids of its groups as delta varints (run_tests).
	 */
	"ALTER TABLE result ADD COLUMN digest TEXT;"
	"ALTER TABLE result ADD COLUMN excerpt TEXT;"
	"CREATE TABLE test_group ("
	"  id INTEGER PRIMARY KEY,"
	"  repo TEXT NOT NULL,"
	"  suite_id INTEGER NOT NULL,"
	"  digest TEXT NOT NULL,"
	"  first_at INTEGER NOT NULL,"
	"  cases BLOB NOT NULL,"
	"  UNIQUE (repo, suite_id, digest));"
	"CREATE TABLE run_tests ("
	"  run_id INTEGER PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,"
	"  groups BLOB NOT NULL);",

	/*
	 * 5 -> 6: test identity (core/identity.h). A failing id keeps how many
	 * of the run's cases failed under it and how its suite key resolved
	 * (enum resolved in core/query.h: 1 a path of the tree at the head, 2 a
	 * suite name, 0 neither; NULL: ingested before tiadash resolved keys);
	 * a selection, how many entries it has, how
	 * many resolve to nothing, and how many select no test of the run's
	 * own results (NULL: the run has none).
	 */
	"ALTER TABLE result ADD COLUMN count INTEGER NOT NULL DEFAULT 1;"
	"ALTER TABLE result ADD COLUMN resolved INTEGER;"
	"ALTER TABLE selection ADD COLUMN entries_total INTEGER;"
	"ALTER TABLE selection ADD COLUMN entries_unresolved INTEGER;"
	"ALTER TABLE selection ADD COLUMN entries_unmatched INTEGER;",

	/*
	 * 6 -> 7: defect-seeding experiments (`tiadash seed`, issue 21):
	 * each run's parameters and state, the changes it sampled with the
	 * selector's decision, and every mutant with what caught it (the
	 * catching run's failing tests front-coded, store_strings_encode).
	 * Written as the experiment goes, so a run stopped by its budget, a
	 * signal or a kill keeps what finished.
	 */
	"CREATE TABLE seed_experiment ("
	"  id INTEGER PRIMARY KEY,"
	"  repo TEXT NOT NULL,"
	"  started_at INTEGER NOT NULL,"
	"  finished_at INTEGER,"
	"  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'budget', 'interrupted')),"
	"  since INTEGER,"
	"  until INTEGER,"
	"  seed INTEGER NOT NULL,"
	"  selector TEXT NOT NULL,"
	"  test_cmd TEXT NOT NULL,"
	"  full_cmd TEXT NOT NULL,"
	"  changes_wanted INTEGER NOT NULL,"
	"  mutants_wanted INTEGER NOT NULL);"
	"CREATE INDEX seed_experiment_started ON seed_experiment (started_at);"
	"CREATE TABLE seed_change ("
	"  experiment_id INTEGER NOT NULL REFERENCES seed_experiment (id) ON DELETE CASCADE,"
	"  pos INTEGER NOT NULL,"
	"  sha TEXT NOT NULL,"
	"  pr INTEGER,"
	"  decision TEXT NOT NULL CHECK (decision IN ('selected', 'nothing', 'run_all', 'error')),"
	"  selected INTEGER,"
	"  candidates INTEGER NOT NULL DEFAULT 0,"
	"  reached INTEGER NOT NULL DEFAULT 0,"
	"  skipped TEXT,"
	"  PRIMARY KEY (experiment_id, pos)) WITHOUT ROWID;"
	"CREATE TABLE seed_mutant ("
	"  experiment_id INTEGER NOT NULL REFERENCES seed_experiment (id) ON DELETE CASCADE,"
	"  pos INTEGER NOT NULL,"
	"  change_pos INTEGER NOT NULL,"
	"  path TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  col INTEGER NOT NULL,"
	"  operator TEXT NOT NULL,"
	"  before TEXT NOT NULL,"
	"  after TEXT NOT NULL,"
	"  verdict TEXT NOT NULL CHECK (verdict IN ('subset', 'full', 'none', 'invalid')),"
	"  timed_out INTEGER NOT NULL DEFAULT 0,"
	"  why TEXT,"
	"  subset_s REAL,"
	"  full_s REAL,"
	"  caught_by BLOB NOT NULL,"
	"  PRIMARY KEY (experiment_id, pos)) WITHOUT ROWID;",

	/*
	 * 7 -> 8: the pair cache (core/paircache.h): each head with all of its
	 * runs as one row, clustered by window time, so a window's pairs are
	 * one range scan. Triggers list in pair_stale every head whose row,
	 * runs, selections or reasons changed, by whatever wrote them; readers
	 * rebuild those rows first.
	 */
	"CREATE TABLE pair_row ("
	"  at INTEGER NOT NULL,"
	"  head_id INTEGER NOT NULL,"
	"  repo TEXT NOT NULL,"
	"  data BLOB NOT NULL,"
	"  PRIMARY KEY (at, head_id)) WITHOUT ROWID;"
	"CREATE INDEX pair_row_head ON pair_row (head_id);"
	"CREATE TABLE pair_stale (head_id INTEGER PRIMARY KEY);"
	"INSERT INTO pair_stale SELECT id FROM head;"
#define STALE(id) "INSERT INTO pair_stale SELECT " id " WHERE " id " IS NOT NULL" \
	" AND NOT EXISTS (SELECT 1 FROM pair_stale WHERE head_id = " id ");"
#define STALE_RUN(id) STALE("(SELECT head_id FROM run WHERE id = " id ")")
	"CREATE TRIGGER head_ins AFTER INSERT ON head BEGIN " STALE("new.id") " END;"
	"CREATE TRIGGER head_upd AFTER UPDATE ON head BEGIN "
	STALE("old.id") STALE("new.id") " END;"
	"CREATE TRIGGER head_del AFTER DELETE ON head BEGIN " STALE("old.id") " END;"
	"CREATE TRIGGER run_ins AFTER INSERT ON run BEGIN " STALE("new.head_id") " END;"
	"CREATE TRIGGER run_upd AFTER UPDATE ON run BEGIN "
	STALE("old.head_id") STALE("new.head_id") " END;"
	"CREATE TRIGGER run_del AFTER DELETE ON run BEGIN " STALE("old.head_id") " END;"
	"CREATE TRIGGER selection_ins AFTER INSERT ON selection BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER selection_upd AFTER UPDATE ON selection BEGIN "
	STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER selection_del AFTER DELETE ON selection BEGIN "
	STALE_RUN("old.run_id") " END;"
	"CREATE TRIGGER reason_ins AFTER INSERT ON selection_reason BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER reason_upd AFTER UPDATE ON selection_reason BEGIN "
	STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER reason_del AFTER DELETE ON selection_reason BEGIN "
	STALE_RUN("old.run_id") " END;",
	/* 8 -> 9: runs by kind (an all-time window's blind spots read the full runs' ids alone). */
	"CREATE INDEX run_kind ON run (kind);",

	/*
	 * 9 -> 10: the blind spots' day summaries (core/blindday.h): per UTC
	 * day of window time, what the blind spots read of that day's runs in
	 * every repository, so that a window of whole days reads a row a day,
	 * not every run's selection, test list and failures. The pair cache's
	 * rebuild lists in blind_stale the days of the heads it rebuilds; a
	 * run's test list and its real failures now make its head stale too.
	 */
	"CREATE TABLE blind_day ("
	"  day INTEGER PRIMARY KEY,"
	"  narrowed INTEGER NOT NULL,"
	"  listed INTEGER NOT NULL,"
	"  entries BLOB,"
	"  groups BLOB NOT NULL,"
	"  failures BLOB NOT NULL);"
	"CREATE TABLE blind_stale (day INTEGER PRIMARY KEY);"
	"INSERT OR IGNORE INTO blind_stale SELECT " STORE_DAY_SQL("at") " FROM pair_row;"
	"CREATE TRIGGER run_tests_ins AFTER INSERT ON run_tests BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER run_tests_upd AFTER UPDATE ON run_tests BEGIN "
	STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER run_tests_del AFTER DELETE ON run_tests BEGIN "
	STALE_RUN("old.run_id") " END;"
#define FAILING(row) row ".outcome IN ('failed', 'error')"
	"CREATE TRIGGER result_ins AFTER INSERT ON result WHEN " FAILING("new") " BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER result_upd AFTER UPDATE ON result WHEN " FAILING("old") " OR "
	FAILING("new") " BEGIN " STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER result_del AFTER DELETE ON result WHEN " FAILING("old") " BEGIN "
	STALE_RUN("old.run_id") " END;",
#undef FAILING

	/*
	 * 10 -> 11: per-pair facts (core/paircache.h): what the metrics pass
	 * makes of a head's pair, kept beside its row under the key of what
	 * else they depend on. A rebuild of the row drops them, so every input
	 * of a pair's class makes its head stale now: a flaky result, a
	 * changed resolution, a quarantine list. pair_unfacted lists the heads
	 * whose facts went (or never were), for a reader to make them.
	 */
	"CREATE TABLE pair_fact ("
	"  at INTEGER NOT NULL,"
	"  head_id INTEGER NOT NULL,"
	"  repo TEXT NOT NULL,"
	"  key INTEGER NOT NULL,"
	"  data BLOB NOT NULL,"
	"  PRIMARY KEY (at, head_id)) WITHOUT ROWID;"
	"CREATE INDEX pair_fact_head ON pair_fact (head_id);"
	"CREATE TABLE pair_unfacted (head_id INTEGER PRIMARY KEY);"
	"INSERT INTO pair_unfacted SELECT id FROM head;"
	"DROP TRIGGER result_ins; DROP TRIGGER result_upd; DROP TRIGGER result_del;"
	"CREATE TRIGGER result_ins AFTER INSERT ON result BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER result_upd AFTER UPDATE ON result BEGIN "
	STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER result_del AFTER DELETE ON result BEGIN "
	STALE_RUN("old.run_id") " END;"
	"CREATE TRIGGER quarantine_ins AFTER INSERT ON quarantine BEGIN "
	STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER quarantine_upd AFTER UPDATE ON quarantine BEGIN "
	STALE_RUN("old.run_id") STALE_RUN("new.run_id") " END;"
	"CREATE TRIGGER quarantine_del AFTER DELETE ON quarantine BEGIN "
	STALE_RUN("old.run_id") " END;",

	/*
	 * 11 -> 12: main's record (ingest/mainline.c). The first-parent line
	 * of each repository's main branch, numbered upward (seq), as far back
	 * as its runs need; a full run with no PR on a commit of it is a run
	 * of main. The partial index finds those runs for the pair facts' key:
	 * a new run of main can change the class of any pair.
	 */
	"CREATE TABLE mainline ("
	"  repo TEXT NOT NULL,"
	"  sha TEXT NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  PRIMARY KEY (repo, sha)) WITHOUT ROWID;"
	"CREATE INDEX mainline_seq ON mainline (repo, seq);"
	"CREATE TABLE mainline_state ("
	"  repo TEXT PRIMARY KEY,"
	"  tip TEXT NOT NULL,"
	"  bottom TEXT NOT NULL,"
	"  bottom_at INTEGER NOT NULL,"
	"  complete INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE INDEX run_main ON run (id) WHERE pr IS NULL AND kind = 'full';",

	/*
	 * 12 -> 13: a quarantine line's identity (core/identity.h): 1 when it
	 * names a test file or suite of the tree at its run's head (or a
	 * suite name), 0 when nothing ties it to one (NULL: ingested before,
	 * or without the tree to tell).
	 */
	"ALTER TABLE quarantine ADD COLUMN resolved INTEGER;",

	/*
	 * 13 -> 14: the declared suites: the suite names (bare words, no path:
	 * ctest's `money`) some selection entry used. A report's suite key that
	 * is such a word joins as written only when it is declared; any other
	 * is a word nothing ties to a test file (jest-junit's describe titles)
	 * and counts as unresolved (so does a quarantine line that is such a
	 * word: quarantine.resolved 2 from now on). Selections stored before
	 * are not read again: ingest their runs again (--replace) to declare
	 * their names.
	 */
	"CREATE TABLE declared_name (name_id INTEGER PRIMARY KEY);"
	/*
	 * And a selection's entries that select none of the tests its own run
	 * reported (store_strings_encode; NULL: the run reported none): a
	 * failing test only they select was selected, not run.
	 */
	"ALTER TABLE selection ADD COLUMN unmatched BLOB;"
	/*
	 * And whether the full suite executed a seeded mutant's line, from the
	 * coverage its change's clean full run wrote ('yes', 'no', 'no-file',
	 * 'no-line'; NULL: it wrote none).
	 */
	"ALTER TABLE seed_mutant ADD COLUMN executed TEXT"
	" CHECK (executed IN ('yes', 'no', 'no-file', 'no-line'));",

	/*
	 * 14 -> 15: the store's generation, which the outermost commit of every
	 * write transaction bumps (store_commit; not the caches readers keep
	 * fresh through store_write_now, which hold nothing the tables do not
	 * give), and the figures a reader kept under it (metrics/figcache.h):
	 * a row is fresh only while its generation is the store's.
	 */
	"CREATE TABLE generation (n INTEGER NOT NULL);"
	"INSERT INTO generation (n) VALUES (0);"
	"CREATE TABLE figures (key TEXT PRIMARY KEY, generation INTEGER NOT NULL,"
	"  data BLOB NOT NULL);",

	/*
	 * 15 -> 16: the tests a narrowed shadow run ran (skipped ones left
	 * out) that no entry of its selection names by id
	 * (store_strings_encode; NULL: it reported none, had more than
	 * TESTSET_MAX_BYTES of them, or was stored before). With the entries
	 * that matched, they tell whether a selected test ran when a
	 * directory, file or class entry selected it: one it selected that is
	 * in neither was selected, not run. A list of these only, not of every
	 * test the run ran: a selection by ids (most of them) stores nothing.
	 * And the tests an entry names by id that the run reported skipped
	 * (NULL with ran_broad): those matched their entry, and did not run.
	 */
	/* In parentheses: two statements in one element, not a missing comma (clang). */
	("ALTER TABLE selection ADD COLUMN ran_broad BLOB;"
	 "ALTER TABLE selection ADD COLUMN skipped_named BLOB;"),

	/*
	 * 16 -> 17: names keyed again when the id-map changes (core/rekey.h).
	 * A failing result whose key an id-map rule could change (its name
	 * did not resolve to a path as written) keeps the names its report
	 * gave (raw: core/rekey.h's encoding) and the fingerprint of the
	 * id-map its key was made under (keyed_by); a quarantine line that did
	 * not resolve as written, the fingerprint its resolved was judged
	 * under. NULL: no rule can change it, or stored before.
	 */
	("ALTER TABLE result ADD COLUMN raw BLOB;"
	 "ALTER TABLE result ADD COLUMN keyed_by TEXT;"
	 "CREATE INDEX result_keyed ON result (keyed_by) WHERE raw IS NOT NULL;"
	 "ALTER TABLE quarantine ADD COLUMN keyed_by TEXT;"
	 "CREATE INDEX quarantine_keyed ON quarantine (keyed_by) WHERE keyed_by IS NOT NULL;"),

	/*
	 * 17 -> 18: a keyed quarantine line's directory and key. The directory
	 * it was judged from at ingest (its run's workdir, relative to the
	 * repository root; NULL: the root), to judge it from there again
	 * under another id-map: a monorepo package's line, keyed at the root,
	 * named nothing. The test id the id-map in force keyed it to (NULL:
	 * none, or the line resolves as written), which the figures match
	 * instead of the line: the rule rewrites to a name relative to that
	 * directory, which only the tree tells from one relative to the root.
	 */
	("ALTER TABLE quarantine ADD COLUMN workdir TEXT;"
	 "ALTER TABLE quarantine ADD COLUMN key TEXT;"),

	/*
	 * 18 -> 19: a selection's entries that did not resolve as written,
	 * keyed as its quarantine lines are: each by its place among the
	 * entries, with the test id the id-map keyed it to and whether it
	 * joins (keys; core/rekey.h's keyed_entries), the fingerprint of that
	 * id-map (keyed_by) and the directory they were judged from (its
	 * run's workdir; NULL: the root). A monorepo package's entry, which a
	 * rule rewrote to a path relative to the package, selected nothing.
	 * NULL: every entry resolved as written, or stored before.
	 */
	("ALTER TABLE selection ADD COLUMN keys BLOB;"
	 "ALTER TABLE selection ADD COLUMN keyed_by TEXT;"
	 "ALTER TABLE selection ADD COLUMN workdir TEXT;"
	 "CREATE INDEX selection_keyed ON selection (keyed_by) WHERE keyed_by IS NOT NULL;"),
#undef STALE_RUN
#undef STALE
};

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION,
	       "one migration per schema version");

int store_error(struct store *s, const char *what)
{
	int code = sqlite3_errcode(s->db);

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return error("store '%s' is locked by another process "
			     "(gave up after %d ms): %s",
			     s->path, s->busy_ms, what);
	if (code == SQLITE_NOTADB)
		return error("'%s' is not a tiadash store: %s", s->path,
			     sqlite3_errmsg(s->db));
	if (code == SQLITE_CORRUPT)
		return error("store '%s' is corrupt: %s", s->path,
			     sqlite3_errmsg(s->db));
	return error("store '%s': %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

int store_exec(struct store *s, const char *sql)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_error(s, "cannot run statement");
	return 0;
}

sqlite3_stmt *store_stmt(struct store *s, const char *sql)
{
	struct store_stmt_cache *c;

	for (size_t i = 0; i < s->nr_stmts; i++) {
		if (s->stmts[i].sql == sql) {
			sqlite3_reset(s->stmts[i].stmt);
			sqlite3_clear_bindings(s->stmts[i].stmt);
			return s->stmts[i].stmt;
		}
	}
	ALLOC_GROW(s->stmts, s->nr_stmts + 1, s->alloc_stmts);
	c = &s->stmts[s->nr_stmts];
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &c->stmt, NULL) != SQLITE_OK)
		BUG("bad SQL (%s): %s", sqlite3_errmsg(s->db), sql);
	c->sql = sql;
	s->nr_stmts++;
	return c->stmt;
}

int store_exec_stmt(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_error(s, what);
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return 0;
}

/* Savepoint names for nested transactions: sp1, sp2, ... */
static int savepoint(struct store *s, const char *verb, int level)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "%s sp%d", verb, level);
	return store_exec(s, sql);
}

int store_begin(struct store *s)
{
	int rc = s->depth ? savepoint(s, "SAVEPOINT", s->depth)
			  : store_exec(s, "BEGIN IMMEDIATE");

	if (rc < 0)
		return -1;
	if (!s->depth)
		s->changes_at_begin = sqlite3_total_changes64(s->db);
	s->depth++;
	return 0;
}

int store_commit(struct store *s)
{
	int rc;

	if (!s->depth)
		BUG("commit without a transaction");
	/*
	 * A write transaction that changed a row: the figures kept before are
	 * stale. One that changed none (the same artifacts ingested again)
	 * leaves them fresh.
	 */
	if (s->depth == 1 && sqlite3_total_changes64(s->db) != s->changes_at_begin &&
	    store_exec(s, "UPDATE generation SET n = n + 1") < 0) {
		store_rollback(s);
		return -1;
	}
	rc = s->depth > 1 ? savepoint(s, "RELEASE", s->depth - 1)
			  : store_exec(s, "COMMIT");
	if (rc < 0) {
		store_rollback(s);
		return -1;
	}
	s->depth--;
	return 0;
}

static void texts_clear(struct store *s)
{
	for (size_t i = 0; i < s->cap_texts; i++)
		free(s->texts[i].text);
	free(s->texts);
	s->texts = NULL;
	s->nr_texts = s->cap_texts = 0;
}

void store_rollback(struct store *s)
{
	/* Ids handed out in what is undone are gone with it. */
	strmap_clear(&s->names);
	texts_clear(s);
	if (!s->depth)
		return;
	if (s->depth > 1) {
		savepoint(s, "ROLLBACK TO", s->depth - 1);
		savepoint(s, "RELEASE", s->depth - 1);
	} else {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	}
	s->depth--;
}

int store_write_now(struct store *s, int (*fn)(struct store *s, void *data), void *data,
		    const char *what)
{
	int ret;

	if (s->depth) {
		if (store_begin(s) < 0)
			return -1;
		if (fn(s, data) < 0) {
			store_rollback(s);
			return store_error(s, what);
		}
		return store_commit(s);
	}
	sqlite3_busy_timeout(s->db, 0);
	ret = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : 1;
	if (!ret && (fn(s, data) < 0 ||
		     sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		ret = 1;
	}
	sqlite3_busy_timeout(s->db, s->busy_ms);
	return ret;
}

int store_generation(struct store *s, int64_t *out)
{
	sqlite3_stmt *st = store_stmt(s, "SELECT n FROM generation");
	int rc = sqlite3_step(st);

	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? error("the store %s has no generation row", s->path)
					 : store_error(s, "cannot read the store's generation");
	return 0;
}

int store_name_id(struct store *s, const char *text, size_t len, int64_t *id)
{
	/*
	 * A look-up, then a plain insert: an upsert (INSERT ... ON CONFLICT)
	 * opens a statement journal every time, which costs more than both.
	 */
	static const char find_sql[] = "SELECT id FROM name WHERE text = ?1";
	static const char insert_sql[] = "INSERT INTO name (text) VALUES (?1)";
	struct strmap_entry *e = strmap_find(&s->names, text, len);
	sqlite3_stmt *st;
	int rc;

	if (e) {
		*id = e->value;
		return 0;
	}
	st = store_stmt(s, find_sql);
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE) {
		st = store_stmt(s, insert_sql);
		sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
		rc = sqlite3_step(st);
		*id = sqlite3_last_insert_rowid(s->db);
		sqlite3_reset(st);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_error(s, "cannot intern a name");
	strmap_put(&s->names, text, len, *id);
	return 0;
}

static struct store_text *text_slot(struct store_text *t, size_t cap, int64_t id)
{
	size_t i = (size_t)(((uint64_t)id * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);

	while (t[i].text && t[i].id != id)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void texts_grow(struct store *s)
{
	size_t cap = s->cap_texts ? 2 * s->cap_texts : 64;
	struct store_text *t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < s->cap_texts; i++)
		if (s->texts[i].text)
			*text_slot(t, cap, s->texts[i].id) = s->texts[i];
	free(s->texts);
	s->texts = t;
	s->cap_texts = cap;
}

const char *store_name_text(struct store *s, int64_t id)
{
	static const char sql[] = "SELECT text FROM name WHERE id = ?1";
	struct store_text *slot;
	sqlite3_stmt *st;
	int rc;

	if (s->cap_texts) {
		slot = text_slot(s->texts, s->cap_texts, id);
		if (slot->text)
			return slot->text;
	}
	st = store_stmt(s, sql);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			error("store '%s': name %" PRId64 " is missing", s->path, id);
		else
			store_error(s, "cannot read a name");
		sqlite3_reset(st);
		return NULL;
	}
	if (2 * (s->nr_texts + 1) > s->cap_texts)
		texts_grow(s);
	slot = text_slot(s->texts, s->cap_texts, id);
	slot->id = id;
	slot->text = xstrdup(store_col_text(st, 0));
	s->nr_texts++;
	sqlite3_reset(st);
	return slot->text;
}

static void put_varint(struct strbuf *out, uint64_t v)
{
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		strbuf_addch(out, byte | (v ? 0x80 : 0));
	} while (v);
}

static bool get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	do {
		if (*p == end || shift > 56)
			return false;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
	} while (*(*p)++ & 0x80);
	return true;
}

/* A varint at p (room for 10 bytes); returns where it ends. */
static char *write_varint(char *p, uint64_t v)
{
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		*p++ = (char)(byte | (v ? 0x80 : 0));
	} while (v);
	return p;
}

/* The same bytes as put_varint twice and the suffix, with one capacity check: it runs per test of a list. */
void store_strings_encode(struct strlist *l, struct strbuf *out)
{
	const char *prev = "";
	size_t prev_len = 0;

	strlist_sort(l);
	for (size_t i = 0; i < l->nr; i++) {
		const char *cur = l->items[i];
		size_t len = strlen(cur), shared = 0, most = len < prev_len ? len : prev_len;
		char *p;

		while (shared < most && cur[shared] == prev[shared])
			shared++;
		if (i && shared == len && len == prev_len)
			continue; /* a duplicate */
		strbuf_grow(out, 20 + len - shared);
		p = write_varint(out->buf + out->len, shared);
		p = write_varint(p, len - shared);
		memcpy(p, cur + shared, len - shared);
		p += len - shared;
		*p = '\0';
		out->len = (size_t)(p - out->buf);
		prev = cur;
		prev_len = len;
	}
}

/* get_varint with a one-byte value in line: an entry's two lengths mostly are. */
static inline bool get_short_varint(const unsigned char **p, const unsigned char *end,
				    uint64_t *v)
{
	if (*p < end && **p < 0x80) {
		*v = *(*p)++;
		return true;
	}
	return get_varint(p, end, v);
}

/* Room for entry n in *cur: on the stack till an entry outgrows it. */
static void grow_entry(char **cur, size_t *alloc, char *stack, size_t n)
{
	size_t want = *alloc;

	while (want < n + 1)
		want *= 2;
	if (*cur == stack) {
		*cur = xmalloc(want);
		memcpy(*cur, stack, *alloc);
	} else {
		*cur = xrealloc(*cur, want);
	}
	*alloc = want;
}

/*
 * The entries into one buffer grown by hand, on the stack while they fit:
 * a report decodes 10^5 selections.
 */
int store_strings_each(const void *blob, size_t len,
		       int (*fn)(const char *s, size_t n, void *data), void *data)
{
	const unsigned char *p = blob, *end = p + len;
	char stack[256], *cur = stack;
	size_t cur_len = 0, alloc = sizeof(stack);
	int ret = 0;

	while (p < end && !ret) {
		uint64_t shared, rest;

		if (!get_short_varint(&p, end, &shared) || !get_short_varint(&p, end, &rest) ||
		    shared > cur_len || rest > (uint64_t)(end - p)) {
			ret = -1;
			break;
		}
		cur_len = (size_t)(shared + rest);
		if (cur_len >= alloc)
			grow_entry(&cur, &alloc, stack, cur_len);
		memcpy(cur + shared, p, (size_t)rest);
		cur[cur_len] = '\0';
		p += rest;
		ret = fn(cur, cur_len, data);
	}
	if (cur != stack)
		free(cur);
	return ret;
}

static int push_string(const char *s, size_t n, void *data)
{
	UNUSED(n);
	strlist_push(data, s);
	return 0;
}

int store_strings_decode(const void *blob, size_t len, struct strlist *out)
{
	return store_strings_each(blob, len, push_string, out) ? -1 : 0;
}

void store_ints_encode(const int64_t *v, size_t n, struct strbuf *out)
{
	int64_t prev = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i] < prev || (i && v[i] == prev))
			BUG("store_ints_encode: not ascending");
		put_varint(out, (uint64_t)(v[i] - prev));
		prev = v[i];
	}
}

void store_varints_encode(const int64_t *v, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0)
			BUG("store_varints_encode: %" PRId64 " is negative", v[i]);
		put_varint(out, (uint64_t)v[i]);
	}
}

int store_varints_decode(const void *blob, size_t len, int64_t **out, size_t *nr,
			 size_t *alloc)
{
	const unsigned char *p = blob, *end = p + len;

	while (p < end) {
		uint64_t v;

		if (!get_varint(&p, end, &v) || v > (uint64_t)INT64_MAX)
			return -1;
		ALLOC_GROW(*out, *nr + 1, *alloc);
		(*out)[(*nr)++] = (int64_t)v;
	}
	return 0;
}

int store_ints_decode(const void *blob, size_t len, int64_t **out, size_t *nr,
		      size_t *alloc)
{
	size_t from = *nr;
	uint64_t sum = 0;

	if (store_varints_decode(blob, len, out, nr, alloc) < 0)
		return -1;
	for (size_t i = from; i < *nr; i++) {
		uint64_t delta = (uint64_t)(*out)[i];

		if (delta > (uint64_t)INT64_MAX - sum)
			return -1;
		sum += delta;
		(*out)[i] = (int64_t)sum;
	}
	return 0;
}

void store_bind_text(sqlite3_stmt *st, int col, const char *text)
{
	if (text)
		sqlite3_bind_text(st, col, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

void store_bind_opt_int(sqlite3_stmt *st, int col, bool has, int64_t v)
{
	if (has)
		sqlite3_bind_int64(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

void store_bind_opt_double(sqlite3_stmt *st, int col, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_double(st, col, v);
}

const char *store_col_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return t ? (const char *)t : "";
}

double store_col_double(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(st, col);
}

bool store_col_is_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}

static int pragma_int(struct store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_error(s, "cannot read the schema version");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_error(s, "cannot read the schema version");
	return 0;
}

int store_schema_version(struct store *s)
{
	int v = -1;

	pragma_int(s, "PRAGMA user_version", &v);
	return v;
}

static int count_tables(struct store *s, int *n)
{
	return pragma_int(s, "SELECT count(*) FROM sqlite_schema", n);
}

static int set_pragma(struct store *s, const char *name, int value)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA %s = %d", name, value);
	return store_exec(s, sql);
}

static int migrate(struct store *s)
{
	int version, app_id, tables;

	if (pragma_int(s, "PRAGMA user_version", &version) < 0 ||
	    pragma_int(s, "PRAGMA application_id", &app_id) < 0 ||
	    count_tables(s, &tables) < 0)
		return -1;
	if (app_id != STORE_APPLICATION_ID && (tables > 0 || version != 0))
		return error("'%s' is an SQLite database but not a tiadash store",
			     s->path);
	if (version > STORE_SCHEMA_VERSION)
		return error("store '%s' was written by a newer tiadash "
			     "(schema %d; this tiadash %s knows up to %d): "
			     "upgrade tiadash to read it",
			     s->path, version, TIADASH_VERSION,
			     STORE_SCHEMA_VERSION);
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	if (store_begin(s) < 0)
		return -1;
	/* Re-read under the write lock: a concurrent opener may have migrated. */
	if (pragma_int(s, "PRAGMA user_version", &version) < 0)
		goto fail;
	for (int v = version; v < STORE_SCHEMA_VERSION; v++)
		if (store_exec(s, migrations[v]) < 0 ||
		    set_pragma(s, "user_version", v + 1) < 0)
			goto fail;
	if (set_pragma(s, "application_id", STORE_APPLICATION_ID) < 0)
		goto fail;
	return store_commit(s);
fail:
	store_rollback(s);
	return error("cannot upgrade store '%s' to schema %d", s->path,
		     STORE_SCHEMA_VERSION);
}

static int busy_timeout_ms(void)
{
	const char *env = getenv("TIADASH_BUSY_TIMEOUT");
	int64_t v;

	if (env && parse_int64(env, &v) && v >= 0 && v <= INT_MAX)
		return (int)v;
	return 5000;
}

static int configure(struct store *s, enum store_mode mode)
{
	sqlite3_busy_timeout(s->db, s->busy_ms);
	/* journal_mode returns a row; the others are silent. */
	if (store_exec(s, "PRAGMA journal_mode = WAL") < 0 ||
	    store_exec(s, "PRAGMA synchronous = NORMAL") < 0 ||
	    store_exec(s, "PRAGMA foreign_keys = ON") < 0)
		return -1;
	/*
	 * Writers: 64 MiB of page cache, so a batch of sources does not spill
	 * to the WAL. Readers scan: 2 MiB, the kernel's page cache holds the
	 * rest, and a report's memory does not grow with the store (8 MiB
	 * took the same time and 6 MB more of a report at 10^5 pairs).
	 */
	return store_exec(s, mode == STORE_CREATE ? "PRAGMA cache_size = -65536"
						  : "PRAGMA cache_size = -2048");
}

int store_open(struct store **out, const char *path, enum store_mode mode)
{
	struct store *s;
	struct stat st;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*out = NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return error("store '%s' is a directory", path);
	if (mode == STORE_EXISTING && access(path, F_OK) != 0)
		return error("no store at '%s' (run 'tiadash ingest' first, "
			     "or give --db)", path);
	if (mode == STORE_CREATE) {
		flags |= SQLITE_OPEN_CREATE;
		if (tiadir_prepare(path) < 0 || mkdir_for_file(path) < 0)
			return -1;
	}
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->busy_ms = busy_timeout_ms();
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		error("cannot open store '%s': %s", path,
		      s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return -1;
	}
	sqlite3_extended_result_codes(s->db, 0);
	if (configure(s, mode) < 0 || migrate(s) < 0) {
		store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

static int store_cancelled(void *data)
{
	return atomic_load((const atomic_bool *)data) ? 1 : 0;
}

void store_set_cancel(struct store *s, const atomic_bool *flag)
{
	s->cancel = flag;
	/* Every 1000 virtual machine steps: well under a millisecond. */
	sqlite3_progress_handler(s->db, flag ? 1000 : 0, flag ? store_cancelled : NULL,
				 (void *)flag);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	while (s->depth)
		store_rollback(s);
	for (size_t i = 0; i < s->nr_stmts; i++)
		sqlite3_finalize(s->stmts[i].stmt);
	free(s->stmts);
	strmap_clear(&s->names);
	texts_clear(s);
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}
