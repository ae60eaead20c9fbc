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
};

/* The record of id, made when new; valid until the next call. */
static struct test_record *record(struct pass *ps, const char *id, int64_t at)
{
	struct test_records *out = ps->out;
	struct test_record *r;
	int64_t idx;

	if (!strmap_get(&ps->index, id, &idx)) {
		idx = (int64_t)out->nr;
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		r = &out->items[out->nr++];
		memset(r, 0, sizeof(*r));
		r->id = xstrdup(id);
		r->first_at = INT64_MAX;
		r->last_at = INT64_MIN;
		strmap_put(&ps->index, id, strlen(id), idx);
	}
	r = &out->items[idx];
	if (at < r->first_at)
		r->first_at = at;
	if (at > r->last_at)
		r->last_at = at;
	return r;
}

struct pair_scan {
	struct pass *ps;
	const struct pair_info *p;
	const struct idset *selected; /* NULL: no shadow run */
	bool recent;                  /* the pair lies in the green window */
	bool only_ran, only_selected; /* the test asked for, in this pair */
	struct strbuf id;
};

static int on_group(const struct test_group *g, void *data)
{
	struct pair_scan *ps = data;

	for (size_t i = 0; i < g->cases->nr; i++) {
		bool sel = ps->selected && idset_selects(ps->selected, g->suite, g->cases->items[i]);
		struct test_record *r;

		strbuf_reset(&ps->id);
		test_id_format(&ps->id, g->suite, g->cases->items[i]);
		r = record(ps->ps, ps->id.buf, ps->p->at);
		r->ran++;
		r->selected += sel;
		r->green_ran += ps->recent;
		if (ps->ps->only_id && !strcmp(ps->id.buf, ps->ps->only_id)) {
			ps->only_ran = true;
			ps->only_selected = sel;
		}
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
	strlist_release(&ps->out->quarantine);
	quarantine_index_get(&ps->q, full->id, &ps->out->quarantine);
}

static int read_pair(struct pass *ps, const struct pair_info *p, struct pair_verdict *v)
{
	struct idset sel = IDSET_INIT;
	struct strlist failed = STRLIST_INIT;
	struct pair_scan scan = { ps, p, v->shadow ? &sel : NULL, p->at >= ps->out->green_since,
				  false, false, STRBUF_INIT };
	int ret = v->shadow ? selection_idset(ps->s, ps->map, v->shadow, &sel) : 0;

	if (!ret)
		ret = query_run_tests_each(ps->s, v->full->id, on_group, &scan) < 0 ? -1 : 0;
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
	strbuf_release(&scan.id);
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

	idset_add_list(&q, map, &out->quarantine);
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
	struct pass ps = { s, map, QUARANTINE_INDEX_INIT, out, STRMAP_INIT, only_id, INT64_MIN };
	int ret;

	memset(out, 0, sizeof(*out));
	out->green_days = green_days;
	out->green_since = (w->until != INT64_MAX ? w->until : now) -
			   (int64_t)green_days * 86400000;
	ret = query_quarantine_index(s, &ps.q);
	if (!ret)
		ret = query_pairs(s, w, on_pair, &ps);
	if (!ret) {
		qsort(out->items, out->nr, sizeof(*out->items), cmp_record);
		find_unquarantine(out, map);
	}
	quarantine_index_release(&ps.q);
	strmap_clear(&ps.index);
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
	strlist_release(&r->quarantine);
	strlist_release(&r->unquarantine);
	memset(r, 0, sizeof(*r));
}
