/*
 * HTTP(S) sources: a libcurl multi fetcher (retries, size cap, hand-followed
 * redirects, conditional GET) and ingesting indexes and manifests by URL.
 */
#include "core/tiadash.h"
#include "ingest/http.h"
#include "core/timeutil.h"
#include "ingest/run_data.h"

#include <curl/curl.h>
#include <pthread.h>
#include <strings.h>
#include <time.h>

/* Indexes and manifests are small; anything bigger is not one. */
#define HTTP_DOC_LIMIT ((size_t)64 << 20)
/* Indexes may list indexes; this deep at most. */
#define HTTP_INDEX_DEPTH 8
/*
 * Files queued ahead of the run being ingested: keeps the transfers busy
 * while runs ingest, and bounds the memory a week of artifacts takes.
 */
#define HTTP_AHEAD_FILES 256

#define FREE_NULL(p) do { free(p); (p) = NULL; } while (0)

/* ---- options ---------------------------------------------------------- */

bool http_parse_seconds(const char *s, double *out)
{
	double v;

	if (!parse_double(s, &v) || !(v > 0) || v > 1e6)
		return false;
	*out = v;
	return true;
}

bool http_parse_size(const char *s, size_t *out)
{
	static const struct { const char *unit; int shift; } units[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kb", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mb", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gb", 30 }, { "gib", 30 },
	};
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !v)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].unit))
			continue;
		if (v > (unsigned long long)SIZE_MAX >> units[i].shift)
			return false;
		*out = (size_t)(v << units[i].shift);
		return true;
	}
	return false;
}

static int env_seconds(const char *name, double *out)
{
	const char *v = getenv(name);

	if (v && *v && !http_parse_seconds(v, out))
		return error("%s='%s' is not a positive number of seconds", name, v);
	return 0;
}

static int env_count(const char *name, int min, int max, int *out)
{
	const char *v = getenv(name);
	int64_t n;

	if (!v || !*v)
		return 0;
	if (!parse_int64(v, &n) || n < min || n > max)
		return error("%s='%s' is not a whole number from %d to %d", name, v,
			     min, max);
	*out = (int)n;
	return 0;
}

int http_options_init(struct http_options *o)
{
	const char *size = getenv("TIADASH_HTTP_MAX_SIZE");
	const char *source = getenv("TIADASH_HTTP_MAX_SOURCE_SIZE");
	size_t max_source;

	o->connect_timeout = 10;
	o->timeout = 300;
	o->max_size = (size_t)512 << 20;
	o->max_source = (uint64_t)2 << 30;
	o->retries = 3;
	o->backoff = 1;
	o->max_wait = 60;
	o->parallel = 8;
	o->ca_bundle = getenv("TIADASH_HTTP_CA_BUNDLE");
	if (o->ca_bundle && !*o->ca_bundle)
		o->ca_bundle = NULL;
	if (size && *size && !http_parse_size(size, &o->max_size))
		return error("TIADASH_HTTP_MAX_SIZE='%s' is not a size (bytes, or "
			     "a number with K, M or G)", size);
	if (source && *source && !http_parse_size(source, &max_source))
		return error("TIADASH_HTTP_MAX_SOURCE_SIZE='%s' is not a size (bytes, "
			     "or a number with K, M or G)", source);
	if (source && *source)
		o->max_source = max_source;
	if (env_seconds("TIADASH_HTTP_CONNECT_TIMEOUT", &o->connect_timeout) < 0 ||
	    env_seconds("TIADASH_HTTP_TIMEOUT", &o->timeout) < 0 ||
	    env_seconds("TIADASH_HTTP_BACKOFF", &o->backoff) < 0 ||
	    env_seconds("TIADASH_HTTP_MAX_WAIT", &o->max_wait) < 0 ||
	    env_count("TIADASH_HTTP_RETRIES", 0, 20, &o->retries) < 0 ||
	    env_count("TIADASH_HTTP_PARALLEL", 1, 64, &o->parallel) < 0)
		return -1;
	return 0;
}

/* ---- URLs --------------------------------------------------------------- */

bool http_is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

static void lower_ascii(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* A curl URL handle for url (absolute), or NULL when it does not parse. */
static CURLU *url_parse(const char *url)
{
	CURLU *h = curl_url();

	if (!h)
		die("out of memory");
	if (curl_url_set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME)) {
		curl_url_cleanup(h);
		return NULL;
	}
	return h;
}

static char *url_part(CURLU *h, CURLUPart part, unsigned flags)
{
	char *v = NULL, *copy;

	if (curl_url_get(h, part, &v, flags) || !v)
		return NULL;
	copy = xstrdup(v);
	curl_free(v);
	return copy;
}

/* "scheme://host:port" of a parsed URL, lower-case, default port filled in. */
static char *handle_origin(CURLU *h)
{
	char *scheme = url_part(h, CURLUPART_SCHEME, 0);
	char *host = url_part(h, CURLUPART_HOST, 0);
	char *port = url_part(h, CURLUPART_PORT, CURLU_DEFAULT_PORT);
	char *out = NULL;

	if (scheme && host && port) {
		out = xstrfmt("%s://%s:%s", scheme, host, port);
		lower_ascii(out);
	}
	free(scheme);
	free(host);
	free(port);
	return out;
}

/* The URL without its fragment, normalised by curl; NULL when not http(s). */
static char *url_normalise(const char *url)
{
	CURLU *h = url_parse(url);
	char *scheme, *out = NULL;

	if (!h)
		return NULL;
	scheme = url_part(h, CURLUPART_SCHEME, 0);
	if (scheme && (!strcmp(scheme, "http") || !strcmp(scheme, "https"))) {
		curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
		out = url_part(h, CURLUPART_URL, 0);
	}
	free(scheme);
	curl_url_cleanup(h);
	return out;
}

/* "scheme://host:port" of url, lower-case, with the default port filled in. */
static char *url_origin(const char *url)
{
	CURLU *h = url_parse(url);
	char *out = h ? handle_origin(h) : NULL;

	curl_url_cleanup(h);
	return out;
}

static bool same_origin(const char *url, const char *origin)
{
	char *o = origin ? url_origin(url) : NULL;
	bool same = o && !strcmp(o, origin);

	free(o);
	return same;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decode s once into sb. */
static void percent_decode(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		int hi, lo;

		if (*s == '%' && (hi = hexval(s[1])) >= 0 && (lo = hexval(s[2])) >= 0) {
			strbuf_addch(sb, hi << 4 | lo);
			s += 2;
		} else {
			strbuf_addch(sb, *s);
		}
	}
}

/*
 * Is a relative reference safe as a path, as written and at every stage of
 * percent-decoding (a server that decodes `%2e%2e`, or `%252e%252e` twice,
 * must not be walked out of the directory either)? No NUL or backslash.
 */
static bool ref_is_contained(const char *ref)
{
	struct strbuf cur = STRBUF_INIT, next = STRBUF_INIT;
	bool ok = path_is_contained(ref);

	strbuf_addstr(&cur, ref);
	while (ok) {
		strbuf_reset(&next);
		percent_decode(&next, cur.buf);
		ok = strlen(next.buf) == next.len && !strchr(next.buf, '\\') &&
		     path_is_contained(next.buf);
		if (next.len == cur.len && !memcmp(next.buf, cur.buf, cur.len))
			break;
		strbuf_reset(&cur);
		strbuf_add(&cur, next.buf, next.len);
	}
	strbuf_release(&cur);
	strbuf_release(&next);
	return ok;
}

