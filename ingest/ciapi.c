/*
 * `ingest --github/--gitlab`: list CI runs through the GitHub Actions and
 * GitLab REST APIs, download their artifacts, ingest the manifests inside.
 */
#include "core/tiadash.h"
#include "ingest/ciapi.h"
#include "core/json.h"
#include "core/timeutil.h"
#include "ingest/http.h"

#include <zip.h>

/* API answers and manifests are small; anything bigger is not one. */
#define CI_DOC_LIMIT ((size_t)64 << 20)
/* Pages of one listing at most (100 runs a page). */
#define CI_MAX_PAGES 1000

#define GITHUB_API "https://api.github.com"
#define GITLAB_API "https://gitlab.com/api/v4"

/* One artifact: a GitHub artifact, or a GitLab job's artifacts archive. */
struct ci_artifact {
	int64_t id;
	char *name;
	char *url;       /* its zip, by the API's documented path */
	char *label;     /* for messages: the run's label, then the artifact */
	bool expired;
	char *expired_at; /* GitLab: when it expired, or NULL */
	int64_t size;    /* as the API announced it, or -1 */
	struct http_get *get;
};

/* A GitHub job, for the wall-clock of the manifests it produced. */
struct ci_job {
	char *name;
	double wall;
};

/* One CI run: a GitHub workflow run, or a GitLab job. */
struct ci_run {
	int64_t id;
	char *updated_at; /* what changes when the run is re-run, as the API wrote it */
	char *label;      /* "github acme/ledger shadow.yml run 1001" */
	char *conclusion;
	double wall;      /* the run's wall-clock (GitLab: the job's), or NAN */
	struct ci_artifact *arts;
	size_t nr_arts, alloc_arts;
	struct ci_job *jobs; /* GitHub: asked for when a manifest lacks wall_clock_s */
	size_t nr_jobs, alloc_jobs;
	bool jobs_loaded;
	bool failed;      /* a problem was reported: not remembered */
};

struct run_list {
	struct ci_run *v;
	size_t nr, alloc;
	int running;      /* not finished yet: left for a later pull */
};

/* One pull. */
struct ci {
	struct ingest *ing;
	const struct ci_pull *p;
	const char *provider;  /* "github" or "gitlab": messages and the store */
	char *api;             /* the API's base URL, without a trailing slash */
	char *project;         /* the project as a URL path segment */
	struct http_client *http;
	const char *token_name; /* where the token came from (or would have) */
	bool has_token;
	size_t max_size;
	uint64_t max_source;   /* decoded bytes of one manifest's files */
	size_t chunk;          /* runs whose artifacts download together */
	bool stopped;          /* a rate limit lasts too long: nothing more is asked */
	int not_pulled;
	int errors;
};

/* ---- small helpers --------------------------------------------------- */

