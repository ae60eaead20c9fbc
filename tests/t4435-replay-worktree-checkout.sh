#!/usr/bin/env bash
# A replay worktree moves from one commit to the next by rewriting only
# what the two trees change (core/worktree.c): at every call the selector
# sees exactly the commit's files (a file changed two commits apart, one
# deleted and added again, a mode change, a file that becomes a directory
# and back, symbolic links, an empty file, directories left empty going
# away; a file .gitattributes converts, whether it changes or not, and
# one a .gitattributes two directories up converts), HEAD at the commit,
# and an index git finds clean. At -j 1 the next change is
# read ahead while the selector runs; a change larger than what is read
# ahead (8 MiB of blobs) is written whole all the same.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

export TMPDIR=$TRASH/tmp # replay's worktrees: this test's own
mkdir -p "$TMPDIR"

git init -q repo && (
	cd repo &&
	mkdir dir &&
	echo one >a.txt && echo b1 >dir/b.txt && echo "echo x" >x.sh && echo f1 >f &&
	echo k >keep && ln -s a.txt link &&
	git add . && commit_at 1 "Start (#1)" &&
	echo two >a.txt && chmod +x x.sh && git rm -q dir/b.txt &&
	git add . && commit_at 2 "Second (#2)" &&
	mkdir -p dir && echo again >dir/b.txt && git rm -q f && mkdir f && echo g >f/g &&
	rm link && ln -s dir/b.txt link &&
	git add . && commit_at 3 "Third (#3)" &&
	echo three >a.txt && git rm -rq f && echo f2 >f && rm link && echo plain >link &&
	: >e && chmod -x x.sh &&
	git add . && commit_at 4 "Fourth (#4)" &&
	echo e >e && : >a.txt && mkdir -p deep/er && echo d >deep/er/file.txt &&
	git add . && commit_at 5 "Fifth (#5)" &&
	git rm -q deep/er/file.txt && rm x.sh && ln -s a.txt x.sh &&
	git add . && commit_at 6 "Sixth (#6)" &&
	echo "a.txt eol=crlf" >.gitattributes && echo seven >a.txt &&
	git add . && commit_at 7 "Seventh (#7)" &&
	echo eight >a.txt && git add . && commit_at 8 "Eighth (#8)"
) || exit 2
mkdir art && (cd repo && tiadash ingest ../art >/dev/null 2>&1) &&
test -f repo/.tiadash/tiadash.db || exit 2

# The selector lists what it sees: HEAD's subject, git status (none), and
# every file (content, x when executable), link and directory.
cat >sel.sh <<\EOF2
{
	git log -1 --format=%s
	git status --porcelain
	find . -path ./.git -prune -o -print | LC_ALL=C sort | while read -r p; do
		if [ "$p" = . ]; then :
		elif [ -L "$p" ]; then echo "$p -> $(readlink "$p")"
		elif [ -d "$p" ]; then echo "$p/"
		elif [ -x "$p" ]; then echo "$p x $(tr "\r" R <"$p")"
		else echo "$p - $(tr "\r" R <"$p")"
		fi
	done
} >"$OUT/$(git log -1 --format=%s | tr -dc 0-9)"
echo nothing
EOF2

