# Helpers for the replay tests (tests/t4*.sh), sourced after lib.sh:
# a small git history with pinned dates, and a store filled with plain SQL
# (so these tests do not depend on ingest).

# commit_at HOURS MESSAGE [git commit options...]: commit at 2026-11-01 + HOURS.
commit_at() {
	local when="@$((1793491200 + $1 * 3600)) +0000"
	GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when" \
		git commit -q -m "$2" "${@:3}"
}

# merge_at HOURS BRANCH MESSAGE: a --no-ff merge commit at 2026-11-01 + HOURS.
merge_at() {
	local when="@$((1793491200 + $1 * 3600)) +0000"
	GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when" \
		git merge -q --no-ff "$2" -m "$3"
}

# The history t4100-t4140 replay (newest first on main):
#   Fix a typo                      README.md                       (no PR)
#   Nothing to see (#15)            (empty)
#   Bump dependencies (#14)         package-lock.json, src/util.py
#   Drop the guide (#13)            docs/guide.md deleted
#   Merge pull request #12 ...      src/app.py -> src/main.py, tests/test_app.py
#   Add helpers (#11)               src/helpers.py added, src/util.py
#   Initial import                  5 files (root commit)
make_history() {
	git init -q "$1" && (
		cd "$1" &&
		mkdir -p src tests docs &&
		echo "# app" >README.md &&
		echo "print('app')" >src/app.py &&
		echo "def add(a, b): return a + b" >src/util.py &&
		echo "def test_run(): pass" >tests/test_app.py &&
		echo "guide" >docs/guide.md &&
		git add . && commit_at 1 "Initial import" &&
		echo "def sub(a, b): return a - b" >>src/util.py &&
		echo "def helper(): pass" >src/helpers.py &&
		git add . && commit_at 2 "Add helpers (#11)" &&
		git checkout -q -b rename &&
		git mv src/app.py src/main.py &&
		echo "def test_main(): pass" >>tests/test_app.py &&
		git add . && commit_at 3 "Rename the app module" &&
		git checkout -q main &&
		merge_at 4 rename "Merge pull request #12 from dev/rename" &&
		git rm -q docs/guide.md && commit_at 5 "Drop the guide (#13)" &&
		echo "{}" >package-lock.json &&
		echo "def mul(a, b): return a * b" >>src/util.py &&
		git add . && commit_at 6 "Bump dependencies (#14)" &&
		commit_at 7 "Nothing to see (#15)" --allow-empty &&
		echo "# the app" >README.md &&
		git add . && commit_at 8 "Fix a typo"
	)
}

# replay_rows FILE.json: one line per change, "PR DECISION CHANGED SEL [reasons] [missed]".
replay_rows() {
	pyserve replay_rows "$@"
}

# run_json PR HEAD KIND ATTEMPT HOURS WALL VERDICT [MORE-FIELDS]: the fields
# of a tiadash.run.v1 manifest (for write_run) of make_history's repo.
run_json() {
	printf '"repo": "acme/app", "pr": %s, "base": "%s", "head": "%s", "kind": "%s", "attempt": %s, "started_at": "2026-11-01T%02d:00:00Z", "wall_clock_s": %s, "verdict": "%s", "results": ["junit.xml"]%s' \
		"$1" "$(git rev-parse HEAD~6)" "$2" "$3" "$4" "$5" "$6" "$7" "${8:+, $8}"
}

