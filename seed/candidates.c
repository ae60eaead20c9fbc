/* What would have caught the escaping mutants: a select entry per file, and propose's force-full globs measured on the window's changes. */
#include "core/tiadash.h"
#include "core/strmap.h"
#include "metrics/proposals.h"
#include "seed/seed.h"

void seed_candidates_release(struct seed_candidates *c)
{
	for (size_t i = 0; i < c->nr_selects; i++) {
		free(c->selects[i].path);
		free(c->selects[i].glob);
		strlist_release(&c->selects[i].tests);
		free(c->selects[i].closes);
	}
	for (size_t i = 0; i < c->nr_globs; i++) {
		free(c->globs[i].glob);
		free(c->globs[i].closes);
	}
	free(c->selects);
	free(c->globs);
	free(c->recommended);
	memset(c, 0, sizeof(*c));
}

static void add_index(size_t **v, size_t *nr, size_t x)
{
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = x;
}

/* The select entry of the escape's file (made on its first escape). */
static void add_select(struct seed_candidates *out, struct strmap *by_path,
		       const struct seed_mutant_info *m, const char *glob, size_t idx)
{
	bool added;
	struct strmap_entry *e = strmap_intern(by_path, m->path, strlen(m->path),
					       (int64_t)out->nr_selects, &added);
	struct seed_select *s;

	if (added) {
		out->selects = xrealloc(out->selects, (out->nr_selects + 1) * sizeof(*s));
		s = &out->selects[out->nr_selects++];
		memset(s, 0, sizeof(*s));
		s->path = xstrdup(m->path);
		s->glob = xstrdup(glob);
	}
	s = &out->selects[e->value];
	for (size_t t = 0; t < m->caught_by.nr; t++)
		strlist_push(&s->tests, m->caught_by.items[t]);
	add_index(&s->closes, &s->nr_closes, idx);
}

/*
 * propose's candidates of the escape's file, each once (by its match key),
 * and the select entry of the file (its file-form glob naming the tests).
 */
static void add_globs(struct seed_candidates *out, struct strmap *by_key,
		      const struct seed_mutant_info *m, size_t idx, struct strmap *by_path)
{
	struct proposal_candidates pc = PROPOSAL_CANDIDATES_INIT;

	proposals_path_candidates(m->path, &pc);
	if (pc.nr && pc.items[0].form == FORM_FILE && m->caught_by.nr)
		add_select(out, by_path, m, pc.items[0].glob, idx);
	for (size_t i = 0; i < pc.nr; i++) {
		bool added;
		struct strmap_entry *e = strmap_intern(by_key, pc.items[i].key,
						       strlen(pc.items[i].key),
						       (int64_t)out->nr_globs, &added);
		struct seed_glob *g;

		if (added) {
			out->globs = xrealloc(out->globs, (out->nr_globs + 1) * sizeof(*g));
			g = &out->globs[out->nr_globs++];
			memset(g, 0, sizeof(*g));
			g->glob = xstrdup(pc.items[i].glob);
			g->form = proposal_form_name(pc.items[i].form);
		}
		g = &out->globs[e->value];
		if (!g->nr_closes || g->closes[g->nr_closes - 1] != idx)
			add_index(&g->closes, &g->nr_closes, idx);
	}
	proposal_candidates_release(&pc);
}

/* Count, per glob and per select entry, the window's changes they match. */
static void score(struct seed_candidates *out, const struct strmap *by_key,
		  const struct strmap *by_path, const struct replay_run *run)
{
	int64_t *seen = xcalloc(out->nr_globs + out->nr_selects + 1, sizeof(*seen));
	struct strlist keys = STRLIST_INIT;

	for (size_t i = 0; i < run->nr; i++) {
		const struct replay_change *ch = &run->changes[i];

		if (!replay_paths_known(ch->commit))
			continue;
		out->history++;
		for (size_t p = 0; p < ch->commit->paths.nr; p++) {
			const char *path = ch->commit->paths.items[p];
			int64_t v;

			if (strmap_get(by_path, path, &v) && seen[out->nr_globs + (size_t)v] != (int64_t)i + 1) {
				seen[out->nr_globs + (size_t)v] = (int64_t)i + 1;
				out->selects[v].changes++;
			}
			strlist_release(&keys);
			proposals_path_keys(path, &keys);
			for (size_t k = 0; k < keys.nr; k++) {
				if (!strmap_get(by_key, keys.items[k], &v) ||
				    seen[v] == (int64_t)i + 1)
					continue;
				seen[v] = (int64_t)i + 1;
				if (ch->base.decision != REPLAY_RUN_ALL)
					out->globs[v].forced++;
			}
		}
	}
	strlist_release(&keys);
	free(seen);
}

