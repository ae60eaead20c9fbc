/* Streaming JUnit XML parser (expat): one callback per test case. */
#include "core/tiadash.h"
#include "ingest/junit.h"
#include "ingest/xml.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

struct suite_frame {
	int depth;
	char *file, *name;
};

struct junit_state {
	struct xml_reader xr;
	junit_case_fn fn;
	void *data;
	struct junit_stats *stats;
	int depth;
	bool seen_root;
	struct suite_frame *suites;
	size_t nr_suites, alloc_suites;
	/* The open test case (case_depth 0: none). */
	int case_depth;
	struct strbuf suite, name;
	/*
	 * Where suite came from (junit_case): it is the file attribute when
	 * has_file, else the classname when has_classname; classname holds
	 * the classname beside a file attribute; outer is the
	 * enclosing suite's file or name (its frame outlives the case).
	 */
	bool has_file, has_classname;
	struct strbuf classname;
	const char *outer;
	bool failed, errored, flaky, skipped;
	/* Its first failure or error: message and text (fail_depth 0: none open). */
	int fail_depth;
	bool has_detail;
	struct strbuf message, text;
};

static const char *attr(const char **atts, const char *key)
{
	for (; atts && *atts; atts += 2)
		if (!strcmp(atts[0], key))
			return atts[1];
	return NULL;
}

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

static void push_suite(struct junit_state *st, const char **atts)
{
	struct suite_frame *f;
	const char *file = nonempty(attr(atts, "file"));
	const char *name = attr(atts, "name");

	ALLOC_GROW(st->suites, st->nr_suites + 1, st->alloc_suites);
	f = &st->suites[st->nr_suites++];
	f->depth = st->depth;
	f->file = file ? xstrdup(file) : NULL;
	f->name = xstrdup(name ? name : "");
}

static void pop_suite(struct junit_state *st)
{
	struct suite_frame *f = &st->suites[--st->nr_suites];

	free(f->file);
	free(f->name);
}

/*
 * googletest marks a disabled case status="notrun" (result="suppressed"),
 * ctest and Boost.Test status="disabled", Pester status="Skipped", some of
 * them without a <skipped> child; Eclipse's <testrun> export ignored="true".
 */
static bool skipped_by_attribute(const char *status, const char *result, const char *ignored)
{
	static const char *const words[] = { "notrun", "disabled", "skipped", "suppressed" };

	if (ignored && !strcmp(ignored, "true"))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if ((status && !strcasecmp(status, words[i])) ||
		    (result && !strcasecmp(result, words[i])))
			return true;
	return false;
}

/* The attributes of a <testcase> that matter, in one pass (the first of each wins, as attr()). */
struct case_atts {
	const char *file, *classname, *name, *status, *result, *ignored;
};

static void read_case_atts(const char **atts, struct case_atts *ca)
{
	memset(ca, 0, sizeof(*ca));
	for (; atts && *atts; atts += 2) {
		const char *k = atts[0], **slot = NULL;

		switch (*k) {
		case 'f': slot = !strcmp(k, "file") ? &ca->file : NULL; break;
		case 'c': slot = !strcmp(k, "classname") ? &ca->classname : NULL; break;
		case 'n': slot = !strcmp(k, "name") ? &ca->name : NULL; break;
		case 's': slot = !strcmp(k, "status") ? &ca->status : NULL; break;
		case 'r': slot = !strcmp(k, "result") ? &ca->result : NULL; break;
		case 'i': slot = !strcmp(k, "ignored") ? &ca->ignored : NULL; break;
		}
		if (slot && !*slot)
			*slot = atts[1];
	}
}

static void open_case(struct junit_state *st, const char **atts)
{
	struct case_atts ca;
	const char *file, *classname, *outer = NULL, *key;

	read_case_atts(atts, &ca);
	file = nonempty(ca.file);
	classname = nonempty(ca.classname);
	if (st->nr_suites) {
		const struct suite_frame *f = &st->suites[st->nr_suites - 1];

		outer = f->file ? f->file : f->name;
	}
	key = file ? file : classname ? classname : outer;
	st->has_file = file != NULL;
	st->has_classname = classname != NULL;
	strbuf_reset(&st->classname);
	if (file && classname)
		strbuf_addstr(&st->classname, classname);
	st->outer = outer ? outer : "";
	strbuf_reset(&st->suite);
	strbuf_addstr(&st->suite, key ? key : "");
	strbuf_reset(&st->name);
	strbuf_addstr(&st->name, ca.name ? ca.name : "");
	st->case_depth = st->depth;
	st->failed = st->errored = st->flaky = false;
	st->skipped = skipped_by_attribute(ca.status, ca.result, ca.ignored);
	st->has_detail = false;
	strbuf_reset(&st->message);
	strbuf_reset(&st->text);
}

