/* Percentiles (numpy's linear method, hand-computed), distributions, savings, the gate-check criteria, pair facts. */
#include "core/tiadash.h"
#include "metrics/facts.h"
#include "metrics/metrics.h"

#include <setjmp.h>
#include <cmocka.h>

/* cmocka 1.1 has no double assertion: within eps, and say both values when not. */
#define assert_close(got, want, eps)                                           \
	do {                                                                   \
		double got_ = (got), want_ = (want);                          \
		if (!(fabs(got_ - want_) <= (eps)))                            \
			fail_msg("%.17g is not %.17g", got_, want_);           \
	} while (0)

static double pct(const double *v, size_t n, double q)
{
	return metrics_percentile(v, n, q);
}

static void percentile_small(void **state)
{
	static const double one[] = { 7 };
	static const double two[] = { 1, 2 };
	static const double four[] = { 1, 2, 3, 4 };

	UNUSED(state);
	assert_true(isnan(pct(NULL, 0, 0.5)));
	assert_true(pct(one, 1, 0.5) == 7);
	assert_true(pct(one, 1, 0.95) == 7);
	/* numpy.percentile([1, 2], 50) = 1.5; 95 -> 1 + 0.95 * 1 */
	assert_true(pct(two, 2, 0.5) == 1.5);
	assert_close(pct(two, 2, 0.95), 1.95, 1e-12);
	/* [1, 2, 3, 4]: p50 2.5; p25 at rank 0.75 -> 1.75; p95 at rank 2.85 -> 3.85 */
	assert_true(pct(four, 4, 0.5) == 2.5);
	assert_true(pct(four, 4, 0.25) == 1.75);
	assert_close(pct(four, 4, 0.95), 3.85, 1e-12);
	assert_true(pct(four, 4, 0) == 1);
	assert_true(pct(four, 4, 1) == 4);
}

static void percentile_numpy_docs(void **state)
{
	/* numpy's documentation example: a = [15, 20, 35, 40, 50] */
	static const double a[] = { 15, 20, 35, 40, 50 };
	/* Equal neighbours interpolate to themselves exactly. */
	static const double flat[] = { 3, 3, 3, 9 };
	/* An even count: the median is the mean of the middle two. */
	static const double even[] = { 20, 40, 60, 70, 80, 90 };

	UNUSED(state);
	assert_true(pct(a, 5, 0.4) == 29);   /* rank 1.6: 20 + 0.6 * 15 */
	assert_true(pct(a, 5, 0.5) == 35);
	assert_true(pct(a, 5, 0.95) == 48);  /* rank 3.8: 40 + 0.8 * 10 */
	assert_true(pct(a, 5, 0.05) == 16);  /* rank 0.2: 15 + 0.2 * 5 */
	assert_true(pct(flat, 4, 0.5) == 3);
	assert_close(pct(flat, 4, 0.9), 7.2, 1e-12); /* rank 2.7: 3 + 0.7 * 6 */
	assert_true(pct(even, 6, 0.5) == 65);
	assert_close(pct(even, 6, 0.95), 87.5, 1e-12); /* rank 4.75 */
}

static void percentile_stays_between_neighbours(void **state)
{
	/* numpy's lerp works from the nearer end: never outside [a, b]. */
	static const double v[] = { 0.1, 0.7 };

	UNUSED(state);
	for (int i = 0; i <= 100; i++) {
		double p = pct(v, 2, i / 100.0);

		assert_true(p >= 0.1 && p <= 0.7);
	}
	assert_close(pct(v, 2, 0.95), 0.67, 1e-15);
}

static void dist_of(void **state)
{
	double v[] = { 1.0, 0.0, 0.3, 0.1, 1.0, 0.5, 0.2, 0.05, 0.1 };
	struct metrics_dist d;

	UNUSED(state);
	metrics_dist_of(v, ARRAY_SIZE(v), &d);
	assert_int_equal(d.n, 9);
	assert_true(v[0] == 0.0 && v[8] == 1.0); /* sorted in place */
	assert_true(d.p50 == 0.2);
	assert_true(d.p95 == 1.0);
	assert_close(d.mean, 3.25 / 9, 1e-15);
	metrics_dist_of(NULL, 0, &d);
	assert_int_equal(d.n, 0);
	assert_true(isnan(d.p50) && isnan(d.p95) && isnan(d.mean));
}

