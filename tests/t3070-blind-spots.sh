#!/bin/bash
# Blind spots on a hand-built week: the tests that ran in the window's full
# runs that no narrowed selection named (by id, by suite, by directory
# prefix), the ones of them that failed in full, new tests and whether a
# narrowed run selected them; show's mark, propose's always-run rules and
# the dashboard's line. Every expected value is worked out by hand below.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/tui/lib.sh"

# brun DIR PR KIND AT VERDICT SELECTION CASE...: a run of head PR (no repository).
brun() {
	local dir=$1 pr=$2 kind=$3 at=$4 verdict=$5 sel=$6 fields
	shift 6
	fields="\"repo\": \"acme/x\", \"pr\": $pr, \"head\": \"$(printf %040x "$pr")\","
	fields="$fields \"base\": \"$(printf %040d 0)\", \"kind\": \"$kind\", \"attempt\": 1,"
	fields="$fields \"started_at\": \"$at\", \"verdict\": \"$verdict\", \"results\": [\"junit.xml\"]"
	[ "$sel" = - ] || fields="$fields, \"selection\": $sel"
	write_run "$dir" "$fields" &&
	junit "$dir/junit.xml" "$@"
}

# The suite's tests as the full runs run them. tests/d/e.py::t is new on 11-03,
# tests/b/new.py::n on 11-04; tests/s.py::x is skipped everywhere.
OLD="tests/a.py::t1 tests/a.py::t2 tests/b/x.py::t tests/c.py::t tests/c.py::t2 tests/f.py::u tests/s.py::x:skipped"

test_expect_success 'setup: a baseline before the window, then four PRs' '
	# before the window: one full run of the old tests (the baseline)
	brun w/0f 100 full 2026-10-28T10:00:00Z pass - $OLD &&
	brun w/0s 100 shadow 2026-10-28T10:00:00Z pass "$(sel selected 1 7 tests/f.py)" tests/f.py::u &&
	# PR 1: selects tests/a.py (a suite key)
	brun w/1s 1 shadow 2026-11-02T10:00:00Z pass "$(sel selected 2 7 tests/a.py)" tests/a.py::t1 tests/a.py::t2 &&
	brun w/1f 1 full 2026-11-02T10:30:00Z pass - $OLD &&
	# PR 2: selects tests/b (a directory prefix) and tests/c.py::t (an id)
	brun w/2s 2 shadow 2026-11-03T10:00:00Z pass "$(sel selected 2 8 tests/b tests/c.py::t)" tests/b/x.py::t tests/c.py::t &&
	brun w/2f 2 full 2026-11-03T10:30:00Z pass - $OLD tests/d/e.py::t &&
	# PR 3: escapes: tests/f.py::u fails in full, selected by no narrowed run of the window
	brun w/3s 3 shadow 2026-11-04T10:00:00Z pass "$(sel selected 1 9 tests/a.py::t1)" tests/a.py::t1 &&
	brun w/3f 3 full 2026-11-04T10:30:00Z fail - $OLD tests/d/e.py::t tests/b/new.py::n tests/f.py::u:failed &&
	# PR 4: run_all names nothing in particular
	brun w/4s 4 shadow 2026-11-05T10:00:00Z pass "$(ffsel UNMAPPED_FILE)" tests/a.py::t1 &&
	brun w/4f 4 full 2026-11-05T10:30:00Z pass - $OLD tests/d/e.py::t tests/b/new.py::n &&
	tiadash --db b.db ingest w >out 2>err &&
	echo "10 new runs, 0 unchanged" >expect && test_cmp expect out
