#!/bin/bash
# summary --post URL: {"text": <the markdown summary>} as JSON to a webhook
# (a local HTTP server here); a failed post still prints the summary, says
# why with the HTTP status, exits 2, and never shows the URL's secrets.
. "$(dirname "$0")/lib.sh"
. "$TEST_SRC/lib-metrics.sh"

unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
trap 'test -s "$TRASH/hook.pids" && kill $(cat "$TRASH/hook.pids") 2>/dev/null' EXIT

# A webhook stand-in: answers every POST with status $2 and keeps the last
# request in $1.{path,type,body}; TLS with cert $3 when given.
cat >hook.py <<-\PY
import http.server, ssl, sys
out, status = sys.argv[1], int(sys.argv[2])
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open(out + ".path", "w").write(self.path)
        open(out + ".type", "w").write(self.headers.get("Content-Type", ""))
        open(out + ".body", "wb").write(body)
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *a):
        pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
if len(sys.argv) > 3:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[3], sys.argv[4])
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
open(out + ".port.tmp", "w").write(str(srv.server_address[1]))
import os, threading; os.rename(out + ".port.tmp", out + ".port")
threading.Timer(600, os._exit, (0,)).start()  # a watchdog, should the test die
srv.serve_forever()
PY

# start_hook NAME STATUS [CERT KEY]: start a server, wait for its port.
# Its pid goes to hook.pids; the servers are stopped when this script exits.
start_hook() {
	python3 hook.py "$@" &
	echo $! >>"$TRASH/hook.pids"
	for _ in $(seq 1 100); do
		[ -s "$1.port" ] && return 0
		sleep 0.1
	done
	echo "webhook stand-in did not start" >&2
	return 1
}

test_expect_success 'setup: a week with an escape' '
	mrepo 2 &&
	mrun a/1s 1 shadow 1 2026-11-03T10:00:00Z 60 pass "$(sel selected 10 100 tests/a.py)" tests/a.py::t &&
	mrun a/1f 1 full 1 2026-11-03T10:00:00Z 600 fail - tests/b.py::u_x:failed &&
	mrun a/2s 2 shadow 1 2026-11-04T10:00:00Z 600 pass "$(ffsel "force-full:**/*.lock")" tests/a.py::t &&
	mrun a/2f 2 full 1 2026-11-04T10:00:00Z 600 pass - tests/a.py::t &&
	tiadash --db s.db --repo repo ingest a >/dev/null &&
	tiadash --db s.db summary --format md >summary.md &&
	start_hook ok 200 && start_hook bad 500
'

test_expect_success 'post: JSON {"text": markdown summary}, application/json' '
	tiadash --db s.db summary --post "http://127.0.0.1:$(cat ok.port)/hooks/T000/SECRET123" >out 2>err &&
	test_must_be_empty err &&
	tiadash --db s.db summary >expect && test_cmp expect out &&
	test "$(cat ok.path)" = /hooks/T000/SECRET123 &&
	test "$(cat ok.type)" = application/json &&
	python3 -c "import json,sys; d=json.load(open(\"ok.body\")); assert list(d) == [\"text\"]; sys.stdout.write(d[\"text\"])" >posted.md &&
	test_cmp summary.md posted.md
'

test_expect_success 'post with --format md prints the markdown it posted' '
	tiadash --db s.db summary --format md --post "http://127.0.0.1:$(cat ok.port)/x" >out &&
	test_cmp summary.md out
'

test_expect_success 'post with --max-escape-rate: the rate decides when the post works' '
	test_expect_code 1 tiadash --db s.db summary --max-escape-rate 0.1 \
		--post "http://127.0.0.1:$(cat ok.port)/x" >out
'

test_expect_success 'HTTP 500: summary printed anyway, status on stderr, exit 2, no secret' '
	test_expect_code 2 tiadash --db s.db summary \
		--post "http://user:pa55word@127.0.0.1:$(cat bad.port)/hooks/T000/SECRET123?token=abc987" >out 2>err &&
	tiadash --db s.db summary >expect && test_cmp expect out &&
	test_grep "HTTP 500" err &&
	test_grep "http://127.0.0.1:$(cat bad.port)/\.\.\." err &&
	! grep -e SECRET123 -e abc987 -e pa55word -e user err
'

test_expect_success 'nobody listening: exit 2, the reason, no secret' '
	port=$(python3 -c "import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])") &&
	test_expect_code 2 tiadash --db s.db summary --post "http://127.0.0.1:$port/hooks/SECRET123" >out 2>err &&
	test -s out &&
	test_grep "cannot post to http://127.0.0.1:$port/\.\.\." err &&
	! grep SECRET123 err
'

test_expect_success 'TLS is verified: a self-signed certificate fails the post' '
	openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem \
		-days 2 -subj /CN=127.0.0.1 >/dev/null 2>&1 &&
	start_hook tls 200 cert.pem key.pem &&
	test_expect_code 2 tiadash --db s.db summary --post "https://127.0.0.1:$(cat tls.port)/hooks/SECRET123" >out 2>err &&
	test_grep "cannot post to https://127.0.0.1:$(cat tls.port)/\.\.\." err &&
	grep -qi certificate err &&
	! grep SECRET123 err &&
	test ! -e tls.body
'

test_expect_success 'only http and https' '
	test_expect_code 2 tiadash --db s.db summary --post "file:///etc/passwd" >out 2>err &&
	test_grep "only http:// and https://" err &&
	test -s out
'

test_expect_success 'stop the webhook stand-ins' '
	kill $(cat hook.pids) && rm hook.pids
'

test_done
