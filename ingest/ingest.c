/*
 * Finding sources (manifests, indexes and directories on disk) and ingesting
 * them: worker threads parse and diff sources while this thread writes them,
 * in order, one transaction each.
 */
#include "core/tiadash.h"
#include "core/identity.h"
#include "ingest/ingest.h"
#include "ingest/run_data.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

/* Manifests and indexes are small; anything bigger is not one. */
#define MANIFEST_LIMIT (64u << 20)

void ingest_init(struct ingest *ing, struct store *s, struct repo *r, int64_t now)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(ing, 0, sizeof(*ing));
	pthread_mutex_init(&ing->lock, NULL);
	ing->store = s;
	ing->repo = r;
	ing->now = now;
	ing->jobs = cpus < 1 ? 1 : cpus > 4 ? 4 : (int)cpus;
	ing->ids = identity_cache_new();
}

void ingest_release(struct ingest *ing)
{
	identity_cache_free(ing->ids);
	strmap_clear(&ing->seen);
	pthread_mutex_destroy(&ing->lock);
}

static bool is_url(const char *s)
{
	return starts_with(s, "http://") || starts_with(s, "https://");
}

/* The canonical name of a file source, so the same file is not read twice. */
static char *canonical(const char *path)
{
	char *real = realpath(path, NULL);

	return real ? real : xstrdup(path);
}

static bool already_seen(struct ingest *ing, const char *uri)
{
	bool added;

	strmap_intern(&ing->seen, uri, strlen(uri), 0, &added);
	return !added;
}

/* A manifest file on its way in: read and parsed by a worker, written here. */
struct job {
	char *path;
	char *real_dir; /* its folder's canonical path, when the walk knows it */
	struct run_source rs;
	struct run_data d;
	int prepared;
	bool done;
	uint64_t weight; /* the bytes its inputs read: what it holds, roughly */
};

/* Jobs by pointer: workers hold theirs while the walk adds more. */
struct jobs {
	struct job **v;
	size_t nr, alloc;
};

static void release_job(struct job *j)
{
	free(j->path);
	free(j->real_dir);
	run_source_release(&j->rs);
	run_data_release(&j->d);
	free(j);
}

/* Read, parse and prepare one manifest (on any thread). */
static int prepare_job(struct ingest_env *env, struct job *j)
{
	struct strbuf text = STRBUF_INIT;
	char *dir;
	int ret = PREPARE_FAILED;

	if (read_regular_file(&text, j->path, MANIFEST_LIMIT) < 0)
		goto out;
	run_source_set_head(&j->rs, text.buf, text.len);
	if (manifest_parse(text.buf, text.len, j->path, &j->rs.m) < 0)
		goto out;
	dir = path_dirname(j->path);
	ret = run_source_open_refs(&j->rs, dir, j->real_dir);
	free(dir);
	ret = ret < 0 ? PREPARE_FAILED : ingest_prepare(env, &j->rs, &j->d);
out:
	strbuf_release(&text);
	return ret;
}

/*
 * Prepared jobs wait in memory for the writer, which commits them in order.
 * Workers always run `window` (two each) ahead of it; further, up to
 * AHEAD_MAX, while the waiting jobs read under AHEAD_BYTES: the writer
 * stalls now and then (a checkpoint's fdatasync, its turn for a core),
 * and with only two jobs each in hand the workers would stall with it.
 * The workers start while the sources are still being found (from the
 * second one: a single source is prepared here), so a walk of many
 * directories is not time the parsers wait.
 */
#define AHEAD_MAX 128
#define AHEAD_BYTES (64u << 20)

struct pool {
	struct ingest *ing;
	struct jobs jobs;
	size_t next, written, window;
	uint64_t waiting; /* the weight of the jobs done and not written */
	bool found_all;   /* no job is added any more */
	pthread_t *threads;
	int started;
	bool start_failed;
	pthread_mutex_t mu;
	pthread_cond_t cond;
};

static bool may_take_next(const struct pool *p)
{
	size_t ahead = p->next - p->written;

	return ahead < p->window || (ahead < AHEAD_MAX && p->waiting < AHEAD_BYTES);
}

static uint64_t job_weight(struct job *j)
{
	size_t nr;
	struct input **ins = run_source_list_inputs(&j->rs, &nr);
	uint64_t w = 0;

	for (size_t i = 0; i < nr; i++)
		w += ins[i]->digest.total;
	free(ins);
	return w;
}