'

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'report json: never selected, failed in full, new tests' '
	tiadash --db b.db report $W --format json >r.json &&
	# ran: a.py::t1 t2, b/x.py::t, c.py::t t2, f.py::u, d/e.py::t, b/new.py::n (8; s.py skipped)
	# named: a.py (suite), tests/b (prefix), c.py::t (id), a.py::t1; never: c.py::t2, d/e.py::t, f.py::u
	json_close r.json "d[\"blind_spots\"]" "{\"never_selected\": 3, \"tests\": [\"tests/c.py::t2\", \"tests/d/e.py::t\", \"tests/f.py::u\"], \"failed_in_full\": 1, \"failed_in_full_tests\": [\"tests/f.py::u\"], \"tests_in_full_runs\": 8, \"full_runs\": 4, \"full_runs_with_tests\": 4, \"narrowed_runs\": 3, \"new\": {\"count\": 2, \"selected\": 1, \"tests\": [{\"id\": \"tests/b/new.py::n\", \"selected\": true}, {\"id\": \"tests/d/e.py::t\", \"selected\": false}]}}" &&
	json_close r.json "[e[\"missed_blind_spots\"] for e in d[\"escapes\"][\"list\"]]" "[[\"tests/f.py::u\"]]"
'

test_expect_success 'the window decides: selections before it do not count, tests before it are old' '
	tiadash --db b.db report --format json >all.json &&
	# all time: the baseline PR 100 named tests/f.py; its tests are the baseline
	json_close all.json "[d[\"blind_spots\"][k] for k in (\"never_selected\", \"failed_in_full\", \"narrowed_runs\")]" "[2, 0, 4]" &&
	json_close all.json "d[\"blind_spots\"][\"new\"][\"count\"]" 2 &&
	tiadash --db b.db report --since 2026-11-04 --format json >late.json &&
	# from 11-04: PR 3 names a.py::t1 only; d/e.py::t was first run on 11-03: old
	json_close late.json "d[\"blind_spots\"][\"tests\"]" "[\"tests/a.py::t2\", \"tests/b/new.py::n\", \"tests/b/x.py::t\", \"tests/c.py::t\", \"tests/c.py::t2\", \"tests/d/e.py::t\", \"tests/f.py::u\"]" &&
	json_close late.json "d[\"blind_spots\"][\"new\"]" "{\"count\": 1, \"selected\": 0, \"tests\": [{\"id\": \"tests/b/new.py::n\", \"selected\": false}]}"
'

test_expect_success 'text, md and csv say the same' '
	tiadash --db b.db report $W >r.txt &&
	test_grep "^Blind spots  3 of 8 tests never selected; 1 failed in full (3 narrowed runs)$" r.txt &&
	test_grep "^New tests    2 first seen in the window, 1 of them selected$" r.txt &&
	test_grep "^    tests/d/e.py::t (never selected)$" r.txt &&
	awk "length > 80 { print; bad = 1 } END { exit bad }" r.txt &&
	tiadash --db b.db report $W --format md >r.md &&
	test_grep "^3 of 8 tests never selected; 1 failed in full.$" r.md &&
	test_grep "^- tests/b/new.py::n (selected)$" r.md &&
	tiadash --db b.db report $W --format csv >r.csv &&
	python3 -c "import csv,sys; r={x[\"pr\"]: x for x in csv.DictReader(open(sys.argv[1]))}; assert r[\"3\"][\"missed_blind_spots\"] == \"1\" and r[\"1\"][\"missed_blind_spots\"] == \"0\", r" r.csv
'

test_expect_success 'show marks the missed test that no narrowed selection ever named' '
	tiadash --db b.db show 3 >s.txt &&
	test_grep "^missed      tests/f.py::u$" s.txt &&
	# the baseline PR named tests/f.py: over the whole store it is not a blind spot
	tiadash --db b.db show 3 --format json >s.json &&
	json_close s.json "d[\"missed_blind_spots\"]" "[]" &&
	sqlite3 b.db "PRAGMA foreign_keys = ON; DELETE FROM source WHERE uri LIKE '"'"'%/0s/%'"'"'" &&
	tiadash --db b.db show 3 >s2.txt &&
	test_grep "^missed      tests/f.py::u  (blind spot: no narrowed selection names it)$" s2.txt &&
	tiadash --db b.db show 3 --format json >s2.json &&
	json_close s2.json "d[\"missed_blind_spots\"]" "[\"tests/f.py::u\"]"
