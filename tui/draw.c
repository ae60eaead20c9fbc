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

static void put(int y, int x, const char *s, size_t n, attr_t attr)
{
	attrset(attr);
	mvaddnstr(y, x, s, (int)n);
}

static void put_blank(int y, int x, int n, attr_t attr)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		put(y, x, spaces, (size_t)k, attr);
		x += k;
		n -= k;
	}
}

void tui_draw_row(int y, int width, const struct row_data *row, bool selected)
{
	enum tui_role line_role = selected ? ROLE_CURSOR : row->role;
	attr_t line_attr = tui_role_attr(line_role);
	struct strbuf safe = STRBUF_INIT, part = STRBUF_INIT;
	int x = 0;

	for (size_t i = 0; i < row->nr && x < width; i++) {
		const struct cell *c = &row->cells[i];
		const char *s = row->text.buf + c->off;
		int w = c->width && c->width < width - x ? c->width : width - x;

		if (!c->width) {
			/* The rest of the line, less what the cells after it take. */
			int reserved = 0;

			for (size_t k = i + 1; k < row->nr; k++)
				reserved += row->cells[k].width + 1;
			w = width - x - reserved;
			if (w < 0)
				w = 0;
		}
		enum tui_role role = selected || c->role == ROLE_DEFAULT ? line_role : c->role;
		int used;

		/* Cells with nothing in them still take their column. */
		strbuf_reset(&safe);
		strbuf_reset(&part);
		sanitize_text(&safe, s, strlen(s));
		used = fit(&part, safe.buf, safe.len, w);
		if (c->right && used < w) {
			put_blank(y, x, w - used, line_attr);
			put(y, x + w - used, part.buf, part.len, tui_role_attr(role));
		} else {
			put(y, x, part.buf, part.len, tui_role_attr(role));
			put_blank(y, x + used, w - used, line_attr);
		}
		x += w;
		if (i + 1 < row->nr && x < width)
			put_blank(y, x++, 1, line_attr);
	}
	if (x < width)
		put_blank(y, x, width - x, line_attr);
	attrset(A_NORMAL);
	strbuf_release(&safe);
	strbuf_release(&part);
}

int tui_body_lines(const struct tui *t)
{
	return t->lines > 2 ? t->lines - 2 : 1;
}

/* Lines of list area (the body less the header line). */
static int list_lines(const struct tui *t, const struct view *v)
{
	int n = tui_body_lines(t) - (v->ops->header ? 1 : 0);

	return n > 0 ? n : 1;
}

static void status_line(struct tui *t, struct view *v, size_t nr)
{
	struct row_data row = ROW_DATA_INIT;
	struct strbuf left = STRBUF_INIT, right = STRBUF_INIT;

	strbuf_addf(&left, "[%s]", v->ops->name);
	if (v->ops->status) {
		size_t len = left.len;

		strbuf_addch(&left, ' ');
		v->ops->status(t, v, &left);
		if (left.len == len + 1)
			strbuf_setlen(&left, len);
	}
	if (nr)
		strbuf_addf(&right, "%zu/%zu %3zu%%", v->lineno + 1, nr,
			    nr > 1 ? (v->lineno * 100) / (nr - 1) : (size_t)100);
	row.role = ROLE_STATUS;
	row_add_str(&row, 0, ROLE_DEFAULT, left.buf);
	if (right.len)
		row_add_str(&row, -(int)right.len, ROLE_DEFAULT, right.buf);
	/* Keep the position visible: the left part gives way. */
	if (right.len && t->cols > (int)right.len + 1)
		row.cells[0].width = t->cols - (int)right.len - 1;
	tui_draw_row(t->lines - 2, t->cols, &row, false);
	row_release(&row);
	strbuf_release(&left);
	strbuf_release(&right);
}

/* Key hints from the binding table: "q back  Tab views  / filter ...". */
static void hints(struct tui *t, struct view *v, struct strbuf *sb)
{
	enum keymap maps[2] = { v->ops->keymap, KEYMAP_GENERIC };
	struct strbuf one = STRBUF_INIT;

	for (size_t m = 0; m < ARRAY_SIZE(maps); m++) {
		for (size_t i = 0; i < tui_bindings_nr; i++) {
			const struct tui_binding *b = &tui_bindings[i];
			const char *hint = tui_request_hint(b->req);

			if (b->map != maps[m] || !hint || !tui_binding_is_first(i))
				continue;
			if (m == 1 && tui_key_request(maps[0], b->key) != b->req)
				continue;
			strbuf_reset(&one);
			tui_key_name(&one, b->key);
			strbuf_addf(&one, " %s", hint);
			/* Whole hints only: stop at the first that does not fit. */
			if (tui_text_width(sb->buf) + (sb->len ? 2 : 0) +
			    tui_text_width(one.buf) > t->cols)
				goto done;
			if (sb->len)
				strbuf_addstr(sb, "  ");
			strbuf_add(sb, one.buf, one.len);
		}
		if (maps[0] == KEYMAP_GENERIC)
			break;
	}
done:
	strbuf_release(&one);
}

static void help_line(struct tui *t, struct view *v)
{
	struct row_data row = ROW_DATA_INIT;
	int y = t->lines - 1;

	if (t->prompt.active) {
		row_add(&row, 0, ROLE_DEFAULT, "%s%s", t->prompt.label, t->prompt.text.buf);
	} else if (t->message.len) {
		row_add_str(&row, 0, t->message_error ? ROLE_ERROR : ROLE_DEFAULT,
			    t->message.buf);
	} else {
		struct strbuf sb = STRBUF_INIT;

		hints(t, v, &sb);
		row_add_str(&row, 0, ROLE_HELP, sb.buf);
		strbuf_release(&sb);
	}
	tui_draw_row(y, t->cols, &row, false);
	if (t->prompt.active) {
		int x = tui_text_width(t->prompt.label) + tui_text_width(t->prompt.text.buf);

		move(y, x < t->cols ? x : t->cols - 1);
	}
	row_release(&row);
}

void tui_draw(struct tui *t)
{
	struct view *v = tui_current(t);
	struct row_data row = ROW_DATA_INIT;
	size_t nr = v->ops->lines(t, v);
	int body = tui_body_lines(t), y = 0, height = list_lines(t, v);

	if (v->lineno >= nr)
		v->lineno = nr ? nr - 1 : 0;
	if (v->lineno < v->offset)
		v->offset = v->lineno;
	if (v->lineno >= v->offset + (size_t)height)
		v->offset = v->lineno - (size_t)height + 1;
	if (v->ops->header) {
		v->ops->row_data(t, v, SIZE_MAX, &row);
		row.role = ROLE_HEADER;
		tui_draw_row(y++, t->cols, &row, false);
	}
	for (; y < body; y++) {
		size_t line = v->offset + (size_t)(y - (v->ops->header ? 1 : 0));

		row_reset(&row);
		if (line < nr)
			v->ops->row_data(t, v, line, &row);
		tui_draw_row(y, t->cols, &row, line < nr && line == v->lineno);
	}
	status_line(t, v, nr);
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
		return ROLE_WARN;
	case CLASS_INCOMPLETE:
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
