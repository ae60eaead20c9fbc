/* Fuzz target: Cobertura XML through cobertura_parse (an in-memory input). */
#include "core/tiadash.h"
#include "ingest/coverage.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static int on_line(const struct cov_line *l, void *data)
{
	size_t *sum = data;

	if (l->line == 0 || l->nr_paths == 0)
		BUG("line 0 or no path reported");
	for (size_t i = 0; i < l->nr_paths; i++)
		*sum += strlen(l->paths[i]);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	size_t sum = 0;

	cobertura_sniff((const char *)data, size);
	input_from_memory(&in, "fuzz.xml", fuzz_cstr(data, size), size);
	cobertura_parse(&in, on_line, &sum);
	input_release(&in);
	return 0;
}
