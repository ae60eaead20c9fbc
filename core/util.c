/* Allocation, string buffers, error reporting and small path helpers. */
#include "core/tiadash.h"
#include "core/util.h"
#include "core/sanitize.h"

#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

char strbuf_empty[1];

static void (*die_cleanup)(void);
static _Atomic int errors_reported; /* error() runs on ingest's worker threads too */

void set_die_cleanup(void (*fn)(void))
{
	die_cleanup = fn;
}

int error_count(void)
{
	return errors_reported;
}

/* Messages of this thread go here instead of stderr (error_capture). */
static _Thread_local struct strbuf *capture;

struct strbuf *error_capture(struct strbuf *sink)
{
	struct strbuf *prev = capture;

	capture = sink;
	return prev;
}

static void report(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT;
	struct strbuf safe = STRBUF_INIT;

	if (capture) {
		if (capture->len)
			strbuf_addstr(capture, "; ");
		strbuf_vaddf(capture, fmt, ap);
		return;
	}
	strbuf_vaddf(&msg, fmt, ap);
	sanitize_text(&safe, msg.buf, msg.len);
	fprintf(stderr, "tiadash: %s%s\n", prefix, safe.buf);
	fflush(stderr);
	strbuf_release(&msg);
	strbuf_release(&safe);
}

int error(const char *fmt, ...)
{
	va_list ap;

	if (!capture)
		errors_reported++;
	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	if (die_cleanup)
		die_cleanup();
	va_start(ap, fmt);
	report("fatal: ", fmt, ap);
	va_end(ap);
	exit(EXIT_INPUT_ERROR);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (die_cleanup)
		die_cleanup();
	fprintf(stderr, "tiadash: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static ATTR_NORETURN void oom(size_t n)
{
	if (die_cleanup)
		die_cleanup();
	fprintf(stderr, "tiadash: fatal: out of memory allocating %zu bytes\n", n);
	exit(EXIT_INPUT_ERROR);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void int_vec_push(struct int_vec *a, int64_t x)
{
	ALLOC_GROW(a->v, a->nr + 1, a->alloc);
	a->v[a->nr++] = x;
}

static int cmp_int64s(const int64_t *x, const int64_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int cmp_one(const void *x, const void *y)
{
	return cmp_int64s(x, y, 1);
}

static int cmp_two(const void *x, const void *y)
{
	return cmp_int64s(x, y, 2);
}

/* Elements of `width` int64s: sorted, each kept once. */
static void sort_unique(struct int_vec *a, size_t width)
{
	size_t n = a->nr / width, out = 0, up = 1;

	/* Often ascending already (ids in the order they were given). */
	while (up < n && cmp_int64s(a->v + (up - 1) * width, a->v + up * width, width) < 0)
		up++;
	if (up >= n)
		return;
	qsort(a->v, n, width * sizeof(*a->v), width == 1 ? cmp_one : cmp_two);
	for (size_t i = 0; i < n; i++) {
		if (out && !cmp_int64s(a->v + (out - 1) * width, a->v + i * width, width))
			continue;
		memmove(a->v + out * width, a->v + i * width, width * sizeof(*a->v));
		out++;
	}
	a->nr = out * width;
}

void int_vec_sort_unique(struct int_vec *a)
{
	sort_unique(a, 1);
}

void int_vec_sort_unique_pairs(struct int_vec *a)
{
	sort_unique(a, 2);
}

void int_vec_release(struct int_vec *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}

void keep_freed_memory(void)
{
#ifdef __GLIBC__
	/*
	 * glibc maps each block over 128 kB (up to 32 MB once it adapts) on
	 * its own and unmaps it when freed, and gives back the top of a heap
	 * over 128 kB: every one of the figures' 10^5-value arrays was
	 * zero-filled pages again. 32 MB is glibc's largest mmap threshold.
	 * (Only a NO_MIMALLOC=1 build's malloc is glibc's: see the Makefile.)
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

#ifdef GROW_STRESS
#ifndef __GLIBC__
#error "GROW_STRESS needs glibc's malloc_usable_size"
#endif
/*
 * `make GROW_STRESS=1`: every growth moves the block (a new one, the old
 * freed), never realloc's growth in place, so a pointer kept into an array
 * across a call that may grow it is a use-after-free that ASan reports on
 * the first growth, not only when the allocator happens to move it.
 */
void *xrealloc(void *p, size_t n)
{
	void *q = xmalloc(n);

	if (p) {
		size_t old = malloc_usable_size(p);

		memcpy(q, p, old < n ? old : n);
		free(p);
	}
	return q;
}
#else
void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}
#endif

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *xmemdup(const void *p, size_t n)
{
	void *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	bool fresh = sb->alloc == 0;

	if (extra >= SIZE_MAX - sb->len - 1)
		oom(SIZE_MAX);
	if (fresh)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len) /* data may be NULL then: an empty array's */
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addint(struct strbuf *sb, int64_t v, int width)
{
	char digits[24], *p = digits + sizeof(digits);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	n = (size_t)(digits + sizeof(digits) - p);
	if (v < 0) {
		strbuf_addch(sb, '-');
		width--;
	}
	if (width > 0 && (size_t)width > n)
		strbuf_addchars(sb, '0', (size_t)width - n);
	strbuf_add(sb, p, n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > sb->len)
		BUG("strbuf_setlen beyond length");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = strbuf_empty;
	sb->len = sb->alloc = 0;
	return p;
}

void strlist_push_owned(struct strlist *l, char *s)
{
	ALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr++] = s;
}

void strlist_push(struct strlist *l, const char *s)
{
	strlist_push_owned(l, xstrdup(s));
}

void strlist_release(struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

/* Swap entries i and j of a, and of carry with them (NULL: none). */
static void swap_at(char **a, uint32_t *carry, size_t i, size_t j)
{
	char *t = a[i];

	a[i] = a[j];
	a[j] = t;
	if (carry) {
		uint32_t c = carry[i];

		carry[i] = carry[j];
		carry[j] = c;
	}
}

/* Restore the heap below root (a's strings compared from byte d on). */
static void sift_down(char **a, uint32_t *carry, size_t root, size_t n, size_t d)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && strcmp(a[child] + d, a[child + 1] + d) < 0)
			child++;
		if (strcmp(a[root] + d, a[child] + d) >= 0)
			return;
		swap_at(a, carry, root, child);
	}
}

/* Heapsort: mkqsort's way out on hostile input, in bounded stack. */
static void heap_sort(char **a, uint32_t *carry, size_t n, size_t d)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, carry, i, n, d);
	for (size_t end = n; end-- > 1;) {
		swap_at(a, carry, 0, end);
		sift_down(a, carry, 0, end, d);
	}
}

