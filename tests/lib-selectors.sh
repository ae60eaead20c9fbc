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
# vitest's pool of forks starts a worker (a node process, about 0.3 s of
# CPU) only for a test file it collects or runs, not one kept spare: with
# its default minimum (the cores less one), each file's isolated worker is
# replaced as it ends, and the last replacement is started for nothing.
# What vitest lists and runs is the same.
export VITEST_MIN_FORKS=0

need_tool() {
	if ! test -x "$TOOL_BIN/$1"; then
		echo "ok 1 # skip $1 is not installed (make test-tools installs it with npm)"
		echo "1..1"
		exit 0
	fi
}

# replayed_selections FILE: "COMMIT entry entry..." per change, "-" for none.
replayed_selections() {
	pyserve replayed_selections "$1"
}

# replayed_decisions FILE: "COMMIT DECISION REASON..." per change ("-": none).
replayed_decisions() {
	pyserve replayed_decisions "$1"
}

# json_dump FILE EXPR: the value as JSON (double quotes), for test_cmp.
json_dump() {
	pyserve json_dump "$1" "$2"
}

# pr N DATE FILE TEXT...: a branch that writes the files, merged with --no-ff.
pr() {
	local n=$1 date=$2; shift 2
	git checkout -q -b "pr$n" &&
	while [ $# -gt 0 ]; do mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" >"$1"; shift 2; done &&
	commit_at "$date" "change $n" &&
	git checkout -q main &&
	GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
		git merge -q --no-ff -m "Merge pull request #$n from dev/pr$n" "pr$n"
}

# own_answers CMD CONVERT: in a clone of ./repo (node_modules linked), CMD
# at each first-parent commit with BASE and HEAD set; CONVERT (python,
# reading stdin, $root the clone) prints "DECISION ENTRY...". Writes own.txt.
# With SKIP_ROOT=1 the root commit is left out (a tool that needs a base).
own_answers() {
	git clone -q repo own && ln -s "$TEST_TOOLS/node_modules" own/node_modules &&
	for c in $(git -C repo rev-list --first-parent HEAD); do
		test "${SKIP_ROOT:-}" = 1 && ! git -C repo rev-parse -q --verify "$c^1" >/dev/null &&
			continue
		BASE=$(git -C repo rev-parse -q --verify "$c^1" || echo 4b825dc642cb6eb9a060e54bf8d69288fbee4904) &&
		git -C own checkout -q --detach "$c" &&
		(cd own && BASE=$BASE HEAD=$c sh -c "$1" 2>/dev/null) >answer &&
		printf '%s ' "$c" >>own.txt &&
		root=$(cd own && pwd -P) python3 -c "$2" <answer >>own.txt || return 1
	done
}
