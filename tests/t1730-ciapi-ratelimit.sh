#!/bin/bash
# Rate limits of the CI APIs: an answer saying the quota is used up
# (X-RateLimit-Remaining: 0, X-RateLimit-Reset a second ahead) holds every
# request until the reset; a 429 or 403 with Retry-After (GitHub's
# secondary limits), or a 403 with the quota used up, is waited out and
# tried again; a limit that resets later than TIADASH_HTTP_MAX_WAIT stops
# the pull with a message naming when, and nothing more is asked. The
# server marks any request made while it had said "used up" as early.
# tests/run: waits (every limit is waited out)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

export GITHUB_TOKEN=ghs_t0ken

test_expect_success 'setup: three runs, one artifact each' '
	ci_repo &&
	for pr in 11 12 13; do
		ci_record rec/$pr shadow $pr pass 1 --started-at 2026-11-02T10:00:00Z --wall-clock 120 || return 1
	done &&
	for pr in 11 12 13; do
		printf "{\"id\": 12%s, \"workflow\": \"shadow.yml\", \"head_sha\": \"%s\", \"created_at\": \"2026-11-02T10:00:00Z\", \"updated_at\": \"2026-11-02T10:20:00Z\", \"artifacts\": [{\"id\": 52%s, \"name\": \"tiadash-shadow-1\", \"dir\": \"rec/%s\"}]}\n" \
			$pr "$(cat heads/$pr)" $pr $pr
	done | paste -sd, >runs.json &&
	printf "{\"token\": \"ghs_t0ken\", \"github\": {\"project\": \"acme/ledger\", \"runs\": [%s]}}\n" \
		"$(cat runs.json)" >base.json
'
ci_start || exit 2

# rules JSON: the base spec with these misbehaviours.
rules() {
	python3 -c '
import json, sys
spec = json.load(open("base.json")); spec["rules"] = json.loads(sys.argv[1])
json.dump(spec, open("spec.json", "w"))' "$1" && ci_world spec.json
}
# pull DB [OPTIONS]: pull the workflow's runs into DB.
pull() {
	tiadash --db "$1" --repo repo ingest --github acme/ledger --workflow shadow.yml \
		--api-url "$API" "${@:2}"
}
RUNS=/repos/acme/ledger/actions/workflows/shadow.yml/runs

test_expect_success 'a used-up quota (reset a second ahead) holds every request until the reset' '
	rules "{\"$RUNS\": {\"exhaust\": 1, \"times\": 1}}" &&
	m=$(ci_mark) &&
	pull a.db >out 2>err &&
	echo "3 new runs, 0 unchanged" >expect && test_cmp expect out &&
	grep "rate limit" err | sed "s/waiting [0-9]* s/waiting N s/; s/at 20[-0-9T:]*Z/at TIME/" >actual &&
	echo "tiadash: $API: the rate limit is used up (remaining 0); waiting N s for its reset at TIME" >expect &&
	test_cmp expect actual &&
	ci_log --from $m >log &&
	! grep -q " early" log &&
	test "$(wc -l <log)" = 10
'

test_expect_success 'a 429 with Retry-After is waited out and asked again' '
	rules "{\"/repos/acme/ledger/actions/runs/1212/artifacts\": {\"status\": 429, \"retry_after\": \"1\", \"times\": 1}}" &&
	m=$(ci_mark) &&
	pull b.db >out 2>err &&
	echo "3 new runs, 0 unchanged" >expect && test_cmp expect out &&
	grep "rate limited" err | sed "s/until 20[-0-9T:]*Z/until TIME/" >actual &&
	echo "tiadash: $API/repos/acme/ledger/actions/runs/1212/artifacts?per_page=100: HTTP 429, rate limited (Retry-After: 1); waiting 1 s, until TIME (attempt 2 of 4)" >expect &&
	test_cmp expect actual &&
	ci_log --from $m | grep "/runs/1212/artifacts" | cut -d" " -f4 >actual &&
	printf "429\n200\n" >expect && test_cmp expect actual
'

test_expect_success 'a secondary limit (403 with Retry-After) on a download is waited out too' '
	rules "{\"/repos/acme/ledger/actions/artifacts/5213/zip\": {\"status\": 403, \"retry_after\": \"1\", \"times\": 1}}" &&
	m=$(ci_mark) &&
	pull c.db >out 2>err &&
	echo "3 new runs, 0 unchanged" >expect && test_cmp expect out &&
	test_grep "artifacts/5213/zip: HTTP 403, rate limited (Retry-After: 1); waiting 1 s" err &&
	ci_log --from $m | grep -e "/5213/zip" -e "github-5213" | cut -d" " -f1,4 | sort >actual &&
	printf "api 302\napi 403\nstorage 200\n" >expect && test_cmp expect actual
