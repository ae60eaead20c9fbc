/*
 * What report, summary and gate-check share: their window options
 * (--since, --until, --repo NAME, --format; report's --threshold), loading the
 * figures through the store's config, and the formatting of figures that
 * may be undefined (n/a) in text and markdown.
 */
#ifndef TIADASH_METRICS_COMMON_H
#define TIADASH_METRICS_COMMON_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/json.h"
#include "core/options.h"
#include "core/output.h"
#include "metrics/metrics.h"


enum {
	MOPT_SINCE = 1000,
	MOPT_UNTIL,
	MOPT_REPO,
	MOPT_FORMAT,
	MOPT_THRESHOLD,
	MOPT_CONFIDENCE,
	MOPT_ESCAPE_TARGET,
	MOPT_PROJECT,
	MOPT_COLOR,
	MOPT_FIRST_PRIVATE, /* commands number their own options from here */
};

/* --confidence C: one of 0.90, 0.95, 0.99 (what the man page lists). */
bool metrics_parse_confidence(const char *s, double *out);

struct metrics_args {
	const struct cmd *cmd;  /* for usage errors */
	unsigned formats;       /* allowed --format values */
	struct window window;   /* repo points into argv */
	bool since_given, until_given;
	enum output_format format;
	double threshold;
	double confidence, escape_target;
	enum color_when color;  /* --color (OPT_METRICS_COLOR); default auto */
};
/*
 * The shared rows of a metrics command's option table (core/options.h),
 * each storing into the struct metrics_args *a (a file's static, set by
 * metrics_args_init() before parse_options()). --repo NAME, --project's
 * old spelling, is parsed but hidden (deprecated).
 */
#define METRICS_SINCE_HELP                                                   \
	"window start, inclusive: 1y, 7d, 24h, 90m, a date (00:00 UTC) or an " \
	"RFC 3339 time"
#define OPT_METRICS_SINCE(a, h) OPT_CALLBACK(0, "since", (a), "WHEN", (h), metrics_opt_since)
#define OPT_METRICS_UNTIL(a, h) OPT_CALLBACK(0, "until", (a), "WHEN", (h), metrics_opt_until)
#define OPT_METRICS_PROJECT(a)                                                \
	OPT_CALLBACK(0, "project", (a), "NAME", "only heads of this repository " \
		     "name (the manifests' \"repo\", e.g. acme/ledger)",            \
		     metrics_opt_project),                                          \
	{ .type = OPT_T_CALLBACK, .long_name = "repo", .value = (a), .argh = "NAME", \
	  .flags = OPTF_HIDDEN, .callback = metrics_opt_repo }
/* --since, --until and --project with the default help (window: all time). */
#define OPT_METRICS_WINDOW(a)                                                 \
	OPT_METRICS_SINCE(a, METRICS_SINCE_HELP),                            \
	OPT_METRICS_UNTIL(a, "window end, exclusive"),                       \
	OPT_METRICS_PROJECT(a)
#define OPT_METRICS_FORMAT(a, mask) OPT_FORMAT(&(a)->format, mask)
#define OPT_METRICS_THRESHOLD(a, h) \
	OPT_CALLBACK(0, "threshold", (a), "X", (h), metrics_opt_threshold)
#define OPT_METRICS_CONF(a, h) \
	OPT_CALLBACK(0, "confidence", (a), "C", (h), metrics_opt_confidence)
#define OPT_METRICS_ESCAPE_TARGET(a, h) \
	OPT_CALLBACK(0, "escape-target", (a), "X", (h), metrics_opt_escape_target)
/* --confidence C with help h, and --escape-target X. */
#define OPT_METRICS_CONFIDENCE(a, h)                                          \
	OPT_METRICS_CONF(a, h),                                                \
	OPT_METRICS_ESCAPE_TARGET(a, "the escape rate the upper bound must reach " \
				  "(default 0.05)")
#define OPT_METRICS_COLOR(a, h) \
	OPT_CALLBACK_OPTARG(0, "color", (a), "WHEN", (h), metrics_opt_color)
#define METRICS_COLOR_HELP \
	"in colour: always, never, or auto (default: on a terminal, unless NO_COLOR is set)"
