/*
 * Test identity (SPEC 3.3). A result is stored as a suite key (the JUnit
 * `file` attribute when present, else `classname`) and a case name, and
 * printed as SUITE::CASE. A test counts as *selected* by a selection when an
 * entry is
 *   - its id SUITE::CASE, or SUITE:CASE as codebase-memory-mcp writes it,
 *   - SUITE::CLASS for a case named CLASS::NAME (a pytest class,
 *     `tests/a.py::TestA` selects `tests/a.py::TestA::test_x`),
 *   - its suite key, or
 *   - a directory prefix of a suite key that is a path (`tests/exports/` or
 *     `tests/exports`).
 * Entries pass through the optional id-map rules first (PCRE2 substitutions
 * from the config: `id-map = PATTERN => REPLACEMENT`), so a team can bridge
 * its selector's naming to its reports' naming. Quarantine lists match the
 * same way.
 */
#ifndef TIADASH_CORE_IDMATCH_H
#define TIADASH_CORE_IDMATCH_H

#include "core/tiadash.h"
#include "core/strmap.h"
#include "core/util.h"

struct idmap;

/* A set of selection entries, normalized for matching. */
struct idset {
	struct strmap entries; /* entry -> its index, in the order added */
	/*
	 * Every entry's text up to its first ':' (all of it without one): the
	 * keys that select a case of suite S (its id, a class of it, its jest
	 * or cbm form) all begin as S does up to its first ':'.
	 */
	struct strmap heads;
	bool all;     /* run_all: every test is selected */
	unsigned forms; /* which forms the entries take: */
#define IDSET_CASE_IDS 1u /* SUITE::CASE */
#define IDSET_CBM_IDS 2u  /* suite:case */
#define IDSET_SUITES 4u   /* a suite key or a directory */
	/*
	 * Or, filled by idset_add_hashed, the entries as 64-bit hashes only
	 * (slot -> index): ingest matches a run's every case against its
	 * selection, and a million entries then cost one array, not a million
	 * copies. Two entries of equal hash (2^-64) would count as one.
	 */
	uint64_t *hashes;
	int64_t *indexes;
	size_t nr_hashed, cap_hashed;
	/* Keys that are another entry's test in another form (jest's titles), under its index. */
	size_t nr_variants;
};
#define IDSET_INIT { STRMAP_INIT, STRMAP_INIT, false, 0, NULL, NULL, 0, 0, 0 }

/*
 * Add an entry (a test id, suite key or directory) after the id-map (map may
 * be NULL). Trailing slashes are dropped so `dir/` and `dir` are one entry.
 */
void idset_add(struct idset *set, const struct idmap *map, const char *entry);
/*
 * The same, kept as a hash (see above); a set is filled one way or the
 * other. The entry's index (of an equal entry added before, too), or -1
 * for an empty one.
 */
int64_t idset_add_hashed(struct idset *set, const char *entry);
/* Room for n hashed entries without growing. */
void idset_reserve_hashed(struct idset *set, size_t n);
/* How many distinct entries set holds. */
size_t idset_size(const struct idset *set);
void idset_release(struct idset *set);

/* Is SUITE::CASE selected by set? The one matching rule of SPEC 3.3. */
bool idset_selects(const struct idset *set, const char *suite, const char *name);
/*
 * Its two halves: does set select every case of suite (run_all, the suite
 * key or a directory of it), and, that failing, this case by its id or
 * class. A reader of many runs of the same groups asks the first once per
 * group and the second per case only when the first says no.
 */
bool idset_selects_suite(const struct idset *set, const char *suite);
bool idset_selects_case(const struct idset *set, const char *suite, const char *name);
/* Does an entry of set name SUITE::NAME by its id (not a class, suite or directory)? */
bool idset_names_case(const struct idset *set, const char *suite, const char *name);
/*
 * False when no entry of set can select a case of suite by the second
 * half (idset_selects_case is then false for its every case): one lookup
 * per group instead of one per case. Always true for a hashed set.
 */
bool idset_may_select_cases(const struct idset *set, const char *suite);

/*
 * The entries that select a test, in two halves of idset_selects' rule:
 * those naming its suite (the key or a directory of it), and those naming
 * the case (its id, a class of it). fn gets each entry's index (the order
 * added) and returns true to stop, which the call then returns. For
 * finding the entries that select no test of a run.
 */
typedef bool (*idset_match_fn)(int64_t index, void *data);
bool idset_suite_matches(const struct idset *set, const char *suite,
			 idset_match_fn fn, void *data);
bool idset_case_matches(const struct idset *set, const char *suite, const char *name,
			idset_match_fn fn, void *data);
/*
 * The case half split once more: the entries naming the case by its id
 * (as written, jest's spaced titles, SUITE:CASE), and those naming a class
 * of it. An entry of the first kind selects this one test; what ran under
 * any other is told by the run's own list (ingest: ran_broad).
 */
bool idset_id_matches(const struct idset *set, const char *suite, const char *name,
		      idset_match_fn fn, void *data);
bool idset_class_matches(const struct idset *set, const char *suite, const char *name,
			 idset_match_fn fn, void *data);

/* Append SUITE::CASE to sb. */
void test_id_format(struct strbuf *sb, const char *suite, const char *name);
/*
 * Split a test id written in any of the accepted forms into suite and case:
 * at the first "::" (SUITE::CASE), else at the last ':' (cbm's suite:test),
 * else the whole id is a suite and the case is "". Caller frees both.
 */
void test_id_split(const char *id, char **suite, char **name);
/* A case name `describe > title` as jest's JUnit writes it, "describe title", appended to out. */
void test_name_spaced(const char *name, struct strbuf *out);

/*
 * Id-map rules. idmap_add_rule takes "PATTERN => REPLACEMENT" (PCRE2
 * syntax, $1 references; every match is replaced, like sed's s///g);
 * returns -1 after error() naming `origin`.
 */
struct idmap *idmap_new(void);
int idmap_add_rule(struct idmap *map, const char *rule, const char *origin);
/* Apply every rule in order; caller frees the result. */
char *idmap_apply(const struct idmap *map, const char *entry);
/* What names the rules (32 hex digits), "none" for no rule or a NULL map. */
void idmap_fingerprint(const struct idmap *map, char out[33]);
void idmap_free(struct idmap *map);

#endif
