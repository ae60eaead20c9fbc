/*
 * Untrusted strings (test names, paths, commit subjects, reasons) pass through
 * here before they reach a terminal, a markdown document, a CSV cell, JSON
 * or an HTML page.
 */
#ifndef TIADASH_CORE_SANITIZE_H
#define TIADASH_CORE_SANITIZE_H

#include "core/tiadash.h"
#include "core/util.h"

/*
 * Append s[0..len) to sb with every control character (C0, DEL, C1), every
 * bidi embedding/override/isolate (U+202A-E, U+2066-9) and every byte that is
 * not valid UTF-8 written as visible `\xNN` escapes; printable UTF-8 passes
 * unchanged.
 */
void sanitize_text(struct strbuf *sb, const char *s, size_t len);
/* sanitize_text of a NUL-terminated string into a fresh string; caller frees. */
char *sanitized(const char *s);
/*
 * Append s sanitized and cut to max characters: when longer, its first
 * characters then ellipsis ("..." or "\u2026"), max characters in all
 * (nothing when max cannot hold the ellipsis).
 */
void sanitize_cut(struct strbuf *sb, const char *s, size_t max, const char *ellipsis);
/* The characters (code points) s shows once sanitized: a terminal's columns for most text. */
size_t sanitized_chars(const char *s);

/* The characters of UTF-8 s[0, len): its bytes but the continuation bytes. */
size_t utf8_chars(const char *s, size_t len);
/* How many bytes of s[0, len) its first n characters take (whole characters). */
size_t utf8_prefix(const char *s, size_t len, size_t n);

/*
 * Append s as markdown inline text: sanitized, then `\ ` * _ | [ ] < > #`
 * and the other characters markdown would interpret escaped, so a test name
 * can never open a table cell, a link or a code span.
 */
void md_escape(struct strbuf *sb, const char *s);
/*
 * Append s as a markdown code span: sanitized, then fenced with one backtick
 * more than its longest run of them (padded with a space where it starts or
 * ends with one), so it shows as written, `test_fx.py` with no backslash. Not
 * for a table cell: a '|' in it would still split the cell.
 */
void md_code(struct strbuf *sb, const char *s);

/*
 * Append s as HTML text, safe in element content and in a quoted attribute
 * value alike: sanitized as for a terminal (controls and bidi overrides
 * shown as `\xNN`, as the text output shows them), then & < > " and '
 * written as character references, so a test name can never open a tag,
 * end an attribute or start an entity.
 */
void html_escape(struct strbuf *sb, const char *s);

/*
 * Append s as one CSV field (RFC 4180 quoting), sanitized; a text that a
 * spreadsheet would read as a formula (leading = + - @) is quoted with a
 * leading ', so it shows as text. Numbers are written by the callers.
 */
void csv_field(struct strbuf *sb, const char *s);

/*
 * Append s with invalid UTF-8 sequences replaced by U+FFFD, so JSON output
 * is always valid UTF-8 (cJSON escapes control characters itself).
 */
void utf8_repair(struct strbuf *sb, const char *s, size_t len);

/*
 * Write JSON text s (as cJSON prints it: C0 controls already escaped)
 * with DEL, the C1 controls and the bidi controls written as JSON's
 * backslash-u escapes too, so JSON shown on a terminal cannot drive it.
 * Sound because they only occur inside strings (cJSON writes every byte
 * of the structure in ASCII).
 */
void json_text_write(FILE *f, const char *s, size_t len);
/* The same, appended to sb. */
void json_text_add(struct strbuf *sb, const char *s, size_t len);

/*
 * Append path as one line of `git diff --name-only` with core.quotePath
 * false: unchanged unless it holds a control character, DEL, '"' or '\',
 * then in double quotes with those written as C escapes (\n \t \" \\,
 * \ooo for the rest). A path with a newline can never read as two. Not
 * for a terminal: bytes above 0x7f pass as they are.
 */
void git_quote_path(struct strbuf *sb, const char *path);

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
int utf8_seq_len(const unsigned char *s, size_t avail);

#endif
