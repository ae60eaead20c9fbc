#!/bin/bash
# A .codebase-memory.json of 20,000 rules (issue 19): propose reads it and
# answers as with the few rules that matter. (It took 70 s when every rule
# searched the file from its start for its line; the time is measured by
# hand, never asserted here.)
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"
. "$TEST_SRC/lib-propose.sh"

W="--since 2026-11-01 --until 2026-11-08"

test_expect_success 'setup: the propose history, and a cbm file of 20,000 rules' '
	phistory &&
	python3 -c "
import json
rules = [{\"id\": \"r%d\" % i, \"paths\": [\"gen/mod%d/**\" % i], \"action\": \"run_all\"}
         for i in range(20000)]
rules.append({\"id\": \"docs\", \"paths\": [\"docs/**\"], \"action\": \"ignore\"})
rules.append({\"id\": \"reg\", \"paths\": [\"config/registry.toml\"], \"action\": \"run_all\"})
json.dump({\"test_impact\": {\"version\": 1, \"rules\": rules}}, open(\"big.json\", \"w\"), indent=1)
" &&
	python3 -c "
import json
rules = [{\"id\": \"docs\", \"paths\": [\"docs/**\"], \"action\": \"ignore\"},
         {\"id\": \"reg\", \"paths\": [\"config/registry.toml\"], \"action\": \"run_all\"}]
json.dump({\"test_impact\": {\"version\": 1, \"rules\": rules}}, open(\"small.json\", \"w\"), indent=1)
"
'

test_expect_success 'propose over 20,000 rules answers as over the two that match' '
	mkdir -p big small && cp big.json big/.codebase-memory.json && cp small.json small/.codebase-memory.json &&
	tiadash --db s.db --repo repo propose $W --rules big/.codebase-memory.json --format json >b.json &&
	tiadash --db s.db --repo repo propose $W --rules small/.codebase-memory.json --format json >s.json &&
	json_get b.json "[d[\"closable\"], [e[\"pr\"] for e in d[\"closed_by_rules\"]], d[\"recommended\"]]" >actual &&
	json_get s.json "[d[\"closable\"], [e[\"pr\"] for e in d[\"closed_by_rules\"]], d[\"recommended\"]]" >expect &&
	test_cmp expect actual &&
	# PR 3 (a fixture no rule names): codebase-memory-mcp runs every
	# unmapped file (UNMAPPED_FILE), so all three escapes are closed.
	echo "[0, [1, 2, 3], []]" >expect && test_cmp expect actual
'

test_expect_success 'an error names the rule and its line in a big file' '
	python3 -c "
import json
d = json.load(open(\"big.json\")); d[\"test_impact\"][\"rules\"][19998][\"action\"] = \"explode\"
json.dump(d, open(\"bad.json\", \"w\"), indent=1)
" && mkdir -p bad && mv bad.json bad/.codebase-memory.json &&
	test_expect_code 2 tiadash --db s.db --repo repo propose $W --rules bad/.codebase-memory.json >out 2>err &&
	test_grep "bad/.codebase-memory.json:[0-9]*: rule '"'"'r19998'"'"': unknown action '"'"'explode'"'"'" err
'

test_done
