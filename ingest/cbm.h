/*
 * codebase-memory-mcp's selection answer (`selection-engine.json`, schema
 * cbm.test_impact.v0), read the way that project's own CI consumer
 * (scripts/test-impact/selection.py `filter --lane unit`) reads it: the
 * lane's runner_filter lines are the selection when they agree with its
 * suites; anything it would not trust (a bad token, a filter that disagrees,
 * an unknown encoding, a missing lane) means everything runs. An unknown
 * schema or a shape other than the documented one is an input error.
 */
#ifndef TIADASH_INGEST_CBM_H
#define TIADASH_INGEST_CBM_H

#include "core/tiadash.h"
#include "core/query.h"
#include "ingest/input.h"

struct cbm_answer {
	enum decision decision;
	struct strlist reasons;
	struct strlist entries; /* suite and suite:test tokens */
	bool has_tests;
	int64_t tests;          /* totals.tests when not null */
};
#define CBM_ANSWER_INIT { DECISION_NONE, STRLIST_INIT, STRLIST_INIT, false, 0 }

/* Parse an answer for `lane` ("unit" by default). -1 after error(). */
int cbm_parse(struct input *in, const char *lane, struct cbm_answer *out);
int cbm_parse_text(const char *text, size_t len, const char *name,
		   const char *lane, struct cbm_answer *out);
void cbm_answer_release(struct cbm_answer *a);

/* Does this JSON text carry a cbm.test_impact schema? (For sniffing.) */
bool cbm_sniff(const char *head, size_t len);

#endif
