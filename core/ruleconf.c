/* Selectors' force-full configurations (vitest, turbo, moon, harness, gstack, cbm) read as rules and written back. */
#include "core/tiadash.h"
#include "core/ruleconf.h"
#include "core/glob.h"
#include "core/json.h"
#include "core/timeutil.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

static const char *const format_names[] = {
	"tiadash", "codebase-memory-mcp", "vitest", "turbo", "moon", "moon",
	"harness", "gstack",
};

const char *ruleconf_format_name(enum ruleconf_format f)
{
	return format_names[f];
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Does path end with the directory components "dir/" + its base name? */
static bool in_dir(const char *path, const char *dir)
{
	const char *base = base_name(path);
	size_t n = strlen(dir);

	if ((size_t)(base - path) < n + 1)
		return false;
	return !strncmp(base - n - 1, dir, n) && base[-1] == '/' &&
	       (base - n - 1 == path || base[-n - 2] == '/');
}

static bool yaml_name(const char *base)
{
	return ends_with(base, ".yml") || ends_with(base, ".yaml");
}

enum ruleconf_format ruleconf_detect(const char *path, const char *text, size_t len)
{
	const char *base = base_name(path);
	const char *s = text;

	if (!strcmp(base, ".codebase-memory.json"))
		return RULECONF_CBM;
	if (starts_with(base, "vitest.config.") || starts_with(base, "vite.config."))
		return RULECONF_VITEST;
	if (!strcmp(base, "turbo.json") || !strcmp(base, "turbo.jsonc"))
		return RULECONF_TURBO;
	if (!strcmp(base, "always-run.json") && in_dir(path, ".gstack"))
		return RULECONF_GSTACK;
	if (!strcmp(base, "moon.yml") || !strcmp(base, "moon.yaml"))
		return RULECONF_MOON_PROJECT;
	if ((!strcmp(base, "tasks.yml") || !strcmp(base, "tasks.yaml")) && in_dir(path, ".moon"))
		return RULECONF_MOON_TASKS;
	if (yaml_name(base) && strstr(path, ".moon/tasks/"))
		return RULECONF_MOON_TASKS;
	if (yaml_name(base))
		return RULECONF_HARNESS;
	while (s < text + len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	if (ends_with(base, ".json") || (s < text + len && *s == '{')) {
		/* A turbo.json under another name still says what it is. */
		if (memmem(text, len, "\"globalDependencies\"", 20) ||
		    memmem(text, len, "turbo.build/schema", 18) ||
		    memmem(text, len, "turborepo.com/schema", 20))
			return RULECONF_TURBO;
		return RULECONF_CBM;
	}
	return RULECONF_TIADASH;
}

/* ---- JSON ---- */

/* Parse without printing; JSONC comments stripped on a second try. */
static cJSON *json_quiet(const char *text, size_t len, bool allow_comments,
			 size_t *err_off)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	char *copy;

	if (root || !allow_comments) {
		if (!root && err_off)
			*err_off = end && end >= text ? (size_t)(end - text) : 0;
		return root;
	}
	if (err_off)
		*err_off = end && end >= text ? (size_t)(end - text) : 0;
	if (!memmem(text, len, "//", 2) && !memmem(text, len, "/*", 2))
		return NULL;
	copy = xmemdup(text, len + 1);
	copy[len] = '\0';
	cJSON_Minify(copy);
	root = cJSON_ParseWithOpts(copy, NULL, 1);
	free(copy);
	return root;
}

cJSON *ruleconf_json_parse(const char *text, size_t len, const char *name,
			   const char *what, bool allow_comments)
{
	size_t off = 0, last = len;
	cJSON *root;

	if (json_refuse_nul(text, len, name) < 0)
		return NULL;
	root = json_quiet(text, len, allow_comments, &off);

	while (last > 0 && strchr(" \t\r\n", text[last - 1]))
		last--;
	/* A document cut short ends in neither bracket. */
	if (!root && (off >= len || (last && text[last - 1] != '}' && text[last - 1] != ']')))
		error("%s:%d: %s: unexpected end of input (truncated?)", name,
		      line_of_offset(text, len, last ? last - 1 : 0), what);
	else if (!root)
		error("%s:%d: %s: invalid JSON", name, line_of_offset(text, len, off),
		      what);
	return root;
}

static const cJSON *jget(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNull(v) ? NULL : v;
}

/* The line of the first "value" in the text (0: not found). */
static int json_value_line(const char *text, size_t len, const char *value)
{
	char *needle = xstrfmt("\"%s\"", value);
	const char *hit = memmem(text, len, needle, strlen(needle));

	free(needle);
	return hit ? line_of_offset(text, len, (size_t)(hit - text)) : 0;
}

static char *where_json(const char *path, const char *text, size_t len,
			const char *value)
{
	int line = json_value_line(text, len, value);

	return line ? xstrfmt("%s:%d", path, line) : xstrdup(path);
}

/* ---- YAML (libyaml's document API: nodes with their marks) ---- */

struct ydoc {
	yaml_parser_t parser;
	yaml_document_t doc;
	bool loaded;
};

static int ydoc_load(struct ydoc *y, const char *text, size_t len, const char *path,
		     const char *what)
{
	memset(y, 0, sizeof(*y));
	if (!yaml_parser_initialize(&y->parser))
		return error("%s: %s: cannot start the YAML parser", path, what);
	yaml_parser_set_input_string(&y->parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&y->parser, &y->doc)) {
		int ret = error("%s:%zu: %s: invalid YAML: %s%s%s", path,
				y->parser.problem_mark.line + 1, what,
				y->parser.problem ? y->parser.problem : "unknown problem",
				y->parser.context ? " " : "",
				y->parser.context ? y->parser.context : "");

		yaml_parser_delete(&y->parser);
		return ret;
	}
	y->loaded = true;
	return 0;
}

static void ydoc_release(struct ydoc *y)
{
	if (y->loaded)
		yaml_document_delete(&y->doc);
	yaml_parser_delete(&y->parser);
	memset(y, 0, sizeof(*y));
}

static yaml_node_t *ynode(struct ydoc *y, int id)
{
	return yaml_document_get_node(&y->doc, id);
}

static yaml_node_t *yroot(struct ydoc *y)
{
	return yaml_document_get_root_node(&y->doc);
}

static bool yscalar_is(const yaml_node_t *n, const char *s)
{
	return n && n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.length == strlen(s) &&
	       !memcmp(n->data.scalar.value, s, n->data.scalar.length);
}

/* The value of key in a mapping node, or NULL. */
static yaml_node_t *ymap_get(struct ydoc *y, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++)
		if (yscalar_is(ynode(y, p->key), key))
			return ynode(y, p->value);
	return NULL;
}

