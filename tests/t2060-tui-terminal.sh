#!/bin/bash
# A good terminal citizen: resizes, NO_COLOR and monochrome terminals (bold
# and reverse only), stderr parked while curses is up and replayed after, the
# terminal restored on fatal errors, no terminal refused.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "resize to 120x40 and down to 60x20 redraws the view" '
	steps "2" ":resize 120x40" ":save-display big.screen" ":resize 60x20" ":save-display small.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen big.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV VERDICTS    REPO        REASONS
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00 pass/pass   acme/ledger
	11-01 00:44   #415 c440f44 agree        selected 0.007  122 s 1469 s   n/a pass/pass   acme/ledger
	11-01 05:45   #418 50b30ed agree        nothing  0.000   99 s 1406 s   n/a pass/pass   acme/ledger
	11-01 07:42   push 12fc543 main         -          n/a    n/a 1545 s   n/a -/pass      acme/ledger
	11-01 11:22   push 1277218 main         -          n/a    n/a 1182 s   n/a -/pass      acme/ledger
	11-01 12:02   push 3554a4e main         -          n/a    n/a 1328 s   n/a -/pass      acme/ledger
	11-01 12:12   #413 2f67ac7 agree        selected 0.040  127 s 1408 s  1.00 pass/pass   acme/ledger
	11-01 13:31   push 1ba49c5 main         -          n/a    n/a 1252 s   n/a -/pass      acme/ledger
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00 fail/fail   acme/ledger
	11-01 14:03   push 7c5339b main         -          n/a    n/a 1284 s   n/a -/pass      acme/ledger
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00 pass/pass   acme/ledger
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a pass/pass   acme/ledger
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00 pass/pass   acme/ledger force-full:migration~
	11-01 14:25   push 7fa3e88 main         -          n/a    n/a 1395 s   n/a -/pass      acme/ledger
	11-01 15:14   push 38fe827 main         -          n/a    n/a 1342 s   n/a -/pass      acme/ledger
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a pass/pass   acme/ledger force-full:.github/**
	11-01 16:19   push db25c7f main         -          n/a    n/a 1436 s   n/a -/pass      acme/ledger
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75 pass/pass   acme/ledger
	11-01 16:43   push f2d3cbf main         -          n/a    n/a 1334 s   n/a -/pass      acme/ledger
	11-01 17:17   push ae5cc9d main         -          n/a    n/a 1552 s   n/a -/pass      acme/ledger
	11-01 17:38   #425 1e1859a agree        selected 0.060  140 s 1408 s  1.00 pass/pass   acme/ledger
	11-01 17:44   #424 303c4a1 agree        selected 0.020  117 s 1512 s  1.00 pass/pass   acme/ledger
	11-01 17:52   push 8e30357 main         -          n/a    n/a 1224 s   n/a -/pass      acme/ledger
	11-01 17:58   #426 cadb0b1 agree        selected 0.040  122 s 1338 s  0.80 pass/pass   acme/ledger
	11-01 18:12   push 39a4b1d main         -          n/a    n/a 1384 s   n/a -/pass      acme/ledger
	11-01 19:45   #427 9d2cd17 agree        run_all  1.000 1296 s 1290 s   n/a pass/pass   acme/ledger UNMAPPED_FILE
	11-02 01:15   push 6b74d43 main         -          n/a    n/a 1355 s   n/a -/pass      acme/ledger
	11-02 01:37   #429 a6291e9 agree        run_all  1.000 1524 s 1348 s   n/a pass/pass   acme/ledger force-full:pyproject~
	11-02 02:24   push f84678c main         -          n/a    n/a 1302 s   n/a -/pass      acme/ledger
	11-02 03:01   push ad3c679 main         -          n/a    n/a 1386 s   n/a -/pass      acme/ledger
	11-02 03:45   #432 f4ed7db agree        selected 0.040  122 s 1244 s   n/a pass/pass   acme/ledger
	11-02 04:57   #433 f5318b5 agree        selected 0.053  133 s 1359 s  1.00 pass/pass   acme/ledger
	11-02 07:10   push 3895c06 main         -          n/a    n/a 1290 s   n/a -/pass      acme/ledger
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a pass/fail   acme/ledger
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67 fail/pass   acme/ledger
	11-02 08:00   push d85b779 main         -          n/a    n/a 1332 s   n/a -/fail      acme/ledger
	sorted by date, ascending; > scrolls right                                                                    1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	assert_screen small.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF
	11-01 00:15   #412 da967b6 agree        selected 0.013
	11-01 00:44   #415 c440f44 agree        selected 0.007
	11-01 05:45   #418 50b30ed agree        nothing  0.000
	11-01 07:42   push 12fc543 main         -          n/a
	11-01 11:22   push 1277218 main         -          n/a
	11-01 12:02   push 3554a4e main         -          n/a
	11-01 12:12   #413 2f67ac7 agree        selected 0.040
	11-01 13:31   push 1ba49c5 main         -          n/a
	11-01 13:49   #414 42d2dde agree        selected 0.047
	11-01 14:03   push 7c5339b main         -          n/a
	11-01 14:06   #422 832d0f7 agree        selected 0.040
	11-01 14:08   #421 82eef7b flaky        selected 0.047
	11-01 14:08   #417 42689df agree        run_all  1.000
	11-01 14:25   push 7fa3e88 main         -          n/a
	11-01 15:14   push 38fe827 main         -          n/a
	11-01 15:53   #423 720e5c9 agree        run_all  1.000
	sorted by date, ascending; > scrolls right        1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help
	EOF
'

test_expect_success "a monochrome terminal: the cursor line reversed, labels bold, no colour" '
	steps ":save-attrs mono.attrs" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen mono.attrs <<-\EOF
	{BR}[1 overview]{-}  2 runs   3 disagreements   4 proposals
	{R}Window      2026-11-01T00:00:00Z .. -, all repos
	{B}Pairs{-}       295 of 300 heads; 6 incomplete                               ▃██▇▇█▂
	{B}Runs{-}        300 shadow, 302 full (every attempt)
	{B}Escapes{-}     {B}13 of 295 pairs (4.41%); 0 explained, 3 non-hermetic{-}         ▁█▆█▆█▁
	{B}Confidence{-}  {B}95%: upper 6.92% [2.37%, 7.42%]
	            {B}115 more clean pairs (about 3 days at this window'\''s rate)
	{B}Trend{-}       n/a (no pairs in one of the windows)
	{B}Blind spots{-} 0 of 148 tests never selected; 0 failed in full; 0 new
	{B}Verifier{-}    0 heads green after a change to tests, fixtures or config only
	{B}Affected{-}    p50 0.053  p95 1.000  mean 0.323; narrowed p50 0.040         ▂▂▂▂▂▂█
	{B}Wall-clock{-}  shadow p50 142 s p95 1474 s; full p50 1357 s p95 1517 s      ███▇█▇▇
	{B}Saving{-}      89.5% at p50, 2.9% at p95
	{B}Trade{-}       69.0 runner-h saved a week; 13.0 escapes a week (at most 20.4)
	{B}Force-full{-}  88 of 298 shadow runs (29.5%)                                ▄▇▅▄▅▄█
	                15 runs     312.9 min force-full:**/package-lock.json
	                15 runs     310.1 min UNMAPPED_FILE
	                15 runs     300.8 min force-full:migrations/**
	{B}Other{-}       3 over-strict, 3 flaky, 2 quarantined
	{B}Main{-}        196 runs, 33 pairs inherited, 1 red span (444 min)
	                444 min  35 inherited tests/test_fx.py::test_rates_from_fixture
	{B}Diff cov.{-}   p50 1.000  mean 0.812; 40 of 169 below 0.70                  ██▇▆▇▇▇
	{R}NO-GO                                                                  1/32   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "NO_COLOR on a colour terminal: bold and reverse only" '
	steps "2" ":save-attrs nocolor.attrs" &&
	TUI_TERM="xterm-256color" NO_COLOR="1" tui --since 2026-11-01 --rules rules &&
	assert_screen nocolor.attrs <<-\EOF
	 1 overview  {BR}[2 runs]{-}  3 disagreements   4 proposals
	{B}DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	{R}11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
	11-01 00:44   #415 c440f44 agree        selected 0.007  122 s 1469 s   n/a
	11-01 05:45   #418 50b30ed agree        nothing  0.000   99 s 1406 s   n/a
	11-01 07:42   push 12fc543 main         -          n/a    n/a 1545 s   n/a
	11-01 11:22   push 1277218 main         -          n/a    n/a 1182 s   n/a
	11-01 12:02   push 3554a4e main         -          n/a    n/a 1328 s   n/a
	11-01 12:12   #413 2f67ac7 agree        selected 0.040  127 s 1408 s  1.00
	11-01 13:31   push 1ba49c5 main         -          n/a    n/a 1252 s   n/a
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00
	11-01 14:03   push 7c5339b main         -          n/a    n/a 1284 s   n/a
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00
	11-01 14:25   push 7fa3e88 main         -          n/a    n/a 1395 s   n/a
	11-01 15:14   push 38fe827 main         -          n/a    n/a 1342 s   n/a
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a
	11-01 16:19   push db25c7f main         -          n/a    n/a 1436 s   n/a
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75
	11-01 16:43   push f2d3cbf main         -          n/a    n/a 1334 s   n/a
	11-01 17:17   push ae5cc9d main         -          n/a    n/a 1552 s   n/a
	{R}sorted by date, ascending; > scrolls right                            1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "a colour terminal without NO_COLOR uses colour pairs" '
	# 40 lines: the first escape comes after the runs of main of the first day
	steps "2" ":resize 120x40" ":save-attrs color.attrs" &&
	TUI_TERM="xterm-256color" tui --since 2026-11-01 --rules rules &&
	grep -q "{Bc[0-9]*}escape" color.attrs &&
	grep -q "{Bc[0-9]*}\[2 runs\]" color.attrs
'

test_expect_success "--color=never on a colour terminal: as NO_COLOR, bold and reverse only" '
	steps "2" ":save-attrs never.attrs" &&
	TUI_TERM="xterm-256color" tui --since 2026-11-01 --rules rules --color=never &&
	test_cmp nocolor.attrs never.attrs
'

test_expect_success "--color=always draws in colour despite NO_COLOR; a bad WHEN is an error" '
	steps "2" ":resize 120x40" ":save-attrs always.attrs" &&
	TUI_TERM="xterm-256color" NO_COLOR=1 tui --since 2026-11-01 --rules rules --color=always &&
	grep -q "{Bc[0-9]*}escape" always.attrs &&
	grep -q "{Bc[0-9]*}\[2 runs\]" always.attrs &&
	test_expect_code 2 tui --color=maybe 2>err &&
	test_grep "^tiadash: error: --color is always, auto or never, not .maybe.$" err
'

test_expect_success "a key bound nowhere says so on the help line" '
	steps "x" ":save-display unbound.screen" &&
	tui --since 2026-11-01 --rules rules &&
	tail -1 unbound.screen >last &&
	echo "x is not bound here (? shows the keys)" >expect &&
	test_cmp expect last
'

test_expect_success "stderr is parked while the dashboard is up and replayed after" '
	steps ":save-display no/such/dir/x.screen" ":save-display shown.screen" &&
	test_expect_code 2 tui --since 2026-11-01 --rules rules >out 2>err &&
	test_must_be_empty out &&
	echo "tiadash: error: cannot write '"'"'no/such/dir/x.screen'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	tail -1 shown.screen >last &&
	echo "cannot write '"'"'no/such/dir/x.screen'"'"'" >expect &&
	test_cmp expect last
'

test_expect_success "a fatal error restores the terminal first, then says why" '
	steps "2" ":die the store vanished" &&
	test_expect_code 2 tui --since 2026-11-01 >out 2>err &&
	test_must_be_empty out &&
	echo "tiadash: fatal: the store vanished" >expect &&
	test_cmp expect err
'

test_expect_success "--max-frames 1 draws one frame and quits" '
	TIADASH_NO_DISPLAY=1 tiadash --db week.db tui --max-frames 1 >out 2>err &&
	test_must_be_empty out && test_must_be_empty err
'

test_expect_success "a pass that fails part way is an error on the screen, not a crash" '
	# both sides of the pass meet the corrupt facts of the last head, after
	# the forward side kept the escapes before it
	sqlite3 week.db "VACUUM INTO '"'"'bad.db'"'"'" &&
	# no kept figures: the overview must compute them (the dashboard keeps
	# them whenever the write lock is free, so earlier steps may have)
	sqlite3 bad.db "DELETE FROM figures" &&
	test "$(sqlite3 bad.db "SELECT count(*) FROM pair_fact")" -gt 0 &&
	sqlite3 bad.db "UPDATE pair_fact SET data = x'"'"'00'"'"'
		WHERE head_id = (SELECT head_id FROM pair_fact ORDER BY at DESC LIMIT 1)" &&
	steps ":save-display bad.screen" &&
	TUI_DB=bad.db test_expect_code 2 tui >out 2>err &&
	test_grep "the pair facts of head [0-9]* are corrupt" err
'

test_expect_success "without a terminal the dashboard is refused" '
	test_expect_code 2 tiadash --db week.db tui </dev/null >out 2>err &&
	test_grep "the dashboard needs a terminal" err &&
	test_expect_code 2 tiadash --db week.db </dev/null >out 2>err &&
	test_grep "no command given" err
'

test_expect_success "a missing script is an error, not a hang" '
	test_expect_code 2 env TIADASH_NO_DISPLAY=1 TIADASH_SCRIPT=no-such-script \
		"$TIADASH_BIN" --db week.db tui 2>err &&
	test_grep "cannot open the script" err
'

test_expect_success "bad options are usage errors" '
	test_expect_code 2 tiadash --db week.db tui --since yesterday 2>err &&
	test_grep "since" err &&
	test_expect_code 2 tiadash --db week.db tui --since 2026-11-05 --until 2026-11-01 2>err &&
	test_grep "the window is empty" err &&
	test_expect_code 2 tiadash --db week.db tui --max-frames 0 2>err &&
	test_expect_code 2 tiadash --db week.db tui extra 2>err
'

test_done
