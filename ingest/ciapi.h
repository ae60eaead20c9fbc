/*
 * Pulling runs straight from CI (`tiadash ingest --github` / `--gitlab`):
 * GitHub Actions workflow runs and GitLab CI jobs are listed through their
 * REST APIs, their artifacts (zip archives, read in memory with libzip)
 * downloaded, and every tiadash.run.v1 manifest inside (as `tiadash
 * record` writes them: `tiadash-run.json` or `*.tiadash.json`, with the
 * files it names relative to it in the same archive) ingested as a run.
 *
 * Requests go through the fetcher of ingest/fetch.c (TLS always verified,
 * retries, size cap, redirects followed by hand, transfers in parallel),
 * with the token and the API's headers sent to the API's origin only: an
 * artifact that redirects to a storage host is downloaded without them.
 * Rate limits are waited out up to TIADASH_HTTP_MAX_WAIT, else the pull
 * stops naming when the limit resets.
 *
 * Incremental: the store remembers (ci_cursor, ci_seen) the runs that
 * landed, with their updated_at; a later pull downloads only runs that are
 * new or whose updated_at changed (a re-run). A run with a problem is not
 * remembered, so it is tried, and reported, again on the next pull.
 */
#ifndef TIADASH_INGEST_CIAPI_H
#define TIADASH_INGEST_CIAPI_H

#include "core/tiadash.h"
#include "core/util.h"
#include "ingest/ingest.h"

enum ci_provider { CI_GITHUB, CI_GITLAB };

/* What to pull; every string is borrowed (the command line's). */
struct ci_pull {
	enum ci_provider provider;
	const char *project;      /* owner/repo (GitHub); a path or numeric id (GitLab) */
	struct strlist pipelines; /* workflow files or ids (GitHub) / job names (GitLab) */
	const char *api_url;      /* --api-url, or NULL: TIADASH_GITHUB_API or
				     TIADASH_GITLAB_API, else the public API */
	int64_t since;            /* ms: runs created at or after this */
};

/*
 * Pull and ingest. Every problem (an API error, an expired or deleted
 * artifact, a run without a manifest, an archive whose entries leave their
 * folder, an oversize artifact, a bad manifest) is reported naming the run
 * and the artifact, and counted in ing->stats; the rest lands. Returns 0,
 * or -1 when anything failed (the command then exits 2).
 */
int ci_ingest(struct ingest *ing, const struct ci_pull *p);

#endif
