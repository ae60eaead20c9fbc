#!/usr/bin/env python3
"""Agreement of `tiadash diff` with git on real history (SPEC 3.4).

    python3 tests/bench/diff-agreement.py REPO N [--renames]

For the N newest first-parent commits C of REPO (a bare or non-bare clone,
e.g. one of Homebrew/brew or git/git), compares the added lines of
`tiadash diff C^1 C` with those of `git diff -U0 --no-renames C^1 C`
(with --renames: `tiadash diff` as ingest reads it, against git's default
rename detection, `git diff -U0 -M`). Prints the share of commits whose
added lines agree file for file, line for line, and the first that differ.
Not run by `make bench` (it needs a real history); the figure is quoted in
the man page's DIFF section."""
import json, os, re, subprocess, sys

HUNK = re.compile(rb"@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def git_side(repo, n, renames):
    """{commit: {path: sorted added lines}} from one `git log -p -U0` pass."""
    cmd = ["git", "-C", repo, "-c", "core.quotepath=off", "-c", "diff.noprefix=false",
           "log", "--first-parent", "--diff-merges=first-parent", "-p", "-U0",
           "--no-color", "--no-ext-diff", "--format=C %H", "-n", str(n)]
    cmd.append("-M" if renames else "--no-renames")
    out, cur, path, old, header = {}, None, None, None, False
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    for raw in proc.stdout:
        raw = raw.rstrip(b"\n")
        if raw.startswith(b"C ") and len(raw) == 42:
            cur, header = raw[2:].decode(), False
            out[cur] = {}
        elif raw.startswith(b"diff --git "):
            header = True
        elif header and raw.startswith(b"--- "):
            old = raw[4:]
        elif header and raw.startswith(b"+++ "):
            p = raw[4:]
            p = old if p == b"/dev/null" else p
            path = (p[2:] if p[:2] in (b"a/", b"b/") else p).decode("utf-8", "replace")
        elif raw.startswith(b"@@ "):
            header = False
            m = HUNK.match(raw)
            first, count = int(m.group(1)), int(m.group(2) or 1)
            if count:
                out[cur].setdefault(path, []).extend(range(first, first + count))
    if proc.wait():
        sys.exit("git log failed")
    return out


def tiadash_side(tiadash, repo, commit, renames):
    cmd = [tiadash, "--repo", repo, "diff", "--format", "json", commit + "^1", commit]
    if not renames:
        cmd.insert(4, "--no-renames")
    d = json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)
    return {f["path"]: [n for a, b in f["added"] for n in range(a, b + 1)]
            for f in d["files"] if f["added"]}


def main():
    args = [a for a in sys.argv[1:] if a != "--renames"]
    renames = "--renames" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    repo, n = args[0], int(args[1])
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tiadash = os.environ.get("TIADASH_BIN", os.path.join(top, "tiadash"))
    want = git_side(repo, n, renames)
    bad, files = [], 0
    for commit, gfiles in want.items():
        got = tiadash_side(tiadash, repo, commit, renames)
        files += len(set(got) | set(gfiles))
        differ = sorted(p for p in set(got) | set(gfiles) if got.get(p) != gfiles.get(p))
        if differ:
            bad.append((commit, differ))
    agree = len(want) - len(bad)
    print("%s: %d of %d first-parent commits agree (%.2f%%), %d of %d changed files "
          "differ (git diff -U0 %s)" % (repo, agree, len(want), 100.0 * agree / len(want),
                                        sum(len(d) for _, d in bad), files,
                                        "-M" if renames else "--no-renames"))
    for commit, differ in bad[:10]:
        print("  %s %s" % (commit, " ".join(differ[:3])))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
