/* Rules: tiadash rule files, .codebase-memory.json, built-ins, first match. */
#include "core/tiadash.h"
#include "core/rules.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "tests/unit/capture.h"

#include <setjmp.h>
#include <cmocka.h>
#include <unistd.h>

static int parse(struct rules *r, const char *text)
{
	return rules_parse_tiadash(r, text, strlen(text), "team.rules");
}

/* "action glob id origin name [tests]" per rule, one a line. */
static char *describe(const struct rules *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr; i++) {
		const struct rule *x = &r->items[i];

		strbuf_addf(&sb, "%s %s %s %s %s", rules_action_name(x->action),
			    x->glob, x->id, x->origin, x->name);
		for (size_t t = 0; t < x->tests.nr; t++)
			strbuf_addf(&sb, " [%s]", x->tests.items[t]);
		strbuf_addch(&sb, '\n');
	}
	return strbuf_detach(&sb, NULL);
}

static void tiadash_format(void **state)
{
	struct rules r = RULES_INIT;
	char *got;

	UNUSED(state);
	assert_int_equal(parse(&r,
		"# force-full for the lockfile\n"
		"**/package-lock.json\n"
		"\n"
		"   # indented comment\n"
		"run_all  migrations/**\r\n"
		"ignore\tdocs/**\n"
		"select src/billing/** tests/billing/ tests/test_money.py::test_round\n"
		"select src/a\\ b/** tests/a\\ b.py\n"
		"a\\ b  \n"
		"trailing\\ \n"
		"\\#not-a-comment\n"
		"\\!bang\n"
		"run_all.txt\n"), 0);
	got = describe(&r);
	assert_string_equal(got,
		"run_all **/package-lock.json team.rules:2 team.rules:2 force-full:**/package-lock.json\n"
		"run_all migrations/** team.rules:5 team.rules:5 force-full:migrations/**\n"
		"ignore docs/** team.rules:6 team.rules:6 ignore:docs/**\n"
		"select src/billing/** team.rules:7 team.rules:7 select:src/billing/** [tests/billing/] [tests/test_money.py::test_round]\n"
		"select src/a\\ b/** team.rules:8 team.rules:8 select:src/a\\ b/** [tests/a b.py]\n"
		"run_all a\\ b team.rules:9 team.rules:9 force-full:a\\ b\n"
		"run_all trailing\\  team.rules:10 team.rules:10 force-full:trailing\\ \n"
		"run_all \\#not-a-comment team.rules:11 team.rules:11 force-full:\\#not-a-comment\n"
		"run_all \\!bang team.rules:12 team.rules:12 force-full:\\!bang\n"
		"run_all run_all.txt team.rules:13 team.rules:13 force-full:run_all.txt\n");
	free(got);
	assert_int_equal(rules_compile(&r), 0);
	assert_int_equal(rules_match(&r, "web/package-lock.json"), 0);
	assert_int_equal(rules_match(&r, "migrations/1.sql"), 1);
	assert_int_equal(rules_match(&r, "docs/x/migrations/1.sql"), 2);
	assert_int_equal(rules_match(&r, "src/billing/x.py"), 3);
	assert_int_equal(rules_match(&r, "src/a b/x.py"), 4);
	assert_int_equal(rules_match(&r, "x/a b"), 5);
	assert_int_equal(rules_match(&r, "trailing "), 6);
	assert_int_equal(rules_match(&r, "trailing"), -1);
	assert_int_equal(rules_match(&r, "#not-a-comment"), 7);
	assert_int_equal(rules_match(&r, "!bang"), 8);
	assert_int_equal(rules_match(&r, "src/other.py"), -1);
	rules_release(&r);
}

