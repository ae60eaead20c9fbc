#!/bin/bash
# What tiadash writes into the team's repository (a selector's config, a
# rule file, -o FILE) goes through one checked path (core/teamfile.c,
# core/output.c): a symbolic link, a FIFO, a device node, a directory that
# leads out of the repository are refused with the name, exit 2, nothing
# written; -o to a pipe writes straight to it; concurrent writers take
# turns and keep every glob; an edit made between tiadash's read and its
# rename is not overwritten; a SIGKILL at each step leaves the old file or
# the new one, never a half, and the next run removes the temporary; no
# backup file is left. record refuses a report linked out of the repository.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-propose.sh"
. "$TEST_SRC/record/lib-record.sh"

W="--since 2026-11-01 --until 2026-11-08"

# No writer or reader ever opens these FIFOs: a command that would block
# waits for a watchdog shorter than the suite's.
quick() {
	timeout -k 2 20 "$TIADASH_BIN" "$@"
}

test_expect_success 'setup: a history, a store, a file outside the repository' '
	phistory &&
	mkdir outside &&
	echo "{\"globalDependencies\": []}" >outside/turbo.json && chmod 444 outside/turbo.json &&
	cp outside/turbo.json turbo.before &&
	printf "# outside\n" >outside/rules &&
	(cd repo && pwd -P) >top && (cd outside && pwd -P) >out_top
'
top=$(cat top 2>/dev/null) out_top=$(cat out_top 2>/dev/null)

test_expect_success 'a config that is a symbolic link out: refused, the outside file untouched' '
	ln -s ../outside/turbo.json repo/turbo.json &&
	(cd repo && test_expect_code 2 tiadash rules --add "x/**" --into turbo.json >../out 2>../err) &&
	echo "tiadash: error: ${SQ}turbo.json${SQ} is a symbolic link: refused, nothing written" >expect &&
	test_cmp expect err && test_must_be_empty out &&
	test_cmp turbo.before outside/turbo.json &&
	test_expect_code 2 tiadash --db s.db --repo repo propose $W --rules repo/turbo.json \
		--accept "x/**" >out 2>err &&
	echo "tiadash: error: ${SQ}repo/turbo.json${SQ} is a symbolic link: refused, nothing written" >expect &&
	test_cmp expect err && test_must_be_empty out &&
	test_cmp turbo.before outside/turbo.json && rm repo/turbo.json
'

test_expect_success 'a rule file linked out, and a directory linked out: refused' '
	ln -s ../outside/rules repo/team.rules &&
	test_expect_code 2 tiadash --db s.db --repo repo propose $W --rules repo/team.rules \
		--accept "x/**" >out 2>err &&
	echo "tiadash: error: ${SQ}repo/team.rules${SQ} is a symbolic link: refused, nothing written" >expect &&
	test_cmp expect err &&
	ln -s ../outside repo/cfg &&
	(cd repo && test_expect_code 2 tiadash rules --add "x/**" --into cfg/turbo.json >../out 2>../err) &&
	echo "tiadash: error: ${SQ}cfg/turbo.json${SQ} leads to ${SQ}$out_top/turbo.json${SQ}, outside the repository ${SQ}$top${SQ} (a symbolic link?): refused, nothing written" >expect &&
	test_cmp expect err &&
	test_cmp turbo.before outside/turbo.json && printf "# outside\n" >expect &&
	test_cmp expect outside/rules &&
	ls -A outside >actual && printf "rules\nturbo.json\n" >expect && test_cmp expect actual &&
	rm repo/team.rules repo/cfg
'