static char *yscalar(const yaml_node_t *n)
{
	return xstrndup((const char *)n->data.scalar.value, n->data.scalar.length);
}

static int yline(const yaml_node_t *n)
{
	return (int)n->start_mark.line + 1;
}

/* ---- adding rules ---- */

static int add_rule(struct rules *r, enum rule_action a, const char *id,
		    const char *glob, const char *origin, const struct strlist *tests)
{
	return rules_add(r, a, id, glob, origin, NULL, tests);
}

/* ---- vitest: the forceRerunTriggers scanner ---- */

/*
 * The one hand-written scanner in tiadash. A vitest config is TypeScript
 * or JavaScript, which no Debian library reads, so this reads exactly one
 * thing from it: the string array literal of `forceRerunTriggers: [...]`.
 * It tokenizes just enough JavaScript to know what is code (comments,
 * string and template literals with ${...} nesting, regular expression
 * literals after a token that cannot end an expression), and it fails
 * closed: the property written any other way (a variable, a spread, a
 * call, a template with ${...}, a second occurrence, a mention as a value
 * like `configDefaults.forceRerunTriggers`), an unterminated literal or
 * comment, or an escape it does not know is an input error naming the
 * line, never a partial read.
 */
struct js {
	const char *s;
	size_t len, i;
	int line;
	const char *path;
	char prev;          /* last significant character, 0 at the start */
	char prev_word[16]; /* the last word, when prev ends one */
	/* What was found. */
	int found;          /* occurrences of the property */
	int key_line, close_line, last_elem_line;
	char quote;         /* quote of the last element ('\'' by default) */
	struct strlist globs;
	struct strbuf lines; /* int per glob: its line */
};

static int js_error(struct js *j, const char *fmt, ...) ATTR_FORMAT(2, 3);

static int js_error(struct js *j, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s:%d: vitest config: %s (tiadash reads only a literal "
	      "`forceRerunTriggers: ['glob', ...]`)", j->path, j->line, msg.buf);
	strbuf_release(&msg);
	return -1;
}

static int js_peek(const struct js *j, size_t ahead)
{
	return j->i + ahead < j->len ? (unsigned char)j->s[j->i + ahead] : -1;
}

/* Skip blanks and comments, counting lines. */
static int js_skip(struct js *j)
{
	while (j->i < j->len) {
		char c = j->s[j->i];

		if (c == '\n') {
			j->line++;
			j->i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			j->i++;
		} else if (c == '/' && js_peek(j, 1) == '/') {
			while (j->i < j->len && j->s[j->i] != '\n')
				j->i++;
		} else if (c == '/' && js_peek(j, 1) == '*') {
			int start = j->line;

			j->i += 2;
			while (j->i < j->len && !(j->s[j->i] == '*' && js_peek(j, 1) == '/')) {
				if (j->s[j->i] == '\n')
					j->line++;
				j->i++;
			}
			if (j->i >= j->len) {
				j->line = start;
				return js_error(j, "unterminated comment");
			}
			j->i += 2;
		} else {
			break;
		}
	}
	return 0;
}

static int js_code(struct js *j, bool until_brace);

/*
 * A string or template literal at j->i; val gets its value. strict (an
 * element of forceRerunTriggers): an escape other than \\ \' \" \/ \` or
 * a template holding ${...} is refused; otherwise escapes are taken as
 * the character after the backslash and ${...} is scanned as code.
 */
static int js_string(struct js *j, struct strbuf *val, bool strict)
{
	char q = j->s[j->i++];
	int start = j->line;

	while (j->i < j->len) {
		char c = j->s[j->i];

		if (c == q) {
			j->i++;
			return 0;
		}
		if (c == '\n') {
			if (q != '`')
				break;
			j->line++;
		}
		if (c == '\\') {
			int e = js_peek(j, 1);

			if (e < 0)
				break;
			if (strict && (!e || !strchr("\\'\"/`", e))) {
				j->line = start;
				return js_error(j, "escape sequence '\\%c' in a glob", e);
			}
			if (e == '\n')
				j->line++;
			strbuf_addch(val, (char)e);
			j->i += 2;
			continue;
		}
		if (q == '`' && c == '$' && js_peek(j, 1) == '{') {
			if (strict) {
				j->line = start;
				return js_error(j, "a template literal with ${...}");
			}
			j->i += 2;
			if (js_code(j, true) < 0)
				return -1;
			continue;
		}
		strbuf_addch(val, c);
		j->i++;
	}
	j->line = start;
	return js_error(j, "unterminated %s literal", q == '`' ? "template" : "string");
}

/* Can a regular expression literal start after the last token? */
static bool js_regex_allowed(const struct js *j)
{
	static const char *const words[] = {
		"return", "typeof", "case", "do", "else", "in", "of", "new",
		"delete", "void", "throw", "instanceof", "yield", "await",
	};

	if (!j->prev)
		return true;
	if (strchr("(,=:[!&|?{};+-*%<>~^", j->prev))
		return true;
	for (size_t k = 0; k < ARRAY_SIZE(words); k++)
		if (!strcmp(j->prev_word, words[k]))
			return true;
	return false;
}

static int js_regex(struct js *j)
{
	bool in_class = false;

	j->i++;
	while (j->i < j->len && j->s[j->i] != '\n') {
		char c = j->s[j->i];

		if (c == '\\') {
			j->i += 2;
			continue;
		}
		if (c == '[')
			in_class = true;
		else if (c == ']')
			in_class = false;
		else if (c == '/' && !in_class) {
			j->i++;
			while (j->i < j->len && ((j->s[j->i] >= 'a' && j->s[j->i] <= 'z')))
				j->i++;
			return 0;
		}
		j->i++;
	}
	return js_error(j, "unterminated regular expression literal");
}

/* The array after `forceRerunTriggers:`, at its '['. */
static int js_array(struct js *j)
{
	j->i++;
	for (;;) {
		struct strbuf val = STRBUF_INIT;
		int line;
		char c;

		if (js_skip(j) < 0)
			return -1;
		if (j->i >= j->len)
			return js_error(j, "unterminated forceRerunTriggers array");
		c = j->s[j->i];
		if (c == ']') {
			j->close_line = j->line;
			j->i++;
			return 0;
		}
		if (c != '\'' && c != '"' && c != '`')
			return js_error(j, "an element of forceRerunTriggers is not a "
					"string literal ('%.20s')", j->s + j->i);
		line = j->line;
		j->quote = c;
		if (js_string(j, &val, true) < 0) {
			strbuf_release(&val);
			return -1;
		}
		strlist_push_owned(&j->globs, strbuf_detach(&val, NULL));
		strbuf_add(&j->lines, &line, sizeof(line));
		j->last_elem_line = line;
		if (js_skip(j) < 0)
			return -1;
		if (j->i < j->len && j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->i < j->len && j->s[j->i] == ']')
			continue;
		return js_error(j, "expected ',' or ']' after an element of "
				"forceRerunTriggers");
	}
}

