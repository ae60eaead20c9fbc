#!/usr/bin/env bash
# tiadash seed where a file has more mutation sites than the change has
# files outside: --mutants N places a file's second site once every file
# has had its first, and stops when the sites run out. Both mutants of a
# clamp are equivalent (x < lo to x <= lo, x > hi to x >= hi return the
# same at the bound), so no test can catch them: the output lists each
# with its line before and after, under a heading that says so.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"
need_pytest

TEST_CMD="$PY -m pytest -q -p no:cacheprovider -o junit_family=xunit1 --junitxml=\"\$TIADASH_JUNIT\""

# clamp.py has two sites (cmp-flip), app.py none; PR 1 changes app.py,
# whose test does not import clamp.py: clamp.py is the one file outside.
test_expect_success 'setup: a clamp with two sites, and a change beside it' '
	git init -q repo && cd repo && mkdir tests &&
	printf ".tiadash\n" >.gitignore &&
	cat >clamp.py <<-\EOF &&
	def clamp(x, lo, hi):
	    if x < lo:
	        return lo
	    if x > hi:
	        return hi
	    return x
	EOF
	printf "def greet(name):\n    return \"hi \" + name\n" >app.py &&
	cat >tests/test_clamp.py <<-\EOF &&
	from clamp import clamp


	def test_inside():
	    assert clamp(5, 0, 10) == 5


	def test_below():
	    assert clamp(-1, 0, 10) == 0


	def test_above():
	    assert clamp(11, 0, 10) == 10
	EOF
	cat >tests/test_app.py <<-\EOF &&
	from app import greet


	def test_greet():
	    assert greet("ann") == "hi ann"
	EOF
	: >tests/__init__.py && printf "[pytest]\npythonpath = .\n" >pytest.ini &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z app.py "$(printf "def greet(who):\n    return \"hi \" + who\n")" &&
	cd .. && static_selector select.py &&
	echo app.py | (cd repo && $PY ../select.py) >map &&
	echo tests/test_app.py >expect && test_cmp expect map
'

test_expect_success '--mutants 3: the clamp gets both its sites, then the sites run out' '
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 3 \
		--selector "$PY $TRASH/select.py" --test "$TEST_CMD" --seed 1 \
		--format json >seed.json 2>err &&
	test_must_be_empty err &&
	json_get seed.json "[(m[\"path\"], m[\"line\"], m[\"before\"], m[\"after\"], m[\"verdict\"]) for m in sorted(d[\"list\"], key=lambda m: m[\"line\"])]" >actual &&
	echo "[('"'"'clamp.py'"'"', 2, '"'"'if x < lo:'"'"', '"'"'if x <= lo:'"'"', '"'"'none'"'"'), ('"'"'clamp.py'"'"', 4, '"'"'if x > hi:'"'"', '"'"'if x >= hi:'"'"', '"'"'none'"'"')]" >expect &&
	test_cmp expect actual &&
	json_get seed.json "[(c[\"outside\"], c[\"mutants\"], c[\"invalid\"]) for c in d[\"changes\"]]" >actual &&
	echo "[(1, 2, 0)]" >expect && test_cmp expect actual
'

test_expect_success 'the text and markdown say the uncaught include equivalent mutants, each line before and after' '
	tiadash --repo repo seed --show >seed.txt &&
	sed -n "/^Caught by no test, by file/,/^$/p" seed.txt | sed "s/[0-9a-f]\{12\} (#/SHA (#/" >actual &&
	cat >expect <<-\EOF &&
	Caught by no test, by file (equivalent mutants, which no test can catch, too)
	  clamp.py  2
	    :2  cmp-flip  SHA (#1)
	      - if x < lo:
	      + if x <= lo:
	      executed by the full suite: unknown (no coverage)
	    :4  cmp-flip  SHA (#1)
	      - if x > hi:
	      + if x >= hi:
	      executed by the full suite: unknown (no coverage)
	EOF
	test_cmp expect actual &&
	tiadash --repo repo seed --show --format md >seed.md &&
	sed -n "/^## Caught by no test/,\$p" seed.md >actual &&
	cat >expect <<-\EOF &&
	## Caught by no test

	Equivalent mutants, which no test can catch, are among them.

	| file | line | operator | before | after | executed by the full suite |
	|---|---:|---|---|---|---|
	| clamp.py | 2 | cmp-flip | if x &lt; lo: | if x &lt;= lo: | unknown \(no coverage\) |
	| clamp.py | 4 | cmp-flip | if x &gt; hi: | if x &gt;= hi: | unknown \(no coverage\) |
	EOF
	test_cmp expect actual
'

test_expect_success 'the same seed places the same mutants; --mutants 1 the first of them' '
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 1 \
		--selector "$PY $TRASH/select.py" --test "$TEST_CMD" --seed 1 \
		--format json >one.json 2>err &&
	json_get one.json "[m[\"line\"] for m in d[\"list\"]]" >one &&
	json_get seed.json "[m[\"line\"] for m in d[\"list\"]][:1]" >first &&
	test_cmp first one
'

test_done
