/* The row model of table-shaped output: typed cells, one writer per format. */
#include "core/tiadash.h"
#include "core/table.h"
#include "core/json.h"
#include "core/html.h"
#include "core/output.h"
#include "core/sanitize.h"
#include "core/textfit.h"
#include "core/timeutil.h"

void table_release(struct table *t)
{
	for (size_t i = 0; i < t->nr_cells; i++) {
		free(t->cells[i].s);
		for (size_t k = 0; k < t->cells[i].nr_items; k++)
			free(t->cells[i].items[k]);
		free(t->cells[i].items);
		for (size_t k = 0; k < t->cells[i].nr_parts; k++)
			free(t->cells[i].parts[k].s);
		free(t->cells[i].parts);
		free(t->cells[i].data_key);
		free(t->cells[i].data_word);
	}
	free(t->cells);
	t->cells = NULL;
	t->nr_rows = t->nr_cells = t->alloc = 0;
}

void table_row(struct table *t)
{
	if (t->nr_cells != t->nr_rows * t->nr_cols)
		BUG("table row %zu has %zu of %zu cells", t->nr_rows,
		    t->nr_cells - (t->nr_rows - 1) * t->nr_cols, t->nr_cols);
	t->nr_rows++;
}

static bool stringy(enum cell_type type)
{
	return type <= CELL_CODE;
}

static bool fractional(enum cell_type type)
{
	return type == CELL_RATE || type == CELL_SECONDS || type == CELL_MINUTES ||
	       type == CELL_SETTING;
}

static struct table_cell *next_cell(struct table *t, bool string, bool number)
{
	size_t col = t->nr_cells - (t->nr_rows - 1) * t->nr_cols;
	enum cell_type type;
	struct table_cell *c;

	if (!t->nr_rows || col >= t->nr_cols)
		BUG("table cell outside a row");
	type = t->cols[col].type;
	if (string != stringy(type) || number != fractional(type))
		BUG("table column '%s' given a cell of another type", t->cols[col].key);
	if (t->nr_cells == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->cells = xrealloc(t->cells, t->alloc * sizeof(*t->cells));
	}
	c = &t->cells[t->nr_cells++];
	memset(c, 0, sizeof(*c));
	return c;
}

static enum cell_type cur_type(const struct table *t)
{
	return t->cols[t->nr_cells - (t->nr_rows - 1) * t->nr_cols].type;
}

void table_str(struct table *t, const char *s)
{
	struct table_cell *c = next_cell(t, true, false);

	c->null = !s;
	c->s = s ? xstrdup(s) : NULL;
}

void table_list(struct table *t, const struct strlist *l)
{
	struct table_cell *c = next_cell(t, true, false);

	if (l->nr > UINT32_MAX)
		BUG("a list cell of %zu strings", l->nr);
	c->items = xcalloc(l->nr + 1, sizeof(*c->items));
	c->nr_items = (uint32_t)l->nr;
	for (size_t k = 0; k < l->nr; k++)
		c->items[k] = xstrdup(l->items[k]);
}

void table_word(struct table *t, const char *s)
{
	table_str(t, s);
	t->cells[t->nr_cells - 1].word = true;
}

void table_note(struct table *t, const char *note)
{
	if (!t->nr_cells || t->nr_cells <= (t->nr_rows - 1) * t->nr_cols ||
	    !stringy(t->cols[(t->nr_cells - 1) % t->nr_cols].type))
		BUG("table_note without a string cell before it");
	t->cells[t->nr_cells - 1].note = note;
}

void table_lead(struct table *t, const char *lead)
{
	if (!t->nr_cells || t->nr_cells <= (t->nr_rows - 1) * t->nr_cols ||
	    !stringy(t->cols[(t->nr_cells - 1) % t->nr_cols].type))
		BUG("table_lead without a string cell before it");
	t->cells[t->nr_cells - 1].lead = lead;
}

/* The row's last cell, for what follows its value; what names the caller. */
static struct table_cell *last_cell(struct table *t, const char *what)
{
	if (!t->nr_cells || t->nr_cells <= (t->nr_rows - 1) * t->nr_cols)
		BUG("%s without a cell before it", what);
	return &t->cells[t->nr_cells - 1];
}

