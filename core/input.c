/* Reading inputs (files, bodies in memory or spilled to disk, streams) for ingest and the adapters. */
#include "core/tiadash.h"
#include "core/input.h"

#include <fcntl.h>
#include <unistd.h>

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

void input_from_stream(struct input *in, const char *name, const struct input_ops *ops,
		       void *ctx)
{
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name);
	in->ops = ops;
	in->ctx = ctx;
}

void input_release(struct input *in)
{
	free(in->name);
	free(in->path);
	free(in->data);
	if (in->ops)
		in->ops->free(in->ctx);
	memset(in, 0, sizeof(*in));
}

int input_open(struct input *in, struct input_reader *r)
{
	r->in = in;
	r->fd = -1;
	r->pos = 0;
	digest_init(&in->digest);
	if (in->ops)
		return in->ops->open(in->ctx, in->name);
	if (!in->path)
		return 0;
	r->fd = open_regular(in->path, in->name, in->no_follow ? O_NOFOLLOW : 0);
	return r->fd < 0 ? -1 : 0;
}

/* Up to n bytes from the file's position, or from off when it is not -1. */
static ssize_t read_full(int fd, char *buf, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = off < 0 ? read(fd, buf + got, n - got) :
			    pread(fd, buf + got, n - got, off + (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

ssize_t input_read(struct input_reader *r, char *buf, size_t n)
{
	struct input *in = r->in;
	ssize_t got;

	if (in->ops) {
		got = in->ops->read(in->ctx, buf, n, in->name);
	} else if (in->path) {
		got = read_full(r->fd, buf, n, -1);
		if (got < 0)
			return error("cannot read '%s': %s", in->name, strerror(errno));
	} else {
		got = (ssize_t)(n < in->len - r->pos ? n : in->len - r->pos);
		memcpy(buf, in->data + r->pos, (size_t)got);
		r->pos += (size_t)got;
	}
	if (got > 0)
		digest_add(&in->digest, buf, (size_t)got);
	return got;
}

ssize_t input_read_at(struct input_reader *r, char *buf, size_t n, uint64_t off)
{
	if (r->fd < 0 || off > (uint64_t)INT64_MAX) {
		errno = EINVAL;
		return -1;
	}
	return read_full(r->fd, buf, n, (off_t)off);
}

void input_close(struct input_reader *r)
{
	if (r->in->ops)
		r->in->ops->close(r->in->ctx);
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int input_peek(struct input *in, char *head, size_t size, size_t *n)
{
	struct input_reader r;
	struct digest keep = in->digest;
	ssize_t got = -1;

	*n = 0;
	if (input_open(in, &r) == 0) {
		got = input_read(&r, head, size);
		input_close(&r);
	}
	in->digest = keep; /* a peek is not a read */
	if (got < 0)
		return -1;
	*n = (size_t)got;
	return 0;
}

int input_read_chunks(struct input *in, chunk_fn fn, void *data)
{
	enum { CHUNK = 1 << 16 };
	struct input_reader r;
	char *buf;
	int ret = 0;

	if (!in->path && !in->ops) {
		/* In memory already: one chunk, no copy. */
		digest_init(&in->digest);
		digest_add(&in->digest, in->data, in->len);
		return fn(in->data, in->len, true, data);
	}
	if (input_open(in, &r) < 0)
		return -1;
	buf = xmalloc(CHUNK);
	for (;;) {
		ssize_t n = input_read(&r, buf, CHUNK);

		if (n < 0) {
			ret = -1;
			break;
		}
		ret = fn(buf, (size_t)n, n < CHUNK, data);
		if (ret || n < CHUNK)
			break;
	}
	free(buf);
	input_close(&r);
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

/* ---- spills --------------------------------------------------------------- */

struct spill {
	int fd;        /* -1 until the first byte */
	uint64_t end;  /* bytes written */
	int refs;
};

struct spill *spill_new(void)
{
	struct spill *sp = xcalloc(1, sizeof(*sp));

	sp->fd = -1;
	sp->refs = 1;
	return sp;
}

struct spill *spill_ref(struct spill *sp)
{
	__atomic_add_fetch(&sp->refs, 1, __ATOMIC_RELAXED);
	return sp;
}

/* Parsers on worker threads drop the last reference of a run's spill too. */
void spill_unref(struct spill *sp)
{
	if (!sp || __atomic_sub_fetch(&sp->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (sp->fd >= 0)
		close(sp->fd);
	free(sp);
}

/* An unlinked file in $TMPDIR (else /tmp), readable by this user only. */
static int spill_create(struct spill *sp)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	tmpl = xstrfmt("%s/tiadash-spill-XXXXXX", dir);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmpl);
	free(tmpl);
	if (fd < 0)
		return -1;
	sp->fd = fd;
	return 0;
}

int spill_body_add(struct spill_body *b, struct spill *sp, const char *buf, size_t len)
{
	uint64_t off = sp->end;
	size_t done = 0;

	if (!len)
		return 0;
	if (sp->fd < 0 && spill_create(sp) < 0)
		return -1;
	while (done < len) {
		ssize_t n = pwrite(sp->fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	sp->end += len;
	if (!b->sp)
		b->sp = spill_ref(sp);
	else if (b->sp != sp)
		BUG("one body in two spills");
	if (b->nr && b->ranges[b->nr - 1].off + b->ranges[b->nr - 1].len == off) {
		b->ranges[b->nr - 1].len += len;
	} else {
		ALLOC_GROW(b->ranges, b->nr + 1, b->alloc);
		b->ranges[b->nr].off = off;
		b->ranges[b->nr++].len = len;
	}
	b->len += len;
	return 0;
}

void spill_body_release(struct spill_body *b)
{
	spill_unref(b->sp);
	free(b->ranges);
	memset(b, 0, sizeof(*b));
}

FILE *spill_body_stream(const struct spill_body *b, uint64_t *off)
{
	int fd;
	FILE *f;

	if (b->nr != 1) {
		errno = EINVAL;
		return NULL;
	}
	fd = dup(b->sp->fd);
	f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f && fd >= 0)
		close(fd);
	*off = b->ranges[0].off;
	return f;
}

/* A spilled input: the body and where the read is in it. */
struct spill_reader {
	struct spill_body body;
	size_t range;
	uint64_t at; /* offset within the range */
};

static int spill_open(void *ctx, const char *name)
{
	struct spill_reader *sr = ctx;

	UNUSED(name);
	sr->range = 0;
	sr->at = 0;
	return 0;
}

static ssize_t spill_read(void *ctx, char *buf, size_t n, const char *name)
{
	struct spill_reader *sr = ctx;
	size_t got = 0;

	while (got < n && sr->range < sr->body.nr) {
		const struct spill_range *r = &sr->body.ranges[sr->range];
		uint64_t left = r->len - sr->at;
		size_t want = n - got < left ? n - got : (size_t)left;
		ssize_t k = pread(sr->body.sp->fd, buf + got, want, (off_t)(r->off + sr->at));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return error("cannot read the download of '%s' back from its "
				     "temporary file: %s", name,
				     k < 0 ? strerror(errno) : "it is shorter");
		got += (size_t)k;
		sr->at += (uint64_t)k;
		if (sr->at == r->len) {
			sr->range++;
			sr->at = 0;
		}
	}
	return (ssize_t)got;
}

static void spill_close(void *ctx)
{
	UNUSED(ctx);
}

static void spill_free(void *ctx)
{
	struct spill_reader *sr = ctx;

	spill_body_release(&sr->body);
	free(sr);
}

static const struct input_ops spill_ops = { spill_open, spill_read, spill_close, spill_free };

void input_from_spill(struct input *in, const char *name, struct spill_body *b)
{
	struct spill_reader *sr = xcalloc(1, sizeof(*sr));

	sr->body = *b;
	memset(b, 0, sizeof(*b));
	input_from_stream(in, name, &spill_ops, sr);
}

void input_share_spill(struct input *in, const char *name, const struct input *from)
{
	const struct spill_reader *src = from->ctx;
	struct spill_body copy = SPILL_BODY_INIT;

	if (from->ops != &spill_ops)
		BUG("sharing an input that is not spilled");
	if (src->body.sp) {
		copy = src->body;
		copy.sp = spill_ref(src->body.sp);
		copy.ranges = xmemdup(src->body.ranges, src->body.nr * sizeof(*copy.ranges));
		copy.alloc = copy.nr;
	}
	input_from_spill(in, name, &copy);
}
