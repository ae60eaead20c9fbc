/*
 * metrics/stats.c against values computed independently: tests/stats_ref.py
 * bisects the exact binomial CDF in rational arithmetic and sums Fisher's
 * tables with exact integers (`tests/stats_ref.py upper 3 214 0.95`, ...);
 * the expected values below are its output, 15 significant digits.
 */
#include "core/tiadash.h"
#include "metrics/stats.h"

#include <setjmp.h>
#include <cmocka.h>

/* Within a relative 1e-12 (absolute near 0), saying both values when not. */
#define assert_rel(got, want)                                                  \
	do {                                                                   \
		double got_ = (got), want_ = (want);                          \
		if (!(fabs(got_ - want_) <= 1e-12 * fmax(fabs(want_), 1e-3)))  \
			fail_msg("%.17g is not %.17g", got_, want_);           \
	} while (0)

static void upper_bounds(void **state)
{
	UNUSED(state);
	/* The example: 0 escapes in 50 pairs bounds the rate below 5.8%. */
	assert_rel(stats_cp_upper(0, 50, 0.95), 0.0581550791169723);
	assert_rel(stats_cp_upper(3, 214, 0.95), 0.0358313809739819);
	assert_rel(stats_cp_upper(9, 214, 0.90), 0.0655747378512974);
	assert_rel(stats_cp_upper(9, 214, 0.99), 0.0857760438882831);
	assert_rel(stats_cp_upper(1, 10, 0.95), 0.394163302436505);
	assert_rel(stats_cp_upper(42, 1000, 0.95), 0.0539872054114185);
	assert_rel(stats_cp_upper(199, 200, 0.95), 0.999743566412777);
	assert_rel(stats_cp_upper(0, 1, 0.99), 0.99);
	/* x = n: nothing bounds the rate below 1. */
	assert_true(stats_cp_upper(5, 5, 0.95) == 1);
}

static void intervals(void **state)
{
	double lo, hi;

	UNUSED(state);
	stats_cp_interval(3, 214, 0.95, &lo, &hi);
	assert_rel(lo, 0.00290037436233909);
	assert_rel(hi, 0.0404197483900649);
	stats_cp_interval(0, 50, 0.95, &lo, &hi);
	assert_true(lo == 0);
	assert_rel(hi, 0.0711217364641977);
	stats_cp_interval(5, 5, 0.95, &lo, &hi);
	assert_rel(lo, 0.478176249895019);
	assert_true(hi == 1);
	stats_cp_interval(9, 214, 0.99, &lo, &hi);
	assert_rel(lo, 0.0148069651471479);
	assert_rel(hi, 0.091066331806917);
	stats_cp_interval(1, 10, 0.95, &lo, &hi);
	assert_rel(lo, 0.00252857854446178);
	assert_rel(hi, 0.445016117028195);
	stats_cp_interval(42, 1000, 0.95, &lo, &hi);
	assert_rel(lo, 0.03043470626314);
	assert_rel(hi, 0.0563502915757447);
	stats_cp_interval(199, 200, 0.95, &lo, &hi);
	assert_rel(lo, 0.972458101542794);
	assert_rel(hi, 0.999873418972133);
	stats_cp_interval(0, 1, 0.90, &lo, &hi);
	assert_true(lo == 0);
	assert_rel(hi, 0.95);
	stats_cp_interval(1, 1, 0.90, &lo, &hi);
	assert_rel(lo, 0.05);
	assert_true(hi == 1);
}