static const cJSON *jget(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = jget(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A whole number >= 0 (ids are below 2^53, so a double holds them). */
static bool jint(const cJSON *o, const char *key, int64_t *out)
{
	const cJSON *v = jget(o, key);

	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > 9.0e15 ||
	    v->valuedouble != floor(v->valuedouble))
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

static bool jtime(const cJSON *o, const char *key, int64_t *ms)
{
	const char *s = jstr(o, key);

	return s && time_parse_rfc3339(s, ms);
}

/* Seconds from one RFC 3339 field to another, or NAN. */
static double jspan(const cJSON *o, const char *from, const char *to)
{
	int64_t a, b;

	if (!jtime(o, from, &a) || !jtime(o, to, &b) || b < a)
		return NAN;
	return (double)(b - a) / 1000.0;
}

static char *format_ms(int64_t ms)
{
	struct strbuf sb = STRBUF_INIT;

	time_format(&sb, ms);
	return strbuf_detach(&sb, NULL);
}

static void artifact_release(struct ci_artifact *a)
{
	free(a->name);
	free(a->url);
	free(a->label);
	free(a->expired_at);
	http_get_free(a->get);
}

static void run_release(struct ci_run *r)
{
	free(r->updated_at);
	free(r->label);
	free(r->conclusion);
	for (size_t i = 0; i < r->nr_arts; i++)
		artifact_release(&r->arts[i]);
	free(r->arts);
	for (size_t i = 0; i < r->nr_jobs; i++)
		free(r->jobs[i].name);
	free(r->jobs);
}

static void run_list_release(struct run_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		run_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static struct ci_run *run_list_add(struct run_list *l)
{
	struct ci_run *r;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	r = &l->v[l->nr++];
	memset(r, 0, sizeof(*r));
	r->wall = NAN;
	return r;
}

static struct ci_artifact *run_add_artifact(struct ci_run *r, int64_t id,
					     const char *name)
{
	struct ci_artifact *a;

	ALLOC_GROW(r->arts, r->nr_arts + 1, r->alloc_arts);
	a = &r->arts[r->nr_arts++];
	memset(a, 0, sizeof(*a));
	a->id = id;
	a->name = xstrdup(name);
	a->size = -1;
	return a;
}

/* A problem with one artifact: reported, counted as a failed source. */
static void artifact_error(struct ci *ci, struct ci_run *r, struct ci_artifact *a,
			   const char *fmt, ...) ATTR_FORMAT(4, 5);

static void artifact_error(struct ci *ci, struct ci_run *r, struct ci_artifact *a,
			   const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s: %s", a->label, sb.buf);
	strbuf_release(&sb);
	ci->ing->stats.sources++;
	ci->ing->stats.failed++;
	ci->errors++;
	r->failed = true;
}

/* ---- the store's memory (ci_cursor, ci_seen) ------------------------------ */

static void bind_key(struct ci *ci, sqlite3_stmt *st, const char *pipeline)
{
	store_bind_text(st, 1, ci->provider);
	store_bind_text(st, 2, ci->api);
	store_bind_text(st, 3, ci->p->project);
	store_bind_text(st, 4, pipeline);
}

/* Did this run land before, with the same updated_at? */
static bool seen_before(struct ci *ci, const char *pipeline, const struct ci_run *r)
{
	static const char sql[] =
		"SELECT updated_at FROM ci_seen WHERE provider = ?1 AND api = ?2"
		" AND project = ?3 AND pipeline = ?4 AND run_id = ?5";
	sqlite3_stmt *st = store_stmt(ci->ing->store, sql);
	bool same;

	bind_key(ci, st, pipeline);
	sqlite3_bind_int64(st, 5, r->id);
	same = sqlite3_step(st) == SQLITE_ROW &&
	       !strcmp(store_col_text(st, 0), r->updated_at);
	sqlite3_reset(st);
	return same;
}

/* The newest run id remembered for the pipeline, or -1. */
static int64_t cursor_newest(struct ci *ci, const char *pipeline)
{
	static const char sql[] =
		"SELECT newest_id FROM ci_cursor WHERE provider = ?1 AND api = ?2"
		" AND project = ?3 AND pipeline = ?4";
	sqlite3_stmt *st = store_stmt(ci->ing->store, sql);
	int64_t id = -1;

	bind_key(ci, st, pipeline);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return id;
}

/*
 * Remember a run that landed (in the ingest's open batch, if there is
 * one, so the memory and the runs are committed, or lost, together).
 */
static int remember(struct ci *ci, const char *pipeline, const struct ci_run *r,
		    int manifests)
{
	static const char seen_sql[] =
		"INSERT INTO ci_seen (provider, api, project, pipeline, run_id,"
		" updated_at, runs, seen_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		" ON CONFLICT (provider, api, project, pipeline, run_id) DO UPDATE SET"
		" updated_at = excluded.updated_at, runs = excluded.runs,"
		" seen_at = excluded.seen_at";
	static const char cursor_sql[] =
		"INSERT INTO ci_cursor (provider, api, project, pipeline, newest_id,"
		" checked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
		" ON CONFLICT (provider, api, project, pipeline) DO UPDATE SET"
		" newest_id = max(newest_id, excluded.newest_id),"
		" checked_at = excluded.checked_at";
	struct store *s = ci->ing->store;
	sqlite3_stmt *st;
	int ret;

	if (store_begin(s) < 0)
		return -1;
	st = store_stmt(s, seen_sql);
	bind_key(ci, st, pipeline);
	sqlite3_bind_int64(st, 5, r->id);
	store_bind_text(st, 6, r->updated_at);
	sqlite3_bind_int64(st, 7, manifests);
	sqlite3_bind_int64(st, 8, ci->ing->now);
	ret = store_exec_stmt(s, st, "cannot remember a pulled run");
	if (!ret) {
		st = store_stmt(s, cursor_sql);
		bind_key(ci, st, pipeline);
		sqlite3_bind_int64(st, 5, r->id);
		sqlite3_bind_int64(st, 6, ci->ing->now);
		ret = store_exec_stmt(s, st, "cannot remember a pulled run");
	}
	if (ret < 0)
		store_rollback(s);
	else
		ret = store_commit(s);
	return ret;
}

/* ---- API requests ------------------------------------------------------------ */

static struct http_get *api_get(struct ci *ci, const char *url, size_t limit)
{
	struct http_get *g = http_get_new(url, ci->api, limit);

	http_get_honour_rate_limits(g);
	return g;
}

static void run_gets(struct ci *ci, struct http_get **gets, size_t n)
{
	if (!n)
		return;
	http_get_all(ci->http, gets, n);
	if (http_client_rate_limited(ci->http))
		ci->stopped = true;
}

/* Why a get failed, with a word about the token where it may be the cause. */
static char *get_failure(struct ci *ci, struct http_get *g)
{
	long status = http_get_status(g);
	const char *other = ci->p->provider == CI_GITHUB ? "GITHUB_TOKEN" : "GITLAB_TOKEN";

	if (!ci->has_token && (status == 401 || status == 403 || status == 404))
		return xstrfmt("%s (no token was sent: set %s or TIADASH_TOKEN)",
			       http_get_failure(g), other);
	if (ci->has_token && status == 401)
		return xstrfmt("%s (the API did not accept %s)", http_get_failure(g),
			       ci->token_name);
	return xstrdup(http_get_failure(g));
}

/*
 * Report a failed get, unless a rate limit stopped it before it was asked
 * (that is said once, at the end). True when it was reported.
 */
static bool report_get(struct ci *ci, struct http_get *g)
{
	char *why;

	if (ci->stopped && !http_get_status(g))
		return false;
	why = get_failure(ci, g);
	error("%s", why);
	free(why);
	ci->errors++;
	return true;
}

/* The JSON of a finished API get, or NULL after an error. */
static cJSON *api_json(struct ci *ci, struct http_get *g)
{
	char *body;
	size_t len;
	cJSON *json;

	if (!http_get_ok(g)) {
		report_get(ci, g);
		return NULL;
	}
	body = http_get_body(g, &len);
	json = json_parse_source(body, len, http_get_name(g));
	free(body);
	if (!json)
		ci->errors++;
	return json;
}

/* Does a Link header parameter list say rel="next"? */
static bool rel_is_next(const char *params)
{
	const char *p = params;

	while ((p = strcasestr(p, "rel="))) {
		const char *v = p + 4;
		size_t n;

		if (*v == '"')
			v++;
		/* rel may hold several space-separated relation types */
		while (*v && *v != '"' && *v != ';' && *v != ',') {
			n = strcspn(v, " \";,");
			if (n == 4 && !strncasecmp(v, "next", 4))
				return true;
			v += n;
			while (*v == ' ')
				v++;
		}
		p += 4;
	}
	return false;
}

/* The rel="next" target of a Link header (RFC 8288), or NULL; caller frees. */
static char *link_next(const char *link)
{
	const char *p = link;

	while (p && (p = strchr(p, '<'))) {
		const char *gt = strchr(p, '>'), *next;
		char *params;
		bool is_next;

		if (!gt)
			break;
		next = strchr(gt, '<');
		params = xstrndup(gt + 1, next ? (size_t)(next - gt - 1) : strlen(gt + 1));
		is_next = rel_is_next(params);
		free(params);
		if (is_next)
			return xstrndup(p + 1, (size_t)(gt - p - 1));
		p = next;
	}
	return NULL;
}

/* The URL of the page after g's (from url), or NULL; caller frees. */
static char *github_next_page(struct http_get *g, const char *url)
{
	char *h = http_get_header(g, "link");
	char *next = h ? link_next(h) : NULL;

	free(h);
	if (next && (!http_is_url(next) || !strcmp(next, url))) {
		free(next);
		next = NULL;
	}
	return next;
}

/* A page's callback: 0 go on, 1 stop (no later page matters), -1 error. */
typedef int (*page_fn)(struct ci *ci, const cJSON *page, const char *url, void *data);

/*
 * Every page of a listing, one request at a time: GitHub's next page is the
 * Link header's rel="next", GitLab's the X-Next-Page header's number
 * (appended to base as &page=N).
 */
static int list_pages(struct ci *ci, const char *base, page_fn fn, void *data)
{
	bool github = ci->p->provider == CI_GITHUB;
	char *url = github ? xstrdup(base) : xstrfmt("%s&page=1", base);
	int ret = 0;

	for (int pages = 1; url && !ret && !ci->stopped; pages++) {
		struct http_get *g = api_get(ci, url, CI_DOC_LIMIT);
		char *next = NULL, *h;
		cJSON *page;
		int64_t n;

		run_gets(ci, &g, 1);
		page = api_json(ci, g);
		ret = page ? fn(ci, page, http_get_name(g), data) : -1;
		if (!ret && github) {
			next = github_next_page(g, url);
		} else if (!ret) {
			h = http_get_header(g, "x-next-page");
			if (h && parse_int64(h, &n) && n > pages && n < INT_MAX)
				next = xstrfmt("%s&page=%" PRId64, base, n);
			free(h);
		}
		if (next && pages >= CI_MAX_PAGES) {
			ret = error("%s: more than %d pages; give a shorter --since",
				    http_get_name(g), CI_MAX_PAGES);
			ci->errors++;
			free(next);
			next = NULL;
		}
		cJSON_Delete(page);
		http_get_free(g);
		free(url);
		url = next;
	}
	/* Stopped by a rate limit with pages left: the listing is not whole. */
	if (url)
		ret = -1;
	free(url);
	return ret < 0 ? -1 : 0;
}

/* ---- GitHub Actions ---------------------------------------------------------- */

struct github_list {
	const char *workflow;
	struct run_list *runs;
};

static int github_runs_page(struct ci *ci, const cJSON *page, const char *url, void *data)
{
	struct github_list *gl = data;
	const cJSON *runs = jget(page, "workflow_runs"), *it;

	if (!cJSON_IsArray(runs)) {
		ci->errors++;
		return error("%s: the answer has no \"workflow_runs\" array", url);
	}
	cJSON_ArrayForEach(it, runs) {
		const char *status = jstr(it, "status"), *updated = jstr(it, "updated_at");
		const char *conclusion = jstr(it, "conclusion");
		int64_t id, attempt = 1, created;
		struct ci_run *r;

		if (!jint(it, "id", &id) || !status || !updated) {
			error("%s: a workflow run without \"id\", \"status\" or "
			      "\"updated_at\"", url);
			ci->errors++;
			continue;
		}
		if (jtime(it, "created_at", &created) && created < ci->p->since)
			continue;
		if (strcmp(status, "completed")) {
			gl->runs->running++;
			continue;
		}
		jint(it, "run_attempt", &attempt);
		r = run_list_add(gl->runs);
		r->id = id;
		r->updated_at = xstrdup(updated);
		r->conclusion = xstrdup(conclusion ? conclusion : "");
		r->label = attempt > 1 ?
			xstrfmt("github %s %s run %" PRId64 " (attempt %" PRId64 ")",
				ci->p->project, gl->workflow, id, attempt) :
			xstrfmt("github %s %s run %" PRId64, ci->p->project,
				gl->workflow, id);
		r->wall = jspan(it, "run_started_at", "updated_at");
	}
	return 0;
}

static int github_artifacts_page(struct ci *ci, const cJSON *page, const char *url,
				 void *data)
{
	struct ci_run *r = data;
	const cJSON *arts = jget(page, "artifacts"), *it;

	if (!cJSON_IsArray(arts)) {
		ci->errors++;
		return error("%s: the answer has no \"artifacts\" array", url);
	}
	cJSON_ArrayForEach(it, arts) {
		const char *name = jstr(it, "name");
		const cJSON *expired = jget(it, "expired");
		struct ci_artifact *a;
		int64_t id;

		if (!jint(it, "id", &id) || !name) {
			ci->errors++;
			return error("%s: an artifact without \"id\" or \"name\"", url);
		}
		a = run_add_artifact(r, id, name);
		a->url = xstrfmt("%s/repos/%s/actions/artifacts/%" PRId64 "/zip",
				 ci->api, ci->project, id);
		a->label = xstrfmt("%s artifact %" PRId64 " '%s'", r->label, id, name);
		a->expired = cJSON_IsTrue(expired);
		if (!jint(it, "size_in_bytes", &a->size))
			a->size = -1;
	}
	return 0;
}

/*
 * The artifacts of each run (their first pages together, then any further
 * pages one by one). A run whose listing fails is reported and marked.
 */
static void github_list_artifacts(struct ci *ci, struct ci_run **runs, size_t n)
{
	struct http_get **gets = xcalloc(n + 1, sizeof(*gets));

	for (size_t i = 0; i < n; i++) {
		char *url = xstrfmt("%s/repos/%s/actions/runs/%" PRId64
				    "/artifacts?per_page=100", ci->api, ci->project,
				    runs[i]->id);

		gets[i] = api_get(ci, url, CI_DOC_LIMIT);
		free(url);
	}
	run_gets(ci, gets, n);
	for (size_t i = 0; i < n; i++) {
		cJSON *page = api_json(ci, gets[i]);
		char *link, *next = NULL;
		int ret = page ? github_artifacts_page(ci, page, http_get_name(gets[i]),
						       runs[i]) : -1;

		if (!ret && (link = http_get_header(gets[i], "link"))) {
			next = link_next(link);
			free(link);
		}
		if (!ret && next && http_is_url(next))
			ret = list_pages(ci, next, github_artifacts_page, runs[i]);
		if (ret < 0)
			runs[i]->failed = true;
		free(next);
		cJSON_Delete(page);
		http_get_free(gets[i]);
	}
	free(gets);
}

static int github_jobs_page(struct ci_run *r, const cJSON *page)
{
	const cJSON *jobs = jget(page, "jobs"), *it;

	if (!cJSON_IsArray(jobs))
		return -1;
	cJSON_ArrayForEach(it, jobs) {
		const char *name = jstr(it, "name");

		if (!name)
			continue;
		ALLOC_GROW(r->jobs, r->nr_jobs + 1, r->alloc_jobs);
		r->jobs[r->nr_jobs].name = xstrdup(name);
		r->jobs[r->nr_jobs].wall = jspan(it, "started_at", "completed_at");
		r->nr_jobs++;
	}
	return 0;
}

/*
 * One page of a run's jobs; the next page's URL (caller frees) or NULL.
 * A page that cannot be had is a warning: the wall-clock is then the run's.
 */
static char *github_jobs_load_page(struct ci *ci, struct ci_run *r, const char *url)
{
	struct http_get *g = api_get(ci, url, CI_DOC_LIMIT);
	cJSON *page = NULL;
	char *body, *next = NULL;
	size_t len;

	run_gets(ci, &g, 1);
	if (http_get_ok(g)) {
		body = http_get_body(g, &len);
		page = cJSON_ParseWithLength(body, len);
		free(body);
	}
	if (!page || github_jobs_page(r, page) < 0) {
		warning("%s: %s; its wall-clock is the run's", r->label,
			http_get_ok(g) ? "the jobs are not a JSON \"jobs\" array"
				       : http_get_failure(g));
	} else {
		next = github_next_page(g, url);
	}
	cJSON_Delete(page);
	http_get_free(g);
	return next;
}

/* The jobs of a run, every page (a run with a matrix may have hundreds). */
static void github_load_jobs(struct ci *ci, struct ci_run *r)
{
	char *url = xstrfmt("%s/repos/%s/actions/runs/%" PRId64 "/jobs?per_page=100",
			    ci->api, ci->project, r->id);

	r->jobs_loaded = true;
	for (int pages = 0; url && pages < CI_MAX_PAGES && !ci->stopped; pages++) {
		char *next = github_jobs_load_page(ci, r, url);

		free(url);
		url = next;
	}
	free(url);
}

/*
 * The wall-clock of the job that produced a manifest without one: the job
 * named as the artifact, else as the manifest's kind, else the run's only
 * job; failing that, the whole run's.
 */
static double github_wall_clock(struct ci *ci, struct ci_run *r,
				const struct ci_artifact *a, const char *kind)
{
	const char *names[] = { a->name, kind };

	if (!r->jobs_loaded)
		github_load_jobs(ci, r);
	for (size_t k = 0; k < ARRAY_SIZE(names); k++)
		for (size_t i = 0; i < r->nr_jobs; i++)
			if (!strcmp(r->jobs[i].name, names[k]) && !isnan(r->jobs[i].wall))
				return r->jobs[i].wall;
	if (r->nr_jobs == 1 && !isnan(r->jobs[0].wall))
		return r->jobs[0].wall;
	return r->wall;
}

/* ---- GitLab CI --------------------------------------------------------------- */

struct gitlab_list {
	struct run_list *lists; /* one per job name of the pull */
};

/* The job's artifacts archive: artifacts_file, or an "archive" artifact. */
static bool gitlab_archive(const cJSON *job, const char **filename, int64_t *size)
{
	const cJSON *file = jget(job, "artifacts_file"), *arts = jget(job, "artifacts");
	const cJSON *it;

	if (cJSON_IsObject(file) && jstr(file, "filename")) {
		*filename = jstr(file, "filename");
		if (!jint(file, "size", size))
			*size = -1;
		return true;
	}
	if (!cJSON_IsArray(arts))
		return false;
	cJSON_ArrayForEach(it, arts) {
		const char *type = jstr(it, "file_type");

		if (type && !strcmp(type, "archive")) {
			*filename = jstr(it, "filename") ? jstr(it, "filename") : "artifacts.zip";
			if (!jint(it, "size", size))
				*size = -1;
			return true;
		}
	}
	return false;
}

static int gitlab_jobs_page(struct ci *ci, const cJSON *page, const char *url, void *data)
{
	struct gitlab_list *gl = data;
	const struct strlist *names = &ci->p->pipelines;
	const cJSON *it;
	bool any_recent = false;

	if (!cJSON_IsArray(page)) {
		ci->errors++;
		return error("%s: the answer is not an array of jobs", url);
	}
	cJSON_ArrayForEach(it, page) {
		const char *name = jstr(it, "name"), *status = jstr(it, "status");
		const char *file = NULL, *finished = jstr(it, "finished_at");
		int64_t id, created, size, expires;
		struct ci_artifact *a;
		struct ci_run *r;
		size_t k;
		double wall;

		if (!jint(it, "id", &id) || !name || !status ||
		    !jtime(it, "created_at", &created)) {
			error("%s: a job without \"id\", \"name\", \"status\" or "
			      "\"created_at\"", url);
			ci->errors++;
			continue;
		}
		if (created < ci->p->since)
			continue;
		any_recent = true;
		for (k = 0; k < names->nr && strcmp(names->items[k], name); k++)
			;
		if (k == names->nr)
			continue;
		if (strcmp(status, "success") && strcmp(status, "failed")) {
			gl->lists[k].running++;
			continue;
		}
		r = run_list_add(&gl->lists[k]);
		r->id = id;
		r->updated_at = xstrdup(finished ? finished : "");
		r->conclusion = xstrdup(status);
		r->label = xstrfmt("gitlab %s %s job %" PRId64, ci->p->project, name, id);
		wall = cJSON_IsNumber(jget(it, "duration")) ?
		       jget(it, "duration")->valuedouble : NAN;
		r->wall = wall >= 0 ? wall : jspan(it, "started_at", "finished_at");
		if (!gitlab_archive(it, &file, &size))
			continue;
		a = run_add_artifact(r, id, file);
		a->url = xstrfmt("%s/projects/%s/jobs/%" PRId64 "/artifacts", ci->api,
				 ci->project, id);
		a->label = xstrfmt("%s artifacts '%s'", r->label, file);
		a->size = size;
		if (jtime(it, "artifacts_expire_at", &expires) && expires <= ci->ing->now) {
			a->expired = true;
			a->expired_at = xstrdup(jstr(it, "artifacts_expire_at"));
		}
	}
	/* Jobs come newest first: a page with none in the window ends it. */
	return any_recent || !cJSON_GetArraySize(page) ? 0 : 1;
}

/* ---- artifacts: zip archives, spilled to disk, entries streamed ------------- */

/* An entry name that stays in its folder: no '..', no absolute path, no '\'. */
static bool entry_name_safe(const char *name)
{
	if (!*name || *name == '/' || strchr(name, '\\'))
		return false;
	if (((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z')) &&
	    name[1] == ':')
		return false; /* C:foo, a drive */
	return path_is_contained(name);
}

static bool entry_is_manifest(const char *name)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	return !strcmp(base, "tiadash-run.json") ||
	       (ends_with(base, ".tiadash.json") && strlen(base) > 13);
}

/* Entry i's size as the archive declares it, refused over limit; -1 after error(). */
static int entry_size(zip_t *za, zip_int64_t i, size_t limit, const char *label,
		      const char *name, uint64_t *size)
{
	zip_stat_t st;

	zip_stat_init(&st);
	if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) || !(st.valid & ZIP_STAT_SIZE))
		return error("%s: cannot read '%s': %s", label, name, zip_strerror(za));
	if (st.size > limit)
		return error("%s: '%s' is %" PRIu64 " bytes, larger than the %zu-byte "
			     "limit (--max-size, TIADASH_HTTP_MAX_SIZE)", label, name,
			     (uint64_t)st.size, limit);
	*size = st.size;
	return 0;
}

/*
 * An archive entry as an input: inflated as the parser reads it, so what
 * an archive holds never has to fit in memory, and refused past the size
 * its entry declares (which the caps were checked against).
 */
struct zip_stream {
	zip_t *za;
	zip_uint64_t index;
	uint64_t size, done;
	zip_file_t *zf;
};

static int zip_stream_open(void *ctx, const char *name)
{
	struct zip_stream *zs = ctx;

	zs->done = 0;
	zs->zf = zip_fopen_index(zs->za, zs->index, 0);
	if (!zs->zf)
		return error("cannot read '%s': %s", name, zip_strerror(zs->za));
	return 0;
}

static ssize_t zip_stream_read(void *ctx, char *buf, size_t n, const char *name)
{
	struct zip_stream *zs = ctx;
	size_t got = 0;

	while (got < n) {
		zip_int64_t k = zip_fread(zs->zf, buf + got, n - got);

		if (k < 0)
			return error("cannot read '%s': %s", name, zip_file_strerror(zs->zf));
		if (!k)
			break;
		got += (size_t)k;
	}
	zs->done += got;
	if (zs->done > zs->size)
		return error("'%s' inflates to more than the %" PRIu64 " bytes its "
			     "archive entry declares", name, zs->size);
	return (ssize_t)got;
}

static void zip_stream_close(void *ctx)
{
	struct zip_stream *zs = ctx;

	if (zs->zf)
		zip_fclose(zs->zf);
	zs->zf = NULL;
}

static void zip_stream_free(void *ctx)
{
	zip_stream_close(ctx);
	free(ctx);
}

static const struct input_ops zip_stream_ops = {
	zip_stream_open, zip_stream_read, zip_stream_close, zip_stream_free
};

/* Read entry i (a manifest, at most limit bytes) into sb; -1 after an error naming it. */
static int read_entry(zip_t *za, zip_int64_t i, size_t limit, struct strbuf *sb,
		      const char *label, const char *name)
{
	struct zip_stream *zs = xcalloc(1, sizeof(*zs));
	char *what = xstrfmt("%s: %s", label, name);
	struct input in;
	int ret;

	zs->za = za;
	zs->index = (zip_uint64_t)i;
	input_from_stream(&in, what, &zip_stream_ops, zs);
	ret = entry_size(za, i, limit, label, name, &zs->size);
	if (!ret)
		ret = input_read_all(&in, sb, limit);
	input_release(&in);
	free(what);
	return ret;
}

/* What a manifest's references resolve against. */
struct zip_refs {
	zip_t *za;
	const char *label; /* the artifact's: inputs are named "LABEL: ENTRY" */
	const char *what;  /* the manifest's name, for messages */
	struct strbuf dir; /* its folder in the archive: "" or "a/b/" */
	size_t limit;
	uint64_t source_limit, declared; /* what its files may inflate to, and do */
};

/* Open a manifest's reference from the archive, below the manifest's folder. */
static int zip_ref(struct input *in, const char *ref, void *data)
{
	struct zip_refs *zr = data;
	struct strbuf path = STRBUF_INIT;
	struct zip_stream *zs;
	uint64_t size;
	zip_int64_t i;
	char *name;
	int ret = -1;

	if (!entry_name_safe(ref)) {
		error("%s: '%s' leaves the manifest's folder in the archive", zr->what, ref);
		goto out;
	}
	strbuf_add(&path, zr->dir.buf, zr->dir.len);
	for (const char *seg = ref; *seg; ) {
		size_t n = strcspn(seg, "/");

		if (n && !(n == 1 && *seg == '.')) {
			if (path.len > zr->dir.len)
				strbuf_addch(&path, '/');
			strbuf_add(&path, seg, n);
		}
		seg += n + (seg[n] == '/');
	}
	i = zip_name_locate(zr->za, path.buf, ZIP_FL_ENC_RAW);
	if (i < 0) {
		error("%s: '%s' is not in the archive", zr->what, path.buf);
		goto out;
	}
	if (entry_size(zr->za, i, zr->limit, zr->label, path.buf, &size) < 0)
		goto out;
	if (size > zr->source_limit - zr->declared) {
		error("%s: its files inflate to more than the %" PRIu64 "-byte limit "
		      "(--max-source-size, TIADASH_HTTP_MAX_SOURCE_SIZE)", zr->what,
		      zr->source_limit);
		goto out;
	}
	zr->declared += size;
	zs = xcalloc(1, sizeof(*zs));
	zs->za = zr->za;
	zs->index = (zip_uint64_t)i;
	zs->size = size;
	name = xstrfmt("%s: %s", zr->label, path.buf);
	input_from_stream(in, name, &zip_stream_ops, zs);
	free(name);
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/*
 * Ingest one manifest of an archive as a run. Its source is named by the
 * artifact's URL and the entry (URL#ENTRY); messages name the run, the
 * artifact and the entry. 0, or -1 (reported, counted).
 */
static int zip_manifest(struct ci *ci, struct ci_run *r, struct ci_artifact *a,
			zip_t *za, zip_int64_t index, const char *entry)
{
	struct ingest *ing = ci->ing;
	struct run_source rs;
	struct strbuf text = STRBUF_INIT;
	char *what = xstrfmt("%s: %s", a->label, entry);
	struct zip_refs zr = { za, a->label, what, STRBUF_INIT, ci->max_size,
			       ci->max_source, 0 };
	const char *slash = strrchr(entry, '/');
	int ret;

	run_source_init(&rs);
	rs.uri = xstrfmt("%s#%s", http_get_name(a->get), entry);
	if (slash)
		strbuf_add(&zr.dir, entry, (size_t)(slash - entry) + 1);
	ret = read_entry(za, index, ci->max_size < CI_DOC_LIMIT ? ci->max_size
							       : CI_DOC_LIMIT,
			 &text, a->label, entry);
	if (!ret) {
		run_source_set_head(&rs, text.buf, text.len);
		ret = manifest_parse(text.buf, text.len, what, &rs.m);
	}
	if (!ret && isnan(rs.m.wall_clock_s))
		rs.m.wall_clock_s = ci->p->provider == CI_GITHUB ?
			github_wall_clock(ci, r, a, run_kind_name(rs.m.kind)) : r->wall;
	if (!ret)
		ret = run_source_open_refs_with(&rs, zip_ref, &zr);
	if (!ret) {
		ret = ingest_run(ing, &rs);
	} else {
		ing->stats.sources++;
		ing->stats.failed++;
	}
	if (ret < 0) {
		ci->errors++;
		r->failed = true;
	}
	strbuf_release(&text);
	strbuf_release(&zr.dir);
	run_source_release(&rs);
	free(what);
	return ret;
}

/*
 * Every manifest of an artifact's zip, in name order. Returns how many
 * there were, or -1 when the archive is refused: unreadable, or an entry
 * that leaves its folder (zip-slip: '..', an absolute name, a backslash),
 * which makes nothing in it trustworthy.
 */
static int zip_ingest(struct ci *ci, struct ci_run *r, struct ci_artifact *a,
		      const struct spill_body *body)
{
	struct strlist manifests = STRLIST_INIT;
	zip_error_t zerr;
	zip_source_t *src = NULL;
	zip_t *za = NULL;
	zip_int64_t n;
	uint64_t off = 0;
	FILE *f = body->len ? spill_body_stream(body, &off) : NULL;
	int found = 0;

	zip_error_init(&zerr);
	if (!body->len)
		zip_error_set(&zerr, ZIP_ER_NOZIP, 0);
	else if (!f)
		zip_error_set(&zerr, ZIP_ER_READ, errno);
	else
		src = zip_source_filep_create(f, off, (zip_int64_t)body->len, &zerr);
	if (f && !src)
		fclose(f);
	za = src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &zerr) : NULL;
	if (!za) {
		artifact_error(ci, r, a, "not a readable zip archive: %s",
			       zip_error_strerror(&zerr));
		zip_source_free(src);
		zip_error_fini(&zerr);
		return -1;
	}
	zip_error_fini(&zerr);
	n = zip_get_num_entries(za, 0);
	for (zip_int64_t i = 0; i < n && found >= 0; i++) {
		const char *name = zip_get_name(za, (zip_uint64_t)i, ZIP_FL_ENC_RAW);

		if (!name || !entry_name_safe(name)) {
			artifact_error(ci, r, a, "refusing the archive: entry '%s' leaves "
				       "its folder (an absolute name, '..' or a backslash)",
				       name ? name : "?");
			found = -1;
		} else if (entry_is_manifest(name)) {
			strlist_push(&manifests, name);
		}
	}
	if (found >= 0) {
		strlist_sort(&manifests);
		for (size_t i = 0; i < manifests.nr; i++) {
			zip_int64_t k = zip_name_locate(za, manifests.items[i], ZIP_FL_ENC_RAW);

			zip_manifest(ci, r, a, za, k, manifests.items[i]);
			found++;
		}
	}
	strlist_release(&manifests);
	zip_discard(za);
	return found;
}

/* ---- one pull of one pipeline ------------------------------------------------ */

/* Download the artifacts of runs together (what is known to fail is not asked). */
static void download(struct ci *ci, struct ci_run **runs, size_t n)
{
	struct http_get **gets = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < runs[i]->nr_arts; k++) {
			struct ci_artifact *a = &runs[i]->arts[k];
			struct spill *sp;

			if (a->expired || (a->size >= 0 && (uint64_t)a->size > ci->max_size))
				continue;
			/* A spill of its own: the archive is one range in it. */
			sp = spill_new();
			a->get = api_get(ci, a->url, ci->max_size);
			http_get_spill(a->get, sp);
			spill_unref(sp);
			ALLOC_GROW(gets, nr + 1, alloc);
			gets[nr++] = a->get;
		}
	}
	run_gets(ci, gets, nr);
	free(gets);
}

