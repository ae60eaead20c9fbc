/* Fuzz target: codebase-memory-mcp answers (cbm.test_impact.v0) through cbm_parse. */
#include "core/tiadash.h"
#include "ingest/cbm.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cbm_answer a = CBM_ANSWER_INIT;
	struct input in;

	cbm_sniff((const char *)data, size);
	input_from_memory(&in, "fuzz.json", fuzz_cstr(data, size), size);
	if (cbm_parse(&in, "unit", &a) == 0) {
		if (a.decision == DECISION_NONE)
			BUG("an accepted answer without a decision");
		if (a.decision == DECISION_RUN_ALL && a.entries.nr)
			BUG("run_all with entries");
	}
	cbm_answer_release(&a);
	input_release(&in);
	return 0;
}
