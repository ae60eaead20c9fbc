/* Selector adapters (adapters/): answers read as selections and configs as rules, exact values. */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "core/sanitize.h"
#include "core/rules.h"
#include "tests/unit/capture.h"
#include "tests/unit/scratch.h"

#include <setjmp.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATA "tests/data/native/"
#define VITEST_ROOT "/home/runner/work/ledger-web/ledger-web"

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(read_file_limit(&sb, path, 0), 0);
	return strbuf_detach(&sb, NULL);
}

/* "decision [reasons] count entries..." */
static char *answer_str(const struct adapter_answer *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s [", decision_name(a->decision));
	for (size_t i = 0; i < a->reasons.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", a->reasons.items[i]);
	strbuf_addch(&sb, ']');
	if (a->has_selected)
		strbuf_addf(&sb, " %" PRId64, a->selected_count);
	else
		strbuf_addstr(&sb, " -");
	for (size_t i = 0; i < a->entries.nr; i++)
		strbuf_addf(&sb, " %s", a->entries.items[i]);
	return strbuf_detach(&sb, NULL);
}

/* Read text (a literal) as format f and compare the answer, or the error. */
static void expect_text(const struct adapter *f, const struct adapter_opts *o,
			const char *name, const char *text, const char *want)
{
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	char *msg, *got;
	int rc;

	capture_begin();
	rc = adapter_read_answer(f, text, strlen(text), name, o, &a);
	msg = capture_end();
	if (rc == 0) {
		got = answer_str(&a);
		assert_string_equal(msg, "");
		assert_string_equal(got, want);
		free(got);
	} else {
		assert_int_equal(rc, -1);
		assert_string_equal(msg, want);
		assert_int_equal(a.entries.nr, 0);
	}
	free(msg);
	adapter_answer_release(&a);
}

static void expect_file(const struct adapter *f, const struct adapter_opts *o,
			const char *path, const char *want)
{
	char *text = slurp(path);

	expect_text(f, o, path, text, want);
	free(text);
}

static void format_names(void **state)
{
	static const struct { const char *name; const struct adapter *f; } cases[] = {
		{ "vitest", &adapter_vitest }, { "turbo", &adapter_turbo },
		{ "testmon", &adapter_testmon }, { "pytest", &adapter_testmon },
		{ "moon", &adapter_moon }, { "gstack", &adapter_gstack },
		{ "cbm", &adapter_cbm }, { "codebase-memory-mcp", &adapter_cbm },
		{ "jest", NULL }, { "Vitest", NULL }, { "", NULL }, { "lists", NULL },
		{ "harness", NULL },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_ptr_equal(adapter_find_answer(cases[i].name), cases[i].f);
	assert_ptr_equal(adapter_find("lists"), &adapter_lists);
	assert_ptr_equal(adapter_find("harness"), &adapter_harness);
	assert_string_equal(adapter_testmon.name, "testmon");
	assert_string_equal(adapter_answer_names, "vitest, turbo, testmon, moon, gstack, cbm");
}

static void vitest_examples(void **state)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;

	UNUSED(state);
	o.root = VITEST_ROOT;
	expect_file(&adapter_vitest, &o, DATA "vitest/list.json",
		    "selected [] 5 src/money/format.test.ts src/exports/csv.test.ts");
	o.root = VITEST_ROOT "/";
	expect_file(&adapter_vitest, &o, DATA "vitest/list-files.json",
		    "selected [] - src/money/format.test.ts src/exports/csv.test.ts");
	expect_file(&adapter_vitest, NULL, DATA "vitest/list-empty.json", "nothing [] 0");
	/* A list relative already (converted by hand), with ./ */
	expect_text(&adapter_vitest, NULL, "l.json",
		    "[{\"name\": \"a\", \"file\": \"./src/a.test.ts\", \"projectName\": \"unit\", "
		    "\"location\": {\"line\": 3, \"column\": 1}}]",
		    "selected [] 1 src/a.test.ts");
}

static void vitest_errors(void **state)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;
	char *text = slurp(DATA "vitest/list.json");
	char *cut = xstrndup(text, 200);

	UNUSED(state);
	expect_text(&adapter_vitest, NULL, "list.json", cut,
		    "tiadash: error: list.json:7: vitest list output: unexpected end "
		    "of input (truncated?)\n");
	expect_text(&adapter_vitest, NULL, "list.json", text,
		    "tiadash: error: list.json:4: vitest list output: '" VITEST_ROOT
		    "/src/money/format.test.ts' is an absolute path: give the directory "
		    "the tool ran in (\"root\" in the manifest's selection, "
		    "--selection-root) so it can be made repository-relative\n");
	o.root = "/home/runner/work/other";
	expect_text(&adapter_vitest, &o, "list.json", text,
		    "tiadash: error: list.json:4: vitest list output: '" VITEST_ROOT
		    "/src/money/format.test.ts' is not under the root "
		    "'/home/runner/work/other'\n");
	expect_text(&adapter_vitest, NULL, "v.json", "{\"tests\": []}",
		    "tiadash: error: v.json:1: vitest list output: expected an array of "
		    "{\"name\", \"file\"} (vitest list --json)\n");
	expect_text(&adapter_vitest, NULL, "v.json", "[{\"name\": \"t\"}]",
		    "tiadash: error: v.json:1: vitest list output: element 0 has no "
		    "\"file\" string\n");
	expect_text(&adapter_vitest, NULL, "v.json", "[\"src/a.test.ts\"]",
		    "tiadash: error: v.json: vitest list output: element 0 is not an object\n");
	expect_text(&adapter_vitest, NULL, "v.json",
		    "[{\"name\": \"t\", \"file\": \"a.ts\"},\n {\"file\": \"b.ts\"}]",
		    "tiadash: error: v.json: vitest list output: mixes tests (with "
		    "\"name\") and files (without): not one vitest list\n");
	expect_text(&adapter_vitest, NULL, "v.json", "[{\"file\": \"../up/a.ts\"}]",
		    "tiadash: error: v.json:1: vitest list output: '../up/a.ts' is not a "
		    "path inside the repository\n");
	expect_text(&adapter_vitest, NULL, "v.json", " \n",
		    "tiadash: error: v.json:1: vitest list output: empty file (vitest "
		    "prints [] when it selects nothing)\n");
	/* The whole suite's list may follow the answer (the adapter's command). */
	expect_text(&adapter_vitest, NULL, "v.json", "[]\n[]", "nothing [] 0");
	expect_text(&adapter_vitest, NULL, "v.json", "[]\n[] x",
		    "tiadash: error: v.json (the whole suite's list, from line 2):1: "
		    "vitest list output: unexpected end of input (truncated?)\n");
	expect_text(&adapter_vitest, NULL, "v.json", "[{\"file\": \"a.ts\"}]\n[{\"name\": 1, \"file\": \"b.ts\"}]",
		    "tiadash: error: v.json (the whole suite's list, from line 2):1: "
		    "vitest list output: element 0: \"name\" is not a string\n");

	free(cut);
	free(text);
}

/* vitest runs every file when a trigger fires, silently: an answer that lists them all. */
static void vitest_whole_suite(void **state)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;
	const char *two = "[{\"name\": \"a\", \"file\": \"t/a.test.js\"},\n"
			  " {\"name\": \"b\", \"file\": \"t/b.test.js\"}]\n";

	UNUSED(state);
	{
		char *all = xstrfmt("%s[{\"file\": \"t/b.test.js\"}, {\"file\": \"t/a.test.js\"}]\n", two);
		char *more = xstrfmt("%s[{\"file\": \"t/a.test.js\"}, {\"file\": \"t/b.test.js\"},"
				     " {\"file\": \"t/c.test.js\"}]\n", two);

		expect_text(&adapter_vitest, NULL, "l.json", all,
			    "run_all [vitest:whole-suite] 2 t/a.test.js t/b.test.js");
		expect_text(&adapter_vitest, NULL, "l.json", more,
			    "selected [] 2 t/a.test.js t/b.test.js");
		/* An empty suite and an empty answer: nothing to run. */
		expect_text(&adapter_vitest, NULL, "l.json", "[]\n[]\n", "nothing [] 0");
		free(all);
		free(more);
	}
	o.has_total_tests = true;
	o.total_tests = 2;
	expect_text(&adapter_vitest, &o, "l.json", two,
		    "run_all [vitest:whole-suite] 2 t/a.test.js t/b.test.js");
	o.total_tests = 3;
	expect_text(&adapter_vitest, &o, "l.json", two, "selected [] 2 t/a.test.js t/b.test.js");
}

