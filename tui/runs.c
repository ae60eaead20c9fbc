/* The Runs view: every head of the window, a page at a time through the query layer
 * (classified as it loads), sorted by any column, filtered by a PCRE2 regex. */
#include "core/tiadash.h"
#include "metrics/common.h"
#include "tui/tui.h"

#include <langinfo.h>

#define PAGE_ROWS 64
#define NR_PAGES 4
#define SCAN_ROWS 512 /* heads a sort or filter job reads per step */

#define RUNS_COLUMNS(_)                                                        \
	_(DATE, "date", "DATE", 11)                                            \
	_(PR, "pr", "PR", -6)                                                  \
	_(HEAD, "head", "HEAD", 7)                                             \
	_(CLASS, "class", "CLASS", 12)                                         \
	_(DECISION, "decision", "DECISION", 8)                                 \
	_(AFFECTED, "affected", "AFF", -5)                                     \
	_(SHADOW, "shadow", "SHADOW", -6)                                      \
	_(FULL, "full", "FULL", -6)                                            \
	_(DIFFCOV, "diff-coverage", "DCOV", -5)

/* After the sortable columns: the verdicts ("error/error"), the repository, the reasons. */
#define VERDICTS_WIDTH 11
#define REPO_MAX_WIDTH 40

enum runs_col {
#define COL_ENUM_(id, name, title, width) COL_##id,
	RUNS_COLUMNS(COL_ENUM_)
#undef COL_ENUM_
	NR_COLS
};

static const struct {
	const char *name, *title;
	int width;
} columns[] = {
#define COL_ROW_(id, name, title, width) { name, title, width },
	RUNS_COLUMNS(COL_ROW_)
#undef COL_ROW_
};

/* One row of the view: a pair as classified when its page loaded. */
struct runs_row {
	int64_t head_id;
	char sha[41];
	bool has_pr;
	int64_t pr;
	char *repo;
	int64_t at;
	enum pair_class cls;
	enum decision decision;
	enum verdict shadow_verdict, full_verdict;
	bool has_shadow, has_full;
	double affected, shadow_wall_s, full_wall_s, diff_coverage;
	size_t missed;
	char *reasons;       /* the shadow run's force-full reasons, ", "-joined */
};

struct page {
	size_t index; /* rows [index * PAGE_ROWS, ...) of the current order */
	struct runs_row rows[PAGE_ROWS];
	size_t nr;
	unsigned used; /* LRU clock */
	bool valid;
};

/* A sort or filter being applied: a scan of the window's heads. */
struct order_job {
	bool active;
	enum runs_col sort;
	bool desc;
	char *filter;        /* NULL: none */
	struct tui_regex *re;
	bool keep_cursor;    /* on the same head (a new sort), else the first line */
	int64_t scanned, total;
	struct sort_key {
		double key;
		int64_t pos, id;
	} *keys;
	size_t nr, alloc;
};

struct runs {
	int64_t total;          /* heads in the window */
	struct page pages[NR_PAGES];
	unsigned clock;
	/* The order: NULL ids is window order (reversed when desc). */
	int64_t *ids;
	size_t nr_ids;
	enum runs_col sort;
	bool desc;
	char *filter;
	struct order_job job;
	int repo_width;         /* the widest repository name in the store */
	struct tui *t;
};

static void row_release_data(struct runs_row *r)
{
	free(r->repo);
	free(r->reasons);
	r->repo = NULL;
	r->reasons = NULL;
}

static void pages_clear(struct runs *rv)
{
	for (size_t i = 0; i < NR_PAGES; i++) {
		for (size_t j = 0; j < rv->pages[i].nr; j++)
			row_release_data(&rv->pages[i].rows[j]);
		rv->pages[i].nr = 0;
		rv->pages[i].valid = false;
	}
}