test_expect_success 'each call sees its commit, one checkout after another' '
	mkdir out &&
	(cd repo && OUT=$TRASH/out tiadash replay --since 2026-10-30 --no-builtin-rules -j 1 \
		--selector "sh $TRASH/sel.sh" >/dev/null) &&
	ls out | sort -n >calls && seq 8 >expect && test_cmp expect calls &&
	cat out/1 out/2 out/3 out/4 out/5 out/6 out/7 out/8 >actual &&
	cat >expect <<-\EOF2 &&
	Start (#1)
	./a.txt - one
	./dir/
	./dir/b.txt - b1
	./f - f1
	./keep - k
	./link -> a.txt
	./x.sh - echo x
	Second (#2)
	./a.txt - two
	./f - f1
	./keep - k
	./link -> a.txt
	./x.sh x echo x
	Third (#3)
	./a.txt - two
	./dir/
	./dir/b.txt - again
	./f/
	./f/g - g
	./keep - k
	./link -> dir/b.txt
	./x.sh x echo x
	Fourth (#4)
	./a.txt - three
	./dir/
	./dir/b.txt - again
	./e - 
	./f - f2
	./keep - k
	./link - plain
	./x.sh - echo x
	Fifth (#5)
	./a.txt - 
	./deep/
	./deep/er/
	./deep/er/file.txt - d
	./dir/
	./dir/b.txt - again
	./e - e
	./f - f2
	./keep - k
	./link - plain
	./x.sh - echo x
	Sixth (#6)
	./a.txt - 
	./dir/
	./dir/b.txt - again
	./e - e
	./f - f2
	./keep - k
	./link - plain
	./x.sh -> a.txt
	Seventh (#7)
	./.gitattributes - a.txt eol=crlf
	./a.txt - sevenR
	./dir/
	./dir/b.txt - again
	./e - e
	./f - f2
	./keep - k
	./link - plain
	./x.sh -> a.txt
	Eighth (#8)
	./.gitattributes - a.txt eol=crlf
	./a.txt - eightR
	./dir/
	./dir/b.txt - again
	./e - e
	./f - f2
	./keep - k
	./link - plain
	./x.sh -> a.txt
	EOF2
	test_cmp expect actual
'

# The selector checks every tracked file against the index (content, not
# stat data) and the index against HEAD; it names what differs.
cat >check.sh <<\EOF2
{
	git log -1 --format=%s
	git status --porcelain
	git diff --cached --quiet HEAD || echo "index differs from HEAD"
	git ls-files -s | while read -r mode sha stage path; do
		test "$(git hash-object "$path")" = "$sha" || echo "$path differs"
	done
} >"$OUT/$(git log -1 --format=%s | tr -dc 0-9)"
echo nothing
EOF2

test_expect_success 'a change past what is read ahead is checked out whole' '
	git init -q big && (
		cd big &&
		echo a >a.txt && echo z >z.txt && git add -A && commit_at 1 "Start (#1)" &&
		head -c 9000000 /dev/zero | tr "\0" x >a.big && echo zz >z.txt &&
		echo n >new.txt && git add -A && commit_at 2 "Big (#2)" &&
		rm a.big && echo zzz >z.txt && git add -A && commit_at 3 "Third (#3)" &&
		echo b >a.big && git add -A && commit_at 4 "Fourth (#4)"
	) &&
	mkdir bigart bigout && (cd big && tiadash ingest ../bigart >/dev/null 2>&1) &&
	(cd big && OUT=$TRASH/bigout tiadash replay --since 2026-10-30 --no-builtin-rules -j 1 \
		--selector "sh $TRASH/check.sh" >/dev/null) &&
	cat bigout/1 bigout/2 bigout/3 bigout/4 >actual &&
	printf "Start (#1)\nBig (#2)\nThird (#3)\nFourth (#4)\n" >expect &&
	test_cmp expect actual
'

# A .gitattributes two directories above a file converts it, in the first
# checkout and in the next; a file beside that directory is left alone.
test_expect_success 'a .gitattributes above a file converts it, not the files beside' '
	git init -q nested && (
		cd nested && mkdir -p top/a/b other &&
		echo "*.txt eol=crlf" >top/.gitattributes &&
		echo c >top/a/b/c.txt && echo e >top/a/b/e.dat && echo d >other/d.txt &&
		git add -A && commit_at 1 "Start (#1)" &&
		echo c2 >top/a/b/c.txt && echo d2 >other/d.txt &&
		git add -A && commit_at 2 "Second (#2)"
	) &&
	mkdir nestedart nestedout && (cd nested && tiadash ingest ../nestedart >/dev/null 2>&1) &&
	(cd nested && OUT=$TRASH/nestedout tiadash replay --since 2026-10-30 --no-builtin-rules \
		-j 1 --selector "sh $TRASH/sel.sh" >/dev/null) &&
	cat nestedout/1 nestedout/2 >actual &&
	cat >expect <<-\EOF2 &&
	Start (#1)
	./other/
	./other/d.txt - d
	./top/
	./top/.gitattributes - *.txt eol=crlf
	./top/a/
	./top/a/b/
	./top/a/b/c.txt - cR
	./top/a/b/e.dat - e
	Second (#2)
	./other/
	./other/d.txt - d2
	./top/
	./top/.gitattributes - *.txt eol=crlf
	./top/a/
	./top/a/b/
	./top/a/b/c.txt - c2R
	./top/a/b/e.dat - e
	EOF2
	test_cmp expect actual
'

# A selector's git may rewrite the index: here one leaves an intent-to-add
# entry (a form the lean checkout leaves to libgit2 to write) and a later
# call removes it. Each checkout starts from the index as the selector left
# it, and gives the commit's files clean.
cat >ita.sh <<\EOF2
n=$(git log -1 --format=%s | tr -dc 0-9)
{
	git log -1 --format=%s
	git status --porcelain
	git ls-files -s --debug | grep -c "^  ctime"
} >"$OUT/$n"
case $n in # (replay calls the newest change first)
6) echo note >notes && git add -N notes ;;
4) git rm -q --cached notes && rm notes ;;
esac
echo nothing
EOF2

test_expect_success 'an index a selector rewrote is read again before the next checkout' '
	mkdir itaout &&
	(cd repo && OUT=$TRASH/itaout tiadash replay --since 2026-10-30 --no-builtin-rules -j 1 \
		--selector "sh $TRASH/ita.sh" >/dev/null) &&
	cat itaout/8 itaout/7 itaout/6 itaout/5 itaout/4 itaout/3 itaout/2 itaout/1 >actual &&
	cat >expect <<-\EOF2 &&
	Eighth (#8)
	8
	Seventh (#7)
	8
	Sixth (#6)
	7
	Fifth (#5)
	 A notes
	9
	Fourth (#4)
	 A notes
	8
	Third (#3)
	6
	Second (#2)
	5
	Start (#1)
	6
	EOF2
	test_cmp expect actual
'

test_expect_success 'the worktrees are gone; the user tree is untouched' '
	test "$(git -C nested worktree list | wc -l)" = 1 &&
	test "$(git -C big worktree list | wc -l)" = 1 &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	git -C repo status --porcelain >status && test_must_be_empty status &&
	! ls "$TMPDIR" | grep -q "^tiadash-wt-"
'

test_done
