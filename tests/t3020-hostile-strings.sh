#!/bin/bash
# Untrusted strings in report, summary and gate-check: test ids, reasons,
# repo names and notes with terminal escapes (ESC [ 31 m, BEL, OSC, C1 CSI)
# and markdown syntax. Text never carries a control byte; markdown escapes
# what it would interpret; JSON keeps the exact string, validly encoded;
# HTML shows them as the text does, as text (Chromium builds no element).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-html.sh"

test_expect_success 'setup: hostile ids through a bare JUnit file, a failed list and manifests' '
	MREPO_TESTS="$MREPO_DEFAULT_TESTS tests/c1.py tests/e.py tests/p.py" mrepo 3 &&
	# PR 1: forced full for a reason with an OSC title sequence and BEL;
	# the manifest repo name carries ESC [ 31 m.
	MRUN_REPO="acme/\\u001b[31mevil\\u0007" mrun a/1s 1 shadow 1 2026-11-03T10:00:00Z 600 pass \
		"$(ffsel "force-full:\\u001b]0;pwned\\u0007**/*.lock" "| *bold* [link](x) <b>")" tests/a.py::t &&
	MRUN_REPO="acme/\\u001b[31mevil\\u0007" mrun a/1f 1 full 1 2026-11-03T10:00:00Z 600 pass - tests/a.py::t &&
	# PR 2: the full run is a bare JUnit file whose failing test name holds
	# C1 controls (XML 1.0 cannot carry ESC or BEL, even as references).
	mrun a/2s 2 shadow 1 2026-11-04T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	printf "%s\n" "<?xml version=\"1.0\"?>" \
		"<testsuite name=\"s\"><testcase file=\"tests/c1.py\" name=\"x&#x9b;31mred&#x85;&#x202e;\">" \
		"<failure message=\"m\"/></testcase></testsuite>" >c1.xml &&
	tiadash --db s.db --repo repo ingest a >/dev/null &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(head_of 2)" --base "$(head_of base)" \
		--pr 2 --repo-name acme/x --started-at 2026-11-04T10:00:00Z --wall-clock 600 c1.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	# PR 3: ESC [ 31 m and BEL in a failing test id, by a failed list.
	mrun b/3s 3 shadow 1 2026-11-05T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	printf "tests/e.py::x\033[31mred\007bell\ntests/p.py::t|<b>\`x\`_[y](z)\n" >failed.txt &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(head_of 3)" --base "$(head_of base)" \
		--pr 3 --repo-name acme/x --started-at 2026-11-05T10:00:00Z --wall-clock 600 \
		--verdict fail --failed failed.txt >/dev/null &&
	tiadash --db s.db --repo repo ingest b >/dev/null &&
	printf "ESC \033[31m in a note\007" >note.txt &&
	sqlite3 s.db "INSERT INTO note (head_id, kind, text, created_at) SELECT id, '"'"'explained'"'"', readfile('"'"'note.txt'"'"'), 0 FROM head WHERE pr = 2"
'

test_expect_success 'json keeps the exact strings' '
	tiadash --db s.db report --format json >r.json &&
	python3 - r.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	esc = {e["pr"]: e for e in d["escapes"]["list"]}
	assert esc[3]["missed"] == ["tests/e.py::x\x1b[31mred\x07bell", "tests/p.py::t|<b>`x`_[y](z)"], esc[3]
	assert esc[2]["missed"] == ["tests/c1.py::x\x9b31mred\x85\u202e"], esc[2]
	assert esc[2]["note"] == "ESC \x1b[31m in a note\x07", esc[2]
	assert "force-full:\x1b]0;pwned\x07**/*.lock" in d["force_full"]["by_reason"], d["force_full"]
	PY
'

test_expect_success 'report text, md and csv: no control bytes' '
	tiadash --db s.db report >r.txt && no_control r.txt &&
	tiadash --db s.db report --format md >r.md && no_control r.md &&
	tiadash --db s.db report --format csv >r.csv && no_control r.csv &&
	test_grep "tests/e.py::x\\\\x1b\[31mred\\\\x07bell" r.txt &&
	test_grep "force-full:\\\\x1b\]0;pwned\\\\x07\*\*/\*.lock" r.txt
