#!/bin/bash
# report --by day|week|month: the headline figures per period, worked out by
# hand (the comments), in every format, and the page in headless Chromium.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# Twenty pairs over the 14 days from Monday 2026-10-26: pair i on day
# floor(0.7 i), so days 0 0 1 2 2 3 4 4 5 6 | 7 7 8 9 9 10 11 11 12 13
# (week from 10-26: pairs 0-9; from 11-02: 10-19; October: days 0-5, pairs
# 0-8). Pairs 0 and 1 escape; the last four shadow runs are run_all.
test_expect_success 'setup: twenty pairs over two weeks and two months' '
	gen_pairs a 1 20 2 2026-10-26 14 0 4 &&
	tiadash --db s.db ingest a >out &&
	echo "40 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'json by week: two weeks, each with its counts, rates and bounds' '
	tiadash --db s.db report --by week --format json >w.json &&
	json_close w.json "d[\"by\"]" "\"week\"" &&
	json_close w.json "[[p[\"start\"], p[\"end\"], p[\"partial\"], p[\"pairs\"], p[\"escapes\"], p[\"force_full\"]] for p in d[\"periods\"]]" \
		"[[\"2026-10-26T00:00:00Z\", \"2026-11-02T00:00:00Z\", false, 10, 2, 0],
		  [\"2026-11-02T00:00:00Z\", \"2026-11-09T00:00:00Z\", false, 10, 0, 4]]" &&
	json_close w.json "d[\"periods\"][0][\"escape_rate\"]" 0.2 &&
	json_close w.json "d[\"periods\"][0][\"rate_upper\"]" "$(ref upper 2 10 0.95)" &&
	json_close w.json "d[\"periods\"][1][\"force_full_rate\"]" 0.4 &&
	# affected: selected 1 of 10 = 0.1, run_all 1.0: week 2 is 6 x 0.1, 4 x 1 -> p50 0.1
	json_close w.json "d[\"periods\"][1][\"affected_p50\"]" 0.1
'

test_expect_success 'json by month: October ends after pair 8' '
	tiadash --db s.db report --by month --format json >m.json &&
	json_close m.json "[[p[\"start\"], p[\"pairs\"], p[\"escapes\"], p[\"force_full\"]] for p in d[\"periods\"]]" \
		"[[\"2026-10-01T00:00:00Z\", 9, 2, 0], [\"2026-11-01T00:00:00Z\", 11, 0, 4]]" &&
	json_close m.json "d[\"periods\"][1][\"force_full_rate\"]" 0.36363636363636365
'

test_expect_success 'by day: every day of the window, empty days too; a window cut inside a day is partial' '
	tiadash --db s.db report --by day --since 2026-10-26T12:00:00Z --until 2026-10-31 --format json >d.json &&
	# days 0-4: pair 0 at 00:00 (out), pair 1 at 16:48 of day 0; then 1, 2, 1, 2
	json_close d.json "[[p[\"start\"][:10], p[\"partial\"], p[\"pairs\"]] for p in d[\"periods\"]]" \
		"[[\"2026-10-26\", true, 1], [\"2026-10-27\", false, 1], [\"2026-10-28\", false, 2],
		  [\"2026-10-29\", false, 1], [\"2026-10-30\", false, 2]]" &&
	json_close d.json "d[\"periods\"][0][\"escape_rate\"]" 1 &&
	tiadash --db s.db report --by day --since 2026-11-08 --until 2026-11-10 --format json >e.json &&
	json_close e.json "[[p[\"start\"][:10], p[\"pairs\"], p[\"escape_rate\"], p[\"affected_p50\"]] for p in d[\"periods\"]]" \
		"[[\"2026-11-08\", 1, 0.0, 1.0], [\"2026-11-09\", 0, null, null]]"
'

test_expect_success 'text: a row per period within 80 columns, a partial one marked' '
	tiadash --db s.db report --by week --since 2026-10-28 >w.txt &&
	cat >expect <<-\EOF &&
	report by week: 2026-10-28T00:00:00Z .. -, all repos

	week from    pairs  escapes    rate force-full affected shadow p95 diff cov
	2026-10-26*      7        0   0.00%       0.0%    0.100       60 s      n/a
	2026-11-02      10        0   0.00%      40.0%    0.100       60 s      n/a

	* the window starts or ends inside this week
	EOF
	test_cmp expect w.txt
'

test_expect_success 'md and csv: the same rows' '
	tiadash --db s.db report --by week --format md >w.md &&
	test_grep "^| 2026-10-26 | 10 | 2 | 20.00% | \[2.5%, 55.6%\] | 0.0% | 0.100 | 60 s | n/a |$" w.md &&
	tiadash --db s.db report --by month --format csv >m.csv &&
	test "$(head -1 m.csv)" = "start,end,partial,heads,pairs,escapes,escape_rate,escape_rate_upper,escape_rate_ci_lower,escape_rate_ci_upper,shadow_runs,force_full,force_full_rate,affected_p50,shadow_wall_clock_p95,diff_coverage_mean" &&
	test "$(sed -n 2p m.csv | cut -d, -f1-7)" = "2026-10-01T00:00:00Z,2026-11-01T00:00:00Z,no,9,9,2,0.22222222222222221"
'

test_expect_success 'html: a chart per figure and the table, every figure as in json' '
	tiadash --db s.db report --by week --format html -o w.html &&
	for id in escape-rate force-full affected shadow-p95 diff-coverage; do
		test_grep "id=\"chart-$id\"" w.html || return 1
	done &&
	test_grep "data-key=\"periods.1.force_full_rate\"" w.html &&
	! grep -q "<script" w.html
'

test_expect_success 'usage: --by takes day, week or month' '
	test_expect_code 2 tiadash --db s.db report --by year 2>err &&
	test_grep "bad value .year. for --by (day, week or month)" err
'

test_done
