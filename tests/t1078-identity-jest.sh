#!/bin/bash
# jest with jest-junit, run for real (issue 33): its default report names
# a test by its describe titles only (no file attribute), a word nothing
# ties to a test file, so the pair is `unresolved`, not an escape, and the
# identity criterion fails naming the setting that fixes it; with
# addFileAttribute or classNameTemplate "{filepath}" the same failure is
# an escape with its missed test; an id-map rule that lower-cases a group
# bridges the default report; quarantine lines in jest's own forms join.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/tui/lib.sh"
need_tool jest

TOOLBAR=src/ui/toolbar.test.js
MENU=src/ui/menu.test.js

# The UI package: a toolbar test that fails at every PR head, a menu test that passes.
ui_repo() {
	git init -q -b main repo && cd repo &&
	printf '{"name": "ui", "private": true, "jest": {"testEnvironment": "node"}}\n' >package.json &&
	echo node_modules >.gitignore && mkdir -p src/ui &&
	cat >$TOOLBAR <<-\JS &&
	describe("Toolbar", () => {
	  test("renders", () => { expect(require("./toolbar").buttons()).toBe(3); });
	  describe("when empty", () => {
	    test("hides buttons", () => { expect(1).toBe(1); });
	  });
	});
	JS
	echo 'exports.buttons = () => 3;' >src/ui/toolbar.js &&
	cat >$MENU <<-\JS &&
	describe("Menu", () => {
	  test("opens", () => { expect(1).toBe(1); });
	});
	JS
	commit_at 2026-10-30T00:00:00Z base && git rev-parse HEAD >../heads.base &&
	for n in 1 2 3 4 5 6; do
		git checkout -q -b "pr$n" main &&
		echo "exports.buttons = () => $((n + 10));" >src/ui/toolbar.js &&
		commit_at 2026-10-31T00:00:00Z "pr $n" && git rev-parse HEAD >"../heads.$n" || return 1
	done &&
	git checkout -q main && ln -s "$TEST_TOOLS/node_modules" node_modules && cd ..
}

# jest_report PR NAME [VAR=VALUE...]: the real jest-junit report of PR's head in NAME.xml.
jest_report() {
	local pr=$1 name=$2
	shift 2
	git -C repo checkout -q "pr$pr" &&
	(cd repo && env JEST_JUNIT_OUTPUT_DIR="$TRASH" JEST_JUNIT_OUTPUT_NAME="$name.xml" "$@" \
		"$TOOL_BIN/jest" --ci --reporters=jest-junit >/dev/null 2>&1; test $? = 1) &&
	git -C repo checkout -q main && test -s "$name.xml"
}

# jpair PR REPORT [QUARANTINE-LINE...]: the shadow run selected only the
# menu test and passed; the full run wrote REPORT.xml.
jpair() {
	local pr=$1 report=$2 at="2026-11-01T0$1:00:00Z"
	shift 2
	mrun "runs/$pr/s" "$pr" shadow 1 "$at" 30 pass "$(sel selected 1 3 $MENU)" "$MENU::Menu opens" &&
	mrun "runs/$pr/f" "$pr" full 1 "$at" 90 fail - &&
	cp "$report.xml" "runs/$pr/f/junit.xml" &&
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >"runs/$pr/f/quarantine.txt" &&
		sed -i 's/"results"/"quarantine": "quarantine.txt", "results"/' "runs/$pr/f/tiadash-run.json"
	fi
}

WINDOW="--since 2026-11-01 --until 2026-11-02"

test_expect_success 'setup: the real jest-junit reports, in four settings' '
	ui_repo &&
	jest_report 1 default &&
	jest_report 2 describe JEST_JUNIT_CLASSNAME="{classname}" &&
	jest_report 3 file JEST_JUNIT_ADD_FILE_ATTRIBUTE=true &&
	jest_report 4 filepath JEST_JUNIT_CLASSNAME="{filepath}" &&
	grep "<testcase classname=\"Toolbar renders\" name=\"Toolbar renders\"" default.xml &&
	grep "<testcase classname=\"Toolbar\" name=\"Toolbar renders\"" describe.xml &&
	grep "file=\"$TOOLBAR\"" file.xml &&
	grep "<testcase classname=\"$TOOLBAR\" name=\"Toolbar renders\"" filepath.xml
'

test_expect_success 'ingest: two reports name the failure by describe titles only' '
	jpair 1 default && jpair 2 describe && jpair 3 file && jpair 4 filepath &&
	jpair 5 file "$TOOLBAR > Toolbar > renders" Toolbar &&
	jpair 6 filepath "$TOOLBAR::Toolbar renders" &&
	tiadash --db s.db --repo repo ingest runs >out 2>err &&
	echo "12 new runs, 0 unchanged" >expect && test_cmp expect out &&
	test_grep "runs/1/f/tiadash-run.json: 1 of 1 failing tests name no path in the tree" err
'

