#!/bin/bash
# Conditional requests: a cron re-ingest asks "changed since?" with the
# validators the store remembers, downloads only what changed, and never
# takes a 304 for "unchanged" unless the stored run came from those bytes.
# tests/run: waits (on its HTTP servers)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port

test_expect_success 'first ingest: every request unconditional, every answer a body' '
	tiadash --db s.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^12 new runs, 0 unchanged$" out &&
	http_log web >log &&
	test "$(grep -c " 200 " log)" = 48 &&
	test "$(grep -c -v " cond=-$" log)" = 0
'

test_expect_success 'a re-ingest is answered with 304s only: no body downloaded' '
	store_dump s.db >before &&
	m=$(http_mark web) &&
	tiadash --db s.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^0 new runs, 12 unchanged$" out &&
	http_log web --from $m >log &&
	test "$(wc -l <log)" = 48 &&
	test "$(grep -c " 304 bytes=0 auth=no cond=etag,date$" log)" = 48 &&
	store_dump s.db | grep -v "INSERT INTO http_cache" >after &&
	grep -v "INSERT INTO http_cache" before >before.runs &&
	test_cmp before.runs after
'

test_expect_success 'the store remembers each manifest with its body and its files per manifest' '
	sqlite3 s.db "select count(*), count(body) from http_cache" >actual &&
	echo "13|13" >expect && test_cmp expect actual &&
	sqlite3 s.db "select url from http_part where doc_url = \"$W/runs/pr101/full.tiadash.json\" order by url" >actual &&
	printf "%s\n" "$W/runs/pr101/full/junit.xml" "$W/runs/pr101/quarantine.txt" >expect &&
	test_cmp expect actual
'

test_expect_success 'a file changed behind an unchanged manifest is found, and refused without --replace' '
	store_dump s.db | grep -v "INSERT INTO http_cache" >before &&
	sed -i "s/test_0\"/test_0_renamed\"/" week/artifacts/runs/pr101/full/junit.xml &&
	m=$(http_mark web) &&
	test_expect_code 2 tiadash --db s.db --repo week/repo ingest "$W/index.json" >out 2>err &&
	test_grep "^0 new runs, 11 unchanged, 1 failed$" out &&
	test_grep "^tiadash: error: $W/runs/pr101/full.tiadash.json: full run .* attempt 1 is already stored from .$W/runs/pr101/full.tiadash.json. with different content (give --replace to replace it)$" err &&
	http_log web --from $m | grep "/runs/pr101/" | grep -v "shadow\|selected\|cov.info" >log &&
	printf "%s\n" \
		"GET /runs/pr101/full.tiadash.json 304 auth=no cond=etag,date" \
		"GET /runs/pr101/full/junit.xml 200 auth=no cond=etag,date" \
		"GET /runs/pr101/quarantine.txt 200 auth=no cond=-" \
		"GET /runs/pr101/quarantine.txt 304 auth=no cond=etag,date" \
		"GET /runs/pr101/quarantine.txt 304 auth=no cond=etag,date" >expect &&
	sed "s/ bytes=[0-9]*//" log | sort >actual &&
	test_cmp expect actual &&
	store_dump s.db | grep -v "INSERT INTO http_cache" >after &&
	test_cmp before after
'

test_expect_success 'the refusal is not forgotten: the next cron run reports it again' '
	test_expect_code 2 tiadash --db s.db --repo week/repo ingest "$W/index.json" >out 2>err &&
	test_grep "^0 new runs, 11 unchanged, 1 failed$" out &&
	test_grep "with different content (give --replace to replace it)$" err
'

test_expect_success 'with --replace the changed run is replaced, and then all is 304 again' '
	tiadash --db s.db --repo week/repo ingest --replace "$W/index.json" >out &&
	test_grep "^0 new runs, 11 unchanged, 1 replaced$" out &&
	tiadash --db fresh.db --repo week/repo ingest week/artifacts/runs/pr101/full.tiadash.json >/dev/null &&
	sqlite3 fresh.db "select digest from source" >expect &&
	sqlite3 s.db "select digest from source where uri = \"$W/runs/pr101/full.tiadash.json\"" >actual &&
	test_cmp expect actual &&
	m=$(http_mark web) &&
	tiadash --db s.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^0 new runs, 12 unchanged$" out &&
	test "$(http_log web --from $m | grep -c -v " 304 bytes=0 ")" = 0
'

test_expect_success 'a manifest added to the index: only it and its files are downloaded' '
	python3 -c "
