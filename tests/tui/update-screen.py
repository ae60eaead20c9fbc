#!/usr/bin/env python3
"""update-screen.py DIR: write the screens the dashboard now draws into their
tests, in place of the expected ones, from the queue a run with
UPDATE_SCREENS=DIR left (NNNNN.TEST.expect and .actual), for a change that
moves the screens on purpose; read the diff before committing it.

The first heredoc body in TEST whose lines equal EXPECT's (each indented by
tabs, as <<- strips them; an apostrophe written '"'"' inside the test's
single quotes) becomes ACTUAL's lines, indented and quoted as it was."""
import os
import re
import sys

QUOTE = "'\"'\"'"
QUOTES = (QUOTE, "'\\''")  # how tests write an apostrophe inside single quotes


def line_re(line):
    either = "(?:'|" + "|".join(re.escape(q) for q in QUOTES) + ")"
    return r"\t*" + either.join(re.escape(p) for p in line.split("'")) + r"\n"


def update(test, expect, actual):
    src = open(test, encoding="utf-8").read()
    exp = open(expect, encoding="utf-8").read().split("\n")[:-1]
    act = open(actual, encoding="utf-8").read().split("\n")[:-1]
    pattern = "".join(line_re(line) for line in exp)
    m = re.search(r"(?m)^" + pattern + r"(?=\t*EOF\n)", src)
    if not m:
        sys.exit("update-screen: no heredoc in %s holds %s" % (test, expect))
    block = src[m.start():m.end()]
    indent = re.match(r"\t*", block).group(0) or "\t"
    quote = next((q for q in QUOTES if q in block), QUOTE if "'" not in block else "'")
    body = "".join(indent + line.replace("'", quote) + "\n" for line in act)
    open(test, "w", encoding="utf-8").write(src[:m.start()] + body + src[m.end():])


tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
queue = sys.argv[1]
for name in sorted(f for f in os.listdir(queue) if f.endswith(".expect")):
    stem = name[:-len(".expect")]
    test = stem.split(".", 1)[1] + ".sh"
    update(os.path.join(tests, test), os.path.join(queue, name), os.path.join(queue, stem + ".actual"))
