#!/bin/bash
# The detail view: one change, the changed files with the rule each matched
# and their diff coverage, missed and selected tests, reasons and runs.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "detail of an escape at 80x24" '
	steps "3" "<Enter>" ":save-display detail.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen detail.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals  > detail
	PR #434  acme/ledger  head 8a1a2820ad6c  base 3895c06a2d09  2026-11-02 07:48
	class       escape
	state       new
	missed      tests/test_fx.py::test_rates_from_fixture
	main        read against main'"'"'s run at 3895c06a2d09: red there on 0 of its fail~
	selection   nothing (affected 0.000)
	diff cov    n/a
	changed     M tests/fixtures/fx_rates.json                                   n/a
	              no rule; force-full:**/fixtures/** (suggested: built-in)
	runs        shadow #1 pass  11-02 07:48   104 s 0 tests, 0 failed, 0 skipped
	            full #1   fail  11-02 07:49  1278 s 150 tests, 1 failed, 2 skipped
	              failed tests/test_fx.py::test_rates_from_fixture
	
	
	
	
	
	
	
	
	
	escape; > scrolls right                                                1/12   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "detail at 120x40 with diff coverage per file" '
	steps "3" "<Down>" "<Enter>" ":resize 120x40" ":save-display detail.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen detail.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals  > detail
	PR #437  acme/ledger  head c3a2c7c49e9d  base 0252dd859320  2026-11-02 10:22
	class       escape
	state       new
	missed      web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	inherited   tests/test_fx.py::test_rates_from_fixture
	main        read against main'"'"'s run at efe2f4a3e0bb: red there on 1 of its failures
	selection   selected, 1 of 150 tests (affected 0.007)
	diff cov    1.00 (1 of 1 changed executable lines run)
	changed     M web/src/config/flags.json                                                              (no rule)       n/a
	            M web/src/ui/form.js                                                                     (no rule)  1/1 100%
	runs        shadow #1 pass  11-02 10:22   114 s 1 tests, 0 failed, 0 skipped
	            full #1   fail  11-02 10:23  1167 s 150 tests, 2 failed, 2 skipped
	              failed tests/test_fx.py::test_rates_from_fixture
	              failed web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	selected    web/src/ui/__tests__/form.test.js::Form validates amount
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	escape                                                                                                         1/15   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "a force-full change shows its reasons" '
	steps "2" "/#417<Enter>" "<Enter>" ":save-view detail.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen detail.view <<-\EOF
	view detail
	lines 10
	cursor 0
	offset 0
	PR #417  acme/ledger  head 42689df390ff  base 7c5339b90589  2026-11-01 14:08
	class agree
	selection run_all, 150 of 150 tests (affected 1.000)
	reasons force-full:migrations/**
	diff cov 1.00 (5 of 5 changed executable lines run)
	changed M ledger/db/models.py 5/5 100%
	A migrations/0013_alter_column.sql n/a
	  no rule; force-full:**/migrations/** (suggested: built-in)
	runs shadow #1 pass 11-01 14:08 1600 s 150 tests, 0 failed, 4 skipped
	full #1 pass 11-01 14:09 1447 s 150 tests, 0 failed, 2 skipped
	EOF
'

test_expect_success "a non-hermetic change lists the selected failing tests" '
	steps "3" "/non-hermetic<Enter>" "<Enter>" ":save-view detail.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen detail.view <<-\EOF
	view detail
	lines 15
	cursor 0
	offset 0
	PR #612  acme/ledger  head 6059dcc7d27a  base 277992df5f66  2026-11-04 13:17
	class non-hermetic
	state unclosable (non-hermetic: the failing test was selected and passed in the shadow run)
	sel+failed tests/test_tax.py::test_vat_eu_standard_rate
	main read against main'"'"'s run at df1d004c20ee: red there on 0 of its failures
	selection selected, 5 of 150 tests (affected 0.033)
	diff cov 0.00 (0 of 7 changed executable lines run)
	changed M ledger/tax.py (no rule) 0/5 0%
	M web/src/api/client.js (no rule) 0/2 0%
	runs shadow #1 pass 11-04 13:17 128 s 5 tests, 0 failed, 0 skipped
	full #1 fail 11-04 13:18 1100 s 150 tests, 1 failed, 2 skipped
	  failed tests/test_tax.py::test_vat_eu_standard_rate
	selected tests/test_tax.py
	web/src/api/__tests__/client.test.js::client parses errors
	web/src/api/__tests__/client.test.js::client retries on 503
	EOF
'

test_expect_success "without --rules, the rules of the repository name a file's rule" '
	git clone -q "$SAMPLE/repo" own &&
	mkdir own/.tiadash &&
	printf "tests/fixtures/**\n" >own/.tiadash/rules &&
	steps "3" "<Enter>" ":save-view detail.view" &&
	TUI_REPO=own tui --since 2026-11-01 &&
	grep -A1 "^changed M tests/fixtures/fx_rates.json n/a$" detail.view >rule &&
	grep "^  force-full:tests/fixtures/\*\* (in effect: .tiadash/rules)$" rule
'

test_expect_success "a bad rules file of the repository is said once they are needed" '
	printf "select **\n" >own/.tiadash/rules &&
	steps "3" "<Enter>" ":save-display detail.screen" &&
	TUI_REPO=own test_expect_code 2 tui --since 2026-11-01 2>err &&
	grep "^changed     M tests/fixtures/fx_rates.json  *(no rule)  *n/a$" detail.screen &&
	test "$(tail -1 detail.screen | cut -c1-56)" = "cannot read the rules (see the messages after quitting)" &&
	grep -x "tiadash: error: .*/own/.tiadash/rules:1: .select \*\*. names no tests" err
'

test_done
