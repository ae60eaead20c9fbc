#!/bin/bash
# JUnit bench (goals junit-mbps and junit-vs-python): a JUnit report of
# BENCH_JUNIT_MB megabytes (tests/fuzz/gen-big.py: unique tests, one failing
# in 10000) ingested as a full run (parse and store), next to reading the
# file only and to tests/bench/junit_python.py (iterparse, every case
# inserted with sqlite3), alternately, medians of BENCH_JUNIT_RUNS.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/junit
mb=${BENCH_JUNIT_MB:-100} runs=${BENCH_JUNIT_RUNS:-3}
mkdir -p "$work/run"
if [ ! -e "$work/.junit-$mb" ]; then
	rm -f "$work"/.junit-*
	python3 "$top/tests/fuzz/gen-big.py" junit "$mb" "$work/counts" >"$work/run/junit.xml"
	touch "$work/.junit-$mb"
fi
printf '{"schema": "tiadash.run.v1", "head": "%040d", "base": "%040d", "kind": "full", "started_at": "2026-11-03T10:00:00Z", "verdict": "fail", "results": ["junit.xml"]}\n' 1 0 \
	>"$work/run/tiadash-run.json"
bytes=$(stat -c %s "$work/run/junit.xml")
cat "$work/run/junit.xml" >/dev/null   # warm the page cache
{ read -r t _; read -r p _; read -r c _; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"rm -f '$work'/t.db*; TIADASH_NOW=2026-11-08T00:00:00Z exec '$TIADASH_BIN' --db '$work/t.db' ingest '$work/run' 2>/dev/null" \
	"rm -f '$work'/p.db*; exec python3 '$top/tests/bench/junit_python.py' '$work/run/junit.xml' '$work/p.db'" \
	"exec cat '$work/run/junit.xml'")
stored=$(sqlite3 "$work/t.db" "SELECT tests || ' tests, ' || failures || ' failures' FROM run")
awk -v b="$bytes" -v t="$t" -v p="$p" -v c="$c" -v stored="$stored" -v gen="$(cat "$work/counts")" 'BEGIN {
	mbs = b / 1048576 / t; pmbs = b / 1048576 / p; cmbs = b / 1048576 / c
	printf "junit %.0f MB: tiadash %.2f s, python %.2f s, read only %.2f s (stored %s; generated %s)\n",
		b / 1048576, t, p, c, stored, gen
	printf "goal junit-mbps: %.0f MB/s (read only %.0f MB/s, %.2fx) goal 100 MB/s %s\n",
		mbs, cmbs, mbs / cmbs, (mbs >= 100) ? "met" : "missed"
	printf "goal junit-vs-python: %.2fx (python iterparse + sqlite3 %.0f MB/s, tiadash %.0f MB/s) goal 3x %s\n",
		p / t, pmbs, mbs, (p / t >= 3) ? "met" : "missed"
}'
