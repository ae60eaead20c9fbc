/* libgit2 access: open, resolve, three-dot diffs with added lines, trees. */
#include "core/tiadash.h"
#include "core/repo.h"

#include <dlfcn.h>
#include <pthread.h>

/* libgit2 is initialised while any repository is open (also on worker threads). */
static pthread_mutex_t libgit2_lock = PTHREAD_MUTEX_INITIALIZER;
static int libgit2_users;
static _Thread_local bool libgit2_starting;

/*
 * libgit2 built with mbedTLS (Debian's is) parses the system's whole CA
 * bundle in git_libgit2_init, for the HTTPS transports: 6 ms of every
 * command that opens a repository (a third of a short one's), 0.13 s
 * under valgrind. tiadash never fetches through libgit2 (HTTP is
 * libcurl's, with its own CAs), so while this thread starts libgit2 the
 * parse is skipped: the executable's definition comes first in the
 * dynamic linker's lookup order. libgit2 then holds an empty CA chain,
 * and a TLS connection of its own would fail verification. Any other
 * call goes on to mbedTLS's own function.
 */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	int (*parse)(void *, const char *);

	if (libgit2_starting)
		return 0;
	*(void **)&parse = dlsym(RTLD_NEXT, "mbedtls_x509_crt_parse_file");
	return parse ? parse(chain, path) : -1;
}

static void libgit2_up(void)
{
	pthread_mutex_lock(&libgit2_lock);
	if (libgit2_users++ == 0) {
		libgit2_starting = true;
		git_libgit2_init();
		libgit2_starting = false;
	}
	pthread_mutex_unlock(&libgit2_lock);
}

static void libgit2_down(void)
{
	pthread_mutex_lock(&libgit2_lock);
	if (--libgit2_users == 0)
		git_libgit2_shutdown();
	pthread_mutex_unlock(&libgit2_lock);
}

static const char *git_reason(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

static git_repository *open_git(const char *path)
{
	git_repository *git = NULL;

	if (git_repository_open_ext(&git, path ? path : ".",
				    path ? GIT_REPOSITORY_OPEN_NO_SEARCH : 0,
				    NULL) < 0)
		return NULL;
	return git;
}

static char *root_of(git_repository *git)
{
	const char *dir = git_repository_workdir(git);
	size_t n;

	if (!dir)
		dir = git_repository_path(git);
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return xstrndup(dir, n);
}

char *repo_discover_root(const char *path)
{
	git_repository *git;
	char *root;

	libgit2_up();
	git = open_git(path);
	root = git ? root_of(git) : NULL;
	git_repository_free(git);
	libgit2_down();
	return root;
}

static struct repo *repo_of(git_repository *git)
{
	struct repo *r = xcalloc(1, sizeof(*r));

	r->git = git;
	r->root = root_of(git);
	return r;
}

int repo_open(struct repo **out, const char *path)
{
	git_repository *git;

	*out = NULL;
	libgit2_up();
	git = open_git(path);
	if (!git) {
		/* libgit2's message is gone once it shuts down: say it first. */
		int ret = path ? error("cannot open git repository '%s': %s", path,
				       git_reason())
			       : error("not in a git repository (give --repo PATH)");

		libgit2_down();
		return ret;
	}
	*out = repo_of(git);
	return 0;
}

/*
 * One libgit2 start for finding and opening: each start loads the system's
 * CA certificates (a tenth of a report's instructions, twice over when
 * repo_discover_root shut libgit2 down before repo_open).
 */
void repo_open_around(struct repo **out)
{
	git_repository *git;

	libgit2_up();
	git = open_git(NULL);
	*out = git ? repo_of(git) : NULL;
	if (!git)
		libgit2_down();
}

void repo_later_init(struct repo_later *l, struct repo *opened)
{
	pthread_mutex_init(&l->lock, NULL);
	l->tried = opened != NULL;
	l->repo = opened;
}

struct repo *repo_later_get(struct repo_later *l)
{
	struct repo *r;

	pthread_mutex_lock(&l->lock);
	if (!l->tried) {
		l->tried = true;
		repo_open_around(&l->repo);
	}
	r = l->repo;
	pthread_mutex_unlock(&l->lock);
	return r;
}

void repo_later_release(struct repo_later *l)
{
	repo_close(l->repo);
	pthread_mutex_destroy(&l->lock);
	memset(l, 0, sizeof(*l));
}

void repo_close(struct repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->root);
	free(r);
	libgit2_down();
}

int repo_resolve(struct repo *r, const char *rev, char out[41])
{
	git_object *obj = NULL;
	git_object *commit = NULL;

	if (git_revparse_single(&obj, r->git, rev) < 0)
		return error("unknown revision '%s': %s", rev, git_reason());
	if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return error("'%s' is not a commit", rev);
	}
	git_oid_tostr(out, 41, git_object_id(commit));
	git_object_free(commit);
	git_object_free(obj);
	return 0;
}

