/* Test names resolved to repository paths through the tree at a run's head (SPEC 3.3). */
#include "core/tiadash.h"
#include "core/identity.h"
#include "core/strmap.h"
#include "core/treeindex.h"

#include <ctype.h>

#define CACHED_RUNS 4

struct identity {
	char *run;              /* head, repository and map: what the cache matches */
	char *base;             /* the run whose change this is (the cache is its answers) */
	const struct idmap *map;
	struct tree_index *tree; /* NULL: no tree */
	char *workdir;          /* "" for the root */
	struct strlist changed; /* the change's paths */
	struct strlist change_packages;
	bool packages_known;
	struct strmap cache;    /* flags byte + key -> index into results */
	struct strbuf cache_key; /* suite_index's, kept: most calls find their answer */
	struct id_result *results;
	size_t nr, alloc;
	uint64_t used;
};

struct identity_cache {
	struct identity *runs[CACHED_RUNS];
	uint64_t clock;
};

const char *id_state_name(enum id_state s)
{
	switch (s) {
	case ID_RESOLVED: return "resolved";
	case ID_NAME: return "a suite name";
	case ID_NOT_FOUND: return "not found";
	case ID_AMBIGUOUS: return "ambiguous";
	case ID_OUTSIDE: return "outside the tree";
	case ID_NO_TREE: return "no tree";
	}
	return "?";
}

struct identity_cache *identity_cache_new(void)
{
	return xcalloc(1, sizeof(struct identity_cache));
}

static void forget_answers(struct identity *id);

static void identity_free(struct identity *id)
{
	if (!id)
		return;
	forget_answers(id);
	free(id->results);
	strbuf_release(&id->cache_key);
	strlist_release(&id->changed);
	tree_index_free(id->tree);
	free(id->workdir);
	free(id->base);
	free(id->run);
	free(id);
}

void identity_cache_free(struct identity_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < CACHED_RUNS; i++)
		identity_free(c->runs[i]);
	free(c);
}

/* A workdir as a clean relative directory: no "./", no trailing '/'; "" for the root. */
static char *clean_workdir(const char *w)
{
	size_t n;

	if (!w)
		return xstrdup("");
	while (starts_with(w, "./"))
		w += 2;
	n = strlen(w);
	while (n > 0 && w[n - 1] == '/')
		n--;
	return n == 1 && *w == '.' ? xstrdup("") : xstrndup(w, n);
}

static void forget_answers(struct identity *id)
{
	for (size_t i = 0; i < id->nr; i++) {
		free((char *)id->results[i].key);
		if (*id->results[i].suffix) /* "" is not allocated */
			free((char *)id->results[i].suffix);
	}
	id->nr = 0;
	strmap_clear(&id->cache);
	strlist_release(&id->change_packages);
	id->packages_known = false;
}

/*
 * The change of the run: the package fallback's tie-breaker. Another base
 * is another change, and the answers given for the last one are dropped
 * (the tree's index is the head's, and stays).
 */
static void use_change(struct identity *id, const char *base, const struct repo_diff *change)
{
	if (id->base && !strcmp(id->base, base ? base : ""))
		return;
	forget_answers(id);
	free(id->base);
	id->base = xstrdup(base ? base : "");
	strlist_release(&id->changed);
	for (size_t i = 0; change && i < change->nr; i++)
		strlist_push(&id->changed, change->files[i].path);
}

static struct identity *identity_new(const char *run, struct repo *r, const char *head,
				     const struct idmap *map)
{
	struct identity *id = xcalloc(1, sizeof(*id));
	git_tree *tree = r && head && is_hex_sha(head) ? repo_tree_at(r, head) : NULL;

	id->run = xstrdup(run);
	id->map = map;
	id->tree = tree ? tree_index_new(r, tree) : NULL;
	id->workdir = xstrdup("");
	id->cache_key = (struct strbuf)STRBUF_INIT;
	return id;
}

