#!/usr/bin/env bash
# tiadash seed on a small real Python project under Debian's pytest (the
# ledger of tests/lib-seed.sh: a TOML registry lookup, a module with no
# test, a mutant that never ends, one that breaks the import): every mutant
# lands in the class computed by hand, the table's counts, rates and exact
# intervals follow, the escapes name the tests that caught them and the
# rules that would have, and report, gate-check and the dashboard show the
# same figures; --seed reproduces the choices; the user's tree is untouched.
# tests/run: waits (the mutant that never ends runs to the default timeout)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"
. "$TEST_SRC/tui/lib.sh"
need_pytest

TEST_CMD="$PY -m pytest -q -p no:cacheprovider -o junit_family=xunit1 --junitxml=\"\$TIADASH_JUNIT\""

test_expect_success 'setup: the ledger, its history, an import-graph selector' '
	ledger_project repo && static_selector select.py &&
	echo ledger/money.py | (cd repo && $PY ../select.py) >map &&
	echo tests/test_money.py >expect && test_cmp expect map &&
	echo ledger/registry.py | (cd repo && $PY ../select.py) >map &&
	echo tests/test_export.py >expect && test_cmp expect map &&
	tree_sums repo before.sums
'

# By hand. PR 1 (money.py; the selector runs test_money): export.py,
# registry.py, untested.py and loop.py are outside (their tests are not the
# subset's). export.py's mutant passes test_money and fails test_export's
# exact width: full. registry.py's breaks the import (pytest exit 2):
# invalid. untested.py's: none. loop.py's never ends: full, timed out.
# PR 2 (export.py, loop.py; the subset is test_export and test_loop):
# money.py is outside by the map (test_export reaches it only through the
# TOML registry), and test_export's padded row (amount 0) catches its
# mutant: subset. registry.py is reached (export.py imports it): not
# mutated. untested.py: none. PR 3 (pyproject.toml) runs everything, by the
# team's rule (the built-ins are suggestions and never narrow an experiment).
test_expect_success 'every mutant lands where the hand classification says' '
	echo "**/pyproject.toml" >team.rules &&
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 3 --mutants 3 \
		--selector "$PY $TRASH/select.py" --rules team.rules --test "$TEST_CMD" --seed 5 \
		--format json >seed.json 2>err &&
	test_must_be_empty err &&
	mutants_of seed.json >actual &&
	cat >expect <<-\EOF &&
	1 ledger/export.py cmp-flip full tests/test_export.py::test_exact_width
	1 ledger/loop.py off-by-one full timeout
	1 ledger/registry.py eq-flip invalid
	1 ledger/untested.py cmp-flip none
	2 ledger/money.py cmp-flip subset tests/test_export.py::test_padded
	2 ledger/untested.py cmp-flip none
	EOF
	test_cmp expect actual &&
	json_get seed.json "sorted((c[\"pr\"], c[\"decision\"], c[\"selected\"], c[\"outside\"], c[\"reached\"], c[\"mutants\"], c[\"invalid\"], c[\"skipped\"]) for c in d[\"changes\"])" >actual &&
	echo "[(1, '"'"'selected'"'"', 1, 5, 0, 3, 1, None), (2, '"'"'selected'"'"', 2, 4, 1, 2, 0, None), (3, '"'"'run_all'"'"', None, 0, 0, 0, 0, '"'"'force-full:**/pyproject.toml: no file is outside the impact set'"'"')]" >expect &&
	test_cmp expect actual
'

test_expect_success 'the table: counts, rates and exact Clopper-Pearson intervals' '
	json_get seed.json "[(k, v[\"count\"], v[\"rate\"]) for k, v in d[\"classes\"].items()]" >actual &&
	echo "[('"'"'subset'"'"', 1, 0.2), ('"'"'full'"'"', 2, 0.4), ('"'"'none'"'"', 2, 0.4)]" >expect &&
	test_cmp expect actual &&
	json_get seed.json "[d[\"mutants\"], d[\"invalid\"], d[\"timeouts\"], d[\"changes_mutated\"], d[\"seeded_escape_rate\"]]" >actual &&
	echo "[5, 1, 1, 2, 0.4]" >expect && test_cmp expect actual &&
	python3 "$TOP/tests/stats_ref.py" interval 1 5 0.95 >ref1 &&
	python3 "$TOP/tests/stats_ref.py" interval 2 5 0.95 >ref2 &&
	json_get seed.json "\"%.12g %.12g\" % tuple(d[\"classes\"][\"subset\"][\"interval\"])" >got1 &&
	json_get seed.json "\"%.12g %.12g\" % tuple(d[\"classes\"][\"full\"][\"interval\"])" >got2 &&
	python3 -c "import sys; print(\" \".join(\"%.12g\" % float(x) for x in open(sys.argv[1]).read().split()))" ref1 >want1 &&
	python3 -c "import sys; print(\" \".join(\"%.12g\" % float(x) for x in open(sys.argv[1]).read().split()))" ref2 >want2 &&
	test_cmp want1 got1 && test_cmp want2 got2 &&
	# the same experiment at 99%, as report --confidence 0.99 shows it
	tiadash --repo repo seed --show --confidence 0.99 --format json >seed99.json &&
	python3 "$TOP/tests/stats_ref.py" interval 2 5 0.99 >ref99 &&
	json_get seed99.json "\"%.12g %.12g\" % tuple(d[\"classes\"][\"full\"][\"interval\"])" >got99 &&
	python3 -c "import sys; print(\" \".join(\"%.12g\" % float(x) for x in open(sys.argv[1]).read().split()))" ref99 >want99 &&
	test_cmp want99 got99 &&
	tiadash --repo repo report --since 7d --confidence 0.99 --format json >report99.json &&
	json_get report99.json "d[\"seeded\"][\"classes\"] == json.load(open(\"seed99.json\"))[\"classes\"]" >actual &&
	echo True >expect && test_cmp expect actual
