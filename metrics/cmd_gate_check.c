/* `tiadash gate-check`: GO / NO-GO for flipping the merge gate, every criterion shown. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "core/output.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "metrics/common.h"
#include "metrics/html.h"
#include "metrics/trust.h"

/* The colour of a result on a terminal: green passes, red fails, yellow advises. */
static const char *result_color(const struct metrics_criterion *c)
{
	return c->pass ? COLOR_GREEN : c->advisory ? COLOR_YELLOW : COLOR_RED;
}

/* s in colour (or as it is when color is false). */
static void add_colored(struct strbuf *sb, bool color, const char *sgr, const char *s)
{
	strbuf_addf(sb, "%s%s%s", color ? sgr : "", s, color ? COLOR_RESET : "");
}

/* The verdict and, on NO-GO, the clean pairs still needed: the lines under the table. */
static void fmt_verdict(struct strbuf *sb, const struct metrics *m, const struct metrics_gate *g,
			bool md, bool color)
{
	struct strlist notes = STRLIST_INIT;

	strbuf_addstr(sb, md ? "\n**" : "\n");
	add_colored(sb, color, g->go ? COLOR_BOLD_GREEN : COLOR_BOLD_RED, g->go ? "GO" : "NO-GO");
	strbuf_addstr(sb, md ? "**\n" : "\n");
	trust_gate_notes(&notes, m, g);
	for (size_t i = 0; i < notes.nr; i++)
		strbuf_addf(sb, "%s%s\n", md ? "\n" : "", notes.items[i]);
	strlist_release(&notes);
}

/*
 * A row per criterion, once for every format (core/table.h): text and md
 * show the threshold and value as the criterion reads ("<= 0.0500"), csv
 * and json the numbers (n/a empty or null); json has pass and advisory as
 * booleans, csv as words; text has the result in colour on a terminal.
 */
#define SHOWN_AS_READ (FORMAT_TEXT | FORMAT_MD)
static const struct table_column criterion_columns[] = {
	{ .key = "criterion", .type = CELL_CLASS, .formats = FORMAT_CSV },
	{ .key = "name", .type = CELL_CLASS, .formats = FORMAT_JSON },
	{ .key = "label", .head = "criterion", .type = CELL_TEXT, .text_width = 38 },
	{ .key = "op", .type = CELL_CLASS, .formats = FORMAT_CSV | FORMAT_JSON },
	{ .key = "threshold", .type = CELL_RATE, .formats = FORMAT_CSV | FORMAT_JSON },
	{ .key = "threshold", .type = CELL_TEXT, .formats = SHOWN_AS_READ, .right = true,
	  .gap = 1, .text_width = 10 },
	{ .key = "value", .type = CELL_RATE, .formats = FORMAT_CSV | FORMAT_JSON },
	{ .key = "value", .type = CELL_TEXT, .formats = SHOWN_AS_READ, .right = true,
	  .gap = 1, .text_width = 9 },
	{ .key = "result", .type = CELL_CLASS, .formats = FORMAT_CSV | SHOWN_AS_READ },
	{ .key = "pass", .type = CELL_BOOL, .formats = FORMAT_JSON },
	{ .key = "advisory", .type = CELL_CLASS, .formats = FORMAT_CSV },
	{ .key = "advisory", .type = CELL_BOOL, .formats = FORMAT_JSON },
};

static void criterion_rows(struct table *t, const struct metrics_gate *g)
{
	for (size_t i = 0; i < g->nr; i++) {
		const struct metrics_criterion *c = &g->criteria[i];
		struct strbuf thr = STRBUF_INIT, val = STRBUF_INIT;

		strbuf_addf(&thr, "%s ", metrics_op_name(c->op));
		metrics_fmt_criterion(&thr, c, c->threshold);
		metrics_fmt_criterion(&val, c, c->value);
		table_row(t);
		table_str(t, c->name);
		table_str(t, c->name);
		/* The labels are tiadash's: "escape rate upper bound (95%)". */
		table_word(t, c->label);
		if (c->advisory)
			table_note(t, "(advisory)");
		table_str(t, metrics_op_name(c->op));
		table_number(t, c->threshold);
		table_word(t, thr.buf);
		table_number(t, c->value);
		table_word(t, val.buf);
		table_str(t, c->pass ? "PASS" : "FAIL");
		if (!c->pass && c->advisory)
			table_note(t, "(advisory)");
		table_color(t, result_color(c));
		table_bool(t, c->pass);
		table_str(t, c->advisory ? "true" : "false");
		table_bool(t, c->advisory);
		strbuf_release(&thr);
		strbuf_release(&val);
	}
}

