#!/bin/bash
# The figures kept (metrics/figcache.h): the dashboard draws them when they
# are fresh, and never when they are stale: after an ingest, a note, a plain
# SQL edit, another window or id-map, the overview shows the new figures,
# the very ones `report` computes. A store another process holds locked
# still opens the dashboard, which then computes the figures and keeps none.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

TUI_DB=live.db

# overview NAME [ARGS...]: the overview saved to NAME, the session's stderr empty.
overview() {
	local name=$1
	shift
	steps ":save-view $name" &&
	tui "$@" 2>err &&
	test_must_be_empty err
}

# counts NAME: the overview's pairs, heads, escapes, explained, non-hermetic.
counts() {
	sed -n -e 's/^Pairs \([0-9]*\) of \([0-9]*\) heads.*/pairs \1 heads \2/p' \
		-e 's/^Escapes \([0-9]*\) of [0-9]* pairs ([^)]*); \([0-9]*\) explained, \([0-9]*\) non-hermetic.*/escapes \1 explained \2 non-hermetic \3/p' "$1"
}

# report_counts [ARGS...]: the same figures as `report` computes them.
report_counts() {
	tiadash --db live.db report --format json "$@" >r.json &&
	json_get r.json "\"pairs %d heads %d\" % (d[\"pairs\"], d[\"heads\"])" &&
	json_get r.json "\"escapes %d explained %d non-hermetic %d\" % (d[\"escapes\"][\"count\"],
		d[\"escapes\"][\"explained\"], d[\"non_hermetic\"][\"count\"])"
}

kept() {
	sqlite3 live.db "SELECT count(*) FROM figures WHERE generation = (SELECT n FROM generation)"
}

test_expect_success 'setup: the first half of the week' '
	ls -d "$SAMPLE"/artifacts/pr-* | sort | head -150 >first &&
	tiadash --db live.db --repo "$SAMPLE/repo" ingest $(cat first) >/dev/null &&
	: >config
'

test_expect_success 'the first open computes the figures and keeps them' '
	test "$(kept)" = 0 &&
	overview a.overview --since 2026-11-01 &&
	test "$(kept)" = 1 &&
	counts a.overview >actual &&
	report_counts --since 2026-11-01 >expect &&
	test_cmp expect actual &&
	printf "pairs 148 of 150 heads\n" >expect &&
	sed -n "s/^Pairs \([0-9]*\) of \([0-9]*\) heads.*/pairs \1 of \2 heads/p" a.overview >actual &&
	test_cmp expect actual
'

test_expect_success 'fresh kept figures are drawn: another window'"'"'s, planted under this key' '
	overview b.overview --since 2026-11-03 &&
	test "$(kept)" = 2 &&
	! test_cmp a.overview b.overview >/dev/null &&
	sqlite3 live.db "UPDATE figures SET data = (SELECT data FROM figures WHERE key =
		(SELECT key FROM figures ORDER BY rowid LIMIT 1))
		WHERE rowid = (SELECT max(rowid) FROM figures)" &&
	overview c.overview --since 2026-11-03 &&
	test_cmp a.overview c.overview
'

test_expect_success 'after an ingest the figures are the new ones, and kept again' '
	tiadash --db live.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >/dev/null &&
	test "$(kept)" = 0 &&
	overview d.overview --since 2026-11-01 &&
	grep "^Pairs" d.overview >actual &&
	echo "Pairs 295 of 300 heads; 6 incomplete ▃██▇▇█▂" >expect &&
	test_cmp expect actual &&
	counts d.overview >actual &&
	report_counts --since 2026-11-01 >expect &&
	test_cmp expect actual &&
	test "$(kept)" = 1 &&
	overview e.overview --since 2026-11-01 &&
	test_cmp d.overview e.overview
'

test_expect_success 'after a note the escape counts as explained' '
	pr=$(json_get r.json "d[\"escapes\"][\"list\"][0][\"pr\"]") &&
	tiadash --db live.db --repo "$SAMPLE/repo" propose --since 2026-11-01 \
		--explain "$pr" --note "a flaky fixture" >/dev/null &&
	overview f.overview --since 2026-11-01 &&
	counts f.overview >actual &&
	report_counts --since 2026-11-01 >expect &&
	test_cmp expect actual &&
	test_grep "^escapes 13 explained 1 non-hermetic 3$" actual
'

test_expect_success 'a plain SQL edit of the runs is never served from the kept figures' '
	overview g.overview --since 2026-11-01 &&
	test_cmp f.overview g.overview &&
	sqlite3 live.db "DELETE FROM run WHERE head_id = (SELECT max(id) FROM head)" &&
	overview h.overview --since 2026-11-01 &&
	counts h.overview >actual &&
	report_counts --since 2026-11-01 >expect &&
	test_cmp expect actual &&
	test_grep "^pairs 294 heads 299$" actual
'

test_expect_success 'another id-map: the figures under it, not the kept ones' '
	overview i.overview --since 2026-11-01 &&
	test_cmp h.overview i.overview &&
	echo "id-map = ^web/src/format/ => web/src/" >config &&
	overview j.overview --since 2026-11-01 &&
	counts j.overview >actual &&
	report_counts --since 2026-11-01 >expect &&
	test_cmp expect actual &&
	! test_cmp i.overview j.overview >/dev/null &&
	: >config &&
	overview k.overview --since 2026-11-01 &&
	test_cmp h.overview k.overview
'

test_expect_success 'a store another process holds locked opens, its figures computed, none kept' '
	sqlite3 live.db "DELETE FROM figures" &&
	hold_lock live.db &&
	TIADASH_BUSY_TIMEOUT=0 overview l.overview --since 2026-11-01 &&
	test "$(sqlite3 live.db "SELECT count(*) FROM figures")" = 0 &&
	release_lock live.db &&
	test_cmp h.overview l.overview
'

test_done
