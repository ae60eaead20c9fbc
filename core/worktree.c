/* A pool of detached worktrees under .tiadash/worktrees/, reused between checkouts and cleaned after a kill. */
#include "core/tiadash.h"
#include "core/worktree.h"
#include "core/tiadir.h"

#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

struct slot {
	char *link;          /* .tiadash/worktrees/wt-PID-N */
	char *home;          /* the mkdtemp directory holding it */
	char *path;          /* the worktree (home/NAME); NULL until made */
	git_repository *git; /* the worktree, opened */
	char sha[41];        /* what is checked out */
};

struct worktree_pool {
	struct repo *repo;   /* borrowed */
	char *dir;           /* ROOT/.tiadash/worktrees */
	char *setup;
	struct spawn_env env;
	struct slot *slots;
	size_t nr;
};

/* ---- removing a worktree: the directory (never following a link), then git's record ---- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int remove_tree(const char *path)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 &&
	    errno != ENOENT)
		return error("cannot remove the worktree '%s': %s", path, strerror(errno));
	return 0;
}

static void prune(struct worktree_pool *p)
{
	char *argv[] = { "git", "-C", p->repo->root, "worktree", "prune", NULL };

	spawn_run(argv, NULL, &p->env, "git worktree prune");
}

/* wt-PID-N of a process that is gone: left by a kill. */
static const char *conf_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool stale(const char *name)
{
	long pid;
	char *end;

	if (strncmp(name, "wt-", 3))
		return false;
	pid = strtol(name + 3, &end, 10);
	if (end == name + 3 || *end != '-' || pid <= 0)
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/*
 * The commands a killed tiadash left running in a slot's worktree (kill
 * -9 gives it no chance to stop them): every process whose TIADASH_TREE
 * is the worktree, as the link names it or resolved (NULL: gone already).
 */
static void kill_commands(const char *link, const char *target)
{
	char named[PATH_MAX];
	ssize_t n = readlink(link, named, sizeof(named) - 1);
	char *home;

	if (n <= 0)
		return;
	named[n] = '\0';
	home = path_dirname(named);
	if (starts_with(conf_base(home), "tiadash-wt-")) {
		spawn_kill_marked("TIADASH_TREE", named);
		if (target && strcmp(target, named))
			spawn_kill_marked("TIADASH_TREE", target);
	}
	free(home);
}

/*
 * A slot's link, and the mkdtemp directory it points into (only one named
 * like ours: a link edited by hand does not make tiadash remove a tree).
 */
static int remove_slot(const char *link)
{
	char *target = realpath(link, NULL), *home = target ? path_dirname(target) : NULL;
	int ret = 0;

	kill_commands(link, target);
	if (home && starts_with(conf_base(home), "tiadash-wt-"))
		ret = remove_tree(home);
	if (unlink(link) < 0 && errno != ENOENT)
		ret = error("cannot remove '%s': %s", link, strerror(errno));
	free(target);
	free(home);
	return ret;
}

static void clean_stale(struct worktree_pool *p)
{
	DIR *d = opendir(p->dir);
	struct dirent *de;
	bool removed = false;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *path;

		if (!stale(de->d_name))
			continue;
		path = path_join(p->dir, de->d_name);
		removed |= remove_slot(path) == 0;
		free(path);
	}
	closedir(d);
	if (removed)
		prune(p);
}

/* ---- the pool ---- */

int worktree_pool_open(struct worktree_pool **out, struct repo *repo, size_t n,
		       const struct worktree_opts *opts)
{
	struct worktree_pool *p = xcalloc(1, sizeof(*p));
	static const char *const git_vars[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_COMMON_DIR", NULL,
	};
	struct strlist also = STRLIST_INIT;

	p->repo = repo;
	p->dir = path_join(repo->root, ".tiadash/worktrees");
	p->setup = opts && opts->setup ? xstrdup(opts->setup) : NULL;
	p->nr = n ? n : 1;
	p->slots = xcalloc(p->nr, sizeof(*p->slots));
	/* git's own variables would point a child at the user's repository. */
	for (size_t i = 0; git_vars[i]; i++)
		strlist_push(&also, git_vars[i]);
	for (size_t i = 0; opts && opts->scrub && i < opts->scrub->nr; i++)
		strlist_push(&also, opts->scrub->items[i]);
	spawn_env_init(&p->env, &also);
	strlist_release(&also);
	*out = p;
	if (tiadir_prepare(p->dir) < 0 || mkdir_for_file(p->dir) < 0 || (mkdir(p->dir, 0777) < 0 && errno != EEXIST)) {
		int ret = error("cannot make '%s': %s", p->dir, strerror(errno));

		worktree_pool_close(p);
		*out = NULL;
		return ret;
	}
	clean_stale(p);
	return 0;
}

size_t worktree_pool_size(const struct worktree_pool *p)
{
	return p->nr;
}

const struct spawn_env *worktree_pool_env(const struct worktree_pool *p)
{
	return &p->env;
}

/*
 * The worktree itself lives in a fresh directory of $TMPDIR (its path has
 * no dot-directory: vitest matches forceRerunTriggers against absolute
 * paths with picomatch, which never matches across one), under the
 * repository's own name; .tiadash/worktrees/wt-PID-N links to it.
 */
