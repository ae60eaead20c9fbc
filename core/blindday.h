/*
 * The blind spots' day summaries (schema 10). What the blind spots
 * (metrics/blind.h) read of a window's runs is the entries of its narrowed
 * selections, the groups of its test lists and its full runs' real
 * failures: at 10^5 runs, three scans of 10^5 rows. blind_day keeps it per
 * UTC day of window time, for the runs of that day's heads in every
 * repository, so that a window of whole days reads a row a day. The pair
 * cache's rebuild lists in blind_stale the days of the heads it rebuilds
 * (their runs, selections, test lists or failures changed, whoever wrote
 * them); a reader rebuilds those days first. Like the pair cache, a
 * summary holds no figure of its own: the gathered input is the one the
 * tables give.
 */
#ifndef TIADASH_CORE_BLINDDAY_H
#define TIADASH_CORE_BLINDDAY_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/store.h"

/* A window's input to the blind spots, but for the selections' entries (streamed). */
struct blind_input {
	struct int_vec groups;   /* test_group ids of the runs' test lists; ascending, each once */
	struct int_vec failures; /* suite and case name ids of the full runs' real failures, pairs */
	int64_t narrowed;        /* narrowed selections read */
	int64_t listed;          /* runs with a stored test list */
	bool union_only;         /* the caller wants the entries alone (show): the
				    tables' test lists and failures are not read */
};
#define BLIND_INPUT_INIT { INT_VEC_INIT, INT_VEC_INIT, 0, 0, false }

/*
 * Gather window w's input into out (release with blind_input_release),
 * handing each entry of its narrowed selections to fn (borrowed; an entry
 * may come more than once). A window of every repository takes its whole
 * days from the summaries while the pair cache is fresh, after rebuilding
 * the stale ones when the write lock is free now; the rest, or all when
 * that cannot be, come from the tables. -1 after error().
 */
int blind_gather(struct store *s, const struct window *w, entry_fn fn, void *data,
		 struct blind_input *out);
void blind_input_release(struct blind_input *in);

#endif
