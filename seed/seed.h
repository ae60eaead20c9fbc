/*
 * Defect seeding (`tiadash seed`): a sharper escape-rate estimate before
 * real escapes happen (seed 003, "Measure the gap on your own
 * repository"). For sampled landed changes, the selector's impact set is
 * computed as replay computes it; plausible defects (mutants) are injected
 * into source files outside it, one per file a round, in a worktree of the
 * pool (core/worktree.h); the selected subset and the full suite run against
 * each; the split of what catches them is the finding:
 *
 *   subset   caught by the subset anyway (the map was over-conservative)
 *   full     caught only by the full suite (an escape the seeding predicts)
 *   none     caught by no test (a verifier gap, or an equivalent mutant)
 *   invalid  did not compile or import: replaced, counted apart
 *
 * The pieces, one file each:
 *
 *   mutate.c      languages, a line-level lexer (code vs comments and
 *                 strings) and the mutation operators, matched with PCRE2
 *   sample.c      the seeded random choices, the window's changes and
 *                 their impact sets (replay's walk, rules and selector),
 *                 and the files outside them
 *   run.c         the experiment: each change's clean runs, then its
 *                 mutants, -j worktrees at a time, one event loop
 *   store.c       the experiment written to the store as it goes
 *   coverage.c    the clean full run's coverage ($TIADASH_COVERAGE): did
 *                 the full suite execute a mutant's line
 *   candidates.c  what would have caught the escapes: select entries and
 *                 force-full globs, measured on the window's history
 *   output.c      text, md, json, csv and html
 *   cmd_seed.c    the command, its options and progress
 *
 * The figures (counts, rates, exact intervals) are metrics/seeded.h's, read
 * back from the store, so `seed`, `report`, `gate-check` and the dashboard
 * show the same numbers.
 *
 * Ownership: every struct owns its strings and arrays and is freed by its
 * *_release function; "borrowed" marks what is not.
 */
#ifndef TIADASH_SEED_SEED_H
#define TIADASH_SEED_SEED_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/repo.h"
#include "core/rules.h"
#include "core/util.h"
#include "metrics/seeded.h"
#include "replay/replay.h"

/* ---- the seeded random choices (sample.c) ---- */

/*
 * splitmix64, one stream per purpose: seed_rng_init mixes the experiment's
 * seed with a salt (a commit, a path), so each choice depends on the seed
 * and what it is about, never on the order work finished in (-j).
 */
struct seed_rng {
	uint64_t state;
};
void seed_rng_init(struct seed_rng *r, uint64_t seed, const char *salt);
uint64_t seed_rng_next(struct seed_rng *r);
/* Uniform in [0, n) (n > 0), without modulo bias. */
size_t seed_rng_below(struct seed_rng *r, size_t n);
/* Shuffle n indexes in place (Fisher-Yates). */
void seed_shuffle(size_t *idx, size_t n, struct seed_rng *r);

/* ---- mutate.c ---- */

enum seed_lang {
	LANG_NONE,
	LANG_PYTHON, /* .py .pyi */
	LANG_JS,     /* .js .mjs .cjs .jsx .ts .mts .cts .tsx */
	LANG_C,      /* .c .h .cc .cpp .cxx .hh .hpp .hxx */
	LANG_GO,     /* .go */
	LANG_JAVA,   /* .java */
};
/* The language of a path by its extension (LANG_NONE: none we mutate). */
enum seed_lang seed_lang_of(const char *path);
const char *seed_lang_name(enum seed_lang l);

/*
 * Is path a test file (never mutated)? A directory component test, tests,
 * __tests__, spec, specs, testdata, fixtures, __fixtures__ or __mocks__;
 * or a base name test_*.py, *_test.py, conftest.py, *.test.*, *.spec.*,
 * *_test.go, *Test.java, *Tests.java, *IT.java, test_*.c, *_test.c(c),
 * *_unittest.cc.
 */
bool seed_is_test_path(const char *path);

