/* YAML documents read through libyaml's document API: nodes with their marks, merge keys applied. */
#include "core/tiadash.h"
#include "core/ydoc.h"

/* 0: loaded; -1: the parser did not start; 1: the YAML is invalid (the parser says why). */
static int ydoc_parse(struct ydoc *y, const char *text, size_t len)
{
	memset(y, 0, sizeof(*y));
	if (!yaml_parser_initialize(&y->parser))
		return -1;
	yaml_parser_set_input_string(&y->parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&y->parser, &y->doc))
		return 1;
	y->loaded = true;
	return 0;
}

int ydoc_load(struct ydoc *y, const char *text, size_t len, const char *path,
	      const char *what)
{
	int ret = ydoc_parse(y, text, len);

	if (ret < 0)
		return error("%s: %s: cannot start the YAML parser", path, what);
	if (ret > 0) {
		ret = error("%s:%zu: %s: invalid YAML: %s%s%s", path,
			    y->parser.problem_mark.line + 1, what,
			    y->parser.problem ? y->parser.problem : "unknown problem",
			    y->parser.context ? " " : "",
			    y->parser.context ? y->parser.context : "");
		yaml_parser_delete(&y->parser);
	}
	return ret;
}

bool ydoc_load_quiet(struct ydoc *y, const char *text, size_t len)
{
	int ret = ydoc_parse(y, text, len);

	if (ret > 0)
		yaml_parser_delete(&y->parser);
	return ret == 0;
}

void ydoc_release(struct ydoc *y)
{
	if (y->loaded)
		yaml_document_delete(&y->doc);
	yaml_parser_delete(&y->parser);
	memset(y, 0, sizeof(*y));
}

yaml_node_t *ynode(struct ydoc *y, int id)
{
	return yaml_document_get_node(&y->doc, id);
}

yaml_node_t *yroot(struct ydoc *y)
{
	return yaml_document_get_root_node(&y->doc);
}

bool yscalar_is(const yaml_node_t *n, const char *s)
{
	return n && n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.length == strlen(s) &&
	       !memcmp(n->data.scalar.value, s, n->data.scalar.length);
}

/* Is the pair YAML's merge key (a plain `<<`)? */
static bool ymerge_key(struct ydoc *y, const yaml_node_pair_t *p)
{
	yaml_node_t *k = ynode(y, p->key);

	return yscalar_is(k, "<<") && k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/*
 * The mappings a `<<` value merges, in order: one mapping, or a sequence
 * of them (YAML's merge key, as moon's serde and PyYAML apply it).
 */
static size_t ymerge_sources(struct ydoc *y, yaml_node_t *v, yaml_node_t **out, size_t max)
{
	size_t n = 0;

	if (v && v->type == YAML_MAPPING_NODE && max)
		out[n++] = v;
	if (v && v->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *it = v->data.sequence.items.start;
		     it < v->data.sequence.items.top && n < max; it++)
			if (ynode(y, *it)->type == YAML_MAPPING_NODE)
				out[n++] = ynode(y, *it);
	return n;
}

static yaml_node_t *ymap_find(struct ydoc *y, yaml_node_t *map, const char *key, int depth)
{
	if (!map || map->type != YAML_MAPPING_NODE || depth > 16)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++)
		if (!ymerge_key(y, p) && yscalar_is(ynode(y, p->key), key))
			return ynode(y, p->value);
	/* A key the mapping lacks comes from what it merges, the first first. */
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *from[16], *v;
		size_t n = ymerge_key(y, p) ? ymerge_sources(y, ynode(y, p->value), from, 16) : 0;

		for (size_t i = 0; i < n; i++)
			if ((v = ymap_find(y, from[i], key, depth + 1)))
				return v;
	}
	return NULL;
}

/* The value of key in a mapping node (merge keys applied), or NULL. */
yaml_node_t *ymap_get(struct ydoc *y, yaml_node_t *map, const char *key)
{
	return ymap_find(y, map, key, 0);
}

static bool ypairs_have(const struct strbuf *pairs, struct ydoc *y, const yaml_node_t *key)
{
	const yaml_node_pair_t *p = (const yaml_node_pair_t *)(const void *)pairs->buf;

	for (size_t i = 0; i < pairs->len / sizeof(*p); i++) {
		yaml_node_t *k = ynode(y, p[i].key);

		if (k->type == YAML_SCALAR_NODE && key->type == YAML_SCALAR_NODE &&
		    k->data.scalar.length == key->data.scalar.length &&
		    !memcmp(k->data.scalar.value, key->data.scalar.value, k->data.scalar.length))
			return true;
	}
	return false;
}

static void ymap_collect(struct ydoc *y, yaml_node_t *map, struct strbuf *out, int depth)
{
	if (!map || map->type != YAML_MAPPING_NODE || depth > 16)
		return;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++)
		if (!ymerge_key(y, p) && !ypairs_have(out, y, ynode(y, p->key)))
			strbuf_add(out, p, sizeof(*p));
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *from[16];
		size_t n = ymerge_key(y, p) ? ymerge_sources(y, ynode(y, p->value), from, 16) : 0;

		for (size_t i = 0; i < n; i++)
			ymap_collect(y, from[i], out, depth + 1);
	}
}

size_t ymap_pairs(struct ydoc *y, yaml_node_t *map, struct strbuf *out)
{
	strbuf_reset(out);
	ymap_collect(y, map, out, 0);
	return out->len / sizeof(yaml_node_pair_t);
}

char *yscalar(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return xstrndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

int yline(const yaml_node_t *n)
{
	return (int)n->start_mark.line + 1;
}
