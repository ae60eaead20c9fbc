#!/bin/bash
# Bare files as one run (--kind/--head): what each file is, from its content.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup' '
	git init -q repo && cd repo && mkdir -p src && printf "1\n2\n" >src/m.c &&
	commit_at "2026-10-30T10:00:00Z" init &&
	printf "1\n2\n3\n4\n" >src/m.c && commit_at "2026-10-30T11:00:00Z" grow && cd .. &&
	git -C repo rev-parse HEAD~1 >base && git -C repo rev-parse HEAD >head
'
base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)

test_expect_success 'a shadow run from a JUnit report, a selection list, lcov and a quarantine list' '
	junit j.xml money::adds money::rounds:failed &&
	printf "# selected by the wrapper\nmoney\n" >test-only.txt &&
	printf "SF:/ci/w/src/m.c\nDA:3,1\nDA:4,0\nend_of_record\n" >cov.info &&
	printf "money::flaky_one\n" >quarantine.txt &&
	tiadash --db s.db --repo repo ingest --kind shadow --head HEAD --base HEAD~1 --pr 9 \
		--started-at 2026-11-03T08:00:00Z --wall-clock 61.5 --total-tests 20 \
		j.xml test-only.txt cov.info quarantine.txt >out &&
	test_grep "^1 new run, 0 unchanged$" out &&
	tiadash --db s.db show 9 --format json >s.json &&
	json_get s.json "json.dumps([d[\"head\"], d[\"base\"], d[\"selection\"][\"decision\"],
		d[\"selection\"][\"selected_count\"], d[\"selection\"][\"total_tests\"],
		d[\"runs\"][0][\"verdict\"], d[\"runs\"][0][\"failed\"], d[\"runs\"][0][\"wall_clock_s\"],
		d[\"diff_coverage\"]])" >actual &&
	echo "[\"$head\", \"$base\", \"selected\", 2, 20, \"fail\", [\"money::rounds\"], 61.5, 0.5]" >expect &&
	test_cmp expect actual
'

test_expect_success 'the same files again are the same run' '
	tiadash --db s.db --repo repo ingest --kind shadow --head HEAD --base HEAD~1 --pr 9 \
		--started-at 2026-11-03T08:00:00Z --wall-clock 61.5 --total-tests 20 \
		j.xml test-only.txt cov.info quarantine.txt >out &&
	test_grep "^0 new runs, 1 unchanged$" out
'

test_expect_success 'a full run from .mq-failed-tests.txt and a report' '
	junit full.xml money::adds money::rounds:failed money::flaky_one:failed &&
	printf "money::rounds\n" >.mq-failed-tests.txt &&
	tiadash --db s.db --repo repo ingest --kind full --head "$head" --base "$base" --pr 9 \
		--started-at 2026-11-03T08:10:00Z --verdict fail full.xml .mq-failed-tests.txt >/dev/null &&
	tiadash --db s.db show 9 --format json >s.json &&
	test "$(json_get s.json "json.dumps(d[\"runs\"][1][\"failed\"])")" = "[\"money::rounds\"]" &&
	test "$(json_get s.json "d[\"class\"]")" = agree
'

test_expect_success 'a codebase-memory-mcp answer as the selection' '
	cp "$TEST_SRC/data/cbm/answers/narrowed.json" selection-engine.json &&
	tiadash --db c.db --repo repo ingest --kind shadow --head "$head" --pr 10 --verdict pass \
		--total-tests 10 selection-engine.json >/dev/null &&
	tiadash --db c.db show 10 --format json >c.json &&
	test "$(json_get c.json "d[\"selection\"][\"decision\"]")" = selected &&
	tiadash --db c.db show 10 --format json >c10.json && json_get c10.json "\"\\n\".join(d[\"selection\"][\"entries\"])" >entries &&
	printf "alpha\nbeta:b_one\nbeta:b_two\n" >expect && test_cmp expect entries
'

test_expect_success 'a run_all answer carries its reasons' '
	cp "$TEST_SRC/data/cbm/answers/lane_run_all.json" selection-engine.json &&
	tiadash --db c.db --repo repo ingest --kind shadow --head "$base" --pr 11 --verdict pass \
		--total-tests 10 selection-engine.json >/dev/null &&
	tiadash --db c.db show 11 --format json >c.json &&
	test "$(json_get c.json "json.dumps([d[\"selection\"][\"decision\"], d[\"selection\"][\"reasons\"]])")" = \
		"[\"run_all\", [\"cbm-answer:lane-run_all\"]]"
'

test_expect_success 'bare mode needs --kind and --head; a manifest is refused' '
	test_expect_code 2 tiadash --db x.db ingest --kind shadow j.xml 2>err &&
	test_grep "need both --kind and --head" err &&
	write_run m "\"base\": \"$base\", \"head\": \"$head\", \"kind\": \"full\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\"" &&
	test_expect_code 2 tiadash --db x.db --repo repo ingest --kind full --head "$head" m/tiadash-run.json 2>err &&
	test_grep "a manifest or index: ingest it without --kind/--head" err
'

test_expect_success 'an unknown text file in a full run is refused' '
	echo hello >notes.txt &&
	test_expect_code 2 tiadash --db x.db --repo repo ingest --kind full --head "$head" --verdict pass notes.txt 2>err &&
	test_grep "notes.txt: cannot tell what this is" err
'

test_expect_success 'a ref that does not resolve is an error' '
	test_expect_code 2 tiadash --db x.db --repo repo ingest --kind full --head no-such-branch --verdict pass 2>err &&
	test_grep "unknown revision .no-such-branch." err
'

test_done
