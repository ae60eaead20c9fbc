/* A lean pass (metrics_opts.lean): a window's figures summed as its heads arrive, few rows kept. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "metrics/pass.h"
#include "metrics/verifier.h"

/*
 * Each head's figures go into sums as its facts arrive, and its row is
 * dropped unless an escape or a pair note points to it. A report over 10^6
 * heads kept 152 MB of rows for figures made of counts, five distributions
 * and the days.
 *
 * The affected fractions and the diff coverage take few distinct values
 * (ratios of a run's counts): a bag (metrics/quantile.h) holds them, and
 * gives the same figures as the sorted array. The wall-clock times are
 * mostly distinct: they stay arrays, the shadow runs' in two, narrowed and
 * the others, so that the narrowed median needs no third.
 */

/*
 * The verifier check's groups (a PR of a repo; a push: its head) of a lean
 * pass's heads with shadow attempts: the repo as its index in the pool.
 * Two bits a slot of vsum add up, to 3, the attempts of the groups hashed
 * there, so that after the pass only the keys of slots at 3 are counted
 * exactly: few of 10^6. Four slots a byte keep the 2^21 slots in 512 KB,
 * a core's L2: at a byte a slot, the misses were a tenth of the pass.
 */

struct vkey {
	int64_t group;
	uint32_t repo;
	uint32_t attempts;
};
#define VSUM_BITS 21

/*
 * A key in 8 bytes, not 16 (10^6 of them): the repo's index in 14 bits,
 * the attempts to 3 (what decides) in 2, the group offset into 48. false:
 * it does not fit (kept whole).
 */
#define VKEY_GROUP_BITS 48
#define VKEY_REPO_BITS 14
static bool vkey_pack(const struct vkey *k, uint64_t *out)
{
	int64_t half = INT64_C(1) << (VKEY_GROUP_BITS - 1);

	if (k->repo >= (UINT32_C(1) << VKEY_REPO_BITS) || k->group < -half || k->group >= half)
		return false;
	*out = (uint64_t)k->repo << (VKEY_GROUP_BITS + 2) |
	       (uint64_t)(k->attempts > 3 ? 3 : k->attempts) << VKEY_GROUP_BITS |
	       (uint64_t)(k->group + half);
	return true;
}

static struct vkey vkey_unpack(uint64_t p)
{
	int64_t half = INT64_C(1) << (VKEY_GROUP_BITS - 1);
	uint64_t mask = (UINT64_C(1) << VKEY_GROUP_BITS) - 1;

	return (struct vkey){ (int64_t)(p & mask) - half, (uint32_t)(p >> (VKEY_GROUP_BITS + 2)),
			      (uint32_t)(p >> VKEY_GROUP_BITS) & 3 };
}

struct metrics_lean {
	struct metrics_bag affected, narrowed, diff_coverage;
	struct dvec wall_narrowed, wall_other, wall_full;
	size_t seen;              /* heads (main's runs too) */
	int64_t gates_at;         /* the window time of the last pair of metrics.gates */
	int64_t first_at, last_at;
	int64_t prev_shadow_day;
	struct period_sums days;
	/* The same for the periods of metrics_opts.by (by: the period + 1; 0: none). */
	int by;
	struct period_sums per;
	/* The savings' sums (its force-full runs: the gates' pairs with that bit). */
	int64_t sv_pairs;
	double sv_full, sv_shadow;
	size_t alloc_incomplete;
	unsigned char *vsum;
	uint64_t *vkeys;          /* packed (vkey_pack) */
	size_t nr_vkeys, alloc_vkeys;
	struct vkey *vwide;       /* those that do not pack */
	size_t nr_vwide, alloc_vwide;
	const char *vrepo_last;
	uint32_t vrepo_last_idx;
};

void lean_release(struct metrics_lean *l)
{
	if (!l)
		return;
	metrics_bag_release(&l->affected);
	metrics_bag_release(&l->narrowed);
	metrics_bag_release(&l->diff_coverage);
	free(l->wall_narrowed.v);
	free(l->wall_other.v);
	free(l->wall_full.v);
	period_sums_release(&l->days);
	period_sums_release(&l->per);
	free(l->vsum);
	free(l->vkeys);
	free(l->vwide);
	free(l);
}

struct metrics_lean *lean_new(int by)
{
	struct metrics_lean *l = xcalloc(1, sizeof(*l));

	l->by = by;
	l->prev_shadow_day = INT64_MIN;
	l->vsum = xcalloc((size_t)1 << (VSUM_BITS - 2), 1);
	return l;
}