static void tiadash_format_errors(void **state)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "ok\nrun_all\n", "tiadash: error: team.rules:2: 'run_all' needs a glob\n" },
		{ "select src/**\n", "tiadash: error: team.rules:1: 'select src/**' names no tests\n" },
		{ "\n\nignore a b\n", "tiadash: error: team.rules:3: unexpected 'b' after the glob (only 'select' names tests)\n" },
		{ "# x\nsrc/[abc\n", "tiadash: error: team.rules:2: unterminated '[' in 'src/[abc'\n" },
		{ "a\\\n", "tiadash: error: team.rules:1: trailing backslash in 'a\\'\n" },
		{ "x/[[:nope:]]\n", "tiadash: error: team.rules:1: unknown character class '[:nope:]' in 'x/[[:nope:]]'\n" },
		{ "!vendor/**\n", "tiadash: error: team.rules:1: negated globs ('!vendor/**') are not supported: rules match first to last, put an 'ignore' rule before (write '\\!' for a literal '!')\n" },
		{ "/\n", "tiadash: error: team.rules:1: empty pattern '/'\n" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rules r = RULES_INIT;
		char *msg;
		int rc;

		capture_begin();
		rc = parse(&r, cases[i].text);
		msg = capture_end();
		assert_int_equal(rc, -1);
		assert_string_equal(msg, cases[i].message);
		free(msg);
		rules_release(&r);
	}
}

static void nul_byte(void **state)
{
	struct rules r = RULES_INIT;
	char *msg;

	UNUSED(state);
	capture_begin();
	assert_int_equal(rules_parse_tiadash(&r, "a\nb\0c\n", 6, "t.rules"), -1);
	msg = capture_end();
	assert_string_equal(msg, "tiadash: error: t.rules:2: NUL byte in a rule file\n");
	free(msg);
	rules_release(&r);
}

static int load_cbm(struct rules *r)
{
	return rules_load_file(r, "tests/data/rules/codebase-memory.json");
}

static void cbm_file(void **state)
{
	static const struct { const char *path, *id; const char *action; } cases[] = {
		{ "tests/test_main.c", "harness", "run_all" },
		{ "tests/test_helpers.h", "harness", "run_all" },
		{ "src/mcp/test_impact_select.c", "engine", "run_all" },
		{ ".codebase-memory.json", "engine", "run_all" },
		{ "scripts/ci/x.sh", "build", "run_all" },
		{ "internal/cbm/vendored/ts/parser.c", "grammars", "run_all" },
		{ "tests/fixtures/repo1/a/b.json", "fixtures", "select" },
		{ "tests/fixtures/README", "cbm:unmapped", "run_all" },
		{ "tests/shell/x.sh", "contracts", "ignore" },
		{ "tests/data.json", "contracts", "ignore" },
		{ "NOTICE", "notices", "ignore" },
		{ "CHANGELOG.md", "notices", "ignore" },
		{ "Makefile.cbm", "builtin:build", "run_all" },
		{ "go.sum", "builtin:build", "run_all" },
		{ ".github/workflows/ci.yml", "builtin:ci", "run_all" },
		{ "vendored/x.c", "builtin:vendor", "run_all" },
		{ "a/conftest.py", "builtin:conftest", "run_all" },
		{ "docs/x/SMART_CI.txt", "builtin:documentation", "ignore" },
		{ "src/README.md", "builtin:documentation", "ignore" },
		{ "src/store/store.c", "cbm:c-family", "select" },
		{ "src/store/store.hpp", "cbm:c-family", "select" },
		{ "src/ui/app.py", "cbm:unmapped", "run_all" },
	};
	struct rules r = RULES_INIT;

	UNUSED(state);
	assert_int_equal(load_cbm(&r), 0);
	/* 15 of the file's globs, 28 built-in ones, c-family and unmapped. */
	assert_int_equal(r.nr, 15 + 28 + 2);
	assert_string_equal(r.items[0].origin,
			    "tests/data/rules/codebase-memory.json:11: rule 'harness'");
	assert_string_equal(r.items[15].origin,
			    "tests/data/rules/codebase-memory.json "
			    "(codebase-memory-mcp built-in)");
	assert_string_equal(r.items[r.nr - 1].name, "UNMAPPED_FILE");
	assert_int_equal(r.items[r.nr - 1].action, RULE_RUN_ALL);
	assert_int_equal(rules_compile(&r), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int m = rules_match(&r, cases[i].path);

		if (m < 0)
			fail_msg("'%s' matched no rule", cases[i].path);
		if (strcmp(r.items[m].id, cases[i].id) ||
		    strcmp(rules_action_name(r.items[m].action), cases[i].action))
			fail_msg("'%s': %s %s, expected %s %s", cases[i].path,
				 r.items[m].id, rules_action_name(r.items[m].action),
				 cases[i].id, cases[i].action);
	}
	rules_release(&r);
}

