/* Force-full rules: rule files, codebase-memory-mcp rules, built-ins, matching. */
#include "core/tiadash.h"
#include "core/rules.h"
#include "core/repo.h"
#include "core/glob.h"

/*
 * tiadash's built-in force-full defaults: the triggers of seed 000 ("every
 * stack"), with the common equivalents of other ecosystems. A false
 * force-full costs minutes; a false narrow costs a landed regression.
 */
const struct rule_builtin rules_builtin[] = {
	{ "builtin:manifest", "**/package.json" },
	{ "builtin:manifest", "**/pnpm-workspace.yaml" },
	{ "builtin:manifest", "**/pyproject.toml" },
	{ "builtin:manifest", "**/setup.py" },
	{ "builtin:manifest", "**/setup.cfg" },
	{ "builtin:manifest", "**/requirements*.txt" },
	{ "builtin:manifest", "**/Pipfile" },
	{ "builtin:manifest", "**/Cargo.toml" },
	{ "builtin:manifest", "**/go.mod" },
	{ "builtin:manifest", "**/go.work" },
	{ "builtin:manifest", "**/Gemfile" },
	{ "builtin:manifest", "**/composer.json" },
	{ "builtin:manifest", "**/pom.xml" },
	{ "builtin:manifest", "**/build.gradle{,.kts}" },
	{ "builtin:manifest", "**/settings.gradle{,.kts}" },
	{ "builtin:lockfile", "**/package-lock.json" },
	{ "builtin:lockfile", "**/npm-shrinkwrap.json" },
	{ "builtin:lockfile", "**/pnpm-lock.yaml" },
	{ "builtin:lockfile", "**/yarn.lock" },
	{ "builtin:lockfile", "**/bun.lockb" },
	{ "builtin:lockfile", "**/uv.lock" },
	{ "builtin:lockfile", "**/poetry.lock" },
	{ "builtin:lockfile", "**/Pipfile.lock" },
	{ "builtin:lockfile", "**/Cargo.lock" },
	{ "builtin:lockfile", "**/go.sum" },
	{ "builtin:lockfile", "**/Gemfile.lock" },
	{ "builtin:lockfile", "**/composer.lock" },
	{ "builtin:tool-config", "**/tsconfig*.json" },
	{ "builtin:tool-config", "**/.swcrc" },
	{ "builtin:tool-config", "**/vitest.config.*" },
	{ "builtin:tool-config", "**/vitest.workspace.*" },
	{ "builtin:tool-config", "**/vite.config.*" },
	{ "builtin:tool-config", "**/jest.config.*" },
	{ "builtin:tool-config", "**/playwright.config.*" },
	{ "builtin:tool-config", "**/babel.config.*" },
	{ "builtin:tool-config", "**/.babelrc*" },
	{ "builtin:tool-config", "**/turbo.json" },
	{ "builtin:tool-config", "**/nx.json" },
	{ "builtin:tool-config", "**/moon.yml" },
	{ "builtin:tool-config", "**/.moon/**" },
	{ "builtin:tool-config", "**/pytest.ini" },
	{ "builtin:tool-config", "**/tox.ini" },
	{ "builtin:tool-config", "**/noxfile.py" },
	{ "builtin:tool-config", "**/.coveragerc" },
	{ "builtin:tool-config", "**/Makefile" },
	{ "builtin:tool-config", "**/GNUmakefile" },
	{ "builtin:tool-config", "**/*.mk" },
	{ "builtin:tool-config", "**/CMakeLists.txt" },
	{ "builtin:tool-config", "**/*.cmake" },
	{ "builtin:tool-config", "**/meson.build" },
	{ "builtin:test-utils", "**/test-utils/**" },
	{ "builtin:test-utils", "**/test_utils/**" },
	{ "builtin:test-utils", "**/testutils/**" },
	{ "builtin:test-utils", "**/test-helpers/**" },
	{ "builtin:test-setup", "**/vitest.setup.*" },
	{ "builtin:test-setup", "**/jest.setup.*" },
	{ "builtin:test-setup", "**/setupTests.*" },
	{ "builtin:test-setup", "**/global-setup.*" },
	{ "builtin:test-setup", "**/global-teardown.*" },
	{ "builtin:conftest", "**/conftest.py" },
	{ "builtin:env", "**/.env*" },
	{ "builtin:migrations", "**/migrations/**" },
	{ "builtin:migrations", "**/db/migrate/**" },
	{ "builtin:ci", ".github/workflows/**" },
	{ "builtin:ci", ".github/actions/**" },
	{ "builtin:ci", ".gitlab-ci.yml" },
	{ "builtin:ci", ".circleci/**" },
	{ "builtin:ci", ".buildkite/**" },
	{ "builtin:ci", ".travis.yml" },
	{ "builtin:ci", "/Jenkinsfile" },
	{ "builtin:ci", "azure-pipelines*.yml" },
	{ "builtin:ci", ".ci/**" },
	{ "builtin:generated", "**/*.proto" },
	{ "builtin:generated", "**/*.sql" },
	{ "builtin:generated", "**/fixtures/**" },
	{ "builtin:generated", "**/__fixtures__/**" },
	{ "builtin:generated", "**/testdata/**" },
	{ "builtin:generated", "**/__snapshots__/**" },
	{ "builtin:generated", "**/templates/**" },
};
const size_t rules_builtin_nr = ARRAY_SIZE(rules_builtin);

