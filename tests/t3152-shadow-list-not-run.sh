#!/bin/bash
# A narrowed shadow run keeps its own test list (issue 33, point 6): a test
# its directory entry selected but that is missing from that list was
# selected, not run. The pair is an escape with the test under not_run in
# every output; a test the entry selected that did run (and passed in the
# shadow run) is still non-hermetic when the full run fails it.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: two pairs whose shadow runs selected tests/billing/' '
	MREPO_TESTS="tests/billing/test_a.py tests/billing/test_b.py tests/other.py" mrepo 6 &&
	# 1: the shadow run ran only test_a (one of its two cases); the full
	# run fails test_b
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$(sel selected 2 10 tests/billing/)" \
		tests/billing/test_a.py::t &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_a.py::u tests/billing/test_b.py::t:failed tests/other.py::t &&
	# 2: the shadow run ran test_b too, which passed there
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 60 pass "$(sel selected 2 10 tests/billing/)" \
		tests/billing/test_a.py::t tests/billing/test_a.py::u tests/billing/test_b.py::t &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_a.py::u tests/billing/test_b.py::t:failed tests/other.py::t &&
	tiadash --db s.db --repo repo ingest a >out &&
	echo "4 new runs, 0 unchanged" >expect && test_cmp expect out
'
test_expect_success 'show: not run from the shadow list, and a test that ran is non-hermetic' '
	tiadash --db s.db show 1 --format json >s1.json &&
	json_close s1.json "[d[\"class\"], d[\"missed\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
		"[\"escape\", [], [], [\"tests/billing/test_b.py::t\"]]" &&
	tiadash --db s.db show 1 >s1.txt &&
	test_grep "^not run     tests/billing/test_b.py::t$" s1.txt &&
	tiadash --db s.db show 2 --format json >s2.json &&
	json_close s2.json "[d[\"class\"], d[\"missed\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
		"[\"non-hermetic\", [], [\"tests/billing/test_b.py::t\"], []]"
'

test_expect_success 'report, gate-check and status agree' '
	tiadash --db s.db report --since 2026-11-01 --format json >r.json &&
	json_close r.json "[d[\"classes\"][\"escape\"], d[\"classes\"][\"non-hermetic\"], d[\"escapes\"][\"count\"]]" \
		"[1, 1, 2]" &&
	json_close r.json "[[e[\"pr\"], e[\"class\"], e[\"non_hermetic\"], e[\"not_run\"]] for e in d[\"escapes\"][\"list\"]]" \
		"[[1, \"escape\", [], [\"tests/billing/test_b.py::t\"]], [2, \"non-hermetic\", [\"tests/billing/test_b.py::t\"], []]]" &&
	tiadash --db s.db report --since 2026-11-01 --format md >r.md &&
	test_grep "^| escapes | 2 of 2 pairs (100.00%), 0 explained, 1 non-hermetic |$" r.md &&
	test_grep "^| PR #1 [0-9a-f]* | escape |  | not run: tests/billing/test\\\\_b.py::t | no |$" r.md &&
	test_grep "^| PR #2 [0-9a-f]* | non-hermetic |  | tests/billing/test\\\\_b.py::t | no |$" r.md &&
	test_expect_code 1 tiadash --db s.db gate-check --since 2026-11-01 --format json >g.json &&
	json_close g.json "[c[\"value\"] for c in d[\"criteria\"] if c[\"name\"] == \"unexplained_escapes\"]" "[2]" &&
	json_close g.json "[d[\"unresolved\"], d[\"escapes_base_unrun\"]]" "[0, 2]" &&
	tiadash --db s.db status >st.txt &&
	test_grep "^runs      2 shadow, 2 full$" st.txt &&
	test_grep "^identity  2 of 2 failing tests resolved,$" st.txt &&
	test_grep "^          0 of 2 selection entries select no test$" st.txt
'

