/* One-entry-per-line lists with # comments. */
#include "core/tiadash.h"
#include "ingest/lists.h"

struct list_state {
	struct input *in;
	struct strlist *out;
	const char *json_hint; /* what to do with a JSON document, or NULL */
	bool started;          /* an entry was seen */
};

/*
 * Does the first entry open a JSON document: `[` or `{` followed by the
 * end of the line, a string, another bracket or a closing one? A test id
 * never does.
 */
static bool opens_json(const char *e)
{
	if (*e != '[' && *e != '{')
		return false;
	for (e++; *e == ' ' || *e == '\t'; e++)
		;
	return !*e || strchr("\"{[]}", *e);
}

static int add_entry(char *line, size_t len, int lineno, void *data)
{
	struct list_state *st = data;
	char *e = xstrdup_trimmed(line, len);

	if (!*e || *e == '#') {
		free(e);
		return 0;
	}
	if (!st->started && opens_json(e)) {
		free(e);
		return error("%s:%d: a JSON document, not a plain list (one entry a "
			     "line)%s%s", st->in->name, lineno,
			     st->json_hint ? ": " : "", st->json_hint ? st->json_hint : "");
	}
	st->started = true;
	strlist_push_owned(st->out, e);
	return 0;
}

static int parse(struct input *in, struct strlist *out, const char *json_hint)
{
	struct list_state st = { in, out, json_hint, false };

	return input_read_lines(in, add_entry, &st);
}

int list_parse(struct input *in, struct strlist *out)
{
	return parse(in, out, NULL);
}

int list_parse_selection(struct input *in, struct strlist *out)
{
	return parse(in, out, "if it is a selector's own output, name its format "
		     "(--selection-format, or \"format\" in a manifest's selection)");
}
