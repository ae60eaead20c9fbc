#!/bin/bash
# Main's record (SPEC 4, inherited): full runs without a PR on main's
# first-parent line are runs of main, never pairs; a PR failing only what
# main was already red on is inherited, outside the escape rate; red spans
# of main with the pairs that inherited them and the escape that brought
# them; escapes on a base no run of main covers; latent misses.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# A history: c0 on main; PR 1 (from c0) breaks tests/b.py, squashed as m1;
# PRs 2 and 3 branch from the red m1; m2 fixes it; PR 4 branches from m2;
# a side branch commit s1 that main never had.
test_expect_success 'setup: a red main between two escapes' '
	git init -q -b main repo &&
	mkdir -p repo/tests repo/src &&
	for t in a b c; do echo "def test_t(): pass" >repo/tests/$t.py; done &&
	echo 0 >repo/src/m.py &&
	(cd repo && commit_at 2026-10-31T00:00:00Z c0) && git -C repo rev-parse HEAD >heads.base &&
	git -C repo checkout -q -b pr1 && echo 1 >repo/src/p1.py &&
	(cd repo && commit_at 2026-11-01T07:00:00Z "pr 1") && git -C repo rev-parse HEAD >heads.1 &&
	git -C repo checkout -q main && echo 1 >repo/src/p1.py &&
	(cd repo && commit_at 2026-11-01T09:00:00Z "m1: pr 1") && git -C repo rev-parse HEAD >heads.m1 &&
	for n in 2 3; do
		git -C repo checkout -q -b pr$n main && echo $n >repo/src/p$n.py &&
		(cd repo && commit_at 2026-11-01T1$n:00:00Z "pr $n") &&
		git -C repo rev-parse HEAD >heads.$n && git -C repo checkout -q main || return 1
	done &&
	echo fixed >repo/src/m.py && (cd repo && commit_at 2026-11-02T11:00:00Z "m2: fix") &&
	git -C repo rev-parse HEAD >heads.m2 &&
	git -C repo checkout -q -b pr4 && echo 4 >repo/src/p4.py &&
	(cd repo && commit_at 2026-11-02T13:00:00Z "pr 4") && git -C repo rev-parse HEAD >heads.4 &&
	git -C repo checkout -q -b side heads.base 2>/dev/null || git -C repo checkout -q -b side "$(cat heads.base)" &&
	echo s >repo/src/s.py && (cd repo && commit_at 2026-11-02T14:00:00Z side) &&
	git -C repo rev-parse HEAD >heads.s1 && git -C repo checkout -q main
'

# prun DIR PR BASE KIND STARTED VERDICT SELECTION CASE...: a PR run based on BASE (a heads.* name)
prun() {
	local dir=$1 pr=$2 base=$3 kind=$4 at=$5 verdict=$6 sel=$7
	shift 7
	write_run "$dir" "\"repo\": \"acme/x\", \"pr\": $pr, \"head\": \"$(head_of "$pr")\",
		\"base\": \"$(head_of "$base")\", ${QUAR:+\"quarantine\": \"$QUAR\",} \"kind\": \"$kind\", \"started_at\": \"$at\",
		\"wall_clock_s\": 60, ${sel:+\"selection\": $sel,} \"verdict\": \"$verdict\",
		\"results\": [\"junit.xml\"]" &&
	junit "$dir/junit.xml" "$@"
}

# mainrun DIR COMMIT BASE STARTED VERDICT CASE...: a run of main (no PR), as
# record makes it after a merge: its base the commit before (QUAR=FILE: its
# quarantine list, in DIR)
mainrun() {
	local dir=$1 c=$2 base=$3 at=$4 verdict=$5
	shift 5
	write_run "$dir" "\"repo\": \"acme/x\", \"pr\": null, \"head\": \"$(head_of "$c")\",
		\"base\": \"$(head_of "$base")\", ${QUAR:+\"quarantine\": \"$QUAR\",}
		\"kind\": \"full\", \"started_at\": \"$at\", \"wall_clock_s\": 600,
		\"verdict\": \"$verdict\", \"results\": [\"junit.xml\"]" &&
	junit "$dir/junit.xml" "$@"
}

A="tests/a.py::test_t" B="tests/b.py::test_t" C="tests/c.py::test_t"

