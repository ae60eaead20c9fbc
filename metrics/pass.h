/*
 * The pass over a window's pairs, as its files share it: metrics.c (the
 * pass and the figures of its rows), lean.c (a lean pass's sums),
 * verify_rows.c (the verifier check of its rows) and days.c (the days and
 * periods). Private to them: other files take metrics/metrics.h.
 */
#ifndef METRICS_PASS_H
#define METRICS_PASS_H

#include "core/tiadash.h"
#include "metrics/facts.h"
#include "metrics/metrics.h"
#include "metrics/quantile.h"

/* A growable array of doubles (scratch space for distributions). */
struct dvec {
	double *v;
	size_t nr, alloc;
};

static inline void dvec_push(struct dvec *d, double x)
{
	ALLOC_GROW(d->v, d->nr + 1, d->alloc);
	d->v[d->nr++] = x;
}

/* --- metrics.c: rows --- */

/* Row r of pair facts f, its strings interned in m (they live until metrics_release). */
void pass_fill_row(struct metrics *m, const struct pair_facts *f, struct metrics_row *r);
/* p's facts into out: p classified (with q's quarantine lists). -1 after error(). */
int pass_make_facts(struct store *s, const struct idmap *map, const struct quarantine_index *q,
		    const struct pair_info *p, struct pair_facts *out);
/* The counts of one head (from each row, or from each head as a lean pass reads it). */
void pass_count_row(struct metrics *m, const struct metrics_row *r);
/* Rows in window order; m's indices into them (escapes, notes, verifier) follow when m is given. */
void pass_sort_rows(struct metrics_row *rows, size_t nr, struct metrics *m);

/* The verifier check's group of a row: its PR, or (a push) its head, below every PR number. */
static inline int64_t pass_vgroup_of(const struct metrics_row *r)
{
	return r->has_pr ? r->pr : -r->head_id - 1;
}

/* --- verify_rows.c --- */

/*
 * The verifier check over every PR of the window (metrics/verifier.h): its
 * finds into m->verifier, their rows flagged (a lean pass keeps a row for
 * each flagged head). -1 after error().
 */
int pass_verifier(struct metrics *m, struct store *s, const struct metrics_opts *opts,
		  const struct quarantine_index *q);

/* --- days.c: days and periods --- */

/* A day's (a period's) figures as its rows arrive: the values its quantiles are of. */
struct day_acc {
	struct dvec aff, wall;
	double dc_sum;
	size_t dc_n;
};

/* The first day of the period holding day (days since 1970-01-01). */
int64_t period_first_day(int64_t day, enum metrics_period by);
/* m's days (m->days) and shadow days from its rows, all of them kept. */
void days_of_rows(struct metrics *m);
/*
 * The periods with heads as a pass's rows arrive in window order: each
 * closed when the next begins (v[].day: its first day), the last when
 * periods_of_sums reads them.
 */
struct period_sums {
	struct metrics_day *v;
	size_t nr, alloc;
	struct day_acc acc;
};
/* Row r into the period from day first (days since 1970-01-01). */
void period_sums_add(const struct metrics *m, struct period_sums *s, int64_t first,
		     const struct metrics_row *r);
void period_sums_release(struct period_sums *s);
/*
 * The window's periods by `by` into *out (malloc'd, the caller frees): those
 * of s, the others empty. any: the window has heads, the first at
 * heads_first_at, the last at heads_last_at. Returns how many (0 and NULL
 * when more than METRICS_MAX_DAYS).
 */
size_t periods_of_sums(const struct metrics *m, enum metrics_period by, struct period_sums *s,
		       bool any, int64_t heads_first_at, int64_t heads_last_at,
		       struct metrics_day **out);

/* --- lean.c: a lean pass (metrics_opts.lean) --- */

struct metrics_lean;
/* A lean pass's sums, periods by `by` too (the period + 1; 0: none); lean_release frees. */
struct metrics_lean *lean_new(int by);
void lean_release(struct metrics_lean *l);
/* Room for a window of heads, taken at once. */
void lean_reserve(struct metrics *m, size_t heads);
/* Row r (whether kept or not) into m's lean sums. */
void lean_add(struct metrics *m, const struct metrics_row *r);
/* The heads lean_add saw, and when the first came (INT64_MIN: none). */
size_t lean_seen(const struct metrics *m);
int64_t lean_first_at(const struct metrics *m);
/* The distributions and savings sums of the pass, into m. */
void lean_figures(struct metrics *m);
void lean_savings(const struct metrics *m, int64_t *pairs, double *full, double *shadow);
/* The wall-clock distributions, the days and the periods from the sums. */
void lean_tail(struct metrics *m);
/*
 * The heads of the groups with three shadow attempts or more (a lean pass
 * kept no row of theirs) as rows of tmp (the caller frees tmp->rows), in
 * window order. -1 after error().
 */
int lean_busy_heads(struct metrics *m, struct store *s, const struct metrics_opts *opts,
		    const struct quarantine_index *q, struct metrics *tmp);
void gates_release(struct metrics_gates *g);

#endif
