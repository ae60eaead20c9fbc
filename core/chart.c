/* Inline SVG charts: lines with interval bands, histograms, ranked horizontal bars. */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/sanitize.h"

#define DEFAULT_WIDTH 560
#define DEFAULT_HEIGHT 200
#define CHAR_W 6.4     /* rough width of a character at font-size 11 */
#define INK "#1a1a1a"
#define AXIS "#595959"
#define GRID "#e3e3e3"

static const char *const colours[] = {
	[CHART_BLUE] = "#0072B2", [CHART_ORANGE] = "#E69F00",
	[CHART_VERMILION] = "#D55E00", [CHART_SKY] = "#56B4E9",
	[CHART_GREEN] = "#009E73", [CHART_GREY] = "#737373",
	[CHART_BLACK] = "#000000",
};

/* Line styles of the series of a line chart, by position. */
static const char *const dashes[] = { NULL, "6 3", "2 3" };

/* The plot area inside the SVG. */
struct frame {
	double width, height;
	double left, right, top, bottom;
};

/* ---- writing SVG ---- */

/* A coordinate: one decimal, no trailing ".0", no "-0". */
static void num(struct strbuf *sb, double v)
{
	char buf[32];
	size_t n;

	snprintf(buf, sizeof(buf), "%.1f", isfinite(v) ? v : 0.0);
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = '\0';
	strbuf_addstr(sb, strcmp(buf, "-0") ? buf : "0");
}

/* ` name="v"` for a number. */
static void att(struct strbuf *sb, const char *name, double v)
{
	strbuf_addf(sb, " %s=\"", name);
	num(sb, v);
	strbuf_addch(sb, '"');
}

static const char *colour(enum chart_style s)
{
	return (size_t)s < ARRAY_SIZE(colours) ? colours[s] : colours[CHART_GREY];
}

/* The characters s shows once sanitized, at most max (what text_cut leaves of it). */
static size_t chars_upto(const char *s, size_t max)
{
	size_t n = sanitized_chars(s);

	return n < max ? n : max;
}

/* s escaped, cut to `max` characters ending in an ellipsis when longer. */
static void text_cut(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf cut = STRBUF_INIT;

	sanitize_cut(&cut, s, max, "\xe2\x80\xa6");
	html_escape(sb, cut.buf);
	strbuf_release(&cut);
}

/* <text x y [anchor] [extra]>s</text>, s escaped and cut to max characters. */
static void text_at(struct strbuf *sb, double x, double y, const char *anchor,
		    const char *extra, const char *s, size_t max)
{
	strbuf_addstr(sb, "<text");
	att(sb, "x", x);
	att(sb, "y", y);
	if (anchor)
		strbuf_addf(sb, " text-anchor=\"%s\"", anchor);
	if (extra)
		strbuf_addf(sb, " %s", extra);
	strbuf_addch(sb, '>');
	text_cut(sb, s, max);
	strbuf_addstr(sb, "</text>\n");
}

static void line_at(struct strbuf *sb, double x1, double y1, double x2, double y2,
		    const char *stroke, const char *extra)
{
	strbuf_addstr(sb, "<line");
	att(sb, "x1", x1);
	att(sb, "y1", y1);
	att(sb, "x2", x2);
	att(sb, "y2", y2);
	strbuf_addf(sb, " stroke=\"%s\"%s%s/>\n", stroke, extra ? " " : "", extra ? extra : "");
}

/* A <rect ...: the tag is left open, for "/>" or a <title> child. */
static void rect_at(struct strbuf *sb, double x, double y, double w, double h,
		    const char *fill, const char *stroke)
{
	strbuf_addstr(sb, "<rect");
	att(sb, "x", x);
	att(sb, "y", y);
	att(sb, "width", w > 0 ? w : 0);
	att(sb, "height", h > 0 ? h : 0);
	strbuf_addf(sb, " fill=\"%s\"", fill);
	if (stroke)
		strbuf_addf(sb, " stroke=\"%s\"", stroke);
}

static double chart_width(const struct chart *c)
{
	return c->width > 0 ? c->width : DEFAULT_WIDTH;
}

static double chart_height(const struct chart *c)
{
	return c->height > 0 ? c->height : DEFAULT_HEIGHT;
}

