#!/bin/bash
# End to end in a real terminal (tmux, 80x24): the dashboard opens on the
# sample week with the overview's verdict, redraws when the terminal is
# resized, and q, SIGINT and SIGTERM all give the shell back its terminal.
# Skipped when tmux is not installed.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "ok 1 # SKIP tmux is not installed"
	echo "1..1"
	exit 0
fi

SOCK=tiadash-test-$$
tmx() {
	tmux -L "$SOCK" -f /dev/null "$@"
}
# A server of our own, on a socket of our own; stopped when the file ends.
trap 'tmx kill-server 2>/dev/null' EXIT

screen() {
	tmx capture-pane -p -t t >"$1"
}

# wait_for PATTERN FILE: poll the pane until it shows PATTERN (a watchdog,
# not a timing assertion: the wait gives up after $TEST_TIMEOUT / 4 s).
wait_for() {
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
		"env -i PATH=\"$PATH\" HOME=\"$HOME\" TERM=screen LC_ALL=C.UTF-8 TZ=UTC \
		TIADASH_NOW=$TIADASH_NOW PS1=\"ready\\$ \" bash --norc --noprofile -i" &&
	wait_for "^ready\\$" pane
'

start_dashboard() {
	tmx send-keys -t t "clear; \"$TIADASH_BIN\" --db week.db --repo \"$SAMPLE/repo\" tui --since 2026-11-01; echo exit=\$?" Enter &&
	wait_for "^Gate check  NO-GO" pane
}

test_expect_success 'the dashboard opens on the overview with the verdict' '
	start_dashboard &&
	grep "  pairs  " pane >line &&
	echo "            pairs                                  >= 50       295 PASS" >expect &&
	test_cmp expect line &&
	test_grep "^\[overview\] NO-GO" pane
'

# wait_for_width N: the status line is redrawn N columns wide. (The old
# width's line also matches the pattern until the redraw lands.)
wait_for_width() {
	local n=0 limit=$((TEST_TIMEOUT * 10 / 4))
	while :; do
		screen pane
		if grep -q "^\[overview\] NO-GO  *1/29   0%$" pane &&
		   [ "$(grep "^\[overview\]" pane | wc -L)" = "$1" ]; then
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
	tmx resize-window -t t -x 120 -y 40 &&
	wait_for_width 120 &&
	tmx resize-window -t t -x 80 -y 24 &&
	wait_for_width 80
'

test_expect_success 'q quits cleanly: the pane shows the shell again' '
	tmx send-keys -t t q &&
	wait_for "^exit=0$" pane &&
	! grep -q "Gate check" pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_for "^icanon$" pane &&
	test_grep "^echo$" pane
'

test_expect_success 'SIGINT restores the terminal and the shell sees the signal' '
	start_dashboard &&
	tmx send-keys -t t C-c &&
	# bash drops the rest of the line after a SIGINT: ask for the status.
	wait_for "^ready\\$ *$" pane &&
	tmx send-keys -t t "echo exit=\$?" Enter &&
	wait_for "^exit=130$" pane &&
	! grep -q "Gate check" pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_for "^icanon$" pane
'

test_expect_success 'SIGTERM restores the terminal too' '
	start_dashboard &&
	shell=$(tmx display-message -p -t t "#{pane_pid}") &&
	pid=$(pgrep -P "$shell" -x tiadash) &&
	kill -TERM "$pid" &&
	wait_for "^exit=143$" pane &&
	! grep -q "Gate check" pane &&
	tmx send-keys -t t "stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo" Enter &&
	wait_for "^icanon$" pane
'

test_done
