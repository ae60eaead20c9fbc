#!/bin/bash
# Concurrent use of one store (SPEC 8: WAL and a busy timeout): readers while
# a cron ingest writes, two ingests of the same week at once, a lock held
# past the busy timeout, SIGKILL in the middle of an ingest, and stores that
# are corrupt or not stores at all.
. "$(dirname "$0")/lib.sh"

need_sample_week
repo="$SAMPLE/repo"
art="$SAMPLE/artifacts"

# fingerprint DB: every run with its figures and the size of what hangs off
# it, keyed by what identifies it (not by row ids, which depend on order).
fingerprint() {
	sqlite3 "$1" "
	SELECT h.repo, h.sha, r.kind, r.attempt, r.verdict, r.tests, r.failures,
	       r.errors, r.skipped, r.flaky, r.git, coalesce(r.cov_lines, '-'),
	       coalesce(r.cov_hit, '-'), s.uri, s.digest,
	       (SELECT count(*) FROM result x WHERE x.run_id = r.id),
	       (SELECT count(*) FROM quarantine x WHERE x.run_id = r.id),
	       (SELECT count(*) FROM coverage x WHERE x.run_id = r.id),
	       (SELECT count(*) FROM selection_reason x WHERE x.run_id = r.id),
	       coalesce((SELECT decision || ':' || length(entries) FROM selection x
	                 WHERE x.run_id = r.id), '-')
	FROM run r JOIN head h ON h.id = r.head_id JOIN source s ON s.id = r.source_id
	ORDER BY 1, 2, 3, 4" || echo "cannot read $1"
}

# consistent DB CLEAN: the store passes SQLite's checks, holds no source
# twice, and every run in it is exactly as in the CLEAN store.
consistent() {
	echo ok >expect.ic &&
	sqlite3 "$1" "PRAGMA integrity_check" >actual.ic &&
	test_cmp expect.ic actual.ic &&
	sqlite3 "$1" "PRAGMA foreign_key_check" >fk && test_must_be_empty fk &&
	sqlite3 "$1" "SELECT uri FROM source GROUP BY uri HAVING count(*) > 1" >dup &&
	test_must_be_empty dup &&
	sqlite3 "$1" "SELECT count(*) FROM source WHERE id NOT IN (SELECT source_id FROM run)" >orphans &&
	echo 0 >zero && test_cmp zero orphans &&
	fingerprint "$1" >fp.part && fingerprint "$2" >fp.clean &&
	comm -23 fp.part fp.clean >extra && test_must_be_empty extra
}

test_expect_success 'setup: a clean ingest of the week, and its first 60 PRs' '
	t0=$(date +%s%N) &&
	tiadash --db clean.db --repo "$repo" ingest "$art" >out &&
	# How long an ingest takes here: the kill test spreads its kills over it.
	echo $((($(date +%s%N) - t0) / 1000000 + 1)) >ingest.ms &&
	test_grep "^798 new runs, 0 unchanged$" out &&
	mkdir part && for d in $(cd "$art" && ls -d pr-* | head -60); do
		cp -r "$art/$d" part/ || return 1
	done &&
	tiadash --db part-serial.db --repo "$repo" ingest part >/dev/null &&
	tiadash --db part-serial.db report --format json >serial.json
'

