/*
 * The calibration figures of SPEC 4 over a window, computed once and drawn
 * by every consumer: `report`, `summary`, `gate-check` and the dashboard.
 * Consumers never compute figures themselves; they read struct metrics.
 *
 * Definitions (where SPEC 4 leaves a choice, the choice is written here):
 *
 *   heads        every head whose window time (first shadow run, else first
 *                full run) lies in [since, until) and, with a repo filter,
 *                whose manifest repo name is that name
 *   pairs        heads with at least one shadow and one full run (the same
 *                definition as `status`); the denominator of the escape rate
 *   shadow_runs, full_runs
 *                every attempt of the heads in the window
 *   per-run figures (affected fraction, wall-clock, force-full, diff
 *                coverage) take each head's latest attempt of that kind;
 *                a run without the figure (no wall-clock, no total tests,
 *                no changed executable lines) is left out of it
 *   affected     run_all counts 1.0, nothing 0.0; "narrowed" are the runs
 *                whose decision is `selected`
 *   saving       1 - shadow / full at p50 and at p95 of the wall-clock
 *   force-full   runs with decision run_all / heads with a shadow run.
 *                by_reason counts a run once for each distinct reason it
 *                gives ("(no reason)" when it gives none). The minutes a
 *                reason cost are the sum over its run_all runs of
 *                max(0, wall-clock - narrowed p50) / 60, where narrowed p50
 *                is the window's median wall-clock of shadow runs whose
 *                decision is `selected`: the gate time the force-full cost
 *                beyond a typical narrowed run. n/a when there is no
 *                narrowed run. Reasons are ranked by minutes, then runs.
 *   escapes      pairs of class escape or non-hermetic (metrics/classify.h);
 *                an escape with a note (the store's `note` table) is
 *                explained; rate = escapes / pairs
 *   quarantined  pairs whose full run failed on quarantined tests, and the
 *                number of those tests
 *   diff coverage per shadow run; below_threshold counts runs strictly
 *                below the threshold
 *   identity     the failing tests (failed or errored, quarantined ones
 *                too) of the latest full run of every pair that is not
 *                incomplete, each once per pair; resolved: its suite key
 *                resolved to a path or is a suite name (core/identity.h);
 *                the entries of every head's latest shadow run whose
 *                decision is `selected`; those that select no test are
 *                read with the id-map in force (selection_unmatched_now,
 *                core/answer.h), not the one ingest matched them with
 *   shadow days  distinct UTC days (of the window) on which a head's first
 *                shadow run started
 *   seeded       the window's defect-seeding experiment (metrics/seeded.h)
 *   days         one entry per UTC day from the window's first day to its
 *                last (an unbounded side ends at the first / last head; a
 *                window longer than METRICS_MAX_DAYS is cut to the days
 *                from the first head to the last); a head counts on the
 *                day of its window time
 *   bounds       exact Clopper-Pearson bounds (metrics/stats.h) at the
 *                confidence: the escape rate (escapes, explained ones
 *                included, / pairs), the over-strict rate (over-strict
 *                pairs / pairs), the force-full rate, and each day's
 *                escape rate; pairs_needed = the clean pairs that bring the
 *                escape rate's one-sided upper bound to the target;
 *                days_needed = pairs_needed / (pairs / days), the days
 *                being the window's length with an unbounded until
 *                counted as now and an unbounded since as the first
 *                head's time (one pace for every view); window_days (the
 *                savings' per day) is the window's length when both bounds
 *                are given, else its UTC days (nr_days)
 *   trend        the window against the one of the same length just
 *                before it (an unbounded until counts as `now`; n/a without
 *                a since): the exact conditional test of the two escape
 *                rates; rising or falling only at p < 0.05
 *   blind spots  metrics/blind.h; the verifier check: metrics/verifier.h
 *
 * Percentiles interpolate linearly between the closest ranks (numpy's
 * default). A figure that cannot be computed is NAN, never 0.
 *
 * Ownership: metrics_compute fills a struct metrics that owns everything it
 * points to; metrics_release frees it. Strings in rows and escapes are owned
 * by the struct and live until metrics_release.
 */
#ifndef TIADASH_METRICS_METRICS_H
#define TIADASH_METRICS_METRICS_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/idmatch.h"
#include "core/query.h"
#include "core/strmap.h"
#include "metrics/classify.h"
#include "metrics/quantile.h"
#include "metrics/stats.h"
#include "metrics/seeded.h"