static uint64_t vkey_hash(uint32_t repo, int64_t group)
{
	return ((uint64_t)repo * UINT64_C(0xff51afd7ed558ccd) ^ (uint64_t)group) *
	       UINT64_C(0x9e3779b97f4a7c15);
}

/* The vsum slot of a group: its attempts so far, to 3. */
static unsigned vsum_get(const unsigned char *vsum, uint32_t repo, int64_t group)
{
	uint64_t slot = vkey_hash(repo, group) >> (64 - VSUM_BITS);

	return vsum[slot >> 2] >> (2 * (slot & 3)) & 3;
}

static void vsum_add(unsigned char *vsum, uint32_t repo, int64_t group, uint32_t attempts)
{
	uint64_t slot = vkey_hash(repo, group) >> (64 - VSUM_BITS);
	unsigned shift = 2 * (slot & 3), now = vsum[slot >> 2] >> shift & 3;
	unsigned sum = attempts >= 3 - now ? 3 : now + attempts;

	vsum[slot >> 2] = (unsigned char)((vsum[slot >> 2] & ~(3u << shift)) | sum << shift);
}

/* The pool index of a pooled string (rows come by repo: mostly the last one). */
static uint32_t lean_repo_index(struct metrics *m, struct metrics_lean *l, const char *repo)
{
	int64_t idx;

	if (repo == l->vrepo_last)
		return l->vrepo_last_idx;
	if (!strmap_get(&m->pool_index_, repo, &idx))
		BUG("repo '%s' not pooled", repo);
	l->vrepo_last = repo;
	return l->vrepo_last_idx = (uint32_t)idx;
}

/* A pair with both wall-clock times into g (struct metrics_gates); *at: the one before's time. */
static void gates_push(struct metrics_gates *g, const struct metrics_row *r, int64_t *at)
{
	uint32_t gap = METRICS_GAP_FAR;

	if (r->at >= *at && r->at - *at < METRICS_GAP_FAR)
		gap = (uint32_t)(r->at - *at);
	else {
		ALLOC_GROW(g->far, g->nr_far + 1, g->alloc_far);
		g->far[g->nr_far++] = r->at;
	}
	*at = r->at;
	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? g->alloc + g->alloc / 2 : 1024;
		g->shadow_s = xrealloc(g->shadow_s, g->alloc * sizeof(*g->shadow_s));
		g->full_s = xrealloc(g->full_s, g->alloc * sizeof(*g->full_s));
		g->gap = xrealloc(g->gap, g->alloc * sizeof(*g->gap));
	}
	g->shadow_s[g->nr] = r->shadow_wall_s;
	g->full_s[g->nr] = r->full_wall_s;
	g->gap[g->nr++] = gap | (r->decision == DECISION_RUN_ALL ? METRICS_GAP_FORCE_FULL : 0) |
			  (r->decision == DECISION_SELECTED ? METRICS_GAP_NARROWED : 0);
}

/*
 * Room for the pairs and verifier keys of a window's heads, taken at once:
 * arrays grown a pair at a time leave their smaller copies on the heap.
 */
void lean_reserve(struct metrics *m, size_t heads)
{
	struct metrics_gates *g = &m->gates;
	struct metrics_lean *l = m->lean_;

	if (heads > g->alloc) {
		g->alloc = heads;
		g->shadow_s = xrealloc(g->shadow_s, g->alloc * sizeof(*g->shadow_s));
		g->full_s = xrealloc(g->full_s, g->alloc * sizeof(*g->full_s));
		g->gap = xrealloc(g->gap, g->alloc * sizeof(*g->gap));
	}
	if (heads > l->alloc_vkeys) {
		l->alloc_vkeys = heads;
		l->vkeys = xrealloc(l->vkeys, l->alloc_vkeys * sizeof(*l->vkeys));
	}
}

void gates_release(struct metrics_gates *g)
{
	free(g->shadow_s);
	free(g->full_s);
	free(g->gap);
	free(g->far);
	memset(g, 0, sizeof(*g));
}