/*
 * The operators (the man page lists them per language), each matched with
 * PCRE2 on a line's code, never inside a comment or a string:
 *
 *   cmp-flip     <  <=  >  >=  flipped to  <=  <  >=  >  (spaces around)
 *   eq-flip      ==  !=  (=== !== in JS/TS) flipped
 *   bool-swap    and <-> or (Python); && <-> || (the others)
 *   off-by-one   a binary "+ 1" <-> "- 1" (after an operand: a name, a
 *                number, ")" or "]"; not an exponent, not after return)
 *   not-drop     "not " dropped (Python); a unary "!" dropped
 *   const-flip   a returned constant: True <-> False (Python),
 *                true <-> false (the others), 0 <-> 1 (all)
 *   slice-bound  a slice's upper bound less one: x[a:b] -> x[a:b - 1]
 *                (Python, Go); .slice(a, b) / .substring(a, b) (JS/TS),
 *                .substring(a, b) / .subList(a, b) (Java)
 *
 * Lines that are not code are never mutated: blank ones, comments,
 * strings (Python's triple-quoted ones, JS template literals, Go raw
 * strings and Java text blocks across lines too), imports and package
 * lines, decorators and annotations, C preprocessor lines, a shebang.
 */
struct seed_ops;
/* Compile every operator (once per run). */
struct seed_ops *seed_ops_new(void);
void seed_ops_free(struct seed_ops *o);

struct seed_site {
	int line;          /* 1-based */
	size_t col, len;   /* the bytes replaced: line offset (0-based) and length */
	const char *op;    /* the operator's name (static) */
	char *to;          /* what replaces them */
};
struct seed_sites {
	struct seed_site *items;
	size_t nr, alloc;
};
#define SEED_SITES_INIT { NULL, 0, 0 }
void seed_sites_release(struct seed_sites *s);

/* Every site in text (a file of language lang), by line, then column, then operator. */
void seed_find_sites(const struct seed_ops *o, enum seed_lang lang, const char *text,
		     size_t len, struct seed_sites *out);

/*
 * The code view of text: every byte of a comment or a string (delimiters
 * included) as '_', newlines kept, and lines that are not code (above)
 * all '_'. What the operators match on; exposed for tests.
 */
void seed_code_view(enum seed_lang lang, const char *text, size_t len, struct strbuf *out);

/*
 * text with the site applied into out; *before and *after (fresh
 * strings, caller frees) are the line without its indentation and line
 * end, before and after.
 */
void seed_apply(const char *text, size_t len, const struct seed_site *site,
		struct strbuf *out, char **before, char **after);

/* ---- sample.c ---- */

/*
 * Why a file of the change's tree gave no mutant: the reason a change
 * without one says (seed_no_mutant_reason).
 */
enum seed_pass {
	SEED_PASS_LANG,       /* in no language of mutate.c */
	SEED_PASS_TEST,       /* a test file */
	SEED_PASS_CHANGED,    /* the change touches it */
	SEED_PASS_SUBSET,     /* the subset names it */
	SEED_PASS_RULE,       /* a run_all rule matches it */
	SEED_PASS_BIG,        /* over 1 MiB */
	SEED_PASS_NO_SITE,    /* outside, but no operator matched */
	SEED_PASS_UNREADABLE, /* outside, but not a readable file in the worktree */
	SEED_NR_PASS
};

/* One sampled change and what its selector said. */
struct seed_change {
	const struct replay_commit *commit; /* borrowed from the history */
	size_t pos;                /* in the order sampled (the store's) */
	const char *decision;      /* "selected", "nothing", "run_all", "error" */
	struct strlist subset;     /* what the subset runs: the selector's entries and
				      what select rules named (selected) */
	struct strlist reasons;    /* run_all: the rules or the selector's reasons;
				      error: why */
	char *skipped;             /* why it gets no mutants (NULL: it gets some) */
	/* Filled while it runs (run.c). */
	struct strlist files;      /* candidate files, in the seeded order */
	size_t next_file;
	size_t round;              /* the files' round: its mutants are their round-th sites */
	bool placed;               /* the round placed a mutant */
	bool *done;                /* per file: inside the set, or out of sites */
	int64_t reached;           /* files the selector puts inside the set */
	int64_t tried, valid, invalid;
	int64_t passed[SEED_NR_PASS]; /* files by why they gave no mutant */
	struct strlist no_site;    /* the first files no operator matched */
	double subset_s, full_s;   /* the clean runs' wall-clock */
	/* What the clean full run wrote to $TIADASH_COVERAGE (nr 0: nothing), paths as reported. */
	struct run_coverage cov;
	bool finished;
};

struct seed_sample {
	struct replay_run run;     /* the walk and the rules' stage (replay's) */
	struct seed_change *changes;
	size_t nr, alloc;
	size_t eligible;           /* changes of the window that could be sampled */
	size_t selector_calls;
};

