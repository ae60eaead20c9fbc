/* cJSON helpers: safe strings, nulls for undefined figures, parse errors with lines. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/query.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "core/util.h"

cJSON *json_string(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	cJSON *node;

	utf8_repair(&sb, s, strlen(s));
	node = cJSON_CreateString(sb.buf);
	strbuf_release(&sb);
	if (!node)
		die("out of memory building JSON");
	return node;
}

static void add(cJSON *obj, const char *key, cJSON *item)
{
	if (!item)
		die("out of memory building JSON");
	cJSON_AddItemToObject(obj, key, item);
}

void json_add_string(cJSON *obj, const char *key, const char *s)
{
	add(obj, key, json_string(s));
}

void json_add_string_or_null(cJSON *obj, const char *key, const char *s)
{
	add(obj, key, s ? json_string(s) : cJSON_CreateNull());
}

void json_add_int(cJSON *obj, const char *key, int64_t v)
{
	add(obj, key, cJSON_CreateNumber((double)v));
}

void json_add_opt_int(cJSON *obj, const char *key, bool has, int64_t v)
{
	add(obj, key, has ? cJSON_CreateNumber((double)v) : cJSON_CreateNull());
}

void json_add_number(cJSON *obj, const char *key, double v)
{
	add(obj, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

void json_add_bool(cJSON *obj, const char *key, bool v)
{
	add(obj, key, cJSON_CreateBool(v));
}

void json_add_time(cJSON *obj, const char *key, int64_t ms)
{
	struct strbuf sb = STRBUF_INIT;

	if (ms == INT64_MIN || ms == INT64_MAX) {
		add(obj, key, cJSON_CreateNull());
		return;
	}
	time_format(&sb, ms);
	add(obj, key, cJSON_CreateString(sb.buf));
	strbuf_release(&sb);
}

void json_push_string(cJSON *arr, const char *s)
{
	cJSON_AddItemToArray(arr, json_string(s));
}

void json_print_free(cJSON *obj, FILE *f)
{
	char *text = cJSON_Print(obj);

	if (!text)
		die("out of memory printing JSON");
	json_text_write(f, text, strlen(text));
	fputc('\n', f);
	cJSON_free(text);
	cJSON_Delete(obj);
}

#define STREAM_SLOT "\x01stream\x01"

cJSON *json_stream_slot(void)
{
	cJSON *node = cJSON_CreateRaw(STREAM_SLOT);

	if (!node)
		die("out of memory building JSON");
	return node;
}

struct stream_out {
	FILE *f;
	bool first;
	size_t depth; /* the tabs of the slot's line: cJSON's depth there */
	char *buf;    /* json_stream_node's, reused */
	size_t cap;
};


/*
 * node printed as cJSON_Print prints it at the slot: its own lines get the
 * slot's depth in tabs (cJSON breaks lines only between members; a
 * newline inside a string is escaped).
 */
int json_stream_node(void *out, cJSON *node)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	struct stream_out *o = out;
	const char *p, *nl;

	/* Into one buffer, grown until the node fits (cJSON reserves 5 bytes). */
	if (!o->cap)
		o->buf = xmalloc(o->cap = 65536);
	while (!cJSON_PrintPreallocated(node, o->buf, (int)o->cap - 5, 1)) {
		if (o->cap > INT_MAX / 2)
			die("out of memory printing JSON");
		free(o->buf);
		o->buf = xmalloc(o->cap *= 2);
	}
	if (!o->first)
		fputs(", ", o->f);
	o->first = false;
	for (p = o->buf; (nl = strchr(p, '\n')); p = nl + 1) {
		json_text_write(o->f, p, (size_t)(nl + 1 - p));
		for (size_t left = o->depth; left; ) {
			size_t n = left < sizeof(tabs) - 1 ? left : sizeof(tabs) - 1;

			fwrite(tabs, 1, n, o->f);
			left -= n;
		}
	}
	json_text_write(o->f, p, strlen(p));
	cJSON_Delete(node);
	return 0;
}

/* A string as a node of its own: cJSON prints it on one line, as in an array. */
static int put_streamed(const char *s, size_t len, void *data)
{
	UNUSED(len);
	return json_stream_node(data, json_string(s));
}

