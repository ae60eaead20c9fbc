/*
 * The calibration figures of a window: one pass over the window's heads'
 * kept facts (metrics/facts.h; those of heads without are made and kept
 * first, or when they cannot be, every pair is classified); then
 * distributions sorted in C; the blind spots meanwhile on a thread of their
 * own. For the dashboard the pass runs from both ends and the figures after
 * it on two threads.
 */
#include "core/tiadash.h"
#include "core/paircache.h"
#include "core/timeutil.h"
#include "metrics/blind.h"
#include "metrics/facts.h"
#include "metrics/mainrec.h"
#include "metrics/metrics.h"
#include "metrics/pass.h"

#include <pthread.h>

double metrics_saving(double shadow, double full)
{
	if (isnan(shadow) || isnan(full) || full <= 0)
		return NAN;
	return 1.0 - shadow / full;
}

/* A force-full run's contribution to one reason's minutes. */
struct ff_entry {
	size_t reason;
	double wall_s;
	bool paired; /* its head's full run has a wall-clock too: in the savings */
};

struct acc {
	struct store *store;
	const struct metrics_opts *opts;
	struct metrics *m;
	const struct quarantine_index *quarantine; /* the store's lists, read once a pass */
	const struct note_index *notes;            /* the same for the notes */
	struct strmap reason_index; /* reason -> index into m->reasons */
	size_t alloc_reasons, alloc_escapes, alloc_prs, alloc_notes;
	struct ff_entry *ff;
	size_t nr_ff, alloc_ff;
	int64_t facts_key;        /* pair_facts_key of the pass's id-map */
	struct pair_facts facts;  /* the pair's at hand (reused) */
	/* A side of a split pass: the shared rows, and those that found no slot there. */
	struct row_share *share;
	bool backward;
	struct metrics_row *spill;
	size_t nr_spill, alloc_spill;
	size_t seen; /* heads added (a lean pass keeps a row for few of them) */
	/*
	 * A lean pass's force-full entries in 4 bytes, not 24: the reason's
	 * index under two bits, paired and the first of its run. A run's
	 * wall-clock is its pair's in metrics.gates (the next with the
	 * force-full bit) when paired, else the next of ff_walls.
	 */
	uint32_t *ffl;
	size_t nr_ffl, alloc_ffl;
	struct dvec ff_walls;
	bool ff_run;
};
#define FF_PAIRED (UINT32_C(1) << 31)
#define FF_RUN (UINT32_C(1) << 30)
#define FF_REASON (FF_RUN - 1)

/* Intern s in the metrics' string pool; the result lives until release. */
static const char *pool_str(struct metrics *m, const char *s)
{
	int64_t idx;
	bool added;
	struct strmap_entry *e;

	/* Rows come by repo: most ask for the string they asked for last. */
	if (m->pool_last_ && !strcmp(m->pool_last_, s))
		return m->pool_last_;
	if (strmap_get(&m->pool_index_, s, &idx))
		return m->pool_last_ = m->pool_.items[idx];
	e = strmap_intern(&m->pool_index_, s, strlen(s), (int64_t)m->pool_.nr, &added);
	UNUSED(e);
	strlist_push(&m->pool_, s);
	return m->pool_last_ = m->pool_.items[m->pool_.nr - 1];
}

void pass_fill_row(struct metrics *m, const struct pair_facts *f, struct metrics_row *r)
{
	memset(r, 0, sizeof(*r));
	r->head_id = f->head_id;
	memcpy(r->sha, f->sha, sizeof(r->sha));
	r->has_pr = f->has_pr;
	r->pr = f->pr;
	r->repo = pool_str(m, f->repo);
	r->at = f->at;
	r->cls = f->cls;
	r->why = f->why ? pool_str(m, f->why) : NULL;
	r->shadow_attempts = f->shadow_attempts;
	r->full_attempts = f->full_attempts;
	r->decision = f->decision;
	r->affected = f->affected;
	r->shadow_wall_s = f->shadow_wall_s;
	r->full_wall_s = f->full_wall_s;
	r->diff_coverage = f->diff_coverage;
	r->missed = pair_class_is_escape(f->cls) ? f->missed.nr : 0;
	r->base_unrun = f->base_unrun;
}

/* What finish_figures, finish_incomplete and finish_savings count of a head. */
void pass_count_row(struct metrics *m, const struct metrics_row *r)
{
	m->class_counts[r->cls]++;
	if (r->cls == CLASS_MAIN)
		return;
	m->escapes_base_unrun += r->base_unrun;
	m->shadow_heads += r->shadow_attempts > 0;
	m->full_heads += r->full_attempts > 0;
	m->pairs += r->shadow_attempts > 0 && r->full_attempts > 0;
	m->force_full += r->decision == DECISION_RUN_ALL;
	m->escapes += pair_class_is_escape(r->cls);
	m->escapes_explained += r->explained;
	if (!isnan(r->diff_coverage))
		m->below_threshold += r->diff_coverage < m->threshold;
}

/* The index of reason in m->reasons, added with no runs when new. */
static size_t reason_slot(struct acc *a, const char *reason)
{
	struct metrics *m = a->m;
	int64_t idx;

	if (!strmap_get(&a->reason_index, reason, &idx)) {
		idx = (int64_t)m->nr_reasons;
		ALLOC_GROW(m->reasons, m->nr_reasons + 1, a->alloc_reasons);
		m->reasons[m->nr_reasons].reason = xstrdup(reason);
		m->reasons[m->nr_reasons].runs = 0;
		m->reasons[m->nr_reasons].minutes = 0;
		m->nr_reasons++;
		strmap_put(&a->reason_index, reason, strlen(reason), idx);
	}
	return (size_t)idx;
}

static void add_ff(struct acc *a, size_t reason, double wall_s, bool paired)
{
	if (a->m->lean_) {
		if (reason > FF_REASON)
			BUG("%zu force-full reasons", reason);
		ALLOC_GROW(a->ffl, a->nr_ffl + 1, a->alloc_ffl);
		a->ffl[a->nr_ffl++] = (uint32_t)reason | (paired ? FF_PAIRED : 0) |
				      (a->ff_run ? FF_RUN : 0);
		a->ff_run = false;
		return;
	}
	ALLOC_GROW(a->ff, a->nr_ff + 1, a->alloc_ff);
	a->ff[a->nr_ff].reason = reason;
	a->ff[a->nr_ff].wall_s = wall_s;
	a->ff[a->nr_ff].paired = paired;
	a->nr_ff++;
}

static void add_reason(struct acc *a, const char *reason, double wall_s, bool paired)
{
	size_t idx = reason_slot(a, reason);

	a->m->reasons[idx].runs++;
	add_ff(a, idx, wall_s, paired);
}

/* Each distinct reason of a force-full run counts once for that run. */
static void add_force_full(struct acc *a, const struct strlist *reasons, double wall_s,
			   bool paired)
{
	if (a->m->lean_) {
		a->ff_run = true;
		if (!paired)
			dvec_push(&a->ff_walls, wall_s);
	}
	if (!reasons->nr) {
		add_reason(a, "(no reason)", wall_s, paired);
		return;
	}
	for (size_t i = 0; i < reasons->nr; i++) {
		bool dup = false;

		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(reasons->items[i], reasons->items[j]);
		if (!dup)
			add_reason(a, reasons->items[i], wall_s, paired);
	}
}

/*
 * src's strings into dst, its array cut to their number: a decoded list
 * grows by ALLOC_GROW (25 slots for the first string), and the escapes of
 * 10^6 pairs keep theirs to the end (5 MB of empty slots).
 */
