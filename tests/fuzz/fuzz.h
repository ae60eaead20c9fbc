/*
 * Shared by the libFuzzer targets: the entry points' prototypes, a quiet
 * stderr (parsers report every rejection through error()), and a
 * NUL-terminated copy of the fuzzer's bytes.
 */
#ifndef TIADASH_TESTS_FUZZ_FUZZ_H
#define TIADASH_TESTS_FUZZ_FUZZ_H

#include "core/tiadash.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * error() writes to stderr for every rejected input, which slows fuzzing
 * down tenfold. Send it to /dev/null unless TIADASH_FUZZ_VERBOSE is set;
 * the sanitizers write their reports to file descriptor 2 directly, so
 * crashes are still reported.
 */
#define FUZZ_QUIET_STDERR()                                                    \
	int LLVMFuzzerInitialize(int *argc, char ***argv)                      \
	{                                                                      \
		FILE *null_;                                                   \
		UNUSED(argc), UNUSED(argv);                                    \
		if (!getenv("TIADASH_FUZZ_VERBOSE") &&                         \
		    (null_ = fopen("/dev/null", "w")))                         \
			stderr = null_;                                        \
		return 0;                                                      \
	}

/* The input as a fresh NUL-terminated string (NUL bytes inside stay). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
