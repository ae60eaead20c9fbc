/* `tiadash report --by day|week|month`: the headline figures per period, in every format. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/html.h"
#include "metrics/report_by.h"
#include "metrics/trust.h"

/* A period as people name it: its first day, a month as YYYY-MM; "*" when partial. */
void report_by_label(struct strbuf *sb, const struct metrics_day *d, enum metrics_period by,
		     bool mark_partial)
{
	struct strbuf date = STRBUF_INIT;

	time_format_date(&date, d->day);
	if (by == PERIOD_MONTH)
		strbuf_setlen(&date, 7);
	strbuf_add(sb, date.buf, date.len);
	if (mark_partial && d->partial)
		strbuf_addch(sb, '*');
	strbuf_release(&date);
}

static const char *period_heading(enum metrics_period by)
{
	return by == PERIOD_DAY ? "day" : by == PERIOD_WEEK ? "week from" : "month";
}

/* The cells every format shows, as text ("n/a" for NaN). */
static void cells(const struct metrics_day *d, struct strbuf c[6])
{
	metrics_fmt_pct(&c[0], d->escape_rate, 2);
	metrics_fmt_ci(&c[1], d->escape.ci, 1);
	metrics_fmt_pct(&c[2], d->force_full_rate, 1);
	metrics_fmt(&c[3], "%.3f", d->affected_p50);
	metrics_fmt_secs(&c[4], d->shadow_wall_p95);
	metrics_fmt(&c[5], "%.3f", d->diff_coverage_mean);
}

static void print_table(const struct metrics *m, enum metrics_period by,
			const struct metrics_day *p, size_t n, bool md)
{
	struct strbuf sb = STRBUF_INIT;
	bool partial = false;

	strbuf_addf(&sb, md ? "## Per %s: " : "report by %s: ", metrics_period_name(by));
	metrics_fmt_window(&sb, m, md);
	strbuf_addstr(&sb, "\n\n");
	if (md) {
		strbuf_addf(&sb, "| %s | pairs | escapes | escape rate | ", period_heading(by));
		metrics_fmt_confidence(&sb, m->confidence);
		strbuf_addstr(&sb, " interval | force-full | affected p50 | shadow p95 | "
			      "diff coverage |\n|---|---:|---:|---:|---|---:|---:|---:|---:|\n");
	} else {
		strbuf_addf(&sb, "%-11s %6s %8s %7s %10s %8s %10s %8s\n", period_heading(by),
			    "pairs", "escapes", "rate", "force-full", "affected", "shadow p95",
			    "diff cov");
	}
	for (size_t i = 0; i < n; i++) {
		struct strbuf label = STRBUF_INIT;
		struct strbuf c[6] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				       STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
		report_by_label(&label, &p[i], by, true);
		partial |= p[i].partial;
		cells(&p[i], c);
		if (md)
			strbuf_addf(&sb, "| %s | %" PRId64 " | %" PRId64 " | %s | %s | %s | %s | "
				    "%s | %s |\n", label.buf, p[i].pairs, p[i].escapes, c[0].buf,
				    c[1].buf, c[2].buf, c[3].buf, c[4].buf, c[5].buf);
		else
			strbuf_addf(&sb, "%-11s %6" PRId64 " %8" PRId64 " %7s %10s %8s %10s %8s\n",
				    label.buf, p[i].pairs, p[i].escapes, c[0].buf, c[2].buf, c[3].buf,
				    c[4].buf, c[5].buf);
		strbuf_release(&label);
		for (int k = 0; k < 6; k++)
			strbuf_release(&c[k]);
	}
	if (!n)
		strbuf_addstr(&sb, md ? "\nNo head in the window.\n" : "(no head in the window)\n");
	if (partial)
		strbuf_addf(&sb, "\n%s the window starts or ends inside this %s\n", md ? "\\*" : "*",
			    metrics_period_name(by));
	metrics_flush(&sb);
}

void report_by_json_figures(cJSON *o, const struct metrics_day *d)
{
	json_add_int(o, "heads", d->heads);
	json_add_int(o, "pairs", d->pairs);
	json_add_int(o, "escapes", d->escapes);
	json_add_number(o, "escape_rate", d->escape_rate);
	json_add_int(o, "shadow_runs", d->shadow_runs);
	json_add_int(o, "force_full", d->force_full);
	json_add_number(o, "force_full_rate", d->force_full_rate);
	json_add_number(o, "affected_p50", d->affected_p50);
	json_add_number(o, "shadow_wall_clock_p95", d->shadow_wall_p95);
	json_add_number(o, "diff_coverage_mean", d->diff_coverage_mean);
	trust_json_rate(o, &d->escape, false);
}

static void json_period(cJSON *o, const struct metrics_day *d)
{
	json_add_time(o, "start", d->day);
	json_add_time(o, "end", d->end);
	json_add_bool(o, "partial", d->partial);
	report_by_json_figures(o, d);
}