static void turbo_examples(void **state)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;

	UNUSED(state);
	/* money#build is a dependency of the requested test tasks: left out. */
	expect_file(&adapter_turbo, NULL, DATA "turbo/dry-run.json",
		    "selected [] - packages/money apps/web");
	expect_file(&adapter_turbo, NULL, DATA "turbo/ls-affected.json",
		    "selected [] - packages/money apps/web");
	o.has_total_packages = true;
	o.total_packages = 2;
	expect_file(&adapter_turbo, &o, DATA "turbo/ls-affected.json",
		    "run_all [turbo:all-packages-affected] - packages/money apps/web");
	expect_file(&adapter_turbo, &o, DATA "turbo/dry-run.json",
		    "run_all [turbo:all-packages-affected] - packages/money apps/web");
	o.total_packages = 5;
	expect_file(&adapter_turbo, &o, DATA "turbo/dry-run.json",
		    "selected [] - packages/money apps/web");
	expect_text(&adapter_turbo, NULL, "d.json", "{\"monorepo\": true, \"tasks\": []}",
		    "nothing [] -");
	expect_text(&adapter_turbo, NULL, "l.json",
		    "{\"packageManager\": \"npm\", \"packages\": {\"count\": 0, \"items\": []}}",
		    "nothing [] -");
	expect_text(&adapter_turbo, NULL, "d.json",
		    "{\"monorepo\": false, \"tasks\": [{\"taskId\": \"test\", \"task\": "
		    "\"test\", \"dependents\": []}]}",
		    "run_all [turbo:single-package] -");
	expect_text(&adapter_turbo, NULL, "d.json",
		    "{\"monorepo\": true, \"tasks\": [{\"taskId\": \"//#test\", \"task\": "
		    "\"test\", \"package\": \"//\", \"directory\": \"\", \"dependents\": []},"
		    "{\"taskId\": \"a#test\", \"task\": \"test\", \"package\": \"a\", "
		    "\"directory\": \"pkgs\\\\a\", \"dependents\": []}]}",
		    "run_all [turbo:root-task] - pkgs/a");
}

static void turbo_errors(void **state)
{
	UNUSED(state);
	expect_text(&adapter_turbo, NULL, "t.json", "{\"turboVersion\": \"2.5.4\"}",
		    "tiadash: error: t.json:1: turbo output: neither a dry run "
		    "({\"tasks\": [...]}, turbo run --dry=json) nor a package list "
		    "({\"packages\": {\"items\": [...]}}, turbo ls --output=json)\n");
	expect_text(&adapter_turbo, NULL, "t.json",
		    "{\"packages\": {\"count\": 3,\n \"items\": [{\"name\": \"a\", \"path\": \"a\"}]}}",
		    "tiadash: error: t.json:1: turbo output: \"count\" is 3 but there are "
		    "1 items (truncated?)\n");
	expect_text(&adapter_turbo, NULL, "t.json", "{\"tasks\": [{\"task\": \"test\"}]}",
		    "tiadash: error: t.json: turbo output: tasks[0] has no \"taskId\" and "
		    "\"task\" strings\n");
	expect_text(&adapter_turbo, NULL, "t.json",
		    "{\"monorepo\": true,\n\"tasks\": [{\"taskId\": \"a#test\", \"task\": \"test\"}]}",
		    "tiadash: error: t.json:2: turbo output: a#test: a monorepo task without "
		    "\"package\" and \"directory\" strings\n");
	expect_text(&adapter_turbo, NULL, "t.json",
		    "{\"packages\": {\"count\": 1, \"items\": [{\"name\": \"a\"}]}}",
		    "tiadash: error: t.json: turbo output: packages.items[0] has no "
		    "\"name\" and \"path\" strings\n");
}

static void testmon_examples(void **state)
{
	UNUSED(state);
	expect_file(&adapter_testmon, NULL, DATA "testmon/collect-only.txt",
		    "selected [] 5 tests/exports/test_ledger_csv.py::test_header_row "
		    "tests/exports/test_ledger_csv.py::test_amount_column_width "
		    "tests/exports/test_ledger_csv.py::TestLocale::test_grouping[de_DE] "
		    "tests/exports/test_ledger_csv.py::TestLocale::test_grouping[en_US] "
		    "tests/money/test_format.py::test_format_money_keyword_locale");
	expect_file(&adapter_testmon, NULL, DATA "testmon/collect-none.txt", "nothing [] 0");
	expect_file(&adapter_testmon, NULL, DATA "testmon/collect-warnings.txt",
		    "selected [] 2 tests/money/test_format.py::test_format_money_keyword_locale "
		    "tests/money/test_format.py::test_format_money_rounding");
	expect_file(&adapter_testmon, NULL, DATA "testmon/collect-errors.txt",
		    "run_all [selector-error] -");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "a.py::t\r\n\r\n1 test collected in 65.03s (0:01:05)\r\n",
		    "selected [] 1 a.py::t");
	expect_text(&adapter_testmon, NULL, "c.txt", "no tests collected (7 deselected) in 0.02s\n",
		    "nothing [] 0");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "x.py::a\nx.py::b\n\n2 tests collected in 1.00s (1 day, 2:03:04)\n",
		    "selected [] 2 x.py::a x.py::b");
}

static void testmon_errors(void **state)
{
	UNUSED(state);
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "tests/a.py::test_a\ntests/b.py::test_b\n\n3 tests collected in 0.01s\n",
		    "tiadash: error: c.txt:4: pytest collect-only output: the summary counts "
		    "3 tests but 2 node ids are listed (truncated?)\n");
	expect_text(&adapter_testmon, NULL, "c.txt", "tests/a.py::test_a\ntests/b.py::te",
		    "tiadash: error: c.txt: pytest collect-only output: no summary line "
		    "(\"N tests collected in Xs\"): truncated, or not pytest -q "
		    "--collect-only output\n");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "collected 2 items\n<Module tests/a.py>\n",
		    "tiadash: error: c.txt:1: pytest collect-only output: not a test node "
		    "id (PATH::NAME): 'collected 2 items' (give pytest -q --collect-only "
		    "output)\n");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "a.py::t\n\n1 test collected in 0.01s\nextra\n",
		    "tiadash: error: c.txt:4: pytest collect-only output: unexpected line "
		    "after the summary: 'extra'\n");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "a.py::t\n\n1/9 tests collected (7 deselected) in 0.01s\n",
		    "tiadash: error: c.txt:3: pytest collect-only output: the summary does "
		    "not add up (1 + 7 deselected is not 9)\n");
	expect_text(&adapter_testmon, NULL, "c.txt",
		    "a.py::t\na.py::t\n\n2 tests collected in 0.01s\n",
		    "tiadash: error: c.txt:1: pytest collect-only output: a node id is "
		    "listed twice\n");
}

static void moon_examples(void **state)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;

	UNUSED(state);
	expect_file(&adapter_moon, NULL, DATA "moon/projects-affected.json",
		    "selected [] - apps/web packages/money");
	/* Tasks name no directory: the projects' ids, of test tasks only. */
	expect_file(&adapter_moon, NULL, DATA "moon/tasks-affected.json",
		    "selected [] - money web");
	o.has_total_packages = true;
	o.total_packages = 2;
	expect_file(&adapter_moon, &o, DATA "moon/projects-affected.json",
		    "run_all [moon:all-projects-affected] - apps/web packages/money");
	expect_text(&adapter_moon, NULL, "m.json",
		    "{\"projects\": [{\"id\": \"root\", \"source\": \".\"}], "
		    "\"options\": {\"affected\": {}}}",
		    "run_all [moon:root-project] -");
	expect_text(&adapter_moon, NULL, "m.json",
		    "{\"projects\": [], \"options\": {\"affected\": {}}}", "nothing [] -");
	expect_text(&adapter_moon, NULL, "m.json",
		    "{\"projects\": [{\"id\": \"a\", \"source\": \"a\"}],\n"
		    "\"options\": {\"affected\": null}}",
		    "tiadash: error: m.json:2: moon query output: not an --affected query "
		    "(\"options\".\"affected\" is missing): every project would count as "
		    "selected\n");
	expect_text(&adapter_moon, NULL, "m.json",
		    "{\"tasks\": {\"web\": {\"test\": {\"target\": \"web:test\"}}}, "
		    "\"options\": {\"affected\": {}}}",
		    "tiadash: error: m.json:1: moon query output: tasks.web.test has no "
		    "\"target\" and \"type\" strings\n");
	expect_text(&adapter_moon, NULL, "m.json", "[]",
		    "tiadash: error: m.json:1: moon query output: neither {\"projects\": "
		    "[...]} (moon query projects) nor {\"tasks\": {...}} (moon query tasks)\n");
}

