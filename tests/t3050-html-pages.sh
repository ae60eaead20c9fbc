#!/bin/bash
# --format html of report, gate-check, summary, propose and replay on the
# sample week, rendered by headless Chromium: the DOM holds the figures of
# --format json (PRs, counts, rates; n/a where JSON has null), a 1280x800
# screenshot shows text and charts, nothing refers outside the file, and
# printed to A4 the gate-check page is one sheet and the report two.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-html.sh"

need_sample_week

# keys JSON EXPR: "--require"-able keys, one per line, from a Python
# expression over the JSON d (a list of key strings).
keys() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(eval(sys.argv[2])))' "$1" "$2"
}

test_expect_success 'setup: the week, its JSON and its pages' '
	sample_week week.db &&
	w="--since 2026-11-01 --until 2026-11-08" &&
	tiadash --db week.db report $w --format json >report.json &&
	tiadash --db week.db report $w --format html -o report.html &&
	tiadash --db week.db report --since 2026-10-25 --until 2026-11-01 --format json >previous.json &&
	{ tiadash --db week.db gate-check $w --format json >gate.json; test $? = 1; } &&
	{ tiadash --db week.db gate-check $w --format html -o gate.html; test $? = 1; } &&
	tiadash --db week.db summary $w --format html -o summary.html &&
	tiadash --db week.db --repo "$SAMPLE/repo" propose $w --format json >propose.json &&
	tiadash --db week.db --repo "$SAMPLE/repo" propose $w --format html -o propose.html &&
	tiadash --db week.db --repo "$SAMPLE/repo" replay $w --what-if "tests/fixtures/**" \
		--format json >replay.json &&
	tiadash --db week.db --repo "$SAMPLE/repo" replay $w --what-if "tests/fixtures/**" \
		--format html -o replay.html
'

pages="report gate summary propose replay"

test_expect_success 'each page is one self-contained HTML5 file, a week under 300 KB' '
	for p in $pages; do
		head -1 $p.html | grep -qx "<!DOCTYPE html>" &&
		html_self_contained $p.html &&
		test "$(wc -c <$p.html)" -lt 307200 ||
			{ echo "$p.html: $(wc -c <$p.html) bytes"; return 1; }
	done
'

test_expect_success 'the pages carry no control character, and no script' '
	for p in $pages; do
		no_control $p.html && ! grep -qi "<script" $p.html || { echo "$p.html"; return 1; }
	done
'

test_expect_success 'an empty window: n/a where JSON has null, 0 where it has 0, no chart drawn' '
	tiadash --db week.db report --since 2030-01-01 --format json >empty.json &&
	tiadash --db week.db report --since 2030-01-01 --format html -o empty.html &&
	html_figures empty.html empty.json --require pairs escapes.rate affected_fraction.p50 \
		wall_clock_s.saving.p95 diff_coverage.p50 force_full.rate &&
	test "$(grep -c "no values in this window" empty.html)" = 5 &&
	html_self_contained empty.html
'

html_need_browser

# One Chromium run renders every page, and prints the gate-check page and
# the report to A4, for the last case.
test_expect_success 'Chromium renders each page, and its DOM refers to nothing outside it' '
	html_renders "gate report" $(for p in $pages; do echo $p.html; done) &&
	for p in $pages; do
		html_self_contained $p.dom || { echo "$p"; return 1; }
	done
'

test_expect_success 'report: the DOM holds the figures of report --format json' '
	html_figures report.dom report.json --require pairs heads shadow_runs full_runs \
		escapes.count escapes.rate escapes.explained force_full.count force_full.rate \
		affected_fraction.p50 affected_fraction.narrowed_p50 wall_clock_s.shadow.p95 \
		wall_clock_s.full.p95 wall_clock_s.saving.p95 diff_coverage.p50 \
		diff_coverage.below_threshold shadow_days \
		escapes.rate_upper escapes.target escapes.pairs_needed trend.p_value \
		over_strict.rate_upper blind_spots.never_selected blind_spots.new.count \
		verifier_changed.count \
		$(keys report.json "[\"escapes.list.%d.pr\" % i for i, e in enumerate(d[\"escapes\"][\"list\"])]") \
		$(keys report.json "[\"force_full.ranked.%d.minutes\" % i for i in range(len(d[\"force_full\"][\"ranked\"]))]") \
		$(keys report.json "[\"days.%d.%s\" % (i, k) for i in range(len(d[\"days\"])) for k in (\"pairs\", \"escape_rate\")]")
'

test_expect_success 'report: the escape rate per day is drawn inside its exact band, a day a point' '
	python3 - report.html report.json <<-\PY
	import json, re, sys
	page, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
	svg = re.search(r"<svg[^>]*chart-escape-rate.*?</svg>", page, re.S).group(0)
	assert "95% interval (exact)" in svg, "no band in the legend"
	bands = re.findall(r"<path d=\"M[^\"]*Z\" fill=\"[^\"]*\" fill-opacity=\"0.2\"", svg)
	days = [x for x in d["days"] if x["rate_ci"] is not None]
	assert len(bands) == 1 and len(days) == len(d["days"]) == 7, (len(bands), len(days))
	PY
