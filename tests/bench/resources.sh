#!/bin/bash
# Resources bench (SPEC 9: ingest streams, memory does not grow with a
# report's size): the full-size hostile inputs of tests/t7030-resources.sh,
# each line with its wall-clock time and peak RSS. A 2 GB JUnit report is
# written to disk first (ingest refuses a FIFO: reading one could block),
# then removed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$top/build/bench/resources
gen=$top/tests/fuzz/gen-big.py
bin=${TIADASH_BIN:-$top/tiadash}
junit_mb=${BENCH_JUNIT_MB:-2048} files=${BENCH_COMMIT_FILES:-100000}
nsel=${BENCH_SELECTION:-1000000} nres=${BENCH_RESULT_FILES:-100000}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
export TIADASH_NOW=2026-11-08T00:00:00Z

# measure LABEL CMD...: run CMD; print LABEL, its time and peak RSS.
measure() {
	local label=$1; shift
	python3 - "$label" "$@" <<-\PY
	import resource, subprocess, sys, time
	t = time.monotonic()
	rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	t = time.monotonic() - t
	kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
	print("resources %s: %.1f s, peak RSS %.1f MB, exit %d" % (sys.argv[1], t, kb / 1024, rc))
	PY
}

zero=$(printf '%040d' 0)
mkdir big
printf '{"schema": "tiadash.run.v1", "head": "%040d", "base": "%s", "kind": "full", "started_at": "2026-11-03T10:00:00Z", "verdict": "fail", "results": ["junit.xml"]}\n' 1 "$zero" >big/tiadash-run.json
python3 "$gen" junit "$junit_mb" counts >big/junit.xml
measure "ingest of a $junit_mb MB JUnit report" "$bin" --db big.db ingest big
rm -f big/junit.xml
echo "resources   stored: $(sqlite3 big.db "SELECT tests || ' tests, ' || failures || ' failures' FROM run") (generated: $(cat counts))"

git init -q -b main repo
read -r base head < <(python3 "$gen" commit "$files" repo)
measure "ingest of a run whose diff adds $files files" "$bin" --db c.db --repo repo ingest \
	--kind shadow --head "$head" --base "$base" --pr 1 --decision run_all --verdict pass
measure "show of that run (json)" "$bin" --db c.db show 1 --format json

python3 "$gen" selection "$nsel" >sel.txt
measure "ingest of a selection of $nsel tests" "$bin" --db c.db --repo repo ingest \
	--kind shadow --head "$head" --base "$base" --pr 1 --attempt 2 --selection sel.txt \
	--selected-count "$nsel" --total-tests $((nsel * 3)) --verdict pass
measure "show with that selection (json)" "$bin" --db c.db show 1 --format json
measure "report over that store (json)" "$bin" --db c.db report --format json
rm -f sel.txt

python3 "$gen" results "$nres" res "$base" "$head"
measure "ingest of a manifest naming $nres result files" "$bin" --db c.db --repo repo ingest res
rm -rf res

python3 "$gen" deep-xml 1000000 >deep.xml
measure "JUnit nested 10^6 deep (refused)" "$bin" --db d.db ingest --kind full --head "$head" deep.xml
cd / && rm -rf "$work"
