/* The moon adapter: .moon/tasks and moon.yml inputs (read, and implicitInputs written), `moon query projects|tasks --affected` answers. */
#include "core/tiadash.h"
#include "adapters/common.h"

#include <sys/stat.h>

enum { MOON_TASKS = 1, MOON_PROJECT = 2, MOON_TASKS_V1 = 3 };

/*
 * What moon adds to the inputs of every task, as moon 2.5 does
 * (moonrepo/moon v2.5.2, crates/task-builder/src/tasks_builder.rs,
 * inherit_global_inputs; the extensions are ConfigFinder's, in
 * crates/config-loader/src/config_finder.rs): the workspace's own
 * configuration files. moon 2.5.5 lists the same glob among each task's
 * inputs (`moon query tasks`). A workspace in .config/moon has
 * /.config/moon/ instead, which tiadash does not read.
 */
#define MOON_IMPLICIT_VERSION "2.5"
static const char moon_implicit_glob[] = "/.moon/*.{yml,yaml,jsonc,json,pkl,hcl,toml}";

/* ---- moon ---- */

struct moon {
	struct ydoc y;
	const char *path;
	yaml_node_t *groups; /* fileGroups mapping, or NULL */
};

/* Append the workspace-relative pattern ("/x") of one input to out. */
static void moon_pattern(const char *p, const char *where, struct strlist *out)
{
	if (p[0] == '!') {
		if (p[1] == '/')
			warning("%s: moon config: negated input '%s' left out (tiadash "
				"rules match first to last, without negation): the "
				"rules fire on what it excludes", where, p);
		return;
	}
	if (p[0] == '/' && p[1])
		strlist_push(out, p);
}

static int moon_group(struct moon *m, const char *name, const char *where,
		      struct strlist *out)
{
	yaml_node_t *g = ymap_get(&m->y, m->groups, name);

	if (!g)
		return 0; /* a project's own group: project-relative */
	if (g->type != YAML_SEQUENCE_NODE)
		return error("%s: moon config: fileGroups.%s is not a list", where, name);
	for (yaml_node_item_t *it = g->data.sequence.items.start;
	     it < g->data.sequence.items.top; it++) {
		yaml_node_t *n = ynode(&m->y, *it);
		char *s;

		if (n->type != YAML_SCALAR_NODE)
			return error("%s: moon config: fileGroups.%s holds a non-string",
				     where, name);
		s = yscalar(n);
		moon_pattern(s, where, out);
		free(s);
	}
	return 0;
}

/*
 * One input (moon's docs, config/project "inputs"): a literal path or glob
 * ("/..." workspace-relative), file:// and glob:// URIs, group:// and
 * @group(...)-style tokens of a file group, {file|glob|group|project: ...}
 * objects, "$VAR" environment variables, project:// references. Only
 * workspace-relative paths are collected.
 */
static int moon_input(struct moon *m, yaml_node_t *n, const char *where,
		      struct strlist *out)
{
	char *s, *q;
	int ret = 0;

	if (n->type == YAML_MAPPING_NODE) {
		yaml_node_t *v;

		if ((v = ymap_get(&m->y, n, "file")) || (v = ymap_get(&m->y, n, "glob"))) {
			if (v->type != YAML_SCALAR_NODE)
				return error("%s: moon config: an input's file/glob is "
					     "not a string", where);
			s = yscalar(v);
			moon_pattern(s, where, out);
			free(s);
			return 0;
		}
		if ((v = ymap_get(&m->y, n, "group")) && v->type == YAML_SCALAR_NODE) {
			s = yscalar(v);
			ret = moon_group(m, s, where, out);
			free(s);
			return ret;
		}
		if (ymap_get(&m->y, n, "project"))
			return 0;
		return error("%s: moon config: an input object without file, glob, "
			     "group or project", where);
	}
	if (n->type != YAML_SCALAR_NODE)
		return error("%s: moon config: an input is not a string or an object",
			     where);
	s = yscalar(n);
	if (starts_with(s, "file://") || starts_with(s, "glob://")) {
		q = strchr(s + 7, '?');
		if (q)
			*q = '\0';
		moon_pattern(s + 7, where, out);
	} else if (starts_with(s, "group://")) {
		q = strchr(s + 8, '?');
		if (q)
			*q = '\0';
		ret = moon_group(m, s + 8, where, out);
	} else if (s[0] == '@') {
		char *open = strchr(s, '('), *close = strrchr(s, ')');

		if (open && close && close > open && !close[1] &&
		    (starts_with(s, "@group(") || starts_with(s, "@files(") ||
		     starts_with(s, "@globs(") || starts_with(s, "@dirs(") ||
		     starts_with(s, "@root("))) {
			*close = '\0';
			ret = moon_group(m, open + 1, where, out);
		}
	} else if (strstr(s, "://") && !starts_with(s, "project://")) {
		ret = error("%s: moon config: unknown input URI '%s'", where, s);
	} else if (s[0] != '$' && !starts_with(s, "project://")) {
		moon_pattern(s, where, out);
	}
	free(s);
	return ret;
}

