#!/bin/bash
# The files `tiadash record` copies into the run's folder: globs with `**`,
# no copy overwriting another, coverage, selections (a list or a
# codebase-memory-mcp answer), the quarantine and the failed list (seed 000).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup' '
	make_repo repo && git -C repo rev-parse HEAD >head &&
	cd repo &&
	junit_at() { mkdir -p "$(dirname "$1")" && cp "$TEST_SRC/record/fixtures/junit-pass.xml" "$1"; } &&
	junit_at reports/unit/junit.xml &&
	junit_at reports/integration/db/deep/junit.xml &&
	junit_at reports/.cache/junit.xml &&
	junit_at reports/TEST-x.xml &&
	echo notes >reports/unit/notes.txt &&
	mkdir -p reports/dir.xml
'
head=$(cat head 2>/dev/null)

# results OUT: the results list of the record in OUT, one a line.
results() {
	mf "$1/tiadash-run.json" "\"\\n\".join(d[\"results\"])"
}

test_expect_success '** spans any depth, skips hidden directories and non-files' '
	cd repo &&
	tiadash record --kind full --out ../deep/run --results "reports/**/*.xml" -- true </dev/null &&
	results ../deep/run >actual &&
	cat >expect <<-EOF &&
	results/reports/TEST-x.xml
	results/reports/integration/db/deep/junit.xml
	results/reports/unit/junit.xml
	EOF
	test_cmp expect actual
'

test_expect_success 'a trailing ** takes every file below; a leading one starts here' '
	cd repo &&
	tiadash record --kind full --out ../trail/run --results "reports/integration/**" -- true </dev/null &&
	echo results/reports/integration/db/deep/junit.xml >expect &&
	results ../trail/run >actual && test_cmp expect actual &&
	tiadash record --kind full --out ../lead/run --results "**/deep/*.xml" -- true </dev/null &&
	results ../lead/run >actual && test_cmp expect actual
'

test_expect_success 'simple patterns go through glob(3); --results repeats; a file matched twice is copied once' '
	cd repo &&
	tiadash record --kind full --out ../simple/run --results "reports/unit/*.xml" \
		--results "reports/*/junit.xml" --results reports/TEST-x.xml -- true </dev/null &&
	printf "results/reports/unit/junit.xml\nresults/reports/TEST-x.xml\n" >expect &&
	results ../simple/run >actual && test_cmp expect actual
'

test_expect_success 'two junit.xml from outside the tree keep apart (no overwrite)' '
	mkdir -p a b && cp "$TEST_SRC/record/fixtures/junit-pass.xml" a/junit.xml &&
	sed "s/test_one/test_other/" a/junit.xml >b/junit.xml &&
	cd repo &&
	tiadash record --kind full --out ../apart/run --results "$TRASH/a/junit.xml" \
		--results "../b/*.xml" -- true </dev/null &&
	printf "results/junit.xml\nresults/junit-2.xml\n" >expect &&
	results ../apart/run >actual && test_cmp expect actual &&
	cmp ../a/junit.xml ../apart/run/results/junit.xml &&
	cmp ../b/junit.xml ../apart/run/results/junit-2.xml
'

test_expect_success '** never walks into the run folder nor into earlier records' '
	cd repo && mkdir -p out &&
	tiadash record --kind full --out out/first --results "**/junit.xml" -- true </dev/null &&
	tiadash record --kind full --out out/second --results "**/junit.xml" -- true </dev/null &&
	results out/first >expect && results out/second >actual && test_cmp expect actual &&
	! grep -q "^results/out/" actual
'

