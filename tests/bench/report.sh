#!/bin/bash
# Report bench (SPEC 9): `tiadash report --format json` over stores of 10^4
# and 10^5 realistic pairs (a week) and of 10^6 (a year)
# (tests/bench/gen_report.py); the growth for 10x
# the pairs is compared with n log n (12.5x); the goal lines. And
# the size of the HTML pages at 10^5 pairs (target: under 2 MB each).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${TIADASH_BIN:=$top/tiadash}"
work=$top/build/bench/report
mkdir -p "$work"
. "$top/tests/bench/lib.sh"
export TIADASH_NOW=2026-11-08T00:00:00Z

store() { # N [WEEKS]: the cached store of N pairs over WEEKS weeks (1)
	local n=$1 weeks=${2:-1} db=$work/pairs-$1.db
	[ "$weeks" = 1 ] || db=$work/pairs-$1-${weeks}w.db
	if ! bench_store_fresh "$db" "$top/tests/bench/gen_report.py"; then
		rm -f "$db" "$db-wal" "$db-shm"
		"$TIADASH_BIN" --db "$db" init >/dev/null
		python3 "$top/tests/bench/gen_report.py" "$db" "$n" "$weeks"
		touch "$db.done"
	fi
	echo "$db"
}

# Goals report-1e5 and report-rss-1e5: the report over 10^5 pairs next to
# its anchor, the sqlite3 shell reading every run of the store once through
# the tables (head, run, selection: what a report is made of), alternately,
# medians of RUNS (measure.py).
runs=${BENCH_REPORT_RUNS:-5}
anchor_sql="SELECT h.sha, r.kind, r.attempt, r.verdict, r.wall_clock_s, s.decision,
	s.selected_count FROM head h JOIN run r ON r.head_id = h.id
	LEFT JOIN selection s ON s.run_id = r.id ORDER BY h.at, h.id"
small=$(store 10000) big=$(store 100000)
read -r t4 _ < <(python3 "$top/tests/bench/measure.py" 3 \
	"exec '$TIADASH_BIN' --db '$small' report --format json")
{ read -r t5 rss5; read -r ta rssa; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"exec '$TIADASH_BIN' --db '$big' report --format json" \
	"exec sqlite3 '$big' \"$anchor_sql\"")
printf 'report 1e5 pairs: %.2f s (%.1f us/pair); 1e4: %.3f s; growth %.1fx for 10x pairs (n log n: 12.5x; target < 1 s)\n' \
	"$t5" "$(echo "$t5 * 10" | bc -l)" "$t4" "$(echo "$t5 / $t4" | bc -l)"
awk -v t="$t5" -v a="$ta" -v r="$rss5" -v ra="$rssa" 'BEGIN {
	printf "goal report-1e5: %.3f s (sqlite3 reading the runs %.3f s, %.2fx) goal 0.3 s %s\n",
		t, a, t / a, t <= 0.3 ? "met" : "missed"
	printf "goal report-rss-1e5: %.1f MB (sqlite3 reading the runs %.1f MB, %.2fx) goal 40 MB %s\n",
		r, ra, r / ra, r <= 40 ? "met" : "missed"
}'
# Goal queue-1e5 (issue 39): `tiadash queue --batch 3` over the same 10^5
# pairs, both gates simulated, next to the same anchor, alternately.
{ read -r tq _; read -r ta2 _; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"exec '$TIADASH_BIN' --db '$big' queue --batch 3 --format json" \
	"exec sqlite3 '$big' \"$anchor_sql\"")
awk -v t="$tq" -v a="$ta2" 'BEGIN {
	printf "goal queue-1e5: %.3f s (sqlite3 reading the runs %.3f s, %.2fx) goal 0.3 s %s\n",
		t, a, t / a, t <= 0.3 ? "met" : "missed"
}'
# report --by week over the same 10^5 pairs, next to the plain report as
# its anchor, alternately (issue 36: within 2x of the report).
{ read -r tw _; read -r tr _; } < <(python3 "$top/tests/bench/measure.py" "$runs" \
	"exec '$TIADASH_BIN' --db '$big' report --by week --format json" \
	"exec '$TIADASH_BIN' --db '$big' report --format json")
awk -v t="$tw" -v a="$tr" 'BEGIN {
	printf "goal report-by-week-1e5: %.3f s (report %.3f s, %.2fx) goal 2x %s\n",
		t, a, t / a, t <= 2 * a ? "met" : "missed"
}'
# `tests` over the same 10^5 pairs (every case of every full run counted
# per pair) next to the report, alternately, one run: informational.
{ read -r tt rsst; read -r tr2 _; } < <(python3 "$top/tests/bench/measure.py" 1 \
	"exec '$TIADASH_BIN' --db '$big' tests --format json" \
	"exec '$TIADASH_BIN' --db '$big' report --format json")
printf 'tests 1e5 pairs: %.2f s, %.1f MB (report %.2f s, %.2fx)\n' \
	"$tt" "$rsst" "$tr2" "$(echo "$tt / $tr2" | bc -l)"
# Goals report-1e6, report-rss-1e6 and report-by-week-1e6 (issue 39): a
# year of a busy monorepo's pull requests, 10^6 pairs over 52 weeks (the
# default window is all of it), next to the same sqlite3 reading of its
# runs, alternately; --by week next to the plain report, alternately.
runs6=${BENCH_REPORT_1E6_RUNS:-3}
year=$(store 1000000 52)
{ read -r t6 rss6; read -r ta6 rssa6; } < <(python3 "$top/tests/bench/measure.py" "$runs6" \
	"exec '$TIADASH_BIN' --db '$year' report --format json" \
	"exec sqlite3 '$year' \"$anchor_sql\"")
awk -v t="$t6" -v a="$ta6" -v r="$rss6" -v ra="$rssa6" 'BEGIN {
	printf "goal report-1e6: %.3f s (sqlite3 reading the runs %.3f s, %.2fx) goal 1.5 s %s\n",
		t, a, t / a, t <= 1.5 ? "met" : "missed"
	printf "goal report-rss-1e6: %.1f MB (sqlite3 reading the runs %.1f MB, %.2fx) goal 64 MB %s\n",
		r, ra, r / ra, r <= 64 ? "met" : "missed"
}'
{ read -r tw6 _; read -r tr6 _; } < <(python3 "$top/tests/bench/measure.py" "$runs6" \
	"exec '$TIADASH_BIN' --db '$year' report --by week --format json" \
	"exec '$TIADASH_BIN' --db '$year' report --format json")
awk -v t="$tw6" -v a="$tr6" 'BEGIN {
	printf "goal report-by-week-1e6: %.3f s (report %.3f s, %.2fx) goal 2x %s\n",
		t, a, t / a, t <= 2 * a ? "met" : "missed"
}'
html_kb() { # COMMAND...: the size of its --format html page, in KB
	"$TIADASH_BIN" --db "$big" "$@" --format html -o "$work/page.html" || [ $? = 1 ]
	echo $(( $(wc -c <"$work/page.html") / 1024 ))
}
r=$(html_kb report) g=$(html_kb gate-check) s=$(html_kb summary)
printf 'html 1e5 pairs: report %d KB, gate-check %d KB, summary %d KB (target < 2048 KB)\n' "$r" "$g" "$s"
[ "$r" -lt 2048 ] && [ "$g" -lt 2048 ] && [ "$s" -lt 2048 ]