'

test_expect_success 'propose: an always-run rule for each blind-spot test file' '
	tiadash --db b.db propose $W --no-builtin-rules --format json >p.json &&
	json_close p.json "d[\"always_run\"]" "[{\"suite\": \"tests/f.py\", \"tests\": 1, \"failed_in_full\": 1, \"rule\": \"select ** tests/f.py\"}, {\"suite\": \"tests/c.py\", \"tests\": 1, \"failed_in_full\": 0, \"rule\": \"select ** tests/c.py\"}, {\"suite\": \"tests/d/e.py\", \"tests\": 1, \"failed_in_full\": 0, \"rule\": \"select ** tests/d/e.py\"}]" &&
	tiadash --db b.db propose $W --no-builtin-rules >p.txt &&
	test_grep "^  select \*\* tests/f.py  1 test, 1 failed in full$" p.txt
'

test_expect_success 'the dashboard shows the blind spots' '
	git init -q empty-repo &&
	steps ":save-view v" &&
	TUI_DB=b.db TUI_REPO=empty-repo tui $W &&
	test_grep "^Blind spots 3 of 8 tests never selected; 1 failed in full; 2 new$" v
'

test_expect_success 'all time, a window around every head and one repo read the same runs' '
	# the first two from the runs by kind, the third from each head'"'"'s pair; the
	# baseline'"'"'s shadow run is gone (show'"'"'s test): nothing names tests/f.py
	for w in "" "--since 2026-10-01" "--project acme/x"; do
		tiadash --db b.db report $w --format json >e.json &&
		json_close e.json "[d[\"blind_spots\"][k] for k in (\"tests\", \"failed_in_full\", \"narrowed_runs\", \"full_runs_with_tests\")]" "[[\"tests/c.py::t2\", \"tests/d/e.py::t\", \"tests/f.py::u\"], 1, 3, 5]" || return 1
	done
'

test_expect_success 'a full run without reports keeps no test list: the figures are null' '
	brun n/1s 1 shadow 2026-11-02T10:00:00Z pass "$(sel selected 1 7 tests/a.py)" tests/a.py::t1 &&
	write_run n/1f "\"repo\": \"acme/x\", \"pr\": 1, \"head\": \"$(printf %040x 1)\", \"base\": \"$(printf %040d 0)\", \"kind\": \"full\", \"attempt\": 1, \"started_at\": \"2026-11-02T11:00:00Z\", \"verdict\": \"fail\", \"failed\": [\"tests/f.py::u\"]" &&
	tiadash --db n.db ingest n >/dev/null 2>&1 &&
	tiadash --db n.db report --format json >n.json &&
	json_close n.json "[d[\"blind_spots\"][k] for k in (\"never_selected\", \"failed_in_full\", \"full_runs\", \"full_runs_with_tests\")]" "[null, null, 1, 0]" &&
	tiadash --db n.db report >n.txt &&
	test_grep "^Blind spots  n/a (no full run of the window has its test list)$" n.txt
'

# Whole days come from the day summaries (core/blindday.h), the rest from the tables.
SUM="[d[\"blind_spots\"][k] for k in (\"tests\", \"failed_in_full_tests\", \"narrowed_runs\", \"full_runs_with_tests\")]"

test_expect_success 'whole days and the parts around them read the same runs as a project window' '
	# 11-03 and 11-04 whole (PRs 2 and 3), 11-05 until noon (PR 4: run_all, full run)
	for w in "" "--project acme/x"; do
		tiadash --db b.db report --since 2026-11-02T12:00:00Z --until 2026-11-05T12:00:00Z \
			$w --format json >h.json &&
		json_close h.json "$SUM" "[[\"tests/a.py::t2\", \"tests/c.py::t2\", \"tests/d/e.py::t\", \"tests/f.py::u\"], [\"tests/f.py::u\"], 2, 3]" || return 1
	done &&
	sqlite3 b.db "select count(*) from blind_stale where day between 20760 and 20761" >stale &&
	echo 0 >expect && test_cmp expect stale
