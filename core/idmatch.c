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

/*
 * A replacement's syntax ($1, \L...\E, \U) is read only at a match: try it
 * once on an empty match, so a mistake is the config's error, not an entry
 * left silently as it was. 0, or a PCRE2 error code.
 */
static int check_replacement(const char *replacement)
{
	PCRE2_UCHAR out[1];
	PCRE2_SIZE outlen = sizeof(out) / sizeof(out[0]), erroff;
	int errcode, rc;
	pcre2_code *empty = pcre2_compile((PCRE2_SPTR)"", 0, 0, &errcode, &erroff, NULL);

	if (!empty)
		return errcode;
	rc = pcre2_substitute(empty, (PCRE2_SPTR)"", 0, 0,
			      PCRE2_SUBSTITUTE_OVERFLOW_LENGTH | PCRE2_SUBSTITUTE_EXTENDED |
			      PCRE2_SUBSTITUTE_UNKNOWN_UNSET | PCRE2_SUBSTITUTE_UNSET_EMPTY,
			      NULL, NULL, (PCRE2_SPTR)replacement, PCRE2_ZERO_TERMINATED,
			      out, &outlen);
	pcre2_code_free(empty);
	return rc == PCRE2_ERROR_NOMEMORY || rc >= 0 ? 0 : rc;
}

int idmap_add_rule(struct idmap *map, const char *rule, const char *origin)
{
	const char *arrow = strstr(rule, "=>");
	char *pattern, *replacement;
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
	replacement = xstrdup_trimmed(arrow + 2, strlen(arrow + 2));
	errcode = check_replacement(replacement);
	if (errcode) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		error("%s: id-map replacement '%s': %s", origin, replacement, (char *)msg);
		pcre2_code_free(re);
		free(replacement);
		free(pattern);
		return -1;
	}
	ALLOC_GROW(map->rules, map->nr + 1, map->alloc);
	map->rules[map->nr].re = re;
	map->rules[map->nr].replacement = replacement;
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
				      PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_UNSET_EMPTY |
				      PCRE2_SUBSTITUTE_EXTENDED,
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

/*
 * A case written as a title path, vitest's "Toolbar > renders", as jest
 * writes the same test, "Toolbar renders" (its JUnit name, its -t), into
 * out; false when the case has no " > ".
 */
static bool spaced_titles(const char *id, size_t n, struct strbuf *out)
{
	const char *sep = memmem(id, n, "::", 2), *end = id + n, *p;

	if (!sep || !memmem(sep + 2, (size_t)(end - sep - 2), " > ", 3))
		return false;
	strbuf_reset(out);
	strbuf_add(out, id, (size_t)(sep + 2 - id));
	for (p = sep + 2; p < end; p++) {
		if (end - p >= 3 && !memcmp(p, " > ", 3)) {
			strbuf_addch(out, ' ');
			p += 2;
		} else {
			strbuf_addch(out, *p);
		}
	}
	return true;
}

/* Add e[0..n) under index (-1: the next one); the index it has. */
static int64_t add_entry(struct idset *set, const char *e, size_t n, unsigned form,
			 int64_t index)
{
	int64_t next = (int64_t)(set->entries.nr - set->nr_variants);
	bool added;
	struct strmap_entry *at = strmap_intern(&set->entries, e, n, index < 0 ? next : index,
						&added);

	if (added) {
		const char *colon = memchr(e, ':', n);

		set->forms |= form;
		set->nr_variants += index >= 0;
		strmap_intern(&set->heads, e, colon ? (size_t)(colon - e) : n, 0, &added);
	}
	return at->value;
}

