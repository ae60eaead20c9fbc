/*
 * The one read layer over the store. Metrics, show, replay and the TUI read
 * runs, pairs, failures, selections and diffs through these functions and
 * never through SQL of their own.
 *
 * Ownership: structs filled here are released with their *_release function;
 * callbacks receive borrowed data valid only during the call.
 */
#ifndef TIADASH_CORE_QUERY_H
#define TIADASH_CORE_QUERY_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/lineset.h"
#include "core/store.h"
#include "core/strmap.h"

enum run_kind { RUN_SHADOW, RUN_FULL };
enum verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR };
enum decision { DECISION_NONE, DECISION_SELECTED, DECISION_RUN_ALL, DECISION_NOTHING };
enum git_state { RUN_GIT_OK, RUN_GIT_UNKNOWN, RUN_GIT_NONE };
enum outcome { OUTCOME_FAILED, OUTCOME_ERROR, OUTCOME_FLAKY };

const char *run_kind_name(enum run_kind k);
const char *verdict_name(enum verdict v);
const char *decision_name(enum decision d);
const char *git_state_name(enum git_state g);
const char *outcome_name(enum outcome o);
bool run_kind_parse(const char *s, enum run_kind *out);
bool verdict_parse(const char *s, enum verdict *out);
bool decision_parse(const char *s, enum decision *out);

struct run_info {
	int64_t id, head_id, source_id, diff_id; /* diff_id 0: none */
	enum run_kind kind;
	int attempt;
	bool has_pr;
	int64_t pr;
	char base[41]; /* "" when unknown */
	int64_t started_at;
	double wall_clock_s; /* NAN when not given */
	enum verdict verdict;
	enum git_state git;
	int64_t tests, failures, errors, skipped, flaky;
	bool has_cov;
	int64_t cov_lines, cov_hit;
	/* Shadow runs: the selection (decision NONE when there is none). */
	enum decision decision;
	bool has_total, has_selected;
	int64_t total_tests, selected_count;
	struct strlist reasons;
	/*
	 * Its entries (core/identity.h): how many, how many resolve to
	 * nothing, and how many select no test of the run's own results
	 * (has_unmatched false: it has none, or it was stored before).
	 */
	bool has_entry_counts, has_unmatched;
	int64_t entries_total, entries_unresolved, entries_unmatched;
};

/* One head (the unit of a pair) with every run of it, by kind then attempt. */
struct pair_info {
	int64_t head_id;
	char *repo;
	char sha[41];
	bool has_pr;
	int64_t pr;
	int64_t at; /* window time: first shadow run, else first full run */
	struct run_info *runs;
	size_t nr, alloc;
};
void pair_info_release(struct pair_info *p);
/* A deep copy of p into out (release with pair_info_release). */
void pair_info_copy(struct pair_info *out, const struct pair_info *p);
/* A pair_fn that copies the first pair into data (a struct pair_info) and stops. */
int pair_info_take_first(const struct pair_info *p, void *data);
/* The latest attempt of a kind, or NULL. */
const struct run_info *pair_latest(const struct pair_info *p, enum run_kind k);
/* How many attempts of a kind. */
size_t pair_count(const struct pair_info *p, enum run_kind k);

/*
 * How far test identity held (SPEC 3.3; `identity` in report and status):
 * failing tests, those whose suite key resolved (to a path, or as a suite
 * name: by_name), the ids of the others, and the selection entries with
 * those that resolve to nothing and those that select no test of their
 * run's own results (has_unmatched: some run could tell).
 */
#define IDENTITY_LISTED 100
struct identity_figures {
	int64_t failing_tests, resolved, by_name;
	struct strlist unresolved; /* sorted, distinct, the first IDENTITY_LISTED */
	int64_t selection_entries, entries_unresolved, entries_unmatched;
	bool has_unmatched;
	/* The distinct quarantine lines, those that name no test file or suite, and theirs. */
	int64_t quarantine_lines, quarantine_unresolved;
	struct strlist quarantine_names; /* sorted, the first IDENTITY_LISTED */
};
void identity_figures_release(struct identity_figures *f);
/* After adding ids to f->unresolved: sort them, drop repeats, keep the first IDENTITY_LISTED. */
void identity_figures_finish(struct identity_figures *f);
/*
 * The quarantine lines of the runs of heads in w (NULL: every run) into
 * f: how many distinct lines, how many name nothing (SPEC 3.3), and those.
 */
