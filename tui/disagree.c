/* The Disagreements view: escapes, non-hermetic, over-strict, flaky and verifier-changed pairs from struct
 * metrics, each new, explained (a note) or closed-by-glob (an accepted rule matches). */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "tui/tui.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

enum state { STATE_UNKNOWN, STATE_NEW, STATE_EXPLAINED, STATE_CLOSED };
static const char *const state_names[] = { "?", "new", "explained", "closed-by-glob" };

struct item {
	size_t row;          /* index into metrics.rows */
	int escape;          /* index into metrics.escape_list, or -1 */
	int verifier;        /* index into metrics.verifier, or -1 */
	enum state state;
	char *glob;          /* closed-by-glob: the rule's glob */
};

struct disagree {
	struct item *items;  /* every disagreement, in the view's order */
	size_t nr, alloc;
	size_t *shown;       /* indexes into items that pass the filter */
	size_t nr_shown;
	char *filter;
	int64_t generation;
};

static const enum pair_class order[] = {
	CLASS_ESCAPE, CLASS_NON_HERMETIC, CLASS_OVER_STRICT, CLASS_FLAKY,
};

static void items_clear(struct disagree *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->items[i].glob);
	d->nr = 0;
	free(d->shown);
	d->shown = NULL;
	d->nr_shown = 0;
}

/* closed-by-glob: one of the head's changed paths is force-full under the rule files. */
static int closing_glob(struct tui *t, int64_t head_id, char **glob)
{
	struct pair_info p = { 0 };
	struct diff_info diff;
	const struct run_info *r;
	int ret = 0;

	*glob = NULL;
	if (!t->accepted.rules.nr)
		return 0;
	ret = tui_load_pair(t, head_id, &p);
	if (ret)
		return ret < 0 ? -1 : 0;
	r = pair_latest(&p, RUN_SHADOW);
	if (!r || !r->diff_id)
		r = pair_latest(&p, RUN_FULL);
	if (r && r->diff_id && query_diff(t->store, r->diff_id, &diff) == 0) {
		for (size_t i = 0; i < diff.nr && !*glob; i++) {
			int k = rules_match(&t->accepted.rules, diff.files[i].path);

			if (k >= 0 && t->accepted.rules.items[k].action == RULE_RUN_ALL)
				*glob = xstrdup(t->accepted.rules.items[k].glob);
		}
		diff_info_release(&diff);
	}
	pair_info_release(&p);
	return 0;
}

static void item_state(struct tui *t, struct item *it)
{
	const struct metrics *m = &t->fig.m;
	const struct metrics_row *r = &m->rows[it->row];
	struct note_info *notes;
	size_t nr;

	if (it->state != STATE_UNKNOWN)
		return;
	it->state = STATE_NEW;
	if (it->verifier < 0 && r->cls == CLASS_ESCAPE && closing_glob(t, r->head_id, &it->glob) == 0 && it->glob) {
		it->state = STATE_CLOSED;
		return;
	}
	if (r->explained) {
		it->state = STATE_EXPLAINED;
	} else if (query_notes(t->store, r->head_id, &notes, &nr) == 0) {
		if (nr)
			it->state = STATE_EXPLAINED;
		notes_release(notes, nr);
	}
}

static void cells(struct tui *t, struct item *it, struct row_data *row)
{
	const struct metrics *m = &t->fig.m;
	const struct metrics_row *r = &m->rows[it->row];
	struct strbuf sb = STRBUF_INIT;

	item_state(t, it);
	if (it->verifier >= 0)
		row_add_str(row, 12, ROLE_WARN, "verifier");
	else
		row_add_str(row, 12, tui_class_role(r->cls), pair_class_name(r->cls));
	row_add_str(row, 14, it->state == STATE_NEW ? ROLE_BAD : ROLE_DEFAULT,
		    state_names[it->state]);
	tui_fmt_short_time(&sb, r->at);
	row_add_str(row, 11, ROLE_DEFAULT, sb.buf);
	if (r->has_pr)
		row_add(row, -6, ROLE_DEFAULT, "#%" PRId64, r->pr);
	else
		row_add_str(row, -6, ROLE_DIM, "push");
	row_add(row, 8, ROLE_DEFAULT, "%.8s", r->sha);
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
	} else {
		strbuf_addstr(&sb, "passed on a rerun");
	}
	if (it->state == STATE_CLOSED)
		strbuf_addf(&sb, " [%s]", it->glob);
	row_add_str(row, 0, ROLE_DEFAULT, sb.buf);
	strbuf_release(&sb);
}

static void apply_filter(struct tui *t, struct disagree *d, pcre2_code *re)
{
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL) : NULL;
	struct row_data row = ROW_DATA_INIT;
	struct strbuf text = STRBUF_INIT;

	free(d->shown);
	d->shown = xmalloc((d->nr ? d->nr : 1) * sizeof(*d->shown));
	d->nr_shown = 0;
	for (size_t i = 0; i < d->nr; i++) {
		if (re) {
			row_reset(&row);
			strbuf_reset(&text);
			cells(t, &d->items[i], &row);
			row_text(&row, &text);
			strbuf_addf(&text, " %s", t->fig.m.rows[d->items[i].row].sha);
			if (pcre2_match(re, (PCRE2_SPTR)text.buf, text.len, 0, 0, md, NULL) < 0)
				continue;
		}
		d->shown[d->nr_shown++] = i;
	}
	row_release(&row);
	strbuf_release(&text);
	pcre2_match_data_free(md);
}

