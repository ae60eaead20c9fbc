#!/usr/bin/env bash
# replay --selector vitest (real vitest 3.2, tests/npm/): at every commit of
# a small repository with a base, merged PRs and a squash, the replayed
# selection is vitest's own `vitest list --changed PARENT --json` in that
# commit's tree, and a full rerun (a forceRerunTriggers glob or a
# setupFiles entry changed: vitest lists every test file, saying nothing)
# is run_all, as the rules read from vitest.config.js say too; a glob
# accepted into vitest.config.js is live in vitest; the user's working
# tree is untouched.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
need_tool vitest

test_expect_success 'setup: a vitest project with its history' '
	git init -q repo && cd repo &&
	printf "node_modules\n.tiadash\n" >.gitignore &&
	echo "{\"name\": \"calc\", \"private\": true, \"type\": \"module\"}" >package.json &&
	cat >vitest.config.js <<-\JS &&
	import { defineConfig, configDefaults } from "vitest/config";

	export default defineConfig({
	  test: {
	    setupFiles: ["./tests/setup.js"],
	    // fixtures are read, not imported: every test may depend on them
	    forceRerunTriggers: [...configDefaults.forceRerunTriggers, "**/fixtures/**"],
	  },
	});
	JS
	mkdir -p src tests fixtures &&
	for f in add mul fmt; do
		echo "export const $f = (a, b) => a + b;" >src/$f.js &&
		printf "import { test, expect } from \"vitest\";\nimport { $f } from \"../src/$f.js\";\ntest(\"$f\", () => { expect($f(1, 2)).toBe(3); });\n" >tests/$f.test.js || return 1
	done &&
	echo "{\"eur\": 1}" >fixtures/rates.json && echo "globalThis.rate = 1;" >tests/setup.js &&
	echo "# calc" >README.md &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z src/add.js "export const add = (a, b) => b + a;" &&
	pr 2 2026-11-02T01:00:00Z src/mul.js "export const mul = (a, b) => a + b + 0;" \
		tests/mul.test.js "import { test } from \"vitest\"; test(\"m\", () => {});" &&
	pr 3 2026-11-02T02:00:00Z fixtures/rates.json "{\"eur\": 2}" &&
	pr 4 2026-11-02T03:00:00Z README.md "# calc, the calculator" &&
	echo "export const fmt = (a, b) => a + b + \"\";" >src/fmt.js &&
	commit_at 2026-11-02T04:00:00Z "fmt: as text (#5)" &&
	pr 6 2026-11-02T05:00:00Z package.json "{\"name\": \"calc\", \"private\": true, \"type\": \"module\", \"version\": \"2.0.0\"}" &&
	pr 7 2026-11-02T06:00:00Z tests/setup.js "globalThis.rate = 2;" &&
	git rev-list --first-parent HEAD | wc -l >count && echo 8 >expect && test_cmp expect count &&
	: >empty.rules
'

# What vitest itself selects at each first-parent commit, in a clone: a
# list of every test file is its full rerun. Every test file vitest knows
# (list --filesOnly) depends only on the tree's file names and its config:
# asked once per such set (here once: no commit adds or drops a file).
test_expect_success 'vitest answers in a clone at each commit' '
	git clone -q repo own && ln -s "$TEST_TOOLS/node_modules" own/node_modules &&
	for c in $(git -C repo rev-list --first-parent HEAD); do
		base=$(git -C repo rev-parse -q --verify "$c^1" || echo 4b825dc642cb6eb9a060e54bf8d69288fbee4904) &&
		git -C own checkout -q --detach "$c" &&
		files=$({ git -C own ls-tree -r --name-only HEAD
			  git -C own ls-tree HEAD vitest.config.js package.json; } | git hash-object --stdin) &&
		(cd own && "$TOOL_BIN/vitest" list --changed "$base" --json >../list.json 2>/dev/null &&
		 { test -s ../all.$files.json ||
		   "$TOOL_BIN/vitest" list --json --filesOnly >../all.$files.json 2>/dev/null; }) &&
		cp all.$files.json all.json &&
		python3 -c "