/* The title on one line: smaller when long (down to 10), cut when longer still. */
static void title_at(struct strbuf *sb, double w, const char *title)
{
	double em = 0.62, size = 13, chars = (double)sanitized_chars(title);
	char extra[64];

	if (chars * em * size > w)
		size = w / (chars * em);
	if (size < 10)
		size = 10;
	snprintf(extra, sizeof(extra), "font-size=\"%.1f\" font-weight=\"bold\"", size);
	text_at(sb, 0, 15, NULL, extra, title, (size_t)(w / (em * size)));
}

static void svg_begin(struct strbuf *sb, const struct chart *c, double w, double h)
{
	strbuf_addf(sb, "<svg id=\"%s\" class=\"chart\"", c->id);
	strbuf_addstr(sb, " viewBox=\"0 0 ");
	num(sb, w);
	strbuf_addch(sb, ' ');
	num(sb, h);
	strbuf_addch(sb, '"');
	att(sb, "width", w);
	att(sb, "height", h);
	strbuf_addf(sb, " role=\"img\" aria-labelledby=\"%s-t\" font-family=\"DejaVu Sans, "
		    "Liberation Sans, Arial, sans-serif\" font-size=\"11\" fill=\"%s\">\n"
		    "<title id=\"%s-t\">", c->id, INK, c->id);
	html_escape(sb, c->title);
	strbuf_addstr(sb, "</title>\n");
	title_at(sb, w, c->title);
}

static void svg_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</svg>\n");
}

/* A message in the middle of an empty plot. */
static void no_data(struct strbuf *sb, const struct frame *f, const char *what)
{
	text_at(sb, (f->left + f->right) / 2, (f->top + f->bottom) / 2, "middle",
		"fill=\"" AXIS "\"", what, 80);
}

/* ---- legends ---- */

enum swatch { SWATCH_BAR, SWATCH_INSET, SWATCH_BAND, SWATCH_LINE };

struct legend {
	struct strbuf *sb;
	double x, y;
};

/* A point of series `index`: circle, square or diamond. */
/* A point of series `index` in colour col: filled, or hollow (white, outlined in col). */
static void point_at(struct strbuf *sb, double x, double y, size_t index, const char *col,
		     bool hollow)
{
	const char *fill = hollow ? "#fff" : col, *stroke = hollow ? col : "#fff";

	switch (index % 3) {
	case 0:
		strbuf_addstr(sb, "<circle");
		att(sb, "cx", x);
		att(sb, "cy", y);
		strbuf_addf(sb, " r=\"3.5\" fill=\"%s\" stroke=\"%s\"", fill, stroke);
		break;
	case 1:
		rect_at(sb, x - 3.5, y - 3.5, 7, 7, fill, stroke);
		break;
	default:
		strbuf_addstr(sb, "<path d=\"M");
		num(sb, x);
		strbuf_addch(sb, ',');
		num(sb, y - 4.5);
		strbuf_addstr(sb, "l4.5,4.5l-4.5,4.5l-4.5,-4.5z\"");
		strbuf_addf(sb, " fill=\"%s\" stroke=\"%s\"", fill, stroke);
	}
	strbuf_addstr(sb, hollow ? " stroke-width=\"1.5\"/>\n" : "/>\n");
}

static void legend_item(struct legend *l, enum swatch kind, enum chart_style style,
			size_t index, const char *name)
{
	struct strbuf *sb = l->sb;
	const char *fill = colour(style);

	switch (kind) {
	case SWATCH_BAR:
		rect_at(sb, l->x, l->y - 9, 10, 10, fill, NULL);
		strbuf_addstr(sb, "/>\n");
		break;
	case SWATCH_INSET:
		rect_at(sb, l->x + 2.5, l->y - 9, 5, 10, fill, NULL);
		strbuf_addstr(sb, "/>\n");
		break;
	case SWATCH_BAND:
		rect_at(sb, l->x, l->y - 9, 10, 10, fill, NULL);
		strbuf_addstr(sb, " fill-opacity=\"0.2\"/>\n");
		break;
	case SWATCH_LINE: {
		struct strbuf extra = STRBUF_INIT;

		strbuf_addstr(&extra, "stroke-width=\"2\"");
		if (dashes[index % ARRAY_SIZE(dashes)])
			strbuf_addf(&extra, " stroke-dasharray=\"%s\"",
				    dashes[index % ARRAY_SIZE(dashes)]);
		line_at(sb, l->x - 4, l->y - 4, l->x + 14, l->y - 4, fill, extra.buf);
		point_at(sb, l->x + 5, l->y - 4, index, fill, false);
		strbuf_release(&extra);
		break;
	}
	}
	text_at(sb, l->x + 16, l->y, NULL, NULL, name, 60);
	l->x += 28 + CHAR_W * (double)chars_upto(name, 60);
}

