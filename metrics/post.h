/*
 * Posting a message to a chat webhook (Slack, Mattermost, Teams-style
 * incoming hooks): one JSON body by HTTP(S) POST through libcurl, with
 * connect and total timeouts, TLS verification always on, no redirects.
 * Webhook URLs carry their secret (in the path, the query or user:password),
 * so messages name a URL only as scheme://host[:port]/...
 */
#ifndef TIADASH_METRICS_POST_H
#define TIADASH_METRICS_POST_H

#include "core/tiadash.h"
#include "core/util.h"

#define METRICS_POST_CONNECT_TIMEOUT_S 10
#define METRICS_POST_TIMEOUT_S 30

/*
 * POST body (JSON) to url with `Content-Type: application/json`. Returns 0
 * on a 2xx answer; otherwise -1 after error() saying why (the HTTP status,
 * or the transfer error) with the URL redacted.
 */
int metrics_post_json(const char *url, const char *body);

/* Append url without its secrets: scheme://host[:port]/... ("(bad URL)"). */
void metrics_redact_url(struct strbuf *sb, const char *url);

#endif
