#!/usr/bin/env bash
# GitLab merges: the merge request's number is not in the subject ("Merge
# branch 'x' into 'main'") but in the body ("See merge request group/p!N");
# replay takes it from there. A merge commit with no number at all is
# matched to the runs of the branch it merged (its second parent).
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"
SQ="'"

# merge_msg_at HOURS BRANCH FILE: a --no-ff merge whose message is in FILE.
merge_msg_at() {
	local when="@$((1793491200 + $1 * 3600)) +0000"
	GIT_AUTHOR_DATE="$when" GIT_COMMITTER_DATE="$when" \
		git merge -q --no-ff "$2" -F "$3"
}

test_expect_success 'setup: two GitLab merges, one naming its merge request' '
	git init -q -b main repo && cd repo &&
	mkdir src tests &&
	echo "a = 1" >src/a.py && echo "b = 1" >src/b.py &&
	echo "def test_a(): pass" >tests/test_a.py &&
	echo "def test_b(): pass" >tests/test_b.py &&
	git add . && commit_at 1 "Initial import" &&
	git checkout -q -b mr21 && echo "a = 2" >src/a.py &&
	git add . && commit_at 2 "Change a" &&
	git checkout -q main &&
	printf "Merge branch %s into %s\n\nChange a\n\nSee merge request acme/app!21\n" \
		"'"'"'mr21'"'"'" "'"'"'main'"'"'" >../msg21 &&
	merge_msg_at 3 mr21 ../msg21 &&
	git checkout -q -b topic && echo "b = 2" >src/b.py &&
	git add . && commit_at 4 "Change b" &&
	git checkout -q main &&
	printf "Merge branch %s into %s\n" "'"'"'topic'"'"'" "'"'"'main'"'"'" >../msgtopic &&
	merge_msg_at 5 topic ../msgtopic &&
	git rev-parse mr21 >../h21 && git rev-parse topic >../htopic &&
	git rev-parse HEAD~2 >../base && cd ..
'

# record PR HEAD KIND VERDICT SELECTED FAILING: one run, as CI would write it.
record() {
	local d=art/$1$3 sel=""
	if [ "$3" = shadow ]; then
		sel=', "selection": {"decision": "selected", "reasons": [], "total_tests": 2, "selected": ["'"$5"'"]}'
	fi
	write_run "$d" "\"pr\": $1, \"base\": \"$(cat base)\", \"head\": \"$2\", \"kind\": \"$3\", \"attempt\": 1, \"started_at\": \"2026-11-01T10:00:00Z\", \"wall_clock_s\": 60, \"verdict\": \"$4\", \"results\": [\"junit.xml\"]$sel" &&
	junit "$d/junit.xml" $6
}

test_expect_success 'setup: the runs of both merge requests (the second recorded as PR 22)' '
	record 21 "$(cat h21)" shadow pass tests/test_b.py tests/test_b.py::test_b &&
	record 21 "$(cat h21)" full fail - "tests/test_a.py::test_a:failed tests/test_b.py::test_b" &&
	record 22 "$(cat htopic)" shadow pass tests/test_a.py tests/test_a.py::test_a &&
	record 22 "$(cat htopic)" full fail - "tests/test_a.py::test_a tests/test_b.py::test_b:failed" &&
	tiadash --db s.db --repo repo ingest art >out &&
	echo "4 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'replay: the number from the body, the runs by number or second parent' '
	tiadash --db s.db --repo repo replay --since 2026-11-01 --format json >out.json &&
	replay_rows out.json >actual &&
	cat >expect <<-\EOF &&
	None selected 1 1 [] [tests/test_b.py::test_b]
	21 selected 1 1 [] [tests/test_a.py::test_a]
	None rules-only 4 None [] []
	EOF
	test_cmp expect actual &&
	json_get out.json "[c[\"recorded\"] and c[\"recorded\"][\"head\"] for c in d[\"changes\"]]" >actual &&
	echo "[${SQ}$(cat htopic)${SQ}, ${SQ}$(cat h21)${SQ}, None]" >expect &&
	test_cmp expect actual
'

test_expect_success 'a body line that only looks like a trailer gives no number' '
	cd repo &&
	printf "Tidy up\n\nSee merge request acme/app!21x\nsee merge request acme/app!5\n" >../msg &&
	echo "c = 1" >src/c.py && git add . &&
	GIT_AUTHOR_DATE="@1793512800 +0000" GIT_COMMITTER_DATE="@1793512800 +0000" git commit -q -F ../msg &&
	cd .. &&
	tiadash --repo repo replay --since 2026-11-01 --format json >out.json &&
	json_get out.json "d[\"changes\"][0][\"pr\"]" >actual &&
	echo None >expect && test_cmp expect actual
'

test_done
