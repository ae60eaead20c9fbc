/* Test identity through the tree (core/identity.h): every name form, what is never guessed, workspaces. */
#include "core/tiadash.h"
#include "core/identity.h"
#include "core/idmatch.h"
#include "tests/unit/scratch.h"

#include <setjmp.h>
#include <cmocka.h>

static char dir[] = "/tmp/tiadash-identity-XXXXXX";
static char head[41];
static struct repo *repo;
static struct identity_cache *cache;

/* One commit with the files every test below resolves against. */
static int setup(void **state)
{
	UNUSED(state);
	if (!mkdtemp(dir))
		return -1;
	scratch_run(dir, SCRATCH_GIT_ENV "git init -q -b main . && "
	   "mkdir -p tests/exports src/test/java/com/acme svc/src/test/java/com/acme/dup "
	   "lib/src/test/java/com/acme/dup Acme.Billing.Tests other/Tests go/pkg/util "
	   "packages/web/tests packages/api/tests apps/site .moon node_modules/x && "
	   "touch tests/test_tax.py tests/exports/test_csv.py "
	   "src/test/java/com/acme/FooTest.java src/test/java/com/acme/BarSpec.scala "
	   "svc/src/test/java/com/acme/dup/DupTest.java lib/src/test/java/com/acme/dup/DupTest.java "
	   "Acme.Billing.Tests/InvoiceTests.cs other/Tests/InvoiceTests.cs "
	   "go/pkg/util/u_test.go packages/web/tests/a.test.js packages/api/tests/a.test.js "
	   "packages/web/tests/only.test.js node_modules/x/package.json && "
	   "printf 'module example.com/acme/go\\n' >go/go.mod && "
	   "echo '{\"workspaces\": [\"packages/*\", \"!packages/legacy\"]}' >package.json && "
	   "echo '{\"name\": \"@acme/web\"}' >packages/web/package.json && "
	   "echo '{\"name\": \"@acme/api\"}' >packages/api/package.json && "
	   "printf 'projects:\\n  globs: [\"apps/*\"]\\n  sources:\\n    webapp: packages/web\\n' "
	   ">.moon/workspace.yml && printf 'id: site-app\\n' >apps/site/moon.yml && "
	   "git add -A && git add -f node_modules && git commit -qm tree");
	if (repo_open(&repo, dir) < 0 || repo_resolve(repo, "HEAD", head) < 0)
		return -1;
	cache = identity_cache_new();
	return 0;
}

static int teardown(void **state)
{
	UNUSED(state);
	identity_cache_free(cache);
	repo_close(repo);
	return scratch_remove(dir);
}

static struct identity *run(const char *workdir)
{
	return identity_for_run(cache, repo, head, head, workdir, NULL, NULL);
}

/* Resolve key; its key, or "state:key" when it did not resolve to a path. */
static const char *resolved(struct identity *id, const char *key, unsigned flags)
{
	static char buf[512];
	const struct id_result *r = identity_suite(id, key, flags);

	if (r->state == ID_RESOLVED)
		snprintf(buf, sizeof(buf), "%s%s%s", r->key, *r->suffix ? " + " : "", r->suffix);
	else
		snprintf(buf, sizeof(buf), "%s:%s", id_state_name(r->state), r->key);
	return buf;
}

static void paths_and_classnames(void **state)
{
	struct identity *id = run(NULL);

	UNUSED(state);
	assert_string_equal(resolved(id, "tests/test_tax.py", 0), "tests/test_tax.py");
	assert_string_equal(resolved(id, "./tests/exports/", 0), "tests/exports");
	assert_string_equal(resolved(id, "tests\\test_tax.py", 0), "tests/test_tax.py");
	assert_string_equal(resolved(id, "tests.test_tax", 0), "tests/test_tax.py");
	assert_string_equal(resolved(id, "tests.exports.test_csv.TestWidth", 0),
			    "tests/exports/test_csv.py + TestWidth");
	assert_string_equal(resolved(id, "tests.exports.test_csv.TestWidth.TestInner", 0),
			    "tests/exports/test_csv.py + TestWidth::TestInner");
	assert_string_equal(resolved(id, "com.acme.FooTest", 0), "src/test/java/com/acme/FooTest.java");
	assert_string_equal(resolved(id, "com.acme.FooTest$Nested", 0),
			    "src/test/java/com/acme/FooTest.java + Nested");
	assert_string_equal(resolved(id, "com.acme.BarSpec", 0), "src/test/java/com/acme/BarSpec.scala");
	/* .NET: the InvoiceTests.cs whose directories carry the namespace. */
	assert_string_equal(resolved(id, "Acme.Billing.Tests.InvoiceTests", 0),
			    "Acme.Billing.Tests/InvoiceTests.cs");
	assert_string_equal(resolved(id, "Acme.Billing.Tests.InvoiceTests+Nested", 0),
			    "Acme.Billing.Tests/InvoiceTests.cs + Nested");
	assert_string_equal(resolved(id, "example.com/acme/go/pkg/util", 0), "go/pkg/util");
	assert_string_equal(resolved(id, "example.com/acme/go", 0), "go");
	assert_string_equal(resolved(id, "example.com/acme/gone", 0), "not found:example.com/acme/gone");
}

