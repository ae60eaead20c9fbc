/* The store: migrations, refusal of newer and foreign stores, nested transactions, blobs. */
#include "core/tiadash.h"
#include "core/store.h"
#include "core/paircache.h"
#include "tests/unit/scratch.h"

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
		       "DROP TABLE pair_row; DROP TABLE pair_stale;"
		       "DROP TABLE blind_day; DROP TABLE blind_stale;"
		       "DROP TABLE pair_fact; DROP TABLE pair_unfacted;"
		       "DROP TRIGGER quarantine_ins; DROP TRIGGER quarantine_upd;"
		       "DROP TRIGGER quarantine_del;"
		       "DROP TRIGGER result_ins; DROP TRIGGER result_upd; DROP TRIGGER result_del;"
		       "DROP TRIGGER head_ins; DROP TRIGGER head_upd; DROP TRIGGER head_del;"
		       "DROP TRIGGER run_ins; DROP TRIGGER run_upd; DROP TRIGGER run_del;"
		       "DROP TRIGGER selection_ins; DROP TRIGGER selection_upd;"
		       "DROP TRIGGER selection_del; DROP TRIGGER reason_ins;"
		       "DROP TRIGGER reason_upd; DROP TRIGGER reason_del;"
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
		       "DROP INDEX run_kind; DROP TABLE mainline; DROP TABLE mainline_state;"
		       "DROP INDEX run_main; ALTER TABLE quarantine DROP COLUMN resolved;"
		       "DROP TABLE declared_name; ALTER TABLE selection DROP COLUMN unmatched;"
		       "DROP TABLE generation; DROP TABLE figures;"
		       "ALTER TABLE selection DROP COLUMN ran_broad;"
		       "ALTER TABLE selection DROP COLUMN skipped_named;"
		       "DROP INDEX result_keyed; ALTER TABLE result DROP COLUMN raw;"
		       "ALTER TABLE result DROP COLUMN keyed_by; DROP INDEX quarantine_keyed;"
		       "ALTER TABLE quarantine DROP COLUMN keyed_by;"
		       "ALTER TABLE quarantine DROP COLUMN workdir;"
		       "ALTER TABLE quarantine DROP COLUMN key;"
		       "DROP INDEX selection_keyed; ALTER TABLE selection DROP COLUMN keys;"
		       "ALTER TABLE selection DROP COLUMN keyed_by;"
		       "ALTER TABLE selection DROP COLUMN workdir;"
		       "PRAGMA user_version = 1");
	assert_int_equal(store_open(&s, path, STORE_EXISTING), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(query_int(s, "SELECT count(*) FROM source WHERE uri = 'kept'"), 1);
	assert_int_equal(query_int(s, "SELECT count(*) FROM note"), 0);
	assert_int_equal(query_int(s, "SELECT count(*) FROM run_tests"), 0);
	assert_int_equal(query_int(s, "SELECT count(ran_broad) FROM selection"), 0);
	assert_int_equal(query_int(s, "SELECT count(digest) FROM result"), 0);
	assert_int_equal(query_int(s, "SELECT count(raw) FROM result"), 0);
	assert_int_equal(query_int(s, "SELECT count(keyed_by) FROM quarantine"), 0);
	assert_int_equal(query_int(s, "SELECT count(workdir) + count(key) FROM quarantine"), 0);
	assert_int_equal(query_int(s, "SELECT count(keys) + count(keyed_by) FROM selection"), 0);
	assert_int_equal(query_int(s, "SELECT count(*) FROM blind_day"), 0);
	assert_int_equal(query_int(s, "SELECT count(*) FROM pair_fact"), 0);
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

/* Entries longer than the decoder's first buffer, sharing a long prefix. */
static void strings_blob_long(void **state)
{
	struct strlist in = STRLIST_INIT, out = STRLIST_INIT;
	struct strbuf blob = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;

	UNUSED(state);
	for (int i = 0; i < 300; i++)
		strbuf_addch(&a, (char)('a' + i % 26));
	strbuf_addstr(&b, a.buf);
	for (int i = 0; i < 2000; i++)
		strbuf_addch(&b, 'z');
	strlist_push(&in, "short");
	strlist_push(&in, a.buf);
	strlist_push(&in, b.buf);
	store_strings_encode(&in, &blob);
	assert_int_equal(store_strings_decode(blob.buf, blob.len, &out), 0);
	assert_int_equal(out.nr, 3);
	assert_string_equal(out.items[0], a.buf);
	assert_string_equal(out.items[1], b.buf);
	assert_string_equal(out.items[2], "short");
	strlist_release(&out);
	strlist_release(&in);
	strbuf_release(&blob);
	strbuf_release(&a);
	strbuf_release(&b);
}

static int cmp_qsort(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * strlist_sort (multikey quicksort) against qsort with strcmp: shared
 * prefixes, duplicates, empty strings, bytes above 0x7f (unsigned order),
 * sorted, reversed and one repeated string, at sizes around its cut-offs.
 */
static void strlist_sort_matches_qsort(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 11, 12, 13, 100, 5000, 100000 };
	static const char *const prefixes[] = { "", "tests/pkg0/test_mod.py::test_", "\xc3\xa9",
						"\xff", "a" };
	unsigned seed = 7;

	UNUSED(state);
	for (size_t z = 0; z < ARRAY_SIZE(sizes); z++) {
		for (int shape = 0; shape < 4; shape++) {
			struct strlist l = STRLIST_INIT;
			char **want;
			size_t n = sizes[z];

			for (size_t i = 0; i < n; i++) {
				char buf[80];

				seed = seed * 1103515245 + 12345;
				if (shape == 0)
					snprintf(buf, sizeof(buf), "%s%u", prefixes[(seed >> 4) % 5],
						 (seed >> 8) % (unsigned)(n / 3 + 1));
				else if (shape == 3)
					snprintf(buf, sizeof(buf), "same");
				else
					snprintf(buf, sizeof(buf), "t%08zu", shape == 1 ? i : n - i);
				strlist_push(&l, buf);
			}
			want = xmalloc((n + 1) * sizeof(*want));
			if (n)
				memcpy(want, l.items, n * sizeof(*want));
			if (n)
				qsort(want, n, sizeof(*want), cmp_qsort);
			strlist_sort(&l);
			for (size_t i = 0; i < n; i++)
				if (strcmp(l.items[i], want[i]))
					fail_msg("size %zu shape %d: [%zu] %s != %s", n, shape, i,
						 l.items[i], want[i]);
			free(want);
			strlist_release(&l);
		}
	}
}

/*
 * strlist_sort_carry on input that defeats its pivots: 240 one-byte
 * strings ordered (by McIlroy's adversary against the middle pivot) so
 * that each partition peels off one string, past the recursion bound, to
 * the heapsort; each string's carry moves with it.
 */
static void strlist_sort_hostile(void **state)
{
	static const char bytes[] =
		"\xa3\xdf\xa4\x85\xa5\x86\xa6\xe1\xa7\xe2\xa8\x89\xa9\x8b\xaa\xe4"
		"\xab\xe5\xac\x8e\xad\x8f\xae\xe7\xaf\xe8\xb0\x92\xb1\x94\xb2\xea"
		"\xb3\xeb\xb4\x97\xb5\x98\xb6\xed\xb7\xee\xb8\x9b\xb9\x9d\xba\xf0"
		"\xbb\x4f\xbc\x50\xbd\x52\xbe\x53\xbf\x55\xc0\x56\xc1\x58\xc2\x59"
		"\xc3\x5b\xc4\x5c\xc5\x5e\xc6\x5f\xc7\x61\xc8\x62\xc9\x64\xca\x65"
		"\xcb\x67\xcc\x68\xcd\x6a\xce\x6b\xcf\x6d\xd0\x6e\xd1\x70\xd2\x71"
		"\xd3\x73\xd4\x74\xd5\x76\xd6\x77\xd7\x79\xd8\x7a\xd9\x7c\xda\x7d"
		"\xdb\x7f\xdc\x80\xdd\x82\xde\x83\x01\x02\xe0\x03\x04\x88\x05\x06"
		"\xe3\x07\x08\x8c\x09\x0a\xe6\x0b\x0c\x91\x0d\x0e\xe9\x0f\x10\x95"
		"\x11\x12\xec\x13\x14\x9a\x15\x16\xef\x17\x18\x9e\x19\x1a\x51\x1b"
		"\x1c\x54\x1d\x1e\x57\x1f\x20\x5a\x21\x22\x5d\x23\x24\x60\x25\x26"
		"\x63\x27\x28\x66\x29\x2a\x69\x2b\x2c\x6c\x2d\x2e\x6f\x2f\x30\x72"
		"\x31\x32\x75\x33\x34\x78\x35\x36\x7b\x37\x38\x7e\x39\x3a\x81\x3b"
		"\x3c\x84\x3d\x3e\x87\x3f\x40\x8a\x41\x42\x8d\x43\x44\x90\x45\x46"
		"\x93\x47\x48\x96\x49\x4a\x99\x4b\x4c\x9c\x4d\x4e\x9f\xa0\xa1\xa2";
	struct strlist l = STRLIST_INIT;
	uint32_t carry[sizeof(bytes) - 1];

	UNUSED(state);
	for (size_t i = 0; i + 1 < sizeof(bytes); i++) {
		char s[2] = { bytes[i], 0 };

		strlist_push(&l, s);
		carry[i] = (uint32_t)i;
	}
	strlist_sort_carry(&l, carry);
	for (size_t i = 0; i < l.nr; i++) {
		assert_int_equal((unsigned char)l.items[i][0], i + 1);
		assert_int_equal((unsigned char)bytes[carry[i]], i + 1);
	}
	strlist_release(&l);
}

/* A pair through the pair cache's blob comes back as it went in; a cut blob is refused. */
static void pair_cache_blob(void **state)
{
	struct pair_info p = { 0 }, q;
	struct strbuf blob = STRBUF_INIT;
	struct run_info *r;

	UNUSED(state);
	p.head_id = 42;
	p.repo = xstrdup("org/repo");
	snprintf(p.sha, sizeof(p.sha), "%s", "0123456789abcdef0123456789abcdef01234567");
	p.has_pr = true;
	p.pr = INT64_MAX;
	p.at = -5;
	p.nr = p.alloc = 2;
	p.runs = xcalloc(2, sizeof(*p.runs));
	r = &p.runs[0];
	r->id = 7, r->source_id = 3, r->diff_id = 0, r->kind = RUN_SHADOW, r->attempt = 2;
	r->started_at = INT64_MIN, r->wall_clock_s = NAN, r->verdict = VERDICT_ERROR;
	r->git = RUN_GIT_UNKNOWN, r->tests = 1, r->failures = -1, r->flaky = 9;
	r->decision = DECISION_RUN_ALL, r->has_total = true, r->total_tests = 100;
	r->has_entry_counts = true, r->entries_total = 5, r->has_unmatched = true;
	snprintf(r->base, sizeof(r->base), "%s", "feedface");
	strlist_push(&r->reasons, "force-full:**/*.lock");
	strlist_push(&r->reasons, "");
	r = &p.runs[1];
	r->id = 8, r->kind = RUN_FULL, r->attempt = 1, r->wall_clock_s = 12.5;
	r->has_cov = true, r->cov_lines = 10, r->cov_hit = 4;
	pair_cache_encode(&p, &blob);
	assert_int_equal(pair_cache_decode(blob.buf, blob.len, 42, "org/repo", -5, &q), 0);
	assert_int_equal(q.head_id, 42);
	assert_string_equal(q.repo, "org/repo");
	assert_string_equal(q.sha, p.sha);
	assert_true(q.has_pr && q.pr == INT64_MAX && q.at == -5);
	assert_int_equal(q.nr, 2);
	for (size_t i = 0; i < 2; i++) {
		struct run_info a = p.runs[i], b = q.runs[i];

		assert_int_equal(a.reasons.nr, b.reasons.nr);
		for (size_t j = 0; j < a.reasons.nr; j++)
			assert_string_equal(a.reasons.items[j], b.reasons.items[j]);
		assert_true(isnan(a.wall_clock_s) ? isnan(b.wall_clock_s)
						  : a.wall_clock_s == b.wall_clock_s);
		a.wall_clock_s = b.wall_clock_s = 0;
		memset(&a.reasons, 0, sizeof(a.reasons));
		memset(&b.reasons, 0, sizeof(b.reasons));
		assert_memory_equal(&a, &b, sizeof(a));
	}
	pair_info_release(&q);
	for (size_t n = 0; n < blob.len; n++)
		assert_int_equal(pair_cache_decode(blob.buf, n, 42, "", 0, &q), -1);
	pair_info_release(&p);
	strbuf_release(&blob);
}

static int setup(void **state)
{
	UNUSED(state);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	UNUSED(state);
	return scratch_remove(dir);
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
		cmocka_unit_test(strings_blob_long),
		cmocka_unit_test(strlist_sort_matches_qsort),
		cmocka_unit_test(strlist_sort_hostile),
		cmocka_unit_test(pair_cache_blob),
	};

	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