static void fill(struct runs_row *r, const struct pair_info *p, const struct pair_verdict *v)
{
	memset(r, 0, sizeof(*r));
	r->head_id = p->head_id;
	memcpy(r->sha, p->sha, sizeof(r->sha));
	r->has_pr = p->has_pr;
	r->pr = p->pr;
	r->repo = xstrdup(p->repo ? p->repo : "");
	r->at = p->at;
	r->cls = v->cls;
	r->has_shadow = v->shadow != NULL;
	r->has_full = v->full != NULL;
	r->shadow_verdict = v->shadow ? v->shadow->verdict : VERDICT_PASS;
	r->full_verdict = v->full ? v->full->verdict : VERDICT_PASS;
	r->decision = v->shadow ? v->shadow->decision : DECISION_NONE;
	r->affected = run_affected_fraction(v->shadow);
	r->shadow_wall_s = v->shadow ? v->shadow->wall_clock_s : NAN;
	r->full_wall_s = v->full ? v->full->wall_clock_s : NAN;
	r->diff_coverage = run_diff_coverage(v->shadow);
	r->missed = pair_class_is_escape(v->cls) ? v->missed.nr + v->non_hermetic.nr : 0;
	if (v->shadow && v->shadow->reasons.nr) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < v->shadow->reasons.nr; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", v->shadow->reasons.items[i]);
		r->reasons = strbuf_detach(&sb, NULL);
	}
}

struct load {
	struct tui *t;
	struct runs_row *rows;
	size_t nr, cap;
	int (*each)(struct load *l, struct runs_row *r); /* scans: instead of storing */
	void *data;
};

static int on_pair(const struct pair_info *p, void *data)
{
	struct load *l = data;
	struct pair_verdict v;
	struct runs_row tmp, *r = l->each ? &tmp : &l->rows[l->nr];
	int ret;

	if (!l->each && l->nr >= l->cap)
		return 1;
	if (classify_pair(l->t->store, l->t->cfg.idmap, p, &v) < 0) {
		pair_verdict_release(&v);
		return -1;
	}
	fill(r, p, &v);
	pair_verdict_release(&v);
	if (!l->each) {
		l->nr++;
		return 0;
	}
	ret = l->each(l, r);
	row_release_data(r);
	return ret;
}

/* Rows [first, first + n) of the current order into out. */
static int load_rows(struct runs *rv, size_t first, size_t n, struct runs_row *out, size_t *got)
{
	struct load l = { .t = rv->t, .rows = out, .cap = n };
	int ret;

	if (rv->ids) {
		if (first >= rv->nr_ids)
			n = 0;
		else if (first + n > rv->nr_ids)
			n = rv->nr_ids - first;
		ret = query_pairs_by_ids(rv->t->store, rv->ids + first, n, on_pair, &l);
	} else if (!rv->desc) {
		ret = query_pairs_page(rv->t->store, &rv->t->opts.window, (int64_t)first,
				       (int64_t)n, on_pair, &l);
	} else {
		/* Reversed window order: load the mirrored page, then flip it. */
		int64_t last = rv->total - 1 - (int64_t)first;
		int64_t lo = last - (int64_t)n + 1;

		if (lo < 0)
			lo = 0;
		l.cap = (size_t)(last - lo + 1);
		ret = last < 0 ? 0 :
			query_pairs_page(rv->t->store, &rv->t->opts.window, lo,
					 last - lo + 1, on_pair, &l);
		for (size_t i = 0; i < l.nr / 2; i++) {
			struct runs_row x = out[i];

			out[i] = out[l.nr - 1 - i];
			out[l.nr - 1 - i] = x;
		}
	}
	*got = l.nr;
	return ret < 0 ? -1 : 0;
}

static const struct runs_row *row_at(struct runs *rv, size_t lineno)
{
	size_t index = lineno / PAGE_ROWS;
	struct page *pg = NULL, *victim = &rv->pages[0];

	for (size_t i = 0; i < NR_PAGES; i++) {
		if (rv->pages[i].valid && rv->pages[i].index == index)
			pg = &rv->pages[i];
		if (!rv->pages[i].valid ||
		    (victim->valid && rv->pages[i].used < victim->used))
			victim = &rv->pages[i];
	}
	if (!pg) {
		pg = victim;
		for (size_t j = 0; j < pg->nr; j++)
			row_release_data(&pg->rows[j]);
		pg->nr = 0;
		pg->valid = true;
		pg->index = index;
		if (load_rows(rv, index * PAGE_ROWS, PAGE_ROWS, pg->rows, &pg->nr) < 0)
			tui_message(rv->t, true, "cannot read the runs from the store");
	}
	pg->used = ++rv->clock;
	return lineno % PAGE_ROWS < pg->nr ? &pg->rows[lineno % PAGE_ROWS] : NULL;
}

