#!/bin/bash
# Repeated references: a manifest naming one report five times (or as
# `junit.xml` and `./junit.xml`) has it parsed and counted once, with one
# warning, so the test count and the affected fraction that falls back on
# it are right; a CI listing that names a run twice (a page that shifted
# while it was read) has it downloaded and ingested once.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/ciapi/lib-ciapi.sh"

test_expect_success 'setup: a repository, a report of 13 tests' '
	ci_repo &&
	set -- &&
	for i in $(seq 1 12); do set -- "$@" "tests/test_a.py::t$i"; done &&
	junit junit.xml "$@" tests/test_a.py::t13:failed
'

test_expect_success 'five references to one report: parsed once, counted once, one warning' '
	h=$(cat heads/11) b=$(cat heads/base) &&
	write_run five "\"repo\": \"acme/ledger\", \"pr\": 11, \"head\": \"$h\", \"base\": \"$b\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"fail\", \"results\": [\"junit.xml\", \"junit.xml\", \"./junit.xml\", \"junit.xml\", \"junit.xml\"], \"selection\": {\"decision\": \"selected\", \"selected\": [\"tests/test_a.py\"], \"total_tests\": 100}" &&
	cp junit.xml five/ &&
	tiadash --db s.db --repo repo ingest five >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	m=$(cd five && pwd -P)/tiadash-run.json &&
	echo "tiadash: warning: $m: ${SQ}results${SQ} names ${SQ}junit.xml${SQ} 5 times: read once" >expect &&
	test_cmp expect err &&
	sqlite3 s.db "SELECT tests, failures, selected_count FROM run JOIN selection ON run_id = run.id" >actual &&
	echo "13|1|13" >expect && test_cmp expect actual &&
	tiadash --db s.db report --since 2026-11-01 --format json >r.json &&
	json_get r.json "d[\"affected_fraction\"][\"p50\"]" >actual &&
	echo 0.13 >expect && test_cmp expect actual
'

test_expect_success 'setup: a CI listing that names a run twice, across pages' '
	ci_record rec/a shadow 12 pass 1 --started-at 2026-11-02T10:00:00Z --wall-clock 120 &&
	r="{\"id\": 1201, \"workflow\": \"shadow.yml\", \"head_sha\": \"$(cat heads/12)\", \"created_at\": \"2026-11-02T10:00:00Z\", \"updated_at\": \"2026-11-02T10:20:00Z\", \"conclusion\": \"success\", \"artifacts\": [{\"id\": 5201, \"name\": \"tiadash-shadow-1\", \"dir\": \"rec/a\"}]}" &&
	cat >spec.json <<-EOF &&
	{"token": "ghs_t0ken", "page_size": 1,
	 "github": {"project": "acme/ledger", "runs": [$r, $r]}}
	EOF
	ci_world spec.json
'
ci_start || exit 2

test_expect_success 'the repeated run is downloaded and ingested once, with one warning' '
	GITHUB_TOKEN=ghs_t0ken tiadash --db c.db --repo repo ingest --github acme/ledger \
		--api-url "$API" --workflow shadow.yml >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	test_grep "^tiadash: warning: github acme/ledger shadow.yml: the listing names 1 entry more than once (run 1201): each is pulled once$" err &&
	test "$(grep -c warning err)" = 1 &&
	test_grep "shadow.yml: 1 run since" err &&
	test "$(ci_log | grep -c "/artifacts/5201/zip")" = 1
'

test_done