/* The property at the current position (after its name): ': [' then the array. */
static int js_property(struct js *j)
{
	int line = j->line;

	if (j->found++)
		return js_error(j, "forceRerunTriggers is set twice (also on line %d)",
				j->key_line);
	j->key_line = line;
	if (js_skip(j) < 0)
		return -1;
	if (j->i >= j->len || j->s[j->i] != ':')
		return js_error(j, "forceRerunTriggers is not followed by ':'");
	j->i++;
	if (js_skip(j) < 0)
		return -1;
	if (j->i >= j->len || j->s[j->i] != '[')
		return js_error(j, "forceRerunTriggers is not an array literal");
	if (js_array(j) < 0)
		return -1;
	j->prev = ']';
	j->prev_word[0] = '\0';
	return 0;
}

static bool js_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* Scan code to the end (or to the '}' closing a template's ${). */
static int js_code(struct js *j, bool until_brace)
{
	int depth = 0;

	for (;;) {
		char c;

		if (js_skip(j) < 0)
			return -1;
		if (j->i >= j->len)
			return until_brace ? js_error(j, "unterminated ${...} in a "
						      "template literal") : 0;
		c = j->s[j->i];
		if (c == '\'' || c == '"' || c == '`') {
			struct strbuf val = STRBUF_INIT;
			bool key;

			if (js_string(j, &val, false) < 0) {
				strbuf_release(&val);
				return -1;
			}
			key = c != '`' && !strcmp(val.buf, "forceRerunTriggers");
			strbuf_release(&val);
			if (key) {
				size_t save = j->i;
				int save_line = j->line;

				if (js_skip(j) < 0)
					return -1;
				if (j->i < j->len && j->s[j->i] == ':') {
					j->i = save;
					j->line = save_line;
					if (js_property(j) < 0)
						return -1;
					continue;
				}
				j->i = save;
				j->line = save_line;
			}
			j->prev = '"';
			j->prev_word[0] = '\0';
			continue;
		}
		if (c == '/') {
			if (js_regex_allowed(j)) {
				if (js_regex(j) < 0)
					return -1;
				j->prev = ')'; /* a regex literal ends an expression */
				j->prev_word[0] = '\0';
				continue;
			}
			j->prev = '/';
			j->prev_word[0] = '\0';
			j->i++;
			continue;
		}
		if (js_word_char((unsigned char)c)) {
			size_t start = j->i;
			bool member = j->prev == '.';

			while (j->i < j->len && js_word_char((unsigned char)j->s[j->i]))
				j->i++;
			snprintf(j->prev_word, sizeof(j->prev_word), "%.*s",
				 (int)(j->i - start), j->s + start);
			if (j->i - start == 18 && !memcmp(j->s + start, "forceRerunTriggers", 18)) {
				if (member)
					return js_error(j, "forceRerunTriggers is used as a "
							"value, not written as a literal");
				if (js_property(j) < 0)
					return -1;
				continue;
			}
			j->prev = 'a';
			continue;
		}
		if (until_brace && c == '{')
			depth++;
		if (until_brace && c == '}' && depth-- == 0) {
			j->i++;
			return 0;
		}
		j->prev = c;
		j->prev_word[0] = '\0';
		j->i++;
	}
}

static void js_release(struct js *j)
{
	strlist_release(&j->globs);
	strbuf_release(&j->lines);
}

static int js_scan(struct js *j, const char *text, size_t len, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->s = text;
	j->len = len;
	j->line = 1;
	j->path = path;
	j->quote = '\'';
	j->globs = (struct strlist)STRLIST_INIT;
	j->lines = (struct strbuf)STRBUF_INIT;
	return js_code(j, false);
}

/* vitest's defaults (packages/vitest/src/defaults.ts), used when the config sets none. */
static const char *const vitest_defaults[] = { "**/package.json", "**/{vitest,vite}.config.*" };

static bool has_extglob(const char *g)
{
	for (const char *p = g; *p; p++)
		if (strchr("@!+*?", *p) && p[1] == '(')
			return true;
	return false;
}

/*
 * A forceRerunTriggers glob as tiadash reads it: vitest matches it with
 * picomatch against the absolute paths of the changed files, so only a
 * "**"-led glob can fire. 1: left out (a warning says why), 0: use it,
 * -1: an error.
 */
static int vitest_glob(const char *g, const char *where)
{
	if (g[0] == '!')
		return error("%s: vitest config: negated forceRerunTriggers glob '%s' "
			     "is not supported", where, g);
	if (has_extglob(g))
		return error("%s: vitest config: extglob '%s' is not supported", where, g);
	if (!strcmp(g, "**") || starts_with(g, "**/"))
		return 0;
	if (g[0] == '/') {
		warning("%s: vitest config: '%s' is an absolute path: left out of "
			"the rules", where, g);
		return 1;
	}
	warning("%s: vitest config: '%s' never fires: vitest matches "
		"forceRerunTriggers against absolute paths, so a glob must start "
		"with '**/' (write '**/%s'); left out of the rules", where, g, g);
	return 1;
}

static int read_vitest(struct rules *r, const char *text, size_t len, const char *path)
{
	struct js j;
	int ret = js_scan(&j, text, len, path);

	if (!ret && !j.found) {
		char *origin = xstrfmt("%s (vitest default: no forceRerunTriggers)", path);

		for (size_t i = 0; i < ARRAY_SIZE(vitest_defaults) && !ret; i++)
			ret = add_rule(r, RULE_RUN_ALL, "vitest:default", vitest_defaults[i],
				       origin, NULL);
		free(origin);
	}
	for (size_t i = 0; !ret && i < j.globs.nr; i++) {
		int line;
		char *where;
		int use;

		memcpy(&line, j.lines.buf + i * sizeof(int), sizeof(int));
		where = xstrfmt("%s:%d", path, line);
		use = vitest_glob(j.globs.items[i], where);
		if (use < 0)
			ret = -1;
		else if (use == 0)
			ret = add_rule(r, RULE_RUN_ALL, "vitest:forceRerunTriggers",
				       j.globs.items[i], where, NULL);
		free(where);
	}
	js_release(&j);
	return ret;
}

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
			int line = json_value_line(text, len, what);

			return error("%s:%d: turbo config: %s holds a non-string",
				     path, line, what);
		}
	return 0;
}

