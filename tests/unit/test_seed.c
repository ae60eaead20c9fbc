/* Defect seeding's pure parts: the code view, each language's operators and sites, applying one, test paths, the seeded streams, answers meeting. */
#include "core/tiadash.h"
#include "seed/seed.h"

#include <setjmp.h>
#include <cmocka.h>

/* Every site as "LINE:COL OP TOKEN->REPLACEMENT", one per line. */
static char *sites_of(enum seed_lang lang, const char *text)
{
	struct seed_ops *o = seed_ops_new();
	struct seed_sites s = SEED_SITES_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	seed_find_sites(o, lang, text, strlen(text), &s);
	for (size_t i = 0; i < s.nr; i++) {
		const struct seed_site *x = &s.items[i];

		p = text;
		for (int l = 1; l < x->line; l++)
			p = strchr(p, '\n') + 1;
		strbuf_addf(&sb, "%d:%zu %s %.*s->%s\n", x->line, x->col, x->op, (int)x->len,
			    p + x->col, x->to);
	}
	seed_sites_release(&s);
	seed_ops_free(o);
	return strbuf_detach(&sb, NULL);
}

#define assert_sites(lang, text, want)                                          \
	do {                                                                   \
		char *got_ = sites_of(lang, text);                             \
		if (strcmp(got_, want))                                        \
			fail_msg("sites of:\n%s\ngot:\n%s\nwant:\n%s", text, got_, want); \
		free(got_);                                                    \
	} while (0)

static void python_operators(void **state)
{
	UNUSED(state);
	assert_sites(LANG_PYTHON,
		     "def f(a, b, xs):\n"
		     "    if a < b and not xs:\n"
		     "        return True\n"
		     "    while a >= 0 or a == b:\n"
		     "        a = a - 1\n"
		     "    return xs[1:n]\n",
		     "2:9 cmp-flip <-><=\n"
		     "2:13 bool-swap and->or\n"
		     "2:17 not-drop not ->\n"
		     "3:15 const-flip True->False\n"
		     "4:12 cmp-flip >=->>\n"
		     "4:17 bool-swap or->and\n"
		     "4:22 eq-flip ==->!=\n"
		     "5:14 off-by-one -->+\n"
		     "6:16 slice-bound n->n - 1\n");
}

static void python_never_in_comments_or_strings(void **state)
{
	UNUSED(state);
	assert_sites(LANG_PYTHON,
		     "import a.b as c  # a < b\n"
		     "from x import y\n"
		     "@decorator(a == 1)\n"
		     "s = 'a < b' + \"c == d\"  # x and y\n"
		     "t = r'\\' and or' + b\"x > y\"\n"
		     "\"\"\"a docstring\n"
		     "if x < y and not z: return 0\n"
		     "\"\"\"\n"
		     "u = f'{a - 1}' ''' x == y '''\n"
		     "v = x + 1  # the one site\n",
		     "10:6 off-by-one +->-\n");
}

static void python_not_an_operator(void **state)
{
	UNUSED(state);
	/* unary minus, an exponent, after return, a compound assignment, no spaces around < */
	assert_sites(LANG_PYTHON,
		     "x = -1\n"
		     "y = 1e+1\n"
		     "def f():\n"
		     "    return -1\n"
		     "z += 1\n"
		     "w = a<b\n"
		     "v = x[i:j+1]\n"
		     "return 0.5\n",
		     "7:9 off-by-one +->-\n");
}

static void js_operators(void **state)
{
	UNUSED(state);
	assert_sites(LANG_JS,
		     "import { a } from './a.js';\n"
		     "export const f = (x, y) => {\n"
		     "  if (x === y && !done) return true;\n"
		     "  const re = /a < b/g, t = `x == ${y}\n"
		     "  still a template > here`;\n"
		     "  // a comment && || < 1\n"
		     "  /* a block\n"
		     "     comment == */ return s.slice(0, n) + 1;\n"
		     "};\n",
		     "3:8 eq-flip ===->!==\n"
		     "3:14 bool-swap &&->||\n"
		     "3:17 not-drop !->\n"
		     "3:31 const-flip true->false\n"
		     "8:37 slice-bound n->n - 1\n"
		     "8:40 off-by-one +->-\n");
}

