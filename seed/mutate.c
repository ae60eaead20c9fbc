/* The mutation operators of each language, matched with PCRE2 on the code of a line as a line-level lexer tells it from comments and strings. */
#include "core/tiadash.h"
#include "seed/seed.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* ---- the operators ---- */

enum op_id {
	OP_CMP, OP_EQ, OP_EQ_JS, OP_BOOL_C, OP_BOOL_PY, OP_ONE, OP_NOT_PY,
	OP_NOT_C, OP_CONST_PY, OP_CONST_C, OP_SLICE, OP_SLICE_JS, OP_SLICE_JAVA,
	NR_OPS
};

enum op_repl { REPL_MAP, REPL_DROP, REPL_APPEND };

/* Where the replaced token may stand, judged by the code before it. */
enum op_ctx {
	CTX_ANY,
	CTX_OPERAND, /* after an operand: a binary operator */
	CTX_UNARY,   /* not after one: a prefix operator */
};

struct op_def {
	const char *name;
	const char *re;  /* PCRE2; group 1 is what is replaced */
	enum op_repl repl;
	const char *const *map; /* from, to, ..., NULL */
	enum op_ctx ctx;
};

static const char *const cmp_map[] = { "<=", "<", ">=", ">", "<", "<=", ">", ">=", NULL };
static const char *const eq_map[] = { "==", "!=", "!=", "==", NULL };
static const char *const eq_js_map[] = { "===", "!==", "!==", "===", "==", "!=", "!=", "==", NULL };
static const char *const bool_c_map[] = { "&&", "||", "||", "&&", NULL };
static const char *const bool_py_map[] = { "and", "or", "or", "and", NULL };
static const char *const one_map[] = { "+", "-", "-", "+", NULL };
static const char *const const_py_map[] = { "True", "False", "False", "True", "0", "1", "1", "0", NULL };
static const char *const const_c_map[] = { "true", "false", "false", "true", "0", "1", "1", "0", NULL };

static const struct op_def op_defs[NR_OPS] = {
	/* Spaces around: a generic's or a template's angle brackets have none. */
	[OP_CMP] = { "cmp-flip", "(?<=\\s)(<=|>=|<|>)(?=\\s)", REPL_MAP, cmp_map, CTX_ANY },
	[OP_EQ] = { "eq-flip", "(?<![=!<>])(==|!=)(?!=)", REPL_MAP, eq_map, CTX_ANY },
	[OP_EQ_JS] = { "eq-flip", "(?<![=!<>])(===|!==|==|!=)(?!=)", REPL_MAP, eq_js_map, CTX_ANY },
	[OP_BOOL_C] = { "bool-swap", "(?<![&|])(&&|\\|\\|)(?![&|=])", REPL_MAP, bool_c_map, CTX_ANY },
	[OP_BOOL_PY] = { "bool-swap", "(?<![\\w.])(and|or)(?!\\w)", REPL_MAP, bool_py_map, CTX_ANY },
	[OP_ONE] = { "off-by-one", "([+-])(?=[ \\t]*1(?![\\w.]))", REPL_MAP, one_map, CTX_OPERAND },
	[OP_NOT_PY] = { "not-drop", "(?<![\\w.])(not[ \\t]+)(?=\\S)", REPL_DROP, NULL, CTX_ANY },
	[OP_NOT_C] = { "not-drop", "(!)(?!=)(?=[ \\t]*[\\w(!])", REPL_DROP, NULL, CTX_UNARY },
	[OP_CONST_PY] = { "const-flip", "\\breturn[ \\t]+(True|False|0|1)(?![\\w.])", REPL_MAP,
			  const_py_map, CTX_ANY },
	[OP_CONST_C] = { "const-flip", "\\breturn[ \\t]+(true|false|0|1)(?![\\w.])", REPL_MAP,
			 const_c_map, CTX_ANY },
	[OP_SLICE] = { "slice-bound", "\\[[^\\[\\]:]*:[ \\t]*(\\w+)(?=[ \\t]*\\])", REPL_APPEND,
		       NULL, CTX_ANY },
	[OP_SLICE_JS] = { "slice-bound", "\\.(?:slice|substring)\\([^()]*,[ \\t]*(\\w+)(?=[ \\t]*\\))",
			  REPL_APPEND, NULL, CTX_ANY },
	[OP_SLICE_JAVA] = { "slice-bound", "\\.(?:substring|subList)\\([^()]*,[ \\t]*(\\w+)(?=[ \\t]*\\))",
			    REPL_APPEND, NULL, CTX_ANY },
};