char *http_pct_encode(const char *s, const char *keep)
{
	static const char hex[] = "0123456789ABCDEF";
	struct strbuf sb = STRBUF_INIT;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p) ||
		    (keep && strchr(keep, *p))) {
			strbuf_addch(&sb, *p);
		} else {
			strbuf_addch(&sb, '%');
			strbuf_addch(&sb, hex[*p >> 4]);
			strbuf_addch(&sb, hex[*p & 15]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* Remove dot segments (RFC 3986 5.2.4) from an absolute path, in place. */
static void remove_dot_segments(struct strbuf *path)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = path->buf;

	while (*p) {
		const char *end = strchr(p + 1, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		/* p points at '/', n covers "/segment". */
		if (n == 2 && p[1] == '.') {
			if (!end)
				strbuf_addch(&out, '/');
		} else if (n == 3 && p[1] == '.' && p[2] == '.') {
			char *slash = memrchr(out.buf, '/', out.len);

			strbuf_setlen(&out, slash ? (size_t)(slash - out.buf) : 0);
			if (!end)
				strbuf_addch(&out, '/');
		} else {
			strbuf_add(&out, p, n);
		}
		p += n;
	}
	strbuf_release(path);
	*path = out;
}

/*
 * A raw URL path percent-decoded once, backslashes as slashes and dot
 * segments removed: what a lenient server could map it to.
 */
static char *path_effective(const char *raw)
{
	struct strbuf dec = STRBUF_INIT;

	percent_decode(&dec, raw);
	for (size_t i = 0; i < dec.len; i++)
		if (dec.buf[i] == '\\')
			dec.buf[i] = '/';
	remove_dot_segments(&dec);
	return strbuf_detach(&dec, NULL);
}

/* The URL without user name and password: for messages, the store and keys. */
static char *url_display(const char *url)
{
	CURLU *h;
	char *out;

	if (!strchr(url, '@'))
		return xstrdup(url); /* no user information: as it is */
	h = url_parse(url);
	if (!h)
		return xstrdup(url);
	curl_url_set(h, CURLUPART_USER, NULL, 0);
	curl_url_set(h, CURLUPART_PASSWORD, NULL, 0);
	out = url_part(h, CURLUPART_URL, 0);
	curl_url_cleanup(h);
	return out ? out : xstrdup(url);
}

/* A manifest's or an index's URL, parsed once, to resolve references against. */
struct url_base {
	char *prefix;  /* the URL up to its directory's last '/' (no query) */
	char *dir_raw; /* the path of that directory, as in the URL */
	char *dir;     /* its effective path (path_effective) */
};

static int url_base_init(struct url_base *b, const char *url)
{
	CURLU *h = url_parse(url);
	char *path, *full = NULL;

	memset(b, 0, sizeof(*b));
	if (!h)
		return -1;
	curl_url_set(h, CURLUPART_QUERY, NULL, 0);
	curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
	path = url_part(h, CURLUPART_PATH, 0);
	full = url_part(h, CURLUPART_URL, 0);
	curl_url_cleanup(h);
	/* With query and fragment gone, the URL ends with its path. */
	if (path && full && *path == '/' && ends_with(full, path)) {
		size_t dir_len = (size_t)(strrchr(path, '/') - path) + 1;
		size_t cut = strlen(full) - strlen(path) + dir_len;

		b->prefix = xstrndup(full, cut);
		b->dir_raw = xstrndup(path, dir_len);
		b->dir = path_effective(b->dir_raw);
	}
	free(path);
	free(full);
	return b->prefix ? 0 : -1;
}

static void url_base_release(struct url_base *b)
{
	free(b->prefix);
	free(b->dir_raw);
	free(b->dir);
	memset(b, 0, sizeof(*b));
}

/*
 * Resolve a relative path reference against base: percent-encode it as a
 * path, drop its "." and empty segments, append it to the directory, then
 * check that the effective path of the result (decoded, dot segments
 * removed) is still below the directory's, so no encoding walks out of it.
 * Returns the URL (caller frees) or NULL.
 */
static char *url_base_resolve(const struct url_base *b, const char *ref)
{
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT;
	char *enc, *eff, *url = NULL;
	const char *seg;
	bool ok;

	if (!b->prefix || !ref_is_contained(ref))
		return NULL;
	/*
	 * A reference is a path, as on disk: '%', '?', '#' and spaces name
	 * files, not URL parts.
	 */
	enc = http_pct_encode(ref, "/");
	for (seg = enc; *seg; ) {
		const char *end = strchrnul(seg, '/');
		size_t n = (size_t)(end - seg);

		if (n && !(n == 1 && *seg == '.')) {
			if (rel.len)
				strbuf_addch(&rel, '/');
			strbuf_add(&rel, seg, n);
		}
		seg = *end ? end + 1 : end;
	}
	strbuf_addstr(&path, b->dir_raw);
	strbuf_add(&path, rel.buf, rel.len);
	eff = path_effective(path.buf);
	ok = rel.len && starts_with(eff, b->dir) && strlen(eff) > strlen(b->dir);
	if (ok)
		url = xstrfmt("%s%s", b->prefix, rel.buf);
	free(enc);
	free(eff);
	strbuf_release(&rel);
	strbuf_release(&path);
	return url;
}

/* ---- the fetcher ------------------------------------------------------ */

/*
 * The fetcher: gets wait in a queue, run c->opt.parallel at a time on one
 * curl multi handle (which keeps connections alive between them), and a
 * retry that waits does not hold a slot. Callers add gets and step the
 * fetcher (or wait for some gets), so downloads go on while runs ingest.
 */
struct http_client {
	CURLM *multi;
	struct http_options opt;
	char *auth;          /* "Authorization: Bearer ...", or NULL */
	char **api_headers;  /* more lines for the trusted origin (NULL-terminated) */
	const char *token_name; /* where the token came from, for messages */
	int64_t hold_until;  /* monotonic ms: a rate limit holds every get till then */
	char *halted;        /* a rate limit lasts longer than max_wait: why */
	/*
	 * Not started yet, in two queues: [0] the files of queued runs, which
	 * go first (the runs wait for them), [1] indexes and manifests.
	 */
	struct get_fifo {
		struct http_get **v; /* waiting: v[next..nr) */
		size_t next, nr, alloc;
	} queue[2];
	struct http_get **waiting; /* retries waiting for their time */
	size_t nr_waiting, alloc_waiting;
	size_t running;
	CURL **idle;               /* finished handles, reset for the next get */
	size_t nr_idle, alloc_idle;
	bool progress;
	size_t added, done;  /* for the progress line */
	int64_t progress_at; /* monotonic ms of the last progress line */
};

enum get_state { GET_IDLE, GET_WAITING, GET_RUNNING, GET_DONE };
enum get_result { GET_NONE, GET_OK, GET_NOT_MODIFIED, GET_FAILED };

/* One GET, followed through redirects and retries to an outcome. */
struct http_get {
	/* The request: set by http_get_init and the caller; all owned. */
	char *url;            /* what to fetch (may carry user:password) */
	char *name;           /* url without credentials: messages, keys */
	char *trusted;        /* the origin TIADASH_TOKEN may go to, or NULL */
	char *if_none_match;  /* validators to send, or NULL */
	char *if_modified_since;
	size_t limit;         /* bytes of body at most */
	struct spill *spill;  /* the body goes there (a reference), or NULL: memory */
	struct http_budget *budget; /* shared by the files of one source, or NULL */

	/* The outcome, once state is GET_DONE. */
	enum get_result result;
	long status;
	struct strbuf body;   /* 2xx only, when not spilled */
	struct spill_body spilled; /* the same, spilled */
	char *final_url;      /* after redirects */
	char *etag, *last_modified; /* the answer's validators, or NULL */
	char *message;        /* why it failed */

	/* Transfer state. */
	enum get_state state;
	CURL *easy;
	struct curl_slist *headers;
	char *cur_url;
	char *retry_after;
	int attempts, redirects;
	int64_t not_before;   /* monotonic ms before which a retry waits */
	bool over_limit, over_budget, token_withheld;
	int spill_errno;      /* writing the spill failed */
	uint64_t counted;     /* bytes of this attempt counted in the budget */
	bool rate_limits;     /* answer 403/429 rate limits by waiting (CI APIs) */
	struct strbuf answer; /* the header lines of the last answer */
	char errbuf[CURL_ERROR_SIZE];
};

static void http_get_init(struct http_get *g, const char *url, const char *trusted,
			  size_t limit)
{
	memset(g, 0, sizeof(*g));
	g->url = xstrdup(url);
	g->name = url_display(url);
	g->trusted = trusted ? xstrdup(trusted) : NULL;
	g->limit = limit;
	g->body = (struct strbuf)STRBUF_INIT;
	g->answer = (struct strbuf)STRBUF_INIT;
}

static void http_get_release(struct http_get *g)
{
	free(g->url);
	free(g->name);
	free(g->trusted);
	free(g->if_none_match);
	free(g->if_modified_since);
	strbuf_release(&g->body);
	free(g->final_url);
	free(g->etag);
	free(g->last_modified);
	free(g->message);
	free(g->cur_url);
	free(g->retry_after);
	strbuf_release(&g->answer);
	spill_body_release(&g->spilled);
	spill_unref(g->spill);
	memset(g, 0, sizeof(*g));
}

/* Drop what an attempt received, so the next starts from nothing. */
static void body_reset(struct http_get *g)
{
	strbuf_reset(&g->body);
	spill_body_release(&g->spilled);
	if (g->budget)
		g->budget->used -= g->counted;
	g->counted = 0;
}

/* Forget the outcome, so the get can run again (unconditionally or not). */
static void http_get_rearm(struct http_get *g)
{
	body_reset(g);
	strbuf_release(&g->body);
	FREE_NULL(g->final_url);
	FREE_NULL(g->etag);
	FREE_NULL(g->last_modified);
	FREE_NULL(g->message);
	FREE_NULL(g->cur_url);
	g->state = GET_IDLE;
	g->result = GET_NONE;
	g->status = 0;
	g->attempts = g->redirects = 0;
	g->token_withheld = false;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Keep a header's value (trimmed) when the line is "name: value". */
static void grab_header(const char *line, size_t len, const char *name, char **out)
{
	size_t n = strlen(name);

	if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
		return;
	free(*out);
	*out = xstrdup_trimmed(line + n + 1, len - n - 1);
}

static size_t on_header(char *buf, size_t size, size_t nitems, void *data)
{
	struct http_get *g = data;
	size_t len = size * nitems;

	if (len >= 5 && !strncmp(buf, "HTTP/", 5)) {
		/* A new response (after a 100 Continue, say): forget the last. */
		FREE_NULL(g->etag);
		FREE_NULL(g->last_modified);
		FREE_NULL(g->retry_after);
		strbuf_reset(&g->answer);
		return len;
	}
	strbuf_add(&g->answer, buf, len);
	grab_header(buf, len, "etag", &g->etag);
	grab_header(buf, len, "last-modified", &g->last_modified);
	grab_header(buf, len, "retry-after", &g->retry_after);
	return len;
}

static size_t on_body(char *buf, size_t size, size_t nmemb, void *data)
{
	struct http_get *g = data;
	size_t len = size * nmemb;
	size_t have = g->spill ? (size_t)g->spilled.len : g->body.len;
	long code = 0;

	curl_easy_getinfo(g->easy, CURLINFO_RESPONSE_CODE, &code);
	if (code < 200 || code > 299)
		return len; /* the body of a redirect or an error page */
	if (len > g->limit - have) {
		g->over_limit = true;
		return CURL_WRITEFUNC_ERROR;
	}
	if (g->budget && len > g->budget->limit - g->budget->used) {
		g->over_budget = true;
		return CURL_WRITEFUNC_ERROR;
	}
	if (g->spill) {
		if (spill_body_add(&g->spilled, g->spill, buf, len) < 0) {
			g->spill_errno = errno;
			return CURL_WRITEFUNC_ERROR;
		}
	} else {
		if (!g->body.alloc) {
			curl_off_t cl = -1;

			curl_easy_getinfo(g->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl);
			if (cl > 0 && (uint64_t)cl <= g->limit)
				strbuf_grow(&g->body, (size_t)cl);
		}
		strbuf_add(&g->body, buf, len);
	}
	if (g->budget) {
		g->budget->used += len;
		g->counted += len;
	}
	return len;
}

static void add_header(struct http_get *g, const char *line)
{
	struct curl_slist *l = curl_slist_append(g->headers, line);

	if (!l)
		die("out of memory");
	g->headers = l;
}

static void add_headerf(struct http_get *g, const char *name, const char *value)
{
	char *line = xstrfmt("%s: %s", name, value);

	add_header(g, line);
	free(line);
}

static void get_start(struct http_client *c, struct http_get *g)
{
	const struct http_options *o = &c->opt;
	CURL *e = c->nr_idle ? c->idle[--c->nr_idle] : curl_easy_init();

	if (!e)
		die("out of memory");
	if (!g->cur_url) {
		g->cur_url = xstrdup(g->url);
		g->attempts = 1;
	}
	body_reset(g);
	FREE_NULL(g->etag);
	FREE_NULL(g->last_modified);
	FREE_NULL(g->retry_after);
	strbuf_reset(&g->answer);
	g->over_limit = g->over_budget = false;
	g->spill_errno = 0;
	g->errbuf[0] = '\0';
	g->easy = e;
	/* The token goes to the trusted origin only: checked on every hop. */
	if (c->auth) {
		if (same_origin(g->cur_url, g->trusted))
			add_header(g, c->auth);
		else
			g->token_withheld = true;
	}
	for (char **h = c->api_headers; h && *h; h++)
		if (same_origin(g->cur_url, g->trusted))
			add_header(g, *h);
	if (g->if_none_match)
		add_headerf(g, "If-None-Match", g->if_none_match);
	if (g->if_modified_since)
		add_headerf(g, "If-Modified-Since", g->if_modified_since);
	curl_easy_setopt(e, CURLOPT_URL, g->cur_url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, g);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
	if (o->ca_bundle)
		curl_easy_setopt(e, CURLOPT_CAINFO, o->ca_bundle);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(o->connect_timeout * 1000));
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(o->timeout * 1000));
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)g->limit);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_USERAGENT, "tiadash/" TIADASH_VERSION);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, g->headers);
	curl_easy_setopt(e, CURLOPT_HEADEROPT, CURLHEADER_SEPARATE);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, g->errbuf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, g);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, g);
	g->state = GET_RUNNING;
	if (curl_multi_add_handle(c->multi, e) != CURLM_OK)
		BUG("cannot add a transfer to the multi handle");
}