#define METRICS_DEFAULT_THRESHOLD 0.7
#define METRICS_DEFAULT_CONFIDENCE 0.95
#define METRICS_DEFAULT_ESCAPE_TARGET 0.05
#define METRICS_MAX_DAYS 3660

struct repo_later;

struct metrics_opts {
	const struct idmap *idmap; /* applied to selections (NULL: none) */
	double threshold;          /* diff-coverage threshold */
	double confidence;         /* of the bounds: 0.90, 0.95 or 0.99 */
	double escape_target;      /* the escape rate the bound must reach */
	int64_t now;               /* the trend's end when until is unbounded (0: none) */
	struct repo_later *repo;   /* the verifier check's diffs (NULL: stored diffs) */
	bool split;                /* the pass from both ends, the figures on two threads:
				      sooner, for a second connection and its cache */
	bool lean;                 /* figures only (ignored with split): rows keeps only
				      the heads escapes, pair notes and the verifier check
				      point to, not one a head (metrics.rows_sparse) */
	int by;                    /* a lean pass's periods too (metrics_by_period):
				      enum metrics_period + 1, 0: none */
};
#define METRICS_OPTS_INIT { .idmap = NULL, .threshold = METRICS_DEFAULT_THRESHOLD, \
	.confidence = METRICS_DEFAULT_CONFIDENCE,                              \
	.escape_target = METRICS_DEFAULT_ESCAPE_TARGET, .now = 0, .repo = NULL, .split = false, \
	.lean = false, .by = 0 }

/* One head of the window, compactly: a row of the runs and disagreements views. */
struct metrics_row { /* wide members first: 10^5 rows, no padding between */
	int64_t head_id;
	int64_t pr;
	const char *repo;       /* owned by the struct metrics */
	int64_t at;             /* window time (ms) */
	const char *why;        /* incomplete: the reason (owned by the metrics), else NULL */
	double affected;        /* latest shadow attempt; NAN when undefined */
	double shadow_wall_s, full_wall_s; /* latest attempts; NAN when unknown */
	double diff_coverage;   /* latest shadow attempt; NAN when n/a */
	size_t missed;          /* missed tests of an escape (0 for other classes) */
	size_t missed_blind;    /* of which blind spots (no narrowed selection named them) */
	enum pair_class cls;
	int shadow_attempts, full_attempts;
	enum decision decision; /* latest shadow attempt's (DECISION_NONE: none) */
	char sha[41];
	bool has_pr;
	bool explained;         /* an escape with a note */
	bool verifier_changed;  /* went green after a change to its verifier only */
	bool base_unrun;        /* an escape that no run of main covers */
};

/*
 * A lean pass's pairs whose latest shadow and full attempts both have a
 * wall-clock, in window order, as the merge queue (metrics/queue.h) reads
 * them, 20 bytes each: the wall-clock times, and the milliseconds since
 * the pair before (the first: since 0) under two bits, force-full (its
 * decision run_all) and narrowed (selected); a gap of METRICS_GAP_FAR or
 * more is METRICS_GAP_FAR, its window time the next one of far.
 */
#define METRICS_GAP_FORCE_FULL (UINT32_C(1) << 31)
#define METRICS_GAP_NARROWED (UINT32_C(1) << 30)
#define METRICS_GAP_FAR (METRICS_GAP_NARROWED - 1)
struct metrics_gates {
	double *shadow_s, *full_s;
	uint32_t *gap;
	size_t nr, alloc;
	int64_t *far;
	size_t nr_far, alloc_far;
};

/* One escape (class escape or non-hermetic), with its evidence. */
struct metrics_escape {
	size_t row;                  /* index into metrics.rows */
	struct strlist missed;       /* failing tests the selection did not name */
	struct strlist non_hermetic; /* failing tests that were selected */
	struct strlist not_run;      /* selected, not in the shadow run's results */
	bool *missed_blind;          /* per missed test: a blind spot of the window */
	bool explained;
	char *note;                  /* the latest note's text, or NULL */
	/* Each changed path with its rule (adapters/ruleset.h), one a line; NULL: not looked up. */
	char *rules;
};

