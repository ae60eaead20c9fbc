#!/bin/bash
# gate-check: every criterion with its threshold, value and PASS/FAIL, the
# verdict and the exit status; thresholds from flags; n/a fails unless
# advisory; explained escapes do not count.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
SQ="'"

test_expect_success 'setup: seven days, eight PRs a day, one escape (PR 13)' '
	MREPO_TESTS="tests/a.py tests/b.py" mrepo 56 &&
	for i in $(seq 1 56); do
		day=$(( (i - 1) / 8 + 1 )) &&
		at=$(printf "2026-11-%02dT%02d:00:00Z" "$day" $(( 8 + (i - 1) % 8 ))) &&
		count=$(( 10 + (i % 5) * 10 )) &&
		mrun w/$i-s $i shadow 1 "$at" $((100 + i)) pass "$(sel selected $count 100 tests/a.py)" tests/a.py::t &&
		if [ $i = 13 ]; then
			mrun w/$i-f $i full 1 "$at" $((600 + i)) fail - tests/a.py::t tests/b.py::u:failed
		else
			mrun w/$i-f $i full 1 "$at" $((600 + i)) pass - tests/a.py::t tests/b.py::u
		fi || return 1
	done &&
	tiadash --db w.db --repo repo ingest w >out &&
	echo "112 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'defaults: the last 7 days, NO-GO on the unexplained escape, exit 1' '
	test_expect_code 1 tiadash --db w.db gate-check >actual &&
	# shadow 101..156, full 601..656: p95 at rank 52.25 -> 153.25 and 653.25;
	# 1 of 56: upper 0.0819 (tests/stats_ref.py upper 1 56 0.95), 37 more
	# pairs to 5% (stats_ref.py needed 1 56 0.95 0.05), 8 pairs a day: 5 days
	cat >expect <<-\EOF &&
	gate-check: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos

	criterion                               threshold     value  result
	days with shadow runs                        >= 7         7  PASS
	pairs                                       >= 50        56  PASS
	unexplained escapes                          <= 0         1  FAIL
	escape rate upper bound (95%)           <= 0.0500    0.0819  FAIL
	failing tests resolved                   >= 0.990     1.000  PASS
	affected fraction p50                    <= 0.600     0.300  PASS
	p95 wall-clock saving                     > 0.000     0.765  PASS
	diff coverage p50 (advisory)             >= 0.700       n/a  FAIL (advisory)
	verifier-changed heads (advisory)            <= 0         0  PASS

	NO-GO
	escape rate: 37 more clean pairs (about 5 days at this window'"'"'s rate)
	bring its 95% upper bound to 5.00% (with no escape among them)
	1 of 1 escapes rest on a base no run of main covers: record main'"'"'s post-merge
	  runs (tiadash record, no PR)
	the trade (advisory): the cheap gate saves about 7.8 runner-hours a week and
	  lets through about 1.0 regressions a week (at most 4.6 at 95%)
	EOF
	test_cmp expect actual
'

test_expect_success 'md: the same table and lines, for a flip PR or a chat' '
	test_expect_code 1 tiadash --db w.db gate-check --format md >actual &&
	cat >expect <<-\EOF &&
	## Gate check: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos

	| criterion | threshold | value | result |
	|---|---:|---:|---|
	| days with shadow runs | >= 7 | 7 | PASS |
	| pairs | >= 50 | 56 | PASS |
	| unexplained escapes | <= 0 | 1 | FAIL |
	| escape rate upper bound (95%) | <= 0.0500 | 0.0819 | FAIL |
	| failing tests resolved | >= 0.990 | 1.000 | PASS |
	| affected fraction p50 | <= 0.600 | 0.300 | PASS |
	| p95 wall-clock saving | > 0.000 | 0.765 | PASS |
	| diff coverage p50 (advisory) | >= 0.700 | n/a | FAIL (advisory) |
	| verifier-changed heads (advisory) | <= 0 | 0 | PASS |

	**NO-GO**

	escape rate: 37 more clean pairs (about 5 days at this window'"'"'s rate)

	bring its 95% upper bound to 5.00% (with no escape among them)

	1 of 1 escapes rest on a base no run of main covers: record main'"'"'s post-merge runs (tiadash record, no PR)

	the trade (advisory): the cheap gate saves about 7.8 runner-hours a week and lets through about 1.0 regressions a week (at most 4.6 at 95%)
	EOF
	test_cmp expect actual
'

test_expect_success 'csv: a row per criterion, numbers as json has them, then the verdict' '
	test_expect_code 1 tiadash --db w.db gate-check --format csv >g.csv &&
	cut -d, -f1-3,6,7 g.csv >actual &&
	cat >expect <<-\EOF &&
	criterion,label,op,result,advisory
	shadow_days,days with shadow runs,>=,PASS,false
	pairs,pairs,>=,PASS,false
	unexplained_escapes,unexplained escapes,<=,FAIL,false
	escape_rate_upper,escape rate upper bound (95%),<=,FAIL,false
	identity_resolved,failing tests resolved,>=,PASS,false
	affected_fraction_p50,affected fraction p50,<=,PASS,false
	wall_clock_p95_saving,p95 wall-clock saving,>,PASS,false
	diff_coverage_p50,diff coverage p50,>=,FAIL,true
	verifier_changed,verifier-changed heads,<=,PASS,true
	verdict,verdict,,NO-GO,false
	EOF
	test_cmp expect actual &&
	python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r[\"threshold\"], r[\"value\"]) for r in rows]
want = [(7, 7), (50, 56), (0, 1), (0.05, 0.0819321595293316), (0.99, 1), (0.6, 0.3),
        (0, 0.7654037504783773), (0.7, None), (0, 0), (None, None)]
for (t, v), (wt, wv) in zip(got, want):
    for a, b in ((t, wt), (v, wv)):
        assert (a == \"\") if b is None else abs(float(a) - b) < 1e-12, (a, b)
assert len(got) == len(want)
" g.csv
'

test_expect_success 'colour on a terminal: PASS green, FAIL red, advisory yellow, the verdict bold' '
	esc=$(printf "\033") &&
	TERM=xterm on_tty "$TIADASH_BIN" --db w.db gate-check >tty.txt &&
	test_grep "^pairs                                       >= 50        56  ${esc}\[32mPASS${esc}\[m$" tty.txt &&
	test_grep "^unexplained escapes                          <= 0         1  ${esc}\[31mFAIL${esc}\[m$" tty.txt &&
	test_grep "^diff coverage p50 (advisory)             >= 0.700       n/a  ${esc}\[33mFAIL (advisory)${esc}\[m$" tty.txt &&
	test_grep "^${esc}\[1;31mNO-GO${esc}\[m$" tty.txt &&
	sed "s/${esc}\[[0-9;]*m//g" tty.txt >plain.txt &&
	test_expect_code 1 tiadash --db w.db gate-check >pipe.txt &&
	test_cmp pipe.txt plain.txt
'

test_expect_success 'no colour with NO_COLOR, --color=never, TERM=dumb, or off a terminal; --color=always forces it' '
	esc=$(printf "\033") &&
	TERM=xterm NO_COLOR=1 on_tty "$TIADASH_BIN" --db w.db gate-check >nc.txt &&
	TERM=xterm on_tty "$TIADASH_BIN" --db w.db gate-check --color=never >never.txt &&
	on_tty "$TIADASH_BIN" --db w.db gate-check >dumb.txt &&
	TERM=xterm on_tty "$TIADASH_BIN" --db w.db gate-check --color=auto -o file.txt &&
	test_expect_code 1 tiadash --db w.db gate-check >pipe.txt &&
	for f in nc.txt never.txt dumb.txt file.txt; do
		test_cmp pipe.txt $f || return 1
	done &&
	test_expect_code 1 tiadash --db w.db gate-check --color >always.txt &&
	test_grep "^${esc}\[1;31mNO-GO${esc}\[m$" always.txt &&
	NO_COLOR=1 tiadash --db w.db gate-check --color=always --escape-target 0.5 --max-escapes 1 >go.txt &&
	test_grep "^${esc}\[1;32mGO${esc}\[m$" go.txt &&
	test_expect_code 1 tiadash --db w.db gate-check --format md --color=always >md.txt &&
	! grep -q "$esc" md.txt &&
	test_expect_code 2 tiadash --db w.db gate-check --color=sometimes 2>err &&
	test_grep "^tiadash: error: --color is always, auto or never, not ${SQ}sometimes${SQ}$" err
'

test_expect_success 'json: verdict and criteria' '
	test_expect_code 1 tiadash --db w.db gate-check --format json >g.json &&
	python3 -m json.tool g.json >/dev/null &&
	json_close g.json "d[\"verdict\"]" "\"NO-GO\"" &&
	json_close g.json "[c[\"name\"] for c in d[\"criteria\"]]" \
		"[\"shadow_days\", \"pairs\", \"unexplained_escapes\", \"escape_rate_upper\", \"identity_resolved\", \"affected_fraction_p50\", \"wall_clock_p95_saving\", \"diff_coverage_p50\", \"verifier_changed\"]" &&
	json_close g.json "d[\"criteria\"][3][\"value\"]" 0.0819321595293316 &&
	json_close g.json "[[c[\"threshold\"], c[\"value\"] if c[\"name\"] != \"escape_rate_upper\" else \"bound\", c[\"pass\"], c[\"advisory\"]] for c in d[\"criteria\"]]" \
		"[[7, 7, true, false], [50, 56, true, false], [0, 1, false, false], [0.05, \"bound\", false, false], [0.99, 1, true, false], [0.6, 0.3, true, false], [0, 0.7654037504783773, true, false], [0.7, null, false, true], [0, 0, true, true]]" &&
	json_close g.json "[d[k] for k in (\"pairs_needed\", \"days_needed\", \"confidence\", \"escape_target\")]" "[37, 5, 0.95, 0.05]"
'

test_expect_success 'an explained escape does not count as unexplained, but stays in the rate' '
	sqlite3 w.db "INSERT INTO note (head_id, kind, text, created_at) SELECT id, '"'"'explained'"'"', '"'"'test data fixture'"'"', 0 FROM head WHERE pr = 13" &&
	test_expect_code 1 tiadash --db w.db gate-check >nogo.txt &&
	test_grep "^unexplained escapes                          <= 0         0  PASS$" nogo.txt &&
	test_grep "^escape rate upper bound (95%)           <= 0.0500    0.0819  FAIL$" nogo.txt &&
	test "$(sed -n "/^NO-GO/p" nogo.txt)" = NO-GO &&
	tiadash --db w.db gate-check --escape-target 0.09 >go.txt &&
	test_grep "^escape rate upper bound (95%)           <= 0.0900    0.0819  PASS$" go.txt &&
	test "$(sed -n "/^GO$/p" go.txt)" = GO &&
	tiadash --db w.db gate-check --escape-target 0.09 --format json >go.json &&
	json_close go.json "d[\"verdict\"]" "\"GO\"" &&
	json_close go.json "d[\"pairs_needed\"]" 0
'

test_expect_success '--strict: the advisory diff-coverage criterion counts (n/a fails)' '
	test_expect_code 1 tiadash --db w.db gate-check --strict >s.txt &&
	test_grep "^diff coverage p50                        >= 0.700       n/a  FAIL$" s.txt &&
	test_grep "^NO-GO$" s.txt
'

test_expect_success 'each threshold is a flag' '
	test_expect_code 1 tiadash --db w.db gate-check --min-pairs 57 >t &&
	test_grep "^pairs                                       >= 57        56  FAIL$" t &&
	test_expect_code 1 tiadash --db w.db gate-check --max-affected-p50 0.25 >t &&
	test_grep "^affected fraction p50                    <= 0.250     0.300  FAIL$" t &&
	test_expect_code 1 tiadash --db w.db gate-check --min-days 8 >t &&
	test_grep "^days with shadow runs                        >= 8         7  FAIL$" t &&
	test_expect_code 1 tiadash --db w.db gate-check --min-p95-saving 0.8 >t &&
	test_grep "^p95 wall-clock saving                     > 0.800     0.765  FAIL$" t &&
	tiadash --db w.db gate-check --max-escapes 1 --escape-target 0.09 --min-diff-coverage 0.5 >t &&
	test_grep "^diff coverage p50 (advisory)             >= 0.500       n/a  FAIL (advisory)$" t &&
	test_expect_code 1 tiadash --db w.db gate-check --no-p95-saving >t &&
	! grep -q "p95" t
'

test_expect_success 'the window decides the days: six days is not enough' '
	test_expect_code 1 tiadash --db w.db gate-check --since 2026-11-02 --format json >d.json &&
	json_close d.json "[c[\"value\"] for c in d[\"criteria\"][:2]]" "[6, 48]" &&
	json_close d.json "d[\"window\"][\"since\"]" "\"2026-11-02T00:00:00Z\""
'

test_expect_success 'an empty window: every measured value n/a or 0, NO-GO' '
	test_expect_code 1 tiadash --db w.db gate-check --since 2026-12-01 --until 2026-12-08 --format json >e.json &&
	json_close e.json "[c[\"value\"] for c in d[\"criteria\"]]" "[0, 0, 0, null, null, null, null, null, 0]" &&
	json_close e.json "[c[\"pass\"] for c in d[\"criteria\"]]" "[false, false, true, false, true, false, false, false, true]"
'

test_expect_success 'identity: an unresolved failing test fails the gate, n/a passes' '
	# PR 57: a full run fails a test whose suite key names no file of the tree
	mrepo_add 57 &&
	mrun w2/57-s 57 shadow 1 2026-11-07T20:00:00Z 100 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun w2/57-f 57 full 1 2026-11-07T20:00:00Z 600 fail - tests/gone.py::u:failed &&
	tiadash --db w.db --repo repo ingest w2 >out 2>err &&
	test_grep "1 of 1 failing tests name no path in the tree" err &&
	test_expect_code 1 tiadash --db w.db gate-check --max-escapes 2 >t &&
	test_grep "^failing tests resolved                   >= 0.990     0.500  FAIL$" t &&
	tiadash --db w.db gate-check --max-escapes 2 --escape-target 0.99 --min-identity 0.5 >t &&
	test_grep "^failing tests resolved                   >= 0.500     0.500  PASS$" t &&
	tiadash --db w.db gate-check --since 2026-11-03 --until 2026-11-04 --min-days 1 --min-pairs 1 \
		--escape-target 0.99 >t &&
	test_grep "^failing tests resolved                   >= 0.990       n/a  PASS$" t
'

test_expect_success 'usage and input errors exit 2' '
	test_expect_code 2 tiadash --db w.db gate-check --min-days x 2>err &&
	test_grep "^tiadash: error: --min-days .x.: expected a whole number, 0 or more$" err &&
	test_expect_code 2 tiadash --db w.db gate-check --max-affected-p50 1.5 2>err &&
	test_grep "^tiadash: error: --max-affected-p50 .1.5.: expected a number from 0 to 1$" err &&
	test_expect_code 2 tiadash --db w.db gate-check --min-p95-saving 1 2>err &&
	test_grep "^tiadash: error: --min-p95-saving .1.: expected a number from 0 up to (not including) 1$" err &&
	test_expect_code 2 tiadash --db w.db gate-check --format xml 2>err &&
	test_expect_code 2 tiadash --db w.db gate-check --bogus 2>err &&
	test_expect_code 2 tiadash --db w.db gate-check --confidence 0.8 2>err &&
	test_grep "expected 0.90, 0.95 or 0.99" err &&
	test_expect_code 2 tiadash --db w.db gate-check --escape-target 0 2>err &&
	test_expect_code 2 tiadash --db missing.db gate-check 2>err
'

test_done