static void move_list(struct strlist *dst, struct strlist *src)
{
	*dst = *src;
	memset(src, 0, sizeof(*src));
	if (dst->alloc > dst->nr) {
		dst->items = dst->nr ? xrealloc(dst->items, dst->nr * sizeof(*dst->items))
				     : (free(dst->items), NULL);
		dst->alloc = dst->nr;
	}
}

static void add_escape(struct acc *a, struct pair_facts *f, struct metrics_row *r)
{
	struct metrics *m = a->m;
	const char *note = note_index_get(a->notes, r->head_id);
	struct metrics_escape *e;

	ALLOC_GROW(m->escape_list, m->nr_escape_list + 1, a->alloc_escapes);
	e = &m->escape_list[m->nr_escape_list++];
	memset(e, 0, sizeof(*e));
	e->row = m->nr_rows - 1;
	move_list(&e->missed, &f->missed);
	move_list(&e->non_hermetic, &f->non_hermetic);
	move_list(&e->not_run, &f->not_run);
	e->explained = note != NULL;
	e->note = note ? xstrdup(note) : NULL;
	r->explained = e->explained;
	if (r->has_pr) {
		ALLOC_GROW(m->escape_prs, m->nr_escape_prs + 1, a->alloc_prs);
		m->escape_prs[m->nr_escape_prs++] = r->pr;
	}
}

/* A pair with inherited failures or latent misses: its lists move into a note. */
static void add_pair_note(struct acc *a, struct pair_facts *f)
{
	struct metrics *m = a->m;
	struct metrics_pair_note *n;

	ALLOC_GROW(m->pair_notes, m->nr_pair_notes + 1, a->alloc_notes);
	n = &m->pair_notes[m->nr_pair_notes++];
	n->row = m->nr_rows - 1;
	move_list(&n->inherited, &f->inherited);
	move_list(&n->latent, &f->latent);
	memcpy(n->main_sha, f->main_sha, sizeof(n->main_sha));
}

/*
 * An unresolved test into the identity figures' list as
 * identity_figures_finish leaves it, sorted, unique, the first
 * IDENTITY_LISTED: kept so as it grows, not a copy of every failing test
 * of 10^6 pairs (4 MB) sorted at the end.
 */
static void add_unresolved(struct strlist *l, const char *s)
{
	size_t lo = 0, hi = l->nr;
	char *item;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->items[mid], s);

		if (!c)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= IDENTITY_LISTED)
		return;
	if (l->nr >= IDENTITY_LISTED)
		free(l->items[--l->nr]);
	strlist_push(l, s);
	item = l->items[l->nr - 1];
	memmove(&l->items[lo + 1], &l->items[lo], (l->nr - 1 - lo) * sizeof(*l->items));
	l->items[lo] = item;
}

static void add_identity(struct identity_figures *id, const struct pair_facts *f)
{
	id->failing_tests += f->failing;
	id->resolved += f->resolved;
	id->by_name += f->by_name;
	for (size_t i = 0; i < f->unresolved.nr; i++)
		add_unresolved(&id->unresolved, f->unresolved.items[i]);
	if (!f->has_entries)
		return;
	id->selection_entries += f->entries_total;
	id->entries_unresolved += f->entries_unresolved;
	if (f->has_unmatched) {
		id->has_unmatched = true;
		id->entries_unmatched += f->entries_unmatched;
	}
}

/*
 * A split pass's rows (metrics_opts.split): one array for both sides, of
 * the window's heads as counted before, so that no side grows its own and
 * none is copied after (14 MB at 10^5 heads). The forward side fills it
 * from the first slot up, the backward one from the last down. A side
 * that finds no slot left (heads written since the count) spills the rest
 * of its rows into an array of its own; merge_rows puts them in place.
 */
struct row_share {
	struct metrics_row *rows;
	size_t cap;
	atomic_long free; /* slots neither side took */
};

/* The slot of a's next row. */
static struct metrics_row *take_row(struct acc *a)
{
	struct metrics *m = a->m;
	struct row_share *sh = a->share;

	if (!sh) {
		ALLOC_GROW(m->rows, m->nr_rows + 1, m->alloc_rows);
		return &m->rows[m->nr_rows];
	}
	/* Once a side spilled, the rest of its rows follow: its order stays. */
	if (!a->nr_spill && atomic_fetch_sub(&sh->free, 1) > 0)
		return &sh->rows[a->backward ? sh->cap - 1 - m->nr_rows : m->nr_rows];
	ALLOC_GROW(a->spill, a->nr_spill + 1, a->alloc_spill);
	return &a->spill[a->nr_spill++];
}

/* One pair's facts into the pass: a row, its force-full reasons, identity, escape. */
static void add_facts(struct acc *a, struct pair_facts *f)
{
	struct metrics *m = a->m;
	struct metrics_row lean_row;
	bool keep = !m->lean_ || pair_class_is_escape(f->cls) || f->inherited.nr || f->latent.nr;
	struct metrics_row *r = keep ? take_row(a) : &lean_row;

	pass_fill_row(m, f, r);
	m->nr_rows += keep;
	a->seen++;
	if (f->cls == CLASS_MAIN) {
		/* Main's record, not a gate's run: in no figure of the pairs. */
		r->full_wall_s = NAN;
		if (m->lean_)
			lean_add(m, r);
		return;
	}
	m->shadow_runs += r->shadow_attempts;
	m->full_runs += r->full_attempts;
	if (f->decision == DECISION_RUN_ALL)
		add_force_full(a, &f->reasons, f->shadow_wall_s,
			       !isnan(f->shadow_wall_s) && !isnan(f->full_wall_s));
	if (f->quarantined) {
		m->quarantined_pairs++;
		m->quarantined_tests += f->quarantined;
	}
	m->flaky_tests += f->flaky;
	add_identity(&m->identity, f);
	if (pair_class_is_escape(f->cls))
		add_escape(a, f, r);
	if (f->inherited.nr || f->latent.nr)
		add_pair_note(a, f);
	if (m->lean_)
		lean_add(m, r); /* after add_escape: it knows whether the escape is explained */
}

/* p's facts into out: p classified (with q's quarantine lists). -1 after error(). */
int pass_make_facts(struct store *s, const struct idmap *map, const struct quarantine_index *q,
		      const struct pair_info *p, struct pair_facts *out)
{
	struct pair_verdict v;
	int ret = classify_pair_with(s, map, q, p, &v);

	if (!ret)
		pair_facts_of(p, &v, out);
	pair_verdict_release(&v);
	return ret;
}

/* A pair classified: what a pass does when the window's facts could not be kept. */
static int on_pair(const struct pair_info *p, void *data)
{
	struct acc *a = data;

	if (pass_make_facts(a->store, a->opts->idmap, a->quarantine, p, &a->facts) < 0)
		return -1;
	add_facts(a, &a->facts);
	return 0;
}

/* A fact row of store s into out; a corrupt one is an error that names the store and head. */
static int read_fact(const struct store *s, const struct pair_fact_row *row,
		     struct pair_facts *out)
{
	if (pair_facts_decode(row, out) == 0)
		return 0;
	return error("store '%s': the pair facts of head %" PRId64 " are corrupt", s->path,
		     row->head_id);
}

/* A pair's kept facts: what on_pair would make of it, without reading its runs. */
static int on_fact(const struct pair_fact_row *row, void *data)
{
	struct acc *a = data;

	if (read_fact(a->store, row, &a->facts) < 0)
		return -1;
	add_facts(a, &a->facts);
	return 0;
}

/* A store file can have a second connection for a thread; an in-memory one cannot. */
static bool opens_beside(const struct store *s)
{
	return strcmp(s->path, ":memory:") && *s->path;
}

