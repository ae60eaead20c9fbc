/*
 * `tiadash summary`: the escape rate and its trend, the escapes and the
 * costliest force-full reasons, for a cron job, a channel or an e-mail.
 */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/html.h"
#include "metrics/post.h"
#include "metrics/trust.h"

/* How many escapes, tests per escape and reasons a summary lists. */
#define SUMMARY_ESCAPES 20
#define SUMMARY_TESTS 10
#define SUMMARY_REASONS 5

static void bold(struct metrics_out *o, const char *s)
{
	strbuf_addstr(&o->sb, o->md ? "**" : "");
	strbuf_addstr(&o->sb, s);
	strbuf_addstr(&o->sb, o->md ? "**" : "");
}

/* "7 days", "24 hours", "90 minutes". */
static void fmt_length(struct strbuf *sb, int64_t ms)
{
	if (ms % MS_PER_DAY == 0)
		strbuf_addf(sb, "%" PRId64 " day%s", ms / MS_PER_DAY,
			    ms == MS_PER_DAY ? "" : "s");
	else if (ms % 3600000 == 0)
		strbuf_addf(sb, "%" PRId64 " hour%s", ms / 3600000, ms == 3600000 ? "" : "s");
	else
		strbuf_addf(sb, "%" PRId64 " minutes", ms / 60000);
}

static void points(struct strbuf *sb, double cur, double prev)
{
	double delta = (cur - prev) * 100.0;

	if (isnan(cur) || isnan(prev))
		return; /* the Trend line says why there is none */
	strbuf_addstr(sb, ": ");
	if (fabs(delta) < 0.005)
		strbuf_addstr(sb, "unchanged");
	else
		strbuf_addf(sb, "%s %.2f points", delta > 0 ? "up" : "down", fabs(delta));
}

/* The next line of the head: in markdown a list item, which renders as a line of its own. */
static void next_line(struct metrics_out *o)
{
	strbuf_addstr(&o->sb, o->md ? "\n- " : "\n");
}

static void head_line(struct metrics_out *o, const struct metrics *cur)
{
	struct strbuf *sb = &o->sb;
	struct strbuf rate = STRBUF_INIT;
	const struct metrics_trend *t = &cur->trend;

	bold(o, "tiadash summary:");
	strbuf_addch(sb, ' ');
	metrics_fmt_window(sb, cur, o->md);
	strbuf_addstr(sb, "\n\n");
	strbuf_addstr(&rate, "Escape rate ");
	metrics_fmt_pct(&rate, cur->escape_rate, 2);
	bold(o, rate.buf);
	strbuf_release(&rate);
	strbuf_addf(sb, " (%" PRId64 " escape%s in %" PRId64 " pair%s", cur->escapes,
		    cur->escapes == 1 ? "" : "s", cur->pairs, cur->pairs == 1 ? "" : "s");
	if (cur->escapes_explained)
		strbuf_addf(sb, ", %" PRId64 " explained", cur->escapes_explained);
	strbuf_addstr(sb, "), ");
	metrics_fmt_confidence(sb, cur->confidence);
	strbuf_addstr(sb, " upper bound ");
	metrics_fmt_pct(sb, cur->escape_bounds.upper, 2);
	strbuf_addstr(sb, o->md ? "\n\n- " : "\n");
	strbuf_addstr(sb, "Previous ");
	fmt_length(sb, t->until - t->since);
	strbuf_addstr(sb, ": ");
	metrics_fmt_pct(sb, t->previous_rate, 2);
	strbuf_addf(sb, " (%" PRId64 " escape%s in %" PRId64 " pair%s)", t->escapes,
		    t->escapes == 1 ? "" : "s", t->pairs, t->pairs == 1 ? "" : "s");
	points(sb, cur->escape_rate, t->previous_rate);
	next_line(o);
	strbuf_addstr(sb, "Trend: ");
	trust_fmt_trend(sb, t);
	if (cur->pairs_needed > 0) {
		next_line(o);
		strbuf_addstr(sb, "To reach ");
		metrics_fmt_pct(sb, cur->escape_target, 2);
		strbuf_addstr(sb, ": ");
		trust_fmt_pairs_needed(sb, cur);
	}
	next_line(o);
	strbuf_addstr(sb, "Blind spots: ");
	trust_fmt_blind(sb, &cur->blind);
	next_line(o);
	strbuf_addf(sb, "Verifier changed: %" PRId64 " head%s\n", cur->verifier_heads,
		    cur->verifier_heads == 1 ? "" : "s");
}

