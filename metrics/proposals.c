/* Proposals: candidate force-full globs for the window's escapes, scored on the whole history. */
#include "core/tiadash.h"
#include "metrics/proposals.h"
#include "core/glob.h"
#include "core/strmap.h"
#include "metrics/common.h"
#include "metrics/metrics.h"

/* qsort that accepts an empty (NULL) array. */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static const char *const state_names[] = { "new", "closed-by-rules", "unclosable", "explained" };

const char *proposal_state_name(enum proposal_state s)
{
	return state_names[s];
}

/* ---- the history ---- */

/* One history head with a shadow run. */
struct phead {
	int64_t head_id, pr, diff_id;
	bool has_pr, run_all;
	double shadow_s, full_s; /* latest attempts; NAN: not measured */
	bool is_escape;          /* class escape (any window, explained or not) */
	int escape;              /* index into escapes_list when closable, else -1 */
	int latent;              /* index into latent_list when closable, else -1 */
	uint32_t *paths;         /* eligible distinct paths (indexes), ascending */
	size_t nr_paths;
};

struct proposals_ctx {
	struct store *store;
	const struct idmap *idmap; /* the store config's, for the pairs' answers */
	const struct proposals_rules *rules;
	struct phead *heads;
	size_t nr_heads, alloc_heads;
	uint32_t *by_id; /* head indexes in head_id order */
	int64_t ff_before;

	/* Distinct changed paths: text, first rule, eligibility, heads. */
	struct strlist paths;
	struct strmap path_index;
	int *path_rule;
	bool *path_eligible;
	uint32_t **path_heads; /* ascending head indexes */
	size_t *path_nr_heads;
	uint32_t *sorted_paths; /* path indexes in strcmp order */

	double *base;      /* measured shadow wall-clocks, sorted */
	size_t nr_base;
	double med_shadow, med_full;

	/* Scratch for scoring. */
	uint32_t *stamp, gen;
	uint32_t *hits;
	size_t alloc_hits;
	double *removed, *added;
	size_t alloc_removed, alloc_added;
};

/* Sort keys carry their index: no comparator state (propose may run on a worker thread). */
struct text_key {
	const char *text;
	uint32_t idx;
};

static int cmp_text_key(const void *a, const void *b)
{
	return strcmp(((const struct text_key *)a)->text, ((const struct text_key *)b)->text);
}

struct id_key {
	int64_t id;
	uint32_t idx;
};

static int cmp_id_key(const void *a, const void *b)
{
	int64_t x = ((const struct id_key *)a)->id, y = ((const struct id_key *)b)->id;

	return (x > y) - (x < y);
}

/* A (head, path) occurrence while the history loads. */
struct occurrence {
	uint32_t head, path;
};

struct loader {
	struct proposals_ctx *c;
	struct occurrence *occ;
	size_t nr_occ, alloc_occ;
	struct id_key *diffs; /* diff id, head index */
	size_t nr_diffs, cursor;
};

static int load_head(const struct pair_info *p, void *data)
{
	struct proposals_ctx *c = data;
	const struct run_info *sh = pair_latest(p, RUN_SHADOW);
	const struct run_info *full = pair_latest(p, RUN_FULL);
	struct run_info *answer;
	struct phead *h;

	if (!sh)
		return 0;
	/* Force-full as report counts it: a whole-suite answer is run_all. */
	if (pair_answer(c->store, c->idmap, sh, full, &answer) < 0)
		return -1;
	ALLOC_GROW(c->heads, c->nr_heads + 1, c->alloc_heads);
	h = &c->heads[c->nr_heads++];
	memset(h, 0, sizeof(*h));
	h->head_id = p->head_id;
	h->has_pr = p->has_pr;
	h->pr = p->pr;
	h->run_all = (answer ? answer : sh)->decision == DECISION_RUN_ALL;
	run_info_free(answer);
	h->shadow_s = sh->wall_clock_s;
	h->full_s = full ? full->wall_clock_s : NAN;
	h->diff_id = sh->diff_id ? sh->diff_id : full ? full->diff_id : 0;
	h->escape = h->latent = -1;
	c->ff_before += h->run_all;
	return 0;
}

static uint32_t intern_path(struct proposals_ctx *c, const char *path)
{
	bool added;
	struct strmap_entry *e = strmap_intern(&c->path_index, path, strlen(path),
					       (int64_t)c->paths.nr, &added);

	if (added)
		strlist_push(&c->paths, path);
	return (uint32_t)e->value;
}

static int load_path(int64_t diff_id, const char *path, const char *old_path, void *data)
{
	struct loader *l = data;

	while (l->cursor < l->nr_diffs && l->diffs[l->cursor].id < diff_id)
		l->cursor++;
	for (size_t i = l->cursor; i < l->nr_diffs && l->diffs[i].id == diff_id; i++) {
		for (int side = 0; side < 2; side++) {
			const char *p = side ? old_path : path;

			if (!p)
				continue;
			ALLOC_GROW(l->occ, l->nr_occ + 1, l->alloc_occ);
			l->occ[l->nr_occ].head = l->diffs[i].idx;
			l->occ[l->nr_occ].path = intern_path(l->c, p);
			l->nr_occ++;
		}
	}
	return 0;
}

static int cmp_occ_head(const void *a, const void *b)
{
	const struct occurrence *x = a, *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return (x->path > y->path) - (x->path < y->path);
}

static int cmp_occ_path(const void *a, const void *b)
{
	const struct occurrence *x = a, *y = b;

	if (x->path != y->path)
		return x->path < y->path ? -1 : 1;
	return (x->head > y->head) - (x->head < y->head);
}

