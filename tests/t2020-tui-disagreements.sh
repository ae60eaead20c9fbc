#!/bin/bash
# The disagreements view: escapes first, then non-hermetic, over-strict and
# flaky pairs, each new, explained (a note) or closed-by-glob (an accepted
# rule in the rules file now matches one of its changed paths).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "disagreements at 80x24" '
	steps "3" ":save-display disagree.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen disagree.screen <<-\EOF
	CLASS        STATE          DATE            PR HEAD     EVIDENCE
	escape       new            11-02 07:48   #434 8a1a2820 tests/test_fx.py::test_~
	escape       new            11-02 10:22   #437 c3a2c7c4 web/src/ui/__tests__/to~
	escape       new            11-02 20:06   #498 caa736cb tests/exports/test_pdf.~
	escape       new            11-03 10:52   #512 a947c8e5 tests/registry/test_plu~
	escape       new            11-03 17:18   #563 3126ce9b tests/registry/test_plu~
	escape       new            11-04 16:34   #630 e66ed4b5 tests/registry/test_plu~
	escape       new            11-04 16:48   #619 671ce02c web/src/ui/__tests__/to~
	escape       new            11-05 14:48   #674 148f67aa tests/registry/test_plu~
	escape       new            11-05 17:58   #688 81ace36a tests/test_fx.py::test_~
	escape       new            11-06 17:45   #762 2da16339 web/src/ui/__tests__/ch~
	non-hermetic new            11-04 13:17   #612 6059dcc7 selected: tests/test_ta~
	non-hermetic new            11-06 07:28   #702 0876fb1b selected: web/src/ui/__~
	non-hermetic new            11-06 09:01   #711 dc509028 selected: web/src/forma~
	over-strict  new            11-02 07:50   #428 eaa58ca5 shadow failed, full pas~
	over-strict  new            11-02 11:24   #456 950f5567 shadow failed, full pas~
	over-strict  new            11-03 12:18   #537 d4afe95d shadow failed, full pas~
	over-strict  new            11-06 11:15   #723 6c2f3fbb shadow failed, full pas~
	flaky        new            11-01 12:12   #413 2f67ac70 passed on a rerun
	flaky        new            11-01 14:08   #421 82eef7b5 passed on a rerun
	flaky        new            11-02 12:59   #466 01b53339 passed on a rerun
	flaky        new            11-02 15:02   #478 6943c16f passed on a rerun
	[disagreements] 10 escapes, 3 non-hermetic, 4 over-strict, 7 flaky     1/24   0%
	n explain  / filter  <Enter> open  q back  <Tab> views  ? help  r reload  u undo
	EOF
'

test_expect_success "disagreements at 120x40" '
	steps "3" ":resize 120x40" ":save-display disagree.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen disagree.screen <<-\EOF
	CLASS        STATE          DATE            PR HEAD     EVIDENCE
	escape       new            11-02 07:48   #434 8a1a2820 tests/test_fx.py::test_rates_from_fixture
	escape       new            11-02 10:22   #437 c3a2c7c4 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged act~
	escape       new            11-02 20:06   #498 caa736cb tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	escape       new            11-03 10:52   #512 a947c8e5 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new            11-03 17:18   #563 3126ce9b tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new            11-04 16:34   #630 e66ed4b5 tests/registry/test_plugins.py::test_vat_eu_registered
	escape       new            11-04 16:48   #619 671ce02c web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged act~
	escape       new            11-05 14:48   #674 148f67aa tests/registry/test_plugins.py::test_rounding_plugin_loaded
	escape       new            11-05 17:58   #688 81ace36a tests/test_fx.py::test_rates_from_fixture
	escape       new            11-06 17:45   #762 2da16339 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	non-hermetic new            11-04 13:17   #612 6059dcc7 selected: tests/test_tax.py::test_vat_eu_standard_rate
	non-hermetic new            11-06 07:28   #702 0876fb1b selected: web/src/ui/__tests__/form.test.js::Form submits entry
	non-hermetic new            11-06 09:01   #711 dc509028 selected: web/src/format/__tests__/money.test.js::formatMoney n~
	over-strict  new            11-02 07:50   #428 eaa58ca5 shadow failed, full passed
	over-strict  new            11-02 11:24   #456 950f5567 shadow failed, full passed
	over-strict  new            11-03 12:18   #537 d4afe95d shadow failed, full passed
	over-strict  new            11-06 11:15   #723 6c2f3fbb shadow failed, full passed
	flaky        new            11-01 12:12   #413 2f67ac70 passed on a rerun
	flaky        new            11-01 14:08   #421 82eef7b5 passed on a rerun
	flaky        new            11-02 12:59   #466 01b53339 passed on a rerun
	flaky        new            11-02 15:02   #478 6943c16f passed on a rerun
	flaky        new            11-02 22:18   #499 a9fe15e2 passed on a rerun
	flaky        new            11-06 11:09   #725 ef502c49 passed on a rerun
	flaky        new            11-06 12:09   #721 953be8fe passed on a rerun
	
	
	
	
	
	
	
	
	
	
	
	
	
	[disagreements] 10 escapes, 3 non-hermetic, 4 over-strict, 7 flaky                                             1/24   0%
	n explain  / filter  <Enter> open  q back  <Tab> views  ? help  r reload  u undo
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
	> escape new 11-02 07:48 #434 8a1a2820 tests/test_fx.py::test_rates_from_fixture
	  escape closed-by-glob 11-02 10:22 #437 c3a2c7c4 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions [web/src/config/**]
	  escape new 11-02 20:06 #498 caa736cb tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	  escape new 11-03 10:52 #512 a947c8e5 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new 11-03 17:18 #563 3126ce9b tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new 11-04 16:34 #630 e66ed4b5 tests/registry/test_plugins.py::test_vat_eu_registered
	  escape closed-by-glob 11-04 16:48 #619 671ce02c web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions [web/src/config/**]
	  escape new 11-05 14:48 #674 148f67aa tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new 11-05 17:58 #688 81ace36a tests/test_fx.py::test_rates_from_fixture
	  escape closed-by-glob 11-06 17:45 #762 2da16339 web/src/ui/__tests__/chart.test.js::Chart uses theme palette [web/src/config/**]
	EOF
