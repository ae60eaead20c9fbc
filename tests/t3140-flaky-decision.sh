#!/bin/bash
# In-run reruns (Surefire's flakyFailure, on a real Surefire report from
# the corpus) and reruns of a head: a pair is flaky only when a flake
# decided its verdicts; a shadow failure no flake explains stays
# over-strict, and reruns while both gates passed leave the pair agree.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

J=src/test/java/io/sodadata/dependson/soda/integrations/msteams
CRUD=$J/MicrosoftTeamsCrudTest.java
FLAKY_XML=$TEST_SRC/data/corpus/junit/surefire_flaky.xml

# surefire DIR OUTCOME: the corpus report into DIR/junit.xml, its
# flakyFailure kept (flaky), made a failure (failed) or dropped (pass).
surefire() {
	case "$2" in
	flaky) cp "$FLAKY_XML" "$1/junit.xml" ;;
	failed) sed -e "s/flakyFailure/failure/g" -e 's/failures="0"/failures="1"/' \
		"$FLAKY_XML" >"$1/junit.xml" ;;
	pass) sed -e "/<flakyFailure/,/<\/flakyFailure>/d" "$FLAKY_XML" >"$1/junit.xml" ;;
	esac
}

test_expect_success 'setup: seven pairs around one flaky Surefire test' '
	MREPO_TESTS="$CRUD $J/OtherTest.java" mrepo 7 &&
	s=$(sel selected 1 2 $J/) &&
	# 1: the shadow run failed the test the full run passed on an in-run rerun
	mrun a/1s 1 shadow 1 2026-11-01T08:00:00Z 60 fail "$s" && surefire a/1s failed &&
	mrun a/1f 1 full 1 2026-11-01T08:05:00Z 600 pass - && surefire a/1f flaky &&
	# 2: the shadow run failed another test: over-strict, the flake aside
	mrun a/2s 2 shadow 1 2026-11-01T09:00:00Z 60 fail "$s" $J/OtherTest.java::t:failed &&
	mrun a/2f 2 full 1 2026-11-01T09:05:00Z 600 pass - && surefire a/2f flaky &&
	# 3: both gates passed, the full run with an in-run rerun: agree
	mrun a/3s 3 shadow 1 2026-11-01T10:00:00Z 60 pass "$s" && surefire a/3s pass &&
	mrun a/3f 3 full 1 2026-11-01T10:05:00Z 600 pass - && surefire a/3f flaky &&
	# 4: the shadow run failed with no failing test on record: the flake is likelier
	mrun a/4s 4 shadow 1 2026-11-01T11:00:00Z 60 fail "$s" && surefire a/4s pass &&
	mrun a/4f 4 full 1 2026-11-01T11:05:00Z 600 pass - && surefire a/4f flaky &&
	# 5: full attempt 1 failed the test, attempt 2 passed; the shadow run failed it too
	mrun a/5s 5 shadow 1 2026-11-01T12:00:00Z 60 fail "$s" && surefire a/5s failed &&
	mrun a/5f 5 full 1 2026-11-01T12:05:00Z 600 fail - && surefire a/5f failed &&
	mrun a/5g 5 full 2 2026-11-01T12:20:00Z 600 pass - && surefire a/5g pass &&
	# 6: the same reruns, but the shadow run failed another test: over-strict
	mrun a/6s 6 shadow 1 2026-11-01T13:00:00Z 60 fail "$s" $J/OtherTest.java::t:failed &&
	mrun a/6f 6 full 1 2026-11-01T13:05:00Z 600 fail - && surefire a/6f failed &&
	mrun a/6g 6 full 2 2026-11-01T13:20:00Z 600 pass - && surefire a/6g pass &&
	# 7: the shadow run passed, full attempt 1 failed and its rerun passed: flaky
	mrun a/7s 7 shadow 1 2026-11-01T14:00:00Z 60 pass "$s" && surefire a/7s pass &&
	mrun a/7f 7 full 1 2026-11-01T14:05:00Z 600 fail - && surefire a/7f failed &&
	mrun a/7g 7 full 2 2026-11-01T14:20:00Z 600 pass - && surefire a/7g pass &&
	tiadash --db s.db --repo repo ingest a >out &&
	echo "17 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'report: flaky 1, 4, 5, 7; over-strict 2, 6; agree 3' '
	tiadash --db s.db report --format json >r.json &&
	json_close r.json "d[\"classes\"]" \
		"{\"agree\": 1, \"escape\": 0, \"non-hermetic\": 0, \"flaky\": 4, \"over-strict\": 2, \"incomplete\": 0, \"inherited\": 0, \"unresolved\": 0}" &&
	json_close r.json "[d[\"flaky\"][\"count\"], d[\"over_strict\"][\"count\"]]" "[4, 2]" &&
	# the flaky tests of the latest full attempts: pairs 1 to 4
	json_close r.json "d[\"flaky\"][\"tests\"]" 4
'

test_expect_success 'show names each pair with its class' '
	for pr in 1 2 3 4 5 6 7; do
		tiadash --db s.db show $pr --format json >s$pr.json &&
		python3 -c "import json,sys; print(sys.argv[1], json.load(open(sys.argv[2]))[\"class\"])" \
			$pr s$pr.json || return 1
	done >got &&
	cat >expect <<-\EOT &&
	1 flaky
	2 over-strict
	3 agree
	4 flaky
	5 flaky
	6 over-strict
	7 flaky
	EOT
	test_cmp expect got
'

test_done