'

test_expect_success 'report: the confidence and blind-spot lines say what report says' '
	html_text report.dom >report.txt &&
	tiadash --db week.db report --since 2026-11-01 --until 2026-11-08 >report.out &&
	grep -E "^Trend +previous window" report.out | sed "s/.*: //" >want &&
	grep -F "$(cat want)" report.txt &&
	grep -E "^Blind spots +" report.out | sed -E "s/^Blind spots +//; s/ \(.*//" >want &&
	grep -F "$(cat want)" report.txt
'

test_expect_success 'report: every escaping PR and every reason is on the page, as text' '
	html_text report.dom >report.txt &&
	for pr in $(json_get report.json "\" \".join(str(p) for p in d[\"escapes\"][\"prs\"])"); do
		grep -q "PR #$pr " report.txt || { echo "PR $pr missing"; return 1; }
	done &&
	json_get report.json "\"\\n\".join(r[\"reason\"] for r in d[\"force_full\"][\"ranked\"])" >reasons &&
	while read -r r; do grep -qF -- "$r" report.txt || { echo "no $r"; return 1; }; done <reasons
'

test_expect_success 'gate-check: the verdict and every criterion as --format json has them' '
	html_figures gate.dom gate.json report=report.json --require verdict \
		$(keys gate.json "[\"criteria.%d.%s\" % (i, k) for i in range(len(d[\"criteria\"])) for k in (\"threshold\", \"value\", \"pass\")]") \
		report:escapes.rate &&
	html_text gate.dom >gate.txt &&
	test_grep "NO-GO" gate.txt && test_grep "unexplained escapes is 13, needs <= 0" gate.txt
'

# verdict_lines TEXT: the lines under gate-check's verdict, a note's
# continuation lines joined to it (the page flows them as one).
verdict_lines() {
	sed -n "/^NO-GO$/,\$p" "$1" | sed "1d" |
		awk "/^  /{sub(/^ +/, \"\"); last = last \" \" \$0; next} {if (NR > 1) print last; last = \$0} END {print last}"
}

test_expect_success 'gate-check: every line of the text verdict, and every unexplained escape' '
	{ tiadash --db week.db gate-check --since 2026-11-01 --until 2026-11-08 >gate.text
	  test $? = 1; } &&
	verdict_lines gate.text >lines &&
	test "$(wc -l <lines)" = 4 &&
	test_grep "^escape rate: 115 more clean pairs (about 3 days at this window.s rate)$" lines &&
	html_text gate.dom | tr -s " \n" "  " >gate.flat &&
	while read -r line; do
		grep -qF -- "$line" gate.flat || { echo "not on the page: $line"; return 1; }
	done <lines &&
	json_get report.json "\" \".join(str(e[\"pr\"]) for e in d[\"escapes\"][\"list\"] if not e[\"explained\"])" >expect &&
	grep -o "data-key=\"report:escapes\.list\.[0-9]*\.pr\" data-value=\"[0-9]*\"" gate.html |
		sed "s/.*value=\"//; s/\"//" | tr "\n" " " | sed "s/ $//" >actual &&
	echo >>actual &&
	test_cmp expect actual &&
	test "$(wc -w <actual)" = 13 &&
	! grep "more unexplained escapes" gate.html
'

test_expect_success 'gate-check with more unexplained escapes than its sheet holds: those that fit and "and N more", on one A4 sheet' '
	gen_pairs many 1 60 40 2026-11-01 7 &&
	tiadash --db many.db ingest many >/dev/null &&
	{ tiadash --db many.db gate-check --since 2026-11-01 --until 2026-11-08 --format html \
		-o many.html; test $? = 1; } &&
	grep -c "data-key=\"report:escapes\.list\.[0-9]*\.pr\"" many.html >actual &&
	echo 14 >expect &&
	test_cmp expect actual &&
	grep -o "and 26 more unexplained escapes (tiadash report lists them all)" many.html &&
	html_pdf many.html many.pdf &&
	test "$(pdf_pages many.pdf)" = 1
'

test_expect_success 'summary: this window and the one before, as report has them' '
	html_figures summary.dom report.json report=report.json previous=previous.json \
		--require report:escapes.rate report:escapes.count report:pairs previous:escapes.rate \
		$(keys report.json "[\"report:escapes.list.%d.pr\" % i for i in range(min(20, len(d[\"escapes\"][\"list\"])))]")
'

test_expect_success 'propose: the candidates, the recommended set and the history as json has them' '
	html_figures propose.dom propose.json --require escapes closable history.force_full_rate \
		recommended_totals.closes recommended_totals.forced_minutes \
		$(keys propose.json "[\"proposals.%d.forced_minutes\" % i for i in range(min(20, len(d[\"proposals\"])))]") &&
	html_text propose.dom >propose.txt &&
	for g in $(json_get propose.json "\" \".join(d[\"recommended\"])"); do
		grep -qF -- "$g" propose.txt || { echo "no $g"; return 1; }
	done
