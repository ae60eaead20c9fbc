#!/usr/bin/env bash
# The selector protocol: one call per change the rules leave narrowed,
# with TIADASH_BASE/HEAD/TREE/REPO and the paths on stdin, in a worktree
# checked out at the change's head; its answer is test ids, "run_all" and
# reasons, or "nothing" (an empty answer too). A selector that fails,
# times out or prints garbage fails closed: run_all with reason
# selector-error. -j N gives the -j 1 answer.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

# The lock file forces a full run by the team's rule (built-ins are only suggestions).
make_history repo && cd repo && make_store "$TRASH/store.db" &&
	mkdir -p .tiadash && echo "**/package-lock.json" >.tiadash/rules || exit 2
SEL="sh $TEST_SRC/data/rules/selector.sh"
export TIADASH_DB="$TRASH/store.db"

test_expect_success 'one call per narrowed change, with the protocol environment' '
	SELECTOR_LOG=$TRASH/calls tiadash replay --since 2026-11-01 \
		--selector "$SEL ok" --format json >ok.json &&
	sort "$TRASH/calls" >actual &&
	r=$(pwd -P) &&
	{
		echo "$(git rev-parse HEAD) $(git rev-parse HEAD~1) $r TREE README.md" &&
		echo "$(git rev-parse HEAD~3) $(git rev-parse HEAD~4) $r TREE docs/guide.md" &&
		echo "$(git rev-parse HEAD~4) $(git rev-parse HEAD~5) $r TREE src/app.py src/main.py tests/test_app.py" &&
		echo "$(git rev-parse HEAD~5) $(git rev-parse HEAD~6) $r TREE src/helpers.py src/util.py" &&
		echo "$(git rev-parse HEAD~6) 4b825dc642cb6eb9a060e54bf8d69288fbee4904 $r TREE README.md docs/guide.md src/app.py src/util.py tests/test_app.py"
	} | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'selector answers, misses against the record, disagreements' '
	replay_rows ok.json >actual &&
	cat >expect <<-\EOF &&
	None nothing 1 0 [] [tests/test_readme.py::test_title]
	15 nothing 0 0 [no-changes] []
	14 run_all 2 None [force-full:**/package-lock.json] []
	13 nothing 1 0 [] [tests/test_docs.py::test_links]
	12 selected 3 2 [] []
	11 selected 2 2 [] [tests/test_app.py::test_run]
	None selected 5 2 [] []
	EOF
	test_cmp expect actual &&
	json_get ok.json "[c[\"disagreement\"] for c in d[\"changes\"]]" >actual &&
	echo "[None, None, '"'"'replayed run_all, recorded selected'"'"', '"'"'replayed nothing, recorded run_all'"'"', '"'"'replayed selection of 2 entries, recorded 1'"'"', '"'"'replayed selection of 2 entries, recorded 1'"'"', None]" >expect &&
	test_cmp expect actual &&
	json_get ok.json "(d[\"selector\"], d[\"totals\"][\"disagreements\"], d[\"totals\"][\"recorded\"])" >actual &&
	echo "('"'"'$SEL ok'"'"', 4, 5)" >expect &&
	test_cmp expect actual
'

test_expect_success '-j 4 gives the same answers as -j 1' '
	tiadash replay --since 2026-11-01 --selector "$SEL ok" -j 1 --format json >j1.json &&
	tiadash replay --since 2026-11-01 --selector "$SEL ok" -j 4 --format json >j4.json &&
	test_cmp ok.json j1.json &&
	test_cmp j1.json j4.json &&
	tiadash replay --since 2026-11-01 --selector "$SEL ok" --jobs 3 >j3.txt &&
	tiadash replay --since 2026-11-01 --selector "$SEL ok" >j1.txt &&
	test_cmp j1.txt j3.txt
'

test_expect_success 'run_all with reasons; a bare run_all; CRLF lines' '
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
		--selector "$SEL run_all" --format json >ra.json &&
	replay_rows ra.json >actual &&
	echo "11 run_all 2 None [force-full:custom the selector said so] []" >expect &&
	test_cmp expect actual &&
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
		--selector "$SEL run_all_bare" --format json >ra.json &&
	replay_rows ra.json >actual &&
	echo "11 run_all 2 None [selector:run_all] []" >expect &&
	test_cmp expect actual &&
	tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
		--selector "$SEL crlf" --format json >cr.json &&
	replay_rows cr.json >actual &&
	echo "11 selected 2 2 [] []" >expect &&
	test_cmp expect actual
'

# A failing selector: the change runs everything, and stderr says why;
# its only call failed, so the replay (exit 2) says that last.
while IFS='|' read -r cmd why; do
	test_expect_success "a selector that $why fails closed" '
		test_expect_code 2 tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
			--selector "$cmd" --selector-timeout 0.5 --format json >f.json 2>err &&
		replay_rows f.json >actual &&
		echo "11 run_all 2 None [selector-error] []" >expect &&
		test_cmp expect actual &&
		{
			echo "tiadash: warning: selector failed on $(git rev-parse --short=12 HEAD~5): $why (run_all, selector-error)" &&
			echo "tiadash: error: the selector failed on every call (1): $why"
		} >expect &&
		test_cmp expect err
	'
done <<TABLE
$SEL fail|exited with status 3: no coverage map
kill -9 \$\$|killed by signal 9
$SEL sleep|timed out after 0.5 s
$SEL escape|printed what its reader refuses (stdout:2: line protocol: a control character (\\x1b))
$SEL nul|printed what its reader refuses (stdout:1: line protocol: a control character (\\x00))
$SEL bad_utf8|printed what its reader refuses (stdout:1: line protocol: invalid UTF-8)
$SEL nothing_and_ids|printed what its reader refuses (stdout:2: line protocol: 'nothing' and then test ids)
no-such-selector-command|exited with status 127: sh: 1: no-such-selector-command: not found
TABLE

