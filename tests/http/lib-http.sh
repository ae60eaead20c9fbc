# Helpers for the HTTP tests (tests/t15*.sh): test servers on free ports of
# 127.0.0.1, their request logs, and a small week of artifacts.
#
#   . "$(dirname "$0")/lib.sh"
#   . "$TEST_SRC/http/lib-http.sh"
#   http_start web "$PWD/www"        # sets web_port, logs to web.log
#   http_rules web '{"/a.json": {"status": 503, "times": 1}}'
#   http_log web >requests           # one line a request (tests/request-log.py)

# Proxies from the environment would swallow requests to 127.0.0.1.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

HTTP_SERVERS=

http_stop_all() {
	local pid
	for pid in $HTTP_SERVERS; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	HTTP_SERVERS=
}
trap http_stop_all EXIT

# http_start NAME ROOT [server.py options]: serve ROOT; sets NAME_port.
http_start() {
	local name=$1 root=$2 i=0 port
	shift 2
	rm -f "$TRASH/$name.port"
	: >"$TRASH/$name.log"
	echo '{}' >"$TRASH/$name.rules"
	python3 "$TEST_SRC/http/server.py" --root "$root" --port-file "$TRASH/$name.port" \
		--log "$TRASH/$name.log" --rules "$TRASH/$name.rules" "$@" &
	HTTP_SERVERS="$HTTP_SERVERS $!"
	while [ ! -s "$TRASH/$name.port" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ]; then
			echo "test server '$name' did not start" >&2
			return 1
		fi
		sleep 0.05
	done
	port=$(cat "$TRASH/$name.port")
	eval "${name}_port=$port"
}

# http_rules NAME JSON: how the server misbehaves from now on (see server.py).
http_rules() {
	echo "$2" >"$TRASH/$1.rules"
}

# http_log NAME [--from N]: the requests NAME has seen.
http_log() {
	python3 "$TEST_SRC/request-log.py" "$TRASH/$1.log" "${@:2}"
}

# http_mark NAME: how many requests NAME has logged so far (for --from).
http_mark() {
	wc -l <"$TRASH/$1.log" | tr -d ' '
}

# The runs of a store, by natural keys (no ids, no source paths): what two
# ingests of the same artifacts must agree on.
store_runs_dump() {
	sqlite3 "$1" "
	select h.repo, h.sha, h.pr, r.kind, r.attempt, r.pr, r.base, r.started_at,
	       r.wall_clock_s, r.verdict, r.git, r.tests, r.failures, r.errors,
	       r.skipped, r.flaky, r.cov_lines, r.cov_hit
	  from run r join head h on h.id = r.head_id order by 2, 4, 5;
	select h.sha, r.kind, s.decision, s.total_tests, s.selected_count, s.format
	  from selection s join run r on r.id = s.run_id join head h on h.id = r.head_id
	 order by 1, 2;
	select h.sha, r.kind, sr.pos, sr.reason from selection_reason sr
	  join run r on r.id = sr.run_id join head h on h.id = r.head_id order by 1, 2, 3;
	select h.sha, r.kind, hex(s.entries) from selection s
	  join run r on r.id = s.run_id join head h on h.id = r.head_id order by 1, 2;
	select id, text from name order by id;
	select h.sha, r.kind, r.attempt, s.text, c.text, x.outcome from result x
	  join name s on s.id = x.suite_id join name c on c.id = x.case_id
	  join run r on r.id = x.run_id join head h on h.id = r.head_id order by 1, 2, 3, 4, 5;
	select h.sha, r.kind, n.text from quarantine q join name n on n.id = q.name_id
	  join run r on r.id = q.run_id join head h on h.id = r.head_id order by 1, 2, 3;
	select h.sha, r.kind, c.path, c.executable, c.executed from coverage c
	  join run r on r.id = c.run_id join head h on h.id = r.head_id order by 1, 2, 3;
	select count(*), count(distinct digest) from source;"
}

# make_week DIR: a small week of artifacts in DIR/artifacts (an index.json
# and runs/*/ manifests with JUnit, selections, lcov, quarantine) for the
# git repository DIR/repo.
make_week() {
	python3 "$TEST_SRC/http/make-week.py" "$1"
}