void table_part(struct table *t, enum part_sep sep, enum part_kind kind, const char *s)
{
	struct table_cell *c = last_cell(t, "table_part");

	if (c->nr_parts == UINT32_MAX)
		BUG("a cell of %" PRIu32 " parts", c->nr_parts);
	c->parts = xrealloc(c->parts, (c->nr_parts + 1) * sizeof(*c->parts));
	c->parts[c->nr_parts++] = (struct table_part){ xstrdup(s), kind, sep };
}

void table_color(struct table *t, const char *sgr)
{
	last_cell(t, "table_color")->sgr = sgr;
}

void table_data(struct table *t, const char *key, double v)
{
	struct table_cell *c = last_cell(t, "table_data");

	free(c->data_key);
	free(c->data_word);
	c->data_key = xstrdup(key);
	c->data_word = NULL;
	c->data_num = v;
}

void table_data_word(struct table *t, const char *key, const char *word)
{
	table_data(t, key, NAN);
	t->cells[t->nr_cells - 1].data_word = xstrdup(word);
}

void table_pr(struct table *t, bool known, int64_t pr)
{
	struct table_cell *c;

	if (t->nr_rows && cur_type(t) != CELL_PR)
		BUG("table_pr for a column not of pull requests");
	c = next_cell(t, false, false);
	c->i = pr;
	c->null = !known;
}

void table_count(struct table *t, int64_t v)
{
	if (t->nr_rows && cur_type(t) != CELL_COUNT)
		BUG("table_count for a column not of counts");
	next_cell(t, false, false)->i = v;
}

void table_count_known(struct table *t, bool known, int64_t v)
{
	if (known)
		table_count(t, v);
	else
		table_null(t);
}

void table_number(struct table *t, double v)
{
	struct table_cell *c = next_cell(t, false, true);

	c->d = v;
	c->null = isnan(v);
}

void table_time(struct table *t, int64_t ms)
{
	struct table_cell *c;

	if (t->nr_rows && cur_type(t) != CELL_TIME && cur_type(t) != CELL_BOUND &&
	    cur_type(t) != CELL_DATE)
		BUG("table_time for a column not of times");
	c = next_cell(t, false, false);
	c->i = ms;
	c->null = ms == INT64_MIN || ms == INT64_MAX;
}

void table_bool(struct table *t, bool v)
{
	if (t->nr_rows && cur_type(t) != CELL_BOOL)
		BUG("table_bool for a column not of booleans");
	next_cell(t, false, false)->i = v;
}

void table_null(struct table *t)
{
	size_t col = t->nr_cells - (t->nr_rows ? t->nr_rows - 1 : 0) * t->nr_cols;
	enum cell_type type = t->nr_rows && col < t->nr_cols ? t->cols[col].type : CELL_TEXT;

	next_cell(t, stringy(type), fractional(type))->null = true;
}

static bool shown(const struct table_column *c, enum output_format f)
{
	return !c->formats || (c->formats & f);
}

static bool numeric_type(enum cell_type type)
{
	return (type >= CELL_COUNT && type <= CELL_MINUTES) || type == CELL_SETTING ||
	       type == CELL_PR;
}

/* Aligned right: a number, or a column its command aligns so. */
static bool numeric(const struct table_column *c)
{
	return numeric_type(c->type) || c->right;
}

/* A number as people read it (text, md, html). */
static void put_number(struct strbuf *sb, const struct table_column *col,
		       const struct table_cell *c)
{
	enum cell_type type = col->type;
	int places = col->places ? col->places : 1;

	if ((col->delta || col->plain) && fractional(type)) {
		strbuf_addf(sb, col->delta ? "%+.*f" : "%.*f", places, c->d);
		return;
	}
	switch (type) {
	case CELL_COUNT: strbuf_addint(sb, c->i, 0); break;
	case CELL_RATE: strbuf_addf(sb, "%.*f%%", places, 100 * c->d); break;
	/* A tenth of a second matters below ten seconds, not above. */
	case CELL_SECONDS: strbuf_addf(sb, c->d < 10 ? "%.1f s" : "%.0f s", c->d); break;
	case CELL_MINUTES: strbuf_addf(sb, "%.1f min", c->d); break;
	case CELL_SETTING: strbuf_addf(sb, "%g", c->d); break;
	case CELL_PR:
		strbuf_addch(sb, '#');
		strbuf_addint(sb, c->i, 0);
		break;
	default: break;
	}
}