/* The first failure or error keeps its message; its text follows (on_text). */
static void open_detail(struct junit_state *st, const char **atts)
{
	const char *message = attr(atts, "message");

	if (st->has_detail)
		return;
	st->has_detail = true;
	st->fail_depth = st->depth;
	xml_want_text(&st->xr, true);
	if (message)
		strbuf_add(&st->message, message, strnlen(message, JUNIT_TEXT_MAX));
}

static void on_text(void *data, const char *s, int len)
{
	struct junit_state *st = data;
	size_t room = JUNIT_TEXT_MAX - st->text.len;

	if (!st->fail_depth || len <= 0 || !room)
		return;
	strbuf_add(&st->text, s, (size_t)len < room ? (size_t)len : room);
}

static void case_child(struct junit_state *st, const char *el, const char **atts)
{
	if (!strcmp(el, "failure")) {
		st->failed = true;
		open_detail(st, atts);
	} else if (!strcmp(el, "error")) {
		st->errored = true;
		open_detail(st, atts);
	} else if (!strcmp(el, "skipped")) {
		st->skipped = true;
	} else if (!strcmp(el, "flakyFailure") || !strcmp(el, "flakyError") ||
		   !strcmp(el, "rerunFailure") || !strcmp(el, "rerunError")) {
		st->flaky = true;
	}
}

static void count_case(struct junit_stats *s, enum junit_outcome outcome)
{
	s->tests++;
	s->failed += outcome == JUNIT_FAILED;
	s->errors += outcome == JUNIT_ERROR;
	s->flaky += outcome == JUNIT_FLAKY;
	s->skipped += outcome == JUNIT_SKIPPED;
}

static int close_case(struct junit_state *st)
{
	struct junit_case c = { .suite = st->suite.buf, .name = st->name.buf,
				.outcome = JUNIT_PASSED,
				.file = st->has_file ? st->suite.buf : "",
				.classname = st->has_file ? st->classname.buf :
					     st->has_classname ? st->suite.buf : "",
				.suite_key = st->outer };
	struct junit_stats *s = st->stats;

	if (st->failed || st->errored) {
		c.outcome = st->failed ? JUNIT_FAILED : JUNIT_ERROR;
		c.message = st->message.buf;
		c.text = st->text.buf;
	} else if (st->flaky) {
		c.outcome = JUNIT_FLAKY;
	} else if (st->skipped) {
		c.outcome = JUNIT_SKIPPED;
	}
	count_case(s, c.outcome);
	st->case_depth = 0;
	return st->fn ? st->fn(&c, st->data) : 0;
}

static void on_start(void *data, const char *el, const char **atts)
{
	struct junit_state *st = data;

	st->depth++;
	if (!st->seen_root) {
		st->seen_root = true;
		/* <testrun>: what Eclipse's JUnit view exports. */
		if (strcmp(el, "testsuites") && strcmp(el, "testsuite") &&
		    strcmp(el, "testrun")) {
			xml_fail(&st->xr, "not a JUnit report: the root element is "
					  "<%s>, not <testsuites>, <testsuite> or <testrun>", el);
			return;
		}
	}
	if (st->depth > XML_MAX_DEPTH) {
		xml_fail(&st->xr, "elements nested deeper than %d", XML_MAX_DEPTH);
		return;
	}
	if (st->case_depth) {
		if (st->depth == st->case_depth + 1)
			case_child(st, el, atts);
	} else if (!strcmp(el, "testsuite")) {
		push_suite(st, atts);
	} else if (!strcmp(el, "testcase")) {
		open_case(st, atts);
	}
}

static void on_end(void *data, const char *el)
{
	struct junit_state *st = data;
	int rc;

	UNUSED(el);
	if (st->fail_depth == st->depth) {
		st->fail_depth = 0;
		xml_want_text(&st->xr, false);
	}
	if (st->case_depth && st->depth == st->case_depth) {
		rc = close_case(st);
		if (rc)
			xml_stop(&st->xr, rc);
	} else if (!st->case_depth && st->nr_suites &&
		   st->suites[st->nr_suites - 1].depth == st->depth) {
		pop_suite(st);
	}
	st->depth--;
}

/* What a test's identity is made of: refused when absurdly long. */
static const char *const junit_identity[] = { "name", "classname", "file", NULL };

