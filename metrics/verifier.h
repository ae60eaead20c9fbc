/*
 * The verifier check (seed 003: "two checks before you accept a green
 * subset"). A PR's shadow attempts across its heads (a push: one head's
 * attempts), in the order they started, errored attempts left out. A test
 * that failed with the same failure digest (ingest/testset.h) in two or
 * more consecutive attempts, where the next attempt went green (verdict
 * pass), is flagged when the change between the last failing attempt's
 * head and the green one
 *   - is not empty (a rerun of the same commit is a flake, not a fix),
 *   - touches only tests, fixtures or config (the globs below), and
 *   - touches none of the files the failure's text names, other than test
 *     files (a fixture or config the failure points at is the code path
 *     under test, not the verifier).
 * The change is the three-dot diff between the two heads read from git
 * when the repository has both commits; else the difference between the
 * heads' stored diffs (paths whose status or added lines differ), which
 * misses an edit that keeps the same added line numbers.
 *
 *   tests     the failing test's suite key; test/, tests/, __tests__/,
 *             spec/ at any depth; test_*.*, *_test.*, *.test.*, *.spec.*,
 *             *Test.java, *Tests.java, *Test.kt, *_spec.rb, conftest.py
 *   fixtures  fixtures/, __fixtures__/, testdata/, __snapshots__/, *.snap
 *   config    *.toml, *.ini, *.cfg, *.conf, *.yaml, *.yml, *.json, *.xml,
 *             *.properties, .env*; but lockfiles are code (they change
 *             what runs)
 */
#ifndef TIADASH_METRICS_VERIFIER_H
#define TIADASH_METRICS_VERIFIER_H

#include "core/tiadash.h"
#include "core/query.h"
#include "metrics/metrics.h"

struct repo_later;
struct glob_set;

/* One shadow attempt: a run of one of the PR's heads. */
struct verifier_attempt {
	size_t row;          /* the caller's index of the head */
	int64_t run_id, diff_id, started_at;
	/*
	 * The head's commit, the caller's string: set before verifier_check
	 * (a report's 10^5 heads keep it once, in their rows).
	 */
	const char *sha;
	int attempt;
	enum verdict verdict;
};

/* Append the shadow runs of head p (the caller's index `row`) to *att, sha NULL. */
void verifier_add_head(struct verifier_attempt **att, size_t *nr, size_t *alloc,
		       const struct pair_info *p, size_t row);

struct verifier {
	struct store *store;
	struct repo_later *repo; /* opened at the first diff; NULL: stored diffs only */
	struct glob_set *globs;
	struct metrics_verifier *found;
	size_t nr, alloc;
};

/* -1 after error() (the globs did not compile). */
int verifier_init(struct verifier *v, struct store *s, struct repo_later *repo);
/*
 * Check the attempts of one PR (sorted here) and append what is flagged to
 * v->found (row set from the green attempt's). -1 after error().
 */
int verifier_check(struct verifier *v, struct verifier_attempt *att, size_t nr);
/* Frees the globs; v->found is the caller's (metrics_verifier_release each). */
void verifier_release(struct verifier *v);

#endif
