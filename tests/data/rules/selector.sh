#!/bin/sh
# A test selector for tests/t4120-replay-selector.sh. $1 says how it
# behaves; with SELECTOR_LOG set it appends "HEAD BASE REPO CWD PATHS",
# CWD "TREE" when it runs in TIADASH_TREE, a worktree of REPO at HEAD
# (mode count appends the number of paths to COUNT_LOG).
mode=$1
paths=$(cat)
if [ -n "$SELECTOR_LOG" ]; then
	cwd=$(pwd -P)
	case $cwd in
	"$TIADASH_TREE")
		test "$(git rev-parse HEAD)" = "$TIADASH_HEAD" &&
			test "$cwd" != "$TIADASH_REPO" && cwd=TREE ;;
	esac
	printf '%s %s %s %s %s\n' "$TIADASH_HEAD" "$TIADASH_BASE" "$TIADASH_REPO" \
		"$cwd" "$(echo $paths)" >>"$SELECTOR_LOG"
fi
case $mode in
ok)
	# src/NAME.py is tested by tests/test_NAME.py; a test selects itself.
	out=$(for p in $paths; do
		case $p in
		src/*.py) n=${p#src/}; echo "tests/test_$n" ;;
		tests/*) echo "$p" ;;
		esac
	done)
	if [ -n "$out" ]; then echo "$out"; else echo nothing; fi ;;
crlf) printf 'tests/test_util.py\r\ntests/test_app.py\r\n' ;;
run_all) printf 'run_all force-full:custom\nthe selector said so\n' ;;
run_all_bare) echo run_all ;;
nothing_and_ids) printf 'nothing\ntests/a.py\n' ;;
empty) ;;
blank) printf '\n  \n\n' ;;
fail) echo tests/a.py; echo "no coverage map" >&2; exit 3 ;;
signal) kill -9 $$ ;;
sleep) sleep 30 ;;
escape) printf 'tests/a.py\n\033[31mtests/b.py\n' ;;
nul) printf 'tests/a\000b.py\n' ;;
bad_utf8) printf 'tests/\377.py\n' ;;
count) echo "$paths" | wc -l >>"$COUNT_LOG"; echo tests/a.py ;;
*) echo "selector.sh: unknown mode $mode" >&2; exit 2 ;;
esac
