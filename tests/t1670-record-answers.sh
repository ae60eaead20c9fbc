#!/bin/bash
# `tiadash record --selection-format F` takes each selector's own answer, as
# the real tool printed it (tests/data/recorded/, with the command and
# version): once ingested, the run's decision is the one the tool made on
# that change. A wrapper's run-time decision (.mq-decision) is the run's;
# codebase-memory-mcp's unreadable answers run everything, as its consumer
# does.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

R=$TOP/tests/data/recorded
CALC=/home/runner/work/calc/calc

# sel N: the stored selection of the run at head 10..0N, one line.
sel() {
	tiadash --db s.db show "$(printf '1%039d' "$1")" --format json >show.json &&
	json_get show.json "json.dumps(d[\"selection\"], sort_keys=True)"
}

# rec N ANSWER FORMAT [OPTIONS] [-- CMD]: a shadow run of head 10..0N that
# names ANSWER, recorded into runs/N and ingested into s.db.
rec() {
	local n=$1 answer=$2 format=$3; shift 3
	(cd repo && tiadash record --kind shadow --head "$(printf '1%039d' "$n")" \
		--out "../runs/$n" --selection "$answer" --selection-format "$format" \
		"$@" -- true </dev/null) &&
	tiadash --repo repo --db s.db ingest "runs/$n" >out
}

test_expect_success 'setup: a repository; vitest'"'"'s answers where this checkout is' '
	make_repo repo &&
	root=$(cd repo && pwd -P) &&
	for f in list-setup list-src list-files; do
		sed "s|$CALC|$root|g" "$R/vitest/$f.json" >repo/$f.json || return 1
	done
'

test_expect_success 'vitest: a setupFiles change lists every test, a full rerun' '
	rec 1 list-setup.json vitest --total-tests 4 &&
	json_get runs/1/tiadash-run.json "json.dumps(d[\"selection\"], sort_keys=True)" >actual &&
	echo "{\"file\": \"list-setup.json\", \"format\": \"vitest\", \"reasons\": [], \"root\": \"$(cd repo && pwd -P)\", \"total_tests\": 4}" >expect &&
	test_cmp expect actual &&
	sel 1 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"tests/add.test.js\", \"tests/mul.test.js\"], \"reasons\": [\"vitest:whole-suite\"], \"selected_count\": 4, \"total_tests\": 4}" >expect &&
	test_cmp expect actual
'

test_expect_success 'vitest: the adapter command'"'"'s stdout (the answer, then the whole suite) needs no count' '
	cat repo/list-setup.json repo/list-files.json >repo/stdout.json &&
	rec 2 stdout.json vitest &&
	sel 2 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"tests/add.test.js\", \"tests/mul.test.js\"], \"reasons\": [\"vitest:whole-suite\"], \"selected_count\": 4, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'vitest: a source change selects its test file' '
	rec 3 list-src.json vitest --total-tests 4 &&
	sel 3 >actual &&
	echo "{\"affected_fraction\": 0.5, \"decision\": \"selected\", \"entries\": [\"tests/add.test.js\"], \"reasons\": [], \"selected_count\": 2, \"total_tests\": 4}" >expect &&
	test_cmp expect actual &&
	tiadash rules --no-builtin-rules --rules "$R/vitest/vitest.config.js" --test tests/setup.js >out &&
	sed "s|$R/|R/|" out >actual &&
	echo "tests/setup.js  run_all  /tests/setup.js  vitest:setupFiles  (in effect: R/vitest/vitest.config.js)" >expect &&
	test_cmp expect actual
'