static void get_fail(struct http_get *g, const char *fmt, ...) ATTR_FORMAT(2, 3);

/* Done, failed: the message names the URL and says why. */
static void get_fail(struct http_get *g, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", g->name);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (g->attempts > 1)
		strbuf_addf(&sb, " after %d attempts", g->attempts);
	g->message = strbuf_detach(&sb, NULL);
	g->result = GET_FAILED;
	g->state = GET_DONE;
}

static bool retryable_status(long status)
{
	return status == 429 || (status >= 500 && status <= 599);
}

static bool retryable_curl(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

/* Retry-After in seconds from now (delta-seconds or an HTTP date); -1 if junk. */
static double retry_after_seconds(const char *v)
{
	int64_t secs;
	time_t when;

	if (parse_int64(v, &secs))
		return secs < 0 ? -1 : (double)secs;
	when = curl_getdate(v, NULL);
	if (when == (time_t)-1)
		return -1;
	return when > time(NULL) ? (double)(when - time(NULL)) : 0;
}

/* Wait and try again if attempts are left; else false (the caller fails). */
static bool get_retry_later(struct http_client *c, struct http_get *g, const char *why)
{
	const struct http_options *o = &c->opt;
	double wait = o->backoff * ldexp(1.0, g->attempts - 1);
	double asked = g->retry_after ? retry_after_seconds(g->retry_after) : -1;
	struct strbuf how = STRBUF_INIT;

	if (g->attempts > o->retries)
		return false;
	if (asked >= 0) {
		wait = asked;
		strbuf_addstr(&how, " (Retry-After)");
	}
	if (wait > o->max_wait) {
		if (asked >= 0)
			strbuf_reset(&how);
		strbuf_addf(&how, " (%s%g s, capped by TIADASH_HTTP_MAX_WAIT)",
			    asked >= 0 ? "Retry-After " : "", wait);
		wait = o->max_wait;
	}
	note("%s: %s; retrying in %g s%s (attempt %d of %d)", g->name, why, wait,
	     how.buf, g->attempts + 1, o->retries + 1);
	strbuf_release(&how);
	g->attempts++;
	g->not_before = mono_ms() + (int64_t)(wait * 1000);
	g->state = GET_WAITING;
	return true;
}

/* ---- rate limits (gets marked with http_get_honour_rate_limits) -------- */

/* A header of the get's last answer (caller frees), or NULL. */
static char *answer_header(const struct http_get *g, const char *name)
{
	size_t n = strlen(name);
	const char *p = g->answer.buf;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);

		if (len > n && !strncasecmp(p, name, n) && p[n] == ':')
			return xstrdup_trimmed(p + n + 1, len - n - 1);
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

/*
 * Is the answer's quota used up (X-RateLimit-Remaining: 0 with an
 * X-RateLimit-Reset time, as GitHub says it; RateLimit-* as GitLab does)?
 * Then *until is the reset (Unix seconds) and *wait the seconds to it, one
 * more than the difference since the reset second itself may still count.
 */
static bool quota_used_up(const struct http_get *g, double *wait, int64_t *until)
{
	static const char *const names[][2] = {
		{ "x-ratelimit-remaining", "x-ratelimit-reset" },
		{ "ratelimit-remaining", "ratelimit-reset" },
	};
	bool used_up = false;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !used_up; i++) {
		char *left = answer_header(g, names[i][0]);
		char *reset = answer_header(g, names[i][1]);
		int64_t n, t;

		if (left && reset && parse_int64(left, &n) && n == 0 &&
		    parse_int64(reset, &t) && t > 0) {
			int64_t now = (int64_t)time(NULL);

			*until = t;
			*wait = t >= now ? (double)(t - now + 1) : 0;
			used_up = true;
		}
		free(left);
		free(reset);
	}
	return used_up;
}

static char *format_unix(int64_t secs)
{
	struct strbuf sb = STRBUF_INIT;

	time_format(&sb, secs * 1000);
	return strbuf_detach(&sb, NULL);
}

/* Nothing more goes to any host for wait seconds (a rate limit's reset). */
static void hold_all(struct http_client *c, double wait)
{
	int64_t until = mono_ms() + (int64_t)(wait * 1000);

	if (until > c->hold_until)
		c->hold_until = until;
}

/* A limit that lasts longer than max_wait: no rate-limited get starts again. */
static void halt(struct http_client *c, const char *why)
{
	if (!c->halted)
		c->halted = xstrdup(why);
}

/*
 * Any answer of a rate-limited get: when it says the quota is used up,
 * hold every transfer until the reset, or halt when that is too far away.
 */
