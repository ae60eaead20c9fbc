/* The HTML pages of report, gate-check and summary: struct metrics drawn in the text's order, with charts. */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/html.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/html.h"
#include "metrics/report_by.h"
#include "metrics/trust.h"

/* Rows of the long tables before "and N more"; bars of a reasons chart. */
#define PAGE_ESCAPES 50
#define PAGE_TESTS 10
#define PAGE_REASONS 30
#define PAGE_DAYS 62
#define CHART_REASONS 12
#define GATE_TESTS 2
/*
 * Printed lines gate-check's sheet has for its unexplained escapes: under
 * Chromium's A4 print, 16 lines of rows fit (the sample week's 13 rows are
 * 15 lines), one is kept spare; and the characters of an id one such line
 * holds in the tests' column.
 */
#define GATE_ESCAPE_LINES 15
#define GATE_ID_COLS 90

/* ---- figures: one line each, in the text output's order ---- */

enum fig_fmt { FIG_COUNT, FIG_FRACTION, FIG_THRESHOLD, FIG_PCT1, FIG_PCT2, FIG_SECS, FIG_MINUTES };
enum fig_type { FIG_DOUBLE, FIG_INT64, FIG_SIZE };

/* A figure of struct metrics and its key in report --format json. */
struct figure {
	const char *key;
	const char *label;
	enum fig_fmt fmt;
	enum fig_type type;
	size_t offset;
};

#define FIG_D(key, label, fmt, field) \
	{ key, label, fmt, FIG_DOUBLE, offsetof(struct metrics, field) }
#define FIG_I(key, label, field) \
	{ key, label, FIG_COUNT, FIG_INT64, offsetof(struct metrics, field) }
#define FIG_N(key, label, field) \
	{ key, label, FIG_COUNT, FIG_SIZE, offsetof(struct metrics, field) }

/* A new figure of report's JSON is one more line here. */
static const struct figure report_figures[] = {
	FIG_I("shadow_runs", "shadow runs (every attempt)", shadow_runs),
	FIG_I("full_runs", "full runs (every attempt)", full_runs),
	FIG_I("pairs", "pairs", pairs),
	FIG_I("heads", "heads", heads),
	FIG_I("incomplete.count", "incomplete heads", class_counts[CLASS_INCOMPLETE]),
	FIG_D("affected_fraction.p50", "affected fraction p50", FIG_FRACTION, affected.p50),
	FIG_D("affected_fraction.p95", "affected fraction p95", FIG_FRACTION, affected.p95),
	FIG_D("affected_fraction.mean", "affected fraction mean", FIG_FRACTION, affected.mean),
	FIG_N("affected_fraction.runs", "shadow runs with a fraction", affected.n),
	FIG_D("affected_fraction.narrowed_p50", "narrowed p50", FIG_FRACTION, narrowed.p50),
	FIG_D("affected_fraction.narrowed_p95", "narrowed p95", FIG_FRACTION, narrowed.p95),
	FIG_D("affected_fraction.narrowed_mean", "narrowed mean", FIG_FRACTION, narrowed.mean),
	FIG_N("affected_fraction.narrowed_runs", "narrowed runs", narrowed.n),
	FIG_D("wall_clock_s.shadow.p50", "shadow wall-clock p50", FIG_SECS, wall_shadow.p50),
	FIG_D("wall_clock_s.shadow.p95", "shadow wall-clock p95", FIG_SECS, wall_shadow.p95),
	FIG_N("wall_clock_s.shadow.runs", "shadow runs timed", wall_shadow.n),
	FIG_D("wall_clock_s.full.p50", "full wall-clock p50", FIG_SECS, wall_full.p50),
	FIG_D("wall_clock_s.full.p95", "full wall-clock p95", FIG_SECS, wall_full.p95),
	FIG_N("wall_clock_s.full.runs", "full runs timed", wall_full.n),
	FIG_D("wall_clock_s.saving.p50", "saving at p50", FIG_PCT1, saving_p50),
	FIG_D("wall_clock_s.saving.p95", "saving at p95", FIG_PCT1, saving_p95),
	FIG_I("force_full.count", "force-full runs", force_full),
	FIG_D("force_full.rate", "force-full rate", FIG_PCT1, force_full_rate),
	FIG_D("force_full.narrowed_wall_clock_p50", "narrowed run p50 wall-clock", FIG_SECS,
	      narrowed_wall_p50),
	FIG_I("escapes.count", "escapes", escapes),
	FIG_D("escapes.rate", "escape rate", FIG_PCT2, escape_rate),
	FIG_I("escapes.explained", "explained escapes", escapes_explained),
	FIG_I("non_hermetic.count", "non-hermetic escapes", non_hermetic),
	FIG_I("classes.unresolved", "unresolved pairs (not escapes)", class_counts[CLASS_UNRESOLVED]),
	FIG_I("over_strict.count", "over-strict pairs", class_counts[CLASS_OVER_STRICT]),
	FIG_I("flaky.count", "flaky pairs", class_counts[CLASS_FLAKY]),
	FIG_I("flaky.tests", "tests passed on a rerun", flaky_tests),
	FIG_I("quarantined.pairs", "pairs with quarantined failures", quarantined_pairs),
	FIG_I("quarantined.tests", "quarantined tests failed", quarantined_tests),
	FIG_D("savings.saved_minutes_per_week", "gate minutes saved a week", FIG_MINUTES,
	      savings.saved_minutes_per_week),
	FIG_D("escapes_per_week.expected", "escapes a week", FIG_FRACTION, savings.escapes_per_week),
	FIG_D("diff_coverage.p50", "diff coverage p50", FIG_FRACTION, diff_coverage.p50),
	FIG_D("diff_coverage.mean", "diff coverage mean", FIG_FRACTION, diff_coverage.mean),
	FIG_D("diff_coverage.threshold", "diff coverage threshold", FIG_THRESHOLD, threshold),
	FIG_I("diff_coverage.below_threshold", "runs below the threshold", below_threshold),
	FIG_N("diff_coverage.runs", "runs with changed lines", diff_coverage.n),
	FIG_I("shadow_days", "days with shadow runs", shadow_days),
};

/* The figures a meeting looks at first. */
static const struct figure headline[] = {
	FIG_I("pairs", "pairs", pairs),
	FIG_D("escapes.rate", "escape rate", FIG_PCT2, escape_rate),
	FIG_I("escapes.count", "escapes", escapes),
	FIG_D("force_full.rate", "force-full rate", FIG_PCT1, force_full_rate),
	FIG_D("affected_fraction.p50", "affected fraction p50", FIG_FRACTION, affected.p50),
	FIG_D("wall_clock_s.saving.p95", "wall-clock saving at p95", FIG_PCT1, saving_p95),
	FIG_D("diff_coverage.p50", "diff coverage p50", FIG_FRACTION, diff_coverage.p50),
	FIG_I("shadow_days", "days with shadow runs", shadow_days),
};

