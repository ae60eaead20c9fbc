#!/usr/bin/env python3
"""A loopback stand-in for the GitHub Actions and GitLab CI REST APIs, for
tiadash's `ingest --github/--gitlab` tests (tests/t17*.sh); stdlib only.

It listens on two ports of 127.0.0.1: the API, and an object storage host
that artifact downloads redirect to (another origin, so a test can check
from the log that no token ever reached it). What it serves is a world
file (JSON, written by make-ci.py, re-read whenever it changes):

  {"token": "T",                   the API wants it (GitHub: Authorization:
                                   Bearer T; GitLab: PRIVATE-TOKEN: T)
   "gitlab_token": "G",            GitLab's, when it differs
   "page_size": 2,                 the largest page it gives (per_page caps it)
   "github": {"OWNER/REPO": {"runs": [...], "artifacts": {"RUN": [...]},
                             "jobs": {"RUN": [...]}}},
   "gitlab": {"GROUP/PROJECT": {"jobs": [...], "redirect": true,
                                "direct": [JOB...]}},
   "blobs": {"github/ARTIFACT": "FILE", "gitlab/JOB": "FILE"},
   "rules": {"/PATH": RULE}}

Runs, artifacts and jobs are the documented response objects. Endpoints:

  GET /repos/O/R/actions/workflows/W/runs?created=>=T&per_page=N&page=P
  GET /repos/O/R/actions/runs/ID/artifacts      (Link: rel="next" pages)
  GET /repos/O/R/actions/runs/ID/jobs
  GET /repos/O/R/actions/artifacts/ID/zip       302 to storage; 410 expired
  GET /api/v4/projects/ID-OR-PATH/jobs?scope[]=S&per_page=N&page=P
                                                (X-Next-Page pages)
  GET /api/v4/projects/ID-OR-PATH/jobs/ID/artifacts   302 or 200; 404 none
  GET /blob/NAME   (storage port)

A RULE makes one path misbehave, for its first "times" requests:
  {"status": 429, "retry_after": "1"}          that status (+ Retry-After)
  {"status": 403, "reset_in": 3600}            X-RateLimit-Remaining: 0 and
                                               X-RateLimit-Reset now+3600
  {"exhaust": 1}                               a normal answer that says the
        quota is used up until the next second (X-RateLimit-Remaining: 0,
        X-RateLimit-Reset a second ahead); until then every API request gets
        403 (remaining 0), logged with "early": true (tiadash must wait)
  {"status": 410}                              the status, a JSON message

Every request is logged, one JSON object a line: server, method, path
(with the query), headers (names in lower case), status, early.

usage: server.py --world FILE --port-file FILE --log FILE
"""
import argparse
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse


