/*
 * Per-test records (`tiadash tests`): per test id over a window's pairs,
 * how often its full runs ran it, the selections named it, it failed, was
 * missed, inherited from a red main, passed on a rerun or was quarantined;
 * one test's history; and the quarantined tests that stayed green long
 * enough to unquarantine.
 */
#ifndef TIADASH_METRICS_TESTREC_H
#define TIADASH_METRICS_TESTREC_H

#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/query.h"

/* The unquarantine candidates' green window when none is asked for (days). */
#define TEST_RECORDS_GREEN_DAYS 14
#define TEST_RECORDS_MAX_GREEN_DAYS 3650

struct test_record {
	char *id; /* SUITE::CASE */
	int64_t ran, selected, failed, escaped, inherited, flaky, quarantined;
	int64_t first_at, last_at; /* window times of the first and last pair (ms) */
	int64_t green_ran, green_bad; /* in the last green_days: runs, and failures or flakes */
};

/* One pair in a test's history. */
struct test_event {
	int64_t at, pr;
	bool has_pr, selected;
	char sha[41];
	const char *class_name; /* static */
	const char *outcome;    /* static: passed, failed, missed, inherited, quarantined, flaky */
};

struct test_records {
	struct test_record *items; /* sorted: most escaped, most failed, then by id */
	size_t nr, alloc;
	int64_t pairs;             /* pairs read (runs of main are not pairs) */
	int64_t full_runs;         /* full runs read: the pairs' and those of heads
				    * without a shadow run (RAN counts them all) */
	int green_days;
	int64_t green_since;       /* the green window's start (ms) */
	struct quarantine_list quarantine; /* the newest quarantine list of the window */
	struct strlist unquarantine; /* quarantined tests green in every run since green_since */
	/* With a test id asked for: its history, in window order. */
	struct test_event *history;
	size_t nr_history, alloc_history;
};

/*
 * The records of window w's pairs (id-map map, NULL: none); green_days
 * counts back from until (the window's end, else now) for the
 * unquarantine candidates; only_id, when not NULL, also fills the history
 * of that test. -1 after error(); out is always safe to release.
 */
int test_records_compute(struct store *s, const struct window *w, const struct idmap *map,
			 int green_days, int64_t now, const char *only_id,
			 struct test_records *out);
void test_records_release(struct test_records *r);

/* "3 tests over 295 pairs", and " (296 full runs)" when those differ. */
void test_records_span(struct strbuf *sb, const struct test_records *r);

#endif
