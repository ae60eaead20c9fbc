/*
 * Percentiles of a figure's values (SPEC 4: numpy's default "linear"
 * method, interpolating between the closest ranks) and the sorting behind
 * them. Values never include NaN: callers leave undefined figures out.
 */
#ifndef TIADASH_METRICS_QUANTILE_H
#define TIADASH_METRICS_QUANTILE_H

#include "core/tiadash.h"

/* Distribution of a figure: NAN members when n == 0. */
struct metrics_dist {
	size_t n;
	double p50, p95, mean;
};

/*
 * The p-th quantile (0..1) of n sorted values, numpy's default "linear"
 * method; NAN when n == 0.
 */
double metrics_percentile(const double *sorted, size_t n, double q);
/*
 * metrics_percentile of n unsorted values (no NaN), in linear time: v is
 * reordered.
 */
double metrics_quantile(double *v, size_t n, double q);
/* Sort values ascending (NaNs must have been left out). */
void metrics_sort(double *v, size_t n);
/* p50, p95 and mean of n values (sorted in place). */
void metrics_dist_of(double *v, size_t n, struct metrics_dist *out);
/*
 * p50 and p95 of n values (no NaN), the same as metrics_dist_of's, in
 * linear time and no scratch memory: v is reordered, not sorted. The mean
 * is NAN: for figures that have none, the wall-clock times (SPEC 4), of
 * which a year's report has 10^6 (sorting them was a tenth of its time).
 */
void metrics_percentiles_of(double *v, size_t n, struct metrics_dist *out);

/* The rank of quantile q (0 < q < 1) of n values: the lower index, and the fraction past it in *frac. */
size_t metrics_quantile_rank(size_t n, double q, double *frac);
/* a + (b - a) * frac, exact at the ends. */
double metrics_quantile_lerp(double a, double b, double frac);
/* A key whose unsigned order is the doubles' order (no NaN). */
uint64_t metrics_sort_key(double d);

/*
 * A bag of values, value -> how often it came, for figures that take few
 * distinct values (ratios of a run's counts): the same percentiles and the
 * same mean (its sum taken in sorted order, a value as often as it came)
 * as metrics_dist_of over the sorted array, in memory for the distinct
 * values only. Bit patterns tell values apart: 0.0 and -0.0 stay both.
 */
struct metrics_bag_slot {
	double v;
	size_t n; /* 0: a free slot */
};
struct metrics_bag {
	struct metrics_bag_slot *t;
	size_t cap, nr;  /* slots, values held (distinct) */
	size_t total;    /* values added */
};
#define METRICS_BAG_INIT { NULL, 0, 0, 0 }
void metrics_bag_add(struct metrics_bag *b, double x);
/* metrics_dist_of the bag's values; the bag is released (empty, reusable). */
void metrics_bag_dist(struct metrics_bag *b, struct metrics_dist *out);
void metrics_bag_release(struct metrics_bag *b);

#endif