static void cbm_actions(void **state)
{
	static const char text[] =
		"{\"test_impact\": {\"version\": 1,\n"
		" \"lanes\": [{\"name\": \"perf\", \"suites\": [\"bench_a\", \"@perf\", \"bench_b\"],"
		"  \"default\": \"skip\"}],\n"
		" \"rules\": [\n"
		"  {\"id\": \"st\", \"paths\": [\"src/store/**\"], \"action\": \"suites\","
		"   \"suites\": [\"store\", \"store_wal\"]},\n"
		"  {\"id\": \"pf\", \"paths\": [\"bench/**\"], \"action\": \"lanes\","
		"   \"lanes\": [\"perf\"]},\n"
		"  {\"id\": \"rd\", \"paths\": [\"docs/*.txt\"], \"action\": \"referencing_tests\","
		"   \"key\": \"path\", \"unreferenced\": \"ignore\"}\n"
		" ]}}\n";
	struct rules r = RULES_INIT;
	char *got;

	UNUSED(state);
	assert_int_equal(rules_parse_cbm(&r, text, strlen(text), "c.json"), 0);
	assert_int_equal(r.nr, 3 + 28 + 2);
	r.nr = 3;
	got = describe(&r);
	r.nr = 3 + 28 + 2;
	assert_string_equal(got,
		"select src/store/** st c.json:4: rule 'st' select:src/store/** [store] [store_wal]\n"
		"select bench/** pf c.json:5: rule 'pf' select:bench/** [bench_a] [bench_b]\n"
		"select docs/*.txt rd c.json:6: rule 'rd' select:docs/*.txt\n");
	free(got);
	rules_release(&r);
}

static void cbm_errors(void **state)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "{\"test_impact\": {\"rules\": [\n{\"id\": \"x\", \"paths\": [\"a\"],\n \"action\": \"narrow\"}]}}",
		  "tiadash: error: c.json:2: rule 'x': unknown action 'narrow' (expected run_all, ignore, suites, referencing_tests or lanes)\n" },
		{ "{\"test_impact\": {\"rules\": [{\"id\": \"x\", \"action\": \"ignore\"}]}}",
		  "tiadash: error: c.json:1: rule 'x': \"paths\" must be a non-empty list of globs\n" },
		{ "{\"test_impact\": {\"rules\": [{\"paths\": [\"a\"], \"action\": \"ignore\"}]}}",
		  "tiadash: error: c.json: test_impact.rules[0]: \"id\" must be a non-empty string\n" },
		{ "{\"test_impact\": {\"rules\": [{\"id\": \"s\", \"paths\": [\"a\"], \"action\": \"suites\"}]}}",
		  "tiadash: error: c.json:1: rule 's': action \"suites\" needs a non-empty \"suites\" list\n" },
		{ "{\"test_impact\": {\"rules\": [{\"id\": \"g\", \"paths\": [\"a[\"], \"action\": \"ignore\"}]}}",
		  "tiadash: error: c.json:1: rule 'g': unterminated '[' in 'a['\n" },
		{ "{\"test_impact\": {\"version\": 2}}",
		  "tiadash: error: c.json: test_impact.version must be 1\n" },
		{ "{\"test_impact\": {\"unmapped_files\": \"ignore\"}}",
		  "tiadash: error: c.json: test_impact.unmapped_files must be \"run_all\"\n" },
		{ "{\"other\": 1}", "tiadash: error: c.json: no \"test_impact\" object\n" },
		{ "{\"test_impact\":\n {\"rules\": [1,]}}", "tiadash: error: c.json:2: invalid JSON\n" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rules r = RULES_INIT;
		char *msg;
		int rc;

		capture_begin();
		rc = rules_parse_cbm(&r, cases[i].text, strlen(cases[i].text), "c.json");
		msg = capture_end();
		assert_int_equal(rc, -1);
		assert_string_equal(msg, cases[i].message);
		free(msg);
		rules_release(&r);
	}
}

