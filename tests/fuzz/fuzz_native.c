/* Fuzz target: selectors' native outputs through adapter_read_answer; the first
 * byte picks the format (byte % 6), a root (0x40) and a package count (0x80). */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static const struct adapter *const formats[] = {
	&adapter_vitest, &adapter_turbo, &adapter_testmon, &adapter_moon,
	&adapter_gstack, &adapter_cbm, &adapter_lists,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adapter_opts o = ADAPTER_OPTS_INIT;
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	const struct adapter *f;
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
	if (adapter_read_answer(f, text, size - 1, "fuzz.out", &o, &a) == 0) {
		for (size_t i = 0; i < a.entries.nr; i++)
			if (!*a.entries.items[i])
				BUG("%s: an empty entry", f->name);
	}
	adapter_answer_release(&a);
	free(text);
	return 0;
}
