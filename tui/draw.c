/* The one place that puts text on the screen: rows of cells (sanitized, fitted to
 * display width without splitting UTF-8), the status line and the help line. */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "tui/tui.h"

#include <langinfo.h>
#include <wchar.h>

void row_reset(struct row_data *r)
{
	strbuf_reset(&r->text);
	r->nr = 0;
	r->role = ROLE_DEFAULT;
}

void row_release(struct row_data *r)
{
	strbuf_release(&r->text);
	r->nr = 0;
}

static void add_cell(struct row_data *r, int width, enum tui_role role, size_t off)
{
	struct cell *c;

	if (r->nr >= ROW_MAX_CELLS)
		BUG("too many cells in a row");
	c = &r->cells[r->nr++];
	c->off = off;
	c->width = width < 0 ? -width : width;
	c->right = width < 0;
	c->role = role;
}

void row_add(struct row_data *r, int width, enum tui_role role, const char *fmt, ...)
{
	size_t off = r->text.len;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&r->text, fmt, ap);
	va_end(ap);
	strbuf_addch(&r->text, '\0');
	add_cell(r, width, role, off);
}

void row_add_str(struct row_data *r, int width, enum tui_role role, const char *s)
{
	size_t off = r->text.len;

	strbuf_addstr(&r->text, s ? s : "");
	strbuf_addch(&r->text, '\0');
	add_cell(r, width, role, off);
}

void row_text(const struct row_data *r, struct strbuf *out)
{
	for (size_t i = 0; i < r->nr; i++) {
		const char *s = r->text.buf + r->cells[i].off;

		if (i && out->len && out->buf[out->len - 1] != ' ')
			strbuf_addch(out, ' ');
		sanitize_text(out, s, strlen(s));
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
}

void row_copy(struct row_data *dst, const struct row_data *src)
{
	strbuf_reset(&dst->text);
	strbuf_add(&dst->text, src->text.buf, src->text.len);
	memcpy(dst->cells, src->cells, sizeof(src->cells));
	dst->nr = src->nr;
	dst->role = src->role;
}

struct row_data *row_list_add(struct row_list *l)
{
	struct row_data *r;

	ALLOC_GROW(l->rows, l->nr + 1, l->alloc);
	r = &l->rows[l->nr++];
	*r = (struct row_data)ROW_DATA_INIT;
	return r;
}

void row_list_clear(struct row_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		row_release(&l->rows[i]);
	l->nr = 0;
}

void row_list_release(struct row_list *l)
{
	row_list_clear(l);
	free(l->rows);
	l->rows = NULL;
	l->alloc = 0;
}

void row_list_save(const struct row_list *l, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < l->nr; i++) {
		strbuf_reset(&sb);
		row_text(&l->rows[i], &sb);
		fprintf(f, "%s\n", sb.buf);
	}
	strbuf_release(&sb);
}

/* Width of the character at s (n bytes), 1 for anything odd. */
static int char_width(const char *s, size_t n, size_t *len)
{
	mbstate_t st;
	wchar_t wc;
	size_t k;
	int w;

	memset(&st, 0, sizeof(st));
	k = mbrtowc(&wc, s, n, &st);
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		*len = 1;
		return 1;
	}
	*len = k;
	w = wcwidth(wc);
	return w < 0 ? 1 : w;
}

int tui_text_width(const char *s)
{
	struct strbuf safe = STRBUF_INIT;
	int w = 0;

	sanitize_text(&safe, s, strlen(s));
	for (size_t i = 0; i < safe.len;) {
		size_t len;

		w += char_width(safe.buf + i, safe.len - i, &len);
		i += len;
	}
	strbuf_release(&safe);
	return w;
}

/*
 * Append to out the part of s (sanitized already) that fits in `width`
 * columns, whole characters only; a cut is marked with '~'. Returns the
 * columns used.
 */
