/* Per-test records over a window: runs, selections, failures, misses, inherited, flakes, quarantine; unquarantine candidates. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "metrics/classify.h"
#include "metrics/testrec.h"

struct pass {
	struct store *s;
	const struct idmap *map;
	struct quarantine_index q;
	struct test_records *out;
	struct strmap index; /* id -> index into out->items */
	const char *only_id;
	int64_t newest_q_at;
	/*
	 * The full runs' test groups met so far, by group id (ascending): full
	 * runs share their groups, so a group's ids are formatted and looked
	 * up once, and a pair's count is integer increments.
	 */
	struct group_recs *groups;
	size_t nr_groups, alloc_groups;
	struct int_vec ids; /* the current run's group ids */
};

/* One test group and the record of each of its cases. */
struct group_recs {
	int64_t id;
	char *suite;
	struct strlist cases;
	int64_t *rec;    /* per case: its index into out->items */
	int64_t only;    /* the case that is only_id, or -1 */
	/*
	 * What every case of the group got from the pairs whose full run ran
	 * it, added into the records at the end: runs, runs in the green
	 * window, selections that took the whole group, the pairs' times.
	 */
	int64_t ran, green_ran, selected, first_at, last_at;
};

/* The index into out->items of id's record, made (never counted) when new. */
static int64_t record_index(struct pass *ps, const char *id)
{
	struct test_records *out = ps->out;
	struct test_record *r;
	int64_t idx;

	if (strmap_get(&ps->index, id, &idx))
		return idx;
	idx = (int64_t)out->nr;
	ALLOC_GROW(out->items, out->nr + 1, out->alloc);
	r = &out->items[out->nr++];
	memset(r, 0, sizeof(*r));
	r->id = xstrdup(id);
	r->first_at = INT64_MAX;
	r->last_at = INT64_MIN;
	strmap_put(&ps->index, id, strlen(id), idx);
	return idx;
}

/* Record idx as seen in a pair at `at`; valid until the next record_index. */
static struct test_record *record_at(struct pass *ps, int64_t idx, int64_t at)
{
	struct test_record *r = &ps->out->items[idx];

	if (at < r->first_at)
		r->first_at = at;
	if (at > r->last_at)
		r->last_at = at;
	return r;
}

/* The record of id, made when new; valid until the next call. */
static struct test_record *record(struct pass *ps, const char *id, int64_t at)
{
	return record_at(ps, record_index(ps, id), at);
}

struct group_fill {
	struct pass *ps;
	struct group_recs *g;
};

static int fill_group(const struct test_group *tg, void *data)
{
	struct group_fill *f = data;
	struct group_recs *g = f->g;
	struct strbuf id = STRBUF_INIT;

	g->suite = xstrdup(tg->suite);
	g->rec = xcalloc(tg->cases->nr ? tg->cases->nr : 1, sizeof(*g->rec));
	for (size_t i = 0; i < tg->cases->nr; i++) {
		strlist_push(&g->cases, tg->cases->items[i]);
		strbuf_reset(&id);
		test_id_format(&id, tg->suite, tg->cases->items[i]);
		g->rec[i] = record_index(f->ps, id.buf);
		if (f->ps->only_id && !strcmp(id.buf, f->ps->only_id))
			g->only = (int64_t)i;
	}
	strbuf_release(&id);
	return 0;
}

/*
 * The group of this id, read from the store the first time (a group that
 * is not there has no case). Valid until the next call; NULL after error().
 */
