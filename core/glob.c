/* Gitignore-style globs: brace expansion, translation to PCRE2, fast matcher. */
#include "core/tiadash.h"
#include "core/glob.h"
#include "core/strmap.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* How a pattern is answered: from a table, or by the regex. */
enum pat_kind {
	PAT_REGEX,      /* the full-path alternation */
	PAT_COMP_REGEX, /* the alternation tried at each path component */
	PAT_COMPONENT,  /* a path component: literal, "pre*", "*suf", "pre*suf" */
	PAT_ANCHORED,   /* a literal path "a/b": itself or anything below it */
};

struct glob_pat {
	int tag;
	enum pat_kind kind;
	bool dironly;    /* trailing '/': only leading directories match */
	bool below_only; /* PAT_ANCHORED from a trailing "/" "**": not the path itself */
	bool has_star;   /* PAT_COMPONENT: pre*suf rather than a literal */
	char *pre, *suf; /* PAT_COMPONENT / PAT_ANCHORED literals */
	char *regex;     /* the anchored-at-start regex of the pattern */
	char *cregex;    /* PAT_COMP_REGEX: the regex of one component */
};

struct exact_slot {
	unsigned any; /* first pattern matching the component anywhere */
	unsigned dir; /* first dironly pattern (only for leading directories) */
};

struct affix {
	const char *pre, *suf;
	size_t prelen, suflen;
	bool dironly;
	unsigned idx;
};

struct anchored {
	const char *lit;
	size_t len;
	bool exact_ok;
	unsigned idx;
};

struct chunk {
	pcre2_code *code;
	unsigned first; /* smallest pattern index in the alternation */
};

struct glob_set {
	struct glob_pat *pats;
	size_t nr, alloc;

	struct strmap exact; /* component literal -> index into slots */
	struct exact_slot *slots;
	size_t nr_slots, alloc_slots;
	struct affix *affixes;
	size_t nr_affixes, alloc_affixes;
	struct anchored *anchors;
	size_t nr_anchors, alloc_anchors;

	struct chunk *chunks, *cchunks; /* full-path and per-component */
	size_t nr_chunks, alloc_chunks, nr_cchunks, alloc_cchunks;
	struct glob_scratch *own; /* for glob_set_match */
	bool compiled;
};

/* What one PCRE2 match writes: one per thread that matches. */
struct glob_scratch {
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit;
};

struct glob_scratch *glob_scratch_new(void)
{
	struct glob_scratch *s = xcalloc(1, sizeof(*s));

	s->md = pcre2_match_data_create(1, NULL);
	s->mctx = pcre2_match_context_create(NULL);
	s->jit = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
	if (!s->md || !s->mctx || !s->jit)
		die("out of memory setting up the glob matcher");
	pcre2_jit_stack_assign(s->mctx, NULL, s->jit);
	return s;
}

void glob_scratch_free(struct glob_scratch *s)
{
	if (!s)
		return;
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->jit);
	free(s);
}

#define NO_INDEX UINT_MAX
/* Keep each compiled alternation well inside PCRE2's 64K code-unit limit. */
#define CHUNK_MAX_PATTERNS 64
#define CHUNK_MAX_REGEX 6000

