/* Fuzz target: stored blobs (front-coded strings, delta-coded ids) decoded, and back. */
#include "core/tiadash.h"
#include "core/store.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist out = STRLIST_INIT, again = STRLIST_INIT;
	struct strbuf blob = STRBUF_INIT;
	int64_t *ids = NULL, *ids2 = NULL;
	size_t nr = 0, alloc = 0, nr2 = 0, alloc2 = 0;

	if (store_strings_decode(data, size, &out) == 0) {
		/* Encoding sorts and deduplicates; decoding that gives the same list. */
		store_strings_encode(&out, &blob);
		if (store_strings_decode(blob.buf, blob.len, &again) < 0)
			BUG("an encoded blob does not decode");
		for (size_t i = 0; i < again.nr; i++)
			if (i && strcmp(again.items[i - 1], again.items[i]) >= 0)
				BUG("decoded entries are not sorted and unique");
	}
	/* A run's test-list groups: ascending ids; unique ones encode and come back. */
	if (store_ints_decode(data, size, &ids, &nr, &alloc) == 0) {
		size_t u = 0;

		for (size_t i = 0; i < nr; i++) {
			if (i && ids[i] < ids[i - 1])
				BUG("decoded ids are not ascending");
			if (!u || ids[u - 1] != ids[i])
				ids[u++] = ids[i];
		}
		strbuf_reset(&blob);
		store_ints_encode(ids, u, &blob);
		if (store_ints_decode(blob.buf, blob.len, &ids2, &nr2, &alloc2) < 0 || nr2 != u ||
		    (u && memcmp(ids, ids2, u * sizeof(*ids))))
			BUG("encoded ids do not decode to themselves");
	}
	free(ids);
	free(ids2);
	strlist_release(&out);
	strlist_release(&again);
	strbuf_release(&blob);
	return 0;
}
