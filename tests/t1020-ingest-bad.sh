#!/bin/bash
# Bad input is normal input: each bad source is named with file:line, exits 2,
# leaves nothing of itself in the store, and does not stop the other sources.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a repository and one good run' '
	git init -q repo && cd repo && echo a >a.c && commit_at "2026-10-30T10:00:00Z" init &&
	echo b >>a.c && commit_at "2026-10-30T11:00:00Z" two && cd .. &&
	git -C repo rev-parse HEAD~1 >base && git -C repo rev-parse HEAD >head
'
base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)
common="\"base\": \"$base\", \"head\": \"$head\", \"started_at\": \"2026-11-02T10:00:00Z\""

test_expect_success 'setup: the good store' '
	write_run good "$common, \"pr\": 1, \"kind\": \"full\", \"verdict\": \"pass\", \"results\": [\"j.xml\"]" &&
	junit good/j.xml a.py::t1 &&
	tiadash --db s.db --repo repo ingest good >/dev/null &&
	store_dump s.db >before
'

# bad_source NAME EXPECTED-MESSAGE: ingest bad/NAME beside a fresh good run;
# exit 2, the message, the good run lands, nothing of the bad one does.
bad_source() {
	local name=$1 want=$2
	cp s.db t.db && rm -f t.db-wal t.db-shm &&
	write_run "side-$name" "$common, \"pr\": 2, \"kind\": \"shadow\", \"verdict\": \"pass\", \"results\": [\"j.xml\"]" &&
	junit "side-$name/j.xml" a.py::t1 &&
	test_expect_code 2 tiadash --db t.db --repo repo ingest "bad/$name" "side-$name" >out 2>err &&
	test_grep "$want" err &&
	test_grep "^1 new run, 0 unchanged, 1 failed$" out &&
	tiadash --db t.db status --format json >st.json &&
	test "$(json_get st.json "d[\"runs\"][\"shadow\"]")" = 1 &&
	test "$(json_get st.json "d[\"runs\"][\"full\"]")" = 1 &&
	test "$(json_get st.json "d[\"sources\"]")" = 2
}

full_run() {
	write_run "bad/$1" "$common, \"pr\": 3, \"kind\": \"full\", \"attempt\": 2, \"verdict\": \"fail\", $2"
}

test_expect_success 'truncated JUnit: file:line, nothing stored' '
	full_run trunc "\"results\": [\"j.xml\"]" &&
	printf "<testsuites>\n<testsuite name=\"s\">\n<testcase name=\"a\"><failure>" >bad/trunc/j.xml &&
	bad_source trunc "bad/trunc/j.xml:3: unexpected end of file (truncated?)"
'

test_expect_success 'malformed manifest JSON' '
	mkdir -p bad/json && printf "{\n \"schema\": \"tiadash.run.v1\",\n \"head\": [\n" >bad/json/tiadash-run.json &&
	bad_source json "bad/json/tiadash-run.json:4: unexpected end of input"
'

test_expect_success 'wrong schema' '
	write_run bad/schema "\"schema\": \"tiadash.run.v9\"" &&
	sed -i "s/\"schema\": \"tiadash.run.v1\", //" bad/schema/tiadash-run.json &&
	bad_source schema "neither a run manifest"
'

test_expect_success 'a field of the wrong type names the field and its line' '
	mkdir -p bad/field &&
	printf "{\"schema\": \"tiadash.run.v1\",\n\"base\": \"%s\",\n\"head\": \"%s\",\n\"kind\": \"full\",\n\"started_at\": \"yesterday\",\n\"verdict\": \"pass\"}\n" \
		"$base" "$head" >bad/field/tiadash-run.json &&
	bad_source field "bad/field/tiadash-run.json:5: .started_at. must be an RFC 3339 time"
'

test_expect_success 'a path escaping the manifest folder is refused' '
	full_run escape "\"results\": [\"../../good/j.xml\"]" &&
	bad_source escape "names .../../good/j.xml., which is not a relative path inside"
'

test_expect_success 'binary garbage as a report' '
	full_run garbage "\"results\": [\"j.xml\"]" &&
	head -c 2000 /bin/ls >bad/garbage/j.xml &&
	bad_source garbage "bad/garbage/j.xml:1: malformed XML"
'

test_expect_success 'a missing referenced file' '
	full_run missing "\"results\": [\"nope.xml\"]" &&
	bad_source missing "cannot open .bad/missing/nope.xml.: No such file"
'

test_expect_success 'the second of two reports is bad: nothing of the run lands' '
	full_run second "\"results\": [\"a.xml\", \"b.xml\"]" &&
	junit bad/second/a.xml a.py::x:failed &&
	printf "<testsuite><testcase name=\"y\"></testsuite>\n" >bad/second/b.xml &&
	bad_source second "bad/second/b.xml:1: malformed XML: mismatched tag"
