#!/bin/bash
# Selector configurations read as rules (`--rules FILE` of rules, replay and
# propose): vitest's forceRerunTriggers, turbo.json, moon, a harness YAML,
# gstack's always-run list, each in the selector's own meaning.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

N=$TOP/tests/data/native

test_expect_success 'vitest.config.ts: only **-led triggers fire (vitest matches absolute paths)' '
	printf "package-lock.json\nweb/pnpm-lock.yaml\nsrc/test-utils/render.ts\n.env.local\nsrc/a.ts\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/vitest/vitest.config.ts" >raw 2>err &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	package-lock.json         run_all  **/package-lock.json  vitest:forceRerunTriggers  (in effect: vitest/vitest.config.ts)
	web/pnpm-lock.yaml        run_all  **/pnpm-lock.yaml  vitest:forceRerunTriggers  (in effect: vitest/vitest.config.ts)
	src/test-utils/render.ts  -        (no rule)
	.env.local                run_all  **/.env*  vitest:forceRerunTriggers  (in effect: vitest/vitest.config.ts)
	src/a.ts                  -        (no rule)
	EOF
	test_cmp expect actual &&
	sed "s|$N/||" err >actual &&
	cat >expect <<-\EOF &&
	tiadash: warning: vitest/vitest.config.ts:13: vitest config: '"'"'src/test-utils/**'"'"' never fires: vitest matches forceRerunTriggers against absolute paths, so a glob must start with '"'"'**/'"'"' (write '"'"'**/src/test-utils/**'"'"'); left out of the rules
	tiadash: warning: vitest/vitest.config.ts:14: vitest config: '"'"'migrations/**'"'"' never fires: vitest matches forceRerunTriggers against absolute paths, so a glob must start with '"'"'**/'"'"' (write '"'"'**/migrations/**'"'"'); left out of the rules
	EOF
	test_cmp expect actual
'

test_expect_success 'rules --list: a config'"'"'s rule labelled once, with the line it is written on' '
	tiadash rules --list --no-builtin-rules --rules "$N/vitest/vitest.config.ts" \
		--rules "$N/harness/harness.yml" --rules "$N/turbo/turbo.json" >raw 2>/dev/null &&
	sed "s|$N/||g" raw | grep -E "^run_all .*(package-lock|ledger/settings|/\.env )" >actual &&
	cat >expect <<-\EOF &&
	run_all  **/package-lock.json     vitest:forceRerunTriggers  (in effect: vitest/vitest.config.ts:12)
	run_all  ledger/settings/**       harness:no_subset_paths  (in effect: harness/harness.yml:5)
	run_all  /.env                    turbo:globalDependencies  (in effect: turbo/turbo.json:4)
	EOF
	test_cmp expect actual
'

test_expect_success 'turbo.json: root-relative globalDependencies, $TURBO_ROOT$ task inputs' '
	printf ".env\npackages/x/.env\ntsconfig.base.json\nvitest.shared.ts\nturbo.json\nplaywright.config.ts\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/turbo/turbo.json" >raw &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	.env                  run_all  /.env  turbo:globalDependencies  (in effect: turbo/turbo.json)
	packages/x/.env       -        (no rule)
	tsconfig.base.json    run_all  /tsconfig.base.json  turbo:globalDependencies  (in effect: turbo/turbo.json)
	vitest.shared.ts      run_all  /vitest.shared.ts  turbo:tasks.test.inputs  (in effect: turbo/turbo.json)
	turbo.json            run_all  /turbo.json  turbo:turbo.json  (in effect: turbo/turbo.json)
	playwright.config.ts  -        (no rule)
	EOF
	test_cmp expect actual
'

test_expect_success 'moon: a project task selects its project; inherited tasks run all' '
	printf "playwright.config.ts\nfixtures/seed.sql\npnpm-lock.yaml\napps/web/e2e/a.ts\n.moon/workspace.yml\n.moon/tasks/all.yml\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/moon/apps/web/moon.yml" \
		--rules "$N/moon/.moon/tasks/all.yml" >raw 2>err &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	playwright.config.ts  select   /playwright.config.ts  moon:tasks.e2e.inputs  (in effect: moon/apps/web/moon.yml)
	fixtures/seed.sql     select   /fixtures/seed.sql  moon:tasks.e2e.inputs  (in effect: moon/apps/web/moon.yml)
	pnpm-lock.yaml        run_all  /pnpm-lock.yaml  moon:implicitInputs  (in effect: moon/.moon/tasks/all.yml)
	apps/web/e2e/a.ts     -        (no rule)
	.moon/workspace.yml   run_all  /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}  moon:implicit-inputs  (in effect: moon/apps/web/moon.yml)
	.moon/tasks/all.yml   run_all  /.moon/tasks/all.yml  moon:tasks-file  (in effect: moon/.moon/tasks/all.yml)
	EOF
	test_cmp expect actual &&
	test_must_be_empty err &&
	tiadash rules --list --format json --no-builtin-rules --rules "$N/moon/apps/web/moon.yml" >l.json &&
	json_get l.json "[r[\"tests\"] for r in d[\"rules\"]]" >actual &&
	echo "[[], ['"'"'apps/web'"'"'], ['"'"'apps/web'"'"']]" >expect &&
	test_cmp expect actual
'

test_expect_success 'a harness config: selection.no_subset_paths' '
	printf "ledger/settings/base.py\nsub/pyproject.toml\nconftest.py\nledger/money.py\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/harness/harness.yml" >raw &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	ledger/settings/base.py  run_all  ledger/settings/**  harness:no_subset_paths  (in effect: harness/harness.yml)
	sub/pyproject.toml       run_all  pyproject.toml  harness:no_subset_paths  (in effect: harness/harness.yml)
	conftest.py              run_all  **/conftest.py  harness:no_subset_paths  (in effect: harness/harness.yml)
	ledger/money.py          -        (no rule)
	EOF
	test_cmp expect actual
