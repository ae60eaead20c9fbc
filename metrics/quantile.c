/*
 * Percentiles and sorting of a figure's values: numpy's "linear" quantiles,
 * a radix sort for large arrays, selection for one quantile.
 */
#include "core/tiadash.h"
#include "core/util.h"
#include "metrics/quantile.h"

/* The rank of quantile q (0 < q < 1) of n values: the lower index and the fraction past it. */
size_t metrics_quantile_rank(size_t n, double q, double *frac)
{
	double vi = q * (double)(n - 1);
	size_t lo = (size_t)floor(vi);

	*frac = vi - (double)lo;
	return lo;
}

/* numpy's _lerp: from the nearer end, so the result stays in [a, b]. */
double metrics_quantile_lerp(double a, double b, double frac)
{
	double diff = b - a;

	if (a == b)
		return a;
	return frac >= 0.5 ? b - diff * (1 - frac) : a + diff * frac;
}

double metrics_percentile(const double *sorted, size_t n, double q)
{
	double frac;
	size_t lo;

	if (n == 0 || isnan(q))
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	lo = metrics_quantile_rank(n, q, &frac);
	return metrics_quantile_lerp(sorted[lo], sorted[lo + 1 < n ? lo + 1 : n - 1], frac);
}

/*
 * Sorting the figures is the report's main cost after reading the store:
 * an introsort on doubles (no comparison callback, no scratch memory) runs
 * several times faster than qsort(3) here.
 */
static void insertion_sort(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void sift_down(double *v, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (!(v[child] > v[root]))
			return;
		double t = v[root];
		v[root] = v[child];
		v[child] = t;
	}
}

