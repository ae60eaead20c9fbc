#!/bin/bash
# Test identity on real producers' reports (core/identity.h): each report is
# ingested against a small git tree holding the files it names, and its
# failing tests are stored and printed under the repository path, whatever
# the producer wrote (a file attribute, a dotted classname, a Java, .NET
# or Go name, a path relative to the runner's directory). What does not
# resolve is never guessed: it is counted, and ingest says so.
. "$(dirname "$0")/lib.sh"

DATA=$TEST_SRC/data/identity
q="'"
CORPUS=$TEST_SRC/data/corpus/junit

# tree NAME PATH...: a git repository NAME whose one commit has those files.
tree() {
	local name=$1 p
	shift
	git init -q "$name" &&
	for p in "$@"; do
		mkdir -p "$name/$(dirname "$p")" && echo "// $p" >"$name/$p" || return 1
	done &&
	(cd "$name" && commit_at 2026-10-30T10:00:00Z tree)
}

# failed NAME REPORT [ingest options...]: the failing ids show prints for
# REPORT ingested as a full run of NAME's commit, one a line.
failed() {
	local name=$1 report=$2
	shift 2
	tiadash --db "$name.db" --repo "$name" ingest --kind full --pr 1 \
		--head "$(git -C "$name" rev-parse HEAD)" "$@" "$report" >/dev/null 2>"$name.err" &&
	tiadash --db "$name.db" show 1 --format json >"$name.json" &&
	json_get "$name.json" "'\n'.join(d['runs'][0]['failed'])"
}

# identity NAME: the store's identity figures, as "resolved/failing by_name".
identity() {
	tiadash --db "$1.db" status --format json >"$1.status" &&
	json_get "$1.status" "'%d/%d %d' % (d['identity']['resolved'], d['identity']['failing_tests'], d['identity']['by_name'])"
}

test_expect_success 'pytest default (xunit2): dotted classnames to the test files, classes kept' '
	tree py tests/test_tax.py tests/exports/test_csv.py &&
	failed py "$DATA/pytest-7.2.1_xunit2.xml" >actual &&
	cat >expect <<-\EOF &&
	tests/exports/test_csv.py::TestWidth::test_width
	tests/test_tax.py::test_rounding
	EOF
	test_cmp expect actual &&
	test "$(identity py)" = "2/2 0" &&
	test_must_be_empty py.err
'

test_expect_success 'pytest legacy (xunit1, file attributes): the same ids' '
	rm -f py.db* &&
	failed py "$DATA/pytest-7.2.1_xunit1.xml" >actual &&
	test_cmp expect actual
'

if command -v pytest-3 >/dev/null; then
	test_expect_success "pytest $(pytest-3 --version 2>&1 | sed "s/pytest //") itself, both families: the same ids" '
		cp -r "$DATA/pytest/tests" py/ &&
		for family in xunit1 xunit2; do
			(cd py && pytest-3 -q -p no:cacheprovider -o junit_family=$family \
				--junitxml="$TRASH/live-$family.xml" tests >/dev/null 2>&1)
			test -s live-$family.xml &&
			rm -f py.db* &&
			failed py live-$family.xml >live || return 1
			test_cmp expect live || return 1
		done
	'
else
	echo "# pytest-3 is not installed (Debian python3-pytest): the recorded reports only"
fi

test_expect_success 'pytest (another project): tests.test_lib to tests/test_lib.py' '
	tree pyc tests/test_lib.py &&
	failed pyc "$CORPUS/pytest_xunit.xml" >actual &&
	printf "tests/test_lib.py::test_always_fail\ntests/test_lib.py::test_error\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'unittest-xml-reporting: its file attribute as it is' '
	tree ut tests/test_lib.py &&
	failed ut "$CORPUS/python-unittest_xunit.xml" >actual &&
	printf "tests/test_lib.py::test_always_fail\ntests/test_lib.py::test_error\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'Surefire: the class to its one .java file' '
	tree mvn src/test/java/action/surefire/report/email/EmailAddressTest.java \
		src/main/java/action/surefire/report/email/EmailAddress.java &&
	failed mvn "$CORPUS/surefire_EmailAddressTest.xml" >actual &&
	test "$(wc -l <actual)" = 7 &&
	test "$(sed "s/::.*//" actual | sort -u)" = src/test/java/action/surefire/report/email/EmailAddressTest.java &&
	test_grep "::shouldNotBeBlank$" actual