/* What became of one artifact; returns the manifests it held (-1: a problem). */
static int settle_artifact(struct ci *ci, struct ci_run *r, struct ci_artifact *a)
{
	long status;
	int found;

	if (a->expired && a->expired_at)
		return artifact_error(ci, r, a, "expired at %s (artifacts:expire_in)",
				      a->expired_at), -1;
	if (a->expired)
		return artifact_error(ci, r, a, "expired: its retention period is "
				      "over, it can no longer be downloaded"), -1;
	if (a->size >= 0 && (uint64_t)a->size > ci->max_size)
		return artifact_error(ci, r, a, "%" PRId64 " bytes, larger than the "
				      "%zu-byte limit (--max-size, TIADASH_HTTP_MAX_SIZE)",
				      a->size, ci->max_size), -1;
	if (!a->get)
		return -1;
	if (!http_get_ok(a->get)) {
		status = http_get_status(a->get);
		if (ci->stopped && !status) {
			r->failed = true;
			return -1;
		}
		if (status == 410 || (status == 404 && ci->p->provider == CI_GITLAB &&
				      ci->has_token))
			artifact_error(ci, r, a, "expired or deleted (HTTP %ld)", status);
		else {
			char *why = get_failure(ci, a->get);

			artifact_error(ci, r, a, "%s", why);
			free(why);
		}
		return -1;
	}
	found = zip_ingest(ci, r, a, http_get_spilled(a->get));
	http_get_free(a->get);
	a->get = NULL;
	return found;
}

