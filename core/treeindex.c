/* The tree at one commit, indexed for test identity: paths, base names, packages, Go modules, workspaces. */
#include "core/tiadash.h"
#include "core/treeindex.h"
#include "core/glob.h"
#include "core/strmap.h"
#include "core/ydoc.h"

#include <cJSON.h>
#include <ctype.h>

struct tpath {
	char *path;
	enum tree_kind kind;
	int64_t next; /* the next path with the same base name, or -1 */
};

/* A *_test.go file (a path of the index) defining a test function. */
struct go_def {
	const char *file;
	int64_t next; /* the next file defining the same name, or -1 */
};

struct gomod {
	char *module, *dir;
};

struct tree_index {
	struct repo *r;
	git_tree *tree;
	bool walked, gomods_read, names_read, go_tests_read;
	struct tpath *paths;
	size_t nr, alloc;
	struct strmap by_path; /* path -> index into paths */
	struct strmap by_base; /* base name -> first index, chained by next */
	struct strmap packages; /* package directory -> index into package_dirs */
	struct strlist package_dirs;
	struct strlist gomod_files;
	struct gomod *mods;
	size_t nr_mods;
	struct strmap names;   /* package name / project id -> index into name_dirs, -1: two */
	struct strlist name_dirs;
	struct strmap moon_dirs; /* the directories of moon projects */
	struct strmap turbo_dirs; /* the directories of workspace packages */
	struct strmap go_tests; /* Go test function -> first index into go_defs */
	struct go_def *go_defs;
	size_t nr_go_defs, alloc_go_defs;
	const char **scratch;  /* tree_index_by_base's answer */
	size_t scratch_alloc;
};

/* Files whose directory is a package (a unit a monorepo tool builds and tests). */
static const char *const package_manifests[] = {
	"package.json", "go.mod", "moon.yml", "moon.yaml", "project.json",
	"pyproject.toml", "setup.py", "setup.cfg", "pom.xml", "build.gradle",
	"build.gradle.kts", "build.sbt", "Cargo.toml", "composer.json",
};

struct tree_index *tree_index_new(struct repo *r, git_tree *tree)
{
	struct tree_index *t = xcalloc(1, sizeof(*t));

	t->r = r;
	t->tree = tree;
	return t;
}

void tree_index_free(struct tree_index *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->paths[i].path);
	free(t->paths);
	strmap_clear(&t->by_path);
	strmap_clear(&t->by_base);
	strmap_clear(&t->packages);
	strlist_release(&t->package_dirs);
	strlist_release(&t->gomod_files);
	for (size_t i = 0; i < t->nr_mods; i++) {
		free(t->mods[i].module);
		free(t->mods[i].dir);
	}
	free(t->mods);
	strmap_clear(&t->names);
	strlist_release(&t->name_dirs);
	strmap_clear(&t->moon_dirs);
	strmap_clear(&t->turbo_dirs);
	strmap_clear(&t->go_tests);
	free(t->go_defs);
	free(t->scratch);
	git_tree_free(t->tree);
	free(t);
}

bool tree_is_package_manifest(const char *base)
{
	for (size_t i = 0; i < ARRAY_SIZE(package_manifests); i++)
		if (!strcmp(base, package_manifests[i]))
			return true;
	return ends_with(base, ".csproj") || ends_with(base, ".fsproj");
}

static enum tree_kind kind_of(git_object_t type)
{
	/* A submodule is a directory of the checkout. */
	return type == GIT_OBJECT_BLOB ? TREE_FILE : TREE_DIR;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void add_path(struct tree_index *t, const char *root, const char *name,
		     enum tree_kind kind)
{
	char *path = xstrfmt("%s%s", root, name);
	struct strmap_entry *e;
	bool added;