/* Row r (whether kept or not) into the lean pass's sums. */
void lean_add(struct metrics *m, const struct metrics_row *r)
{
	struct metrics_lean *l = m->lean_;
	int64_t day = day_of(r->at);

	if (!l->seen++)
		l->first_at = r->at;
	l->last_at = r->at;
	/* The distributions, over every row as rows_dists reads them. */
	if (!isnan(r->affected)) {
		metrics_bag_add(&l->affected, r->affected);
		if (r->decision == DECISION_SELECTED)
			metrics_bag_add(&l->narrowed, r->affected);
	}
	if (!isnan(r->diff_coverage))
		metrics_bag_add(&l->diff_coverage, r->diff_coverage);
	if (!isnan(r->shadow_wall_s) && !isnan(r->full_wall_s)) {
		gates_push(&m->gates, r, &l->gates_at);
	} else {
		if (!isnan(r->shadow_wall_s))
			dvec_push(r->decision == DECISION_SELECTED ? &l->wall_narrowed
								   : &l->wall_other,
				  r->shadow_wall_s);
		if (!isnan(r->full_wall_s))
			dvec_push(&l->wall_full, r->full_wall_s);
	}
	if (r->shadow_attempts > 0 && day != l->prev_shadow_day) {
		m->shadow_days++;
		l->prev_shadow_day = day;
	}
	if (r->shadow_attempts > 0) {
		struct vkey k = { pass_vgroup_of(r), lean_repo_index(m, l, r->repo),
				  (uint32_t)r->shadow_attempts };
		uint64_t packed;

		vsum_add(l->vsum, k.repo, k.group, k.attempts);
		if (vkey_pack(&k, &packed)) {
			ALLOC_GROW(l->vkeys, l->nr_vkeys + 1, l->alloc_vkeys);
			l->vkeys[l->nr_vkeys++] = packed;
		} else {
			ALLOC_GROW(l->vwide, l->nr_vwide + 1, l->alloc_vwide);
			l->vwide[l->nr_vwide++] = k;
		}
	}
	period_sums_add(m, &l->days, day, r);
	if (l->by)
		period_sums_add(m, &l->per, period_first_day(day, (enum metrics_period)(l->by - 1)),
				r);
	pass_count_row(m, r);
	if (r->cls == CLASS_MAIN)
		return;
	if (r->cls == CLASS_INCOMPLETE && r->why) {
		size_t j;

		for (j = 0; j < m->nr_incomplete && m->incomplete[j].why != r->why; j++)
			;
		if (j == m->nr_incomplete) {
			ALLOC_GROW(m->incomplete, m->nr_incomplete + 1, l->alloc_incomplete);
			m->incomplete[m->nr_incomplete].why = r->why;
			m->incomplete[m->nr_incomplete++].heads = 0;
		}
		m->incomplete[j].heads++;
	}
	if (!isnan(r->shadow_wall_s) && !isnan(r->full_wall_s)) {
		l->sv_pairs++;
		l->sv_full += r->full_wall_s;
		l->sv_shadow += r->shadow_wall_s;
	}
}


size_t lean_seen(const struct metrics *m)
{
	return m->lean_->seen;
}

int64_t lean_first_at(const struct metrics *m)
{
	return m->lean_->seen ? m->lean_->first_at : INT64_MIN;
}

void lean_figures(struct metrics *m)
{
	metrics_bag_dist(&m->lean_->affected, &m->affected);
	metrics_bag_dist(&m->lean_->narrowed, &m->narrowed);
	metrics_bag_dist(&m->lean_->diff_coverage, &m->diff_coverage);
}

void lean_savings(const struct metrics *m, int64_t *pairs, double *full, double *shadow)
{
	*pairs = m->lean_->sv_pairs;
	*full = m->lean_->sv_full;
	*shadow = m->lean_->sv_shadow;
}

static int cmp_vkey(const void *x, const void *y)
{
	const struct vkey *a = x, *b = y;

	if (a->repo != b->repo)
		return a->repo < b->repo ? -1 : 1;
	return (a->group > b->group) - (a->group < b->group);
}

/* The heads of a busy group in a lean pass's window, as rows of their own (tmp). */
struct lean_heads {
	struct metrics *m;
	struct store *store;
	const struct idmap *map;
	const struct quarantine_index *quarantine;
	struct metrics *tmp;
	struct pair_facts facts;
};

static int add_lean_head(const struct pair_info *p, void *data)
{
	struct lean_heads *lh = data;
	struct metrics *m = lh->m, *tmp = lh->tmp;

	if (p->at < m->since || p->at >= m->until ||
	    (*m->repo && (!p->repo || strcmp(p->repo, m->repo))))
		return 0;
	if (pass_make_facts(lh->store, lh->map, lh->quarantine, p, &lh->facts) < 0)
		return -1;
	if (!lh->facts.shadow_attempts)
		return 0;
	ALLOC_GROW(tmp->rows, tmp->nr_rows + 1, tmp->alloc_rows);
	pass_fill_row(m, &lh->facts, &tmp->rows[tmp->nr_rows++]);
	return 0;
}

/*
 * The keys whose vsum slot reached 3, and those that did not pack, into
 * *out (the caller frees), sorted; how many. The pass's keys go: read once.
 */
