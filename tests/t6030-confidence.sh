#!/bin/bash
# Confidence: the exact (Clopper-Pearson) bounds of the escape, over-strict
# and force-full rates, the clean pairs still needed, and gate-check deciding
# on the upper bound; every value against tests/stats_ref.py, which bisects
# the exact binomial CDF in rational arithmetic.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

ingest_quiet() {
	tiadash --db "$1" ingest "$2" >/dev/null 2>ingest.err
}

test_expect_success 'setup: 50 clean pairs over seven days' '
	gen_pairs w50 1 50 0 2026-11-01 7 &&
	ingest_quiet a.db w50
'

test_expect_success '0 of 50: upper 0.05816 at 95%, 9 more clean pairs for 0.05' '
	tiadash --db a.db report --format json >a.json &&
	json_close a.json "d[\"escapes\"][\"rate_upper\"]" "$(ref upper 0 50 0.95)" &&
	json_close a.json "round(d[\"escapes\"][\"rate_upper\"], 5)" 0.05816 &&
	json_close a.json "d[\"escapes\"][\"rate_ci\"][0]" 0 &&
	json_close a.json "d[\"escapes\"][\"rate_ci\"][1]" "$(ref interval 0 50 0.95 | cut -d" " -f2)" &&
	test "$(ref needed 0 50 0.95 0.05)" = 9 &&
	json_close a.json "[d[\"escapes\"][k] for k in (\"pairs_needed\", \"days_needed\")]" "[9, 2]" &&
	tiadash --db a.db report >a.txt &&
	test_grep "^  escape rate                              0.00%    5.82%  \[0.00%, 7.11%\]$" a.txt &&
	test_grep "^Clean pairs  9 more bring the escape rate.s upper bound to 5.00%$" a.txt &&
	test_grep "^             (about 2 days at this window.s rate)$" a.txt
'

test_expect_success 'gate-check: NO-GO on the bound alone, and how much longer' '
	test_expect_code 1 tiadash --db a.db gate-check --no-p95-saving >g.txt &&
	test_grep "^escape rate upper bound (95%)           <= 0.0500    0.0582  FAIL$" g.txt &&
	test "$(grep -c "  FAIL$" g.txt)" = 1 &&
	test_grep "^escape rate: 9 more clean pairs (about 2 days at this window.s rate)$" g.txt &&
	test_expect_code 1 tiadash --db a.db gate-check --no-p95-saving --format json >g.json &&
	json_close g.json "[d[\"pairs_needed\"], d[\"days_needed\"]]" "[9, 2]"
'

test_expect_success '9 more clean pairs, 59 in all: the bound reaches 0.05, GO' '
	gen_pairs w9 51 9 0 2026-11-07 1 &&
	ingest_quiet a.db w9 &&
	tiadash --db a.db gate-check --no-p95-saving >go.txt &&
	test "$(sed -n "/^GO$/p" go.txt)" = GO &&
	tiadash --db a.db gate-check --no-p95-saving --format json >go.json &&
	json_close go.json "d[\"criteria\"][3][\"value\"]" "$(ref upper 0 59 0.95)" &&
	json_close go.json "[d[\"criteria\"][3][\"pass\"], d[\"pairs_needed\"]]" "[true, 0]"
'

test_expect_success 'setup: 214 pairs, 3 escapes, 5 over-strict, 60 forced full' '
	gen_pairs w214 1 214 3 2026-11-01 7 5 60 &&
	ingest_quiet b.db w214
'

for c in 0.90 0.95 0.99; do
	test_expect_success "3 of 214 at $c: the bounds of three rates as computed independently" "
		tiadash --db b.db report --confidence $c --format json >b.json &&
		json_close b.json 'd[\"escapes\"][\"rate\"]' $(python3 -c 'print(3/214)') &&
		json_close b.json 'd[\"escapes\"][\"rate_upper\"]' $(ref upper 3 214 $c) &&
		json_close b.json 'd[\"escapes\"][\"rate_ci\"][0]' $(ref interval 3 214 $c | cut -d' ' -f1) &&
		json_close b.json 'd[\"escapes\"][\"rate_ci\"][1]' $(ref interval 3 214 $c | cut -d' ' -f2) &&
		json_close b.json 'd[\"escapes\"][\"pairs_needed\"]' $(ref needed 3 214 $c 0.05) &&
		json_close b.json 'd[\"escapes\"][\"confidence\"]' $c &&
		json_close b.json 'd[\"over_strict\"][\"rate_upper\"]' $(ref upper 5 214 $c) &&
		json_close b.json 'd[\"over_strict\"][\"rate_ci\"][0]' $(ref interval 5 214 $c | cut -d' ' -f1) &&
		json_close b.json 'd[\"force_full\"][\"rate_upper\"]' $(ref upper 60 214 $c) &&
		json_close b.json 'd[\"force_full\"][\"rate_ci\"][1]' $(ref interval 60 214 $c | cut -d' ' -f2)
	"
done

test_expect_success '--escape-target moves what the clean pairs count towards' '
	tiadash --db b.db report --escape-target 0.02 --format json >t.json &&
	json_close t.json "d[\"escapes\"][\"pairs_needed\"]" "$(ref needed 3 214 0.95 0.02)" &&
	test_expect_code 1 tiadash --db b.db gate-check --escape-target 0.02 --format json >t2.json &&
	json_close t2.json "[c[\"threshold\"] for c in d[\"criteria\"] if c[\"name\"] == \"escape_rate_upper\"]" "[0.02]"
'

test_expect_success 'x = n: every pair escaped; the bound is 1' '
	gen_pairs wall 1 4 4 2026-11-01 1 &&
	ingest_quiet c.db wall &&
	tiadash --db c.db report --format json >c.json &&
	json_close c.json "[d[\"escapes\"][\"rate\"], d[\"escapes\"][\"rate_upper\"], d[\"escapes\"][\"rate_ci\"][1]]" "[1, 1, 1]" &&
	json_close c.json "d[\"escapes\"][\"rate_ci\"][0]" "$(ref interval 4 4 0.95 | cut -d" " -f1)" &&
	json_close c.json "d[\"escapes\"][\"pairs_needed\"]" "$(ref needed 4 4 0.95 0.05)"
'

test_expect_success 'per day: the escape rate with its band (md and json)' '
	tiadash --db b.db report --format json >d.json &&
	json_close d.json "[[x[\"pairs\"], x[\"escapes\"]] for x in d[\"days\"]][:2]" "[[31, 3], [31, 0]]" &&
	json_close d.json "d[\"days\"][0][\"rate_upper\"]" "$(ref upper 3 31 0.95)" &&
	json_close d.json "d[\"days\"][0][\"rate_ci\"][0]" "$(ref interval 3 31 0.95 | cut -d" " -f1)" &&
	json_close d.json "d[\"days\"][1][\"rate_ci\"][1]" "$(ref interval 0 31 0.95 | cut -d" " -f2)" &&
	tiadash --db b.db report --format md >d.md &&
	test_grep "^| 2026-11-01 |  *31 |  *3 | .* | 9.68% | \[2.04%, 25.75%\] |$" d.md
'

test_expect_success 'usage: only the three confidences' '
	test_expect_code 2 tiadash --db b.db report --confidence 0.8 2>err &&
	test_grep "expected 0.90, 0.95 or 0.99" err &&
	test_expect_code 2 tiadash --db b.db report --escape-target 1 2>err &&
	tiadash --db b.db report --confidence 0.9 --format json >n.json &&
	json_close n.json "d[\"confidence\"]" 0.9
'

test_done
