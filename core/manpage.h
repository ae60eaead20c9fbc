/*
 * The manual in the binary: man/tiadash.1 is compiled in (Makefile: the
 * generated manpage.c), and `tiadash help COMMAND` prints that command's
 * section as text, so no man-db (nor groff) is needed to read it.
 *
 * The renderer knows the roff the page is written in, no more: .SH .SS
 * .PP .LP .P .TP .IP .RS .RE .nf .fi .EX .EE .br .sp, the font macros
 * .B .I .BR .IR .BI .RI .RB .IB, \f font escapes, \- \e \\ \& and the
 * named characters \(aq \(dq \(em \(mi \(bu. Text is filled to the width,
 * man's indents: section text 7 columns in, a .TP body 7 more.
 */
#ifndef TIADASH_CORE_MANPAGE_H
#define TIADASH_CORE_MANPAGE_H

#include "core/tiadash.h"
#include "core/util.h"

/* The roff source of man/tiadash.1 (generated into the build). */
extern const char tiadash_man_page[];

/*
 * Render the section named `topic` to out, width columns wide: a command
 * ("report": its .SS under COMMANDS) or a section title, any of its words
 * will do ("keys" for DASHBOARD KEYS), case ignored. 0, or 1 when the page
 * has no such section.
 */
int man_render_topic(struct strbuf *out, const char *page, const char *topic, int width);

/* The section titles (.SH) of the page, for `tiadash help`'s list. */
void man_topics(const char *page, struct strlist *out);

#endif