static void print_text(const struct metrics *m, const struct metrics_gate *g, bool color)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(criterion_columns);

	strbuf_addstr(&sb, "gate-check: ");
	metrics_fmt_window(&sb, m, false);
	strbuf_addstr(&sb, "\n\n");
	t.color = color;
	criterion_rows(&t, g);
	table_write(&t, FORMAT_TEXT, &sb);
	table_release(&t);
	fmt_verdict(&sb, m, g, false, color);
	metrics_flush(&sb);
}

/* For a flip PR or a chat: the same table and lines, in markdown. */
static void print_md(const struct metrics *m, const struct metrics_gate *g)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(criterion_columns);

	strbuf_addstr(&sb, "## Gate check: ");
	metrics_fmt_window(&sb, m, true);
	strbuf_addstr(&sb, "\n\n");
	criterion_rows(&t, g);
	table_write(&t, FORMAT_MD, &sb);
	table_release(&t);
	fmt_verdict(&sb, m, g, true, false);
	metrics_flush(&sb);
}

static void print_csv(const struct metrics_gate *g)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(criterion_columns);

	criterion_rows(&t, g);
	/* The verdict is a row of its own: cron greps it. */
	table_row(&t);
	table_str(&t, "verdict");
	table_null(&t);
	table_str(&t, "verdict");
	table_null(&t);
	table_null(&t);
	table_null(&t);
	table_null(&t);
	table_null(&t);
	table_str(&t, g->go ? "GO" : "NO-GO");
	table_null(&t);
	table_str(&t, "false");
	table_null(&t);
	table_write(&t, FORMAT_CSV, &sb);
	table_release(&t);
	metrics_flush(&sb);
}

static void print_json(const struct metrics *m, const struct metrics_gate *g)
{
	cJSON *root = cJSON_CreateObject();
	struct table criteria = TABLE_INIT(criterion_columns);

	json_add_string(root, "verdict", g->go ? "GO" : "NO-GO");
	criterion_rows(&criteria, g);
	cJSON_AddItemToObject(root, "criteria", table_json(&criteria));
	table_release(&criteria);
	json_add_opt_int(root, "pairs_needed", m->pairs_needed >= 0, m->pairs_needed);
	json_add_int(root, "inherited", m->class_counts[CLASS_INHERITED]);
	json_add_int(root, "unresolved", m->class_counts[CLASS_UNRESOLVED]);
	json_add_int(root, "escapes_base_unrun", m->escapes_base_unrun);
	{
		cJSON *t = cJSON_AddObjectToObject(root, "trade");

		json_add_number(t, "saved_minutes_per_week", m->savings.saved_minutes_per_week);
		json_add_number(t, "escapes_per_week", m->savings.escapes_per_week);
		json_add_number(t, "escapes_per_week_upper", m->savings.escapes_per_week_upper);
		json_add_number(t, "red_minutes_mean", m->red_minutes_mean);
	}
	json_add_number(root, "days_needed", m->days_needed);
	json_add_number(root, "confidence", m->confidence);
	json_add_number(root, "escape_target", m->escape_target);
	metrics_json_window(root, m);
	json_print_free(root, stdout);
}

static struct metrics_args gate_args;
static struct metrics_criteria gate_cr;

/* --min-p95-saving X: the saving must exceed X, in [0, 1); the criterion counts again. */
static int p95_saving_cb(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	struct metrics_criteria *cr = o->value;

	if (!parse_double(arg, &cr->min_p95_saving) || !(cr->min_p95_saving >= 0) ||
	    cr->min_p95_saving >= 1)
		return usage_error(p->cmd, "--min-p95-saving '%s': expected a number from 0 "
				   "up to (not including) 1", arg);
	cr->p95_saving = true;
	return 0;
}

static int no_p95_saving_cb(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	UNUSED(arg);
	UNUSED(p);
	((struct metrics_criteria *)o->value)->p95_saving = false;
	return 0;
}

/* A criterion that counts (a whole number, 0 or more) or a share (0 to 1). */
#define CRITERION_COUNT(l, field, h) \
	OPT_INT64(0, (l), &gate_cr.field, "N", 0, (double)INT64_MAX, "a whole number, 0 or more", (h))
#define CRITERION_SHARE(l, field, h) \
	OPT_DOUBLE(0, (l), &gate_cr.field, "X", 0, 1, NULL, (h))

