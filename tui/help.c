/* The Help view (`?`): every key, generated from the table that binds them. */
#include "core/tiadash.h"
#include "tui/tui.h"

struct help {
	struct row_list rows;
};

static void build(struct help *h)
{
	for (int m = 0; m < NR_KEYMAPS; m++) {
		bool any = false;

		for (size_t i = 0; i < tui_bindings_nr; i++) {
			const struct tui_binding *b = &tui_bindings[i];
			struct strbuf keys = STRBUF_INIT;
			struct row_data *r;

			if ((int)b->map != m || !tui_binding_is_first(i))
				continue;
			if (!any) {
				if (h->rows.nr)
					row_list_add(&h->rows);
				r = row_list_add(&h->rows);
				if (m == KEYMAP_GENERIC)
					row_add_str(r, 0, ROLE_HEADER, "In every view");
				else
					row_add(r, 0, ROLE_HEADER, "In the %s view",
						tui_keymap_name((enum keymap)m));
				any = true;
			}
			tui_keys_of(&keys, b->map, b->req);
			r = row_list_add(&h->rows);
			row_add_str(r, 20, ROLE_LABEL, keys.buf);
			row_add_str(r, 0, ROLE_DEFAULT, tui_request_help(b->req));
			strbuf_release(&keys);
		}
	}
}

static int help_open(struct tui *t, struct view *v)
{
	struct help *h = xcalloc(1, sizeof(*h));

	UNUSED(t);
	build(h);
	v->priv = h;
	return 0;
}

static size_t help_lines(struct tui *t, struct view *v)
{
	UNUSED(t);
	return ((struct help *)v->priv)->rows.nr;
}

static void help_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct help *h = v->priv;

	UNUSED(t);
	if (lineno < h->rows.nr)
		row_copy(row, &h->rows.rows[lineno]);
}

static enum reaction help_request(struct tui *t, struct view *v, enum request req)
{
	UNUSED(t);
	UNUSED(v);
	return req == REQ_ENTER ? R_NONE : R_UNHANDLED;
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
	free(h);
	v->priv = NULL;
}

const struct view_ops help_view_ops = {
	.name = "help",
	.title = "Help",
	.keymap = KEYMAP_HELP,
	.open = help_open,
	.lines = help_lines,
	.row_data = help_row,
	.request = help_request,
	.save = help_save,
	.done = help_done,
};
