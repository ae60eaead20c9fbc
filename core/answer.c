/* What a narrowed shadow run answered, read against its paired full run: whole-suite answers and totals from the pair. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "core/rekey.h"

void idset_add_list(struct idset *set, const struct idmap *map, const struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		idset_add(set, map, l->items[i]);
}

void idset_add_keyed(struct idset *set, const struct idmap *map, const char *entry,
		     const char *key)
{
	if (key)
		idset_add(set, NULL, key);
	else
		idset_add(set, map, entry);
}

void idset_add_quarantine(struct idset *set, const struct idmap *map,
			  const struct quarantine_list *q)
{
	idset_add_list(set, map, &q->lines);
	idset_add_list(set, NULL, &q->keys);
}

int selection_idset(struct store *s, const struct idmap *map,
		    const struct run_info *shadow, struct idset *out)
{
	struct selection_entries e = SELECTION_ENTRIES_INIT;
	int ret;

	if (shadow->decision == DECISION_RUN_ALL) {
		out->all = true;
		return 0;
	}
	if (shadow->decision == DECISION_NOTHING)
		return 0;
	ret = query_selection_keyed(s, shadow->id, &e);
	for (size_t i = 0; !ret && i < e.entries.nr; i++)
		idset_add_keyed(out, map, e.entries.items[i], e.keys[i]);
	selection_entries_release(&e);
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

/* The entries being told again (selection_unmatched_now): which select a test. */
struct unmatched_scan {
	struct idset set;
	bool *hit;      /* by the set's index */
	size_t left;    /* distinct entries not hit yet: the scan stops at none */
	bool listed;    /* the full run has a stored test list */
};

static bool hit_entry(int64_t index, void *data)
{
	struct unmatched_scan *u = data;

	if (!u->hit[index]) {
		u->hit[index] = true;
		u->left--;
	}
	return false;
}

static int scan_group(const struct test_group *g, void *data)
{
	struct unmatched_scan *u = data;

	u->listed = true;
	idset_suite_matches(&u->set, g->suite, hit_entry, u);
	for (size_t i = 0; i < g->cases->nr && u->left; i++)
		idset_case_matches(&u->set, g->suite, g->cases->items[i], hit_entry, u);
	return u->left ? 0 : 1;
}

int selection_unmatched_now(struct store *s, const struct idmap *map, int64_t shadow_id,
			    int64_t full_id, int64_t stored, int64_t *out)
{
	struct strlist unmatched = STRLIST_INIT;
	struct selection_entries e = SELECTION_ENTRIES_INIT;
	struct unmatched_scan u = { IDSET_INIT, NULL, 0, false };
	int64_t *at = NULL;
	bool known = false;
	int ret;

	*out = stored;
	if (stored <= 0 || !full_id)
		return stored <= 0 ? 0 : 1;
	ret = query_selection_unmatched(s, shadow_id, &unmatched, &known);
	if (!ret && (!known || !unmatched.nr)) {
		strlist_release(&unmatched);
		return 1;
	}
	if (!ret)
		ret = query_selection_keyed(s, shadow_id, &e);
	if (!ret) {
		at = xcalloc(unmatched.nr, sizeof(*at));
		idset_reserve_hashed(&u.set, unmatched.nr);
		for (size_t i = 0; i < unmatched.nr; i++) {
			/* Read as the figures read it. */
			char *mapped = selection_entry_rewritten(map, unmatched.items[i],
								 selection_entry_key_of(&e, unmatched.items[i]));

			at[i] = idset_add_hashed(&u.set, mapped ? mapped : unmatched.items[i]);
			free(mapped);
		}
		u.left = idset_size(&u.set);
		u.hit = xcalloc(u.left + 1, sizeof(*u.hit));
		ret = u.left ? query_run_tests_each(s, full_id, scan_group, &u) : 0;
	}
	if (ret >= 0 && (u.listed || !u.left)) {
		*out = 0;
		for (size_t i = 0; i < unmatched.nr; i++)
			*out += at[i] < 0 || !u.hit[at[i]];
		ret = 0;
	} else if (ret >= 0) {
		ret = 1;
	}
	free(at);
	free(u.hit);
	idset_release(&u.set);
	strlist_release(&unmatched);
	selection_entries_release(&e);
	return ret;
}

struct unmatched_sum {
	struct store *s;
	const struct idmap *map;
	int64_t change; /* what the id-map in force makes of the stored counts */
};

static int redo_selection(int64_t shadow_id, int64_t full_id, int64_t unmatched, void *data)
{
	struct unmatched_sum *u = data;
	int64_t now;

	if (selection_unmatched_now(u->s, u->map, shadow_id, full_id, unmatched, &now) < 0)
		return -1;
	u->change += now - unmatched;
	return 0;
}

int identity_unmatched_now(struct store *s, const struct idmap *map, struct identity_figures *f)
{
	struct unmatched_sum u = { s, map, 0 };

	if (!f->has_unmatched || !f->entries_unmatched)
		return 0;
	if (query_unmatched_selections(s, redo_selection, &u) < 0)
		return -1;
	f->entries_unmatched += u.change;
	return 0;
}