	ALLOC_GROW(t->paths, t->nr + 1, t->alloc);
	t->paths[t->nr] = (struct tpath){ path, kind, -1 };
	strmap_put(&t->by_path, path, strlen(path), (int64_t)t->nr);
	e = strmap_intern(&t->by_base, name, strlen(name), (int64_t)t->nr, &added);
	if (!added) {
		t->paths[t->nr].next = e->value;
		e->value = (int64_t)t->nr;
	}
	t->nr++;
	if (kind == TREE_FILE && tree_is_package_manifest(name)) {
		size_t dlen = strlen(root) ? strlen(root) - 1 : 0;

		strmap_intern(&t->packages, root, dlen, (int64_t)t->package_dirs.nr, &added);
		if (added)
			strlist_push_owned(&t->package_dirs, xstrndup(root, dlen));
		if (!strcmp(name, "go.mod"))
			strlist_push(&t->gomod_files, path);
	}
}

static int on_entry(const char *root, const git_tree_entry *e, void *data)
{
	const char *name = git_tree_entry_name(e);
	git_object_t type = git_tree_entry_type(e);

	if (type == GIT_OBJECT_TREE && !strcmp(name, "node_modules"))
		return 1; /* not part of the project's own tree: skip it */
	add_path(data, root, name, kind_of(type));
	return 0;
}

static void walk(struct tree_index *t)
{
	if (t->walked)
		return;
	t->walked = true;
	if (git_tree_walk(t->tree, GIT_TREEWALK_PRE, on_entry, t) < 0)
		warning("cannot read the whole tree: %s", git_error_last() ?
			git_error_last()->message : "unknown libgit2 error");
}

enum tree_kind tree_index_kind(struct tree_index *t, const char *path)
{
	git_tree_entry *e = NULL;
	enum tree_kind kind;
	int64_t i;

	if (!*path || !strcmp(path, "."))
		return TREE_DIR;
	if (t->walked)
		return strmap_get(&t->by_path, path, &i) ? t->paths[i].kind : TREE_ABSENT;
	if (git_tree_entry_bypath(&e, t->tree, path) < 0)
		return TREE_ABSENT;
	kind = kind_of(git_tree_entry_type(e));
	git_tree_entry_free(e);
	return kind;
}

const char *const *tree_index_by_base(struct tree_index *t, const char *base, size_t *nr)
{
	int64_t i;

	walk(t);
	*nr = 0;
	if (!strmap_get(&t->by_base, base, &i))
		return NULL;
	for (; i >= 0; i = t->paths[i].next) {
		ALLOC_GROW(t->scratch, *nr + 1, t->scratch_alloc);
		t->scratch[(*nr)++] = t->paths[i].path;
	}
	return t->scratch;
}

bool tree_index_is_package(struct tree_index *t, const char *dir)
{
	walk(t);
	return strmap_find(&t->packages, dir, strlen(dir)) != NULL;
}

const char *tree_index_package_of(struct tree_index *t, const char *path)
{
	size_t n = strlen(path);
	struct strmap_entry *e;

	walk(t);
	while (n > 0) {
		while (n > 0 && path[n - 1] != '/')
			n--;
		if (n == 0)
			break;
		n--; /* the directory path[0..n) */
		e = strmap_find(&t->packages, path, n);
		if (e)
			return t->package_dirs.items[e->value];
	}
	e = strmap_find(&t->packages, "", 0);
	return e ? t->package_dirs.items[e->value] : NULL;
}

/* ---- Go modules ---- */

/* The module path of a go.mod's text ("module example.com/x"), or NULL. */
static char *module_path(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *s = l, *end;

		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, "module", 6) || (s[6] != ' ' && s[6] != '\t'))
			continue;
		s += 6;
		while (*s == ' ' || *s == '\t' || *s == '"' || *s == '`')
			s++;
		end = s;
		while (*end && !strchr(" \t\r\n\"`/", *end))
			end++;
		/* A module path is slash-separated: take its components too. */
		while (*end == '/' && end[1] && !strchr(" \t\r\n\"`", end[1]))
			for (end++; *end && !strchr(" \t\r\n\"`/", *end); end++)
				;
		return end > s ? xstrndup(s, (size_t)(end - s)) : NULL;
	}
	return NULL;
}

static void read_gomods(struct tree_index *t)
{
	struct strbuf sb = STRBUF_INIT;

	walk(t);
	if (t->gomods_read)
		return;
	t->gomods_read = true;
	t->mods = xcalloc(t->gomod_files.nr + 1, sizeof(*t->mods));
	for (size_t i = 0; i < t->gomod_files.nr; i++) {
		const char *f = t->gomod_files.items[i];
		char *mod;

		strbuf_reset(&sb);
		if (repo_tree_read_file(t->r, t->tree, f, &sb) < 0 || !(mod = module_path(sb.buf)))
			continue;
		t->mods[t->nr_mods].module = mod;
		t->mods[t->nr_mods].dir = xstrndup(f, (size_t)(base_of(f) - f));
		t->nr_mods++;
	}
	strbuf_release(&sb);
}

