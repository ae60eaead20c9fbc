# Helpers for the `ingest --github/--gitlab` tests (tests/t17*.sh), sourced
# after tests/lib.sh: the loopback CI server (tests/ciapi/server.py, an API
# port and a storage port), its world (tests/ciapi/make-ci.py), its request
# log, and a repository whose pull requests `tiadash record` records.
#
#   ci_start                      # sets API (http://127.0.0.1:P), STORAGE_PORT
#   ci_world spec.json            # what the API serves from now on
#   ci_log [--from N]             # the requests so far (tests/request-log.py --ci)
#   ci_mark                       # how many requests are logged (for --from)
#   ci_repo                       # repo/ with base and PR heads 11..14 (heads/N)
#   ci_record DIR KIND PR MODE ATTEMPT [record options...]   # a record folder

# The CI's variables would change what record writes and which token goes.
for v in GITHUB_ACTIONS GITHUB_REPOSITORY GITHUB_REF GITHUB_EVENT_PATH \
	GITHUB_EVENT_NAME GITHUB_RUN_ATTEMPT GITLAB_CI CI_PROJECT_PATH \
	CI_MERGE_REQUEST_IID CI_EXTERNAL_PULL_REQUEST_IID CI_JOB_RETRY_COUNT \
	BUILDKITE JENKINS_URL MQ_AFFECTED_BASE GITHUB_TOKEN GITLAB_TOKEN; do
	unset "$v"
done
# Proxies from the environment would swallow requests to 127.0.0.1.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

JOB="$TEST_SRC/record/job.sh"
SQ="'"
CI_SERVER=

ci_stop() {
	if [ -n "$CI_SERVER" ]; then
		kill "$CI_SERVER" 2>/dev/null
		wait "$CI_SERVER" 2>/dev/null
	fi
	CI_SERVER=
}
trap ci_stop EXIT

ci_start() {
	local i=0
	rm -f "$TRASH/ci.port"
	: >"$TRASH/ci.log"
	[ -f "$TRASH/world/world.json" ] || { mkdir -p "$TRASH/world" && echo '{}' >"$TRASH/world/world.json"; }
	python3 "$TEST_SRC/ciapi/server.py" --world "$TRASH/world/world.json" \
		--port-file "$TRASH/ci.port" --log "$TRASH/ci.log" &
	CI_SERVER=$!
	while [ ! -s "$TRASH/ci.port" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "the CI test server did not start" >&2
			return 1
		fi
		sleep 0.05
	done
	read -r API_PORT STORAGE_PORT <"$TRASH/ci.port"
	API=http://127.0.0.1:$API_PORT
	export API API_PORT STORAGE_PORT
}

ci_world() {
	mkdir -p "$TRASH/world" &&
	python3 "$TEST_SRC/ciapi/make-ci.py" "$1" "$TRASH/world/world.json"
}

ci_log() {
	python3 "$TEST_SRC/request-log.py" --ci "$TRASH/ci.log" "$@"
}

ci_mark() {
	wc -l <"$TRASH/ci.log" | tr -d ' '
}

# The repository: main with a base commit; each pull request N (11..14) a
# commit on top of it, its sha in heads/N (heads/base for the base).
ci_repo() {
	git init -q repo &&
	(
		cd repo &&
		mkdir -p src tests &&
		printf "1\n2\n" >src/m.c &&
		echo "def test_one(): pass" >tests/test_a.py &&
		echo "def test_one(): pass" >tests/test_b.py &&
		commit_at "2026-10-30T10:00:00Z" base &&
		git rev-parse HEAD >../heads.base &&
		for pr in 11 12 13 14; do
			git checkout -q -b "pr$pr" main &&
			printf "%s\n" "$pr" >"src/pr$pr.c" &&
			commit_at "2026-10-31T10:$pr:00Z" "change $pr" &&
			git rev-parse HEAD >"../heads.$pr" || return 1
		done
		git checkout -q main
	) &&
	mkdir -p heads && for f in heads.*; do mv "$f" "heads/${f#heads.}"; done
}

# ci_record DIR KIND PR MODE ATTEMPT [options...]: run the fake job (MODE:
# pass, fail) under `tiadash record` for pull request PR; the folder is
# DIR/KIND-HEAD-ATTEMPT, as `.tiadash/runs/` holds it in a CI job.
ci_record() {
	local dir=$1 kind=$2 pr=$3 mode=$4 attempt=$5 head
	shift 5
	head=$(cat "$TRASH/heads/$pr")
	rm -rf "$TRASH/job.$kind.$pr" && mkdir -p "$TRASH/job.$kind.$pr" &&
	(
		cd "$TRASH/job.$kind.$pr" &&
		tiadash --repo "$TRASH/repo" record --kind "$kind" \
			--out "$TRASH/$dir/$kind-$head-$attempt" --attempt "$attempt" \
			--head "$head" --base "$(cat "$TRASH/heads/base")" --pr "$pr" \
			--repo-name acme/ledger --results 'reports/*.xml' "$@" \
			-- sh "$JOB" "$mode" </dev/null >/dev/null 2>&1
		true
	) &&
	test -f "$TRASH/$dir/$kind-$head-$attempt/tiadash-run.json"
}

# drop_wall MANIFEST: the manifest without wall_clock_s (as a hand-written one may be).
drop_wall() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d.pop("wall_clock_s")
json.dump(d, open(sys.argv[1], "w"), indent=2)' "$1"
}
