#!/bin/bash
# A selected test missing from the shadow run's results was selected, not
# run (issue 33): the gate passed without it, so the pair is an escape with
# the test under not_run, not a non-hermetic pass. The shadow run's own
# stored test list tells, even where a directory entry named other tests
# it ran; where it stored no results, nothing tells: selected and run.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: four pairs whose full runs fail tests/a.py::t1' '
	MREPO_TESTS="tests/a.py tests/b.py" mrepo 4 &&
	# 1: a.py selected, but the shadow run reported only b.py
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$(sel selected 2 10 tests/a.py tests/b.py)" tests/b.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 fail - tests/a.py::t1:failed tests/b.py::t &&
	# 2: a.py selected, ran and passed in shadow: non-hermetic
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 60 pass "$(sel selected 1 10 tests/a.py)" tests/a.py::t1 &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 600 fail - tests/a.py::t1:failed &&
	# 3: a.py selected, the shadow run stored no results: nothing tells
	write_run a/3s "\"repo\": \"acme/x\", \"pr\": 3, \"head\": \"$(head_of 3)\",
		\"base\": \"$(head_of base)\", \"kind\": \"shadow\", \"attempt\": 1,
		\"started_at\": \"2026-11-01T10:00:00Z\", \"wall_clock_s\": 60, \"verdict\": \"pass\",
		\"selection\": $(sel selected 1 10 tests/a.py)" &&
	mrun a/3f 3 full 1 2026-11-01T10:05:00Z 600 fail - tests/a.py::t1:failed &&
	# 4: the directory entry named b.py, which ran; its list lacks a.py
	mrun a/4s 4 shadow 1 2026-11-01T11:00:00Z 60 pass "$(sel selected 2 10 tests/)" tests/b.py::t &&
	mrun a/4f 4 full 1 2026-11-01T11:05:00Z 600 fail - tests/a.py::t1:failed &&
	tiadash --db s.db --repo repo ingest a >out &&
	echo "8 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'show: selected, not run is its own evidence, and an escape' '
	tiadash --db s.db show 1 --format json >s1.json &&
	json_close s1.json "[d[\"class\"], d[\"missed\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
		"[\"escape\", [], [], [\"tests/a.py::t1\"]]" &&
	tiadash --db s.db show 1 >s1.txt &&
	test_grep "^not run     tests/a.py::t1$" s1.txt &&
	tiadash --db s.db show 4 --format json >s4.json &&
	json_close s4.json "[d[\"class\"], d[\"missed\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
		"[\"escape\", [], [], [\"tests/a.py::t1\"]]" &&
	for pr in 2 3; do
		tiadash --db s.db show $pr --format json >s$pr.json &&
		json_close s$pr.json "[d[\"class\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
			"[\"non-hermetic\", [\"tests/a.py::t1\"], []]" || return 1
	done
'

test_expect_success 'report: every format says which' '
	tiadash --db s.db report --format json >r.json &&
	json_close r.json "[d[\"classes\"][\"escape\"], d[\"classes\"][\"non-hermetic\"], d[\"escapes\"][\"count\"]]" "[2, 2, 4]" &&
	json_close r.json "sorted([e[\"pr\"], e[\"class\"], e[\"missed\"], e[\"not_run\"]] for e in d[\"escapes\"][\"list\"])" \
		"[[1, \"escape\", [], [\"tests/a.py::t1\"]], [2, \"non-hermetic\", [], []], [3, \"non-hermetic\", [], []], [4, \"escape\", [], [\"tests/a.py::t1\"]]]" &&
	tiadash --db s.db report >r.txt &&
	test_grep "^  PR #1 [0-9a-f]* escape acme/x, 1 selected, not run$" r.txt &&
	test_grep "^  PR #4 [0-9a-f]* escape acme/x, 1 selected, not run$" r.txt &&
	tiadash --db s.db report --format md >r.md &&
	test_grep "| escape |  | not run: tests/a.py::t1 | no |$" r.md
'

test_done
