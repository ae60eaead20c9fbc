#!/bin/bash
# Enter goes where the line points: a gate-check criterion to what it
# counts, a force-full reason to the runs it forced, a test to the
# disagreements that name it, a changed path to the preview of its glob, a
# preview's change to its detail; # and :N jump to a PR; e and a agree on
# lines that hold no glob; x explains the same way in every view.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

# first N FILE: the first N lines of a :save-view (its header and rows).
first() {
	head -n "$1" "$2"
}

test_expect_success "the unexplained-escapes criterion opens those escapes; q comes back" '
	steps "/unexplained escapes<Enter>" "<Enter>" ":save-display crit.screen" "q" ":save-view back.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen crit.screen <<-\EOF &&
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
	
	
	
	
	
	
	
	13 of 19 match /^(escape|non-hermetic) (?!explained)/; > scrolls right 1/13   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	first 1 back.view >actual && echo "view overview" >expect && test_cmp expect actual
'

test_expect_success "a force-full reason opens the runs it forced (as many as it says)" '
	steps "/UNMAPPED<Enter>" "<Enter>" ":save-view runs.view" &&
	tui --since 2026-11-01 --rules rules &&
	first 6 runs.view >actual &&
	cat >expect <<-\EOF &&
	view runs
	lines 15
	cursor 0
	offset 0
	sort date asc
	filter \QUNMAPPED_FILE\E
	EOF
	test_cmp expect actual &&
	test "$(grep -c "UNMAPPED_FILE" runs.view)" = 16
'

test_expect_success "a figure opens the runs sorted by it" '
	steps "/^Diff cov<Enter>" "<Enter>" ":save-view dc.view" "1" "/^Wall-clock<Enter>" "<Enter>" ":save-view wall.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 5,7p dc.view >actual &&
	printf "sort diff-coverage asc\nfilter -\n> 11-02 11:24 #454 7cb180a inherited selected 0.040 141 s 1387 s 0.00 pass/fail acme/ledger\n" >expect &&
	test_cmp expect actual &&
	sed -n 5,6p wall.view >actual &&
	printf "sort shadow desc\nfilter -\n" >expect &&
	test_cmp expect actual
'

test_expect_success "in the detail: a missed test opens the disagreements that name it" '
	steps ":434" "/^missed<Enter>" "<Enter>" ":save-view test.view" "q" ":save-view back.view" &&
	tui --since 2026-11-01 --rules rules &&
	cat >expect <<-\EOF &&
	view disagreements
	lines 2
	cursor 0
	offset 0
	filter \Qtests/test_fx.py::test_rates_from_fixture\E
	> escape new #434 tests/test_fx.py::test_rates_from_fixture
	  escape new #688 tests/test_fx.py::test_rates_from_fixture
	EOF
	test_cmp expect test.view &&
	first 1 back.view >actual && echo "view detail" >expect && test_cmp expect actual
'

test_expect_success "in the detail: a reason opens its runs, a changed path the preview of its glob" '
	steps ":417" "/^reasons<Enter>" "<Enter>" ":save-view reason.view" "q" \
	      "/^changed<Enter>" "<Enter>" ":save-view path.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 6p reason.view >actual &&
	echo "filter \\Qforce-full:migrations/**\\E" >expect && test_cmp expect actual &&
	sed -n 1,6p path.view >actual &&
	cat >expect <<-\EOF &&
	view proposals
	lines 19
	cursor 0
	offset 0
	mode preview
	preview ledger/db/models.py
	EOF
	test_cmp expect actual
'

test_expect_success "a change in the preview opens its detail" '
	steps "4" "/flags.json<Enter>" "<Enter>" "G" "<Enter>" ":save-display change.screen" &&
	tui --since 2026-11-01 --rules rules &&
	head -n 3 change.screen >actual &&
	cat >expect <<-\EOF &&
	 1 overview   2 runs   3 disagreements  [4 proposals] > detail
	PR #619  acme/ledger  head 671ce02c8694  base 3b71e69bc044  2026-11-04 16:48
	class       escape
	EOF
	test_cmp expect actual
'

test_expect_success "lines that point nowhere say so" '
	steps "<Enter>" ":save-display none.screen" &&
	tui --since 2026-11-01 --rules rules &&
	tail -n 1 none.screen >actual &&
	echo "nothing to open on this line" >expect && test_cmp expect actual
'

test_expect_success "# and :N jump to a PR (or a commit); an unknown one is said so" '
	steps "#" "437<Enter>" ":save-view a.view" "q" ":#762" ":save-view b.view" "q" ":2f67ac7" ":save-view c.view" \
	      "#99999<Enter>" ":save-display d.screen" &&
	tui --since 2026-11-01 --rules rules &&
	for v in a b c; do sed -n 5p $v.view; done >actual &&
	cat >expect <<-\EOF &&
	PR #437  acme/ledger  head c3a2c7c49e9d  base 0252dd859320  2026-11-02 10:22
	PR #762  acme/ledger  head 2da16339c978  base 6d953533f2de  2026-11-06 17:45
	PR #413  acme/ledger  head 2f67ac70bf95  base 3554a4ea71c0  2026-11-01 12:12
	EOF
	test_cmp expect actual &&
	tail -n 1 d.screen >actual &&
	echo "no pull request or commit '"'"'99999'"'"' in the store" >expect && test_cmp expect actual
'

test_expect_success "e and a agree on a line without a glob; e edits an escape's path" '
	steps "4" "e" ":save-display e.screen" "a" ":save-display a.screen" \
	      "/^ *#437<Enter>" "e" "<Enter>" ":save-view esc.view" &&
	tui --since 2026-11-01 --rules rules &&
	tail -n 1 e.screen >e.last && tail -n 1 a.screen >a.last &&
	echo "select a glob (or an escape) first: e edits it, a accepts it" >expect &&
	test_cmp expect e.last && test_cmp expect a.last &&
	sed -n 5,6p esc.view >actual &&
	printf "mode preview\npreview web/src/config/flags.json\n" >expect &&
	test_cmp expect actual
'

test_expect_success "x explains a flaky pair the same in the detail and the disagreements" '
	cp week.db a.db && cp week.db b.db &&
	steps ":721" "x" "a flake, see INC-9<Enter>" ":save-display detail.screen" &&
	TUI_DB=a.db tui --since 2026-11-01 --rules rules &&
	steps "3" "/#721<Enter>" "x" "a flake, see INC-9<Enter>" ":save-view dis.view" &&
	TUI_DB=b.db tui --since 2026-11-01 --rules rules &&
	tail -n 1 detail.screen >actual &&
	echo "explained PR #721 (u undoes)" >expect && test_cmp expect actual &&
	test_grep "^state       explained$" detail.screen &&
	test_grep "^> flaky explained #721 passed on a rerun$" dis.view &&
	for db in a b; do sqlite3 $db.db "SELECT h.pr, n.text FROM note n JOIN head h ON h.id = n.head_id"; done >notes &&
	printf "721|a flake, see INC-9\n721|a flake, see INC-9\n" >expect && test_cmp expect notes
'

test_expect_success "x on an agreeing pair is refused the same way everywhere" '
	steps ":412" "x" ":save-display d.screen" "2" "x" ":save-display r.screen" &&
	tui --since 2026-11-01 --rules rules &&
	tail -n 1 d.screen >d.last && tail -n 1 r.screen >r.last &&
	echo "PR #412 is agree: only disagreements are explained" >expect &&
	test_cmp expect d.last && test_cmp expect r.last
'

test_done
