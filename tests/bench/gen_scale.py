#!/usr/bin/env python3
"""Fill an initialised tiadash store at the scale target of SPEC 9 with what
the blind spots read, to measure its size and the report's time on it.

usage: gen_scale.py STORE PRS TESTS

PRS pairs over a week; TESTS tests in files of 20 cases (tests/pNNN/
test_mMMM.py); a fifth of the PRs add a case to one file (so the files'
case sets change as the week goes); every full run ran every test; each
narrowed selection (two thirds of the shadow runs) names 30% of the test
files. Rows follow core/store.c's schema 5, blobs its encodings.
Deterministic.
"""
import hashlib
import os
import random
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_report import front_coded, varint  # noqa: E402  (the store's encodings, once)

DAY_MS = 86400000
START_MS = 1793491200000  # 2026-11-01T00:00:00Z


def deltas(ids):
    out, prev = bytearray(), 0
    for i in sorted(ids):
        out += varint(i - prev)
        prev = i
    return bytes(out)


def main():
    path, prs, tests = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(prs)
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous = OFF")
    files = ["tests/p%03d/test_m%04d.py" % (i // 50, i) for i in range(tests // 20)]
    cases = {f: ["test_case_%02d" % k for k in range(20)] for f in files}
    names, groups, current = {}, [], {}

    def name_id(text):
        if text not in names:
            names[text] = len(names) + 1
        return names[text]

    def group_of(f, at):
        blob = front_coded(cases[f])
        key = (f, hashlib.md5(blob).hexdigest())
        if key not in current:
            current[key] = len(groups) + 1
            groups.append((current[key], "acme/big", name_id(f), key[1], at, blob))
        return current[key]

    live = {f: group_of(f, START_MS) for f in files}
    with db:
        for i in range(1, prs + 1):
            at = START_MS + (i - 1) * 7 * DAY_MS // prs
            sha = hashlib.sha1(b"scale %d" % i).hexdigest()
            db.execute("INSERT INTO head VALUES (?, ?, ?, ?, ?)", (i, "acme/big", sha, i, at))
            for kind, rid in (("shadow", 2 * i - 1), ("full", 2 * i)):
                db.execute("INSERT INTO source VALUES (?, ?, ?, ?)", (rid, "scale:%d" % rid, "%032x" % rid, at))
                db.execute("INSERT INTO run (id, source_id, head_id, kind, attempt, pr, started_at,"
                           " wall_clock_s, verdict, git, tests) VALUES (?, ?, ?, ?, 1, ?, ?, ?, 'pass',"
                           " 'none', ?)", (rid, rid, i, kind, i, at, 60.0 if kind == "shadow" else 900.0,
                                           tests))
            narrowed = rnd.random() < 2 / 3
            chosen = rnd.sample(files, len(files) * 3 // 10) if narrowed else []
            db.execute("INSERT INTO selection (run_id, decision, total_tests, selected_count,"
                       " format, entries) VALUES (?, ?, ?, ?, 'list', ?)",
                       (2 * i - 1, "selected" if narrowed else "run_all", tests,
                        len(chosen) * 20 if narrowed else tests, front_coded(chosen)))
            if rnd.random() < 0.2:
                f = rnd.choice(files)
                cases[f].append("test_new_%d" % i)
                live[f] = group_of(f, at)
            db.execute("INSERT INTO run_tests VALUES (?, ?)", (2 * i, deltas(live.values())))
        db.executemany("INSERT INTO name (id, text) VALUES (?, ?)", [(v, k) for k, v in names.items()])
        db.executemany("INSERT INTO test_group (id, repo, suite_id, digest, first_at, cases)"
                       " VALUES (?, ?, ?, ?, ?, ?)", groups)
    db.execute("ANALYZE")
    db.close()


if __name__ == "__main__":
    main()
