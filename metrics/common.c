/* Window options, loading and n/a-aware formatting shared by the metrics commands. */
#include "core/tiadash.h"
#include "core/config.h"
#include "core/paircache.h"
#include "core/rekey.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/figcache.h"

#include <unistd.h>

void metrics_args_init(struct metrics_args *a, const struct cmd *cmd, unsigned formats)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->formats = formats;
	a->window = (struct window)WINDOW_ALL;
	a->format = FORMAT_TEXT;
	a->threshold = METRICS_DEFAULT_THRESHOLD;
	a->confidence = METRICS_DEFAULT_CONFIDENCE;
	a->escape_target = METRICS_DEFAULT_ESCAPE_TARGET;
}

/* The confidences the bounds are offered at (conventional, and what the man page lists). */
bool metrics_parse_confidence(const char *s, double *out)
{
	static const double allowed[] = { 0.90, 0.95, 0.99 };
	double v;

	if (!parse_double(s, &v))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(allowed); i++) {
		if (fabs(v - allowed[i]) < 1e-9) {
			*out = allowed[i];
			return true;
		}
	}
	return false;
}

/* parse_window_bound has said what is wrong; add the usage line. */
static int bad_bound(const struct metrics_args *a)
{
	print_command_usage(stderr, a->cmd);
	return EXIT_INPUT_ERROR;
}

int metrics_args_option(struct metrics_args *a, int opt, const char *arg, int64_t now)
{
	switch (opt) {
	case MOPT_SINCE:
		if (!parse_window_bound("--since", arg, now, &a->window.since))
			return bad_bound(a);
		a->since_given = true;
		return 0;
	case MOPT_UNTIL:
		if (!parse_window_bound("--until", arg, now, &a->window.until))
			return bad_bound(a);
		a->until_given = true;
		return 0;
	case MOPT_REPO:
		warning("%s --repo NAME is deprecated: use --project NAME (--repo will "
			"mean the repository path, as before the command)", a->cmd->name);
		a->window.repo = arg;
		return 0;
	case MOPT_PROJECT:
		a->window.repo = arg;
		return 0;
	case 'o': /* core/dispatch.c writes the output to the file */
		return 0;
	case MOPT_COLOR:
		if (!color_parse(arg, &a->color))
			return usage_error(a->cmd, "--color is always, auto or never, not '%s'",
					   arg);
		return 0;
	case MOPT_FORMAT:
		if (!parse_format(arg, a->formats, &a->format))
			return usage_error(a->cmd, "unknown format '%s'", arg);
		return 0;
	case MOPT_THRESHOLD:
		if (!parse_double(arg, &a->threshold) || !(a->threshold >= 0) ||
		    a->threshold > 1)
			return usage_error(a->cmd, "--threshold '%s': expected a "
					   "number from 0 to 1", arg);
		return 0;
	case MOPT_CONFIDENCE:
		if (!metrics_parse_confidence(arg, &a->confidence))
			return usage_error(a->cmd, "--confidence '%s': expected 0.90, "
					   "0.95 or 0.99", arg);
		return 0;
	case MOPT_ESCAPE_TARGET:
		if (!parse_double(arg, &a->escape_target) || !(a->escape_target > 0) ||
		    a->escape_target >= 1)
			return usage_error(a->cmd, "--escape-target '%s': expected a "
					   "number above 0 and below 1", arg);
		return 0;
	}
	return 1;
}

/* The option-table rows of metrics/common.h: the same as metrics_args_option(). */
static int opt_row(const struct opt *o, const char *arg, const struct opt_parse *p, int opt)
{
	return metrics_args_option(o->value, opt, arg, p->now);
}

int metrics_opt_since(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_SINCE);
}

int metrics_opt_until(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_UNTIL);
}

int metrics_opt_project(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_PROJECT);
}

int metrics_opt_repo(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_REPO);
}

int metrics_opt_threshold(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_THRESHOLD);
}

int metrics_opt_confidence(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_CONFIDENCE);
}

int metrics_opt_escape_target(const struct opt *o, const char *arg,
			      const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_ESCAPE_TARGET);
}

int metrics_opt_color(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	return opt_row(o, arg, p, MOPT_COLOR);
}

void metrics_args_default_window(struct metrics_args *a, int64_t now)
{
	if (!a->until_given)
		a->window.until = now;
	if (!a->since_given)
		a->window.since = a->window.until - METRICS_DEFAULT_DAYS * MS_PER_DAY;
}

int metrics_args_check(struct metrics_args *a)
{
	if (a->window.since >= a->window.until)
		return usage_error(a->cmd, "the window is empty: --since must be "
				   "before --until");
	return 0;
}

