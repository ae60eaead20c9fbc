/* The Proposals view (SPEC 6) over metrics/proposals.h: candidate globs, a live preview
 * of an edited glob, accept (the rules file), explain (a note) and undo. */
#include "core/tiadash.h"
#include "core/notes.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/demote.h"
#include "tui/tui.h"

enum line_kind { LINE_TEXT, LINE_PROPOSAL, LINE_ESCAPE, LINE_CHANGE };

struct line_ref {
	enum line_kind kind;
	size_t index; /* into props.items, props.escapes_list or the preview's changes */
};

struct propose {
	struct row_list rows;
	struct line_ref *refs;
	size_t alloc_refs;
	int64_t generation;
	int cols;
	/* The preview of an edited (or opened) glob. */
	bool previewing;
	struct strbuf glob;
	struct proposal_preview pv;
	bool pv_ok;
	struct strbuf pv_why;
	size_t list_lineno, list_offset; /* where the list was */
};

/* Undo: the last accepts and explains, newest last. */
struct undo {
	bool accept;
	struct proposal_accept acc;
	int64_t note_id;
	char *what;
};
static struct undo undo_stack[32];
static size_t undo_nr;

static void undo_drop(struct undo *u)
{
	proposal_accept_release(&u->acc);
	free(u->what);
	memset(u, 0, sizeof(*u));
}

static void undo_push(struct undo *u)
{
	if (undo_nr == ARRAY_SIZE(undo_stack)) {
		undo_drop(&undo_stack[0]);
		memmove(undo_stack, undo_stack + 1, sizeof(undo_stack) - sizeof(undo_stack[0]));
		undo_nr--;
	}
	undo_stack[undo_nr++] = *u;
}

void tui_undo_release(void)
{
	while (undo_nr)
		undo_drop(&undo_stack[--undo_nr]);
}

enum reaction tui_proposals_undo(struct tui *t)
{
	struct undo *u;

	if (!undo_nr) {
		tui_message(t, true, "nothing to undo");
		return R_REDRAW;
	}
	u = &undo_stack[undo_nr - 1];
	if (u->accept ? proposals_undo_accept(&u->acc) < 0 :
			notes_remove(t->store, u->note_id) < 0) {
		tui_message(t, true, "cannot undo %s (the file or store changed since)", u->what);
		return R_REDRAW;
	}
	tui_message(t, false, "undone: %s", u->what);
	undo_drop(u);
	undo_nr--;
	return R_RELOAD | R_REDRAW;
}

/* Explain: a note on a head, typed at the prompt or in an editor. */
static int64_t explain_head;

static enum reaction store_note(struct tui *t, const char *text)
{
	struct undo u = { 0 };
	struct pair_info p;
	struct strbuf sb = STRBUF_INIT;
	char *trimmed = xstrdup(text);

	if (!*trim(trimmed)) {
		free(trimmed);
		tui_message(t, true, "an empty note explains nothing: none stored");
		return R_REDRAW;
	}
	free(trimmed);
	if (notes_add(t->store, explain_head, text, time_now_ms(), &u.note_id) < 0) {
		tui_message(t, true, "cannot store the note");
		return R_REDRAW;
	}
	if (tui_load_pair(t, explain_head, &p) == 0) {
		if (p.has_pr)
			strbuf_addf(&sb, "explained PR #%" PRId64, p.pr);
		else
			strbuf_addf(&sb, "explained %.12s", p.sha);
		pair_info_release(&p);
	} else {
		strbuf_addstr(&sb, "explained a disagreement");
	}
	u.what = strbuf_detach(&sb, NULL);
	tui_message(t, false, "%s (u undoes)", u.what);
	undo_push(&u);
	return R_RELOAD | R_REDRAW;
}

static enum reaction explain_done(struct tui *t, const char *text, bool done)
{
	if (!done)
		return R_NONE;
	if (!text) {
		tui_message(t, false, "no note stored");
		return R_REDRAW;
	}
	return store_note(t, text);
}

/*
 * The class of a head, for the one rule of explain: disagreements are
 * explained, agreeing or incomplete pairs are not.
 */
