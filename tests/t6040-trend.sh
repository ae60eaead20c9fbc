#!/bin/bash
# The trend: the window's escape rate against the window of the same length
# before it, by the exact conditional (Fisher) test; rising or falling only
# at p < 0.05. The p-values are tests/stats_ref.py's, exact integer sums.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/tui/lib.sh"

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup: 10 of 100 the week before, 2 of 100 this week' '
	gen_pairs prev 1 100 10 2026-10-25 7 &&
	gen_pairs cur 101 100 2 2026-11-01 7 &&
	tiadash --db down.db ingest prev cur >/dev/null 2>&1 &&
	gen_pairs prev2 1 100 2 2026-10-25 7 &&
	gen_pairs cur2 101 100 10 2026-11-01 7 &&
	tiadash --db up.db ingest prev2 cur2 >/dev/null 2>&1 &&
	gen_pairs prev3 1 214 3 2026-10-25 7 &&
	gen_pairs cur3 301 214 9 2026-11-01 7 &&
	tiadash --db flat.db ingest prev3 cur3 >/dev/null 2>&1
'

test_expect_success 'falling: 2 of 100 against 10 of 100, p = 0.0330' '
	test "$(ref fisher 2 100 10 100)" = 0.033040109324185 &&
	tiadash --db down.db summary $W --format json >d.json &&
	json_close d.json "d[\"trend\"][\"p_value\"]" 0.033040109324185 &&
	json_close d.json "[d[\"trend\"][k] for k in (\"previous_rate\", \"rate\", \"direction\")]" "[0.1, 0.02, \"falling\"]" &&
	json_close d.json "[d[\"trend\"][\"previous\"][k] for k in (\"pairs\", \"escapes\")]" "[100, 10]" &&
	tiadash --db down.db summary $W >d.txt &&
	test_grep "^Previous 7 days: 10.00% (10 escapes in 100 pairs): down 8.00 points$" d.txt &&
	test_grep "^Trend: falling (p = 0.033)$" d.txt
'

test_expect_success 'rising: the same counts the other way round' '
	tiadash --db up.db summary $W --format json >u.json &&
	json_close u.json "[d[\"trend\"][k] for k in (\"previous_rate\", \"rate\", \"direction\")]" "[0.02, 0.1, \"rising\"]" &&
	json_close u.json "d[\"trend\"][\"p_value\"]" "$(ref fisher 10 100 2 100)"
'

test_expect_success 'flat: 9 of 214 against 3 of 214 is not enough (p = 0.14)' '
	tiadash --db flat.db summary $W --format json >f.json &&
	json_close f.json "d[\"trend\"][\"p_value\"]" "$(ref fisher 9 214 3 214)" &&
	json_close f.json "d[\"trend\"][\"direction\"]" "\"flat\"" &&
	tiadash --db flat.db report $W --format json >r.json &&
	json_close r.json "d[\"trend\"][\"direction\"]" "\"flat\"" &&
	tiadash --db flat.db report $W >r.txt &&
	test_grep "^Trend        previous window 1.40% (3 of 214): flat (p = 0.14)$" r.txt
'

test_expect_success 'an open-ended window ends now; no start, no trend' '
	tiadash --db down.db report --since 2026-11-01 --format json >o.json &&
	json_close o.json "[d[\"trend\"][\"previous\"][k] for k in (\"since\", \"until\")]" "[\"2026-10-25T00:00:00Z\", \"2026-11-01T00:00:00Z\"]" &&
	json_close o.json "d[\"trend\"][\"direction\"]" "\"falling\"" &&
	tiadash --db down.db report --format json >n.json &&
	json_close n.json "d[\"trend\"][\"direction\"]" null &&
	tiadash --db down.db summary $W --format csv >d.csv &&
	python3 -c "import csv,sys; r=next(csv.DictReader(open(sys.argv[1]))); assert r[\"direction\"] == \"falling\" and abs(float(r[\"p_value\"]) - 0.033040109324185) < 1e-12, r" d.csv
'

test_expect_success 'the dashboard shows the trend' '
	steps ":save-view v" &&
	git init -q empty-repo &&
	TUI_DB=down.db TUI_REPO=empty-repo tui --since 2026-11-01 &&
	test_grep "^Trend previous window 10.00%: falling (p = 0.033)$" v &&
	test_grep "^Confidence 95%: upper " v
'

test_done