static void test_list(struct metrics_out *o, const char *what, const struct strlist *l)
{
	size_t n = l->nr < SUMMARY_TESTS ? l->nr : SUMMARY_TESTS;

	if (!l->nr)
		return;
	strbuf_addf(&o->sb, "; %s ", what);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&o->sb, ", ");
		if (o->md)
			md_code(&o->sb, l->items[i]);
		else
			metrics_put_text(o, l->items[i]);
	}
	if (l->nr > n)
		strbuf_addf(&o->sb, " (+%zu more)", l->nr - n);
}

/* The escapes, their classes in colour when color (a terminal's text). */
static void escapes(struct metrics_out *o, const struct metrics *m, bool color)
{
	size_t n = m->nr_escape_list < SUMMARY_ESCAPES ? m->nr_escape_list : SUMMARY_ESCAPES;

	strbuf_addch(&o->sb, '\n');
	if (!m->nr_escape_list) {
		strbuf_addstr(&o->sb, "No escapes.\n");
		return;
	}
	bold(o, "Escapes");
	strbuf_addstr(&o->sb, "\n");
	if (o->md)
		strbuf_addch(&o->sb, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct metrics_escape *e = &m->escape_list[i];
		const struct metrics_row *r = &m->rows[e->row];

		strbuf_addstr(&o->sb, "- ");
		metrics_fmt_change(&o->sb, r);
		if (*r->repo && !*m->repo) {
			strbuf_addch(&o->sb, ' ');
			metrics_put_text(o, r->repo);
		}
		strbuf_addstr(&o->sb, " (");
		metrics_put_class(o, r->cls, color);
		if (e->explained) {
			strbuf_addstr(&o->sb, ", explained: ");
			metrics_put_text(o, e->note);
		}
		strbuf_addch(&o->sb, ')');
		test_list(o, "missed", &e->missed);
		test_list(o, "selected but failed", &e->non_hermetic);
		strbuf_addch(&o->sb, '\n');
	}
	if (m->nr_escape_list > n)
		strbuf_addf(&o->sb, "- and %zu more (tiadash report lists them all)\n",
			    m->nr_escape_list - n);
}

static void reasons(struct metrics_out *o, const struct metrics *m)
{
	size_t n = m->nr_reasons < SUMMARY_REASONS ? m->nr_reasons : SUMMARY_REASONS;

	strbuf_addch(&o->sb, '\n');
	if (!m->nr_reasons) {
		strbuf_addstr(&o->sb, "No force-full runs.\n");
		return;
	}
	bold(o, "Top force-full reasons by cost");
	strbuf_addf(&o->sb, " (gate minutes beyond a narrowed run)\n"
		    "%" PRId64 " of %" PRId64 " shadow runs forced full (", m->force_full,
		    m->shadow_heads);
	metrics_fmt_pct(&o->sb, m->force_full_rate, 1);
	strbuf_addstr(&o->sb, ")\n");
	if (o->md)
		strbuf_addch(&o->sb, '\n');
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&o->sb, "%zu. ", i + 1);
		metrics_put_text(o, m->reasons[i].reason);
		strbuf_addf(&o->sb, ": %" PRId64 " run%s, ", m->reasons[i].runs,
			    m->reasons[i].runs == 1 ? "" : "s");
		metrics_fmt(&o->sb, "%.1f", m->reasons[i].minutes);
		strbuf_addstr(&o->sb, " min\n");
	}
}

/* The flip's trade in a sentence (metrics_fmt_trade), its first letter a capital. */
static void trade_line(struct metrics_out *o, const struct metrics *m)
{
	size_t at;

	strbuf_addstr(&o->sb, o->md ? "\n" : "");
	at = o->sb.len;
	metrics_fmt_trade(&o->sb, m);
	o->sb.buf[at] = 'T';
	strbuf_addstr(&o->sb, ".\n");
}

static void render(struct metrics_out *o, const struct metrics *cur, bool color)
{
	head_line(o, cur);
	trade_line(o, cur);
	escapes(o, cur, color);
	reasons(o, cur);
}

/* The page draws the previous window's figures from what the trend counted. */
static void print_html(const struct metrics *cur, int64_t now)
{
	const struct metrics_trend *t = &cur->trend;
	struct metrics prev = { .since = t->since, .until = t->until, .repo = cur->repo,
				.pairs = t->pairs, .escapes = t->escapes,
				.escape_rate = t->previous_rate };
	struct strbuf line = STRBUF_INIT;
	struct metrics_summary_page page = { cur, &prev, NULL, SUMMARY_ESCAPES, SUMMARY_TESTS,
					     SUMMARY_REASONS };

	points(&line, cur->escape_rate, t->previous_rate);
	if (t->direction != TREND_NONE) {
		strbuf_addstr(&line, ", ");
		trust_fmt_trend(&line, t);
	}
	page.trend = line.buf;
	metrics_html_summary(&page, now, stdout);
	strbuf_release(&line);
}

