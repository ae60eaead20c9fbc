#!/bin/bash
# The pair facts (schema 11, metrics/facts.h): what a metrics pass makes of
# each pair, kept beside the pair cache so that the next pass reads them
# instead of classifying every pair again. A report from the facts equals one
# from the runs after every kind of change to what a class depends on: a
# run, a quarantine list, a flaky result, a suite key's resolution, the
# id-map. The facts are kept only when the write lock is free.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# report_from_runs [ARGS]: the report of a copy with no facts and every head
# stale (the copy reads the same config, the file beside both stores).
report_from_runs() {
	rm -f t.db t.db-wal t.db-shm &&
	sqlite3 s.db "VACUUM INTO 't.db'" &&
	sqlite3 t.db "DELETE FROM pair_fact; INSERT OR IGNORE INTO pair_stale SELECT id FROM head" &&
	tiadash --db t.db report --format json "$@"
}

facts() {
	sqlite3 s.db "SELECT count(*) FROM pair_fact"
}

# missed NAME: the missed tests of the first escape of NAME.json.
missed() {
	json_get "$1.json" "\" \".join(d[\"escapes\"][\"list\"][0][\"missed\"])"
}

# report_twice NAME: the report, made from the runs (facts missing) and then
# from the facts it kept: both into NAME.json, which must be equal.
report_twice() {
	tiadash --db s.db report --format json >"$1.json" &&
	tiadash --db s.db report --format json >"$1.again.json" &&
	test_cmp "$1.json" "$1.again.json"
}

test_expect_success 'setup: four heads, an escape, a force-full run, a rerun' '
	: >config &&
	mrepo 4 &&
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$(sel selected 10 100 tests/b.py)" tests/b.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 fail - tests/b.py::t tests/a.py::t1:failed tests/a.py::t2:failed &&
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 700 pass "$(ffsel "force-full:**/package-lock.json")" tests/b.py::t &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 640 pass - tests/b.py::t &&
	mrun a/3s 3 shadow 1 2026-11-02T08:00:00Z 80 pass "$(sel selected 20 100 tests/b.py)" tests/b.py::t &&
	mrun a/3f 3 full 1 2026-11-02T08:05:00Z 590 fail - tests/x.py::t:failed &&
	mrun a/3g 3 full 2 2026-11-02T08:30:00Z 605 pass - tests/x.py::t &&
	mrun a/4s 4 shadow 1 2026-11-03T09:00:00Z 40 pass "$(sel selected 5 100 tests/b.py)" tests/b.py::t &&
	mrun a/4f 4 full 1 2026-11-03T09:05:00Z 500 pass - tests/b.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null &&
	test "$(facts)" = 0
'

test_expect_success 'the first report keeps every head'"'"'s facts; the next reads them, the same figures' '
	report_twice first &&
	test "$(facts)" = 4 &&
	test "$(json_get first.json "d[\"escapes\"][\"count\"]")" = 1 &&
	test "$(missed first)" = "tests/a.py::t1 tests/a.py::t2" &&
	report_from_runs >runs.json &&
	test_cmp runs.json first.json
'

test_expect_success 'a report read from the facts does not read the runs' '
	# a run the facts were made from, corrupted where only a pass from the
	# runs reads it: the report from the facts is the same
	rm -f c.db* && sqlite3 s.db "VACUUM INTO '"'"'c.db'"'"'" &&
	sqlite3 c.db "UPDATE pair_row SET data = x'"'"'00'"'"'" &&
	tiadash --db c.db report --format json >c.json &&
	test_cmp first.json c.json &&
	# without facts, those of a few heads are made from the tables
	sqlite3 c.db "VACUUM INTO '"'"'c2.db'"'"'" && sqlite3 c2.db "DELETE FROM pair_fact" &&
	tiadash --db c2.db report --format json >c.json &&
	test_cmp first.json c.json &&
	test "$(sqlite3 c2.db "SELECT count(*) FROM pair_fact")" = 4 &&
	# when they cannot be kept, the pass reads the (corrupt) rows
	sqlite3 c2.db "DELETE FROM pair_fact" &&
	hold_lock c2.db &&
	TIADASH_BUSY_TIMEOUT=0 test_expect_code 2 tiadash --db c2.db report --format json \
		>c.json 2>err &&
	release_lock c2.db &&
	test_grep "the pair cache row of head [0-9]* is corrupt" err
'

test_expect_success 'a window and its trend (the window before) are read from the facts too' '
	w="--since 2026-11-02T00:00:00Z --until 2026-11-04T00:00:00Z" &&
	tiadash --db s.db report --format json $w >window.json &&
	test "$(json_get window.json "d[\"trend\"][\"previous\"][\"pairs\"]")" = 2 &&
	test "$(json_get window.json "d[\"trend\"][\"previous\"][\"escapes\"]")" = 1 &&
	tiadash --db c.db report --format json $w >c.json &&
	test_cmp window.json c.json &&
	report_from_runs $w >runs.json &&
	test_cmp runs.json window.json
'

test_expect_success 'a quarantine list written by hand makes its head'"'"'s facts go' '
	sqlite3 s.db "INSERT OR IGNORE INTO name (text) VALUES ('"'"'tests/a.py::t1'"'"');
		INSERT INTO quarantine (run_id, name_id) SELECT r.id, n.id FROM run r, head h, name n
		WHERE h.id = r.head_id AND h.pr = 1 AND r.kind = '"'"'full'"'"'
		AND n.text = '"'"'tests/a.py::t1'"'"'" &&
	test "$(facts)" = 4 &&
	report_twice quarantined &&
	test "$(missed quarantined)" = "tests/a.py::t2" &&
	test "$(json_get quarantined.json "d[\"quarantined\"][\"tests\"]")" = 1 &&
	report_from_runs >runs.json &&
	test_cmp runs.json quarantined.json