/*
 * A thread's connection to the store at path, which takes the cancel flag
 * of the connection it works beside (NULL: none). -1 after error().
 */
static int open_beside(const char *path, const atomic_bool *cancel, struct store **out)
{
	if (store_open(out, path, STORE_EXISTING) < 0)
		return -1;
	if (cancel)
		store_set_cancel(*out, cancel);
	return 0;
}

/*
 * The pass from both ends at once (metrics_opts.split): this thread from
 * the window's first head forward, a second one with its own connection
 * from the last backward, each taking slices of window time from a shared
 * boundary until they meet. Neither waits for the other: what one does not
 * get to, the other does. Both fill one rows array from its two ends
 * (struct row_share): rows come in window order either way.
 */
struct meet {
	pthread_mutex_t lock;
	int64_t lo, hi; /* forward takes at < lo, backward at >= hi; lo <= hi */
	int64_t step;   /* the window time one claim takes */
};

/* A side's pair_fn stops with it once the sides met (1 is query_pairs' "not fresh"). */
#define SIDES_MET 2

struct side {
	struct acc *a;
	struct meet *meet;
	int64_t bound; /* this side's lo (forward) or hi (backward), as last claimed */
	bool backward;
};

static bool side_has(const struct side *sd, int64_t at)
{
	return sd->backward ? at >= sd->bound : at < sd->bound;
}

/* Does this side take a pair at window time at? It claims more time when it must. */
static bool side_takes(struct side *sd, int64_t at)
{
	struct meet *mt = sd->meet;

	if (side_has(sd, at))
		return true;
	pthread_mutex_lock(&mt->lock);
	if (sd->backward) {
		int64_t hi = mt->hi - mt->step;

		hi = hi > at ? at : hi;
		mt->hi = sd->bound = hi < mt->lo ? mt->lo : hi;
	} else {
		int64_t lo = mt->lo + mt->step;

		lo = lo <= at ? at + 1 : lo;
		mt->lo = sd->bound = lo > mt->hi ? mt->hi : lo;
	}
	pthread_mutex_unlock(&mt->lock);
	return side_has(sd, at);
}

static int on_side_pair(const struct pair_info *p, void *data)
{
	struct side *sd = data;

	return side_takes(sd, p->at) ? on_pair(p, sd->a) : SIDES_MET;
}

static int on_side_fact(const struct pair_fact_row *f, void *data)
{
	struct side *sd = data;

	return side_takes(sd, f->at) ? on_fact(f, sd->a) : SIDES_MET;
}

/*
 * What a pass reads: the pairs' kept facts, or their runs, classified. A
 * facts pass returns FACTS_MISSING, whatever it did, when a head of the
 * window has none of its key: the caller starts again (pass_pairs).
 */
enum pass_source { FROM_FACTS, FROM_RUNS };
#define FACTS_MISSING 3

/* One side's read: SIDES_MET when it met the other side. */
static int side_read(struct side *sd, const struct window *w, enum pass_source src)
{
	struct acc *a = sd->a;
	int ret;

	if (src == FROM_FACTS) {
		ret = pair_facts_each(a->store, w, a->facts_key, sd->backward, on_side_fact, sd);
		return ret == 1 ? FACTS_MISSING : ret;
	}
	if (!sd->backward)
		return query_pairs(a->store, w, on_side_pair, sd);
	ret = query_pairs_backward(a->store, w, on_side_pair, sd);
	/* 1: no fresh pair cache to read backwards; the forward side takes it all. */
	return ret == 1 ? 0 : ret;
}

struct half_job {
	const char *path;
	const atomic_bool *cancel;
	const struct window *w;
	enum pass_source src;
	struct side side;
	struct acc a;
	struct metrics m;
	pthread_t thread;
	int ret;
};

static void *half_worker(void *data)
{
	struct half_job *j = data;

	j->ret = -1;
	if (open_beside(j->path, j->cancel, &j->a.store) == 0) {
		j->ret = side_read(&j->side, j->w, j->src);
		if (j->ret == SIDES_MET)
			j->ret = 0;
		store_close(j->a.store);
	}
	return NULL;
}

static void merge_identity(struct identity_figures *f, struct identity_figures *h)
{
	f->failing_tests += h->failing_tests;
	f->resolved += h->resolved;
	f->by_name += h->by_name;
	for (size_t i = 0; i < h->unresolved.nr; i++)
		strlist_push(&f->unresolved, h->unresolved.items[i]);
	f->selection_entries += h->selection_entries;
	f->entries_unresolved += h->entries_unresolved;
	f->entries_unmatched += h->entries_unmatched;
	f->has_unmatched |= h->has_unmatched;
}

/*
 * The rows of both sides as a's, in window order: the forward side's in
 * the share, its spilled ones, the backward side's spilled ones last
 * first, its rows in the share (already in window order, from the top).
 * Takes the share's array.
 */
static void merge_rows(struct acc *a, struct acc *h, struct row_share *sh)
{
	struct metrics *m = a->m, *hm = h->m;
	size_t total = m->nr_rows + hm->nr_rows, f_in = m->nr_rows - a->nr_spill;
	size_t b_in = hm->nr_rows - h->nr_spill;
	struct metrics_row *rows = sh->rows;

	if (total > sh->cap)
		rows = xrealloc(rows, total * sizeof(*rows));
	memmove(rows + total - b_in, rows + sh->cap - b_in, b_in * sizeof(*rows));
	if (a->nr_spill)
		memcpy(rows + f_in, a->spill, a->nr_spill * sizeof(*rows));
	for (size_t i = 0; i < h->nr_spill; i++)
		rows[m->nr_rows + i] = h->spill[h->nr_spill - 1 - i];
	/* The backward side's strings into a's pool: equal ones stay one pointer. */
	for (size_t i = m->nr_rows; i < total; i++) {
		rows[i].repo = pool_str(m, rows[i].repo);
		rows[i].why = rows[i].why ? pool_str(m, rows[i].why) : NULL;
	}
	m->rows = rows;
	m->nr_rows = m->alloc_rows = total;
	sh->rows = NULL;
}

/*
 * Append the backward side h to a's (merge_rows), reading its escapes and
 * force-full entries last first: window order. h keeps what it owned but
 * its escapes.
 */
static void merge_half(struct acc *a, struct acc *h, struct row_share *sh)
{
	struct metrics *m = a->m, *hm = h->m;
	size_t last = m->nr_rows + hm->nr_rows - 1;
	size_t *remap = xcalloc(hm->nr_reasons + 1, sizeof(*remap));

	merge_rows(a, h, sh);
	m->shadow_runs += hm->shadow_runs;
	m->full_runs += hm->full_runs;
	m->quarantined_pairs += hm->quarantined_pairs;
	m->quarantined_tests += hm->quarantined_tests;
	m->flaky_tests += hm->flaky_tests;
	merge_identity(&m->identity, &hm->identity);
	for (size_t i = 0; i < hm->nr_reasons; i++) {
		remap[i] = reason_slot(a, hm->reasons[i].reason);
		m->reasons[remap[i]].runs += hm->reasons[i].runs;
	}
	for (size_t i = h->nr_ff; i-- > 0;)
		add_ff(a, remap[h->ff[i].reason], h->ff[i].wall_s, h->ff[i].paired);
	ALLOC_GROW(m->escape_list, m->nr_escape_list + hm->nr_escape_list, a->alloc_escapes);
	for (size_t i = hm->nr_escape_list; i-- > 0;) {
		m->escape_list[m->nr_escape_list] = hm->escape_list[i];
		m->escape_list[m->nr_escape_list++].row = last - hm->escape_list[i].row;
	}
	hm->nr_escape_list = 0;
	ALLOC_GROW(m->pair_notes, m->nr_pair_notes + hm->nr_pair_notes, a->alloc_notes);
	for (size_t i = hm->nr_pair_notes; i-- > 0;) {
		m->pair_notes[m->nr_pair_notes] = hm->pair_notes[i];
		m->pair_notes[m->nr_pair_notes++].row = last - hm->pair_notes[i].row;
	}
	hm->nr_pair_notes = 0;
	ALLOC_GROW(m->escape_prs, m->nr_escape_prs + hm->nr_escape_prs, a->alloc_prs);
	for (size_t i = 0; i < hm->nr_escape_prs; i++)
		m->escape_prs[m->nr_escape_prs++] = hm->escape_prs[i];
	free(remap);
}