'

test_expect_success 'a day summary follows what is written after it, by tiadash or not' '
	sqlite3 b.db "VACUUM INTO '"'"'c.db'"'"'" &&
	tiadash --db c.db report $W --format json >c0.json &&
	json_close c0.json "$SUM" "[[\"tests/c.py::t2\", \"tests/d/e.py::t\", \"tests/f.py::u\"], [\"tests/f.py::u\"], 3, 4]" &&
	# a second shadow attempt of PR 2 (11-03) names tests/c.py
	write_run w2/2s "\"repo\": \"acme/x\", \"pr\": 2, \"head\": \"$(printf %040x 2)\", \"base\": \"$(printf %040d 0)\", \"kind\": \"shadow\", \"attempt\": 2, \"started_at\": \"2026-11-03T11:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"], \"selection\": $(sel selected 2 8 tests/c.py)" &&
	junit w2/2s/junit.xml tests/c.py::t tests/c.py::t2 &&
	tiadash --db c.db ingest w2 >/dev/null &&
	tiadash --db c.db report $W --format json >c1.json &&
	json_close c1.json "$SUM" "[[\"tests/d/e.py::t\", \"tests/f.py::u\"], [\"tests/f.py::u\"], 4, 4]" &&
	# a real failure written by hand into PR 2'"'"'s full run (11-03)
	sqlite3 c.db "INSERT OR IGNORE INTO name (text) VALUES ('"'"'tests/d/e.py'"'"'), ('"'"'t'"'"');
		INSERT INTO result (run_id, suite_id, case_id, outcome)
		SELECT r.id, (SELECT id FROM name WHERE text = '"'"'tests/d/e.py'"'"'),
			(SELECT id FROM name WHERE text = '"'"'t'"'"'), '"'"'failed'"'"'
		FROM run r JOIN head h ON h.id = r.head_id WHERE h.pr = 2 AND r.kind = '"'"'full'"'"'" &&
	tiadash --db c.db report $W --format json >c2.json &&
	json_close c2.json "$SUM" "[[\"tests/d/e.py::t\", \"tests/f.py::u\"], [\"tests/d/e.py::t\", \"tests/f.py::u\"], 4, 4]"
'

test_expect_success 'while another process writes, stale days come from the tables' '
	sqlite3 c.db "INSERT INTO blind_stale VALUES (20760); UPDATE blind_day SET entries = x'"'"''"'"' WHERE day = 20760" &&
	python3 -c "
import sqlite3, os, sys, time
db = sqlite3.connect(\"c.db\", isolation_level=None)
db.execute(\"BEGIN IMMEDIATE\")
open(\"locked\", \"w\").close()
while not os.path.exists(\"done\"):
    time.sleep(0.01)
db.execute(\"ROLLBACK\")
" &
	while ! test -e locked; do sleep 0.01; done &&
	tiadash --db c.db report $W --format json >c3.json; rc=$?; touch done; wait &&
	test $rc = 0 &&
	test_cmp c2.json c3.json &&
	sqlite3 c.db "select count(*) from blind_stale where day = 20760" >stale &&
	echo 1 >expect && test_cmp expect stale &&
	# the lock is gone: the day is rebuilt
	tiadash --db c.db report $W --format json >c4.json &&
	test_cmp c2.json c4.json &&
	sqlite3 c.db "select count(*) from blind_stale" >stale &&
	echo 0 >expect && test_cmp expect stale
'

test_expect_success 'a corrupt day summary is an error that names the store and the day' '
	sqlite3 c.db "UPDATE blind_day SET groups = x'"'"'ff'"'"' WHERE day = 20761" &&
	test_expect_code 2 tiadash --db c.db report $W --format json >c5.json 2>err &&
	test_must_be_empty c5.json &&
	test_grep "store .c.db.: the blind spots. summary of day 20761 is corrupt" err
'

test_done
