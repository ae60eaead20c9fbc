#!/usr/bin/env bash
# `tiadash rules`: the built-in force-full rules, the rules in effect (rule
# files first, built-ins last), which rule each path hits (text and json),
# codebase-memory-mcp rule files, and errors that name file:line.
. "$(dirname "$0")/lib.sh"

CBM="$TEST_SRC/data/rules/codebase-memory.json"
git init -q repo && cd repo || exit 2

test_expect_success '--builtin lists the built-in force-full rules' '
	tiadash rules --builtin >out &&
	head -n 3 out >actual &&
	cat >expect <<-\EOF &&
	run_all  **/package.json            builtin:manifest  (suggested: built-in)
	run_all  **/pnpm-workspace.yaml     builtin:manifest  (suggested: built-in)
	run_all  **/pyproject.toml          builtin:manifest  (suggested: built-in)
	EOF
	test_cmp expect actual &&
	tiadash rules --builtin --format json >b.json &&
	json_get b.json "(len(d[\"rules\"]), sorted(set(r[\"id\"] for r in d[\"rules\"])))" >actual &&
	echo "(79, ['"'"'builtin:ci'"'"', '"'"'builtin:conftest'"'"', '"'"'builtin:env'"'"', '"'"'builtin:generated'"'"', '"'"'builtin:lockfile'"'"', '"'"'builtin:manifest'"'"', '"'"'builtin:migrations'"'"', '"'"'builtin:test-setup'"'"', '"'"'builtin:test-utils'"'"', '"'"'builtin:tool-config'"'"'])" >expect &&
	test_cmp expect actual &&
	test_line_count() { test $(wc -l <"$2") = "$1"; } &&
	test_line_count 79 out
'

