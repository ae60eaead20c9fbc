#!/bin/bash
# Ingest by URL: an index and its manifests over HTTP land exactly as the
# same files from a folder; single manifests, bare files, and the failures
# that name the URL while the other sources still land.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/http/lib-http.sh"

make_week week >/dev/null || exit 2
http_start web "$PWD/week/artifacts" || exit 2
http_start other "$PWD/week/artifacts" || exit 2
W=http://127.0.0.1:$web_port
O=http://127.0.0.1:$other_port

test_expect_success 'an index by URL lands as the same files from the folder' '
	tiadash --db url.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^12 new runs, 0 unchanged$" out &&
	tiadash --db dir.db --repo week/repo ingest week/artifacts/index.json >out &&
	test_grep "^12 new runs, 0 unchanged$" out &&
	tiadash --db url.db status --format json >url.json &&
	tiadash --db dir.db status --format json >dir.json &&
	test_cmp dir.json url.json &&
	store_runs_dump dir.db >dir.dump &&
	store_runs_dump url.db >url.dump &&
	test_cmp dir.dump url.dump &&
	test "$(json_get url.json "d[\"runs\"][\"shadow\"], d[\"pairs\"], d[\"failures\"]")" = "(6, 6, 2)"
'

test_expect_success 'each run is stored as its manifest URL, the digests as from the folder' '
	sqlite3 url.db "select uri from source order by uri" >uris &&
	for pr in 101 102 103 104 105 106; do
		echo "$W/runs/pr$pr/full.tiadash.json" &&
		echo "$W/runs/pr$pr/shadow.tiadash.json" || return 1
	done >expect &&
	test_cmp expect uris &&
	sqlite3 url.db "select digest from source order by digest" >url.digests &&
	sqlite3 dir.db "select digest from source order by digest" >dir.digests &&
	test_cmp dir.digests url.digests
'

test_expect_success 'a reference is a path: a space in a report name is sent as %20' '
	http_log web >log &&
	test_grep "^GET /runs/pr101/shadow%20junit.xml 200 " log
'

test_expect_success 'the folder ingest and the URL ingest recognise each other' '
	tiadash --db dir.db --repo week/repo ingest "$W/index.json" >out &&
	test_grep "^0 new runs, 12 unchanged$" out &&
	tiadash --db url.db --repo week/repo ingest week/artifacts >out &&
	test_grep "^0 new runs, 12 unchanged$" out
'

