#!/bin/bash
# The sample week (sampledata/make-week.py): report's figures against the
# generator's ground truth (expected.json's "report"), key by key to 1e-9;
# every format parsed back; gate-check and summary on the real week; diff
# coverage of the week's shadow runs against diff-cover.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

need_sample_week

test_expect_success 'ingest the week' '
	sample_week week.db &&
	since=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"window\"][\"since\"]") &&
	until=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"window\"][\"until\"]") &&
	echo "--since $since --until $until" >window
'

test_expect_success 'report json equals the ground truth, key by key' '
	tiadash --db week.db report $(cat window) --format json >r.json &&
	python3 - "$SAMPLE/expected.json" r.json <<-\PY
	import json, math, sys
	want = json.load(open(sys.argv[1]))["report"]
	got = json.load(open(sys.argv[2]))
	bad = []
	def cmp(path, w, g):
	    if isinstance(w, dict):
	        if not isinstance(g, dict):
	            bad.append("%s: expected an object, got %r" % (path, g)); return
	        for k in w:
	            if k not in g:
	                bad.append("%s.%s: missing" % (path, k))
	            else:
	                cmp(path + "." + k, w[k], g[k])
	    elif isinstance(w, float) and isinstance(g, (int, float)) and not isinstance(g, bool):
	        if not math.isclose(w, g, rel_tol=0, abs_tol=1e-9):
	            bad.append("%s: expected %r, got %r" % (path, w, g))
	    elif w != g:
	        bad.append("%s: expected %r, got %r" % (path, w, g))
	cmp("report", want, got)
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
'

test_expect_success 'per-head classes and figures equal the ground truth' '
	tiadash --db week.db report $(cat window) --format csv >r.csv &&
	python3 - "$SAMPLE/expected.json" r.csv <<-\PY
	import csv, json, math, sys
	truth = json.load(open(sys.argv[1]))
	heads = {h["pr"]: h for h in truth["heads"]}
	every = list(csv.DictReader(open(sys.argv[2], newline="")))
	rows = {int(r["pr"]): r for r in every if r["class"] != "main"}
	bad = []
	# main'"'"'s runs are rows of class main, never pairs: the commits and times main ran
	mains = sorted((r["head"], r["at"], r["pr"], r["shadow_attempts"]) for r in every if r["class"] == "main")
	want = sorted((m["commit"], m["started_at"], "", "0") for m in truth["main_runs"])
	if mains != want:
	    bad.append("main rows %r, expected %r" % (mains[:3], want[:3]))
	def num(s):
	    return float(s) if s != "" else None
	for pr, h in sorted(heads.items()):
	    r = rows.get(pr)
	    if r is None:
	        bad.append("PR %d: no row" % pr); continue
	    if r["class"] != h["class"]:
	        bad.append("PR %d: class %s, expected %s" % (pr, r["class"], h["class"]))
	    if int(r["missed"]) != len(h["missed"]):
	        bad.append("PR %d: %s missed, expected %d" % (pr, r["missed"], len(h["missed"])))
	    for col, key in (("affected_fraction", "affected_fraction"), ("diff_coverage", "diff_coverage"),
	                     ("shadow_wall_clock_s", "shadow_wall_clock_s"), ("full_wall_clock_s", "full_wall_clock_s")):
	        g, w = num(r[col]), h[key]
	        if (g is None) != (w is None) or (g is not None and not math.isclose(g, w, rel_tol=0, abs_tol=1e-9)):
	            bad.append("PR %d: %s %r, expected %r" % (pr, col, g, w))
	if len(rows) != len(heads):
	    bad.append("%d rows for %d heads" % (len(rows), len(heads)))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
'

test_expect_success 'escapes: missed and non-hermetic tests as the ground truth says' '
	python3 - "$SAMPLE/expected.json" r.json <<-\PY
	import json, sys
	heads = {h["pr"]: h for h in json.load(open(sys.argv[1]))["heads"]}
	got = json.load(open(sys.argv[2]))["escapes"]["list"]
	bad = []
	for e in got:
	    h = heads[e["pr"]]
	    if (e["class"], e["missed"], e["non_hermetic"]) != (h["class"], h["missed"], h["non_hermetic"]):
	        bad.append("PR %d: %r %r %r, expected %r %r %r" % (e["pr"], e["class"], e["missed"],
	                   e["non_hermetic"], h["class"], h["missed"], h["non_hermetic"]))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
'