'

test_expect_success "n explains an escape with a note kept in the store" '
	cp week.db notes.db &&
	steps "3" "<Down>" "n" "the fixture changed, see INC-7<Enter>" ":save-display explained.screen" ":save-view explained.view" &&
	TUI_DB="notes.db" tui --since 2026-11-01 --rules rules &&
	assert_screen explained.screen <<-\EOF &&
	CLASS        STATE          DATE            PR HEAD     EVIDENCE
	escape       new            11-02 07:48   #434 8a1a2820 tests/test_fx.py::test_~
	escape       explained      11-02 10:22   #437 c3a2c7c4 web/src/ui/__tests__/to~
	escape       new            11-02 20:06   #498 caa736cb tests/exports/test_pdf.~
	escape       new            11-03 10:52   #512 a947c8e5 tests/registry/test_plu~
	escape       new            11-03 17:18   #563 3126ce9b tests/registry/test_plu~
	escape       new            11-04 16:34   #630 e66ed4b5 tests/registry/test_plu~
	escape       new            11-04 16:48   #619 671ce02c web/src/ui/__tests__/to~
	escape       new            11-05 14:48   #674 148f67aa tests/registry/test_plu~
	escape       new            11-05 17:58   #688 81ace36a tests/test_fx.py::test_~
	escape       new            11-06 17:45   #762 2da16339 web/src/ui/__tests__/ch~
	non-hermetic new            11-04 13:17   #612 6059dcc7 selected: tests/test_ta~
	non-hermetic new            11-06 07:28   #702 0876fb1b selected: web/src/ui/__~
	non-hermetic new            11-06 09:01   #711 dc509028 selected: web/src/forma~
	over-strict  new            11-02 07:50   #428 eaa58ca5 shadow failed, full pas~
	over-strict  new            11-02 11:24   #456 950f5567 shadow failed, full pas~
	over-strict  new            11-03 12:18   #537 d4afe95d shadow failed, full pas~
	over-strict  new            11-06 11:15   #723 6c2f3fbb shadow failed, full pas~
	flaky        new            11-01 12:12   #413 2f67ac70 passed on a rerun
	flaky        new            11-01 14:08   #421 82eef7b5 passed on a rerun
	flaky        new            11-02 12:59   #466 01b53339 passed on a rerun
	flaky        new            11-02 15:02   #478 6943c16f passed on a rerun
	[disagreements] 10 escapes, 3 non-hermetic, 4 over-strict, 7 flaky     2/24   4%
	explained PR #437 (u undoes)
	EOF
	sqlite3 notes.db "SELECT h.pr, n.kind, n.text FROM note n JOIN head h ON h.id = n.head_id" >notes &&
	echo "437|explained|the fixture changed, see INC-7" >expect &&
	test_cmp expect notes &&
	grep "escape explained 11-02 10:22 #437" explained.view
'

test_expect_success "u undoes the explain of this session" '
	cp week.db undo.db &&
	steps "3" "n" "one note<Enter>" "u" ":save-display undone.screen" &&
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
	steps "3" "n" "   <Enter>" ":save-display empty.screen" &&
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
	CLASS        STATE          DATE            PR HEAD     EVIDENCE
	escape       new            11-03 10:52   #512 a947c8e5 tests/registry/test_plu~
	escape       new            11-03 17:18   #563 3126ce9b tests/registry/test_plu~
	escape       new            11-04 16:34   #630 e66ed4b5 tests/registry/test_plu~
	escape       new            11-05 14:48   #674 148f67aa tests/registry/test_plu~
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	[disagreements] 10 escapes, 3 non-hermetic, 4 over-strict, 7 flaky; fi~ 1/4   0%
	n explain  / filter  <Enter> open  q back  <Tab> views  ? help  r reload  u undo
	EOF
'

test_done
