/*
 * YAML documents through libyaml's document API (core/ydoc.c): the nodes
 * with their marks, so a message can name a file's line, and YAML's merge
 * key applied where a mapping is read. The adapters read selector configs
 * with it and the tree index reads workspaces.
 *
 * Ownership: a loaded ydoc owns its nodes until ydoc_release; yscalar's
 * string is the caller's.
 */
#ifndef TIADASH_CORE_YDOC_H
#define TIADASH_CORE_YDOC_H

#include "core/tiadash.h"
#include "core/util.h"

#include <yaml.h>

struct ydoc {
	yaml_parser_t parser;
	yaml_document_t doc;
	bool loaded;
};

/* Parse text; -1 after error() naming "PATH:LINE: WHAT: invalid YAML: ...". */
int ydoc_load(struct ydoc *y, const char *text, size_t len, const char *path,
	      const char *what);
/* Parse text without a message (a file that does not parse names nothing). */
bool ydoc_load_quiet(struct ydoc *y, const char *text, size_t len);
void ydoc_release(struct ydoc *y);
yaml_node_t *ynode(struct ydoc *y, int id);
/* The document's root node, or NULL when it is empty. */
yaml_node_t *yroot(struct ydoc *y);
bool yscalar_is(const yaml_node_t *n, const char *s);
/*
 * The value of key in a mapping node, or NULL. YAML's merge key applies:
 * a key the mapping lacks is looked up in what its `<<` merges.
 */
yaml_node_t *ymap_get(struct ydoc *y, yaml_node_t *map, const char *key);
/*
 * The mapping's pairs as YAML's merge key makes them (its own but `<<`,
 * then the merged keys it lacks) into out, as yaml_node_pair_t; how many.
 */
size_t ymap_pairs(struct ydoc *y, yaml_node_t *map, struct strbuf *out);
/* A scalar's text (caller frees; NULL when n is not a scalar), its first line. */
char *yscalar(const yaml_node_t *n);
int yline(const yaml_node_t *n);

#endif