/* ---- scales and ticks ---- */

/* A step of 1, 2 or 5 times a power of ten giving about `target` ticks. */
static double nice_step(double span, int target, bool integer)
{
	double raw, mag, f, step;

	if (!(span > 0))
		span = 1;
	raw = span / target;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	return integer && step < 1 ? 1 : step;
}

/* The axis top: a multiple of step at or above max (at least one step). */
static double axis_top(double max, double step)
{
	double top = ceil(max / step - 1e-9) * step;

	return top > 0 ? top : step;
}

static int decimals_of(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6)
		d++;
	return d;
}

static void tick_label(struct strbuf *sb, enum chart_fmt fmt, double v, double step)
{
	int d = decimals_of(fmt == CHART_RATE ? step * 100 : step);

	switch (fmt) {
	case CHART_RATE:
		strbuf_addf(sb, "%.*f%%", d, v * 100);
		break;
	case CHART_FRACTION:
		strbuf_addf(sb, "%.*f", d ? d : 1, v);
		break;
	case CHART_SECONDS:
		strbuf_addf(sb, "%.*f s", d, v);
		break;
	case CHART_MINUTES:
		strbuf_addf(sb, "%.*f min", d, v);
		break;
	case CHART_COUNT:
		strbuf_addf(sb, "%.*f", d, v);
		break;
	}
}

/* A point's value, one decimal finer than the axis. */
static void value_label(struct strbuf *sb, enum chart_fmt fmt, double v)
{
	switch (fmt) {
	case CHART_RATE:
		strbuf_addf(sb, "%.1f%%", v * 100);
		break;
	case CHART_FRACTION:
		strbuf_addf(sb, "%.2f", v);
		break;
	case CHART_SECONDS:
		strbuf_addf(sb, "%.0f s", v);
		break;
	case CHART_MINUTES:
		strbuf_addf(sb, "%.1f min", v);
		break;
	case CHART_COUNT:
		strbuf_addf(sb, "%.0f", v);
		break;
	}
}

/* Gridlines and labels of a y axis from 0 to top, between f->top and f->bottom. */
static void y_axis(struct strbuf *sb, const struct frame *f, double top, double step,
		   enum chart_fmt fmt)
{
	for (double v = 0; v <= top + step / 2; v += step) {
		double y = f->bottom - v / top * (f->bottom - f->top);
		struct strbuf label = STRBUF_INIT;

		if (v > 0)
			line_at(sb, f->left, y, f->right, y, GRID, NULL);
		tick_label(&label, fmt, v, step);
		text_at(sb, f->left - 5, y + 4, "end", NULL, label.buf, 16);
		strbuf_release(&label);
	}
	line_at(sb, f->left, f->top, f->left, f->bottom, AXIS, NULL);
	line_at(sb, f->left, f->bottom, f->right, f->bottom, AXIS, NULL);
}

/* A label turned along the y axis, centred on the plot. */
static void y_title(struct strbuf *sb, const struct frame *f, const char *label)
{
	if (!label)
		return;
	strbuf_addstr(sb, "<text transform=\"translate(11,");
	num(sb, (f->top + f->bottom) / 2);
	strbuf_addstr(sb, ") rotate(-90)\" text-anchor=\"middle\">");
	text_cut(sb, label, 40);
	strbuf_addstr(sb, "</text>\n");
}

/* ---- line chart ---- */

static bool has_band(const struct chart_series *s)
{
	return s->lo && s->hi;
}

static bool is_thin(const struct chart_series *s, size_t i)
{
	return s->thin && s->thin[i];
}

/* The y of v on a scale to top: a value past the top is cut there. */
static double y_of(const struct frame *f, double v, double top)
{
	return f->bottom - (v < top ? v : top) / top * (f->bottom - f->top);
}

static double line_max(const struct chart_line *c, bool *any)
{
	double max = c->y_at_least > 0 ? c->y_at_least : 0;

	*any = false;
	for (size_t k = 0; k < c->nr_series; k++) {
		const struct chart_series *s = &c->series[k];

		for (size_t i = 0; i < c->nr; i++) {
			double v = s->v[i];

			if (is_thin(s, i)) /* no scale for the few pairs' wide bands */
				continue;
			if (has_band(s) && isfinite(s->hi[i]) && s->hi[i] > max)
				max = s->hi[i];
			if (!isfinite(v))
				continue;
			*any = true;
			if (v > max)
				max = v;
		}
	}
	return max;
}

