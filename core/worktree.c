/* A pool of detached worktrees under .tiadash/worktrees/, reused between checkouts and cleaned after a kill. */
#include "core/tiadash.h"
#include "core/worktree.h"
#include "core/gitindex.h"
#include "core/strmap.h"
#include "core/tiadir.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Files and directories a checkout removed, moved to home/.tiadash-recycled
 * (the worktree's file system, outside it) instead of deleted, and moved
 * back in place of ones a later checkout makes. ext4 skips the inodes
 * freed in the last seconds when it allocates one, reading each: replay's
 * own deletions, hundreds a second in one directory group, made each new
 * file or directory cost 0.5 ms (most of a selector call). Ids name the
 * entries (f17, d3); stacks of them, up to RECYCLED_MAX each, the rest
 * deleted.
 */
#define RECYCLED_MAX 4096
struct id_stack {
	size_t *v;
	size_t nr, alloc;
};
struct recycled {
	int fd; /* the directory (-1: none, everything is deleted) */
	struct id_stack files, dirs;
	size_t next; /* the next id */
};

/*
 * A path whose entry differs between the two commits' trees: its mode
 * (0: absent on that side) and blob id on each side. Directories are
 * never changes themselves; their files are.
 */
struct change {
	char *path;
	unsigned old_mode, new_mode;
	git_oid old_id, new_id;
};

struct changes {
	struct change *at;
	size_t nr, alloc;
};

/*
 * A slot's next checkout read ahead (worktree_pool_read_ahead) while its
 * worktree is busy: the changes from its commit (from) to another (to),
 * that commit's tree, and the new sides' blobs (NULL past AHEAD_BLOB_BYTES
 * in all, or where no blob is), so the checkout that follows only writes.
 */
#define AHEAD_BLOB_BYTES (8u << 20)
struct ahead {
	char from[41], to[41]; /* "": nothing read ahead */
	struct changes ch;
	git_tree *tree;
	git_blob **blobs;      /* ch.nr of them */
};

struct slot {
	char *link;          /* .tiadash/worktrees/wt-PID-N */
	char *home;          /* the mkdtemp directory holding it */
	char *path;          /* the worktree (home/NAME); NULL until made */
	git_repository *git; /* the worktree, opened */
	int fd;              /* the worktree's directory, opened (-1: not yet) */
	struct recycled bin; /* what checkouts removed, kept for the next to reuse */
	char *index_path;    /* the worktree's index file */
	struct strbuf index_bytes; /* what we last wrote there (kept: a new buffer each call faulted in) */
	struct stat index_st; /* the file as we last wrote it in place, */
	bool index_known;    /* when set (else libgit2 wrote it last, or nothing has) */
	bool empty;          /* made, nothing checked out yet (git worktree add --no-checkout) */
	bool attr_outside;   /* attributes or core.autocrlf from outside the tree */
	char sha[41];        /* what is checked out */
	struct ahead ahead;
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
	for (size_t i = 0; i < p->nr; i++) {
		p->slots[i].fd = p->slots[i].bin.fd = -1;
		p->slots[i].index_bytes = (struct strbuf)STRBUF_INIT;
	}
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

/* The bin of a slot made in home (none when it cannot be made: files are deleted then). */
static void open_bin(struct recycled *b, const char *home)
{
	char *path = path_join(home, ".tiadash-recycled");

	if (mkdir(path, 0700) == 0)
		b->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(path);
}

static void close_bin(struct recycled *b)
{
	if (b->fd >= 0)
		close(b->fd);
	free(b->files.v);
	free(b->dirs.v);
}

static bool attributes_outside(git_repository *git);

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
	s->fd = open(s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* -1: libgit2 checks out */
	open_bin(&s->bin, home);
	if (git_repository_open(&s->git, s->path) < 0) {
		const git_error *e = git_error_last();

		return error("cannot open the worktree '%s': %s", s->path,
			     e ? e->message : "unknown error");
	}
	s->index_path = path_join(git_repository_path(s->git), "index");
	s->attr_outside = attributes_outside(s->git);
	s->empty = true;
	return 0;
}

/* ---- the checkout of one commit after another: only what the two trees change ---- */

static void changes_release(struct changes *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->at[i].path);
	free(c->at);
	memset(c, 0, sizeof(*c));
}

static void add_change(struct changes *c, const char *dir, const git_tree_entry *old,
		       const git_tree_entry *new)
{
	const git_tree_entry *e = old ? old : new;
	struct change *ch;

	ALLOC_GROW(c->at, c->nr + 1, c->alloc);
	ch = &c->at[c->nr++];
	memset(ch, 0, sizeof(*ch));
	ch->path = xstrfmt("%s%s", dir, git_tree_entry_name(e));
	if (old) {
		ch->old_mode = (unsigned)git_tree_entry_filemode(old);
		git_oid_cpy(&ch->old_id, git_tree_entry_id(old));
	}
	if (new) {
		ch->new_mode = (unsigned)git_tree_entry_filemode(new);
		git_oid_cpy(&ch->new_id, git_tree_entry_id(new));
	}
}

static int diff_trees(git_repository *git, const git_oid *a, const git_oid *b,
		      const char *dir, struct changes *out);

/* Entries old and new (either NULL) of one name: their files that differ. */
static int diff_entries(git_repository *git, const char *dir, const git_tree_entry *old,
			const git_tree_entry *new, struct changes *out)
{
	bool old_tree = old && git_tree_entry_type(old) == GIT_OBJECT_TREE;
	bool new_tree = new && git_tree_entry_type(new) == GIT_OBJECT_TREE;
	char *sub;
	int ret;

	if (old && new && git_tree_entry_filemode(old) == git_tree_entry_filemode(new) &&
	    git_oid_equal(git_tree_entry_id(old), git_tree_entry_id(new)))
		return 0;
	if (!old_tree && !new_tree) {
		add_change(out, dir, old, new);
		return 0;
	}
	/* A directory on one side or both (tree order puts a file and a directory of one name apart). */
	sub = xstrfmt("%s%s/", dir, git_tree_entry_name(old_tree ? old : new));
	ret = diff_trees(git, old_tree ? git_tree_entry_id(old) : NULL,
			 new_tree ? git_tree_entry_id(new) : NULL, sub, out);
	free(sub);
	if (!ret && old && new && old_tree != new_tree)
		add_change(out, dir, old_tree ? NULL : old, new_tree ? NULL : new);
	return ret;
}

/*
 * The files that differ between trees a and b (NULL: empty), below dir
 * ("" or ending in '/'), skipping the subtrees both sides share: the two
 * sorted entry lists merged in git's tree order. -1 when a tree cannot be
 * read (libgit2's error set).
 */
static int diff_trees(git_repository *git, const git_oid *a, const git_oid *b,
		      const char *dir, struct changes *out)
{
	git_tree *ta = NULL, *tb = NULL;
	size_t i = 0, j = 0, na, nb;
	int ret = -1;

	if ((a && git_tree_lookup(&ta, git, a) < 0) || (b && git_tree_lookup(&tb, git, b) < 0))
		goto out;
	na = ta ? git_tree_entrycount(ta) : 0;
	nb = tb ? git_tree_entrycount(tb) : 0;
	while (i < na || j < nb) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(ta, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(tb, j) : NULL;
		int c = !ea ? 1 : !eb ? -1 : git_tree_entry_cmp(ea, eb);

		if (diff_entries(git, dir, c <= 0 ? ea : NULL, c >= 0 ? eb : NULL, out) < 0)
			goto out;
		i += c <= 0;
		j += c >= 0;
	}
	ret = 0;
out:
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/*
 * The changes from commit from (NULL: none, an empty tree) to commit to,
 * into ch, and with tree, to's tree (the caller frees both). -1 when one
 * cannot be read (libgit2's error set).
 */
static int commit_changes(git_repository *git, const git_oid *from, const git_oid *to,
			  struct changes *ch, git_tree **tree)
{
	git_commit *a = NULL, *b = NULL;
	int ret = -1;

	if ((!from || git_commit_lookup(&a, git, from) == 0) &&
	    git_commit_lookup(&b, git, to) == 0 &&
	    diff_trees(git, a ? git_commit_tree_id(a) : NULL, git_commit_tree_id(b), "", ch) == 0 &&
	    (!tree || git_commit_tree(tree, b) == 0))
		ret = 0;
	git_commit_free(a);
	git_commit_free(b);
	return ret;
}

static bool is_regular_mode(unsigned mode)
{
	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

static bool is_blob_mode(unsigned mode)
{
	return is_regular_mode(mode) || mode == GIT_FILEMODE_LINK;
}

/* Is a file named in GIT_OPT_GET_SEARCH_PATH's directories for level there? */
static bool in_search_path(int level, const char *name)
{
	git_buf dirs = { 0 };
	bool found = false;

	if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &dirs) < 0)
		return true; /* unknown: as if there */
	for (const char *d = dirs.ptr; d && *d && !found;) {
		size_t n = strcspn(d, ":");
		char *path = xstrfmt("%.*s/%s", (int)n, d, name);

		found = n && access(path, F_OK) == 0;
		free(path);
		d += n + (d[n] == ':');
	}
	git_buf_dispose(&dirs);
	return found;
}

/*
 * Could attributes from outside the tree, or core.autocrlf, give a path a
 * filter (eol conversion, ident, lfs)? The system's and the user's
 * attributes files, core.attributesFile and $GIT_DIR/info/attributes.
 */
static bool attributes_outside(git_repository *git)
{
	char *info = path_join(git_repository_commondir(git), "info/attributes");
	git_config *cfg = NULL;
	git_config_entry *crlf = NULL;
	git_buf file = { 0 };
	int on = 0;
	bool found = access(info, F_OK) == 0 || in_search_path(GIT_CONFIG_LEVEL_SYSTEM, "gitattributes") ||
		     in_search_path(GIT_CONFIG_LEVEL_XDG, "attributes");

	free(info);
	if (git_repository_config_snapshot(&cfg, git) < 0)
		return true;
	if (git_config_get_path(&file, cfg, "core.attributesfile") == 0)
		found = true;
	/* "input" is not a boolean: any value but false converts. */
	if (git_config_get_entry(&crlf, cfg, "core.autocrlf") == 0 &&
	    (git_config_parse_bool(&on, crlf->value) < 0 || on))
		found = true;
	git_config_entry_free(crlf);
	git_buf_dispose(&file);
	git_config_free(cfg);
	return found;
}

/*
 * Whether tree has a .gitattributes in the directory path[0, len) (a
 * prefix of a path ending in '/', or "" for the root) or above it. Each
 * directory's answer is kept in seen for the rest of one checkout: asking
 * for every path read the same directories' trees once per file (a commit
 * of 3000 files in one directory took 3 s of inflating and hashing it).
 */
static bool attrs_at_or_above(git_tree *tree, struct strmap *seen, const char *path,
			      size_t len)
{
	struct strmap_entry *known = strmap_find(seen, path, len);
	size_t up = len ? len - 1 : 0;
	git_tree_entry *e = NULL;
	char *attrs;
	bool found;

	if (known)
		return known->value;
	while (up && path[up - 1] != '/')
		up--;
	found = len && attrs_at_or_above(tree, seen, path, up);
	if (!found) {
		attrs = xstrfmt("%.*s.gitattributes", (int)len, path);
		found = git_tree_entry_bypath(&e, tree, attrs) == 0;
		git_tree_entry_free(e);
		free(attrs);
	}
	strmap_put(seen, path, len, found);
	return found;
}

/*
 * Would checking path out of commit (its tree: tree) run a filter over it?
 * Only where attributes can come from: a .gitattributes of the tree in
 * path's directory or above it (seen: attrs_at_or_above's answers), or one
 * outside the tree (s->attr_outside); then libgit2 answers (slowly: it
 * looks in the worktree as well).
 */
static int filtered(struct slot *s, struct strmap *seen, const git_oid *commit,
		    git_tree *tree, const char *path, bool *out)
{
	git_filter_options fo;
	git_filter_list *fl = NULL;
	const char *slash = strrchr(path, '/');

	*out = false;
	if (!s->attr_outside && !attrs_at_or_above(tree, seen, path, slash ? slash - path + 1 : 0))
		return 0;
	memset(&fo, 0, sizeof(fo));
	fo.version = GIT_FILTER_OPTIONS_VERSION;
	fo.flags = GIT_FILTER_ATTRIBUTES_FROM_COMMIT;
	git_oid_cpy(&fo.attr_commit_id, commit);
	if (git_filter_list_load_ext(&fl, s->git, NULL, path, GIT_FILTER_TO_WORKTREE, &fo) < 0)
		return -1;
	*out = fl != NULL;
	git_filter_list_free(fl);
	return 0;
}

/* ---- the recycled files and directories (struct recycled) ---- */

static void bin_name(char kind, size_t id, char name[32])
{
	snprintf(name, 32, "%c%zu", kind, id);
}

/* Move path (below fd) into the bin; false when it is to be deleted instead. */
static bool recycle(struct recycled *b, int fd, const char *path, bool dir)
{
	struct id_stack *st = dir ? &b->dirs : &b->files;
	char name[32];

	if (b->fd < 0 || st->nr >= RECYCLED_MAX)
		return false;
	bin_name(dir ? 'd' : 'f', b->next, name);
	if (renameat(fd, path, b->fd, name) < 0)
		return false;
	ALLOC_GROW(st->v, st->nr + 1, st->alloc);
	st->v[st->nr++] = b->next++;
	return true;
}

/* Does the bin hold a directory (dir) or a file to reuse? */
static bool bin_has(const struct recycled *b, bool dir)
{
	return b->fd >= 0 && (dir ? b->dirs.nr : b->files.nr) > 0;
}

/*
 * Move a recycled entry (bin_has) to path (below fd), where nothing is:
 * true when done; false (errno set) when path is taken or its directory
 * missing.
 */
static bool reuse(struct recycled *b, int fd, const char *path, bool dir)
{
	struct id_stack *st = dir ? &b->dirs : &b->files;
	char name[32];

	bin_name(dir ? 'd' : 'f', st->v[st->nr - 1], name);
	if (renameat2(b->fd, name, fd, path, RENAME_NOREPLACE) < 0)
		return false;
	st->nr--;
	return true;
}

/* Does dir (below fd) hold nothing? */
static bool dir_empty(int fd, const char *dir)
{
	int d = openat(fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dp = d >= 0 ? fdopendir(d) : NULL;
	struct dirent *e;
	bool empty = dp != NULL;

	if (!dp && d >= 0)
		close(d);
	while (dp && empty && (e = readdir(dp)) != NULL)
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	if (dp)
		closedir(dp);
	return empty;
}

/* The directories path's removal left empty, deepest first: into the bin, else removed. */
static void remove_empty_dirs(struct recycled *b, int fd, const char *path)
{
	char *dir = xstrdup(path), *slash;

	while ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (b->fd >= 0 ? !dir_empty(fd, dir) || (!recycle(b, fd, dir, true) &&
							  unlinkat(fd, dir, AT_REMOVEDIR) < 0)
			       : unlinkat(fd, dir, AT_REMOVEDIR) < 0)
			break;
	}
	free(dir);
}

/* Make path's directories (below the worktree, fd), recycled ones first; false when one cannot be. */
static bool make_dirs(struct recycled *b, int fd, const char *path)
{
	char *dir = xstrdup(path);
	bool ok = true;

	for (char *p = dir; ok && (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		ok = (bin_has(b, true) && (reuse(b, fd, dir, true) || errno == EEXIST)) ||
		     mkdirat(fd, dir, 0777) == 0 || errno == EEXIST;
		*p = '/';
	}
	free(dir);
	return ok;
}

static void index_entry_from_stat(git_index_entry *e, const struct stat *st)
{
	e->ctime.seconds = (int32_t)st->st_ctim.tv_sec;
	e->ctime.nanoseconds = (uint32_t)st->st_ctim.tv_nsec;
	e->mtime.seconds = (int32_t)st->st_mtim.tv_sec;
	e->mtime.nanoseconds = (uint32_t)st->st_mtim.tv_nsec;
	e->dev = (uint32_t)st->st_dev;
	e->ino = (uint32_t)st->st_ino;
	e->uid = (uint32_t)st->st_uid;
	e->gid = (uint32_t)st->st_gid;
	e->file_size = (uint32_t)st->st_size;
}

/*
 * Rewrite the regular file at path in place (the inode kept: creating a
 * file costs ext4 40-180 us, a rewrite 5), with the exec bit of mode. 1
 * when done (its stat data in *st), 0 when it is no plain file of ours
 * (absent, a link, a directory, linked twice), -1 on a failed write.
 */
static int rewrite(int fd, const char *path, unsigned mode, const char *data, size_t size,
		   struct stat *st)
{
	int f = openat(fd, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC), ret = -1;
	mode_t perm;

	if (f < 0)
		return 0;
	if (fstat(f, st) < 0 || !S_ISREG(st->st_mode) || st->st_nlink != 1) {
		close(f);
		return 0;
	}
	perm = st->st_mode & 07777;
	if (mode == GIT_FILEMODE_BLOB_EXECUTABLE)
		perm |= (perm & 0444) >> 2;
	else
		perm &= ~(mode_t)0111;
	if (pwrite_all(f, data, size, 0) && ((off_t)size == st->st_size || ftruncate(f, (off_t)size) == 0) &&
	    (perm == (st->st_mode & 07777) || fchmod(f, perm) == 0) && fstat(f, st) == 0)
		ret = 1;
	return close(f) == 0 ? ret : -1;
}

/* Make path anew (after removing what is there): a file of mode, or a symbolic link. */
static bool create(struct recycled *b, int fd, const char *path, unsigned mode,
		   const char *data, size_t size, struct stat *st)
{
	bool ok;

	if (unlinkat(fd, path, 0) < 0 && errno != ENOENT && errno != ENOTDIR)
		return false;
	for (int again = 0; again < 2; again++) {
		if (mode == GIT_FILEMODE_LINK) {
			char *target = xstrndup(data, size);

			ok = symlinkat(target, fd, path) == 0 &&
			     fstatat(fd, path, st, AT_SYMLINK_NOFOLLOW) == 0;
			free(target);
		} else {
			int f = openat(fd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				       mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0777 : 0666);

			if (f < 0) {
				ok = false;
			} else {
				ok = pwrite_all(f, data, size, 0) && fstat(f, st) == 0;
				ok &= close(f) == 0;
			}
		}
		/* Its directories are made only when missing: most exist. */
		if (ok || errno != ENOENT || !make_dirs(b, fd, path))
			break;
	}
	return ok;
}

/*
 * Write change c's new side at its path and its index entry with the
 * file's stat data, so git finds the tree clean without reading it. A
 * file the old commit had is rewritten in place; nothing is truncated to
 * nothing nor renamed over (ext4 flushes a file replaced either way,
 * auto_da_alloc). ahead: its blob, read ahead (NULL: looked up here; freed
 * here either way). False on failure.
 */
static bool write_new(git_repository *git, struct recycled *b, int fd, git_index *index,
		      const struct change *c, git_blob *ahead)
{
	git_index_entry e;
	git_blob *blob = ahead;
	struct stat st;
	const char *data;
	size_t size;
	int done = 0;
	bool ok;

	if (!blob && git_blob_lookup(&blob, git, &c->new_id) < 0)
		return false;
	data = git_blob_rawcontent(blob);
	size = (size_t)git_blob_rawsize(blob);
	if (c->new_mode != GIT_FILEMODE_LINK && size &&
	    (c->old_mode == GIT_FILEMODE_BLOB || c->old_mode == GIT_FILEMODE_BLOB_EXECUTABLE))
		done = rewrite(fd, c->path, c->new_mode, data, size, &st);
	else if (c->new_mode != GIT_FILEMODE_LINK && size && !c->old_mode && bin_has(b, false) &&
		 (reuse(b, fd, c->path, false) ||
		  (errno == ENOENT && make_dirs(b, fd, c->path) && reuse(b, fd, c->path, false))))
		done = rewrite(fd, c->path, c->new_mode, data, size, &st);
	ok = done > 0 || (!done && create(b, fd, c->path, c->new_mode, data, size, &st));
	if (ok) {
		memset(&e, 0, sizeof(e));
		index_entry_from_stat(&e, &st);
		e.mode = c->new_mode;
		git_oid_cpy(&e.id, &c->new_id);
		e.path = c->path;
		ok = git_index_add(index, &e) == 0;
	}
	git_blob_free(blob);
	return ok;
}

/*
 * HEAD, detached at sha: rewritten in place (always 41 bytes), not through
 * a lock file renamed over it, and without a reflog entry (no selector
 * reads the worktree's reflog). Nothing else uses the slot meanwhile.
 */
static bool write_head(git_repository *git, const char *sha)
{
	char *path = path_join(git_repository_path(git), "HEAD");
	char line[41];
	int f = open(path, O_WRONLY | O_CLOEXEC);
	bool ok;

	free(path);
	memcpy(line, sha, 40);
	line[40] = '\n';
	if (f < 0)
		return false;
	ok = pwrite(f, line, sizeof(line), 0) == (ssize_t)sizeof(line) &&
	     ftruncate(f, sizeof(line)) == 0;
	return close(f) == 0 && ok;
}

/* Rewrite the index file in place (the inode kept: no ext4 allocation), its stat data in *st. */
static bool write_in_place(const char *path, const char *data, size_t size, struct stat *st)
{
	int f = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	bool ok;

	if (f < 0)
		return false;
	ok = pwrite_all(f, data, size, 0) && ftruncate(f, (off_t)size) == 0 && fstat(f, st) == 0;
	return close(f) == 0 && ok;
}

/*
 * Through libgit2: a lock file linked in place of the old index, which is
 * removed first, not renamed over (an ext4 flush, as above).
 */
static bool write_by_libgit2(const char *path, git_index *index)
{
	/*
	 * Every entry matches its file: we wrote them. Said so, libgit2 does
	 * not diff the entries as new as the index ("racily clean": a whole
	 * tree checked out within the second) against the worktree at each
	 * write, 40% of a selector call's cost; git checks those on reading.
	 */
	for (size_t i = 0; i < git_index_entrycount(index); i++)
		((git_index_entry *)git_index_get_byindex(index, i))->flags_extended |=
			GIT_INDEX_ENTRY_UPTODATE;
	return (unlink(path) == 0 || errno == ENOENT) && git_index_write(index) == 0;
}

/*
 * The index after a lean checkout: git's plain form written over the file
 * in place where it holds the index (core/gitindex.h; 35 us a call on the
 * bench's 300-file tree, libgit2's write 175), else by libgit2. What we
 * wrote is remembered, so that the next checkout reads the file again
 * only if a selector's git has rewritten it since.
 */
static bool write_index(struct slot *s, git_index *index)
{
	s->index_known = false;
	strbuf_reset(&s->index_bytes);
	if (gitindex_serialize(index, &s->index_bytes) == 0 &&
	    write_in_place(s->index_path, s->index_bytes.buf, s->index_bytes.len, &s->index_st))
		return s->index_known = true;
	return write_by_libgit2(s->index_path, index);
}

static bool same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Bring libgit2's index of s up to date with the file: nothing to do when
 * it is as we wrote it (libgit2 would parse it again, its own stamp being
 * older), read again when a selector's git rewrote it, else libgit2's own
 * check. False when it cannot be read.
 */
static bool read_index(struct slot *s, git_index *index)
{
	struct stat st;

	if (!s->index_known)
		return git_index_read(index, false) == 0;
	if (stat(s->index_path, &st) == 0 && same_file_state(&st, &s->index_st))
		return true;
	s->index_known = false;
	return git_index_read(index, true) == 0;
}

/* Is what was read ahead in s the change from its checkout to sha? */
static bool ahead_is(const struct slot *s, const char *sha)
{
	return s->sha[0] && !strcmp(s->ahead.from, s->sha) && !strcmp(s->ahead.to, sha);
}

/* Frees what a holds (each part may be missing) and empties it. */
static void ahead_release(struct ahead *a)
{
	for (size_t i = 0; a->blobs && i < a->ch.nr; i++)
		git_blob_free(a->blobs[i]);
	free(a->blobs);
	changes_release(&a->ch);
	git_tree_free(a->tree);
	memset(a, 0, sizeof(*a));
}

/*
 * Move slot s from its checkout (from; NULL: an empty worktree without an
 * index) to commit oid by applying the changes between the two trees
 * ourselves: old files removed (and directories left empty), new ones
 * written, their index entries, the index, HEAD. What a
 * selector reads of a worktree is its files, HEAD and the index (`git
 * status`, `git diff BASE`, `git ls-files`); nothing else is written.
 * Returns 0 when done, 1 when the change needs libgit2's checkout (a
 * submodule, a filter from .gitattributes, a path in the way; the tree may
 * be half changed then, which that checkout repairs), -1 when a tree
 * cannot be read.
 */
static int lean_checkout(struct slot *s, const git_oid *from, const git_oid *to,
			 const char *sha)
{
	struct ahead got = { 0 }; /* what was read ahead, else read here */
	const struct changes *ch = &got.ch;
	struct strmap attr_dirs = STRMAP_INIT; /* filtered's directories */
	git_index *index = NULL;
	int ret = 1;

	if (s->fd < 0)
		return 1;
	if (from && ahead_is(s, sha)) {
		got = s->ahead;
		memset(&s->ahead, 0, sizeof(s->ahead));
	} else if (commit_changes(s->git, from, to, &got.ch, &got.tree) < 0) {
		ret = -1;
		goto out;
	}
	for (size_t i = 0; i < ch->nr; i++) {
		bool f = false;

		if ((ch->at[i].old_mode && !is_blob_mode(ch->at[i].old_mode)) ||
		    (ch->at[i].new_mode && !is_blob_mode(ch->at[i].new_mode)))
			goto out;
		if (ch->at[i].new_mode == GIT_FILEMODE_LINK)
			continue;
		if (ch->at[i].new_mode &&
		    (filtered(s, &attr_dirs, to, got.tree, ch->at[i].path, &f) < 0 || f))
			goto out;
	}
	/* A selector's git may have rewritten the index: read it again if so. */
	if (git_repository_index(&index, s->git) < 0 || !read_index(s, index))
		goto out;
	/* Removals first: a file may give way to a directory of its name. */
	for (size_t i = 0; i < ch->nr; i++) {
		const struct change *c = &ch->at[i];

		if (!c->old_mode || c->new_mode)
			continue;
		if ((!(is_regular_mode(c->old_mode) && recycle(&s->bin, s->fd, c->path, false)) &&
		     unlinkat(s->fd, c->path, 0) < 0 && errno != ENOENT) ||
		    (git_index_remove(index, c->path, 0) < 0 && git_index_get_bypath(index, c->path, 0)))
			goto out;
		remove_empty_dirs(&s->bin, s->fd, c->path);
	}
	for (size_t i = 0; i < ch->nr; i++) {
		git_blob *blob = got.blobs ? got.blobs[i] : NULL;

		if (got.blobs)
			got.blobs[i] = NULL; /* write_new frees it */
		if (ch->at[i].new_mode && !write_new(s->git, &s->bin, s->fd, index, &ch->at[i], blob))
			goto out;
	}
	if ((!ch->nr || write_index(s, index)) && write_head(s->git, sha))
		ret = 0;
out:
	strmap_clear(&attr_dirs);
	git_index_free(index);
	ahead_release(&got);
	return ret;
}

/* The paths that differ between two commits' trees (both sides), for a narrow checkout. */
static int changed_paths(git_repository *git, const git_oid *from, const git_oid *to,
			 struct strlist *out)
{
	struct changes ch = { 0 };
	int ret = commit_changes(git, from, to, &ch, NULL);

	for (size_t i = 0; !ret && i < ch.nr; i++)
		strlist_push(out, ch.at[i].path);
	changes_release(&ch);
	return ret;
}

/*
 * Check sha out. From a slot's earlier checkout only the paths the two
 * commits change are rewritten (a full checkout stats and lists every file
 * and directory: 15 ms a call on a 300-file tree, most of a selector
 * call's cost): by lean_checkout where it can, else by libgit2 over those
 * paths. full (libgit2 over the whole tree) also removes every untracked,
 * unignored file.
 */
static int checkout(struct slot *s, const char *sha, bool full)
{
	git_checkout_options co;
	git_object *commit = NULL;
	struct strlist paths = STRLIST_INIT;
	git_oid oid, from;
	bool empty = s->empty;
	int ret = 0;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED;
	if (git_oid_fromstr(&oid, sha) < 0)
		BUG("not a commit id: '%s'", sha);
	s->empty = false;
	if (!full && (empty || (s->sha[0] && git_oid_fromstr(&from, s->sha) == 0))) {
		/* A new worktree too: libgit2 takes 1 ms a file where we take 0.1. */
		int lean = lean_checkout(s, empty ? NULL : &from, &oid, sha);

		if (lean < 0)
			goto fail;
		if (lean == 0)
			goto done;
		if (!empty && changed_paths(s->git, &from, &oid, &paths) == 0) {
			if (!paths.nr)
				goto head; /* the same tree */
			co.paths.strings = paths.items;
			co.paths.count = paths.nr;
			co.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
		}
	}
	if (git_object_lookup(&commit, s->git, &oid, GIT_OBJECT_COMMIT) < 0 ||
	    git_checkout_tree(s->git, commit, &co) < 0)
		goto fail;
head:
	if (git_repository_set_head_detached(s->git, &oid) < 0)
		goto fail;
done:
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

/* The new sides' blobs of a's changes, up to AHEAD_BLOB_BYTES in all. */
static int read_blobs_ahead(git_repository *git, struct ahead *a)
{
	size_t bytes = 0;

	a->blobs = xcalloc(a->ch.nr + 1, sizeof(*a->blobs));
	for (size_t i = 0; i < a->ch.nr && bytes < AHEAD_BLOB_BYTES; i++) {
		const struct change *c = &a->ch.at[i];

		if (!is_blob_mode(c->new_mode))
			continue;
		if (git_blob_lookup(&a->blobs[i], git, &c->new_id) < 0)
			return -1;
		bytes += (size_t)git_blob_rawsize(a->blobs[i]);
	}
	return 0;
}

void worktree_pool_read_ahead(struct worktree_pool *p, size_t k, const char *sha)
{
	struct slot *s = &p->slots[k];
	struct ahead *a = &s->ahead;
	git_oid from, to;

	if (k >= p->nr)
		BUG("worktree slot %zu of %zu", k, p->nr);
	if (!s->git || !s->sha[0] || !strcmp(s->sha, sha) || ahead_is(s, sha))
		return;
	ahead_release(a);
	if (git_oid_fromstr(&from, s->sha) < 0 || git_oid_fromstr(&to, sha) < 0 ||
	    commit_changes(s->git, &from, &to, &a->ch, &a->tree) < 0 ||
	    read_blobs_ahead(s->git, a) < 0) {
		/* The checkout reads them again, and says what it cannot read. */
		ahead_release(a);
		git_error_clear();
	} else {
		memcpy(a->from, s->sha, sizeof(a->from));
		memcpy(a->to, sha, 40);
		a->to[40] = '\0';
	}
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
	ahead_release(&s->ahead); /* what a checkout did not take is stale */
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

		ahead_release(&s->ahead);
		git_repository_free(s->git);
		if (s->fd >= 0)
			close(s->fd);
		close_bin(&s->bin);
		if (s->home)
			remove_tree(s->home);
		if (s->link) {
			unlink(s->link);
			made = true;
		}
		free(s->path);
		free(s->index_path);
		strbuf_release(&s->index_bytes);
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
