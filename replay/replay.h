/*
 * Replay (SPEC 5): merged first-parent history pushed through the rules, the
 * selector and the record. The pieces, one file each:
 *
 *   walk.c      the first-parent walk and each commit's changed paths
 *               (an own tree comparison: the generic diff is 8-14x slower)
 *   selector.c  running `--selector CMD` once per change, -j at a time
 *   record.c    what the store recorded: shadow selections, full-run
 *               failures, measured wall-clock
 *   evaluate.c  the decision of each change and the totals
 *   output.c    text, md, json and csv
 *   output_html.c  the HTML page
 *   cmd_replay.c, cmd_rules.c  the two commands (and progress output)
 *
 * Ownership: every struct here owns its strings and arrays and is freed by
 * its *_release function; "borrowed" marks what is not.
 */
#ifndef TIADASH_REPLAY_REPLAY_H
#define TIADASH_REPLAY_REPLAY_H

#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/query.h"
#include "core/repo.h"
#include "core/rules.h"
#include "core/strmap.h"
#include "core/store.h"
#include "core/util.h"

/* ---- walk.c ---- */

/* Why a commit's changed paths cannot be trusted: it then runs everything. */
enum replay_fail {
	REPLAY_OK,
	REPLAY_FAIL_SHALLOW, /* "shallow-history": a shallow clone cut the parent off */
	REPLAY_FAIL_COMMIT,  /* "unreadable-commit": the first parent cannot be read */
	REPLAY_FAIL_TREE,    /* "unreadable-tree": a tree cannot be read */
	REPLAY_FAIL_EMPTY,   /* "empty-diff": trees differ, yet no path does */
};
const char *replay_fail_name(enum replay_fail f);

struct replay_commit {
	char sha[41];
	char parent[41];   /* first parent; "" for a root commit */
	char merged[41];   /* a merge's second parent (the branch merged); "" */
	int64_t date;      /* committer date, ms */
	bool has_pr;
	int64_t pr;        /* from the subject, else GitLab's body line */
	char *subject;     /* first line of the message */
	struct strlist paths; /* changed paths, in git's order */
	enum replay_fail fail; /* not REPLAY_OK: decision run_all */
	bool same_tree;    /* no paths because the tree equals the parent's */
	git_oid tree, parent_tree; /* parent_tree: zero for a root commit */
};

struct replay_history {
	struct replay_commit *commits; /* newest first, as git log prints */
	size_t nr, alloc;
	char tip[41];
	bool truncated; /* the walk ended early (shallow or unreadable parent) */
};

void replay_history_release(struct replay_history *h);
/* Are the commit's paths its changes (false: unknown, "changed" is null)? */
bool replay_paths_known(const struct replay_commit *c);

/*
 * Walk the first parents of `rev` (default HEAD): skip commits whose
 * committer date is >= until, stop at the first one older than since
 * (git log --first-parent --since --until). Commits only; paths come from
 * replay_diff_commits. Returns 0 or -1 after error().
 */
int replay_walk(struct repo *r, const char *rev, int64_t since, int64_t until,
		struct replay_history *out);

/*
 * Fill every commit's changed paths: the diff against its first parent (a
 * root commit against the empty tree), both sides of a rename, as
 * `git log --first-parent --no-renames --name-only` lists them. A tree that
 * cannot be read marks the commit as failed, never the whole run. The
 * caller and jobs - 1 worker processes (at most REPLAY_DIFF_MAX_JOBS in all)
 * share the commits, each with its own object database; with jobs > 1 the
 * caller must have no other thread (the workers are forked). progress (may
 * be NULL) is called with (done, total) now and then, from the caller.
 */
#define REPLAY_DIFF_MAX_JOBS 64
void replay_diff_commits(struct repo *r, struct replay_history *h, int jobs,
			 void (*progress)(size_t done, size_t total, void *data),
			 void *data);

/*
 * replay_walk and replay_diff_commits at once: the jobs - 1 workers diff
 * the commits walked so far while the caller walks on.
 */
int replay_walk_diff(struct repo *r, const char *rev, int64_t since, int64_t until,
		     int jobs, void (*progress)(size_t done, size_t total, void *data),
		     void *data, struct replay_history *out);

/* ---- selector.c ---- */

enum replay_answer {
	ANSWER_TESTS,   /* ids: the tests to run (may be run through idset) */
	ANSWER_RUN_ALL, /* lines: the reasons */
	ANSWER_NOTHING,
	ANSWER_ERROR,   /* why: what went wrong (fail closed: run_all) */
};