static void gstack_examples(void **state)
{
	UNUSED(state);
	expect_file(&adapter_gstack, NULL, DATA "gstack/key.json",
		    "selected [] - test/gen-skill-docs.test.ts browse/test/commands.test.ts "
		    "test/telemetry.test.ts");
	expect_file(&adapter_gstack, NULL, DATA "gstack/key-all.json",
		    "run_all [gstack:key-code-changed] - browse/test/snapshot.test.ts "
		    "test/skill-validation.test.ts");
	expect_text(&adapter_gstack, NULL, "k.json",
		    "[{\"file\": \"a.test.ts\", \"key\": \"sha256:00\"}]", "nothing [] -");
	expect_text(&adapter_gstack, NULL, "k.json",
		    "[\n{\"file\": \"a.test.ts\", \"key\": null}]",
		    "tiadash: error: k.json:2: gstack key output: a.test.ts: no key and no "
		    "reason (gstack says why a file has no key)\n");
	expect_text(&adapter_gstack, NULL, "k.json",
		    "[{\"file\": \"a.test.ts\", \"key\": 7}]",
		    "tiadash: error: k.json:1: gstack key output: a.test.ts: \"key\" is "
		    "neither a key nor null\n");
	expect_text(&adapter_gstack, NULL, "k.json", "{\"files\": []}",
		    "tiadash: error: k.json:1: gstack key output: expected an array of "
		    "{\"file\", \"key\"} (scripts/test-impact.ts key --json)\n");
}

static void cbm_through_native(void **state)
{
	UNUSED(state);
	expect_file(&adapter_cbm, NULL, DATA "cbm/selection-engine.json",
		    "selected [] - alpha beta:b_one beta:b_two");
}

/*
 * testmon's node ids are stored as written. pytest's default JUnit
 * (junit_family=xunit2) keys a test by its dotted classname, so a team
 * bridges the two with id-map rules; these three are the ones the man page
 * gives.
 */
static void testmon_idmap_recipe(void **state)
{
	struct idmap *map = idmap_new();
	struct idset set = IDSET_INIT;
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	char *text = slurp(DATA "testmon/collect-only.txt");

	UNUSED(state);
	assert_int_equal(idmap_add_rule(map, "^([^:]*)\\.py:: => $1::", "t"), 0);
	assert_int_equal(idmap_add_rule(map, "/(?=[^:]*::) => .", "t"), 0);
	assert_int_equal(idmap_add_rule(map, "::(?=[A-Za-z_]\\w*::) => .", "t"), 0);
	assert_int_equal(adapter_read_answer(&adapter_testmon, text, strlen(text), "c.txt",
					     NULL, &a), 0);
	for (size_t i = 0; i < a.entries.nr; i++)
		idset_add(&set, map, a.entries.items[i]);
	assert_true(idset_selects(&set, "tests.exports.test_ledger_csv.TestLocale",
				  "test_grouping[de_DE]"));
	assert_true(idset_selects(&set, "tests.exports.test_ledger_csv", "test_header_row"));
	assert_true(idset_selects(&set, "tests.money.test_format",
				  "test_format_money_keyword_locale"));
	assert_false(idset_selects(&set, "tests.money.test_format", "test_other"));
	assert_false(idset_selects(&set, "tests.exports.test_ledger_csv",
				   "test_grouping[de_DE]"));
	idset_release(&set);
	idmap_free(map);
	adapter_answer_release(&a);
	free(text);
}

/* ---- configs as rules ---- */

static char *describe(const struct rules *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr; i++) {
		const struct rule *x = &r->items[i];

		strbuf_addf(&sb, "%s %s %s %s", rules_action_name(x->action), x->glob,
			    x->id, x->origin);
		for (size_t t = 0; t < x->tests.nr; t++)
			strbuf_addf(&sb, " [%s]", x->tests.items[t]);
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb, NULL);
}

/* Load path as rules; compare them (or the error) and the warnings. */
static void expect_rules(const char *path, const char *text, const char *want,
			 const char *messages)
{
	struct rules r = RULES_INIT;
	char *msg, *got;
	int rc;

	capture_begin();
	rc = text ? adapter_read_rules(&r, text, strlen(text), path) : rules_load_file(&r, path);
	msg = capture_end();
	got = describe(&r);
	assert_string_equal(msg, messages);
	if (want) {
		assert_int_equal(rc, 0);
		assert_string_equal(got, want);
	} else {
		assert_int_equal(rc, -1);
	}
	free(got);
	free(msg);
	rules_release(&r);
}

static void detect(void **state)
{
	static const struct { const char *path, *text; const struct adapter *f; int variant; } cases[] = {
		{ "vitest.config.ts", "", &adapter_vitest, 0 },
		{ "web/vite.config.mjs", "", &adapter_vitest, 0 },
		{ "turbo.json", "{}", &adapter_turbo, 0 },
		{ "ci/turbo-root.json", "{\"globalDependencies\": []}", &adapter_turbo, 0 },
		{ ".codebase-memory.json", "{}", &adapter_cbm, 0 },
		{ "x/.gstack/always-run.json", "[]", &adapter_gstack, 0 },
		{ "always-run.json", "[]", &adapter_cbm, 0 },
		{ ".moon/tasks.yml", "", &adapter_moon, 3 },
		{ "/r/.moon/tasks/node.yaml", "", &adapter_moon, 1 },
		{ "apps/web/moon.yml", "", &adapter_moon, 2 },
		{ "harness.yaml", "", &adapter_harness, 0 },
		{ "rules.json", "[]", &adapter_cbm, 0 },
		{ ".tiadash/rules", "", &adapter_lists, 0 },
		{ "force-full.txt", "  {", &adapter_cbm, 0 },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int variant;

		assert_ptr_equal(adapter_detect(cases[i].path, cases[i].text,
						strlen(cases[i].text), &variant), cases[i].f);
		if (cases[i].f == &adapter_moon)
			assert_int_equal(variant, cases[i].variant);
	}
}