/* ---- the languages ---- */

struct lang_def {
	enum seed_lang lang;
	const char *name;
	const char *const *exts;
	bool python;         /* # comments; prefixed and triple-quoted strings */
	bool backtick;       /* `...` across lines: JS template literals, Go raw strings */
	bool backtick_escapes;
	bool regex_literals; /* JS: /.../ where an operand is expected */
	bool text_blocks;    /* Java: """ across lines */
	bool preprocessor;   /* C: # lines */
	const char *const *skip; /* line starts (after indentation) never mutated */
	const enum op_id *ops;
	size_t nr_ops;
};

static const char *const py_exts[] = { ".py", ".pyi", NULL };
static const char *const js_exts[] = { ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts",
				       ".tsx", NULL };
static const char *const c_exts[] = { ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
				      NULL };
static const char *const go_exts[] = { ".go", NULL };
static const char *const java_exts[] = { ".java", NULL };

static const char *const py_skip[] = { "import ", "from ", "@", NULL };
static const char *const js_skip[] = { "import ", "import{", "export * ", "export {", "#!", NULL };
static const char *const go_skip[] = { "import ", "package ", NULL };
static const char *const java_skip[] = { "import ", "package ", "@", NULL };

static const enum op_id py_ops[] = { OP_CMP, OP_EQ, OP_BOOL_PY, OP_ONE, OP_NOT_PY, OP_CONST_PY,
				     OP_SLICE };
static const enum op_id js_ops[] = { OP_CMP, OP_EQ_JS, OP_BOOL_C, OP_ONE, OP_NOT_C, OP_CONST_C,
				     OP_SLICE_JS };
static const enum op_id c_ops[] = { OP_CMP, OP_EQ, OP_BOOL_C, OP_ONE, OP_NOT_C, OP_CONST_C };
static const enum op_id go_ops[] = { OP_CMP, OP_EQ, OP_BOOL_C, OP_ONE, OP_NOT_C, OP_CONST_C,
				     OP_SLICE };
static const enum op_id java_ops[] = { OP_CMP, OP_EQ, OP_BOOL_C, OP_ONE, OP_NOT_C, OP_CONST_C,
				       OP_SLICE_JAVA };

static const struct lang_def langs[] = {
	{ LANG_PYTHON, "python", py_exts, .python = true, .skip = py_skip,
	  .ops = py_ops, .nr_ops = ARRAY_SIZE(py_ops) },
	{ LANG_JS, "js", js_exts, .backtick = true, .backtick_escapes = true,
	  .regex_literals = true, .skip = js_skip, .ops = js_ops, .nr_ops = ARRAY_SIZE(js_ops) },
	{ LANG_C, "c", c_exts, .preprocessor = true, .ops = c_ops, .nr_ops = ARRAY_SIZE(c_ops) },
	{ LANG_GO, "go", go_exts, .backtick = true, .skip = go_skip, .ops = go_ops,
	  .nr_ops = ARRAY_SIZE(go_ops) },
	{ LANG_JAVA, "java", java_exts, .text_blocks = true, .skip = java_skip, .ops = java_ops,
	  .nr_ops = ARRAY_SIZE(java_ops) },
};

static const struct lang_def *lang_def(enum seed_lang l)
{
	for (size_t i = 0; i < ARRAY_SIZE(langs); i++)
		if (langs[i].lang == l)
			return &langs[i];
	return NULL;
}

enum seed_lang seed_lang_of(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash) || dot == path || (slash && dot == slash + 1))
		return LANG_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(langs); i++)
		for (const char *const *e = langs[i].exts; *e; e++)
			if (!strcmp(dot, *e))
				return langs[i].lang;
	return LANG_NONE;
}

