#!/bin/bash
# The identity figure follows the id-map in force when figures are computed
# (issue 33, point 4): a Maven week whose selector names simple class names
# (`mvn -Dtest=TaxTest`) that join none of Surefire's tests, then an id-map
# beside the store that ties them to the test files. The figures and the
# identity line read the same id-map, with no ingest in between.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# surefire FILE CLASS:CASE[:failed]...: a Surefire report (classname = the class with its package).
surefire() {
	local f=$1; shift
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuite name="surefire" tests="'$#'">'
		for c in "$@"; do
			local cls=${c%%:*} rest=${c#*:} name st=
			name=${rest%%:*}
			[ "$rest" != "$name" ] && st=${rest#*:}
			if [ "$st" = failed ]; then
				echo "<testcase classname=\"com.acme.ledger.$cls\" name=\"$name\"><failure message=\"boom\">at com.acme.ledger.$cls</failure></testcase>"
			else
				echo "<testcase classname=\"com.acme.ledger.$cls\" name=\"$name\"/>"
			fi
		done
		echo '</testsuite>'
	} >"$f"
}

J=src/test/java/com/acme/ledger

test_expect_success 'setup: a Maven repository, two pairs selected by simple class names' '
	git init -q -b main repo && mkdir -p repo/$J repo/src/main/java/com/acme/ledger &&
	for c in TaxTest FxTest LedgerTest; do echo "class $c {}" >repo/$J/$c.java || return 1; done &&
	echo "class Tax {}" >repo/src/main/java/com/acme/ledger/Tax.java &&
	(cd repo && commit_at 2026-10-30T10:00:00Z init &&
	 echo "// tax" >>src/main/java/com/acme/ledger/Tax.java && commit_at 2026-10-30T11:00:00Z tax &&
	 echo "// fx" >>src/main/java/com/acme/ledger/Tax.java && commit_at 2026-10-30T12:00:00Z fx) &&
	base=$(git -C repo rev-parse HEAD~2) h1=$(git -C repo rev-parse HEAD~1) h2=$(git -C repo rev-parse HEAD) &&
	# 1: the shadow run ran TaxTest (2 cases), passed; the full run agrees.
	write_run w/1s "\"pr\": 1, \"base\": \"$base\", \"head\": \"$h1\", \"kind\": \"shadow\",
		\"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"],
		\"selection\": {\"decision\": \"selected\", \"total_tests\": 5, \"selected\": [\"TaxTest\"]}" &&
	surefire w/1s/junit.xml TaxTest:adds TaxTest:rounds &&
	write_run w/1f "\"pr\": 1, \"base\": \"$base\", \"head\": \"$h1\", \"kind\": \"full\",
		\"started_at\": \"2026-11-02T10:05:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"]" &&
	surefire w/1f/junit.xml TaxTest:adds TaxTest:rounds FxTest:converts LedgerTest:posts LedgerTest:closes &&
	# 2: the shadow run ran FxTest and TaxTest and passed; the full run fails FxTest (non-hermetic).
	write_run w/2s "\"pr\": 2, \"base\": \"$base\", \"head\": \"$h2\", \"kind\": \"shadow\",
		\"started_at\": \"2026-11-02T11:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"],
		\"selection\": {\"decision\": \"selected\", \"total_tests\": 5, \"selected\": [\"FxTest\", \"TaxTest\"]}" &&
	surefire w/2s/junit.xml TaxTest:adds TaxTest:rounds FxTest:converts &&
	write_run w/2f "\"pr\": 2, \"base\": \"$base\", \"head\": \"$h2\", \"kind\": \"full\",
		\"started_at\": \"2026-11-02T11:05:00Z\", \"verdict\": \"fail\", \"results\": [\"junit.xml\"]" &&
	surefire w/2f/junit.xml TaxTest:adds TaxTest:rounds FxTest:converts:failed LedgerTest:posts LedgerTest:closes &&
	mkdir st && tiadash --db st/s.db --repo repo ingest w >out 2>err &&
	echo "4 new runs, 0 unchanged" >expect && test_cmp expect out
'

W="--since 2026-11-02 --until 2026-11-03"

test_expect_success 'without an id-map every entry selects no test, and the figures say so' '
	tiadash --db st/s.db report $W --format json >r0.json &&
	json_close r0.json "[d[\"identity\"][k] for k in (\"selection_entries\", \"entries_unresolved\", \"entries_matching_no_test\")]" "[3, 0, 3]" &&
	tiadash --db st/s.db status >s0.txt &&
	test_grep "^          3 of 3 selection entries select no test" s0.txt &&
	test_expect_code 1 tiadash --db st/s.db gate-check $W --min-pairs 1 --min-days 1 >g0.txt &&
	test_grep "^selection entries joined  *>= 0.990  *0.000  FAIL$" g0.txt
'

test_expect_success 'an id-map beside the store joins them at once: report, status, gate-check' '
	cat >st/config <<-\EOF &&
	# mvn -Dtest=TaxTest names the class; Surefire reports its file
	id-map = ^(\w+Test)$ => src/test/java/com/acme/ledger/$1.java
	EOF
	tiadash --db st/s.db report $W --format json >r1.json &&
	json_close r1.json "[d[\"identity\"][k] for k in (\"selection_entries\", \"entries_unresolved\", \"entries_matching_no_test\")]" "[3, 0, 0]" &&
	json_close r1.json "[d[\"identity\"][\"failing_tests\"], d[\"identity\"][\"resolved\"]]" "[1, 1]" &&
	tiadash --db st/s.db report $W >r1.txt &&
	test_grep "^             0 of 3 selection entries select no test$" r1.txt &&
	tiadash --db st/s.db status --format json >s1.json &&
	json_close s1.json "d[\"identity\"][\"entries_matching_no_test\"]" 0 &&
	tiadash --db st/s.db status >s1.txt &&
	test_grep "^          0 of 3 selection entries select no test" s1.txt &&
	test_expect_code 1 tiadash --db st/s.db gate-check $W --min-pairs 1 --min-days 1 --format json >g1.json &&
	json_close g1.json "[[c[k] for k in (\"label\", \"value\", \"pass\")] for c in d[\"criteria\"] if c[\"name\"] == \"identity_resolved\"]" \
		"[[\"failing tests resolved\", 1.0, true]]"
'

test_expect_success 'the classes read the same id-map: the failure was selected and ran' '
	tiadash --db st/s.db show 2 --format json >p2.json &&
	json_close p2.json "[d[\"class\"], d[\"missed\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
		"[\"non-hermetic\", [], [\"src/test/java/com/acme/ledger/FxTest.java::converts\"], []]" &&
	json_close r1.json "[d[\"classes\"][k] for k in (\"agree\", \"escape\", \"non-hermetic\")]" "[1, 0, 1]"
'

test_expect_success 'the id-map taken away: the entries select no test again' '
	rm st/config &&
	tiadash --db st/s.db report $W --format json >r2.json &&
	json_close r2.json "d[\"identity\"][\"entries_matching_no_test\"]" 3 &&
	tiadash --db st/s.db status --format json >s2.json &&
	json_close s2.json "d[\"identity\"][\"entries_matching_no_test\"]" 3 &&
	tiadash --db st/s.db show 2 --format json >q2.json &&
	json_close q2.json "[d[\"class\"], d[\"missed\"]]" \
		"[\"escape\", [\"src/test/java/com/acme/ledger/FxTest.java::converts\"]]"
'

test_done