static void state_init(struct junit_state *st, struct input *in, junit_case_fn fn,
		       void *data, struct junit_stats *stats)
{
	*st = (struct junit_state){ .fn = fn, .data = data, .stats = stats,
				    .suite = STRBUF_INIT, .name = STRBUF_INIT,
				    .message = STRBUF_INIT, .text = STRBUF_INIT,
				    .classname = STRBUF_INIT };
	xml_reader_init(&st->xr, in, st, on_start, on_end);
	st->xr.capped = junit_identity;
	st->xr.text = on_text;
	st->xr.text_later = true; /* a failure's text only (open_detail) */
}

static void state_release(struct junit_state *st)
{
	while (st->nr_suites)
		pop_suite(st);
	free(st->suites);
	strbuf_release(&st->suite);
	strbuf_release(&st->name);
	strbuf_release(&st->message);
	strbuf_release(&st->text);
	strbuf_release(&st->classname);
}

/*
 * A large report on disk is parsed in two halves at once, by two expat
 * parsers, when its second half can be proven to parse the same alone:
 *
 * The split point p is a `<testcase` tag past the middle. The second parser
 * starts from a guess of the elements open at p (the root's start tag and
 * the last `<testsuite` tag before p, copied byte for byte) and parses from
 * p to the end, quietly, recording its cases. The first parser parses up to
 * p and checks the guess: at p it has consumed every byte (no token runs
 * across p), no CDATA section is open, no DOCTYPE was seen (no defaults, no
 * entities), the document is UTF-8, and the elements open are exactly the
 * guessed start tags (same offsets, same lengths, so the same bytes). Then
 * expat's state at p, for everything that decides what follows (open
 * elements with their attributes, content mode, encoding), is the second
 * parser's after its guess, and so is the JUnit state (a function of the
 * open elements between two cases): the second parser produced the cases
 * the first would have. They are replayed to the callback in order.
 * Otherwise, or when the second parser failed (malformed XML, a limit, its
 * record budget), the first parser simply goes on from p: messages and
 * results are always the sequential parse's.
 */
#define SPLIT_MIN (8u << 20)          /* smaller reports: one parser */
#define SPLIT_WINDOW (1u << 20)       /* how far the guess looks around p */
#define SPLIT_RECORDS_MAX (24u << 20) /* the second half's cases, recorded */
#define SPLIT_AT_PERCENT 47

struct split {
	struct input_reader *r;  /* the first half's: a file's */
	uint64_t p, size, pos;   /* pread source: the second half */
	struct xml_tag guess[2]; /* the start tags open at p, in the file */
	unsigned nr_guess;
	struct strbuf prefix;    /* their bytes */
	/* The second parser's cases: see record_case. */
	struct strbuf records;
	size_t last[4];          /* offsets of the suite, file, classname, suite key */
	bool overflow, ok;
	atomic_bool cancel;
	struct input *in;
};

static ssize_t read_half(void *ctx, char *buf, size_t n)
{
	struct split *sp = ctx;
	ssize_t got;

	/* Cancelled (the guess failed): stop within a chunk, whatever the chunk holds. */
	if (atomic_load_explicit(&sp->cancel, memory_order_relaxed))
		return -1;
	got = input_read_at(sp->r, buf, n, sp->pos);

	if (got > 0)
		sp->pos += (uint64_t)got;
	return got;
}

static bool is_tag_end(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/';
}

static bool is_tag(const char *buf, size_t len, size_t i, const char *name, size_t n)
{
	return buf[i] == '<' && len - i > n + 1 && !memcmp(buf + i + 1, name, n) &&
	       is_tag_end(buf[i + 1 + n]);
}

/* The first or last `<name` tag opening in buf[0, len) (-1: none). */
static ssize_t find_tag(const char *buf, size_t len, const char *name, bool last)
{
	size_t n = strlen(name);

	if (last) {
		for (size_t i = len; i-- > 0;)
			if (is_tag(buf, len, i, name, n))
				return (ssize_t)i;
	} else {
		for (size_t i = 0; i < len; i++)
			if (is_tag(buf, len, i, name, n))
				return (ssize_t)i;
	}
	return -1;
}

/* Where the tag starting at buf[at] ends (its '>' + 1), 0 when not in buf or empty (<x/>). */
static size_t tag_end(const char *buf, size_t len, size_t at)
{
	const char *gt = memchr(buf + at, '>', len - at);

	if (!gt || gt[-1] == '/')
		return 0;
	return (size_t)(gt - buf) + 1;
}