const char *seed_lang_name(enum seed_lang l)
{
	const struct lang_def *d = lang_def(l);

	return d ? d->name : "none";
}

static bool has_suffix_before_ext(const char *base, const char *suffix)
{
	const char *dot = strrchr(base, '.');
	size_t n = strlen(suffix), stem = dot ? (size_t)(dot - base) : strlen(base);

	return stem > n && !strncmp(base + stem - n, suffix, n);
}

bool seed_is_test_path(const char *path)
{
	static const char *const dirs[] = {
		"test", "tests", "__tests__", "spec", "specs", "testdata", "fixtures",
		"__fixtures__", "__mocks__", NULL,
	};
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *p = path;

	while (p < base) {
		size_t n = strcspn(p, "/");

		for (const char *const *d = dirs; *d; d++)
			if (strlen(*d) == n && !strncmp(p, *d, n))
				return true;
		p += n + 1;
	}
	switch (seed_lang_of(path)) {
	case LANG_PYTHON:
		return starts_with(base, "test_") || has_suffix_before_ext(base, "_test") ||
		       !strcmp(base, "conftest.py");
	case LANG_JS:
		return strstr(base, ".test.") || strstr(base, ".spec.");
	case LANG_GO:
		return has_suffix_before_ext(base, "_test");
	case LANG_JAVA:
		return has_suffix_before_ext(base, "Test") || has_suffix_before_ext(base, "Tests") ||
		       has_suffix_before_ext(base, "IT");
	case LANG_C:
		return starts_with(base, "test_") || has_suffix_before_ext(base, "_test") ||
		       has_suffix_before_ext(base, "_unittest");
	case LANG_NONE:
		break;
	}
	return false;
}

/* ---- the compiled operators ---- */

struct seed_ops {
	pcre2_code *re[NR_OPS];
	pcre2_match_data *md;
};

struct seed_ops *seed_ops_new(void)
{
	struct seed_ops *o = xcalloc(1, sizeof(*o));

	for (int i = 0; i < NR_OPS; i++) {
		int code;
		PCRE2_SIZE off;

		o->re[i] = pcre2_compile((PCRE2_SPTR)op_defs[i].re, PCRE2_ZERO_TERMINATED, 0,
					 &code, &off, NULL);
		if (!o->re[i])
			BUG("operator %s does not compile at %zu", op_defs[i].name, (size_t)off);
		pcre2_jit_compile(o->re[i], PCRE2_JIT_COMPLETE);
	}
	o->md = pcre2_match_data_create(8, NULL);
	return o;
}

void seed_ops_free(struct seed_ops *o)
{
	if (!o)
		return;
	for (int i = 0; i < NR_OPS; i++)
		pcre2_code_free(o->re[i]);
	pcre2_match_data_free(o->md);
	free(o);
}

void seed_sites_release(struct seed_sites *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->items[i].to);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

/* ---- the lexer: a line's code view ---- */

enum lex_mode { IN_CODE, IN_BLOCK, IN_TRIPLE, IN_BACKTICK, IN_TEXT_BLOCK };

struct lexer {
	const struct lang_def *lang;
	enum lex_mode mode;
	char quote; /* IN_TRIPLE: ' or " */
};

#define MASK '_'

