/* Failure digests and excerpts, and the tests of a full run as groups of cases per suite. */
#include "core/tiadash.h"
#include "core/digest.h"
#include "ingest/testset.h"

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* One normalized line (or message) into the digest. */
static void digest_part(struct digest *d, const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (i < n) {
		if (is_blank(s[i])) {
			while (i < n && is_blank(s[i]))
				i++;
			if (sb.len && i < n)
				strbuf_addch(&sb, ' ');
			continue;
		}
		if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
			size_t j = i + 2;

			while (j < n && is_hex(s[j]))
				j++;
			if (j - i - 2 >= 4) {
				strbuf_addstr(&sb, "0x?");
				i = j;
				continue;
			}
		}
		strbuf_addch(&sb, s[i++]);
	}
	digest_add(d, sb.buf, sb.len);
	digest_boundary(d);
	strbuf_release(&sb);
}

void failure_digest(const char *message, const char *text, char out[17])
{
	struct digest d;
	char hex[33];
	int lines = 0;

	digest_init(&d);
	digest_part(&d, message ? message : "", message ? strlen(message) : 0);
	for (const char *p = text ? text : ""; *p && lines < FAILURE_DIGEST_LINES;) {
		size_t n = strcspn(p, "\n");
		size_t k = 0;

		while (k < n && is_blank(p[k]))
			k++;
		if (k < n) {
			digest_part(&d, p, n);
			lines++;
		}
		p += n + (p[n] == '\n');
	}
	digest_hex(&d, hex);
	memcpy(out, hex, 16);
	out[16] = '\0';
}

char *failure_excerpt(const char *message, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, message ? message : "");
	strbuf_addch(&sb, '\n');
	strbuf_addstr(&sb, text ? text : "");
	if (sb.len > FAILURE_EXCERPT_MAX)
		strbuf_setlen(&sb, FAILURE_EXCERPT_MAX);
	return strbuf_detach(&sb, NULL);
}

void testset_init(struct testset *t)
{
	*t = (struct testset)TESTSET_INIT;
}

static void drop(struct testset *t)
{
	testset_release(t);
	t->dropped = true;
}

/* Encode the open suite's cases (with those already kept for it). */
static void close_suite(struct testset *t)
{
	struct testset_suite *s;
	struct strlist cases = STRLIST_INIT;

	if (t->open < 0)
		return;
	s = &t->suites[t->open];
	t->bytes -= s->cases.len;
	strbuf_reset(&s->cases);
	/* Borrowed pointers into open_names: only the array is freed. */
	cases.items = xmalloc((t->nr_open ? t->nr_open : 1) * sizeof(*cases.items));
	for (size_t i = 0; i < t->nr_open; i++)
		cases.items[cases.nr++] = t->open_names.buf + t->open_at[i];
	store_strings_encode(&cases, &s->cases);
	free(cases.items);
	t->bytes += s->cases.len;
	strbuf_reset(&t->open_names);
	t->nr_open = 0;
	t->open_bytes = 0;
	t->open = -1;
}

static void add_open(struct testset *t, const char *name, size_t len)
{
	ALLOC_GROW(t->open_at, t->nr_open + 1, t->alloc_open);
	t->open_at[t->nr_open++] = t->open_names.len;
	strbuf_add(&t->open_names, name, len + 1); /* with its NUL */
	t->open_bytes += len + 1;
}

static int add_kept(const char *name, size_t len, void *data)
{
	add_open(data, name, len);
	return 0;
}

static void open_suite(struct testset *t, const char *suite)
{
	bool added;
	struct strmap_entry *e = strmap_intern(&t->index, suite, strlen(suite),
					       (int64_t)t->nr, &added);

	if (added) {
		ALLOC_GROW(t->suites, t->nr + 1, t->alloc);
		t->suites[t->nr].suite = xstrdup(suite);
		t->suites[t->nr].cases = (struct strbuf)STRBUF_INIT;
		t->nr++;
	} else if (store_strings_each(t->suites[e->value].cases.buf,
				      t->suites[e->value].cases.len, add_kept, t) < 0) {
		BUG("a test list encoded here does not decode");
	}
	/* The cases kept before count in t->bytes already. */
	t->open_bytes = 0;
	t->open = e->value;
}