struct seed_sample_opts {
	const struct replay_selector_opts *selector; /* cmd set: the selector (borrowed) */
	uint64_t seed;
	size_t changes;            /* how many with an impact set to mutate around */
};

/*
 * Sample the window's changes in the seeded order (first-parent, as replay
 * walks; a change whose paths are unknown, or with none, is not
 * eligible), push each through the rules, and ask the selector (replay's
 * pool, cache and adapters) for the impact set of the narrowed ones,
 * until o->changes have one (decision selected or nothing). A change the
 * rules or the selector run everything for, or whose selector failed, is
 * kept with the reason it is skipped. s->run must hold the walked,
 * rules-staged history (replay_walk, replay_diff_commits,
 * replay_apply_rules). -1 after error().
 */
int seed_sample_changes(struct seed_sample *s, const struct seed_sample_opts *o);
void seed_sample_release(struct seed_sample *s);

/*
 * The files outside a change's impact set, in the seeded order: the
 * regular files of the head's tree with a language of mutate.c, that the
 * change does not touch, that are not test files (seed_is_test_path) nor
 * named by the subset, whose first matching rule is not run_all, and no
 * bigger than 1 MiB. Whether the selector's own answer reaches them is
 * asked later, per file (run.c). -1 after error().
 */
int seed_outside_files(struct repo *repo, const struct rules *rules,
		       struct seed_change *c, uint64_t seed);
/*
 * Why c has no mutant, from its tallies: "no source file outside the
 * impact set (of 7 files: 4 in no language seed mutates, ...)" or "no
 * mutant: of 4 files outside the impact set, 1 matched no operator
 * (src/math.ts), 3 the selector puts inside the set". Caller frees.
 */
char *seed_no_mutant_reason(const struct seed_change *c);

/* Does any of the answer's entries name a test the subset runs (or one beside it)? */
bool seed_entries_overlap(const struct strlist *subset, const struct strlist *answer);

/* ---- run.c ---- */

struct seed_run_opts {
	struct repo *repo;
	const struct replay_selector_opts *selector; /* the reach question; borrowed */
	const char *test_cmd, *full_cmd;  /* full NULL: test_cmd with nothing selected */
	const char *build_cmd;            /* NULL: none */
	const char *setup;
	const struct strlist *scrub;
	const int *invalid_exits;         /* exit statuses meaning "did not load" */
	size_t nr_invalid_exits;
	double timeout_s;                 /* 0: three times the clean run, plus 10 s */
	int64_t budget_ms;                /* 0: none */
	size_t mutants;                   /* valid mutants per change */
	uint64_t seed;
	int jobs;
	bool progress;                    /* stderr is a terminal */
	/* The store gets each change and mutant as it finishes (store.c). */
	struct store *store;
	int64_t experiment;
};

enum seed_stop { SEED_DONE, SEED_BUDGET, SEED_INTERRUPTED };
const char *seed_stop_name(enum seed_stop s);

/*
 * Run the experiment over the sampled changes that have an impact set:
 * each change is checked out in a worktree; the build (when given), the
 * subset and the full suite run clean first (a change where one fails is
 * skipped); then mutants, one per file from the change's outside files,
 * round after round while a file has sites left:
 *   1. the seeded choice of one site of the file (its round-th), applied;
 *   2. the reach question: the selector, run in the worktree with the
 *      mutant applied, TIADASH_BASE = TIADASH_HEAD = the change's head and
 *      the file on stdin; an answer naming a test of the subset (or
 *      run_all, or a failure) puts the file inside the set: it is put back
 *      and the next file is tried (not asked when the subset is empty);
 *   3. the build; the subset (not when empty); the full suite when the
 *      subset did not catch it. A run exiting 0 passed; with a status of
 *      invalid_exits (or a failed build) the mutant is invalid and the
 *      next file is tried; past the timeout it is caught (marked); any
 *      other exit caught it. The failing tests come from the JUnit file
 *      the run wrote to $TIADASH_JUNIT, when it did;
 *   4. the file is restored and the worktree reset.
 * Stops after `mutants` valid mutants per change, when the files run out,
 * at the budget, or on SIGINT, SIGTERM or SIGHUP (runs still going are
 * stopped and not counted): *stop says which. -1 after error() when
 * nothing can run (the pool, a checkout, the store).
 */