/* A string cell's one string in format f, escaped by the column's type. */
static void put_string(struct strbuf *sb, enum output_format f, enum cell_type type, const char *s)
{
	if (f == FORMAT_CSV) {
		csv_field(sb, s);
	} else if (f == FORMAT_MD && (type == CELL_ID || type == CELL_PATH)) {
		/* A code span shows it as written; a '|' would end the cell. */
		struct strbuf code = STRBUF_INIT;

		md_code(&code, s);
		for (size_t i = 0; i < code.len; i++) {
			if (code.buf[i] == '|')
				strbuf_addch(sb, '\\');
			strbuf_addch(sb, code.buf[i]);
		}
		strbuf_release(&code);
	} else if (f == FORMAT_MD) {
		md_escape(sb, s);
	} else if (f == FORMAT_HTML && type == CELL_CODE) {
		html_code(sb, s);
	} else if (f == FORMAT_HTML) {
		html_escape(sb, s);
	} else {
		sanitize_text(sb, s, strlen(s));
	}
}

/* A cell's parts (table_part), in the formats people read. */
static void put_parts(struct strbuf *sb, enum output_format f, const struct table_cell *c)
{
	for (size_t k = 0; k < c->nr_parts; k++) {
		const struct table_part *p = &c->parts[k];

		switch (p->sep) {
		case PART_JOINED: break;
		case PART_SPACE: strbuf_addch(sb, ' '); break;
		case PART_COMMA: strbuf_addstr(sb, ", "); break;
		case PART_LINE: strbuf_addstr(sb, f == FORMAT_TEXT ? "; " : "<br>"); break;
		}
		if (f == FORMAT_HTML && p->kind == PART_NOWRAP) {
			html_nowrap(sb, p->s);
		} else if (f == FORMAT_HTML && p->kind == PART_MORE) {
			strbuf_addstr(sb, "<span class=\"more\">");
			html_escape(sb, p->s);
			strbuf_addstr(sb, "</span>");
		} else {
			/* CODE is an ID but in html, where CELL_CODE is html_code's. */
			put_string(sb, f, p->kind != PART_CODE ? CELL_TEXT :
				   f == FORMAT_HTML ? CELL_CODE : CELL_ID, p->s);
		}
	}
}

/* The one cell writer per format: every escaping decision is here. */
static void put_cell(struct strbuf *sb, enum output_format f, const struct table_column *col,
		     const struct table_cell *c)
{
	enum cell_type type = col->type;

	if (c->null) {
		if (col->na && f != FORMAT_CSV)
			strbuf_addstr(sb, col->na);
		else if (f == FORMAT_TEXT || type == CELL_BOUND)
			strbuf_addch(sb, '-');
		return;
	}
	switch (type) {
	case CELL_TEXT:
	case CELL_CLASS:
	case CELL_ID:
	case CELL_PATH:
	case CELL_CODE:
		if (c->lead && f != FORMAT_CSV)
			strbuf_addstr(sb, c->lead);
		if (c->word && f == FORMAT_MD) {
			strbuf_addstr(sb, c->s);
		} else if (f == FORMAT_HTML && col->html_nowrap && !c->items) {
			html_nowrap(sb, c->s);
		} else if (c->items && f == FORMAT_CSV) {
			struct strbuf joined = STRBUF_INIT;

			for (size_t k = 0; k < c->nr_items; k++)
				strbuf_addf(&joined, "%s%s", k ? ";" : "", c->items[k]);
			csv_field(sb, joined.buf);
			strbuf_release(&joined);
		} else if (c->items) {
			for (size_t k = 0; k < c->nr_items; k++) {
				if (k)
					strbuf_addstr(sb, f == FORMAT_TEXT ? ", " : "<br>");
				put_string(sb, f, type, c->items[k]);
			}
		} else {
			put_string(sb, f, type, c->s);
		}
		if (c->note && f != FORMAT_CSV)
			strbuf_addf(sb, " %s", c->note);
		break;
	case CELL_RATE:
	case CELL_SECONDS:
	case CELL_MINUTES:
		if (f == FORMAT_CSV && col->decimals)
			strbuf_addf(sb, "%.*f", col->decimals, c->d);
		else if (f == FORMAT_CSV)
			strbuf_addf(sb, "%.17g", c->d);
		else
			put_number(sb, col, c);
		break;
	case CELL_PR:
		if (f == FORMAT_CSV)
			strbuf_addf(sb, "%" PRId64, c->i);
		else
			put_number(sb, col, c);
		break;
	case CELL_COUNT:
	case CELL_SETTING:
		put_number(sb, col, c);
		break;
	case CELL_DATE:
		if (f == FORMAT_CSV)
			time_format(sb, c->i);
		else
			time_format_date(sb, c->i);
		break;
	case CELL_BOUND:
		time_format(sb, c->i);
		break;
	case CELL_TIME:
		if (f == FORMAT_TEXT)
			time_format_date(sb, c->i);
		else
			time_format(sb, c->i);
		break;
	case CELL_BOOL:
		strbuf_addstr(sb, c->i ? "yes" : "no");
		break;
	}
	if (f == FORMAT_TEXT || f == FORMAT_MD || f == FORMAT_HTML)
		put_parts(sb, f, c);
}

