#!/usr/bin/env python3
"""A small shadow week for the HTTP tests: a git repository and its CI
artifacts (manifests, JUnit, selection lists, lcov, quarantine lists) with
an index.json that lists every manifest by relative path.

  DIR/repo                       one commit per PR on a linear history
  DIR/artifacts/index.json       tiadash.index.v1
  DIR/artifacts/runs/prN/        shadow.tiadash.json, full.tiadash.json,
                                 their reports; quarantine.txt shared by both

Every run is fixed by its PR number, so two calls make the same bytes.
A report name with a space checks that a reference is a path, not a URL.

usage: make-week.py DIR [PRS]
"""
import json
import os
import subprocess
import sys

BASE_TIME = 1793174400  # 2026-10-28T08:00:00Z


def git(repo, *args, when=None):
    env = dict(os.environ)
    if when is not None:
        stamp = "%d +0000" % when
        env.update(GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
    env.update(GIT_AUTHOR_NAME="Tester", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="Tester", GIT_COMMITTER_EMAIL="t@example.com")
    return subprocess.run(["git", "-C", repo, *args], check=True, env=env,
                          capture_output=True, text=True).stdout.strip()


def rfc3339(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def junit(path, cases):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>",
             '<testsuite name="unit">']
    for suite, name, outcome in cases:
        body = {"failed": '<failure message="boom">trace</failure>',
                "error": '<error message="broke"/>',
                "skipped": "<skipped/>",
                "flaky": '<flakyFailure message="once"/>'}.get(outcome, "")
        lines.append('<testcase file="%s" classname="%s" name="%s">%s</testcase>'
                     % (suite, suite.replace("/", "."), name, body))
    lines += ["</testsuite>", "</testsuites>", ""]
    write(path, "\n".join(lines))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    prs = int(sys.argv[2]) if len(sys.argv) == 3 else 6
    repo = os.path.join(out, "repo")
    art = os.path.join(out, "artifacts")
    os.makedirs(repo, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    write(os.path.join(repo, "src/money.c"), "".join("line %d\n" % i for i in range(20)))
    for t in ("money", "tax", "report"):
        write(os.path.join(repo, "tests/test_%s.py" % t), "def test_adds(): pass\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init", when=BASE_TIME - 3600)
    base = git(repo, "rev-parse", "HEAD")
    suites = ["tests/test_money.py", "tests/test_tax.py", "tests/test_report.py"]
    index = []
    for k in range(prs):
        pr = 101 + k
        t = BASE_TIME + k * 3600
        path = os.path.join(repo, "src/money.c")
        with open(path, "a") as f:
            f.write("added by pr %d\nand another line\n" % pr)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "change (#%d)" % pr, when=t)
        head = git(repo, "rev-parse", "HEAD")
        d = os.path.join(art, "runs", "pr%d" % pr)
        cases = [(s, "test_%d" % i, "") for s in suites for i in range(4)]
        full_cases = list(cases)
        if k % 3 == 1:  # an escape: the full run fails a test the shadow did not run
            full_cases[5] = (suites[1], "test_1", "failed")
        if k % 4 == 2:  # a flaky test in the full run
            full_cases[2] = (suites[0], "test_2", "flaky")
        shadow_cases = cases[:4] + [(suites[2], "test_0", "skipped")]
        junit(os.path.join(d, "shadow junit.xml"), shadow_cases)
        junit(os.path.join(d, "full/junit.xml"), full_cases)
        write(os.path.join(d, "selected.txt"), "# selected\n%s\n" % suites[0])
        write(os.path.join(d, "quarantine.txt"), "%s::test_3\n" % suites[2])
        n0 = 21 + 2 * k
        write(os.path.join(d, "cov.info"),
              "SF:/home/runner/work/x/x/src/money.c\nDA:%d,1\nDA:%d,%d\nend_of_record\n"
              % (n0, n0 + 1, k % 2))
        shadow = {"schema": "tiadash.run.v1", "repo": "acme/ledger", "pr": pr,
                  "base": base, "head": head, "kind": "shadow", "attempt": 1,
                  "started_at": rfc3339(t + 60), "wall_clock_s": 60.0 + k,
                  "verdict": "pass",
                  "selection": ({"decision": "run_all",
                                 "reasons": ["force-full:**/package-lock.json"],
                                 "total_tests": 12}
                                if k % 5 == 3 else
                                {"decision": "selected", "reasons": [],
                                 "total_tests": 12, "selected_file": "selected.txt"}),
                  "results": ["shadow junit.xml"], "coverage": ["cov.info"],
                  "quarantine": "quarantine.txt"}
        full = {"schema": "tiadash.run.v1", "repo": "acme/ledger", "pr": pr,
                "base": base, "head": head, "kind": "full", "attempt": 1,
                "started_at": rfc3339(t + 120), "wall_clock_s": 300.0 + k,
                "verdict": "fail" if k % 3 == 1 else "pass",
                "results": ["full/junit.xml"], "quarantine": "quarantine.txt"}
        write(os.path.join(d, "shadow.tiadash.json"), json.dumps(shadow, indent=1) + "\n")
        write(os.path.join(d, "full.tiadash.json"), json.dumps(full, indent=1) + "\n")
        index += ["runs/pr%d/full.tiadash.json" % pr, "runs/pr%d/shadow.tiadash.json" % pr]
        base = head
    write(os.path.join(art, "index.json"),
          json.dumps({"schema": "tiadash.index.v1", "runs": index}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
