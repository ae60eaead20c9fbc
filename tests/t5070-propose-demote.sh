#!/usr/bin/env bash
# propose --demote: each force-full rule in effect, the gate minutes it
# cost on HEAD's history and what dropping it would have missed, with the
# line-protocol selector replayed at the changes it forced, and without a
# selector (the record only). Every figure worked by hand below.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

# History (2026-11-01, hour: change, paths), rules config/** and docs/**:
#   1  root       every file            forced by both: dropping one saves nothing
#   2  #21        config/ci.yml         config/**   selector: nothing
#   3  #22        config/ci.yml src/util.py  config/**  selector: tests/test_util.py
#   4  #23        docs/guide.md         docs/**     selector: nothing
#   5  #24        src/app.py            no rule (narrowed)
#   6  #25        config/ci.yml docs/guide.md  both
# Record: shadow wall-clock 600 (#21, run_all), 660 (#22, run_all), 700
# (#23, run_all), 120 (#24, selected), 620 (#25, run_all); full runs pass
# but #23's, which fails tests/test_docs.py::test_links[a|b*]. Median full
# run 640 s (600 620 640 660 700), median narrowed shadow 120 s (#24).
#   config/**: forced 4 (root, #21, #22, #25), narrowed 2: #21 saves 600 s
#     (nothing selected), #22 660 - 120 = 540 s: 19.0 min; both full runs
#     passed: missed 0 of 2, bound 1 - 0.05^(1/2) = 0.776393 (77.6%).
#   docs/**: forced 3 (root, #23, #25), narrowed 1: #23 saves 700 s = 11.7
#     min; its full run failed test_links, which the selector's answer
#     (nothing) does not run: missed 1 of 1, bound 1 (100.0%).
# Without a selector the narrowed gate is the median narrowed run for
# both: config/** saves 480 + 540 s = 17.0 min (same bound); #23's failed
# full run is unknown: docs/** saves 580 s = 9.7 min, not bounded.
make_repo() {
	git init -q "$1" && (
		cd "$1" &&
		mkdir -p src tests docs config .tiadash &&
		echo "print('app')" >src/app.py &&
		echo "def add(a, b): return a + b" >src/util.py &&
		echo "def test_run(): pass" >tests/test_app.py &&
		echo "def test_add(): pass" >tests/test_util.py &&
		echo "guide" >docs/guide.md &&
		echo "on: push" >config/ci.yml &&
		printf 'config/**\ndocs/**\n' >.tiadash/rules &&
		git add . && commit_at 1 "Initial import" &&
		echo "on: pull_request" >config/ci.yml &&
		git add . && commit_at 2 "CI on PRs (#21)" &&
		echo "on: [push, pull_request]" >config/ci.yml &&
		echo "def sub(a, b): return a - b" >>src/util.py &&
		git add . && commit_at 3 "CI and sub (#22)" &&
		echo "the guide" >docs/guide.md &&
		git add . && commit_at 4 "Guide (#23)" &&
		echo "print('the app')" >src/app.py &&
		git add . && commit_at 5 "App (#24)" &&
		echo "on: push" >config/ci.yml &&
		echo "guide 2" >docs/guide.md &&
		git add . && commit_at 6 "CI and guide (#25)"
	)
}

# run PR KIND HOUR WALL VERDICT [MORE]: a manifest's fields (PR heads are branch tips).
run() {
	printf '"repo": "acme/app", "pr": %s, "base": "%s", "head": "%s", "kind": "%s", "attempt": 1, "started_at": "2026-11-01T%02d:00:00Z", "wall_clock_s": %s, "verdict": "%s", "results": ["junit.xml"]%s' \
		"$1" "$(git rev-parse HEAD~5)" "$(printf '%040d' "$1")" "$2" "$3" "$4" "$5" "${6:+, $6}"
}

run_all='"selection": {"decision": "run_all", "reasons": ["force-full:RULE"], "total_tests": 100, "selected_count": 100}'

