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

/* ---- lockfiles: what turbo --affected makes of an edit ---- */

/*
 * turbo maps a lockfile edit to the packages whose resolved external
 * dependencies it changed, unless it cannot: then every package is
 * affected (turbo 2.11: crates/turborepo-repository/src/change_mapper/
 * mod.rs, "if we run into issues, don't error, just assume all packages
 * have changed"; crates/turborepo-lockfiles/src/{npm.rs,pnpm/data.rs},
 * Lockfile::global_change). That is so when either side is absent or does
 * not load, or when the edit is a global change: for npm's lock another
 * lockfileVersion or "requires"; for pnpm's, another lockfileVersion,
 * packageExtensionsChecksum, overrides, patchedDependencies or settings
 * (autoInstallPeers, excludeLinksFromLockfile). Measured with turbo
 * 2.11.11 (tests/t4410-replay-turbo.sh). The rest is turbo's to
 * attribute: the rule selects nothing by itself and leaves the change to
 * the selector.
 */
static const char turbo_unreadable[] = "turbo:lockfile-unreadable";
static const char turbo_global[] = "turbo:lockfile-global-change";

static bool json_string_map(const cJSON *m)
{
	const cJSON *it;

	if (!m)
		return true;
	if (!cJSON_IsObject(m))
		return false;
	cJSON_ArrayForEach(it, m)
		if (!cJSON_IsString(it))
			return false;
	return true;
}

static bool json_opt_string(const cJSON *v)
{
	return !v || cJSON_IsString(v);
}

/* NpmLockfile::load: an object with an integer lockfileVersion > 1 and its "packages". */
static cJSON *npm_lock_load(const char *text, size_t len)
{
	cJSON *root = text ? conf_json_quiet(text, len, false) : NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "lockfileVersion");
	const cJSON *pkgs = cJSON_GetObjectItemCaseSensitive(root, "packages");
	const cJSON *deps = jget(root, "dependencies"), *p, *scan;
	/* An i32 (serde); 1 and below need node_modules (UnsupportedNpmVersion). */
	bool ok = cJSON_IsObject(root) && cJSON_IsNumber(v) &&
		  v->valuedouble == floor(v->valuedouble) && v->valuedouble > 1 &&
		  v->valuedouble <= INT32_MAX &&
		  cJSON_IsObject(pkgs) && (!deps || cJSON_IsObject(deps)) &&
		  (cJSON_GetArraySize(pkgs) || !cJSON_GetArraySize(deps));

	scan = ok ? pkgs : NULL;
	cJSON_ArrayForEach(p, scan)
		ok = ok && cJSON_IsObject(p) && json_opt_string(jget(p, "version")) &&
		     json_opt_string(jget(p, "resolved")) &&
		     json_string_map(jget(p, "dependencies")) &&
		     json_string_map(jget(p, "devDependencies")) &&
		     json_string_map(jget(p, "peerDependencies")) &&
		     json_string_map(jget(p, "optionalDependencies"));
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

static bool json_same(const cJSON *a, const cJSON *b)
{
	return (!a && !b) || (a && b && cJSON_Compare(a, b, true));
}