void idset_add(struct idset *set, const struct idmap *map, const char *entry)
{
	char *mapped = map ? idmap_apply(map, entry) : NULL;
	const char *e = mapped ? mapped : entry;
	struct strbuf jest = STRBUF_INIT;
	unsigned form;
	size_t n = entry_form(e, &form);

	/* The same test in jest's form: another key, the entry's own index. */
	if (n && form == IDSET_CASE_IDS && spaced_titles(e, n, &jest))
		add_entry(set, jest.buf, jest.len, form, add_entry(set, e, n, form, -1));
	else if (n)
		add_entry(set, e, n, form, -1);
	strbuf_release(&jest);
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

/* Add entry[0..n) under index (-1: the next one); the index it has. */
static int64_t add_hashed(struct idset *set, const char *entry, size_t n, unsigned form,
			  int64_t index)
{
	size_t at;
	uint64_t h;

	/* Slots taken: the entries and their variants; at most half of them. */
	if (2 * (set->nr_hashed + set->nr_variants + 1) > set->cap_hashed)
		grow_hashed(set, set->cap_hashed ? set->cap_hashed * 2 : 64);
	h = entry_hash(entry, n);
	at = hashed_slot(set, h);
	if (set->hashes[at])
		return set->indexes[at];
	set->hashes[at] = h;
	set->indexes[at] = index < 0 ? (int64_t)set->nr_hashed++ : index;
	set->nr_variants += index >= 0;
	set->forms |= form;
	return set->indexes[at];
}

int64_t idset_add_hashed(struct idset *set, const char *entry)
{
	struct strbuf jest = STRBUF_INIT;
	unsigned form;
	size_t n = entry_form(entry, &form);
	int64_t index = n ? add_hashed(set, entry, n, form, -1) : -1;

	if (n && form == IDSET_CASE_IDS && spaced_titles(entry, n, &jest))
		add_hashed(set, jest.buf, jest.len, form, index);
	strbuf_release(&jest);
	return index;
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
	return set->hashes ? set->nr_hashed : set->entries.nr - set->nr_variants;
}

void idset_release(struct idset *set)
{
	strmap_clear(&set->entries);
	strmap_clear(&set->heads);
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

/* A vitest case ("Toolbar > renders") is the entry jest's form names too ("Toolbar renders"). */
static bool visit_spaced(const struct idset *set, const char *id, size_t len,
			 idset_match_fn fn, void *data)
{
	struct strbuf spaced = STRBUF_INIT;
	bool stop = false;

	if (memmem(id, len, " > ", 3) && spaced_titles(id, len, &spaced))
		stop = visit(set, spaced.buf, spaced.len, fn, data);
	strbuf_release(&spaced);
	return stop;
}

/*
 * fn for the entries naming SUITE::NAME by its id (by_id) or by a class of
 * it (!by_id). The id's forms: as written, jest's spaced titles and
 * codebase-memory-mcp's SUITE:CASE.
 */
static bool case_matches(const struct idset *set, const char *suite, const char *name,
			 bool by_id, idset_match_fn fn, void *data)
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
	if ((set->forms & IDSET_CASE_IDS) && by_id) {
		stop = visit(set, id, len, fn, data);
		if (!stop)
			stop = visit_spaced(set, id, len, fn, data);
	}
	/* A class of the case ("file.py::TestA" selects "file.py::TestA::test_x"). */
	if ((set->forms & IDSET_CASE_IDS) && !by_id)
		for (size_t i = slen + 2; !stop && i + 1 < len; i++)
			if (id[i] == ':' && id[i + 1] == ':')
				stop = visit(set, id, i, fn, data);
	if (!stop && (set->forms & IDSET_CBM_IDS) && by_id) {
		/* SUITE:CASE, codebase-memory-mcp's form: drop one of the colons. */
		memmove(id + slen + 1, id + slen + 2, nlen + 1);
		stop = visit(set, id, len - 1, fn, data);
	}
	if (id != small)
		free(id);
	return stop;
}

bool idset_id_matches(const struct idset *set, const char *suite, const char *name,
		      idset_match_fn fn, void *data)
{
	return case_matches(set, suite, name, true, fn, data);
}

bool idset_class_matches(const struct idset *set, const char *suite, const char *name,
			 idset_match_fn fn, void *data)
{
	return case_matches(set, suite, name, false, fn, data);
}

bool idset_case_matches(const struct idset *set, const char *suite, const char *name,
			idset_match_fn fn, void *data)
{
	return idset_id_matches(set, suite, name, fn, data) ||
	       idset_class_matches(set, suite, name, fn, data);
}

static bool stop_at_first(int64_t index, void *data)
{
	UNUSED(index), UNUSED(data);
	return true;
}

bool idset_selects(const struct idset *set, const char *suite, const char *name)
{
	return idset_selects_suite(set, suite) || idset_selects_case(set, suite, name);
}

bool idset_selects_suite(const struct idset *set, const char *suite)
{
	if (set->all)
		return true;
	return idset_size(set) && idset_suite_matches(set, suite, stop_at_first, NULL);
}

bool idset_may_select_cases(const struct idset *set, const char *suite)
{
	const char *colon = strchr(suite, ':');

	if (set->hashes)
		return true;
	if (!(set->forms & (IDSET_CASE_IDS | IDSET_CBM_IDS)) || !idset_size(set))
		return false;
	return strmap_find(&set->heads, suite, colon ? (size_t)(colon - suite) : strlen(suite));
}

bool idset_selects_case(const struct idset *set, const char *suite, const char *name)
{
	return idset_size(set) && idset_case_matches(set, suite, name, stop_at_first, NULL);
}

bool idset_names_case(const struct idset *set, const char *suite, const char *name)
{
	return idset_size(set) && idset_id_matches(set, suite, name, stop_at_first, NULL);
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

void test_name_spaced(const char *name, struct strbuf *out)
{
	for (const char *p = name; *p; p++) {
		if (!strncmp(p, " > ", 3)) {
			strbuf_addch(out, ' ');
			p += 2;
		} else {
			strbuf_addch(out, *p);
		}
	}
}
