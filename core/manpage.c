/* `tiadash help TOPIC`: a section of the compiled-in man page, rendered as text (the
 * subset of roff man/tiadash.1 uses; see core/manpage.h). */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "core/manpage.h"

#include <ctype.h>

#define INDENT 7   /* man's paragraph indent, and a .TP or .RS step */
#define SS_INDENT 3

struct render {
	struct strbuf *out;
	int width;
	int base;          /* .RS level * INDENT */
	int indent;        /* this paragraph's, from the left margin */
	bool fill;
	struct strbuf line; /* the filled line being built */
	int col;           /* its columns */
	bool tag_next;     /* after .TP: the next text line is the tag */
	int pending_indent; /* after a tag: the body's indent */
};

static int columns(const char *s, size_t n)
{
	return (int)utf8_chars(s, n);
}

/* Append text with roff escapes undone. */
static void unescape(struct strbuf *sb, const char *s, size_t n)
{
	static const struct { const char *name, *text; } chars[] = {
		{ "aq", "'" }, { "dq", "\"" }, { "em", "--" }, { "en", "-" },
		{ "mi", "-" }, { "bu", "*" }, { "co", "(c)" }, { "lq", "\"" },
		{ "rq", "\"" }, { "oq", "'" }, { "cq", "'" },
	};

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 >= n) {
			strbuf_addch(sb, s[i]);
			continue;
		}
		i++;
		switch (s[i]) {
		case 'f': /* \fB, \fI, \fR, \fP, \f(BI */
			if (i + 1 < n && s[i + 1] == '(')
				i += 3;
			else
				i++;
			break;
		case '(':
			for (size_t k = 0; i + 2 < n && k < ARRAY_SIZE(chars); k++) {
				if (!strncmp(s + i + 1, chars[k].name, 2)) {
					strbuf_addstr(sb, chars[k].text);
					break;
				}
			}
			i += 2;
			break;
		case '-': case 'e': case '\\':
			strbuf_addch(sb, s[i] == '-' ? '-' : '\\');
			break;
		case '&': case '|': case '^': case 'c':
			break;
		case ' ': case '0': case '~':
			strbuf_addch(sb, ' ');
			break;
		default:
			strbuf_addch(sb, s[i]);
		}
	}
}

/* The arguments of a macro line: words, "quoted" ones kept whole. */
static void macro_args(const char *s, struct strlist *out)
{
	while (*s) {
		struct strbuf arg = STRBUF_INIT;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (*s == '"') {
			for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
				if (*s == '"')
					s++;
				strbuf_addch(&arg, *s);
			}
			if (*s)
				s++;
		} else {
			/* An escaped space ("git\\ diff") does not end the word. */
			while (*s && *s != ' ' && *s != '\t') {
				if (*s == '\\' && s[1])
					strbuf_addch(&arg, *s++);
				strbuf_addch(&arg, *s++);
			}
		}
		strlist_push(out, arg.buf);
		strbuf_release(&arg);
	}
}

static void newline(struct render *r)
{
	if (r->line.len || r->col) {
		while (r->line.len && r->line.buf[r->line.len - 1] == ' ')
			strbuf_setlen(&r->line, r->line.len - 1);
		strbuf_add(r->out, r->line.buf, r->line.len);
		strbuf_addch(r->out, '\n');
	}
	strbuf_reset(&r->line);
	r->col = 0;
}

/* Start a line at the paragraph's indent (or a tag's body indent). */
static void start_line(struct render *r)
{
	int ind = r->base + r->indent;

	strbuf_addf(&r->line, "%*s", ind, "");
	r->col = ind;
}

static void blank_line(struct render *r)
{
	newline(r);
	if (r->out->len && !(r->out->len >= 2 && r->out->buf[r->out->len - 1] == '\n' &&
			     r->out->buf[r->out->len - 2] == '\n'))
		strbuf_addch(r->out, '\n');
}

