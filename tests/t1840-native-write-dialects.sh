#!/usr/bin/env bash
# Writing an accepted glob into a selector's configuration where the tool
# itself reads it (issue 34, points 4 and 10), each file read back by the
# real tool (tests/npm/): vitest's resolved config (resolveConfig from
# vitest/node) has the glob in forceRerunTriggers, never a plugin's
# options; a turbo.json with comments and trailing commas (JSONC, as turbo
# reads it) is read and written, its comments kept, and turbo's dry run
# hashes the file the glob names; YAML merge keys are read as moon reads
# them, a glob is never added to a list an anchor shares, and a CRLF file
# stays CRLF on every line.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-selectors.sh"
need_tool vitest
need_tool turbo
need_tool moon

# vitest's resolved forceRerunTriggers for the config in the current directory.
resolved_triggers() {
	cat >../resolve.mjs <<-\JS &&
	import { resolveConfig } from "vitest/node";
	const { vitestConfig } = await resolveConfig({ config: process.argv[2] });
	for (const g of vitestConfig.forceRerunTriggers) console.log(g);
	JS
	cp ../resolve.mjs resolve.mjs && node resolve.mjs "$1" && rm resolve.mjs
}

test_expect_success 'vitest: the glob goes into the exported config, not a plugin' '
	git init -q vt && cd vt &&
	ln -s "$TEST_TOOLS/node_modules" node_modules &&
	echo "{\"type\": \"module\"}" >package.json &&
	cat >vitest.config.js <<-\JS &&
	import { defineConfig } from "vitest/config";

	// A plugin with options of its own, a `test` among them.
	const report = (options) => ({ name: "report", options });

	export default defineConfig(() => ({
	  plugins: [report({ test: { forceRerunTriggers: ["**/plugin/**"] } })],
	  test: {
	    environment: "node",
	  },
	}));
	JS
	resolved_triggers vitest.config.js >before &&
	printf "%s\n" "**/package.json/**" "**/{vitest,vite}.config.*/**" >expect &&
	test_cmp expect before &&
	tiadash rules --add "data/**" --into vitest.config.js >diff 2>err &&
	cat >expect <<-\EOF &&
	--- vitest.config.js
	+++ vitest.config.js
	@@ -6,6 +6,7 @@
	 export default defineConfig(() => ({
	   plugins: [report({ test: { forceRerunTriggers: ["**/plugin/**"] } })],
	   test: {
	+    forceRerunTriggers: ['"'"'**/package.json/**'"'"', '"'"'**/{vitest,vite}.config.*/**'"'"', '"'"'**/data/**'"'"'],
	     environment: "node",
	   },
	 }));
	EOF
	test_cmp expect diff &&
	cat >expect <<-\EOF &&
	tiadash: warning: vitest.config.js:7: vitest config: a forceRerunTriggers outside the test options of the exported config (export default defineConfig({ test: {...} })) is not vitest'"'"'s: left out of the rules
	tiadash: vitest.config.js: written as '"'"'**/data/**'"'"': vitest matches forceRerunTriggers against absolute paths, so a glob anchored at the root has no portable form; this one also matches deeper
	tiadash: vitest.config.js: it set no forceRerunTriggers: vitest'"'"'s defaults are written beside the glob, since a list replaces them
	tiadash: wrote vitest.config.js
	EOF
	test_cmp expect err &&
	resolved_triggers vitest.config.js >after &&
	printf "%s\n" "**/package.json/**" "**/{vitest,vite}.config.*/**" "**/data/**" >expect &&
	test_cmp expect after &&
	tiadash rules --rules vitest.config.js --no-builtin-rules --list 2>/dev/null >rules &&
	cat >expect <<-\EOF &&
	run_all  **/package.json            vitest:forceRerunTriggers  (in effect: vitest.config.js:9)
	run_all  **/{vitest,vite}.config.*  vitest:forceRerunTriggers  (in effect: vitest.config.js:9)
	run_all  **/data                    vitest:forceRerunTriggers  (in effect: vitest.config.js:9)
	EOF
	test_cmp expect rules
