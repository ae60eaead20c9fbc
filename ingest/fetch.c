/*
 * The HTTP(S) fetcher: gets on one libcurl multi handle, several at once,
 * with retries, a size cap, redirects followed by hand, rate limits and
 * conditional requests; and the protocol requests ingest/ciapi.c makes.
 */
#include "core/tiadash.h"
#include "ingest/fetch.h"
#include "core/timeutil.h"

#include <curl/curl.h>
#include <strings.h>
#include <time.h>

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
CURLU *url_parse(const char *url)
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

char *url_part(CURLU *h, CURLUPart part, unsigned flags)
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

/* "scheme://host:port" of url, lower-case, with the default port filled in. */
char *url_origin(const char *url)
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

/* The URL without user name and password: for messages, the store and keys. */
char *url_display(const char *url)
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

void http_get_init(struct http_get *g, const char *url, const char *trusted,
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

void http_get_release(struct http_get *g)
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
void http_get_rearm(struct http_get *g)
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

void http_add(struct http_client *c, struct http_get *g, int which)
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
void http_step(struct http_client *c, bool block)
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
void http_run(struct http_client *c, struct http_get **gets, size_t n)
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

struct http_client *http_ingest_client(struct ingest *ing)
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

const struct http_options *http_client_options(const struct http_client *c)
{
	return &c->opt;
}

void http_client_wake(struct http_client *c)
{
	curl_multi_wakeup(c->multi);
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