static void undefined(void **state)
{
	double lo, hi;
	struct stats_rate r;

	UNUSED(state);
	/* 0/0: no pairs, no bound (null in JSON, n/a in text). */
	assert_true(isnan(stats_cp_upper(0, 0, 0.95)));
	stats_cp_interval(0, 0, 0.95, &lo, &hi);
	assert_true(isnan(lo) && isnan(hi));
	stats_rate_of(0, 0, 0.95, &r);
	assert_true(isnan(r.rate) && isnan(r.upper) && isnan(r.ci[0]) && isnan(r.ci[1]));
	assert_true(isnan(stats_cp_upper(6, 5, 0.95)));
	assert_true(isnan(stats_cp_upper(-1, 5, 0.95)));
	assert_true(isnan(stats_cp_upper(1, 5, 1)));
	assert_true(isnan(stats_cp_upper(1, 5, 0)));
	assert_true(isnan(stats_two_rates_p(0, 0, 1, 5)));
	assert_true(isnan(stats_two_rates_p(1, 5, 6, 5)));
	stats_rate_of(3, 214, 0.95, &r);
	assert_rel(r.rate, 3.0 / 214);
	assert_rel(r.upper, 0.0358313809739819);
	assert_rel(r.ci[0], 0.00290037436233909);
}

static void more_needed(void **state)
{
	UNUSED(state);
	/* 0/50: 9 more clean pairs, 59 in all, bring the bound to 5%. */
	assert_int_equal(stats_cp_more_needed(0, 50, 0.95, 0.05), 9);
	assert_true(stats_cp_upper(0, 59, 0.95) <= 0.05);
	assert_true(stats_cp_upper(0, 58, 0.95) > 0.05);
	assert_int_equal(stats_cp_more_needed(3, 214, 0.95, 0.05), 0);
	assert_int_equal(stats_cp_more_needed(1, 56, 0.95, 0.05), 37);
	assert_int_equal(stats_cp_more_needed(0, 0, 0.99, 0.01), 459);
	assert_int_equal(stats_cp_more_needed(5, 5, 0.95, 0.05), 203);
	assert_int_equal(stats_cp_more_needed(0, 10, 0.95, 1), 0);
	assert_int_equal(stats_cp_more_needed(0, 10, 0.95, 0), -1);
	assert_int_equal(stats_cp_more_needed(6, 5, 0.95, 0.05), -1);
}

static void two_rates(void **state)
{
	UNUSED(state);
	assert_rel(stats_two_rates_p(0, 50, 0, 60), 1);
	assert_rel(stats_two_rates_p(10, 100, 2, 100), 0.033040109324185);
	assert_rel(stats_two_rates_p(2, 100, 10, 100), 0.033040109324185);
	assert_rel(stats_two_rates_p(3, 214, 9, 214), 0.140316162096532);
	assert_rel(stats_two_rates_p(5, 20, 0, 20), 0.0471240471240471);
	assert_rel(stats_two_rates_p(1, 300, 1, 3), 0.0197364107271654);
	assert_rel(stats_two_rates_p(1, 50, 6, 60), 0.123900183216939);
}

static void beta_function(void **state)
{
	UNUSED(state);
	/* I_x(1, b) = 1 - (1 - x)^b; I_x(a, 1) = x^a; symmetry I_x(a, b) = 1 - I_(1-x)(b, a). */
	assert_rel(stats_betainc(1, 50, 0.1), 1 - pow(0.9, 50));
	assert_rel(stats_betainc(7, 1, 0.3), pow(0.3, 7));
	assert_rel(stats_betainc(4, 211, 0.02), 1 - stats_betainc(211, 4, 0.98));
	assert_rel(stats_beta_quantile(0.95, 1, 50), 0.0581550791169723);
	assert_true(stats_beta_quantile(0, 3, 4) == 0);
	assert_true(stats_beta_quantile(1, 3, 4) == 1);
	assert_true(isnan(stats_betainc(0, 1, 0.5)));
	/* Large counts stay finite and monotone. */
	assert_true(stats_cp_upper(500, 100000, 0.95) > 0.005);
	assert_true(stats_cp_upper(500, 100000, 0.95) < stats_cp_upper(500, 100000, 0.99));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(upper_bounds),
		cmocka_unit_test(intervals),
		cmocka_unit_test(undefined),
		cmocka_unit_test(more_needed),
		cmocka_unit_test(two_rates),
		cmocka_unit_test(beta_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