/* A worker: its own store connection and repository, taking jobs in order. */
static void *worker(void *arg)
{
	struct pool *p = arg;
	struct ingest_env env = { p->ing, NULL, NULL, identity_cache_new() };
	bool ok = store_open(&env.store, p->ing->store->path, STORE_EXISTING) == 0 &&
		  (!p->ing->repo || repo_open(&env.repo, p->ing->repo->root) == 0);

	for (;;) {
		struct job *j;

		pthread_mutex_lock(&p->mu);
		while (p->next < p->jobs.nr ? !may_take_next(p) : !p->found_all)
			pthread_cond_wait(&p->cond, &p->mu);
		if (p->next >= p->jobs.nr) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		j = p->jobs.v[p->next++];
		pthread_mutex_unlock(&p->mu);
		j->prepared = ok ? prepare_job(&env, j) : PREPARE_FAILED;
		j->weight = job_weight(j);
		pthread_mutex_lock(&p->mu);
		j->done = true;
		p->waiting += j->weight;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->mu);
	}
	store_close(env.store);
	identity_cache_free(env.ids);
	repo_close(env.repo);
	return NULL;
}

static void pool_init(struct pool *p, struct ingest *ing)
{
	memset(p, 0, sizeof(*p));
	p->ing = ing;
	p->window = (size_t)ing->jobs * 2;
	p->threads = xcalloc((size_t)ing->jobs, sizeof(*p->threads));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cond, NULL);
}

/* As many workers as jobs, up to ing->jobs; none for a single job. */
static void start_workers(struct pool *p)
{
	while (p->ing->jobs > 1 && p->jobs.nr >= 2 && !p->start_failed &&
	       p->started < p->ing->jobs && (size_t)p->started < p->jobs.nr) {
		if (pthread_create(&p->threads[p->started], NULL, worker, p))
			p->start_failed = true;
		else
			p->started++;
	}
}

/* A manifest at path; real is its canonical path when known (else NULL). */
static void add_job(struct pool *p, const char *path, const char *real)
{
	char *uri = real ? xstrdup(real) : canonical(path);
	struct job *j;

	if (already_seen(p->ing, uri)) {
		free(uri);
		return;
	}
	j = xcalloc(1, sizeof(*j));
	j->path = xstrdup(path);
	j->real_dir = real ? path_dirname(real) : NULL;
	run_source_init(&j->rs);
	j->rs.uri = uri;
	run_data_init(&j->d);
	pthread_mutex_lock(&p->mu);
	ALLOC_GROW(p->jobs.v, p->jobs.nr + 1, p->jobs.alloc);
	p->jobs.v[p->jobs.nr++] = j;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->mu);
	start_workers(p);
}

/* No worker started: every job prepared and written here, in order. */
static int write_sequentially(struct pool *p)
{
	struct ingest *ing = p->ing;
	struct ingest_env env = { ing, ing->store, ing->repo, ing->ids };
	int ret = 0;

	for (size_t i = 0; i < p->jobs.nr; i++) {
		struct job *j = p->jobs.v[i];

		ret |= ingest_commit(ing, &j->rs, &j->d, prepare_job(&env, j));
		release_job(j);
	}
	return ret;
}

/* The writer: each job, once prepared, committed in order. */
static int write_in_order(struct pool *p)
{
	int ret = 0;

	for (size_t i = 0; i < p->jobs.nr; i++) {
		struct job *j = p->jobs.v[i];
		uint64_t weight;

		pthread_mutex_lock(&p->mu);
		while (!j->done)
			pthread_cond_wait(&p->cond, &p->mu);
		pthread_mutex_unlock(&p->mu);
		ret |= ingest_commit(p->ing, &j->rs, &j->d, j->prepared);
		weight = j->weight;
		release_job(j);
		pthread_mutex_lock(&p->mu);
		p->written++;
		p->waiting -= weight;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->mu);
	}
	return ret;
}

/*
 * Every source found: the workers finish what is left, and the writer
 * commits it all; the pool is released.
 */
static int pool_finish(struct pool *p)
{
	int ret;

	pthread_mutex_lock(&p->mu);
	p->found_all = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->mu);
	ret = p->started ? write_in_order(p) : write_sequentially(p);
	for (int t = 0; t < p->started; t++)
		pthread_join(p->threads[t], NULL);
	free(p->threads);
	free(p->jobs.v);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cond);
	return ret;
}

static void count_failure(struct ingest *ing)
{
	ing->stats.sources++;
	ing->stats.failed++;
}

/*
 * What a walk finds and what an index names must stay inside the directory
 * walked or the index's folder: a symbolic link out of it (to a token file,
 * say) is refused by name. One that does not resolve is left to the open,
 * which says why. -1 after error() when it leads outside.
 */
static int check_inside(struct ingest *ing, const char *path, const char *root)
{
	char *real;
	int rc = path_resolve_inside(path, root, &real);

	if (rc == 1) {
		count_failure(ing);
		error("'%s' leads to '%s', outside '%s' (a symbolic link?): refused",
		      path, real, root);
	}
	free(real);
	return rc == 1 ? -1 : 0;
}

static int collect(struct ingest *ing, const char *path, const char *root,
		   struct pool *p);

static int collect_index(struct ingest *ing, const char *path, const struct strbuf *text,
			 struct pool *p)
{
	struct strlist runs = STRLIST_INIT;
	char *dir, *root;
	int ret = 0;

