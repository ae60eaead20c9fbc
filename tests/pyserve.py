#!/usr/bin/env python3
"""One python3 for a test file's JSON lookups (lib.sh's json_get,
lib-metrics.sh's json_close and ref, lib-selectors.sh's readers of replay's
JSON, ...), each answered as its own `python3 -c` would: starting python3
and importing json costs about 40 ms of CPU, and make check makes some
1,000 of these lookups.

Usage: pyserve.py OWNER_PID
Prints "PORT TOKEN" and closes stdout, then serves on 127.0.0.1:PORT until
OWNER_PID (the test file's shell) is gone.
       pyserve.py --run NAME ARGS...
Runs helper NAME itself, in this python3 (what the callers fall back to).

A request is NUL-terminated fields: the token, the number of fields after
it, the caller's directory, the helper's name, its arguments. The answer is
the exit status, stdout and stderr, each NUL-terminated; its status is
"fallback" when only a python3 of the caller's own gives the same answer
(output that is not UTF-8 text, or holds a NUL).
"""
import contextlib
import io
import json
import math
import os
import re
import secrets
import select
import socket
import sys
import traceback


def value_of(path, expr):
    """expr evaluated over d, the JSON at path (json_get's, json_close's
    and json_dump's expressions)."""
    d = json.load(open(path))
    return eval(expr, {"json": json, "math": math, "sys": sys, "d": d})


def json_get(path, expr):
    print(value_of(path, expr))


def json_close(path, expr, value):
    got = value_of(path, expr)
    want = json.loads(value)
    ok = (got == want if not isinstance(want, float) or not isinstance(got, (int, float))
          else math.isclose(got, want, rel_tol=0, abs_tol=1e-9))
    if not ok:
        print("%s: got %r, want %r" % (expr, got, want))
        sys.exit(1)


def json_dump(path, expr):
    print(json.dumps(value_of(path, expr)))


def changes_of(path):
    return json.load(open(path))["changes"]


def replayed_selections(path):
    for c in changes_of(path):
        print(c["commit"], c["decision"], " ".join(c["selection"]) or "-")


def replayed_decisions(path):
    for c in changes_of(path):
        print(c["commit"], c["decision"], " ".join(c["reasons"]) or "-")


def replay_rows(path, key=None):
    for c in changes_of(path):
        o = c[key] if key else c
        print(c["pr"], o["decision"], c["changed"], o["selected"],
              "[" + " ".join(o["reasons"]) + "]", "[" + " ".join(o["missed"]) + "]")


def mutants_of(path):
    d = json.load(open(path))
    for m in sorted(d["list"], key=lambda m: (m["pr"] or 0, m["path"], m["operator"])):
        print(m["pr"], m["path"], m["operator"], m["verdict"],
              *(["timeout"] if m["timed_out"] else []), *m["caught_by"])


def roff_words(path):
    t = open(path, encoding="utf-8").read()
    for a, b in (("\u2010", "-"), ("\u2212", "-"), ("\u2019", "'"), ("\u2018", "'"),
                 ("\u2014", "--"), ("\u2013", "-"), ("\u201c", '"'), ("\u201d", '"'),
                 ("\u00b7", "*"), ("\u2022", "*")):
        t = t.replace(a, b)
    t = re.sub(r"(\w)-\n\s*", r"\1-", t)  # a line broken after a hyphen
    print("\n".join(t.split()))


def widest(path):
    print(max((len(l.rstrip("\n")) for l in open(path, encoding="utf-8")), default=0))


def stats_ref(*args):
    import stats_ref as ref
    ref.main(["stats_ref.py", *args])


HELPERS = {"json_get": json_get, "json_close": json_close, "json_dump": json_dump,
           "replayed_selections": replayed_selections, "replayed_decisions": replayed_decisions,
           "replay_rows": replay_rows, "mutants_of": mutants_of, "stats_ref": stats_ref,
           "roff_words": roff_words, "widest": widest}
FALLBACK = b"fallback\0\0\0"


def exit_status(e):
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xff
    print(e.code, file=sys.stderr)
    return 1


def answer(fields):
    cwd, name, args = fields[0], fields[1], fields[2:]
    if name not in HELPERS:
        return FALLBACK
    out, err = io.StringIO(), io.StringIO()
    rc = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            os.chdir(cwd)
            HELPERS[name](*args)
        except SystemExit as e:
            rc = exit_status(e)
        except Exception:
            traceback.print_exc()
            rc = 1
    try:
        o, e = out.getvalue().encode("utf-8"), err.getvalue().encode("utf-8")
    except UnicodeEncodeError:
        return FALLBACK
    if b"\0" in o or b"\0" in e:
        return FALLBACK
    return b"%d\0%s\0%s\0" % (rc, o, e)


def read_request(conn, token):
    buf = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buf += chunk
        parts = buf.split(b"\0")
        if len(parts) < 3:
            continue
        if parts[0] != token:
            return None
        n = int(parts[1])
        if len(parts) - 3 >= n:
            return [p.decode("utf-8", "surrogateescape") for p in parts[2:2 + n]]


def owner_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def main():
    owner = int(sys.argv[1])
    # Nothing of the caller's stays open here (a pipe someone reads to its end).
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    token = secrets.token_hex(16)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    print(srv.getsockname()[1], token, flush=True)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    token = token.encode()
    while owner_alive(owner):
        if not select.select([srv], [], [], 1.0)[0]:
            continue
        conn, _ = srv.accept()
        with conn:
            conn.settimeout(30)
            try:
                fields = read_request(conn, token)
                if fields is not None and len(fields) >= 2:
                    conn.sendall(answer(fields))
            except (OSError, ValueError):
                pass


if __name__ == "__main__":
    if sys.argv[1] == "--run":
        HELPERS[sys.argv[2]](*sys.argv[3:])
    else:
        main()
