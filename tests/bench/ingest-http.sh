#!/bin/bash
# HTTP ingest bench: the sample week's artifacts over loopback HTTP (through
# its index.json, served by tests/http/server.py) next to the same ingest
# from the folder (its index.json on disk), same run, medians of 3.
# Without `make sampledata`, a stand-in week from tests/http/make-week.py.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$top/build/bench/ingest-http
bin=${TIADASH_BIN:-$top/tiadash}
sample=${SAMPLE:-$top/sampledata/build}
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
export TIADASH_NOW=2026-11-08T00:00:00Z
mkdir -p "$work"

if [ -e "$sample/artifacts/index.json" ]; then
	art=$sample/artifacts repo=$sample/repo what="sample week"
else
	prs=${BENCH_HTTP_PRS:-400}
	if [ ! -e "$work/.week-$prs" ]; then
		rm -rf "$work/week"
		python3 "$top/tests/http/make-week.py" "$work/week" "$prs"
		touch "$work/.week-$prs"
	fi
	art=$work/week/artifacts repo=$work/week/repo
	what="stand-in week of $prs PRs (make sampledata for the sample week)"
fi
files=$(find "$art" -type f | wc -l)

rm -f "$work/port"
python3 "$top/tests/http/server.py" --root "$art" --port-file "$work/port" \
	--fast &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
url=http://127.0.0.1:$(cat "$work/port")/index.json
find "$art" -type f -exec cat {} + >/dev/null   # warm the page cache

now() { date +%s.%N; }
t_dir=() t_http=()
for _ in 1 2 3; do
	rm -f "$work"/dir.db* "$work"/http.db*
	s=$(now); "$bin" --db "$work/dir.db" --repo "$repo" ingest "$art/index.json" >/dev/null 2>&1 || true; e=$(now)
	t_dir+=("$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')")
	s=$(now); "$bin" --db "$work/http.db" --repo "$repo" ingest "$url" >/dev/null 2>&1 || true; e=$(now)
	t_http+=("$(awk -v s="$s" -v e="$e" 'BEGIN { print e - s }')")
done
runs_dir=$(sqlite3 "$work/dir.db" "select count(*) from run")
runs_http=$(sqlite3 "$work/http.db" "select count(*) from run")
if [ "$runs_dir" != "$runs_http" ]; then
	echo "ingest http: $runs_http runs by URL but $runs_dir from the folder" >&2
	exit 1
fi
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
d=$(median "${t_dir[@]}") h=$(median "${t_http[@]}")
awk -v h="$h" -v d="$d" -v what="$what" -v runs="$runs_http" -v files="$files" 'BEGIN {
	printf "ingest http vs folder: %.2f s vs %.2f s = %.2fx (target <= 1.5x; %s, %d runs, %d files)\n",
		h, d, h / d, what, runs, files }'