static void never_guessed(void **state)
{
	struct identity *id = run(NULL);

	UNUSED(state);
	/* Two com/acme/dup/DupTest.java: ambiguous, left as written. */
	assert_string_equal(resolved(id, "com.acme.dup.DupTest", 0), "ambiguous:com.acme.dup.DupTest");
	/* Two packages have tests/a.test.js, and no change says which. */
	assert_string_equal(resolved(id, "tests/a.test.js", 0), "ambiguous:tests/a.test.js");
	assert_string_equal(resolved(id, "/home/runner/work/x/tests/test_tax.py", 0),
			    "outside the tree:/home/runner/work/x/tests/test_tax.py");
	assert_string_equal(resolved(id, "C:\\work\\x.dll", 0), "outside the tree:C:\\work\\x.dll");
	assert_string_equal(resolved(id, "../tests/test_tax.py", 0), "outside the tree:../tests/test_tax.py");
	assert_string_equal(resolved(id, "tests/../tests/test_tax.py", 0),
			    "outside the tree:tests/../tests/test_tax.py");
	assert_string_equal(resolved(id, "tests.test_gone", 0), "not found:tests.test_gone");
	/* A token claims no path: a suite name, joined as written. */
	assert_string_equal(resolved(id, "money", 0), "a suite name:money");
	assert_string_equal(resolved(id, "Test suite failed to run", 0),
			    "not found:Test suite failed to run");
}

static void workdirs_and_packages(void **state)
{
	struct identity *id = run("packages/api");
	struct repo_diff change = REPO_DIFF_INIT;
	struct changed_file f = { (char *)"packages/web/src/x.js", NULL, CHANGE_MODIFIED, LINESET_INIT };

	UNUSED(state);
	assert_string_equal(resolved(id, "tests/a.test.js", 0), "packages/api/tests/a.test.js");
	/* Root-relative names still resolve from the root. */
	assert_string_equal(resolved(id, "tests/test_tax.py", 0), "tests/test_tax.py");
	identity_use_workdir(id, NULL);
	/* Under exactly one package directory. */
	assert_string_equal(resolved(id, "tests/only.test.js", 0), "packages/web/tests/only.test.js");
	/* Ambiguous between packages, unless the change touched only one. */
	change.files = &f;
	change.nr = 1;
	id = identity_for_run(cache, repo, head, "base-b", NULL, &change, NULL);
	assert_string_equal(resolved(id, "tests/a.test.js", 0), "packages/web/tests/a.test.js");
	/* node_modules is nobody's package. */
	assert_string_equal(resolved(id, "x/package.json", 0), "not found:x/package.json");
}

static void package_grain(void **state)
{
	struct identity *id = run(NULL);

	UNUSED(state);
	assert_string_equal(resolved(id, "@acme/api", ID_ENTRY), "packages/api");
	assert_string_equal(resolved(id, "webapp", ID_ENTRY), "packages/web");
	assert_string_equal(resolved(id, "site-app", ID_ENTRY), "apps/site");
	/* Only selection entries name packages. */
	assert_string_equal(resolved(id, "@acme/api", 0), "not found:@acme/api");
	assert_string_equal(resolved(id, "@acme/gone", ID_ENTRY), "not found:@acme/gone");
}

static void count_unjoined(const char *name, enum id_state state, void *data)
{
	UNUSED(name);
	if (!id_state_joined(state))
		++*(int *)data;
}

