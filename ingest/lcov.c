/* lcov tracefiles: SF/DA/end_of_record; every other record is skipped. */
#include "core/tiadash.h"
#include "ingest/coverage.h"

struct lcov_state {
	struct input *in;
	cov_line_fn fn;
	void *data;
	char *file; /* current SF, NULL outside a record */
};

static char *normalize_path(const char *p, size_t n)
{
	char *s = xstrdup_trimmed(p, n);

	for (char *c = s; *c; c++)
		if (*c == '\\')
			*c = '/';
	return s;
}

/* A hit count: a non-negative number (gcov may print huge ones as floats). */
static bool parse_count(const char *s, bool *hit)
{
	double d;

	if (!parse_double(s, &d) || d < 0)
		return false;
	*hit = d > 0;
	return true;
}

static int da_record(struct lcov_state *st, char *rest, int lineno)
{
	char *comma = strchr(rest, ',');
	char *count, *extra;
	int64_t line;
	struct cov_line l;

	if (!st->file)
		return error("%s:%d: DA record outside an SF record", st->in->name, lineno);
	if (!comma)
		return error("%s:%d: malformed DA record '%s'", st->in->name, lineno, rest);
	*comma = '\0';
	count = comma + 1;
	extra = strchr(count, ',');
	if (extra)
		*extra = '\0';
	if (!parse_int64(rest, &line) || line < 1 || line > UINT32_MAX)
		return error("%s:%d: DA record has an invalid line number '%s'",
			     st->in->name, lineno, rest);
	if (!parse_count(count, &l.hit))
		return error("%s:%d: DA record has an invalid hit count '%s'",
			     st->in->name, lineno, count);
	l.paths = (const char *const *)&st->file;
	l.nr_paths = 1;
	l.line = (uint32_t)line;
	return st->fn(&l, st->data);
}

static int lcov_line(char *line, size_t len, int lineno, void *data)
{
	struct lcov_state *st = data;
	char *s = line;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	/* Trailing blanks too: "end_of_record " is in real files (diff_cover's). */
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	if (!len || *s == '#')
		return 0;
	if (starts_with(s, "SF:")) {
		free(st->file);
		st->file = normalize_path(s + 3, len - 3);
		if (!*st->file)
			return error("%s:%d: SF record without a path", st->in->name, lineno);
		return 0;
	}
	if (starts_with(s, "DA:"))
		return da_record(st, s + 3, lineno);
	if (!strcmp(s, "end_of_record")) {
		free(st->file);
		st->file = NULL;
		return 0;
	}
	if (len > 1 && strchr(s, ':'))
		return 0; /* TN, FN, FNDA, BRDA, LF, LH, VER, MCDC, ... */
	return error("%s:%d: not an lcov record: '%.40s'", st->in->name, lineno, s);
}

int lcov_parse(struct input *in, cov_line_fn fn, void *data)
{
	struct lcov_state st = { in, fn, data, NULL };
	int ret = input_read_lines(in, lcov_line, &st);

	free(st.file);
	return ret;
}

bool lcov_sniff(const char *head, size_t len)
{
	const char *p = head, *end = head + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && *p != '#')
			return (n >= 3 && (!memcmp(p, "TN:", 3) || !memcmp(p, "SF:", 3)));
		if (!nl)
			break;
		p = nl + 1;
	}
	return false;
}