int tree_index_go_package(struct tree_index *t, const char *import_path, char **dir)
{
	const struct gomod *best = NULL;
	size_t best_len = 0;
	char *d;

	read_gomods(t);
	for (size_t i = 0; i < t->nr_mods; i++) {
		const char *m = t->mods[i].module;
		size_t n = strlen(m);

		if (n > best_len && !strncmp(import_path, m, n) &&
		    (import_path[n] == '\0' || import_path[n] == '/'))
			best = &t->mods[i], best_len = n;
	}
	if (!best)
		return 0;
	d = xstrfmt("%s%s", best->dir, import_path[best_len] ? import_path + best_len + 1 : "");
	if (*d && d[strlen(d) - 1] == '/')
		d[strlen(d) - 1] = '\0';
	if (tree_index_kind(t, d) != TREE_DIR) {
		free(d);
		return 0;
	}
	if (!*d) {
		free(d);
		d = xstrdup(".");
	}
	*dir = d;
	return 1;
}

/* ---- Go test functions ---- */

/* Is name[0..n) a Go test function's name: Test, Benchmark, Fuzz or Example, then no lower-case letter? */
bool tree_go_test_name(const char *name, size_t n)
{
	static const char *const kinds[] = { "Test", "Benchmark", "Fuzz", "Example" };

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t k = strlen(kinds[i]);

		if (n < k || strncmp(name, kinds[i], k))
			continue;
		if (n > k && islower((unsigned char)name[k]))
			return false;
		for (size_t j = k; j < n; j++)
			if (!isalnum((unsigned char)name[j]) && name[j] != '_')
				return false;
		return true;
	}
	return false;
}

/* Every top-level `func TestX(` of one test file's text, under file. */
static void scan_go_tests(struct tree_index *t, const char *file, const char *text)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *name, *end;
		struct strmap_entry *e;
		bool added;

		if (strncmp(line, "func ", 5))
			continue;
		name = line + 5;
		for (end = name; isalnum((unsigned char)*end) || *end == '_'; end++)
			;
		if (*end != '(' || !tree_go_test_name(name, (size_t)(end - name)))
			continue;
		ALLOC_GROW(t->go_defs, t->nr_go_defs + 1, t->alloc_go_defs);
		t->go_defs[t->nr_go_defs] = (struct go_def){ file, -1 };
		e = strmap_intern(&t->go_tests, name, (size_t)(end - name),
				  (int64_t)t->nr_go_defs, &added);
		if (!added) {
			/* A file defines a name once (Go refuses two); keep each file once all the same. */
			if (!strcmp(t->go_defs[e->value].file, file))
				continue;
			t->go_defs[t->nr_go_defs].next = e->value;
			e->value = (int64_t)t->nr_go_defs;
		}
		t->nr_go_defs++;
	}
}

/* Read every *_test.go file of the tree once, when a module says it is Go's. */
static void read_go_tests(struct tree_index *t)
{
	struct strbuf sb = STRBUF_INIT;

	read_gomods(t);
	if (t->go_tests_read)
		return;
	t->go_tests_read = true;
	if (!t->gomod_files.nr)
		return;
	for (size_t i = 0; i < t->nr; i++) {
		if (t->paths[i].kind != TREE_FILE || !ends_with(t->paths[i].path, "_test.go"))
			continue;
		strbuf_reset(&sb);
		if (repo_tree_read_file(t->r, t->tree, t->paths[i].path, &sb) == 0)
			scan_go_tests(t, t->paths[i].path, sb.buf);
	}
	strbuf_release(&sb);
}

const char *const *tree_index_go_test_files(struct tree_index *t, const char *name, size_t *nr)
{
	int64_t i;

	read_go_tests(t);
	*nr = 0;
	if (!strmap_get(&t->go_tests, name, &i))
		return NULL;
	for (; i >= 0; i = t->go_defs[i].next) {
		ALLOC_GROW(t->scratch, *nr + 1, t->scratch_alloc);
		t->scratch[(*nr)++] = t->go_defs[i].file;
	}
	return t->scratch;
}

/* ---- Turborepo packages and moon projects ---- */

static void add_name(struct tree_index *t, const char *name, const char *dir)
{
	struct strmap_entry *e;
	bool added;

	e = strmap_intern(&t->names, name, strlen(name), (int64_t)t->name_dirs.nr, &added);
	if (added)
		strlist_push(&t->name_dirs, dir);
	else if (e->value >= 0 && strcmp(t->name_dirs.items[e->value], dir))
		e->value = -1;
}

