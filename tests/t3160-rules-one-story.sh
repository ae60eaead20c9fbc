#!/bin/bash
# One story of the rules (SPEC 6): PR #434 of the sample week changed
# tests/fixtures/fx_rates.json. show, rules --test, replay, propose, the
# dashboard's detail and the report page name the same rule with the same
# source: the built-in **/fixtures/** as a suggestion when no rule file is
# in effect, and .tiadash/rules's rule once the repository has one.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"
. "$TEST_SRC/lib-html.sh"

if ! test -f "$SAMPLE/expected.json"; then
	echo "ok 1 # skip the sample week is not built (make sampledata)"
	echo "1..1"
	exit 0
fi

SUGGESTED='force-full:**/fixtures/** (suggested: built-in)'
IN_EFFECT='force-full:**/fixtures/** (in effect: .tiadash/rules)'

test_expect_success 'setup: the sample week, and a clone with .tiadash/rules' '
	tui_week &&
	git clone -q "$SAMPLE/repo" ruled &&
	mkdir ruled/.tiadash && echo "**/fixtures/**" >ruled/.tiadash/rules
'

# the_six REPO: what each view says of #434's changed file, one line each.
the_six() {
	tiadash --db week.db --repo "$1" show 434 >show.out &&
	sed -n "/^changed/{n;p}" show.out >actual &&
	tiadash --repo "$1" rules --test tests/fixtures/fx_rates.json |
		sed "s/  [^ ]*  (/  ID  (/" >>actual &&
	tiadash --db week.db --repo "$1" replay --since 2026-11-02 --until 2026-11-03 >replay.out &&
	sed -n "3p" replay.out >>actual &&
	grep -A3 "#434 " replay.out | grep -E "^    (built-in|reasons):" >>actual &&
	tiadash --db week.db --repo "$1" propose --format json >propose.json &&
	json_get propose.json "[(c[\"rule\"], c[\"rule_source\"], c[\"suggested\"]) for e in d[\"evidence\"] if e[\"pr\"] == 434 for c in e[\"changed\"]]" >>actual &&
	tiadash --db week.db --repo "$1" propose >propose.out &&
	grep -A4 "PR 434  head" propose.out | grep "fixtures/\*\* (" | sed "s/^ *//" >>actual &&
	steps "3" "<Enter>" ":save-display detail.screen" &&
	TUI_REPO="$1" tui --since 2026-11-01 &&
	grep -A1 "^changed" detail.screen | sed -n 2p >>actual &&
	tiadash --db week.db --repo "$1" report --format html -o page.html &&
	grep -A3 "8a1a2820ad6c" page.html | grep -o "<span class=\"more\">[^<]*" |
		sed "s/.*>//" | sort -u >>actual
}

test_expect_success 'no rule file: all six suggest the built-in' '
	the_six "$SAMPLE/repo" &&
	cat >expect <<-EOF &&
	            [no rule; $SUGGESTED]
	tests/fixtures/fx_rates.json  run_all  **/fixtures/**  ID  (suggested: built-in)
	rules: 0 in effect, 79 built-in what-if; selector: none; store: yes
	    built-in: run_all, $SUGGESTED
	[(None, None, '"'"'force-full:**/fixtures/**'"'"')]
	no rule; $SUGGESTED
	              no rule; $SUGGESTED
	no rule; $SUGGESTED
	EOF
	test_cmp expect actual &&
	grep "^escapes      13 unexplained: 10 new, 0 closed-by-rules" propose.out
'

# The built-in what-if in each of replay's formats: csv's builtin_decision
# and builtin_reasons and the page's built-in column and table hold what
# json's "builtin" holds, change by change and in total.
test_expect_success 'no rule file: replay csv and html carry the built-in what-if json has' '
	w="--since 2026-11-02 --until 2026-11-03" &&
	tiadash --db week.db --repo "$SAMPLE/repo" replay $w --format json >replay.json &&
	tiadash --db week.db --repo "$SAMPLE/repo" replay $w --format csv >replay.csv &&
	tiadash --db week.db --repo "$SAMPLE/repo" replay $w --format html -o replay.html &&
	head -1 replay.csv >actual &&
	grep "^[0-9a-f]*,434," replay.csv | cut -d, -f2,5,10- >>actual &&
	cat >expect <<-\EOF &&
	commit,pr,date,changed,decision,reasons,selected,missed,disagrees,recorded_decision,builtin_decision,builtin_reasons
	434,nothing,nothing,run_all,force-full:**/fixtures/** (suggested: built-in)
	EOF
	test_cmp expect actual &&
	python3 - replay.csv replay.json <<-\PY &&
	import csv, json, sys
	rows = list(csv.DictReader(open(sys.argv[1])))
	d = json.load(open(sys.argv[2]))
	assert len(rows) == len(d["changes"]), (len(rows), len(d["changes"]))
	for r, c in zip(rows, d["changes"]):
	    b = c["builtin"] or {"decision": "", "reasons": []}
	    got = (r["commit"], r["builtin_decision"], r["builtin_reasons"])
	    want = (c["commit"], b["decision"], ";".join(b["reasons"]))
	    assert got == want, (got, want)
	PY
	json_get replay.json "\" \".join(\"changes.%d.builtin.decision\" % i for i, c in enumerate(d[\"changes\"]) if c[\"builtin\"])" >keys &&
	html_figures replay.html replay.json --require builtin.candidates \
		builtin.extra_force_full builtin.force_full_rate_after builtin.misses_closed \
		builtin.missed_changes_closed $(cat keys) &&
	json_get replay.json "\" \".join(str(x) for x in list(d[\"builtin\"].values()) + [c[\"pr\"] for c in d[\"changes\"] if c[\"builtin\"]])" >actual &&
	echo "79 3 0.4576271186440678 3 2 498 432 434" >expect &&
	test_cmp expect actual &&
	grep -c "data-key=\"changes\.[0-9]*\.builtin\.decision\"" replay.html >actual &&
	echo 3 >expect &&
	test_cmp expect actual &&
	grep -o "<p class=\"note\">rules: [^<]*" replay.html >actual &&
	echo "<p class=\"note\">rules: 0 in effect, 79 built-in what-if; selector: none; store: yes" >expect &&
	test_cmp expect actual
'

test_expect_success '.tiadash/rules in effect: all six name it' '
	the_six ruled &&
	cat >expect <<-EOF &&
	            [$IN_EFFECT]
	tests/fixtures/fx_rates.json  run_all  **/fixtures/**  ID  (in effect: .tiadash/rules)
	rules: 1 in effect from .tiadash/rules, 79 built-in what-if; selector: none;
	    reasons: force-full:**/fixtures/**
	[('"'"'force-full:**/fixtures/**'"'"', '"'"'in effect: .tiadash/rules'"'"', None)]
	closed-by-rules (force-full:**/fixtures/** (in
	$IN_EFFECT
	              $IN_EFFECT
	$IN_EFFECT
	EOF
	test_cmp expect actual &&
	grep "^escapes      13 unexplained: 7 new, 3 closed-by-rules" propose.out
'

test_done
