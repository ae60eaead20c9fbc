/* Exact binomial statistics: Clopper-Pearson bounds, clean trials needed, Fisher's exact test. */
#include "core/tiadash.h"
#include "metrics/stats.h"

#include <float.h>

/* Lentz's guard: a denominator that would vanish becomes a tiny one. */
static double not_tiny(double v)
{
	return fabs(v) < 1e-300 ? 1e-300 : v;
}

/*
 * The continued fraction of I_x(a, b) by the modified Lentz method
 * (Numerical Recipes, 2nd ed., 6.4 betacf). It converges in O(sqrt(max(a,
 * b))) terms for x below (a + 1) / (a + b + 2), which the caller ensures.
 */
static double beta_cf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 / not_tiny(1 - qab * x / qap), h = d;

	for (int m = 1; m <= 1000000; m++) {
		double m2 = 2.0 * m, aa, del;

		/* The even step of the fraction, then the odd one. */
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 / not_tiny(1 + aa * d);
		c = not_tiny(1 + aa / c);
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 / not_tiny(1 + aa * d);
		c = not_tiny(1 + aa / c);
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 4 * DBL_EPSILON)
			break;
	}
	return h;
}

double stats_betainc(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1 - x)^b / B(a, b), in logs: lgamma keeps large counts finite. */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_beta_quantile(double p, double a, double b)
{
	double lo = 0, hi = 1;

	if (!(p >= 0) || !(p <= 1) || !(a > 0) || !(b > 0))
		return NAN;
	if (p == 0 || p == 1)
		return p;
	/* I_x is increasing in x: halve the bracket until it is two adjacent doubles. */
	for (;;) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (stats_betainc(a, b, mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

static bool valid(int64_t x, int64_t n, double c)
{
	return n > 0 && x >= 0 && x <= n && c > 0 && c < 1;
}

double stats_cp_upper(int64_t x, int64_t n, double c)
{
	if (!valid(x, n, c))
		return NAN;
	if (x == n)
		return 1;
	if (x == 0) /* (1 - p)^n = 1 - c */
		return -expm1(log1p(-c) / (double)n);
	return stats_beta_quantile(c, (double)x + 1, (double)(n - x));
}

void stats_cp_interval(int64_t x, int64_t n, double c, double *lower, double *upper)
{
	double half = (1 - c) / 2;

	*lower = *upper = NAN;
	if (!valid(x, n, c))
		return;
	if (x == 0)
		*lower = 0;
	else if (x == n) /* p^n = half */
		*lower = exp(log(half) / (double)n);
	else
		*lower = stats_beta_quantile(half, (double)x, (double)(n - x + 1));
	*upper = stats_cp_upper(x, n, 1 - half);
}

/* Does the upper bound with m more clean trials reach the target? */
static bool reaches(int64_t x, int64_t n, int64_t m, double c, double target)
{
	return stats_cp_upper(x, n + m, c) <= target;
}

int64_t stats_cp_more_needed(int64_t x, int64_t n, double c, double target)
{
	const int64_t cap = (int64_t)1 << 40;
	int64_t lo, hi = 1;

	if (x < 0 || n < 0 || x > n || !(c > 0) || !(c < 1) || !(target > 0))
		return -1;
	if (target >= 1 || (n > 0 && reaches(x, n, 0, c, target)))
		return 0;
	/* The bound falls as clean trials are added: bracket, then bisect. */
	while (!reaches(x, n, hi, c, target)) {
		if (hi >= cap)
			return -1;
		hi *= 2;
	}
	lo = hi / 2; /* does not reach (or is 0, which may not be a trial count) */
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;

		if (reaches(x, n, mid, c, target))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

void stats_rate_of(int64_t x, int64_t n, double c, struct stats_rate *out)
{
	out->x = x;
	out->n = n;
	out->rate = n > 0 && x >= 0 && x <= n ? (double)x / (double)n : NAN;
	out->upper = stats_cp_upper(x, n, c);
	stats_cp_interval(x, n, c, &out->ci[0], &out->ci[1]);
}

static double log_choose(int64_t n, int64_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* log P(X1 = k) given the total: hypergeometric(N = n1 + n2, K, n1 draws). */
static double log_hyper(int64_t k, int64_t n1, int64_t n2, int64_t total)
{
	return log_choose(n1, k) + log_choose(n2, total - k) - log_choose(n1 + n2, total);
}

double stats_two_rates_p(int64_t x1, int64_t n1, int64_t x2, int64_t n2)
{
	int64_t total = x1 + x2, lo, hi;
	double observed, sum = 0;

	if (n1 <= 0 || n2 <= 0 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2)
		return NAN;
	lo = total > n2 ? total - n2 : 0;
	hi = total < n1 ? total : n1;
	observed = log_hyper(x1, n1, n2, total);
	for (int64_t k = lo; k <= hi; k++) {
		double lp = log_hyper(k, n1, n2, total);

		/* No more likely than the observed table, ties within 1e-7. */
		if (lp <= observed + 1e-7)
			sum += exp(lp);
	}
	return sum < 1 ? sum : 1;
}
