#!/bin/bash
# An id-map keys a monorepo package's selection entries from the package,
# whenever it is added, as it keys the package's quarantine lines (t1086):
# a shadow run in packages/web whose selector named the describe title
# `Toolbar`, and the team's rule rewriting it to a path relative to the
# package. Matched as stored, through the rule and from the root, the
# entry selected nothing: the full run's failure counted as an escape
# (missed by the selection) and the entry as one that selects no test.
# Keyed through the tree from its run's workdir, at ingest or when the rule
# comes later, it selects the test: the failure is non-hermetic (the
# shadow run ran it and it passed there), and status, report, show,
# gate-check, the tests' records and replay say the same whichever came
# first; taking the rule away again brings back the figures without it.
# "Menu opens", listed twice, counts twice among the entries and the
# unresolved ones, whenever the rule comes (and once among those that
# select no test, which are counted as stored).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-monorepo.sh"

W="--since 2026-11-01 --until 2026-11-03"

test_expect_success 'setup: a workspace package, a shadow run that selected a describe title' '
	web_repo toolbar menu footer &&
	base=$(git -C repo rev-parse HEAD~1) head=$(git -C repo rev-parse HEAD) &&
	run="\"pr\": 1, \"base\": \"$base\", \"head\": \"$head\", \"workdir\": \"packages/web\"" &&
	write_run w/1s "$run, \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\",
		\"verdict\": \"pass\", \"results\": [\"junit.xml\"], \"selection\": {\"decision\": \"selected\",
		\"selected_count\": 2, \"total_tests\": 3, \"selected\": [\"Toolbar\", \"Menu opens\", \"Menu opens\"]}" &&
	write_run w/1f "$run, \"kind\": \"full\", \"started_at\": \"2026-11-02T10:05:00Z\",
		\"verdict\": \"fail\", \"results\": [\"junit.xml\"]" &&
	jest_file w/1s/junit.xml "Toolbar renders" "Menu opens" &&
	jest_file w/1f/junit.xml "Menu opens" "Toolbar renders:failed" "Footer shows" &&
	mkdir late early && echo "$RULE" >early/config
'

# figures DB OUT: status's identity lines, then the figures of the same in
# report, show, gate-check, the tests' records and replay (JSON, one line
# each).
figures() {
	identity_lines "$1" "$2" &&
	tiadash --db "$1" --repo repo report $W --format json >r.json &&
	json_dump r.json "[d[\"identity\"][k] for k in (\"entries_unresolved\", \"entries_matching_no_test\")] + [[e[k] for k in (\"class\", \"missed\", \"non_hermetic\")] for e in d[\"escapes\"][\"list\"]]" >>"$2" &&
	tiadash --db "$1" --repo repo show 1 --format json >s.json &&
	json_dump s.json "[d[\"class\"], d[\"missed\"]]" >>"$2" &&
	{ tiadash --db "$1" --repo repo gate-check $W --min-pairs 1 --min-days 1 \
		--format json >g.json || true; } &&
	json_dump g.json "[[c[k] for k in (\"label\", \"value\", \"pass\")] for c in d[\"criteria\"] if c[\"name\"] == \"identity_resolved\"]" >>"$2" &&
	tiadash --db "$1" --repo repo tests --format json >t.json &&
	json_dump t.json "[[t[k] for k in (\"id\", \"selected\", \"missed\")] for t in d[\"tests\"]]" >>"$2" &&
	tiadash --db "$1" --repo repo replay --since 2026-10-30T10:30:00Z --format json >rp.json &&
	json_dump rp.json "[[c[k] for k in (\"selection\", \"missed\")] for c in d[\"changes\"]]" >>"$2"
}

test_expect_success 'without the rule: the entries name no test, the failure is an escape' '
	tiadash --db late/s.db --repo repo ingest w >out 2>err &&
	figures late/s.db before.txt &&
	cat >expect <<-\EOF &&
	identity  1 of 1 failing tests resolved,
	          2 of 3 selection entries select no test
	[2, 2, ["escape", ["packages/web/src/toolbar.test.js::Toolbar renders"], []]]
	["escape", ["packages/web/src/toolbar.test.js::Toolbar renders"]]
	[["selection entries joined", 0.3333333333333333, false]]
	[["packages/web/src/toolbar.test.js::Toolbar renders", 0, 1], ["packages/web/src/footer.test.js::Footer shows", 0, 0], ["packages/web/src/menu.test.js::Menu opens", 0, 0]]
	[[["Menu opens", "Toolbar"], ["packages/web/src/toolbar.test.js::Toolbar renders"]]]
	EOF
	test_cmp expect before.txt
'

test_expect_success 'the rule at ingest: the entries select the package test files' '
	tiadash --db early/s.db --repo repo ingest w >out 2>err &&
	sqlite3 early/s.db "SELECT workdir, length(keyed_by), entries_unresolved, entries_unmatched FROM selection" >actual &&
	echo "packages/web|32|0|0" >expect && test_cmp expect actual &&
	figures early/s.db early.txt &&
	cat >expect <<-\EOF &&
	identity  1 of 1 failing tests resolved,
	          0 of 3 selection entries select no test
	[0, 0, ["non-hermetic", [], ["packages/web/src/toolbar.test.js::Toolbar renders"]]]
	["non-hermetic", []]
	[["failing tests resolved", 1, true]]
	[["packages/web/src/toolbar.test.js::Toolbar renders", 1, 0], ["packages/web/src/footer.test.js::Footer shows", 0, 0], ["packages/web/src/menu.test.js::Menu opens", 1, 0]]
	[[["Menu opens", "Toolbar"], []]]
	EOF
	test_cmp expect early.txt
'

test_expect_success 'the rule added after ingest: the same figures, the entries keyed from the package' '
	echo "$RULE" >late/config &&
	figures late/s.db after.txt &&
	test_cmp early.txt after.txt &&
	sqlite3 late/s.db "SELECT workdir, entries_unresolved FROM selection" >actual &&
	echo "packages/web|0" >expect && test_cmp expect actual &&
	: >late/config &&
	figures late/s.db again.txt &&
	test_cmp before.txt again.txt
'

test_done