test_expect_success 'main'"'"'s record: its runs, the red span, the pairs that inherited it' '
	python3 - "$SAMPLE/expected.json" r.json <<-\PY
	import json, sys
	truth = json.load(open(sys.argv[1]))
	want, got = truth["report"], json.load(open(sys.argv[2]))
	planted = truth["planted"]["red_main"]
	assert got["main"] == want["main"], (got["main"], want["main"])
	assert got["classes"] == want["classes"], (got["classes"], want["classes"])
	assert got["latent_misses"] == want["latent_misses"], (got["latent_misses"], want["latent_misses"])
	assert got["main"]["runs"] == len(truth["main_runs"]) > 0
	# the planted span, and every pair of class inherited inherited it
	span, = got["main"]["red_spans"]
	assert (span["test"], span["red_head"], span["green_head"], span["escape_pr"]) == \
	    (planted["test"], planted["red_commit"], planted["green_commit"], planted["escape"]), span
	inherited = sorted(h["pr"] for h in truth["heads"] if h["class"] == "inherited")
	assert inherited == planted["inherited"] and got["classes"]["inherited"] == len(inherited) > 0
	assert set(inherited) <= set(span["prs"]) <= set(planted["forked_on_red"]), span["prs"]
	assert got["main"]["red_tests"] == [planted["test"]]
	# inherited pairs are pairs, outside the escapes
	assert got["pairs"] == want["pairs"] and not set(inherited) & set(got["escapes"]["prs"])
	PY
'

test_expect_success 'report text and show say main'"'"'s record as the json does' '
	runs=$(json_get r.json "d[\"main\"][\"runs\"]") &&
	inh=$(json_get r.json "d[\"classes\"][\"inherited\"]") &&
	COLUMNS=80 tiadash --db week.db report $(cat window) >main.txt &&
	# the fitted lines as one
	tr -s " \n" "  " <main.txt >main.line &&
	test_grep "Main $runs runs of main; $inh pairs failed only on tests red on main (1 test), outside the escape rate" main.line &&
	esc=$(json_get "$SAMPLE/expected.json" "d[\"planted\"][\"red_main\"][\"escape\"]") &&
	red=$(json_get "$SAMPLE/expected.json" "d[\"planted\"][\"red_main\"][\"red_commit\"][:12]") &&
	test_grep "red from $red (.*); likely from PR #$esc " main.line &&
	pr=$(json_get "$SAMPLE/expected.json" "d[\"planted\"][\"red_main\"][\"inherited\"][0]") &&
	tiadash --db week.db show $pr --format json >inh.json &&
	json_close inh.json "[d[\"class\"], d[\"missed\"], d[\"inherited\"]]" \
		"[\"inherited\", [], [\"$(json_get "$SAMPLE/expected.json" "d[\"planted\"][\"red_main\"][\"test\"]")\"]]"
'

test_expect_success 'the escape rate of each day is its escapes over its pairs' '
	python3 - r.json <<-\PY
	import json, math, sys
	days = json.load(open(sys.argv[1]))["days"]
	def ok(d):
	    if not d["pairs"]:
	        return d["escape_rate"] is None
	    return math.isclose(d["escape_rate"], d["escapes"] / d["pairs"], rel_tol=0, abs_tol=1e-9)
	bad = [d for d in days if not ok(d)]
	assert days and not bad, bad
	PY
'

test_expect_success 'every format of the week parses back' '
	python3 -m json.tool r.json >/dev/null &&
	python3 -c "import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=\"\"))); assert len(r) > 1 and all(len(x) == len(r[0]) for x in r)" r.csv &&
	tiadash --db week.db report $(cat window) >r.txt && no_control r.txt &&
	awk "length > 80 { print; bad = 1 } END { exit bad }" r.txt &&
	tiadash --db week.db report $(cat window) --format md >r.md && no_control r.md &&
	test_grep "^| escapes | " r.md
'

test_expect_success 'gate-check on the week: NO-GO with unexplained escapes, json parses' '
	test_expect_code 1 tiadash --db week.db gate-check $(cat window) --format json >g.json &&
	json_close g.json "d[\"verdict\"]" "\"NO-GO\"" &&
	count=$(json_get r.json "d[\"escapes\"][\"count\"]") &&
	json_close g.json "[c[\"value\"] for c in d[\"criteria\"] if c[\"name\"] == \"unexplained_escapes\"][0]" "$count" &&
	json_close g.json "[c[\"value\"] for c in d[\"criteria\"] if c[\"name\"] == \"pairs\"][0]" \
		"$(json_get r.json "d[\"pairs\"]")"
'

test_expect_success 'the bounds of the week: stats_ref.py on the ground-truth counts' '
	n=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"pairs\"]") &&
	x=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"escapes\"][\"count\"]") &&
	o=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"over_strict\"][\"count\"]") &&
	json_close r.json "d[\"escapes\"][\"rate_upper\"]" "$(ref upper $x $n 0.95)" &&
	json_close r.json "d[\"escapes\"][\"rate_ci\"][0]" "$(ref interval $x $n 0.95 | cut -d" " -f1)" &&
	json_close r.json "d[\"escapes\"][\"rate_ci\"][1]" "$(ref interval $x $n 0.95 | cut -d" " -f2)" &&
	json_close r.json "d[\"escapes\"][\"pairs_needed\"]" "$(ref needed $x $n 0.95 0.05)" &&
	json_close r.json "d[\"over_strict\"][\"rate_upper\"]" "$(ref upper $o $n 0.95)" &&
	json_close g.json "[c[\"value\"] for c in d[\"criteria\"] if c[\"name\"] == \"escape_rate_upper\"][0]" \
		"$(ref upper $x $n 0.95)"
