#!/bin/bash
# Real-size reports through ingest, show, report and status, with exact
# figures: thousands of test files, tens of thousands of cases, many
# distinct classnames and files. The memory passes (make SANITIZE=1 check,
# with GROW_STRESS=1 in CI) run this file too; before the fix of test
# identity's answers (core/identity.c), a case whose names grew the answers
# read freed memory.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-large.sh"

test_expect_success 'pytest report, 200 cases of distinct files not in the tree (the review reproduction)' '
	git init -q small &&
	git -C small commit -q --allow-empty -m empty &&
	review_report small/junit.xml &&
	(cd small && tiadash ingest --kind full --head HEAD junit.xml) >out 2>err &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 small/.tiadash/tiadash.db \
		"SELECT s.text || \"::\" || c.text FROM result r JOIN name s ON s.id = r.suite_id
		 JOIN name c ON c.id = r.case_id" | sort >actual &&
	for i in $(seq 0 199); do echo "tests/test_$i.py::t"; done | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'setup: 3000 test files, a 31000-case full run, a shadow run of one package' '
	large_setup &&
	tiadash --db l.db --repo big ingest large >out &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'show: the 29 failures under their files and classes, all missed' '
	tiadash --db l.db show 1 --format json >show.json &&
	test "$(json_get show.json "d[\"class\"]")" = escape &&
	json_get show.json "\"\".join(x + \"\n\" for x in d[\"missed\"])" | sed "\$d" >missed &&
	test_cmp large.failed missed &&
	json_get show.json "\"\".join(x + \"\n\" for r in d[\"runs\"] if r[\"kind\"] == \"full\" for x in r[\"failed\"])" |
		sed "\$d" >failed &&
	test_cmp large.failed failed
'

test_expect_success 'report: one pair, one escape, affected 1000/31000' '
	tiadash --db l.db report --format json >r.json &&
	test "$(json_get r.json "d[\"pairs\"]")" = 1 &&
	test "$(json_get r.json "d[\"escapes\"][\"count\"]")" = 1 &&
	test "$(json_get r.json "d[\"escapes\"][\"prs\"]")" = "[1]" &&
	test "$(json_get r.json "round(d[\"affected_fraction\"][\"p50\"] * 31000)")" = 1000
'

test_expect_success 'status: every failing test resolved to its file' '
	tiadash --db l.db status --format json >s.json &&
	test "$(json_get s.json "\"%d/%d\" % (d[\"identity\"][\"resolved\"], d[\"identity\"][\"failing_tests\"])")" = 29/29
'

test_done
