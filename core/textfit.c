/* Fitting text output to 80 columns: wrapping with a hanging indent, cutting
 * with '~', and a stdout (glibc's fopencookie) that fits what commands print. */
#include "core/tiadash.h"
#include "core/textfit.h"

#include <stdio.h>

/*
 * The length of a colour's SGR sequence ("\033[1;31m") at s, else 0: the
 * only escapes output has (core/output.h; data is sanitized), no columns.
 */
static size_t sgr_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 3 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

/* Columns of n bytes of UTF-8: one per character (output is sanitized). */
static int columns(const char *s, size_t n)
{
	int w = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k = sgr_len(s + i, n - i);

		if (k)
			i += k - 1;
		else
			w += ((unsigned char)s[i] & 0xc0) != 0x80;
	}
	return w;
}

/* Bytes of s (n long) that fill at most w columns. */
static size_t bytes_for(const char *s, size_t n, int w)
{
	size_t i = 0;

	while (i < n && w > 0) {
		i += sgr_len(s + i, n - i);
		if (i >= n)
			break;
		i++;
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		w--;
	}
	return i;
}

/*
 * Skip the rest of a cut word, [p, end) up to a space; a colour it
 * switches (its last SGR sequence) is still switched, so the reset of a
 * word cut in colour is not cut with it.
 */
static const char *skip_word(struct strbuf *out, const char *p, const char *end)
{
	const char *sgr = NULL;
	size_t sgr_n = 0;

	while (p < end && *p != ' ') {
		size_t k = sgr_len(p, (size_t)(end - p));

		if (k) {
			sgr = p;
			sgr_n = k;
			p += k;
		} else {
			p++;
		}
	}
	if (sgr)
		strbuf_add(out, sgr, sgr_n);
	return p;
}

static size_t indent_of(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* The hanging indent for a break at byte `at` of the line (see the header). */
static int hang_of(const char *s, size_t n, size_t at)
{
	size_t ind = indent_of(s, n), field = ind;

	if (n - ind > 15 && (!strncmp(s + ind, "usage: tiadash ", 15) ||
			     (ind && !strncmp(s + ind, "tiadash ", 8)))) {
		const char *p = s + ind + (s[ind] == 'u' ? 15 : 8);
		const char *sp = memchr(p, ' ', (size_t)(s + n - p));

		return sp ? columns(s, (size_t)(sp + 1 - s)) : (int)ind + 4;
	}
	if (n - ind > 2 && s[ind] == '-' && s[ind + 1] == ' ')
		return (int)ind + 2;
	for (size_t i = ind; i + 2 < at; i++)
		if (s[i] == ' ' && s[i + 1] == ' ' && s[i + 2] != ' ')
			field = i + 2;
	return field == ind ? (int)ind + 2 : columns(s, field);
}

/*
 * Where the first line of a line of fields ("label  value  (note)") breaks
 * best: at the last two-space gap within fit bytes that leaves the label
 * and at least one field on the line. Returns the gap's offset, or 0.
 */
static size_t field_break(const char *s, size_t n, size_t fit)
{
	size_t ind = indent_of(s, n), gap = 0;
	/* A label's line keeps its value; an indented line is values only. */
	int keep_fields = ind ? 1 : 2, fields = 1;

	for (size_t i = ind; i + 2 < n && i <= fit; i++) {
		if (s[i] != ' ' || s[i + 1] != ' ' || s[i + 2] == ' ')
			continue;
		if (fields++ >= keep_fields)
			gap = i;
	}
	while (gap > 0 && s[gap - 1] == ' ')
		gap--;
	return gap;
}

/* Append line (n bytes, no newline) fitted to width, wrapped lines ending in '\n'. */
static void fit_line(struct strbuf *out, const char *line, size_t n, int width)
{
	const char *p = line, *end = line + n;
	int room = width, hang = -1;
	size_t ind = indent_of(line, n);
	bool usage = n - ind > 15 && (!strncmp(line + ind, "usage: tiadash ", 15) ||
				      (ind && !strncmp(line + ind, "tiadash ", 8)));

	while (columns(p, (size_t)(end - p)) > room) {
		size_t fit = bytes_for(p, (size_t)(end - p), room), keep = fit;

		/* The last space within the room, with something before it;
		 * in a usage line, before an option group ("[--rules FILE]"). */
		if (usage)
			while (keep > 0 && !(p[keep] == ' ' && (p[keep + 1] == '[' ||
								p[keep + 1] == '(')))
				keep--;
		if (!usage || !keep)
			for (keep = fit; keep > 0 && p[keep] != ' ';)
				keep--;
		if (p == line && !usage) {
			/* A whole field to the next line rather than half of it. */
			size_t field = field_break(line, n, fit);

			if (field) {
				keep = field;
				hang = hang_of(line, n, field);
			}
		}
		if (hang < 0) {
			hang = hang_of(line, n, (size_t)(p + keep - line));
			if (hang > width / 2)
				hang = width / 2;
		}
		while (keep > 0 && p[keep - 1] == ' ')
			keep--;
		if (!keep) {
			/* A word longer than the room: cut it. */
			keep = bytes_for(p, (size_t)(end - p), room - 1);
			strbuf_add(out, p, keep);
			strbuf_addch(out, '~');
			p += keep;
			p = skip_word(out, p, end);
		} else {
			strbuf_add(out, p, keep);
			p += keep;
		}
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			return;
		strbuf_addch(out, '\n');
		strbuf_addf(out, "%*s", hang, "");
		room = width - hang;
	}
	strbuf_add(out, p, (size_t)(end - p));
}

void text_fit(struct strbuf *out, const char *text, size_t len, int width)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);

		fit_line(out, text, n, width);
		if (nl)
			strbuf_addch(out, '\n');
		text = nl ? nl + 1 : end;
	}
}