/*
 * Multikey quicksort (Bentley and Sedgewick): partition on the byte at
 * depth d, three ways, then sort the equal part on the next byte. Test ids
 * share long prefixes ("tests/pkg/test_mod.py::test_"), which strcmp in
 * qsort compares again at every step; here each byte is looked at about
 * once per level. strcmp's order (bytes unsigned). Too deep a recursion on
 * hostile input goes to heapsort. carry (NULL: none) moves with a.
 */
static void mkqsort(char **a, uint32_t *carry, size_t n, size_t d, int depth)
{
	while (n > 1) {
		size_t lt = 0, i = 0, gt = n;
		int v;

		if (n < 12) {
			for (size_t k = 1; k < n; k++)
				for (size_t j = k; j > 0 && strcmp(a[j - 1] + d, a[j] + d) > 0; j--)
					swap_at(a, carry, j - 1, j);
			return;
		}
		if (depth == 0) {
			heap_sort(a, carry, n, d);
			return;
		}
		v = (unsigned char)a[n / 2][d];
		while (i < gt) {
			int c = (unsigned char)a[i][d];

			if (c < v)
				swap_at(a, carry, lt++, i++);
			else if (c > v)
				swap_at(a, carry, i, --gt);
			else
				i++;
		}
		mkqsort(a, carry, lt, d, depth - 1);
		mkqsort(a + gt, carry ? carry + gt : NULL, n - gt, d, depth - 1);
		if (!v)
			return; /* the middle ended there: equal strings */
		a += lt;
		if (carry)
			carry += lt;
		n = gt - lt;
		d++;
	}
}

/* Already in order? Reports often list a suite's cases sorted; the check stops at the first pair out of order. */
static bool sorted(char *const *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(a[i - 1], a[i]) > 0)
			return false;
	return true;
}

void strlist_sort_carry(struct strlist *l, uint32_t *carry)
{
	int depth = 64;

	if (sorted(l->items, l->nr))
		return;

	for (size_t k = l->nr; k > 1; k >>= 1)
		depth += 2;
	if (l->nr > 1)
		mkqsort(l->items, carry, l->nr, 0, depth);
}

void strlist_sort(struct strlist *l)
{
	strlist_sort_carry(l, NULL);
}

