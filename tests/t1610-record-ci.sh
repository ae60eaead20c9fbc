#!/bin/bash
# What `tiadash record` reads from each CI's documented environment: pull
# request, repository and attempt on GitHub Actions, GitLab CI, Buildkite
# and Jenkins; MQ_AFFECTED_BASE for the base; explicit options win.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo rev-parse origin/main >base && git -C repo rev-parse HEAD >head &&
	git -C repo rev-parse HEAD~1 >first
'
base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)

# ci_fields OUT: pr, repo (or null), attempt and the CI's name of the record in OUT.
ci_fields() {
	mf "$1/tiadash-run.json" \
		"json.dumps([d[\"pr\"], d.get(\"repo\"), d[\"attempt\"], d[\"job\"][\"ci\"]])"
}

test_expect_success 'outside CI: no pull request, no repository name, attempt 1' '
	tiadash --repo repo record --kind shadow --out none/run -- true </dev/null &&
	echo "[null, null, 1, null]" >expect && ci_fields none/run >actual && test_cmp expect actual &&
	test "$(mf none/run/tiadash-run.json "\"pr\" in d and \"repo\" not in d")" = True
'

test_expect_success 'GitHub Actions: a pull_request run (refs/pull/N/merge)' '
	GITHUB_ACTIONS=true GITHUB_REPOSITORY=acme/ledger GITHUB_REF=refs/pull/123/merge \
	GITHUB_RUN_ATTEMPT=2 tiadash --repo repo record --kind shadow --out gh1/run -- true </dev/null &&
	echo "[123, \"acme/ledger\", 2, \"github-actions\"]" >expect &&
	ci_fields gh1/run >actual && test_cmp expect actual
'

test_expect_success 'GitHub Actions: a merge queue run (gh-readonly-queue/BRANCH/pr-N-SHA)' '
	GITHUB_ACTIONS=true GITHUB_REPOSITORY=acme/ledger GITHUB_RUN_ATTEMPT=1 \
	GITHUB_REF=refs/heads/gh-readonly-queue/release/2.x/pr-481-$head \
		tiadash --repo repo record --kind full --out gh2/run -- true </dev/null &&
	echo "[481, \"acme/ledger\", 1, \"github-actions\"]" >expect &&
	ci_fields gh2/run >actual && test_cmp expect actual
'

test_expect_success 'GitHub Actions: pull_request_target reads the event payload' '
	printf "{\"action\": \"synchronize\", \"number\": 9, \"pull_request\": {\"number\": 77, \"head\": {\"sha\": \"%s\"}}}\n" $head >event.json &&
	GITHUB_ACTIONS=true GITHUB_REPOSITORY=acme/ledger GITHUB_REF=refs/heads/main \
	GITHUB_EVENT_NAME=pull_request_target GITHUB_EVENT_PATH=$PWD/event.json \
		tiadash --repo repo record --kind shadow --out gh3/run -- true </dev/null &&
	echo "[77, \"acme/ledger\", 1, \"github-actions\"]" >expect &&
	ci_fields gh3/run >actual && test_cmp expect actual
'

test_expect_success 'GitHub Actions: a push run has no pull request' '
	printf "{\"ref\": \"refs/heads/main\", \"after\": \"%s\"}\n" $head >push.json &&
	GITHUB_ACTIONS=true GITHUB_REPOSITORY=acme/ledger GITHUB_REF=refs/heads/main \
	GITHUB_EVENT_PATH=$PWD/push.json GITHUB_RUN_ATTEMPT=1 \
		tiadash --repo repo record --kind full --out gh4/run -- true </dev/null &&
	echo "[null, \"acme/ledger\", 1, \"github-actions\"]" >expect &&
	ci_fields gh4/run >actual && test_cmp expect actual
'

test_expect_success 'GitHub Actions: a malformed attempt is ignored with a warning' '
	GITHUB_ACTIONS=true GITHUB_REF=refs/pull/5/merge GITHUB_RUN_ATTEMPT=two \
		tiadash --repo repo record --kind shadow --out gh5/run -- true </dev/null 2>err &&
	printf "tiadash: warning: record: ignoring GITHUB_RUN_ATTEMPT \047two\047: not an integer >= 1\n" >expect &&
	test_cmp expect err &&
	echo "[5, null, 1, \"github-actions\"]" >expect && ci_fields gh5/run >actual && test_cmp expect actual
