#!/bin/bash
# What a narrowed shadow run answered, read against its paired full run
# (SPEC 4): a selection naming every test the full run ran is a whole-suite
# answer (run_all, reason whole-suite); without total_tests the full run's
# test count is the total. Decided at classification, whichever run came first.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/tui/lib.sh"

# nosel ENTRY...: a narrowed selection with no counts, as a plain list gives.
nosel() {
	local entries="" e
	for e in "$@"; do
		entries="$entries${entries:+, }\"$e\""
	done
	printf '{"decision": "selected", "selected": [%s]}' "$entries"
}

test_expect_success 'setup: five pairs, the shadow run of PR 4 not yet ingested' '
	MREPO_TESTS="tests/a.py tests/b.py tests/c.py" mrepo 5 &&
	# 1: names both tests the full run ran, no counts: whole-suite
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 300 pass "$(nosel tests/a.py tests/b.py)" tests/a.py::t tests/b.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 pass - tests/a.py::t tests/b.py::t &&
	# 2: names 1 of the 4 tests the full run ran, no counts: 1 of 4
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 60 pass "$(nosel tests/a.py)" tests/a.py::t &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 600 pass - tests/a.py::t tests/b.py::t tests/c.py::t tests/c.py::u &&
	# 3: the same answer with the manifest counts 1 of 10: the manifest wins
	mrun a/3s 3 shadow 1 2026-11-01T10:00:00Z 90 pass "$(sel selected 1 10 tests/a.py)" tests/a.py::t &&
	mrun a/3f 3 full 1 2026-11-01T10:05:00Z 600 pass - tests/a.py::t tests/b.py::t &&
	# 4: whole-suite, its full run ingested first
	mrun b/4f 4 full 1 2026-11-02T08:05:00Z 600 pass - tests/a.py::t tests/b.py::t tests/c.py::t &&
	mrun a/4f 4 full 1 2026-11-02T08:05:00Z 600 pass - tests/a.py::t tests/b.py::t tests/c.py::t &&
	mrun c/4s 4 shadow 1 2026-11-02T08:00:00Z 420 pass "$(nosel tests/a.py tests/b.py tests/c.py)" tests/a.py::t &&
	# 5: names every test the full run ran, but its own counts say 5 of 100
	mrun a/5s 5 shadow 1 2026-11-02T09:00:00Z 45 pass "$(sel selected 5 100 tests/a.py)" tests/a.py::t &&
	mrun a/5f 5 full 1 2026-11-02T09:05:00Z 600 pass - tests/a.py::t &&
	rm -r a/4f &&
	tiadash --db s.db --repo repo ingest a b >out &&
	echo "9 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'before the shadow run of PR 4: four pairs, one whole-suite answer' '
	tiadash --db s.db report --format json >r0.json &&
	json_close r0.json "[d[\"pairs\"], d[\"force_full\"][\"count\"]]" "[4, 1]" &&
	json_close r0.json "d[\"force_full\"][\"by_reason\"]" "{\"whole-suite\": 1}" &&
	json_close r0.json "d[\"incomplete\"][\"by_reason\"]" "{\"no shadow run\": 1}"
'

test_expect_success 'the shadow run ingested after its full run is a whole-suite answer too' '
	tiadash --db s.db --repo repo ingest c >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	tiadash --db s.db report --format json >r.json &&
	json_close r.json "d[\"pairs\"]" 5 &&
	json_close r.json "d[\"classes\"][\"agree\"]" 5 &&
	# force-full: PRs 1 and 4 of 5
	json_close r.json "d[\"force_full\"][\"count\"]" 2 &&
	json_close r.json "d[\"force_full\"][\"rate\"]" 0.4 &&
	json_close r.json "d[\"force_full\"][\"by_reason\"]" "{\"whole-suite\": 2}" &&
	# narrowed wall-clock 45 60 90 -> p50 60; (300-60 + 420-60) / 60 minutes
	json_close r.json "d[\"force_full\"][\"narrowed_wall_clock_p50\"]" 60 &&
	json_close r.json "d[\"force_full\"][\"minutes_by_reason\"]" "{\"whole-suite\": 10.0}"
'

test_expect_success 'affected fraction: the full run gives the total, never null' '
	# 1 .25 .1 1 .05 -> sorted .05 .1 .25 1 1: p50 .25, mean 2.4/5
	json_close r.json "d[\"affected_fraction\"][\"p50\"]" 0.25 &&
	json_close r.json "d[\"affected_fraction\"][\"mean\"]" 0.48 &&
	json_close r.json "d[\"affected_fraction\"][\"runs\"]" 5 &&
	# narrowed .05 .1 .25
	json_close r.json "d[\"affected_fraction\"][\"narrowed_p50\"]" 0.1
'

