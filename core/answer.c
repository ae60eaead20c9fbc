/* What a narrowed shadow run answered, read against its paired full run: whole-suite answers and totals from the pair. */
#include "core/tiadash.h"
#include "core/answer.h"

void idset_add_list(struct idset *set, const struct idmap *map, const struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		idset_add(set, map, l->items[i]);
}

int selection_idset(struct store *s, const struct idmap *map,
		    const struct run_info *shadow, struct idset *out)
{
	struct strlist entries = STRLIST_INIT;
	int ret;

	if (shadow->decision == DECISION_RUN_ALL) {
		out->all = true;
		return 0;
	}
	if (shadow->decision == DECISION_NOTHING)
		return 0;
	ret = query_selection_entries(s, shadow->id, &entries);
	if (!ret)
		idset_add_list(out, map, &entries);
	strlist_release(&entries);
	return ret;
}

struct suite_tally {
	const struct idset *selected;
	int64_t total, named;
	/*
	 * Stop at the first test the selection does not name (stopped): with
	 * the run's own total only a whole-suite answer is left to find, and
	 * most narrowed selections leave out a test of the first groups.
	 */
	bool stop_at_unnamed, stopped;
};

static int tally_group(const struct test_group *g, void *data)
{
	struct suite_tally *t = data;

	for (size_t i = 0; i < g->cases->nr; i++) {
		bool named = idset_selects(t->selected, g->suite, g->cases->items[i]);

		t->total++;
		t->named += named;
		if (!named && t->stop_at_unnamed) {
			t->stopped = true;
			return 1;
		}
	}
	return 0;
}

/* The run's own counts say it selected fewer tests than the suite has: they win. */
static bool says_narrowed(const struct run_info *shadow)
{
	return shadow->has_total && shadow->has_selected &&
	       shadow->selected_count < shadow->total_tests;
}

/* A copy of r, reasons too. */
static struct run_info *copy_run(const struct run_info *r)
{
	struct run_info *a = xmalloc(sizeof(*a));

	*a = *r;
	memset(&a->reasons, 0, sizeof(a->reasons));
	for (size_t i = 0; i < r->reasons.nr; i++)
		strlist_push(&a->reasons, r->reasons.items[i]);
	return a;
}

void run_info_free(struct run_info *r)
{
	if (!r)
		return;
	strlist_release(&r->reasons);
	free(r);
}

int pair_answer(struct store *s, const struct idmap *map, const struct run_info *shadow,
		const struct run_info *full, struct run_info **out)
{
	struct idset selected = IDSET_INIT;
	struct suite_tally t = { &selected, 0, 0, false, false };
	struct run_info *a;
	int ret;

	*out = NULL;
	if (!shadow || !full || shadow->decision != DECISION_SELECTED || says_narrowed(shadow))
		return 0;
	t.stop_at_unnamed = shadow->has_total;
	ret = selection_idset(s, map, shadow, &selected);
	if (!ret)
		ret = query_run_tests_each(s, full->id, tally_group, &t);
	idset_release(&selected);
	if (ret < 0)
		return -1;
	/* No stored list (ret 1 without a test), or its total still wins. */
	if (!t.total || t.stopped || (t.named < t.total && shadow->has_total))
		return 0;
	a = copy_run(shadow);
	if (t.named == t.total) {
		a->decision = DECISION_RUN_ALL;
		strlist_push(&a->reasons, "whole-suite");
	}
	if (!a->has_total) {
		a->has_total = a->has_selected = true;
		a->total_tests = t.total;
		a->selected_count = t.named;
	}
	*out = a;
	return 0;
}