/* The band of s: one closed path per run of days with both bounds. */
static double slot_x(const struct frame *f, size_t i, size_t nr)
{
	return f->left + ((double)i + 0.5) * (f->right - f->left) / (double)nr;
}

static void line_band(struct strbuf *sb, const struct chart_series *s, size_t nr,
		      const struct frame *f, double top)
{
	size_t i = 0;

	while (i < nr) {
		size_t j;

		if (!isfinite(s->lo[i]) || !isfinite(s->hi[i])) {
			i++;
			continue;
		}
		for (j = i; j < nr && isfinite(s->lo[j]) && isfinite(s->hi[j]); j++)
			;
		strbuf_addstr(sb, "<path d=\"");
		for (size_t k = i; k < j; k++) {
			strbuf_addch(sb, k == i ? 'M' : 'L');
			num(sb, slot_x(f, k, nr) - (i + 1 == j ? 4 : 0));
			strbuf_addch(sb, ',');
			num(sb, y_of(f, s->hi[k], top));
		}
		if (i + 1 == j) { /* a single day: a short bar */
			strbuf_addch(sb, 'L');
			num(sb, slot_x(f, i, nr) + 4);
			strbuf_addch(sb, ',');
			num(sb, y_of(f, s->hi[i], top));
			strbuf_addch(sb, 'L');
			num(sb, slot_x(f, i, nr) + 4);
			strbuf_addch(sb, ',');
			num(sb, y_of(f, s->lo[i], top));
		}
		for (size_t k = j; k-- > i;) {
			strbuf_addch(sb, 'L');
			num(sb, slot_x(f, k, nr) - (i + 1 == j ? 4 : 0));
			strbuf_addch(sb, ',');
			num(sb, y_of(f, s->lo[k], top));
		}
		strbuf_addf(sb, "Z\" fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\"/>\n",
			    colour(s->style));
		i = j;
	}
}

static void line_series(struct strbuf *sb, const struct chart_line *c, size_t k,
			const struct frame *f, double top)
{
	const struct chart_series *s = &c->series[k];
	const char *col = colour(s->style);
	bool open = false;

	for (size_t i = 0; i <= c->nr; i++) {
		bool have = i < c->nr && isfinite(s->v[i]);

		if (have && !open) {
			strbuf_addstr(sb, "<polyline points=\"");
			open = true;
		} else if (!have && open) {
			strbuf_addf(sb, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"", col);
			if (dashes[k % ARRAY_SIZE(dashes)])
				strbuf_addf(sb, " stroke-dasharray=\"%s\"",
					    dashes[k % ARRAY_SIZE(dashes)]);
			strbuf_addstr(sb, "/>\n");
			open = false;
		}
		if (have) {
			num(sb, slot_x(f, i, c->nr));
			strbuf_addch(sb, ',');
			num(sb, y_of(f, s->v[i], top));
			strbuf_addch(sb, ' ');
		}
	}
	for (size_t i = 0; i < c->nr; i++) {
		double x = slot_x(f, i, c->nr), y;
		struct strbuf v = STRBUF_INIT;

		if (!isfinite(s->v[i]))
			continue;
		y = y_of(f, s->v[i], top);
		point_at(sb, x, y, k, col, is_thin(s, i));
		if (s->value_labels && c->nr <= 16) {
			value_label(&v, c->y_fmt, s->v[i]);
			text_at(sb, x, y - 7, "middle", "font-size=\"10\" paint-order=\"stroke\" "
				"stroke=\"#fff\" stroke-width=\"3\"", v.buf, 12);
		}
		strbuf_release(&v);
	}
}

static void line_x_labels(struct strbuf *sb, const struct chart_line *c, const struct frame *f)
{
	size_t widest = 1, every;
	double slot = (f->right - f->left) / (double)c->nr, widest_w;

	for (size_t i = 0; i < c->nr; i++) {
		size_t n = sanitized_chars(c->labels[i]);
		size_t note = c->notes ? sanitized_chars(c->notes[i]) : 0;

		if (note * 10 > n * 11) /* notes are smaller */
			n = (note * 10 + 10) / 11;
		if (n > widest)
			widest = n;
	}
	widest_w = CHAR_W * (double)widest;
	every = (size_t)ceil((widest_w + 4) / slot);
	if (every < 1)
		every = 1;
	for (size_t i = 0; i < c->nr; i += every) {
		double x = slot_x(f, i, c->nr);

		line_at(sb, x, f->bottom, x, f->bottom + 4, AXIS, NULL);
		text_at(sb, x, f->bottom + 15, "middle", NULL, c->labels[i], 16);
		if (c->notes)
			text_at(sb, x, f->bottom + 28, "middle", "font-size=\"10\" fill=\"" AXIS "\"",
				c->notes[i], 16);
	}
}

