/* Streaming JUnit XML parser (expat): one callback per test case. */
#include "core/tiadash.h"
#include "ingest/junit.h"
#include "ingest/xml.h"

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
	s->tests++;
	s->failed += c.outcome == JUNIT_FAILED;
	s->errors += c.outcome == JUNIT_ERROR;
	s->flaky += c.outcome == JUNIT_FLAKY;
	s->skipped += c.outcome == JUNIT_SKIPPED;
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

int junit_parse(struct input *in, junit_case_fn fn, void *data,
		struct junit_stats *stats)
{
	struct junit_state st = { .fn = fn, .data = data, .stats = stats,
				  .suite = STRBUF_INIT, .name = STRBUF_INIT,
				  .message = STRBUF_INIT, .text = STRBUF_INIT,
				  .classname = STRBUF_INIT };
	int ret;

	xml_reader_init(&st.xr, in, &st, on_start, on_end);
	st.xr.capped = junit_identity;
	st.xr.text = on_text;
	st.xr.text_later = true; /* a failure's text only (open_detail) */
	ret = xml_reader_run(&st.xr);
	while (st.nr_suites)
		pop_suite(&st);
	free(st.suites);
	strbuf_release(&st.suite);
	strbuf_release(&st.name);
	strbuf_release(&st.message);
	strbuf_release(&st.text);
	strbuf_release(&st.classname);
	return ret;
}

bool junit_sniff(const char *head, size_t len)
{
	return xml_root_is(head, len, "testsuites") || xml_root_is(head, len, "testsuite") ||
	       xml_root_is(head, len, "testrun");
}