static void half_release(struct half_job *j)
{
	metrics_release(&j->m);
	strmap_clear(&j->a.reason_index);
	free(j->a.ff);
	free(j->a.spill);
	pair_facts_release(&j->a.facts);
}

/* A slice of window time a side claims: 1/256 of the window's heads' span. */
static int meet_init(struct acc *a, const struct window *w, struct meet *mt)
{
	int64_t first, last;

	if (query_window_span(a->store, w, &first, &last) < 0)
		return -1;
	if (first > last)
		first = last = 0;
	mt->lo = first;
	mt->hi = last + 1;
	mt->step = (last - first) / 256 + 1;
	return pthread_mutex_init(&mt->lock, NULL) ? 1 : 0;
}

/* The shared rows of window w: a slot for each of its heads. */
static int share_init(struct acc *a, const struct window *w, struct row_share *sh)
{
	int64_t heads;

	if (query_window_count(a->store, w, &heads) < 0)
		return -1;
	sh->cap = heads > 0 ? (size_t)heads : 0;
	sh->rows = xmalloc((sh->cap ? sh->cap : 1) * sizeof(*sh->rows));
	atomic_init(&sh->free, (long)sh->cap);
	return 0;
}

/* Did a facts pass get a row for every head it counted? */
static bool share_filled(const struct acc *a, const struct acc *h, struct row_share *sh)
{
	return !a->nr_spill && !h->nr_spill && atomic_load(&sh->free) == 0;
}

/* Both sides at once; 1 when the split cannot be made (the caller passes alone). */
static int pass_split(struct acc *a, const struct window *w, struct row_share *sh,
		      enum pass_source src)
{
	struct half_job j = { .path = a->store->path, .cancel = a->store->cancel, .w = w,
			      .src = src };
	struct meet mt;
	struct side forward = { a, &mt, 0, false };
	int ret = share_init(a, w, sh);

	if (!ret)
		ret = meet_init(a, w, &mt);
	if (ret)
		return ret;
	forward.bound = mt.lo;
	j.a = (struct acc){ .opts = a->opts, .m = &j.m, .quarantine = a->quarantine,
			    .notes = a->notes, .facts_key = a->facts_key, .share = sh,
			    .backward = true };
	j.side = (struct side){ &j.a, &mt, mt.hi, true };
	if (pthread_create(&j.thread, NULL, half_worker, &j)) {
		pthread_mutex_destroy(&mt.lock);
		return 1;
	}
	a->share = sh;
	ret = side_read(&forward, w, src);
	if (ret == SIDES_MET)
		ret = 0;
	pthread_join(j.thread, NULL);
	if (!ret && !j.ret && src == FROM_FACTS && !share_filled(a, &j.a, sh))
		ret = FACTS_MISSING;
	if (!ret && !j.ret)
		merge_half(a, &j.a, sh);
	a->share = NULL;
	half_release(&j);
	pthread_mutex_destroy(&mt.lock);
	/* An error on either side is the pass's, whatever the other found. */
	if (ret < 0 || j.ret < 0)
		return -1;
	return ret ? ret : j.ret;
}

/*
 * fn for the facts of w's heads, on this thread: FACTS_MISSING when *seen
 * (the rows fn counts) falls short of w's heads, or a row is of another key.
 */
static int window_facts(struct acc *a, const struct window *w, facts_fn fn, void *data,
			const size_t *seen)
{
	int64_t heads;
	int ret;

	if (query_window_count(a->store, w, &heads) < 0)
		return -1;
	ret = pair_facts_each(a->store, w, a->facts_key, false, fn, data);
	if (ret == 1 || (!ret && (int64_t)*seen != heads))
		return FACTS_MISSING;
	return ret;
}

/* The pass on this thread alone. */
static int pass_alone(struct acc *a, const struct window *w, enum pass_source src)
{
	int64_t heads;

	if (a->m->lean_) {
		if (query_window_count(a->store, w, &heads) < 0)
			return -1;
		lean_reserve(a->m, heads > 0 ? (size_t)heads : 0);
	}
	if (src == FROM_RUNS)
		return query_pairs(a->store, w, on_pair, a);
	return window_facts(a, w, on_fact, a, &a->seen);
}

static int pass_from(struct acc *a, const struct window *w, enum pass_source src)
{
	struct row_share sh = { NULL, 0, 0 };
	int ret = 1;

	if (a->opts->split && opens_beside(a->store))
		ret = pass_split(a, w, &sh, src);
	free(sh.rows);
	free(a->spill);
	a->spill = NULL;
	a->nr_spill = a->alloc_spill = 0;
	return ret == 1 ? pass_alone(a, w, src) : ret;
}

/* What a facts pass that came short left in a and its metrics, gone; the window's bounds stay. */
static void pass_reset(struct acc *a)
{
	struct metrics *m = a->m;
	struct metrics head = {
		.since = m->since, .until = m->until, .repo = m->repo,
		.threshold = m->threshold, .confidence = m->confidence,
		.escape_target = m->escape_target,
	};

	m->repo = NULL;
	metrics_release(m);
	*m = head;
	if (a->opts->lean && !a->opts->split)
		m->lean_ = lean_new(a->opts->by);
	m->rows_sparse = m->lean_ != NULL;
	strmap_clear(&a->reason_index);
	free(a->ff);
	a->ff = NULL;
	a->nr_ff = a->alloc_ff = 0;
	free(a->ffl);
	a->ffl = NULL;
	a->nr_ffl = a->alloc_ffl = 0;
	free(a->ff_walls.v);
	memset(&a->ff_walls, 0, sizeof(a->ff_walls));
	a->seen = 0;
	a->alloc_reasons = a->alloc_escapes = a->alloc_prs = a->alloc_notes = 0;
}

static int cmp_int64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

/* Making the facts of a window's heads that have none, in one write transaction. */
struct keep_job {
	const struct window *w;
	const struct metrics_opts *opts;
	int64_t key;
	bool every;                         /* every head looked up, not the listed ones */
	struct store *s;
	struct quarantine_index quarantine; /* read in the transaction */
	struct int_vec missing;             /* their heads, ascending */
	struct pair_facts facts;
	struct strbuf blob;
};

static int keep_pair(const struct pair_info *p, void *data)
{
	struct keep_job *k = data;
	struct pair_fact_row row = { p->head_id, p->repo ? p->repo : "", p->at, NULL, 0 };

	if (pass_make_facts(k->s, k->opts->idmap, &k->quarantine, p, &k->facts) < 0)
		return -1;
	strbuf_reset(&k->blob);
	pair_facts_encode(&k->facts, &k->blob);
	row.data = k->blob.buf;
	row.len = k->blob.len;
	return pair_facts_put(k->s, &row, k->key);
}