make_store() {
	local a=$TRASH/art ok=tests/test_ok.py::test_ok
	rm -rf "$a" &&
	write_run "$a/21s" "$(run 21 shadow 2 600 pass "${run_all/RULE/config/**}")" &&
	junit "$a/21s/junit.xml" $ok &&
	write_run "$a/21f" "$(run 21 full 2 600 pass)" && junit "$a/21f/junit.xml" $ok &&
	write_run "$a/22s" "$(run 22 shadow 3 660 pass "${run_all/RULE/config/**}")" &&
	junit "$a/22s/junit.xml" $ok &&
	write_run "$a/22f" "$(run 22 full 3 660 pass)" && junit "$a/22f/junit.xml" $ok &&
	write_run "$a/23s" "$(run 23 shadow 4 700 pass "${run_all/RULE/docs/**}")" &&
	junit "$a/23s/junit.xml" $ok &&
	write_run "$a/23f" "$(run 23 full 4 700 fail)" &&
	junit "$a/23f/junit.xml" $ok "tests/test_docs.py::test_links[a|b*]:failed" &&
	write_run "$a/24s" "$(run 24 shadow 5 120 pass \
		'"selection": {"decision": "selected", "reasons": [], "total_tests": 100, "selected_count": 1, "selected": ["tests/test_app.py"]}')" &&
	junit "$a/24s/junit.xml" tests/test_app.py::test_run &&
	write_run "$a/24f" "$(run 24 full 5 640 pass)" && junit "$a/24f/junit.xml" $ok &&
	write_run "$a/25s" "$(run 25 shadow 6 620 pass "${run_all/RULE/config/**}")" &&
	junit "$a/25s/junit.xml" $ok &&
	write_run "$a/25f" "$(run 25 full 6 620 pass)" && junit "$a/25f/junit.xml" $ok &&
	tiadash --db "$1" --repo . ingest "$a" >/dev/null 2>"$TRASH/ingest.err"
}

make_repo repo && cd repo && make_store "$TRASH/store.db" || exit 2
export TIADASH_DB="$TRASH/store.db"
SEL="sh $TEST_SRC/data/rules/selector.sh ok"

# rows FILE.json: one line per rule, then one per change it forced.
rows() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["selector"] is not None, d["changes"], d["full_median_s"], d["narrowed_median_s"])
for r in d["rules"]:
    b = r["miss_rate_upper"]
    print(r["rule"], r["source"], r["forced"], r["narrowed"], r["evaluated"], r["unknown"],
          r["missed_changes"], r["missed"], round(r["saved_minutes"], 4),
          None if b is None else round(b, 6), r["candidate"], r["verdict"])
    for c in r["changes"]:
        s = c["saved_minutes"]
        print(" ", c["pr"], c["narrowed"], c["after"], c["full"], c["evaluated"], c["missed"],
              None if s is None else round(s, 4))
' "$1"
}

test_expect_success 'with the selector: minutes saved, tests missed, exact bounds (json)' '
	tiadash propose --demote --selector "$SEL" --format json >d.json &&
	rows d.json >actual &&
	cat >expect <<-\EOF &&
	True 6 640 120
	force-full:config/** in effect: .tiadash/rules 4 2 2 0 0 [] 19 0.776393 True candidate: narrow or drop
	  25 False run_all passed False [] None
	  22 True selected passed True [] 9
	  21 True nothing passed True [] 10
	  None False run_all None False [] None
	force-full:docs/** in effect: .tiadash/rules 3 1 1 0 1 ['"'"'tests/test_docs.py::test_links[a|b*]'"'"'] 11.6667 1 False keep: dropping it misses tests
	  25 False run_all passed False [] None
	  23 True nothing failed True ['"'"'tests/test_docs.py::test_links[a|b*]'"'"'] 11.6667
	  None False run_all None False [] None
	EOF
	test_cmp expect actual
'

test_expect_success 'the selector was asked only at the narrowed changes' '
	SELECTOR_LOG=$TRASH/calls tiadash propose --demote --selector "$SEL" --format json >/dev/null &&
	cut -d" " -f1,5- "$TRASH/calls" | sort >actual &&
	{
		echo "$(git rev-parse HEAD~2) docs/guide.md" &&
		echo "$(git rev-parse HEAD~3) config/ci.yml src/util.py" &&
		echo "$(git rev-parse HEAD~4) config/ci.yml"
	} | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'with the selector: text' '
	tiadash propose --demote --selector "$SEL" >out &&
	h=$(git rev-parse --short=12 HEAD~5) &&
	head -n 1 out >actual &&
	echo "demote       all time, 6 changes of HEAD'"'"'s first-parent history" >expect &&
	test_cmp expect actual &&
	# The selector line wraps at 80 columns where its path makes it (the
	# checkout'"'"'s path is not ours to choose): read it joined.
	sed -n "/^selector/,/^gate/p" out | sed "\$d" | tr -s " \n" "  " >actual &&
	test_grep "^selector sh .*/selector.sh ok (replayed at the changes each rule forced) \$" actual &&
	sed -n "/^gate/,\$p" out >actual &&
	cat >expect <<-EOF &&
	gate         median full run 10.7 min, narrowed shadow run 2.0 min
	rules        2 force-full rules in effect, ranked by the gate minutes they cost

	force-full:config/** (in effect: .tiadash/rules)
	  candidate: narrow or drop
	  forced 4 changes; dropping it narrows 2, saving 19.0 min
	  missed tests on 0 of 2 evaluated changes; miss rate at most 77.6% at 95%
	    PR 25                 still run_all without it
	    PR 22                 selected, full run passed, saves 9.0 min
	    PR 21                 nothing, full run passed, saves 10.0 min
	    commit $h   still run_all without it

	force-full:docs/** (in effect: .tiadash/rules)
	  keep: dropping it misses tests
	  forced 3 changes; dropping it narrows 1, saving 11.7 min
	  missed tests on 1 of 1 evaluated change; miss rate at most 100.0% at 95%
	  missed  tests/test_docs.py::test_links[a|b*]
	    PR 25                 still run_all without it
	    PR 23                 nothing, full run failed, saves 11.7 min
	      missed  tests/test_docs.py::test_links[a|b*]
	    commit $h   still run_all without it
	EOF
	test_cmp expect actual
'

test_expect_success 'without a selector: the record only, labelled' '
	tiadash propose --demote --format json >n.json &&
	rows n.json >actual &&
	cat >expect <<-\EOF &&
	False 6 640 120
	force-full:config/** in effect: .tiadash/rules 4 2 2 0 0 [] 17 0.776393 True candidate: narrow or drop
	  25 False run_all passed False [] None
	  22 True rules-only passed True [] 9
	  21 True rules-only passed True [] 8
	  None False run_all None False [] None
	force-full:docs/** in effect: .tiadash/rules 3 1 0 1 0 [] 9.6667 None False unknown: full runs failed (give --selector)
	  25 False run_all passed False [] None
	  23 True rules-only failed False [] 9.6667
	  None False run_all None False [] None
	EOF
	test_cmp expect actual &&
	tiadash propose --demote >out &&
	sed -n 2,3p out >actual &&
	cat >expect <<-\EOF &&
	selector     none: the record only (a full run that passed missed
	             nothing; one that failed is unknown: give --selector)
	EOF
	test_cmp expect actual &&
	test_grep "^  missed tests on 0 of 0 evaluated changes, 1 unknown; not bounded$" out
'

test_expect_success 'md and html escape rules and test ids; the page carries the figures' '
	tiadash propose --demote --selector "$SEL" --format md >d.md &&
	test_grep "^## force-full:config/\\\\\\*\\\\\\* (in effect: .tiadash/rules)$" d.md &&
	test_grep "^- missed: tests/test\\\\_docs.py::test\\\\_links\\\\\\[a\\\\|b\\\\\\*\\\\\\]$" d.md &&
	test_grep "^- forced 4 changes; dropping it narrows 2, saving 19.0 min$" d.md &&
	tiadash propose --demote --selector "$SEL" --format html >d.html &&
	test_grep "data-key=\"rules.0.saved_minutes\" data-value=\"19\"" d.html &&
	test_grep "data-key=\"rules.0.miss_rate_upper\" data-value=\"0.77639" d.html &&
	test_grep "test_links\[a|b\*\]" d.html
'

test_expect_success 'a hostile rules file name reaches the terminal sanitized' '
	cp .tiadash/rules "$TRASH/$(printf "r\033[31mx")" &&
	tiadash propose --demote --rules "$TRASH/$(printf "r\033[31mx")" >out &&
	! grep -q "$(printf "\033")" out &&
	test_grep "^ *$TRASH/r\\\\x1b\[31mx)$" out
'

test_expect_success 'a selector that fails every call: exit 2, nothing printed' '
	test_expect_code 2 tiadash propose --demote --selector "exit 3" >out 2>err &&
	test_must_be_empty out &&
	test_grep "^tiadash: error: the selector failed on every call (2): exited with status 3$" err
'

test_expect_success 'outside a repository: said so, exit 2' '
	(cd "$TRASH" && test_expect_code 2 tiadash propose --demote 2>err) &&
	test_grep "replays the repository" "$TRASH/err"
'

test_expect_success 'usage: --demote alone, its selector options with it' '
	test_expect_code 2 tiadash propose --demote --accept "a/**" 2>err &&
	test_grep "separate runs" err &&
	test_expect_code 2 tiadash propose --selector "$SEL" 2>err &&
	test_grep "go with --demote" err &&
	test_expect_code 2 tiadash propose --demote --setup true 2>err &&
	test_grep "need --selector" err &&
	tiadash propose --help >help &&
	grep -q -e "--demote" help && grep -q -e "--selector NAME|CMD" help
'

test_done
