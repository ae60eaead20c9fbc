#!/bin/bash
# `tiadash ingest --github`: the runs of each workflow in the window (pages
# followed through the Link header), their artifacts downloaded through a
# redirect to a storage host that never sees the token, the `tiadash record`
# folders inside ingested as runs, the wall-clock of a manifest without one
# taken from the jobs API; a second pull fetches nothing, a re-run only
# the run that changed.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

export GITHUB_TOKEN=ghs_t0ken-for-the-api
GH="tiadash --db s.db --repo repo ingest --github acme/ledger --api-url"

test_expect_success 'setup: pull requests 11-13 recorded by shadow and full jobs' '
	ci_repo &&
	echo "tests/test_b.py" >sel.txt &&
	ci_record rec/5001 shadow 11 pass 1 --selection "$TRASH/sel.txt" --total-tests 3 \
		--started-at 2026-11-02T10:00:00Z --wall-clock 120 &&
	ci_record rec/5002 full 11 pass 1 --started-at 2026-11-02T10:00:00Z --wall-clock 600 &&
	ci_record rec/5003 shadow 12 pass 1 --selection "$TRASH/sel.txt" --total-tests 3 \
		--started-at 2026-11-03T10:00:00Z --wall-clock 130 &&
	ci_record rec/5004 full 12 fail 1 --started-at 2026-11-03T10:00:00Z --wall-clock 610 &&
	ci_record rec/5005 shadow 13 pass 1 --selection "$TRASH/sel.txt" --total-tests 3 \
		--started-at 2026-11-04T10:00:00Z --wall-clock 140 &&
	ci_record rec/5006 full 13 pass 1 --started-at 2026-11-04T10:00:00Z --wall-clock 1 &&
	drop_wall rec/5006/full-$(cat heads/13)-1/tiadash-run.json &&
	ci_record rec/5007 full 12 pass 2 --started-at 2026-11-05T09:00:00Z --wall-clock 620 &&
	mkdir -p logs && echo "build log" >logs/build.txt
'

# run ID WORKFLOW PR DAY ARTIFACT...: one workflow run of the spec.
run() {
	local id=$1 wf=$2 pr=$3 day=$4 arts="" a
	shift 4
	for a in "$@"; do arts="$arts${arts:+, }$a"; done
	printf '{"id": %s, "workflow": "%s", "head_sha": "%s", "created_at": "2026-11-%sT10:00:00Z", "run_started_at": "2026-11-%sT10:00:05Z", "updated_at": "2026-11-%sT10:20:05Z", "artifacts": [%s], "jobs": [{"id": %s1, "name": "lint", "started_at": "2026-11-%sT10:00:10Z", "completed_at": "2026-11-%sT10:01:10Z"}, {"id": %s2, "name": "docs", "started_at": "2026-11-%sT10:00:10Z", "completed_at": "2026-11-%sT10:02:10Z"}, {"id": %s3, "name": "%s", "started_at": "2026-11-%sT10:00:10Z", "completed_at": "2026-11-%sT10:12:44Z"}]}' \
		"$id" "$wf" "$(cat heads/$pr)" "$day" "$day" "$day" "$arts" "$id" "$day" "$day" "$id" "$day" "$day" "$id" "${wf%.yml}" "$day" "$day"
}
art() {
	printf '{"id": %s, "name": "%s", "dir": "rec/%s"}' "$1" "$2" "$1"
}

test_expect_success 'setup: the CI server with six runs in the window, one older, one running' '
	cat >spec.json <<-EOF &&
	{"token": "ghs_t0ken-for-the-api", "page_size": 2,
	 "github": {"project": "acme/ledger", "runs": [
	  {"id": 990, "workflow": "shadow.yml", "head_sha": "$(cat heads/14)", "created_at": "2026-10-20T10:00:00Z",
	   "updated_at": "2026-10-20T10:20:00Z", "artifacts": []},
	  $(run 1001 shadow.yml 11 02 "$(art 5001 tiadash-shadow-1)"),
	  $(run 1002 full.yml 11 02 "$(art 5002 tiadash-full-1)"),
	  $(run 1003 shadow.yml 12 03 "$(art 5003 tiadash-shadow-1)"),
	  $(run 1004 full.yml 12 03 "$(art 5004 tiadash-full-1)" "{\"id\": 5008, \"name\": \"build-logs\", \"dir\": \"logs\"}"),
	  $(run 1005 shadow.yml 13 04 "$(art 5005 tiadash-shadow-1)"),
	  $(run 1006 full.yml 13 04 "$(art 5006 tiadash-full-1)"),
	  {"id": 1007, "workflow": "shadow.yml", "head_sha": "$(cat heads/14)", "created_at": "2026-11-07T10:00:00Z",
	   "updated_at": "2026-11-07T10:00:00Z", "status": "in_progress", "conclusion": null, "artifacts": []}]}}
	EOF
	ci_world spec.json
