#!/bin/bash
# Changed paths reach a selector one to a line, as `git diff --name-only`
# prints them with core.quotePath false: a path holding a newline, a tab,
# '"' or '\' comes in double quotes with C escapes, so it can never read
# as two paths (replay --selector; seed's reach question the same way).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

export TMPDIR=$TRASH/tmp # replay's worktrees: this test's own
mkdir -p "$TMPDIR"

# A change adding Makefile, a path with a newline whose second line is
# "Makefile", one with a tab and one with '"' and '\'.
git init -q repo && (
	cd repo &&
	echo a >a && git add a && commit_at 1 init &&
	mkdir src && echo m >Makefile && echo x >"src/nl
Makefile" && echo t >"src/t	ab" && echo q >'src/q"b\c' &&
	git add . && commit_at 2 "Odd names (#3)"
) || exit 2
mkdir art && (cd repo && tiadash ingest ../art >/dev/null 2>&1) &&
test -f repo/.tiadash/tiadash.db || exit 2

# The selector keeps its stdin and what git says for the same change.
cat >sel.sh <<\EOF2
cat >"$OUT/got-$TIADASH_HEAD"
git -c core.quotePath=false diff --name-only "$TIADASH_BASE" "$TIADASH_HEAD" \
	>"$OUT/git-$TIADASH_HEAD"
echo nothing
EOF2

test_expect_success 'a path with a newline reaches the selector as one quoted line' '
	mkdir out &&
	(cd repo && OUT=$TRASH/out tiadash replay --since 2026-10-30 --no-builtin-rules \
		--selector "sh $TRASH/sel.sh" >/dev/null) &&
	head=$(git -C repo rev-parse HEAD) &&
	cat >expect <<-\EOF2 &&
	Makefile
	"src/nl\nMakefile"
	"src/q\"b\\c"
	"src/t\tab"
	EOF2
	test_cmp expect "out/got-$head" &&
	test_cmp "out/git-$head" "out/got-$head"
'

test_expect_success 'plain paths come as they are' '
	r=$(git -C repo rev-parse HEAD~1) &&
	echo a >expect &&
	test_cmp expect "out/got-$r"
'

test_done
