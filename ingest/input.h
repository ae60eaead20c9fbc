/*
 * An input of an ingest: a file on disk or a body already in memory (an HTTP
 * download), named for messages by its path or URL. Parsers read inputs in
 * chunks, so a report of any size streams in bounded memory, and every read
 * also computes the input's digest (for idempotent re-ingest).
 */
#ifndef TIADASH_INGEST_INPUT_H
#define TIADASH_INGEST_INPUT_H

#include "core/tiadash.h"
#include "core/digest.h"
#include "core/util.h"

struct input {
	char *name;     /* path or URL, for messages */
	char *path;     /* file to read, or NULL when data is set */
	char *data;     /* in-memory body (owned), or NULL */
	size_t len;
	struct digest digest;  /* of the bytes of the last complete read */
};


/* Initialise for a file; name defaults to the path. */
void input_from_file(struct input *in, const char *path);
/* Initialise from a body the input takes ownership of. */
void input_from_memory(struct input *in, const char *name, char *data, size_t len);
void input_release(struct input *in);

/*
 * Call fn with successive chunks (the last call has last == true, possibly
 * with len 0). Stops at fn's first non-zero return and returns it; -1 after
 * error() when reading fails.
 */
typedef int (*chunk_fn)(const char *buf, size_t len, bool last, void *data);
int input_read_chunks(struct input *in, chunk_fn fn, void *data);

/* Read the whole input into sb, refusing more than limit bytes. */
int input_read_all(struct input *in, struct strbuf *sb, size_t limit);

/*
 * Call fn for each line (without its newline; a CR before it is dropped too),
 * numbered from 1. Lines longer than INPUT_LIST_LINE_LIMIT and NUL bytes
 * (binary data) are errors naming `input:line`.
 */
typedef int (*line_fn)(char *line, size_t len, int lineno, void *data);
int input_read_lines(struct input *in, line_fn fn, void *data);

/* Caps on what tiadash reads into memory at once (streamed formats have none). */
#define INPUT_JSON_LIMIT (512u << 20)
#define INPUT_LIST_LINE_LIMIT (1u << 20)

#endif
