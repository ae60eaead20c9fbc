/* A failing test's kept names and a selection's keyed entries (core/rekey.c): kept and read back whole, refused when cut, keyed as ingest keys them. */
#include "core/tiadash.h"
#include "core/rekey.h"

#include <setjmp.h>
#include <cmocka.h>

#define HEAD "0123456789abcdef0123456789abcdef01234567"

static void round_trip(struct raw_name *in, struct raw_name *out, struct strbuf *blob)
{
	strbuf_reset(blob);
	raw_name_encode(in, blob);
	assert_int_equal(raw_name_decode(blob->buf, blob->len, out), 0);
}

/* Every name comes back as it went in, hostile bytes and empty ones too. */
static void names_kept_whole(void **state)
{
	struct raw_name j = { .kind = RAW_JUNIT, .tree = true, .workdir = "packages/ui",
			      .file = "", .classname = "Toolbar \033[31mrenders",
			      .suite_key = "ui tests", .name = "Toolbar renders" };
	struct raw_name l = { .kind = RAW_LISTED, .spaced = true, .workdir = "",
			      .id = "src/a.test.js > Menu > opens" };
	struct strbuf blob = STRBUF_INIT;
	struct raw_name out;

	UNUSED(state);
	round_trip(&j, &out, &blob);
	assert_int_equal(out.kind, RAW_JUNIT);
	assert_true(out.tree);
	assert_false(out.spaced);
	assert_string_equal(out.workdir, "packages/ui");
	assert_string_equal(out.file, "");
	assert_string_equal(out.classname, "Toolbar \033[31mrenders");
	assert_string_equal(out.suite_key, "ui tests");
	assert_string_equal(out.name, "Toolbar renders");
	raw_name_release(&out);
	round_trip(&l, &out, &blob);
	assert_int_equal(out.kind, RAW_LISTED);
	assert_false(out.tree);
	assert_true(out.spaced);
	assert_string_equal(out.id, "src/a.test.js > Menu > opens");
	raw_name_release(&out);
	strbuf_release(&blob);
}

/* A cut or padded blob is corrupt, whatever byte it stops at; nothing leaks. */
static void cut_blob_refused(void **state)
{
	struct raw_name j = { .kind = RAW_JUNIT, .workdir = "", .file = "a.py",
			      .classname = "a.TestA", .suite_key = "", .name = "test_x" };
	struct strbuf blob = STRBUF_INIT;
	struct raw_name out;

	UNUSED(state);
	raw_name_encode(&j, &blob);
	for (size_t len = 0; len < blob.len; len++)
		assert_int_equal(raw_name_decode(blob.buf, len, &out), -1);
	strbuf_addch(&blob, 'x');
	assert_int_equal(raw_name_decode(blob.buf, blob.len, &out), -1);
	strbuf_reset(&blob);
	strbuf_addch(&blob, 7); /* no such kind */
	assert_int_equal(raw_name_decode(blob.buf, blob.len, &out), -1);
	strbuf_release(&blob);
}

/*
 * Without a tree the id-map alone keys them: jest's describe title to its
 * file (a lower-cased group), a listed id's suite part, a spaced case.
 */
static void keyed_through_the_map(void **state)
{
	struct idmap *map = idmap_new();
	struct identity_cache *cache = identity_cache_new();
	struct strbuf suite = STRBUF_INIT, name = STRBUF_INIT;
	struct raw_name j = { .kind = RAW_JUNIT, .workdir = "", .file = "",
			      .classname = "Toolbar renders", .suite_key = "",
			      .name = "Toolbar renders" };
	struct raw_name l = { .kind = RAW_LISTED, .workdir = "", .id = "Toolbar::Toolbar renders" };
	struct raw_name sp = { .kind = RAW_LISTED, .spaced = true, .workdir = "",
			       .id = "src/ui/menu.test.js > Menu > opens" };
	struct identity *id;

	UNUSED(state);
	assert_int_equal(idmap_add_rule(map, "^(\\w+)( .*)?$ => src/ui/\\L$1\\E.test.js", "t"), 0);
	id = identity_for_run(cache, NULL, HEAD, NULL, NULL, NULL, map);
	assert_int_equal(raw_name_key(id, &j, &suite, &name), ID_NO_TREE);
	assert_string_equal(suite.buf, "src/ui/toolbar.test.js");
	assert_string_equal(name.buf, "Toolbar renders");
	raw_name_key(id, &l, &suite, &name);
	assert_string_equal(suite.buf, "src/ui/toolbar.test.js");
	assert_string_equal(name.buf, "Toolbar renders");
	raw_name_key(id, &sp, &suite, &name);
	assert_string_equal(suite.buf, "src/ui/menu.test.js");
	assert_string_equal(name.buf, "Menu opens");
	/* No rule: the names as written. */
	id = identity_for_run(cache, NULL, HEAD, NULL, NULL, NULL, NULL);
	raw_name_key(id, &j, &suite, &name);
	assert_string_equal(suite.buf, "Toolbar renders");
	strbuf_release(&suite);
	strbuf_release(&name);
	identity_cache_free(cache);
	idmap_free(map);
}