static bool is_missing(const struct keep_job *k, int64_t head_id)
{
	return bsearch(&head_id, k->missing.v, k->missing.nr, sizeof(*k->missing.v),
		       cmp_int64) != NULL;
}

/* A row of the window's pair cache: a head without facts is kept, the others skipped. */
static int keep_if_missing(const struct pair_info *p, void *data)
{
	return is_missing(data, p->head_id) ? keep_pair(p, data) : 0;
}

/* Few heads: each read from the tables; many: the window's pair cache, skipping the rest. */
#define KEEP_BY_ID 512

static int keep_missing(struct store *s, void *data)
{
	struct keep_job *k = data;
	int ret;

	k->s = s;
	/* Under the write lock: the rows, quarantine lists and facts stay as read here. */
	if (pair_cache_refresh(s) != 0 || query_quarantine_index(s, &k->quarantine) < 0 ||
	    pair_facts_missing(s, k->w, k->key, k->every, &k->missing) < 0)
		return -1;
	if (k->missing.nr <= KEEP_BY_ID)
		return query_pairs_by_ids(s, k->missing.v, k->missing.nr, keep_pair, k);
	ret = pair_cache_pairs(s, k->w, keep_if_missing, k);
	return ret == 1 ? -1 : ret;
}

/*
 * Make and keep the facts of w's heads that have none (of a's key; every:
 * not only those the cache lists), when the write lock is free now: 0 when
 * they are kept, 1 when they could not be (the lock is taken, a read-only
 * store), -1 after error().
 */
static int keep_facts(struct acc *a, const struct window *w, bool every)
{
	struct keep_job k = { .w = w, .opts = a->opts, .key = a->facts_key, .every = every,
			      .quarantine = QUARANTINE_INDEX_INIT, .missing = INT_VEC_INIT,
			      .facts = PAIR_FACTS_INIT, .blob = STRBUF_INIT };
	int ret = store_write_now(a->store, keep_missing, &k, "cannot keep the pairs' facts");

	quarantine_index_release(&k.quarantine);
	int_vec_release(&k.missing);
	pair_facts_release(&k.facts);
	strbuf_release(&k.blob);
	return ret;
}

/* The facts of the heads of w the cache lists as without, made first (new heads, after an ingest). */
static int keep_listed(struct acc *a, const struct window *w)
{
	struct int_vec listed = INT_VEC_INIT;
	int ret = pair_facts_missing(a->store, w, a->facts_key, false, &listed);

	if (!ret && listed.nr)
		ret = keep_facts(a, w, false);
	int_vec_release(&listed);
	return ret < 0 ? -1 : 0;
}

/*
 * read(a, w, data) of the window's kept facts (those of the heads the cache
 * lists as without made before: keep_listed). When it returns FACTS_MISSING
 * (facts of another id-map, or they could not be kept then), the facts of
 * every such head are made and kept (keep_facts) and it reads again. 1 when
 * the facts cannot serve: the caller reads the runs.
 */
typedef int (*facts_read_fn)(struct acc *a, const struct window *w, void *data);
static int read_facts(struct acc *a, const struct window *w, facts_read_fn read, void *data)
{
	int ret = read(a, w, data);

	if (ret != FACTS_MISSING)
		return ret;
	ret = keep_facts(a, w, true);
	if (ret)
		return ret < 0 ? -1 : 1;
	ret = read(a, w, data);
	return ret == FACTS_MISSING ? 1 : ret;
}

/* A pass from the facts; one that came short leaves nothing in a. */
static int pass_facts(struct acc *a, const struct window *w, void *data)
{
	int ret = pass_from(a, w, FROM_FACTS);

	UNUSED(data);
	if (ret == FACTS_MISSING)
		pass_reset(a);
	return ret;
}

/* The window's pairs into a: from their facts (read_facts), else from the runs, classified. */
static int pass_pairs(struct acc *a, const struct window *w)
{
	int ret = read_facts(a, w, pass_facts, NULL);

	return ret == 1 ? pass_from(a, w, FROM_RUNS) : ret;
}

/* The figures a distribution is made of, one per row (NAN: not known). */
enum row_figure { FIG_AFFECTED, FIG_SHADOW_WALL, FIG_FULL_WALL, FIG_DIFF_COVERAGE };

static double row_figure(const struct metrics_row *r, enum row_figure f)
{
	switch (f) {
	case FIG_AFFECTED:
		return r->affected;
	case FIG_SHADOW_WALL:
		return r->shadow_wall_s;
	case FIG_FULL_WALL:
		return r->full_wall_s;
	default:
		return r->diff_coverage;
	}
}

/* What of a distribution is wanted, and how it is found. */
enum dist_want {
	DIST_P50_P95_MEAN, /* into out: sorted */
	DIST_P50_P95,      /* into out, mean NAN: selected (the wall-clock times have no mean) */
	DIST_P50,          /* into *p50: selected */
};

/*
 * One distribution over the rows: which figure, of which runs (narrowed:
 * of the narrowed shadow runs only), and what of it into where.
 */
struct dist_spec {
	enum row_figure f;
	bool narrowed;
	enum dist_want want;
	struct metrics_dist *out;
	double *p50;
};

#define MAX_DISTS 3
/*
 * The distributions of specs: their known values gathered in one read of
 * the rows (10^5 rows are 15 MB: a read for each was a third of the work),
 * then each found as its spec wants (dist_want).
 */
static void rows_dists(const struct metrics *m, const struct dist_spec *specs, size_t n)
{
	double *v[MAX_DISTS];
	size_t nr[MAX_DISTS] = { 0 };

	if (n > MAX_DISTS)
		BUG("%zu distributions at once", n);
	for (size_t k = 0; k < n; k++)
		v[k] = xmalloc((m->nr_rows ? m->nr_rows : 1) * sizeof(*v[k]));
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];

		for (size_t k = 0; k < n; k++) {
			double x = row_figure(r, specs[k].f);

			if (!isnan(x) && (!specs[k].narrowed || r->decision == DECISION_SELECTED))
				v[k][nr[k]++] = x;
		}
	}
	for (size_t k = 0; k < n; k++) {
		switch (specs[k].want) {
		case DIST_P50_P95_MEAN: metrics_dist_of(v[k], nr[k], specs[k].out); break;
		case DIST_P50_P95: metrics_percentiles_of(v[k], nr[k], specs[k].out); break;
		case DIST_P50: *specs[k].p50 = metrics_quantile(v[k], nr[k], 0.5); break;
		}
		free(v[k]);
	}
}

/* Counts over the rows, and the distributions of the affected fractions and the diff coverage. */
static void finish_figures(struct acc *a)
{
	struct metrics *m = a->m;
	const struct dist_spec specs[] = {
		{ FIG_AFFECTED, false, DIST_P50_P95_MEAN, .out = &m->affected },
		{ FIG_AFFECTED, true, DIST_P50_P95_MEAN, .out = &m->narrowed },
		{ FIG_DIFF_COVERAGE, false, DIST_P50_P95_MEAN, .out = &m->diff_coverage },
	};

	for (size_t i = 0; !m->lean_ && i < m->nr_rows; i++)
		pass_count_row(m, &m->rows[i]);
	m->main_runs = m->class_counts[CLASS_MAIN];
	m->heads = (int64_t)(m->lean_ ? lean_seen(m) : m->nr_rows) - m->main_runs;
	m->non_hermetic = m->class_counts[CLASS_NON_HERMETIC];
	if (m->lean_)
		lean_figures(m);
	else
		rows_dists(m, specs, ARRAY_SIZE(specs));
	m->force_full_rate = m->shadow_heads ? (double)m->force_full / (double)m->shadow_heads : NAN;
	m->escape_rate = m->pairs ? (double)m->escapes / (double)m->pairs : NAN;
	identity_figures_finish(&m->identity);
	m->identity_share = m->identity.failing_tests ?
		(double)m->identity.resolved / (double)m->identity.failing_tests : NAN;
}


