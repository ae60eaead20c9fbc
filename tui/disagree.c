/* The Disagreements view: escapes, non-hermetic, over-strict, flaky and verifier-changed
 * pairs from struct metrics, each in its state (new, unclosable, closed-by-rules,
 * explained: tui_pair_state). */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "tui/tui.h"

struct item {
	size_t row;          /* index into metrics.rows */
	int escape;          /* index into metrics.escape_list, or -1 */
	int verifier;        /* index into metrics.verifier, or -1 */
	bool noted;          /* a note is stored (any class) */
};

/* The columns, sized to what they hold: _(ID, title, width or 0 for content). */
#define DISAGREE_COLUMNS(_)                                                    \
	_(CLASS, "CLASS", 0)                                                   \
	_(STATE, "STATE", 0)                                                   \
	_(DATE, "DATE", 11)                                                    \
	_(PR, "PR", -6)                                                        \
	_(HEAD, "HEAD", 7)                                                     \
	_(EVIDENCE, "EVIDENCE", 0)

enum disagree_col {
#define DCOL_ENUM_(id, title, width) DCOL_##id,
	DISAGREE_COLUMNS(DCOL_ENUM_)
#undef DCOL_ENUM_
	NR_DCOLS
};

static const struct {
	const char *title;
	int width;
} dcolumns[] = {
#define DCOL_ROW_(id, title, width) { title, width },
	DISAGREE_COLUMNS(DCOL_ROW_)
#undef DCOL_ROW_
};

struct disagree {
	struct item *items;  /* every disagreement, in the view's order */
	size_t nr, alloc;
	size_t *shown;       /* indexes into items that pass the filter */
	size_t nr_shown;
	char *filter;
	int64_t generation, props_generation;
	int width[NR_DCOLS]; /* the content-sized columns' widths */
};

static const enum pair_class order[] = {
	CLASS_ESCAPE, CLASS_NON_HERMETIC, CLASS_UNRESOLVED, CLASS_OVER_STRICT, CLASS_FLAKY,
};

/* Date and head give way first when the evidence needs the room (both are in the detail). */
static bool wide(const struct tui *t)
{
	return t->cols >= 100;
}

static void items_clear(struct disagree *d)
{
	d->nr = 0;
	free(d->shown);
	d->shown = NULL;
	d->nr_shown = 0;
}

/* "new", "closed-by-rules", ...: "..." while the proposals are computed. */
static const char *state_of(struct tui *t, const struct item *it, const char **why)
{
	const struct metrics_row *r = &t->fig.m.rows[it->row];
	enum proposal_state st;

	if (it->verifier >= 0) {
		/* Green after a change to its verifier: new until explained. */
		*why = NULL;
		return proposal_state_name(it->noted ? PROPOSAL_EXPLAINED : PROPOSAL_CLOSABLE);
	}
	if (!tui_pair_state(t, r->head_id, r->cls, r->explained || it->noted, &st, why))
		return "...";
	return proposal_state_name(st);
}

static void cells(struct tui *t, struct disagree *d, const struct item *it,
		  struct row_data *row)
{
	const struct metrics *m = &t->fig.m;
	const struct metrics_row *r = &m->rows[it->row];
	struct strbuf sb = STRBUF_INIT;
	const char *why, *state = state_of(t, it, &why);

	if (it->verifier >= 0)
		row_add_str(row, d->width[DCOL_CLASS], ROLE_WARN, "verifier");
	else
		row_add_str(row, d->width[DCOL_CLASS], tui_class_role(r->cls),
			    pair_class_name(r->cls));
	row_add_str(row, d->width[DCOL_STATE],
		    !strcmp(state, "new") || !strcmp(state, "unclosable") ? ROLE_BAD : ROLE_DEFAULT,
		    state);
	if (wide(t)) {
		tui_fmt_short_time(&sb, r->at);
		row_add_str(row, dcolumns[DCOL_DATE].width, ROLE_DEFAULT, sb.buf);
	}
	if (r->has_pr)
		row_add(row, dcolumns[DCOL_PR].width, ROLE_DEFAULT, "#%" PRId64, r->pr);
	else
		row_add_str(row, dcolumns[DCOL_PR].width, ROLE_DIM, "push");
	if (wide(t))
		row_add(row, dcolumns[DCOL_HEAD].width, ROLE_DEFAULT, "%.7s", r->sha);
	strbuf_reset(&sb);
	if (it->verifier >= 0) {
		const struct metrics_verifier *v = &m->verifier[it->verifier];

		strbuf_addf(&sb, "%s green after %s", v->test, v->changed.items[0]);
		if (v->changed.nr > 1)
			strbuf_addf(&sb, " (+%zu)", v->changed.nr - 1);
	} else if (it->escape >= 0) {
		const struct metrics_escape *e = &m->escape_list[it->escape];
		const struct strlist *l = e->missed.nr ? &e->missed : &e->non_hermetic;

		if (l->nr)
			strbuf_addf(&sb, "%s%s", e->missed.nr ? "" : "selected: ", l->items[0]);
		if (l->nr > 1)
			strbuf_addf(&sb, " (+%zu)", l->nr - 1);
	} else if (r->cls == CLASS_OVER_STRICT) {
		strbuf_addstr(&sb, "shadow failed, full passed");
	} else if (r->cls == CLASS_UNRESOLVED) {
		strbuf_addstr(&sb, "a failing test names no test file");
	} else {
		strbuf_addstr(&sb, "passed on a rerun");
	}
	if (why && !strcmp(state, "closed-by-rules"))
		strbuf_addf(&sb, " [%s]", why);
	row_add_str(row, 0, ROLE_DEFAULT, sb.buf);
	strbuf_release(&sb);
}

