#!/usr/bin/env bash
# make bench: what replay adds to each selector call (SPEC 9; issue 39: at
# most 1 ms beyond the selector process's own lifetime). Over the same 400
# first-parent commits of the replay bench's generator, alternating, each
# SELECTOR_BENCH_RUNS times; medians compared:
#   A  replay with --selector CMD: per change, a checkout in its worktree,
#      /bin/sh -c CMD, the paths on stdin, the answer read; no cache
#   B  the same replay without a selector (the walk and the report)
#   L  the selector's own lifetime, summed over A's calls: CMD is a program
#      without libc (selector_clock.c) that records it from its first
#      instruction to its exit, so everything else of a call (the checkout,
#      the spawn and exec, the pipes, reading the answer) is counted as
#      tiadash's
# The overhead per call is (A - B - L) / calls: never below zero but for
# noise between A and B, which the medians damp.
set -eu
cd "$(dirname "$0")/../.."
: "${TIADASH_BIN:=$PWD/tiadash}"
COMMITS=${SELECTOR_BENCH_COMMITS:-400}
RUNS=${SELECTOR_BENCH_RUNS:-5}
dir=build/bench/selector-$COMMITS
stamp="$(sha1sum tests/bench/replay-repo.py | cut -c 1-40) $COMMITS"
unset TIADASH_DB
export TMPDIR=${TMPDIR:-/tmp}

if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	git init -q -b main "$dir/repo"
	python3 tests/bench/replay-repo.py --commits "$COMMITS" --files 300 |
		git -C "$dir/repo" fast-import --quiet --done
	git -C "$dir/repo" repack -adq
	git -C "$dir/repo" checkout -q main
	echo "$stamp" >"$dir/stamp"
fi
repo=$(cd "$dir/repo" && pwd)
: >"$dir/empty.rules"
OPTS="--repo $repo --since 1970-01-02 --rules $dir/empty.rules --no-builtin-rules"

cc -O2 -DSELECTOR_CLOCK_NOLIBC -ffreestanding -fno-builtin -fno-stack-protector \
	-fno-pie -no-pie -static -nostdlib -o "$dir/selector_clock" tests/bench/selector_clock.c 2>/dev/null ||
	cc -O2 -static -o "$dir/selector_clock" tests/bench/selector_clock.c 2>/dev/null ||
	cc -O2 -o "$dir/selector_clock" tests/bench/selector_clock.c
CMD=$(cd "$dir" && pwd)/selector_clock
export SELECTOR_CLOCK_LOG=$(cd "$dir" && pwd)/lifetimes

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
run_a() { : >"$SELECTOR_CLOCK_LOG"; "$TIADASH_BIN" replay $OPTS --selector "$CMD" >/dev/null; }
run_b() { "$TIADASH_BIN" replay $OPTS >/dev/null; }
lifetimes() { awk '{ s += $1 } END { printf "%d\n", s / 1000 }' "$SELECTOR_CLOCK_LOG"; } # us
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_a; run_b # warm the page cache
calls=$(wc -l <"$SELECTOR_CLOCK_LOG")
a=() b=() l=()
for _ in $(seq "$RUNS"); do
	t=$(now); run_a; a+=($(($(now) - t))); l+=($(lifetimes))
	t=$(now); run_b; b+=($(($(now) - t)))
done
ma=$(printf '%s\n' "${a[@]}" | median)
mb=$(printf '%s\n' "${b[@]}" | median)
ml=$(printf '%s\n' "${l[@]}" | median)
awk -v a="$ma" -v b="$mb" -v l="$ml" -v n="$calls" 'BEGIN {
	over = (a - b - l) / n / 1000; own = l / n / 1000
	printf "selector %d calls: replay %.2f s, without the selector %.2f s, the selector'"'"'s own lifetimes %.2f s\n",
		n, a / 1e6, b / 1e6, l / 1e6
	printf "goal selector-overhead: %.2f ms/call (own lifetime %.3f ms/call, %.2fx) goal 1 ms %s\n",
		over, own, (a - b) / (l > 0 ? l : 1), over <= 1 ? "met" : "missed"
	exit over <= 1 ? 0 : 1
}'