test_expect_success 'the shadow runs keep only what no entry names by id, apart from the suite' '
	# the directory entry names no test by id: each run keeps what it ran
	sqlite3 s.db "SELECT r.pr, length(s.ran_broad) > 0 FROM selection s
		JOIN run r ON r.id = s.run_id ORDER BY r.pr" >actual &&
	printf "1|1\n2|1\n" >expect &&
	test_cmp expect actual &&
	# only full runs list the suite, and the blind spots read only those
	sqlite3 s.db "SELECT r.kind, count(*) FROM run_tests t JOIN run r ON r.id = t.run_id
		GROUP BY r.kind ORDER BY 1" >actual &&
	echo "full|2" >expect &&
	test_cmp expect actual &&
	json_close r.json "[d[\"blind_spots\"][k] for k in (\"tests_in_full_runs\", \"full_runs_with_tests\", \"never_selected\", \"tests\")]" \
		"[4, 2, 1, [\"tests/other.py::t\"]]"
'

test_expect_success 'a selection by ids keeps an empty list; an entry naming the test by id tells it ran' '
	# 3: entries name both tests by id and the shadow ran them; the full
	# run fails one: non-hermetic, nothing kept but the empty list
	mrun b/3s 3 shadow 1 2026-11-02T08:00:00Z 60 pass \
		"$(sel selected 2 10 tests/billing/test_a.py::t tests/billing/test_b.py::t)" \
		tests/billing/test_a.py::t tests/billing/test_b.py::t &&
	mrun b/3f 3 full 1 2026-11-02T08:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_b.py::t:failed &&
	# 4: the same entries, but the shadow ran only test_a: not run
	mrun b/4s 4 shadow 1 2026-11-02T09:00:00Z 60 pass \
		"$(sel selected 2 10 tests/billing/test_a.py::t tests/billing/test_b.py::t)" \
		tests/billing/test_a.py::t &&
	mrun b/4f 4 full 1 2026-11-02T09:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_b.py::t:failed &&
	tiadash --db s.db --repo repo ingest b >out &&
	sqlite3 s.db "SELECT r.pr, typeof(s.ran_broad), length(s.ran_broad) FROM selection s
		JOIN run r ON r.id = s.run_id WHERE r.pr > 2 ORDER BY r.pr" >actual &&
	printf "3|blob|0\n4|blob|0\n" >expect &&
	test_cmp expect actual &&
	tiadash --db s.db report --since 2026-11-02 --format json >r2.json &&
	json_close r2.json "[[e[\"pr\"], e[\"class\"], e[\"non_hermetic\"], e[\"not_run\"]] for e in d[\"escapes\"][\"list\"]]" \
		"[[3, \"non-hermetic\", [\"tests/billing/test_b.py::t\"], []], [4, \"escape\", [], [\"tests/billing/test_b.py::t\"]]]"
'

test_expect_success 'a test the shadow run skipped did not run, whichever entry selected it' '
	# 5: by a directory entry; 6: by its id
	mrun c/5s 5 shadow 1 2026-11-03T08:00:00Z 60 pass "$(sel selected 2 10 tests/billing/)" \
		tests/billing/test_a.py::t tests/billing/test_b.py::t:skipped &&
	mrun c/5f 5 full 1 2026-11-03T08:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_b.py::t:failed &&
	mrun c/6s 6 shadow 1 2026-11-03T09:00:00Z 60 pass \
		"$(sel selected 2 10 tests/billing/test_a.py::t tests/billing/test_b.py::t)" \
		tests/billing/test_a.py::t tests/billing/test_b.py::t:skipped &&
	mrun c/6f 6 full 1 2026-11-03T09:05:00Z 600 fail - tests/billing/test_a.py::t \
		tests/billing/test_b.py::t:failed &&
	tiadash --db s.db --repo repo ingest c >out &&
	for pr in 5 6; do
		tiadash --db s.db show $pr --format json >s$pr.json &&
		json_close s$pr.json "[d[\"class\"], d[\"non_hermetic\"], d[\"not_run\"]]" \
			"[\"escape\", [], [\"tests/billing/test_b.py::t\"]]" || return 1
	done &&
	# the entry naming the skipped test matched it: the identity figure holds
	tiadash --db s.db status >st.txt &&
	test_grep "^          0 of 9 selection entries select no test$" st.txt
'

test_done
