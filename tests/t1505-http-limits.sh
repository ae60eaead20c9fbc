#!/bin/bash
# Bodies: a file larger than the size cap is refused while it downloads
# (announced or chunked), a body shorter than its Content-Length is an
# error, and in both cases nothing of that source lands.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
F=/runs/pr101/full/junit.xml
BIG=$((256 * 1024 * 1024))

test_expect_success 'a body announced larger than the cap: refused before it is read' '
	http_rules web "{\"$F\": {\"oversize\": $BIG}}" &&
	m=$(http_mark web) &&
	TIADASH_HTTP_MAX_SIZE=1M test_expect_code 2 tiadash --db a.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" "$W/runs/pr102/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	echo "tiadash: error: $W$F: larger than the 1048576-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)" >expect &&
	test_cmp expect err &&
	sent=$(python3 -c "import json, sys; print(max(json.loads(l)[\"bytes\"] for l in open(sys.argv[1]) if \"$F\" in l))" web.log) &&
	test "$sent" -lt "$BIG" &&
	sqlite3 a.db "select h.pr from run r join head h on h.id = r.head_id" >actual &&
	echo 102 >expect && test_cmp expect actual
'

test_expect_success 'a chunked body without a length: cut off at the cap' '
	http_rules web "{\"$F\": {\"oversize\": $BIG, \"chunked\": true}}" &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db b.db --repo week/repo ingest --max-size 64k \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	echo "tiadash: error: $W$F: larger than the 65536-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)" >expect &&
	test_cmp expect err &&
	test "$(http_log web --from $m | grep -c " $F ")" = 1 &&
	test "$(sqlite3 b.db "select count(*) from run")" = 0
'

test_expect_success 'the cap allows a body of exactly its size' '
	http_rules web "{}" &&
	size=$(wc -c <week/artifacts$F) &&
	tiadash --db c.db --repo week/repo ingest --max-size "$size" \
		"$W/runs/pr101/full.tiadash.json" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	test_expect_code 2 tiadash --db c2.db --repo week/repo ingest --max-size "$((size - 1))" \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "larger than the $((size - 1))-byte limit" err
'

test_expect_success 'a manifest or an index is capped at 64 MiB whatever --max-size says' '
	http_rules web "{\"/huge.json\": {\"oversize\": $BIG}}" &&
	test_expect_code 2 tiadash --db d.db ingest "$W/huge.json" >out 2>err &&
	echo "tiadash: error: $W/huge.json: larger than the 67108864-byte limit of a manifest or an index" >expect &&
	test_cmp expect err
'

test_expect_success 'a truncated body (Content-Length larger than the body): an error after retries' '
	http_rules web "{\"$F\": {\"truncate\": 100}}" &&
	m=$(http_mark web) &&
	TIADASH_HTTP_BACKOFF=0.01 test_expect_code 2 tiadash --db e.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" "$W/runs/pr102/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	test_grep "^tiadash: error: $W$F: truncated body: transfer closed with 100 bytes remaining to read after 4 attempts$" err &&
	test "$(http_log web --from $m | grep -c " $F 200 ")" = 4 &&
	sqlite3 e.db "select h.pr from run r join head h on h.id = r.head_id" >actual &&
	echo 102 >expect && test_cmp expect actual
'

test_expect_success 'a truncated body that comes right on a retry is fine' '
	http_rules web "{\"$F\": {\"truncate\": 100, \"times\": 1}}" &&
	TIADASH_HTTP_BACKOFF=0.01 tiadash --db f.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	echo "tiadash: $W$F: truncated body: transfer closed with 100 bytes remaining to read; retrying in 0.01 s (attempt 2 of 4)" >expect &&
	test_cmp expect err
'

test_expect_success '--max-size takes bytes or K, M, G; junk is a usage error' '
	test_expect_code 2 tiadash --db g.db ingest --max-size 12X "$W/index.json" 2>err &&
	test_grep "^tiadash: error: --max-size .12X. is not a valid number$" err &&
	test_expect_code 2 tiadash --db g.db ingest --max-size 0 "$W/index.json" 2>err &&
	test_grep "^tiadash: error: --max-size .0. is not a valid number$" err
'

test_done
