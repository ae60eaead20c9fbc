#!/bin/bash
# The verifier check on a real repository: a PR whose shadow attempts failed
# one test identically twice and went green after a fixture-only change is
# flagged; control PRs are not (the fix touched the code, the failure names
# the config that changed, the same commit rerun, the failure moved). Report,
# show, gate-check (advisory) and the dashboard's disagreements say so.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/tui/lib.sh"

T=tests/test_money.py::test_round

# vjunit FILE [MESSAGE TEXT]: one case of T, failing with MESSAGE and TEXT when given.
vjunit() {
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites><testsuite name="pytest">'
		printf '<testcase file="tests/test_money.py" classname="tests.test_money" name="test_round">'
		[ $# -gt 1 ] && printf '<failure message="%s">%s</failure>' "$2" "$3"
		echo '</testcase>'
		echo '<testcase file="tests/test_other.py" classname="tests.test_other" name="test_ok"/>'
		echo '</testsuite></testsuites>'
	} >"$1"
}

# commit_pr BRANCH FILE TEXT: append TEXT to FILE on BRANCH; the head sha in heads.BRANCH.N
commit_pr() {
	git -C repo checkout -q "$1" &&
	mkdir -p "repo/$(dirname "$2")" && printf '%s\n' "$3" >>"repo/$2" &&
	(cd repo && commit_at 2026-11-02T00:00:00Z "$1: $2") &&
	git -C repo rev-parse HEAD >>"heads.$1" &&
	git -C repo checkout -q main
}

