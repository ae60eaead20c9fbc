#!/usr/bin/env bash
# The worktree pool behind replay --selector: each call sees its commit's
# tree (files, git rev-parse HEAD), --setup runs once per worktree, the
# pool is removed on exit and after a kill by the next run, the selector's
# environment holds no token, and a selector that answers two ways for one
# change is not reproducible.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

make_history repo && cd repo && make_store "$TRASH/store.db" || exit 2
export TMPDIR=$TRASH/tmp # where the worktrees go: this test's own
mkdir -p "$TMPDIR"
export TIADASH_DB="$TRASH/store.db"
W="--since 2026-11-01 --rules $TRASH/empty.rules --no-builtin-rules"
ONE="--since 2026-11-01T02:00:00Z --until 2026-11-01T03:00:00Z --rules $TRASH/empty.rules --no-builtin-rules"
echo made >>.git/info/exclude # what --setup makes is ignored, so checkouts keep it
: >"$TRASH/empty.rules"

test_expect_success 'every call sees its commit: the files and HEAD' '
	cat >"$TRASH/sel.sh" <<-\EOF &&
	# Prints the tree it sees: HEAD, and a digest of the tracked files.
	test "$(git rev-parse HEAD)" = "$TIADASH_HEAD" || { echo "wrong HEAD" >&2; exit 3; }
	test "$(pwd -P)" = "$TIADASH_TREE" || { echo "wrong cwd" >&2; exit 3; }
	echo "$TIADASH_HEAD $(git ls-files -s | git hash-object --stdin)" >>"$LOG"
	echo nothing
	EOF
	LOG=$TRASH/seen tiadash replay $W --selector "sh $TRASH/sel.sh" -j 3 --format json >"$TRASH/seen.json" &&
	json_get "$TRASH/seen.json" "d[\"selector_run\"][\"calls\"]" >"$TRASH/calls" &&
	test "$(wc -l <"$TRASH/seen")" = "$(cat "$TRASH/calls")" && test "$(cat "$TRASH/calls")" -ge 5 &&
	while read -r c digest; do
		echo "$c $(git ls-tree -r "$c" | awk "{print \$1, \$3, \"0\t\" \$4}" | git hash-object --stdin)"
	done <"$TRASH/seen" | sort >"$TRASH/expect" &&
	sort "$TRASH/seen" >"$TRASH/actual" &&
	test_cmp "$TRASH/expect" "$TRASH/actual"
'

test_expect_success 'the user tree is untouched; the pool is gone' '
	git status --porcelain >"$TRASH/status" && test_must_be_empty "$TRASH/status" &&
	test "$(git worktree list | wc -l)" = 1 && ! test -e .tiadash/worktrees &&
	! ls "$TMPDIR" | grep -q "^tiadash-wt-"
'

test_expect_success '--setup runs once in each worktree, before its first call' '
	rm -f "$TRASH/setups" &&
	tiadash replay $W --selector "test -e made && echo nothing" \
		--setup "echo \$TIADASH_TREE >>$TRASH/setups && touch made" -j 2 --format json >"$TRASH/s.json" 2>"$TRASH/err" &&
	test_must_be_empty "$TRASH/err" &&
	test "$(sort -u "$TRASH/setups" | wc -l)" = 2 && test "$(wc -l <"$TRASH/setups")" = 2 &&
	json_get "$TRASH/s.json" "d[\"totals\"][\"decisions\"][\"selected\"]" >"$TRASH/actual" &&
	echo 0 >"$TRASH/expect" && test_cmp "$TRASH/expect" "$TRASH/actual"
'

test_expect_success 'a failing setup stops the replay' '
	test_expect_code 2 tiadash replay $W --selector "echo nothing" --setup "exit 4" >/dev/null 2>"$TRASH/err" &&
	test_grep "the worktree setup (--setup): exit status 4" "$TRASH/err" &&
	test "$(git worktree list | wc -l)" = 1
'

test_expect_success 'no token reaches the selector, nor what the config names' '
	echo "selector-scrub = ACME_SECRET" >"$TRASH/config" &&
	TIADASH_CONFIG=$TRASH/config TIADASH_TOKEN=t1 GITHUB_TOKEN=t2 GITLAB_TOKEN=t3 \
	ACME_SECRET=t4 KEEP_ME=yes tiadash replay $W \
		--selector "env | grep -E \"TOKEN|SECRET|KEEP_ME|^TIADASH_(BASE|HEAD|TREE|REPO)=\" | sed \"s/=.*//\" | sort >>$TRASH/env; echo nothing" \
		-j 1 --until 2026-11-01T03:00:00Z >/dev/null &&
	rm "$TRASH/config" &&
	sort -u "$TRASH/env" >"$TRASH/actual" &&
	printf "KEEP_ME\nTIADASH_BASE\nTIADASH_HEAD\nTIADASH_REPO\nTIADASH_TREE\n" >"$TRASH/expect" &&
	test_cmp "$TRASH/expect" "$TRASH/actual"