/* Is a path open to an appended glob (see "current rules" in the header)? */
static bool eligible(const struct proposals_rules *r, int rule)
{
	if (rule == -1)
		return true;
	if (rule < 0)
		return false; /* the matcher failed: treated as run_all */
	return (size_t)rule >= r->insert_at &&
	       r->set.effect.items[rule].action != RULE_RUN_ALL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Paths per head and heads per path, eligible paths only. */
static void index_occurrences(struct proposals_ctx *c, struct loader *l)
{
	size_t n = 0, i;

	for (i = 0; i < l->nr_occ; i++)
		if (c->path_eligible[l->occ[i].path])
			l->occ[n++] = l->occ[i];
	l->nr_occ = n;
	sort_n(l->occ, n, sizeof(*l->occ), cmp_occ_head);
	for (i = 0; i < n;) {
		size_t j = i, k = 0;
		struct phead *h = &c->heads[l->occ[i].head];

		while (j < n && l->occ[j].head == l->occ[i].head)
			j++;
		h->paths = xmalloc((j - i) * sizeof(*h->paths));
		for (size_t x = i; x < j; x++)
			if (!k || h->paths[k - 1] != l->occ[x].path)
				h->paths[k++] = l->occ[x].path;
		h->nr_paths = k;
		i = j;
	}
	sort_n(l->occ, n, sizeof(*l->occ), cmp_occ_path);
	for (i = 0; i < n;) {
		size_t j = i, k = 0;
		uint32_t p = l->occ[i].path;

		while (j < n && l->occ[j].path == p)
			j++;
		c->path_heads[p] = xmalloc((j - i) * sizeof(uint32_t));
		for (size_t x = i; x < j; x++)
			if (!k || c->path_heads[p][k - 1] != l->occ[x].head)
				c->path_heads[p][k++] = l->occ[x].head;
		c->path_nr_heads[p] = k;
		i = j;
	}
}

static void index_heads(struct proposals_ctx *c)
{
	struct id_key *keys = xmalloc((c->nr_heads + 1) * sizeof(*keys));

	for (size_t i = 0; i < c->nr_heads; i++) {
		keys[i].id = c->heads[i].head_id;
		keys[i].idx = (uint32_t)i;
	}
	sort_n(keys, c->nr_heads, sizeof(*keys), cmp_id_key);
	c->by_id = xmalloc((c->nr_heads + 1) * sizeof(*c->by_id));
	for (size_t i = 0; i < c->nr_heads; i++)
		c->by_id[i] = keys[i].idx;
	free(keys);
}

static struct phead *find_head(struct proposals_ctx *c, int64_t head_id)
{
	size_t lo = 0, hi = c->nr_heads;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct phead *h = &c->heads[c->by_id[mid]];

		if (h->head_id == head_id)
			return h;
		if (h->head_id < head_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int load_history(struct proposals_ctx *c, struct store *s, const struct window *w)
{
	struct window all = WINDOW_ALL;
	struct loader l = { .c = c };
	struct text_key *keys;
	int ret;

	all.repo = w->repo;
	ret = query_pairs(s, &all, load_head, c);
	if (ret)
		return ret < 0 ? -1 : 0;
	l.diffs = xmalloc((c->nr_heads + 1) * sizeof(*l.diffs));
	for (size_t i = 0; i < c->nr_heads; i++) {
		if (!c->heads[i].diff_id)
			continue;
		l.diffs[l.nr_diffs].id = c->heads[i].diff_id;
		l.diffs[l.nr_diffs].idx = (uint32_t)i;
		l.nr_diffs++;
	}
	sort_n(l.diffs, l.nr_diffs, sizeof(*l.diffs), cmp_id_key);
	ret = query_diff_paths(s, load_path, &l);
	free(l.diffs);
	if (ret) {
		free(l.occ);
		return -1;
	}

	c->path_rule = xcalloc(c->paths.nr + 1, sizeof(*c->path_rule));
	c->path_eligible = xcalloc(c->paths.nr + 1, sizeof(*c->path_eligible));
	c->path_heads = xcalloc(c->paths.nr + 1, sizeof(*c->path_heads));
	c->path_nr_heads = xcalloc(c->paths.nr + 1, sizeof(*c->path_nr_heads));
	c->sorted_paths = xmalloc((c->paths.nr + 1) * sizeof(*c->sorted_paths));
	keys = xmalloc((c->paths.nr + 1) * sizeof(*keys));
	for (size_t i = 0; i < c->paths.nr; i++) {
		c->path_rule[i] = rules_match(&c->rules->set.effect, c->paths.items[i]);
		c->path_eligible[i] = eligible(c->rules, c->path_rule[i]);
		keys[i].text = c->paths.items[i];
		keys[i].idx = (uint32_t)i;
	}
	sort_n(keys, c->paths.nr, sizeof(*keys), cmp_text_key);
	for (size_t i = 0; i < c->paths.nr; i++)
		c->sorted_paths[i] = keys[i].idx;
	free(keys);
	index_occurrences(c, &l);
	free(l.occ);

	c->base = xmalloc((c->nr_heads + 1) * sizeof(*c->base));
	for (size_t i = 0; i < c->nr_heads; i++)
		if (!isnan(c->heads[i].shadow_s))
			c->base[c->nr_base++] = c->heads[i].shadow_s;
	sort_n(c->base, c->nr_base, sizeof(*c->base), cmp_double);
	c->stamp = xcalloc(c->nr_heads + 1, sizeof(*c->stamp));
	index_heads(c);
	return 0;
}

static void ctx_free(struct proposals_ctx *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_heads; i++)
		free(c->heads[i].paths);
	free(c->heads);
	free(c->by_id);
	for (size_t i = 0; c->path_heads && i < c->paths.nr; i++)
		free(c->path_heads[i]);
	free(c->path_heads);
	free(c->path_nr_heads);
	free(c->path_rule);
	free(c->path_eligible);
	free(c->sorted_paths);
	strlist_release(&c->paths);
	strmap_clear(&c->path_index);
	free(c->base);
	free(c->stamp);
	free(c->hits);
	free(c->removed);
	free(c->added);
	free(c);
}

/* ---- scoring a set of heads ---- */

struct score {
	size_t *closes;
	size_t nr_closes;
	size_t *catches;         /* latent misses it would have caught */
	size_t nr_catches;
	int64_t matched, extra, other;
	double minutes, rate_after, p95_after;
	int64_t forced, forced_closing; /* every newly forced head; those closing an escape */
	double forced_minutes;          /* the gate minutes of all of them */
};

static uint32_t next_gen(struct proposals_ctx *c)
{
	if (++c->gen == 0) {
		memset(c->stamp, 0, c->nr_heads * sizeof(*c->stamp));
		c->gen = 1;
	}
	return c->gen;
}

/* Add head h to the hits unless this generation has it. */
static void hit(struct proposals_ctx *c, uint32_t h, size_t *n)
{
	if (c->stamp[h] == c->gen)
		return;
	c->stamp[h] = c->gen;
	ALLOC_GROW(c->hits, *n + 1, c->alloc_hits);
	c->hits[(*n)++] = h;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* How many of the n sorted values are <= x. */
static size_t count_le(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Values <= x in base - removed + added (all sorted). */
static size_t count_after(const struct proposals_ctx *c, size_t nr_removed,
			  size_t nr_added, double x)
{
	return count_le(c->base, c->nr_base, x) - count_le(c->removed, nr_removed, x) +
	       count_le(c->added, nr_added, x);
}

/*
 * The value of rank r (0-based) in base - removed + added, without building
 * it: the smallest value of base or added with more than r values at or
 * below it. O(log^2 n), where merging would be O(n) per candidate.
 */
static double rank_after(const struct proposals_ctx *c, size_t nr_removed,
			 size_t nr_added, size_t r)
{
	const double *arrs[2] = { c->base, c->added };
	size_t lens[2] = { c->nr_base, nr_added };
	double best = NAN;

	for (int k = 0; k < 2; k++) {
		size_t lo = 0, hi = lens[k];

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (count_after(c, nr_removed, nr_added, arrs[k][mid]) > r)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo < lens[k] && (isnan(best) || arrs[k][lo] < best))
			best = arrs[k][lo];
	}
	return best;
}

/*
 * The p95 of the base wall-clocks with `removed` taken out and as many
 * `added` put in: numpy's linear interpolation, as metrics_percentile.
 */
static double p95_after(struct proposals_ctx *c, size_t nr_removed, size_t nr_added)
{
	size_t n = c->nr_base, lo, hi;
	double vi, frac, a, b, diff;

	if (!n)
		return NAN;
	sort_n(c->removed, nr_removed, sizeof(double), cmp_double);
	sort_n(c->added, nr_added, sizeof(double), cmp_double);
	vi = 0.95 * (double)(n - 1);
	lo = (size_t)floor(vi);
	frac = vi - (double)lo;
	hi = lo + 1 < n ? lo + 1 : n - 1;
	a = rank_after(c, nr_removed, nr_added, lo);
	b = rank_after(c, nr_removed, nr_added, hi);
	if (a == b)
		return a;
	diff = b - a;
	return frac >= 0.5 ? b - diff * (1 - frac) : a + diff * frac;
}

/* Score the heads c->hits[0..n) (any order; sorted first when `ordered`). */
static void score_hits(struct proposals_ctx *c, size_t n, bool ordered, struct score *out)
{
	size_t nr_removed = 0, nr_added = 0, alloc_closes = 0, alloc_catches = 0;
	int64_t forced = 0;
	bool p95_known = true;

	memset(out, 0, sizeof(*out));
	if (ordered)
		sort_n(c->hits, n, sizeof(*c->hits), cmp_u32);
	ALLOC_GROW(c->removed, n + 1, c->alloc_removed);
	ALLOC_GROW(c->added, n + 1, c->alloc_added);
	for (size_t i = 0; i < n; i++) {
		const struct phead *h = &c->heads[c->hits[i]];
		double full = isnan(h->full_s) ? c->med_full : h->full_s;
		double shadow = isnan(h->shadow_s) ? c->med_shadow : h->shadow_s;

		out->matched++;
		if (h->escape >= 0) {
			ALLOC_GROW(out->closes, out->nr_closes + 1, alloc_closes);
			out->closes[out->nr_closes++] = (size_t)h->escape;
		}
		if (h->latent >= 0) {
			ALLOC_GROW(out->catches, out->nr_catches + 1, alloc_catches);
			out->catches[out->nr_catches++] = (size_t)h->latent;
		}
		if (h->run_all)
			continue;
		forced++;
		out->forced_closing += h->escape >= 0;
		out->forced_minutes += (full - shadow) / 60.0;
		if (!isnan(h->shadow_s)) {
			c->removed[nr_removed++] = h->shadow_s;
			if (isnan(full))
				p95_known = false;
			else
				c->added[nr_added++] = full;
		}
		if (h->escape >= 0)
			continue;
		if (h->is_escape) {
			out->other++;
			continue;
		}
		out->extra++;
		out->minutes += (full - shadow) / 60.0;
	}
	if (out->nr_closes)
		sort_n(out->closes, out->nr_closes, sizeof(*out->closes), cmp_size);
	if (out->nr_catches)
		sort_n(out->catches, out->nr_catches, sizeof(*out->catches), cmp_size);
	out->forced = forced;
	out->rate_after = c->nr_heads ? (double)(c->ff_before + forced) / (double)c->nr_heads
				      : NAN;
	out->p95_after = p95_known ? p95_after(c, nr_removed, nr_added) : NAN;
}

/* ---- escapes and evidence ---- */

static bool is_alnum(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Does text mention the file's name (see "evidence" in the header)? */
static bool mentions(const char *text, size_t len, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t blen, dot, slen;

	base = base ? base + 1 : path;
	blen = strlen(base);
	if (blen && memmem(text, len, base, blen))
		return true;
	dot = proposals_ext_dot(base, blen);
	slen = dot ? dot : blen;
	if (slen < 3)
		return false;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *q = memmem(p, (size_t)(end - p), base, slen);

		if (!q)
			break;
		if ((q == text || !is_alnum((unsigned char)q[-1])) &&
		    (q + slen == end || !is_alnum((unsigned char)q[slen])))
			return true;
		p = q + 1;
	}
	return false;
}

static void evidence_of(struct repo *repo, git_tree *tree, bool commit_known,
			const struct strlist *paths, const char *test,
			struct proposal_evidence *ev)
{
	char *suite, *name;
	struct strbuf sb = STRBUF_INIT;

	memset(ev, 0, sizeof(*ev));
	ev->test = xstrdup(test);
	if (!repo) {
		ev->state = EVIDENCE_NO_REPO;
		return;
	}
	if (!commit_known) {
		ev->state = EVIDENCE_NO_COMMIT;
		return;
	}
	test_id_split(test, &suite, &name);
	if (!*suite || !repo_tree_has_file(tree, suite) ||
	    repo_tree_read_file(repo, tree, suite, &sb) < 0) {
		ev->state = EVIDENCE_NOT_A_FILE;
	} else {
		ev->state = EVIDENCE_READ;
		ev->source = xstrdup(suite);
		for (size_t i = 0; i < paths->nr; i++)
			if (mentions(sb.buf, sb.len, paths->items[i]))
				strlist_push(&ev->mentions, paths->items[i]);
	}
	strbuf_release(&sb);
	free(suite);
	free(name);
}

static void add_evidence(struct repo *repo, struct proposal_escape *e)
{
	git_tree *tree = repo ? repo_tree_at(repo, e->sha) : NULL;

	e->evidence = xcalloc(e->missed.nr + 1, sizeof(*e->evidence));
	for (size_t i = 0; i < e->missed.nr; i++)
		evidence_of(repo, tree, tree != NULL, &e->paths, e->missed.items[i],
			    &e->evidence[i]);
	e->nr_evidence = e->missed.nr;
	git_tree_free(tree);
}

/* Decide an escape's state from its changed paths and the rules. */
static void settle_escape(struct proposals_ctx *c, struct proposal_escape *e)
{
	const struct rules *rules = &c->rules->set.effect;
	const char *shadowed = NULL;
	bool any_eligible = false;

	for (size_t i = 0; i < e->paths.nr; i++) {
		int rule = rules_match(rules, e->paths.items[i]);

		if (rule == -1)
			strlist_push(&e->unmatched, e->paths.items[i]);
		if (e->state == PROPOSAL_CLOSED_BY_RULES)
			continue;
		if (rule == RULES_MATCH_ERROR || (rule >= 0 &&
		    rules->items[rule].action == RULE_RUN_ALL)) {
			e->state = PROPOSAL_CLOSED_BY_RULES;
			free(e->why);
			e->why = xstrdup(rule >= 0 ? rules->items[rule].name
					 : "force-full (the rule matcher failed)");
			if (rule >= 0) {
				struct strbuf label = STRBUF_INIT;

				rules_label(&rules->items[rule], &label);
				free(e->rule_source);
				e->rule_source = strbuf_detach(&label, NULL);
			}
		} else if (eligible(c->rules, rule)) {
			any_eligible = true;
		} else if (!shadowed) {
			shadowed = rules->items[rule].name;
		}
	}
	if (e->cls == CLASS_NON_HERMETIC) {
		e->state = PROPOSAL_UNCLOSABLE;
		free(e->why);
		e->why = xstrdup(e->missed.nr == 1
			? "non-hermetic: the failing test was selected and passed in the shadow run"
			: "non-hermetic: the failing tests were selected and passed in the shadow run");
		return;
	}
	if (e->state == PROPOSAL_CLOSED_BY_RULES)
		return;
	if (!e->diff_known) {
		e->state = PROPOSAL_UNCLOSABLE;
		e->why = xstrdup("changed paths unknown (no diff recorded)");
	} else if (!e->paths.nr) {
		e->state = PROPOSAL_UNCLOSABLE;
		e->why = xstrdup("no changed paths");
	} else if (!any_eligible) {
		e->state = PROPOSAL_UNCLOSABLE;
		e->why = xstrfmt("every changed path is decided first by a rule "
				 "that is not force-full (%s)", shadowed);
	} else {
		e->state = PROPOSAL_CLOSABLE;
	}
}

/* An escape or a latent miss of row r, its tests those it missed, settled. */
static int load_change(struct store *s, struct proposals_ctx *c,
		       const struct metrics_row *r, const struct strlist *tests,
		       struct proposal_escape *e)
{
	struct phead *h = find_head(c, r->head_id);
	struct diff_info d;

	memset(e, 0, sizeof(*e));
	e->head_id = r->head_id;
	memcpy(e->sha, r->sha, sizeof(e->sha));
	e->has_pr = r->has_pr;
	e->pr = r->pr;
	e->at = r->at;
	e->cls = r->cls;
	for (size_t i = 0; i < tests->nr; i++)
		strlist_push(&e->missed, tests->items[i]);
	if (h && h->diff_id) {
		int rc = query_diff(s, h->diff_id, &d);

		if (rc < 0)
			return -1;
		if (rc == 0 && !d.unknown) {
			e->diff_known = true;
			for (size_t i = 0; i < d.nr; i++) {
				strlist_push(&e->paths, d.files[i].path);
				if (d.files[i].old_path)
					strlist_push(&e->paths, d.files[i].old_path);
			}
		}
		diff_info_release(&d);
	}
	strlist_uniq(&e->paths);
	settle_escape(c, e);
	return 0;
}

static void escape_release(struct proposal_escape *e)
{
	free(e->why);
	free(e->rule_source);
	strlist_release(&e->paths);
	strlist_release(&e->unmatched);
	strlist_release(&e->missed);
	for (size_t i = 0; i < e->nr_evidence; i++) {
		free(e->evidence[i].test);
		free(e->evidence[i].source);
		strlist_release(&e->evidence[i].mentions);
	}
	free(e->evidence);
}

/* ---- candidates over the history ---- */

struct cand_set {
	struct proposal_candidates all;
	struct strmap by_key;   /* key -> index into all */
	struct glob_set *builtin; /* the built-in defaults, tagged by index; NULL: none */
	uint32_t **paths;       /* distinct paths each matches */
	size_t *nr_paths, *alloc_paths;
};

struct key_walk {
	struct cand_set *cs;
	uint32_t path;
};

static bool key_hit(const struct strbuf *key, void *data)
{
	struct key_walk *kw = data;
	int64_t idx;
	struct strmap_entry *e = strmap_find(&kw->cs->by_key, key->buf, key->len);
	size_t i;

	if (!e)
		return false;
	idx = e->value;
	i = (size_t)idx;
	/* A path can answer to one key twice (a name repeated along it). */
	if (kw->cs->nr_paths[i] && kw->cs->paths[i][kw->cs->nr_paths[i] - 1] == kw->path)
		return false;
	ALLOC_GROW(kw->cs->paths[i], kw->cs->nr_paths[i] + 1, kw->cs->alloc_paths[i]);
	kw->cs->paths[i][kw->cs->nr_paths[i]++] = kw->path;
	return false;
}

/* The built-in default that matches a path first (its key "B:N"), or -1. */
static int builtin_of(struct cand_set *cs, const char *path, struct strbuf *key)
{
	int m = cs->builtin ? glob_set_match(cs->builtin, path) : -1;

	strbuf_reset(key);
	if (m >= 0)
		strbuf_addf(key, "B:%d", m);
	return m;
}

/* Built-in defaults that would have closed a closable escape, as candidates. */
static void gather_builtins(struct proposals_ctx *c, struct proposals *p,
			    struct cand_set *cs)
{
	struct strbuf key = STRBUF_INIT, why = STRBUF_INIT;

	cs->builtin = glob_set_new();
	for (size_t i = 0; i < rules_builtin_nr; i++)
		if (glob_set_add(cs->builtin, rules_builtin[i].glob, (int)i, &why) < 0)
			BUG("bad built-in glob '%s'", rules_builtin[i].glob);
	if (glob_set_compile(cs->builtin, 0) < 0) {
		glob_set_free(cs->builtin);
		cs->builtin = NULL;
	}
	for (size_t i = 0; cs->builtin && i < p->nr_escapes; i++) {
		const struct proposal_escape *e = &p->escapes_list[i];

		for (size_t j = 0; e->state == PROPOSAL_CLOSABLE && j < e->paths.nr; j++) {
			int64_t idx;
			int m;
			bool added;

			if (!strmap_get(&c->path_index, e->paths.items[j], &idx) ||
			    !c->path_eligible[idx] ||
			    (m = builtin_of(cs, e->paths.items[j], &key)) < 0)
				continue;
			strmap_intern(&cs->by_key, key.buf, key.len, (int64_t)cs->all.nr, &added);
			if (!added)
				continue;
			ALLOC_GROW(cs->all.items, cs->all.nr + 1, cs->all.alloc);
			cs->all.items[cs->all.nr].form = FORM_BUILTIN;
			cs->all.items[cs->all.nr].glob = xstrdup(rules_builtin[m].glob);
			cs->all.items[cs->all.nr++].key = strbuf_detach(&key, NULL);
		}
	}
	strbuf_release(&key);
	strbuf_release(&why);
}

static void gather_candidates(struct proposals_ctx *c, struct proposals *p,
			      struct cand_set *cs)
{
	struct proposal_candidates one = PROPOSAL_CANDIDATES_INIT;

	for (size_t i = 0; i < p->nr_escapes + p->nr_latent; i++) {
		const struct proposal_escape *e = i < p->nr_escapes ? &p->escapes_list[i]
				: &p->latent_list[i - p->nr_escapes];

		if (e->state != PROPOSAL_CLOSABLE)
			continue;
		for (size_t j = 0; j < e->paths.nr; j++) {
			int64_t idx;

			if (!strmap_get(&c->path_index, e->paths.items[j], &idx) ||
			    !c->path_eligible[idx])
				continue;
			proposals_path_candidates(e->paths.items[j], &one);
			for (size_t k = 0; k < one.nr; k++) {
				struct proposal_candidate *x = &one.items[k];
				bool added;

				strmap_intern(&cs->by_key, x->key, strlen(x->key),
					      (int64_t)cs->all.nr, &added);
				if (!added)
					continue;
				ALLOC_GROW(cs->all.items, cs->all.nr + 1, cs->all.alloc);
				cs->all.items[cs->all.nr++] = *x;
				x->glob = x->key = NULL;
			}
			proposal_candidates_release(&one);
		}
	}
	if (c->rules->builtin_candidates)
		gather_builtins(c, p, cs);
	cs->paths = xcalloc(cs->all.nr + 1, sizeof(*cs->paths));
	cs->nr_paths = xcalloc(cs->all.nr + 1, sizeof(*cs->nr_paths));
	cs->alloc_paths = xcalloc(cs->all.nr + 1, sizeof(*cs->alloc_paths));
}

static void cand_set_release(struct cand_set *cs)
{
	for (size_t i = 0; i < cs->all.nr; i++)
		free(cs->paths ? cs->paths[i] : NULL);
	free(cs->paths);
	free(cs->nr_paths);
	free(cs->alloc_paths);
	proposal_candidates_release(&cs->all);
	strmap_clear(&cs->by_key);
	glob_set_free(cs->builtin);
}

/* Fill item from a score (taking its closes). */
static void take_score(struct proposal *item, struct score *sc)
{
	item->closes = sc->closes;
	item->nr_closes = sc->nr_closes;
	item->catches = sc->catches;
	item->nr_catches = sc->nr_catches;
	item->matched_heads = sc->matched;
	item->extra_force_full = sc->extra;
	item->closes_other = sc->other;
	item->extra_minutes = sc->minutes;
	item->forced = sc->forced;
	item->forced_minutes = sc->forced_minutes;
	item->force_full_rate_after = sc->rate_after;
	item->p95_after = sc->p95_after;
}

static void score_candidates(struct proposals_ctx *c, struct proposals *p,
			     struct cand_set *cs)
{
	struct strbuf sb = STRBUF_INIT;

	if (!cs->all.nr)
		return;
	for (size_t i = 0; i < c->paths.nr; i++) {
		struct key_walk kw = { cs, (uint32_t)i };

		if (!c->path_eligible[i] || !c->path_nr_heads[i])
			continue;
		proposals_each_path_key(c->paths.items[i], &sb, key_hit, &kw);
		if (builtin_of(cs, c->paths.items[i], &sb) >= 0)
			key_hit(&sb, &kw);
	}
	strbuf_release(&sb);

	p->items = xcalloc(cs->all.nr, sizeof(*p->items));
	for (size_t i = 0; i < cs->all.nr; i++) {
		struct proposal *item = &p->items[p->nr++];
		struct score sc;
		size_t n = 0;

		next_gen(c);
		for (size_t j = 0; j < cs->nr_paths[i]; j++) {
			uint32_t path = cs->paths[i][j];

			for (size_t k = 0; k < c->path_nr_heads[path]; k++)
				hit(c, c->path_heads[path][k], &n);
		}
		score_hits(c, n, false, &sc);
		item->glob = cs->all.items[i].glob;
		item->form = cs->all.items[i].form;
		cs->all.items[i].glob = NULL;
		take_score(item, &sc);
	}
}

static int cmp_minutes(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static int cmp_rank(const void *a, const void *b)
{
	const struct proposal *x = a, *y = b;
	int cmp;

	if (x->nr_closes != y->nr_closes)
		return x->nr_closes > y->nr_closes ? -1 : 1;
	if (x->nr_catches != y->nr_catches)
		return x->nr_catches > y->nr_catches ? -1 : 1;
	cmp = cmp_minutes(x->extra_minutes, y->extra_minutes);
	return cmp ? cmp : strcmp(x->glob, y->glob);
}

/* Rank the items, keeping each one's matched paths beside it. */
static void rank(struct proposals *p, struct cand_set *cs)
{
	struct ranked { struct proposal item; uint32_t *paths; size_t nr_paths; } *tmp;

	if (!p->nr)
		return;
	tmp = xmalloc(p->nr * sizeof(*tmp));
	for (size_t i = 0; i < p->nr; i++) {
		tmp[i].item = p->items[i];
		tmp[i].paths = cs->paths[i];
		tmp[i].nr_paths = cs->nr_paths[i];
	}
	/* The item comes first in struct ranked, so cmp_rank applies. */
	sort_n(tmp, p->nr, sizeof(*tmp), cmp_rank);
	for (size_t i = 0; i < p->nr; i++) {
		p->items[i] = tmp[i].item;
		cs->paths[i] = tmp[i].paths;
		cs->nr_paths[i] = tmp[i].nr_paths;
	}
	free(tmp);
}

/* Are the sorted a[0..na) all in the sorted b[0..nb)? */
static bool subset(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t j = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return false;
	}
	return true;
}

/*
 * Drop every chosen glob whose matched paths another chosen glob matches
 * too (the later of two equal ones goes): it adds nothing on history.
 * Returns how many stay, in their order.
 */
static size_t drop_covered(const struct cand_set *cs, size_t *chosen, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t a = chosen[i];
		bool covered = false;

		for (size_t j = 0; j < n && !covered; j++) {
			size_t b = chosen[j];

			if (i == j || !subset(cs->paths[a], cs->nr_paths[a], cs->paths[b],
					      cs->nr_paths[b]))
				continue;
			/* Equal sets: keep the first taken. */
			covered = cs->nr_paths[a] < cs->nr_paths[b] || j < i;
		}
		if (!covered)
			chosen[k++] = a;
	}
	return k;
}

static void recommend(struct proposals_ctx *c, struct proposals *p,
		      const struct cand_set *cs)
{
	struct proposals_cover_item *items = xcalloc(p->nr + 1, sizeof(*items));
	size_t *chosen = xcalloc(p->nr + 1, sizeof(*chosen));
	struct score sc;
	size_t n = 0;

	for (size_t i = 0; i < p->nr; i++) {
		items[i].covers = p->items[i].closes;
		items[i].nr_covers = p->items[i].nr_closes;
		items[i].cost = p->items[i].extra_minutes;
		items[i].runs = p->items[i].extra_force_full;
		items[i].specificity = (int)p->items[i].form;
		items[i].name = p->items[i].glob;
	}
	p->nr_recommended = proposals_cover(items, p->nr, p->nr_escapes, chosen);
	p->nr_recommended = drop_covered(cs, chosen, p->nr_recommended);
	p->recommended = chosen;
	free(items);

	/* The set together: the union of the heads its globs match. */
	next_gen(c);
	for (size_t i = 0; i < p->nr_recommended; i++) {
		struct proposal *item = &p->items[chosen[i]];

		item->recommended = true;
		for (size_t j = 0; j < item->nr_closes; j++)
			p->escapes_list[item->closes[j]].closed_by_recommended = true;
		for (size_t j = 0; j < item->nr_catches; j++)
			p->latent_list[item->catches[j]].closed_by_recommended = true;
		for (size_t j = 0; j < cs->nr_paths[chosen[i]]; j++) {
			uint32_t path = cs->paths[chosen[i]][j];

			for (size_t k = 0; k < c->path_nr_heads[path]; k++)
				hit(c, c->path_heads[path][k], &n);
		}
	}
	score_hits(c, n, false, &sc);
	p->rec_closes = (int64_t)sc.nr_closes;
	p->rec_extra_force_full = sc.extra;
	p->rec_closes_other = sc.other;
	p->rec_extra_minutes = sc.minutes;
	p->rec_forced = sc.forced;
	p->rec_forced_minutes = sc.forced_minutes;
	p->rec_force_full_rate_after = sc.rate_after;
	p->rec_p95_after = sc.p95_after;
	free(sc.closes);
	free(sc.catches);
}

/* ---- compute ---- */

/* The window's latent misses, settled like escapes: propose's other evidence. */
static int load_latent(struct store *s, struct proposals_ctx *c, const struct metrics *m,
		       const struct window *w, const struct proposals_opts *opts,
		       struct repo *repo, struct proposals *p)
{
	p->latent_list = xcalloc(m->nr_pair_notes + 1, sizeof(*p->latent_list));
	for (size_t i = 0; i < m->nr_pair_notes; i++) {
		const struct metrics_pair_note *n = &m->pair_notes[i];
		const struct metrics_row *r = &m->rows[n->row];
		struct proposal_escape *e;

		if (!n->latent.nr || r->at < w->since || r->at >= w->until)
			continue;
		e = &p->latent_list[p->nr_latent++];
		if (load_change(s, c, r, &n->latent, e) < 0)
			return -1;
		e->latent = true;
		if (e->state == PROPOSAL_CLOSABLE) {
			struct phead *h = find_head(c, e->head_id);

			p->latent_closable++;
			if (h)
				h->latent = (int)(p->nr_latent - 1);
		}
		if (!opts || opts->evidence)
			add_evidence(repo, e);
	}
	return 0;
}

/* The window's median of latest-attempt wall-clocks of one kind, or NAN. */
static double window_median(const struct metrics *m, const struct window *w, bool full)
{
	double *v = xmalloc((m->nr_rows + 1) * sizeof(*v));
	size_t n = 0;
	double med;

	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];
		double x = full ? r->full_wall_s : r->shadow_wall_s;

		if (r->at >= w->since && r->at < w->until && !isnan(x))
			v[n++] = x;
	}
	metrics_sort(v, n);
	med = metrics_percentile(v, n, 0.5);
	free(v);
	return med;
}