# vrun DIR BRANCH N KIND ATTEMPT AT VERDICT [MESSAGE TEXT]: a run of the branch's Nth head.
vrun() {
	local dir=$1 pr=${2#pr} head selection=
	head=$(sed -n "$3p" "heads.$2")
	[ "$4" = shadow ] && selection="\"selection\": $(sel selected 2 2 tests),"
	write_run "$dir" "\"repo\": \"acme/x\", \"pr\": $pr, \"head\": \"$head\", \"base\": \"$(cat heads.base)\", \"kind\": \"$4\", \"attempt\": $5, \"started_at\": \"$6\", \"verdict\": \"$7\", $selection \"results\": [\"junit.xml\"]" &&
	shift 7 &&
	vjunit "$dir/junit.xml" "$@"
}

MSG="AssertionError: assert Decimal(&apos;12.30&apos;) == Decimal(&apos;12.31&apos;)"
TRACE="tests/test_money.py:12: in test_round
    assert round_money(x) == expected
src/money.py:3: in round_money
    return rates.load(&apos;config/app.toml&apos;) at 0x7f3a2c1e90
E   AssertionError"

test_expect_success 'setup: a repository and five PRs of three shadow attempts each' '
	git init -q repo &&
	mkdir -p repo/src repo/tests/fixtures repo/config &&
	printf "def round_money(x):\n    return x\n" >repo/src/money.py &&
	echo "def test_round(): pass" >repo/tests/test_money.py &&
	echo "{}" >repo/tests/fixtures/rates.json &&
	echo "[app]" >repo/config/app.toml &&
	(cd repo && commit_at 2026-11-01T00:00:00Z base) &&
	git -C repo rev-parse HEAD >heads.base &&
	for b in pr7 pr8 pr9 pr10 pr11; do git -C repo branch $b || return 1; done &&
	# PR 7: two tries at the code, then the fixture: flagged
	commit_pr pr7 src/money.py "    # try 1" &&
	commit_pr pr7 src/money.py "    # try 2" &&
	commit_pr pr7 tests/fixtures/rates.json "{\"12.30\": \"12.31\"}" &&
	# PR 8: the green attempt changed the code too: not flagged
	commit_pr pr8 src/money.py "    # try 1" &&
	commit_pr pr8 src/money.py "    # try 2" &&
	commit_pr pr8 src/money.py "    return round(x, 2)" &&
	# PR 9: the green attempt changed the config the failure names: not flagged
	commit_pr pr9 src/money.py "    # try 1" &&
	commit_pr pr9 src/money.py "    # try 2" &&
	commit_pr pr9 config/app.toml "rounding = 2" &&
	# PR 10: one commit, rerun until green: a flake, not a verifier change
	commit_pr pr10 src/money.py "    # try 1" &&
	# PR 11: the failure moved (another actual value), then the fixture: not flagged
	commit_pr pr11 src/money.py "    # try 1" &&
	commit_pr pr11 src/money.py "    # try 2" &&
	commit_pr pr11 tests/fixtures/rates.json "{}" &&
	vrun r/7a pr7 1 shadow 1 2026-11-02T10:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/7b pr7 2 shadow 1 2026-11-02T11:00:00Z fail "$MSG" "$(echo "$TRACE" | sed s/0x7f3a2c1e90/0x7f00aa11bb/)" &&
	vrun r/7c pr7 3 shadow 1 2026-11-02T12:00:00Z pass &&
	vrun r/7f pr7 3 full 1 2026-11-02T12:30:00Z pass &&
	vrun r/8a pr8 1 shadow 1 2026-11-03T10:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/8b pr8 2 shadow 1 2026-11-03T11:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/8c pr8 3 shadow 1 2026-11-03T12:00:00Z pass &&
	vrun r/9a pr9 1 shadow 1 2026-11-04T10:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/9b pr9 2 shadow 1 2026-11-04T11:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/9c pr9 3 shadow 1 2026-11-04T12:00:00Z pass &&
	vrun r/10a pr10 1 shadow 1 2026-11-05T10:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/10b pr10 1 shadow 2 2026-11-05T11:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/10c pr10 1 shadow 3 2026-11-05T12:00:00Z pass &&
	vrun r/11a pr11 1 shadow 1 2026-11-06T10:00:00Z fail "$MSG" "$TRACE" &&
	vrun r/11b pr11 2 shadow 1 2026-11-06T11:00:00Z fail "AssertionError: assert Decimal(&apos;12.29&apos;) == Decimal(&apos;12.31&apos;)" "$TRACE" &&
	vrun r/11c pr11 3 shadow 1 2026-11-06T12:00:00Z pass &&
	tiadash --db v.db --repo repo ingest r >out 2>err &&
	echo "16 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'the digests: the same assertion twice is one digest, addresses masked' '
	sqlite3 v.db "SELECT count(DISTINCT digest) FROM result WHERE digest IS NOT NULL" >n &&
	# one failure (PRs 7-10, PR 11 first) and the moved one (PR 11 second)
	echo 2 >expect && test_cmp expect n
'

test_expect_success 'report: PR 7 alone is flagged, from git' '
	tiadash --db v.db --repo repo report --format json >r.json &&
	json_close r.json "d[\"verifier_changed\"][\"count\"]" 1 &&
	json_close r.json "d[\"verifier_changed\"][\"list\"]" "[{\"pr\": 7, \"repo\": \"acme/x\", \"head\": \"$(sed -n 3p heads.pr7)\", \"test\": \"$T\", \"digest\": \"$(sqlite3 v.db "SELECT DISTINCT digest FROM result r JOIN run u ON u.id = r.run_id JOIN head h ON h.id = u.head_id WHERE h.pr = 7")\", \"failed\": [{\"head\": \"$(sed -n 1p heads.pr7)\", \"attempt\": 1}, {\"head\": \"$(sed -n 2p heads.pr7)\", \"attempt\": 1}], \"passed\": {\"head\": \"$(sed -n 3p heads.pr7)\", \"attempt\": 1}, \"changed\": [\"tests/fixtures/rates.json\"], \"change_from\": \"git\"}]" &&
	tiadash --db v.db --repo repo report >r.txt &&
	test_grep "^Verifier     1 head went green after a change to tests, fixtures or config only$" r.txt &&
	test_grep "^    tests/fixtures/rates.json$" r.txt &&
	tiadash --db v.db --repo repo report --format csv >r.csv &&
	python3 -c "import csv,sys; print(sorted(r[\"pr\"] for r in csv.DictReader(open(sys.argv[1])) if r[\"verifier_changed\"] == \"yes\"))" r.csv >flagged &&
	test "$(cat flagged)" = "['"'"'7'"'"']"
'

test_expect_success 'without the repository: the stored diffs tell the same' '
	tiadash --db v.db report --format json >s.json &&
	json_close s.json "[[v[\"pr\"], v[\"changed\"], v[\"change_from\"]] for v in d[\"verifier_changed\"][\"list\"]]" "[[7, [\"tests/fixtures/rates.json\"], \"stored diffs\"]]"
'

test_expect_success 'show: any head of the PR names the finding; a control head none' '
	tiadash --db v.db --repo repo show "$(sed -n 1p heads.pr7)" >s.txt &&
	test_grep "^verifier    $T$" s.txt &&
	test_grep "^            failed identically in $(sed -n 1p heads.pr7 | cut -c1-12) #1, $(sed -n 2p heads.pr7 | cut -c1-12) #1$" s.txt &&
	test_grep "^            fixtures or config only (git):$" s.txt &&
	test_grep "^              tests/fixtures/rates.json$" s.txt &&
	tiadash --db v.db --repo repo show "$(sed -n 3p heads.pr7)" --format json >s.json &&
	json_close s.json "[v[\"test\"] for v in d[\"verifier_changed\"]]" "[\"$T\"]" &&
	for pr in pr8 pr9 pr11; do
		tiadash --db v.db --repo repo show "$(sed -n 3p heads.$pr)" --format json >c.json &&
		json_close c.json "d[\"verifier_changed\"]" "[]" || return 1
	done &&
	tiadash --db v.db --repo repo show 10 --format json >c10.json &&
	json_close c10.json "d[\"verifier_changed\"]" "[]"
'

test_expect_success 'gate-check: advisory, it does not decide the verdict' '
	test_expect_code 1 tiadash --db v.db --repo repo gate-check --format json >g.json &&
	json_close g.json "[[c[\"value\"], c[\"pass\"], c[\"advisory\"]] for c in d[\"criteria\"] if c[\"name\"] == \"verifier_changed\"]" "[[1, false, true]]" &&
	tiadash --db v.db --repo repo gate-check >g.txt;
	test_grep "^verifier-changed heads (advisory)            <= 0         1  FAIL (advisory)$" g.txt
'

test_expect_success 'the dashboard: a verifier row in the disagreements, a line in the overview' '
	steps ":save-view o" ":view disagreements" ":save-view d" &&
	TUI_DB=v.db TUI_REPO=repo tui &&
	test_grep "^Verifier 1 head green after a change to tests, fixtures or config only$" o &&
	test_grep "^> verifier new #7 $T green after tests/fixtures/rates.json$" d
'

test_done
