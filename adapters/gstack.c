/* The gstack adapter: .gstack/always-run.json (read and written), `test-impact.ts key --json` answers. */
#include "core/tiadash.h"
#include "adapters/common.h"

/*
 * gstack's docs/test-impact.md (seed 001): every file runs when the tree
 * changes the key code, and every key covers bun.lock, every
 * tsconfig*.json and .gstack/pregate.json, so a change to one of those
 * leaves no key to reuse. (The shard engine is named but not located.)
 */
static const struct {
	const char *id, *glob;
} gstack_full[] = {
	{ "gstack:key-code", "/scripts/test-impact.ts" },
	{ "gstack:key-code", "/lib/test-impact/**" },
	{ "gstack:key-code", "/scripts/test-free-shards.ts" },
	{ "gstack:key-code", "/lib/pregate/import-graph.ts" },
	{ "gstack:key-code", "/lib/pregate/lane-selection.ts" },
	{ "gstack:key-input", "/bun.lock" },
	{ "gstack:key-input", "**/tsconfig*.json" },
	{ "gstack:key-input", "/.gstack/pregate.json" },
};

/* The always-run list: a JSON array of paths, or {"files": [...]}. */
static const cJSON *gstack_list(const cJSON *root)
{
	if (cJSON_IsArray(root))
		return root;
	return cJSON_IsObject(root) && cJSON_IsArray(jget(root, "files")) ?
	       jget(root, "files") : NULL;
}

static int gstack_rules(struct rules *r, const char *text, size_t len, const char *path,
			int variant)
{
	cJSON *root = conf_json_parse(text, len, path, "gstack always-run list", false);
	const cJSON *list, *it;
	char *origin;
	int ret = 0;

	(void)variant;
	if (!root)
		return -1;
	list = gstack_list(root);
	if (!list) {
		ret = error("%s:1: gstack always-run list: expected an array of test "
			    "files (or {\"files\": [...]})", path);
		goto out;
	}
	origin = xstrfmt("%s (gstack: docs/test-impact.md)", path);
	for (size_t i = 0; i < ARRAY_SIZE(gstack_full) && !ret; i++)
		ret = add_rule(r, RULE_RUN_ALL, gstack_full[i].id, gstack_full[i].glob,
			       origin, NULL);
	free(origin);
	cJSON_ArrayForEach(it, list) {
		struct strlist tests = STRLIST_INIT;
		char *where;

		if (ret)
			break;
		if (!cJSON_IsString(it) || !*it->valuestring || it->valuestring[0] == '!') {
			ret = error("%s: gstack always-run list: an entry is not a test "
				    "file path", path);
			break;
		}
		where = conf_where_json(path, text, len, it->valuestring);
		strlist_push(&tests, it->valuestring);
		ret = add_rule(r, RULE_SELECT, "gstack:always-run", it->valuestring,
			       where, &tests);
		strlist_release(&tests);
		free(where);
	}
out:
	cJSON_Delete(root);
	return ret;
}

/*
 * Does the glob name test files: its last component a test file's name
 * (*.test.*, *.spec.*, test_*, *_test.*), or a directory of tests?
 */
static bool names_tests(const char *glob)
{
	const char *base = conf_base_name(glob);

	return strstr(base, ".test.") || strstr(base, ".spec.") ||
	       starts_with(base, "test_") || strstr(base, "_test.") ||
	       strstr(glob, "test/") || strstr(glob, "tests/") ||
	       strstr(glob, "__tests__/");
}

static int gstack_plan(struct adapter_edit *e, const char *path, const char *glob,
		       int64_t now)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = conf_json_parse(t, len, path, "gstack always-run list", false);
	cJSON *want;
	const cJSON *list;
	char *q;
	int ret = 0;

	(void)now;
	if (!names_tests(glob)) {
		cJSON_Delete(root);
		return error("%s: gstack's always-run list names test files, and '%s' "
			     "names none: gstack has no list of paths that force a "
			     "full run (its key code and key inputs do; see "
			     "docs/test-impact.md)", path, glob);
	}
	q = conf_json_quote(glob);
	if (!root) {
		free(q);
		return -1;
	}
	want = cJSON_Duplicate(root, true);
	list = gstack_list(want);
	if (!list) {
		ret = error("%s:1: gstack always-run list: expected an array of test "
			    "files (or {\"files\": [...]})", path);
		goto out;
	}
	cJSON_AddItemToArray((cJSON *)list, cJSON_CreateString(glob));
	if (conf_json_insert_element(t, len, cJSON_IsArray(want) ? NULL : "files", q, want,
				false, &e->new_text) < 0) {
		strbuf_reset(&e->new_text);
		e->snippet = xstrfmt("tiadash found no safe place to write in %s; add "
				     "this entry:\n\n    %s\n", path, q);
		goto out;
	}
	e->writable = true;
	strlist_push(&e->notes, "gstack's always-run list names test files that it "
		     "never reuses: the entry makes the files it matches always run; "
		     "it does not make other changes run everything");