static const char *const form_order[] = { "file", "name", "dir-ext", "dir", "ext", "builtin" };

static int form_rank(const char *form)
{
	for (size_t i = 0; i < ARRAY_SIZE(form_order); i++)
		if (!strcmp(form, form_order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(form_order);
}

static int glob_cmp(const void *a, const void *b)
{
	const struct seed_glob *x = a, *y = b;

	if (x->nr_closes != y->nr_closes)
		return x->nr_closes > y->nr_closes ? -1 : 1;
	if (x->forced != y->forced)
		return x->forced < y->forced ? -1 : 1;
	if (form_rank(x->form) != form_rank(y->form))
		return form_rank(x->form) - form_rank(y->form);
	return strcmp(x->glob, y->glob);
}

/* propose's greedy cover of the escapes at the least forced changes. */
static void recommend(struct seed_candidates *out, const size_t *escape_of, size_t nr_escapes)
{
	struct proposals_cover_item *items = xcalloc(out->nr_globs + 1, sizeof(*items));
	size_t **covers = xcalloc(out->nr_globs + 1, sizeof(*covers));

	for (size_t i = 0; i < out->nr_globs; i++) {
		const struct seed_glob *g = &out->globs[i];

		covers[i] = xcalloc(g->nr_closes + 1, sizeof(**covers));
		for (size_t k = 0; k < g->nr_closes; k++)
			covers[i][k] = escape_of[g->closes[k]];
		items[i] = (struct proposals_cover_item){ covers[i], g->nr_closes,
			(double)g->forced, g->forced, form_rank(g->form), g->glob };
	}
	out->recommended = xcalloc(out->nr_globs + 1, sizeof(*out->recommended));
	out->nr_recommended = proposals_cover(items, out->nr_globs, nr_escapes, out->recommended);
	for (size_t i = 0; i < out->nr_recommended; i++)
		out->globs[out->recommended[i]].recommended = true;
	for (size_t i = 0; i < out->nr_globs; i++)
		free(covers[i]);
	free(covers);
	free(items);
}

static void dedup_tests(struct seed_candidates *out)
{
	for (size_t i = 0; i < out->nr_selects; i++) {
		struct strlist *t = &out->selects[i].tests;
		size_t w = 0;

		strlist_sort(t);
		for (size_t k = 0; k < t->nr; k++) {
			if (w && !strcmp(t->items[w - 1], t->items[k])) {
				free(t->items[k]);
				continue;
			}
			t->items[w++] = t->items[k];
		}
		t->nr = w;
	}
}

void seed_candidates_compute(const struct seed_info *info, const struct replay_run *run,
			     struct seed_candidates *out)
{
	struct strmap by_key = STRMAP_INIT, by_path = STRMAP_INIT;
	size_t *escape_of = xcalloc(info->nr_mutants + 1, sizeof(*escape_of)), nr_escapes = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < info->nr_mutants; i++) {
		const struct seed_mutant_info *m = &info->mutants[i];

		if (m->verdict != SEED_FULL)
			continue;
		escape_of[i] = nr_escapes++;
		add_globs(out, &by_key, m, i, &by_path);
	}
	dedup_tests(out);
	score(out, &by_key, &by_path, run);
	/* Sorting moves the globs: the cover works on the ranked list. */
	if (out->nr_globs)
		qsort(out->globs, out->nr_globs, sizeof(*out->globs), glob_cmp);
	recommend(out, escape_of, nr_escapes);
	strmap_clear(&by_key);
	strmap_clear(&by_path);
	free(escape_of);
}
