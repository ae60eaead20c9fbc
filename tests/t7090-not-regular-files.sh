#!/bin/bash
# A FIFO, a device or a socket where ingest expects a file (a manifest on
# the command line, one the folder walk finds, a result it names, a bare
# file) would block ingest forever or never end: each is refused at once,
# without a writer ever coming, saying what it is; the other sources land.
. "$(dirname "$0")/lib.sh"

# No writer ever opens these FIFOs: a reader that blocks would wait for
# the watchdog, so the commands run under a short one of their own.
quick() {
	timeout -k 2 20 "$TIADASH_BIN" --repo repo "$@"
}

test_expect_success 'setup: a good run, FIFOs as a manifest and as a result' '
	git init -q repo && echo a >repo/a && (cd repo && commit_at 2026-11-02T00:00:00Z a) &&
	head=$(git -C repo rev-parse HEAD) && echo "$head" >head &&
	write_run good "\"head\": \"$head\", \"base\": \"$head\", \"kind\": \"full\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"]" &&
	junit good/junit.xml t.py::a &&
	write_run res "\"head\": \"$head\", \"base\": \"$head\", \"kind\": \"full\", \"attempt\": 2, \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"]" &&
	mkfifo res/junit.xml &&
	mkdir walk && mkfifo walk/tiadash-run.json &&
	mkfifo m.tiadash.json &&
	tiadash --db s.db init >/dev/null
'

test_expect_success 'a FIFO as a manifest on the command line: refused at once, why' '
	test_expect_code 2 quick --db s.db ingest m.tiadash.json good >out 2>err &&
	echo "tiadash: error: '"'"'m.tiadash.json'"'"' is a FIFO, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err &&
	echo "1 new run, 0 unchanged, 1 failed" >expect && test_cmp expect out
'

test_expect_success 'a FIFO the folder walk finds: refused at once' '
	test_expect_code 2 quick --db s.db ingest walk >out 2>err &&
	echo "tiadash: error: '"'"'walk/tiadash-run.json'"'"' is a FIFO, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err
'

test_expect_success 'a FIFO as a result of a manifest: refused at once, nothing stored' '
	test_expect_code 2 quick --db s.db ingest res >out 2>err &&
	echo "tiadash: error: '"'"'res/junit.xml'"'"' is a FIFO, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err &&
	echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 1
'

test_expect_success 'a FIFO and a character device as bare files: refused' '
	test_expect_code 2 quick --db s.db ingest --kind full --head "$(cat head)" --attempt 3 \
		--started-at 2026-11-03T10:00:00Z res/junit.xml >out 2>err &&
	echo "tiadash: error: '"'"'res/junit.xml'"'"' is a FIFO, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err &&
	test_expect_code 2 quick --db s.db ingest --kind full --head "$(cat head)" --attempt 3 \
		--started-at 2026-11-03T10:00:00Z /dev/zero >out 2>err &&
	echo "tiadash: error: '"'"'/dev/zero'"'"' is a character device, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err &&
	test "$(sqlite3 s.db "SELECT count(*) FROM run")" = 1
'

test_expect_success 'a socket as a result: refused' '
	write_run sock "\"head\": \"$(cat head)\", \"base\": \"$(cat head)\", \"kind\": \"full\", \"attempt\": 4, \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\", \"results\": [\"junit.xml\"]" &&
	python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"sock/junit.xml\")" &&
	test_expect_code 2 quick --db s.db ingest sock >out 2>err &&
	echo "tiadash: error: '"'"'sock/junit.xml'"'"' is a socket, not a regular file: refused" >expect &&
	test_cmp expect err
'

test_done