test_expect_success 'a FIFO and a device node as the target: refused at once, still what they were' '
	mkfifo repo/fifo.rules && mknod repo/null.rules c 1 3 &&
	for target in fifo.rules null.rules; do
		what="a FIFO" && if test $target = null.rules; then what="a character device"; fi &&
		(cd repo && test_expect_code 2 quick rules --add "x/**" --into $target >../out 2>../err) &&
		echo "tiadash: error: ${SQ}$target${SQ} is $what, not a regular file: refused, nothing written" >expect &&
		test_cmp expect err || return 1
	done &&
	# propose reads its rules first: a FIFO is refused there, the device when written.
	test_expect_code 2 quick --db s.db --repo repo propose $W --rules repo/fifo.rules \
		--accept "x/**" >out 2>err &&
	echo "tiadash: error: ${SQ}repo/fifo.rules${SQ} is a FIFO, not a regular file: refused, as reading it could block or never end" >expect &&
	test_cmp expect err &&
	test_expect_code 2 quick --db s.db --repo repo propose $W --rules repo/null.rules \
		--accept "x/**" >out 2>err &&
	echo "tiadash: error: ${SQ}repo/null.rules${SQ} is a character device, not a regular file: refused, nothing written" >expect &&
	test_cmp expect err &&
	test -p repo/fifo.rules && test -c repo/null.rules && rm repo/fifo.rules repo/null.rules
'

test_expect_success '-o: a link, a device refused; a FIFO, a pipe >(cmd) and a file written' '
	tiadash --db s.db status >want &&
	ln -s outside/page.txt link.txt && mknod dev.txt c 1 3 &&
	test_expect_code 2 tiadash --db s.db status -o link.txt >out 2>err &&
	echo "tiadash: error: ${SQ}link.txt${SQ} is a symbolic link: refused, nothing written" >expect &&
	test_cmp expect err && ! test -e outside/page.txt && test -L link.txt &&
	test_expect_code 2 tiadash --db s.db status -o dev.txt >out 2>err &&
	echo "tiadash: error: ${SQ}dev.txt${SQ} is a character device, not a regular file: refused, nothing written" >expect &&
	test_cmp expect err && test -c dev.txt &&
	mkfifo pipe.txt && { cat pipe.txt >from-fifo & } &&
	tiadash --db s.db status -o pipe.txt >out &&
	wait && test_cmp want from-fifo && test -p pipe.txt && test_must_be_empty out &&
	tiadash --db s.db status -o >(cat >from-pipe) >out &&
	wait && test_cmp want from-pipe &&
	tiadash --db s.db status -o plain.txt && test_cmp want plain.txt
'

test_expect_success 'eight concurrent rules --add on one turbo.json: all eight globs, each exit 0' '
	echo "{\"globalDependencies\": []}" >repo/turbo.json &&
	(cd repo && for i in 1 2 3 4 5 6 7 8; do
		{ tiadash rules --add "g$i/**" --into turbo.json >../diff.$i 2>../err.$i; echo $? >../rc.$i; } &
	done; wait) &&
	cat rc.* | sort -u >actual && echo 0 >expect && test_cmp expect actual &&
	python3 -c "import json; print(sorted(json.load(open(\"repo/turbo.json\"))[\"globalDependencies\"]))" >actual &&
	echo "[${SQ}g1/**${SQ}, ${SQ}g2/**${SQ}, ${SQ}g3/**${SQ}, ${SQ}g4/**${SQ}, ${SQ}g5/**${SQ}, ${SQ}g6/**${SQ}, ${SQ}g7/**${SQ}, ${SQ}g8/**${SQ}]" >expect &&
	test_cmp expect actual &&
	git -C repo status --porcelain --untracked-files=all >actual &&
	printf "?? .tiadash/rules\n?? turbo.json\n" >expect && test_cmp expect actual
'

# held_at_first_write FILE TEXT ARGS...: run tiadash ARGS stopped at its
# first write(2) (the diff, after the plan read FILE), put TEXT in FILE
# meanwhile, then let it go on; its status in rc.
held_at_first_write() {
	local file=$1 text=$2 spid pid="" state=""
	shift 2
	strace -f -qq -o /dev/null -e trace=write -e inject=write:signal=SIGSTOP:when=1 \
		"$TIADASH_BIN" "$@" >out 2>err &
	spid=$!
	while test "$state" != t && test "$state" != T; do
		kill -0 $spid 2>/dev/null || return 1
		pid=$(pgrep -P $spid) && state=$(cut -d" " -f3 /proc/$pid/stat 2>/dev/null)
		sleep 0.05
	done
	printf "%s" "$text" >"$file" && kill -CONT $pid
	wait $spid
	echo $? >rc
}

