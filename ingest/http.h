/*
 * HTTP(S) ingest: manifests, indexes and bare files by URL, fetched with
 * libcurl's multi interface (several at once), with retries and backoff on
 * 5xx and 429, a size cap enforced while downloading, redirects followed by
 * hand (so TIADASH_TOKEN only ever reaches the trusted origin), and
 * conditional requests whose validators the store remembers (http_cache,
 * http_part), so a cron re-ingest downloads only what changed.
 *
 * TLS certificates and host names are always verified; there is no option
 * to turn that off. Proxies come from the environment, as curl reads them
 * (http_proxy, https_proxy, no_proxy, all_proxy).
 */
#ifndef TIADASH_INGEST_HTTP_H
#define TIADASH_INGEST_HTTP_H

#include "core/tiadash.h"
#include "ingest/ingest.h"
#include "ingest/input.h"

/* Limits of every transfer. Times are seconds. */
struct http_options {
	double connect_timeout; /* TIADASH_HTTP_CONNECT_TIMEOUT, --connect-timeout (10) */
	double timeout;         /* TIADASH_HTTP_TIMEOUT, --timeout: one attempt (300) */
	size_t max_size;        /* TIADASH_HTTP_MAX_SIZE, --max-size: per file (512 MiB) */
	int retries;            /* TIADASH_HTTP_RETRIES, --retries: after the first try (3) */
	double backoff;         /* TIADASH_HTTP_BACKOFF: first retry wait, doubled (1) */
	double max_wait;        /* TIADASH_HTTP_MAX_WAIT: cap on one wait (60) */
	int parallel;           /* TIADASH_HTTP_PARALLEL: transfers at once (8) */
	const char *ca_bundle;  /* TIADASH_HTTP_CA_BUNDLE: CAs to trust instead of
				   the system's (a PEM file), or NULL */
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
 * in-memory input named by its URL (concurrently; each URL's own origin is
 * the one TIADASH_TOKEN may go to). Other entries are left untouched.
 * Returns 0, or -1 after error() for each URL that failed; on -1 every
 * input filled here has been released again.
 */
int http_fetch_inputs(struct ingest *ing, char *const *names, size_t n,
		      struct input *ins);

#endif