static void ts_generics_are_not_comparisons(void **state)
{
	UNUSED(state);
	assert_sites(LANG_JS,
		     "function g<T>(xs: Array<T>): Map<string, T> { return xs!.length > 0 ? m : n; }\n",
		     "1:64 cmp-flip >->>=\n");
}

static void c_operators(void **state)
{
	UNUSED(state);
	assert_sites(LANG_C,
		     "#include <stdio.h>\n"
		     "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
		     "static int f(int a, const char *s) /* a < b */\n"
		     "{\n"
		     "\tif (a != 0 || !s) // b == c\n"
		     "\t\treturn 0;\n"
		     "\tputs(\"x <= y\"); c = '<';\n"
		     "\treturn a <= 2 && v[i] - 1;\n"
		     "}\n",
		     "5:7 eq-flip !=->==\n"
		     "5:12 bool-swap ||->&&\n"
		     "5:15 not-drop !->\n"
		     "6:9 const-flip 0->1\n"
		     "8:10 cmp-flip <=-><\n"
		     "8:15 bool-swap &&->||\n"
		     "8:23 off-by-one -->+\n");
}

static void go_and_java(void **state)
{
	UNUSED(state);
	assert_sites(LANG_GO,
		     "package calc\n"
		     "import \"fmt\"\n"
		     "var raw = `a < b\n"
		     "still raw == `\n"
		     "func F(s []int, n int) bool { return len(s[:n]) > n && !ok }\n",
		     "5:44 slice-bound n->n - 1\n"
		     "5:48 cmp-flip >->>=\n"
		     "5:52 bool-swap &&->||\n"
		     "5:55 not-drop !->\n");
	assert_sites(LANG_JAVA,
		     "package a.b;\n"
		     "import java.util.List;\n"
		     "@Override\n"
		     "String f(String s, int n) { String t = \"\"\"\n"
		     "  a < b\n"
		     "  \"\"\"; return n >= 1 ? s.substring(0, n) : t; }\n",
		     "6:16 cmp-flip >=->>\n"
		     "6:38 slice-bound n->n - 1\n");
}

static void code_view(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	static const char text[] = "x = 'a' # c\n\"\"\"d\ne\"\"\" + y\n";

	UNUSED(state);
	seed_code_view(LANG_PYTHON, text, strlen(text), &sb);
	assert_string_equal(sb.buf, "x = ___ ___\n____\n____ + y\n");
	strbuf_release(&sb);
}

static void apply_one(void **state)
{
	static const char text[] = "a = 1\n    if x < y:\r\n        pass\n";
	struct seed_site site = { 2, 9, 1, "cmp-flip", (char *)"<=" };
	struct strbuf out = STRBUF_INIT;
	char *before, *after;

	UNUSED(state);
	seed_apply(text, strlen(text), &site, &out, &before, &after);
	assert_string_equal(out.buf, "a = 1\n    if x <= y:\r\n        pass\n");
	assert_string_equal(before, "if x < y:");
	assert_string_equal(after, "if x <= y:");
	free(before);
	free(after);
	strbuf_release(&out);
}