static const char *const action_names[] = { "run_all", "ignore", "select" };

const char *rules_action_name(enum rule_action a)
{
	return action_names[a];
}

bool rules_action_parse(const char *s, enum rule_action *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(action_names); i++) {
		if (!strcmp(s, action_names[i])) {
			*out = (enum rule_action)i;
			return true;
		}
	}
	return false;
}

void rules_release(struct rules *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct rule *x = &r->items[i];

		free(x->id);
		free(x->glob);
		free(x->name);
		free(x->origin);
		free(x->source);
		strlist_release(&x->tests);
	}
	free(r->items);
	glob_set_free(r->set);
	memset(r, 0, sizeof(*r));
}

static const char *const name_prefix[] = { "force-full:", "ignore:", "select:" };

int rules_add(struct rules *r, enum rule_action action, const char *id,
	      const char *glob, const char *origin, const char *name,
	      const struct strlist *tests)
{
	struct strbuf why = STRBUF_INIT;
	struct glob_set *check = glob_set_new();
	struct rule *x;
	int rc = glob_set_add(check, glob, 0, &why);

	glob_set_free(check);
	if (rc < 0) {
		error("%s: %s", origin, why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	if (r->set)
		BUG("rules_add after rules_compile");
	ALLOC_GROW(r->items, r->nr + 1, r->alloc);
	x = &r->items[r->nr++];
	memset(x, 0, sizeof(*x));
	x->action = action;
	x->id = xstrdup(id);
	x->glob = xstrdup(glob);
	x->name = name ? xstrdup(name) : xstrfmt("%s%s", name_prefix[action], glob);
	x->origin = xstrdup(origin);
	for (size_t i = 0; tests && i < tests->nr; i++)
		strlist_push(&x->tests, tests->items[i]);
	return 0;
}

void rules_set_judge(struct rules *r, const struct rule_judge *j)
{
	if (!r->nr)
		BUG("rules_set_judge without a rule");
	r->items[r->nr - 1].judge = j;
}

enum rule_action rules_judge(const struct rule *x, const char *before, size_t blen,
			     const char *after, size_t alen, const char **why)
{
	enum rule_action a;

	*why = x->name;
	if (!x->judge)
		return x->action;
	a = x->judge->judge(before, blen, after, alen, why);
	if (a == x->action || !*why)
		*why = x->name;
	return a;
}

void rules_add_builtin(struct rules *r)
{
	for (size_t i = 0; i < rules_builtin_nr; i++)
		if (rules_add(r, RULE_RUN_ALL, rules_builtin[i].id,
			      rules_builtin[i].glob, "built-in", NULL, NULL) < 0)
			BUG("bad built-in glob '%s'", rules_builtin[i].glob);
}

bool rules_is_builtin(const struct rule *x)
{
	return !x->source && !strcmp(x->origin, "built-in");
}

void rules_set_source(struct rules *r, size_t from, const char *source)
{
	for (size_t i = from; i < r->nr; i++) {
		free(r->items[i].source);
		r->items[i].source = xstrdup(source);
	}
}

void rules_label(const struct rule *x, struct strbuf *out)
{
	if (x->source)
		strbuf_addf(out, "in effect: %s", x->source);
	else if (rules_is_builtin(x))
		strbuf_addstr(out, "suggested: built-in");
	else
		strbuf_addstr(out, x->origin);
}

void rules_describe(const struct rule *x, struct strbuf *out)
{
	strbuf_addf(out, "%s (", x->name);
	rules_label(x, out);
	strbuf_addch(out, ')');
}

/* ---- tiadash rule files ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Split a line into whitespace-separated tokens; a backslash escapes the
 * next character (kept in the token: globs read escapes themselves).
 */
static void tokenize(const char *s, struct strlist *out)
{
	while (*s) {
		struct strbuf tok = STRBUF_INIT;

		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		while (*s && !is_blank(*s)) {
			if (*s == '\\' && s[1])
				strbuf_addch(&tok, *s++);
			strbuf_addch(&tok, *s++);
		}
		strlist_push_owned(out, strbuf_detach(&tok, NULL));
	}
}

/* A test name token without its escapes. */
static char *unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

/* A whole-line glob: leading blanks and unescaped trailing blanks dropped. */
static char *line_glob(const char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n && is_blank(s[n - 1])) {
		size_t bs = 0;

		while (bs < n - 1 && s[n - 2 - bs] == '\\')
			bs++;
		if (bs % 2)
			break; /* "\ " keeps its space */
		n--;
	}
	return xstrndup(s, n);
}

static int parse_line(struct rules *r, char *line, const char *path, int lineno)
{
	struct strlist tok = STRLIST_INIT;
	struct strlist tests = STRLIST_INIT;
	enum rule_action action = RULE_RUN_ALL;
	char *origin = xstrfmt("%s:%d", path, lineno);
	char *glob = NULL;
	int ret = 0;

	tokenize(line, &tok);
	if (rules_action_parse(tok.items[0], &action)) {
		if (tok.nr < 2) {
			ret = error("%s: '%s' needs a glob", origin, tok.items[0]);
			goto out;
		}
		glob = xstrdup(tok.items[1]);
		if (action == RULE_SELECT && tok.nr < 3) {
			ret = error("%s: 'select %s' names no tests", origin, glob);
			goto out;
		}
		if (action != RULE_SELECT && tok.nr > 2) {
			ret = error("%s: unexpected '%s' after the glob (only "
				    "'select' names tests)", origin, tok.items[2]);
			goto out;
		}
		for (size_t i = 2; i < tok.nr; i++)
			strlist_push_owned(&tests, unescape(tok.items[i]));
	} else {
		glob = line_glob(line);
	}
	if (glob[0] == '!') {
		ret = error("%s: negated globs ('%s') are not supported: rules "
			    "match first to last, put an 'ignore' rule before "
			    "(write '\\!' for a literal '!')", origin, glob);
		goto out;
	}
	ret = rules_add(r, action, origin, glob, origin, NULL, &tests);
out:
	free(glob);
	free(origin);
	strlist_release(&tok);
	strlist_release(&tests);
	return ret;
}

int rules_parse_tiadash(struct rules *r, const char *text, size_t len,
			const char *path)
{
	const char *p = text, *end = text + len;
	int lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line;
		const char *s;
		int rc = 0;

		lineno++;
		if (memchr(p, '\0', n))
			return error("%s:%d: NUL byte in a rule file", path, lineno);
		if (n && p[n - 1] == '\r')
			n--;
		line = xstrndup(p, n);
		for (s = line; is_blank(*s); s++)
			;
		if (*s && *s != '#')
			rc = parse_line(r, line, path, lineno);
		free(line);
		if (rc < 0)
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int rules_compile(struct rules *r)
{
	struct strbuf why = STRBUF_INIT;

	glob_set_free(r->set);
	r->set = glob_set_new();
	for (size_t i = 0; i < r->nr; i++) {
		if (glob_set_add(r->set, r->items[i].glob, (int)i, &why) < 0)
			BUG("glob '%s' was checked but fails: %s",
			    r->items[i].glob, why.buf);
	}
	strbuf_release(&why);
	if (glob_set_compile(r->set, 0) < 0) {
		glob_set_free(r->set);
		r->set = NULL;
		return -1;
	}
	return 0;
}

int rules_match(const struct rules *r, const char *path)
{
	return rules_match_in(r, path, NULL);
}

int rules_match_in(const struct rules *r, const char *path, struct glob_scratch *s)
{
	int tag;

	if (!r->set)
		BUG("rules_match_in before rules_compile");
	tag = glob_set_match_in(r->set, path, s);
	return tag == GLOB_MATCH_ERROR ? RULES_MATCH_ERROR : tag;
}

bool rules_have_judge(const struct rules *r)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->items[i].judge)
			return true;
	return false;
}
