#!/bin/bash
# Writing an accepted glob back into a selector's configuration
# (`tiadash rules --add GLOB --into FILE`): the diff first (it undoes the edit
# with patch -R), no backup file left,
# the rest of the file byte for byte; read back, the glob forces a full run
# in a replay of history. A TypeScript or moon config gets the snippet.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

N=$TOP/tests/data/native
make_history repo && cd repo && make_store "$TRASH/store.db" || exit 2
export TIADASH_DB="$TRASH/store.db"

# pr11 CONFIG: PR #11's replayed row with CONFIG as the rules.
pr11() {
	tiadash replay --since 2026-11-01 --rules "$1" --format json >r.json 2>/dev/null &&
	replay_rows r.json | grep "^11 "
}

# Before the glob: #11 (src/helpers.py, src/util.py) is narrowed and misses a test.
MISSED="11 selected 2 1 [] [tests/test_app.py::test_run]"
CLOSED="11 run_all 2 None [force-full:src/helpers.py] []"

test_expect_success 'turbo.json: globalDependencies, comments kept' '
	cp "$N/turbo/turbo.json" turbo.json &&
	pr11 turbo.json >actual && echo "$MISSED" >expect && test_cmp expect actual &&
	tiadash rules --add src/helpers.py --into turbo.json >diff 2>err &&
	cat >expect <<-\EOF &&
	--- turbo.json
	+++ turbo.json
	@@ -1,7 +1,7 @@
	 {
	   "$schema": "https://turborepo.com/schema.json",
	   // One shared .env for every package; the base tsconfig is every package'"'"'s input.
	-  "globalDependencies": [".env", "tsconfig.base.json"],
	+  "globalDependencies": [".env", "tsconfig.base.json", "src/helpers.py"],
	   "futureFlags": {
	     "affectedUsingTaskInputs": true
	   },
	EOF
	test_cmp expect diff &&
	echo "tiadash: wrote turbo.json" >expect &&
	test_cmp expect err &&
	patch -s -R -o restored turbo.json <diff && cmp restored "$N/turbo/turbo.json" && rm restored &&
	test ! -e turbo.json.orig &&
	pr11 turbo.json >actual && echo "$CLOSED" >expect && test_cmp expect actual
'

test_expect_success 'turbo.json: a glob at any depth is written as turbo says it' '
	tiadash rules --add "*.sql" --into turbo.json >diff 2>err &&
	test_grep "^+  \"globalDependencies\": \[\".env\", \"tsconfig.base.json\", \"src/helpers.py\", \"\*\*/\*.sql\"\],$" diff &&
	test_grep "written as '"'"'\*\*/\*.sql'"'"': turbo'"'"'s globs are relative to the repository root" err
'

test_expect_success 'a harness YAML: one more no_subset_paths line' '
	cp "$N/harness/harness.yml" harness.yml &&
	pr11 harness.yml >actual && echo "$MISSED" >expect && test_cmp expect actual &&
	tiadash rules --add src/helpers.py --into harness.yml >diff 2>err &&
	cat >expect <<-\EOF &&
	--- harness.yml
	+++ harness.yml
	@@ -10,5 +10,6 @@
	     - "requirements*.txt"
	     - "ledger/generated/**"       # protobuf and OpenAPI clients
	     - ".github/workflows/**"
	+    - "src/helpers.py"
	   full_suite_timeout_min: 35
	   unmapped_tests: always_run
	EOF
	test_cmp expect diff &&
	patch -s -R -o restored harness.yml <diff && cmp restored "$N/harness/harness.yml" && rm restored &&
	test ! -e harness.yml.orig &&
	pr11 harness.yml >actual && echo "$CLOSED" >expect && test_cmp expect actual
'

test_expect_success 'the pytest-testmon wrapper list: a dated line' '
	cp "$N/testmon/force-full.txt" force-full.txt &&
	pr11 force-full.txt >actual && echo "$MISSED" >expect && test_cmp expect actual &&
	tiadash rules --add src/helpers.py --into force-full.txt >diff 2>err &&
	cat >expect <<-\EOF &&
	--- force-full.txt
	+++ force-full.txt
	@@ -7,3 +7,5 @@
	 ledger/settings/**
	 ledger/db/migrations/**
	 **/*.sql
	+# added by tiadash rules --add, 2026-11-08
	+src/helpers.py
	EOF
	test_cmp expect diff &&
	pr11 force-full.txt >actual && echo "$CLOSED" >expect && test_cmp expect actual
'

test_expect_success '.codebase-memory.json: a run_all rule, last of test_impact.rules' '
	cp "$N/cbm/.codebase-memory.json" .codebase-memory.json &&
	pr11 .codebase-memory.json >actual &&
	echo "11 run_all 2 None [UNMAPPED_FILE] []" >expect && test_cmp expect actual &&
	tiadash rules --add src/helpers.py --into .codebase-memory.json >diff 2>err &&
	cat >expect <<-\EOF &&
	--- .codebase-memory.json
	+++ .codebase-memory.json
	@@ -42,7 +42,8 @@
	         "id": "notices",
	         "paths": ["NOTICE*", "CHANGELOG*", "THIRD_PARTY*"],
	         "action": "ignore"
	-      }
	+      },
	+      {"id": "tiadash-force-full", "paths": ["src/helpers.py"], "action": "run_all"}
	     ],
	     "unmapped_files": "run_all"
	   }
	EOF
	test_cmp expect diff &&
	pr11 .codebase-memory.json >actual &&
	echo "11 run_all 2 None [force-full:src/helpers.py UNMAPPED_FILE] []" >expect &&
	test_cmp expect actual
