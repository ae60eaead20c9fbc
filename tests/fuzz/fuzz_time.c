/* Fuzz target: --since/--until bounds and RFC 3339 times, parsed and printed back. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	const int64_t now = INT64_C(1794096000000); /* 2026-11-08T00:00:00Z */
	struct strbuf sb = STRBUF_INIT;
	int64_t ms, back;

	if (time_parse_rfc3339(s, &ms)) {
		/* Whatever parses prints as a time that parses to the same instant. */
		time_format(&sb, ms);
		if (!time_parse_rfc3339(sb.buf, &back) || back != ms)
			BUG("'%s' -> %" PRId64 " -> '%s' does not round-trip", s, ms, sb.buf);
	}
	if (time_parse_when(s, now, &ms)) {
		strbuf_reset(&sb);
		time_format(&sb, ms);
		time_format_date(&sb, ms);
	}
	strbuf_release(&sb);
	free(s);
	return 0;
}
