#!/bin/bash
# propose on the sample week (sampledata/make-week.py): every planted escape
# that a file caused is closed by the recommended set (or, with the built-in
# rules, by a rule already), the non-hermetic ones are unclosable with the
# right why, and every missed test's source names its causing file.
. "$(dirname "$0")/lib.sh"

need_sample_week

test_expect_success 'ingest the week' '
	sample_week week.db &&
	since=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"window\"][\"since\"]") &&
	until=$(json_get "$SAMPLE/expected.json" "d[\"report\"][\"window\"][\"until\"]") &&
	echo "--since $since --until $until" >window
'

# check.py JSON MODE: the planted truth against propose's answer.
cat >check.py <<-\PY
import fnmatch, json, sys
want = json.load(open(sys.argv[1]))["planted"]
got = json.load(open(sys.argv[2]))
mode = sys.argv[3]
bad = []
closed_by = {}
for p in got["proposals"]:
    if p["recommended"]:
        for pr in p["closes"]:
            closed_by.setdefault(pr, []).append(p["glob"])
by_rules = {e["pr"]: e["rule"] for e in got["closed_by_rules"]}
unclosable = {e["pr"]: e["why"] for e in got["unclosable"]}
evidence = {e["pr"]: e for e in got["evidence"]}
for esc in want["escape_missed"]:
    pr, cause = esc["pr"], esc["cause"]
    if pr not in evidence:
        bad.append("PR %d: not among the escapes" % pr)
        continue
    if pr in closed_by:
        pass
    elif mode == "builtin" and pr in by_rules and all("fixtures/" in c for c in cause):
        if by_rules[pr] != "force-full:**/fixtures/**":
            bad.append("PR %d: closed by %r" % (pr, by_rules[pr]))
    else:
        bad.append("PR %d (%s): not closed" % (pr, cause))
    # The evidence: the missed tests, each source naming the cause.
    tests = {t["test"]: t for t in evidence[pr]["missed"]}
    if sorted(tests) != sorted(esc["missed"]):
        bad.append("PR %d: missed %r, want %r" % (pr, sorted(tests), esc["missed"]))
    for t in tests.values():
        if t["evidence"] != "read" or not set(cause) <= set(t["mentions"]):
            bad.append("PR %d: %s: %s" % (pr, t["test"], t["text"]))
    if not set(cause) <= set(evidence[pr]["unmatched"]) and mode == "none":
        bad.append("PR %d: cause not among the unmatched paths" % pr)
for pr in want["non_hermetic"]:
    why = unclosable.get(pr, "")
    if not why.startswith("non-hermetic: the failing test"):
        bad.append("PR %d: unclosable why %r" % (pr, why))
# Every escape the report counts is one of them, and nothing else is unclosable.
planted = {e["pr"] for e in want["escape_missed"]} | set(want["non_hermetic"])
if set(evidence) != planted:
    bad.append("escapes %r, planted %r" % (sorted(evidence), sorted(planted)))
if set(unclosable) != set(want["non_hermetic"]):
    bad.append("unclosable %r" % sorted(unclosable))
if got["escapes"] != len(planted):
    bad.append("escapes: %r" % got["escapes"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

test_expect_success 'no built-in rules: the recommended set closes every planted escape' '
	tiadash --db week.db --repo "$SAMPLE/repo" propose $(cat window) --no-builtin-rules \
		--format json >none.json &&
	python3 check.py "$SAMPLE/expected.json" none.json none &&
	json_get none.json "d[\"closable\"] == 10 and d[\"recommended_totals\"][\"closes\"] == 10" >ok &&
	echo True >expect && test_cmp expect ok
'

test_expect_success 'built-in defaults are candidates, not rules: **/fixtures/** would close the fixture escapes' '
	tiadash --db week.db --repo "$SAMPLE/repo" propose $(cat window) --format json >builtin.json &&
	python3 check.py "$SAMPLE/expected.json" builtin.json none &&
	json_get builtin.json "[d[\"closed_by_rules\"], d[\"recommended_totals\"][\"closes\"], [sorted(p[\"closes\"]) for p in d[\"proposals\"] if p[\"builtin\"] and p[\"glob\"] == \"**/fixtures/**\"]]" >actual &&
	echo "[[], 10, [[434, 498, 688]]]" >expect && test_cmp expect actual
'

test_expect_success 'the recommended globs are accepted and close them all' '
	cp -r "$SAMPLE/repo" repo &&
	for g in $(json_get none.json "\" \".join(d[\"recommended\"])"); do
		tiadash --db week.db --repo repo propose $(cat window) --no-builtin-rules \
			--accept "$g" >/dev/null || return 1
	done &&
	tiadash --db week.db --repo repo propose $(cat window) --no-builtin-rules \
		--format json >after.json &&
	json_get after.json "[d[\"closable\"], len(d[\"closed_by_rules\"]), d[\"recommended\"]]" >actual &&
	echo "[0, 10, []]" >expect && test_cmp expect actual
'

test_expect_success 'text, md and json all parse on the real week' '
	tiadash --db week.db --repo "$SAMPLE/repo" propose $(cat window) >t.txt &&
	test_grep "^recommended " t.txt &&
	tiadash --db week.db --repo "$SAMPLE/repo" propose $(cat window) --format md >t.md &&
	test_grep "^## Recommended" t.md
'

test_done
