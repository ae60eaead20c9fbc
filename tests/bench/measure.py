#!/usr/bin/env python3
"""Time commands side by side: run each shell command in turn, RUNS rounds
(A, B, A, B, ...; the first round warms the caches and is not counted), and
print one line per command: the median wall-clock seconds and the median
peak RSS in MB of its own process tree (os.wait4's rusage of that child).

usage: measure.py RUNS 'CMD A' ['CMD B' ...]

A command that exits non-zero stops the measurement (exit 1), naming it.
"""
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    t = time.monotonic()
    p = subprocess.Popen(["/bin/sh", "-c", cmd], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    t = time.monotonic() - t
    code = os.waitstatus_to_exitcode(status)
    if code:
        sys.exit("measure.py: exit %d from: %s" % (code, cmd))
    return t, usage.ru_maxrss / 1024


def main():
    runs, cmds = int(sys.argv[1]), sys.argv[2:]
    times = [[] for _ in cmds]
    rss = [[] for _ in cmds]
    for c in cmds:
        run(c)
    for _ in range(runs):
        for i, c in enumerate(cmds):
            t, r = run(c)
            times[i].append(t)
            rss[i].append(r)
    for i in range(len(cmds)):
        print("%.4f %.1f" % (statistics.median(times[i]), statistics.median(rss[i])))


if __name__ == "__main__":
    main()