test_expect_success '--list: .tiadash/rules first, then the built-ins' '
	mkdir -p .tiadash &&
	cat >.tiadash/rules <<-\EOF &&
	# ours
	ignore docs/**
	select src/billing/** tests/billing/ tests/test_money.py::test_round
	vendor/
	EOF
	tiadash rules --list >out &&
	head -n 4 out >actual &&
	cat >expect <<-\EOF &&
	ignore   docs/**                    .tiadash/rules:2  (in effect: .tiadash/rules)
	select   src/billing/**             .tiadash/rules:3  (in effect: .tiadash/rules)  -> tests/billing/ tests/test_money.py::test_round
	run_all  vendor/                    .tiadash/rules:4  (in effect: .tiadash/rules)
	run_all  **/package.json            builtin:manifest  (suggested: built-in)
	EOF
	sed "s|$(pwd)/||" actual >actual.rel &&
	test_cmp expect actual.rel &&
	tiadash rules --list --no-builtin-rules --format json >l.json &&
	json_get l.json "[(r[\"action\"], r[\"glob\"], r[\"name\"], r[\"tests\"]) for r in d[\"rules\"]]" >actual &&
	echo "[('"'"'ignore'"'"', '"'"'docs/**'"'"', '"'"'ignore:docs/**'"'"', []), ('"'"'select'"'"', '"'"'src/billing/**'"'"', '"'"'select:src/billing/**'"'"', ['"'"'tests/billing/'"'"', '"'"'tests/test_money.py::test_round'"'"']), ('"'"'run_all'"'"', '"'"'vendor/'"'"', '"'"'force-full:vendor/'"'"', [])]" >expect &&
	test_cmp expect actual
'

test_expect_success '--test: the first rule each path matches' '
	tiadash rules --test docs/a/package.json src/billing/x.py x/vendor/y.c \
		vendor package-lock.json src/app.py >out &&
	sed "s|$(pwd)/||" out >actual &&
	cat >expect <<-\EOF &&
	docs/a/package.json  ignore   docs/**  .tiadash/rules:2  (in effect: .tiadash/rules)
	src/billing/x.py     select   src/billing/**  .tiadash/rules:3  (in effect: .tiadash/rules)
	x/vendor/y.c         run_all  vendor/  .tiadash/rules:4  (in effect: .tiadash/rules)
	vendor               -        (no rule)
	package-lock.json    run_all  **/package-lock.json  builtin:lockfile  (suggested: built-in)
	src/app.py           -        (no rule)
	EOF
	test_cmp expect actual &&
	printf "src/app.py\nmigrations/001.sql\n" |
		tiadash rules --test --format json >t.json &&
	json_get t.json "[(p[\"path\"], p[\"rule\"], p[\"suggested\"] and (p[\"suggested\"][\"name\"], p[\"suggested\"][\"source\"])) for p in d[\"paths\"]]" >actual &&
	echo "[('"'"'src/app.py'"'"', None, None), ('"'"'migrations/001.sql'"'"', None, ('"'"'force-full:**/migrations/**'"'"', '"'"'suggested: built-in'"'"'))]" >expect &&
	test_cmp expect actual
'

test_expect_success '--rules replaces the default file; files are read in order' '
	printf "run_all docs/**\n" >first.rules &&
	printf "ignore docs/**\nignore src/**\n" >second.rules &&
	tiadash rules --rules first.rules --rules second.rules --no-builtin-rules \
		--test docs/x src/y >actual &&
	cat >expect <<-\EOF &&
	docs/x  run_all  docs/**  first.rules:1  (in effect: first.rules)
	src/y   ignore   src/**  second.rules:2  (in effect: second.rules)
	EOF
	test_cmp expect actual
'

test_expect_success 'a .codebase-memory.json: its rules, then its built-ins' '
	tiadash rules --rules "$CBM" --no-builtin-rules --test --format json >c.json <<-\EOF &&
	tests/test_main.c
	tests/fixtures/repo/a.json
	tests/contract/x.sh
	Makefile.cbm
	docs/SMART_CI.md
	src/store/store.c
	src/ui/app.py
	EOF
	json_get c.json "[(p[\"path\"], p[\"rule\"][\"id\"], p[\"rule\"][\"action\"], p[\"rule\"][\"name\"]) for p in d[\"paths\"]]" >actual &&
	python3 -c "print([
	 (\"tests/test_main.c\", \"harness\", \"run_all\", \"force-full:tests/test_main.c\"),
	 (\"tests/fixtures/repo/a.json\", \"fixtures\", \"select\", \"select:tests/fixtures/*/**\"),
	 (\"tests/contract/x.sh\", \"contracts\", \"ignore\", \"ignore:tests/**/*.{sh,py,json,txt}\"),
	 (\"Makefile.cbm\", \"builtin:build\", \"run_all\", \"force-full:Makefile*\"),
	 (\"docs/SMART_CI.md\", \"builtin:documentation\", \"ignore\", \"ignore:docs/**\"),
	 (\"src/store/store.c\", \"cbm:c-family\", \"select\", \"select:*.{c,h,cc,cp,cpp,cxx,c++,hh,hpp,hxx,h++,inc,inl,ipp,tcc,m,mm}\"),
	 (\"src/ui/app.py\", \"cbm:unmapped\", \"run_all\", \"UNMAPPED_FILE\")])" >expect &&
	test_cmp expect actual
'

test_expect_success 'rule file errors name file:line and exit 2' '
	printf "docs/**\n\nignore\n" >bad.rules &&
	test_expect_code 2 tiadash rules --rules bad.rules --list 2>err &&
	echo "tiadash: error: bad.rules:3: '"'"'ignore'"'"' needs a glob" >expect &&
	test_cmp expect err &&
	printf "{\"test_impact\": {\"rules\": [\n {\"id\": \"a\", \"paths\": [\"x\"],\n  \"action\": \"everything\"}]}}\n" >bad.json &&
	test_expect_code 2 tiadash rules --rules bad.json --list 2>err &&
	echo "tiadash: error: bad.json:2: rule '"'"'a'"'"': unknown action '"'"'everything'"'"' (expected run_all, ignore, suites, referencing_tests or lanes)" >expect &&
	test_cmp expect err &&
	printf "{\"test_impact\": [}\n" >broken.json &&
	test_expect_code 2 tiadash rules --rules broken.json --list 2>err &&
	echo "tiadash: error: broken.json:1: invalid JSON" >expect &&
	test_cmp expect err &&
	test_expect_code 2 tiadash rules --rules missing.rules --list 2>err &&
	echo "tiadash: error: cannot open '"'"'missing.rules'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success 'another tool'"'"'s config under a name no adapter claims is refused, naming its adapter' '
	while IFS="|" read -r file text msg; do
		printf -- "$text" >"$file" &&
		test_expect_code 2 tiadash rules --no-builtin-rules --rules "$file" --list >out 2>err &&
		test_must_be_empty out &&
		echo "tiadash: error: $file$msg" >expect &&
		test_cmp expect err || return 1
	done <<-\EOF
	harness.yml.bak|# the harness\nselection:\n  no_subset_paths:\n    - a/**\n|:2: YAML, not a tiadash rule file: the harness adapter reads it (as *.yml or *.yaml, with selection.no_subset_paths)
	plain.yml.bak|---\nname: x\n|:1: YAML, not a tiadash rule file: the harness or moon adapter reads it (as *.yml or *.yaml (harness), moon.yml or .moon/tasks/*.yml (moon))
	vitest.setup.ts|// setup\nimport { defineConfig } from "vitest/config";\n|:2: a JS/TS config, not a tiadash rule file: the vitest adapter reads it (as vitest.config.* or vite.config.*)
	conf.js|module.exports = {};\n|:1: a JS/TS config, not a tiadash rule file: the vitest adapter reads it (as vitest.config.* or vite.config.*)
	always-run.json.orig|\n[\n  "db/**"\n]\n|:2: JSON, not a tiadash rule file: the gstack adapter reads it (as .gstack/always-run.json)
	EOF
'

test_expect_success 'globs that only look like another format still read as rules' '
	printf "[ab]*.txt\n/*.md\nselect src/** tests/a.py::test_x\ndocs:x\n**/a: b\n" >odd.rules &&
	tiadash rules --no-builtin-rules --rules odd.rules --list >actual &&
	cat >expect <<-\EOF &&
	run_all  [ab]*.txt  odd.rules:1  (in effect: odd.rules)
	run_all  /*.md      odd.rules:2  (in effect: odd.rules)
	select   src/**     odd.rules:3  (in effect: odd.rules)  -> tests/a.py::test_x
	run_all  docs:x     odd.rules:4  (in effect: odd.rules)
	run_all  **/a: b    odd.rules:5  (in effect: odd.rules)
	EOF
	test_cmp expect actual
'

test_expect_success 'usage errors exit 2; --help exits 0' '
	test_expect_code 2 tiadash rules 2>err &&
	test_grep "error: give one of --builtin, --test and --list" err &&
	test_expect_code 2 tiadash rules --list --builtin 2>err &&
	test_grep "error: give one of --builtin, --test and --list" err &&
	test_expect_code 2 tiadash rules --list extra 2>err &&
	test_grep "error: unexpected argument '"'"'extra'"'"'" err &&
	test_expect_code 2 tiadash rules --list --format csv 2>err &&
	test_grep "error: unknown format '"'"'csv'"'"'" err &&
	tiadash rules --help >out &&
	test_grep "^usage: tiadash rules \[--rules FILE\]" out
'

test_done
