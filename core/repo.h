/*
 * Git access through libgit2: opening the repository, resolving commits, the
 * three-dot diff of a run with the new-side numbers of added lines, and
 * reading paths and files at a commit.
 */
#ifndef TIADASH_CORE_REPO_H
#define TIADASH_CORE_REPO_H

#include "core/tiadash.h"
#include "core/lineset.h"
#include "core/util.h"

#include <git2.h>
#include <pthread.h>

struct repo {
	git_repository *git;
	char *root; /* work tree, or the git dir of a bare repository */
};

/*
 * Open the repository at path, or the one around the current directory when
 * path is NULL. Returns -1 after error() when there is none. Release with
 * repo_close (NULL is fine).
 */
int repo_open(struct repo **out, const char *path);
void repo_close(struct repo *r);
/* The repository around the current directory, or *out NULL when there is none. */
void repo_open_around(struct repo **out);
/*
 * A repository opened at its first use, from any thread: starting libgit2
 * parses the system's CA certificates (56M instructions and 3.7 MB of a
 * report), which a command that reads no commit should not pay.
 * repo_later_init takes opened (NULL: look around the current directory at
 * the first repo_later_get); repo_later_get returns NULL when there is no
 * repository; repo_later_release closes what was opened.
 */
struct repo_later {
	pthread_mutex_t lock;
	bool tried;
	struct repo *repo;
};
void repo_later_init(struct repo_later *l, struct repo *opened);
struct repo *repo_later_get(struct repo_later *l);
void repo_later_release(struct repo_later *l);

/* The root of the repository around path (or the cwd), or NULL; caller frees. */
char *repo_discover_root(const char *path);

/* Resolve a revision (sha, branch, tag, HEAD~2) to a 40-hex commit id. */
int repo_resolve(struct repo *r, const char *rev, char out[41]);
bool repo_has_commit(struct repo *r, const char *sha);

enum change_status {
	CHANGE_ADDED = 'A',
	CHANGE_MODIFIED = 'M',
	CHANGE_DELETED = 'D',
	CHANGE_RENAMED = 'R',
	CHANGE_TYPECHANGE = 'T',
};
const char *change_status_name(int status);
int change_status_from_name(const char *name);

struct changed_file {
	char *path;     /* new side (old side for deletions) */
	char *old_path; /* renames only, else NULL */
	int status;     /* enum change_status */
	struct lineset added; /* new-side line numbers of added lines */
};

struct repo_diff {
	char merge_base[41];
	struct changed_file *files;
	size_t nr, alloc;
};
#define REPO_DIFF_INIT { "", NULL, 0, 0 }
void repo_diff_release(struct repo_diff *d);

/* repo_diff_three_dot result when a commit is missing: not an error. */
#define REPO_UNKNOWN_COMMIT 1

/* repo_diff_three_dot flags. */
#define REPO_DIFF_NO_RENAMES (1u << 0) /* a rename is a deletion and an addition */

/*
 * The three-dot diff merge-base(base, head)..head with renames detected as
 * git diff does by default (unless REPO_DIFF_NO_RENAMES), and added lines:
 * for every file, the new-side lines that `git diff -U0` marks added (git
 * 2.39's defaults: Myers with the indent heuristic, the common tail dropped
 * before diffing; a binary file has none). Returns 0; REPO_UNKNOWN_COMMIT
 * with *missing set to the commit (or "merge base") that is not in the
 * repository; or -1 after error().
 */
int repo_diff_three_dot(struct repo *r, const char *base, const char *head,
			unsigned flags, struct repo_diff *out, const char **missing);

/* A tree at a commit, for many path look-ups. NULL when the commit is unknown. */
git_tree *repo_tree_at(struct repo *r, const char *sha);
bool repo_tree_has_file(git_tree *tree, const char *path);
/* Append the blob at path in tree to sb; -1 (quietly) when absent. */
int repo_tree_read_file(struct repo *r, git_tree *tree, const char *path,
			struct strbuf *sb);

#endif