static int fail(struct strbuf *why, const char *fmt, ...) ATTR_FORMAT(2, 3);
static int fail(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_glob_special(int c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* ---- bracket expressions, exactly as git's wildmatch reads them ---- */

static void set_bit(uint8_t set[32], unsigned c)
{
	set[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static bool has_bit(const uint8_t set[32], unsigned c)
{
	return set[c >> 3] & (1u << (c & 7));
}

static bool in_class(const char *name, size_t n, unsigned c)
{
	bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
	bool digit = c >= '0' && c <= '9';
	bool graph = c > 32 && c < 127;

#define IS(s) (n == sizeof(s) - 1 && !memcmp(name, s, n))
	if (IS("alnum"))
		return upper || lower || digit;
	if (IS("alpha"))
		return upper || lower;
	if (IS("blank"))
		return c == ' ' || c == '\t';
	if (IS("cntrl"))
		return c < 32 || c == 127;
	if (IS("digit"))
		return digit;
	if (IS("graph"))
		return graph;
	if (IS("lower"))
		return lower;
	if (IS("print"))
		return graph || c == ' ';
	if (IS("punct"))
		return graph && !upper && !lower && !digit;
	if (IS("space")) /* git's isspace: no \v or \f */
		return c == ' ' || c == '\t' || c == '\n' || c == '\r';
	if (IS("upper"))
		return upper;
	if (IS("xdigit"))
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
#undef IS
	return false;
}

static bool known_class(const char *name, size_t n)
{
	static const char *const names[] = { "alnum", "alpha", "blank", "cntrl",
		"digit", "graph", "lower", "print", "punct", "space", "upper",
		"xdigit" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], name, n))
			return true;
	return false;
}

/*
 * Parse the bracket expression at *pp (pointing at '[') into the set of
 * bytes it matches ('/' removed: under WM_PATHNAME it never matches), and
 * advance *pp past the closing ']'. The loop mirrors wildmatch: the first
 * member may be ']', '-' is literal first, last and right after a range, an
 * unclosed "[:" is a literal '['.
 */
static int parse_bracket(const char **pp, uint8_t set[32], const char *shown,
			 struct strbuf *why)
{
	const unsigned char *p = (const unsigned char *)*pp + 1;
	uint8_t members[32] = { 0 };
	bool negated = false;
	unsigned prev = 0, ch;

	if (*p == '!' || *p == '^') {
		negated = true;
		p++;
	}
	ch = *p;
	do {
		if (!ch)
			return fail(why, "unterminated '[' in '%s'", shown);
		if (ch == '\\') {
			ch = *++p;
			if (!ch)
				return fail(why, "unterminated '[' in '%s'", shown);
			set_bit(members, ch);
		} else if (ch == '-' && prev && p[1] && p[1] != ']') {
			ch = *++p;
			if (ch == '\\') {
				ch = *++p;
				if (!ch)
					return fail(why, "unterminated '[' in '%s'", shown);
			}
			for (unsigned c = prev; c <= ch; c++)
				set_bit(members, c);
			ch = 0;
		} else if (ch == '[' && p[1] == ':') {
			const unsigned char *name = p + 2, *q = name;

			while (*q && *q != ']')
				q++;
			if (!*q)
				return fail(why, "unterminated '[' in '%s'", shown);
			if (q - name < 1 || q[-1] != ':') {
				set_bit(members, '[');
			} else {
				size_t n = (size_t)(q - name - 1);

				if (!known_class((const char *)name, n))
					return fail(why, "unknown character class "
						    "'[:%.*s:]' in '%s'", (int)n,
						    (const char *)name, shown);
				for (unsigned c = 1; c < 256; c++)
					if (in_class((const char *)name, n, c))
						set_bit(members, c);
				p = q;
				ch = 0;
			}
		} else {
			set_bit(members, ch);
		}
		prev = ch;
		ch = *++p;
	} while (ch != ']');
	for (int i = 0; i < 32; i++)
		set[i] = negated ? (uint8_t)~members[i] : members[i];
	set[0] &= (uint8_t)~1u; /* NUL never occurs in a path */
	set['/' >> 3] &= (uint8_t)~(1u << ('/' & 7));
	*pp = (const char *)p + 1;
	return 0;
}

static void add_hex(struct strbuf *re, unsigned c)
{
	strbuf_addf(re, "\\x%02x", c);
}

static void add_class(struct strbuf *re, const uint8_t set[32])
{
	size_t start = re->len;
	bool any = false;

	strbuf_addch(re, '[');
	for (unsigned c = 0; c < 256; c++) {
		unsigned end = c;

		if (!has_bit(set, c))
			continue;
		while (end + 1 < 256 && has_bit(set, end + 1))
			end++;
		add_hex(re, c);
		if (end > c) {
			strbuf_addch(re, '-');
			add_hex(re, end);
		}
		any = true;
		c = end;
	}
	strbuf_addch(re, ']');
	if (!any) {
		strbuf_setlen(re, start);
		strbuf_addstr(re, "(*FAIL)");
	}
}

static void add_literal(struct strbuf *re, unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-')
		strbuf_addch(re, c);
	else if (c > 32 && c < 127)
		strbuf_addch(re, '\\'), strbuf_addch(re, c);
	else
		add_hex(re, c);
}

/*
 * Translate a pattern body (no leading '/', no trailing '/') into regex.
 * Anchored bodies are matched against the whole path with WM_PATHNAME; git
 * first strips the literal prefix, so a "**" right after it counts as
 * leading ("a**" + "/b" matches "ab" and "ax/y/b"). Unanchored bodies are
 * matched against one path component.
 */
static int translate_body(const char *body, bool anchored, const char *shown,
			  struct strbuf *re, struct strbuf *why)
{
	const char *p = body;
	size_t prefix = 0;

	while (body[prefix] && !is_glob_special((unsigned char)body[prefix]))
		prefix++;
	while (*p) {
		const char *star = p;
		uint8_t set[32];

		switch (*p) {
		case '\\':
			if (!p[1])
				return fail(why, "trailing backslash in '%s'", shown);
			add_literal(re, (unsigned char)p[1]);
			p += 2;
			break;
		case '?':
			strbuf_addstr(re, "[^/]");
			p++;
			break;
		case '[':
			if (parse_bracket(&p, set, shown, why) < 0)
				return -1;
			add_class(re, set);
			break;
		case '*':
			while (*p == '*')
				p++;
			if (anchored && p - star >= 2 &&
			    (star == body || star[-1] == '/' ||
			     (size_t)(star - body) == prefix) &&
			    (!*p || *p == '/' || (p[0] == '\\' && p[1] == '/'))) {
				if (*p == '/') {
					strbuf_addstr(re, "(?:[^/]*/)*?");
					p++;
				} else {
					strbuf_addstr(re, ".*");
				}
			} else {
				strbuf_addstr(re, "[^/]*");
			}
			break;
		default:
			add_literal(re, (unsigned char)*p);
			p++;
		}
	}
	return 0;
}

/* A brace-free pattern split into its parts. */
struct parsed {
	char *body; /* owned */
	bool anchored, dironly;
};

static int parse_pattern(const char *pattern, struct parsed *out, struct strbuf *why)
{
	size_t n = strlen(pattern);
	const char *b = pattern;

	out->body = NULL;
	out->dironly = n && pattern[n - 1] == '/';
	if (out->dironly)
		n--;
	out->anchored = memchr(pattern, '/', n) != NULL;
	if (n && *b == '/')
		b++, n--;
	if (!n)
		return fail(why, "empty pattern '%s'", pattern);
	out->body = xstrndup(b, n);
	return 0;
}

static void add_tail(struct strbuf *re, bool dironly)
{
	strbuf_addstr(re, dironly ? "/" : "(?:/|\\z)");
}

static int regex_of(const struct parsed *pp, const char *shown, struct strbuf *re,
		    struct strbuf *why)
{
	if (!pp->anchored)
		strbuf_addstr(re, "(?:[^/]*/)*?");
	if (translate_body(pp->body, pp->anchored, shown, re, why) < 0)
		return -1;
	add_tail(re, pp->dironly);
	return 0;
}

int glob_translate(const char *pattern, struct strbuf *regex, struct strbuf *why)
{
	struct parsed pp;
	int ret;

	if (parse_pattern(pattern, &pp, why) < 0)
		return -1;
	ret = regex_of(&pp, pattern, regex, why);
	free(pp.body);
	return ret;
}

/* ---- brace expansion ---- */

/* End of the bracket expression at p, or NULL when it does not close. */
static const char *bracket_end(const char *p)
{
	struct strbuf ignored = STRBUF_INIT;
	uint8_t set[32];
	int rc = parse_bracket(&p, set, "", &ignored);

	strbuf_release(&ignored);
	return rc < 0 ? NULL : p;
}

/* Step over one element at s[i]: an escape, a bracket expression, a byte. */
static size_t step(const char *s, size_t i)
{
	if (s[i] == '\\' && s[i + 1])
		return i + 2;
	if (s[i] == '[') {
		const char *end = bracket_end(s + i);

		if (end)
			return (size_t)(end - s);
	}
	return i + 1;
}

/*
 * The first brace group with a top-level comma: s[*open] is '{' and
 * s[*close] its '}'. Groups without a comma, and unbalanced braces, are
 * literal (as in the shell); their insides are still searched.
 */
static bool find_group(const char *s, size_t *open, size_t *close)
{
	for (size_t i = 0; s[i]; i = step(s, i)) {
		int depth = 0;
		bool comma = false;
		size_t j;

		if (s[i] != '{')
			continue;
		for (j = i; s[j]; j = step(s, j)) {
			if (s[j] == '{')
				depth++;
			else if (s[j] == '}' && --depth == 0)
				break;
			else if (s[j] == ',' && depth == 1)
				comma = true;
		}
		if (s[j] == '}' && comma) {
			*open = i;
			*close = j;
			return true;
		}
	}
	return false;
}

static int expand(const char *s, struct strlist *out, size_t limit, struct strbuf *why)
{
	size_t open, close, start, depth = 0;

	if (!find_group(s, &open, &close)) {
		if (out->nr >= limit)
			return fail(why, "more than %d alternatives", GLOB_MAX_EXPANSION);
		strlist_push(out, s);
		return 0;
	}
	start = open + 1;
	for (size_t j = open + 1; j <= close; j = step(s, j)) {
		if (s[j] == '{') {
			depth++;
		} else if (s[j] == '}' && depth) {
			depth--;
		} else if ((s[j] == ',' && !depth) || j == close) {
			char *alt = xstrfmt("%.*s%.*s%s", (int)open, s,
					    (int)(j - start), s + start, s + close + 1);
			int rc = expand(alt, out, limit, why);

			free(alt);
			if (rc < 0)
				return -1;
			start = j + 1;
		}
	}
	return 0;
}

int glob_expand_braces(const char *pattern, struct strlist *out, struct strbuf *why)
{
	size_t before = out->nr;
	int rc = expand(pattern, out, before + GLOB_MAX_EXPANSION, why);

	if (rc < 0) {
		while (out->nr > before)
			free(out->items[--out->nr]);
		strbuf_addf(why, " in '%s'", pattern);
	}
	return rc;
}

/* ---- the set ---- */

struct glob_set *glob_set_new(void)
{
	return xcalloc(1, sizeof(struct glob_set));
}

static void free_chunks(struct glob_set *gs)
{
	for (size_t i = 0; i < gs->nr_chunks; i++)
		pcre2_code_free(gs->chunks[i].code);
	for (size_t i = 0; i < gs->nr_cchunks; i++)
		pcre2_code_free(gs->cchunks[i].code);
	free(gs->chunks);
	free(gs->cchunks);
	gs->chunks = gs->cchunks = NULL;
	gs->nr_chunks = gs->alloc_chunks = 0;
	gs->nr_cchunks = gs->alloc_cchunks = 0;
}

static void free_tables(struct glob_set *gs)
{
	strmap_clear(&gs->exact);
	free(gs->slots);
	free(gs->affixes);
	free(gs->anchors);
	gs->slots = NULL;
	gs->affixes = NULL;
	gs->anchors = NULL;
	gs->nr_slots = gs->alloc_slots = 0;
	gs->nr_affixes = gs->alloc_affixes = 0;
	gs->nr_anchors = gs->alloc_anchors = 0;
	free_chunks(gs);
}

void glob_set_free(struct glob_set *gs)
{
	if (!gs)
		return;
	free_tables(gs);
	for (size_t i = 0; i < gs->nr; i++) {
		free(gs->pats[i].pre);
		free(gs->pats[i].suf);
		free(gs->pats[i].regex);
		free(gs->pats[i].cregex);
	}
	free(gs->pats);
	glob_scratch_free(gs->own);
	free(gs);
}

size_t glob_set_size(const struct glob_set *gs)
{
	return gs->nr;
}

static bool plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_glob_special((unsigned char)s[i]) || s[i] == '/')
			return false;
	return true;
}

