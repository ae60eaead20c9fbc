/*
 * An input of an ingest or an adapter's answer: a file on disk, a body in
 * memory, a download spilled to a temporary file, or any other stream (an
 * archive entry), named for messages by its path or URL. Parsers read
 * inputs as a stream (input_open/input_read, or in chunks or lines), so a
 * report of any size goes through in bounded memory; an input can be read
 * again from the start, and every read also computes the input's digest
 * (for idempotent re-ingest).
 */
#ifndef TIADASH_CORE_INPUT_H
#define TIADASH_CORE_INPUT_H

#include "core/tiadash.h"
#include "core/digest.h"
#include "core/util.h"

#include <sys/types.h>

/* A stream an input reads from, other than a file or memory. */
struct input_ops {
	/* Start a read at the first byte; -1 after error() naming `name`. */
	int (*open)(void *ctx, const char *name);
	/* Up to n bytes; 0 at the end; -1 after error() naming `name`. */
	ssize_t (*read)(void *ctx, char *buf, size_t n, const char *name);
	void (*close)(void *ctx);
	void (*free)(void *ctx);
};

struct input {
	char *name;     /* path or URL, for messages */
	char *path;     /* file to read, or NULL */
	bool no_follow; /* path is resolved already: never follow a link there */
	char *data;     /* in-memory body (owned), or NULL */
	size_t len;
	const struct input_ops *ops; /* another stream, or NULL */
	void *ctx;      /* its state (owned: ops->free) */
	struct digest digest;  /* of the bytes of the last complete read */
};

/* Initialise for a file; name defaults to the path. */
void input_from_file(struct input *in, const char *path);
/* Initialise from a body the input takes ownership of. */
void input_from_memory(struct input *in, const char *name, char *data, size_t len);
/* Initialise from a stream; the input owns ctx (ops->free). */
void input_from_stream(struct input *in, const char *name, const struct input_ops *ops,
		       void *ctx);
void input_release(struct input *in);

/* A read in progress (one at a time per input). */
struct input_reader {
	struct input *in;
	int fd;
	size_t pos;
};

/*
 * Open an input for reading from its first byte. A file must be a regular
 * file: a FIFO, a device or a directory is refused without blocking. -1
 * after error().
 */
int input_open(struct input *in, struct input_reader *r);
/* Read up to n bytes (fewer only at the end); 0 at the end, -1 after error(). */
ssize_t input_read(struct input_reader *r, char *buf, size_t n);
/*
 * Of a file input only (r->fd open): up to n bytes at off, fewer only at
 * the end, without moving the read or adding to the digest; -1 (errno)
 * otherwise. Safe beside input_read on another thread.
 */
ssize_t input_read_at(struct input_reader *r, char *buf, size_t n, uint64_t off);
void input_close(struct input_reader *r);

/* The first bytes of an input (up to size), for sniffing its format. */
int input_peek(struct input *in, char *head, size_t size, size_t *n);

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

/*
 * Downloads spilled to disk, so what a source's files hold never has to fit
 * in memory: a spill is an unlinked temporary file (in $TMPDIR, else /tmp)
 * that bodies are appended to, each body a list of byte ranges in it (the
 * transfers of one run write one spill, interleaved). Spills are shared by
 * reference count; the file goes away with the last reference.
 */
struct spill;
struct spill *spill_new(void);
struct spill *spill_ref(struct spill *sp);
void spill_unref(struct spill *sp);

struct spill_body {
	struct spill *sp;  /* a reference, or NULL while empty */
	struct spill_range { uint64_t off, len; } *ranges;
	size_t nr, alloc;
	uint64_t len;
};
#define SPILL_BODY_INIT { NULL, NULL, 0, 0, 0 }
/* Append bytes to a body in sp; -1 with errno when the disk write fails. */
int spill_body_add(struct spill_body *b, struct spill *sp, const char *buf, size_t len);
/* Forget the body (its bytes stay in the file until the spill goes). */
void spill_body_release(struct spill_body *b);
/* An input reading the body (the input takes it over: *b is emptied). */
void input_from_spill(struct input *in, const char *name, struct spill_body *b);
/* A second input reading the same bytes as `from` (a spilled input). */
void input_share_spill(struct input *in, const char *name, const struct input *from);
/*
 * The body's bytes as one range of a readable stdio stream (a body written
 * alone into its spill is one range): for libraries that read a FILE.
 * NULL (errno) when it is not one range or the stream cannot be made.
 */
FILE *spill_body_stream(const struct spill_body *b, uint64_t *off);

#endif