static const struct table_cell *cell(const struct table *t, size_t row, size_t col)
{
	return &t->cells[row * t->nr_cols + col];
}

static const char *head(const struct table_column *c)
{
	return c->head ? c->head : c->key;
}

/*
 * The columns format f shows (text or md), in its order (text_order,
 * md_order, or as listed); the caller frees *order.
 */
static size_t shown_columns(const struct table *t, enum output_format f, size_t **order)
{
	const size_t *own = f == FORMAT_TEXT ? t->text_order : t->md_order;
	size_t n = own ? (f == FORMAT_TEXT ? t->nr_text_order : t->nr_md_order) : t->nr_cols;
	size_t shown_nr = 0;

	*order = xcalloc(n + 1, sizeof(**order));
	for (size_t k = 0; k < n; k++) {
		size_t col = own ? own[k] : k;

		if (col >= t->nr_cols)
			BUG("a table's order names column %zu of %zu", col, t->nr_cols);
		if (shown(&t->cols[col], f))
			(*order)[shown_nr++] = col;
	}
	return shown_nr;
}

/*
 * A text_fixed column's cell s: cut to its text_width (text_cut), then
 * padded to it in characters, on the left when aligned right, else on the
 * right unless it is the line's last.
 */
static void put_fixed(struct strbuf *sb, const struct table_column *c, const char *s,
		      bool right, bool last)
{
	size_t w = c->text_width > 0 ? (size_t)c->text_width : 0;
	size_t len = strlen(s), n = utf8_chars(s, len);
	const char *cut = "";

	if (c->text_cut && n > w) {
		/* As many whole characters as leave room for the "...". */
		n = w >= 3 ? w - 3 : 0;
		len = utf8_prefix(s, len, n);
		if (w >= 3) {
			cut = "...";
			n += 3;
		}
	}
	if (right && n < w)
		strbuf_addchars(sb, ' ', w - n);
	strbuf_add(sb, s, len);
	strbuf_addstr(sb, cut);
	if (!right && !last && n < w)
		strbuf_addchars(sb, ' ', w - n);
}

static void write_text(const struct table *t, struct strbuf *sb)
{
	size_t *order, shown_nr = shown_columns(t, FORMAT_TEXT, &order);
	size_t *width = xcalloc(t->nr_cols + 1, sizeof(*width));
	struct strbuf *text = xcalloc(t->nr_rows * t->nr_cols + 1, sizeof(*text));

	for (size_t i = 0; i < t->nr_rows * t->nr_cols; i++)
		text[i] = (struct strbuf)STRBUF_INIT;
	for (size_t col = 0; col < t->nr_cols; col++) {
		width[col] = strlen(head(&t->cols[col]));
		if (t->cols[col].text_width > 0 && width[col] < (size_t)t->cols[col].text_width)
			width[col] = (size_t)t->cols[col].text_width;
	}
	for (size_t row = 0; row < t->nr_rows; row++) {
		for (size_t k = 0; k < shown_nr; k++) {
			size_t col = order[k];
			struct strbuf *s = &text[row * t->nr_cols + col];

			put_cell(s, FORMAT_TEXT, &t->cols[col], cell(t, row, col));
			if (s->len > width[col])
				width[col] = s->len;
		}
	}
	for (size_t row = t->no_header ? 1 : 0; row <= t->nr_rows; row++) {
		for (size_t k = 0; k < shown_nr; k++) {
			const struct table_column *c = &t->cols[order[k]];
			const char *s = row ? text[(row - 1) * t->nr_cols + order[k]].buf : head(c);
			const char *sgr = row && t->color ? cell(t, row - 1, order[k])->sgr : NULL;
			size_t pad = width[order[k]] - strlen(s);
			bool right = numeric(c) && !c->left;

			if (k)
				strbuf_addchars(sb, ' ', c->gap ? (size_t)c->gap : 2);
			if (right && !c->text_fixed)
				strbuf_addchars(sb, ' ', pad);
			/* A fixed cell's padding is its own, inside the colour. */
			if (sgr)
				strbuf_addstr(sb, sgr);
			if (c->text_fixed)
				put_fixed(sb, c, s, right, k + 1 == shown_nr);
			else
				strbuf_addstr(sb, s);
			if (sgr)
				strbuf_addstr(sb, COLOR_RESET);
			if (!c->text_fixed && !right && k + 1 < shown_nr)
				strbuf_addchars(sb, ' ', pad);
		}
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < t->nr_rows * t->nr_cols; i++)
		strbuf_release(&text[i]);
	free(text);
	free(order);
	free(width);
}

