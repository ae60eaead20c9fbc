/* The vitest adapter: vitest.config.* forceRerunTriggers (read and edited in place), `vitest list --json` answers. */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/repo.h"

/*
 * vitest's own default forceRerunTriggers (packages/vitest/src/defaults.ts,
 * configDefaults.forceRerunTriggers), as vitest 3.2.7 ships them: what
 * applies when a config sets none, and what `...configDefaults.
 * forceRerunTriggers` inside the list stands for.
 */
#define VITEST_DEFAULTS_VERSION "3.2.7"
static const char *const vitest_defaults[] = {
	"**/package.json/**", "**/{vitest,vite}.config.*/**",
};

/*
 * The one hand-written scanner in tiadash. A vitest config is TypeScript
 * or JavaScript, which no Debian library reads, so this reads exactly one
 * thing from it: the array literal of `forceRerunTriggers: [...]`, whose
 * elements are string literals or `...configDefaults.forceRerunTriggers`
 * (vitest's defaults, above). It tokenizes just enough JavaScript to know
 * what is code (comments, string and template literals with ${...}
 * nesting, regular expression literals after a token that cannot end an
 * expression). An element it cannot evaluate (a variable, a call, a
 * template with ${...}) is named in a warning and left out; the property
 * written any other way (not an array literal, set twice, used as a
 * value), an unterminated literal or comment, or an escape it does not
 * know is an input error naming the line, never a partial read. It also
 * remembers where the list and the `test: {` block are, so an accepted
 * glob can be written in place. Only the `test` object of the exported
 * config counts, read and written alike (what `export default` is, an
 * argument of defineConfig, defineProject or mergeConfig, or what a
 * function given to defineConfig returns): a `test: {` or a
 * forceRerunTriggers in a plugin's options is not vitest's.
 */
enum js_kind {
	JS_OTHER,         /* a paren, bracket, block or object of no interest */
	JS_CONFIG_CALL,   /* defineConfig( defineProject( mergeConfig( */
	JS_CONFIG_PAREN,  /* `=> (` of a function defineConfig is given */
	JS_CONFIG_BLOCK,  /* `=> {` of such a function: its `return {` */
	JS_CONFIG,        /* the exported config object */
	JS_TEST,          /* its `test` object */
};

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
	/* Where things are, for writing: offsets into s. */
	size_t open_at;      /* the list's '[' */
	size_t close_at;     /* its ']' */
	size_t last_end;     /* just after its last element (0: empty list) */
	size_t last_start;   /* the start of its last element */
	size_t test_open;    /* the '{' of the config's `test: {` (0: none) */
	int tests_found;     /* the exported config's `test: {` blocks seen */
	int stray_test_line; /* the first `test: {` elsewhere (a plugin's options) */
	/*
	 * What each open bracket is (enum js_kind, one byte each), so that
	 * only the exported config's `test` object counts: a `test: {` in a
	 * plugin's options is not vitest's.
	 */
	struct strbuf stack;
	size_t test_brace;   /* 1 + the '{' a config's `test:` opens next (0: none) */
	bool arrow_config;   /* after `=>` of a function defineConfig is given */
	/* setupFiles (every occurrence): the files, with their lines. */
	struct strlist setup;
	struct strbuf setup_lines;
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

/*
 * Skip an expression to the ',' or ']' (or, in_object, '}') that ends it
 * at its depth; *text gets it (caller frees). 1: the input ended first.
 */
static int js_expression(struct js *j, bool in_object, char **text)
{
	size_t start = j->i;
	int depth = 0;

	*text = NULL;
	for (;;) {
		char c;

		if (js_skip(j) < 0)
			return -1;
		if (j->i >= j->len)
			return 1;
		c = j->s[j->i];
		if (c == '\'' || c == '"' || c == '`') {
			struct strbuf val = STRBUF_INIT;
			int rc = js_string(j, &val, false);

			strbuf_release(&val);
			if (rc < 0)
				return -1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth)
			depth--;
		else if (!depth && (c == ',' || c == ']' || (in_object && c == '}')))
			break;
		j->i++;
	}
	*text = xstrndup(j->s + start, j->i - start);
	return 0;
}

/*
 * An element that is not a string literal: skip it (to the ',' or ']' at
 * its depth), and say what it was.
 */
