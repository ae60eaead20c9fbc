#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/fuzz_*.c, built by `make fuzz`) for
# a short fixed time over its seed corpus and its saved regressions. Every
# regression input is replayed first; any crash, leak, sanitizer report or
# timeout fails the run and is kept under build/fuzz/out/. The last line
# is "N passed, N failed" (targets), as tests/run ends.
#
#   tests/fuzz/run-all.sh [-t SECONDS] [TARGET...]   (default 10 s, all targets)
set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$PWD
secs=10
while getopts t: opt; do
	case $opt in
	t) secs=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

make --no-print-directory fuzz >/dev/null || { echo "run-all: make fuzz failed" >&2; exit 2; }
make --no-print-directory sampledata >/dev/null 2>&1 || true
BIN=build/fuzz/tests/fuzz
OUT=build/fuzz/out
SAMPLE=sampledata/build/artifacts

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do
		t=${f##*/fuzz_}; targets+=("${t%.c}")
	done
fi

# seeds TARGET DIR: copy the target's seed files (at most 64 KiB each) into DIR.
seeds() {
	local t=$1 dir=$2
	{
		find "tests/fuzz/seeds/$t" -type f 2>/dev/null
		case $t in
		manifest|index) find "$SAMPLE" -name tiadash-run.json 2>/dev/null | head -40 ;;
		junit) find tests/data/corpus/junit -name '*.xml'
		       find "$SAMPLE" -name '*.xml' 2>/dev/null | head -30 ;;
		lcov) find tests/data/corpus/coverage/lcov -type f
		      find "$SAMPLE" -name '*.info' 2>/dev/null | head -20 ;;
		cobertura) find tests/data/corpus/coverage/cobertura -type f ;;
		cbm) find tests/data/cbm/answers -name '*.json' ;;
		lists|selector) find "$SAMPLE" -name '*.txt' 2>/dev/null | head -30 ;;
		rules_cbm) find tests/data/rules tests/data/cbm -maxdepth 1 -name '*.json' ;;
		time) sed -n 's/^\([0-9].*\)$/\1/p' tests/data/since.test 2>/dev/null |
		      head -40 | while read -r w; do
			printf '%s' "$w" >"$dir/since-$(printf '%s' "$w" | md5sum | cut -c1-12)"
		      done ;;
		native)
			i=0
			for fmt in vitest turbo testmon moon gstack cbm; do
				for f in tests/data/native/$fmt/*; do
					[ -f "$f" ] || continue
					# The first byte picks the format; 0x40 gives a root.
					{ printf "\\$(printf %o $((i | 64)))"; cat "$f"; } \
						>"$dir/$fmt-${f##*/}"
				done
				i=$((i + 1))
			done ;;
		ruleconf)
			# The first byte picks the file name (see fuzz_ruleconf.c).
			n=tests/data/native
			for pair in 1:$n/turbo/turbo.json 2:$n/moon/.moon/tasks/all.yml \
				    3:$n/moon/apps/web/moon.yml 4:$n/harness/harness.yml \
				    5:$n/gstack/.gstack/always-run.json 6:$n/cbm/.codebase-memory.json \
				    7:tests/fuzz/seeds/rules/basic.rules; do
				f=${pair#*:}
				[ -f "$f" ] || continue
				{ printf "\\$(printf %o "${pair%%:*}")"; cat "$f"; } >"$dir/${pair%%:*}-${f##*/}"
			done ;;
		esac
	} | while read -r f; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] &&
			cp "$f" "$dir/$(printf '%s' "$f" | md5sum | cut -c1-16)"
	done
}

dict_of() {
	case $1 in
	junit|cobertura) echo tests/fuzz/dict/xml.dict ;;
	manifest|index|cbm|rules_cbm) echo tests/fuzz/dict/json.dict ;;
	rules|glob) echo tests/fuzz/dict/glob.dict ;;
	native|ruleconf) echo tests/fuzz/dict/json.dict ;;
	esac
}

rm -rf "$OUT" && mkdir -p "$OUT"
# Leaks of the open bugs (regressions/KNOWN) do not stop fuzzing.
export LSAN_OPTIONS=suppressions=$TOP/tests/fuzz/lsan-known.supp
failed=()
for t in "${targets[@]}"; do
	bin=$BIN/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "FAIL $t: no binary $bin"; failed+=("$t"); continue
	fi
	corpus=$OUT/$t.corpus seed=$OUT/$t.seeds log=$OUT/$t.log
	mkdir -p "$corpus" "$seed"
	seeds "$t" "$seed"
	# The saved crashes first, each once: they must all pass now, but for
	# the open bugs that regressions/KNOWN lists (reported, not failed).
	reg=() known=()
	[ -d "tests/fuzz/regressions/$t" ] &&
		while IFS= read -r -d '' f; do
			if grep -q "^$t/${f##*/}[[:space:]]" tests/fuzz/regressions/KNOWN; then
				known+=("$f")
			else
				reg+=("$f")
			fi
		done < <(find "tests/fuzz/regressions/$t" -type f -print0)
	if [ ${#reg[@]} -gt 0 ] &&
	   ! "$bin" -timeout=10 -rss_limit_mb=2048 "${reg[@]}" >"$log.reg" 2>&1; then
		echo "FAIL $t: a saved regression fails again (see $log.reg)"
		failed+=("$t"); continue
	fi
	for f in ${known[@]+"${known[@]}"}; do
		if LSAN_OPTIONS= "$bin" -timeout=10 -rss_limit_mb=2048 "$f" >"$log.known" 2>&1; then
			echo "     $t: ${f##*/} passes now: the bug is fixed, remove it from regressions/KNOWN"
		else
			echo "     $t: ${f##*/} still fails (open bug, regressions/KNOWN)"
		fi
	done
	d=$(dict_of "$t")
	args=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536
	      -print_final_stats=1 -artifact_prefix="$OUT/$t-")
	[ -n "$d" ] && args+=(-dict="$d")
	[ ${#reg[@]} -gt 0 ] && cp "${reg[@]}" "$seed/"
	if "$bin" "${args[@]}" "$corpus" "$seed" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
		printf 'ok   %-12s %s s, %s runs, %s, %d regressions\n' "$t" "$secs" \
			"${runs:-?}" "${cov:-cov: ?}" "${#reg[@]}"
	else
		echo "FAIL $t (log $log; crash input $(ls "$OUT/$t-"* 2>/dev/null | head -1))"
		grep -m3 -E 'ERROR|runtime error|BUG|SUMMARY' "$log" | sed 's/^/     /'
		failed+=("$t")
	fi
done
echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz: failed targets: ${failed[*]} (logs and crash inputs in $OUT/)"
fi
echo "$((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed"
[ ${#failed[@]} = 0 ]
