#!/usr/bin/env bash
# The record: replay matches each change to the store's runs by commit or
# PR number (the PR's latest head), uses recorded shadow selections when
# there is no selector, names the failing tests the selection missed (not
# flaky ones, not quarantined ones), compares decisions, and estimates
# gate minutes from measured wall-clock.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

make_history repo && cd repo && make_store "$TRASH/store.db" || exit 2
sha() { git rev-parse --short=10 "$1"; }

test_expect_success 'recorded selections, misses (none when caught; latest head) and disagreements' '
	tiadash --db "$TRASH/store.db" replay --since 2026-11-01 --format json >out.json &&
	replay_rows out.json >actual &&
	cat >expect <<-\EOF &&
	None nothing 1 0 [] [tests/test_readme.py::test_title]
	15 nothing 0 0 [no-changes] []
	14 selected 2 3 [] [tests/test_lock.py::test_lock]
	13 run_all 1 None [force-full:docs/**] []
	12 selected 3 2 [] []
	11 selected 2 1 [] [tests/test_app.py::test_run]
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual &&
	json_get out.json "[(c[\"pr\"], c[\"recorded\"] and c[\"recorded\"][\"head\"][:4], c[\"disagrees\"], c[\"disagreement\"]) for c in d[\"changes\"]]" >actual &&
	echo "[(None, '"'"'$(git rev-parse --short=4 HEAD)'"'"', False, None), (15, None, None, None), (14, '"'"'4444'"'"', False, None), (13, '"'"'6666'"'"', False, None), (12, '"'"'3333'"'"', False, None), (11, '"'"'1111'"'"', False, None), (None, None, None, None)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'totals: misses, missed changes, minutes from store medians' '
	json_get out.json "d[\"totals\"]" >actual &&
	cat >expect <<-\EOF &&
	{'"'"'changes'"'"': 7, '"'"'force_full'"'"': 1, '"'"'force_full_rate'"'"': 0.14285714285714285, '"'"'by_reason'"'"': {'"'"'force-full:docs/**'"'"': 1}, '"'"'misses'"'"': 3, '"'"'missed_changes'"'"': 3, '"'"'decisions'"'"': {'"'"'run_all'"'"': 1, '"'"'selected'"'"': 3, '"'"'nothing'"'"': 2, '"'"'rules-only'"'"': 1}, '"'"'recorded'"'"': 5, '"'"'disagreements'"'"': 0, '"'"'gate_minutes'"'"': 21, '"'"'estimate'"'"': {'"'"'full_runs'"'"': 1, '"'"'narrowed_runs'"'"': 4, '"'"'full_run_s'"'"': 660, '"'"'narrowed_run_s'"'"': 150}}
	EOF
	test_cmp expect actual
'

test_expect_success 'text report with the record' '
	tiadash --db "$TRASH/store.db" replay --since 2026-11-01 >actual &&
	cat >expect <<-EOF &&
	replay of HEAD at $(git rev-parse --short=12 HEAD)
	window: 2026-11-01T00:00:00Z to now
	rules: 0 in effect, 79 built-in what-if; selector: none; store: yes

	COMMIT     PR     DATE        CHG DECISION     SEL MISS  REASONS
	$(sha HEAD) -      2026-11-01    1 nothing        0    1
	    missed: tests/test_readme.py::test_title
	$(sha HEAD~1) #15    2026-11-01    0 nothing        0    0  no-changes
	$(sha HEAD~2) #14    2026-11-01    2 selected       3    1
	    missed: tests/test_lock.py::test_lock
	    built-in: run_all, force-full:**/package-lock.json (suggested: built-in)
	$(sha HEAD~3) #13    2026-11-01    1 run_all        -    0  force-full:docs/**
	$(sha HEAD~4) #12    2026-11-01    3 selected       2    0
	$(sha HEAD~5) #11    2026-11-01    2 selected       1    1
	    missed: tests/test_app.py::test_run
	$(sha HEAD~6) -      2026-11-01    5 rules-only     -    0

	changes                     7
	force-full                  1 (14.3%)
	  force-full:docs/**        1
	selected                    3
	rules-only                  1
	nothing                     2
	misses                      3 tests in 3 changes
	disagreements               0 of 5 recorded
	gate minutes             21.0
	  = 1 run_all x 11.0 min + 4 narrowed x 2.5 min
	  (store medians: 3 full runs, 3 narrowed shadow runs; nothing: 0)

	built-in what-if (suggested: built-in): +1 force-full, closes 1 missed tests in
	  1 changes
	EOF
	test_cmp expect actual
'

test_expect_success 'the default store is .tiadash/tiadash.db in the repository' '
	mkdir -p .tiadash && cp "$TRASH/store.db" .tiadash/tiadash.db &&
	tiadash replay --since 2026-11-01 --format json >def.json &&
	test_cmp out.json def.json &&
	rm -r .tiadash
'

test_expect_success 'without a store: rules only, no record' '
	tiadash replay --since 2026-11-01 --format json >none.json &&
	json_get none.json "(d[\"store\"], d[\"totals\"][\"misses\"], d[\"totals\"][\"recorded\"], d[\"totals\"][\"decisions\"])" >actual &&
	echo "(False, 0, 0, {'"'"'run_all'"'"': 0, '"'"'selected'"'"': 0, '"'"'nothing'"'"': 1, '"'"'rules-only'"'"': 6})" >expect &&
	test_cmp expect actual
'

test_expect_success 'several repos in one store: origin picks the PR numbers' '
	write_run other "$(run_json 11 8888888888888888888888888888888888888888 shadow 1 9 60 pass \
		'"'"'"selection": {"decision": "run_all", "reasons": ["other-repo"], "total_tests": 9}'"'"' |
		sed "s|acme/app|other/app|")" &&
	junit other/junit.xml tests/test_ok.py::test_ok &&
	tiadash --db "$TRASH/store.db" --repo . ingest other >/dev/null 2>&1 &&
	tiadash --db "$TRASH/store.db" replay --since 2026-11-01 --format json >multi.json 2>err &&
	test_grep "the store holds 2 repositories and none is this repository" err &&
	json_get multi.json "[c[\"decision\"] for c in d[\"changes\"] if c[\"pr\"] == 11]" >actual &&
	echo "['"'"'run_all'"'"']" >expect &&
	test_cmp expect actual &&
	git remote add origin https://github.com/acme/app.git &&
	tiadash --db "$TRASH/store.db" replay --since 2026-11-01 --format json >multi.json 2>err &&
	test_must_be_empty err &&
	test_cmp out.json multi.json &&
	git remote set-url origin git@github.com:acme/app.git &&
	tiadash --db "$TRASH/store.db" replay --since 2026-11-01 --format json >multi.json 2>err &&
	test_must_be_empty err &&
	test_cmp out.json multi.json
'

test_done
