#!/usr/bin/env python3
"""Fill an initialised tiadash store with N realistic pairs for the report bench.

usage: gen_report.py STORE N [WEEKS]

Rows follow core/store.c's schema. The mix is what a shadow week of a large
repository looks like: about 30% force-full runs (one or two reasons each),
5% empty selections, the rest narrowed; about 5% of full runs fail (on one
to three tests, some selected, some not, some quarantined); reruns of flaky
full runs and of a few shadow runs; a few one-sided heads; coverage of the
changed lines for most shadow runs; a few explained escapes. Deterministic. The pairs are spread evenly over WEEKS
weeks (default 1) ending 2026-11-08T00:00:00Z: 52 is a year of a busy
monorepo's pull requests (the 10^6 store).
"""
import ctypes
import hashlib
import random
import sqlite3
import sys

REASONS = [
    "force-full:**/package-lock.json", "force-full:**/pnpm-lock.yaml",
    "force-full:pyproject.toml", "force-full:.github/workflows/**",
    "force-full:migrations/**", "force-full:**/conftest.py",
    "force-full:src/test-utils/**", "force-full:**/.env*",
    "force-full:**/*.proto", "UNMAPPED_FILE", "selector-error",
    "force-full:tsconfig*.json",
]
SUITES = ["tests/%s/test_%s.py" % (d, m)
          for d in ("billing", "exports", "ledger", "api", "tax", "fx")
          for m in ("core", "edge", "io", "csv", "money", "rates", "auth", "jobs")]
TOTAL_TESTS = 5000
DAY_MS = 86400000
START_MS = 1793491200000  # 2026-11-01T00:00:00Z


def varint(v):
    out = bytearray()
    while True:
        byte, v = v & 0x7F, v >> 7
        out.append(byte | (0x80 if v else 0))
        if not v:
            return bytes(out)


def front_coded(entries):
    """A selection's entries as core/store.c's store_strings_encode writes them."""
    out, prev = bytearray(), b""
    for cur in sorted(set(e.encode() for e in entries)):
        shared = 0
        while shared < min(len(cur), len(prev)) and cur[shared] == prev[shared]:
            shared += 1
        out += varint(shared) + varint(len(cur) - shared) + cur[shared:]
        prev = cur
    return bytes(out)


def keep_heap():
    """Freed memory stays at the heap's top (glibc's M_TRIM_THRESHOLD).

    SQLite allocates and frees at the heap's top for each row inserted
    and each trigger it fires (the store's pair_stale triggers), and with
    the default threshold glibc gave that back to the kernel and asked
    for it again every time: 149,156 brk calls and fresh zeroed pages for
    10^4 pairs, 19 s of CPU (11 of them the kernel's) where the rows take
    0.7. The store written is the same.
    """
    try:
        ctypes.CDLL(None).mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


