#!/usr/bin/env bash
# Replay's -j N diffs in N - 1 worker processes beside its own (replay/walk.c):
# on a history of 3000 commits every -j gives -j 1's changes, and when a
# worker cannot take its share (its results cannot be written) or dies in
# the middle of it, the caller diffs what it left: same changes, exit 0.
. "$(dirname "$0")/lib.sh"

git init -q -b main repo &&
python3 "$TEST_SRC/bench/replay-repo.py" --commits 3000 --files 1000 |
	git -C repo fast-import --quiet --done || exit 2
cd repo || exit 2
since="--since 1970-01-02"

test_expect_success 'setup: -j 1 lists 3000 changes' '
	tiadash replay $since -j 1 --format json >j1.json &&
	json_get j1.json "len(d[\"changes\"])" >actual &&
	echo 3000 >expect &&
	test_cmp expect actual
'

test_expect_success '-j 2, -j 3 and -j 8 list the same changes and paths' '
	for j in 2 3 8; do
		tiadash replay $since -j $j --format json >j$j.json 2>err &&
		test_cmp j1.json j$j.json &&
		test_must_be_empty err || return 1
	done
'

# RLIMIT_FSIZE with SIGXFSZ ignored: the walk's inputs file stops at 4 KB
# (the second block of commits cannot be handed over) and a worker's results
# file as well (its first write fails). The caller takes over, silently.
test_expect_success 'blocks that cannot be handed over or reported: the caller diffs them' '
	(trap "" XFSZ && ulimit -f 4 && exec "$TIADASH_BIN" replay $since -j 2 --format json 2>err) |
		cat >limited.json &&
	test_cmp j1.json limited.json &&
	test_must_be_empty err
'

# A worker lives from before the walk until every block is taken. It is
# killed once it has reported a block (its results file, seen through
# /proc, is not empty), in the middle of the next one. A try where the
# replay ended first proves nothing and is tried again.
kill_worker_after_a_block() {
	local pid=$1 worker= fd results=
	while kill -0 $pid 2>/dev/null && ! worker=$(pgrep -P $pid); do :; done
	test -n "$worker" || return 0
	while kill -0 $worker 2>/dev/null && test -z "$results"; do
		for fd in /proc/$worker/fd/*; do
			case "$(readlink $fd 2>/dev/null)" in
			*tiadash-diff-results*) test -s $fd && results=$fd ;;
			esac
		done
	done
	kill -KILL $worker 2>/dev/null
	return 0
}

test_expect_success 'a worker killed in the middle: a warning, and the caller diffs its share' '
	killed=0 &&
	for try in 1 2 3 4 5 6 7 8 9 10; do
		{ "$TIADASH_BIN" replay $since -j 2 --format json >killed.json 2>err & } &&
		kill_worker_after_a_block $! &&
		wait $! &&
		test_cmp j1.json killed.json &&
		if grep -q "killed by signal 9" err; then
			test_grep "warning: a diff worker (process [0-9]*) was killed by signal 9; its commits are diffed again" err &&
			killed=1 && break
		fi
	done &&
	test $killed = 1
'

test_done