static cJSON *read_json(struct tree_index *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	cJSON *j = NULL;

	if (repo_tree_read_file(t->r, t->tree, path, &sb) == 0)
		j = cJSON_ParseWithLength(sb.buf, sb.len);
	strbuf_release(&sb);
	return j;
}

static bool read_yaml(struct tree_index *t, const char *path, struct ydoc *y)
{
	struct strbuf sb = STRBUF_INIT;

	y->loaded = false;
	if (repo_tree_read_file(t->r, t->tree, path, &sb) == 0 &&
	    ydoc_load_quiet(y, sb.buf, sb.len) && !yroot(y))
		ydoc_release(y);
	strbuf_release(&sb);
	return y->loaded;
}

/* The value of key in mapping node map, or NULL (its own keys only: no merge key). */
static yaml_node_t *yget(struct ydoc *y, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++)
		if (yscalar_is(ynode(y, p->key), key))
			return ynode(y, p->value);
	return NULL;
}

/*
 * Workspace globs name directories relative to the root: anchored, and
 * "!" ones apart as exclusions; a moon glob may end in "/moon.yml".
 */
struct workspace_globs {
	struct glob_set *include, *exclude;
};

static void add_workspace_glob(struct workspace_globs *w, const char *g)
{
	struct strbuf pat = STRBUF_INIT, why = STRBUF_INIT;
	bool exclude = *g == '!';

	if (exclude)
		g++;
	while (starts_with(g, "./"))
		g += 2;
	strbuf_addch(&pat, '/');
	strbuf_addstr(&pat, *g == '/' ? g + 1 : g);
	while (pat.len > 1 && pat.buf[pat.len - 1] == '/')
		strbuf_setlen(&pat, pat.len - 1);
	if (ends_with(pat.buf, "/moon.yml") || ends_with(pat.buf, "/moon.yaml"))
		strbuf_setlen(&pat, (size_t)(strrchr(pat.buf, '/') - pat.buf));
	/* A glob tiadash cannot read names nothing. */
	if (pat.len > 1)
		glob_set_add(exclude ? w->exclude : w->include, pat.buf, 1, &why);
	strbuf_release(&pat);
	strbuf_release(&why);
}

static bool glob_hits(struct glob_set *gs, const char *path)
{
	return glob_set_size(gs) && glob_set_match(gs, path) >= 0;
}

/*
 * Is dir one of the directories the globs name? gitignore-style globs also
 * match everything below a directory they match, so only the top-most
 * matching directories count: a glob naming packages/a does
 * not name packages/a/src too.
 */
static bool workspace_has(struct workspace_globs *w, const char *dir)
{
	char *up;
	bool top = true;

	if (!glob_hits(w->include, dir) || glob_hits(w->exclude, dir))
		return false;
	up = xstrdup(dir);
	for (char *s; top && (s = strrchr(up, '/')); ) {
		*s = '\0';
		top = !glob_hits(w->include, up);
	}
	free(up);
	return top;
}

static bool workspace_compile(struct workspace_globs *w)
{
	return glob_set_size(w->include) && glob_set_compile(w->include, 0) == 0 &&
	       (!glob_set_size(w->exclude) || glob_set_compile(w->exclude, 0) == 0);
}

static void workspace_init(struct workspace_globs *w)
{
	w->include = glob_set_new();
	w->exclude = glob_set_new();
}

static void workspace_release(struct workspace_globs *w)
{
	glob_set_free(w->include);
	glob_set_free(w->exclude);
}

static void json_globs(struct workspace_globs *w, const cJSON *arr)
{
	const cJSON *g;

	cJSON_ArrayForEach(g, arr)
		if (cJSON_IsString(g))
			add_workspace_glob(w, g->valuestring);
}

static void yaml_globs(struct workspace_globs *w, struct ydoc *y, yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return;
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		char *g = yscalar(ynode(y, *it));

		if (g)
			add_workspace_glob(w, g);
		free(g);
	}
}

