/* `tiadash tests`: per-test records over the window, one test's history, and the tests to unquarantine. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/config.h"
#include "core/json.h"
#include "core/rekey.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/testrec.h"


static void fmt_date(struct strbuf *sb, int64_t ms)
{
	if (ms == INT64_MAX || ms == INT64_MIN)
		strbuf_addstr(sb, "-");
	else
		time_format_date(sb, ms);
}

static void text_header(struct metrics_out *o, const struct window *w, const struct metrics *m)
{
	UNUSED(w);
	strbuf_addstr(&o->sb, "tests: ");
	metrics_fmt_window(&o->sb, m, false);
	strbuf_addch(&o->sb, '\n');
}

static void text_unquarantine(struct metrics_out *o, const struct test_records *r)
{
	struct strbuf *sb = &o->sb;

	strbuf_addf(sb, "\nUnquarantine: %zu quarantined %s passed in every full run since ",
		    r->unquarantine.nr, r->unquarantine.nr == 1 ? "test" : "tests");
	fmt_date(sb, r->green_since);
	strbuf_addf(sb, " (%d days)\n", r->green_days);
	for (size_t i = 0; i < r->unquarantine.nr; i++) {
		strbuf_addstr(sb, "  ");
		metrics_put_text(o, r->unquarantine.items[i]);
		strbuf_addch(sb, '\n');
	}
}

/*
 * The records' columns, once for every format (core/table.h): json and csv
 * in this order, text by text_order (most missed first reads left to right).
 */
static const struct table_column record_columns[] = {
	{ .key = "id", .head = "TEST", .type = CELL_ID },
	{ .key = "ran", .head = "RAN", .type = CELL_COUNT, .gap = 1 },
	{ .key = "selected", .head = "SELECT", .type = CELL_COUNT, .gap = 1 },
	{ .key = "failed", .head = "FAILED", .type = CELL_COUNT, .gap = 1 },
	{ .key = "missed", .head = "MISSED", .type = CELL_COUNT, .gap = 1 },
	{ .key = "inherited", .head = "INHER", .type = CELL_COUNT, .gap = 1 },
	{ .key = "flaky", .head = "FLAKY", .type = CELL_COUNT, .gap = 1 },
	{ .key = "quarantined", .head = "QUAR", .type = CELL_COUNT, .gap = 1 },
	/* In json and csv: the ids need text's columns. */
	{ .key = "first_seen", .type = CELL_TIME, .formats = FORMAT_JSON | FORMAT_CSV },
	{ .key = "last_seen", .head = "LAST SEEN", .type = CELL_TIME },
	{ .key = "unquarantine", .type = CELL_BOOL, .formats = FORMAT_CSV },
};
static const size_t record_text_order[] = { 4, 3, 5, 6, 7, 2, 1, 9, 0 };

static void record_row(struct table *t, const struct test_record *r,
		       const struct test_records *all)
{
	table_row(t);
	table_str(t, r->id);
	table_count(t, r->ran);
	table_count(t, r->selected);
	table_count(t, r->failed);
	table_count(t, r->escaped);
	table_count(t, r->inherited);
	table_count(t, r->flaky);
	table_count(t, r->quarantined);
	table_time(t, r->first_at);
	table_time(t, r->last_at);
	table_bool(t, strlist_sorted_has(&all->unquarantine, r->id));
}

static void records_table(struct table *t, const struct test_records *r)
{
	*t = (struct table)TABLE_INIT(record_columns);
	t->text_order = record_text_order;
	t->nr_text_order = ARRAY_SIZE(record_text_order);
	for (size_t i = 0; i < r->nr; i++)
		record_row(t, &r->items[i], r);
}

static void print_text(const struct metrics *m, const struct window *w,
		       const struct test_records *r)
{
	struct metrics_out o = { STRBUF_INIT, false };
	struct strbuf *sb = &o.sb;
	struct table t;

	text_header(&o, w, m);
	test_records_span(sb, r);
	strbuf_addstr(sb, ", most missed first\n\n");
	records_table(&t, r);
	table_write(&t, FORMAT_TEXT, sb);
	table_release(&t);
	text_unquarantine(&o, r);
	metrics_flush(sb);
}

