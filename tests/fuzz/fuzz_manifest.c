/* Fuzz target: run manifests (tiadash.run.v1) through manifest_parse. */
#include "core/tiadash.h"
#include "ingest/manifest.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct manifest m;

	manifest_init(&m);
	manifest_parse(text, size, "fuzz.json", &m);
	manifest_release(&m);
	manifest_sniff(text, size);
	free(text);
	return 0;
}