static git_commit *lookup_commit(struct repo *r, const char *sha)
{
	git_oid oid;
	git_commit *c = NULL;

	if (!sha || git_oid_fromstrn(&oid, sha, strlen(sha)) < 0 ||
	    strlen(sha) != GIT_OID_HEXSZ)
		return NULL;
	if (git_commit_lookup(&c, r->git, &oid) < 0)
		return NULL;
	return c;
}

bool repo_has_commit(struct repo *r, const char *sha)
{
	git_commit *c = lookup_commit(r, sha);

	git_commit_free(c);
	return c != NULL;
}

const char *change_status_name(int status)
{
	switch (status) {
	case CHANGE_ADDED: return "added";
	case CHANGE_MODIFIED: return "modified";
	case CHANGE_DELETED: return "deleted";
	case CHANGE_RENAMED: return "renamed";
	case CHANGE_TYPECHANGE: return "typechange";
	}
	return "unknown";
}

int change_status_from_name(const char *name)
{
	static const int all[] = { CHANGE_ADDED, CHANGE_MODIFIED, CHANGE_DELETED,
				   CHANGE_RENAMED, CHANGE_TYPECHANGE };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(name, change_status_name(all[i])))
			return all[i];
	return 0;
}

void repo_diff_release(struct repo_diff *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->files[i].path);
		free(d->files[i].old_path);
		lineset_release(&d->files[i].added);
	}
	free(d->files);
	d->files = NULL;
	d->nr = d->alloc = 0;
}

static int status_of(git_delta_t s)
{
	switch (s) {
	case GIT_DELTA_ADDED: return CHANGE_ADDED;
	case GIT_DELTA_DELETED: return CHANGE_DELETED;
	case GIT_DELTA_RENAMED: return CHANGE_RENAMED;
	case GIT_DELTA_TYPECHANGE: return CHANGE_TYPECHANGE;
	default: return CHANGE_MODIFIED;
	}
}

static void add_file(struct repo_diff *d, const git_diff_delta *delta)
{
	struct changed_file *f;

	ALLOC_GROW(d->files, d->nr + 1, d->alloc);
	f = &d->files[d->nr++];
	memset(f, 0, sizeof(*f));
	f->status = status_of(delta->status);
	if (delta->status == GIT_DELTA_DELETED) {
		f->path = xstrdup(delta->old_file.path);
	} else {
		f->path = xstrdup(delta->new_file.path);
		if (delta->status == GIT_DELTA_RENAMED)
			f->old_path = xstrdup(delta->old_file.path);
	}
}

/*
 * One side of a file as git diff reads it: a blob's bytes, "Subproject
 * commit SHA" for a submodule, nothing when the side does not exist.
 */
struct side {
	git_blob *blob;
	const char *buf;
	size_t len;
	char gitlink[64];
};

static void empty_side(struct side *s)
{
	memset(s, 0, sizeof(*s));
	s->buf = "";
}

static int load_side(struct repo *r, const git_diff_file *f, struct side *s)
{
	empty_side(s);
	if (!(f->flags & GIT_DIFF_FLAG_EXISTS) || git_oid_is_zero(&f->id))
		return 0;
	if (f->mode == GIT_FILEMODE_COMMIT) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &f->id);
		snprintf(s->gitlink, sizeof(s->gitlink), "Subproject commit %s\n", hex);
		s->buf = s->gitlink;
		s->len = strlen(s->gitlink);
		return 0;
	}
	if (git_blob_lookup(&s->blob, r->git, &f->id) < 0)
		return error("cannot read blob of '%s': %s", f->path, git_reason());
	s->buf = git_blob_rawcontent(s->blob);
	s->len = (size_t)git_blob_rawsize(s->blob);
	return 0;
}

/*
 * git's rules for "Binary files differ": a NUL in the first 8000 bytes, or
 * a file past core.bigFileThreshold's default (512 MiB).
 */
static bool side_is_binary(const struct side *s)
{
	size_t n = s->len < 8000 ? s->len : 8000;

	return s->len > ((size_t)512 << 20) || memchr(s->buf, '\0', n) != NULL;
}

/*
 * With no context lines, git diff (xdiff-interface.c's xdi_diff) first drops
 * the common tail of both files in whole 1 KiB blocks, cut back to a line
 * end, and diffs what is left; where a change could align two ways, the
 * shorter input changes the answer. libgit2 diffs whole files, so to give
 * git's added lines the same tail is dropped here first.
 */
static void drop_common_tail(const struct side *a, size_t *alen,
			     const struct side *b, size_t *blen)
{
	const size_t blk = 1024;
	size_t smaller = a->len < b->len ? a->len : b->len, cut = 0, back = 0;
	const char *rest;

	while (cut + blk <= smaller &&
	       !memcmp(a->buf + a->len - cut - blk, b->buf + b->len - cut - blk, blk))
		cut += blk;
	/* Keep the line the cut falls in: up to the first newline after it. */
	rest = a->buf + a->len - cut;
	while (back < cut && rest[back++] != '\n')
		;
	*alen = a->len - (cut - back);
	*blen = b->len - (cut - back);
}

/* With no context, a hunk's new side is exactly the lines it adds. */
static int on_hunk(const git_diff_delta *delta, const git_diff_hunk *hunk, void *payload)
{
	struct lineset *added = payload;

	UNUSED(delta);
	for (int i = 0; i < hunk->new_lines; i++)
		lineset_add(added, (uint32_t)(hunk->new_start + i));
	return 0;
}