/*
 * A component pattern the tables can answer: a literal, or one run of
 * stars between two literals. Fills pat->pre/suf/has_star.
 */
static bool classify_component(struct glob_pat *pat, const char *s, size_t n)
{
	const char *star = memchr(s, '*', n);
	const char *after;

	if (!star) {
		if (!plain(s, n))
			return false;
		pat->pre = xstrndup(s, n);
		pat->has_star = false;
		return true;
	}
	after = star;
	while (after < s + n && *after == '*')
		after++;
	if (!plain(s, (size_t)(star - s)) ||
	    !plain(after, (size_t)(s + n - after)))
		return false;
	pat->pre = xstrndup(s, (size_t)(star - s));
	pat->suf = xstrndup(after, (size_t)(s + n - after));
	pat->has_star = true;
	return true;
}

/*
 * Patterns that match one path component at any depth: unanchored ones,
 * "**" + "/name", and "**" + "/name/" + "**" (which only a leading
 * directory can match). *body is borrowed from pp or owned by *owned.
 */
static bool component_form(const struct parsed *pp, const char **body,
			   char **owned, bool *dironly)
{
	const char *b = pp->body;
	size_t n = strlen(b);

	*owned = NULL;
	*dironly = pp->dironly;
	if (!pp->anchored) {
		*body = b;
		return true;
	}
	if (n > 3 && starts_with(b, "**/") && !memchr(b + 3, '/', n - 3)) {
		*body = b + 3;
		return true;
	}
	if (n > 6 && !pp->dironly && starts_with(b, "**/") && ends_with(b, "/**") &&
	    !memchr(b + 3, '/', n - 6)) {
		*owned = xstrndup(b + 3, n - 6);
		if (strstr(*owned, "**")) {
			free(*owned);
			*owned = NULL;
			return false;
		}
		*body = *owned;
		*dironly = true;
		return true;
	}
	return false;
}