struct replay_selector_job {
	/* In (borrowed, but the trees). */
	const char *base, *head;
	const struct strlist *paths;
	git_oid tree, parent_tree; /* the change: the cache key's half */
	/* Out. */
	enum replay_answer answer;
	struct strlist lines;
	char *why;
	bool cached;           /* answered from the cache, not called */
	bool not_reproducible; /* the same key answered otherwise (another call, the cache) */
	char key[33];          /* (selector, change) digest */
};

struct adapter;
struct spawn_env;

struct replay_selector_opts {
	const char *cmd;          /* the shell command run (NULL: no selector) */
	const char *name;         /* what the user gave: an adapter's name, or the CMD */
	const struct adapter *adapter; /* reads its stdout (lists: the line protocol) */
	struct repo *repo;        /* the worktrees' repository */
	const char *setup;        /* --setup: once per worktree; NULL: none */
	const struct strlist *scrub; /* more variables the selector must not see */
	bool cache;               /* answers read from and written to GIT_DIR/tiadash/selector-cache */
	bool recheck;             /* call even when cached, and compare */
	double timeout_s;
	int jobs;
	void (*progress)(size_t done, size_t total, void *data);
	void *data;
};

/*
 * Run the selector for every job, at most opts->jobs at a time, each in a
 * worktree of a pool (core/worktree.h) checked out at the job's head, via
 * /bin/sh -c with TIADASH_BASE, TIADASH_HEAD, TIADASH_TREE (the worktree)
 * and TIADASH_REPO (the user's repository) set, the paths on stdin, and
 * the environment scrubbed (core/spawn.h). Its stdout is read by
 * opts->adapter. Every job gets an answer; a selector that exits non-zero,
 * is killed, times out or prints what its reader refuses is ANSWER_ERROR.
 * Answers are cached by (selector, change) when opts->cache; a key that
 * answers two ways marks its jobs not reproducible. Returns 0, or -1
 * after error() when nothing can run (the pool, a checkout, the setup).
 */
int replay_selector_run(const struct replay_selector_opts *opts,
			struct replay_selector_job *jobs, size_t nr);
/*
 * What opts's command needs in env to run in worktree tree (replay's
 * calls and seed's): a built-in command of an npm package's tool (struct
 * adapter's node_tool) finds it in the worktree's node_modules/.bin, put
 * first on PATH.
 */
void replay_selector_env(const struct replay_selector_opts *opts, const char *tree,
			 struct spawn_env *env);
/*
 * Why the command exited with status (a waitpid status) when that says a
 * built-in command's tool is nowhere ("vitest: not found in the worktree's
 * node_modules; see --setup"), or NULL; the caller frees it.
 */
char *replay_selector_not_found(const struct replay_selector_opts *opts, int status);
void replay_selector_job_release(struct replay_selector_job *job);

/*
 * Classify a line-protocol answer (exposed for tests): fills answer and
 * lines, or answer ANSWER_ERROR and why.
 */
void replay_selector_parse(const char *out, size_t len,
			   struct replay_selector_job *job);

/* ---- record.c ---- */

/* The store's knowledge of one head: its latest shadow and full runs. */
struct replay_head {
	int64_t head_id;
	char sha[41];
	char *repo;
	bool has_pr;
	int64_t pr;
	int64_t at;
	int64_t shadow_run, full_run; /* run ids; 0: none */
	double shadow_wall_s, full_wall_s; /* those runs' wall-clock; NAN: not measured */
	bool shadow_verdict;          /* the shadow run reached a verdict (not error) */
	const char *shadow_decision;  /* "selected", "run_all", "nothing"; NULL: none */
	struct strlist shadow_reasons;
	bool has_selected;
	int64_t selected_count;
	bool of_main;                 /* a run of main (no PR, no shadow run): no change's record */
	struct strlist inherited;     /* SUITE::CASE red on main's covering run (sorted): not missed */
};

struct replay_record {
	struct store *store; /* borrowed; NULL: no store */
	const struct idmap *idmap; /* the store config's id-map, borrowed; NULL: none */
	struct replay_head *heads;
	size_t nr, alloc;
	struct strmap by_sha; /* sha -> index */
	struct strmap by_pr;  /* "repo\npr" and "\npr" -> index of the latest head */
	char *repo;           /* the store repo name matching this repository, or NULL */
	double full_s, narrowed_s; /* median wall-clock; NAN when unknown */
	size_t full_n, narrowed_n;
};

