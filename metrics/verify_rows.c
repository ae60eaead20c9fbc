/*
 * The verifier check over a window's rows (metrics/verifier.h): the groups
 * of three shadow attempts or more, their heads read again and checked.
 */
#include "core/tiadash.h"
#include "metrics/pass.h"
#include "metrics/verifier.h"

/*
 * The verifier check's groups: one PR's heads (a push: its head) of a
 * repo. The rows' repo strings are pooled, so equal repos are one pointer.
 */
struct vgroup {
	const char *repo;
	int64_t group; /* PR numbers are >= 0; a push is its own group, below them */
	size_t row;
};

static int cmp_vgroup(const void *x, const void *y)
{
	const struct vgroup *a = x, *b = y;

	if (a->repo != b->repo)
		return (uintptr_t)a->repo < (uintptr_t)b->repo ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

static int cmp_run_id(const void *x, const void *y)
{
	const struct verifier_attempt *a = x, *b = y;

	return (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

/* The shadow attempts of one group's heads of the window (its rows). */
struct vgroup_attempts {
	const struct metrics *m;
	const struct vgroup *g;
	size_t nr_g;
	struct verifier_attempt *att;
	size_t nr, alloc;
};

static int add_group_head(const struct pair_info *p, void *data)
{
	struct vgroup_attempts *va = data;

	for (size_t i = 0; i < va->nr_g; i++)
		if (va->m->rows[va->g[i].row].head_id == p->head_id)
			verifier_add_head(&va->att, &va->nr, &va->alloc, p, va->g[i].row);
	return 0;
}

/*
 * Check one group of three shadow attempts or more (only those can flag
 * anything, and they are few: their attempts are read again here rather
 * than every attempt of the window kept through the pass).
 */
static int check_group(struct verifier *v, struct vgroup_attempts *va)
{
	const struct metrics *m = va->m;
	const struct metrics_row *first = &m->rows[va->g[0].row];
	int ret;

	va->nr = 0;
	ret = first->has_pr ? query_pr_heads(v->store, first->repo, first->pr, add_group_head, va)
			    : query_head_pair(v->store, first->head_id, add_group_head, va);
	for (size_t i = 0; i < va->nr; i++)
		va->att[i].sha = m->rows[va->att[i].row].sha;
	if (va->nr > 1)
		qsort(va->att, va->nr, sizeof(*va->att), cmp_run_id);
	return ret ? ret : verifier_check(v, va->att, va->nr);
}

/* A group's shadow attempts, in an open-addressing table keyed by (repo, group). */
struct vcount {
	const char *repo; /* NULL: a free slot */
	int64_t group;
	int attempts;
};

static uint64_t vgroup_hash(const char *repo, int64_t group)
{
	return ((uint64_t)(uintptr_t)repo ^ (uint64_t)group) * UINT64_C(0x9e3779b97f4a7c15);
}

static struct vcount *vcount_slot(struct vcount *t, size_t mask, const char *repo,
				  int64_t group)
{
	size_t i = (size_t)(vgroup_hash(repo, group) >> 32) & mask;

	while (t[i].repo && (t[i].repo != repo || t[i].group != group))
		i = (i + 1) & mask;
	return &t[i];
}

/*
 * The rows of the groups that may have three shadow attempts or more, into
 * cand: a byte a slot of a table sized to stay in the cache sums, up to 3,
 * the attempts of the groups whose hash falls there, so a slot below 3 rules
 * out all of its groups. Returns how many.
 */
static size_t busy_candidates(const struct metrics *m, size_t *cand)
{
	size_t cap = 1024, n = 0;
	unsigned char *sum;

	while (cap < 4 * m->nr_rows && cap < (1u << 20))
		cap *= 2;
	sum = xcalloc(cap, 1);
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];
		unsigned char *c = &sum[vgroup_hash(r->repo, pass_vgroup_of(r)) & (cap - 1)];

		if (r->shadow_attempts)
			*c = (unsigned char)(*c + r->shadow_attempts >= 3 ? 3 : *c + r->shadow_attempts);
	}
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];

		if (r->shadow_attempts && sum[vgroup_hash(r->repo, pass_vgroup_of(r)) & (cap - 1)] >= 3)
			cand[n++] = i;
	}
	free(sum);
	return n;
}

/*
 * The rows of the groups with three shadow attempts or more, into g, sorted
 * by group; returns how many. The candidates (busy_candidates) are counted
 * exactly in a hash table: a table of all 10^5 rows was 6 MB of cache
 * misses and page faults, and sorting them a tenth of a report.
 */
