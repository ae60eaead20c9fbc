#!/bin/bash
# Ingest bench (SPEC 9): 10^6 selected-test rows plus their JUnit reports,
# next to a bare prepared-statement insert of the same rows, same run.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/ingest
rows=${BENCH_INGEST_ROWS:-1000000} runs_n=${BENCH_INGEST_RUNS:-1000}
mkdir -p "$work"
if [ ! -e "$work/.rows-$rows-$runs_n" ]; then
	rm -rf "$work" && mkdir -p "$work"
	python3 "$top/tests/bench/gen_ingest.py" "$work/data" "$rows" "$runs_n"
	touch "$work/.rows-$rows-$runs_n"
fi
cc -O2 -o "$work/anchor" "$top/tests/bench/anchor_insert.c" $(pkg-config --cflags --libs sqlite3)
cat "$work/data/rows.tsv" "$work/data"/runs/*/* >/dev/null   # warm the page cache

# Goal ingest-1e6: alternately, medians of RUNS (measure.py); each run
# starts from an empty store.
runs=${BENCH_INGEST_MEASURE_RUNS:-3}
{ read -r t _; read -r a _; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"rm -f '$work'/t.db*; cd / && TIADASH_NOW=2026-11-08T00:00:00Z exec '$TIADASH_BIN' --db '$work/t.db' ingest '$work/data/runs' 2>/dev/null" \
	"rm -f '$work'/a.db*; exec '$work/anchor' '$work/a.db' '$work/data/rows.tsv'")
printf 'ingest %d selected rows + JUnit (%d runs): %.2f s vs bare insert %.2f s = %.2fx (target <= 1.5x)\n' \
	"$rows" "$runs_n" "$t" "$a" "$(echo "$t / $a" | bc -l)"
awk -v t="$t" -v a="$a" 'BEGIN {
	printf "goal ingest-1e6: %.2f s (bare prepared insert %.2f s, %.2fx) goal 1.2x %s\n",
		t, a, t / a, t / a <= 1.2 ? "met" : "missed"
}'
