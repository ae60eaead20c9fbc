#!/usr/bin/env python3
"""A test HTTP(S) server for tiadash's URL ingest (stdlib only).

Serves a directory with ETag and Last-Modified, answers conditional
requests with 304, and misbehaves on request, path by path, as a rules
file (JSON, re-read on every request) says:

  {"/a/x.xml": {"status": 503, "times": 2},          first 2 requests: 503
   "/b.json":  {"status": 429, "retry_after": "1"},   always 429 + Retry-After
   "/slow":    {"sleep": 5},                          wait 5 s, then answer
   "/r.json":  {"redirect": "http://127.0.0.1:P/x", "code": 302},
   "/big":     {"oversize": 2000000, "chunked": true},
   "/cut.xml": {"truncate": 100},                     Content-Length + 100, close
   "/n.json":  {"no_validators": true},              no ETag, no Last-Modified
   "/j.xml":   {"gzip": "j.xml.gz"}}                 that file's bytes, sent with
                                                     Content-Encoding: gzip

"times": N limits any rule to the first N requests of that path since the
rules last changed. Every
request is logged, one JSON object a line: method, path, headers (names in
lower case), status, bytes of body sent.

usage: server.py --root DIR --port-file FILE --log FILE [--rules FILE]
                 [--tls CERT KEY]
       server.py --fast --root DIR --port-file FILE

--fast serves DIR as it was at start, from memory, with asyncio: no rules,
no log, no TLS; for the benchmark, where http.server would be slower than
the client it serves and so would measure itself.
"""
import argparse
import asyncio
import email.utils
import hashlib
import http.server
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse


class State:
    def __init__(self, args):
        self.root = os.path.realpath(args.root)
        self.rules_path = args.rules
        self.log = None if args.log == os.devnull else open(args.log, "a", buffering=1)
        self.lock = threading.Lock()
        self.counts = {}
        self.rules_text = None
        self.rules_now = {}
        self.etags = {}

    def rules(self):
        """The rules now in force; new rules start their counts afresh."""
        if not self.rules_path:
            return {}
        try:
            with open(self.rules_path) as f:
                text = f.read()
        except OSError:
            text = "{}"
        with self.lock:
            if text != self.rules_text:
                self.rules_text = text
                self.counts = {}
                try:
                    self.rules_now = json.loads(text)
                except ValueError:
                    self.rules_now = {}
            return self.rules_now

    def count(self, path):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            return self.counts[path]

    def record(self, entry):
        if self.log:
            line = json.dumps(entry(), sort_keys=True) + "\n"
            with self.lock:
                self.log.write(line)

    def etag(self, file, st, body):
        key = (file, st.st_mtime_ns, st.st_size, st.st_ino)
        tag = self.etags.get(key)
        if tag is None:
            tag = self.etags[key] = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        return tag


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes
    server_version = "tiadash-test/1"

    def log_message(self, fmt, *args):
        pass

    def reply(self, status, body=b"", headers=(), length=None):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        if self.command != "HEAD" and status != 304:
            self.wfile.write(body)
        return len(body) if status != 304 else 0

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        st = self.server.state
        path = urllib.parse.urlsplit(self.path).path
        rule = st.rules().get(path, {})
        n = st.count(path)
        if "times" in rule and n > rule["times"]:
            rule = {}
        sent, status = 0, 200
        try:
            status, sent = self.answer(st, path, rule)
        finally:
            st.record(lambda: {"method": self.command, "path": self.path,
                               "headers": {k.lower(): v for k, v in self.headers.items()},
                               "status": status, "bytes": sent, "n": n})

    def answer(self, st, path, rule):
        if "sleep" in rule:
            time.sleep(rule["sleep"])
        if "redirect" in rule:
            code = rule.get("code", 302)
            return code, self.reply(code, b"moved\n", [("Location", rule["redirect"])])
        if "status" in rule:
            headers = []
            if "retry_after" in rule:
                headers.append(("Retry-After", str(rule["retry_after"])))
            return rule["status"], self.reply(rule["status"], b"not now\n", headers)
        if "oversize" in rule:
            return 200, self.send_oversize(rule["oversize"], rule.get("chunked", False))
        name = rule.get("gzip", urllib.parse.unquote(path).lstrip("/"))
        file = os.path.realpath(os.path.join(st.root, name))
        if not file.startswith(st.root + os.sep) or not os.path.isfile(file):
            return 404, self.reply(404, b"not found\n")
        with open(file, "rb") as f:
            body = f.read()
            stat = os.fstat(f.fileno())
        mtime = int(stat.st_mtime)
        etag = st.etag(file, stat, body)
        validators = [] if rule.get("no_validators") else [
            ("ETag", etag), ("Last-Modified", email.utils.formatdate(mtime, usegmt=True))]
        if "gzip" in rule:
            validators.append(("Content-Encoding", "gzip"))
        if not rule.get("no_validators") and self.not_modified(etag, mtime):
            return 304, self.reply(304, headers=validators)
        if "truncate" in rule:
            self.reply(200, body, validators, length=len(body) + rule["truncate"])
            self.close_connection = True
            return 200, len(body)
        return 200, self.reply(200, body, validators)

    def not_modified(self, etag, mtime):
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            tags = [t.strip() for t in inm.split(",")]
            return "*" in tags or etag in tags
        ims = self.headers.get("If-Modified-Since")
        if ims is not None:
            try:
                return mtime <= email.utils.parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                return False
        return False

    def send_oversize(self, size, chunked):
        chunk = b"x" * 65536
        self.send_response(200)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        sent = 0
        try:
            while sent < size:
                part = chunk[:min(len(chunk), size - sent)]
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                else:
                    self.wfile.write(part)
                sent += len(part)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        return sent


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # a client that hangs up early is part of the tests


def fast_files(root):
    """URL path -> the whole response (headers and body), for --fast."""
    files = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            file = os.path.join(dirpath, name)
            with open(file, "rb") as f:
                body = f.read()
            mtime = int(os.stat(file).st_mtime)
            head = ("HTTP/1.1 200 OK\r\nContent-Length: %d\r\nETag: \"%s\"\r\n"
                    "Last-Modified: %s\r\n\r\n" % (
                        len(body), hashlib.sha1(body).hexdigest()[:16],
                        email.utils.formatdate(mtime, usegmt=True))).encode()
            files["/" + os.path.relpath(file, root).replace(os.sep, "/")] = head + body
    return files


async def fast_serve(root, port_file):
    files = fast_files(root)
    missing = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"

    async def handle(reader, writer):
        transport = writer.transport
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b" ", 2)[1].split(b"?", 1)[0].decode("latin-1")
                path = urllib.parse.unquote(target) if "%" in target else target
                writer.write(files.get(path, missing))
                # Drain only when the client is behind: a wait per answer
                # costs more CPU than the answer itself.
                if transport.get_write_buffer_size() > 1 << 20:
                    await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    write_port(port_file, server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


def write_port(port_file, port):
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, port_file)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    ap.add_argument("--rules")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--fast", action="store_true")
    args = ap.parse_args()
    if args.fast:
        try:
            asyncio.run(fast_serve(args.root, args.port_file))
        except KeyboardInterrupt:
            pass
        return 0
    if not args.log:
        ap.error("--log is required")
    server = Server(("127.0.0.1", 0), Handler)
    server.state = State(args)
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*args.tls)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    write_port(args.port_file, server.server_address[1])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
