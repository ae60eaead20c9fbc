#!/bin/bash
# No selector or test command outlives its worktree: after kill -9 of
# `replay --selector` or `seed` (which gives tiadash no chance to stop
# them), the next run of either kills every process still carrying the
# left worktree as its TIADASH_TREE, with its process group, before it
# removes the worktree (core/worktree.c, core/spawn.c).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

export TMPDIR=$TRASH/tmp # the worktrees: this test's own
mkdir -p "$TMPDIR"

# running PID: the process is there and not a zombie.
running() {
	local st
	st=$(ps -o stat= -p "$1") && case $st in Z*) return 1 ;; esac
}

# The command a killed tiadash leaves: a shell whose child sleeps, both
# in the command's process group; it writes "SHELL-PID SLEEPER-PID".
cat >child.sh <<\EOF2
sleep 300 &
echo "$$ $!" >"$MARK.tmp" && mv "$MARK.tmp" "$MARK"
wait
EOF2

make_history hist && (cd hist && make_store "$TRASH/store.db") || exit 2
: >empty.rules
REPLAY="replay --since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z
	--rules $TRASH/empty.rules --no-builtin-rules"

test_expect_success 'kill -9 of replay --selector: the next replay kills its selector' '
	(cd hist && MARK=$TRASH/rmark TIADASH_DB=$TRASH/store.db \
		exec "$TIADASH_BIN" $REPLAY --selector "sh $TRASH/child.sh" >/dev/null 2>&1) &
	pid=$! &&
	wait_for "test -s rmark" && read sh sleeper <rmark &&
	tree=$(readlink hist/.tiadash/worktrees/wt-$pid-0) &&
	kill -KILL $pid && { wait $pid; true; } &&
	running $sh && running $sleeper &&
	(cd hist && TIADASH_DB=$TRASH/store.db tiadash $REPLAY --selector "echo nothing" >/dev/null) &&
	wait_for "! running $sh && ! running $sleeper" &&
	! test -e "$tree" && ! test -e hist/.tiadash/worktrees
'

test_expect_success 'kill -9 of seed: the next seed kills its test command' '
	git init -q proj && (
		cd proj && printf ".tiadash\n" >.gitignore &&
		mkdir calc && printf "def f(x):\n    return x > 1\n" >calc/a.py &&
		git add -A && commit_at 0 base &&
		echo "# calc" >README.md && git add -A && commit_at 24 "change (#1)"
	) &&
	SEED="seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 1 --selector true --seed 5"
	MARK=$TRASH/smark "$TIADASH_BIN" --repo proj $SEED --test "sh $TRASH/child.sh" \
		>/dev/null 2>seed.err &
	pid=$! &&
	wait_for "test -s smark" && read sh sleeper <smark &&
	tree=$(readlink proj/.tiadash/worktrees/wt-$pid-0) &&
	kill -KILL $pid && { wait $pid; true; } &&
	running $sh && running $sleeper &&
	tiadash --repo proj $SEED --test true >/dev/null 2>&1 &&
	wait_for "! running $sh && ! running $sleeper" &&
	! test -e "$tree" && ! test -e proj/.tiadash/worktrees
'

# Whatever the outcome, none of this test's commands stays behind.
for m in rmark smark; do
	test -s $m && kill $(cat $m) 2>/dev/null
done
test_done