static void vitest_config(void **state)
{
	UNUSED(state);
	expect_rules(DATA "vitest/vitest.config.ts", NULL,
		     "run_all **/package-lock.json vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:12\n"
		     "run_all **/pnpm-lock.yaml vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:12\n"
		     "run_all **/vitest.config.* vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:12\n"
		     "run_all **/vite.config.* vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:13\n"
		     "run_all **/playwright.config.* vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:13\n"
		     "run_all **/.env* vitest:forceRerunTriggers " DATA "vitest/vitest.config.ts:14\n",
		     "tiadash: warning: " DATA "vitest/vitest.config.ts:13: vitest config: "
		     "'src/test-utils/**' never fires: vitest matches forceRerunTriggers "
		     "against absolute paths, so a glob must start with '**/' (write "
		     "'**/src/test-utils/**'); left out of the rules\n"
		     "tiadash: warning: " DATA "vitest/vitest.config.ts:14: vitest config: "
		     "'migrations/**' never fires: vitest matches forceRerunTriggers "
		     "against absolute paths, so a glob must start with '**/' (write "
		     "'**/migrations/**'); left out of the rules\n");
	/* Comments, strings, templates and regexes that mention it are not it. */
	expect_rules("vitest.config.mjs",
		     "// forceRerunTriggers: ['no']\n"
		     "/* forceRerunTriggers: ['no'] */\n"
		     "const s = 'forceRerunTriggers: [\\'no\\']', t = `${a}forceRerunTriggers ${ {b: '}'} }`\n"
		     "const re = /forceRerunTriggers: ['\"]/g, half = 1 / 2 / 3\n"
		     "export default { test: { 'forceRerunTriggers': [\n"
		     "  \"**/a\\\\[b].json\", `**/c`, // trailing\n"
		     "] } }\n",
		     "run_all **/a\\[b].json vitest:forceRerunTriggers vitest.config.mjs:6\n"
		     "run_all **/c vitest:forceRerunTriggers vitest.config.mjs:6\n", "");
	expect_rules("vite.config.ts", "export default defineConfig({ test: {} })\n",
		     "run_all **/package.json vitest:default vite.config.ts (vitest 3.2.7 default: no forceRerunTriggers)\n"
		     "run_all **/{vitest,vite}.config.* vitest:default vite.config.ts (vitest 3.2.7 default: no forceRerunTriggers)\n",
		     "");
	/* vitest's own defaults spread in; what cannot be evaluated is named and left out. */
	expect_rules("vitest.config.ts",
		     "import { configDefaults } from 'vitest/config'\n"
		     "export default { test: {\n"
		     "  forceRerunTriggers: [...configDefaults.forceRerunTriggers, '**/config/**',\n"
		     "    ...extra, path.join('a', 'b'), '**/x/**'],\n"
		     "} }\n",
		     "run_all **/package.json vitest:forceRerunTriggers vitest.config.ts:3\n"
		     "run_all **/{vitest,vite}.config.* vitest:forceRerunTriggers vitest.config.ts:3\n"
		     "run_all **/config vitest:forceRerunTriggers vitest.config.ts:3\n"
		     "run_all **/x vitest:forceRerunTriggers vitest.config.ts:4\n",
		     "tiadash: warning: vitest.config.ts:4: vitest config: forceRerunTriggers "
		     "element '...extra' cannot be evaluated by tiadash: left out of the "
		     "rules (the rules may miss what it adds)\n"
		     "tiadash: warning: vitest.config.ts:4: vitest config: forceRerunTriggers "
		     "element 'path.join('a', 'b')' cannot be evaluated by tiadash: left out "
		     "of the rules (the rules may miss what it adds)\n");
}

static void vitest_config_refusals(void **state)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "const t = ['**/x']\nexport default { test: { forceRerunTriggers: t } }",
		  "tiadash: error: vitest.config.ts:2: vitest config: forceRerunTriggers is "
		  "not an array literal (tiadash reads only a literal "
		  "`forceRerunTriggers: ['glob', ...]`)\n" },
		{ "export default { test: { forceRerunTriggers: [],\nforceRerunTriggers: [] } }",
		  "tiadash: error: vitest.config.ts:2: vitest config: forceRerunTriggers is "
		  "set twice (also on line 1) (tiadash reads only a literal "
		  "`forceRerunTriggers: ['glob', ...]`)\n" },
		{ "export default { test: { forceRerunTriggers: [`**/${dir}/x`] } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: a template literal with "
		  "${...} (tiadash reads only a literal `forceRerunTriggers: ['glob', "
		  "...]`)\n" },
		{ "export default { test: { forceRerunTriggers: ['**/x\n'] } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: unterminated string "
		  "literal (tiadash reads only a literal `forceRerunTriggers: ['glob', "
		  "...]`)\n" },
		{ "const t = base.test.forceRerunTriggers",
		  "tiadash: error: vitest.config.ts:1: vitest config: forceRerunTriggers is "
		  "used as a value, not written as a literal (tiadash reads only a "
		  "literal `forceRerunTriggers: ['glob', ...]`)\n" },
		{ "export default { test: { forceRerunTriggers } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: forceRerunTriggers is not "
		  "followed by ':' (tiadash reads only a literal `forceRerunTriggers: "
		  "['glob', ...]`)\n" },
		{ "/* unterminated\n forceRerunTriggers: []",
		  "tiadash: error: vitest.config.ts:1: vitest config: unterminated comment "
		  "(tiadash reads only a literal `forceRerunTriggers: ['glob', ...]`)\n" },
		{ "export default { test: { forceRerunTriggers: ['**/a\\nb'] } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: escape sequence '\\n' in "
		  "a glob (tiadash reads only a literal `forceRerunTriggers: ['glob', "
		  "...]`)\n" },
		{ "export default { test: { forceRerunTriggers: ['!**/x'] } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: negated "
		  "forceRerunTriggers glob '!**/x' is not supported\n" },
		{ "export default { test: { forceRerunTriggers: ['**/@(a|b).ts'] } }",
		  "tiadash: error: vitest.config.ts:1: vitest config: extglob '**/@(a|b).ts' "
		  "is not supported\n" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		expect_rules("vitest.config.ts", cases[i].text, NULL, cases[i].message);
	/* A name vitest.config.* only: v.config.ts above is read by detection on content. */
	{
		int variant;

		assert_ptr_equal(adapter_detect("v.config.ts", "", 0, &variant), &adapter_lists);
	}
}

/*
 * Only the exported config's test options are vitest's: a `test: {` or a
 * forceRerunTriggers (or setupFiles) in a plugin's options is not read.
 */
static void vitest_config_scope(void **state)
{
	static const struct { const char *text, *want; } configs[] = {
		{ "export default defineConfig({ test: { forceRerunTriggers: ['**/a'] } })\n", ":1" },
		{ "export default defineConfig(() => ({ test: { forceRerunTriggers: ['**/a'] } }))\n",
		  ":1" },
		{ "export default defineConfig(async ({ mode }) => {\n  const o = { test: { x: 1 } }\n"
		  "  return { test: { forceRerunTriggers: ['**/a'] } }\n})\n", ":3" },
		{ "export default mergeConfig(base, defineConfig({ test: { forceRerunTriggers: "
		  "['**/a'] } }))\n", ":1" },
		{ "export default mergeConfig(base, { test: { 'forceRerunTriggers': ['**/a'] } })\n",
		  ":1" },
		{ "export default defineProject({ test: { forceRerunTriggers: ['**/a'] } })\n", ":1" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(configs); i++) {
		char *want = xstrfmt("run_all **/a vitest:forceRerunTriggers vitest.config.ts%s\n",
				     configs[i].want);

		expect_rules("vitest.config.ts", configs[i].text, want, "");
		free(want);
	}
	expect_rules("vitest.config.ts",
		     "import { defineConfig } from 'vitest/config'\n"
		     "import p from 'p'\n"
		     "export default defineConfig({\n"
		     "  plugins: [p({ test: { forceRerunTriggers: ['**/p'], setupFiles: ['./p.ts'] } })],\n"
		     "  test: { forceRerunTriggers: ['**/a'], setupFiles: './s.ts' },\n"
		     "})\n",
		     "run_all **/a vitest:forceRerunTriggers vitest.config.ts:5\n"
		     "run_all /s.ts vitest:setupFiles vitest.config.ts:5\n",
		     "tiadash: warning: vitest.config.ts:4: vitest config: a forceRerunTriggers "
		     "outside the test options of the exported config (export default "
		     "defineConfig({ test: {...} })) is not vitest's: left out of the rules\n");
}

/* A setupFiles entry is a trigger too; packages and paths out of the tree are not. */
static void vitest_setup_files(void **state)
{
	UNUSED(state);
	expect_rules("vitest.config.ts",
		     "export default { test: {\n"
		     "  setupFiles: ['./tests/setup.ts', 'vitest-localstorage-mock',\n"
		     "    '@testing-library/jest-dom/vitest', 'src/[id]/env.ts', helper()],\n"
		     "  forceRerunTriggers: ['**/fixtures/**'],\n} }\n",
		     "run_all **/fixtures vitest:forceRerunTriggers vitest.config.ts:4\n"
		     "run_all /tests/setup.ts vitest:setupFiles vitest.config.ts:2\n"
		     "run_all /src/\\[id\\]/env.ts vitest:setupFiles vitest.config.ts:3\n",
		     "tiadash: warning: vitest.config.ts:3: vitest config: setupFiles element "
		     "'helper()' cannot be evaluated by tiadash: left out of the rules (the "
		     "rules may miss what it adds)\n");
	expect_rules("vitest.config.ts",
		     "export default { test: { setupFiles: '../outside.ts' } }\n",
		     "run_all **/package.json vitest:default vitest.config.ts (vitest 3.2.7 "
		     "default: no forceRerunTriggers)\n"
		     "run_all **/{vitest,vite}.config.* vitest:default vitest.config.ts (vitest "
		     "3.2.7 default: no forceRerunTriggers)\n",
		     "tiadash: warning: vitest.config.ts:1: vitest config: setupFiles entry "
		     "'../outside.ts' is outside the repository: left out of the rules\n");
}

static const struct rule *rule_by_glob(const struct rules *r, const char *glob)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].glob, glob))
			return &r->items[i];
	fail_msg("no rule for %s", glob);
	return NULL;
}

