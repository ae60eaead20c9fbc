#!/bin/bash
# report on small edge-case stores: nothing in the window, one run, every
# run forced full, one-sided pairs, no full runs, missing wall-clocks,
# reruns. Undefined figures are null (json) and n/a (text), never 0.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: repository' '
	mrepo 6
'

test_expect_success 'empty store: nulls, zero counts, no days' '
	tiadash --db empty.db init >/dev/null &&
	tiadash --db empty.db report --format json >e.json &&
	json_close e.json "[d[k] for k in (\"shadow_runs\", \"full_runs\", \"pairs\", \"heads\")]" "[0, 0, 0, 0]" &&
	json_close e.json "d[\"affected_fraction\"]" \
		"{\"p50\": null, \"p95\": null, \"mean\": null, \"narrowed_p50\": null, \"narrowed_p95\": null, \"narrowed_mean\": null, \"runs\": 0, \"narrowed_runs\": 0}" &&
	json_close e.json "d[\"wall_clock_s\"]" \
		"{\"shadow\": {\"p50\": null, \"p95\": null, \"runs\": 0}, \"full\": {\"p50\": null, \"p95\": null, \"runs\": 0}, \"saving\": {\"p50\": null, \"p95\": null}}" &&
	json_close e.json "[d[\"force_full\"][k] for k in (\"count\", \"rate\", \"by_reason\")]" "[0, null, {}]" &&
	json_close e.json "[d[\"escapes\"][k] for k in (\"count\", \"rate\", \"prs\")]" "[0, null, []]" &&
	json_close e.json "d[\"diff_coverage\"]" \
		"{\"p50\": null, \"mean\": null, \"below_threshold\": 0, \"threshold\": 0.7, \"runs\": 0}" &&
	json_close e.json "d[\"days\"]" "[]" &&
	# 0/0: no bound; 59 clean pairs from nothing bring it to 5%
	json_close e.json "[d[\"escapes\"][k] for k in (\"rate_upper\", \"rate_ci\", \"pairs_needed\", \"days_needed\")]" "[null, null, 59, null]" &&
	json_close e.json "[d[\"over_strict\"][k] for k in (\"rate\", \"rate_upper\", \"rate_ci\")]" "[null, null, null]" &&
	json_close e.json "d[\"trend\"]" "{\"previous_rate\": null, \"rate\": null, \"p_value\": null, \"direction\": null, \"previous\": null}" &&
	json_close e.json "[d[\"blind_spots\"][k] for k in (\"never_selected\", \"failed_in_full\", \"full_runs\")]" "[null, null, 0]" &&
	json_close e.json "d[\"verifier_changed\"]" "{\"count\": 0, \"list\": []}"
'

test_expect_success 'empty bounded window: one empty entry per day' '
	tiadash --db empty.db report --since 2026-11-01 --until 2026-11-03 --format json >eb.json &&
	json_close eb.json "d[\"days\"]" "[{\"date\": \"2026-11-01\", \"heads\": 0, \"pairs\": 0, \"escapes\": 0, \"escape_rate\": null, \"shadow_runs\": 0, \"force_full\": 0, \"force_full_rate\": null, \"affected_p50\": null, \"shadow_wall_clock_p95\": null, \"diff_coverage_mean\": null, \"rate_upper\": null, \"rate_ci\": null}, {\"date\": \"2026-11-02\", \"heads\": 0, \"pairs\": 0, \"escapes\": 0, \"escape_rate\": null, \"shadow_runs\": 0, \"force_full\": 0, \"force_full_rate\": null, \"affected_p50\": null, \"shadow_wall_clock_p95\": null, \"diff_coverage_mean\": null, \"rate_upper\": null, \"rate_ci\": null}]"
'

test_expect_success 'empty store: text says n/a' '
	tiadash --db empty.db report >e.txt &&
	test_grep "^Affected     p50 n/a  p95 n/a  mean n/a  (0 runs)$" e.txt &&
	test_grep "^Escapes      0 of 0 pairs (n/a); 0 explained, 0 non-hermetic$" e.txt &&
	test_grep "^Force-full   0 of 0 shadow runs (n/a); narrowed p50 n/a$" e.txt
