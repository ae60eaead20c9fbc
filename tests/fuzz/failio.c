/* LD_PRELOAD shim for the I/O-failure tests: files named fail_* give FAILIO_AFTER
 * bytes (default 100), then every read fails with EIO, and so does fclose. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct failing {
	FILE *real;
	long left; /* bytes still readable */
};

static FILE *(*real_fopen)(const char *, const char *);

static ssize_t failing_read(void *cookie, char *buf, size_t size)
{
	struct failing *f = cookie;
	size_t n;

	if (f->left <= 0) {
		errno = EIO;
		return -1;
	}
	if (size > (size_t)f->left)
		size = (size_t)f->left;
	n = fread(buf, 1, size, f->real);
	f->left -= (long)n;
	if (n == 0) {
		/* The file ended before the failure point: fail here. */
		f->left = 0;
		errno = EIO;
		return -1;
	}
	return (ssize_t)n;
}

static int failing_close(void *cookie)
{
	struct failing *f = cookie;

	fclose(f->real);
	free(f);
	errno = EIO;
	return -1;
}

static int is_failing(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strncmp(base, "fail_", 5) == 0;
}

FILE *fopen(const char *path, const char *mode)
{
	cookie_io_functions_t io = { failing_read, NULL, NULL, failing_close };
	struct failing *f;
	const char *after = getenv("FAILIO_AFTER");
	FILE *real;

	if (!real_fopen)
		real_fopen = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	real = real_fopen(path, mode);
	if (!real || !is_failing(path) || mode[0] != 'r')
		return real;
	f = malloc(sizeof(*f));
	if (!f)
		return real;
	f->real = real;
	f->left = after ? atol(after) : 100;
	return fopencookie(f, mode, io);
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}
