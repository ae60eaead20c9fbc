# Test library for tiadash's shell tests (git's t/test-lib.sh and tig's
# libtest.sh are the models): one behaviour per file, TAP on stdout.
#
#   . "$(dirname "$0")/lib.sh"
#   test_expect_success 'what it checks' '
#       tiadash status --format json >actual &&
#       test_cmp expect actual
#   '
#   test_done

set -u
# (Parameter expansions, not basename, dirname, id, env | sed and git
# config: every file sources this, and each process is a few ms of CPU.)
TEST_NAME=${0##*/}
TEST_NAME=${TEST_NAME%.sh}
case "$0" in */*) TEST_SRC=${0%/*} ;; *) TEST_SRC=. ;; esac
TEST_SRC=${TEST_SRC:-/}
TEST_SRC=$(cd "$TEST_SRC" && pwd)
TOP=$(cd "$TEST_SRC/.." && pwd)
: "${TIADASH_BIN:=$TOP/tiadash}"
: "${TT_BIN:=$TOP/build/default/tests/helper/tt}"
: "${SAMPLE:=$TOP/sampledata/build}"
export TIADASH_BIN TT_BIN SAMPLE

# Pin everything a result could depend on (STYLE.md pattern 7).
for v in $(compgen -e TIADASH_); do
	case "$v" in TIADASH_BIN) ;; *) [[ $v =~ ^TIADASH_[A-Z_]*$ ]] && unset "$v" ;; esac
done
unset NO_COLOR GIT_DIR GIT_WORK_TREE
export TERM=dumb LINES=24 COLUMNS=80 TZ=UTC LC_ALL=C.UTF-8 ESCDELAY=25
export TIADASH_NOW=2026-11-08T00:00:00Z
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.com
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.com
export GIT_CONFIG_NOSYSTEM=1

# Outside the source tree, so git discovery cannot find tiadash's own repository.
TRASH="${TMPDIR:-/tmp}/tiadash-test.$EUID.$$/$TEST_NAME"
rm -rf "$TRASH" && mkdir -p "$TRASH" && cd "$TRASH" || exit 2
export HOME="$TRASH"
# What git config --global init.defaultBranch main and protocol.file.allow
# always would write.
printf '[init]\n\tdefaultBranch = main\n[protocol "file"]\n\tallow = always\n' >"$HOME/.gitconfig"

test_count=0
test_failed=0
TEST_TIMEOUT=${TEST_TIMEOUT:-120}

# The binary under test. The watchdog is the file's (tests/run's
# TEST_FILE_TIMEOUT): timeout(1) around each of the suite's 2,500 calls
# cost 7 ms of CPU a call, 17 s in all.
tiadash() {
	"$TIADASH_BIN" "$@"
}
tt() {
	"$TT_BIN" "$@"
}

say_fail() {
	echo "# $*" >&2
}

test_expect_success() {
	local desc=$1 body=$2 start=$EPOCHREALTIME
	test_count=$((test_count + 1))
	if (eval "$body") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $desc"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $desc"
		sed 's/^/#   /' "$TRASH/.out"
		sed 's/^/#   /' "$TRASH/.out" >&2
	fi
	test_case_time "$start" "$desc"
}

# test_case_time START DESC: with TEST_CASE_TIMES=FILE, append the case's
# wall seconds and the file's CPU seconds so far (children, user + system),
# to find where a slow file's time goes.
test_case_time() {
	[ -n "${TEST_CASE_TIMES:-}" ] || return 0
	local cpu
	times >"$TRASH/.times"	# not in a pipe: a subshell's times count none of the file's
	cpu=$(sed -n 2p "$TRASH/.times" | awk 'function sec(x) { split(x, a, "m"); return a[1] * 60 + a[2] }
		{ printf "%.1f", sec($1) + sec($2) }')
	awk -v s="$1" -v e="$EPOCHREALTIME" -v c="$cpu" -v n="$TEST_NAME" -v d="$2" \
		'BEGIN { printf "%6.1f wall %7.1f cpu %s %s\n", e - s, c, n, d }' >>"$TEST_CASE_TIMES"
}

# test_expect_code CODE cmd...: the command exits with CODE.
test_expect_code() {
	local want=$1; shift
	"$@"
	local got=$?
	if [ "$got" != "$want" ]; then
		echo "exit status $got, expected $want: $*" >&2
		return 1
	fi
}

# skip_all REASON: the file's tests cannot run here (a tool or a build
# product is missing); one skipped test says why.
skip_all() {
	echo "ok 1 # SKIP $1"
	echo "1..1"
	cd / && rm -rf "${TRASH%/*}"
	exit 0
}

# need_sample_week: skip the file unless the sample week is built.
need_sample_week() {
	test -f "$SAMPLE/expected.json" && test -d "$SAMPLE/repo" ||
		skip_all "the sample week is not built (make sampledata)"
}

test_cmp() {
	diff -u "$1" "$2"
}

# test_grep PATTERN FILE: like grep, but says what the file held on failure.
test_grep() {
	if ! grep -q -e "$1" "$2"; then
		echo "no line matching '$1' in $2:" >&2
		cat "$2" >&2
		return 1
	fi
}

test_must_be_empty() {
	if [ -s "$1" ]; then
		echo "'$1' is not empty:" >&2
		cat "$1" >&2
		return 1
	fi
}

# Peak memory, asserted on plain builds only: ASan keeps freed memory in
# quarantine and maps shadow memory, so its RSS says nothing about tiadash.
# (tests/run looks once, for every file: grep reads all 5 MB of the binary.)
if [ "${TEST_ASAN_OF:-}" != "$TIADASH_BIN" ]; then
	if grep -q __asan_init "$TIADASH_BIN" 2>/dev/null; then TEST_ASAN=1; else TEST_ASAN=; fi
fi

# peak FILE CMD...: run CMD, write its peak RSS in KiB to FILE, exit as CMD did.
peak() {
	local out=$1; shift
	python3 - "$out" "$@" <<-\PY
	import resource, subprocess, sys
	rc = subprocess.call(sys.argv[2:])
	open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
	sys.exit(rc)
	PY
}

# below FILE MB: the peak in FILE is under MB megabytes (plain builds only).
below() {
	[ -n "$TEST_ASAN" ] && return 0
	if [ "$(cat "$1")" -ge $(($2 * 1024)) ]; then
		echo "peak RSS $(cat "$1") KiB is over $2 MB" >&2
		return 1
	fi
}

# A JSON value: json_get FILE 'expr over d' (python3, stdlib only).
json_get() {
	pyserve json_get "$1" "$2"
}

# pyserve NAME ARGS...: tests/pyserve.py's helper NAME, answered by the
# file's server as a python3 of its own would, else by one. One server a
# file, started at the first call, reached by bash's /dev/tcp.
pyserve() {
	pyserve_ask "$@" && return "$PYSERVE_RC"
	python3 "$TEST_SRC/pyserve.py" --run "$@"
}

# pyserve_ask NAME ARGS...: the server's answer (its stdout and stderr
# printed, its exit status in PYSERVE_RC); false when it has none.
pyserve_ask() {
	local port token fd rc out err
	{ read -r port token <"$TRASH/.pyserve"; } 2>/dev/null || pyserve_start || return 1
	{ read -r port token <"$TRASH/.pyserve"; } 2>/dev/null &&
		{ exec {fd}<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
	printf '%s\0' "$token" $(($# + 1)) "$PWD" "$@" >&"$fd" 2>/dev/null
	if IFS= read -r -d '' -t 120 -u "$fd" rc && [ "$rc" != fallback ] &&
	   IFS= read -r -d '' -t 120 -u "$fd" out && IFS= read -r -d '' -t 120 -u "$fd" err; then
		exec {fd}>&-
		printf '%s' "$out"
		printf '%s' "$err" >&2
		PYSERVE_RC=$rc
		return 0
	fi
	exec {fd}>&-
	return 1
}

# Start tests/pyserve.py for this file (it ends with the file's shell, $$);
# its port and token go to $TRASH/.pyserve, which only we can read. Started
# in the background of a process substitution, it is no child of ours that
# a bare `wait` would wait for.
pyserve_start() {
	local line
	{ read -r line; } < <(python3 "$TEST_SRC/pyserve.py" $$ </dev/null 2>/dev/null &)
	[ -n "$line" ] || return 1
	(umask 077 && echo "$line" >"$TRASH/.pyserve.$BASHPID" &&
		mv -f "$TRASH/.pyserve.$BASHPID" "$TRASH/.pyserve")
}

# One line of sorted-key JSON, for comparing JSON output: json_norm <file
json_norm() {
	python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))'
}

# A fingerprint of a store's rows, to assert "nothing changed": without the
# generation, which counts write transactions (a re-ingest's upserts are
# one), and the figures kept under it (metrics/figcache.h).
store_dump() {
	sqlite3 "$1" .dump |
		grep -v '^PRAGMA\|^BEGIN\|^COMMIT\|^INSERT INTO generation \|^INSERT INTO figures ' | sort
}

test_done() {
	echo "1..$test_count"
	rm -f "$TRASH"/.lock-held.*
	cd / || exit 2
	if [ "$test_failed" = 0 ]; then
		rm -rf "${TRASH%/*}"
	else
		echo "# kept $TRASH" >&2
	fi
	[ "$test_failed" = 0 ]
}

# hold_lock DB: another process holds DB's write lock until release_lock DB
# (or test_done; at most TEST_TIMEOUT seconds). It has the lock when this
# returns. Held until released, not for a fixed time: under sanitizers and
# load a fixed time ran out before the command under test reached its write.
# The holder waits for the lock itself: the probe below takes it for a moment.
hold_lock() {
	local held="$TRASH/.lock-held.$(basename "$1")"
	: >"$held" &&
	{ (echo "BEGIN IMMEDIATE;"
	   i=0
	   while [ -e "$held" ] && [ $i -lt $((TEST_TIMEOUT * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	   done
	   echo "ROLLBACK;") | sqlite3 -cmd ".timeout 10000" "$1" >/dev/null & } &&
	for i in $(seq 100); do
		sqlite3 -cmd ".timeout 0" "$1" "BEGIN IMMEDIATE; ROLLBACK;" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# release_lock DB: the holder lets go of DB's write lock, and is gone.
release_lock() {
	rm -f "$TRASH/.lock-held.$(basename "$1")" && wait
}

# has_command NAME: this tiadash has the command NAME (its help lists it).
has_command() {
	"$TIADASH_BIN" help | grep -q "^  $1 "
}

# wait_for CMD: until CMD (eval'd) succeeds, 60 s at most.
wait_for() {
	for _ in $(seq 600); do
		eval "$1" && return 0
		sleep 0.1
	done
	echo "gave up waiting for: $1" >&2
	return 1
}

# on_tty CMD...: CMD's output on a terminal (script(1)'s), carriage returns dropped.
on_tty() {
	script -qec "$*" /dev/null </dev/null | tr -d "\r"
}

# sample_week DB: the sample week ingested into DB, for tests that read it.
# make check ingests it once (tests/sample-db.sh, into $SAMPLE_DB) and each
# test copies that; a test run by hand, without it, ingests its own.
sample_week() {
	if [ -n "${SAMPLE_DB:-}" ] && [ -f "$SAMPLE_DB" ]; then
		cp "$SAMPLE_DB" "$1"
	else
		tiadash --db "$1" --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >/dev/null
	fi
}

# commit_at DATE MESSAGE: commit everything staged and unstaged, at a fixed time.
commit_at() {
	git add -A &&
	GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}

# write_run DIR JSON-FIELDS: a tiadash.run.v1 manifest in DIR/tiadash-run.json.
write_run() {
	mkdir -p "$1" &&
	printf '{"schema": "tiadash.run.v1", %s}\n' "$2" >"$1/tiadash-run.json"
}

# junit FILE CASES...: a JUnit report; each case is suite::name[:failed|:error|:skipped|:flaky].
junit() {
	local f=$1; shift
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo '<testsuites><testsuite name="t">'
		for c in "$@"; do
			local id=${c%:*} st=${c##*:} suite name
			case "$st" in failed|error|skipped|flaky) ;; *) id=$c st=pass ;; esac
			suite=${id%%::*} name=${id#*::}
			printf '<testcase file="%s" classname="x" name="%s">' "$suite" "$name"
			case "$st" in
			failed) printf '<failure message="boom"/>' ;;
			error) printf '<error message="boom"/>' ;;
			skipped) printf '<skipped/>' ;;
			flaky) printf '<flakyFailure message="once"/>' ;;
			esac
			echo '</testcase>'
		done
		echo '</testsuite></testsuites>'
	} >"$f"
}
