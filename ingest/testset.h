/*
 * What ingest keeps of a run's test cases beyond its failures (issue 16):
 * for each failing case, a digest of its failure and an excerpt of its
 * text (the verifier check); for each full run, the tests it ran, stored as
 * one group per suite (the blind spots). core/store.c's schema 5 says how.
 */
#ifndef TIADASH_INGEST_TESTSET_H
#define TIADASH_INGEST_TESTSET_H

#include "core/tiadash.h"
#include "core/store.h"
#include "core/strmap.h"

/*
 * The digest of a failure: its message and the first FAILURE_DIGEST_LINES
 * non-blank lines of its text, each with runs of white space made one
 * space and hexadecimal addresses (0x and four or more hex digits) masked,
 * so the same assertion failing twice gives the same digest and a
 * different actual value a different one. 16 hex digits and a NUL.
 */
#define FAILURE_DIGEST_LINES 3
void failure_digest(const char *message, const char *text, char out[17]);
/* The message, a newline and the text, cut at FAILURE_EXCERPT_MAX bytes; caller frees. */
#define FAILURE_EXCERPT_MAX 4096
char *failure_excerpt(const char *message, const char *text);
/* The excerpts one run keeps at most (bytes); later failures keep their digest only. */
#define FAILURE_EXCERPT_BUDGET (4u << 20)

/*
 * The cases a run ran (skipped ones left out), by suite, in bounded memory:
 * reports list a suite's cases together, so each suite is sorted and
 * front-coded when the next one starts (a suite seen again later is
 * merged into its list), and only the encoded lists stay. Past
 * TESTSET_MAX_BYTES of them the run's list is dropped (`dropped`): a
 * report that large keeps its failures, not its test list.
 */
#define TESTSET_MAX_BYTES (32u << 20)
struct testset_suite {
	char *suite;
	struct strbuf cases; /* store_strings_encode of its sorted cases */
};
struct testset {
	struct strmap index;         /* suite -> index into suites */
	struct testset_suite *suites;
	size_t nr, alloc;
	int64_t open;                /* the suite being read (-1: none) */
	/*
	 * Its cases, NUL-terminated one after the other in open_names
	 * (open_bytes long), where open_at says each one starts: one buffer,
	 * not an allocation per case of a 10^6-case report.
	 */
	struct strbuf open_names;
	size_t *open_at, nr_open, alloc_open;
	size_t bytes, open_bytes;
	bool dropped;
};
#define TESTSET_INIT { STRMAP_INIT, NULL, 0, 0, -1, STRBUF_INIT, NULL, 0, 0, 0, 0, false }
void testset_init(struct testset *t);
void testset_add(struct testset *t, const char *suite, const char *name);
void testset_release(struct testset *t);

/*
 * Write the run's tests: each suite's case set as a test_group row of repo
 * (reused when stored, its first_at lowered to started_at when earlier),
 * and the run's sorted group ids in run_tests. In the caller's
 * transaction; -1 after store_error. Nothing when t was dropped.
 */
int testset_write(struct store *s, const char *repo, int64_t started_at,
		  int64_t run_id, struct testset *t);

#endif
