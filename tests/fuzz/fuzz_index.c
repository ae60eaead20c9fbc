/* Fuzz target: run indexes (tiadash.index.v1) through index_parse. */
#include "core/tiadash.h"
#include "ingest/manifest.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct strlist runs = STRLIST_INIT;

	if (index_parse(text, size, "fuzz.json", &runs) == 0)
		for (size_t i = 0; i < runs.nr; i++)
			path_is_contained(runs.items[i]);
	strlist_release(&runs);
	free(text);
	return 0;
}
