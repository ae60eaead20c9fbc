/* The turbo adapter: turbo.json's full-run inputs (read and written), `turbo run --affected --dry=json` and `turbo ls --affected` answers. */
#include "core/tiadash.h"
#include "adapters/common.h"

/* ---- turbo.json ---- */

/* A turbo glob (root-relative) as a tiadash glob; NULL for a negation. Caller frees. */
static char *turbo_glob(const char *g)
{
	const char *slash;

	if (g[0] == '!')
		return NULL;
	if (starts_with(g, "$TURBO_ROOT$/"))
		g += 13;
	while (g[0] == '.' && g[1] == '/')
		g += 2;
	if (g[0] == '/' || starts_with(g, "**/") || !strcmp(g, "**"))
		return xstrdup(g);
	slash = strchr(g, '/');
	if (slash && slash[1])
		return xstrdup(g); /* anchored already */
	return xstrfmt("/%s", g);
}

static int turbo_strings(const cJSON *arr, const char *what, const char *path,
			 const char *text, size_t len)
{
	const cJSON *it;

	if (!cJSON_IsArray(arr))
		return error("%s: turbo config: %s is not a list of globs",
			     path, what);
	cJSON_ArrayForEach(it, arr)
		if (!cJSON_IsString(it)) {
			int line = conf_json_value_line(text, len, what);

			return error("%s:%d: turbo config: %s holds a non-string",
				     path, line, what);
		}
	return 0;
}

static int turbo_add(struct rules *r, const char *id, const char *g,
		     const char *path, const char *text, size_t len)
{
	char *where = conf_where_json(path, text, len, g);
	char *glob = turbo_glob(g);
	int ret = 0;

	if (!glob)
		warning("%s: turbo config: negated glob '%s' left out (tiadash rules "
			"match first to last, without negation): the rules fire on "
			"what it excludes", where, g);
	else
		ret = add_rule(r, RULE_RUN_ALL, id, glob, where, NULL);
	free(glob);
	free(where);
	return ret;
}

static int turbo_rules(struct rules *r, const char *text, size_t len, const char *path,
		       int variant)
{
	cJSON *root = conf_json_parse(text, len, path, "turbo config", true);
	const cJSON *gd, *tasks, *ff, *t, *it;
	char *origin;
	int ret = 0;

	(void)variant;
	if (!root)
		return -1;
	if (!cJSON_IsObject(root)) {
		ret = error("%s:1: turbo config: not a JSON object", path);
		goto out;
	}
	if (jget(root, "extends")) {
		ret = error("%s: turbo config: a package configuration (\"extends\"): "
			    "give the repository's root turbo.json", path);
		goto out;
	}
	/* turbo --affected: a change to turbo.json itself affects every package. */
	origin = xstrfmt("%s (turbo: the configuration itself)", path);
	ret = add_rule(r, RULE_RUN_ALL, "turbo:turbo.json", "/turbo.json", origin, NULL);
	if (!ret)
		ret = add_rule(r, RULE_RUN_ALL, "turbo:turbo.json", "/turbo.jsonc", origin, NULL);
	free(origin);
	gd = jget(root, "globalDependencies");
	if (!ret && gd && !(ret = turbo_strings(gd, "globalDependencies", path, text, len)))
		cJSON_ArrayForEach(it, gd)
			if (!ret)
				ret = turbo_add(r, "turbo:globalDependencies",
						it->valuestring, path, text, len);
	tasks = jget(root, "tasks");
	if (!tasks)
		tasks = jget(root, "pipeline");
	ff = jget(jget(root, "futureFlags"), "affectedUsingTaskInputs");
	if (ret || !cJSON_IsTrue(ff) || !cJSON_IsObject(tasks))
		goto out;
	/*
	 * With affectedUsingTaskInputs, a task is affected when its inputs
	 * change; a $TURBO_ROOT$ input of a task every package has (no "#")
	 * affects that task everywhere. Package-relative inputs narrow.
	 */
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *inputs = jget(t, "inputs");
		char *id;

		if (strchr(t->string, '#') || !inputs)
			continue;
		id = xstrfmt("turbo:tasks.%s.inputs", t->string);
		ret = turbo_strings(inputs, id + 6, path, text, len);
		cJSON_ArrayForEach(it, inputs)
			if (!ret && starts_with(it->valuestring, "$TURBO_ROOT$/"))
				ret = turbo_add(r, id, it->valuestring, path, text, len);
		free(id);
		if (ret)
			break;
	}
out:
	cJSON_Delete(root);
	return ret;
}