/*
 * Where a series' value or band goes past the top of the scale (a thin
 * category's), an arrow at the top says how far: "↑ 41%".
 */
static void line_cuts(struct strbuf *sb, const struct chart_line *c, size_t k,
		      const struct frame *f, double top)
{
	const struct chart_series *s = &c->series[k];

	for (size_t i = 0; i < c->nr; i++) {
		double v = has_band(s) && isfinite(s->hi[i]) ? s->hi[i] : s->v[i];
		struct strbuf label = STRBUF_INIT;

		if (!isfinite(v) || v <= top * (1 + 1e-9))
			continue;
		strbuf_addstr(&label, "\xe2\x86\x91 ");
		value_label(&label, c->y_fmt, v);
		text_at(sb, slot_x(f, i, c->nr), f->top + 10, "middle",
			"font-size=\"10\" paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\"",
			label.buf, 12);
		strbuf_release(&label);
	}
}

void chart_line_svg(struct strbuf *sb, const struct chart_line *c)
{
	struct frame f;
	bool legend = c->nr_series > 1, any;
	double max, step, top;

	for (size_t k = 0; k < c->nr_series; k++)
		legend |= has_band(&c->series[k]);
	f.width = chart_width(&c->c);
	f.left = 58;
	f.right = f.width - 10;
	f.top = legend ? 44 : 28;
	f.bottom = f.top + chart_height(&c->c);
	f.height = f.bottom + 22 + (c->notes ? 13 : 0) + (c->x_label ? 16 : 0) +
		   (c->footnote ? 14 : 0);
	svg_begin(sb, &c->c, f.width, f.height);
	if (legend) {
		struct legend l = { sb, f.left, 33 };

		for (size_t k = 0; k < c->nr_series; k++) {
			legend_item(&l, SWATCH_LINE, c->series[k].style, k, c->series[k].name);
			if (has_band(&c->series[k]))
				legend_item(&l, SWATCH_BAND, c->series[k].style, k,
					    c->series[k].band_name ? c->series[k].band_name
								   : "interval");
		}
	}
	max = line_max(c, &any);
	step = nice_step(max, 4, c->y_fmt == CHART_COUNT);
	top = axis_top(max, step);
	y_axis(sb, &f, top, step, c->y_fmt);
	y_title(sb, &f, c->y_label);
	if (c->x_label)
		text_at(sb, (f.left + f.right) / 2, f.height - 4 - (c->footnote ? 14 : 0), "middle",
			NULL, c->x_label, 80);
	if (c->footnote)
		text_at(sb, f.left, f.height - 4, NULL, "font-size=\"10\" fill=\"" AXIS "\"",
			c->footnote, 100);
	if (!any || !c->nr) {
		no_data(sb, &f, "no values in this window");
		svg_end(sb);
		return;
	}
	line_x_labels(sb, c, &f);
	for (size_t k = 0; k < c->nr_series; k++)
		if (has_band(&c->series[k]))
			line_band(sb, &c->series[k], c->nr, &f, top);
	for (size_t k = 0; k < c->nr_series; k++) {
		line_series(sb, c, k, &f, top);
		line_cuts(sb, c, k, &f, top);
	}
	svg_end(sb);
}

/* ---- histogram ---- */

void chart_bin_add(double *counts, size_t bins, double lo, double hi, double v)
{
	size_t i;

	if (!bins || !(v >= lo && v <= hi) || !(hi > lo))
		return;
	i = (size_t)((v - lo) / (hi - lo) * (double)bins);
	counts[i < bins ? i : bins - 1] += 1;
}

double chart_round_up(double max, size_t target, size_t *bins)
{
	double step, top;

	if (!(max > 0) || !target) {
		*bins = 1;
		return 1;
	}
	step = nice_step(max, (int)target, false);
	top = axis_top(max, step);
	*bins = (size_t)llround(top / step);
	return top;
}

