#!/bin/bash
# What tig, htop and lazygit users reach for: the mouse (a click on a tab
# or a row, a double click, the wheel, a click on a column's title), C-d and
# C-u, F1 and F10, F-keys named <F5>, y (copied text printed on exit without
# OSC 52), o (the commit in $TIADASH_PAGER), X (a note in $EDITOR), and the
# help of the current view first, whose Enter runs the key.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week" '
	tui_week && : >rules
'

test_expect_success "a click on a tab opens that view; on a row selects it; a double click opens it" '
	steps "<Click 24 0>" ":save-view tab.view" "<Click 3 5>" ":save-view row.view" \
	      "<DoubleClick 3 6>" ":save-view open.view" &&
	tui --since 2026-11-01 --rules rules &&
	head -n 3 tab.view >actual && printf "view disagreements\nlines 19\ncursor 0\n" >expect &&
	test_cmp expect actual &&
	sed -n 3p row.view >actual && echo "cursor 3" >expect && test_cmp expect actual &&
	sed -n 1p open.view >actual && echo "view detail" >expect && test_cmp expect actual &&
	sed -n 5p open.view >actual &&
	echo "PR #563  acme/ledger  head 3126ce9b0919  base 7d0e308462d5  2026-11-03 17:18" >expect &&
	test_cmp expect actual
'

test_expect_success "the wheel scrolls; a click on a column title sorts by it, again reverses" '
	steps "2" "<WheelDown 5 5>" "<WheelDown 5 5>" ":save-view wheel.view" "<Click 50 1>" ":save-view sort1.view" \
	      "<Click 50 1>" ":save-view sort2.view" ":save-display sort2.screen" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3,4p wheel.view >actual && printf "cursor 6\noffset 6\n" >expect && test_cmp expect actual &&
	sed -n 5p sort1.view >actual && echo "sort affected asc" >expect && test_cmp expect actual &&
	sed -n 5p sort2.view >actual && echo "sort affected desc" >expect && test_cmp expect actual &&
	sed -n 2p sort2.screen >actual &&
	echo "DATE            PR HEAD    CLASS        DECISION  AFF↓ SHADOW   FULL  DCOV" >expect &&
	test_cmp expect actual
'

test_expect_success "a click on a hint of the help line runs its key" '
	# The overview'"'"'s help line: "<Enter> open  q back  <Tab> views  ? help ..."
	steps "<Click 36 23>" ":save-view hint.view" &&
	tui --since 2026-11-01 --rules rules &&
	head -n 1 hint.view >actual && echo "view help" >expect && test_cmp expect actual
'

test_expect_success "C-d and C-u move half a page" '
	steps "2" "<C-d>" ":save-view d.view" "<C-d>" "<C-u>" ":save-view u.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 3p d.view >actual && echo "cursor 10" >expect && test_cmp expect actual &&
	sed -n 3p u.view >actual && echo "cursor 10" >expect && test_cmp expect actual
'

test_expect_success "F1 opens the help, F10 quits; F-keys are named <F5>" '
	steps "<F1>" ":save-view f1.view" "q" "<F5>" ":save-display f5.screen" "<F10>" ":save-view after.view" &&
	tui --since 2026-11-01 --rules rules &&
	head -n 1 f1.view >actual && echo "view help" >expect && test_cmp expect actual &&
	tail -n 1 f5.screen >actual && echo "<F5> is not bound here (? shows the keys)" >expect &&
	test_cmp expect actual &&
	! test -e after.view
'

test_expect_success "the help lists the current view's keys first; Enter runs one there" '
	steps ":resize 200x50" "2" "?" ":save-view help.view" "<Down>" "<Enter>" ":save-view runs.view" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 5,7p help.view >actual &&
	printf "In the runs view\ns Sort by the next column (the header marks it with an arrow)\nS Reverse the sort order\n" >expect &&
	test_cmp expect actual &&
	sed -n "1p;5p" runs.view >actual && printf "view runs\nsort pr asc\n" >expect &&
	test_cmp expect actual
'

test_expect_success "y without OSC 52: said on the last line, printed when the dashboard closes" '
	steps "4" "/flags.json<Enter>" "y" ":save-display y.screen" ":434" "/^missed<Enter>" "y" "2" "y" &&
	tui --since 2026-11-01 --rules rules >out &&
	tail -n 2 y.screen >actual &&
	printf "%s\n%s\n" "web/src/config/flags.json: printed when the dashboard closes (this terminal" \
		"takes no OSC 52)" >expect &&
	test_cmp expect actual &&
	cat >expect <<-EOF &&
	copied: web/src/config/flags.json
	copied: tests/test_fx.py::test_rates_from_fixture
	copied: $(git -C "$SAMPLE/repo" rev-parse refs/pull/412/head)
	EOF
	test_cmp expect out
'

test_expect_success "o opens the commit with \$TIADASH_PAGER in the repository" '
	printf "#!/bin/sh\necho \"\$*\" \"\$(pwd)\" >>\"%s/pager.log\"\n" "$TRASH" >pager && chmod +x pager &&
	steps "3" "o" "<Enter>" "o" &&
	TIADASH_PAGER="$TRASH/pager" tui --since 2026-11-01 --rules rules &&
	h=$(git -C "$SAMPLE/repo" rev-parse refs/pull/434/head) &&
	printf "%s %s\n%s %s\n" "$h" "$SAMPLE/repo" "$h" "$SAMPLE/repo" >expect &&
	test_cmp expect pager.log &&
	mkdir -p bin && printf "#!/bin/sh\nexit 3\n" >bin/failing && chmod +x bin/failing &&
	steps "3" "o" ":save-display fail.screen" &&
	PATH="$TRASH/bin:$PATH" TIADASH_PAGER=failing tui --since 2026-11-01 --rules rules &&
	tail -n 1 fail.screen >actual &&
	echo "'"'"'failing 8a1a2820ad6c'"'"' exited with status 3" >expect && test_cmp expect actual
'

test_expect_success "X writes the note in \$EDITOR; the template's comments are dropped" '
	cp week.db x.db &&
	cat >editor <<-EOF &&
	#!/bin/sh
	cp "\$1" "$TRASH/template"
	printf "the fixture changed\\n# not this\\nsee INC-7\\n" >>"\$1"
	EOF
	chmod +x editor &&
	steps "3" "X" ":save-display x.screen" &&
	EDITOR="$TRASH/editor" TUI_DB=x.db tui --since 2026-11-01 --rules rules &&
	sqlite3 x.db "SELECT h.pr, n.text FROM note n JOIN head h ON h.id = n.head_id" >notes &&
	echo "434|the fixture changed see INC-7" >expect && test_cmp expect notes &&
	tail -n 1 x.screen >actual && echo "explained PR #434 (u undoes)" >expect && test_cmp expect actual &&
	test_grep "^# Explain PR #434 (escape): why the shadow and the full run disagreed,$" template &&
	printf "#!/bin/sh\nexit 0\n" >editor &&
	steps "3" "X" ":save-display empty.screen" &&
	EDITOR="$TRASH/editor" TUI_DB=x.db tui --since 2026-11-01 --rules rules &&
	tail -n 1 empty.screen >actual &&
	echo "an empty note explains nothing: none stored" >expect && test_cmp expect actual
'

test_done