static const struct opt gate_opts[] = {
	OPT_GROUP("Window:"),
	OPT_METRICS_SINCE(&gate_args, METRICS_SINCE_HELP " (default: 7 days before "
			  "--until, as for summary)"),
	OPT_METRICS_UNTIL(&gate_args, "window end, exclusive (default: now)"),
	OPT_METRICS_PROJECT(&gate_args),
	OPT_FORMAT_HELP(&gate_args.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			FORMAT_CSV | FORMAT_HTML, "text (default), md (a flip PR, a chat), "
			"json, csv, or html (one page with charts, for a projector or A4)"),
	OPT_OUTPUT(),
	OPT_METRICS_COLOR(&gate_args, "colour PASS, FAIL and the verdict: always, never, "
			  "or auto (default: on a terminal, unless NO_COLOR is set)"),
	OPT_GROUP_NAMED("Criteria (a value that cannot be computed fails):", "CRITERIA"),
	CRITERION_COUNT("min-days", min_days, "UTC days with a shadow run (default 7)"),
	CRITERION_COUNT("min-pairs", min_pairs, "pairs (default 50)"),
	CRITERION_COUNT("max-escapes", max_escapes, "unexplained escapes (default 0)"),
	OPT_METRICS_ESCAPE_TARGET(&gate_args, "the escape rate's upper bound at most X "
				  "(default 0.05)"),
	OPT_METRICS_CONF(&gate_args, "of that bound: 0.90, 0.95 (default), 0.99"),
	CRITERION_SHARE("min-identity", min_identity, "share of failing tests whose "
			"suite key resolved (default 0.99; none failing: n/a, pass)"),
	CRITERION_SHARE("max-affected-p50", max_affected_p50,
			"affected-fraction p50 (default 0.6)"),
	OPT_CALLBACK(0, "min-p95-saving", &gate_cr, "X", "p95 wall-clock saving 1 - "
		     "shadow/full must exceed X (default 0: shadow p95 below full p95)",
		     p95_saving_cb),
	OPT_CALLBACK(0, "no-p95-saving", &gate_cr, NULL, "leave the wall-clock criterion out",
		     no_p95_saving_cb),
	CRITERION_SHARE("min-diff-coverage", min_diff_coverage,
			"diff-coverage p50 (default 0.7; advisory)"),
	OPT_BOOL(0, "strict", &gate_cr.strict, "the diff-coverage criterion counts too"),
	CRITERION_SHARE("max-seeded-escape-rate", max_seeded_escape_rate, "defects seeded "
			"outside the impact set that only the full suite caught (`tiadash "
			"seed`; default 0.2; advisory, when the window has an experiment)"),
	OPT_END(),
};

static int run_gate_check(int argc, char **argv, struct cmd_context *ctx)
{
	struct metrics_criteria cr;
	struct metrics_args a;
	struct metrics_gate g;
	struct metrics m;
	int argi, rc;

	metrics_args_init(&gate_args, &cmd_gate_check, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			  FORMAT_CSV | FORMAT_HTML);
	gate_cr = (struct metrics_criteria)METRICS_CRITERIA_INIT;
	if (parse_options(argc, argv, &cmd_gate_check, ctx, &argi))
		return EXIT_INPUT_ERROR;
	a = gate_args;
	cr = gate_cr;
	if (argi < argc)
		return usage_error(&cmd_gate_check, "unexpected argument '%s'", argv[argi]);
	metrics_args_default_window(&a, ctx->now);
	if ((rc = metrics_args_check(&a)))
		return rc;
	a.threshold = cr.min_diff_coverage;
	/* Only html (its histograms) reads every head's row. */
	if ((a.format == FORMAT_HTML ? metrics_load_args(ctx, &a, &m)
				     : metrics_load_figures(ctx, &a, 0, &m)) < 0) {
		metrics_release(&m);
		return EXIT_INPUT_ERROR;
	}
	metrics_gate_check(&m, &cr, &g);
	if (a.format == FORMAT_JSON)
		print_json(&m, &g);
	else if (a.format == FORMAT_MD)
		print_md(&m, &g);
	else if (a.format == FORMAT_CSV)
		print_csv(&g);
	else if (a.format == FORMAT_HTML)
		metrics_html_gate(&m, &g, ctx->now, stdout);
	else {
		text_fit_stdout();
		print_text(&m, &g, color_wanted(a.color));
	}
	metrics_release(&m);
	return g.go ? EXIT_OKAY : EXIT_CHECK_FAILED;
}

const struct cmd cmd_gate_check = {
	.name = "gate-check",
	.fn = run_gate_check,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash gate-check [--since WHEN] [--until WHEN] [--project NAME] "
		 "[CRITERIA...] [--format text|md|json|csv|html] [-o FILE] [--color[=WHEN]]",
	.summary = "GO / NO-GO for trusting the cheap gate, criterion by criterion.",
	.opts = gate_opts,
	.notes = "Exit status: 0 GO, 1 NO-GO, 2 usage or input error.\n",
};
