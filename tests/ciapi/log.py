#!/usr/bin/env python3
"""Print the CI test server's request log, one request a line:

  api GET /repos/acme/ledger/actions/runs/1001/artifacts?per_page=100 200 auth=bearer gh=yes
  storage GET /blob/github-5001.zip?sig=c2lnbmVk&se=2026-11-08 200 auth=no gh=no

auth says which token header came (bearer: Authorization, private:
PRIVATE-TOKEN, no: none; the value is never printed); gh whether GitHub's
Accept and X-GitHub-Api-Version headers came. "early" marks a request
made while the server had said the rate limit was used up. --from N skips
the first N requests (so a test looks at one ingest only).

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
        auth = ("bearer" if "authorization" in h else
                "private" if "private-token" in h else "no")
        gh = (h.get("accept") == "application/vnd.github+json" and
              h.get("x-github-api-version") == "2022-11-28")
        print("%s %s %s %d auth=%s gh=%s%s" % (
            r["server"], r["method"], r["path"], r["status"], auth,
            "yes" if gh else "no", " early" if r.get("early") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
