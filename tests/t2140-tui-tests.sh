#!/bin/bash
# The tests view (t, :view tests): the per-test records of `tiadash tests`
# over the dashboard's window, most missed first, the unquarantine
# candidates marked *, whole columns only and > to the ends of the ids;
# Enter opens one test's history (`tests --id`), and Enter there a change.
# Every figure on the screens equals `tiadash tests --format json`.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

WINDOW="--since 2026-11-01 --until 2026-11-08 --green 3"

test_expect_success "setup: the sample week and its records as json" '
	tui_week && : >rules &&
	tiadash --db week.db tests $WINDOW --format json >tests.json &&
	jq -e ".pairs == 295 and (.tests | length) == 148" tests.json &&
	jq -e ".unquarantine.tests == [\"ledger_io::concurrent_append\",
		\"tests/api/test_routes.py::test_rate_limit_window\"]" tests.json
'

# The view'\''s lines as :save-view writes them, without the cursor mark.
view_lines() {
	sed -n "/^filter /,\$p" "$1" | tail -n +2 | cut -c3-
}

test_expect_success "every row of the view equals tiadash tests --format json" '
	steps ":resize 200x50" "t" ":save-view tests.view" &&
	tui $WINDOW --rules rules &&
	view_lines tests.view >actual &&
	jq -r ".unquarantine.tests as \$u | .tests[] |
		\"\(.missed) \(.failed) \(.inherited) \(.flaky) \(.quarantined) \(.selected) \(.ran) \" +
		(if (.id as \$i | any(\$u[]; . == \$i)) then \"*\" else \"\" end) +
		\" \(.first_seen[:10]) \(.last_seen[:10]) \(.id)\"" tests.json >expect &&
	test "$(wc -l <actual)" = 148 &&
	test_cmp expect actual
'

test_expect_success "tests at 80x24: the first-seen date gives way to the ids" '
	steps "t" ":save-display tests80.screen" &&
	tui $WINDOW --rules rules &&
	assert_screen tests80.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	MISSED FAILED INHER FLAKY QUAR SELECT RAN * LAST SEEN  TEST
	     3      3     0     0    0     92 296   2026-11-07 tests/registry/test_plug~
	     2     37    35     0    0     99 296   2026-11-07 tests/test_fx.py::test_r~
	     2      2     0     0    0     93 296   2026-11-07 web/src/ui/__tests__/too~
	     1      2     0     0    0     96 296   2026-11-07 tests/exports/test_pdf.p~
	     1      1     0     0    0     91 296   2026-11-07 tests/registry/test_plug~
	     1      1     0     0    0     98 296   2026-11-07 tests/reports/test_aging~
	     1      1     0     0    0     94 296   2026-11-07 web/src/ui/__tests__/cha~
	     0      2     0     0    0    105 296   2026-11-07 tests/test_tax.py::test_~
	     0      1     0     0    0     94 296   2026-11-07 fx::rejects_stale
	     0      1     0     0    0     97 296   2026-11-07 journal::posts
	     0      1     0     0    1     99 296 * 2026-11-07 ledger_io::concurrent_ap~
	     0      1     0     0    0     95 296   2026-11-07 money::adds
	     0      1     0     0    0     99 296 * 2026-11-07 tests/api/test_routes.py~
	     0      1     0     0    0     97 296   2026-11-07 tests/imports/test_bank.~
	     0      1     0     0    0     94 296   2026-11-07 tests/imports/test_camt.~
	     0      1     0     0    0     92 296   2026-11-07 tests/test_currency.py::~
	     0      1     0     0    0     99 296   2026-11-07 tests/test_fx.py::test_s~
	     0      1     0     0    0    105 296   2026-11-07 tests/test_journal.py::t~
	     0      1     0     0    0    107 296   2026-11-07 tests/test_tax.py::test_~
	     0      1     0     0    0     97 296   2026-11-07 web/src/format/__tests__~
	148 tests over 295 pairs (297 full runs); 2 to unquarantine (*); > s~ 1/148   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "tests at 80x24: > scrolls to the ends of the ids" '
	steps "t" ">" ":save-display right.screen" &&
	tui $WINDOW --rules rules &&
	assert_screen right.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	N * LAST SEEN  TEST
	6   2026-11-07 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	6   2026-11-07 tests/test_fx.py::test_rates_from_fixture
	6   2026-11-07 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged acti~
	6   2026-11-07 tests/exports/test_pdf.py::test_invoice_fixture_renders
	6   2026-11-07 tests/registry/test_plugins.py::test_vat_eu_registered
	6   2026-11-07 tests/reports/test_aging.py::test_aging_buckets_fixture
	6   2026-11-07 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	6   2026-11-07 tests/test_tax.py::test_vat_eu_standard_rate
	6   2026-11-07 fx::rejects_stale
	6   2026-11-07 journal::posts
	6 * 2026-11-07 ledger_io::concurrent_append
	6   2026-11-07 money::adds
	6 * 2026-11-07 tests/api/test_routes.py::test_rate_limit_window
	6   2026-11-07 tests/imports/test_bank.py::test_rows_from_fixture
	6   2026-11-07 tests/imports/test_camt.py::test_parse_camt053_fixture
	6   2026-11-07 tests/test_currency.py::test_iso_codes
	6   2026-11-07 tests/test_fx.py::test_stale_rate_warning
	6   2026-11-07 tests/test_journal.py::test_reject_unbalanced_entry
	6   2026-11-07 tests/test_tax.py::test_rates_table_matches_fixture
	6   2026-11-07 web/src/format/__tests__/money.test.js::formatMoney negative amo~
	148 tests over 295 pairs (297 full runs); 2 to unquarantine (*); fro~ 1/148   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "tests at 100x30, from :view tests, with the first-seen dates" '
	steps ":resize 100x30" ":view tests" ":save-display tests100.screen" &&
	tui $WINDOW --rules rules &&
	assert_screen tests100.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	MISSED FAILED INHER FLAKY QUAR SELECT RAN * FIRST SEEN LAST SEEN  TEST
	     3      3     0     0    0     92 296   2026-11-01 2026-11-07 tests/registry/test_plugins.py::t~
	     2     37    35     0    0     99 296   2026-11-01 2026-11-07 tests/test_fx.py::test_rates_from~
	     2      2     0     0    0     93 296   2026-11-01 2026-11-07 web/src/ui/__tests__/toolbar.test~
	     1      2     0     0    0     96 296   2026-11-01 2026-11-07 tests/exports/test_pdf.py::test_i~
	     1      1     0     0    0     91 296   2026-11-01 2026-11-07 tests/registry/test_plugins.py::t~
	     1      1     0     0    0     98 296   2026-11-01 2026-11-07 tests/reports/test_aging.py::test~
	     1      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/chart.test.j~
	     0      2     0     0    0    105 296   2026-11-01 2026-11-07 tests/test_tax.py::test_vat_eu_st~
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 fx::rejects_stale
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 journal::posts
	     0      1     0     0    1     99 296 * 2026-11-01 2026-11-07 ledger_io::concurrent_append
	     0      1     0     0    0     95 296   2026-11-01 2026-11-07 money::adds
	     0      1     0     0    0     99 296 * 2026-11-01 2026-11-07 tests/api/test_routes.py::test_ra~
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 tests/imports/test_bank.py::test_~
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 tests/imports/test_camt.py::test_~
	     0      1     0     0    0     92 296   2026-11-01 2026-11-07 tests/test_currency.py::test_iso_~
	     0      1     0     0    0     99 296   2026-11-01 2026-11-07 tests/test_fx.py::test_stale_rate~
	     0      1     0     0    0    105 296   2026-11-01 2026-11-07 tests/test_journal.py::test_rejec~
	     0      1     0     0    0    107 296   2026-11-01 2026-11-07 tests/test_tax.py::test_rates_tab~
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 web/src/format/__tests__/money.te~
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/pages/__tests__/journal.t~
	     0      1     0     0    0    100 296   2026-11-01 2026-11-07 web/src/pages/__tests__/settings.~
	     0      1     0     0    1     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/chart.test.j~
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/form.test.js~
	     0      0     0     0    0     97 296   2026-11-01 2026-11-07 alloc::aligns
	     0      0     0     0    0     97 296   2026-11-01 2026-11-07 alloc::arena_grows
	148 tests over 295 pairs (297 full runs); 2 to unquarantine (*); > scrolls right          1/148   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "tests at 200x50" '
	steps ":resize 200x50" "t" ":save-display tests200.screen" &&
	tui $WINDOW --rules rules &&
	assert_screen tests200.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	MISSED FAILED INHER FLAKY QUAR SELECT RAN * FIRST SEEN LAST SEEN  TEST
	     3      3     0     0    0     92 296   2026-11-01 2026-11-07 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	     2     37    35     0    0     99 296   2026-11-01 2026-11-07 tests/test_fx.py::test_rates_from_fixture
	     2      2     0     0    0     93 296   2026-11-01 2026-11-07 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	     1      2     0     0    0     96 296   2026-11-01 2026-11-07 tests/exports/test_pdf.py::test_invoice_fixture_renders
	     1      1     0     0    0     91 296   2026-11-01 2026-11-07 tests/registry/test_plugins.py::test_vat_eu_registered
	     1      1     0     0    0     98 296   2026-11-01 2026-11-07 tests/reports/test_aging.py::test_aging_buckets_fixture
	     1      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	     0      2     0     0    0    105 296   2026-11-01 2026-11-07 tests/test_tax.py::test_vat_eu_standard_rate
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 fx::rejects_stale
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 journal::posts
	     0      1     0     0    1     99 296 * 2026-11-01 2026-11-07 ledger_io::concurrent_append
	     0      1     0     0    0     95 296   2026-11-01 2026-11-07 money::adds
	     0      1     0     0    0     99 296 * 2026-11-01 2026-11-07 tests/api/test_routes.py::test_rate_limit_window
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 tests/imports/test_bank.py::test_rows_from_fixture
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 tests/imports/test_camt.py::test_parse_camt053_fixture
	     0      1     0     0    0     92 296   2026-11-01 2026-11-07 tests/test_currency.py::test_iso_codes
	     0      1     0     0    0     99 296   2026-11-01 2026-11-07 tests/test_fx.py::test_stale_rate_warning
	     0      1     0     0    0    105 296   2026-11-01 2026-11-07 tests/test_journal.py::test_reject_unbalanced_entry
	     0      1     0     0    0    107 296   2026-11-01 2026-11-07 tests/test_tax.py::test_rates_table_matches_fixture
	     0      1     0     0    0     97 296   2026-11-01 2026-11-07 web/src/format/__tests__/money.test.js::formatMoney negative amounts
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/pages/__tests__/journal.test.js::Journal page posts entry
	     0      1     0     0    0    100 296   2026-11-01 2026-11-07 web/src/pages/__tests__/settings.test.js::Settings page saves
	     0      1     0     0    1     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/chart.test.js::Chart animates on resize
	     0      1     0     0    0     94 296   2026-11-01 2026-11-07 web/src/ui/__tests__/form.test.js::Form submits entry
	     0      0     0     0    0     97 296   2026-11-01 2026-11-07 alloc::aligns
	     0      0     0     0    0     97 296   2026-11-01 2026-11-07 alloc::arena_grows
	     0      0     0     0    0     96 296   2026-11-01 2026-11-07 alloc::arena_resets
	     0      0     0     0    0     97 296   2026-11-01 2026-11-07 alloc::rejects_huge
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 csv_writer::escapes_newlines
	     0      0     0     0    0     96 296   2026-11-01 2026-11-07 csv_writer::flushes
	     0      0     0     0    0     94 296   2026-11-01 2026-11-07 csv_writer::quotes_fields
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 csv_writer::writes_header
	     0      0     0     0    0     93 296   2026-11-01 2026-11-07 fx::caches_rates
	     0      0     0     0    0     93 296   2026-11-01 2026-11-07 fx::converts
	     0      0     0     0    0     93 296   2026-11-01 2026-11-07 fx::inverts
	     0      0     0     0    0     94 296   2026-11-01 2026-11-07 fx::rounds_cross_rate
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 hash::deletes
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 hash::finds
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 hash::inserts
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 hash::iterates_in_order
	     0      0     0     1    0     95 296   2026-11-01 2026-11-07 hash::resize_under_load
	     0      0     0     0    0     96 296   2026-11-01 2026-11-07 journal::closes_period
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 journal::iterates
	     0      0     0     0    0     96 296   2026-11-01 2026-11-07 journal::rejects_unbalanced
	     0      0     0     0    0     95 296   2026-11-01 2026-11-07 journal::reverses
	     0      0     0     0    0     98 296   2026-11-01 2026-11-07 ledger_io::appends
	148 tests over 295 pairs (297 full runs); 2 to unquarantine (*)                                                                                                                               1/148   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "Enter opens the most missed test'\''s history, equal to tests --id" '
	id=tests/registry/test_plugins.py::test_rounding_plugin_loaded &&
	tiadash --db week.db tests $WINDOW --id "$id" --format json >history.json &&
	steps ":resize 200x50" "t" "<Enter>" ":save-view history.view" \
		":save-display history.screen" &&
	tui $WINDOW --rules rules &&
	jq -r ".history[] | \"\(.at[:10]) \(.at[11:16]) \" +
		(if .pr then \"#\(.pr)\" else \"push\" end) +
		\" \(.head[:7]) \(.class) \(.outcome) \" + (if .selected then \"yes\" else \"no\" end)" \
		history.json >expect &&
	sed -n "/^WHEN PR HEAD/,\$p" history.view | tail -n +2 >actual &&
	test "$(wc -l <actual)" = 296 &&
	test_cmp expect actual &&
	jq -r ".test | \"ran \(.ran), selected \(.selected), failed \(.failed), missed \(.missed), inherited \(.inherited), flaky \(.flaky), quarantined \(.quarantined)\"" history.json >expect &&
	test_grep "^ran 296, selected 92, failed 3, missed 3, inherited 0, flaky 0, quarantined 0\$" expect &&
	grep "^ran " history.view >actual &&
	test_cmp expect actual &&
	assert_screen history.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > test
	tests/registry/test_plugins.py::test_rounding_plugin_loaded
	ran 296, selected 92, failed 3, missed 3, inherited 0, flaky 0, quarantined 0
	
	WHEN                 PR HEAD    CLASS        OUTCOME     SELECTED
	2026-11-01 00:15   #412 da967b6 agree        passed      no
	2026-11-01 00:44   #415 c440f44 agree        passed      no
	2026-11-01 05:45   #418 50b30ed agree        passed      no
	2026-11-01 12:12   #413 2f67ac7 agree        passed      no
	2026-11-01 13:49   #414 42d2dde agree        passed      no
	2026-11-01 14:06   #422 832d0f7 agree        passed      no
	2026-11-01 14:08   #421 82eef7b flaky        passed      no
	2026-11-01 14:08   #417 42689df agree        passed      yes
	2026-11-01 15:53   #423 720e5c9 agree        passed      yes
	2026-11-01 16:25   #420 48b4c74 agree        passed      no
	2026-11-01 17:38   #425 1e1859a agree        passed      no
	2026-11-01 17:44   #424 303c4a1 agree        passed      no
	2026-11-01 17:58   #426 cadb0b1 agree        passed      no
	2026-11-01 19:45   #427 9d2cd17 agree        passed      yes
	2026-11-02 01:37   #429 a6291e9 agree        passed      yes
	2026-11-02 03:45   #432 f4ed7db agree        passed      no
	2026-11-02 04:57   #433 f5318b5 agree        passed      no
	2026-11-02 07:48   #434 8a1a282 escape       passed      no
	2026-11-02 07:50   #428 eaa58ca over-strict  passed      no
	2026-11-02 08:13   #430 b68409b agree        passed      yes
	2026-11-02 09:45   #435 358d221 inherited    passed      no
	2026-11-02 09:46   #436 db3bf5f inherited    passed      yes
	2026-11-02 09:58   #438 cb03142 inherited    passed      yes
	2026-11-02 10:22   #437 c3a2c7c escape       passed      no
	2026-11-02 10:28   #444 7d10927 inherited    passed      yes
	2026-11-02 10:32   #442 90ec818 inherited    passed      no
	2026-11-02 10:38   #446 afafed5 inherited    passed      no
	2026-11-02 10:39   #440 e94ebde inherited    passed      no
	2026-11-02 10:49   #447 9f960f6 inherited    passed      yes
	2026-11-02 11:11   #448 e61154b inherited    passed      no
	2026-11-02 11:19   #450 77d385b inherited    passed      no
	2026-11-02 11:24   #454 7cb180a inherited    passed      no
	2026-11-02 11:24   #456 950f556 inherited    passed      no
	2026-11-02 11:38   #457 cd28773 inherited    passed      no
	2026-11-02 11:49   #452 6102566 inherited    passed      yes
	2026-11-02 12:01   #458 4b13244 inherited    passed      no
	2026-11-02 12:17   #459 a7ab5b2 inherited    passed      no
	2026-11-02 12:26   #461 f86216e inherited    passed      yes
	2026-11-02 12:39   #464 fe89b18 inherited    passed      no
	2026-11-02 12:41   #463 b5427d6 inherited    passed      yes
	2026-11-02 12:50   #460 4e6767f agree        passed      no
	2026-11-02 12:59   #466 01b5333 inherited    passed      no
	2026-11-02 13:00   #467 2b9828f inherited    passed      no
	296 runs in its history; Enter on one opens its change                                                                                                                                        1/300   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "a candidate'\''s history says so; Enter on a run opens its change" '
	steps "t" "/ledger_io<Enter>" "<Enter>" ":save-display cand.screen" \
		"jjjjj" "<Enter>" ":save-display detail.screen" "q" "q" \
		":save-display back.screen" &&
	tui $WINDOW --rules rules &&
	assert_screen cand.screen <<-\EOF &&
	[1 overview]  2 runs   3 disagreements   4 proposals  > test
	ledger_io::concurrent_append
	ran 296, selected 99, failed 1, missed 0, inherited 0, flaky 0, quarantined 1
	* unquarantine: passed in every full run since 2026-11-05 (3 days)
	
	WHEN                 PR HEAD    CLASS        OUTCOME     SELECTED
	2026-11-01 00:15   #412 da967b6 agree        passed      no
	2026-11-01 00:44   #415 c440f44 agree        passed      no
	2026-11-01 05:45   #418 50b30ed agree        passed      no
	2026-11-01 12:12   #413 2f67ac7 agree        passed      no
	2026-11-01 13:49   #414 42d2dde agree        passed      no
	2026-11-01 14:06   #422 832d0f7 agree        passed      no
	2026-11-01 14:08   #421 82eef7b flaky        passed      no
	2026-11-01 14:08   #417 42689df agree        passed      yes
	2026-11-01 15:53   #423 720e5c9 agree        passed      yes
	2026-11-01 16:25   #420 48b4c74 agree        passed      no
	2026-11-01 17:38   #425 1e1859a agree        passed      no
	2026-11-01 17:44   #424 303c4a1 agree        passed      no
	2026-11-01 17:58   #426 cadb0b1 agree        passed      no
	2026-11-01 19:45   #427 9d2cd17 agree        passed      yes
	2026-11-02 01:37   #429 a6291e9 agree        passed      yes
	2026-11-02 03:45   #432 f4ed7db agree        passed      no
	296 runs in its history; Enter on one opens its change                1/301   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	head -3 detail.screen >detail.top &&
	assert_screen detail.top <<-\EOF &&
	[1 overview]  2 runs   3 disagreements   4 proposals  > detail
	PR #412  acme/ledger  head da967b6c33e3  base 7e5738c079bf  2026-11-01 00:15
	class       agree
	EOF
	head -1 back.screen >back.top &&
	assert_screen back.top <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > tests
	EOF
'

test_done
