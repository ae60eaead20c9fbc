#!/usr/bin/env python3
"""Print the test server's request log, one request a line:

  GET /runs/a.json 200 bytes=512 auth=yes cond=etag,date

auth says whether an Authorization header came (its value is never
printed), cond which validators the request sent. --from N skips the
first N requests (so a test can look at one ingest's requests only).

usage: log.py LOG [--from N]
"""
import json
import sys


def main():
    args = sys.argv[1:]
    skip = 0
    if len(args) == 3 and args[1] == "--from":
        skip = int(args[2])
    elif len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        lines = f.readlines()[skip:]
    for line in lines:
        r = json.loads(line)
        h = r["headers"]
        cond = [name for key, name in (("if-none-match", "etag"),
                                       ("if-modified-since", "date")) if key in h]
        print("%s %s %d bytes=%d auth=%s cond=%s" % (
            r["method"], r["path"], r["status"], r["bytes"],
            "yes" if "authorization" in h else "no", ",".join(cond) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
