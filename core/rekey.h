/*
 * Names keyed again under the id-map in force (SPEC 3.3). Ingest keys a
 * failing result, and judges whether a quarantine line resolves, under the
 * id-map of its day; a reader with another id-map keys them again before
 * it reads, through the tree at each run's head, so that a new rule takes
 * effect at once, in every figure, without ingesting again.
 *
 * Only what a rule can change is kept for it (schema 17). A failing result
 * whose first name did not resolve to a path as written keeps the names its
 * report gave (its raw names, encoded below) and the fingerprint of the
 * id-map its key was made under (keyed_by); a quarantine line that did not
 * resolve as written, the fingerprint it was judged under, the directory
 * it was judged from (its run's workdir) and the test id the id-map keyed
 * it to, which the figures match in its place (schema 18). A result or line
 * ingest resolved through a tree is keyed again only where the repository
 * has its head; without one its key stays.
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
 * Key again every failing result and quarantine line of s keyed under an
 * id-map other than map (NULL: none), through the repository rl opens
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
