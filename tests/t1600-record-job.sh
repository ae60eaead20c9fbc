#!/bin/bash
# `tiadash record -- CMD` in front of a CI job: the job behaves exactly as
# without it (stdin, stdout, stderr, exit status), and its run is recorded.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/record/lib-record.sh"

test_expect_success 'setup' '
	make_repo repo &&
	git -C repo rev-parse origin/main >base && git -C repo rev-parse HEAD >head
'
base=$(cat base 2>/dev/null) head=$(cat head 2>/dev/null)

test_expect_success 'a passing job: stdin, stdout, stderr and status pass through' '
	cd repo && printf "tests/test_b.py\n" >test-only.txt &&
	printf "line one\nline two\n" >input &&
	JOB_ECHO_STDIN=1 tiadash record --kind shadow --results "reports/*.xml" \
		--selection test-only.txt --total-tests 40 --pr 7 --repo-name acme/ledger \
		-- "$JOB" pass <input >out 2>err &&
	printf "job: stdout\nstdin: line one\nstdin: line two\n" >expect &&
	test_cmp expect out &&
	echo "job: stderr" >expect && test_cmp expect err
'

test_expect_success 'its manifest, field by field' '
	m=repo/.tiadash/runs/shadow-$head-1/tiadash-run.json &&
	manifest_without_clock $m >actual &&
	json_norm >expect <<-EOF &&
	{"schema": "tiadash.run.v1", "repo": "acme/ledger", "pr": 7,
	 "base": "$base", "head": "$head", "kind": "shadow", "attempt": 1,
	 "started_at": "2026-11-08T00:00:00Z", "verdict": "pass",
	 "selection": {"decision": "selected", "reasons": [], "total_tests": 40,
	               "selected_file": "test-only.txt"},
	 "results": ["results/reports/junit.xml"],
	 "job": {"exit_status": 0, "signal": null, "started": true, "ci": null}}
	EOF
	test_cmp expect actual
'

