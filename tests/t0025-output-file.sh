#!/bin/bash
# -o FILE beside every --format: the file holds exactly what standard output
# would have, is written whole or not at all (a temporary file beside it,
# renamed into place), and a failure says which file and exits 2.
. "$(dirname "$0")/lib.sh"

# tmp_left: temporary files -o could have left behind in the current directory.
tmp_left() {
	ls -A | grep '^\.[^.].*\.[A-Za-z0-9]\{6\}$'
}

test_expect_success 'setup: a store of 2000 generated pairs' '
	tiadash --db s.db init >/dev/null &&
	python3 "$TEST_SRC/bench/gen_report.py" s.db 2000 &&
	git init -q repo && echo x >repo/x && (cd repo && commit_at 2026-11-02T00:00:00Z x)
'

test_expect_success '-o FILE holds exactly what standard output gets, for every command with --format' '
	while read -r args; do
		tiadash --db s.db --repo repo $args >want; want_rc=$?
		tiadash --db s.db --repo repo $args -o got >stdout; got_rc=$?
		test "$want_rc" = "$got_rc" && test_must_be_empty stdout && test_cmp want got ||
			{ echo "differs: $args"; return 1; }
	done <<-\EOF
	status
	status --format json
	report --format text
	report --format md
	report --format json
	report --format csv
	report --format html
	gate-check --format json
	gate-check --format html
	summary --until 2026-11-08 --format md
	summary --until 2026-11-08 --format html
	propose --format json
	propose --format html
	rules --builtin --format json
	replay --since 2026-11-01 --format html
	EOF
'

test_expect_success 'the long, short and attached forms; -o - is standard output' '
	tiadash --db s.db status --output=a >/dev/null &&
	tiadash --db s.db status --output b >/dev/null &&
	tiadash --db s.db status -oc >/dev/null &&
	tiadash --db s.db status >d &&
	test_cmp d a && test_cmp d b && test_cmp d c &&
	tiadash --db s.db status -o - >e && test_cmp d e && ! test -e ./-
'

test_expect_success 'a new file is as readable as any (the umask, not 0600)' '
	(umask 022 && tiadash --db s.db status -o mode.txt) &&
	test "$(stat -c %a mode.txt)" = 644 &&
	(umask 077 && tiadash --db s.db status -o private.txt) &&
	test "$(stat -c %a private.txt)" = 600
'

test_expect_success 'gate-check NO-GO exits 1 and still writes its page' '
	test_expect_code 1 tiadash --db s.db gate-check --format html -o gate.html &&
	test_grep "NO-GO" gate.html && test -z "$(tmp_left)"
'

test_expect_success 'a command that fails leaves the file as it was, and no temporary file' '
	echo "last week" >page.html &&
	test_expect_code 2 tiadash --db s.db report --since junk --format html -o page.html 2>err &&
	test_grep "expected 1y, 7d" err &&
	echo "last week" >expect && test_cmp expect page.html &&
	test_expect_code 2 tiadash --db missing.db report -o new.html 2>err &&
	! test -e new.html && test -z "$(tmp_left)"
'

test_expect_success 'a usage error creates nothing' '
	test_expect_code 2 tiadash --db s.db report --bogus -o new.html 2>err &&
	test_grep "unknown option" err && ! test -e new.html && test -z "$(tmp_left)"
'

test_expect_success 'a missing directory: exit 2 naming the file' '
	test_expect_code 2 tiadash --db s.db status -o nodir/st.txt 2>err &&
	echo "tiadash: error: cannot write '"'"'nodir/st.txt'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'a directory in the way: exit 2 naming it, nothing left behind' '
	mkdir adir &&
	test_expect_code 2 tiadash --db s.db status -o adir 2>err &&
	echo "tiadash: error: cannot write '"'"'adir'"'"': Is a directory" >expect &&
	test_cmp expect err && test -d adir && test -z "$(ls -A adir)" && test -z "$(tmp_left)"
'

test_expect_success 'a full disk half way: exit 2 naming the file, the old one intact' '
	echo "last week" >week.csv &&
	# 64 KiB is room for the store'"'"'s shared-memory file, not for the CSV
	# (a SIGXFSZ ignored by the shell stays ignored, so the write fails).
	(trap "" XFSZ; ulimit -f 64; tiadash --db s.db report --format csv -o week.csv) 2>err
	test $? = 2 &&
	echo "tiadash: error: cannot write '"'"'week.csv'"'"': File too large" >expect &&
	test_cmp expect err &&
	echo "last week" >expect && test_cmp expect week.csv && test -z "$(tmp_left)"
'

test_done
