#!/bin/bash
# The overview: the figures of the sample week, per-day sparklines and the
# gate-check verdict with each criterion, at 80x24 and at 120x40.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"
SQ="'"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "overview at 80x24" '
	steps ":save-display overview.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen overview.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals
	Window      2026-11-01T00:00:00Z .. -, all repos
	Pairs       295 of 300 heads; 6 incomplete                               ▃██▇▇█▂
	Runs        300 shadow, 302 full (every attempt)
	Escapes     13 of 295 pairs (4.41%); 0 explained, 3 non-hermetic         ▁█▆█▆█▁
	Confidence  95%: upper 6.92% [2.37%, 7.42%]
	            115 more clean pairs (about 3 days at this window'\''s rate)
	Trend       n/a (no pairs in one of the windows)
	Blind spots 0 of 148 tests never selected; 0 failed in full; 0 new
	Verifier    0 heads green after a change to tests, fixtures or config only
	Affected    p50 0.053  p95 1.000  mean 0.323; narrowed p50 0.040         ▂▂▂▂▂▂█
	Wall-clock  shadow p50 142 s p95 1474 s; full p50 1357 s p95 1517 s      ███▇█▇▇
	Saving      89.5% at p50, 2.9% at p95
	Trade       69.0 runner-h saved a week; 13.0 escapes a week (at most 20.4)
	Force-full  88 of 298 shadow runs (29.5%)                                ▄▇▅▄▅▄█
	                15 runs     312.9 min force-full:**/package-lock.json
	                15 runs     310.1 min UNMAPPED_FILE
	                15 runs     300.8 min force-full:migrations/**
	Other       3 over-strict, 3 flaky, 2 quarantined
	Main        196 runs, 33 pairs inherited, 1 red span (444 min)
	                444 min  35 inherited tests/test_fx.py::test_rates_from_fixture
	Diff cov.   p50 1.000  mean 0.812; 40 of 169 below 0.70                  ██▇▆▇▇▇
	NO-GO                                                                  1/32   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "overview at 120x40" '
	steps ":resize 120x40" ":save-display overview.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen overview.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals
	Window      2026-11-01T00:00:00Z .. -, all repos
	Pairs       295 of 300 heads; 6 incomplete                                                                       ▃██▇▇█▂
	Runs        300 shadow, 302 full (every attempt)
	Escapes     13 of 295 pairs (4.41%); 0 explained, 3 non-hermetic                                                 ▁█▆█▆█▁
	Confidence  95%: upper 6.92% [2.37%, 7.42%]
	            115 more clean pairs (about 3 days at this window'\''s rate)
	Trend       n/a (no pairs in one of the windows)
	Blind spots 0 of 148 tests never selected; 0 failed in full; 0 new
	Verifier    0 heads green after a change to tests, fixtures or config only
	Affected    p50 0.053  p95 1.000  mean 0.323; narrowed p50 0.040                                                 ▂▂▂▂▂▂█
	Wall-clock  shadow p50 142 s p95 1474 s; full p50 1357 s p95 1517 s                                              ███▇█▇▇
	Saving      89.5% at p50, 2.9% at p95
	Trade       69.0 runner-h saved a week; 13.0 escapes a week (at most 20.4)
	Force-full  88 of 298 shadow runs (29.5%)                                                                        ▄▇▅▄▅▄█
	                15 runs     312.9 min force-full:**/package-lock.json
	                15 runs     310.1 min UNMAPPED_FILE
	                15 runs     300.8 min force-full:migrations/**
	Other       3 over-strict, 3 flaky, 2 quarantined
	Main        196 runs, 33 pairs inherited, 1 red span (444 min)
	                444 min  35 inherited tests/test_fx.py::test_rates_from_fixture
	Diff cov.   p50 1.000  mean 0.812; 40 of 169 below 0.70                                                          ██▇▆▇▇▇
	Shadow days 7; sparklines per day, 2026-11-01 .. 2026-11-07
	Gate check  NO-GO  on the window above (gate-check alone: the last 7 days)
	            days with shadow runs                   >= 7         7 PASS
	            pairs                                  >= 50       295 PASS
	            unexplained escapes                     <= 0        13 FAIL
	            escape rate upper bound (95%)      <= 0.0500    0.0692 FAIL
	            failing tests resolved              >= 0.990     1.000 PASS
	            affected fraction p50               <= 0.600     0.053 PASS
	            p95 wall-clock saving                > 0.000     0.029 PASS
	            diff coverage p50 (advisory)        >= 0.700     1.000 PASS
	            verifier-changed heads (advisory)       <= 0         0 PASS
	
	
	
	
	
	NO-GO                                                                                                          1/32   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "Enter on the escapes line opens the escapes in the disagreements; q comes back" '
	steps "<Down>" "<Down>" "<Down>" "<Enter>" ":save-view view1" "q" ":save-view view2" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen view1 <<-\EOF &&
	view disagreements
	lines 13
	cursor 0
	offset 0
	filter ^(escape|non-hermetic) 
	> escape new #434 tests/test_fx.py::test_rates_from_fixture
	  escape new #437 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	  escape new #498 tests/exports/test_pdf.py::test_invoice_fixture_renders (+1)
	  escape new #512 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #563 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #630 tests/registry/test_plugins.py::test_vat_eu_registered
	  escape new #619 web/src/ui/__tests__/toolbar.test.js::Toolbar hides flagged actions
	  escape new #674 tests/registry/test_plugins.py::test_rounding_plugin_loaded
	  escape new #688 tests/test_fx.py::test_rates_from_fixture
	  escape new #762 web/src/ui/__tests__/chart.test.js::Chart uses theme palette
	  non-hermetic unclosable #612 selected: tests/test_tax.py::test_vat_eu_standard_rate
	  non-hermetic unclosable #702 selected: web/src/ui/__tests__/form.test.js::Form submits entry
	  non-hermetic unclosable #711 selected: web/src/format/__tests__/money.test.js::formatMoney negative amounts
	EOF
	assert_screen view2 <<-\EOF
	view overview
	lines 32
	cursor 3
	offset 0
	ready yes
	Window 2026-11-01T00:00:00Z .. -, all repos
	Pairs 295 of 300 heads; 6 incomplete ▃██▇▇█▂
	Runs 300 shadow, 302 full (every attempt)
	Escapes 13 of 295 pairs (4.41%); 0 explained, 3 non-hermetic ▁█▆█▆█▁
	Confidence 95%: upper 6.92% [2.37%, 7.42%]
	115 more clean pairs (about 3 days at this window'\''s rate)
	Trend n/a (no pairs in one of the windows)
	Blind spots 0 of 148 tests never selected; 0 failed in full; 0 new
	Verifier 0 heads green after a change to tests, fixtures or config only
	Affected p50 0.053  p95 1.000  mean 0.323; narrowed p50 0.040 ▂▂▂▂▂▂█
	Wall-clock shadow p50 142 s p95 1474 s; full p50 1357 s p95 1517 s ███▇█▇▇
	Saving 89.5% at p50, 2.9% at p95
	Trade 69.0 runner-h saved a week; 13.0 escapes a week (at most 20.4)
	Force-full 88 of 298 shadow runs (29.5%) ▄▇▅▄▅▄█
	15 runs 312.9 min force-full:**/package-lock.json
	15 runs 310.1 min UNMAPPED_FILE
	15 runs 300.8 min force-full:migrations/**
	Other 3 over-strict, 3 flaky, 2 quarantined
	Main 196 runs, 33 pairs inherited, 1 red span (444 min)
	444 min 35 inherited tests/test_fx.py::test_rates_from_fixture
	Diff cov. p50 1.000  mean 0.812; 40 of 169 below 0.70 ██▇▆▇▇▇
	Shadow days 7; sparklines per day, 2026-11-01 .. 2026-11-07
	Gate check NO-GO on the window above (gate-check alone: the last 7 days)
	days with shadow runs >= 7 7 PASS
	pairs >= 50 295 PASS
	unexplained escapes <= 0 13 FAIL
	escape rate upper bound (95%) <= 0.0500 0.0692 FAIL
	failing tests resolved >= 0.990 1.000 PASS
	affected fraction p50 <= 0.600 0.053 PASS
	p95 wall-clock saving > 0.000 0.029 PASS
	diff coverage p50 (advisory) >= 0.700 1.000 PASS
	verifier-changed heads (advisory) <= 0 0 PASS
	EOF
'

test_expect_success "the days to enough clean pairs: the overview and gate-check, one estimate" '
	# Two weeks after the sample week, from 2026-11-01: 295 pairs over
	# 19 days (the open end is now, as gate-check'"'"'s), 115 more need
	# 115 / (295 / 19) = 7.4, about 8 days: the same figure in both.
	steps ":save-view late.view" &&
	(export TIADASH_NOW=2026-11-20T00:00:00Z &&
	 tui --since 2026-11-01 --rules rules &&
	 test_expect_code 1 tiadash --db week.db gate-check --since 2026-11-01 >gate.out) &&
	grep -F "115 more clean pairs" late.view >actual &&
	echo "115 more clean pairs (about 8 days at this window'"'"'s rate)" >expect &&
	test_cmp expect actual &&
	echo "escape rate: 115 more clean pairs (about 8 days at this window'"'"'s rate)" >expect &&
	grep -F "115 more clean pairs" gate.out >actual &&
	test_cmp expect actual &&
	grep "^Gate check NO-GO on the window above (gate-check alone: the last 7 days)$" late.view
'

test_expect_success "an empty store: what to run, not a screen of zeros" '
	mkdir nothing && tiadash --db empty.db ingest nothing >/dev/null 2>&1 &&
	test -f empty.db &&
	steps ":save-display empty.screen" &&
	TUI_DB=empty.db tui &&
	assert_screen empty.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals
	Window      all time, all repos
	Store       no runs yet; to fill it:
	Ingest      tiadash ingest DIR|URL...  the run folders of CI
	Record      tiadash record --kind shadow|full -- CMD  in each
	            CI job (README: CI jobs, for GitHub and GitLab)
	Try         make demo  the sample week, ingested and opened















	NO-GO                                                                   1/6   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "a window without runs says so, and how to add some" '
	steps ":save-display late.screen" &&
	tui --since 2026-11-07T23:59:59Z &&
	sed -n "3p" late.screen >actual &&
	echo "Store       no runs in this window (widen --since); to add some:" >expect &&
	test_cmp expect actual
'

test_done
