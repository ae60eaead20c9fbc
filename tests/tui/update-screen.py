#!/usr/bin/env python3
"""update-screen.py TEST EXPECT ACTUAL: write a screen the dashboard now draws
into its test, in place of the expected one (UPDATE_SCREENS=1, for a change
that moves the screens on purpose; read the diff before committing it).

The first heredoc body in TEST whose lines equal EXPECT's (each indented by
tabs, as <<- strips them) becomes ACTUAL's lines, indented as it was."""
import re
import sys

test, expect, actual = sys.argv[1:4]
src = open(test, encoding="utf-8").read()
exp = open(expect, encoding="utf-8").read().split("\n")[:-1]
act = open(actual, encoding="utf-8").read().split("\n")[:-1]
pattern = "".join(r"\t*" + re.escape(line) + r"\n" for line in exp)
m = re.search(r"(?m)^" + pattern + r"(?=\t*EOF\n)", src)
if not m:
    sys.exit("update-screen: no heredoc in %s holds %s" % (test, expect))
indent = re.match(r"\t*", src[m.start():]).group(0) or "\t"
body = "".join((indent + line if line else "") + "\n" for line in act)
open(test, "w", encoding="utf-8").write(src[:m.start()] + body + src[m.end():])
