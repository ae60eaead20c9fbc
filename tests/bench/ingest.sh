#!/bin/bash
# Ingest bench (SPEC 9): 10^6 selected-test rows plus their JUnit reports,
# next to a bare prepared-statement insert of the same rows, same run.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$top/build/bench/ingest
rows=${BENCH_INGEST_ROWS:-1000000} runs=${BENCH_INGEST_RUNS:-1000}
mkdir -p "$work"
if [ ! -e "$work/.rows-$rows-$runs" ]; then
	rm -rf "$work" && mkdir -p "$work"
	python3 "$top/tests/bench/gen_ingest.py" "$work/data" "$rows" "$runs"
	touch "$work/.rows-$rows-$runs"
fi
cc -O2 -o "$work/anchor" "$top/tests/bench/anchor_insert.c" $(pkg-config --cflags --libs sqlite3)
cat "$work/data/rows.tsv" "$work/data"/runs/*/* >/dev/null   # warm the page cache

t_anchor=() t_ingest=()
for i in 1 2 3; do
	rm -f "$work"/a.db* "$work"/t.db*
	s=$(date +%s.%N); "$work/anchor" "$work/a.db" "$work/data/rows.tsv" >/dev/null; e=$(date +%s.%N)
	t_anchor+=("$(echo "$e - $s" | bc)")
	s=$(date +%s.%N)
	(cd / && TIADASH_NOW=2026-11-08T00:00:00Z "$TIADASH_BIN" --db "$work/t.db" ingest "$work/data/runs" >/dev/null 2>&1)
	e=$(date +%s.%N)
	t_ingest+=("$(echo "$e - $s" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
a=$(median "${t_anchor[@]}") t=$(median "${t_ingest[@]}")
printf 'ingest %d selected rows + JUnit (%d runs): %.2f s vs bare insert %.2f s = %.2fx (target <= 1.5x)\n' \
	"$rows" "$runs" "$t" "$a" "$(echo "$t / $a" | bc -l)"
