/* Fuzz target: the cache blobs (a pair cache row, a pair's facts) decoded, and back. */
#include "core/tiadash.h"
#include "core/paircache.h"
#include "metrics/facts.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

/* A blob that decodes encodes to one that decodes and encodes to itself. */
static void pair_row(const uint8_t *data, size_t size)
{
	struct pair_info p, q;
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;

	if (pair_cache_decode(data, size, 1, "r", 2, &p) < 0)
		return;
	pair_cache_encode(&p, &once);
	if (pair_cache_decode(once.buf, once.len, 1, "r", 2, &q) < 0)
		BUG("an encoded pair does not decode");
	pair_cache_encode(&q, &twice);
	if (once.len != twice.len || memcmp(once.buf, twice.buf, once.len))
		BUG("an encoded pair does not come back the same");
	pair_info_release(&p);
	pair_info_release(&q);
	strbuf_release(&once);
	strbuf_release(&twice);
}

static void pair_facts(const uint8_t *data, size_t size)
{
	struct pair_facts f = PAIR_FACTS_INIT, g = PAIR_FACTS_INIT;
	struct pair_fact_row row = { 1, "r", 2, data, size };
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;

	if (pair_facts_decode(&row, &f) == 0) {
		pair_facts_encode(&f, &once);
		row.data = once.buf, row.len = once.len;
		if (pair_facts_decode(&row, &g) < 0)
			BUG("encoded facts do not decode");
		pair_facts_encode(&g, &twice);
		if (once.len != twice.len || memcmp(once.buf, twice.buf, once.len))
			BUG("encoded facts do not come back the same");
	}
	pair_facts_release(&f);
	pair_facts_release(&g);
	strbuf_release(&once);
	strbuf_release(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pair_row(data, size);
	pair_facts(data, size);
	return 0;
}
