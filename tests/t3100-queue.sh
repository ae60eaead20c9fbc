#!/bin/bash
# queue: the merge queue of seven PRs worked out by hand (metrics/queue.h),
# with each gate, batches of 1 and 3, one and two runners, in every format.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

# Seven PRs; seconds after 08:00, shadow wall-clock (decision), full:
#   1   0  100  selected  600
#   2  30  200  selected  500
#   3  60  700  run_all   700
#   4  90   50  selected  400
#   5 1000 100  selected  300
#   6 1010  80  selected  650
#   7 1020  60  nothing   610
# and PR 8, a shadow run alone (no full run: not in the queue).

# queue_is FILE GATE KEY=VALUE...: each key of the gate's figures is VALUE
# (numbers within 1e-9, null for n/a).
queue_is() {
	local f=$1 gate=$2 kv
	shift 2
	for kv; do
		json_close "$f" "d[\"$gate\"][\"${kv%%=*}\"]" "${kv#*=}" || return 1
	done
}
test_expect_success 'setup: seven pairs and a shadow run alone' '
	MREPO_TESTS="tests/b.py tests/c.py" mrepo 8 &&
	at() { date -u -d "@$((1793520000 + $1))" +%Y-%m-%dT%H:%M:%SZ; } &&
	n=0 &&
	for row in "1 0 100 sel 600" "2 30 200 sel 500" "3 60 700 ff 700" "4 90 50 sel 400" \
		   "5 1000 100 sel 300" "6 1010 80 sel 650" "7 1020 60 none 610" "8 1100 90 sel -"; do
		set -- $row &&
		case $4 in
		sel) s=$(sel selected 1 2 tests/b.py) ;;
		ff) s=$(ffsel "force-full:**/x.lock") ;;
		none) s="{\"decision\": \"nothing\", \"total_tests\": 2}" ;;
		esac &&
		mrun q/$1s $1 shadow 1 "$(at $2)" $3 pass "$s" tests/b.py::t || return 1
		if [ "$5" != - ]; then
			mrun q/$1f $1 full 1 "$(at $(($2 + 5)))" $5 pass - tests/b.py::t tests/c.py::t ||
				return 1
		fi
	done &&
	tiadash --db q.db --repo repo ingest q >out &&
	echo "15 new runs, 0 unchanged" >expect && test_cmp expect out
'

test_expect_success 'batches of 1, one runner: each gate by hand' '
	tiadash --db q.db queue --format json >q1.json &&
	# cheap: starts 0 100 300 1000 1050 1150 1230; waits 0 70 240 910 50 140 210
	# -> p50 140, p95 240 + .7 * 670; queued at 90: PRs 2-4, at 1020: 5-7
	queue_is q1.json cheap \
		prs=7 batch=1 runners=1 throughput_per_hour=19.53488372093023 \
		wait_p50_s=140 wait_p95_s=709.0 max_queue=3 batches=7 batches_stretched_by_force_full=1 &&
	# full: starts 0 600 1100 1800 2200 2500 3150; waits 0 570 1040 1710 1200 1490 2130
	# -> p50 1200, p95 1710 + .7 * 420; at 1020: PRs 3-7 wait; 3600 * 7 / 3760
	queue_is q1.json full \
		prs=7 batch=1 runners=1 throughput_per_hour=6.702127659574468 \
		wait_p50_s=1200 wait_p95_s=2004.0 max_queue=5 batches=7 batches_stretched_by_force_full=null
'

test_expect_success 'batches of 3: a force-full member stalls its batch' '
	tiadash --db q.db queue --batch 3 --format json >q3.json &&
	# cheap: {1} at 0 (100 s), {2,3,4} at 100 (700 s: PR 3 run_all, 200 without it),
	# {5} at 1000, {6,7} at 1100; waits 0 70 40 10 0 90 80; saturated groups
	# {1,2,3} 700, {4,5,6} 100, {7} 60 -> 3600 * 7 / 860
	queue_is q3.json cheap \
		prs=7 batch=3 runners=1 throughput_per_hour=29.30232558139535 \
		wait_p50_s=40 wait_p95_s=87.0 max_queue=3 batches=4 batches_stretched_by_force_full=1 &&
	# full: {1} at 0 (600), {2,3,4} at 600 (700), {5,6,7} at 1300 (650);
	# waits 0 570 540 510 300 290 280; groups 700 650 610 -> 3600 * 7 / 1960
	queue_is q3.json full \
		prs=7 batch=3 runners=1 throughput_per_hour=12.857142857142858 \
		wait_p50_s=300 wait_p95_s=561.0 max_queue=3 batches=3 batches_stretched_by_force_full=null
