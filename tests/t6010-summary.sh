#!/bin/bash
# summary: the escape rate against the window just before it, the escapes
# with their missed tests, the costliest force-full reasons; text and md;
# --max-escape-rate sets the exit status.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

test_expect_success 'setup: a previous week with 2 escapes in 4 pairs, this week 1 in 4' '
	mrepo 8 &&
	# previous week (2026-10-25 .. 11-01): PRs 1-4, escapes 1 and 2
	mrun a/1s 1 shadow 1 2026-10-26T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/1f 1 full 1 2026-10-26T10:00:00Z 600 fail - tests/b.py::u:failed &&
	mrun a/2s 2 shadow 1 2026-10-27T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/2f 2 full 1 2026-10-27T10:00:00Z 600 fail - tests/c.py::v:failed &&
	mrun a/3s 3 shadow 1 2026-10-28T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/3f 3 full 1 2026-10-28T10:00:00Z 600 pass - tests/a.py::t &&
	mrun a/4s 4 shadow 1 2026-10-29T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/4f 4 full 1 2026-10-29T10:00:00Z 600 pass - tests/a.py::t &&
	# this week: PR 6 escapes (two missed tests), PRs 7 and 8 force-full
	mrun a/5s 5 shadow 1 2026-11-02T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/5f 5 full 1 2026-11-02T10:00:00Z 600 pass - tests/a.py::t &&
	mrun a/6s 6 shadow 1 2026-11-03T10:00:00Z 90 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/6f 6 full 1 2026-11-03T10:00:00Z 600 fail - "tests/exports/test_csv.py::test_width:failed" tests/z.py::w:error &&
	mrun a/7s 7 shadow 1 2026-11-04T10:00:00Z 660 pass "$(ffsel "force-full:**/package-lock.json")" tests/a.py::t &&
	mrun a/7f 7 full 1 2026-11-04T10:00:00Z 600 pass - tests/a.py::t &&
	mrun a/8s 8 shadow 1 2026-11-05T10:00:00Z 360 pass "$(ffsel migrations/** UNMAPPED_FILE)" tests/a.py::t &&
	mrun a/8f 8 full 1 2026-11-05T10:00:00Z 600 pass - tests/a.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null
'