static void rate_limit_watch(struct http_client *c, struct http_get *g)
{
	double wait;
	int64_t until;
	char *when, *origin;

	if (g->status == 403 || g->status == 429 || !quota_used_up(g, &wait, &until) ||
	    wait <= 0)
		return;
	when = format_unix(until);
	origin = url_origin(g->cur_url);
	if (wait > c->opt.max_wait) {
		char *why = xstrfmt("the rate limit of %s is used up until %s, %g s "
				    "from now: longer than TIADASH_HTTP_MAX_WAIT "
				    "(%g s) lets tiadash wait", origin, when, wait,
				    c->opt.max_wait);

		halt(c, why);
		free(why);
	} else if (mono_ms() + (int64_t)(wait * 1000) > c->hold_until) {
		note("%s: the rate limit is used up (remaining 0); waiting %g s "
		     "for its reset at %s", origin, wait, when);
		hold_all(c, wait);
	}
	free(when);
	free(origin);
}

/*
 * A 403 or 429 of a rate-limited get: a rate limit when it has Retry-After
 * (GitHub's secondary limits, GitLab) or a used-up quota. Wait and try
 * again, holding every other transfer meanwhile; when the wait is longer
 * than max_wait, fail naming when the limit resets, and start nothing
 * rate-limited again. False when the answer is not about a rate limit (or
 * no attempt is left): the caller treats it as any other status.
 */
static bool rate_limited(struct http_client *c, struct http_get *g)
{
	double wait = g->retry_after ? retry_after_seconds(g->retry_after) : -1;
	int64_t until = 0;
	char *when, *what;

	if (wait >= 0) {
		until = (int64_t)time(NULL) + (int64_t)ceil(wait);
		what = xstrfmt("Retry-After: %s", g->retry_after);
	} else if (quota_used_up(g, &wait, &until)) {
		what = xstrdup("rate limit remaining 0");
	} else {
		return false;
	}
	when = format_unix(until);
	if (wait > c->opt.max_wait) {
		char *why = xstrfmt("rate limited until %s (%s): longer than "
				    "TIADASH_HTTP_MAX_WAIT (%g s) lets tiadash wait",
				    when, what, c->opt.max_wait);

		get_fail(g, "HTTP %ld: %s; try again then", g->status, why);
		halt(c, why);
		free(why);
	} else if (g->attempts > c->opt.retries) {
		free(when);
		free(what);
		return false;
	} else {
		note("%s: HTTP %ld, rate limited (%s); waiting %g s, until %s "
		     "(attempt %d of %d)", g->name, g->status, what, wait, when,
		     g->attempts + 1, c->opt.retries + 1);
		g->attempts++;
		g->not_before = mono_ms() + (int64_t)(wait * 1000);
		g->state = GET_WAITING;
		hold_all(c, wait);
	}
	free(when);
	free(what);
	return true;
}

static bool is_redirect(long status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 ||
	       status == 308;
}

static void get_redirect(struct http_get *g, const char *target)
{
	if (!target)
		return get_fail(g, "HTTP %ld without a Location", g->status);
	if (++g->redirects > HTTP_MAX_REDIRECTS)
		return get_fail(g, "more than %d redirects (the last to %s)",
				HTTP_MAX_REDIRECTS, target);
	if (!http_is_url(target))
		return get_fail(g, "redirected to '%s', which is not http or https",
				target);
	if (!strncasecmp(g->cur_url, "https:", 6) && strncasecmp(target, "https:", 6))
		return get_fail(g, "refusing a redirect from https to '%s'", target);
	free(g->cur_url);
	g->cur_url = xstrdup(target);
	g->not_before = 0;
	g->state = GET_WAITING;
}

static void get_status_failed(struct http_client *c, struct http_get *g)
{
	struct strbuf why = STRBUF_INIT;
	char *where = url_display(g->cur_url);

	strbuf_addf(&why, "HTTP %ld", g->status);
	if (strcmp(where, g->name))
		strbuf_addf(&why, " (redirected to %s)", where);
	if ((g->status == 401 || g->status == 403) && g->token_withheld)
		strbuf_addf(&why, " (%s is only sent to %s)", c->token_name,
			    g->trusted ? g->trusted : "the origin of a URL given to "
			    "'tiadash ingest' or of an index fetched by URL");
	get_fail(g, "%s", why.buf);
	strbuf_release(&why);
	free(where);
}

/* A curl error as a message: its own words, lower-cased first letter. */
static void curl_why(struct http_get *g, CURLcode rc, struct strbuf *why)
{
	const char *text = *g->errbuf ? g->errbuf : curl_easy_strerror(rc);
	size_t start;

	if (rc == CURLE_PARTIAL_FILE)
		strbuf_addstr(why, "truncated body: ");
	start = why->len;
	strbuf_addstr(why, text);
	while (why->len > start && why->buf[why->len - 1] == '\n')
		strbuf_setlen(why, why->len - 1);
	/* "Operation timed out" reads as "operation timed out"; "SSL" stays. */
	if (why->len >= start + 2 && why->buf[start] >= 'A' && why->buf[start] <= 'Z' &&
	    !(why->buf[start + 1] >= 'A' && why->buf[start + 1] <= 'Z'))
		why->buf[start] = (char)(why->buf[start] - 'A' + 'a');
	if (rc == CURLE_OPERATION_TIMEDOUT)
		strbuf_addstr(why, " (--timeout, TIADASH_HTTP_TIMEOUT; "
			      "--connect-timeout, TIADASH_HTTP_CONNECT_TIMEOUT)");
}

static void get_finish(struct http_client *c, struct http_get *g, CURLcode rc)
{
	char *target = NULL;

	if (rc == CURLE_OK) {
		const char *t = NULL;

		curl_easy_getinfo(g->easy, CURLINFO_RESPONSE_CODE, &g->status);
		if (curl_easy_getinfo(g->easy, CURLINFO_REDIRECT_URL, &t) == CURLE_OK && t)
			target = xstrdup(t);
		if (g->rate_limits)
			rate_limit_watch(c, g);
	}
	curl_multi_remove_handle(c->multi, g->easy);
	curl_easy_reset(g->easy);
	ALLOC_GROW(c->idle, c->nr_idle + 1, c->alloc_idle);
	c->idle[c->nr_idle++] = g->easy;
	g->easy = NULL;
	curl_slist_free_all(g->headers);
	g->headers = NULL;

	if (g->over_budget) {
		get_fail(g, "the files of its run add up to more than the %" PRIu64
			 "-byte limit (--max-source-size, TIADASH_HTTP_MAX_SOURCE_SIZE)",
			 g->budget->limit);
	} else if (g->spill_errno) {
		get_fail(g, "cannot write the download to a temporary file in "
			 "$TMPDIR: %s", strerror(g->spill_errno));
	} else if (g->over_limit || rc == CURLE_FILESIZE_EXCEEDED) {
		if (g->limit == c->opt.max_size)
			get_fail(g, "larger than the %zu-byte limit (--max-size, "
				 "TIADASH_HTTP_MAX_SIZE)", g->limit);
		else
			get_fail(g, "larger than the %zu-byte limit of a manifest or "
				 "an index", g->limit);
	} else if (rc != CURLE_OK) {
		struct strbuf why = STRBUF_INIT;

		curl_why(g, rc, &why);
		if (!retryable_curl(rc) || !get_retry_later(c, g, why.buf))
			get_fail(g, "%s", why.buf);
		strbuf_release(&why);
	} else if (g->status >= 200 && g->status <= 299) {
		g->result = GET_OK;
		g->final_url = xstrdup(g->cur_url);
		g->state = GET_DONE;
	} else if (g->status == 304 && (g->if_none_match || g->if_modified_since)) {
		g->result = GET_NOT_MODIFIED;
		g->final_url = xstrdup(g->cur_url);
		g->state = GET_DONE;
	} else if (is_redirect(g->status)) {
		get_redirect(g, target);
	} else if (g->rate_limits && (g->status == 403 || g->status == 429) &&
		   rate_limited(c, g)) {
		/* Waiting for the limit's reset, or failed naming it. */
	} else if (retryable_status(g->status)) {
		char *why = xstrfmt("HTTP %ld", g->status);

		if (!get_retry_later(c, g, why))
			get_status_failed(c, g);
		free(why);
	} else {
		get_status_failed(c, g);
	}
	free(target);
}

static void show_progress(struct http_client *c)
{
	int64_t now;

	if (!c->progress)
		return;
	now = mono_ms();
	if (c->done != c->added && now - c->progress_at < 100)
		return;
	c->progress_at = now;
	fprintf(stderr, "\rfetch: %zu/%zu files%-40s", c->done, c->added, "");
}

enum { HTTP_FIRST, HTTP_LATER };

