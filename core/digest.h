/*
 * A streaming 128-bit checksum of a source's bytes, so re-ingesting the same
 * artifacts is recognised whatever their location (folder, copy, URL). It
 * identifies content for idempotence; it is not a cryptographic hash.
 */
#ifndef TIADASH_CORE_DIGEST_H
#define TIADASH_CORE_DIGEST_H

#include "core/tiadash.h"

struct digest {
	uint64_t a, b, total;
	unsigned char tail[8];
	size_t fill;
};

void digest_init(struct digest *d);
void digest_add(struct digest *d, const void *data, size_t len);
/* Mark a boundary between two inputs (so "ab"+"c" differs from "a"+"bc"). */
void digest_boundary(struct digest *d);
/* 32 hex digits of the digest so far (d is not changed). */
void digest_hex(const struct digest *d, char out[33]);

#endif
