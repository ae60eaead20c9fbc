/*
 * The expat driver shared by the JUnit and Cobertura parsers: streams an
 * input through expat, stops on the first handler failure, and turns every
 * problem into one `input:line: reason` error.
 */
#ifndef TIADASH_INGEST_XML_H
#define TIADASH_INGEST_XML_H

#include "core/tiadash.h"
#include "core/input.h"

#include <expat.h>

/* Deeper nesting than this is refused (no report needs it). */
#define XML_MAX_DEPTH 10000
/* Bytes asked of the input at a time (more while a long token is open). */
#define XML_CHUNK (1u << 16)
/* One token (a start tag with its attributes, a comment) longer is refused. */
#define XML_TOKEN_MAX (16u << 20)
/* An attribute named in xml_reader.capped longer than this is refused. */
#define XML_VALUE_MAX (64u << 10)

typedef void (*xml_start_fn)(void *data, const char *el, const char **atts);
typedef void (*xml_end_fn)(void *data, const char *el);
typedef void (*xml_text_fn)(void *data, const char *s, int len);
/* A byte source: up to n bytes (fewer only at the end), 0 at the end, -1 on error. */
typedef ssize_t (*xml_read_fn)(void *ctx, char *buf, size_t n);

/* How deep xml_reader.track records the open elements' start tags. */
#define XML_TRACK_DEPTH 4

struct xml_reader {
	XML_Parser parser;
	struct input *in;
	void *data;
	xml_start_fn start;
	xml_end_fn end;
	xml_text_fn text; /* optional character-data handler */
	bool text_later;  /* text only between xml_want_text(true) and (false) */
	/*
	 * Attributes whose values are identities (test and file names), NULL-
	 * terminated: a value over XML_VALUE_MAX is refused with file:line
	 * before the start handler sees the element. NULL: none.
	 */
	const char *const *capped;
	bool has_dtd;    /* a DOCTYPE was seen (defaults, entities) */
	bool quiet;      /* a speculative parse: errors stop it without a message */
	/*
	 * track (set before xml_reader_begin): where the start tags of the
	 * open elements of the first XML_TRACK_DEPTH levels are in the bytes
	 * fed, whether a CDATA section is open, and whether the declaration
	 * names an encoding other than UTF-8 (see ingest/junit.c's split).
	 */
	bool track, in_cdata, not_utf8;
	struct xml_tag { uint64_t off, len; } tags[XML_TRACK_DEPTH];
	unsigned depth;  /* elements open */
	int status;      /* 0, -1 after xml_fail, or a callback's value */
	bool stopped;
	bool done;       /* the last bytes were parsed (or parsing failed) */
	uint64_t bytes;  /* bytes parsed, primed ones included */
	uint64_t fed;    /* bytes from xml_reader_feed's sources */
};

void xml_reader_init(struct xml_reader *xr, struct input *in, void *data,
		     xml_start_fn start, xml_end_fn end);
/* Parse the whole input; returns xr->status or -1 on malformed XML. */
int xml_reader_run(struct xml_reader *xr);

/*
 * The same in steps, for a parse fed from elsewhere than xr->in (the bytes
 * are still reported as xr->in's): begin creates the parser, prime parses
 * bytes that are not counted as fed (a context to start in), feed parses
 * what read gives until its end or until `limit` bytes were fed in all (0:
 * no limit; the parser then stays open for more), end frees the parser.
 * prime and feed return 0, -1 after a message (none when quiet), or the
 * handlers' status.
 */
void xml_reader_begin(struct xml_reader *xr);
int xml_reader_prime(struct xml_reader *xr, const char *buf, size_t len);
int xml_reader_feed(struct xml_reader *xr, xml_read_fn read, void *ctx, uint64_t limit);
/* An xml_read_fn reading a struct input_reader (input_read). */
ssize_t xml_read_input(void *reader, char *buf, size_t n);
/* Between feeds: the bytes expat holds back (an unfinished token). */
uint64_t xml_reader_pending(const struct xml_reader *xr);
void xml_reader_end(struct xml_reader *xr);
/* From a handler: report `input:line: reason` and stop (status -1). */
void xml_fail(struct xml_reader *xr, const char *fmt, ...) ATTR_FORMAT(2, 3);
/* From a handler: stop with a status already reported. */
void xml_stop(struct xml_reader *xr, int status);
/*
 * From a handler: hand character data to xr->text from now on (or stop).
 * Off by default when xr->text is set before the run with want_text false:
 * most of a report's text is white space no handler needs.
 */
void xml_want_text(struct xml_reader *xr, bool on);
/* Current line, for handlers that report through other paths. */
unsigned long xml_line(const struct xml_reader *xr);

/*
 * Is `name` the root element of the XML document starting with head (its
 * first XML_SNIFF_MAX bytes are looked at)? Skips a BOM, the declaration,
 * comments, processing instructions and a DOCTYPE; reads UTF-16 with a BOM.
 * For sniffing a bare file's format.
 */
#define XML_SNIFF_MAX 8192
/* Past a BOM, white space, the declaration, comments, PIs and a DOCTYPE. */
const char *xml_skip_prolog(const char *p, const char *end);
bool xml_root_is(const char *head, size_t len, const char *name);

#endif