/*
 * A selection's keyed entries: marked as listed, placed among the entries
 * as the store sorts them (one of each: the first's key, the counts added), and read
 * back whole; a blob that is cut, padded, or places an entry outside the
 * entries or twice, is corrupt.
 */
static void keyed_entries_kept(void **state)
{
	static const char *const listed[] = { "Toolbar", "src/a.test.js", "Menu \033[31mopens",
					      "Toolbar" };
	struct keyed_entries k = KEYED_ENTRIES_INIT, out;
	struct strlist entries = STRLIST_INIT, stored = STRLIST_INIT;
	struct strbuf blob = STRBUF_INIT;
	uint32_t mark[4];

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(listed); i++)
		strlist_push(&entries, listed[i]);
	mark[0] = keyed_entry_mark(&k, "packages/web/src/toolbar.test.js", true);
	mark[1] = KEYED_NONE;
	mark[2] = keyed_entry_mark(&k, NULL, false);
	mark[3] = keyed_entry_mark(&k, "packages/web/src/toolbar.test.js", true);
	assert_string_equal(keyed_entry_key(&k, mark[0]), "packages/web/src/toolbar.test.js");
	assert_null(keyed_entry_key(&k, mark[1]));
	assert_null(keyed_entry_key(&k, mark[2]));
	keyed_entries_store(&k, &entries, mark, &blob);
	/* Sorted as the store sorts them; stored as it keeps them, one of each. */
	for (size_t i = 0; i < entries.nr; i++)
		if (!i || strcmp(entries.items[i], entries.items[i - 1]))
			strlist_push(&stored, entries.items[i]);
	/* Stored: "Menu \033[31mopens", "Toolbar", "src/a.test.js". */
	assert_int_equal(keyed_entries_decode(blob.buf, blob.len, &stored, &out), 0);
	assert_int_equal(out.nr, 2);
	assert_int_equal(out.at[0].pos, 0);
	assert_string_equal(out.at[0].entry, "Menu \033[31mopens");
	assert_null(out.at[0].key);
	assert_false(out.at[0].joined);
	assert_int_equal(out.at[0].count, 1);
	assert_int_equal(out.at[1].pos, 1);
	assert_string_equal(out.at[1].entry, "Toolbar");
	assert_string_equal(out.at[1].key, "packages/web/src/toolbar.test.js");
	assert_true(out.at[1].joined);
	assert_int_equal(out.at[1].count, 2);
	keyed_entries_release(&out);
	/* Cut anywhere but after the first entry's 4 bytes (place, key "", join, count). */
	for (size_t len = 1; len < blob.len; len++)
		assert_int_equal(keyed_entries_decode(blob.buf, len, &stored, &out),
				 len == 4 ? 0 : -1), keyed_entries_release(&out);
	strbuf_addch(&blob, 0);
	assert_int_equal(keyed_entries_decode(blob.buf, blob.len, &stored, &out), -1);
	/* The second at the first's place; the first past the entries. */
	strbuf_reset(&blob);
	strbuf_add(&blob, "\0\0\0\1\0\0\0\1", 8);
	assert_int_equal(keyed_entries_decode(blob.buf, blob.len, &stored, &out), -1);
	strbuf_reset(&blob);
	strbuf_add(&blob, "\3\0\0\1", 4);
	assert_int_equal(keyed_entries_decode(blob.buf, blob.len, &stored, &out), -1);
	assert_int_equal(keyed_entries_decode(NULL, 0, &stored, &out), 0);
	assert_int_equal(out.nr, 0);
	keyed_entries_release(&k);
	strlist_release(&entries);
	strlist_release(&stored);
	strbuf_release(&blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_kept_whole),
		cmocka_unit_test(cut_blob_refused),
		cmocka_unit_test(keyed_through_the_map),
		cmocka_unit_test(keyed_entries_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
