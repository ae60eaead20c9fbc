#!/bin/bash
# A JUnit report of 8 MB or more is parsed in two halves at once
# (ingest/junit.c): what is stored is what one parser stores, whether the
# second half's start is proven (the report split in two files, each parsed
# alone, is the reference) or not (a DTD, nested suites, a CDATA section or
# a comment across the middle: the first parser goes on alone); a
# malformed second half is reported at its own line, and nothing is stored.
. "$(dirname "$0")/lib.sh"

# gen SHAPE OUT [HALF1 HALF2]: a 9 MB report; with HALF1 and HALF2, the same
# cases split in two reports at a suite boundary.
gen() {
	python3 - "$@" <<-\PY
	import sys
	shape, out = sys.argv[1], sys.argv[2]
	halves = sys.argv[3:]
	head = '<?xml version="1.0" encoding="UTF-8"?>\n'
	if shape == "dtd":
	    head += '<!DOCTYPE testsuites [<!ATTLIST testcase classname CDATA "dflt">]>\n'
	suites, n = [], 0
	while sum(len(s) for s in suites) < 9 << 20:
	    k = len(suites)
	    lines = ['<testsuite name="s%d">\n' % k]
	    if shape == "nested":
	        lines[0] = '<testsuite name="outer%d">\n' % k + lines[0]
	    for _ in range(5000):
	        cls = '' if shape == "dtd" else ' classname="tests/s%d.py"' % k
	        if n % 9973 == 9972:
	            lines.append('<testcase%s name="test_%d" time="0.001"><failure message="boom %d">'
	                         'trace %d</failure></testcase>\n' % (cls, n, n, n))
	        else:
	            lines.append('<testcase%s name="test_%d" time="0.001"/>\n' % (cls, n))
	        n += 1
	        if shape in ("cdata", "comment") and k == 13 and n % 5000 == 1000:
	            fake = ''.join('<testcase name="fake_%d"/>\n' % i for i in range(60000))
	            lines.append('<system-out><![CDATA[' + fake + ']]></system-out>\n' if shape == "cdata"
	                         else '<!--\n' + fake + '-->\n')
	    lines.append('</testsuite>\n' * (2 if shape == "nested" else 1))
	    suites.append(''.join(lines))
	if shape == "bad":
	    suites[-3] = suites[-3].replace('</testsuite>', '</testsuit>')
	def write(path, part):
	    with open(path, "w") as f:
	        f.write(head + '<testsuites>\n' + ''.join(part) + '</testsuites>\n')
	write(out, suites)
	if halves:
	    write(halves[0], suites[:len(suites) // 2])
	    write(halves[1], suites[len(suites) // 2:])
	if shape == "bad":
	    text = open(out).read()
	    print(text[:text.index('</testsuit>')].count('\n') + 1)
	PY
}

# fp DB: what a run stored of its cases (one run per store).
fp() {
	sqlite3 "$1" "SELECT tests, failures, errors FROM run;
		SELECT s.text, c.text, r.outcome, r.count, r.digest, r.excerpt FROM result r
			JOIN name s ON s.id = r.suite_id JOIN name c ON c.id = r.case_id ORDER BY 1, 2;
		SELECT n.text, hex(g.cases) FROM test_group g JOIN name n ON n.id = g.suite_id ORDER BY 1;"
}

ing() {
	db=$1; shift
	tiadash --db "$db" ingest --kind full --head 1111111111111111111111111111111111111111 "$@" 2>err
}

for shape in plain dtd nested; do
	test_expect_success "$shape: the report parsed in halves stores what its two halves store" '
		gen '$shape' '$shape'.xml a.xml b.xml &&
		test $(stat -c %s '$shape'.xml) -ge $((8 << 20)) &&
		ing one.db '$shape'.xml >out && ing two.db a.xml b.xml >>out &&
		fp one.db >one && fp two.db >two && test_cmp two one &&
		test $(grep -c . two) -gt 20 &&
		rm -f one.db two.db a.xml b.xml '$shape'.xml
	'
done

test_expect_success 'a DTD default attribute holds in the second half too' '
	gen dtd d.xml && ing d.db d.xml &&
	sqlite3 d.db "SELECT DISTINCT n.text FROM test_group g JOIN name n ON n.id = g.suite_id" >actual &&
	echo dflt >expect && test_cmp expect actual
'

for shape in cdata comment; do
	test_expect_success "$shape: test cases written inside one across the middle are not tests" '
		gen '$shape' '$shape'.xml && ing '$shape'.db '$shape'.xml &&
		sqlite3 '$shape'.db "SELECT tests, failures FROM run" >actual &&
		n=$(grep -c "<testcase classname" '$shape'.xml) &&
		f=$(grep -c "<failure" '$shape'.xml) &&
		echo "$n|$f" >expect && test_cmp expect actual &&
		rm '$shape'.xml
	'
done

test_expect_success 'a malformed second half: its line, and nothing stored' '
	line=$(gen bad bad.xml) &&
	test_expect_code 2 ing bad.db bad.xml &&
	test_grep "bad.xml:$line: malformed XML: mismatched tag" err &&
	sqlite3 bad.db "SELECT count(*) FROM run" >actual &&
	echo 0 >expect && test_cmp expect actual
'

test_done
