# Helpers for the metrics tests (t3*: report, t6*: gate-check and summary):
# small hand-made manifests whose figures can be worked out by hand.
# Source after lib.sh.

# mrepo N: a git repository repo/ with a base commit on main and one branch
# commit per PR 1..N (adding src/pN.py); heads.base and heads.N hold the shas.
# The base commit has the test files the reports name (core/identity.h: a
# name the tree lacks ties to nothing, and its pair is unresolved):
# MREPO_TESTS="tests/a.py ..." names them, by default the ones these tests
# use. Ingest with `tiadash --repo repo ingest ...`.
MREPO_DEFAULT_TESTS="tests/a.py tests/b.py tests/c.py tests/x.py tests/z.py tests/exports/test_csv.py"
mrepo() {
	local i t
	git init -q repo &&
	mkdir -p repo/src && echo base >repo/src/base.py &&
	for t in ${MREPO_TESTS-$MREPO_DEFAULT_TESTS}; do
		mkdir -p "repo/$(dirname "$t")" && echo "def test(): pass" >"repo/$t" || return 1
	done &&
	(cd repo && commit_at 2026-10-30T00:00:00Z base) &&
	git -C repo rev-parse HEAD >heads.base &&
	mrepo_branches 1 "$1"
}

# mrepo_branches FIRST LAST: the branches prFIRST..prLAST off the base
# commit, each adding src/pN.py (commit_at's date 2026-10-31T00:00:00Z,
# message "pr N"), from one git fast-import, not five git processes a PR
# (mrepo 56 took 3.6 s of CPU); heads.N hold their shas. The working tree
# and index stay on main.
mrepo_branches() {
	local i base msg text
	read -r base <heads.base &&
	for i in $(seq "$1" "$2"); do
		msg="pr $i"$'\n' text=$'def f():\n    return '"$i"$'\n'
		printf 'commit refs/heads/pr%s\nmark :%s\n' "$i" "$i"
		printf '%s %s <%s> 1793404800 +0000\n' author "$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL" \
			committer "$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL"
		printf 'data %d\n%sfrom %s\nM 100644 inline src/p%s.py\ndata %d\n%s\n' \
			"${#msg}" "$msg" "$base" "$i" "${#text}" "$text"
	done | git -C repo fast-import --quiet --export-marks="$PWD/mrepo.marks" &&
	while read -r i sha; do
		echo "$sha" >"heads.${i#:}" || return 1
	done <mrepo.marks &&
	rm -f mrepo.marks
}

# mrepo_add PR: one more PR branch in the repository mrepo made.
mrepo_add() {
	mrepo_branches "$1" "$1"
}

# head_of PR: the head commit of a PR made by mrepo.
head_of() {
	cat "$TRASH/heads.$1"
}

# mrun DIR PR KIND ATTEMPT STARTED WALL VERDICT SELECTION [CASE...]
#   A run manifest in DIR (repo acme/x, head = head_of PR, base = the
#   mrepo base). WALL "-" leaves
#   wall_clock_s out; SELECTION is a JSON object or "-"; each CASE is a
#   JUnit case as lib.sh's junit takes it (suite::name[:failed|...]).
mrun() {
	local dir=$1 pr=$2 kind=$3 attempt=$4 at=$5 wall=$6 verdict=$7 sel=$8
	local fields
	shift 8
	fields="\"repo\": \"${MRUN_REPO:-acme/x}\", \"pr\": $pr, \"head\": \"$(head_of "$pr")\","
	fields="$fields \"base\": \"$(head_of base)\","
	fields="$fields \"kind\": \"$kind\", \"attempt\": $attempt, \"started_at\": \"$at\","
	[ "$wall" = - ] || fields="$fields \"wall_clock_s\": $wall,"
	[ "$sel" = - ] || fields="$fields \"selection\": $sel,"
	fields="$fields \"verdict\": \"$verdict\", \"results\": [\"junit.xml\"]"
	write_run "$dir" "$fields" &&
	junit "$dir/junit.xml" "$@"
}

# sel DECISION SELECTED_COUNT TOTAL [ENTRY...]: a selection object.
sel() {
	local decision=$1 count=$2 total=$3 entries="" e
	shift 3
	for e in "$@"; do
		entries="$entries${entries:+, }\"$e\""
	done
	printf '{"decision": "%s", "selected_count": %s, "total_tests": %s, "selected": [%s]}' \
		"$decision" "$count" "$total" "$entries"
}

