/* Rewriting a file of the team's repository: refused when it leads elsewhere, locked, compared, replaced atomically. */
#include "core/tiadash.h"
#include "core/teamfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEMP_INFIX ".tiadash-"

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* path made absolute against the current directory, "." and ".." taken away by name. */
static char *lexical_absolute(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char cwd[4096];
	const char *p = path;

	if (*path != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return NULL;
		strbuf_addstr(&sb, cwd);
	}
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(sb.buf ? sb.buf : "", '/');

			if (slash)
				strbuf_setlen(&sb, (size_t)(slash - sb.buf));
		} else if (n != 1 || *p != '.') {
			strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
	}
	if (!sb.len)
		strbuf_addch(&sb, '/');
	return strbuf_detach(&sb, NULL);
}

static bool is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/*
 * The repository around dir (lexical, absolute): the nearest directory
 * holding a .git that is not itself a symbolic link (a committed link to
 * another repository is no root). Else the current directory when dir is
 * below it; else NULL: a place the user named outside any repository.
 */
static char *repository_of(const char *dir)
{
	char *a = xstrdup(dir), *cwd;

	for (;;) {
		char *git = path_join(a, ".git"), *slash;
		struct stat st;
		bool found = !is_link(a) && lstat(git, &st) == 0;

		free(git);
		if (found)
			return a;
		slash = strrchr(a, '/');
		if (!slash || slash == a)
			break;
		*slash = '\0';
	}
	free(a);
	cwd = lexical_absolute(".");
	if (cwd && (!strcmp(cwd, "/") || (starts_with(dir, cwd) &&
					  (dir[strlen(cwd)] == '/' || !dir[strlen(cwd)]))))
		return cwd;
	free(cwd);
	return NULL;
}

/* Is abs (lexical) named below root, as given or resolved? */
static bool path_resolve_inside_lexically(const char *abs, const char *root,
					  const char *real_root)
{
	const char *roots[] = { root, real_root };

	for (size_t i = 0; i < ARRAY_SIZE(roots); i++) {
		size_t n = strlen(roots[i]);

		if (!strncmp(abs, roots[i], n) && abs[n] == '/')
			return true;
	}
	return false;
}

/* The real path of dir, or of its nearest ancestor that exists (*missing: not dir itself). */
static char *real_existing(const char *dir, bool *missing)
{
	char *a = xstrdup(dir), *real;

	*missing = false;
	while (!(real = realpath(a, NULL))) {
		char *slash = strrchr(a, '/');

		if (errno != ENOENT || !slash || slash == a) {
			free(a);
			return NULL;
		}
		*slash = '\0';
		*missing = true;
	}
	free(a);
	return real;
}

/* Check path; *real_dir (caller frees) is its directory resolved, NULL when it does not exist yet. */
static int check_target(const char *path, char **real_dir)
{
	char *abs = lexical_absolute(path), *dir = NULL, *root = NULL, *real = NULL;
	char *real_root = NULL;
	bool missing = false;
	struct stat st;
	int ret = 0;

	*real_dir = NULL;
	if (!abs)
		return error("cannot write '%s': %s", path, strerror(errno));
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		ret = error("'%s' is a symbolic link: refused, nothing written", path);
		goto out;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ?
		      error("'%s' is a directory, not a file: refused, nothing written", path) :
		      error("'%s' is %s, not a regular file: refused, nothing written", path,
			    file_type_name(st.st_mode));
		goto out;
	}
	dir = path_dirname(abs);
	real = real_existing(dir, &missing);
	if (!real) {
		ret = error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	root = repository_of(dir);
	real_root = root ? realpath(root, NULL) : NULL;
	if (real_root && strcmp(real_root, "/") &&
	    (!starts_with(real, real_root) ||
	     (real[strlen(real_root)] != '/' && real[strlen(real_root)])))
		ret = error("'%s' leads to '%s%s%s', outside the repository '%s' (a "
			    "symbolic link?): refused, nothing written", path, real,
			    missing ? "" : "/", missing ? "" : base_of(path), real_root);
	else if (!missing)
		*real_dir = xstrdup(real);
out:
	free(abs);
	free(dir);
	free(root);
	free(real);
	free(real_root);
	return ret;
}

int team_path_stays_inside(const char *path, const char *root)
{
	char *abs = lexical_absolute(path), *real = NULL, *real_root = realpath(root, NULL);
	int ret = 0;

	if (abs && real_root && path_resolve_inside(abs, real_root, &real) == 1 &&
	    path_resolve_inside_lexically(abs, root, real_root))
		ret = error("'%s' leads to '%s', outside the repository '%s' (a "
			    "symbolic link?): refused", path, real, real_root);
	free(abs);
	free(real);
	free(real_root);
	return ret;
}

int team_file_check(const char *path)
{
	char *real_dir;
	int ret = check_target(path, &real_dir);

	free(real_dir);
	return ret;
}

/* Temporaries of this file a killed tiadash left (we hold the lock: none is live). */
static void remove_stale_temporaries(int dir_fd, const char *path)
{
	char *prefix = xstrfmt(".%s" TEMP_INFIX, base_of(path)), *dir = path_dirname(path);
	size_t n = strlen(prefix);
	int fd = dup(dir_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		free(prefix);
		free(dir);
		return;
	}
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (strncmp(de->d_name, prefix, n) || strlen(de->d_name) != n + 6 ||
		    fstatat(dir_fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(dir_fd, de->d_name, 0) == 0)
			note("removed '%s%s%s', left by a tiadash stopped while writing",
			     strcmp(dir, ".") ? dir : "", strcmp(dir, ".") ? "/" : "",
			     de->d_name);
	}
	closedir(d);
	free(prefix);
	free(dir);
}

