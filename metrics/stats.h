/*
 * Exact statistics of binomial rates, for the confidence and trend figures
 * (escape, over-strict and force-full rates; the escape rate per day with
 * its band). Pure functions of counts: no store, no allocation.
 *
 *   Clopper-Pearson bounds of x successes in n trials at confidence c
 *   (alpha = 1 - c), the exact inversion of the binomial tail:
 *     one-sided upper  p_U: P(X <= x | n, p_U) = alpha, i.e. the c quantile
 *                      of Beta(x + 1, n - x); 1 when x = n
 *     two-sided        [Beta(alpha/2; x, n - x + 1), Beta(1 - alpha/2;
 *                      x + 1, n - x)], 0 when x = 0, 1 when x = n
 *   Quantiles are found by bisection on the regularized incomplete beta
 *   function I_p(a, b) (Lentz's continued fraction, Numerical Recipes
 *   6.4) down to adjacent doubles; x = 0 and x = n use the closed forms
 *   1 - alpha^(1/n) and alpha^(1/n).
 *
 *   The trend test compares two binomial rates x1/n1 and x2/n2 exactly,
 *   conditional on the total x1 + x2 (Fisher's exact test): with the pair
 *   counts fixed and the escape probability the same in both windows,
 *   x1 given x1 + x2 = K is hypergeometric (N = n1 + n2, K, n1 draws).
 *   Conditioning on the total removes the unknown common rate, so the
 *   p-value is exact. (The binomial form of the conditional test, x1 ~
 *   Bin(K, t1 / (t1 + t2)), belongs to Poisson counts over exposure times
 *   t1, t2; escapes are counted out of a known number of pairs, hence the
 *   hypergeometric.) Two-sided: the sum of the probabilities of every
 *   outcome no more likely than the one observed (relative tolerance 1e-7
 *   for ties, as R's fisher.test).
 *
 * Undefined values (n = 0, x > n, a confidence outside (0, 1)) are NAN.
 */
#ifndef TIADASH_METRICS_STATS_H
#define TIADASH_METRICS_STATS_H

#include "core/tiadash.h"

/* I_x(a, b) for a, b > 0 and 0 <= x <= 1; NAN outside. */
double stats_betainc(double a, double b, double x);
/* The p quantile of Beta(a, b): the x with I_x(a, b) = p (0 <= p <= 1). */
double stats_beta_quantile(double p, double a, double b);

/* One-sided Clopper-Pearson upper bound of x / n at confidence c. */
double stats_cp_upper(int64_t x, int64_t n, double c);
/* Two-sided Clopper-Pearson interval of x / n at confidence c. */
void stats_cp_interval(int64_t x, int64_t n, double c, double *lower, double *upper);

/*
 * How many more trials without a success bring the one-sided upper bound
 * of x / (n + m) at confidence c to at most target: the least m >= 0 (0
 * when already there; n may be 0). -1 when no m does (target <= 0, or a
 * count beyond 2^40).
 */
int64_t stats_cp_more_needed(int64_t x, int64_t n, double c, double target);

/* A rate with its bounds: what the figures carry. */
struct stats_rate {
	int64_t x, n;
	double rate;     /* x / n */
	double upper;    /* one-sided upper bound at the confidence */
	double ci[2];    /* two-sided interval at the confidence */
};
void stats_rate_of(int64_t x, int64_t n, double c, struct stats_rate *out);

/* Two-sided p-value of the exact conditional test of x1/n1 against x2/n2. */
double stats_two_rates_p(int64_t x1, int64_t n1, int64_t x2, int64_t n2);

#endif