/*
 * The added lines of one changed file, as `git diff -U0` prints them:
 * Myers with the indent heuristic (git's default since 2.14), the common
 * tail dropped first, binaries without lines. A type change is a deletion
 * and an addition for git, so every line of the new side is added.
 */
static int file_added_lines(struct repo *r, const git_diff_delta *delta,
			    struct lineset *added)
{
	struct side a, b;
	git_diff_options opts;
	size_t alen, blen;
	int ret;

	if (delta->status == GIT_DELTA_DELETED)
		return 0;
	if (load_side(r, &delta->new_file, &b) < 0)
		return -1;
	if (delta->status == GIT_DELTA_TYPECHANGE) {
		empty_side(&a);
	} else if (load_side(r, &delta->old_file, &a) < 0) {
		git_blob_free(b.blob);
		return -1;
	}
	ret = 0;
	if (!side_is_binary(&a) && !side_is_binary(&b)) {
		git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
		opts.context_lines = 0;
		opts.interhunk_lines = 0;
		opts.flags = GIT_DIFF_INDENT_HEURISTIC | GIT_DIFF_FORCE_TEXT;
		drop_common_tail(&a, &alen, &b, &blen);
		if (git_diff_buffers(a.buf, alen, delta->old_file.path, b.buf, blen,
				     delta->new_file.path, &opts, NULL, NULL, on_hunk,
				     NULL, added) < 0)
			ret = error("cannot diff '%s': %s", delta->new_file.path,
				    git_reason());
	}
	git_blob_free(a.blob);
	git_blob_free(b.blob);
	return ret;
}

static int diff_trees(struct repo *r, git_tree *from, git_tree *to,
		      unsigned flags, struct repo_diff *out)
{
	git_diff_options opts;
	git_diff_find_options find;
	git_diff *diff = NULL;
	int ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	/* Lines come from file_added_lines; this diff only names the files. */
	opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_SKIP_BINARY_CHECK;
	find.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_tree_to_tree(&diff, r->git, from, to, &opts) < 0 ||
	    (!(flags & REPO_DIFF_NO_RENAMES) && git_diff_find_similar(diff, &find) < 0)) {
		ret = error("cannot diff trees: %s", git_reason());
		goto out;
	}
	for (size_t i = 0; i < git_diff_num_deltas(diff) && !ret; i++) {
		const git_diff_delta *delta = git_diff_get_delta(diff, i);

		add_file(out, delta);
		ret = file_added_lines(r, delta, &out->files[out->nr - 1].added);
	}
out:
	git_diff_free(diff);
	return ret;
}

int repo_diff_three_dot(struct repo *r, const char *base, const char *head,
			unsigned flags, struct repo_diff *out, const char **missing)
{
	git_commit *b = lookup_commit(r, base), *h = lookup_commit(r, head);
	git_commit *mb = NULL;
	git_tree *from = NULL, *to = NULL;
	git_oid mb_oid;
	int ret = REPO_UNKNOWN_COMMIT;

	*missing = NULL;
	if (!h)
		*missing = head;
	else if (!b)
		*missing = base;
	else if (git_merge_base(&mb_oid, r->git, git_commit_id(b),
				git_commit_id(h)) < 0 ||
		 git_commit_lookup(&mb, r->git, &mb_oid) < 0)
		*missing = "merge base";
	if (*missing)
		goto out;
	git_oid_tostr(out->merge_base, sizeof(out->merge_base), &mb_oid);
	if (git_commit_tree(&from, mb) < 0 || git_commit_tree(&to, h) < 0) {
		ret = error("cannot read the trees of %s...%s: %s", base, head,
			    git_reason());
		goto out;
	}
	ret = diff_trees(r, from, to, flags, out);
out:
	git_tree_free(from);
	git_tree_free(to);
	git_commit_free(mb);
	git_commit_free(b);
	git_commit_free(h);
	return ret;
}

git_tree *repo_tree_at(struct repo *r, const char *sha)
{
	git_commit *c = lookup_commit(r, sha);
	git_tree *t = NULL;

	if (c && git_commit_tree(&t, c) < 0)
		t = NULL;
	git_commit_free(c);
	return t;
}

bool repo_tree_has_file(git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	bool found;

	if (git_tree_entry_bypath(&e, tree, path) < 0)
		return false;
	found = git_tree_entry_type(e) == GIT_OBJECT_BLOB;
	git_tree_entry_free(e);
	return found;
}

int repo_tree_read_file(struct repo *r, git_tree *tree, const char *path,
			struct strbuf *sb)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int ret = -1;

	if (git_tree_entry_bypath(&e, tree, path) < 0)
		return -1;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&blob, r->git, git_tree_entry_id(e)) == 0) {
		strbuf_add(sb, git_blob_rawcontent(blob),
			   (size_t)git_blob_rawsize(blob));
		ret = 0;
	}
	git_blob_free(blob);
	git_tree_entry_free(e);
	return ret;
}
