#!/bin/bash
# Bounded resources (SPEC 9: ingest streams): a 200 MB JUnit report in
# bounded memory, a commit touching 10^5 files, a selection of 10^6 tests,
# a manifest naming 10^4 result files, XML nested a million deep and JSON
# nested too deep (refused, named, in bounded memory), and the size caps on
# manifests and list lines. tests/bench/resources.sh runs the full sizes
# (2 GB, 10^5 result files) and prints their peaks.
. "$(dirname "$0")/lib.sh"

GEN="$TEST_SRC/fuzz/gen-big.py"
# Smaller under ASan, where peaks are not asserted (lib.sh's below).
if [ -n "$TEST_ASAN" ]; then
	asan=1 junit_mb=20 nsel=100000
else
	asan= junit_mb=200 nsel=1000000
fi

# report FILE WHAT: note the peak in FILE; the notes are printed at the end.
report() {
	echo "# peak RSS $(($(cat "$1") / 1024)) MB: $2" >>"$TRASH/peaks"
}

t="timeout -k 5 600 $TIADASH_BIN"

# A manifest naming a report on disk (a FIFO would be refused): ingest
# reads it as a stream, so memory does not grow with its size.
test_expect_success "a ${junit_mb} MB JUnit report streams in under 64 MB${asan:+ (not measured under ASan)}" '
	mkdir big &&
	printf "{\"schema\": \"tiadash.run.v1\", \"head\": \"%040d\", \"base\": \"%040d\", \"kind\": \"full\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"fail\", \"results\": [\"junit.xml\"]}\n" 1 0 \
		>big/tiadash-run.json &&
	python3 "$GEN" junit "$junit_mb" counts >big/junit.xml &&
	peak big.kb $t --db big.db ingest big >out 2>err &&
	rm big/junit.xml &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	sqlite3 big.db "SELECT tests || '"' '"' || failures, verdict FROM run" >actual &&
	echo "$(cat counts)|fail" >expect && test_cmp expect actual &&
	report big.kb "ingest of a $junit_mb MB JUnit report" &&
	below big.kb 64
'

test_expect_success 'a commit touching 10^5 files: the diff is stored, show lists it' '
	git init -q repo &&
	python3 "$GEN" commit 100000 repo >shas && read base head <shas &&
	peak commit.kb $t --db c.db --repo repo ingest --kind shadow --head "$head" --base "$base" \
		--pr 1 --started-at 2026-11-03T10:00:00Z --decision run_all --verdict pass >out &&
	report commit.kb "ingest of a run whose diff adds 10^5 files" &&
	sqlite3 c.db "SELECT count(*), count(DISTINCT path), min(added), max(added) FROM diff_file" >actual &&
	echo "100000|100000|1-2|1-2" >expect && test_cmp expect actual &&
	$t --db c.db show 1 --format json >show.json &&
	json_get show.json "len(d[\"changed\"])" >n && echo 100000 >expect && test_cmp expect n
'

test_expect_success "a selection of $nsel tests: stored whole, read back whole" '
	read base head <shas &&
	python3 "$GEN" selection "$nsel" >sel.txt &&
	peak sel.kb $t --db c.db --repo repo ingest --kind shadow --head "$head" --base "$base" \
		--pr 1 --attempt 2 --started-at 2026-11-03T11:00:00Z --selection sel.txt \
		--selected-count "$nsel" --total-tests $((nsel * 3)) --verdict pass >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	report sel.kb "ingest of a selection of $nsel tests" &&
	$t --db c.db show 1 --format json >show.json &&
	python3 - show.json sel.txt <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	want = sorted(open(sys.argv[2]).read().split())
	s = d["selection"]
	assert s["decision"] == "selected" and s["selected_count"] == len(want), s["decision"]
	assert s["entries"] == want, (len(s["entries"]), len(want))
	PY
'

test_expect_success 'a manifest naming 10^4 result files ingests them all' '
	read base head <shas &&
	python3 "$GEN" results 10000 res "$base" "$head" &&
	peak res.kb $t --db c.db --repo repo ingest res >out &&
	echo "1 new run, 0 unchanged" >expect && test_cmp expect out &&
	report res.kb "ingest of a manifest naming 10^4 result files" &&
	sqlite3 c.db "SELECT tests FROM run WHERE kind = '"'"'full'"'"'" >actual &&
	echo 10000 >expect && test_cmp expect actual
'

test_expect_success 'JUnit nested a million deep: refused at the depth limit, named, bounded' '
	python3 "$GEN" deep-xml 1000000 >deep.xml &&
	test_expect_code 2 peak deep.kb $t --db d.db ingest --kind full \
		--head "$(printf "%040d" 2)" --started-at 2026-11-03T10:00:00Z deep.xml >out 2>err &&
	echo "tiadash: error: deep.xml:2: elements nested deeper than 10000" >expect &&
	test_cmp expect err && report deep.kb "JUnit nested 10^6 deep, refused" &&
	below deep.kb 64 &&
	sqlite3 d.db "SELECT count(*) FROM run" >runs && echo 0 >expect && test_cmp expect runs
'

test_expect_success 'Cobertura nested a million deep: refused the same way' '
	python3 "$GEN" deep-xml 1000000 | sed "s/<testsuite name=\"deep\">/<coverage>/; s/<\/testsuite>/<\/coverage>/" >deep-cov.xml &&
	junit ok.xml t::a &&
	test_expect_code 2 peak cov.kb $t --db d.db ingest --kind full \
		--head "$(printf "%040d" 2)" --started-at 2026-11-03T10:00:00Z ok.xml deep-cov.xml >out 2>err &&
	echo "tiadash: error: deep-cov.xml:2: elements nested deeper than 10000" >expect &&
	test_cmp expect err && report cov.kb "Cobertura nested 10^6 deep, refused" &&
	below cov.kb 64
'

test_expect_success 'a manifest nested a million deep: refused, named' '
	mkdir dj && python3 "$GEN" deep-json 1000000 >dj/tiadash-run.json &&
	test_expect_code 2 $t --db d.db ingest dj >out 2>err &&
	echo "tiadash: error: dj/tiadash-run.json:1: arrays or objects nested deeper than 1000" >expect &&
	test_cmp expect err
'

test_expect_success 'a manifest over the 64 MiB cap and a list line over 1 MiB: refused, named' '
	mkdir huge && {
		printf "{\"schema\": \"tiadash.run.v1\", \"x\": \"" &&
		head -c $((65 * 1024 * 1024)) /dev/zero | tr "\0" a &&
		printf "\"}\n"
	} >huge/tiadash-run.json &&
	test_expect_code 2 $t --db d.db ingest huge >out 2>err &&
	echo "tiadash: error: '"'"'huge/tiadash-run.json'"'"' is larger than the 67108864-byte limit" >expect &&
	test_cmp expect err &&
	rm -rf huge &&
	{ echo tests/a.py; head -c $((1024 * 1024 + 1)) /dev/zero | tr "\0" b; echo; } >long.txt &&
	test_expect_code 2 $t --db d.db ingest --kind shadow --head "$(printf "%040d" 3)" \
		--selection long.txt --verdict pass >out 2>err &&
	echo "tiadash: error: long.txt:2: line longer than 1048576 bytes" >expect &&
	test_cmp expect err
'

cat "$TRASH/peaks" 2>/dev/null
test_done
