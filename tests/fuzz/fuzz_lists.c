/* Fuzz target: plain lists (failed tests, quarantine, selections) through list_parse. */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "ingest/lists.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist out = STRLIST_INIT;
	struct idset set = IDSET_INIT;
	struct input in;

	input_from_memory(&in, "fuzz.txt", fuzz_cstr(data, size), size);
	if (list_parse(&in, &out) == 0) {
		for (size_t i = 0; i < out.nr; i++) {
			if (!*out.items[i] || *out.items[i] == '#')
				BUG("a blank or comment entry was kept");
			idset_add(&set, NULL, out.items[i]);
		}
		/*
		 * What ingest does with a failed list's ids, and what a report
		 * does with a selection: every listed SUITE::CASE id selects
		 * itself. (Not asserted for other entries: "a:b/" is the
		 * directory "a:b" as much as the cbm id a:b/.)
		 */
		for (size_t i = 0; i < out.nr; i++) {
			char *suite, *name;

			test_id_split(out.items[i], &suite, &name);
			if (strstr(out.items[i], "::") && *suite &&
			    !idset_selects(&set, suite, name))
				BUG("'%s' is listed but not selected", out.items[i]);
			free(suite);
			free(name);
		}
	}
	idset_release(&set);
	strlist_release(&out);
	input_release(&in);
	return 0;
}