static void http_add(struct http_client *c, struct http_get *g, int which)
{
	struct get_fifo *q = &c->queue[which];

	g->state = GET_IDLE;
	ALLOC_GROW(q->v, q->nr + 1, q->alloc);
	q->v[q->nr++] = g;
	c->added++;
}

static struct http_get *http_next(struct http_client *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(c->queue); i++) {
		struct get_fifo *q = &c->queue[i];

		if (q->next < q->nr) {
			struct http_get *g = q->v[q->next++];

			if (q->next == q->nr)
				q->next = q->nr = 0;
			return g;
		}
	}
	return NULL;
}

/*
 * A rate-limited get after a limit halted the client: done, failed, without
 * a request (never hammer a limit that said when it ends).
 */
static bool get_refused(struct http_client *c, struct http_get *g)
{
	if (!g->rate_limits || !c->halted)
		return false;
	get_fail(g, "not requested: %s", c->halted);
	c->done++;
	return true;
}

/*
 * Start what may start, let curl move data, and settle finished transfers.
 * With block, wait (for sockets or a retry's time) when nothing happened.
 * While a rate limit holds, nothing new starts.
 */
static void http_step(struct http_client *c, bool block)
{
	int64_t now = mono_ms(), timeout = 1000;
	size_t parallel = (size_t)c->opt.parallel;
	bool moved = false, hold = c->hold_until > now;
	CURLMsg *msg;
	int still, left;

	for (size_t i = 0; !hold && i < c->nr_waiting && c->running < parallel; ) {
		if (c->waiting[i]->not_before > now) {
			i++;
			continue;
		}
		if (!get_refused(c, c->waiting[i])) {
			get_start(c, c->waiting[i]);
			c->running++;
		}
		moved = true;
		c->waiting[i] = c->waiting[--c->nr_waiting];
	}
	while (!hold && c->running < parallel) {
		struct http_get *g = http_next(c);

		if (!g)
			break;
		moved = true;
		if (get_refused(c, g))
			continue;
		get_start(c, g);
		c->running++;
	}
	curl_multi_perform(c->multi, &still);
	while ((msg = curl_multi_info_read(c->multi, &left))) {
		struct http_get *g;
		char *priv = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
		g = (struct http_get *)(void *)priv;
		get_finish(c, g, msg->data.result);
		c->running--;
		moved = true;
		if (g->state == GET_WAITING) {
			ALLOC_GROW(c->waiting, c->nr_waiting + 1, c->alloc_waiting);
			c->waiting[c->nr_waiting++] = g;
		} else {
			c->done++;
			show_progress(c);
		}
	}
	if (!block || moved)
		return;
	for (size_t i = 0; i < c->nr_waiting; i++)
		if (c->waiting[i]->not_before - now < timeout)
			timeout = c->waiting[i]->not_before - now;
	if (hold && c->hold_until - now < timeout)
		timeout = c->hold_until - now;
	if (timeout < 0)
		timeout = 0;
	curl_multi_poll(c->multi, NULL, 0, (int)timeout, NULL);
}

/* Step the fetcher until every one of gets is done. */
static void http_wait(struct http_client *c, struct http_get **gets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		while (gets[i]->state != GET_DONE)
			http_step(c, true);
}

/* Add every get and wait for them all. */
static void http_run(struct http_client *c, struct http_get **gets, size_t n)
{
	for (size_t i = 0; i < n; i++)
		http_add(c, gets[i], HTTP_LATER);
	http_wait(c, gets, n);
}

/* A client; auth (a whole header line) may be NULL. NULL when curl won't start. */
static struct http_client *client_make(const struct http_options *opt,
				       const char *token_name, const char *auth,
				       bool progress)
{
	struct http_client *c;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		error("cannot initialise libcurl");
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->opt = *opt;
	c->multi = curl_multi_init();
	if (!c->multi)
		die("out of memory");
	curl_multi_setopt(c->multi, CURLMOPT_MAXCONNECTS, (long)opt->parallel * 2);
	c->auth = auth ? xstrdup(auth) : NULL;
	c->token_name = token_name;
	c->progress = progress;
	return c;
}

static struct http_client *client_get(struct ingest *ing)
{
	const char *token = getenv("TIADASH_TOKEN");
	struct http_options opt;
	char *auth;

	if (ing->http)
		return ing->http;
	if (ing->http_opts)
		opt = *ing->http_opts;
	else if (http_options_init(&opt) < 0)
		return NULL;
	if (token && strpbrk(token, "\r\n")) {
		error("TIADASH_TOKEN holds a line break: not sending it");
		return NULL;
	}
	auth = token && *token ? xstrfmt("Authorization: Bearer %s", token) : NULL;
	ing->http = client_make(&opt, "TIADASH_TOKEN", auth, ing->progress);
	free(auth);
	return ing->http;
}

void http_client_free(struct http_client *c)
{
	if (!c)
		return;
	if (c->running || c->nr_waiting || c->queue[0].nr || c->queue[1].nr)
		BUG("HTTP transfers left behind");
	for (size_t i = 0; i < c->nr_idle; i++)
		curl_easy_cleanup(c->idle[i]);
	free(c->idle);
	curl_multi_cleanup(c->multi);
	free(c->auth);
	for (char **h = c->api_headers; h && *h; h++)
		free(*h);
	free(c->api_headers);
	free(c->halted);
	free(c->queue[0].v);
	free(c->queue[1].v);
	free(c->waiting);
	free(c);
	curl_global_cleanup();
}

/* ---- the store's memory of validators ----------------------------------- */

/*
 * http_cache holds, per index or manifest URL, the validators and the body
 * of its last good answer (a 304 must be answered from somewhere);
 * http_part holds, per manifest, the validators each file it names had
 * when the run was stored, so a file shared by two manifests is judged for
 * each of them.
 */
static bool cache_load_doc(struct store *s, const char *url, struct http_get *g,
			   struct strbuf *body)
{
	static const char sql[] =
		"SELECT etag, last_modified, body FROM http_cache WHERE url = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);
	bool found = false;

	store_bind_text(st, 1, url);
	if (sqlite3_step(st) == SQLITE_ROW && !store_col_is_null(st, 2) &&
	    (!store_col_is_null(st, 0) || !store_col_is_null(st, 1))) {
		if (!store_col_is_null(st, 0))
			g->if_none_match = xstrdup(store_col_text(st, 0));
		if (!store_col_is_null(st, 1))
			g->if_modified_since = xstrdup(store_col_text(st, 1));
		strbuf_add(body, sqlite3_column_blob(st, 2),
			   (size_t)sqlite3_column_bytes(st, 2));
		found = true;
	}
	sqlite3_reset(st);
	return found;
}

static bool cache_load_part(struct store *s, const char *doc, struct http_get *g)
{
	static const char sql[] =
		"SELECT etag, last_modified FROM http_part WHERE doc_url = ?1 AND url = ?2";
	sqlite3_stmt *st = store_stmt(s, sql);
	bool found = false;

	store_bind_text(st, 1, doc);
	store_bind_text(st, 2, g->name);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (!store_col_is_null(st, 0) || !store_col_is_null(st, 1))) {
		if (!store_col_is_null(st, 0))
			g->if_none_match = xstrdup(store_col_text(st, 0));
		if (!store_col_is_null(st, 1))
			g->if_modified_since = xstrdup(store_col_text(st, 1));
		found = true;
	}
	sqlite3_reset(st);
	return found;
}