int seed_run(const struct seed_run_opts *o, struct seed_sample *s, enum seed_stop *stop);

/* ---- store.c ---- */

struct seed_experiment_meta {
	const char *repo;          /* the origin's owner/name, or "" */
	int64_t started_at, since, until;
	uint64_t seed;
	const char *selector, *test_cmd, *full_cmd;
	size_t changes, mutants;
};
/* A new experiment (state running); its id in *id. -1 after error(). */
int seed_store_begin(struct store *st, const struct seed_experiment_meta *m, int64_t *id);
/* The sampled changes, as sampled (a change's counters are updated as it ends). */
int seed_store_changes(struct store *st, int64_t id, const struct seed_sample *s);
int seed_store_change_end(struct store *st, int64_t id, const struct seed_change *c);
/* One finished mutant. */
struct seed_mutant {
	size_t change;             /* seed_change.pos */
	const char *path;
	int line;
	size_t col;
	const char *op, *before, *after;
	enum seed_verdict verdict;
	bool timed_out;
	const char *why;           /* invalid: what failed */
	double subset_s, full_s;   /* NAN: not run */
	struct strlist *caught_by; /* failing tests of the catching run (sorted in place) */
	enum seed_executed executed; /* by the change's clean full run (its coverage) */
};
int seed_store_mutant(struct store *st, int64_t id, size_t pos, const struct seed_mutant *m);
/* The end: state and time. */
int seed_store_end(struct store *st, int64_t id, enum seed_stop stop, int64_t at);

/* ---- coverage.c ---- */

/*
 * Read the lcov tracefile or Cobertura report at file (what the clean full
 * run wrote to $TIADASH_COVERAGE) into out, paths under tree made relative
 * to it. No file: out stays empty; one that cannot be read is warned about
 * and read as none.
 */
void seed_coverage_read(const char *file, const char *tree, struct run_coverage *out);
/* Whether that coverage executed line of path (a repository path). */
enum seed_executed seed_coverage_executed(const struct run_coverage *c, const char *path,
					  int line);

/* ---- candidates.c ---- */

/* What would have caught the escaping mutants, measured on the window's history. */
struct seed_select {
	char *path;                /* the mutated file */
	char *glob;                /* it as a glob (propose's file candidate) */
	struct strlist tests;      /* the full suite's tests that caught its escapes, sorted */
	size_t *closes;            /* indexes into the experiment's mutants */
	size_t nr_closes;
	int64_t changes;           /* changes of the window that touch the file */
};
struct seed_glob {
	char *glob;
	const char *form;          /* proposal_form_name */
	size_t *closes;            /* indexes into the experiment's mutants */
	size_t nr_closes;
	int64_t forced;            /* changes of the window it would newly run_all */
	bool recommended;
};
struct seed_candidates {
	struct seed_select *selects; /* by path */
	size_t nr_selects;
	struct seed_glob *globs;     /* ranked: closes desc, forced asc, form, glob */
	size_t nr_globs;
	size_t *recommended;         /* greedy cover, indexes into globs */
	size_t nr_recommended;
	int64_t history;             /* changes of the window */
};
/*
 * For every escape (verdict full): a select entry for its file naming the
 * tests that caught it, and propose's force-full candidates of its file
 * (metrics/proposals.h: the file, dir/ **, ** /name, ** / *.ext,
 * dir/ ** / *.ext), each scored on run's changes: the changes whose paths
 * it matches and that the rules did not already run in full (cost), the
 * escapes it closes (benefit); the recommended globs are propose's
 * greedy cover of the escapes at least forced changes.
 */
void seed_candidates_compute(const struct seed_info *info, const struct replay_run *run,
			     struct seed_candidates *out);
void seed_candidates_release(struct seed_candidates *c);

/* ---- output.c ---- */

/* What is printed: the figures (from the store), the candidates and the sample. */
struct seed_report {
	const struct metrics_seeded *fig;       /* figures and mutants */
	const struct seed_candidates *cand;
	const struct seed_sample *sample;       /* NULL: not from this run */
	enum seed_stop stop;
};
void seed_print_text(const struct seed_report *r, FILE *f);
void seed_print_md(const struct seed_report *r, FILE *f);
void seed_print_json(const struct seed_report *r, FILE *f);
void seed_print_csv(const struct seed_report *r, FILE *f);
void seed_print_html(const struct seed_report *r, int64_t now, FILE *f);

#endif
