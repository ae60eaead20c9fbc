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
 * The per-period table, one row a period: --by's csv and report's md per
 * day share its columns (report_by.c), each format showing its own. Its
 * columns are copied into cols, the md interval's head (naming the
 * confidence) set to interval_head (NULL where md is not written); t's
 * rows are the caller's to release.
 */
#define REPORT_PERIOD_COLUMNS 18
void report_period_table(struct table *t, struct table_column cols[REPORT_PERIOD_COLUMNS],
			 const char *interval_head);
/* d's row of the per-period table. */
void report_period_row(struct table *t, const struct metrics_day *d);

#endif
