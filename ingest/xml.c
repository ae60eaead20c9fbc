/* Streaming expat driver with stop-on-first-error and file:line messages. */
#include "core/tiadash.h"
#include "ingest/xml.h"

#include <iconv.h>

/* An identity string (a test or file name) longer than this is refused. */
static bool too_long_value(struct xml_reader *xr, const XML_Char *el, const XML_Char **atts)
{
	for (const XML_Char **a = atts; xr->capped && *a; a += 2) {
		size_t len;

		for (const char *const *c = xr->capped; *c; c++) {
			if (strcmp(a[0], *c))
				continue;
			len = strlen(a[1]);
			if (len <= XML_VALUE_MAX)
				break;
			xml_fail(xr, "the %s attribute of <%.64s> is %zu bytes, longer "
				 "than the %u-byte limit", a[0], el, len, XML_VALUE_MAX);
			return true;
		}
	}
	return false;
}

/*
 * Can an attribute of this start tag be longer than XML_VALUE_MAX? Not when
 * the tag itself is under a quarter of it and no DTD can add defaults or
 * expand entities: a value, in UTF-8, is at most four bytes per byte of
 * its tag in any encoding expat reads. Most tags are short: the values of
 * a 10^6-case report are then not measured one by one.
 */
static bool may_exceed_cap(struct xml_reader *xr)
{
	int n = XML_GetCurrentByteCount(xr->parser);

	return xr->has_dtd || n <= 0 || (unsigned)n > XML_VALUE_MAX / 4;
}

static void start_cb(void *data, const XML_Char *el, const XML_Char **atts)
{
	struct xml_reader *xr = data;

	if (xr->stopped)
		return;
	if (xr->track && xr->depth < XML_TRACK_DEPTH) {
		xr->tags[xr->depth].off = (uint64_t)XML_GetCurrentByteIndex(xr->parser);
		xr->tags[xr->depth].len = (uint64_t)XML_GetCurrentByteCount(xr->parser);
	}
	xr->depth++;
	if (xr->capped && may_exceed_cap(xr) && too_long_value(xr, el, atts))
		return;
	xr->start(xr->data, el, atts);
}

static void doctype_cb(void *data, const XML_Char *name, const XML_Char *sysid,
		       const XML_Char *pubid, int has_internal_subset)
{
	UNUSED(name);
	UNUSED(sysid);
	UNUSED(pubid);
	UNUSED(has_internal_subset);
	((struct xml_reader *)data)->has_dtd = true;
}

static void end_cb(void *data, const XML_Char *el)
{
	struct xml_reader *xr = data;

	if (xr->stopped)
		return;
	xr->depth--;
	xr->end(xr->data, el);
}

static void text_cb(void *data, const XML_Char *s, int len)
{
	struct xml_reader *xr = data;

	if (!xr->stopped)
		xr->text(xr->data, s, len);
}

void xml_reader_init(struct xml_reader *xr, struct input *in, void *data,
		     xml_start_fn start, xml_end_fn end)
{
	memset(xr, 0, sizeof(*xr));
	xr->in = in;
	xr->data = data;
	xr->start = start;
	xr->end = end;
}

void xml_want_text(struct xml_reader *xr, bool on)
{
	XML_SetCharacterDataHandler(xr->parser, on && xr->text ? text_cb : NULL);
}

unsigned long xml_line(const struct xml_reader *xr)
{
	return (unsigned long)XML_GetCurrentLineNumber(xr->parser);
}

void xml_stop(struct xml_reader *xr, int status)
{
	if (xr->stopped)
		return;
	xr->stopped = true;
	xr->status = status;
	XML_StopParser(xr->parser, XML_FALSE);
}

/* error(), unless the reader is quiet (a speculative parse). */
static int say(const struct xml_reader *xr, const char *fmt, ...) ATTR_FORMAT(2, 3);
static int say(const struct xml_reader *xr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (xr->quiet)
		return -1;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	strbuf_release(&msg);
	return -1;
}

void xml_fail(struct xml_reader *xr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	if (xr->stopped)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	say(xr, "%s:%lu: %s", xr->in->name, xml_line(xr), msg.buf);
	strbuf_release(&msg);
	xml_stop(xr, -1);
}

