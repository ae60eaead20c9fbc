/* Escaping of untrusted strings for terminals, markdown, CSV, JSON and HTML. */
#include "core/tiadash.h"
#include "core/sanitize.h"

int utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	int n;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if ((size_t)n > avail)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Reject overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static void add_hex_escape(struct strbuf *sb, unsigned char c)
{
	strbuf_addf(sb, "\\x%02x", c);
}

/* U+202A..U+202E and U+2066..U+2069 (embeddings, overrides, isolates). */
static bool is_bidi_control(const unsigned char *p, int n)
{
	return n == 3 && p[0] == 0xe2 &&
	       ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
		(p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9));
}

size_t utf8_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

size_t utf8_prefix(const char *s, size_t len, size_t n)
{
	size_t i = 0;

	while (i < len && n--) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

size_t sanitized_chars(const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t n;

	sanitize_text(&clean, s, strlen(s));
	n = utf8_chars(clean.buf, clean.len);
	strbuf_release(&clean);
	return n;
}

void sanitize_cut(struct strbuf *sb, const char *s, size_t max, const char *ellipsis)
{
	struct strbuf clean = STRBUF_INIT;
	size_t dots = utf8_chars(ellipsis, strlen(ellipsis));

	sanitize_text(&clean, s, strlen(s));
	if (utf8_chars(clean.buf, clean.len) <= max) {
		strbuf_add(sb, clean.buf, clean.len);
	} else if (max >= dots) {
		strbuf_add(sb, clean.buf, utf8_prefix(clean.buf, clean.len, max - dots));
		strbuf_addstr(sb, ellipsis);
	}
	strbuf_release(&clean);
}

void sanitize_text(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		int n = utf8_seq_len(p + i, len - i);

		if (n == 0 || (n == 1 && (p[i] < 0x20 || p[i] == 0x7f))) {
			add_hex_escape(sb, p[i]);
			i++;
		} else if ((n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) ||
			   is_bidi_control(p + i, n)) {
			/* C1 controls (CSI and friends), and bidi overrides that
			 * would reorder the rest of a terminal line. */
			for (int k = 0; k < n; k++)
				add_hex_escape(sb, p[i + k]);
			i += (size_t)n;
		} else {
			strbuf_add(sb, p + i, (size_t)n);
			i += (size_t)n;
		}
	}
}

/*
 * The next character from p[*i] on that json_text_write escapes: its code
 * point, with *i at it and *n its length; 0 when none is left (*i: len).
 */
static unsigned json_next_unsafe(const unsigned char *p, size_t len, size_t *i, int *n)
{
	for (; *i < len; *i += *n ? (size_t)*n : 1) {
		*n = utf8_seq_len(p + *i, len - *i);
		if (*n == 1 && p[*i] == 0x7f)
			return 0x7f;
		if (*n == 2 && p[*i] == 0xc2 && p[*i + 1] < 0xa0)
			return p[*i + 1];
		if (is_bidi_control(p + *i, *n))
			return 0x2000 | (p[*i + 1] & 0x3fu) << 6 | (p[*i + 2] & 0x3fu);
	}
	return 0;
}

void json_text_write(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, plain = 0;  /* p[plain..i) is written as it is */
	unsigned cp;
	int n = 0;

	while ((cp = json_next_unsafe(p, len, &i, &n))) {
		fwrite(p + plain, 1, i - plain, f);
		fprintf(f, "\\u%04x", cp);
		plain = i += (size_t)n;
	}
	fwrite(p + plain, 1, len - plain, f);
}

void json_text_add(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, plain = 0;
	unsigned cp;
	int n = 0;

	while ((cp = json_next_unsafe(p, len, &i, &n))) {
		strbuf_add(sb, p + plain, i - plain);
		strbuf_addf(sb, "\\u%04x", cp);
		plain = i += (size_t)n;
	}
	strbuf_add(sb, p + plain, len - plain);
}

char *sanitized(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	sanitize_text(&sb, s, strlen(s));
	return strbuf_detach(&sb, NULL);
}

/* The character reference HTML needs for c (quotes too: in attributes), or NULL. */
static const char *html_entity(char c, bool quotes)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return quotes ? "&quot;" : NULL;
	case '\'': return quotes ? "&#39;" : NULL;
	}
	return NULL;
}

