#!/usr/bin/env bash
# replay --selector turbo (real turbo 2.11, tests/npm/): at every commit of
# a small npm-workspaces monorepo, the replayed selection is turbo's own
# `turbo run test --affected --dry=json` (its test tasks' package
# directories) in that commit's tree, an answer naming every package of
# the workspace run_all (turbo:all-packages-affected, the packages counted
# in the tree as a CI's --total-packages); the rules read from turbo.json run
# all exactly where turbo ran every package, a lockfile edit it cannot
# attribute ("requires": false) among them; a glob accepted into
# turbo.json is live in turbo.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
need_tool turbo

TASKS='import json, sys
d = json.load(sys.stdin)
dirs = sorted({t["directory"] for t in d["tasks"] if t["task"] == "test"})
print("selected" if dirs else "nothing", " ".join(dirs) or "-")'
# turbo's answer as replay classes it: naming every package of the
# workspace (in the clone, $root) is run_all.
OWN='import glob, json, os, sys
d = json.load(sys.stdin)
dirs = sorted({t["directory"] for t in d["tasks"] if t["task"] == "test"})
every = len(glob.glob(os.path.join(os.environ["root"], "packages/*/package.json")))
if dirs and len(dirs) == every: print("run_all -")
else: print("selected" if dirs else "nothing", " ".join(dirs) or "-")'

test_expect_success 'setup: a turbo monorepo with its history' '
	git init -q repo && cd repo &&
	printf "node_modules\n.turbo\n.tiadash\n" >.gitignore &&
	echo "{\"name\": \"mono\", \"private\": true, \"packageManager\": \"npm@11.0.0\", \"workspaces\": [\"packages/*\"]}" >package.json &&
	cat >turbo.json <<-\JSON &&
	{
	  "$schema": "https://turborepo.com/schema.json",
	  // shared by every package
	  "globalDependencies": ["tsconfig.base.json"],
	  "tasks": { "test": { "inputs": ["src/**", "test/**"] } }
	}
	JSON
	for p in money web ui; do
		mkdir -p packages/$p/src packages/$p/test &&
		echo "{\"name\": \"$p\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"true\"}}" >packages/$p/package.json &&
		echo "export default 1;" >packages/$p/src/index.js &&
		echo "// test" >packages/$p/test/index.test.js || return 1
	done &&
	echo "{\"name\": \"money\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"true\"}, \"dependencies\": {\"left-pad\": \"^1.3.0\"}}" >packages/money/package.json &&
	echo "{}" >tsconfig.base.json &&
	cat >package-lock.json <<-\JSON &&
	{"name": "mono", "lockfileVersion": 3, "requires": true, "packages": {
	  "": {"name": "mono", "workspaces": ["packages/*"]},
	  "node_modules/left-pad": {"version": "1.3.0", "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"},
	  "node_modules/money": {"resolved": "packages/money", "link": true},
	  "node_modules/ui": {"resolved": "packages/ui", "link": true},
	  "node_modules/web": {"resolved": "packages/web", "link": true},
	  "packages/money": {"name": "money", "version": "1.0.0", "dependencies": {"left-pad": "^1.3.0"}},
	  "packages/ui": {"name": "ui", "version": "1.0.0"},
	  "packages/web": {"name": "web", "version": "1.0.0"}}}
	JSON
	echo "# mono" >README.md &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z packages/money/src/index.js "export default 2;" &&
	pr 2 2026-11-02T01:00:00Z packages/web/test/index.test.js "// more" \
		packages/ui/src/index.js "export default 3;" &&
	pr 3 2026-11-02T02:00:00Z tsconfig.base.json "{\"strict\": true}" &&
	pr 4 2026-11-02T03:00:00Z README.md "# mono, the monorepo" &&
	echo "// docs" >packages/ui/README.md && commit_at 2026-11-02T04:00:00Z "ui: docs (#5)" &&
	lock="import json, sys; d = json.load(open(\"package-lock.json\")); exec(sys.argv[1]); print(json.dumps(d, indent=2))" &&
	pr 6 2026-11-02T05:00:00Z package-lock.json "$(python3 -c "$lock" "d[\"requires\"] = False")" &&
	pr 7 2026-11-02T06:00:00Z package-lock.json "$(python3 -c "$lock" "d[\"packages\"][\"node_modules/left-pad\"][\"version\"] = \"1.3.1\"")" &&
	: >empty.rules
