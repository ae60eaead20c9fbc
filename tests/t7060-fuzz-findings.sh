#!/bin/bash
# What the fuzz targets found (tests/fuzz/regressions/), end to end: a stored
# line range that would take gigabytes, a test name ending in '/' that its
# own selection entry did not select, and times whose offset leaves years
# 0000-9999 (printed back as no RFC 3339 time).
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a PR adding a file, its shadow run with coverage' '
	git init -q repo && echo a >repo/a.py && (cd repo && commit_at 2026-11-02T00:00:00Z base) &&
	git -C repo rev-parse HEAD >base &&
	printf "x\ny\n" >repo/b.py && (cd repo && commit_at 2026-11-02T01:00:00Z pr) &&
	git -C repo rev-parse HEAD >head &&
	printf "SF:b.py\nDA:1,1\nDA:2,0\nend_of_record\n" >cov.info &&
	tiadash --db s.db --repo repo ingest --kind shadow --head "$(cat head)" --base "$(cat base)" \
		--pr 1 --started-at 2026-11-03T10:00:00Z --verdict pass --decision run_all cov.info >out &&
	sqlite3 s.db "SELECT added FROM diff_file; SELECT executable, executed FROM coverage" >actual &&
	printf "1-2\n1-2|1\n" >expect && test_cmp expect actual
'

test_expect_success 'a stored line range of 2^32 lines: show answers at once, in bounded memory' '
	sqlite3 s.db "UPDATE diff_file SET added = '"'"'0-4294967295'"'"';
		      UPDATE coverage SET executable = '"'"'1-4294967295'"'"', executed = '"'"'9,3'"'"'" &&
	peak show.kb timeout 60 "$TIADASH_BIN" --db s.db show 1 --format json >show.json &&
	json_get show.json "[c[\"path\"] for c in d[\"changed\"]]" >paths &&
	echo "['"'"'b.py'"'"']" >expect && test_cmp expect paths &&
	test "$(cat show.kb)" -lt 131072
'

test_expect_success 'a test whose name ends in / is selected by its own id' '
	junit full.xml "tests/url.test.js::resolves a/:failed" "tests/url.test.js::other" &&
	printf "tests/url.test.js::resolves a/\n" >sel.txt &&
	tiadash --db s.db --repo repo ingest --kind shadow --head "$(cat head)" --base "$(cat base)" \
		--pr 1 --attempt 2 --started-at 2026-11-03T10:05:00Z --verdict pass \
		--selection sel.txt --total-tests 2 >/dev/null &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(cat head)" --base "$(cat base)" \
		--pr 1 --started-at 2026-11-03T10:05:00Z full.xml >/dev/null &&
	tiadash --db s.db show 1 --format json >show.json &&
	json_get show.json "(d[\"class\"], d[\"missed\"])" >actual &&
	echo "('"'"'non-hermetic'"'"', [])" >expect && test_cmp expect actual
'

test_expect_success 'a started_at whose offset leaves years 0000-9999 is refused' '
	head=$(cat head) base=$(cat base) &&
	for t in 0000-01-01T00:00:00+23:59 9999-12-31T23:59:59-00:01; do
		write_run "m-$t" "\"head\": \"$head\", \"base\": \"$base\", \"kind\": \"full\", \"started_at\": \"$t\", \"verdict\": \"pass\"" &&
		test_expect_code 2 tiadash --db s.db --repo repo ingest "m-$t" >out 2>err &&
		echo "tiadash: error: m-$t/tiadash-run.json:1: '"'"'started_at'"'"' must be an RFC 3339 time, not '"'"'$t'"'"'" >expect &&
		test_cmp expect err || return 1
	done &&
	tiadash --db s.db --repo repo ingest --kind full --head "$head" --started-at 0000-01-01T00:00:00Z \
		--attempt 3 --verdict pass >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success '--since with such a time is a usage error; years 0000 and 9999 are fine' '
	test_expect_code 2 tiadash --db s.db report --since 9999-12-31T23:00:00-01:00 >out 2>err &&
	test_grep "^tiadash: error: --since .9999-12-31T23:00:00-01:00.: expected 1y, 7d" err &&
	tiadash --db s.db report --since 0000-01-01T00:00:00Z --until 9999-12-31T23:59:59Z --format json >r.json &&
	json_get r.json "d[\"window\"][\"since\"] + \" \" + d[\"window\"][\"until\"]" >actual &&
	echo "0000-01-01T00:00:00Z 9999-12-31T23:59:59Z" >expect &&
	test_cmp expect actual
'

test_done