static double hist_x(const struct chart_hist *c, const struct frame *f, double v)
{
	return f->left + (v - c->lo) / (c->hi - c->lo) * (f->right - f->left);
}

static double panel_max(const struct chart_hist *c, const struct chart_panel *p)
{
	double max = 0;

	for (size_t i = 0; i < c->bins; i++) {
		double sum = 0;

		for (size_t k = 0; k < p->nr_series; k++) {
			double v = p->series[k].v[i];

			if (!isfinite(v))
				continue;
			if (p->stacked)
				sum += v;
			else if (v > sum)
				sum = v;
		}
		if (sum > max)
			max = sum;
	}
	return max;
}

/* "NAME: N in [A, B)" for a bar's tooltip. */
static void bar_title(struct strbuf *sb, const struct chart_hist *c, const char *name,
		      double count, size_t bin)
{
	double width = (c->hi - c->lo) / (double)c->bins;
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(&t, "%s: %.0f in [", name ? name : "", count);
	tick_label(&t, c->x_fmt, c->lo + (double)bin * width, width);
	strbuf_addstr(&t, ", ");
	tick_label(&t, c->x_fmt, c->lo + (double)(bin + 1) * width, width);
	strbuf_addstr(&t, bin + 1 == c->bins ? "]" : ")");
	strbuf_addstr(sb, "><title>");
	html_escape(sb, t.buf);
	strbuf_addstr(sb, "</title></rect>\n");
	strbuf_release(&t);
}

static void hist_bars(struct strbuf *sb, const struct chart_hist *c, const struct chart_panel *p,
		      const struct frame *f, double top)
{
	double bin_w = (f->right - f->left) / (double)c->bins;

	for (size_t i = 0; i < c->bins; i++) {
		double base = 0;

		for (size_t k = 0; k < p->nr_series; k++) {
			const struct chart_series *s = &p->series[k];
			double v = s->v[i], inset = p->stacked ? 0.5 : 0.5 + bin_w * 0.2 * (double)k;
			double y0, y1;

			if (!isfinite(v) || v <= 0)
				continue;
			if (inset > bin_w / 2 - 1)
				inset = bin_w / 2 - 1;
			y0 = f->bottom - base / top * (f->bottom - f->top);
			y1 = f->bottom - (base + v) / top * (f->bottom - f->top);
			rect_at(sb, f->left + (double)i * bin_w + inset, y1, bin_w - 2 * inset,
				y0 - y1, colour(s->style), NULL);
			bar_title(sb, c, s->name, v, i);
			if (p->stacked)
				base += v;
		}
	}
}

/* A marker's label as placed: columns [x0, x1) on line row under the panel's top. */
struct label_box {
	double x0, x1;
	int row;
};

/* The first line (from the top) where [x0, x1) clears every label placed. */
static int free_row(const struct label_box *placed, size_t nr, double x0, double x1)
{
	for (int row = 0;; row++) {
		size_t i;

		for (i = 0; i < nr; i++)
			if (placed[i].row == row && x0 < placed[i].x1 + 6 && placed[i].x0 < x1 + 6)
				break;
		if (i == nr)
			return row;
	}
}

static void hist_markers(struct strbuf *sb, const struct chart_hist *c,
			 const struct chart_panel *p, const struct frame *f)
{
	struct label_box *placed = xcalloc(p->nr_markers + 1, sizeof(*placed));
	size_t nr = 0;

	for (size_t k = 0; k < p->nr_markers; k++) {
		const struct chart_marker *m = &p->markers[k];
		double x = hist_x(c, f, m->x), w;
		bool right = x > (f->left + f->right) / 2;
		struct strbuf extra = STRBUF_INIT;
		struct label_box *b = &placed[nr];

		if (!isfinite(m->x) || m->x < c->lo || m->x > c->hi)
			continue;
		w = CHAR_W * (double)chars_upto(m->label, 40);
		b->x0 = right ? x - 4 - w : x + 4;
		b->x1 = b->x0 + w;
		b->row = free_row(placed, nr++, b->x0, b->x1);
		strbuf_addf(&extra, "stroke-width=\"2\" stroke-dasharray=\"%s\"",
			    m->dotted ? "2 2" : "6 3");
		line_at(sb, x, f->top, x, f->bottom, colour(m->style), extra.buf);
		text_at(sb, right ? x - 4 : x + 4, f->top + 11 + 14 * (double)b->row,
			right ? "end" : NULL,
			"paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\"", m->label, 40);
		strbuf_release(&extra);
	}
	free(placed);
}

