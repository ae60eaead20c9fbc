/* Fuzz target: the stored "3-7,10" line-range form through lineset_parse, and back. */
#include "core/tiadash.h"
#include "core/lineset.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	struct lineset a = LINESET_INIT, b = LINESET_INIT;
	struct strbuf text = STRBUF_INIT;

	if (lineset_parse(&a, s)) {
		for (size_t i = 1; i < a.nr; i++)
			if (a.v[i - 1] >= a.v[i])
				BUG("a lineset is not sorted and unique");
		/* What parses formats to a text that parses to the same set. */
		lineset_format(&a, &text);
		if (!lineset_parse(&b, text.buf) || a.nr != b.nr ||
		    (a.nr && memcmp(a.v, b.v, a.nr * sizeof(*a.v))))
			BUG("'%s' does not round-trip through '%s'", s, text.buf);
	}
	lineset_release(&a);
	lineset_release(&b);
	strbuf_release(&text);
	free(s);
	return 0;
}