'

test_expect_success 'Gradle: a Kotlin test class the same way' '
	tree gradle app/src/test/kotlin/com/victor/paymentreporting/app/PowerDroidControllerTest.kt &&
	failed gradle "$DATA/gradle_spring-gradle-failure.xml" >actual &&
	echo "app/src/test/kotlin/com/victor/paymentreporting/app/PowerDroidControllerTest.kt::failsToDemonstrateJUnitAnnotations()" >expect &&
	test_cmp expect actual
'

test_expect_success 'two FooTest.java in the package path: ambiguous, never guessed, counted' '
	tree twice a/src/test/java/com/victor/paymentreporting/app/PowerDroidControllerTest.java \
		b/src/test/java/com/victor/paymentreporting/app/PowerDroidControllerTest.java &&
	failed twice "$DATA/gradle_spring-gradle-failure.xml" >actual &&
	echo "com.victor.paymentreporting.app.PowerDroidControllerTest::failsToDemonstrateJUnitAnnotations()" >expect &&
	test_cmp expect actual &&
	test "$(identity twice)" = "0/1 0" &&
	test_grep "1 of 1 failing tests name no path in the tree at .*(e.g. .com.victor.paymentreporting.app.PowerDroidControllerTest::failsToDemonstrateJUnitAnnotations().: ambiguous): give --workdir (the directory the runner ran in)" twice.err &&
	failed twice "$DATA/gradle_spring-gradle-failure.xml" --replace --workdir b >actual &&
	echo "b/src/test/java/com/victor/paymentreporting/app/PowerDroidControllerTest.java::failsToDemonstrateJUnitAnnotations()" >expect &&
	test_cmp expect actual
'

# A run of flags alone has no manifest: the warning names the file and the flag.
test_expect_success 'a bare selection that names nothing of the tree: the warning names its file and --workdir' '
	tree flags src/lib.py &&
	printf "tests/test_a.py::test_one\ntests/test_b.py::test_two\n" >flags.sel &&
	tiadash --db flags.db --repo flags ingest --kind shadow --pr 1 \
		--head "$(git -C flags rev-parse HEAD)" --selection flags.sel --verdict pass >out 2>err &&
	echo "tiadash: warning: flags.sel: 2 of 2 selection entries name no path in the tree at $(git -C flags rev-parse --short=12 HEAD) (e.g. ${q}tests/test_a.py::test_one${q}: not found): give --workdir (the directory, relative to the repository root, the runner ran in), or an id-map rule (man tiadash, TEST IDENTITY)" >expect &&
	test_cmp expect err
'

test_expect_success 'the dotnet JUnit logger: the namespace to its .cs file, the absolute dll ignored; both cases of a repeated id count' '
	tree dotnet UnitTests/MathTests.cs UnitTests/UnitTests.csproj &&
	failed dotnet "$DATA/dotnet-junit-logger_TestResults.xml" >actual &&
	cat >expect <<-\EOF &&
	UnitTests/MathTests.cs::Multiply_ReturnsEight(1,0)
	UnitTests/MathTests.cs::Multiply_ReturnsEight(1,2)
	UnitTests/MathTests.cs::Multiply_ReturnsEight(2,2)
	EOF
	test_cmp expect actual &&
	test "$(identity dotnet)" = "3/3 0" &&
	test "$(json_get dotnet.status "d[\"failures\"]")" = 4 &&
	test "$(sqlite3 dotnet.db "select count from result r join name n on n.id = r.case_id where n.text = '"'"'Multiply_ReturnsEight(1,2)'"'"'")" = 2