static void hist_legend(struct strbuf *sb, const struct chart_hist *c, double y)
{
	struct legend l = { sb, 58, y };

	for (size_t p = 0; p < c->nr_panels; p++) {
		const struct chart_panel *panel = &c->panels[p];

		for (size_t k = 0; panel->nr_series > 1 && k < panel->nr_series; k++)
			legend_item(&l, !panel->stacked && k ? SWATCH_INSET : SWATCH_BAR,
				    panel->series[k].style, k, panel->series[k].name);
	}
}

static void hist_x_axis(struct strbuf *sb, const struct chart_hist *c, const struct frame *f)
{
	double step = nice_step(c->hi - c->lo, 5, false);

	for (double v = ceil(c->lo / step - 1e-9) * step; v <= c->hi + step * 1e-6; v += step) {
		double x = hist_x(c, f, v);
		struct strbuf label = STRBUF_INIT;

		if (fabs(v) < step * 1e-9)
			v = 0; /* no "-0" */
		tick_label(&label, c->x_fmt, v, step);
		line_at(sb, x, f->bottom, x, f->bottom + 4, AXIS, NULL);
		text_at(sb, x, f->bottom + 15, "middle", NULL, label.buf, 16);
		strbuf_release(&label);
	}
	if (c->x_label)
		text_at(sb, (f->left + f->right) / 2, f->bottom + 30, "middle", NULL, c->x_label, 80);
}

void chart_hist_svg(struct strbuf *sb, const struct chart_hist *c)
{
	bool legend = false, names = false, any = false;
	double w = chart_width(&c->c), plot_top, panel_h, gap = 12, head;
	struct frame all;

	for (size_t p = 0; p < c->nr_panels; p++) {
		legend |= c->panels[p].nr_series > 1;
		names |= c->panels[p].name != NULL;
	}
	head = names ? 15 : 0;
	plot_top = legend ? 44 : 28;
	panel_h = (chart_height(&c->c) - gap * (double)(c->nr_panels ? c->nr_panels - 1 : 0)) /
		  (double)(c->nr_panels ? c->nr_panels : 1) - head;
	all.width = w;
	all.left = 58;
	all.right = w - 10;
	all.top = plot_top;
	all.bottom = plot_top + chart_height(&c->c);
	all.height = all.bottom + 20 + (c->x_label ? 16 : 0);
	svg_begin(sb, &c->c, w, all.height);
	if (legend)
		hist_legend(sb, c, 33);
	for (size_t p = 0; p < c->nr_panels; p++) {
		const struct chart_panel *panel = &c->panels[p];
		struct frame f = all;
		double max = panel_max(c, panel), step = nice_step(max, 3, true);

		f.top = plot_top + (double)p * (panel_h + head + gap) + head;
		f.bottom = f.top + panel_h;
		if (panel->name)
			text_at(sb, f.left, f.top - 4, NULL, "font-weight=\"bold\"", panel->name, 70);
		y_axis(sb, &f, axis_top(max, step), step, CHART_COUNT);
		if (max <= 0 || !(c->hi > c->lo) || !c->bins) {
			no_data(sb, &f, "no values in this window");
		} else {
			hist_bars(sb, c, panel, &f, axis_top(max, step));
			any = true;
		}
		hist_markers(sb, c, panel, &f);
	}
	y_title(sb, &all, c->y_label);
	if (any)
		hist_x_axis(sb, c, &all);
	svg_end(sb);
}

/* ---- ranked horizontal bars ---- */