/* Ingest what a run's artifacts hold; remember the run when all of it landed. */
static void settle_run(struct ci *ci, const char *pipeline, struct ci_run *r)
{
	struct strbuf names = STRBUF_INIT;
	int manifests = 0;

	for (size_t k = 0; k < r->nr_arts; k++) {
		int found = settle_artifact(ci, r, &r->arts[k]);

		if (found > 0)
			manifests += found;
		else if (!found)
			strbuf_addf(&names, "%s'%s'", names.len ? ", " : "",
				    r->arts[k].name);
	}
	if (ci->stopped && r->failed && !manifests) {
		ci->not_pulled++;
	} else if (!r->failed && !manifests && !r->nr_arts &&
		   (!strcmp(r->conclusion, "cancelled") ||
		    !strcmp(r->conclusion, "skipped"))) {
		note("%s: %s, without artifacts", r->label, r->conclusion);
	} else if (!r->failed && !manifests) {
		if (names.len)
			error("%s: no tiadash.run.v1 manifest in its artifacts (%s)",
			      r->label, names.buf);
		else
			error("%s: no artifacts, so no tiadash.run.v1 manifest", r->label);
		ci->ing->stats.sources++;
		ci->ing->stats.failed++;
		ci->errors++;
		r->failed = true;
	}
	if (!r->failed && remember(ci, pipeline, r, manifests) < 0)
		ci->errors++;
	strbuf_release(&names);
}

