/* Selection entries versus test results: the matching of SPEC 3.3. */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/digest.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

struct idmap_rule {
	pcre2_code *re;
	char *replacement;
};

struct idmap {
	struct idmap_rule *rules;
	size_t nr, alloc;
	struct digest rules_digest; /* of every rule's pattern and replacement, in order */
};

struct idmap *idmap_new(void)
{
	struct idmap *map = xcalloc(1, sizeof(*map));

	digest_init(&map->rules_digest);
	return map;
}

void idmap_fingerprint(const struct idmap *map, char out[33])
{
	if (!map || !map->nr) {
		strcpy(out, "none");
		return;
	}
	digest_hex(&map->rules_digest, out);
}

static void digest_rule(struct digest *d, const char *pattern, const char *replacement)
{
	digest_add(d, pattern, strlen(pattern));
	digest_boundary(d);
	digest_add(d, replacement, strlen(replacement));
	digest_boundary(d);
}

void idmap_free(struct idmap *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->nr; i++) {
		pcre2_code_free(map->rules[i].re);
		free(map->rules[i].replacement);
	}
	free(map->rules);
	free(map);
}

int idmap_add_rule(struct idmap *map, const char *rule, const char *origin)
{
	const char *arrow = strstr(rule, "=>");
	char *pattern;
	pcre2_code *re;
	int errcode;
	PCRE2_SIZE erroff;

	if (!arrow)
		return error("%s: id-map rule needs 'PATTERN => REPLACEMENT'", origin);
	pattern = xstrdup_trimmed(rule, (size_t)(arrow - rule));
	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
			   &errcode, &erroff, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		error("%s: id-map pattern '%s' at offset %zu: %s", origin, pattern,
		      (size_t)erroff, (char *)msg);
		free(pattern);
		return -1;
	}
	ALLOC_GROW(map->rules, map->nr + 1, map->alloc);
	map->rules[map->nr].re = re;
	map->rules[map->nr].replacement = xstrdup_trimmed(arrow + 2, strlen(arrow + 2));
	digest_rule(&map->rules_digest, pattern, map->rules[map->nr].replacement);
	free(pattern);
	map->nr++;
	return 0;
}

static char *substitute(const struct idmap_rule *r, const char *in)
{
	size_t inlen = strlen(in);
	PCRE2_SIZE outlen = inlen * 2 + strlen(r->replacement) + 64;
	char *out = xmalloc(outlen);
	int rc;

	for (;;) {
		PCRE2_SIZE cap = outlen;

		rc = pcre2_substitute(r->re, (PCRE2_SPTR)in, inlen, 0,
				      PCRE2_SUBSTITUTE_OVERFLOW_LENGTH |
				      PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_UNSET_EMPTY,
				      NULL, NULL,
				      (PCRE2_SPTR)r->replacement,
				      PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out, &cap);
		if (rc != PCRE2_ERROR_NOMEMORY)
			break;
		outlen = cap + 1;
		out = xrealloc(out, outlen);
	}
	if (rc < 0) {
		/* Invalid UTF-8 in an entry, say: leave the entry as it was. */
		free(out);
		return xstrdup(in);
	}
	return out;
}

char *idmap_apply(const struct idmap *map, const char *entry)
{
	char *cur = xstrdup(entry);

	for (size_t i = 0; map && i < map->nr; i++) {
		char *next = substitute(&map->rules[i], cur);

		free(cur);
		cur = next;
	}
	return cur;
}

/*
 * The length of entry as the set keeps it, and its form. Hardening (issue
 * 7, fuzz_lists): only a directory or suite entry loses its trailing
 * slashes; in a SUITE::CASE id they belong to the case name ("resolves a/"),
 * and dropping them unselected the test.
 */
static size_t entry_form(const char *e, unsigned *form)
{
	size_t n = strlen(e);
	bool is_id = strstr(e, "::") != NULL;

	while (n > 1 && e[n - 1] == '/' && !is_id)
		n--;
	*form = is_id ? IDSET_CASE_IDS : memchr(e, ':', n) ? IDSET_CBM_IDS : IDSET_SUITES;
	return n;
}

void idset_add(struct idset *set, const struct idmap *map, const char *entry)
{
	char *mapped = map ? idmap_apply(map, entry) : NULL;
	const char *e = mapped ? mapped : entry;
	unsigned form;
	size_t n = entry_form(e, &form);
	bool added;

	if (n) {
		strmap_intern(&set->entries, e, n, (int64_t)set->entries.nr, &added);
		if (added)
			set->forms |= form;
	}
	free(mapped);
}

static size_t hashed_slot(const struct idset *set, uint64_t h)
{
	size_t mask = set->cap_hashed - 1, i = h & mask;

	/* Slot values are hashes; 0 marks a free slot (a zero hash becomes 1). */
	while (set->hashes[i] && set->hashes[i] != h)
		i = (i + 1) & mask;
	return i;
}

static uint64_t entry_hash(const char *s, size_t n)
{
	uint64_t h = strhash(s, n);

	return h ? h : 1;
}

