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
	11-01 12:12   #413 2f67ac7 flaky        selected 0.040  127 s 1408 s  1.00
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75
	11-01 17:38   #425 1e1859a agree        selected 0.060  140 s 1408 s  1.00
	11-01 17:44   #424 303c4a1 agree        selected 0.020  117 s 1512 s  1.00
	11-01 17:58   #426 cadb0b1 agree        selected 0.040  122 s 1338 s  0.80
	11-01 19:45   #427 9d2cd17 agree        run_all  1.000 1296 s 1290 s   n/a
	11-02 01:37   #429 a6291e9 agree        run_all  1.000 1524 s 1348 s   n/a
	11-02 03:45   #432 f4ed7db agree        selected 0.040  122 s 1244 s   n/a
	11-02 04:57   #433 f5318b5 agree        selected 0.053  133 s 1359 s  1.00
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67
	11-02 08:13   #430 b68409b agree        run_all  1.000 1407 s 1175 s   n/a
	sorted by date, ascending                                             1/300   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "runs at 120x40" '
	steps "2" ":resize 120x40" ":save-display runs.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen runs.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV VERDICTS  REASONS
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00 pass/pass acme/ledger
	11-01 00:44   #415 c440f44 agree        selected 0.007  122 s 1469 s   n/a pass/pass acme/ledger
	11-01 05:45   #418 50b30ed agree        nothing  0.000   99 s 1406 s   n/a pass/pass acme/ledger
	11-01 12:12   #413 2f67ac7 flaky        selected 0.040  127 s 1408 s  1.00 pass/pass acme/ledger
	11-01 13:49   #414 42d2dde agree        selected 0.047  147 s 1308 s  1.00 fail/fail acme/ledger
	11-01 14:06   #422 832d0f7 agree        selected 0.040  160 s 1100 s  1.00 pass/pass acme/ledger
	11-01 14:08   #421 82eef7b flaky        selected 0.047  133 s 1312 s   n/a pass/pass acme/ledger
	11-01 14:08   #417 42689df agree        run_all  1.000 1600 s 1447 s  1.00 pass/pass acme/ledger  force-full:migrations~
	11-01 15:53   #423 720e5c9 agree        run_all  1.000 1547 s 1277 s   n/a pass/pass acme/ledger  force-full:.github/**
	11-01 16:25   #420 48b4c74 agree        selected 0.080  150 s 1411 s  0.75 pass/pass acme/ledger
	11-01 17:38   #425 1e1859a agree        selected 0.060  140 s 1408 s  1.00 pass/pass acme/ledger
	11-01 17:44   #424 303c4a1 agree        selected 0.020  117 s 1512 s  1.00 pass/pass acme/ledger
	11-01 17:58   #426 cadb0b1 agree        selected 0.040  122 s 1338 s  0.80 pass/pass acme/ledger
	11-01 19:45   #427 9d2cd17 agree        run_all  1.000 1296 s 1290 s   n/a pass/pass acme/ledger  UNMAPPED_FILE
	11-02 01:37   #429 a6291e9 agree        run_all  1.000 1524 s 1348 s   n/a pass/pass acme/ledger  force-full:pyproject.~
	11-02 03:45   #432 f4ed7db agree        selected 0.040  122 s 1244 s   n/a pass/pass acme/ledger
	11-02 04:57   #433 f5318b5 agree        selected 0.053  133 s 1359 s  1.00 pass/pass acme/ledger
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a pass/fail acme/ledger
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67 fail/pass acme/ledger
	11-02 08:13   #430 b68409b agree        run_all  1.000 1407 s 1175 s   n/a pass/pass acme/ledger  force-full:**/package~
	11-02 09:45   #435 358d221 agree        selected 0.080  142 s 1368 s  1.00 pass/pass acme/ledger
	11-02 09:46   #436 db3bf5f agree        run_all  1.000 1392 s 1231 s   n/a pass/pass acme/ledger  UNMAPPED_FILE
	11-02 09:58   #438 cb03142 agree        run_all  1.000 1212 s 1442 s   n/a pass/pass acme/ledger  selector-error
	11-02 10:22   #437 c3a2c7c escape       selected 0.007  114 s 1167 s  1.00 pass/fail acme/ledger
	11-02 10:28   #444 7d10927 agree        run_all  1.000 1192 s 1327 s   n/a pass/pass acme/ledger  force-full:pyproject.~
	11-02 10:32   #442 90ec818 agree        selected 0.080  173 s 1400 s  0.86 pass/pass acme/ledger
	11-02 10:38   #446 afafed5 agree        selected 0.020  116 s 1190 s  1.00 pass/pass acme/ledger
	11-02 10:39   #440 e94ebde agree        selected 0.040  103 s 1409 s  1.00 pass/pass acme/ledger
	11-02 10:49   #447 9f960f6 agree        selected 0.080  153 s 1357 s  0.73 pass/pass acme/ledger
	11-02 11:11   #448 e61154b agree        selected 0.080  170 s 1417 s  1.00 pass/pass acme/ledger
	11-02 11:19   #450 77d385b agree        selected 0.067  169 s 1194 s  1.00 pass/pass acme/ledger
	11-02 11:24   #454 7cb180a agree        selected 0.040  141 s 1387 s  0.00 pass/pass acme/ledger
	11-02 11:24   #456 950f556 over-strict  selected 0.073  148 s 1265 s  1.00 fail/pass acme/ledger
	11-02 11:38   #457 cd28773 agree        selected 0.020  124 s 1342 s  1.00 pass/pass acme/ledger
	11-02 11:49   #452 6102566 agree        selected 0.080  139 s 1416 s  0.93 pass/pass acme/ledger
	11-02 12:01   #458 4b13244 agree        selected 0.027  134 s 1491 s   n/a pass/pass acme/ledger
	sorted by date, ascending                                                                                     1/300   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "s sorts by the next column, S reverses and keeps the cursor on its pair" '
	steps "2" "<Down>" "s" ":save-display sorted.screen" "S" ":save-display reversed.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen sorted.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE           PR↑ HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
	11-01 12:12   #413 2f67ac7 flaky        selected 0.040  127 s 1408 s  1.00
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
	sorted by pr, ascending                                               4/300   1%
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
	11-01 12:12   #413 2f67ac7 flaky        selected 0.040  127 s 1408 s  1.00
	11-01 00:15   #412 da967b6 agree        selected 0.013   97 s 1322 s  1.00
	
	
	
	
	
	
	
	
	
	
	
	sorted by pr, descending                                            297/300  98%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_expect_success "G jumps to the last page, PgUp pages back, g to the top" '
	steps "2" "G" ":save-display last.screen" "<PgUp>" "<PgUp>" ":save-display up.screen" "g" ":save-view top.view" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen last.screen <<-\EOF &&
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-06 17:22   #748 9ec1cb5 agree        selected 0.073  162 s 1151 s  1.00
	11-06 17:34   #761 d684abb agree        selected 0.073  144 s 1318 s  1.00
	11-06 17:44   #760 f0dba8d agree        selected 0.020  111 s 1203 s   n/a
	11-06 17:45   #762 2da1633 escape       nothing  0.000   98 s 1360 s   n/a
	11-06 17:50   #758 063375e agree        run_all  1.000 1347 s 1570 s   n/a
	11-06 17:51   #763 66d3a6a agree        nothing  0.000  102 s 1408 s   n/a
	11-06 18:02   #768 645f009 agree        selected 0.020  117 s 1380 s  1.00
	11-06 18:11   #764 9296123 agree        nothing  0.000  102 s 1351 s   n/a
	11-06 19:00   #766 1819152 agree        selected 0.060  137 s 1362 s  1.00
	11-06 21:05   #771 2983302 agree        run_all  1.000 1248 s 1427 s  1.00
	11-06 21:22   #770 78cb9d9 agree        selected 0.040  128 s 1367 s  0.00
	11-06 22:13   #774 1d6ee0a agree        selected 0.007  129 s 1304 s   n/a
	11-07 01:11   #775 b6ea5b8 agree        selected 0.040  127 s 1427 s   n/a
	11-07 05:03   #772 3ac3745 agree        run_all  1.000 1284 s 1277 s  0.70
	11-07 09:57   #776 2fa0ddb agree        selected 0.093  177 s 1360 s  0.33
	11-07 10:07   #778 5666586 agree        run_all  1.000 1322 s 1145 s   n/a
	11-07 13:11   #780 facefe4 agree        run_all  1.000 1366 s 1363 s   n/a
	11-07 14:08   #779 dcc143f agree        nothing  0.000  103 s 1375 s   n/a
	11-07 16:55   #777 3143184 incomplete   selected 0.013  115 s    n/a  1.00
	11-07 18:09   #782 e9e2584 agree        run_all  1.000 1348 s 1399 s  1.00
	sorted by date, ascending                                           300/300 100%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
	assert_screen up.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-06 08:44   #708 33b8dd8 agree        selected 0.080  166 s 1308 s  1.00
	11-06 08:54   #709 6416a8f agree        selected 0.040  137 s 1196 s  1.00
	11-06 08:56   #710 3b76bb0 agree        nothing  0.000   97 s 1440 s   n/a
	11-06 08:59   #712 580dfdb agree        selected 0.027  142 s 1364 s  1.00
	11-06 09:01   #711 dc50902 non-hermetic selected 0.053  119 s 1432 s  1.00
	11-06 09:05   #706 984b29b agree        selected 0.073  143 s 1394 s  0.50
	11-06 09:26   #713 59b56b6 agree        selected 0.080  163 s 1341 s   n/a
	11-06 09:28   #705 f156adf agree        selected 0.033  123 s 1332 s  1.00
	11-06 09:28   #715 b3d4390 agree        run_all  1.000 1350 s 1430 s   n/a
	11-06 09:36   #718 512dd50 agree        selected 0.027  112 s 1273 s  1.00
	11-06 09:43   #717 0670842 incomplete   -          n/a    n/a 1412 s   n/a
	11-06 09:51   #719 a76b03e agree        selected 0.060  133 s 1379 s  1.00
	11-06 11:09   #725 ef502c4 flaky        selected 0.060  140 s 1470 s  1.00
	11-06 11:11   #726 b1deced agree        selected 0.047  102 s 1291 s  1.00
	11-06 11:14   #727 83713f8 agree        run_all  1.000 1159 s 1229 s   n/a
	11-06 11:15   #723 6c2f3fb over-strict  selected 0.100  167 s 1268 s  1.00
	11-06 11:50   #728 e3f440a agree        selected 0.080  145 s 1376 s  1.00
	11-06 11:57   #729 7f71114 agree        run_all  1.000 1316 s 1415 s   n/a
	11-06 12:05   #730 ac14f9a agree        run_all  1.000 1302 s 1402 s   n/a
	11-06 12:09   #721 953be8f flaky        selected 0.027  118 s 1432 s   n/a
	sorted by date, ascending                                           260/300  86%
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
	11-02 11:24   #456 950f556 over-strict  selected 0.073  148 s 1265 s  1.00
	11-02 10:22   #437 c3a2c7c escape       selected 0.007  114 s 1167 s  1.00
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	11-02 07:50   #428 eaa58ca over-strict  selected 0.040  132 s 1209 s  0.67
	
	
	
	
	
	
	sorted by pr, descending; 14 of 300 match /escape|over-strict/         1/14   0%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
	assert_screen filtered.view <<-\EOF
	view runs
	lines 14
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
	  11-02 11:24 #456 950f556 over-strict selected 0.073 148 s 1265 s 1.00 fail/pass acme/ledger
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
	
	
	
	
	
	
	
	
	
	
	sorted by date, ascending; 10 of 300 match /escape/                    1/10   0%
	invalid regex at offset 9: missing closing parenthesis
	EOF
'

test_expect_success "an empty filter shows every pair again" '
	steps "2" "/escape<Enter>" "/<C-u><Enter>" ":save-view all.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 2,6p all.view >actual &&
	printf "lines 300\ncursor 0\noffset 0\nsort date asc\nfilter -\n" >expect &&
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
	selection   nothing (affected 0.000)
	diff cov    n/a
	changed     M tests/fixtures/fx_rates.json                   (no rule)       n/a
	runs        shadow #1 pass  11-02 07:48   104 s 0 tests, 0 failed, 0 skipped
	            full #1   fail  11-02 07:49  1278 s 150 tests, 1 failed, 2 skipped
	              failed tests/test_fx.py::test_rates_from_fixture
	
	
	
	
	
	
	
	
	
	
	
	escape                                                                 1/10   0%
	x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
	assert_screen back.screen <<-\EOF
	 1 overview  [2 runs]  3 disagreements   4 proposals
	DATE↑           PR HEAD    CLASS        DECISION   AFF SHADOW   FULL  DCOV
	11-02 07:48   #434 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	sorted by date, ascending; 1 of 300 match /#434/                        1/1 100%
	s sort  x explain  <Enter> open  q back  <Tab> views  ? help  / filter  r reload
	EOF
'

test_done