struct identity *identity_for_run(struct identity_cache *c, struct repo *r,
				  const char *head, const char *base,
				  const char *workdir, const struct repo_diff *change,
				  const struct idmap *map)
{
	char *run = xstrfmt("%s %p %p", head ? head : "", (const void *)r, (const void *)map);
	struct identity *id = NULL;
	size_t victim = 0;

	for (size_t i = 0; i < CACHED_RUNS && !id; i++) {
		if (c->runs[i] && !strcmp(c->runs[i]->run, run))
			id = c->runs[i];
		else if (!c->runs[i] || (c->runs[victim] && c->runs[i]->used < c->runs[victim]->used))
			victim = i;
	}
	if (!id) {
		identity_free(c->runs[victim]);
		id = c->runs[victim] = identity_new(run, r, head, map);
	}
	free(run);
	id->used = ++c->clock;
	use_change(id, base, change);
	identity_use_workdir(id, workdir);
	return id;
}

void identity_use_workdir(struct identity *id, const char *workdir)
{
	free(id->workdir);
	id->workdir = clean_workdir(workdir);
}

/* ---- what the tree has ---- */

static bool exists(struct identity *id, const char *path)
{
	return tree_index_kind(id->tree, path) != TREE_ABSENT;
}

/* The packages the change touches (the package fallback's tie-breaker). */
static const struct strlist *change_packages(struct identity *id)
{
	if (!id->packages_known) {
		struct strmap seen = STRMAP_INIT;

		id->packages_known = true;
		for (size_t i = 0; i < id->changed.nr; i++) {
			const char *p = tree_index_package_of(id->tree, id->changed.items[i]);
			bool added;

			if (!p)
				continue;
			strmap_intern(&seen, p, strlen(p), 0, &added);
			if (added)
				strlist_push(&id->change_packages, p);
		}
		strmap_clear(&seen);
	}
	return &id->change_packages;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !n || (!strncmp(path, dir, n) && path[n] == '/');
}

static bool in_changed_package(struct identity *id, const char *path)
{
	const struct strlist *pk = change_packages(id);
	const char *mine = tree_index_package_of(id->tree, path);

	for (size_t i = 0; mine && i < pk->nr; i++)
		if (!strcmp(pk->items[i], mine))
			return true;
	return false;
}

/*
 * One of several candidate paths: the only one, else the only one under the
 * workdir, else the only one in a package the change touches. 1 and *out,
 * 0 when there is none, -1 when it stays ambiguous.
 */
static int pick_one(struct identity *id, const char *const *cands, size_t n,
		    const char **out)
{
	size_t hits = 0;
	const char *hit = NULL;

	if (n == 0)
		return 0;
	if (n == 1) {
		*out = cands[0];
		return 1;
	}
	for (size_t i = 0; *id->workdir && i < n; i++) {
		if (under(cands[i], id->workdir)) {
			hits++;
			hit = cands[i];
		}
	}
	if (hits != 1) {
		hits = 0;
		for (size_t i = 0; i < n; i++) {
			if (in_changed_package(id, cands[i])) {
				hits++;
				hit = cands[i];
			}
		}
	}
	if (hits != 1)
		return -1;
	*out = hit;
	return 1;
}

/* ---- the name forms ---- */

struct answer {
	struct strbuf key, suffix;
	enum id_state state;
};

static int found(struct answer *a, const char *path, size_t len)
{
	strbuf_reset(&a->key);
	strbuf_add(&a->key, path, len);
	a->state = ID_RESOLVED;
	return 1;
}

/* A path under the workdir, else from the root. */
static int as_path(struct identity *id, const char *key, struct answer *a)
{
	if (*id->workdir) {
		char *p = path_join(id->workdir, key);
		int hit = exists(id, p) ? found(a, p, strlen(p)) : 0;

		free(p);
		if (hit)
			return 1;
	}
	return exists(id, key) ? found(a, key, strlen(key)) : 0;
}