static int turbo_add(struct rules *r, const char *id, const char *g,
		     const char *path, const char *text, size_t len)
{
	char *where = where_json(path, text, len, g);
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

static int read_turbo(struct rules *r, const char *text, size_t len, const char *path)
{
	cJSON *root = ruleconf_json_parse(text, len, path, "turbo config", true);
	const cJSON *gd, *tasks, *ff, *t, *it;
	char *origin;
	int ret = 0;

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

/* ---- harness: selection.no_subset_paths ---- */

/* The no_subset_paths sequence of a harness config, or NULL. */
static yaml_node_t *harness_list(struct ydoc *y)
{
	return ymap_get(y, ymap_get(y, yroot(y), "selection"), "no_subset_paths");
}

static int read_harness(struct rules *r, const char *text, size_t len, const char *path)
{
	struct ydoc y;
	yaml_node_t *list;
	int ret;

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

/*
 * .moon/tasks.yml (inherited by every matching project): its
 * implicitInputs and each task's workspace-relative inputs run_all.
 * moon.yml (one project): each task's workspace-relative inputs select
 * that project (its source directory); a root-level project's select
 * names nothing, leaving the change to the selector.
 */
static int read_moon(struct rules *r, const char *text, size_t len, const char *path,
		     bool project)
{
	struct moon m = { .path = path };
	struct strlist globs = STRLIST_INIT, wheres = STRLIST_INIT, tests = STRLIST_INIT;
	struct strlist ids = STRLIST_INIT;
	yaml_node_t *root, *tasks;
	char *source = NULL;
	int ret = 0;

	if (ydoc_load(&m.y, text, len, path, "moon config") < 0)
		return -1;
	root = yroot(&m.y);
	if (root && root->type != YAML_MAPPING_NODE) {
		ret = error("%s: moon config: not a mapping", path);
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
	for (yaml_node_pair_t *p = tasks && !ret ? tasks->data.mapping.pairs.start : NULL;
	     p && p < tasks->data.mapping.pairs.top && !ret; p++) {
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
	free(source);
	strlist_release(&globs);
	strlist_release(&wheres);
	strlist_release(&tests);
	strlist_release(&ids);
	ydoc_release(&m.y);
	return ret;
}

/* ---- gstack: .gstack/always-run.json ---- */

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

static int read_gstack(struct rules *r, const char *text, size_t len, const char *path)
{
	cJSON *root = ruleconf_json_parse(text, len, path, "gstack always-run list", false);
	const cJSON *list, *it;
	char *origin;
	int ret = 0;

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
		where = where_json(path, text, len, it->valuestring);
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

int ruleconf_parse(struct rules *r, const char *text, size_t len, const char *path)
{
	switch (ruleconf_detect(path, text, len)) {
	case RULECONF_TIADASH:
	case RULECONF_CBM:
		return RULECONF_NOT_NATIVE;
	case RULECONF_VITEST:
		return read_vitest(r, text, len, path);
	case RULECONF_TURBO:
		return read_turbo(r, text, len, path);
	case RULECONF_MOON_TASKS:
		return read_moon(r, text, len, path, false);
	case RULECONF_MOON_PROJECT:
		return read_moon(r, text, len, path, true);
	case RULECONF_HARNESS:
		return read_harness(r, text, len, path);
	case RULECONF_GSTACK:
		return read_gstack(r, text, len, path);
	}
	BUG("unknown rule configuration format");
}

/* ---- writing: the diff ---- */

struct lines {
	const char **at;  /* start of each line */
	size_t *len;      /* with its newline, if any */
	size_t nr;
};

static void split_lines(const char *s, size_t n, struct lines *l)
{
	size_t alloc = 0;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : n;

		if (l->nr + 1 > alloc) {
			alloc = alloc * 2 + 16;
			l->at = xrealloc(l->at, alloc * sizeof(*l->at));
			l->len = xrealloc(l->len, alloc * sizeof(*l->len));
		}
		l->at[l->nr] = s + i;
		l->len[l->nr++] = end - i;
		i = end;
	}
}

static bool line_eq(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

static void diff_line(struct strbuf *out, char mark, const char *s, size_t n)
{
	strbuf_addch(out, mark);
	strbuf_add(out, s, n);
	if (!n || s[n - 1] != '\n')
		strbuf_addstr(out, "\n\\ No newline at end of file\n");
}

void ruleconf_diff(struct strbuf *out, const char *a_name, const char *a, size_t alen,
		   const char *b_name, const char *b, size_t blen)
{
	struct lines la, lb;
	size_t pre = 0, suf = 0, start, a_end, b_end, ctx_a, ctx_b;

	split_lines(a, alen, &la);
	split_lines(b, blen, &lb);
	while (pre < la.nr && pre < lb.nr && line_eq(&la, pre, &lb, pre))
		pre++;
	while (suf < la.nr - pre && suf < lb.nr - pre &&
	       line_eq(&la, la.nr - 1 - suf, &lb, lb.nr - 1 - suf))
		suf++;
	if (pre == la.nr && pre == lb.nr)
		goto out;
	start = pre > 3 ? pre - 3 : 0;
	a_end = la.nr - suf;
	b_end = lb.nr - suf;
	ctx_a = a_end + (suf > 3 ? 3 : suf);
	ctx_b = b_end + (ctx_a - a_end);
	strbuf_addf(out, "--- %s\n+++ %s\n", a_name, b_name);
	strbuf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n",
		    ctx_a > start ? start + 1 : start, ctx_a - start,
		    ctx_b > start ? start + 1 : start, ctx_b - start);
	for (size_t i = start; i < pre; i++)
		diff_line(out, ' ', la.at[i], la.len[i]);
	for (size_t i = pre; i < a_end; i++)
		diff_line(out, '-', la.at[i], la.len[i]);
	for (size_t i = pre; i < b_end; i++)
		diff_line(out, '+', lb.at[i], lb.len[i]);
	for (size_t i = a_end; i < ctx_a; i++)
		diff_line(out, ' ', la.at[i], la.len[i]);
out:
	free(la.at);
	free(la.len);
	free(lb.at);
	free(lb.len);
}

/* ---- writing: inserting JSON text, checked with cJSON ---- */

static bool json_equals(const char *text, size_t len, const cJSON *want, bool jsonc)
{
	cJSON *got = json_quiet(text, len, jsonc, NULL);
	bool same = got && cJSON_Compare(got, want, true);

	cJSON_Delete(got);
	return same;
}

/*
 * Offsets of the `open` character that follows `"key"` and ':' (blanks
 * between), or, for key NULL, of the document's first non-blank character
 * when it is `open`.
 */
static void json_anchors(const char *t, size_t len, const char *key, char open,
			 struct strbuf *out)
{
	char *needle;
	const char *p = t;

	if (!key) {
		size_t i = 0;

		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i < len && t[i] == open)
			strbuf_add(out, &i, sizeof(i));
		return;
	}
	needle = xstrfmt("\"%s\"", key);
	while ((p = memmem(p, (size_t)(t + len - p), needle, strlen(needle))) != NULL) {
		size_t i = (size_t)(p - t) + strlen(needle);

		p++;
		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i >= len || t[i] != ':')
			continue;
		i++;
		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i < len && t[i] == open)
			strbuf_add(out, &i, sizeof(i));
	}
	free(needle);
}

/* The blanks that start the line holding offset i. */
static void line_indent(const char *t, size_t i, struct strbuf *out)
{
	size_t s = i;

	while (s > 0 && t[s - 1] != '\n')
		s--;
	while (s < i && (t[s] == ' ' || t[s] == '\t'))
		strbuf_addch(out, t[s++]);
}

/*
 * Insert value (JSON text) as the last element of an array opened at one
 * of the anchors (key as in json_anchors), trying each ']' after it until
 * the text parses to `want`. 0 with the new text in out, -1 if no place works.
 */
static int json_insert_element(const char *t, size_t len, const char *key,
			       const char *value, const cJSON *want, bool jsonc,
			       struct strbuf *out)
{
	struct strbuf anchors = STRBUF_INIT, indent = STRBUF_INIT;
	size_t nr, tries = 0;
	int ret = -1;

	json_anchors(t, len, key, '[', &anchors);
	nr = anchors.len / sizeof(size_t);
	for (size_t k = 0; k < nr && ret && tries < 512; k++) {
		size_t b;

		memcpy(&b, anchors.buf + k * sizeof(size_t), sizeof(b));
		for (size_t e = b + 1; e < len && ret && tries < 512; e++) {
			size_t q = e;

			if (t[e] != ']')
				continue;
			tries++;
			while (q > b + 1 && strchr(" \t\r\n", t[q - 1]))
				q--;
			strbuf_reset(out);
			if (q == b + 1) {
				strbuf_add(out, t, b + 1);
				strbuf_addstr(out, value);
				strbuf_add(out, t + b + 1, len - b - 1);
			} else {
				strbuf_add(out, t, q);
				if (memchr(t + q, '\n', e - q)) {
					strbuf_reset(&indent);
					line_indent(t, q - 1, &indent);
					strbuf_addf(out, ",\n%s%s", indent.buf, value);
				} else {
					strbuf_addf(out, ", %s", value);
				}
				strbuf_add(out, t + q, len - q);
			}
			if (json_equals(out->buf, out->len, want, jsonc))
				ret = 0;
		}
	}
	strbuf_release(&anchors);
	strbuf_release(&indent);
	return ret;
}

/* Insert member ("\"k\": v") first in an object opened at an anchor; as above. */
static int json_insert_member(const char *t, size_t len, const char *key,
			      const char *member, const cJSON *want, bool jsonc,
			      struct strbuf *out)
{
	struct strbuf anchors = STRBUF_INIT, indent = STRBUF_INIT;
	size_t nr;
	int ret = -1;

	json_anchors(t, len, key, '{', &anchors);
	nr = anchors.len / sizeof(size_t);
	for (size_t k = 0; k < nr && ret; k++) {
		size_t b, n;

		memcpy(&b, anchors.buf + k * sizeof(size_t), sizeof(b));
		n = b + 1;
		while (n < len && strchr(" \t\r\n", t[n]))
			n++;
		strbuf_reset(out);
		strbuf_add(out, t, b + 1);
		if (n < len && t[n] == '}') {
			strbuf_addstr(out, member);
		} else if (memchr(t + b + 1, '\n', n - b - 1)) {
			strbuf_reset(&indent);
			line_indent(t, n, &indent);
			strbuf_addf(out, "\n%s%s,", indent.buf, member);
		} else {
			strbuf_addf(out, "%s, ", member);
		}
		strbuf_add(out, t + b + 1, len - b - 1);
		if (json_equals(out->buf, out->len, want, jsonc))
			ret = 0;
	}
	strbuf_release(&anchors);
	strbuf_release(&indent);
	return ret;
}

static char *json_quote(const char *s)
{
	cJSON *str = cJSON_CreateString(s);
	char *p = cJSON_PrintUnformatted(str);
	char *out = xstrdup(p);

	cJSON_free(p);
	cJSON_Delete(str);
	return out;
}

/* ---- writing: per format ---- */

static bool is_action_word(const char *g)
{
	enum rule_action a;

	return rules_action_parse(g, &a);
}

/* Read text as rules of its format (tiadash and cbm included). */
static int parse_any(struct rules *r, const char *text, size_t len, const char *path)
{
	int ret = ruleconf_parse(r, text, len, path);

	if (ret != RULECONF_NOT_NATIVE)
		return ret;
	if (ruleconf_detect(path, text, len) == RULECONF_CBM)
		return rules_parse_cbm(r, text, len, path);
	return rules_parse_tiadash(r, text, len, path);
}

static bool has_rule(const struct rules *r, enum rule_action a, const char *glob)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->items[i].action == a && !strcmp(r->items[i].glob, glob))
			return true;
	return false;
}