/*
 * A listing read page by page repeats a run when new runs push it onto the
 * next page while it is read: each run is pulled once (the first listed),
 * with one warning for the listing.
 */
static void drop_repeated_runs(struct ci *ci, const char *pipeline, struct run_list *l)
{
	struct strmap ids = { 0 };
	size_t kept = 0, dropped = 0;
	int64_t first = 0;

	for (size_t i = 0; i < l->nr; i++) {
		bool added;

		strmap_intern(&ids, (const char *)&l->v[i].id, sizeof(l->v[i].id), 0, &added);
		if (added) {
			l->v[kept++] = l->v[i];
			continue;
		}
		if (!dropped++)
			first = l->v[i].id;
		run_release(&l->v[i]);
	}
	l->nr = kept;
	strmap_clear(&ids);
	if (dropped)
		warning("%s %s %s: the listing names %zu %s more than once (%s %" PRId64
			"%s): each is pulled once", ci->provider, ci->p->project, pipeline,
			dropped, dropped == 1 ? "entry" : "entries",
			ci->p->provider == CI_GITHUB ? "run" : "job", first,
			dropped > 1 ? " and others" : "");
}

/*
 * The runs of one pipeline in the window (newest first, as listed): pull
 * those not pulled before, or changed since, oldest first, a chunk of runs
 * at a time (their artifacts download together).
 */