static char *to_turbo(const char *glob)
{
	const char *slash = strchr(glob, '/');

	if (glob[0] == '/')
		return xstrdup(glob + 1);
	if (!slash || !slash[1])
		return xstrfmt("**/%s", glob);
	return xstrdup(glob);
}

static int turbo_plan(struct adapter_edit *e, const char *path, const char *glob,
		      int64_t now)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = conf_json_parse(t, len, path, "turbo config", true);
	cJSON *want, *gd;
	char *g = to_turbo(glob), *q = conf_json_quote(g);
	int ret;

	(void)now;
	if (!root) {
		free(g);
		free(q);
		return -1;
	}
	want = cJSON_Duplicate(root, true);
	gd = cJSON_GetObjectItemCaseSensitive(want, "globalDependencies");
	if (strcmp(g, glob))
		strlist_push_owned(&e->notes, xstrfmt("written as '%s': turbo's globs "
						      "are relative to the repository "
						      "root", g));
	if (gd && !cJSON_IsArray(gd)) {
		ret = error("%s: turbo config: globalDependencies is not a list", path);
	} else if (gd) {
		cJSON_AddItemToArray(gd, cJSON_CreateString(g));
		ret = conf_json_insert_element(t, len, "globalDependencies", q, want, true,
					  &e->new_text);
	} else {
		char *member = xstrfmt("\"globalDependencies\": [%s]", q);

		gd = cJSON_AddArrayToObject(want, "globalDependencies");
		cJSON_AddItemToArray(gd, cJSON_CreateString(g));
		ret = conf_json_insert_member(t, len, NULL, member, want, true, &e->new_text);
		free(member);
	}
	if (ret < 0 && gd && cJSON_IsArray(gd)) {
		/* No insertion point read back right: say what to paste. */
		strbuf_reset(&e->new_text);
		e->snippet = xstrfmt("tiadash found no safe place to write in %s; add "
				     "to its \"globalDependencies\":\n\n    %s\n", path, q);
		ret = 0;
	} else if (!ret) {
		e->writable = true;
	}
	free(g);
	free(q);
	cJSON_Delete(want);
	cJSON_Delete(root);
	return ret;
}

/* ---- the answer ---- */

/* A turbo directory: OS separators to '/'. Caller frees. */
static char *slashed(const char *s)
{
	char *d = xstrdup(s);

	for (char *p = d; *p; p++)
		if (*p == '\\')
			*p = '/';
	return d;
}

/* Is task name t among the names of the requested tasks? */
static bool has_name(const struct strlist *l, const char *t)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], t))
			return true;
	return false;
}

/*
 * `turbo run T --affected --dry=json`: {"tasks": [{"taskId", "task",
 * "package", "directory", "dependencies", "dependents", ...}], ...}. The
 * requested tasks are those named like a task that nothing in the run
 * depends on (T itself; its dependencies, such as ^build, have dependents).
 */
static int read_turbo_dry(struct adapter_read *c, const cJSON *root, const cJSON *tasks)
{
	const cJSON *monorepo = jget(root, "monorepo"), *t;
	struct strlist wanted = STRLIST_INIT;
	struct strmap packages = STRMAP_INIT;
	bool single = cJSON_IsFalse(monorepo);
	size_t i = 0;
	int ret = 0;

	if (monorepo && !cJSON_IsBool(monorepo))
		return answer_error(c, answer_line_of(c, "\"monorepo\""), "\"monorepo\" is "
				   "not a boolean");
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *id = jget(t, "taskId"), *task = jget(t, "task");
		const cJSON *deps = jget(t, "dependents");

		if (!cJSON_IsObject(t) || !cJSON_IsString(id) || !cJSON_IsString(task)) {
			ret = answer_error(c, 0, "tasks[%zu] has no \"taskId\" and "
					  "\"task\" strings", i);
			goto out;
		}
		if (deps && !cJSON_IsArray(deps)) {
			ret = answer_error(c, answer_value_line(c, id->valuestring), "%s: "
					  "\"dependents\" is not an array", id->valuestring);
			goto out;
		}
		if (!cJSON_GetArraySize(deps) && !has_name(&wanted, task->valuestring))
			strlist_push(&wanted, task->valuestring);
		i++;
	}
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *id = jget(t, "taskId"), *task = jget(t, "task");
		const cJSON *pkg = jget(t, "package"), *dir = jget(t, "directory");
		int line = answer_value_line(c, id->valuestring);
		char *d, *path;

		if (!has_name(&wanted, task->valuestring))
			continue;
		if (single) {
			c->out->decision = DECISION_RUN_ALL;
			answer_add_reason(c, "turbo:single-package");
			continue;
		}
		if (!cJSON_IsString(pkg) || !cJSON_IsString(dir)) {
			ret = answer_error(c, line, "%s: a monorepo task without "
					  "\"package\" and \"directory\" strings",
					  id->valuestring);
			goto out;
		}
		if (!strcmp(pkg->valuestring, "//")) {
			c->out->decision = DECISION_RUN_ALL;
			answer_add_reason(c, "turbo:root-task");
			continue;
		}
		d = slashed(dir->valuestring);
		ret = answer_repo_path(c, d, line, &path);
		free(d);
		if (ret < 0)
			goto out;
		answer_add_entry(c, path);
		strmap_intern(&packages, pkg->valuestring, strlen(pkg->valuestring), 0, NULL);
		free(path);
	}
	if (c->out->decision != DECISION_RUN_ALL)
		c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	answer_total_packages(c, packages.nr, "turbo:all-packages-affected");
