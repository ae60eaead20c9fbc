/*
 * Unit tests that work in a scratch directory of their own (made by
 * mkdtemp in the file's setup): shell steps run in it, and it is removed
 * at the end.
 */
#ifndef TIADASH_TESTS_UNIT_SCRATCH_H
#define TIADASH_TESTS_UNIT_SCRATCH_H

#include "core/tiadash.h"

#include <setjmp.h>
#include <cmocka.h>

/* git pinned for a repository made in a test: no system or user config, a fixed author. */
#define SCRATCH_GIT_ENV "export GIT_CONFIG_NOSYSTEM=1 HOME=$PWD GIT_AUTHOR_NAME=t " \
	"GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t && "

/* Run script in dir (its output discarded); the test fails if it does. */
static inline void scratch_run(const char *dir, const char *script)
{
	char *cmd = xstrfmt("cd '%s' && { %s; } >/dev/null 2>&1", dir, script);

	if (system(cmd) != 0)
		fail_msg("setup failed: %s", script);
	free(cmd);
}

/* Remove dir and everything in it: 0, or non-zero when rm failed. */
static inline int scratch_remove(const char *dir)
{
	char *cmd = xstrfmt("rm -rf '%s'", dir);
	int rc = system(cmd);

	free(cmd);
	return rc;
}

#endif
