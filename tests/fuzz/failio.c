/* LD_PRELOAD shim for the I/O-failure tests: files named fail_* give FAILIO_AFTER
 * bytes (default 100), then every read fails with EIO, and so does fclose;
 * through stdio (fopen) or descriptors (open, read). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>
#include <unistd.h>

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

/* Descriptors of fail_* files opened with open(), and what each may still read. */
#define MAX_FDS 4096
static long fd_left[MAX_FDS];
static char fd_failing[MAX_FDS];

static int (*real_open)(const char *, int, ...);
static ssize_t (*real_read)(int, void *, size_t);
static int (*real_close)(int);

static long failure_point(void)
{
	const char *after = getenv("FAILIO_AFTER");

	return after ? atol(after) : 100;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int fd;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	fd = real_open(path, flags, mode);
	if (fd >= 0 && fd < MAX_FDS) {
		fd_failing[fd] = (flags & O_ACCMODE) == O_RDONLY && is_failing(path);
		fd_left[fd] = failure_point();
	}
	return fd;
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return open(path, flags, mode);
}

ssize_t read(int fd, void *buf, size_t size)
{
	ssize_t n;

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (fd < 0 || fd >= MAX_FDS || !fd_failing[fd])
		return real_read(fd, buf, size);
	if (fd_left[fd] <= 0) {
		errno = EIO;
		return -1;
	}
	if (size > (size_t)fd_left[fd])
		size = (size_t)fd_left[fd];
	n = real_read(fd, buf, size);
	if (n == 0) {
		/* The file ended before the failure point: fail here. */
		fd_left[fd] = 0;
		errno = EIO;
		return -1;
	}
	if (n > 0)
		fd_left[fd] -= n;
	return n;
}

int close(int fd)
{
	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FDS)
		fd_failing[fd] = 0;
	return real_close(fd);
}
