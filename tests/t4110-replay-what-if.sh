#!/usr/bin/env bash
# Proposals: --what-if globs (run_all, tried before every other rule) and
# extra --rules files are replayed next to the baseline, with escapes
# closed and opened, force-full rates and gate minutes before and after.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

make_history repo && cd repo && make_store "$TRASH/store.db" || exit 2
sha() { git rev-parse --short=10 "$1"; }
export TIADASH_DB="$TRASH/store.db"

test_expect_success 'a what-if glob closes the escape of #11' '
	tiadash replay --since 2026-11-01 --what-if src/helpers.py --format json >out.json &&
	replay_rows out.json proposal >actual &&
	cat >expect <<-\EOF &&
	None nothing 1 0 [] [tests/test_readme.py::test_title]
	15 nothing 0 0 [no-changes] []
	14 selected 2 3 [] [tests/test_lock.py::test_lock]
	13 run_all 1 None [force-full:docs/**] []
	12 selected 3 2 [] []
	11 run_all 2 None [force-full:src/helpers.py] []
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual &&
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
	test_cmp expect actual
'

test_expect_success 'baseline and proposal totals, and the comparison' '
	json_get out.json "(d[\"baseline\"] == d[\"totals\"], d[\"baseline\"][\"force_full\"], d[\"proposal\"][\"force_full\"], d[\"proposal\"][\"misses\"], d[\"proposal\"][\"missed_changes\"], d[\"proposal\"][\"by_reason\"], d[\"proposal\"][\"gate_minutes\"])" >actual &&
	echo "(True, 1, 2, 2, 2, {'"'"'force-full:docs/**'"'"': 1, '"'"'force-full:src/helpers.py'"'"': 1}, 29.5)" >expect &&
	test_cmp expect actual &&
	json_get out.json "d[\"comparison\"]" >actual &&
	echo "{'"'"'escapes_closed'"'"': 1, '"'"'escapes_opened'"'"': 0, '"'"'extra_force_full'"'"': 1, '"'"'force_full_rate_before'"'"': 0.14285714285714285, '"'"'force_full_rate_after'"'"': 0.2857142857142857, '"'"'gate_minutes_before'"'"': 21, '"'"'gate_minutes_after'"'"': 29.5}" >expect &&
	test_cmp expect actual
'

test_expect_success 'text: side by side' '
	tiadash replay --since 2026-11-01 --what-if src/helpers.py >actual &&
	cat >expect <<-EOF &&
	replay of HEAD at $(git rev-parse --short=12 HEAD)
	window: 2026-11-01T00:00:00Z to now
	rules: 0 in effect, proposal 1, 79 built-in what-if; selector: none; store: yes

	COMMIT     PR     DATE        CHG BASELINE   MISS  PROPOSAL   MISS
	$(sha HEAD) -      2026-11-01    1 nothing       1  nothing       1
	    missed (baseline): tests/test_readme.py::test_title
	    missed (proposal): tests/test_readme.py::test_title
	$(sha HEAD~1) #15    2026-11-01    0 nothing       0  nothing       0
	$(sha HEAD~2) #14    2026-11-01    2 selected      1  selected      1
	    missed (baseline): tests/test_lock.py::test_lock
	    missed (proposal): tests/test_lock.py::test_lock
	    built-in: run_all, force-full:**/package-lock.json (suggested: built-in)
	$(sha HEAD~3) #13    2026-11-01    1 run_all       0  run_all       0
	$(sha HEAD~4) #12    2026-11-01    3 selected      0  selected      0
	$(sha HEAD~5) #11    2026-11-01    2 selected      1  run_all       0  *
	    proposal: force-full:src/helpers.py
	    missed (baseline): tests/test_app.py::test_run
	$(sha HEAD~6) -      2026-11-01    5 rules-only    0  rules-only    0

	                                baseline     proposal
	changes                                7            7
	force-full                     1 (14.3%)    2 (28.6%)
	  force-full:docs/**                   1            1
	  force-full:src/helpers.py            0            1
	misses                                 3            2
	missed changes                         3            2
	disagreements                          0            1
	gate minutes                        21.0         29.5
	escapes closed                                      1
	escapes opened                                      0
	extra force-full                                    1
	  baseline: 1 run_all x 11.0 min + 4 narrowed x 2.5 min
	  proposal: 2 run_all x 11.0 min + 3 narrowed x 2.5 min
	  (store medians: 3 full runs, 3 narrowed shadow runs; nothing: 0)

	built-in what-if (suggested: built-in): +1 force-full, closes 1 missed tests in
	  1 changes
	EOF
	test_cmp expect actual
'

test_expect_success 'what-if globs go before the rules file (and its ignores)' '
	mkdir -p .tiadash &&
	printf "ignore *.md\n" >.tiadash/rules &&
	tiadash replay --since 2026-11-01T08:00:00Z --what-if README.md \
		--what-if "{docs,src}/**" --format json >w.json &&
	json_get w.json "[(c[\"decision\"], c[\"reasons\"], c[\"proposal\"][\"decision\"], c[\"proposal\"][\"reasons\"]) for c in d[\"changes\"]]" >actual &&
	echo "[('"'"'nothing'"'"', ['"'"'ignore:*.md'"'"'], '"'"'run_all'"'"', ['"'"'force-full:README.md'"'"'])]" >expect &&
	test_cmp expect actual &&
	rm -r .tiadash
'

test_expect_success 'extra --rules files are the proposal, after the first' '
	printf "ignore docs/**\n" >base.rules &&
	printf "run_all README.md\nignore tests/**\n" >extra.rules &&
	tiadash replay --since 2026-11-01 --rules base.rules --rules extra.rules \
		--format json >x.json &&
	replay_rows x.json proposal >actual &&
	cat >expect <<-\EOF &&
	None run_all 1 None [force-full:README.md] []
	15 nothing 0 0 [no-changes] []
	14 selected 2 3 [] [tests/test_lock.py::test_lock]
	13 nothing 1 0 [ignore:docs/**] [tests/test_docs.py::test_links]
	12 selected 3 2 [] []
	11 selected 2 1 [] [tests/test_app.py::test_run]
	None run_all 5 None [force-full:README.md] []
	EOF
	test_cmp expect actual &&
	json_get x.json "(d[\"baseline\"][\"misses\"], d[\"proposal\"][\"misses\"], d[\"comparison\"][\"escapes_closed\"], d[\"comparison\"][\"escapes_opened\"], [c[\"decision\"] for c in d[\"changes\"]][3])" >actual &&
	echo "(4, 3, 1, 0, '"'"'nothing'"'"')" >expect &&
	test_cmp expect actual
'

test_expect_success 'a proposal that ignores more can open escapes' '
	printf "ignore docs/**\n" >loose.rules &&
	tiadash replay --since 2026-11-01 --rules /dev/null --rules loose.rules \
		--no-builtin-rules --format json >o.json &&
	json_get o.json "(d[\"comparison\"][\"escapes_opened\"], [(c[\"missed\"], c[\"proposal\"][\"missed\"]) for c in d[\"changes\"] if c[\"pr\"] == 13])" >actual &&
	echo "(1, [([], ['"'"'tests/test_docs.py::test_links'"'"'])])" >expect &&
	test_cmp expect actual
'

test_expect_success 'csv and md carry both columns' '
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
		--what-if src/helpers.py --format csv >actual &&
	cat >expect <<-EOF &&
	commit,pr,date,changed,decision,reasons,selected,missed,disagrees,proposal_decision,proposal_reasons,proposal_selected,proposal_missed,proposal_disagrees,recorded_decision,builtin_decision,builtin_reasons
	$(git rev-parse HEAD~5),11,2026-11-01T02:00:00Z,2,selected,,1,tests/test_app.py::test_run,no,run_all,force-full:src/helpers.py,,,yes,selected,,
	EOF
	test_cmp expect actual &&
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
		--what-if src/helpers.py --format md >actual &&
	sed -n 5p actual >row &&
	cat >expect <<-EOF &&
	| \`$(sha HEAD~5)\` | #11 | 2026-11-01 | 2 | selected |  | 1 | tests/test\_app.py::test\_run | run_all | force-full:src/helpers.py | - |  | selected |
	EOF
	test_cmp expect row &&
	test_grep "^| escapes closed | | 1 |$" actual
'

test_done