test_expect_success 'report: the describe-title pairs are unresolved, not escapes' '
	tiadash --db s.db report $WINDOW --format json >r.json &&
	json_close r.json "[d[\"classes\"][c] for c in (\"escape\", \"unresolved\", \"agree\")]" "[2, 2, 2]" &&
	json_close r.json "d[\"escapes\"][\"prs\"]" "[3, 4]" &&
	json_close r.json "[d[\"identity\"][\"failing_tests\"], d[\"identity\"][\"resolved\"], d[\"identity\"][\"by_name\"]]" "[6, 4, 0]" &&
	json_close r.json "d[\"identity\"][\"unresolved\"]" "[\"Toolbar renders::Toolbar renders\", \"Toolbar::Toolbar renders\"]" &&
	# a quarantine line that is a word no selection uses ties to nothing either
	json_close r.json "[d[\"identity\"][k] for k in (\"quarantine_lines\", \"quarantine_unresolved\", \"quarantine_unresolved_lines\")]" \
		"[3, 1, [\"Toolbar\"]]" &&
	tiadash --db s.db report $WINDOW >r.txt &&
	test_grep "^Unresolved  *2 pairs: a failing test names no test file, not escapes (Identity)$" r.txt
'

test_expect_success 'show: the escape names its missed test by file and title' '
	tiadash --db s.db show 3 --format json >s3.json &&
	json_close s3.json "[d[\"class\"], d[\"missed\"]]" "[\"escape\", [\"$TOOLBAR::Toolbar renders\"]]" &&
	tiadash --db s.db show 2 --format json >s2.json &&
	json_close s2.json "[d[\"class\"], d[\"missed\"]]" "[\"unresolved\", []]"
'

test_expect_success 'quarantine lines in jest forms: path > describe > title, path::title' '
	tiadash --db s.db show 5 --format json >s5.json &&
	json_close s5.json "[d[\"class\"], d[\"quarantined\"]]" "[\"agree\", [\"$TOOLBAR::Toolbar renders\"]]" &&
	tiadash --db s.db show 6 --format json >s6.json &&
	json_close s6.json "[d[\"class\"], d[\"quarantined\"]]" "[\"agree\", [\"$TOOLBAR::Toolbar renders\"]]"
'

test_expect_success 'gate-check: identity fails and names jest-junit settings' '
	test_expect_code 1 tiadash --db s.db gate-check $WINDOW --min-pairs 1 --min-days 1 >g.txt &&
	test_grep "^failing tests resolved  *>= 0.990  *0.667  FAIL$" g.txt &&
	tr "\n" " " <g.txt | sed "s/  */ /g" >g.flat &&
	test_grep "identity: failing tests resolved below 0.99; jest-junit: set addFileAttribute: \"true\" or classNameTemplate: \"{filepath}\" in its options (man tiadash, TEST IDENTITY)" g.flat &&
	test_grep "2 pairs failed on tests whose names join no test file: unresolved, not escapes" g.flat
'

test_expect_success 'an id-map rule that lower-cases the describe title bridges the default report' '
	mkdir m && cp -r runs/1 runs/2 m/ &&
	cat >config <<-\EOF &&
	id-map = ^(\w+)( .*)?$ => src/ui/\L$1\E.test.js
	EOF
	TIADASH_CONFIG=config tiadash --db m.db --repo repo ingest m >out 2>err &&
	test_must_be_empty err &&
	TIADASH_CONFIG=config tiadash --db m.db report $WINDOW --format json >m.json &&
	json_close m.json "[d[\"classes\"][\"escape\"], d[\"classes\"][\"unresolved\"], d[\"identity\"][\"resolved\"]]" "[2, 0, 2]" &&
	TIADASH_CONFIG=config tiadash --db m.db show 1 --format json >m1.json &&
	json_close m1.json "d[\"missed\"]" "[\"$TOOLBAR::Toolbar renders\"]"
'

test_expect_success 'a failed-test list and selection entries in jest'"'"'s path > describe > title' '
	mkdir j && cp -r runs/3 j/ &&
	mrun j/3/s 3 shadow 1 2026-11-01T03:00:00Z 30 pass "$(sel selected 1 3 "$MENU > Menu > opens")" "$MENU::Menu opens" &&
	sed -i "s|\"results\"|\"failed\": [\"$TOOLBAR > Toolbar > renders\"], \"results\"|" j/3/f/tiadash-run.json &&
	tiadash --db j.db --repo repo ingest j >out 2>err &&
	test_must_be_empty err &&
	tiadash --db j.db show 3 --format json >j3.json &&
	json_close j3.json "[d[\"class\"], d[\"missed\"], d[\"runs\"][1][\"failed\"], d[\"selection\"][\"entries\"]]" \
		"[\"escape\", [\"$TOOLBAR::Toolbar renders\"], [\"$TOOLBAR::Toolbar renders\"], [\"$MENU::Menu > opens\"]]" &&
	tiadash --db j.db report $WINDOW --format json >j.json &&
	json_close j.json "[d[\"identity\"][k] for k in (\"failing_tests\", \"resolved\", \"entries_matching_no_test\")]" "[1, 1, 0]"
'