/* A selector's entries, as ingest stores and replay compares them. */
static void selection_lists(void **state)
{
	static const char *const in[] = {
		"site-app", "webapp", "@acme/api", "tests.test_tax::test_vat", "@acme/gone",
	};
	static const char *const out[] = {
		"apps/site", "packages/web", "packages/api", "tests/test_tax.py::test_vat",
		"@acme/gone",
	};
	struct strlist l = STRLIST_INIT;
	int unjoined = 0;

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(in); i++)
		strlist_push(&l, in[i]);
	identity_resolve_list(run(NULL), &l, ID_ENTRY, count_unjoined, &unjoined);
	assert_int_equal(l.nr, ARRAY_SIZE(out));
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		assert_string_equal(l.items[i], out[i]);
	assert_int_equal(unjoined, 1);
	strlist_release(&l);
	/* apps/site by its glob, packages/web by its source. */
	assert_int_equal(identity_moon_projects(run(NULL)), 2);
	assert_int_equal(identity_moon_projects(identity_for_run(cache, NULL, head, head,
								  NULL, NULL, NULL)), 0);
}

/* id into sb as identity_test_id resolves it, asserting its state. */
static void check_id(struct identity *id, const char *text, enum id_state want,
		     const char *expect)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(identity_test_id(id, text, 0, &sb), want);
	assert_string_equal(sb.buf, expect);
	strbuf_release(&sb);
}

/* Quarantine lines and failed-test lists as the producers write them (issue 33). */
static void producer_forms(void **state)
{
	struct identity *id = run(NULL);

	UNUSED(state);
	/* Surefire's -Dtest=Class#method, and Class.method */
	check_id(id, "com.acme.FooTest#testBar", ID_RESOLVED,
		 "src/test/java/com/acme/FooTest.java::testBar");
	check_id(id, "com.acme.FooTest.testBar", ID_RESOLVED,
		 "src/test/java/com/acme/FooTest.java::testBar");
	/* NUnit and xUnit: Namespace.Class.Method */
	check_id(id, "Acme.Billing.Tests.InvoiceTests.Totals", ID_RESOLVED,
		 "Acme.Billing.Tests/InvoiceTests.cs::Totals");
	/* vitest's and jest's title path */
	check_id(id, "tests/exports/test_csv.py > Width > fits", ID_RESOLVED,
		 "tests/exports/test_csv.py::Width > fits");
	/* Go: an import path, then the test after its last '.' */
	check_id(id, "example.com/acme/go/pkg/util.TestParse", ID_RESOLVED, "go/pkg/util::TestParse");
	check_id(id, "example.com/acme/go/pkg/util", ID_RESOLVED, "go/pkg/util");
	/* Never guessed: a missing file is not a class with a case "py" */
	check_id(id, "tests/gone.py", ID_NOT_FOUND, "tests/gone.py");
	check_id(id, "tests/exports.py", ID_NOT_FOUND, "tests/exports.py");
	/* A class that does not exist stays unresolved, '#' form or '.' form */
	check_id(id, "com.acme.NoTest#testBar", ID_NOT_FOUND, "com.acme.NoTest::testBar");
	check_id(id, "com.acme.NoTest.testBar", ID_NOT_FOUND, "com.acme.NoTest.testBar");
	/* An ambiguous class stays ambiguous */
	check_id(id, "com.acme.dup.DupTest#t", ID_AMBIGUOUS, "com.acme.dup.DupTest::t");
}

static void ids_and_reports(void **state)
{
	struct identity *id = run(NULL);
	struct strbuf sb = STRBUF_INIT, cls = STRBUF_INIT;

	UNUSED(state);
	assert_int_equal(identity_test_id(id, "tests.test_tax::test_vat", 0, &sb), ID_RESOLVED);
	assert_string_equal(sb.buf, "tests/test_tax.py::test_vat");
	strbuf_reset(&sb);
	assert_int_equal(identity_test_id(id, "tests.exports.test_csv.TestWidth::test_w", 0, &sb),
			 ID_RESOLVED);
	assert_string_equal(sb.buf, "tests/exports/test_csv.py::TestWidth::test_w");
	strbuf_reset(&sb);
	assert_int_equal(identity_test_id(id, "money:adds", 0, &sb), ID_NAME);
	assert_string_equal(sb.buf, "money:adds");
	strbuf_reset(&sb);
	/* pytest's legacy report: the file, and the class from the classname. */
	assert_int_equal(identity_junit_case(id, "tests/exports/test_csv.py",
					     "tests.exports.test_csv.TestWidth", "pytest", &sb, &cls),
			 ID_RESOLVED);
	assert_string_equal(sb.buf, "tests/exports/test_csv.py");
	assert_string_equal(cls.buf, "TestWidth");
	/* An absolute file attribute loses to a classname that resolves. */
	assert_int_equal(identity_junit_case(id, "/ci/x/FooTest.class", "com.acme.FooTest", NULL,
					     &sb, &cls), ID_RESOLVED);
	assert_string_equal(sb.buf, "src/test/java/com/acme/FooTest.java");
	/* ctest: the classname is the suite; the enclosing suite is not asked. */
	assert_int_equal(identity_junit_case(id, NULL, "money", "tests", &sb, &cls), ID_NAME);
	assert_string_equal(sb.buf, "money");
	strbuf_release(&sb);
	strbuf_release(&cls);
}