test_expect_success 'text: default window is the 7 days before now' '
	tiadash --db s.db summary >actual &&
	# narrowed p50 75 s: lockfile (660-75)/60 = 9.75 min; migrations (360-75)/60 = 4.75;
	# 1 of 4: upper 0.7514 (tests/stats_ref.py upper 1 4 0.95), 89 more pairs
	# (needed 1 4 0.95 0.05) at 4 pairs in 7 days: 156 days; against 2 of 4,
	# p = 1 (fisher 1 4 2 4); the narrowed runs name tests/a.py only;
	# saved 4 x 600 - (60 + 90 + 660 + 360) = 1230 s in the 7 days: 0.34 h a
	# week; 4 pairs a week x 0.25 = 1.0 escapes, x 0.7514 = 3.0 at most
	cat >expect <<-\EOF &&
	tiadash summary: 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos

	Escape rate 25.00% (1 escape in 4 pairs), 95% upper bound 75.14%
	Previous 7 days: 50.00% (2 escapes in 4 pairs): down 25.00 points
	Trend: flat (p = 1)
	To reach 5.00%: 89 more clean pairs (about 156 days at this window'"'"'s rate)
	Blind spots: 2 of 3 tests never selected; 2 failed in full
	Verifier changed: 0 heads
	The cheap gate saves about 0.3 runner-hours a week and lets through about 1.0
	  regressions a week (at most 3.0 at 95%).

	Escapes
	- PR #6 $(head_of 6 | cut -c1-12) acme/x (escape); missed
	  tests/exports/test_csv.py::test_width, tests/z.py::w

	Top force-full reasons by cost (gate minutes beyond a narrowed run)
	2 of 4 shadow runs forced full (50.0%)
	1. force-full:**/package-lock.json: 1 run, 9.8 min
	2. UNMAPPED_FILE: 1 run, 4.8 min
	3. migrations/**: 1 run, 4.8 min
	EOF
	sed "s/\$(head_of 6 | cut -c1-12)/$(head_of 6 | cut -c1-12)/" expect >expect2 &&
	test_cmp expect2 actual
'

test_expect_success 'md: the same, a line each when rendered, test ids as code' '
	tiadash --db s.db summary --format md >actual.md &&
	cat >expect <<-EOF &&
	**tiadash summary:** 2026-11-01T00:00:00Z .. 2026-11-08T00:00:00Z, all repos

	**Escape rate 25.00%** (1 escape in 4 pairs), 95% upper bound 75.14%

	- Previous 7 days: 50.00% (2 escapes in 4 pairs): down 25.00 points
	- Trend: flat (p = 1)
	- To reach 5.00%: 89 more clean pairs (about 156 days at this window'"'"'s rate)
	- Blind spots: 2 of 3 tests never selected; 2 failed in full
	- Verifier changed: 0 heads

	The cheap gate saves about 0.3 runner-hours a week and lets through about 1.0 regressions a week (at most 3.0 at 95%).

	**Escapes**

	- PR #6 $(head_of 6 | cut -c1-12) acme/x (escape); missed \`tests/exports/test_csv.py::test_width\`, \`tests/z.py::w\`

	**Top force-full reasons by cost** (gate minutes beyond a narrowed run)
	2 of 4 shadow runs forced full (50.0%)

	1. force-full:\\*\\*/package-lock.json: 1 run, 9.8 min
	2. UNMAPPED\\_FILE: 1 run, 4.8 min
	3. migrations/\\*\\*: 1 run, 4.8 min
	EOF
	test_cmp expect actual.md
'

test_expect_success '--max-escape-rate: exit 1 above it, 0 at or below' '
	test_expect_code 1 tiadash --db s.db summary --max-escape-rate 0.2 >out &&
	test_grep "^Escape rate 25.00%" out &&
	tiadash --db s.db summary --max-escape-rate 0.25 >/dev/null &&
	tiadash --db s.db summary --max-escape-rate 1 >/dev/null
'

test_expect_success 'an explicit window and its previous one of the same length' '
	tiadash --db s.db summary --since 2026-10-29 --until 2026-11-03 >w.txt &&
	# this window: PRs 4, 5 (no escape); before it (10-24 .. 10-29): PRs 1-3
	test_grep "^Escape rate 0.00% (0 escapes in 2 pairs), 95% upper bound 77.64%$" w.txt &&
	test_grep "^Previous 5 days: 66.67% (2 escapes in 3 pairs): down 66.67 points$" w.txt &&
	# 0 of 2 against 2 of 3: p = 0.4 (tests/stats_ref.py fisher 0 2 2 3)
	test_grep "^Trend: flat (p = 0.4)$" w.txt &&
	test_grep "^No escapes.$" w.txt &&
	test_grep "^No force-full runs.$" w.txt
'

test_expect_success 'nothing before: the trend is n/a; --max-escape-rate judges only a defined rate' '
	tiadash --db s.db summary --since 2026-10-01 --until 2026-10-15 --max-escape-rate 0 >n.txt &&
	test_grep "^Escape rate n/a (0 escapes in 0 pairs), 95% upper bound n/a$" n.txt &&
	test_grep "^To reach 5.00%: 59 more clean pairs$" n.txt &&
	test_grep "^Previous 14 days: n/a (0 escapes in 0 pairs)$" n.txt &&
	test_grep "^The trade of the flip is n/a (no pair in the window).$" n.txt &&
	test "$(grep -c "n/a" n.txt)" = 5 &&
	test_grep "^Trend: n/a (no pairs in one of the windows)$" n.txt &&
	test_grep "^Blind spots: n/a (no full run of the window has its test list)$" n.txt
'

test_expect_success 'json and csv: the trend and the bounds, for machines' '
	tiadash --db s.db summary --since 2026-10-29 --until 2026-11-03 --format json >w.json &&
	json_close w.json "d[\"trend\"]" "{\"previous_rate\": 0.6666666666666666, \"rate\": 0.0, \"p_value\": 0.4, \"direction\": \"flat\", \"previous\": {\"since\": \"2026-10-24T00:00:00Z\", \"until\": \"2026-10-29T00:00:00Z\", \"pairs\": 3, \"escapes\": 2}}" &&
	json_close w.json "d[\"escapes\"][\"rate_upper\"]" 0.776393202250021 &&
	json_close w.json "[d[\"escapes\"][k] for k in (\"count\", \"pairs_needed\", \"target\", \"confidence\")]" "[0, 57, 0.05, 0.95]" &&
	tiadash --db s.db summary --since 2026-10-29 --until 2026-11-03 --format csv >w.csv &&
	python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); assert len(r) == 1, r; r=r[0]; assert (r[\"pairs\"], r[\"escapes\"], r[\"previous_pairs\"], r[\"previous_escapes\"], r[\"direction\"], r[\"pairs_needed\"]) == (\"2\", \"0\", \"3\", \"2\", \"flat\", \"57\"), r; assert abs(float(r[\"p_value\"]) - 0.4) < 1e-12, r" w.csv
'

test_expect_success 'explained escapes are marked; the repo filter applies to both windows' '
	sqlite3 s.db "INSERT INTO note (head_id, kind, text, created_at) SELECT id, '"'"'explained'"'"', '"'"'known [flaky] env'"'"', 0 FROM head WHERE pr = 6" &&
	tiadash --db s.db summary --format md --repo acme/x >e.md &&
	test_grep "^\*\*Escape rate 25.00%\*\* (1 escape in 4 pairs, 1 explained), 95% upper bound 75.14%$" e.md &&
	test_grep "(escape, explained: known \\\\\[flaky\\\\\] env); missed" e.md &&
	tiadash --db s.db summary --repo acme/other >o.txt &&
	test_grep "^Previous 7 days: n/a (0 escapes in 0 pairs)$" o.txt
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 tiadash --db s.db summary --format xml 2>err &&
	test_expect_code 2 tiadash --db s.db summary --confidence 95 2>err &&
	test_expect_code 2 tiadash --db s.db summary --max-escape-rate lots 2>err &&
	test_grep "max-escape-rate" err &&
	test_expect_code 2 tiadash --db s.db summary --post 2>err
'

test_done
