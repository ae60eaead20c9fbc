/*
 * A string-keyed hash map with open addressing. Keys are copied; values are
 * 64-bit integers (ids, counts, or indexes into the caller's arrays).
 */
#ifndef TIADASH_CORE_STRMAP_H
#define TIADASH_CORE_STRMAP_H

#include "core/tiadash.h"

struct strmap_entry {
	char *key; /* NULL: empty slot */
	size_t keylen;
	uint64_t hash;
	int64_t value;
};

struct strmap {
	struct strmap_entry *slots;
	size_t nr, cap; /* cap is 0 or a power of two */
};
#define STRMAP_INIT { NULL, 0, 0 }

uint64_t strhash(const char *s, size_t len);

/* Slot of key or NULL. */
struct strmap_entry *strmap_find(const struct strmap *m, const char *key, size_t len);
bool strmap_get(const struct strmap *m, const char *key, int64_t *value);
bool strmap_has(const struct strmap *m, const char *key);
/* Insert or overwrite; returns the entry (valid until the next insert). */
struct strmap_entry *strmap_put(struct strmap *m, const char *key, size_t len, int64_t value);
/* Insert if absent; *added says whether it was. Returns the entry. */
struct strmap_entry *strmap_intern(struct strmap *m, const char *key, size_t len,
				   int64_t value, bool *added);
void strmap_clear(struct strmap *m);
/* Iterate: for (size_t i = 0; i < m.cap; i++) if (m.slots[i].key) ... */

#endif
