/*
 * The pair cache (schema 8): each head with all of its runs, as query_pairs
 * hands it out, kept as one row of pair_row clustered by window time, so a
 * window's pairs are one range scan instead of five B-tree searches per run
 * (most of a report over 10^5 pairs). The store's triggers list in
 * pair_stale every head whose row, runs, selection or reasons changed,
 * whoever wrote them; pair_cache_refresh rebuilds those rows from the
 * tables. The cache holds no figure of its own: a pair read from it is the
 * pair the tables give.
 */
#ifndef TIADASH_CORE_PAIRCACHE_H
#define TIADASH_CORE_PAIRCACHE_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/store.h"

/*
 * A pair as a blob (head_id, repo and at travel as columns): append to
 * out. decode fills out (release with pair_info_release) and returns -1 on
 * a corrupt blob, with out released.
 */
void pair_cache_encode(const struct pair_info *p, struct strbuf *out);
int pair_cache_decode(const void *blob, size_t len, int64_t head_id, const char *repo,
		      int64_t at, struct pair_info *out);

/*
 * Rebuild the rows of the stale heads. Inside the caller's transaction when
 * one is open, else in its own, taken without waiting: 0 when the cache is
 * fresh, 1 when it could not be brought up to date now (another process
 * holds the write lock, a read-only store), so the caller reads the tables
 * instead; -1 after error().
 */
int pair_cache_refresh(struct store *s);

/*
 * query_pairs from the cache: fn for every head in window w, in window
 * order. 1 (nothing called) when the cache is not fresh.
 */
int pair_cache_pairs(struct store *s, const struct window *w, pair_fn fn, void *data);
/* The same, last head first. */
int pair_cache_pairs_desc(struct store *s, const struct window *w, pair_fn fn, void *data);
/*
 * The same with only each run's id, kind and decision (every other field
 * zero, no reasons), the rest of the blob skipped: for the window's run ids.
 */
int pair_cache_pairs_brief(struct store *s, const struct window *w, pair_fn fn, void *data);

/*
 * Per-pair facts (schema 11): a blob a reader makes of a head's pair (the
 * metrics pass: its class, its missed tests) kept in pair_fact beside the
 * head's row, under a key that names whatever else the blob depends on
 * (the id-map, the reader's version). The cache knows nothing of what the
 * blob says; it drops a head's facts when it rebuilds the head's row.
 */
struct pair_fact_row {
	int64_t head_id;
	const char *repo;
	int64_t at;
	const void *data; /* borrowed until fn returns */
	size_t len;
};
typedef int (*facts_fn)(const struct pair_fact_row *f, void *data);

/*
 * fn for the facts of every head of window w that has some, in window
 * order (desc: last first), all of them of this key. 1 (fn stops being
 * called) at a row of another key, or when the cache is not fresh. Heads
 * without facts are left out: the caller counts.
 */
int pair_facts_each(struct store *s, const struct window *w, int64_t key, bool desc,
		    facts_fn fn, void *data);

/*
 * The heads of w without facts, ascending, onto ids: those the cache lists
 * (it dropped their facts, or they never had any), or with every, each
 * head of w without facts of this key (another key's, facts deleted by
 * hand: one look-up a head). Make their facts and put them in one write
 * transaction, after pair_cache_refresh in it: then no head changes
 * between. -1 after error().
 */
int pair_facts_missing(struct store *s, const struct window *w, int64_t key, bool every,
		       struct int_vec *ids);
/* Keep f (at, head_id, repo, blob) under key, in place of the head's facts before. */
int pair_facts_put(struct store *s, const struct pair_fact_row *f, int64_t key);

#endif
