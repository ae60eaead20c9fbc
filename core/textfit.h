/*
 * Text for people fits 80 columns (SPEC 8): a longer line is wrapped at
 * spaces with a hanging indent under the field it was in, and a word too
 * long for its line is cut with '~'. Markdown, JSON and CSV stay whole: only
 * the text format goes through here.
 *
 * The hanging indent of a wrapped line: under the command of a usage line
 * ("usage: tiadash show ..."), under the text of a "- " item, else under
 * the last field (text after two or more spaces) that starts before the
 * break ("escapes      13 unexplained ..." continues under "13").
 */
#ifndef TIADASH_CORE_TEXTFIT_H
#define TIADASH_CORE_TEXTFIT_H

#include "core/tiadash.h"
#include "core/util.h"

#define TEXT_WIDTH 80

/* Append text (any number of lines), each line fitted to width columns. */
void text_fit(struct strbuf *out, const char *text, size_t len, int width);

/*
 * From now until text_fit_stdout_end(), what is written to stdout is
 * fitted to TEXT_WIDTH, line by line. For a command's text format.
 */
void text_fit_stdout(void);
/* Flush and put stdout back; -1 when writing failed (errno says why). */
int text_fit_stdout_end(void);

#endif
