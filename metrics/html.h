/*
 * --format html of report, gate-check, summary and propose: one
 * self-contained page each (core/html.h) with charts (core/chart.h),
 * drawing what struct metrics and struct proposals hold, in the order the
 * text output prints it, with the text output's formatting and n/a rules.
 * Nothing here computes a figure: the pages read what the JSON writers read.
 *
 * data-key names the key in `report --format json` (gate-check and propose:
 * their own JSON; a key written "report:KEY" is report's for the same
 * window, "previous:KEY" report's for summary's previous window).
 */
#ifndef TIADASH_METRICS_HTML_H
#define TIADASH_METRICS_HTML_H

#include "core/tiadash.h"
#include "metrics/metrics.h"
#include "metrics/proposals.h"

/* The report: two A4 sheets in print (figures and charts; reasons, escapes, days). */
void metrics_html_report(const struct metrics *m, int64_t now, FILE *f);

/* report --by: a chart per headline figure over the periods, and their table. */
void metrics_html_by(const struct metrics *m, enum metrics_period by,
		     const struct metrics_day *p, size_t n, int64_t now, FILE *f);

/* gate-check: the verdict, every criterion, the charts behind them; one A4 sheet. */
void metrics_html_gate(const struct metrics *m, const struct metrics_gate *g,
		       int64_t now, FILE *f);

/* What summary shows: its two windows, its trend line, its list lengths. */
struct metrics_summary_page {
	const struct metrics *cur, *prev;
	const char *trend; /* as the text prints it ("up 1.20 points") */
	size_t max_escapes, max_tests, max_reasons;
};
void metrics_html_summary(const struct metrics_summary_page *s, int64_t now, FILE *f);

/*
 * propose: the recommended set, each candidate's closes and cost, the
 * escapes' evidence. root: the repository's, which the page names rules
 * files relative to (NULL: none known).
 */
void propose_print_html(const struct proposals *p, const struct proposals_rules *r,
			const char *root, int64_t limit, int64_t now, FILE *f);

/*
 * The text forms of propose's pieces (metrics/cmd_propose.c), sanitized
 * for a terminal: the page escapes them again for HTML.
 */
void propose_text_window(struct strbuf *sb, const struct proposals *p);
void propose_text_escape_name(struct strbuf *sb, const struct proposal_escape *e);
void propose_text_state(struct strbuf *sb, const struct proposals *p,
			const struct proposal_escape *e);
void propose_text_evidence(struct strbuf *sb, const struct proposal_evidence *ev);
void propose_text_path_rule(struct strbuf *sb, const struct proposals_rules *r,
			    const char *path);
void propose_text_minutes(struct strbuf *sb, double v);
/*
 * The rules in effect (how many, from which files) and the built-in
 * candidates offered; the file accepted globs go to. root: name files
 * below it relative to it (NULL: relative to the current directory).
 */
void propose_text_rules(struct strbuf *sb, const struct proposals_rules *r, const char *root);
void propose_text_target(struct strbuf *sb, const struct proposals_rules *r, const char *root);

#endif
