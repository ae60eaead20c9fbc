#!/bin/bash
# Re-ingesting the same bytes changes nothing, wherever they come from; a
# changed source is a conflict unless --replace; an unknown commit is stored,
# marked git-unknown and warned about (SPEC 3.4).
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup' '
	git init -q repo && cd repo && echo a >a.c && commit_at "2026-10-30T10:00:00Z" init &&
	echo b >>a.c && commit_at "2026-10-30T11:00:00Z" two && cd .. &&
	base=$(git -C repo rev-parse HEAD~1) head=$(git -C repo rev-parse HEAD) &&
	for k in shadow full; do
		write_run "week/$k" "\"pr\": 5, \"base\": \"$base\", \"head\": \"$head\",
			\"kind\": \"$k\", \"started_at\": \"2026-11-02T10:00:00Z\",
			\"verdict\": \"pass\", \"results\": [\"j.xml\"]" &&
		junit "week/$k/j.xml" a.py::t1 a.py::t2
	done
'

test_expect_success 'first ingest, then the same again: nothing changes' '
	tiadash --db s.db --repo repo ingest week >out1 &&
	store_dump s.db >dump1 &&
	tiadash --db s.db --repo repo ingest week >out2 &&
	store_dump s.db >dump2 &&
	test_cmp dump1 dump2 &&
	test_grep "^2 new runs, 0 unchanged$" out1 &&
	test_grep "^0 new runs, 2 unchanged$" out2
'

test_expect_success 'a copy of the same artifacts elsewhere is the same runs' '
	cp -r week copy && tiadash --db s.db --repo repo ingest copy >out &&
	test_grep "^0 new runs, 2 unchanged$" out &&
	store_dump s.db >dump3 && test_cmp dump1 dump3
'

test_expect_success 'naming a source twice in one command reads it once' '
	tiadash --db s.db --repo repo ingest week/full week/full/tiadash-run.json >out &&
	test_grep "^0 new runs, 1 unchanged$" out
'

test_expect_success 'changed content for a stored run is a conflict, exit 2' '
	junit week/full/j.xml a.py::t1 a.py::t2:failed &&
	test_expect_code 2 tiadash --db s.db --repo repo ingest week/full >out 2>err &&
	test_grep "already stored from .*with different content (give --replace" err &&
	store_dump s.db >dump4 && test_cmp dump1 dump4
'

test_expect_success '--replace replaces the run, and only it' '
	tiadash --db s.db --repo repo ingest --replace week/full >out &&
	test_grep "^0 new runs, 0 unchanged, 1 replaced$" out &&
	tiadash --db s.db show 5 --format json >show.json &&
	test "$(json_get show.json "json.dumps(d[\"runs\"][1][\"failed\"])")" = "[\"a.py::t2\"]" &&
	tiadash --db s.db status --format json >st.json &&
	test "$(json_get st.json "d[\"sources\"]")" = 2
'

test_expect_success 'an unknown commit: stored, marked git-unknown, warned, exit 0' '
	write_run ghost "\"pr\": 6, \"base\": \"$(git -C repo rev-parse HEAD)\",
		\"head\": \"1111111111111111111111111111111111111111\",
		\"kind\": \"shadow\", \"started_at\": \"2026-11-03T10:00:00Z\", \"verdict\": \"pass\",
		\"results\": [\"j.xml\"]" &&
	junit ghost/j.xml a.py::t1 &&
	tiadash --db s.db --repo repo ingest ghost >out 2>err &&
	test_grep "warning: .*PR 6: commit 1111111111111111111111111111111111111111 is not in the repository" err &&
	test_grep "marked git-unknown" err &&
	test_grep "^1 new run, 0 unchanged (1 with unknown commits)$" out &&
	sqlite3 s.db "select git from run r join head h on h.id = r.head_id where h.pr = 6" >git &&
	echo unknown >expect && test_cmp expect git
'

test_expect_success 'a git-unknown pair is unclassifiable (incomplete)' '
	write_run ghost-full "\"pr\": 6, \"base\": \"$(git -C repo rev-parse HEAD)\",
		\"head\": \"1111111111111111111111111111111111111111\",
		\"kind\": \"full\", \"started_at\": \"2026-11-03T11:00:00Z\", \"verdict\": \"fail\",
		\"results\": [\"j.xml\"]" &&
	junit ghost-full/j.xml a.py::t1:failed &&
	tiadash --db s.db --repo repo ingest ghost-full >/dev/null 2>&1 &&
	tiadash --db s.db show 6 --format json >g.json &&
	test "$(json_get g.json "d[\"class\"]")" = incomplete &&
	test "$(json_get g.json "d[\"why\"]")" = "a commit is not in the repository (git-unknown)" &&
	test "$(json_get g.json "d[\"diff_coverage\"]")" = None &&
	tiadash --db s.db show 6 >g.txt &&
	test_grep "^changed     unknown (the commits are not in the repository)$" g.txt
'

test_expect_success 'without a repository the run is stored without changed files' '
	mkdir elsewhere && cp -r week elsewhere/ && cd elsewhere &&
	tiadash --db n.db ingest week >out 2>err &&
	test_grep "warning: no git repository" err &&
	test_grep "^2 new runs" out &&
	tiadash --db n.db show 5 --format json >s.json &&
	test "$(json_get s.json "d[\"changed\"]")" = "[]" &&
	tiadash --db n.db show 5 >s.txt &&
	test_grep "^changed     unknown (no diff recorded: no base, or no repository at ingest)$" s.txt
'

test_done