static bool is_word(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Mask from i to the end of what closes (len of close; escapes skip a byte); return where it ends. */
static size_t mask_until(char *view, size_t i, size_t len, const char *close, bool escapes,
			 bool *closed)
{
	size_t n = strlen(close);

	*closed = false;
	while (i < len) {
		if (escapes && view[i] == '\\' && i + 1 < len) {
			view[i] = view[i + 1] = MASK;
			i += 2;
			continue;
		}
		if (i + n <= len && !memcmp(view + i, close, n)) {
			memset(view + i, MASK, n);
			*closed = true;
			return i + n;
		}
		view[i++] = MASK;
	}
	return len;
}

static const char *const regex_keywords[] = {
	"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
	"throw", "yield", "await", NULL,
};

static bool word_in(const char *w, size_t n, const char *const *list)
{
	for (const char *const *k = list; *k; k++)
		if (strlen(*k) == n && !strncmp(w, *k, n))
			return true;
	return false;
}

/* Where the code before offset i ends, blanks left out (0: nothing before it on the line). */
static size_t code_end_before(const char *view, size_t i)
{
	while (i > 0 && (view[i - 1] == ' ' || view[i - 1] == '\t'))
		i--;
	return i;
}

/* Where the word ending at end starts. */
static size_t word_start_before(const char *view, size_t end)
{
	while (end > 0 && is_word((unsigned char)view[end - 1]))
		end--;
	return end;
}

/*
 * The one token reader both questions about the code before an offset use
 * (does a '/' start a regex literal? does an operator follow an operand?):
 * the last token before it on the line, blanks left out.
 */
struct token_before {
	enum { TOK_NONE, TOK_CLOSE, TOK_NUMBER, TOK_WORD, TOK_PUNCT } kind;
	const char *at; /* its first character (TOK_NONE: NULL) */
	size_t len;
};

static struct token_before token_before(const char *view, size_t i)
{
	struct token_before t = { TOK_NONE, NULL, 0 };
	size_t end = code_end_before(view, i), j;

	if (!end)
		return t;
	if (!is_word((unsigned char)view[end - 1])) {
		t.kind = view[end - 1] == ')' || view[end - 1] == ']' ? TOK_CLOSE : TOK_PUNCT;
		t.at = view + end - 1;
		t.len = 1;
		return t;
	}
	j = word_start_before(view, end);
	t.kind = view[j] >= '0' && view[j] <= '9' ? TOK_NUMBER : TOK_WORD;
	t.at = view + j;
	t.len = end - j;
	return t;
}

/* A '/' at i starts a regex literal when what comes before cannot end an operand. */
static bool regex_starts(const char *view, size_t i)
{
	struct token_before t = token_before(view, i);

	switch (t.kind) {
	case TOK_NONE:
		return true;
	case TOK_PUNCT:
		return strchr("(,=:[!&|?{};+-*%<>~^", *t.at) != NULL;
	case TOK_CLOSE:
		return false;
	case TOK_NUMBER:
	case TOK_WORD:
		break;
	}
	return word_in(t.at, t.len, regex_keywords);
}

/* The end of a regex literal starting at i, or 0 when the line holds none (then it was a division). */
static size_t regex_end(const char *view, size_t i, size_t len)
{
	bool in_class = false;

	for (size_t j = i + 1; j < len; j++) {
		if (view[j] == '\\') {
			j++;
		} else if (in_class) {
			in_class = view[j] != ']';
		} else if (view[j] == '[') {
			in_class = true;
		} else if (view[j] == '/') {
			return j + 1;
		}
	}
	return 0;
}

/* Python: a string's prefix (r, b, f, u, rb, ...) directly before a quote is part of it. */
static void mask_prefix(char *view, size_t i)
{
	size_t j = i;

	while (j > 0 && i - j < 2 && strchr("rRbBuUfF", view[j - 1]))
		j--;
	if (j < i && (j == 0 || !is_word((unsigned char)view[j - 1])))
		memset(view + j, MASK, i - j);
}

static void lex_code(struct lexer *lx, char *view, size_t len)
{
	const struct lang_def *l = lx->lang;
	size_t i = 0;
	bool closed;

	while (i < len) {
		switch (lx->mode) {
		case IN_BLOCK:
			i = mask_until(view, i, len, "*/", false, &closed);
			if (closed)
				lx->mode = IN_CODE;
			continue;
		case IN_TRIPLE: {
			char close[4] = { lx->quote, lx->quote, lx->quote, 0 };

			i = mask_until(view, i, len, close, true, &closed);
			if (closed)
				lx->mode = IN_CODE;
			continue;
		}
		case IN_TEXT_BLOCK:
			i = mask_until(view, i, len, "\"\"\"", true, &closed);
			if (closed)
				lx->mode = IN_CODE;
			continue;
		case IN_BACKTICK:
			i = mask_until(view, i, len, "`", l->backtick_escapes, &closed);
			if (closed)
				lx->mode = IN_CODE;
			continue;
		case IN_CODE:
			break;
		}
		char c = view[i];

		if (l->python && c == '#') {
			memset(view + i, MASK, len - i);
			return;
		}
		if (!l->python && c == '/' && i + 1 < len && view[i + 1] == '/') {
			memset(view + i, MASK, len - i);
			return;
		}
		if (!l->python && c == '/' && i + 1 < len && view[i + 1] == '*') {
			view[i] = view[i + 1] = MASK;
			lx->mode = IN_BLOCK;
			i += 2;
			continue;
		}
		if (c == '"' || c == '\'') {
			bool triple = i + 2 < len && view[i + 1] == c && view[i + 2] == c;

			if (l->python)
				mask_prefix(view, i);
			if (triple && (l->python || (l->text_blocks && c == '"'))) {
				memset(view + i, MASK, 3);
				lx->mode = l->python ? IN_TRIPLE : IN_TEXT_BLOCK;
				lx->quote = c;
				i += 3;
				continue;
			}
			{
				char close[2] = { c, 0 };

				view[i] = MASK;
				i = mask_until(view, i + 1, len, close, true, &closed);
			}
			continue;
		}
		if (c == '`' && l->backtick) {
			view[i] = MASK;
			lx->mode = IN_BACKTICK;
			i++;
			continue;
		}
		if (c == '/' && l->regex_literals && regex_starts(view, i)) {
			size_t end = regex_end(view, i, len);

			if (end) {
				memset(view + i, MASK, end - i);
				i = end;
				continue;
			}
		}
		i++;
	}
}

/* Is this line (its view) one never to mutate: nothing but masks, or a skipped start? */
static bool skipped_line(const struct lexer *lx, const char *view, size_t len, int lineno)
{
	size_t i = 0;

	while (i < len && (view[i] == ' ' || view[i] == '\t' || view[i] == '\r'))
		i++;
	if (i == len)
		return true;
	if (lx->lang->preprocessor && view[i] == '#')
		return true;
	if (lineno == 1 && len >= 2 && view[0] == '#' && view[1] == '!')
		return true;
	for (const char *const *s = lx->lang->skip; s && *s; s++)
		if (len - i >= strlen(*s) && !strncmp(view + i, *s, strlen(*s)))
			return true;
	for (size_t j = i; j < len; j++)
		if (view[j] != MASK && view[j] != ' ' && view[j] != '\t' && view[j] != '\r')
			return false;
	return true;
}

/*
 * One line's view into view (len bytes, newline excluded), advancing the
 * lexer; false when the line is not code.
 */
static bool line_view(struct lexer *lx, const char *line, size_t len, char *view, int lineno)
{
	memcpy(view, line, len);
	lex_code(lx, view, len);
	if (!skipped_line(lx, view, len, lineno))
		return true;
	memset(view, MASK, len);
	return false;
}

void seed_code_view(enum seed_lang lang, const char *text, size_t len, struct strbuf *out)
{
	struct lexer lx = { lang_def(lang), IN_CODE, 0 };
	const char *p = text, *end = text + len;
	char *view = xmalloc(len + 1);
	int lineno = 0;

	if (!lx.lang)
		BUG("no lexer for language %d", (int)lang);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		line_view(&lx, p, n, view, ++lineno);
		strbuf_add(out, view, n);
		if (nl)
			strbuf_addch(out, '\n');
		p += n + (nl ? 1 : 0);
	}
	free(view);
}

