/* `tiadash record` around its command: what the CI knows, the files the job
 * names (globs with `**`), and the run's folder with its manifest. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/json.h"
#include "core/repo.h"
#include "core/strmap.h"
#include "core/teamfile.h"
#include "core/tiadir.h"
#include "core/timeutil.h"
#include "core/treeindex.h"
#include "adapters/adapter.h"
#include "core/input.h"
#include "ingest/lists.h"
#include "ingest/manifest.h"
#include "ingest/record.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MANIFEST "tiadash-run.json"
#define RECORD_JSON_LIMIT (16u << 20)

/* ---- what the CI knows ---- */

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static bool env_is(const char *name, const char *want)
{
	const char *v = env(name);

	return v && !strcmp(v, want);
}

/* A number from the environment; false (with a warning if set) unless an integer >= min. */
static bool env_int(const char *name, int64_t min, int64_t *out)
{
	const char *v = env(name);

	if (!v)
		return false;
	if (!parse_int64(v, out) || *out < min) {
		warning("record: ignoring %s '%s': not an integer >= %" PRId64,
			name, v, min);
		return false;
	}
	return true;
}

/* The decimal number at s, ended by `end`. */
static bool number_before(const char *s, char end, int64_t *out)
{
	size_t n = strspn(s, "0123456789");
	char buf[20];

	if (!n || n >= sizeof(buf) || s[n] != end)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return parse_int64(buf, out) && *out >= 1;
}

/*
 * A pull request's ref (refs/pull/N/merge, refs/pull/N/head) or a merge
 * queue's (refs/heads/gh-readonly-queue/BRANCH/pr-N-SHA; BRANCH may hold
 * slashes, so the number is read from the last segment).
 */
static bool github_pr_from_ref(const char *ref, int64_t *pr)
{
	const char *last;

	if (starts_with(ref, "refs/pull/"))
		return number_before(ref + strlen("refs/pull/"), '/', pr);
	if (!starts_with(ref, "refs/heads/gh-readonly-queue/"))
		return false;
	last = strrchr(ref, '/') + 1;
	return starts_with(last, "pr-") && number_before(last + 3, '-', pr);
}

/* pull_request.number of the event payload (pull_request_target runs on the base's ref). */
static bool github_pr_from_event(const char *path, int64_t *pr)
{
	struct strbuf text = STRBUF_INIT;
	cJSON *root = NULL;
	const cJSON *num, *ref;
	bool ok = false;

	if (read_file_limit(&text, path, RECORD_JSON_LIMIT) == 0)
		root = cJSON_ParseWithLength(text.buf, text.len);
	num = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "pull_request"), "number");
	ref = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "merge_group"), "head_ref");
	if (cJSON_IsNumber(num) && num->valuedouble >= 1 &&
	    num->valuedouble < 1e15 && num->valuedouble == floor(num->valuedouble)) {
		*pr = (int64_t)num->valuedouble;
		ok = true;
	} else if (cJSON_IsString(ref)) {
		ok = github_pr_from_ref(ref->valuestring, pr);
	}
	cJSON_Delete(root);
	strbuf_release(&text);
	return ok;
}

/*
 * The repository's path on its host (`acme/ledger`) from a remote URL
 * (https, ssh, scp-like `git@host:acme/ledger.git`), never with credentials.
 * NULL for a local path or junk; caller frees.
 */
static char *repo_from_url(const char *url)
{
	const char *scheme = strstr(url, "://");
	const char *p;
	size_t n;

	if (scheme) {
		if (starts_with(url, "file://"))
			return NULL;
		p = strchr(scheme + 3, '/'); /* the path after [user@]host[:port] */
		if (!p)
			return NULL;
	} else {
		const char *colon = strchr(url, ':');
		const char *slash = strchr(url, '/');

		/* scp-like git@host:path; a colon after a slash is a local path */
		if (!colon || (slash && slash < colon))
			return NULL;
		p = colon + 1;
	}
	while (*p == '/')
		p++;
	n = strcspn(p, "?#");
	while (n && p[n - 1] == '/')
		n--;
	if (n > 4 && !strncmp(p + n - 4, ".git", 4))
		n -= 4;
	return n ? xstrndup(p, n) : NULL;
}

static void ci_detect(struct record_ci *ci)
{
	const char *v;
	int64_t n;

	memset(ci, 0, sizeof(*ci));
	if (env_is("GITHUB_ACTIONS", "true")) {
		ci->name = "github-actions";
		if ((v = env("GITHUB_REPOSITORY")))
			ci->repo = xstrdup(v);
		ci->has_pr = (v = env("GITHUB_REF")) && github_pr_from_ref(v, &ci->pr);
		if (!ci->has_pr && (v = env("GITHUB_EVENT_PATH")))
			ci->has_pr = github_pr_from_event(v, &ci->pr);
		ci->has_attempt = env_int("GITHUB_RUN_ATTEMPT", 1, &ci->attempt);
		ci->attempt_from = "GITHUB_RUN_ATTEMPT";
	} else if (env_is("GITLAB_CI", "true")) {
		ci->name = "gitlab-ci";
		if ((v = env("CI_PROJECT_PATH")))
			ci->repo = xstrdup(v);
		ci->has_pr = env_int("CI_MERGE_REQUEST_IID", 1, &ci->pr) ||
			     env_int("CI_EXTERNAL_PULL_REQUEST_IID", 1, &ci->pr);
		/* Newer GitLab versions count retries of a job from 0. */
		if (env_int("CI_JOB_RETRY_COUNT", 0, &n) && n < INT64_MAX) {
			ci->has_attempt = true;
			ci->attempt = n + 1;
			ci->attempt_from = "CI_JOB_RETRY_COUNT";
		}
	} else if (env_is("BUILDKITE", "true")) {
		ci->name = "buildkite";
		if ((v = env("BUILDKITE_REPO")))
			ci->repo = repo_from_url(v);
		if (!ci->repo && env("BUILDKITE_ORGANIZATION_SLUG") &&
		    env("BUILDKITE_PIPELINE_SLUG"))
			ci->repo = xstrfmt("%s/%s", env("BUILDKITE_ORGANIZATION_SLUG"),
					   env("BUILDKITE_PIPELINE_SLUG"));
		/* "false" when the build is not for a pull request */
		if (!env_is("BUILDKITE_PULL_REQUEST", "false"))
			ci->has_pr = env_int("BUILDKITE_PULL_REQUEST", 1, &ci->pr);
		if (env_int("BUILDKITE_RETRY_COUNT", 0, &n) && n < INT64_MAX) {
			ci->has_attempt = true;
			ci->attempt = n + 1;
			ci->attempt_from = "BUILDKITE_RETRY_COUNT";
		}
	} else if (env("JENKINS_URL")) {
		ci->name = "jenkins";
		if ((v = env("GIT_URL")))
			ci->repo = repo_from_url(v);
		ci->has_pr = env_int("CHANGE_ID", 1, &ci->pr);
	}
}

