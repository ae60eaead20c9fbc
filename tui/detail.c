/* The Detail view, the twin of `tiadash show`: one change's class, tests, reasons, changed
 * files with the rule each matched and their diff coverage, and its runs. */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/proposals.h"
#include "tui/tui.h"

#define MAX_LIST 200 /* lines of one long list (selection entries, failures) */

/* Where a line points: Enter goes there, y copies what it names. */
enum point {
	POINT_NONE,
	POINT_TEST,   /* a test id: the disagreements that name it */
	POINT_PATH,   /* a changed path: the proposals' preview of its glob */
	POINT_REASON, /* a force-full reason: the runs it forced */
};

struct line_ref {
	enum point point;
	char *what;   /* the test id, path or reason */
};

struct detail {
	int64_t head_id;
	struct row_list rows;
	struct line_ref *refs;  /* one per row */
	size_t alloc_refs;
	enum pair_class cls;
	bool explained;
	bool loaded;
	int64_t props_generation; /* of the state line */
};

#define LABEL 11

/* A new row, pointing nowhere (every row has its line_ref). */
static struct row_data *add_row(struct detail *d)
{
	struct row_data *r = row_list_add(&d->rows);

	ALLOC_GROW(d->refs, d->rows.nr, d->alloc_refs);
	d->refs[d->rows.nr - 1] = (struct line_ref){ POINT_NONE, NULL };
	return r;
}

static struct row_data *line(struct detail *d, const char *label)
{
	struct row_data *r = add_row(d);

	row_add_str(r, LABEL, ROLE_LABEL, label);
	return r;
}

/* The last line points to what (copied). */
static void points_to(struct detail *d, enum point point, const char *what)
{
	d->refs[d->rows.nr - 1] = (struct line_ref){ point, xstrdup(what) };
}

static void rows_clear(struct detail *d)
{
	for (size_t i = 0; i < d->rows.nr; i++)
		free(d->refs[i].what);
	row_list_clear(&d->rows);
}

static void list(struct detail *d, const char *label, const struct strlist *l,
		 enum tui_role role, enum point point)
{
	for (size_t i = 0; i < l->nr && i < MAX_LIST; i++) {
		row_add_str(line(d, i ? "" : label), 0, role, l->items[i]);
		if (point != POINT_NONE)
			points_to(d, point, l->items[i]);
	}
	if (l->nr > MAX_LIST)
		row_add(line(d, ""), 0, ROLE_DIM, "... and %zu more", l->nr - MAX_LIST);
}

static void header(struct detail *d, const struct pair_info *p,
		   const struct pair_verdict *v, const char *base)
{
	struct row_data *r = add_row(d);
	struct strbuf sb = STRBUF_INIT;

	if (p->has_pr)
		strbuf_addf(&sb, "PR #%" PRId64, p->pr);
	else
		strbuf_addstr(&sb, "push");
	if (p->repo && *p->repo)
		strbuf_addf(&sb, "  %s", p->repo);
	strbuf_addf(&sb, "  head %.12s  base %.12s  ", p->sha, base && *base ? base : "-");
	tui_fmt_time(&sb, p->at);
	row_add_str(r, 0, ROLE_HEADER, sb.buf);
	r = line(d, "class");
	row_add_str(r, 0, tui_class_role(v->cls), pair_class_name(v->cls));
	if (v->why)
		row_add_str(r, 0, ROLE_DEFAULT, v->why);
	strbuf_release(&sb);
}

/* A disagreement's state, in the words of the disagreements view. */
static void state(struct tui *t, struct detail *d)
{
	enum proposal_state st;
	const char *why;
	struct row_data *r;
	struct note_info *n;
	size_t nr = 0;

	d->props_generation = t->fig.props_generation;
	if (d->cls == CLASS_AGREE || d->cls == CLASS_INCOMPLETE)
		return;
	if (query_notes(t->store, d->head_id, &n, &nr) == 0)
		notes_release(n, nr);
	d->explained = nr > 0;
	r = line(d, "state");
	if (!tui_pair_state(t, d->head_id, d->cls, d->explained, &st, &why)) {
		row_add_str(r, 0, ROLE_DIM, "...");
		return;
	}
	row_add_str(r, 0, st == PROPOSAL_CLOSABLE || st == PROPOSAL_UNCLOSABLE ? ROLE_BAD :
		    ROLE_GOOD, proposal_state_name(st));
	if (why)
		row_add(r, 0, ROLE_DEFAULT, "(%s)", why);
}

static int notes(struct tui *t, struct detail *d, int64_t head_id)
{
	struct note_info *n;
	size_t nr;

	if (query_notes(t->store, head_id, &n, &nr) < 0)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		struct strbuf when = STRBUF_INIT;
		struct row_data *r = line(d, i ? "" : "note");

		time_format_date(&when, n[i].created_at);
		row_add_str(r, 10, ROLE_DIM, when.buf);
		row_add_str(r, 0, ROLE_DEFAULT, n[i].text);
		strbuf_release(&when);
	}
	notes_release(n, nr);
	return 0;
}