/* Fill: add the words of text to the line, breaking at width. */
static void add_words(struct render *r, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *w;
		int cw;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && *p != ' ')
			p++;
		cw = columns(w, (size_t)(p - w));
		if (r->col && r->line.len && r->col + 1 + cw > r->width &&
		    r->col > r->base + r->indent)
			newline(r);
		if (!r->line.len)
			start_line(r);
		else if (r->col > r->base + r->indent &&
			 r->line.buf[r->line.len - 1] != ' ') {
			strbuf_addch(&r->line, ' ');
			r->col++;
		}
		strbuf_add(&r->line, w, (size_t)(p - w));
		r->col += cw;
	}
}

static void text(struct render *r, const char *s)
{
	if (r->tag_next) {
		/* The tag of a .TP: on its line; the body next to it if it fits. */
		int body = r->indent + INDENT;

		r->tag_next = false;
		newline(r);
		start_line(r);
		strbuf_addstr(&r->line, s);
		r->col += columns(s, strlen(s));
		r->indent = body;
		if (r->col + 1 > r->base + body)
			newline(r);
		else
			while (r->col < r->base + body) {
				strbuf_addch(&r->line, ' ');
				r->col++;
			}
		return;
	}
	if (!r->fill) {
		newline(r);
		start_line(r);
		strbuf_addstr(&r->line, s);
		r->col += columns(s, strlen(s));
		newline(r);
		return;
	}
	add_words(r, s);
}

/* The font macros: .B a b (joined by spaces), .BR a b (joined as one). */
static void font_macro(struct render *r, const char *name, const char *rest)
{
	struct strlist args = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT, raw = STRBUF_INIT;
	bool alternate = strlen(name) == 2;

	macro_args(rest, &args);
	for (size_t i = 0; i < args.nr; i++) {
		if (i && !alternate)
			strbuf_addch(&raw, ' ');
		strbuf_addstr(&raw, args.items[i]);
	}
	unescape(&sb, raw.buf, raw.len);
	if (sb.len)
		text(r, sb.buf);
	strlist_release(&args);
	strbuf_release(&sb);
	strbuf_release(&raw);
}

static void paragraph(struct render *r)
{
	blank_line(r);
	r->indent = INDENT;
}

static void request(struct render *r, const char *line)
{
	char name[8];
	size_t n = 0;
	const char *rest = line + 1;

	while (*rest && *rest != ' ' && n < sizeof(name) - 1)
		name[n++] = *rest++;
	name[n] = '\0';
	if (!strcmp(name, "PP") || !strcmp(name, "LP") || !strcmp(name, "P")) {
		paragraph(r);
	} else if (!strcmp(name, "TP")) {
		paragraph(r);
		r->tag_next = true;
	} else if (!strcmp(name, "IP")) {
		struct strlist args = STRLIST_INIT;

		paragraph(r);
		macro_args(rest, &args);
		if (args.nr && *args.items[0]) {
			struct strbuf tag = STRBUF_INIT;

			unescape(&tag, args.items[0], strlen(args.items[0]));
			r->tag_next = true;
			text(r, tag.buf);
			strbuf_release(&tag);
		} else {
			r->indent = INDENT * 2;
		}
		strlist_release(&args);
	} else if (!strcmp(name, "RS")) {
		newline(r);
		r->base += INDENT;
		r->indent = INDENT;
	} else if (!strcmp(name, "RE")) {
		newline(r);
		if (r->base >= INDENT)
			r->base -= INDENT;
		r->indent = INDENT;
	} else if (!strcmp(name, "nf") || !strcmp(name, "EX")) {
		newline(r);
		r->fill = false;
	} else if (!strcmp(name, "fi") || !strcmp(name, "EE")) {
		r->fill = true;
	} else if (!strcmp(name, "br")) {
		newline(r);
	} else if (!strcmp(name, "sp")) {
		blank_line(r);
	} else if (strspn(name, "BIR") == n && n && n <= 2) {
		font_macro(r, name, rest);
	}
	/* Anything else (.\" comments, .TH, .SH handled by the caller) is dropped. */
}

