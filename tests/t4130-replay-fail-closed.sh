#!/usr/bin/env bash
# Replay fails closed: a commit whose diff cannot be trusted runs
# everything with the reason named - a shallow clone's cut-off commit, an
# unreadable parent, an unreadable tree, trees that differ in no path.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/data/rules/replay-lib.sh"

make_history repo || exit 2

test_expect_success 'a shallow clone: the cut-off commit runs everything' '
	git clone -q --depth 3 "file://$TRASH/repo" shallow &&
	tiadash replay --repo shallow --since 2026-11-01 --format json >s.json 2>err &&
	replay_rows s.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 run_all None None [shallow-history] []
	EOF
	test_cmp expect actual &&
	echo "tiadash: warning: history is shallow: commit $(git -C repo rev-parse HEAD~2) has no parent here, the walk ends there" >expect &&
	test_cmp expect err &&
	json_get s.json "d[\"totals\"][\"by_reason\"]" >actual &&
	echo "{'"'"'shallow-history'"'"': 1}" >expect &&
	test_cmp expect actual
'

test_expect_success 'a shallow merge: both of its parents are cut off' '
	git clone -q --depth 5 "file://$TRASH/repo" shallow5 &&
	tiadash replay --repo shallow5 --since 2026-11-01 --format json >s5.json 2>err &&
	replay_rows s5.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 rules-only 2 None [] []
	13 rules-only 1 None [] []
	12 run_all None None [shallow-history] []
	EOF
	test_cmp expect actual &&
	tiadash replay --repo shallow5 --since 2026-11-01 >s5.txt 2>/dev/null &&
	grep "#12" s5.txt | cut -c 12- >actual &&
	echo "#12    2026-11-01    ? run_all        -    0  shallow-history" >expect &&
	test_cmp expect actual
'

test_expect_success 'an unreadable parent commit ends the walk, closed' '
	cp -R repo broken &&
	obj=$(git -C broken rev-parse HEAD~3) &&
	rm "broken/.git/objects/$(echo "$obj" | cut -c 1-2)/$(echo "$obj" | cut -c 3-)" &&
	tiadash replay --repo broken --since 2026-11-01 --format json >b.json 2>err &&
	replay_rows b.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 run_all None None [unreadable-commit] []
	EOF
	test_cmp expect actual &&
	test_grep "^tiadash: warning: cannot read the first parent of $(git -C repo rev-parse HEAD~2) (" err
'

test_expect_success 'an unreadable tree fails the commits that need it' '
	cp -R repo notree &&
	obj=$(git -C notree rev-parse HEAD~5:src) &&
	rm "notree/.git/objects/$(echo "$obj" | cut -c 1-2)/$(echo "$obj" | cut -c 3-)" &&
	tiadash replay --repo notree --since 2026-11-01 --format json >t.json 2>err &&
	replay_rows t.json >actual &&
	cat >expect <<-\EOF &&
	None rules-only 1 None [] []
	15 nothing 0 0 [no-changes] []
	14 rules-only 2 None [] []
	13 rules-only 1 None [] []
	12 run_all None None [unreadable-tree] []
	11 run_all None None [unreadable-tree] []
	None rules-only 5 None [] []
	EOF
	test_cmp expect actual &&
	test_must_be_empty err
'

test_expect_success 'trees that differ in no path (a non-canonical mode) run everything' '
	(
		cd repo &&
		blob=$(git rev-parse HEAD:README.md) &&
		tree=$(python3 -c "import sys, subprocess
def entries(t):
    out = subprocess.run([\"git\", \"cat-file\", \"-p\", t], capture_output=True, text=True).stdout
    for line in out.splitlines():
        meta, name = line.split(\"\t\", 1)
        mode, kind, sha = meta.split()
        yield mode, name, sha
raw = b\"\"
for mode, name, sha in entries(\"HEAD^{tree}\"):
    if name == \"README.md\":
        mode = \"100664\"
    raw += mode.encode() + b\" \" + name.encode() + b\"\0\" + bytes.fromhex(sha)
sys.stdout.buffer.write(raw)" | git hash-object -w -t tree --literally --stdin) &&
		when="@$((1793491200 + 9 * 3600)) +0000" &&
		commit=$(GIT_COMMITTER_DATE="$when" GIT_AUTHOR_DATE="$when" \
			git commit-tree "$tree" -p HEAD -m "Mode only (#40)") &&
		git update-ref refs/heads/main "$commit" &&
		git log -1 --name-only --format= >../gitlog
	) &&
	test_must_be_empty gitlog &&
	tiadash replay --repo repo --since 2026-11-01T09:00:00Z --format json >e.json &&
	replay_rows e.json >actual &&
	echo "40 run_all 0 None [empty-diff] []" >expect &&
	test_cmp expect actual
'

test_done
