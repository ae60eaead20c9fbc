#!/bin/bash
# Decoded bytes of one source: gzip-encoded HTTP bodies and archive
# entries inflate far beyond what was sent, and every file of a manifest
# used to be held in memory at once (six 400 MB bodies: 2.9 GB). Now
# downloads spill to an unlinked temporary file and archive entries
# inflate as they are parsed, so peak memory is one parser's, whatever
# the source holds; --max-source-size caps what a source's files may
# decode to (default 2G), by name.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

mb=32 n=4

head=$(printf "%040d" 1)
results=$(seq 1 $n | sed 's/.*/"r&.xml"/' | paste -sd, -)

test_expect_success "setup: a $mb MB JUnit report, gzipped; a manifest naming it $n times" '
	python3 "$TEST_SRC/fuzz/gen-big.py" junit $mb counts >j.xml &&
	mkdir www && gzip -1 -c j.xml >www/j.xml.gz &&
	printf "{\"schema\": \"tiadash.run.v1\", \"head\": \"%s\", \"base\": \"%s\", \"kind\": \"full\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"fail\", \"results\": [%s]}\n" \
		"$head" "$head" "$results" >www/m.json &&
	cp www/m.json m.json
'
http_start web "$TRASH/www" || exit 2
U=http://127.0.0.1:$web_port

test_expect_success "$n gzip-encoded bodies of $mb MB: ingested in under 64 MB${TEST_ASAN:+ (not measured under ASan)}" '
	http_rules web "{$(seq 1 $n | sed "s|.*|\"/r&.xml\": {\"gzip\": \"j.xml.gz\"}|" | paste -sd, -)}" &&
	peak gz.kb "$TIADASH_BIN" --db g.db ingest "$U/m.json" >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	read tests failures <counts &&
	sqlite3 g.db "SELECT failures FROM run" >actual &&
	# every case counts: the report is named (and so read) four times
	echo "$((failures * n))" >expect && test_cmp expect actual &&
	below gz.kb 64
'

test_expect_success 'what they decode to over --max-source-size: refused once, by name' '
	test_expect_code 2 tiadash --db g2.db ingest --max-source-size $((mb * 3 / 2))M "$U/m.json" >out 2>err &&
	test "$(grep -c error err)" = 1 &&
	test_grep "^tiadash: error: $U/r[0-9].xml: the files of its run add up to more than the $((mb * 3 / 2 * 1048576))-byte limit (--max-source-size, TIADASH_HTTP_MAX_SOURCE_SIZE)$" err &&
	echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out
'
http_stop_all

export GITHUB_TOKEN=ghs_t0ken
test_expect_success "setup: a CI artifact zip of $n entries of $mb MB" '
	entries="\"run/tiadash-run.json\": \"m.json\"" &&
	for i in $(seq 1 $n); do entries="$entries, \"run/r$i.xml\": \"j.xml\""; done &&
	cat >spec.json <<-EOF &&
	{"token": "ghs_t0ken", "github": {"project": "acme/ledger", "runs": [
	 {"id": 1001, "workflow": "full.yml", "head_sha": "$head", "created_at": "2026-11-02T10:00:00Z",
	  "updated_at": "2026-11-02T10:20:00Z", "conclusion": "success",
	  "artifacts": [{"id": 5001, "name": "tiadash-full-1", "entries": {$entries}}]}]}}
	EOF
	ci_world spec.json && rm j.xml
'
ci_start || exit 2

test_expect_success "the archive's entries inflate as they are parsed: under 64 MB${TEST_ASAN:+ (not measured under ASan)}" '
	peak zip.kb "$TIADASH_BIN" --db z.db ingest --github acme/ledger --workflow full.yml \
		--api-url "$API" >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	read tests failures <counts &&
	sqlite3 z.db "SELECT failures FROM run" >actual &&
	echo "$((failures * n))" >expect && test_cmp expect actual &&
	below zip.kb 64
'

test_expect_success 'entries that inflate over --max-source-size: refused, by name' '
	test_expect_code 2 tiadash --db z2.db ingest --github acme/ledger --workflow full.yml \
		--api-url "$API" --max-source-size $((mb * 3 / 2))M >out 2>err &&
	test_grep "^tiadash: error: github acme/ledger full.yml run 1001 artifact 5001 ${SQ}tiadash-full-1${SQ}: run/tiadash-run.json: its files inflate to more than the $((mb * 3 / 2 * 1048576))-byte limit (--max-source-size, TIADASH_HTTP_MAX_SOURCE_SIZE)$" err &&
	echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out
'

test_done
