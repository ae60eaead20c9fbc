/* -o FILE: standard output to a temporary file, renamed into place when the command succeeded. */
#include "core/tiadash.h"
#include "core/output.h"
#include "core/util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
	char *path, *tmp; /* NULL: no redirection */
	int saved_fd;     /* the original standard output */
} out = { NULL, NULL, -1 };

/* die() and the OOM path exit without output_end: leave no temporary file. */
static void remove_tmp_at_exit(void)
{
	if (out.tmp)
		unlink(out.tmp);
}

static void forget(void)
{
	free(out.path);
	free(out.tmp);
	out.path = out.tmp = NULL;
}

int output_begin(const char *path)
{
	static bool registered;
	const char *base = strrchr(path, '/');
	char *dir;
	mode_t mask;
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	if (!*path || path[strlen(path) - 1] == '/')
		return error("cannot write '%s': not a file name", path);
	dir = path_dirname(path);
	base = base ? base + 1 : path;
	out.tmp = xstrfmt("%s/.%s.XXXXXX", dir, base);
	free(dir);
	fd = mkstemp(out.tmp);
	if (fd < 0) {
		int err = errno;

		forget();
		return error("cannot write '%s': %s", path, strerror(err));
	}
	/* mkstemp makes the file 0600; the page is as readable as any new file. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0)
		warning("cannot set the mode of '%s': %s", path, strerror(errno));
	if (!registered) {
		atexit(remove_tmp_at_exit);
		registered = true;
	}
	fflush(stdout);
	out.saved_fd = dup(STDOUT_FILENO);
	if (out.saved_fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		int err = errno;

		close(fd);
		unlink(out.tmp);
		if (out.saved_fd >= 0)
			close(out.saved_fd);
		forget();
		return error("cannot write '%s': %s", path, strerror(err));
	}
	close(fd);
	out.path = xstrdup(path);
	return 0;
}

bool output_active(void)
{
	return out.path != NULL;
}

int output_end(int status, int write_errno)
{
	bool keep = status == EXIT_OKAY || status == EXIT_CHECK_FAILED;

	if (!out.path)
		return status;
	if (keep && !write_errno && fsync(STDOUT_FILENO) < 0 && errno != EINVAL)
		write_errno = errno;
	/* Back to the real standard output before the file is closed. */
	dup2(out.saved_fd, STDOUT_FILENO);
	close(out.saved_fd);
	out.saved_fd = -1;
	if (write_errno) {
		error("cannot write '%s': %s", out.path, strerror(write_errno));
		keep = false;
		status = EXIT_INPUT_ERROR;
	}
	if (keep && rename(out.tmp, out.path) < 0) {
		error("cannot write '%s': %s", out.path, strerror(errno));
		keep = false;
		status = EXIT_INPUT_ERROR;
	}
	if (!keep)
		unlink(out.tmp);
	forget();
	return status;
}
