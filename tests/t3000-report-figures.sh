#!/bin/bash
# report: every SPEC 4 figure of a small hand-made week, worked out by hand
# (the comments show the arithmetic), in all four formats.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: nine heads over three days' '
	mrepo 9 &&
	# PR 1 agree; 2 escape (tests/a.py::t1 not selected); 3 and 4 force-full;
	# 5 nothing selected; 6 over-strict; 7 flaky (full fails, rerun passes);
	# 8 shadow only; 9 non-hermetic (the failing test was selected).
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$(sel selected 10 100 tests/b.py)" tests/b.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 pass - tests/b.py::t tests/a.py::t1 &&
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 90 pass "$(sel selected 30 100 tests/b.py)" tests/b.py::t &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 620 fail - tests/b.py::t tests/a.py::t1:failed &&
	mrun a/3s 3 shadow 1 2026-11-01T10:00:00Z 700 pass "$(ffsel "force-full:**/package-lock.json" UNMAPPED_FILE)" tests/b.py::t &&
	mrun a/3f 3 full 1 2026-11-01T10:05:00Z 640 pass - tests/b.py::t &&
	mrun a/4s 4 shadow 1 2026-11-02T08:00:00Z 650 fail "$(ffsel "force-full:**/package-lock.json")" tests/b.py::t:failed &&
	mrun a/4f 4 full 1 2026-11-02T08:05:00Z 630 fail - tests/b.py::t:failed &&
	mrun a/5s 5 shadow 1 2026-11-02T09:00:00Z 20 pass "{\"decision\": \"nothing\", \"total_tests\": 100}" &&
	mrun a/5f 5 full 1 2026-11-02T09:05:00Z 610 pass - tests/b.py::t &&
	mrun a/6s 6 shadow 1 2026-11-02T10:00:00Z 120 fail "$(sel selected 50 100 tests/b.py)" tests/b.py::t:failed &&
	mrun a/6f 6 full 1 2026-11-02T10:05:00Z 600 pass - tests/b.py::t &&
	mrun a/7s 7 shadow 1 2026-11-03T08:00:00Z 80 pass "$(sel selected 20 100 tests/b.py)" tests/b.py::t &&
	mrun a/7f 7 full 1 2026-11-03T08:05:00Z 590 fail - tests/x.py::t:failed &&
	mrun a/7g 7 full 2 2026-11-03T08:30:00Z 605 pass - tests/x.py::t &&
	mrun a/8s 8 shadow 1 2026-11-03T09:00:00Z 40 pass "$(sel selected 5 100 tests/b.py)" tests/b.py::t &&
	mrun a/9s 9 shadow 1 2026-11-03T10:00:00Z 70 pass "$(sel selected 10 100 tests/c.py)" tests/c.py::t &&
	mrun a/9f 9 full 1 2026-11-03T10:05:00Z 615 fail - tests/c.py::t:failed &&
	tiadash --db s.db --repo repo ingest a >out &&
	echo "18 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'json: counts' '
	tiadash --db s.db report --format json >r.json &&
	json_close r.json "d[\"shadow_runs\"]" 9 &&
	json_close r.json "d[\"full_runs\"]" 9 &&
	json_close r.json "d[\"pairs\"]" 8 &&
	json_close r.json "d[\"heads\"]" 9 &&
	json_close r.json "d[\"window\"]" "{\"since\": null, \"until\": null, \"repo\": null}"
'

test_expect_success 'json: affected fraction' '
	# all: 0 .05 .1 .1 .2 .3 .5 1 1 -> p50 .2, p95 x7+.6(x8-x7) = 1, mean 3.25/9
	json_close r.json "d[\"affected_fraction\"][\"p50\"]" 0.2 &&
	json_close r.json "d[\"affected_fraction\"][\"p95\"]" 1.0 &&
	json_close r.json "d[\"affected_fraction\"][\"mean\"]" 0.3611111111111111 &&
	# narrowed: .05 .1 .1 .2 .3 .5 -> p50 (.1+.2)/2, p95 .3+.75*.2
	json_close r.json "d[\"affected_fraction\"][\"narrowed_p50\"]" 0.15 &&
	json_close r.json "d[\"affected_fraction\"][\"narrowed_p95\"]" 0.45