static void pull_runs(struct ci *ci, const char *pipeline, struct run_list *l)
{
	struct ci_run **todo = xcalloc(l->nr + 1, sizeof(*todo));
	const char *what = ci->p->provider == CI_GITHUB ? "run" : "job";
	int64_t newest = cursor_newest(ci, pipeline);
	size_t nr = 0, before = 0;
	char *since = format_ms(ci->p->since);
	struct strbuf sb = STRBUF_INIT;

	drop_repeated_runs(ci, pipeline, l);
	for (size_t i = l->nr; i-- > 0; ) {
		if (seen_before(ci, pipeline, &l->v[i]))
			before++;
		else
			todo[nr++] = &l->v[i];
	}
	strbuf_addf(&sb, "%s %s %s: %zu %s%s since %s, %zu to pull, %zu pulled before",
		    ci->provider, ci->p->project, pipeline, l->nr, what,
		    l->nr == 1 ? "" : "s", since, nr, before);
	if (newest >= 0)
		strbuf_addf(&sb, " (newest %s %" PRId64 ")", what, newest);
	if (l->running)
		strbuf_addf(&sb, ", %d still running", l->running);
	note("%s", sb.buf);
	for (size_t i = 0; i < nr; i += ci->chunk) {
		size_t n = nr - i < ci->chunk ? nr - i : ci->chunk;

		if (ci->stopped) {
			ci->not_pulled += (int)n;
			continue;
		}
		if (ci->p->provider == CI_GITHUB)
			github_list_artifacts(ci, todo + i, n);
		download(ci, todo + i, n);
		for (size_t k = 0; k < n; k++)
			settle_run(ci, pipeline, todo[i + k]);
	}
	strbuf_release(&sb);
	free(since);
	free(todo);
}

