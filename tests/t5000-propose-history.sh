#!/bin/bash
# propose on a small hand-made history (tests/lib-propose.sh has the table):
# every candidate, its benefit and cost worked out by hand, the ranking, the
# recommended set, the unclosable and the evidence; text, md and json.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-propose.sh"

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup: eleven PRs, four escapes in the window' '
	phistory &&
	echo "22 new runs, 0 unchanged" >expect && test_cmp expect ingest.out
'

# One line per candidate: glob form closes extra other minutes added
# added-minutes rate p95 recommended.
summary() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["proposals"]:
    print(p["glob"], p["form"], ",".join(map(str, p["closes"])), p["extra_force_full"],
          p["closes_other"], round(p["extra_minutes"], 6), p["forced"],
          round(p["forced_minutes"], 6), round(p["force_full_rate_after"], 6),
          p["p95_after"], "rec" if p["recommended"] else "-")
' "$1"
}

test_expect_success 'json: every candidate, scored on the whole history' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --format json >p.json &&
	summary p.json >actual &&
	# History: 11 heads with a shadow run, 1 run_all (PR 8); shadow p95 of
	# 20 30 40 50 50 55 60 60 70 80 700 = 80 + .5 * 620 = 390. Window
	# medians: shadow 55, full 612.5 (PR 6 has no full wall-clock).
	# config/registry.toml matches PRs 11 1 2 8: closes 1 and 2, PR 11 is
	# an earlier escape (other), PR 8 was run_all: no cost; rate 4/11; p95
	# with 50 60 50 -> 620 600 630: 630 + .5 * 70 = 665.
	# config/** adds PRs 10 5 6: (600-60 + 640-70 + 612.5-80) / 60 = 27.375
	# minutes, rate 7/11, p95 640 + .5 * 60 = 670.
	# src/app.py: PRs 1 4 9; PR 4 (non-hermetic) and 9 cost
	# (615-40 + 605-55) / 60 = 18.75; p95 615 + .5 * 85 = 657.5.
	# tests/fixtures/a.json: PR 3 only; p95 610 + .5 * 90 = 655; the
	# directory adds PR 7: (600-30) / 60 = 9.5.
	# docs/readme.md is ignored by the rules file first: no candidates.
	# Added: every change newly forced, the escapes closed too (the
	# preview'"'"'s cost): config/registry.toml forces 11 1 2:
	# (620-50 + 600-60 + 630-50) / 60 = 28.166667; config/** adds the
	# 27.375 above: 55.541667; a.json forces PR 3: (610-20) / 60 =
	# 9.833333, the directory adds PR 7: 19.333333; src/app.py forces
	# 1 4 9: (600-60 + 615-40 + 605-55) / 60 = 27.75.
	cat >expect <<-\EOF &&
	**/registry.toml name 1,2 0 1 0 3 28.166667 0.363636 665 -
	config/registry.toml file 1,2 0 1 0 3 28.166667 0.363636 665 rec
	**/*.toml ext 1,2 3 1 27.375 6 55.541667 0.636364 670 -
	config/** dir 1,2 3 1 27.375 6 55.541667 0.636364 670 -
	config/**/*.toml dir-ext 1,2 3 1 27.375 6 55.541667 0.636364 670 -
	**/a.json name 3 0 0 0 1 9.833333 0.181818 655 -
	tests/fixtures/a.json file 3 0 0 0 1 9.833333 0.181818 655 rec
	**/*.json ext 3 1 0 9.5 2 19.333333 0.272727 655 -
	tests/** dir 3 1 0 9.5 2 19.333333 0.272727 655 -
	tests/**/*.json dir-ext 3 1 0 9.5 2 19.333333 0.272727 655 -
	tests/fixtures/** dir 3 1 0 9.5 2 19.333333 0.272727 655 -
	tests/fixtures/**/*.json dir-ext 3 1 0 9.5 2 19.333333 0.272727 655 -
	**/*.py ext 1 2 0 18.75 3 27.75 0.363636 657.5 -
	**/app.py name 1 2 0 18.75 3 27.75 0.363636 657.5 -
	src/** dir 1 2 0 18.75 3 27.75 0.363636 657.5 -
	src/**/*.py dir-ext 1 2 0 18.75 3 27.75 0.363636 657.5 -
	src/app.py file 1 2 0 18.75 3 27.75 0.363636 657.5 -
	EOF
	test_cmp expect actual
