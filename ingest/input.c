/* Chunked reading of ingest inputs (files or in-memory bodies). */
#include "core/tiadash.h"
#include "ingest/input.h"

void input_from_file(struct input *in, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(path);
	in->path = xstrdup(path);
}

void input_from_memory(struct input *in, const char *name, char *data, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name);
	in->data = data;
	in->len = len;
}

void input_release(struct input *in)
{
	free(in->name);
	free(in->path);
	free(in->data);
	memset(in, 0, sizeof(*in));
}

static int memory_chunks(struct input *in, chunk_fn fn, void *data)
{
	return fn(in->data, in->len, true, data);
}

int input_read_chunks(struct input *in, chunk_fn fn, void *data)
{
	enum { CHUNK = 1 << 16 };
	char *buf;
	FILE *f;
	int ret = 0;

	digest_init(&in->digest);
	if (!in->path) {
		digest_add(&in->digest, in->data, in->len);
		return memory_chunks(in, fn, data);
	}
	f = fopen(in->path, "rb");
	if (!f)
		return error("cannot open '%s': %s", in->name, strerror(errno));
	buf = xmalloc(CHUNK);
	for (;;) {
		size_t n = fread(buf, 1, CHUNK, f);
		bool last = n < CHUNK;

		if (last && ferror(f)) {
			ret = error("cannot read '%s': %s", in->name, strerror(errno));
			break;
		}
		digest_add(&in->digest, buf, n);
		ret = fn(buf, n, last, data);
		if (ret || last)
			break;
	}
	free(buf);
	fclose(f);
	return ret;
}

struct read_all {
	struct strbuf *sb;
	size_t limit;
	const char *name;
};

static int append_chunk(const char *buf, size_t len, bool last, void *data)
{
	struct read_all *ra = data;

	UNUSED(last);
	if (ra->sb->len + len > ra->limit)
		return error("'%s' is larger than the %zu-byte limit", ra->name,
			     ra->limit);
	strbuf_add(ra->sb, buf, len);
	return 0;
}

int input_read_all(struct input *in, struct strbuf *sb, size_t limit)
{
	struct read_all ra = { sb, limit, in->name };

	return input_read_chunks(in, append_chunk, &ra);
}

struct line_state {
	struct input *in;
	line_fn fn;
	void *data;
	struct strbuf line;
	int lineno;
};

static int emit_line(struct line_state *ls)
{
	size_t n = ls->line.len;

	ls->lineno++;
	if (n && ls->line.buf[n - 1] == '\r')
		strbuf_setlen(&ls->line, --n);
	if (memchr(ls->line.buf, '\0', n))
		return error("%s:%d: binary data (a NUL byte), not a text file",
			     ls->in->name, ls->lineno);
	return ls->fn(ls->line.buf, n, ls->lineno, ls->data);
}

static int split_lines(const char *buf, size_t len, bool last, void *data)
{
	struct line_state *ls = data;
	const char *end = buf + len;
	int ret;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', (size_t)(end - buf));
		size_t n = nl ? (size_t)(nl - buf) : (size_t)(end - buf);

		if (ls->line.len + n > INPUT_LIST_LINE_LIMIT)
			return error("%s:%d: line longer than %u bytes", ls->in->name,
				     ls->lineno + 1, INPUT_LIST_LINE_LIMIT);
		strbuf_add(&ls->line, buf, n);
		buf += n;
		if (!nl)
			break;
		buf++;
		ret = emit_line(ls);
		strbuf_reset(&ls->line);
		if (ret)
			return ret;
	}
	if (last && ls->line.len)
		return emit_line(ls);
	return 0;
}

int input_read_lines(struct input *in, line_fn fn, void *data)
{
	struct line_state ls = { in, fn, data, STRBUF_INIT, 0 };
	int ret = input_read_chunks(in, split_lines, &ls);

	strbuf_release(&ls.line);
	return ret;
}