'

test_expect_success 'malformed lcov' '
	full_run lcov "\"results\": [\"j.xml\"], \"coverage\": [\"c.info\"]" &&
	junit bad/lcov/j.xml a.py::t1 &&
	printf "SF:/w/a.c\nDA:1,1\nDA:two,1\nend_of_record\n" >bad/lcov/c.info &&
	bad_source lcov "bad/lcov/c.info:3: DA record has an invalid line number .two."
'

test_expect_success 'a codebase-memory-mcp answer it cannot read runs everything, as its consumer does' '
	write_run cbm "$common, \"pr\": 3, \"kind\": \"shadow\", \"verdict\": \"pass\",
		\"selection\": {\"engine_file\": \"sel.json\", \"total_tests\": 5}" &&
	cp "$TEST_SRC/data/cbm/answers/schema.json" cbm/sel.json &&
	cp s.db c.db && rm -f c.db-wal c.db-shm &&
	tiadash --db c.db --repo repo ingest cbm >out 2>err &&
	test_grep "^tiadash: warning: cbm/sel.json:1: codebase-memory-mcp answer: unknown schema cbm.test_impact.v9 (expected cbm.test_impact.v0): taken as run_all (selector-error)" err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	tiadash --db c.db show 3 --format json >show.json &&
	test "$(json_get show.json "d[\"selection\"][\"decision\"]")" = run_all &&
	test "$(json_get show.json "\" | \".join(d[\"selection\"][\"reasons\"])")" = \
		"selector-error: unknown schema cbm.test_impact.v9"
'

test_expect_success 'a quarantine list that is binary' '
	full_run qbin "\"results\": [\"j.xml\"], \"quarantine\": \"q.txt\"" &&
	junit bad/qbin/j.xml a.py::t1 &&
	printf "a::b\n\000\n" >bad/qbin/q.txt &&
	bad_source qbin "bad/qbin/q.txt:2: binary data"
'

test_expect_success 'hostile bytes in a bad file name are escaped in the message' '
	name=$(printf "evil\033[31m") &&
	full_run "$name" "\"results\": [\"j.xml\"]" &&
	printf "<x" >"bad/$name/j.xml" &&
	bad_source "$name" "evil\\\\x1b\[31m/j.xml" &&
	! grep -q "$(printf "\033")" err
'

test_expect_success 'the original store is untouched by failed sources' '
	store_dump s.db >after &&
	test_cmp before after
'

# bounded NAME TOP SELECTION: a shadow manifest in bad/NAME, TOP on line 5
# (top-level members), SELECTION on line 7 (members of "selection").
bounded() {
	mkdir -p "bad/$1" &&
	cat >"bad/$1/tiadash-run.json" <<-EOF &&
	{"schema": "tiadash.run.v1",
	 "base": "$base", "head": "$head",
	 "started_at": "2026-11-02T10:00:00Z",
	 "pr": 4, "kind": "shadow", "verdict": "pass",
	 $2
	 "results": ["j.xml"], "selection": {"decision": "selected",
	  $3
	  "selected": ["a.c"]}}
	EOF
	junit "bad/$1/j.xml" a.py::t1
}

test_expect_success 'numbers out of bounds: refused with file:line, nothing stored' '
	while read -r name top sel field want; do
		line=5 && if test "$sel" = -; then sel=; else line=7; fi &&
		bounded "$name" "$top" "$sel" &&
		bad_source "$name" "^tiadash: error: bad/$name/tiadash-run.json:$line: .$field. $want\$" ||
			{ echo "not refused: $name" >&2; return 1; }
	done <<-\EOF
	wall-huge "wall_clock_s":1e300, - wall_clock_s must be a number of seconds from 0 to 2592000 (30 days)
	wall-over "wall_clock_s":2592000.5, - wall_clock_s must be a number of seconds from 0 to 2592000 (30 days)
	wall-neg "wall_clock_s":-1, - wall_clock_s must be a number of seconds from 0 to 2592000 (30 days)
	attempt-big "attempt":1001, - attempt must be an integer from 1 to 1000
	attempt-zero "attempt":0, - attempt must be an integer from 1 to 1000
	total-big "attempt":3, "total_tests":100000001, total_tests must be an integer from 0 to 100000000
	selected-big "attempt":3, "selected_count":1e300, selected_count must be an integer from 0 to 100000000
	EOF
'

test_expect_success 'numbers at their bounds are taken' '
	bounded edge "\"wall_clock_s\": 2592000, \"attempt\": 1000," "\"total_tests\": 100000000, \"selected_count\": 1," &&
	cp s.db e.db && rm -f e.db-wal e.db-shm &&
	tiadash --db e.db --repo repo ingest bad/edge >out 2>err &&
	test_must_be_empty err && echo "1 new run, 0 unchanged" >expect && test_cmp expect out
'

test_done
