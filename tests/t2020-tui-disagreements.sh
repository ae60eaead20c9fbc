#!/bin/bash
# The disagreements view: escapes first, then non-hermetic, over-strict and
# flaky pairs, each in its state: new, unclosable, closed-by-rules (a rule
# in effect now matches one of its changed paths) or explained (a note).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "disagreements at 80x24" '
	steps "3" ":save-display disagree.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen disagree.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS        STATE          PR EVIDENCE
	escape       new          #434 tests/test_fx.py::test_rates_from_fixture
	escape       new          #437 web/src/ui/__tests__/toolbar.test.js::Toolbar hi~
	escape       new          #498 tests/exports/test_pdf.py::test_invoice_fixture_~
	escape       new          #512 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #563 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #630 tests/registry/test_plugins.py::test_vat_eu_regi~
	escape       new          #619 web/src/ui/__tests__/toolbar.test.js::Toolbar hi~
	escape       new          #674 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #688 tests/test_fx.py::test_rates_from_fixture
	escape       new          #762 web/src/ui/__tests__/chart.test.js::Chart uses t~
	non-hermetic unclosable   #612 selected: tests/test_tax.py::test_vat_eu_standar~
	non-hermetic unclosable   #702 selected: web/src/ui/__tests__/form.test.js::For~
	non-hermetic unclosable   #711 selected: web/src/format/__tests__/money.test.js~
	over-strict  new          #428 shadow failed, full passed
	over-strict  new          #537 shadow failed, full passed
	over-strict  new          #723 shadow failed, full passed
	flaky        new          #421 passed on a rerun
	flaky        new          #725 passed on a rerun
	flaky        new          #721 passed on a rerun
	
	10 escapes, 3 non-hermetic, 3 over-strict, 3 flaky; > scrolls right    1/19   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "disagreements at 80x24: > scrolls to the whole ids" '
	steps "3" ">" ":save-display right.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen right.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	R EVIDENCE
	4 tests/test_fx.py::test_rates_from_fixture
	7 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	8 tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	2 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	3 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	0 tests/registry/test_plugins.py::test_vat_eu_registered
	9 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	4 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	8 tests/test_fx.py::test_rates_from_fixture
	2 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	2 selected: tests/test_tax.py::test_vat_eu_standard_rate
	2 selected: web/src/ui/__tests__/form.test.js::Form submits entry
	1 selected: web/src/format/__tests__/money.test.js::formatMoney negative amounts
	8 shadow failed, full passed
	7 shadow failed, full passed
	3 shadow failed, full passed
	1 passed on a rerun
	5 passed on a rerun
	1 passed on a rerun
	
	10 escapes, 3 non-hermetic, 3 over-strict, 3 flaky; from column 30     1/19   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "disagreements at 120x40" '
	steps "3" ":resize 120x40" ":save-display disagree.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen disagree.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS        STATE      DATE            PR HEAD    EVIDENCE
	escape       new        11-02 07:48   #434 8a1a282 tests/test_fx.py::test_rates_from_fixture
	escape       new        11-02 10:22   #437 c3a2c7c web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	escape       new        11-02 20:06   #498 caa736c tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	escape       new        11-03 10:52   #512 a947c8e tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new        11-03 17:18   #563 3126ce9 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new        11-04 16:34   #630 e66ed4b tests/registry/test_plugins.py::test_vat_eu_registered
	escape       new        11-04 16:48   #619 671ce02 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	escape       new        11-05 14:48   #674 148f67a tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new        11-05 17:58   #688 81ace36 tests/test_fx.py::test_rates_from_fixture
	escape       new        11-06 17:45   #762 2da1633 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	non-hermetic unclosable 11-04 13:17   #612 6059dcc selected: tests/test_tax.py::test_vat_eu_standard_rate
	non-hermetic unclosable 11-06 07:28   #702 0876fb1 selected: web/src/ui/__tests__/form.test.js::Form submits entry
	non-hermetic unclosable 11-06 09:01   #711 dc50902 selected: web/src/format/__tests__/money.test.js::formatMoney negati~
	over-strict  new        11-02 07:50   #428 eaa58ca shadow failed, full passed
	over-strict  new        11-03 12:18   #537 d4afe95 shadow failed, full passed
	over-strict  new        11-06 11:15   #723 6c2f3fb shadow failed, full passed
	flaky        new        11-01 14:08   #421 82eef7b passed on a rerun
	flaky        new        11-06 11:09   #725 ef502c4 passed on a rerun
	flaky        new        11-06 12:09   #721 953be8f passed on a rerun
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	10 escapes, 3 non-hermetic, 3 over-strict, 3 flaky; > scrolls right                                            1/19   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "an accepted glob in the rules file closes the escapes it matches" '
	printf "# accepted earlier\nweb/src/config/**\n" >closing.rules &&
	steps "3" "/escape<Enter>" ":save-view closed.view" &&
	tui --since 2026-11-01 --rules closing.rules &&
	assert_screen closed.view <<-\EOF
	view disagreements
	lines 10
	cursor 0
	offset 0
	filter escape
	> escape new #434 tests/test_fx.py::test_rates_from_fixture
	  escape closed-by-rules #437 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions [force-full:web/src/config/**]
	  escape new #498 tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	  escape new #512 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #563 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #630 tests/registry/test_plugins.py::test_vat_eu_registered
	  escape closed-by-rules #619 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions [force-full:web/src/config/**]
	  escape new #674 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #688 tests/test_fx.py::test_rates_from_fixture
	  escape closed-by-rules #762 web/src/ui/__tests__/chart.test.js::Chart uses theme palette [force-full:web/src/config/**]
	EOF