/*
 * The CI's attempt, when no --attempt overrides it, under the bound a
 * manifest's has (ingest would refuse the record): else no record.
 */
static void check_ci_attempt(struct record *r, const struct record_opts *o)
{
	if (o->has_attempt || !r->ci.has_attempt || r->ci.attempt <= MANIFEST_MAX_ATTEMPT)
		return;
	error("record: %s gives attempt %" PRId64 ": an attempt must be an integer "
	      "from 1 to %" PRId64 " (--attempt N overrides it)", r->ci.attempt_from,
	      r->ci.attempt, MANIFEST_MAX_ATTEMPT);
	r->broken = true;
}

static void ci_release(struct record_ci *ci)
{
	free(ci->repo);
	memset(ci, 0, sizeof(*ci));
}

/* ---- globs ---- */

struct glob_walk {
	struct strlist *out;
	bool has_skip;
	dev_t skip_dev;
	ino_t skip_ino;
};

static bool is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The run's own folder, and earlier records (a folder with a manifest). */
static bool is_skipped(const struct glob_walk *w, const char *dir, const struct stat *st)
{
	char *manifest;
	bool skip;

	if (w->has_skip && st->st_dev == w->skip_dev && st->st_ino == w->skip_ino)
		return true;
	manifest = path_join(dir, RECORD_MANIFEST);
	skip = is_regular(manifest);
	free(manifest);
	return skip;
}

static void walk_segments(struct glob_walk *w, const char *dir, char **segs,
			  size_t nr, size_t i);

/* Entries of dir against segment i, a wildcard or `**`. */
static void walk_entries(struct glob_walk *w, const char *dir, char **segs,
			 size_t nr, size_t i)
{
	bool globstar = !strcmp(segs[i], "**"), last = i + 1 == nr;
	struct strlist names = STRLIST_INIT;
	DIR *d = opendir(*dir ? dir : ".");
	struct dirent *e;

	if (!d)
		return; /* unreadable directories match nothing, as with glob(3) */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !(globstar && e->d_name[0] == '.'))
			strlist_push(&names, e->d_name);
	closedir(d);
	for (size_t k = 0; k < names.nr; k++) {
		char *path = path_join(dir, names.items[k]);
		struct stat st;

		if (!globstar) {
			bool match = !fnmatch(segs[i], names.items[k],
					      FNM_PATHNAME | FNM_PERIOD);

			if (match && last && is_regular(path))
				strlist_push(w->out, path);
			else if (match && !last && is_directory(path))
				walk_segments(w, path, segs, nr, i + 1);
		} else if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			/* lstat: a symbolic link to a directory is not followed (no loops) */
			if (!is_skipped(w, path, &st))
				walk_segments(w, path, segs, nr, i);
		} else if (last && is_regular(path)) {
			strlist_push(w->out, path);
		}
		free(path);
	}
	strlist_release(&names);
}

static void walk_segments(struct glob_walk *w, const char *dir, char **segs,
			  size_t nr, size_t i)
{
	const char *seg = segs[i];
	char *path;

	if (!strcmp(seg, "**")) {
		if (i + 1 < nr) /* no directory at all */
			walk_segments(w, dir, segs, nr, i + 1);
		walk_entries(w, dir, segs, nr, i);
		return;
	}
	if (strpbrk(seg, "*?[")) {
		walk_entries(w, dir, segs, nr, i);
		return;
	}
	path = path_join(dir, seg);
	if (i + 1 == nr && is_regular(path))
		strlist_push(w->out, path);
	else if (i + 1 < nr && is_directory(path))
		walk_segments(w, path, segs, nr, i + 1);
	free(path);
}

static size_t glob_simple(const char *pattern, struct strlist *out)
{
	glob_t g;
	size_t added = 0;
	int rc = glob(pattern, 0, NULL, &g);

	if (rc == GLOB_NOSPACE)
		die("out of memory expanding '%s'", pattern);
	if (rc == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (is_regular(g.gl_pathv[i])) {
				strlist_push(out, g.gl_pathv[i]);
				added++;
			}
	globfree(&g);
	return added;
}

/*
 * Append the regular files that pattern matches, sorted. A `**` segment
 * matches any number of directories (it does not enter hidden ones,
 * symbolic links to directories, the directory `skip` when not NULL, nor
 * earlier records: directories holding a tiadash-run.json); other segments
 * match one name with fnmatch(3) (FNM_PATHNAME | FNM_PERIOD). Patterns
 * without `**` go to glob(3). Returns how many files were added.
 */
static size_t expand_glob(const char *pattern, const char *skip, struct strlist *out)
{
	struct strlist found = STRLIST_INIT, segs = STRLIST_INIT;
	struct glob_walk w = { &found, false, 0, 0 };
	const char *p = pattern;
	struct stat st;
	size_t added;

	if (!strstr(pattern, "**"))
		return glob_simple(pattern, out);
	if (skip && stat(skip, &st) == 0) {
		w.has_skip = true;
		w.skip_dev = st.st_dev;
		w.skip_ino = st.st_ino;
	}
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n && !(n == 1 && *p == '.'))
			strlist_push_owned(&segs, xstrndup(p, n));
		p += n + !!p[n];
	}
	if (segs.nr)
		walk_segments(&w, *pattern == '/' ? "/" : "", segs.items, segs.nr, 0);
	strlist_sort(&found);
	/* `**` next to `**` finds a file more than once */
	added = 0;
	for (size_t i = 0; i < found.nr; i++) {
		if (i && !strcmp(found.items[i], found.items[i - 1]))
			continue;
		strlist_push(out, found.items[i]);
		added++;
	}
	strlist_release(&found);
	strlist_release(&segs);
	return added;
}