static size_t busy_groups(const struct metrics *m, struct vgroup *g)
{
	size_t *cand = xmalloc((m->nr_rows ? m->nr_rows : 1) * sizeof(*cand));
	size_t nc = busy_candidates(m, cand), cap = 16, n = 0;
	struct vcount *t;

	while (cap < 2 * nc)
		cap *= 2;
	t = xcalloc(cap, sizeof(*t));
	for (size_t k = 0; k < nc; k++) {
		const struct metrics_row *r = &m->rows[cand[k]];
		struct vcount *c = vcount_slot(t, cap - 1, r->repo, pass_vgroup_of(r));

		c->repo = r->repo;
		c->group = pass_vgroup_of(r);
		c->attempts += r->shadow_attempts;
	}
	for (size_t k = 0; k < nc; k++) {
		const struct metrics_row *r = &m->rows[cand[k]];

		if (vcount_slot(t, cap - 1, r->repo, pass_vgroup_of(r))->attempts >= 3)
			g[n++] = (struct vgroup){ r->repo, pass_vgroup_of(r), cand[k] };
	}
	free(t);
	free(cand);
	if (n > 1)
		qsort(g, n, sizeof(*g), cmp_vgroup);
	return n;
}

static int check_groups(struct verifier *v, const struct metrics *m)
{
	struct vgroup *g = xmalloc((m->nr_rows ? m->nr_rows : 1) * sizeof(*g));
	struct vgroup_attempts va = { .m = m };
	size_t n = busy_groups(m, g), from = 0;
	int ret = 0;

	for (size_t i = 1; i <= n && !ret; i++) {
		if (i < n && g[i].repo == g[from].repo && g[i].group == g[from].group)
			continue;
		va.g = g + from;
		va.nr_g = i - from;
		ret = check_group(v, &va);
		from = i;
	}
	free(va.att);
	free(g);
	return ret;
}

static int cmp_found(const void *x, const void *y)
{
	const struct metrics_verifier *a = x, *b = y;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	return strcmp(a->test, b->test);
}

/* The verifier check's finds in order, and their rows flagged (each head counted once). */
static void flag_verifier_rows(struct metrics *m)
{
	if (m->nr_verifier > 1)
		qsort(m->verifier, m->nr_verifier, sizeof(*m->verifier), cmp_found);
	for (size_t i = 0; i < m->nr_verifier; i++) {
		struct metrics_row *r = &m->rows[m->verifier[i].row];

		m->verifier_heads += !r->verifier_changed;
		r->verifier_changed = true;
	}
}

static int lean_verifier(struct metrics *m, struct store *s, const struct metrics_opts *opts,
			 const struct quarantine_index *q);

int pass_verifier(struct metrics *m, struct store *s, const struct metrics_opts *opts,
		  const struct quarantine_index *q)
{
	struct verifier v;
	int ret;

	if (m->lean_)
		return lean_verifier(m, s, opts, q);
	ret = verifier_init(&v, s, opts->repo);

	if (!ret)
		ret = check_groups(&v, m);
	m->verifier = v.found;
	m->nr_verifier = v.nr;
	flag_verifier_rows(m);
	verifier_release(&v);
	return ret;
}

/* The kept row of head r (added when there is none). */
static size_t lean_row_of(struct metrics *m, const struct metrics_row *r)
{
	for (size_t i = 0; i < m->nr_rows; i++)
		if (m->rows[i].head_id == r->head_id)
			return i;
	ALLOC_GROW(m->rows, m->nr_rows + 1, m->alloc_rows);
	m->rows[m->nr_rows] = *r;
	return m->nr_rows++;
}

/* pass_verifier after a lean pass: the busy groups' heads read again, a row for each flagged. */
static int lean_verifier(struct metrics *m, struct store *s, const struct metrics_opts *opts,
			 const struct quarantine_index *q)
{
	struct metrics tmp = { 0 };
	struct verifier v;
	size_t kept = m->nr_rows; /* the escapes' and pair notes' */
	int ret = lean_busy_heads(m, s, opts, q, &tmp), vret;

	vret = verifier_init(&v, s, opts->repo);
	if (!ret)
		ret = vret;
	if (!ret)
		ret = check_groups(&v, &tmp);
	m->verifier = v.found;
	m->nr_verifier = v.nr;
	for (size_t i = 0; i < m->nr_verifier; i++)
		m->verifier[i].row = lean_row_of(m, &tmp.rows[m->verifier[i].row]);
	/* Rows added for flagged heads go in window order, as every row is. */
	if (m->nr_rows > kept)
		pass_sort_rows(m->rows, m->nr_rows, m);
	flag_verifier_rows(m);
	verifier_release(&v);
	free(tmp.rows);
	return ret;
}