# ffsel REASON...: a run_all selection with its reasons.
ffsel() {
	local reasons="" r
	for r in "$@"; do
		reasons="$reasons${reasons:+, }\"$r\""
	done
	printf '{"decision": "run_all", "reasons": [%s], "total_tests": 100}' "$reasons"
}

# json_close FILE EXPR VALUE: the Python expression over d is VALUE within 1e-9
# (VALUE may be null; numbers compare with tolerance, others exactly).
json_close() {
	pyserve json_close "$@"
}

# no_control FILE: no byte below 0x20 but newline (and tab), and no DEL.
no_control() {
	if LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$1" >/dev/null; then
		echo "control characters in $1:" >&2
		LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$1" | od -c | head -20 >&2
		return 1
	fi
}

# gen_pairs DIR FIRST_PR N ESCAPES DAY DAYS [OVER_STRICT [FORCE_FULL]]
#   N pairs (PRs FIRST_PR..) spread evenly over DAYS UTC days from DAY
#   (2026-11-01), no repository: each a narrowed shadow run naming
#   tests/a.py and a full run. The first ESCAPES pairs escape (the full run
#   fails tests/b.py::u, not selected), the next OVER_STRICT are over-strict
#   (shadow fails, full passes), and the last FORCE_FULL shadow runs are
#   run_all. Manifests only: ingest them without --repo.
gen_pairs() {
	python3 - "$@" <<-\PY
	import datetime, json, os, sys
	out, first, n, esc, day, days = sys.argv[1], *map(int, sys.argv[2:4]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
	over = int(sys.argv[7]) if len(sys.argv) > 7 else 0
	ff = int(sys.argv[8]) if len(sys.argv) > 8 else 0
	t0 = datetime.datetime.fromisoformat(day + "T00:00:00+00:00")
	os.makedirs(out, exist_ok=True)
	for i in range(n):
	    pr = first + i
	    at = (t0 + datetime.timedelta(seconds=i * days * 86400 // n)).strftime("%Y-%m-%dT%H:%M:%SZ")
	    base = {"schema": "tiadash.run.v1", "repo": "acme/x", "pr": pr, "base": "0" * 40,
	            "head": "%040x" % (0xabc000000 + pr), "attempt": 1, "started_at": at}
	    escape, strict = i < esc, esc <= i < esc + over
	    sel = ({"decision": "run_all", "reasons": ["force-full:**/x.lock"], "total_tests": 10}
	           if i >= n - ff else
	           {"decision": "selected", "selected": ["tests/a.py"], "selected_count": 1, "total_tests": 10})
	    runs = [dict(base, kind="shadow", verdict="fail" if strict else "pass", wall_clock_s=60,
	                 selection=sel, failed=["tests/a.py::t"] if strict else []),
	            dict(base, kind="full", verdict="fail" if escape else "pass", wall_clock_s=600,
	                 failed=["tests/b.py::u"] if escape else [])]
	    for r in runs:
	        with open(os.path.join(out, "%d-%s.tiadash.json" % (pr, r["kind"])), "w") as f:
	            json.dump(r, f)
	PY
}

# ref WHAT ARGS...: the independent value of tests/stats_ref.py.
ref() {
	pyserve stats_ref "$@"
}

# qrun DIR PR KIND STARTED VERDICT SELECTION REPORT QUARANTINE-LINE...: a run
# of PR (heads.PR, heads.base) whose JUnit is REPORT and whose quarantine
# list has the given lines; SELECTION is a JSON value or - (none).
qrun() {
	local dir=$1 pr=$2 kind=$3 at=$4 verdict=$5 sel=$6 report=$7 fields
	shift 7
	mkdir -p "$dir" && cp "$report" "$dir/junit.xml" && printf '%s\n' "$@" >"$dir/quarantine.txt" &&
	fields="\"repo\": \"acme/x\", \"pr\": $pr, \"head\": \"$(head_of "$pr")\","
	fields="$fields \"base\": \"$(head_of base)\", \"kind\": \"$kind\", \"attempt\": 1,"
	fields="$fields \"started_at\": \"$at\", \"wall_clock_s\": 60, \"verdict\": \"$verdict\","
	[ "$sel" = - ] || fields="$fields \"selection\": $sel,"
	write_run "$dir" "$fields \"results\": [\"junit.xml\"], \"quarantine\": \"quarantine.txt\""
}