# The record of make_history's week (run inside the repository), written
# as CI would (tiadash.run.v1 manifests and JUnit) and ingested into the
# store $1. PR heads are branch tips that never landed on main, so they
# match by PR number; the push run of "Fix a typo" matches by its commit.
#   #11  shadow selected tests/test_util.py; full fails test_app.py::test_run
#        (missed), test_util.py::test_add, which passed in the shadow run
#        (non-hermetic: it stops nothing), and a flaky test
#   #12  an older head that failed test_old.py::test_gone; the newer one
#        (which counts) fails test_app.py::test_main, which its selection
#        runs and which failed the shadow run too, and test_other.py::test_x:
#        the gate caught it, no miss
#   #13  shadow run_all (force-full:docs/**); full fails: nothing missed
#   #14  shadow selected, two full attempts failing test_lock.py::test_lock;
#        the rules make the replay run_all: a disagreement, no miss
#   HEAD shadow nothing; full fails test_readme.py::test_title (missed) and
#        test_q.py::test_q (quarantined)
#   #99  not in the history
# Full-run wall-clock 600, 660, 700 s (median 11 min); narrowed shadow runs
# 120, 150, 180 s (median 2.5 min).
make_store() {
	local a=$TRASH/art h1=1111111111111111111111111111111111111111
	local h2=2222222222222222222222222222222222222222 h3=3333333333333333333333333333333333333333
	local h4=4444444444444444444444444444444444444444 h6=6666666666666666666666666666666666666666
	local h5 ok=tests/test_ok.py::test_ok
	h5=$(git rev-parse HEAD)
	rm -rf "$a" &&
	write_run "$a/11s" "$(run_json 11 $h1 shadow 1 2 120 pass \
		'"selection": {"decision": "selected", "reasons": [], "total_tests": 100, "selected_count": 1, "selected": ["tests/test_util.py"]}')" &&
	junit "$a/11s/junit.xml" tests/test_util.py::test_add &&
	write_run "$a/11f" "$(run_json 11 $h1 full 1 2 600 fail)" &&
	junit "$a/11f/junit.xml" tests/test_util.py::test_add:failed \
		tests/test_app.py::test_run:failed tests/test_flaky.py::test_f:flaky &&
	write_run "$a/12as" "$(run_json 12 $h2 shadow 1 3 null pass \
		'"selection": {"decision": "selected", "reasons": [], "total_tests": 100, "selected_count": 2, "selected": []}')" &&
	junit "$a/12as/junit.xml" $ok &&
	write_run "$a/12af" "$(run_json 12 $h2 full 1 3 null fail)" &&
	junit "$a/12af/junit.xml" tests/test_old.py::test_gone:failed &&
	write_run "$a/12bs" "$(run_json 12 $h3 shadow 1 4 180 fail \
		'"selection": {"decision": "selected", "reasons": [], "total_tests": 100, "selected_count": 2, "selected": ["tests/test_app.py"]}')" &&
	junit "$a/12bs/junit.xml" tests/test_app.py::test_main:failed &&
	write_run "$a/12bf" "$(run_json 12 $h3 full 1 4 660 fail)" &&
	junit "$a/12bf/junit.xml" tests/test_app.py::test_main:failed \
		tests/test_other.py::test_x:failed &&
	write_run "$a/14s" "$(run_json 14 $h4 shadow 1 6 150 pass \
		'"selection": {"decision": "selected", "reasons": [], "total_tests": 100, "selected_count": 3, "selected": ["tests/test_util.py"]}')" &&
	junit "$a/14s/junit.xml" $ok &&
	write_run "$a/14f1" "$(run_json 14 $h4 full 1 6 null fail)" &&
	junit "$a/14f1/junit.xml" tests/test_lock.py::test_lock:failed &&
	write_run "$a/14f2" "$(run_json 14 $h4 full 2 6 700 fail)" &&
	junit "$a/14f2/junit.xml" tests/test_lock.py::test_lock:failed &&
	write_run "$a/hs" "$(run_json null $h5 shadow 1 8 null pass \
		'"selection": {"decision": "nothing", "reasons": [], "total_tests": 100, "selected_count": 0, "selected": []}, "quarantine": "quarantine.txt"')" &&
	junit "$a/hs/junit.xml" $ok &&
	echo tests/test_q.py::test_q >"$a/hs/quarantine.txt" &&
	write_run "$a/hf" "$(run_json null $h5 full 1 8 null fail)" &&
	junit "$a/hf/junit.xml" tests/test_readme.py::test_title:failed \
		tests/test_q.py::test_q:failed &&
	write_run "$a/13s" "$(run_json 13 $h6 shadow 1 5 900 pass \
		'"selection": {"decision": "run_all", "reasons": ["force-full:docs/**"], "total_tests": 100, "selected_count": 100}')" &&
	junit "$a/13s/junit.xml" $ok &&
	write_run "$a/13f" "$(run_json 13 $h6 full 1 5 null fail)" &&
	junit "$a/13f/junit.xml" tests/test_docs.py::test_links:failed &&
	write_run "$a/99f" "$(run_json 99 7777777777777777777777777777777777777777 full 1 9 null fail)" &&
	junit "$a/99f/junit.xml" tests/test_app.py::test_run:failed &&
	tiadash --db "$1" --repo . ingest "$a" >/dev/null 2>"$TRASH/ingest.err"
}
