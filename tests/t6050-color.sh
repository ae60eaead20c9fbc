#!/bin/bash
# Colour on a terminal, as git's --color[=WHEN]: show's class (an escape
# bold red, non-hermetic yellow, agree green) and the classes of report's
# and summary's escapes on the sample week; none off a terminal, with
# NO_COLOR, TERM=dumb or --color=never; --color=always forces it, and the
# lines wrap where they wrap without it. (gate-check's PASS/FAIL and
# verdict: t6000.)
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: the sample week' '
	sample_week week.db
'

SHOW="$TIADASH_BIN --db week.db --repo $SAMPLE/repo show"

test_expect_success 'on a terminal: an escape bold red, non-hermetic yellow, agree green' '
	esc=$(printf "\033") &&
	TERM=xterm on_tty $SHOW 437 >escape.txt &&
	test_grep "^class       ${esc}\[1;31mescape${esc}\[m$" escape.txt &&
	TERM=xterm on_tty $SHOW 612 >nh.txt &&
	test_grep "^class       ${esc}\[33mnon-hermetic${esc}\[m$" nh.txt &&
	TERM=xterm on_tty $SHOW 412 >agree.txt &&
	test_grep "^class       ${esc}\[32magree${esc}\[m$" agree.txt &&
	tiadash --db week.db --repo "$SAMPLE/repo" show 437 >pipe.txt &&
	sed "s/${esc}\[[0-9;]*m//g" escape.txt >plain.txt && test_cmp pipe.txt plain.txt
'

test_expect_success 'no colour with NO_COLOR, TERM=dumb, --color=never or -o; --color=always forces it' '
	esc=$(printf "\033") &&
	tiadash --db week.db --repo "$SAMPLE/repo" show 437 >pipe.txt &&
	TERM=xterm NO_COLOR=1 on_tty $SHOW 437 >nc.txt &&
	on_tty $SHOW 437 >dumb.txt &&
	TERM=xterm on_tty $SHOW 437 --color=never >never.txt &&
	TERM=xterm on_tty $SHOW 437 -o file.txt >/dev/null &&
	for f in nc.txt dumb.txt never.txt file.txt; do
		test_cmp pipe.txt $f || return 1
	done &&
	NO_COLOR=1 tiadash --db week.db --repo "$SAMPLE/repo" show 437 --color=always >always.txt &&
	test_grep "^class       ${esc}\[1;31mescape${esc}\[m$" always.txt &&
	tiadash --db week.db --repo "$SAMPLE/repo" show 437 --color --format json >j.json &&
	! grep -q "$esc" j.json &&
	test_expect_code 2 tiadash --db week.db show 437 --color=maybe 2>err &&
	test_grep "^tiadash: error: --color is always, auto or never, not .maybe.$" err
'

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'report and summary --color=always: the escapes'"'"' classes, exact bytes' '
	esc=$(printf "\033") &&
	NO_COLOR=1 tiadash --db week.db report $W --color=always >report.always &&
	grep "^  PR #434 \|^  PR #612 " report.always >actual &&
	cat >expect <<-EOF &&
	  PR #434 8a1a2820ad6c ${esc}[1;31mescape${esc}[m acme/ledger, 1 missed
	  PR #612 6059dcc7d27a ${esc}[33mnon-hermetic${esc}[m acme/ledger, 1 selected and failed
	EOF
	test_cmp expect actual &&
	test "$(grep -c "$esc" report.always)" = 13 &&
	tiadash --db week.db summary $W --color >summary.always &&
	grep "^- PR #434 \|^- PR #612 " summary.always >actual &&
	cat >expect <<-EOF &&
	- PR #434 8a1a2820ad6c acme/ledger (${esc}[1;31mescape${esc}[m); missed
	- PR #612 6059dcc7d27a acme/ledger (${esc}[33mnon-hermetic${esc}[m); selected but failed
	EOF
	test_cmp expect actual &&
	test "$(grep -c "$esc" summary.always)" = 13 &&
	for c in report summary; do
		tiadash --db week.db $c $W >$c.pipe &&
		sed "s/${esc}\[[0-9;]*m//g" $c.always >$c.plain &&
		test_cmp $c.pipe $c.plain || return 1
	done
'

test_expect_success 'report and summary: colour on a terminal; none with NO_COLOR, TERM=dumb, --color=never, -o or another format' '
	esc=$(printf "\033") &&
	for c in report summary; do
		tiadash --db week.db $c $W --color=always >$c.always &&
		tiadash --db week.db $c $W >$c.pipe &&
		TERM=xterm on_tty $TIADASH_BIN --db week.db $c $W >tty.txt &&
		test_cmp $c.always tty.txt &&
		TERM=xterm NO_COLOR=1 on_tty $TIADASH_BIN --db week.db $c $W >nc.txt &&
		on_tty $TIADASH_BIN --db week.db $c $W >dumb.txt &&
		TERM=xterm on_tty $TIADASH_BIN --db week.db $c $W --color=never >never.txt &&
		TERM=xterm on_tty $TIADASH_BIN --db week.db $c $W -o file.txt >/dev/null &&
		for f in nc.txt dumb.txt never.txt file.txt; do
			test_cmp $c.pipe $f || return 1
		done &&
		tiadash --db week.db $c $W --color --format md >md.txt &&
		! grep -q "$esc" md.txt || return 1
	done &&
	test_expect_code 2 tiadash --db week.db report --color=maybe 2>err &&
	test_grep "^tiadash: error: --color is always, auto or never, not .maybe.$" err
'

test_done