static void hbar_column(struct strbuf *sb, const struct chart_hbar *c, size_t k, double x0,
			double col_w, double rows_top, double row_h)
{
	const struct chart_hbar_col *col = &c->cols[k];
	double max = 0, step, top, bar_max;
	double axis_y = rows_top + (double)c->nr_rows * row_h + 2;
	size_t widest = 0;
	struct strbuf top_label = STRBUF_INIT;

	for (size_t i = 0; i < c->nr_rows; i++) {
		size_t note = col->notes && col->notes[i] ? sanitized_chars(col->notes[i]) : 0;

		if (isfinite(col->v[i]) && col->v[i] > max)
			max = col->v[i];
		if (note > widest)
			widest = note;
	}
	/* The bars leave room for the notes after them, within reason. */
	bar_max = col_w - CHAR_W * (double)widest - 8;
	if (bar_max < col_w * 0.3)
		bar_max = col_w * 0.3;
	if (bar_max > col_w * 0.75)
		bar_max = col_w * 0.75;
	step = nice_step(max, 2, col->fmt == CHART_COUNT);
	top = axis_top(max, step);
	/* Ticks too close for their labels: the axis shows 0 and its top only. */
	tick_label(&top_label, col->fmt, top, step);
	if (bar_max * step / top < CHAR_W * (double)sanitized_chars(top_label.buf) + 8)
		step = top;
	strbuf_release(&top_label);
	text_at(sb, x0, rows_top - 5, NULL, "font-weight=\"bold\"", col->name,
		(size_t)(col_w / CHAR_W));
	for (double v = 0; v <= top + step / 2; v += step) {
		double x = x0 + v / top * bar_max;
		struct strbuf label = STRBUF_INIT;

		if (v > 0)
			line_at(sb, x, rows_top, x, axis_y, GRID, NULL);
		line_at(sb, x, axis_y, x, axis_y + 4, AXIS, NULL);
		tick_label(&label, col->fmt, v, step);
		text_at(sb, x, axis_y + 15, "middle", NULL, label.buf, 16);
		strbuf_release(&label);
	}
	line_at(sb, x0, rows_top, x0, axis_y, AXIS, NULL);
	line_at(sb, x0, axis_y, x0 + bar_max, axis_y, AXIS, NULL);
	for (size_t i = 0; i < c->nr_rows; i++) {
		double y = rows_top + (double)i * row_h, v = col->v[i];
		double len = isfinite(v) && v > 0 ? v / top * bar_max : 0;
		bool marked = c->marked && c->marked[i];

		if (len > 0) {
			rect_at(sb, x0, y + 4, len, row_h - 8,
				colour(marked ? CHART_VERMILION : col->style), NULL);
			strbuf_addstr(sb, "/>\n");
		}
		if (col->notes && col->notes[i])
			text_at(sb, x0 + len + 4, y + row_h / 2 + 4, NULL, NULL, col->notes[i],
				(size_t)((col_w - len - 4) / CHAR_W));
	}
}

void chart_hbar_svg(struct strbuf *sb, const struct chart_hbar *c)
{
	double w = chart_width(&c->c), row_h = 20, top = c->marked ? 46 : 30;
	double label_w = c->nr_cols > 1 ? w * 0.34 : w * 0.40, gap = 16;
	double rows_top = top + 14, col_w, h;
	struct frame f;

	col_w = (w - label_w - 6 - gap * (double)(c->nr_cols ? c->nr_cols - 1 : 0)) /
		(double)(c->nr_cols ? c->nr_cols : 1);
	h = rows_top + (double)(c->nr_rows ? c->nr_rows : 2) * row_h + 24 + (c->footnote ? 16 : 0);
	svg_begin(sb, &c->c, w, h);
	if (c->marked) {
		struct legend l = { sb, label_w + 6, 33 };

		legend_item(&l, SWATCH_BAR, CHART_VERMILION, 0, c->marked_name ? c->marked_name : "marked");
	}
	if (!c->nr_rows) {
		f = (struct frame){ w, h, 0, w, rows_top, rows_top + 2 * row_h };
		no_data(sb, &f, "nothing in this window");
		svg_end(sb);
		return;
	}
	for (size_t i = 0; i < c->nr_rows; i++) {
		double y = rows_top + (double)i * row_h + row_h / 2 + 4;
		bool marked = c->marked && c->marked[i];
		struct strbuf label = STRBUF_INIT;

		strbuf_addstr(&label, marked ? "\xe2\x98\x85 " : "");
		strbuf_addstr(&label, c->rows[i]);
		strbuf_addstr(sb, "<g>");
		text_at(sb, label_w, y, "end", NULL, label.buf, (size_t)((label_w - 4) / CHAR_W));
		strbuf_addstr(sb, "<title>");
		html_escape(sb, c->rows[i]);
		strbuf_addstr(sb, "</title></g>\n");
		strbuf_release(&label);
	}
	for (size_t k = 0; k < c->nr_cols; k++)
		hbar_column(sb, c, k, label_w + 6 + (double)k * (col_w + gap), col_w, rows_top, row_h);
	if (c->footnote)
		text_at(sb, label_w + 6, h - 4, NULL, "fill=\"" AXIS "\"", c->footnote, 90);
	svg_end(sb);
}