'

test_expect_success 'an attempt over the bound ingest has (1000) records nothing; --attempt overrides it' '
	GITHUB_ACTIONS=true GITHUB_REF=refs/pull/5/merge GITHUB_RUN_ATTEMPT=1001 \
		tiadash --repo repo record --kind shadow --out gh6/run -- true </dev/null 2>err &&
	printf "%s\n" "tiadash: error: record: GITHUB_RUN_ATTEMPT gives attempt 1001: an attempt must be an integer from 1 to 1000 (--attempt N overrides it)" \
		"tiadash: record: no run recorded; passing the command\047s exit status (0) through" >expect.q &&
	printf "$(cat expect.q)\n" >expect && test_cmp expect err && ! test -e gh6 &&
	GITLAB_CI=true CI_JOB_RETRY_COUNT=2147483647 \
		tiadash --repo repo record --kind shadow --out gl6/run -- true </dev/null 2>err &&
	test_grep "^tiadash: error: record: CI_JOB_RETRY_COUNT gives attempt 2147483648: an attempt must be an integer from 1 to 1000" err &&
	! test -e gl6 &&
	GITHUB_ACTIONS=true GITHUB_REF=refs/pull/5/merge GITHUB_RUN_ATTEMPT=1001 \
		tiadash --repo repo record --kind shadow --attempt 2 --out gh7/run -- true </dev/null &&
	echo "[5, null, 2, \"github-actions\"]" >expect && ci_fields gh7/run >actual && test_cmp expect actual &&
	GITHUB_ACTIONS=true GITHUB_REF=refs/pull/5/merge GITHUB_RUN_ATTEMPT=1000 \
		tiadash --repo repo record --kind shadow --out gh8/run -- true </dev/null &&
	echo "[5, null, 1000, \"github-actions\"]" >expect && ci_fields gh8/run >actual && test_cmp expect actual &&
	test_expect_code 2 tiadash ingest --attempt 1001 --kind full --head $head gh8/run 2>err &&
	test_grep "^tiadash: error: --attempt .1001. is not a valid number" err
'

test_expect_success 'GitLab CI: a merge request pipeline, retried twice' '
	GITLAB_CI=true CI_PROJECT_PATH=acme/payments/ledger CI_MERGE_REQUEST_IID=31 \
	CI_JOB_ID=912345678901 CI_JOB_RETRY_COUNT=2 \
		tiadash --repo repo record --kind shadow --out gl1/run -- true </dev/null &&
	echo "[31, \"acme/payments/ledger\", 3, \"gitlab-ci\"]" >expect &&
	ci_fields gl1/run >actual && test_cmp expect actual
'

test_expect_success 'GitLab CI: an external pull request; without a retry counter, attempt 1' '
	GITLAB_CI=true CI_PROJECT_PATH=acme/ledger CI_EXTERNAL_PULL_REQUEST_IID=12 \
		tiadash --repo repo record --kind shadow --out gl2/run -- true </dev/null &&
	echo "[12, \"acme/ledger\", 1, \"gitlab-ci\"]" >expect &&
	ci_fields gl2/run >actual && test_cmp expect actual
'

test_expect_success 'Buildkite: a pull request build, retried once' '
	BUILDKITE=true BUILDKITE_REPO=git@github.com:acme/ledger.git \
	BUILDKITE_ORGANIZATION_SLUG=acme BUILDKITE_PIPELINE_SLUG=ledger-ci \
	BUILDKITE_PULL_REQUEST=42 BUILDKITE_RETRY_COUNT=1 \
		tiadash --repo repo record --kind full --out bk1/run -- true </dev/null &&
	echo "[42, \"acme/ledger\", 2, \"buildkite\"]" >expect &&
	ci_fields bk1/run >actual && test_cmp expect actual
'

test_expect_success 'Buildkite: "false" means no pull request; slugs when the URL names no path' '
	BUILDKITE=true BUILDKITE_REPO=/srv/git/ledger.git \
	BUILDKITE_ORGANIZATION_SLUG=acme BUILDKITE_PIPELINE_SLUG=ledger-ci \
	BUILDKITE_PULL_REQUEST=false BUILDKITE_RETRY_COUNT=0 \
		tiadash --repo repo record --kind full --out bk2/run -- true </dev/null 2>err &&
	test_must_be_empty err &&
	echo "[null, \"acme/ledger-ci\", 1, \"buildkite\"]" >expect &&
	ci_fields bk2/run >actual && test_cmp expect actual
