#!/bin/bash
# The command line of `ingest --github/--gitlab` and where the token comes
# from: usage errors (exit 2, nothing asked), GITHUB_TOKEN / GITLAB_TOKEN
# before TIADASH_TOKEN, a token with a line break refused, a 401 and a
# missing token explained, TIADASH_GITHUB_API / TIADASH_GITLAB_API.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

cat >spec.json <<EOF
{"token": "right", "gitlab_token": "right-gl",
 "github": {"project": "acme/ledger", "runs": []},
 "gitlab": {"project": "group/ledger", "id": 7, "jobs": []}}
EOF
ci_world spec.json || exit 2
ci_start || exit 2

# usage ARGS... : exit 2, the message (first line of stderr) to compare.
usage() {
	test_expect_code 2 tiadash --db u.db ingest "$@" >out 2>err
	head -n 1 err
}

test_expect_success 'usage errors, before anything is asked' '
	m=$(ci_mark) &&
	{
		usage --github acme/ledger &&
		usage --gitlab group/ledger &&
		usage --gitlab group/ledger --workflow ci.yml &&
		usage --github acme/ledger --job shadow &&
		usage --github acme/ledger --gitlab g/p --workflow a.yml &&
		usage --workflow shadow.yml &&
		usage --since 7d runs/ &&
		usage --github acme/ledger --workflow a.yml --since yesterday &&
		usage --github acme/ledger --workflow a.yml some/dir &&
		usage --github acme/ledger --workflow a.yml --kind full --head 0000000000000000000000000000000000000000
	} >actual &&
	cat >expect <<-EOF &&
	tiadash: error: --github needs one or more --workflow FILE
	tiadash: error: --gitlab needs one or more --job NAME
	tiadash: error: --workflow is for --github; --gitlab takes --job
	tiadash: error: --job is for --gitlab; --github takes --workflow
	tiadash: error: give --github or --gitlab, not both
	tiadash: error: --workflow, --job, --since and --api-url go with --github or --gitlab
	tiadash: error: --workflow, --job, --since and --api-url go with --github or --gitlab
	tiadash: error: --since ${SQ}yesterday${SQ}: expected 1y, 7d, 24h, a date or RFC 3339 time
	tiadash: error: --github and --gitlab pull runs: they take no SOURCE and no bare-file options
	tiadash: error: --github and --gitlab pull runs: they take no SOURCE and no bare-file options
	EOF
	test_cmp expect actual &&
	test "$(ci_mark)" = "$m"
'

test_expect_success 'a malformed project or API URL is an input error naming it' '
	{
		usage --github acme --workflow a.yml &&
		usage --github acme/led/ger --workflow a.yml &&
		usage --github "acme/../x" --workflow a.yml &&
		usage --gitlab "group//x" --job shadow &&
		usage --gitlab "../x" --job shadow &&
		usage --github acme/ledger --workflow a.yml --api-url ftp://example.com &&
		usage --github acme/ledger --workflow a.yml --api-url https://me:pw@ghe.example.com/api/v3 &&
		TIADASH_GITLAB_API=gitlab.example.com usage --gitlab g/p --job shadow
	} >actual &&
	cat >expect <<-EOF &&
	tiadash: error: --github ${SQ}acme${SQ}: expected OWNER/REPO
	tiadash: error: --github ${SQ}acme/led/ger${SQ}: expected OWNER/REPO
	tiadash: error: --github ${SQ}acme/../x${SQ}: expected OWNER/REPO
	tiadash: error: --gitlab ${SQ}group//x${SQ}: expected a project path (group/project) or id
	tiadash: error: --gitlab ${SQ}../x${SQ}: expected a project path (group/project) or id
	tiadash: error: --api-url ${SQ}ftp://example.com${SQ} is not an http or https URL
	tiadash: error: --api-url: a user name or password in the API URL is not used; give the token in GITHUB_TOKEN
	tiadash: error: TIADASH_GITLAB_API ${SQ}gitlab.example.com${SQ} is not an http or https URL
	EOF
	test_cmp expect actual
'

test_expect_success 'GITHUB_TOKEN goes before TIADASH_TOKEN; the API URL may come from TIADASH_GITHUB_API' '
	m=$(ci_mark) &&
	GITHUB_TOKEN=right TIADASH_TOKEN=wrong TIADASH_GITHUB_API="$API/" \
		tiadash --db a.db ingest --github acme/ledger --workflow ci.yml >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	ci_log --from $m | cut -d" " -f1,3- >actual &&
	echo "api /repos/acme/ledger/actions/workflows/ci.yml/runs?created=%3E%3D2026-11-01T00:00:00Z&per_page=100 200 auth=bearer gh=yes" >expect &&
	test_cmp expect actual
'

test_expect_success 'TIADASH_TOKEN when the CI-specific one is not set; GitLab gets PRIVATE-TOKEN' '
	m=$(ci_mark) &&
	TIADASH_TOKEN=right-gl tiadash --db b.db ingest --gitlab group/ledger --job shadow \
		--api-url "$API/api/v4" >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	ci_log --from $m | cut -d" " -f4,5 >actual &&
	echo "200 auth=private" >expect && test_cmp expect actual
'

test_expect_success 'a refused token and a missing one are explained' '
	GITHUB_TOKEN=wrong test_expect_code 2 tiadash --db c.db ingest --github acme/ledger \
		--workflow ci.yml --api-url "$API" >out 2>err &&
	echo "tiadash: error: $API/repos/acme/ledger/actions/workflows/ci.yml/runs?created=%3E%3D2026-11-01T00:00:00Z&per_page=100: HTTP 401 (the API did not accept GITHUB_TOKEN)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 tiadash --db c.db ingest --gitlab group/ledger --job shadow \
		--api-url "$API/api/v4" >out 2>err &&
	echo "tiadash: error: $API/api/v4/projects/group%2Fledger/jobs?scope%5B%5D=success&scope%5B%5D=failed&per_page=100&page=1: HTTP 401 (no token was sent: set GITLAB_TOKEN or TIADASH_TOKEN)" >expect &&
	test_cmp expect err
'

test_expect_success 'a token with a line break is sent nowhere' '
	m=$(ci_mark) &&
	GITHUB_TOKEN="$(printf "a\r\nX-Evil: 1")" test_expect_code 2 tiadash --db d.db ingest \
		--github acme/ledger --workflow ci.yml --api-url "$API" >out 2>err &&
	echo "tiadash: error: GITHUB_TOKEN holds a line break: not sending it" >expect &&
	test_cmp expect err &&
	test "$(ci_mark)" = "$m"
'

test_expect_success 'a workflow or job name is one path segment, percent-encoded' '
	m=$(ci_mark) &&
	GITHUB_TOKEN=right tiadash --db e.db ingest --github acme/ledger --workflow "ci tests#1.yml" \
		--api-url "$API" >out 2>err &&
	ci_log --from $m | cut -d" " -f3 | sed "s/?.*//" >actual &&
	echo "/repos/acme/ledger/actions/workflows/ci%20tests%231.yml/runs" >expect &&
	test_cmp expect actual
'

test_expect_success '--help lists the options' '
	tiadash ingest --help >help &&
	test_grep "^  --github OWNER/REPO  *GitHub Actions: the runs of each --workflow FILE$" help &&
	test_grep "^  --gitlab PROJECT  *GitLab CI: the jobs named by each --job NAME$" help
'

test_done