'

test_expect_success 'C1 controls (CSI, NEL) are escaped too' '
	test_grep "tests/c1.py::x\\\\xc2\\\\x9b31mred\\\\xc2\\\\x85" r.txt &&
	! LC_ALL=C grep -q "$(printf "\302\233")" r.txt r.md r.csv
'

test_expect_success 'markdown: table cells, links, code and html cannot open' '
	test_grep "tests/p.py::t\\\\|&lt;b&gt;\\\\\`x\\\\\`\\\\_\\\\\[y\\\\\]\\\\(z\\\\)" r.md &&
	test_grep "^| \\\\| \\\\\*bold\\\\\* \\\\\[link\\\\\]\\\\(x\\\\) &lt;b&gt; | 1 | " r.md &&
	! grep -q "<b>" r.md
'

test_expect_success 'csv parses with the right column count' '
	python3 - r.csv <<-\PY
	import csv, sys
	rows = list(csv.reader(open(sys.argv[1], newline="")))
	assert len(rows) == 4 and all(len(r) == len(rows[0]) for r in rows), rows
	assert rows[1][1] == "acme/\\x1b[31mevil\\x07", rows[1]
	PY
'

test_expect_success 'summary text and md, gate-check: no control bytes' '
	tiadash --db s.db summary --since 2026-11-01 --until 2026-11-08 >s.txt && no_control s.txt &&
	tiadash --db s.db summary --since 2026-11-01 --until 2026-11-08 --format md >s.md && no_control s.md &&
	test_grep "missed tests/e.py::x\\\\x1b\[31mred\\\\x07bell" s.txt &&
	test_grep "explained: ESC \\\\x1b\[31m in a note\\\\x07" s.txt &&
	# A test id is a code span, fenced past its own backticks: shown as written.
	grep -qF "\`\`tests/p.py::t|<b>\`x\`_[y](z)\`\`" s.md &&
	test_expect_code 1 tiadash --db s.db gate-check --since 2026-11-01 --project "$(printf "x\033[31m")" >g.txt &&
	no_control g.txt &&
	test_grep "^gate-check: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, x\\\\x1b\[31m$" g.txt
'

test_expect_success 'html: no control bytes, no tag from the data, strings as the text shows them' '
	tiadash --db s.db report --format html -o r.html &&
	tiadash --db s.db summary --since 2026-11-01 --until 2026-11-08 --format html -o s.html &&
	test_expect_code 1 tiadash --db s.db gate-check --repo "$(printf "x\033[31m<b>")" \
		--format html -o g.html &&
	for f in r.html s.html g.html; do
		no_control $f && ! grep -n "<b>" $f || return 1
	done &&
	# An id may break after its / and :: (a <wbr> there).
	sed "s/<wbr>//g" r.html >r.flat &&
	grep -qF "tests/e.py::x\\x1b[31mred\\x07bell" r.flat &&
	grep -qF "tests/p.py::t|&lt;b&gt;\`x\`_[y](z)" r.flat &&
	grep -qF "force-full:\\x1b]0;pwned\\x07**/*.lock" r.flat &&
	grep -qF "| *bold* [link](x) &lt;b&gt;" r.flat &&
	grep -qF "tests/c1.py::x\\xc2\\x9b31mred\\xc2\\x85\\xe2\\x80\\xae" r.flat &&
	grep -qF "ESC \\x1b[31m in a note\\x07" r.flat &&
	grep -qF "x\\x1b[31m&lt;b&gt;" g.html
'

if [ -n "$CHROMIUM" ]; then
	test_expect_success 'Chromium shows the hostile strings as text, and builds no element of them' '
		html_doms r.html r.dom s.html s.dom g.html g.dom &&
		for p in r s g; do
			html_no_element $p.dom b a script &&
			html_text $p.dom >$p.seen || return 1
		done &&
		grep -qF "tests/p.py::t|<b>\`x\`_[y](z)" r.seen &&
		grep -qF "| *bold* [link](x) <b>" r.seen &&
		grep -qF "tests/e.py::x\\x1b[31mred\\x07bell" s.seen &&
		grep -qF "x\\x1b[31m<b>" g.seen
	'
else
	test_skip "chromium is not installed"
fi

test_done
