#!/bin/bash
# The sample week with pytest's default JUnit (junit_family xunit2: dotted
# classnames, no file attribute) gives the same classes, escapes and missed
# tests as the same week with file attributes (xunit1), every suite key
# resolved through the tree (core/identity.h), and no warning.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

for family in xunit1 xunit2; do
	test_expect_success "the week with pytest's $family reports ingests cleanly" "
		python3 '$TOP/sampledata/make-week.py' --out $family --pytest-junit $family &&
		tiadash --db $family.db --repo $family/repo ingest $family/artifacts >out 2>err &&
		test_grep '^798 new runs, 0 unchanged$' out &&
		test_must_be_empty err
	"
done

test_expect_success 'the xunit2 week names no file: dotted classnames only' '
	test "$(cat xunit2/artifacts/*/*/pytest.xml | grep -c "<testcase ")" -gt 1000 &&
	! grep -l " file=" xunit2/artifacts/*/*/pytest.xml &&
	grep -q "classname=\"tests.exports.test_csv\" name=\"test_width\"" xunit2/artifacts/*/*/pytest.xml
'

test_expect_success 'same classes, escapes and missed tests, and every key resolved' '
	for f in xunit1 xunit2; do
		tiadash --db $f.db report --format json >$f.json &&
		tiadash --db $f.db report --format csv >$f.csv || return 1
	done &&
	test_cmp xunit1.csv xunit2.csv &&
	python3 - xunit1.json xunit2.json "$SAMPLE/expected.json" <<-\PY
	import json, sys
	a, b, truth = (json.load(open(f)) for f in sys.argv[1:])
	def escapes(r):
	    return [(e["pr"], e["class"], e["missed"], e["non_hermetic"]) for e in r["escapes"]["list"]]
	assert escapes(a) == escapes(b), (escapes(a), escapes(b))
	assert a["escapes"]["prs"] == truth["report"]["escapes"]["prs"], a["escapes"]["prs"]
	want = {h["pr"]: sorted(h["missed"]) for h in truth["heads"] if h["missed"]}
	got = {e[0]: sorted(e[2]) for e in escapes(b) if e[2]}
	assert got == want, (got, want)
	for r in (a, b):
	    i = r["identity"]
	    assert i == truth["report"]["identity"], (i, truth["report"]["identity"])
	    assert i["resolved"] == i["failing_tests"] > 0 and not i["unresolved"], i
	PY
'

test_expect_success 'a dotted id reads as the repository path' '
	sqlite3 xunit2.db "select distinct n.text from result r join name n on n.id = r.suite_id" >suites &&
	! grep -q "^tests\.[a-z_.]*$" suites &&
	test_grep "^tests/exports/test_pdf.py$" suites
'

test_done
