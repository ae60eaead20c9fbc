/*
 * What crosses between the fetcher (ingest/fetch.c) and URL ingest
 * (ingest/url.c): a get's fields, which URL ingest reads once the get is
 * done, the fetcher's queue and steps, the client an ingest keeps, and the
 * URL helpers both use. Only those two files include this header; the rest
 * of the tree speaks to the fetcher through ingest/http.h.
 */
#ifndef TIADASH_INGEST_FETCH_H
#define TIADASH_INGEST_FETCH_H

#include "core/tiadash.h"
#include "ingest/http.h"

#include <curl/curl.h>

#define FREE_NULL(p) do { free(p); (p) = NULL; } while (0)

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

/* A get (owned fields copied); free what it holds with http_get_release. */
void http_get_init(struct http_get *g, const char *url, const char *trusted,
		   size_t limit);
void http_get_release(struct http_get *g);
/* Forget the outcome, so the get can run again (unconditionally or not). */
void http_get_rearm(struct http_get *g);

/* The queues of a client: the files of queued runs first, then the rest. */
enum { HTTP_FIRST, HTTP_LATER };
/* Queue a get; it runs as the client steps. */
void http_add(struct http_client *c, struct http_get *g, int which);
/*
 * Start what may start, let curl move data, and settle finished transfers.
 * With block, wait (for sockets or a retry's time) when nothing happened.
 */
void http_step(struct http_client *c, bool block);
/* Add every get and wait for them all. */
void http_run(struct http_client *c, struct http_get **gets, size_t n);
/*
 * The ingest's client (ing->http), made on first use from its options
 * with TIADASH_TOKEN; NULL after error().
 */
struct http_client *http_ingest_client(struct ingest *ing);
const struct http_options *http_client_options(const struct http_client *c);
/* Wake a client's poll (from any thread). */
void http_client_wake(struct http_client *c);

/* A curl URL handle for url (absolute), or NULL when it does not parse. */
CURLU *url_parse(const char *url);
/* A part of a parsed URL (caller frees), or NULL. */
char *url_part(CURLU *h, CURLUPart part, unsigned flags);
/* "scheme://host:port" of url, lower-case, with the default port filled in. */
char *url_origin(const char *url);
/* The URL without user name and password: for messages, the store and keys. */
char *url_display(const char *url);

#endif