/*
 * Classify the whole history once (metrics_compute over every head): which
 * heads escaped, the window's medians, and the window's unexplained escapes.
 */
static int classify_history(struct store *s, struct proposals_ctx *c,
			    const struct window *w, const struct proposals_opts *opts,
			    struct repo *repo, struct proposals *p)
{
	struct metrics_opts mo = METRICS_OPTS_INIT;
	struct window all = WINDOW_ALL;
	struct metrics m;
	int ret = 0;

	all.repo = w->repo;
	mo.idmap = opts ? opts->idmap : NULL;
	if (metrics_compute(s, &all, &mo, &m) < 0) {
		metrics_release(&m);
		return -1;
	}
	for (size_t i = 0; i < m.nr_rows; i++) {
		struct phead *h = find_head(c, m.rows[i].head_id);

		if (h)
			h->is_escape = m.rows[i].cls == CLASS_ESCAPE;
	}
	c->med_shadow = window_median(&m, w, false);
	c->med_full = window_median(&m, w, true);
	p->escapes_list = xcalloc(m.nr_escape_list + 1, sizeof(*p->escapes_list));
	for (size_t i = 0; i < m.nr_escape_list && !ret; i++) {
		const struct metrics_escape *x = &m.escape_list[i];
		const struct metrics_row *r = &m.rows[x->row];
		struct proposal_escape *e;

		if (r->at < w->since || r->at >= w->until)
			continue;
		if (x->explained) {
			p->explained++;
			continue;
		}
		e = &p->escapes_list[p->nr_escapes++];
		ret = load_change(s, c, r, r->cls == CLASS_NON_HERMETIC ? &x->non_hermetic
									: &x->missed, e);
		if (ret)
			break;
		switch (e->state) {
		case PROPOSAL_CLOSABLE: {
			struct phead *h = find_head(c, e->head_id);

			p->closable++;
			if (h)
				h->escape = (int)(p->nr_escapes - 1);
			break;
		}
		case PROPOSAL_CLOSED_BY_RULES:
			p->closed_by_rules++;
			break;
		case PROPOSAL_UNCLOSABLE:
			p->unclosable++;
			break;
		case PROPOSAL_EXPLAINED: /* counted above, never listed */
			break;
		}
		if (!opts || opts->evidence)
			add_evidence(repo, e);
	}
	p->escapes = (int64_t)p->nr_escapes;
	if (!ret)
		ret = load_latent(s, c, &m, w, opts, repo, p);
	metrics_release(&m);
	return ret;
}