static void idmap_for_reports(void **state)
{
	struct idmap *map = idmap_new();
	struct identity *id;
	const struct id_result *r;

	UNUSED(state);
	assert_int_equal(idmap_add_rule(map, "^ledger\\.tests\\. => tests.", "t"), 0);
	id = identity_for_run(cache, repo, head, head, NULL, NULL, map);
	r = identity_suite(id, "ledger.tests.test_tax", ID_MAP);
	assert_int_equal(r->state, ID_RESOLVED);
	assert_string_equal(r->key, "tests/test_tax.py");
	/* A name that resolves as written is not rewritten; entries are not mapped here. */
	assert_string_equal(identity_suite(id, "tests/test_tax.py", ID_MAP)->key, "tests/test_tax.py");
	assert_int_equal(identity_suite(id, "ledger.tests.test_tax", ID_ENTRY)->state, ID_NOT_FOUND);
	idmap_free(map);
	/* A suite name can be mapped to a path too (the man page's ctest recipe). */
	map = idmap_new();
	assert_int_equal(idmap_add_rule(map, "^(\\w+)(:.*)?$ => tests/test_$1.py$2", "t"), 0);
	id = identity_for_run(cache, repo, head, head, NULL, NULL, map);
	r = identity_suite(id, "tax", ID_MAP);
	assert_int_equal(r->state, ID_RESOLVED);
	assert_string_equal(r->key, "tests/test_tax.py");
	idmap_free(map);
}

/*
 * Which names the id-map touches: a rule on the suite part (of SUITE::CASE
 * too), or on the class part of a dotted bare name; not a name it leaves
 * alone, nor any without an id-map.
 */
static void idmap_touches(void **state)
{
	struct idmap *map = idmap_new();
	struct identity *id;

	UNUSED(state);
	assert_int_equal(idmap_add_rule(map, "^(\\w+)( .*)?$ => src/\\L$1\\E.test.js", "t"), 0);
	assert_int_equal(idmap_add_rule(map, "^com\\.acme\\.FooTest$ => tests/test_foo.py", "t"), 0);
	id = identity_for_run(cache, repo, head, head, NULL, NULL, map);
	assert_true(identity_map_touches(id, "Toolbar"));
	assert_true(identity_map_touches(id, "Toolbar renders::Toolbar renders"));
	assert_true(identity_map_touches(id, "com.acme.FooTest.testBar"));
	assert_false(identity_map_touches(id, "src/toolbar.test.js"));
	assert_false(identity_map_touches(id, "tests/test_tax.py::test_vat"));
	assert_false(identity_map_touches(identity_for_run(cache, repo, head, head, NULL, NULL, NULL),
					  "Toolbar"));
	idmap_free(map);
}

static void no_tree(void **state)
{
	struct identity *id = identity_for_run(cache, NULL, head, head, NULL, NULL, NULL);

	UNUSED(state);
	assert_string_equal(resolved(id, "tests/test_tax.py", 0), "no tree:tests/test_tax.py");
	assert_string_equal(resolved(id, "money", 0), "a suite name:money");
	id = identity_for_run(cache, repo, "1111111111111111111111111111111111111111", head, NULL,
			      NULL, NULL);
	assert_string_equal(resolved(id, "tests/test_tax.py", 0), "no tree:tests/test_tax.py");
}

/*
 * Each case brings new keys, so some case grows (moves) the answers between
 * the look-up of its file and of its classname: the first answer must not
 * be held as a pointer across the second (ASan: a use-after-free before).
 */
