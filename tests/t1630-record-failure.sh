#!/bin/bash
# A recording that fails never changes the job: the command runs, its exit
# status passes through, stderr says `tiadash: record:` why, and nothing is
# left half-written. Only usage errors stop before the command runs.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo rev-parse origin/main >base && git -C repo rev-parse HEAD >head &&
	echo blocker >blocker
'
base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)

for code in 0 1; do
	test_expect_success "an unwritable --out keeps exit status $code" '
		test_expect_code '$code' tiadash --repo repo record --kind full --out blocker/run \
			-- sh -c "echo ran; exit '$code'" </dev/null >out 2>err &&
		echo ran >expect && test_cmp expect out &&
		cat >expect <<-EOF &&
		tiadash: error: cannot create directory ${SQ}blocker${SQ}: Not a directory
		tiadash: record: no run recorded; passing the command${SQ}s exit status ('$code') through
		EOF
		test_cmp expect err
	'
done

test_expect_success 'a failure after copying began leaves nothing behind' '
	mkdir -p half && cp "$TEST_SRC/record/fixtures/junit-pass.xml" half/junit.xml &&
	mkdir -p partial/run/results && echo in-the-way >partial/run/results/half &&
	test_expect_code 0 tiadash --repo repo record --kind full --out partial/run \
		--results "half/*.xml" -- true </dev/null 2>err &&
	test_grep "^tiadash: error: cannot create directory .partial/run/results/half.: Not a directory$" err &&
	test_grep "^tiadash: record: no run recorded" err &&
	(cd partial && find . | sort) >actual &&
	printf ".\n./run\n./run/results\n./run/results/half\n" >expect && test_cmp expect actual
'

test_expect_success 'a file too large to write (as on a full disk) keeps the status' '
	mkdir -p big && head -c 65536 /dev/zero | tr "\0" x >big/junit.xml &&
	(ulimit -f 16 && "$TIADASH_BIN" --repo repo record --kind full --out bigrun \
		--results "big/*.xml" -- sh -c "exit 4" </dev/null 2>err); test $? = 4 &&
	test_grep "^tiadash: error: cannot write .bigrun/results/big/junit.xml.: File too large$" err &&
	test_grep "^tiadash: record: no run recorded" err &&
	! test -e bigrun
'

test_expect_success 'no repository: the job still runs and keeps its status' '
	mkdir -p norepo && cd norepo &&
	test_expect_code 3 tiadash record --kind full -- sh -c "exit 3" </dev/null 2>err &&
	test_grep "^tiadash: error: not in a git repository" err &&
	test_grep "^tiadash: record: no run recorded; passing the command.s exit status (3) through$" err &&
	! test -e .tiadash
'

test_expect_success 'no repository needed when head, base and --out are given' '
	mkdir -p norepo2 && cd norepo2 &&
	tiadash record --kind full --head $head --base $base --out run -- true </dev/null 2>err &&
	test_must_be_empty err &&
	test "$(mf run/tiadash-run.json "d[\"head\"] == \"$head\" and d[\"base\"] == \"$base\"")" = True
'

test_expect_success 'a head that does not resolve' '
	test_expect_code 1 tiadash --repo repo record --kind full --head no-such-branch \
		-- false </dev/null 2>err &&
	test_grep "^tiadash: error: unknown revision .no-such-branch." err &&
	test_grep "^tiadash: record: no run recorded" err
'

test_expect_success 'an explicit --base that does not resolve fails the recording' '
	test_expect_code 0 tiadash --repo repo record --kind full --out b1 --base no-such-base \
		-- true </dev/null 2>err &&
	test_grep "^tiadash: error: unknown revision .no-such-base." err &&
	test_grep "^tiadash: record: no run recorded" err && ! test -e b1
'

