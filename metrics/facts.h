/*
 * What the metrics pass takes of one pair: its class and missed tests
 * (struct pair_verdict) and the figures of its latest attempts. The pass
 * keeps them as the pair cache's facts (core/paircache.h), so that the
 * next pass over the same heads decodes these instead of reading every
 * run and classifying it again: at 10^5 pairs, most of a report's time.
 */
#ifndef TIADASH_METRICS_FACTS_H
#define TIADASH_METRICS_FACTS_H

#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/paircache.h"
#include "metrics/classify.h"

struct pair_facts {
	int64_t head_id, at, pr;
	const char *repo; /* borrowed from the pair or the fact row */
	char sha[41];
	bool has_pr;
	enum pair_class cls;
	char *why; /* incomplete: the reason, else NULL */
	int shadow_attempts, full_attempts;
	enum decision decision; /* the latest shadow attempt's (DECISION_NONE: none) */
	double affected, shadow_wall_s, full_wall_s, diff_coverage; /* NAN: none */
	int64_t quarantined, flaky; /* the full run's tests of each */
	/* Identity: the full run's failing tests, of which resolved, by suite name. */
	int64_t failing, resolved, by_name;
	/* The latest shadow attempt's selection entries (has_entries: it counted them). */
	bool has_entries, has_unmatched;
	int64_t entries_total, entries_unresolved, entries_unmatched;
	struct strlist reasons;    /* a force-full shadow attempt's reasons */
	struct strlist unresolved; /* failing tests whose suite key resolved to nothing */
	struct strlist missed, non_hermetic, not_run; /* an escape's (pair_verdict) */
	struct strlist inherited, latent;    /* pair_verdict's */
	char main_sha[41];  /* the run of main that covers it, when inherited is not empty */
	bool base_unrun;    /* an escape that no run of main covers */
};
#define PAIR_FACTS_INIT { .reasons = STRLIST_INIT, .unresolved = STRLIST_INIT, \
	.missed = STRLIST_INIT, .non_hermetic = STRLIST_INIT, .not_run = STRLIST_INIT, \
	.inherited = STRLIST_INIT, .latent = STRLIST_INIT }

/*
 * The key the facts are kept under: this format's version, the id-map
 * (NULL: none) and the class stamp (query_class_stamp), the inputs of a
 * class that are not in the head's own rows.
 */
int64_t pair_facts_key(const struct idmap *map, const char *class_stamp);

/* p's facts from its verdict v, whose lists move into out (v keeps the rest). */
void pair_facts_of(const struct pair_info *p, struct pair_verdict *v, struct pair_facts *out);

void pair_facts_encode(const struct pair_facts *f, struct strbuf *out);
/*
 * A fact row into out, reusing what out holds (release with
 * pair_facts_release): -1 when the blob is corrupt.
 */
int pair_facts_decode(const struct pair_fact_row *row, struct pair_facts *out);
void pair_facts_release(struct pair_facts *f);

#endif