static int js_other_element(struct js *j, int line)
{
	char *text;
	int rc = js_expression(j, false, &text);

	if (rc)
		return rc < 0 ? -1 : js_error(j, "unterminated forceRerunTriggers array");
	if (!strcmp(trim(text), "...configDefaults.forceRerunTriggers")) {
		for (size_t k = 0; k < ARRAY_SIZE(vitest_defaults); k++) {
			strlist_push(&j->globs, vitest_defaults[k]);
			strbuf_add(&j->lines, &line, sizeof(line));
		}
	} else {
		warning("%s:%d: vitest config: forceRerunTriggers element '%.60s' "
			"cannot be evaluated by tiadash: left out of the rules (the "
			"rules may miss what it adds)", j->path, line, trim(text));
	}
	free(text);
	return 0;
}

/* The array after `forceRerunTriggers:`, at its '['. */
static int js_array(struct js *j)
{
	j->open_at = j->i++;
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
			j->close_at = j->i++;
			return 0;
		}
		line = j->line;
		j->last_start = j->i;
		if (c != '\'' && c != '"' && c != '`') {
			if (js_other_element(j, line) < 0)
				return -1;
		} else {
			j->quote = c;
			if (js_string(j, &val, true) < 0) {
				strbuf_release(&val);
				return -1;
			}
			strlist_push_owned(&j->globs, strbuf_detach(&val, NULL));
			strbuf_add(&j->lines, &line, sizeof(line));
		}
		j->last_elem_line = line;
		j->last_end = j->i;
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

/* A value tiadash cannot evaluate: skipped, and named in a warning. */
static int js_skip_value(struct js *j, const char *what)
{
	int line = j->line;
	char *text;
	int rc = js_expression(j, true, &text);

	if (rc < 0)
		return -1;
	if (text)
		warning("%s:%d: vitest config: %s '%.60s' cannot be evaluated by "
			"tiadash: left out of the rules (the rules may miss what it "
			"adds)", j->path, line, what, trim(text));
	free(text);
	return 0;
}

static void js_push_setup(struct js *j, struct strbuf *val, int line)
{
	strlist_push_owned(&j->setup, strbuf_detach(val, NULL));
	strbuf_add(&j->setup_lines, &line, sizeof(line));
}

/*
 * `setupFiles:` (after its name): a string literal or an array of them.
 * vitest adds these files to forceRerunTriggers (vitest 3.2.7,
 * resolveConfig: `resolved.forceRerunTriggers = [...forceRerunTriggers,
 * ...setupFiles]`), so a change to one reruns everything.
 */
static int js_setup_files(struct js *j)
{
	struct strbuf val = STRBUF_INIT;
	int line;

	if (js_skip(j) < 0)
		return -1;
	if (j->i >= j->len || j->s[j->i] != ':')
		return 0; /* a shorthand or a use: not a literal list */
	j->i++;
	if (js_skip(j) < 0)
		return -1;
	line = j->line;
	if (j->i < j->len && (j->s[j->i] == '\'' || j->s[j->i] == '"')) {
		if (js_string(j, &val, false) < 0) {
			strbuf_release(&val);
			return -1;
		}
		js_push_setup(j, &val, line);
		return 0;
	}
	if (j->i >= j->len || j->s[j->i] != '[')
		return js_skip_value(j, "setupFiles");
	j->i++;
	for (;;) {
		if (js_skip(j) < 0)
			return -1;
		if (j->i >= j->len)
			return js_error(j, "unterminated setupFiles array");
		if (j->s[j->i] == ']') {
			j->i++;
			return 0;
		}
		line = j->line;
		if (j->s[j->i] == '\'' || j->s[j->i] == '"') {
			strbuf_reset(&val);
			if (js_string(j, &val, false) < 0) {
				strbuf_release(&val);
				return -1;
			}
			js_push_setup(j, &val, line);
		} else if (js_skip_value(j, "setupFiles element") < 0) {
			return -1;
		}
		if (js_skip(j) < 0)
			return -1;
		if (j->i < j->len && j->s[j->i] == ',')
			j->i++;
		else if (j->i < j->len && j->s[j->i] != ']')
			return js_error(j, "expected ',' or ']' after an element of "
					"setupFiles");
	}
}

