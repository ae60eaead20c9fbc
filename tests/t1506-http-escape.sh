#!/bin/bash
# A manifest by URL names files below its own directory only: `..`,
# absolute paths and other hosts are refused by the manifest's checks, and
# percent-encoded tricks (%2e%2e, %2f, %5c) by resolving, normalising and
# checking the URL; no request leaves the directory. A reference is a path,
# as on disk: '%', '?', '#' and spaces name files.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
mkdir -p week/artifacts/m/sub && echo "<testsuites/>" >week/artifacts/x.xml
http_start web "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
SQ="'"

# manifest NAME REF: week/artifacts/m/NAME.tiadash.json naming REF as results.
manifest() {
	sed "s|\"full/junit.xml\"|\"$2\"|; s|\"quarantine\": \"quarantine.txt\"|\"quarantine\": null|" \
		week/artifacts/runs/pr101/full.tiadash.json >"week/artifacts/m/$1.tiadash.json"
}

test_expect_success 'the manifest checks refuse ../x.xml before any request for it' '
	manifest dotdot "../x.xml" &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db a.db ingest "$W/m/dotdot.tiadash.json" >out 2>err &&
	test_grep "^tiadash: error: $W/m/dotdot.tiadash.json:[0-9]*: ${SQ}results${SQ} names ${SQ}../x.xml${SQ}, which is not a relative path inside the manifest${SQ}s directory$" err &&
	http_log web --from $m | cut -d" " -f1-3 >actual &&
	echo "GET /m/dotdot.tiadash.json 200" >expect && test_cmp expect actual
'

for ref in %2e%2e/x.xml %2E%2E/x.xml .%2e/x.xml sub/%2e%2e/%2e%2e/x.xml \
	%2e%2e%2fx.xml ..%2fx.xml ..%5cx.xml %252e%252e/x.xml; do
	test_expect_success "percent-encoded escape $ref is refused, nothing requested but the manifest" '
		manifest enc "$ref" &&
		m=$(http_mark web) &&
		test_expect_code 2 tiadash --db b.db ingest "$W/m/enc.tiadash.json" >out 2>err &&
		test_grep "^0 new runs, 0 unchanged, 1 failed$" out &&
		echo "tiadash: error: $W/m/enc.tiadash.json: ${SQ}$ref${SQ} leaves the manifest${SQ}s directory once percent-decoded" >expect &&
		test_cmp expect err &&
		http_log web --from $m | cut -d" " -f1-3 >actual &&
		echo "GET /m/enc.tiadash.json 200" >expect &&
		test_cmp expect actual
	'
done

test_expect_success 'an absolute path or another host is refused by the manifest checks' '
	manifest abs "/x.xml" &&
	test_expect_code 2 tiadash --db c.db ingest "$W/m/abs.tiadash.json" >out 2>err &&
	test_grep "names ${SQ}/x.xml${SQ}, which is not a relative path inside the manifest${SQ}s directory$" err &&
	manifest host "http://evil.example/x.xml" &&
	test_expect_code 2 tiadash --db c.db ingest "$W/m/host.tiadash.json" >out 2>err &&
	test_grep "names ${SQ}http://evil.example/x.xml${SQ}, which is not a relative path" err
'

test_expect_success 'a reference is a path: %41, ? and # are parts of the file name' '
	cp week/artifacts/runs/pr101/full/junit.xml "week/artifacts/m/a%41?b#c.xml" &&
	manifest odd "a%41?b#c.xml" &&
	m=$(http_mark web) &&
	tiadash --db d.db ingest "$W/m/odd.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	http_log web --from $m | cut -d" " -f1-3 >actual &&
	printf "%s\n" "GET /m/odd.tiadash.json 200" "GET /m/a%2541%3Fb%23c.xml 200" >expect &&
	test_cmp expect actual
'

test_expect_success 'a reference into a subdirectory, with ./ segments, is fine' '
	cp week/artifacts/runs/pr101/full/junit.xml week/artifacts/m/sub/j.xml &&
	manifest sub "./sub/./j.xml" &&
	tiadash --db e.db ingest "$W/m/sub.tiadash.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out
'

test_expect_success 'an index by URL: relative entries stay inside its directory too' '
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\", \"%s\", \"%s\", \"%s\"]}\n" \
		"../runs/pr101/full.tiadash.json" "%2e%2e/runs/pr101/full.tiadash.json" \
		"ftp://127.0.0.1/x.json" "sub2/../../x.json" >week/artifacts/m/index.json &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db f.db ingest "$W/m/index.json" >out 2>err &&
	for e in ../runs/pr101/full.tiadash.json %2e%2e/runs/pr101/full.tiadash.json \
		ftp://127.0.0.1/x.json sub2/../../x.json; do
		echo "tiadash: error: $W/m/index.json: run ${SQ}$e${SQ} is neither an http(s) URL nor a relative path inside the index${SQ}s directory" || return 1
	done >expect &&
	test_cmp expect err &&
	http_log web --from $m | cut -d" " -f1-3 >actual &&
	echo "GET /m/index.json 200" >expect && test_cmp expect actual
'

test_done