/* The workspace-relative inputs of a list node into out. */
static int moon_inputs(struct moon *m, yaml_node_t *list, const char *what,
		       struct strlist *globs, struct strlist *wheres)
{
	if (!list)
		return 0;
	if (list->type != YAML_SEQUENCE_NODE)
		return error("%s:%d: moon config: %s is not a list", m->path,
			     yline(list), what);
	for (yaml_node_item_t *it = list->data.sequence.items.start;
	     it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ynode(&m->y, *it);
		char *where = xstrfmt("%s:%d", m->path, yline(n));
		size_t before = globs->nr;
		int ret = moon_input(m, n, where, globs);

		for (size_t k = before; k < globs->nr; k++)
			strlist_push(wheres, where);
		free(where);
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The directory holding .moon/ above dir (a real path); caller frees, NULL: none. */
static char *moon_workspace(const char *dir)
{
	char *d = xstrdup(dir);

	for (;;) {
		char *probe = path_join(d, ".moon");
		struct stat st;
		bool found = stat(probe, &st) == 0 && S_ISDIR(st.st_mode);
		char *up;

		free(probe);
		if (found)
			return d;
		if (!strcmp(d, "/")) {
			free(d);
			return NULL;
		}
		up = path_dirname(d);
		free(d);
		d = up;
	}
}

/* A project's source: its moon.yml's directory relative to the workspace root. */
static int moon_source(const char *path, char **out)
{
	char *real = realpath(path, NULL), *dir, *ws;

	*out = NULL;
	if (!real)
		return error("%s: moon config: cannot resolve the path: %s", path,
			     strerror(errno));
	dir = path_dirname(real);
	ws = moon_workspace(dir);
	if (!ws) {
		free(real);
		free(dir);
		return error("%s: moon config: no .moon directory above it: cannot "
			     "tell the project's source", path);
	}
	if (!strcmp(ws, dir))
		*out = xstrdup(".");
	else
		*out = xstrdup(dir + strlen(ws) + (strcmp(ws, "/") ? 1 : 0));
	free(real);
	free(dir);
	free(ws);
	return 0;
}

static bool has_rule_glob(const struct rules *r, const char *id, const char *glob)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].id, id) && !strcmp(r->items[i].glob, glob))
			return true;
	return false;
}

/* The workspace's configuration files: inputs of every task (once per rule set). */
static int moon_implicit_rules(struct rules *r, const char *path)
{
	char *origin;
	int ret;

	if (has_rule_glob(r, "moon:implicit-inputs", moon_implicit_glob))
		return 0;
	origin = xstrfmt("%s (moon " MOON_IMPLICIT_VERSION ": every task's inputs)", path);
	ret = add_rule(r, RULE_RUN_ALL, "moon:implicit-inputs", moon_implicit_glob,
		       origin, NULL);
	free(origin);
	return ret;
}

/* A tasks file's workspace-relative path ("/.moon/tasks/all.yml"), or NULL. */
static char *moon_tasks_file(const char *path)
{
	const char *at = NULL;

	for (const char *p = path; (p = strstr(p, ".moon/tasks/")); p++)
		if (p == path || p[-1] == '/')
			at = p;
	return at ? xstrfmt("/%s", at) : NULL;
}