static int class_of(struct tui *t, int64_t head_id, enum pair_class *cls, struct strbuf *what)
{
	struct pair_info p;
	struct pair_verdict v;
	int ret = -1;

	if (tui_load_pair(t, head_id, &p))
		return -1;
	if (classify_pair(t->store, t->cfg.idmap, &p, &v) == 0) {
		*cls = v.cls;
		if (p.has_pr)
			strbuf_addf(what, "PR #%" PRId64, p.pr);
		else
			strbuf_addf(what, "%.12s", p.sha);
		ret = 0;
	}
	pair_verdict_release(&v);
	pair_info_release(&p);
	return ret;
}

/* A head that went green after a change to its verifier only (a disagreement too). */
static bool verifier_changed(struct tui *t, int64_t head_id)
{
	/* The rows: kept figures have none, they are computed now. */
	if (!tui_figures_rows(t, true))
		return false;
	for (size_t i = 0; i < t->fig.m.nr_rows; i++)
		if (t->fig.m.rows[i].head_id == head_id)
			return t->fig.m.rows[i].verifier_changed;
	return false;
}

enum reaction tui_explain(struct tui *t, int64_t head_id, bool editor)
{
	struct strbuf what = STRBUF_INIT, note = STRBUF_INIT, tmpl = STRBUF_INIT;
	enum pair_class cls;
	enum reaction r = R_REDRAW;

	if (class_of(t, head_id, &cls, &what) < 0) {
		tui_message(t, true, "cannot read that change from the store");
		goto done;
	}
	if ((cls == CLASS_AGREE || cls == CLASS_INCOMPLETE) && !verifier_changed(t, head_id)) {
		tui_message(t, true, "%s is %s: only disagreements are explained", what.buf,
			    pair_class_name(cls));
		goto done;
	}
	explain_head = head_id;
	if (!editor) {
		tui_prompt_start(t, "note: ", NULL, explain_done);
		goto done;
	}
	strbuf_addf(&tmpl, "\n# Explain %s (%s): why the shadow and the full run disagreed,\n"
		    "# and what was done. Lines starting with '#' are dropped; an empty\n"
		    "# note stores nothing.\n", what.buf, pair_class_name(cls));
	if (tui_edit_text(t, tmpl.buf, &note) == 0)
		r = store_note(t, note.buf);
done:
	strbuf_release(&what);
	strbuf_release(&note);
	strbuf_release(&tmpl);
	return r;
}

bool tui_pair_state(struct tui *t, int64_t head_id, enum pair_class cls, bool explained,
		    enum proposal_state *state, const char **why)
{
	const struct proposals *ps = &t->fig.props;

	*why = NULL;
	if (cls == CLASS_AGREE || cls == CLASS_INCOMPLETE)
		return false;
	if (explained) {
		*state = PROPOSAL_EXPLAINED;
		return true;
	}
	if (!pair_class_is_escape(cls)) {
		*state = PROPOSAL_CLOSABLE; /* "new": nothing else applies to it */
		return true;
	}
	if (!t->fig.props_ready)
		return false;
	for (size_t i = 0; i < ps->nr_escapes; i++) {
		if (ps->escapes_list[i].head_id == head_id) {
			*state = ps->escapes_list[i].state;
			if (*state != PROPOSAL_CLOSABLE)
				*why = ps->escapes_list[i].why;
			return true;
		}
	}
	/* Not among the window's unexplained escapes: explained since. */
	*state = PROPOSAL_EXPLAINED;
	return true;
}

/* Accept: append a glob to the rules file. */
static enum reaction accept(struct tui *t, const char *glob, const size_t *closes, size_t nr)
{
	struct undo u = { .accept = true, .acc = PROPOSAL_ACCEPT_INIT };
	const char *target = tui_rules(t)->target;

	if (!target) {
		tui_message(t, true, "no rules file to write: give --rules FILE");
		return R_REDRAW;
	}
	if (proposals_accept(target, glob, &t->fig.props, closes, nr, time_now_ms(),
			     &u.acc) < 0) {
		tui_message(t, true, "cannot accept '%s' (the reason is printed when "
			    "the dashboard closes)", glob);
		proposal_accept_release(&u.acc);
		return R_REDRAW;
	}
	u.what = xstrfmt("accepted %s into %s", glob, path_for_people(target));
	tui_message(t, false, "%s (u undoes)", u.what);
	undo_push(&u);
	return R_RELOAD | R_REDRAW;
}

/* The rows. */

static struct row_data *add(struct propose *pr, enum line_kind kind, size_t index)
{
	ALLOC_GROW(pr->refs, pr->rows.nr + 1, pr->alloc_refs);
	pr->refs[pr->rows.nr] = (struct line_ref){ kind, index };
	return row_list_add(&pr->rows);
}