'

test_expect_success 'json: wall-clock and saving' '
	# shadow 20 40 60 70 80 90 120 650 700: p50 80, p95 650+.6*50
	json_close r.json "d[\"wall_clock_s\"][\"shadow\"]" "{\"p50\": 80, \"p95\": 680.0, \"runs\": 9}" &&
	# full (latest attempts) 600 600 605 610 615 620 630 640: p50 612.5, p95 630+.65*10
	json_close r.json "d[\"wall_clock_s\"][\"full\"][\"p50\"]" 612.5 &&
	json_close r.json "d[\"wall_clock_s\"][\"full\"][\"p95\"]" 636.5 &&
	json_close r.json "d[\"wall_clock_s\"][\"saving\"][\"p50\"]" 0.8693877551020408 &&
	json_close r.json "d[\"wall_clock_s\"][\"saving\"][\"p95\"]" -0.06834249803613512
'

test_expect_success 'json: force-full by reason and the minutes each cost' '
	json_close r.json "d[\"force_full\"][\"count\"]" 2 &&
	json_close r.json "d[\"force_full\"][\"rate\"]" 0.2222222222222222 &&
	json_close r.json "d[\"force_full\"][\"by_reason\"]" \
		"{\"force-full:**/package-lock.json\": 2, \"UNMAPPED_FILE\": 1}" &&
	# narrowed p50 wall-clock: 40 60 70 80 90 120 -> 75 s
	json_close r.json "d[\"force_full\"][\"narrowed_wall_clock_p50\"]" 75 &&
	# lockfile: (700-75 + 650-75) / 60 = 20; UNMAPPED_FILE: (700-75) / 60
	json_close r.json "d[\"force_full\"][\"minutes_by_reason\"][\"force-full:**/package-lock.json\"]" 20.0 &&
	json_close r.json "d[\"force_full\"][\"minutes_by_reason\"][\"UNMAPPED_FILE\"]" 10.416666666666666 &&
	json_close r.json "[r[\"reason\"] for r in d[\"force_full\"][\"ranked\"]]" \
		"[\"force-full:**/package-lock.json\", \"UNMAPPED_FILE\"]"
'

test_expect_success 'json: minutes saved, given back by force-full runs, escapes a week' '
	# the 8 pairs: full 600+620+640+630+610+600+605+615 = 4920 s (PR 7: its
	# latest attempt), shadow 60+90+700+650+20+120+80+70 = 1790 s: saved
	# 3130 s = 52.17 min in 3 days, x 7/3 a week; force-full PRs 3 and 4 gave
	# back (700-75)+(650-75) s = 20 min, 20 / (52.17 + 20) of the saving
	json_close r.json "d[\"savings\"][\"pairs\"]" 8 &&
	json_close r.json "d[\"savings\"][\"full_minutes\"]" 82.0 &&
	json_close r.json "d[\"savings\"][\"shadow_minutes\"]" 29.833333333333332 &&
	json_close r.json "d[\"savings\"][\"saved_minutes\"]" 52.16666666666667 &&
	json_close r.json "d[\"savings\"][\"saved_minutes_per_week\"]" 121.72222222222223 &&
	json_close r.json "d[\"savings\"][\"given_back_minutes\"]" 20.0 &&
	json_close r.json "d[\"savings\"][\"given_back_share\"]" 0.27713625866050806 &&
	json_close r.json "d[\"savings\"][\"given_back_by_reason\"]" \
		"{\"force-full:**/package-lock.json\": 20.0, \"UNMAPPED_FILE\": 10.416666666666666}" &&
	# 8 pairs in 3 days: 18.67 a week x 2/8 escapes
	json_close r.json "d[\"escapes_per_week\"][\"expected\"]" 4.666666666666667 &&
	json_close r.json "d[\"escapes_per_week\"][\"upper\"]" "$(ref upper 2 8 0.95 | awk "{ printf \"%.17g\", \$1 * 56 / 3 }")"
