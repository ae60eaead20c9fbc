#!/bin/bash
# Quarantine lines in each producer's own form (issue 33): Surefire's
# -Dtest=Class#method and Class.method against a real Surefire report,
# Go's import/path.TestX against gotestsum's shape; a line that names no
# test file is warned about at ingest, counted in the identity figure,
# and fails gate-check's identity criterion.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

SUREFIRE=$TEST_SRC/data/corpus/junit/surefire_EmailAddressTest.xml
JAVA=src/test/java/action/surefire/report/email/EmailAddressTest.java

# gotestsum's default report shape (as in corpus/junit/gotestsum_junitxml-report.xml)
gotestsum_xml() {
	cat <<-\EOF
	<?xml version="1.0" encoding="UTF-8"?>
	<testsuites tests="2" failures="1" errors="0" time="0.1">
		<testsuite tests="2" failures="1" time="0.1" name="github.com/acme/ledger/internal/webhooks">
			<testcase classname="github.com/acme/ledger/internal/webhooks" name="TestWebhooks3" time="0.01">
				<failure message="Failed" type="">webhooks_test.go:12: timeout</failure>
			</testcase>
			<testcase classname="github.com/acme/ledger/internal/webhooks" name="TestWebhooks1" time="0.01"></testcase>
		</testsuite>
	</testsuites>
	EOF
}

test_expect_success 'setup: a Maven and Go repository, three pairs with quarantine lists' '
	MREPO_TESTS="$JAVA internal/webhooks/webhooks_test.go" mrepo 3 &&
	(cd repo && git checkout -q main && printf "module github.com/acme/ledger\n" >go.mod &&
	 commit_at 2026-10-30T01:00:00Z go.mod) &&
	for n in 1 2 3; do git -C repo rebase -q main pr$n && git -C repo rev-parse pr$n >heads.$n || return 1; done &&
	git -C repo rev-parse main >heads.base &&
	gotestsum_xml >go.xml && junit pass.xml src/base.py::t &&
	s=$(sel selected 1 10 src/) &&
	# 1: every failure of the real Surefire report quarantined, in both Surefire forms
	qrun a/1s 1 shadow 2026-11-01T08:00:00Z pass "$s" pass.xml &&
	qrun a/1f 1 full 2026-11-01T08:05:00Z fail - "$SUREFIRE" \
		action.surefire.report.email.EmailAddressTest#shouldNotContainInternationalizedHostNames \
		action.surefire.report.email.EmailAddressTest#shouldBeStricterThanRfc2821 \
		action.surefire.report.email.EmailAddressTest#shouldBeStricterThanRfc2822 \
		action.surefire.report.email.EmailAddressTest.shouldNotBeBlank \
		action.surefire.report.email.EmailAddressTest.shouldNotContainLocalHosts \
		action.surefire.report.email.EmailAddressTest.shouldNotMissComponents \
		action.surefire.report.email.EmailAddressTest.shouldNotAllowDotsInWeirdPlaces &&
	# 2: the Go test quarantined by its import path
	qrun a/2s 2 shadow 2026-11-01T09:00:00Z pass "$s" pass.xml &&
	qrun a/2f 2 full 2026-11-01T09:05:00Z fail - go.xml \
		github.com/acme/ledger/internal/webhooks.TestWebhooks3 &&
	# 3: the same failure, quarantined by a line that names no test file
	qrun a/3s 3 shadow 2026-11-01T10:00:00Z pass "$s" pass.xml &&
	qrun a/3f 3 full 2026-11-01T10:05:00Z fail - go.xml \
		github.com/acme/ledger/internal/hooks.TestWebhooks3 &&
	tiadash --db s.db --repo repo ingest a >out 2>err &&
	echo "6 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'ingest warns about the quarantine line that names nothing' '
	test_grep "a/3f.*: 1 of 1 quarantine lines name no path in the tree at .* (e.g. .github.com/acme/ledger/internal/hooks.TestWebhooks3.: not found)" err &&
	test "$(wc -l <err)" = 1
'

test_expect_success 'the quarantined failures are not escapes; the unresolved line leaves one' '
	tiadash --db s.db report --since 2026-11-01 --until 2026-11-02 --format json >r.json &&
	json_close r.json "[d[\"classes\"][\"agree\"], d[\"escapes\"][\"count\"], d[\"escapes\"][\"prs\"]]" "[2, 1, [3]]" &&
	json_close r.json "[d[\"quarantined\"][\"pairs\"], d[\"quarantined\"][\"tests\"]]" "[2, 8]" &&
	tiadash --db s.db show 3 --format json >s3.json &&
	json_close s3.json "d[\"missed\"]" "[\"internal/webhooks::TestWebhooks3\"]"
'

test_expect_success 'identity counts and names the quarantine line, in report and status' '
	json_close r.json "[d[\"identity\"][k] for k in (\"quarantine_lines\", \"quarantine_unresolved\", \"quarantine_unresolved_lines\")]" \
		"[9, 1, [\"github.com/acme/ledger/internal/hooks.TestWebhooks3\"]]" &&
	tiadash --db s.db report --since 2026-11-01 --until 2026-11-02 >r.txt &&
	sed -n "/^Identity/,/^Queue/p" r.txt >got &&
	cat >expect <<-\EOT &&
	Identity     9 of 9 failing tests resolved
	             0 of 3 selection entries select no test
	             1 of 9 quarantine lines name no test file or suite
	    github.com/acme/ledger/internal/hooks.TestWebhooks3
	EOT
	sed -i "\$d" got &&
	test_cmp expect got &&
	tiadash --db s.db status >st.txt &&
	test_grep "^          1 of 9 quarantine lines name no test file$" st.txt
'

test_expect_success 'gate-check: the identity criterion fails on the quarantine lines' '
	test_expect_code 1 tiadash --db s.db gate-check --since 2026-11-01 --until 2026-11-02 >g.txt &&
	test_grep "^quarantine lines resolved  *>= 0.990  *0.889  FAIL$" g.txt
'

test_expect_success 'Surefire classname without its package: unresolved, gate-check says so' '
	mkdir -p b && cp -r a/1s b/ && cp -r a/1f b/ &&
	sed "s/classname=\"action\.surefire\.report\.email\.EmailAddressTest\"/classname=\"EmailAddressTest\"/; s/ file=\"[^\"]*\"//" \
		"$SUREFIRE" >b/1f/junit.xml &&
	: >b/1f/quarantine.txt &&
	tiadash --db b.db --repo repo ingest b >out 2>err &&
	tiadash --db b.db report --since 2026-11-01 --until 2026-11-02 --format json >b.json &&
	json_close b.json "[d[\"classes\"][\"unresolved\"], d[\"identity\"][\"resolved\"]]" "[1, 0]" &&
	test_expect_code 1 tiadash --db b.db gate-check --since 2026-11-01 --until 2026-11-02 --min-pairs 1 --min-days 1 >g.txt &&
	tr "\n" " " <g.txt | sed "s/  */ /g" >g.flat &&
	test_grep "the classname has no package (Surefire writes it with one): report the full class name, or add an id-map rule" g.flat
'

test_done