static void fmt_minutes(struct strbuf *sb, double m)
{
	metrics_fmt(sb, "+%.1f", m);
}

static void proposal_row(struct propose *pr, const struct proposals *ps, size_t i)
{
	const struct proposal *p = &ps->items[i];
	struct row_data *r = add(pr, LINE_PROPOSAL, i);
	struct strbuf sb = STRBUF_INIT;

	row_add_str(r, 1, ROLE_GOOD, p->recommended ? "*" : " ");
	row_add_str(r, 0, ROLE_DEFAULT, p->glob);
	row_add(r, -6, ROLE_DEFAULT, "%zu", p->nr_closes);
	row_add(r, -6, ROLE_DEFAULT, "+%" PRId64, p->forced);
	fmt_minutes(&sb, p->forced_minutes);
	row_add_str(r, -8, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	metrics_fmt_pct(&sb, p->force_full_rate_after, 1);
	row_add_str(r, -6, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	metrics_fmt_secs(&sb, p->p95_after);
	row_add_str(r, -7, ROLE_DEFAULT, sb.buf);
	strbuf_release(&sb);
}

static void proposals_header(struct propose *pr, const char *title)
{
	struct row_data *r = add(pr, LINE_TEXT, 0);

	r->role = ROLE_HEADER;
	row_add_str(r, 1, ROLE_DEFAULT, "");
	row_add_str(r, 0, ROLE_DEFAULT, title);
	row_add_str(r, -6, ROLE_DEFAULT, "CLOSES");
	row_add_str(r, -6, ROLE_DEFAULT, "RUNS");
	row_add_str(r, -8, ROLE_DEFAULT, "MINUTES");
	row_add_str(r, -6, ROLE_DEFAULT, "FF");
	row_add_str(r, -7, ROLE_DEFAULT, "P95");
}

static void escape_rows(struct propose *pr, const struct proposals *ps, size_t i)
{
	const struct proposal_escape *e = &ps->escapes_list[i];
	struct row_data *r = add(pr, LINE_ESCAPE, i);
	struct strbuf sb = STRBUF_INIT;

	if (e->has_pr)
		row_add(r, -6, ROLE_DEFAULT, "#%" PRId64, e->pr);
	else
		row_add_str(r, -6, ROLE_DIM, "push");
	row_add(r, 8, ROLE_DEFAULT, "%.8s", e->sha);
	row_add_str(r, 15, e->state == PROPOSAL_CLOSABLE ? ROLE_WARN :
		    e->state == PROPOSAL_UNCLOSABLE ? ROLE_BAD : ROLE_GOOD,
		    proposal_state_name(e->state));
	if (e->why)
		strbuf_addstr(&sb, e->why);
	else if (e->unmatched.nr)
		strbuf_addf(&sb, "no rule: %s%s", e->unmatched.items[0],
			    e->unmatched.nr > 1 ? " ..." : "");
	row_add_str(r, 0, ROLE_DEFAULT, sb.buf);
	/* The evidence: each missed test and what its source mentions. */
	for (size_t k = 0; k < e->nr_evidence && k < 3; k++) {
		const struct proposal_evidence *ev = &e->evidence[k];

		r = add(pr, LINE_ESCAPE, i);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: ", ev->test);
		if (ev->state == EVIDENCE_READ && ev->mentions.nr)
			strbuf_addf(&sb, "%s mentions %s", ev->source, ev->mentions.items[0]);
		else if (ev->state == EVIDENCE_READ)
			strbuf_addf(&sb, "%s mentions no changed file", ev->source);
		else
			strbuf_addstr(&sb, ev->state == EVIDENCE_NO_REPO ? "n/a (no repository)" :
				      ev->state == EVIDENCE_NO_COMMIT ? "n/a (head not in the repository)" :
				      "n/a (the suite is not a file at head)");
		row_add_str(r, 16, ROLE_DEFAULT, "");
		row_add_str(r, 0, ROLE_DIM, sb.buf);
	}
	strbuf_release(&sb);
}

/* The rules in effect ranked by the minutes they cost (metrics/demote.h, the record only). */
static void demote_rows(struct propose *pr, const struct demote *d)
{
	struct row_data *r;
	struct strbuf sb = STRBUF_INIT;

	add(pr, LINE_TEXT, 0);
	r = add(pr, LINE_TEXT, 0);
	r->role = ROLE_HEADER;
	row_add(r, 0, ROLE_DEFAULT, "Rules to demote (%zu)", d->nr);
	row_add_str(r, -6, ROLE_DEFAULT, "FORCED");
	row_add_str(r, -6, ROLE_DEFAULT, "NARROW");
	row_add_str(r, -8, ROLE_DEFAULT, "SAVED");
	row_add_str(r, -6, ROLE_DEFAULT, "MISSED");
	row_add_str(r, -7, ROLE_DEFAULT, "BOUND");
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 0, ROLE_DIM, "no selector: a passed full run missed nothing, "
		    "a failed one is unknown");
	for (size_t i = 0; i < d->nr; i++) {
		const struct demote_rule *x = &d->items[i];

		r = add(pr, LINE_TEXT, 0);
		row_add_str(r, 0, ROLE_DEFAULT, x->rule);
		row_add(r, -6, ROLE_DEFAULT, "%" PRId64, x->forced);
		row_add(r, -6, ROLE_DEFAULT, "%" PRId64, x->narrowed);
		strbuf_reset(&sb);
		metrics_fmt(&sb, "%.1f", x->saved_minutes);
		row_add_str(r, -8, ROLE_DEFAULT, sb.buf);
		row_add(r, -6, ROLE_DEFAULT, "%" PRId64 "/%" PRId64, x->missed_changes,
			x->evaluated);
		strbuf_reset(&sb);
		metrics_fmt_pct(&sb, x->miss_upper, 1);
		row_add_str(r, -7, ROLE_DEFAULT, sb.buf);
		r = add(pr, LINE_TEXT, 0);
		row_add_str(r, 2, ROLE_DEFAULT, "");
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s (%s)", demote_verdict(x, false), x->source);
		row_add_str(r, 0, x->candidate ? ROLE_GOOD : x->missed_changes ? ROLE_BAD :
			    ROLE_DIM, sb.buf);
	}
	strbuf_release(&sb);
}

static void build_list(struct tui *t, struct propose *pr)
{
	const struct proposals *ps = &t->fig.props;
	const char *target;
	struct row_data *r;
	struct strbuf sb = STRBUF_INIT;

	r = add(pr, LINE_TEXT, 0);
	strbuf_addf(&sb, "%" PRId64 " unexplained escapes: %" PRId64 " new, %" PRId64
		    " closed-by-rules, %" PRId64 " unclosable; %" PRId64 " explained",
		    ps->escapes, ps->closable, ps->closed_by_rules, ps->unclosable,
		    ps->explained);
	row_add_str(r, 0, ROLE_DEFAULT, sb.buf);
	r = add(pr, LINE_TEXT, 0);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "history %" PRId64 " heads, force-full ", ps->history_heads);
	metrics_fmt_pct(&sb, ps->force_full_rate_before, 1);
	strbuf_addstr(&sb, ", shadow p95 ");
	metrics_fmt_secs(&sb, ps->p95_before);
	row_add_str(r, 0, ROLE_DIM, sb.buf);
	r = add(pr, LINE_TEXT, 0);
	target = tui_rules(t)->target;
	row_add(r, 0, ROLE_DIM, "rules file %s", target ? path_for_people(target) : "(none)");
	add(pr, LINE_TEXT, 0);

	r = add(pr, LINE_TEXT, 0);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "recommended: closes %" PRId64 " for +%" PRId64 " runs, ",
		    ps->rec_closes, ps->rec_forced);
	metrics_fmt(&sb, "+%.1f min", ps->rec_forced_minutes);
	strbuf_addstr(&sb, "; force-full ");
	metrics_fmt_pct(&sb, ps->rec_force_full_rate_after, 1);
	strbuf_addstr(&sb, ", p95 ");
	metrics_fmt_secs(&sb, ps->rec_p95_after);
	row_add_str(r, 0, ROLE_DEFAULT, sb.buf);
	add(pr, LINE_TEXT, 0);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Recommended (%zu)", ps->nr_recommended);
	proposals_header(pr, sb.buf);
	for (size_t i = 0; i < ps->nr_recommended; i++)
		proposal_row(pr, ps, ps->recommended[i]);
	add(pr, LINE_TEXT, 0);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Candidates (%zu)", ps->nr);
	proposals_header(pr, sb.buf);
	for (size_t i = 0; i < ps->nr; i++)
		proposal_row(pr, ps, i);
	add(pr, LINE_TEXT, 0);
	r = add(pr, LINE_TEXT, 0);
	r->role = ROLE_HEADER;
	row_add(r, 0, ROLE_DEFAULT, "Escapes (%zu)", ps->nr_escapes);
	for (size_t i = 0; i < ps->nr_escapes; i++)
		escape_rows(pr, ps, i);
	demote_rows(pr, &t->fig.demote);
	strbuf_release(&sb);
}