'

test_expect_success 'after a kill, the next run removes the left-over worktrees' '
	"$TIADASH_BIN" replay $ONE --selector "sleep 30 & echo \$! >$TRASH/sleeper; wait" \
		>/dev/null 2>&1 &
	pid=$! &&
	for i in $(seq 100); do test -s "$TRASH/sleeper" && break; sleep 0.1; done &&
	kill -9 $pid; wait $pid; kill "$(cat "$TRASH/sleeper")" &&
	left=$(readlink .tiadash/worktrees/wt-$pid-0) && test -d "$left" &&
	tiadash replay $W --selector "echo nothing" --until 2026-11-01T03:00:00Z >/dev/null &&
	! test -e "$left" && ! test -e .tiadash/worktrees &&
	test "$(git worktree list | wc -l)" = 1
'

test_expect_success 'a TERM removes the worktrees before tiadash ends' '
	"$TIADASH_BIN" replay $ONE --selector "sleep 30 & echo \$! >$TRASH/sleeper2; wait" \
		>/dev/null 2>"$TRASH/err" &
	pid=$! &&
	for i in $(seq 100); do test -s "$TRASH/sleeper2" && break; sleep 0.1; done &&
	kill -TERM $pid; wait $pid; rc=$?; kill "$(cat "$TRASH/sleeper2")" 2>/dev/null;
	test $rc = 143 && ! test -e .tiadash/worktrees && ! ls "$TMPDIR" | grep -q "^tiadash-wt-" &&
	test_grep "interrupted (signal 15)" "$TRASH/err"
'

test_expect_success 'a selector that answers two ways for one change is not reproducible' '
	cat >"$TRASH/flip.sh" <<-\EOF &&
	# A different answer every call: a counter outside the tree.
	n=$(cat "$COUNT" 2>/dev/null || echo 0); echo $((n + 1)) >"$COUNT"
	echo "tests/test_$n.py"
	EOF
	cd "$TRASH" &&
	COUNT=$TRASH/n tiadash --repo repo replay $ONE --selector "sh $TRASH/flip.sh" --selector-cache \
		--format json >first.json 2>err &&
	test_must_be_empty err &&
	COUNT=$TRASH/n tiadash --repo repo replay $ONE --selector "sh $TRASH/flip.sh" --selector-cache \
		--format json >cached.json 2>err &&
	json_get cached.json "[d[\"selector_run\"][\"calls\"], d[\"selector_run\"][\"cached\"]]" >actual &&
	echo "[0, 1]" >expect && test_cmp expect actual &&
	COUNT=$TRASH/n tiadash --repo repo replay $ONE --selector "sh $TRASH/flip.sh" --selector-cache \
		--selector-recheck --format json >re.json 2>err &&
	replay_rows re.json >actual &&
	echo "11 run_all 2 None [selector-not-reproducible] []" >expect && test_cmp expect actual &&
	test_grep "selector is not reproducible on $(git -C repo rev-parse --short=12 HEAD~5)" err &&
	json_get re.json "d[\"totals\"][\"not_reproducible\"]" >actual && echo 1 >expect &&
	test_cmp expect actual
'

test_expect_success 'the cache is under the git dir: answers planted in the tree are never read' '
	cd "$TRASH" &&
	test -d repo/.git/tiadash/selector-cache && ! test -e repo/.tiadash/selector-cache &&
	# What a commit could plant: each cached answer, in the tree, saying nothing.
	mkdir -p repo/.tiadash && cp -R repo/.git/tiadash/selector-cache repo/.tiadash/ &&
	for f in $(find repo/.tiadash/selector-cache -type f); do printf "nothing\n" >"$f" || return 1; done &&
	test "$(find repo/.tiadash/selector-cache -type f | wc -l)" -ge 1 &&
	rm -rf repo/.git/tiadash &&
	COUNT=$TRASH/n tiadash --repo repo replay $ONE --selector "sh $TRASH/flip.sh" --selector-cache \
		--format json >planted.json 2>err &&
	json_get planted.json "[d[\"selector_run\"][\"calls\"], d[\"selector_run\"][\"cached\"]]" >actual &&
	echo "[1, 0]" >expect && test_cmp expect actual &&
	rm -rf repo/.tiadash/selector-cache
'

test_done