static double fig_value(const struct metrics *m, const struct figure *f)
{
	const char *p = (const char *)m + f->offset;

	switch (f->type) {
	case FIG_INT64:
		return (double)*(const int64_t *)p;
	case FIG_SIZE:
		return (double)*(const size_t *)p;
	case FIG_DOUBLE:
		break;
	}
	return *(const double *)p;
}

/* v as the text output prints it (metrics/common.h), n/a for NaN. */
static void fig_format(struct strbuf *sb, enum fig_fmt fmt, double v)
{
	switch (fmt) {
	case FIG_COUNT: metrics_fmt(sb, "%.0f", v); break;
	case FIG_FRACTION: metrics_fmt(sb, "%.3f", v); break;
	case FIG_THRESHOLD: metrics_fmt(sb, "%.2f", v); break;
	case FIG_PCT1: metrics_fmt_pct(sb, v, 1); break;
	case FIG_PCT2: metrics_fmt_pct(sb, v, 2); break;
	case FIG_SECS: metrics_fmt_secs(sb, v); break;
	case FIG_MINUTES: metrics_fmt(sb, "%.1f", v); break;
	}
}

enum figure_style { FIGURE_LIST, FIGURE_TILES };

/* The figures of list, as a <dl> of lines or as big tiles; keys get prefix. */
static void figures(struct strbuf *sb, const struct metrics *m, const char *prefix,
		    const struct figure *list, size_t n, enum figure_style style)
{
	strbuf_addstr(sb, style == FIGURE_TILES ? "<div class=\"tiles\">\n"
						: "<dl class=\"figures\">\n");
	for (size_t i = 0; i < n; i++) {
		struct strbuf key = STRBUF_INIT, shown = STRBUF_INIT;
		double v = fig_value(m, &list[i]);

		strbuf_addf(&key, "%s%s", prefix, list[i].key);
		fig_format(&shown, list[i].fmt, v);
		if (style == FIGURE_TILES)
			html_tile(sb, key.buf, v, shown.buf, list[i].label);
		else
			html_figure(sb, key.buf, list[i].label, v, shown.buf);
		strbuf_release(&key);
		strbuf_release(&shown);
	}
	strbuf_addstr(sb, style == FIGURE_TILES ? "</div>\n" : "</dl>\n");
}

/* A table cell holding a figure of the report's JSON (prefix + key). */
static void td_figure(struct strbuf *sb, const char *prefix, const char *key,
		      enum fig_fmt fmt, double v)
{
	struct strbuf shown = STRBUF_INIT, k = STRBUF_INIT;

	strbuf_addf(&k, "%s%s", prefix, key);
	fig_format(&shown, fmt, v);
	html_cell(sb, k.buf, v, shown.buf);
	strbuf_release(&shown);
	strbuf_release(&k);
}

/* ---- page frame ---- */

/*
 * The document up to the end of its <header>: h1, then `badge` (HTML, e.g.
 * the verdict; NULL: none), the window, and when the page was made.
 */
static void page_begin(struct strbuf *sb, const char *kind, const char *h1,
		       const char *badge, const struct metrics *m, int64_t now)
{
	struct strbuf title = STRBUF_INIT, window = STRBUF_INIT;

	metrics_fmt_window(&window, m, false);
	strbuf_addf(&title, "%s: %s", h1, window.buf);
	html_begin(sb, kind, title.buf);
	strbuf_addstr(sb, "<header><h1>");
	html_escape(sb, h1);
	strbuf_addf(sb, "</h1>%s<span class=\"window\">Window ", badge ? badge : "");
	html_escape(sb, window.buf);
	strbuf_addstr(sb, "</span>");
	html_header_end(sb, now);
	strbuf_release(&title);
	strbuf_release(&window);
}

/*
 * What a chart's title says of its window: the days it draws
 * ("2026-11-01 to 2026-11-07, all repos"), else the window as the text says.
 */
static void chart_window(struct strbuf *sb, const struct metrics *m)
{
	if (!m->nr_days) {
		metrics_fmt_window(sb, m, false);
		return;
	}
	time_format_date(sb, m->days[0].day);
	if (m->nr_days > 1) {
		strbuf_addstr(sb, " to ");
		time_format_date(sb, m->days[m->nr_days - 1].day);
	}
	strbuf_addstr(sb, ", ");
	strbuf_addstr(sb, *m->repo ? m->repo : "all repos");
}

static char *chart_title(const char *what, const struct metrics *m)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s, ", what);
	chart_window(&sb, m);
	return strbuf_detach(&sb, NULL);
}

static const struct metrics_criterion *criterion(const struct metrics_gate *g, const char *name)
{
	for (size_t i = 0; g && i < g->nr; i++)
		if (!strcmp(g->criteria[i].name, name))
			return &g->criteria[i];
	return NULL;
}

/* A marker's label: "WHAT VALUE" with the value formatted as the text does. */
static char *marker_label(const char *what, enum fig_fmt fmt, double v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s ", what);
	fig_format(&sb, fmt, v);
	return strbuf_detach(&sb, NULL);
}

/* ---- charts ---- */

/*
 * Days with fewer pairs than half the window's median day (a partial day
 * at an end of the window, a quiet one) into thin: their exact band is
 * wide enough to dwarf every other day's, so the chart draws them hollow
 * and off its scale. Returns that number of pairs (0: no day is thin).
 */
static int64_t thin_days(const struct metrics *m, bool *thin)
{
	double *pairs = xcalloc(m->nr_days + 1, sizeof(*pairs));
	size_t nr = 0;
	int64_t few;

	for (size_t i = 0; i < m->nr_days; i++)
		if (m->days[i].pairs > 0)
			pairs[nr++] = (double)m->days[i].pairs;
	few = nr > 1 ? (int64_t)ceil(metrics_quantile(pairs, nr, 0.5) / 2) : 0;
	for (size_t i = 0; i < m->nr_days; i++)
		thin[i] = m->days[i].pairs > 0 && m->days[i].pairs < few;
	free(pairs);
	return few;
}