test_expect_success 'setup: the runs' '
	S=$(sel selected 1 3 tests/a.py) &&
	prun r/1s 1 base shadow 2026-11-01T08:00:00Z pass "$S" $A &&
	prun r/1f 1 base full 2026-11-01T08:05:00Z fail "" $A $B:failed $C &&
	mainrun r/m1 m1 base 2026-11-01T10:00:00Z fail $A $B:failed $C &&
	prun r/2s 2 m1 shadow 2026-11-01T12:00:00Z pass "$S" $A &&
	prun r/2f 2 m1 full 2026-11-01T12:05:00Z fail "" $A $B:failed $C &&
	prun r/3s 3 m1 shadow 2026-11-01T13:00:00Z fail "$S" $A:failed &&
	prun r/3f 3 m1 full 2026-11-01T13:05:00Z fail "" $A:failed $B:failed $C:failed &&
	mainrun r/m2 m2 m1 2026-11-02T12:00:00Z pass $A $B $C &&
	prun r/4s 4 m2 shadow 2026-11-02T14:00:00Z pass "$S" $A &&
	prun r/4f 4 m2 full 2026-11-02T14:05:00Z fail "" $A $B:failed $C &&
	mkdir -p r/s1 && printf "%s\n" $B $C >r/s1/quarantine.txt &&
	QUAR=quarantine.txt mainrun r/s1 s1 base 2026-11-02T15:00:00Z pass $A $B $C
'

test_expect_success 'ingest: a run without a PR off main'"'"'s line is said' '
	tiadash --db s.db --repo repo ingest r >out 2>err &&
	echo "11 new runs, 0 unchanged" >expect && test_cmp expect out &&
	echo "tiadash: warning: acme/x: the full run of $(head -c 12 heads.s1) names no PR and its commit is not on the first-parent line of main: stored as a head without a shadow run, not as a run of main" >expect &&
	test_cmp expect err
'

test_expect_success 'report: runs of main are not pairs; PR 2 inherited, not an escape' '
	tiadash --db s.db report --format json >r.json &&
	json_close r.json "[d[\"pairs\"], d[\"heads\"], d[\"full_runs\"], d[\"shadow_runs\"]]" "[4, 5, 5, 4]" &&
	json_close r.json "d[\"classes\"]" "{\"agree\": 1, \"escape\": 2, \"non-hermetic\": 0, \"flaky\": 0, \"over-strict\": 0, \"incomplete\": 1, \"inherited\": 1, \"unresolved\": 0}" &&
	json_close r.json "d[\"incomplete\"][\"by_reason\"]" "{\"no shadow run\": 1}" &&
	json_close r.json "[d[\"escapes\"][\"count\"], d[\"escapes\"][\"rate\"], d[\"escapes\"][\"prs\"]]" "[2, 0.5, [1, 4]]" &&
	json_close r.json "[d[\"main\"][k] for k in (\"runs\", \"inherited_pairs\", \"red_tests\", \"escapes_base_unrun\", \"red_minutes_mean\")]" \
		"[2, 1, [\"tests/b.py::test_t\"], 1, 1560]" &&
	tiadash --db s.db report --format csv >r.csv &&
	cut -d, -f1,5 r.csv >classes &&
	# a row per head, the runs of main as class main
	printf "pr,class\n1,escape\n,main\n2,inherited\n3,agree\n,main\n4,escape\n,incomplete\n" >expect &&
	test_cmp expect classes
'

test_expect_success 'report: the red span, who inherited it, which escape brought it' '
	json_close r.json "d[\"main\"][\"red_spans\"]" "[{\"repo\": \"acme/x\", \"test\": \"tests/b.py::test_t\",
		\"red_head\": \"$(cat heads.m1)\", \"red_at\": \"2026-11-01T10:00:00Z\",
		\"green_head\": \"$(cat heads.m2)\", \"green_at\": \"2026-11-02T12:00:00Z\",
		\"minutes\": 1560, \"runs\": 1, \"inherited_pairs\": 2, \"prs\": [2, 3],
		\"escape_pr\": 1, \"escape_head\": \"$(cat heads.1)\"}]"
'

test_expect_success 'report: a latent miss behind the shadow run'"'"'s own failure' '
	json_close r.json "d[\"latent_misses\"]" "{\"pairs\": 1, \"tests\": 1, \"list\": [{\"pr\": 3, \"head\": \"$(cat heads.3)\", \"tests\": [\"tests/c.py::test_t\"]}]}"
'

