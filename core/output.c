/* -o FILE: standard output to a temporary file, renamed into place when the command succeeded; to a pipe or terminal straight. */
#include "core/tiadash.h"
#include "core/output.h"
#include "core/util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static struct {
	char *path, *tmp; /* NULL: no redirection; tmp NULL: written straight */
	int saved_fd;     /* the original standard output */
} out = { NULL, NULL, -1 };

/*
 * A terminal by its device number (tty 4, tty/console/ptmx 5, pts
 * 136-143), known without opening it: opening some devices does things.
 */
static bool is_terminal_device(const struct stat *st)
{
	unsigned int m = major(st->st_rdev);

	return S_ISCHR(st->st_mode) && (m == 4 || m == 5 || (m >= 136 && m <= 143));
}

/* Standard output onto fd, the original kept to put back. 0, or -1 after error(). */
static int redirect_to(int fd, const char *path)
{
	fflush(stdout);
	out.saved_fd = dup(STDOUT_FILENO);
	if (out.saved_fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		int err = errno;

		close(fd);
		if (out.tmp)
			unlink(out.tmp);
		if (out.saved_fd >= 0)
			close(out.saved_fd);
		out.saved_fd = -1;
		free(out.tmp);
		out.tmp = NULL;
		return error("cannot write '%s': %s", path, strerror(err));
	}
	close(fd);
	out.path = xstrdup(path);
	return 0;
}

/*
 * A pipe (a FIFO, /dev/fd/N of `-o >(cmd)`) or a terminal is written
 * straight: 1 when it is one (redirected, or -1 after error()), 0 when
 * not. Anything else that is not a regular file, and a symbolic link,
 * is refused: a rename would put a regular file in its place.
 */
static int begin_straight(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || is_terminal_device(&st))) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return error("cannot write '%s': %s", path, strerror(errno));
		return redirect_to(fd, path) < 0 ? -1 : 1;
	}
	if (lstat(path, &st) < 0)
		return 0;
	if (S_ISLNK(st.st_mode))
		return error("'%s' is a symbolic link: refused, nothing written", path);
	if (S_ISDIR(st.st_mode))
		return error("cannot write '%s': %s", path, strerror(EISDIR));
	if (!S_ISREG(st.st_mode))
		return error("'%s' is %s, not a regular file: refused, nothing written",
			     path, file_type_name(st.st_mode));
	return 0;
}

/* After the rename: the directory entry itself reaches the disk. */
static int sync_directory(const char *path)
{
	char *dir = path_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0 || fsync(fd) < 0)
		ret = errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

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
	fd = begin_straight(path);
	if (fd)
		return fd < 0 ? -1 : 0;
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
	return redirect_to(fd, path);
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
	if (keep && out.tmp && !write_errno && fsync(STDOUT_FILENO) < 0 && errno != EINVAL)
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
	if (!out.tmp) {
		/* Written straight: nothing to rename or take back. */
	} else if (keep && (rename(out.tmp, out.path) < 0 || (errno = sync_directory(out.path)))) {
		error("cannot write '%s': %s", out.path, strerror(errno));
		keep = false;
		status = EXIT_INPUT_ERROR;
	}
	if (!keep && out.tmp)
		unlink(out.tmp);
	forget();
	return status;
}

bool color_parse(const char *when, enum color_when *when_out)
{
	if (!when || !strcmp(when, "always"))
		*when_out = COLOR_ALWAYS;
	else if (!strcmp(when, "never"))
		*when_out = COLOR_NEVER;
	else if (!strcmp(when, "auto"))
		*when_out = COLOR_AUTO;
	else
		return false;
	return true;
}

bool color_wanted(enum color_when when)
{
	const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");

	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && term && *term && strcmp(term, "dumb") &&
	       !(no_color && *no_color);
}