static void heap_sort(double *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n; end-- > 1;) {
		double t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

static void swap_d(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/*
 * Median of three as the pivot, then Hoare's partition of v (n > 16):
 * v[0..j] <= pivot <= v[j+1..n); returns j.
 */
static size_t partition(double *v, size_t n)
{
	size_t i, j, mid = n / 2;
	double pivot;

	if (v[mid] < v[0])
		swap_d(&v[mid], &v[0]);
	if (v[n - 1] < v[0])
		swap_d(&v[n - 1], &v[0]);
	if (v[n - 1] < v[mid])
		swap_d(&v[n - 1], &v[mid]);
	pivot = v[mid];
	for (i = 0, j = n - 1;; i++, j--) {
		while (v[i] < pivot)
			i++;
		while (pivot < v[j])
			j--;
		if (i >= j)
			return j;
		swap_d(&v[i], &v[j]);
	}
}

/* How deep partitioning may go before heap_sort takes over: 2 log2(n). */
static int depth_limit(size_t n)
{
	int depth = 0;

	for (; n > 1; n >>= 1)
		depth += 2;
	return depth;
}

static void intro_sort(double *v, size_t n, int depth)
{
	while (n > 16) {
		size_t j;

		if (depth-- == 0) {
			heap_sort(v, n);
			return;
		}
		j = partition(v, n);
		/* Recurse into the smaller side, loop on the larger. */
		if (j + 1 < n - j - 1) {
			intro_sort(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			intro_sort(v + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	insertion_sort(v, n);
}

/*
 * A double's bits as a key that sorts as the double does: negatives
 * flipped whole, positives with the sign bit set. NaNs are left out before.
 */
uint64_t metrics_sort_key(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | UINT64_C(1) << 63;
}

static double key_value(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/*
 * Large arrays (a report's 10^5 wall-clock times): LSD radix sort on the
 * keys, 11 bits a pass, passes whose digit is the same everywhere skipped;
 * the counts of every pass's digits taken in one read of the keys.
 * The same order as the introsort, in linear time. The keys are made in
 * v's own memory (a double and its key are both 8 bytes, copied with
 * memcpy), so the sort needs one scratch array of n keys, not two: 8 MB
 * less at the peak of a report over 10^6 pairs.
 */
#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)
#define RADIX_PASSES ((64 + RADIX_BITS - 1) / RADIX_BITS)
static void radix_sort(double *v, size_t n)
{
	_Static_assert(sizeof(double) == sizeof(uint64_t), "a key in a double's place");
	unsigned char *mem = (unsigned char *)v;
	uint64_t *a = (uint64_t *)(void *)v, *b = xmalloc(n * sizeof(*b)), *t;
	size_t *counts = xcalloc(RADIX_PASSES * RADIX_SIZE, sizeof(*counts));

	/* The keys, and every pass's digit counts, in one read: a pass only permutes the keys. */
	for (size_t i = 0; i < n; i++) {
		double d;
		uint64_t k;

		memcpy(&d, mem + i * sizeof(d), sizeof(d));
		k = metrics_sort_key(d);
		memcpy(mem + i * sizeof(k), &k, sizeof(k));
		for (unsigned p = 0; p < RADIX_PASSES; p++)
			counts[p * RADIX_SIZE + ((k >> (p * RADIX_BITS)) & (RADIX_SIZE - 1))]++;
	}
	for (unsigned p = 0; p < RADIX_PASSES; p++) {
		unsigned shift = p * RADIX_BITS;
		size_t sum = 0, *count = counts + p * RADIX_SIZE;

		if (count[(a[0] >> shift) & (RADIX_SIZE - 1)] == n)
			continue;
		for (size_t d = 0; d < RADIX_SIZE; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
		t = a, a = b, b = t;
	}
	/* The sorted keys are in v's memory or in the scratch array: back to doubles in v. */
	for (size_t i = 0; i < n; i++) {
		uint64_t k;
		double d;

		memcpy(&k, (unsigned char *)a + i * sizeof(k), sizeof(k));
		d = key_value(k);
		memcpy(mem + i * sizeof(d), &d, sizeof(d));
	}
	free((unsigned char *)a == mem ? b : a);
	free(counts);
}

/* The k-th smallest of v at v[k], the smaller ones before it, the larger after. */
static void select_kth(double *v, size_t n, size_t k)
{
	int depth = depth_limit(n);

	while (n > 16) {
		size_t j;

		if (depth-- == 0) {
			heap_sort(v, n);
			return;
		}
		/* Then only the side holding k. */
		j = partition(v, n);
		if (k <= j) {
			n = j + 1;
		} else {
			v += j + 1;
			k -= j + 1;
			n -= j + 1;
		}
	}
	insertion_sort(v, n);
}

/*
 * Quantile lo of n unsorted values (no NaN), frac of the way to the next
 * one up: v[lo] selected, the smaller values before it, the larger after.
 */
static double quantile_at(double *v, size_t n, size_t lo, double frac)
{
	double b;

	select_kth(v, n, lo);
	if (lo + 1 >= n)
		return v[lo];
	/* The next value up is the smallest of those after the k-th. */
	b = v[lo + 1];
	for (size_t i = lo + 2; i < n; i++)
		if (v[i] < b)
			b = v[i];
	return metrics_quantile_lerp(v[lo], b, frac);
}

double metrics_quantile(double *v, size_t n, double q)
{
	double frac;
	size_t lo;

	if (n == 0 || isnan(q))
		return NAN;
	if (q <= 0 || q >= 1) {
		lo = q <= 0 ? 0 : n - 1;
		select_kth(v, n, lo);
		return v[lo];
	}
	lo = metrics_quantile_rank(n, q, &frac);
	return quantile_at(v, n, lo, frac);
}

void metrics_percentiles_of(double *v, size_t n, struct metrics_dist *out)
{
	double f50, f95;
	size_t lo50, lo95;

	out->n = n;
	out->mean = NAN;
	if (n == 0) {
		out->p50 = out->p95 = NAN;
		return;
	}
	lo50 = metrics_quantile_rank(n, 0.5, &f50);
	lo95 = metrics_quantile_rank(n, 0.95, &f95);
	out->p50 = quantile_at(v, n, lo50, f50);
	/* v[lo50] and those after it are the values of rank lo50 and up: the p95's among them. */
	out->p95 = quantile_at(v + lo50, n - lo50, lo95 - lo50, f95);
}

void metrics_sort(double *v, size_t n)
{
	if (n >= 4096) {
		radix_sort(v, n);
		return;
	}
	if (n > 1)
		intro_sort(v, n, depth_limit(n));
}

/* The figures of n values sorted in v. */
static void dist_of_sorted(const double *v, size_t n, struct metrics_dist *out)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->n = n;
	out->p50 = metrics_percentile(v, n, 0.5);
	out->p95 = metrics_percentile(v, n, 0.95);
	out->mean = n ? sum / (double)n : NAN;
}

void metrics_dist_of(double *v, size_t n, struct metrics_dist *out)
{
	metrics_sort(v, n);
	dist_of_sorted(v, n, out);
}

/* The bag (quantile.h): open addressing on the values' sort keys. */
static size_t bag_index(const struct metrics_bag *b, uint64_t k)
{
	return (size_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (b->cap - 1);
}

static void bag_put(struct metrics_bag *b, double x, size_t n)
{
	uint64_t k = metrics_sort_key(x);
	size_t i = bag_index(b, k);

	/* Bit patterns, not values, tell two apart: 0.0 and -0.0 stay both, as in the arrays. */
	while (b->t[i].n && metrics_sort_key(b->t[i].v) != k)
		i = (i + 1) & (b->cap - 1);
	if (!b->t[i].n) {
		b->t[i].v = x;
		b->nr++;
	}
	b->t[i].n += n;
}

void metrics_bag_add(struct metrics_bag *b, double x)
{
	if (4 * (b->nr + 1) > 3 * b->cap) {
		struct metrics_bag_slot *old = b->t;
		size_t cap = b->cap;

		b->cap = cap ? 2 * cap : 64;
		b->t = xcalloc(b->cap, sizeof(*b->t));
		b->nr = 0;
		for (size_t i = 0; i < cap; i++)
			if (old[i].n)
				bag_put(b, old[i].v, old[i].n);
		free(old);
	}
	bag_put(b, x, 1);
	b->total++;
}

static int cmp_slot(const void *x, const void *y)
{
	uint64_t a = metrics_sort_key(((const struct metrics_bag_slot *)x)->v);
	uint64_t b = metrics_sort_key(((const struct metrics_bag_slot *)y)->v);

	return (a > b) - (a < b);
}

/* The k-th smallest value of the bag's sorted slots s (nr of them), k < total. */
static double bag_at(const struct metrics_bag_slot *s, size_t nr, size_t k)
{
	for (size_t i = 0; i < nr; i++) {
		if (k < s[i].n)
			return s[i].v;
		k -= s[i].n;
	}
	BUG("rank past the bag's values");
}

/* metrics_percentile of the bag's values, sorted in s. */
static double bag_percentile(const struct metrics_bag_slot *s, size_t nr, size_t n, double q)
{
	double frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return bag_at(s, nr, 0);
	if (q >= 1)
		return bag_at(s, nr, n - 1);
	lo = metrics_quantile_rank(n, q, &frac);
	return metrics_quantile_lerp(bag_at(s, nr, lo), bag_at(s, nr, lo + 1 < n ? lo + 1 : n - 1), frac);
}

void metrics_bag_dist(struct metrics_bag *b, struct metrics_dist *out)
{
	size_t nr = 0;
	double sum = 0;

	for (size_t i = 0; i < b->cap; i++)
		if (b->t[i].n)
			b->t[nr++] = b->t[i];
	if (nr > 1)
		qsort(b->t, nr, sizeof(*b->t), cmp_slot);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < b->t[i].n; j++)
			sum += b->t[i].v;
	out->n = b->total;
	out->p50 = bag_percentile(b->t, nr, b->total, 0.5);
	out->p95 = bag_percentile(b->t, nr, b->total, 0.95);
	out->mean = b->total ? sum / (double)b->total : NAN;
	metrics_bag_release(b);
}

void metrics_bag_release(struct metrics_bag *b)
{
	free(b->t);
	memset(b, 0, sizeof(*b));
}
