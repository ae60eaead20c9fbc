#!/bin/bash
# The job `record` runs gets SIGPIPE as tiadash found it (tiadash itself
# ignores it), so `yes | head` behaves in the job as it does without tiadash.
. "$(dirname "$0")/lib.sh"

# Whether SIGPIPE (signal 13) is ignored, from /proc/self/status SigIgn.
cat >sigpipe.sh <<'EOF_JOB'
#!/bin/sh
ign=$(sed -n 's/^SigIgn:\t*//p' /proc/self/status)
if [ $(( 0x$ign >> 12 & 1 )) = 1 ]; then echo ignored; else echo default; fi
EOF_JOB
chmod +x sigpipe.sh

test_expect_success 'setup' '
	git init -q repo && cd repo && echo a >a && commit_at "2026-10-30T10:00:00Z" init
'

test_expect_success 'SIGPIPE at its default stays default in the job' '
	cd repo &&
	sh ../sigpipe.sh >expect &&
	tiadash record --kind full --base HEAD --out ../r1 -- sh ../sigpipe.sh >actual 2>/dev/null &&
	test_cmp expect actual && grep -q default actual
'

test_expect_success 'SIGPIPE ignored by the caller stays ignored in the job' '
	cd repo &&
	(trap "" PIPE; sh ../sigpipe.sh) >expect &&
	(trap "" PIPE; tiadash record --kind full --base HEAD --out ../r2 -- sh ../sigpipe.sh) >actual 2>/dev/null &&
	test_cmp expect actual && grep -q ignored actual
'

test_done