/* Choose p and guess what is open there; false: parse in one pass. */
static bool split_guess(struct split *sp)
{
	char *buf = xmalloc(SPLIT_WINDOW);
	const char *root;
	ssize_t n, at;
	size_t end;
	uint64_t from, mid;
	bool ok = false;

	/* The root start tag. */
	n = input_read_at(sp->r, buf, XML_SNIFF_MAX, 0);
	/* NUL bytes: UTF-16 (what the second parser would not read alike). */
	if (n <= 0 || memchr(buf, '\0', (size_t)n))
		goto out;
	root = xml_skip_prolog(buf, buf + n);
	if (root >= buf + n || *root != '<' || !(end = tag_end(buf, (size_t)n, (size_t)(root - buf))))
		goto out;
	sp->guess[0].off = (uint64_t)(root - buf);
	sp->guess[0].len = end - (size_t)(root - buf);
	strbuf_add(&sp->prefix, root, sp->guess[0].len);
	sp->nr_guess = 1;
	/*
	 * A <testcase a little before the middle: the first half's parser also
	 * starts later (store, repository) and hands its cases on at once; the
	 * second half's are handed on after it: both halves end together there.
	 */
	mid = sp->size / 100 * SPLIT_AT_PERCENT;
	n = input_read_at(sp->r, buf, SPLIT_WINDOW, mid);
	if (n <= 0 || (at = find_tag(buf, (size_t)n, "testcase", false)) < 0)
		goto out;
	sp->p = mid + (uint64_t)at;
	/* The last <testsuite before it, when it is not the root. */
	from = sp->p > SPLIT_WINDOW ? sp->p - SPLIT_WINDOW : 0;
	n = input_read_at(sp->r, buf, (size_t)(sp->p - from), from);
	if (n != (ssize_t)(sp->p - from))
		goto out;
	at = find_tag(buf, (size_t)n, "testsuite", true);
	if (at >= 0 && from + (uint64_t)at > sp->guess[0].off) {
		if (!(end = tag_end(buf, (size_t)n, (size_t)at)))
			goto out;
		sp->guess[1].off = from + (uint64_t)at;
		sp->guess[1].len = end - (size_t)at;
		strbuf_add(&sp->prefix, buf + at, sp->guess[1].len);
		sp->nr_guess = 2;
	}
	ok = true;
out:
	free(buf);
	return ok;
}

/*
 * A recorded case: one byte (the outcome in bits 0-2; bits 3-6: the suite,
 * file, classname and suite key differ from the last case's and follow;
 * bit 7: the message and text follow), then those strings and the name,
 * each NUL-terminated (XML text holds no NUL).
 */
static void record_str(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s) + 1);
}

static int record_case(const struct junit_case *c, void *data)
{
	struct split *sp = data;
	const char *fields[4] = { c->suite, c->file, c->classname, c->suite_key };
	size_t head = sp->records.len;
	unsigned char bits = (unsigned char)c->outcome;
	bool first = head == 0;

	if (atomic_load_explicit(&sp->cancel, memory_order_relaxed))
		return 1;
	strbuf_addch(&sp->records, 0);
	for (int i = 0; i < 4; i++) {
		if (!first && !strcmp(sp->records.buf + sp->last[i], fields[i]))
			continue;
		bits |= (unsigned char)(1u << (3 + i));
		sp->last[i] = sp->records.len;
		record_str(&sp->records, fields[i]);
	}
	record_str(&sp->records, c->name);
	if (c->message) {
		bits |= 0x80;
		record_str(&sp->records, c->message);
		record_str(&sp->records, c->text);
	}
	sp->records.buf[head] = (char)bits;
	if (sp->records.len > SPLIT_RECORDS_MAX) {
		sp->overflow = true;
		return 1;
	}
	return 0;
}

static void *parse_second_half(void *arg)
{
	struct split *sp = arg;
	struct junit_stats stats = { 0 };
	struct junit_state st;
	int ret;

	state_init(&st, sp->in, record_case, sp, &stats);
	/*
	 * The records' buffer at once at the size it may reach (no more than
	 * the half's bytes, no more than the budget): grown step by step, an
	 * allocator that copies a block to grow it (mimalloc: glibc's moves
	 * its pages) kept every old copy for a while, 28 MB more at the peak
	 * of a 200 MB report.
	 */
	strbuf_grow(&sp->records, sp->size - sp->p < SPLIT_RECORDS_MAX ? sp->size - sp->p
								  : SPLIT_RECORDS_MAX);
	st.xr.quiet = true;
	xml_reader_begin(&st.xr);
	sp->pos = sp->p;
	ret = xml_reader_prime(&st.xr, sp->prefix.buf, sp->prefix.len);
	if (!ret)
		ret = xml_reader_feed(&st.xr, read_half, sp, 0);
	sp->ok = !ret && st.xr.done && !sp->overflow;
	xml_reader_end(&st.xr);
	state_release(&st);
	return NULL;
}