static bool is_word(const char *s, size_t n)
{
	if (!n || isdigit((unsigned char)*s))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * A dotted classname split into its components, the last one without its
 * nested classes (Java's Outer$Inner, .NET's Outer+Inner), which go into
 * nested. False when key is not one.
 */
static bool split_dotted(const char *key, struct strlist *parts, struct strlist *nested)
{
	const char *p = key, *end = key + strlen(key), *mark = strpbrk(key, "$+");

	if (!strchr(key, '.') || strchr(key, '/'))
		return false;
	if (mark) {
		for (const char *s = mark + 1, *e; s <= end; s = e + 1) {
			e = s + strcspn(s, "$+");
			if (!is_word(s, (size_t)(e - s)))
				return false;
			strlist_push_owned(nested, xstrndup(s, (size_t)(e - s)));
		}
		end = mark;
	}
	for (const char *e; p <= end; p = e + 1) {
		e = memchr(p, '.', (size_t)(end - p));
		if (!e)
			e = end;
		if (!is_word(p, (size_t)(e - p)))
			return false;
		strlist_push_owned(parts, xstrndup(p, (size_t)(e - p)));
	}
	return parts->nr >= 2;
}

static void join(struct strbuf *sb, const struct strlist *l, size_t from, size_t to,
		 const char *sep)
{
	for (size_t i = from; i < to; i++) {
		if (i > from)
			strbuf_addstr(sb, sep);
		strbuf_addstr(sb, l->items[i]);
	}
}

/* The class part beyond the first i components: "TestWidth", "Outer::Inner". */
static void class_part(struct answer *a, const struct strlist *parts, size_t i,
		       const struct strlist *nested)
{
	strbuf_reset(&a->suffix);
	join(&a->suffix, parts, i, parts->nr, "::");
	if (a->suffix.len && nested->nr)
		strbuf_addstr(&a->suffix, "::");
	join(&a->suffix, nested, 0, nested->nr, "::");
}

/* pytest's classname: the module path, then classes. */
static int python_module(struct identity *id, const struct strlist *parts,
			 const struct strlist *nested, struct answer *a)
{
	struct strbuf p = STRBUF_INIT;
	int hit = 0;

	for (size_t i = parts->nr; i >= 1 && !hit; i--) {
		strbuf_reset(&p);
		join(&p, parts, 0, i, "/");
		strbuf_addstr(&p, ".py");
		hit = as_path(id, p.buf, a);
		if (hit)
			class_part(a, parts, i, nested);
	}
	strbuf_release(&p);
	return hit;
}

/* How many of a namespace's components name directories of path. */
static size_t namespace_score(const char *path, const struct strlist *parts, size_t i)
{
	size_t score = 0;

	for (size_t k = 0; k + 1 < i; k++) {
		const char *s = path;
		size_t n = strlen(parts->items[k]);

		for (; (s = strstr(s, parts->items[k])); s += n)
			if ((s == path || s[-1] == '/' || s[-1] == '.') &&
			    (s[n] == '/' || s[n] == '.')) {
				score++;
				break;
			}
	}
	return score;
}

/*
 * JVM and .NET classnames: the source file named after the class. A JVM
 * file must sit in its package's directories; a .NET file is the one whose
 * directories carry most of the namespace.
 */
static int class_file(struct identity *id, const struct strlist *parts,
		      const struct strlist *nested, struct answer *a)
{
	static const char *const jvm[] = { ".java", ".kt", ".scala", ".groovy" };
	struct strbuf want = STRBUF_INIT, base = STRBUF_INIT;
	const char **cands = NULL;
	size_t nr = 0, alloc = 0;
	int rc = 0;

	for (size_t i = parts->nr; i >= 1 && !rc; i--) {
		size_t best = 0;
		const char *const *list;
		size_t n;
		const char *pick = NULL;

		nr = 0;
		strbuf_reset(&want);
		join(&want, parts, 0, i, "/");
		for (size_t e = 0; e < ARRAY_SIZE(jvm); e++) {
			strbuf_reset(&base);
			strbuf_addf(&base, "%s%s", parts->items[i - 1], jvm[e]);
			list = tree_index_by_base(id->tree, base.buf, &n);
			for (size_t k = 0; k < n; k++) {
				size_t plen = strlen(list[k]) - strlen(jvm[e]);

				if (plen >= want.len && !strncmp(list[k] + plen - want.len, want.buf, want.len) &&
				    (plen == want.len || list[k][plen - want.len - 1] == '/')) {
					ALLOC_GROW(cands, nr + 1, alloc);
					cands[nr++] = list[k];
				}
			}
		}
		if (!nr) {
			strbuf_reset(&base);
			strbuf_addf(&base, "%s.cs", parts->items[i - 1]);
			list = tree_index_by_base(id->tree, base.buf, &n);
			for (size_t k = 0; k < n; k++) {
				size_t score = namespace_score(list[k], parts, i);

				if (!nr || score > best) {
					best = score;
					nr = 0;
				}
				if (score == best) {
					ALLOC_GROW(cands, nr + 1, alloc);
					cands[nr++] = list[k];
				}
			}
		}
		rc = pick_one(id, cands, nr, &pick);
		if (rc > 0) {
			found(a, pick, strlen(pick));
			class_part(a, parts, i, nested);
		}
	}
	if (rc < 0)
		a->state = ID_AMBIGUOUS;
	free(cands);
	strbuf_release(&want);
	strbuf_release(&base);
	return rc;
}

static int dotted(struct identity *id, const char *key, bool jvm, struct answer *a)
{
	struct strlist parts = STRLIST_INIT, nested = STRLIST_INIT;
	int rc = 0;

	if (split_dotted(key, &parts, &nested))
		rc = jvm ? class_file(id, &parts, &nested, a) : python_module(id, &parts, &nested, a);
	strlist_release(&parts);
	strlist_release(&nested);
	return rc;
}

static int go_package(struct identity *id, const char *key, struct answer *a)
{
	char *dir = NULL;
	const char *slash = strchr(key, '/');

	/*
	 * An import path has a '/' or a '.'; look for go.mod files (a walk
	 * of the tree) only when the root has one or the path starts with a
	 * domain (github.com/...), not for every path the tree lacks.
	 */
	if (!slash && !strchr(key, '.'))
		return 0;
	if (!exists(id, "go.mod") && !(slash && memchr(key, '.', (size_t)(slash - key))))
		return 0;
	if (tree_index_go_package(id->tree, key, &dir) <= 0)
		return 0;
	found(a, dir, strlen(dir));
	free(dir);
	return 1;
}

/* A relative path under one package directory (a runner that ran inside it). */
static int in_package(struct identity *id, const char *key, struct answer *a)
{
	const char *base = strrchr(key, '/') ? strrchr(key, '/') + 1 : key;
	const char *const *list;
	const char **cands = NULL, *pick = NULL;
	size_t n, nr = 0, alloc = 0, klen = strlen(key);
	int rc;

	list = tree_index_by_base(id->tree, base, &n);
	for (size_t i = 0; i < n; i++) {
		size_t plen = strlen(list[i]);
		char *dir;

		if (plen <= klen + 1 || strcmp(list[i] + plen - klen, key) ||
		    list[i][plen - klen - 1] != '/')
			continue;
		dir = xstrndup(list[i], plen - klen - 1);
		if (tree_index_is_package(id->tree, dir)) {
			ALLOC_GROW(cands, nr + 1, alloc);
			cands[nr++] = list[i];
		}
		free(dir);
	}
	rc = pick_one(id, cands, nr, &pick);
	if (rc > 0)
		found(a, pick, strlen(pick));
	else if (rc < 0)
		a->state = ID_AMBIGUOUS;
	free(cands);
	return rc;
}

static int named_package(struct identity *id, const char *key, struct answer *a)
{
	const char *dir;
	int rc = tree_index_named_package(id->tree, key, &dir);

	if (rc > 0)
		found(a, dir, strlen(dir));
	else if (rc < 0)
		a->state = ID_AMBIGUOUS;
	return rc;
}

/* Backslashes to slashes, no "./" in front, no '/' at the end. */
static char *normalize(const char *key)
{
	char *k, *s;
	size_t n;

	while (starts_with(key, "./"))
		key += 2;
	k = xstrdup(key);
	for (s = k; *s; s++)
		if (*s == '\\')
			*s = '/';
	n = strlen(k);
	while (n > 1 && k[n - 1] == '/')
		k[--n] = '\0';
	return k;
}

static bool outside(const char *key)
{
	if (key[0] == '/' || (isalpha((unsigned char)key[0]) && key[1] == ':' && key[2] == '/'))
		return true;
	for (const char *s = key;; s++) {
		if (s[0] == '.' && s[1] == '.' && (s[2] == '/' || !s[2]))
			return true;
		s = strchr(s, '/');
		if (!s)
			return false;
	}
}

static bool is_token_n(const char *s, size_t n)
{
	if (!n || (!isalpha((unsigned char)*s) && *s != '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

static bool is_token(const char *s)
{
	return is_token_n(s, strlen(s));
}

/* The steps of core/identity.h, in order; false when none resolves key. */
static bool resolve_in_tree(struct identity *id, const char *key, const char *written,
			    unsigned flags, struct answer *a)
{
	if (as_path(id, key, a) > 0 || dotted(id, key, false, a) > 0 ||
	    go_package(id, key, a) > 0 || dotted(id, key, true, a) > 0)
		return true;
	if (a->state == ID_AMBIGUOUS)
		return false;
	/* A bare token is no relative path: no walk for ctest's suites. */
	if (!is_token(key) && in_package(id, key, a) > 0)
		return true;
	return a->state != ID_AMBIGUOUS && (flags & ID_ENTRY) && named_package(id, written, a) > 0;
}

/* A suite name that cannot be a path: ctest's and codebase-memory-mcp's tokens. */
static void resolve(struct identity *id, const char *written, unsigned flags,
		    struct answer *a)
{
	char *key = normalize(written);

	a->state = ID_NOT_FOUND;
	if (!id->tree)
		a->state = ID_NO_TREE;
	else if (*key && strcmp(key, ".") && outside(key))
		a->state = ID_OUTSIDE;
	else if (*key)
		resolve_in_tree(id, key, written, flags, a);
	if ((a->state == ID_NOT_FOUND || a->state == ID_NO_TREE) && is_token(written))
		a->state = ID_NAME;
	if (a->state != ID_RESOLVED) {
		strbuf_reset(&a->key);
		strbuf_addstr(&a->key, written);
		strbuf_reset(&a->suffix);
	}
	free(key);
}

/* Without a tree (or an id-map) a name is what it says: no look-up, nothing to cache. */
static bool as_written(const struct identity *id, unsigned flags)
{
	return !id->tree && !((flags & ID_MAP) && id->map);
}

bool identity_rewrites(const struct identity *id, unsigned flags)
{
	return !as_written(id, flags);
}

static enum id_state written_state(const char *key, size_t len)
{
	return is_token_n(key, len) ? ID_NAME : ID_NO_TREE;
}

/*
 * The index of key's answer in id->results, looked up or made. An index,
 * not a pointer: making an answer grows id->results, which moves it.
 */
static size_t suite_index(struct identity *id, const char *key, unsigned flags)
{
	struct answer a = { STRBUF_INIT, STRBUF_INIT, ID_NOT_FOUND };
	struct strbuf *ck = &id->cache_key;
	struct strmap_entry *e;
	struct id_result *r;
	bool added;

	strbuf_reset(ck);
	strbuf_addch(ck, (char)('0' + (flags & (ID_ENTRY | ID_MAP))));
	strbuf_addstr(ck, id->workdir);
	strbuf_addch(ck, '\0');
	strbuf_addstr(ck, key);
	/* Placed before the answer is known (one probe): resolve() leaves the cache alone. */
	e = strmap_intern(&id->cache, ck->buf, ck->len, (int64_t)id->nr, &added);
	if (!added)
		return (size_t)e->value;
	resolve(id, key, flags, &a);
	if (a.state != ID_RESOLVED && (flags & ID_MAP) && id->map) {
		char *mapped = idmap_apply(id->map, key);

		if (strcmp(mapped, key)) {
			resolve(id, mapped, flags, &a);
			if (a.state != ID_RESOLVED) {
				strbuf_reset(&a.key);
				strbuf_addstr(&a.key, mapped);
			}
		}
		free(mapped);
	}
	ALLOC_GROW(id->results, id->nr + 1, id->alloc);
	r = &id->results[id->nr];
	r->key = strbuf_detach(&a.key, NULL);
	/* Most keys have no class part: "" for those, not an allocation each. */
	r->suffix = a.suffix.len ? strbuf_detach(&a.suffix, NULL) : "";
	strbuf_release(&a.suffix);
	r->state = a.state;
	return id->nr++;
}

const struct id_result *identity_suite(struct identity *id, const char *key,
				       unsigned flags)
{
	size_t at = suite_index(id, key, flags); /* before reading id->results: it moves */

	return &id->results[at];
}

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

/*
 * pytest's legacy reports give a `file` attribute and a classname that
 * starts with the file's module path: what follows it is the class part.
 */
void identity_class_part(const char *file, const char *classname, struct strbuf *out)
{
	const char *f = file, *c = classname, *base, *ext;

	while (f[0] == '.' && f[1] == '/')
		f += 2;
	/* The file's module path is the file without its extension, '/' as '.'. */
	base = strrchr(f, '/');
	base = base ? base + 1 : f;
	ext = strrchr(base, '.');
	if (!ext)
		ext = base + strlen(base);
	/* Only a classname longer than the module path has a class part. */
	if (strlen(c) <= (size_t)(ext - f) + 1)
		return;
	for (; f < ext && *c; f++, c++)
		if (*c != (*f == '/' || *f == '\\' ? '.' : *f))
			return;
	/* A classname that is the dotted file name itself has no class part. */
	if (f < ext || *c != '.' || !c[1] || (*ext && !strcmp(c + 1, ext + 1)))
		return;
	for (c++; *c; c++)
		if (*c == '.' || *c == '$' || *c == '+')
			strbuf_addstr(out, "::");
		else
			strbuf_addch(out, *c);
}

enum id_state identity_junit_case(struct identity *id, const char *file,
				  const char *classname, const char *suite_key,
				  struct strbuf *suite, struct strbuf *cls)
{
	const char *keys[3] = { nonempty(file), nonempty(classname), nonempty(suite_key) };
	/* Indexes into id->results: each look-up may grow (move) it. */
	size_t first = SIZE_MAX, win = SIZE_MAX, w = 0;
	const struct id_result *r;

	if (as_written(id, ID_MAP)) {
		const char *k = keys[0] ? keys[0] : keys[1] ? keys[1] : keys[2] ? keys[2] : "";

		strbuf_reset(cls);
		if (suite) {
			strbuf_reset(suite);
			strbuf_addstr(suite, k);
		}
		if (keys[0] && keys[1])
			identity_class_part(keys[0], keys[1], cls);
		return written_state(k, strlen(k));
	}

	for (size_t i = 0; i < ARRAY_SIZE(keys) && win == SIZE_MAX; i++) {
		size_t at;

		/*
		 * The enclosing suite names a case only when the case's own
		 * names say nothing the join can use (ctest's suite "core" is
		 * not the case's; jest's "Test suite failed to run" is no name).
		 */
		if (!keys[i] ||
		    (i == 2 && first != SIZE_MAX && id->results[first].state == ID_NAME))
			continue;
		at = suite_index(id, keys[i], ID_MAP);
		if (first == SIZE_MAX || id->results[at].state == ID_RESOLVED)
			w = i;
		if (first == SIZE_MAX)
			first = at;
		if (id->results[at].state == ID_RESOLVED)
			win = at;
	}
	if (win == SIZE_MAX)
		win = first;
	strbuf_reset(suite);
	strbuf_reset(cls);
	if (win == SIZE_MAX)
		return ID_NOT_FOUND;
	r = &id->results[win];
	strbuf_addstr(suite, r->key);
	if (*r->suffix)
		strbuf_addstr(cls, r->suffix);
	else if (w == 0 && keys[1])
		identity_class_part(keys[0], keys[1], cls);
	return r->state;
}

bool identity_junit_fixed(struct identity *id, const char *file, const char *classname,
			  const char *suite_key)
{
	const char *k = nonempty(file) ? file : nonempty(classname) ? classname
									: nonempty(suite_key);

	return id->tree && k && identity_suite(id, k, 0)->state == ID_RESOLVED;
}

bool identity_id_fixed(struct identity *id, const char *text)
{
	struct strbuf scratch = STRBUF_INIT;
	bool fixed = id->tree && identity_test_id(id, text, 0, &scratch) == ID_RESOLVED;

	strbuf_release(&scratch);
	return fixed;
}

bool identity_has_tree(const struct identity *id)
{
	return id->tree != NULL;
}

/*
 * Where a test id splits into suite and case: at "::" (SUITE::CASE), at
 * the first " > " (vitest's and jest's `path > describe > title`, written
 * back as "::", the titles kept: core/idmatch.h joins them), at '#'
 * (Surefire's -Dtest=Class#method, written back as "::"), else at the last
 * ':' (cbm's suite:case, kept). NULL: the id is a suite.
 */
static const char *id_split(const char *text, const char **rest, const char **mark)
{
	const char *sep = strstr(text, "::");
	const char *colon = strrchr(text, ':');

	*mark = "::";
	if (sep) {
		*rest = sep + 2;
		return sep;
	}
	sep = strstr(text, " > ");
	if (sep && sep != text && sep[3]) {
		*rest = sep + 3;
		return sep;
	}
	sep = strchr(text, '#');
	if (sep && sep != text && sep[1]) {
		*rest = sep + 1;
		return sep;
	}
	if (colon && colon != text && colon[1]) {
		*rest = colon + 1;
		*mark = ":";
		return colon;
	}
	return NULL;
}

/*
 * A suite that names no place may be a case written after its class or
 * package with a '.': Surefire's `com.acme.FooTest.testBar`, Go's
 * `github.com/acme/x/pkg.TestBar`. Only those shapes: a dotted name
 * without '/', or an import path (a first component with a '.'), so a
 * deleted `tests/a.py` never becomes `tests/a::py`.
 */
static const char *case_after_dot(const char *text)
{
	const char *slash = strchr(text, '/'), *last = strrchr(text, '/');
	const char *dot = strrchr(last ? last : text, '.');

	if (!dot || dot == text || !dot[1] || dot[-1] == '/')
		return NULL;
	if (slash && !memchr(text, '.', (size_t)(slash - text)))
		return NULL;
	return dot;
}

/*
 * Go's bare test name, `TestX` or `TestX/subtest` as `go test -run`,
 * gotestsum's reruns and quarantine lists write it: the package directory
 * of the *_test.go file that defines `func TestX(`, when the tree has
 * exactly one such directory, or exactly one under the workdir (a runner
 * that ran in its package). 1 and the directory ("." for the root) into
 * dir; 0 when no test file defines it; -1 when several packages do.
 */
static int go_bare_test(struct identity *id, const char *text, struct strbuf *dir)
{
	size_t n = strcspn(text, "/"), nr, hits = 0;
	const char *const *files;
	const char *hit = NULL;
	char *name;

	if (!id->tree || !tree_go_test_name(text, n))
		return 0;
	name = xstrndup(text, n);
	files = tree_index_go_test_files(id->tree, name, &nr);
	free(name);
	for (size_t pass = 0; pass < 2 && hits != 1; pass++) {
		const char *d = NULL;
		size_t dlen = 0;

		if (pass == 1 && !*id->workdir)
			break;
		hits = 0;
		for (size_t i = 0; i < nr; i++) {
			size_t len = (size_t)(strrchr(files[i], '/') ? strrchr(files[i], '/') - files[i] : 0);

			if (pass == 1 && !under(files[i], id->workdir))
				continue;
			/* Files of one directory are one package (foo and foo_test alike). */
			if (hits && len == dlen && !strncmp(files[i], d, len))
				continue;
			hits++;
			d = files[i];
			dlen = len;
		}
		hit = d;
		if (hits == 1) {
			strbuf_reset(dir);
			if (dlen)
				strbuf_add(dir, hit, dlen);
			else
				strbuf_addch(dir, '.');
		}
	}
	return !nr ? 0 : hits == 1 ? 1 : -1;
}

/* Does map rewrite len bytes of text? */
static bool map_rewrites(const struct idmap *map, const char *text, size_t len)
{
	char *part = xstrndup(text, len), *mapped = idmap_apply(map, part);
	bool rewrites = strcmp(part, mapped) != 0;

	free(part);
	free(mapped);
	return rewrites;
}

bool identity_map_touches(const struct identity *id, const char *text)
{
	const char *rest = NULL, *mark, *sep, *dot;

	if (!id->map)
		return false;
	sep = id_split(text, &rest, &mark);
	if (map_rewrites(id->map, text, sep ? (size_t)(sep - text) : strlen(text)))
		return true;
	return !sep && (dot = case_after_dot(text)) && map_rewrites(id->map, text, (size_t)(dot - text));
}

enum id_state identity_test_id(struct identity *id, const char *text, unsigned flags,
			       struct strbuf *out)
{
	const char *rest = NULL, *mark, *sep = id_split(text, &rest, &mark), *dot;
	const struct id_result *r;
	char *suite;

	if (as_written(id, flags)) {
		if (out)
			strbuf_addstr(out, text);
		return written_state(text, sep ? (size_t)(sep - text) : strlen(text));
	}
	suite = sep ? xstrndup(text, (size_t)(sep - text)) : xstrdup(text);
	r = identity_suite(id, suite, flags);
	if (!sep && !id_state_joined(r->state) && (dot = case_after_dot(text))) {
		char *cls = xstrndup(text, (size_t)(dot - text));
		const struct id_result *c = identity_suite(id, cls, flags);

		free(cls);
		if (c->state == ID_RESOLVED) {
			r = c;
			rest = dot + 1;
		} else {
			/* The look-up may have moved the results: r again (cached). */
			r = identity_suite(id, suite, flags);
		}
	}
	if (!sep && r->state != ID_RESOLVED) {
		struct strbuf dir = STRBUF_INIT;
		int go = go_bare_test(id, text, &dir);

		if (go) {
			if (go > 0)
				strbuf_addf(out, "%s::%s", dir.buf, text);
			else
				strbuf_addstr(out, text);
			strbuf_release(&dir);
			free(suite);
			return go > 0 ? ID_RESOLVED : ID_AMBIGUOUS;
		}
		strbuf_release(&dir);
	}
	strbuf_addstr(out, r->key);
	if (*r->suffix) {
		strbuf_addf(out, "::%s", r->suffix);
		mark = "::";
	}
	if (rest)
		strbuf_addf(out, "%s%s", mark, rest);
	free(suite);
	return r->state;
}

void identity_resolve_list(struct identity *id, struct strlist *l, unsigned flags,
			   void (*seen)(const char *name, enum id_state state, void *data),
			   void *data)
{
	struct strbuf out = STRBUF_INIT;
	bool rewrites = identity_rewrites(id, flags);

	for (size_t i = 0; i < l->nr; i++) {
		enum id_state state;

		strbuf_reset(&out);
		state = identity_test_id(id, l->items[i], flags, rewrites ? &out : NULL);
		if (seen)
			seen(l->items[i], state, data);
		if (rewrites && strcmp(out.buf, l->items[i])) {
			free(l->items[i]);
			l->items[i] = strbuf_detach(&out, NULL);
		}
	}
	strbuf_release(&out);
}

size_t identity_moon_projects(struct identity *id)
{
	return id->tree ? tree_index_moon_projects(id->tree) : 0;
}

size_t identity_turbo_packages(struct identity *id)
{
	return id->tree ? tree_index_turbo_packages(id->tree) : 0;
}
