/*
 * JUnit XML, streamed with expat: any common producer's dialect (testsuites
 * root or a bare testsuite, nested suites, flaky and rerun elements, CDATA).
 *
 * Every <testcase> anywhere in the tree is one test. Its suite key is its
 * `file` attribute, else its `classname`, else the nearest enclosing
 * testsuite's `file`, else that testsuite's `name`. Its outcome comes from
 * its direct children: <failure> failed, else <error> error, else
 * flakyFailure/flakyError/rerunFailure/rerunError flaky (it passed on a
 * rerun), else <skipped> skipped, else passed. Declared counts (tests=...)
 * are ignored: producers get them wrong.
 */
#ifndef TIADASH_INGEST_JUNIT_H
#define TIADASH_INGEST_JUNIT_H

#include "core/tiadash.h"
#include "core/input.h"

enum junit_outcome {
	JUNIT_PASSED,
	JUNIT_FAILED,
	JUNIT_ERROR,
	JUNIT_FLAKY,
	JUNIT_SKIPPED,
};

/* How much of a failure's text a case carries (the rest is not kept). */
#define JUNIT_TEXT_MAX 4096

struct junit_case {
	const char *suite;
	const char *name;
	enum junit_outcome outcome;
	/*
	 * Failed and errored cases: the first <failure> or <error>'s message
	 * attribute and its text (CDATA and nested elements included), at most
	 * JUNIT_TEXT_MAX bytes; NULL otherwise.
	 */
	const char *message, *text;
	/*
	 * Where suite came from, for resolving it (core/identity.h): the
	 * case's `file` and `classname` attributes and the enclosing
	 * testsuite's `file`, else its `name` ("" when absent).
	 */
	const char *file, *classname, *suite_key;
};

struct junit_stats {
	int64_t tests, failed, errors, flaky, skipped;
};

/* Called per test case; non-zero stops the parse and is returned. */
typedef int (*junit_case_fn)(const struct junit_case *c, void *data);

/*
 * Parse a JUnit report, adding its counts to *stats. Returns 0, the
 * callback's non-zero value, or -1 after error() naming `input:line`.
 */
int junit_parse(struct input *in, junit_case_fn fn, void *data,
		struct junit_stats *stats);

/* Does this look like a JUnit report (root <testsuites> or <testsuite>)? */
bool junit_sniff(const char *head, size_t len);

#endif
