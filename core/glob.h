/*
 * Gitignore-style globs, compiled once into a matcher that answers "which
 * pattern matches this path first" (first added wins).
 *
 * Syntax and meaning follow git's gitignore(5) and wildmatch, byte for byte:
 *   *      any run of characters except '/'
 *   ?      one character except '/'
 *   [...]  one character of a set; [!...] or [^...] negates; ranges a-z;
 *          [:alpha:] and the other POSIX classes; never matches '/'
 *   **     in "**" + "/" (leading), "/" + "**" + "/" (middle) or "/" + "**"
 *          (trailing): zero or more directories; elsewhere like '*'
 *   \c     the character c itself
 *   {a,b}  alternatives (not in gitignore): expanded before anything else;
 *          braces without a top-level comma, or unbalanced, are literal
 * A pattern with a '/' other than a trailing one is anchored at the root; a
 * leading '/' only anchors. One without matches a path component at any
 * depth. A trailing '/' matches directories only. As in gitignore, a path
 * matches when the pattern matches the path itself or one of its leading
 * directories, so "vendor" and "migrations/" both match "vendor/a/b.c" and
 * "x/migrations/001.sql". Paths are repository-relative, without a leading
 * "./" or a trailing '/'; they are always files, never directories.
 *
 * Matching is fast for many globs (PERF-NOTES: per-glob regexes are the
 * slowest way): literal component names, "*.ext", "name*" and anchored
 * "dir/" prefixes are answered from tables; other patterns that match one
 * component at any depth ("[Mm]akefile", "**" + "/x?.c") form one PCRE2
 * alternation (JIT) tried at each component start; the rest form one
 * alternation over the whole path. A (*MARK) names the alternative that
 * matched, and alternations hold patterns in order, so the first pattern
 * wins without trying each in turn.
 */
#ifndef TIADASH_CORE_GLOB_H
#define TIADASH_CORE_GLOB_H

#include "core/tiadash.h"
#include "core/util.h"

struct glob_set;

/* More alternatives than this from one pattern's braces is an error. */
#define GLOB_MAX_EXPANSION 1024

/* glob_set_match's answer when PCRE2 itself failed (treat as a match). */
#define GLOB_MATCH_ERROR (-2)

/* A new, empty set; release with glob_set_free (NULL is fine). */
struct glob_set *glob_set_new(void);
void glob_set_free(struct glob_set *gs);

/*
 * Add a pattern. `tag` is what glob_set_match answers when this pattern is
 * the first that matches (tags need not be distinct). Returns 0, or -1 with
 * the reason in *why (not printed: the caller adds file:line).
 */
int glob_set_add(struct glob_set *gs, const char *pattern, int tag,
		 struct strbuf *why);

enum glob_compile_flags {
	/* Put every pattern in the regex; for tests of the fast paths. */
	GLOB_NO_FAST_PATHS = 1 << 0,
};
/* Build the matcher after the last add. -1 after error() (PCRE2 refused). */
int glob_set_compile(struct glob_set *gs, unsigned flags);

/*
 * The tag of the first added pattern that matches path, -1 when none does,
 * or GLOB_MATCH_ERROR. Not thread-safe (the set owns one match buffer).
 */
int glob_set_match(struct glob_set *gs, const char *path);

/*
 * The same from any thread: each thread brings a scratch of its own (what
 * a match writes; NULL: the set's, as glob_set_match); the set is only read.
 */
struct glob_scratch;
struct glob_scratch *glob_scratch_new(void);
void glob_scratch_free(struct glob_scratch *s);
int glob_set_match_in(const struct glob_set *gs, const char *path,
		      struct glob_scratch *s);

/* How many patterns (after brace expansion) the set holds. */
size_t glob_set_size(const struct glob_set *gs);

/*
 * Brace expansion of one pattern into out (appended, owned by the list).
 * Returns 0, or -1 with the reason in *why.
 */
int glob_expand_braces(const char *pattern, struct strlist *out,
		       struct strbuf *why);

/*
 * The PCRE2 pattern one brace-free glob becomes, matched anchored at the
 * start of the path. Returns 0, or -1 with the reason in *why.
 */
int glob_translate(const char *pattern, struct strbuf *regex, struct strbuf *why);

#endif
