/*
 * What the adapters share (adapters/common.c): reading an answer (entries,
 * reasons, places in messages, repository-relative paths), JSON and YAML
 * documents with their lines, and inserting text into them so the rest of
 * the file stays byte for byte. Only adapters/ includes this header.
 */
#ifndef TIADASH_ADAPTERS_COMMON_H
#define TIADASH_ADAPTERS_COMMON_H

#include "core/tiadash.h"
#include "core/strmap.h"
#include "core/ydoc.h"
#include "adapters/adapter.h"

#include <cJSON.h>
#include <yaml.h>

/* ---- reading answers ---- */

struct adapter_read {
	const char *text;
	size_t len;
	const char *name;   /* the file, for messages */
	const char *what;   /* the adapter's answer_what */
	const struct adapter_opts *opts;
	struct adapter_answer *out;
	struct strmap seen; /* entries added */
};

/* "NAME:LINE: WHAT: MSG" (line 0: no line); returns -1. */
int answer_error(const struct adapter_read *c, int line, const char *fmt, ...)
	ATTR_FORMAT(3, 4);
/* Line of the first occurrence of needle (0: none), and of a JSON string "value". */
int answer_line_of(const struct adapter_read *c, const char *needle);
int answer_value_line(const struct adapter_read *c, const char *value);
/* Add an entry once; add a reason once. */
void answer_add_entry(struct adapter_read *c, const char *e);
void answer_add_reason(struct adapter_read *c, const char *r);
/*
 * A repository-relative path from one a tool printed: an absolute path
 * loses opts->root (which it must be under), "./" is dropped, ".." is
 * refused. Caller frees *out. -1 after error().
 */
int answer_repo_path(const struct adapter_read *c, const char *p, int line, char **out);
/* The whole answer as JSON (empty: an error that says what `empty` adds). NULL after error(). */
cJSON *answer_json(const struct adapter_read *c, const char *empty);
/* Parse the answer as JSON and hand its root to read. 0, or -1 after error(). */
int answer_read_json(struct adapter_read *c, int (*read)(struct adapter_read *c,
							 const cJSON *root));
/* run_all when nr packages is every package (opts->total_packages). */
void answer_total_packages(struct adapter_read *c, size_t nr, const char *reason);

/* ---- JSON ---- */

/*
 * Parse JSON (NUL-terminated at len) with cJSON; with allow_comments, a
 * text cJSON refuses is tried again without its // and block comments
 * (JSONC). NULL after error("NAME:LINE: WHAT: invalid JSON") or "...
 * unexpected end of input (truncated?)". Caller deletes.
 */
cJSON *conf_json_parse(const char *text, size_t len, const char *name,
		       const char *what, bool allow_comments);
/* The same, quiet: NULL when it does not parse. */
cJSON *conf_json_quiet(const char *text, size_t len, bool allow_comments);
/* A member that is present and not null, else NULL. */
const cJSON *jget(const cJSON *obj, const char *key);
/* The line of the first "value" in the text (0: not found); "PATH:LINE" or PATH. */
int conf_json_value_line(const char *text, size_t len, const char *value);
char *conf_where_json(const char *path, const char *text, size_t len, const char *value);
/* s as a JSON string literal. Caller frees. */
char *conf_json_quote(const char *s);
/*
 * Insert value (JSON text) as the last element of an array that follows
 * `"key":` (key NULL: the document's top-level array), trying each place
 * until the text parses to want. 0 with the new text in out, -1 if none
 * works.
 */
int conf_json_insert_element(const char *t, size_t len, const char *key,
			     const char *value, const cJSON *want, bool jsonc,
			     struct strbuf *out);
/* Insert member ("\"k\": v") first in the object after `"key":` (NULL: the root); as above. */
int conf_json_insert_member(const char *t, size_t len, const char *key,
			    const char *member, const cJSON *want, bool jsonc,
			    struct strbuf *out);

/* ---- YAML (core/ydoc.h reads the documents) ---- */

/*
 * Is the node reached from the root in more than one way (an alias of
 * its anchor, or a merge key, uses it elsewhere)? Text added to it would
 * land in each.
 */
bool ynode_shared(struct ydoc *y, yaml_node_t *target);
/*
 * Refuse to write glob into the shared list key (of a WHAT, "moon config")
 * at path:line: "...: KEY is a list shared through a YAML anchor or merge
 * key ...". Returns -1.
 */
int yaml_shared_list_error(const char *path, int line, const char *what,
			   const char *key, const char *glob);
/* Is b's tree a's, with one more scalar `extra` last in b's node `target`? */
bool ytree_equal(struct ydoc *a, yaml_node_t *na, struct ydoc *b, yaml_node_t *nb,
		 yaml_node_t *target, const char *extra);
/* s as a YAML quoted scalar ('...' or "..."). */
void yaml_quote(struct strbuf *out, const char *s, bool single);
/* The new text with glob appended to the sequence `list`; -1 when no plain insertion fits. */
int yaml_insert(const char *t, size_t len, struct ydoc *y, yaml_node_t *list,
		const char *glob, struct strbuf *out);
/*
 * Insert `key:` with a one-item block sequence (- 'glob') at the end of the
 * block mapping `map`, indented like its other keys. -1 when the mapping
 * is not a block mapping tiadash can extend.
 */
int yaml_insert_key(const char *t, size_t len, struct ydoc *y, yaml_node_t *map,
		    const char *key, const char *glob, struct strbuf *out);

/* ---- small things ---- */

/* rules_add with the default reason. */
static inline int add_rule(struct rules *r, enum rule_action a, const char *id,
			   const char *glob, const char *origin,
			   const struct strlist *tests)
{
	return rules_add(r, a, id, glob, origin, NULL, tests);
}

const char *conf_base_name(const char *path);
/* Does path end with the directory components "dir/" + its base name? */
bool conf_in_dir(const char *path, const char *dir);
bool conf_yaml_name(const char *base);
bool conf_has_extglob(const char *g);
/* s with the glob metacharacters escaped: a glob that matches s itself. */
void conf_glob_escape(struct strbuf *out, const char *s);
/* The blanks that start the line holding offset i. */
void conf_line_indent(const char *t, size_t i, struct strbuf *out);

#endif
