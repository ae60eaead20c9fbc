/*
 * What a narrowed shadow run answered, read against the tests its paired
 * full run ran (SPEC 4): one reading for every view (classification, the
 * pair facts, replay's record, propose).
 */
#ifndef TIADASH_CORE_ANSWER_H
#define TIADASH_CORE_ANSWER_H

#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/query.h"

/*
 * A selection naming every test the full run ran is a whole-suite answer:
 * decision run_all, reason `whole-suite`. Without total_tests, the total is
 * the full run's test count and the selected count those of them it names.
 * The run's own total_tests and selected_count, when they say it selected
 * fewer, win; a full run without a stored test list changes nothing.
 * *out is NULL when the shadow run reads as stored, else a new run_info
 * (free with run_info_free). map: the id-map (NULL: none). -1 after error().
 */
int pair_answer(struct store *s, const struct idmap *map, const struct run_info *shadow,
		const struct run_info *full, struct run_info **out);
/* Free a run_info pair_answer made (NULL is fine). */
void run_info_free(struct run_info *r);

/* The shadow run's selection as an id set (run_all: everything). -1 after error(). */
int selection_idset(struct store *s, const struct idmap *map,
		    const struct run_info *shadow, struct idset *out);
/* idset_add of every entry of l. */
void idset_add_list(struct idset *set, const struct idmap *map, const struct strlist *l);
/*
 * A selection entry into set: by its key where it has one (NULL: none;
 * core/query.h's selection_entries), which no rule rewrites again, else
 * through map.
 */
void idset_add_keyed(struct idset *set, const struct idmap *map, const char *entry,
		     const char *key);
/* A run's quarantine list (core/query.h) into set: map rewrites its lines, not its keys. */
void idset_add_quarantine(struct idset *set, const struct idmap *map,
			  const struct quarantine_list *q);

/*
 * How many of a narrowed shadow run's selection entries select no test,
 * read with the id-map in force (map; NULL: none) rather than the one
 * ingest matched them with: of the entries ingest found selecting none of
 * the tests the shadow run reported (`stored` of them), those that through
 * map select none of the tests its head's full run ran either (full_id:
 * that run, 0: none). An id-map that joins the entries a selector names
 * to the reports' names then counts at once, without an ingest. Into
 * *out; 0 when told, 1 when it cannot be (no full run, or none with a
 * stored test list, or the entries were not stored): *out is then
 * `stored`. An entry that ingest matched is not read again. -1 after
 * error().
 */
int selection_unmatched_now(struct store *s, const struct idmap *map, int64_t shadow_id,
			    int64_t full_id, int64_t stored, int64_t *out);
/*
 * The store's identity figures (query_status) with every selection's
 * entries that select no test told again by selection_unmatched_now.
 * -1 after error().
 */
int identity_unmatched_now(struct store *s, const struct idmap *map,
			   struct identity_figures *f);

#endif
