/* Fuzz target: tiadash rule files through rules_parse_tiadash, compile and match. */
#include "core/tiadash.h"
#include "core/rules.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

/* Paths of the shapes a change touches, matched against whatever compiled. */
static const char *const paths[] = {
	"a.c", "src/a.c", "package-lock.json", "web/package.json",
	"docs/x/y.md", ".github/workflows/ci.yml", "db/migrations/001.sql",
	"tests/conftest.py", "a/b/c/d/e/f/g.txt", ".env.local", "x]y[z",
	"\xc3\xa9t\xc3\xa9/\xe2\x80\xae.c",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct rules r = RULES_INIT;

	if (rules_parse_tiadash(&r, text, size, "fuzz.rules") == 0 &&
	    rules_compile(&r) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
			int m = rules_match(&r, paths[i]);

			if (m != RULES_MATCH_ERROR && (m < -1 || m >= (int)r.nr))
				BUG("rules_match answered %d of %zu rules", m, r.nr);
		}
	}
	rules_release(&r);
	free(text);
	return 0;
}