'

test_expect_success 'json: escapes, over-strict, flaky, incomplete' '
	json_close r.json "d[\"escapes\"][\"count\"]" 2 &&
	json_close r.json "d[\"escapes\"][\"rate\"]" 0.25 &&
	json_close r.json "d[\"escapes\"][\"prs\"]" "[2, 9]" &&
	json_close r.json "[[e[\"pr\"], e[\"class\"], e[\"missed\"], e[\"non_hermetic\"], e[\"explained\"]] for e in d[\"escapes\"][\"list\"]]" \
		"[[2, \"escape\", [\"tests/a.py::t1\"], [], false], [9, \"non-hermetic\", [], [\"tests/c.py::t\"], false]]" &&
	json_close r.json "d[\"non_hermetic\"][\"count\"]" 1 &&
	json_close r.json "d[\"over_strict\"][\"count\"]" 1 &&
	json_close r.json "d[\"flaky\"][\"count\"]" 1 &&
	json_close r.json "d[\"incomplete\"]" "{\"count\": 1, \"by_reason\": {\"no full run\": 1}}" &&
	json_close r.json "d[\"classes\"]" \
		"{\"agree\": 4, \"escape\": 1, \"non-hermetic\": 1, \"flaky\": 1, \"over-strict\": 1, \"incomplete\": 1, \"inherited\": 0, \"unresolved\": 0}"
'

test_expect_success 'json: no coverage at all: diff coverage is null, not 0' '
	json_close r.json "d[\"diff_coverage\"]" \
		"{\"p50\": null, \"mean\": null, \"below_threshold\": 0, \"threshold\": 0.7, \"runs\": 0}"
'

test_expect_success 'json: per-day series' '
	json_close r.json "[[x[\"date\"], x[\"pairs\"], x[\"escapes\"], x[\"force_full\"], x[\"shadow_runs\"]] for x in d[\"days\"]]" \
		"[[\"2026-11-01\", 3, 1, 1, 3], [\"2026-11-02\", 3, 0, 1, 3], [\"2026-11-03\", 2, 1, 0, 3]]" &&
	# day 1: affected .1 .3 1 -> .3; shadow 60 90 700 -> p95 90+.9*610
	json_close r.json "d[\"days\"][0][\"affected_p50\"]" 0.3 &&
	json_close r.json "d[\"days\"][0][\"shadow_wall_clock_p95\"]" 639.0 &&
	json_close r.json "d[\"days\"][0][\"force_full_rate\"]" 0.3333333333333333 &&
	json_close r.json "d[\"days\"][2][\"diff_coverage_mean\"]" null &&
	json_close r.json "d[\"shadow_days\"]" 3
'

test_expect_success 'a window: since inclusive, until exclusive, by the first shadow run' '
	tiadash --db s.db report --since 2026-11-02 --until 2026-11-03T08:00:00Z --format json >w.json &&
	json_close w.json "d[\"pairs\"]" 3 &&
	json_close w.json "d[\"window\"][\"since\"]" "\"2026-11-02T00:00:00Z\"" &&
	json_close w.json "[x[\"date\"] for x in d[\"days\"]]" "[\"2026-11-02\", \"2026-11-03\"]" &&
	tiadash --db s.db report --since 2026-11-02 --until 2026-11-03T08:00:01Z --format json >w2.json &&
	json_close w2.json "d[\"pairs\"]" 4 &&
	json_close w2.json "d[\"full_runs\"]" 5
'

test_expect_success 'relative window: 6d before the pinned now' '
	tiadash --db s.db report --since 6d --format json >rel.json &&
	json_close rel.json "d[\"window\"][\"since\"]" "\"2026-11-02T00:00:00Z\"" &&
	json_close rel.json "d[\"pairs\"]" 5
'

