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
 * The most PRs waiting at one moment: arrived and not yet started. Both
 * sequences are ascending (a batch never starts before the one before it),
 * so one merge finds it; a start and an arrival at one instant cancel.
 */
static int64_t longest_queue(const struct queue_pr *prs, const int64_t *start, size_t n)
{
	size_t a = 0, s = 0;
	int64_t len = 0, most = 0;

	while (a < n) {
		int64_t t = prs[a].arrival_ms < start[s] ? prs[a].arrival_ms : start[s];

		for (; a < n && prs[a].arrival_ms <= t; a++)
			len++;
		for (; s < n && start[s] <= t; s++)
			len--;
		if (len > most)
			most = len;
	}
	return most;
}

/* At saturation every batch is full: the pairs in arrival order, `batch` at a time. */
static double saturated_throughput(const struct queue_pr *prs, size_t n, int batch, int runners)
{
	int64_t busy = 0;

	for (size_t i = 0; i < n; i += (size_t)batch) {
		int64_t longest = 0;

		for (size_t j = i; j < n && j < i + (size_t)batch; j++)
			if (prs[j].gate_ms > longest)
				longest = prs[j].gate_ms;
		busy += longest;
	}
	return busy > 0 ? 3600e3 * runners * (double)n / (double)busy : NAN;
}

void queue_simulate(const struct queue_pr *prs, size_t n, int batch, int runners,
		    bool count_stretched, struct queue_result *out)
{
	struct runner *heap = xcalloc((size_t)runners, sizeof(*heap));
	int64_t *start = xcalloc(n ? n : 1, sizeof(*start));
	double *wait = xcalloc(n ? n : 1, sizeof(*wait));
	size_t j = 0;

	*out = (struct queue_result){ .prs = (int64_t)n, .batch = batch, .runners = runners,
				      .batches_stretched_by_force_full = count_stretched ? 0 : -1 };
	for (int r = 0; r < runners; r++) /* free from before the first arrival */
		heap[r] = (struct runner){ INT64_MIN, r };
	while (j < n) {
		int64_t at = heap[0].free_ms > prs[j].arrival_ms ? heap[0].free_ms : prs[j].arrival_ms;
		int64_t all = 0, cheap = 0; /* the batch's time, and without force-full members */
		size_t m = 0;

		for (; j + m < n && m < (size_t)batch && prs[j + m].arrival_ms <= at; m++) {
			const struct queue_pr *p = &prs[j + m];

			start[j + m] = at;
			wait[j + m] = (double)(at - p->arrival_ms);
			if (p->gate_ms > all)
				all = p->gate_ms;
			if (!p->force_full && p->gate_ms > cheap)
				cheap = p->gate_ms;
		}
		if (count_stretched && all > cheap)
			out->batches_stretched_by_force_full++;
		out->batches++;
		heap[0].free_ms = at + all;
		sift_down(heap, (size_t)runners);
		j += m;
	}
	out->max_queue = n ? longest_queue(prs, start, n) : 0;
	out->throughput_per_hour = saturated_throughput(prs, n, batch, runners);
	/* Two quantiles, selected in linear time: the same values as of the sorted waits. */
	out->wait_p50_s = metrics_quantile(wait, n, 0.5) / 1000;
	out->wait_p95_s = metrics_quantile(wait, n, 0.95) / 1000;
	free(heap);
	free(start);
	free(wait);
}

void queue_of_metrics(const struct metrics *m, int batch, int runners,
		      struct queue_result *cheap, struct queue_result *full)
{
	struct queue_pr *prs = xcalloc(m->nr_rows ? m->nr_rows : 1, sizeof(*prs));
	int64_t *full_ms = xcalloc(m->nr_rows ? m->nr_rows : 1, sizeof(*full_ms));
	size_t n = 0;

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