static void chart_escape_rate(struct strbuf *sb, const struct metrics *m)
{
	size_t n = m->nr_days;
	double *rate = xcalloc(n + 1, sizeof(*rate));
	double *lo = xcalloc(n + 1, sizeof(*lo)), *hi = xcalloc(n + 1, sizeof(*hi));
	char **labels = xcalloc(n + 1, sizeof(*labels)), **notes = xcalloc(n + 1, sizeof(*notes));
	bool *thin = xcalloc(n + 1, sizeof(*thin));
	int64_t few = thin_days(m, thin);
	char *title = chart_title("Escape rate per day", m);
	char *band = xstrfmt("%.0f%% interval (exact)", m->confidence * 100);
	char *footnote = NULL;
	struct chart_series s = { .name = "escape rate", .v = rate, .lo = lo, .hi = hi,
				  .band_name = band, .style = CHART_BLUE, .value_labels = true,
				  .thin = thin };
	struct chart_line c = {
		.c = { "chart-escape-rate", title, 0, 0 }, .nr = n,
		.labels = (const char *const *)labels, .notes = (const char *const *)notes,
		.x_label = "day (UTC), with its pairs", .y_label = "escapes / pairs",
		.y_fmt = CHART_RATE, .y_at_least = 0.05, .series = &s, .nr_series = 1,
	};

	for (size_t i = 0; i < n && !footnote; i++)
		if (thin[i])
			footnote = xstrfmt("hollow: under %" PRId64 " pairs (half the median "
					   "day), off the scale; \xe2\x86\x91 its band's top", few);
	c.footnote = footnote;
	for (size_t i = 0; i < n; i++) {
		struct strbuf date = STRBUF_INIT;

		rate[i] = m->days[i].escape_rate;
		lo[i] = m->days[i].escape.ci[0];
		hi[i] = m->days[i].escape.ci[1];
		time_format_date(&date, m->days[i].day);
		labels[i] = xstrdup(date.len > 5 ? date.buf + 5 : date.buf);
		notes[i] = xstrfmt("%" PRId64 " %s", m->days[i].pairs,
				   m->days[i].pairs == 1 ? "pair" : "pairs");
		strbuf_release(&date);
	}
	chart_line_svg(sb, &c);
	for (size_t i = 0; i < n; i++) {
		free(labels[i]);
		free(notes[i]);
	}
	free(labels);
	free(notes);
	free(rate);
	free(lo);
	free(hi);
	free(thin);
	free(footnote);
	free(band);
	free(title);
}

#define FRACTION_BINS 20

static void chart_affected(struct strbuf *sb, const struct metrics *m,
			   const struct metrics_gate *g)
{
	const struct metrics_criterion *crit = criterion(g, "affected_fraction_p50");
	double all[FRACTION_BINS] = { 0 }, narrowed[FRACTION_BINS] = { 0 };
	char *title = chart_title("Affected fraction of shadow runs", m);
	char *all_name = xstrfmt("all shadow runs (%zu)", m->affected.n);
	char *narrowed_name = xstrfmt("narrowed runs (%zu)", m->narrowed.n);
	struct chart_marker marks[2] = {
		{ m->affected.p50, marker_label("p50", FIG_FRACTION, m->affected.p50),
		  CHART_BLACK, false },
	};
	struct chart_series series[] = {
		{ .name = all_name, .v = all, .style = CHART_SKY },
		{ .name = narrowed_name, .v = narrowed, .style = CHART_BLUE },
	};
	struct chart_panel panel = { NULL, series, 2, false, marks, crit ? 2 : 1 };
	struct chart_hist c = {
		{ "chart-affected", title, 0, 0 }, 0, 1, FRACTION_BINS,
		"affected fraction (selected / total tests; run_all counts 1)", "shadow runs",
		CHART_FRACTION, &panel, 1,
	};

	if (crit)
		marks[1] = (struct chart_marker){ crit->threshold,
			marker_label("gate: p50 <=", FIG_FRACTION, crit->threshold),
			CHART_VERMILION, true };
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];

		chart_bin_add(all, FRACTION_BINS, 0, 1, r->affected);
		if (r->decision == DECISION_SELECTED)
			chart_bin_add(narrowed, FRACTION_BINS, 0, 1, r->affected);
	}
	chart_hist_svg(sb, &c);
	free((char *)marks[0].label);
	free((char *)marks[1].label);
	free(all_name);
	free(narrowed_name);
	free(title);
}

static void chart_wall_clock(struct strbuf *sb, const struct metrics *m)
{
	double max = 0, hi, *shadow, *full;
	size_t bins;
	char *title = chart_title("Gate wall-clock, shadow against full", m);
	char *shadow_name = xstrfmt("shadow runs (%zu)", m->wall_shadow.n);
	char *full_name = xstrfmt("full runs (%zu)", m->wall_full.n);
	struct chart_marker shadow_marks[2], full_marks[2];
	struct chart_series series[2];
	struct chart_panel panels[2];
	struct chart_hist c;

	for (size_t i = 0; i < m->nr_rows; i++) {
		if (m->rows[i].shadow_wall_s > max)
			max = m->rows[i].shadow_wall_s;
		if (m->rows[i].full_wall_s > max)
			max = m->rows[i].full_wall_s;
	}
	hi = chart_round_up(max, 36, &bins);
	shadow = xcalloc(bins, sizeof(*shadow));
	full = xcalloc(bins, sizeof(*full));
	for (size_t i = 0; i < m->nr_rows; i++) {
		chart_bin_add(shadow, bins, 0, hi, m->rows[i].shadow_wall_s);
		chart_bin_add(full, bins, 0, hi, m->rows[i].full_wall_s);
	}
	shadow_marks[0] = (struct chart_marker){ m->wall_shadow.p50,
		marker_label("p50", FIG_SECS, m->wall_shadow.p50), CHART_BLACK, false };
	shadow_marks[1] = (struct chart_marker){ m->wall_shadow.p95,
		marker_label("p95", FIG_SECS, m->wall_shadow.p95), CHART_VERMILION, true };
	full_marks[0] = (struct chart_marker){ m->wall_full.p50,
		marker_label("p50", FIG_SECS, m->wall_full.p50), CHART_BLACK, false };
	full_marks[1] = (struct chart_marker){ m->wall_full.p95,
		marker_label("p95", FIG_SECS, m->wall_full.p95), CHART_VERMILION, true };
	series[0] = (struct chart_series){ .name = shadow_name, .v = shadow, .style = CHART_BLUE };
	series[1] = (struct chart_series){ .name = full_name, .v = full, .style = CHART_ORANGE };
	panels[0] = (struct chart_panel){ shadow_name, &series[0], 1, false, shadow_marks, 2 };
	panels[1] = (struct chart_panel){ full_name, &series[1], 1, false, full_marks, 2 };
	c = (struct chart_hist){ { "chart-wall-clock", title, 0, 220 }, 0, hi, bins,
				 "gate wall-clock of each head's latest run", "runs",
				 CHART_SECONDS, panels, 2 };
	chart_hist_svg(sb, &c);
	for (int k = 0; k < 2; k++) {
		free((char *)shadow_marks[k].label);
		free((char *)full_marks[k].label);
	}
	free(shadow);
	free(full);
	free(shadow_name);
	free(full_name);
	free(title);
}