'

test_expect_success 'json: counts, history, recommended set, unclosable' '
	json_close p.json "d[\"escapes\"]" 4 &&
	json_close p.json "d[\"explained\"]" 0 &&
	json_close p.json "d[\"closable\"]" 3 &&
	json_close p.json "d[\"history\"]" \
		"{\"changes\": 11, \"force_full\": 1, \"force_full_rate\": 0.0909090909090909, \"p95\": 390, \"median_shadow_s\": 55, \"median_full_s\": 612.5}" &&
	json_close p.json "d[\"recommended\"]" "[\"config/registry.toml\", \"tests/fixtures/a.json\"]" &&
	# Together: PRs 11 1 2 8 3; rate 5/11; p95 with 50 60 50 20 replaced;
	# added: 11 1 2 3, (570 + 540 + 580 + 590) / 60 = 38 minutes.
	json_close p.json "d[\"recommended_totals\"]" \
		"{\"closes\": 3, \"extra_force_full\": 0, \"closes_other\": 1, \"extra_minutes\": 0, \"forced\": 4, \"forced_minutes\": 38, \"force_full_rate_after\": 0.45454545454545453, \"p95_after\": 665}" &&
	json_close p.json "d[\"unclosable\"]" \
		"[{\"pr\": 4, \"head\": \"$(head_of 4)\", \"why\": \"non-hermetic: the failing test was selected and passed in the shadow run\"}]" &&
	json_close p.json "d[\"closed_by_rules\"]" "[]"
'

test_expect_success 'json: evidence of each escape' '
	python3 -c "