static unsigned char js_top(const struct js *j)
{
	return j->stack.len ? (unsigned char)j->stack.buf[j->stack.len - 1] : JS_OTHER;
}

static bool js_in(const struct js *j, enum js_kind k)
{
	return j->stack.len && memchr(j->stack.buf, k, j->stack.len);
}

/* Does the last token put the next one in a key's place in an object? */
static bool js_key_place(const struct js *j)
{
	return j->prev == '{' || j->prev == ',';
}

/*
 * After a `test` key (at a key's place): is it `test: {`? The exported
 * config's is remembered, its brace to be pushed as JS_TEST; one
 * elsewhere only for the message that says why nothing is written.
 */
static void js_note_test_block(struct js *j)
{
	size_t save = j->i;
	int save_line = j->line;
	bool config = js_top(j) == JS_CONFIG;

	if (js_skip(j) == 0 && j->i < j->len && j->s[j->i] == ':') {
		j->i++;
		if (js_skip(j) == 0 && j->i < j->len && j->s[j->i] == '{') {
			if (config) {
				if (!j->tests_found++)
					j->test_open = j->i;
				j->test_brace = j->i + 1;
			} else if (!config && !j->stray_test_line) {
				j->stray_test_line = j->line;
			}
		}
	}
	j->i = save;
	j->line = save_line;
}

/*
 * What a '{' opens: the config object is the one `export default` is,
 * an argument of defineConfig, defineProject or mergeConfig, or what a
 * function given to defineConfig returns (`=> ({`, `=> { return {`).
 */
static enum js_kind js_brace_kind(const struct js *j)
{
	unsigned char top = js_top(j);

	if (j->test_brace == j->i + 1)
		return JS_TEST;
	if (j->arrow_config)
		return JS_CONFIG_BLOCK;
	if (j->prev == 'a' && !strcmp(j->prev_word, "default"))
		return JS_CONFIG;
	if (top == JS_CONFIG_CALL && (j->prev == '(' || j->prev == ','))
		return JS_CONFIG;
	if (top == JS_CONFIG_PAREN && j->prev == '(')
		return JS_CONFIG;
	if (top == JS_CONFIG_BLOCK && j->prev == 'a' && !strcmp(j->prev_word, "return"))
		return JS_CONFIG;
	return JS_OTHER;
}

static enum js_kind js_paren_kind(const struct js *j)
{
	static const char *const calls[] = { "defineConfig", "defineProject", "mergeConfig" };

	if (j->arrow_config)
		return JS_CONFIG_PAREN;
	for (size_t k = 0; j->prev == 'a' && k < ARRAY_SIZE(calls); k++)
		if (!strcmp(j->prev_word, calls[k]))
			return JS_CONFIG_CALL;
	return JS_OTHER;
}

/* Brackets: what each opens is pushed, and popped when it closes. */
static void js_bracket(struct js *j, char c)
{
	if (c == '{')
		strbuf_addch(&j->stack, js_brace_kind(j));
	else if (c == '(')
		strbuf_addch(&j->stack, js_paren_kind(j));
	else if (c == '[')
		strbuf_addch(&j->stack, JS_OTHER);
	else if (j->stack.len)
		strbuf_setlen(&j->stack, j->stack.len - 1);
	/* `=>` of a function given to defineConfig: its body is next. */
	j->arrow_config = false;
}

/*
 * A forceRerunTriggers key (the name just read): vitest reads the one in
 * the exported config's test options; anywhere else it is named and left
 * out, since tiadash cannot tell what reads it.
 */
static int js_trigger_key(struct js *j)
{
	size_t save = j->i;
	int save_line = j->line;

	if (js_top(j) == JS_TEST)
		return js_property(j);
	if (js_skip(j) < 0)
		return -1;
	if (j->i < j->len && j->s[j->i] == ':')
		warning("%s:%d: vitest config: a forceRerunTriggers outside the test "
			"options of the exported config (export default defineConfig({ "
			"test: {...} })) is not vitest's: left out of the rules",
			j->path, save_line);
	j->i = save;
	j->line = save_line;
	return 0;
}

