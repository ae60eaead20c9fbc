/*
 * The figures of a defect-seeding experiment (`tiadash seed`, seed 003's
 * table), computed once and drawn by `seed`, `report`, `gate-check` and
 * the dashboard. Definitions:
 *
 *   experiment   the window's latest (by start; --project NAME: of that
 *                repository), with every change and mutant it stored: a
 *                run stopped by its budget, a signal or a kill counts what
 *                finished
 *   valid        mutants that compiled and imported (not invalid)
 *   classes      subset (caught by the selected subset anyway), full
 *                (caught only by the full suite), none (caught by no
 *                test); each rate = its count / valid, with the exact
 *                Clopper-Pearson two-sided interval at the confidence
 *   seeded escape rate
 *                the full class's rate: the share of defects outside the
 *                impact set that the subset lets through and the full
 *                suite stops. gate-check's advisory criterion
 *                seeded_escape_rate compares it with --max-seeded-escape-rate
 *   timeouts     valid mutants whose catching run hit its timeout (caught)
 *
 * A rate of no valid mutant is NAN (n/a), never 0.
 */
#ifndef TIADASH_METRICS_SEEDED_H
#define TIADASH_METRICS_SEEDED_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/query.h"
#include "metrics/stats.h"

#define SEEDED_DEFAULT_MAX_ESCAPE_RATE 0.2

struct metrics_seeded {
	bool known;                 /* the window has an experiment */
	struct seed_info info;      /* it, as stored (owned) */
	double confidence;
	int64_t changes_mutated;    /* changes with at least one valid mutant */
	int64_t valid, invalid, timeouts;
	int64_t counts[NR_SEED_CLASSES];        /* by enum seed_verdict */
	struct stats_rate rates[NR_SEED_CLASSES];
};

/* The window's latest experiment and its figures. -1 after error(); out is always safe to release. */
int metrics_seeded_compute(struct store *s, const struct window *w, double confidence,
			   struct metrics_seeded *out);
/* The figures of one stored experiment (info is moved into out). */
void metrics_seeded_of(struct seed_info *info, double confidence, struct metrics_seeded *out);
void metrics_seeded_release(struct metrics_seeded *m);

/* "caught by the subset anyway", "caught only by the full suite", "caught by no test". */
const char *metrics_seeded_label(enum seed_verdict v);

/*
 * What every output of the figures shares (seed, report): the three class
 * lines of the table as text ("INDENT LABEL  COUNT  RATE  [LO, HI]"), one
 * line saying what was seeded, and the JSON object of the figures
 * ({"experiment", "confidence", "mutants", "invalid", "timeouts",
 * "changes_mutated", "classes": {"subset"|"full"|"none": {"count",
 * "rate", "interval"}}, "seeded_escape_rate"}).
 */
struct cJSON;
void metrics_seeded_rows(struct strbuf *sb, const struct metrics_seeded *m, const char *indent);
void metrics_seeded_summary(struct strbuf *sb, const struct metrics_seeded *m);
void metrics_seeded_json(struct cJSON *obj, const struct metrics_seeded *m);
/* The table as HTML, figures keyed PREFIX + "classes.subset.count" and so on (core/html.h). */
void metrics_seeded_html_table(struct strbuf *sb, const struct metrics_seeded *m,
			       const char *prefix);
/* "12.5% [3.1%, 35.2%]", or "n/a". */
void metrics_seeded_fmt_rate(struct strbuf *sb, const struct stats_rate *r);

#endif
