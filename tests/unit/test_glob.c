/* Globs: translation to PCRE2, brace expansion, matching, fast paths, order. */
#include "core/tiadash.h"
#include "core/glob.h"

#include <setjmp.h>
#include <cmocka.h>

/* Match one pattern against one path, with or without the table fast paths. */
static int match_one(const char *pattern, const char *path, unsigned flags)
{
	struct glob_set *gs = glob_set_new();
	struct strbuf why = STRBUF_INIT;
	int m;

	if (glob_set_add(gs, pattern, 7, &why) < 0)
		fail_msg("'%s': %s", pattern, why.buf);
	assert_int_equal(glob_set_compile(gs, flags), 0);
	m = glob_set_match(gs, path);
	glob_set_free(gs);
	strbuf_release(&why);
	return m;
}

static void translation(void **state)
{
	static const struct { const char *glob, *regex; } cases[] = {
		{ "foo", "(?:[^/]*/)*?foo(?:/|\\z)" },
		{ "/foo", "foo(?:/|\\z)" },
		{ "foo/", "(?:[^/]*/)*?foo/" },
		{ "foo/bar/", "foo/bar/" },
		{ "*.c", "(?:[^/]*/)*?[^/]*\\.c(?:/|\\z)" },
		{ "?.c", "(?:[^/]*/)*?[^/]\\.c(?:/|\\z)" },
		{ "a/**/b", "a/(?:[^/]*/)*?b(?:/|\\z)" },
		{ "a/**", "a/.*(?:/|\\z)" },
		{ "**/x", "(?:[^/]*/)*?x(?:/|\\z)" },
		{ "**", "(?:[^/]*/)*?[^/]*(?:/|\\z)" },
		{ "/**", ".*(?:/|\\z)" },
		{ "a**/b", "a(?:[^/]*/)*?b(?:/|\\z)" },
		{ "x/**b", "x/[^/]*b(?:/|\\z)" },
		{ "x/a**", "x/a.*(?:/|\\z)" },
		{ "[a-c]x", "(?:[^/]*/)*?[\\x61-\\x63]x(?:/|\\z)" },
		{ "[!a]", "(?:[^/]*/)*?[\\x01-\\x2e\\x30-\\x60\\x62-\\xff](?:/|\\z)" },
		{ "[]a]", "(?:[^/]*/)*?[\\x5d\\x61](?:/|\\z)" },
		{ "[a-]", "(?:[^/]*/)*?[\\x2d\\x61](?:/|\\z)" },
		{ "[z-a]x", "(?:[^/]*/)*?[\\x7a]x(?:/|\\z)" },
		{ "[b-a]", "(?:[^/]*/)*?[\\x62](?:/|\\z)" },
		{ "a/[/]b", "a/(*FAIL)b(?:/|\\z)" },
		{ "[[:digit:]]", "(?:[^/]*/)*?[\\x30-\\x39](?:/|\\z)" },
		{ "\\*.c", "(?:[^/]*/)*?\\*\\.c(?:/|\\z)" },
		{ "a\\ b", "(?:[^/]*/)*?a\\x20b(?:/|\\z)" },
		{ "caf\xc3\xa9", "(?:[^/]*/)*?caf\\xc3\\xa9(?:/|\\z)" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf re = STRBUF_INIT, why = STRBUF_INIT;

		if (glob_translate(cases[i].glob, &re, &why) < 0)
			fail_msg("'%s': %s", cases[i].glob, why.buf);
		if (strcmp(re.buf, cases[i].regex))
			fail_msg("'%s' became '%s', expected '%s'", cases[i].glob,
				 re.buf, cases[i].regex);
		strbuf_release(&re);
		strbuf_release(&why);
	}
}

static void translation_errors(void **state)
{
	static const struct { const char *glob, *why; } cases[] = {
		{ "[abc", "unterminated '[' in '[abc'" },
		{ "a/[!", "unterminated '[' in 'a/[!'" },
		{ "[]", "unterminated '[' in '[]'" },
		{ "foo\\", "trailing backslash in 'foo\\'" },
		{ "[[:foo:]]", "unknown character class '[:foo:]' in '[[:foo:]]'" },
		{ "", "empty pattern ''" },
		{ "/", "empty pattern '/'" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf re = STRBUF_INIT, why = STRBUF_INIT;

		assert_int_equal(glob_translate(cases[i].glob, &re, &why), -1);
		assert_string_equal(why.buf, cases[i].why);
		strbuf_release(&re);
		strbuf_release(&why);
	}
}

static void braces(void **state)
{
	static const struct { const char *glob, *expanded; } cases[] = {
		{ "{a,b}", "a|b" },
		{ "x{a,b}y{1,2}", "xay1|xay2|xby1|xby2" },
		{ "*.{c,h}", "*.c|*.h" },
		{ "{a,{b,c}}d", "ad|bd|cd" },
		{ "{{a,b}}", "{a}|{b}" },
		{ "{a}", "{a}" },
		{ "{a,b", "{a,b" },
		{ "a,b}", "a,b}" },
		{ "\\{a,b}", "\\{a,b}" },
		{ "[{]a,b}", "[{]a,b}" },
		{ "{[,],x}", "[,]|x" },
		{ "{,.min}.js", ".js|.min.js" },
		{ "tests/**/*.{sh,py,json,txt}",
		  "tests/**/*.sh|tests/**/*.py|tests/**/*.json|tests/**/*.txt" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strlist out = STRLIST_INIT;
		struct strbuf joined = STRBUF_INIT, why = STRBUF_INIT;

		assert_int_equal(glob_expand_braces(cases[i].glob, &out, &why), 0);
		for (size_t j = 0; j < out.nr; j++)
			strbuf_addf(&joined, "%s%s", j ? "|" : "", out.items[j]);
		if (strcmp(joined.buf, cases[i].expanded))
			fail_msg("'%s' expanded to '%s', expected '%s'",
				 cases[i].glob, joined.buf, cases[i].expanded);
		strlist_release(&out);
		strbuf_release(&joined);
		strbuf_release(&why);
	}
}

static void brace_limit(void **state)
{
	struct strlist out = STRLIST_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *big = "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}";

	UNUSED(state);
	assert_int_equal(glob_expand_braces(big, &out, &why), -1);
	assert_int_equal(out.nr, 0);
	assert_true(starts_with(why.buf, "more than 1024 alternatives in '"));
	strbuf_release(&why);
	/* 2^10 is exactly the limit. */
	assert_int_equal(glob_expand_braces(big + 5, &out, &why), 0);
	assert_int_equal(out.nr, 1024);
	strlist_release(&out);
	strbuf_release(&why);
}

static const struct match_case {
	const char *glob, *path;
	bool match;
} match_cases[] = {
	{ "vendor", "vendor/a/b.c", true },
	{ "vendor", "x/vendor", true },
	{ "vendor", "vendors/a", false },
	{ "migrations/", "x/migrations/001.sql", true },
	{ "migrations/", "migrations", false },
	{ "/bar", "bar/z", true },
	{ "/bar", "x/bar/z", false },
	{ "a/**/b", "a/b", true },
	{ "a/**/b", "a/x/y/b/c", true },
	{ "a/**/b", "a/bb", false },
	{ "**/package-lock.json", "package-lock.json", true },
	{ "**/package-lock.json", "web/app/package-lock.json", true },
	{ "**/package-lock.json", "web/package-lock.json.orig", false },
	{ "**/.env*", "config/.env.prod", true },
	{ "**/.env*", "config/env", false },
	{ "**/migrations/**", "db/migrations/1.sql", true },
	{ "**/migrations/**", "migrations", false },
	{ "*.md", "docs/a/README.md", true },
	{ "docs/**", "docs", false },
	{ "docs/**", "docs/x", true },
	{ "docs", "docs", true },
	{ "src/lib", "src/lib/a.c", true },
	{ "src/lib", "src/libx", false },
	{ "src/lib/", "src/lib", false },
	{ "tsconfig*.json", "packages/a/tsconfig.build.json", true },
	{ "tsconfig*.json", "tsconfig.json", true },
	{ "tsconfig*.json", "tsconfigjson", false },
	{ "ab*ba", "aba", false },
	{ "ab*ba", "abba", true },
	{ "a**/b", "ab", true },
	{ "x/a**", "x/ay/z", true },
	{ "a?c", "a/c", false },
	{ "[!a]x", "/x", false },
	{ "*", "a/b/c", true },
	{ "foo", "fo\no", false },
	{ "fo?o", "fo\no", true },
	{ "foo", "foo\n", false },
	{ "a*", "a\nb/c", true },
	{ "{src,lib}/**/*.{c,h}", "lib/x/y.h", true },
	{ "{src,lib}/**/*.{c,h}", "x/lib/y.h", false },
	{ "tests/**/*.{sh,py,json,txt}", "tests/fixtures/a/b.json", true },
	{ "tests/**/*.{sh,py,json,txt}", "tests/test_a.c", false },
};

static void matching(void **state)
{
	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];

		for (unsigned flags = 0; flags <= GLOB_NO_FAST_PATHS; flags++) {
			int m = match_one(c->glob, c->path, flags);

			if ((m == 7) != c->match)
				fail_msg("'%s' vs '%s'%s: %d, expected %s", c->glob,
					 c->path, flags ? " (regex only)" : "", m,
					 c->match ? "a match" : "none");
		}
	}
}

/* The fast paths answer exactly what the regex answers. */
static void fast_paths_agree(void **state)
{
	static const char *const globs[] = {
		"foo", "foo/", "/foo", "/foo/", "foo/bar", "foo/bar/", "**/foo",
		"**/foo/", "**/foo/**", "**/foo/**/", "foo/**", "foo/**/", "*.c",
		"a*", "*a", "a*b", "a**b", "**", "*", "**/*.c", "**/a*b",
		"**/**/x", "**/x/**/y", "x/**", ".env*", "**/.env*", "[ab]*",
		"a\\*", "src/lib", "src/lib/", "src/**/x", "Makefile*",
		"**/**", "**/***", "foo/***", "**/a**", "**/**a/**", "?.c",
		"*.[ch]", "**/[ab]*.c", "**/x?/**", "**/x?/", "[!f]oo/", "a?",
		"**/[.]env*", "src/**/*.c", "x/**/y/", "**/a*b*",
	};
	static const char *const paths[] = {
		"foo", "foo/x", "x/foo", "x/foo/y", "foo/bar", "foo/bar/z",
		"x/foo/bar", "a.c", "src/a.c", "ab", "axb", "a", "b", "ba",
		"a*", "src/lib", "src/lib/x", "src/libx", "src/q/x", "x", "x/y",
		"x/z/y", ".env", "a/.env.local", "Makefile", "Makefile.am",
		"a/Makefile", "aa/b", "x/aa/y",
	};

	UNUSED(state);
	for (size_t g = 0; g < ARRAY_SIZE(globs); g++)
		for (size_t p = 0; p < ARRAY_SIZE(paths); p++) {
			int fast = match_one(globs[g], paths[p], 0);
			int slow = match_one(globs[g], paths[p], GLOB_NO_FAST_PATHS);

			if (fast != slow)
				fail_msg("'%s' vs '%s': tables say %d, regex %d",
					 globs[g], paths[p], fast, slow);
		}
}

/* First added wins, across tables and regex chunks alike. */
static void first_match_wins(void **state)
{
	static const char *const globs[] = {
		"docs/**", "*.md", "**/README*", "src/**/*.c", "*.c", "Makefile",
		"[Mm]akefile", "build/", "{lib,src}/**",
	};
	static const struct { const char *path; int tag; } cases[] = {
		{ "docs/a.md", 0 }, { "x/a.md", 1 }, { "README.md", 1 },
		{ "src/x/y.c", 3 }, { "lib/y.c", 4 }, { "Makefile", 5 },
		{ "makefile", 6 }, { "build/Makefile", 5 }, { "build/out.o", 7 },
		{ "build", -1 }, { "src/x/README", 2 }, { "lib/x.h", 8 },
		{ "other", -1 },
	};

	UNUSED(state);
	for (unsigned flags = 0; flags <= GLOB_NO_FAST_PATHS; flags++) {
		struct glob_set *gs = glob_set_new();
		struct strbuf why = STRBUF_INIT;

		for (size_t i = 0; i < ARRAY_SIZE(globs); i++)
			assert_int_equal(glob_set_add(gs, globs[i], (int)i, &why), 0);
		assert_int_equal(glob_set_size(gs), ARRAY_SIZE(globs) + 1);
		assert_int_equal(glob_set_compile(gs, flags), 0);
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			int m = glob_set_match(gs, cases[i].path);

			if (m != cases[i].tag)
				fail_msg("'%s'%s: %d, expected %d", cases[i].path,
					 flags ? " (regex only)" : "", m, cases[i].tag);
		}
		glob_set_free(gs);
		strbuf_release(&why);
	}
}

