#!/bin/bash
# Native selections: each selector's own output ingested as a shadow run's
# selection, by manifest ("format"/"file") and as a bare file
# (--selection-format), with the decision, entries and counts it means.
. "$(dirname "$0")/lib.sh"

N=$TOP/tests/data/native
ROOT=/home/runner/work/ledger-web/ledger-web
B=3333333333333333333333333333333333333333

# sel DB HEAD: the stored selection, one line.
sel() {
	tiadash --db "$1" show "$2" --format json >show.json &&
	json_get show.json "json.dumps(d[\"selection\"], sort_keys=True)"
}

# bare HEAD FORMAT FILE [OPTIONS]: one bare shadow run into s.db.
bare() {
	local h=$1 f=$2 file=$3; shift 3
	tiadash --db s.db ingest --kind shadow --head "$h" --verdict pass \
		--selection-format "$f" --selection "$file" "$@" >out
}

test_expect_success 'vitest list --json: test files, five tests' '
	bare 1000000000000000000000000000000000000001 vitest "$N/vitest/list.json" \
		--selection-root "$ROOT" --total-tests 40 &&
	sel s.db 1000000000000000000000000000000000000001 >actual &&
	echo "{\"affected_fraction\": 0.125, \"decision\": \"selected\", \"entries\": [\"src/exports/csv.test.ts\", \"src/money/format.test.ts\"], \"reasons\": [], \"selected_count\": 5, \"total_tests\": 40}" >expect &&
	test_cmp expect actual
'

test_expect_success 'vitest --filesOnly: no test count; an empty list selects nothing' '
	bare 1000000000000000000000000000000000000002 vitest "$N/vitest/list-files.json" \
		--selection-root "$ROOT/" &&
	sel s.db 1000000000000000000000000000000000000002 >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"src/exports/csv.test.ts\", \"src/money/format.test.ts\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	bare 1000000000000000000000000000000000000003 vitest "$N/vitest/list-empty.json" &&
	sel s.db 1000000000000000000000000000000000000003 >actual &&
	echo "{\"affected_fraction\": 0, \"decision\": \"nothing\", \"entries\": [], \"reasons\": [], \"selected_count\": 0, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'turbo: the dry run and turbo ls name the same package directories' '
	bare 1000000000000000000000000000000000000004 turbo "$N/turbo/dry-run.json" &&
	sel s.db 1000000000000000000000000000000000000004 >actual &&
	bare 1000000000000000000000000000000000000005 turbo "$N/turbo/ls-affected.json" &&
	sel s.db 1000000000000000000000000000000000000005 >actual2 &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"apps/web\", \"packages/money\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual && test_cmp expect actual2
'

test_expect_success 'turbo: every package affected (--total-packages) is run_all' '
	bare 1000000000000000000000000000000000000006 turbo "$N/turbo/ls-affected.json" \
		--total-packages 2 &&
	sel s.db 1000000000000000000000000000000000000006 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"apps/web\", \"packages/money\"], \"reasons\": [\"turbo:all-packages-affected\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'pytest-testmon: node ids as written, the collected count' '
	bare 1000000000000000000000000000000000000007 testmon "$N/testmon/collect-only.txt" \
		--total-tests 11 &&
	sel s.db 1000000000000000000000000000000000000007 >actual &&
	echo "{\"affected_fraction\": 0.45454545454545453, \"decision\": \"selected\", \"entries\": [\"tests/exports/test_ledger_csv.py::TestLocale::test_grouping[de_DE]\", \"tests/exports/test_ledger_csv.py::TestLocale::test_grouping[en_US]\", \"tests/exports/test_ledger_csv.py::test_amount_column_width\", \"tests/exports/test_ledger_csv.py::test_header_row\", \"tests/money/test_format.py::test_format_money_keyword_locale\"], \"reasons\": [], \"selected_count\": 5, \"total_tests\": 11}" >expect &&
	test_cmp expect actual
'

