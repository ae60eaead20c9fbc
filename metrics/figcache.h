/*
 * The figures kept (schema 15): a window's struct metrics without its
 * per-head parts (rows, the escapes' evidence, main's pair notes, the
 * verifier's heads, the seeding experiment's changes and mutants), kept in
 * the store's figures table under a key of everything they depend on
 * besides the tables: the window, the repo filter, threshold, confidence,
 * escape target, the pair facts' key (the id-map's fingerprint and the
 * class stamp), the repository the verifier check reads, and now when the
 * trend's previous window moves with it (a since and an unbounded until).
 * A row is fresh only while its generation is the store's
 * (store_generation): any write transaction makes it stale, and so does
 * a plain SQL edit of the pairs' tables (the pair cache's triggers list
 * its heads stale; its rebuild bumps the generation). days_needed,
 * whose pace moves with now, is computed again at every read.
 *
 * The dashboard draws kept figures at once and computes the rows only when
 * a view needs them; a reader writes them only when the write lock is free.
 */
#ifndef TIADASH_METRICS_FIGCACHE_H
#define TIADASH_METRICS_FIGCACHE_H

#include "core/tiadash.h"
#include "core/store.h"
#include "metrics/metrics.h"

/*
 * The key of w's figures under opts (its idmap, threshold, confidence,
 * escape target, now) and repo_key (what names the verifier check's
 * repository: "" for the stored diffs), into key (reset first).
 */
void figcache_key(const struct window *w, const struct metrics_opts *opts, const char *repo_key,
		  struct strbuf *key);

/*
 * The figures kept under key, if fresh, into out (released by
 * metrics_release; its per-head parts empty), with days_needed at now:
 * 0, or 1 when none are (out zeroed), -1 after error().
 */
int figcache_get(struct store *s, const char *key, int64_t now, struct metrics *out);

/*
 * Keep m's figures under key, computed from the store at generation (read
 * before computing them), dropping the rows of older generations: only when the
 * store is still at that generation and its write lock is free now, never
 * waiting. 0 kept, 1 not now (stale, locked, read-only), -1 after error().
 */
int figcache_put(struct store *s, const char *key, int64_t generation,
		 const struct metrics *m);

#endif
