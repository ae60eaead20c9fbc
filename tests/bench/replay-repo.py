#!/usr/bin/env python3
"""Writes a git fast-import stream for the replay benchmark: a repository
with N first-parent commits (default 10000) over a realistic tree of a few
thousand files, deterministic for a given --seed.

Main is a mix of squash commits ("Title (#N)") and merges of one-commit PR
branches ("Merge pull request #N from user/branch"). Each change modifies
1-6 files, sometimes adds, deletes or renames one, and now and then touches
a lockfile, a manifest, CI or a migration (force-full triggers).

  python3 tests/bench/replay-repo.py --commits 10000 | git fast-import --quiet
"""
import argparse
import random
import sys

TOP = ["src", "lib", "services", "packages", "tests", "docs", "tools", "web"]
WORDS = ["core", "api", "util", "model", "store", "ledger", "billing", "auth",
         "report", "export", "import", "sync", "queue", "cache", "http",
         "render", "parse", "config", "user", "admin", "search", "index",
         "metrics", "audit", "mail", "jobs", "money", "tax", "invoice", "plan"]
EXTS = [".py", ".py", ".ts", ".ts", ".c", ".h", ".go", ".md", ".json", ".sql"]
TRIGGERS = ["package-lock.json", "web/package.json", "pyproject.toml",
            ".github/workflows/ci.yml", "db/migrations/0001_init.sql",
            "tests/conftest.py", "Makefile"]


def make_tree(rng, nfiles):
    dirs = []
    for top in TOP:
        dirs.append(top)
        for _ in range(rng.randint(6, 14)):
            d = top + "/" + rng.choice(WORDS)
            for _ in range(rng.randint(0, 3)):
                d += "/" + rng.choice(WORDS)
            dirs.append(d)
    files = set(TRIGGERS)
    while len(files) < nfiles:
        d = rng.choice(dirs)
        name = rng.choice(WORDS) + "_" + rng.choice(WORDS) + rng.choice(EXTS)
        if d.startswith("tests"):
            name = "test_" + name
        files.add(d + "/" + name)
    return dirs, sorted(files)


class Stream:
    def __init__(self, out):
        self.out = out
        self.mark = 0

    def write(self, s):
        self.out.write(s.encode())

    def data(self, payload):
        b = payload.encode()
        self.out.write(b"data %d\n" % len(b))
        self.out.write(b)
        self.out.write(b"\n")

    def blob(self, text):
        self.mark += 1
        self.write("blob\nmark :%d\n" % self.mark)
        self.data(text)
        return self.mark

    def commit(self, ref, when, msg, parent, merge, ops):
        self.mark += 1
        self.write("commit %s\nmark :%d\n" % (ref, self.mark))
        self.write("author Bench <b@example.com> %d +0000\n" % when)
        self.write("committer Bench <b@example.com> %d +0000\n" % when)
        self.data(msg)
        if parent:
            self.write("from :%d\n" % parent)
        if merge:
            self.write("merge :%d\n" % merge)
        for op in ops:
            self.write(op)
        self.write("\n")
        return self.mark


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=10000)
    ap.add_argument("--files", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    dirs, files = make_tree(rng, args.files)
    files = list(files)
    version = {f: 0 for f in files}
    out = Stream(sys.stdout.buffer)
    when = 1735689600  # 2025-01-01T00:00:00Z

    ops = []
    for f in files:
        ops.append("M 100644 :%d %s\n" % (out.blob("%s\nv0\n" % f), f))
    tip = out.commit("refs/heads/main", when, "Initial import\n", None, None, ops)

    for n in range(1, args.commits):
        when += rng.randint(60, 1200)
        pr = 1000 + n
        ops = []
        touched = set()
        for _ in range(rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6])):
            f = rng.choice(files)
            if f in touched:
                continue
            touched.add(f)
            version[f] += 1
            ops.append("M 100644 :%d %s\n" %
                       (out.blob("%s\nv%d %d\n" % (f, version[f], n)), f))
        r = rng.random()
        if r < 0.07:
            f = rng.choice(dirs) + "/new_%d%s" % (n, rng.choice(EXTS))
            files.append(f)
            version[f] = 0
            ops.append("M 100644 :%d %s\n" % (out.blob("%s\nnew\n" % f), f))
        elif r < 0.11 and len(files) > 100:
            f = files.pop(rng.randrange(len(files)))
            if f not in touched and f not in TRIGGERS:
                ops.append("D %s\n" % f)
            else:
                files.append(f)
        elif r < 0.15 and len(files) > 100:
            f = files.pop(rng.randrange(len(files)))
            if f not in touched and f not in TRIGGERS:
                g = rng.choice(dirs) + "/moved_%d_%s" % (n, f.rsplit("/", 1)[1])
                ops.append("D %s\n" % f)
                ops.append("M 100644 :%d %s\n" %
                           (out.blob("%s\nv%d\n" % (f, version[f])), g))
                files.append(g)
                version[g] = version.pop(f)
            else:
                files.append(f)
        if rng.random() < 0.03:
            f = rng.choice(TRIGGERS)
            if f not in touched:
                version[f] += 1
                ops.append("M 100644 :%d %s\n" %
                           (out.blob("%s\nv%d %d\n" % (f, version[f], n)), f))
        title = "%s: %s the %s" % (rng.choice(WORDS), rng.choice(
            ["fix", "add", "speed up", "clean up", "document"]), rng.choice(WORDS))
        if rng.random() < 0.4:
            side = out.commit("refs/heads/pr", when - 30, title + "\n", tip,
                              None, ops)
            tip = out.commit("refs/heads/main", when,
                             "Merge pull request #%d from dev/%s\n\n%s\n" %
                             (pr, rng.choice(WORDS), title), tip, side, ops)
        else:
            tip = out.commit("refs/heads/main", when,
                             "%s (#%d)\n" % (title, pr), tip, None, ops)
    out.write("reset refs/heads/pr\nfrom 0000000000000000000000000000000000000000\n\n")
    out.write("done\n")


if __name__ == "__main__":
    main()
