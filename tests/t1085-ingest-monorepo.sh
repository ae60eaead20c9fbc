#!/bin/bash
# A Turborepo monorepo (an npm workspace of three packages, each tested by
# vitest in its own directory, so its JUnit names tests relative to the
# package) with package-grain selections (turbo's --dry=json, package
# names, moon project ids): no false escapes. The reports and the dry run
# are real (tests/data/identity/README.md); the tree is built here.
. "$(dirname "$0")/lib.sh"

DATA=$TEST_SRC/data/identity/turbo
Q="'"  # json_get prints Python reprs

test_expect_success 'setup: the workspace, a change to packages/web' '
	git init -q repo && (
		cd repo &&
		echo "{\"name\": \"acme\", \"private\": true, \"workspaces\": [\"packages/*\"]}" >package.json &&
		echo "{\"tasks\": {\"test\": {\"dependsOn\": [\"^build\"]}, \"build\": {}}}" >turbo.json &&
		mkdir -p .moon && printf "projects:\n  - \"packages/*\"\n" >.moon/workspace.yml &&
		for p in web api cli; do
			mkdir -p packages/$p/src packages/$p/tests &&
			echo "{\"name\": \"@acme/$p\", \"version\": \"1.0.0\"}" >packages/$p/package.json &&
			echo "export const x = 1" >packages/$p/src/index.js || exit 1
		done &&
		echo "it(\"works\")" >packages/web/tests/a.test.js &&
		echo "it(\"works\")" >packages/api/tests/a.test.js &&
		echo "it(\"runs\")" >packages/cli/tests/cli.test.js &&
		commit_at 2026-10-30T10:00:00Z base &&
		git rev-parse HEAD >../base &&
		for pr in 1 2 3 4; do
			git checkout -q -b pr$pr main &&
			echo "export const x = 10$pr" >packages/web/src/index.js &&
			commit_at 2026-10-31T10:0$pr:00Z "web change $pr" &&
			git rev-parse HEAD >../head$pr &&
			git checkout -q main || exit 1
		done
	)
'

