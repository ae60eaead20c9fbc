#!/bin/bash
# CSV formula injection: a repo name, a reason or a test id that starts
# with = + - @ comes out of every --format csv (report, replay) as text a
# spreadsheet shows, never as a live formula: the field is quoted with a
# leading ' (OWASP's remedy); numbers are left alone.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: two pairs whose repo names are formulas' '
	mrepo 2 &&
	MRUN_REPO="=HYPERLINK(\\\"http://evil.example/\\\",\\\"Click me\\\")" \
		mrun a/1s 1 shadow 1 2026-11-03T10:00:00Z 600 pass \
		"$(ffsel "force-full:x")" tests/a.py::t &&
	MRUN_REPO="=HYPERLINK(\\\"http://evil.example/\\\",\\\"Click me\\\")" \
		mrun a/1f 1 full 1 2026-11-03T10:00:00Z 600 pass - tests/a.py::t &&
	MRUN_REPO="-2+3" mrun a/2s 2 shadow 1 2026-11-04T10:00:00Z 60 pass \
		"$(ffsel "force-full:y")" tests/a.py::t &&
	MRUN_REPO="-2+3" mrun a/2f 2 full 1 2026-11-04T10:00:00Z 600 pass - tests/a.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null
'

test_expect_success 'report csv: formulas are quoted text, numbers stay numbers' '
	tiadash --db s.db report --since 2026-11-01 --until 2026-11-08 --format csv >r.csv &&
	cut -d, -f1-2 r.csv | sed 1d | sort >actual &&
	cat >expect <<-\EOF &&
	1,"'"'"'=HYPERLINK(""http://evil.example/""
	2,"'"'"'-2+3"
	EOF
	test_cmp expect actual &&
	python3 - r.csv <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="")))
	byp = {r["pr"]: r for r in rows}
	assert byp["1"]["repo"] == "'"'"'=HYPERLINK(\"http://evil.example/\",\"Click me\")", byp["1"]
	assert byp["2"]["repo"] == "'"'"'-2+3", byp["2"]
	for r in rows:
	    for k, v in r.items():
	        assert not v or v[0] not in "=+-@\t\r", (k, v)
	    assert float(r["affected_fraction"]) == 1.0, r
	    assert float(r["shadow_wall_clock_s"]) in (600.0, 60.0), r
	PY
'

test_expect_success 'replay csv: a missed test id that is a formula is quoted text' '
	git init -q h && (cd h && echo a >a.py && commit_at 2026-11-02T00:00:00Z base &&
		echo b >b.md && commit_at 2026-11-02T01:00:00Z "Add b (#7)") &&
	base=$(git -C h rev-parse HEAD~1) head=$(git -C h rev-parse HEAD) &&
	write_run r7s "\"repo\": \"acme/h\", \"pr\": 7, \"base\": \"$base\", \"head\": \"$head\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T02:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"decision\": \"nothing\", \"total_tests\": 2}" &&
	write_run r7f "\"repo\": \"acme/h\", \"pr\": 7, \"base\": \"$base\", \"head\": \"$head\", \"kind\": \"full\", \"started_at\": \"2026-11-02T02:00:00Z\", \"verdict\": \"fail\", \"results\": [\"junit.xml\"]" &&
	junit r7f/junit.xml "=HYPERLINK(&quot;http://x/&quot;)::t:failed" "@a.py::u:failed" &&
	tiadash --db h.db --repo h ingest r7s r7f >/dev/null &&
	(cd h && tiadash --db ../h.db replay --since 2026-11-01 --format csv) >x.csv &&
	python3 - x.csv <<-\PY
	import csv, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="")))
	missed = [r["missed"] for r in rows if r["pr"] == "7"]
	assert missed == ["'"'"'=HYPERLINK(\"http://x/\")::t;@a.py::u"], rows
	PY
'

test_done