/* Turborepo (npm, yarn, pnpm workspaces): each package.json's "name" under the workspace globs. */
static void read_turbo_names(struct tree_index *t)
{
	struct workspace_globs w;
	cJSON *root = read_json(t, "package.json");
	const cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "workspaces");
	struct ydoc y;

	workspace_init(&w);
	json_globs(&w, cJSON_IsObject(ws) ? cJSON_GetObjectItemCaseSensitive(ws, "packages") : ws);
	cJSON_Delete(root);
	if (read_yaml(t, "pnpm-workspace.yaml", &y)) {
		yaml_globs(&w, &y, yget(&y, yroot(&y), "packages"));
		ydoc_release(&y);
	}
	if (workspace_compile(&w)) {
		for (size_t i = 0; i < t->nr; i++) {
			const char *p = t->paths[i].path, *base = base_of(p);
			char *dir;
			cJSON *pkg;
			const cJSON *name;

			if (strcmp(base, "package.json") || base == p)
				continue;
			dir = xstrndup(p, (size_t)(base - p - 1));
			if (workspace_has(&w, dir) && (pkg = read_json(t, p))) {
				name = cJSON_GetObjectItemCaseSensitive(pkg, "name");
				if (cJSON_IsString(name) && *name->valuestring) {
					add_name(t, name->valuestring, dir);
					strmap_intern(&t->turbo_dirs, dir, strlen(dir), 0, NULL);
				}
				cJSON_Delete(pkg);
			}
			free(dir);
		}
	}
	workspace_release(&w);
}

/* A moon project at dir: its id is moon.yml's "id", else the one given, else the directory's name. */
static void add_moon_project(struct tree_index *t, const char *dir, const char *given)
{
	char *moon = xstrfmt("%s/moon.yml", dir);
	char *id = NULL;
	struct ydoc y;
	bool added;

	strmap_intern(&t->moon_dirs, dir, strlen(dir), 0, &added);
	if (read_yaml(t, moon, &y)) {
		id = yscalar(yget(&y, yroot(&y), "id"));
		ydoc_release(&y);
	}
	if (given)
		add_name(t, given, dir);
	if (id && *id)
		add_name(t, id, dir);
	else if (!given)
		add_name(t, base_of(dir), dir);
	free(id);
	free(moon);
}

static void moon_sources(struct tree_index *t, struct ydoc *y, yaml_node_t *map)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		char *id = yscalar(ynode(y, p->key)), *src = yscalar(ynode(y, p->value));

		if (id && src && strcmp(id, "globs") && strcmp(id, "sources")) {
			char *s = src;

			while (starts_with(s, "./"))
				s += 2;
			if (*s && strcmp(s, ".") && tree_index_kind(t, s) == TREE_DIR)
				add_moon_project(t, s, id);
		}
		free(id);
		free(src);
	}
}

static void read_moon_projects(struct tree_index *t)
{
	struct workspace_globs w;
	yaml_node_t *projects, *sources;
	struct ydoc y;

	if (!read_yaml(t, ".moon/workspace.yml", &y) && !read_yaml(t, ".moon/workspace.yaml", &y))
		return;
	workspace_init(&w);
	projects = yget(&y, yroot(&y), "projects");
	if (projects && projects->type == YAML_SEQUENCE_NODE) {
		yaml_globs(&w, &y, projects);
	} else if (projects && projects->type == YAML_MAPPING_NODE) {
		yaml_globs(&w, &y, yget(&y, projects, "globs"));
		sources = yget(&y, projects, "sources");
		moon_sources(t, &y, sources && sources->type == YAML_MAPPING_NODE ? sources : projects);
	}
	/* moon skips dot-directories when it expands project globs. */
	if (workspace_compile(&w))
		for (size_t i = 0; i < t->nr; i++)
			if (t->paths[i].kind == TREE_DIR && base_of(t->paths[i].path)[0] != '.' &&
			    workspace_has(&w, t->paths[i].path))
				add_moon_project(t, t->paths[i].path, NULL);
	ydoc_release(&y);
	workspace_release(&w);
}

/* The names of the workspace files' packages and projects, read once. */
static void read_names(struct tree_index *t)
{
	if (t->names_read)
		return;
	t->names_read = true;
	/* No workspace file, no package names: no walk of the tree. */
	if (tree_index_kind(t, "package.json") || tree_index_kind(t, "pnpm-workspace.yaml") ||
	    tree_index_kind(t, ".moon/workspace.yml") ||
	    tree_index_kind(t, ".moon/workspace.yaml")) {
		walk(t);
		read_turbo_names(t);
		read_moon_projects(t);
	}
}

int tree_index_named_package(struct tree_index *t, const char *name, const char **dir)
{
	int64_t i;

	read_names(t);
	if (!strmap_get(&t->names, name, &i))
		return 0;
	if (i < 0)
		return -1;
	*dir = t->name_dirs.items[i];
	return 1;
}

size_t tree_index_moon_projects(struct tree_index *t)
{
	read_names(t);
	return t->moon_dirs.nr;
}

size_t tree_index_turbo_packages(struct tree_index *t)
{
	read_names(t);
	return t->turbo_dirs.nr;
}