/* A pair main's record speaks of: its inherited failures, or its latent misses. */
struct metrics_pair_note {
	size_t row;               /* index into metrics.rows */
	struct strlist inherited; /* real failing tests main was red on too */
	struct strlist latent;    /* both runs failed: real failing tests not selected */
	char main_sha[41];        /* the run of main that covers it ("" without inherited) */
};

/*
 * A red span (metrics/mainrec.c): from the first run of main in which a
 * test failed to the first one after it in which it did not, in main's
 * first-parent order; the pairs that inherited it; and the escape that
 * most likely brought it: the latest escape of the window before the span
 * whose missed tests include it.
 */
struct metrics_red_span {
	char *repo, *test;
	char red_sha[41], green_sha[41]; /* green_sha "" while still red */
	int64_t red_at, green_at;  /* the two runs' started_at (ms); green_at 0 while red */
	int64_t red_seq, green_seq; /* places on main's line; green_seq INT64_MAX while red */
	double minutes;            /* red on main: green_at - red_at; NAN while still red */
	int64_t runs;              /* runs of main it was red in */
	struct int_vec prs;        /* PRs whose pairs inherited it, sorted, unique */
	int64_t inherited_pairs;
	long escape;               /* index into escape_list, -1: none found */
};

struct metrics_reason {
	char *reason;
	int64_t runs;
	double minutes; /* NAN when there is no narrowed run to compare with */
	double given_back; /* the same over the runs of pairs in the savings */
};

/*
 * What the cheap gate saved over the pairs whose latest shadow and full
 * attempts both have a wall-clock: the full gate's minutes (the full runs'
 * wall-clock), the cheap gate's (the shadow runs', force-full ones
 * included), their difference, that per window day and per week (NAN when
 * the window's days are unknown); given back: what those pairs'
 * force-full runs cost beyond the narrowed p50 (the reasons' minutes), and
 * its share of what narrowing them too would have saved,
 * given_back / (saved + given_back).
 */
struct metrics_savings {
	int64_t pairs;
	double full_minutes, shadow_minutes, saved_minutes;
	double saved_minutes_per_day, saved_minutes_per_week;
	double given_back_minutes, given_back_share;
	/*
	 * Escapes a week: the window's pairs a week (pairs / window days x 7)
	 * times the escape rate, and times its bounds at the confidence.
	 */
	double escapes_per_week, escapes_per_week_upper, escapes_per_week_ci[2];
};

struct metrics_day {
	int64_t day;            /* 00:00 UTC of the day (of a period: its first day), ms */
	int64_t end;            /* the day's (period's) end, exclusive, ms */
	bool partial;           /* the window starts or ends inside it */
	int64_t heads, pairs, escapes;
	int64_t shadow_runs;    /* heads with a shadow run */
	int64_t force_full;
	double force_full_rate; /* NAN without shadow runs */
	double escape_rate;     /* escapes / pairs; NAN without pairs */
	double affected_p50, shadow_wall_p95, diff_coverage_mean;
	struct stats_rate escape; /* escapes / pairs with its two-sided band */
};

enum trend_direction { TREND_NONE, TREND_FLAT, TREND_RISING, TREND_FALLING };
const char *trend_direction_name(enum trend_direction d); /* NULL for NONE */

struct metrics_trend {
	bool known;             /* the window has a since: a previous window exists */
	int64_t since, until;   /* the previous window */
	int64_t pairs, escapes; /* its pairs and escapes */
	double previous_rate, rate, p_value; /* NAN when undefined */
	enum trend_direction direction;      /* NONE when p_value is NAN */
};

/*
 * Blind spots (metrics/blind.h): the tests that ran in the window's full
 * runs that no narrowed selection of the window named.
 */
struct metrics_blind {
	bool known;               /* a full run of the window has a stored test list */
	int64_t full_runs;        /* full runs of the window (every attempt) */
	int64_t listed_runs;      /* of which with a stored test list */
	int64_t narrowed_runs;    /* shadow runs (every attempt) with decision selected */
	int64_t tests;            /* distinct tests those full runs ran */
	struct strlist never;     /* sorted ids no narrowed selection named */
	struct strlist failed;    /* sorted: the blind spots that failed in a full run */
	bool new_known;           /* tests can be told new (a baseline precedes them) */
	struct strlist new_tests; /* sorted ids first seen in the window */
	bool *new_selected;       /* per new test: a narrowed selection named it */
	int64_t new_selected_count;
};