int proposals_compute(struct store *s, struct repo *repo,
		      const struct proposals_rules *rules, const struct window *w,
		      const struct proposals_opts *opts, struct proposals *out)
{
	struct proposals_ctx *c = xcalloc(1, sizeof(*c));
	struct cand_set cs = { PROPOSAL_CANDIDATES_INIT, STRMAP_INIT, NULL, NULL, NULL, NULL };
	int ret;

	memset(out, 0, sizeof(*out));
	out->ctx_ = c;
	out->since = w->since;
	out->until = w->until;
	out->repo = xstrdup(w->repo ? w->repo : "");
	out->force_full_rate_before = out->p95_before = NAN;
	out->median_shadow_s = out->median_full_s = NAN;
	out->rec_extra_minutes = out->rec_force_full_rate_after = out->rec_p95_after = NAN;
	out->rec_forced_minutes = NAN;
	c->rules = rules;
	c->store = s;
	c->idmap = opts ? opts->idmap : NULL;
	c->med_shadow = c->med_full = NAN;

	ret = load_history(c, s, w);
	if (!ret)
		ret = classify_history(s, c, w, opts, repo, out);
	if (ret)
		return -1;
	out->history_heads = (int64_t)c->nr_heads;
	out->force_full_before = c->ff_before;
	if (c->nr_heads)
		out->force_full_rate_before = (double)c->ff_before / (double)c->nr_heads;
	out->p95_before = metrics_percentile(c->base, c->nr_base, 0.95);
	out->median_shadow_s = c->med_shadow;
	out->median_full_s = c->med_full;

	gather_candidates(c, out, &cs);
	score_candidates(c, out, &cs);
	rank(out, &cs);
	recommend(c, out, &cs);
	cand_set_release(&cs);
	c->rules = NULL; /* borrowed for the computation only */
	return 0;
}

