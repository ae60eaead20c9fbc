# Shared by the `tiadash record` tests (tests/t16*.sh), sourced after
# tests/lib.sh: no CI in the environment, a repository with a base and a
# head, the fake CI job, and a way to read the manifest.

# The variables record reads, so a test suite that itself runs in CI sees none.
for v in GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_REF GITHUB_EVENT_PATH \
	GITHUB_EVENT_NAME GITHUB_RUN_ATTEMPT GITLAB_CI CI_PROJECT_PATH \
	CI_MERGE_REQUEST_IID CI_EXTERNAL_PULL_REQUEST_IID CI_JOB_RETRY_COUNT \
	BUILDKITE BUILDKITE_REPO BUILDKITE_ORGANIZATION_SLUG BUILDKITE_PIPELINE_SLUG \
	BUILDKITE_PULL_REQUEST BUILDKITE_RETRY_COUNT JENKINS_URL GIT_URL CHANGE_ID \
	MQ_AFFECTED_BASE JOB_ECHO_STDIN JOB_FAILED_LIST; do
	unset "$v"
done

JOB="$TEST_SRC/record/job.sh"
SQ="'" # for expected messages in here-documents

# make_repo DIR: main with two commits; origin/main at the first (the base),
# HEAD at the second, which changes src/m.c and adds tests/test_a.py.
make_repo() {
	git init -q "$1" &&
	(
		cd "$1" &&
		mkdir -p src tests &&
		printf "1\n2\n" >src/m.c &&
		commit_at "2026-10-30T10:00:00Z" init &&
		git update-ref refs/remotes/origin/main HEAD &&
		printf "1\n2\n3\n" >src/m.c &&
		printf "def test_one(): pass\n" >tests/test_a.py &&
		commit_at "2026-10-30T11:00:00Z" change
	)
}

# mf MANIFEST EXPR: a value of the manifest, as json_get prints it.
mf() {
	json_get "$1" "$2"
}

# manifest_without_clock MANIFEST: the manifest as one line of sorted-key
# JSON, wall_clock_s checked to be a number >= 0 and left out.
manifest_without_clock() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d.pop("wall_clock_s")
assert isinstance(w, (int, float)) and not isinstance(w, bool) and w >= 0, w
print(json.dumps(d, sort_keys=True))' "$1"
}
