/* The cache blobs' varints, doubles and strings, written and read back with bounds checked. */
#include "core/tiadash.h"
#include "core/blob.h"

void blob_put_u(struct strbuf *out, uint64_t v)
{
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		strbuf_addch(out, byte | (v ? 0x80 : 0));
	} while (v);
}

void blob_put_i(struct strbuf *out, int64_t v)
{
	blob_put_u(out, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void blob_put_double(struct strbuf *out, double d)
{
	strbuf_add(out, &d, sizeof(d));
}

void blob_put_str(struct strbuf *out, const char *s)
{
	size_t n = strlen(s);

	blob_put_u(out, n);
	strbuf_add(out, s, n);
}

uint64_t blob_get_u_long(struct blob_reader *r)
{
	uint64_t v = 0;

	for (int shift = 0; !r->bad; shift += 7) {
		if (r->p == r->end || shift > 63) {
			r->bad = true;
			break;
		}
		v |= (uint64_t)(*r->p & 0x7f) << shift;
		if (!(*r->p++ & 0x80))
			return v;
	}
	return 0;
}

/* A varint of two bytes or more at *p (0 and *bad at a truncated or overlong one). */
static uint64_t get_u_slow(const unsigned char **p, const unsigned char *end, bool *bad)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift <= 63; shift += 7) {
		unsigned char byte = *(*p)++;

		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80))
			return v;
	}
	*bad = true;
	*p = end;
	return 0;
}

void blob_get_ints(struct blob_reader *r, int64_t *v, size_t n)
{
	const unsigned char *p = r->p, *end = r->end;
	bool bad = r->bad;

	for (size_t i = 0; i < n; i++) {
		uint64_t u = p < end && *p < 0x80 ? *p++ : get_u_slow(&p, end, &bad);

		v[i] = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
	}
	r->p = p;
	r->bad = bad;
}

double blob_get_double(struct blob_reader *r)
{
	double d = 0;

	if (r->bad || (size_t)(r->end - r->p) < sizeof(d)) {
		r->bad = true;
		return 0;
	}
	memcpy(&d, r->p, sizeof(d));
	r->p += sizeof(d);
	return d;
}

char *blob_get_str(struct blob_reader *r)
{
	uint64_t n = blob_get_u(r);

	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return xstrndup((const char *)r->p - n, (size_t)n);
}

void blob_get_sha(struct blob_reader *r, char dst[41])
{
	uint64_t n = blob_get_u(r);

	if (r->bad || n > 40 || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		n = 0;
	}
	memcpy(dst, r->p, (size_t)n);
	dst[n] = '\0';
	r->p += n;
}

int blob_enum(struct blob_reader *r, int64_t v, int64_t n)
{
	if (v < 0 || v >= n) {
		r->bad = true;
		return 0;
	}
	return (int)v;
}

void blob_skip_ints(struct blob_reader *r, size_t n)
{
	const unsigned char *p = r->p;

	while (n && p < r->end)
		n -= !(*p++ & 0x80);
	r->bad |= n > 0;
	r->p = p;
}

void blob_skip_str(struct blob_reader *r)
{
	uint64_t n = blob_get_u(r);

	if (r->bad || n > (uint64_t)(r->end - r->p))
		r->bad = true;
	else
		r->p += n;
}