'

test_expect_success "x explains an escape with a note kept in the store" '
	cp week.db notes.db &&
	steps "3" "<Down>" "x" "the fixture changed, see INC-7<Enter>" ":save-display explained.screen" ":save-view explained.view" &&
	TUI_DB="notes.db" tui --since 2026-11-01 --rules rules &&
	assert_screen explained.screen <<-\EOF &&
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS        STATE          PR EVIDENCE
	escape       new          #434 tests/test_fx.py::test_rates_from_fixture
	escape       explained    #437 web/src/ui/__tests__/toolbar.test.js::Toolbar hi~
	escape       new          #498 tests/exports/test_pdf.py::test_invoice_fixture_~
	escape       new          #512 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #563 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #630 tests/registry/test_plugins.py::test_vat_eu_regi~
	escape       new          #619 web/src/ui/__tests__/toolbar.test.js::Toolbar hi~
	escape       new          #674 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #688 tests/test_fx.py::test_rates_from_fixture
	escape       new          #762 web/src/ui/__tests__/chart.test.js::Chart uses t~
	non-hermetic unclosable   #612 selected: tests/test_tax.py::test_vat_eu_standar~
	non-hermetic unclosable   #702 selected: web/src/ui/__tests__/form.test.js::For~
	non-hermetic unclosable   #711 selected: web/src/format/__tests__/money.test.js~
	over-strict  new          #428 shadow failed, full passed
	over-strict  new          #537 shadow failed, full passed
	over-strict  new          #723 shadow failed, full passed
	flaky        new          #421 passed on a rerun
	flaky        new          #725 passed on a rerun
	flaky        new          #721 passed on a rerun
	
	10 escapes, 3 non-hermetic, 3 over-strict, 3 flaky; > scrolls right    2/19   5%
	explained PR #437 (u undoes)
	EOF
	sqlite3 notes.db "SELECT h.pr, n.kind, n.text FROM note n JOIN head h ON h.id = n.head_id" >notes &&
	echo "437|explained|the fixture changed, see INC-7" >expect &&
	test_cmp expect notes &&
	grep "escape explained #437" explained.view
'

test_expect_success "u undoes the explain of this session" '
	cp week.db undo.db &&
	steps "3" "x" "one note<Enter>" "u" ":save-display undone.screen" &&
	TUI_DB="undo.db" tui --since 2026-11-01 --rules rules &&
	sqlite3 undo.db "SELECT count(*) FROM note WHERE text = '"'"'one note'"'"'" >count &&
	echo 0 >expect &&
	test_cmp expect count &&
	tail -1 undone.screen >last &&
	echo "undone: explained PR #434" >expect &&
	test_cmp expect last
'

test_expect_success "an empty note stores nothing" '
	cp week.db empty.db &&
	steps "3" "x" "   <Enter>" ":save-display empty.screen" &&
	TUI_DB="empty.db" tui --since 2026-11-01 --rules rules &&
	tail -1 empty.screen >last &&
	echo "an empty note explains nothing: none stored" >expect &&
	test_cmp expect last &&
	sqlite3 empty.db "SELECT count(*) FROM note" >count && echo 0 >expect && test_cmp expect count
'

test_expect_success "/ filters the disagreements" '
	steps "3" "/registry<Enter>" ":save-display filtered.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen filtered.screen <<-\EOF
	 1 overview   2 runs  [3 disagreements]  4 proposals
	CLASS        STATE          PR EVIDENCE
	escape       new          #512 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #563 tests/registry/test_plugins.py::test_rounding_pl~
	escape       new          #630 tests/registry/test_plugins.py::test_vat_eu_regi~
	escape       new          #674 tests/registry/test_plugins.py::test_rounding_pl~
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	4 of 19 match /registry/; > scrolls right                               1/4   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_done
