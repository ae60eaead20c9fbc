/*
 * HTTP(S) ingest: manifests, indexes and bare files by URL, fetched with
 * libcurl's multi interface (several at once), with retries and backoff on
 * 5xx and 429, a size cap enforced while downloading, redirects followed by
 * hand (so TIADASH_TOKEN only ever reaches the trusted origin), and
 * conditional requests whose validators the store remembers (http_cache,
 * http_part), so a cron re-ingest downloads only what changed. The fetcher
 * is ingest/fetch.c, ingest by URL ingest/url.c (ingest/fetch.h is what
 * crosses between them).
 *
 * TLS certificates and host names are always verified; there is no option
 * to turn that off. Proxies come from the environment, as curl reads them
 * (http_proxy, https_proxy, no_proxy, all_proxy).
 */
#ifndef TIADASH_INGEST_HTTP_H
#define TIADASH_INGEST_HTTP_H

#include "core/tiadash.h"
#include "ingest/ingest.h"
#include "core/input.h"

/* Limits of every transfer. Times are seconds. */
struct http_options {
	double connect_timeout; /* TIADASH_HTTP_CONNECT_TIMEOUT, --connect-timeout (10) */
	double timeout;         /* TIADASH_HTTP_TIMEOUT, --timeout: one attempt (300) */
	size_t max_size;        /* TIADASH_HTTP_MAX_SIZE, --max-size: per file (512 MiB) */
	uint64_t max_source;    /* TIADASH_HTTP_MAX_SOURCE_SIZE, --max-source-size: the
				   decoded bytes of one source's files (2 GiB) */
	int retries;            /* TIADASH_HTTP_RETRIES, --retries: after the first try (3) */
	double backoff;         /* TIADASH_HTTP_BACKOFF: first retry wait, doubled (1) */
	double max_wait;        /* TIADASH_HTTP_MAX_WAIT: cap on one wait (60) */
	int parallel;           /* TIADASH_HTTP_PARALLEL: transfers at once (8) */
	const char *ca_bundle;  /* TIADASH_HTTP_CA_BUNDLE: CAs to trust instead of
				   the system's (a PEM file), or NULL */
};

/*
 * The decoded bytes the files of one source may add up to (gzip bodies and
 * archive entries inflate): each get of the source counts what it receives.
 */
struct http_budget {
	uint64_t used, limit;
};

/* Redirects followed per request, and only to http or https. */
#define HTTP_MAX_REDIRECTS 5

/*
 * Defaults, then the TIADASH_HTTP_* environment. Returns 0, or -1 after
 * error() naming the variable whose value is not valid.
 */
int http_options_init(struct http_options *o);

/*
 * Parse a size: bytes, or a number with K, M or G (binary multiples;
 * "KiB", "MB" and friends are accepted too). False on junk or zero.
 */
bool http_parse_size(const char *s, size_t *out);
/* Parse a positive number of seconds (fractions allowed). */
bool http_parse_seconds(const char *s, double *out);

/* Is s an http:// or https:// URL (the scheme in any case)? */
bool http_is_url(const char *s);

/*
 * Bare files by URL: fetch every names[i] that is a URL into ins[i] as an
 * input named by its URL, spilled to a temporary file (concurrently, within
 * one --max-source-size budget; each URL's own origin is
 * the one TIADASH_TOKEN may go to). Other entries are left untouched.
 * Returns 0, or -1 after error() for each URL that failed; on -1 every
 * input filled here has been released again.
 */
int http_fetch_inputs(struct ingest *ing, char *const *names, size_t n,
		      struct input *ins);

/*
 * Requests for callers that speak a protocol over HTTP (ingest/ciapi.c):
 * the same fetcher (TLS, retries, size cap, redirects by hand, transfers
 * in parallel), with a token and header lines of their own.
 *
 * http_client_new: auth is a whole header line ("Authorization: Bearer T",
 * "PRIVATE-TOKEN: T") or NULL, headers more lines (NULL-terminated, or
 * NULL); both go only to a get's trusted origin, checked on every hop.
 * token_name (a static string) names the token's variable in messages.
 * Returns NULL after error(); free with http_client_free.
 */
struct http_client *http_client_new(const struct http_options *o,
				    const char *token_name, const char *auth,
				    const char *const *headers, bool progress);
void http_client_free(struct http_client *c);
/*
 * Why rate-limited gets are no longer requested (a limit resets later than
 * TIADASH_HTTP_MAX_WAIT), or NULL. Owned by the client.
 */
const char *http_client_rate_limited(const struct http_client *c);

/*
 * One GET of url, its body capped at limit bytes; the token and headers go
 * to the origin of trusted_url (NULL: nowhere). Free with http_get_free.
 */
struct http_get;
struct http_get *http_get_new(const char *url, const char *trusted_url, size_t limit);
void http_get_free(struct http_get *g);
/*
 * Honour rate limits (GitHub's, GitLab's): an answer with
 * X-RateLimit-Remaining (or RateLimit-Remaining) 0 holds every transfer of
 * the client until X-RateLimit-Reset; a 403 or 429 with Retry-After or that
 * header is waited out and tried again. A wait longer than max_wait fails
 * the get with the time the limit resets, and every rate-limited get after
 * it fails without a request (http_client_rate_limited says why).
 */
void http_get_honour_rate_limits(struct http_get *g);
/* Run gets (fresh ones) concurrently until every one of them is done. */
void http_get_all(struct http_client *c, struct http_get **gets, size_t n);

/* Once done: a 2xx answer? */
bool http_get_ok(const struct http_get *g);
/* The last answer's status (after redirects), 0 when there was none. */
long http_get_status(const struct http_get *g);
/* Why it failed, naming the URL (owned by the get), or NULL when ok. */
const char *http_get_failure(const struct http_get *g);
/* Its URL without credentials (owned by the get). */
const char *http_get_name(const struct http_get *g);
/* The body of a 2xx answer, NUL-terminated; caller frees (once). */
char *http_get_body(struct http_get *g, size_t *len);
/*
 * Before it runs: write the body into sp (a reference is taken) instead of
 * memory, so a download of any size costs no memory; once done, the body
 * (owned by the get).
 */
void http_get_spill(struct http_get *g, struct spill *sp);
const struct spill_body *http_get_spilled(const struct http_get *g);
/* A header of the last answer, trimmed (caller frees), or NULL. */
char *http_get_header(const struct http_get *g, const char *name);

/*
 * Percent-encode every byte of s but RFC 3986's unreserved ones and those in
 * keep (NULL: none; "/" for a path); caller frees.
 */
char *http_pct_encode(const char *s, const char *keep);

#endif