out:
	strlist_release(&wanted);
	strmap_clear(&packages);
	return ret;
}

/* `turbo ls --affected --output=json`: {"packageManager", "packages": {"count", "items": [{"name", "path"}]}}. */
static int read_turbo_ls(struct adapter_read *c, const cJSON *packages)
{
	const cJSON *count = jget(packages, "count"), *items = jget(packages, "items");
	const cJSON *p;
	size_t i = 0;

	if (!cJSON_IsArray(items) || !cJSON_IsNumber(count))
		return answer_error(c, answer_line_of(c, "\"packages\""), "\"packages\" has no "
				   "\"count\" and \"items\" (turbo ls --output=json)");
	if (count->valuedouble != (double)cJSON_GetArraySize(items))
		return answer_error(c, answer_line_of(c, "\"count\""), "\"count\" is %g but "
				   "there are %d items (truncated?)", count->valuedouble,
				   cJSON_GetArraySize(items));
	cJSON_ArrayForEach(p, items) {
		const cJSON *name = jget(p, "name"), *path = jget(p, "path");
		char *d, *rel;
		int line, rc;

		if (!cJSON_IsString(name) || !cJSON_IsString(path))
			return answer_error(c, 0, "packages.items[%zu] has no \"name\" and "
					   "\"path\" strings", i);
		line = answer_value_line(c, name->valuestring);
		d = slashed(path->valuestring);
		rc = answer_repo_path(c, d, line, &rel);
		free(d);
		if (rc < 0)
			return -1;
		answer_add_entry(c, rel);
		free(rel);
		i++;
	}
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	answer_total_packages(c, c->out->entries.nr, "turbo:all-packages-affected");
	return 0;
}

static int turbo_read(struct adapter_read *c, const cJSON *root)
{
	const cJSON *tasks = jget(root, "tasks"), *packages = jget(root, "packages");

	if (cJSON_IsObject(root) && cJSON_IsArray(tasks))
		return read_turbo_dry(c, root, tasks);
	if (cJSON_IsObject(root) && cJSON_IsObject(packages))
		return read_turbo_ls(c, packages);
	return answer_error(c, 1, "neither a dry run ({\"tasks\": [...]}, turbo run "
			   "--dry=json) nor a package list ({\"packages\": "
			   "{\"items\": [...]}}, turbo ls --output=json)");
}

static int turbo_answer(struct adapter_read *c)
{
	return answer_read_json(c, turbo_read);
}

static char *turbo_reads_as(const char *glob)
{
	char *t = to_turbo(glob), *g = turbo_glob(t);

	free(t);
	return g;
}

static int turbo_detect(const char *path, const char *base)
{
	(void)path;
	return !strcmp(base, "turbo.json") || !strcmp(base, "turbo.jsonc");
}

/* A turbo.json under another name still says what it is. */
static bool turbo_sniff(const char *text, size_t len)
{
	return memmem(text, len, "\"globalDependencies\"", 20) ||
	       memmem(text, len, "turbo.build/schema", 18) ||
	       memmem(text, len, "turborepo.com/schema", 20);
}

static const char *const turbo_configs[] = { "turbo.json", "turbo.jsonc", NULL };

const struct adapter adapter_turbo = {
	.name = "turbo",
	.answer_what = "turbo output",
	.config_what = "turbo config",
	.detect_name = turbo_detect,
	.detect_text = turbo_sniff,
	.read_answer = turbo_answer,
	.read_rules = turbo_rules,
	.plan_add = turbo_plan,
	.reads_as = turbo_reads_as,
	.adds = RULE_RUN_ALL,
	.command = "TURBO_SCM_BASE=\"$TIADASH_BASE\" TURBO_SCM_HEAD=\"$TIADASH_HEAD\" "
		   "npx --no-install turbo run test --affected --dry=json",
	.config_files = turbo_configs,
};
