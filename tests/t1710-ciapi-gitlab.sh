#!/bin/bash
# `tiadash ingest --gitlab`: the project's finished jobs (scope[]=success,
# scope[]=failed; pages by X-Next-Page, no later page once a page is older
# than the window), filtered by job name; each job's artifacts archive
# downloaded (redirected to object storage, or answered directly), with
# PRIVATE-TOKEN sent to the API only; the job's duration as the
# wall-clock of a manifest without one; a second pull fetches no archive.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

export GITLAB_TOKEN=glpat-t0ken-for-the-api
GL="tiadash --db s.db --repo repo ingest --gitlab group/sub/ledger --api-url"

test_expect_success 'setup: merge requests 11 and 12 recorded by shadow and full jobs' '
	ci_repo &&
	echo "tests/test_b.py" >sel.txt &&
	ci_record rec/2001 shadow 11 pass 1 --selection "$TRASH/sel.txt" --total-tests 3 \
		--started-at 2026-11-02T10:00:00Z --wall-clock 120 &&
	ci_record rec/2002 full 11 pass 1 --started-at 2026-11-02T10:00:00Z --wall-clock 600 &&
	ci_record rec/2004 shadow 12 pass 1 --selection "$TRASH/sel.txt" --total-tests 3 \
		--started-at 2026-11-03T10:00:00Z --wall-clock 130 &&
	ci_record rec/2005 full 12 fail 1 --started-at 2026-11-03T10:00:00Z --wall-clock 1 &&
	drop_wall rec/2005/full-$(cat heads/12)-1/tiadash-run.json
'

# job ID NAME STATUS PR MM-DD [ARCHIVE-DIR]: one job of the spec (2026).
job() {
	local archive=null
	[ -n "${6:-}" ] && archive="{\"dir\": \"$6\", \"prefix\": \".tiadash/runs/\"}"
	printf '{"id": %s, "name": "%s", "status": "%s", "sha": "%s", "created_at": "2026-%sT10:00:00.000Z", "started_at": "2026-%sT10:00:05.000Z", "finished_at": "2026-%sT10:13:37.500Z", "duration": 812.5, "artifacts_expire_at": "2027-%sT10:13:37.500Z", "archive": %s}' \
		"$1" "$2" "$3" "$(cat heads/$4)" "$5" "$5" "$5" "$5" "$archive"
}

test_expect_success 'setup: the CI server with jobs on five pages, the last two older than the window' '
	cat >spec.json <<-EOF &&
	{"token": "glpat-t0ken-for-the-api", "page_size": 2,
	 "gitlab": {"project": "group/sub/ledger", "id": 42, "redirect": true, "direct": [2002], "jobs": [
	  $(job 1960 full success 13 10-25),
	  $(job 1970 shadow success 13 10-26),
	  $(job 1980 full success 13 10-27),
	  $(job 1990 shadow success 13 10-28),
	  $(job 2001 shadow success 11 11-02 rec/2001),
	  $(job 2002 full success 11 11-02 rec/2002),
	  $(job 2003 lint success 11 11-02),
	  $(job 2004 shadow success 12 11-03 rec/2004),
	  $(job 2005 full failed 12 11-03 rec/2005),
	  $(job 2006 full running 12 11-06 rec/2005)]}}
	EOF
	ci_world spec.json
'
ci_start || exit 2