/* What XML_ParseBuffer's status means: 0 to go on, or the error reported. */
static int parse_result(struct xml_reader *xr, enum XML_Status status, bool last)
{
	enum XML_Error code;

	if (status != XML_STATUS_ERROR)
		return xr->stopped ? xr->status : 0;
	if (xr->stopped)
		return xr->status;
	code = XML_GetErrorCode(xr->parser);
	if (xr->bytes == 0)
		return say(xr, "%s: empty file", xr->in->name);
	if (last && (code == XML_ERROR_NO_ELEMENTS ||
		     code == XML_ERROR_UNCLOSED_TOKEN ||
		     code == XML_ERROR_UNCLOSED_CDATA_SECTION ||
		     code == XML_ERROR_PARTIAL_CHAR))
		return say(xr, "%s:%lu: unexpected end of file (truncated?): %s",
			   xr->in->name, xml_line(xr), XML_ErrorString(code));
	return say(xr, "%s:%lu: malformed XML: %s", xr->in->name, xml_line(xr),
		   XML_ErrorString(code));
}

/*
 * Read the input straight into expat's buffer. expat 2.5 (Debian 12's; no
 * reparse deferral, which came in 2.6) rescans an unfinished token from
 * its start on every call, so a token spanning many fixed chunks (a 40 MB
 * attribute) cost quadratic time. Asking for at least as many new bytes as
 * the token already has doubles what each rescan covers: linear. A token
 * longer than XML_TOKEN_MAX is refused before it fills memory.
 */
int xml_reader_feed(struct xml_reader *xr, xml_read_fn read, void *ctx, uint64_t limit)
{
	size_t want = XML_CHUNK;

	while (!xr->done) {
		void *buf;
		ssize_t n;
		bool last;
		uint64_t pending;
		int ret;

		if (limit && limit - xr->fed < want)
			want = (size_t)(limit - xr->fed);
		if (!want)
			return 0; /* paused at limit, the parser open */
		buf = XML_GetBuffer(xr->parser, (int)want);
		if (!buf)
			die("out of memory reading '%s'", xr->in->name);
		n = read(ctx, buf, want);
		if (n < 0)
			return -1;
		last = (size_t)n < want;
		xr->bytes += (uint64_t)n;
		xr->fed += (uint64_t)n;
		xr->done = last;
		ret = parse_result(xr, XML_ParseBuffer(xr->parser, (int)n, last), last);
		if (ret || last) {
			xr->done = true;
			return ret;
		}
		/* Outside a handler, the byte index is where the unfinished token starts. */
		pending = xr->bytes - (uint64_t)XML_GetCurrentByteIndex(xr->parser);
		if (pending > XML_TOKEN_MAX) {
			xr->done = true;
			return say(xr, "%s:%lu: one XML token (a tag with its attributes, a "
				   "comment) is longer than %u bytes", xr->in->name,
				   xml_line(xr), XML_TOKEN_MAX);
		}
		want = pending > XML_CHUNK ? (size_t)pending : XML_CHUNK;
	}
	return 0;
}

uint64_t xml_reader_pending(const struct xml_reader *xr)
{
	return xr->bytes - (uint64_t)XML_GetCurrentByteIndex(xr->parser);
}

int xml_reader_prime(struct xml_reader *xr, const char *buf, size_t len)
{
	xr->bytes += len;
	return parse_result(xr, XML_Parse(xr->parser, buf, (int)len, XML_FALSE), false);
}

ssize_t xml_read_input(void *reader, char *buf, size_t n)
{
	return input_read(reader, buf, n);
}

static int feed(struct xml_reader *xr)
{
	struct input_reader r;
	int ret;

	if (input_open(xr->in, &r) < 0)
		return -1;
	ret = xml_reader_feed(xr, xml_read_input, &r, 0);
	input_close(&r);
	return ret;
}

/*
 * expat reads UTF-8, UTF-16, ISO-8859-1 and US-ASCII itself. Reports written
 * on Windows often declare a single-byte code page (windows-1252, cp850);
 * glibc's iconv gives expat the table for any such charset. Multi-byte
 * charsets stay refused ("unknown encoding").
 */
static int single_byte_encoding(void *data, const XML_Char *name, XML_Encoding *info)
{
	iconv_t cd = iconv_open("UTF-32LE", name);

	UNUSED(data);
	if (cd == (iconv_t)-1)
		return XML_STATUS_ERROR;
	for (int i = 0; i < 256; i++) {
		char in = (char)i, *ip = &in;
		unsigned char out[8], *op = out;
		size_t il = 1, ol = sizeof(out);

		iconv(cd, NULL, NULL, NULL, NULL);
		if (iconv(cd, &ip, &il, (char **)&op, &ol) == (size_t)-1 || ol != 4) {
			/* EINVAL: the start of a multi-byte sequence. */
			if (i < 0x80 || errno == EINVAL) {
				iconv_close(cd);
				return XML_STATUS_ERROR;
			}
			info->map[i] = -1;  /* undefined in this charset */
			continue;
		}
		info->map[i] = out[0] | out[1] << 8 | out[2] << 16 | (int)out[3] << 24;
	}
	iconv_close(cd);
	info->data = NULL;
	info->convert = NULL;
	info->release = NULL;
	return XML_STATUS_OK;
}