/* How the pattern is answered: a table, the component regex or the path regex. */
static int classify(struct glob_pat *pat, const struct parsed *pp,
		    const char *shown, struct strbuf *why)
{
	const char *b = pp->body, *body;
	size_t n = strlen(b);
	char *owned;
	bool dironly;

	pat->kind = PAT_REGEX;
	if (component_form(pp, &body, &owned, &dironly)) {
		struct strbuf re = STRBUF_INIT;
		int ret = 0;

		pat->dironly = dironly;
		if (!strstr(body, "**") && classify_component(pat, body, strlen(body))) {
			pat->kind = PAT_COMPONENT;
		} else if (translate_body(body, false, shown, &re, why) < 0) {
			ret = -1;
		} else {
			strbuf_addstr(&re, dironly ? "(?=/)" : "(?=/|\\z)");
			pat->kind = PAT_COMP_REGEX;
			pat->cregex = strbuf_detach(&re, NULL);
		}
		strbuf_release(&re);
		free(owned);
		return ret;
	}
	/* A literal directory and everything below it, or a literal path. */
	if (n > 3 && !pp->dironly && ends_with(b, "/**") &&
	    strcspn(b, "*?[\\") == n - 2) {
		pat->kind = PAT_ANCHORED;
		pat->pre = xstrndup(b, n - 3);
		pat->below_only = true;
	} else if (strcspn(b, "*?[\\") == n) {
		pat->kind = PAT_ANCHORED;
		pat->pre = xstrdup(b);
		pat->below_only = pp->dironly;
	}
	return 0;
}