test_expect_success 'a remote not called origin: its HEAD is the base' '
	git clone -q repo up && git -C up remote rename origin upstream &&
	git -C up symbolic-ref refs/remotes/upstream/HEAD >sym &&
	echo refs/remotes/upstream/main >expect && test_cmp expect sym &&
	(cd up && echo u >u && commit_at 2026-10-30T12:00:00Z u) &&
	tiadash --repo up record --kind shadow --out u1 -- true </dev/null 2>err &&
	printf "tiadash: warning: record: cannot resolve the default base \047origin/main\047; using upstream/HEAD (%.12s) as the base\n" \
		"$head" >expect && test_cmp expect err &&
	test "$(mf u1/tiadash-run.json "d[\"base\"]")" = "$head"
'

test_expect_success 'a remote without a HEAD: the local main' '
	git clone -q repo topic && git -C topic remote rename origin fork &&
	git -C topic remote set-head fork --delete &&
	(cd topic && git checkout -q -b feature && echo f >f &&
	 commit_at 2026-10-30T12:00:00Z f) &&
	tiadash --repo topic record --kind shadow --out t1 -- true </dev/null 2>err &&
	printf "tiadash: warning: record: cannot resolve the default base \047origin/main\047; using main (%.12s) as the base\n" \
		"$head" >expect && test_cmp expect err &&
	test "$(mf t1/tiadash-run.json "d[\"base\"]")" = "$head"
'

test_expect_success 'no base anywhere: the run is recorded, its base unknown, and ingests' '
	git clone -q repo plain && git -C plain remote remove origin &&
	test_expect_code 0 tiadash --repo plain record --kind full --out p1 -- true </dev/null 2>err &&
	cat >expect <<-EOF &&
	tiadash: warning: record: cannot resolve the default base ${SQ}origin/main${SQ} in ${SQ}$TRASH/plain${SQ}, nor a remote${SQ}s HEAD, main or master: the run is recorded with its base unknown, so its changed files are not known (fetch the base, set MQ_AFFECTED_BASE, or give --base)
	EOF
	test_cmp expect err &&
	test "$(mf p1/tiadash-run.json "d[\"base\"]")" = None &&
	test "$(mf p1/tiadash-run.json "d[\"head\"]")" = "$head" &&
	tiadash --db p.db --repo plain ingest p1 >out 2>err &&
	test_grep "^1 new run" out &&
	echo "||full" >expect &&
	sqlite3 p.db "SELECT base, diff_id, kind FROM run" >actual &&
	test_cmp expect actual
'

test_expect_success 'a --base that does not resolve still fails the recording' '
	test_expect_code 0 tiadash --repo plain record --kind full --base nope --out p2 \
		-- true </dev/null 2>err &&
	test_grep "^tiadash: record: no run recorded" err && ! test -e p2
'

test_expect_success 'a merge head in a shallow clone without the base: its first parent' '
	git init -q merged && (
		cd merged && echo a >a && commit_at 2026-10-01T00:00:00Z a &&
		git checkout -q -b topic && echo t >t && commit_at 2026-10-02T00:00:00Z t &&
		git checkout -q main && echo m >m && commit_at 2026-10-03T00:00:00Z m &&
		GIT_AUTHOR_DATE=2026-10-04T00:00:00Z GIT_COMMITTER_DATE=2026-10-04T00:00:00Z \
			git merge -q --no-ff topic -m "Merge pull request #8" ) &&
	git -C merged rev-parse HEAD^1 >first && git -C merged rev-parse HEAD >mhead &&
	git clone -q --depth 1 "file://$TRASH/merged" shallow &&
	git -C shallow remote remove origin && test -f shallow/.git/shallow &&
	MQ_AFFECTED_BASE=origin/release tiadash --repo shallow record --kind full --out m1 \
		-- true </dev/null 2>err &&
	printf "tiadash: warning: record: cannot resolve MQ_AFFECTED_BASE \047origin/release\047; using %s, the first parent of the merge commit %.12s\n" \
		"$(cat first)" "$(cat mhead)" >expect && test_cmp expect err &&
	test "$(mf m1/tiadash-run.json "d[\"base\"]")" = "$(cat first)"