test_expect_success 'pytest-testmon: collection errors are a selector error (run_all)' '
	bare 1000000000000000000000000000000000000008 pytest "$N/testmon/collect-errors.txt" &&
	sel s.db 1000000000000000000000000000000000000008 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [], \"reasons\": [\"selector-error\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'moon: affected projects by source, affected tasks by project id' '
	bare 1000000000000000000000000000000000000009 moon "$N/moon/projects-affected.json" &&
	sel s.db 1000000000000000000000000000000000000009 >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"apps/web\", \"packages/money\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	bare 100000000000000000000000000000000000000a moon "$N/moon/tasks-affected.json" &&
	sel s.db 100000000000000000000000000000000000000a >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"money\", \"web\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'gstack: files without a key run; none with one is a full run' '
	bare 100000000000000000000000000000000000000b gstack "$N/gstack/key.json" &&
	sel s.db 100000000000000000000000000000000000000b >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"browse/test/commands.test.ts\", \"test/gen-skill-docs.test.ts\", \"test/telemetry.test.ts\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual &&
	bare 100000000000000000000000000000000000000c gstack "$N/gstack/key-all.json" &&
	sel s.db 100000000000000000000000000000000000000c >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"browse/test/snapshot.test.ts\", \"test/skill-validation.test.ts\"], \"reasons\": [\"gstack:key-code-changed\"], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_expect_success 'the same bare output again is the same run; other options are not' '
	bare 1000000000000000000000000000000000000007 pytest "$N/testmon/collect-only.txt" \
		--total-tests 11 &&
	test_grep "^0 new runs, 1 unchanged$" out &&
	test_expect_code 2 tiadash --db s.db ingest --kind shadow \
		--head 1000000000000000000000000000000000000001 --verdict pass \
		--selection-format vitest --selection "$N/vitest/list.json" \
		--selection-root "$ROOT/" --total-tests 40 >out 2>err &&
	test_grep "already stored" err
'

test_expect_success 'a manifest hands over the output unconverted, with its root and total' '
	mkdir -p art/41 && cp "$N/vitest/list.json" art/41/vitest-list.json &&
	write_run art/41 "\"repo\": \"acme/ledger-web\", \"pr\": 41, \"base\": \"$B\", \"head\": \"4100000000000000000000000000000000000000\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"wall_clock_s\": 95, \"verdict\": \"pass\", \"selection\": {\"format\": \"vitest\", \"file\": \"vitest-list.json\", \"root\": \"$ROOT\", \"total_tests\": 120}, \"results\": []" &&
	tiadash --db m.db ingest art/41 >out 2>err &&
	test_grep "^1 new run, 0 unchanged$" out &&
	sel m.db 41 >actual &&
	echo "{\"affected_fraction\": 0.041666666666666664, \"decision\": \"selected\", \"entries\": [\"src/exports/csv.test.ts\", \"src/money/format.test.ts\"], \"reasons\": [], \"selected_count\": 5, \"total_tests\": 120}" >expect &&
	test_cmp expect actual
'

test_expect_success 'a decision in the manifest overrides the output (a trigger vitest did not name)' '
	mkdir -p art/42 && cp "$N/vitest/list.json" art/42/vitest-list.json &&
	write_run art/42 "\"pr\": 42, \"base\": \"$B\", \"head\": \"4200000000000000000000000000000000000000\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T11:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"format\": \"vitest\", \"file\": \"vitest-list.json\", \"root\": \"$ROOT\", \"decision\": \"run_all\", \"reasons\": [\"force-full:**/pnpm-lock.yaml\"], \"total_tests\": 120}, \"results\": []" &&
	tiadash --db m.db ingest art/42 >out 2>err &&
	sel m.db 42 >actual &&
	echo "{\"affected_fraction\": 1, \"decision\": \"run_all\", \"entries\": [\"src/exports/csv.test.ts\", \"src/money/format.test.ts\"], \"reasons\": [\"force-full:**/pnpm-lock.yaml\"], \"selected_count\": 5, \"total_tests\": 120}" >expect &&
	test_cmp expect actual
'

test_expect_success 'format cbm in a manifest is the engine answer' '
	mkdir -p art/43 && cp "$N/cbm/selection-engine.json" art/43/ &&
	write_run art/43 "\"pr\": 43, \"base\": \"$B\", \"head\": \"4300000000000000000000000000000000000000\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T12:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"format\": \"cbm\", \"file\": \"selection-engine.json\"}, \"results\": []" &&
	tiadash --db m.db ingest art/43 >out 2>err &&
	sel m.db 43 >actual &&
	echo "{\"affected_fraction\": null, \"decision\": \"selected\", \"entries\": [\"alpha\", \"beta:b_one\", \"beta:b_two\"], \"reasons\": [], \"selected_count\": null, \"total_tests\": null}" >expect &&
	test_cmp expect actual
'

test_done