'

test_expect_success 'one shadow run: its own figures, no pair, no escape rate' '
	mrun one/s 1 shadow 1 2026-11-02T10:00:00Z 42 pass "$(sel selected 25 100 tests/b.py)" tests/b.py::t &&
	tiadash --db one.db --repo repo ingest one >/dev/null &&
	tiadash --db one.db report --format json >o.json &&
	json_close o.json "[d[k] for k in (\"shadow_runs\", \"full_runs\", \"pairs\", \"heads\")]" "[1, 0, 0, 1]" &&
	json_close o.json "[d[\"affected_fraction\"][k] for k in (\"p50\", \"p95\", \"mean\", \"narrowed_p50\")]" "[0.25, 0.25, 0.25, 0.25]" &&
	json_close o.json "d[\"wall_clock_s\"][\"shadow\"]" "{\"p50\": 42, \"p95\": 42, \"runs\": 1}" &&
	json_close o.json "d[\"wall_clock_s\"][\"full\"][\"p50\"]" null &&
	json_close o.json "d[\"wall_clock_s\"][\"saving\"]" "{\"p50\": null, \"p95\": null}" &&
	json_close o.json "d[\"escapes\"][\"rate\"]" null &&
	json_close o.json "d[\"force_full\"][\"rate\"]" 0.0 &&
	json_close o.json "d[\"incomplete\"]" "{\"count\": 1, \"by_reason\": {\"no full run\": 1}}" &&
	json_close o.json "d[\"shadow_days\"]" 1 &&
	json_close o.json "[x[\"date\"] for x in d[\"days\"]]" "[\"2026-11-02\"]"
'

test_expect_success 'all force-full: rate 1, minutes n/a without a narrowed run' '
	mrun ff/1s 1 shadow 1 2026-11-02T10:00:00Z 600 pass "$(ffsel "force-full:**/*.lock" "force-full:**/*.lock" UNMAPPED_FILE)" &&
	mrun ff/1f 1 full 1 2026-11-02T10:00:00Z 610 pass - &&
	mrun ff/2s 2 shadow 1 2026-11-02T11:00:00Z 700 pass "{\"decision\": \"run_all\", \"total_tests\": 100}" &&
	mrun ff/2f 2 full 1 2026-11-02T11:00:00Z 690 pass - &&
	tiadash --db ff.db --repo repo ingest ff >/dev/null &&
	tiadash --db ff.db report --format json >f.json &&
	json_close f.json "[d[\"force_full\"][k] for k in (\"count\", \"rate\")]" "[2, 1.0]" &&
	json_close f.json "d[\"force_full\"][\"by_reason\"]" \
		"{\"(no reason)\": 1, \"UNMAPPED_FILE\": 1, \"force-full:**/*.lock\": 1}" &&
	json_close f.json "d[\"force_full\"][\"minutes_by_reason\"]" \
		"{\"(no reason)\": null, \"UNMAPPED_FILE\": null, \"force-full:**/*.lock\": null}" &&
	json_close f.json "d[\"force_full\"][\"narrowed_wall_clock_p50\"]" null &&
	json_close f.json "[d[\"affected_fraction\"][k] for k in (\"p50\", \"mean\", \"narrowed_p50\")]" "[1.0, 1.0, null]" &&
	tiadash --db ff.db report >f.txt &&
	test_grep "^                  1       n/a  UNMAPPED_FILE$" f.txt
'