'

test_expect_success 'Jenkins: a multibranch pull request; credentials never reach the manifest' '
	JENKINS_URL=https://ci.example.com/ CHANGE_ID=9 BUILD_NUMBER=17 \
	GIT_URL=https://bot:s3cret@git.example.com/acme/ledger.git \
		tiadash --repo repo record --kind full --out jk1/run -- true </dev/null &&
	echo "[9, \"acme/ledger\", 1, \"jenkins\"]" >expect &&
	ci_fields jk1/run >actual && test_cmp expect actual &&
	! grep -q s3cret jk1/tiadash-run.json
'

test_expect_success 'Jenkins: a branch build has no CHANGE_ID' '
	JENKINS_URL=https://ci.example.com/ GIT_URL=ssh://git@git.example.com:2222/acme/ledger \
		tiadash --repo repo record --kind full --out jk2/run -- true </dev/null &&
	echo "[null, \"acme/ledger\", 1, \"jenkins\"]" >expect &&
	ci_fields jk2/run >actual && test_cmp expect actual
'

test_expect_success 'explicit options win over the CI' '
	GITHUB_ACTIONS=true GITHUB_REPOSITORY=acme/ledger GITHUB_REF=refs/pull/123/merge \
	GITHUB_RUN_ATTEMPT=2 tiadash --repo repo record --kind shadow --out explicit/run \
		--pr 5 --repo-name other/name --attempt 4 --started-at 2026-11-01T12:30:00+02:00 \
		-- true </dev/null &&
	echo "[5, \"other/name\", 4, \"github-actions\"]" >expect &&
	ci_fields explicit/run >actual && test_cmp expect actual &&
	test "$(mf explicit/run/tiadash-run.json "d[\"started_at\"]")" = 2026-11-01T10:30:00Z
'

test_expect_success 'the base: MQ_AFFECTED_BASE resolved to a commit, not the merge base' '
	MQ_AFFECTED_BASE=HEAD~1 tiadash --repo repo record --kind shadow --out mq/run -- true </dev/null &&
	test "$(mf mq/run/tiadash-run.json "d[\"base\"]")" = "$(cat first)" &&
	test "$(mf mq/run/tiadash-run.json "d[\"head\"]")" = "$head"
'

test_expect_success 'the base: origin/main by default; --base wins; a 40-hex id is taken as is' '
	tiadash --repo repo record --kind shadow --out dflt/run -- true </dev/null &&
	test "$(mf dflt/run/tiadash-run.json "d[\"base\"]")" = "$base" &&
	MQ_AFFECTED_BASE=HEAD~1 tiadash --repo repo record --kind shadow --out given/run \
		--base main -- true </dev/null &&
	test "$(mf given/run/tiadash-run.json "d[\"base\"]")" = "$head" &&
	tiadash --repo repo record --kind shadow --out hex/run \
		--base 0123456789ABCDEF0123456789abcdef01234567 -- true </dev/null &&
	test "$(mf hex/run/tiadash-run.json "d[\"base\"]")" = 0123456789abcdef0123456789abcdef01234567
'

test_expect_success 'repository names from remote URLs' '
	for pair in \
		"https://github.com/acme/ledger.git acme/ledger" \
		"https://github.com/acme/ledger acme/ledger" \
		"https://u:p@gitlab.com/g/sub/proj.git/ g/sub/proj" \
		"git@github.com:acme/ledger.git acme/ledger" \
		"ssh://git@host:2222/acme/ledger.git acme/ledger" \
		"git://host/acme/ledger acme/ledger"; do
		set -- $pair &&
		JENKINS_URL=x GIT_URL=$1 tiadash --repo repo record --kind full --out "u$((n = ${n:-0} + 1))/run" \
			-- true </dev/null &&
		test "$(mf u$n/run/tiadash-run.json "d[\"repo\"]")" = "$2" || return 1
	done &&
	for url in /srv/git/ledger.git file:///srv/git/ledger.git; do
		JENKINS_URL=x GIT_URL=$url tiadash --repo repo record --kind full --out "l$((k = ${k:-0} + 1))/run" \
			-- true </dev/null &&
		test "$(mf l$k/run/tiadash-run.json "\"repo\" in d")" = False || return 1
	done
'

test_done
