#!/bin/bash
# The help view (?) and the man page list every key, both generated from the
# one table that binds them (tui/keys.c).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "? shows the keys at 80x24" '
	steps "?" ":save-display help.screen" &&
	tui --since 2026-11-01 --rules rules &&
	assert_screen help.screen <<-\EOF
	[1 overview]  2 runs   3 disagreements   4 proposals  > help
	In every view
	j, <Down>              Move the cursor down one line
	k, <Up>                Move the cursor up one line
	<PgDn>, <Space>, <C-f> Move the cursor down one page
	<PgUp>, <C-b>          Move the cursor up one page
	<C-d>                  Move the cursor down half a page
	<C-u>                  Move the cursor up half a page
	g, <Home>              Jump to the first line
	G, <End>               Jump to the last line
	<Enter>, l, <Right>    Go where the selected line points (drill in)
	h, <Left>              Go back to the previous view
	q                      Go back to the previous view; quit from the overview
	Q, <F10>               Quit at once
	<Tab>                  Cycle through the main views
	<S-Tab>                Cycle backwards through the main views
	?, <F1>                Show the keys, the current view'"'"'s first
	/                      Filter the list (runs, disagreements) or search the lines
	                       (other views) as you type, with a PCRE2 regular
	                       expression; the matches are highlighted
	n                      Go to the next line that matches the filter or search
	N                      Go to the previous line that matches
	Enter runs the selected key in the overview view                       1/68   0%
	<Enter> open  q back  <Tab> views  ? help  / filter  r reload  u undo
	EOF
'

test_expect_success "the help view lists every binding of the key table" '
	# Wide enough that no help text wraps onto a second line.
	steps ":resize 200x50" "?" ":save-view help.view" &&
	tui --since 2026-11-01 --rules rules &&
	tiadash --db week.db tui --print-keys >keys &&
	sed -e 1,4d -e "/^$/d" -e "s/ \{2,\}/ /g" -e "s/^ //" help.view >from-view &&
	sed -e "/^$/d" -e "s/ \{2,\}/ /g" -e "s/^ //" -e "s/^In every view:/In every view/" \
	    -e "s/^\([a-z]*\)$/In the \1 view/" keys >from-table &&
	test_cmp from-table from-view
'

test_expect_success "? again (or q) closes the help" '
	steps "2" "?" "?" ":save-view after.view" &&
	tui --since 2026-11-01 --rules rules &&
	head -1 after.view >actual && echo "view runs" >expect && test_cmp expect actual
'

test_expect_success "Esc closes the help, then leaves the detail, at 80x24, 100x30 and 200x50" '
	for size in 80x24 100x30 200x50; do
		steps ":resize $size" "3" "<Enter>" "?" ":save-view help.$size" "<Esc>" \
		      ":save-view detail.$size" "<Esc>" ":save-view list.$size" "<Esc>" \
		      ":save-view still.$size" &&
		tui --since 2026-11-01 --rules rules &&
		for v in help.$size detail.$size list.$size still.$size; do
			head -1 $v
		done >actual &&
		printf "view help\nview detail\nview disagreements\nview disagreements\n" >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success "the man page lists the keys exactly as the table" '
	tiadash --db week.db tui --print-keys=roff >expect &&
	sed -n "/^\.\\\\\" keys: generated/,/^\.\\\\\" keys: end/p" "$TOP/man/tiadash.1" |
		sed -e 1d -e \$d >actual &&
	test_cmp expect actual
'

test_expect_success "--help names the dashboard's options" '
	tiadash tui --help >help &&
	test_grep "^usage: tiadash tui \[--since WHEN\] \[--until WHEN\] \[--project NAME\]" help
'

test_done