/* "action reason" for a lockfile edit from before to after (NULL: absent). */
static char *judged(const struct rule *x, const char *before, const char *after)
{
	const char *why;
	enum rule_action a = rules_judge(x, before, before ? strlen(before) : 0, after,
					 after ? strlen(after) : 0, &why);

	return xstrfmt("%s %s", rules_action_name(a), why);
}

static void expect_judged(const struct rule *x, const char *before, const char *after,
			  const char *want)
{
	char *got = judged(x, before, after);

	assert_string_equal(got, want);
	free(got);
}

/* What turbo 2.11.11 decides for lockfile edits (tests/t4410-replay-turbo.sh measures it). */
static void turbo_lockfiles(void **state)
{
	struct rules r = RULES_INIT;
	const struct rule *npm, *pnpm;
	const char *lock = "{\"name\": \"m\", \"lockfileVersion\": 3, \"requires\": true, "
			   "\"packages\": {\"\": {\"name\": \"m\"}, \"node_modules/left-pad\": "
			   "{\"version\": \"1.3.0\"}}}";
	const char *bump = "{\"name\": \"m\", \"lockfileVersion\": 3, \"requires\": true, "
			   "\"packages\": {\"\": {\"name\": \"m\"}, \"node_modules/left-pad\": "
			   "{\"version\": \"1.3.1\"}}}";
	const char *loose = "{\"name\": \"m\", \"lockfileVersion\": 3, \"requires\": false, "
			    "\"packages\": {\"\": {\"name\": \"m\"}}}";
	const char *v2 = "{\"lockfileVersion\": 2, \"requires\": true, \"packages\": {}}";
	const char *v1 = "{\"lockfileVersion\": 1, \"requires\": true, \"dependencies\": {\"a\": {}}}";
	const char *pn = "lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\n"
			 "importers:\n  .: {}\n  packages/a:\n    dependencies:\n      left-pad:\n"
			 "        specifier: ^1.3.0\n        version: 1.3.0\n";
	const char *pn_bump = "lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\n"
			      "importers:\n  .: {}\n  packages/a:\n    dependencies:\n      left-pad:\n"
			      "        specifier: ^1.3.0\n        version: 1.3.1\n";
	const char *pn_peers = "lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: false\n"
			       "importers:\n  .: {}\n";
	const char *pn_other = "lockfileVersion: '9.0'\nsettings:\n  autoInstallPeers: true\n"
			       "  injectWorkspacePackages: true\nimporters:\n  .: {}\n";

	UNUSED(state);
	assert_int_equal(adapter_read_rules(&r, "{}", 2, "turbo.json"), 0);
	npm = rule_by_glob(&r, "/package-lock.json");
	pnpm = rule_by_glob(&r, "/pnpm-lock.yaml");
	assert_int_equal(npm->action, RULE_SELECT);
	/* Attributed: turbo's to map to the packages that use it. */
	expect_judged(npm, lock, bump, "select select:/package-lock.json");
	expect_judged(npm, lock, " \n" "{\"packages\": {\"\": {\"name\": \"m\"}, \"node_modules/left-pad\": "
		      "{\"version\": \"1.3.0\"}}, \"lockfileVersion\": 3, \"requires\": true}",
		      "select select:/package-lock.json");
	/* Global changes and unreadable sides: every package. */
	expect_judged(npm, lock, loose, "run_all turbo:lockfile-global-change");
	expect_judged(npm, lock, v2, "run_all turbo:lockfile-global-change");
	expect_judged(npm, lock, "{\"lockfileVersion\": 3, \"packages\": {}}",
		      "run_all turbo:lockfile-global-change");
	expect_judged(npm, v1, v1, "run_all turbo:lockfile-unreadable");
	expect_judged(npm, lock, "{not json", "run_all turbo:lockfile-unreadable");
	expect_judged(npm, NULL, lock, "run_all turbo:lockfile-unreadable");
	expect_judged(npm, lock, NULL, "run_all turbo:lockfile-unreadable");
	expect_judged(npm, lock, "{\"lockfileVersion\": 3, \"packages\": {\"x\": {\"version\": 1}}}",
		      "run_all turbo:lockfile-unreadable");
	expect_judged(pnpm, pn, pn_bump, "select select:/pnpm-lock.yaml");
	expect_judged(pnpm, pn, pn_other, "select select:/pnpm-lock.yaml");
	expect_judged(pnpm, pn, pn_peers, "run_all turbo:lockfile-global-change");
	expect_judged(pnpm, pn, "lockfileVersion: '6.0'\nimporters: {}\n",
		      "run_all turbo:lockfile-global-change");
	expect_judged(pnpm, pn, "importers: [\n", "run_all turbo:lockfile-unreadable");
	rules_release(&r);
}

static void turbo_config(void **state)
{
	UNUSED(state);
	expect_rules(DATA "turbo/turbo.json", NULL,
		     "run_all /turbo.json turbo:turbo.json " DATA "turbo/turbo.json (turbo: the configuration itself)\n"
		     "run_all /turbo.jsonc turbo:turbo.json " DATA "turbo/turbo.json (turbo: the configuration itself)\n"
		     "run_all /.env turbo:globalDependencies " DATA "turbo/turbo.json:4\n"
		     "run_all /tsconfig.base.json turbo:globalDependencies " DATA "turbo/turbo.json:4\n"
		     "run_all /vitest.shared.ts turbo:tasks.test.inputs " DATA "turbo/turbo.json:15\n"
		     "select /package-lock.json turbo:lockfile " DATA "turbo/turbo.json (turbo 2.11: a lockfile edit)\n"
		     "select /pnpm-lock.yaml turbo:lockfile " DATA "turbo/turbo.json (turbo 2.11: a lockfile edit)\n",
		     "");
	/* Without affectedUsingTaskInputs, turbo --affected ignores task inputs. */
	expect_rules("turbo.json",
		     "{\"globalDependencies\": [\"config/*.json\", \"**/.env\", \"!**/*.md\"],\n"
		     " \"tasks\": {\"test\": {\"inputs\": [\"$TURBO_ROOT$/x.ts\"]}}}",
		     "run_all /turbo.json turbo:turbo.json turbo.json (turbo: the configuration itself)\n"
		     "run_all /turbo.jsonc turbo:turbo.json turbo.json (turbo: the configuration itself)\n"
		     "run_all config/*.json turbo:globalDependencies turbo.json:1\n"
		     "run_all **/.env turbo:globalDependencies turbo.json:1\n"
		     "select /package-lock.json turbo:lockfile turbo.json (turbo 2.11: a lockfile edit)\n"
		     "select /pnpm-lock.yaml turbo:lockfile turbo.json (turbo 2.11: a lockfile edit)\n",

		     "tiadash: warning: turbo.json:1: turbo config: negated glob '!**/*.md' "
		     "left out (tiadash rules match first to last, without negation): the "
		     "rules fire on what it excludes\n");
	expect_rules("turbo.json", "{\"extends\": [\"//\"]}", NULL,
		     "tiadash: error: turbo.json: turbo config: a package configuration "
		     "(\"extends\"): give the repository's root turbo.json\n");
	expect_rules("turbo.json", "{\"globalDependencies\": \".env\"}", NULL,
		     "tiadash: error: turbo.json: turbo config: globalDependencies is not a "
		     "list of globs\n");
	expect_rules("turbo.json", "{\n  \"globalDependencies\": [\n", NULL,
		     "tiadash: error: turbo.json:2: turbo config: unexpected end of input "
		     "(truncated?)\n");
}