'

test_expect_success 'jest-junit: the suite name a case names no file of' '
	tree jest libs/foo.spec.ts libs/bar.spec.ts &&
	failed jest "$CORPUS/jest-junit_test-errors.xml" >actual &&
	printf "libs/bar.spec.ts::libs/bar.spec.ts\nlibs/foo.spec.ts::libs/foo.spec.ts\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'go-junit-report: the import path to the package directory through go.mod' '
	tree go subtests/subtests_test.go &&
	printf "module package\n\ngo 1.21\n" >go/go.mod && (cd go && commit_at 2026-10-30T11:00:00Z gomod) &&
	failed go "$CORPUS/go-junit-report_012-subtests.xml" >actual &&
	test "$(sed "s/::.*//" actual | sort -u)" = subtests &&
	test_grep "^subtests::TestSubtests/Subtest#01$" actual
'

test_expect_success 'gotestsum: a module path with dots, every package found' '
	tree gts testjson/internal/badmain/main_test.go testjson/internal/parallelfails/p_test.go \
		testjson/internal/withfails/w_test.go testjson/internal/good/g_test.go &&
	printf "module gotest.tools/gotestsum\n" >gts/go.mod && (cd gts && commit_at 2026-10-30T11:00:00Z gomod) &&
	failed gts "$CORPUS/gotestsum_junitxml-report.xml" >actual &&
	sed "s/::.*//" actual | sort -u >dirs &&
	printf "testjson/internal/badmain\ntestjson/internal/parallelfails\ntestjson/internal/withfails\n" >expect &&
	test_cmp expect dirs &&
	test "$(identity gts)" = "$(wc -l <actual | tr -d " ")/$(wc -l <actual | tr -d " ") 0"
'

test_expect_success 'vitest run inside a package: --workdir, else the one package that has the file' '
	tree vt packages/api/tests/a.test.js packages/api/package.json &&
	failed vt "$DATA/turbo/vitest-2.1.9_fail-api.xml" >actual &&
	echo "packages/api/tests/a.test.js::api > formats" >expect &&
	test_cmp expect actual &&
	failed vt "$DATA/turbo/vitest-2.1.9_fail-api.xml" --replace --workdir packages/api >actual &&
	test_cmp expect actual
'

test_expect_success 'absolute paths and .. are never guessed: stored as written, counted, and warned about' '
	tree php tests/end-to-end/metadata/targeting-traits-with-usesclass-attribute-is-deprecated.phpt &&
	failed php "$CORPUS/phpunit_basic.xml" >actual &&
	test_grep "^/home/matteo/OSS/phpunit/tests/end-to-end/metadata/" actual &&
	test "$(identity php)" = "0/2 0" &&
	test_grep "2 of 2 failing tests name no path in the tree .*: outside the tree): have the producer write paths relative to the repository" php.err &&
	json_get php.status "d[\"identity\"][\"unresolved\"][0]" >first &&
	test_grep "^/home/matteo/" first
'

test_expect_success 'no repository: names stay as written; a suite name joins once a selection uses it' '
	tiadash --db norepo.db ingest --kind full --pr 1 --head 1111111111111111111111111111111111111111 \
		"$CORPUS/pytest_xunit.xml" >/dev/null 2>&1 &&
	test "$(identity norepo)" = "0/2 0" &&
	tiadash --db ctest.db ingest --kind full --pr 1 --head 1111111111111111111111111111111111111111 \
		"$CORPUS/catch2_report.xml" >/dev/null 2>&1 &&
	test "$(identity ctest)" = "0/1 0" &&
	echo ut_detail_utility_is_constant_evaluated >sel.txt &&
	tiadash --db ctest.db ingest --kind shadow --pr 2 --verdict pass \
		--head 2222222222222222222222222222222222222222 --selection sel.txt >/dev/null 2>&1 &&
	test "$(identity ctest)" = "1/1 1"
'

test_done
