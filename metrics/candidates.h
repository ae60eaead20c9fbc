/*
 * The candidate globs of a changed path (metrics/proposals.h's
 * "candidates"), the keys that score them all in one walk over the
 * history, and the greedy cover that picks the recommended set: pure
 * functions of paths and numbers, no store.
 */
#ifndef TIADASH_METRICS_CANDIDATES_H
#define TIADASH_METRICS_CANDIDATES_H

#include "core/tiadash.h"
#include "core/util.h"

/* Candidate forms, most specific first. */
enum proposal_form {
	FORM_FILE,    /* the file itself */
	FORM_NAME,    /* "** /name" */
	FORM_DIR_EXT, /* "dir/ ** / *.ext" */
	FORM_DIR,     /* "dir/ **" */
	FORM_EXT,     /* "** / *.ext" */
	FORM_BUILTIN, /* one of tiadash's built-in defaults (core/rules.h) */
};
/* "file", "name", "dir-ext", "dir", "ext", "builtin". */
const char *proposal_form_name(enum proposal_form f);

/*
 * The candidates of one changed path, in a fixed order (file, dirs from
 * the top, name, ext, dir-exts from the top). A path with control
 * characters yields none. Each has a match key: a candidate matches a path
 * exactly when its key is among proposals_path_keys(path) (this is how
 * hundreds of candidates are scored in one walk over the history).
 */
struct proposal_candidate {
	enum proposal_form form;
	char *glob; /* glob characters of the path escaped */
	char *key;
};
struct proposal_candidates {
	struct proposal_candidate *items;
	size_t nr, alloc;
};
#define PROPOSAL_CANDIDATES_INIT { NULL, 0, 0 }
void proposals_path_candidates(const char *path, struct proposal_candidates *out);
void proposal_candidates_release(struct proposal_candidates *c);
/* Offset of the last '.' of a name that makes an extension, or 0 (none). */
size_t proposals_ext_dot(const char *name, size_t n);
/* Every key path answers to (appended to out). */
void proposals_path_keys(const char *path, struct strlist *out);
/*
 * fn with every key path answers to, each in sb (reset before each call),
 * until fn returns true (then true): proposals_path_keys without a copy.
 */
typedef bool (*proposals_key_fn)(const struct strbuf *key, void *data);
bool proposals_each_path_key(const char *path, struct strbuf *sb, proposals_key_fn fn,
			     void *data);

/* Greedy weighted set cover: the recommended set. */
struct proposals_cover_item {
	const size_t *covers; /* element indexes, ascending */
	size_t nr_covers;
	double cost;          /* NAN: unknown, taken after every known cost */
	int64_t runs;         /* tie-break: fewer first */
	int specificity;      /* tie-break: lower first */
	const char *name;     /* tie-break: strcmp order */
};
/*
 * Cover the elements 0..nr_elements-1 that some item covers. Writes the
 * chosen item indexes in order to chosen (room for nr_items); returns how
 * many.
 */
size_t proposals_cover(const struct proposals_cover_item *items, size_t nr_items,
		       size_t nr_elements, size_t *chosen);

#endif