static int plan_tiadash(const char *glob, int64_t now, struct ruleconf_edit *e)
{
	struct strbuf *t = &e->new_text;

	if (is_action_word(glob))
		return error("'%s' would read as an action, not a glob, in a rule file",
			     glob);
	strbuf_addstr(t, e->old_text.buf);
	if (t->len && t->buf[t->len - 1] != '\n')
		strbuf_addch(t, '\n');
	strbuf_addstr(t, "# added by tiadash rules --add, ");
	time_format_date(t, now);
	strbuf_addch(t, '\n');
	if (glob[0] == '#')
		strbuf_addch(t, '\\');
	strbuf_addf(t, "%s\n", glob);
	e->writable = true;
	return 0;
}

/* A free "tiadash-force-full[-N]" rule id in a .codebase-memory.json. */
static char *cbm_free_id(const cJSON *rules)
{
	for (int n = 1;; n++) {
		char *id = n == 1 ? xstrdup("tiadash-force-full")
				  : xstrfmt("tiadash-force-full-%d", n);
		const cJSON *it;
		bool used = false;

		cJSON_ArrayForEach(it, rules) {
			const cJSON *v = jget(it, "id");

			used |= cJSON_IsString(v) && !strcmp(v->valuestring, id);
		}
		if (!used)
			return id;
		free(id);
	}
}

