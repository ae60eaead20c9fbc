/* A fast two-lane 64-bit streaming checksum (chunking does not change it). */
#include "core/tiadash.h"
#include "core/digest.h"

#define P1 0x9e3779b97f4a7c15ULL
#define P2 0xc2b2ae3d27d4eb4fULL

static uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static void eat_word(struct digest *d, uint64_t w)
{
	d->a = rotl(d->a ^ (w * P1), 31) * P2;
	d->b = rotl(d->b + w, 27) * P1 + 0x52dce729;
}

void digest_init(struct digest *d)
{
	memset(d, 0, sizeof(*d));
	d->a = P2;
	d->b = P1;
}

void digest_add(struct digest *d, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w;

	d->total += len;
	while (d->fill && len) {
		d->tail[d->fill++] = *p++;
		len--;
		if (d->fill == 8) {
			memcpy(&w, d->tail, 8);
			eat_word(d, w);
			d->fill = 0;
		}
	}
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		eat_word(d, w);
	}
	memcpy(d->tail, p, len);
	d->fill = len;
}

void digest_boundary(struct digest *d)
{
	uint64_t w = 0;

	memcpy(&w, d->tail, d->fill);
	eat_word(d, w ^ ((uint64_t)d->fill << 56) ^ d->total);
	eat_word(d, 0x626f756e64617279ULL);
	d->fill = 0;
}

void digest_hex(const struct digest *d, char out[33])
{
	struct digest copy = *d;

	digest_boundary(&copy);
	snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, mix(copy.a ^ copy.total),
		 mix(copy.b + rotl(copy.a, 17)));
}
