/*
 * Unit tests that assert error() messages exactly: stderr goes into a
 * temporary file between capture_begin() and capture_end().
 */
#ifndef TIADASH_TESTS_UNIT_CAPTURE_H
#define TIADASH_TESTS_UNIT_CAPTURE_H

#include "core/tiadash.h"

#include <setjmp.h>
#include <cmocka.h>
#include <unistd.h>

static int saved_stderr = -1;
static FILE *captured;

static void capture_begin(void)
{
	fflush(stderr);
	captured = tmpfile();
	assert_non_null(captured);
	saved_stderr = dup(2);
	dup2(fileno(captured), 2);
}

/* The captured text; caller frees. */
static char *capture_end(void)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	rewind(captured);
	while ((n = fread(buf, 1, sizeof(buf), captured)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(captured);
	return strbuf_detach(&sb, NULL);
}

#endif