int metrics_opt_since(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_until(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_project(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_repo(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_threshold(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_confidence(const struct opt *o, const char *arg, const struct opt_parse *p);
int metrics_opt_escape_target(const struct opt *o, const char *arg,
			      const struct opt_parse *p);
int metrics_opt_color(const struct opt *o, const char *arg, const struct opt_parse *p);

/* Defaults: unbounded window, every repo, text, threshold 0.7, 95%, target 0.05. */
void metrics_args_init(struct metrics_args *a, const struct cmd *cmd, unsigned formats);

/*
 * Handle a window option returned by getopt_long. Returns 0 when handled,
 * 1 when opt is not one of them, or EXIT_INPUT_ERROR after usage_error().
 */
int metrics_args_option(struct metrics_args *a, int opt, const char *arg, int64_t now);
/* After the loop: since must come before until. 0 or EXIT_INPUT_ERROR. */
int metrics_args_check(struct metrics_args *a);
/*
 * gate-check's and summary's default window: the METRICS_DEFAULT_DAYS days
 * up to --until (default: now), when --since is not given.
 */
#define METRICS_DEFAULT_DAYS 7
void metrics_args_default_window(struct metrics_args *a, int64_t now);

/*
 * Load the store's config (id-map) and compute the figures, for the
 * dashboard: the pass from both ends (metrics_opts.split); they are kept
 * in the store (metrics/figcache.h) when its write lock is free. -1 after
 * error().
 */
int metrics_load(struct cmd_context *ctx, const struct window *w, double threshold,
		 struct metrics *out);
/*
 * The figures metrics_load keeps (metrics/figcache.h), when they are fresh:
 * 0 and out filled without its per-head parts (rows, escapes' evidence),
 * 1 when none are, -1 after error(). out is always safe to release.
 */
int metrics_load_kept(struct cmd_context *ctx, const struct window *w, double threshold,
		      struct metrics *out);
/*
 * The same with the options of a command's arguments (threshold,
 * confidence, escape target) and its context's now and repository.
 */
int metrics_load_args(struct cmd_context *ctx, const struct metrics_args *a,
		      struct metrics *out);
/*
 * The same for a consumer of the figures alone (metrics_opts.lean): out's
 * rows are those of its escapes, pair notes and verifier heads only; by
 * (enum metrics_period + 1, 0: none): the periods metrics_by_period gives.
 */
int metrics_load_figures(struct cmd_context *ctx, const struct metrics_args *a, int by,
			 struct metrics *out);

/* Append the confidence as people read it: "95%". */
void metrics_fmt_confidence(struct strbuf *sb, double confidence);
/* Append "[lo, hi]" of a two-sided interval as percentages, or "n/a". */
void metrics_fmt_ci(struct strbuf *sb, const double ci[2], int prec);

/* Append v with printf format fmt, or "n/a" when v is NAN. */
void metrics_fmt(struct strbuf *sb, const char *fmt, double v);
/* Append v as a percentage with `prec` decimals ("12.5%"), or "n/a". */
void metrics_fmt_pct(struct strbuf *sb, double v, int prec);
/* Append seconds for people ("184 s", "9.5 s": tenths below 10 s), or "n/a". */
void metrics_fmt_secs(struct strbuf *sb, double s);
/* Append a window bound (RFC 3339) or "-" when unbounded. */
void metrics_fmt_bound(struct strbuf *sb, int64_t ms);
/* Append "SINCE .. UNTIL, REPO|all repos" with the repo sanitized. */
void metrics_fmt_window(struct strbuf *sb, const struct metrics *m, bool markdown);
/* Append "PR #N" or "push" for a row, and its short head. */
void metrics_fmt_change(struct strbuf *sb, const struct metrics_row *r);

/* Append a gate-check threshold or value v of criterion c ("n/a" for NaN). */
void metrics_fmt_criterion(struct strbuf *sb, const struct metrics_criterion *c, double v);

/* Append ",V" (V to 17 digits, nothing when NAN): a CSV field of a figure. */
void metrics_csv_number(struct strbuf *sb, double v);

/*
 * Append the flip's trade in one sentence a meeting reads: "the cheap gate
 * saves about N runner-hours a week and lets through about E regressions
 * a week (at most U at 95%)" (n/a where a figure is).
 */
void metrics_fmt_trade(struct strbuf *sb, const struct metrics *m);

/* The "window" object of a command's JSON, {since, until, repo}, added to root here. */
void metrics_json_window(cJSON *root, const struct metrics *m);

/* Write sb to stdout and release it. */
void metrics_flush(struct strbuf *sb);

/* Text or markdown being built, with untrusted strings escaped for it. */
struct metrics_out {
	struct strbuf sb;
	bool md;
};
/* Append s: markdown-escaped (md) or sanitized (text). */
void metrics_put_text(struct metrics_out *o, const char *s);

/*
 * A pair class's colour on a terminal: an escape bold red, a disagreement
 * that is not the selector's yellow, agree green; NULL: none.
 */
const char *metrics_class_color(enum pair_class c);
/* Append a pair class's name, in its colour when color (a terminal's text). */
void metrics_put_class(struct metrics_out *o, enum pair_class c, bool color);

#endif
