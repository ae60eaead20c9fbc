#!/bin/bash
# Report bench (SPEC 9): `tiadash report --format json` over stores of 10^4
# and 10^5 realistic pairs (tests/bench/gen_report.py), median of 3 runs
# each; the growth for 10x the pairs is compared with n log n (12.5x). And
# the size of the HTML pages at 10^5 pairs (target: under 2 MB each).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/report
mkdir -p "$work"
export TIADASH_NOW=2026-11-08T00:00:00Z

store() {
	local n=$1 db=$work/pairs-$1.db
	if [ ! -e "$db.done" ] || [ "$top/tests/bench/gen_report.py" -nt "$db.done" ]; then
		rm -f "$db" "$db-wal" "$db-shm"
		"$TIADASH_BIN" --db "$db" init >/dev/null
		python3 "$top/tests/bench/gen_report.py" "$db" "$n"
		touch "$db.done"
	fi
	echo "$db"
}

# median of 3 wall-clock seconds of a report
time_report() {
	local db=$1 t=()
	"$TIADASH_BIN" --db "$db" report --format json >/dev/null   # warm the cache
	for _ in 1 2 3; do
		local s e
		s=$(date +%s.%N)
		"$TIADASH_BIN" --db "$db" report --format json >/dev/null
		e=$(date +%s.%N)
		t+=("$(echo "$e - $s" | bc)")
	done
	printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}

small=$(store 10000) big=$(store 100000)
t4=$(time_report "$small")
t5=$(time_report "$big")
printf 'report 1e5 pairs: %.2f s (%.1f us/pair); 1e4: %.3f s; growth %.1fx for 10x pairs (n log n: 12.5x; target < 1 s)\n' \
	"$t5" "$(echo "$t5 * 10" | bc -l)" "$t4" "$(echo "$t5 / $t4" | bc -l)"
html_kb() { # COMMAND...: the size of its --format html page, in KB
	"$TIADASH_BIN" --db "$big" "$@" --format html -o "$work/page.html" || [ $? = 1 ]
	echo $(( $(wc -c <"$work/page.html") / 1024 ))
}
r=$(html_kb report) g=$(html_kb gate-check) s=$(html_kb summary)
printf 'html 1e5 pairs: report %d KB, gate-check %d KB, summary %d KB (target < 2048 KB)\n' "$r" "$g" "$s"
[ "$r" -lt 2048 ] && [ "$g" -lt 2048 ] && [ "$s" -lt 2048 ]