const char *file_type_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int open_regular(const char *path, const char *name, int flags)
{
	/*
	 * O_NONBLOCK: opening a FIFO for reading blocks until a writer comes,
	 * and a device may block too; a regular file ignores the flag.
	 */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags);
	struct stat st;

	if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW))
		return error("cannot open '%s': it became a symbolic link", name);
	if (fd < 0) {
		int e = errno;

		/* A socket cannot be opened at all: say what it is all the same. */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			return error("'%s' is %s, not a regular file: refused", name,
				     file_type_name(st.st_mode));
		return error("cannot open '%s': %s", name, strerror(e));
	}
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return error("cannot open '%s': %s", name, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (S_ISDIR(st.st_mode))
			return error("'%s' is a directory, not a file", name);
		return error("'%s' is %s, not a regular file: refused, as reading "
			     "it could block or never end", name,
			     file_type_name(st.st_mode));
	}
	return fd;
}

int read_fd_limit(struct strbuf *sb, int fd, const char *name, size_t limit)
{
	char chunk[65536];
	size_t total = 0;

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("cannot read '%s': %s", name, strerror(errno));
		if (!n)
			return 0;
		total += (size_t)n;
		if (limit && total > limit)
			return error("'%s' is larger than the %zu-byte limit", name, limit);
		strbuf_add(sb, chunk, (size_t)n);
	}
}

bool pwrite_all(int fd, const void *data, size_t size, off_t at)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pwrite(fd, (const char *)data + done, size - done, at + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

int read_file_limit(struct strbuf *sb, const char *path, size_t limit)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	ret = read_fd_limit(sb, fd, path, limit);
	close(fd);
	return ret;
}

int read_regular_file(struct strbuf *sb, const char *path, size_t limit)
{
	int fd = open_regular(path, path, 0);
	int ret;

	if (fd < 0)
		return -1;
	ret = read_fd_limit(sb, fd, path, limit);
	close(fd);
	return ret;
}

int line_of_offset(const char *buf, size_t len, size_t off)
{
	int line = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++)
		if (buf[i] == '\n')
			line++;
	return line;
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

char *trim(char *s)
{
	size_t n;

	while (is_space((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && is_space((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

char *xstrdup_trimmed(const char *s, size_t n)
{
	while (n && is_space((unsigned char)*s))
		s++, n--;
	while (n && is_space((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

bool parse_int64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s || is_space((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || is_space((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

bool is_hex_sha(const char *s)
{
	size_t i;

	for (i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return s[40] == '\0';
}

char *path_join(const char *dir, const char *name)
{
	if (!*dir || !strcmp(dir, "."))
		return xstrdup(name);
	if (ends_with(dir, "/"))
		return xstrfmt("%s%s", dir, name);
	return xstrfmt("%s/%s", dir, name);
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

const char *path_below(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!strncmp(path, dir, n) && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return NULL;
}

const char *path_for_people(const char *path)
{
	static char cwd[4096];
	const char *rel;

	if (!*cwd && !getcwd(cwd, sizeof(cwd)))
		return path;
	rel = path_below(cwd, path);
	return rel ? rel : path;
}

bool path_is_contained(const char *rel)
{
	const char *seg = rel;

	if (!*rel || *rel == '/' || strstr(rel, "://") || strchr(rel, '\\'))
		return false;
	while (seg) {
		const char *end = strchr(seg, '/');
		size_t n = end ? (size_t)(end - seg) : strlen(seg);

		if (n == 2 && seg[0] == '.' && seg[1] == '.')
			return false;
		seg = end ? end + 1 : NULL;
	}
	return true;
}

int path_resolve_inside(const char *path, const char *root, char **real)
{
	size_t n = strlen(root);

	*real = realpath(path, NULL);
	if (!*real)
		return -1;
	/* root "/" holds everything; otherwise root itself or below "root/". */
	if (n == 1 || (!strncmp(*real, root, n) && ((*real)[n] == '/' || !(*real)[n])))
		return 0;
	return 1;
}

int mkdir_for_file(const char *file)
{
	char *dir = path_dirname(file);
	int ret = 0;

	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			ret = -1;
		*p = '/';
	}
	if (mkdir(dir, 0777) && errno != EEXIST)
		ret = -1;
	if (ret)
		ret = error("cannot create directory '%s': %s", dir,
			    strerror(errno));
	free(dir);
	return ret;
}

size_t strlist_sorted_find(const struct strlist *l, const char *s)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->items[mid], s);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

bool strlist_sorted_has(const struct strlist *l, const char *s)
{
	return strlist_sorted_find(l, s) != SIZE_MAX;
}

void strlist_uniq(struct strlist *l)
{
	size_t kept = 0;

	strlist_sort(l);
	for (size_t i = 0; i < l->nr; i++) {
		if (kept && !strcmp(l->items[kept - 1], l->items[i])) {
			free(l->items[i]);
			continue;
		}
		l->items[kept++] = l->items[i];
	}
	l->nr = kept;
}