static void print_json(const struct metrics *m, enum metrics_period by,
		       const struct metrics_day *p, size_t n)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *list = cJSON_CreateArray();

	metrics_json_window(root, m);
	json_add_string(root, "by", metrics_period_name(by));
	json_add_number(root, "confidence", m->confidence);
	for (size_t i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		json_period(o, &p[i]);
		cJSON_AddItemToArray(list, o);
	}
	cJSON_AddItemToObject(root, "periods", list);
	json_print_free(root, stdout);
}

/*
 * A row per period: --by's csv and report's md per day (its figures padded
 * to the widths of the text's columns, as report's md always aligned them).
 * A figure added here is in both where its mask allows. md keeps its own
 * order, so its escape rate (two places) and interval follow the others.
 */
static const struct table_column period_columns[] = {
	{ .key = "start", .head = "day", .type = CELL_DATE },
	{ .key = "end", .type = CELL_TIME, .formats = FORMAT_CSV },
	{ .key = "partial", .type = CELL_BOOL, .formats = FORMAT_CSV },
	{ .key = "heads", .type = CELL_COUNT, .formats = FORMAT_CSV },
	{ .key = "pairs", .type = CELL_COUNT, .md_width = 6 },
	{ .key = "escapes", .type = CELL_COUNT, .md_width = 8 },
	{ .key = "escape_rate", .type = CELL_RATE, .formats = FORMAT_CSV },
	{ .key = "escape_rate_upper", .type = CELL_RATE, .formats = FORMAT_CSV },
	{ .key = "escape_rate_ci_lower", .type = CELL_RATE, .formats = FORMAT_CSV },
	{ .key = "escape_rate_ci_upper", .type = CELL_RATE, .formats = FORMAT_CSV },
	{ .key = "shadow_runs", .type = CELL_COUNT, .formats = FORMAT_CSV },
	{ .key = "force_full", .type = CELL_COUNT, .formats = FORMAT_CSV },
	{ .key = "force_full_rate", .head = "force-full", .type = CELL_RATE, .na = "n/a",
	  .md_width = 11 },
	{ .key = "affected_p50", .head = "affected p50", .type = CELL_RATE, .plain = true,
	  .places = 3, .na = "n/a", .md_width = 9 },
	{ .key = "shadow_wall_clock_p95", .head = "shadow p95", .type = CELL_SECONDS,
	  .na = "n/a", .md_width = 11 },
	{ .key = "diff_coverage_mean", .head = "diff coverage", .type = CELL_RATE,
	  .plain = true, .places = 3, .na = "n/a", .md_width = 9 },
	{ .key = "escape_rate", .head = "escape rate", .type = CELL_RATE, .places = 2,
	  .na = "n/a", .formats = FORMAT_MD },
	{ .key = "interval", .type = CELL_TEXT, .formats = FORMAT_MD },
};

_Static_assert(ARRAY_SIZE(period_columns) == REPORT_PERIOD_COLUMNS,
	      "report_by.h's REPORT_PERIOD_COLUMNS counts period_columns");

void report_period_table(struct table *t, struct table_column cols[REPORT_PERIOD_COLUMNS],
			 const char *interval_head)
{
	memcpy(cols, period_columns, sizeof(period_columns));
	cols[REPORT_PERIOD_COLUMNS - 1].head = interval_head;
	*t = (struct table)TABLE_INIT(period_columns);
	t->cols = cols;
}

void report_period_row(struct table *t, const struct metrics_day *d)
{
	struct strbuf ci = STRBUF_INIT;

	table_row(t);
	table_time(t, d->day);
	table_time(t, d->end);
	table_bool(t, d->partial);
	table_count(t, d->heads);
	table_count(t, d->pairs);
	table_count(t, d->escapes);
	table_number(t, d->escape_rate);
	table_number(t, d->escape.upper);
	table_number(t, d->escape.ci[0]);
	table_number(t, d->escape.ci[1]);
	table_count(t, d->shadow_runs);
	table_count(t, d->force_full);
	table_number(t, d->force_full_rate);
	table_number(t, d->affected_p50);
	table_number(t, d->shadow_wall_p95);
	table_number(t, d->diff_coverage_mean);
	table_number(t, d->escape.rate);
	/* "[0.44%, 12.31%]" or "n/a": tiadash's own words, as written. */
	metrics_fmt_ci(&ci, d->escape.ci, 2);
	table_word(t, ci.buf);
	strbuf_release(&ci);
}

static void print_csv(const struct metrics_day *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct table_column cols[REPORT_PERIOD_COLUMNS];
	struct table t;

	report_period_table(&t, cols, NULL);
	for (size_t i = 0; i < n; i++)
		report_period_row(&t, &p[i]);
	table_write(&t, FORMAT_CSV, &sb);
	table_release(&t);
	metrics_flush(&sb);
}

void report_by_print(const struct metrics *m, enum metrics_period by, enum output_format format,
		     int64_t now)
{
	struct metrics_day *p;
	size_t n = metrics_by_period(m, by, &p);

	switch (format) {
	case FORMAT_JSON: print_json(m, by, p, n); break;
	case FORMAT_CSV: print_csv(p, n); break;
	case FORMAT_HTML: metrics_html_by(m, by, p, n, now, stdout); break;
	case FORMAT_MD: print_table(m, by, p, n, true); break;
	default: print_table(m, by, p, n, false); break;
	}
	free(p);
}