/* One attempt of a head, as the verifier check names it. */
struct metrics_attempt {
	char sha[41];
	int attempt;
};

/* A verifier-changed head (metrics/verifier.h). */
struct metrics_verifier {
	size_t row;                     /* the head that went green (index into rows) */
	char *test;                     /* SUITE::CASE */
	char *digest;                   /* of its identical failures */
	struct metrics_attempt *failed; /* the attempts that failed identically */
	size_t nr_failed;
	struct metrics_attempt passed;  /* the green attempt */
	struct strlist changed;         /* what changed before it: tests, fixtures, config */
	bool from_git;                  /* the change read from git (else stored diffs) */
};
void metrics_verifier_release(struct metrics_verifier *v);

struct metrics {
	int64_t since, until;   /* the window (INT64_MIN / INT64_MAX: unbounded) */
	char *repo;             /* the repo filter, "" for all */
	double threshold;

	int64_t heads, pairs, shadow_runs, full_runs;
	int64_t class_counts[NR_CLASSES];
	int64_t shadow_heads, full_heads;

	struct metrics_dist affected, narrowed;
	struct metrics_dist wall_shadow, wall_full;
	double saving_p50, saving_p95;

	struct metrics_savings savings;

	int64_t force_full;
	double force_full_rate;
	double narrowed_wall_p50; /* the force-full minutes' baseline */
	struct metrics_reason *reasons; /* ranked */
	size_t nr_reasons;

	int64_t escapes, escapes_explained, non_hermetic;
	double escape_rate;
	int64_t *escape_prs;    /* sorted, unique */
	size_t nr_escape_prs;
	struct metrics_escape *escape_list; /* in window order */
	size_t nr_escape_list;

	/*
	 * Main's record (SPEC 4, inherited): runs of main among the window's
	 * heads (rows of class main, not pairs), escapes no run of main
	 * covers, the tests the inherited pairs found red on main (sorted,
	 * distinct), red spans that overlap the window, and the pairs with
	 * inherited failures or latent misses (in window order).
	 */
	int64_t main_runs, escapes_base_unrun;
	struct strlist red_on_main;
	struct metrics_red_span *red_spans;
	size_t nr_red_spans;
	double red_minutes_mean; /* of the closed spans; NAN: none */
	struct metrics_pair_note *pair_notes;
	size_t nr_pair_notes;
	int64_t latent_pairs, latent_tests;

	struct metrics_why {
		const char *why; /* owned by the metrics */
		int64_t heads;
	} *incomplete;          /* incomplete heads by reason, most first */
	size_t nr_incomplete;

	int64_t quarantined_pairs, quarantined_tests;
	int64_t flaky_tests;    /* tests that passed on a rerun */

	struct metrics_dist diff_coverage;
	int64_t below_threshold;

	double confidence, escape_target;
	struct stats_rate escape_bounds, over_strict_bounds, force_full_bounds;
	int64_t pairs_needed;   /* -1: n/a */
	double window_days;     /* NAN when unknown */
	double days_needed;     /* NAN when unknown */
	int64_t first_head_at;  /* the window's first head's time (ms); INT64_MIN: none */
	struct metrics_trend trend;
	struct metrics_blind blind;
	struct metrics_verifier *verifier; /* in window order of their rows */
	size_t nr_verifier;
	int64_t verifier_heads; /* distinct heads flagged */
	struct metrics_seeded seeded; /* the window's latest seeding experiment */

	/*
	 * Test identity (SPEC 3.3): the failing tests of the window's
	 * classified pairs' full runs, and the entries of their latest narrowed
	 * shadow runs; identity_share is resolved / failing_tests (NAN: none).
	 */
	struct identity_figures identity;
	double identity_share;

	int64_t shadow_days;
	struct metrics_day *days;
	size_t nr_days;

	/*
	 * Every head, in window order; with rows_sparse (metrics_opts.lean)
	 * only those escape_list, pair_notes and verifier point to, in window
	 * order too: a report over 10^6 heads has no room for 152 MB of rows.
	 */
	struct metrics_row *rows;
	size_t nr_rows, alloc_rows;
	bool rows_sparse;
	struct metrics_gates gates; /* with rows_sparse: the merge queue's pairs */
	/* With rows_sparse: the periods of metrics_opts.by, made in the pass. */
	struct metrics_day *periods_;
	size_t nr_periods_;
	int periods_by_;