/* stdout through the fitter. */

static struct {
	FILE *real;
	struct strbuf pending; /* the part line not yet ended */
	bool failed;
} fit_out;

static bool emit(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	bool ok;

	text_fit(&sb, s, n, TEXT_WIDTH);
	ok = fwrite(sb.buf, 1, sb.len, fit_out.real) == sb.len;
	strbuf_release(&sb);
	return ok;
}

static ssize_t fit_write(void *cookie, const char *buf, size_t size)
{
	char *last;

	UNUSED(cookie);
	if (fit_out.failed)
		return -1;
	strbuf_add(&fit_out.pending, buf, size);
	last = memrchr(fit_out.pending.buf, '\n', fit_out.pending.len);
	if (last) {
		size_t n = (size_t)(last - fit_out.pending.buf) + 1;

		if (!emit(fit_out.pending.buf, n)) {
			fit_out.failed = true;
			return -1;
		}
		memmove(fit_out.pending.buf, fit_out.pending.buf + n, fit_out.pending.len - n);
		strbuf_setlen(&fit_out.pending, fit_out.pending.len - n);
	}
	return (ssize_t)size;
}

void text_fit_stdout(void)
{
	cookie_io_functions_t io = { .write = fit_write };
	FILE *f;

	if (fit_out.real)
		return;
	fflush(stdout);
	f = fopencookie(NULL, "w", io);
	if (!f)
		return; /* unfitted, but whole */
	fit_out.real = stdout;
	fit_out.failed = false;
	/* glibc lets a program set stdout (its manual says so). */
	stdout = f;
}

int text_fit_stdout_end(void)
{
	FILE *f = stdout;
	int ret = 0;

	if (!fit_out.real)
		return 0;
	if (fflush(f) || ferror(f))
		ret = -1;
	if (!ret && fit_out.pending.len && !emit(fit_out.pending.buf, fit_out.pending.len))
		ret = -1;
	stdout = fit_out.real;
	fit_out.real = NULL;
	fclose(f);
	strbuf_release(&fit_out.pending);
	if (fflush(stdout) || ferror(stdout))
		ret = -1;
	return ret;
}