import json, sys
d = json.load(open(\"p.json\"))
for e in d[\"evidence\"]:
    tests = e.get(\"missed\", e.get(\"failed\"))
    print(e[\"pr\"], e[\"class\"], e[\"state\"], e[\"closed_by_recommended\"],
          \" \".join(c[\"path\"] + \"=\" + str(c[\"rule\"]) for c in e[\"changed\"]),
          \"unmatched:\" + \",\".join(e[\"unmatched\"]),
          \" \".join(t[\"test\"] + \"@\" + str(t[\"source\"]) + \"~\" + \",\".join(t[\"mentions\"]) for t in tests))
" >actual &&
	cat >expect <<-\EOF &&
	1 escape new True config/registry.toml=None docs/readme.md=ignore:docs/** src/app.py=None unmatched:config/registry.toml,src/app.py tests/exports/test_csv.py::test_width@tests/exports/test_csv.py~config/registry.toml,src/app.py
	2 escape new True config/registry.toml=None unmatched:config/registry.toml tests/exports/test_csv.py::test_width@tests/exports/test_csv.py~config/registry.toml
	3 escape new True tests/fixtures/a.json=None unmatched:tests/fixtures/a.json tests/test_fixture.py::test_load@tests/test_fixture.py~tests/fixtures/a.json
	4 non-hermetic unclosable False src/app.py=None unmatched:src/app.py tests/test_app.py::test_app@tests/test_app.py~src/app.py
	EOF
	test_cmp expect actual
'

test_expect_success 'text: the whole report' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --limit 6 >out &&
	sed "s|$TRASH|TRASH|g" out >actual &&
	cat >expect <<-EOF &&
	propose      2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos
	escapes      4 unexplained: 3 new, 0 closed-by-rules, 1 unclosable; 0 explained
	history      11 changes with a shadow run; force-full 1 (9.1%); shadow p95 390 s
	rules        1 in effect, from repo/.tiadash/rules
	accept into  repo/.tiadash/rules
	
	recommended  2 globs closing 3 of 3 new escapes: +4 force-full runs, +38.0 min;
	             force-full 45.5%, shadow p95 665 s
	  CLOSES  +RUNS     +MIN FF AFTER P95 AFTER  GLOB (ESCAPES)
	       2      3    +28.2    36.4%     665 s  config/registry.toml  (PR 1, 2)
	       1      1     +9.8    18.2%     655 s  tests/fixtures/a.json  (PR 3)
	
	candidates   17, ranked (the first 6; --limit N for more)
	  CLOSES  +RUNS     +MIN FF AFTER P95 AFTER  GLOB (ESCAPES)
	       2      3    +28.2    36.4%     665 s  **/registry.toml  (PR 1, 2)
	       2      3    +28.2    36.4%     665 s  config/registry.toml  (PR 1, 2)
	       2      6    +55.5    63.6%     670 s  **/*.toml  (PR 1, 2)
	       2      6    +55.5    63.6%     670 s  config/**  (PR 1, 2)
	       2      6    +55.5    63.6%     670 s  config/**/*.toml  (PR 1, 2)
	       1      1     +9.8    18.2%     655 s  **/a.json  (PR 3)
	
	escapes
	  PR 1  head $(head_of 1 | cut -c1-12)  escape  new (closable by config/registry.toml)
	    changed  config/registry.toml  no rule
	             docs/readme.md        ignore:docs/** (in effect: .tiadash/rules)
	             src/app.py            no rule
	    missed   tests/exports/test_csv.py::test_width
	               source tests/exports/test_csv.py mentions config/registry.toml,
	                 src/app.py
	  PR 2  head $(head_of 2 | cut -c1-12)  escape  new (closable by config/registry.toml)
	    changed  config/registry.toml  no rule
	    missed   tests/exports/test_csv.py::test_width
	               source tests/exports/test_csv.py mentions config/registry.toml
	  PR 3  head $(head_of 3 | cut -c1-12)  escape  new (closable by tests/fixtures/a.json)
	    changed  tests/fixtures/a.json  no rule
	    missed   tests/test_fixture.py::test_load
	               source tests/test_fixture.py mentions tests/fixtures/a.json
	  PR 4  head $(head_of 4 | cut -c1-12)  non-hermetic
	                           unclosable: non-hermetic: the failing test was
	                           selected and passed in the shadow run
	    changed  src/app.py  no rule
	    failed   tests/test_app.py::test_app
	               source tests/test_app.py mentions src/app.py

	blind spots  2 test files with tests no narrowed selection named;
	             an always-run rule each (append it last to the rules file):
	  select ** tests/exports/test_csv.py  1 test, 1 failed in full
	  select ** tests/test_fixture.py  1 test, 1 failed in full
	EOF
	test_cmp expect actual
'

test_expect_success 'json: the blind spots as always-run rules for their test files' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --format json >ar.json &&
	json_close ar.json "d[\"always_run\"]" \
		"[{\"suite\": \"tests/exports/test_csv.py\", \"tests\": 1, \"failed_in_full\": 1, \"rule\": \"select ** tests/exports/test_csv.py\"}, {\"suite\": \"tests/test_fixture.py\", \"tests\": 1, \"failed_in_full\": 1, \"rule\": \"select ** tests/test_fixture.py\"}]" &&
	printf "select ** tests/test_fixture.py\n" >always.rules &&
	tiadash rules --rules always.rules --no-builtin-rules --test src/x.py >t.out &&
	test_grep "^src/x.py  select   \*\*  always.rules:1  (in effect: always.rules)$" t.out
'

test_expect_success 'built-in defaults are not the rules in effect: a candidate marked builtin' '
	tiadash --db s.db --repo repo propose $W --format json >b.json &&
	json_close b.json "d[\"closable\"]" 3 &&
	json_close b.json "d[\"closed_by_rules\"]" "[]" &&
	json_close b.json "[[p[\"glob\"], p[\"form\"], p[\"closes\"], p[\"extra_force_full\"]] for p in d[\"proposals\"] if p[\"builtin\"]]" \
		"[[\"**/fixtures/**\", \"builtin\", [3], 1]]" &&
	json_close b.json "d[\"recommended\"]" "[\"config/registry.toml\", \"tests/fixtures/a.json\"]" &&
	json_close b.json "len(d[\"proposals\"])" 18 &&
	json_close b.json "d[\"history\"][\"force_full\"]" 1 &&
	tiadash --db s.db --repo repo propose $W >b.txt &&
	grep -A1 "^  \*\*/fixtures/\*\* (suggested: built-in)$" b.txt >row &&
	test_grep "^       1      2    +19.3    27.3%     655 s  (PR 3)$" row
'

test_expect_success 'the window decides which escapes need closing' '
	# Only PR 11 (2026-10-26) escapes before November.
	tiadash --db s.db --repo repo propose --until 2026-11-01 --no-builtin-rules --format json >o.json &&
	json_close o.json "d[\"escapes\"]" 1 &&
	json_close o.json "d[\"recommended\"]" "[\"config/registry.toml\"]" &&
	json_close o.json "[p[\"closes\"] for p in d[\"proposals\"] if p[\"recommended\"]]" "[[11]]" &&
	# PRs 1 and 2 escape too: counted apart, not as cost.
	json_close o.json "[p[\"closes_other\"] for p in d[\"proposals\"] if p[\"recommended\"]]" "[2]" &&
	# An empty window: nothing to close, nothing proposed.
	tiadash --db s.db --repo repo propose --since 2026-12-01 --format json >e.json &&
	json_close e.json "[d[\"escapes\"], d[\"proposals\"], d[\"recommended\"]]" "[0, [], []]" &&
	json_close e.json "d[\"history\"][\"changes\"]" 11
'

test_expect_success 'without a repository: evidence is n/a, the rules file given' '
	tiadash --db s.db propose $W --rules repo/.tiadash/rules --no-builtin-rules --format json >n.json &&
	json_close n.json "[t[\"evidence\"] for e in d[\"evidence\"] for t in e.get(\"missed\", e.get(\"failed\"))]" \
		"[\"no-repository\", \"no-repository\", \"no-repository\", \"no-repository\"]" &&
	json_close n.json "d[\"evidence\"][0][\"missed\"][0][\"text\"]" "\"source n/a (no repository)\"" &&
	json_close n.json "d[\"recommended\"]" "[\"config/registry.toml\", \"tests/fixtures/a.json\"]" &&
	json_close n.json "d[\"rules_file\"]" "\"repo/.tiadash/rules\""
'

test_expect_success 'no rules file: docs/readme.md is a candidate too' '
	tiadash --db s.db propose $W --no-builtin-rules --format json >d.json &&
	json_close d.json "d[\"rules_file\"]" null &&
	json_close d.json "[p[\"extra_force_full\"] for p in d[\"proposals\"] if p[\"glob\"] == \"docs/readme.md\"]" "[1]"
'

test_expect_success 'md: tables and escapes' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --format md --limit 2 >p.md &&
	test_grep "^# Force-full proposals" p.md &&
	test_grep "^| config/registry.toml | 2 | PR 1, 2 | 3 | +28.2 | 36.4% | 665 s |$" p.md &&
	test_grep "^| \\\\\*\\\\\*/registry.toml | 2 |" p.md &&
	test_grep "^## Candidates (2 of 17)" p.md &&
	test_grep "^- state: unclosable: non-hermetic" p.md &&
	test_grep "^- missed: tests/exports/test\\\\_csv.py::test\\\\_width; source" p.md
'

test_expect_success 'preview: what one edited glob matches, closes and costs' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --preview "config/*.toml" \
		--preview "nothing/**" >out &&
	cat >expect <<-\EOF &&
	preview  config/*.toml
	  matches  2 changed paths, 7 changes
	           config/other.toml
	           config/registry.toml
	  closes   PR 1, 2
	  cost     +6 force-full runs, +55.5 min (2 closing, 1 other escape, 3 extra)
	  after    force-full 63.6%, shadow p95 670 s
	preview  nothing/**
	  matches  0 changed paths, 0 changes
	  closes   -
	  cost     +0 force-full runs, +0.0 min
	  after    force-full 9.1%, shadow p95 390 s
	EOF
	test_cmp expect out &&
	# The cost is what moves the rate: (1 forced before + 6) / 11 changes.
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --preview "config/*.toml" \
		--format json >c.json &&
	json_close c.json "[d[0][\"forced\"], d[0][\"extra_force_full\"], d[0][\"closes_other\"], round(d[0][\"forced_minutes\"], 1)]" \
		"[6, 3, 1, 55.5]" &&
	json_close c.json "d[0][\"force_full_rate_after\"] * 11" 7.0 &&
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --preview "docs/**" --format json >v.json &&
	# docs/ is ignored by the rules file before an appended glob: no match.
	json_close v.json "[d[0][\"matched_paths\"], d[0][\"changes\"]]" "[0, []]" &&
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --preview "src/**" --format json >v.json &&
	json_close v.json "d[0][\"changes\"]" \
		"[{\"pr\": 1, \"forced\": true, \"closes\": true}, {\"pr\": 4, \"forced\": true, \"closes\": false}, {\"pr\": 9, \"forced\": true, \"closes\": false}]"
'

test_done