static void selection(struct detail *d, const struct run_info *r)
{
	struct row_data *row = line(d, "selection");
	struct strbuf sb = STRBUF_INIT;
	double af = run_affected_fraction(r);

	if (!r || r->decision == DECISION_NONE) {
		row_add_str(row, 0, ROLE_DIM, "-");
		return;
	}
	strbuf_addstr(&sb, decision_name(r->decision));
	if (r->has_selected && r->has_total)
		strbuf_addf(&sb, ", %" PRId64 " of %" PRId64 " tests", r->selected_count,
			    r->total_tests);
	if (!isnan(af))
		strbuf_addf(&sb, " (affected %.3f)", af);
	row_add_str(row, 0, ROLE_DEFAULT, sb.buf);
	list(d, "reasons", &r->reasons, ROLE_WARN, POINT_REASON);
	strbuf_release(&sb);
}

static void coverage_line(struct detail *d, const struct run_info *r)
{
	struct row_data *row = line(d, "diff cov");
	double dc = run_diff_coverage(r);

	if (isnan(dc))
		row_add_str(row, 0, ROLE_DIM, "n/a");
	else
		row_add(row, 0, dc < METRICS_DEFAULT_THRESHOLD ? ROLE_WARN : ROLE_DEFAULT,
			"%.2f (%" PRId64 " of %" PRId64 " changed executable lines run)",
			dc, r->cov_hit, r->cov_lines);
}

/* The rule a path meets, with where it comes from (adapters/ruleset.h); "(no rule)" for none. */
static void rule_of(struct tui *t, const char *path, struct strbuf *out)
{
	strbuf_reset(out);
	ruleset_path_text(&tui_rules(t)->set, path, out);
	if (!strcmp(out->buf, "no rule")) {
		strbuf_reset(out);
		strbuf_addstr(out, "(no rule)");
	}
}

static const struct coverage_info *cov_of(const struct run_coverage *c, const char *path)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->files[i].path, path))
			return &c->files[i];
	return NULL;
}

static int changed(struct tui *t, struct detail *d, const struct run_info *dr,
		   const struct run_info *shadow)
{
	struct diff_info diff;
	struct run_coverage cov = { 0 };
	struct strbuf rule = STRBUF_INIT;
	enum tui_role role;
	bool under;
	int rc, rule_width = 9; /* "(no rule)" */

	if (!dr || !dr->diff_id) {
		row_add_str(line(d, "changed"), 0, ROLE_DIM, "unknown (no diff recorded)");
		return 0;
	}
	rc = query_diff(t->store, dr->diff_id, &diff);
	if (rc < 0)
		return -1;
	if (rc == 1 || diff.unknown) {
		row_add_str(line(d, "changed"), 0, ROLE_DIM,
			    "unknown (the commits are not in the repository)");
		diff_info_release(&diff);
		return 0;
	}
	if (shadow && shadow->has_cov && query_run_coverage(t->store, shadow->id, &cov) < 0) {
		diff_info_release(&diff);
		return -1;
	}
	if (!diff.nr)
		row_add_str(line(d, "changed"), 0, ROLE_DIM, "(nothing)");
	/* The rule column is as wide as its longest rule name. */
	for (size_t i = 0; i < diff.nr; i++) {
		int w;

		rule_of(t, diff.files[i].path, &rule);
		w = tui_text_width(rule.buf);
		if (w > rule_width)
			rule_width = w;
	}
	/* A rule too wide to leave a path room beside it goes on a line under it. */
	under = rule_width > t->cols - 55;
	for (size_t i = 0; i < diff.nr; i++) {
		const struct diff_file_info *f = &diff.files[i];
		const struct coverage_info *c = cov_of(&cov, f->path);
		struct row_data *row = line(d, i ? "" : "changed");
		rule_of(t, f->path, &rule);
		points_to(d, POINT_PATH, f->path);
		row_add(row, 1, ROLE_DEFAULT, "%c", f->status);
		if (f->old_path)
			row_add(row, 0, ROLE_DEFAULT, "%s <- %s", f->path, f->old_path);
		else
			row_add_str(row, 0, ROLE_DEFAULT, f->path);
		role = starts_with(rule.buf, "(no rule") || starts_with(rule.buf, "no rule") ?
		       ROLE_DIM : ROLE_WARN;
		if (!under)
			row_add_str(row, rule_width, role, rule.buf);
		if (c && c->executable.nr)
			row_add(row, -9, ROLE_DEFAULT, "%zu/%zu %.0f%%", c->executed.nr,
				c->executable.nr,
				100.0 * (double)c->executed.nr / (double)c->executable.nr);
		else
			row_add_str(row, -9, ROLE_DIM, "n/a");
		if (under && strcmp(rule.buf, "(no rule)"))
			row_add(line(d, ""), 0, role, "  %s", rule.buf);
	}
	run_coverage_release(&cov);
	diff_info_release(&diff);
	strbuf_release(&rule);
	return 0;
}


