/*
 * Names keyed again under the id-map in force (SPEC 3.3). Ingest keys a
 * failing result, and judges whether a quarantine line or selection entry
 * resolves, under the id-map of its day; a reader with another id-map keys them again before
 * it reads, through the tree at each run's head, so that a new rule takes
 * effect at once, in every figure, without ingesting again.
 *
 * Only what a rule can change is kept for it (schema 17). A failing result
 * whose first name did not resolve to a path as written keeps the names its
 * report gave (its raw names, encoded below) and the fingerprint of the
 * id-map its key was made under (keyed_by); a quarantine line that did not
 * resolve as written, the fingerprint it was judged under, the directory
 * it was judged from (its run's workdir) and the test id the id-map keyed
 * it to, which the figures match in its place (schema 18); a selection's
 * entries that did not resolve as written, the same, kept together
 * (keyed_entries below, schema 19). A result, line or entry ingest
 * resolved through a tree is keyed again only where the repository has
 * its head; without one its key stays.
 *
 * Two results of a run that a rule names alike become one (their cases
 * add up, as ingest counts a repeated test); another rule does not part
 * them again.
 */
#ifndef TIADASH_CORE_REKEY_H
#define TIADASH_CORE_REKEY_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/identity.h"
#include "core/repo.h"
#include "core/store.h"

enum raw_kind {
	RAW_JUNIT,  /* a JUnit case: identity_junit_case's names and the case's name */
	RAW_LISTED, /* a failed-test list's id (identity_test_id) */
};

/* What a failing result's key is made of, as its producer wrote it. */
struct raw_name {
	enum raw_kind kind;
	bool tree;           /* ingest resolved it through a tree */
	const char *workdir; /* where its runner ran ("": the root) */
	/* RAW_JUNIT: the case's file, classname, enclosing suite key and name. */
	const char *file, *classname, *suite_key, *name;
	/* RAW_LISTED: the id; spaced: its case is written with ' ' for " > " (jest). */
	const char *id;
	bool spaced;
	struct strlist owned; /* raw_name_decode's strings */
};

/* Append r's encoding (a cache blob, core/blob.h) to out. */
void raw_name_encode(const struct raw_name *r, struct strbuf *out);
/* Fill out from a blob (release with raw_name_release); -1 when it is corrupt. */
int raw_name_decode(const void *blob, size_t len, struct raw_name *out);
void raw_name_release(struct raw_name *r);

/*
 * The key r gives under id (its run's resolver): the suite into suite and
 * the case into name (both reset first), as ingest makes them.
 */
enum id_state raw_name_key(struct identity *id, const struct raw_name *r,
			   struct strbuf *suite, struct strbuf *name);
/*
 * A quarantine line that did not resolve as written, judged through id
 * (its id-map, from its run's workdir); key is reset to the test id it
 * resolves to, the key the figures match in its place, or left empty.
 * Ingest and the keying again both judge a line so.
 */
enum id_state quarantine_line_key(struct identity *id, const char *line, struct strbuf *key);

/*
 * A selection entry that did not resolve as written, judged through id
 * (its id-map, from its run's workdir), as quarantine_line_key judges a
 * line: key is reset to the test id it resolves to, or left empty. Its
 * packages and project ids resolve as an entry's do (ID_ENTRY).
 */
enum id_state selection_entry_key(struct identity *id, const char *entry, struct strbuf *key);

/*
 * A selection entry as the figures match it, when not as written: its key
 * (key NULL: none), which no rule rewrites again, else what the
 * id-map (map NULL: none) rewrites it to. NULL: matched as written. The
 * caller frees it.
 */
char *selection_entry_rewritten(const struct idmap *map, const char *entry, const char *key);

/*
 * A selection's entries that did not resolve as written (schema 19), which
 * an id-map may key: each by its place among the selection's stored
 * entries (sorted, one of each), with the test id the id-map keyed it to
 * from its run's workdir ("": none), whether it joins (id_state_joined:
 * it counts among the entries_unresolved when not), and how often the
 * selection lists it. Stored in that order as one blob (core/blob.h).
 */
struct keyed_entry {
	size_t pos;         /* its place among the stored entries */
	const char *entry;  /* that entry (borrowed) */
	char *key;          /* owned; NULL: none */
	bool joined;
	uint64_t count;
};
struct keyed_entries {
	struct keyed_entry *at;
	size_t nr, alloc;
};
#define KEYED_ENTRIES_INIT { NULL, 0, 0 }
/*
 * Ingest's mark of an entry as listed: KEYED_NONE (it resolved as
 * written), one without a key (joined or not), or the index in k of the
 * key it was given. keyed_entry_mark adds key (NULL or "": none) to k when
 * there is one; keyed_entry_key gives it back (NULL: none).
 */
#define KEYED_NONE UINT32_MAX
uint32_t keyed_entry_mark(struct keyed_entries *k, const char *key, bool joined);
const char *keyed_entry_key(const struct keyed_entries *k, uint32_t mark);
/*
 * Sort a selection's entries for the store (store_strings_encode), with
 * mark (per entry, as listed) sorted along, and append to out the blob of
 * the keyed ones by their places: one of each, the first's key, the
 * counts added. k holds the keys the marks name.
 */
void keyed_entries_store(const struct keyed_entries *k, struct strlist *entries, uint32_t *mark,
			 struct strbuf *out);
/* Append k's blob (k in place order) to out. */
void keyed_entries_encode(const struct keyed_entries *k, struct strbuf *out);
/*
 * k from its blob, each entry borrowed from entries (the stored ones,
 * sorted); release with keyed_entries_release. -1 when corrupt.
 */
int keyed_entries_decode(const void *blob, size_t len, const struct strlist *entries,
			 struct keyed_entries *out);
void keyed_entries_release(struct keyed_entries *k);

/*
 * Key again every failing result, quarantine line and keyed selection
 * entry of s keyed under an id-map other than map (NULL: none), through
 * the repository rl opens
 * (NULL or none there: only what ingest keyed without a tree). One write
 * transaction, which moves the store's generation on: 0 (also when there
 * was nothing to do), 1 when the store cannot be written now (read-only,
 * or another writer holds it: warned, the old keys stay), -1 after error().
 */
int rekey_store(struct store *s, struct repo_later *rl, const struct idmap *map);

/*
 * A reader's config (config_load) for ctx's store, with the store keyed
 * under its id-map first (rekey_store). -1 after error(), with c released.
 */
int rekey_config_load(struct config *c, struct cmd_context *ctx);

#endif