test_expect_success 'coverage is copied and referenced the same way' '
	cd repo && mkdir -p cov &&
	printf "SF:/ci/w/src/m.c\nDA:3,1\nend_of_record\n" >cov/lcov.info &&
	tiadash record --kind full --out ../cov/run --coverage "cov/*.info" --coverage "nocov/*.xml" \
		-- true </dev/null 2>err &&
	printf "tiadash: warning: record: no file matches --coverage \047nocov/*.xml\047\n" >expect &&
	test_cmp expect err &&
	test "$(mf ../cov/run/tiadash-run.json "json.dumps(d[\"coverage\"])")" = "[\"coverage/cov/lcov.info\"]" &&
	cmp cov/lcov.info ../cov/run/coverage/cov/lcov.info
'

test_expect_success 'a selection list: decision selected, or nothing when it is empty' '
	cd repo && printf "# chosen by the selector\ntests/test_a.py\n\n" >test-only.txt && : >empty.txt &&
	tiadash record --kind shadow --out ../sel/run --selection test-only.txt -- true </dev/null &&
	test "$(mf ../sel/run/tiadash-run.json "json.dumps(d[\"selection\"])")" = \
		"{\"decision\": \"selected\", \"reasons\": [], \"selected_file\": \"test-only.txt\"}" &&
	tiadash record --kind shadow --out ../none/run --selection empty.txt -- true </dev/null &&
	test "$(mf ../none/run/tiadash-run.json "json.dumps(d[\"selection\"])")" = \
		"{\"decision\": \"nothing\", \"reasons\": [], \"selected_file\": \"empty.txt\"}"
'

test_expect_success 'a force-full run: --decision run_all with its reasons' '
	cd repo &&
	tiadash record --kind shadow --out ../ff/run --decision run_all --reason "force-full:**/package-lock.json" \
		--reason UNMAPPED_FILE --total-tests 120 --selected-count 120 -- true </dev/null &&
	test "$(mf ../ff/run/tiadash-run.json "json.dumps(d[\"selection\"], sort_keys=True)")" = \
		"{\"decision\": \"run_all\", \"reasons\": [\"force-full:**/package-lock.json\", \"UNMAPPED_FILE\"], \"selected_count\": 120, \"total_tests\": 120}"
'

test_expect_success 'a codebase-memory-mcp answer goes in as engine_file; ingest takes its decision' '
	cd repo && cp "$TEST_SRC/data/cbm/answers/narrowed.json" selection-engine.json &&
	tiadash record --kind shadow --out ../cbm/run --pr 3 --selection selection-engine.json \
		--selection-format cbm --lane unit --total-tests 10 -- true </dev/null &&
	test "$(mf ../cbm/run/tiadash-run.json "json.dumps(d[\"selection\"], sort_keys=True)")" = \
		"{\"engine_file\": \"selection-engine.json\", \"lane\": \"unit\", \"reasons\": [], \"total_tests\": 10}" &&
	cd .. && tiadash --db cbm.db --repo repo ingest cbm/run >/dev/null &&
	tiadash --db cbm.db show 3 --format json >s.json &&
	json_get s.json "json.dumps([d[\"selection\"][\"decision\"], d[\"selection\"][\"entries\"]])" >actual &&
	echo "[\"selected\", [\"alpha\", \"beta:b_one\", \"beta:b_two\"]]" >expect && test_cmp expect actual
'

test_expect_success 'a selection the job did not write: a warning, the run recorded without it' '
	cd repo &&
	tiadash record --kind shadow --out ../nosel/run --selection missing.txt -- true </dev/null 2>err &&
	printf "tiadash: warning: record: the selection \047missing.txt\047 is missing: recorded without it\n" >expect &&
	test_cmp expect err &&
	test "$(mf ../nosel/run/tiadash-run.json "\"selection\" in d")" = False &&
	tiadash record --kind shadow --out ../nosel2/run --selection missing.txt --decision run_all \
		--reason selector-error -- true </dev/null 2>/dev/null &&
	test "$(mf ../nosel2/run/tiadash-run.json "json.dumps(d[\"selection\"])")" = \
		"{\"decision\": \"run_all\", \"reasons\": [\"selector-error\"]}"
'

test_expect_success 'the quarantine (.mq/quarantine.txt) and the failed list the job wrote' '
	cd repo && mkdir -p .mq && printf "tests/test_b.py::test_three\n" >.mq/quarantine.txt &&
	rm -f .mq-failed-tests.txt &&
	JOB_FAILED_LIST=1 test_expect_code 1 tiadash record --kind full --out ../lists/run \
		--results "reports/junit.xml" -- "$JOB" fail </dev/null >/dev/null 2>&1 &&
	test "$(mf ../lists/run/tiadash-run.json "json.dumps([d[\"quarantine\"], d[\"failed\"]])")" = \
		"[\"quarantine.txt\", [\"tests/test_a.py::test_two\"]]" &&
	cmp .mq/quarantine.txt ../lists/run/quarantine.txt
'

test_expect_success 'a failed list older than the job is not this run'"'"'s' '
	cd repo && echo tests/test_a.py::test_two >.mq-failed-tests.txt &&
	touch -d 2020-01-01T00:00:00Z .mq-failed-tests.txt &&
	tiadash record --kind full --out ../stale/run -- true </dev/null &&
	test "$(mf ../stale/run/tiadash-run.json "\"failed\" in d")" = False &&
	tiadash record --kind full --out ../given/run --failed .mq-failed-tests.txt -- true </dev/null &&
	test "$(mf ../given/run/tiadash-run.json "json.dumps(d[\"failed\"])")" = "[\"tests/test_a.py::test_two\"]"
'

test_expect_success '--quarantine names another list' '
	cd repo && printf "a::b\n" >q.txt &&
	tiadash record --kind full --out ../q/run --quarantine q.txt -- true </dev/null &&
	test "$(mf ../q/run/tiadash-run.json "d[\"quarantine\"]")" = q.txt
'

test_expect_success 'names are tamed: control bytes, and nothing that looks like a manifest' '
	cd repo && mkdir -p odd && cp "$TEST_SRC/record/fixtures/junit-pass.xml" "odd/x$(printf "\t")y.xml" &&
	cp "$TEST_SRC/record/fixtures/junit-pass.xml" odd/tiadash-run.json &&
	tiadash record --kind full --out ../odd/run --results "odd/*" -- true </dev/null &&
	printf "results/odd/tiadash-run.json.copy\nresults/odd/x_y.xml\n" >expect &&
	results ../odd/run >actual && test_cmp expect actual &&
	cd .. && tiadash --db odd.db --repo repo ingest odd/run >out && test_grep "^1 new run" out
'

test_expect_success 'the whole folder ingests as one run, with quarantine and failed list' '
	tiadash --db s.db --repo repo ingest lists/run >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out
'

test_done
