/*
 * The cache blobs' encoding (the pair cache's rows, the metrics pass's
 * facts): zigzag varints, doubles as their 8 bytes, strings after their
 * length. A reader never reads past its end: a truncated or overlong value
 * sets bad and reads as 0 (or NULL), and the caller reports the blob corrupt.
 */
#ifndef TIADASH_CORE_BLOB_H
#define TIADASH_CORE_BLOB_H

#include "core/tiadash.h"
#include "core/util.h"

void blob_put_u(struct strbuf *out, uint64_t v);
void blob_put_i(struct strbuf *out, int64_t v);
void blob_put_double(struct strbuf *out, double d);
void blob_put_str(struct strbuf *out, const char *s);

struct blob_reader {
	const unsigned char *p, *end;
	bool bad;
};
#define BLOB_READER(data, len) { (const unsigned char *)(data), \
	(const unsigned char *)(data) + (len), false }

uint64_t blob_get_u_long(struct blob_reader *r);

/* Most values fit one byte: those without the loop. */
static inline uint64_t blob_get_u(struct blob_reader *r)
{
	if (!r->bad && r->p < r->end && !(*r->p & 0x80))
		return *r->p++;
	return blob_get_u_long(r);
}

static inline int64_t blob_get_i(struct blob_reader *r)
{
	uint64_t u = blob_get_u(r);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* n zigzag varints into v, with the cursor in locals (the pass decodes 10^6 a second). */
void blob_get_ints(struct blob_reader *r, int64_t *v, size_t n);
double blob_get_double(struct blob_reader *r);
/* A string, allocated (caller frees), or NULL (r->bad) when it runs past the end. */
char *blob_get_str(struct blob_reader *r);
/* A string of at most 40 bytes into dst (a longer one is corrupt). */
void blob_get_sha(struct blob_reader *r, char dst[41]);
/* v, a value read, as an enum below n, or 0 (r->bad) when out of range. */
int blob_enum(struct blob_reader *r, int64_t v, int64_t n);
/* Past n varints, or past a string. */
void blob_skip_ints(struct blob_reader *r, size_t n);
void blob_skip_str(struct blob_reader *r);
/* Was all of it read, and well? */
static inline bool blob_done(const struct blob_reader *r)
{
	return !r->bad && r->p == r->end;
}

#endif
