# Helpers for the tests that replay through real selectors (tests/npm/:
# vitest, turbo, moon, installed by `make test-tools` into $TEST_TOOLS).
#
#   need_tool vitest        skip the whole file (one line, TAP) without it
#   SETUP                   the --setup that links the pinned node_modules
#   own_answers TOOL        what the tool itself says at each first-parent
#                           commit of the repository in the current directory

: "${TEST_TOOLS:=$TOP/build/test-tools}"
TOOL_BIN=$TEST_TOOLS/node_modules/.bin
SETUP='ln -s "'"$TEST_TOOLS"'/node_modules" node_modules'
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 MOON_TELEMETRY=false \
	NPM_CONFIG_UPDATE_NOTIFIER=false

need_tool() {
	if ! test -x "$TOOL_BIN/$1"; then
		echo "ok 1 # skip $1 is not installed (make test-tools installs it with npm)"
		echo "1..1"
		exit 0
	fi
}

# replayed_selections FILE: "COMMIT entry entry..." per change, "-" for none.
replayed_selections() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["changes"]:
    print(c["commit"], c["decision"], " ".join(c["selection"]) or "-")
' "$1"
}

# json_dump FILE EXPR: the value as JSON (double quotes), for test_cmp.
json_dump() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2])))' "$1" "$2"
}
