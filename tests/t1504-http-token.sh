#!/bin/bash
# TIADASH_TOKEN: sent as a bearer token to the origin (scheme, host, port)
# of the URL given on the command line, never to another origin: not to a
# manifest an index lists elsewhere, not across a redirect, not for URLs
# that an index file lists, and never printed. Redirects: http(s) only,
# five at most.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
http_start other "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
O=http://127.0.0.1:$other_port
export TIADASH_TOKEN=s3cret-t0ken
SQ="'"

test_expect_success 'the index origin gets the token; a manifest listed on another origin does not' '
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\", \"%s\"]}\n" \
		runs/pr101/full.tiadash.json "$O/runs/pr102/full.tiadash.json" >week/artifacts/two.json &&
	tiadash --db a.db --repo week/repo ingest "$W/two.json" >out 2>err &&
	test_grep "^2 new runs, 0 unchanged$" out &&
	http_log web | cut -d" " -f1-3,5 | sort >actual &&
	printf "%s\n" "GET /runs/pr101/full.tiadash.json 200 auth=yes" \
		"GET /runs/pr101/full/junit.xml 200 auth=yes" \
		"GET /runs/pr101/quarantine.txt 200 auth=yes" "GET /two.json 200 auth=yes" >expect &&
	test_cmp expect actual &&
	http_log other | cut -d" " -f1-3,5 | sort >actual &&
	printf "%s\n" "GET /runs/pr102/full.tiadash.json 200 auth=no" \
		"GET /runs/pr102/full/junit.xml 200 auth=no" \
		"GET /runs/pr102/quarantine.txt 200 auth=no" >expect &&
	test_cmp expect actual
'

test_expect_success 'a redirect to another origin drops the token; one within the origin keeps it' '
	http_rules web "{\"/runs/pr103/full/junit.xml\": {\"redirect\": \"$O/runs/pr103/full/junit.xml\"},
		\"/runs/pr103/quarantine.txt\": {\"redirect\": \"/runs/pr104/quarantine.txt\", \"code\": 307}}" &&
	w=$(http_mark web) o=$(http_mark other) &&
	tiadash --db b.db --repo week/repo ingest "$W/runs/pr103/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	http_log web --from $w | cut -d" " -f1-3,5 | sort >actual &&
	printf "%s\n" "GET /runs/pr103/full.tiadash.json 200 auth=yes" \
		"GET /runs/pr103/full/junit.xml 302 auth=yes" \
		"GET /runs/pr103/quarantine.txt 307 auth=yes" \
		"GET /runs/pr104/quarantine.txt 200 auth=yes" >expect &&
	test_cmp expect actual &&
	http_log other --from $o | cut -d" " -f1-3,5 >actual &&
	echo "GET /runs/pr103/full/junit.xml 200 auth=no" >expect &&
	test_cmp expect actual
'

test_expect_success 'localhost is another origin than 127.0.0.1' '
	http_rules web "{}" &&
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\"]}\n" \
		"http://localhost:$web_port/runs/pr105/full.tiadash.json" >week/artifacts/lh.json &&
	w=$(http_mark web) &&
	tiadash --db c.db --repo week/repo ingest "$W/lh.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	http_log web --from $w | cut -d" " -f1-3,5 | sort >actual &&
	printf "%s\n" "GET /lh.json 200 auth=yes" "GET /runs/pr105/full.tiadash.json 200 auth=no" \
		"GET /runs/pr105/full/junit.xml 200 auth=no" \
		"GET /runs/pr105/quarantine.txt 200 auth=no" >expect &&
	test_cmp expect actual
'

test_expect_success 'URLs that an index file lists get no token: a file names no trusted origin' '
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\"]}\n" \
		"$W/runs/pr106/full.tiadash.json" >local-index.json &&
	w=$(http_mark web) &&
	tiadash --db d.db --repo week/repo ingest local-index.json >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	test "$(http_log web --from $w | grep -c " auth=no ")" = 3 &&
	test "$(http_log web --from $w | wc -l)" = 3