import json
p = \"week/artifacts/index.json\"
d = json.load(open(p))
d[\"runs\"].append(\"extra/full.tiadash.json\")
json.dump(d, open(p, \"w\"))
" &&
	mkdir -p week/artifacts/extra/full &&
	sed "s/\"attempt\": 1/\"attempt\": 2/" week/artifacts/runs/pr103/full.tiadash.json \
		>week/artifacts/extra/full.tiadash.json &&
	cp week/artifacts/runs/pr103/full/junit.xml week/artifacts/extra/full/ &&
	cp week/artifacts/runs/pr103/quarantine.txt week/artifacts/extra/ &&
	m=$(http_mark web) &&
	tiadash --db s.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^1 new run, 12 unchanged$" out &&
	http_log web --from $m | grep " 200 " | cut -d" " -f1-3 | sort >actual &&
	printf "%s\n" "GET /extra/full.tiadash.json 200" "GET /extra/full/junit.xml 200" \
		"GET /extra/quarantine.txt 200" "GET /index.json 200" >expect &&
	test_cmp expect actual
'

test_expect_success 'a file shared by two manifests is judged for each of them' '
	tiadash --db share.db --repo week/repo ingest "$W/runs/pr104/full.tiadash.json" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	echo "tests/test_tax.py::test_9" >>week/artifacts/runs/pr104/quarantine.txt &&
	tiadash --db share.db --repo week/repo ingest "$W/runs/pr104/shadow.tiadash.json" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	test_expect_code 2 tiadash --db share.db --repo week/repo ingest "$W/runs/pr104/full.tiadash.json" >out 2>err &&
	test_grep "^0 new runs, 0 unchanged, 1 failed$" out &&
	test_grep "with different content (give --replace to replace it)$" err
'

test_expect_success 'without validators a file is downloaded each time, the run still unchanged' '
	http_rules web "{\"/runs/pr102/full/junit.xml\": {\"no_validators\": true}}" &&
	tiadash --db nv.db --repo week/repo ingest "$W/runs/pr102/full.tiadash.json" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	m=$(http_mark web) &&
	tiadash --db nv.db --repo week/repo ingest "$W/runs/pr102/full.tiadash.json" >out &&
	test_grep "^0 new runs, 1 unchanged$" out &&
	http_log web --from $m | sed "s/ bytes=[0-9]*//" | sort >actual &&
	printf "%s\n" \
		"GET /runs/pr102/full.tiadash.json 304 auth=no cond=etag,date" \
		"GET /runs/pr102/full/junit.xml 200 auth=no cond=-" \
		"GET /runs/pr102/quarantine.txt 200 auth=no cond=-" >expect &&
	test_cmp expect actual &&
	http_rules web "{}"
'

test_expect_success 'a run stored from elsewhere is not trusted to a 304: downloaded, compared' '
	tiadash --db mixed.db --repo week/repo ingest week/artifacts/runs/pr105 >out &&
	test_grep "^2 new runs, 0 unchanged$" out &&
	tiadash --db mixed.db --repo week/repo ingest "$W/runs/pr105/full.tiadash.json" >out &&
	test_grep "^0 new runs, 1 unchanged$" out &&
	m=$(http_mark web) &&
	tiadash --db mixed.db --repo week/repo ingest "$W/runs/pr105/full.tiadash.json" >out &&
	test_grep "^0 new runs, 1 unchanged$" out &&
	http_log web --from $m | sed "s/ bytes=[0-9]*//" | sort >actual &&
	printf "%s\n" \
		"GET /runs/pr105/full.tiadash.json 304 auth=no cond=etag,date" \
		"GET /runs/pr105/full/junit.xml 200 auth=no cond=-" \
		"GET /runs/pr105/quarantine.txt 200 auth=no cond=-" >expect &&
	test_cmp expect actual
'

test_expect_success 'a manifest that changed is downloaded and ingested again in full' '
	tiadash --db ch.db --repo week/repo ingest "$W/runs/pr106/shadow.tiadash.json" >out &&
	sed -i "s/\"wall_clock_s\": 65.0/\"wall_clock_s\": 66.0/" week/artifacts/runs/pr106/shadow.tiadash.json &&
	m=$(http_mark web) &&
	tiadash --db ch.db --repo week/repo ingest --replace "$W/runs/pr106/shadow.tiadash.json" >out &&
	test_grep "^0 new runs, 0 unchanged, 1 replaced$" out &&
	test "$(http_log web --from $m | grep -c " 200 ")" = 5 &&
	test "$(sqlite3 ch.db "select wall_clock_s from run")" = 66.0
'

test_done
