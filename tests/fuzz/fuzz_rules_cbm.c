/* Fuzz target: .codebase-memory.json rules through rules_parse_cbm, compile and match. */
#include "core/tiadash.h"
#include "core/rules.h"
#include "adapters/adapter.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static const char *const paths[] = {
	"a.c", "src/a.py", "go.mod", "vendor/x/y.go", "docs/readme.md",
	".github/workflows/ci.yml", "conftest.py", "lib/util.hpp", "README",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct rules r = RULES_INIT;

	if (rules_parse_cbm(&r, text, size, ".codebase-memory.json") == 0 &&
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
