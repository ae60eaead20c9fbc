#!/bin/bash
# End to end in a real terminal (tmux, 80x24 and 200x50): the dashboard
# opens on the sample week with the overview's verdict, redraws when the
# terminal is resized, takes mouse clicks, copies with OSC 52 into tmux's
# clipboard, and q, SIGINT and SIGTERM all give the shell back its terminal.
# Skipped when tmux is not installed.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

SOCK=tiadash-test-$$
tmx() {
	tmux -L "$SOCK" -f /dev/null "$@"
}
# A server of our own, on a socket of our own; stopped when the file ends.
trap 'tmx kill-server 2>/dev/null' EXIT

screen() {
	tmx capture-pane -p -t t >"$1"
}

# wait_pane PATTERN FILE: poll the pane until it shows PATTERN (a watchdog,
# not a timing assertion: the wait gives up after $TEST_TIMEOUT / 4 s).
wait_pane() {
	local n=0 limit=$((TEST_TIMEOUT * 10 / 4))
	while :; do
		screen "$2"
		grep -q -e "$1" "$2" && return 0
		n=$((n + 1))
		if [ $n -ge $limit ]; then
			echo "the pane never showed '$1':" >&2
			cat "$2" >&2
			return 1
		fi
		sleep 0.1
	done
}

test_expect_success 'setup: the sample week and a shell in an 80x24 tmux pane' '
	tui_week &&
	tmx new-session -d -s t -x 80 -y 24 \
		"env -i PATH=\"$PATH\" HOME=\"$HOME\" TERM=tmux-256color LC_ALL=C.UTF-8 TZ=UTC \
		TIADASH_NOW=$TIADASH_NOW PS1=\"ready\\$ \" bash --norc --noprofile -i" &&
	# Programs in the pane may set the clipboard (OSC 52).
	tmx set-option -g set-clipboard on &&
	wait_pane "^ready\\$" pane
'

start_dashboard() {
	tmx send-keys -t t "clear; \"$TIADASH_BIN\" --db week.db --repo \"$SAMPLE/repo\" tui --since 2026-11-01; echo exit=\$?" Enter &&
	wait_pane "^NO-GO  *1/32   0%$" pane
}

test_expect_success 'the dashboard opens on the overview with the verdict' '
	start_dashboard &&
	grep "^Escapes" pane | cut -c1-64 >line &&
	echo "Escapes     13 of 295 pairs (4.41%); 0 explained, 3 non-hermetic" >expect &&
	test_cmp expect line &&
	test_grep "^NO-GO  *1/32   0%$" pane &&
	test_grep "^\[1 overview\]  2 runs   3 disagreements   4 proposals$" pane
'

# wait_for_width N: the status line is redrawn N columns wide. (The old
# width's line also matches the pattern until the redraw lands.)
wait_for_width() {
	local n=0 limit=$((TEST_TIMEOUT * 10 / 4))
	while :; do
		screen pane
		if grep -q "^NO-GO  *1/32   0%$" pane &&
		   [ "$(grep "^NO-GO " pane | wc -L)" = "$1" ]; then
			return 0
		fi
		n=$((n + 1))
		if [ $n -ge $limit ]; then
			echo "the status line never became $1 columns wide:" >&2
			cat pane >&2
			return 1
		fi
		sleep 0.1
	done
}

test_expect_success 'resizing the terminal redraws at the new size' '
	tmx resize-window -t t -x 200 -y 50 &&
	wait_for_width 200 &&
	tmx resize-window -t t -x 80 -y 24 &&
	wait_for_width 80
'