test_expect_success 'a rule added after ingest keys the stored failures at once, in every view' '
	rm config &&
	cat >k.conf <<-\EOF &&
	id-map = ^(\w+)( .*)?$ => src/ui/\L$1\E.test.js
	EOF
	TIADASH_CONFIG=k.conf tiadash --db s.db --repo repo report $WINDOW --format json >k.json 2>err &&
	test_must_be_empty err &&
	json_close k.json "[d[\"classes\"][c] for c in (\"escape\", \"unresolved\", \"agree\")]" "[4, 0, 2]" &&
	json_close k.json "d[\"escapes\"][\"prs\"]" "[1, 2, 3, 4]" &&
	json_close k.json "[d[\"identity\"][k] for k in (\"failing_tests\", \"resolved\", \"unresolved\", \"quarantine_unresolved\")]" "[6, 6, [], 0]" &&
	TIADASH_CONFIG=k.conf tiadash --db s.db --repo repo status --format json >k-st.json &&
	json_close k-st.json "[d[\"identity\"][k] for k in (\"failing_tests\", \"resolved\", \"quarantine_unresolved\")]" "[6, 6, 0]" &&
	TIADASH_CONFIG=k.conf tiadash --db s.db --repo repo show 2 --format json >k2.json &&
	json_close k2.json "[d[\"class\"], d[\"missed\"]]" "[\"escape\", [\"$TOOLBAR::Toolbar renders\"]]" &&
	TIADASH_CONFIG=k.conf tiadash --db s.db --repo repo report $WINDOW --format csv >k.csv &&
	TIADASH_CONFIG=k.conf tiadash --db s.db --repo repo gate-check $WINDOW --min-pairs 1 --min-days 1 >k-g.txt;
	test_grep "^failing tests resolved  *>= 0.990  *1.000  PASS$" k-g.txt
'

test_expect_success 'a failed-test list by describe title is keyed again too' '
	mkdir l && cp -r runs/3 l/ &&
	sed -i "s|\"results\"|\"failed\": [\"Toolbar::Toolbar renders\"], \"results\"|" l/3/f/tiadash-run.json &&
	tiadash --db l.db --repo repo ingest l >out 2>err &&
	tiadash --db l.db --repo repo show 3 --format json >l3.json &&
	json_close l3.json "[d[\"class\"], d[\"runs\"][1][\"failed\"]]" "[\"unresolved\", [\"Toolbar::Toolbar renders\"]]" &&
	TIADASH_CONFIG=k.conf tiadash --db l.db --repo repo show 3 --format json >l3k.json &&
	json_close l3k.json "[d[\"class\"], d[\"missed\"], d[\"runs\"][1][\"failed\"]]" \
		"[\"escape\", [\"$TOOLBAR::Toolbar renders\"], [\"$TOOLBAR::Toolbar renders\"]]"
'

test_expect_success 'the dashboard draws the same keys: escapes under the rule, unresolved without' '
	steps "3" ":save-display rule.screen" &&
	TIADASH_CONFIG=k.conf TUI_DB=s.db TUI_REPO=repo tui $WINDOW &&
	assert_screen rule.screen <<-\EOF &&
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS  STATE     PR EVIDENCE
	escape new       #1 src/ui/toolbar.test.js::Toolbar renders
	escape new       #2 src/ui/toolbar.test.js::Toolbar renders
	escape new       #3 src/ui/toolbar.test.js::Toolbar renders
	escape new       #4 src/ui/toolbar.test.js::Toolbar renders
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	4 escapes, 0 non-hermetic, 0 over-strict, 0 flaky                       1/4   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	steps "3" ":save-display norule.screen" &&
	TUI_DB=s.db TUI_REPO=repo tui $WINDOW &&
	assert_screen norule.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS      STATE     PR EVIDENCE
	escape     new       #3 src/ui/toolbar.test.js::Toolbar renders
	escape     new       #4 src/ui/toolbar.test.js::Toolbar renders
	unresolved new       #1 a failing test names no test file
	unresolved new       #2 a failing test names no test file
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	2 escapes, 0 non-hermetic, 0 over-strict, 0 flaky, 2 unresolved         1/4   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success 'the rule taken away: the same failures are unresolved again' '
	tiadash --db s.db --repo repo report $WINDOW --format json >back.json 2>err &&
	test_must_be_empty err &&
	json_close back.json "[d[\"classes\"][c] for c in (\"escape\", \"unresolved\", \"agree\")]" "[2, 2, 2]" &&
	json_close back.json "d[\"identity\"][\"unresolved\"]" "[\"Toolbar renders::Toolbar renders\", \"Toolbar::Toolbar renders\"]" &&
	json_close back.json "d[\"identity\"][\"quarantine_unresolved\"]" "1"
'

test_expect_success 'away from the repository the keys stay, and a warning says why' '
	mkdir away &&
	(cd away && TIADASH_CONFIG=../k.conf tiadash --db ../s.db report $WINDOW --format json >../away.json 2>../err) &&
	test_grep "warning: store .*s.db.: 3 names were keyed under another id-map, and their runs. heads are not in a repository here: they keep their keys (give --repo)" err &&
	json_close away.json "[d[\"classes\"][c] for c in (\"escape\", \"unresolved\")]" "[2, 2]"
'

test_done