/* An md cell, padded on the left to its column's md_width. */
static void put_md_cell(struct strbuf *sb, const struct table_column *col,
			const struct table_cell *c)
{
	struct strbuf text = STRBUF_INIT;

	put_cell(&text, FORMAT_MD, col, c);
	if (col->md_width > 0 && text.len < (size_t)col->md_width)
		strbuf_addf(sb, "%*s", col->md_width - (int)text.len, "");
	strbuf_add(sb, text.buf, text.len);
	strbuf_release(&text);
}

/*
 * Text turned (table_write): a line per column after the first, whose
 * cells head the rows' columns. text[line * (rows + 1) + k] is the line's
 * k-th field: its label, then each row's cell.
 */
static void write_text_transposed(const struct table *t, struct strbuf *sb)
{
	size_t *order, n = shown_columns(t, FORMAT_TEXT, &order), w = t->nr_rows + 1;
	struct strbuf *text;
	size_t *width;
	int gap;

	if (!n) {
		free(order);
		return;
	}
	gap = t->cols[order[0]].gap ? t->cols[order[0]].gap : 2;
	text = xcalloc(n * w, sizeof(*text));
	width = xcalloc(w, sizeof(*width));
	if (t->cols[order[0]].text_width > 0)
		width[0] = (size_t)t->cols[order[0]].text_width;
	for (size_t line = 0; line < n; line++) {
		for (size_t k = 0; k < w; k++) {
			struct strbuf *s = &text[line * w + k];

			*s = (struct strbuf)STRBUF_INIT;
			if (!k)
				strbuf_addstr(s, head(&t->cols[order[line]]));
			else
				put_cell(s, FORMAT_TEXT, &t->cols[order[line]],
					 cell(t, k - 1, order[line]));
			if (s->len > width[k])
				width[k] = s->len;
		}
	}
	for (size_t line = 0; line < n; line++) {
		for (size_t k = 0; k < w; k++) {
			const char *s = text[line * w + k].buf;

			if (!k && w == 1)
				strbuf_addstr(sb, s);
			else if (!k)
				strbuf_addf(sb, "%-*s", (int)width[0], s);
			else
				strbuf_addf(sb, "%*s%*s", gap, "", (int)width[k], s);
		}
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < n * w; i++)
		strbuf_release(&text[i]);
	free(text);
	free(width);
	free(order);
}

/* An md head: an empty one (a column of row labels) is "| |", as written by hand. */
static void put_md_head(struct strbuf *sb, const char *h)
{
	/* The heads are tiadash's: "selected (non-hermetic)" */
	strbuf_addf(sb, *h ? "| %s " : "| ", h);
}

/* md turned (table_write): the rows' columns headed by the first column's cells. */
static void write_md_transposed(const struct table *t, struct strbuf *sb)
{
	size_t *order, n = shown_columns(t, FORMAT_MD, &order);

	if (!n) {
		free(order);
		return;
	}
	for (size_t line = 0; line < n; line++) {
		put_md_head(sb, head(&t->cols[order[line]]));
		for (size_t row = 0; row < t->nr_rows; row++) {
			strbuf_addstr(sb, "| ");
			put_md_cell(sb, &t->cols[order[line]], cell(t, row, order[line]));
			strbuf_addch(sb, ' ');
		}
		strbuf_addstr(sb, "|\n");
		if (line)
			continue;
		strbuf_addstr(sb, "|---");
		for (size_t row = 0; row < t->nr_rows; row++)
			strbuf_addstr(sb, "|---:");
		strbuf_addstr(sb, "|\n");
	}
	free(order);
}