void proposals_release(struct proposals *p)
{
	free(p->repo);
	for (size_t i = 0; i < p->nr_escapes; i++)
		escape_release(&p->escapes_list[i]);
	free(p->escapes_list);
	for (size_t i = 0; i < p->nr_latent; i++)
		escape_release(&p->latent_list[i]);
	free(p->latent_list);
	for (size_t i = 0; i < p->nr; i++) {
		free(p->items[i].glob);
		free(p->items[i].closes);
		free(p->items[i].catches);
	}
	free(p->items);
	free(p->recommended);
	ctx_free(p->ctx_);
	memset(p, 0, sizeof(*p));
}

/* ---- preview ---- */

void proposal_preview_release(struct proposal_preview *pv)
{
	strlist_release(&pv->sample);
	free(pv->changes);
	free(pv->closes);
	free(pv->catches);
	memset(pv, 0, sizeof(*pv));
}

int proposals_preview(struct proposals *p, const char *glob,
		      struct proposal_preview *out, struct strbuf *why)
{
	struct proposals_ctx *c = p->ctx_;
	struct glob_set *gs;
	struct score sc;
	size_t n = 0;

	proposal_preview_release(out);
	if (!c)
		BUG("proposals_preview before proposals_compute");
	gs = glob_set_new();
	if (glob_set_add(gs, glob, 0, why) < 0) {
		glob_set_free(gs);
		return -1;
	}
	if (glob_set_compile(gs, 0) < 0) {
		glob_set_free(gs);
		strbuf_addstr(why, "the pattern does not compile");
		return -1;
	}
	next_gen(c);
	for (size_t i = 0; i < c->paths.nr; i++) {
		uint32_t path = c->sorted_paths[i];

		if (!c->path_eligible[path] || !c->path_nr_heads[path] ||
		    glob_set_match(gs, c->paths.items[path]) == -1)
			continue;
		out->matched_paths++;
		if (out->sample.nr < PROPOSALS_PREVIEW_SAMPLE)
			strlist_push(&out->sample, c->paths.items[path]);
		for (size_t k = 0; k < c->path_nr_heads[path]; k++)
			hit(c, c->path_heads[path][k], &n);
	}
	glob_set_free(gs);
	score_hits(c, n, true, &sc);
	out->changes = xcalloc(n + 1, sizeof(*out->changes));
	for (size_t i = 0; i < n; i++) {
		const struct phead *h = &c->heads[c->hits[i]];
		struct proposal_change *ch = &out->changes[out->nr_changes++];

		ch->head_id = h->head_id;
		ch->has_pr = h->has_pr;
		ch->pr = h->pr;
		ch->forced = !h->run_all;
		ch->escape = h->escape;
	}
	out->closes = sc.closes;
	out->nr_closes = sc.nr_closes;
	out->catches = sc.catches;
	out->nr_catches = sc.nr_catches;
	out->extra_force_full = sc.extra;
	out->closes_other = sc.other;
	out->extra_minutes = sc.minutes;
	out->force_full_rate_after = sc.rate_after;
	out->p95_after = sc.p95_after;
	out->forced = sc.forced;
	out->forced_closing = sc.forced_closing;
	out->forced_minutes = sc.forced_minutes;
	return 0;
}

void proposals_preview_cost(struct strbuf *sb, const struct proposal_preview *pv)
{
	const char *sep = " (";

	strbuf_addf(sb, "+%" PRId64 " force-full run%s, ", pv->forced, pv->forced == 1 ? "" : "s");
	metrics_fmt(sb, "%+.1f min", pv->forced_minutes);
	if (pv->forced_closing) {
		strbuf_addf(sb, "%s%" PRId64 " closing", sep, pv->forced_closing);
		sep = ", ";
	}
	if (pv->closes_other) {
		strbuf_addf(sb, "%s%" PRId64 " other escape%s", sep, pv->closes_other,
			    pv->closes_other == 1 ? "" : "s");
		sep = ", ";
	}
	if (pv->extra_force_full)
		strbuf_addf(sb, "%s%" PRId64 " extra", sep, pv->extra_force_full);
	if (pv->forced)
		strbuf_addch(sb, ')');
}