# job PR KIND VERDICT SELECTION-JSON REPORT...: a run folder whose manifest
# lists each report with the package it was written in (as tiadash record
# writes it for reports found in packages).
job() {
	local pr=$1 kind=$2 verdict=$3 sel=$4 dir=run/$1-$2 results="" r p
	shift 4
	mkdir -p "$dir"
	for r in "$@"; do
		p=${r##*-} p=${p%.xml}
		cp "$DATA/vitest-2.1.9_$r.xml" "$dir/$r.xml" || return 1
		results="$results${results:+, }{\"path\": \"$r.xml\", \"workdir\": \"packages/$p\"}"
	done
	[ "$sel" = - ] && sel= || sel="\"selection\": $sel,"
	write_run "$dir" "\"repo\": \"acme/mono\", \"pr\": $pr, \"base\": \"$(cat base)\",
		\"head\": \"$(cat head$pr)\", \"kind\": \"$kind\", \"started_at\": \"2026-11-0${pr}T10:00:00Z\",
		\"wall_clock_s\": 60, \"verdict\": \"$verdict\", $sel \"results\": [$results]"
}

test_expect_success 'turbo --dry=json selects web and its dependent api; the full run fails in api and cli' '
	cp "$DATA/dry-run.json" dry.json &&
	job 1 shadow pass "{\"format\": \"turbo\", \"file\": \"../../dry.json\", \"total_tests\": 5}" pass-web pass-api &&
	cp dry.json run/1-shadow/ && sed -i "s|../../dry.json|dry.json|" run/1-shadow/tiadash-run.json &&
	job 1 full fail - fail-web fail-api fail-cli &&
	tiadash --db m.db --repo repo ingest run >out 2>err &&
	test_must_be_empty err &&
	tiadash --db m.db show 1 --format json >s1.json &&
	test "$(json_get s1.json "d[\"selection\"][\"entries\"]")" = "[${Q}packages/api${Q}, ${Q}packages/web${Q}]" &&
	test "$(json_get s1.json "d[\"class\"]")" = escape &&
	test "$(json_get s1.json "d[\"missed\"]")" = "[${Q}packages/cli/tests/cli.test.js::runs${Q}]" &&
	test "$(json_get s1.json "d[\"non_hermetic\"]")" = "[${Q}packages/api/tests/a.test.js::api > formats${Q}]"
'

test_expect_success 'only the dependent package fails: non-hermetic, not a false escape' '
	job 2 shadow pass "{\"format\": \"turbo\", \"file\": \"dry.json\", \"total_tests\": 5}" pass-web pass-api &&
	cp dry.json run/2-shadow/ &&
	job 2 full fail - fail-web fail-api pass-cli &&
	tiadash --db m.db --repo repo ingest run >out 2>err &&
	test_must_be_empty err &&
	tiadash --db m.db show 2 --format json >s2.json &&
	test "$(json_get s2.json "d[\"class\"]")" = non-hermetic &&
	test "$(json_get s2.json "d[\"missed\"]")" = "[]"
'

test_expect_success 'package names (Turborepo) and project ids (moon) select the package directories' '
	job 3 shadow pass "{\"decision\": \"selected\", \"total_tests\": 5, \"selected\": [\"@acme/web\", \"@acme/api\"]}" pass-web pass-api &&
	job 3 full fail - fail-web fail-api pass-cli &&
	job 4 shadow pass "{\"decision\": \"selected\", \"total_tests\": 5, \"selected\": [\"web\", \"api\"]}" pass-web pass-api &&
	job 4 full fail - fail-web fail-api pass-cli &&
	tiadash --db m.db --repo repo ingest run >out 2>err &&
	test_must_be_empty err &&
	for pr in 3 4; do
		tiadash --db m.db show $pr --format json >s$pr.json &&
		test "$(json_get s$pr.json "d[\"selection\"][\"entries\"]")" = "[${Q}packages/api${Q}, ${Q}packages/web${Q}]" &&
		test "$(json_get s$pr.json "d[\"class\"]")" = non-hermetic || return 1
	done
'

test_expect_success 'the report and status figures: every failing test resolved, every entry selects a test' '
	tiadash --db m.db report --format json >r.json &&
	test "$(json_get r.json "d[\"escapes\"][\"prs\"]")" = "[1, 2, 3, 4]" &&
	test "$(json_get r.json "(lambda i: [i[k] for k in (\"failing_tests\", \"resolved\", \"selection_entries\", \"entries_matching_no_test\")])(d[\"identity\"])")" = "[5, 5, 8, 0]"
'

test_expect_success 'tiadash record at the root says which package each report came from' '
	mkdir -p job &&
	(cd repo && git checkout -q pr1 &&
	 tiadash record --kind full --head "$(cat ../head1)" --base "$(cat ../base)" --pr 1 \
		--out "$TRASH/rec" --results "packages/*/junit.xml" -- \
		sh -c "for p in web api cli; do cp \"$DATA/vitest-2.1.9_fail-\$p.xml\" packages/\$p/junit.xml; done" \
		>/dev/null 2>&1; git checkout -q main) &&
	json_get rec/tiadash-run.json "[(r[\"path\"], r[\"workdir\"]) for r in d[\"results\"]]" >results &&
	test_grep "packages/api/junit.xml., .packages/api" results &&
	test_grep "packages/cli/junit.xml., .packages/cli" results &&
	tiadash --db rec.db --repo repo ingest rec >/dev/null 2>err &&
	test_must_be_empty err &&
	tiadash --db rec.db show 1 --format json >rec.json &&
	test "$(json_get rec.json "d[\"runs\"][0][\"failed\"]")" = "[${Q}packages/api/tests/a.test.js::api > formats${Q}, ${Q}packages/cli/tests/cli.test.js::runs${Q}]"
'

test_expect_success 'recorded from a package directory: the manifest has its workdir' '
	(cd repo/packages/api &&
	 tiadash record --kind full --head "$(cat ../../../head1)" --base "$(cat ../../../base)" --pr 1 \
		--out "$TRASH/rec2" --results "junit.xml" -- \
		cp "$DATA/vitest-2.1.9_fail-api.xml" junit.xml >/dev/null 2>&1) &&
	test "$(json_get rec2/tiadash-run.json "d[\"workdir\"]")" = packages/api
'

test_done