import json, os, sys
root = os.path.realpath(\"own\")
files = sorted({os.path.relpath(t[\"file\"], root) for t in json.load(open(\"list.json\"))})
suite = sorted(os.path.relpath(t[\"file\"], root) for t in json.load(open(\"all.json\")))
if files and files == suite:
    print(sys.argv[1], \"run_all -\")
else:
    print(sys.argv[1], \"selected\" if files else \"nothing\", \" \".join(files) or \"-\")
" "$c" >>own.txt || return 1
	done &&
	test "$(wc -l <own.txt)" = 8
'

test_expect_success 'replay --selector vitest equals vitest at every commit' '
	cd repo &&
	git status --porcelain >../status.before &&
	find . -path ./.git -prune -o -path ./.tiadash -prune -o -type f -print | sort | xargs sha1sum >../files.before &&
	tiadash replay --since 2026-10-01 --rules empty.rules --no-builtin-rules \
		--selector vitest --setup "$SETUP" -j 2 --format json >../replay.json 2>../err &&
	cd .. && test_must_be_empty err &&
	replayed_selections replay.json >replayed.txt &&
	test_cmp own.txt replayed.txt &&
	# The setup file, package.json and fixture changes ran everything
	# (setupFiles, forceRerunTriggers), the README nothing; vitest --changed
	# against the empty tree (the root commit) selects nothing.
	cut -d" " -f2- replayed.txt >decisions &&
	cat >expect <<-\EOF &&
	run_all -
	run_all -
	selected tests/fmt.test.js
	nothing -
	run_all -
	selected tests/mul.test.js
	selected tests/add.test.js
	nothing -
	EOF
	test_cmp expect decisions &&
	json_dump replay.json "[d[\"selector\"], d[\"selector_run\"][\"calls\"], d[\"totals\"][\"not_reproducible\"], d[\"totals\"][\"force_full\"], d[\"changes\"][0][\"reasons\"]]" >actual &&
	echo "[\"vitest\", 8, 0, 3, [\"vitest:whole-suite\"]]" >expect && test_cmp expect actual
'

# The root commit adds every file (the rules run all); vitest against the
# empty tree selects nothing: the changes after it are compared.
test_expect_success 'the rules read from vitest.config.js run all where vitest did' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules vitest.config.js \
		--no-builtin-rules --format json >../rules.json 2>../err) &&
	test_must_be_empty err &&
	replayed_decisions rules.json >by-rules.txt &&
	grep " run_all -" own.txt | cut -d" " -f1 >want &&
	grep " run_all " by-rules.txt | cut -d" " -f1 >got && test_cmp want got &&
	grep " run_all " by-rules.txt | cut -d" " -f3- >actual &&
	cat >expect <<-\EOF &&
	force-full:/tests/setup.js
	force-full:**/package.json
	force-full:**/fixtures
	EOF
	test_cmp expect actual
'

test_expect_success 'the working tree is untouched, and the worktrees are gone' '
	cd repo &&
	git status --porcelain >../status.after &&
	find . -path ./.git -prune -o -path ./.tiadash -prune -o -type f -print | sort | xargs sha1sum >../files.after &&
	cd .. && test_cmp status.before status.after && test_cmp files.before files.after &&
	test "$(git -C repo worktree list | wc -l)" = 1 && ! test -e repo/.tiadash/worktrees
'

test_expect_success 'a second replay answers from the cache: no call' '
	(cd repo && tiadash replay --since 2026-10-01 --rules empty.rules --no-builtin-rules \
		--selector vitest --setup "$SETUP" --format json >../again.json) &&
	json_get again.json "[d[\"selector_run\"][\"calls\"], d[\"selector_run\"][\"cached\"]]" >actual &&
	echo "[0, 8]" >expect && test_cmp expect actual &&
	replayed_selections again.json >again.txt && test_cmp own.txt again.txt
'

test_expect_success 'an accepted glob is live in vitest: a data change reruns everything' '
	cd repo && ln -s "$TEST_TOOLS/node_modules" node_modules &&
	mkdir -p data && echo a >data/prices.csv && commit_at 2026-11-03T00:00:00Z "data: prices" &&
	echo b >data/prices.csv && commit_at 2026-11-03T01:00:00Z "data: new prices" &&
	"$TOOL_BIN/vitest" list --changed HEAD~1 --json 2>/dev/null >before.json &&
	echo "[]" >expect && test_cmp expect before.json &&
	tiadash rules --add "data/**" --into vitest.config.js >diff 2>err &&
	test_grep "^+    forceRerunTriggers: \[...configDefaults.forceRerunTriggers, \"\*\*/fixtures/\*\*\", \"\*\*/data/\*\*\"\],$" diff &&
	test ! -e vitest.config.js.orig &&
	git add vitest.config.js && git commit -q --amend --no-edit &&
	echo c >data/prices.csv && git commit -qam "data: prices again" &&
	"$TOOL_BIN/vitest" list --changed HEAD~1 --json 2>/dev/null >after.json &&
	json_dump after.json "sorted({t[\"file\"].rsplit(\"/\", 1)[1] for t in d})" >actual &&
	echo "[\"add.test.js\", \"fmt.test.js\", \"mul.test.js\"]" >expect &&
	test_cmp expect actual &&
	tiadash rules --rules vitest.config.js --test data/prices.csv >hit &&
	test_grep "^data/prices.csv  run_all  \*\*/data  vitest:forceRerunTriggers" hit
'

test_done