'

test_expect_success 'vitest: a config whose only `test: {` is a plugin'"'"'s is refused, untouched' '
	cd vt &&
	cat >vite.config.js <<-\JS &&
	import { defineConfig } from "vitest/config";
	const report = (options) => ({ name: "report", options });
	export default defineConfig({
	  plugins: [report({
	    test: { include: ["x"] },
	  })],
	});
	JS
	cp vite.config.js orig &&
	test_expect_code 2 tiadash rules --add "data/**" --into vite.config.js >out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-\EOF &&
	tiadash: error: vite.config.js: vitest config: its `test: {` on line 5 is not the exported config'"'"'s test options (a plugin'"'"'s options?), and vitest reads only those of `export default defineConfig({ test: {...} })`: tiadash cannot tell where forceRerunTriggers goes; add to the test options: forceRerunTriggers: ['"'"'**/package.json/**'"'"', '"'"'**/{vitest,vite}.config.*/**'"'"', '"'"'**/data/**'"'"']
	EOF
	test_cmp expect err &&
	test_cmp orig vite.config.js &&
	resolved_triggers vite.config.js >resolved &&
	printf "%s\n" "**/package.json/**" "**/{vitest,vite}.config.*/**" >expect &&
	test_cmp expect resolved
'

# turbo's global inputs (files its globalDependencies match), one a line.
turbo_global_files() {
	"$TOOL_BIN/turbo" run test --dry=json 2>/dev/null |
	python3 -c "import json, sys; print(\"\\n\".join(sorted(json.load(sys.stdin)[\"globalCacheInputs\"][\"files\"])))"
}

