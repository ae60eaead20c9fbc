#!/usr/bin/env bash
# Replay of the sample week (sampledata/build, `make sampledata`): every
# first-parent commit that expected.json lists has the changed paths and
# the PR number it says, and replay lists no other commit.
. "$(dirname "$0")/lib.sh"

need_sample_week

since=$(json_get "$SAMPLE/expected.json" "d[\"window\"][\"since\"]")
until=$(json_get "$SAMPLE/expected.json" "d[\"window\"][\"until\"]")

test_expect_success 'replay the sample week' '
	tiadash replay --repo "$SAMPLE/repo" --since "$since" --until "$until" \
		--no-builtin-rules --rules /dev/null --format json >replay.json
'

test_expect_success 'every commit: paths, changed count and PR as expected.json says' '
	python3 - "$SAMPLE/expected.json" replay.json >report <<-\EOF
	import json, sys
	expected = json.load(open(sys.argv[1]))["replay"]
	got = {c["commit"]: c for c in json.load(open(sys.argv[2]))["changes"]}
	bad = 0
	for e in expected:
	    sha = e.get("commit") or e.get("sha")
	    c = got.pop(sha, None)
	    if c is None:
	        print("missing from replay:", sha)
	        bad += 1
	        continue
	    if "paths" in e and sorted(e["paths"]) != sorted(c["paths"]):
	        print(sha, "paths differ:", sorted(set(e["paths"]) ^ set(c["paths"]))[:10])
	        bad += 1
	    if "changed" in e and e["changed"] != c["changed"]:
	        print(sha, "changed", c["changed"], "expected", e["changed"])
	        bad += 1
	    if "pr" in e and e["pr"] != c["pr"]:
	        print(sha, "pr", c["pr"], "expected", e["pr"])
	        bad += 1
	for sha in got:
	    print("not in expected.json:", sha)
	    bad += 1
	print(len(expected), "commits,", bad, "differences")
	sys.exit(1 if bad else 0)
	EOF
	status=$? ; cat report ; test $status = 0
'

test_expect_success 'paths in git order: git log --first-parent --no-renames --name-only' '
	python3 -c "import json
for c in json.load(open(\"replay.json\"))[\"changes\"]:
    print(c[\"commit\"])
    print(\"\".join(p + \"\\n\" for p in c[\"paths\"]), end=\"\")" >actual &&
	newest=$(json_get replay.json "d[\"changes\"][0][\"commit\"]") &&
	oldest=$(json_get replay.json "d[\"changes\"][-1][\"commit\"]") &&
	below=$(git -C "$SAMPLE/repo" rev-parse -q --verify "$oldest^") &&
	git -C "$SAMPLE/repo" log --first-parent --no-renames --name-only \
		--format=%H "$newest" ${below:+"^$below"} | grep . >expect &&
	test_cmp expect actual
'

test_expect_success 'with the record: the planted escapes and their missed tests' '
	sample_week week.db &&
	tiadash --db week.db replay --repo "$SAMPLE/repo" --since "$since" --until "$until" \
		--no-builtin-rules --format json >recorded.json &&
	python3 - "$SAMPLE/expected.json" recorded.json <<-\EOF
	import json, sys
	planted = json.load(open(sys.argv[1]))["planted"]["escape_missed"]
	want = {p["pr"]: sorted(p["missed"]) for p in planted}
	got = {c["pr"]: sorted(c["missed"]) for c in json.load(open(sys.argv[2]))["changes"] if c["missed"]}
	for pr in sorted(set(want) | set(got)):
	    if want.get(pr) != got.get(pr):
	        print("PR", pr, "replay missed", got.get(pr), "planted", want.get(pr))
	sys.exit(want != got)
	EOF
'

test_expect_success 'the fixture escapes stay missed by the rules in effect, and the built-ins what-if closes them' '
	tiadash --db week.db replay --repo "$SAMPLE/repo" --since "$since" --until "$until" \
		--format json >builtin.json &&
	python3 - "$SAMPLE/expected.json" builtin.json <<-\EOF
	import json, sys
	planted = json.load(open(sys.argv[1]))["planted"]["escape_missed"]
	changes = {c["pr"]: c for c in json.load(open(sys.argv[2]))["changes"]}
	bad = 0
	for p in planted:
	    c = changes[p["pr"]]
	    fixture = any("/fixtures/" in x for x in p["cause"])
	    want = ["force-full:**/fixtures/** (suggested: built-in)"]
	    if fixture and (not c["builtin"] or c["builtin"]["reasons"] != want):
	        print("PR", p["pr"], "fixture escape: built-in what-if", c["builtin"]); bad += 1
	    if sorted(c["missed"]) != sorted(p["missed"]):
	        print("PR", p["pr"], "missed", c["missed"], "planted", p["missed"]); bad += 1
	sys.exit(bad)
	EOF
'

test_done