static bool js_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* A string literal in code: a quoted key may be one tiadash reads. */
static int js_code_string(struct js *j, char c)
{
	struct strbuf val = STRBUF_INIT;
	bool key = js_key_place(j) && c != '`';
	int ret = 0;

	if (js_string(j, &val, false) < 0) {
		strbuf_release(&val);
		return -1;
	}
	j->prev = '"';
	j->prev_word[0] = '\0';
	j->arrow_config = false;
	if (key && !strcmp(val.buf, "setupFiles") && js_in(j, JS_TEST)) {
		ret = js_setup_files(j);
		j->prev = ']';
	} else if (key && !strcmp(val.buf, "forceRerunTriggers")) {
		ret = js_trigger_key(j);
	} else if (key && !strcmp(val.buf, "test")) {
		js_note_test_block(j);
	}
	strbuf_release(&val);
	return ret;
}

/* A word in code; the names tiadash reads, at a key's place. */
static int js_code_word(struct js *j)
{
	size_t start = j->i, n;
	bool member = j->prev == '.', key = js_key_place(j);
	const char *w = j->s + start;

	while (j->i < j->len && js_word_char((unsigned char)j->s[j->i]))
		j->i++;
	n = j->i - start;
	snprintf(j->prev_word, sizeof(j->prev_word), "%.*s", (int)n, w);
	j->prev = 'a';
	j->arrow_config = false;
	if (n == 4 && !memcmp(w, "test", 4) && key)
		js_note_test_block(j);
	if (n == 10 && !memcmp(w, "setupFiles", 10) && key && js_in(j, JS_TEST)) {
		if (js_setup_files(j) < 0)
			return -1;
		j->prev = ']';
		j->prev_word[0] = '\0';
	}
	if (n == 18 && !memcmp(w, "forceRerunTriggers", 18)) {
		if (member)
			return js_error(j, "forceRerunTriggers is used as a value, not "
					"written as a literal");
		return js_trigger_key(j);
	}
	return 0;
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
			if (js_code_string(j, c) < 0)
				return -1;
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
			if (js_code_word(j) < 0)
				return -1;
			continue;
		}
		if (until_brace && c == '{')
			depth++;
		if (until_brace && c == '}' && depth-- == 0) {
			j->i++;
			return 0;
		}
		if (strchr("([{}])", c))
			js_bracket(j, c);
		else if (c == '>' && j->prev == '=' && js_top(j) == JS_CONFIG_CALL)
			j->arrow_config = true;
		else
			j->arrow_config = false;
		j->prev = c;
		j->prev_word[0] = '\0';
		j->i++;
	}
}

static void js_release(struct js *j)
{
	strlist_release(&j->globs);
	strbuf_release(&j->lines);
	strlist_release(&j->setup);
	strbuf_release(&j->setup_lines);
	strbuf_release(&j->stack);
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
	j->setup = (struct strlist)STRLIST_INIT;
	j->setup_lines = (struct strbuf)STRBUF_INIT;
	j->stack = (struct strbuf)STRBUF_INIT;
	return js_code(j, false);
}

/*
 * A forceRerunTriggers glob as tiadash reads it: vitest matches it with
 * picomatch against the absolute paths of the changed files, so only a
 * "**"-led glob can fire; picomatch's "X/ **" matches X itself too, which
 * tiadash's "X" says (a glob matches a path's leading directories). 1:
 * left out (a warning says why), 0: use *out (caller frees), -1: an error.
 */
