#!/bin/bash
# The sample week (sampledata/): ingested into a fresh store, every count,
# class, missed and inherited test, three-dot path list and diff-coverage
# figure equals the ground truth the generator computed on its own (expected.json).
. "$(dirname "$0")/lib.sh"

test_expect_success 'the sample week ingests cleanly' '
	tiadash --db s.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >out 2>err &&
	test_grep "^798 new runs, 0 unchanged$" out &&
	test_must_be_empty err
'

test_expect_success 'status equals the truth' '
	tiadash --db s.db status --format json | json_norm >actual &&
	json_get "$SAMPLE/expected.json" "json.dumps(d[\"status\"], sort_keys=True)" >expect &&
	test_cmp expect actual
'

test_expect_success 'every head: class, missed, changed paths, coverage, selection' '
	python3 - "$SAMPLE/expected.json" <<-\EOF
	import json, math, os, subprocess, sys
	truth = json.load(open(sys.argv[1]))
	bad = 0
	def close(a, b):
	    if a is None or b is None:
	        return a is b
	    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
	for h in truth["heads"]:
	    # The watchdog is the timeout of subprocess.run (it kills the show, the
	    # case fails), not a timeout(1) process started for each of 300 heads.
	    out = subprocess.run([os.environ["TIADASH_BIN"],
	                          "--db", "s.db", "show", h["head"], "--format", "json"],
	                         capture_output=True, text=True, timeout=20)
	    if out.returncode:
	        print("show", h["head"], "failed:", out.stderr); bad += 1; continue
	    s = json.loads(out.stdout)
	    got = {
	        "class": s["class"], "missed": s["missed"], "non_hermetic": s["non_hermetic"],
	        "inherited": s["inherited"],
	        "changed": [{"path": f["path"], "status": f["status"]} for f in s["changed"]],
	        "pr": s["pr"], "base": s["base"],
	        "decision": s["selection"]["decision"] if s["selection"] else None,
	        "reasons": s["selection"]["reasons"] if s["selection"] else None,
	    }
	    for k, v in got.items():
	        if v != h[k]:
	            print("PR", h["pr"], k, "got", v, "want", h[k]); bad += 1
	    sel = s["selection"] or {}
	    for k, v in (("diff_coverage", s["diff_coverage"]),
	                 ("affected_fraction", sel.get("affected_fraction"))):
	        if not close(v, h[k]):
	            print("PR", h["pr"], k, "got", v, "want", h[k]); bad += 1
	print(len(truth["heads"]), "heads checked,", bad, "differences")
	sys.exit(1 if bad else 0)
	EOF
'

test_expect_success 'show names the rule each changed file matches' '
	tiadash --db s.db --repo "$SAMPLE/repo" show 434 --format json >434.json &&
	# no rule file: the built-in is a suggestion, not the rule in effect (SPEC 6)
	test "$(json_get 434.json "json.dumps([(f[\"path\"], f[\"rule\"], f[\"suggested\"]) for f in d[\"changed\"]])")" = \
		"[[\"tests/fixtures/fx_rates.json\", null, \"force-full:**/fixtures/**\"]]" &&
	tiadash --db s.db --repo "$SAMPLE/repo" show 434 --no-builtin-rules --format json >none.json &&
	test "$(json_get none.json "d[\"changed\"][0][\"rule\"]")" = None &&
	printf "run_all tests/fixtures/*.json\n" >mine.rules &&
	tiadash --db s.db --repo "$SAMPLE/repo" show 434 --rules mine.rules >434.txt &&
	grep -A1 "^changed" 434.txt >actual &&
	printf "%s\n" "changed     M tests/fixtures/fx_rates.json" \
		"            [force-full:tests/fixtures/*.json (in effect: mine.rules)]" >expect &&
	test_cmp expect actual
'

test_expect_success 'ingesting the week again changes nothing' '
	store_dump s.db >before &&
	tiadash --db s.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >out &&
	test_grep "^0 new runs, 798 unchanged$" out &&
	store_dump s.db >after && test_cmp before after
'

test_expect_success 'the index names the same week' '
	tiadash --db i.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts/index.json" >out &&
	test_grep "^798 new runs, 0 unchanged$" out &&
	tiadash --db i.db status --format json | json_norm >a &&
	tiadash --db s.db status --format json | json_norm >b &&
	test_cmp a b
'

test_done
