#!/usr/bin/env bash
# replay --selector moon (real moon 2.5, tests/npm/): at every commit of a
# small moon workspace, the replayed selection is moon's own `moon query
# tasks --affected` (the directories of the projects of its affected test
# tasks, run_all where every project is affected) in that commit's tree,
# the changed paths piped in; against a store of the PRs' runs (two real
# escapes), the replay misses what the full runs failed outside moon's
# selection and agrees with every recorded selection; the rules read from
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

# moon's answer by hand: its tasks, then its projects (two documents); a
# project's id is its "source" directory; every project affected runs all.
OWN='import json, sys
text, dec = sys.stdin.read(), json.JSONDecoder()
tasks, end = dec.raw_decode(text)
projects = dec.raw_decode(text[end:].lstrip())[0]["projects"]
source = {p["id"]: p["source"] for p in projects}
dirs = sorted(source[p] for p, ts in tasks["tasks"].items() if any(t["type"] == "test" for t in ts.values()))
if len(tasks["tasks"]) == len(projects): print("run_all -")
else: print("selected" if dirs else "nothing", " ".join(dirs) or "-")'

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
	for p in apps/web libs/money libs/ui; do
		echo 1 >$p/src/index.js && echo "test(1)" >$p/src/index.test.js || return 1
	done &&
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
	SKIP_ROOT=1 own_answers "MOON_BASE=\$BASE MOON_HEAD=\$HEAD \"$TOOL_BIN/moon\" query tasks --affected </dev/null | tee ../moon-\$HEAD.json && \"$TOOL_BIN/moon\" query projects </dev/null" "$OWN" &&
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
	run_all -
	run_all -
	selected libs/ui
	nothing -
	selected apps/web libs/ui
	selected libs/money
	EOF
	test_cmp expect decisions &&
	replayed_decisions replay.json | cut -d" " -f2- | sort | uniq -c >actual &&
	cat >expect <<-\EOF &&
	      1 nothing -
	      2 run_all moon:all-projects-affected
	      3 selected -
	EOF
	test_cmp expect actual &&
	json_dump replay.json "[d[\"totals\"][k] for k in (\"force_full\", \"force_full_rate\")]" >actual &&
	echo "[2, 0.3333333333333333]" >expect && test_cmp expect actual
'

# The PRs' runs, as CI ran them: moon's answer as the shadow run's
# selection (3 projects), a full run of the three tests. Two escapes: PR 2
# (apps/web, libs/ui) breaks money's test, PR 3 (the README, nothing
# selected) web's. PR 1's and PR 5's failures are in tests moon selected.
W=apps/web/src/index.test.js M=libs/money/src/index.test.js U=libs/ui/src/index.test.js
# show's pair: PR, class, decision, reasons, affected fraction, entries, missed.
SHOWN='import json, sys
d = json.load(open(sys.argv[1])); s = d["selection"]
print(d["pr"], d["class"], s["decision"], ",".join(s["reasons"]) or "-", "%.4f" % s["affected_fraction"],
      ",".join(s["entries"]) or "-", ",".join(d["missed"]) or "-")'
# replay's change: PR, decision, selection, missed, disagrees.
REPLAYED='import json, sys
for c in json.load(open(sys.argv[1]))["changes"]:
    print(c["pr"] or "-", c["decision"], ",".join(c["selection"]) or "-",
          ",".join(c["missed"]) or "-", c["disagrees"])'

test_expect_success 'a store of the PRs: shadow runs on moon answers, full runs' '
	ingest_pr() {
		n=$1 sha=$(git -C repo log --first-parent --format=%H --grep="#$1 " -n 1) &&
		junit full.xml $2 &&
		tiadash --db s.db --repo repo ingest --kind full --head "$sha" --pr "$n" \
			--started-at "2026-11-03T0$n:00:00Z" full.xml >/dev/null &&
		if test -n "$3"; then
			junit shadow.xml $3 &&
			tiadash --db s.db --repo repo ingest --kind shadow --head "$sha" --pr "$n" \
				--started-at "2026-11-03T0$n:00:00Z" --selection "moon-$sha.json" \
				--selection-format moon --total-packages 3 shadow.xml >/dev/null
		else
			tiadash --db s.db --repo repo ingest --kind shadow --head "$sha" --pr "$n" \
				--started-at "2026-11-03T0$n:00:00Z" --selection "moon-$sha.json" \
				--selection-format moon --total-packages 3 >/dev/null
		fi
	} &&
	ingest_pr 1 "$W::t $M::t:failed $U::t" "$M::t:failed" &&
	ingest_pr 2 "$W::t $M::t:failed $U::t" "$W::t $U::t" &&
	ingest_pr 3 "$W::t:failed $M::t $U::t" "" &&
	ingest_pr 5 "$W::t $M::t $U::t:failed" "$W::t $M::t $U::t:failed" &&
	ingest_pr 6 "$W::t $M::t $U::t" "$W::t $M::t $U::t" &&
	for n in 1 2 3 5 6; do
		tiadash --db s.db show $n --format json >s.json &&
		python3 -c "$SHOWN" s.json >>shown || return 1
	done &&
	cat >expect <<-EOF &&
	1 agree selected - 0.3333 libs/money -
	2 escape selected - 0.6667 apps/web,libs/ui $M::t
	3 escape nothing - 0.0000 - $W::t
	5 agree run_all moon:all-projects-affected 1.0000 apps/web,libs/money,libs/ui -
	6 agree run_all moon:all-projects-affected 1.0000 apps/web,libs/money,libs/ui -
	EOF
	test_cmp expect shown
'

test_expect_success 'replay --selector moon over the store: the two escapes missed, every recorded selection equal' '
	(cd repo && tiadash --db ../s.db replay --since 2026-11-01T12:00:00Z --rules empty.rules \
		--no-builtin-rules --selector moon --setup "$SETUP" --format json >../stored.json 2>../err) &&
	test_must_be_empty err &&
	python3 -c "$REPLAYED" stored.json >actual &&
	cat >expect <<-EOF &&
	6 run_all - - False
	5 run_all - - False
	4 selected libs/ui - None
	3 nothing - $W::t False
	2 selected apps/web,libs/ui $M::t False
	1 selected libs/money - False
	EOF
	test_cmp expect actual &&
	json_dump stored.json "[d[\"totals\"][k] for k in (\"misses\", \"missed_changes\", \"recorded\", \"disagreements\", \"force_full\")]" >actual &&
	echo "[2, 2, 5, 0, 2]" >expect && test_cmp expect actual
'

test_expect_success 'the rules from .moon/tasks/all.yml run all where moon affected every project' '
	(cd repo && tiadash replay --since 2026-11-01T12:00:00Z --rules .moon/tasks/all.yml \
		--no-builtin-rules --format json >../rules.json 2>../err) &&
	test_must_be_empty err &&
	replayed_decisions rules.json >by-rules.txt &&
	grep " run_all -$" own.txt | cut -d" " -f1 >want &&
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