test_expect_success 'one-sided heads: a full run alone is placed by its own start' '
	mrun side/1f 1 full 1 2026-11-03T05:00:00Z 600 fail - tests/a.py::t:failed &&
	mrun side/2s 2 shadow 1 2026-11-02T05:00:00Z 50 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	tiadash --db side.db --repo repo ingest side >/dev/null &&
	tiadash --db side.db report --since 2026-11-03 --format json >s.json &&
	json_close s.json "[d[k] for k in (\"shadow_runs\", \"full_runs\", \"pairs\", \"heads\")]" "[0, 1, 0, 1]" &&
	json_close s.json "d[\"incomplete\"]" "{\"count\": 1, \"by_reason\": {\"no shadow run\": 1}}" &&
	json_close s.json "[d[\"escapes\"][\"count\"], d[\"escapes\"][\"rate\"]]" "[0, null]" &&
	json_close s.json "[d[\"affected_fraction\"][\"p50\"], d[\"force_full\"][\"rate\"]]" "[null, null]" &&
	json_close s.json "d[\"wall_clock_s\"][\"full\"][\"p50\"]" 600 &&
	json_close s.json "d[\"shadow_days\"]" 0
'

test_expect_success 'a window with no full runs: full wall-clock and saving n/a' '
	tiadash --db side.db report --until 2026-11-03 --format json >nf.json &&
	json_close nf.json "[d[k] for k in (\"shadow_runs\", \"full_runs\", \"pairs\")]" "[1, 0, 0]" &&
	json_close nf.json "d[\"wall_clock_s\"]" \
		"{\"shadow\": {\"p50\": 50, \"p95\": 50, \"runs\": 1}, \"full\": {\"p50\": null, \"p95\": null, \"runs\": 0}, \"saving\": {\"p50\": null, \"p95\": null}}" &&
	tiadash --db side.db report --until 2026-11-03 >nf.txt &&
	test_grep "^             full           n/a       n/a  (0 runs)$" nf.txt &&
	test_grep "^             saving         n/a       n/a$" nf.txt
'

test_expect_success 'reruns: latest attempt for the figures, every attempt counted' '
	mrun re/1s 1 shadow 1 2026-11-02T10:00:00Z 100 fail "$(sel selected 40 100 tests/a.py)" tests/a.py::t:failed &&
	mrun re/1t 1 shadow 2 2026-11-02T10:30:00Z 30 pass "$(sel selected 20 100 tests/a.py)" tests/a.py::t &&
	mrun re/1f 1 full 1 2026-11-02T10:00:00Z - pass - tests/a.py::t &&
	mrun re/2s 2 shadow 1 2026-11-02T11:00:00Z 50 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun re/2f 2 full 1 2026-11-02T11:00:00Z 500 fail - tests/a.py::t:failed &&
	mrun re/2g 2 full 2 2026-11-02T11:30:00Z 520 fail - tests/a.py::t:failed &&
	tiadash --db re.db --repo repo ingest re >/dev/null &&
	tiadash --db re.db report --format json >re.json &&
	json_close re.json "[d[k] for k in (\"shadow_runs\", \"full_runs\", \"pairs\")]" "[3, 3, 2]" &&
	json_close re.json "d[\"affected_fraction\"][\"p50\"]" 0.15 &&
	json_close re.json "d[\"wall_clock_s\"][\"shadow\"][\"p50\"]" 40 &&
	# the full run of PR 1 has no wall-clock: only PR 2 (latest 520) counts
	json_close re.json "d[\"wall_clock_s\"][\"full\"]" "{\"p50\": 520, \"p95\": 520, \"runs\": 1}" &&
	json_close re.json "d[\"classes\"][\"non-hermetic\"]" 1 &&
	json_close re.json "d[\"escapes\"][\"prs\"]" "[2]"
'

test_expect_success 'every format of the empty store parses' '
	tiadash --db empty.db report --format csv >e.csv &&
	python3 -c "import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len(r) == 1 and len(r[0]) == 17, r" e.csv &&
	tiadash --db empty.db report --format md >e.md &&
	test_grep "^| escapes | 0 of 0 pairs (n/a), 0 explained, 0 non-hermetic |$" e.md
'

test_expect_success 'a missing store is an input error' '
	test_expect_code 2 tiadash --db nowhere.db report 2>err &&
	test_grep "nowhere.db" err
'

test_done
