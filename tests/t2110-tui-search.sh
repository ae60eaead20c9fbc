#!/bin/bash
# `/` in every view: lists (runs, disagreements) are filtered as each
# character is typed, the other views searched; the matches highlighted;
# n and N go to the next and previous match; Esc clears; `/` starts empty.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "the runs are filtered as each character is typed" '
	steps "2" "/esc" ":save-view typing.view" "ape|over-s" ":save-view more.view" "<Enter>" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 2p typing.view >actual && echo "lines 10" >expect && test_cmp expect actual &&
	sed -n "2p;6p" more.view >actual && printf "lines 13\nfilter escape|over-s\n" >expect &&
	test_cmp expect actual
'

test_expect_success "the matches are highlighted (underlined bold without colour)" '
	steps "2" "/#43[47]<Enter>" ":save-attrs hl.attrs" &&
	NO_COLOR=1 tui --since 2026-11-01 --rules rules &&
	sed -n 3,4p hl.attrs >actual &&
	cat >expect <<-\EOF &&
	{R}11-02 07:48   {BU}#434{R} 8a1a282 escape       nothing  0.000  104 s 1278 s   n/a
	11-02 10:22   {BU}#437{-} c3a2c7c {B}escape{-}       selected 0.007  114 s 1167 s  1.00
	EOF
	test_cmp expect actual
'

test_expect_success "Esc clears the filter; / starts empty again" '
	steps "2" "/escape<Enter>" "<Esc>" ":save-view cleared.view" ":save-display cleared.screen" \
	      "/over" ":save-display prompt.screen" "<Esc>" ":save-view esc.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n "2p;6p" cleared.view >actual && printf "lines 496\nfilter -\n" >expect &&
	test_cmp expect actual &&
	tail -n 1 cleared.screen >actual && echo "filter cleared" >expect && test_cmp expect actual &&
	tail -n 1 prompt.screen >actual && echo "/over" >expect && test_cmp expect actual &&
	sed -n 2p esc.view >actual && echo "lines 496" >expect && test_cmp expect actual
'

test_expect_success "n and N go to the next and previous match, round the end" '
	steps ":resize 120x40" "3" "/flaky<Enter>" "G" "n" ":save-view wrap.view" ":save-display wrap.screen" \
	      "N" ":save-view back.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3p wrap.view >actual && echo "cursor 0" >expect && test_cmp expect actual &&
	tail -n 1 wrap.screen >actual && echo "search went round the end" >expect && test_cmp expect actual &&
	sed -n 3p back.view >actual && echo "cursor 2" >expect && test_cmp expect actual
'

test_expect_success "the detail is searched: the cursor goes to the match as it is typed, n to the next" '
	steps ":437" "/failed" ":save-view one.view" "<Enter>" "n" ":save-view two.view" ":save-display two.screen" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3p one.view >actual && echo "cursor 10" >expect && test_cmp expect actual &&
	sed -n 3p two.view >actual && echo "cursor 11" >expect && test_cmp expect actual &&
	sed -n 23p two.screen >actual &&
	echo "escape; search /failed/; > scrolls right                              12/15  78%" >expect &&
	test_cmp expect actual
'

test_expect_success "the help is searched; a pattern that matches nothing is said so" '
	steps "?" "/half" ":save-view help.view" "<Enter>" "/zzzq<Enter>" ":save-display none.screen" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3p help.view >actual && echo "cursor 5" >expect && test_cmp expect actual &&
	tail -n 1 none.screen >actual && echo "no line matches /zzzq/" >expect && test_cmp expect actual
'

test_expect_success "the proposals are searched (Enter then opens the glob found)" '
	steps "4" "/entry_points<Enter>" "<Enter>" ":save-view pv.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 5,6p pv.view >actual &&
	printf "mode preview\npreview ledger/registry/entry_points.toml\n" >expect &&
	test_cmp expect actual
'

test_expect_success "an overview search, then Esc: the cursor stays where the match was" '
	steps "/Force<Enter>" "<Esc>" ":save-view ov.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3p ov.view >actual && echo "cursor 13" >expect && test_cmp expect actual
'

test_done