static int fit(struct strbuf *out, const char *s, size_t n, int width)
{
	int used = 0;
	size_t i = 0, cut = 0;
	int cut_used = 0;

	while (i < n) {
		size_t len;
		int w = char_width(s + i, n - i, &len);

		if (used + w > width) {
			/* Too long: keep what fits in width - 1, then '~'. */
			strbuf_add(out, s, cut);
			if (width > 0) {
				strbuf_addch(out, '~');
				cut_used++;
			}
			return cut_used;
		}
		used += w;
		i += len;
		if (used <= width - 1) {
			cut = i;
			cut_used = used;
		}
	}
	strbuf_add(out, s, n);
	return used;
}

/*
 * Where a row is drawn: screen line y, screen columns [0, width) showing
 * the row's columns [xoff, xoff + width) (a view scrolled right).
 */
struct span {
	int y, width, xoff;
};

/* Put the n bytes at s from the row's column x: only the whole characters inside the span. */
static void put(const struct span *sp, int x, const char *s, size_t n, attr_t attr)
{
	size_t i = 0, j;
	int col = x, end;

	while (i < n && col < sp->xoff) {
		size_t len;

		col += char_width(s + i, n - i, &len);
		i += len;
	}
	for (j = i, end = col; j < n;) {
		size_t len;
		int w = char_width(s + j, n - j, &len);

		if (end + w > sp->xoff + sp->width)
			break;
		end += w;
		j += len;
	}
	if (j > i) {
		attrset(attr);
		mvaddnstr(sp->y, col - sp->xoff, s + i, (int)(j - i));
	}
}

static void put_blank(const struct span *sp, int x, int n, attr_t attr)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		put(sp, x, spaces, (size_t)k, attr);
		x += k;
		n -= k;
	}
}

/* Display width of n bytes of sanitized text. */
static int width_of(const char *s, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n;) {
		size_t len;

		w += char_width(s + i, n - i, &len);
		i += len;
	}
	return w;
}

/* A cut flexible cell keeps at least this many columns, else it waits for a scroll right. */
#define MIN_CUT_CELL 8

/*
 * The columns each cell of a row gets on a line `width` wide. Fixed cells
 * get their width and width-0 cells (flexible) what is left, in order, each
 * as much as its text needs and the last one the rest. Then a fixed cell
 * whose text is longer than its width grows into what the flexible cells
 * (or the end of the line) leave unused: only the last cell is ever cut
 * while there is room. A column is drawn whole or not at all: a fixed cell
 * past the end of the line is left out with every cell after it, and so is
 * a flexible one that would be cut to fewer than MIN_CUT_CELL columns
 * (never the first cell). Returns the cells drawn.
 */
static size_t layout(const struct row_data *row, const struct strbuf *texts, int width,
		     int *w)
{
	int need[ROW_MAX_CELLS], fixed = 0, last_flex = -1, left, slack, x = 0;

	for (size_t i = 0; i < row->nr; i++) {
		need[i] = width_of(texts[i].buf, texts[i].len);
		if (row->cells[i].width)
			fixed += row->cells[i].width;
		else
			last_flex = (int)i;
		if (i + 1 < row->nr)
			fixed++; /* the separating space */
	}
	left = width - fixed;
	for (size_t i = 0; i < row->nr; i++) {
		if (row->cells[i].width) {
			w[i] = row->cells[i].width;
			continue;
		}
		w[i] = (int)i == last_flex ? left : need[i] < left ? need[i] : left;
		if (w[i] < 0)
			w[i] = 0;
		left -= w[i];
	}
	/* Unused room: the last flexible cell's, or the end of the line's. */
	slack = last_flex >= 0 ? w[last_flex] - need[last_flex] : left;
	for (size_t i = 0; i < row->nr && slack > 0; i++) {
		int more = need[i] - w[i];

		if (!row->cells[i].width || more <= 0)
			continue;
		if (more > slack)
			more = slack;
		w[i] += more;
		slack -= more;
		if (last_flex >= 0)
			w[last_flex] -= more;
	}
	for (size_t i = 0; i < row->nr; i++) {
		int room = width - x;
		bool cut = w[i] > room || (!row->cells[i].width && need[i] > w[i]);

		if (i && cut && (row->cells[i].width || room < MIN_CUT_CELL))
			return i;
		x += w[i] + 1;
	}
	return row->nr;
}