test_expect_success 'turbo: a turbo.json with comments and trailing commas is read and written' '
	git init -q tb && cd tb &&
	ln -s "$TEST_TOOLS/node_modules" node_modules &&
	printf "node_modules\n.turbo\n" >.gitignore &&
	echo "{\"name\": \"mono\", \"private\": true, \"packageManager\": \"npm@11.0.0\", \"workspaces\": [\"packages/*\"]}" >package.json &&
	mkdir -p packages/a config data &&
	echo "{\"name\": \"a\", \"version\": \"1.0.0\", \"scripts\": {\"test\": \"true\"}}" >packages/a/package.json &&
	echo "{\"name\": \"mono\", \"lockfileVersion\": 3, \"requires\": true, \"packages\": {\"\": {\"name\": \"mono\", \"workspaces\": [\"packages/*\"]}, \"node_modules/a\": {\"resolved\": \"packages/a\", \"link\": true}, \"packages/a\": {\"name\": \"a\", \"version\": \"1.0.0\"}}}" >package-lock.json &&
	echo "{}" >config/base.json && echo x >data/rates.csv &&
	cat >turbo.json <<-\JSON &&
	{
	  "$schema": "https://turborepo.com/schema.json", // "//" in a string is no comment
	  /* what every package reads */
	  "globalDependencies": [
	    "config/**", // shared settings
	  ],
	  "tasks": { "test": {}, },
	}
	JSON
	git add -A && git commit -qm base &&
	turbo_global_files >before && echo config/base.json >expect && test_cmp expect before &&
	tiadash rules --rules turbo.json --no-builtin-rules --list 2>err >rules &&
	test_must_be_empty err &&
	awk "{ print \$1, \$2, \$3, \$4, \$5, \$6 }" rules >actual &&
	cat >expect <<-\EOF &&
	run_all /turbo.json turbo:turbo.json (in effect: turbo.json
	run_all /turbo.jsonc turbo:turbo.json (in effect: turbo.json
	run_all config/** turbo:globalDependencies (in effect: turbo.json:5)
	select /package-lock.json turbo:lockfile (in effect: turbo.json
	select /pnpm-lock.yaml turbo:lockfile (in effect: turbo.json
	EOF
	test_cmp expect actual &&
	tiadash rules --add "data/**" --into turbo.json >diff 2>err &&
	cat >expect <<-\EOF &&
	--- turbo.json
	+++ turbo.json
	@@ -3,6 +3,7 @@
	   /* what every package reads */
	   "globalDependencies": [
	     "config/**", // shared settings
	+    "data/**",
	   ],
	   "tasks": { "test": {}, },
	 }
	EOF
	test_cmp expect diff &&
	echo "tiadash: wrote turbo.json" >expect && test_cmp expect err &&
	turbo_global_files >after &&
	printf "%s\n" config/base.json data/rates.csv >expect && test_cmp expect after &&
	tiadash rules --rules turbo.json --test data/rates.csv >hit &&
	test_grep "^data/rates.csv  run_all  data/\*\*  turbo:globalDependencies" hit
'

test_expect_success 'turbo: without globalDependencies, the list goes first, the comments stay' '
	cd tb &&
	cat >turbo.json <<-\JSON &&
	{
	  // the tasks
	  "tasks": { "test": {} }, /* trailing */
	}
	JSON
	tiadash rules --add "data/**" --into turbo.json >diff 2>err &&
	cat >expect <<-\EOF &&
	{
	  "globalDependencies": ["data/**"],
	  // the tasks
	  "tasks": { "test": {} }, /* trailing */
	}
	EOF
	test_cmp expect turbo.json &&
	turbo_global_files >after && echo data/rates.csv >expect && test_cmp expect after
'

test_expect_success 'turbo: a JSONC error names its line' '
	cd tb &&
	printf "{\n  // a comment, then a bracket that closes nothing\n  \"tasks\": { \"test\": {} ],\n}\n" >turbo.json &&
	test_expect_code 2 tiadash rules --add "data/**" --into turbo.json 2>err &&
	echo "tiadash: error: turbo.json:3: turbo config: invalid JSON" >expect &&
	test_cmp expect err
'

# moon's inputs of each task: "PROJECT TASK GLOB..." a line.
moon_inputs() {
	"$TOOL_BIN/moon" query tasks </dev/null 2>/dev/null | python3 -c "
import json, sys
for p, ts in sorted(json.load(sys.stdin)[\"tasks\"].items()):
    for n, t in sorted(ts.items()):
        print(p, n, *[i[\"glob\"] for i in t[\"inputs\"] if \"glob\" in i])"
}

test_expect_success 'moon: a task merged in with << is read as moon reads it' '
	git init -q mn && cd mn &&
	ln -s "$TEST_TOOLS/node_modules" node_modules &&
	printf ".moon/cache\nnode_modules\n" >.gitignore &&
	mkdir -p .moon/tasks apps/web &&
	printf "projects:\n  - \"apps/*\"\nvcs:\n  defaultBranch: \"main\"\n" >.moon/workspace.yml &&
	echo "layer: application" >apps/web/moon.yml &&
	cat >.moon/tasks/all.yml <<-\YAML &&
	tasks:
	  test: &base
	    command: "true"
	    inputs:
	      - "/config/**"
	  lint:
	    <<: *base
	    command: "echo"
	YAML
	git add -A && git commit -qm base &&
	moon_inputs >inputs &&
	cat >expect <<-\EOF &&
	web lint /config/** /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}
	web test /config/** /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}
	EOF
	test_cmp expect inputs &&
	tiadash rules --rules .moon/tasks/all.yml --no-builtin-rules --list 2>err >rules &&
	test_must_be_empty err &&
	awk "{ print \$1, \$2, \$3, \$4, \$5, \$6 }" rules >actual &&
	cat >expect <<-\EOF &&
	run_all /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml} moon:implicit-inputs (in effect: .moon/tasks/all.yml
	run_all /.moon/tasks/all.yml moon:tasks-file (in effect: .moon/tasks/all.yml
	run_all /config/** moon:tasks.test.inputs (in effect: .moon/tasks/all.yml:5)
	run_all /config/** moon:tasks.lint.inputs (in effect: .moon/tasks/all.yml:5)
	EOF
	test_cmp expect actual
'

test_expect_success 'moon: implicitInputs shared through an anchor is refused, untouched' '
	cd mn &&
	cat >.moon/tasks/all.yml <<-\YAML &&
	implicitInputs: &implicit
	  - "/config/**"
	tasks:
	  test:
	    command: "true"
	    inputs: *implicit
	YAML
	cp .moon/tasks/all.yml orig &&
	moon_inputs >before &&
	echo "web test /config/** /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}" >expect &&
	test_cmp expect before &&
	test_expect_code 2 tiadash rules --add "data/**" --into .moon/tasks/all.yml >out 2>err &&
	test_must_be_empty out &&
	cat >expect <<-\EOF &&
	tiadash: error: .moon/tasks/all.yml:1: moon config: implicitInputs is a list shared through a YAML anchor or merge key (used in more than one place): a glob added to it would land in each; add '"'"'/data/**'"'"' by hand where it belongs
	EOF
	test_cmp expect err &&
	test_cmp orig .moon/tasks/all.yml
'

test_expect_success 'moon: a CRLF tasks file stays CRLF on every line' '
	cd mn &&
	printf "tasks:\r\n  test:\r\n    command: \"true\"\r\nimplicitInputs:\r\n  - \"/config/**\"\r\n" >.moon/tasks/all.yml &&
	tiadash rules --add "data/**" --into .moon/tasks/all.yml >diff 2>err &&
	printf "tasks:\r\n  test:\r\n    command: \"true\"\r\nimplicitInputs:\r\n  - \"/config/**\"\r\n  - \"/data/**\"\r\n" >expect &&
	test_cmp expect .moon/tasks/all.yml &&
	moon_inputs >after &&
	echo "web test **/* /config/** /data/** /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}" >expect &&
	test_cmp expect after
'

test_expect_success 'turbo: a CRLF turbo.json stays CRLF on every line' '
	cd tb &&
	printf "{\r\n  \"globalDependencies\": [\r\n    \"config/**\"\r\n  ],\r\n  \"tasks\": { \"test\": {} }\r\n}\r\n" >turbo.json &&
	tiadash rules --add "data/**" --into turbo.json >diff 2>err &&
	printf "{\r\n  \"globalDependencies\": [\r\n    \"config/**\",\r\n    \"data/**\"\r\n  ],\r\n  \"tasks\": { \"test\": {} }\r\n}\r\n" >expect &&
	test_cmp expect turbo.json &&
	turbo_global_files >after &&
	printf "%s\n" config/base.json data/rates.csv >expect && test_cmp expect after
'

test_expect_success 'harness: a list reached through << is read; adding to it is refused' '
	cat >harness.yml <<-\YAML &&
	defaults: &defaults
	  no_subset_paths:
	    - "db/**"
	selection:
	  <<: *defaults
	YAML
	cp harness.yml orig &&
	tiadash rules --rules harness.yml --no-builtin-rules --list >rules &&
	echo "run_all  db/**  harness:no_subset_paths  (in effect: harness.yml:3)" >expect &&
	test_cmp expect rules &&
	test_expect_code 2 tiadash rules --add "data/**" --into harness.yml 2>err &&
	cat >expect <<-\EOF &&
	tiadash: error: harness.yml:3: harness config: selection.no_subset_paths is a list shared through a YAML anchor or merge key (used in more than one place): a glob added to it would land in each; add '"'"'data/**'"'"' by hand where it belongs
	EOF
	test_cmp expect err &&
	test_cmp orig harness.yml
'

test_done