/* More regex patterns than one alternation holds: chunks keep the order. */
static void many_patterns(void **state)
{
	struct glob_set *gs = glob_set_new();
	struct strbuf why = STRBUF_INIT;

	UNUSED(state);
	for (int i = 0; i < 300; i++) {
		char *g = xstrfmt("d%d/*.x", i);

		assert_int_equal(glob_set_add(gs, g, i, &why), 0);
		free(g);
	}
	assert_int_equal(glob_set_add(gs, "*.x", 1000, &why), 0);
	assert_int_equal(glob_set_compile(gs, 0), 0);
	assert_int_equal(glob_set_match(gs, "d0/a.x"), 0);
	assert_int_equal(glob_set_match(gs, "d150/a.x"), 150);
	assert_int_equal(glob_set_match(gs, "d299/a.x"), 299);
	assert_int_equal(glob_set_match(gs, "d300/a.x"), 1000);
	assert_int_equal(glob_set_match(gs, "d1/a.y"), -1);
	glob_set_free(gs);
	strbuf_release(&why);
}

static void add_errors_leave_set_intact(void **state)
{
	struct glob_set *gs = glob_set_new();
	struct strbuf why = STRBUF_INIT;

	UNUSED(state);
	assert_int_equal(glob_set_add(gs, "ok", 1, &why), 0);
	assert_int_equal(glob_set_add(gs, "{a,b[}", 2, &why), -1);
	assert_string_equal(why.buf, "unterminated '[' in 'b['");
	assert_int_equal(glob_set_size(gs), 1);
	strbuf_reset(&why);
	assert_int_equal(glob_set_add(gs, "{,}", 3, &why), -1);
	assert_string_equal(why.buf, "empty pattern '{,}'");
	assert_int_equal(glob_set_compile(gs, 0), 0);
	assert_int_equal(glob_set_match(gs, "x/ok"), 1);
	assert_int_equal(glob_set_match(gs, "a"), -1);
	glob_set_free(gs);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(translation),
		cmocka_unit_test(translation_errors),
		cmocka_unit_test(braces),
		cmocka_unit_test(brace_limit),
		cmocka_unit_test(matching),
		cmocka_unit_test(fast_paths_agree),
		cmocka_unit_test(first_match_wins),
		cmocka_unit_test(many_patterns),
		cmocka_unit_test(add_errors_leave_set_intact),
	};

	return cmocka_run_group_tests_name("glob", tests, NULL, NULL);
}
