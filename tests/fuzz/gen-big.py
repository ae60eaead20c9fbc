#!/usr/bin/env python3
"""Oversized inputs for the bounded-resources tests (tests/t7030-resources.sh)
and their benchmark (tests/bench/resources.sh), written on the fly:

  gen-big.py junit MB [COUNTS]         a JUnit report of about MB megabytes on stdout
                                       (unique tests, one failing in 10000); then
                                       "TESTS FAILURES" into the file COUNTS
  gen-big.py deep-xml N                a <testsuite> with elements nested N deep
  gen-big.py deep-json N               a run manifest with arrays nested N deep
  gen-big.py selection N               N selection entries, one a line
  gen-big.py results N DIR BASE HEAD   N small JUnit files in DIR and a manifest
                                       naming them all (DIR/tiadash-run.json)
  gen-big.py commit N REPO             a commit on REPO's main adding N files
                                       (git fast-import), printed as BASE HEAD
"""
import os
import subprocess
import sys


def junit(mb, counts=None):
    out = sys.stdout.buffer
    out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
    target, written, n, suite = mb * 1024 * 1024, 0, 0, 0
    while written < target:
        parts = ['<testsuite name="s%d" tests="5000">\n' % suite]
        for _ in range(5000):
            if n % 10000 == 9999:
                parts.append('<testcase classname="tests/s%d.py" name="test_%d" time="0.001">'
                             '<failure message="boom">trace</failure></testcase>\n' % (suite, n))
            else:
                parts.append('<testcase classname="tests/s%d.py" name="test_%d" time="0.001"/>\n'
                             % (suite, n))
            n += 1
        parts.append('</testsuite>\n')
        chunk = ''.join(parts).encode()
        out.write(chunk)
        written += len(chunk)
        suite += 1
    out.write(b'</testsuites>\n')
    out.flush()
    if counts:
        with open(counts, 'w') as f:
            f.write('%d %d\n' % (n, n // 10000))


def deep_xml(n):
    out = sys.stdout.buffer
    out.write(b'<?xml version="1.0"?>\n<testsuite name="deep">')
    block = b'<a>' * 10000
    for _ in range(n // 10000):
        out.write(block)
    out.write(b'<a>' * (n % 10000))
    block = b'</a>' * 10000
    for _ in range(n // 10000):
        out.write(block)
    out.write(b'</a>' * (n % 10000))
    out.write(b'</testsuite>\n')


def deep_json(n):
    sys.stdout.write('{"schema": "tiadash.run.v1", "failed": ' + '[' * n + ']' * n + '}\n')


def selection(n):
    # 10^4 lines a write: a write a line is a system call a line when
    # stdout is unbuffered (PYTHONUNBUFFERED), and slow when it is not.
    out = sys.stdout
    for start in range(0, n, 10000):
        out.write(''.join('tests/pkg%03d/test_mod%04d.py::test_case_%07d\n' % (i % 997, i % 7919, i)
                          for i in range(start, min(n, start + 10000))))


def results(n, d, base, head):
    os.makedirs(d, exist_ok=True)
    names = []
    for i in range(min(n, 1000)):
        os.makedirs(os.path.join(d, 'r/%03d' % i), exist_ok=True)
    for i in range(n):
        name = 'r/%03d/junit-%06d.xml' % (i % 1000, i)
        with open(os.path.join(d, name), 'w') as f:
            f.write('<testsuite name="s"><testcase classname="tests/t%d.py" name="t"/>'
                    '</testsuite>\n' % i)
        names.append(name)
    with open(os.path.join(d, 'tiadash-run.json'), 'w') as f:
        f.write('{"schema": "tiadash.run.v1", "repo": "acme/big", "pr": 1, "base": "%s", '
                '"head": "%s", "kind": "full", "attempt": 1, "started_at": '
                '"2026-11-03T10:00:00Z", "verdict": "pass", "results": [%s]}\n'
                % (base, head, ', '.join('"%s"' % x for x in names)))


def commit(n, repo):
    """A base commit with one file, then a commit adding n files (one blob)."""
    fi = ['blob', 'mark :1', 'data 4', 'one', '',
          'blob', 'mark :2', 'data 8', 'x = 1', 'y', '']
    fi += ['commit refs/heads/main', 'mark :3',
           'committer T <t@example.com> 1793664000 +0000', 'data 4', 'base',
           'M 100644 :1 README', '']
    fi += ['commit refs/heads/main', 'mark :4',
           'committer T <t@example.com> 1793750400 +0000', 'data 10', 'huge (#1)',
           'from :3']
    for i in range(n):
        fi.append('M 100644 :2 src/d%03d/f%06d.py' % (i % 1000, i))
    fi.append('')
    subprocess.run(['git', '-C', repo, 'fast-import', '--quiet'],
                   input=('\n'.join(fi) + '\n').encode(), check=True)
    shas = subprocess.run(['git', '-C', repo, 'rev-parse', 'main^', 'main'],
                          capture_output=True, check=True).stdout.decode().split()
    print(' '.join(shas))


def main(argv):
    what = argv[1] if len(argv) > 1 else ''
    if what == 'junit':
        junit(int(argv[2]), argv[3] if len(argv) > 3 else None)
    elif what == 'deep-xml':
        deep_xml(int(argv[2]))
    elif what == 'deep-json':
        deep_json(int(argv[2]))
    elif what == 'selection':
        selection(int(argv[2]))
    elif what == 'results':
        results(int(argv[2]), argv[3], argv[4], argv[5])
    elif what == 'commit':
        commit(int(argv[2]), argv[3])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