/*
 * Load every head of the store (NULL store: an empty record), each shadow
 * run as its pair answers it (core/answer.h, with idmap, NULL: none; also
 * the quarantine lists' id-map). repo_slug is "owner/name" of the
 * repository's origin, or NULL; it picks the store's repo when the store
 * holds several.
 */
int replay_record_load(struct replay_record *rec, struct store *s,
		       const struct idmap *idmap, const char *repo_slug);
void replay_record_release(struct replay_record *rec);

/*
 * The head recorded for a change: its commit (unless that is a run of main
 * and the change has a PR), else its PR's latest head, else (a merge with no
 * PR number) the head of the branch it merged.
 */
const struct replay_head *replay_record_find(const struct replay_record *rec,
					     const struct replay_commit *c);

/* A failing test the gate should have run. */
struct replay_failure {
	char *suite, *name;
};

/*
 * The non-flaky, non-quarantined failing tests of the head's latest full
 * run that main's covering run was not red on (inherited: SPEC 4), sorted
 * by suite then name. Caller frees with replay_failures_release.
 */
int replay_record_failures(const struct replay_record *rec,
			   const struct replay_head *h,
			   struct replay_failure **out, size_t *nr);
void replay_failures_release(struct replay_failure *f, size_t nr);

/* The entries of the head's latest shadow selection, sorted, with their keys (core/query.h). */
int replay_record_selection(const struct replay_record *rec,
			    const struct replay_head *h, struct selection_entries *out);

/* The tests that failed (or errored) in the head's latest shadow run, as SUITE::CASE keys. */
int replay_record_shadow_failed(const struct replay_record *rec,
				const struct replay_head *h, struct strmap *out);

/* "owner/name" from a remote URL (https, ssh or scp form), or NULL; caller frees. */
char *replay_repo_slug(const char *url);

/* ---- evaluate.c ---- */

enum replay_decision {
	REPLAY_RUN_ALL,
	REPLAY_SELECTED,
	REPLAY_NOTHING,
	REPLAY_RULES_ONLY,
};
const char *replay_decision_name(enum replay_decision d);

/* The answer of one rule set (baseline or proposal) for one change. */
struct replay_outcome {
	enum replay_decision decision;
	struct strlist reasons;
	bool has_selected;
	int64_t selected;
	struct strlist missed; /* SUITE::CASE */
	struct strlist selection; /* what a narrowed decision runs, sorted */
	struct strlist rule_tests; /* what the matched select rules named */
	bool narrowed_by_rules; /* the rules left it to a selector */
	bool compared;          /* a recorded decision existed */
	bool disagrees;
	char *disagreement;     /* what differs, when disagrees */
};

struct replay_change {
	const struct replay_commit *commit;   /* borrowed from the history */
	const struct replay_head *head;       /* borrowed from the record; NULL */
	struct replay_selector_job *job;      /* borrowed; NULL without a selector */
	struct replay_outcome base, prop;
	/*
	 * The built-ins' what-if: the candidates matching paths no rule in
	 * effect matched, each "force-full:GLOB (suggested: built-in)"; they
	 * would force a change the baseline did not run in full.
	 */
	struct strlist suggested;
};

struct replay_totals {
	size_t changes, force_full, nothing, selected, rules_only;
	size_t misses, missed_changes, disagreements, recorded;
	size_t not_reproducible; /* changes whose selector answered two ways */
	struct strlist reason_names; /* in first-seen order */
	size_t *reason_counts;
	size_t runs_full, runs_narrowed; /* for the minutes estimate */
	double minutes;                  /* NAN when it cannot be estimated */
};

struct replay_run {
	struct replay_history history;
	struct replay_record record;
	struct rules baseline, proposal;
	bool has_proposal;
	struct rules builtin;     /* compiled: the built-in candidates (adapters/ruleset.h); nr 0: none */
	struct strlist rule_files;/* the files the baseline is in effect from, as shown */
	/* The built-ins' what-if beside the baseline: changes it forces, misses it closes. */
	size_t builtin_forced, builtin_misses_closed, builtin_changes_closed;
	struct replay_change *changes;
	size_t nr;
	struct replay_selector_job *jobs;
	size_t nr_jobs, selector_calls, selector_cached;
	struct replay_totals tb, tp;
	/* Comparison of the proposal with the baseline. */
	size_t escapes_closed, escapes_opened, extra_force_full;
	/* The selector (opts.cmd NULL: none), and the command line for the header. */
	struct replay_selector_opts selector;
	int64_t since, until;
	const char *branch;
	bool has_store;
	int threads; /* -j: threads the rules and the rows' formatting may use (0, 1: the caller's) */
};

