#!/bin/bash
# NUL in JSON strings: cJSON ends a string at a NUL, so "nul\u0000after::t"
# came back as "nul" and two distinct failed ids merged into one. A JSON
# document holding a NUL, escaped or raw (a manifest, a selector's native
# output, a codebase-memory-mcp answer), is refused with file:line; an
# escaped backslash before "u0000" is plain text and goes in.
. "$(dirname "$0")/lib.sh"
SQ="'"

head=$(printf "%040d" 1)
common="\"head\": \"$head\", \"base\": \"$head\", \"kind\": \"full\",
 \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"fail\""

test_expect_success 'failed ids with \u0000 in a manifest: refused with file:line' '
	mkdir m && printf "{\"schema\": \"tiadash.run.v1\", %s,\n \"failed\": [\"nul\\\\u0000after::t\",\n \"nul\\\\u0000other::t\"]}\n" "$common" >m/tiadash-run.json &&
	test_expect_code 2 tiadash --db s.db ingest m >out 2>err &&
	echo "tiadash: error: m/tiadash-run.json:3: a string holds a NUL character (\\u0000), which would cut it short: refused" >expect &&
	test_cmp expect err &&
	echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out
'

test_expect_success 'a raw NUL byte in a manifest: refused as binary data' '
	mkdir r && printf "{\"schema\": \"tiadash.run.v1\", %s,\n \"failed\": [\"nul\\000after::t\"]}\n" "$common" >r/tiadash-run.json &&
	test_expect_code 2 tiadash --db s.db ingest r >out 2>err &&
	echo "tiadash: error: r/tiadash-run.json:3: binary data (a NUL byte), not JSON" >expect &&
	test_cmp expect err
'

test_expect_success 'a vitest list with \u0000: refused with file:line' '
	printf "[\n  {\"name\": \"a\\\\u0000b\", \"file\": \"src/a.test.ts\"}\n]\n" >list.json &&
	test_expect_code 2 tiadash --db s.db ingest --kind shadow --head "$head" --verdict pass \
		--started-at 2026-11-03T10:00:00Z --selection-format vitest --selection list.json >out 2>err &&
	test_grep "^tiadash: error: list.json:2: a string holds a NUL character (\\\\u0000), which would cut it short: refused$" err &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 0
'

test_expect_success 'an engine answer with \u0000 runs everything, as its consumer does, with file:line' '
	printf "{\"schema\": \"cbm.test_impact.v0\", \"decision\": \"selected\",\n \"lanes\": [{\"lane\": \"unit\", \"decision\": \"selected\", \"suites\": [{\"suite\": \"a\\\\u0000\", \"mode\": \"whole\"}]}]}\n" >selection-engine.json &&
	tiadash --db e.db ingest --kind shadow --head "$head" --verdict pass \
		--started-at 2026-11-03T10:00:00Z selection-engine.json >out 2>err &&
	test_grep "^tiadash: warning: selection-engine.json:2: codebase-memory-mcp answer: a string holds a NUL character (\\\\u0000), which would cut it short: refused: taken as run_all (selector-error)" err &&
	test "$(sqlite3 e.db "SELECT decision FROM selection")" = run_all
'

test_expect_success 'an escaped backslash before u0000 is text: stored as written' '
	mkdir t && printf "{\"schema\": \"tiadash.run.v1\", %s,\n \"failed\": [\"a\\\\\\\\u0000b::t\"]}\n" "$common" >t/tiadash-run.json &&
	tiadash --db t.db ingest t >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 t.db "SELECT s.text || ${SQ}::${SQ} || c.text FROM result x JOIN name s ON s.id = x.suite_id JOIN name c ON c.id = x.case_id" >actual &&
	printf "%s\n" "a\\u0000b::t" >expect && test_cmp expect actual
'

test_done