'

test_expect_success 'propose: the page counts the rules in effect and the built-ins as the text does' '
	html_text propose.dom | tr -s " \n" "  " >rules.txt &&
	test_grep "Rules: 0 in effect, no rule file or selector config; 79 built-in defaults offered as candidates; accepted globs go to .tiadash/rules \." rules.txt &&
	! grep -F "$SAMPLE" propose.html &&
	tiadash --db week.db --repo "$SAMPLE/repo" propose --since 2026-11-01 --until 2026-11-08 >propose.out &&
	sed -n "/^rules /,/^accept /p" propose.out >actual &&
	cat >expect <<-EOF &&
	rules        0 in effect, no rule file or selector config; 79 built-in defaults
	             offered as candidates
	accept into  $SAMPLE/repo/.tiadash/rules
	EOF
	test_cmp expect actual
'

test_expect_success 'replay: baseline against the what-if, and the changes, as json has them' '
	html_figures replay.dom replay.json --require totals.changes comparison.force_full_rate_before \
		comparison.force_full_rate_after baseline.misses proposal.misses comparison.escapes_closed \
		builtin.extra_force_full builtin.force_full_rate_after builtin.misses_closed \
		$(keys replay.json "[\"changes.%d.builtin.decision\" % i for i, c in enumerate(d[\"changes\"][:300]) if c[\"builtin\"]]") \
		$(keys replay.json "[\"changes.%d.pr\" % i for i, c in enumerate(d[\"changes\"][:300]) if c[\"pr\"] is not None]")
'

# Every page at both widths, from one Chromium start; each case below finds
# its layout measured (html_layout_once).
test_expect_success 'ids break only after / or ::, class names and times never (1280 and 760 px)' '
	html_layouts "1280 760" $(for p in $pages; do echo $p.html; done) &&
	for p in $pages; do
		for w in 1280 760; do
			html_layout_once $p.html $w $p.$w.layout && layout_mid_word $p.$w.layout ||
				{ echo "$p.html at $w px"; return 1; }
		done
	done
'

test_expect_success 'at 760 px the ids of the report break after their / or ::' '
	grep -c "<code>tests/<wbr>registry/<wbr>test_plugins.py::<wbr>test_rounding_plugin_loaded</code>" \
		report.html >count && test "$(cat count)" -gt 0 &&
	html_layout_once report.html 760 report.760.layout &&
	python3 -c "
import json, sys
breaks = json.load(open(sys.argv[1]))[\"breaks\"]
cuts = [b for b in breaks if b[\"tag\"] == \"code\" and b[\"at\"].endswith((\"/\", \"::\"))]
sys.exit(0 if cuts else \"no id broke at a / or :: at 760 px\")" report.760.layout
'

test_expect_success 'no two texts of a chart overlap: the p50 and p95 labels of the wall-clock' '
	for p in gate report; do
		html_layout_once $p.html 1280 $p.1280.layout && layout_overlaps $p.1280.layout ||
			{ echo "$p.html"; return 1; }
	done
'

test_expect_success 'escape rate per day: days of few pairs hollow and off the scale, cut with an arrow' '
	html_layout_once gate.html 1280 gate.1280.layout &&
	python3 -c "
import json, re, sys
texts = [t[\"text\"] for t in json.load(open(sys.argv[1]))[\"svg\"]
         if t[\"chart\"] == \"chart-escape-rate\"]
print(\" \".join(t for t in texts if re.fullmatch(r\"\d+%\", t)))
print(\"\n\".join(t for t in texts if t[0] in \"\u2191h\"))" gate.1280.layout >actual &&
	cat >expect <<-\EOF &&
	0% 5% 10% 15% 20%
	hollow: under 26 pairs (half the median day), off the scale; ↑ its band'"'"'s top
	↑ 23.2%
	↑ 41.0%
	EOF
	test_cmp expect actual &&
	sed -n "/<svg id=\"chart-escape-rate\"/,/<\/svg>/p" gate.html >chart.svg &&
	test "$(grep -c "<circle.*fill=\"#fff\" stroke=\"#0072B2\"" chart.svg)" = 2
'

test_expect_success 'the first screen of each page shows text and charts (1280x800)' '
	png_not_blank $(for p in $pages; do echo $p.png; done)
'

test_expect_success 'printed to A4: gate-check one sheet, the report two' '
	for p in gate report; do test -s $p.pdf || html_pdf $p.html $p.pdf || return 1; done &&
	test "$(pdf_pages gate.pdf)" = 1 && test "$(pdf_pages report.pdf)" = 2 &&
	grep -aq "/MediaBox \[0 0 59[45]" gate.pdf
'

test_done