/* Is the first parser, paused at p, where the second one started? */
static bool guess_holds(const struct junit_state *st, const struct split *sp)
{
	const struct xml_reader *xr = &st->xr;

	if (xr->stopped || xr->done || xr->fed != sp->p || xml_reader_pending(xr) ||
	    xr->in_cdata || xr->has_dtd || xr->not_utf8 || st->case_depth ||
	    xr->depth != sp->nr_guess)
		return false;
	for (unsigned i = 0; i < sp->nr_guess; i++)
		if (xr->tags[i].off != sp->guess[i].off || xr->tags[i].len != sp->guess[i].len)
			return false;
	return true;
}

/* The second half's cases to the callback, as the first parser would have given them. */
static int replay(struct split *sp, junit_case_fn fn, void *data, struct junit_stats *stats)
{
	const char *p = sp->records.buf, *end = p + sp->records.len;
	const char *fields[4] = { "", "", "", "" };

	while (p < end) {
		unsigned char bits = (unsigned char)*p++;
		struct junit_case c = { .outcome = (enum junit_outcome)(bits & 7) };
		int rc;

		for (int i = 0; i < 4; i++)
			if (bits & (1u << (3 + i))) {
				fields[i] = p;
				p += strlen(p) + 1;
			}
		c.suite = fields[0];
		c.file = fields[1];
		c.classname = fields[2];
		c.suite_key = fields[3];
		c.name = p;
		p += strlen(p) + 1;
		if (bits & 0x80) {
			c.message = p;
			p += strlen(p) + 1;
			c.text = p;
			p += strlen(p) + 1;
		}
		count_case(stats, c.outcome);
		if (fn && (rc = fn(&c, data)))
			return rc;
	}
	return 0;
}

/* The rest of the input through its reader: its digest covers every byte. */
static int drain(struct input_reader *r)
{
	char *buf = xmalloc(XML_CHUNK * 16);
	ssize_t n;

	while ((n = input_read(r, buf, XML_CHUNK * 16)) > 0)
		;
	free(buf);
	return n < 0 ? -1 : 0;
}

static bool may_split(struct input *in, struct input_reader *r, struct split *sp)
{
	struct stat stbuf;

	if (!in->path || in->ops || r->fd < 0 || fstat(r->fd, &stbuf) ||
	    stbuf.st_size < SPLIT_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return false;
	sp->r = r;
	sp->size = (uint64_t)stbuf.st_size;
	sp->in = in;
	return split_guess(sp);
}

/* Parse a split input: the first half here, the second on a thread (see above). */
static int parse_split(struct junit_state *st, struct input_reader *r, struct split *sp)
{
	pthread_t thread;
	int ret;

	if (pthread_create(&thread, NULL, parse_second_half, sp))
		return xml_reader_feed(&st->xr, xml_read_input, r, 0);
	ret = xml_reader_feed(&st->xr, xml_read_input, r, sp->p);
	if (ret || !guess_holds(st, sp)) {
		atomic_store(&sp->cancel, true);
		pthread_join(thread, NULL);
		strbuf_release(&sp->records);
		return ret ? ret : xml_reader_feed(&st->xr, xml_read_input, r, 0);
	}
	ret = drain(r);
	pthread_join(thread, NULL);
	if (ret)
		return ret;
	if (sp->ok)
		return replay(sp, st->fn, st->data, st->stats);
	/* The second half did not parse alone (see above): read it again here. */
	strbuf_release(&sp->records);
	sp->pos = sp->p;
	return xml_reader_feed(&st->xr, read_half, sp, 0);
}

int junit_parse(struct input *in, junit_case_fn fn, void *data,
		struct junit_stats *stats)
{
	struct junit_state st;
	struct input_reader r;
	struct split sp = { .prefix = STRBUF_INIT, .records = STRBUF_INIT };
	int ret;

	state_init(&st, in, fn, data, stats);
	if (input_open(in, &r) < 0) {
		ret = -1;
	} else {
		bool split = may_split(in, &r, &sp);

		st.xr.track = split;
		xml_reader_begin(&st.xr);
		ret = split ? parse_split(&st, &r, &sp) :
			      xml_reader_feed(&st.xr, xml_read_input, &r, 0);
		xml_reader_end(&st.xr);
		input_close(&r);
	}
	strbuf_release(&sp.prefix);
	strbuf_release(&sp.records);
	state_release(&st);
	return ret;
}

bool junit_sniff(const char *head, size_t len)
{
	return xml_root_is(head, len, "testsuites") || xml_root_is(head, len, "testsuite") ||
	       xml_root_is(head, len, "testrun");
}
