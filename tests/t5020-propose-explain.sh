#!/bin/bash
# propose --explain PR --note TEXT: the escape gets an explained note in the
# store; propose leaves it out, report and gate-check count it explained.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-propose.sh"

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup' '
	phistory
'

test_expect_success 'explain stores the note' '
	tiadash --db s.db --repo repo propose --explain 2 \
		--note "registry reloaded by hand; fixed in PR 3" >out &&
	printf "%s\n  PR 3\n" "explained PR 2 (head $(head_of 2 | cut -c1-12), note 1): registry reloaded by hand; fixed in" >expect &&
	test_cmp expect out &&
	sqlite3 s.db "SELECT n.kind, n.text, h.pr, n.created_at FROM note n JOIN head h ON h.id = n.head_id" >actual &&
	echo "explained|registry reloaded by hand; fixed in PR 3|2|1794096000000" >expect &&
	test_cmp expect actual
'

test_expect_success 'propose leaves the explained escape out' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --format json >p.json &&
	json_close p.json "[d[\"escapes\"], d[\"explained\"], d[\"closable\"]]" "[3, 1, 2]" &&
	json_close p.json "[e[\"pr\"] for e in d[\"evidence\"]]" "[1, 3, 4]" &&
	json_close p.json "[[p[\"closes\"], p[\"closes_other\"]] for p in d[\"proposals\"] if p[\"glob\"] == \"config/registry.toml\"]" \
		"[[[1], 2]]"
'

test_expect_success 'report counts it explained, with its note' '
	tiadash --db s.db report $W --format json >r.json &&
	json_close r.json "[d[\"escapes\"][\"count\"], d[\"escapes\"][\"explained\"], d[\"escapes\"][\"unexplained\"]]" "[4, 1, 3]" &&
	json_close r.json "[[e[\"pr\"], e[\"explained\"], e[\"note\"]] for e in d[\"escapes\"][\"list\"]]" \
		"[[1, false, null], [2, true, \"registry reloaded by hand; fixed in PR 3\"], [3, false, null], [4, false, null]]"
'

test_expect_success 'show says why, with the date (hostile text escaped)' '
	tiadash --db s.db --repo repo show 2 >show.txt &&
	sed -n 3p show.txt >actual &&
	echo "explained   registry reloaded by hand; fixed in PR 3 (2026-11-08)" >expect &&
	test_cmp expect actual &&
	tiadash --db s.db --repo repo show 2 --format json >show.json &&
	json_close show.json "[d[\"explained\"], d[\"note\"]]" "[true, \"registry reloaded by hand; fixed in PR 3\"]" &&
	tiadash --db s.db --repo repo show 1 --format json >show1.json &&
	json_close show1.json "[d[\"explained\"], d[\"note\"]]" "[false, null]" &&
	tiadash --db s.db propose --explain 4 --note "$(printf "DNS\033[2J flake")" >/dev/null &&
	tiadash --db s.db --repo repo show 4 >show4.txt &&
	sed -n 3p show4.txt >actual &&
	echo "explained   DNS\\x1b[2J flake (2026-11-08)" >expect &&
	test_cmp expect actual
'

test_expect_success 'json output of explain' '
	tiadash --db s.db propose --explain 3 --note "fixture regenerated" --format json >e.json &&
	json_close e.json "d" "{\"pr\": 3, \"head\": \"$(head_of 3)\", \"note\": 3, \"text\": \"fixture regenerated\"}"
'

test_expect_success 'only escapes are explained' '
	test_expect_code 2 tiadash --db s.db propose --explain 5 --note x 2>err &&
	test_grep "is not an escape (its class is agree)" err &&
	test_expect_code 2 tiadash --db s.db propose --explain 99 --note x 2>err &&
	test_grep "no pair for .99." err &&
	test_expect_code 2 tiadash --db s.db propose --explain 1 --note "  " 2>err &&
	test_grep "needs some text" err &&
	sqlite3 s.db "SELECT count(*) FROM note" >actual &&
	echo 3 >expect && test_cmp expect actual
'

test_done