/* ---- before the command ---- */

/* A 40-hex commit id given as is (either case), lower-cased into out. */
static bool sha_given(const char *s, char out[41])
{
	if (strlen(s) != 40)
		return false;
	for (int i = 0; i < 40; i++)
		out[i] = (char)(s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 'a' : s[i]);
	out[40] = '\0';
	return is_hex_sha(out);
}

/* repo_resolve without the message: a default base may well be missing. */
static bool resolve_quietly(struct repo *repo, const char *rev, char out[41])
{
	git_object *obj = NULL, *commit = NULL;
	bool ok = git_revparse_single(&obj, repo->git, rev) == 0 &&
		  git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) == 0;

	if (ok)
		git_oid_tostr(out, 41, git_object_id(commit));
	git_object_free(commit);
	git_object_free(obj);
	return ok;
}

/*
 * The first parent of head when head is a merge commit (a CI's PR merge
 * ref). Read from the commit's own header: a shallow clone has no parent
 * objects, and a libgit2 that applies shallow grafts would report none.
 */
static bool merge_first_parent(struct repo *repo, const char *head, char out[41])
{
	git_oid oid;
	git_commit *c = NULL;
	const char *h = NULL;
	int parents = 0;

	if (git_oid_fromstr(&oid, head) == 0 && git_commit_lookup(&c, repo->git, &oid) == 0)
		h = git_commit_raw_header(c);
	for (const char *line = h; line && *line; line = strchr(line, '\n') + 1) {
		if (starts_with(line, "parent ") && strspn(line + 7, "0123456789abcdef") == 40) {
			if (!parents++) {
				memcpy(out, line + 7, 40);
				out[40] = '\0';
			}
		}
		if (!strchr(line, '\n'))
			break;
	}
	git_commit_free(c);
	return parents >= 2;
}

/* The failing tests a job writes, when --failed names no other list (seed 000). */
#define DEFAULT_FAILED_LIST ".mq-failed-tests.txt"
/* What a wrapper decided at run time ("run_all REASON..."), when --decision-file names no other. */
#define DEFAULT_DECISION_FILE ".mq-decision"

static int64_t timespec_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

static void mark_file(const char *path, struct record_mark *m)
{
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	m->exists = true;
	m->dev = (uint64_t)st.st_dev;
	m->ino = (uint64_t)st.st_ino;
	m->size = (uint64_t)st.st_size;
	m->mtime_ns = timespec_ns(&st.st_mtim);
	m->ctime_ns = timespec_ns(&st.st_ctim);
}

/*
 * Did the command write path? It is there now, and was not before, or is
 * another file, or changed since (any write or rename moves its ctime).
 */
static bool written_since(const char *path, const struct record_mark *before)
{
	struct record_mark now;

	mark_file(path, &now);
	return now.exists && (!before->exists || now.dev != before->dev ||
			      now.ino != before->ino || now.size != before->size ||
			      now.mtime_ns != before->mtime_ns ||
			      now.ctime_ns != before->ctime_ns);
}

static int push_ref_name(const char *name, void *data)
{
	strlist_push(data, name + strlen("refs/remotes/"));
	return 0;
}

/* The remote-tracking refs matching glob (refs/remotes/GLOB), as R/NAME, sorted. */
static void remote_refs(struct repo *repo, const char *glob, struct strlist *out)
{
	struct strlist found = STRLIST_INIT;

	git_reference_foreach_glob(repo->git, glob, push_ref_name, &found);
	strlist_sort(&found);
	for (size_t i = 0; i < found.nr; i++)
		strlist_push(out, found.items[i]);
	strlist_release(&found);
}

/*
 * The playbook's fallbacks when the default base does not resolve (a
 * remote not called origin, a clone without it): a remote's HEAD, then
 * main and master, local or a remote's. A candidate at head itself tells
 * nothing about what changed and is passed over. Returns the name used
 * (the caller frees it), or NULL.
 */
static char *fallback_base(struct repo *repo, const char *head, char out[41])
{
	struct strlist c = STRLIST_INIT;
	char *used = NULL;

	remote_refs(repo, "refs/remotes/*/HEAD", &c);
	strlist_push(&c, "main");
	strlist_push(&c, "master");
	remote_refs(repo, "refs/remotes/*/main", &c);
	remote_refs(repo, "refs/remotes/*/master", &c);
	for (size_t i = 0; !used && i < c.nr; i++)
		if (resolve_quietly(repo, c.items[i], out) && strcmp(out, head))
			used = xstrdup(c.items[i]);
	strlist_release(&c);
	return used;
}

/*
 * The base: --base must resolve. MQ_AFFECTED_BASE (default origin/main) is
 * resolved as well; when it cannot be (a shallow CI clone without the
 * branch), a merge commit's first parent is the branch it merges into, so
 * that is used, then fallback_base(). Failing those the run is still
 * recorded, its base unknown ("base": null): a made-up base would file the
 * run's changes wrongly, and no record at all loses the run.
 */