class State:
    def __init__(self, args):
        self.world_path = args.world
        self.log = open(args.log, "a", buffering=1)
        self.lock = threading.Lock()
        self.world_text = None
        self.world = {}
        self.counts = {}
        self.exhausted_until = 0
        self.ports = {}

    def load(self):
        try:
            with open(self.world_path) as f:
                text = f.read()
        except OSError:
            text = "{}"
        with self.lock:
            if text != self.world_text:
                self.world_text = text
                self.world = json.loads(text)
                self.counts = {}
            return self.world

    def count(self, path):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            return self.counts[path]

    def record(self, entry):
        line = json.dumps(entry, sort_keys=True) + "\n"
        with self.lock:
            self.log.write(line)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "tiadash-ci-test/1"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        st = self.server.state
        world = st.load()
        self.early = False
        self.extra = []
        if self.server.role == "storage":
            self.storage(world)
        else:
            self.api(world)

    # ---- answers ----------------------------------------------------------

    def send(self, status, body=b"", headers=()):
        # Logged before the answer leaves, so a redirect's request is always
        # logged before the request that follows it (the two servers run on
        # threads of their own).
        self.server.state.record({
            "server": self.server.role, "method": "GET", "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "status": status, "early": self.early})
        self.send_response(status)
        for name, value in list(headers) + self.extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return status

    def send_json(self, status, obj, headers=()):
        body = (json.dumps(obj, indent=2) + "\n").encode()
        return self.send(status, body, [("Content-Type", "application/json; charset=utf-8")]
                         + list(headers))

    def message(self, status, text):
        return self.send_json(status, {"message": text,
                                       "documentation_url": "https://docs.github.com/rest"})

    # ---- storage -------------------------------------------------------------

    def storage(self, world):
        path = urllib.parse.urlsplit(self.path).path
        name = path[len("/blob/"):] if path.startswith("/blob/") else None
        root = os.path.dirname(os.path.abspath(self.server.state.world_path))
        for key, file in world.get("blobs", {}).items():
            if name == key.replace("/", "-") + ".zip":
                with open(os.path.join(root, file), "rb") as f:
                    return self.send(200, f.read(), [("Content-Type", "application/zip")])
        return self.send(404, b"no such blob\n")

    # ---- the API ---------------------------------------------------------

    def api(self, world):
        st = self.server.state
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        now = time.time()
        self.extra = [("X-RateLimit-Limit", "5000"), ("X-RateLimit-Remaining", "4999"),
                      ("X-RateLimit-Reset", str(int(now) + 3600))]
        if now < st.exhausted_until:
            # tiadash was told the quota is used up: asking now is hammering.
            self.early = True
            self.extra = [("X-RateLimit-Remaining", "0"),
                          ("X-RateLimit-Reset", str(int(st.exhausted_until)))]
            return self.message(403, "API rate limit exceeded")
        rule = world.get("rules", {}).get(path)
        if rule is not None and st.count(path) > rule.get("times", 1 << 30):
            rule = None
        if rule and "exhaust" in rule:
            st.exhausted_until = int(now) + rule["exhaust"]
            self.extra = [("X-RateLimit-Limit", "5000"), ("X-RateLimit-Remaining", "0"),
                          ("X-RateLimit-Reset", str(int(st.exhausted_until)))]
        elif rule and "status" in rule:
            headers = []
            if "retry_after" in rule:
                headers.append(("Retry-After", str(rule["retry_after"])))
            if "reset_in" in rule:
                self.extra = [("X-RateLimit-Remaining", "0"),
                              ("X-RateLimit-Reset", str(int(now) + rule["reset_in"]))]
            return self.send_json(rule["status"], {"message": "not now"}, headers)
        if path.startswith("/api/v4/"):
            return self.gitlab(world, path[len("/api/v4"):], query)
        return self.github(world, path, query)

    def authorized(self, world, gitlab):
        token = (gitlab and world.get("gitlab_token")) or world.get("token")
        if not token:
            return True
        if gitlab:
            return self.headers.get("PRIVATE-TOKEN") == token
        return self.headers.get("Authorization") == "Bearer " + token

    def page(self, items, query, world):
        per_page = int(query.get("per_page", ["30"])[0])
        per_page = max(1, min(per_page, 100, world.get("page_size", 100)))
        page = max(1, int(query.get("page", ["1"])[0]))
        pages = max(1, (len(items) + per_page - 1) // per_page)
        return items[(page - 1) * per_page:page * per_page], page, pages, per_page

    def link(self, query, page, pages):
        """GitHub's Link header for this page (absolute URLs, this host)."""
        def url(p):
            q = {k: v for k, v in query.items()}
            q["page"] = [str(p)]
            return "<http://%s%s?%s>" % (self.headers.get("Host"),
                                         urllib.parse.urlsplit(self.path).path,
                                         urllib.parse.urlencode(q, doseq=True))
        rels = []
        if page < pages:
            rels += ["%s; rel=\"next\"" % url(page + 1), "%s; rel=\"last\"" % url(pages)]
        if page > 1:
            rels += ["%s; rel=\"first\"" % url(1), "%s; rel=\"prev\"" % url(page - 1)]
        return [("Link", ", ".join(rels))] if rels else []

    def github(self, world, path, query):
        parts = path.strip("/").split("/")
        if len(parts) < 5 or parts[0] != "repos" or parts[3] != "actions":
            return self.message(404, "Not Found")
        if not self.authorized(world, False):
            return self.message(401, "Bad credentials")
        repo = world.get("github", {}).get(parts[1] + "/" + parts[2])
        if repo is None:
            return self.message(404, "Not Found")
        rest = parts[4:]
        if len(rest) == 3 and rest[0] == "workflows" and rest[2] == "runs":
            wf = urllib.parse.unquote(rest[1])
            runs = [r for r in repo["runs"]
                    if r["path"].split("@")[0].rsplit("/", 1)[-1] == wf
                    or str(r["workflow_id"]) == wf]
            created = query.get("created", [""])[0]
            if created.startswith(">="):
                runs = [r for r in runs if r["created_at"] >= created[2:]]
            runs.sort(key=lambda r: r["id"], reverse=True)
            items, page, pages, _ = self.page(runs, query, world)
            return self.send_json(200, {"total_count": len(runs), "workflow_runs": items},
                                  self.link(query, page, pages))
        if len(rest) == 3 and rest[0] == "runs" and rest[2] in ("artifacts", "jobs"):
            key = "artifacts" if rest[2] == "artifacts" else "jobs"
            found = repo.get(key, {}).get(rest[1])
            if found is None:
                return self.message(404, "Not Found")
            items, page, pages, _ = self.page(found, query, world)
            return self.send_json(200, {"total_count": len(found), key: items},
                                  self.link(query, page, pages))
        if len(rest) == 3 and rest[0] == "artifacts" and rest[2] == "zip":
            art = next((a for arts in repo.get("artifacts", {}).values() for a in arts
                        if str(a["id"]) == rest[1]), None)
            if art is None or "github/" + rest[1] not in world.get("blobs", {}):
                return self.message(404, "Not Found")
            if art["expired"]:
                return self.message(410, "Artifact has expired")
            return self.to_storage("github/" + rest[1])
        return self.message(404, "Not Found")

    def to_storage(self, key):
        storage = self.server.state.ports["storage"]
        target = "http://127.0.0.1:%d/blob/%s.zip?sig=c2lnbmVk&se=2026-11-08" % (
            storage, key.replace("/", "-"))
        return self.send(302, b"", [("Location", target)])

    def gitlab(self, world, path, query):
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "projects" or parts[2] != "jobs":
            return self.send_json(404, {"message": "404 Not Found"})
        if not self.authorized(world, True):
            return self.send_json(401, {"message": "401 Unauthorized"})
        project = world.get("gitlab", {}).get(urllib.parse.unquote(parts[1]))
        if project is None:
            return self.send_json(404, {"message": "404 Project Not Found"})
        if len(parts) == 3:
            scopes = query.get("scope[]", [])
            jobs = [j for j in project["jobs"] if not scopes or j["status"] in scopes]
            jobs.sort(key=lambda j: j["id"], reverse=True)
            items, page, pages, per_page = self.page(jobs, query, world)
            headers = [("X-Page", str(page)), ("X-Per-Page", str(per_page)),
                       ("X-Next-Page", str(page + 1) if page < pages else ""),
                       ("X-Prev-Page", str(page - 1) if page > 1 else ""),
                       ("X-Total", str(len(jobs))), ("X-Total-Pages", str(pages))]
            return self.send_json(200, items, headers)
        if len(parts) == 5 and parts[4] == "artifacts":
            key = "gitlab/" + parts[3]
            if key not in world.get("blobs", {}):
                return self.send_json(404, {"message": "404 Not found"})
            if project.get("redirect") and int(parts[3]) not in project.get("direct", []):
                return self.to_storage(key)
            root = os.path.dirname(os.path.abspath(self.server.state.world_path))
            with open(os.path.join(root, world["blobs"][key]), "rb") as f:
                return self.send(200, f.read(), [("Content-Type", "application/zip")])
        return self.send_json(404, {"message": "404 Not Found"})


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    state = State(args)
    servers = []
    for role in ("api", "storage"):
        server = Server(("127.0.0.1", 0), Handler)
        server.state, server.role = state, role
        state.ports[role] = server.server_address[1]
        servers.append(server)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d\n" % (state.ports["api"], state.ports["storage"]))
    os.rename(tmp, args.port_file)
    threading.Thread(target=servers[1].serve_forever, daemon=True).start()
    try:
        servers[0].serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
