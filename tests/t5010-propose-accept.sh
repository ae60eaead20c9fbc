#!/bin/bash
# propose --accept GLOB: the rules file gets exactly a dated comment naming
# the escapes the glob closes, then the glob; the next propose treats those
# escapes as closed by the rules. Refusals leave the file alone. (Undo is
# the API's, byte for byte: tests/unit/test_proposals.c.)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-propose.sh"

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup' '
	phistory
'

test_expect_success 'accept appends to .tiadash/rules and says what it wrote' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules \
		--accept config/registry.toml >out &&
	cat >expect <<-\EOF &&
	ignore docs/**
	# accepted 2026-11-08: closes escapes of PR 1, 2 (tiadash propose)
	config/registry.toml
	EOF
	test_cmp expect repo/.tiadash/rules &&
	sed "s|$TRASH|TRASH|" out >actual &&
	cat >expect <<-\EOF &&
	appended to TRASH/repo/.tiadash/rules:
	# accepted 2026-11-08: closes escapes of PR 1, 2 (tiadash propose)
	config/registry.toml

	it closes PR 1, 2; matches 4 changes, +3 force-full runs, +28.2 min (2 closing,
	  1 other escape); force-full 36.4%, shadow p95 665 s
	EOF
	test_cmp expect actual
'

test_expect_success 'the next propose counts them as closed by that rule' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --format json >p.json &&
	json_close p.json "[e[\"pr\"] for e in d[\"closed_by_rules\"]]" "[1, 2]" &&
	json_close p.json "d[\"closed_by_rules\"][0][\"rule\"]" "\"force-full:config/registry.toml\"" &&
	json_close p.json "d[\"recommended\"]" "[\"tests/fixtures/a.json\"]" &&
	# config/ is now decided by the rule: no config candidates are left.
	json_close p.json "[p[\"glob\"] for p in d[\"proposals\"] if p[\"glob\"].startswith(\"config\")]" "[]"
'

test_expect_success 'the same glob twice is refused, the file unchanged' '
	cp repo/.tiadash/rules before &&
	test_expect_code 2 tiadash --db s.db --repo repo propose $W \
		--accept config/registry.toml >out 2>err &&
	test_grep "already has .config/registry.toml." err &&
	test_must_be_empty out &&
	test_cmp before repo/.tiadash/rules
'

test_expect_success 'a glob that would not read back is refused' '
	test_expect_code 2 tiadash --db s.db --repo repo propose $W --accept "ignore x" 2>err &&
	test_grep "would not read back" err &&
	test_expect_code 2 tiadash --db s.db --repo repo propose $W --accept "a[" 2>err &&
	test_grep "bad glob .a\[." err &&
	test_cmp before repo/.tiadash/rules
'

test_expect_success 'accept into a new file (and directory), json' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --rules new/dir/rules \
		--accept "**/a.json" --format json >a.json &&
	printf "# accepted 2026-11-08: closes the escape of PR 3 (tiadash propose)\n**/a.json\n" >expect &&
	test_cmp expect new/dir/rules &&
	json_close a.json "[d[\"created\"], d[\"closes\"], d[\"extra_force_full\"], d[\"glob\"]]" \
		"[true, [3], 0, \"**/a.json\"]" &&
	json_close a.json "d[\"appended\"]" "$(python3 -c "import json; print(json.dumps(open(\"new/dir/rules\").read()))")"
'

test_expect_success 'a rule file without a final newline gets one first' '
	printf "ignore docs/**" >nonl &&
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --rules nonl \
		--accept "src/**" >out &&
	printf "ignore docs/**\n# accepted 2026-11-08: closes the escape of PR 1 (tiadash propose)\nsrc/**\n" >expect &&
	test_cmp expect nonl
'

test_expect_success 'a glob closing nothing says so' '
	tiadash --db s.db --repo repo propose $W --no-builtin-rules --rules nonl \
		--accept "nothing/**" >out &&
	tail -n 2 nonl >actual &&
	printf "# accepted 2026-11-08: closes no escape of the window (tiadash propose)\nnothing/**\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'no rules file to write without a repository or --rules' '
	test_expect_code 2 tiadash --db s.db propose $W --accept "x/**" 2>err &&
	test_grep "no rules file to append to" err
'

test_expect_success 'a .codebase-memory.json gets a run_all rule (adapters/cbm.c)' '
	echo "{\"test_impact\": {\"rules\": []}}" >.codebase-memory.json &&
	cp .codebase-memory.json cbm.before &&
	tiadash --db s.db --repo repo propose $W --rules .codebase-memory.json \
		--accept "config/registry.toml" >out 2>err &&
	test ! -e .codebase-memory.json.orig &&
	echo "{\"test_impact\": {\"rules\": [{\"id\": \"tiadash-force-full\", \"paths\": [\"config/registry.toml\"], \"action\": \"run_all\"}]}}" >expect &&
	test_cmp expect .codebase-memory.json &&
	test_grep "^wrote .codebase-memory.json:" out &&
	test_grep "^+{\"test_impact\"" out &&
	# codebase-memory-mcp runs everything for a path no rule maps
	# (cbm:unmapped, after the file rules): the escapes were closed already.
	test_grep "it closes -;" out &&
	# The next propose reads the rule back, where its adapter put it: last of
	# test_impact.rules, before cbm:unmapped.
	tiadash --db s.db --repo repo propose $W --rules .codebase-memory.json --format json >c.json &&
	json_close c.json "[[e[\"pr\"], e[\"rule\"]] for e in d[\"closed_by_rules\"]]" \
		"[[1, \"force-full:config/registry.toml\"], [2, \"force-full:config/registry.toml\"], [3, \"UNMAPPED_FILE\"]]"
'

test_expect_success 'a vitest config is written in place, and propose then agrees' '
	printf "export default { test: { forceRerunTriggers: [\"**/package.json\"] } }\n" >vitest.config.ts &&
	cp vitest.config.ts vitest.before &&
	tiadash --db s.db --repo repo propose $W --rules vitest.config.ts \
		--accept "**/registry.toml" >out 2>err &&
	test ! -e vitest.config.ts.orig &&
	echo "export default { test: { forceRerunTriggers: [\"**/package.json\", \"**/registry.toml\"] } }" >expect &&
	test_cmp expect vitest.config.ts &&
	test_grep "^+export default" out &&
	tiadash --db s.db --repo repo propose $W --rules vitest.config.ts --format json >after.json &&
	json_get after.json "sorted(e[\"pr\"] for e in d[\"closed_by_rules\"])" >actual &&
	echo "[1, 2]" >expect && test_cmp expect actual
'

test_done