/*
 * The rest of the figures of the rows: the wall-clock distributions (and
 * the narrowed runs' median, finish_reasons' baseline) and the days.
 * After a split pass, on a thread of its own beside finish_figures and the
 * verifier check (which writes only the rows' verifier_changed): the other
 * core is idle then. No store: it reads the rows alone.
 */
struct tail_job {
	struct metrics *m;
	pthread_t thread;
	bool threaded;
};

static void tail_work(struct metrics *m)
{
	const struct dist_spec specs[] = {
		{ FIG_SHADOW_WALL, false, DIST_P50_P95, .out = &m->wall_shadow },
		{ FIG_FULL_WALL, false, DIST_P50_P95, .out = &m->wall_full },
		{ FIG_SHADOW_WALL, true, DIST_P50, .p50 = &m->narrowed_wall_p50 },
	};

	if (m->lean_) {
		lean_tail(m);
		return;
	}
	rows_dists(m, specs, ARRAY_SIZE(specs));
	days_of_rows(m);
}

static void *tail_worker(void *data)
{
	tail_work(((struct tail_job *)data)->m);
	return NULL;
}

static void tail_start(struct tail_job *j, struct acc *a)
{
	j->m = a->m;
	j->threaded = a->opts->split && !pthread_create(&j->thread, NULL, tail_worker, j);
}

static void tail_finish(struct tail_job *j)
{
	struct metrics *m = j->m;

	if (j->threaded)
		pthread_join(j->thread, NULL);
	else
		tail_work(m);
	m->saving_p50 = metrics_saving(m->wall_shadow.p50, m->wall_full.p50);
	m->saving_p95 = metrics_saving(m->wall_shadow.p95, m->wall_full.p95);
}

const char *trend_direction_name(enum trend_direction d)
{
	static const char *const names[] = { NULL, "flat", "rising", "falling" };

	return names[d];
}

/* The window's length in days: both bounds, else its UTC days. */
static double window_days(const struct metrics *m)
{
	if (m->since != INT64_MIN && m->until != INT64_MAX)
		return (double)(m->until - m->since) / MS_PER_DAY;
	return m->nr_days ? (double)m->nr_days : NAN;
}

/*
 * The days the window's pace of pairs is measured over, one computation for
 * every view (the overview, gate-check, summary, the pages): its length,
 * an unbounded until counting as now (as the trend's) and an unbounded
 * since as the first head's time, so `--since X` and `--since X --until
 * now` (gate-check's default end) estimate the same days for the same
 * pairs. Without a now: window_days.
 */
static double pace_days(const struct metrics *m, int64_t first_at, int64_t now)
{
	int64_t since = m->since, until = m->until != INT64_MAX ? m->until : now;

	if (since == INT64_MIN)
		since = first_at;
	if (!now || since == INT64_MIN || until <= since)
		return m->window_days;
	return (double)(until - since) / MS_PER_DAY;
}

void metrics_days_needed(struct metrics *m, int64_t first_at, int64_t now)
{
	double per_day = (double)m->pairs / pace_days(m, first_at, now);

	m->days_needed = NAN;
	if (m->pairs_needed >= 0 && per_day > 0 && isfinite(per_day))
		m->days_needed = ceil((double)m->pairs_needed / per_day);
}

/* The window's first head's time (INT64_MIN: none); a lean pass keeps no row for every head. */
static int64_t first_head_at(const struct metrics *m)
{
	if (m->lean_)
		return lean_first_at(m);
	return m->nr_rows ? m->rows[0].at : INT64_MIN;
}

/* Bounds of the rates, and how many more clean pairs the escape bound needs. */
static void finish_bounds(struct metrics *m, int64_t now)
{
	stats_rate_of(m->escapes, m->pairs, m->confidence, &m->escape_bounds);
	stats_rate_of(m->class_counts[CLASS_OVER_STRICT], m->pairs, m->confidence,
		      &m->over_strict_bounds);
	stats_rate_of(m->force_full, m->shadow_heads, m->confidence, &m->force_full_bounds);
	m->pairs_needed = stats_cp_more_needed(m->escapes, m->pairs, m->confidence,
					       m->escape_target);
	m->window_days = window_days(m);
	m->first_head_at = first_head_at(m);
	metrics_days_needed(m, m->first_head_at, now);
}

/* Pairs and escapes of the window before, for the trend. */
struct trend_count {
	struct store *store;
	const struct idmap *map;
	const struct quarantine_index *quarantine;
	struct pair_facts facts;
	int64_t pairs, escapes;
	size_t heads; /* fact rows read */
};

static int count_pair(const struct pair_info *p, void *data)
{
	struct trend_count *tc = data;
	struct pair_verdict v;
	int ret = classify_pair_with(tc->store, tc->map, tc->quarantine, p, &v);

	if (!ret && v.shadow && v.full) {
		tc->pairs++;
		tc->escapes += pair_class_is_escape(v.cls);
	}
	pair_verdict_release(&v);
	return ret;
}

static int count_fact(const struct pair_fact_row *row, void *data)
{
	struct trend_count *tc = data;

	if (read_fact(tc->store, row, &tc->facts) < 0)
		return -1;
	tc->heads++;
	if (tc->facts.shadow_attempts && tc->facts.full_attempts) {
		tc->pairs++;
		tc->escapes += pair_class_is_escape(tc->facts.cls);
	}
	return 0;
}

/* The counts from the kept facts of w's heads (FACTS_MISSING when one has none). */
static int count_facts(struct acc *a, const struct window *w, void *data)
{
	struct trend_count *tc = data;

	tc->pairs = tc->escapes = 0;
	tc->heads = 0;
	return window_facts(a, w, count_fact, tc, &tc->heads);
}

/* The counts from the kept facts (read_facts, as pass_pairs), else from the runs. */
static int count_window(struct acc *a, const struct window *w, struct trend_count *tc)
{
	int ret = keep_listed(a, w);

	if (!ret)
		ret = read_facts(a, w, count_facts, tc);
	pair_facts_release(&tc->facts);
	if (ret <= 0)
		return ret;
	tc->pairs = tc->escapes = 0;
	return query_pairs(a->store, w, count_pair, tc) < 0 ? -1 : 0;
}

/*
 * The trend: this window's escape rate against the one of the same length
 * just before it, by the exact conditional test (metrics/stats.h).
 */
static int finish_trend(struct acc *a)
{
	struct metrics *m = a->m;
	struct metrics_trend *t = &m->trend;
	struct trend_count tc = { a->store, a->opts->idmap, a->quarantine, PAIR_FACTS_INIT, 0, 0, 0 };
	struct window before = { 0, 0, m->repo };
	int64_t until = m->until != INT64_MAX ? m->until : a->opts->now;

	t->previous_rate = t->rate = t->p_value = NAN;
	t->direction = TREND_NONE;
	/* Window times are milliseconds of this era: far from overflowing. */
	if (m->since <= INT64_MIN / 2 || !until || until <= m->since ||
	    until - m->since > INT64_MAX / 4)
		return 0;
	t->known = true;
	t->until = before.until = m->since;
	t->since = before.since = m->since - (until - m->since);
	if (count_window(a, &before, &tc) < 0)
		return -1;
	t->pairs = tc.pairs;
	t->escapes = tc.escapes;
	t->previous_rate = tc.pairs ? (double)tc.escapes / (double)tc.pairs : NAN;
	t->rate = m->escape_rate;
	t->p_value = stats_two_rates_p(m->escapes, m->pairs, tc.escapes, tc.pairs);
	if (isnan(t->p_value))
		t->direction = TREND_NONE;
	else if (t->p_value >= 0.05 || t->rate == t->previous_rate)
		t->direction = TREND_FLAT;
	else
		t->direction = t->rate > t->previous_rate ? TREND_RISING : TREND_FALLING;
	return 0;
}

