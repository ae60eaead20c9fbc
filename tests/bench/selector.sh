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
#   C  the selector's CPU time by its rusage, summed over A's calls: its
#      lifetime plus the kernel's exec that started it (not its exit)
#   A', B', L', C'  the same over the newer half of those commits
# The overhead per call is what one more call adds: ((A - A') - (B - B') -
# (L - L')) / (calls - calls'), never below zero but for noise, which the
# medians damp. What a replay pays once whatever its length (starting, the
# worktree made and filled with the whole tree at its first commit, then
# removed) cancels out; the line also prints it spread over the 400 calls,
# (A - B - L) / calls, the figure of a replay that short. The issue allows
# a second measure, the child's rusage against the wall time of the call;
# it is printed beside the goal, not as it: ((A - A') - (B - B') -
# (C - C')) / (calls - calls') counts the exec of the selector as the
# selector's, which the goal counts as tiadash's.
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
half=$(git -C "$repo" log --first-parent --format=%cI main | sed -n "$((COMMITS / 2))p")
HALF="--repo $repo --since $half --rules $dir/empty.rules --no-builtin-rules"

cc -O2 -DSELECTOR_CLOCK_NOLIBC -ffreestanding -fno-builtin -fno-stack-protector \
	-fno-pie -no-pie -static -nostdlib -o "$dir/selector_clock" tests/bench/selector_clock.c 2>/dev/null ||
	cc -O2 -static -o "$dir/selector_clock" tests/bench/selector_clock.c 2>/dev/null ||
	cc -O2 -o "$dir/selector_clock" tests/bench/selector_clock.c
CMD=$(cd "$dir" && pwd)/selector_clock
export SELECTOR_CLOCK_LOG=$(cd "$dir" && pwd)/lifetimes

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
run_a() { : >"$SELECTOR_CLOCK_LOG"; "$TIADASH_BIN" replay $1 --selector "$CMD" >/dev/null; }
run_b() { "$TIADASH_BIN" replay $1 >/dev/null; }
# The sum of the log's column 1 (lifetimes) or 2 (CPU times), in us.
log_sum() { awk -v c="$1" '{ s += $c } END { printf "%d\n", s / 1000 }' "$SELECTOR_CLOCK_LOG"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_a "$HALF"; half_calls=$(wc -l <"$SELECTOR_CLOCK_LOG")
run_a "$OPTS"; run_b "$OPTS" # warm the page cache
calls=$(wc -l <"$SELECTOR_CLOCK_LOG")
a=() b=() l=() c=() ah=() bh=() lh=() ch=()
for _ in $(seq "$RUNS"); do
	t=$(now); run_a "$OPTS"; a+=($(($(now) - t))); l+=($(log_sum 1)); c+=($(log_sum 2))
	t=$(now); run_b "$OPTS"; b+=($(($(now) - t)))
	t=$(now); run_a "$HALF"; ah+=($(($(now) - t))); lh+=($(log_sum 1)); ch+=($(log_sum 2))
	t=$(now); run_b "$HALF"; bh+=($(($(now) - t)))
done
m() { printf '%s\n' "$@" | median; }
awk -v a="$(m "${a[@]}")" -v b="$(m "${b[@]}")" -v l="$(m "${l[@]}")" -v n="$calls" \
    -v ah="$(m "${ah[@]}")" -v bh="$(m "${bh[@]}")" -v lh="$(m "${lh[@]}")" -v nh="$half_calls" \
    -v c="$(m "${c[@]}")" -v ch="$(m "${ch[@]}")" 'BEGIN {
	over = ((a - ah) - (b - bh) - (l - lh)) / (n - nh) / 1000
	spread = (a - b - l) / n / 1000; own = l / n / 1000
	printf "selector %d calls: replay %.2f s, without the selector %.2f s, the selector'"'"'s own lifetimes %.2f s; over the newer %d: %.2f s, %.2f s, %.2f s\n",
		n, a / 1e6, b / 1e6, l / 1e6, nh, ah / 1e6, bh / 1e6, lh / 1e6
	printf "goal selector-overhead: %.2f ms/call (own lifetime %.3f ms/call, %.2fx; with the worktree made and removed, spread over %d calls: %.2f ms/call) goal 1 ms %s\n",
		over, own, (a - b) / (l > 0 ? l : 1), n, spread, over <= 1 ? "met" : "missed"
	printf "selector-overhead by the selector'"'"'s rusage (not the goal): %.2f ms/call (its CPU time, its exec included, %.3f ms/call)\n",
		((a - ah) - (b - bh) - (c - ch)) / (n - nh) / 1000, c / n / 1000
	exit over <= 1 ? 0 : 1
}'
