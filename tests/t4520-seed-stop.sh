#!/usr/bin/env bash
# tiadash seed stops cleanly: at --budget, and on SIGINT, keeping what
# finished (stored, and printed); a run killed with SIGKILL leaves its
# worktree, which the next run removes. The project's one test sleeps, so
# the experiment cannot finish within the budget or before the signal.
# tests/run: waits (the sleeping test, the budget, the signals)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"
need_pytest

TEST_CMD="$PY -m pytest -q -p no:cacheprovider"

count_mutants() {
	sqlite3 "file:repo/.tiadash/tiadash.db?mode=ro" "select count(*) from seed_mutant m
		join seed_experiment e on e.id = m.experiment_id where e.state = 'running'" 2>/dev/null ||
		echo 0
}

test_expect_success 'setup: six modules, one slow test, a selector that selects nothing' '
	git init -q repo && cd repo && mkdir -p calc tests && : >calc/__init__.py &&
	printf ".tiadash\n" >.gitignore &&
	for m in a b c d e f; do
		printf "def f(x):\n    return x > 1\n" >calc/$m.py || return 1
	done &&
	printf "import time\nfrom calc import a, b, c, d, e, f\n\n\ndef test_all():\n    time.sleep(1)\n    assert all(m.f(2) and not m.f(1) for m in (a, b, c, d, e, f))\n" >tests/test_all.py &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z README.md "# calc" &&
	cd .. && tree_sums repo before.sums
'

SEED="seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 6 --selector true --seed 5"

test_expect_success '--budget stops cleanly, keeping what finished' '
	tiadash --repo repo $SEED --test "$TEST_CMD" --budget 2s --format json >budget.json &&
	json_get budget.json "[d[\"experiment\"][\"state\"], d[\"stopped\"], d[\"mutants\"] + d[\"invalid\"] < 6]" >actual &&
	echo "['"'"'budget'"'"', '"'"'budget'"'"', True]" >expect && test_cmp expect actual &&
	tiadash --repo repo seed --show >budget.txt &&
	test_grep "^Note         stopped at the budget: what finished is counted$" budget.txt &&
	test "$(git -C repo worktree list | wc -l)" = 1 && ! test -e repo/.tiadash/worktrees
'

test_expect_success 'SIGINT stops it: what finished is stored and printed, exit 130' '
	"$TIADASH_BIN" --repo repo $SEED --test "$TEST_CMD" >int.txt 2>int.err &
	pid=$! &&
	wait_for "test \"\$(count_mutants)\" -ge 2" &&
	kill -INT $pid && { wait $pid; echo $? >status; } &&
	echo 130 >expect && test_cmp expect status &&
	test_grep "^Note         interrupted: what finished is counted$" int.txt &&
	test_grep "^Seeded       [2-5] mutants outside 1 impact set (0 invalid; seed 5, interrupted)$" int.txt &&
	test "$(sqlite3 repo/.tiadash/tiadash.db "select state from seed_experiment order by id desc limit 1")" = interrupted &&
	test "$(git -C repo worktree list | wc -l)" = 1 && ! test -e repo/.tiadash/worktrees &&
	! test -e repo/.tiadash/seed
'

test_expect_success 'a run killed with SIGKILL leaves its worktree; the next run removes it' '
	"$TIADASH_BIN" --repo repo $SEED --test "$TEST_CMD" >/dev/null 2>&1 &
	pid=$! &&
	wait_for "test \"\$(count_mutants)\" -ge 3" &&
	link=$(ls -d repo/.tiadash/worktrees/wt-$pid-0) && tree=$(readlink "$link") &&
	kill -KILL $pid && { wait $pid; true; } &&
	test -d "$tree" && test -d repo/.tiadash/seed/$pid &&
	test "$(git -C repo worktree list | wc -l)" = 2 &&
	tiadash --repo repo $SEED --test true --mutants 1 >next.txt &&
	! test -e "$link" && ! test -e "$tree" && ! test -e repo/.tiadash/seed &&
	test "$(git -C repo worktree list | wc -l)" = 1 && ! test -e repo/.tiadash/worktrees &&
	test "$(sqlite3 repo/.tiadash/tiadash.db "select group_concat(state) from seed_experiment")" = "budget,interrupted,running,done"
'

test_expect_success 'progress on a terminal: mutants by class, and an ETA' '
	script -qec "\"$TIADASH_BIN\" --repo repo $SEED --mutants 2 --test \"$TEST_CMD\" >tty.txt" \
		tty.log >/dev/null &&
	tr "\r" "\n" <tty.log | grep "^seed: " >progress &&
	test_grep "^seed: 1/2 mutants (subset 0, full [01], none [01], invalid 0), ETA [0-9]m[0-5][0-9]s" progress &&
	test_grep "^seed: 2/2 mutants (subset 0, full [0-2], none [0-2], invalid 0)" progress &&
	test_grep "^Seeded       2 mutants outside 1 impact set" tty.txt
'

test_expect_success 'the working tree is untouched' '
	tree_sums repo after.sums && test_cmp before.sums after.sums
'

test_done