static void write_md(const struct table *t, struct strbuf *sb)
{
	size_t *order, n = shown_columns(t, FORMAT_MD, &order);

	if (!t->no_header) {
		for (size_t k = 0; k < n; k++)
			put_md_head(sb, head(&t->cols[order[k]]));
		strbuf_addstr(sb, "|\n");
		for (size_t k = 0; k < n; k++)
			strbuf_addstr(sb, numeric(&t->cols[order[k]]) ? "|---:" : "|---");
		strbuf_addstr(sb, "|\n");
	}
	for (size_t row = 0; row < t->nr_rows; row++) {
		for (size_t k = 0; k < n; k++) {
			size_t at;

			strbuf_addstr(sb, "| ");
			at = sb->len;
			put_md_cell(sb, &t->cols[order[k]], cell(t, row, order[k]));
			if (sb->len > at || !t->cols[order[k]].md_tight)
				strbuf_addch(sb, ' ');
		}
		strbuf_addstr(sb, "|\n");
	}
	free(order);
}

static void write_csv(const struct table *t, struct strbuf *sb)
{
	const char *sep = "";

	for (size_t col = 0; col < t->nr_cols && !t->no_header; col++)
		if (shown(&t->cols[col], FORMAT_CSV)) {
			strbuf_addstr(sb, sep);
			csv_field(sb, t->cols[col].key);
			sep = ",";
		}
	if (!t->no_header)
		strbuf_addch(sb, '\n');
	for (size_t row = 0; row < t->nr_rows; row++) {
		sep = "";
		for (size_t col = 0; col < t->nr_cols; col++)
			if (shown(&t->cols[col], FORMAT_CSV)) {
				strbuf_addstr(sb, sep);
				put_cell(sb, FORMAT_CSV, &t->cols[col], cell(t, row, col));
				sep = ",";
			}
		strbuf_addch(sb, '\n');
	}
}

/* A cell's data-key (ROW_KEY.INDEX.HTML_KEY) and data-value, as html_data writes them. */
static void put_html_key(struct strbuf *sb, const struct table *t, size_t row, size_t col)
{
	const struct table_column *c = &t->cols[col];
	const struct table_cell *x = cell(t, row, col);
	struct strbuf key = STRBUF_INIT;
	double v;

	if (!c->html_key || !t->html_row_key)
		return;
	strbuf_addf(&key, "%s.%zu.%s", t->html_row_key, t->html_rows ? t->html_rows[row] : row,
		    c->html_key);
	v = x->null ? NAN : fractional(c->type) ? x->d : (double)x->i;
	html_data(sb, key.buf, v);
	strbuf_release(&key);
}

/* A cell's own data-key and data-value (table_data). */
static void put_cell_data(struct strbuf *sb, const struct table_cell *c)
{
	if (!c->data_key)
		return;
	if (!c->data_word) {
		html_data(sb, c->data_key, c->data_num);
		return;
	}
	strbuf_addf(sb, " data-key=\"%s\" data-value=\"", c->data_key);
	html_escape(sb, c->data_word);
	strbuf_addch(sb, '"');
}

/* A column's cells' class: a number's "num" unless the column names its own. */
static const char *td_class(const struct table_column *c)
{
	if (c->html_td_class)
		return *c->html_td_class ? c->html_td_class : NULL;
	return numeric(c) ? "num" : NULL;
}