/* Remember a document (or forget it, when its answer had no validators). */
static int cache_put_doc(struct store *s, const char *url, const char *etag,
			 const char *last_modified, const struct strbuf *body, int64_t now)
{
	static const char put_sql[] =
		"INSERT INTO http_cache (url, etag, last_modified, checked_at, body)"
		" VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (url) DO UPDATE SET"
		" etag = excluded.etag, last_modified = excluded.last_modified,"
		" checked_at = excluded.checked_at, body = excluded.body";
	static const char del_sql[] = "DELETE FROM http_cache WHERE url = ?1";
	static const char parts_sql[] = "DELETE FROM http_part WHERE doc_url = ?1";
	sqlite3_stmt *st;

	st = store_stmt(s, parts_sql);
	store_bind_text(st, 1, url);
	if (store_exec_stmt(s, st, "cannot forget HTTP validators") < 0)
		return -1;
	if (!etag && !last_modified) {
		st = store_stmt(s, del_sql);
		store_bind_text(st, 1, url);
		return store_exec_stmt(s, st, "cannot forget HTTP validators");
	}
	st = store_stmt(s, put_sql);
	store_bind_text(st, 1, url);
	store_bind_text(st, 2, etag);
	store_bind_text(st, 3, last_modified);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_blob(st, 5, body->buf, (int)body->len, SQLITE_STATIC);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

static int cache_put_part(struct store *s, const char *doc, const char *url,
			  const char *etag, const char *last_modified)
{
	static const char sql[] =
		"INSERT OR REPLACE INTO http_part (doc_url, url, etag, last_modified)"
		" VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *st = store_stmt(s, sql);

	store_bind_text(st, 1, doc);
	store_bind_text(st, 2, url);
	store_bind_text(st, 3, etag);
	store_bind_text(st, 4, last_modified);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

static int cache_touch(struct store *s, const char *url, int64_t now)
{
	static const char sql[] = "UPDATE http_cache SET checked_at = ?2 WHERE url = ?1";
	sqlite3_stmt *st = store_stmt(s, sql);

	store_bind_text(st, 1, url);
	sqlite3_bind_int64(st, 2, now);
	return store_exec_stmt(s, st, "cannot remember HTTP validators");
}

/* ---- ingesting by URL ----------------------------------------------------- */

/*
 * Where a run by URL is: its files downloading; handed to a worker to parse
 * (ingest_prepare); parsed; or settled without parsing (a download failed,
 * or nothing changed since it was stored from here).
 */
enum run_state { RUN_FETCHING, RUN_PREPARING, RUN_PREPARED, RUN_FAILED, RUN_SAME };

/* A manifest by URL, on its way to ingest_commit. */
struct url_run {
	struct run_source rs;      /* rs.uri: the manifest's URL (no credentials) */
	struct url_base base;      /* the manifest's URL after redirects */
	char *trusted;             /* origin the token may go to, or NULL */
	char *etag, *last_modified; /* the manifest's validators */
	bool not_modified;         /* the manifest answered 304 */
	bool revalidate;           /* files asked "changed since the stored run?" */
	struct strlist urls;       /* distinct file URLs, in reference order */
	struct strmap index;       /* file URL -> position in urls */
	struct http_get *files;    /* one per urls entry */
	struct spill *spill;       /* where their bodies go */
	struct http_budget budget; /* what they may add up to */
	enum run_state state;
	struct run_data d;         /* what ingest_prepare made of it */
	int prepared;              /* PREPARE_*, once state is RUN_PREPARED */
};

/*
 * Workers parse runs (ingest_prepare, each with its own store connection
 * and repository, as the folder ingest does) while this thread downloads
 * and commits in order; a worker that finishes wakes the fetcher's poll.
 */
struct prep_pool {
	struct ingest *ing;
	CURLM *wake;
	pthread_mutex_t mu;
	pthread_cond_t cond;
	struct url_run **jobs;
	size_t next, nr, alloc;
	bool closing;
	pthread_t *threads;
	int nthreads;
};

/*
 * Runs to ingest, in order: runs[head..nr) are not committed yet,
 * runs[head..settled) have left RUN_FETCHING, runs[head..started) have
 * their files queued.
 */
struct run_queue {
	struct url_run **runs;
	size_t head, settled, started, nr, alloc;
	size_t files_ahead; /* files queued for runs not yet committed */
	struct prep_pool pool; /* workers, from the first run to the last */
	bool pooled;
};

static void url_run_free(struct url_run *r)
{
	run_source_release(&r->rs);
	url_base_release(&r->base);
	free(r->trusted);
	free(r->etag);
	free(r->last_modified);
	for (size_t i = 0; r->files && i < r->urls.nr; i++)
		http_get_release(&r->files[i]);
	free(r->files);
	spill_unref(r->spill);
	strlist_release(&r->urls);
	strmap_clear(&r->index);
	run_data_release(&r->d);
	free(r);
}

static bool seen_before(struct ingest *ing, const char *key)
{
	bool added;

	strmap_intern(&ing->seen, key, strlen(key), 0, &added);
	return !added;
}

/* Resolve one reference of a manifest; the input waits for its body. */
static int resolve_ref(struct input *in, const char *ref, void *data)
{
	struct url_run *r = data;
	char *url, *name;
	bool added;

	if (!ref_is_contained(ref))
		return error("%s: '%s' leaves the manifest's directory once "
			     "percent-decoded", r->rs.uri, ref);
	url = url_base_resolve(&r->base, ref);
	if (!url)
		return error("%s: '%s' does not resolve to a URL inside the "
			     "manifest's directory", r->rs.uri, ref);
	name = url_display(url);
	strmap_intern(&r->index, name, strlen(name), (int64_t)r->urls.nr, &added);
	if (added)
		strlist_push(&r->urls, url);
	input_from_memory(in, name, NULL, 0);
	free(name);
	free(url);
	return 0;
}

/* Give each input its downloaded body (a file named twice shares it). */
static void attach_bodies(struct url_run *r)
{
	size_t n;
	struct input **ins = run_source_list_inputs(&r->rs, &n);
	struct input **first = xcalloc(r->urls.nr + 1, sizeof(*first));

	for (size_t i = 0; i < n; i++) {
		char *name = xstrdup(ins[i]->name);
		int64_t k;

		if (!strmap_get(&r->index, name, &k))
			BUG("no download for '%s'", name);
		input_release(ins[i]);
		if (!first[k]) {
			input_from_spill(ins[i], name, &r->files[k].spilled);
			first[k] = ins[i];
		} else {
			input_share_spill(ins[i], name, first[k]);
		}
		free(name);
	}
	free(first);
	free(ins);
}

/* Was this run stored from this very URL (so its validators describe it)? */
static bool stored_from_here(struct ingest *ing, struct url_run *r)
{
	int64_t source;
	char *digest = NULL, *uri = NULL;
	int rc = write_find_run(ing->store, r->rs.m.repo, r->rs.m.head, r->rs.m.kind,
				r->rs.m.attempt, &source, &digest, &uri);
	bool here = rc == 1 && uri && !strcmp(uri, r->rs.uri);

	free(digest);
	free(uri);
	return here;
}

static void prepare_files(struct ingest *ing, struct url_run *r)
{
	size_t limit = ing->http->opt.max_size;

	r->files = xcalloc(r->urls.nr + 1, sizeof(*r->files));
	r->spill = spill_new();
	r->budget.limit = ing->http->opt.max_source;
	for (size_t i = 0; i < r->urls.nr; i++) {
		http_get_init(&r->files[i], r->urls.items[i], r->trusted, limit);
		http_get_spill(&r->files[i], r->spill);
		r->files[i].budget = &r->budget;
	}
	/*
	 * A manifest that answered 304 and whose run was stored from it: ask
	 * each file whether it changed since. Any file without validators
	 * means asking is pointless: download them all.
	 */
	r->revalidate = r->not_modified && stored_from_here(ing, r);
	for (size_t i = 0; r->revalidate && i < r->urls.nr; i++)
		r->revalidate = cache_load_part(ing->store, r->rs.uri, &r->files[i]);
	for (size_t i = 0; !r->revalidate && i < r->urls.nr; i++) {
		FREE_NULL(r->files[i].if_none_match);
		FREE_NULL(r->files[i].if_modified_since);
	}
}

/* Report the run's failed downloads; true when there was one. */
static bool report_failures(struct ingest *ing, struct url_run *r)
{
	bool failed = false, over_budget = false;

	for (size_t i = 0; i < r->urls.nr; i++) {
		if (r->files[i].result != GET_FAILED)
			continue;
		failed = true;
		/* The run's budget runs out for every file still coming: say it once. */
		if (r->files[i].over_budget && over_budget)
			continue;
		over_budget |= r->files[i].over_budget;
		error("%s", r->files[i].message);
	}
	if (failed) {
		ing->stats.sources++;
		ing->stats.failed++;
	}
	return failed;
}

static void remember_run(struct ingest *ing, struct url_run *r)
{
	struct store *s = ing->store;
	int ret;

	if (store_begin(s) < 0)
		return;
	ret = cache_put_doc(s, r->rs.uri, r->etag, r->last_modified,
			    &r->rs.head_bytes, ing->now);
	for (size_t i = 0; !ret && (r->etag || r->last_modified) && i < r->urls.nr; i++) {
		struct http_get *g = &r->files[i];

		ret = cache_put_part(s, r->rs.uri, g->name, g->etag, g->last_modified);
	}
	if (ret < 0)
		store_rollback(s);
	else
		store_commit(s);
}

static void touch_run(struct ingest *ing, struct url_run *r)
{
	if (store_begin(ing->store) < 0)
		return;
	if (cache_touch(ing->store, r->rs.uri, ing->now) < 0)
		store_rollback(ing->store);
	else
		store_commit(ing->store);
}

/* Queue the files of the runs ahead, up to HTTP_AHEAD_FILES (at least one run). */
static void top_up(struct ingest *ing, struct run_queue *q)
{
	while (q->started < q->nr &&
	       (q->files_ahead < HTTP_AHEAD_FILES || q->started == q->head)) {
		struct url_run *r = q->runs[q->started++];

		prepare_files(ing, r);
		for (size_t k = 0; k < r->urls.nr; k++)
			http_add(ing->http, &r->files[k], HTTP_FIRST);
		q->files_ahead += r->urls.nr;
	}
}

static void *prep_worker(void *arg)
{
	struct prep_pool *p = arg;
	struct ingest_env env = { p->ing, NULL, NULL, identity_cache_new() };
	bool ok = store_open(&env.store, p->ing->store->path, STORE_EXISTING) == 0 &&
		  (!p->ing->repo || repo_open(&env.repo, p->ing->repo->root) == 0);

	for (;;) {
		struct url_run *r;
		int prepared;

		pthread_mutex_lock(&p->mu);
		while (p->next == p->nr && !p->closing)
			pthread_cond_wait(&p->cond, &p->mu);
		r = p->next < p->nr ? p->jobs[p->next++] : NULL;
		pthread_mutex_unlock(&p->mu);
		if (!r)
			break;
		prepared = ok ? ingest_prepare(&env, &r->rs, &r->d) : PREPARE_FAILED;
		pthread_mutex_lock(&p->mu);
		r->prepared = prepared;
		r->state = RUN_PREPARED;
		pthread_mutex_unlock(&p->mu);
		curl_multi_wakeup(p->wake);
	}
	store_close(env.store);
	identity_cache_free(env.ids);
	repo_close(env.repo);
	return NULL;
}

/* Start the workers; false when there is no point (or no thread). */
static bool pool_start(struct prep_pool *p, struct ingest *ing)
{
	int n = ing->jobs;

	memset(p, 0, sizeof(*p));
	if (n < 2)
		return false;
	p->ing = ing;
	p->wake = ing->http->multi;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->threads = xcalloc((size_t)n, sizeof(*p->threads));
	while (p->nthreads < n &&
	       !pthread_create(&p->threads[p->nthreads], NULL, prep_worker, p))
		p->nthreads++;
	if (p->nthreads)
		return true;
	/* No thread: parse on this one. */
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cond);
	free(p->threads);
	memset(p, 0, sizeof(*p));
	return false;
}

static void pool_stop(struct prep_pool *p)
{
	if (!p->threads)
		return;
	pthread_mutex_lock(&p->mu);
	p->closing = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cond);
	free(p->threads);
	free(p->jobs);
	memset(p, 0, sizeof(*p));
}