# click X Y: a left click at column X, line Y (from 0) in the X10 encoding
# tmux-256color declares (kmous=\E[M): press, then release.
click() {
	local x y
	x=$(printf "\\%03o" $(($1 + 33))) y=$(printf "\\%03o" $(($2 + 33)))
	tmx send-keys -t t -l "$(printf "\033[M $x$y\033[M#$x$y")"
}

test_expect_success 'a click on a tab opens its view, a click on a row selects it' '
	click 25 0 &&
	wait_pane "^CLASS  *STATE  *PR EVIDENCE" pane &&
	test_grep "^ 1 overview   2 runs  \[3 disagreements\]  4 proposals$" pane &&
	click 5 4 &&
	wait_pane "^10 escapes.* 3/19  " pane
'

# runs_at_200: the runs are drawn wide, their status line too (a capture
# may land between the first redrawn line and the last).
runs_at_200() {
	local n=0 limit=$((TEST_TIMEOUT * 10 / 4))
	while :; do
		screen pane
		grep -q "VERDICTS    REPO        REASONS$" pane &&
			[ "$(grep "^sorted by date" pane | wc -L)" = 200 ] && return 0
		n=$((n + 1))
		if [ $n -ge $limit ]; then
			echo "the runs were never drawn 200 columns wide:" >&2
			cat pane >&2
			return 1
		fi
		sleep 0.1
	done
}

test_expect_success 'at 200x50 the runs show their verdicts, repo and reasons, each under its title' '
	tmx resize-window -t t -x 200 -y 50 &&
	tmx send-keys -t t 2 &&
	runs_at_200 &&
	grep "#417" pane >row &&
	test_grep " 1.00 pass/pass   acme/ledger force-full:migrations/\*\*$" row
'

test_expect_success 'y copies the selected commit with OSC 52 (into tmux'"'"'s clipboard)' '
	tmx send-keys -t t g &&
	wait_pane "^sorted by date, ascending  *1/496   0%$" pane &&
	tmx send-keys -t t y &&
	wait_pane "^copied da967b6" pane &&
	tmx show-buffer >buffer &&
	test "$(cat buffer)" = "$(git -C "$SAMPLE/repo" rev-parse refs/pull/412/head)" &&
	tmx resize-window -t t -x 80 -y 24 &&
	tmx send-keys -t t 1 &&
	wait_for_width 80
'

test_expect_success 'Esc closes the help and leaves a detail (as tig and lazygit)' '
	tmx send-keys -t t "?" &&
	wait_pane "> help$" pane &&
	tmx send-keys -t t Escape &&
	wait_pane "^NO-GO  *1/32   0%$" pane &&
	tmx send-keys -t t "#" "434" Enter &&
	wait_pane "> detail$" pane &&
	tmx send-keys -t t Escape &&
	wait_pane "^NO-GO  *1/32   0%$" pane &&
	! grep -q "> detail" pane
'

test_expect_success 't opens the tests view; y copies a test id, Enter its history, Esc goes back' '
	tmx send-keys -t t t &&
	wait_pane "> tests$" pane &&
	sed -n 3p pane >row &&
	echo "     3      3     0     0    0     92 296   2026-11-07 tests/registry/test_plug~" >expect &&
	test_cmp expect row &&
	tmx send-keys -t t y &&
	wait_pane "^copied tests/registry" pane &&
	tmx show-buffer >buffer &&
	test "$(cat buffer)" = "tests/registry/test_plugins.py::test_rounding_plugin_loaded" &&
	tmx send-keys -t t Enter &&
	wait_pane "> test$" pane &&
	test_grep "^ran 296, selected 92, failed 3, missed 3, inherited 0, flaky 0, quarantined 0$" pane &&
	tmx send-keys -t t Escape &&
	wait_pane "> tests$" pane &&
	tmx send-keys -t t Escape &&
	wait_pane "^NO-GO  *1/32   0%$" pane
'

test_expect_success 'q quits cleanly: the pane shows the shell again' '
	tmx send-keys -t t q &&
	wait_pane "^exit=0$" pane &&
	! grep -q "^NO-GO " pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_pane "^icanon$" pane &&
	wait_pane "^echo$" pane # the line after icanon: a capture may fall between them
'

test_expect_success 'SIGINT restores the terminal and the shell sees the signal' '
	start_dashboard &&
	tmx send-keys -t t C-c &&
	# bash drops the rest of the line after a SIGINT: ask for the status.
	wait_pane "^ready\\$ *$" pane &&
	tmx send-keys -t t "echo exit=\$?" Enter &&
	wait_pane "^exit=130$" pane &&
	! grep -q "^NO-GO " pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_pane "^icanon$" pane
'

test_expect_success 'SIGTERM restores the terminal too' '
	start_dashboard &&
	shell=$(tmx display-message -p -t t "#{pane_pid}") &&
	pid=$(pgrep -P "$shell" -x tiadash) &&
	kill -TERM "$pid" &&
	wait_pane "^exit=143$" pane &&
	! grep -q "^NO-GO " pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_pane "^icanon$" pane
'

test_done
