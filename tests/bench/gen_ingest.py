#!/usr/bin/env python3
"""Artifacts for the ingest bench: RUNS shadow runs, each selecting ROWS/RUNS
tests (by id, from a pool of 10^5) with the JUnit report of those tests, and
the same (run, id) rows as a TSV for the anchor. Deterministic."""
import json, os, random, sys

out, rows, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
per = rows // runs
rng = random.Random(7)
pool = ["tests/pkg%03d/test_mod%03d.py::test_case_%04d" % (i % 500, i % 997, i)
        for i in range(100000)]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "rows.tsv"), "w") as tsv:
    for r in range(runs):
        d = os.path.join(out, "runs", "r%05d" % r)
        os.makedirs(d, exist_ok=True)
        ids = rng.sample(pool, per)
        with open(os.path.join(d, "test-only.txt"), "w") as f:
            f.write("\n".join(ids) + "\n")
        with open(os.path.join(d, "junit.xml"), "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="pytest">\n')
            for i, t in enumerate(ids):
                suite, case = t.split("::")
                fail = '<failure message="x"/>' if i % 500 == 0 else ''
                f.write('<testcase classname="%s" file="%s" name="%s" time="0.01">%s</testcase>\n'
                        % (suite[:-3].replace('/', '.'), suite, case, fail))
            f.write('</testsuite></testsuites>\n')
        head = "%040x" % (r + 1)
        man = {"schema": "tiadash.run.v1", "repo": "bench/x", "pr": r + 1,
               "base": "%040x" % 0xbeef, "head": head, "kind": "shadow", "attempt": 1,
               "started_at": "2026-11-0%dT%02d:%02d:00Z" % (1 + r % 7, r % 24, r % 60),
               "wall_clock_s": 100 + r % 50, "verdict": "pass",
               "selection": {"decision": "selected", "reasons": [], "total_tests": 100000,
                             "selected_file": "test-only.txt"},
               "results": ["junit.xml"]}
        with open(os.path.join(d, "tiadash-run.json"), "w") as f:
            json.dump(man, f)
        for t in ids:
            tsv.write("%d\t%s\n" % (r + 1, t))
