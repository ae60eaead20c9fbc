#!/usr/bin/env python3
"""Fill an initialised tiadash store with N PRs and their changed paths, for
the propose bench.

usage: gen_propose.py STORE N

The runs, selections, failures and notes are gen_report.py's (a week of
realistic pairs, about 5% escaping); each head then gets a diff of 1-8
changed paths drawn from a synthetic tree of about 12,000 files (40 top
directories, 12 subdirectories each, 25 files, seven extensions), mostly
inside one top directory as real changes are, with a few shared
configuration files touched now and then. Deterministic.
"""
import os
import random
import sqlite3
import subprocess
import sys

EXTS = ["py", "js", "ts", "json", "toml", "md", "yaml"]


def tree():
    paths = []
    for t in range(40):
        for s in range(12):
            for f in range(25):
                paths.append("pkg%02d/mod%02d/file%02d.%s" % (t, s, f, EXTS[(t + s + f) % 7]))
    return paths


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "gen_report.py"), path, str(n)],
                   check=True)
    rnd = random.Random(n * 7 + 1)
    files = tree()
    shared = ["config/registry.toml", "config/flags.json", "tests/fixtures/rates.json",
              "docs/index.md", "tools/lint.cfg"]
    db = sqlite3.connect(path)
    heads = db.execute("SELECT id, sha FROM head ORDER BY id").fetchall()
    diffs, dfiles = [], []
    for head_id, sha in heads:
        diffs.append((head_id, "0" * 40, sha, None, "ok"))
        top = rnd.randrange(40)
        chosen = set()
        for _ in range(rnd.randint(1, 8)):
            if rnd.random() < 0.8:
                sub, f = rnd.randrange(12), rnd.randrange(25)
                chosen.add("pkg%02d/mod%02d/file%02d.%s" % (top, sub, f, EXTS[(top + sub + f) % 7]))
            else:
                chosen.add(rnd.choice(files))
        if rnd.random() < 0.03:
            chosen.add(rnd.choice(shared))
        for pos, p in enumerate(sorted(chosen)):
            dfiles.append((head_id, pos, p, "modified", None, ""))
    with db:
        db.executemany("INSERT INTO diff (id, base, head, merge_base, state)"
                       " VALUES (?, ?, ?, ?, ?)", diffs)
        db.executemany("INSERT INTO diff_file VALUES (?, ?, ?, ?, ?, ?)", dfiles)
        db.execute("UPDATE run SET diff_id = head_id, git = 'ok'")
    db.execute("ANALYZE")
    db.close()


if __name__ == "__main__":
    main()
