/* The harness adapter: a harness config's selection.no_subset_paths (read and written). */
#include "core/tiadash.h"
#include "adapters/common.h"

/* ---- harness: selection.no_subset_paths ---- */

/* The no_subset_paths sequence of a harness config, or NULL. */
static yaml_node_t *harness_list(struct ydoc *y)
{
	return ymap_get(y, ymap_get(y, yroot(y), "selection"), "no_subset_paths");
}

static int harness_rules(struct rules *r, const char *text, size_t len, const char *path,
			 int variant)
{
	struct ydoc y;
	yaml_node_t *list;
	int ret;

	(void)variant;
	if (ydoc_load(&y, text, len, path, "harness config") < 0)
		return -1;
	list = harness_list(&y);
	if (!list && ymap_get(&y, yroot(&y), "selection")) {
		ret = 0; /* a harness config that forces nothing */
		goto out;
	}
	if (!list) {
		ret = error("%s: harness config: no selection.no_subset_paths list "
			    "(a YAML rules file is a harness config, .moon/tasks.yml "
			    "or a moon.yml)", path);
		goto out;
	}
	if (list->type != YAML_SEQUENCE_NODE) {
		ret = error("%s:%d: harness config: selection.no_subset_paths is not "
			    "a list", path, yline(list));
		goto out;
	}
	ret = 0;
	for (yaml_node_item_t *it = list->data.sequence.items.start;
	     !ret && it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ynode(&y, *it);
		char *glob, *where = xstrfmt("%s:%d", path, yline(n));

		if (n->type != YAML_SCALAR_NODE) {
			ret = error("%s: harness config: a no_subset_paths entry is not "
				    "a glob", where);
		} else {
			glob = yscalar(n);
			if (glob[0] == '!')
				ret = error("%s: harness config: negated glob '%s' is not "
					    "supported", where, glob);
			else
				ret = add_rule(r, RULE_RUN_ALL, "harness:no_subset_paths",
					       glob, where, NULL);
			free(glob);
		}
		free(where);
	}
out:
	ydoc_release(&y);
	return ret;
}

/*
 * The glob goes last in selection.no_subset_paths; the list, or the whole
 * selection block, is added when absent. An edit of the list must read
 * back as the same document with one more entry.
 */
static int harness_plan(struct adapter_edit *e, const char *path, const char *glob,
			int64_t now)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	struct ydoc a, b;
	yaml_node_t *list, *sel;
	int ret = 0;

	(void)now;
	if (ydoc_load(&a, t, len, path, "harness config") < 0)
		return -1;
	list = harness_list(&a);
	sel = ymap_get(&a, yroot(&a), "selection");
	if (list && ynode_shared(&a, list)) {
		ret = yaml_shared_list_error(path, yline(list), "harness config",
					     "selection.no_subset_paths", glob);
		goto out;
	}
	if (list && list->type == YAML_SEQUENCE_NODE)
		ret = yaml_insert(t, len, &a, list, glob, &e->new_text);
	else if (!list && sel)
		ret = yaml_insert_key(t, len, &a, sel, "no_subset_paths", glob, &e->new_text);
	else if (!list && yroot(&a) && yroot(&a)->type == YAML_MAPPING_NODE &&
		 yroot(&a)->data.mapping.style != YAML_FLOW_MAPPING_STYLE) {
		struct strbuf q = STRBUF_INIT;

		yaml_quote(&q, glob, true);
		strbuf_add(&e->new_text, t, len);
		if (len && t[len - 1] != '\n')
			strbuf_addch(&e->new_text, '\n');
		strbuf_addf(&e->new_text, "selection:\n  no_subset_paths:\n    - %s\n", q.buf);
		strbuf_release(&q);
	} else {
		ret = -1;
	}
	if (ret < 0) {
		strbuf_reset(&e->new_text);
		ret = error("%s: harness config: tiadash found no safe place to add to "
			    "selection.no_subset_paths; add '%s' there by hand", path, glob);
		goto out;
	}
	memset(&b, 0, sizeof(b));
	if (list && (ydoc_load(&b, e->new_text.buf, e->new_text.len, path,
			       "harness config") < 0 ||
		     !ytree_equal(&a, yroot(&a), &b, yroot(&b), harness_list(&b), glob))) {
		ret = error("%s: harness config: the edit does not read back as one "
			    "more no_subset_paths entry (not written)", path);
		strbuf_reset(&e->new_text);
	} else {
		e->writable = true;
	}
	ydoc_release(&b);
out:
	ydoc_release(&a);
	return ret;
}

static int harness_detect(const char *path, const char *base)
{
	(void)path;
	return conf_yaml_name(base);
}

const struct adapter adapter_harness = {
	.name = "harness",
	.config_what = "harness config",
	.detect_name = harness_detect,
	.read_rules = harness_rules,
	.plan_add = harness_plan,
	.adds = RULE_RUN_ALL,
};
