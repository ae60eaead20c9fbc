#!/usr/bin/env bash
# make bench: what replay adds to each selector call (SPEC 9; issue 15: at
# most 1 ms over the selector's own time). Three runs over the same 400
# first-parent commits of the replay bench's generator, alternating, each
# SELECTOR_BENCH_RUNS times; medians compared:
#   A  replay with --selector CMD: per change, a checkout in its worktree
#      and a posix_spawn, the paths on stdin, the answer read; no cache
#   B  the same replay without a selector (the walk and the report)
#   C  the selector's own time at each commit, the anchor: what running it
#      by hand takes, from a shell loop over the same commits in one
#      worktree (`git checkout --detach` there, then CMD with the paths)
# The overhead per call is (A - B - C) / calls.
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
CMD='cat >/dev/null; echo nothing'
OPTS="--repo $repo --since 1970-01-02 --rules $dir/empty.rules --no-builtin-rules"

"$TIADASH_BIN" replay $OPTS --selector "$CMD" --format json >"$dir/replay.json"
# The commits called, and their paths, for the hand-run loop.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["changes"]:
    if c["reasons"] != ["no-changes"]:
        print(c["commit"], " ".join(c["paths"]))
' "$dir/replay.json" >"$dir/calls"
calls=$(wc -l <"$dir/calls")
wt=$(cd "$dir" && pwd)/by-hand
git -C "$repo" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$repo" worktree prune
git -C "$repo" worktree add -q --detach "$wt" main

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
run_a() { "$TIADASH_BIN" replay $OPTS --selector "$CMD" >/dev/null; }
run_b() { "$TIADASH_BIN" replay $OPTS >/dev/null; }
run_c() {
	while read -r c paths; do
		git -C "$wt" checkout -q --detach -f "$c" &&
		(cd "$wt" && printf '%s\n' $paths | sh -c "$CMD" >/dev/null)
	done <"$dir/calls"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_a; run_b; run_c # warm the page cache
a=() b=() c=()
for _ in $(seq "$RUNS"); do
	t=$(now); run_a; a+=($(($(now) - t)))
	t=$(now); run_b; b+=($(($(now) - t)))
	t=$(now); run_c; c+=($(($(now) - t)))
done
ma=$(printf '%s\n' "${a[@]}" | median)
mb=$(printf '%s\n' "${b[@]}" | median)
mc=$(printf '%s\n' "${c[@]}" | median)
awk -v a="$ma" -v b="$mb" -v c="$mc" -v n="$calls" 'BEGIN {
	over = (a - b - c) / n / 1000; own = c / n / 1000
	printf "selector %d calls: replay %.2f s, without the selector %.2f s, by hand at each commit %.2f s\n",
		n, a / 1e6, b / 1e6, c / 1e6
	printf "goal selector-overhead: %.2f ms/call (by hand %.2f ms/call, %.2fx) goal 1 ms %s\n",
		over, own, (a - b) / c, over <= 1 ? "met" : "missed"
	exit over <= 1 ? 0 : 1
}'
status=$?
git -C "$repo" worktree remove --force "$wt"
exit $status