static void builtins(void **state)
{
	static const struct { const char *path, *name; } cases[] = {
		{ "package-lock.json", "force-full:**/package-lock.json" },
		{ "web/app/pnpm-lock.yaml", "force-full:**/pnpm-lock.yaml" },
		{ "services/api/go.mod", "force-full:**/go.mod" },
		{ "pyproject.toml", "force-full:**/pyproject.toml" },
		{ "app/build.gradle.kts", "force-full:**/build.gradle{,.kts}" },
		{ "packages/ui/tsconfig.build.json", "force-full:**/tsconfig*.json" },
		{ "vitest.config.ts", "force-full:**/vitest.config.*" },
		{ "Makefile", "force-full:**/Makefile" },
		{ "src/test-utils/render.tsx", "force-full:**/test-utils/**" },
		{ "tests/conftest.py", "force-full:**/conftest.py" },
		{ ".env.production", "force-full:**/.env*" },
		{ "db/migrations/0042_add.sql", "force-full:**/migrations/**" },
		{ ".github/workflows/ci.yml", "force-full:.github/workflows/**" },
		{ "Jenkinsfile", "force-full:/Jenkinsfile" },
		{ "api/v1/ledger.proto", "force-full:**/*.proto" },
		{ "tests/fixtures/a.json", "force-full:**/fixtures/**" },
		{ "src/ledger/book.py", NULL },
		{ "README.md", NULL },
		{ "ci/Jenkinsfile", NULL },
		{ ".github/CODEOWNERS", NULL },
	};
	struct rules r = RULES_INIT;

	UNUSED(state);
	rules_add_builtin(&r);
	assert_int_equal(r.nr, rules_builtin_nr);
	assert_int_equal(rules_compile(&r), 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int m = rules_match(&r, cases[i].path);
		const char *got = m >= 0 ? r.items[m].name : NULL;

		if (!cases[i].name != !got || (got && strcmp(got, cases[i].name)))
			fail_msg("'%s': %s, expected %s", cases[i].path,
				 got ? got : "no rule",
				 cases[i].name ? cases[i].name : "no rule");
	}
	for (size_t i = 0; i < r.nr; i++) {
		assert_true(starts_with(r.items[i].id, "builtin:"));
		assert_string_equal(r.items[i].origin, "built-in");
	}
	rules_release(&r);
}

static void file_then_builtin_order(void **state)
{
	struct rules r = RULES_INIT;

	UNUSED(state);
	assert_int_equal(parse(&r, "ignore **/package-lock.json\n"), 0);
	rules_add_builtin(&r);
	assert_int_equal(rules_compile(&r), 0);
	assert_int_equal(rules_match(&r, "a/package-lock.json"), 0);
	assert_string_equal(r.items[rules_match(&r, "yarn.lock")].id, "builtin:lockfile");
	rules_release(&r);
}

static void load_missing_file(void **state)
{
	struct rules r = RULES_INIT;
	char *msg;

	UNUSED(state);
	capture_begin();
	assert_int_equal(rules_load_file(&r, "tests/data/rules/no-such.rules"), -1);
	msg = capture_end();
	assert_string_equal(msg, "tiadash: error: cannot open "
			    "'tests/data/rules/no-such.rules': No such file or directory\n");
	free(msg);
	rules_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tiadash_format),
		cmocka_unit_test(tiadash_format_errors),
		cmocka_unit_test(nul_byte),
		cmocka_unit_test(cbm_file),
		cmocka_unit_test(cbm_actions),
		cmocka_unit_test(cbm_errors),
		cmocka_unit_test(builtins),
		cmocka_unit_test(file_then_builtin_order),
		cmocka_unit_test(load_missing_file),
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
