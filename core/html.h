/*
 * The frame of tiadash's HTML pages (report, gate-check, summary, replay,
 * propose): one self-contained HTML5 file, its style inline, charts inline
 * SVG (core/chart.h), no script, nothing fetched (a Content-Security-Policy
 * says so to the browser too), printable on A4 (print CSS: a page's
 * `<section class="sheet">` is one sheet).
 *
 * Figures carry their JSON twin: `data-key` names the key of the command's
 * --format json (a dotted path, array indexes as numbers) and `data-value`
 * holds the exact number JSON prints ("null" where JSON has null and the
 * page shows n/a), so a test can hold the page to the JSON output.
 *
 * Untrusted strings go through html_escape (core/sanitize.h).
 */
#ifndef TIADASH_CORE_HTML_H
#define TIADASH_CORE_HTML_H

#include "core/tiadash.h"
#include "core/util.h"

/*
 * The document up to <body>: title (escaped) in the tab and the print
 * header; `kind` ("report", "gate-check", ...) is the body's class.
 */
void html_begin(struct strbuf *sb, const char *kind, const char *title);
/* Close the <header>, saying which tiadash made the page and when. */
void html_header_end(struct strbuf *sb, int64_t made_ms);
/* The end of the document. */
void html_end(struct strbuf *sb);

/* ` data-key="KEY" data-value="V"`: V as cJSON prints it, "null" for NaN. */
void html_data(struct strbuf *sb, const char *key, double v);
void html_data_int(struct strbuf *sb, const char *key, int64_t v);

/*
 * One figure of a <dl class="figures">: the label, then `shown` (the
 * figure formatted as the text output formats it) with its data attributes.
 */
void html_figure(struct strbuf *sb, const char *key, const char *label, double v,
		 const char *shown);

/* A table cell holding a figure, right-aligned; key NULL: no data attributes. */
void html_cell(struct strbuf *sb, const char *key, double v, const char *shown);

/* A big figure for the top of a page: shown, its label under it. */
void html_tile(struct strbuf *sb, const char *key, double v, const char *shown,
	       const char *label);

/*
 * After a table cut at `shown` of `total` rows: "and N more WHAT (WHERE)";
 * nothing when nothing was cut.
 */
void html_more(struct strbuf *sb, size_t shown, size_t total, const char *what,
	       const char *where);

/*
 * Untrusted text as a <code> element (test ids, paths, globs). A line may
 * break in it only after a "/" or a "::" (and at spaces), or inside a run
 * of HTML_CODE_RUN characters without one: an id breaks mid-word only
 * where it is wider than its column.
 */
#define HTML_CODE_RUN 40
void html_code(struct strbuf *sb, const char *s);
/* Text that never breaks across lines (a class name such as non-hermetic, a time). */
void html_nowrap(struct strbuf *sb, const char *s);

/* Write the page to f and release sb. */
void html_write(struct strbuf *sb, FILE *f);

#endif
