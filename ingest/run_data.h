/*
 * A parsed run on its way into the store (internal to ingest/): what
 * ingest/run.c parses and computes, and what ingest/write.c writes.
 */
#ifndef TIADASH_INGEST_RUN_DATA_H
#define TIADASH_INGEST_RUN_DATA_H

#include "core/tiadash.h"
#include "core/identity.h"
#include "core/lineset.h"
#include "core/query.h"
#include "core/rekey.h"
#include "core/repo.h"
#include "core/strmap.h"
#include "ingest/ingest.h"
#include "ingest/junit.h"
#include "ingest/testset.h"

/*
 * A failing (or flaky) id of a run: every case reported under it counts
 * (SPEC 3.3), and its suite key resolved or not.
 */
struct fail_row {
	int64_t failed, errors, flaky; /* the cases of each outcome */
	enum id_state state;           /* of its suite key */
	/* Its first case's names (core/rekey.h) when an id-map could key it otherwise; NULL: none could. */
	char *raw;
	size_t raw_len;
};
/* The row's outcome: failed over error over flaky. */
enum outcome fail_row_outcome(const struct fail_row *f);
/* Its stored count: the failing cases, else the flaky ones. */
int64_t fail_row_cases(const struct fail_row *f);

/*
 * How a run's names resolved (core/identity.h): counted for the store,
 * and an example of each kind that did not, for ingest's warning.
 */
struct identity_tally {
	int64_t total, unresolved;
	char *example;         /* the first unresolved name, as written */
	enum id_state example_state;
};

struct run_data {
	struct junit_stats stats;
	/* "suite\0case" -> index into rows: failed, error or flaky results. */
	struct strmap failures;
	struct fail_row *rows;
	size_t nr_rows, alloc_rows;
	int64_t nr_failing, nr_errors, nr_flaky;
	/* "suite\0case" -> index into details: the first failure of a case. */
	struct strmap detail_index;
	struct failure_detail {
		char digest[17];
		char *excerpt;
	} *details;
	size_t nr_details, alloc_details, excerpt_bytes;
	/* Full runs with reports: the tests they ran. */
	bool keep_tests;
	struct testset tests;
	/* Test identity: the run's resolver, and what resolved. */
	struct identity *ids;          /* borrowed from the env's cache */
	const struct idmap *idmap;     /* the config's id-map (NULL: none), borrowed */
	const char *workdir;           /* where the runner of what is read ran (borrowed; NULL: root) */
	struct identity_tally failing_ids, entry_ids;
	/* The suite names (ID_NAME) the selection's entries use: declared suites. */
	struct strlist declared;
	bool has_unmatched;            /* the run has results to match entries with */
	int64_t entries_unmatched;     /* entries that select none of them */
	struct strbuf unmatched_blob;  /* those entries, encoded for the store */
	/*
	 * The tests the run ran (skipped ones left out) that no entry names
	 * by id: a directory, file or class entry selected them, or none did.
	 * With the entries that matched, what tells a selected test ran.
	 * Dropped (ran_broad_kept false) past TESTSET_MAX_BYTES of names.
	 */
	struct strlist ran_broad;
	size_t ran_broad_bytes;
	bool ran_broad_kept;
	struct strbuf ran_broad_blob;  /* ran_broad, encoded for the store */
	/* The tests an entry names by id that the run reported skipped only: not run. */
	struct strlist skipped_named;
	struct strbuf skipped_named_blob;
	/* Selection (shadow). */
	enum decision decision;
	struct strlist reasons, entries;
	struct strbuf entries_blob; /* entries, encoded for the store */
	/*
	 * The entries an id-map may key (they did not resolve as written,
	 * with a tree to tell; core/rekey.h): per entry as listed, its mark
	 * (entries_seen: how many were told), the keys the marks name, and
	 * their blob for the store.
	 */
	struct keyed_entries keyed;
	uint32_t *entry_keyed;
	size_t entries_seen;
	struct strbuf keys_blob;
	bool has_total, has_selected, has_engine_tests;
	int64_t total_tests, selected_count, engine_tests;
	struct strlist quarantine;
	struct identity_tally quarantine_ids;
	/* Per quarantine line, what the store keeps of its judging. */
	struct quarantine_judged {
		/*
		 * 1 names a test file, 2 a suite name (joined while a selection
		 * declares it), 0 nothing, -1 no tree to tell.
		 */
		signed char joined;
		bool keyed; /* judged again when the id-map changes (core/rekey.h) */
		char *key;  /* the test id an id-map keyed it to (owned), or NULL */
	} *quarantine_at;
	/* Git and coverage of the changed lines. */
	enum git_state git;
	struct repo_diff diff;
	bool has_coverage;
	struct lineset *executable, *executed; /* per diff.files entry */
	bool *cov_seen;
	int64_t cov_lines, cov_hit;
	char digest[33];
	/* The stored run with the same identity, if any. */
	int64_t old_source;
	char *old_digest, *old_uri;
};

void run_data_init(struct run_data *d);
void run_data_release(struct run_data *d);

/*
 * Where a source is prepared: the store and repository handles of the thread
 * doing it (each worker thread has its own), and the ingest it belongs to.
 */
struct ingest_env {
	struct ingest *ing;
	struct store *store; /* read only here */
	struct repo *repo;   /* NULL when there is none */
	struct identity_cache *ids; /* the thread's resolvers (core/identity.h) */
};

enum { PREPARE_FAILED = -1, PREPARE_NEW = 0, PREPARE_UNCHANGED = 1 };

/*
 * Everything before the write, safe on a worker thread: is the run stored
 * (and unchanged)? parse, diff, map coverage. Errors are reported here.
 */
int ingest_prepare(struct ingest_env *env, struct run_source *rs, struct run_data *d);
/* On the writing thread: write a prepared run and count it. 0 or -1. */
int ingest_commit(struct ingest *ing, struct run_source *rs, struct run_data *d,
		  int prepared);

/*
 * Find the stored run (repo, head, kind, attempt): 1 and its source's id,
 * digest and URI (caller frees) when there is one, 0 when not, -1 on error.
 */
int write_find_run(struct store *s, const char *repo, const char *head,
		   enum run_kind kind, int attempt, int64_t *source_id,
		   char **digest, char **uri);

/* write_run results besides 0 and -1. */
enum {
	WRITE_UNCHANGED = 1, /* a concurrent ingest stored the same bytes first */
	WRITE_REFUSED = 2,   /* another source holds the run: nothing written */
};

/*
 * Write the run (replacing d->old_source when set) in the caller's open
 * transaction. Everything that can be wrong with a source was found while
 * preparing it, so -1 here is a store failure: the caller must roll the
 * transaction back.
 */
int write_run(struct ingest *ing, struct run_source *rs, struct run_data *d);

#endif