void testset_add(struct testset *t, const char *suite, const char *name)
{
	if (t->dropped)
		return;
	if (t->open < 0 || strcmp(t->suites[t->open].suite, suite)) {
		close_suite(t);
		open_suite(t, suite);
	}
	add_open(t, name, strlen(name));
	if (t->bytes + t->open_bytes > TESTSET_MAX_BYTES)
		drop(t);
}

void testset_release(struct testset *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		free(t->suites[i].suite);
		strbuf_release(&t->suites[i].cases);
	}
	free(t->suites);
	strbuf_release(&t->open_names);
	free(t->open_at);
	strmap_clear(&t->index);
	testset_init(t);
}

/* The id of a stored group with these cases, inserted when new. */
static int group_id(struct store *s, const char *repo, int64_t suite_id,
		    const struct strbuf *blob, int64_t started_at, int64_t *id)
{
	static const char find_sql[] =
		"SELECT id, first_at FROM test_group WHERE repo = ?1 AND suite_id = ?2"
		" AND digest = ?3";
	static const char lower_sql[] = "UPDATE test_group SET first_at = ?2 WHERE id = ?1";
	static const char insert_sql[] =
		"INSERT INTO test_group (repo, suite_id, digest, first_at, cases)"
		" VALUES (?1, ?2, ?3, ?4, ?5)";
	struct digest d;
	char hex[33];
	sqlite3_stmt *st = store_stmt(s, find_sql);
	int64_t first_at = 0;
	int rc;

	digest_init(&d);
	digest_add(&d, blob->buf, blob->len);
	digest_hex(&d, hex);
	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, suite_id);
	sqlite3_bind_text(st, 3, hex, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		first_at = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_ROW) {
		if (first_at <= started_at)
			return 0;
		st = store_stmt(s, lower_sql);
		sqlite3_bind_int64(st, 1, *id);
		sqlite3_bind_int64(st, 2, started_at);
		return store_exec_stmt(s, st, "cannot write a test list");
	}
	if (rc != SQLITE_DONE)
		return store_error(s, "cannot read a test list");
	st = store_stmt(s, insert_sql);
	sqlite3_bind_text(st, 1, repo, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, suite_id);
	sqlite3_bind_text(st, 3, hex, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, started_at);
	sqlite3_bind_blob(st, 5, blob->buf, (int)blob->len, SQLITE_STATIC);
	if (store_exec_stmt(s, st, "cannot write a test list") < 0)
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int testset_write(struct store *s, const char *repo, int64_t started_at,
		  int64_t run_id, struct testset *t)
{
	static const char sql[] = "INSERT INTO run_tests (run_id, groups) VALUES (?1, ?2)";
	int64_t *ids;
	struct strbuf blob = STRBUF_INIT;
	sqlite3_stmt *st;
	int ret = 0;

	if (t->dropped)
		return 0;
	close_suite(t);
	ids = xmalloc((t->nr ? t->nr : 1) * sizeof(*ids));
	for (size_t i = 0; i < t->nr && !ret; i++) {
		const char *suite = t->suites[i].suite;
		int64_t suite_id;

		ret = store_name_id(s, suite, strlen(suite), &suite_id);
		if (!ret)
			ret = group_id(s, repo, suite_id, &t->suites[i].cases, started_at,
				       &ids[i]);
	}
	if (!ret) {
		/* Distinct suites have distinct groups: the ids are unique. */
		qsort(ids, t->nr, sizeof(*ids), cmp_id);
		store_ints_encode(ids, t->nr, &blob);
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_blob(st, 2, blob.buf, (int)blob.len, SQLITE_STATIC);
		ret = store_exec_stmt(s, st, "cannot write a test list");
	}
	strbuf_release(&blob);
	free(ids);
	return ret;
}
