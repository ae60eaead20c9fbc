#!/bin/bash
# Propose bench (SPEC 6 and 9): `tiadash propose` over a store of 10^4 PRs
# with their changed paths (tests/bench/gen_propose.py): the last day's
# escapes (tens of them, hundreds of candidates) and the whole week's
# (hundreds, thousands of candidates), median of 3 runs each; and the cost
# of one live preview, from 100 `--preview` globs in one run minus a run
# without them.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/propose
mkdir -p "$work"
export TIADASH_NOW=2026-11-08T00:00:00Z

. "$top/tests/bench/lib.sh"
db=$work/prs-10000.db
if ! bench_store_fresh "$db" "$top/tests/bench/gen_propose.py" "$top/tests/bench/gen_report.py"; then
	rm -f "$db" "$db-wal" "$db-shm"
	"$TIADASH_BIN" --db "$db" init >/dev/null
	python3 "$top/tests/bench/gen_propose.py" "$db" 10000
	touch "$db.done"
fi

# median of 3 wall-clock seconds of one command
med3() {
	local t=()
	"$@" >/dev/null   # warm the cache
	for _ in 1 2 3; do
		local s e
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		t+=("$(echo "$e - $s" | bc)")
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}

cd "$work"
day=(--since 2026-11-07 --no-builtin-rules --format json)
week=(--no-builtin-rules --format json)
"$TIADASH_BIN" --db "$db" propose "${day[@]}" >day.json
"$TIADASH_BIN" --db "$db" propose "${week[@]}" >week.json
cands_day=$(python3 -c 'import json; d=json.load(open("day.json")); print(d["escapes"], len(d["proposals"]))')
cands_week=$(python3 -c 'import json; d=json.load(open("week.json")); print(d["escapes"], len(d["proposals"]))')
t_day=$(med3 "$TIADASH_BIN" --db "$db" propose "${day[@]}")
t_week=$(med3 "$TIADASH_BIN" --db "$db" propose "${week[@]}")

globs=()
for i in $(seq 0 24); do
	globs+=(--preview "pkg$(printf %02d "$i")/**" --preview "**/*.json"
		--preview "pkg*/mod$(printf %02d $((i % 12)))/*.py" --preview "**/file$(printf %02d "$i").*")
done
t_prev=$(med3 "$TIADASH_BIN" --db "$db" propose "${day[@]}" "${globs[@]}")

printf 'propose 1e4 PRs: last day %.3f s (%s escapes, %s candidates); week %.3f s (%s escapes, %s candidates)\n' \
	"$t_day" ${cands_day% *} ${cands_day#* } "$t_week" ${cands_week% *} ${cands_week#* }
printf 'propose preview on 1e4 PRs: %.2f ms per glob (100 globs: %.3f s over the plain run; target well under 1 s)\n' \
	"$(echo "($t_prev - $t_day) * 10" | bc -l)" "$(echo "$t_prev - $t_day" | bc -l)"