static void harness_config(void **state)
{
	UNUSED(state);
	expect_rules(DATA "harness/harness.yml", NULL,
		     "run_all ledger/settings/** harness:no_subset_paths " DATA "harness/harness.yml:5\n"
		     "run_all ledger/db/migrations/** harness:no_subset_paths " DATA "harness/harness.yml:6\n"
		     "run_all **/conftest.py harness:no_subset_paths " DATA "harness/harness.yml:7\n"
		     "run_all pyproject.toml harness:no_subset_paths " DATA "harness/harness.yml:8\n"
		     "run_all poetry.lock harness:no_subset_paths " DATA "harness/harness.yml:9\n"
		     "run_all requirements*.txt harness:no_subset_paths " DATA "harness/harness.yml:10\n"
		     "run_all ledger/generated/** harness:no_subset_paths " DATA "harness/harness.yml:11\n"
		     "run_all .github/workflows/** harness:no_subset_paths " DATA "harness/harness.yml:12\n",
		     "");
	expect_rules("h.yml", "selection:\n  no_subset_paths: [a/**, 'b']\n",
		     "run_all a/** harness:no_subset_paths h.yml:2\n"
		     "run_all b harness:no_subset_paths h.yml:2\n", "");
	expect_rules("h.yml", "selection:\n  no_subset_paths: a/**\n", NULL,
		     "tiadash: error: h.yml:2: harness config: selection.no_subset_paths "
		     "is not a list\n");
	expect_rules("h.yml", "selection:\n  unmapped_tests: always_run\n", "", "");
	expect_rules("h.yml", "tests:\n  unmapped: always_run\n", NULL,
		     "tiadash: error: h.yml: harness config: no selection.no_subset_paths "
		     "list (a YAML rules file is a harness config, .moon/tasks.yml or a "
		     "moon.yml)\n");
	expect_rules("h.yml", "selection:\n  no_subset_paths:\n    - [a, b]\n", NULL,
		     "tiadash: error: h.yml:3: harness config: a no_subset_paths entry is "
		     "not a glob\n");
	expect_rules("h.yml", "selection:\n  no_subset_paths:\n    - \"a\n", NULL,
		     "tiadash: error: h.yml:4: harness config: invalid YAML: found "
		     "unexpected end of stream while scanning a quoted scalar\n");
}

#define MOON_IMPLICIT "run_all /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml} moon:implicit-inputs "
#define MOON_ALL DATA "moon/.moon/tasks/all.yml"

static void moon_config(void **state)
{
	UNUSED(state);
	expect_rules(MOON_ALL, NULL,
		     MOON_IMPLICIT MOON_ALL " (moon 2.5: every task's inputs)\n"
		     "run_all /.moon/tasks/all.yml moon:tasks-file " MOON_ALL " (moon 2.5: an "
		     "input of the tasks it defines)\n"
		     "run_all /pnpm-lock.yaml moon:implicitInputs " MOON_ALL ":13\n"
		     "run_all /tsconfig.base.json moon:tasks.test.inputs " MOON_ALL ":20\n"
		     "run_all /vitest.shared.ts moon:tasks.test.inputs " MOON_ALL ":21\n"
		     "run_all /.eslintrc.cjs moon:tasks.lint.inputs " MOON_ALL ":27\n"
		     "run_all /eslint-rules/**/*.js moon:tasks.lint.inputs " MOON_ALL ":28\n",
		     "");
	expect_rules(DATA "moon/apps/web/moon.yml", NULL,
		     MOON_IMPLICIT DATA "moon/apps/web/moon.yml (moon 2.5: every task's inputs)\n"
		     "select /playwright.config.ts moon:tasks.e2e.inputs " DATA "moon/apps/web/moon.yml:10 [apps/web]\n"
		     "select /fixtures/seed.sql moon:tasks.e2e.inputs " DATA "moon/apps/web/moon.yml:11 [apps/web]\n",
		     "");
	/* A file of tasks some projects inherit: theirs, which moon tells. */
	expect_rules("ws/.moon/tasks/node.yml",
		     "inheritedBy:\n  toolchains: ['node']\ntasks:\n  t:\n    command: 'x'\n",
		     MOON_IMPLICIT "ws/.moon/tasks/node.yml (moon 2.5: every task's inputs)\n"
		     "select /.moon/tasks/node.yml moon:tasks-file ws/.moon/tasks/node.yml "
		     "(moon 2.5: an input of the tasks it defines)\n", "");
	/* moon 1's name: moon 2 reads neither its tasks nor its implicitInputs. */
	expect_rules(".moon/tasks.yml", "implicitInputs: ['/x']\ntasks:\n  t:\n    command: 'x'\n",
		     MOON_IMPLICIT ".moon/tasks.yml (moon 2.5: every task's inputs)\n",
		     "tiadash: warning: .moon/tasks.yml: moon 2 does not read "
		     ".moon/tasks.yml (moon 1's name; it reads .moon/tasks/**/*.yml): its "
		     "tasks and implicitInputs are left out (a change to it still affects "
		     "every task, as one of /.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml})\n");
	expect_rules(".moon/tasks/all.yml",
		     "tasks:\n  t:\n    inputs:\n      - 'glob://!/docs/**'\n      - 'weird://x'\n",
		     NULL,
		     "tiadash: warning: .moon/tasks/all.yml:4: moon config: negated input "
		     "'!/docs/**' left out (tiadash rules match first to last, without "
		     "negation): the rules fire on what it excludes\n"
		     "tiadash: error: .moon/tasks/all.yml:5: moon config: unknown input URI "
		     "'weird://x'\n");
	expect_rules(".moon/tasks/all.yml", "tasks:\n  t:\n    inputs: '/x'\n", NULL,
		     "tiadash: error: .moon/tasks/all.yml:3: moon config: tasks.t.inputs is "
		     "not a list\n");
}

/* coverage.compatibility_paths: their change refuses the coverage map, whatever rule they meet. */
static void cbm_compatibility_paths(void **state)
{
	struct rules r = RULES_INIT;
	const char *text = "{\"test_impact\": {\"version\": 1,\n"
			   " \"coverage\": {\"compatibility_paths\": [\"tests/run[1].sh\", \"Makefile.cov\"]},\n"
			   " \"rules\": [{\"id\": \"contracts\", \"paths\": [\"tests/**/*.sh\"], \"action\": \"ignore\"}]}}";

	UNUSED(state);
	assert_int_equal(adapter_read_rules(&r, text, strlen(text), ".codebase-memory.json"), 0);
	assert_string_equal(r.items[0].glob, "/tests/run\\[1\\].sh");
	assert_string_equal(r.items[0].id, "cbm:coverage.compatibility_paths");
	assert_string_equal(r.items[0].origin, ".codebase-memory.json:2");
	assert_int_equal(r.items[1].action, RULE_RUN_ALL);
	assert_int_equal(rules_compile(&r), 0);
	assert_int_equal(rules_match(&r, "tests/run[1].sh"), 0);
	assert_int_equal(rules_match(&r, "Makefile.cov"), 1);
	assert_string_equal(r.items[rules_match(&r, "tests/other.sh")].id, "contracts");
	rules_release(&r);
	expect_rules(".codebase-memory.json",
		     "{\"test_impact\": {\"coverage\": {\"compatibility_paths\": [\"../x\"]}}}",
		     NULL, "tiadash: error: .codebase-memory.json:1: "
		     "test_impact.coverage.compatibility_paths: an entry is not a "
		     "repository-relative file\n");
	expect_rules(".codebase-memory.json",
		     "{\"test_impact\": {\"coverage\": {\"compatibility_paths\": \"x\"}}}",
		     NULL, "tiadash: error: .codebase-memory.json: "
		     "test_impact.coverage.compatibility_paths must be a list of files\n");
}

#define GSTACK DATA "gstack/.gstack/always-run.json"
#define GSTACK_DOC GSTACK " (gstack: docs/test-impact.md)"