test_expect_success 'one manifest by URL, its references resolved against its own URL' '
	tiadash --db one.db --repo week/repo ingest "$W/runs/pr102/shadow.tiadash.json" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	sqlite3 one.db "select uri from source" >actual &&
	echo "$W/runs/pr102/shadow.tiadash.json" >expect &&
	test_cmp expect actual &&
	tiadash --db one.db show 102 --format json >s.json &&
	test "$(json_get s.json "json.dumps([d[\"selection\"][\"decision\"], d[\"runs\"][0][\"tests\"]])")" = "[\"selected\", 5]"
'

test_expect_success 'an index may list manifests on another origin by absolute URL' '
	mkdir -p www/idx &&
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\", \"%s\"]}\n" \
		"$O/runs/pr103/full.tiadash.json" "../runs/pr103/shadow.tiadash.json" \
		>week/artifacts/idx.json &&
	m=$(http_mark other) &&
	tiadash --db mix.db --repo week/repo ingest "$W/idx.json" >out 2>err;
	test $? = 2 &&
	test_grep "^1 new run, 0 unchanged$" out &&
	test_grep "^tiadash: error: $W/idx.json: run .../runs/pr103/shadow.tiadash.json. is neither an http(s) URL nor a relative path inside the index.s directory$" err &&
	http_log other --from $m >log &&
	printf "%s\n" "GET /runs/pr103/full.tiadash.json 200" "GET /runs/pr103/full/junit.xml 200" \
		"GET /runs/pr103/quarantine.txt 200" >expect &&
	cut -d" " -f1-3 log | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'a manifest that cannot be fetched names its URL and status; the rest land' '
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\", \"%s\", \"%s\"]}\n" \
		runs/pr101/full.tiadash.json runs/gone.tiadash.json runs/pr104/full.tiadash.json \
		>week/artifacts/gone.json &&
	test_expect_code 2 tiadash --db gone.db --repo week/repo ingest "$W/gone.json" >out 2>err &&
	test_grep "^2 new runs, 0 unchanged, 1 failed$" out &&
	echo "tiadash: error: $W/runs/gone.tiadash.json: HTTP 404" >expect &&
	test_cmp expect err
'

test_expect_success 'a referenced file that cannot be fetched: nothing of that run lands' '
	mkdir -p week/artifacts/broken &&
	sed "s|full/junit.xml|missing.xml|" week/artifacts/runs/pr105/full.tiadash.json \
		>week/artifacts/broken/full.tiadash.json &&
	cp week/artifacts/runs/pr105/quarantine.txt week/artifacts/broken/ &&
	printf "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"%s\", \"%s\"]}\n" \
		broken/full.tiadash.json runs/pr105/shadow.tiadash.json >week/artifacts/broken.json &&
	test_expect_code 2 tiadash --db broken.db --repo week/repo ingest "$W/broken.json" >out 2>err &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	echo "tiadash: error: $W/broken/missing.xml: HTTP 404" >expect &&
	test_cmp expect err &&
	sqlite3 broken.db "select r.kind from run r" >kinds &&
	echo shadow >expect && test_cmp expect kinds
'

test_expect_success 'a malformed report by URL is named by URL and line' '
	mkdir -p week/artifacts/bad &&
	sed "s|full/junit.xml|bad.xml|" week/artifacts/runs/pr106/full.tiadash.json \
		>week/artifacts/bad/full.tiadash.json &&
	cp week/artifacts/runs/pr106/quarantine.txt week/artifacts/bad/ &&
	printf "<testsuites>\n<testsuite>\n<testcase name=\"x\">\n</testsuites>\n" >week/artifacts/bad/bad.xml &&
	test_expect_code 2 tiadash --db bad.db --repo week/repo ingest "$W/bad/full.tiadash.json" >out 2>err &&
	test_grep "^tiadash: error: $W/bad/bad.xml:4: " err &&
	test "$(sqlite3 bad.db "select count(*) from run")" = 0
'

test_expect_success 'a URL that is neither a manifest nor an index needs --kind/--head' '
	test_expect_code 2 tiadash --db x.db ingest "$W/runs/pr101/full/junit.xml" 2>err &&
	test_grep "^tiadash: error: $W/runs/pr101/full/junit.xml: neither a run manifest (tiadash.run.v1) nor an index (tiadash.index.v1); to ingest bare files give --kind and --head$" err
'

test_expect_success 'bare files by URL, fetched together, are one run' '
	head=$(git -C week/repo rev-parse HEAD) &&
	tiadash --db bare.db --repo week/repo ingest --kind full --head "$head" --pr 7 \
		--started-at 2026-11-03T08:00:00Z "$W/runs/pr101/full/junit.xml" \
		--quarantine "$W/runs/pr101/quarantine.txt" >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	sqlite3 bare.db "select uri from source" >actual &&
	echo "bare:$W/runs/pr101/full/junit.xml" >expect && test_cmp expect actual &&
	tiadash --db bare.db show 7 --format json >b.json &&
	test "$(json_get b.json "json.dumps([d[\"runs\"][0][\"tests\"], d[\"runs\"][0][\"verdict\"]])")" = "[12, \"pass\"]" &&
	tiadash --db bare.db --repo week/repo ingest --kind full --head "$head" --pr 7 \
		--started-at 2026-11-03T08:00:00Z "$W/runs/pr101/full/junit.xml" \
		--quarantine "$W/runs/pr101/quarantine.txt" >out &&
	test_grep "^0 new runs, 1 unchanged$" out
'

test_expect_success 'a bare file URL that fails: nothing lands, exit 2' '
	test_expect_code 2 tiadash --db bare2.db ingest --kind full \
		--head 0123456789abcdef0123456789abcdef01234567 \
		"$W/runs/pr101/full/junit.xml" "$W/nope.xml" >out 2>err &&
	echo "tiadash: error: $W/nope.xml: HTTP 404" >expect && test_cmp expect err &&
	test "$(sqlite3 bare2.db "select count(*) from run")" = 0
'

test_expect_success 'a URL that does not parse is an error naming it' '
	test_expect_code 2 tiadash --db x.db ingest "http://[::1" 2>err &&
	test_grep "^tiadash: error: .http://\[::1. is not a valid http or https URL$" err
'

if [ -e "$SAMPLE/artifacts/index.json" ]; then
	http_start sample "$SAMPLE/artifacts" || exit 2
	test_expect_success 'the sample week over HTTP lands as from its folder' '
		tiadash --db s-url.db --repo "$SAMPLE/repo" ingest \
			"http://127.0.0.1:$sample_port/index.json" >url.out 2>url.err &&
		tiadash --db s-dir.db --repo "$SAMPLE/repo" ingest \
			"$SAMPLE/artifacts/index.json" >dir.out 2>dir.err &&
		test_cmp dir.out url.out &&
		sed "s|http://127.0.0.1:$sample_port|$SAMPLE/artifacts|g" url.err | sort >url.err.sorted &&
		sort dir.err >dir.err.sorted &&
		test_cmp dir.err.sorted url.err.sorted &&
		tiadash --db s-url.db status --format json >url.json &&
		tiadash --db s-dir.db status --format json >dir.json &&
		test_cmp dir.json url.json &&
		store_runs_dump s-dir.db >dir.dump &&
		store_runs_dump s-url.db >url.dump &&
		test_cmp dir.dump url.dump
	'
fi

test_done
