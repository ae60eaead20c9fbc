/* Sorted line-number sets and their "1-5,9" text form. */
#include "core/tiadash.h"
#include "core/lineset.h"

static size_t lower_bound(const struct lineset *s, uint32_t line)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void lineset_add(struct lineset *s, uint32_t line)
{
	size_t at;

	if (s->nr && s->v[s->nr - 1] < line) {
		at = s->nr;
	} else {
		at = lower_bound(s, line);
		if (at < s->nr && s->v[at] == line)
			return;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	memmove(s->v + at + 1, s->v + at, (s->nr - at) * sizeof(*s->v));
	s->v[at] = line;
	s->nr++;
}

bool lineset_has(const struct lineset *s, uint32_t line)
{
	size_t at = lower_bound(s, line);

	return at < s->nr && s->v[at] == line;
}

void lineset_release(struct lineset *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

void lineset_format(const struct lineset *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->nr;) {
		size_t j = i;

		while (j + 1 < s->nr && s->v[j + 1] == s->v[j] + 1)
			j++;
		if (i)
			strbuf_addch(sb, ',');
		if (j == i)
			strbuf_addf(sb, "%u", s->v[i]);
		else
			strbuf_addf(sb, "%u-%u", s->v[i], s->v[j]);
		i = j + 1;
	}
}

static bool parse_u32(const char **p, uint32_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (uint64_t)(*s++ - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	*p = s;
	return true;
}

/*
 * Hardening (issue 7, fuzz_lineset): a text that lineset_format did not
 * write ("1-4294967295", or ranges out of order, each insert a memmove)
 * cost minutes and gigabytes. Ranges must ascend without overlap, as
 * lineset_format writes them, and one text holds at most this many lines.
 */
#define LINESET_PARSE_MAX (UINT32_C(1) << 24)

bool lineset_parse(struct lineset *s, const char *text)
{
	const char *p = text;
	uint64_t total = 0, next = 0; /* lowest line the next range may start at */

	while (*p) {
		uint32_t a, b;

		if (!parse_u32(&p, &a))
			return false;
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_u32(&p, &b) || b < a)
				return false;
		}
		if (a < next)
			return false;
		next = (uint64_t)b + 1;
		total += (uint64_t)b - a + 1;
		if (total > LINESET_PARSE_MAX)
			return false;
		for (uint64_t l = a; l <= b; l++)
			lineset_add(s, (uint32_t)l);
		if (*p == ',')
			p++;
		else if (*p)
			return false;
	}
	return true;
}
