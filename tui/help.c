/* The Help view (`?`): every key, generated from the table that binds them, the keys of
 * the view it was opened from first; Enter runs the selected key's request there. */
#include "core/tiadash.h"
#include "tui/tui.h"

struct help {
	struct row_list rows;
	enum request *reqs; /* per row: the request it lists, or REQ_NONE */
	size_t alloc_reqs;
	int cols;           /* the width the rows were wrapped for */
};

static struct row_data *add(struct help *h, enum request req)
{
	ALLOC_GROW(h->reqs, h->rows.nr + 1, h->alloc_reqs);
	h->reqs[h->rows.nr] = req;
	return row_list_add(&h->rows);
}

/* The keys column is as wide as its widest entry. */
static int keys_width(void)
{
	int w = 0;

	for (size_t i = 0; i < tui_bindings_nr; i++) {
		struct strbuf keys = STRBUF_INIT;

		if (tui_binding_is_first(i)) {
			tui_keys_of(&keys, tui_bindings[i].map, tui_bindings[i].req);
			if (tui_text_width(keys.buf) > w)
				w = tui_text_width(keys.buf);
		}
		strbuf_release(&keys);
	}
	return w;
}

/* The help text of req on as many lines as it takes, cols - width wide. */
static void help_text(struct help *h, struct row_data *r, enum request req, int width,
		      int cols)
{
	const char *s = tui_request_help(req);
	int room = cols - width - 1 < 24 ? 24 : cols - width - 1;

	for (;;) {
		size_t n = strlen(s), cut = n;

		if ((int)n > room) {
			cut = (size_t)room;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut)
				cut = (size_t)room;
		}
		row_add(r, 0, ROLE_DEFAULT, "%.*s", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		if (!*s)
			return;
		r = add(h, req);
		row_add_str(r, width, ROLE_LABEL, "");
	}
}

static void keymap_rows(struct help *h, enum keymap m, int width, int cols)
{
	bool any = false;

	for (size_t i = 0; i < tui_bindings_nr; i++) {
		const struct tui_binding *b = &tui_bindings[i];
		struct strbuf keys = STRBUF_INIT;
		struct row_data *r;

		if (b->map != m || !tui_binding_is_first(i))
			continue;
		if (!any) {
			if (h->rows.nr)
				add(h, REQ_NONE);
			r = add(h, REQ_NONE);
			if (m == KEYMAP_GENERIC)
				row_add_str(r, 0, ROLE_HEADER, "In every view");
			else
				row_add(r, 0, ROLE_HEADER, "In the %s view", tui_keymap_name(m));
			any = true;
		}
		tui_keys_of(&keys, b->map, b->req);
		r = add(h, b->req);
		row_add_str(r, width, ROLE_LABEL, keys.buf);
		help_text(h, r, b->req, width, cols);
		strbuf_release(&keys);
	}
}

static void build(struct tui *t, struct help *h)
{
	int width = keys_width();

	row_list_clear(&h->rows);
	h->cols = t->cols;
	if (t->help_first != KEYMAP_GENERIC && t->help_first != KEYMAP_HELP)
		keymap_rows(h, t->help_first, width, t->cols);
	keymap_rows(h, KEYMAP_GENERIC, width, t->cols);
	for (int m = 0; m < NR_KEYMAPS; m++)
		if (m != KEYMAP_GENERIC && m != (int)t->help_first)
			keymap_rows(h, (enum keymap)m, width, t->cols);
}

static int help_open(struct tui *t, struct view *v)
{
	struct help *h = xcalloc(1, sizeof(*h));

	build(t, h);
	v->priv = h;
	return 0;
}

static void help_reload(struct tui *t, struct view *v)
{
	build(t, v->priv);
}

static size_t help_lines(struct tui *t, struct view *v)
{
	struct help *h = v->priv;

	if (h->cols != t->cols)
		build(t, h);
	return h->rows.nr;
}

static void help_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct help *h = v->priv;

	if (h->cols != t->cols)
		build(t, h);
	if (lineno < h->rows.nr)
		row_copy(row, &h->rows.rows[lineno]);
}

static enum reaction help_request(struct tui *t, struct view *v, enum request req)
{
	struct help *h = v->priv;
	enum request run;

	if (req != REQ_ENTER)
		return R_UNHANDLED;
	run = v->lineno < h->rows.nr ? h->reqs[v->lineno] : REQ_NONE;
	if (run == REQ_NONE || run == REQ_HELP || run == REQ_ENTER) {
		tui_message(t, false, "Enter on a key runs it in the view below");
		return R_REDRAW;
	}
	/* Back to the view the help was opened from, and run it there. */
	t->depth--;
	return tui_request(t, run);
}

static void help_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	UNUSED(v);
	strbuf_addf(sb, "Enter runs the selected key in the %s view",
		    tui_keymap_name(t->help_first));
}

static void help_save(struct tui *t, struct view *v, FILE *f)
{
	UNUSED(t);
	row_list_save(&((struct help *)v->priv)->rows, f);
}

static void help_done(struct view *v)
{
	struct help *h = v->priv;

	row_list_release(&h->rows);
	free(h->reqs);
	free(h);
	v->priv = NULL;
}

const struct view_ops help_view_ops = {
	.name = "help",
	.title = "Help",
	.keymap = KEYMAP_HELP,
	.open = help_open,
	.reload = help_reload,
	.lines = help_lines,
	.row_data = help_row,
	.request = help_request,
	.status = help_status,
	.save = help_save,
	.done = help_done,
};
