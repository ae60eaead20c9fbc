#!/bin/bash
# What can be wrong with a CI's artifacts, each reported naming the run and
# the artifact while the rest lands (exit 2): expired artifacts (GitHub's
# `expired`, a 410, GitLab's artifacts_expire_at, a 404), runs without a
# manifest, archives whose entries leave their folder (zip-slip: '..', an
# absolute name, a backslash), oversize artifacts (announced, or found
# while downloading), a manifest whose references leave its folder or name
# a file the archive lacks, an entry bigger than --max-size (a zip bomb),
# a file that is not a zip. A run with a problem
# is not remembered: the next pull tries it again.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

export GITHUB_TOKEN=ghs_t0ken GITLAB_TOKEN=glpat_t0ken

test_expect_success 'setup: a good record, and hostile archives made from it' '
	ci_repo &&
	ci_record rec/good shadow 11 pass 1 --started-at 2026-11-02T10:00:00Z --wall-clock 120 &&
	ci_record rec/gl shadow 12 pass 1 --started-at 2026-11-03T10:00:00Z --wall-clock 130 &&
	h=$(cat heads/11) &&
	cp rec/good/shadow-$h-1/tiadash-run.json manifest.json &&
	cp rec/good/shadow-$h-1/results/reports/junit.xml junit.xml &&
	echo "a build log" >log.txt &&
	python3 -c "import os; open(\"big.bin\", \"wb\").write(os.urandom(100000))" &&
	echo "PK not really a zip" >junk.zip &&
	python3 - <<-\EOF
	import json
	m = json.load(open("manifest.json"))
	m["results"] = ["../escape/junit.xml"]
	json.dump(m, open("escaping.json", "w"))
	m["results"] = ["results/missing.xml"]
	json.dump(m, open("missing.json", "w"))
	m["results"] = ["bomb.xml"]
	json.dump(m, open("bomb.json", "w"))
	open("zeros.xml", "wb").write(bytes(1 << 20))
	EOF
'

# run ID CONCLUSION ARTIFACTS-JSON: a shadow.yml run of the spec (PR 11).
run() {
	printf '{"id": %s, "workflow": "shadow.yml", "head_sha": "%s", "created_at": "2026-11-02T10:00:00Z", "updated_at": "2026-11-02T10:20:00Z", "conclusion": "%s", "artifacts": [%s]}' \
		"$1" "$(cat heads/11)" "$2" "$3"
}