static int load(struct cmd_context *ctx, const struct window *w,
		struct metrics_opts *opts, struct metrics *out)
{
	struct config cfg = CONFIG_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (rekey_config_load(&cfg, ctx) < 0) {
		config_release(&cfg);
		return -1;
	}
	opts->idmap = cfg.idmap;
	opts->now = ctx->now;
	opts->repo = ctx->repo_later;
	ret = metrics_compute(ctx->store, w, opts, out);
	config_release(&cfg);
	return ret;
}

/* What names the verifier check's repository in the figures' key: --repo, else the cwd. */
static void repo_key(const struct cmd_context *ctx, struct strbuf *out)
{
	char *cwd;

	if (ctx->repo_path) {
		strbuf_addstr(out, ctx->repo_path);
		return;
	}
	cwd = getcwd(NULL, 0);
	strbuf_addf(out, "cwd %s", cwd ? cwd : "?");
	free(cwd);
}

/*
 * The dashboard's options and the figures' key (metrics/figcache.h) under
 * them; opts->idmap borrows cfg's.
 */
static int load_key(struct cmd_context *ctx, const struct window *w, double threshold,
		    struct config *cfg, struct metrics_opts *opts, struct strbuf *key)
{
	struct strbuf rk = STRBUF_INIT;

	opts->threshold = threshold;
	opts->split = true;
	if (rekey_config_load(cfg, ctx) < 0)
		return -1;
	opts->idmap = cfg->idmap;
	opts->now = ctx->now;
	opts->repo = ctx->repo_later;
	repo_key(ctx, &rk);
	figcache_key(w, opts, rk.buf, key);
	strbuf_release(&rk);
	return 0;
}

int metrics_load(struct cmd_context *ctx, const struct window *w, double threshold,
		 struct metrics *out)
{
	struct metrics_opts opts = METRICS_OPTS_INIT;
	struct config cfg = CONFIG_INIT;
	struct strbuf key = STRBUF_INIT;
	int64_t generation;
	int ret;

	memset(out, 0, sizeof(*out));
	/* The generation before computing: a write meanwhile makes the figures stale. */
	ret = load_key(ctx, w, threshold, &cfg, &opts, &key);
	/* Its rebuild after a plain SQL edit bumps the generation: before reading it. */
	if (!ret)
		(void)pair_cache_refresh(ctx->store);
	if (!ret)
		ret = store_generation(ctx->store, &generation);
	if (!ret)
		ret = metrics_compute(ctx->store, w, &opts, out);
	/* Kept only when the write lock is free now: never waited for, never an error. */
	if (!ret)
		(void)figcache_put(ctx->store, key.buf, generation, out);
	strbuf_release(&key);
	config_release(&cfg);
	return ret;
}

int metrics_load_kept(struct cmd_context *ctx, const struct window *w, double threshold,
		      struct metrics *out)
{
	struct metrics_opts opts = METRICS_OPTS_INIT;
	struct config cfg = CONFIG_INIT;
	struct strbuf key = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = load_key(ctx, w, threshold, &cfg, &opts, &key);
	if (!ret)
		ret = figcache_get(ctx->store, key.buf, ctx->now, out);
	strbuf_release(&key);
	config_release(&cfg);
	return ret;
}

static int load_args(struct cmd_context *ctx, const struct metrics_args *a, bool lean,
		     int by, struct metrics *out)
{
	struct metrics_opts opts = METRICS_OPTS_INIT;

	opts.threshold = a->threshold;
	opts.confidence = a->confidence;
	opts.escape_target = a->escape_target;
	opts.lean = lean;
	opts.by = by;
	return load(ctx, &a->window, &opts, out);
}

int metrics_load_args(struct cmd_context *ctx, const struct metrics_args *a,
		      struct metrics *out)
{
	return load_args(ctx, a, false, 0, out);
}

int metrics_load_figures(struct cmd_context *ctx, const struct metrics_args *a, int by,
			 struct metrics *out)
{
	return load_args(ctx, a, true, by, out);
}

void metrics_fmt_confidence(struct strbuf *sb, double confidence)
{
	strbuf_addf(sb, "%.0f%%", confidence * 100);
}

void metrics_fmt_ci(struct strbuf *sb, const double ci[2], int prec)
{
	if (isnan(ci[0]) || isnan(ci[1])) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addch(sb, '[');
	metrics_fmt_pct(sb, ci[0], prec);
	strbuf_addstr(sb, ", ");
	metrics_fmt_pct(sb, ci[1], prec);
	strbuf_addch(sb, ']');
}

void metrics_fmt(struct strbuf *sb, const char *fmt, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, fmt, v);
}

