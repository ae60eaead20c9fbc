/*
 * A pool of detached git worktrees of one repository, so a command can run
 * in the tree of any commit without touching the user's working tree:
 * replay runs a selector at each replayed change in one (replay/selector.c),
 * and defect seeding checks a change out, applies a mutant, runs the tests
 * and resets.
 *
 * The worktrees are listed under ROOT/.tiadash/worktrees/ as wt-PID-N
 * (PID: the process that made them), each a link to a fresh directory of
 * $TMPDIR holding the worktree under the repository's name (a path without
 * a dot-directory: vitest's picomatch never matches a forceRerunTriggers
 * glob across one, so a worktree inside .tiadash/ would change its
 * answers), registered with git (`git worktree add --detach`), so `git
 * rev-parse HEAD`, `git diff BASE` and friends work in them as in a clone. They are reused from one checkout to the next (a
 * checkout rewrites only what differs; ignored files such as a symlinked
 * node_modules stay), removed by worktree_pool_close, and the leftovers of
 * a process that was killed are removed by the next worktree_pool_open of
 * the same repository. Removal never follows a symbolic link.
 *
 * One slot is used by one caller at a time; the pool itself is not
 * thread-safe (call it from one thread).
 */
#ifndef TIADASH_CORE_WORKTREE_H
#define TIADASH_CORE_WORKTREE_H

#include "core/tiadash.h"
#include "core/repo.h"
#include "core/spawn.h"

struct worktree_pool;

struct worktree_opts {
	/*
	 * A shell command run once in each worktree after its first checkout
	 * (TIADASH_TREE and TIADASH_REPO set): install or link what the
	 * commands need (`ln -s "$TIADASH_REPO/node_modules" .`). NULL: none.
	 */
	const char *setup;
	/* Variables to keep from every child besides spawn_scrubbed's (NULL: none). */
	const struct strlist *scrub;
};

/*
 * Make up to n worktrees (made lazily, on a slot's first checkout) of the
 * repository: first removing what a killed earlier process left in
 * .tiadash/worktrees/. Returns 0, or -1 after error().
 */
int worktree_pool_open(struct worktree_pool **out, struct repo *repo, size_t n,
		       const struct worktree_opts *opts);
size_t worktree_pool_size(const struct worktree_pool *p);
/*
 * The environment the pool's children get (ours, scrubbed of the tokens,
 * the opts' names and git's GIT_DIR and friends); a base for callers'.
 */
const struct spawn_env *worktree_pool_env(const struct worktree_pool *p);

/*
 * Check commit sha (40 hex) out in slot, detached, forced: tracked files
 * as at that commit, the index matching them (git status finds the tree
 * clean) and HEAD at sha (without a reflog entry). The first checkout of a
 * slot makes its worktree and runs the setup; a later one rewrites only
 * the paths that differ between the two commits (what a command left
 * elsewhere stays: worktree_pool_reset removes it). The slot's directory
 * (an absolute, real path; owned by the pool) in *path. Returns 0, or -1
 * after error() naming the commit.
 */
int worktree_pool_checkout(struct worktree_pool *p, size_t slot, const char *sha,
			   const char **path);

/*
 * Read slot's next checkout, of sha, ahead while its worktree is busy (a
 * command runs in it): what the two commits' trees change and the new
 * files' contents, kept for a worktree_pool_checkout of sha from the same
 * commit, which then only writes. Reads nothing from the worktree itself;
 * quietly does nothing when the slot holds no checkout yet or a tree
 * cannot be read (the checkout says so then).
 */
void worktree_pool_read_ahead(struct worktree_pool *p, size_t slot, const char *sha);

/*
 * Back to the slot's last checkout, whatever was written there since:
 * every tracked file restored, every untracked one that is not ignored
 * removed. -1 after error().
 */
int worktree_pool_reset(struct worktree_pool *p, size_t slot);

/* Remove every worktree of the pool and free it (NULL is fine). */
void worktree_pool_close(struct worktree_pool *p);

#endif