static void grow_hashed(struct idset *set, size_t cap)
{
	uint64_t *old = set->hashes;
	int64_t *old_index = set->indexes;
	size_t old_cap = set->cap_hashed;

	set->cap_hashed = cap;
	set->hashes = xcalloc(set->cap_hashed, sizeof(*set->hashes));
	set->indexes = xcalloc(set->cap_hashed, sizeof(*set->indexes));
	for (size_t i = 0; i < old_cap; i++) {
		if (old[i]) {
			size_t at = hashed_slot(set, old[i]);

			set->hashes[at] = old[i];
			set->indexes[at] = old_index[i];
		}
	}
	free(old);
	free(old_index);
}

void idset_add_hashed(struct idset *set, const char *entry)
{
	unsigned form;
	size_t n = entry_form(entry, &form), at;
	uint64_t h;

	if (!n)
		return;
	if (2 * (set->nr_hashed + 1) > set->cap_hashed)
		grow_hashed(set, set->cap_hashed ? set->cap_hashed * 2 : 64);
	h = entry_hash(entry, n);
	at = hashed_slot(set, h);
	if (set->hashes[at])
		return;
	set->hashes[at] = h;
	set->indexes[at] = (int64_t)set->nr_hashed++;
	set->forms |= form;
}

void idset_reserve_hashed(struct idset *set, size_t n)
{
	size_t cap = 64;

	while (cap < 2 * n + 2)
		cap *= 2;
	if (cap > set->cap_hashed)
		grow_hashed(set, cap);
}

size_t idset_size(const struct idset *set)
{
	return set->hashes ? set->nr_hashed : set->entries.nr;
}

void idset_release(struct idset *set)
{
	strmap_clear(&set->entries);
	free(set->hashes);
	free(set->indexes);
	memset(set, 0, sizeof(*set));
}

/* Visit the entry that is s[0..n), if any; true when fn says stop. */
static bool visit(const struct idset *set, const char *s, size_t n, idset_match_fn fn,
		  void *data)
{
	const struct strmap_entry *e;
	size_t at;

	if (set->hashes) {
		at = hashed_slot(set, entry_hash(s, n));
		return set->hashes[at] && fn(set->indexes[at], data);
	}
	e = strmap_find(&set->entries, s, n);
	return e && fn(e->value, data);
}

bool idset_suite_matches(const struct idset *set, const char *suite,
			 idset_match_fn fn, void *data)
{
	size_t slen = strlen(suite);

	if (!(set->forms & IDSET_SUITES))
		return false;
	if (visit(set, suite, slen, fn, data))
		return true;
	/* Directory prefixes of a suite key that is a path. */
	for (size_t i = 1; i < slen; i++)
		if (suite[i] == '/' && visit(set, suite, i, fn, data))
			return true;
	return false;
}

bool idset_case_matches(const struct idset *set, const char *suite, const char *name,
			idset_match_fn fn, void *data)
{
	char small[256], *id;
	size_t slen = strlen(suite), nlen = strlen(name), len = slen + 2 + nlen;
	bool stop = false;

	if (!set->forms)
		return false;
	/* Called for every case of a run: no allocation for ids of usual length. */
	id = len < sizeof(small) ? small : xmalloc(len + 1);
	memcpy(id, suite, slen);
	memcpy(id + slen, "::", 2);
	memcpy(id + slen + 2, name, nlen + 1);
	if (set->forms & IDSET_CASE_IDS) {
		stop = visit(set, id, len, fn, data);
		/* A class of the case ("file.py::TestA" selects "file.py::TestA::test_x"). */
		for (size_t i = slen + 2; !stop && i + 1 < len; i++)
			if (id[i] == ':' && id[i + 1] == ':')
				stop = visit(set, id, i, fn, data);
	}
	if (!stop && (set->forms & IDSET_CBM_IDS)) {
		/* SUITE:CASE, codebase-memory-mcp's form: drop one of the colons. */
		memmove(id + slen + 1, id + slen + 2, nlen + 1);
		stop = visit(set, id, len - 1, fn, data);
	}
	if (id != small)
		free(id);
	return stop;
}

static bool stop_at_first(int64_t index, void *data)
{
	UNUSED(index), UNUSED(data);
	return true;
}

bool idset_selects(const struct idset *set, const char *suite, const char *name)
{
	if (set->all)
		return true;
	if (!idset_size(set))
		return false;
	return idset_suite_matches(set, suite, stop_at_first, NULL) ||
	       idset_case_matches(set, suite, name, stop_at_first, NULL);
}

/* Without a format: the blind spots make one per test of the window. */
void test_id_format(struct strbuf *sb, const char *suite, const char *name)
{
	strbuf_addstr(sb, suite);
	strbuf_add(sb, "::", 2);
	strbuf_addstr(sb, name);
}

void test_id_split(const char *id, char **suite, char **name)
{
	const char *sep = strstr(id, "::");

	if (sep) {
		*suite = xstrndup(id, (size_t)(sep - id));
		*name = xstrdup(sep + 2);
		return;
	}
	sep = strrchr(id, ':');
	if (sep && sep != id && sep[1]) {
		*suite = xstrndup(id, (size_t)(sep - id));
		*name = xstrdup(sep + 1);
		return;
	}
	*suite = xstrdup(id);
	*name = xstrdup("");
}