int json_print_streamed(cJSON *obj, FILE *f, json_each_fn each, void *data)
{
	char *text = cJSON_Print(obj);
	const char *slot;
	struct stream_out o = { f, true, 0, NULL, 0 };
	int ret = 0;

	if (!text)
		die("out of memory printing JSON");
	slot = strstr(text, STREAM_SLOT);
	if (slot) {
		for (const char *t = slot; t > text && t[-1] != '\n'; t--)
			o.depth += t[-1] == '\t';
		json_text_write(f, text, (size_t)(slot - text));
		fputc('[', f);
		ret = each(put_streamed, &o, data);
		fputc(']', f);
		slot += strlen(STREAM_SLOT);
	} else {
		slot = text;
	}
	json_text_write(f, slot, strlen(slot));
	fputc('\n', f);
	cJSON_free(text);
	cJSON_Delete(obj);
	free(o.buf);
	return ret;
}

/*
 * Hardening (issue 7): cJSON refuses arrays and objects nested deeper than
 * CJSON_NESTING_LIMIT with the same NULL as any syntax error. Say so when
 * that is what stopped it, instead of a bare "invalid JSON".
 */
static bool too_deep(const char *text, size_t off)
{
	size_t depth = 0;
	bool in_string = false;

	for (size_t i = 0; i < off; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\' && i + 1 < off)
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '[' || c == '{') {
			if (++depth >= CJSON_NESTING_LIMIT)
				return true;
		} else if ((c == ']' || c == '}') && depth) {
			depth--;
		}
	}
	return false;
}

int json_refuse_nul(const char *text, size_t len, const char *source)
{
	const char *raw = memchr(text, '\0', len);
	const char *p = text, *end = raw ? raw : text + len;

	/* Outside strings a backslash is a syntax error anyway: no need to track them. */
	while ((p = memchr(p, '\\', (size_t)(end - p)))) {
		if (end - p >= 6 && !memcmp(p + 1, "u0000", 5))
			return error("%s:%d: a string holds a NUL character (\\u0000), "
				     "which would cut it short: refused", source,
				     line_of_offset(text, len, (size_t)(p - text)));
		p += 2; /* the escaped character is never the start of an escape */
		if (p >= end)
			break;
	}
	if (raw)
		return error("%s:%d: binary data (a NUL byte), not JSON", source,
			     line_of_offset(text, len, (size_t)(raw - text)));
	return 0;
}

cJSON *json_parse_source(const char *text, size_t len, const char *source)
{
	const char *end = NULL;
	/* len + 1: cJSON's trailing-garbage check wants to see the NUL. */
	cJSON *root;

	if (json_refuse_nul(text, len, source) < 0)
		return NULL;
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!root) {
		size_t off = end && end >= text ? (size_t)(end - text) : 0;
		const char *what = off >= len ? "unexpected end of input"
					      : "invalid JSON";

		if (too_deep(text, off < len ? off + 1 : len))
			error("%s:%d: arrays or objects nested deeper than %d",
			      source, line_of_offset(text, len, off),
			      CJSON_NESTING_LIMIT);
		else
			error("%s:%d: %s", source, line_of_offset(text, len, off), what);
	}
	return root;
}

void json_add_identity(cJSON *obj, const char *key, const struct identity_figures *f)
{
	cJSON *o = cJSON_AddObjectToObject(obj, key);
	cJSON *ids = cJSON_CreateArray();

	json_add_int(o, "failing_tests", f->failing_tests);
	json_add_int(o, "resolved", f->resolved);
	for (size_t i = 0; i < f->unresolved.nr; i++)
		json_push_string(ids, f->unresolved.items[i]);
	cJSON_AddItemToObject(o, "unresolved", ids);
	json_add_int(o, "selection_entries", f->selection_entries);
	json_add_opt_int(o, "entries_matching_no_test", f->has_unmatched, f->entries_unmatched);
	json_add_int(o, "by_name", f->by_name);
	json_add_int(o, "entries_unresolved", f->entries_unresolved);
	json_add_int(o, "quarantine_lines", f->quarantine_lines);
	json_add_int(o, "quarantine_unresolved", f->quarantine_unresolved);
	ids = cJSON_CreateArray();
	for (size_t i = 0; i < f->quarantine_names.nr; i++)
		json_push_string(ids, f->quarantine_names.items[i]);
	cJSON_AddItemToObject(o, "quarantine_unresolved_lines", ids);
}

cJSON *json_strlist(const struct strlist *l)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < l->nr; i++)
		json_push_string(arr, l->items[i]);
	return arr;
}
