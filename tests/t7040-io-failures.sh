#!/bin/bash
# I/O failures (STYLE 10): reads that fail half way (the LD_PRELOAD shim
# tests/fuzz/failio.c fails every file named fail_* after FAILIO_AFTER
# bytes), a directory where a file is expected, and a full disk on stdout.
# Ingest names `file: reason`, stores nothing of the failed source, still
# ingests the others, and exits 2; a command whose output cannot be written
# exits 2.
. "$(dirname "$0")/lib.sh"

FAILIO=${FAILIO_SO:-$(dirname "$TT_BIN")/../fuzz/failio.so}
test -f "$FAILIO" || skip_all "the failio shim is not built ($FAILIO)"
# The shim comes before the sanitizer runtime in an ASan build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# failing AFTER CMD...: CMD with every fail_* file failing after AFTER bytes.
failing() {
	local after=$1; shift
	FAILIO_AFTER=$after LD_PRELOAD="$FAILIO" "$@"
}

# unchanged: the store holds what it held at the last `snapshot`.
snapshot() { store_dump s.db >before.dump; }
unchanged() { store_dump s.db >after.dump && test_cmp before.dump after.dump; }

cases='t.py::a t.py::b t.py::c:failed t.py::d t.py::e t.py::f'

test_expect_success 'setup: a repository, a store and sources with failing files' '
	git init -q repo && echo a >repo/a && (cd repo && commit_at 2026-11-02T00:00:00Z a) &&
	head=$(git -C repo rev-parse HEAD) && echo "$head" >head &&
	run() {
		write_run "$1" "\"head\": \"$head\", \"base\": \"$head\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"fail\", $2"
	} &&
	run good "\"kind\": \"full\", \"attempt\": 1, \"results\": [\"junit.xml\"]" &&
	junit good/junit.xml $cases &&
	run res "\"kind\": \"full\", \"attempt\": 2, \"results\": [\"fail_junit.xml\"]" &&
	junit res/fail_junit.xml $cases &&
	run cov "\"kind\": \"shadow\", \"results\": [\"junit.xml\"], \"coverage\": [\"fail_cov.info\"]" &&
	junit cov/junit.xml $cases &&
	{ echo "SF:a"; for i in $(seq 1 40); do echo "DA:$i,1"; done; echo end_of_record; } >cov/fail_cov.info &&
	run sel "\"kind\": \"shadow\", \"attempt\": 3, \"results\": [\"junit.xml\"], \"selection\": {\"decision\": \"selected\", \"selected_file\": \"fail_sel.txt\"}" &&
	junit sel/junit.xml $cases && seq 1 100 | sed "s|^|tests/t|" >sel/fail_sel.txt &&
	run qua "\"kind\": \"full\", \"attempt\": 4, \"results\": [\"junit.xml\"], \"quarantine\": \"fail_q.txt\"" &&
	junit qua/junit.xml $cases && seq 1 100 | sed "s|^|tests/q|" >qua/fail_q.txt &&
	mkdir man && printf "{\"schema\": \"tiadash.run.v1\", \"head\": \"%s\", \"base\": \"%s\", \"kind\": \"full\", \"attempt\": 5, \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"fail\", \"results\": [\"../good/junit.xml\"]                                                                    }\n" \
		"$head" "$head" >man/fail_run.tiadash.json &&
	run dir "\"kind\": \"full\", \"attempt\": 6, \"results\": [\"dir.xml\"]" &&
	mkdir dir/dir.xml &&
	tiadash --db s.db init >/dev/null
'