static void start_cdata_cb(void *data)
{
	((struct xml_reader *)data)->in_cdata = true;
}

static void end_cdata_cb(void *data)
{
	((struct xml_reader *)data)->in_cdata = false;
}

static void decl_cb(void *data, const XML_Char *version, const XML_Char *encoding,
		    int standalone)
{
	UNUSED(version);
	UNUSED(standalone);
	if (encoding && strcasecmp(encoding, "UTF-8"))
		((struct xml_reader *)data)->not_utf8 = true;
}

void xml_reader_begin(struct xml_reader *xr)
{
	xr->parser = XML_ParserCreate(NULL);
	if (!xr->parser)
		die("out of memory creating an XML parser");
	XML_SetUserData(xr->parser, xr);
	XML_SetUnknownEncodingHandler(xr->parser, single_byte_encoding, NULL);
	XML_SetElementHandler(xr->parser, start_cb, end_cb);
	XML_SetStartDoctypeDeclHandler(xr->parser, doctype_cb);
	if (xr->track) {
		XML_SetCdataSectionHandler(xr->parser, start_cdata_cb, end_cdata_cb);
		XML_SetXmlDeclHandler(xr->parser, decl_cb);
	}
	if (xr->text && !xr->text_later)
		XML_SetCharacterDataHandler(xr->parser, text_cb);
	/* Never fetch external entities or DTDs named by an artifact. */
	XML_SetParamEntityParsing(xr->parser, XML_PARAM_ENTITY_PARSING_NEVER);
}

void xml_reader_end(struct xml_reader *xr)
{
	XML_ParserFree(xr->parser);
	xr->parser = NULL;
}

int xml_reader_run(struct xml_reader *xr)
{
	int ret;

	xml_reader_begin(xr);
	ret = feed(xr);
	xml_reader_end(xr);
	return ret;
}

const char *xml_skip_prolog(const char *p, const char *end)
{
	if (end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
			p++;
		} else if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
			const char *c = memmem(p, (size_t)(end - p), "-->", 3);

			if (!c)
				return end;
			p = c + 3;
		} else if (end - p >= 9 && !memcmp(p, "<!DOCTYPE", 9)) {
			/*
			 * Hardening (issue 7): a DOCTYPE with an internal subset
			 * ("[<!ENTITY ...>]") ends at the '>' after its ']', not
			 * at the first '>'; bare reports with one were "not JUnit".
			 */
			const char *c = p + 9;

			while (c < end && *c != '>' && *c != '[')
				c++;
			if (c < end && *c == '[')
				c = memchr(c, ']', (size_t)(end - c));
			if (c)
				c = memchr(c, '>', (size_t)(end - c));
			if (!c)
				return end;
			p = c + 1;
		} else if (end - p >= 2 && (!memcmp(p, "<?", 2) || !memcmp(p, "<!", 2))) {
			const char *c = memchr(p, '>', (size_t)(end - p));

			if (!c)
				return end;
			p = c + 1;
		} else {
			break;
		}
	}
	return p;
}

/*
 * A UTF-16 head (with its BOM) narrowed to one byte per unit, non-ASCII
 * units as 0x80: enough to see the markup. Returns the length, 0 if the
 * head is not UTF-16.
 */
static size_t narrow_utf16(const char *head, size_t len, char *out)
{
	const unsigned char *u = (const unsigned char *)head;
	bool le = len >= 2 && u[0] == 0xff && u[1] == 0xfe;
	bool be = len >= 2 && u[0] == 0xfe && u[1] == 0xff;
	size_t n = 0;

	if (!le && !be)
		return 0;
	for (size_t i = 2; i + 1 < len; i += 2) {
		unsigned lo = le ? u[i] : u[i + 1], hi = le ? u[i + 1] : u[i];

		out[n++] = (char)(hi || lo >= 0x80 ? 0x80 : lo);
	}
	return n;
}

bool xml_root_is(const char *head, size_t len, const char *name)
{
	char narrow[XML_SNIFF_MAX / 2];
	size_t n = strlen(name), narrowed;
	const char *end, *p;

	if (len > XML_SNIFF_MAX)
		len = XML_SNIFF_MAX;
	narrowed = narrow_utf16(head, len, narrow);
	if (narrowed) {
		len = narrowed;
		head = narrow;
	}
	end = head + len;
	p = xml_skip_prolog(head, end);

	if (p >= end || *p != '<' || (size_t)(end - p) < n + 2)
		return false;
	p++;
	return !memcmp(p, name, n) &&
	       (p[n] == '>' || p[n] == '/' || p[n] == ' ' || p[n] == '\t' ||
		p[n] == '\r' || p[n] == '\n');
}
