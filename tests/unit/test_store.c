/* The store: migrations, refusal of newer and foreign stores, nested transactions, blobs. */
#include "core/tiadash.h"
#include "core/store.h"

#include <setjmp.h>
#include <cmocka.h>
#include <unistd.h>

static char dir[] = "/tmp/tiadash-store-XXXXXX";

static char *db_path(const char *name)
{
	return xstrfmt("%s/%s", dir, name);
}

static int query_int(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void exec_raw(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void fresh_store(void **state)
{
	char *path = db_path("fresh.db");
	struct store *s;

	UNUSED(state);
	assert_int_equal(store_open(&s, path, STORE_CREATE), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(query_int(s, "PRAGMA application_id"), STORE_APPLICATION_ID);
	assert_int_equal(query_int(s, "PRAGMA foreign_keys"), 1);
	store_close(s);
	free(path);
}

/* A store at schema 1 (what the first migration made) is upgraded in place. */
static void upgrade_from_v1(void **state)
{
	char *path = db_path("v1.db");
	struct store *s;

	UNUSED(state);
	assert_int_equal(store_open(&s, path, STORE_CREATE), 0);
	store_close(s);
	exec_raw(path, "INSERT INTO source (uri, digest, ingested_at) VALUES ('kept', 'd', 1);"
		       "DROP TABLE note; DROP TABLE http_part; DROP TABLE http_cache;"
		       "DROP TABLE ci_seen; DROP TABLE ci_cursor;"
		       "DROP TABLE run_tests; DROP TABLE test_group;"
		       "ALTER TABLE result DROP COLUMN digest;"
		       "ALTER TABLE result DROP COLUMN excerpt;"
		       "ALTER TABLE result DROP COLUMN count;"
		       "ALTER TABLE result DROP COLUMN resolved;"
		       "ALTER TABLE selection DROP COLUMN entries_total;"
		       "ALTER TABLE selection DROP COLUMN entries_unresolved;"
		       "ALTER TABLE selection DROP COLUMN entries_unmatched;"
		       "DROP TABLE seed_mutant; DROP TABLE seed_change; DROP TABLE seed_experiment;"
		       "PRAGMA user_version = 1");
	assert_int_equal(store_open(&s, path, STORE_EXISTING), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(query_int(s, "SELECT count(*) FROM source WHERE uri = 'kept'"), 1);
	assert_int_equal(query_int(s, "SELECT count(*) FROM note"), 0);
	assert_int_equal(query_int(s, "SELECT count(*) FROM run_tests"), 0);
	assert_int_equal(query_int(s, "SELECT count(digest) FROM result"), 0);
	store_close(s);
	free(path);
}

static void refuse_newer_and_foreign(void **state)
{
	char *newer = db_path("newer.db"), *foreign = db_path("foreign.db");
	char *missing = db_path("missing.db");
	struct store *s;

	UNUSED(state);
	assert_int_equal(store_open(&s, newer, STORE_CREATE), 0);
	store_close(s);
	exec_raw(newer, "PRAGMA user_version = 999");
	assert_int_equal(store_open(&s, newer, STORE_EXISTING), -1);
	assert_null(s);
	exec_raw(foreign, "CREATE TABLE t (x)");
	assert_int_equal(store_open(&s, foreign, STORE_EXISTING), -1);
	assert_int_equal(store_open(&s, missing, STORE_EXISTING), -1);
	assert_int_equal(access(missing, F_OK), -1);
	free(newer);
	free(foreign);
	free(missing);
}

/* A savepoint rolled back inside a batch undoes only itself. */
static void nested_transactions(void **state)
{
	char *path = db_path("nested.db");
	struct store *s;
	int64_t id;

	UNUSED(state);
	assert_int_equal(store_open(&s, path, STORE_CREATE), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_name_id(s, "kept", 4, &id), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_name_id(s, "undone", 6, &id), 0);
	store_rollback(s);
	assert_int_equal(store_name_id(s, "kept", 4, &id), 0);
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(s->depth, 0);
	assert_int_equal(query_int(s, "SELECT count(*) FROM name"), 1);
	assert_int_equal(query_int(s, "SELECT count(*) FROM name WHERE text = 'kept'"), 1);
	store_close(s);
	free(path);
}

static void name_ids_are_stable(void **state)
{
	char *path = db_path("names.db");
	struct store *s;
	int64_t a, b, c;

	UNUSED(state);
	assert_int_equal(store_open(&s, path, STORE_CREATE), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_name_id(s, "suite::case", 11, &a), 0);
	assert_int_equal(store_name_id(s, "other", 5, &b), 0);
	assert_int_equal(store_name_id(s, "suite::case", 11, &c), 0);
	assert_int_equal(store_commit(s), 0);
	assert_true(a != b);
	assert_true(a == c);
	store_close(s);
	/* A new connection (empty cache) finds the same id. */
	assert_int_equal(store_open(&s, path, STORE_EXISTING), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_name_id(s, "suite::case", 11, &c), 0);
	assert_int_equal(store_commit(s), 0);
	assert_true(a == c);
	store_close(s);
	free(path);
}

static void strings_blob(void **state)
{
	struct strlist in = STRLIST_INIT, out = STRLIST_INIT;
	struct strbuf blob = STRBUF_INIT;
	const char *items[] = { "tests/b.py", "tests/a.py::t2", "tests/a.py::t1",
				"tests/a.py::t1", "", "money:adds" };

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(items); i++)
		strlist_push(&in, items[i]);
	store_strings_encode(&in, &blob);
	assert_int_equal(store_strings_decode(blob.buf, blob.len, &out), 0);
	assert_int_equal(out.nr, 5);
	assert_string_equal(out.items[0], "");
	assert_string_equal(out.items[1], "money:adds");
	assert_string_equal(out.items[2], "tests/a.py::t1");
	assert_string_equal(out.items[3], "tests/a.py::t2");
	assert_string_equal(out.items[4], "tests/b.py");
	strlist_release(&out);
	/* Truncated or garbage blobs are refused, not read past their end. */
	assert_int_equal(store_strings_decode(blob.buf, blob.len - 1, &out), -1);
	strlist_release(&out);
	assert_int_equal(store_strings_decode("\x05\x01x", 3, &out), -1);
	strlist_release(&out);
	assert_int_equal(store_strings_decode("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 10, &out), -1);
	strlist_release(&out);
	strlist_release(&in);
	strbuf_release(&blob);
}

static int setup(void **state)
{
	UNUSED(state);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	int rc;

	UNUSED(state);
	rc = system(cmd);
	free(cmd);
	return rc;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fresh_store),
		cmocka_unit_test(upgrade_from_v1),
		cmocka_unit_test(refuse_newer_and_foreign),
		cmocka_unit_test(nested_transactions),
		cmocka_unit_test(name_ids_are_stable),
		cmocka_unit_test(strings_blob),
	};

	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
