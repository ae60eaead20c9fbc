/*
 * Small utilities every module uses: allocators that die on OOM, a growable
 * string buffer, and the one way tiadash reports errors.
 */
#ifndef TIADASH_CORE_UTIL_H
#define TIADASH_CORE_UTIL_H

#include "core/tiadash.h"

#include <sys/types.h>

/* Allocators: never return NULL; on OOM they run the cleanup hook and exit 2. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
/* A growable array of int64 (INT_VEC_INIT); release frees it. */
struct int_vec {
	int64_t *v;
	size_t nr, alloc;
};
#define INT_VEC_INIT { NULL, 0, 0 }
void int_vec_push(struct int_vec *a, int64_t x);
/* Sort ascending and drop repeats; by pairs (x, y as one element) with _pairs. */
void int_vec_sort_unique(struct int_vec *a);
void int_vec_sort_unique_pairs(struct int_vec *a);
void int_vec_release(struct int_vec *a);

/*
 * For a process whose threads allocate and free tens of MB at a time (the
 * dashboard's figures): freed memory stays in the allocator for the next
 * allocation, not unmapped and faulted in again. Before any thread starts.
 */
void keep_freed_memory(void);
/* printf into a fresh string; caller frees. */
char *xstrfmt(const char *fmt, ...) ATTR_FORMAT(1, 2);

/* Grow array `x` (with `alloc` slots) so it holds at least `nr` elements. */
#define ALLOC_GROW(x, nr, alloc)                                               \
	do {                                                                   \
		if ((size_t)(nr) > (size_t)(alloc)) {                          \
			size_t alloc_grow_n_ = (size_t)(alloc) * 3 / 2 + 16;   \
			if (alloc_grow_n_ < (size_t)(nr))                      \
				alloc_grow_n_ = (size_t)(nr);                  \
			(alloc) = alloc_grow_n_;                               \
			(x) = xrealloc((x), alloc_grow_n_ * sizeof(*(x)));     \
		}                                                              \
	} while (0)

/*
 * Errors. error() and warning() print "tiadash: error: ..." to stderr with
 * control characters made visible (messages quote untrusted paths and test
 * names); error() returns -1 so callers write `return error(...)`.
 * Messages start lower-case, carry no full stop, and name the place as
 * `file:line` or URL.
 */
int error(const char *fmt, ...) ATTR_FORMAT(1, 2);
void warning(const char *fmt, ...) ATTR_FORMAT(1, 2);
void note(const char *fmt, ...) ATTR_FORMAT(1, 2);
/* For main-level fatal errors only: cleanup hook, message, exit 2. */
ATTR_NORETURN void die(const char *fmt, ...) ATTR_FORMAT(1, 2);
ATTR_NORETURN void bug_at(const char *file, int line, const char *fmt, ...)
	ATTR_FORMAT(3, 4);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

/* Called before die() prints (the TUI registers endwin here). */
void set_die_cleanup(void (*fn)(void));
/*
 * While sink is set, this thread's error(), warning() and note() messages
 * are appended to it ("; " between them) instead of printed, and do not
 * count in error_count(): for a message that becomes a datum (a selector's
 * bad answer). NULL prints again. Returns the sink it replaces, to put
 * back when captures nest.
 */
struct strbuf;
struct strbuf *error_capture(struct strbuf *sink);
/* Count of error() calls so far; commands use it to pick exit status 2. */
int error_count(void);

/* Growable NUL-terminated string. Init with STRBUF_INIT; release frees. */
struct strbuf {
	size_t len, alloc;
	char *buf;
};
extern char strbuf_empty[];
#define STRBUF_INIT { 0, 0, strbuf_empty }

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
/* n copies of c (printf's "%*s" of "" without the formatting). */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/* v in decimal, zeros in front to at least width characters: "%0*" PRId64. */
void strbuf_addint(struct strbuf *sb, int64_t v, int width);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) ATTR_FORMAT(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it) and reset sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* A list of owned strings. Init with STRLIST_INIT; release frees all. */
struct strlist {
	char **items;
	size_t nr, alloc;
};
#define STRLIST_INIT { NULL, 0, 0 }
void strlist_push(struct strlist *l, const char *s);
void strlist_push_owned(struct strlist *l, char *s);
void strlist_release(struct strlist *l);
void strlist_sort(struct strlist *l);
/* strlist_sort, with carry[i] (a value per string; NULL: none) moved along with its string. */
void strlist_sort_carry(struct strlist *l, uint32_t *carry);
/* Sort l and drop its repeats (freeing them). */
void strlist_uniq(struct strlist *l);
/* Whether s is in l, which strlist_sort sorted (a binary search). */
bool strlist_sorted_has(const struct strlist *l, const char *s);
/* Where s is in l, which strlist_sort sorted, or SIZE_MAX. */
size_t strlist_sorted_find(const struct strlist *l, const char *s);

/*
 * Read a whole file into sb (appending). `limit` caps the size (0: none).
 * Returns 0, or -1 after error() naming the path and the reason.
 */
int read_file_limit(struct strbuf *sb, const char *path, size_t limit);
/* The same from an open descriptor (name for messages). */
int read_fd_limit(struct strbuf *sb, int fd, const char *name, size_t limit);
/* Write all size bytes of data at offset at of fd (errno set when false). */
bool pwrite_all(int fd, const void *data, size_t size, off_t at);
/* What a file of this type is, for messages: "a FIFO", "a character device", ... */
const char *file_type_name(mode_t mode);
/* The same for an untrusted file: a regular file only (open_regular). */
int read_regular_file(struct strbuf *sb, const char *path, size_t limit);
/*
 * Open an untrusted file for reading without ever blocking (a FIFO, a
 * device): anything but a regular file is refused with a message saying
 * what it is. `name` is the path for messages; flags adds open(2) flags
 * (O_NOFOLLOW). Returns the descriptor, or -1 after error().
 */
int open_regular(const char *path, const char *name, int flags);

/* Line number (1-based) of byte offset `off` in buf. */
int line_of_offset(const char *buf, size_t len, size_t off);

bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
/* Strip leading and trailing ASCII whitespace in place; returns s. */
char *trim(char *s);
/* A fresh copy of s[0..n) without surrounding whitespace; caller frees. */
char *xstrdup_trimmed(const char *s, size_t n);

/* Parse a whole decimal integer / number; false on junk or overflow. */
bool parse_int64(const char *s, int64_t *out);
bool parse_double(const char *s, double *out);

/* 40 lower-case hex digits? */
bool is_hex_sha(const char *s);

/* Join `dir` and a relative `name` into a fresh string; caller frees. */
char *path_join(const char *dir, const char *name);
/* Directory part of a path ("." when none); caller frees. */
char *path_dirname(const char *path);
/*
 * A path as people read it: relative to the current directory when below
 * it (a pointer into path), else path itself.
 */
const char *path_for_people(const char *path);
/* path relative to dir when below it (a pointer into path), else NULL. */
const char *path_below(const char *dir, const char *path);
/*
 * Is `rel` a safe relative reference (no absolute path, no `..` segment,
 * no URL scheme, no NUL)? Manifests may only name files below themselves.
 */
bool path_is_contained(const char *rel);
/*
 * Resolve path (every symbolic link, realpath(3)) into *real (caller
 * frees) and check it is `root` (a real path) or below it. Returns 0 when
 * inside, 1 when outside (*real says where), -1 when it does not resolve
 * (errno; *real is NULL).
 */
int path_resolve_inside(const char *path, const char *root, char **real);
/* mkdir -p for the directory that will hold `file`. */
int mkdir_for_file(const char *file);

#endif