	/* Private: interned strings the rows point to. */
	struct strlist pool_;
	struct strmap pool_index_;
	const char *pool_last_; /* what pool_str returned last */
	struct metrics_lean *lean_; /* a lean pass's sums, while metrics_compute runs */
};

/*
 * Compute every figure for heads in window w (w->repo "" or NULL: every
 * repo). Reads the store through core/query.h and the pairs' kept facts
 * (core/paircache.h, metrics/facts.h). It makes and keeps the facts of the
 * heads of w that have none, when the write lock is free now; when it is
 * not, it classifies every pair. Returns 0, or -1 after error(); out is
 * always safe to release.
 */
int metrics_compute(struct store *s, const struct window *w,
		    const struct metrics_opts *opts, struct metrics *out);
void metrics_release(struct metrics *m);
/*
 * m's days_needed again at now (the pace's days, an unbounded until
 * counted as now), first_at being its first head's window time
 * (INT64_MIN: none): for figures kept, whose pace moves with now.
 */
void metrics_days_needed(struct metrics *m, int64_t first_at, int64_t now);

/*
 * `report --by`: the days' figures (struct metrics_day) per period of m's
 * window: UTC days, ISO weeks (from Monday 00:00 UTC) or calendar months,
 * from the period of the window's start to that of its end (an unbounded
 * side: the first / last head's), empty ones included, at most
 * METRICS_MAX_DAYS of them (else none). Into *out (the caller frees it);
 * returns their count.
 */
enum metrics_period { PERIOD_DAY, PERIOD_WEEK, PERIOD_MONTH };
bool metrics_period_parse(const char *s, enum metrics_period *out);
const char *metrics_period_name(enum metrics_period p);
size_t metrics_by_period(const struct metrics *m, enum metrics_period by,
			 struct metrics_day **out);

/* 1 - shadow / full, or NAN when either is undefined or full is 0. */
double metrics_saving(double shadow, double full);

/*
 * gate-check (SPEC 8). Each criterion compares a measured value with its
 * threshold; a value that cannot be computed (NAN) fails, unless the
 * criterion is advisory, or is identity_resolved (a window without failing
 * tests has no join to doubt). The verdict is GO when every non-advisory
 * criterion passes. escape_rate_upper compares the escape rate's one-sided
 * upper bound with the metrics' escape target; verifier_changed (advisory)
 * counts the heads flagged by the verifier check. seeded_escape_rate
 * (advisory) is judged only when the window has a seeding experiment: its
 * caught-only-by-the-full-suite rate.
 */
struct metrics_criteria {
	int64_t min_days;         /* distinct UTC days with a shadow run */
	int64_t min_pairs;
	int64_t max_escapes;      /* unexplained escapes */
	double max_affected_p50;
	bool p95_saving;          /* judge the p95 wall-clock saving at all */
	double min_p95_saving;    /* saving must exceed this (0: shadow p95 below full p95) */
	double min_diff_coverage; /* diff-coverage p50 */
	bool strict;              /* diff coverage is not advisory */
	double min_identity;      /* share of failing tests resolved (n/a passes) */
	double max_seeded_escape_rate; /* advisory, when the window has a seeding experiment */
};
#define METRICS_CRITERIA_INIT { 7, 50, 0, 0.6, true, 0, METRICS_DEFAULT_THRESHOLD, false, 0.99, \
				SEEDED_DEFAULT_MAX_ESCAPE_RATE }

enum metrics_op { OP_GE, OP_LE, OP_GT };

struct metrics_criterion {
	const char *name;  /* stable key: shadow_days, pairs, ... */
	const char *label; /* for people */
	enum metrics_op op;
	double threshold;
	double value;      /* NAN: n/a */
	bool integer;      /* threshold and value are counts */
	int decimals;      /* of a value that is not a count */
	bool pass, advisory;
};

#define METRICS_MAX_CRITERIA 10
struct metrics_gate {
	struct metrics_criterion criteria[METRICS_MAX_CRITERIA];
	size_t nr;
	bool go;
};

void metrics_gate_check(const struct metrics *m, const struct metrics_criteria *c,
			struct metrics_gate *out);
/* ">=", "<=", ">". */
const char *metrics_op_name(enum metrics_op op);

#endif