'

test_expect_success 'a 401 from an origin without the token says where the token goes' '
	http_rules other "{\"/runs/pr104/full/junit.xml\": {\"status\": 401}}" &&
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\"]}\n" \
		"$O/runs/pr104/full.tiadash.json" >week/artifacts/o.json &&
	test_expect_code 2 tiadash --db e.db --repo week/repo ingest "$W/o.json" >out 2>err &&
	echo "tiadash: error: $O/runs/pr104/full/junit.xml: HTTP 401 (TIADASH_TOKEN is only sent to $W)" >expect &&
	test_cmp expect err
'

test_expect_success 'the token is never printed, not even with the request that failed' '
	! grep -r "s3cret" --include=out --include=err . &&
	! grep -q s3cret a.db b.db c.db d.db e.db
'

test_expect_success 'redirects: five at most' '
	http_rules web "{\"/loop.json\": {\"redirect\": \"/loop2.json\"}, \"/loop2.json\": {\"redirect\": \"/loop.json\"}}" &&
	w=$(http_mark web) &&
	test_expect_code 2 tiadash --db f.db ingest "$W/loop.json" >out 2>err &&
	echo "tiadash: error: $W/loop.json: more than 5 redirects (the last to $W/loop.json)" >expect &&
	test_cmp expect err &&
	test "$(http_log web --from $w | wc -l)" = 6
'

test_expect_success 'redirects: to http or https only' '
	http_rules web "{\"/ftp.json\": {\"redirect\": \"ftp://127.0.0.1/x.json\"},
		\"/file.json\": {\"redirect\": \"file:///etc/passwd\"}}" &&
	test_expect_code 2 tiadash --db f.db ingest "$W/ftp.json" "$W/file.json" >out 2>err &&
	printf "%s\n" \
		"tiadash: error: $W/ftp.json: redirected to ${SQ}ftp://127.0.0.1/x.json${SQ}, which is not http or https" \
		"tiadash: error: $W/file.json: redirected to ${SQ}file:///etc/passwd${SQ}, which is not http or https" >expect &&
	test_cmp expect err
'

test_expect_success 'a 404 after a redirect names both URLs' '
	http_rules web "{\"/moved.json\": {\"redirect\": \"$O/nowhere.json\", \"code\": 301}}" &&
	test_expect_code 2 tiadash --db f.db ingest "$W/moved.json" >out 2>err &&
	echo "tiadash: error: $W/moved.json: HTTP 404 (redirected to $O/nowhere.json)" >expect &&
	test_cmp expect err
'

test_expect_success 'credentials in a URL are neither printed nor stored' '
	http_rules web "{}" &&
	tiadash --db g.db --repo week/repo ingest "http://user:pa55word@127.0.0.1:$web_port/runs/pr101/full.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	sqlite3 g.db "select uri from source" >actual &&
	echo "$W/runs/pr101/full.tiadash.json" >expect && test_cmp expect actual &&
	http_rules web "{\"/runs/pr101/full/junit.xml\": {\"status\": 404}}" &&
	test_expect_code 2 tiadash --db h.db ingest "http://user:pa55word@127.0.0.1:$web_port/runs/pr101/full.tiadash.json" >out 2>err &&
	echo "tiadash: error: $W/runs/pr101/full/junit.xml: HTTP 404" >expect && test_cmp expect err &&
	! grep -q pa55word g.db h.db
'

test_expect_success 'a token with a line break is not sent anywhere' '
	m=$(http_mark web) &&
	TIADASH_TOKEN="$(printf "a\r\nX-Evil: 1")" test_expect_code 2 tiadash --db i.db ingest "$W/index.json" >out 2>err &&
	echo "tiadash: error: TIADASH_TOKEN holds a line break: not sending it" >expect &&
	test_cmp expect err &&
	test "$(http_mark web)" = "$m"
'

test_done