test_expect_success 'a first pull ingests the named jobs of the window' '
	$GL "$API/api/v4" --job shadow --job full --since 2026-11-01 >out 2>err &&
	echo "4 new runs, 0 unchanged" >expect && test_cmp expect out &&
	cat >expect <<-EOF &&
	tiadash: gitlab group/sub/ledger shadow: 2 jobs since 2026-11-01T00:00:00Z, 2 to pull, 0 pulled before
	tiadash: gitlab group/sub/ledger full: 2 jobs since 2026-11-01T00:00:00Z, 2 to pull, 0 pulled before
	EOF
	test_cmp expect err &&
	tiadash --db s.db status --format json >st.json &&
	test "$(json_get st.json "[d[\"runs\"][\"shadow\"], d[\"runs\"][\"full\"], d[\"pairs\"]]")" = "[2, 2, 2]"
'

test_expect_success 'the jobs are listed page by page (X-Next-Page) until a page is older than the window' '
	ci_log | grep "/jobs?" | cut -d" " -f3 >actual &&
	for p in 1 2 3 4; do
		echo "/api/v4/projects/group%2Fsub%2Fledger/jobs?scope%5B%5D=success&scope%5B%5D=failed&per_page=100&page=$p"
	done >expect &&
	test_cmp expect actual
'

test_expect_success 'PRIVATE-TOKEN goes to the API only; archives redirect to storage, or come directly' '
	ci_log | grep "^api " | grep -v " auth=private gh=no$" >wrong;
	test_must_be_empty wrong &&
	ci_log | grep -v "/jobs?" | cut -d" " -f1,3-5 | sed "s/?[^ ]*//" | sort >actual &&
	cat >expect <<-EOF &&
	api /api/v4/projects/group%2Fsub%2Fledger/jobs/2001/artifacts 302 auth=private
	api /api/v4/projects/group%2Fsub%2Fledger/jobs/2002/artifacts 200 auth=private
	api /api/v4/projects/group%2Fsub%2Fledger/jobs/2004/artifacts 302 auth=private
	api /api/v4/projects/group%2Fsub%2Fledger/jobs/2005/artifacts 302 auth=private
	storage /blob/gitlab-2001.zip 200 auth=no
	storage /blob/gitlab-2004.zip 200 auth=no
	storage /blob/gitlab-2005.zip 200 auth=no
	EOF
	test_cmp expect actual &&
	! grep -q glpat s.db out err
'

test_expect_success 'the manifests inside .tiadash/runs/ of the archive are the runs; duration is the missing wall-clock' '
	tiadash --db s.db show 12 --format json >show.json &&
	json_get show.json "[d[\"class\"], sorted((r[\"kind\"], r[\"verdict\"], r[\"wall_clock_s\"]) for r in d[\"runs\"])]" >actual &&
	echo "[${SQ}escape${SQ}, [(${SQ}full${SQ}, ${SQ}fail${SQ}, 812.5), (${SQ}shadow${SQ}, ${SQ}pass${SQ}, 130)]]" >expect &&
	test_cmp expect actual &&
	sqlite3 s.db "select uri from source where uri like ${SQ}%2005%${SQ}" | sed "s/$API_PORT/PORT/" >actual &&
	echo "http://127.0.0.1:PORT/api/v4/projects/group%2Fsub%2Fledger/jobs/2005/artifacts#.tiadash/runs/full-$(cat heads/12)-1/tiadash-run.json" >expect &&
	test_cmp expect actual
'

test_expect_success 'a second pull lists the jobs and downloads nothing' '
	m=$(ci_mark) &&
	$GL "$API/api/v4" --job shadow --job full --since 2026-11-01 >out 2>err &&
	echo "0 new runs, 0 unchanged" >expect && test_cmp expect out &&
	cat >expect <<-EOF &&
	tiadash: gitlab group/sub/ledger shadow: 2 jobs since 2026-11-01T00:00:00Z, 0 to pull, 2 pulled before (newest job 2004)
	tiadash: gitlab group/sub/ledger full: 2 jobs since 2026-11-01T00:00:00Z, 0 to pull, 2 pulled before (newest job 2005)
	EOF
	test_cmp expect err &&
	test "$(ci_log --from $m | grep -c "/jobs?")" = 4 &&
	test "$(ci_log --from $m | wc -l)" = 4
'

test_expect_success 'a retried job is a new job: only it is fetched' '
	python3 - <<-\EOF &&
	import json
	spec = json.load(open("spec.json"))
	for j in spec["gitlab"]["jobs"]:
	    if j["id"] == 2006:
	        j["status"] = "success"
	json.dump(spec, open("spec.json", "w"))
	EOF
	ci_world spec.json &&
	m=$(ci_mark) &&
	$GL "$API/api/v4" --job full >out 2>err &&
	echo "0 new runs, 1 unchanged" >expect && test_cmp expect out &&
	echo "tiadash: gitlab group/sub/ledger full: 3 jobs since 2026-11-01T00:00:00Z, 1 to pull, 2 pulled before (newest job 2005)" >expect &&
	test_cmp expect err &&
	ci_log --from $m | grep -v "/jobs?" | cut -d" " -f1,3,4 | sed "s/?[^ ]*//" >actual &&
	printf "%s\n" "api /api/v4/projects/group%2Fsub%2Fledger/jobs/2006/artifacts 302" \
		"storage /blob/gitlab-2006.zip 200" >expect &&
	test_cmp expect actual &&
	sqlite3 s.db "select pipeline, newest_id from ci_cursor order by 1" >actual &&
	printf "full|2006\nshadow|2004\n" >expect && test_cmp expect actual
'

test_expect_success 'the project may be given by its numeric id' '
	tiadash --db t.db --repo repo ingest --gitlab 42 --api-url "$API/api/v4" --job shadow \
		--since 2026-11-01 >out 2>err &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out &&
	echo "tiadash: gitlab 42 shadow: 2 jobs since 2026-11-01T00:00:00Z, 2 to pull, 0 pulled before" >expect &&
	test_cmp expect err
'

test_done
