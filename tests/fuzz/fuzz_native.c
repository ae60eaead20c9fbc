/* Fuzz target: selectors' native outputs through native_parse_text; the first
 * byte picks the format (byte % 6), a root (0x40) and a package count (0x80). */
#include "core/tiadash.h"
#include "ingest/native.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static const enum native_format formats[] = {
	NATIVE_VITEST, NATIVE_TURBO, NATIVE_TESTMON, NATIVE_MOON, NATIVE_GSTACK,
	NATIVE_CBM,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct native_opts o = NATIVE_OPTS_INIT;
	struct native_answer a = NATIVE_ANSWER_INIT;
	enum native_format f;
	char *text;

	if (size < 1)
		return 0;
	f = formats[data[0] % ARRAY_SIZE(formats)];
	if (data[0] & 0x40)
		o.root = "/home/runner/work/x/x";
	if (data[0] & 0x80) {
		o.has_total_packages = true;
		o.total_packages = 3;
	}
	text = fuzz_cstr(data + 1, size - 1);
	if (native_parse_text(text, size - 1, "fuzz.out", f, &o, &a) == 0) {
		for (size_t i = 0; i < a.entries.nr; i++)
			if (!*a.entries.items[i])
				BUG("%s: an empty entry", native_format_name(f));
	}
	native_answer_release(&a);
	free(text);
	return 0;
}
