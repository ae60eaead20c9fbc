#!/bin/bash
# Id-map rules in the store's config bridge a selector's naming to the
# reports' naming (SPEC 3.3): a Java selector names source files, Surefire
# reports name classes.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a selection by path, reports by class' '
	git init -q repo && cd repo && echo a >a && commit_at "2026-10-30T10:00:00Z" init &&
	echo b >>a && commit_at "2026-10-30T11:00:00Z" two && cd .. &&
	head=$(git -C repo rev-parse HEAD) base=$(git -C repo rev-parse HEAD~1) &&
	write_run s "\"pr\": 3, \"base\": \"$base\", \"head\": \"$head\", \"kind\": \"shadow\",
		\"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\",
		\"selection\": {\"decision\": \"selected\", \"total_tests\": 9,
		  \"selected\": [\"src/test/java/com/acme/FooTest.java\"]}" &&
	write_run f "\"pr\": 3, \"base\": \"$base\", \"head\": \"$head\", \"kind\": \"full\",
		\"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"fail\",
		\"failed\": [\"com.acme.FooTest::testBar\"]" &&
	mkdir st && tiadash --db st/s.db --repo repo ingest s f >/dev/null
'

test_expect_success 'without an id-map nothing ties the failure to a file: unresolved' '
	tiadash --db st/s.db show 3 --format json >a.json &&
	test "$(json_get a.json "d[\"class\"]")" = unresolved &&
	test "$(json_get a.json "json.dumps(d[\"unresolved\"])")" = "[\"com.acme.FooTest::testBar\"]"
'

test_expect_success 'with the id-map beside the store it was selected (non-hermetic)' '
	cat >st/config <<-\EOF &&
	# selector paths -> report class names
	id-map = ^src/test/java/(.*)\.java$ => $1
	id-map = / => .
	EOF
	tiadash --db st/s.db show 3 --format json >b.json &&
	test "$(json_get b.json "d[\"class\"]")" = non-hermetic &&
	test "$(json_get b.json "json.dumps(d[\"non_hermetic\"])")" = "[\"com.acme.FooTest::testBar\"]"
'

test_expect_success 'TIADASH_CONFIG names another config' '
	printf "id-map = ^nothing$ => x\n" >other.conf &&
	TIADASH_CONFIG=other.conf tiadash --db st/s.db show 3 --format json >c.json &&
	test "$(json_get c.json "d[\"class\"]")" = unresolved
'

test_expect_success 'a bad config line is an error with file:line' '
	printf "# ok\nid-map = ([ => x\n" >bad.conf &&
	TIADASH_CONFIG=bad.conf test_expect_code 2 tiadash --db st/s.db show 3 2>err &&
	test_grep "bad.conf:2: id-map pattern .(\[. at offset" err &&
	printf "colour = red\n" >bad2.conf &&
	TIADASH_CONFIG=bad2.conf test_expect_code 2 tiadash --db st/s.db show 3 2>err &&
	test_grep "bad2.conf:1: unknown setting .colour." err
'

test_expect_success 'a replacement can change case; a bad one is an error with file:line' '
	cat >case.conf <<-\EOF &&
	id-map = ^src/test/java/(.*)\.java$ => \U$1\E
	id-map = / => .
	id-map = ^COM\.ACME\.FOOTEST$ => com.acme.FooTest
	EOF
	TIADASH_CONFIG=case.conf tiadash --db st/s.db show 3 --format json >d.json &&
	test "$(json_get d.json "d[\"class\"]")" = non-hermetic &&
	printf "# ok\nid-map = (a) => \\\\k<nope>\n" >bad3.conf &&
	TIADASH_CONFIG=bad3.conf test_expect_code 2 tiadash --db st/s.db show 3 2>err &&
	test_grep "bad3.conf:2: id-map replacement .\\\\k<nope>.: " err
'

test_expect_success 'an entry joins its run'"'"'s tests through the id-map at ingest' '
	head=$(git -C repo rev-parse HEAD) base=$(git -C repo rev-parse HEAD~1) &&
	mkdir j && write_run j/s "\"pr\": 4, \"base\": \"$base\", \"head\": \"$head\", \"kind\": \"shadow\",
		\"started_at\": \"2026-11-02T11:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"],
		\"selection\": {\"decision\": \"selected\", \"total_tests\": 9,
		  \"selected\": [\"src/test/java/com/acme/FooTest.java\"]}" &&
	printf "%s\n" "<testsuite name=\"s\"><testcase classname=\"com.acme.FooTest\" name=\"testBar\"/></testsuite>" >j/s/junit.xml &&
	tiadash --db plain.db --repo repo ingest j/s >/dev/null 2>&1 &&
	tiadash --db plain.db status --format json >plain.json &&
	test "$(json_get plain.json "d[\"identity\"][\"entries_matching_no_test\"]")" = 1 &&
	mkdir mapped && cp st/config mapped/config &&
	tiadash --db mapped/s.db --repo repo ingest j/s >/dev/null 2>&1 &&
	tiadash --db mapped/s.db status --format json >mapped.json &&
	test "$(json_get mapped.json "d[\"identity\"][\"entries_matching_no_test\"]")" = 0
'

test_done