int query_quarantine_identity(struct store *s, const struct window *w,
			      struct identity_figures *f);

struct store_status {
	int64_t shadow_runs, full_runs, pairs, tests, failures, sources;
	int64_t first, last; /* INT64_MIN / INT64_MAX when empty */
	struct identity_figures identity; /* every stored run; release it */
};
int query_status(struct store *s, struct store_status *out);

/*
 * Call fn for every head in the window (by its window time, ascending),
 * with all of its runs. fn returns non-zero to stop (returned as is).
 * Read from the pair cache (core/paircache.h), brought up to date first;
 * from the tables when it cannot be (another writer holds the lock).
 */
typedef int (*pair_fn)(const struct pair_info *p, void *data);
int query_pairs(struct store *s, const struct window *w, pair_fn fn, void *data);
/*
 * The same, last head first, from the pair cache only: 1 (nothing called)
 * when it cannot be brought up to date. For a second reader of a window,
 * from its other end.
 */
int query_pairs_backward(struct store *s, const struct window *w, pair_fn fn, void *data);

/*
 * The heads listed as stale in the pair cache (core/paircache.h), by id,
 * read from the tables, for rebuilding their rows.
 */
int query_stale_pairs(struct store *s, pair_fn fn, void *data);

/* How many heads lie in window w (the rows of the dashboard's runs view). */
int query_window_count(struct store *s, const struct window *w, int64_t *heads);
/*
 * Every repository name the store holds heads of, in order, appended to
 * out (a skip over the (repo, sha) index: one look-up per repository).
 */
int query_repos(struct store *s, struct strlist *out);
/*
 * The window times of the first and last heads in window w, every repo
 * (two index look-ups); *first > *last when it has none.
 */
int query_window_span(struct store *s, const struct window *w, int64_t *first,
		      int64_t *last);

/*
 * One page of the heads in window w, in window order (at, then id): the
 * heads at positions [offset, offset + limit), each with all of its runs,
 * handed to fn as query_pairs does. LIMIT/OFFSET over the head_at index,
 * so a page costs its own rows plus a walk of `offset` index entries.
 */
int query_pairs_page(struct store *s, const struct window *w, int64_t offset,
		     int64_t limit, pair_fn fn, void *data);

/*
 * The heads with the given ids, in the order given (ids not in the store
 * are skipped), each with all of its runs. For pages of a sorted or
 * filtered list of heads.
 */
int query_pairs_by_ids(struct store *s, const int64_t *ids, size_t nr,
		       pair_fn fn, void *data);

/*
 * Find the head of a PR number or a commit (full sha or a unique prefix of
 * at least 4 hex digits). Returns 0 and fills out, 1 when nothing matches,
 * or -1 after error() (ambiguous, store error).
 */
int query_pair_lookup(struct store *s, const char *what, struct pair_info *out);
/* The head stored for a commit sha in any repo; 1 when there is none. */
int query_pair_by_sha(struct store *s, const char *sha, struct pair_info *out);

/*
 * How a stored result's suite key resolved (core/identity.h), as the
 * query layer reads it: a suite name counts only while a selection
 * declares it.
 */
enum resolved {
	RESOLVED_UNKNOWN = -1, /* stored before tiadash resolved suite keys */
	RESOLVED_NOT = 0,      /* nothing in the tree (or no tree) ties it to a test file */
	RESOLVED_PATH = 1,     /* a path of the tree at the run's head */
	RESOLVED_NAME = 2,     /* a suite name some selection entry uses (declared) */
	RESOLVED_UNDECLARED = 3, /* a bare word no selection uses: nothing ties it */
};