static void pull_github(struct ci *ci)
{
	const struct strlist *wfs = &ci->p->pipelines;
	char *since = format_ms(ci->p->since);

	for (size_t i = 0; i < wfs->nr && !ci->stopped; i++) {
		struct run_list runs = { 0 };
		struct github_list gl = { wfs->items[i], &runs };
		char *wf = http_pct_encode(wfs->items[i], NULL);
		char *url = xstrfmt("%s/repos/%s/actions/workflows/%s/runs?created=%%3E%%3D%s"
				    "&per_page=100", ci->api, ci->project, wf, since);

		if (list_pages(ci, url, github_runs_page, &gl) == 0)
			pull_runs(ci, wfs->items[i], &runs);
		run_list_release(&runs);
		free(url);
		free(wf);
	}
	free(since);
}

static void pull_gitlab(struct ci *ci)
{
	const struct strlist *jobs = &ci->p->pipelines;
	struct gitlab_list gl = { xcalloc(jobs->nr + 1, sizeof(*gl.lists)) };
	char *url = xstrfmt("%s/projects/%s/jobs?scope%%5B%%5D=success&scope%%5B%%5D=failed"
			    "&per_page=100", ci->api, ci->project);

	if (list_pages(ci, url, gitlab_jobs_page, &gl) == 0)
		for (size_t i = 0; i < jobs->nr; i++)
			pull_runs(ci, jobs->items[i], &gl.lists[i]);
	for (size_t i = 0; i < jobs->nr; i++)
		run_list_release(&gl.lists[i]);
	free(gl.lists);
	free(url);
}