static int plan_cbm(const char *path, const char *glob, struct ruleconf_edit *e)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = ruleconf_json_parse(t, len, path, "codebase-memory-mcp config", false);
	cJSON *want, *ti, *rules, *rule;
	char *id, *q = json_quote(glob), *value;
	int ret = 0;

	if (!root) {
		free(q);
		return -1;
	}
	want = cJSON_Duplicate(root, true);
	ti = cJSON_GetObjectItemCaseSensitive(want, "test_impact");
	rules = cJSON_GetObjectItemCaseSensitive(ti, "rules");
	id = cbm_free_id(rules);
	value = xstrfmt("{\"id\": \"%s\", \"paths\": [%s], \"action\": \"run_all\"}", id, q);
	if (!cJSON_IsObject(ti)) {
		e->snippet = xstrfmt("%s has no \"test_impact\" object; add one "
				     "(codebase-memory-mcp docs: SMART_CI.md):\n\n"
				     "  \"test_impact\": {\"version\": 1, \"rules\": [\n"
				     "    %s\n  ]}\n", path, value);
		goto out;
	}
	rule = cJSON_Parse(value);
	if (rules && !cJSON_IsArray(rules)) {
		cJSON_Delete(rule);
		ret = error("%s: codebase-memory-mcp config: test_impact.rules is not "
			    "a list", path);
		goto out;
	}
	if (rules) {
		cJSON_AddItemToArray(rules, rule);
		ret = json_insert_element(t, len, "rules", value, want, false, &e->new_text);
	} else {
		char *member = xstrfmt("\"rules\": [%s]", value);

		rules = cJSON_AddArrayToObject(ti, "rules");
		cJSON_AddItemToArray(rules, rule);
		ret = json_insert_member(t, len, "test_impact", member, want, false,
					 &e->new_text);
		free(member);
	}
	if (ret < 0) {
		strbuf_reset(&e->new_text);
		e->snippet = xstrfmt("tiadash found no safe place to write in %s; add "
				     "this rule to test_impact.rules:\n\n    %s\n",
				     path, value);
		ret = 0;
	} else {
		e->writable = true;
		strlist_push_owned(&e->notes, xstrfmt("rule \"%s\" goes last in "
						      "test_impact.rules: an earlier rule "
						      "matching the same path wins", id));
	}
out:
	free(id);
	free(q);
	free(value);
	cJSON_Delete(want);
	cJSON_Delete(root);
	return ret;
}

/* A tiadash glob in turbo's dialect (root-relative); the reverse of turbo_glob. */
static char *to_turbo(const char *glob)
{
	const char *slash = strchr(glob, '/');

	if (glob[0] == '/')
		return xstrdup(glob + 1);
	if (!slash || !slash[1])
		return xstrfmt("**/%s", glob);
	return xstrdup(glob);
}

