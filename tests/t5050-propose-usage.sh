#!/bin/bash
# propose's command line: help, usage errors (exit 2, before the store is
# touched), and a missing store.
. "$(dirname "$0")/lib.sh"

test_expect_success 'help names every option' '
	tiadash propose --help >out &&
	for o in --since --until --repo --rules --no-builtin-rules --format --limit \
		--preview --accept --explain --note; do
		grep -q -e "$o" out || { echo "no $o" >&2; return 1; }
	done
'

test_expect_success 'usage errors exit 2' '
	tiadash init --db s.db >/dev/null 2>&1 || tiadash --db s.db init >/dev/null &&
	test_expect_code 2 tiadash --db s.db propose --explain 3 2>err &&
	test_grep "go together" err &&
	test_expect_code 2 tiadash --db s.db propose --note x 2>err &&
	test_expect_code 2 tiadash --db s.db propose --explain 3 --note x --accept y 2>err &&
	test_grep "separate runs" err &&
	test_expect_code 2 tiadash --db s.db propose --format csv 2>err &&
	test_grep "unknown format" err &&
	test_expect_code 2 tiadash --db s.db propose --limit -1 2>err &&
	test_expect_code 2 tiadash --db s.db propose --since 2026-11-05 --until 2026-11-01 2>err &&
	test_expect_code 2 tiadash --db s.db propose --bogus 2>err &&
	test_grep "unknown option" err &&
	test_expect_code 2 tiadash --db s.db propose extra 2>err &&
	test_expect_code 2 tiadash --db s.db propose --rules missing.rules 2>err &&
	test_grep "missing.rules" err &&
	test_expect_code 2 tiadash --db s.db propose --preview "a[" 2>err &&
	test_grep "bad glob" err
'

test_expect_success 'an empty store: nothing to propose' '
	tiadash --db s.db propose --format json >p.json &&
	json_get p.json "[d[\"escapes\"], d[\"proposals\"], d[\"history\"][\"changes\"], d[\"history\"][\"p95\"]]" >actual &&
	echo "[0, [], 0, None]" >expect && test_cmp expect actual &&
	tiadash --db s.db propose >out &&
	test_grep "^recommended  nothing to close" out
'

test_expect_success 'no store: an error, none created' '
	test_expect_code 2 tiadash --db none.db propose 2>err &&
	test_grep "no store at" err &&
	! test -e none.db
'

test_done
