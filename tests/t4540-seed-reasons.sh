#!/usr/bin/env bash
# tiadash seed with nothing to seed says why, per change, and exits 2: a
# file no operator matches (a+b has no spaces around its +), files the
# selector's answer puts inside the impact set, a tree with nothing in a
# language seed mutates. A failing clean run is told by its own output,
# never by the runner's files (.tiadash/seed/PID/, removed before anyone
# reads the message) nor the worktree's paths.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"

SQ="'"
SEED="seed --since 2026-11-01T12:00:00Z --changes 1 --mutants 2 --seed 1"

# One change (src/a.ts); outside it src/math.ts (no site) and src/b.ts (a
# cmp-flip site) that the selector reaches: it answers tests/a.test.ts,
# the subset, for whatever is asked.
test_expect_success 'setup: a TypeScript project whose outside files give no mutant' '
	git init -q repo && cd repo && mkdir -p src tests &&
	printf ".tiadash\n" >.gitignore && echo "{\"name\": \"m\"}" >package.json &&
	printf "export const add = (a, b) => a+b;\n" >src/math.ts &&
	printf "export const pos = (x) => x > 0;\n" >src/b.ts &&
	printf "export const a = 1;\n" >src/a.ts &&
	printf "import { a } from \"../src/a\";\n" >tests/a.test.ts &&
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z src/a.ts "export const a = 2;" &&
	cd .. && git clone -q repo bare-tree && (
		cd bare-tree && git rm -q src/math.ts src/b.ts &&
		commit_at 2026-11-02T00:30:00Z "only data" &&
		pr 2 2026-11-03T00:00:00Z src/a.ts "export const a = 3;" )
'

test_expect_success 'no operator matched, the rest reached: said per change, exit 2' '
	test_expect_code 2 tiadash --repo repo $SEED --selector "echo tests/a.test.ts" \
		--test true >out 2>err &&
	echo "tiadash: error: seed: experiment 1 made no valid mutant: each change says why (tiadash seed --show=1)" >expect &&
	test_cmp expect err &&
	sed -n "/^Changes/,\$p" out >actual &&
	cat >expect <<-EOF &&
	Changes
	  $(git -C repo rev-parse --short=12 HEAD) (#1)
	    selected 1: no mutant: of 2 files outside the impact set, 1 matched no
	    operator (src/math.ts), 1 reached by the selector
	EOF
	test_cmp expect actual &&
	tiadash --repo repo seed --show --format json >show.json &&
	json_get show.json "[c[\"skipped\"] for c in d[\"changes\"]]" >actual &&
	echo "[${SQ}no mutant: of 2 files outside the impact set, 1 matched no operator (src/math.ts), 1 reached by the selector${SQ}]" >expect &&
	test_cmp expect actual
'

test_expect_success 'nothing outside in a language seed mutates: each kind counted' '
	test_expect_code 2 tiadash --repo bare-tree $SEED --since 2026-11-02T12:00:00Z --selector "echo tests/a.test.ts" \
		--test true --format json >bare.json 2>err &&
	json_get bare.json "[(c[\"pr\"], c[\"skipped\"]) for c in d[\"changes\"]]" >actual &&
	echo "[(2, ${SQ}no source file outside the impact set (of 4 files: 2 in no language seed mutates, 1 test file, 1 changed by it)${SQ})]" >expect &&
	test_cmp expect actual
'

test_expect_success 'a failing clean run is told without the runner'"'"'s files' '
	cat >fails.sh <<-\EOF &&
	echo "FAIL $PWD/tests/a.test.ts > adds"
	echo " JUNIT report written to $TIADASH_JUNIT"
	exit 1
	EOF
	test_expect_code 2 tiadash --repo repo $SEED --selector "echo tests/a.test.ts" \
		--test "sh $TRASH/fails.sh" --format json >fails.json 2>err &&
	json_get fails.json "[c[\"skipped\"] for c in d[\"changes\"]]" >actual &&
	echo "[${SQ}the subset (--test) fails without a mutant (exit status 1: FAIL tests/a.test.ts > adds)${SQ}]" >expect &&
	test_cmp expect actual &&
	! grep -e "\.tiadash/" fails.json err && ! test -e repo/.tiadash/seed/[0-9]*
'

test_done
