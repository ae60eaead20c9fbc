#!/bin/bash
# Hostile strings end to end: terminal escapes (ESC [ 31 m, OSC, BEL), C1
# CSI (U+009B), the bidi override U+202E, an invalid UTF-8 byte and markdown
# syntax in test ids (a manifest's failed list, a selection list), selection
# entries and reasons, the repository name, commit subjects and file paths
# (git allows them all), pushed through every batch command. Text, md and
# csv carry no byte < 0x20 but newline and tab, no DEL, no raw C1, no raw
# bidi control, and are valid UTF-8; markdown escapes what it would
# interpret; JSON is strict UTF-8 with the exact strings, invalid bytes as
# U+FFFD, every control character as a \uXXXX escape; HTML shows them as
# the text does, as text: Chromium builds no element from them.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-html.sh"

# clean FILE...: what a terminal may safely be shown.
clean() {
	python3 - "$@" <<-\PY
	import sys
	bad = []
	for path in sys.argv[1:]:
	    b = open(path, "rb").read()
	    for i, c in enumerate(b):
	        if (c < 0x20 and c not in (9, 10)) or c == 0x7f:
	            bad.append("%s: byte 0x%02x at offset %d" % (path, c, i)); break
	    try:
	        t = b.decode("utf-8")
	    except UnicodeDecodeError as e:
	        bad.append("%s: not UTF-8: %s" % (path, e)); continue
	    for ch in t:
	        o = ord(ch)
	        if 0x80 <= o <= 0x9f or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069:
	            bad.append("%s: raw U+%04X" % (path, o)); break
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# md_safe FILE...: no markdown syntax from the data survives unescaped.
md_safe() {
	python3 - "$@" <<-\PY
	import re, sys
	bad = []
	for path in sys.argv[1:]:
	    t = open(path, encoding="utf-8").read()
	    # A code span (a run of backticks to the next run of as many) shows
	    # its text as written: markdown builds nothing of what is inside.
	    t = re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", "", t)
	    for raw in ("<b>", "`x`", "|*_", "[l](x)", "*bold*"):
	        if raw in t:
	            bad.append("%s: unescaped %r" % (path, raw))
	    for line in t.splitlines():
	        if line.startswith("# heading") or line.startswith("#head"):
	            bad.append("%s: a data line opens a heading: %r" % (path, line))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
}

# has_line FILE TEXT: FILE has TEXT (taken literally) as a whole line.
has_line() {
	if ! grep -qxF -e "$2" "$1"; then
		echo "no line '$2' in $1:" >&2
		cat "$1" >&2
		return 1
	fi
}

# json_utf8 FILE: strict UTF-8, valid JSON, safe on a terminal (DEL, C1 and
# bidi controls as \uXXXX escapes, as cJSON writes C0).
json_utf8() {
	python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8","strict"))' "$1" &&
	clean "$1"
}

# What the data holds: H in a file name, a test id and a selection entry.
ESC=$(printf '\033') BEL=$(printf '\007') CSI=$(printf '\302\233')
RLO=$(printf '\342\200\256') FF=$(printf '\377')
H="e${ESC}[31mvil${BEL}${CSI}2J${RLO}gpj.exe"
HPATH="src/$H$FF|*_\`x\`<b>.py"
# ...and how text output shows H.
H_SHOWN='e\x1b[31mvil\x07\xc2\x9b2J\xe2\x80\xaegpj.exe'
week="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup: a repository with a hostile file name and commit subject' '
	git init -q repo &&
	mkdir repo/src && echo base >repo/src/base.py &&
	# the test files the full run fails in, so its names resolve (missed, not unresolved)
	mkdir -p repo/tests && for t in "tests/$H.py" "# heading$BEL" "tests/inv$FF.py" "${CSI}0m"; do
		echo "def t(): pass" >"repo/$t" || return 1
	done &&
	(cd repo && commit_at 2026-11-02T00:00:00Z base) &&
	git -C repo rev-parse HEAD >base &&
	git -C repo checkout -q -b pr5 &&
	printf "x = 1\ny = 2\n" >"repo/$HPATH" &&
	printf "#hdr\n" >"repo/#lead.py" &&
	(cd repo && commit_at 2026-11-03T00:00:00Z "add it (#5)") &&
	git -C repo rev-parse HEAD >head &&
	git -C repo checkout -q main &&
	# git commit re-encodes a message that is not UTF-8: write the merge
	# commit object by hand, with a raw 0xff in its subject.
	{
		echo "tree $(git -C repo rev-parse pr5^{tree})" &&
		echo "parent $(cat base)" && echo "parent $(cat head)" &&
		echo "author T <t@example.com> 1793671200 +0000" &&
		echo "committer T <t@example.com> 1793671200 +0000" &&
		echo &&
		printf "Merge pull request #5 from ${ESC}]0;pwned${BEL}/${RLO}x${CSI}1m${FF}|*_\`x\`<b>\n"
	} >merge.txt &&
	merge=$(git -C repo hash-object -t commit -w --stdin <merge.txt) &&
	git -C repo update-ref refs/heads/main "$merge" &&
	git -C repo log -1 --format=%s main | od -c | grep -q "377"
'

test_expect_success 'setup: manifests, lists and coverage with hostile strings' '
	python3 - "$(cat base)" "$(cat head)" <<-\PY
	import json, os, sys
	base, head = sys.argv[1], sys.argv[2]
	ESC, BEL, CSI, RLO = "\x1b", "\x07", "\u009b", "\u202e"
	H = "e%s[31mvil%s%s2J%sgpj.exe" % (ESC, BEL, CSI, RLO)
	def write(path, obj):
	    os.makedirs(os.path.dirname(path), exist_ok=True)
	    # @FF@ becomes a raw 0xff byte: JSON cannot say it, a file can.
	    data = json.dumps(obj, ensure_ascii=False).encode().replace(b"@FF@", b"\xff")
	    open(path, "wb").write(data)
	def junit(path, names):
	    with open(path, "w") as f:
	        f.write("<?xml version=\"1.0\"?><testsuite name=\"s\">")
	        for n in names:
	            f.write("<testcase file=\"tests/ok.py\" name=\"%s\"/>" % n)
	        f.write("</testsuite>")
	common = dict(schema="tiadash.run.v1", repo="acme/%s[31mx%s" % (ESC, BEL), pr=5,
	              base=base, head=head, attempt=1, started_at="2026-11-03T10:00:00Z")
	os.makedirs("a/5s")
	open("a/5s/sel.txt", "wb").write(
	    ("tests/ok.py\ntests/%s.py::t|*_`x`<b>\n%stests/rlo.py\n" % (H, RLO)).encode()
	    + b"tests/bad\xff.py\n")
	write("a/5s/tiadash-run.json", dict(common, kind="shadow", wall_clock_s=60, verdict="pass",
	      selection=dict(decision="selected", reasons=["select:%s[1m%s" % (ESC, BEL), "@FF@-reason"],
	                     total_tests=100, selected_count=3, selected_file="sel.txt"),
	      results=["junit.xml"], coverage=["cov.info"]))
	junit("a/5s/junit.xml", ["a", "b"])
	open("a/5s/cov.info", "wb").write(b"SF:/home/runner/work/x/x/src/" + H.encode()
	    + b"\xff|*_`x`<b>.py\nDA:1,1\nDA:2,0\nend_of_record\n")
	write("a/5f/tiadash-run.json", dict(common, kind="full", wall_clock_s=600, verdict="fail",
	      failed=["tests/%s.py::t%s[31m" % (H, ESC), "# heading%s::|*_`x`<b>" % BEL,
	              "tests/inv@FF@.py::t", "%s0m::%s" % (CSI, RLO)],
	      results=["junit.xml"]))
	junit("a/5f/junit.xml", ["a", "b", "c"])
	# PR 6: no such commit (git-unknown), forced full for hostile reasons.
	c6 = dict(common, pr=6, head="6" * 40)
	write("a/6s/tiadash-run.json", dict(c6, kind="shadow", wall_clock_s=600, verdict="pass",
	      selection=dict(decision="run_all", total_tests=100, reasons=[
	          "force-full:%s]0;pwned%s**/*.lock" % (ESC, BEL), "| *bold* [l](x) <b> %s" % CSI,
	          "#head @FF@"]),
	      results=["junit.xml"]))
	junit("a/6s/junit.xml", ["a"])
	write("a/6f/tiadash-run.json", dict(c6, kind="full", wall_clock_s=600, verdict="pass",
	      results=["junit.xml"]))
	junit("a/6f/junit.xml", ["a"])
	PY
	tiadash --db s.db --repo repo ingest a >out 2>err &&
	echo "4 new runs, 0 unchanged (2 with unknown commits)" >expect &&
	test_cmp expect out && clean err
'

test_expect_success 'ingest errors name hostile paths and values escaped' '
	mkdir -p bad1 bad2 &&
	printf "{\"schema\": \"tiadash.run.v1\", \"base\": \"%s\", \"head\": \"%s\", \"kind\": \"\\\\u001b[31mx\\\\u0007\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\"}\n" \
		"$(cat base)" "$(cat head)" >bad1/tiadash-run.json &&
	printf "{\"schema\": \"tiadash.run.v1\", \"base\": \"%s\", \"head\": \"%s\", \"kind\": \"full\", \"attempt\": 9, \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"%s.xml\"]}\n" \
		"$(cat base)" "$(cat head)" "$H" >bad2/tiadash-run.json &&
	test_expect_code 2 tiadash --db s.db --repo repo ingest bad1 bad2 >out 2>err &&
	clean err &&
	grep -F "'"'"'kind'"'"' must be shadow or full, not '"'"'\\x1b[31mx\\x07'"'"'" err &&
	grep -F "'"'"'bad2/$H_SHOWN.xml'"'"': No such file" err
'

test_expect_success 'status: text clean, json valid' '
	tiadash --db s.db status >st.txt && clean st.txt &&
	tiadash --db s.db status --format json >st.json && json_utf8 st.json
'

test_expect_success 'show: text escapes every hostile string' '
	tiadash --db s.db --repo repo show 5 >show.txt && clean show.txt &&
	has_line show.txt "missed      # heading\\x07::|*_\`x\`<b>" &&
	has_line show.txt "            tests/$H_SHOWN.py::t\\x1b[31m" &&
	has_line show.txt "            tests/inv\\xff.py::t  (blind spot: no narrowed selection names it)" &&
	has_line show.txt "            \\xc2\\x9b0m::\\xe2\\x80\\xae" &&
	test "$(grep -c "^ *(blind spot: no narrowed selection names it)$" show.txt)" = 3 &&
	has_line show.txt "            A src/$H_SHOWN\\xff|*_\`x\`<b>.py" &&
	has_line show.txt "reasons     select:\\x1b[1m\\x07" &&
	tiadash --db s.db --repo repo show 6 >show6.txt && clean show6.txt
'

test_expect_success 'show json: the exact strings, 0xff as U+FFFD' '
	tiadash --db s.db --repo repo show 5 --format json >show.json && json_utf8 show.json &&
	python3 - show.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	H = "e\x1b[31mvil\x07\x9b2J\u202egpj.exe"
	assert d["missed"] == ["# heading\x07::|*_`x`<b>", "tests/%s.py::t\x1b[31m" % H,
	                       "tests/inv\ufffd.py::t", "\x9b0m::\u202e"], d["missed"]
	assert [c["path"] for c in d["changed"]] == ["#lead.py", "src/%s\ufffd|*_`x`<b>.py" % H], d["changed"]
	assert d["selection"]["reasons"] == ["select:\x1b[1m\x07", "\ufffd-reason"], d["selection"]
	PY
'

test_expect_success 'report: text, md and csv clean; md escaped; json exact' '
	for f in text md csv json; do
		tiadash --db s.db report $week --format $f >report.$f || return 1
	done &&
	clean report.text report.md report.csv && md_safe report.md && json_utf8 report.json &&
	test_grep "\\\\# heading\\\\\\\\x07::\\\\|\\\\\*\\\\_\\\\\`x\\\\\`&lt;b&gt;" report.md &&
	python3 - report.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert d["escapes"]["list"][0]["missed"][2] == "tests/inv\ufffd.py::t", d["escapes"]
	assert sorted(d["force_full"]["by_reason"]) == ["#head \ufffd",
	    "force-full:\x1b]0;pwned\x07**/*.lock", "| *bold* [l](x) <b> \x9b"], d["force_full"]
	PY
'

test_expect_success 'gate-check and summary: clean, md escaped' '
	test_expect_code 1 tiadash --db s.db gate-check $week >gate.txt &&
	test_expect_code 1 tiadash --db s.db gate-check $week --format json >gate.json &&
	tiadash --db s.db summary $week >sum.txt &&
	tiadash --db s.db summary $week --format md >sum.md &&
	clean gate.txt sum.txt sum.md && md_safe sum.md && json_utf8 gate.json &&
	test_grep "acme/\\\\\\\\x1b\\\\\[31mx\\\\\\\\x07" sum.md
'

printf 'src/e\033\\[31m*\nrun_all #lead.py\n' >"$TRASH/hostile.rules"

test_expect_success 'replay: subjects and rules escaped in every format' '
	for f in text md csv json; do
		tiadash --db s.db --repo repo replay $week --rules hostile.rules \
			--what-if "$(printf "**/*\033\\\\[1m*")" --format $f >replay.$f || return 1
	done &&
	clean replay.text replay.md replay.csv && md_safe replay.md && json_utf8 replay.json &&
	test_grep "force-full:src/e\\\\x1b\\\\\[31m\*" replay.text &&
	python3 - replay.json <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["changes"][0]
	assert c["pr"] == 5, c
	assert c["subject"] == "Merge pull request #5 from \x1b]0;pwned\x07/\u202ex\x9b1m\ufffd|*_`x`<b>", c["subject"]
	assert c["reasons"] == ["force-full:#lead.py", "force-full:src/e\x1b\\[31m*"], c["reasons"]
	PY
'

test_expect_success 'rules --test and --list: hostile paths and globs escaped' '
	printf "%s\n#lead.py\n" "$HPATH" |
		tiadash --repo repo rules --rules hostile.rules --test >rules.txt &&
	printf "%s\n#lead.py\n" "$HPATH" |
		tiadash --repo repo rules --rules hostile.rules --test --format json >rules.json &&
	tiadash --repo repo rules --rules hostile.rules --list >list.txt &&
	clean rules.txt list.txt && json_utf8 rules.json &&
	has_line rules.txt "src/$H_SHOWN\\xff|*_\`x\`<b>.py  run_all  src/e\\x1b\\[31m*  hostile.rules:1  (in effect: hostile.rules)" &&
	test_grep "^run_all  src/e\\\\x1b\\\\\[31m\* " list.txt
'

if has_command propose; then
	test_expect_success 'propose: evidence and candidates escaped' '
		for f in text md json; do
			tiadash --db s.db --repo repo propose $week --format $f >prop.$f || return 1
		done &&
		clean prop.text prop.md && md_safe prop.md && json_utf8 prop.json &&
		grep -F "src/$H_SHOWN\\xff|*_\`x\`<b>.py" prop.text
	'
fi

test_expect_success 'html pages: clean, no tag of the data, strings as the text shows them' '
	tiadash --db s.db report $week --format html -o report.html &&
	test_expect_code 1 tiadash --db s.db gate-check $week --format html -o gate.html &&
	tiadash --db s.db summary $week --format html -o sum.html &&
	tiadash --db s.db --repo repo replay $week --rules hostile.rules \
		--what-if "$(printf "**/*\033\\\\[1m*")" --format html -o replay.html &&
	pages="report.html gate.html sum.html replay.html" &&
	if has_command propose; then
		tiadash --db s.db --repo repo propose $week --format html -o prop.html &&
		pages="$pages prop.html"
	fi &&
	clean $pages && ! grep -n "<b>" $pages &&
	# An id may break after its / and :: (a <wbr> there).
	for p in $pages; do sed "s/<wbr>//g" $p >$p.flat || return 1; done &&
	grep -qF "tests/$H_SHOWN.py::t\\x1b[31m" report.html.flat &&
	grep -qF "# heading\\x07::|*_\`x\`&lt;b&gt;" report.html.flat &&
	grep -qF "| *bold* [l](x) &lt;b&gt; \\xc2\\x9b" report.html.flat &&
	grep -qF "force-full:src/e\\x1b\\[31m*" replay.html.flat &&
	{ ! has_command propose || grep -qF "src/$H_SHOWN\\xff|*_\`x\`&lt;b&gt;.py" prop.html.flat; }
'

if [ -n "$CHROMIUM" ]; then
	test_expect_success 'Chromium shows them as text, and builds no element of them' '
		html_doms report.html report.dom replay.html replay.dom &&
		for p in report replay; do
			html_no_element $p.dom b a script &&
			html_text $p.dom >$p.seen || return 1
		done &&
		grep -qF "# heading\\x07::|*_\`x\`<b>" report.seen &&
		grep -qF "tests/$H_SHOWN.py::t\\x1b[31m" report.seen &&
		grep -qF "force-full:src/e\\x1b\\[31m*" replay.seen
	'
else
	test_skip "chromium is not installed"
fi

test_done