test_expect_success 'repo filter: the manifest repo name' '
	tiadash --db s.db report --repo acme/x --format json >x.json &&
	json_close x.json "d[\"pairs\"]" 8 &&
	json_close x.json "d[\"window\"][\"repo\"]" "\"acme/x\"" &&
	tiadash --db s.db report --repo acme/other --format json >o.json &&
	json_close o.json "d[\"pairs\"]" 0 &&
	# the global --repo PATH (the git checkout) is another option
	tiadash --db s.db --repo repo report --repo acme/x --format json >g.json &&
	json_close g.json "[d[\"pairs\"], d[\"window\"][\"repo\"]]" "[8, \"acme/x\"]"
'

test_expect_success 'an explained escape is shown as explained' '
	sqlite3 s.db "INSERT INTO note (head_id, kind, text, created_at) SELECT id, '"'"'explained'"'"', '"'"'clock skew in CI'"'"', 0 FROM head WHERE pr = 9" &&
	tiadash --db s.db report --format json >n.json &&
	json_close n.json "d[\"escapes\"][\"explained\"]" 1 &&
	json_close n.json "d[\"escapes\"][\"unexplained\"]" 1 &&
	json_close n.json "d[\"escapes\"][\"list\"][1][\"note\"]" "\"clock skew in CI\"" &&
	tiadash --db s.db report >n.txt &&
	test_grep "^    explained: clock skew in CI$" n.txt
'

test_expect_success 'json parses with python -m json.tool' '
	python3 -m json.tool r.json >/dev/null
'

test_expect_success 'csv: one row per head, header, fixed column count' '
	tiadash --db s.db report --format csv >r.csv &&
	python3 - r.csv <<-\PY
	import csv, sys
	rows = list(csv.reader(open(sys.argv[1], newline="")))
	assert rows[0][:5] == ["pr", "repo", "head", "at", "class"], rows[0]
	assert len(rows) == 10, len(rows)
	assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
	by = {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}
	assert by["2"]["class"] == "escape" and by["2"]["missed"] == "1", by["2"]
	assert by["8"]["class"] == "incomplete" and by["8"]["why"] == "no full run"
	assert by["8"]["full_wall_clock_s"] == "" and by["8"]["affected_fraction"] == "0.050000000000000003"
	assert by["3"]["decision"] == "run_all" and by["3"]["affected_fraction"] == "1"
	assert by["7"]["full_attempts"] == "2" and by["7"]["full_wall_clock_s"] == "605"
	PY
'

test_expect_success 'text: aligned, within 80 columns, n/a for the undefined' '
	tiadash --db s.db report >r.txt &&
	test_grep "^Pairs        8 of 9 heads; 1 incomplete$" r.txt &&
	test_grep "^Escapes      2 of 8 pairs (25.00%); 1 explained, 1 non-hermetic$" r.txt &&
	test_grep "^Diff cov.    p50 n/a  mean n/a  below 0.70: 0 of 0 runs$" r.txt &&
	test_grep "^                  2      20.0  force-full:\*\*/package-lock.json$" r.txt &&
	test_grep "^             saving       86.9%     -6.8%$" r.txt &&
	test_grep "^Force-full   2 of 9 shadow runs (22.2%); narrowed p50 75 s$" r.txt &&
	test_grep "^2026-11-03      2        1        0.0%     0.100        79 s       n/a$" r.txt ||
	{ cat r.txt; false; }
'

test_expect_success 'text: no line wider than 80 columns' '
	awk "length > 80 { print; bad = 1 } END { exit bad }" r.txt
'

test_expect_success 'md: tables, reasons escaped' '
	tiadash --db s.db report --format md >r.md &&
	test_grep "^# tiadash report$" r.md &&
	test_grep "^| force-full:\\\\\*\\\\\*/package-lock.json | 2 | 20.0 |$" r.md &&
	test_grep "^| escapes | 2 of 8 pairs (25.00%), 1 explained, 1 non-hermetic |$" r.md
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 tiadash --db s.db report --format xml 2>err &&
	test_grep "unknown format" err &&
	test_expect_code 2 tiadash --db s.db report --since yesterday 2>err &&
	test_grep "since" err &&
	test_expect_code 2 tiadash --db s.db report --since 2026-11-03 --until 2026-11-02 2>err &&
	test_grep "window is empty" err &&
	test_expect_code 2 tiadash --db s.db report --threshold 2 2>err
'

test_done
