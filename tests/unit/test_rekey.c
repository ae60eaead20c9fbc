/* A failing test's kept names (core/rekey.c): kept and read back whole, refused when cut, keyed as ingest keys them. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_kept_whole),
		cmocka_unit_test(cut_blob_refused),
		cmocka_unit_test(keyed_through_the_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
