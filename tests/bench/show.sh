#!/bin/bash
# Show bench (goal show-1e6-selection-rss): the peak RSS of `show --format
# json` of a run whose selection names 10^6 tests (tests/fuzz/gen-big.py),
# next to the same show of a run whose selection names 10, alternately,
# medians of BENCH_SHOW_RUNS (measure.py).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/show
nsel=${BENCH_SHOW_SELECTION:-1000000} runs=${BENCH_SHOW_RUNS:-3}
export TIADASH_NOW=2026-11-08T00:00:00Z
mkdir -p "$work"
. "$top/tests/bench/lib.sh"
store() { # NAME N: a store with one shadow run selecting N tests
	local db=$work/$1.db
	if ! bench_store_fresh "$db" || [ "$(cat "$db.done")" != "$2" ]; then
		rm -f "$db" "$db"-* "$db".done*
		python3 "$top/tests/fuzz/gen-big.py" selection "$2" >"$work/sel.txt"
		"$TIADASH_BIN" --db "$db" ingest --kind shadow --head "$(printf '%040d' 1)" \
			--base "$(printf '%040d' 2)" --pr 1 --selection "$work/sel.txt" \
			--selected-count "$2" --total-tests $(($2 * 3)) --verdict pass 2>/dev/null >&2
		rm -f "$work/sel.txt"
		echo "$2" >"$db.done"
	fi
	echo "$db"
}
big=$(store big "$nsel") small=$(store small 10)
{ read -r t r; read -r ts rs; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"exec '$TIADASH_BIN' --db '$big' show 1 --format json" \
	"exec '$TIADASH_BIN' --db '$small' show 1 --format json")
awk -v t="$t" -v r="$r" -v ts="$ts" -v rs="$rs" -v n="$nsel" 'BEGIN {
	printf "show of a %d-entry selection (json): %.2f s, peak RSS %.1f MB\n", n, t, r
	printf "goal show-1e6-selection-rss: %.1f MB (a 10-entry selection %.1f MB, %.2fx) goal 64 MB %s\n",
		r, rs, r / rs, (r <= 64) ? "met" : "missed"
}'
