#!/bin/bash
# Whoever makes .tiadash/ in the user's repository makes its .gitignore
# with it (core/tiadir.c): record's runs, replay --selector's worktrees,
# the store of ingest and seed. Made in passing, the file ignores itself
# too, so the user's `git status` is exactly what it was; `tiadash init`
# turns it into the one to commit, and leaves one the team wrote alone.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"
. "$TEST_SRC/record/lib-record.sh"

export TMPDIR=$TRASH/tmp # replay's worktrees: this test's own
mkdir -p "$TMPDIR"

cat >in-passing <<\EOF
# Written by tiadash when it made this folder: commit the rules and the
# config, not these (nor this file; `tiadash init` writes one to commit).
.gitignore
tiadash.db
tiadash.db-*
runs/
seed/
worktrees/
selector-cache/
EOF

# small_repo DIR: one commit (replay-lib's commit_at: a day number).
small_repo() {
	git init -q "$1" && (cd "$1" && echo a >a && git add a && commit_at 1 init)
}

# made_in_passing DIR: DIR/.tiadash/.gitignore is the in-passing one and
# `git status` in DIR shows nothing.
made_in_passing() {
	test_cmp in-passing "$1/.tiadash/.gitignore" &&
	git -C "$1" status --porcelain --untracked-files=all >status &&
	test_must_be_empty status
}

test_expect_success 'record makes .tiadash/ with its .gitignore; git status stays clean' '
	small_repo rec &&
	(cd rec && tiadash record --kind full --base HEAD -- true </dev/null >/dev/null 2>&1) &&
	test -f rec/.tiadash/runs/*/tiadash-run.json &&
	made_in_passing rec
'

test_expect_success 'replay --selector (its worktrees), with the store elsewhere' '
	make_history hist && (cd hist && make_store "$TRASH/store.db") &&
	! test -e hist/.tiadash &&
	: >empty.rules &&
	(cd hist && TIADASH_DB=$TRASH/store.db tiadash replay --since 2026-11-01T02:00:00Z \
		--until 2026-11-01T03:00:00Z --rules "$TRASH/empty.rules" --no-builtin-rules \
		--selector "echo nothing" >/dev/null) &&
	! test -e hist/.tiadash/worktrees &&
	made_in_passing hist
'

test_expect_success 'the store of ingest and of seed, made at .tiadash/tiadash.db' '
	small_repo ing && mkdir empty-art &&
	(cd ing && tiadash ingest ../empty-art >/dev/null 2>&1; test -f .tiadash/tiadash.db) &&
	made_in_passing ing &&
	small_repo sd &&
	(cd sd && test_expect_code 2 tiadash seed --show >/dev/null 2>&1) &&
	test -f sd/.tiadash/tiadash.db && made_in_passing sd
'

test_expect_success 'init then writes the one to commit; a file of the team stays' '
	(cd rec && tiadash init >../out) && test_grep "^wrote .*/.tiadash/.gitignore: " out &&
	printf "%s\n" "# Written by tiadash init: commit the rules and the config, not these." \
		tiadash.db "tiadash.db-*" runs/ seed/ worktrees/ selector-cache/ >expect &&
	test_cmp expect rec/.tiadash/.gitignore &&
	git -C rec status --porcelain --untracked-files=all >actual &&
	echo "?? .tiadash/.gitignore" >expect && test_cmp expect actual &&
	echo "# ours" >ing/.tiadash/.gitignore && (cd ing && tiadash init >../out) &&
	echo "# ours" >expect && test_cmp expect ing/.tiadash/.gitignore
'

test_done