/* The columns a row takes when nothing is cut: how far a view scrolls right. */
static int row_full_width(const struct row_data *row)
{
	int x = 0;

	for (size_t i = 0; i < row->nr; i++) {
		const char *s = row->text.buf + row->cells[i].off;
		int need = tui_text_width(s);

		if (i)
			x++;
		x += row->cells[i].width > need ? row->cells[i].width : need;
	}
	return x;
}

/* Draw the matches of hl in the n bytes at s, drawn from column x. */
static void highlight(const struct span *sp, int x, const char *s, size_t n,
		      struct tui_regex *hl)
{
	size_t off = 0, a, b;

	while (off <= n && tui_regex_find(hl, s, n, off, &a, &b)) {
		if (b > a)
			put(sp, x + width_of(s, a), s + a, b - a, tui_role_attr(ROLE_MATCH));
		off = b > a ? b : b + 1;
	}
}

/* Draw row on line y, its columns from xoff on (a view scrolled right) in width. */
static void draw_row_from(int y, int width, int xoff, const struct row_data *row,
			  bool selected, struct tui_regex *hl)
{
	enum tui_role line_role = selected ? ROLE_CURSOR : row->role;
	attr_t line_attr = tui_role_attr(line_role);
	struct strbuf texts[ROW_MAX_CELLS], part = STRBUF_INIT;
	const struct span sp = { y, width, xoff };
	int w[ROW_MAX_CELLS];
	int x = 0, end = width + xoff;
	size_t shown;

	for (size_t i = 0; i < row->nr; i++) {
		const char *s = row->text.buf + row->cells[i].off;

		texts[i] = (struct strbuf)STRBUF_INIT;
		sanitize_text(&texts[i], s, strlen(s));
	}
	shown = layout(row, texts, end, w);
	for (size_t i = 0; i < shown && x < end; i++) {
		const struct cell *c = &row->cells[i];
		enum tui_role role = selected || c->role == ROLE_DEFAULT ? line_role : c->role;
		int cw = w[i] < end - x ? w[i] : end - x, used, at;

		/* Cells with nothing in them still take their column. */
		strbuf_reset(&part);
		used = fit(&part, texts[i].buf, texts[i].len, cw);
		at = c->right && used < cw ? x + cw - used : x;
		put_blank(&sp, x, cw, line_attr);
		put(&sp, at, part.buf, part.len, tui_role_attr(role));
		if (hl)
			highlight(&sp, at, part.buf, part.len, hl);
		x += cw;
		if (i + 1 < shown && x < end)
			put_blank(&sp, x++, 1, line_attr);
	}
	if (x < end)
		put_blank(&sp, x, end - x, line_attr);
	attrset(A_NORMAL);
	for (size_t i = 0; i < row->nr; i++)
		strbuf_release(&texts[i]);
	strbuf_release(&part);
}

void tui_draw_row(int y, int width, const struct row_data *row, bool selected,
		  struct tui_regex *hl)
{
	draw_row_from(y, width, 0, row, selected, hl);
}

/* The tab bar, the body, the status line and the help line. */
#define BODY_TOP 1

int tui_body_lines(const struct tui *t)
{
	return t->lines > 3 ? t->lines - 3 : 1;
}

/* Lines of list area (the body less the header line). */
static int list_lines(const struct tui *t, const struct view *v)
{
	int n = tui_body_lines(t) - (v->ops->header ? 1 : 0);

	return n > 0 ? n : 1;
}

int tui_list_top(const struct tui *t, const struct view *v)
{
	UNUSED(t);
	return BODY_TOP + (v->ops->header ? 1 : 0);
}

/*
 * The tab bar: " 1 overview  2 runs  3 disagreements  4 proposals", the
 * current main view marked, then the view above it ("› detail #434").
 * Tab i's columns are [x0[i], x1[i]) (for the mouse).
 */