/* ---- matching ---- */

static const char *const operand_keywords[] = {
	"return", "yield", "await", "in", "not", "and", "or", "is", "else", "elif", "if",
	"while", "case", "typeof", "throw", "delete", "new", "void", "do", "lambda",
	"assert", "of", "instanceof", "go", "defer", NULL,
};

/* Does the code before offset i end an operand (a name, a number, a literal, ")" or "]")? */
static bool after_operand(const char *view, size_t i)
{
	struct token_before t = token_before(view, i);

	switch (t.kind) {
	case TOK_NONE:
	case TOK_PUNCT:
		return false;
	case TOK_CLOSE:
		return true;
	case TOK_NUMBER:
		/* 1e+1: an exponent's sign is no operator */
		return t.at[t.len - 1] != 'e' && t.at[t.len - 1] != 'E';
	case TOK_WORD:
		break;
	}
	return !word_in(t.at, t.len, operand_keywords);
}

static char *replacement(const struct op_def *d, const char *tok, size_t n)
{
	switch (d->repl) {
	case REPL_DROP:
		return xstrdup("");
	case REPL_APPEND:
		return xstrfmt("%.*s - 1", (int)n, tok);
	case REPL_MAP:
		for (const char *const *m = d->map; *m; m += 2)
			if (strlen(*m) == n && !strncmp(tok, *m, n))
				return xstrdup(m[1]);
		break;
	}
	return NULL;
}

