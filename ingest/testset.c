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

void testset_add(struct testset *t, const char *suite, const char *name)
{
	bool added;
	struct strmap_entry *e = strmap_intern(&t->index, suite, strlen(suite),
					       (int64_t)t->suites.nr, &added);

	if (added) {
		strlist_push(&t->suites, suite);
		ALLOC_GROW(t->cases, t->suites.nr, t->alloc);
		t->cases[t->suites.nr - 1] = (struct strlist)STRLIST_INIT;
	}
	strlist_push(&t->cases[e->value], name);
	t->nr_cases++;
}

void testset_release(struct testset *t)
{
	for (size_t i = 0; i < t->suites.nr; i++)
		strlist_release(&t->cases[i]);
	free(t->cases);
	strlist_release(&t->suites);
	strmap_clear(&t->index);
	memset(t, 0, sizeof(*t));
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
	int64_t *ids = xmalloc((t->suites.nr ? t->suites.nr : 1) * sizeof(*ids));
	struct strbuf blob = STRBUF_INIT;
	sqlite3_stmt *st;
	int ret = 0;

	for (size_t i = 0; i < t->suites.nr && !ret; i++) {
		const char *suite = t->suites.items[i];
		int64_t suite_id;

		strbuf_reset(&blob);
		store_strings_encode(&t->cases[i], &blob);
		ret = store_name_id(s, suite, strlen(suite), &suite_id);
		if (!ret)
			ret = group_id(s, repo, suite_id, &blob, started_at, &ids[i]);
	}
	if (!ret) {
		/* Distinct suites have distinct groups: the ids are unique. */
		qsort(ids, t->suites.nr, sizeof(*ids), cmp_id);
		strbuf_reset(&blob);
		store_ints_encode(ids, t->suites.nr, &blob);
		st = store_stmt(s, sql);
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_blob(st, 2, blob.buf, (int)blob.len, SQLITE_STATIC);
		ret = store_exec_stmt(s, st, "cannot write a test list");
	}
	strbuf_release(&blob);
	free(ids);
	return ret;
}
