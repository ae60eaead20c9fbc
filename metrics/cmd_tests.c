/* `tiadash tests`: per-test records over the window, one test's history, and the tests to unquarantine. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/config.h"
#include "core/json.h"
#include "core/sanitize.h"
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

/* The count columns of the table, each as wide as its header or its widest value. */
static const struct {
	const char *head;
	size_t field;
} columns[] = {
	{ "MISSED", offsetof(struct test_record, escaped) },
	{ "FAILED", offsetof(struct test_record, failed) },
	{ "INHER", offsetof(struct test_record, inherited) },
	{ "FLAKY", offsetof(struct test_record, flaky) },
	{ "QUAR", offsetof(struct test_record, quarantined) },
	{ "SELECT", offsetof(struct test_record, selected) },
	{ "RAN", offsetof(struct test_record, ran) },
};

static int64_t column(const struct test_record *t, size_t k)
{
	return *(const int64_t *)((const char *)t + columns[k].field);
}

static int column_width(const struct test_records *r, size_t k)
{
	int w = (int)strlen(columns[k].head);

	for (size_t i = 0; i < r->nr; i++) {
		int n = snprintf(NULL, 0, "%" PRId64, column(&r->items[i], k));

		if (n > w)
			w = n;
	}
	return w;
}

static void print_text(const struct metrics *m, const struct window *w,
		       const struct test_records *r)
{
	struct metrics_out o = { STRBUF_INIT, false };
	struct strbuf *sb = &o.sb;
	int width[ARRAY_SIZE(columns)];

	text_header(&o, w, m);
	test_records_span(sb, r);
	strbuf_addstr(sb, ", most missed first\n\n");
	for (size_t k = 0; k < ARRAY_SIZE(columns); k++) {
		width[k] = column_width(r, k);
		strbuf_addf(sb, "%*s ", width[k], columns[k].head);
	}
	/* The first-seen date is in json and csv: the ids need the columns. */
	strbuf_addf(sb, " %-10s  %s\n", "LAST SEEN", "TEST");
	for (size_t i = 0; i < r->nr; i++) {
		const struct test_record *t = &r->items[i];

		for (size_t k = 0; k < ARRAY_SIZE(columns); k++)
			strbuf_addf(sb, "%*" PRId64 " ", width[k], column(t, k));
		strbuf_addch(sb, ' ');
		fmt_date(sb, t->last_at);
		strbuf_addstr(sb, "  ");
		metrics_put_text(&o, t->id);
		strbuf_addch(sb, '\n');
	}
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

static cJSON *json_record(const struct test_record *t)
{
	cJSON *o = cJSON_CreateObject();

	json_add_string(o, "id", t->id);
	json_add_int(o, "ran", t->ran);
	json_add_int(o, "selected", t->selected);
	json_add_int(o, "failed", t->failed);
	json_add_int(o, "missed", t->escaped);
	json_add_int(o, "inherited", t->inherited);
	json_add_int(o, "flaky", t->flaky);
	json_add_int(o, "quarantined", t->quarantined);
	json_add_time(o, "first_seen", t->first_at);
	json_add_time(o, "last_seen", t->last_at);
	return o;
}

static void print_json(const struct metrics *m, const struct test_records *r, const char *id)
{
	cJSON *root = cJSON_CreateObject(), *list, *u;

	metrics_json_window(root, m);
	json_add_int(root, "pairs", r->pairs);
	json_add_int(root, "full_runs", r->full_runs);
	if (id) {
		const struct test_record *t = find(r, id);

		cJSON_AddItemToObject(root, "test", t ? json_record(t) : cJSON_CreateNull());
		list = cJSON_AddArrayToObject(root, "history");
		for (size_t i = 0; i < r->nr_history; i++) {
			const struct test_event *e = &r->history[i];
			cJSON *o = cJSON_CreateObject();

			json_add_time(o, "at", e->at);
			json_add_opt_int(o, "pr", e->has_pr, e->pr);
			json_add_string(o, "head", e->sha);
			json_add_string(o, "class", e->class_name);
			json_add_string(o, "outcome", e->outcome);
			json_add_bool(o, "selected", e->selected);
			cJSON_AddItemToArray(list, o);
		}
		json_print_free(root, stdout);
		return;
	}
	list = cJSON_AddArrayToObject(root, "tests");
	for (size_t i = 0; i < r->nr; i++)
		cJSON_AddItemToArray(list, json_record(&r->items[i]));
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

	strbuf_addstr(&sb, "id,ran,selected,failed,missed,inherited,flaky,quarantined,"
		      "first_seen,last_seen,unquarantine\n");
	for (size_t i = 0; i < r->nr; i++) {
		const struct test_record *t = &r->items[i];

		csv_field(&sb, t->id);
		strbuf_addf(&sb, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%"
			    PRId64 ",%" PRId64 ",", t->ran, t->selected, t->failed, t->escaped,
			    t->inherited, t->flaky, t->quarantined);
		time_format(&sb, t->first_at);
		strbuf_addch(&sb, ',');
		time_format(&sb, t->last_at);
		strbuf_addf(&sb, ",%s\n", strlist_sorted_has(&r->unquarantine, t->id) ? "yes" : "no");
	}
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
	if (config_load(&cfg, ctx->db_path) < 0)
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
	.flags = NEED_DB_RO,
	.usage = "tiadash tests [--since WHEN] [--until WHEN] [--project NAME] [--id ID] "
		 "[--green N] [--format text|json|csv] [-o FILE]",
	.summary = "Per-test records: missed, failed, inherited, selected; what to unquarantine.",
	.opts = tests_opts,
};
