/* Cobertura XML coverage (coverage.py, gcovr, ReportGenerator, istanbul...). */
#include "core/tiadash.h"
#include "ingest/coverage.h"
#include "ingest/xml.h"

struct cob_state {
	struct xml_reader xr;
	cov_line_fn fn;
	void *data;
	int depth;
	bool seen_root;
	struct strlist sources;
	bool in_source;
	struct strbuf text;   /* character data of the open <source> */
	struct strlist paths; /* candidates of the open <class> */
	int class_depth;      /* 0: no open class */
};

static const char *attr(const char **atts, const char *key)
{
	for (; atts && *atts; atts += 2)
		if (!strcmp(atts[0], key))
			return atts[1];
	return NULL;
}

static char *slashes(char *s)
{
	for (char *c = s; *c; c++)
		if (*c == '\\')
			*c = '/';
	return s;
}

static void open_class(struct cob_state *st, const char **atts)
{
	const char *filename = attr(atts, "filename");

	if (!filename || !*filename) {
		xml_fail(&st->xr, "<class> without a filename attribute");
		return;
	}
	strlist_release(&st->paths);
	if (filename[0] != '/') {
		for (size_t i = 0; i < st->sources.nr; i++)
			strlist_push_owned(&st->paths,
					   slashes(path_join(st->sources.items[i], filename)));
	}
	strlist_push_owned(&st->paths, slashes(xstrdup(filename)));
	st->class_depth = st->depth;
}

static void line_element(struct cob_state *st, const char **atts)
{
	const char *number = attr(atts, "number"), *hits = attr(atts, "hits");
	int64_t n;
	double h;
	struct cov_line l;
	int rc;

	if (!number || !parse_int64(number, &n) || n < 1 || n > UINT32_MAX) {
		xml_fail(&st->xr, "<line> with an invalid number '%s'",
			 number ? number : "");
		return;
	}
	if (!hits || !parse_double(hits, &h) || h < 0) {
		xml_fail(&st->xr, "<line> with an invalid hits '%s'", hits ? hits : "");
		return;
	}
	l.paths = (const char *const *)st->paths.items;
	l.nr_paths = st->paths.nr;
	l.line = (uint32_t)n;
	l.hit = h > 0;
	rc = st->fn(&l, st->data);
	if (rc)
		xml_stop(&st->xr, rc);
}

static void on_start(void *data, const char *el, const char **atts)
{
	struct cob_state *st = data;

	st->depth++;
	if (!st->seen_root) {
		st->seen_root = true;
		if (strcmp(el, "coverage")) {
			xml_fail(&st->xr, "not a Cobertura report: the root element "
					  "is <%s>, not <coverage>", el);
			return;
		}
	}
	if (st->depth > XML_MAX_DEPTH)
		xml_fail(&st->xr, "elements nested deeper than %d", XML_MAX_DEPTH);
	else if (!strcmp(el, "source"))
		st->in_source = true, strbuf_reset(&st->text);
	else if (!strcmp(el, "class") && !st->class_depth)
		open_class(st, atts);
	else if (!strcmp(el, "line") && st->class_depth)
		line_element(st, atts);
}

static void on_end(void *data, const char *el)
{
	struct cob_state *st = data;

	if (!strcmp(el, "source") && st->in_source) {
		char *src = xstrdup_trimmed(st->text.buf, st->text.len);

		st->in_source = false;
		if (*src)
			strlist_push_owned(&st->sources, slashes(src));
		else
			free(src);
	} else if (st->class_depth == st->depth) {
		st->class_depth = 0;
	}
	st->depth--;
}

static void on_text(void *data, const XML_Char *s, int len)
{
	struct cob_state *st = data;

	if (st->in_source && st->text.len < 4096)
		strbuf_add(&st->text, s, (size_t)len);
}

/* A class's file name is stored (mapped onto the repository): capped. */
static const char *const cobertura_identity[] = { "filename", NULL };

int cobertura_parse(struct input *in, cov_line_fn fn, void *data)
{
	struct cob_state st = { .fn = fn, .data = data, .sources = STRLIST_INIT,
				.text = STRBUF_INIT, .paths = STRLIST_INIT };
	int ret;

	xml_reader_init(&st.xr, in, &st, on_start, on_end);
	st.xr.text = on_text;
	st.xr.capped = cobertura_identity;
	ret = xml_reader_run(&st.xr);
	strlist_release(&st.sources);
	strlist_release(&st.paths);
	strbuf_release(&st.text);
	return ret;
}

bool cobertura_sniff(const char *head, size_t len)
{
	return xml_root_is(head, len, "coverage");
}
