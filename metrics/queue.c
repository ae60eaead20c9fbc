/* The merge-queue simulation of metrics/queue.h: FIFO batches on K runners, once per gate. */
#include "core/tiadash.h"
#include "metrics/common.h"
#include "metrics/queue.h"

#include <math.h>

/* A runner and the time it is free again; a min-heap by (free_s, id). */
struct runner {
	int64_t free_ms;
	int id;
};

static bool runner_before(const struct runner *a, const struct runner *b)
{
	return a->free_ms < b->free_ms || (a->free_ms == b->free_ms && a->id < b->id);
}

/* Put the heap's root, whose time grew, back in its place. */
static void sift_down(struct runner *h, size_t n)
{
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct runner t;

		if (l < n && runner_before(&h[l], &h[m]))
			m = l;
		if (r < n && runner_before(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * The PRs a simulation reads, in arrival order: an array, or a lean pass's
 * pairs (struct metrics_gates: 20 bytes a pair, not 24 and a copy), decoded
 * as a cursor moves over them; the simulation reads forward, and reads a
 * PR again at most right after it.
 */
struct qsrc {
	const struct queue_pr *prs;   /* NULL: g */
	const struct metrics_gates *g;
	bool full;                    /* g: with the full runs' wall-clock */
	size_t next, far;             /* g: the PR after cur, and its far index */
	struct queue_pr cur;
};

static struct queue_pr qget(struct qsrc *q, size_t i)
{
	const struct metrics_gates *g = q->g;

	if (q->prs)
		return q->prs[i];
	if (i + 1 < q->next)
		q->next = q->far = 0, q->cur.arrival_ms = 0;
	for (; q->next <= i; q->next++) {
		uint32_t gap = g->gap[q->next] & METRICS_GAP_FAR;

		q->cur.arrival_ms = gap == METRICS_GAP_FAR ? g->far[q->far++]
							   : q->cur.arrival_ms + gap;
		q->cur.gate_ms = llround((q->full ? g->full_s : g->shadow_s)[q->next] * 1000);
		q->cur.force_full = (g->gap[q->next] & METRICS_GAP_FORCE_FULL) != 0;
	}
	return q->cur;
}

/*
 * The most PRs waiting at one moment: arrived and not yet started. Both
 * sequences are ascending (a batch never starts before the one before it),
 * so one merge finds it; a start and an arrival at one instant cancel.
 * A PR's start is its arrival and its wait (exact: whole milliseconds), so
 * the starts are read from a second cursor over the PRs.
 */
static int64_t longest_queue(const struct qsrc *src, const double *wait, size_t n)
{
	struct qsrc arrivals = *src, starts = *src;
	size_t a = 0, s = 0;
	int64_t len = 0, most = 0;

#define START(s) (qget(&starts, (s)).arrival_ms + (int64_t)wait[(s)])
	while (a < n) {
		int64_t arrival = qget(&arrivals, a).arrival_ms, start = START(s);
		int64_t t = arrival < start ? arrival : start;

		for (; a < n && qget(&arrivals, a).arrival_ms <= t; a++)
			len++;
		for (; s < n && START(s) <= t; s++)
			len--;
		if (len > most)
			most = len;
	}
#undef START
	return most;
}

/* At saturation every batch is full: the pairs in arrival order, `batch` at a time. */
static double saturated_throughput(struct qsrc *q, size_t n, int batch, int runners)
{
	int64_t busy = 0;

	for (size_t i = 0; i < n; i += (size_t)batch) {
		int64_t longest = 0;

		for (size_t j = i; j < n && j < i + (size_t)batch; j++)
			if (qget(q, j).gate_ms > longest)
				longest = qget(q, j).gate_ms;
		busy += longest;
	}
	return busy > 0 ? 3600e3 * runners * (double)n / (double)busy : NAN;
}

static void simulate(struct qsrc *src, size_t n, int batch, int runners,
		     bool count_stretched, struct queue_result *out)
{
	struct runner *heap = xcalloc((size_t)runners, sizeof(*heap));
	double *wait = xcalloc(n ? n : 1, sizeof(*wait));
	size_t j = 0;

	*out = (struct queue_result){ .prs = (int64_t)n, .batch = batch, .runners = runners,
				      .batches_stretched_by_force_full = count_stretched ? 0 : -1 };
	for (int r = 0; r < runners; r++) /* free from before the first arrival */
		heap[r] = (struct runner){ INT64_MIN, r };
	while (j < n) {
		int64_t arrival = qget(src, j).arrival_ms;
		int64_t at = heap[0].free_ms > arrival ? heap[0].free_ms : arrival;
		int64_t all = 0, cheap = 0; /* the batch's time, and without force-full members */
		size_t m = 0;

		for (; j + m < n && m < (size_t)batch; m++) {
			struct queue_pr p = qget(src, j + m);

			if (p.arrival_ms > at)
				break;
			wait[j + m] = (double)(at - p.arrival_ms);
			if (p.gate_ms > all)
				all = p.gate_ms;
			if (!p.force_full && p.gate_ms > cheap)
				cheap = p.gate_ms;
		}
		if (count_stretched && all > cheap)
			out->batches_stretched_by_force_full++;
		out->batches++;
		heap[0].free_ms = at + all;
		sift_down(heap, (size_t)runners);
		j += m;
	}
	out->max_queue = n ? longest_queue(src, wait, n) : 0;
	out->throughput_per_hour = saturated_throughput(src, n, batch, runners);
	/* Two quantiles, selected in linear time: the same values as of the sorted waits. */
	out->wait_p50_s = metrics_quantile(wait, n, 0.5) / 1000;
	out->wait_p95_s = metrics_quantile(wait, n, 0.95) / 1000;
	free(heap);
	free(wait);
}

void queue_simulate(const struct queue_pr *prs, size_t n, int batch, int runners,
		    bool count_stretched, struct queue_result *out)
{
	struct qsrc src = { .prs = prs };

	simulate(&src, n, batch, runners, count_stretched, out);
}

void queue_of_metrics(const struct metrics *m, int batch, int runners,
		      struct queue_result *cheap, struct queue_result *full)
{
	struct queue_pr *prs;
	int64_t *full_ms;
	size_t n = 0;

	if (m->rows_sparse) {
		struct qsrc src = { .g = &m->gates };

		simulate(&src, m->gates.nr, batch, runners, true, cheap);
		src = (struct qsrc){ .g = &m->gates, .full = true };
		simulate(&src, m->gates.nr, batch, runners, false, full);
		return;
	}
	prs = xcalloc(m->nr_rows ? m->nr_rows : 1, sizeof(*prs));
	full_ms = xcalloc(m->nr_rows ? m->nr_rows : 1, sizeof(*full_ms));
	/* Rows come in window order: the arrivals ascend. */
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct metrics_row *r = &m->rows[i];

		if (isnan(r->shadow_wall_s) || isnan(r->full_wall_s))
			continue;
		prs[n] = (struct queue_pr){ r->at, llround(r->shadow_wall_s * 1000),
					    r->decision == DECISION_RUN_ALL };
		full_ms[n++] = llround(r->full_wall_s * 1000);
	}
	queue_simulate(prs, n, batch, runners, true, cheap);
	for (size_t i = 0; i < n; i++)
		prs[i].gate_ms = full_ms[i];
	queue_simulate(prs, n, batch, runners, false, full);
	free(prs);
	free(full_ms);
}

cJSON *queue_json(const struct queue_result *q)
{
	cJSON *o = cJSON_CreateObject();

	json_add_int(o, "prs", q->prs);
	json_add_int(o, "batch", q->batch);
	json_add_int(o, "runners", q->runners);
	json_add_number(o, "throughput_per_hour", q->throughput_per_hour);
	json_add_number(o, "wait_p50_s", q->wait_p50_s);
	json_add_number(o, "wait_p95_s", q->wait_p95_s);
	json_add_int(o, "max_queue", q->max_queue);
	json_add_int(o, "batches", q->batches);
	json_add_opt_int(o, "batches_stretched_by_force_full",
			 q->batches_stretched_by_force_full >= 0, q->batches_stretched_by_force_full);
	return o;
}

void queue_fmt_line(struct strbuf *sb, const struct queue_result *q)
{
	metrics_fmt(sb, "%.1f", q->throughput_per_hour);
	strbuf_addstr(sb, " PRs/h saturated, in queue p50 ");
	metrics_fmt_secs(sb, q->wait_p50_s);
	strbuf_addstr(sb, ", p95 ");
	metrics_fmt_secs(sb, q->wait_p95_s);
	strbuf_addf(sb, ", longest %" PRId64, q->max_queue);
}
