#!/bin/bash
# One huge XML token: expat 2.5 rescans an unfinished token on every chunk
# it is fed, so a 40 MB JUnit name= took minutes and was stored whole.
# Now ingest feeds expat so a long token is read in linear time, refuses a
# test or file name over 64 KiB with file:line, and refuses any single
# token (a tag, a comment) over 16 MiB before it fills memory. Long free
# text (a failure message attribute of some MB) still goes in.
. "$(dirname "$0")/lib.sh"

# big FILE TEXT [N CHAR TEXT]...: the texts with N times CHAR between them.
big() {
	python3 - "$@" <<-\PY
	import sys
	args = sys.argv[2:]
	with open(sys.argv[1], "w") as out:
	    out.write(args[0].replace("\\n", "\n"))
	    for i in range(1, len(args), 3):
	        out.write(args[i + 1] * int(args[i]))
	        out.write(args[i + 2].replace("\\n", "\n"))
	PY
}

head=$(printf "%040d" 1)
bare() {
	tiadash --db s.db ingest --kind "$1" --head "$head" --started-at 2026-11-03T10:00:00Z \
		--verdict pass --decision run_all "${@:2}"
}
J='<?xml version="1.0"?>\n<testsuites><testsuite name="s">\n<testcase classname="x" name="'

test_expect_success 'a 64 KiB test name is stored whole' '
	big ok.xml "$J" 65536 n "\"/>\n</testsuite></testsuites>\n" &&
	bare full ok.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 s.db "SELECT tests FROM run" >actual && echo 1 >expect && test_cmp expect actual
'

test_expect_success 'a test name one byte over 64 KiB: refused with file:line' '
	big long.xml "$J" 65537 n "\"/>\n</testsuite></testsuites>\n" &&
	test_expect_code 2 bare full --attempt 2 long.xml >out 2>err &&
	echo "tiadash: error: long.xml:3: the name attribute of <testcase> is 65537 bytes, longer than the 65536-byte limit" >expect &&
	test_cmp expect err &&
	big cls.xml "<testsuites><testsuite name=\"s\">\n<testcase name=\"t\" classname=\"" 100000 c "\"/>\n</testsuite></testsuites>\n" &&
	test_expect_code 2 bare full --attempt 2 cls.xml >out 2>err &&
	echo "tiadash: error: cls.xml:2: the classname attribute of <testcase> is 100000 bytes, longer than the 65536-byte limit" >expect &&
	test_cmp expect err
'

test_expect_success "a 40 MB name: refused at the 16 MiB token cap, in bounded memory${TEST_ASAN:+ (not measured under ASan)}" '
	big huge.xml "$J" 41943040 a "\"/>\n</testsuite></testsuites>\n" &&
	test_expect_code 2 peak huge.kb "$TIADASH_BIN" --db s.db ingest --kind full --head "$head" \
		--attempt 3 --started-at 2026-11-03T10:00:00Z huge.xml >out 2>err &&
	echo "tiadash: error: huge.xml:3: one XML token (a tag with its attributes, a comment) is longer than 16777216 bytes" >expect &&
	test_cmp expect err &&
	rm huge.xml &&
	below huge.kb 64 &&
	sqlite3 s.db "SELECT count(*) FROM run" >actual && echo 1 >expect && test_cmp expect actual
'

test_expect_success 'a Cobertura filename over 64 KiB: refused with file:line' '
	big cob.xml "<coverage><packages><package name=\"p\"><classes>\n<class name=\"c\" filename=\"" 70000 f "\"><lines><line number=\"1\" hits=\"1\"/></lines></class></classes></package></packages></coverage>\n" &&
	test_expect_code 2 bare shadow cob.xml >out 2>err &&
	echo "tiadash: error: cob.xml:2: the filename attribute of <class> is 70000 bytes, longer than the 65536-byte limit" >expect &&
	test_cmp expect err
'

test_expect_success 'a failure message of 12 MB (free text, not a name) still goes in' '
	big msg.xml "$J" 1 m "\"><failure message=\"" 12582912 x "\"/></testcase>\n</testsuite></testsuites>\n" &&
	bare full --attempt 4 msg.xml >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 s.db "SELECT tests, failures FROM run WHERE attempt = 4" >actual &&
	echo "1|1" >expect && test_cmp expect actual
'

test_done
