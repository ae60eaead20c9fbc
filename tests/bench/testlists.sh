#!/bin/bash
# Test lists at the scale target (SPEC 9; issue 16's blind spots): a store
# of 10^4 PRs whose full runs each ran 10^5 tests and whose narrowed
# selections name 30% of the test files (tests/bench/gen_scale.py). Prints
# what the test lists and the selections take, and the median of 3
# `report --format json` on it (the blind spots read every selection).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/testlists
prs=${BENCH_SCALE_PRS:-10000} tests=${BENCH_SCALE_TESTS:-100000}
db=$work/scale-$prs-$tests.db
mkdir -p "$work"
. "$top/tests/bench/lib.sh"
if ! bench_store_fresh "$db" "$top/tests/bench/gen_scale.py"; then
	rm -f "$db" "$db-wal" "$db-shm"
	"$TIADASH_BIN" --db "$db" init >/dev/null
	python3 "$top/tests/bench/gen_scale.py" "$db" "$prs" "$tests"
	touch "$db.done"
fi
size() {
	sqlite3 "$db" "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ($1)"
}
lists=$(size "'test_group', 'run_tests'") sels=$(size "'selection'")
groups=$(sqlite3 "$db" "SELECT count(*) FROM test_group")
"$TIADASH_BIN" --db "$db" report --format json >/dev/null
t=()
for _ in 1 2 3; do
	s=$(date +%s.%N)
	"$TIADASH_BIN" --db "$db" report --format json >/dev/null
	e=$(date +%s.%N)
	t+=("$(echo "$e - $s" | bc)")
done
med=$(printf '%s\n' "${t[@]}" | sort -n | sed -n 2p)
printf 'test lists of %d full runs x %d tests: %.1f MB (%d groups; %.0f bytes/run); selections %.1f MB; report %.2f s\n' \
	"$prs" "$tests" "$(echo "$lists / 1048576" | bc -l)" "$groups" "$(echo "$lists / $prs" | bc -l)" \
	"$(echo "$sels / 1048576" | bc -l)" "$med"