static void match_op(const struct seed_ops *o, enum op_id id, const char *view, size_t len,
		     int lineno, struct seed_sites *out)
{
	const struct op_def *d = &op_defs[id];
	PCRE2_SIZE start = 0;

	while (start < len) {
		int rc = pcre2_match(o->re[id], (PCRE2_SPTR)view, len, start, 0, o->md, NULL);
		PCRE2_SIZE *ov;
		size_t from, to;
		char *repl;

		if (rc < 2)
			return;
		ov = pcre2_get_ovector_pointer(o->md);
		from = ov[2];
		to = ov[3];
		start = ov[1] > start ? ov[1] : start + 1;
		if ((d->ctx == CTX_OPERAND && !after_operand(view, from)) ||
		    (d->ctx == CTX_UNARY && after_operand(view, from)))
			continue;
		if (!(repl = replacement(d, view + from, to - from)))
			continue;
		ALLOC_GROW(out->items, out->nr + 1, out->alloc);
		out->items[out->nr++] = (struct seed_site){ lineno, from, to - from, d->name, repl };
	}
}

static int site_cmp(const void *a, const void *b)
{
	const struct seed_site *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return strcmp(x->op, y->op);
}

void seed_find_sites(const struct seed_ops *o, enum seed_lang lang, const char *text,
		     size_t len, struct seed_sites *out)
{
	struct lexer lx = { lang_def(lang), IN_CODE, 0 };
	const char *p = text, *end = text + len;
	char *view = xmalloc(len + 1);
	size_t first = out->nr;
	int lineno = 0;

	if (!lx.lang)
		BUG("no operators for language %d", (int)lang);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (line_view(&lx, p, n, view, ++lineno))
			for (size_t k = 0; k < lx.lang->nr_ops; k++)
				match_op(o, lx.lang->ops[k], view, n, lineno, out);
		p += n + (nl ? 1 : 0);
	}
	free(view);
	if (out->nr > first) /* items is NULL while nothing was found */
		qsort(out->items + first, out->nr - first, sizeof(*out->items), site_cmp);
}

/* ---- applying ---- */

static char *trimmed_line(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	return xstrndup(s, n);
}

void seed_apply(const char *text, size_t len, const struct seed_site *site,
		struct strbuf *out, char **before, char **after)
{
	const char *p = text, *end = text + len, *nl;
	size_t n;

	for (int l = 1; l < site->line && p < end; l++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (site->col + site->len > n)
		BUG("seeded site %d:%zu is past its line", site->line, site->col);
	strbuf_add(out, text, (size_t)(p - text) + site->col);
	strbuf_addstr(out, site->to);
	strbuf_add(out, p + site->col + site->len, (size_t)(end - (p + site->col + site->len)));
	*before = trimmed_line(p, n);
	{
		const char *q = out->buf + (p - text);
		const char *qn = memchr(q, '\n', out->len - (size_t)(q - out->buf));

		*after = trimmed_line(q, qn ? (size_t)(qn - q) : out->len - (size_t)(q - out->buf));
	}
}
