#!/usr/bin/env python3
"""Print a test server's request log (tests/http/server.py's, or with --ci
tests/ciapi/server.py's), one request a line:

  GET /runs/a.json 200 bytes=512 auth=yes cond=etag,date
  api GET /repos/acme/ledger/actions/runs/1001/artifacts?per_page=100 200 auth=bearer gh=yes   (--ci)
  storage GET /blob/github-5001.zip?sig=c2lnbmVk&se=2026-11-08 200 auth=no gh=no               (--ci)

auth says which token header came (yes or bearer: Authorization, private:
PRIVATE-TOKEN, no: none; the value is never printed); cond which
validators the request sent; gh whether GitHub's Accept and
X-GitHub-Api-Version headers came; "early" marks a request made while the
CI server had said the rate limit was used up. --from N skips the first N
requests (so a test can look at one ingest's requests only).

usage: request-log.py [--ci] LOG [--from N]
"""
import json
import sys


def http_line(r, h):
    cond = [name for key, name in (("if-none-match", "etag"),
                                   ("if-modified-since", "date")) if key in h]
    return "%s %s %d bytes=%d auth=%s cond=%s" % (
        r["method"], r["path"], r["status"], r["bytes"],
        "yes" if "authorization" in h else "no", ",".join(cond) or "-")


def ci_line(r, h):
    auth = ("bearer" if "authorization" in h else
            "private" if "private-token" in h else "no")
    gh = (h.get("accept") == "application/vnd.github+json" and
          h.get("x-github-api-version") == "2022-11-28")
    return "%s %s %s %d auth=%s gh=%s%s" % (
        r["server"], r["method"], r["path"], r["status"], auth,
        "yes" if gh else "no", " early" if r.get("early") else "")


def main():
    args = sys.argv[1:]
    line = http_line
    if args[:1] == ["--ci"]:
        line, args = ci_line, args[1:]
    skip = 0
    if len(args) == 3 and args[1] == "--from":
        skip = int(args[2])
    elif len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as f:
        lines = f.readlines()[skip:]
    for text in lines:
        r = json.loads(text)
        print(line(r, r["headers"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