static enum rule_action npm_lock_judge(const char *before, size_t blen,
				       const char *after, size_t alen, const char **why)
{
	cJSON *a = npm_lock_load(before, blen), *b = npm_lock_load(after, alen);
	enum rule_action act = RULE_RUN_ALL;

	*why = turbo_unreadable;
	if (a && b) {
		*why = turbo_global;
		if (json_same(cJSON_GetObjectItemCaseSensitive(a, "lockfileVersion"),
			      cJSON_GetObjectItemCaseSensitive(b, "lockfileVersion")) &&
		    json_same(cJSON_GetObjectItemCaseSensitive(a, "requires"),
			      cJSON_GetObjectItemCaseSensitive(b, "requires")))
			act = RULE_SELECT;
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	return act;
}

/* PnpmLockfile::from_bytes: a mapping with lockfileVersion and importers. */
static bool pnpm_lock_load(struct ydoc *y, const char *text, size_t len)
{
	yaml_node_t *root;

	memset(y, 0, sizeof(*y));
	root = text && ydoc_load_quiet(y, text, len) ? yroot(y) : NULL;
	return root && root->type == YAML_MAPPING_NODE &&
	       ymap_get(y, root, "lockfileVersion") &&
	       ymap_get(y, root, "lockfileVersion")->type == YAML_SCALAR_NODE &&
	       ymap_get(y, root, "importers") &&
	       ymap_get(y, root, "importers")->type == YAML_MAPPING_NODE;
}

/* The same node in both (or in neither)? */
static bool yaml_same(struct ydoc *a, yaml_node_t *na, struct ydoc *b, yaml_node_t *nb)
{
	return (!na && !nb) || ytree_equal(a, na, b, nb, NULL, NULL);
}

static enum rule_action pnpm_lock_judge(const char *before, size_t blen,
					const char *after, size_t alen, const char **why)
{
	static const char *const global[] = {
		"lockfileVersion", "packageExtensionsChecksum", "overrides",
		"patchedDependencies",
	};
	static const char *const settings[] = { "autoInstallPeers", "excludeLinksFromLockfile" };
	struct ydoc a, b;
	bool la = pnpm_lock_load(&a, before, blen), lb = pnpm_lock_load(&b, after, alen);
	enum rule_action act = RULE_RUN_ALL;

	*why = turbo_unreadable;
	if (la && lb) {
		yaml_node_t *ra = yroot(&a), *rb = yroot(&b);
		yaml_node_t *sa = ymap_get(&a, ra, "settings"), *sb = ymap_get(&b, rb, "settings");
		bool same = !sa == !sb;

		for (size_t i = 0; same && i < ARRAY_SIZE(global); i++)
			same = yaml_same(&a, ymap_get(&a, ra, global[i]),
					 &b, ymap_get(&b, rb, global[i]));
		for (size_t i = 0; same && i < ARRAY_SIZE(settings); i++)
			same = yaml_same(&a, ymap_get(&a, sa, settings[i]),
					 &b, ymap_get(&b, sb, settings[i]));
		*why = turbo_global;
		if (same)
			act = RULE_SELECT;
	}
	ydoc_release(&a);
	ydoc_release(&b);
	return act;
}

static const struct rule_judge npm_lock = {
	npm_lock_judge, "run_all when turbo cannot attribute the edit (lockfileVersion "
	"or \"requires\" changed, or a side absent or unreadable)",
};
static const struct rule_judge pnpm_lock = {
	pnpm_lock_judge, "run_all when turbo cannot attribute the edit (lockfileVersion, "
	"packageExtensionsChecksum, overrides, patchedDependencies or settings changed, "
	"or a side absent or unreadable)",
};

static const struct {
	const char *glob;
	const struct rule_judge *judge;
} turbo_lockfiles[] = {
	{ "/package-lock.json", &npm_lock },
	{ "/pnpm-lock.yaml", &pnpm_lock },
};

static int turbo_lockfile_rules(struct rules *r, const char *path)
{
	char *origin = xstrfmt("%s (turbo 2.11: a lockfile edit)", path);
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(turbo_lockfiles) && !ret; i++) {
		ret = add_rule(r, RULE_SELECT, "turbo:lockfile", turbo_lockfiles[i].glob,
			       origin, NULL);
		if (!ret)
			rules_set_judge(r, turbo_lockfiles[i].judge);
	}
	free(origin);
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
	/* Last: a lockfile that is also a global dependency affects everything. */
	if (!ret)
		ret = turbo_lockfile_rules(r, path);
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
		   "turbo run test --affected --dry=json",
	.node_tool = true,
	.config_files = turbo_configs,
};