static const struct test_record *find(const struct test_records *r, const char *id)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].id, id))
			return &r->items[i];
	return NULL;
}

static void print_history_text(const struct metrics *m, const struct window *w,
			       const struct test_records *r, const char *id)
{
	const struct test_record *t = find(r, id);
	struct metrics_out o = { STRBUF_INIT, false };
	struct strbuf *sb = &o.sb;

	text_header(&o, w, m);
	metrics_put_text(&o, id);
	strbuf_addf(sb, ": ran %" PRId64 ", selected %" PRId64 ", failed %" PRId64 ", missed %"
		    PRId64 ", inherited %" PRId64 ", flaky %" PRId64 ", quarantined %" PRId64
		    "\n\n%-20s  %-20s  %-12s  %-11s  %s\n", t ? t->ran : 0, t ? t->selected : 0,
		    t ? t->failed : 0, t ? t->escaped : 0, t ? t->inherited : 0, t ? t->flaky : 0,
		    t ? t->quarantined : 0, "WHEN", "CHANGE", "CLASS", "OUTCOME", "SELECTED");
	for (size_t i = 0; i < r->nr_history; i++) {
		const struct test_event *e = &r->history[i];
		struct strbuf c = STRBUF_INIT;

		time_format(sb, e->at);
		if (e->has_pr)
			strbuf_addf(&c, "PR #%" PRId64 " ", e->pr);
		strbuf_addf(&c, "%.12s", e->sha);
		strbuf_addf(sb, "  %-20s  %-12s  %-11s  %s\n", c.buf, e->class_name, e->outcome,
			    e->selected ? "yes" : "no");
		strbuf_release(&c);
	}
	metrics_flush(sb);
}

static cJSON *json_record(const struct test_record *r, const struct test_records *all)
{
	struct table t = TABLE_INIT(record_columns);
	cJSON *o;

	record_row(&t, r, all);
	o = table_json_object(&t);
	table_release(&t);
	return o;
}

static const struct table_column event_columns[] = {
	{ .key = "at", .head = "WHEN", .type = CELL_TIME },
	{ .key = "pr", .head = "PR", .type = CELL_COUNT },
	{ .key = "head", .head = "HEAD", .type = CELL_ID },
	{ .key = "class", .head = "CLASS", .type = CELL_CLASS },
	{ .key = "outcome", .head = "OUTCOME", .type = CELL_TEXT },
	{ .key = "selected", .head = "SELECTED", .type = CELL_BOOL },
};

static void print_json(const struct metrics *m, const struct test_records *r, const char *id)
{
	cJSON *root = cJSON_CreateObject(), *list, *u;
	struct table all;

	metrics_json_window(root, m);
	json_add_int(root, "pairs", r->pairs);
	json_add_int(root, "full_runs", r->full_runs);
	if (id) {
		const struct test_record *t = find(r, id);

		struct table h = TABLE_INIT(event_columns);

		cJSON_AddItemToObject(root, "test", t ? json_record(t, r) : cJSON_CreateNull());
		for (size_t i = 0; i < r->nr_history; i++) {
			const struct test_event *e = &r->history[i];

			table_row(&h);
			table_time(&h, e->at);
			if (e->has_pr)
				table_count(&h, e->pr);
			else
				table_null(&h);
			table_str(&h, e->sha);
			table_str(&h, e->class_name);
			table_str(&h, e->outcome);
			table_bool(&h, e->selected);
		}
		cJSON_AddItemToObject(root, "history", table_json(&h));
		table_release(&h);
		json_print_free(root, stdout);
		return;
	}
	records_table(&all, r);
	cJSON_AddItemToObject(root, "tests", table_json(&all));
	table_release(&all);
	u = cJSON_AddObjectToObject(root, "unquarantine");
	json_add_int(u, "green_days", r->green_days);
	json_add_time(u, "since", r->green_since);
	list = cJSON_AddArrayToObject(u, "tests");
	for (size_t i = 0; i < r->unquarantine.nr; i++)
		json_push_string(list, r->unquarantine.items[i]);
	json_print_free(root, stdout);
}

