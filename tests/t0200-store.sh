#!/bin/bash
# The store: created on first use, upgraded in place from an older schema,
# refused when newer or not a tiadash store, and locked stores reported.
# tests/run: waits (a writer holds the lock for 3 s)
. "$(dirname "$0")/lib.sh"

test_expect_success 'init creates the store with the current schema' '
	tiadash --db new/dir/s.db init >out &&
	test_grep "^store new/dir/s.db ready (schema 19)$" out &&
	test "$(sqlite3 new/dir/s.db "pragma user_version")" = 19 &&
	test "$(sqlite3 new/dir/s.db "pragma journal_mode")" = wal &&
	test "$(sqlite3 new/dir/s.db "pragma application_id")" = 1414086980
'

test_expect_success 'a schema-1 store is upgraded in place, its data kept' '
	tiadash --db old.db init >/dev/null &&
	sqlite3 old.db "insert into source (uri, digest, ingested_at) values (\"x\", \"d\", 1);
		drop table pair_row; drop table pair_stale; drop table blind_day;
		drop table blind_stale; drop table pair_fact; drop table pair_unfacted;
		$(for t in head run selection reason result quarantine run_tests; do for e in ins upd del; do
			echo "drop trigger ${t}_$e;"; done; done)
		drop table note; drop table http_part; drop table http_cache;
		drop table ci_seen; drop table ci_cursor; drop table run_tests;
		drop table test_group; alter table result drop column digest;
		alter table result drop column excerpt;
		alter table result drop column count; alter table result drop column resolved;
		alter table selection drop column entries_total;
		alter table selection drop column entries_unresolved;
		alter table selection drop column entries_unmatched; drop table seed_mutant;
		drop table seed_change; drop table seed_experiment; drop index run_kind;
		drop table mainline; drop table mainline_state; drop index run_main;
		alter table quarantine drop column resolved; drop table declared_name;
		alter table selection drop column unmatched; drop table generation; drop table figures;
		alter table selection drop column ran_broad; alter table selection drop column skipped_named;
		drop index result_keyed; alter table result drop column raw;
		alter table result drop column keyed_by; drop index quarantine_keyed;
		alter table quarantine drop column keyed_by; alter table quarantine drop column workdir;
		alter table quarantine drop column key; drop index selection_keyed;
		alter table selection drop column keys;
		alter table selection drop column keyed_by; alter table selection drop column workdir;
		pragma user_version = 1" &&
	tiadash --db old.db status --format json >st.json &&
	test "$(json_get st.json "d[\"sources\"]")" = 1 &&
	test "$(sqlite3 old.db "pragma user_version")" = 19 &&
	sqlite3 old.db "select count(*) from note; select count(*) from http_cache;
		select count(*) from ci_seen; select count(*) from seed_experiment;
		select count(*) from blind_day; select count(*) from pair_fact;
		select count(*) from mainline; select count(*) from declared_name" >counts &&
	printf "0\n0\n0\n0\n0\n0\n0\n0\n" >expect && test_cmp expect counts
'

test_expect_success 'a store from a newer tiadash is refused, untouched' '
	tiadash --db newer.db init >/dev/null &&
	sqlite3 newer.db "pragma user_version = 99" &&
	cp newer.db newer.copy &&
	test_expect_code 2 tiadash --db newer.db status 2>err &&
	test_grep "store .newer.db. was written by a newer tiadash (schema 99; this tiadash .* knows up to 19): upgrade tiadash" err &&
	cmp newer.db newer.copy
'

test_expect_success 'an SQLite database that is not a tiadash store is refused' '
	sqlite3 other.db "create table t (x); insert into t values (1)" &&
	test_expect_code 2 tiadash --db other.db status 2>err &&
	test_grep "is an SQLite database but not a tiadash store" err &&
	test "$(sqlite3 other.db "select count(*) from sqlite_schema")" = 1
'

test_expect_success 'a file that is not a database is refused' '
	echo "hello, not a database" >junk.db &&
	cp junk.db junk.copy &&
	test_expect_code 2 tiadash --db junk.db status 2>err &&
	test_grep "junk.db. is not a tiadash store" err &&
	cmp junk.db junk.copy
'

test_expect_success 'a missing store is an error for readers, exit 2' '
	test_expect_code 2 tiadash --db missing.db status 2>err &&
	test_grep "no store at .missing.db." err &&
	test ! -e missing.db
'

test_expect_success 'a directory given as the store is refused' '
	mkdir d.db && test_expect_code 2 tiadash --db d.db status 2>err &&
	test_grep "is a directory" err
'

test_expect_success 'a writer holding the lock: readers still read, writers give up clearly' '
	tiadash --db locked.db init >/dev/null &&
	echo "<testsuite><testcase classname=\"a\" name=\"b\"/></testsuite>" >j.xml &&
	python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(\"locked.db\", isolation_level=None)
c.execute(\"begin exclusive\")
open(\"ready\", \"w\").close()
time.sleep(3)
" & pid=$! &&
	while [ ! -e ready ]; do sleep 0.05; done &&
	tiadash --db locked.db status >status.out &&
	TIADASH_BUSY_TIMEOUT=200 test_expect_code 2 tiadash --db locked.db ingest \
		--kind full --head 0123456789abcdef0123456789abcdef01234567 j.xml >out 2>err;
	rc=$?; wait $pid; test $rc = 0 &&
	test_grep "store .locked.db. is locked by another process (gave up after 200 ms)" err &&
	test_grep "^sources   0$" status.out &&
	tiadash --db locked.db status --format json >st.json &&
	test "$(json_get st.json "d[\"sources\"]")" = 0
'

test_done
