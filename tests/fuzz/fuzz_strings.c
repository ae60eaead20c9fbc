/* Fuzz target: front-coded selection blobs through store_strings_decode, and back. */
#include "core/tiadash.h"
#include "core/store.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist out = STRLIST_INIT, again = STRLIST_INIT;
	struct strbuf blob = STRBUF_INIT;

	if (store_strings_decode(data, size, &out) == 0) {
		/* Encoding sorts and deduplicates; decoding that gives the same list. */
		store_strings_encode(&out, &blob);
		if (store_strings_decode(blob.buf, blob.len, &again) < 0)
			BUG("an encoded blob does not decode");
		for (size_t i = 0; i < again.nr; i++)
			if (i && strcmp(again.items[i - 1], again.items[i]) >= 0)
				BUG("decoded entries are not sorted and unique");
	}
	strlist_release(&out);
	strlist_release(&again);
	strbuf_release(&blob);
	return 0;
}
