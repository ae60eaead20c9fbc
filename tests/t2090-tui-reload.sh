#!/bin/bash
# r reloads: a cron ingest lands while the dashboard is open (the store in
# WAL mode is read and written at once); after r the counts, the pages and
# the figures are the new ones. The script is a FIFO the test feeds.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/tui/lib.sh"

# wait_file FILE: until FILE exists (a watchdog, not a timing assertion).
wait_file() {
	local n=0
	while [ ! -e "$1" ]; do
		n=$((n + 1))
		[ $n -lt $((TEST_TIMEOUT * 10 / 2)) ] || { echo "no $1" >&2; return 1; }
		sleep 0.1
	done
}

test_expect_success 'setup: the first half of the week' '
	ls -d "$SAMPLE"/artifacts/pr-* | sort | head -150 >first &&
	tiadash --db live.db --repo "$SAMPLE/repo" ingest $(cat first) >/dev/null &&
	mkfifo steps.fifo
'

test_expect_success 'r after an ingest shows the new runs and figures' '
	{
		TIADASH_NO_DISPLAY=1 TIADASH_SCRIPT=steps.fifo \
			tiadash --db live.db --repo "$SAMPLE/repo" tui --since 2026-11-01 >out 2>err
		echo $? >rc
	} &
	exec 9>steps.fifo &&
	printf "%s\n" ":save-view before.overview" "2" "G" ":save-view before.runs" \
		":save-display before.done" >&9 &&
	wait_file before.done &&
	tiadash --db live.db --repo "$SAMPLE/repo" ingest "$SAMPLE/artifacts" >ingested &&
	printf "%s\n" "r" ":save-view after.runs" "1" ":save-view after.overview" "q" "q" >&9 &&
	exec 9>&- &&
	wait &&
	echo 0 >expect && test_cmp expect rc &&
	test_must_be_empty err &&
	sed -n 2p before.runs >actual && sed -n 2p after.runs >>actual &&
	printf "lines 150\nlines 496\n" >expect &&
	test_cmp expect actual &&
	grep "^Pairs" after.overview >actual &&
	echo "Pairs 295 of 300 heads; 6 incomplete ▃██▇▇█▂" >expect &&
	test_cmp expect actual &&
	! grep -q "^Pairs 295" before.overview
'

test_done