static void change_row(struct propose *pr, const struct proposals *ps, size_t i)
{
	const struct proposal_change *c = &pr->pv.changes[i];
	struct row_data *r = add(pr, LINE_CHANGE, i);

	row_add_str(r, 11, ROLE_LABEL, "");
	if (c->has_pr)
		row_add(r, -6, ROLE_DEFAULT, "#%" PRId64, c->pr);
	else
		row_add_str(r, -6, ROLE_DIM, "push");
	if (c->escape >= 0)
		row_add(r, 0, ROLE_GOOD, "closes the escape of %.8s",
			ps->escapes_list[c->escape].sha);
	else
		row_add_str(r, 0, c->forced ? ROLE_WARN : ROLE_DIM,
			    c->forced ? "newly forced (extra force-full run)" : "already run_all");
}

static void build_preview(struct propose *pr, const struct proposals *ps)
{
	const struct proposal_preview *pv = &pr->pv;
	struct strbuf sb = STRBUF_INIT;
	struct row_data *r;

	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "preview");
	row_add_str(r, 0, ROLE_HEADER, pr->glob.buf);
	if (!pr->pv_ok) {
		r = add(pr, LINE_TEXT, 0);
		row_add_str(r, 11, ROLE_LABEL, "invalid");
		row_add_str(r, 0, ROLE_ERROR, pr->pv_why.buf);
		strbuf_release(&sb);
		return;
	}
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "closes");
	strbuf_addf(&sb, "%zu of %" PRId64 " new escapes", pv->nr_closes, ps->closable);
	for (size_t i = 0; i < pv->nr_closes; i++) {
		const struct proposal_escape *e = &ps->escapes_list[pv->closes[i]];

		if (e->has_pr)
			strbuf_addf(&sb, "%s#%" PRId64, i ? ", " : ": ", e->pr);
		else
			strbuf_addf(&sb, "%s%.8s", i ? ", " : ": ", e->sha);
	}
	row_add_str(r, 0, pv->nr_closes ? ROLE_GOOD : ROLE_DEFAULT, sb.buf);
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "cost");
	strbuf_reset(&sb);
	proposals_preview_cost(&sb, pv);
	row_add_str(r, 0, ROLE_DEFAULT, sb.buf);
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "force-full");
	strbuf_reset(&sb);
	metrics_fmt_pct(&sb, ps->force_full_rate_before, 1);
	strbuf_addstr(&sb, " -> ");
	metrics_fmt_pct(&sb, pv->force_full_rate_after, 1);
	strbuf_addstr(&sb, ";  p95 ");
	metrics_fmt_secs(&sb, ps->p95_before);
	strbuf_addstr(&sb, " -> ");
	metrics_fmt_secs(&sb, pv->p95_after);
	row_add_str(r, 0, ROLE_DEFAULT, sb.buf);
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "matches");
	row_add(r, 0, ROLE_DEFAULT, "%" PRId64 " changed paths, %zu changes", pv->matched_paths,
		pv->nr_changes);
	for (size_t i = 0; i < pv->sample.nr; i++) {
		r = add(pr, LINE_TEXT, 0);
		row_add_str(r, 11, ROLE_LABEL, "");
		row_add_str(r, 0, ROLE_DEFAULT, pv->sample.items[i]);
	}
	if ((size_t)pv->matched_paths > pv->sample.nr) {
		r = add(pr, LINE_TEXT, 0);
		row_add_str(r, 11, ROLE_LABEL, "");
		row_add(r, 0, ROLE_DIM, "... and %zu more", (size_t)pv->matched_paths - pv->sample.nr);
	}
	r = add(pr, LINE_TEXT, 0);
	row_add_str(r, 11, ROLE_LABEL, "changes");
	for (size_t i = 0; i < pv->nr_changes; i++)
		change_row(pr, ps, i);
	strbuf_release(&sb);
}

