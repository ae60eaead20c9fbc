#!/bin/bash
# tiadash diff BASE HEAD: the three-dot change as ingest reads it, its
# added lines equal to `git diff -U0` line for line, on changes built to
# align two ways (sliders): one that git's indent heuristic places, one
# that git's dropping of the common tail before an -U0 diff places, plus
# binaries, renames, deletions, type and mode changes, a submodule, CRLF,
# files without a final newline. tests/bench/diff-agreement.py measures
# the same on real history.
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a base, a head with every kind of change, main moved on' '
	git init -q repo && cd repo &&
	printf "    pass\ndef f():\nif (a) {\n# c\nreturn x;\n  }\n  end\ndef f():\n}\n  }\n}\n" >slider.txt &&
	python3 -c "open(\"periodic.py\", \"w\").write(\"x\\n\" + \"\\ndef f():\\n    return 1\\n\" * 60)" &&
	printf "a\r\nb\r\n" >crlf.txt && printf "no newline" >nonl.txt &&
	printf "\000\001" >bin.dat && echo bye >gone.txt && seq 1 40 >old.txt &&
	echo "#!/bin/sh" >mode.sh && echo target >link && echo data >target &&
	commit_at 2026-10-30T10:00:00Z base && git rev-parse HEAD >../base &&
	git checkout -q -b topic &&
	printf "    pass\ndef f():\nif (a) {\n# c\nreturn x;\n  }\n  }\n  end\ndef f():\n}\n  }\n}\n" >slider.txt &&
	python3 -c "open(\"periodic.py\", \"w\").write(\"x\\n\" + \"\\ndef f():\\n    return 1\\n\" * 61)" &&
	printf "a\r\nB\r\nc\r\n" >crlf.txt && printf "no newline, still" >nonl.txt &&
	printf "\000\002" >bin.dat && git rm -q gone.txt && git mv old.txt new.txt &&
	seq 1 41 >new.txt && chmod +x mode.sh && rm link && ln -s target link &&
	git init -q sub && (cd sub && echo s >s && commit_at 2026-10-31T09:00:00Z sub) &&
	echo fresh >added.txt && commit_at 2026-10-31T10:00:00Z topic 2>/dev/null &&
	git rev-parse HEAD >../head &&
	git checkout -q main && echo later >later.txt && commit_at 2026-11-01T10:00:00Z later &&
	git rev-parse HEAD >../main && cd ..
'

# git's added lines, file by file ("path<TAB>lines"), from `git diff -U0 ARGS`.
git_added() {
	git -C repo -c core.quotepath=off diff --no-color --no-ext-diff -U0 "$@" |
	python3 -c '
import re, sys
out, path, old, header = {}, None, None, False
for l in sys.stdin.read().split("\n"):
    if l.startswith("diff --git "):
        header = True
    elif header and l.startswith("--- "):
        old = l[4:]
    elif header and l.startswith("+++ "):
        p = l[4:] if l[4:] != "/dev/null" else old
        path = p[2:]
    elif l.startswith("@@ "):
        header = False
        m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", l)
        first, n = int(m.group(1)), int(m.group(2) or 1)
        out.setdefault(path, []).extend(range(first, first + n))
for p in sorted(out):
    if out[p]:
        print("%s\t%s" % (p, ",".join(map(str, out[p]))))
'
}

# The same from tiadash diff --format json ARGS.
tiadash_added() {
	tiadash --repo repo diff --format json "$@" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in sorted(d["files"], key=lambda f: f["path"]):
    lines = [n for a, b in f["added"] for n in range(a, b + 1)]
    if lines:
        print("%s\t%s" % (f["path"], ",".join(map(str, lines))))
'
}

test_expect_success 'added lines equal git diff -U0 --no-renames, file by file' '
	git_added --no-renames "$(cat base)...$(cat head)" >expect &&
	tiadash_added --no-renames "$(cat base)" "$(cat head)" >actual &&
	test_cmp expect actual &&
	test "$(wc -l <actual)" -ge 8
'

test_expect_success 'the two sliders land where git puts them' '
	# the indent heuristic: the second "  }" is line 6, not 7 (plain Myers)
	test_grep "^slider.txt	6$" actual &&
	# the common tail dropped before diffing: lines 50-52, not 182-184 at the end
	test_grep "^periodic.py	50,51,52$" actual
'

test_expect_success 'with renames (as ingest reads a change) they equal git diff -U0 -M' '
	git_added -M "$(cat base)...$(cat head)" >expect &&
	tiadash_added "$(cat base)" "$(cat head)" >actual &&
	test_cmp expect actual &&
	test_grep "^new.txt	41$" actual
'

test_expect_success 'the change is three-dot: what main did since is not in it, and json says so' '
	tiadash --repo repo diff --format json main topic >d.json &&
	python3 - d.json "$(cat base)" "$(cat head)" "$(cat main)" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert (d["merge_base"], d["head"], d["base"]) == tuple(sys.argv[2:5]), d
	files = {f["path"]: f for f in d["files"]}
	assert "later.txt" not in files, files
	status = {p: files[p]["status"] for p in ("bin.dat", "gone.txt", "link", "new.txt", "sub")}
	assert status == {"bin.dat": "modified", "gone.txt": "deleted", "link": "typechange",
	                  "new.txt": "renamed", "sub": "added"}, status
	assert files["new.txt"]["old_path"] == "old.txt"
	assert files["sub"]["added"] == [[1, 1]] and files["bin.dat"]["added"] == []
	PY
'

test_expect_success 'text: one line a file, the added lines as ranges' '
	tiadash --repo repo diff main topic >out &&
	test_grep "^$(cut -c1-12 main)...$(cut -c1-12 head) (merge base $(cut -c1-12 base)): [0-9]* files, [0-9]* added lines$" out &&
	test_grep "^M  periodic.py  +50-52$" out &&
	test_grep "^R  new.txt (from old.txt)  +41$" out &&
	test_grep "^D  gone.txt$" out &&
	test_grep "^M  bin.dat$" out
'

test_expect_success 'unknown revisions and usage errors exit 2' '
	test_expect_code 2 tiadash --repo repo diff main nosuchref 2>err &&
	test_grep "unknown revision .nosuchref." err &&
	test_expect_code 2 tiadash --repo repo diff main 2>err &&
	test_grep "give BASE and HEAD" err &&
	test_expect_code 2 tiadash --repo repo diff --format csv main topic 2>err
'

# libgit2 built with mbedTLS parses the system's CA bundle when it starts;
# tiadash never fetches through libgit2, so it skips that (core/repo.c).
if [ -f /etc/ssl/certs/ca-certificates.crt ] && command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace: off for an ASan build.)
	test_expect_success 'opening the repository reads no CA bundle' '
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -e trace=open,openat -o trace \
			"$TIADASH_BIN" --repo repo diff main topic >out &&
		test_grep "^M  bin.dat$" out &&
		test_grep "repo/.git/config" trace &&
		! grep -n "/etc/ssl\|ca-certificates" trace
	'
fi

test_done