void md_escape(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize_text(&clean, s, strlen(s));
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.buf[i];
		const char *entity = html_entity(c, false);

		if (entity) {
			strbuf_addstr(sb, entity);
			continue;
		}
		switch (c) {
		case '\\': case '`': case '*': case '_': case '|': case '[':
		case ']': case '#': case '~': case '!': case '(': case ')':
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
			break;
		default:
			strbuf_addch(sb, c);
		}
	}
	strbuf_release(&clean);
}

void md_code(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t run = 0, longest = 0;
	bool pad;

	sanitize_text(&clean, s, strlen(s));
	for (size_t i = 0; i < clean.len; i++) {
		run = clean.buf[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	/* CommonMark strips one space from each end of a span that has both. */
	pad = !clean.len || clean.buf[0] == '`' || clean.buf[clean.len - 1] == '`' ||
	      (clean.buf[0] == ' ' && clean.buf[clean.len - 1] == ' ');
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
	strbuf_addstr(sb, pad ? " " : "");
	strbuf_add(sb, clean.buf, clean.len);
	strbuf_addstr(sb, pad ? " " : "");
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
	strbuf_release(&clean);
}

void html_escape(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;

	sanitize_text(&clean, s, strlen(s));
	for (size_t i = 0; i < clean.len; i++) {
		const char *entity = html_entity(clean.buf[i], true);

		if (entity)
			strbuf_addstr(sb, entity);
		else
			strbuf_addch(sb, clean.buf[i]);
	}
	strbuf_release(&clean);
}

/*
 * A spreadsheet reads a cell that starts with = + - @ (or a TAB or CR,
 * which sanitize_text already escapes) as a formula: `=HYPERLINK(...)`
 * from a hostile repo name or test id would be live. OWASP's remedy: a
 * leading ' inside the quoted field, which the spreadsheet shows as text.
 */
static bool csv_formula_start(const struct strbuf *cell)
{
	return cell->len && strchr("=+-@\t\r", cell->buf[0]);
}

void csv_field(struct strbuf *sb, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	bool formula, quote;

	sanitize_text(&clean, s, strlen(s));
	formula = csv_formula_start(&clean);
	/* ';' too: a spreadsheet in a locale that splits cells on it. */
	quote = formula || strpbrk(clean.buf, ",\";") != NULL;
	if (!quote) {
		strbuf_add(sb, clean.buf, clean.len);
	} else {
		strbuf_addch(sb, '"');
		if (formula)
			strbuf_addch(sb, '\'');
		for (size_t i = 0; i < clean.len; i++) {
			if (clean.buf[i] == '"')
				strbuf_addch(sb, '"');
			strbuf_addch(sb, clean.buf[i]);
		}
		strbuf_addch(sb, '"');
	}
	strbuf_release(&clean);
}

/* The letter git writes after '\\' for c, 0 for an octal escape, -1: none. */
static int git_quote_letter(unsigned char c)
{
	static const char letters[] = "\a\b\t\n\v\f\r";
	const char *l;

	if (c == '"' || c == '\\')
		return c;
	if (c >= 0x20 && c != 0x7f)
		return -1;
	l = c ? strchr(letters, c) : NULL;
	return l ? "abtnvfr"[l - letters] : 0;
}

void git_quote_path(struct strbuf *sb, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;
	bool plain = true;

	for (size_t i = 0; p[i] && plain; i++)
		plain = git_quote_letter(p[i]) < 0;
	if (plain) {
		strbuf_addstr(sb, path);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *p; p++) {
		int l = git_quote_letter(*p);

		if (l < 0)
			strbuf_addch(sb, (char)*p);
		else if (l)
			strbuf_addf(sb, "\\%c", l);
		else
			strbuf_addf(sb, "\\%03o", *p);
	}
	strbuf_addch(sb, '"');
}

void utf8_repair(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		int n = utf8_seq_len(p + i, len - i);

		if (n == 0 || (n == 1 && p[i] == 0)) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			i++;
		} else {
			strbuf_add(sb, p + i, (size_t)n);
			i += (size_t)n;
		}
	}
}
