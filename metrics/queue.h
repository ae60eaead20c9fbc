/*
 * The merge queue with each gate (`tiadash queue`, report's "queue"): a
 * deterministic simulation that replays the window's pairs through a FIFO
 * merge queue, once with each PR's shadow wall-clock (the cheap gate,
 * force-full runs included) and once with its full run's.
 *
 * What is modelled, exactly:
 *   arrivals     each pair whose latest shadow and full attempts both give
 *                a wall-clock enters the queue at its window time (its
 *                first shadow run's start), in window order
 *   batches      whenever a runner is free and the queue holds a PR, the
 *                runner takes the PRs that have arrived, up to `batch` of
 *                them, first come first; with several runners free at once
 *                the lowest-numbered one takes the batch
 *   batch time   the longest gate wall-clock among its members; the
 *                runner is free again when it ends
 *   wait         from a PR's arrival to the start of its batch
 *   max_queue    the most PRs waiting at one moment (arrived, not started)
 *   throughput   PRs merged per hour at saturation: every batch full, so
 *                the pairs in arrival order in consecutive groups of
 *                `batch`; 3600 x runners x PRs / the sum of those groups'
 *                batch times
 *   stretched    (the cheap gate only) batches of the simulation that a
 *                force-full member made longer: the batch time with its
 *                force-full (run_all) members exceeds the time without
 *                them (0 for a batch of force-full members only)
 * Not modelled: ejections and retries of a failing batch, bisection,
 * speculative (parallel) batches, priorities, PRs that wait for review.
 *
 * Ownership: plain values; nothing to release.
 */
#ifndef TIADASH_METRICS_QUEUE_H
#define TIADASH_METRICS_QUEUE_H

#include "core/tiadash.h"
#include "core/json.h"

struct metrics;

#define QUEUE_MAX_BATCH 1000
#define QUEUE_MAX_RUNNERS 1000

/*
 * One PR of the simulation, in whole milliseconds: sums and differences
 * of them are exact, so a hand-worked timeline matches to the digit.
 */
struct queue_pr {
	int64_t arrival_ms; /* any origin; ascending in the input */
	int64_t gate_ms;    /* the gate's wall-clock for this PR */
	bool force_full;    /* the cheap gate ran everything for it */
};

/* The figures of one gate; NAN (null, n/a) when they cannot be computed. */
struct queue_result {
	int64_t prs;
	int batch, runners;
	double throughput_per_hour;
	double wait_p50_s, wait_p95_s;
	int64_t max_queue;
	int64_t batches;
	int64_t batches_stretched_by_force_full; /* -1: not the cheap gate */
};

/*
 * Simulate n PRs (arrival ascending) with batches of up to `batch` (>= 1)
 * and `runners` (>= 1) runners; stretched batches are counted when
 * count_stretched (the cheap gate), else left at -1.
 */
void queue_simulate(const struct queue_pr *prs, size_t n, int batch, int runners,
		    bool count_stretched, struct queue_result *out);

/* One gate's figures as report and queue print them in JSON (caller owns it). */
cJSON *queue_json(const struct queue_result *q);

/* Append one gate's figures on a line: "7.2 PRs/h saturated, in queue p50 ...". */
void queue_fmt_line(struct strbuf *sb, const struct queue_result *q);

/* Both gates over the pairs of m. */
void queue_of_metrics(const struct metrics *m, int batch, int runners,
		      struct queue_result *cheap, struct queue_result *full);

#endif