static void print_csv(const struct test_records *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t;

	records_table(&t, r);
	table_write(&t, FORMAT_CSV, &sb);
	table_release(&t);
	metrics_flush(&sb);
}

static struct metrics_args tests_args;
static const char *tests_id;
static int tests_green;

static const struct opt tests_opts[] = {
	OPT_GROUP("Window (default: all time):"),
	OPT_METRICS_WINDOW(&tests_args),
	OPT_GROUP("Tests:"),
	OPT_STRING(0, "id", &tests_id, "ID", "one test's history (SUITE::CASE), pair by pair"),
	OPT_INT_BAD_VALUE(0, "green", &tests_green, "N", 1, TEST_RECORDS_MAX_GREEN_DAYS,
			  "days, ", "unquarantine candidates: quarantined tests that passed "
			  "in every full run of the last N days (default 14)"),
	OPT_GROUP("Output:"),
	OPT_METRICS_FORMAT(&tests_args, FORMAT_TEXT | FORMAT_JSON | FORMAT_CSV),
	OPT_OUTPUT(),
	OPT_END(),
};

static int parse_tests_args(int argc, char **argv, struct cmd_context *ctx,
			    struct metrics_args *a, const char **id, int *green)
{
	int argi;

	metrics_args_init(&tests_args, &cmd_tests, FORMAT_TEXT | FORMAT_JSON | FORMAT_CSV);
	tests_id = NULL;
	tests_green = *green;
	if (parse_options(argc, argv, &cmd_tests, ctx, &argi))
		return EXIT_INPUT_ERROR;
	*a = tests_args;
	*id = tests_id;
	*green = tests_green;
	if (argi < argc)
		return usage_error(&cmd_tests, "unexpected argument '%s'", argv[argi]);
	if (*id && a->format == FORMAT_CSV)
		return usage_error(&cmd_tests, "--id prints text or json");
	return metrics_args_check(a);
}

static int run_tests(int argc, char **argv, struct cmd_context *ctx)
{
	struct metrics_args a;
	struct metrics m = { 0 };
	struct test_records r = { 0 };
	struct config cfg = CONFIG_INIT;
	const char *id = NULL;
	int green = TEST_RECORDS_GREEN_DAYS;
	int rc = parse_tests_args(argc, argv, ctx, &a, &id, &green);

	if (rc)
		return rc;
	if (rekey_config_load(&cfg, ctx) < 0)
		return EXIT_INPUT_ERROR;
	/* The window as report names it. */
	m.since = a.window.since;
	m.until = a.window.until;
	m.repo = xstrdup(a.window.repo ? a.window.repo : "");
	if (test_records_compute(ctx->store, &a.window, cfg.idmap, green, ctx->now, id, &r) < 0) {
		rc = EXIT_INPUT_ERROR;
	} else {
		switch (a.format) {
		case FORMAT_JSON: print_json(&m, &r, id); break;
		case FORMAT_CSV: print_csv(&r); break;
		default:
			text_fit_stdout();
			if (id)
				print_history_text(&m, &a.window, &r, id);
			else
				print_text(&m, &a.window, &r);
			break;
		}
	}
	test_records_release(&r);
	free(m.repo);
	config_release(&cfg);
	return rc;
}

const struct cmd cmd_tests = {
	.name = "tests",
	.fn = run_tests,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash tests [--since WHEN] [--until WHEN] [--project NAME] [--id ID] "
		 "[--green N] [--format text|json|csv] [-o FILE]",
	.summary = "Per-test records: missed, failed, inherited, selected; what to unquarantine.",
	.opts = tests_opts,
};