static int resolve_base(struct record *r, struct repo *repo)
{
	const char *o_base = r->opts->base;
	const char *mq = env("MQ_AFFECTED_BASE");
	const char *rev = o_base ? o_base : mq ? mq : "origin/main";
	const char *from = o_base ? "--base" : mq ? "MQ_AFFECTED_BASE" : "the default base";
	char *used;

	if (sha_given(rev, r->base))
		return 0;
	if (o_base && !repo)
		return error("cannot resolve --base '%s' without a repository", rev);
	if (o_base)
		return repo_resolve(repo, rev, r->base);
	if (repo && resolve_quietly(repo, rev, r->base))
		return 0;
	if (repo && merge_first_parent(repo, r->head, r->base)) {
		warning("record: cannot resolve %s '%s'; using %s, the first parent "
			"of the merge commit %.12s", from, rev, r->base, r->head);
		return 0;
	}
	if (repo && (used = fallback_base(repo, r->head, r->base))) {
		warning("record: cannot resolve %s '%s'; using %s (%.12s) as the base",
			from, rev, used, r->base);
		free(used);
		return 0;
	}
	r->base[0] = '\0';
	warning("record: cannot resolve %s '%s'%s%s%s, nor a remote's HEAD, main or "
		"master: the run is recorded with its base unknown, so its changed "
		"files are not known (fetch the base, set MQ_AFFECTED_BASE, or give "
		"--base)", from, rev, repo ? " in '" : "", repo ? repo->root : "",
		repo ? "'" : "");
	return 0;
}

/*
 * The directory the job runs in, relative to the repository root: where
 * the reports' relative names start (the manifest's "workdir",
 * core/identity.h). NULL when it is not below the root.
 */
static char *workdir_of(const char *root)
{
	char *cwd = realpath(".", NULL), *top = realpath(root, NULL), *w = NULL;
	size_t n = top ? strlen(top) : 0;

	if (cwd && top && !strncmp(cwd, top, n) && (cwd[n] == '/' || !cwd[n]))
		w = xstrdup(cwd[n] ? cwd + n + 1 : "");
	free(cwd);
	free(top);
	return w;
}

void record_prepare(struct record *r, const struct record_opts *o,
		    const struct cmd_context *ctx)
{
	const char *head = o->head ? o->head : "HEAD";
	const char *mq = env("MQ_AFFECTED_BASE");
	const char *base = o->base ? o->base : mq ? mq : "origin/main";
	struct repo *repo = NULL;
	char sha[41], *real;

	memset(r, 0, sizeof(*r));
	r->opts = o;
	r->started_at = o->has_started ? o->started : ctx->now;
	ci_detect(&r->ci);
	check_ci_attempt(r, o);
	if (o->repo_name)
		r->repo_name = xstrdup(o->repo_name);
	else if (r->ci.repo)
		r->repo_name = xstrdup(r->ci.repo);
	r->has_pr = o->has_pr || r->ci.has_pr;
	r->pr = o->has_pr ? o->pr : r->ci.pr;
	r->has_attempt = o->has_attempt || r->ci.has_attempt;
	r->attempt = o->has_attempt ? o->attempt : r->ci.attempt;
	/* Before the command: a list it did not write is not this run's. */
	if (!o->failed)
		mark_file(DEFAULT_FAILED_LIST, &r->failed_before);
	if (!o->decision_file)
		mark_file(DEFAULT_DECISION_FILE, &r->decision_before);

	if ((!sha_given(head, sha) || !sha_given(base, sha)) &&
	    repo_open(&repo, ctx->repo_path) < 0)
		r->broken = true;
	if (!sha_given(head, r->head) && (!repo || repo_resolve(repo, head, r->head) < 0))
		r->broken = true;
	if (!r->broken && resolve_base(r, repo) < 0)
		r->broken = true;
	if (repo)
		r->root = xstrdup(repo->root);
	else if (!(r->root = repo_discover_root(ctx->repo_path)))
		r->root = getcwd(NULL, 0);
	if (!r->root)
		r->root = xstrdup(".");
	/* As tools print it (vitest's absolute paths are real ones). */
	if ((real = realpath(r->root, NULL))) {
		free(r->root);
		r->root = real;
	}
	r->workdir = workdir_of(r->root);
	repo_close(repo);
}

void record_release(struct record *r)
{
	free(r->root);
	free(r->workdir);
	free(r->repo_name);
	free(r->dir);
	ci_release(&r->ci);
	memset(r, 0, sizeof(*r));
}

void record_opts_release(struct record_opts *o)
{
	strlist_release(&o->results);
	strlist_release(&o->coverage);
	strlist_release(&o->reasons);
}

/* The verdict from how the command ended (tiadash(1), record: The verdict). */
static enum verdict verdict_of(const struct record_outcome *out, bool results_missing)
{
	if (out->signal || out->not_run)
		return VERDICT_ERROR;
	if (out->status == 0)
		return VERDICT_PASS;
	/* It failed before writing its reports: it broke, not a test. */
	return results_missing ? VERDICT_ERROR : VERDICT_FAIL;
}

/* ---- after the command: what goes into the folder ---- */

struct copy {
	char *src; /* as matched */
	char *dst; /* relative to the folder */
};

struct plan {
	struct copy *items;
	size_t nr, alloc;
	struct strmap names;   /* destination names taken */
	struct strmap sources; /* real paths copied already */
	size_t results, coverage; /* items[0..results) are results, then coverage */
	ssize_t selection, quarantine; /* index, or -1 */
	bool results_missing;
	bool has_failed;
	struct strlist failed;
	size_t selection_entries;
	const char *decision;    /* the decision file's (or fail-closed), or NULL */
	struct strlist reasons;  /* its reasons, after --reason's */
};

static void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->items[i].src);
		free(p->items[i].dst);
	}
	free(p->items);
	strmap_clear(&p->names);
	strmap_clear(&p->sources);
	strlist_release(&p->failed);
	strlist_release(&p->reasons);
}