test_expect_success 'the folder holds byte-identical copies and nothing else' '
	d=repo/.tiadash/runs/shadow-$head-1 &&
	cmp repo/reports/junit.xml $d/results/reports/junit.xml &&
	cmp repo/test-only.txt $d/test-only.txt &&
	(cd $d && find . -type f | sort) >actual &&
	printf "./results/reports/junit.xml\n./test-only.txt\n./tiadash-run.json\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'a failing job: exit status 1, verdict fail' '
	cd repo &&
	test_expect_code 1 tiadash record --kind full --pr 7 --out ../full \
		--results "reports/*.xml" -- "$JOB" fail </dev/null >out 2>err &&
	echo "job: stdout" >expect && test_cmp expect out &&
	echo "job: stderr" >expect && test_cmp expect err &&
	test "$(mf ../full/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"job\"][\"exit_status\"], d[\"kind\"]])")" = \
		"[\"fail\", 1, \"full\"]"
'

for code in 3 42 255; do
	test_expect_success "exit status $code passes through exactly" '
		test_expect_code '$code' tiadash --repo repo record --kind full --out e'$code' \
			--results "repo/reports/*.xml" -- "$JOB" exit-'$code' </dev/null >out 2>err &&
		test "$(mf e'$code'/tiadash-run.json "d[\"verdict\"]")" = fail &&
		test "$(mf e'$code'/tiadash-run.json "d[\"job\"][\"exit_status\"]")" = '$code'
	'
done

for sig in KILL:9 TERM:15 SEGV:11; do
	name=${sig%:*} num=${sig#*:}
	test_expect_success "a job killed by SIG$name: exit status $((128 + num)), verdict error" '
		test_expect_code '$((128 + num))' tiadash --repo repo record --kind full \
			--out k'$name' --results "repo/reports/*.xml" -- "$JOB" kill-'$name' \
			</dev/null >out 2>err &&
		echo "job: stdout" >expect && test_cmp expect out &&
		echo "job: stderr" >expect && test_cmp expect err &&
		test "$(mf k'$name'/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"job\"]])")" = \
			"[\"error\", {\"exit_status\": null, \"signal\": '$num', \"started\": true, \"ci\": null}]" &&
		test "$(mf k'$name'/tiadash-run.json "json.dumps(d[\"results\"])")" = "[\"results/repo/reports/junit.xml\"]"
	'
done

test_expect_success 'no report after a non-zero exit: the job broke, verdict error' '
	test_expect_code 2 tiadash --repo repo record --kind full --out broken \
		--results "nowhere/*.xml" -- "$JOB" broken </dev/null >out 2>err &&
	test "$(mf broken/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"results\"]])")" = "[\"error\", []]" &&
	printf "job: stderr\ntiadash: warning: record: no file matches --results \047nowhere/*.xml\047\n" >expect &&
	test_cmp expect err
'

test_expect_success 'no report after exit 0: still a pass (the gate said so), with a warning' '
	test_expect_code 0 tiadash --repo repo record --kind full --out noreport \
		--results "nowhere/*.xml" -- true </dev/null 2>err &&
	test "$(mf noreport/tiadash-run.json "d[\"verdict\"]")" = pass &&
	test_grep "^tiadash: warning: record: no file matches --results" err
'

test_expect_success 'without --results a non-zero exit is a fail' '
	test_expect_code 1 tiadash --repo repo record --kind full --out nores -- false </dev/null &&
	test "$(mf nores/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"results\"]])")" = "[\"fail\", []]"
'

test_expect_success 'a command that cannot run: 127 like a shell, verdict error' '
	test_expect_code 127 tiadash --repo repo record --kind full --out notrun \
		-- ./no-such-command </dev/null 2>err &&
	test_grep "^tiadash: error: cannot run .\./no-such-command.: No such file or directory$" err &&
	test "$(mf notrun/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"job\"][\"started\"]])")" = "[\"error\", false]"
'

test_expect_success 'a command that is not executable: 126' '
	printf "echo hi\n" >not-exec.sh && chmod 644 not-exec.sh &&
	test_expect_code 126 tiadash --repo repo record --kind full --out noexec \
		-- ./not-exec.sh </dev/null 2>err &&
	test_grep "cannot run .\./not-exec\.sh.: Permission denied" err
'

test_expect_success 'no shell: arguments reach the command untouched' '
	tiadash --repo repo record --kind full --out noshell \
		-- printf "[%s]" "a b" "\$HOME" "*" ";" </dev/null >out &&
	printf "[a b][\$HOME][*][;]" >expect && test_cmp expect out
'

test_expect_success 'the command inherits no file descriptor of tiadash'"'"'s' '
	sh -c "ls /proc/\$\$/fd" </dev/null >expect &&
	tiadash --repo repo record --kind full --out fds -- sh -c "ls /proc/\$\$/fd" </dev/null >actual &&
	test_cmp expect actual
'

# SigBlk and SigIgn of a /proc/PID/status, SIGPIPE left out of SigIgn (tiadash's
# main() ignores it, so a command gets the default whatever tiadash started with).
sig_masks() {
	python3 -c "
import sys
for line in open(sys.argv[1]):
    k, _, v = line.partition(\":\")
    if k in (\"SigBlk\", \"SigIgn\"):
        print(k, \"%x\" % (int(v, 16) & ~(1 << 12) if k == \"SigIgn\" else int(v, 16)))" "$1"
}

test_expect_success 'the command inherits the signals ignored and blocked, as without tiadash' '
	(trap "" INT QUIT USR1; exec cat /proc/self/status) </dev/null >expect.status &&
	(trap "" INT QUIT USR1; exec "$TIADASH_BIN" --repo repo record --kind full --out sigs \
		-- cat /proc/self/status) </dev/null >actual.status &&
	sig_masks expect.status >expect && sig_masks actual.status >actual &&
	test_cmp expect actual &&
	ign=$(sed -n "s/^SigIgn //p" actual) && test $((0x$ign & 0x206)) = $((0x206))
'

test_expect_success 'SIGPIPE is the default in the command: yes | head ends quietly' '
	tiadash --repo repo record --kind full --out pipe -- sh -c "yes | head -n 2" </dev/null >out 2>err &&
	printf "y\ny\n" >expect && test_cmp expect out && test_must_be_empty err
'

test_expect_success 'a shell when the user asks for one' '
	test_expect_code 5 tiadash --repo repo record --kind full --out shell \
		-- sh -c "echo \"\$0 \$1\"; exit 5" zero one </dev/null >out &&
	echo "zero one" >expect && test_cmp expect out
'

test_expect_success 'SIGTERM to tiadash reaches the command; tiadash exits 143 after recording' '
	rm -f job.pid &&
	{ "$TIADASH_BIN" --repo repo record --kind full --out term -- "$JOB" wait \
		</dev/null >out 2>err & } &&
	pid=$! && n=0 &&
	while ! test -s job.pid && test $n -lt 600; do sleep 0.1; n=$((n + 1)); done &&
	test -s job.pid && kill -TERM $pid &&
	{ wait $pid; rc=$?; } ; test $rc = 143 &&
	! kill -0 "$(cat job.pid)" 2>/dev/null &&
	test "$(mf term/tiadash-run.json "json.dumps([d[\"verdict\"], d[\"job\"][\"signal\"]])")" = "[\"error\", 15]"
'

test_expect_success 'the full run of the same head, then both ingested into a store' '
	cd repo && rm -f reports/junit.xml &&
	tiadash record --kind full --pr 7 --repo-name acme/ledger --wall-clock 600 \
		--results "reports/*.xml" -- "$JOB" fail </dev/null >/dev/null 2>&1;
	test $? = 1 && cd .. &&
	tiadash --db s.db --repo repo ingest repo/.tiadash/runs >out &&
	echo "2 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'show gives the pair the job recorded' '
	tiadash --db s.db show 7 --format json >s.json &&
	json_get s.json "json.dumps([d[\"pr\"], d[\"repo\"], d[\"head\"], d[\"base\"], d[\"class\"],
		[[r[\"kind\"], r[\"attempt\"], r[\"verdict\"], r[\"tests\"], r[\"failed\"],
		  r[\"started_at\"]] for r in d[\"runs\"]],
		[d[\"selection\"][k] for k in (\"decision\", \"reasons\", \"selected_count\", \"total_tests\")],
		d[\"missed\"], [[c[\"path\"], c[\"status\"]] for c in d[\"changed\"]],
		d[\"runs\"][1][\"wall_clock_s\"]])" >actual &&
	cat >expect <<-EOF &&
	[7, "acme/ledger", "$head", "$base", "escape", [["shadow", 1, "pass", 3, [], "2026-11-08T00:00:00Z"], ["full", 1, "fail", 3, ["tests/test_a.py::test_two"], "2026-11-08T00:00:00Z"]], ["selected", [], 3, 40], ["tests/test_a.py::test_two"], [["src/m.c", "modified"], ["tests/test_a.py", "added"]], 600]
	EOF
	test_cmp expect actual
'

test_expect_success 'ingesting the records again changes nothing' '
	tiadash --db s.db --repo repo ingest repo/.tiadash/runs >out &&
	echo "0 new runs, 2 unchanged" >expect && test_cmp expect out
'

test_done