static const char *verdict_or_dash(bool has, enum verdict v)
{
	return has ? verdict_name(v) : "-";
}

/*
 * The cells of a row; the filter matches their text (and the full sha).
 * The columns past the screen's edge are there for a scroll right.
 */
static void runs_cells(const struct runs *rv, const struct runs_row *r, struct row_data *row)
{
	struct strbuf sb = STRBUF_INIT;

	tui_fmt_short_time(&sb, r->at);
	row_add_str(row, columns[COL_DATE].width, ROLE_DEFAULT, sb.buf);
	if (r->has_pr)
		row_add(row, columns[COL_PR].width, ROLE_DEFAULT, "#%" PRId64, r->pr);
	else
		row_add_str(row, columns[COL_PR].width, ROLE_DIM, "push");
	row_add(row, columns[COL_HEAD].width, ROLE_DEFAULT, "%.7s", r->sha);
	row_add_str(row, columns[COL_CLASS].width, tui_class_role(r->cls),
		    pair_class_name(r->cls));
	row_add_str(row, columns[COL_DECISION].width, ROLE_DEFAULT,
		    r->decision == DECISION_NONE ? "-" : decision_name(r->decision));
	strbuf_reset(&sb);
	metrics_fmt(&sb, "%.3f", r->affected);
	row_add_str(row, columns[COL_AFFECTED].width, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	metrics_fmt_secs(&sb, r->shadow_wall_s);
	row_add_str(row, columns[COL_SHADOW].width, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	metrics_fmt_secs(&sb, r->full_wall_s);
	row_add_str(row, columns[COL_FULL].width, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	metrics_fmt(&sb, "%.2f", r->diff_coverage);
	row_add_str(row, columns[COL_DIFFCOV].width, ROLE_DEFAULT, sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s", verdict_or_dash(r->has_shadow, r->shadow_verdict),
		    verdict_or_dash(r->has_full, r->full_verdict));
	row_add_str(row, VERDICTS_WIDTH, ROLE_DEFAULT, sb.buf);
	row_add_str(row, rv->repo_width, ROLE_DEFAULT, r->repo);
	row_add_str(row, 0, ROLE_DEFAULT, r->reasons);
	strbuf_release(&sb);
}

/* The repository column: as wide as the longest name (up to REPO_MAX_WIDTH). */
static void size_repo_column(struct runs *rv)
{
	struct strlist repos = STRLIST_INIT;

	rv->repo_width = (int)strlen("REPO");
	if (query_repos(rv->t->store, &repos) < 0)
		tui_message(rv->t, true, "cannot read the repositories from the store");
	for (size_t i = 0; i < repos.nr; i++) {
		int w = tui_text_width(repos.items[i]);

		if (w > rv->repo_width)
			rv->repo_width = w < REPO_MAX_WIDTH ? w : REPO_MAX_WIDTH;
	}
	strlist_release(&repos);
}

/* The sorted column's title carries an arrow: up ascending, down descending. */
static const char *arrow(bool desc)
{
	const char *cs = nl_langinfo(CODESET);
	bool utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));

	return utf8 ? (desc ? "\u2193" : "\u2191") : (desc ? "v" : "^");
}

static void runs_header(const struct runs *rv, struct row_data *row)
{
	for (int i = 0; i < NR_COLS; i++) {
		if (i == (int)rv->sort)
			row_add(row, columns[i].width, ROLE_DEFAULT, "%s%s", columns[i].title,
				arrow(rv->desc));
		else
			row_add_str(row, columns[i].width, ROLE_DEFAULT, columns[i].title);
	}
	row_add_str(row, VERDICTS_WIDTH, ROLE_DEFAULT, "VERDICTS");
	row_add_str(row, rv->repo_width, ROLE_DEFAULT, "REPO");
	row_add_str(row, 0, ROLE_DEFAULT, "REASONS");
}

/* The first 13 hex digits of a sha: 52 bits, exact in a double. */
static double sha_key(const char *sha)
{
	char head[14];

	memcpy(head, sha, 13);
	head[13] = '\0';
	return (double)strtoull(head, NULL, 16);
}

/* Escapes first: the order the disagreements view uses too. */
static double class_rank(enum pair_class c)
{
	static const double rank[NR_CLASSES] = {
		[CLASS_ESCAPE] = 0, [CLASS_NON_HERMETIC] = 1, [CLASS_OVER_STRICT] = 2,
		[CLASS_FLAKY] = 3, [CLASS_INCOMPLETE] = 4, [CLASS_AGREE] = 5,
		[CLASS_INHERITED] = 3.5, [CLASS_UNRESOLVED] = 1.5, [CLASS_MAIN] = 6,
	};

	return rank[c];
}

static double sort_key(const struct runs_row *r, enum runs_col col)
{
	switch (col) {
	case COL_DATE:
		return (double)r->at;
	case COL_PR:
		return r->has_pr ? (double)r->pr : NAN;
	case COL_HEAD:
		return sha_key(r->sha);
	case COL_CLASS:
		return class_rank(r->cls);
	case COL_DECISION:
		return r->decision == DECISION_NONE ? NAN : (double)r->decision;
	case COL_AFFECTED:
		return r->affected;
	case COL_SHADOW:
		return r->shadow_wall_s;
	case COL_FULL:
		return r->full_wall_s;
	case COL_DIFFCOV:
		return r->diff_coverage;
	case NR_COLS:
		break;
	}
	return NAN;
}

/* The job. */

static void job_release(struct order_job *j)
{
	free(j->filter);
	tui_regex_free(j->re);
	free(j->keys);
	memset(j, 0, sizeof(*j));
}

static int scan_row(struct load *l, struct runs_row *r)
{
	struct order_job *j = l->data;

	if (j->re) {
		const struct runs *rv = l->t->views[VIEW_RUNS].priv;
		struct row_data row = ROW_DATA_INIT;
		struct strbuf text = STRBUF_INIT;
		bool rc;

		runs_cells(rv, r, &row);
		row_text(&row, &text);
		strbuf_addf(&text, " %s", r->sha);
		rc = tui_regex_match(j->re, text.buf, text.len);
		row_release(&row);
		strbuf_release(&text);
		if (!rc) {
			j->scanned++;
			return 0;
		}
	}
	ALLOC_GROW(j->keys, j->nr + 1, j->alloc);
	j->keys[j->nr].key = sort_key(r, j->sort);
	j->keys[j->nr].pos = j->scanned;
	j->keys[j->nr].id = r->head_id;
	j->nr++;
	j->scanned++;
	return 0;
}

static int cmp_asc(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;

	/* Unknown values last, whatever the direction. */
	if (isnan(a->key) != isnan(b->key))
		return isnan(a->key) ? 1 : -1;
	if (!isnan(a->key) && a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_desc(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;

	if (isnan(a->key) != isnan(b->key))
		return isnan(a->key) ? 1 : -1;
	if (!isnan(a->key) && a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return (a->pos < b->pos) - (a->pos > b->pos);
}

/* Window order, no filter: pages come straight from query_pairs_page. */
static bool plain_order(enum runs_col sort, const char *filter)
{
	return sort == COL_DATE && !filter;
}

static void install_order(struct runs *rv, struct order_job *j)
{
	bool keep = j->keep_cursor;
	int64_t head = -1;
	const struct runs_row *cur;
	struct view *v = &rv->t->views[VIEW_RUNS];

	cur = rv->total || rv->ids ? row_at(rv, v->lineno) : NULL;
	if (cur)
		head = cur->head_id;
	free(rv->ids);
	rv->ids = NULL;
	rv->nr_ids = 0;
	rv->sort = j->sort;
	rv->desc = j->desc;
	free(rv->filter);
	rv->filter = j->filter ? xstrdup(j->filter) : NULL;
	if (!plain_order(j->sort, j->filter)) {
		qsort(j->keys, j->nr, sizeof(*j->keys), j->desc ? cmp_desc : cmp_asc);
		rv->ids = xmalloc((j->nr ? j->nr : 1) * sizeof(*rv->ids));
		for (size_t i = 0; i < j->nr; i++)
			rv->ids[i] = j->keys[i].id;
		rv->nr_ids = j->nr;
	}
	pages_clear(rv);
	/* A new order keeps the cursor on the same head when it is still listed. */
	v->lineno = 0;
	for (size_t i = 0; keep && rv->ids && head >= 0 && i < rv->nr_ids; i++) {
		if (rv->ids[i] == head) {
			v->lineno = i;
			break;
		}
	}
	v->offset = v->lineno > 5 ? v->lineno - 5 : 0;
	job_release(j);
}

/* Sort and filter (NULL: none; it compiles) by a scan of the window. */
static void start_job(struct runs *rv, enum runs_col sort, bool desc, const char *filter,
		      bool keep_cursor)
{
	struct order_job *j = &rv->job;
	struct strbuf err = STRBUF_INIT;

	job_release(j);
	j->active = true;
	j->keep_cursor = keep_cursor;
	j->sort = sort;
	j->desc = desc;
	j->filter = filter ? xstrdup(filter) : NULL;
	j->re = filter ? tui_regex_compile(filter, &err) : NULL;
	strbuf_release(&err);
	j->total = rv->total;
	/* Window order in either direction needs no scan. */
	if (plain_order(sort, filter))
		j->scanned = j->total;
}

static bool runs_step(struct tui *t, struct view *v)
{
	struct runs *rv = v->priv;
	struct order_job *j = &rv->job;
	struct load l = { .t = t, .each = scan_row, .data = j };

	if (!j->active)
		return false;
	if (j->scanned < j->total) {
		int64_t from = j->scanned;

		if (query_pairs_page(t->store, &t->opts.window, from, SCAN_ROWS, on_pair, &l) < 0) {
			tui_message(t, true, "cannot read the runs from the store");
			job_release(j);
			return false;
		}
		if (j->scanned == from) /* the store shrank under us */
			j->scanned = j->total;
		if (j->scanned < j->total)
			return true;
	}
	install_order(rv, j);
	return false;
}

static int runs_open(struct tui *t, struct view *v)
{
	struct runs *rv = xcalloc(1, sizeof(*rv));

	rv->t = t;
	rv->total = t->heads;
	rv->sort = COL_DATE;
	size_repo_column(rv);
	v->priv = rv;
	return 0;
}

static void runs_reload(struct tui *t, struct view *v)
{
	struct runs *rv = v->priv;
	enum runs_col sort = rv->job.active ? rv->job.sort : rv->sort;
	bool desc = rv->job.active ? rv->job.desc : rv->desc;
	const char *f = rv->job.active ? rv->job.filter : rv->filter;
	char *filter = f ? xstrdup(f) : NULL;

	pages_clear(rv);
	rv->total = t->heads;
	size_repo_column(rv);
	start_job(rv, sort, desc, filter, true);
	free(filter);
}

static size_t runs_lines(struct tui *t, struct view *v)
{
	struct runs *rv = v->priv;

	UNUSED(t);
	return rv->ids ? rv->nr_ids : (size_t)rv->total;
}

static void runs_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct runs *rv = v->priv;
	const struct runs_row *r;

	UNUSED(t);
	if (lineno == SIZE_MAX) {
		runs_header(rv, row);
		return;
	}
	r = row_at(rv, lineno);
	if (r)
		runs_cells(rv, r, row);
}

static const struct runs_row *selected(struct tui *t, struct view *v)
{
	struct runs *rv = v->priv;

	return runs_lines(t, v) ? row_at(rv, v->lineno) : NULL;
}

static enum reaction runs_request(struct tui *t, struct view *v, enum request req)
{
	struct runs *rv = v->priv;
	const struct runs_row *r;

	switch (req) {
	case REQ_ENTER:
		r = selected(t, v);
		return r ? tui_open_detail(t, r->head_id) : R_REDRAW;
	case REQ_SORT:
		start_job(rv, (enum runs_col)((rv->sort + 1) % NR_COLS), false, rv->filter, true);
		return R_REDRAW;
	case REQ_SORT_REVERSE:
		start_job(rv, rv->sort, !rv->desc, rv->filter, true);
		return R_REDRAW;
	default:
		return R_UNHANDLED;
	}
}

static void runs_filter(struct tui *t, struct view *v, const char *pattern)
{
	struct runs *rv = v->priv;

	UNUSED(t);
	start_job(rv, rv->job.active ? rv->job.sort : rv->sort,
		  rv->job.active ? rv->job.desc : rv->desc, pattern, false);
}

static void runs_sort(struct tui *t, struct view *v, const char *column, bool desc)
{
	struct runs *rv = v->priv;
	const char *filter = rv->job.active ? rv->job.filter : rv->filter;
	char *keep = filter ? xstrdup(filter) : NULL;

	UNUSED(t);
	for (int i = 0; i < NR_COLS; i++)
		if (!strcmp(columns[i].name, column))
			start_job(rv, (enum runs_col)i, desc, keep, false);
	free(keep);
}

/* A click on a column's title sorts by it; on the sorted one, reverses. */
static enum reaction runs_click_header(struct tui *t, struct view *v, int x)
{
	struct runs *rv = v->priv;
	int at = 0;

	UNUSED(t);
	for (int i = 0; i < NR_COLS; i++) {
		int w = columns[i].width < 0 ? -columns[i].width : columns[i].width;

		if (x >= at && x < at + w) {
			start_job(rv, (enum runs_col)i, i == (int)rv->sort ? !rv->desc : false,
				  rv->filter, true);
			return R_REDRAW;
		}
		at += w + 1;
	}
	return R_NONE;
}

static bool runs_head(struct tui *t, struct view *v, int64_t *head_id)
{
	const struct runs_row *r = selected(t, v);

	if (r)
		*head_id = r->head_id;
	return r != NULL;
}

static void runs_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct runs *rv = v->priv;

	UNUSED(t);
	strbuf_addf(sb, "sorted by %s, %s", columns[rv->sort].name,
		    rv->desc ? "descending" : "ascending");
	if (rv->filter)
		strbuf_addf(sb, "; %zu of %" PRId64 " match /%s/", rv->nr_ids, rv->total,
			    rv->filter);
	if (rv->job.active && rv->job.total)
		strbuf_addf(sb, "; %s %" PRId64 "%%", rv->job.filter ? "filtering" : "sorting",
			    rv->job.scanned * 100 / rv->job.total);
}

static void runs_save(struct tui *t, struct view *v, FILE *f)
{
	struct runs *rv = v->priv;
	size_t nr = runs_lines(t, v);
	struct row_data row = ROW_DATA_INIT;
	struct strbuf sb = STRBUF_INIT;

	fprintf(f, "sort %s %s\nfilter %s\n", columns[rv->sort].name,
		rv->desc ? "desc" : "asc", rv->filter ? rv->filter : "-");
	for (size_t i = 0; i < nr; i++) {
		const struct runs_row *r = row_at(rv, i);

		row_reset(&row);
		strbuf_reset(&sb);
		if (r)
			runs_cells(rv, r, &row);
		row_text(&row, &sb);
		fprintf(f, "%c %s\n", i == v->lineno ? '>' : ' ', sb.buf);
	}
	row_release(&row);
	strbuf_release(&sb);
}

static void runs_done(struct view *v)
{
	struct runs *rv = v->priv;

	pages_clear(rv);
	job_release(&rv->job);
	free(rv->ids);
	free(rv->filter);
	free(rv);
	v->priv = NULL;
}

const struct view_ops runs_view_ops = {
	.name = "runs",
	.title = "Runs",
	.keymap = KEYMAP_RUNS,
	.header = true,
	.open = runs_open,
	.reload = runs_reload,
	.lines = runs_lines,
	.row_data = runs_row,
	.request = runs_request,
	.status = runs_status,
	.step = runs_step,
	.save = runs_save,
	.done = runs_done,
	.filter = runs_filter,
	.sort = runs_sort,
	.click_header = runs_click_header,
	.selected_head = runs_head,
};
