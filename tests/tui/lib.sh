# Helpers for the dashboard's tests (family 2), after tests/lib.sh: the TUI
# runs headless (TIADASH_NO_DISPLAY) and reads its keys and :commands from a
# script (TIADASH_SCRIPT); tests compare the screens it saves with the
# expected screens written inline (tig's test suite is the model).
#
#   tui_week                       the sample week in week.db (lib.sh's sample_week)
#   steps KEYS-OR-COMMAND...       write the script, one line each
#   tui [ARGS...]                  run `tiadash tui` on the script
#   assert_screen FILE <<\EOF      the screen FILE holds, exactly (UPDATE_SCREENS=DIR:
#                                  queue the screen it holds for tests/tui/update-screen.py)
#   no_control FILE                FILE holds no control byte but newlines

tui_week() {
	sample_week week.db
}

steps() {
	printf '%s\n' "$@" >steps
}

# TUI_TERM: the terminal the headless mode pretends to be (1: dumb).
tui() {
	TIADASH_NO_DISPLAY=${TUI_TERM:-1} TIADASH_SCRIPT=steps \
		tiadash --db "${TUI_DB:-week.db}" --repo "${TUI_REPO:-$SAMPLE/repo}" tui "$@"
}

assert_screen() {
	cat >"$1.expect" &&
	if test -n "${UPDATE_SCREENS:-}" && ! cmp -s "$1.expect" "$1"; then
		# Queued, not written: bash reads the running test file as it goes.
		n=$(ls "$UPDATE_SCREENS" 2>/dev/null | wc -l) &&
		q="$UPDATE_SCREENS/$(printf %05d "$n").$TEST_NAME" &&
		mkdir -p "$UPDATE_SCREENS" && cp "$1.expect" "$q.expect" && cp "$1" "$q.actual" &&
		cp "$1" "$1.expect"
	fi &&
	test_cmp "$1.expect" "$1"
}

no_control() {
	if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1" ||
	   LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"; then
		echo "control bytes in $1:" >&2
		od -c "$1" | head -20 >&2
		return 1
	fi
}