static void gstack_config(void **state)
{
	UNUSED(state);
	expect_rules(GSTACK, NULL,
		     "run_all /scripts/test-impact.ts gstack:key-code " GSTACK_DOC "\n"
		     "run_all /lib/test-impact/** gstack:key-code " GSTACK_DOC "\n"
		     "run_all /scripts/test-free-shards.ts gstack:key-code " GSTACK_DOC "\n"
		     "run_all /lib/pregate/import-graph.ts gstack:key-code " GSTACK_DOC "\n"
		     "run_all /lib/pregate/lane-selection.ts gstack:key-code " GSTACK_DOC "\n"
		     "run_all /bun.lock gstack:key-input " GSTACK_DOC "\n"
		     "run_all **/tsconfig*.json gstack:key-input " GSTACK_DOC "\n"
		     "run_all /.gstack/pregate.json gstack:key-input " GSTACK_DOC "\n"
		     "select test/gen-skill-docs.test.ts gstack:always-run " GSTACK ":2 [test/gen-skill-docs.test.ts]\n"
		     "select test/skill-e2e-*.test.ts gstack:always-run " GSTACK ":3 [test/skill-e2e-*.test.ts]\n",
		     "");
	expect_rules("x/.gstack/always-run.json", "[\"a.test.ts\", 3]", NULL,
		     "tiadash: error: x/.gstack/always-run.json: gstack always-run list: "
		     "an entry is not a test file path\n");
	expect_rules("x/.gstack/always-run.json", "{\"tests\": []}", NULL,
		     "tiadash: error: x/.gstack/always-run.json:1: gstack always-run "
		     "list: expected an array of test files (or {\"files\": [...]})\n");
}

static void diff_output(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
	const char *b = "1\n2\n3\n4\n5\n6\nsix\n7\n8\n9\n";

	UNUSED(state);
	adapter_diff(&out, "f.orig", a, strlen(a), "f", b, strlen(b));
	assert_string_equal(out.buf,
		"--- f.orig\n+++ f\n@@ -4,6 +4,7 @@\n 4\n 5\n 6\n+six\n 7\n 8\n 9\n");
	strbuf_reset(&out);
	adapter_diff(&out, "f.orig", "a\nb", 3, "f", "a\nb\nc\n", 6);
	assert_string_equal(out.buf,
		"--- f.orig\n+++ f\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n");
	strbuf_reset(&out);
	adapter_diff(&out, "/dev/null", "", 0, "r", "x\n", 2);
	assert_string_equal(out.buf, "--- /dev/null\n+++ r\n@@ -0,0 +1,1 @@\n+x\n");
	strbuf_reset(&out);
	adapter_diff(&out, "a", "same\n", 5, "b", "same\n", 5);
	assert_string_equal(out.buf, "");
	strbuf_release(&out);
}

/* ---- writing ---- */

static char tmpdir[64];

