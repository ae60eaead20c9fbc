#!/usr/bin/env bash
# Every tiadash command line of the man page's EXAMPLES runs as printed,
# inside a clone of the sample week's repository with the week in its
# default store, and succeeds (gate-check: exit 1 is its NO-GO). The files
# an example names (rule configurations, a vitest list, a selector's
# Makefile target) are put beside it, as a team would have them. Cron lines
# and CI snippets are not run: they need a network.
. "$(dirname "$0")/lib.sh"

need_sample_week

# examples: the command lines of EXAMPLES, roff escapes undone, one a line.
examples() {
	awk '
	/^\.SH EXAMPLES/ { on = 1; next }
	/^\.SH / { on = 0 }
	!on { next }
	/^\.(EX|nf)$/ { block = 1; next }
	/^\.(EE|fi)$/ { block = 0; next }
	block && /^tiadash / { print; next }
	prev == ".TP" && /^\.B tiadash / { sub(/^\.B /, ""); print }
	{ prev = $0 }
	' "$TEST_SRC/../man/tiadash.1" |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g"
}

test_expect_success 'setup: the sample week in a clone, and the files the examples name' '
	git clone -q "$SAMPLE/repo" w && cd w &&
	tiadash ingest "$SAMPLE/artifacts" >out &&
	echo "798 new runs, 0 unchanged" >expect && test_cmp expect out &&
	rm out expect &&
	cp "$TEST_SRC/data/cbm/codebase-memory.json" .codebase-memory.json &&
	cp "$TEST_SRC/data/native/turbo/turbo.json" "$TEST_SRC/data/native/harness/harness.yml" . &&
	printf "[\n  {\"name\": \"formats > money\", \"file\": \"%s/web/src/format/__tests__/money.test.js\"}\n]\n" \
		"$PWD" >vitest-list.json &&
	junit junit.xml "web/src/format/__tests__/money.test.js::formats > money" &&
	printf "print-affected:\n\t@grep \"^tests/\" || echo nothing\n" >Makefile &&
	cd .. && examples >examples &&
	test "$(wc -l <examples)" -ge 15
'

n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	test_expect_success "man example: $cmd" '
		cd w &&
		eval "$cmd" >"../out.$n" 2>"../err.$n"; rc=$?; cd .. &&
		case "$cmd" in
		"tiadash gate-check "*" -o "*) test $rc = 1 && test_grep "NO-GO" w/${cmd##* } ;;
		"tiadash gate-check "*) test $rc = 1 && test_grep "^NO-GO" out.$n ;;
		*) test $rc = 0 ;;
		esac &&
		! grep -q "error" err.$n
	'
done <examples 2>/dev/null

test_expect_success 'the examples left what they say: a csv, pages, an accepted glob, a note' '
	test "$(head -c 15 w/week.csv)" = "pr,repo,head,at" &&
	head -1 w/week.html | grep -qx "<!DOCTYPE html>" && grep -q "Escape rate per day" w/week.html &&
	# No --rules: the accepted glob went into the selector config found, turbo.json.
	test_grep "\"globalDependencies\": \[\".env\", \"tsconfig.base.json\", \"config/registry.toml\"\]" w/turbo.json && test ! -e w/turbo.json.orig &&
	tiadash --db w/.tiadash/tiadash.db show 612 >show.txt &&
	test_grep "flaky DNS in CI, fixed by #640" show.txt
'

test_done