'

test_expect_success 'turbo answers in a clone at each commit' '
	# turbo --affected needs a base commit: the root commit is left out.
	SKIP_ROOT=1 own_answers "TURBO_SCM_BASE=\$BASE TURBO_SCM_HEAD=\$HEAD \"$TOOL_BIN/turbo\" run test --affected --dry=json" "$OWN" &&
	test "$(wc -l <own.txt)" = 7
'

test_expect_success 'replay --selector turbo equals turbo at every commit' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules empty.rules --no-builtin-rules \
		--selector turbo --setup "$SETUP" -j 2 --format json >../replay.json 2>../err) &&
	test_must_be_empty err &&
	replayed_selections replay.json >replayed.txt &&
	test_cmp own.txt replayed.txt &&
	cut -d" " -f2- replayed.txt >decisions &&
	# A package file outside the task inputs still affects its package
	# (inputs narrow only with futureFlags.affectedUsingTaskInputs).
	# The lockfile: "requires" flipped runs every package, the left-pad bump
	# only its dependent.
	# Naming every package is run_all (turbo:all-packages-affected).
	cat >expect <<-\EOF &&
	selected packages/money
	run_all -
	selected packages/ui
	nothing -
	run_all -
	selected packages/ui packages/web
	selected packages/money
	EOF
	test_cmp expect decisions &&
	replayed_decisions replay.json | grep " run_all " | cut -d" " -f2- | uniq >reasons &&
	echo "run_all turbo:all-packages-affected" >expect && test_cmp expect reasons &&
	test "$(git -C repo worktree list | wc -l)" = 1
'

test_expect_success 'turbo not in the worktree: every call fails, said once at the end, exit 2' '
	(cd repo && test_expect_code 2 tiadash replay --since 2026-11-01T12:00:00Z --rules empty.rules \
		--no-builtin-rules --selector turbo --format json >../never.json 2>../err) &&
	replayed_decisions never.json | cut -d" " -f2- | sort | uniq -c >actual &&
	echo "      7 run_all selector-error" >expect &&
	test_cmp expect actual &&
	first=$(replayed_decisions never.json | head -n 1 | cut -c 1-12) &&
	cat >expect <<-EOF &&
	tiadash: warning: selector failed on $first: turbo: not found in the worktree'"'"'s node_modules; see --setup (run_all, selector-error)
	tiadash: error: the selector failed on every call (7): turbo: not found in the worktree'"'"'s node_modules; see --setup
	EOF
	sed -n "1p;\$p" err >actual &&
	test_cmp expect actual &&
	test "$(grep -c "" err)" = 5
'

test_expect_success 'turbo found at one commit of eight: the other seven are said, exit 0' '
	git clone -q repo part && cd part &&
	ln -s "$TEST_TOOLS/node_modules" node_modules && git add -f node_modules &&
	commit_at 2026-11-02T07:00:00Z "node_modules in the tree" &&
	tiadash replay --since 2026-11-01T12:00:00Z --rules ../repo/empty.rules --no-builtin-rules \
		--selector turbo --format json >../part.json 2>../err &&
	cd .. &&
	replayed_decisions part.json | cut -d" " -f2 | sort | uniq -c >actual &&
	printf "      1 nothing\n      7 run_all\n" >expect &&
	test_cmp expect actual &&
	echo "tiadash: warning: the selector failed the same way on 7 of its 8 calls: turbo: not found in the worktree'"'"'s node_modules; see --setup" >expect &&
	tail -n 1 err >actual &&
	test_cmp expect actual
'