/*
 * A relative path without `.` segments and empty ones, or NULL when path is
 * absolute or climbs out with `..` (the copy then goes by its base name).
 */
static char *contained(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	if (*path == '/')
		return NULL;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			strbuf_release(&sb);
			return NULL;
		}
		if (n && !(n == 1 && *p == '.')) {
			if (sb.len)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n + !!p[n];
	}
	return sb.len ? strbuf_detach(&sb, NULL) : NULL;
}

/* A file name a manifest may carry as is, and that ingest will not take for a manifest. */
static void tame_name(struct strbuf *sb)
{
	const char *last;

	for (size_t i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			sb->buf[i] = '_';
	}
	last = strrchr(sb->buf, '/') ? strrchr(sb->buf, '/') + 1 : sb->buf;
	if (!strcmp(last, RECORD_MANIFEST) || ends_with(last, ".tiadash.json"))
		strbuf_addstr(sb, ".copy");
}

/* name, or name-2, name-3... before its extension: never one taken already. */
static char *unique_name(struct plan *p, const char *name)
{
	const char *last = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	const char *dot = strrchr(last, '.');
	size_t stem = dot && dot > last ? (size_t)(dot - name) : strlen(name);
	char *candidate = xstrdup(name);

	for (int n = 2; strmap_has(&p->names, candidate); n++) {
		free(candidate);
		candidate = xstrfmt("%.*s-%d%s", (int)stem, name, n, name + stem);
	}
	strmap_put(&p->names, candidate, strlen(candidate), 1);
	return candidate;
}

/*
 * Plan to copy src into dir (NULL: the folder's top, by base name). Returns
 * the item's index; a file in the plan already keeps its first one.
 */
static ssize_t plan_add(struct plan *p, const char *src, const char *dir)
{
	char *real = realpath(src, NULL);
	char *rel;
	struct strbuf name = STRBUF_INIT;
	const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
	struct strmap_entry *e = NULL;
	bool added = true;

	if (real)
		e = strmap_intern(&p->sources, real, strlen(real), (int64_t)p->nr, &added);
	free(real);
	if (!added)
		return (ssize_t)e->value;
	rel = dir ? contained(src) : NULL;
	if (dir)
		strbuf_addf(&name, "%s/", dir);
	strbuf_addstr(&name, rel ? rel : base);
	free(rel);
	tame_name(&name);
	ALLOC_GROW(p->items, p->nr + 1, p->alloc);
	p->items[p->nr].src = xstrdup(src);
	p->items[p->nr].dst = unique_name(p, name.buf);
	strbuf_release(&name);
	return (ssize_t)p->nr++;
}

static void plan_globs(struct plan *p, const struct strlist *patterns, const char *dir,
		       const char *opt, const char *skip)
{
	for (size_t i = 0; i < patterns->nr; i++) {
		struct strlist files = STRLIST_INIT;

		if (!expand_glob(patterns->items[i], skip, &files)) {
			warning("record: no file matches %s '%s'", opt, patterns->items[i]);
			if (!strcmp(opt, "--results"))
				p->results_missing = true;
		}
		for (size_t k = 0; k < files.nr; k++)
			plan_add(p, files.items[k], dir);
		strlist_release(&files);
	}
}

static int read_list(const char *path, struct strlist *out,
		     int (*parse)(struct input *, struct strlist *))
{
	struct input in;
	int ret;

	input_from_file(&in, path);
	ret = parse(&in, out);
	input_release(&in);
	return ret;
}

/*
 * A selector's own answer must read as its adapter reads it (the same
 * reading ingest does): a broken answer fails the recording here, in the
 * job's log, not at ingest. codebase-memory-mcp's never does: its reader
 * fails closed (run_all, selector-error) with a warning.
 */
static int check_answer(const struct record *r, const char *path)
{
	const struct record_opts *o = r->opts;
	struct adapter_opts ao = { r->root, o->lane, o->has_total_packages,
				   o->total_packages, o->has_total, o->total };
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct input in;
	int ret;

	input_from_file(&in, path);
	ret = input_read_all(&in, &sb, INPUT_JSON_LIMIT);
	input_release(&in);
	if (!ret)
		ret = adapter_read_answer(o->format, sb.buf, sb.len, path, &ao, &a);
	adapter_answer_release(&a);
	strbuf_release(&sb);
	return ret;
}

/*
 * The wrapper's decision file: one line, "run_all [REASON...]",
 * "selected" or "nothing" (# comments and blank lines aside).
 */
static int read_decision(struct plan *p, const char *path, bool has_selection)
{
	struct strlist lines = STRLIST_INIT, words = STRLIST_INIT;
	enum decision d;
	int ret = read_list(path, &lines, list_parse);

	if (!ret && lines.nr != 1)
		ret = error("%s: a decision file holds one line (run_all REASON..., "
			    "selected or nothing), not %zu", path, lines.nr);
	if (!ret) {
		for (const char *s = lines.items[0]; *s;) {
			size_t n = strcspn(s, " \t");

			if (n)
				strlist_push_owned(&words, xstrndup(s, n));
			s += n + strspn(s + n, " \t");
		}
		if (!decision_parse(words.items[0], &d))
			ret = error("%s: '%s' is not a decision (run_all, selected or "
				    "nothing)", path, words.items[0]);
		else if (d != DECISION_RUN_ALL && words.nr > 1)
			ret = error("%s: only run_all is followed by reasons", path);
		else if (d == DECISION_SELECTED && !has_selection)
			ret = error("%s: 'selected' needs --selection FILE (the tests "
				    "it selected)", path);
	}
	if (!ret) {
		p->decision = decision_name(d);
		for (size_t i = 1; i < words.nr; i++)
			strlist_push(&p->reasons, words.items[i]);
	}
	strlist_release(&words);
	strlist_release(&lines);
	return ret;
}