'

test_expect_success 'so does a flaky result, and a suite key resolved again' '
	sqlite3 s.db "INSERT OR IGNORE INTO name (text) VALUES ('"'"'tests/f.py'"'"'), ('"'"'t'"'"');
		INSERT INTO result (run_id, suite_id, case_id, outcome)
		SELECT r.id, (SELECT id FROM name WHERE text = '"'"'tests/f.py'"'"'),
		(SELECT id FROM name WHERE text = '"'"'t'"'"'), '"'"'flaky'"'"'
		FROM run r JOIN head h ON h.id = r.head_id WHERE h.pr = 1 AND r.kind = '"'"'full'"'"'" &&
	report_twice flaky &&
	test "$(json_get flaky.json "d[\"flaky\"][\"tests\"]")" = 1 &&
	report_from_runs >runs.json &&
	test_cmp runs.json flaky.json &&
	sqlite3 s.db "UPDATE result SET resolved = 1 WHERE outcome = '"'"'failed'"'"'" &&
	report_twice resolved &&
	test "$(json_get resolved.json "d[\"identity\"][\"resolved\"]")" = 2 &&
	report_from_runs >runs.json &&
	test_cmp runs.json resolved.json
'

test_expect_success 'another id-map keeps facts of its own key' '
	old=$(sqlite3 s.db "SELECT DISTINCT key FROM pair_fact") &&
	echo "id-map = ^tests/b.py$ => tests/" >config &&
	report_twice mapped &&
	# the map makes the entry select tests/a.py too, which the shadow
	# run did not run by its own test list: selected, not run
	test "$(json_get mapped.json "[d[\"classes\"][k] for k in (\"escape\", \"non-hermetic\")]")" = "[1, 0]" &&
	test "$(missed mapped)" = "" &&
	test "$(json_get mapped.json "\" \".join(d[\"escapes\"][\"list\"][0][\"not_run\"])")" = tests/a.py::t2 &&
	report_from_runs >runs.json &&
	test_cmp runs.json mapped.json &&
	new=$(sqlite3 s.db "SELECT DISTINCT key FROM pair_fact") &&
	test "$old" != "$new" &&
	test "$(facts)" = 4 &&
	: >config &&
	tiadash --db s.db report --format json >unmapped.json &&
	test_cmp resolved.json unmapped.json &&
	test "$(sqlite3 s.db "SELECT DISTINCT key FROM pair_fact")" = "$old"
'

test_expect_success 'while another process holds the write lock, facts are made but not kept' '
	sqlite3 s.db "DELETE FROM pair_fact" &&
	hold_lock s.db &&
	TIADASH_BUSY_TIMEOUT=0 tiadash --db s.db report --format json >locked.json &&
	test "$(facts)" = 0 &&
	release_lock s.db &&
	test_cmp resolved.json locked.json &&
	tiadash --db s.db report --format json >unlocked.json &&
	test "$(facts)" = 4 &&
	test_cmp resolved.json unlocked.json
'

test_expect_success 'a head ingested after the facts: only its facts are made' '
	sqlite3 s.db "SELECT head_id, data FROM pair_fact ORDER BY head_id" >before &&
	sqlite3 s.db "CREATE TABLE written (head_id);
		CREATE TRIGGER log_fact AFTER INSERT ON pair_fact BEGIN
		INSERT INTO written VALUES (new.head_id); END" &&
	mrepo_add 5 &&
	mrun b/5s 5 shadow 1 2026-11-04T08:00:00Z 50 pass "$(sel selected 5 100 tests/b.py)" tests/b.py::t &&
	mrun b/5f 5 full 1 2026-11-04T08:05:00Z 520 fail - tests/c.py::t:failed &&
	tiadash --db s.db --repo repo ingest b >/dev/null &&
	report_twice five &&
	test "$(facts)" = 5 &&
	test "$(sqlite3 s.db "SELECT group_concat(head_id) FROM written")" = 5 &&
	sqlite3 s.db "DROP TRIGGER log_fact; DROP TABLE written" &&
	sqlite3 s.db "SELECT head_id, data FROM pair_fact WHERE head_id < 5 ORDER BY head_id" >after &&
	test_cmp before after &&
	test "$(json_get five.json "d[\"escapes\"][\"count\"]")" = 2 &&
	report_from_runs >runs.json &&
	test_cmp runs.json five.json
'

test_expect_success 'the dashboard (both ends at once) from the facts equals it from the runs' '
	printf "%s\n" ":save-display $TRASH/facts.screen" 3 ":save-view $TRASH/facts.dis" \
		":quit" >facts.steps &&
	TIADASH_NO_DISPLAY=1 TIADASH_SCRIPT=facts.steps tiadash --db s.db tui &&
	test_grep "of 5 heads" facts.screen &&
	sqlite3 s.db "DELETE FROM pair_fact" &&
	sed "s/facts\./runs./" facts.steps >runs.steps &&
	TIADASH_NO_DISPLAY=1 TIADASH_SCRIPT=runs.steps tiadash --db s.db tui &&
	test "$(facts)" = 5 &&
	test_cmp runs.screen facts.screen &&
	test_cmp runs.dis facts.dis
'

test_expect_success 'corrupt facts are an error that names the store and the head' '
	sqlite3 s.db "UPDATE pair_fact SET data = x'"'"'0102'"'"' WHERE head_id = 2" &&
	test_expect_code 2 tiadash --db s.db report --format json >out 2>err &&
	test_grep "store .s.db.: the pair facts of head 2 are corrupt" err
'

test_done
