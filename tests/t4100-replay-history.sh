#!/usr/bin/env bash
# Replay walks first parents in a window and lists each change's paths (as
# git log --first-parent --no-renames --name-only does), its PR number and
# the rules' decision: root, squash and merge commits, a rename, a
# deletion, an empty commit and a planted force-full change.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

make_history repo && cd repo || exit 2
sha() { git rev-parse --short=10 "$1"; }

test_expect_success 'every first-parent change, newest first, with the rules decision' '
	tiadash replay --since 2026-11-01 --format json >out.json &&
	replay_rows out.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 rules-only 2 None [] []
	13 rules-only 1 None [] []
	12 rules-only 3 None [] []
	11 rules-only 2 None [] []
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual &&
	json_get out.json "[(c[\"pr\"], c[\"builtin\"]) for c in d[\"changes\"] if c[\"builtin\"]]" >actual &&
	echo "[(14, {'"'"'decision'"'"': '"'"'run_all'"'"', '"'"'reasons'"'"': ['"'"'force-full:**/package-lock.json (suggested: built-in)'"'"']})]" >expect &&
	test_cmp expect actual
'

test_expect_success 'changed paths are git log --first-parent --no-renames --name-only' '
	python3 -c "import json
for c in json.load(open(\"out.json\"))[\"changes\"]:
    print(c[\"commit\"])
    print(\"\".join(p + \"\\n\" for p in c[\"paths\"]), end=\"\")" >actual &&
	git log --first-parent --no-renames --name-only --format=%H | grep . >expect &&
	test_cmp expect actual
'

test_expect_success '-j 3 compares the trees in three threads: the same paths' '
	tiadash replay --since 2026-11-01 --format json -j 3 >par.json &&
	test_cmp out.json par.json
'

test_expect_success 'commits, dates and subjects in json' '
	python3 -c "import json
for c in json.load(open(\"out.json\"))[\"changes\"]:
    print(c[\"commit\"], c[\"date\"], c[\"subject\"])" >actual &&
	git log --first-parent --format="%H %cd %s" \
		--date=format-local:%Y-%m-%dT%H:%M:%SZ >expect &&
	test_cmp expect actual
'

test_expect_success 'json totals' '
	json_get out.json "d[\"totals\"]" >actual &&
	cat >expect <<-\EOF &&
	{'"'"'changes'"'"': 7, '"'"'force_full'"'"': 0, '"'"'force_full_rate'"'"': 0, '"'"'by_reason'"'"': {}, '"'"'misses'"'"': 0, '"'"'missed_changes'"'"': 0, '"'"'decisions'"'"': {'"'"'run_all'"'"': 0, '"'"'selected'"'"': 0, '"'"'nothing'"'"': 1, '"'"'rules-only'"'"': 6}, '"'"'recorded'"'"': 0, '"'"'disagreements'"'"': 0, '"'"'gate_minutes'"'"': None, '"'"'estimate'"'"': {'"'"'full_runs'"'"': 0, '"'"'narrowed_runs'"'"': 6, '"'"'full_run_s'"'"': None, '"'"'narrowed_run_s'"'"': None}}
	EOF
	test_cmp expect actual &&
	json_get out.json "(d[\"window\"], d[\"branch\"], d[\"store\"], d[\"selector\"], \"baseline\" in d)" >actual &&
	echo "({'"'"'since'"'"': '"'"'2026-11-01T00:00:00Z'"'"', '"'"'until'"'"': None}, '"'"'HEAD'"'"', False, None, False)" >expect &&
	test_cmp expect actual &&
	json_get out.json "(d[\"rules_in_effect\"], d[\"builtin\"])" >actual &&
	echo "([], {'"'"'candidates'"'"': 79, '"'"'extra_force_full'"'"': 1, '"'"'force_full_rate_after'"'"': 0.14285714285714285, '"'"'misses_closed'"'"': 0, '"'"'missed_changes_closed'"'"': 0})" >expect &&
	test_cmp expect actual
'

test_expect_success 'text output: aligned rows and totals' '
	tiadash replay --since 2026-11-01 >actual &&
	cat >expect <<-EOF &&
	replay of HEAD at $(git rev-parse --short=12 HEAD)
	window: 2026-11-01T00:00:00Z to now
	rules: 0 in effect, 79 built-in what-if; selector: none; store: none

	COMMIT     PR     DATE        CHG DECISION     SEL MISS  REASONS
	$(sha HEAD) -      2026-11-01    1 rules-only     -    0
	$(sha HEAD~1) #15    2026-11-01    0 nothing        0    0  no-changes
	$(sha HEAD~2) #14    2026-11-01    2 rules-only     -    0
	    built-in: run_all, force-full:**/package-lock.json (suggested: built-in)
	$(sha HEAD~3) #13    2026-11-01    1 rules-only     -    0
	$(sha HEAD~4) #12    2026-11-01    3 rules-only     -    0
	$(sha HEAD~5) #11    2026-11-01    2 rules-only     -    0
	$(sha HEAD~6) -      2026-11-01    5 rules-only     -    0

	changes                 7
	force-full              0 (0.0%)
	selected                0
	rules-only              6
	nothing                 1
	misses                  0 tests in 0 changes
	disagreements           0 of 0 recorded
	gate minutes          n/a
	  (no store: no measured wall-clock)

	built-in what-if (suggested: built-in): +1 force-full, closes 0 missed tests in
	  0 changes
	EOF
	test_cmp expect actual
'

test_expect_success 'since is inclusive, until exclusive, the walk stops at since' '
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T06:00:00Z \
		--format json >w.json &&
	replay_rows w.json >actual &&
	cat >expect <<-\EOF &&
	13 rules-only 1 None [] []
	12 rules-only 3 None [] []
	11 rules-only 2 None [] []
	EOF
	test_cmp expect actual &&
	git log --first-parent --format=%H --since=2026-11-01T02:00:00Z \
		--until=2026-11-01T05:59:59Z >expect &&
	json_get w.json "chr(10).join(c[\"commit\"] for c in d[\"changes\"])" >actual &&
	test_cmp expect actual
'

test_expect_success 'relative --since uses now (TIADASH_NOW)' '
	tiadash replay --since 7d --format json >r.json &&
	json_get r.json "(d[\"window\"][\"since\"], len(d[\"changes\"]))" >actual &&
	echo "('"'"'2026-11-01T00:00:00Z'"'"', 7)" >expect &&
	test_cmp expect actual &&
	tiadash replay --since 2026-11-02 --format json >r.json &&
	json_get r.json "len(d[\"changes\"])" >actual &&
	echo 0 >expect &&
	test_cmp expect actual
'

test_expect_success '--branch walks another branch; --repo after the command' '
	cd .. &&
	tiadash replay --repo repo --branch rename --since 2026-11-01 --format json >b.json &&
	json_get b.json "[(c[\"pr\"], c[\"subject\"], c[\"changed\"]) for c in d[\"changes\"]]" >actual &&
	echo "[(None, '"'"'Rename the app module'"'"', 3), (11, '"'"'Add helpers (#11)'"'"', 2), (None, '"'"'Initial import'"'"', 5)]" >expect &&
	test_cmp expect actual &&
	tiadash --repo repo replay --branch rename --since 2026-11-01 --format json >c.json &&
	test_cmp b.json c.json
'

test_expect_success 'the default rules file is .tiadash/rules; rules go first' '
	mkdir -p .tiadash &&
	cat >.tiadash/rules <<-\EOF &&
	# team rules
	ignore docs/**
	ignore *.md
	select src/util.py tests/test_util.py
	EOF
	tiadash replay --since 2026-11-01 --format json >d.json &&
	replay_rows d.json >actual &&
	cat >expect <<-\EOF &&
	None nothing 1 0 [ignore:*.md] []
	15 nothing 0 0 [no-changes] []
	14 rules-only 2 None [select:src/util.py] []
	13 nothing 1 0 [ignore:docs/**] []
	12 rules-only 3 None [] []
	11 rules-only 2 None [select:src/util.py] []
	None rules-only 5 None [select:src/util.py] []
	EOF
	test_cmp expect actual
'

test_expect_success '--rules replaces the default file; --no-builtin-rules drops built-ins' '
	echo "run_all src/helpers.py" >team.rules &&
	tiadash replay --since 2026-11-01 --rules team.rules --no-builtin-rules \
		--format json >e.json &&
	replay_rows e.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 rules-only 2 None [] []
	13 rules-only 1 None [] []
	12 rules-only 3 None [] []
	11 run_all 2 None [force-full:src/helpers.py] []
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual &&
	json_get e.json "d[\"totals\"][\"by_reason\"]" >actual &&
	echo "{'"'"'force-full:src/helpers.py'"'"': 1}" >expect &&
	test_cmp expect actual
'

test_expect_success 'csv rows' '
	tiadash replay --since 2026-11-01T04:00:00Z --until 2026-11-01T07:00:00Z \
		--no-builtin-rules --rules /dev/null --format csv >actual &&
	cat >expect <<-EOF &&
	commit,pr,date,changed,decision,reasons,selected,missed,disagrees,recorded_decision,builtin_decision,builtin_reasons
	$(git rev-parse HEAD~2),14,2026-11-01T06:00:00Z,2,rules-only,,,,,,,
	$(git rev-parse HEAD~3),13,2026-11-01T05:00:00Z,1,rules-only,,,,,,,
	$(git rev-parse HEAD~4),12,2026-11-01T04:00:00Z,3,rules-only,,,,,,,
	EOF
	test_cmp expect actual
'

test_expect_success 'markdown escapes what markdown would read' '
	echo "**/package-lock.json" >lock.rules &&
	tiadash replay --since 2026-11-01T06:00:00Z --until 2026-11-01T07:00:00Z \
		--rules lock.rules --format md >actual &&
	cat >expect <<-EOF &&
	## Replay of HEAD at \`$(git rev-parse --short=12 HEAD)\`

	| commit | PR | date | changed | decision | reasons | selected | missed | recorded |
	|---|---:|---|---:|---|---|---:|---|---|
	| \`$(sha HEAD~2)\` | #14 | 2026-11-01 | 2 | run_all | force-full:\*\*/package-lock.json | - |  |  |

	| total | baseline |
	|---|---:|
	| changes | 1 |
	| force-full | 1 |
	| misses | 0 |
	| missed changes | 0 |
	| disagreements | 0 |
	| gate minutes | n/a |

	built-in what-if \(suggested: built-in\): +0 force-full, closes 0 missed tests in 0 changes

	| force-full reason | changes |
	|---|---:|
	| force-full:\*\*/package-lock.json | 1 |
	EOF
	test_cmp expect actual
'

test_expect_success 'control characters in rules and paths never reach the terminal' '
	git init -q esc && (
		cd esc && mkdir src &&
		echo x >"src/$(printf "\033")red.py" &&
		git add . && commit_at 1 "Add red (#21)"
	) &&
	printf "run_all src/\033*\n" >esc.rules &&
	tiadash replay --repo esc --since 2026-11-01 --rules esc.rules >actual &&
	grep "#21 " actual | cut -c 12- >rows &&
	cat >expect <<-\EOF &&
	#21    2026-11-01    1 run_all        -    0  force-full:src/\x1b*
	EOF
	test_cmp expect rows &&
	! grep -q "$(printf "\033")" actual &&
	printf "%s\n" "src/$(printf "\033")red.py" >paths &&
	tiadash rules --rules esc.rules --no-builtin-rules --test <paths >actual &&
	cat >expect <<-\EOF &&
	src/\x1bred.py  run_all  src/\x1b*  esc.rules:1  (in effect: esc.rules)
	EOF
	test_cmp expect actual
'

test_expect_success 'usage and input errors exit 2' '
	test_expect_code 2 tiadash replay 2>err &&
	test_grep "error: --since is required" err &&
	test_expect_code 2 tiadash replay --since soon 2>err &&
	test_grep "error: --since '"'"'soon'"'"': expected 1y, 7d" err &&
	test_expect_code 2 tiadash replay --since 7d --branch nope 2>err &&
	test_grep "error: unknown revision '"'"'nope'"'"'" err &&
	test_expect_code 2 tiadash replay --since 7d -j 0 2>err &&
	test_grep "error: -j '"'"'0'"'"': expected 1 to 256" err &&
	test_expect_code 2 tiadash replay --since 7d --bogus 2>err &&
	echo "tiadash: error: unknown option '"'"'--bogus'"'"'" >expect &&
	head -n 1 err >actual && test_cmp expect actual &&
	test_expect_code 2 tiadash replay --since 2>err &&
	test_grep "error: missing value for option '"'"'--since'"'"'" err &&
	test_expect_code 2 tiadash replay --since 7d --format yaml 2>err &&
	test_grep "error: unknown format '"'"'yaml'"'"'" err &&
	printf "ignore docs/**\nrun_all src/[x\n" >bad.rules &&
	test_expect_code 2 tiadash replay --since 7d --rules bad.rules 2>err &&
	test_grep "error: bad.rules:2: unterminated '"'"'\['"'"' in '"'"'src/\[x'"'"'" err &&
	test_expect_code 2 tiadash replay --since 7d --what-if "a[" 2>err &&
	test_grep "error: --what-if: unterminated" err &&
	test_expect_code 2 tiadash --db nope.db replay --since 7d 2>err &&
	test_grep "error: no store at '"'"'nope.db'"'"'" err &&
	TIADASH_DB=nope.db test_expect_code 2 tiadash replay --since 7d 2>err &&
	test_grep "error: no store at '"'"'nope.db'"'"'" err &&
	(cd / && test_expect_code 2 "$TIADASH_BIN" replay --since 7d 2>"$TRASH/err") &&
	test_grep "not in a git repository" "$TRASH/err"
'

test_done