int glob_set_add(struct glob_set *gs, const char *pattern, int tag,
		 struct strbuf *why)
{
	struct strlist alts = STRLIST_INIT;
	size_t before = gs->nr;
	int ret = 0;

	if (gs->compiled)
		BUG("glob_set_add after glob_set_compile");
	if (glob_expand_braces(pattern, &alts, why) < 0) {
		strlist_release(&alts);
		return -1;
	}
	for (size_t i = 0; i < alts.nr && !ret; i++) {
		struct strbuf re = STRBUF_INIT;
		struct parsed pp;
		struct glob_pat *pat;

		if (!*alts.items[i])
			continue; /* "{,x}": an empty alternative matches nothing */
		if (parse_pattern(alts.items[i], &pp, why) < 0 ||
		    regex_of(&pp, alts.items[i], &re, why) < 0) {
			free(pp.body);
			strbuf_release(&re);
			ret = -1;
			break;
		}
		ALLOC_GROW(gs->pats, gs->nr + 1, gs->alloc);
		pat = &gs->pats[gs->nr++];
		memset(pat, 0, sizeof(*pat));
		pat->tag = tag;
		pat->dironly = pp.dironly;
		pat->regex = strbuf_detach(&re, NULL);
		ret = classify(pat, &pp, alts.items[i], why);
		free(pp.body);
	}
	if (!ret && gs->nr == before)
		ret = fail(why, "empty pattern '%s'", pattern);
	if (ret) {
		while (gs->nr > before) {
			struct glob_pat *pat = &gs->pats[--gs->nr];

			free(pat->pre);
			free(pat->suf);
			free(pat->regex);
			free(pat->cregex);
		}
	}
	strlist_release(&alts);
	return ret;
}

