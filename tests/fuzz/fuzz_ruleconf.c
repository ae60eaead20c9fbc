/* Fuzz target: selectors' force-full configs through adapter_read_rules, compiled and
 * matched; the first byte picks the file name that decides the format. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static const char *const names[] = {
	"vitest.config.ts", "turbo.json", ".moon/tasks/all.yml", "apps/web/moon.yml",
	"ci/harness.yml", ".gstack/always-run.json", ".codebase-memory.json",
	".tiadash/rules",
};

static const char *const paths[] = {
	"a.c", "package.json", "apps/web/src/x.ts", "turbo.json", ".env",
	"packages/ui/index.tsx", "tests/e2e/a.spec.ts",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules r = RULES_INIT;
	const char *name;
	char *text;

	if (size < 1)
		return 0;
	name = names[data[0] % ARRAY_SIZE(names)];
	text = fuzz_cstr(data + 1, size - 1);
	if (adapter_read_rules(&r, text, size - 1, name) == 0 && rules_compile(&r) == 0)
		for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
			rules_match(&r, paths[i]);
	rules_release(&r);
	free(text);
	return 0;
}