/*
 * moon adds each inherited tasks file to the inputs of the tasks it
 * defines (crates/config/src/inherited_tasks_manager.rs,
 * get_inherited_config): every project's, or with inheritedBy only the
 * projects it names, which are moon's to tell (select, naming none).
 */
static int moon_tasks_file_rule(struct moon *m, struct rules *r, yaml_node_t *root,
				yaml_node_t *tasks)
{
	char *self = moon_tasks_file(m->path), *origin;
	bool some = ymap_get(&m->y, root, "inheritedBy") != NULL;
	int ret;

	if (!self || !tasks || tasks->type != YAML_MAPPING_NODE ||
	    tasks->data.mapping.pairs.top == tasks->data.mapping.pairs.start) {
		free(self);
		return 0;
	}
	origin = xstrfmt("%s (moon " MOON_IMPLICIT_VERSION ": an input of the tasks "
			 "it defines)", m->path);
	ret = add_rule(r, some ? RULE_SELECT : RULE_RUN_ALL, "moon:tasks-file", self,
		       origin, NULL);
	free(origin);
	free(self);
	return ret;
}

/*
 * .moon/tasks/ files (inherited by every matching project): their
 * implicitInputs and each task's workspace-relative inputs run_all, and
 * the file itself. moon.yml (one project): each task's workspace-relative
 * inputs select that project (its source directory); a root-level
 * project's select names nothing, leaving the change to the selector.
 * Either way the workspace's configuration files are every task's inputs.
 * .moon/tasks.yml is moon 1's: moon 2 does not read it.
 */
static int moon_rules(struct rules *r, const char *text, size_t len, const char *path,
		      int variant)
{
	bool project = variant == MOON_PROJECT;
	struct moon m = { .path = path };
	struct strlist globs = STRLIST_INIT, wheres = STRLIST_INIT, tests = STRLIST_INIT;
	struct strlist ids = STRLIST_INIT;
	struct strbuf pairs = STRBUF_INIT;
	yaml_node_t *root, *tasks;
	char *source = NULL;
	size_t nr;
	int ret = 0;

	if (ydoc_load(&m.y, text, len, path, "moon config") < 0)
		return -1;
	root = yroot(&m.y);
	if (root && root->type != YAML_MAPPING_NODE) {
		ret = error("%s: moon config: not a mapping", path);
		goto out;
	}
	if ((ret = moon_implicit_rules(r, path)) < 0)
		goto out;
	if (variant == MOON_TASKS_V1) {
		warning("%s: moon 2 does not read .moon/tasks.yml (moon 1's name; it "
			"reads .moon/tasks/**/*.yml): its tasks and implicitInputs are "
			"left out (a change to it still affects every task, as one of "
			"%s)", path, moon_implicit_glob);
		goto out;
	}
	m.groups = ymap_get(&m.y, root, "fileGroups");
	if (project && (ret = moon_source(path, &source)) < 0)
		goto out;
	if (project && strcmp(source, "."))
		strlist_push(&tests, source);
	if (!project) {
		ret = moon_inputs(&m, ymap_get(&m.y, root, "implicitInputs"),
				  "implicitInputs", &globs, &wheres);
		while (ids.nr < globs.nr)
			strlist_push(&ids, "moon:implicitInputs");
	}
	tasks = ymap_get(&m.y, root, "tasks");
	if (!ret && tasks && tasks->type != YAML_MAPPING_NODE)
		ret = error("%s:%d: moon config: tasks is not a mapping", path, yline(tasks));
	if (!ret && !project)
		ret = moon_tasks_file_rule(&m, r, root, tasks);
	/* Tasks merged in with `<<` are tasks too. */
	nr = tasks && !ret ? ymap_pairs(&m.y, tasks, &pairs) : 0;
	for (size_t i = 0; i < nr && !ret; i++) {
		const yaml_node_pair_t *p = (const yaml_node_pair_t *)(const void *)pairs.buf + i;
		yaml_node_t *key = ynode(&m.y, p->key);
		char *name = key->type == YAML_SCALAR_NODE ? yscalar(key) : xstrdup("?");
		char *what = xstrfmt("tasks.%s.inputs", name);

		ret = moon_inputs(&m, ymap_get(&m.y, ynode(&m.y, p->value), "inputs"),
				  what, &globs, &wheres);
		while (ids.nr < globs.nr)
			strlist_push_owned(&ids, xstrfmt("moon:%s", what));
		free(what);
		free(name);
	}
	for (size_t i = 0; !ret && i < globs.nr; i++)
		ret = add_rule(r, project ? RULE_SELECT : RULE_RUN_ALL, ids.items[i],
			       globs.items[i], wheres.items[i], &tests);
out:
	strbuf_release(&pairs);
	free(source);
	strlist_release(&globs);
	strlist_release(&wheres);
	strlist_release(&tests);
	strlist_release(&ids);
	ydoc_release(&m.y);
	return ret;
}