'

test_expect_success 'a 403 whose quota is used up (X-RateLimit-Remaining 0) waits for the reset' '
	rules "{\"/repos/acme/ledger/actions/runs/1211/artifacts\": {\"status\": 403, \"reset_in\": 1, \"times\": 1}}" &&
	m=$(ci_mark) &&
	pull d.db >out 2>err &&
	echo "3 new runs, 0 unchanged" >expect && test_cmp expect out &&
	test_grep "runs/1211/artifacts?per_page=100: HTTP 403, rate limited (rate limit remaining 0); waiting [12] s" err &&
	ci_log --from $m | grep "/runs/1211/artifacts" | cut -d" " -f4 >actual &&
	printf "403\n200\n" >expect && test_cmp expect actual
'

test_expect_success 'a 403 that is no rate limit is an error at once, not retried' '
	rules "{\"/repos/acme/ledger/actions/runs/1211/artifacts\": {\"status\": 403}}" &&
	m=$(ci_mark) &&
	test_expect_code 2 pull e.db >out 2>err &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out &&
	grep "error" err >actual &&
	echo "tiadash: error: $API/repos/acme/ledger/actions/runs/1211/artifacts?per_page=100: HTTP 403" >expect &&
	test_cmp expect actual &&
	test "$(ci_log --from $m | grep -c "/runs/1211/artifacts")" = 1
'

test_expect_success 'a limit that resets later than TIADASH_HTTP_MAX_WAIT stops the pull; nothing more is asked' '
	rules "{\"/repos/acme/ledger/actions/runs/1212/artifacts\": {\"status\": 429, \"retry_after\": \"3600\", \"times\": 1}}" &&
	m=$(ci_mark) &&
	TIADASH_HTTP_PARALLEL=1 test_expect_code 2 pull f.db >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sed "s/until 20[-0-9T:]*Z/until TIME/g" err >actual &&
	cat >expect <<-EOF &&
	tiadash: github acme/ledger shadow.yml: 3 runs since 2026-11-01T00:00:00Z, 3 to pull, 0 pulled before
	tiadash: error: $API/repos/acme/ledger/actions/runs/1212/artifacts?per_page=100: HTTP 429: rate limited until TIME (Retry-After: 3600): longer than TIADASH_HTTP_MAX_WAIT (60 s) lets tiadash wait; try again then
	tiadash: error: github acme/ledger: stopped: rate limited until TIME (Retry-After: 3600): longer than TIADASH_HTTP_MAX_WAIT (60 s) lets tiadash wait; 2 runs not pulled (the next pull tries them)
	EOF
	test_cmp expect actual &&
	ci_log --from $m | tail -n 1 | cut -d" " -f1,3,4 >actual &&
	echo "api /repos/acme/ledger/actions/runs/1212/artifacts?per_page=100 429" >expect &&
	test_cmp expect actual &&
	pull f.db >out 2>err &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'TIADASH_HTTP_MAX_WAIT sets how long a limit may hold the pull' '
	rules "{\"$RUNS\": {\"status\": 429, \"retry_after\": \"5\", \"times\": 1}}" &&
	TIADASH_HTTP_MAX_WAIT=1 test_expect_code 2 pull g.db >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	test_grep "HTTP 429: rate limited until .* (Retry-After: 5): longer than TIADASH_HTTP_MAX_WAIT (1 s) lets tiadash wait; try again then$" err
'

test_expect_success 'a used-up quota that resets in an hour stops the pull after that answer' '
	rules "{\"$RUNS\": {\"exhaust\": 3600, \"times\": 1}}" &&
	m=$(ci_mark) &&
	test_expect_code 2 pull h.db >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	sed "s/until 20[-0-9T:]*Z, [0-9]* s/until TIME, N s/" err >actual &&
	cat >expect <<-EOF &&
	tiadash: github acme/ledger shadow.yml: 3 runs since 2026-11-01T00:00:00Z, 3 to pull, 0 pulled before
	tiadash: error: github acme/ledger: stopped: the rate limit of $API is used up until TIME, N s from now: longer than TIADASH_HTTP_MAX_WAIT (60 s) lets tiadash wait; 3 runs not pulled (the next pull tries them)
	EOF
	test_cmp expect actual &&
	test "$(ci_log --from $m | wc -l)" = 1
'

test_done