static int plan_selection(struct plan *p, const struct record *r)
{
	const struct record_opts *o = r->opts;
	const char *dfile = o->decision_file ? o->decision_file : DEFAULT_DECISION_FILE;

	if (o->selection && !is_regular(o->selection) && o->format == &adapter_cbm) {
		warning("record: the answer '%s' is missing: recorded as run_all "
			"(selector-error), as codebase-memory-mcp's consumer runs "
			"everything", o->selection);
		p->decision = "run_all";
		strlist_push(&p->reasons, "selector-error: no answer");
	} else if (o->selection && !is_regular(o->selection)) {
		warning("record: the selection '%s' is missing: recorded without it",
			o->selection);
	} else if (o->selection) {
		struct strlist entries = STRLIST_INIT;

		if (!o->format &&
		    read_list(o->selection, &entries, list_parse_selection) < 0)
			return -1;
		if (o->format && check_answer(r, o->selection) < 0)
			return -1;
		p->selection_entries = entries.nr;
		strlist_release(&entries);
		p->selection = plan_add(p, o->selection, NULL);
	}
	/* A selection's decision is a shadow run's; the default file counts when the job wrote it. */
	if (o->kind != RUN_SHADOW)
		return 0;
	if (o->decision_file ? is_regular(dfile) : written_since(dfile, &r->decision_before)) {
		strlist_release(&p->reasons);
		return read_decision(p, dfile, p->selection >= 0);
	}
	if (o->decision_file)
		warning("record: the decision file '%s' is missing", dfile);
	return 0;
}

static int plan_lists(struct plan *p, const struct record *r)
{
	const struct record_opts *o = r->opts;
	const char *quarantine = o->quarantine ? o->quarantine : ".mq/quarantine.txt";
	const char *failed = o->failed ? o->failed : DEFAULT_FAILED_LIST;

	p->selection = p->quarantine = -1;
	if (plan_selection(p, r) < 0)
		return -1;
	if (is_regular(quarantine))
		p->quarantine = plan_add(p, quarantine, NULL);
	else if (o->quarantine)
		warning("record: the quarantine list '%s' is missing", quarantine);
	/* The default list counts only when this job wrote it (seed 000). */
	if (o->failed ? is_regular(failed) : written_since(failed, &r->failed_before)) {
		if (read_list(failed, &p->failed, list_parse) < 0)
			return -1;
		p->has_failed = true;
	} else if (o->failed) {
		warning("record: the failed list '%s' is missing", failed);
	}
	return 0;
}

/* ---- the folder ---- */

/* Paths created so far, removed again (last first) when the recording fails. */
struct undo {
	struct strlist paths;
};

static void undo_all(struct undo *u)
{
	for (size_t i = u->paths.nr; i-- > 0;)
		remove(u->paths.items[i]);
}

/* mkdir -p the directories of rel below top ("": the cwd), remembering them. */
static int make_dirs(struct undo *u, const char *top, const char *rel)
{
	const char *slash = rel;
	int ret = 0;

	while (!ret && (slash = strchr(slash, '/'))) {
		char *sub = xstrndup(rel, (size_t)(slash - rel));
		char *path = path_join(top, sub);

		/* (an empty sub is the root of an absolute path) */
		if (*sub && strcmp(sub, ".")) {
			if (mkdir(path, 0777) == 0)
				strlist_push(&u->paths, path);
			else if (errno != EEXIST || !is_directory(path))
				ret = error("cannot create directory '%s': %s", path,
					    strerror(errno == EEXIST ? ENOTDIR : errno));
		}
		free(path);
		free(sub);
		slash++;
	}
	return ret;
}

/* Copy src to dst, a new file. */
static int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in = open_regular(src, src, 0);
	int outfd = -1, ret = 0;
	ssize_t n;

	if (in < 0)
		return -1;
	outfd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (outfd < 0) {
		ret = error("cannot create '%s': %s", dst, strerror(errno));
		close(in);
		return ret;
	}
	while (!ret && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				ret = error("cannot read '%s': %s", src, strerror(errno));
			continue;
		}
		for (ssize_t off = 0; !ret && off < n;) {
			ssize_t w = write(outfd, buf + off, (size_t)(n - off));

			if (w >= 0)
				off += w;
			else if (errno != EINTR)
				ret = error("cannot write '%s': %s", dst, strerror(errno));
		}
	}
	close(in);
	if (close(outfd) && !ret)
		ret = error("cannot write '%s': %s", dst, strerror(errno));
	if (ret)
		unlink(dst); /* made here: not a half copy left behind */
	return ret;
}

/* The highest attempt of head and kind among the folders in root (0: none). */
static int64_t last_attempt(const char *root, const char *head, enum run_kind kind)
{
	struct strlist names = STRLIST_INIT;
	DIR *d = opendir(root);
	struct dirent *e;
	int64_t max = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strlist_push(&names, e->d_name);
	closedir(d);
	for (size_t i = 0; i < names.nr; i++) {
		char *dir = path_join(root, names.items[i]);
		char *path = path_join(dir, RECORD_MANIFEST);
		struct strbuf text = STRBUF_INIT;
		cJSON *m = NULL;
		const cJSON *h, *k, *a;

		if (is_regular(path) && read_file_limit(&text, path, RECORD_JSON_LIMIT) == 0)
			m = cJSON_ParseWithLength(text.buf, text.len);
		h = cJSON_GetObjectItemCaseSensitive(m, "head");
		k = cJSON_GetObjectItemCaseSensitive(m, "kind");
		a = cJSON_GetObjectItemCaseSensitive(m, "attempt");
		if (cJSON_IsString(h) && !strcasecmp(h->valuestring, head) &&
		    cJSON_IsString(k) && !strcmp(k->valuestring, run_kind_name(kind)) &&
		    cJSON_IsNumber(a) && a->valuedouble > (double)max &&
		    a->valuedouble < INT_MAX)
			max = (int64_t)a->valuedouble;
		cJSON_Delete(m);
		strbuf_release(&text);
		free(path);
		free(dir);
	}
	strlist_release(&names);
	return max;
}