/* A tiadash glob as a workspace-relative moon input ("/..."). Caller frees. */
static char *to_moon(const char *glob)
{
	if (glob[0] == '/')
		return xstrdup(glob);
	if (strchr(glob, '/') && strchr(glob, '/')[1])
		return xstrfmt("/%s", glob);
	return xstrfmt("/**/%s", glob);
}

/*
 * .moon/tasks: the glob goes last in implicitInputs (every inherited task
 * is then affected by it), which is added when absent. A project's
 * moon.yml has no list that affects every project: refused.
 */
static int moon_plan(struct adapter_edit *e, const char *path, const char *glob,
		     int64_t now)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	char *g = to_moon(glob);
	struct ydoc y;
	yaml_node_t *root, *list;
	int ret = 0;

	(void)now;
	if (e->variant == MOON_TASKS_V1) {
		ret = error("%s: moon 2 does not read .moon/tasks.yml: accept '%s' "
			    "into .moon/tasks/all.yml (its implicitInputs)", path, g);
		free(g);
		return ret;
	}
	if (e->variant == MOON_PROJECT) {
		ret = error("%s: a project's moon.yml cannot make every project "
			    "affected: accept '%s' into .moon/tasks/all.yml (its "
			    "implicitInputs), or add it to a task's inputs by hand",
			    path, g);
		free(g);
		return ret;
	}
	if (ydoc_load(&y, t, len, path, "moon config") < 0) {
		free(g);
		return -1;
	}
	root = yroot(&y);
	list = ymap_get(&y, root, "implicitInputs");
	if (strcmp(g, glob))
		strlist_push_owned(&e->notes, xstrfmt("written as '%s': moon's inputs "
						      "are relative to the project "
						      "unless they start with '/'", g));
	if (list && ynode_shared(&y, list)) {
		ret = yaml_shared_list_error(path, yline(list), "moon config",
					     "implicitInputs", g);
		goto out;
	}
	if (list && list->type == YAML_SEQUENCE_NODE)
		ret = yaml_insert(t, len, &y, list, g, &e->new_text);
	else if (!list && (!root || root->type == YAML_SCALAR_NODE)) {
		strbuf_addstr(&e->new_text, t);
		if (len && t[len - 1] != '\n')
			strbuf_addch(&e->new_text, '\n');
		strbuf_addf(&e->new_text, "implicitInputs:\n  - ");
		yaml_quote(&e->new_text, g, true);
		strbuf_addch(&e->new_text, '\n');
	} else if (!list)
		ret = yaml_insert_key(t, len, &y, root, "implicitInputs", g, &e->new_text);
	else
		ret = -1;
	if (ret < 0) {
		strbuf_reset(&e->new_text);
		ret = error("%s: moon config: tiadash found no safe place to add to "
			    "implicitInputs; add '%s' there by hand", path, g);
	} else {
		e->writable = true;
	}
out:
	ydoc_release(&y);
	free(g);
	return ret;
}

/* ---- the answer ---- */

static int moon_affected(struct adapter_read *c, const cJSON *root)
{
	const cJSON *options = jget(root, "options");

	if (!cJSON_IsObject(jget(options, "affected")))
		return answer_error(c, answer_line_of(c, "\"options\""), "not an --affected "
				   "query (\"options\".\"affected\" is missing): every "
				   "project would count as selected");
	return 0;
}