/* A failing (or flaky) test of a run. */
struct test_result {
	const char *suite, *name;
	enum outcome outcome;
	const char *digest;  /* of its message and first lines; NULL when not stored */
	const char *excerpt; /* its message and text, cut short; NULL when not stored */
	int64_t cases;     /* the cases reported under this id (SPEC 3.3) */
	enum resolved resolved;
};
typedef int (*result_fn)(const struct test_result *r, void *data);
/* Results of a run ordered by suite then case name. */
int query_run_results(struct store *s, int64_t run_id, result_fn fn, void *data);
/*
 * The same in the stored (id) order, without the sort by name that costs a
 * temporary B-tree a call: for a caller whose result does not depend on the
 * order (it counts, or sorts what it keeps).
 */
int query_run_results_unordered(struct store *s, int64_t run_id, result_fn fn, void *data);

/* The failing (failed or errored) tests of a run as SUITE::CASE ids, sorted. */
int query_run_failed_ids(struct store *s, int64_t run_id, struct strlist *out);

/*
 * Main's record (SPEC 4, inherited; core/query_main.c). ingest/mainline.c
 * keeps the first-parent line of each repository's main branch, numbered
 * upward (seq); a full run with no PR on a commit of that line is a run of
 * main: never a pair, the record of which tests were red on main.
 */
/* 1 when sha is on repo's main line (*seq its place), 0 when not; -1 after error(). */
int query_mainline_seq(struct store *s, const char *repo, const char *sha, int64_t *seq);

struct main_cover {
	int64_t run_id;    /* main's run (latest attempt) that covers the fork; 0: none */
	char sha[41];      /* its commit, "" when none */
	bool fork_known;   /* the diff has a merge base */
	bool fork_on_line; /* and it is on main's line */
};
/*
 * The run of main that covers a pair whose diff is diff_id: main's full run
 * on the diff's merge base (the fork point) or on the nearest first-parent
 * ancestor of it that main ran, never head_id's own. -1 after error().
 */
int query_main_cover(struct store *s, const char *repo, int64_t diff_id, int64_t head_id,
		     struct main_cover *out);

/*
 * What every pair's class depends on beyond its own runs, as text into
 * out: main's record (it changes whenever a run of main or the line itself
 * does) and the declared suite names.
 */
int query_class_stamp(struct store *s, struct strbuf *out);

struct main_run {
	int64_t head_id, run_id, seq, started_at;
	char *repo;
	char sha[41];
	enum verdict verdict;
	struct strlist red; /* its failing tests (failed or errored), sorted */
};
/*
 * Every run of main (each commit's latest attempt) started before until,
 * of repo (NULL: every repo), by repo then seq, with their red tests, into
 * a new array *out of *nr (release with main_runs_release, also after
 * an error). -1 after error().
 */
int query_main_runs(struct store *s, const char *repo, int64_t until, struct main_run **out,
		    size_t *nr);
void main_runs_release(struct main_run *runs, size_t nr);
/* The newest run's id (0: none), to tell the runs an ingest wrote. */
int query_newest_run(struct store *s, int64_t *id);

/*
 * The runs of a window's heads (every attempt), ascending ids: what the
 * blind spots walk. The tables they read (selection, run_tests, result)
 * are scanned over the ids' range and kept to the ids, so a window costs
 * its own rows, not a B-tree search of run and head per row.
 */
struct window_runs {
	struct int_vec all;      /* every run */
	struct int_vec full;     /* full runs */
	struct int_vec narrowed; /* shadow runs with decision `selected` */
	/*
	 * The window holds every head, so every run of the store: only full
	 * is filled, and the queries read whole tables (a run not full is a
	 * shadow run).
	 */
	bool every;
};
#define WINDOW_RUNS_INIT { INT_VEC_INIT, INT_VEC_INIT, INT_VEC_INIT, false }
/* Add the runs of head p; window_runs_sort when every head is in. */
void window_runs_add(struct window_runs *wr, const struct pair_info *p);
void window_runs_sort(struct window_runs *wr);
void window_runs_release(struct window_runs *wr);
/* The runs of the heads in window w, sorted. */
int query_window_runs(struct store *s, const struct window *w, struct window_runs *out);