static void tab_bar(struct tui *t, struct row_data *row, int *x0, int *x1)
{
	struct view *cur = tui_current(t);
	int x = 0;
	enum view_id main = VIEW_OVERVIEW;

	for (size_t i = t->depth; i-- > 0;) {
		if (t->stack[i] < NR_MAIN_VIEWS) {
			main = t->stack[i];
			break;
		}
	}
	row->role = ROLE_TAB;
	for (int i = 0; i < NR_MAIN_VIEWS; i++) {
		const char *name = t->views[i].ops->name;
		bool on = i == (int)main;
		int len = (int)strlen(name) + 4;

		row_add(row, len, on ? ROLE_TAB_CURRENT : ROLE_DEFAULT, "%c%d %s%c",
			on ? '[' : ' ', i + 1, name, on ? ']' : ' ');
		x0[i] = x;
		x1[i] = x + len;
		x += len + 1;
	}
	if (cur != &t->views[main])
		row_add(row, 0, ROLE_TAB_CURRENT, "> %s", cur->ops->name);
}

enum view_id tui_tab_at(struct tui *t, int x)
{
	struct row_data row = ROW_DATA_INIT;
	int x0[NR_MAIN_VIEWS], x1[NR_MAIN_VIEWS];
	enum view_id id = NR_VIEWS;

	tab_bar(t, &row, x0, x1);
	for (int i = 0; i < NR_MAIN_VIEWS; i++)
		if (x >= x0[i] && x < x1[i])
			id = (enum view_id)i;
	row_release(&row);
	return id;
}

/* more: the lines go on past the right edge (> scrolls to them). */
static void status_text(struct tui *t, struct view *v, bool more, struct strbuf *left)
{
	if (v->ops->status)
		v->ops->status(t, v, left);
	if (v->search.pattern && !v->ops->filter)
		strbuf_addf(left, "%ssearch /%s/", left->len ? "; " : "", v->search.pattern);
	if (v->xoffset)
		strbuf_addf(left, "%sfrom column %d", left->len ? "; " : "", v->xoffset + 1);
	if (more)
		strbuf_addf(left, "%s> scrolls right", left->len ? "; " : "");
}

static void status_line(struct tui *t, struct view *v, size_t nr, bool more)
{
	struct row_data row = ROW_DATA_INIT;
	struct strbuf left = STRBUF_INIT, right = STRBUF_INIT;

	status_text(t, v, more, &left);
	if (nr)
		strbuf_addf(&right, "%zu/%zu %3zu%%", v->lineno + 1, nr,
			    nr > 1 ? (v->lineno * 100) / (nr - 1) : (size_t)100);
	row.role = ROLE_STATUS;
	row_add_str(&row, 0, ROLE_DEFAULT, left.buf);
	if (right.len)
		row_add_str(&row, -(int)right.len, ROLE_DEFAULT, right.buf);
	tui_draw_row(t->lines - 2, t->cols, &row, false, NULL);
	row_release(&row);
	strbuf_release(&left);
	strbuf_release(&right);
}

/*
 * Key hints from the binding table: "q back  <Tab> views  / filter ...",
 * whole hints only. With at: the request of the hint at column x, or
 * REQ_NONE.
 */
static enum request hints(struct tui *t, struct view *v, struct strbuf *sb, int at)
{
	enum keymap maps[2] = { v->ops->keymap, KEYMAP_GENERIC };
	struct strbuf one = STRBUF_INIT;
	enum request found = REQ_NONE;

