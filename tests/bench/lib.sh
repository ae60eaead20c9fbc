# Sourced by the bench scripts: whether a store cached in build/bench/ can
# be measured again. It cannot once its generators changed or once the
# binary's schema moved on (a store from another branch's numbering would
# fail its upgrade, or be measured through the upgrade).

# bench_schema: the schema version the binary under test creates.
bench_schema() {
	local d
	d=$(mktemp -d)
	"$TIADASH_BIN" --db "$d/s.db" init >/dev/null
	sqlite3 "$d/s.db" 'PRAGMA user_version'
	rm -rf "$d"
}

# bench_store_fresh DB GENERATOR...: true when DB.done exists, is newer than
# every GENERATOR, and DB has the binary's schema.
bench_store_fresh() {
	local db=$1 g
	shift
	[ -e "$db.done" ] || return 1
	for g; do [ "$g" -nt "$db.done" ] && return 1; done
	: "${BENCH_SCHEMA:=$(bench_schema)}"
	[ "$(sqlite3 "$db" 'PRAGMA user_version' 2>/dev/null)" = "$BENCH_SCHEMA" ]
}