/*
 * The real failures (failed or errored) of the full runs of wr, for the
 * blind spots: each one's suite and case name ids (a pair), appended to
 * out in no particular order.
 */
int query_window_failure_ids(struct store *s, const struct window_runs *wr,
			     struct int_vec *out);

/*
 * Every entry of every selection of wr's narrowed runs: fn per entry
 * (borrowed); *runs counts the selections (may be NULL).
 */
typedef int (*entry_fn)(const char *entry, size_t len, void *data);
int query_narrowed_selections(struct store *s, const struct window_runs *wr,
			      entry_fn fn, void *data, int64_t *runs);

/*
 * The tests full runs ran, as stored: groups, each one suite's set of
 * cases (first_at: the start of the earliest full run that ran it).
 */
struct test_group {
	const char *suite;
	const struct strlist *cases; /* sorted */
	int64_t first_at;
};
typedef int (*test_group_fn)(const struct test_group *g, void *data);
/*
 * The ids of the groups of the test lists of wr's runs (ascending, each
 * once), appended to out; *listed counts the runs with a stored test list.
 */
int query_window_group_ids(struct store *s, const struct window_runs *wr,
			   struct int_vec *out, int64_t *listed);
/* The groups with these ids (test_group rowids), in their order. */
int query_groups_each(struct store *s, const int64_t *ids, size_t nr, test_group_fn fn,
		      void *data);
/*
 * The groups of the tests run run_id ran (its stored test list), in group
 * id order: 1 (fn not called) when the run has no stored list.
 */
int query_run_tests_each(struct store *s, int64_t run_id, test_group_fn fn, void *data);
/*
 * The ids of the groups of run_id's stored test list, in its order, into
 * out (emptied first; caller releases): 1 when the run has no stored list.
 * For a reader that keeps what it derives from each group across runs.
 */
int query_run_group_ids(struct store *s, int64_t run_id, struct int_vec *out);
/*
 * The groups of repo ("" or NULL: every repo) first run before `before`,
 * and those of its earliest full run with a test list (the baseline).
 */
int query_tests_before(struct store *s, const char *repo, int64_t before,
		       test_group_fn fn, void *data);

/* Every head of PR pr in repo, by window time, each with all of its runs. */
int query_pr_heads(struct store *s, const char *repo, int64_t pr, pair_fn fn, void *data);
/* The head of id head_id with all of its runs (fn not called when there is none). */
int query_head_pair(struct store *s, int64_t head_id, pair_fn fn, void *data);

/* Add every entry of a run's selection to out. */
int query_selection_entries(struct store *s, int64_t run_id, struct strlist *out);

/*
 * A run's selection entries as the figures match them: each as stored
 * (sorted), and keys[i] (owned) the test id an id-map keyed entries.items[i]
 * to from its run's workdir (at ingest, or core/rekey.h since), NULL where
 * none. An entry with a key is matched by it, which no rule rewrites
 * again; the others through the id-map in force.
 */
struct selection_entries {
	struct strlist entries;
	char **keys; /* entries.nr of them */
};
#define SELECTION_ENTRIES_INIT { STRLIST_INIT, NULL }
void selection_entries_release(struct selection_entries *e);
/* Add run_id's entries and their keys to out (empty first). */
int query_selection_keyed(struct store *s, int64_t run_id, struct selection_entries *out);
/* The key of entry in e (NULL: none, or no such entry). */
const char *selection_entry_key_of(const struct selection_entries *e, const char *entry);

/*
 * A run's quarantine list as the figures match it: its lines as written,
 * which the id-map in force rewrites, and for each line that an id-map
 * keyed (at ingest, or core/rekey.h since), from its run's workdir, the
 * test id it was keyed to instead, which no rule rewrites again.
 */
struct quarantine_list {
	struct strlist lines, keys;
};
#define QUARANTINE_LIST_INIT { STRLIST_INIT, STRLIST_INIT }
void quarantine_list_release(struct quarantine_list *q);
/* Add run_id's quarantine list to out, each part sorted. */
int query_quarantine(struct store *s, int64_t run_id, struct quarantine_list *out);

