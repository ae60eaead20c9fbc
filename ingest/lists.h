/*
 * Plain lists: `.mq-failed-tests.txt`, `.mq/quarantine.txt`, selection lists
 * (codebase-memory-mcp's test-only.txt): one entry per line, surrounding
 * blanks trimmed, blank lines and `#` comment lines skipped.
 */
#ifndef TIADASH_INGEST_LISTS_H
#define TIADASH_INGEST_LISTS_H

#include "core/tiadash.h"
#include "core/input.h"

/*
 * Append every entry to out; -1 after error() naming `input:line`. A JSON
 * document (a selector's own output given as a list) is refused at its
 * first line, not read as entries `[`, `{`, `"name": ...`.
 */
int list_parse(struct input *in, struct strlist *out);
/* The same for a selection list: the message says how to give a selector's output. */
int list_parse_selection(struct input *in, struct strlist *out);

#endif
