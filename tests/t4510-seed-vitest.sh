#!/usr/bin/env bash
# tiadash seed --selector vitest on a small JS project under real vitest 3.2
# (tests/npm/): the impact sets are vitest's own `list --changed`, the
# reach question is vitest's answer for the mutated tree, the subset runs
# the selected test files, the JUnit reporter names the catching tests;
# every mutant lands in the class computed by hand.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
. "$TEST_SRC/lib-seed.sh"
need_tool vitest

# The same vitest as npx would find in the worktree's node_modules (the
# --setup link), started without npx's second of CPU a run.
TEST_CMD="\"$TOOL_BIN/vitest\" run --reporter=junit --outputFile=\"\$TIADASH_JUNIT\""

# export.js looks money.js up by name in formatters.json (a dynamic
# import vite's module graph cannot follow); untested.js has no test. One
# mutation site per file: money.js amount < 0 (<= recurses at 0),
# export.js text.length > width, untested.js amount > 1000.
test_expect_success 'setup: a vitest project with a name registry, and its history' '
	git init -q repo && cd repo &&
	printf "node_modules\n.tiadash\n" >.gitignore &&
	echo "{\"name\": \"ledger\", \"private\": true, \"type\": \"module\"}" >package.json &&
	mkdir -p src tests &&
	echo "{\"money\": \"./money.js:formatMoney\"}" >src/formatters.json &&
	cat >src/money.js <<-\EOF &&
	// Money as text.
	export function formatMoney(amount, currency) {
	  if (amount < 0) return "-" + formatMoney(-amount, currency);
	  return `${amount.toFixed(2)} ${currency}`;
	}
	EOF
	cat >src/registry.js <<-\EOF &&
	// Formatters by name, from formatters.json: no module imports them.
	import { readFileSync } from "node:fs";

	const table = JSON.parse(readFileSync(new URL("./formatters.json", import.meta.url), "utf8"));

	export async function lookup(name) {
	  const [file, fn] = table[name].split(":");
	  return (await import(new URL(file, import.meta.url).href))[fn];
	}
	EOF
	cat >src/export.js <<-\EOF &&
	// Rows of the CSV export: the formatter is looked up by name.
	import { lookup } from "./registry.js";

	export async function exportRow(amount, currency, width) {
	  const text = (await lookup("money"))(amount, currency);
	  if (text.length > width) throw new Error("column too narrow");
	  return text.padStart(width);
	}
	EOF
	printf "// Nothing tests this.\nexport const isLarge = (amount) => amount > 1000;\n" >src/untested.js &&
	cat >tests/money.test.js <<-\EOF &&
	import { test, expect } from "vitest";
	import { formatMoney } from "../src/money.js";

	test("negative", () => expect(formatMoney(-5, "EUR")).toBe("-5.00 EUR"));
	test("zero", () => expect(formatMoney(0, "EUR")).toBe("0.00 EUR"));
	EOF
	cat >tests/export.test.js <<-\EOF &&
	import { test, expect } from "vitest";
	import { exportRow } from "../src/export.js";

	test("exact width", async () => expect(await exportRow(5, "EUR", 8)).toBe("5.00 EUR"));
	test("padded", async () => expect(await exportRow(0, "EUR", 10)).toBe("  0.00 EUR"));
	EOF
	commit_at 2026-11-01T00:00:00Z base &&
	pr 1 2026-11-02T00:00:00Z src/money.js "$(sed "s/as text/as text, for people/" src/money.js)" &&
	pr 2 2026-11-02T01:00:00Z src/export.js "$(sed "s/CSV export/CSV export, one per entry/" src/export.js)" \
		src/untested.js "$(sed "s/tests this/tests this yet/" src/untested.js)" &&
	cd .. && tree_sums repo before.sums
'

# By hand. PR 1 (money.js; vitest selects money.test.js): export.js and
# untested.js are outside. export.js's mutant passes money.test.js and
# fails export.test.js's exact width: full. untested.js's: none. PR 2
# (export.js, untested.js; vitest selects export.test.js): money.js is
# outside by vitest's graph (the registry's import is dynamic), and
# export.test.js's padded row (amount 0) catches its mutant: subset.
test_expect_success 'every mutant lands where the hand classification says' '
	tiadash --repo repo seed --since 2026-11-01T12:00:00Z --changes 2 --mutants 2 \
		--selector vitest --setup "$SETUP" --test "$TEST_CMD" --seed 3 -j 2 \
		--format json >seed.json 2>err &&
	test_must_be_empty err &&
	mutants_of seed.json >actual &&
	cat >expect <<-\EOF &&
	1 src/export.js cmp-flip full tests/export.test.js::exact width
	1 src/untested.js cmp-flip none
	2 src/money.js cmp-flip subset tests/export.test.js::padded
	EOF
	test_cmp expect actual &&
	json_get seed.json "[(k, v[\"count\"]) for k, v in d[\"classes\"].items()] + [d[\"mutants\"], d[\"invalid\"]]" >actual &&
	echo "[('"'"'subset'"'"', 1), ('"'"'full'"'"', 1), ('"'"'none'"'"', 1), 3, 0]" >expect &&
	test_cmp expect actual &&
	json_get seed.json "sorted((c[\"pr\"], c[\"decision\"], c[\"selected\"], c[\"reached\"]) for c in d[\"changes\"])" >actual &&
	echo "[(1, '"'"'selected'"'"', 1, 0), (2, '"'"'selected'"'"', 1, 0)]" >expect &&
	test_cmp expect actual &&
	json_get seed.json "[s[\"rule\"] for s in d[\"candidates\"][\"select\"]]" >actual &&
	echo "['"'"'select src/export.js tests/export.test.js::exact\\\\ width'"'"']" >expect &&
	test_cmp expect actual
'

test_expect_success 'the working tree is untouched, and the worktrees are gone' '
	tree_sums repo after.sums && test_cmp before.sums after.sums &&
	test "$(git -C repo worktree list | wc -l)" = 1 && ! test -e repo/.tiadash/worktrees
'

test_done
