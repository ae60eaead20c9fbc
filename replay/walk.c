/* The first-parent walk and each commit's changed paths, by a tree comparison of our own. */
#include "core/tiadash.h"
#include "replay/replay.h"

#include <pthread.h>
#include <stdatomic.h>

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
 * off while the walk runs and each thread keeps the trees it read last in a
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
	const char *same_end = NULL; /* a's bytes from pa to here are b's from pb */
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
		const char *na = pa, *nb = pb;
		struct entry ea, eb;
		bool has_a = parse_entry(pa, enda, &ea, &na, &bad), has_b;
		int c;

		/*
		 * Most entries are the same bytes on both sides: found in one
		 * sweep, b's need no parsing.
		 */
		if (!same_end || pa >= same_end) {
			size_t la = (size_t)(enda - pa), lb = (size_t)(endb - pb);

			same_end = pa + common_prefix(pa, pb, la < lb ? la : lb);
		}
		if (has_a && na <= same_end) {
			pb += na - pa;
			pa = na;
			continue;
		}
		same_end = NULL;
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
 * The commits are shared out among the threads in blocks of neighbours: a
 * commit's old trees are the next one's new trees and the pack's deltas run
 * along the history, so a thread that diffs a run of commits reads less
 * than one that takes every other commit (a fifth less CPU at -j 2). Every
 * run is diffed from its newest commit on, the walk's own order: resolving
 * the pack's deltas that way costs about a tenth less than from the oldest
 * end. The other threads take blocks from the newest end as the walk adds
 * them. Once it has walked, the caller's thread takes the older half of
 * what is left, and a thread whose run is done takes the older half of the
 * longest run left to another (stealing), so that the runs stay long and
 * the threads end together. A block's diffs write only its commits, and
 * each thread reads through its own object database (libgit2 objects are
 * not shared between threads). The caller's thread reports progress.
 */
#define DIFF_BLOCK 64

struct diff_block {
	struct replay_commit *c; /* into the history, or the walk's own */
	size_t nr;
};

/* Blocks [lo, hi) of the pool, taken from lo on. */
struct block_run {
	size_t lo, hi;
};

struct diff_pool {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct diff_block *blocks;
	size_t nr, alloc;
	struct block_run open;  /* the blocks the walk added and nobody took */
	bool walked;            /* no block will be added */
	char *objects;          /* the object directory */
	atomic_int opened;      /* object databases the threads opened */
	size_t total;           /* commits, once walked */
	atomic_size_t done;
	struct diff_block filling; /* the walk's block being filled */
	pthread_t threads[REPLAY_DIFF_MAX_JOBS];
	struct block_run own[REPLAY_DIFF_MAX_JOBS]; /* [0]: the caller's thread */
	int started;
};

static void pool_add(struct diff_pool *pool, struct replay_commit *c, size_t nr)
{
	pthread_mutex_lock(&pool->lock);
	ALLOC_GROW(pool->blocks, pool->nr + 1, pool->alloc);
	pool->blocks[pool->nr].c = c;
	pool->blocks[pool->nr++].nr = nr;
	pool->open.hi = pool->nr;
	pthread_cond_signal(&pool->more);
	pthread_mutex_unlock(&pool->lock);
}

static void pool_walked(struct diff_pool *pool, size_t total)
{
	pthread_mutex_lock(&pool->lock);
	pool->walked = true;
	pool->total = total;
	pthread_cond_broadcast(&pool->more);
	pthread_mutex_unlock(&pool->lock);
}

/* The longest run not yet diffed (the open one or a thread's), or NULL. */
static struct block_run *longest_run(struct diff_pool *pool)
{
	struct block_run *best = &pool->open;

	for (int t = 0; t <= pool->started; t++)
		if (pool->own[t].hi - pool->own[t].lo > best->hi - best->lo)
			best = &pool->own[t];
	return best->lo < best->hi ? best : NULL;
}

/*
 * The next block for thread me to diff: the next of its own run; while the
 * walk goes on, the newest block nobody took (waiting for one); after it,
 * the next open block if it follows the one diffed last, or else the first
 * of the older half of the longest run, which becomes me's. False when all
 * are taken. Called with the lock held.
 */
static bool take_locked(struct diff_pool *pool, int me, size_t *last, size_t *out)
{
	struct block_run *mine = &pool->own[me], *from;

	while (mine->lo == mine->hi && pool->open.lo == pool->open.hi && !pool->walked)
		pthread_cond_wait(&pool->more, &pool->lock);
	if (mine->lo < mine->hi) {
		*out = mine->lo++;
	} else if (pool->open.lo < pool->open.hi &&
		   (!pool->walked || pool->open.lo == *last + 1)) {
		*out = pool->open.lo++;
	} else if ((from = longest_run(pool))) {
		mine->lo = from->lo + (from->hi - from->lo) / 2;
		mine->hi = from->hi;
		from->hi = mine->lo;
		*out = mine->lo++;
	} else {
		return false;
	}
	*last = *out;
	return true;
}

static bool pool_take(struct diff_pool *pool, int me, size_t *last, struct diff_block *b)
{
	size_t i;
	bool got;

	pthread_mutex_lock(&pool->lock);
	got = take_locked(pool, me, last, &i);
	if (got)
		*b = pool->blocks[i];
	pthread_mutex_unlock(&pool->lock);
	return got;
}