out:
	free(q);
	cJSON_Delete(want);
	cJSON_Delete(root);
	return ret;
}

/* ---- the answer: test-impact.ts key --json ---- */

/*
 * An array of {"file", "key"}: a key when main's receipt for the same key
 * can be reused, null and "reasons" (or "reason") when the file has none
 * and so runs. The shape is tiadash's reading of gstack's documentation
 * (docs/test-impact.md, seed 001); see tests/data/native/README.
 */
static int gstack_read(struct adapter_read *c, const cJSON *root)
{
	const cJSON *el;
	struct strlist why = STRLIST_INIT;
	size_t i = 0, keyless = 0;
	int ret = 0;

	if (!cJSON_IsArray(root))
		return answer_error(c, 1, "expected an array of {\"file\", \"key\"} "
				   "(scripts/test-impact.ts key --json)");
	cJSON_ArrayForEach(el, root) {
		const cJSON *file = jget(el, "file"), *key = cJSON_GetObjectItemCaseSensitive(el, "key");
		const cJSON *reasons = jget(el, "reasons"), *reason = jget(el, "reason"), *r;
		char *rel;
		int line;

		if (!cJSON_IsObject(el) || !cJSON_IsString(file)) {
			ret = answer_error(c, 0, "element %zu has no \"file\" string", i);
			goto out;
		}
		line = answer_value_line(c, file->valuestring);
		i++;
		if (cJSON_IsString(key) && *key->valuestring)
			continue;
		if (!cJSON_IsNull(key)) {
			ret = answer_error(c, line, "%s: \"key\" is neither a key nor null",
					  file->valuestring);
			goto out;
		}
		if (cJSON_IsString(reason) && *reason->valuestring && !reasons) {
			strlist_push(&why, reason->valuestring);
		} else if (cJSON_IsArray(reasons) && cJSON_GetArraySize(reasons) && !reason) {
			cJSON_ArrayForEach(r, reasons) {
				if (!cJSON_IsString(r) || !*r->valuestring) {
					ret = answer_error(c, line, "%s: \"reasons\" holds a "
							  "non-string", file->valuestring);
					goto out;
				}
				strlist_push(&why, r->valuestring);
			}
		} else {
			ret = answer_error(c, line, "%s: no key and no reason (gstack "
					  "says why a file has no key)", file->valuestring);
			goto out;
		}
		if (answer_repo_path(c, file->valuestring, line, &rel) < 0) {
			ret = -1;
			goto out;
		}
		answer_add_entry(c, rel);
		free(rel);
		keyless++;
	}
	if (keyless && keyless == i) {
		c->out->decision = DECISION_RUN_ALL;
		for (size_t k = 0; k < why.nr; k++) {
			char *r = xstrfmt("gstack:%s", why.items[k]);

			answer_add_reason(c, r);
			free(r);
		}
	} else {
		c->out->decision = keyless ? DECISION_SELECTED : DECISION_NOTHING;
	}
out:
	strlist_release(&why);
	return ret;
}

static int gstack_answer(struct adapter_read *c)
{
	return answer_read_json(c, gstack_read);
}

static int gstack_detect(const char *path, const char *base)
{
	return !strcmp(base, "always-run.json") && conf_in_dir(path, ".gstack");
}

static const char *const gstack_configs[] = { ".gstack/always-run.json", NULL };

const struct adapter adapter_gstack = {
	.name = "gstack",
	.answer_what = "gstack key output",
	.config_what = "gstack always-run list",
	.detect_name = gstack_detect,
	.read_answer = gstack_answer,
	.read_rules = gstack_rules,
	.plan_add = gstack_plan,
	.adds = RULE_SELECT,
	/*
	 * docs/test-impact.md names the command but not its flags, and the
	 * tool is not public: `replay --selector CMD --selector-format gstack`.
	 */
	.command = NULL,
	.config_files = gstack_configs,
};