static int vitest_glob(const char *g, const char *where, char **out)
{
	size_t n = strlen(g);

	*out = NULL;
	if (g[0] == '!')
		return error("%s: vitest config: negated forceRerunTriggers glob '%s' "
			     "is not supported", where, g);
	if (conf_has_extglob(g))
		return error("%s: vitest config: extglob '%s' is not supported", where, g);
	if (!strcmp(g, "**") || starts_with(g, "**/")) {
		if (n > 5 && ends_with(g, "/**"))
			n -= 3;
		*out = xstrndup(g, n);
		return 0;
	}
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

/*
 * The config's directory (vitest's root), relative to its repository's
 * root: "" at the root; NULL when it is not in a repository, where it is
 * taken as the root. Caller frees.
 */
static char *config_dir_in_repo(const char *path)
{
	char *real = realpath(path, NULL), *dir, *top = NULL, *rtop = NULL, *rel = NULL;
	size_t n;

	if (!real)
		return NULL;
	dir = path_dirname(real);
	top = repo_discover_root(dir);
	if (top)
		rtop = realpath(top, NULL);
	n = rtop ? strlen(rtop) : 0;
	if (rtop && !strncmp(dir, rtop, n) && (dir[n] == '/' || !dir[n]))
		rel = xstrdup(dir[n] ? dir + n + 1 : "");
	free(real);
	free(dir);
	free(top);
	free(rtop);
	return rel;
}

/*
 * A setupFiles entry as a repository path ("/dir/setup.ts"), resolved
 * against the config's directory as vitest resolves it; NULL for a
 * package (resolved in node_modules, whose changes come through the
 * manifests) or a path out of the repository (warned). Caller frees.
 */
static char *vitest_setup_glob(const char *entry, const char *dir, const char *where)
{
	struct strbuf rel = STRBUF_INIT, out = STRBUF_INIT;
	const char *base = conf_base_name(entry), *p;

	if (entry[0] == '/') {
		warning("%s: vitest config: setupFiles entry '%s' is an absolute "
			"path: left out of the rules", where, entry);
		return NULL;
	}
	if (!starts_with(entry, "./") && !starts_with(entry, "../") &&
	    (entry[0] == '@' || !strchr(base, '.')))
		return NULL;
	strbuf_addstr(&rel, dir ? dir : "");
	for (p = entry; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(rel.buf, '/');

			if (!rel.len) {
				warning("%s: vitest config: setupFiles entry '%s' is "
					"outside the repository: left out of the rules",
					where, entry);
				strbuf_release(&rel);
				return NULL;
			}
			strbuf_setlen(&rel, slash ? (size_t)(slash - rel.buf) : 0);
		} else if (n && !(n == 1 && *p == '.')) {
			if (rel.len)
				strbuf_addch(&rel, '/');
			strbuf_add(&rel, p, n);
		}
		p += n + !!p[n];
	}
	strbuf_addch(&out, '/');
	conf_glob_escape(&out, rel.buf);
	strbuf_release(&rel);
	return strbuf_detach(&out, NULL);
}

static int vitest_setup_rules(struct rules *r, const struct js *j, const char *path)
{
	char *dir = j->setup.nr ? config_dir_in_repo(path) : NULL;
	int ret = 0;

	for (size_t i = 0; !ret && i < j->setup.nr; i++) {
		int line;
		char *where, *g;

		memcpy(&line, j->setup_lines.buf + i * sizeof(int), sizeof(int));
		where = xstrfmt("%s:%d", path, line);
		g = vitest_setup_glob(j->setup.items[i], dir, where);
		if (g)
			ret = rules_add(r, RULE_RUN_ALL, "vitest:setupFiles", g, where,
					NULL, NULL);
		free(g);
		free(where);
	}
	free(dir);
	return ret;
}

static int vitest_rules(struct rules *r, const char *text, size_t len, const char *path,
			int variant)
{
	struct js j;
	int ret = js_scan(&j, text, len, path);

	(void)variant;
	if (!ret && !j.found) {
		char *origin = xstrfmt("%s (vitest " VITEST_DEFAULTS_VERSION " default: "
				       "no forceRerunTriggers)", path);

		for (size_t i = 0; i < ARRAY_SIZE(vitest_defaults) && !ret; i++) {
			char *g;

			if (vitest_glob(vitest_defaults[i], origin, &g) == 0)
				ret = rules_add(r, RULE_RUN_ALL, "vitest:default", g,
						origin, NULL, NULL);
			free(g);
		}
		free(origin);
	}
	for (size_t i = 0; !ret && i < j.globs.nr; i++) {
		int line, use;
		char *where, *g;

		memcpy(&line, j.lines.buf + i * sizeof(int), sizeof(int));
		where = xstrfmt("%s:%d", path, line);
		use = vitest_glob(j.globs.items[i], where, &g);
		if (use < 0)
			ret = -1;
		else if (use == 0)
			ret = rules_add(r, RULE_RUN_ALL, "vitest:forceRerunTriggers",
					g, where, NULL, NULL);
		free(g);
		free(where);
	}
	if (!ret)
		ret = vitest_setup_rules(r, &j, path);
	js_release(&j);
	return ret;
}

