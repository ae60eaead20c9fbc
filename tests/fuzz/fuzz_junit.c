/* Fuzz target: JUnit XML through the streaming junit_parse (an in-memory input). */
#include "core/tiadash.h"
#include "ingest/junit.h"
#include "ingest/testset.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

/* Touch every byte of what the parser hands out, so ASan sees stale pointers. */
static int on_case(const struct junit_case *c, void *data)
{
	size_t *sum = data;

	*sum += strlen(c->suite) + strlen(c->name) + (size_t)c->outcome;
	if (c->message) {
		char digest[17], *excerpt = failure_excerpt(c->message, c->text);

		failure_digest(c->message, c->text, digest);
		if (strlen(digest) != 16 || strlen(excerpt) > FAILURE_EXCERPT_MAX ||
		    strlen(c->text) > JUNIT_TEXT_MAX)
			BUG("a failure's digest or excerpt out of bounds");
		free(excerpt);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct junit_stats st = { 0 };
	struct input in;
	size_t sum = 0;

	junit_sniff((const char *)data, size);
	input_from_memory(&in, "fuzz.xml", fuzz_cstr(data, size), size);
	if (junit_parse(&in, on_case, &sum, &st) == 0 &&
	    st.failed + st.errors + st.flaky + st.skipped > st.tests)
		BUG("outcomes exceed test cases");
	input_release(&in);
	return 0;
}
