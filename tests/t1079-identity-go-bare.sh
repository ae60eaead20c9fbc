#!/bin/bash
# Go's bare test name (issue 33): `TestX` or `TestX/sub`, as `go test -run`
# and quarantine lists write it, joins gotestsum's `pkg/dir::TestX` when
# exactly one package of the tree defines `func TestX(` in a *_test.go
# file (or exactly one under the run's workdir); defined in two packages,
# or in none, it is unresolved, never guessed.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# gotestsum's default report shape (as in corpus/junit/gotestsum_junitxml-report.xml)
gotestsum_xml() {
	cat <<-\EOF
	<?xml version="1.0" encoding="UTF-8"?>
	<testsuites tests="3" failures="2" errors="0" time="0.1">
		<testsuite tests="3" failures="2" time="0.1" name="github.com/acme/ledger/internal/webhooks">
			<testcase classname="github.com/acme/ledger/internal/webhooks" name="TestWebhooks3" time="0.01">
				<failure message="Failed" type="">webhooks_test.go:12: timeout</failure>
			</testcase>
			<testcase classname="github.com/acme/ledger/internal/webhooks" name="TestShared" time="0.01">
				<failure message="Failed" type="">webhooks_test.go:20: boom</failure>
			</testcase>
			<testcase classname="github.com/acme/ledger/internal/webhooks" name="TestExport" time="0.01"></testcase>
		</testsuite>
	</testsuites>
	EOF
}

test_expect_success 'setup: a Go module whose TestShared two packages define' '
	MREPO_TESTS="" mrepo 3 &&
	(cd repo && git checkout -q main && printf "module github.com/acme/ledger\n" >go.mod &&
	 mkdir -p internal/webhooks internal/hooks &&
	 printf "package webhooks\n\nimport \"testing\"\n\nfunc TestWebhooks3(t *testing.T) {}\nfunc TestShared(t *testing.T) {}\nfunc helper() {}\n" \
		>internal/webhooks/webhooks_test.go &&
	 printf "package webhooks_test\n\nimport \"testing\"\n\nfunc TestExport(t *testing.T) {}\n" \
		>internal/webhooks/export_test.go &&
	 printf "package hooks\n\nimport \"testing\"\n\nfunc TestShared(t *testing.T) {}\n" \
		>internal/hooks/hooks_test.go &&
	 commit_at 2026-10-30T01:00:00Z go) &&
	for n in 1 2 3; do git -C repo rebase -q main pr$n && git -C repo rev-parse pr$n >heads.$n || return 1; done &&
	git -C repo rev-parse main >heads.base &&
	gotestsum_xml >go.xml && junit pass.xml src/base.py::t &&
	s=$(sel selected 1 10 src/) &&
	# 1: both failures quarantined by bare names: TestShared is two packages'"'"'
	qrun a/1s 1 shadow 2026-11-01T08:00:00Z pass "$s" pass.xml &&
	qrun a/1f 1 full 2026-11-01T08:05:00Z fail - go.xml TestWebhooks3 TestShared &&
	# 2: TestShared by its package too; TestNowhere no test file defines
	qrun a/2s 2 shadow 2026-11-01T09:00:00Z pass "$s" pass.xml &&
	qrun a/2f 2 full 2026-11-01T09:05:00Z fail - go.xml TestWebhooks3 TestNowhere \
		github.com/acme/ledger/internal/webhooks.TestShared &&
	# 3: the shadow run selected the tests by bare names, and failed as the full run did
	qrun a/3s 3 shadow 2026-11-01T10:00:00Z fail "$(sel selected 2 10 TestWebhooks3 TestShared TestExport/sub)" go.xml &&
	qrun a/3f 3 full 2026-11-01T10:05:00Z fail - go.xml &&
	tiadash --db s.db --repo repo ingest a >out 2>err &&
	echo "6 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'a bare name one package defines is quarantined under its package' '
	tiadash --db s.db show 2 --format json >s2.json &&
	json_close s2.json "[d[\"class\"], d[\"quarantined\"]]" \
		"[\"agree\", [\"internal/webhooks::TestShared\", \"internal/webhooks::TestWebhooks3\"]]" &&
	tiadash --db s.db show 1 --format json >s1.json &&
	json_close s1.json "[d[\"class\"], d[\"quarantined\"], d[\"missed\"]]" \
		"[\"escape\", [\"internal/webhooks::TestWebhooks3\"], [\"internal/webhooks::TestShared\"]]"
'

test_expect_success 'ingest and identity name the ambiguous and the undefined bare names' '
	test_grep "a/1f.*: 1 of 2 quarantine lines name no path in the tree at .* (e.g. .TestShared.: ambiguous)" err &&
	test_grep "a/3s.*: 1 of 3 selection entries name no path in the tree at .* (e.g. .TestShared.: ambiguous)" err &&
	test "$(wc -l <err)" = 2 &&
	tiadash --db s.db report --since 2026-11-01 --until 2026-11-02 --format json >r.json &&
	json_close r.json "[d[\"identity\"][k] for k in (\"quarantine_lines\", \"quarantine_unresolved\", \"quarantine_unresolved_lines\")]" \
		"[4, 2, [\"TestNowhere\", \"TestShared\"]]" &&
	json_close r.json "[d[\"identity\"][k] for k in (\"failing_tests\", \"resolved\", \"entries_unresolved\")]" "[6, 6, 1]"
'

test_expect_success 'selection entries: bare names select their package'"'"'s test' '
	tiadash --db s.db show 3 --format json >s3.json &&
	json_close s3.json "[d[\"class\"], d[\"latent_missed\"], d[\"selection\"][\"entries\"]]" \
		"[\"agree\", [\"internal/webhooks::TestShared\"], [\"TestShared\", \"internal/webhooks::TestExport/sub\", \"internal/webhooks::TestWebhooks3\"]]"
'

test_expect_success 'gotestsum --junitfile-testcase-classname=short: unresolved, gate-check names the setting' '
	mkdir -p b && cp -r a/1s b/ && cp -r a/1f b/ &&
	sed "s|classname=\"github.com/acme/ledger/internal/webhooks\"|classname=\"webhooks\"|" go.xml >b/1f/junit.xml &&
	: >b/1f/quarantine.txt &&
	tiadash --db b.db --repo repo ingest b >out 2>err &&
	tiadash --db b.db report --since 2026-11-01 --until 2026-11-02 --format json >b.json &&
	json_close b.json "[d[\"classes\"][\"unresolved\"], d[\"identity\"][\"failing_tests\"], d[\"identity\"][\"resolved\"]]" "[1, 2, 0]" &&
	test_expect_code 1 tiadash --db b.db gate-check --since 2026-11-01 --until 2026-11-02 --min-pairs 1 --min-days 1 >g.txt &&
	test_grep "^failing tests resolved  *>= 0.990  *0.000  FAIL$" g.txt &&
	tr "\n" " " <g.txt | sed "s/  */ /g" >g.flat &&
	test_grep "gotestsum: keep --junitfile-testcase-classname at its default (full, the import path); short names no package" g.flat
'

test_done