'

test_expect_success 'gstack: its key code runs everything; always-run files select themselves' '
	printf "lib/test-impact/key.ts\ntest/skill-e2e-plan.test.ts\nbrowse/src/a.ts\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/gstack/.gstack/always-run.json" >raw &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	lib/test-impact/key.ts       run_all  /lib/test-impact/**  gstack:key-code  (in effect: gstack/.gstack/always-run.json)
	test/skill-e2e-plan.test.ts  select   test/skill-e2e-*.test.ts  gstack:always-run  (in effect: gstack/.gstack/always-run.json)
	browse/src/a.ts              -        (no rule)
	EOF
	test_cmp expect actual
'

test_expect_success 'the pytest-testmon wrapper list is a plain glob file' '
	printf "db/x.sql\npyproject.toml\nledger/a.py\n" |
	tiadash rules --test --no-builtin-rules --rules "$N/testmon/force-full.txt" >raw &&
	sed "s|$N/||g" raw >actual &&
	cat >expect <<-\EOF &&
	db/x.sql        run_all  **/*.sql  testmon/force-full.txt:9  (in effect: testmon/force-full.txt)
	pyproject.toml  run_all  pyproject.toml  testmon/force-full.txt:4  (in effect: testmon/force-full.txt)
	ledger/a.py     -        (no rule)
	EOF
	test_cmp expect actual
'

test_expect_success 'replay --rules vitest.config.ts replays what vitest forces' '
	make_history repo && cd repo && make_store "$TRASH/store.db" &&
	TIADASH_DB="$TRASH/store.db" tiadash replay --since 2026-11-01 --no-builtin-rules \
		--rules "$N/vitest/vitest.config.ts" --format json >out.json 2>/dev/null &&
	replay_rows out.json >actual &&
	cat >expect <<-\EOF &&
	None nothing 1 0 [] [tests/test_readme.py::test_title]
	15 nothing 0 0 [no-changes] []
	14 run_all 2 None [force-full:**/package-lock.json] []
	13 run_all 1 None [force-full:docs/**] []
	12 selected 3 2 [] []
	11 selected 2 1 [] [tests/test_app.py::test_run]
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual
'

test_expect_success 'a malformed config is an input error naming it' '
	printf "{\n  \"globalDependencies\": [\".env\"\n" >turbo.json &&
	test_expect_code 2 tiadash rules --list --rules turbo.json >out 2>err &&
	test_grep "^tiadash: error: turbo.json:2: turbo config: unexpected end of input (truncated?)$" err &&
	printf "selection:\n  no_subset_paths:\n  - [a\n" >h.yml &&
	test_expect_code 2 tiadash rules --list --rules h.yml >out 2>err &&
	test_grep "^tiadash: error: h.yml:4: harness config: invalid YAML" err
'

test_done
