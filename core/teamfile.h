/*
 * The one way tiadash rewrites a file of the team's repository (a
 * selector's configuration, a rule file, the dashboard's undo): checked,
 * locked, compared and replaced atomically.
 *
 *   team_file_open     refuse a symbolic link, a file that is not a
 *                      regular file, a target whose directory resolves
 *                      outside the repository; lock the directory; read it
 *   team_file_replace  refuse when the file changed since it was read;
 *                      write a temporary beside it, fsync, rename, fsync
 *                      the directory
 *   team_file_remove   the same checks, then unlink (undo of a creation)
 *   team_file_close    unlock
 *
 * "The repository" is the git work tree around the target as it is named
 * (the nearest directory above it with a .git that is not reached through
 * a symbolic link), or, in none, the current directory when the target
 * is named below it. The lock is flock(2) on the directory, held from the
 * read to the rename, so two tiadash processes editing one file take
 * turns and neither loses the other's edit; an editor that does not take
 * it is caught by the comparison before the rename. Temporaries are
 * ".NAME.tiadash-XXXXXX"; one a killed process left is removed by the
 * next open of that file (under the lock, so never a live one).
 */
#ifndef TIADASH_CORE_TEAMFILE_H
#define TIADASH_CORE_TEAMFILE_H

#include "core/tiadash.h"
#include "core/util.h"

struct team_file {
	char *path;          /* as given */
	char *dir;           /* its directory, resolved; NULL: not yet there */
	int dir_fd;          /* its directory, locked; -1: not yet there */
	bool exists;         /* it was there when read */
	mode_t mode;         /* its mode, or the umask's for a new file */
	struct strbuf text;  /* what it held when read */
};
#define TEAM_FILE_INIT { NULL, NULL, -1, false, 0, STRBUF_INIT }

/*
 * Check path (see above), lock its directory when that exists, and read
 * the file into f->text (limit bytes at most; 0: none). A missing file is
 * no error (f->exists false). 0, or -1 after error() naming the file;
 * either way team_file_close releases f.
 */
int team_file_open(struct team_file *f, const char *path, size_t limit);

/*
 * Replace the file with data: its directories are created for a new file;
 * -1 after error() when the file is no longer what team_file_open read
 * ("'PATH' changed since tiadash read it: not written"), or on any failure
 * to write (the file is then as it was).
 */
int team_file_replace(struct team_file *f, const char *data, size_t len);

/* Remove the file when it is still what was read (the undo of a creation). */
int team_file_remove(struct team_file *f);

/* Unlock and free. */
void team_file_close(struct team_file *f);

/*
 * Check a target without reading it: a symbolic link, anything but a
 * regular file (when it exists) or a directory resolving outside the
 * repository is refused (-1 after error(): "'PATH' is a symbolic link:
 * refused, nothing written" and the like).
 */
int team_file_check(const char *path);

/*
 * A file tiadash copies (record's reports): one named below root (a
 * repository's top) must not resolve out of it. 0, or -1 after error()
 * ("'PATH' leads to 'REAL', outside the repository 'ROOT' (a symbolic
 * link?): refused"). A file named outside root is the user's choice.
 */
int team_path_stays_inside(const char *path, const char *root);

#endif