static char *write_tmp(const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", tmpdir, name);
	FILE *f;

	assert_int_equal(mkdir_for_file(path), 0);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* s with "@" standing for the temporary directory; NULL stays NULL. Caller frees. */
static char *expand_at(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		return NULL;
	for (const char *p = s; *p; p++) {
		if (*p == '@')
			strbuf_addstr(&sb, tmpdir);
		else
			strbuf_addch(&sb, *p);
	}
	return strbuf_detach(&sb, NULL);
}

/* Plan adding glob to a file holding text; compare the new text (or snippet, or error). */
static void expect_plan(const char *name, const char *text, const char *glob,
			const char *want_text, const char *want_snippet,
			const char *messages)
{
	struct adapter_edit e = ADAPTER_EDIT_INIT;
	char *path = write_tmp(name, text), *msg;
	char *want_msg = expand_at(messages), *snippet = expand_at(want_snippet);
	int rc;

	capture_begin();
	rc = adapter_plan_add(path, glob, INT64_C(1794096000000), &e);
	msg = capture_end();
	assert_string_equal(msg, want_msg);
	if (!want_text && !want_snippet) {
		assert_int_equal(rc, -1);
	} else {
		assert_int_equal(rc, 0);
		assert_false(e.present);
		assert_int_equal(e.writable, want_text != NULL);
		if (want_text)
			assert_string_equal(e.new_text.buf, want_text);
		else
			assert_string_equal(e.snippet, snippet);
	}
	adapter_edit_release(&e);
	free(want_msg);
	free(snippet);
	free(msg);
	free(path);
}

static void plan_writes(void **state)
{
	UNUSED(state);
	/* A tiadash rule file or a plain glob list: a dated line. */
	expect_plan("rules", "a/**", "#x",
		    "a/**\n# added by tiadash rules --add, 2026-11-08\n\\#x\n", NULL, "");
	expect_plan("rules", "", "select",
		    NULL, NULL, "tiadash: error: 'select' would read as an action, not a "
		    "glob, in a rule file\n");
	/* turbo.json: globalDependencies, created first when missing; JSONC kept. */
	expect_plan("turbo.json",
		    "{\n  // shared\n  \"globalDependencies\": [\n    \".env\"\n  ],\n  \"tasks\": {}\n}\n",
		    "config/*.yml",
		    "{\n  // shared\n  \"globalDependencies\": [\n    \".env\",\n    \"config/*.yml\"\n  ],\n  \"tasks\": {}\n}\n",
		    NULL, "");
	expect_plan("turbo.json", "{\n  \"tasks\": {}\n}\n", "/tools/x.sh",
		    "{\n  \"globalDependencies\": [\"tools/x.sh\"],\n  \"tasks\": {}\n}\n",
		    NULL, "");
	expect_plan("turbo.json", "{\"globalDependencies\": []}", "*.sql",
		    "{\"globalDependencies\": [\"**/*.sql\"]}", NULL, "");
	/* A ']' inside a string is not the end of the list. */
	expect_plan("turbo.json", "{\"globalDependencies\": [\"[ab]]\"]}", "x/y",
		    "{\"globalDependencies\": [\"[ab]]\", \"x/y\"]}", NULL, "");
	/* .codebase-memory.json: one more rule, last. */
	expect_plan(".codebase-memory.json",
		    "{\"test_impact\": {\"version\": 1, \"rules\": [\n"
		    "  {\"id\": \"tiadash-force-full\", \"paths\": [\"a\"], \"action\": \"ignore\"}\n]}}\n",
		    "src/registry/**",
		    "{\"test_impact\": {\"version\": 1, \"rules\": [\n"
		    "  {\"id\": \"tiadash-force-full\", \"paths\": [\"a\"], \"action\": \"ignore\"},\n"
		    "  {\"id\": \"tiadash-force-full-2\", \"paths\": [\"src/registry/**\"], \"action\": \"run_all\"}\n]}}\n",
		    NULL, "");
	expect_plan(".codebase-memory.json", "{\"test_impact\": {\"version\": 1}}", "a/**",
		    "{\"test_impact\": {\"rules\": [{\"id\": \"tiadash-force-full\", \"paths\": "
		    "[\"a/**\"], \"action\": \"run_all\"}], \"version\": 1}}", NULL, "");
	/* .gstack/always-run.json: array or {"files": [...]}. */
	expect_plan(".gstack/always-run.json", "[]\n", "test/x.test.ts",
		    "[\"test/x.test.ts\"]\n", NULL, "");
	expect_plan(".gstack/always-run.json", "{\"files\": [\"a.test.ts\"]}", "b.test.ts",
		    "{\"files\": [\"a.test.ts\", \"b.test.ts\"]}", NULL, "");
	/* A harness YAML: the block list keeps its style, comments and all. */
	expect_plan("h.yml",
		    "selection:\n  no_subset_paths:\n  - 'a/**'   # why\n  full: 3\n",
		    "b's/**",
		    "selection:\n  no_subset_paths:\n  - 'a/**'   # why\n  - 'b''s/**'\n  full: 3\n",
		    NULL, "");
	expect_plan("h.yml", "selection: {no_subset_paths: [a, \"b\"], x: 1}\n", "c/**",
		    "selection: {no_subset_paths: [a, \"b\", \"c/**\"], x: 1}\n", NULL, "");
	expect_plan("h.yml", "selection: {no_subset_paths: []}\n", "c",
		    "selection: {no_subset_paths: [\"c\"]}\n", NULL, "");
	/* Refused before anything is read. */
	expect_plan("turbo.json", "{}", "!a", NULL, NULL,
		    "tiadash: error: '!a': a negated glob is not a force-full trigger\n");
	expect_plan("turbo.json", "{}", "a\tb", NULL, NULL,
		    "tiadash: error: 'a\\x09b': a glob must not hold control characters, "
		    "bidirectional formatting characters or invalid UTF-8\n");
	expect_plan("turbo.json", "{}", "a/[b", NULL, NULL,
		    "tiadash: error: 'a/[b': unterminated '[' in 'a/[b'\n");
	expect_plan("turbo.json", "{\"globalDependencies\": [", "a", NULL, NULL,
		    "tiadash: error: @/turbo.json:1: turbo config: unexpected end of "
		    "input (truncated?)\n");
}

static void plan_present(void **state)
{
	struct adapter_edit e = ADAPTER_EDIT_INIT;
	char *path = write_tmp("turbo.json", "{\"globalDependencies\": [\".env\"]}");

	UNUSED(state);
	/* ".env" is "/.env" in tiadash's terms, and so is "/.env". */
	assert_int_equal(adapter_plan_add(path, "/.env", 0, &e), 0);
	assert_true(e.present);
	assert_false(e.writable);
	adapter_edit_release(&e);
	assert_int_equal(adapter_plan_add(path, ".env", 0, &e), 0);
	assert_false(e.present);
	assert_string_equal(e.new_text.buf,
			    "{\"globalDependencies\": [\".env\", \"**/.env\"]}");
	adapter_edit_release(&e);
	free(path);
}

static void plan_in_place(void **state)
{
	UNUSED(state);
	/* vitest: the element goes last, on its own line, the trailing comma kept. */
	expect_plan("vitest.config.ts",
		    "export default { test: {\n  forceRerunTriggers: [\n    \"**/a\", // why\n  ],\n} }\n",
		    "/src/registry/**",
		    "export default { test: {\n  forceRerunTriggers: [\n    \"**/a\",\n"
		    "    \"**/src/registry/**\", // why\n  ],\n} }\n", NULL, "");
	expect_plan("vitest.config.ts",
		    "export default { test: { forceRerunTriggers: [...configDefaults.forceRerunTriggers] } }\n",
		    "*.sql",
		    "export default { test: { forceRerunTriggers: [...configDefaults.forceRerunTriggers, "
		    "'**/*.sql'] } }\n", NULL, "");
	/* None set: vitest's defaults and the glob, first in the test block. */
	expect_plan("vitest.config.ts",
		    "import { defineConfig } from 'vitest/config'\n"
		    "export default defineConfig({\n  test: {\n    environment: 'node',\n  },\n})\n",
		    "*.sql",
		    "import { defineConfig } from 'vitest/config'\n"
		    "export default defineConfig({\n  test: {\n    forceRerunTriggers: "
		    "['**/package.json/**', '**/{vitest,vite}.config.*/**', '**/*.sql'],\n"
		    "    environment: 'node',\n  },\n})\n", NULL, "");
	expect_plan("vitest.config.ts", "export default {}\n", "*.sql", NULL, NULL,
		    "tiadash: error: @/vitest.config.ts: vitest config: no `test: {` "
		    "block in the exported config: tiadash cannot tell where forceRerunTriggers goes; add to the "
		    "test options: forceRerunTriggers: ['**/package.json/**', "
		    "'**/{vitest,vite}.config.*/**', '**/*.sql']\n");
	/* Never into a plugin's options: the config's own test object, or refused. */
	expect_plan("vitest.config.ts",
		    "export default defineConfig(() => ({\n  plugins: [p({ test: {} })],\n"
		    "  test: { environment: 'node' },\n}))\n", "*.sql",
		    "export default defineConfig(() => ({\n  plugins: [p({ test: {} })],\n"
		    "  test: {\n    forceRerunTriggers: ['**/package.json/**', "
		    "'**/{vitest,vite}.config.*/**', '**/*.sql'], environment: 'node' },\n}))\n",
		    NULL, "");
	expect_plan("vitest.config.ts",
		    "export default defineConfig({\n  plugins: [p({\n    test: { include: [] },\n"
		    "  })],\n})\n", "*.sql", NULL, NULL,
		    "tiadash: error: @/vitest.config.ts: vitest config: its `test: {` on line 3 "
		    "is not the exported config's test options (a plugin's options?), and "
		    "vitest reads only those of `export default defineConfig({ test: {...} "
		    "})`: tiadash cannot tell where forceRerunTriggers goes; add to the test "
		    "options: forceRerunTriggers: ['**/package.json/**', "
		    "'**/{vitest,vite}.config.*/**', '**/*.sql']\n");
	/* moon: implicitInputs, added when absent; a project's moon.yml is refused. */
	expect_plan(".moon/tasks/all.yml", "tasks:\n  test:\n    command: x\n", "*.sql",
		    "tasks:\n  test:\n    command: x\nimplicitInputs:\n  - '/**/*.sql'\n",
		    NULL, "");
	expect_plan(".moon/tasks/all.yml", "implicitInputs:\n  - '/a/**'\ntasks: {}\n",
		    "b/**", "implicitInputs:\n  - '/a/**'\n  - '/b/**'\ntasks: {}\n", NULL, "");
	expect_plan("apps/moon.yml", "tasks: {}\n", "b/**", NULL, NULL,
		    "tiadash: error: @/apps/moon.yml: a project's moon.yml cannot make "
		    "every project affected: accept '/b/**' into .moon/tasks/all.yml (its "
		    "implicitInputs), or add it to a task's inputs by hand\n");
	/* harness: the list, or the block, added when absent. */
	expect_plan("h.yml", "selection:\n  other: 1\n", "c",
		    "selection:\n  other: 1\n  no_subset_paths:\n    - 'c'\n", NULL, "");
	/* gstack names test files: a glob that names none is refused. */
	expect_plan(".gstack/always-run.json", "[]\n", "lib/data.json", NULL, NULL,
		    "tiadash: error: @/.gstack/always-run.json: gstack's always-run list "
		    "names test files, and 'lib/data.json' names none: gstack has no list "
		    "of paths that force a full run (its key code and key inputs do; see "
		    "docs/test-impact.md)\n");
}

/* Nothing that could drive a terminal or fool a reader goes into a file raw (issue 19). */
static void plan_refuses_controls(void **state)
{
	static const char *const globs[] = {
		"a\033[31m/**", "a\xc2\x9b/**", "a\xe2\x80\xae/**", "a\xe2\x81\xa6/**",
		"a\xff/**", "a\x7f",
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(globs); i++) {
		struct strbuf safe = STRBUF_INIT;
		char *want;

		sanitize_text(&safe, globs[i], strlen(globs[i]));
		want = xstrfmt("tiadash: error: '%s': a glob must not hold control "
			       "characters, bidirectional formatting characters or "
			       "invalid UTF-8\n", safe.buf);
		expect_plan("rules", "", globs[i], NULL, NULL, want);
		expect_plan("turbo.json", "{}", globs[i], NULL, NULL, want);
		free(want);
		strbuf_release(&safe);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(format_names),
		cmocka_unit_test(vitest_examples),
		cmocka_unit_test(vitest_errors),
		cmocka_unit_test(vitest_whole_suite),
		cmocka_unit_test(turbo_examples),
		cmocka_unit_test(turbo_errors),
		cmocka_unit_test(testmon_examples),
		cmocka_unit_test(testmon_errors),
		cmocka_unit_test(moon_examples),
		cmocka_unit_test(gstack_examples),
		cmocka_unit_test(cbm_through_native),
		cmocka_unit_test(testmon_idmap_recipe),
		cmocka_unit_test(detect),
		cmocka_unit_test(vitest_config),
		cmocka_unit_test(vitest_config_refusals),
		cmocka_unit_test(vitest_config_scope),
		cmocka_unit_test(vitest_setup_files),
		cmocka_unit_test(turbo_lockfiles),
		cmocka_unit_test(turbo_config),
		cmocka_unit_test(harness_config),
		cmocka_unit_test(moon_config),
		cmocka_unit_test(cbm_compatibility_paths),
		cmocka_unit_test(gstack_config),
		cmocka_unit_test(diff_output),
		cmocka_unit_test(plan_writes),
		cmocka_unit_test(plan_present),
		cmocka_unit_test(plan_in_place),
		cmocka_unit_test(plan_refuses_controls),
	};
	int rc;

	snprintf(tmpdir, sizeof(tmpdir), "%s", "/tmp/tiadash-native.XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (scratch_remove(tmpdir) != 0)
		rc = 1;
	return rc;
}