'

test_expect_success '.gstack/always-run.json: the entry, read back as an always-run test' '
	mkdir -p .gstack && cp "$N/gstack/.gstack/always-run.json" .gstack/ &&
	tiadash rules --add tests/test_app.py --into .gstack/always-run.json >diff 2>err &&
	cat >expect <<-\EOF &&
	--- .gstack/always-run.json
	+++ .gstack/always-run.json
	@@ -1,4 +1,5 @@
	 [
	   "test/gen-skill-docs.test.ts",
	-  "test/skill-e2e-*.test.ts"
	+  "test/skill-e2e-*.test.ts",
	+  "tests/test_app.py"
	 ]
	EOF
	test_cmp expect diff &&
	test_grep "names test files that it never reuses" err &&
	tiadash rules --test --no-builtin-rules --rules .gstack/always-run.json tests/test_app.py >actual &&
	echo "tests/test_app.py  select   tests/test_app.py  gstack:always-run  (in effect: .gstack/always-run.json)" >expect &&
	test_cmp expect actual
'

test_expect_success '--dry-run shows the diff and writes nothing' '
	cp "$N/harness/harness.yml" dry.yml &&
	tiadash rules --add "src/**" --into dry.yml --dry-run >diff 2>err &&
	test_grep "^+    - \"src/\*\*\"$" diff &&
	echo "tiadash: dry run: dry.yml not changed" >expect && test_cmp expect err &&
	cmp dry.yml "$N/harness/harness.yml" && test ! -e dry.yml.orig
'

test_expect_success 'a glob already there changes nothing' '
	tiadash rules --add src/helpers.py --into harness.yml >out 2>err &&
	test_must_be_empty out &&
	echo "tiadash: '"'"'src/helpers.py'"'"' already forces a full run in harness.yml: nothing to do" >expect &&
	test_cmp expect err
'

test_expect_success 'vitest.config.ts: the element goes into forceRerunTriggers in place' '
	cp "$N/vitest/vitest.config.ts" vitest.config.ts &&
	tiadash rules --add src/helpers.py --into vitest.config.ts >diff 2>err &&
	cat >expect <<-\EOF &&
	--- vitest.config.ts
	+++ vitest.config.ts
	@@ -12,6 +12,7 @@
	       '"'"'**/package-lock.json'"'"', '"'"'**/pnpm-lock.yaml'"'"', '"'"'**/vitest.config.*'"'"',
	       '"'"'**/vite.config.*'"'"', '"'"'**/playwright.config.*'"'"', '"'"'src/test-utils/**'"'"',
	       '"'"'**/.env*'"'"', '"'"'migrations/**'"'"',
	+      '"'"'**/src/helpers.py'"'"',
	     ],
	   },
	 })
	EOF
	test_cmp expect diff &&
	test_grep "written as '"'"'\*\*/src/helpers.py'"'"'" err &&
	patch -s -R -o restored vitest.config.ts <diff && cmp restored "$N/vitest/vitest.config.ts" && rm restored &&
	test ! -e vitest.config.ts.orig