/*
 * Every run's quarantine list of the store, read at once: a pass over 10^5
 * pairs asks for two lists a pair, and most are empty. Rows by run id, then
 * name; each name owned.
 */
struct quarantine_index {
	struct quarantine_entry {
		int64_t run_id;
		char *name;
		bool keyed; /* name is the key an id-map gave the line */
	} *items;
	size_t nr, alloc;
};
#define QUARANTINE_INDEX_INIT { NULL, 0, 0 }
int query_quarantine_index(struct store *s, struct quarantine_index *out);
/* Add run_id's quarantine list to out, as query_quarantine does. */
void quarantine_index_get(const struct quarantine_index *q, int64_t run_id,
			  struct quarantine_list *out);
void quarantine_index_release(struct quarantine_index *q);
/*
 * fn for each entry of a run's selection, in the stored (sorted) order,
 * borrowed; none when it has none. Stops at fn's non-zero, returned.
 */
int query_selection_each(struct store *s, int64_t run_id, entry_fn fn, void *data);
/*
 * Every narrowed selection with entries that selected none of its run's
 * tests at ingest: fn(shadow run id, its head's latest full run id or 0,
 * how many such entries) in run order; fn returns non-zero to stop
 * (returned as is).
 */
typedef int (*unmatched_fn)(int64_t shadow_id, int64_t full_id, int64_t unmatched,
			    void *data);
int query_unmatched_selections(struct store *s, unmatched_fn fn, void *data);
/*
 * The entries of a run's selection that select none of the tests its own
 * results reported, appended to out (sorted); *known is false when the run
 * reported none, or was stored before tiadash kept them.
 */
int query_selection_unmatched(struct store *s, int64_t run_id, struct strlist *out,
			      bool *known);
/*
 * The tests a run's own results reported (skipped ones left out) that no
 * entry of its selection names by id, appended to ran_broad, and those an
 * entry names by id that it reported skipped, to skipped_named (each
 * sorted); *known is false when none were kept (see the store's schema 16).
 */
int query_selection_ran(struct store *s, int64_t run_id, struct strlist *ran_broad,
			struct strlist *skipped_named, bool *known);

struct diff_file_info {
	char *path, *old_path; /* old_path NULL unless renamed */
	int status;            /* enum change_status */
	struct lineset added;
};
struct diff_info {
	int64_t id;
	char base[41], head[41], merge_base[41];
	bool unknown;
	struct diff_file_info *files;
	size_t nr, alloc;
};
void diff_info_release(struct diff_info *d);
int query_diff(struct store *s, int64_t diff_id, struct diff_info *out);

/*
 * Every changed path of every stored diff in one pass (the proposals walk
 * the whole history once): diff id, path (new side), old path (renames,
 * else NULL), ordered by diff then position. Diffs of state 'unknown' have
 * no rows. fn returns non-zero to stop (returned as is). Borrowed strings.
 */
typedef int (*diff_path_fn)(int64_t diff_id, const char *path,
			    const char *old_path, void *data);
int query_diff_paths(struct store *s, diff_path_fn fn, void *data);

struct coverage_info {
	char *path;
	struct lineset executable, executed;
};
struct run_coverage {
	struct coverage_info *files;
	size_t nr, alloc;
};
void run_coverage_release(struct run_coverage *c);
int query_run_coverage(struct store *s, int64_t run_id, struct run_coverage *out);

struct note_info {
	int64_t id, created_at;
	char *text;
};
/* Explained-escape notes of a head, oldest first. */
int query_notes(struct store *s, int64_t head_id, struct note_info **out, size_t *nr);
void notes_release(struct note_info *notes, size_t nr);
/*
 * The latest note of every head that has one, read at once: a pass over
 * 10^5 pairs asks for the notes of each escape, and most have none. By
 * head id; each text owned.
 */
struct note_index {
	struct note_latest {
		int64_t head_id;
		char *text;
	} *items;
	size_t nr, alloc;
};
#define NOTE_INDEX_INIT { NULL, 0, 0 }
int query_note_index(struct store *s, struct note_index *out);
/* The latest note's text of head_id (the index's), or NULL when it has none. */
const char *note_index_get(const struct note_index *n, int64_t head_id);
void note_index_release(struct note_index *n);

