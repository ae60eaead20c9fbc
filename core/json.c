/* cJSON helpers: safe strings, nulls for undefined figures, parse errors with lines. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/query.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "core/util.h"

#include <pthread.h>

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

/* Printing nodes at a stream slot: cJSON's buffer, reused, and the slot's depth. */
struct node_text {
	char *buf;
	size_t cap;
	size_t depth; /* the tabs of the slot's line: cJSON's depth there */
};

/*
 * node printed as cJSON_Print prints it at the slot, into sb, after ", "
 * unless it is the first; then freed. Its own lines get the slot's depth
 * in tabs (cJSON breaks lines only between members; a newline inside a
 * string is escaped).
 */
static void node_add(struct node_text *t, cJSON *node, bool first, struct strbuf *sb)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	const char *p, *nl;

	/* Into one buffer, grown until the node fits (cJSON reserves 5 bytes). */
	if (!t->cap)
		t->buf = xmalloc(t->cap = 65536);
	while (!cJSON_PrintPreallocated(node, t->buf, (int)t->cap - 5, 1)) {
		if (t->cap > INT_MAX / 2)
			die("out of memory printing JSON");
		free(t->buf);
		t->buf = xmalloc(t->cap *= 2);
	}
	if (!first)
		strbuf_addstr(sb, ", ");
	for (p = t->buf; (nl = strchr(p, '\n')); p = nl + 1) {
		json_text_add(sb, p, (size_t)(nl + 1 - p));
		for (size_t left = t->depth; left; ) {
			size_t n = left < sizeof(tabs) - 1 ? left : sizeof(tabs) - 1;

			strbuf_add(sb, tabs, n);
			left -= n;
		}
	}
	json_text_add(sb, p, strlen(p));
	cJSON_Delete(node);
}

struct stream_out {
	FILE *f;
	bool first;
	struct node_text t;
	struct strbuf sb;
};

/* A string as a node of its own: cJSON prints it on one line, as in an array. */
static int put_streamed(const char *s, size_t len, void *data)
{
	struct stream_out *o = data;

	UNUSED(len);
	strbuf_reset(&o->sb);
	node_add(&o->t, json_string(s), o->first, &o->sb);
	o->first = false;
	fwrite(o->sb.buf, 1, o->sb.len, o->f);
	return 0;
}

/*
 * obj printed to f up to its stream slot, and the slot's '[': the slot's
 * depth into *depth, and the text after the slot returned (NULL: obj has
 * no slot, all of it printed). text is cJSON_Print's of obj.
 */
static const char *print_to_slot(FILE *f, const char *text, size_t *depth)
{
	const char *slot = strstr(text, STREAM_SLOT);

	*depth = 0;
	if (!slot) {
		json_text_write(f, text, strlen(text));
		return NULL;
	}
	for (const char *t = slot; t > text && t[-1] != '\n'; t--)
		*depth += t[-1] == '\t';
	json_text_write(f, text, (size_t)(slot - text));
	fputc('[', f);
	return slot + strlen(STREAM_SLOT);
}

/* The slot's ']', the rest of the text (after print_to_slot) and the newline. */
static void print_after_slot(FILE *f, const char *rest)
{
	if (rest) {
		fputc(']', f);
		json_text_write(f, rest, strlen(rest));
	}
	fputc('\n', f);
}

static char *print_or_die(cJSON *obj)
{
	char *text = cJSON_Print(obj);

	if (!text)
		die("out of memory printing JSON");
	return text;
}

int json_print_streamed(cJSON *obj, FILE *f, json_each_fn each, void *data)
{
	char *text = print_or_die(obj);
	struct stream_out o = { f, true, { NULL, 0, 0 }, STRBUF_INIT };
	const char *rest = print_to_slot(f, text, &o.t.depth);
	int ret = rest ? each(put_streamed, &o, data) : 0;

	print_after_slot(f, rest);
	cJSON_free(text);
	cJSON_Delete(obj);
	free(o.t.buf);
	strbuf_release(&o.sb);
	return ret;
}

/*
 * json_print_nodes: chunks of nodes made in turn by this thread (the even
 * ones, printed as made) and a second (the odd ones, into one of two
 * buffers this thread prints in their turn). 10^4 escapes of a report
 * over 10^6 pairs were a fifth of its time on one core.
 */
#define NODES_CHUNK 128
struct nodes_job {
	size_t n, depth;
	json_node_fn node;
	void *data;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct strbuf out[2]; /* the second thread's chunks c: out[c / 2 % 2] */
	bool ready[2];        /* under lock: out[k] made, not yet printed */
};

/* Chunk c's nodes' text into sb. */
static void chunk_text(struct nodes_job *j, size_t c, struct node_text *t,
		       struct strbuf *sb)
{
	size_t end = (c + 1) * NODES_CHUNK < j->n ? (c + 1) * NODES_CHUNK : j->n;

	strbuf_reset(sb);
	for (size_t i = c * NODES_CHUNK; i < end; i++)
		node_add(t, j->node(i, j->data), i == 0, sb);
}

/* Wait until out[k] is ready (or, !ready: printed). */
static void wait_ready(struct nodes_job *j, size_t k, bool ready)
{
	pthread_mutex_lock(&j->lock);
	while (j->ready[k] != ready)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
}

static void set_ready(struct nodes_job *j, size_t k, bool ready)
{
	pthread_mutex_lock(&j->lock);
	j->ready[k] = ready;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

static void *odd_chunks(void *data)
{
	struct nodes_job *j = data;
	struct node_text t = { NULL, 0, j->depth };

	for (size_t c = 1; c * NODES_CHUNK < j->n; c += 2) {
		size_t k = c / 2 % 2;

		wait_ready(j, k, false);
		chunk_text(j, c, &t, &j->out[k]);
		set_ready(j, k, true);
	}
	free(t.buf);
	return NULL;
}

static void print_nodes(FILE *f, struct nodes_job *j)
{
	struct node_text t = { NULL, 0, j->depth };
	struct strbuf sb = STRBUF_INIT;
	pthread_t thread;
	bool two = j->n > NODES_CHUNK && !pthread_create(&thread, NULL, odd_chunks, j);

	for (size_t c = 0; c * NODES_CHUNK < j->n; c++) {
		size_t k = c / 2 % 2;

		if (c % 2 == 0 || !two) {
			chunk_text(j, c, &t, &sb);
			fwrite(sb.buf, 1, sb.len, f);
			continue;
		}
		wait_ready(j, k, true);
		fwrite(j->out[k].buf, 1, j->out[k].len, f);
		set_ready(j, k, false);
	}
	if (two)
		pthread_join(thread, NULL);
	free(t.buf);
	strbuf_release(&sb);
}

void json_print_nodes(cJSON *obj, FILE *f, size_t n, json_node_fn node, void *data)
{
	char *text = print_or_die(obj);
	struct nodes_job j = { .n = n, .node = node, .data = data,
			       .out = { STRBUF_INIT, STRBUF_INIT } };
	const char *rest = print_to_slot(f, text, &j.depth);

	if (rest) {
		pthread_mutex_init(&j.lock, NULL);
		pthread_cond_init(&j.cond, NULL);
		print_nodes(f, &j);
		pthread_cond_destroy(&j.cond);
		pthread_mutex_destroy(&j.lock);
	}
	print_after_slot(f, rest);
	strbuf_release(&j.out[0]);
	strbuf_release(&j.out[1]);
	cJSON_free(text);
	cJSON_Delete(obj);
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