test_expect_success 'a cron ingest writes while report, show and status read: no reader fails' '
	tiadash --db cron.db init >/dev/null &&
	first=$(ls part | head -1) &&
	tiadash --db cron.db --repo "$repo" ingest "part/$first" >/dev/null &&
	pr=$((10#${first#pr-})) || return 1
	(
		for d in $(ls part); do
			tiadash --db cron.db --repo "$repo" ingest "part/$d" >/dev/null 2>>writer.err ||
				echo "ingest part/$d: $?" >>writer.fail
		done
		touch writer.done
	) &
	: >reader.log &&
	while :; do
		done_before=$(test -e writer.done && echo y || :)
		tiadash --db cron.db report --format json >r.json 2>>reader.err; echo "report $?" >>reader.log
		tiadash --db cron.db show "$pr" --format json >s.json 2>>reader.err; echo "show $?" >>reader.log
		tiadash --db cron.db status >st.txt 2>>reader.err; echo "status $?" >>reader.log
		[ -n "$done_before" ] && break
	done &&
	wait &&
	! test -e writer.fail && test_must_be_empty writer.err &&
	test_must_be_empty reader.err &&
	! grep -v " 0$" reader.log &&
	tiadash --db cron.db report --format json >cron.json &&
	test_cmp serial.json cron.json
'

test_expect_success 'two ingests of the same week at once: both succeed, the store is one ingest' '
	tiadash --db twice.db init >/dev/null &&
	# What is tested is that they agree, not how long one waits for the
	# other: a sanitizer build on a loaded machine can hold a write past 5 s.
	{ TIADASH_BUSY_TIMEOUT=60000 tiadash --db twice.db --repo "$repo" ingest "$art" >one.out 2>one.err
	  echo $? >one.rc; } &
	{ TIADASH_BUSY_TIMEOUT=60000 tiadash --db twice.db --repo "$repo" ingest "$art" >two.out 2>two.err
	  echo $? >two.rc; } &
	wait &&
	echo 0 >zero && test_cmp zero one.rc && test_cmp zero two.rc &&
	test_must_be_empty one.err && test_must_be_empty two.err &&
	cat one.out two.out | sed -n "s/^\([0-9]*\) new runs, \([0-9]*\) unchanged$/\1 \2/p" >counts &&
	test "$(wc -l <counts)" = 2 &&
	# Between them every run was written once and found unchanged once.
	awk "{ n += \$1; u += \$2 } END { print n, u }" counts >sum &&
	echo "798 798" >expect && test_cmp expect sum &&
	sqlite3 twice.db "SELECT count(*), count(DISTINCT source_id) FROM run" >runs &&
	echo "798|798" >expect && test_cmp expect runs &&
	sqlite3 twice.db "SELECT count(*) FROM source" >sources && echo 798 >expect &&
	test_cmp expect sources &&
	fingerprint twice.db >fp.twice && fingerprint clean.db >fp.clean &&
	test_cmp fp.clean fp.twice &&
	consistent twice.db clean.db
'

test_expect_success 'a lock held past the busy timeout: a clear message and exit 2' '
	tiadash --db locked.db init >/dev/null && mkfifo release &&
	python3 -c "
import sqlite3
c = sqlite3.connect(\"locked.db\", isolation_level=None)
c.execute(\"BEGIN IMMEDIATE\")
c.execute(\"INSERT INTO name (text) VALUES (1)\")
print(\"locked\", flush=True)
open(\"release\").read()
c.execute(\"ROLLBACK\")
" >holder.out &
	holder=$! n=0
	while ! grep -q locked holder.out 2>/dev/null; do
		# The holder died, or never got the lock: no point waiting.
		kill -0 $holder 2>/dev/null && [ $((n += 1)) -lt 600 ] || return 1
		sleep 0.05
	done
	TIADASH_BUSY_TIMEOUT=200 tiadash --db locked.db --repo "$repo" ingest "$art/pr-0412" >out 2>err
	echo $? >ingest.rc
	# Readers are not blocked by a writer (WAL).
	tiadash --db locked.db status --format json >status.json
	echo $? >status.rc
	timeout 10 sh -c "echo release >release" && wait &&
	echo 2 >expect && test_cmp expect ingest.rc &&
	echo 0 >expect && test_cmp expect status.rc &&
	test_grep "^tiadash: error: store .locked.db. is locked by another process (gave up after 200 ms)" err &&
	sqlite3 locked.db "SELECT count(*) FROM run" >runs && echo 0 >expect && test_cmp expect runs &&
	tiadash --db locked.db --repo "$repo" ingest "$art/pr-0412" >out &&
	test_grep "^2 new runs, 0 unchanged$" out
'

test_expect_success 'SIGKILL during ingests leaves a consistent store; a re-ingest completes it' '
	ms=$(cat ingest.ms) &&
	for i in 1 2 3 4 5 6 7 8; do
		rm -f kill.db kill.db-wal kill.db-shm &&
		tiadash --db kill.db init >/dev/null &&
		{ "$TIADASH_BIN" --db kill.db --repo "$repo" ingest "$art" >/dev/null 2>&1 & } &&
		pid=$! &&
		delay=$((RANDOM % (ms + ms / 4))) &&
		sleep "$((delay / 1000)).$(printf "%03d" $((delay % 1000)))" &&
		kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
		consistent kill.db clean.db || { echo "after kill $i" >&2; return 1; }
		sqlite3 kill.db "SELECT count(*) FROM run" >>killed-at &&
		tiadash --db kill.db --repo "$repo" ingest "$art" >out 2>err &&
		test_must_be_empty err &&
		fingerprint kill.db >fp.kill && test_cmp fp.clean fp.kill || return 1
	done
'

test_expect_success 'a store cut off in the middle: a clear error, exit 2, for every command' '
	cp clean.db cut.db && sz=$(stat -c %s cut.db) && truncate -s $((sz / 2)) cut.db &&
	for c in status report "show 413" gate-check summary; do
		test_expect_code 2 tiadash --db cut.db $c >out 2>err &&
		test_grep "^tiadash: error: store .cut.db. is corrupt: database disk image is malformed$" err ||
		return 1
	done &&
	test_expect_code 2 tiadash --db cut.db --repo "$repo" ingest "$art/pr-0412" >out 2>err &&
	test_grep "^tiadash: error: store .cut.db. is corrupt" err
'

test_expect_success 'an overwritten header, or a file that is not SQLite: exit 2, named' '
	cp clean.db hdr.db &&
	printf "this is no sqlite header at all" | dd of=hdr.db conv=notrunc 2>/dev/null &&
	test_expect_code 2 tiadash --db hdr.db status >out 2>err &&
	echo "tiadash: error: '"'"'hdr.db'"'"' is not a tiadash store: file is not a database" >expect &&
	test_cmp expect err &&
	echo "hello" >text.db &&
	for c in status report; do
		test_expect_code 2 tiadash --db text.db $c >out 2>err &&
		echo "tiadash: error: '"'"'text.db'"'"' is not a tiadash store: file is not a database" >expect &&
		test_cmp expect err || return 1
	done &&
	test_expect_code 2 tiadash --db text.db --repo "$repo" ingest "$art/pr-0412" >out 2>err &&
	test_cmp expect err &&
	echo hello >expect.text && test_cmp expect.text text.db &&
	sqlite3 other.db "CREATE TABLE t (x)" &&
	test_expect_code 2 tiadash --db other.db --repo "$repo" ingest "$art/pr-0412" >out 2>err &&
	test_grep "an SQLite database but not a tiadash store" err &&
	sqlite3 other.db ".tables" >tables && echo t >expect && test_cmp expect tables
'

test_done