static int runs(struct tui *t, struct detail *d, const struct pair_info *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct run_info *r = &p->runs[i];
		struct strlist failed = STRLIST_INIT;
		struct strbuf sb = STRBUF_INIT;
		struct row_data *row;

		if (query_run_failed_ids(t->store, r->id, &failed) < 0)
			return -1;
		row = line(d, i ? "" : "runs");
		row_add(row, 9, ROLE_DEFAULT, "%s #%d", run_kind_name(r->kind), r->attempt);
		row_add_str(row, 5, r->verdict == VERDICT_PASS ? ROLE_GOOD : ROLE_BAD,
			    verdict_name(r->verdict));
		tui_fmt_short_time(&sb, r->started_at);
		row_add_str(row, 11, ROLE_DEFAULT, sb.buf);
		strbuf_reset(&sb);
		metrics_fmt_secs(&sb, r->wall_clock_s);
		row_add_str(row, -7, ROLE_DEFAULT, sb.buf);
		row_add(row, 0, ROLE_DEFAULT, "%" PRId64 " tests, %zu failed, %" PRId64
			" skipped", r->tests, failed.nr, r->skipped);
		if (r->git == RUN_GIT_UNKNOWN)
			row_add_str(line(d, ""), 0, ROLE_WARN, "  git-unknown: a commit is not "
				    "in the repository");
		for (size_t j = 0; j < failed.nr && j < MAX_LIST; j++) {
			row = line(d, "");
			points_to(d, POINT_TEST, failed.items[j]);
			row_add_str(row, 8, ROLE_DIM, "  failed");
			row_add_str(row, 0, ROLE_BAD, failed.items[j]);
		}
		if (failed.nr > MAX_LIST)
			row_add(line(d, ""), 0, ROLE_DIM, "... and %zu more", failed.nr - MAX_LIST);
		strlist_release(&failed);
		strbuf_release(&sb);
	}
	return 0;
}

/* The run of main the pair's failures were read against (show's "main" line). */
static void main_line(struct detail *d, const struct pair_verdict *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (v->cover.run_id)
		strbuf_addf(&sb, "read against main's run at %.12s: red there on %zu of its "
			    "failures", v->cover.sha, v->inherited.nr);
	else if (pair_class_is_escape(v->cls))
		strbuf_addstr(&sb, "no run of main covers its base: record main's post-merge runs");
	if (sb.len)
		row_add_str(line(d, "main"), 0, ROLE_DIM, sb.buf);
	strbuf_release(&sb);
}

static int build(struct tui *t, struct detail *d)
{
	struct pair_info p;
	struct pair_verdict v;
	const struct run_info *shadow, *dr;
	struct strlist entries = STRLIST_INIT;
	int ret;

	rows_clear(d);
	ret = tui_load_pair(t, d->head_id, &p);
	if (ret) {
		row_add_str(line(d, ""), 0, ROLE_DIM, "this change is no longer in the store");
		return ret < 0 ? -1 : 0;
	}
	if (classify_pair(t->store, t->cfg.idmap, &p, &v) < 0) {
		pair_verdict_release(&v);
		pair_info_release(&p);
		return -1;
	}
	d->cls = v.cls;
	shadow = v.shadow; /* as its pair answers it (a whole-suite answer: run_all) */
	dr = shadow && shadow->diff_id ? shadow : pair_latest(&p, RUN_FULL);
	header(d, &p, &v, dr ? dr->base : NULL);
	state(t, d);
	ret = notes(t, d, p.head_id);
	list(d, "missed", &v.missed, ROLE_BAD, POINT_TEST);
	list(d, "sel+failed", &v.non_hermetic, ROLE_BAD, POINT_TEST);
	list(d, "not run", &v.not_run, ROLE_BAD, POINT_TEST);
	list(d, "flaky", &v.flaky, ROLE_WARN, POINT_TEST);
	list(d, "quarantined", &v.quarantined, ROLE_DIM, POINT_TEST);
	list(d, "inherited", &v.inherited, ROLE_WARN, POINT_TEST);
	list(d, "latent miss", &v.latent, ROLE_WARN, POINT_TEST);
	main_line(d, &v);
	selection(d, shadow);
	coverage_line(d, shadow);
	if (!ret)
		ret = changed(t, d, dr, shadow);
	if (!ret)
		ret = runs(t, d, &p);
	if (!ret && shadow && pair_latest(&p, RUN_SHADOW)->decision == DECISION_SELECTED)
		ret = query_selection_entries(t->store, shadow->id, &entries);
	if (!ret && entries.nr) {
		strlist_sort(&entries);
		list(d, "selected", &entries, ROLE_DEFAULT, POINT_NONE);
	}
	strlist_release(&entries);
	pair_verdict_release(&v);
	pair_info_release(&p);
	return ret;
}