/*
 * The blind spots: the window's runs, the union of its narrowed selections
 * and the tests of its full runs. A third of a report's work, and
 * independent of the pass over the pairs: on a thread of its own, with its
 * own connection, while the pass runs.
 */
struct blind_job {
	const char *path;
	const struct idmap *map;
	const struct window *w;
	const atomic_bool *cancel; /* the pass's connection's (store_set_cancel) */
	struct idset selected;
	struct metrics_blind blind;
	pthread_t thread;
	bool threaded;
	int ret;
};

static int blind_on(struct store *s, struct blind_job *j)
{
	struct blind_input in = BLIND_INPUT_INIT;
	int ret = blind_selected_union(s, j->map, j->w, &j->selected, &in);

	j->blind.narrowed_runs = in.narrowed;
	if (!ret)
		ret = blind_compute(s, j->w, &in, &j->selected, &j->blind);
	blind_input_release(&in);
	return ret;
}

static void *blind_worker(void *data)
{
	struct blind_job *j = data;
	struct store *s;

	j->ret = -1;
	/* Its scans read each page once: a small page cache beside the pass's. */
	if (open_beside(j->path, j->cancel, &s) == 0) {
		j->ret = store_exec(s, "PRAGMA cache_size = -512");
		if (!j->ret)
			j->ret = blind_on(s, j);
		store_close(s);
	}
	return NULL;
}

/* Start the blind spots of window w (kept alive by the caller till blind_finish). */
static void blind_start(struct blind_job *j, struct store *s, const struct idmap *map,
			const struct window *w)
{
	memset(j, 0, sizeof(*j));
	j->path = s->path;
	j->map = map;
	j->w = w;
	j->cancel = s->cancel;
	j->selected = (struct idset)IDSET_INIT;
	/* An in-memory store has no second connection: computed in blind_finish. */
	if (opens_beside(s))
		j->threaded = !pthread_create(&j->thread, NULL, blind_worker, j);
}

/*
 * The blind spots, and which missed tests of each escape are blind spots
 * once the pass is done (pass_ok: the escapes have their rows).
 */
static int blind_finish(struct acc *a, struct blind_job *j, bool pass_ok)
{
	struct metrics *m = a->m;
	int ret;

	if (j->threaded)
		pthread_join(j->thread, NULL);
	else
		j->ret = blind_on(a->store, j);
	ret = j->ret;
	m->blind = j->blind;
	m->blind.full_runs = m->full_runs;
	for (size_t i = 0; !ret && pass_ok && i < m->nr_escape_list; i++) {
		struct metrics_escape *e = &m->escape_list[i];

		e->missed_blind = xcalloc(e->missed.nr ? e->missed.nr : 1,
					  sizeof(*e->missed_blind));
		for (size_t k = 0; k < e->missed.nr; k++) {
			e->missed_blind[k] = !blind_id_selected(&j->selected, e->missed.items[k]);
			m->rows[e->row].missed_blind += e->missed_blind[k];
		}
	}
	idset_release(&j->selected);
	return ret;
}

static int cmp_why(const void *pa, const void *pb)
{
	const struct metrics_why *a = pa, *b = pb;

	if (a->heads != b->heads)
		return a->heads > b->heads ? -1 : 1;
	return strcmp(a->why, b->why);
}

/* Incomplete heads by reason (why strings are pooled: compare pointers). */
static void finish_incomplete(struct metrics *m)
{
	size_t alloc = 0;

	for (size_t i = 0; !m->lean_ && i < m->nr_rows; i++) {
		const char *why = m->rows[i].why;
		size_t j;

		if (m->rows[i].cls != CLASS_INCOMPLETE || !why)
			continue;
		for (j = 0; j < m->nr_incomplete && m->incomplete[j].why != why; j++)
			;
		if (j == m->nr_incomplete) {
			ALLOC_GROW(m->incomplete, m->nr_incomplete + 1, alloc);
			m->incomplete[m->nr_incomplete].why = why;
			m->incomplete[m->nr_incomplete++].heads = 0;
		}
		m->incomplete[j].heads++;
	}
	if (m->nr_incomplete > 1)
		qsort(m->incomplete, m->nr_incomplete, sizeof(*m->incomplete), cmp_why);
}

static int cmp_reason(const void *pa, const void *pb)
{
	const struct metrics_reason *a = pa, *b = pb;

	if (!isnan(a->minutes) && !isnan(b->minutes) && a->minutes != b->minutes)
		return a->minutes > b->minutes ? -1 : 1;
	if (a->runs != b->runs)
		return a->runs > b->runs ? -1 : 1;
	return strcmp(a->reason, b->reason);
}

static void finish_reasons(struct acc *a)
{
	struct metrics *m = a->m;
	double base = m->narrowed_wall_p50, wall = NAN;

	for (size_t i = 0; i < m->nr_reasons; i++)
		m->reasons[i].minutes = m->reasons[i].given_back = isnan(base) ? NAN : 0;
	/* A lean pass's entries (a->ffl), their runs' wall-clock read as they come. */
	for (size_t i = 0, gi = 0, wi = 0; i < a->nr_ffl && !isnan(base); i++) {
		uint32_t e = a->ffl[i];
		double extra;

		if (e & FF_RUN) {
			if (e & FF_PAIRED) {
				while (!(m->gates.gap[gi] & METRICS_GAP_FORCE_FULL))
					gi++;
				wall = m->gates.shadow_s[gi++];
			} else {
				wall = a->ff_walls.v[wi++];
			}
		}
		extra = wall - base;
		if (isnan(extra) || extra <= 0)
			continue;
		m->reasons[e & FF_REASON].minutes += extra / 60.0;
		if (e & FF_PAIRED)
			m->reasons[e & FF_REASON].given_back += extra / 60.0;
	}
	for (size_t i = 0; i < a->nr_ff && !isnan(base); i++) {
		double extra = a->ff[i].wall_s - base;

		if (isnan(extra) || extra <= 0)
			continue;
		m->reasons[a->ff[i].reason].minutes += extra / 60.0;
		if (a->ff[i].paired)
			m->reasons[a->ff[i].reason].given_back += extra / 60.0;
	}
	if (m->nr_reasons > 1)
		qsort(m->reasons, m->nr_reasons, sizeof(*m->reasons), cmp_reason);
}