	if (index_parse(text->buf, text->len, path, &runs) < 0) {
		count_failure(ing);
		return -1;
	}
	dir = path_dirname(path);
	root = canonical(dir);
	for (size_t i = 0; i < runs.nr; i++) {
		const char *ref = runs.items[i];
		char *target;

		if (is_url(ref)) {
			/* A file names no trusted origin: no token for its URLs. */
			ret |= ingest_url_untrusted(ing, ref);
			continue;
		}
		if (!path_is_contained(ref)) {
			count_failure(ing);
			ret = error("%s: run '%s' is not a relative path inside the "
				    "index's directory", path, ref);
			continue;
		}
		target = path_join(dir, ref);
		ret |= collect(ing, target, root, p);
		free(target);
	}
	free(dir);
	free(root);
	strlist_release(&runs);
	return ret ? -1 : 0;
}

/*
 * A JSON file on the command line, in an index or found by a walk: a
 * manifest or an index. real is its canonical path when known (else NULL).
 */
static int collect_json(struct ingest *ing, const char *path, const char *real,
			struct pool *p)
{
	char head[4096];
	struct strbuf text = STRBUF_INIT;
	enum json_kind kind;
	struct input in;
	size_t n;
	int ret = 0;

	input_from_file(&in, path);
	ret = input_peek(&in, head, sizeof(head), &n);
	input_release(&in);
	if (ret < 0) {
		count_failure(ing);
		return -1;
	}
	kind = manifest_sniff(head, n);
	/* The schema key may come after a long inline list: read it all then. */
	if (kind == JSON_OTHER && n == sizeof(head) &&
	    read_regular_file(&text, path, MANIFEST_LIMIT) == 0)
		kind = manifest_sniff(text.buf, text.len);
	strbuf_reset(&text);
	switch (kind) {
	case JSON_MANIFEST:
		add_job(p, path, real);
		break;
	case JSON_INDEX:
		if (read_regular_file(&text, path, MANIFEST_LIMIT) < 0) {
			count_failure(ing);
			ret = -1;
		} else {
			ret = collect_index(ing, path, &text, p);
		}
		break;
	default:
		count_failure(ing);
		ret = error("%s: neither a run manifest (tiadash.run.v1) nor an "
			    "index (tiadash.index.v1); to ingest bare files give "
			    "--kind and --head", path);
	}
	strbuf_release(&text);
	return ret;
}

static bool is_manifest_name(const char *name)
{
	return !strcmp(name, "tiadash-run.json") || ends_with(name, ".tiadash.json");
}

/*
 * Manifests below dir, depth first, in name order (so runs ingest in a
 * fixed order); what is found must resolve inside root. real is dir's
 * canonical path: the walk never follows a symbolic link to a directory,
 * so a child's is real/name, and a manifest that is no link is inside
 * root without asking realpath (a readlink for each component).
 */
static int walk(struct ingest *ing, const char *dir, const char *real, const char *root,
		struct pool *p, int *found)
{
	struct strlist names = STRLIST_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return error("cannot read directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, ".git"))
			strlist_push(&names, e->d_name);
	closedir(d);
	strlist_sort(&names);
	for (size_t i = 0; i < names.nr; i++) {
		char *path = path_join(dir, names.items[i]);
		char *child = path_join(real, names.items[i]);
		struct stat st;
		bool known = lstat(path, &st) == 0; /* lstat: no symlinked directory (no loops) */

		if (known && S_ISDIR(st.st_mode)) {
			ret |= walk(ing, path, child, root, p, found);
		} else if (is_manifest_name(names.items[i])) {
			bool plain = known && S_ISREG(st.st_mode);

			(*found)++;
			if (!plain && check_inside(ing, path, root) < 0)
				ret = -1;
			else
				ret |= collect_json(ing, path, plain ? child : NULL, p);
		}
		free(child);
		free(path);
	}
	strlist_release(&names);
	return ret ? -1 : 0;
}

/*
 * A path given on the command line (root NULL: followed wherever it leads)
 * or named by an index (root: the index's folder, which it must not leave).
 */
static int collect(struct ingest *ing, const char *path, const char *root,
		   struct pool *p)
{
	struct stat st;
	char *top;
	int found = 0, ret;

	if (root && check_inside(ing, path, root) < 0)
		return -1;
	if (stat(path, &st) < 0) {
		count_failure(ing);
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return collect_json(ing, path, NULL, p);
	top = canonical(path);
	ret = walk(ing, path, top, top, p, &found);
	free(top);
	if (!found)
		warning("no run manifests (*.tiadash.json, tiadash-run.json) "
			"below '%s'", path);
	return ret;
}

int ingest_path(struct ingest *ing, const char *path)
{
	struct pool p;
	int ret;

	if (is_url(path))
		return ingest_url(ing, path);
	pool_init(&p, ing);
	ret = collect(ing, path, NULL, &p);
	ret |= pool_finish(&p);
	return ret ? -1 : 0;
}