void metrics_fmt_pct(struct strbuf *sb, double v, int prec)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%.*f%%", prec, v * 100.0);
}

void metrics_fmt_secs(struct strbuf *sb, double s)
{
	if (isnan(s))
		strbuf_addstr(sb, "n/a");
	else if (s < 10)
		strbuf_addf(sb, "%.1f s", s);
	else
		strbuf_addf(sb, "%.0f s", s);
}

void metrics_fmt_bound(struct strbuf *sb, int64_t ms)
{
	if (ms == INT64_MIN || ms == INT64_MAX)
		strbuf_addch(sb, '-');
	else
		time_format(sb, ms);
}

void metrics_fmt_window(struct strbuf *sb, const struct metrics *m, bool markdown)
{
	if (m->since == INT64_MIN && m->until == INT64_MAX) {
		strbuf_addstr(sb, "all time");
	} else {
		metrics_fmt_bound(sb, m->since);
		strbuf_addstr(sb, " .. ");
		metrics_fmt_bound(sb, m->until);
	}
	strbuf_addstr(sb, ", ");
	if (!*m->repo)
		strbuf_addstr(sb, "all repos");
	else if (markdown)
		md_escape(sb, m->repo);
	else
		sanitize_text(sb, m->repo, strlen(m->repo));
}

void metrics_fmt_change(struct strbuf *sb, const struct metrics_row *r)
{
	if (r->has_pr)
		strbuf_addf(sb, "PR #%" PRId64, r->pr);
	else
		strbuf_addstr(sb, "push");
	strbuf_addf(sb, " %.12s", r->sha);
}

void metrics_csv_number(struct strbuf *sb, double v)
{
	strbuf_addch(sb, ',');
	if (!isnan(v))
		strbuf_addf(sb, "%.17g", v);
}

void metrics_flush(struct strbuf *sb)
{
	fwrite(sb->buf, 1, sb->len, stdout);
	strbuf_release(sb);
}

void metrics_put_text(struct metrics_out *o, const char *s)
{
	if (o->md)
		md_escape(&o->sb, s);
	else
		sanitize_text(&o->sb, s, strlen(s));
}

void metrics_fmt_criterion(struct strbuf *sb, const struct metrics_criterion *c, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else if (c->integer)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.*f", c->decimals, v);
}

void metrics_fmt_trade(struct strbuf *sb, const struct metrics *m)
{
	const struct metrics_savings *sv = &m->savings;

	if (!m->pairs) {
		strbuf_addstr(sb, "the trade of the flip is n/a (no pair in the window)");
		return;
	}
	strbuf_addstr(sb, "the cheap gate saves about ");
	metrics_fmt(sb, "%.1f", sv->saved_minutes_per_week / 60);
	strbuf_addstr(sb, " runner-hours a week and lets through about ");
	metrics_fmt(sb, "%.1f", sv->escapes_per_week);
	strbuf_addstr(sb, " regressions a week (at most ");
	metrics_fmt(sb, "%.1f", sv->escapes_per_week_upper);
	strbuf_addstr(sb, " at ");
	metrics_fmt_confidence(sb, m->confidence);
	strbuf_addch(sb, ')');
	if (!isnan(m->red_minutes_mean)) {
		strbuf_addstr(sb, ", each red on main for about ");
		metrics_fmt(sb, "%.0f", m->red_minutes_mean);
		strbuf_addstr(sb, " minutes");
	}
}

void metrics_json_window(cJSON *root, const struct metrics *m)
{
	cJSON *w = cJSON_AddObjectToObject(root, "window");

	json_add_time(w, "since", m->since);
	json_add_time(w, "until", m->until);
	json_add_string_or_null(w, "repo", *m->repo ? m->repo : NULL);
}

const char *metrics_class_color(enum pair_class c)
{
	switch (c) {
	case CLASS_AGREE: return COLOR_GREEN;
	case CLASS_ESCAPE: return COLOR_BOLD_RED;
	case CLASS_NON_HERMETIC:
	case CLASS_FLAKY:
	case CLASS_OVER_STRICT:
	case CLASS_INHERITED:
	case CLASS_UNRESOLVED: return COLOR_YELLOW;
	case CLASS_INCOMPLETE:
	case CLASS_MAIN: break;
	}
	return NULL;
}

void metrics_put_class(struct metrics_out *o, enum pair_class c, bool color)
{
	const char *sgr = color ? metrics_class_color(c) : NULL;

	strbuf_addf(&o->sb, "%s%s%s", sgr ? sgr : "", pair_class_name(c), sgr ? COLOR_RESET : "");
}