/* ---- setting up ------------------------------------------------------------ */

static bool github_name_ok(const char *s, size_t n)
{
	if (!n || (n == 1 && *s == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr("-._", s[i])))
			return false;
	return true;
}

/* The project as a path segment of the API's URLs, or NULL after error(). */
static char *project_segment(const struct ci_pull *p)
{
	const char *slash = strchr(p->project, '/');

	if (p->provider == CI_GITHUB) {
		if (!slash || !github_name_ok(p->project, (size_t)(slash - p->project)) ||
		    !github_name_ok(slash + 1, strlen(slash + 1))) {
			error("--github '%s': expected OWNER/REPO", p->project);
			return NULL;
		}
		return xstrdup(p->project);
	}
	if (!*p->project || *p->project == '/' || ends_with(p->project, "/") ||
	    strstr(p->project, "//") || !path_is_contained(p->project)) {
		error("--gitlab '%s': expected a project path (group/project) or id",
		      p->project);
		return NULL;
	}
	return http_pct_encode(p->project, NULL);
}

/* The token and its header line (NULL: none); -1 after error(). */
static int token_auth(const struct ci_pull *p, char **auth, const char **name)
{
	const char *names[] = { p->provider == CI_GITHUB ? "GITHUB_TOKEN" : "GITLAB_TOKEN",
				"TIADASH_TOKEN" };

	*auth = NULL;
	*name = names[0];
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *v = getenv(names[i]);

		if (!v || !*v)
			continue;
		*name = names[i];
		if (strpbrk(v, "\r\n"))
			return error("%s holds a line break: not sending it", names[i]);
		*auth = p->provider == CI_GITHUB ? xstrfmt("Authorization: Bearer %s", v)
						 : xstrfmt("PRIVATE-TOKEN: %s", v);
		return 0;
	}
	return 0;
}

static char *api_base(const struct ci_pull *p)
{
	const char *env = p->provider == CI_GITHUB ? "TIADASH_GITHUB_API" : "TIADASH_GITLAB_API";
	const char *url = p->api_url;
	char *base;

	if (!url)
		url = getenv(env) && *getenv(env) ? getenv(env) : NULL;
	if (!url)
		url = p->provider == CI_GITHUB ? GITHUB_API : GITLAB_API;
	if (!http_is_url(url) || strpbrk(url, "?# \t\r\n")) {
		error("%s '%s' is not an http or https URL", p->api_url ? "--api-url" : env,
		      url);
		return NULL;
	}
	if (memchr(strstr(url, "://") + 3, '@', strcspn(strstr(url, "://") + 3, "/"))) {
		/* They would end up in messages and in the store: the token does it. */
		error("%s: a user name or password in the API URL is not used; give "
		      "the token in %s", p->api_url ? "--api-url" : env,
		      p->provider == CI_GITHUB ? "GITHUB_TOKEN" : "GITLAB_TOKEN");
		return NULL;
	}
	base = xstrdup(url);
	while (ends_with(base, "/"))
		base[strlen(base) - 1] = '\0';
	return base;
}

int ci_ingest(struct ingest *ing, const struct ci_pull *p)
{
	static const char *const github_headers[] = {
		"Accept: application/vnd.github+json",
		"X-GitHub-Api-Version: 2022-11-28",
		NULL,
	};
	struct ci ci = { .ing = ing, .p = p };
	struct http_options opt;
	char *auth = NULL;
	int ret = -1;

	ci.provider = p->provider == CI_GITHUB ? "github" : "gitlab";
	if (ing->http_opts)
		opt = *ing->http_opts;
	else if (http_options_init(&opt) < 0)
		return -1;
	ci.max_size = opt.max_size;
	ci.max_source = opt.max_source;
	ci.chunk = (size_t)opt.parallel;
	ci.api = api_base(p);
	ci.project = ci.api ? project_segment(p) : NULL;
	if (ci.project && token_auth(p, &auth, &ci.token_name) == 0) {
		ci.has_token = auth != NULL;
		ci.http = http_client_new(&opt, ci.token_name, auth,
					  p->provider == CI_GITHUB ? github_headers : NULL,
					  ing->progress);
	}
	free(auth);
	if (ci.http) {
		if (p->provider == CI_GITHUB)
			pull_github(&ci);
		else
			pull_gitlab(&ci);
		if (ci.stopped) {
			error("%s %s: stopped: %s; %d run%s not pulled (the next pull "
			      "tries %s)", ci.provider, p->project,
			      http_client_rate_limited(ci.http), ci.not_pulled,
			      ci.not_pulled == 1 ? "" : "s",
			      ci.not_pulled == 1 ? "it" : "them");
			ci.errors++;
		}
		http_client_free(ci.http);
		ret = ci.errors ? -1 : 0;
	}
	free(ci.api);
	free(ci.project);
	return ret;
}