/* The row's text and the full sha: what the filter matches. */
static void filter_text(struct tui *t, struct disagree *d, const struct item *it,
			struct row_data *row, struct strbuf *text)
{
	row_reset(row);
	strbuf_reset(text);
	cells(t, d, it, row);
	row_text(row, text);
	strbuf_addf(text, " %s", t->fig.m.rows[it->row].sha);
}

static void apply_filter(struct tui *t, struct disagree *d)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct tui_regex *re = d->filter ? tui_regex_compile(d->filter, &err) : NULL;
	struct row_data row = ROW_DATA_INIT;

	free(d->shown);
	d->shown = xmalloc((d->nr ? d->nr : 1) * sizeof(*d->shown));
	d->nr_shown = 0;
	for (size_t i = 0; i < d->nr; i++) {
		if (re) {
			filter_text(t, d, &d->items[i], &row, &text);
			if (!tui_regex_match(re, text.buf, text.len))
				continue;
		}
		d->shown[d->nr_shown++] = i;
	}
	row_release(&row);
	strbuf_release(&text);
	strbuf_release(&err);
	tui_regex_free(re);
}

/* The class and state columns take the width of their widest value. */
static void size_columns(struct tui *t, struct disagree *d)
{
	d->width[DCOL_CLASS] = (int)strlen(dcolumns[DCOL_CLASS].title);
	d->width[DCOL_STATE] = (int)strlen(dcolumns[DCOL_STATE].title);
	for (size_t i = 0; i < d->nr; i++) {
		const struct metrics_row *r = &t->fig.m.rows[d->items[i].row];
		const char *why;
		int wc = (int)strlen(d->items[i].verifier >= 0 ? "verifier" :
				     pair_class_name(r->cls));
		int ws = (int)strlen(state_of(t, &d->items[i], &why));

		if (wc > d->width[DCOL_CLASS])
			d->width[DCOL_CLASS] = wc;
		if (ws > d->width[DCOL_STATE])
			d->width[DCOL_STATE] = ws;
	}
}

static bool has_notes(struct tui *t, int64_t head_id)
{
	struct note_info *notes;
	size_t nr;
	bool any = false;

	if (query_notes(t->store, head_id, &notes, &nr) == 0) {
		any = nr > 0;
		notes_release(notes, nr);
	}
	return any;
}

/* The figures with their rows (kept figures have none: they are asked for). */
static bool rows_ready(struct tui *t)
{
	return tui_figures_rows(t, false);
}

static void sync_rows(struct tui *t, struct disagree *d)
{
	const struct metrics *m = &t->fig.m;

	if (!rows_ready(t))
		return;
	if (d->generation == t->fig.generation && d->props_generation == t->fig.props_generation)
		return;
	if (d->generation != t->fig.generation) {
		items_clear(d);
		for (size_t c = 0; c < ARRAY_SIZE(order); c++) {
			size_t e = 0;

			for (size_t i = 0; i < m->nr_rows; i++) {
				struct item *it;

				if (m->rows[i].cls != order[c])
					continue;
				ALLOC_GROW(d->items, d->nr + 1, d->alloc);
				it = &d->items[d->nr++];
				it->row = i;
				it->escape = -1;
				it->verifier = -1;
				it->noted = !pair_class_is_escape(m->rows[i].cls) &&
					    has_notes(t, m->rows[i].head_id);
				/* escape_list is in window order, like rows. */
				while (e < m->nr_escape_list && m->escape_list[e].row < i)
					e++;
				if (e < m->nr_escape_list && m->escape_list[e].row == i)
					it->escape = (int)e;
			}
		}
		/* Heads that went green after their verifier changed: after the classes. */
		for (size_t i = 0; i < m->nr_verifier; i++) {
			struct item *it;

			ALLOC_GROW(d->items, d->nr + 1, d->alloc);
			it = &d->items[d->nr++];
			*it = (struct item){ m->verifier[i].row, -1, (int)i,
					     has_notes(t, m->rows[m->verifier[i].row].head_id) };
		}
	}
	size_columns(t, d);
	apply_filter(t, d);
	d->generation = t->fig.generation;
	d->props_generation = t->fig.props_generation;
}