/* A tiadash glob in vitest's dialect: "**"-led, since vitest matches absolute paths. */
static char *to_vitest(const char *glob)
{
	if (!strcmp(glob, "**") || starts_with(glob, "**/"))
		return xstrdup(glob);
	return xstrfmt("**/%s", glob[0] == '/' ? glob + 1 : glob);
}

static char *vitest_reads_as(const char *glob)
{
	char *v = to_vitest(glob), *g = NULL;

	vitest_glob(v, "", &g);
	free(v);
	return g ? g : xstrdup(glob);
}

/* s as a JavaScript string literal in quote q. */
static void js_quote(struct strbuf *out, const char *s, char q)
{
	strbuf_addch(out, q);
	for (; *s; s++) {
		if (*s == q || *s == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, q);
}

/* The list is there: the glob goes last, on its own line when the list has lines. */
static void vitest_append(const struct js *j, const char *t, size_t len,
			  const char *lit, struct strbuf *out)
{
	struct strbuf indent = STRBUF_INIT;
	size_t after;
	bool comma;

	if (!j->last_end) {
		strbuf_add(out, t, j->open_at + 1);
		strbuf_addstr(out, lit);
		strbuf_add(out, t + j->open_at + 1, len - j->open_at - 1);
		return;
	}
	/* A trailing comma stays where it is, the new element after it. */
	after = j->last_end;
	while (after < j->close_at && strchr(" \t\r\n", t[after]))
		after++;
	comma = after < j->close_at && t[after] == ',';
	if (memchr(t + j->open_at, '\n', j->close_at - j->open_at)) {
		size_t at = comma ? after + 1 : j->last_end;

		conf_line_indent(t, j->last_start, &indent);
		strbuf_add(out, t, at);
		strbuf_addf(out, "%s\n%s%s%s", comma ? "" : ",", indent.buf, lit,
			    comma ? "," : "");
		strbuf_add(out, t + at, len - at);
	} else {
		strbuf_add(out, t, j->last_end);
		strbuf_addf(out, ", %s", lit);
		strbuf_add(out, t + j->last_end, len - j->last_end);
	}
	strbuf_release(&indent);
}

/* No list: one goes first in the `test: {` block, vitest's defaults kept. */
static void vitest_insert_list(const struct js *j, const char *t, size_t len,
			       const char *lit, struct strbuf *out)
{
	struct strbuf indent = STRBUF_INIT, list = STRBUF_INIT;
	size_t b = j->test_open, n = b + 1;

	for (size_t i = 0; i < ARRAY_SIZE(vitest_defaults); i++) {
		js_quote(&list, vitest_defaults[i], j->quote);
		strbuf_addstr(&list, ", ");
	}
	strbuf_addstr(&list, lit);
	while (n < len && strchr(" \t\r\n", t[n]))
		n++;
	strbuf_add(out, t, b + 1);
	if (memchr(t + b + 1, '\n', n - b - 1) && n < len && t[n] != '}') {
		conf_line_indent(t, n, &indent);
		strbuf_addf(out, "\n%sforceRerunTriggers: [%s],", indent.buf, list.buf);
	} else {
		conf_line_indent(t, b, &indent);
		strbuf_addf(out, "\n%s  forceRerunTriggers: [%s],", indent.buf, list.buf);
		if (n < len && t[n] == '}' && !memchr(t + b + 1, '\n', n - b - 1))
			strbuf_addf(out, "\n%s", indent.buf);
	}
	strbuf_add(out, t + b + 1, len - b - 1);
	strbuf_release(&indent);
	strbuf_release(&list);
}

/* Why no one `test: {` of the exported config takes the list. Caller frees. */
static char *vitest_no_place(const struct js *j)
{
	if (j->tests_found)
		return xstrdup("more than one `test: {` block in the exported config");
	if (j->stray_test_line)
		return xstrfmt("its `test: {` on line %d is not the exported config's "
			       "test options (a plugin's options?), and vitest reads "
			       "only those of `export default defineConfig({ test: "
			       "{...} })`", j->stray_test_line);
	return xstrdup("no `test: {` block in the exported config");
}

static int vitest_plan(struct adapter_edit *e, const char *path, const char *glob,
		       int64_t now)
{
	struct js j;
	struct strbuf lit = STRBUF_INIT, said = STRBUF_INIT, *prev;
	char *g;
	int ret;

	/* Read as rules a moment ago: its warnings are said already. */
	prev = error_capture(&said);
	ret = js_scan(&j, e->old_text.buf, e->old_text.len, path);
	error_capture(prev);
	if (ret < 0)
		error("%s", said.buf);
	strbuf_release(&said);
	(void)now;
	if (ret < 0) {
		js_release(&j);
		return -1;
	}
	g = to_vitest(glob);
	if (strchr(glob, '/') && strcmp(g, glob))
		strlist_push_owned(&e->notes, xstrfmt("written as '%s': vitest matches "
						      "forceRerunTriggers against "
						      "absolute paths, so a glob "
						      "anchored at the root has no "
						      "portable form; this one also "
						      "matches deeper", g));
	js_quote(&lit, g, j.quote);
	if (j.found) {
		vitest_append(&j, e->old_text.buf, e->old_text.len, lit.buf, &e->new_text);
		e->writable = true;
	} else if (j.tests_found == 1) {
		vitest_insert_list(&j, e->old_text.buf, e->old_text.len, lit.buf,
				   &e->new_text);
		strlist_push(&e->notes, "it set no forceRerunTriggers: vitest's "
			     "defaults are written beside the glob, since a list "
			     "replaces them");
		e->writable = true;
	} else {
		char *why = vitest_no_place(&j);

		ret = error("%s: vitest config: %s: tiadash cannot tell where "
			    "forceRerunTriggers goes; add to the test options: "
			    "forceRerunTriggers: ['%s', '%s', %s]", path, why,
			    vitest_defaults[0], vitest_defaults[1], lit.buf);
		free(why);
	}
	strbuf_release(&lit);
	free(g);
	js_release(&j);
	return ret;
}

/* ---- the answer: vitest list --json ---- */

/*
 * `vitest list --json` prints an array of {"name", "file", "projectName"?,
 * "location"?}, one per test; with --filesOnly, {"file", "projectName"?}
 * per test file. "file" is the module id: an absolute path. Each file goes
 * to add (repository-relative); tests and files count the elements.
 */
static int vitest_list(struct adapter_read *c, const cJSON *root,
		       void (*add)(struct adapter_read *c, const char *path, void *data),
		       void *data, int64_t *tests, int64_t *files)
{
	const cJSON *el;
	size_t i = 0;

	*tests = *files = 0;
	if (!cJSON_IsArray(root))
		return answer_error(c, 1, "expected an array of {\"name\", \"file\"} "
				    "(vitest list --json)");
	cJSON_ArrayForEach(el, root) {
		const cJSON *file = jget(el, "file"), *name = jget(el, "name");
		char *path;
		int line;

		if (!cJSON_IsObject(el))
			return answer_error(c, 0, "element %zu is not an object", i);
		if (!cJSON_IsString(file) || !*file->valuestring)
			return answer_error(c, name && cJSON_IsString(name) ?
					    answer_value_line(c, name->valuestring) : 0,
					    "element %zu has no \"file\" string", i);
		line = answer_value_line(c, file->valuestring);
		if (name && !cJSON_IsString(name))
			return answer_error(c, line, "element %zu: \"name\" is not a "
					    "string", i);
		if (jget(el, "projectName") && !cJSON_IsString(jget(el, "projectName")))
			return answer_error(c, line, "element %zu: \"projectName\" is "
					    "not a string", i);
		if (answer_repo_path(c, file->valuestring, line, &path) < 0)
			return -1;
		add(c, path, data);
		free(path);
		if (name)
			(*tests)++;
		else
			(*files)++;
		i++;
	}
	if (*tests && *files)
		return answer_error(c, 0, "mixes tests (with \"name\") and files "
				    "(without): not one vitest list");
	return 0;
}

static void add_entry(struct adapter_read *c, const char *path, void *data)
{
	(void)data;
	answer_add_entry(c, path);
}

static void add_to_set(struct adapter_read *c, const char *path, void *data)
{
	(void)c;
	strmap_intern(data, path, strlen(path), 0, NULL);
}

static bool is_json_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/*
 * Where the answer's JSON ends: the adapter's command prints the whole
 * suite's list after it. 0 when the text is one document (or none).
 */
static size_t first_document_end(const struct adapter_read *c)
{
	const char *end = NULL, *s;
	cJSON *first = cJSON_ParseWithLengthOpts(c->text, c->len, &end, 0);

	cJSON_Delete(first);
	if (!first || !end)
		return 0;
	for (s = end; s < c->text + c->len && is_json_blank(*s); s++)
		;
	return s < c->text + c->len ? (size_t)(end - c->text) : 0;
}

/* Is every file of the suite (the second document) in the answer? */
static int covers_suite(struct adapter_read *c, size_t at, bool *all)
{
	struct strmap suite = STRMAP_INIT;
	struct adapter_read sub;
	int64_t tests, files;
	cJSON *root;
	char *name;
	int ret;

	while (at < c->len && is_json_blank(c->text[at]))
		at++;
	name = xstrfmt("%s (the whole suite's list, from line %d)", c->name,
		       line_of_offset(c->text, c->len, at));
	sub = *c;
	sub.text = c->text + at;
	sub.len = c->len - at;
	sub.name = name;
	sub.seen = (struct strmap)STRMAP_INIT;
	root = answer_json(&sub, NULL);
	ret = root ? vitest_list(&sub, root, add_to_set, &suite, &tests, &files) : -1;

	*all = false;
	if (!ret && suite.nr == c->out->entries.nr) {
		*all = suite.nr > 0;
		for (size_t i = 0; *all && i < c->out->entries.nr; i++)
			*all = strmap_has(&suite, c->out->entries.items[i]);
	}
	cJSON_Delete(root);
	strmap_clear(&suite);
	strmap_clear(&sub.seen);
	free(name);
	return ret;
}

/*
 * vitest runs every test file when a forceRerunTriggers glob (or a
 * setupFiles entry) matches a changed file, and says nothing about it
 * (vitest 3.2.7, filterTestsBySource returns the specifications as they
 * are): an answer is run_all ("vitest:whole-suite") when it lists every
 * file of the whole suite's list that follows it (the adapter's command
 * prints `vitest list --json --filesOnly` after its answer), or as many
 * tests as the run's total_tests.
 */
static int vitest_answer(struct adapter_read *c)
{
	size_t split = first_document_end(c);
	char *first = split ? xmemdup(c->text, split + 1) : NULL;
	struct adapter_read head = *c;
	cJSON *root;
	int64_t tests, files;
	bool all = false;
	int ret;

	if (first) {
		first[split] = '\0';
		head.text = first;
		head.len = split;
	}
	root = answer_json(&head, " (vitest prints [] when it selects nothing)");
	ret = root ? vitest_list(&head, root, add_entry, NULL, &tests, &files) : -1;
	c->seen = head.seen;
	if (!ret && split)
		ret = covers_suite(c, split, &all);
	if (ret)
		goto out;
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	if (!files) {
		c->out->has_selected = true;
		c->out->selected_count = tests;
	}
	if (all || (tests && c->opts->has_total_tests && tests == c->opts->total_tests)) {
		c->out->decision = DECISION_RUN_ALL;
		answer_add_reason(c, "vitest:whole-suite");
	}
out:
	cJSON_Delete(root);
	free(first);
	return ret;
}

static int vitest_detect(const char *path, const char *base)
{
	(void)path;
	return starts_with(base, "vitest.config.") || starts_with(base, "vite.config.");
}

static const char *const vitest_configs[] = {
	"vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs",
	"vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs", NULL,
};

const struct adapter adapter_vitest = {
	.name = "vitest",
	.answer_what = "vitest list output",
	.config_what = "vitest config",
	.detect_name = vitest_detect,
	.read_answer = vitest_answer,
	.read_rules = vitest_rules,
	.plan_add = vitest_plan,
	.reads_as = vitest_reads_as,
	.adds = RULE_RUN_ALL,
	/* Its answer, then the whole suite's files (a full rerun lists them all). */
	.command = "vitest list --changed \"$TIADASH_BASE\" --json && "
		   "vitest list --json --filesOnly",
	.node_tool = true,
	.config_files = vitest_configs,
};
