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

#endif
