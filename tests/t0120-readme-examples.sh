#!/usr/bin/env bash
# Every tiadash command line of the README runs as printed, where the
# README says to run them: in the sample week's repository with the week in
# its default store (the demo's set-up; here the tests' copy of the week,
# with "now" pinned to its end). The dashboard runs headless; gate-check's
# exit 1 is its NO-GO. Cron lines, CI snippets and what needs a project's
# own tools (fenced blocks) are not run: they need a network, a CI, vitest. The demo's own week is the same week,
# dated to end now.
. "$(dirname "$0")/lib.sh"

need_sample_week

# examples: the indented command lines outside fenced blocks, one a line.
examples() {
	awk '
	/^```/ { fenced = !fenced; next }
	!fenced && /^    tiadash( |$)/ { sub(/^    /, ""); print }
	' "$TEST_SRC/../README.md"
}

test_expect_success 'setup: the week in the default store of a clone, as make demo leaves it' '
	git clone -q "$SAMPLE/repo" repo && cd repo &&
	tiadash init >/dev/null && tiadash ingest "$SAMPLE/artifacts" >out &&
	echo "798 new runs, 0 unchanged" >expect && test_cmp expect out &&
	rm out expect && cd .. &&
	examples >examples &&
	test "$(wc -l <examples)" -ge 8
'

n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	test_expect_success "README example: $cmd" '
		cd repo &&
		TIADASH_NO_DISPLAY=1 eval "$cmd" >"../out.$n" 2>"../err.$n"; rc=$?; cd .. &&
		case "$cmd" in
		"tiadash gate-check"*-o*) test $rc = 1 ;;
		"tiadash gate-check"*) test $rc = 1 && test_grep "^NO-GO" out.$n ;;
		*) test $rc = 0 ;;
		esac &&
		! grep -q "error\|warning" err.$n
	'
done <examples 2>/dev/null

# out_of PREFIX: the output file of the first example that starts so.
out_of() {
	echo "out.$(grep -n -m 1 "^$1" examples | cut -d: -f1)"
}

test_expect_success 'the examples saw the week and left what they say' '
	test_grep "^PR #434  acme/ledger  head 8a1a2820ad6c" $(out_of "tiadash show 434") &&
	grep -x "config/registry.toml" repo/.tiadash/rules &&
	tiadash --db repo/.tiadash/tiadash.db show 612 >show.txt &&
	test_grep "non-hermetic: DNS in CI, fixed by #640" show.txt &&
	test_grep "^| escapes" $(out_of "tiadash report --since 7d --format md") &&
	test_grep "^<!DOCTYPE html>" repo/week.html &&
	test_grep "^[0-9]* PRs with both wall-clocks, batches of up to 3, 1 runner$" \
		$(out_of "tiadash queue --since 7d --batch 3") &&
	test "$(head -n 1 $(out_of "tiadash gate-check"))" = "gate-check: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos"
'

test_expect_success 'the demo week: the same week, dated to end at the time given' '
	python3 "$TOP/sampledata/make-week.py" --out demo --ends 2026-12-01T10:00:00Z &&
	python3 - "$SAMPLE/expected.json" demo/expected.json <<-\PY
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:])
	assert b["now"] == "2026-12-01T10:00:00Z" and b["window"]["since"] == "2026-11-24T10:00:00Z", b["window"]
	assert len(a["heads"]) == len(b["heads"]) and a["report"]["escapes"] == b["report"]["escapes"]
	assert [h["pr"] for h in a["heads"]] == [h["pr"] for h in b["heads"]]
	assert a["report"]["classes"] == b["report"]["classes"] and len(a["main_runs"]) == len(b["main_runs"])
	assert a["report"]["main"]["red_minutes_mean"] == b["report"]["main"]["red_minutes_mean"]
	PY
'

test_done
