/* The first-parent walk and each commit's changed paths, by a tree comparison of our own. */
#include "core/tiadash.h"
#include "replay/replay.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * libgit2's generic diff is 8-14x slower than git log for name-only history
 * (PERF-NOTES.md); comparing the two trees ourselves, skipping subtrees
 * whose ids are equal, is within 1.5x. The walk only reads, so the object
 * hash check is off while it runs, and so is libgit2's object cache (the
 * tree comparison keeps its own, below).
 */
static void walk_mode(bool on)
{
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, on ? 0 : 1);
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, on ? 0 : 1);
}

const char *replay_fail_name(enum replay_fail f)
{
	static const char *const names[] = {
		"", "shallow-history", "unreadable-commit", "unreadable-tree",
		"empty-diff",
	};

	return names[f];
}

bool replay_paths_known(const struct replay_commit *c)
{
	return c->fail == REPLAY_OK || c->fail == REPLAY_FAIL_EMPTY;
}

void replay_history_release(struct replay_history *h)
{
	for (size_t i = 0; i < h->nr; i++) {
		free(h->commits[i].subject);
		strlist_release(&h->commits[i].paths);
	}
	free(h->commits);
	memset(h, 0, sizeof(*h));
}

static bool parse_digits(const char *s, size_t n, int64_t *out)
{
	int64_t v = 0;

	if (!n || n > 12)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* PR number from a subject: "Merge pull request #N ..." or "... (#N)". */
static bool subject_pr(const char *subject, int64_t *pr)
{
	static const char merge[] = "Merge pull request #";
	size_t n = strlen(subject);
	const char *open;

	if (starts_with(subject, merge)) {
		const char *d = subject + sizeof(merge) - 1;

		return parse_digits(d, strspn(d, "0123456789"), pr);
	}
	while (n && (subject[n - 1] == ' ' || subject[n - 1] == '\t'))
		n--;
	if (n < 4 || subject[n - 1] != ')')
		return false;
	open = subject + n - 2;
	while (open > subject && *open >= '0' && *open <= '9')
		open--;
	if (open < subject + 1 || open[0] != '#' || open[-1] != '(')
		return false;
	return parse_digits(open + 1, (size_t)(subject + n - 1 - (open + 1)), pr);
}

/*
 * GitLab's merge commit names its merge request in the body, not the
 * subject: a line "See merge request group/project!N".
 */
static bool gitlab_trailer_pr(const char *message, int64_t *pr)
{
	static const char see[] = "See merge request ";
	const char *line = message;

	while (line && *line) {
		size_t n = strcspn(line, "\r\n"), digits = 0;

		if (starts_with(line, see)) {
			while (digits < n && line[n - 1 - digits] >= '0' &&
			       line[n - 1 - digits] <= '9')
				digits++;
			if (digits && digits < n && line[n - 1 - digits] == '!')
				return parse_digits(line + n - digits, digits, pr);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

static bool message_pr(const char *subject, const char *message, int64_t *pr)
{
	return subject_pr(subject, pr) || gitlab_trailer_pr(message, pr);
}

static char *first_line(const char *msg)
{
	size_t n;

	while (*msg == '\n' || *msg == '\r')
		msg++;
	n = strcspn(msg, "\n");
	while (n && (msg[n - 1] == '\r' || msg[n - 1] == ' ' || msg[n - 1] == '\t'))
		n--;
	return xstrndup(msg, n);
}

static const char *git_reason(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* Commits that a shallow clone cut off from their parents ($GIT_DIR/shallow). */
static void read_shallow(git_repository *git, struct strmap *out)
{
	char *path = path_join(git_repository_commondir(git), "shallow");
	FILE *f = fopen(path, "r");
	char line[128];

	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\r\n");

		if (n == 40)
			strmap_put(out, line, n, 1);
	}
	if (f)
		fclose(f);
	free(path);
}

/* ---- the tree comparison ---- */

/*
 * A commit's old side is, below the paths it changed, the next commit's new
 * side, and directories that change often are read again and again: about
 * half the tree reads of a walk are of a tree read in the last few thousand
 * (21 reads a commit on the bench repository). libgit2's own object cache
 * keeps everything until 256 MB, paging memory in and freeing it all at the
 * end, and leaves trees over 4 KB out (git/git's root is 16 KB), so it is
 * off while the walk runs and each worker keeps the trees it read last in a
 * bounded ring of its own instead.
 */
#define TREE_CACHE_SLOTS 4096 /* a power of two */
#define TREE_CACHE_BYTES (24u << 20)
#define TREE_CACHE_MAX_TREE (1u << 20)

struct cached_tree {
	git_oid id;
	git_odb_object *obj; /* NULL: a free slot */
	int next;            /* the next slot in the same bucket, -1 */
};

struct tree_cache {
	struct cached_tree slot[TREE_CACHE_SLOTS]; /* a ring, oldest at tail */
	int bucket[TREE_CACHE_SLOTS];
	size_t head, tail, nr, bytes;
};

static size_t cache_bucket(const git_oid *id)
{
	uint32_t h;

	memcpy(&h, id->id, sizeof(h));
	return h & (TREE_CACHE_SLOTS - 1);
}

static struct tree_cache *tree_cache_new(void)
{
	struct tree_cache *tc = xcalloc(1, sizeof(*tc));

	for (size_t i = 0; i < TREE_CACHE_SLOTS; i++)
		tc->bucket[i] = -1;
	return tc;
}

static void cache_evict_oldest(struct tree_cache *tc)
{
	struct cached_tree *e = &tc->slot[tc->tail];
	int *link = &tc->bucket[cache_bucket(&e->id)];

	while (*link != (int)tc->tail)
		link = &tc->slot[*link].next;
	*link = e->next;
	tc->bytes -= git_odb_object_size(e->obj);
	git_odb_object_free(e->obj);
	e->obj = NULL;
	tc->tail = (tc->tail + 1) & (TREE_CACHE_SLOTS - 1);
	tc->nr--;
}

static void tree_cache_free(struct tree_cache *tc)
{
	while (tc && tc->nr)
		cache_evict_oldest(tc);
	free(tc);
}

/* A new reference to the tree with this id, or NULL when it is not kept. */
static git_odb_object *cache_get(struct tree_cache *tc, const git_oid *id)
{
	git_odb_object *o = NULL;

	for (int i = tc->bucket[cache_bucket(id)]; i >= 0; i = tc->slot[i].next)
		if (git_oid_equal(&tc->slot[i].id, id)) {
			git_odb_object_dup(&o, tc->slot[i].obj);
			return o;
		}
	return NULL;
}

/* Keep a reference to o (read just now), the oldest making room. */
static void cache_put(struct tree_cache *tc, const git_oid *id, git_odb_object *o)
{
	size_t size = git_odb_object_size(o);
	struct cached_tree *e;
	size_t b = cache_bucket(id);

	if (size > TREE_CACHE_MAX_TREE)
		return;
	while (tc->nr && (tc->nr == TREE_CACHE_SLOTS ||
			  tc->bytes + size > TREE_CACHE_BYTES))
		cache_evict_oldest(tc);
	e = &tc->slot[tc->head];
	git_oid_cpy(&e->id, id);
	git_odb_object_dup(&e->obj, o);
	e->next = tc->bucket[b];
	tc->bucket[b] = (int)tc->head;
	tc->head = (tc->head + 1) & (TREE_CACHE_SLOTS - 1);
	tc->nr++;
	tc->bytes += size;
}

/*
 * Trees are read raw from the object database and their entries walked in
 * place ("MODE NAME\0" and 20 bytes of id each): no per-tree allocation
 * beyond the object itself.
 */
struct differ {
	git_odb *odb;
	struct tree_cache *cache;
	struct strbuf path; /* directory prefix, with its trailing '/' */
	struct strlist *out;
	bool failed;
};

struct entry {
	const char *name;
	size_t len;
	unsigned mode; /* canonical, as git compares them */
	const unsigned char *id; /* GIT_OID_RAWSZ bytes inside the tree */
};

#define MODE_TREE 0040000u

static bool is_tree(const struct entry *e)
{
	return e->mode == MODE_TREE;
}

/* git's canon_mode(): every regular file is 0644 or 0755. */
static unsigned canon_mode(unsigned mode)
{
	switch (mode & 0170000u) {
	case 0100000u:
		return (mode & 0100u) ? 0100755u : 0100644u;
	case 0120000u:
		return 0120000u;
	case MODE_TREE:
		return MODE_TREE;
	default:
		return 0160000u;
	}
}

/*
 * The entry at p, and in *next where the one after it starts; false at the
 * end or on a corrupt tree (*bad).
 */
static bool parse_entry(const char *p, const char *end, struct entry *e,
			const char **next, bool *bad)
{
	const char *s = p, *nul;
	unsigned mode = 0;

	if (s >= end)
		return false;
	for (; s < end && *s != ' '; s++) {
		if (*s < '0' || *s > '7' || mode > 0777777u) {
			*bad = true;
			return false;
		}
		mode = mode * 8 + (unsigned)(*s - '0');
	}
	nul = s < end ? memchr(s + 1, '\0', (size_t)(end - s - 1)) : NULL;
	if (!nul || (size_t)(end - nul) < 1 + GIT_OID_RAWSZ || nul == s + 1) {
		*bad = true;
		return false;
	}
	e->name = s + 1;
	e->len = (size_t)(nul - e->name);
	e->mode = canon_mode(mode);
	e->id = (const unsigned char *)nul + 1;
	*next = nul + 1 + GIT_OID_RAWSZ;
	return true;
}

/* git's tree order: a directory sorts as if its name ended in '/'. */
static int entry_cmp(const struct entry *a, const struct entry *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = a->len > n ? (unsigned char)a->name[n] : is_tree(a) ? '/' : 0;
	cb = b->len > n ? (unsigned char)b->name[n] : is_tree(b) ? '/' : 0;
	return (int)ca - (int)cb;
}

static void add_path(struct differ *d, const struct entry *e)
{
	size_t len = d->path.len;

	strbuf_add(&d->path, e->name, e->len);
	strlist_push(d->out, d->path.buf);
	strbuf_setlen(&d->path, len);
}

static git_odb_object *read_tree(struct differ *d, const git_oid *id)
{
	git_odb_object *o = cache_get(d->cache, id);

	if (o)
		return o;
	if (git_odb_read(&o, d->odb, id) < 0) {
		d->failed = true;
		return NULL;
	}
	if (git_odb_object_type(o) != GIT_OBJECT_TREE) {
		git_odb_object_free(o);
		d->failed = true;
		return NULL;
	}
	cache_put(d->cache, id, o);
	return o;
}

/* How many bytes a and b start with that are the same (at most n). */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;

	for (uint64_t x, y; i + sizeof(x) <= n; i += sizeof(x)) {
		memcpy(&x, a + i, sizeof(x));
		memcpy(&y, b + i, sizeof(y));
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Move *pa and *pb past the entries they start with that are the same
 * bytes on both sides, most of a tree. Found in one sweep and hopped over
 * by their ends alone (the name's NUL, then the id), they are not parsed:
 * the same bytes parse the same, and give no path.
 */
static void skip_same(const char **pa, const char *enda, const char **pb, const char *endb)
{
	size_t la = (size_t)(enda - *pa), lb = (size_t)(endb - *pb);
	const char *p = *pa, *end = p + common_prefix(p, *pb, la < lb ? la : lb), *nul;

	while ((nul = memchr(p, '\0', (size_t)(end - p))) && end - nul > GIT_OID_RAWSZ)
		p = nul + 1 + GIT_OID_RAWSZ;
	*pb += p - *pa;
	*pa = p;
}

static void compare(struct differ *d, const git_oid *a, const git_oid *b);

/* Compare the subtrees with raw ids a and b (NULL: empty) below entry e. */
static void descend(struct differ *d, const struct entry *e,
		    const unsigned char *a, const unsigned char *b)
{
	size_t len = d->path.len;
	git_oid ia, ib;

	if (a)
		git_oid_fromraw(&ia, a);
	if (b)
		git_oid_fromraw(&ib, b);
	strbuf_add(&d->path, e->name, e->len);
	strbuf_addch(&d->path, '/');
	compare(d, a ? &ia : NULL, b ? &ib : NULL);
	strbuf_setlen(&d->path, len);
}

/* An entry on one side only: the path, or every file below a directory. */
static void one_side(struct differ *d, const struct entry *e, bool old)
{
	if (!is_tree(e))
		add_path(d, e);
	else if (old)
		descend(d, e, e->id, NULL);
	else
		descend(d, e, NULL, e->id);
}

/* Append the paths that differ between trees a and b (NULL: empty tree). */
static void compare(struct differ *d, const git_oid *a, const git_oid *b)
{
	git_odb_object *ta = NULL, *tb = NULL;
	const char *pa = "", *pb = "", *enda = pa, *endb = pb;
	bool bad = false;

	if (a && b && git_oid_equal(a, b))
		return;
	if ((a && !(ta = read_tree(d, a))) || (b && !(tb = read_tree(d, b))))
		goto out;
	if (ta) {
		pa = git_odb_object_data(ta);
		enda = pa + git_odb_object_size(ta);
	}
	if (tb) {
		pb = git_odb_object_data(tb);
		endb = pb + git_odb_object_size(tb);
	}
	while (!bad && !d->failed) {
		const char *na, *nb;
		struct entry ea, eb;
		bool has_a, has_b;
		int c;

		skip_same(&pa, enda, &pb, endb);
		na = pa;
		nb = pb;
		has_a = parse_entry(pa, enda, &ea, &na, &bad);
		has_b = parse_entry(pb, endb, &eb, &nb, &bad);
		if (bad || (!has_a && !has_b))
			break;
		c = !has_a ? 1 : !has_b ? -1 : entry_cmp(&ea, &eb);
		if (c < 0) {
			one_side(d, &ea, true);
		} else if (c > 0) {
			one_side(d, &eb, false);
		} else if (memcmp(ea.id, eb.id, GIT_OID_RAWSZ) || ea.mode != eb.mode) {
			if (is_tree(&ea))
				descend(d, &ea, ea.id, eb.id);
			else
				add_path(d, &eb);
		}
		if (c <= 0)
			pa = na;
		if (c >= 0)
			pb = nb;
	}
	if (bad)
		d->failed = true;
out:
	git_odb_object_free(ta);
	git_odb_object_free(tb);
}

static void diff_commit(struct replay_commit *c, struct differ *d)
{
	bool root = !*c->parent;

	if (!root && git_oid_equal(&c->tree, &c->parent_tree)) {
		c->same_tree = true;
		return;
	}
	d->out = &c->paths;
	d->failed = false;
	strbuf_reset(&d->path);
	compare(d, root ? NULL : &c->parent_tree, &c->tree);
	if (d->failed) {
		c->fail = REPLAY_FAIL_TREE;
		strlist_release(&c->paths);
	} else if (!c->paths.nr && !root) {
		/* Trees differ but no entry does: nothing explains it. */
		c->fail = REPLAY_FAIL_EMPTY;
	}
}

/*
 * The commits are shared out among the workers in blocks of neighbours: a
 * commit's old trees are the next one's new trees and the pack's deltas run
 * along the history, so a worker that diffs a run of commits reads less
 * than one that takes every other commit (a fifth less CPU at -j 2). Every
 * run is diffed from its newest commit on, the walk's own order: resolving
 * the pack's deltas that way costs about a tenth less than from the oldest
 * end. The other workers take blocks from the newest end as the walk adds
 * them. Once it has walked, the caller takes the older half of what is
 * left, and a worker whose run is done takes the older half of the longest
 * run left to another (stealing), so that the runs stay long and the
 * workers end together. The caller reports progress.
 *
 * The other workers are processes, not threads: libgit2 takes one
 * process-wide mutex each time it maps or lets go of a window of a pack
 * (git__mwindow_mutex), a few times per object, and malloc keeps an arena
 * per thread. Two threads spent 0.51 s of CPU on the bench's 10^4 commits
 * where one spent 0.42; two processes spend what one does. They are forked
 * before the walk starts (the caller has no other thread then). The walk
 * writes each block's tree ids to a file in memory that they read; the
 * runs, their lock and the counters live in a page all of them share; each
 * writes its commits' paths to a file of its own, which the caller reads
 * once it has exited. Blocks that no worker reported (one that died) the
 * caller diffs itself.
 */
#define DIFF_BLOCK 64

/* Commits [first, first + nr) of the history. */
struct diff_block {
	size_t first, nr;
	bool diffed;
};

/* Blocks [lo, hi) of the pool, taken from lo on. */
struct block_run {
	size_t lo, hi;
};

/* A block as the walk hands it to the worker processes. */
struct block_input {
	uint32_t nr;
	struct {
		git_oid tree, parent_tree;
		bool root, skip; /* skip: the walk failed it already */
	} c[DIFF_BLOCK];
};

/* A block's record in a worker's results, nr commits' results after it. */
struct result_head {
	uint32_t block, nr, bytes; /* bytes: what follows the head */
};

/* The pool's state that the worker processes share (one MAP_SHARED mapping). */
struct pool_shared {
	pthread_mutex_t lock; /* robust: a worker may die holding it */
	pthread_cond_t more;
	struct block_run open; /* the blocks the walk added and nobody took */
	bool walked;           /* no block will be added */
	atomic_size_t done;
	struct block_run own[REPLAY_DIFF_MAX_JOBS]; /* [0]: the caller's */
	int workers;           /* own[1..workers]: the processes' */
};

struct diff_worker {
	pid_t pid;
	int results; /* a file in memory it appends to */
};

struct diff_pool {
	struct pool_shared *sh; /* NULL: no worker processes */
	struct replay_history *h;
	struct diff_block *blocks;
	size_t nr, alloc;
	int inputs;   /* the blocks' block_input, one after another */
	bool sharing; /* the walk still hands its blocks to the workers */
	char *objects; /* the object directory */
	pid_t caller;
	struct diff_worker workers[REPLAY_DIFF_MAX_JOBS];
	int started;
};

static void pool_lock(struct pool_shared *sh)
{
	if (pthread_mutex_lock(&sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->lock);
}

static void pool_wait(struct pool_shared *sh)
{
	if (pthread_cond_wait(&sh->more, &sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->lock);
}

/* The block's commits (where they are now: the walk grows the history). */
static struct replay_commit *block_commits(const struct diff_pool *pool,
					   const struct diff_block *b)
{
	return pool->h->commits + b->first;
}

/* Hand block i to the workers: false when its input cannot be written. */
static bool pool_publish(struct diff_pool *pool, size_t i)
{
	const struct diff_block *b = &pool->blocks[i];
	const struct replay_commit *c = block_commits(pool, b);
	struct block_input in;

	memset(&in, 0, sizeof(in));
	in.nr = (uint32_t)b->nr;
	for (size_t k = 0; k < b->nr; k++) {
		git_oid_cpy(&in.c[k].tree, &c[k].tree);
		git_oid_cpy(&in.c[k].parent_tree, &c[k].parent_tree);
		in.c[k].root = !*c[k].parent;
		in.c[k].skip = c[k].fail != REPLAY_OK;
	}
	if (!pwrite_all(pool->inputs, &in, sizeof(in), (off_t)(i * sizeof(in))))
		return false;
	pool_lock(pool->sh);
	pool->sh->open.hi = i + 1;
	pthread_cond_signal(&pool->sh->more);
	pthread_mutex_unlock(&pool->sh->lock);
	return true;
}

/*
 * Add the walk's next block. Once a block cannot be handed over, none
 * after it is: the workers' blocks stay one run from the newest.
 */
static void pool_add(struct diff_pool *pool, size_t first, size_t nr)
{
	ALLOC_GROW(pool->blocks, pool->nr + 1, pool->alloc);
	pool->blocks[pool->nr++] = (struct diff_block){ .first = first, .nr = nr };
	if (pool->sharing)
		pool->sharing = pool_publish(pool, pool->nr - 1);
}

static void pool_walked(struct diff_pool *pool)
{
	if (!pool->sh)
		return;
	pool_lock(pool->sh);
	pool->sh->walked = true;
	pthread_cond_broadcast(&pool->sh->more);
	pthread_mutex_unlock(&pool->sh->lock);
}

/* The longest run not yet diffed (the open one or a worker's), or NULL. */
static struct block_run *longest_run(struct pool_shared *sh)
{
	struct block_run *best = &sh->open;

	for (int t = 0; t <= sh->workers; t++)
		if (sh->own[t].hi - sh->own[t].lo > best->hi - best->lo)
			best = &sh->own[t];
	return best->lo < best->hi ? best : NULL;
}

/*
 * The next block for worker me to diff: the next of its own run; while the
 * walk goes on, the newest block nobody took (waiting for one); after it,
 * the next open block if it follows the one diffed last, or else the first
 * of the older half of the longest run, which becomes me's. False when all
 * are taken. *last starts at SIZE_MAX: block 0 follows it (unsigned wrap).
 */
static bool pool_take(struct pool_shared *sh, int me, size_t *last, size_t *out)
{
	struct block_run *mine = &sh->own[me], *from;
	bool got = true;

	pool_lock(sh);
	while (mine->lo == mine->hi && sh->open.lo == sh->open.hi && !sh->walked)
		pool_wait(sh);
	if (mine->lo < mine->hi) {
		*out = mine->lo++;
	} else if (sh->open.lo < sh->open.hi && (!sh->walked || sh->open.lo == *last + 1)) {
		*out = sh->open.lo++;
	} else if ((from = longest_run(sh))) {
		mine->lo = from->lo + (from->hi - from->lo) / 2;
		mine->hi = from->hi;
		from->hi = mine->lo;
		*out = mine->lo++;
	} else {
		got = false;
	}
	pthread_mutex_unlock(&sh->lock);
	if (got)
		*last = *out;
	return got;
}

static void differ_init(struct differ *d, git_odb *odb)
{
	*d = (struct differ){ .odb = odb, .cache = tree_cache_new(), .path = STRBUF_INIT };
}

static void differ_release(struct differ *d)
{
	strbuf_release(&d->path);
	tree_cache_free(d->cache);
}

static void diff_block(struct diff_pool *pool, struct diff_block *b, struct differ *d)
{
	struct replay_commit *c = block_commits(pool, b);

	for (size_t k = 0; k < b->nr; k++)
		if (c[k].fail == REPLAY_OK)
			diff_commit(&c[k], d);
	b->diffed = true;
}

/* ---- in a worker process ---- */

/*
 * libgit2 keeps one reader per pack file for all who open it by the same
 * path, and a worker inherits the caller's (with its file descriptors). A
 * path of its own ("objects/./pack", "objects/././pack", ...) gives each
 * worker a reader of its own of the same files.
 */
static int open_own_odb(git_odb **odb, const char *objects, int nth)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addstr(&path, objects);
	for (int i = 0; i < nth; i++)
		strbuf_addstr(&path, "/.");
	ret = git_odb_open(odb, path.buf);
	strbuf_release(&path);
	return ret;
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

/* Diff the block whose input is in (as the walk wrote it), results into sb. */
static void worker_diff(const struct block_input *in, struct differ *d, struct strbuf *sb)
{
	for (uint32_t k = 0; k < in->nr; k++) {
		struct replay_commit c = { .tree = in->c[k].tree,
					   .parent_tree = in->c[k].parent_tree };

		c.parent[0] = in->c[k].root ? '\0' : '-';
		if (!in->c[k].skip)
			diff_commit(&c, d);
		strbuf_addch(sb, (int)c.fail);
		strbuf_addch(sb, c.same_tree);
		put_u32(sb, (uint32_t)c.paths.nr);
		for (size_t p = 0; p < c.paths.nr; p++)
			strbuf_add(sb, c.paths.items[p], strlen(c.paths.items[p]) + 1);
		strlist_release(&c.paths);
	}
}

/* A worker's share: false when it could not read a block or write results. */
static bool worker_share(struct diff_pool *pool, struct differ *d, int me, int results)
{
	struct strbuf sb = STRBUF_INIT;
	struct block_input in;
	size_t last = SIZE_MAX, i;
	off_t at = 0;
	bool ok = true;

	while (ok && pool_take(pool->sh, me, &last, &i)) {
		struct result_head head = { .block = (uint32_t)i };

		ok = pread(pool->inputs, &in, sizeof(in), (off_t)(i * sizeof(in))) ==
			     (ssize_t)sizeof(in) && in.nr <= DIFF_BLOCK;
		if (!ok)
			break;
		strbuf_reset(&sb);
		strbuf_add(&sb, &head, sizeof(head));
		worker_diff(&in, d, &sb);
		head.nr = in.nr;
		head.bytes = (uint32_t)(sb.len - sizeof(head));
		memcpy(sb.buf, &head, sizeof(head));
		ok = sb.len - sizeof(head) <= UINT32_MAX && pwrite_all(results, sb.buf, sb.len, at);
		at += (off_t)sb.len;
		atomic_fetch_add(&pool->sh->done, in.nr);
	}
	strbuf_release(&sb);
	return ok;
}

/*
 * A worker process's life: its share through an object database of its
 * own, then _exit (the caller's stdio buffers and exit handlers are the
 * caller's). It dies with the caller.
 */
static ATTR_NORETURN void worker_main(struct diff_pool *pool, int me, int results)
{
	git_odb *odb = NULL;
	struct differ d;
	int code = 2; /* cannot open the objects: the others diff its share */

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != pool->caller)
		_exit(code);
	if (open_own_odb(&odb, pool->objects, me) == 0) {
		differ_init(&d, odb);
		code = worker_share(pool, &d, me, results) ? 0 : 1;
		differ_release(&d);
	}
	git_odb_free(odb);
	_exit(code);
}

/* ---- in the caller ---- */

/* The shared page and the inputs file: false when either cannot be made. */
static bool pool_share(struct diff_pool *pool, int workers)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct pool_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED)
		return false;
	pool->inputs = memfd_create("tiadash-diff-inputs", MFD_CLOEXEC);
	if (pool->inputs < 0) {
		munmap(sh, sizeof(*sh));
		return false;
	}
	memset(sh, 0, sizeof(*sh));
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&sh->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&sh->more, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&sh->done, 0);
	sh->workers = workers;
	pool->sh = sh;
	return true;
}

static void pool_unshare(struct diff_pool *pool)
{
	if (!pool->sh)
		return;
	pthread_cond_destroy(&pool->sh->more);
	pthread_mutex_destroy(&pool->sh->lock);
	munmap(pool->sh, sizeof(*pool->sh));
	close(pool->inputs);
	pool->sh = NULL;
	pool->inputs = -1;
}

/*
 * A pool for the commits of h (the walk adds them): jobs - 1 workers
 * forked (fewer if the system says no; none at -j 1).
 */
static void pool_start(struct diff_pool *pool, struct repo *r, struct replay_history *h,
		       int jobs)
{
	memset(pool, 0, sizeof(*pool));
	pool->h = h;
	pool->inputs = -1;
	pool->objects = path_join(git_repository_commondir(r->git), "objects");
	pool->caller = getpid();
	if (jobs > REPLAY_DIFF_MAX_JOBS)
		jobs = REPLAY_DIFF_MAX_JOBS;
	if (jobs < 2 || !pool_share(pool, jobs - 1))
		return;
	for (int me = 1; me < jobs; me++) {
		struct diff_worker *w = &pool->workers[pool->started];

		w->results = memfd_create("tiadash-diff-results", MFD_CLOEXEC);
		if (w->results < 0)
			break;
		w->pid = fork();
		if (w->pid == 0)
			worker_main(pool, me, w->results);
		if (w->pid < 0) {
			close(w->results);
			break;
		}
		pool->started++;
	}
	if (pool->started)
		pool->sharing = true;
	else
		pool_unshare(pool);
}

/* The caller's share of the blocks, once walked. */
static void caller_share(struct diff_pool *pool, struct differ *d,
			 void (*progress)(size_t done, size_t total, void *data), void *data)
{
	size_t last = SIZE_MAX, i;

	while (pool_take(pool->sh, 0, &last, &i)) {
		size_t done;

		diff_block(pool, &pool->blocks[i], d);
		done = atomic_fetch_add(&pool->sh->done, pool->blocks[i].nr) + pool->blocks[i].nr;
		if (progress)
			progress(done, pool->h->nr, data);
	}
}

/*
 * One commit's result at *p (the paths pushed onto c's when c is not
 * NULL); false when [*p, end) does not hold one.
 */
static bool take_result(const char **p, const char *end, struct replay_commit *c)
{
	const char *s = *p;
	uint32_t n;

	if (end - s < 2 + (ptrdiff_t)sizeof(n) || (unsigned char)s[0] > REPLAY_FAIL_EMPTY)
		return false;
	memcpy(&n, s + 2, sizeof(n));
	if (c) {
		c->fail = (enum replay_fail)s[0];
		c->same_tree = s[1];
	}
	s += 2 + sizeof(n);
	for (uint32_t k = 0; k < n; k++) {
		const char *nul = memchr(s, '\0', (size_t)(end - s));

		if (!nul)
			return false;
		if (c)
			strlist_push(&c->paths, s);
		s = nul + 1;
	}
	*p = s;
	return true;
}

/*
 * The block whose record starts at *p, taken when it is whole and one the
 * caller has not diffed; false at the end or at anything else (a worker
 * that died while writing).
 */
static bool take_block(struct diff_pool *pool, const char **p, const char *end)
{
	struct result_head head;
	const char *s = *p, *body, *stop, *q;
	struct diff_block *b;
	struct replay_commit *c;

	if (end - s < (ptrdiff_t)sizeof(head))
		return false;
	memcpy(&head, s, sizeof(head));
	body = s + sizeof(head);
	if (head.block >= pool->nr || (size_t)(end - body) < head.bytes)
		return false;
	b = &pool->blocks[head.block];
	q = body;
	stop = body + head.bytes;
	if (b->diffed || head.nr != b->nr)
		return false;
	for (uint32_t k = 0; k < head.nr; k++)
		if (!take_result(&q, stop, NULL))
			return false;
	if (q != stop)
		return false;
	c = block_commits(pool, b);
	for (size_t k = 0; k < b->nr; k++)
		take_result(&body, stop, c[k].fail == REPLAY_OK ? &c[k] : NULL);
	b->diffed = true;
	*p = stop;
	return true;
}

/* Wait for worker w and take the blocks it reported. */
static void collect(struct diff_pool *pool, struct diff_worker *w)
{
	int status = 0;
	off_t size;
	char *map;

	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		warning("a diff worker (process %d) was killed by signal %d; "
			"its commits are diffed again", (int)w->pid, WTERMSIG(status));
	size = lseek(w->results, 0, SEEK_END);
	if (size > 0) {
		map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, w->results, 0);
		if (map != MAP_FAILED) {
			const char *p = map;

			while (take_block(pool, &p, map + size))
				;
			munmap(map, (size_t)size);
		}
	}
	close(w->results);
}

/*
 * The caller's share of the diffs (after the walk), the workers' results,
 * then whatever no worker reported (at -j 1, every block).
 */
static void pool_finish(struct diff_pool *pool, struct repo *r,
			void (*progress)(size_t done, size_t total, void *data),
			void *data)
{
	git_odb *odb = NULL;
	struct differ d;
	size_t done = 0;
	bool readable = git_repository_odb(&odb, r->git) == 0, warned = false;

	differ_init(&d, odb);
	if (pool->sh && readable)
		caller_share(pool, &d, progress, data);
	for (int t = 0; t < pool->started; t++)
		collect(pool, &pool->workers[t]);
	pool_unshare(pool);
	for (size_t i = 0; i < pool->nr; i++) {
		struct diff_block *b = &pool->blocks[i];
		struct replay_commit *c = block_commits(pool, b);

		done += b->nr;
		if (b->diffed)
			continue;
		if (readable) {
			diff_block(pool, b, &d);
			if (progress)
				progress(done, pool->h->nr, data);
			continue;
		}
		if (!warned)
			warning("cannot open the object database: %s", git_reason());
		warned = true;
		for (size_t k = 0; k < b->nr; k++)
			if (c[k].fail == REPLAY_OK)
				c[k].fail = REPLAY_FAIL_TREE;
	}
	differ_release(&d);
	git_odb_free(odb);
	free(pool->objects);
	free(pool->blocks);
}

void replay_diff_commits(struct repo *r, struct replay_history *h, int jobs,
			 void (*progress)(size_t done, size_t total, void *data),
			 void *data)
{
	struct diff_pool pool;

	walk_mode(true);
	pool_start(&pool, r, h, jobs);
	for (size_t i = 0; i < h->nr; i += DIFF_BLOCK)
		pool_add(&pool, i, h->nr - i < DIFF_BLOCK ? h->nr - i : DIFF_BLOCK);
	pool_walked(&pool);
	pool_finish(&pool, r, progress, data);
	walk_mode(false);
}

/* ---- the walk ---- */

/* The commits the walk added and no block holds yet, as the pool's last block. */
static void pool_add_rest(struct diff_pool *pool)
{
	const struct diff_block *last = pool->nr ? &pool->blocks[pool->nr - 1] : NULL;
	size_t first = last ? last->first + last->nr : 0;

	if (pool->h->nr > first)
		pool_add(pool, first, pool->h->nr - first);
}

/*
 * Where the next commit of the walk goes. With a pool, each DIFF_BLOCK
 * commits become a block once the next one starts (the walk finishes one
 * before it adds the next).
 */
static struct replay_commit *next_slot(struct replay_history *h, struct diff_pool *pool)
{
	if (pool && h->nr && h->nr % DIFF_BLOCK == 0)
		pool_add_rest(pool);
	ALLOC_GROW(h->commits, h->nr + 1, h->alloc);
	return &h->commits[h->nr++];
}

static struct replay_commit *add_commit(struct replay_history *h, struct diff_pool *pool,
					git_commit *c)
{
	struct replay_commit *rc = next_slot(h, pool);

	memset(rc, 0, sizeof(*rc));
	git_oid_tostr(rc->sha, sizeof(rc->sha), git_commit_id(c));
	if (git_commit_parentcount(c) > 0)
		git_oid_tostr(rc->parent, sizeof(rc->parent),
			      git_commit_parent_id(c, 0));
	if (git_commit_parentcount(c) > 1)
		git_oid_tostr(rc->merged, sizeof(rc->merged),
			      git_commit_parent_id(c, 1));
	git_oid_cpy(&rc->tree, git_commit_tree_id(c));
	rc->date = (int64_t)git_commit_time(c) * 1000;
	rc->subject = first_line(git_commit_message(c));
	rc->has_pr = message_pr(rc->subject, git_commit_message(c), &rc->pr);
	return rc;
}

static int walk_history(struct repo *r, const char *rev, int64_t since, int64_t until,
			struct replay_history *out, struct diff_pool *pool)
{
	struct strmap shallow = STRMAP_INIT;
	git_commit *c = NULL;
	git_oid oid;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (repo_resolve(r, rev ? rev : "HEAD", out->tip) < 0)
		return -1;
	read_shallow(r->git, &shallow);
	git_oid_fromstr(&oid, out->tip);
	if (git_commit_lookup(&c, r->git, &oid) < 0) {
		ret = error("cannot read commit %s: %s", out->tip, git_reason());
		goto out;
	}
	for (;;) {
		int64_t date = (int64_t)git_commit_time(c) * 1000;
		struct replay_commit *rc = NULL;
		git_commit *parent = NULL;
		char sha[41];

		if (date < since)
			break;
		if (date < until)
			rc = add_commit(out, pool, c);
		if (git_commit_parentcount(c) == 0)
			break;
		if (git_commit_parent(&parent, c, 0) < 0) {
			bool cut;

			git_oid_tostr(sha, sizeof(sha), git_commit_id(c));
			cut = strmap_has(&shallow, sha);
			if (rc)
				rc->fail = cut ? REPLAY_FAIL_SHALLOW : REPLAY_FAIL_COMMIT;
			out->truncated = true;
			if (cut)
				warning("history is shallow: commit %s has no parent "
					"here, the walk ends there", sha);
			else
				warning("cannot read the first parent of %s (%s): "
					"the walk ends there", sha, git_reason());
			break;
		}
		if (rc)
			git_oid_cpy(&rc->parent_tree, git_commit_tree_id(parent));
		git_commit_free(c);
		c = parent;
	}
out:
	git_commit_free(c);
	strmap_clear(&shallow);
	return ret;
}

int replay_walk(struct repo *r, const char *rev, int64_t since, int64_t until,
		struct replay_history *out)
{
	int ret;

	walk_mode(true);
	ret = walk_history(r, rev, since, until, out, NULL);
	walk_mode(false);
	return ret;
}

int replay_walk_diff(struct repo *r, const char *rev, int64_t since, int64_t until,
		     int jobs, void (*progress)(size_t done, size_t total, void *data),
		     void *data, struct replay_history *out)
{
	struct diff_pool pool;
	int ret;

	walk_mode(true);
	pool_start(&pool, r, out, jobs);
	ret = walk_history(r, rev, since, until, out, &pool);
	pool_add_rest(&pool);
	pool_walked(&pool);
	pool_finish(&pool, r, progress, data);
	walk_mode(false);
	return ret;
}