test_expect_success 'turbo: a lockfile edit turbo cannot attribute affects every package' '
	cp "$R/turbo/dry-run-requires.json" "$R/turbo/dry-run-bump.json" repo/ &&
	rec 4 dry-run-requires.json turbo --total-packages 3 &&
	test "$(mf runs/4/tiadash-run.json "d[\"selection\"][\"total_packages\"]")" = 3 &&
	sel 4 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"packages/money\", \"packages/ui\", \"packages/web\"], \"reasons\": [\"turbo:all-packages-affected\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	rec 5 dry-run-bump.json turbo --total-packages 3 &&
	sel 5 >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"packages/money\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'moon: a .moon/workspace.yml change affects every project' '
	cp "$R/moon/tasks-workspace.json" repo/ &&
	rec 6 tasks-workspace.json moon --total-packages 3 &&
	sel 6 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"money\", \"ui\", \"web\"], \"reasons\": [\"moon:all-projects-affected\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'testmon: the collected node ids, the summary'"'"'s count' '
	cp "$R/testmon/collect-deselected.txt" repo/ &&
	rec 7 collect-deselected.txt testmon --total-tests 4 &&
	sel 7 >actual &&
	echo "{\"affected_fraction\": 0.5, \"decision\": \"selected\", \"entries\": [\"tests/test_add.py::test_add\", \"tests/test_add.py::test_add_neg\"], \"reasons\": [], \"selected_count\": 2, \"total_tests\": 4}" >expect &&
	test_cmp expect actual
'

test_expect_success 'an answer its reader refuses fails the recording, not the job' '
	head -c 60 repo/list-src.json >repo/cut.json &&
	(cd repo && tiadash record --kind shadow --out ../runs/cut --selection cut.json \
		--selection-format vitest -- true </dev/null 2>../err) &&
	test_grep "^tiadash: error: cut.json:4: vitest list output: unexpected end of input (truncated?)$" err &&
	test_grep "no run recorded; passing the command" err &&
	! test -e runs/cut
'

test_expect_success 'codebase-memory-mcp: another schema, a cut file, no file: run_all, warned' '
	cp "$TOP/tests/data/cbm/answers/schema.json" "$TOP/tests/data/cbm/answers/truncated.json" repo/ &&
	rec 8 schema.json cbm 2>err &&
	test_grep "schema.json:1: codebase-memory-mcp answer: unknown schema cbm.test_impact.v9 (expected cbm.test_impact.v0): taken as run_all (selector-error)" err &&
	sel 8 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [], \"reasons\": [\"selector-error: unknown schema cbm.test_impact.v9\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	rec 9 truncated.json cbm 2>err &&
	sel 9 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [], \"reasons\": [\"selector-error: truncated answer\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	rec 10 gone.json cbm 2>err &&
	test_grep "the answer .gone.json. is missing: recorded as run_all (selector-error)" err &&
	sel 10 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [], \"reasons\": [\"selector-error: no answer\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success '.mq-decision: the wrapper fell back to the full suite at run time' '
	printf "tests/test_a.py\n" >repo/static.txt &&
	(cd repo && tiadash record --kind shadow --head "$(printf "1%039d" 11)" --out ../runs/11 \
		--selection static.txt --reason wrapper:check-affected -- \
		sh -c "echo \"run_all force-full:tests/setup.js selector-timeout\" >.mq-decision" </dev/null) &&
	json_get runs/11/tiadash-run.json "json.dumps([d[\"selection\"][\"decision\"], d[\"selection\"][\"reasons\"]])" >actual &&
	echo "[\"run_all\", [\"wrapper:check-affected\", \"force-full:tests/setup.js\", \"selector-timeout\"]]" >expect &&
	test_cmp expect actual
'

test_expect_success '.mq-decision left by an earlier attempt is not this run'"'"'s' '
	(cd repo && tiadash record --kind shadow --out ../runs/12 --selection static.txt \
		-- true </dev/null) &&
	test "$(mf runs/12/tiadash-run.json "d[\"selection\"][\"decision\"]")" = selected &&
	(cd repo && echo nothing >d.txt && tiadash record --kind shadow --out ../runs/13 \
		--selection static.txt --decision-file d.txt -- true </dev/null) &&
	test "$(mf runs/13/tiadash-run.json "d[\"selection\"][\"decision\"]")" = nothing
'

test_expect_success 'a decision file that is not one decision: no record, the status passes' '
	for bad in "maybe" "nothing at-all" "run_all x\nrun_all y"; do
		(cd repo && tiadash record --kind shadow --out ../runs/bad --selection static.txt -- \
			sh -c "printf \"$bad\n\" >.mq-decision; exit 3" </dev/null 2>../err)
		test $? = 3 && ! test -e runs/bad || return 1
	done &&
	test_grep "^tiadash: error: .mq-decision: a decision file holds one line (run_all REASON..., selected or nothing), not 2$" err
'

test_done
