/*
 * Blind spots (SPEC 4): the tests that ran in the window's full runs that
 * no narrowed shadow selection of the window named. "Named" is the one
 * matching rule of SPEC 3.3 (idset_selects: by id, by suite, by directory
 * prefix, after the id-map); "narrowed" are the shadow runs, every attempt,
 * whose decision is `selected` (run_all names nothing in particular). The
 * tests that ran are the stored test lists of the window's full runs
 * (every attempt; skipped cases left out) and their real failures.
 *
 *   never_selected  tests no narrowed selection named
 *   failed_in_full  of those, the ones that failed in a full run
 *   new tests       tests of the lists first run in the window: no test
 *                   group holding them started before `since`, nor was
 *                   one of the repo's earliest full run (the baseline, so
 *                   a store whose history starts in the window still has
 *                   old tests); and whether a narrowed selection named them
 *
 * Without any full run with a stored test list (reports not given, or a
 * store older than schema 5) the figures are unknown (null).
 */
#ifndef TIADASH_METRICS_BLIND_H
#define TIADASH_METRICS_BLIND_H

#include "core/tiadash.h"
#include "core/blindday.h"
#include "core/idmatch.h"
#include "core/query.h"
#include "metrics/metrics.h"

/*
 * The union of the narrowed selections of window w's runs (entries after
 * the id-map) into out, and the rest of what the blind spots read of them
 * into in (blind_gather; in->narrowed counts the selections). -1 after
 * error().
 */
int blind_selected_union(struct store *s, const struct idmap *map, const struct window *w,
			 struct idset *out, struct blind_input *in);

/*
 * The blind spots of window w, given what blind_selected_union gathered.
 * Fills out (release with blind_release) but for full_runs and
 * narrowed_runs, which the caller counts.
 */
int blind_compute(struct store *s, const struct window *w, const struct blind_input *in,
		  const struct idset *selected, struct metrics_blind *out);
void blind_release(struct metrics_blind *b);

/*
 * The test files of the blind spots, for `propose`: each suite key that is
 * a file path (a '/' in it, or a source file's extension) with how many
 * of its tests no narrowed selection named and how many of those failed
 * in full, and the always-run rule that closes it: "select ** FILE",
 * appended last to a tiadash rules file (every path no earlier rule
 * decides then selects the file). Ranked: failed first, then most tests.
 */
struct blind_file {
	char *suite, *rule;
	int64_t tests, failed;
};
void blind_files(const struct metrics_blind *b, struct blind_file **out, size_t *nr);
void blind_files_release(struct blind_file *f, size_t nr);

/* Is the test with this id (SUITE::CASE) named by selected? */
bool blind_id_selected(const struct idset *selected, const char *id);

#endif