test_expect_success 'report text: main'"'"'s record in the report and the trade' '
	COLUMNS=80 tiadash --db s.db report >r.txt &&
	test_grep "^Main         2 runs of main; 1 pair failed only on tests red on main (1 test)," r.txt &&
	test_grep "^  1 of 2 escapes rest on a base no run of main covers" r.txt &&
	test_grep "^  tests/b.py::test_t: red from $(head -c 12 heads.m1) (2026-11-01T10:00:00Z) to" r.txt &&
	test_grep "^    PR #3 $(head -c 12 heads.3) tests/c.py::test_t" r.txt &&
	# the fitted lines as one
	tr -s " \n" "  " <r.txt >r.line &&
	test_grep "(2026-11-02T12:00:00Z), 1560 min; 2 pairs inherited it (#2, #3); likely from PR #1 $(head -c 12 heads.1)" r.line &&
	test_grep "main for about 1560 minutes" r.line
'

test_expect_success 'show: the classes and the lists agree with report' '
	tiadash --db s.db show 2 --format json >s2.json &&
	json_close s2.json "[d[\"class\"], d[\"missed\"], d[\"inherited\"], d[\"main_run\"]]" "[\"inherited\", [], [\"tests/b.py::test_t\"], \"$(cat heads.m1)\"]" &&
	tiadash --db s.db show 3 --format json >s3.json &&
	json_close s3.json "[d[\"class\"], d[\"inherited\"], d[\"latent_missed\"]]" "[\"agree\", [\"tests/b.py::test_t\"], [\"tests/c.py::test_t\"]]" &&
	tiadash --db s.db show 1 >s1.txt &&
	test_grep "^main        no run of main covers its base" s1.txt &&
	tiadash --db s.db show 4 --format json >s4.json &&
	json_close s4.json "[d[\"class\"], d[\"missed\"], d[\"main_run\"]]" "[\"escape\", [\"tests/b.py::test_t\"], \"$(cat heads.m2)\"]"
'

