#!/bin/bash
# The pair cache (core/paircache.h): each head with its runs as one row, kept
# fresh by the store's triggers whoever writes the tables. A report read
# through it equals one read from the tables, after ingest, after a plain
# SQL edit, after a run is replaced, and while another process holds the
# write lock (then the tables are read).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# report_from_tables: the report with the cache emptied and every head stale.
report_from_tables() {
	cp s.db t.db && rm -f t.db-wal t.db-shm &&
	sqlite3 t.db "DELETE FROM pair_row; INSERT OR IGNORE INTO pair_stale SELECT id FROM head" &&
	tiadash --db t.db report --format json
}

test_expect_success 'setup: four heads, an escape, a force-full run, a rerun' '
	mrepo 4 &&
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$(sel selected 10 100 tests/b.py)" tests/b.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 fail - tests/b.py::t tests/a.py::t1:failed &&
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 700 pass "$(ffsel "force-full:**/package-lock.json")" tests/b.py::t &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 640 pass - tests/b.py::t &&
	mrun a/3s 3 shadow 1 2026-11-02T08:00:00Z 80 pass "$(sel selected 20 100 tests/b.py)" tests/b.py::t &&
	mrun a/3f 3 full 1 2026-11-02T08:05:00Z 590 fail - tests/x.py::t:failed &&
	mrun a/3g 3 full 2 2026-11-02T08:30:00Z 605 pass - tests/x.py::t &&
	mrun a/4s 4 shadow 1 2026-11-03T09:00:00Z 40 pass "$(sel selected 5 100 tests/b.py)" tests/b.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_stale")" = 0 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_row")" = 4
'

test_expect_success 'a report through the cache equals one from the tables' '
	tiadash --db s.db report --format json >cached.json &&
	test_grep "\"pairs\":	3" cached.json &&
	report_from_tables >tables.json &&
	test_cmp tables.json cached.json
'

test_expect_success 'a plain SQL edit of a run marks its head stale; the report follows it' '
	sqlite3 s.db "UPDATE run SET wall_clock_s = 99 WHERE kind = '\''shadow'\'' AND attempt = 1
		AND head_id = (SELECT id FROM head WHERE pr = 4)" &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_stale")" = 1 &&
	tiadash --db s.db report --format json >edited.json &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_stale")" = 0 &&
	! test_cmp cached.json edited.json >/dev/null &&
	report_from_tables >tables.json &&
	test_cmp tables.json edited.json
'

test_expect_success 'deleting a selection and its reasons, a head, a source: still the tables'"'"' figures' '
	sqlite3 s.db "PRAGMA foreign_keys = ON;
		DELETE FROM selection_reason; DELETE FROM selection WHERE run_id IN
		(SELECT r.id FROM run r JOIN head h ON h.id = r.head_id WHERE h.pr = 1);
		DELETE FROM source WHERE id = (SELECT source_id FROM run r JOIN head h
		ON h.id = r.head_id WHERE h.pr = 3 AND r.attempt = 2)" &&
	tiadash --db s.db report --format json >deleted.json &&
	report_from_tables >tables.json &&
	test_cmp tables.json deleted.json &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_row")" = 4
'

test_expect_success 'a run ingested again replaces its row' '
	mrun b/4s 4 shadow 1 2026-11-03T09:00:00Z 45 fail "$(sel selected 5 100 tests/b.py)" tests/b.py::t:failed &&
	tiadash --db s.db --repo repo ingest --replace b >/dev/null &&
	tiadash --db s.db report --format json >replaced.json &&
	report_from_tables >tables.json &&
	test_cmp tables.json replaced.json
'

test_expect_success 'while another process holds the write lock the report reads the tables' '
	sqlite3 s.db "UPDATE run SET wall_clock_s = 77 WHERE kind = '\''full'\''" &&
	report_from_tables >tables.json &&
	hold_lock s.db &&
	TIADASH_BUSY_TIMEOUT=0 tiadash --db s.db report --format json >locked.json &&
	test_cmp tables.json locked.json &&
	release_lock s.db &&
	test "$(sqlite3 s.db "SELECT count(*) FROM pair_stale")" != 0
'

test_done