static void junit_cases_across_growth(void **state)
{
	struct identity *id = identity_for_run(cache, repo, head, head, "growth", NULL, NULL);
	struct strbuf sb = STRBUF_INIT, cls = STRBUF_INIT;
	char file[64], classname[64];

	UNUSED(state);
	for (int i = 0; i < 200; i++) {
		snprintf(file, sizeof(file), "tests/test_%d.py", i);
		snprintf(classname, sizeof(classname), "pkg.mod%d", i);
		assert_int_equal(identity_junit_case(id, file, classname, "pytest", &sb, &cls),
				 ID_NOT_FOUND);
		assert_string_equal(sb.buf, file);
		assert_string_equal(cls.buf, "");
	}
	strbuf_release(&sb);
	strbuf_release(&cls);
}

static void class_entries_select(void **state)
{
	struct idset set = IDSET_INIT;

	UNUSED(state);
	idset_add(&set, NULL, "tests/exports/test_csv.py::TestWidth");
	assert_true(idset_selects(&set, "tests/exports/test_csv.py", "TestWidth::test_w"));
	assert_false(idset_selects(&set, "tests/exports/test_csv.py", "TestOther::test_w"));
	assert_false(idset_selects(&set, "tests/exports/test_csv.py", "TestWidthX::test_w"));
	/* A class selects its cases; it names none of them by id. */
	assert_false(idset_names_case(&set, "tests/exports/test_csv.py", "TestWidth::test_w"));
	idset_add(&set, NULL, "tests/exports/test_csv.py::TestWidth::test_w");
	idset_add(&set, NULL, "tests/exports/");
	idset_add(&set, NULL, "src/t.test.js::Toolbar > renders");
	assert_true(idset_names_case(&set, "tests/exports/test_csv.py", "TestWidth::test_w"));
	assert_false(idset_names_case(&set, "tests/exports/test_csv.py", "TestWidth::test_v"));
	assert_true(idset_selects(&set, "tests/exports/test_csv.py", "test_v"));
	assert_false(idset_names_case(&set, "tests/exports/test_csv.py", "test_v"));
	assert_true(idset_names_case(&set, "src/t.test.js", "Toolbar renders"));
	idset_release(&set);
}

/* vitest's "A > b" and jest's "A b" name one test; an entry keeps one index. */
static void title_paths(void **state)
{
	struct idset set = IDSET_INIT, hashed = IDSET_INIT;

	UNUSED(state);
	idset_add(&set, NULL, "src/t.test.js::Toolbar > renders");
	idset_add(&set, NULL, "src/u.test.js::Menu opens");
	assert_int_equal(idset_size(&set), 2);
	assert_true(idset_selects(&set, "src/t.test.js", "Toolbar > renders"));
	assert_true(idset_selects(&set, "src/t.test.js", "Toolbar renders"));
	assert_true(idset_selects(&set, "src/u.test.js", "Menu > opens"));
	assert_false(idset_selects(&set, "src/t.test.js", "Toolbar > renders twice"));
	assert_false(idset_selects(&set, "src/t.test.js", "Toolbar>renders"));
	idset_add_hashed(&hashed, "src/t.test.js::Toolbar > renders");
	idset_add_hashed(&hashed, "src/u.test.js");
	assert_int_equal(idset_size(&hashed), 2);
	assert_true(idset_selects(&hashed, "src/t.test.js", "Toolbar renders"));
	/* Every entry a title path: each takes two slots, and the table grows for both. */
	for (int i = 0; i < 1000; i++) {
		char e[64];

		snprintf(e, sizeof(e), "src/t.test.js::Suite > case %d", i);
		idset_add_hashed(&hashed, e);
	}
	assert_int_equal(idset_size(&hashed), 1002);
	assert_true(idset_selects(&hashed, "src/t.test.js", "Suite case 999"));
	idset_release(&hashed);
	/* 32 of them fill 64 slots unless variants count: a miss must still end. */
	for (int i = 0; i < 32; i++) {
		char e[64];

		snprintf(e, sizeof(e), "src/t.test.js::Suite > case %d", i);
		idset_add_hashed(&hashed, e);
	}
	assert_false(idset_selects(&hashed, "src/u.test.js", "Suite case 1"));
	idset_release(&set);
	idset_release(&hashed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paths_and_classnames),
		cmocka_unit_test(never_guessed),
		cmocka_unit_test(workdirs_and_packages),
		cmocka_unit_test(package_grain),
		cmocka_unit_test(selection_lists),
		cmocka_unit_test(ids_and_reports),
		cmocka_unit_test(producer_forms),
		cmocka_unit_test(idmap_for_reports),
		cmocka_unit_test(idmap_touches),
		cmocka_unit_test(no_tree),
		cmocka_unit_test(class_entries_select),
		cmocka_unit_test(junit_cases_across_growth),
		cmocka_unit_test(title_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
