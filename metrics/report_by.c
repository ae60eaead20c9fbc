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

static void print_table(const struct metrics *m, enum metrics_period by,
			const struct metrics_day *p, size_t n, enum output_format f)
{
	struct strbuf sb = STRBUF_INIT;
	struct period_table pt;
	bool md = f == FORMAT_MD, partial = false;

	strbuf_addf(&sb, md ? "## Per %s: " : "report by %s: ", metrics_period_name(by));
	metrics_fmt_window(&sb, m, md);
	strbuf_addstr(&sb, "\n\n");
	report_period_table(&pt, PERIODS_BY, by, m->confidence);
	for (size_t i = 0; i < n; i++) {
		report_period_row(&pt, &p[i]);
		partial |= p[i].partial;
	}
	table_write(&pt.t, f, &sb);
	report_period_release(&pt);
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
 * A row per period: --by's csv, md and text and report's per-day md and
 * text. A figure added here is in each where its mask and the layouts'
 * orders allow. md and text name some figures differently (text's heads
 * are short, to fit 80 columns), so such a figure is two columns; each
 * layout picks its columns and their order (period_md_order etc.).
 */
enum {
	PC_START, PC_END, PC_PARTIAL, PC_HEADS, PC_PAIRS, PC_ESCAPES, PC_ESCAPE_RATE,
	PC_ESCAPE_UPPER, PC_CI_LOWER, PC_CI_UPPER, PC_SHADOW_RUNS, PC_FORCE_FULL,
	PC_FORCE_FULL_RATE, PC_AFFECTED, PC_SHADOW_P95, PC_DIFF_COVERAGE, PC_MD_ESCAPE_RATE,
	PC_INTERVAL, PC_PERIOD, PC_TEXT_ESCAPE_RATE, PC_TEXT_AFFECTED, PC_TEXT_DIFF_COVERAGE,
};

static const struct table_column period_columns[] = {
	[PC_START] = { .key = "start", .type = CELL_DATE, .formats = FORMAT_CSV },
	[PC_END] = { .key = "end", .type = CELL_TIME, .formats = FORMAT_CSV },
	[PC_PARTIAL] = { .key = "partial", .type = CELL_BOOL, .formats = FORMAT_CSV },
	[PC_HEADS] = { .key = "heads", .type = CELL_COUNT, .formats = FORMAT_CSV },
	[PC_PAIRS] = { .key = "pairs", .type = CELL_COUNT, .gap = 1, .text_width = 6 },
	[PC_ESCAPES] = { .key = "escapes", .type = CELL_COUNT, .gap = 1, .text_width = 8 },
	[PC_ESCAPE_RATE] = { .key = "escape_rate", .type = CELL_RATE, .formats = FORMAT_CSV },
	[PC_ESCAPE_UPPER] = { .key = "escape_rate_upper", .type = CELL_RATE,
			      .formats = FORMAT_CSV },
	[PC_CI_LOWER] = { .key = "escape_rate_ci_lower", .type = CELL_RATE,
			  .formats = FORMAT_CSV },
	[PC_CI_UPPER] = { .key = "escape_rate_ci_upper", .type = CELL_RATE,
			  .formats = FORMAT_CSV },
	[PC_SHADOW_RUNS] = { .key = "shadow_runs", .type = CELL_COUNT, .formats = FORMAT_CSV },
	[PC_FORCE_FULL] = { .key = "force_full", .type = CELL_COUNT, .formats = FORMAT_CSV },
	[PC_FORCE_FULL_RATE] = { .key = "force_full_rate", .head = "force-full",
				 .type = CELL_RATE, .na = "n/a", .gap = 1, .text_width = 10 },
	[PC_AFFECTED] = { .key = "affected_p50", .head = "affected p50", .type = CELL_RATE,
			  .plain = true, .places = 3, .na = "n/a",
			  .formats = FORMAT_CSV | FORMAT_MD },
	[PC_SHADOW_P95] = { .key = "shadow_wall_clock_p95", .head = "shadow p95",
			    .type = CELL_SECONDS, .na = "n/a", .gap = 1, .text_width = 10 },
	[PC_DIFF_COVERAGE] = { .key = "diff_coverage_mean", .head = "diff coverage",
			       .type = CELL_RATE, .plain = true, .places = 3, .na = "n/a",
			       .formats = FORMAT_CSV | FORMAT_MD },
	[PC_MD_ESCAPE_RATE] = { .key = "escape_rate", .head = "escape rate", .type = CELL_RATE,
				.places = 2, .na = "n/a", .formats = FORMAT_MD },
	/* "[0.44%, 12.31%]": tiadash's words; its head names the confidence. */
	[PC_INTERVAL] = { .key = "interval", .type = CELL_TEXT, .formats = FORMAT_MD },
	/* The period as people name it ("2026-11*"); its head names the period. */
	[PC_PERIOD] = { .key = "period", .type = CELL_TEXT, .formats = FORMAT_MD | FORMAT_TEXT,
			.text_width = 11 },
	[PC_TEXT_ESCAPE_RATE] = { .key = "escape_rate", .head = "rate", .type = CELL_RATE,
				  .places = 2, .na = "n/a", .formats = FORMAT_TEXT, .gap = 1,
				  .text_width = 7 },
	[PC_TEXT_AFFECTED] = { .key = "affected_p50", .head = "affected", .type = CELL_RATE,
			       .plain = true, .places = 3, .na = "n/a", .formats = FORMAT_TEXT,
			       .gap = 1, .text_width = 8 },
	[PC_TEXT_DIFF_COVERAGE] = { .key = "diff_coverage_mean", .head = "diff cov",
				    .type = CELL_RATE, .plain = true, .places = 3, .na = "n/a",
				    .formats = FORMAT_TEXT, .gap = 1, .text_width = 8 },
};

_Static_assert(ARRAY_SIZE(period_columns) == REPORT_PERIOD_COLUMNS,
	      "report_by.h's REPORT_PERIOD_COLUMNS counts period_columns");

/* --by's md leads with the escape rate; report's per-day md ends with it. */
static const size_t by_md_order[] = {
	PC_PERIOD, PC_PAIRS, PC_ESCAPES, PC_MD_ESCAPE_RATE, PC_INTERVAL, PC_FORCE_FULL_RATE,
	PC_AFFECTED, PC_SHADOW_P95, PC_DIFF_COVERAGE,
};
static const size_t days_md_order[] = {
	PC_PERIOD, PC_PAIRS, PC_ESCAPES, PC_FORCE_FULL_RATE, PC_AFFECTED, PC_SHADOW_P95,
	PC_DIFF_COVERAGE, PC_MD_ESCAPE_RATE, PC_INTERVAL,
};
/* report's text has the escape rate per day in its md and json only. */
static const size_t by_text_order[] = {
	PC_PERIOD, PC_PAIRS, PC_ESCAPES, PC_TEXT_ESCAPE_RATE, PC_FORCE_FULL_RATE,
	PC_TEXT_AFFECTED, PC_SHADOW_P95, PC_TEXT_DIFF_COVERAGE,
};
static const size_t days_text_order[] = {
	PC_PERIOD, PC_PAIRS, PC_ESCAPES, PC_FORCE_FULL_RATE, PC_TEXT_AFFECTED, PC_SHADOW_P95,
	PC_TEXT_DIFF_COVERAGE,
};

/*
 * Report's per-day layout: its figures padded in md to the widths of its
 * text's columns (as report's md always aligned them), the text's last
 * four a space further apart than --by's.
 */
static void days_layout(struct table_column *cols)
{
	static const struct { size_t col; int width; } widths[] = {
		{ PC_PAIRS, 6 }, { PC_ESCAPES, 8 }, { PC_FORCE_FULL_RATE, 11 },
		{ PC_AFFECTED, 9 }, { PC_SHADOW_P95, 11 }, { PC_DIFF_COVERAGE, 9 },
	};
	static const size_t wider[] = {
		PC_FORCE_FULL_RATE, PC_TEXT_AFFECTED, PC_SHADOW_P95, PC_TEXT_DIFF_COVERAGE,
	};

	for (size_t k = 0; k < ARRAY_SIZE(widths); k++)
		cols[widths[k].col].md_width = widths[k].width;
	for (size_t k = 0; k < ARRAY_SIZE(wider); k++)
		cols[wider[k]].gap = 2;
	cols[PC_PERIOD].text_width = 10;
}

void report_period_table(struct period_table *pt, enum period_layout layout,
			 enum metrics_period by, double confidence)
{
	bool days = layout == PERIODS_OF_REPORT;

	memcpy(pt->cols, period_columns, sizeof(period_columns));
	pt->layout = layout;
	pt->by = by;
	pt->interval_head = (struct strbuf)STRBUF_INIT;
	if (!isnan(confidence)) {
		metrics_fmt_confidence(&pt->interval_head, confidence);
		strbuf_addch(&pt->interval_head, ' ');
	}
	strbuf_addstr(&pt->interval_head, "interval");
	pt->cols[PC_INTERVAL].head = pt->interval_head.buf;
	pt->cols[PC_PERIOD].head = period_heading(by);
	if (days)
		days_layout(pt->cols);
	pt->t = (struct table)TABLE_INIT(period_columns);
	pt->t.cols = pt->cols;
	pt->t.md_order = days ? days_md_order : by_md_order;
	pt->t.nr_md_order = days ? ARRAY_SIZE(days_md_order) : ARRAY_SIZE(by_md_order);
	pt->t.text_order = days ? days_text_order : by_text_order;
	pt->t.nr_text_order = days ? ARRAY_SIZE(days_text_order) : ARRAY_SIZE(by_text_order);
}

void report_period_release(struct period_table *pt)
{
	table_release(&pt->t);
	strbuf_release(&pt->interval_head);
}

void report_period_row(struct period_table *pt, const struct metrics_day *d)
{
	struct table *t = &pt->t;
	bool days = pt->layout == PERIODS_OF_REPORT;
	struct strbuf s = STRBUF_INIT;

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
	/* report's md always took the trust model's rate, --by's the period's. */
	table_number(t, days ? d->escape.rate : d->escape_rate);
	/* "[0.4%, 12.3%]" in --by's md, "[0.44%, 12.31%]" in report's, or "n/a". */
	metrics_fmt_ci(&s, d->escape.ci, days ? 2 : 1);
	table_word(t, s.buf);
	strbuf_reset(&s);
	/* A day in report's table is never marked: its window is whole days. */
	report_by_label(&s, d, pt->by, !days);
	table_word(t, s.buf);
	table_number(t, d->escape_rate);
	table_number(t, d->affected_p50);
	table_number(t, d->diff_coverage_mean);
	strbuf_release(&s);
}

static void print_csv(const struct metrics_day *p, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	struct period_table pt;

	/* csv's columns are the same in every layout; no interval, no confidence. */
	report_period_table(&pt, PERIODS_BY, PERIOD_DAY, NAN);
	for (size_t i = 0; i < n; i++)
		report_period_row(&pt, &p[i]);
	table_write(&pt.t, FORMAT_CSV, &sb);
	report_period_release(&pt);
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
	default: print_table(m, by, p, n, format); break;
	}
	free(p);
}