test_expect_success 'setup: the CI server' '
	h=$(cat heads/11) &&
	cat >spec.json <<-EOF &&
	{"token": "ghs_t0ken", "gitlab_token": "glpat_t0ken",
	 "github": {"project": "acme/ledger", "runs": [
	  $(run 1101 success "{\"id\": 5101, \"name\": \"tiadash-shadow-1\", \"dir\": \"rec/good\"}"),
	  $(run 1102 success "{\"id\": 5102, \"name\": \"tiadash-shadow-1\", \"dir\": \"rec/good\", \"expired\": true}"),
	  $(run 1103 success "{\"id\": 5103, \"name\": \"tiadash-shadow-1\", \"dir\": \"rec/good\"}"),
	  $(run 1104 success "{\"id\": 5104, \"name\": \"logs\", \"entries\": {\"build/log.txt\": \"log.txt\"}}"),
	  $(run 1105 failure ""),
	  $(run 1106 success "{\"id\": 5106, \"name\": \"dots\", \"entries\": {\"../evil/tiadash-run.json\": \"manifest.json\"}}"),
	  $(run 1107 success "{\"id\": 5107, \"name\": \"absolute\", \"entries\": {\"/etc/cron.d/tiadash-run.json\": \"manifest.json\"}}"),
	  $(run 1108 success "{\"id\": 5108, \"name\": \"backslash\", \"entries\": {\"run/tiadash-run.json\": \"manifest.json\", \"run/results/reports/junit.xml\": \"junit.xml\", \"run\\\\..\\\\..\\\\evil.sh\": \"log.txt\"}}"),
	  $(run 1109 success "{\"id\": 5109, \"name\": \"announced-big\", \"dir\": \"rec/good\", \"size_in_bytes\": 10485760}"),
	  $(run 1110 success "{\"id\": 5110, \"name\": \"quietly-big\", \"entries\": {\"big.bin\": \"big.bin\"}, \"size_in_bytes\": 100}"),
	  $(run 1111 success "{\"id\": 5111, \"name\": \"escaping-ref\", \"entries\": {\"run/tiadash-run.json\": \"escaping.json\", \"escape/junit.xml\": \"junit.xml\"}}"),
	  $(run 1112 success "{\"id\": 5112, \"name\": \"missing-ref\", \"entries\": {\"run/tiadash-run.json\": \"missing.json\"}}"),
	  $(run 1113 cancelled ""),
	  $(run 1114 success "{\"id\": 5114, \"name\": \"junk\", \"entries\": {}}"),
	  $(run 1115 success "{\"id\": 5115, \"name\": \"bomb\", \"entries\": {\"run/tiadash-run.json\": \"bomb.json\", \"run/bomb.xml\": \"zeros.xml\"}}")]},
	 "gitlab": {"project": "group/ledger", "id": 7, "redirect": true, "jobs": [
	  {"id": 2101, "name": "shadow", "status": "success", "sha": "$(cat heads/12)", "created_at": "2026-11-03T10:00:00Z",
	   "finished_at": "2026-11-03T10:10:00Z", "duration": 600, "artifacts_expire_at": "2026-11-05T10:10:00.000Z",
	   "archive": {"dir": "rec/gl", "prefix": ".tiadash/runs/"}},
	  {"id": 2102, "name": "shadow", "status": "success", "sha": "$(cat heads/12)", "created_at": "2026-11-03T11:00:00Z",
	   "finished_at": "2026-11-03T11:10:00Z", "duration": 600, "archive": {"gone": true}},
	  {"id": 2103, "name": "shadow", "status": "failed", "sha": "$(cat heads/12)", "created_at": "2026-11-03T12:00:00Z",
	   "finished_at": "2026-11-03T12:10:00Z", "duration": 600, "archive": null},
	  {"id": 2104, "name": "shadow", "status": "success", "sha": "$(cat heads/12)", "created_at": "2026-11-03T13:00:00Z",
	   "finished_at": "2026-11-03T13:10:00Z", "duration": 600, "archive": {"dir": "rec/gl", "prefix": ".tiadash/runs/"}}]},
	 "rules": {"/repos/acme/ledger/actions/artifacts/5103/zip": {"status": 410}}}
	EOF
	ci_world spec.json &&
	cp junk.zip world/blobs/github-5114.zip &&
	python3 -c "import zipfile; print(zipfile.ZipFile(\"world/blobs/github-5108.zip\").namelist())" >names &&
	echo "[${SQ}run/tiadash-run.json${SQ}, ${SQ}run/results/reports/junit.xml${SQ}, ${SQ}run\\\\..\\\\..\\\\evil.sh${SQ}]" >expect &&
	test_cmp expect names
'
ci_start || exit 2

