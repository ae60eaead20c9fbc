#!/usr/bin/env bash
# replay --selector moon (real moon 2.5, tests/npm/): at every commit of a
# small moon workspace, the replayed selection is moon's own `moon query
# tasks --affected` (the projects of its affected test tasks) in that
# commit's tree, the changed paths piped in; the rules read from
# .moon/tasks/all.yml run all where moon affected every project (its
# implicit inputs: .moon/workspace.yml, a .moon/tasks.yml moon 2 does not
# read); a glob accepted into .moon/tasks/all.yml (implicitInputs) is live
# in moon.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
need_tool moon

TASKS='import json, sys
d = json.load(sys.stdin)
ids = sorted(p for p, ts in d["tasks"].items() if any(t["type"] == "test" for t in ts.values()))
print("selected" if ids else "nothing", " ".join(ids) or "-")'

test_expect_success 'setup: a moon workspace with its history' '
	git init -q repo && cd repo &&
	printf ".moon/cache\n.tiadash\nnode_modules\n" >.gitignore &&
	mkdir -p .moon/tasks apps/web/src libs/money/src libs/ui/src &&
	printf "projects:\n  - \"apps/*\"\n  - \"libs/*\"\nvcs:\n  defaultBranch: \"main\"\n" >.moon/workspace.yml &&
	cat >.moon/tasks/all.yml <<-\YAML &&
	# every project tests its sources
	tasks:
	  test:
	    command: "true"
	    inputs:
	      - "src/**/*"
	YAML
	echo "layer: application" >apps/web/moon.yml &&
	echo "layer: library" >libs/money/moon.yml &&
	echo "layer: library" >libs/ui/moon.yml &&
	for p in apps/web libs/money libs/ui; do echo 1 >$p/src/index.js || return 1; done &&
	echo "# ws" >README.md &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z libs/money/src/index.js 2 &&
	pr 2 2026-11-02T01:00:00Z apps/web/src/index.js 3 libs/ui/src/index.js 3 &&
	pr 3 2026-11-02T02:00:00Z README.md "# the workspace" &&
	echo 4 >libs/ui/src/index.js && commit_at 2026-11-02T03:00:00Z "ui: four (#4)" &&
	pr 5 2026-11-02T04:00:00Z .moon/workspace.yml "$(cat .moon/workspace.yml; echo "# the workspace")" &&
	pr 6 2026-11-02T05:00:00Z .moon/tasks.yml "$(printf "tasks:\n  lint:\n    command: \"true\"\n")" &&
	: >empty.rules
'

test_expect_success 'moon answers in a clone at each commit' '
	SKIP_ROOT=1 own_answers "MOON_BASE=\$BASE MOON_HEAD=\$HEAD \"$TOOL_BIN/moon\" query tasks --affected </dev/null" "$TASKS" &&
	test "$(wc -l <own.txt)" = 6
'

test_expect_success 'replay --selector moon equals moon at every commit' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules empty.rules --no-builtin-rules \
		--selector moon --setup "$SETUP" --format json >../replay.json 2>../err) &&
	test_must_be_empty err &&
	replayed_selections replay.json >replayed.txt &&
	test_cmp own.txt replayed.txt &&
	cut -d" " -f2- replayed.txt >decisions &&
	cat >expect <<-\EOF &&
	selected money ui web
	selected money ui web
	selected ui
	nothing -
	selected ui web
	selected money
	EOF
	test_cmp expect decisions
'

test_expect_success 'the rules from .moon/tasks/all.yml run all where moon affected every project' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules .moon/tasks/all.yml \
		--no-builtin-rules --format json >../rules.json 2>../err) &&
	test_must_be_empty err &&
	replayed_decisions rules.json >by-rules.txt &&
	grep " money ui web$" own.txt | cut -d" " -f1 >want &&
	grep " run_all " by-rules.txt | cut -d" " -f1 >got && test_cmp want got &&
	grep " run_all " by-rules.txt | cut -d" " -f3- | sort -u >actual &&
	echo "force-full:/.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}" >expect && test_cmp expect actual &&
	(cd repo && tiadash rules --no-builtin-rules --rules .moon/tasks.yml --list 2>../err) >actual &&
	test_grep "moon 2 does not read .moon/tasks.yml" err &&
	test "$(wc -l <actual)" = 1 && test_grep "moon:implicit-inputs" actual
'

test_expect_success 'an accepted glob is live in moon: a data change affects every project' '
	cd repo &&
	mkdir -p data && echo a >data/prices.csv && commit_at 2026-11-03T00:00:00Z "data" &&
	tiadash rules --add "data/**" --into .moon/tasks/all.yml >diff 2>err &&
	test_grep "^+implicitInputs:$" diff && test_grep "^+  - '"'"'/data/\*\*'"'"'$" diff &&
	test ! -e .moon/tasks/all.yml.orig &&
	# A copy of the moon config (an old backup) is no tiadash rule file.
	cp .moon/tasks/all.yml .moon/tasks/all.yml.bak &&
	test_expect_code 2 tiadash rules --rules .moon/tasks/all.yml.bak --list >out 2>err &&
	test_must_be_empty out &&
	echo "tiadash: error: .moon/tasks/all.yml.bak:2: YAML, not a tiadash rule file: the moon adapter reads it (as moon.yml, .moon/tasks.yml or .moon/tasks/*.yml)" >expect &&
	test_cmp expect err &&
	rm .moon/tasks/all.yml.bak && commit_at 2026-11-03T01:00:00Z "moon: data is an input" &&
	echo b >data/prices.csv && commit_at 2026-11-03T02:00:00Z "data: new prices" &&
	MOON_BASE=HEAD~1 MOON_HEAD=HEAD "$TOOL_BIN/moon" query tasks --affected </dev/null 2>/dev/null |
		python3 -c "$TASKS" >actual &&
	echo "selected money ui web" >expect && test_cmp expect actual
'

test_done
