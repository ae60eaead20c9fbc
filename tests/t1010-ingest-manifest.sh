#!/bin/bash
# Ingest a shadow and a full manifest of one PR: the three-dot diff, the
# selection, coverage of the changed lines, and the pair's class.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a repository with an interleaved PR' '
	git init -q repo && cd repo &&
	mkdir -p src docs &&
	printf "1\n2\n3\n4\n5\n" >src/a.c && printf "b\n" >src/b.c &&
	printf "doc\n" >docs/x.md && printf "same old\ncontent here\nfor rename\n" >old.txt &&
	commit_at "2026-10-30T10:00:00Z" init &&
	git checkout -q -b pr1 &&
	printf "1\n2\nnew3\n3\n4\n5\nnew6\n" >src/a.c &&
	git mv old.txt new.txt && git rm -q docs/x.md &&
	mkdir tests && printf "def test_t(): pass\n" >tests/t.py &&
	commit_at "2026-10-31T10:00:00Z" "pr1 change" &&
	git checkout -q main &&
	printf "b\nb2\n" >src/b.c && commit_at "2026-11-01T10:00:00Z" "main moves on" &&
	git rev-parse main >../base && git rev-parse pr1 >../head
'

base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)

test_expect_success 'setup: the shadow and full runs of PR 41' '
	write_run art/shadow "\"repo\": \"acme/x\", \"pr\": 41, \"base\": \"$base\", \"head\": \"$head\",
		\"kind\": \"shadow\", \"attempt\": 1, \"started_at\": \"2026-11-02T10:00:00+01:00\",
		\"wall_clock_s\": 95.5, \"verdict\": \"pass\",
		\"selection\": {\"decision\": \"selected\", \"reasons\": [], \"total_tests\": 4,
		                \"selected\": [\"tests/t.py\"]},
		\"results\": [\"junit.xml\"], \"coverage\": [\"cov/lcov.info\"]" &&
	junit art/shadow/junit.xml tests/t.py::test_t &&
	mkdir -p art/shadow/cov &&
	printf "TN:\nSF:/home/runner/work/x/x/src/a.c\nDA:1,1\nDA:3,4\nDA:7,0\nDA:9,1\nend_of_record\n" \
		>art/shadow/cov/lcov.info &&
	write_run art/full "\"repo\": \"acme/x\", \"pr\": 41, \"base\": \"$base\", \"head\": \"$head\",
		\"kind\": \"full\", \"attempt\": 1, \"started_at\": \"2026-11-02T09:30:00Z\",
		\"wall_clock_s\": 1200, \"verdict\": \"fail\", \"results\": [\"junit.xml\"]" &&
	junit art/full/junit.xml tests/t.py::test_t tests/u.py::test_x:failed \
		tests/u.py::test_y:skipped tests/v.py::test_z
'

test_expect_success 'ingest a directory of manifests' '
	tiadash --db s.db --repo repo ingest art >out &&
	echo "2 new runs, 0 unchanged" >expect &&
	test_cmp expect out
'

test_expect_success 'status counts runs, pairs, tests and failures; tests/u.py is not in the tree' '
	tiadash --db s.db status --format json | json_norm >actual &&
	echo "{\"failures\": 1, \"first\": \"2026-11-02T09:00:00Z\", \"identity\": {\"by_name\": 0, \"entries_matching_no_test\": 0, \"entries_unresolved\": 0, \"failing_tests\": 1, \"quarantine_lines\": 0, \"quarantine_unresolved\": 0, \"quarantine_unresolved_lines\": [], \"resolved\": 0, \"selection_entries\": 1, \"unresolved\": [\"tests/u.py::test_x\"]}, \"last\": \"2026-11-02T09:30:00Z\", \"pairs\": 1, \"runs\": {\"full\": 1, \"shadow\": 1}, \"sources\": 2, \"tests\": 5}" >expect &&
	test_cmp expect actual
'

test_expect_success 'show: a failure whose file the tree lacks is unresolved, not missed' '
	tiadash --db s.db show 41 --format json >show.json &&
	test "$(json_get show.json "d[\"class\"]")" = unresolved &&
	test "$(json_get show.json "json.dumps(d[\"missed\"])")" = "[]" &&
	test "$(json_get show.json "json.dumps(d[\"unresolved\"])")" = "[\"tests/u.py::test_x\"]" &&
	test "$(json_get show.json "d[\"base\"]")" = "$base" &&
	test "$(json_get show.json "d[\"head\"]")" = "$head" &&
	test "$(json_get show.json "d[\"pr\"]")" = 41
'

test_expect_success 'changed files are the three-dot diff, renames and deletions included' '
	json_get show.json "\"\\n\".join(f[\"status\"]+\" \"+f[\"path\"] for f in d[\"changed\"])" >actual &&
	cat >expect <<-\EOF &&
	deleted docs/x.md
	renamed new.txt
	modified src/a.c
	added tests/t.py
	EOF
	test_cmp expect actual &&
	git -C repo diff --name-status "$base...$head" | cut -f2- >git-three-dot &&
	test_grep "src/a.c" git-three-dot && ! grep -q src/b.c git-three-dot &&
	git -C repo diff --name-only "$base" "$head" >git-two-dot &&
	test_grep "src/b.c" git-two-dot
'

test_expect_success 'diff coverage: executed / executable added lines' '
	# Added lines of src/a.c are 3 and 7; the report lists 3 (hit) and 7 (not).
	test "$(json_get show.json "d[\"diff_coverage\"]")" = 0.5
'

test_expect_success 'selection and runs in show' '
	test "$(json_get show.json "d[\"selection\"][\"decision\"]")" = selected &&
	test "$(json_get show.json "d[\"selection\"][\"selected_count\"]")" = 1 &&
	test "$(json_get show.json "d[\"selection\"][\"total_tests\"]")" = 4 &&
	json_get show.json "json.dumps([[r[k] for k in (\"kind\", \"attempt\", \"verdict\", \"tests\", \"failed\", \"skipped\", \"errors\", \"wall_clock_s\")] for r in d[\"runs\"]])" >actual &&
	cat >expect <<-\EOF &&
	[["shadow", 1, "pass", 1, [], 0, 0, 95.5], ["full", 1, "fail", 4, ["tests/u.py::test_x"], 1, 0, 1200]]
	EOF
	test_cmp expect actual
'

test_expect_success 'show by commit prefix and by #PR' '
	tiadash --db s.db show "${head:0:10}" --format json | json_norm >a &&
	tiadash --db s.db show "#41" --format json | json_norm >b &&
	json_norm <show.json >c &&
	test_cmp a c && test_cmp b c
'

test_expect_success 'show text names the class and the missed test' '
	tiadash --db s.db show 41 >out &&
	test_grep "^class       unresolved$" out &&
	test_grep "^unresolved  tests/u.py::test_x$" out &&
	test_grep "^diff cov    0.50 (1 of 2 changed executable lines run)$" out
'

test_expect_success 'show of an unknown PR: exit 2' '
	test_expect_code 2 tiadash --db s.db show 999 2>err &&
	test_grep "no pair for .999." err
'

test_done