'

test_expect_success 'an --out that holds a record already' '
	tiadash --repo repo record --kind full --out twice -- true </dev/null &&
	test_expect_code 1 tiadash --repo repo record --kind full --out twice -- false </dev/null 2>err &&
	test_grep "^tiadash: error: .twice/tiadash-run.json. exists: each run needs its own --out folder$" err &&
	test "$(mf twice/tiadash-run.json "d[\"verdict\"]")" = pass
'

test_expect_success 'a selection list that is binary data fails the recording, not the job' '
	printf "a\0b\n" >binary.txt &&
	test_expect_code 0 tiadash --repo repo record --kind shadow --out bin --selection binary.txt \
		-- true </dev/null 2>err &&
	test_grep "^tiadash: record: no run recorded" err && ! test -e bin
'

# Usage errors are mistakes in the job's definition: reported before anything
# runs. Each line: what is wrong, the options, the message (tab-separated).
while IFS='	' read -r why args msg; do
	test_expect_success "usage error, the command not run: $why" '
		rm -f ran &&
		test_expect_code 2 tiadash --repo repo record '"$args"' touch ran </dev/null 2>err &&
		! test -e ran &&
		printf "%s\n" "tiadash: error: $msg" >expect && head -n 1 err >actual &&
		test_cmp expect actual && test_grep "^usage: tiadash record" err
	'
done <<-'USAGE'
	no -- before the command	--kind full	give the command to run after '--'
	no --kind	--	--kind shadow|full is required
	a bad --kind	--kind partial --	--kind must be shadow or full, not 'partial'
	an unknown option	--kind full --frobnicate --	unknown option '--frobnicate'
	a selection for a full run	--kind full --selection s.txt --	a selection (--selection, --decision, --reason, --total-tests, --selected-count) is for shadow runs only
	a bad --selection-format	--kind shadow --selection s.txt --selection-format junit --	--selection-format must be list or one of vitest, turbo, testmon, moon, gstack, cbm, not 'junit'
	--decision selected without a list	--kind shadow --decision selected --	--decision selected needs --selection FILE (the tests it selected)
	--reason without a selection	--kind shadow --reason x --	--reason, --total-tests and --selected-count describe a selection: give --selection or --decision too
	a bad --attempt	--kind full --attempt 0 --	--attempt '0' is not a valid number
	a bad --pr	--kind full --pr seven --	--pr 'seven' is not a valid number
	a bad --started-at	--kind full --started-at yesterday --	--started-at must be an RFC 3339 time, not 'yesterday'
	a bad --wall-clock	--kind full --wall-clock -1 --	--wall-clock '-1' is not a valid number
	--lane without cbm	--kind shadow --selection s.txt --lane unit --	--lane is for --selection-format cbm
	--total-packages for a list	--kind shadow --selection s.txt --total-packages 3 --	--total-packages is for --selection-format turbo or moon
	--decision-file for a full run	--kind full --decision-file d --	--decision-file is for shadow runs only
USAGE

test_expect_success 'a missing value' '
	test_expect_code 2 tiadash --repo repo record --kind full --out </dev/null 2>err &&
	test_grep "^tiadash: error: missing value for option .--out.$" err
'

test_expect_success 'no command after --' '
	test_expect_code 2 tiadash --repo repo record --kind full -- </dev/null 2>err &&
	test_grep "give the command to run after .--." err
'

test_expect_success '--help after -- belongs to the command' '
	tiadash --repo repo record --kind full --out h1 -- sh -c "echo \$1" sh --help </dev/null >out &&
	echo --help >expect && test_cmp expect out &&
	tiadash record --help >out && test_grep "^usage: tiadash record --kind shadow|full" out
'

test_done