'

test_expect_success 'written, the glob closes the escape in a replay' '
	pr11 vitest.config.ts >actual &&
	echo "11 run_all 2 None [force-full:**/src/helpers.py] []" >expect &&
	test_cmp expect actual
'

test_expect_success 'moon: the glob goes last in implicitInputs' '
	mkdir -p .moon/tasks && cp "$N/moon/.moon/tasks/all.yml" .moon/tasks/all.yml &&
	tiadash rules --add src/helpers.py --into .moon/tasks/all.yml >diff 2>err &&
	test_grep "^+  - '"'"'/src/helpers.py'"'"'\$" diff &&
	test_grep "^--- .moon/tasks/all.yml$" diff &&
	patch -s -R -o restored .moon/tasks/all.yml <diff && cmp restored "$N/moon/.moon/tasks/all.yml" && rm restored &&
	test ! -e .moon/tasks/all.yml.orig &&
	pr11 .moon/tasks/all.yml >actual &&
	echo "11 run_all 2 None [force-full:/src/helpers.py] []" >expect &&
	test_cmp expect actual
'

test_expect_success 'refused: a config that does not parse, a missing file, a bad glob' '
	mkdir -p bad && printf "{\"globalDependencies\": [\n" >bad/turbo.json &&
	test_expect_code 2 tiadash rules --add x --into bad/turbo.json >out 2>err &&
	test_must_be_empty out && test ! -e bad/turbo.json.orig &&
	echo "tiadash: error: bad/turbo.json:1: turbo config: unexpected end of input (truncated?)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 tiadash rules --add x --into nowhere/turbo.json >out 2>err &&
	echo "tiadash: error: cannot read '"'"'nowhere/turbo.json'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	test_expect_code 2 tiadash rules --add "src/[x" --into harness.yml >out 2>err &&
	echo "tiadash: error: '"'"'src/[x'"'"': unterminated '"'"'['"'"' in '"'"'src/[x'"'"'" >expect &&
	test_cmp expect err
'

# Not given --rules, replay reads every selector config found at the root
# beside .tiadash/rules (the rules in effect, SPEC 6): vitest's and cbm's here.
test_expect_success 'a missing tiadash rule file is created' '
	tiadash rules --add src/helpers.py --into .tiadash/rules >diff 2>err &&
	printf -- "--- /dev/null\n+++ .tiadash/rules\n@@ -0,0 +1,2 @@\n+# added by tiadash rules --add, 2026-11-08\n+src/helpers.py\n" >expect &&
	test_cmp expect diff &&
	echo "tiadash: created .tiadash/rules" >expect && test_cmp expect err &&
	tiadash replay --since 2026-11-01 --format json >r.json 2>/dev/null &&
	replay_rows r.json | grep "^11 " >actual &&
	echo "11 run_all 2 None [force-full:**/src/helpers.py UNMAPPED_FILE] []" >expect &&
	test_cmp expect actual &&
	json_get r.json "d[\"rules_in_effect\"]" >actual &&
	echo "[\"vitest.config.ts\", \"turbo.json\", \".moon/tasks/all.yml\", \".gstack/always-run.json\", \".codebase-memory.json\", \".tiadash/rules\"]" |
		tr "\"" "'"'"'" >expect &&
	test_cmp expect actual
'

test_expect_success 'usage: --add needs --into; --into and --dry-run need --add' '
	test_expect_code 2 tiadash rules --add x >out 2>err &&
	test_grep "^tiadash: error: --add needs --into FILE$" err &&
	test_expect_code 2 tiadash rules --list --dry-run >out 2>err &&
	test_grep "^tiadash: error: --into and --dry-run go with --add$" err
'

test_done
