#!/bin/bash
# An id-map keys a monorepo package's quarantine lines from the package,
# whenever it is added (issue 33, points 1 and 4): jest-junit's report
# with addFileAttribute from a runner in packages/web (its files relative
# to the package), and a quarantine line left in the describe-title form
# of jest-junit's default report ("Toolbar renders::Toolbar renders";
# t1078 shows real jest-junit writes both). The rule rewrites the line to
# a path relative to the package: matched as written, from the root, it
# quarantined nothing and the failure was an escape. Keyed through the
# tree from its run's workdir, at ingest or when the rule comes later, it
# quarantines the failure, and status, report, show and gate-check say the
# same whichever came first.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-monorepo.sh"

W="--since 2026-11-01 --until 2026-11-03"

test_expect_success 'setup: a workspace package, a pair whose full run fails a quarantined test' '
	web_repo toolbar menu &&
	base=$(git -C repo rev-parse HEAD~1) head=$(git -C repo rev-parse HEAD) &&
	run="\"pr\": 1, \"base\": \"$base\", \"head\": \"$head\", \"workdir\": \"packages/web\"" &&
	write_run w/1s "$run, \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\",
		\"verdict\": \"pass\", \"results\": [\"junit.xml\"], \"selection\": {\"decision\": \"selected\",
		\"selected_count\": 1, \"total_tests\": 2, \"selected\": [\"src/menu.test.js\"]}" &&
	write_run w/1f "$run, \"kind\": \"full\", \"started_at\": \"2026-11-02T10:05:00Z\",
		\"verdict\": \"fail\", \"results\": [\"junit.xml\"], \"quarantine\": \"quarantine.txt\"" &&
	jest_file w/1s/junit.xml "Menu opens" &&
	jest_file w/1f/junit.xml "Menu opens" "Toolbar renders:failed" &&
	echo "Toolbar renders::Toolbar renders" >w/1f/quarantine.txt &&
	mkdir late early && echo "$RULE" >early/config
'

# figures DB OUT: status's identity lines, then report's, show's and
# gate-check's figures of the same (JSON, one line each).
figures() {
	identity_lines "$1" "$2" &&
	tiadash --db "$1" --repo repo report $W --format json >r.json &&
	json_dump r.json "[d[\"identity\"][k] for k in (\"failing_tests\", \"resolved\", \"quarantine_lines\", \"quarantine_unresolved\", \"entries_unresolved\")]" >>"$2" &&
	tiadash --db "$1" --repo repo show 1 --format json >s.json &&
	json_dump s.json "[d[\"class\"], d[\"quarantined\"]]" >>"$2" &&
	test_expect_code 1 tiadash --db "$1" --repo repo gate-check $W --min-pairs 1 --min-days 1 \
		--format json >g.json &&
	json_dump g.json "[[c[k] for k in (\"label\", \"value\", \"pass\")] for c in d[\"criteria\"] if c[\"name\"] == \"identity_resolved\"]" >>"$2"
}

test_expect_success 'the rule at ingest: the test and the line name the package test file' '
	tiadash --db early/s.db --repo repo ingest w >out 2>err &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 early/s.db "SELECT resolved, workdir FROM quarantine" >actual &&
	echo "1|packages/web" >expect && test_cmp expect actual &&
	figures early/s.db early.txt &&
	cat >expect <<-\EOF &&
	identity  1 of 1 failing tests resolved,
	          0 of 1 selection entries select no test
	[1, 1, 1, 0, 0]
	["agree", ["packages/web/src/toolbar.test.js::Toolbar renders"]]
	[["failing tests resolved", 1, true]]
	EOF
	test_cmp expect early.txt
'

test_expect_success 'the rule added after ingest: the same figures, the line keyed from the package' '
	tiadash --db late/s.db --repo repo ingest w >out 2>err &&
	figures late/s.db before.txt &&
	cat >expect <<-\EOF &&
	identity  1 of 1 failing tests resolved,
	          0 of 1 selection entries select no test,
	          1 of 1 quarantine lines name no test file
	[1, 1, 1, 1, 0]
	["escape", []]
	[["quarantine lines resolved", 0, false]]
	EOF
	test_cmp expect before.txt &&
	echo "$RULE" >late/config &&
	figures late/s.db after.txt &&
	test_cmp early.txt after.txt &&
	sqlite3 late/s.db "SELECT resolved, workdir FROM quarantine" >actual &&
	echo "1|packages/web" >expect && test_cmp expect actual
'

test_done
