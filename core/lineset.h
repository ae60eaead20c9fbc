/*
 * A sorted set of line numbers, stored in the database as compact ranges
 * ("3-7,10,15-20"). Used for a diff's added lines and for coverage.
 */
#ifndef TIADASH_CORE_LINESET_H
#define TIADASH_CORE_LINESET_H

#include "core/tiadash.h"
#include "core/util.h"

struct lineset {
	uint32_t *v;
	size_t nr, alloc;
};
#define LINESET_INIT { NULL, 0, 0 }

/* Add a line; keeps the set sorted and unique (appends are O(1)). */
void lineset_add(struct lineset *s, uint32_t line);
bool lineset_has(const struct lineset *s, uint32_t line);
void lineset_release(struct lineset *s);
/* Append the ranges form to sb. */
void lineset_format(const struct lineset *s, struct strbuf *sb);
/*
 * Parse the ranges form, ascending as lineset_format writes it; false on
 * junk, on ranges out of order, and past 2^24 lines.
 */
bool lineset_parse(struct lineset *s, const char *text);

#endif
