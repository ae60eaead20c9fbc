#!/bin/bash
# Timeouts: a server that stalls past the limit is given up on (and named),
# the limit comes from TIADASH_HTTP_TIMEOUT or --timeout, and junk in the
# HTTP settings is refused before anything is fetched.
# tests/run: waits (the stalls)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
F=/runs/pr101/full/junit.xml
SQ="'"

# The server sleeps 30 s; the limits below are 1 s. A run that took 20 s
# would mean no timeout happened (a generous bound, not a measurement).
test_expect_success 'a server slower than TIADASH_HTTP_TIMEOUT: given up on, named, nothing lands' '
	http_rules web "{\"$F\": {\"sleep\": 30}}" &&
	start=$(date +%s) &&
	TIADASH_HTTP_TIMEOUT=1 TIADASH_HTTP_RETRIES=0 test_expect_code 2 \
		tiadash --db a.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" "$W/runs/pr102/full.tiadash.json" >out 2>err &&
	test $(($(date +%s) - start)) -lt 20 &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	test_grep "^tiadash: error: $W$F: operation timed out after [0-9]* milliseconds with 0 bytes received (--timeout, TIADASH_HTTP_TIMEOUT; --connect-timeout, TIADASH_HTTP_CONNECT_TIMEOUT)$" err &&
	sqlite3 a.db "select h.pr from run r join head h on h.id = r.head_id" >actual &&
	echo 102 >expect && test_cmp expect actual
'

test_expect_success 'a timeout is retried like any broken transfer' '
	start=$(date +%s) &&
	TIADASH_HTTP_TIMEOUT=1 TIADASH_HTTP_BACKOFF=0.01 test_expect_code 2 \
		tiadash --db b.db --repo week/repo ingest --retries 1 \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test $(($(date +%s) - start)) -lt 20 &&
	test_grep "^tiadash: $W$F: operation timed out after .*; retrying in 0.01 s (attempt 2 of 2)$" err &&
	test_grep "^tiadash: error: $W$F: operation timed out after .* after 2 attempts$" err
'

test_expect_success '--timeout wins over the environment' '
	start=$(date +%s) &&
	TIADASH_HTTP_TIMEOUT=100 test_expect_code 2 \
		tiadash --db c.db --repo week/repo ingest --timeout 1 --retries 0 \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test $(($(date +%s) - start)) -lt 20 &&
	test_grep "^tiadash: error: $W$F: operation timed out after" err
'

test_expect_success 'HTTP settings that are not valid are refused up front' '
	http_rules web "{}" &&
	m=$(http_mark web) &&
	TIADASH_HTTP_TIMEOUT=soon test_expect_code 2 tiadash --db d.db ingest "$W/index.json" 2>err &&
	echo "tiadash: error: TIADASH_HTTP_TIMEOUT=${SQ}soon${SQ} is not a positive number of seconds" >expect &&
	test_cmp expect err &&
	TIADASH_HTTP_RETRIES=-1 test_expect_code 2 tiadash --db d.db ingest "$W/index.json" 2>err &&
	echo "tiadash: error: TIADASH_HTTP_RETRIES=${SQ}-1${SQ} is not a whole number from 0 to 20" >expect &&
	test_cmp expect err &&
	TIADASH_HTTP_MAX_SIZE=lots test_expect_code 2 tiadash --db d.db ingest "$W/index.json" 2>err &&
	test_grep "^tiadash: error: TIADASH_HTTP_MAX_SIZE=.lots. is not a size (bytes, or a number with K, M or G)$" err &&
	test_expect_code 2 tiadash --db d.db ingest --timeout 0 "$W/index.json" 2>err &&
	test_grep "^tiadash: error: --timeout .0. is not a valid number$" err &&
	test "$(http_mark web)" = "$m"
'

test_done