static pcre2_code *compile(struct tui *t, const char *pattern)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       PCRE2_UTF, &err, &off, NULL);

	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		tui_message(t, true, "invalid regex at offset %zu: %s", (size_t)off,
			    (const char *)msg);
	}
	return re;
}

static void sync_rows(struct tui *t, struct disagree *d)
{
	const struct metrics *m = &t->fig.m;
	pcre2_code *re;

	if (!t->fig.ready || d->generation == t->fig.generation)
		return;
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
			it->state = STATE_UNKNOWN;
			it->glob = NULL;
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
		*it = (struct item){ m->verifier[i].row, -1, (int)i, STATE_UNKNOWN, NULL };
	}
	re = d->filter ? compile(t, d->filter) : NULL;
	apply_filter(t, d, re);
	pcre2_code_free(re);
	d->generation = t->fig.generation;
}

static int disagree_open(struct tui *t, struct view *v)
{
	struct disagree *d = xcalloc(1, sizeof(*d));

	UNUSED(t);
	d->generation = -1;
	v->priv = d;
	return 0;
}

static void disagree_reload(struct tui *t, struct view *v)
{
	struct disagree *d = v->priv;

	UNUSED(t);
	d->generation = -1;
}

static size_t disagree_lines(struct tui *t, struct view *v)
{
	struct disagree *d = v->priv;

	sync_rows(t, d);
	return t->fig.ready ? d->nr_shown : 0;
}

static void disagree_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct disagree *d = v->priv;

	if (lineno == SIZE_MAX) {
		static const char *const titles[] = { "CLASS", "STATE", "DATE", "PR", "HEAD",
						      "EVIDENCE" };
		static const int widths[] = { 12, 14, 11, -6, 8, 0 };

		for (size_t i = 0; i < ARRAY_SIZE(titles); i++)
			row_add_str(row, widths[i], ROLE_DEFAULT, titles[i]);
		return;
	}
	sync_rows(t, d);
	if (lineno < d->nr_shown)
		cells(t, &d->items[d->shown[lineno]], row);
}

static enum reaction filter_done(struct tui *t, const char *text, bool done)
{
	struct disagree *d = t->views[VIEW_DISAGREE].priv;
	pcre2_code *re = NULL;

	if (!done || !text)
		return R_NONE;
	if (*text) {
		re = compile(t, text);
		if (!re)
			return R_REDRAW;
	}
	free(d->filter);
	d->filter = *text ? xstrdup(text) : NULL;
	apply_filter(t, d, re);
	pcre2_code_free(re);
	t->views[VIEW_DISAGREE].lineno = t->views[VIEW_DISAGREE].offset = 0;
	return R_REDRAW;
}

static enum reaction disagree_request(struct tui *t, struct view *v, enum request req)
{
	struct disagree *d = v->priv;
	const struct metrics_row *r = NULL;

	sync_rows(t, d);
	if (t->fig.ready && v->lineno < d->nr_shown)
		r = &t->fig.m.rows[d->items[d->shown[v->lineno]].row];
	switch (req) {
	case REQ_ENTER:
		return r ? tui_open_detail(t, r->head_id) : R_REDRAW;
	case REQ_EXPLAIN:
		if (!r) {
			tui_message(t, true, "nothing selected to explain");
			return R_REDRAW;
		}
		return tui_explain(t, r->head_id);
	case REQ_FILTER:
		tui_prompt_start(t, "/", d->filter, filter_done);
		return R_REDRAW;
	default:
		return R_UNHANDLED;
	}
}

static void disagree_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct disagree *d = v->priv;
	const struct metrics *m = &t->fig.m;

	if (!t->fig.ready) {
		strbuf_addstr(sb, "computing the figures...");
		return;
	}
	strbuf_addf(sb, "%" PRId64 " escapes, %" PRId64 " non-hermetic, %" PRId64
		    " over-strict, %" PRId64 " flaky", m->class_counts[CLASS_ESCAPE],
		    m->class_counts[CLASS_NON_HERMETIC], m->class_counts[CLASS_OVER_STRICT],
		    m->class_counts[CLASS_FLAKY]);
	if (m->verifier_heads)
		strbuf_addf(sb, ", %" PRId64 " verifier-changed", m->verifier_heads);
	if (d->filter)
		strbuf_addf(sb, "; filter /%s/: %zu", d->filter, d->nr_shown);
}

static void disagree_save(struct tui *t, struct view *v, FILE *f)
{
	struct disagree *d = v->priv;
	struct row_data row = ROW_DATA_INIT;
	struct strbuf sb = STRBUF_INIT;

	sync_rows(t, d);
	fprintf(f, "filter %s\n", d->filter ? d->filter : "-");
	for (size_t i = 0; t->fig.ready && i < d->nr_shown; i++) {
		row_reset(&row);
		strbuf_reset(&sb);
		cells(t, &d->items[d->shown[i]], &row);
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
};