test_expect_success 'propose: a latent miss is evidence, not an escape to close' '
	(cd repo && tiadash --db ../s.db propose --format json) >p.json &&
	json_close p.json "[d[\"escapes\"], d[\"latent\"], d[\"latent_closable\"]]" "[2, 1, 1]" &&
	json_close p.json "[[m[\"pr\"], m[\"class\"], m[\"state\"], [c[\"path\"] for c in m[\"changed\"]], [t[\"test\"] for t in m[\"missed\"]]] for m in d[\"latent_misses\"]]" \
		"[[3, \"agree\", \"new\", [\"src/p3.py\"], [\"tests/c.py::test_t\"]]]" &&
	# the file it changed catches it; the recommended set stays the escapes'"'"'
	json_close p.json "[[x[\"closes\"], x[\"catches_latent\"], x[\"recommended\"]] for x in d[\"proposals\"] if x[\"glob\"] == \"src/p3.py\"]" \
		"[[[], [3], false]]" &&
	json_close p.json "sorted(x[\"glob\"] for x in d[\"proposals\"] if x[\"recommended\"])" \
		"[\"src/p1.py\", \"src/p4.py\"]" &&
	(cd repo && COLUMNS=80 tiadash --db ../s.db propose) >p.txt &&
	test_grep "^latent       1 latent miss (the gate held; the selector missed a failing\$" p.txt &&
	# the best-ranked candidate that catches it: **/*.py closes both escapes too
	sed -n "/^latent misses/,/^\$/p" p.txt >actual &&
	cat >expect <<-\EOF &&
	latent misses (evidence, not escapes)
	  PR 3  head $(head -c 12 heads.3)  agree  new (caught by candidate **/*.py)
	    changed  src/p3.py  no rule
	    missed   tests/c.py::test_t
	               source tests/c.py mentions no changed file'"'"'s name

	EOF
	sed "s/\$(head -c 12 heads.3)/$(head -c 12 heads.3)/" expect >expect.h &&
	test_cmp expect.h actual
'

test_expect_success 'a run of main ingested later changes the classes at once' '
	mainrun r2/m0 base base 2026-10-31T12:00:00Z pass $A $B $C &&
	tiadash --db s.db --repo repo ingest r2 >out 2>err &&
	test_must_be_empty err &&
	tiadash --db s.db report --format json >r2.json &&
	json_close r2.json "[d[\"main\"][\"runs\"], d[\"main\"][\"escapes_base_unrun\"], d[\"classes\"][\"escape\"]]" "[3, 0, 2]"
'

test_expect_success 'tests: per-test records, most missed first' '
	tiadash --db s.db tests --format json >t.json &&
	json_close t.json "[d[\"pairs\"], d[\"full_runs\"]]" "[4, 5]" &&
	json_close t.json "[[t[k] for k in (\"id\", \"ran\", \"selected\", \"failed\", \"missed\", \"inherited\", \"flaky\", \"quarantined\", \"first_seen\", \"last_seen\")] for t in d[\"tests\"]]" \
		"[[\"$B\", 5, 0, 4, 2, 2, 0, 0, \"2026-11-01T08:00:00Z\", \"2026-11-02T15:00:00Z\"],
		  [\"$A\", 5, 4, 1, 0, 0, 0, 0, \"2026-11-01T08:00:00Z\", \"2026-11-02T15:00:00Z\"],
		  [\"$C\", 5, 0, 1, 0, 0, 0, 0, \"2026-11-01T08:00:00Z\", \"2026-11-02T15:00:00Z\"]]" &&
	tiadash --db s.db tests >t.txt &&
	cat >expect <<-EOF &&
	MISSED FAILED INHER FLAKY QUAR SELECT RAN  LAST SEEN   TEST
	     2      4     2     0    0      0   5  2026-11-02  $B
	     0      1     0     0    0      4   5  2026-11-02  $A
	     0      1     0     0    0      0   5  2026-11-02  $C
	EOF
	sed -n 4,7p t.txt >actual && test_cmp expect actual
'

test_expect_success 'tests --id: one test'"'"'s history, pair by pair' '
	tiadash --db s.db tests --id $B --format json >h.json &&
	json_close h.json "[[e[k] for k in (\"pr\", \"class\", \"outcome\", \"selected\")] for e in d[\"history\"]]" \
		"[[1, \"escape\", \"missed\", false], [2, \"inherited\", \"inherited\", false],
		  [3, \"agree\", \"inherited\", false], [4, \"escape\", \"missed\", false],
		  [null, \"incomplete\", \"passed\", false]]" &&
	json_close h.json "[d[\"test\"][\"missed\"], d[\"test\"][\"inherited\"]]" "[2, 2]"
'

test_expect_success 'tests: quarantined tests green long enough to unquarantine' '
	# since 2026-11-02: PR 4 failed tests/b.py, tests/c.py passed twice
	tiadash --db s.db tests --until 2026-11-03 --green 1 --format json >u.json &&
	json_close u.json "d[\"unquarantine\"]" "{\"green_days\": 1, \"since\": \"2026-11-02T00:00:00Z\", \"tests\": [\"$C\"]}" &&
	tiadash --db s.db tests --until 2026-11-03 --green 2 --format json >u2.json &&
	json_close u2.json "d[\"unquarantine\"][\"tests\"]" "[]" &&
	tiadash --db s.db tests --until 2026-11-03 --green 1 --format csv >u.csv &&
	test_grep "^$C,5,0,1,0,0,0,0,2026-11-01T08:00:00Z,2026-11-02T15:00:00Z,yes$" u.csv &&
	test_expect_code 2 tiadash --db s.db tests --green 0 2>err &&
	test_grep "bad value .0. for --green" err
'

test_expect_success 'main moves on: the line follows its tip' '
	echo 3 >repo/src/m.py && (cd repo && commit_at 2026-11-03T09:00:00Z m3) &&
	git -C repo rev-parse HEAD >heads.m3 &&
	mainrun r3/m3 m3 m2 2026-11-03T10:00:00Z fail $A $B $C:failed &&
	tiadash --db s.db --repo repo ingest r3 >out 2>err &&
	test_must_be_empty err &&
	tiadash --db s.db report --format json >r3.json &&
	json_close r3.json "[d[\"main\"][\"runs\"], len(d[\"main\"][\"red_spans\"])]" "[4, 2]" &&
	json_close r3.json "[d[\"main\"][\"red_spans\"][1][k] for k in (\"test\", \"red_head\", \"green_head\", \"minutes\")]" \
		"[\"$C\", \"$(cat heads.m3)\", null, null]" &&
	test "$(sqlite3 s.db "select count(*) from mainline")" = 4
'

test_expect_success 'a rewritten main: the commits it dropped leave the line' '
	git -C repo reset -q --hard "$(cat heads.m2)" &&
	echo 3b >repo/src/m.py && (cd repo && commit_at 2026-11-03T11:00:00Z m3b) &&
	git -C repo rev-parse HEAD >heads.m3b &&
	mainrun r4/m3b m3b m2 2026-11-03T12:00:00Z pass $A $B $C &&
	tiadash --db s.db --repo repo ingest r4 >out 2>err &&
	test_must_be_empty err &&
	sqlite3 s.db "select sha from mainline order by seq" >line &&
	cat heads.base heads.m1 heads.m2 heads.m3b >expect && test_cmp expect line &&
	tiadash --db s.db report --format json >r4.json &&
	# m3 is off the line now: its run is a head without a shadow run
	json_close r4.json "[d[\"main\"][\"runs\"], d[\"incomplete\"][\"count\"]]" "[4, 2]"
'

test_done