static int plan_turbo(const char *path, const char *glob, struct ruleconf_edit *e)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = ruleconf_json_parse(t, len, path, "turbo config", true);
	cJSON *want, *gd;
	char *g = to_turbo(glob), *q = json_quote(g);
	int ret;

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
		ret = json_insert_element(t, len, "globalDependencies", q, want, true,
					  &e->new_text);
	} else {
		char *member = xstrfmt("\"globalDependencies\": [%s]", q);

		gd = cJSON_AddArrayToObject(want, "globalDependencies");
		cJSON_AddItemToArray(gd, cJSON_CreateString(g));
		ret = json_insert_member(t, len, NULL, member, want, true, &e->new_text);
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

static int plan_gstack(const char *path, const char *glob, struct ruleconf_edit *e)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = ruleconf_json_parse(t, len, path, "gstack always-run list", false);
	cJSON *want;
	const cJSON *list;
	char *q = json_quote(glob);
	int ret = 0;

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
	if (json_insert_element(t, len, cJSON_IsArray(want) ? NULL : "files", q, want,
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

/* ---- writing: YAML, checked with libyaml ---- */

/* Is b's tree a's, with one more scalar `extra` last in b's node `target`? */
static bool ytree_equal(struct ydoc *a, yaml_node_t *na, struct ydoc *b,
			yaml_node_t *nb, yaml_node_t *target, const char *extra)
{
	if (!na || !nb || na->type != nb->type)
		return false;
	switch (na->type) {
	case YAML_SCALAR_NODE:
		return na->data.scalar.length == nb->data.scalar.length &&
		       !memcmp(na->data.scalar.value, nb->data.scalar.value,
			       na->data.scalar.length);
	case YAML_SEQUENCE_NODE: {
		ptrdiff_t n = na->data.sequence.items.top - na->data.sequence.items.start;
		ptrdiff_t m = nb->data.sequence.items.top - nb->data.sequence.items.start;

		if (m != n + (nb == target))
			return false;
		for (ptrdiff_t i = 0; i < n; i++)
			if (!ytree_equal(a, ynode(a, na->data.sequence.items.start[i]), b,
					 ynode(b, nb->data.sequence.items.start[i]),
					 target, extra))
				return false;
		return nb != target ||
		       yscalar_is(ynode(b, nb->data.sequence.items.start[n]), extra);
	}
	case YAML_MAPPING_NODE: {
		ptrdiff_t n = na->data.mapping.pairs.top - na->data.mapping.pairs.start;

		if (nb->data.mapping.pairs.top - nb->data.mapping.pairs.start != n)
			return false;
		for (ptrdiff_t i = 0; i < n; i++) {
			yaml_node_pair_t *pa = &na->data.mapping.pairs.start[i];
			yaml_node_pair_t *pb = &nb->data.mapping.pairs.start[i];

			if (!ytree_equal(a, ynode(a, pa->key), b, ynode(b, pb->key), target, extra) ||
			    !ytree_equal(a, ynode(a, pa->value), b, ynode(b, pb->value),
					 target, extra))
				return false;
		}
		return true;
	}
	case YAML_NO_NODE:
		break;
	}
	return false;
}

static void yaml_quote(struct strbuf *out, const char *s, bool single)
{
	strbuf_addch(out, single ? '\'' : '"');
	for (; *s; s++) {
		if (single && *s == '\'')
			strbuf_addch(out, '\'');
		else if (!single && (*s == '"' || *s == '\\'))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, single ? '\'' : '"');
}

/* The new text with glob appended to the sequence list; -1 when no plain insertion fits. */
static int yaml_insert(const char *t, size_t len, struct ydoc *y, yaml_node_t *list,
		       const char *glob, struct strbuf *out)
{
	yaml_node_item_t *items = list->data.sequence.items.start;
	ptrdiff_t n = list->data.sequence.items.top - items;
	yaml_node_t *last = n ? ynode(y, items[n - 1]) : NULL;
	struct strbuf q = STRBUF_INIT;
	bool single = last && last->type == YAML_SCALAR_NODE &&
		      last->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE;
	int ret = -1;

	yaml_quote(&q, glob, single);
	if (list->data.sequence.style == YAML_FLOW_SEQUENCE_STYLE) {
		size_t close = list->end_mark.index;

		if (close == 0 || close > len || t[close - 1] != ']')
			goto out;
		if (!last) {
			strbuf_add(out, t, close - 1);
			strbuf_add(out, q.buf, q.len);
			strbuf_add(out, t + close - 1, len - close + 1);
		} else {
			size_t end = last->end_mark.index;

			strbuf_add(out, t, end);
			strbuf_addstr(out, ", ");
			strbuf_add(out, q.buf, q.len);
			strbuf_add(out, t + end, len - end);
		}
		ret = 0;
	} else if (last && last->type == YAML_SCALAR_NODE &&
		   last->start_mark.line == last->end_mark.line) {
		size_t s = last->start_mark.index, eol = last->end_mark.index, ls = s;
		size_t k;

		while (ls > 0 && t[ls - 1] != '\n')
			ls--;
		for (k = ls; k < s && (t[k] == ' ' || t[k] == '\t'); k++)
			;
		if (k >= s || t[k] != '-')
			goto out;
		for (k++; k < s; k++)
			if (t[k] != ' ' && t[k] != '\t')
				goto out;
		while (eol < len && t[eol] != '\n')
			eol++;
		strbuf_add(out, t, eol);
		strbuf_addch(out, '\n');
		strbuf_add(out, t + ls, s - ls);
		strbuf_add(out, q.buf, q.len);
		strbuf_add(out, t + eol, len - eol);
		ret = 0;
	}
out:
	strbuf_release(&q);
	return ret;
}

static int plan_harness(const char *path, const char *glob, struct ruleconf_edit *e)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	struct ydoc a, b;
	yaml_node_t *list;
	struct strbuf q = STRBUF_INIT;
	int ret = 0;

	if (ydoc_load(&a, t, len, path, "harness config") < 0)
		return -1;
	yaml_quote(&q, glob, false);
	list = harness_list(&a);
	if (!list || list->type != YAML_SEQUENCE_NODE ||
	    yaml_insert(t, len, &a, list, glob, &e->new_text) < 0) {
		strbuf_reset(&e->new_text);
		e->snippet = xstrfmt("%s: add to the selection.no_subset_paths list:\n\n"
				     "selection:\n  no_subset_paths:\n    - %s\n",
				     path, q.buf);
		goto out;
	}
	memset(&b, 0, sizeof(b));
	if (ydoc_load(&b, e->new_text.buf, e->new_text.len, path, "harness config") < 0 ||
	    !ytree_equal(&a, yroot(&a), &b, yroot(&b), harness_list(&b), glob)) {
		ret = error("%s: harness config: the edit does not read back as one "
			    "more no_subset_paths entry (not written)", path);
		strbuf_reset(&e->new_text);
	} else {
		e->writable = true;
	}
	ydoc_release(&b);
out:
	strbuf_release(&q);
	ydoc_release(&a);
	return ret;
}

static int plan_vitest(const char *path, const char *glob, struct ruleconf_edit *e)
{
	struct js j;
	char *g;
	int ret = js_scan(&j, e->old_text.buf, e->old_text.len, path);

	if (ret < 0) {
		js_release(&j);
		return -1;
	}
	g = !strcmp(glob, "**") || starts_with(glob, "**/") ? xstrdup(glob)
		: xstrfmt("**/%s", glob[0] == '/' ? glob + 1 : glob);
	if (strchr(glob, '/') && strcmp(g, glob))
		strlist_push_owned(&e->notes, xstrfmt("written as '%s': vitest matches "
						      "forceRerunTriggers against "
						      "absolute paths, so a glob "
						      "anchored at the root has no "
						      "portable form; this one also "
						      "matches deeper", g));
	if (j.found)
		e->snippet = xstrfmt("%s was not changed (tiadash does not rewrite "
				     "TypeScript or JavaScript). Add this element to "
				     "forceRerunTriggers (%s:%d, the list ends on line "
				     "%d):\n\n      %c%s%c,\n", path, path, j.key_line,
				     j.close_line, j.quote, g, j.quote);
	else
		e->snippet = xstrfmt("%s was not changed (tiadash does not rewrite "
				     "TypeScript or JavaScript). It sets no "
				     "forceRerunTriggers, so vitest's defaults apply; "
				     "setting it replaces them. Add to its test: {...} "
				     "block:\n\n    forceRerunTriggers: ['%s', '%s', "
				     "'%s'],\n", path, vitest_defaults[0],
				     vitest_defaults[1], g);
	free(g);
	js_release(&j);
	return 0;
}

static int plan_moon(const char *path, const char *glob, bool project,
		     struct ruleconf_edit *e)
{
	const char *g = glob[0] == '/' ? glob : NULL;
	char *anchored = g ? NULL : xstrfmt("/**/%s", glob);

	if (!g && strchr(glob, '/') && strchr(glob, '/')[1])
		anchored = (free(anchored), xstrfmt("/%s", glob));
	if (project)
		e->snippet = xstrfmt("%s was not changed: moon has no force-full list. "
				     "To make a task of this project affected by it, "
				     "add to the task's inputs:\n\n        - '%s'\n",
				     path, g ? g : anchored);
	else
		e->snippet = xstrfmt("%s was not changed: moon has no force-full list. "
				     "To make every inherited task affected by it, add "
				     "to implicitInputs:\n\nimplicitInputs:\n  - '%s'\n",
				     path, g ? g : anchored);
	free(anchored);
	return 0;
}

void ruleconf_edit_release(struct ruleconf_edit *e)
{
	strbuf_release(&e->old_text);
	strbuf_release(&e->new_text);
	free(e->snippet);
	strlist_release(&e->notes);
	memset(e, 0, sizeof(*e));
	e->old_text = (struct strbuf)STRBUF_INIT;
	e->new_text = (struct strbuf)STRBUF_INIT;
}

static int check_glob(const char *glob)
{
	struct strbuf why = STRBUF_INIT;
	struct glob_set *gs;
	int ret = 0;

	for (const char *p = glob; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return error("the glob holds a control character");
	if (!*glob || glob[0] == ' ' || glob[0] == '\t' ||
	    glob[strlen(glob) - 1] == ' ' || glob[strlen(glob) - 1] == '\t')
		return error("'%s': a glob must not be empty or start or end with a blank",
			     glob);
	if (glob[0] == '!')
		return error("'%s': a negated glob is not a force-full trigger", glob);
	gs = glob_set_new();
	if (glob_set_add(gs, glob, 0, &why) < 0)
		ret = error("'%s': %s", glob, why.buf);
	glob_set_free(gs);
	strbuf_release(&why);
	return ret;
}

/* The glob an added glob reads back as (turbo's dialect round trip). Caller frees. */
static char *reads_as_glob(enum ruleconf_format f, const char *glob)
{
	char *t, *g;

	if (f == RULECONF_TIADASH && glob[0] == '#')
		return xstrfmt("\\%s", glob); /* written escaped, read as written */
	if (f != RULECONF_TURBO)
		return xstrdup(glob);
	t = to_turbo(glob);
	g = turbo_glob(t);
	free(t);
	return g;
}

/* The rules text reads as: the old rules plus one with the glob added. */
static int read_back(const struct ruleconf_edit *e, const char *path, const char *glob)
{
	struct rules before = RULES_INIT, after = RULES_INIT;
	enum rule_action want = e->format == RULECONF_GSTACK ? RULE_SELECT : RULE_RUN_ALL;
	char *reads_as = reads_as_glob(e->format, glob);
	int ret = 0;

	if ((e->exists && parse_any(&before, e->old_text.buf, e->old_text.len, path) < 0) ||
	    parse_any(&after, e->new_text.buf, e->new_text.len, path) < 0 ||
	    after.nr != before.nr + 1 || !has_rule(&after, want, reads_as))
		ret = error("%s: the edit does not read back as one more rule '%s' "
			    "(not written)", path, reads_as);
	free(reads_as);
	rules_release(&before);
	rules_release(&after);
	return ret;
}

int ruleconf_plan_add(const char *path, const char *glob, int64_t now,
		      struct ruleconf_edit *out)
{
	struct rules cur = RULES_INIT;
	enum rule_action want;
	char *reads_as;
	int ret;

	if (check_glob(glob) < 0)
		return -1;
	if (access(path, F_OK) == 0) {
		if (read_file_limit(&out->old_text, path, 16 << 20) < 0)
			return -1;
		out->exists = true;
	}
	out->format = ruleconf_detect(path, out->old_text.buf, out->old_text.len);
	if (!out->exists && out->format != RULECONF_TIADASH)
		return error("cannot read '%s': %s", path, strerror(ENOENT));
	/* The file must read as rules now; is the glob there already? */
	if (out->exists && parse_any(&cur, out->old_text.buf, out->old_text.len, path) < 0) {
		rules_release(&cur);
		return -1;
	}
	want = out->format == RULECONF_GSTACK ? RULE_SELECT : RULE_RUN_ALL;
	reads_as = reads_as_glob(out->format, glob);
	out->present = has_rule(&cur, want, reads_as);
	free(reads_as);
	rules_release(&cur);
	if (out->present)
		return 0;
	switch (out->format) {
	case RULECONF_TIADASH: ret = plan_tiadash(glob, now, out); break;
	case RULECONF_CBM: ret = plan_cbm(path, glob, out); break;
	case RULECONF_TURBO: ret = plan_turbo(path, glob, out); break;
	case RULECONF_GSTACK: ret = plan_gstack(path, glob, out); break;
	case RULECONF_HARNESS: ret = plan_harness(path, glob, out); break;
	case RULECONF_VITEST: ret = plan_vitest(path, glob, out); break;
	case RULECONF_MOON_TASKS: ret = plan_moon(path, glob, false, out); break;
	case RULECONF_MOON_PROJECT: ret = plan_moon(path, glob, true, out); break;
	default: BUG("unknown rule configuration format");
	}
	if (!ret && out->writable && read_back(out, path, glob) < 0) {
		out->writable = false;
		ret = -1;
	}
	return ret;
}

/* ---- writing: the files ---- */

static int write_whole(const char *path, const char *data, size_t len, mode_t mode)
{
	char *dir = path_dirname(path);
	char *tmp = xstrfmt("%s/.%s.tiadash-XXXXXX", dir, base_name(path));
	int fd = mkstemp(tmp), ret = 0;
	size_t off = 0;

	free(dir);
	if (fd < 0) {
		ret = error("cannot create a file beside '%s': %s", path, strerror(errno));
		free(tmp);
		return ret;
	}
	while (off < len && !ret) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			ret = error("cannot write '%s': %s", tmp, strerror(errno));
		else
			off += (size_t)n;
	}
	if (!ret && fchmod(fd, mode) < 0)
		ret = error("cannot set the mode of '%s': %s", tmp, strerror(errno));
	if (!ret && fsync(fd) < 0)
		ret = error("cannot write '%s': %s", tmp, strerror(errno));
	if (close(fd) < 0 && !ret)
		ret = error("cannot write '%s': %s", tmp, strerror(errno));
	if (!ret && rename(tmp, path) < 0)
		ret = error("cannot replace '%s': %s", path, strerror(errno));
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int ruleconf_apply(const struct ruleconf_edit *e, const char *path)
{
	struct stat st;
	mode_t mask = umask(022), mode;
	char *backup, *real = NULL;
	int ret = 0;

	umask(mask);
	mode = 0666 & ~mask;
	if (!e->writable)
		BUG("ruleconf_apply of a plan that is not writable");
	if (e->exists) {
		if (stat(path, &st) < 0)
			return error("cannot read '%s': %s", path, strerror(errno));
		mode = st.st_mode & 07777;
		/* A symbolic link stays one: the file it names is replaced. */
		real = realpath(path, NULL);
		backup = xstrfmt("%s.orig", path);
		ret = write_whole(backup, e->old_text.buf, e->old_text.len, mode);
		free(backup);
	} else if (mkdir_for_file(path) < 0) {
		return -1;
	}
	if (!ret)
		ret = write_whole(real ? real : path, e->new_text.buf, e->new_text.len, mode);
	free(real);
	return ret;
}

int ruleconf_add(const char *path, const char *glob, bool dry_run, int64_t now)
{
	struct ruleconf_edit e = RULECONF_EDIT_INIT;
	struct strbuf diff = STRBUF_INIT;
	int ret = ruleconf_plan_add(path, glob, now, &e);

	if (ret < 0)
		goto out;
	if (e.present) {
		note("'%s' already forces a full run in %s: nothing to do", glob, path);
		goto out;
	}
	for (size_t i = 0; i < e.notes.nr; i++)
		note("%s: %s", path, e.notes.items[i]);
	if (!e.writable) {
		fputs(e.snippet, stdout);
		goto out;
	}
	{
		char *a = e.exists ? xstrfmt("%s.orig", path) : xstrdup("/dev/null");

		ruleconf_diff(&diff, a, e.old_text.buf, e.old_text.len, path,
			      e.new_text.buf, e.new_text.len);
		free(a);
	}
	fwrite(diff.buf, 1, diff.len, stdout);
	fflush(stdout);
	if (dry_run) {
		note("dry run: %s not changed", path);
		goto out;
	}
	ret = ruleconf_apply(&e, path);
	if (!ret && e.exists)
		note("wrote %s (the previous version is %s.orig)", path, path);
	else if (!ret)
		note("created %s", path);
out:
	strbuf_release(&diff);
	ruleconf_edit_release(&e);
	return ret;
}