int tui_detail_set(struct tui *t, int64_t head_id)
{
	struct detail *d = t->views[VIEW_DETAIL].priv;

	d->head_id = head_id;
	d->loaded = true;
	return build(t, d);
}

static int detail_open(struct tui *t, struct view *v)
{
	v->priv = xcalloc(1, sizeof(struct detail));
	/* An escape's state comes with the proposals. */
	tui_proposals_want(t);
	return 0;
}

static void detail_reload(struct tui *t, struct view *v)
{
	struct detail *d = v->priv;

	if (d->loaded && build(t, d) < 0)
		tui_message(t, true, "cannot read that change from the store");
}

/* The state line follows the proposals, which may arrive after the rows. */
static void sync_state(struct tui *t, struct detail *d)
{
	if (d->loaded && d->props_generation != t->fig.props_generation &&
	    pair_class_is_escape(d->cls) && build(t, d) < 0)
		tui_message(t, true, "cannot read that change from the store");
}

static size_t detail_lines(struct tui *t, struct view *v)
{
	sync_state(t, v->priv);
	return ((struct detail *)v->priv)->rows.nr;
}

static void detail_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct detail *d = v->priv;

	sync_state(t, d);
	if (lineno < d->rows.nr)
		row_copy(row, &d->rows.rows[lineno]);
}

/* The glob that means exactly path (a root file is anchored: "/name"). */
static char *path_glob(const char *path)
{
	struct proposal_candidates c = { 0 };
	char *glob = NULL;

	proposals_path_candidates(path, &c);
	for (size_t i = 0; i < c.nr && !glob; i++)
		if (c.items[i].form == FORM_FILE)
			glob = xstrdup(c.items[i].glob);
	proposal_candidates_release(&c);
	return glob;
}

static enum reaction detail_request(struct tui *t, struct view *v, enum request req)
{
	struct detail *d = v->priv;
	const struct line_ref *ref;
	enum reaction r;
	char *pattern;

	if (req != REQ_ENTER)
		return R_UNHANDLED;
	ref = v->lineno < d->rows.nr ? &d->refs[v->lineno] : NULL;
	switch (ref ? ref->point : POINT_NONE) {
	case POINT_TEST:
		pattern = tui_literal_pattern(ref->what);
		r = tui_goto(t, VIEW_DISAGREE, pattern, NULL, false);
		free(pattern);
		return r;
	case POINT_REASON:
		pattern = tui_literal_pattern(ref->what);
		r = tui_goto(t, VIEW_RUNS, pattern, NULL, false);
		free(pattern);
		return r;
	case POINT_PATH:
		pattern = path_glob(ref->what);
		if (!pattern) {
			tui_message(t, true, "no glob names this path");
			return R_REDRAW;
		}
		r = tui_proposals_preview(t, pattern);
		free(pattern);
		return r;
	case POINT_NONE:
		break;
	}
	tui_message(t, false, "nothing to open on this line (o opens the commit)");
	return R_REDRAW;
}

static bool detail_head(struct tui *t, struct view *v, int64_t *head_id)
{
	struct detail *d = v->priv;

	UNUSED(t);
	*head_id = d->head_id;
	return d->loaded;
}

static bool detail_copy(struct tui *t, struct view *v, struct strbuf *out)
{
	struct detail *d = v->priv;

	UNUSED(t);
	if (v->lineno >= d->rows.nr || !d->refs[v->lineno].what)
		return false;
	strbuf_addstr(out, d->refs[v->lineno].what);
	return true;
}

static void detail_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct detail *d = v->priv;

	UNUSED(t);
	strbuf_addstr(sb, pair_class_name(d->cls));
}

static void detail_save(struct tui *t, struct view *v, FILE *f)
{
	UNUSED(t);
	row_list_save(&((struct detail *)v->priv)->rows, f);
}

static void detail_done(struct view *v)
{
	struct detail *d = v->priv;

	rows_clear(d);
	row_list_release(&d->rows);
	free(d->refs);
	free(d);
	v->priv = NULL;
}

const struct view_ops detail_view_ops = {
	.name = "detail",
	.title = "Detail",
	.keymap = KEYMAP_DETAIL,
	.open = detail_open,
	.reload = detail_reload,
	.lines = detail_lines,
	.row_data = detail_row,
	.request = detail_request,
	.status = detail_status,
	.save = detail_save,
	.done = detail_done,
	.selected_head = detail_head,
	.copy_text = detail_copy,
};