/*
 * Claim the run's folder. --out DIR may exist but must not hold a record;
 * the default .tiadash/runs/KIND-HEAD-ATTEMPT is made with mkdir, so two
 * jobs counting the same attempt at once cannot both take it.
 */
static int claim_dir(struct record *r, struct undo *u, int64_t *attempt)
{
	const struct record_opts *o = r->opts;
	const char *kind = run_kind_name(o->kind);
	char *runs, *probe;
	int ret = 0;

	if (o->out) {
		char *out = xstrdup(o->out);
		size_t n = strlen(out);
		char *parent, *manifest;
		struct stat st;

		while (n > 1 && out[n - 1] == '/')
			out[--n] = '\0';
		parent = path_dirname(out);
		*attempt = r->has_attempt ? r->attempt :
			   last_attempt(parent, r->head, o->kind) + 1;
		free(parent);
		manifest = path_join(out, RECORD_MANIFEST);
		if (lstat(manifest, &st) == 0)
			ret = error("'%s' exists: each run needs its own --out folder",
				    manifest);
		free(manifest);
		probe = path_join(out, "x");
		if (!ret)
			ret = make_dirs(u, "", probe);
		free(probe);
		if (ret)
			free(out);
		else
			r->dir = out;
		return ret;
	}
	runs = path_join(r->root, ".tiadash/runs");
	probe = path_join(runs, "x");
	ret = tiadir_prepare(runs) < 0 ? -1 : mkdir_for_file(probe);
	free(probe);
	*attempt = r->has_attempt ? r->attempt : last_attempt(runs, r->head, o->kind) + 1;
	for (int tries = 0; !ret; tries++) {
		char *name = xstrfmt("%s-%s-%" PRId64, kind, r->head, *attempt);
		char *dir = path_join(runs, name);

		free(name);
		if (mkdir(dir, 0777) == 0) {
			strlist_push(&u->paths, dir);
			r->dir = dir;
			break;
		}
		if (errno != EEXIST)
			ret = error("cannot create directory '%s': %s", dir,
				    strerror(errno));
		else if (r->has_attempt || tries > 1000 || *attempt >= INT_MAX)
			ret = error("'%s' exists: attempt %" PRId64 " of this head "
				    "and kind is recorded already", dir, *attempt);
		free(dir);
		if (!ret)
			(*attempt)++;
	}
	free(runs);
	return ret;
}

/* A directory holding a package manifest (core/treeindex.h's list)? */
static bool is_package_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = tree_is_package_manifest(e->d_name);
	if (d)
		closedir(d);
	return found;
}

/*
 * The package a report was found in, relative to the root ("" the root),
 * or NULL when it lies outside the root. In a monorepo each package's
 * runner writes its report in the package, naming its tests from there.
 */
static char *report_package(const char *root, const char *report)
{
	char *top = realpath(root, NULL), *real = realpath(report, NULL), *dir, *s;
	size_t n = top ? strlen(top) : 0;
	char *pkg = NULL;

	if (!top || !real || strncmp(real, top, n) || real[n] != '/') {
		free(top);
		free(real);
		return NULL;
	}
	dir = real;
	while ((s = strrchr(dir, '/')) && (size_t)(s - dir) > n) {
		*s = '\0';
		if (is_package_dir(dir)) {
			pkg = xstrdup(dir + n + 1);
			break;
		}
	}
	free(top);
	free(real);
	return pkg ? pkg : xstrdup("");
}

/*
 * A result: its name, with its own workdir when it was found in a package
 * below the job's directory (`turbo run test` at the root, each package's
 * runner writing its report in the package).
 */
static void push_result(cJSON *arr, const struct record *r, const struct copy *c)
{
	char *pkg = r->workdir ? report_package(r->root, c->src) : NULL;
	cJSON *o;

	if (!pkg || !*pkg || !strcmp(pkg, r->workdir)) {
		json_push_string(arr, c->dst);
	} else {
		o = cJSON_CreateObject();
		json_add_string(o, "path", c->dst);
		json_add_string(o, "workdir", pkg);
		cJSON_AddItemToArray(arr, o);
	}
	free(pkg);
}