/*
 * A change's decision, for each rule set (baseline, and proposal if any):
 *   - a commit that failed closed (enum replay_fail) runs everything;
 *   - no changed path: nothing ("no-changes");
 *   - a path whose first rule is run_all: run_all, naming every such rule;
 *   - every path ignored: nothing, naming the ignore rules;
 *   - else the change is narrowed, and the answer is the selector's (its
 *     ids plus what select rules named, "nothing", or run_all with its
 *     reasons; a failure is run_all "selector-error"), else the recorded
 *     shadow selection of the change's head (decision, reasons and
 *     entries from the store), else "rules-only" (selecting what select
 *     rules named).
 * Misses: the failing tests of the head's latest full run (not flaky,
 * not quarantined), when the decision selects none of them
 * (core/idmatch.h; run_all selects everything): a gate that runs one of
 * them fails and misses nothing. A selected failing test that the recorded
 * shadow run also selected and that passed there is non-hermetic (SPEC 4):
 * it neither stops the change nor counts as missed. A recorded decision that differs, or a
 * selector's selection that differs from the recorded one, is a
 * disagreement.
 *
 * replay_apply_rules runs the rules (and marks what needs the selector);
 * a judged rule reads the change's bytes from repo (NULL: its own action).
 */
void replay_apply_rules(struct replay_run *run, struct repo *repo);
/* Would the built-ins force this change (suggested set, its baseline not run in full)? */
bool replay_builtin_forces(const struct replay_change *ch);
/* Selector answers, records and misses, then the totals. -1 after error(). */
int replay_finish(struct replay_run *run);
/*
 * Said after the report: when most selector calls failed one way, that
 * way (a warning); -1 after error() when every call failed (the history
 * is then the selector's failure, not its answers).
 */
int replay_selector_verdict(const struct replay_run *run);
void replay_run_release(struct replay_run *run);

/* ---- output.c ---- */

void replay_print_text(const struct replay_run *run, FILE *f);
void replay_print_md(const struct replay_run *run, FILE *f);
void replay_print_json(const struct replay_run *run, FILE *f);
void replay_print_csv(const struct replay_run *run, FILE *f);

/* The text forms the formats share (fresh strings; caller frees). */
char *replay_text_minutes(double m);                       /* "12.5" or "n/a" */
/* n / of, NAN when of is 0: the JSON's force_full_rate. */
double replay_rate(size_t n, size_t of);
/* Indexes of t's reasons by how often they fired (ties: first seen); caller frees. */
size_t *replay_reason_order(const struct replay_totals *t);
/* How often the reason `name` fired in t (0: never). */
size_t replay_reason_count(const struct replay_totals *t, const char *name);

/* ---- output_html.c ---- */

/*
 * --format html: one self-contained page (core/html.h): the header, the
 * force-full rate and misses of the baseline (and the what-if beside it)
 * as charts, the totals in the text's order, the first changes. now: when
 * the page was made.
 */
void replay_print_html(const struct replay_run *run, int64_t now, FILE *f);

/* ---- cmd_replay.c ---- */

struct config;
/*
 * --selector NAME runs that adapter's own command and reads its own answer
 * (cached unless cache_given && !cache: its answer is the tree's); a CMD
 * keeps the line protocol, or format's reader (an adapter name; cached
 * when cache). Fills the selector, its reader, the cache, the repository
 * and the config's scrubbed names; the caller sets setup, timeout and
 * jobs. -1 after error() (an adapter without a command, a format given
 * with a NAME).
 */
int replay_selector_config(struct replay_selector_opts *out, const char *selector,
			   const char *format, bool cache_given, bool cache,
			   struct repo *repo, const struct config *cfg);
/*
 * The option-table callback of --selector-format F (replay, seed, propose):
 * "lists" or an answer adapter's name, into the const char * at o->value.
 */
struct opt;
struct opt_parse;
int replay_opt_selector_format(const struct opt *o, const char *arg,
			       const struct opt_parse *p);
/* "owner/name" of the repository's remote.origin.url, or NULL; caller frees. */
char *replay_origin_slug(struct repo *repo);

/*
 * Progress on stderr, only when stderr is a terminal: "LABEL done/total
 * (rate/s)", redrawn at most every 100 ms; replay_progress_done clears it.
 * replay_progress_cb takes the struct replay_progress as its data.
 */
struct replay_progress {
	const char *label;
	int64_t start_ms, last_ms;
	bool on;
};
void replay_progress_init(struct replay_progress *p, const char *label);
void replay_progress_cb(size_t done, size_t total, void *data);
void replay_progress_done(struct replay_progress *p);

#endif