static void chart_diff_coverage(struct strbuf *sb, const struct metrics *m)
{
	double below[FRACTION_BINS] = { 0 }, above[FRACTION_BINS] = { 0 };
	char *title = chart_title("Diff coverage of shadow runs", m);
	char *below_name = xstrfmt("below %.2f (%" PRId64 ")", m->threshold, m->below_threshold);
	struct chart_marker marks[2] = {
		{ m->threshold, marker_label("threshold", FIG_THRESHOLD, m->threshold),
		  CHART_VERMILION, false },
		{ m->diff_coverage.p50, marker_label("p50", FIG_FRACTION, m->diff_coverage.p50),
		  CHART_BLACK, true },
	};
	struct chart_series series[] = {
		{ .name = below_name, .v = below, .style = CHART_ORANGE },
		{ .name = "at or above", .v = above, .style = CHART_BLUE },
	};
	struct chart_panel panel = { NULL, series, 2, true, marks, 2 };
	struct chart_hist c = {
		{ "chart-diff-coverage", title, 0, 0 }, 0, 1, FRACTION_BINS,
		"changed executable lines the run executed", "shadow runs", CHART_FRACTION,
		&panel, 1,
	};

	for (size_t i = 0; i < m->nr_rows; i++) {
		double v = m->rows[i].diff_coverage;

		chart_bin_add(v < m->threshold ? below : above, FRACTION_BINS, 0, 1, v);
	}
	chart_hist_svg(sb, &c);
	free((char *)marks[0].label);
	free((char *)marks[1].label);
	free(below_name);
	free(title);
}

/* The reasons ranked by gate minutes (by runs when minutes are n/a). */
static void chart_reasons(struct strbuf *sb, const struct metrics *m, size_t max)
{
	size_t n = m->nr_reasons < max ? m->nr_reasons : max;
	bool minutes = !isnan(m->narrowed_wall_p50);
	const char **rows = xcalloc(n + 1, sizeof(*rows));
	char **notes = xcalloc(n + 1, sizeof(*notes));
	double *v = xcalloc(n + 1, sizeof(*v));
	char *title = chart_title("Force-full reasons by gate minutes", m);
	char *more = m->nr_reasons > n ? xstrfmt("and %zu more (the table lists them)",
					       m->nr_reasons - n) : NULL;
	struct strbuf col_name = STRBUF_INIT;
	struct chart_hbar_col col = { NULL, v, (const char *const *)notes,
				      minutes ? CHART_MINUTES : CHART_COUNT, CHART_BLUE };
	struct chart_hbar c = { { "chart-reasons", title, 0, 0 }, n, rows, NULL, NULL,
				&col, 1, more };

	if (minutes) {
		strbuf_addstr(&col_name, "gate minutes beyond a narrowed run (p50 ");
		metrics_fmt_secs(&col_name, m->narrowed_wall_p50);
		strbuf_addch(&col_name, ')');
	} else {
		strbuf_addstr(&col_name, "runs (no narrowed run to measure minutes by)");
	}
	col.name = col_name.buf;
	for (size_t i = 0; i < n; i++) {
		struct strbuf note = STRBUF_INIT;

		rows[i] = m->reasons[i].reason;
		v[i] = minutes ? m->reasons[i].minutes : (double)m->reasons[i].runs;
		metrics_fmt(&note, "%.1f", m->reasons[i].minutes);
		strbuf_addf(&note, " min, %" PRId64 " run%s", m->reasons[i].runs,
			    m->reasons[i].runs == 1 ? "" : "s");
		notes[i] = strbuf_detach(&note, NULL);
	}
	chart_hbar_svg(sb, &c);
	for (size_t i = 0; i < n; i++)
		free(notes[i]);
	free(notes);
	free(rows);
	free(v);
	free(title);
	free(more);
	strbuf_release(&col_name);
}

/* ---- tables, in the text output's order ---- */

static void table_reasons(struct strbuf *sb, const struct metrics *m, const char *prefix,
			  size_t max)
{
	size_t n = m->nr_reasons < max ? m->nr_reasons : max;

	if (!m->nr_reasons)
		return;
	strbuf_addstr(sb, "<table class=\"reasons\">\n<tr><th class=\"num\">runs</th>"
		      "<th class=\"num\">minutes</th><th>reason (minutes beyond the narrowed p50)"
		      "</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		char *runs = xstrfmt("force_full.ranked.%zu.runs", i);
		char *mins = xstrfmt("force_full.ranked.%zu.minutes", i);

		strbuf_addstr(sb, "<tr>");
		td_figure(sb, prefix, runs, FIG_COUNT, (double)m->reasons[i].runs);
		td_figure(sb, prefix, mins, FIG_MINUTES, m->reasons[i].minutes);
		strbuf_addstr(sb, "<td>");
		html_code(sb, m->reasons[i].reason);
		strbuf_addstr(sb, "</td></tr>\n");
		free(runs);
		free(mins);
	}
	strbuf_addstr(sb, "</table>\n");
	html_more(sb, n, m->nr_reasons, "reasons", "tiadash report --format json lists them all");
}

/* The tests of a list, at most max, each in <code>, then "+N more". */
static void test_cell(struct strbuf *sb, const struct strlist *l, size_t max)
{
	size_t n = l->nr < max ? l->nr : max;

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, "<br>");
		html_code(sb, l->items[i]);
	}
	if (l->nr > n)
		strbuf_addf(sb, "<br><span class=\"more\">+%zu more</span>", l->nr - n);
}

static void change_cell(struct strbuf *sb, const char *prefix, size_t i,
			const struct metrics_row *r)
{
	struct strbuf change = STRBUF_INIT;

	metrics_fmt_change(&change, r);
	strbuf_addstr(sb, "<td");
	if (r->has_pr) {
		char *k = xstrfmt("%sescapes.list.%zu.pr", prefix, i);

		html_data_int(sb, k, r->pr);
		free(k);
	}
	strbuf_addf(sb, ">%s</td>", change.buf);
	strbuf_release(&change);
}

/*
 * The escapes as the text lists them: change, class (and repo with every
 * repo in the window), missed tests, the selected ones that failed, the
 * note.
 */
