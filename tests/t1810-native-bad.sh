#!/bin/bash
# Native selections that are not what they claim: a truncated file, the
# wrong shape, an unknown format name. Each is an input error naming the
# format and the place, the source leaves nothing, and the others land.
. "$(dirname "$0")/lib.sh"

N=$TOP/tests/data/native
B=3333333333333333333333333333333333333333

# run_with DIR PR FORMAT FILE: a shadow manifest naming a native output.
run_with() {
	write_run "$1" "\"pr\": $2, \"base\": \"$B\", \"head\": \"$(printf '%040d' "$2")\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"format\": \"$3\", \"file\": \"$4\", \"root\": \"/ci\"}, \"results\": []"
}

test_expect_success 'setup: one good source and five bad ones' '
	mkdir -p art/1 art/2 art/3 art/4 art/5 art/6 &&
	printf "[{\"file\": \"/ci/a.test.ts\"}]\n" >art/1/list.json && run_with art/1 1 vitest list.json &&
	head -c 150 "$N/turbo/dry-run.json" >art/2/dry.json && run_with art/2 2 turbo dry.json &&
	echo "{\"packages\": [\"web\"]}" >art/3/ls.json && run_with art/3 3 turbo ls.json &&
	head -n 3 "$N/testmon/collect-only.txt" >art/4/co.txt && run_with art/4 4 testmon co.txt &&
	cp "$N/vitest/list.json" art/5/list.json && run_with art/5 5 jest list.json &&
	printf "[{\"file\": \"/elsewhere/a.test.ts\"}]\n" >art/6/list.json && run_with art/6 6 vitest list.json
'

test_expect_success 'ingest: exit 2, one message per bad source, naming format and place' '
	test_expect_code 2 tiadash --db s.db ingest art >out 2>err &&
	test_grep "^1 new run, 0 unchanged, 5 failed$" out &&
	grep "error" err | sort >actual &&
	cat >expect <<-\EOF &&
	tiadash: error: art/2/dry.json:7: turbo output: unexpected end of input (truncated?)
	tiadash: error: art/3/ls.json:1: turbo output: neither a dry run ({"tasks": [...]}, turbo run --dry=json) nor a package list ({"packages": {"items": [...]}}, turbo ls --output=json)
	tiadash: error: art/4/co.txt: pytest collect-only output: no summary line ("N tests collected in Xs"): truncated, or not pytest -q --collect-only output
	tiadash: error: art/5/tiadash-run.json:1: '"'"'format'"'"' must be one of vitest, turbo, testmon, moon, gstack, cbm, not '"'"'jest'"'"'
	tiadash: error: art/6/list.json:1: vitest list output: '"'"'/elsewhere/a.test.ts'"'"' is not under the root '"'"'/ci'"'"'
	EOF
	test_cmp expect actual &&
	tiadash --db s.db status --format json >st.json &&
	json_get st.json "d[\"runs\"]" >actual &&
	echo "{'"'"'shadow'"'"': 1, '"'"'full'"'"': 0}" >expect &&
	test_cmp expect actual
'

test_expect_success 'a bad source leaves nothing: the store is as before' '
	store_dump s.db >before &&
	test_expect_code 2 tiadash --db s.db ingest art/3 >out 2>err &&
	store_dump s.db >after &&
	test_cmp before after
'

test_expect_success 'bare: an unknown --selection-format is a usage error' '
	test_expect_code 2 tiadash --db s.db ingest --kind shadow --head 7777777777777777777777777777777777777777 \
		--verdict pass --selection-format jest --selection art/1/list.json >out 2>err &&
	test_grep "^tiadash: error: --selection-format '"'"'jest'"'"': expected one of vitest, turbo, testmon, moon, gstack, cbm$" err
'

test_expect_success 'bare: --selection-format without a file, a relative --selection-root' '
	test_expect_code 2 tiadash --db s.db ingest --kind shadow --head 7777777777777777777777777777777777777777 \
		--verdict pass --selection-format vitest >out 2>err &&
	test_grep "^tiadash: error: --selection-format vitest names no file: give it as --selection FILE$" err &&
	test_expect_code 2 tiadash --db s.db ingest --kind shadow --head 7777777777777777777777777777777777777777 \
		--verdict pass --selection-format vitest --selection-root ci --selection art/1/list.json >out 2>err &&
	test_grep "^tiadash: error: --selection-root '"'"'ci'"'"': expected an absolute directory$" err
'

test_expect_success 'manifest: format without file, file without format, a relative root' '
	mkdir -p m1 m2 m3 &&
	write_run m1 "\"base\": \"$B\", \"head\": \"$B\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"format\": \"vitest\"}" &&
	write_run m2 "\"base\": \"$B\", \"head\": \"$B\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"file\": \"x.json\"}" &&
	write_run m3 "\"base\": \"$B\", \"head\": \"$B\", \"kind\": \"shadow\", \"started_at\": \"2026-11-02T10:00:00Z\", \"verdict\": \"pass\", \"selection\": {\"format\": \"vitest\", \"file\": \"x.json\", \"root\": \"ci\"}" &&
	test_expect_code 2 tiadash --db s.db ingest m1 m2 m3 >out 2>err &&
	cat >expect <<-\EOF &&
	tiadash: error: m1/tiadash-run.json:1: '"'"'format'"'"' needs "file": the output to read
	tiadash: error: m2/tiadash-run.json:1: '"'"'file'"'"' needs "format" (one of vitest, turbo, testmon, moon, gstack, cbm)
	tiadash: error: m3/tiadash-run.json:1: '"'"'root'"'"' must be an absolute directory, not '"'"'ci'"'"'
	EOF
	grep error err >actual &&
	test_cmp expect actual
'

test_done