def main():
    keep_heap()
    path, n = sys.argv[1], int(sys.argv[2])
    weeks = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    start = START_MS - (weeks - 1) * 7 * DAY_MS
    rnd = random.Random(n)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    names = {}

    def name_id(text):
        if text not in names:
            names[text] = len(names) + 1
        return names[text]

    # The selection's entries: front-coded in selection.entries (schema 3),
    # or one row each in selection_entry (older stores).
    sel_cols = [r[1] for r in db.execute("PRAGMA table_info(selection)")]
    coded = "entries" in sel_cols
    heads, runs, sources, sels, reasons, entries = [], [], [], [], [], []
    results, quarantine, notes = [], [], []
    run_id = 0
    # The tests full runs ran (schema 5): one group per suite, every full
    # run the same TOTAL_TESTS cases, so run_tests names every group.
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    groups, run_tests, all_groups = [], [], b""
    if "test_group" in tables:
        per = TOTAL_TESTS // len(SUITES)
        for gid, suite in enumerate(SUITES, 1):
            cases = front_coded("test_case_%d" % k for k in range(per))
            groups.append((gid, "acme/ledger", name_id(suite), hashlib.md5(cases).hexdigest(),
                           START_MS, cases))
        all_groups = varint(1) + b"".join(varint(1) for _ in SUITES[1:])

    def add_run(head_id, pr, kind, attempt, at, wall, verdict, tests,
                failures=0, flaky=0, cov=None):
        nonlocal run_id
        run_id += 1
        if kind == "full" and groups:
            run_tests.append((run_id, all_groups))
        sources.append((run_id, "bench:%d" % run_id, "%032x" % run_id, at))
        runs.append((run_id, run_id, head_id, kind, attempt, pr, "0" * 40, at,
                     wall, verdict, "none", None, tests, failures, 0, 0, flaky,
                     cov[0] if cov else None, cov[1] if cov else None))
        return run_id

    for i in range(1, n + 1):
        at = start + (i - 1) * weeks * 7 * DAY_MS // n
        sha = hashlib.sha1(b"head %d" % i).hexdigest()
        heads.append((i, "acme/ledger", sha, i, at))
        r = rnd.random()
        one_sided = r < 0.02
        # The shadow run and its selection.
        d = rnd.random()
        if d < 0.30:
            decision, selected = "run_all", TOTAL_TESTS
            wall = rnd.uniform(900, 1500)
        elif d < 0.35:
            decision, selected = "nothing", 0
            wall = rnd.uniform(20, 60)
        else:
            decision, selected = "selected", rnd.randint(10, TOTAL_TESTS // 3)
            wall = 40 + 1100 * selected / TOTAL_TESTS + rnd.uniform(0, 60)
        cov = None
        if rnd.random() < 0.8:
            lines = rnd.randint(0, 80)
            cov = (lines, rnd.randint(0, lines))
        full_fails = not one_sided and rnd.random() < 0.05
        shadow_fails = rnd.random() < 0.04
        attempts = 2 if rnd.random() < 0.03 else 1
        sid = 0
        for a in range(1, attempts + 1):
            last = a == attempts
            sid = add_run(i, i, "shadow", a, at + (a - 1) * 600000, wall,
                          "fail" if shadow_fails and last else "pass",
                          selected, cov=cov)
            chosen = rnd.sample(SUITES, 6) if decision == "selected" else []
            sels.append((sid, decision, TOTAL_TESTS, selected, "list")
                        + ((front_coded(chosen),) if coded else ()))
            if decision == "run_all":
                for pos, reason in enumerate(rnd.sample(REASONS, rnd.choice((1, 1, 1, 2)))):
                    reasons.append((sid, pos, reason))
            if not coded:
                entries.extend((sid, name_id(suite)) for suite in chosen)
        if one_sided:
            continue
        # The full run: a flaky first attempt, or real failures.
        fwall = rnd.uniform(900, 1500)
        if rnd.random() < 0.04:
            fid = add_run(i, i, "full", 1, at + 60000, fwall, "fail", TOTAL_TESTS, 1)
            results.append((fid, name_id(rnd.choice(SUITES)), name_id("test_flaky"), "failed"))
            add_run(i, i, "full", 2, at + 1800000, fwall, "pass", TOTAL_TESTS)
        elif full_fails:
            k = rnd.randint(1, 3)
            fid = add_run(i, i, "full", 1, at + 60000, fwall, "fail", TOTAL_TESTS, k)
            for j, suite in enumerate(rnd.sample(SUITES, k)):
                results.append((fid, name_id(suite), name_id("test_case_%d" % j), "failed"))
                if rnd.random() < 0.1:
                    quarantine.append((fid, name_id(suite + "::test_case_%d" % j)))
            if rnd.random() < 0.2:
                notes.append((i, "explained", "known environment issue", at))
        else:
            flaky = 1 if rnd.random() < 0.02 else 0
            fid = add_run(i, i, "full", 1, at + 60000, fwall, "pass", TOTAL_TESTS, 0, flaky)
            if flaky:
                results.append((fid, name_id(rnd.choice(SUITES)), name_id("test_retry"), "flaky"))

    with db:
        db.executemany("INSERT INTO name (id, text) VALUES (?, ?)",
                       [(v, k) for k, v in names.items()])
        db.executemany("INSERT INTO head VALUES (?, ?, ?, ?, ?)", heads)
        db.executemany("INSERT INTO source VALUES (?, ?, ?, ?)", sources)
        db.executemany("INSERT INTO run (id, source_id, head_id, kind, attempt, pr, base,"
                       " started_at, wall_clock_s, verdict, git, diff_id, tests, failures,"
                       " errors, skipped, flaky, cov_lines, cov_hit)"
                       " VALUES (" + ", ".join("?" * 19) + ")", runs)
        db.executemany("INSERT INTO selection (run_id, decision, total_tests, selected_count,"
                       " format%s) VALUES (?, ?, ?, ?, ?%s)"
                       % ((", entries", ", ?") if coded else ("", "")), sels)
        db.executemany("INSERT INTO selection_reason VALUES (?, ?, ?)", reasons)
        if entries:
            db.executemany("INSERT OR IGNORE INTO selection_entry VALUES (?, ?)", entries)
        db.executemany("INSERT OR IGNORE INTO result (run_id, suite_id, case_id, outcome)"
                       " VALUES (?, ?, ?, ?)", results)
        if groups:
            db.executemany("INSERT INTO test_group (id, repo, suite_id, digest, first_at, cases)"
                           " VALUES (?, ?, ?, ?, ?, ?)", groups)
            db.executemany("INSERT INTO run_tests VALUES (?, ?)", run_tests)
        db.executemany("INSERT OR IGNORE INTO quarantine (run_id, name_id) VALUES (?, ?)", quarantine)
        db.executemany("INSERT INTO note (head_id, kind, text, created_at)"
                       " VALUES (?, ?, ?, ?)", notes)
    db.execute("ANALYZE")
    db.close()


if __name__ == "__main__":
    main()