static void print_json(const struct metrics *m)
{
	cJSON *root = cJSON_CreateObject(), *e, *prs, *f;

	metrics_json_window(root, m);
	json_add_int(root, "pairs", m->pairs);
	e = cJSON_AddObjectToObject(root, "escapes");
	json_add_int(e, "count", m->escapes);
	json_add_int(e, "explained", m->escapes_explained);
	json_add_number(e, "rate", m->escape_rate);
	trust_json_escape_bounds(e, m);
	prs = cJSON_AddArrayToObject(e, "prs");
	for (size_t i = 0; i < m->nr_escape_prs; i++)
		cJSON_AddItemToArray(prs, cJSON_CreateNumber((double)m->escape_prs[i]));
	cJSON_AddItemToObject(root, "trend", trust_json_trend(&m->trend));
	e = cJSON_AddObjectToObject(root, "savings");
	json_add_number(e, "saved_minutes", m->savings.saved_minutes);
	json_add_number(e, "saved_minutes_per_week", m->savings.saved_minutes_per_week);
	json_add_number(e, "escapes_per_week", m->savings.escapes_per_week);
	json_add_number(e, "escapes_per_week_upper", m->savings.escapes_per_week_upper);
	f = cJSON_AddObjectToObject(root, "force_full");
	json_add_int(f, "count", m->force_full);
	json_add_number(f, "rate", m->force_full_rate);
	trust_json_rate(f, &m->force_full_bounds, false);
	cJSON_AddItemToObject(root, "blind_spots", trust_json_blind(&m->blind));
	cJSON_AddItemToObject(root, "verifier_changed", trust_json_verifier_all(m));
	json_print_free(root, stdout);
}

/* One row per summary: cron can append it to a history. */
static const struct table_column summary_columns[] = {
	{ .key = "since", .type = CELL_BOUND },
	{ .key = "until", .type = CELL_BOUND },
	{ .key = "repo", .type = CELL_TEXT },
	{ .key = "pairs", .type = CELL_COUNT },
	{ .key = "escapes", .type = CELL_COUNT },
	{ .key = "explained", .type = CELL_COUNT },
	{ .key = "escape_rate", .type = CELL_RATE },
	{ .key = "escape_rate_upper", .type = CELL_RATE },
	{ .key = "escape_rate_ci_lower", .type = CELL_RATE },
	{ .key = "escape_rate_ci_upper", .type = CELL_RATE },
	{ .key = "confidence", .type = CELL_SETTING },
	{ .key = "escape_target", .type = CELL_SETTING },
	{ .key = "pairs_needed", .type = CELL_COUNT },
	{ .key = "previous_pairs", .type = CELL_COUNT },
	{ .key = "previous_escapes", .type = CELL_COUNT },
	{ .key = "previous_rate", .type = CELL_RATE },
	{ .key = "p_value", .type = CELL_RATE },
	{ .key = "direction", .type = CELL_CLASS },
	{ .key = "never_selected", .type = CELL_COUNT },
	{ .key = "failed_in_full", .type = CELL_COUNT },
	{ .key = "verifier_changed", .type = CELL_COUNT },
};

static void print_csv(const struct metrics *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(summary_columns);
	const struct metrics_trend *tr = &m->trend;

	table_row(&t);
	table_time(&t, m->since);
	table_time(&t, m->until);
	table_str(&t, m->repo);
	table_count(&t, m->pairs);
	table_count(&t, m->escapes);
	table_count(&t, m->escapes_explained);
	table_number(&t, m->escape_rate);
	table_number(&t, m->escape_bounds.upper);
	table_number(&t, m->escape_bounds.ci[0]);
	table_number(&t, m->escape_bounds.ci[1]);
	table_number(&t, m->confidence);
	table_number(&t, m->escape_target);
	table_count_known(&t, m->pairs_needed >= 0, m->pairs_needed);
	table_count_known(&t, tr->known, tr->pairs);
	table_count_known(&t, tr->known, tr->escapes);
	table_number(&t, tr->previous_rate);
	table_number(&t, tr->p_value);
	table_str(&t, trend_direction_name(tr->direction));
	table_count_known(&t, m->blind.known, (int64_t)m->blind.never.nr);
	table_count_known(&t, m->blind.known, (int64_t)m->blind.failed.nr);
	table_count(&t, m->verifier_heads);
	table_write(&t, FORMAT_CSV, &sb);
	table_release(&t);
	metrics_flush(&sb);
}

