#!/usr/bin/env bash
# tiadash seed with --build on a small C project: a mutant that does not
# compile is invalid, says what the compiler said, and the next file is
# tried in its place; one that compiles and fails the tests is caught.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"

command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc)"

# One mutation site per source file: size.c's static assertion (== to !=
# does not compile) and calc.c's comparison (> to >= fails the test).
test_expect_success 'setup: a C project, its test, a change to the README' '
	git init -q repo && cd repo && mkdir -p src tests &&
	printf "build\n.tiadash\n" >.gitignore &&
	printf "_Static_assert(sizeof(char) == 1, \"a char is a byte\");\n" >src/size.c &&
	printf "int above_one(int x)\n{\n\treturn x > 1;\n}\n" >src/calc.c &&
	printf "int above_one(int x);\n\nint main(void)\n{\n\treturn above_one(1) || !above_one(2);\n}\n" >tests/t_calc.c &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z README.md "# calc" &&
	cd ..
'

# By hand. The selector selects nothing, so both files are outside and the
# subset is empty. size.c's mutant does not compile: invalid, replaced by
# calc.c's, which the test catches (x > 1 as x >= 1 holds at 1): full;
# then the files run out, one valid mutant short of --mutants 2.
test_expect_success 'a mutant that does not compile is invalid, and replaced' '
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 2 \
		--selector true --seed 3 --build "mkdir -p build && cc -c -o build/size.o src/size.c" \
		--test "cc -o build/t tests/t_calc.c src/calc.c && build/t" --format json >seed.json &&
	mutants_of seed.json >actual &&
	cat >expect <<-\EOF &&
	1 src/calc.c cmp-flip full
	1 src/size.c eq-flip invalid
	EOF
	test_cmp expect actual &&
	json_get seed.json "[m[\"invalid\"] for m in d[\"list\"] if m[\"verdict\"] == \"invalid\"][0]" >why &&
	test_grep "^the build failed: exit status 1: .*static assert" why &&
	json_get seed.json "[d[\"mutants\"], d[\"invalid\"], d[\"changes\"][0][\"mutants\"], d[\"changes\"][0][\"invalid\"]]" >actual &&
	echo "[1, 1, 1, 1]" >expect && test_cmp expect actual
'

test_done