static int lock_directory(struct team_file *f, const char *real_dir)
{
	f->dir = xstrdup(real_dir);
	f->dir_fd = open(real_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->dir_fd < 0)
		return error("cannot open the directory of '%s': %s", f->path,
			     strerror(errno));
	while (flock(f->dir_fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return error("cannot lock the directory of '%s': %s", f->path,
				     strerror(errno));
	remove_stale_temporaries(f->dir_fd, f->path);
	return 0;
}

/* What the file holds now (*exists false: not there). */
static int read_current(struct team_file *f, struct strbuf *sb, bool *exists,
			size_t limit)
{
	int fd;
	struct stat st;
	int ret;

	*exists = false;
	if (f->dir_fd < 0)
		return 0;
	fd = openat(f->dir_fd, base_of(f->path),
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 && errno == ELOOP)
		return error("'%s' is a symbolic link: refused, nothing written", f->path);
	if (fd < 0)
		return error("cannot open '%s': %s", f->path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = error("cannot read '%s': %s", f->path, strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return error("'%s' is %s, not a regular file: refused, nothing written",
			     f->path, file_type_name(st.st_mode));
	}
	*exists = true;
	f->mode = st.st_mode & 07777;
	ret = read_fd_limit(sb, fd, f->path, limit);
	close(fd);
	return ret;
}

int team_file_open(struct team_file *f, const char *path, size_t limit)
{
	char *real_dir;
	mode_t mask = umask(022);

	umask(mask);
	f->path = xstrdup(path);
	f->mode = 0666 & ~mask;
	if (check_target(path, &real_dir) < 0)
		return -1;
	if (real_dir && lock_directory(f, real_dir) < 0) {
		free(real_dir);
		return -1;
	}
	free(real_dir);
	return read_current(f, &f->text, &f->exists, limit);
}

/* Under the lock: a new file's directory is made and locked; is the file still what was read? */
static int still_as_read(struct team_file *f)
{
	struct strbuf now = STRBUF_INIT;
	bool exists;
	int ret;

	if (f->dir_fd < 0) {
		char *real_dir;

		if (mkdir_for_file(f->path) < 0 || check_target(f->path, &real_dir) < 0)
			return -1;
		ret = real_dir ? lock_directory(f, real_dir) :
		      error("cannot create the directory of '%s'", f->path);
		free(real_dir);
		if (ret < 0)
			return -1;
	}
	ret = read_current(f, &now, &exists, 0);
	if (!ret && (exists != f->exists || now.len != f->text.len ||
		     memcmp(now.buf, f->text.buf, now.len)))
		ret = error("'%s' changed since tiadash read it: not written", f->path);
	strbuf_release(&now);
	return ret;
}

static int write_all_fd(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int team_file_replace(struct team_file *f, const char *data, size_t len)
{
	char *tmp;
	int fd, ret = 0;

	if (still_as_read(f) < 0)
		return -1;
	tmp = xstrfmt("%s/.%s" TEMP_INFIX "XXXXXX", f->dir, base_of(f->path));
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = error("cannot create a file beside '%s': %s", f->path, strerror(errno));
		free(tmp);
		return ret;
	}
	if (write_all_fd(fd, data, len) < 0 || fchmod(fd, f->mode) < 0 || fsync(fd) < 0)
		ret = error("cannot write '%s': %s", f->path, strerror(errno));
	if (close(fd) < 0 && !ret)
		ret = error("cannot write '%s': %s", f->path, strerror(errno));
	if (!ret && renameat(AT_FDCWD, tmp, f->dir_fd, base_of(f->path)) < 0)
		ret = error("cannot replace '%s': %s", f->path, strerror(errno));
	if (ret)
		unlink(tmp);
	else if (fsync(f->dir_fd) < 0)
		ret = error("cannot write the directory of '%s': %s", f->path,
			    strerror(errno));
	free(tmp);
	if (!ret && data == f->text.buf) {
		strbuf_setlen(&f->text, len);
	} else if (!ret) {
		strbuf_reset(&f->text);
		strbuf_add(&f->text, data, len);
	}
	if (!ret)
		f->exists = true;
	return ret;
}

int team_file_remove(struct team_file *f)
{
	if (still_as_read(f) < 0)
		return -1;
	if (f->exists && unlinkat(f->dir_fd, base_of(f->path), 0) < 0)
		return error("cannot remove '%s': %s", f->path, strerror(errno));
	if (fsync(f->dir_fd) < 0)
		return error("cannot write the directory of '%s': %s", f->path,
			     strerror(errno));
	f->exists = false;
	strbuf_reset(&f->text);
	return 0;
}

void team_file_close(struct team_file *f)
{
	if (f->dir_fd >= 0)
		close(f->dir_fd); /* and the lock with it */
	free(f->path);
	free(f->dir);
	strbuf_release(&f->text);
	*f = (struct team_file)TEAM_FILE_INIT;
}