static struct group_recs *group_get(struct pass *ps, int64_t id)
{
	size_t lo = 0, hi = ps->nr_groups;
	struct group_fill f = { ps, NULL };

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ps->groups[mid].id == id)
			return &ps->groups[mid];
		if (ps->groups[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	ALLOC_GROW(ps->groups, ps->nr_groups + 1, ps->alloc_groups);
	memmove(ps->groups + lo + 1, ps->groups + lo, (ps->nr_groups - lo) * sizeof(*ps->groups));
	ps->nr_groups++;
	f.g = &ps->groups[lo];
	memset(f.g, 0, sizeof(*f.g));
	f.g->id = id;
	f.g->cases = (struct strlist)STRLIST_INIT;
	f.g->only = -1;
	f.g->first_at = INT64_MAX;
	f.g->last_at = INT64_MIN;
	if (query_groups_each(ps->s, &id, 1, fill_group, &f) < 0)
		return NULL;
	if (!f.g->suite)
		f.g->suite = xstrdup("");
	return f.g;
}

static void groups_release(struct pass *ps)
{
	for (size_t i = 0; i < ps->nr_groups; i++) {
		free(ps->groups[i].suite);
		strlist_release(&ps->groups[i].cases);
		free(ps->groups[i].rec);
	}
	free(ps->groups);
	int_vec_release(&ps->ids);
}

struct pair_scan {
	struct pass *ps;
	const struct pair_info *p;
	const struct idset *selected; /* NULL: no shadow run */
	bool recent;                  /* the pair lies in the green window */
	bool only_ran, only_selected; /* the test asked for, in this pair */
};

/*
 * Count one group of the pair's full run: into the group's own counts,
 * but a selection that names some of its cases into their records.
 */
static void count_group(struct pair_scan *sc, struct group_recs *g)
{
	const struct idset *set = sc->selected;
	bool whole = set && idset_selects_suite(set, g->suite);
	bool by_case = set && !whole && idset_may_select_cases(set, g->suite);
	int64_t at = sc->p->at;

	g->ran++;
	g->green_ran += sc->recent;
	g->selected += whole;
	if (at < g->first_at)
		g->first_at = at;
	if (at > g->last_at)
		g->last_at = at;
	for (size_t i = 0; by_case && i < g->cases.nr; i++)
		if (idset_selects_case(set, g->suite, g->cases.items[i]))
			sc->ps->out->items[g->rec[i]].selected++;
	if (g->only >= 0) {
		sc->only_ran = true;
		sc->only_selected = whole || (by_case && idset_selects_case(set, g->suite,
						g->cases.items[g->only]));
	}
}

/* The groups' counts into their cases' records. */
static void flush_groups(struct pass *ps)
{
	for (size_t i = 0; i < ps->nr_groups; i++) {
		const struct group_recs *g = &ps->groups[i];

		for (size_t j = 0; g->ran && j < g->cases.nr; j++) {
			struct test_record *r = record_at(ps, g->rec[j], g->first_at);

			if (g->last_at > r->last_at)
				r->last_at = g->last_at;
			r->ran += g->ran;
			r->green_ran += g->green_ran;
			r->selected += g->selected;
		}
	}
}

/* Every group of the pair's full run (none when it has no stored test list). */
static int scan_run(struct pair_scan *sc, int64_t run_id)
{
	struct pass *ps = sc->ps;
	int ret = query_run_group_ids(ps->s, run_id, &ps->ids);

	if (ret)
		return ret < 0 ? -1 : 0;
	for (size_t i = 0; i < ps->ids.nr; i++) {
		struct group_recs *g = group_get(ps, ps->ids.v[i]);

		if (!g)
			return -1;
		count_group(sc, g);
	}
	return 0;
}

static void count_list(struct pass *ps, const struct pair_info *p, const struct strlist *l,
		       size_t field, bool bad, bool recent)
{
	for (size_t i = 0; i < l->nr; i++) {
		struct test_record *r = record(ps, l->items[i], p->at);

		(*(int64_t *)((char *)r + field))++;
		r->green_bad += bad && recent;
	}
}

/* What the pair did to the test asked for, most telling first. */
static const char *outcome_of(const struct pair_verdict *v, const struct strlist *failed,
			      const char *id, bool ran)
{
	const struct { const struct strlist *l; const char *name; } order[] = {
		{ &v->missed, "missed" }, { &v->inherited, "inherited" },
		{ &v->quarantined, "quarantined" }, { &v->flaky, "flaky" }, { failed, "failed" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (strlist_sorted_has(order[i].l, id))
			return order[i].name;
	return ran ? "passed" : NULL;
}

static void add_event(struct pass *ps, const struct pair_info *p, const struct pair_verdict *v,
		      const char *outcome, bool selected)
{
	struct test_records *out = ps->out;
	struct test_event *e;

	ALLOC_GROW(out->history, out->nr_history + 1, out->alloc_history);
	e = &out->history[out->nr_history++];
	e->at = p->at;
	e->has_pr = p->has_pr;
	e->pr = p->pr;
	memcpy(e->sha, p->sha, sizeof(e->sha));
	e->class_name = pair_class_name(v->cls);
	e->outcome = outcome;
	e->selected = selected;
}

/* The newest quarantine list of the window: the latest pair's. */
static void note_quarantine(struct pass *ps, const struct pair_info *p, const struct run_info *full)
{
	if (p->at < ps->newest_q_at)
		return;
	ps->newest_q_at = p->at;
	quarantine_list_release(&ps->out->quarantine);
	quarantine_index_get(&ps->q, full->id, &ps->out->quarantine);
}

static int read_pair(struct pass *ps, const struct pair_info *p, struct pair_verdict *v)
{
	struct idset sel = IDSET_INIT;
	struct strlist failed = STRLIST_INIT;
	struct pair_scan scan = { ps, p, v->shadow ? &sel : NULL, p->at >= ps->out->green_since,
				  false, false };
	int ret = v->shadow ? selection_idset(ps->s, ps->map, v->shadow, &sel) : 0;

	if (!ret)
		ret = scan_run(&scan, v->full->id);
	if (!ret)
		ret = query_run_failed_ids(ps->s, v->full->id, &failed);
	if (!ret) {
		count_list(ps, p, &failed, offsetof(struct test_record, failed), true, scan.recent);
		count_list(ps, p, &v->missed, offsetof(struct test_record, escaped), false, false);
		count_list(ps, p, &v->inherited, offsetof(struct test_record, inherited), false, false);
		count_list(ps, p, &v->flaky, offsetof(struct test_record, flaky), true, scan.recent);
		count_list(ps, p, &v->quarantined, offsetof(struct test_record, quarantined), false,
			   false);
		note_quarantine(ps, p, v->full);
	}
	if (!ret && ps->only_id) {
		const char *o = outcome_of(v, &failed, ps->only_id, scan.only_ran);

		if (o)
			add_event(ps, p, v, o, scan.only_selected);
	}
	idset_release(&sel);
	strlist_release(&failed);
	return ret;
}

static int on_pair(const struct pair_info *p, void *data)
{
	struct pass *ps = data;
	struct pair_verdict v;
	int ret = classify_pair_with(ps->s, ps->map, &ps->q, p, &v);

	/* Runs of main are main's record, not a gate's: not here. */
	if (!ret && v.cls != CLASS_MAIN && v.full) {
		ps->out->pairs += v.shadow != NULL;
		ps->out->full_runs++;
		ret = read_pair(ps, p, &v);
	}
	pair_verdict_release(&v);
	return ret;
}

static int cmp_record(const void *a, const void *b)
{
	const struct test_record *x = a, *y = b;

	if (x->escaped != y->escaped)
		return x->escaped > y->escaped ? -1 : 1;
	if (x->failed != y->failed)
		return x->failed > y->failed ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Quarantined now, ran in the green window and never failed or flaked there. */
static void find_unquarantine(struct test_records *out, const struct idmap *map)
{
	struct idset q = IDSET_INIT;

	idset_add_quarantine(&q, map, &out->quarantine);
	for (size_t i = 0; i < out->nr; i++) {
		const struct test_record *r = &out->items[i];
		char *suite, *name;

		if (!r->green_ran || r->green_bad)
			continue;
		test_id_split(r->id, &suite, &name);
		if (idset_selects(&q, suite, name))
			strlist_push(&out->unquarantine, r->id);
		free(suite);
		free(name);
	}
	strlist_sort(&out->unquarantine);
	idset_release(&q);
}

int test_records_compute(struct store *s, const struct window *w, const struct idmap *map,
			 int green_days, int64_t now, const char *only_id,
			 struct test_records *out)
{
	struct pass ps = { s, map, QUARANTINE_INDEX_INIT, out, STRMAP_INIT, only_id, INT64_MIN,
			   NULL, 0, 0, INT_VEC_INIT };
	int ret;

	memset(out, 0, sizeof(*out));
	out->green_days = green_days;
	out->green_since = (w->until != INT64_MAX ? w->until : now) -
			   (int64_t)green_days * 86400000;
	ret = query_quarantine_index(s, &ps.q);
	if (!ret)
		ret = query_pairs(s, w, on_pair, &ps);
	if (!ret) {
		flush_groups(&ps);
		qsort(out->items, out->nr, sizeof(*out->items), cmp_record);
		find_unquarantine(out, map);
	}
	quarantine_index_release(&ps.q);
	strmap_clear(&ps.index);
	groups_release(&ps);
	return ret < 0 ? -1 : 0;
}

void test_records_span(struct strbuf *sb, const struct test_records *r)
{
	strbuf_addf(sb, "%zu %s over %" PRId64 " %s", r->nr, r->nr == 1 ? "test" : "tests",
		    r->pairs, r->pairs == 1 ? "pair" : "pairs");
	if (r->full_runs != r->pairs)
		strbuf_addf(sb, " (%" PRId64 " full run%s)", r->full_runs,
			    r->full_runs == 1 ? "" : "s");
}

void test_records_release(struct test_records *r)
{
	for (size_t i = 0; i < r->nr; i++)
		free(r->items[i].id);
	free(r->items);
	free(r->history);
	quarantine_list_release(&r->quarantine);
	strlist_release(&r->unquarantine);
	memset(r, 0, sizeof(*r));
}
