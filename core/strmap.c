/* Open-addressing string hash map (linear probing, grows at 70% load). */
#include "core/tiadash.h"
#include "core/strmap.h"
#include "core/util.h"

uint64_t strhash(const char *s, size_t len)
{
	/*
	 * Eight bytes at a time (ingest hashes every test id of a run), a
	 * multiply and a rotation each, then murmur3's final avalanche.
	 */
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h = (h << 29) | (h >> 35);
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static struct strmap_entry *probe(const struct strmap *m, const char *key,
				  size_t len, uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct strmap_entry *e = &m->slots[i];

		if (!e->key)
			return e;
		if (e->hash == h && e->keylen == len && !memcmp(e->key, key, len))
			return e;
	}
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++) {
		struct strmap_entry *e = &old.slots[i];

		if (e->key)
			*probe(m, e->key, e->keylen, e->hash) = *e;
	}
	free(old.slots);
}

struct strmap_entry *strmap_find(const struct strmap *m, const char *key, size_t len)
{
	struct strmap_entry *e;

	if (!m->cap)
		return NULL;
	e = probe(m, key, len, strhash(key, len));
	return e->key ? e : NULL;
}

bool strmap_get(const struct strmap *m, const char *key, int64_t *value)
{
	struct strmap_entry *e = strmap_find(m, key, strlen(key));

	if (e && value)
		*value = e->value;
	return e != NULL;
}

bool strmap_has(const struct strmap *m, const char *key)
{
	return strmap_find(m, key, strlen(key)) != NULL;
}

struct strmap_entry *strmap_intern(struct strmap *m, const char *key, size_t len,
				   int64_t value, bool *added)
{
	uint64_t h = strhash(key, len);
	struct strmap_entry *e;

	if ((m->nr + 1) * 10 > m->cap * 7)
		grow(m);
	e = probe(m, key, len, h);
	if (added)
		*added = !e->key;
	if (!e->key) {
		e->key = xstrndup(key, len);
		e->keylen = len;
		e->hash = h;
		e->value = value;
		m->nr++;
	}
	return e;
}

struct strmap_entry *strmap_put(struct strmap *m, const char *key, size_t len, int64_t value)
{
	struct strmap_entry *e = strmap_intern(m, key, len, value, NULL);

	e->value = value;
	return e;
}

void strmap_clear(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->nr = m->cap = 0;
}