test_expect_success 'show: the answer as its pair reads it' '
	tiadash --db s.db show 1 --format json >s1.json &&
	json_close s1.json "[d[\"selection\"][k] for k in (\"decision\", \"reasons\", \"selected_count\", \"total_tests\", \"affected_fraction\")]" \
		"[\"run_all\", [\"whole-suite\"], 2, 2, 1.0]" &&
	json_close s1.json "d[\"selection\"][\"entries\"]" "[\"tests/a.py\", \"tests/b.py\"]" &&
	tiadash --db s.db show 2 --format json >s2.json &&
	json_close s2.json "[d[\"selection\"][k] for k in (\"decision\", \"reasons\", \"selected_count\", \"total_tests\", \"affected_fraction\")]" \
		"[\"selected\", [], 1, 4, 0.25]" &&
	tiadash --db s.db show 3 --format json >s3.json &&
	json_close s3.json "[d[\"selection\"][k] for k in (\"decision\", \"selected_count\", \"total_tests\", \"affected_fraction\")]" \
		"[\"selected\", 1, 10, 0.1]" &&
	tiadash --db s.db show 5 --format json >s5.json &&
	json_close s5.json "[d[\"selection\"][k] for k in (\"decision\", \"selected_count\", \"total_tests\")]" \
		"[\"selected\", 5, 100]" &&
	tiadash --db s.db show 2 >s2.txt &&
	grep "^selection" s2.txt >actual &&
	echo "selection   selected, 1 of 4 tests (affected 0.25)" >expect &&
	test_cmp expect actual
'

test_expect_success 'csv rows and the text report agree with the json' '
	tiadash --db s.db report --format csv >r.csv &&
	python3 -c "import csv,sys; [print(r[\"pr\"], r[\"decision\"], r[\"affected_fraction\"]) for r in csv.DictReader(open(\"r.csv\"))]" >actual &&
	cat >expect <<-\EOF &&
	1 run_all 1
	2 selected 0.25
	3 selected 0.10000000000000001
	4 run_all 1
	5 selected 0.050000000000000003
	EOF
	test_cmp expect actual &&
	tiadash --db s.db report >r.txt &&
	sed -n "/^Affected/,/^Escapes/p" r.txt >actual &&
	# saved: 5 x 600 - (300 + 60 + 90 + 420 + 45) s = 34.75 min in 2 days;
	# the whole-suite runs gave back (300-60 + 420-60) s = 10 min
	cat >expect <<-\EOF &&
	Affected     p50 0.250  p95 1.000  mean 0.480  (5 runs)
	  narrowed   p50 0.100  p95 0.235  mean 0.133  (3 runs)
	Wall-clock                  p50       p95
	             shadow        90 s     396 s  (5 runs)
	             full         600 s     600 s  (5 runs)
	             saving       85.0%     34.0%
	Saved        34.8 of 50.0 gate minutes over 5 pairs (121.6 a week)
	             force-full runs gave back 10.0 minutes (22.3% of the saving)
	The trade    the cheap gate saves about 2.0 runner-hours a week and lets through
	             about 0.0 regressions a week (at most 7.9 at 95%)
	Force-full   2 of 5 shadow runs (40.0%); narrowed p50 60 s
	               runs   minutes  reason (minutes beyond the narrowed p50)
	                  2      10.0  whole-suite
	Escapes      0 of 5 pairs (0.00%); 0 explained, 0 non-hermetic
	EOF
	test_cmp expect actual
'

test_expect_success 'gate-check and summary read the same answers' '
	test_expect_code 1 tiadash --db s.db gate-check --since 2026-11-01 --format json >g.json &&
	json_close g.json "[c[\"value\"] for c in d[\"criteria\"] if c[\"name\"] == \"affected_fraction_p50\"]" "[0.25]" &&
	tiadash --db s.db summary --since 2026-11-01 --format json >m.json &&
	json_close m.json "[d[\"pairs\"], d[\"force_full\"][\"count\"], d[\"force_full\"][\"rate\"]]" "[5, 2, 0.4]"
'

test_expect_success 'the dashboard: the runs view and the detail read the same answers' '
	steps "2" ":save-display runs.screen" "<Enter>" ":save-display detail.screen" &&
	TUI_DB=s.db TUI_REPO=repo tui --since 2026-11-01 &&
	sed -n "3,7p" runs.screen >runs.rows &&
	assert_screen runs.rows <<-\EOF &&
	11-01 08:00     #1 30a17a8 agree        run_all  1.000  300 s  600 s   n/a
	11-01 09:00     #2 cda27cb agree        selected 0.250   60 s  600 s   n/a
	11-01 10:00     #3 edb32ea agree        selected 0.100   90 s  600 s   n/a
	11-02 08:00     #4 feadb51 agree        run_all  1.000  420 s  600 s   n/a
	11-02 09:00     #5 7ffa06c agree        selected 0.050   45 s  600 s   n/a
	EOF
	sed -n "3,5p;10,11p" detail.screen >detail.rows &&
	assert_screen detail.rows <<-\EOF
	class       agree
	selection   run_all, 2 of 2 tests (affected 1.000)
	reasons     whole-suite
	selected    tests/a.py
	            tests/b.py
	EOF
'

test_done
