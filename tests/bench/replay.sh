#!/usr/bin/env bash
# make bench: replay of 10^4 first-parent commits (rules included, -j 2)
# next to `git log --first-parent --name-only` over the same commits (SPEC
# 9: within 2x; goal replay-1e4: 0.5x, issue 39). The repository comes
# from tests/bench/replay-repo.py through git fast-import and is cached in
# build/bench/ until the generator changes.
# A and B run alternately; the medians are compared.
set -eu
cd "$(dirname "$0")/../.."
: "${TIADASH_BIN:=$PWD/tiadash}"
COMMITS=${REPLAY_BENCH_COMMITS:-10000}
RUNS=${REPLAY_BENCH_RUNS:-5}
dir=build/bench/replay-$COMMITS
stamp="$(sha1sum tests/bench/replay-repo.py | cut -c 1-40) $COMMITS"
unset TIADASH_DB

if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	git init -q -b main "$dir/repo"
	python3 tests/bench/replay-repo.py --commits "$COMMITS" |
		git -C "$dir/repo" fast-import --quiet --done
	git -C "$dir/repo" repack -adq
	echo "$stamp" >"$dir/stamp"
fi
repo=$dir/repo

# Same commits on both sides: replay prints one CSV row per commit.
rows=$("$TIADASH_BIN" replay --repo "$repo" --since 1970-01-02 --format csv | wc -l)
if [ "$rows" != $((COMMITS + 1)) ]; then
	echo "replay bench: expected $COMMITS commits, replay listed $((rows - 1))" >&2
	exit 1
fi

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
run_a() { "$TIADASH_BIN" replay --repo "$repo" --since 1970-01-02 -j 2 >/dev/null; }
run_b() { git -C "$repo" log --first-parent --name-only --format=%H >/dev/null; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_a; run_b # warm the page cache
a=() b=()
for _ in $(seq "$RUNS"); do
	t=$(now); run_a; a+=($(($(now) - t)))
	t=$(now); run_b; b+=($(($(now) - t)))
done
ma=$(printf '%s\n' "${a[@]}" | median)
mb=$(printf '%s\n' "${b[@]}" | median)
awk -v a="$ma" -v b="$mb" -v n="$COMMITS" 'BEGIN {
	printf "replay %d commits: %.2f s vs git log %.2f s = %.2fx (target <= 2x)\n",
		n, a / 1e6, b / 1e6, a / b
	printf "goal replay-1e4: %.2f s (git log --first-parent --name-only %.2f s, %.2fx) goal 0.5x %s\n",
		a / 1e6, b / 1e6, a / b, (a / b <= 0.5) ? "met" : "missed"
	exit (a / b <= 2) ? 0 : 1
}'