static void sync_rows(struct tui *t, struct propose *pr)
{
	if (pr->generation == t->fig.props_generation && pr->cols == t->cols && pr->rows.nr)
		return;
	row_list_clear(&pr->rows);
	if (!t->fig.props_ready) {
		struct row_data *r = add(pr, LINE_TEXT, 0);

		row_add_str(r, 0, ROLE_DIM, "computing the proposals...");
	} else if (pr->previewing) {
		build_preview(pr, &t->fig.props);
	} else {
		build_list(t, pr);
	}
	pr->generation = t->fig.props_generation;
	pr->cols = t->cols;
}

static void invalidate(struct propose *pr)
{
	pr->generation = -1;
}

static void preview(struct tui *t, struct propose *pr, const char *glob)
{
	strbuf_reset(&pr->glob);
	strbuf_addstr(&pr->glob, glob);
	strbuf_reset(&pr->pv_why);
	pr->pv_ok = t->fig.props_ready &&
		proposals_preview(&t->fig.props, glob, &pr->pv, &pr->pv_why) == 0;
	if (!t->fig.props_ready)
		strbuf_addstr(&pr->pv_why, "the proposals are still being computed");
	invalidate(pr);
}

static void enter_preview(struct tui *t, struct view *v, struct propose *pr, const char *glob)
{
	if (!pr->previewing) {
		pr->list_lineno = v->lineno;
		pr->list_offset = v->offset;
	}
	pr->previewing = true;
	v->lineno = v->offset = 0;
	preview(t, pr, glob);
}