static cJSON *manifest_json(const struct record *r, const struct plan *p,
			    const struct record_outcome *out, int64_t attempt)
{
	const struct record_opts *o = r->opts;
	cJSON *m = cJSON_CreateObject(), *arr, *job;
	bool has_file = p->selection >= 0;
	bool native = has_file && o->format && o->format != &adapter_cbm;
	const char *decision = p->decision ? p->decision : o->decision;

	json_add_string(m, "schema", "tiadash.run.v1");
	if (r->repo_name)
		json_add_string(m, "repo", r->repo_name);
	json_add_opt_int(m, "pr", r->has_pr, r->pr);
	json_add_string_or_null(m, "base", *r->base ? r->base : NULL);
	json_add_string(m, "head", r->head);
	json_add_string(m, "kind", run_kind_name(o->kind));
	json_add_int(m, "attempt", attempt);
	json_add_time(m, "started_at", r->started_at);
	json_add_number(m, "wall_clock_s", o->has_wall ? o->wall : out->wall_clock_s);
	json_add_string(m, "verdict", verdict_name(verdict_of(out, p->results_missing)));
	/* A list's decision is its own; an answer's is read from it at ingest. */
	if (!decision && has_file && !o->format)
		decision = p->selection_entries ? "selected" : "nothing";
	/* A missing list leaves a "selected" decision nothing to name. */
	if (decision && !has_file && !strcmp(decision, "selected"))
		decision = NULL;
	if (o->kind == RUN_SHADOW && (decision || has_file)) {
		cJSON *sel = cJSON_AddObjectToObject(m, "selection");

		if (decision)
			json_add_string(sel, "decision", decision);
		arr = cJSON_AddArrayToObject(sel, "reasons");
		for (size_t i = 0; i < o->reasons.nr; i++)
			json_push_string(arr, o->reasons.items[i]);
		for (size_t i = 0; i < p->reasons.nr; i++)
			json_push_string(arr, p->reasons.items[i]);
		if (o->has_total)
			json_add_int(sel, "total_tests", o->total);
		if (o->has_selected_count)
			json_add_int(sel, "selected_count", o->selected_count);
		if (native) {
			json_add_string(sel, "format", o->format->name);
			json_add_string(sel, "file", p->items[p->selection].dst);
			/* The tool prints absolute paths of this checkout. */
			json_add_string(sel, "root", r->root);
			if (o->has_total_packages)
				json_add_int(sel, "total_packages", o->total_packages);
		} else if (has_file) {
			json_add_string(sel, o->format ? "engine_file" : "selected_file",
					p->items[p->selection].dst);
		}
		if (has_file && o->format == &adapter_cbm && o->lane)
			json_add_string(sel, "lane", o->lane);
	}
	arr = cJSON_AddArrayToObject(m, "results");
	for (size_t i = 0; i < p->results; i++)
		push_result(arr, r, &p->items[i]);
	if (p->coverage > p->results) {
		arr = cJSON_AddArrayToObject(m, "coverage");
		for (size_t i = p->results; i < p->coverage; i++)
			json_push_string(arr, p->items[i].dst);
	}
	if (p->has_failed) {
		arr = cJSON_AddArrayToObject(m, "failed");
		for (size_t i = 0; i < p->failed.nr; i++)
			json_push_string(arr, p->failed.items[i]);
	}
	if (p->quarantine >= 0)
		json_add_string(m, "quarantine", p->items[p->quarantine].dst);
	if (r->workdir && *r->workdir)
		json_add_string(m, "workdir", r->workdir);
	/* Not part of the contract: how the job ended, for whoever reads the folder. */
	job = cJSON_AddObjectToObject(m, "job");
	json_add_opt_int(job, "exit_status", !out->signal && !out->not_run, out->status);
	json_add_opt_int(job, "signal", out->signal != 0, out->signal);
	json_add_bool(job, "started", !out->not_run);
	json_add_string_or_null(job, "ci", r->ci.name);
	return m;
}

/* Write the manifest (checked by the parser ingest uses) and move it into place. */
static int write_manifest(struct undo *u, const char *dir, cJSON *json)
{
	char *text = cJSON_Print(json);
	char *path = path_join(dir, RECORD_MANIFEST);
	char *tmp = path_join(dir, "." RECORD_MANIFEST ".tmp");
	struct manifest check;
	struct strbuf sb = STRBUF_INIT;
	FILE *f = NULL;
	int ret;

	if (!text)
		die("out of memory writing a manifest");
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	manifest_init(&check);
	ret = manifest_parse(sb.buf, sb.len, path, &check);
	manifest_release(&check);
	if (ret < 0)
		ret = error("internal: '%s' as written would not parse", path);
	else if (!(f = fopen(tmp, "wx")))
		ret = error("cannot create '%s': %s", tmp, strerror(errno));
	if (f) {
		strlist_push(&u->paths, tmp);
		if (fwrite(sb.buf, 1, sb.len, f) != sb.len || fflush(f))
			ret = error("cannot write '%s': %s", tmp, strerror(errno));
		if (fclose(f) && !ret)
			ret = error("cannot write '%s': %s", tmp, strerror(errno));
		if (!ret && rename(tmp, path))
			ret = error("cannot rename '%s' to '%s': %s", tmp, path,
				    strerror(errno));
		if (!ret) {
			free(u->paths.items[--u->paths.nr]);
			strlist_push(&u->paths, path);
		}
	}
	strbuf_release(&sb);
	free(path);
	free(tmp);
	return ret;
}

int record_finish(struct record *r, const struct record_outcome *out)
{
	const struct record_opts *o = r->opts;
	struct plan p = { 0 };
	struct undo u = { STRLIST_INIT };
	char *skip;
	int64_t attempt = 1;
	int ret = 0;

	if (r->broken)
		return -1;
	/* A glob with `**` never walks into earlier records. */
	skip = o->out ? xstrdup(o->out) : path_join(r->root, ".tiadash/runs");
	strmap_put(&p.names, RECORD_MANIFEST, strlen(RECORD_MANIFEST), 1);
	plan_globs(&p, &o->results, "results", "--results", skip);
	p.results = p.nr;
	plan_globs(&p, &o->coverage, "coverage", "--coverage", skip);
	p.coverage = p.nr;
	free(skip);
	/* Top-level names must not shadow the two folders. */
	strmap_put(&p.names, "results", 7, 1);
	strmap_put(&p.names, "coverage", 8, 1);
	ret = plan_lists(&p, r);
	if (!ret)
		ret = claim_dir(r, &u, &attempt);
	for (size_t i = 0; !ret && i < p.nr; i++) {
		char *dst = path_join(r->dir, p.items[i].dst);

		ret = team_path_stays_inside(p.items[i].src, r->root);
		if (!ret)
			ret = make_dirs(&u, r->dir, p.items[i].dst);
		if (!ret && !(ret = copy_file(p.items[i].src, dst)))
			strlist_push(&u.paths, dst);
		free(dst);
	}
	if (!ret) {
		cJSON *json = manifest_json(r, &p, out, attempt);

		ret = write_manifest(&u, r->dir, json);
		cJSON_Delete(json);
	}
	if (ret) {
		undo_all(&u);
		free(r->dir);
		r->dir = NULL;
	}
	strlist_release(&u.paths);
	plan_release(&p);
	return ret;
}
