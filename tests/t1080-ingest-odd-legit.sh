#!/bin/bash
# Odd but legitimate input: an lcov file whose record lines end in blanks
# (diff_cover's own fixtures: "end_of_record "), Eclipse's JUnit export
# (a <testrun> root, ignored="true" cases), and a JSON document given where
# a plain list is expected (a vitest list as --selection), which is named
# with what to give instead rather than read as entries "[", "{", ...
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

CORPUS=$TEST_SRC/data/corpus

test_expect_success 'setup: a PR adding the file diff_cover'"'"'s fixture covers' '
	git init -q repo && echo a >repo/a.py && (cd repo && commit_at 2026-11-02T00:00:00Z base) &&
	git -C repo rev-parse HEAD >base &&
	mkdir repo/src && seq 1 36 | sed "s/^/line /" >repo/src/calculator.ts &&
	(cd repo && commit_at 2026-11-02T01:00:00Z pr) && git -C repo rev-parse HEAD >head
'
head=$(cat head 2>/dev/null) base=$(cat base 2>/dev/null)

test_expect_success 'lcov with "end_of_record " (diff_cover'"'"'s fixture): its 16 lines count' '
	f=$CORPUS/coverage/lcov/diff-cover_real_typescript_coverage.info &&
	grep -q "^end_of_record $" "$f" &&
	tiadash --db s.db --repo repo ingest --kind shadow --head "$head" --base "$base" --pr 1 \
		--started-at 2026-11-03T10:00:00Z --verdict pass --decision run_all "$f" >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 s.db "SELECT cov_lines, cov_hit FROM run" >actual &&
	echo "16|16" >expect && test_cmp expect actual
'

test_expect_success 'an Eclipse <testrun> export: its cases, failures and ignored ones' '
	tiadash --db e.db ingest --kind full --head "$head" --pr 1 \
		--started-at 2026-11-03T10:00:00Z "$CORPUS/junit/eclipse-jdt_JUnit4Tests_Failures.xml" >out &&
	sqlite3 e.db "SELECT tests, failures, errors, skipped, verdict FROM run" >actual &&
	echo "7|5|2|1|fail" >expect && test_cmp expect actual
'

test_expect_success 'record --selection with a vitest list: named, with what to give instead' '
	cd repo && cp "$TEST_SRC/data/native/vitest/list.json" vitest-list.json &&
	tiadash record --kind shadow --base HEAD~1 --out ../rec --selection vitest-list.json \
		-- true </dev/null 2>err &&
	cat >expect <<-EOF &&
	tiadash: error: vitest-list.json:1: a JSON document, not a plain list (one entry a line): if it is a selector${SQ}s own output, name its format (--selection-format, or "format" in a manifest${SQ}s selection)
	tiadash: record: no run recorded; passing the command${SQ}s exit status (0) through
	EOF
	test_cmp expect err && ! test -e ../rec
'

test_expect_success 'the same as a bare --selection, a selected_file, a failed list: refused' '
	l=$TEST_SRC/data/native/vitest/list-empty.json &&
	test_expect_code 2 tiadash --db b.db ingest --kind shadow --head "$head" --verdict pass \
		--started-at 2026-11-03T10:00:00Z --selection "$l" >out 2>err &&
	test_grep "^tiadash: error: $l:1: a JSON document, not a plain list (one entry a line): if it is a selector" err &&
	write_run m "\"head\": \"$head\", \"base\": \"$base\", \"kind\": \"shadow\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"decision\": \"selected\", \"selected_file\": \"list.json\"}" &&
	cp "$TEST_SRC/data/native/vitest/list.json" m/list.json &&
	test_expect_code 2 tiadash --db b.db ingest m >out 2>err &&
	test_grep "^tiadash: error: m/list.json:1: a JSON document, not a plain list" err &&
	printf "{\"failed\": [\"a::b\"]}\n" >failed.txt &&
	test_expect_code 2 tiadash --db b.db ingest --kind full --head "$head" --verdict fail \
		--started-at 2026-11-03T10:00:00Z --failed failed.txt >out 2>err &&
	echo "tiadash: error: failed.txt:1: a JSON document, not a plain list (one entry a line)" >expect &&
	test_cmp expect err
'

test_expect_success 'lists whose entries merely start with a bracket still read' '
	printf "[sys] tests/a.py::t\n{x}::y\n" >odd.txt &&
	tiadash --db o.db ingest --kind shadow --head "$head" --verdict pass \
		--started-at 2026-11-03T10:00:00Z --selection odd.txt >out &&
	tiadash --db o.db show --format json "$head" >show.json &&
	json_get show.json "d[\"selection\"][\"entries\"]" >actual &&
	echo "['"'"'[sys] tests/a.py::t'"'"', '"'"'{x}::y'"'"']" >expect && test_cmp expect actual
'

test_done