static int post(const char *url, const struct metrics *cur)
{
	struct metrics_out md = { STRBUF_INIT, true };
	cJSON *root = cJSON_CreateObject();
	char *body;
	int ret;

	render(&md, cur, false);
	json_add_string(root, "text", md.sb.buf);
	body = cJSON_PrintUnformatted(root);
	if (!body)
		die("out of memory building JSON");
	ret = metrics_post_json(url, body);
	cJSON_free(body);
	cJSON_Delete(root);
	strbuf_release(&md.sb);
	return ret;
}

static struct metrics_args summary_args;
static double summary_max_rate;
static const char *summary_url;

static const struct opt summary_opts[] = {
	OPT_METRICS_SINCE(&summary_args, METRICS_SINCE_HELP " (default: 7 days before "
			  "--until, as for gate-check)"),
	OPT_METRICS_UNTIL(&summary_args, "window end, exclusive (default: now)"),
	OPT_METRICS_PROJECT(&summary_args),
	OPT_METRICS_CONFIDENCE(&summary_args, "of the escape rate's bound: 0.90, 0.95 "
			       "(default) or 0.99"),
	OPT_FORMAT_HELP(&summary_args.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			FORMAT_CSV | FORMAT_HTML, "text (default), md, json, csv (one row), "
			"or html (one page with charts)"),
	OPT_OUTPUT(),
	OPT_DOUBLE(0, "max-escape-rate", &summary_max_rate, "X", 0, 1, NULL,
		   "exit 1 when the window's escape rate exceeds X"),
	OPT_STRING(0, "post", &summary_url, "URL", "also POST {\"text\": <the markdown "
		   "summary>} to a webhook (HTTP(S), TLS verified); a failed post exits 2"),
	OPT_METRICS_COLOR(&summary_args, "the escapes' classes " METRICS_COLOR_HELP),
	OPT_END(),
};

static int run_summary(int argc, char **argv, struct cmd_context *ctx)
{
	struct metrics_args a;
	struct metrics cur;
	struct metrics_out o = { STRBUF_INIT, false };
	double max_rate;
	const char *url;
	int argi, rc, status = EXIT_OKAY;

	metrics_args_init(&summary_args, &cmd_summary, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			  FORMAT_CSV | FORMAT_HTML);
	summary_max_rate = NAN;
	summary_url = NULL;
	if (parse_options(argc, argv, &cmd_summary, ctx, &argi))
		return EXIT_INPUT_ERROR;
	a = summary_args;
	max_rate = summary_max_rate;
	url = summary_url;
	if (argi < argc)
		return usage_error(&cmd_summary, "unexpected argument '%s'", argv[argi]);
	/* A trend needs a bounded window. */
	metrics_args_default_window(&a, ctx->now);
	if ((rc = metrics_args_check(&a)))
		return rc;
	/* The figures and the escapes' rows: a lean pass (no row a head). */
	if (metrics_load_figures(ctx, &a, 0, &cur) < 0) {
		metrics_release(&cur);
		return EXIT_INPUT_ERROR;
	}
	if (a.format == FORMAT_HTML) {
		print_html(&cur, ctx->now);
	} else if (a.format == FORMAT_JSON) {
		print_json(&cur);
	} else if (a.format == FORMAT_CSV) {
		print_csv(&cur);
	} else {
		o.md = a.format == FORMAT_MD;
		if (!o.md)
			text_fit_stdout();
		render(&o, &cur, !o.md && color_wanted(a.color));
		metrics_flush(&o.sb);
	}
	if (!isnan(max_rate) && !isnan(cur.escape_rate) && cur.escape_rate > max_rate)
		status = EXIT_CHECK_FAILED;
	if (url) {
		fflush(stdout);
		if (post(url, &cur) < 0)
			status = EXIT_INPUT_ERROR;
	}
	metrics_release(&cur);
	return status;
}

const struct cmd cmd_summary = {
	.name = "summary",
	.fn = run_summary,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash summary [--since WHEN] [--until WHEN] [--project NAME] "
		 "[--confidence C] [--escape-target X] [--format text|md|json|csv|html] "
		 "[-o FILE] [--max-escape-rate X] [--post URL] [--color[=WHEN]]",
	.summary = "Escape rate and its trend, escapes, costliest force-full reasons.",
	.opts = summary_opts,
	.notes = "The trend compares with the window of the same length just before,\n"
		 "by an exact test: rising or falling only at p < 0.05.\n",
};