static void languages_and_test_paths(void **state)
{
	UNUSED(state);
	assert_int_equal(seed_lang_of("a/b.py"), LANG_PYTHON);
	assert_int_equal(seed_lang_of("src/x.tsx"), LANG_JS);
	assert_int_equal(seed_lang_of("lib/x.hpp"), LANG_C);
	assert_int_equal(seed_lang_of("x.go"), LANG_GO);
	assert_int_equal(seed_lang_of("A.java"), LANG_JAVA);
	assert_int_equal(seed_lang_of("README.md"), LANG_NONE);
	assert_int_equal(seed_lang_of(".py"), LANG_NONE);
	assert_int_equal(seed_lang_of("a.d/Makefile"), LANG_NONE);
	assert_true(seed_is_test_path("tests/test_money.py"));
	assert_true(seed_is_test_path("pkg/money_test.py"));
	assert_true(seed_is_test_path("conftest.py"));
	assert_true(seed_is_test_path("src/a.test.ts"));
	assert_true(seed_is_test_path("src/__tests__/a.js"));
	assert_true(seed_is_test_path("calc/add_test.go"));
	assert_true(seed_is_test_path("src/main/java/FooTest.java"));
	assert_true(seed_is_test_path("src/test/java/Foo.java"));
	assert_true(seed_is_test_path("lib/test_util.c"));
	assert_false(seed_is_test_path("ledger/money.py"));
	assert_false(seed_is_test_path("src/contest.py"));
	assert_false(seed_is_test_path("src/latest.js"));
	assert_false(seed_is_test_path("cmd/attest.go"));
}

static void seeded_streams(void **state)
{
	struct seed_rng a, b, c;
	size_t x[8], y[8];

	UNUSED(state);
	seed_rng_init(&a, 42, "abc");
	seed_rng_init(&b, 42, "abc");
	seed_rng_init(&c, 43, "abc");
	/* Pinned: a --seed draws the same on every build (FNV-1a, splitmix64; computed in Python). */
	assert_true(seed_rng_next(&a) == UINT64_C(0x68b853e381951d2b));
	assert_true(seed_rng_next(&b) == UINT64_C(0x68b853e381951d2b));
	assert_true(seed_rng_next(&a) == seed_rng_next(&b));
	assert_true(seed_rng_next(&a) != seed_rng_next(&c));
	for (size_t i = 0; i < 8; i++)
		x[i] = y[i] = i;
	seed_rng_init(&a, 7, "files");
	seed_rng_init(&b, 7, "files");
	seed_shuffle(x, 8, &a);
	seed_shuffle(y, 8, &b);
	assert_memory_equal(x, y, sizeof(x));
	for (int i = 0; i < 1000; i++)
		assert_true(seed_rng_below(&a, 3) < 3);
}

static void answers_meet(void **state)
{
	struct strlist subset = STRLIST_INIT, answer = STRLIST_INIT;

	UNUSED(state);
	strlist_push(&subset, "tests/test_money.py");
	strlist_push(&subset, "pkg/a/");
	strlist_push(&answer, "tests/test_money.py::test_zero");
	assert_true(seed_entries_overlap(&subset, &answer));
	strlist_release(&answer);
	strlist_push(&answer, "pkg/a/x.test.js");
	assert_true(seed_entries_overlap(&subset, &answer));
	strlist_release(&answer);
	strlist_push(&answer, "tests");
	assert_true(seed_entries_overlap(&subset, &answer));
	strlist_release(&answer);
	strlist_push(&answer, "tests/test_money.pyc");
	strlist_push(&answer, "pkg/ab/x.js");
	strlist_push(&answer, "tests/test_export.py");
	assert_false(seed_entries_overlap(&subset, &answer));
	strlist_release(&answer);
	strlist_release(&subset);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(python_operators),
		cmocka_unit_test(python_never_in_comments_or_strings),
		cmocka_unit_test(python_not_an_operator),
		cmocka_unit_test(js_operators),
		cmocka_unit_test(ts_generics_are_not_comparisons),
		cmocka_unit_test(c_operators),
		cmocka_unit_test(go_and_java),
		cmocka_unit_test(code_view),
		cmocka_unit_test(apply_one),
		cmocka_unit_test(languages_and_test_paths),
		cmocka_unit_test(seeded_streams),
		cmocka_unit_test(answers_meet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