static void pool_submit(struct prep_pool *p, struct url_run *r)
{
	pthread_mutex_lock(&p->mu);
	r->state = RUN_PREPARING;
	ALLOC_GROW(p->jobs, p->nr + 1, p->alloc);
	p->jobs[p->nr++] = r;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->mu);
}

static enum run_state run_state_of(struct prep_pool *p, struct url_run *r)
{
	enum run_state st;

	if (!p->threads)
		return r->state;
	pthread_mutex_lock(&p->mu);
	st = r->state;
	pthread_mutex_unlock(&p->mu);
	return st;
}

/*
 * Once a run's downloads are in, decide what it needs: nothing (failed, or
 * unchanged since stored from here), its unchanged files again in full (a
 * file changed; back to fetching), or parsing. Returns false while it is
 * still fetching.
 */
static bool settle(struct ingest *ing, struct prep_pool *pool, struct url_run *r)
{
	bool all_same = true, refetch = false;

	for (size_t k = 0; k < r->urls.nr; k++)
		if (r->files[k].state != GET_DONE)
			return false;
	for (size_t k = 0; k < r->urls.nr; k++) {
		if (r->files[k].result == GET_FAILED) {
			r->state = RUN_FAILED;
			return true;
		}
		all_same &= r->files[k].result == GET_NOT_MODIFIED;
	}
	/* Checked again: a run before this one may have replaced it. */
	if (r->revalidate && all_same && stored_from_here(ing, r)) {
		r->state = RUN_SAME;
		return true;
	}
	/* Something changed: the run needs every body, so ask again plainly. */
	for (size_t k = 0; k < r->urls.nr; k++) {
		struct http_get *g = &r->files[k];

		if (g->result != GET_NOT_MODIFIED)
			continue;
		FREE_NULL(g->if_none_match);
		FREE_NULL(g->if_modified_since);
		http_get_rearm(g);
		http_add(ing->http, g, HTTP_FIRST);
		refetch = true;
	}
	r->revalidate = false;
	if (refetch)
		return false;
	attach_bodies(r);
	if (pool->threads) {
		pool_submit(pool, r);
	} else {
		struct ingest_env env = { ing, ing->store, ing->repo, ing->ids };

		r->prepared = ingest_prepare(&env, &r->rs, &r->d);
		r->state = RUN_PREPARED;
	}
	return true;
}

/* Write a settled run (in order), and remember its validators when it landed. */
static int commit(struct ingest *ing, struct url_run *r)
{
	switch (r->state) {
	case RUN_FAILED:
		report_failures(ing, r);
		return -1;
	case RUN_SAME:
		/* Nothing changed since the run was stored from here. */
		ing->stats.sources++;
		ing->stats.unchanged++;
		touch_run(ing, r);
		return 0;
	case RUN_PREPARED:
		if (ingest_commit(ing, &r->rs, &r->d, r->prepared) < 0)
			return -1;
		remember_run(ing, r);
		return 0;
	default:
		BUG("committing a run that is not settled");
	}
}

/*
 * Move the queued runs along, in order: download the files of the runs
 * ahead, parse the runs whose files are in on the workers, commit settled
 * runs on this thread. Without finish, return as soon as the next run to
 * commit is not settled; with it, go on until every run is committed (and
 * stop the workers). Returns -1 when some run failed.
 */
static int pump(struct ingest *ing, struct run_queue *q, bool finish)
{
	size_t ahead = (size_t)(ing->jobs > 1 ? ing->jobs : 1) * 4;
	int ret = 0;

	if (!q->pooled && q->head < q->nr) {
		pool_start(&q->pool, ing);
		q->pooled = true;
	}
	while (q->head < q->nr) {
		struct url_run *r = q->runs[q->head];
		enum run_state st;

		top_up(ing, q);
		http_step(ing->http, false);
		while (q->settled < q->started && q->settled - q->head < ahead &&
		       settle(ing, &q->pool, q->runs[q->settled]))
			q->settled++;
		st = q->settled > q->head ? run_state_of(&q->pool, r) : RUN_FETCHING;
		if (st == RUN_FETCHING || st == RUN_PREPARING) {
			if (!finish)
				break;
			http_step(ing->http, true);
			continue;
		}
		if (commit(ing, r) < 0)
			ret = -1;
		q->head++;
		q->files_ahead -= r->urls.nr;
		url_run_free(r);
	}
	if (q->head == q->nr)
		q->head = q->settled = q->started = q->nr = q->files_ahead = 0;
	if (finish && q->pooled) {
		pool_stop(&q->pool);
		q->pooled = false;
	}
	return ret;
}

/* A document by URL: the get, and the cached body a 304 stands for. */
struct doc {
	struct http_get get;
	struct strbuf cached;
	bool skip;
};

static int add_run(struct ingest *ing, struct doc *d, const char *text, size_t len,
		   struct run_queue *q)
{
	struct url_run *r = xcalloc(1, sizeof(*r));
	struct http_get *g = &d->get;

	run_source_init(&r->rs);
	run_data_init(&r->d);
	r->rs.uri = xstrdup(g->name);
	run_source_set_head(&r->rs, text, len);
	url_base_init(&r->base, g->final_url);
	r->trusted = g->trusted ? xstrdup(g->trusted) : NULL;
	r->not_modified = g->result == GET_NOT_MODIFIED;
	if (r->not_modified) {
		r->etag = g->if_none_match ? xstrdup(g->if_none_match) : NULL;
		r->last_modified = g->if_modified_since ? xstrdup(g->if_modified_since) : NULL;
	} else {
		r->etag = g->etag ? xstrdup(g->etag) : NULL;
		r->last_modified = g->last_modified ? xstrdup(g->last_modified) : NULL;
	}
	if (manifest_parse(text, len, g->name, &r->rs.m) < 0 ||
	    run_source_open_refs_with(&r->rs, resolve_ref, r) < 0) {
		ing->stats.sources++;
		ing->stats.failed++;
		url_run_free(r);
		return -1;
	}
	ALLOC_GROW(q->runs, q->nr + 1, q->alloc);
	q->runs[q->nr++] = r;
	return 0;
}

static int ingest_docs(struct ingest *ing, const struct strlist *urls,
		       const char *trusted, int depth);

/* One entry of an index by URL: an absolute http(s) URL or a contained path. */
static char *index_entry_url(const char *index, const struct url_base *base,
			     const char *ref)
{
	char *url;

	if (http_is_url(ref)) {
		url = url_normalise(ref);
		if (!url)
			error("%s: run '%s' is not a valid URL", index, ref);
		return url;
	}
	url = url_base_resolve(base, ref);
	if (!url)
		error("%s: run '%s' is neither an http(s) URL nor a relative path "
		      "inside the index's directory", index, ref);
	return url;
}