/* ---- defect seeding (seed/, metrics/seeded.h) ---- */

/* What caught a seeded mutant. */
enum seed_verdict {
	SEED_SUBSET,  /* the selected subset failed */
	SEED_FULL,    /* only the full suite failed: an escape the seeding predicts */
	SEED_NONE,    /* nothing failed: a verifier gap */
	SEED_INVALID, /* it did not compile or import (replaced) */
};
#define NR_SEED_CLASSES 3 /* the valid verdicts: subset, full, none */
/* "subset", "full", "none", "invalid". */
const char *seed_verdict_name(enum seed_verdict v);
bool seed_verdict_parse(const char *s, enum seed_verdict *out);

struct seed_change_info {
	int64_t pos;
	char sha[41];
	bool has_pr;
	int64_t pr;
	char *decision;           /* "selected", "nothing", "run_all", "error" */
	int64_t selected;         /* the subset's entries; -1 when it has none */
	int64_t candidates;       /* files outside the impact set */
	int64_t reached;          /* of which the selector's answer put inside */
	char *skipped;            /* why it has no mutants, or NULL */
};

/*
 * Whether the full suite executed a mutant's line, from the coverage report
 * the clean full run of its change wrote to $TIADASH_COVERAGE (seed/run.c):
 * the store keeps ingested runs' coverage of the changed files only, and a
 * mutant is never in a changed file.
 */
enum seed_executed {
	SEED_EXEC_NO_COVERAGE, /* the clean full run wrote no coverage */
	SEED_EXEC_YES,
	SEED_EXEC_NO,
	SEED_EXEC_NO_FILE,     /* its coverage does not list the file */
	SEED_EXEC_NO_LINE,     /* it lists the file, not this line as executable */
};
/* "yes", "no", "unknown (no coverage)", "unknown (file not in the coverage)", ... */
const char *seed_executed_name(enum seed_executed e);
/* Why it is unknown ("no coverage", ...); NULL for yes and no. */
const char *seed_executed_unknown(enum seed_executed e);
/* The store's word for it: "yes", "no", "no-file", "no-line"; NULL for no coverage. */
const char *seed_executed_key(enum seed_executed e);
bool seed_executed_parse(const char *key, enum seed_executed *out);

struct seed_mutant_info {
	int64_t pos, change;      /* change: the seed_change_info pos */
	char *path;
	int64_t line, col;        /* col: 0-based byte offset */
	char *op, *before, *after;
	enum seed_verdict verdict;
	bool timed_out;           /* the catching run was stopped at its timeout */
	char *why;                /* invalid: what failed, else NULL */
	double subset_s, full_s;  /* NAN when not run */
	struct strlist caught_by; /* failing tests of the catching run, sorted */
	enum seed_executed executed;
};

/* One stored experiment (`tiadash seed`). */
struct seed_info {
	int64_t id;
	char *repo;               /* the origin's owner/name, or "" */
	int64_t started_at, finished_at; /* finished_at INT64_MIN: still running or killed */
	char *state;              /* "running", "done", "budget", "interrupted" */
	int64_t since, until;     /* the history sampled (INT64_MIN / INT64_MAX: unbounded) */
	int64_t seed;
	char *selector, *test_cmd, *full_cmd;
	int64_t changes_wanted, mutants_wanted; /* --changes, --mutants (per change) */
	struct seed_change_info *changes; /* in sampled order */
	size_t nr_changes;
	struct seed_mutant_info *mutants; /* in the order they finished */
	size_t nr_mutants;
};
void seed_info_release(struct seed_info *i);
/*
 * The latest experiment started in window w (its repo, when w names one):
 * 0 and out filled, 1 when there is none, -1 after error(). out is always
 * safe to release.
 */
int query_seed_latest(struct store *s, const struct window *w, struct seed_info *out);
/* The experiment with this id; as query_seed_latest. */
int query_seed_by_id(struct store *s, int64_t id, struct seed_info *out);


#endif