# The sanitizers' runtime writes before tiadash reads the file, so the
# first write(2) is no longer the diff: the plain build's pass runs this.
if [ -z "$TEST_ASAN" ]; then
test_expect_success 'an edit between the read and the rename is kept, the write refused' '
	command -v strace >/dev/null &&
	printf "{\"globalDependencies\": [\"mine\"]}\n" >edited &&
	(cd repo && held_at_first_write turbo.json "$(cat ../edited)" rules --add "late/**" --into turbo.json &&
	 mv out err rc ..) &&
	echo 2 >expect && test_cmp expect rc &&
	echo "tiadash: error: ${SQ}turbo.json${SQ} changed since tiadash read it: not written" >expect &&
	test_cmp expect err &&
	printf "{\"globalDependencies\": [\"mine\"]}" >expect && test_cmp expect repo/turbo.json
'
fi

# killed_at SYSCALL WHEN GLOB: rules --add GLOB into repo/k.yml, SIGKILLed
# by strace on the WHEN-th call of SYSCALL.
killed_at() {
	(cd repo && strace -f -qq -o /dev/null -e trace="$1" -e inject="$1":signal=SIGKILL:when=$2 \
		"$TIADASH_BIN" rules --add "$3" --into k.yml >/dev/null 2>&1)
	test $? = 137
}

test_expect_success 'SIGKILL at each step: the old file or the new one, never a half' '
	command -v strace >/dev/null &&
	printf "selection:\n  no_subset_paths:\n    - \"a/**\"\n" >repo/k.yml && cp repo/k.yml k.old &&
	printf "selection:\n  no_subset_paths:\n    - \"a/**\"\n    - \"b/**\"\n" >k.new &&
	while read -r call when left; do
		cp k.old repo/k.yml &&
		killed_at "$call" "$when" "b/**" &&
		test_cmp "$left" repo/k.yml &&
		echo "$call $when $(ls -A repo | grep -c "^\.k\.yml\.tiadash-")" >>temps || return 1
	done <<-\EOF &&
	flock 1 k.old
	fchmod 1 k.old
	fsync 1 k.old
	/^renameat2?$ 1 k.old
	fsync 2 k.new
	EOF
	# A run removes what an earlier killed one left, once it holds the lock.
	cat >expect <<-\EOF &&
	flock 1 0
	fchmod 1 1
	fsync 1 1
	/^renameat2?$ 1 1
	fsync 2 0
	EOF
	test_cmp expect temps
'

test_expect_success 'the next write removes the temporary, saying so; no backup file' '
	cp k.old repo/k.yml && killed_at "/^renameat2?$" 1 "b/**" &&
	(cd repo && tiadash rules --add "c/**" --into k.yml >../diff 2>../err) &&
	sed "s/tiadash-[A-Za-z0-9]\{6\}/tiadash-XXXXXX/" err >actual &&
	cat >expect <<-EOF &&
	tiadash: removed ${SQ}.k.yml.tiadash-XXXXXX${SQ}, left by a tiadash stopped while writing
	tiadash: wrote k.yml
	EOF
	test_cmp expect actual &&
	printf "selection:\n  no_subset_paths:\n    - \"a/**\"\n    - \"c/**\"\n" >expect &&
	test_cmp expect repo/k.yml &&
	git -C repo status --porcelain --untracked-files=all >actual &&
	printf "?? .tiadash/rules\n?? k.yml\n?? turbo.json\n" >expect && test_cmp expect actual
'

test_expect_success 'record: a report linked out of the repository is refused, nothing recorded' '
	make_repo rec && junit outside/junit.xml "t.py::a" && mkdir rec/reports &&
	ln -s ../../outside/junit.xml rec/reports/junit.xml &&
	(cd rec && pwd -P >../rec_top &&
	 tiadash record --kind full --out ../recorded --results "reports/*.xml" \
		-- true </dev/null >../out 2>../err) &&
	cat >expect <<-EOF &&
	tiadash: error: ${SQ}reports/junit.xml${SQ} leads to ${SQ}$out_top/junit.xml${SQ}, outside the repository ${SQ}$(cat rec_top)${SQ} (a symbolic link?): refused
	tiadash: record: no run recorded; passing the command${SQ}s exit status (0) through
	EOF
	test_cmp expect err && ! test -e recorded
'

test_done