test_expect_success 'every call failed, each its own way: still exit 2' '
	test_expect_code 2 tiadash replay --since 2026-11-01 \
		--selector "exit \$(git rev-list --count HEAD)" --format json >w.json 2>err &&
	json_get w.json "d[\"totals\"][\"by_reason\"][\"selector-error\"]" >actual &&
	echo 5 >expect && test_cmp expect actual &&
	tail -n 1 err >actual &&
	test_grep "^tiadash: error: the selector failed on every call (5); the commonest way: exited with status [0-9]*$" actual
'

test_expect_success 'an empty answer means nothing' '
	for mode in empty blank; do
		tiadash replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z \
			--selector "$SEL $mode" --format json >e.json 2>err &&
		replay_rows e.json >actual &&
		echo "11 nothing 2 0 [] [tests/test_app.py::test_run tests/test_util.py::test_add]" >expect &&
		test_cmp expect actual && test_must_be_empty err || return 1
	done
'

test_expect_success 'timeouts kill the selector and run in parallel' '
	start=$(date +%s) &&
	test_expect_code 2 tiadash replay --since 2026-11-01 --selector "$SEL sleep" \
		--selector-timeout 1 -j 5 --format json >t.json 2>err &&
	end=$(date +%s) &&
	test $((end - start)) -lt 10 &&
	json_get t.json "d[\"totals\"][\"by_reason\"]" >actual &&
	echo "{'"'"'selector-error'"'"': 5, '"'"'force-full:**/package-lock.json'"'"': 1}" >expect &&
	test_cmp expect actual &&
	test_grep "selector failed on 2 more changes" err &&
	echo "tiadash: error: the selector failed on every call (5): timed out after 1 s" >expect &&
	tail -n 1 err >actual && test_cmp expect actual
'

test_expect_success 'large inputs reach the selector whole' '
	git init -q big && (
		cd big && mkdir d &&
		for i in $(seq 1 3000); do echo "$i" >"d/file-with-a-longer-name-$i.txt"; done &&
		git add . && commit_at 1 "Big import (#30)"
	) &&
	: >"$TRASH/count" &&
	COUNT_LOG=$TRASH/count tiadash replay --repo big \
		--since 2026-11-01 --selector "$SEL count" --format json >big.json &&
	echo 3000 >expect &&
	tr -d " " <"$TRASH/count" >actual &&
	test_cmp expect actual &&
	replay_rows big.json >actual &&
	echo "30 selected 3000 1 [] []" >expect &&
	test_cmp expect actual
'

test_expect_success 'a selector that does not read its input is fine' '
	tiadash replay --repo big --since 2026-11-01 --selector "echo tests/x.py" \
		--format json >nr.json &&
	replay_rows nr.json >actual &&
	echo "30 selected 3000 1 [] []" >expect &&
	test_cmp expect actual
'

test_expect_success 'bad selector options' '
	test_expect_code 2 tiadash replay --since 7d --selector "$SEL ok" \
		--selector-timeout 0 2>err &&
	test_grep "error: --selector-timeout '"'"'0'"'"': expected seconds" err
'

test_expect_success 'a selector that is one absolute path runs without a shell, a script without #! too' '
	printf "#!/bin/sh\necho tests/test_app.py::test_run\n" >"$TRASH/bang" &&
	printf "echo tests/test_app.py::test_run\n" >"$TRASH/nobang" &&
	chmod +x "$TRASH/bang" "$TRASH/nobang" &&
	tiadash replay --since 2026-11-01 --selector "$TRASH/bang" --format json >bang.json &&
	tiadash replay --since 2026-11-01 --selector "$TRASH/nobang" --format json >nobang.json &&
	json_get bang.json "sorted(set(c[\"decision\"] for c in d[\"changes\"]))" >actual &&
	echo "['"'"'nothing'"'"', '"'"'run_all'"'"', '"'"'selected'"'"']" >expect &&
	test_cmp expect actual &&
	json_get bang.json "d[\"totals\"][\"by_reason\"].get(\"selector-error\", 0)" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	json_get nobang.json "[c[\"decision\"] for c in d[\"changes\"]]" >actual &&
	json_get bang.json "[c[\"decision\"] for c in d[\"changes\"]]" >expect &&
	test_cmp expect actual
'

test_expect_success 'a selector starts in its own process group, no signal blocked or ignored' '
	# (of the 31 standard signals: glibc may leave its own 32 and 33 ignored)
	cat >"$TRASH/signals" <<-\EOF &&
	#!/bin/sh
	blk=$(sed -n "s/^SigBlk:\t//p" /proc/$$/status)
	ign=$(sed -n "s/^SigIgn:\t//p" /proc/$$/status)
	echo "blocked $((0x$blk)) ignored $((0x$ign & 0x7fffffff)) group $(ps -o pgid= -p $$ | tr -d " ") pid $$" >>"$SIGNALS_OUT"
	EOF
	chmod +x "$TRASH/signals" &&
	SIGNALS_OUT="$TRASH/signals.out" tiadash replay --since 2026-11-01 \
		--selector "$TRASH/signals" --format json >/dev/null &&
	test "$(wc -l <"$TRASH/signals.out")" = 5 &&
	sed "s/group \([0-9]*\) pid \1$/own group/" "$TRASH/signals.out" | sort -u >actual &&
	echo "blocked 0 ignored 0 own group" >expect &&
	test_cmp expect actual
'

test_done