'

test_expect_success 'the blind spots of the last four days equal the ground truth' '
	since=$(json_get "$SAMPLE/expected.json" "d[\"blind_spots_late\"][\"since\"]") &&
	tiadash --db week.db report --since $since --until 2026-11-08 --format json >late.json &&
	python3 - "$SAMPLE/expected.json" late.json <<-\PY
	import json, sys
	want = json.load(open(sys.argv[1]))["blind_spots_late"]
	got = json.load(open(sys.argv[2]))["blind_spots"]
	del want["since"]
	got["new"] = {k: got["new"][k] for k in ("count", "selected")}
	got = {k: got[k] for k in want}
	assert got == want, (got, want)
	assert want["failed_in_full"] == 1 and want["never_selected"] == 2, want
	PY
'

test_expect_success 'summary of the week (default window: the 7 days before now)' '
	tiadash --db week.db summary >s.txt && no_control s.txt &&
	rate=$(json_get r.json "\"%.2f%%\" % (d[\"escapes\"][\"rate\"] * 100)") &&
	test_grep "^Escape rate $rate (" s.txt &&
	tiadash --db week.db summary --format md >s.md && no_control s.md
'

test_expect_success 'diff coverage of the week agrees with diff-cover (every 8th covered run)' '
	command -v diff-cover >/dev/null || { echo "no diff-cover"; return 0; }
	git clone -q --no-checkout "$SAMPLE/repo" clone &&
	python3 - "$SAMPLE" <<-\PY >runs.tsv
	import json, os, sys
	art = os.path.join(sys.argv[1], "artifacts")
	runs = []
	for d in sorted(os.listdir(art)):
	    for root, _, files in os.walk(os.path.join(art, d)):
	        for f in files:
	            if f.endswith(".tiadash.json") or f == "tiadash-run.json":
	                m = json.load(open(os.path.join(root, f)))
	                if m["kind"] == "shadow" and m.get("coverage"):
	                    runs.append((m["pr"], m["attempt"], m["base"], m["head"],
	                                 ",".join(os.path.join(root, c) for c in m["coverage"])))
	latest = {}
	for r in runs:
	    if r[0] not in latest or r[1] > latest[r[0]][1]:
	        latest[r[0]] = r
	for i, pr in enumerate(sorted(latest)):
	    if i % 8 == 0:
	        print("\t".join(str(x) for x in latest[pr]))
	PY
	test -s runs.tsv &&
	while IFS="	" read -r pr attempt base head covs; do
		git -C clone checkout -q "$head" &&
		n=0 && rm -f dc-*.info &&
		for c in $(echo "$covs" | tr , " "); do
			n=$((n + 1)) &&
			case "$c" in
			*.info) sed "s|^SF:/home/runner/work/ledger/ledger/|SF:|" "$c" >dc-$n.info ;;
			# diff-cover cannot mix lcov and Cobertura: Cobertura to lcov
			*) python3 - "$c" >dc-$n.info <<-\PY ;;
			import os, sys, xml.etree.ElementTree as ET
			root = ET.parse(sys.argv[1]).getroot()
			srcs = [s.text or "" for s in root.iter("source")] or [""]
			ci = "/home/runner/work/ledger/ledger/"
			for cls in root.iter("class"):
			    name = cls.get("filename")
			    paths = [os.path.join(s, name) for s in srcs]
			    rel = [p[len(ci):] if p.startswith(ci) else p for p in paths]
			    rel = [p for p in rel if os.path.exists(os.path.join("clone", p))] or rel
			    print("SF:" + rel[0])
			    for line in cls.iter("line"):
			        print("DA:%s,%s" % (line.get("number"), line.get("hits")))
			    print("end_of_record")
			PY
			esac || return 1
		done &&
		(cd clone && diff-cover ../dc-*.info --compare-branch="$base" --json-report ../dc.json -q) &&
		tiadash --db week.db show "$pr" --format json >show.json &&
		python3 - dc.json show.json "$pr" <<-\PY || return 1
		import json, sys
		dc, show = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
		lines, miss = dc["total_num_lines"], dc["total_num_violations"]
		want = (lines - miss) / lines if lines else None
		got = show["diff_coverage"]
		ok = got is None if want is None else got is not None and abs(got - want) <= 1e-9
		print("PR %s: diff-cover %s (%d lines), tiadash %s%s" % (sys.argv[3], want, lines, got, "" if ok else "  MISMATCH"))
		sys.exit(0 if ok else 1)
		PY
	done <runs.tsv >agree.log;
	status=$?; cat agree.log; test $status = 0
'

test_done
