#!/bin/bash
# The attempt of a record: given, the CI's retry counter, else one more than
# the records of the same head and kind already in the folder of runs.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup' '
	make_repo repo && git -C repo rev-parse HEAD >head
'
head=$(cat head 2>/dev/null)

test_expect_success 'the first shadow run of a head is attempt 1' '
	cd repo &&
	test_expect_code 1 tiadash record --kind shadow --pr 4 --results "reports/*.xml" \
		-- "$JOB" fail </dev/null >/dev/null 2>&1 &&
	test "$(mf .tiadash/runs/shadow-$head-1/tiadash-run.json "d[\"attempt\"]")" = 1
'

test_expect_success 'a second run of the same head and kind is attempt 2' '
	cd repo &&
	tiadash record --kind shadow --pr 4 --results "reports/*.xml" -- "$JOB" pass </dev/null >/dev/null 2>&1 &&
	test "$(mf .tiadash/runs/shadow-$head-2/tiadash-run.json "d[\"attempt\"]")" = 2
'

test_expect_success 'another kind counts on its own' '
	cd repo &&
	tiadash record --kind full --pr 4 --results "reports/*.xml" -- "$JOB" pass </dev/null >/dev/null 2>&1 &&
	test "$(mf .tiadash/runs/full-$head-1/tiadash-run.json "d[\"attempt\"]")" = 1 &&
	ls .tiadash/runs >actual &&
	printf "full-$head-1\nshadow-$head-1\nshadow-$head-2\n" >expect && test_cmp expect actual
'

test_expect_success 'both shadow attempts land in the store; the latest decides' '
	tiadash --db s.db --repo repo ingest repo/.tiadash/runs >out &&
	echo "3 new runs, 0 unchanged" >expect && test_cmp expect out &&
	tiadash --db s.db show 4 --format json >s.json &&
	json_get s.json "json.dumps([[r[\"kind\"], r[\"attempt\"], r[\"verdict\"]] for r in d[\"runs\"]])" >actual &&
	echo "[[\"shadow\", 1, \"fail\"], [\"shadow\", 2, \"pass\"], [\"full\", 1, \"pass\"]]" >expect &&
	test_cmp expect actual &&
	test "$(json_get s.json "d[\"class\"]")" = agree
'

test_expect_success 'the count reads the records, not the folder names' '
	cd repo && mv .tiadash/runs/shadow-$head-2 .tiadash/runs/renamed &&
	tiadash record --kind shadow -- true </dev/null &&
	test "$(mf .tiadash/runs/shadow-$head-3/tiadash-run.json "d[\"attempt\"]")" = 3
'

test_expect_success 'a folder in the way is skipped, not overwritten' '
	cd repo && mkdir .tiadash/runs/shadow-$head-4 &&
	tiadash record --kind shadow -- true </dev/null &&
	test "$(mf .tiadash/runs/shadow-$head-5/tiadash-run.json "d[\"attempt\"]")" = 5 &&
	! test -e .tiadash/runs/shadow-$head-4/tiadash-run.json
'

test_expect_success 'the CI'"'"'s retry counter wins over counting' '
	cd repo &&
	GITHUB_ACTIONS=true GITHUB_RUN_ATTEMPT=9 tiadash record --kind shadow -- true </dev/null &&
	test "$(mf .tiadash/runs/shadow-$head-9/tiadash-run.json "d[\"attempt\"]")" = 9
'

test_expect_success 'an attempt given (or the CI'"'"'s) that is recorded already fails the recording' '
	cd repo &&
	test_expect_code 0 tiadash record --kind shadow --attempt 9 -- true </dev/null 2>err &&
	test_grep "^tiadash: error: .*/shadow-$head-9. exists: attempt 9 of this head and kind is recorded already$" err &&
	test_grep "^tiadash: record: no run recorded" err
'

test_expect_success 'with --out, the records beside it count' '
	mkdir -p runs &&
	tiadash --repo repo record --kind full --out runs/a -- true </dev/null &&
	tiadash --repo repo record --kind full --out runs/b -- true </dev/null &&
	tiadash --repo repo record --kind shadow --out runs/c -- true </dev/null &&
	tiadash --repo repo record --kind full --out runs/d/ -- true </dev/null &&
	echo "1 2 1 3" >expect &&
	echo $(mf runs/a/tiadash-run.json "d[\"attempt\"]") $(mf runs/b/tiadash-run.json "d[\"attempt\"]") \
		$(mf runs/c/tiadash-run.json "d[\"attempt\"]") $(mf runs/d/tiadash-run.json "d[\"attempt\"]") >actual &&
	test_cmp expect actual
'

test_done
