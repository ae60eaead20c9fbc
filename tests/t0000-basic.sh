#!/bin/bash
# The command line: version, help, usage errors and exit statuses.
. "$(dirname "$0")/lib.sh"
SQ="'"

test_expect_success '--version prints the version' '
	tiadash --version >out &&
	grep -q "^tiadash [0-9][0-9.]*$" out
'

test_expect_success 'version, the command, prints the same line' '
	tiadash version >cmd &&
	tiadash --version >out && test_cmp out cmd &&
	test_expect_code 2 tiadash version now 2>err &&
	printf "tiadash: error: unexpected argument ${SQ}now${SQ}\nusage: tiadash version\n" >expect &&
	test_cmp expect err
'

test_expect_success 'help lists every command' '
	tiadash help >out &&
	for c in init ingest status show help; do
		grep -q "^  $c " out || { echo "missing $c"; exit 1; }
	done
'

test_expect_success 'every command has --help, exit 0, with its usage' '
	for c in $(tiadash help | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p"); do
		tiadash $c --help >out || { echo "$c --help failed"; exit 1; }
		grep -q "^usage: tiadash $c" out || { echo "$c: no usage"; cat out; exit 1; }
	done
'

test_expect_success 'unknown command: said on stderr, exit 2' '
	test_expect_code 2 tiadash frobnicate >out 2>err &&
	test_must_be_empty out &&
	echo "tiadash: error: '"'"'frobnicate'"'"' is not a tiadash command (see '"'"'tiadash help'"'"')" >expect &&
	test_cmp expect err
'

test_expect_success 'unknown global option: exit 2' '
	test_expect_code 2 tiadash --bogus status 2>err &&
	test_grep "unknown option" err
'

test_expect_success 'no command and no terminal: usage, exit 2' '
	test_expect_code 2 tiadash </dev/null >out 2>err &&
	test_grep "no command" err
'

test_expect_success 'unknown command option: exit 2' '
	test_expect_code 2 tiadash --db x.db status --colour 2>err &&
	test_grep "usage: tiadash status" err
'

test_expect_success 'a store outside a repository needs --db' '
	mkdir norepo && cd norepo &&
	test_expect_code 2 tiadash status 2>err &&
	test_grep "not in a git repository" err
'

test_expect_success 'TIADASH_DB names the store' '
	TIADASH_DB=$PWD/env.db tiadash init >out &&
	test_grep "env.db ready (schema [0-9][0-9]*)$" out
'

test_expect_success 'status of an empty store' '
	tiadash --db empty.db init >/dev/null &&
	tiadash --db empty.db status --format json | json_norm >actual &&
	echo "{\"failures\": 0, \"first\": null, \"identity\": {\"by_name\": 0, \"entries_matching_no_test\": null, \"entries_unresolved\": 0, \"failing_tests\": 0, \"quarantine_lines\": 0, \"quarantine_unresolved\": 0, \"quarantine_unresolved_lines\": [], \"resolved\": 0, \"selection_entries\": 0, \"unresolved\": []}, \"last\": null, \"pairs\": 0, \"runs\": {\"full\": 0, \"shadow\": 0}, \"sources\": 0, \"tests\": 0}" >expect &&
	test_cmp expect actual
'

test_expect_success 'a write error on stdout is exit 2' '
	test_expect_code 2 tiadash help >/dev/full
'

test_done