static void add_component(struct glob_set *gs, const struct glob_pat *pat, unsigned idx)
{
	if (!pat->has_star) {
		bool added;
		struct strmap_entry *e = strmap_intern(&gs->exact, pat->pre,
						       strlen(pat->pre),
						       (int64_t)gs->nr_slots, &added);
		struct exact_slot *slot;

		if (added) {
			ALLOC_GROW(gs->slots, gs->nr_slots + 1, gs->alloc_slots);
			gs->slots[gs->nr_slots].any = NO_INDEX;
			gs->slots[gs->nr_slots].dir = NO_INDEX;
			gs->nr_slots++;
		}
		slot = &gs->slots[e->value];
		if (pat->dironly && slot->dir == NO_INDEX)
			slot->dir = idx;
		else if (!pat->dironly && slot->any == NO_INDEX)
			slot->any = idx;
		return;
	}
	ALLOC_GROW(gs->affixes, gs->nr_affixes + 1, gs->alloc_affixes);
	gs->affixes[gs->nr_affixes++] = (struct affix){
		.pre = pat->pre, .prelen = strlen(pat->pre),
		.suf = pat->suf, .suflen = strlen(pat->suf),
		.dironly = pat->dironly, .idx = idx,
	};
}

static int compile_chunk(struct chunk **chunks, size_t *nr, size_t *alloc,
			 struct strbuf *re, unsigned first)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *code;

	strbuf_addch(re, ')');
	code = pcre2_compile((PCRE2_SPTR)re->buf, re->len,
			     PCRE2_ANCHORED | PCRE2_DOTALL, &errcode, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		return error("cannot compile globs into a regex at offset %zu: %s",
			     (size_t)erroff, (char *)msg);
	}
	/* No JIT (an unusual platform): the interpreter gives the same answers. */
	pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	ALLOC_GROW(*chunks, *nr + 1, *alloc);
	(*chunks)[*nr].code = code;
	(*chunks)[*nr].first = first;
	(*nr)++;
	strbuf_reset(re);
	return 0;
}

/* An alternation being built: "(?:(*MARK:i)R|(*MARK:j)S..." */
struct builder {
	struct strbuf re;
	size_t in_chunk;
	unsigned first;
};

static int build_add(struct builder *b, struct chunk **chunks, size_t *nr,
		     size_t *alloc, unsigned idx, const char *regex)
{
	if (b->in_chunk == 0) {
		strbuf_addstr(&b->re, "(?:");
		b->first = idx;
	} else {
		strbuf_addch(&b->re, '|');
	}
	strbuf_addf(&b->re, "(*MARK:%u)%s", idx, regex);
	if (++b->in_chunk < CHUNK_MAX_PATTERNS && b->re.len <= CHUNK_MAX_REGEX)
		return 0;
	b->in_chunk = 0;
	return compile_chunk(chunks, nr, alloc, &b->re, b->first);
}

static int build_end(struct builder *b, struct chunk **chunks, size_t *nr,
		     size_t *alloc)
{
	int ret = b->in_chunk ? compile_chunk(chunks, nr, alloc, &b->re, b->first) : 0;

	strbuf_release(&b->re);
	return ret;
}

int glob_set_compile(struct glob_set *gs, unsigned flags)
{
	struct builder path = { STRBUF_INIT, 0, 0 }, comp = { STRBUF_INIT, 0, 0 };
	bool fast = !(flags & GLOB_NO_FAST_PATHS);
	int ret = 0;

	free_tables(gs);
	for (size_t i = 0; i < gs->nr && !ret; i++) {
		const struct glob_pat *pat = &gs->pats[i];
		unsigned idx = (unsigned)i;

		if (fast && pat->kind == PAT_COMPONENT) {
			add_component(gs, pat, idx);
		} else if (fast && pat->kind == PAT_ANCHORED) {
			ALLOC_GROW(gs->anchors, gs->nr_anchors + 1, gs->alloc_anchors);
			gs->anchors[gs->nr_anchors++] = (struct anchored){
				.lit = pat->pre, .len = strlen(pat->pre),
				.exact_ok = !pat->below_only, .idx = idx,
			};
		} else if (fast && pat->kind == PAT_COMP_REGEX) {
			ret = build_add(&comp, &gs->cchunks, &gs->nr_cchunks,
					&gs->alloc_cchunks, idx, pat->cregex);
		} else {
			ret = build_add(&path, &gs->chunks, &gs->nr_chunks,
					&gs->alloc_chunks, idx, pat->regex);
		}
	}
	if (build_end(&path, &gs->chunks, &gs->nr_chunks, &gs->alloc_chunks) < 0 ||
	    build_end(&comp, &gs->cchunks, &gs->nr_cchunks, &gs->alloc_cchunks) < 0)
		ret = -1;
	if (ret) {
		free_tables(gs);
		return -1;
	}
	if (!gs->own)
		gs->own = glob_scratch_new();
	gs->compiled = true;
	return 0;
}