static size_t lean_busy_keys(struct metrics_lean *l, struct vkey **out)
{
	size_t nc = l->nr_vwide;
	struct vkey *cand;

	/* The keys of the slots at 3 go first in vkeys, over those read. */
	for (size_t i = 0; i < l->nr_vkeys; i++) {
		struct vkey k = vkey_unpack(l->vkeys[i]);

		if (vsum_get(l->vsum, k.repo, k.group) >= 3)
			l->vkeys[nc++ - l->nr_vwide] = l->vkeys[i];
	}
	cand = xmalloc((nc ? nc : 1) * sizeof(*cand));
	for (size_t i = 0; i < nc; i++)
		cand[i] = i < l->nr_vwide ? l->vwide[i] : vkey_unpack(l->vkeys[i - l->nr_vwide]);
	free(l->vkeys);
	free(l->vsum);
	l->vkeys = NULL;
	l->vsum = NULL;
	if (nc > 1)
		qsort(cand, nc, sizeof(*cand), cmp_vkey);
	*out = cand;
	return nc;
}

/*
 * The busy groups' heads: the candidate keys counted exactly, and the
 * heads of the groups at three attempts or more read again and classified.
 */
int lean_busy_heads(struct metrics *m, struct store *s, const struct metrics_opts *opts,
		    const struct quarantine_index *q, struct metrics *tmp)
{
	struct lean_heads lh = { m, s, opts->idmap, q, tmp, PAIR_FACTS_INIT };
	struct vkey *cand;
	size_t nc = lean_busy_keys(m->lean_, &cand);
	int ret = 0;

	for (size_t i = 0, j; i < nc && !ret; i = j) {
		int64_t attempts = 0;
		const struct vkey *k = &cand[i];

		for (j = i; j < nc && !cmp_vkey(&cand[j], k); j++)
			attempts += cand[j].attempts;
		if (attempts < 3)
			continue;
		if (k->group >= 0)
			ret = query_pr_heads(s, m->pool_.items[k->repo], k->group, add_lean_head,
					     &lh);
		else
			ret = query_head_pair(s, -k->group - 1, add_lean_head, &lh);
	}
	free(cand);
	pair_facts_release(&lh.facts);
	pass_sort_rows(tmp->rows, tmp->nr_rows, NULL);
	return ret < 0 ? -1 : 0;
}

/*
 * The narrowed shadow runs' median, then all of them, then the full runs',
 * in one array each of its final size: a grown one leaves its smaller
 * copies on the heap (core/util.c keeps freed memory).
 */
static void lean_walls(struct metrics *m)
{
	struct metrics_lean *l = m->lean_;
	const struct metrics_gates *g = &m->gates;
	struct dvec *w = &l->wall_narrowed;
	size_t n = w->nr + l->wall_other.nr + g->nr, nv = w->nr;
	double *v = xmalloc((n ? n : 1) * sizeof(*v));

	if (w->nr)
		memcpy(v, w->v, w->nr * sizeof(*v));
	for (size_t i = 0; i < g->nr; i++)
		if (g->gap[i] & METRICS_GAP_NARROWED)
			v[nv++] = g->shadow_s[i];
	m->narrowed_wall_p50 = metrics_quantile(v, nv, 0.5);
	if (l->wall_other.nr)
		memcpy(v + nv, l->wall_other.v, l->wall_other.nr * sizeof(*v));
	nv += l->wall_other.nr;
	for (size_t i = 0; i < g->nr; i++)
		if (!(g->gap[i] & METRICS_GAP_NARROWED))
			v[nv++] = g->shadow_s[i];
	metrics_percentiles_of(v, nv, &m->wall_shadow);
	n = l->wall_full.nr + g->nr;
	v = xrealloc(v, (n ? n : 1) * sizeof(*v));
	if (l->wall_full.nr)
		memcpy(v, l->wall_full.v, l->wall_full.nr * sizeof(*v));
	if (g->nr)
		memcpy(v + l->wall_full.nr, g->full_s, g->nr * sizeof(*v));
	metrics_percentiles_of(v, n, &m->wall_full);
	free(v);
}

void lean_tail(struct metrics *m)
{
	struct metrics_lean *l = m->lean_;

	lean_walls(m);
	m->nr_days = periods_of_sums(m, PERIOD_DAY, &l->days, l->seen > 0, l->first_at,
				     l->last_at, &m->days);
	if (!l->by)
		return;
	m->periods_by_ = l->by;
	m->nr_periods_ = periods_of_sums(m, (enum metrics_period)(l->by - 1), &l->per,
					 l->seen > 0, l->first_at, l->last_at, &m->periods_);
}
