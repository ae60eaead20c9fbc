/* The 80-column fitter (core/textfit.c) with colour: SGR sequences take no columns. */
#include "core/tiadash.h"
#include "core/textfit.h"

#include <setjmp.h>
#include <cmocka.h>

#define RED "\033[1;31m"
#define RESET "\033[m"

static char *fit(const char *text, int width)
{
	struct strbuf out = STRBUF_INIT;

	text_fit(&out, text, strlen(text), width);
	return strbuf_detach(&out, NULL);
}

/* A line as wide as the room stays whole, however many bytes its colours add. */
static void colour_takes_no_columns(void **state)
{
	char *got = fit("  PR #434 8a1a2820ad6c " RED "escape" RESET " acme/ledger, 1 missed", 51);

	UNUSED(state);
	assert_string_equal(got, "  PR #434 8a1a2820ad6c " RED "escape" RESET " acme/ledger, 1 missed");
	free(got);
}

/* A coloured line wraps where the same line without colour wraps. */
static void colour_wraps_as_plain(void **state)
{
	char *plain = fit("- PR #612 6059dcc7d27a acme/ledger (non-hermetic); selected but failed "
			  "tests/test_tax.py::test_vat_eu_standard_rate", 60);
	char *got = fit("- PR #612 6059dcc7d27a acme/ledger (" RED "non-hermetic" RESET "); selected "
			"but failed tests/test_tax.py::test_vat_eu_standard_rate", 60);

	UNUSED(state);
	assert_string_equal(plain, "- PR #612 6059dcc7d27a acme/ledger (non-hermetic); selected\n"
			    "  but failed tests/test_tax.py::test_vat_eu_standard_rate");
	assert_string_equal(got, "- PR #612 6059dcc7d27a acme/ledger (" RED "non-hermetic" RESET
			    "); selected\n  but failed tests/test_tax.py::test_vat_eu_standard_rate");
	free(plain);
	free(got);
}

/* A word too long for its line is cut with '~', and its colour's reset is kept. */
static void cut_word_keeps_reset(void **state)
{
	char *got = fit("class " RED "escape-escape-escape-escape" RESET " end", 16);

	UNUSED(state);
	assert_string_equal(got, "class\n  " RED "escape-escape~" RESET "\n  end");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(colour_takes_no_columns),
		cmocka_unit_test(colour_wraps_as_plain),
		cmocka_unit_test(cut_word_keeps_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
