#!/bin/bash
# The runs view: every pair of the window a page at a time, sorted by any
# column (s cycles, S reverses), filtered with a PCRE2 regex (/), drilled into.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "runs at 80x24" '
	steps "2" ":save-display runs.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen runs.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
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
	sorted by date, ascending; > scrolls right                            1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "runs at 120x40" '
	steps "2" ":resize 120x40" ":save-display runs.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen runs.screen <<-\EOF
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
'

test_expect_success "runs at 200x50: every column under its own title" '
	steps "2" ":resize 200x50" ":save-display runs.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen runs.screen <<-\EOF
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
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00 pass/pass   acme/ledger force-full:migrations/**
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
	11-02 01:37   #429 a6291e9 agree        run_all  1.000 1524 s 1348 s   n/a pass/pass   acme/ledger force-full:pyproject.toml, force-full:poetry.lock
	11-02 02:24   push f84678c main         -          n/a    n/a 1302 s   n/a -/pass      acme/ledger
	11-02 03:01   push ad3c679 main         -          n/a    n/a 1386 s   n/a -/pass      acme/ledger
	11-02 03:45   #432 f4ed7db agree        selected 0.040  122 s 1244 s   n/a pass/pass   acme/ledger
	11-02 04:57   #433 f5318b5 agree        selected 0.053  133 s 1359 s  1.00 pass/pass   acme/ledger
	11-02 07:10   push 3895c06 main         -          n/a    n/a 1290 s   n/a -/pass      acme/ledger
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a pass/fail   acme/ledger
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67 fail/pass   acme/ledger
	11-02 08:00   push d85b779 main         -          n/a    n/a 1332 s   n/a -/fail      acme/ledger
	11-02 08:13   #430 b68409b agree        run_all  1.000 1407 s 1175 s   n/a pass/pass   acme/ledger force-full:**/package-lock.json, force-full:**/package.json
	11-02 08:33   push e8b12be main         -          n/a    n/a 1287 s   n/a -/fail      acme/ledger
	11-02 09:24   push efe2f4a main         -          n/a    n/a 1444 s   n/a -/fail      acme/ledger
	11-02 09:45   #435 358d221 inherited    selected 0.080  142 s 1368 s  1.00 pass/fail   acme/ledger
	11-02 09:46   #436 db3bf5f inherited    run_all  1.000 1392 s 1231 s   n/a fail/fail   acme/ledger UNMAPPED_FILE
	11-02 09:51   push 6f00d04 main         -          n/a    n/a 1261 s   n/a -/fail      acme/ledger
	11-02 09:58   #438 cb03142 inherited    run_all  1.000 1212 s 1442 s   n/a fail/fail   acme/ledger selector-error
	11-02 10:12   push d3e5c54 main         -          n/a    n/a 1274 s   n/a -/fail      acme/ledger
	11-02 10:22   #437 c3a2c7c escape       selected 0.007  114 s 1167 s  1.00 pass/fail   acme/ledger
	11-02 10:28   #444 7d10927 inherited    run_all  1.000 1192 s 1327 s   n/a fail/fail   acme/ledger force-full:pyproject.toml, force-full:poetry.lock
	sorted by date, ascending                                                                                                                                                                     1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "runs at 100x30: columns whole or not at all, > scrolls to the rest, < back" '
	steps "2" ":resize 100x30" ":save-display runs.screen" ">" ":save-display right.screen" \
		">" ":save-display further.screen" "<" ":save-display back.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen runs.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV VERDICTS    REPO
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
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00 pass/pass   acme/ledger
	11-01 14:25   push 7fa3e88 main         -          n/a    n/a 1395 s   n/a -/pass      acme/ledger
	11-01 15:14   push 38fe827 main         -          n/a    n/a 1342 s   n/a -/pass      acme/ledger
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a pass/pass   acme/ledger
	11-01 16:19   push db25c7f main         -          n/a    n/a 1436 s   n/a -/pass      acme/ledger
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75 pass/pass   acme/ledger
	11-01 16:43   push f2d3cbf main         -          n/a    n/a 1334 s   n/a -/pass      acme/ledger
	11-01 17:17   push ae5cc9d main         -          n/a    n/a 1552 s   n/a -/pass      acme/ledger
	11-01 17:38   #425 1e1859a agree        selected 0.060  140 s 1408 s  1.00 pass/pass   acme/ledger
	11-01 17:44   #424 303c4a1 agree        selected 0.020  117 s 1512 s  1.00 pass/pass   acme/ledger
	11-01 17:52   push 8e30357 main         -          n/a    n/a 1224 s   n/a -/pass      acme/ledger
	11-01 17:58   #426 cadb0b1 agree        selected 0.040  122 s 1338 s  0.80 pass/pass   acme/ledger
	11-01 18:12   push 39a4b1d main         -          n/a    n/a 1384 s   n/a -/pass      acme/ledger
	11-01 19:45   #427 9d2cd17 agree        run_all  1.000 1296 s 1290 s   n/a pass/pass   acme/ledger
	sorted by date, ascending; > scrolls right                                                1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	assert_screen right.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	    CLASS        DECISION   AFF SHADOW   FULL  DCOV VERDICTS    REPO        REASONS
	7b6 agree        selected 0.013   97 s 1322 s  1.00 pass/pass   acme/ledger
	f44 agree        selected 0.007  122 s 1469 s   n/a pass/pass   acme/ledger
	0ed agree        nothing  0.000   99 s 1406 s   n/a pass/pass   acme/ledger
	543 main         -          n/a    n/a 1545 s   n/a -/pass      acme/ledger
	218 main         -          n/a    n/a 1182 s   n/a -/pass      acme/ledger
	a4e main         -          n/a    n/a 1328 s   n/a -/pass      acme/ledger
	ac7 agree        selected 0.040  127 s 1408 s  1.00 pass/pass   acme/ledger
	9c5 main         -          n/a    n/a 1252 s   n/a -/pass      acme/ledger
	dde agree        selected 0.047  147 s 1308 s  1.00 fail/fail   acme/ledger
	39b main         -          n/a    n/a 1284 s   n/a -/pass      acme/ledger
	0f7 agree        selected 0.040  160 s 1100 s  1.00 pass/pass   acme/ledger
	f7b flaky        selected 0.047  133 s 1312 s   n/a pass/pass   acme/ledger
	9df agree        run_all  1.000 1600 s 1447 s  1.00 pass/pass   acme/ledger force-full:migrations/**
	e88 main         -          n/a    n/a 1395 s   n/a -/pass      acme/ledger
	827 main         -          n/a    n/a 1342 s   n/a -/pass      acme/ledger
	5c9 agree        run_all  1.000 1547 s 1277 s   n/a pass/pass   acme/ledger force-full:.github/**
	c7f main         -          n/a    n/a 1436 s   n/a -/pass      acme/ledger
	c74 agree        selected 0.080  150 s 1411 s  0.75 pass/pass   acme/ledger
	cbf main         -          n/a    n/a 1334 s   n/a -/pass      acme/ledger
	c9d main         -          n/a    n/a 1552 s   n/a -/pass      acme/ledger
	59a agree        selected 0.060  140 s 1408 s  1.00 pass/pass   acme/ledger
	4a1 agree        selected 0.020  117 s 1512 s  1.00 pass/pass   acme/ledger
	357 main         -          n/a    n/a 1224 s   n/a -/pass      acme/ledger
	0b1 agree        selected 0.040  122 s 1338 s  0.80 pass/pass   acme/ledger
	b1d main         -          n/a    n/a 1384 s   n/a -/pass      acme/ledger
	d17 agree        run_all  1.000 1296 s 1290 s   n/a pass/pass   acme/ledger UNMAPPED_FILE
	sorted by date, ascending; from column 24                                                 1/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	test_cmp right.screen further.screen &&
	test_cmp runs.screen back.screen
'

test_expect_success "s sorts by the next column, S reverses and keeps the cursor on its pair" '
	steps "2" "<Down>" "s" ":save-display sorted.screen" "S" ":save-display reversed.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen sorted.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE           PR↑ HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
	11-01 12:12   #413 2f67ac7 agree        selected 0.040  127 s 1408 s  1.00
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00
	11-01 00:44   #415 c440f44 agree        selected 0.007  122 s 1469 s   n/a
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00
	11-01 05:45   #418 50b30ed agree        nothing  0.000   99 s 1406 s   n/a
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a
	11-01 17:44   #424 303c4a1 agree        selected 0.020  117 s 1512 s  1.00
	11-01 17:38   #425 1e1859a agree        selected 0.060  140 s 1408 s  1.00
	11-01 17:58   #426 cadb0b1 agree        selected 0.040  122 s 1338 s  0.80
	11-01 19:45   #427 9d2cd17 agree        run_all  1.000 1296 s 1290 s   n/a
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67
	11-02 01:37   #429 a6291e9 agree        run_all  1.000 1524 s 1348 s   n/a
	11-02 08:13   #430 b68409b agree        run_all  1.000 1407 s 1175 s   n/a
	11-02 03:45   #432 f4ed7db agree        selected 0.040  122 s 1244 s   n/a
	11-02 04:57   #433 f5318b5 agree        selected 0.053  133 s 1359 s  1.00
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	sorted by pr, ascending; > scrolls right                              4/496   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
	assert_screen reversed.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE           PR↓ HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75
	11-01 05:45   #418 50b30ed agree        nothing  0.000   99 s 1406 s   n/a
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00
	11-01 00:44   #415 c440f44 agree        selected 0.007  122 s 1469 s   n/a
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00
	11-01 12:12   #413 2f67ac7 agree        selected 0.040  127 s 1408 s  1.00
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
	11-07 19:00   push d74e109 main         -          n/a    n/a 1410 s   n/a
	11-07 17:06   push f34261b main         -          n/a    n/a 1236 s   n/a
	11-07 16:42   push 80d98f9 main         -          n/a    n/a 1474 s   n/a
	11-07 14:28   push 579a705 main         -          n/a    n/a 1336 s   n/a
	11-07 13:32   push afe3c0b main         -          n/a    n/a 1300 s   n/a
	11-07 13:11   push 7732ac4 main         -          n/a    n/a 1280 s   n/a
	11-07 10:34   push f28a05b main         -          n/a    n/a 1521 s   n/a
	11-07 08:45   push 4bb88bf main         -          n/a    n/a 1100 s   n/a
	11-06 22:57   push eba8458 main         -          n/a    n/a 1600 s   n/a
	11-06 22:04   push e4b90e8 main         -          n/a    n/a 1240 s   n/a
	11-06 21:30   push f0287b9 main         -          n/a    n/a 1312 s   n/a
	sorted by pr, descending; > scrolls right                           297/496  59%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "G jumps to the last page, PgUp pages back, g to the top" '
	steps "2" "G" ":save-display last.screen" "<PgUp>" "<PgUp>" ":save-display up.screen" "g" ":save-view top.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen last.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-06 21:30   push f0287b9 main         -          n/a    n/a 1312 s   n/a
	11-06 22:04   push e4b90e8 main         -          n/a    n/a 1240 s   n/a
	11-06 22:13   #774 1d6ee0a agree        selected 0.007  129 s 1304 s   n/a
	11-06 22:57   push eba8458 main         -          n/a    n/a 1600 s   n/a
	11-07 01:11   #775 b6ea5b8 agree        selected 0.040  127 s 1427 s   n/a
	11-07 05:03   #772 3ac3745 agree        run_all  1.000 1284 s 1277 s  0.70
	11-07 08:45   push 4bb88bf main         -          n/a    n/a 1100 s   n/a
	11-07 09:57   #776 2fa0ddb agree        selected 0.093  177 s 1360 s  0.33
	11-07 10:07   #778 5666586 agree        run_all  1.000 1322 s 1145 s   n/a
	11-07 10:34   push f28a05b main         -          n/a    n/a 1521 s   n/a
	11-07 13:11   #780 facefe4 agree        run_all  1.000 1366 s 1363 s   n/a
	11-07 13:11   push 7732ac4 main         -          n/a    n/a 1280 s   n/a
	11-07 13:32   push afe3c0b main         -          n/a    n/a 1300 s   n/a
	11-07 14:08   #779 dcc143f agree        nothing  0.000  103 s 1375 s   n/a
	11-07 14:28   push 579a705 main         -          n/a    n/a 1336 s   n/a
	11-07 16:42   push 80d98f9 main         -          n/a    n/a 1474 s   n/a
	11-07 16:55   #777 3143184 incomplete   selected 0.013  115 s    n/a  1.00
	11-07 17:06   push f34261b main         -          n/a    n/a 1236 s   n/a
	11-07 18:09   #782 e9e2584 agree        run_all  1.000 1348 s 1399 s  1.00
	11-07 19:00   push d74e109 main         -          n/a    n/a 1410 s   n/a
	sorted by date, ascending; > scrolls right                          496/496 100%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
	assert_screen up.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-06 13:59   push 199e7a6 main         -          n/a    n/a 1435 s   n/a
	11-06 14:23   push c55245c main         -          n/a    n/a 1376 s   n/a
	11-06 14:40   #742 cd66698 agree        run_all  1.000 1445 s 1398 s  0.67
	11-06 14:46   push 8769561 main         -          n/a    n/a 1151 s   n/a
	11-06 14:50   #743 57b22da agree        selected 0.060  160 s 1347 s  0.00
	11-06 14:54   #741 3b4382c agree        selected 0.040  120 s 1100 s   n/a
	11-06 15:02   #747 f0f32ac agree        run_all  1.000 1419 s 1418 s  0.80
	11-06 15:02   #745 6841e93 agree        selected 0.047  146 s 1427 s  0.71
	11-06 15:05   push f9214e7 main         -          n/a    n/a 1406 s   n/a
	11-06 15:29   push 2bb0983 main         -          n/a    n/a 1396 s   n/a
	11-06 16:03   push 33fb28e main         -          n/a    n/a 1353 s   n/a
	11-06 16:03   #751 f783251 agree        run_all  1.000 1174 s 1299 s   n/a
	11-06 16:05   #753 0bc34fc agree        selected 0.073  163 s 1363 s  1.00
	11-06 16:10   #750 70179d4 agree        selected 0.047  139 s 1376 s  0.00
	11-06 16:27   #755 9f13892 agree        selected 0.073  135 s 1321 s  1.00
	11-06 16:28   push 0914760 main         -          n/a    n/a 1463 s   n/a
	11-06 16:41   #754 94034c6 agree        run_all  1.000 1382 s 1155 s  1.00
	11-06 16:52   push d414389 main         -          n/a    n/a 1223 s   n/a
	11-06 17:09   #756 9c1c52e agree        nothing  0.000  100 s 1395 s   n/a
	11-06 17:13   push 3f2d8e2 main         -          n/a    n/a 1325 s   n/a
	sorted by date, ascending; > scrolls right                          456/496  91%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "/ filters with a regex over the row text; the model keeps sort and filter" '
	steps "2" "s" "S" "/escape|over-strict<Enter>" ":save-display filtered.screen" ":save-view filtered.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen filtered.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE           PR↓ HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-06 17:45   #762 2da1633 escape       nothing  0.000   98 s 1360 s   n/a
	11-06 11:15   #723 6c2f3fb over-strict  selected 0.100  167 s 1268 s  1.00
	11-05 17:58   #688 81ace36 escape       selected 0.040  158 s 1365 s  1.00
	11-05 14:48   #674 148f67a escape       selected 0.020  107 s 1228 s  1.00
	11-04 16:34   #630 e66ed4b escape       selected 0.020  116 s 1196 s  1.00
	11-04 16:48   #619 671ce02 escape       selected 0.007  109 s 1309 s  0.33
	11-03 17:18   #563 3126ce9 escape       selected 0.007  120 s 1100 s  1.00
	11-03 12:18   #537 d4afe95 over-strict  selected 0.027  131 s 1460 s  0.67
	11-03 10:52   #512 a947c8e escape       selected 0.020   94 s 1403 s  0.00
	11-02 20:06   #498 caa736c escape       selected 0.040  136 s 1320 s   n/a
	11-02 10:22   #437 c3a2c7c escape       selected 0.007  114 s 1167 s  1.00
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67
	
	
	
	
	
	
	
	sorted by pr, descending; 13 of 496 match /escape|over-strict/; > scr~ 1/13   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
	assert_screen filtered.view <<-\EOF
	view runs
	lines 13
	cursor 0
	offset 0
	sort pr desc
	filter escape|over-strict
	> 11-06 17:45 #762 2da1633 escape nothing 0.000 98 s 1360 s n/a pass/fail acme/ledger
	  11-06 11:15 #723 6c2f3fb over-strict selected 0.100 167 s 1268 s 1.00 fail/pass acme/ledger
	  11-05 17:58 #688 81ace36 escape selected 0.040 158 s 1365 s 1.00 pass/fail acme/ledger
	  11-05 14:48 #674 148f67a escape selected 0.020 107 s 1228 s 1.00 pass/fail acme/ledger
	  11-04 16:34 #630 e66ed4b escape selected 0.020 116 s 1196 s 1.00 pass/fail acme/ledger
	  11-04 16:48 #619 671ce02 escape selected 0.007 109 s 1309 s 0.33 pass/fail acme/ledger
	  11-03 17:18 #563 3126ce9 escape selected 0.007 120 s 1100 s 1.00 pass/fail acme/ledger
	  11-03 12:18 #537 d4afe95 over-strict selected 0.027 131 s 1460 s 0.67 fail/pass acme/ledger
	  11-03 10:52 #512 a947c8e escape selected 0.020 94 s 1403 s 0.00 pass/fail acme/ledger
	  11-02 20:06 #498 caa736c escape selected 0.040 136 s 1320 s n/a pass/fail acme/ledger
	  11-02 10:22 #437 c3a2c7c escape selected 0.007 114 s 1167 s 1.00 pass/fail acme/ledger
	  11-02 07:48 #434 8a1a282 escape nothing 0.000 104 s 1278 s n/a pass/fail acme/ledger
	  11-02 07:50 #428 eaa58ca over-strict selected 0.040 132 s 1209 s 0.67 fail/pass acme/ledger
	EOF
'

test_expect_success "an invalid regex is a message on the status line, the filter stays" '
	steps "2" "/escape<Enter>" "/<C-u>(unclosed<Enter>" ":save-display invalid.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen invalid.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	11-02 10:22   #437 c3a2c7c escape       selected 0.007  114 s 1167 s  1.00
	11-02 20:06   #498 caa736c escape       selected 0.040  136 s 1320 s   n/a
	11-03 10:52   #512 a947c8e escape       selected 0.020   94 s 1403 s  0.00
	11-03 17:18   #563 3126ce9 escape       selected 0.007  120 s 1100 s  1.00
	11-04 16:34   #630 e66ed4b escape       selected 0.020  116 s 1196 s  1.00
	11-04 16:48   #619 671ce02 escape       selected 0.007  109 s 1309 s  0.33
	11-05 14:48   #674 148f67a escape       selected 0.020  107 s 1228 s  1.00
	11-05 17:58   #688 81ace36 escape       selected 0.040  158 s 1365 s  1.00
	11-06 17:45   #762 2da1633 escape       nothing  0.000   98 s 1360 s   n/a
	
	
	
	
	
	
	
	
	
	
	sorted by date, ascending; 10 of 496 match /escape/; > scrolls right   1/10   0%
	invalid regex at offset 9: missing closing parenthesis
	EOF
'

test_expect_success "an empty filter shows every pair again" '
	steps "2" "/escape<Enter>" "/<C-u><Enter>" ":save-view all.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 2,6p all.view >actual &&
	printf "lines 496\ncursor 0\noffset 0\nsort date asc\nfilter -\n" >expect &&
	test_cmp expect actual
'

test_expect_success "Enter opens the detail of the selected pair, q comes back to it" '
	steps "2" "/#434<Enter>" "<Enter>" ":save-display detail.screen" "q" ":save-display back.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen detail.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals  > detail
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
	assert_screen back.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	sorted by date, ascending; 1 of 496 match /#434/; > scrolls right       1/1 100%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_done