	for (size_t m = 0; m < ARRAY_SIZE(maps); m++) {
		for (size_t i = 0; i < tui_bindings_nr; i++) {
			const struct tui_binding *b = &tui_bindings[i];
			const char *hint = tui_request_hint(b->req);
			int x;

			if (b->map != maps[m] || !hint || !tui_binding_is_first(i))
				continue;
			if (m == 1 && tui_key_request(maps[0], b->key) != b->req)
				continue;
			strbuf_reset(&one);
			tui_key_name(&one, b->key);
			strbuf_addf(&one, " %s", hint);
			x = tui_text_width(sb->buf) + (sb->len ? 2 : 0);
			if (x + tui_text_width(one.buf) > t->cols)
				goto done;
			if (at >= x && at < x + tui_text_width(one.buf))
				found = b->req;
			if (sb->len)
				strbuf_addstr(sb, "  ");
			strbuf_add(sb, one.buf, one.len);
		}
		if (maps[0] == KEYMAP_GENERIC)
			break;
	}
done:
	strbuf_release(&one);
	return found;
}

enum request tui_hint_at(struct tui *t, int x)
{
	struct strbuf sb = STRBUF_INIT;
	enum request r = t->prompt.active || t->message.len ? REQ_NONE :
		hints(t, tui_current(t), &sb, x);

	strbuf_release(&sb);
	return r;
}

/*
 * Where a message too long for the help line breaks: the last space that
 * leaves its first part within cols (else cols), so a long message takes
 * the status line too instead of being cut.
 */
static size_t message_break(const char *s, int cols)
{
	size_t cut = 0, last_space = 0;
	int w = 0;

	while (s[cut]) {
		size_t len;
		int cw = char_width(s + cut, strlen(s + cut), &len);

		if (w + cw > cols)
			return last_space ? last_space : cut;
		if (s[cut] == ' ')
			last_space = cut;
		w += cw;
		cut += len;
	}
	return cut;
}

static void help_line(struct tui *t, struct view *v)
{
	struct row_data row = ROW_DATA_INIT;
	int y = t->lines - 1;

	if (t->prompt.active) {
		row_add(&row, 0, ROLE_DEFAULT, "%s%s", t->prompt.label, t->prompt.text.buf);
		if (t->message.len) {
			/* What the typing caused (a bad pattern): on the status line. */
			struct row_data msg = ROW_DATA_INIT;

			row_add_str(&msg, 0, t->message_error ? ROLE_ERROR : ROLE_DEFAULT,
				    t->message.buf);
			tui_draw_row(y - 1, t->cols, &msg, false, NULL);
			row_release(&msg);
		}
	} else if (t->message.len) {
		enum tui_role role = t->message_error ? ROLE_ERROR : ROLE_DEFAULT;
		struct strbuf safe = STRBUF_INIT;

		sanitize_text(&safe, t->message.buf, t->message.len);
		if (tui_text_width(safe.buf) > t->cols) {
			size_t cut = message_break(safe.buf, t->cols);
			struct row_data first = ROW_DATA_INIT;

			row_add(&first, 0, role, "%.*s", (int)cut, safe.buf);
			tui_draw_row(y - 1, t->cols, &first, false, NULL);
			row_release(&first);
			row_add_str(&row, 0, role, safe.buf + cut + (safe.buf[cut] == ' '));
		} else {
			row_add_str(&row, 0, role, safe.buf);
		}
		strbuf_release(&safe);
	} else {
		struct strbuf sb = STRBUF_INIT;

		hints(t, v, &sb, -1);
		row_add_str(&row, 0, ROLE_HELP, sb.buf);
		strbuf_release(&sb);
	}
	tui_draw_row(y, t->cols, &row, false, NULL);
	if (t->prompt.active) {
		int x = tui_text_width(t->prompt.label) + tui_text_width(t->prompt.text.buf);

		move(y, x < t->cols ? x : t->cols - 1);
	}
	row_release(&row);
}

/*
 * A view scrolls right no further than its widest visible line (the
 * header's too) needs to be seen whole: a resize or a shorter page pulls
 * it back. Returns that width.
 */
static int clamp_xoffset(struct tui *t, struct view *v, size_t nr, int height)
{
	struct row_data row = ROW_DATA_INIT;
	int widest = 0;

	if (v->ops->header) {
		v->ops->row_data(t, v, SIZE_MAX, &row);
		widest = row_full_width(&row);
	}
	for (size_t line = v->offset; line < nr && line < v->offset + (size_t)height; line++) {
		int w;

		row_reset(&row);
		v->ops->row_data(t, v, line, &row);
		w = row_full_width(&row);
		if (w > widest)
			widest = w;
	}
	row_release(&row);
	if (v->xoffset > widest - t->cols)
		v->xoffset = widest > t->cols ? widest - t->cols : 0;
	return widest;
}

