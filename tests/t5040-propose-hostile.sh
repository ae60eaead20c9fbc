#!/bin/bash
# Untrusted strings in propose's output: a changed path and a test name with
# control characters never reach the terminal raw, markdown stays inert,
# JSON stays valid; a path that cannot be a glob yields no candidate.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

esc=$(printf '\033')
bel=$(printf '\007')

test_expect_success 'setup: one escape with hostile names' '
	git init -q repo &&
	mkdir -p repo/cfg repo/tests &&
	echo x >repo/cfg/ok.toml &&
	echo "# loads cfg/ok.toml and red" >repo/tests/t.py &&
	(cd repo && commit_at 2026-10-30T00:00:00Z base) &&
	git -C repo rev-parse HEAD >heads.base &&
	git -C repo checkout -q -b pr1 &&
	echo y >"repo/cfg/${esc}[31mred|*.toml" &&
	echo y >>repo/cfg/ok.toml &&
	(cd repo && commit_at 2026-11-02T00:00:00Z pr1) &&
	git -C repo rev-parse HEAD >heads.1 &&
	mrun r/1s 1 shadow 1 2026-11-02T08:00:00Z 60 pass "$(sel selected 1 9 tests/x.py)" tests/x.py::t &&
	tiadash --db s.db --repo repo ingest r >out &&
	# The failing test id carries BEL: by a failed list (XML cannot carry it).
	printf "tests/t.py::te\007st_[x]|y\n" >failed.txt &&
	tiadash --db s.db --repo repo ingest --kind full --head "$(head_of 1)" --base "$(head_of base)" \
		--pr 1 --repo-name acme/x --started-at 2026-11-02T08:05:00Z --wall-clock 600 \
		--verdict fail --failed failed.txt >out
'

test_expect_success 'text: no raw control characters' '
	tiadash --db s.db --repo repo propose --no-builtin-rules >out &&
	! grep -q "[$esc$bel]" out &&
	test_grep "cfg/\\\\x1b\\[31mred|\\*.toml" out &&
	test_grep "tests/t.py::te\\\\x07st_\\[x\\]|y" out
'

test_expect_success 'candidates come from the clean path only' '
	tiadash --db s.db --repo repo propose --no-builtin-rules --format json >p.json &&
	json_get p.json "sorted(p[\"glob\"] for p in d[\"proposals\"])" >actual &&
	echo "['"'"'**/*.toml'"'"', '"'"'**/ok.toml'"'"', '"'"'cfg/**'"'"', '"'"'cfg/**/*.toml'"'"', '"'"'cfg/ok.toml'"'"']" >expect &&
	test_cmp expect actual &&
	# The hostile path is still shown as changed, and unmatched.
	json_get p.json "len(d[\"evidence\"][0][\"unmatched\"])" >actual &&
	echo 2 >expect && test_cmp expect actual
'

test_expect_success 'md: table cells and names stay inert' '
	tiadash --db s.db --repo repo propose --no-builtin-rules --format md >p.md &&
	! grep -q "[$esc$bel]" p.md &&
	grep -qF -e '"'"'- missed: tests/t.py::te\\x07st\_\[x\]\|y; source'"'"' p.md &&
	grep -qF -e '"'"'- changed: cfg/\\x1b\[31mred\|\*.toml (no rule)'"'"' p.md
'

test_expect_success 'json keeps the names, valid' '
	json_get p.json "d[\"evidence\"][0][\"missed\"][0][\"test\"] == \"tests/t.py::te\\x07st_[x]|y\"" >actual &&
	echo True >expect && test_cmp expect actual
'

test_expect_success 'a glob in a preview is sanitized too' '
	tiadash --db s.db --repo repo propose --no-builtin-rules --preview "cfg/${esc}*" >out &&
	! grep -q "[$esc]" out &&
	test_grep "matches  1 changed paths, 1 changes" out
'

# Issue 19: a glob from a hostile path never reaches a rule file raw.
while IFS='|' read -r name bytes shown; do
	test_expect_success "accept refuses a glob with $name, once, in every format" '
		glob=$(printf "cfg/$bytes/**") &&
		printf "# ours\n" >hostile.rules && cp hostile.rules before &&
		echo "{\"globalDependencies\": []}" >turbo.json && cp turbo.json turbo.before &&
		for target in hostile.rules turbo.json; do
			test_expect_code 2 tiadash --db s.db --repo repo propose --rules $target \
				--accept "$glob" >out 2>err &&
			echo "tiadash: error: '"'"'cfg/$shown/**'"'"': a glob must not hold control characters, bidirectional formatting characters or invalid UTF-8" >expect &&
			test_cmp expect err && test_must_be_empty out || return 1
		done &&
		test_cmp before hostile.rules && test_cmp turbo.before turbo.json && ! test -e turbo.json.orig
	'
done <<\TABLE
ESC twice|\033x\033|\x1bx\x1b
a C1 control (CSI)|\302\233|\xc2\x9b
a right-to-left override (U+202E)|\342\200\256|\xe2\x80\xae
a left-to-right isolate (U+2066)|\342\201\246|\xe2\x81\xa6
invalid UTF-8 (0xFF)|\377|\xff
TABLE

test_done
