/* Fuzz target: codebase-memory-mcp answers (cbm.test_impact.v0) through cbm_parse. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	char *text = fuzz_cstr(data, size);

	adapter_cbm_sniff((const char *)data, size);
	if (adapter_read_answer(&adapter_cbm, text, size, "fuzz.json", NULL, &a) == 0) {
		if (a.decision == DECISION_NONE)
			BUG("an accepted answer without a decision");
		if (a.decision == DECISION_RUN_ALL && a.entries.nr)
			BUG("run_all with entries");
	}
	adapter_answer_release(&a);
	free(text);
	return 0;
}