'

test_expect_success 'the escapes: what would have caught them, measured on the window' '
	json_get seed.json "[s[\"rule\"] + \" / %d %d\" % (s[\"closes\"], s[\"changes\"]) for s in d[\"candidates\"][\"select\"]]" >actual &&
	echo "['"'"'select ledger/export.py tests/test_export.py::test_exact_width / 1 1'"'"']" >expect &&
	test_cmp expect actual &&
	json_get seed.json "\"\\n\".join(\"%s %s %d %d%s\" % (g[\"glob\"], g[\"form\"], g[\"closes\"], g[\"forced\"], \" *\" if g[\"recommended\"] else \"\") for g in d[\"candidates\"][\"globs\"])" >actual &&
	cat >expect <<-\EOF &&
	ledger/**/*.py dir-ext 2 2
	ledger/** dir 2 2
	**/*.py ext 2 2
	ledger/export.py file 1 1 *
	ledger/loop.py file 1 1 *
	**/export.py name 1 1
	**/loop.py name 1 1
	EOF
	test_cmp expect actual
'

test_expect_success 'the text output: the table, the escapes, the uncaught by file' '
	tiadash --repo repo seed --show >seed.txt &&
	sed -n "/^ *count/,/^caught by no test/p" seed.txt >actual &&
	cat >expect <<-\EOF &&
	                               count  rate [95% interval]
	caught by the subset anyway        1  20.0% [0.5%, 71.6%]
	caught only by the full suite      2  40.0% [5.3%, 85.3%]
	caught by no test                  2  40.0% [5.3%, 85.3%]
	EOF
	test_cmp expect actual &&
	test_grep "^Seeded       5 mutants outside 2 impact sets (1 invalid; seed 5, done)$" seed.txt &&
	test_grep "^  ledger/export.py:7  cmp-flip  change [0-9a-f]\{12\} (#1)$" seed.txt &&
	test_grep "^    - if len(text) > width:$" seed.txt &&
	test_grep "^    + if len(text) >= width:$" seed.txt &&
	test_grep "^    caught by  tests/test_export.py::test_exact_width$" seed.txt &&
	test_grep "^  ledger/loop.py:9  off-by-one  change [0-9a-f]\{12\} (#1)  (timed out)$" seed.txt &&
	sed -n "/^Caught by no test, by file/,/^$/p" seed.txt | head -10 | sed "s/[0-9a-f]\{12\} (#/SHA (#/" >actual &&
	cat >expect <<-\EOF &&
	Caught by no test, by file (equivalent mutants, which no test can catch, too)
	  ledger/untested.py  2
	    :5  cmp-flip  SHA (#1)
	      - return amount > 1000
	      + return amount >= 1000
	      executed by the full suite: unknown (no coverage)
	    :5  cmp-flip  SHA (#2)
	      - return amount > 1000
	      + return amount >= 1000
	      executed by the full suite: unknown (no coverage)
	EOF
	test_cmp expect actual &&
	sed -n "/^Invalid (replaced)/,\$p" seed.txt | tr -s " \n" "  " >invalid &&
	test_grep "^Invalid (replaced) ledger/registry.py:8 eq-flip the full suite did not load it: exit status 2: .*ImportError: no formatters registered $" invalid &&
	awk "length > 80" seed.txt >wide && test_must_be_empty wide &&
	tiadash --repo repo seed --show --format csv >seed.csv &&
	test "$(wc -l <seed.csv)" = 7 &&
	test_grep "^[0-9a-f]\{40\},1,ledger/export.py,7,18,cmp-flip,if len(text) > width:,if len(text) >= width:,full,no,tests/test_export.py::test_exact_width,," seed.csv
'

test_expect_success 'report, gate-check and the dashboard show the same figures' '
	tiadash --repo repo report --since 7d --format json >report.json &&
	json_get report.json "d[\"seeded\"][\"classes\"] == json.load(open(\"seed.json\"))[\"classes\"] and d[\"seeded\"][\"seeded_escape_rate\"]" >actual &&
	echo 0.4 >expect && test_cmp expect actual &&
	json_get report.json "sorted((e[\"path\"], e[\"caught_by\"]) for e in d[\"seeded\"][\"escapes\"])" >actual &&
	echo "[('"'"'ledger/export.py'"'"', ['"'"'tests/test_export.py::test_exact_width'"'"']), ('"'"'ledger/loop.py'"'"', [])]" >expect &&
	test_cmp expect actual &&
	tiadash --repo repo report --since 7d >report.txt &&
	test_grep "^Seeded       5 mutants outside 2 impact sets (1 invalid; seed 5, done)$" report.txt &&
	test_grep "^               caught only by the full suite      2  40.0% \[5.3%, 85.3%\]$" report.txt &&
	test_expect_code 1 tiadash --repo repo gate-check --since 7d --until 2026-11-09 --format json >gate.json &&
	json_get gate.json "[c for c in d[\"criteria\"] if c[\"name\"] == \"seeded_escape_rate\"][0]" >actual &&
	json_get gate.json "{\"advisory\": True, \"label\": \"seeded escape rate\", \"name\": \"seeded_escape_rate\", \"op\": \"<=\", \"pass\": False, \"threshold\": 0.2, \"value\": 0.4} == [c for c in d[\"criteria\"] if c[\"name\"] == \"seeded_escape_rate\"][0]" >same &&
	echo True >expect && test_cmp expect same &&
	test_expect_code 1 tiadash --repo repo gate-check --since 7d --until 2026-11-09 --max-seeded-escape-rate 0.5 >gate.txt &&
	test_grep "^seeded escape rate (advisory) *<= 0.500 *0.400  PASS$" gate.txt &&
	steps ":resize 120x40" ":save-display overview.screen" &&
	TUI_DB=repo/.tiadash/tiadash.db TUI_REPO=repo tui --since 7d &&
	test_grep "^Seeded      5 mutants: subset 1, full 2, none 2; escape 40.0% \[5.3%, 85.3%\]$" overview.screen &&
	test_grep "^            seeded escape rate (advisory)       <= 0.200     0.400 FAIL$" overview.screen
'

test_expect_success 'the same --seed makes the same choices; rules that force a full run are never mutated' '
	# PR 4 changes the README: the selector runs nothing, so every file is
	# outside, and the seed picks two of them (loop.py is force-full here).
	# A tracked link to a file outside the repository is never written.
	printf "def f(a, b):\n    return a < b\n" >outside.py && sha1sum outside.py >outside.sum &&
	(cd repo && ln -s "$TRASH/outside.py" ledger/outside.py &&
	 commit_at 2026-11-02T10:00:00Z "ledger: a link out" &&
	 pr 4 2026-11-03T00:00:00Z README.md "# ledger") &&
	echo ledger/loop.py >rules &&
	for run in 1 2; do
		tiadash --repo repo seed --since 2026-11-02T12:00:00Z --changes 1 --mutants 2 \
			--selector "$PY $TRASH/select.py" --rules rules --test "$TEST_CMD" \
			--seed 11 --format json >again$run.json || return 1
	done &&
	mutants_of again1.json >first && mutants_of again2.json >second &&
	test_cmp first second &&
	json_get again1.json "[m[\"line\"] for m in d[\"list\"]] == [m[\"line\"] for m in json.load(open(\"again2.json\"))[\"list\"]]" >same &&
	echo True >expect && test_cmp expect same &&
	json_get again1.json "(d[\"mutants\"], d[\"changes\"][0][\"decision\"], d[\"changes\"][0][\"outside\"])" >actual &&
	echo "(2, '"'"'nothing'"'"', 5)" >expect && test_cmp expect actual &&
	! grep -q "loop.py\|outside.py" first && sha1sum -c --quiet outside.sum &&
	# every choice lands as the hand classification says (the subset is empty)
	while read -r pr path op verdict rest; do
		case "$path $op" in
		"ledger/money.py cmp-flip"|"ledger/export.py cmp-flip") want=full ;;
		"ledger/untested.py cmp-flip") want=none ;;
		"ledger/registry.py eq-flip") want=invalid ;;
		*) want=unexpected ;;
		esac
		test "$verdict" = "$want" || { echo "$path $op: $verdict, not $want"; return 1; }
	done <first
'

test_expect_success 'the working tree is untouched, and no worktree or file is left' '
	tree_sums repo after.sums &&
	sed "/README.md\|outside.py/d" before.sums >before.cmp &&
	sed "/README.md\|outside.py/d" after.sums >after.cmp &&
	test_cmp before.cmp after.cmp &&
	test "$(git -C repo worktree list | wc -l)" = 1 &&
	! test -e repo/.tiadash/worktrees && ! test -e repo/.tiadash/seed
'

test_done