static void leave_preview(struct view *v, struct propose *pr)
{
	pr->previewing = false;
	v->lineno = pr->list_lineno;
	v->offset = pr->list_offset;
	invalidate(pr);
}

static enum reaction edit_done(struct tui *t, const char *text, bool done)
{
	struct view *v = &t->views[VIEW_PROPOSALS];
	struct propose *pr = v->priv;

	if (!text) {
		leave_preview(v, pr);
		return R_REDRAW;
	}
	enter_preview(t, v, pr, text);
	if (done)
		tui_message(t, false, "a accepts %s; q goes back to the list", text);
	return R_REDRAW;
}

static int propose_open(struct tui *t, struct view *v)
{
	struct propose *pr = xcalloc(1, sizeof(*pr));

	pr->generation = -1;
	pr->pv = (struct proposal_preview)PROPOSAL_PREVIEW_INIT;
	pr->glob = (struct strbuf)STRBUF_INIT;
	pr->pv_why = (struct strbuf)STRBUF_INIT;
	v->priv = pr;
	tui_proposals_want(t);
	return 0;
}

static void propose_reload(struct tui *t, struct view *v)
{
	struct propose *pr = v->priv;

	UNUSED(t);
	if (pr->previewing)
		leave_preview(v, pr);
	invalidate(pr);
}

static size_t propose_lines(struct tui *t, struct view *v)
{
	sync_rows(t, v->priv);
	return ((struct propose *)v->priv)->rows.nr;
}

static void propose_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct propose *pr = v->priv;

	sync_rows(t, pr);
	if (lineno < pr->rows.nr)
		row_copy(row, &pr->rows.rows[lineno]);
}

enum reaction tui_proposals_preview(struct tui *t, const char *glob)
{
	struct view *v = &t->views[VIEW_PROPOSALS];
	enum reaction r = tui_push(t, VIEW_PROPOSALS);

	if (v->opened) {
		enter_preview(t, v, v->priv, glob);
		tui_message(t, false, "the preview of %s: a accepts it, e edits it", glob);
	}
	return r;
}

/* The selected line, LINE_TEXT while the proposals are being computed. */
static struct line_ref selected(struct tui *t, struct view *v)
{
	struct propose *pr = v->priv;

	sync_rows(t, pr);
	if (t->fig.props_ready && v->lineno < pr->rows.nr)
		return pr->refs[v->lineno];
	return (struct line_ref){ LINE_TEXT, 0 };
}

static enum reaction propose_request(struct tui *t, struct view *v, enum request req)
{
	struct propose *pr = v->priv;
	const struct proposals *ps = &t->fig.props;
	struct line_ref ref = selected(t, v);

