#!/bin/bash
# Retries: 5xx, 429 and broken transfers are tried again with exponential
# backoff (Retry-After wins, capped); other failures are not; a source that
# still fails names the URL, the status and the attempts, and nothing of it lands.
# tests/run: waits (the backoffs)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
F=/runs/pr101/full/junit.xml
export TIADASH_HTTP_BACKOFF=0.01

test_expect_success '503 twice, then 200: the run lands after two retries' '
	http_rules web "{\"$F\": {\"status\": 503, \"times\": 2}}" &&
	m=$(http_mark web) &&
	tiadash --db a.db --repo week/repo ingest "$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	printf "%s\n" \
		"tiadash: $W$F: HTTP 503; retrying in 0.01 s (attempt 2 of 4)" \
		"tiadash: $W$F: HTTP 503; retrying in 0.02 s (attempt 3 of 4)" >expect &&
	test_cmp expect err &&
	http_log web --from $m | grep " $F " | cut -d" " -f1-3 >actual &&
	printf "%s\n" "GET $F 503" "GET $F 503" "GET $F 200" >expect &&
	test_cmp expect actual
'

test_expect_success '503 for good: the URL, the status and the attempts; nothing of it lands' '
	http_rules web "{\"$F\": {\"status\": 503}}" &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db b.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" "$W/runs/pr102/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	test_grep "^tiadash: error: $W$F: HTTP 503 after 4 attempts$" err &&
	test "$(http_log web --from $m | grep -c " $F 503 ")" = 4 &&
	sqlite3 b.db "select h.pr from run r join head h on h.id = r.head_id" >actual &&
	echo 102 >expect && test_cmp expect actual
'

test_expect_success '--retries sets how often; 0 means one attempt' '
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db c.db --repo week/repo ingest --retries 1 \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^tiadash: error: $W$F: HTTP 503 after 2 attempts$" err &&
	test_expect_code 2 tiadash --db c.db --repo week/repo ingest --retries 0 \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	echo "tiadash: error: $W$F: HTTP 503" >expect && test_cmp expect err &&
	test "$(http_log web --from $m | grep -c " $F 503 ")" = 3
'

test_expect_success '429 with Retry-After in seconds: waits as asked, then lands' '
	http_rules web "{\"$F\": {\"status\": 429, \"retry_after\": \"1\", \"times\": 1}}" &&
	tiadash --db d.db --repo week/repo ingest "$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	echo "tiadash: $W$F: HTTP 429; retrying in 1 s (Retry-After) (attempt 2 of 4)" >expect &&
	test_cmp expect err
'

test_expect_success '429 with Retry-After as an HTTP date' '
	when=$(python3 -c "import email.utils, time; print(email.utils.formatdate(time.time() + 2, usegmt=True))") &&
	http_rules web "{\"$F\": {\"status\": 429, \"retry_after\": \"$when\", \"times\": 1}}" &&
	tiadash --db e.db --repo week/repo ingest "$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	test_grep "^tiadash: $W$F: HTTP 429; retrying in [0-2] s (Retry-After) (attempt 2 of 4)$" err
'

test_expect_success 'a long Retry-After is capped by TIADASH_HTTP_MAX_WAIT' '
	http_rules web "{\"$F\": {\"status\": 503, \"retry_after\": \"3600\", \"times\": 1}}" &&
	TIADASH_HTTP_MAX_WAIT=0.2 tiadash --db f.db --repo week/repo ingest \
		"$W/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	echo "tiadash: $W$F: HTTP 503; retrying in 0.2 s (Retry-After 3600 s, capped by TIADASH_HTTP_MAX_WAIT) (attempt 2 of 4)" >expect &&
	test_cmp expect err
'

test_expect_success 'a 404 or a 403 is not retried' '
	http_rules web "{\"$F\": {\"status\": 403}}" &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db g.db --repo week/repo ingest "$W/runs/pr101/full.tiadash.json" >out 2>err &&
	echo "tiadash: error: $W$F: HTTP 403" >expect && test_cmp expect err &&
	test "$(http_log web --from $m | grep -c " $F ")" = 1
'

test_expect_success 'a server that is not there: retried, then named' '
	port=$(python3 -c "import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])") &&
	test_expect_code 2 tiadash --db h.db ingest "http://127.0.0.1:$port/index.json" >out 2>err &&
	test_grep "^0 new runs, 0 unchanged, 1 failed$" out &&
	test_grep "^tiadash: error: http://127.0.0.1:$port/index.json: failed to connect to 127.0.0.1 port $port .* after 4 attempts$" err
'

test_done