'

test_expect_success 'two runners: the runner free first takes the next batch' '
	tiadash --db q.db queue --runners 2 --format json >q2.json &&
	# cheap: A 0-100, B 30-230, A 100-800, B 230-280, B 1000-1100, A 1010-1090,
	# A 1090-1150; waits 0 0 40 140 0 0 70; at 90 PRs 3 and 4 wait
	queue_is q2.json cheap \
		prs=7 batch=1 runners=2 throughput_per_hour=39.06976744186046 \
		wait_p50_s=0 wait_p95_s=119.0 max_queue=2 batches=7 batches_stretched_by_force_full=1
'

test_expect_success 'text: the two gates side by side, within 80 columns' '
	tiadash --db q.db queue --batch 3 >q.txt &&
	cat >expect <<-\EOF &&
	queue: all time, all repos
	7 PRs with both wall-clocks, batches of up to 3, 1 runner

	                                   cheap gate   full gate
	PRs merged per hour (saturated)          29.3        12.9
	time in queue p50                        40 s       300 s
	time in queue p95                        87 s       561 s
	longest queue (PRs)                         3           3
	batches                                     4           3
	batches a force-full stretched              1         n/a
	EOF
	test_cmp expect q.txt &&
	! grep -q ".\{81\}" q.txt
'

test_expect_success 'md and csv carry the same figures' '
	tiadash --db q.db queue --batch 3 --format md >q.md &&
	test_grep "^| PRs merged per hour (saturated) | 29.3 | 12.9 |$" q.md &&
	test_grep "^| batches a force-full stretched | 1 | n/a |$" q.md &&
	tiadash --db q.db queue --batch 3 --format csv >q.csv &&
	cat >expect <<-\EOF &&
	gate,prs,batch,runners,throughput_per_hour,wait_p50_s,wait_p95_s,max_queue,batches,batches_stretched_by_force_full
	cheap,7,3,1,29.302325581395348,40,87,3,4,1
	full,7,3,1,12.857142857142858,300,561,3,3,
	EOF
	test_cmp expect q.csv
'

test_expect_success 'report carries the same queue (batches of 1, one runner), text and md too' '
	tiadash --db q.db report --format json >r.json &&
	python3 -c "import json; print(json.dumps(json.load(open(\"r.json\"))[\"queue\"], sort_keys=True))" >actual &&
	python3 -c "import json; d = json.load(open(\"q1.json\")); del d[\"window\"]; print(json.dumps(d, sort_keys=True))" >expect &&
	test_cmp expect actual &&
	tiadash --db q.db report >r.txt &&
	test_grep "^Queue, cheap 19.5 PRs/h saturated, in queue p50 140 s, p95 709 s, longest 3$" r.txt &&
	test_grep "^Queue, full  6.7 PRs/h saturated, in queue p50 1200 s, p95 2004 s, longest 5$" r.txt &&
	tiadash --db q.db report --format md >r.md &&
	test_grep "^| merge queue, full gate (batches of 1) | 6.7 PRs/h saturated, in queue p50 1200 s, p95 2004 s, longest 5 |$" r.md
'

test_expect_success 'a window: the pairs whose shadow run started in it' '
	tiadash --db q.db queue --since 2026-11-01T08:10:00Z --format json >w.json &&
	# PRs 5-7 only: cheap 1000-1100, 1100-1180, 1180-1240
	json_close w.json "[d[\"cheap\"][\"prs\"], d[\"cheap\"][\"wait_p50_s\"], d[\"cheap\"][\"max_queue\"]]" "[3, 90, 2]"
'

test_expect_success 'usage: --batch and --runners from 1 to 1000' '
	test_expect_code 2 tiadash --db q.db queue --batch 0 2>err &&
	test_grep "bad value .0. for --batch (1 to 1000)" err &&
	test_expect_code 2 tiadash --db q.db queue --runners 1001 2>err &&
	test_grep "bad value .1001. for --runners (1 to 1000)" err &&
	test_expect_code 2 tiadash --db q.db queue --format html 2>err
'

test_expect_success 'an empty window: no PRs, figures n/a' '
	tiadash --db q.db queue --since 2026-12-01 --format json >e.json &&
	json_close e.json "[d[\"cheap\"][\"prs\"], d[\"cheap\"][\"throughput_per_hour\"], d[\"full\"][\"wait_p50_s\"], d[\"cheap\"][\"max_queue\"]]" "[0, null, null, 0]"
'

test_done
