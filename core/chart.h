/*
 * Inline SVG charts for the HTML pages, written by tiadash itself: no
 * script, no font, no external resource. Every chart has a title (what it
 * shows and for which window), axes with ticks and labels, and a legend.
 * Series differ in colour (the Okabe-Ito palette, safe for colour-blind
 * readers), in shade (they read in grey print) and in shape, line style or
 * direct labels, never in colour alone.
 *
 * The charts draw; they compute no figure. Their callers hand them values
 * the metrics computed (and bin counts, see chart_bin_add), and the labels
 * of figures already formatted as the text output formats them.
 *
 * Strings (titles, labels, names) may be untrusted: they are escaped with
 * html_escape (core/sanitize.h). Nothing is owned: every pointer is
 * borrowed for the call.
 */
#ifndef TIADASH_CORE_CHART_H
#define TIADASH_CORE_CHART_H

#include "core/tiadash.h"
#include "core/util.h"

/* Colours, darkest in grey first (the order legends and series use). */
enum chart_style {
	CHART_BLUE,      /* #0072B2, dark */
	CHART_ORANGE,    /* #E69F00, light */
	CHART_VERMILION, /* #D55E00, middle */
	CHART_SKY,       /* #56B4E9, light */
	CHART_GREEN,     /* #009E73, middle */
	CHART_GREY,      /* #737373 */
	CHART_BLACK,
};

/* How axis ticks are written. */
enum chart_fmt {
	CHART_COUNT,    /* 12 */
	CHART_RATE,     /* 0.25 as 25% */
	CHART_FRACTION, /* 0.25 */
	CHART_SECONDS,  /* 600 s */
	CHART_MINUTES,  /* 12 min */
};

/* What every chart has. */
struct chart {
	const char *id;    /* unique in the page; [a-z0-9-] (ids derive from it) */
	const char *title; /* what it shows and for which window */
	int width;         /* in SVG units; 0: 560 */
	int height;        /* the plot's height; 0: 200 (hbar: from its rows) */
};

/* A series: one value per category (line) or per bin (histogram). */
struct chart_series {
	const char *name;      /* legend */
	const double *v;       /* NAN: no value */
	const double *lo, *hi; /* line only, optional: an interval drawn as a band */
	const char *band_name; /* the band's legend ("95% interval") */
	enum chart_style style;
	bool value_labels;     /* line only: each point's value above it */
	/*
	 * Line only, optional: per category, a value on too little data (a
	 * day with few pairs): drawn hollow, left out of the y scale, and
	 * where its value or band goes past the top, cut there with an arrow
	 * and the value it reaches.
	 */
	const bool *thin;
};

/* Values over categories along x (days): lines with points, optional bands. */
struct chart_line {
	struct chart c;
	size_t nr;                 /* categories */
	const char *const *labels; /* nr labels along x */
	const char *const *notes;  /* optional: a second line under each label */
	const char *x_label, *y_label;
	enum chart_fmt y_fmt;
	double y_at_least;         /* the y axis reaches at least this */
	const struct chart_series *series;
	size_t nr_series;
	const char *footnote;      /* optional, under the chart (what thin means) */
};

/*
 * A vertical line across a histogram panel, labelled at its top; labels
 * that would overlap go on lines of their own.
 */
struct chart_marker {
	double x;
	const char *label;
	enum chart_style style;
	bool dotted; /* dotted, else dashed */
};

/* One panel of a histogram: its series share its y axis. */
struct chart_panel {
	const char *name;  /* above the panel; NULL: none */
	const struct chart_series *series;
	size_t nr_series;
	bool stacked;      /* series stacked, else drawn over each other (a later
			      one inset, for a subset such as narrowed runs) */
	const struct chart_marker *markers;
	size_t nr_markers;
};

/*
 * Counts in equal bins of [lo, hi] along x; panels stacked one under the
 * other on the same x axis (shadow over full).
 */
struct chart_hist {
	struct chart c;
	double lo, hi;
	size_t bins;
	const char *x_label, *y_label;
	enum chart_fmt x_fmt;
	const struct chart_panel *panels;
	size_t nr_panels;
};

/* A column of a bar chart: one bar per row, on its own scale. */
struct chart_hbar_col {
	const char *name;         /* above the column */
	const double *v;          /* per row; NAN: n/a (no bar) */
	const char *const *notes; /* per row: the text after the bar */
	enum chart_fmt fmt;       /* the ticks under the column */
	enum chart_style style;
};

/* Ranked rows of horizontal bars, in one or more columns (closes | cost). */
struct chart_hbar {
	struct chart c;
	size_t nr_rows;
	const char *const *rows;   /* row labels, cut to fit (whole in a tooltip) */
	const bool *marked;        /* optional: rows marked with a star */
	const char *marked_name;   /* the legend of the star */
	const struct chart_hbar_col *cols;
	size_t nr_cols;
	const char *footnote;      /* optional, under the chart */
};

void chart_line_svg(struct strbuf *sb, const struct chart_line *c);
void chart_hist_svg(struct strbuf *sb, const struct chart_hist *c);
void chart_hbar_svg(struct strbuf *sb, const struct chart_hbar *c);

/*
 * Count v into counts[bins], equal bins of [lo, hi] (the last bin closed).
 * NaN and values outside [lo, hi] are not counted.
 */
void chart_bin_add(double *counts, size_t bins, double lo, double hi, double v);

/*
 * A round upper end for a histogram from 0 of values up to max, in about
 * `target` bins of a round width: *bins gets their number (1 for max <= 0).
 */
double chart_round_up(double max, size_t target, size_t *bins);

#endif
