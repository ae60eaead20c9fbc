#!/bin/bash
# Every report of the real-world corpus (tests/data/corpus, from other
# projects' tools) is ingested as a bare run or rejected as its content
# deserves, with the counts its producers' own consumers would give.
. "$(dirname "$0")/lib.sh"

CORPUS=$TEST_SRC/data/corpus

test_expect_success 'setup' '
	git init -q repo && cd repo && echo a >a.c && commit_at "2026-10-30T10:00:00Z" init &&
	cd .. && git -C repo rev-parse HEAD >head
'
head=$(cat head 2>/dev/null)

n=0
# file tests failures(failed+errors) skipped
while read -r file tests failures skipped; do
	n=$((n + 1))
	test_expect_success "junit: $file" "
		tiadash --db j$n.db --repo repo ingest --kind full --head $head --pr $n \
			'$CORPUS/junit/$file' >out &&
		tiadash --db j$n.db show $n --format json >s.json &&
		json_get s.json '\"%s %s %s\" % (d[\"runs\"][0][\"tests\"], len(d[\"runs\"][0][\"failed\"]), d[\"runs\"][0][\"skipped\"])' >actual &&
		echo '$tests $failures $skipped' >expect && test_cmp expect actual
	"
done <<'EOF_LIST'
catch2_report.xml 1 1 0
container-structure-test.xml 3 0 0
cunit_testFailure.xml 4 1 0
eclipse-jdt_JUnit4Tests_Failures.xml 7 5 1
eslint-junit-formatter.xml 1 0 0
go-junit-report_012-subtests.xml 11 4 1
go-junit-report_030-stdout.xml 17 9 0
gotestsum_junitxml-report.xml 60 13 5
jest-junit_empty-testsuite.xml 0 0 0
jest-junit_large.xml 4239 2 30
jest-junit_test-errors.xml 2 2 0
junit_empty-failures.xml 3 1 0
marathon-android_DummyUtilTest.xml 1 1 0
marathon-android_flaky-failure.xml 1 0 0
mocha-junit-reporter_15k.xml 1 0 0
nested_junit.xml 5 3 0
nested_multi-level.xml 3 0 0
nette-tester_v1.7.xml 65 1 3
nextest_basic.xml 3 1 0
perl_result.xml 1 0 0
phpunit_basic.xml 12 2 0
phpunit_empty.xml 0 0 0
pytest_report-flaky.xml 4 2 0
pytest_xunit.xml 10 2 2
python-unittest_xunit.xml 8 2 2
surefire_EmailAddressTest.xml 9 7 0
surefire_TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml 2 1 1
surefire_flaky.xml 1 0 0
surefire_pulsar-aggregate.xml 808 1 14
swift_xunit.xml 3 1 0
testmo_conventions.xml 1 0 0
testmo_junit-complete.xml 8 2 1
testmo_testcase-properties.xml 1 0 0
tst_testDisabled.xml 22 6 10
xunit-c_report.xml 4 1 0
EOF_LIST

for file in surefire_corrupt_TEST-test.CorruptTest.xml web-test-runner_expectedRetries.xml; do
	test_expect_success "junit: $file is rejected with file:line" "
		test_expect_code 2 tiadash --db bad.db --repo repo ingest --kind full \
			--head $head '$CORPUS/junit/$file' 2>err &&
		test_grep '$file:[0-9][0-9]*: ' err &&
		tiadash --db bad.db status --format json >st.json &&
		test \"\$(json_get st.json 'd[\"sources\"]')\" = 0
	"
done

test_expect_success 'a flaky-marked test is stored as flaky, not as a failure' '
	tiadash --db f.db --repo repo ingest --kind full --head $head --pr 1 \
		"$CORPUS/junit/surefire_flaky.xml" >/dev/null &&
	tiadash --db f.db --repo repo ingest --kind shadow --head $head --pr 1 --verdict pass \
		--decision run_all --total-tests 1 >/dev/null &&
	tiadash --db f.db show 1 --format json >s.json &&
	# both gates passed: the in-run rerun decides nothing (agree), the test is flaky
	test "$(json_get s.json "d[\"class\"]")" = agree &&
	test "$(json_get s.json "d[\"flaky\"][0]")" = \
		"io.sodadata.dependson.soda.integrations.msteams.MicrosoftTeamsCrudTest::createWebhook"
'

for file in $(cd "$CORPUS/coverage" && ls lcov/*.info cobertura/*.xml); do
	case "$file" in
	*errs_badLine*|*bad-numbers*) want=2 ;;
	*) want=0 ;;
	esac
	test_expect_success "coverage: $file (exit $want)" "
		test_expect_code $want tiadash --db c.db --repo repo ingest --kind shadow --head $head \
			--base $head --verdict pass --attempt $((++n)) '$CORPUS/coverage/$file' 2>err &&
		if [ $want = 2 ]; then test_grep '$(basename "$file"):[0-9][0-9]*: ' err; fi
	"
done

test_done