static void table_escapes(struct strbuf *sb, const struct metrics *m, const char *prefix,
			  size_t max, size_t max_tests)
{
	size_t n = m->nr_escape_list < max ? m->nr_escape_list : max;

	if (!m->nr_escape_list) {
		strbuf_addstr(sb, "<p class=\"note\">No escapes.</p>\n");
		return;
	}
	strbuf_addstr(sb, "<table class=\"escapes\">\n<tr><th>change</th><th>class</th>"
		      "<th>missed tests</th><th>selected and failed</th><th>explained</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct metrics_escape *e = &m->escape_list[i];
		const struct metrics_row *r = &m->rows[e->row];

		strbuf_addstr(sb, "<tr>");
		change_cell(sb, prefix, i, r);
		strbuf_addstr(sb, "<td>");
		html_nowrap(sb, pair_class_name(r->cls));
		if (*r->repo && !*m->repo) {
			strbuf_addstr(sb, "<br>");
			html_escape(sb, r->repo);
		}
		strbuf_addstr(sb, "</td><td>");
		test_cell(sb, &e->missed, max_tests);
		if (e->rules) {
			strbuf_addstr(sb, "<br><span class=\"more\">");
			html_escape(sb, e->rules);
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addstr(sb, "</td><td>");
		test_cell(sb, &e->non_hermetic, max_tests);
		strbuf_addstr(sb, "</td><td>");
		if (e->explained)
			html_escape(sb, e->note);
		else
			strbuf_addstr(sb, "no");
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	html_more(sb, n, m->nr_escape_list, "escapes", "tiadash report lists them all");
}

/* Main's red spans as report's text lists them, and the escape that likely brought each. */
static void table_red_spans(struct strbuf *sb, const struct metrics *m, size_t max)
{
	size_t n = m->nr_red_spans < max ? m->nr_red_spans : max;

	strbuf_addf(sb, "<p class=\"note\">Red on main: <span data-key=\"main.runs\" "
		    "data-value=\"%" PRId64 "\">%" PRId64 " runs of main</span>; "
		    "<span data-key=\"main.inherited_pairs\" data-value=\"%" PRId64 "\">%" PRId64
		    " pairs failed only on tests red on main</span>; <span data-key=\"main."
		    "escapes_base_unrun\" data-value=\"%" PRId64 "\">%" PRId64 " escapes on a base "
		    "main never ran</span>; <span data-key=\"latent_misses.pairs\" data-value=\"%"
		    PRId64 "\">%" PRId64 " pairs with latent misses</span></p>\n",
		    m->main_runs, m->main_runs, m->class_counts[CLASS_INHERITED],
		    m->class_counts[CLASS_INHERITED], m->escapes_base_unrun, m->escapes_base_unrun,
		    m->latent_pairs, m->latent_pairs);
	if (!m->nr_red_spans)
		return;
	strbuf_addstr(sb, "<table class=\"spans compact\">\n<tr><th>test red on main</th>"
		      "<th>red from</th><th>green at</th><th class=\"num\">minutes</th>"
		      "<th>inherited by</th><th>likely from</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct metrics_red_span *sp = &m->red_spans[i];
		struct strbuf c = STRBUF_INIT;

		strbuf_addstr(sb, "<tr><td>");
		html_code(sb, sp->test);
		strbuf_addf(sb, "</td><td>%.7s ", sp->red_sha);
		time_format(&c, sp->red_at);
		html_nowrap(sb, c.buf);
		strbuf_reset(&c);
		if (sp->green_sha[0]) {
			strbuf_addf(sb, "</td><td>%.7s ", sp->green_sha);
			time_format(&c, sp->green_at);
			html_nowrap(sb, c.buf);
			strbuf_reset(&c);
		} else {
			strbuf_addstr(sb, "</td><td>still red");
		}
		strbuf_addstr(sb, "</td><td class=\"num\">");
		metrics_fmt(&c, "%.0f", sp->minutes);
		strbuf_addf(sb, "%s</td><td>%" PRId64 " %s", c.buf, sp->inherited_pairs,
			    sp->inherited_pairs == 1 ? "pair" : "pairs");
		/* A few of them: the list is report --format json's. */
		for (size_t k = 0; k < sp->prs.nr && k < 6; k++)
			strbuf_addf(sb, "%s#%" PRId64, k ? ", " : ": ", sp->prs.v[k]);
		if (sp->prs.nr > 6)
			strbuf_addf(sb, " +%zu", sp->prs.nr - 6);
		strbuf_reset(&c);
		if (sp->escape >= 0)
			metrics_fmt_change(&c, &m->rows[m->escape_list[sp->escape].row]);
		strbuf_addstr(sb, "</td><td>");
		html_escape(sb, c.len ? c.buf : "none found");
		strbuf_addstr(sb, "</td></tr>\n");
		strbuf_release(&c);
	}
	strbuf_addstr(sb, "</table>\n");
	html_more(sb, n, m->nr_red_spans, "red spans", "tiadash report lists them all");
}

/* The printed lines an unexplained escape's row takes (gate_escapes). */
static size_t escape_lines(const struct metrics_escape *e)
{
	const struct strlist *l = e->missed.nr ? &e->missed : &e->non_hermetic;
	size_t n = l->nr < GATE_TESTS ? l->nr : GATE_TESTS, lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += 1 + strlen(l->items[i]) / GATE_ID_COLS;
	lines += l->nr > n;                         /* "+N more" */
	lines += e->missed.nr && e->non_hermetic.nr; /* "and N selected and failed" */
	return lines ? lines : 1;
}

/*
 * gate-check's: the unexplained escapes, a row each with its first failing
 * tests, as many as the sheet holds (GATE_ESCAPE_LINES): all of them when
 * they fit, else those that fit beside the "and N more" line.
 */
static void gate_escapes(struct strbuf *sb, const struct metrics *m)
{
	size_t shown = 0, total = 0, all = 0, used = 0, room;

	for (size_t i = 0; i < m->nr_escape_list; i++) {
		if (m->escape_list[i].explained)
			continue;
		total++;
		all += escape_lines(&m->escape_list[i]);
	}
	room = all <= GATE_ESCAPE_LINES ? all : GATE_ESCAPE_LINES - 1;
	strbuf_addstr(sb, "<table class=\"escapes compact\">\n<tr><th>change</th><th>class</th>"
		      "<th>missed tests (non-hermetic: selected and failed)</th></tr>\n");
	for (size_t i = 0; i < m->nr_escape_list; i++) {
		const struct metrics_escape *e = &m->escape_list[i];

		if (e->explained)
			continue;
		/* The first row always: "and N more" alone would show none. */
		if (shown && used + escape_lines(e) > room)
			break;
		used += escape_lines(e);
		shown++;
		strbuf_addstr(sb, "<tr>");
		change_cell(sb, "report:", i, &m->rows[e->row]);
		strbuf_addstr(sb, "<td>");
		html_nowrap(sb, pair_class_name(m->rows[e->row].cls));
		strbuf_addstr(sb, "</td><td>");
		test_cell(sb, e->missed.nr ? &e->missed : &e->non_hermetic, GATE_TESTS);
		if (e->missed.nr && e->non_hermetic.nr)
			strbuf_addf(sb, "<br><span class=\"more\">and %zu selected and failed</span>",
				    e->non_hermetic.nr);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	if (!total)
		strbuf_addstr(sb, "<p class=\"note\">None.</p>\n");
	html_more(sb, shown, total, "unexplained escapes", "tiadash report lists them all");
}

/*
 * A row per period (of `report --by`, or the days), at most max; keys
 * "PREFIX.I.KEY" as in the JSON.
 */
static void table_periods(struct strbuf *sb, const struct metrics_day *p, size_t total,
			  size_t max, enum metrics_period by, const char *prefix)
{
	size_t n = total < max ? total : max;
	char *more = xstrfmt("%ss", metrics_period_name(by));

	if (!total) {
		free(more);
		return;
	}
	strbuf_addf(sb, "<table class=\"days\">\n<tr><th>%s</th><th class=\"num\">pairs</th>"
		    "<th class=\"num\">escapes</th><th class=\"num\">escape rate</th>"
		    "<th class=\"num\">force-full</th><th class=\"num\">affected p50</th>"
		    "<th class=\"num\">shadow p95</th><th class=\"num\">diff cov</th></tr>\n",
		    by == PERIOD_WEEK ? "week from" : metrics_period_name(by));
	for (size_t i = 0; i < n; i++) {
		const struct metrics_day *d = &p[i];
		static const struct { const char *key; enum fig_fmt fmt; } cells[] = {
			{ "pairs", FIG_COUNT }, { "escapes", FIG_COUNT },
			{ "escape_rate", FIG_PCT2 }, { "force_full_rate", FIG_PCT1 },
			{ "affected_p50", FIG_FRACTION }, { "shadow_wall_clock_p95", FIG_SECS },
			{ "diff_coverage_mean", FIG_FRACTION },
		};
		double v[] = { (double)d->pairs, (double)d->escapes, d->escape_rate,
			       d->force_full_rate, d->affected_p50, d->shadow_wall_p95,
			       d->diff_coverage_mean };

		strbuf_addstr(sb, "<tr><td>");
		report_by_label(sb, d, by, by != PERIOD_DAY || strcmp(prefix, "days"));
		strbuf_addstr(sb, "</td>");
		for (size_t k = 0; k < ARRAY_SIZE(cells); k++) {
			char *key = xstrfmt("%s.%zu.%s", prefix, i, cells[k].key);

			td_figure(sb, "", key, cells[k].fmt, v[k]);
			free(key);
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</table>\n");
	html_more(sb, n, total, more, "tiadash report --format json lists them all");
	free(more);
}

static void table_days(struct strbuf *sb, const struct metrics *m, size_t max)
{
	table_periods(sb, m->days, m->nr_days, max, PERIOD_DAY, "days");
}

static void incomplete_note(struct strbuf *sb, const struct metrics *m)
{
	if (!m->nr_incomplete)
		return;
	strbuf_addstr(sb, "<p class=\"note\">Incomplete heads (no pair):");
	for (size_t i = 0; i < m->nr_incomplete; i++) {
		char *key = xstrfmt("incomplete.by_reason.%s", m->incomplete[i].why);

		strbuf_addf(sb, "%s <span", i ? "," : "");
		html_data_int(sb, key, m->incomplete[i].heads);
		strbuf_addf(sb, ">%" PRId64 "</span> ", m->incomplete[i].heads);
		html_escape(sb, m->incomplete[i].why);
		free(key);
	}
	strbuf_addstr(sb, ".</p>\n");
}

/* ---- confidence, trend, blind spots, verifier (metrics/trust.h) ---- */

/* A figure whose text is made by one of trust.h's one-line forms. */
static void trust_figure(struct strbuf *sb, const char *key, const char *label, double v,
			 const struct strbuf *shown)
{
	html_figure(sb, key, label, v, shown->len ? shown->buf : "none");
}

static void trust_bounds(struct strbuf *sb, const struct metrics *m)
{
	struct strbuf t = STRBUF_INIT;
	double needed = m->pairs_needed < 0 ? NAN : (double)m->pairs_needed;

	metrics_fmt_pct(&t, m->escape_bounds.upper, 2);
	strbuf_addstr(&t, " (");
	metrics_fmt_confidence(&t, m->confidence);
	strbuf_addstr(&t, ", exact)");
	trust_figure(sb, "escapes.rate_upper", "escape rate upper bound", m->escape_bounds.upper, &t);
	strbuf_reset(&t);
	metrics_fmt_pct(&t, m->escape_target, 2);
	trust_figure(sb, "escapes.target", "escape target", m->escape_target, &t);
	strbuf_reset(&t);
	if (m->pairs_needed < 0)
		strbuf_addstr(&t, "n/a");
	else
		trust_fmt_pairs_needed(&t, m);
	trust_figure(sb, "escapes.pairs_needed", "clean pairs still needed", needed, &t);
	strbuf_reset(&t);
	trust_fmt_trend(&t, &m->trend);
	trust_figure(sb, "trend.p_value", "trend (previous window)",
		     m->trend.p_value, &t);
	strbuf_reset(&t);
	metrics_fmt_pct(&t, m->over_strict_bounds.upper, 2);
	trust_figure(sb, "over_strict.rate_upper", "over-strict rate upper bound",
		     m->over_strict_bounds.upper, &t);
	strbuf_release(&t);
}

static void trust_blind(struct strbuf *sb, const struct metrics *m)
{
	const struct metrics_blind *b = &m->blind;
	struct strbuf t = STRBUF_INIT;

	trust_fmt_blind(&t, b);
	trust_figure(sb, "blind_spots.never_selected", "tests never selected",
		     b->known ? (double)b->never.nr : NAN, &t);
	strbuf_reset(&t);
	trust_fmt_new(&t, b);
	trust_figure(sb, "blind_spots.new.count", "new tests",
		     b->new_known ? (double)b->new_tests.nr : NAN, &t);
	strbuf_reset(&t);
	strbuf_addf(&t, "%" PRId64 " head%s green after a change to tests, fixtures or "
		    "config only", m->verifier_heads, m->verifier_heads == 1 ? "" : "s");
	trust_figure(sb, "verifier_changed.count", "verifier changed",
		     (double)m->verifier_heads, &t);
	strbuf_release(&t);
}

static void trust_section(struct strbuf *sb, const struct metrics *m)
{
	strbuf_addstr(sb, "<h2>Confidence and blind spots</h2>\n<dl class=\"figures facts\">\n");
	trust_bounds(sb, m);
	trust_blind(sb, m);
	strbuf_addstr(sb, "</dl>\n");
	if (m->blind.failed.nr) {
		strbuf_addstr(sb, "<p>Never selected, and failed in a full run:<br>");
		test_cell(sb, &m->blind.failed, PAGE_TESTS);
		strbuf_addstr(sb, "</p>\n");
	}
}

/* ---- report ---- */

void metrics_html_report(const struct metrics *m, int64_t now, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	page_begin(&sb, "report", "tiadash report", NULL, m, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n");
	figures(&sb, m, "", headline, ARRAY_SIZE(headline), FIGURE_TILES);
	strbuf_addstr(&sb, "<h2>Figures</h2>\n");
	figures(&sb, m, "", report_figures, ARRAY_SIZE(report_figures), FIGURE_LIST);
	incomplete_note(&sb, m);
	strbuf_addstr(&sb, "<div class=\"charts\">\n");
	chart_escape_rate(&sb, m);
	chart_affected(&sb, m, NULL);
	chart_wall_clock(&sb, m);
	chart_diff_coverage(&sb, m);
	strbuf_addstr(&sb, "</div>\n");
	/* On the first sheet: the second is full with the escapes and the days. */
	table_red_spans(&sb, m, PAGE_ESCAPES);
	strbuf_addstr(&sb, "</section>\n<section class=\"sheet\">\n");
	trust_section(&sb, m);
	strbuf_addstr(&sb, "<h2>Force-full reasons</h2>\n<div class=\"charts\">\n");
	chart_reasons(&sb, m, CHART_REASONS);
	strbuf_addstr(&sb, "<div>\n");
	table_reasons(&sb, m, "", PAGE_REASONS);
	strbuf_addstr(&sb, "</div>\n</div>\n<h2>Escapes</h2>\n");
	table_escapes(&sb, m, "", PAGE_ESCAPES, PAGE_TESTS);
	if (m->seeded.known) {
		struct strbuf what = STRBUF_INIT;

		metrics_seeded_summary(&what, &m->seeded);
		strbuf_addstr(&sb, "<h2>Seeded defects</h2>\n<p class=\"note\">");
		html_escape(&sb, what.buf);
		strbuf_addstr(&sb, "</p>\n");
		metrics_seeded_html_table(&sb, &m->seeded, "seeded.");
		strbuf_release(&what);
	}
	strbuf_addstr(&sb, "<h2>Per day</h2>\n");
	table_days(&sb, m, PAGE_DAYS);
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
}

/* ---- report --by ---- */

/* One figure over the periods: a line, with the escape rate's band when lo/hi are given. */
static void chart_periods(struct strbuf *sb, const struct metrics *m, enum metrics_period by,
			  const struct metrics_day *p, size_t n, const char *id,
			  const char *what, const double *v, const double *lo, const double *hi,
			  enum chart_fmt fmt, double y_at_least)
{
	char **labels = xcalloc(n + 1, sizeof(*labels)), **notes = xcalloc(n + 1, sizeof(*notes));
	char *title = xstrfmt("%s per %s", what, metrics_period_name(by));
	char *full_title = chart_title(title, m);
	char *band = lo ? xstrfmt("%.0f%% interval (exact)", m->confidence * 100) : NULL;
	char *x_label = xstrfmt("%s (UTC; * partial), with its pairs",
				by == PERIOD_WEEK ? "week from" : metrics_period_name(by));
	struct chart_series s = { .name = what, .v = v, .lo = lo, .hi = hi, .band_name = band,
				  .style = CHART_BLUE, .value_labels = n <= 16 };
	struct chart_line c = {
		.c = { id, full_title, 0, 0 }, .nr = n,
		.labels = (const char *const *)labels, .notes = (const char *const *)notes,
		.x_label = x_label, .y_label = what, .y_fmt = fmt, .y_at_least = y_at_least,
		.series = &s, .nr_series = 1,
	};

	for (size_t i = 0; i < n; i++) {
		struct strbuf l = STRBUF_INIT;

		report_by_label(&l, &p[i], by, true);
		labels[i] = strbuf_detach(&l, NULL);
		notes[i] = xstrfmt("%" PRId64 " pairs", p[i].pairs);
	}
	chart_line_svg(sb, &c);
	for (size_t i = 0; i < n; i++) {
		free(labels[i]);
		free(notes[i]);
	}
	free(labels);
	free(notes);
	free(title);
	free(full_title);
	free(band);
	free(x_label);
}

void metrics_html_by(const struct metrics *m, enum metrics_period by,
		     const struct metrics_day *p, size_t n, int64_t now, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	double *v[7];
	char *h1 = xstrfmt("tiadash report by %s", metrics_period_name(by));

	for (size_t k = 0; k < ARRAY_SIZE(v); k++)
		v[k] = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		v[0][i] = p[i].escape_rate;
		v[1][i] = p[i].escape.ci[0];
		v[2][i] = p[i].escape.ci[1];
		v[3][i] = p[i].force_full_rate;
		v[4][i] = p[i].affected_p50;
		v[5][i] = p[i].shadow_wall_p95;
		v[6][i] = p[i].diff_coverage_mean;
	}
	page_begin(&sb, "report-by", h1, NULL, m, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n<div class=\"charts\">\n");
	chart_periods(&sb, m, by, p, n, "chart-escape-rate", "escape rate", v[0], v[1], v[2],
		      CHART_RATE, 0.05);
	chart_periods(&sb, m, by, p, n, "chart-force-full", "force-full rate", v[3], NULL, NULL,
		      CHART_RATE, 0.1);
	chart_periods(&sb, m, by, p, n, "chart-affected", "affected p50", v[4], NULL, NULL,
		      CHART_FRACTION, 0.1);
	chart_periods(&sb, m, by, p, n, "chart-shadow-p95", "shadow wall-clock p95", v[5], NULL,
		      NULL, CHART_SECONDS, 60);
	chart_periods(&sb, m, by, p, n, "chart-diff-coverage", "diff coverage mean", v[6], NULL,
		      NULL, CHART_FRACTION, 1);
	strbuf_addstr(&sb, "</div>\n");
	table_periods(&sb, p, n, SIZE_MAX, by, "periods");
	if (!n)
		strbuf_addstr(&sb, "<p class=\"note\">No head in the window.</p>\n");
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
	for (size_t k = 0; k < ARRAY_SIZE(v); k++)
		free(v[k]);
	free(h1);
}

/* ---- gate-check ---- */

static void criterion_cell(struct strbuf *sb, size_t i, const char *what,
			   const struct metrics_criterion *c, double v)
{
	struct strbuf shown = STRBUF_INIT;
	char *key = xstrfmt("criteria.%zu.%s", i, what);

	if (!strcmp(what, "threshold"))
		strbuf_addf(&shown, "%s ", metrics_op_name(c->op));
	metrics_fmt_criterion(&shown, c, v);
	html_cell(sb, key, v, shown.buf);
	strbuf_release(&shown);
	free(key);
}

static void gate_criteria(struct strbuf *sb, const struct metrics_gate *g)
{
	strbuf_addstr(sb, "<table class=\"criteria\">\n<tr><th>criterion</th>"
		      "<th class=\"num\">threshold</th><th class=\"num\">value</th>"
		      "<th>result</th></tr>\n");
	for (size_t i = 0; i < g->nr; i++) {
		const struct metrics_criterion *c = &g->criteria[i];

		strbuf_addf(sb, "<tr%s><td>", c->pass ? "" : " class=\"fail\"");
		html_escape(sb, c->label);
		if (c->advisory)
			strbuf_addstr(sb, " (advisory)");
		strbuf_addstr(sb, "</td>");
		criterion_cell(sb, i, "threshold", c, c->threshold);
		criterion_cell(sb, i, "value", c, c->value);
		strbuf_addf(sb, "<td data-key=\"criteria.%zu.pass\" data-value=\"%s\">%s</td></tr>\n",
			    i, c->pass ? "true" : "false",
			    c->pass ? "\xe2\x9c\x94 PASS" : c->advisory ? "\xe2\x9c\x98 FAIL (advisory)"
								     : "\xe2\x9c\x98 FAIL");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* One sentence: which criteria decide the verdict. */
static void gate_reason(struct strbuf *sb, const struct metrics_gate *g)
{
	size_t failing = 0, k = 0;

	for (size_t i = 0; i < g->nr; i++)
		failing += !g->criteria[i].pass && !g->criteria[i].advisory;
	if (!failing) {
		strbuf_addstr(sb, "<p class=\"lead\">Every criterion that decides passes.</p>\n");
		return;
	}
	strbuf_addf(sb, "<p class=\"lead\"><strong>%zu of %zu criteria fail%s:</strong> ", failing, g->nr,
		    failing == 1 ? "s" : "");
	for (size_t i = 0; i < g->nr; i++) {
		const struct metrics_criterion *c = &g->criteria[i];
		struct strbuf v = STRBUF_INIT, t = STRBUF_INIT;

		if (c->pass || c->advisory)
			continue;
		metrics_fmt_criterion(&v, c, c->value);
		metrics_fmt_criterion(&t, c, c->threshold);
		strbuf_addf(sb, "%s", k++ ? "; " : "");
		html_escape(sb, c->label);
		strbuf_addf(sb, " is %s, needs %s %s", v.buf, metrics_op_name(c->op), t.buf);
		strbuf_release(&v);
		strbuf_release(&t);
	}
	strbuf_addstr(sb, ".</p>\n");
}

/* Every line the text verdict has under it (trust_gate_notes). */
static void gate_notes(struct strbuf *sb, const struct metrics *m, const struct metrics_gate *g)
{
	struct strlist notes = STRLIST_INIT;

	trust_gate_notes(&notes, m, g);
	/* One paragraph, a line each: the sheet has room for lines, not margins. */
	strbuf_addstr(sb, "<p class=\"note\">");
	for (size_t i = 0; i < notes.nr; i++) {
		if (i)
			strbuf_addstr(sb, "<br>");
		html_escape(sb, notes.items[i]);
	}
	strbuf_addstr(sb, "</p>\n");
	strlist_release(&notes);
}

static const struct figure gate_figures[] = {
	FIG_D("escapes.rate", "escape rate", FIG_PCT2, escape_rate),
	FIG_I("escapes.count", "escapes", escapes),
	FIG_I("escapes.explained", "explained", escapes_explained),
	FIG_D("force_full.rate", "force-full rate", FIG_PCT1, force_full_rate),
	FIG_D("wall_clock_s.shadow.p95", "shadow p95", FIG_SECS, wall_shadow.p95),
	FIG_D("wall_clock_s.full.p95", "full p95", FIG_SECS, wall_full.p95),
};

void metrics_html_gate(const struct metrics *m, const struct metrics_gate *g,
		       int64_t now, FILE *f)
{
	const char *verdict = g->go ? "GO" : "NO-GO";
	struct strbuf sb = STRBUF_INIT, badge = STRBUF_INIT;

	strbuf_addf(&badge, "<span class=\"verdict %s\" data-key=\"verdict\" data-value=\"%s\">"
		    "%s</span>", g->go ? "go" : "nogo", verdict, verdict);
	page_begin(&sb, "gate-check", "Flip the merge gate?", badge.buf, m, now);
	strbuf_release(&badge);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n");
	gate_reason(&sb, g);
	/* The notes beside the criteria: the table leaves that third of the sheet empty. */
	strbuf_addstr(&sb, "<div class=\"beside\">\n");
	gate_criteria(&sb, g);
	gate_notes(&sb, m, g);
	strbuf_addstr(&sb, "</div>\n");
	figures(&sb, m, "report:", gate_figures, ARRAY_SIZE(gate_figures), FIGURE_TILES);
	strbuf_addstr(&sb, "<div class=\"charts\">\n");
	chart_escape_rate(&sb, m);
	chart_affected(&sb, m, g);
	chart_wall_clock(&sb, m);
	chart_diff_coverage(&sb, m);
	strbuf_addstr(&sb, "</div>\n<h2>Unexplained escapes</h2>\n");
	gate_escapes(&sb, m);
	strbuf_addstr(&sb, "<p class=\"note\">Explain one with <code>tiadash propose --explain PR "
		      "--note TEXT</code>, or close it with a force-full glob "
		      "(<code>tiadash propose</code>).</p>\n</section>\n");
	html_end(&sb);
	html_write(&sb, f);
}

/* ---- summary ---- */

static const struct figure summary_figures[] = {
	FIG_D("escapes.rate", "escape rate", FIG_PCT2, escape_rate),
	FIG_I("escapes.count", "escapes", escapes),
	FIG_I("pairs", "pairs", pairs),
	FIG_I("escapes.explained", "explained", escapes_explained),
	FIG_D("force_full.rate", "force-full rate", FIG_PCT1, force_full_rate),
};

static const struct figure previous_figures[] = {
	FIG_D("escapes.rate", "escape rate", FIG_PCT2, escape_rate),
	FIG_I("escapes.count", "escapes", escapes),
	FIG_I("pairs", "pairs", pairs),
};

void metrics_html_summary(const struct metrics_summary_page *s, int64_t now, FILE *f)
{
	const struct metrics *m = s->cur;
	struct strbuf sb = STRBUF_INIT;

	page_begin(&sb, "summary", "tiadash summary", NULL, m, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n");
	figures(&sb, m, "report:", summary_figures, ARRAY_SIZE(summary_figures), FIGURE_TILES);
	strbuf_addstr(&sb, "<h2>Against the window before</h2>\n<p>");
	{
		struct strbuf w = STRBUF_INIT;

		metrics_fmt_window(&w, s->prev, false);
		strbuf_addstr(&sb, "Previous window ");
		html_escape(&sb, w.buf);
		strbuf_addstr(&sb, ": <strong>");
		html_escape(&sb, s->trend);
		strbuf_addstr(&sb, "</strong></p>\n");
		strbuf_release(&w);
	}
	figures(&sb, s->prev, "previous:", previous_figures, ARRAY_SIZE(previous_figures),
		FIGURE_LIST);
	strbuf_addstr(&sb, "<div class=\"charts\">\n");
	chart_escape_rate(&sb, m);
	chart_reasons(&sb, m, s->max_reasons);
	strbuf_addstr(&sb, "</div>\n<h2>Escapes</h2>\n");
	table_escapes(&sb, m, "report:", s->max_escapes, s->max_tests);
	strbuf_addstr(&sb, "<h2>Top force-full reasons by cost</h2>\n");
	table_reasons(&sb, m, "report:", s->max_reasons);
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
}