test_expect_success 'the rules from turbo.json run all where turbo ran every package' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules turbo.json --no-builtin-rules \
		--format json >../rules.json 2>../err) &&
	test_must_be_empty err &&
	replayed_decisions rules.json >by-rules.txt &&
	grep " run_all -$" own.txt | cut -d" " -f1 >want &&
	grep " run_all " by-rules.txt | cut -d" " -f1 >got && test_cmp want got &&
	cut -d" " -f2- by-rules.txt >actual &&
	cat >expect <<-\EOF &&
	rules-only select:/package-lock.json
	run_all turbo:lockfile-global-change
	rules-only -
	rules-only -
	run_all force-full:/tsconfig.base.json
	rules-only -
	rules-only -
	EOF
	test_cmp expect actual &&
	(cd repo && tiadash rules --no-builtin-rules --rules turbo.json --test package-lock.json) >actual &&
	echo "package-lock.json  select   /package-lock.json  turbo:lockfile  (in effect: turbo.json)  [run_all when turbo cannot attribute the edit (lockfileVersion or \"requires\" changed, or a side absent or unreadable)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bare shadow run that turbo says selected nothing passed; one that selected packages needs --verdict' '
	readme=$(grep " nothing -$" own.txt | cut -d" " -f1) &&
	money=$(grep " selected packages/money$" own.txt | head -n 1 | cut -d" " -f1) &&
	for c in $readme $money; do
		git -C own checkout -q --detach "$c" &&
		(cd own && TURBO_SCM_BASE=$c^1 TURBO_SCM_HEAD=$c "$TOOL_BIN/turbo" run test \
			--affected --dry=json 2>/dev/null) >"dry-$c.json" || return 1
	done &&
	tiadash --db n.db --repo repo ingest --kind shadow --head "$readme" --pr 4 \
		--selection "dry-$readme.json" --selection-format turbo --total-packages 3 >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	tiadash --db n.db show 4 --format json >s.json &&
	json_get s.json "[d[\"selection\"][\"decision\"], d[\"runs\"][0][\"verdict\"]]" >actual &&
	echo "['"'"'nothing'"'"', '"'"'pass'"'"']" >expect &&
	test_cmp expect actual &&
	test_expect_code 2 tiadash --db n.db --repo repo ingest --kind shadow --head "$money" --pr 1 \
		--selection "dry-$money.json" --selection-format turbo --total-packages 3 >out 2>err &&
	echo "tiadash: error: the shadow run of $(echo "$money" | cut -c 1-12) selected tests: give --verdict (there are no results to derive it from)" >expect &&
	test_cmp expect err &&
	test_grep "^0 new runs, 0 unchanged, 1 failed$" out &&
	tiadash --db n.db --repo repo ingest --kind shadow --head "$money" --pr 1 --verdict pass \
		--selection "dry-$money.json" --selection-format turbo --total-packages 3 >out &&
	test_grep "^1 new run, 0 unchanged$" out
'

test_expect_success 'an accepted glob is live in turbo: a data change affects every package' '
	cd repo && ln -s "$TEST_TOOLS/node_modules" node_modules &&
	mkdir -p data && echo a >data/prices.csv && commit_at 2026-11-03T00:00:00Z "data" &&
	tiadash rules --add "data/**" --into turbo.json >diff 2>err &&
	test_grep "^+  \"globalDependencies\": \[\"tsconfig.base.json\", \"data/\*\*\"\],$" diff &&
	test ! -e turbo.json.orig && commit_at 2026-11-03T01:00:00Z "turbo: data is global" &&
	echo b >data/prices.csv && commit_at 2026-11-03T02:00:00Z "data: new prices" &&
	TURBO_SCM_BASE=HEAD~1 TURBO_SCM_HEAD=HEAD "$TOOL_BIN/turbo" run test --affected --dry=json 2>/dev/null |
		python3 -c "$TASKS" >actual &&
	echo "selected packages/money packages/ui packages/web" >expect && test_cmp expect actual
'

test_expect_success 'propose --accept without a store writes the glob into turbo.json; turbo honours it' '
	(cd repo && test_expect_code 2 tiadash propose 2>../err) &&
	test_grep "^tiadash: error: no store at " err &&
	(cd repo && tiadash propose --accept "assets/**" --rules turbo.json >../out &&
		! test -e .tiadash/tiadash.db && ! test -e turbo.json.orig &&
		commit_at 2026-11-03T03:00:00Z "turbo: assets are global" &&
		mkdir assets && echo a >assets/logo.svg && git add assets &&
		commit_at 2026-11-03T04:00:00Z "assets: the logo" &&
		TURBO_SCM_BASE=HEAD~1 TURBO_SCM_HEAD=HEAD "$TOOL_BIN/turbo" run test --affected --dry=json 2>/dev/null) |
		python3 -c "$TASKS" >actual &&
	echo "selected packages/money packages/ui packages/web" >expect && test_cmp expect actual &&
	test_grep "^+  \"globalDependencies\": \[\"tsconfig.base.json\", \"data/\*\*\", \"assets/\*\*\"\],$" out &&
	test_grep "^no store: not scored on any history$" out
'

test_done
