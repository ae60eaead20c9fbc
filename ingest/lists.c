/* One-entry-per-line lists with # comments. */
#include "core/tiadash.h"
#include "ingest/lists.h"

static int add_entry(char *line, size_t len, int lineno, void *data)
{
	struct strlist *out = data;
	char *e;

	UNUSED(lineno);
	e = xstrdup_trimmed(line, len);
	if (!*e || *e == '#') {
		free(e);
		return 0;
	}
	strlist_push_owned(out, e);
	return 0;
}

int list_parse(struct input *in, struct strlist *out)
{
	return input_read_lines(in, add_entry, out);
}