/* `moon query projects --affected`: {"projects": [{"id", "source", ...}], "options"}. */
static int read_moon_projects(struct adapter_read *c, const cJSON *projects)
{
	const cJSON *p;
	size_t i = 0;

	cJSON_ArrayForEach(p, projects) {
		const cJSON *id = jget(p, "id"), *source = jget(p, "source");
		char *rel;
		int line;

		if (!cJSON_IsObject(p) || !cJSON_IsString(id) || !cJSON_IsString(source))
			return answer_error(c, 0, "projects[%zu] has no \"id\" and "
					   "\"source\" strings", i);
		line = answer_value_line(c, id->valuestring);
		i++;
		if (!strcmp(source->valuestring, ".") || !*source->valuestring) {
			c->out->decision = DECISION_RUN_ALL;
			answer_add_reason(c, "moon:root-project");
			continue;
		}
		if (answer_repo_path(c, source->valuestring, line, &rel) < 0)
			return -1;
		answer_add_entry(c, rel);
		free(rel);
	}
	if (c->out->decision != DECISION_RUN_ALL)
		c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	answer_total_packages(c, i, "moon:all-projects-affected");
	return 0;
}

/*
 * `moon query tasks --affected`: {"tasks": {PROJECT: {TASK: {"target",
 * "type", ...}}}, "options"}. A task names no directory, so the entries
 * are the ids of the projects with an affected task of type "test".
 */
static int read_moon_tasks(struct adapter_read *c, const cJSON *tasks)
{
	const cJSON *proj, *task;
	size_t projects = 0;

	cJSON_ArrayForEach(proj, tasks) {
		if (!cJSON_IsObject(proj))
			return answer_error(c, answer_line_of(c, proj->string), "tasks.%s is not "
					   "an object of tasks", proj->string);
		projects++;
		cJSON_ArrayForEach(task, proj) {
			const cJSON *target = jget(task, "target"), *type = jget(task, "type");

			if (!cJSON_IsObject(task) || !cJSON_IsString(target) ||
			    !cJSON_IsString(type))
				return answer_error(c, answer_line_of(c, task->string), "tasks.%s.%s "
						   "has no \"target\" and \"type\" strings",
						   proj->string, task->string);
			if (!strcmp(type->valuestring, "test"))
				answer_add_entry(c, proj->string);
		}
	}
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	answer_total_packages(c, projects, "moon:all-projects-affected");
	return 0;
}

static int moon_read(struct adapter_read *c, const cJSON *root)
{
	const cJSON *projects = jget(root, "projects"), *tasks = jget(root, "tasks");

	if (!cJSON_IsObject(root) || (!cJSON_IsArray(projects) && !cJSON_IsObject(tasks)))
		return answer_error(c, 1, "neither {\"projects\": [...]} (moon query "
				   "projects) nor {\"tasks\": {...}} (moon query tasks)");
	if (moon_affected(c, root) < 0)
		return -1;
	return cJSON_IsArray(projects) ? read_moon_projects(c, projects)
				       : read_moon_tasks(c, tasks);
}

static int moon_answer(struct adapter_read *c)
{
	return answer_read_json(c, moon_read);
}

static int moon_detect(const char *path, const char *base)
{
	if (!strcmp(base, "moon.yml") || !strcmp(base, "moon.yaml"))
		return MOON_PROJECT;
	if ((!strcmp(base, "tasks.yml") || !strcmp(base, "tasks.yaml")) &&
	    conf_in_dir(path, ".moon"))
		return MOON_TASKS_V1;
	if (conf_yaml_name(base) && strstr(path, ".moon/tasks/"))
		return MOON_TASKS;
	return 0;
}

static const char *const moon_configs[] = { ".moon/tasks/all.yml", NULL };

const struct adapter adapter_moon = {
	.name = "moon",
	.answer_what = "moon query output",
	.config_what = "moon config",
	.detect_name = moon_detect,
	.read_answer = moon_answer,
	.read_rules = moon_rules,
	.plan_add = moon_plan,
	.reads_as = to_moon,
	.adds = RULE_RUN_ALL,
	/*
	 * moon reads the changed files from a piped stdin, one a line
	 * (crates/app/src/queries/changed_files.rs); replay's are the change's.
	 */
	.command = "MOON_BASE=\"$TIADASH_BASE\" MOON_HEAD=\"$TIADASH_HEAD\" "
		   "moon query tasks --affected",
	.node_tool = true,
	.config_files = moon_configs,
};