static void write_html(const struct table *t, struct strbuf *sb)
{
	strbuf_addstr(sb, "<table");
	if (t->html_class)
		strbuf_addf(sb, " class=\"%s\"", t->html_class);
	strbuf_addstr(sb, t->html_bare ? ">\n<tr>" : ">\n<thead><tr>");
	for (size_t col = 0; col < t->nr_cols; col++)
		if (shown(&t->cols[col], FORMAT_HTML)) {
			const char *cls = td_class(&t->cols[col]);

			strbuf_addstr(sb, cls && !strcmp(cls, "num") ? "<th class=\"num\">" : "<th>");
			html_escape(sb, head(&t->cols[col]));
			strbuf_addstr(sb, "</th>");
		}
	strbuf_addstr(sb, t->html_bare ? "</tr>\n" : "</tr></thead>\n<tbody>\n");
	for (size_t row = 0; row < t->nr_rows; row++) {
		strbuf_addstr(sb, "<tr>");
		for (size_t col = 0; col < t->nr_cols; col++)
			if (shown(&t->cols[col], FORMAT_HTML)) {
				const char *cls = td_class(&t->cols[col]);

				strbuf_addstr(sb, "<td");
				if (cls)
					strbuf_addf(sb, " class=\"%s\"", cls);
				put_html_key(sb, t, row, col);
				put_cell_data(sb, cell(t, row, col));
				strbuf_addch(sb, '>');
				put_cell(sb, FORMAT_HTML, &t->cols[col], cell(t, row, col));
				strbuf_addstr(sb, "</td>");
			}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, t->html_bare ? "</table>\n" : "</tbody>\n</table>\n");
}

static cJSON *json_cell(enum cell_type type, const struct table_cell *c)
{
	struct strbuf sb = STRBUF_INIT;
	cJSON *node;

	if (c->null)
		return cJSON_CreateNull();
	switch (type) {
	case CELL_COUNT:
	case CELL_PR: return cJSON_CreateNumber((double)c->i);
	case CELL_RATE:
	case CELL_SECONDS:
	case CELL_MINUTES:
	case CELL_SETTING: return isfinite(c->d) ? cJSON_CreateNumber(c->d) : cJSON_CreateNull();
	case CELL_BOOL: return cJSON_CreateBool(c->i != 0);
	case CELL_TIME:
	case CELL_BOUND:
	case CELL_DATE:
		time_format(&sb, c->i);
		node = cJSON_CreateString(sb.buf);
		strbuf_release(&sb);
		return node;
	default: break;
	}
	if (!c->items)
		return json_string(c->s);
	node = cJSON_CreateArray();
	for (size_t k = 0; k < c->nr_items; k++)
		cJSON_AddItemToArray(node, json_string(c->items[k]));
	return node;
}

/* One row's object, keyed by the columns json shows. */
static cJSON *row_json(const struct table *t, size_t row)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t col = 0; col < t->nr_cols; col++)
		if (shown(&t->cols[col], FORMAT_JSON))
			cJSON_AddItemToObject(o, t->cols[col].key,
					      json_cell(t->cols[col].type, cell(t, row, col)));
	return o;
}

cJSON *table_json(const struct table *t)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t row = 0; row < t->nr_rows; row++)
		cJSON_AddItemToArray(list, row_json(t, row));
	return list;
}

cJSON *table_json_object(const struct table *t)
{
	if (t->nr_rows != 1 || t->nr_cells != t->nr_cols)
		BUG("table_json_object of a table of %zu rows, %zu of %zu cells", t->nr_rows,
		    t->nr_cells, t->nr_cols);
	return row_json(t, 0);
}

static void write_json(const struct table *t, struct strbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die("out of memory printing JSON");
	json_print_free(table_json(t), f);
	if (fclose(f))
		die("out of memory printing JSON");
	strbuf_add(sb, buf, len);
	free(buf);
}

void table_write(const struct table *t, enum output_format f, struct strbuf *sb)
{
	if (t->nr_cells != t->nr_rows * t->nr_cols)
		BUG("table's last row is not complete");
	switch (f) {
	case FORMAT_TEXT:
		if (t->transposed)
			write_text_transposed(t, sb);
		else
			write_text(t, sb);
		break;
	case FORMAT_MD:
		if (t->transposed)
			write_md_transposed(t, sb);
		else
			write_md(t, sb);
		break;
	case FORMAT_CSV: write_csv(t, sb); break;
	case FORMAT_JSON: write_json(t, sb); break;
	case FORMAT_HTML: write_html(t, sb); break;
	}
}

int table_print(const struct table *t, enum output_format f, FILE *out)
{
	struct strbuf sb = STRBUF_INIT, fitted = STRBUF_INIT;
	const struct strbuf *w = &sb;
	int rc = 0;

	table_write(t, f, &sb);
	if (f == FORMAT_TEXT) {
		text_fit(&fitted, sb.buf, sb.len, TEXT_WIDTH);
		w = &fitted;
	}
	if (w->len && fwrite(w->buf, 1, w->len, out) != w->len)
		rc = -1;
	strbuf_release(&sb);
	strbuf_release(&fitted);
	return rc;
}
