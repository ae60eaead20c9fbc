#!/bin/bash
# `tiadash record` takes .mq-failed-tests.txt as the run's failures only
# when the command wrote it: a list an earlier attempt left a moment
# before the command started (within the same second) is not this run's,
# and a green run is stored green. The file is compared with what it was
# before the command (inode, size, nanosecond mtime and ctime), so this
# holds on any file system, and the job's file is never moved or changed.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup: a repository' '
	make_repo repo
'

test_expect_success 'a list left just before the command started is not this run'"'"'s' '
	cd repo && echo tests/test_a.py::test_old >.mq-failed-tests.txt &&
	stat -c "%i %s %y %z" .mq-failed-tests.txt >../before &&
	tiadash record --kind full --out ../stale/run -- true </dev/null &&
	test "$(mf ../stale/run/tiadash-run.json "(d[\"verdict\"], \"failed\" in d)")" = "('"'"'pass'"'"', False)" &&
	stat -c "%i %s %y %z" .mq-failed-tests.txt >../after && test_cmp ../before ../after &&
	echo tests/test_a.py::test_old >expect && test_cmp expect .mq-failed-tests.txt
'

test_expect_success 'the command rewriting it at once (same content, same second) counts' '
	cd repo && echo tests/test_a.py::test_old >.mq-failed-tests.txt &&
	tiadash record --kind full --out ../rewrite/run -- \
		sh -c "echo tests/test_a.py::test_old >.mq-failed-tests.txt; exit 1" </dev/null ||
	test $? = 1 &&
	test "$(mf ../rewrite/run/tiadash-run.json "json.dumps(d[\"failed\"])")" = "[\"tests/test_a.py::test_old\"]"
'

test_expect_success 'replaced by another file, or written where there was none: counts' '
	cd repo && echo tests/test_a.py::test_old >.mq-failed-tests.txt &&
	tiadash record --kind full --out ../moved/run -- \
		sh -c "echo tests/test_a.py::test_new >x.tmp && mv x.tmp .mq-failed-tests.txt" </dev/null &&
	test "$(mf ../moved/run/tiadash-run.json "json.dumps(d[\"failed\"])")" = "[\"tests/test_a.py::test_new\"]" &&
	rm .mq-failed-tests.txt &&
	tiadash record --kind full --out ../fresh/run -- \
		sh -c "echo tests/test_a.py::test_one >.mq-failed-tests.txt" </dev/null &&
	test "$(mf ../fresh/run/tiadash-run.json "json.dumps(d[\"failed\"])")" = "[\"tests/test_a.py::test_one\"]"
'

test_done
