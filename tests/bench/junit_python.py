#!/usr/bin/env python3
"""The anchor of the junit-vs-python goal (tests/bench/junit.sh): what a
short Python tool does with a JUnit report: xml.etree.ElementTree.iterparse
over it, and every test case (suite, name, outcome, time) inserted into an
SQLite table with the sqlite3 module, in one transaction (WAL, as tiadash).

usage: junit_python.py REPORT.xml DB
"""
import sqlite3
import sys
import xml.etree.ElementTree as ET


def outcome(case):
    for child in case:
        if child.tag in ("failure", "error", "skipped"):
            return child.tag
    return "passed"


def cases(path):
    for _, elem in ET.iterparse(path, events=("end",)):
        if elem.tag == "testcase":
            yield (elem.get("classname") or elem.get("file") or "", elem.get("name") or "",
                   outcome(elem), float(elem.get("time") or 0))
            elem.clear()
        elif elem.tag == "testsuite":
            elem.clear()


def main():
    report, path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS result (suite TEXT, name TEXT, outcome TEXT, time REAL)")
    with db:
        db.executemany("INSERT INTO result VALUES (?, ?, ?, ?)", cases(report))
    n = db.execute("SELECT count(*) FROM result").fetchone()[0]
    db.close()
    print(n)


if __name__ == "__main__":
    main()