void tui_draw(struct tui *t)
{
	struct view *v = tui_current(t);
	struct row_data row = ROW_DATA_INIT;
	size_t nr = v->ops->lines(t, v);
	int bottom = BODY_TOP + tui_body_lines(t), y = BODY_TOP, height = list_lines(t, v);
	int x0[NR_MAIN_VIEWS], x1[NR_MAIN_VIEWS], widest;
	struct tui_regex *hl = v->search.re;

	if (v->lineno >= nr)
		v->lineno = nr ? nr - 1 : 0;
	if (v->lineno < v->offset)
		v->offset = v->lineno;
	if (v->lineno >= v->offset + (size_t)height)
		v->offset = v->lineno - (size_t)height + 1;
	tab_bar(t, &row, x0, x1);
	tui_draw_row(0, t->cols, &row, false, NULL);
	row_reset(&row);
	widest = clamp_xoffset(t, v, nr, height);
	if (v->ops->header) {
		v->ops->row_data(t, v, SIZE_MAX, &row);
		row.role = ROLE_HEADER;
		draw_row_from(y++, t->cols, v->xoffset, &row, false, NULL);
	}
	for (; y < bottom; y++) {
		size_t line = v->offset + (size_t)(y - tui_list_top(t, v));

		row_reset(&row);
		if (line < nr)
			v->ops->row_data(t, v, line, &row);
		draw_row_from(y, t->cols, v->xoffset, &row, line < nr && line == v->lineno, hl);
	}
	status_line(t, v, nr, widest > v->xoffset + t->cols);
	help_line(t, v);
	curs_set(t->prompt.active ? 1 : 0);
	wnoutrefresh(stdscr);
	row_release(&row);
}

void tui_fmt_time(struct strbuf *sb, int64_t ms)
{
	int64_t y;
	unsigned mo, d;
	int64_t day = day_of(ms), in_day = ms - day * MS_PER_DAY;

	civil_from_days(day, &y, &mo, &d);
	strbuf_addf(sb, "%04" PRId64 "-%02u-%02u %02d:%02d", y, mo, d,
		    (int)(in_day / 3600000), (int)(in_day / 60000 % 60));
}

void tui_fmt_short_time(struct strbuf *sb, int64_t ms)
{
	struct strbuf full = STRBUF_INIT;

	tui_fmt_time(&full, ms);
	strbuf_addstr(sb, full.buf + 5);
	strbuf_release(&full);
}

enum tui_role tui_class_role(enum pair_class c)
{
	switch (c) {
	case CLASS_AGREE:
		return ROLE_GOOD;
	case CLASS_ESCAPE:
	case CLASS_NON_HERMETIC:
		return ROLE_BAD;
	case CLASS_FLAKY:
	case CLASS_OVER_STRICT:
	case CLASS_INHERITED:
	case CLASS_UNRESOLVED:
		return ROLE_WARN;
	case CLASS_INCOMPLETE:
	case CLASS_MAIN:
		return ROLE_DIM;
	}
	return ROLE_DEFAULT;
}

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

void tui_sparkline(struct strbuf *sb, const double *v, size_t n)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ascii[] = "_.-:=+*#";
	bool utf8 = utf8_locale();
	double max = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > max)
			max = v[i];
	for (size_t i = 0; i < n; i++) {
		int level;

		if (isnan(v[i])) {
			strbuf_addch(sb, ' ');
			continue;
		}
		level = max > 0 ? (int)lround(v[i] / max * 7.0) : 0;
		if (level < 0)
			level = 0;
		if (level > 7)
			level = 7;
		if (utf8)
			strbuf_addstr(sb, blocks[level]);
		else
			strbuf_addch(sb, ascii[level]);
	}
}