test_expect_success 'GitHub: each problem names the run and the artifact; the good run lands; exit 2' '
	test_expect_code 2 tiadash --db s.db --repo repo ingest --github acme/ledger --api-url "$API" \
		--workflow shadow.yml --max-size 64K >out 2>err &&
	echo "1 new run, 0 unchanged, 13 failed" >expect && test_cmp expect out &&
	R="tiadash: error: github acme/ledger shadow.yml run" &&
	Z="http://127.0.0.1:$API_PORT/repos/acme/ledger/actions/artifacts" &&
	cat >expect <<-EOF &&
	tiadash: github acme/ledger shadow.yml: 15 runs since 2026-11-01T00:00:00Z, 15 to pull, 0 pulled before
	$R 1102 artifact 5102 ${SQ}tiadash-shadow-1${SQ}: expired: its retention period is over, it can no longer be downloaded
	$R 1103 artifact 5103 ${SQ}tiadash-shadow-1${SQ}: expired or deleted (HTTP 410)
	$R 1104: no tiadash.run.v1 manifest in its artifacts (${SQ}logs${SQ})
	$R 1105: no artifacts, so no tiadash.run.v1 manifest
	$R 1106 artifact 5106 ${SQ}dots${SQ}: refusing the archive: entry ${SQ}../evil/tiadash-run.json${SQ} leaves its folder (an absolute name, ${SQ}..${SQ} or a backslash)
	$R 1107 artifact 5107 ${SQ}absolute${SQ}: refusing the archive: entry ${SQ}/etc/cron.d/tiadash-run.json${SQ} leaves its folder (an absolute name, ${SQ}..${SQ} or a backslash)
	$R 1108 artifact 5108 ${SQ}backslash${SQ}: refusing the archive: entry ${SQ}run\\..\\..\\evil.sh${SQ} leaves its folder (an absolute name, ${SQ}..${SQ} or a backslash)
	$R 1109 artifact 5109 ${SQ}announced-big${SQ}: 10485760 bytes, larger than the 65536-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)
	$R 1110 artifact 5110 ${SQ}quietly-big${SQ}: $Z/5110/zip: larger than the 65536-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)
	$R 1111 artifact 5111 ${SQ}escaping-ref${SQ}: run/tiadash-run.json:1: ${SQ}results${SQ} names ${SQ}../escape/junit.xml${SQ}, which is not a relative path inside the manifest${SQ}s directory
	$R 1112 artifact 5112 ${SQ}missing-ref${SQ}: run/tiadash-run.json: ${SQ}run/results/missing.xml${SQ} is not in the archive
	tiadash: github acme/ledger shadow.yml run 1113: cancelled, without artifacts
	$R 1114 artifact 5114 ${SQ}junk${SQ}: not a readable zip archive: Not a zip archive
	$R 1115 artifact 5115 ${SQ}bomb${SQ}: ${SQ}run/bomb.xml${SQ} is 1048576 bytes, larger than the 65536-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)
	EOF
	test_cmp expect err &&
	tiadash --db s.db status --format json >st.json &&
	test "$(json_get st.json "d[\"runs\"][\"shadow\"]")" = 1 &&
	sqlite3 s.db "select run_id, runs from ci_seen order by 1" >actual &&
	printf "1101|1\n1113|0\n" >expect && test_cmp expect actual
'

test_expect_success 'nothing is asked for an artifact known to be expired or too big' '
	ci_log | grep -c "/artifacts/51\(02\|09\)/" >n;
	test "$(cat n)" = 0
'

test_expect_success 'the next pull tries the runs with problems again, not the good or cancelled ones' '
	m=$(ci_mark) &&
	test_expect_code 2 tiadash --db s.db --repo repo ingest --github acme/ledger --api-url "$API" \
		--workflow shadow.yml --max-size 64K >out 2>err &&
	echo "0 new runs, 0 unchanged, 13 failed" >expect && test_cmp expect out &&
	head -n 1 err >actual &&
	echo "tiadash: github acme/ledger shadow.yml: 15 runs since 2026-11-01T00:00:00Z, 13 to pull, 2 pulled before (newest run 1113)" >expect &&
	test_cmp expect actual &&
	ci_log --from $m | grep -c "/runs/11\(01\|13\)/artifacts" >n;
	test "$(cat n)" = 0 &&
	test "$(ci_log --from $m | grep -c "/runs/11[01][0-9]/artifacts")" = 13
'

test_expect_success 'GitLab: an expired archive, one that is gone (404), a job without one' '
	test_expect_code 2 tiadash --db g.db --repo repo ingest --gitlab group/ledger --api-url "$API/api/v4" \
		--job shadow >out 2>err &&
	echo "1 new run, 0 unchanged, 3 failed" >expect && test_cmp expect out &&
	R="tiadash: error: gitlab group/ledger shadow job" &&
	cat >expect <<-EOF &&
	tiadash: gitlab group/ledger shadow: 4 jobs since 2026-11-01T00:00:00Z, 4 to pull, 0 pulled before
	$R 2101 artifacts ${SQ}artifacts.zip${SQ}: expired at 2026-11-05T10:10:00.000Z (artifacts:expire_in)
	$R 2102 artifacts ${SQ}artifacts.zip${SQ}: expired or deleted (HTTP 404)
	$R 2103: no artifacts, so no tiadash.run.v1 manifest
	EOF
	test_cmp expect err &&
	tiadash --db g.db status --format json >st.json &&
	test "$(json_get st.json "d[\"runs\"][\"shadow\"]")" = 1
'

test_done
