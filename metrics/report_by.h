/*
 * `tiadash report --by day|week|month` (metrics_by_period): the headline
 * figures of every period of the window, in text, md, json, csv and html.
 */
#ifndef TIADASH_METRICS_REPORT_BY_H
#define TIADASH_METRICS_REPORT_BY_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/json.h"
#include "core/table.h"
#include "metrics/metrics.h"

/* Print m's periods in format to standard output (now: the page's date). */
void report_by_print(const struct metrics *m, enum metrics_period by, enum output_format format,
		     int64_t now);
/* A day's or a period's figures into o (report's "days" and --by's "periods"). */
void report_by_json_figures(cJSON *o, const struct metrics_day *d);
/* Append a period's name: its first day, a month as YYYY-MM; "*" when partial and asked. */
void report_by_label(struct strbuf *sb, const struct metrics_day *d, enum metrics_period by,
		     bool mark_partial);

/*
 * The per-period table, one row a period, one column list (report_by.c)
 * for --by's csv, md and text and report's per-day md and text; a layout
 * picks each format's columns, their order and widths as those outputs
 * always had them.
 */
#define REPORT_PERIOD_COLUMNS 22
enum period_layout {
	PERIODS_BY,		/* report --by's own output */
	PERIODS_OF_REPORT,	/* report's "Per day" section (by day) */
};
struct period_table {
	struct table t;		/* its cols are cols below: the struct stays put */
	struct table_column cols[REPORT_PERIOD_COLUMNS];
	struct strbuf interval_head;	/* "95% interval" */
	enum period_layout layout;
	enum metrics_period by;
};
/*
 * Start pt empty for periods of by (its first column's head, "*" on a
 * partial one in --by's), its md interval's head naming the confidence
 * (NaN: none, where md is not written); report_period_release frees it.
 */
void report_period_table(struct period_table *pt, enum period_layout layout,
			 enum metrics_period by, double confidence);
/* d's row of the per-period table. */
void report_period_row(struct period_table *pt, const struct metrics_day *d);
void report_period_release(struct period_table *pt);

#endif