static void lower(unsigned *best, unsigned idx)
{
	if (idx < *best)
		*best = idx;
}

static void match_component(const struct glob_set *gs, const char *c, size_t n,
			    bool last, unsigned *best)
{
	if (gs->nr_slots) {
		struct strmap_entry *e = strmap_find(&gs->exact, c, n);

		if (e) {
			lower(best, gs->slots[e->value].any);
			if (!last)
				lower(best, gs->slots[e->value].dir);
		}
	}
	for (size_t i = 0; i < gs->nr_affixes; i++) {
		const struct affix *a = &gs->affixes[i];

		if (a->idx >= *best)
			break; /* affixes are in index order */
		if ((a->dironly && last) || n < a->prelen + a->suflen)
			continue;
		if (!memcmp(c, a->pre, a->prelen) &&
		    !memcmp(c + n - a->suflen, a->suf, a->suflen))
			*best = a->idx;
	}
}

/* Run one chunk at offset off; its mark, NO_INDEX for no match, or an error. */
static int run_chunk(struct glob_scratch *s, const struct chunk *c, const char *path,
		     size_t len, size_t off, unsigned *idx)
{
	int rc = pcre2_match(c->code, (PCRE2_SPTR)path, len, off, 0, s->md, s->mctx);

	*idx = NO_INDEX;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return -1;
	*idx = (unsigned)strtoul((const char *)pcre2_get_mark(s->md), NULL, 10);
	return 0;
}

int glob_set_match(struct glob_set *gs, const char *path)
{
	return glob_set_match_in(gs, path, NULL);
}

int glob_set_match_in(const struct glob_set *gs, const char *path,
		      struct glob_scratch *s)
{
	size_t len = strlen(path);
	unsigned best = NO_INDEX, idx;

	if (!gs->compiled)
		BUG("glob_set_match before glob_set_compile");
	if (!s)
		s = gs->own;
	if (gs->nr_slots || gs->nr_affixes) {
		const char *c = path, *end = path + len;

		for (;;) {
			const char *slash = memchr(c, '/', (size_t)(end - c));

			match_component(gs, c, slash ? (size_t)(slash - c)
						     : (size_t)(end - c),
					!slash, &best);
			if (!slash)
				break;
			c = slash + 1;
		}
	}
	for (size_t i = 0; i < gs->nr_anchors; i++) {
		const struct anchored *a = &gs->anchors[i];

		if (a->idx >= best)
			break;
		if (len >= a->len && !memcmp(path, a->lit, a->len) &&
		    ((len > a->len && path[a->len] == '/') ||
		     (len == a->len && a->exact_ok)))
			best = a->idx;
	}
	/* Per component: each start gives its first pattern; the least wins. */
	for (size_t i = 0; i < gs->nr_cchunks && gs->cchunks[i].first < best; i++) {
		for (size_t off = 0; off <= len;) {
			const char *slash;

			if (run_chunk(s, &gs->cchunks[i], path, len, off, &idx) < 0)
				return GLOB_MATCH_ERROR;
			lower(&best, idx);
			slash = memchr(path + off, '/', len - off);
			if (!slash)
				break;
			off = (size_t)(slash - path) + 1;
		}
	}
	for (size_t i = 0; i < gs->nr_chunks && gs->chunks[i].first < best; i++) {
		if (run_chunk(s, &gs->chunks[i], path, len, 0, &idx) < 0)
			return GLOB_MATCH_ERROR;
		if (idx != NO_INDEX) {
			lower(&best, idx);
			break; /* later chunks only hold later patterns */
		}
	}
	return best == NO_INDEX ? -1 : gs->pats[best].tag;
}
