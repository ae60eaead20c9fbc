/* Counting and cutting text as a terminal shows it (core/sanitize.c): characters, not bytes, and escapes visible. */
#include "core/tiadash.h"
#include "core/sanitize.h"

#include <setjmp.h>
#include <cmocka.h>

static char *cut(const char *s, size_t max, const char *ellipsis)
{
	struct strbuf sb = STRBUF_INIT;

	sanitize_cut(&sb, s, max, ellipsis);
	return strbuf_detach(&sb, NULL);
}

/* UTF-8 counts a character a column: é is two bytes, one character. */
static void chars_not_bytes(void **state)
{
	const char *s = "h\xc3\xa9llo \xe2\x9c\x93";

	UNUSED(state);
	assert_int_equal(utf8_chars(s, strlen(s)), 7);
	assert_int_equal(utf8_prefix(s, strlen(s), 2), 3);
	assert_int_equal(utf8_prefix(s, strlen(s), 0), 0);
	assert_int_equal(utf8_prefix(s, strlen(s), 99), strlen(s));
	/* An escape sequence shows as its visible \x1b: four characters more. */
	assert_int_equal(sanitized_chars("\033[31mred"), 4 + 4 + 3);
}

/* Cut to max characters, the ellipsis among them; whole when it fits. */
static void cut_with_ellipsis(void **state)
{
	char *s;

	UNUSED(state);
	s = cut("h\xc3\xa9llo w\xc3\xb6rld", 11, "...");
	assert_string_equal(s, "h\xc3\xa9llo w\xc3\xb6rld");
	free(s);
	s = cut("h\xc3\xa9llo w\xc3\xb6rld", 8, "...");
	assert_string_equal(s, "h\xc3\xa9llo...");
	free(s);
	s = cut("h\xc3\xa9llo w\xc3\xb6rld", 4, "\xe2\x80\xa6");
	assert_string_equal(s, "h\xc3\xa9l\xe2\x80\xa6");
	free(s);
	/* No room for the ellipsis: nothing at all, never half of one. */
	s = cut("hello", 2, "...");
	assert_string_equal(s, "");
	free(s);
	/* A hostile name is cut after it is made visible: the cut never splits an escape's bytes. */
	s = cut("\033]0;owned\007x", 8, "...");
	assert_string_equal(s, "\\x1b]...");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chars_not_bytes),
		cmocka_unit_test(cut_with_ellipsis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