/* Render the source lines [from, to) of the page. */
static void render_lines(struct strbuf *out, const char *from, const char *to, int width)
{
	struct render r = { .out = out, .width = width, .indent = INDENT, .fill = true,
			    .line = STRBUF_INIT };
	struct strbuf ln = STRBUF_INIT;

	for (const char *p = from; p < to;) {
		const char *nl = memchr(p, '\n', (size_t)(to - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(to - p);

		strbuf_reset(&ln);
		strbuf_add(&ln, p, n);
		if (ln.buf[0] == '.' || ln.buf[0] == '\'') {
			if (!strncmp(ln.buf + 1, "SS ", 3) || !strncmp(ln.buf + 1, "SH ", 3)) {
				struct strbuf title = STRBUF_INIT;
				struct strlist args = STRLIST_INIT;

				macro_args(ln.buf + 4, &args);
				for (size_t i = 0; i < args.nr; i++)
					strbuf_addf(&title, "%s%s", i ? " " : "", args.items[i]);
				blank_line(&r);
				strbuf_addf(out, "%*s", ln.buf[1] == 'S' && ln.buf[2] == 'S' ?
					    SS_INDENT : 0, "");
				unescape(out, title.buf, title.len);
				strbuf_addch(out, '\n');
				r.base = 0;
				r.indent = INDENT;
				strbuf_release(&title);
				strlist_release(&args);
			} else {
				request(&r, ln.buf);
			}
		} else {
			struct strbuf plain = STRBUF_INIT;

			unescape(&plain, ln.buf, ln.len);
			if (!ln.len && r.fill)
				paragraph(&r);
			else
				text(&r, plain.buf);
			strbuf_release(&plain);
		}
		p = nl ? nl + 1 : to;
	}
	newline(&r);
	strbuf_release(&r.line);
	strbuf_release(&ln);
}

/* The title of a heading line (".SH WINDOWS AND FIGURES"), unquoted. */
static void heading_title(const char *line, size_t n, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	struct strlist args = STRLIST_INIT;

	strbuf_add(&raw, line + 4, n - 4);
	macro_args(raw.buf, &args);
	for (size_t i = 0; i < args.nr; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", args.items[i]);
	strbuf_release(&raw);
	strlist_release(&args);
}

static bool has_word(const char *title, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = title; *p;) {
		size_t k = strcspn(p, " ");

		if (k == n && !strncasecmp(p, word, n))
			return true;
		p += k + (p[k] == ' ');
	}
	return false;
}

int man_render_topic(struct strbuf *out, const char *page, const char *topic, int width)
{
	const char *from = NULL, *to = NULL, *p = page;
	bool in_commands = false, want_ss = false;
	int pass;

	/* A command's .SS first; then a section title, whole, then by a word. */
	for (pass = 0; pass < 3 && !from; pass++) {
		for (p = page, in_commands = false; *p;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			if (n > 4 && (!strncmp(p, ".SH ", 4) || !strncmp(p, ".SS ", 4))) {
				struct strbuf title = STRBUF_INIT;
				bool ss = p[2] == 'S';

				heading_title(p, n, &title);
				if (from && (!ss || want_ss)) {
					to = p;
					strbuf_release(&title);
					break;
				}
				if (!ss)
					in_commands = !strcmp(title.buf, "COMMANDS");
				if (!from && ((pass == 0 && ss && in_commands &&
					       !strcmp(title.buf, topic)) ||
					      (pass == 1 && !ss && !strcasecmp(title.buf, topic)) ||
					      (pass == 2 && !ss && has_word(title.buf, topic)))) {
					from = p;
					want_ss = ss;
				}
				strbuf_release(&title);
			}
			p = nl ? nl + 1 : p + n;
		}
	}
	if (!from)
		return 1;
	render_lines(out, from, to ? to : from + strlen(from), width);
	return 0;
}

void man_topics(const char *page, struct strlist *out)
{
	for (const char *p = page; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n > 4 && !strncmp(p, ".SH ", 4)) {
			struct strbuf title = STRBUF_INIT;

			heading_title(p, n, &title);
			strlist_push(out, title.buf);
			strbuf_release(&title);
		}
		p = nl ? nl + 1 : p + n;
	}
}