static void diff_share(struct diff_pool *pool, git_odb *odb, int me,
		       void (*progress)(size_t done, size_t total, void *data), void *data)
{
	struct differ d = { .odb = odb, .cache = tree_cache_new(), .path = STRBUF_INIT };
	struct diff_block b;
	size_t last = SIZE_MAX; /* none yet: block 0 "follows" (unsigned wrap) */

	while (pool_take(pool, me, &last, &b)) {
		size_t done;

		for (size_t k = 0; k < b.nr; k++) {
			struct replay_commit *c = &b.c[k];

			if (c->fail == REPLAY_OK)
				diff_commit(c, &d);
		}
		done = atomic_fetch_add(&pool->done, b.nr) + b.nr;
		if (progress)
			progress(done, pool->total, data);
	}
	strbuf_release(&d.path);
	tree_cache_free(d.cache);
}

/*
 * libgit2 shares one reader per pack file among all who open it by the
 * same path, its locks taken several times per object: two threads on one
 * pack wait on each other more than they read (-j 2 took longer than -j 1).
 * A path of its own ("objects/./pack", "objects/././pack", ...) gives each
 * thread its own reader and delta cache of the same files.
 */
static int open_own_odb(git_odb **odb, const char *objects, int nth)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addstr(&path, objects);
	for (int i = 0; i <= nth; i++)
		strbuf_addstr(&path, "/.");
	ret = git_odb_open(odb, path.buf);
	strbuf_release(&path);
	return ret;
}

static void *diff_thread(void *data)
{
	struct diff_pool *pool = data;
	int nth = atomic_fetch_add(&pool->opened, 1);
	git_odb *odb = NULL;

	/* One that cannot open the objects leaves its share to the others. */
	if (open_own_odb(&odb, pool->objects, nth) == 0)
		diff_share(pool, odb, nth + 1, NULL, NULL);
	git_odb_free(odb);
	return NULL;
}

static void pool_start(struct diff_pool *pool, struct repo *r, int jobs)
{
	memset(pool, 0, sizeof(*pool));
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->more, NULL);
	atomic_init(&pool->done, 0);
	atomic_init(&pool->opened, 0);
	pool->objects = path_join(git_repository_commondir(r->git), "objects");
	if (jobs > REPLAY_DIFF_MAX_JOBS)
		jobs = REPLAY_DIFF_MAX_JOBS;
	for (; pool->started + 1 < jobs; pool->started++)
		if (pthread_create(&pool->threads[pool->started], NULL, diff_thread, pool))
			break;
}

/* The caller's share of the diffs (after the walk), then the others'. */
static void pool_finish(struct diff_pool *pool, struct repo *r, struct replay_history *h,
			void (*progress)(size_t done, size_t total, void *data),
			void *data)
{
	git_odb *odb = NULL;

	if (git_repository_odb(&odb, r->git) == 0) {
		diff_share(pool, odb, 0, progress, data);
	} else if (!pool->started) {
		warning("cannot open the object database: %s", git_reason());
		for (size_t i = pool->open.lo; i < pool->open.hi; i++)
			for (size_t k = 0; k < pool->blocks[i].nr; k++)
				if (pool->blocks[i].c[k].fail == REPLAY_OK)
					pool->blocks[i].c[k].fail = REPLAY_FAIL_TREE;
	}
	for (int t = 0; t < pool->started; t++)
		pthread_join(pool->threads[t], NULL);
	git_odb_free(odb);
	if (!h)
		goto out;
	/* The walk's own blocks become the history, in order. */
	h->commits = xcalloc(h->nr ? h->nr : 1, sizeof(*h->commits));
	h->alloc = h->nr;
	for (size_t i = 0, at = 0; i < pool->nr; i++) {
		memcpy(h->commits + at, pool->blocks[i].c,
		       pool->blocks[i].nr * sizeof(*h->commits));
		at += pool->blocks[i].nr;
		free(pool->blocks[i].c);
	}
out:
	free(pool->objects);
	free(pool->blocks);
	pthread_cond_destroy(&pool->more);
	pthread_mutex_destroy(&pool->lock);
}

void replay_diff_commits(struct repo *r, struct replay_history *h, int jobs,
			 void (*progress)(size_t done, size_t total, void *data),
			 void *data)
{
	struct diff_pool pool;

	walk_mode(true);
	pool_start(&pool, r, jobs);
	for (size_t i = 0; i < h->nr; i += DIFF_BLOCK)
		pool_add(&pool, h->commits + i, h->nr - i < DIFF_BLOCK ? h->nr - i : DIFF_BLOCK);
	pool_walked(&pool, h->nr);
	pool_finish(&pool, r, NULL, progress, data);
	walk_mode(false);
}

/* ---- the walk ---- */

/*
 * Where the next commit of the walk goes: the history itself, or with a
 * pool the block being filled, handed to the pool when full (its last
 * commit complete by then: the walk finishes one before it adds the next).
 */
static struct replay_commit *next_slot(struct replay_history *h, struct diff_pool *pool)
{
	struct diff_block *b;

	h->nr++;
	if (!pool) {
		ALLOC_GROW(h->commits, h->nr, h->alloc);
		return &h->commits[h->nr - 1];
	}
	b = &pool->filling;
	if (b->nr == DIFF_BLOCK) {
		pool_add(pool, b->c, b->nr);
		b->c = NULL;
		b->nr = 0;
	}
	if (!b->c)
		b->c = xmalloc(DIFF_BLOCK * sizeof(*b->c));
	return &b->c[b->nr++];
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
	pool_start(&pool, r, jobs);
	ret = walk_history(r, rev, since, until, out, &pool);
	if (pool.filling.nr)
		pool_add(&pool, pool.filling.c, pool.filling.nr);
	else
		free(pool.filling.c);
	pool_walked(&pool, out->nr);
	pool_finish(&pool, r, out, progress, data);
	walk_mode(false);
	return ret;
}

