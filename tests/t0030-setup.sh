#!/bin/bash
# The README's set-up: install-deps installs the build set for `make demo`
# and the test set only with --tests, one line per step; tests/run prints
# each file's line as it finishes; the demo dates its own week to end now
# and leaves it where the README's examples run as typed.
. "$(dirname "$0")/lib.sh"

# A Debian with nothing installed, as a user who is not root.
fake_bare_debian() {
	mkdir -p fake &&
	printf "#!/bin/sh\nexit 1\n" >fake/dpkg-query &&
	printf "#!/bin/sh\necho 1000\n" >fake/id &&
	chmod +x fake/dpkg-query fake/id
}

test_expect_success 'install-deps: the build set, or with --tests the test set too' '
	fake_bare_debian &&
	test_expect_code 1 env PATH="$TRASH/fake:$PATH" "$TOP/scripts/install-deps" 2>build.err &&
	test_grep "^tiadash needs these Debian packages for the build: build-essential pkg-config " build.err &&
	test_grep "^run: sudo apt-get install -y build-essential " build.err &&
	! grep -q "valgrind\|tmux\|cmocka\|diff-cover\|man-db\|clang" build.err &&
	test_expect_code 1 env PATH="$TRASH/fake:$PATH" "$TOP/scripts/install-deps" --tests 2>tests.err &&
	test_grep "^tiadash needs these Debian packages for the build and the tests: .* libcmocka-dev .* tmux valgrind " tests.err &&
	test_expect_code 2 "$TOP/scripts/install-deps" --bogus 2>err &&
	test_grep "^usage: scripts/install-deps \[--tests\]$" err
'

test_expect_success 'install-deps says so in one line when everything is there' '
	printf "#!/bin/sh\necho \"install ok installed\"\n" >fake/dpkg-query &&
	env PATH="$TRASH/fake:$PATH" "$TOP/scripts/install-deps" --tests >out &&
	echo "deps: the Debian packages of the build and the tests are installed" >expect &&
	test_cmp expect out
'

test_expect_success 'make demo installs the build set, make check and CI the test set' '
	sed -n "/^demo:/,/^$/p" "$TOP/Makefile" >demo.rule &&
	test_grep "^demo: deps$" demo.rule &&
	sed -n "/^deps:/,/^$/p" "$TOP/Makefile" >deps.rule &&
	test_grep "scripts/install-deps$" deps.rule &&
	grep -q "^check test: test-deps$" "$TOP/Makefile" &&
	grep -q "^scripts/install-deps --tests" "$TOP/.ci/run"
'

test_expect_success 'tests/run prints each file'"'"'s line as it finishes' '
	mkdir -p t &&
	# slow.sh finishes only once the runner has printed fast.sh'"'"'s line (a
	# watchdog of 60 s, not a timing): a runner that printed at the end only
	# would never let it.
	cat >t/t1-slow.sh <<-EOF &&
	for i in \$(seq 600); do
		grep -q "^ok   t2-fast.sh" "$TRASH/stream" 2>/dev/null && { echo "ok 1 - waited"; echo 1..1; exit 0; }
		sleep 0.1
	done
	echo "not ok 1 - the line of t2-fast.sh never came"; echo 1..1; exit 1
	EOF
	printf "echo \"ok 1 - fast\"\necho 1..1\n" >t/t2-fast.sh &&
	printf "echo \"not ok 1 - broken\"\necho 1..1\nexit 1\n" >t/t3-broken.sh &&
	test_expect_code 1 env UNIT_DIR=/nonexistent TEST_RESULTS="$TRASH/results" TEST_JOBS=3 \
		"$TOP/tests/run" "$TRASH"/t/t1-slow.sh "$TRASH"/t/t2-fast.sh "$TRASH"/t/t3-broken.sh >stream &&
	fast=$(grep -n "^ok   t2-fast.sh  *1 passed$" stream | cut -d: -f1) &&
	slow=$(grep -n "^ok   t1-slow.sh  *1 passed$" stream | cut -d: -f1) &&
	test "$fast" -lt "$slow" &&
	test_grep "^FAIL t3-broken.sh  *0 passed, 1 failed (exit 1)$" stream &&
	test_grep "^failed files: t3-broken.sh " stream &&
	test "$(tail -n 1 stream)" = "2 passed, 1 failed"
'

test_expect_success 'the demo: its own week ending now, each step a line; the README works there as typed' '
	mkdir -p co/sampledata &&
	cp "$TOP/sampledata/demo" "$TOP/sampledata/make-week.py" co/sampledata/ &&
	cp "$TIADASH_BIN" co/tiadash &&
	env -u TIADASH_NOW co/sampledata/demo </dev/null >demo.out 2>demo.err &&
	grep "^demo:" demo.out >steps &&
	sed -n 1,3p steps | sed "s/^\(demo: [a-z0-9]*\).*/\1/" >actual &&
	printf "demo: the\ndemo: ingesting\ndemo: 798\n" >expect && test_cmp expect actual &&
	test "$(tail -n 1 steps)" = "demo:   cd sampledata/demo-week/repo && export PATH=\"$TRASH/co:\$PATH\"" &&
	cd co/sampledata/demo-week/repo &&
	export PATH="$(cd ../../.. && pwd):$PATH" &&
	env -u TIADASH_NOW tiadash show 434 >show.txt &&
	test_grep "^PR #434  acme/ledger  head " show.txt &&
	env -u TIADASH_NOW tiadash report --since 7d --format json >week.json &&
	test "$(json_get week.json "d[\"pairs\"]")" = 295 &&
	test_expect_code 1 env -u TIADASH_NOW tiadash gate-check >gate.txt &&
	test_grep "^pairs  *>= 50  *295  PASS$" gate.txt
'

test_done