static int disagree_open(struct tui *t, struct view *v)
{
	struct disagree *d = xcalloc(1, sizeof(*d));

	d->generation = d->props_generation = -1;
	v->priv = d;
	/* The escapes' states come with the proposals. */
	tui_proposals_want(t);
	return 0;
}

static void disagree_reload(struct tui *t, struct view *v)
{
	struct disagree *d = v->priv;

	UNUSED(t);
	d->generation = d->props_generation = -1;
}

static size_t disagree_lines(struct tui *t, struct view *v)
{
	struct disagree *d = v->priv;

	sync_rows(t, d);
	return rows_ready(t) ? d->nr_shown : 0;
}

static void disagree_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct disagree *d = v->priv;

	sync_rows(t, d);
	if (lineno == SIZE_MAX) {
		for (int i = 0; i < NR_DCOLS; i++) {
			if ((i == DCOL_DATE || i == DCOL_HEAD) && !wide(t))
				continue;
			row_add_str(row, dcolumns[i].width ? dcolumns[i].width : d->width[i],
				    ROLE_DEFAULT, dcolumns[i].title);
		}
		return;
	}
	if (lineno < d->nr_shown)
		cells(t, d, &d->items[d->shown[lineno]], row);
}

static const struct metrics_row *selected(struct tui *t, struct view *v)
{
	struct disagree *d = v->priv;

	sync_rows(t, d);
	if (!rows_ready(t) || v->lineno >= d->nr_shown)
		return NULL;
	return &t->fig.m.rows[d->items[d->shown[v->lineno]].row];
}

static enum reaction disagree_request(struct tui *t, struct view *v, enum request req)
{
	const struct metrics_row *r = selected(t, v);

	if (req == REQ_ENTER)
		return r ? tui_open_detail(t, r->head_id) : R_REDRAW;
	return R_UNHANDLED;
}

static bool disagree_head(struct tui *t, struct view *v, int64_t *head_id)
{
	const struct metrics_row *r = selected(t, v);

	if (r)
		*head_id = r->head_id;
	return r != NULL;
}

static void disagree_filter(struct tui *t, struct view *v, const char *pattern)
{
	struct disagree *d = v->priv;

	free(d->filter);
	d->filter = pattern ? xstrdup(pattern) : NULL;
	if (rows_ready(t) && d->generation == t->fig.generation)
		apply_filter(t, d);
}

static void disagree_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct disagree *d = v->priv;
	const struct metrics *m = &t->fig.m;

	if (!rows_ready(t)) {
		strbuf_addstr(sb, "computing the figures...");
		return;
	}
	if (d->filter) {
		strbuf_addf(sb, "%zu of %zu match /%s/", d->nr_shown, d->nr, d->filter);
		return;
	}
	strbuf_addf(sb, "%" PRId64 " escapes, %" PRId64 " non-hermetic, %" PRId64
		    " over-strict, %" PRId64 " flaky", m->class_counts[CLASS_ESCAPE],
		    m->class_counts[CLASS_NON_HERMETIC], m->class_counts[CLASS_OVER_STRICT],
		    m->class_counts[CLASS_FLAKY]);
	if (m->class_counts[CLASS_UNRESOLVED])
		strbuf_addf(sb, ", %" PRId64 " unresolved", m->class_counts[CLASS_UNRESOLVED]);
	if (m->verifier_heads)
		strbuf_addf(sb, ", %" PRId64 " verifier-changed", m->verifier_heads);
	if (!t->fig.props_ready)
		strbuf_addstr(sb, "; states...");
}

static void disagree_save(struct tui *t, struct view *v, FILE *f)
{
	struct disagree *d = v->priv;
	struct row_data row = ROW_DATA_INIT;
	struct strbuf sb = STRBUF_INIT;

	sync_rows(t, d);
	fprintf(f, "filter %s\n", d->filter ? d->filter : "-");
	for (size_t i = 0; rows_ready(t) && i < d->nr_shown; i++) {
		row_reset(&row);
		strbuf_reset(&sb);
		cells(t, d, &d->items[d->shown[i]], &row);
		row_text(&row, &sb);
		fprintf(f, "%c %s\n", i == v->lineno ? '>' : ' ', sb.buf);
	}
	row_release(&row);
	strbuf_release(&sb);
}

static void disagree_done(struct view *v)
{
	struct disagree *d = v->priv;

	items_clear(d);
	free(d->items);
	free(d->filter);
	free(d);
	v->priv = NULL;
}

const struct view_ops disagree_view_ops = {
	.name = "disagreements",
	.title = "Disagreements",
	.keymap = KEYMAP_DISAGREE,
	.header = true,
	.open = disagree_open,
	.reload = disagree_reload,
	.lines = disagree_lines,
	.row_data = disagree_row,
	.request = disagree_request,
	.status = disagree_status,
	.save = disagree_save,
	.done = disagree_done,
	.filter = disagree_filter,
	.selected_head = disagree_head,
};
