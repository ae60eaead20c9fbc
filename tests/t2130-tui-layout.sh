#!/bin/bash
# No glued values and no needless cuts: an undefined figure keeps its label
# (an empty store); columns take the width their values need (the detail's
# rule, the help's keys, the disagreements' state) before the last one is
# cut; a message too long for the help line takes the status line too.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

test_expect_success "setup: the sample week and an empty store" '
	tui_week && : >rules &&
	tiadash --db empty.db init >/dev/null
'

test_expect_success "an empty store: what to run, no figure glued to its label" '
	steps ":save-display empty.screen" &&
	TUI_DB=empty.db tui --rules rules &&
	grep -x "Store       no runs yet; to fill it:" empty.screen &&
	! grep -q "[0-9a]n/a\|n/an/a" empty.screen
'

test_expect_success "the detail names the rule in effect with its source under the path, at 80 and at 200" '
	printf "tests/fixtures/**\n" >fx.rules &&
	steps ":434" ":save-display narrow.screen" ":resize 200x50" ":save-display wide.screen" &&
	tui --since 2026-11-01 --rules fx.rules &&
	grep -A1 "^changed" narrow.screen >actual &&
	cat >expect <<-\EOF &&
	changed     M tests/fixtures/fx_rates.json                                   n/a
	              force-full:tests/fixtures/** (in effect: fx.rules)
	EOF
	test_cmp expect actual &&
	grep -A1 "^changed" wide.screen | sed "s/  */ /g" >actual &&
	printf "%s\n" "changed M tests/fixtures/fx_rates.json n/a" \
		" force-full:tests/fixtures/** (in effect: fx.rules)" >expect &&
	test_cmp expect actual &&
	test_grep "^state       closed-by-rules (force-full:tests/fixtures/\*\*)$" narrow.screen
'

test_expect_success "the help's keys are never cut; its texts wrap instead" '
	steps "?" ":save-display help.screen" &&
	tui --since 2026-11-01 --rules rules &&
	grep -c "~" help.screen >count || : &&
	echo 0 >expect && test_cmp expect count &&
	test_grep "^<PgDn>, <Space>, <C-f> Move the cursor down one page$" help.screen
'

test_expect_success "the disagreements' class and state columns fit their values" '
	steps "3" ":save-display d.screen" "/^flaky<Enter>" ":save-display f.screen" &&
	tui --since 2026-11-01 --rules rules &&
	sed -n 2p d.screen >actual &&
	echo "CLASS        STATE          PR EVIDENCE" >expect && test_cmp expect actual &&
	sed -n 3p f.screen >actual &&
	echo "flaky        new          #421 passed on a rerun" >expect && test_cmp expect actual
'

test_expect_success "a message longer than the help line takes the status line too" '
	mkdir -p a-rather-long-directory-name/for-the-rules-of-a-team &&
	r=a-rather-long-directory-name/for-the-rules-of-a-team/force-full.rules && : >$r &&
	steps "4" "/flags.json<Enter>" "a" ":save-display long.screen" &&
	tui --since 2026-11-01 --rules $r &&
	tail -n 2 long.screen >actual &&
	cat >expect <<-\EOF &&
	accepted web/src/config/flags.json into
	a-rather-long-directory-name/for-the-rules-of-a-team/force-full.rules (u undoes)
	EOF
	test_cmp expect actual
'

test_expect_success "the status line and the tab bar at 200 columns: nothing cut" '
	steps ":resize 200x50" "2" "/escape<Enter>" ":save-display s.screen" &&
	tui --since 2026-11-01 --rules rules &&
	! grep -q "~$" s.screen &&
	sed -n 49p s.screen | sed "s/  */ /g" >actual &&
	echo "sorted by date, ascending; 10 of 496 match /escape/ 1/10 0%" >expect &&
	test_cmp expect actual
'

test_done