	switch (req) {
	case REQ_CLEAR:
		if (v->search.pattern)
			return R_UNHANDLED;
		/* Without a search, Esc leaves the preview. */
		/* fall through */
	case REQ_QUIT:
	case REQ_BACK:
		if (!pr->previewing)
			return R_UNHANDLED;
		leave_preview(v, pr);
		return R_REDRAW;
	case REQ_ENTER:
		if (ref.kind == LINE_PROPOSAL) {
			enter_preview(t, v, pr, ps->items[ref.index].glob);
			return R_REDRAW;
		}
		if (ref.kind == LINE_ESCAPE)
			return tui_open_detail(t, ps->escapes_list[ref.index].head_id);
		if (ref.kind == LINE_CHANGE)
			return tui_open_detail(t, pr->pv.changes[ref.index].head_id);
		tui_message(t, false, "nothing to open on this line");
		return R_REDRAW;
	case REQ_EDIT: {
		const char *initial = NULL;

		if (!t->fig.props_ready) {
			tui_message(t, true, "the proposals are still being computed");
			return R_REDRAW;
		}
		if (pr->previewing)
			initial = pr->glob.buf;
		else if (ref.kind == LINE_PROPOSAL)
			initial = ps->items[ref.index].glob;
		else if (ref.kind == LINE_ESCAPE && ps->escapes_list[ref.index].unmatched.nr)
			initial = ps->escapes_list[ref.index].unmatched.items[0];
		if (!initial) {
			tui_message(t, true, "select a glob (or an escape) first: e edits it, "
				    "a accepts it");
			return R_REDRAW;
		}
		enter_preview(t, v, pr, initial);
		tui_prompt_start(t, "glob: ", initial, edit_done);
		return R_REDRAW;
	}
	case REQ_ACCEPT:
		if (pr->previewing) {
			if (!pr->pv_ok) {
				tui_message(t, true, "not a glob: %s", pr->pv_why.buf);
				return R_REDRAW;
			}
			return accept(t, pr->glob.buf, pr->pv.closes, pr->pv.nr_closes);
		}
		if (ref.kind != LINE_PROPOSAL) {
			tui_message(t, true, "select a glob (or an escape) first: e edits it, "
				    "a accepts it");
			return R_REDRAW;
		}
		return accept(t, ps->items[ref.index].glob, ps->items[ref.index].closes,
			      ps->items[ref.index].nr_closes);
	default:
		return R_UNHANDLED;
	}
}

static bool propose_head(struct tui *t, struct view *v, int64_t *head_id)
{
	struct propose *pr = v->priv;
	struct line_ref ref = selected(t, v);

	if (ref.kind == LINE_ESCAPE)
		*head_id = t->fig.props.escapes_list[ref.index].head_id;
	else if (ref.kind == LINE_CHANGE)
		*head_id = pr->pv.changes[ref.index].head_id;
	else
		return false;
	return true;
}

static bool propose_copy(struct tui *t, struct view *v, struct strbuf *out)
{
	struct propose *pr = v->priv;
	struct line_ref ref = selected(t, v);

	if (ref.kind == LINE_PROPOSAL)
		strbuf_addstr(out, t->fig.props.items[ref.index].glob);
	else if (pr->previewing && v->lineno == 0)
		strbuf_addstr(out, pr->glob.buf);
	else
		return false;
	return true;
}

static void propose_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct propose *pr = v->priv;

	if (!t->fig.props_ready)
		strbuf_addstr(sb, "computing the proposals...");
	else if (pr->previewing)
		strbuf_addf(sb, "preview of %s", pr->glob.buf);
	else
		strbuf_addf(sb, "%zu candidates, %zu recommended", t->fig.props.nr,
			    t->fig.props.nr_recommended);
}

static void propose_save(struct tui *t, struct view *v, FILE *f)
{
	struct propose *pr = v->priv;

	sync_rows(t, pr);
	fprintf(f, "mode %s\n", pr->previewing ? "preview" : "list");
	row_list_save(&pr->rows, f);
}

static void propose_done(struct view *v)
{
	struct propose *pr = v->priv;

	row_list_release(&pr->rows);
	free(pr->refs);
	proposal_preview_release(&pr->pv);
	strbuf_release(&pr->glob);
	strbuf_release(&pr->pv_why);
	free(pr);
	v->priv = NULL;
}

const struct view_ops proposals_view_ops = {
	.name = "proposals",
	.title = "Proposals",
	.keymap = KEYMAP_PROPOSALS,
	.open = propose_open,
	.reload = propose_reload,
	.lines = propose_lines,
	.row_data = propose_row,
	.request = propose_request,
	.status = propose_status,
	.save = propose_save,
	.done = propose_done,
	.selected_head = propose_head,
	.copy_text = propose_copy,
};
