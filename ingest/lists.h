/*
 * Plain lists: `.mq-failed-tests.txt`, `.mq/quarantine.txt`, selection lists
 * (codebase-memory-mcp's test-only.txt): one entry per line, surrounding
 * blanks trimmed, blank lines and `#` comment lines skipped.
 */
#ifndef TIADASH_INGEST_LISTS_H
#define TIADASH_INGEST_LISTS_H

#include "core/tiadash.h"
#include "ingest/input.h"

/* Append every entry to out; -1 after error() naming `input:line`. */
int list_parse(struct input *in, struct strlist *out);

#endif