'
ci_start || exit 2

test_expect_success 'a first pull ingests every run of both workflows in the window' '
	$GH "$API" --workflow shadow.yml --workflow full.yml --since 7d >out 2>err &&
	echo "6 new runs, 0 unchanged" >expect && test_cmp expect out &&
	cat >expect <<-EOF &&
	tiadash: github acme/ledger shadow.yml: 3 runs since 2026-11-01T00:00:00Z, 3 to pull, 0 pulled before, 1 still running
	tiadash: github acme/ledger full.yml: 3 runs since 2026-11-01T00:00:00Z, 3 to pull, 0 pulled before
	EOF
	test_cmp expect err &&
	tiadash --db s.db status --format json >st.json &&
	test "$(json_get st.json "[d[\"runs\"][\"shadow\"], d[\"runs\"][\"full\"], d[\"pairs\"]]")" = "[3, 3, 3]"
'

test_expect_success 'the runs are listed in the window, page by page (Link: rel="next")' '
	ci_log | grep " /repos/acme/ledger/actions/workflows/" | cut -d" " -f3 >actual &&
	cat >expect <<-EOF &&
	/repos/acme/ledger/actions/workflows/shadow.yml/runs?created=%3E%3D2026-11-01T00:00:00Z&per_page=100
	/repos/acme/ledger/actions/workflows/shadow.yml/runs?created=%3E%3D2026-11-01T00%3A00%3A00Z&per_page=100&page=2
	/repos/acme/ledger/actions/workflows/full.yml/runs?created=%3E%3D2026-11-01T00:00:00Z&per_page=100
	/repos/acme/ledger/actions/workflows/full.yml/runs?created=%3E%3D2026-11-01T00%3A00%3A00Z&per_page=100&page=2
	EOF
	test_cmp expect actual
'

test_expect_success 'the token and the API headers go to the API only, never to the storage host' '
	ci_log | grep "^api " | grep -v " auth=bearer gh=yes$" >wrong;
	test_must_be_empty wrong &&
	ci_log | grep "^storage " | sed "s/?[^ ]*//" | sort >actual &&
	cat >expect <<-EOF &&
	storage GET /blob/github-5001.zip 200 auth=no gh=no
	storage GET /blob/github-5002.zip 200 auth=no gh=no
	storage GET /blob/github-5003.zip 200 auth=no gh=no
	storage GET /blob/github-5004.zip 200 auth=no gh=no
	storage GET /blob/github-5005.zip 200 auth=no gh=no
	storage GET /blob/github-5006.zip 200 auth=no gh=no
	storage GET /blob/github-5008.zip 200 auth=no gh=no
	EOF
	test_cmp expect actual &&
	ci_log | grep "/zip " | cut -d" " -f3,4 | sort >actual &&
	for a in 5001 5002 5003 5004 5005 5006 5008; do
		echo "/repos/acme/ledger/actions/artifacts/$a/zip 302"
	done >expect &&
	test_cmp expect actual &&
	! grep -q ghs_t0ken s.db out err
'

test_expect_success 'the jobs API is asked only for the run whose manifest lacks wall_clock_s, page by page' '
	ci_log | grep "/jobs" | cut -d" " -f3 >actual &&
	cat >expect <<-EOF &&
	/repos/acme/ledger/actions/runs/1006/jobs?per_page=100
	/repos/acme/ledger/actions/runs/1006/jobs?per_page=100&page=2
	EOF
	test_cmp expect actual &&
	tiadash --db s.db show 13 --format json >show.json &&
	json_get show.json "sorted((r[\"kind\"], r[\"wall_clock_s\"]) for r in d[\"runs\"])" >actual &&
	echo "[(${SQ}full${SQ}, 754), (${SQ}shadow${SQ}, 140)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'the runs are what record wrote: pairs, verdicts, the escape of PR 12' '
	tiadash --db s.db show 12 --format json >show.json &&
	json_get show.json "[d[\"class\"], d[\"missed\"], sorted((r[\"kind\"], r[\"attempt\"], r[\"verdict\"], r[\"failed\"]) for r in d[\"runs\"])]" >actual &&
	echo "[${SQ}escape${SQ}, [${SQ}tests/test_a.py::test_two${SQ}], [(${SQ}full${SQ}, 1, ${SQ}fail${SQ}, [${SQ}tests/test_a.py::test_two${SQ}]), (${SQ}shadow${SQ}, 1, ${SQ}pass${SQ}, [])]]" >expect &&
	test_cmp expect actual &&
	sqlite3 s.db "select uri from source order by uri" | sed "s/$API_PORT/PORT/" >actual &&
	h11=$(cat heads/11) h12=$(cat heads/12) h13=$(cat heads/13) &&
	cat >expect <<-EOF &&
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5001/zip#shadow-$h11-1/tiadash-run.json
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5002/zip#full-$h11-1/tiadash-run.json
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5003/zip#shadow-$h12-1/tiadash-run.json
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5004/zip#full-$h12-1/tiadash-run.json
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5005/zip#shadow-$h13-1/tiadash-run.json
	http://127.0.0.1:PORT/repos/acme/ledger/actions/artifacts/5006/zip#full-$h13-1/tiadash-run.json
	EOF
	test_cmp expect actual
'

test_expect_success 'the same runs from the folders themselves are recognised as unchanged' '
	tiadash --db s.db --repo repo ingest rec/5001 rec/5002 rec/5003 rec/5004 rec/5005 >out 2>err &&
	echo "0 new runs, 5 unchanged" >expect && test_cmp expect out
'

test_expect_success 'the store remembers the newest run and each run pulled' '
	sqlite3 s.db "select provider, project, pipeline, newest_id from ci_cursor order by pipeline;
		select pipeline, run_id, updated_at, runs from ci_seen order by run_id" >actual &&
	cat >expect <<-EOF &&
	github|acme/ledger|full.yml|1006
	github|acme/ledger|shadow.yml|1005
	shadow.yml|1001|2026-11-02T10:20:05Z|1
	full.yml|1002|2026-11-02T10:20:05Z|1
	shadow.yml|1003|2026-11-03T10:20:05Z|1
	full.yml|1004|2026-11-03T10:20:05Z|1
	shadow.yml|1005|2026-11-04T10:20:05Z|1
	full.yml|1006|2026-11-04T10:20:05Z|1
	EOF
	test_cmp expect actual
'

test_expect_success 'a second pull lists the runs and fetches nothing else' '
	m=$(ci_mark) &&
	cp s.db before.db &&
	$GH "$API" --workflow shadow.yml --workflow full.yml --since 7d >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	cat >expect <<-EOF &&
	tiadash: github acme/ledger shadow.yml: 3 runs since 2026-11-01T00:00:00Z, 0 to pull, 3 pulled before (newest run 1005), 1 still running
	tiadash: github acme/ledger full.yml: 3 runs since 2026-11-01T00:00:00Z, 0 to pull, 3 pulled before (newest run 1006)
	EOF
	test_cmp expect err &&
	ci_log --from $m | cut -d" " -f1,3 | sed "s/?.*//" >actual &&
	cat >expect <<-EOF &&
	api /repos/acme/ledger/actions/workflows/shadow.yml/runs
	api /repos/acme/ledger/actions/workflows/shadow.yml/runs
	api /repos/acme/ledger/actions/workflows/full.yml/runs
	api /repos/acme/ledger/actions/workflows/full.yml/runs
	EOF
	test_cmp expect actual &&
	sqlite3 before.db "select * from run" >a && sqlite3 s.db "select * from run" >b && test_cmp a b
'

test_expect_success 'a re-run (updated_at changed, a second attempt) is the only run fetched again, its artifacts page by page' '
	python3 - <<-\EOF &&
	import json
	spec = json.load(open("spec.json"))
	for r in spec["github"]["runs"]:
	    if r["id"] == 1004:
	        r["updated_at"] = "2026-11-05T09:20:00Z"
	        r["run_attempt"] = 2
	        r["artifacts"].append({"id": 5007, "name": "tiadash-full-2", "dir": "rec/5007"})
	json.dump(spec, open("spec.json", "w"))
	EOF
	ci_world spec.json &&
	m=$(ci_mark) &&
	$GH "$API" --workflow full.yml >out 2>err &&
	echo "1 new run, 1 unchanged" >expect && test_cmp expect out &&
	echo "tiadash: github acme/ledger full.yml: 3 runs since 2026-11-01T00:00:00Z, 1 to pull, 2 pulled before (newest run 1006)" >expect &&
	test_cmp expect err &&
	ci_log --from $m | grep -v "/workflows/" | cut -d" " -f1,3,4 | sed "s/?sig=[^ ]*//" | sort >actual &&
	cat >expect <<-EOF &&
	api /repos/acme/ledger/actions/artifacts/5004/zip 302
	api /repos/acme/ledger/actions/artifacts/5007/zip 302
	api /repos/acme/ledger/actions/artifacts/5008/zip 302
	api /repos/acme/ledger/actions/runs/1004/artifacts?per_page=100 200
	api /repos/acme/ledger/actions/runs/1004/artifacts?per_page=100&page=2 200
	storage /blob/github-5004.zip 200
	storage /blob/github-5007.zip 200
	storage /blob/github-5008.zip 200
	EOF
	test_cmp expect actual &&
	tiadash --db s.db show 12 --format json >show.json &&
	test "$(json_get show.json "d[\"class\"]")" = flaky &&
	sqlite3 s.db "select updated_at, runs from ci_seen where run_id = 1004" >actual &&
	echo "2026-11-05T09:20:00Z|2" >expect && test_cmp expect actual
'

test_done