/* The bag gives what the sorted array gives: the same p50, p95 and mean, duplicates counted. */
static void bag_matches_dist_of(void **state)
{
	double v[] = { 1.0, 0.0, 0.3, 0.1, 1.0, 0.5, 0.2, 0.05, 0.1 };
	struct metrics_bag bag = METRICS_BAG_INIT;
	struct metrics_dist d, want;
	double many[1000];

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		metrics_bag_add(&bag, v[i]);
	metrics_bag_dist(&bag, &d);
	assert_int_equal(d.n, 9);
	assert_true(d.p50 == 0.2);
	assert_true(d.p95 == 1.0);
	assert_close(d.mean, 3.25 / 9, 1e-15);
	assert_null(bag.t);
	/* Past the first table (64 slots): 1000 values of 97 distinct, grown twice. */
	for (size_t i = 0; i < ARRAY_SIZE(many); i++) {
		many[i] = (double)(i * 37 % 97) / 96;
		metrics_bag_add(&bag, many[i]);
	}
	assert_int_equal(bag.nr, 97);
	metrics_bag_dist(&bag, &d);
	metrics_dist_of(many, ARRAY_SIZE(many), &want);
	assert_int_equal(d.n, want.n);
	assert_true(d.p50 == want.p50 && d.p95 == want.p95 && d.mean == want.mean);
	metrics_bag_dist(&bag, &d);
	assert_int_equal(d.n, 0);
	assert_true(isnan(d.p50) && isnan(d.p95) && isnan(d.mean));
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

#define NR_SHAPES 7
static const size_t test_sizes[] = { 0, 1, 2, 3, 16, 17, 100, 1000, 4095, 4096, 20000, 100000 };

/*
 * n values of one shape into a and b: random, few distinct values, sorted,
 * reversed, of both signs, huge and tiny, equal.
 */
static void fill_shape(double *a, double *b, size_t n, int shape, unsigned *seed)
{
	for (size_t i = 0; i < n; i++) {
		*seed = *seed * 1103515245 + 12345;
		switch (shape) {
		case 0: a[i] = (double)(*seed >> 8) / 1e3; break;
		case 1: a[i] = (double)((*seed >> 16) % 4); break;
		case 2: a[i] = (double)i; break;
		case 3: a[i] = (double)(n - i); break;
		case 4: a[i] = ((double)(*seed >> 8) - 8e6) * 1e-3; break;
		case 5: a[i] = (*seed >> 9) % 2 ? -1e300 * (double)(*seed >> 20) : 1e-300; break;
		default: a[i] = 600; break;
		}
		b[i] = a[i];
	}
}

/* check(a, b, n, shape) for each size and shape, a and b holding the same n values. */
static void each_shape(unsigned seed, void (*check)(double *a, double *b, size_t n, int shape))
{
	for (size_t s = 0; s < ARRAY_SIZE(test_sizes); s++) {
		for (int shape = 0; shape < NR_SHAPES; shape++) {
			size_t n = test_sizes[s];
			double *a = xmalloc((n + 1) * sizeof(*a)), *b = xmalloc((n + 1) * sizeof(*b));

			fill_shape(a, b, n, shape, &seed);
			check(a, b, n, shape);
			free(a);
			free(b);
		}
	}
}

static void check_sort(double *a, double *b, size_t n, int shape)
{
	metrics_sort(a, n);
	if (n)
		qsort(b, n, sizeof(*b), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			fail_msg("size %zu shape %d: [%zu] %g != %g", n, shape, i, a[i], b[i]);
}

/* metrics_sort against qsort; small arrays (introsort) and large ones (radix). */
static void sort_matches_qsort(void **state)
{
	UNUSED(state);
	each_shape(12345, check_sort);
}

static bool same_figure(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

/* Each quantile selected in a's values as they came (a copy), against b sorted. */
static void check_quantiles(double *a, double *b, size_t n, int shape)
{
	static const double qs[] = { 0, 0.01, 0.25, 0.5, 0.95, 0.999, 1 };
	double *v = xmalloc((n + 1) * sizeof(*v));

	if (n)
		qsort(b, n, sizeof(*b), cmp_double);
	for (size_t k = 0; k < ARRAY_SIZE(qs); k++) {
		double got, want;

		memcpy(v, a, n * sizeof(*v));
		got = metrics_quantile(v, n, qs[k]);
		want = metrics_percentile(b, n, qs[k]);
		if (!same_figure(got, want))
			fail_msg("size %zu shape %d q %g: %.17g != %.17g", n, shape, qs[k], got,
				 want);
	}
	free(v);
}

/* metrics_quantile of unsorted values gives metrics_percentile of them sorted. */
static void quantile_matches_percentile(void **state)
{
	UNUSED(state);
	each_shape(999, check_quantiles);
}

static void check_percentiles(double *a, double *b, size_t n, int shape)
{
	struct metrics_dist got, want;

	metrics_percentiles_of(a, n, &got);
	metrics_dist_of(b, n, &want);
	assert_int_equal(got.n, n);
	assert_true(isnan(got.mean));
	if (!same_figure(got.p50, want.p50) || !same_figure(got.p95, want.p95))
		fail_msg("size %zu shape %d: p50 %.17g p95 %.17g, want %.17g %.17g", n, shape,
			 got.p50, got.p95, want.p50, want.p95);
}

/*
 * metrics_percentiles_of (selected, not sorted) gives metrics_dist_of's
 * p50 and p95 bit for bit, and n; the mean is NAN.
 */
static void percentiles_match_dist_of(void **state)
{
	UNUSED(state);
	each_shape(4242, check_percentiles);
}

static void saving(void **state)
{
	UNUSED(state);
	assert_true(metrics_saving(80, 640) == 0.875);
	assert_true(metrics_saving(640, 640) == 0);
	assert_true(metrics_saving(700, 560) == -0.25);
	assert_true(isnan(metrics_saving(NAN, 10)));
	assert_true(isnan(metrics_saving(10, NAN)));
	assert_true(isnan(metrics_saving(10, 0)));
}

/* A window that passes every default criterion. */
static void good_metrics(struct metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->shadow_days = 7;
	m->pairs = 50;
	m->escapes = 2;
	m->escapes_explained = 2;
	m->affected.p50 = 0.6;
	m->saving_p95 = 0.1;
	m->diff_coverage.p50 = 0.7;
	m->confidence = 0.95;
	m->escape_target = 0.05;
	m->escape_bounds.upper = 0.049;
	m->identity_share = 1;
}

static const struct metrics_criterion *find(const struct metrics_gate *g, const char *name)
{
	for (size_t i = 0; i < g->nr; i++)
		if (!strcmp(g->criteria[i].name, name))
			return &g->criteria[i];
	return NULL;
}

static void gate_defaults(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;
	const struct metrics_criterion *k;

	UNUSED(state);
	good_metrics(&m);
	metrics_gate_check(&m, &c, &g);
	assert_int_equal(g.nr, 9);
	assert_true(g.go);
	k = find(&g, "unexplained_escapes");
	assert_non_null(k);
	assert_true(k->value == 0 && k->threshold == 0 && k->op == OP_LE && k->pass);
	k = find(&g, "affected_fraction_p50");
	assert_true(k->threshold == 0.6 && k->pass); /* equal to the bound passes */
	k = find(&g, "diff_coverage_p50");
	assert_true(k->advisory && k->pass && k->threshold == 0.7);
	k = find(&g, "wall_clock_p95_saving");
	assert_true(k->op == OP_GT && k->threshold == 0 && k->pass);
	assert_string_equal(metrics_op_name(k->op), ">");
	k = find(&g, "escape_rate_upper");
	assert_true(k->op == OP_LE && k->threshold == 0.05 && k->value == 0.049 &&
		    k->pass && !k->advisory && k->decimals == 4);
	assert_string_equal(k->label, "escape rate upper bound (95%)");
	k = find(&g, "verifier_changed");
	assert_true(k->advisory && k->pass && k->value == 0 && k->integer);
}

/* The escape rate's upper bound decides; the verifier check only advises. */
static void gate_upper_bound(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;

	UNUSED(state);
	good_metrics(&m);
	m.escape_bounds.upper = 0.05; /* at the target passes */
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	m.escape_bounds.upper = 0.0582; /* 0 of 50 at 95% */
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	assert_false(find(&g, "escape_rate_upper")->pass);
	m.escape_bounds.upper = NAN; /* no pairs: no bound, no GO */
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	good_metrics(&m);
	m.escape_target = 0.1;
	m.escape_bounds.upper = 0.0582;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	m.confidence = 0.99;
	metrics_gate_check(&m, &c, &g);
	assert_string_equal(find(&g, "escape_rate_upper")->label,
			    "escape rate upper bound (99%)");
	m.verifier_heads = 2;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	assert_false(find(&g, "verifier_changed")->pass);
}

static void gate_failures(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;

	UNUSED(state);
	/* One unexplained escape is one too many. */
	good_metrics(&m);
	m.escapes_explained = 1;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	assert_false(find(&g, "unexplained_escapes")->pass);
	/* Too few days or pairs. */
	good_metrics(&m);
	m.shadow_days = 6;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	good_metrics(&m);
	m.pairs = 49;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	/* No saving: shadow p95 equal to full p95 fails (strictly below). */
	good_metrics(&m);
	m.saving_p95 = 0;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	/* n/a fails: no shadow runs means no affected fraction. */
	good_metrics(&m);
	m.affected.p50 = NAN;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	assert_false(find(&g, "affected_fraction_p50")->pass);
	good_metrics(&m);
	m.saving_p95 = NAN;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
}

static void gate_identity(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;
	const struct metrics_criterion *k;

	UNUSED(state);
	good_metrics(&m);
	m.identity_share = 0.99;
	metrics_gate_check(&m, &c, &g);
	k = find(&g, "identity_resolved");
	assert_true(g.go && k->pass && k->threshold == 0.99 && !k->advisory && k->op == OP_GE);
	/* Not advisory: an escape on an unresolved id is not evidence. */
	m.identity_share = 0.98;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	assert_false(find(&g, "identity_resolved")->pass);
	/* No failing tests: n/a, and it passes. */
	m.identity_share = NAN;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	assert_true(find(&g, "identity_resolved")->pass);
	c.min_identity = 0.9;
	m.identity_share = 0.95;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
}

static void gate_advisory(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;

	UNUSED(state);
	good_metrics(&m);
	m.diff_coverage.p50 = NAN;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	assert_false(find(&g, "diff_coverage_p50")->pass);
	m.diff_coverage.p50 = 0.69;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	c.strict = true;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	assert_false(find(&g, "diff_coverage_p50")->advisory);
}

static void gate_configured(void **state)
{
	struct metrics_criteria c = METRICS_CRITERIA_INIT;
	struct metrics m;
	struct metrics_gate g;

	UNUSED(state);
	good_metrics(&m);
	m.escapes_explained = 0;
	m.saving_p95 = NAN;
	c.max_escapes = 2;
	c.p95_saving = false;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
	assert_int_equal(g.nr, 8);
	assert_null(find(&g, "wall_clock_p95_saving"));
	c.p95_saving = true;
	c.min_p95_saving = 0.2;
	m.saving_p95 = 0.2;
	metrics_gate_check(&m, &c, &g);
	assert_false(g.go);
	m.saving_p95 = 0.25;
	metrics_gate_check(&m, &c, &g);
	assert_true(g.go);
}

static void assert_same_list(const struct strlist *a, const struct strlist *b)
{
	assert_int_equal(a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++)
		assert_string_equal(a->items[i], b->items[i]);
}

/* A pair's facts come back from their blob as they went in; a cut blob is corrupt. */
static void pair_facts_blob(void **state)
{
	struct pair_facts f = PAIR_FACTS_INIT, g = PAIR_FACTS_INIT;
	struct strbuf blob = STRBUF_INIT;
	struct pair_fact_row row = { 42, "org/repo", -5, NULL, 0 };

	UNUSED(state);
	snprintf(f.sha, sizeof(f.sha), "%s", "0123456789abcdef0123456789abcdef01234567");
	f.has_pr = true, f.pr = INT64_MAX, f.cls = CLASS_INCOMPLETE;
	f.why = xstrdup("no full run");
	f.shadow_attempts = 2, f.full_attempts = 0, f.decision = DECISION_RUN_ALL;
	f.affected = 1.0, f.shadow_wall_s = NAN, f.full_wall_s = -0.0, f.diff_coverage = 0.25;
	f.quarantined = 3, f.flaky = 1, f.failing = 7, f.resolved = 5, f.by_name = INT64_MIN;
	f.has_entries = true, f.has_unmatched = true;
	f.entries_total = 1000000, f.entries_unresolved = 2, f.entries_unmatched = 1;
	strlist_push(&f.reasons, "force-full:**/*.lock");
	strlist_push(&f.reasons, "");
	strlist_push(&f.unresolved, "tests/x.py::t");
	strlist_push(&f.missed, "a::b");
	strlist_push(&f.non_hermetic, "\x1b[31m::evil");
	pair_facts_encode(&f, &blob);
	row.data = blob.buf, row.len = blob.len;
	assert_int_equal(pair_facts_decode(&row, &g), 0);
	assert_int_equal(g.head_id, 42);
	assert_int_equal(g.at, -5);
	assert_string_equal(g.repo, "org/repo");
	assert_string_equal(g.sha, f.sha);
	assert_true(g.has_pr && g.pr == INT64_MAX && g.cls == CLASS_INCOMPLETE);
	assert_string_equal(g.why, "no full run");
	assert_true(g.shadow_attempts == 2 && g.full_attempts == 0 &&
		    g.decision == DECISION_RUN_ALL);
	assert_true(g.affected == 1.0 && isnan(g.shadow_wall_s) && g.diff_coverage == 0.25);
	assert_true(g.full_wall_s == 0 && signbit(g.full_wall_s));
	assert_true(g.quarantined == 3 && g.flaky == 1 && g.failing == 7 && g.resolved == 5 &&
		    g.by_name == INT64_MIN);
	assert_true(g.has_entries && g.has_unmatched && g.entries_total == 1000000 &&
		    g.entries_unresolved == 2 && g.entries_unmatched == 1);
	assert_same_list(&f.reasons, &g.reasons);
	assert_same_list(&f.unresolved, &g.unresolved);
	assert_same_list(&f.missed, &g.missed);
	assert_same_list(&f.non_hermetic, &g.non_hermetic);
	/* Decoding into facts that hold a pair already leaves none of it behind. */
	free(f.why);
	f.why = NULL, f.has_entries = f.has_unmatched = false, f.pr = 3;
	f.entries_total = f.entries_unresolved = f.entries_unmatched = 0;
	strlist_release(&f.missed);
	strbuf_reset(&blob);
	pair_facts_encode(&f, &blob);
	row.data = blob.buf, row.len = blob.len;
	assert_int_equal(pair_facts_decode(&row, &g), 0);
	assert_null(g.why);
	assert_int_equal(g.pr, 3);
	assert_false(g.has_entries);
	assert_int_equal(g.entries_total, 0);
	assert_int_equal(g.missed.nr, 0);
	for (size_t n = 0; n < blob.len; n++) {
		row.len = n;
		assert_int_equal(pair_facts_decode(&row, &g), -1);
	}
	/* A class beyond the last one is corrupt, not an index out of range. */
	assert_int_equal(blob.buf[2], CLASS_INCOMPLETE * 2); /* flags, pr, then the class */
	blob.buf[2] = 0x7e;
	row.len = blob.len;
	assert_int_equal(pair_facts_decode(&row, &g), -1);
	pair_facts_release(&f);
	pair_facts_release(&g);
	strbuf_release(&blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(percentile_small),
		cmocka_unit_test(percentile_numpy_docs),
		cmocka_unit_test(percentile_stays_between_neighbours),
		cmocka_unit_test(dist_of),
		cmocka_unit_test(bag_matches_dist_of),
		cmocka_unit_test(sort_matches_qsort),
		cmocka_unit_test(quantile_matches_percentile),
		cmocka_unit_test(percentiles_match_dist_of),
		cmocka_unit_test(saving),
		cmocka_unit_test(gate_defaults),
		cmocka_unit_test(gate_failures),
		cmocka_unit_test(gate_advisory),
		cmocka_unit_test(gate_identity),
		cmocka_unit_test(gate_configured),
		cmocka_unit_test(gate_upper_bound),
		cmocka_unit_test(pair_facts_blob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
