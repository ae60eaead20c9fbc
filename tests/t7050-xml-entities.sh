#!/bin/bash
# XML from CI artifacts cannot reach outside itself: external entities and
# DTDs are never fetched (a FIFO stands in for the file: opening it would
# hang), an entity in an attribute is refused, entity expansion bombs are
# refused in bounded memory, and a DOCTYPE with an internal subset does not
# hide a bare report's root element from the format sniffing.
. "$(dirname "$0")/lib.sh"

sha() { printf '%040d' "$1"; }
bare() {
	local n=$1; shift
	tiadash --db s.db ingest --kind full --head "$(sha "$n")" --started-at 2026-11-03T10:00:00Z "$@"
}

test_expect_success 'setup: a trap standing in for a local file' '
	mkfifo trap &&
	echo "<!ENTITY leak \"LEAKED\">" >dtd.txt
'

test_expect_success 'an external DTD is not fetched' '
	printf "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite SYSTEM \"%s/trap\">\n<testsuite name=\"s\"><testcase classname=\"a\" name=\"t\"><failure/></testcase></testsuite>\n" \
		"$PWD" >dtd.xml &&
	TEST_TIMEOUT=20 bare 1 dtd.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 s.db "SELECT text FROM name ORDER BY text" >names &&
	printf "a\nt\n" >expect && test_cmp expect names
'

test_expect_success 'an external entity in text is not expanded, nor its file opened' '
	printf "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite [<!ENTITY x SYSTEM \"%s/trap\"><!ENTITY y SYSTEM \"file://%s/dtd.txt\">]>\n<testsuite name=\"s\"><testcase classname=\"b\" name=\"t\"><failure>&x;&y;</failure></testcase></testsuite>\n" \
		"$PWD" "$PWD" >ext.xml &&
	TEST_TIMEOUT=20 bare 2 ext.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	! sqlite3 s.db "SELECT text FROM name" | grep -q LEAKED
'

test_expect_success 'an external entity in an attribute: refused, named, nothing stored' '
	store_dump s.db >before &&
	printf "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite [<!ENTITY x SYSTEM \"%s/trap\">]>\n<testsuite name=\"s\"><testcase classname=\"c\" name=\"n&x;\"/></testsuite>\n" \
		"$PWD" >attr.xml &&
	TEST_TIMEOUT=20 test_expect_code 2 bare 3 attr.xml >out 2>err &&
	echo "tiadash: error: attr.xml:3: malformed XML: reference to external entity in attribute" >expect &&
	test_cmp expect err &&
	store_dump s.db >after && test_cmp before after
'

test_expect_success 'a billion laughs: refused in bounded memory, nothing stored' '
	python3 - >lol.xml <<-\PY
	print("<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite [\n<!ENTITY l0 \"lollollollollollollollollollol\">")
	for i in range(1, 10):
	    print("<!ENTITY l%d \"%s\">" % (i, ("&l%d;" % (i - 1)) * 10))
	print("]>\n<testsuite name=\"s\"><testcase classname=\"d\" name=\"&l9;\"/></testsuite>")
	PY
	store_dump s.db >before &&
	test_expect_code 2 bare 4 lol.xml >out 2>err &&
	echo "tiadash: error: lol.xml:14: malformed XML: limit on input amplification factor (from DTD and entities) breached" >expect &&
	test_cmp expect err &&
	store_dump s.db >after && test_cmp before after
'

test_expect_success 'internal entities still work, and a DOCTYPE subset does not hide the root' '
	printf "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuites [\n<!ENTITY who \"db&#x2d;tests\">\n]>\n<testsuites><testsuite name=\"s\"><testcase classname=\"&who;\" name=\"t&amp;u\"><error/></testcase></testsuite></testsuites>\n" >int.xml &&
	bare 5 int.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 s.db "SELECT n.text FROM result r JOIN name n ON n.id IN (r.suite_id, r.case_id) JOIN run ON run.id = r.run_id JOIN head h ON h.id = run.head_id WHERE h.sha = '"'"'$(sha 5)'"'"' ORDER BY 1" >names &&
	printf "db-tests\nt&u\n" >expect && test_cmp expect names
'

test_done