/* After the reasons (the narrowed p50) and the bounds (the window's days). */
static void finish_savings(struct metrics *m)
{
	struct metrics_savings *sv = &m->savings;
	double base = m->narrowed_wall_p50, full = 0, shadow = 0, back = 0, per_week;

	if (m->lean_) {
		const struct metrics_gates *g = &m->gates;

		/* The pairs with both wall-clocks are the gates' pairs, in the same order. */
		lean_savings(m, &sv->pairs, &full, &shadow);
		for (size_t i = 0; i < g->nr; i++)
			if ((g->gap[i] & METRICS_GAP_FORCE_FULL) && g->shadow_s[i] > base)
				back += g->shadow_s[i] - base;
	}
	for (size_t i = 0; !m->lean_ && i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];

		if (isnan(r->shadow_wall_s) || isnan(r->full_wall_s))
			continue;
		sv->pairs++;
		full += r->full_wall_s;
		shadow += r->shadow_wall_s;
		if (r->decision == DECISION_RUN_ALL && r->shadow_wall_s > base)
			back += r->shadow_wall_s - base;
	}
	sv->full_minutes = sv->pairs ? full / 60 : NAN;
	sv->shadow_minutes = sv->pairs ? shadow / 60 : NAN;
	sv->saved_minutes = sv->full_minutes - sv->shadow_minutes;
	sv->saved_minutes_per_day = sv->saved_minutes / m->window_days;
	sv->saved_minutes_per_week = sv->saved_minutes_per_day * 7;
	sv->given_back_minutes = sv->pairs && !isnan(base) ? back / 60 : NAN;
	sv->given_back_share = sv->given_back_minutes > 0
		? sv->given_back_minutes / (sv->saved_minutes + sv->given_back_minutes)
		: sv->given_back_minutes == 0 ? 0 : NAN;
	per_week = (double)m->pairs / m->window_days * 7;
	sv->escapes_per_week = per_week * m->escape_bounds.rate;
	sv->escapes_per_week_upper = per_week * m->escape_bounds.upper;
	sv->escapes_per_week_ci[0] = per_week * m->escape_bounds.ci[0];
	sv->escapes_per_week_ci[1] = per_week * m->escape_bounds.ci[1];
}

static void finish_prs(struct metrics *m)
{
	size_t out = 0;

	if (m->nr_escape_prs > 1)
		qsort(m->escape_prs, m->nr_escape_prs, sizeof(int64_t), cmp_int64);
	for (size_t i = 0; i < m->nr_escape_prs; i++)
		if (!out || m->escape_prs[out - 1] != m->escape_prs[i])
			m->escape_prs[out++] = m->escape_prs[i];
	m->nr_escape_prs = out;
}

/* Window order: time, then head id (the pair cache's). */
struct row_place {
	int64_t at, head_id;
	size_t old;
};

static int cmp_place(const void *x, const void *y)
{
	const struct row_place *a = x, *b = y;

	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (a->head_id > b->head_id) - (a->head_id < b->head_id);
}

/* Rows in window order, and the indices that point to them moved with them. */
void pass_sort_rows(struct metrics_row *rows, size_t nr, struct metrics *m)
{
	struct row_place *p;
	size_t *to;
	struct metrics_row *sorted;

	/* A lean pass may keep no row at all (rows NULL): nothing points to one. */
	if (!nr)
		return;
	p = xmalloc(nr * sizeof(*p));
	to = xmalloc(nr * sizeof(*to));
	sorted = xmalloc(nr * sizeof(*sorted));

	for (size_t i = 0; i < nr; i++)
		p[i] = (struct row_place){ rows[i].at, rows[i].head_id, i };
	if (nr > 1)
		qsort(p, nr, sizeof(*p), cmp_place);
	for (size_t i = 0; i < nr; i++) {
		sorted[i] = rows[p[i].old];
		to[p[i].old] = i;
	}
	memcpy(rows, sorted, nr * sizeof(*rows));
	for (size_t i = 0; m && i < m->nr_escape_list; i++)
		m->escape_list[i].row = to[m->escape_list[i].row];
	for (size_t i = 0; m && i < m->nr_pair_notes; i++)
		m->pair_notes[i].row = to[m->pair_notes[i].row];
	for (size_t i = 0; m && i < m->nr_verifier; i++)
		m->verifier[i].row = to[m->verifier[i].row];
	free(sorted);
	free(to);
	free(p);
}

int metrics_compute(struct store *s, const struct window *w,
		    const struct metrics_opts *opts, struct metrics *out)
{
	static const struct metrics_opts default_opts = METRICS_OPTS_INIT;
	struct acc a = { .store = s, .m = out };
	struct quarantine_index quarantine = QUARANTINE_INDEX_INIT;
	struct note_index notes = NOTE_INDEX_INIT;
	struct window win = *w;
	struct blind_job blind;
	struct strbuf stamp = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	a.opts = opts ? opts : &default_opts;
	if (query_class_stamp(s, &stamp) < 0)
		return -1;
	a.facts_key = pair_facts_key(a.opts->idmap, stamp.buf);
	strbuf_release(&stamp);
	out->since = w->since;
	out->until = w->until;
	out->repo = xstrdup(w->repo ? w->repo : "");
	out->threshold = a.opts->threshold;
	out->confidence = a.opts->confidence;
	out->escape_target = a.opts->escape_target;
	win.repo = out->repo;
	if (a.opts->lean && !a.opts->split)
		out->lean_ = lean_new(a.opts->by);
	out->rows_sparse = out->lean_ != NULL;
	/*
	 * Fresh before the blind spots' connection reads it too (one rebuild,
	 * not two racing), and the new heads' facts kept before it may take
	 * the write lock for its day summaries.
	 */
	(void)pair_cache_refresh(s);
	ret = keep_listed(&a, &win);
	blind_start(&blind, s, a.opts->idmap, &win);
	a.quarantine = &quarantine;
	a.notes = &notes;
	if (!ret)
		ret = query_quarantine_index(s, &quarantine);
	if (!ret)
		ret = query_note_index(s, &notes);
	if (!ret)
		ret = pass_pairs(&a, &win);
	if (!ret) {
		struct tail_job tail;

		tail_start(&tail, &a);
		finish_figures(&a);
		ret = pass_verifier(out, s, a.opts, &quarantine);
		finish_prs(out);
		finish_incomplete(out);
		tail_finish(&tail);
		finish_reasons(&a); /* after the narrowed runs' median, the tail's */
		finish_bounds(out, a.opts->now);
		finish_savings(out);
		if (!ret)
			ret = metrics_main_record(s, &win, out);
		if (!ret)
			ret = query_quarantine_identity(s, &win, &out->identity);
		if (!ret)
			ret = finish_trend(&a);
		if (!ret)
			ret = metrics_seeded_compute(s, &win, out->confidence, &out->seeded);
	}
	if (blind_finish(&a, &blind, !ret) && !ret)
		ret = -1;
	lean_release(out->lean_);
	out->lean_ = NULL;
	strmap_clear(&a.reason_index);
	quarantine_index_release(&quarantine);
	note_index_release(&notes);
	pair_facts_release(&a.facts);
	free(a.ff);
	free(a.ffl);
	free(a.ff_walls.v);
	return ret ? -1 : 0;
}

void metrics_release(struct metrics *m)
{
	for (size_t i = 0; i < m->nr_reasons; i++)
		free(m->reasons[i].reason);
	for (size_t i = 0; i < m->nr_escape_list; i++) {
		strlist_release(&m->escape_list[i].missed);
		strlist_release(&m->escape_list[i].non_hermetic);
		strlist_release(&m->escape_list[i].not_run);
		free(m->escape_list[i].missed_blind);
		free(m->escape_list[i].note);
		free(m->escape_list[i].rules);
	}
	for (size_t i = 0; i < m->nr_verifier; i++)
		metrics_verifier_release(&m->verifier[i]);
	free(m->verifier);
	metrics_main_release(m);
	blind_release(&m->blind);
	free(m->reasons);
	free(m->escape_list);
	free(m->escape_prs);
	free(m->days);
	free(m->incomplete);
	free(m->rows);
	free(m->repo);
	strlist_release(&m->pool_);
	strmap_clear(&m->pool_index_);
	identity_figures_release(&m->identity);
	metrics_seeded_release(&m->seeded);
	lean_release(m->lean_);
	gates_release(&m->gates);
	free(m->periods_);
	memset(m, 0, sizeof(*m));
}