static int ingest_index_doc(struct ingest *ing, struct doc *d, const char *text,
			    size_t len, int depth)
{
	struct http_get *g = &d->get;
	struct strlist runs = STRLIST_INIT, targets = STRLIST_INIT;
	struct url_base base;
	int ret = 0;

	if (index_parse(text, len, g->name, &runs) < 0) {
		strlist_release(&runs);
		return -1;
	}
	if (depth >= HTTP_INDEX_DEPTH) {
		strlist_release(&runs);
		return error("%s: indexes nested more than %d deep", g->name,
			     HTTP_INDEX_DEPTH);
	}
	url_base_init(&base, g->final_url);
	for (size_t i = 0; i < runs.nr; i++) {
		char *url = index_entry_url(g->name, &base, runs.items[i]);

		if (url)
			strlist_push_owned(&targets, url);
		else
			ret = -1;
	}
	url_base_release(&base);
	if (store_begin(ing->store) == 0) {
		int rc;

		if (g->result == GET_NOT_MODIFIED)
			rc = cache_touch(ing->store, g->name, ing->now);
		else
			rc = cache_put_doc(ing->store, g->name, g->etag,
					   g->last_modified, &g->body, ing->now);
		if (rc < 0)
			store_rollback(ing->store);
		else
			store_commit(ing->store);
	}
	ret |= ingest_docs(ing, &targets, g->trusted, depth + 1);
	strlist_release(&runs);
	strlist_release(&targets);
	return ret ? -1 : 0;
}

/*
 * Fetch indexes and manifests (together), then handle each in order:
 * an index's entries recursively, manifests in windows of downloads.
 */
static int ingest_docs(struct ingest *ing, const struct strlist *urls,
		       const char *trusted, int depth)
{
	struct doc *docs = xcalloc(urls->nr + 1, sizeof(*docs));
	struct run_queue q;
	size_t limit = ing->http->opt.max_size < HTTP_DOC_LIMIT ?
		       ing->http->opt.max_size : HTTP_DOC_LIMIT;
	int ret = 0;

	memset(&q, 0, sizeof(q));

	for (size_t i = 0; i < urls->nr; i++) {
		struct doc *d = &docs[i];

		d->cached = (struct strbuf)STRBUF_INIT;
		http_get_init(&d->get, urls->items[i], trusted, limit);
		if (seen_before(ing, d->get.name)) {
			d->skip = true;
			continue;
		}
		cache_load_doc(ing->store, d->get.name, &d->get, &d->cached);
		http_add(ing->http, &d->get, HTTP_LATER);
	}
	/* Runs go in as their manifests come, while later manifests download. */
	for (size_t i = 0; i < urls->nr; i++) {
		struct doc *d = &docs[i];
		struct http_get *g = &d->get;
		const struct strbuf *text;

		if (d->skip)
			continue;
		while (g->state != GET_DONE) {
			ret |= pump(ing, &q, false);
			if (g->state != GET_DONE)
				http_step(ing->http, true);
		}
		text = g->result == GET_NOT_MODIFIED ? &d->cached : &g->body;
		if (g->result == GET_FAILED) {
			ing->stats.sources++;
			ing->stats.failed++;
			ret = error("%s", g->message);
			continue;
		}
		switch (manifest_sniff(text->buf, text->len)) {
		case JSON_INDEX:
			ret |= pump(ing, &q, true);
			ret |= ingest_index_doc(ing, d, text->buf, text->len, depth);
			break;
		case JSON_MANIFEST:
			ret |= add_run(ing, d, text->buf, text->len, &q);
			ret |= pump(ing, &q, false);
			break;
		default:
			ing->stats.sources++;
			ing->stats.failed++;
			ret = error("%s: neither a run manifest (tiadash.run.v1) nor "
				    "an index (tiadash.index.v1); to ingest bare "
				    "files give --kind and --head", g->name);
		}
	}
	ret |= pump(ing, &q, true);
	for (size_t i = 0; i < urls->nr; i++) {
		http_get_release(&docs[i].get);
		strbuf_release(&docs[i].cached);
	}
	free(q.runs);
	free(docs);
	return ret ? -1 : 0;
}

static int ingest_url_trusting(struct ingest *ing, const char *url, bool trust)
{
	struct strlist urls = STRLIST_INIT;
	bool own = !ing->http;
	char *norm, *origin;
	int ret;

	norm = client_get(ing) ? url_normalise(url) : NULL;
	if (!norm) {
		ing->stats.sources++;
		ing->stats.failed++;
		ret = ing->http ? error("'%s' is not a valid http or https URL", url) : -1;
	} else {
		origin = trust ? url_origin(norm) : NULL;
		strlist_push_owned(&urls, norm);
		ret = ingest_docs(ing, &urls, origin, 0);
		strlist_release(&urls);
		free(origin);
	}
	if (own) {
		http_client_free(ing->http);
		ing->http = NULL;
	}
	return ret;
}

int ingest_url(struct ingest *ing, const char *url)
{
	return ingest_url_trusting(ing, url, true);
}

int ingest_url_untrusted(struct ingest *ing, const char *url)
{
	return ingest_url_trusting(ing, url, false);
}

int http_fetch_inputs(struct ingest *ing, char *const *names, size_t n,
		      struct input *ins)
{
	struct http_get *gets = xcalloc(n + 1, sizeof(*gets));
	struct http_get **run = xcalloc(n + 1, sizeof(*run));
	bool *is_url = xcalloc(n + 1, sizeof(*is_url));
	bool own = !ing->http;
	struct spill *sp = spill_new();
	struct http_budget budget = { 0, 0 };
	size_t nr = 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		is_url[i] = http_is_url(names[i]);
	for (size_t i = 0; i < n && !ret; i++) {
		char *url, *origin;

		if (!is_url[i])
			continue;
		if (!client_get(ing)) {
			ret = -1;
			break;
		}
		url = url_normalise(names[i]);
		if (!url) {
			ret = error("'%s' is not a valid http or https URL", names[i]);
			break;
		}
		origin = url_origin(url);
		http_get_init(&gets[i], url, origin, ing->http->opt.max_size);
		http_get_spill(&gets[i], sp);
		budget.limit = ing->http->opt.max_source;
		gets[i].budget = &budget;
		run[nr++] = &gets[i];
		free(url);
		free(origin);
	}
	if (!ret)
		http_run(ing->http, run, nr);
	for (size_t i = 0; i < n; i++) {
		if (!is_url[i] || !gets[i].url)
			continue;
		if (!ret && gets[i].result == GET_FAILED)
			ret = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!is_url[i] || !gets[i].url)
			continue;
		if (gets[i].result == GET_FAILED && gets[i].message)
			error("%s", gets[i].message);
		else if (!ret)
			input_from_spill(&ins[i], gets[i].name, &gets[i].spilled);
		http_get_release(&gets[i]);
	}
	spill_unref(sp);
	free(gets);
	free(run);
	free(is_url);
	if (own) {
		http_client_free(ing->http);
		ing->http = NULL;
	}
	return ret;
}

/* ---- requests of a protocol over HTTP (ingest/ciapi.c) ------------------- */

struct http_client *http_client_new(const struct http_options *o,
				    const char *token_name, const char *auth,
				    const char *const *headers, bool progress)
{
	struct http_client *c = client_make(o, token_name, auth, progress);
	size_t n = 0;

	if (!c)
		return NULL;
	while (headers && headers[n])
		n++;
	c->api_headers = xcalloc(n + 1, sizeof(*c->api_headers));
	for (size_t i = 0; i < n; i++)
		c->api_headers[i] = xstrdup(headers[i]);
	return c;
}

const char *http_client_rate_limited(const struct http_client *c)
{
	return c->halted;
}

struct http_get *http_get_new(const char *url, const char *trusted_url, size_t limit)
{
	struct http_get *g = xmalloc(sizeof(*g));
	char *origin = trusted_url ? url_origin(trusted_url) : NULL;

	http_get_init(g, url, origin, limit);
	free(origin);
	return g;
}

void http_get_free(struct http_get *g)
{
	if (!g)
		return;
	http_get_release(g);
	free(g);
}

void http_get_honour_rate_limits(struct http_get *g)
{
	g->rate_limits = true;
}

void http_get_all(struct http_client *c, struct http_get **gets, size_t n)
{
	http_run(c, gets, n);
}

bool http_get_ok(const struct http_get *g)
{
	return g->result == GET_OK;
}

long http_get_status(const struct http_get *g)
{
	return g->status;
}

const char *http_get_failure(const struct http_get *g)
{
	return g->result == GET_FAILED ? g->message : NULL;
}

const char *http_get_name(const struct http_get *g)
{
	return g->name;
}

char *http_get_body(struct http_get *g, size_t *len)
{
	return strbuf_detach(&g->body, len);
}

void http_get_spill(struct http_get *g, struct spill *sp)
{
	spill_unref(g->spill);
	g->spill = spill_ref(sp);
}

const struct spill_body *http_get_spilled(const struct http_get *g)
{
	return &g->spilled;
}

char *http_get_header(const struct http_get *g, const char *name)
{
	return answer_header(g, name);
}
