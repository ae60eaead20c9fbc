# The hand-made history of the propose tests (t5*): source after lib.sh and
# lib-metrics.sh. `phistory` builds repo/ (a base commit and one branch per
# PR changing the files named), the runs in runs/, a rules file
# repo/.tiadash/rules ("ignore docs/**"), and ingests it all into s.db.
#
#   PR  when (UTC)         changes                          shadow            full          class
#   10  2026-10-25 08:00   config/other.toml                selected  60 s    pass 600 s    agree
#   11  2026-10-26 08:00   config/registry.toml             selected  50 s    fail 620 s    escape (before the window)
#    1  2026-11-01 08:00   config/registry.toml, src/app.py,
#                          docs/readme.md                   selected  60 s    fail 600 s    escape
#    2  2026-11-02 08:00   config/registry.toml             selected  50 s    fail 630 s    escape
#    3  2026-11-03 08:00   tests/fixtures/a.json            nothing   20 s    fail 610 s    escape
#    4  2026-11-03 10:00   src/app.py                       selected  40 s    fail 615 s    non-hermetic
#    5  2026-11-04 08:00   config/other.toml                selected  70 s    pass 640 s    agree
#    6  2026-11-04 10:00   config/other.toml, docs/readme.md selected 80 s    pass   - s    agree
#    7  2026-11-05 08:00   tests/fixtures/b.json            selected  30 s    pass 600 s    agree
#    8  2026-11-05 10:00   config/registry.toml             run_all  700 s    pass 650 s    agree
#    9  2026-11-06 08:00   src/app.py                       selected  55 s    pass 605 s    agree
#
# The escapes miss tests/exports/test_csv.py::test_width (whose source
# imports the registry) and tests/test_fixture.py::test_load (which opens
# a.json); PR 4's failing test tests/test_app.py::test_app was selected.

# pbranch PR DATE FILE...: a branch from the base changing each FILE.
pbranch() {
	local pr=$1 date=$2 f
	shift 2
	git -C repo checkout -q -b "pr$pr" main &&
	for f in "$@"; do
		echo "change of PR $pr" >>"repo/$f" || return 1
	done &&
	(cd repo && commit_at "$date" "pr $pr") &&
	git -C repo rev-parse HEAD >"heads.$pr" &&
	git -C repo checkout -q main
}

phistory() {
	local app="tests/test_app.py" csv="tests/exports/test_csv.py"
	local fx="tests/test_fixture.py" sel_app
	git init -q repo &&
	mkdir -p repo/config repo/src repo/docs repo/tests/fixtures repo/tests/exports &&
	echo '[exporters]' >repo/config/registry.toml &&
	echo '[other]' >repo/config/other.toml &&
	echo '{}' >repo/tests/fixtures/a.json &&
	echo '{}' >repo/tests/fixtures/b.json &&
	echo 'registry = {}' >repo/src/app.py &&
	echo '# readme' >repo/docs/readme.md &&
	printf 'from app import registry\n\ndef test_width():\n    assert registry\n' >"repo/$csv" &&
	printf 'def test_load():\n    open("tests/fixtures/a.json")\n' >"repo/$fx" &&
	printf 'def test_app(): pass\n' >"repo/$app" &&
	(cd repo && commit_at 2026-10-20T00:00:00Z base) &&
	git -C repo rev-parse HEAD >heads.base &&
	pbranch 10 2026-10-25T07:00:00Z config/other.toml &&
	pbranch 11 2026-10-26T07:00:00Z config/registry.toml &&
	pbranch 1 2026-11-01T07:00:00Z config/registry.toml src/app.py docs/readme.md &&
	pbranch 2 2026-11-02T07:00:00Z config/registry.toml &&
	pbranch 3 2026-11-03T07:00:00Z tests/fixtures/a.json &&
	pbranch 4 2026-11-03T09:00:00Z src/app.py &&
	pbranch 5 2026-11-04T07:00:00Z config/other.toml &&
	pbranch 6 2026-11-04T09:00:00Z config/other.toml docs/readme.md &&
	pbranch 7 2026-11-05T07:00:00Z tests/fixtures/b.json &&
	pbranch 8 2026-11-05T09:00:00Z config/registry.toml &&
	pbranch 9 2026-11-06T07:00:00Z src/app.py &&
	mkdir -p repo/.tiadash && echo 'ignore docs/**' >repo/.tiadash/rules &&
	sel_app=$(sel selected 1 4 "$app") &&
	mrun runs/10s 10 shadow 1 2026-10-25T08:00:00Z 60 pass "$sel_app" "$app::test_app" &&
	mrun runs/10f 10 full 1 2026-10-25T08:05:00Z 600 pass - "$app::test_app" "$csv::test_width" &&
	mrun runs/11s 11 shadow 1 2026-10-26T08:00:00Z 50 pass "$sel_app" "$app::test_app" &&
	mrun runs/11f 11 full 1 2026-10-26T08:05:00Z 620 fail - "$app::test_app" "$csv::test_width:failed" &&
	mrun runs/1s 1 shadow 1 2026-11-01T08:00:00Z 60 pass "$sel_app" "$app::test_app" &&
	mrun runs/1f 1 full 1 2026-11-01T08:05:00Z 600 fail - "$app::test_app" "$csv::test_width:failed" &&
	mrun runs/2s 2 shadow 1 2026-11-02T08:00:00Z 50 pass "$sel_app" "$app::test_app" &&
	mrun runs/2f 2 full 1 2026-11-02T08:05:00Z 630 fail - "$app::test_app" "$csv::test_width:failed" &&
	mrun runs/3s 3 shadow 1 2026-11-03T08:00:00Z 20 pass '{"decision": "nothing", "total_tests": 4}' &&
	mrun runs/3f 3 full 1 2026-11-03T08:05:00Z 610 fail - "$app::test_app" "$fx::test_load:failed" &&
	mrun runs/4s 4 shadow 1 2026-11-03T10:00:00Z 40 pass "$sel_app" "$app::test_app" &&
	mrun runs/4f 4 full 1 2026-11-03T10:05:00Z 615 fail - "$app::test_app:failed" &&
	mrun runs/5s 5 shadow 1 2026-11-04T08:00:00Z 70 pass "$sel_app" "$app::test_app" &&
	mrun runs/5f 5 full 1 2026-11-04T08:05:00Z 640 pass - "$app::test_app" &&
	mrun runs/6s 6 shadow 1 2026-11-04T10:00:00Z 80 pass "$sel_app" "$app::test_app" &&
	mrun runs/6f 6 full 1 2026-11-04T10:05:00Z - pass - "$app::test_app" &&
	mrun runs/7s 7 shadow 1 2026-11-05T08:00:00Z 30 pass "$sel_app" "$app::test_app" &&
	mrun runs/7f 7 full 1 2026-11-05T08:05:00Z 600 pass - "$app::test_app" &&
	mrun runs/8s 8 shadow 1 2026-11-05T10:00:00Z 700 pass "$(ffsel UNMAPPED_FILE)" "$app::test_app" &&
	mrun runs/8f 8 full 1 2026-11-05T10:05:00Z 650 pass - "$app::test_app" &&
	mrun runs/9s 9 shadow 1 2026-11-06T08:00:00Z 55 pass "$sel_app" "$app::test_app" &&
	mrun runs/9f 9 full 1 2026-11-06T08:05:00Z 605 pass - "$app::test_app" &&
	tiadash --db s.db --repo repo ingest runs >ingest.out
}
