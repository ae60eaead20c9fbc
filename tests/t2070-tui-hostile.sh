#!/bin/bash
# Untrusted strings on the dashboard: a test name with ESC [ 31 m and BEL (a
# failed list), C1 controls in a bare JUnit file, a changed path and a commit
# subject with control characters, a repo name and a reason with escapes.
# The screens show them escaped (\x1b), never as raw control bytes.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success 'setup: hostile names in a store' '
	MREPO_TESTS="$MREPO_DEFAULT_TESTS tests/c1.py tests/e.py tests/p.py" mrepo 3 &&
	git -C repo checkout -q pr2 &&
	printf "x = 1\n" >"repo/src/e$(printf "\033")[31mvil$(printf "\007").py" &&
	(cd repo && commit_at 2026-10-31T01:00:00Z "$(printf "subject \033[31m red \007 bell")") &&
	git -C repo rev-parse HEAD >heads.2 &&
	git -C repo checkout -q main &&
	MRUN_REPO="acme/\\u001b[31mevil\\u0007" mrun a/1s 1 shadow 1 2026-11-03T10:00:00Z 600 pass \
		"$(ffsel "force-full:\\u001b]0;pwned\\u0007**/*.lock")" tests/a.py::t &&
	MRUN_REPO="acme/\\u001b[31mevil\\u0007" mrun a/1f 1 full 1 2026-11-03T10:00:00Z 600 pass - tests/a.py::t &&
	mrun a/2s 2 shadow 1 2026-11-04T10:00:00Z 60 pass "$(sel selected 1 100 tests/a.py)" tests/a.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null &&
	printf "tests/e.py::x\033[31mred\007bell\n" >failed.txt &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(head_of 2)" --base "$(head_of base)" \
		--pr 2 --repo-name acme/x --started-at 2026-11-04T10:00:00Z --wall-clock 600 \
		--verdict fail --failed failed.txt >/dev/null &&
	mrun b/3s 3 shadow 1 2026-11-05T10:00:00Z 60 pass "$(sel selected 1 100 tests/a.py)" tests/a.py::t &&
	tiadash --db s.db --repo repo ingest b >/dev/null &&
	printf "%s\n" "<?xml version=\"1.0\"?>" \
		"<testsuite name=\"s\"><testcase file=\"tests/c1.py\" name=\"x&#x9b;31mred&#x85;&#x202e;\">" \
		"<failure message=\"m\"/></testcase></testsuite>" >c1.xml &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(head_of 3)" --base "$(head_of base)" \
		--pr 3 --repo-name acme/x --started-at 2026-11-05T10:00:00Z --wall-clock 600 c1.xml >/dev/null &&
	: >rules
'

test_expect_success 'the runs view escapes the repo name' '
	steps "2" ":resize 120x10" ":save-display runs.screen" &&
	TUI_DB=s.db TUI_REPO=repo tui --rules rules &&
	no_control runs.screen &&
	assert_screen runs.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV VERDICTS    REPO                  REASONS
	11-03 10:00     #1 20cdf09 agree        run_all  1.000  600 s  600 s   n/a pass/pass   acme/\x1b[31mevil\x07 force-full~
	11-04 10:00     #2 9b75f88 escape       selected 0.010   60 s  600 s   n/a pass/fail   acme/x
	11-05 10:00     #3 99b7a85 escape       selected 0.010   60 s  600 s   n/a pass/fail   acme/x
	
	
	
	sorted by date, ascending; > scrolls right                                                                      1/3   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success 'the disagreements view escapes the missed tests' '
	steps "3" ":resize 120x10" ":save-display disagree.screen" &&
	TUI_DB=s.db TUI_REPO=repo tui --rules rules &&
	no_control disagree.screen &&
	assert_screen disagree.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS  STATE DATE            PR HEAD    EVIDENCE
	escape new   11-04 10:00     #2 9b75f88 tests/e.py::x\x1b[31mred\x07bell
	escape new   11-05 10:00     #3 99b7a85 tests/c1.py::x\xc2\x9b31mred\xc2\x85\xe2\x80\xae
	
	
	
	
	2 escapes, 0 non-hermetic, 0 over-strict, 0 flaky                                                               1/2   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success 'the detail view escapes changed paths and failing tests' '
	steps "3" "<Enter>" ":resize 100x16" ":save-display detail.screen" &&
	TUI_DB=s.db TUI_REPO=repo tui --rules rules &&
	no_control detail.screen &&
	assert_screen detail.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals  > detail
	PR #2  acme/x  head 9b75f88f0cf9  base 6863aee17c26  2026-11-04 10:00
	class       escape
	state       new
	missed      tests/e.py::x\x1b[31mred\x07bell
	main        no run of main covers its base: record main'"'"'s post-merge runs
	selection   selected, 1 of 100 tests (affected 0.010)
	diff cov    n/a
	changed     A src/e\x1b[31mvil\x07.py                                            (no rule)       n/a
	            A src/p2.py                                                          (no rule)       n/a
	runs        shadow #1 pass  11-04 10:00    60 s 1 tests, 0 failed, 0 skipped
	            full #1   fail  11-04 10:00   600 s 0 tests, 1 failed, 0 skipped
	              failed tests/e.py::x\x1b[31mred\x07bell
	selected    tests/a.py
	escape                                                                                     1/13   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success 'the tests view and a test'"'"'s history escape the test ids' '
	steps "t" ":resize 100x10" ":save-display tests.screen" ":save-view tests.view" \
		"<Enter>" ":save-display test.screen" ":save-view test.view" &&
	TUI_DB=s.db TUI_REPO=repo tui --rules rules &&
	for f in tests.screen tests.view test.screen test.view; do
		no_control $f || return 1
	done &&
	assert_screen tests.screen <<-\EOF &&
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	MISSED FAILED INHER FLAKY QUAR SELECT RAN * FIRST SEEN LAST SEEN  TEST
	     1      1     0     0    0      0   1   2026-11-05 2026-11-05 tests/c1.py::x\xc2\x9b31mred\xc2\~
	     1      1     0     0    0      0   0   2026-11-04 2026-11-04 tests/e.py::x\x1b[31mred\x07bell
	     0      0     0     0    0      1   1   2026-11-03 2026-11-03 tests/a.py::t
	
	
	
	3 tests over 3 pairs; 0 to unquarantine (*); > scrolls right                                1/3   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	assert_screen test.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > test
	tests/c1.py::x\xc2\x9b31mred\xc2\x85\xe2\x80\xae
	ran 1, selected 0, failed 1, missed 1, inherited 0, flaky 0, quarantined 0
	
	WHEN                 PR HEAD    CLASS        OUTCOME     SELECTED
	2026-11-05 10:00     #3 99b7a85 escape       missed      no
	
	
	1 run in its history; Enter on one opens its change                                         1/5   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success 'the overview escapes force-full reasons; every dump is clean' '
	steps ":save-display overview.screen" ":save-attrs overview.attrs" ":save-view overview.view" \
		"4" ":save-display proposals.screen" ":save-view proposals.view" &&
	TUI_DB=s.db TUI_REPO=repo tui --rules rules &&
	for f in overview.screen overview.attrs overview.view proposals.screen proposals.view; do
		no_control $f || return 1
	done &&
	test_grep "force-full:\\\\x1b\]0;pwned\\\\x07\*\*/\*.lock" overview.screen
'

test_done
