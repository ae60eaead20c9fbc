/* Fuzz target: a replay selector's stdout through replay_selector_parse. */
#include "core/tiadash.h"
#include "replay/replay.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = fuzz_cstr(data, size);
	struct replay_selector_job job;

	memset(&job, 0, sizeof(job));
	replay_selector_parse(out, size, &job);
	switch (job.answer) {
	case ANSWER_ERROR:
		if (!job.why || job.lines.nr)
			BUG("an error answer without a reason, or with lines");
		break;
	case ANSWER_TESTS:
		if (!job.lines.nr)
			BUG("a test answer without tests");
		/* fallthrough */
	case ANSWER_RUN_ALL:
	case ANSWER_NOTHING:
		for (size_t i = 0; i < job.lines.nr; i++)
			if (!*job.lines.items[i] || strpbrk(job.lines.items[i], "\n\r\t\x1b"))
				BUG("an empty or control-character line was kept");
		break;
	}
	replay_selector_job_release(&job);
	free(out);
	return 0;
}
