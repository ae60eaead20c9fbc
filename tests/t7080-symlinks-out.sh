#!/bin/bash
# Symbolic links out of the artifact folder: '..' and absolute references
# are refused by the manifest parser, and a link that leads out of the
# manifest's folder is refused too, whatever it stands for (a selection
# list, a result, a subfolder, a quarantine list, coverage, an engine
# answer, a manifest the walk finds, a run an index names), with the path
# in the message; nothing of the source is stored. Links that stay inside
# the folder work.
. "$(dirname "$0")/lib.sh"
SQ="'"

test_expect_success 'setup: a repository, a secret outside the artifacts, a store' '
	git init -q repo && echo a >repo/a.py && mkdir repo/tests && echo t >repo/tests/a.py &&
	(cd repo && commit_at 2026-11-02T00:00:00Z a) &&
	git -C repo rev-parse HEAD >head &&
	mkdir outside && echo "ghp_SECRET0TOKEN" >outside/secret.txt &&
	junit outside/junit.xml "ghp_SECRET0TOKEN::t" &&
	printf "SF:a.py\nDA:1,1\nend_of_record\n" >outside/cov.info &&
	tiadash --db s.db init >/dev/null &&
	pwd -P >top
'
head=$(cat head 2>/dev/null) top=$(cat top 2>/dev/null)

# shadow DIR MORE-FIELDS: a shadow run's manifest in art/DIR.
shadow() {
	write_run "art/$1" "\"head\": \"$head\", \"base\": \"$head\", \"kind\": \"shadow\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", $2"
}

# refused DIR REF TARGET: ingesting art/DIR fails naming REF and where it leads.
refused() {
	test_expect_code 2 tiadash --db s.db --repo repo ingest "art/$1" >out 2>err &&
	echo "tiadash: error: $top/art/$1/tiadash-run.json: ${SQ}$2${SQ} leads to ${SQ}$top/$3${SQ}, outside the manifest${SQ}s folder ${SQ}$top/art/$1${SQ} (a symbolic link?): refused" >expect &&
	test_cmp expect err &&
	echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 0 &&
	! sqlite3 s.db .dump | grep -q SECRET0TOKEN
}

test_expect_success 'a selected_file linked out of the folder is refused, named' '
	shadow sel "\"selection\": {\"decision\": \"selected\", \"selected_file\": \"sel.txt\"}" &&
	ln -s ../../outside/secret.txt art/sel/sel.txt &&
	refused sel sel.txt outside/secret.txt
'

test_expect_success 'a result file and a result in a subfolder linked out: refused' '
	shadow res "\"results\": [\"junit.xml\"]" &&
	ln -s ../../outside/junit.xml art/res/junit.xml &&
	refused res junit.xml outside/junit.xml &&
	shadow sub "\"results\": [\"reports/junit.xml\"]" &&
	ln -s ../../outside art/sub/reports &&
	refused sub reports/junit.xml outside/junit.xml
'

test_expect_success 'a quarantine list, coverage and an engine answer linked out: refused' '
	shadow qua "\"quarantine\": \"q.txt\", \"selection\": {\"decision\": \"run_all\"}" &&
	ln -s "$top/outside/secret.txt" art/qua/q.txt &&
	refused qua q.txt outside/secret.txt &&
	shadow cov "\"coverage\": [\"cov.info\"], \"selection\": {\"decision\": \"run_all\"}" &&
	ln -s ../../outside/cov.info art/cov/cov.info &&
	refused cov cov.info outside/cov.info &&
	shadow eng "\"selection\": {\"engine_file\": \"answer.json\"}" &&
	ln -s ../../outside/secret.txt art/eng/answer.json &&
	refused eng answer.json outside/secret.txt
'

test_expect_success 'a manifest the folder walk finds that links out: refused, named' '
	rm -rf art && mkdir -p art/a outside/m &&
	write_run outside/m "\"head\": \"$head\", \"kind\": \"full\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"]" &&
	cp outside/junit.xml outside/m/junit.xml &&
	ln -s ../../outside/m/tiadash-run.json art/a/tiadash-run.json &&
	test_expect_code 2 tiadash --db s.db ingest art >out 2>err &&
	echo "tiadash: error: ${SQ}art/a/tiadash-run.json${SQ} leads to ${SQ}$top/outside/m/tiadash-run.json${SQ}, outside ${SQ}$top/art${SQ} (a symbolic link?): refused" >expect &&
	test_cmp expect err &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 0
'

test_expect_success 'an index whose local run links out of its folder: refused, named' '
	mkdir -p idx && ln -s ../outside/m idx/runs &&
	echo "{\"schema\": \"tiadash.index.v1\", \"runs\": [\"runs/tiadash-run.json\"]}" >idx/index.json &&
	test_expect_code 2 tiadash --db s.db ingest idx/index.json >out 2>err &&
	echo "tiadash: error: ${SQ}idx/runs/tiadash-run.json${SQ} leads to ${SQ}$top/outside/m/tiadash-run.json${SQ}, outside ${SQ}$top/idx${SQ} (a symbolic link?): refused" >expect &&
	test_cmp expect err &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 0
'

test_expect_success 'links that stay inside the folder are followed' '
	rm -rf art && shadow in "\"results\": [\"r/junit.xml\"], \"selection\": {\"decision\": \"selected\", \"selected_file\": \"sel.txt\"}" &&
	mkdir -p art/in/lists art/in/reports && echo "tests/a.py" >art/in/lists/sel.txt &&
	ln -s lists/sel.txt art/in/sel.txt && ln -s reports art/in/r &&
	junit art/in/reports/junit.xml tests/a.py::t &&
	mkdir -p art/m && ln -s ../in/tiadash-run.json art/m/link.tiadash.json &&
	tiadash --db s.db --repo repo ingest art >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	test_must_be_empty err &&
	tiadash --db s.db show --format json "$head" >show.json &&
	json_get show.json "d[\"runs\"][0][\"tests\"], d[\"selection\"][\"entries\"]" >actual &&
	echo "(1, [${SQ}tests/a.py${SQ}])" >expect && test_cmp expect actual
'

test_done
