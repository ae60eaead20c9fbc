/*
 * The class of a pair (SPEC 4): one head's shadow and full runs compared.
 * Latest attempt of each kind decides. In this order:
 *
 *   incomplete    no shadow or no full run; a latest attempt that errored
 *                 (`error` verdict); a commit unknown to the repository
 *   escape        shadow passed, the full run has real failing tests
 *                 (failed or errored, not flaky, not quarantined) and at
 *                 least one of them was not selected (the missed tests),
 *                 or was selected but not run: only entries that named no
 *                 test the shadow run reported select it (not_run)
 *   non-hermetic  shadow passed, the full run has real failing tests and
 *                 every one of them was selected (and, as far as the
 *                 shadow run's results tell, ran and passed there)
 *   flaky         no real failure, and a flake decided the verdicts: a
 *                 full attempt failed and a rerun of the same head passed,
 *                 or the shadow run failed only on tests the full run
 *                 showed flaky (an in-run rerun, an earlier attempt). A
 *                 shadow failure no flake explains stays over-strict;
 *                 in-run reruns while both gates passed leave it agree
 *   main          not a pair: a head whose only runs are full runs that
 *                 name no PR, on a commit of main's first-parent line (a
 *                 run of main, main's record)
 *   inherited     the full run's real failures all failed in the run of
 *                 main that covers the pair too (the run on its fork
 *                 point, or on the nearest first-parent ancestor of it that
 *                 main ran): main was red before the change
 *   unresolved    shadow passed, no real failure is a missed test, and
 *                 one of them names nothing the tree (at a head the
 *                 repository has), a declared suite or the selection ties
 *                 to a test: whether the selector missed it cannot be
 *                 told. Not an escape; counted beside them, with the names
 *   escape        ...
 *   over-strict   shadow failed, the full run passed
 *   agree         everything else (both pass, both fail, or the full run
 *                 failed only on quarantined tests)
 *
 * A real failure main already had is inherited, never missed: the rest
 * decide. Escapes (counts and rates) are the pairs of class escape or
 * non-hermetic. When both runs failed, the full run's real failures that
 * the selection did not name are latent misses: the gate held, the
 * selector missed them all the same.
 *
 * A complete pair also settles what its narrowed shadow run answered, from
 * the full run's stored test list (pair_verdict.answer): decided here, so it
 * holds whichever run was ingested first.
 */
#ifndef TIADASH_METRICS_CLASSIFY_H
#define TIADASH_METRICS_CLASSIFY_H

#include "core/tiadash.h"
#include "core/answer.h"
#include "core/idmatch.h"
#include "core/query.h"

enum pair_class {
	CLASS_AGREE,
	CLASS_ESCAPE,
	CLASS_NON_HERMETIC,
	CLASS_FLAKY,
	CLASS_OVER_STRICT,
	CLASS_INCOMPLETE,
	CLASS_INHERITED,
	CLASS_UNRESOLVED,
	CLASS_MAIN, /* not a pair: a run of main */
};
#define NR_CLASSES 9
/* The classes of pairs (every class but main), for counts and tables. */
#define NR_PAIR_CLASSES CLASS_MAIN

const char *pair_class_name(enum pair_class c);
bool pair_class_is_escape(enum pair_class c);

struct pair_verdict {
	enum pair_class cls;
	/*
	 * Latest attempts, borrowed; shadow points at answer when the pair
	 * changed how its selection reads.
	 */
	const struct run_info *shadow, *full;
	/*
	 * Owned, NULL when the shadow run reads as stored: a narrowed run as
	 * its pair answers it. A selection naming every test the full run ran
	 * is decision run_all, reason `whole-suite`; without total_tests, its
	 * total is the full run's test count and its selected count those of
	 * them it names.
	 */
	struct run_info *answer;
	const char *why;                      /* incomplete: the reason */
	struct strlist missed;       /* real failing tests not selected */
	struct strlist non_hermetic; /* real failing tests that were selected (and ran) */
	struct strlist not_run;      /* selected, but not in the shadow run's results */
	struct strlist flaky;        /* tests that passed on a rerun */
	struct strlist quarantined;  /* failing tests on the quarantine list */
	struct strlist inherited;    /* real failing tests main was red on too */
	struct strlist latent;       /* both failed: real failing tests not selected */
	/*
	 * The run of main that covers the pair, looked up when its full run
	 * has failures; an escape without one rests on a base nobody ran.
	 */
	struct main_cover cover;
	/*
	 * The full run's failing tests whose suite key resolved to a path or
	 * is a suite name, and the ids of those that did not (sorted), read
	 * when the pair is classified and its full run has failures.
	 */
	int64_t failing, resolved, by_name;
	struct strlist unresolved;
	/*
	 * The shadow run's selection entries that select no test, read with
	 * the id-map the pair is classified with (selection_unmatched_now in
	 * core/answer.h); as stored when that cannot be told.
	 */
	int64_t entries_unmatched;
};
void pair_verdict_release(struct pair_verdict *v);

/*
 * Classify p (runs and failures read from s). map is the id-map applied to
 * selection and quarantine entries (NULL: none). -1 after error().
 */
int classify_pair(struct store *s, const struct idmap *map,
		  const struct pair_info *p, struct pair_verdict *out);
/* The same with the quarantine lists from q (a pass's, read once) instead of queries. */
int classify_pair_with(struct store *s, const struct idmap *map,
		       const struct quarantine_index *q, const struct pair_info *p,
		       struct pair_verdict *out);

/*
 * Why no selection entry named each missed test of an escape (SPEC 3.3),
 * one sentence per test of v->missed, in its order, into why: the suite key
 * that did not resolve to a path, the empty selection, the entries that
 * name other cases of the same file, or the nearest entry. map as for
 * classify_pair. -1 after error().
 */
int explain_missed(struct store *s, const struct idmap *map, const struct pair_verdict *v,
		   struct strlist *why);


/* Diff coverage of a run: executed / executable changed lines, or NAN. */
double run_diff_coverage(const struct run_info *r);
/* Affected fraction of a shadow run (run_all 1, nothing 0), or NAN. */
double run_affected_fraction(const struct run_info *r);

#endif
