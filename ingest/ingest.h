/*
 * Ingest: turn CI artifacts into runs in the store. A source is one run:
 * a manifest and every file it names, or a set of bare files given with
 * --kind/--head. Each source is idempotent (the same bytes again change
 * nothing), atomic (one transaction; a source that fails leaves nothing)
 * and independent (the others still land).
 */
#ifndef TIADASH_INGEST_INGEST_H
#define TIADASH_INGEST_INGEST_H

#include "core/tiadash.h"
#include "core/digest.h"
#include "core/query.h"
#include "core/repo.h"
#include "core/store.h"
#include "core/input.h"
#include "ingest/manifest.h"

#include <pthread.h>

struct http_options;
struct http_client;
struct idmap;
struct identity_cache;

struct ingest_stats {
	int sources;   /* sources looked at */
	int added;     /* runs written */
	int unchanged; /* sources already in the store, byte for byte */
	int replaced;  /* runs replaced (--replace) */
	int failed;    /* sources rejected */
	int git_unknown;
};

struct ingest {
	pthread_mutex_t lock; /* guards warned_no_repo across worker threads */
	int jobs;             /* parallel parsers (1: none) */
	struct store *store;
	struct repo *repo;    /* NULL: no changed files, no diff coverage */
	bool replace;         /* a changed source replaces its stored run */
	bool progress;        /* progress lines on stderr */
	bool warned_no_repo;
	int64_t now;
	const struct idmap *idmap;   /* the config's id-map, for JUnit suite keys (NULL: none) */
	struct identity_cache *ids;  /* the writing thread's resolvers */
	struct strmap seen;   /* source URIs handled in this invocation */
	struct {
		bool open;
		int64_t started;
		int runs, added, replaced;
	} batch;              /* the open write transaction (ingest/run.c) */
	struct ingest_stats stats;
	/* HTTP: limits (NULL: from the environment); the client while a URL ingests. */
	const struct http_options *http_opts;
	struct http_client *http;
};

void ingest_init(struct ingest *ing, struct store *s, struct repo *r, int64_t now);
void ingest_release(struct ingest *ing);

/*
 * Ingest a path given on the command line: a manifest, an index, or a
 * directory searched for `*.tiadash.json` and `tiadash-run.json`. Returns 0,
 * or -1 when some source failed (each failure already reported).
 */
int ingest_path(struct ingest *ing, const char *path);

/* Commit the sources written so far; call before reporting the stats. */
int ingest_flush(struct ingest *ing);

/*
 * Ingest a manifest or an index by HTTP(S) URL (ingest/url.c).
 * TIADASH_TOKEN goes to the URL's own origin (scheme, host, port) and to no
 * other, also for what an index there lists. ingest_url_untrusted is for
 * URLs that an index file lists: a file names no trusted origin, so the
 * token is sent nowhere.
 */
int ingest_url(struct ingest *ing, const char *url);
int ingest_url_untrusted(struct ingest *ing, const char *url);

/*
 * Everything one run is made of, before it is parsed: the manifest (read or
 * synthesized for bare files) and the inputs it names. ingest_run parses the
 * inputs, computes the run's figures and writes it in one transaction.
 */
struct run_source {
	char *uri;               /* canonical path or URL of the source */
	struct manifest m;
	struct strbuf head_bytes; /* the manifest's bytes (or a bare run's description) */
	struct input *results, *coverage;
	size_t nr_results, nr_coverage;
	size_t *result_refs; /* per results input: its index in m.results (NULL: bare) */
	struct input selected_file, engine_file, quarantine, failed_file;
	bool has_selected_file, has_engine_file, has_quarantine, has_failed_file;
	bool verdict_from_results; /* bare runs without --verdict */
	/*
	 * A bare shadow run with neither --verdict nor results: it passed when
	 * it selected nothing (nothing ran, nothing failed); a selection that
	 * names something is refused (what ran is not known).
	 */
	bool verdict_if_nothing;
};
void run_source_init(struct run_source *rs);
/* The bytes that start the source's digest: the manifest text. */
void run_source_set_head(struct run_source *rs, const char *bytes, size_t len);
void run_source_release(struct run_source *rs);
/* Add an input of a kind; the run source owns it afterwards. */
void run_source_add_result(struct run_source *rs, struct input *in);
void run_source_add_coverage(struct run_source *rs, struct input *in);

int ingest_run(struct ingest *ing, struct run_source *rs);

/*
 * Fill rs's inputs from the references of its manifest, resolved against
 * `base` (a directory; URLs are resolved by the HTTP layer), whose
 * canonical path is real_base (NULL: not known yet).
 */
int run_source_open_refs(struct run_source *rs, const char *base, const char *real_base);
/*
 * The same with an opener: fn fills *in for each reference (results,
 * coverage, selected_file, engine_file, quarantine, in that order), or
 * returns -1 after error(), which stops the walk.
 */
typedef int (*run_ref_fn)(struct input *in, const char *ref, void *data);
int run_source_open_refs_with(struct run_source *rs, run_ref_fn fn, void *data);
/* Every input of rs, in digest order; caller frees the array (not the inputs). */
struct input **run_source_list_inputs(struct run_source *rs, size_t *nr);

#endif
