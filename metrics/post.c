/* The webhook POST of `summary --post`: libcurl, timeouts, TLS verified, secrets never printed. */
#include "core/tiadash.h"
#include "metrics/post.h"

#include <curl/curl.h>
#include <strings.h>

void metrics_redact_url(struct strbuf *sb, const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL;

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &host, 0)) {
		curl_url_get(u, CURLUPART_PORT, &port, 0);
		strbuf_addf(sb, "%s://%s", scheme, host);
		if (port)
			strbuf_addf(sb, ":%s", port);
		strbuf_addstr(sb, "/...");
	} else {
		strbuf_addstr(sb, "(bad URL)");
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
}

/* The answer's body is not ours to print (it is untrusted and may echo the URL). */
static size_t discard(char *ptr, size_t size, size_t nmemb, void *data)
{
	UNUSED(ptr), UNUSED(data);
	return size * nmemb;
}

/* Is any secret part of the URL (user, password, path, query) in text? */
static bool mentions_secret(const char *text, const char *url)
{
	static const CURLUPart parts[] = {
		CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_PATH, CURLUPART_QUERY,
	};
	CURLU *u = curl_url();
	bool found = false;

	if (!u || curl_url_set(u, CURLUPART_URL, url, 0)) {
		curl_url_cleanup(u);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(parts) && !found; i++) {
		char *part = NULL;

		if (!curl_url_get(u, parts[i], &part, 0) && part && strlen(part) > 1)
			found = strstr(text, part) != NULL;
		curl_free(part);
	}
	curl_url_cleanup(u);
	return found;
}

int metrics_post_json(const char *url, const char *body)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = NULL;
	struct strbuf where = STRBUF_INIT;
	CURL *curl;
	CURLcode rc;
	long status = 0;
	int ret = 0;

	metrics_redact_url(&where, url);
	if (strncasecmp(url, "https://", 8) && strncasecmp(url, "http://", 7)) {
		ret = error("--post %s: only http:// and https:// URLs are supported",
			    where.buf);
		strbuf_release(&where);
		return ret;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(curl = curl_easy_init())) {
		strbuf_release(&where);
		return error("cannot start libcurl");
	}
	headers = curl_slist_append(headers, "Content-Type: application/json");
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, (long)METRICS_POST_CONNECT_TIMEOUT_S);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)METRICS_POST_TIMEOUT_S);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "tiadash/" TIADASH_VERSION);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	rc = curl_easy_perform(curl);
	if (rc != CURLE_OK) {
		const char *why = *errbuf && !mentions_secret(errbuf, url)
					  ? errbuf : curl_easy_strerror(rc);

		ret = error("cannot post to %s: %s", where.buf, why);
	} else {
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
		if (status < 200 || status > 299)
			ret = error("cannot post to %s: the server answered HTTP %ld",
				    where.buf, status);
	}
	curl_slist_free_all(headers);
	curl_easy_cleanup(curl);
	curl_global_cleanup();
	strbuf_release(&where);
	return ret;
}
