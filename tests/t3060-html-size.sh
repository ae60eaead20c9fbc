#!/bin/bash
# The pages of a big window stay small: the charts aggregate (a bin per
# range, a point per day) and the long tables show their first rows and
# say how many more. 10^4 generated pairs here; make bench measures 10^5.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-html.sh"

test_expect_success 'setup: 10^4 generated pairs, their pages and JSON' '
	tiadash --db big.db init >/dev/null &&
	python3 "$TEST_SRC/bench/gen_report.py" big.db 10000 &&
	tiadash --db big.db report --format json >report.json &&
	tiadash --db big.db report --format html -o report.html &&
	test_expect_code 1 tiadash --db big.db gate-check --format html -o gate.html &&
	tiadash --db big.db summary --until 2026-11-08 --format html -o summary.html
'

test_expect_success 'each page is self-contained and under 2 MB' '
	for p in report gate summary; do
		html_self_contained $p.html &&
		test "$(wc -c <$p.html)" -lt 2097152 || { echo "$p.html: $(wc -c <$p.html) bytes"; return 1; }
	done
'

test_expect_success 'the escapes table shows 50 and says how many more' '
	escapes=$(json_get report.json "len(d[\"escapes\"][\"list\"])") &&
	test "$escapes" -gt 50 &&
	test_grep "and $((escapes - 50)) more escapes (tiadash report lists them all)" report.html &&
	test "$(grep -c "data-key=\"escapes.list.[0-9]*.pr\"" report.html)" = 50
'

test_expect_success 'the histograms count every run, in bins' '
	runs=$(json_get report.json "d[\"affected_fraction\"][\"runs\"]") &&
	python3 - report.html "$runs" <<-\PY
	import re, sys
	page, runs = open(sys.argv[1]).read(), int(sys.argv[2])
	chart = page[page.index("<svg id=\"chart-affected\""):]
	chart = chart[:chart.index("</svg>")]
	counts = [int(n) for n in re.findall(r"<title>all shadow runs \(\d+\): (\d+) in ", chart)]
	assert len(counts) <= 20 and sum(counts) == runs, (len(counts), sum(counts), runs)
	PY
'

test_done