static int make_slot(struct worktree_pool *p, size_t k, const char *sha)
{
	struct slot *s = &p->slots[k];
	const char *tmp = getenv("TMPDIR");
	char *home = xstrfmt("%s/tiadash-wt-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	char *path, *real;
	char *argv[] = { "git", "-C", p->repo->root, "worktree", "add", "--detach",
			 "--no-checkout", "--force", NULL, (char *)sha, NULL };

	s->link = xstrfmt("%s/wt-%ld-%zu", p->dir, (long)getpid(), k);
	remove_slot(s->link);
	if (!mkdtemp(home)) {
		int ret = error("cannot make a worktree directory '%s': %s", home,
				strerror(errno));

		free(home);
		return ret;
	}
	s->home = home;
	path = path_join(home, conf_base(p->repo->root));
	argv[8] = path;
	if (symlink(path, s->link) < 0) {
		free(path);
		return error("cannot make '%s': %s", s->link, strerror(errno));
	}
	if (spawn_run(argv, NULL, &p->env, "git worktree add") < 0) {
		free(path);
		return -1;
	}
	real = realpath(path, NULL);
	free(path);
	if (!real)
		return error("cannot find the new worktree: %s", strerror(errno));
	s->path = real;
	if (git_repository_open(&s->git, s->path) < 0) {
		const git_error *e = git_error_last();

		return error("cannot open the worktree '%s': %s", s->path,
			     e ? e->message : "unknown error");
	}
	return 0;
}

/* The paths that differ between two commits' trees (both sides), for a narrow checkout. */
static int changed_paths(git_repository *git, const git_oid *from, const git_oid *to,
			 struct strlist *out)
{
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	if (git_commit_lookup(&a, git, from) < 0 || git_commit_lookup(&b, git, to) < 0 ||
	    git_commit_tree(&ta, a) < 0 || git_commit_tree(&tb, b) < 0 ||
	    git_diff_tree_to_tree(&diff, git, ta, tb, NULL) < 0)
		goto out;
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strlist_push(out, d->old_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strlist_push(out, d->new_file.path);
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return ret;
}

/*
 * Check sha out. From a slot's earlier checkout only the paths the two
 * commits change are rewritten (a full checkout stats and lists every file
 * and directory: 15 ms a call on a 300-file tree, most of a selector
 * call's cost); full also removes every untracked, unignored file.
 */
static int checkout(struct slot *s, const char *sha, bool full)
{
	git_checkout_options co;
	git_object *commit = NULL;
	struct strlist paths = STRLIST_INIT;
	git_oid oid, from;
	int ret = 0;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED;
	if (git_oid_fromstr(&oid, sha) < 0)
		BUG("not a commit id: '%s'", sha);
	if (!full && s->sha[0] && git_oid_fromstr(&from, s->sha) == 0 &&
	    changed_paths(s->git, &from, &oid, &paths) == 0) {
		if (!paths.nr)
			goto head; /* the same tree */
		co.paths.strings = paths.items;
		co.paths.count = paths.nr;
		co.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	}
	if (git_object_lookup(&commit, s->git, &oid, GIT_OBJECT_COMMIT) < 0 ||
	    git_checkout_tree(s->git, commit, &co) < 0)
		goto fail;
head:
	if (git_repository_set_head_detached(s->git, &oid) < 0)
		goto fail;
	memcpy(s->sha, sha, 40);
	s->sha[40] = '\0';
	goto out;
fail:
	{
		const git_error *e = git_error_last();

		ret = error("cannot check %.12s out in '%s': %s", sha, s->path,
			    e ? e->message : "unknown error");
		s->sha[0] = '\0';
	}
out:
	git_object_free(commit);
	strlist_release(&paths);
	return ret;
}

static int run_setup(struct worktree_pool *p, struct slot *s)
{
	struct spawn_env env = SPAWN_ENV_INIT;
	int ret;

	spawn_env_copy(&env, &p->env);
	spawn_env_set(&env, "TIADASH_TREE", s->path);
	spawn_env_set(&env, "TIADASH_REPO", p->repo->root);
	ret = spawn_run_shell(p->setup, s->path, &env, "the worktree setup (--setup)");
	spawn_env_release(&env);
	return ret;
}

int worktree_pool_checkout(struct worktree_pool *p, size_t k, const char *sha,
			   const char **path)
{
	struct slot *s = &p->slots[k];
	bool fresh = !s->link;

	if (k >= p->nr)
		BUG("worktree slot %zu of %zu", k, p->nr);
	if (fresh && make_slot(p, k, sha) < 0)
		return -1;
	if (strcmp(s->sha, sha) && checkout(s, sha, false) < 0)
		return -1;
	if (fresh && p->setup && run_setup(p, s) < 0)
		return -1;
	*path = s->path;
	return 0;
}

int worktree_pool_reset(struct worktree_pool *p, size_t k)
{
	struct slot *s = &p->slots[k];
	char sha[41];

	if (!s->path || !s->sha[0])
		return error("worktree slot %zu holds no checkout", k);
	memcpy(sha, s->sha, sizeof(sha));
	return checkout(s, sha, true);
}

void worktree_pool_close(struct worktree_pool *p)
{
	bool made = false;

	if (!p)
		return;
	for (size_t i = 0; i < p->nr; i++) {
		struct slot *s = &p->slots[i];

		git_repository_free(s->git);
		if (s->home)
			remove_tree(s->home);
		if (s->link) {
			unlink(s->link);
			made = true;
		}
		free(s->path);
		free(s->home);
		free(s->link);
	}
	if (made)
		prune(p);
	rmdir(p->dir); /* when empty */
	spawn_env_release(&p->env);
	free(p->slots);
	free(p->setup);
	free(p->dir);
	free(p);
}