for after in 0 100; do
	test_expect_success "a result file failing after $after bytes: named, nothing stored, exit 2" '
		snapshot &&
		test_expect_code 2 failing '$after' tiadash --db s.db --repo repo ingest res >out 2>err &&
		echo "tiadash: error: cannot read '"'"'res/fail_junit.xml'"'"': Input/output error" >expect &&
		test_cmp expect err &&
		echo "0 new runs, 0 unchanged, 1 failed" >expect && test_cmp expect out &&
		unchanged
	'

	test_expect_success "coverage failing after $after bytes: named, nothing stored, exit 2" '
		snapshot &&
		test_expect_code 2 failing '$after' tiadash --db s.db --repo repo ingest cov >out 2>err &&
		echo "tiadash: error: cannot read '"'"'cov/fail_cov.info'"'"': Input/output error" >expect &&
		test_cmp expect err && unchanged
	'

	test_expect_success "a selection list failing after $after bytes: named, nothing stored, exit 2" '
		snapshot &&
		test_expect_code 2 failing '$after' tiadash --db s.db --repo repo ingest sel >out 2>err &&
		echo "tiadash: error: cannot read '"'"'sel/fail_sel.txt'"'"': Input/output error" >expect &&
		test_cmp expect err && unchanged
	'

	test_expect_success "a quarantine list failing after $after bytes: named, nothing stored, exit 2" '
		snapshot &&
		test_expect_code 2 failing '$after' tiadash --db s.db --repo repo ingest qua >out 2>err &&
		echo "tiadash: error: cannot read '"'"'qua/fail_q.txt'"'"': Input/output error" >expect &&
		test_cmp expect err && unchanged
	'

	test_expect_success "a manifest failing after $after bytes: named, nothing stored, exit 2" '
		snapshot &&
		test_expect_code 2 failing '$after' tiadash --db s.db --repo repo ingest man >out 2>err &&
		echo "tiadash: error: cannot read '"'"'man/fail_run.tiadash.json'"'"': Input/output error" >expect &&
		test_cmp expect err && unchanged
	'
done

test_expect_success 'a bare result file failing half way: named, nothing stored, exit 2' '
	snapshot &&
	test_expect_code 2 failing 100 tiadash --db s.db --repo repo ingest --kind full \
		--head "$(cat head)" --attempt 7 res/fail_junit.xml >out 2>err &&
	echo "tiadash: error: cannot read '"'"'res/fail_junit.xml'"'"': Input/output error" >expect &&
	test_cmp expect err && unchanged
'

test_expect_success 'a directory where a result file is expected: named, exit 2' '
	snapshot &&
	test_expect_code 2 tiadash --db s.db --repo repo ingest dir >out 2>err &&
	echo "tiadash: error: '"'"'dir/dir.xml'"'"' is a directory, not a file" >expect &&
	test_cmp expect err && unchanged
'

test_expect_success 'the failing sources fail alone: the good one beside them is stored' '
	test_expect_code 2 failing 100 tiadash --db s.db --repo repo ingest res good sel dir >out 2>err &&
	echo "1 new run, 0 unchanged, 3 failed" >expect && test_cmp expect out &&
	test "$(grep -c "^tiadash: error: cannot read" err)" = 2 &&
	test_grep "^tiadash: error: '"'"'dir/dir.xml'"'"' is a directory, not a file$" err &&
	sqlite3 s.db "SELECT kind, attempt, tests, failures FROM run" >actual &&
	echo "full|1|6|1" >expect && test_cmp expect actual &&
	failing 100 tiadash --db s.db --repo repo ingest good >out &&
	echo "0 new runs, 1 unchanged" >expect && test_cmp expect out
'

test_expect_success 'a directory as the store: named, exit 2' '
	mkdir store.d &&
	test_expect_code 2 tiadash --db store.d status >out 2>err &&
	echo "tiadash: error: store '"'"'store.d'"'"' is a directory" >expect && test_cmp expect err
'

test_expect_success 'a full disk on stdout: every command says so and exits 2' '
	echo "tiadash: error: cannot write output: No space left on device" >expect &&
	for c in "status" "status --format json" "show $(cat head)" "show $(cat head) --format json" \
		 "report" "report --format md" "report --format json" "report --format csv" \
		 "gate-check --format json" "summary" "rules --list" "help"; do
		test_expect_code 2 tiadash --db s.db --repo repo $c >/dev/full 2>err &&
		test_cmp expect err || { echo "in: $c" >&2; return 1; }
	done &&
	test_expect_code 2 tiadash --db s.db --repo repo replay --since 2026-11-01 >/dev/full 2>err &&
	test_cmp expect err &&
	test_expect_code 2 tiadash --db s.db --repo repo ingest good >/dev/full 2>err &&
	test_cmp expect err &&
	if has_command propose; then
		test_expect_code 2 tiadash --db s.db --repo repo propose >/dev/full 2>err &&
		test_cmp expect err
	fi
'

test_done
