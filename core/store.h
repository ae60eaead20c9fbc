/*
 * The SQLite store: opening (WAL, busy timeout, foreign keys), the versioned
 * schema and its migrations, transactions, cached prepared statements and the
 * interned-name table. Ingest writes through here; everything else reads
 * through core/query.h.
 */
#ifndef TIADASH_CORE_STORE_H
#define TIADASH_CORE_STORE_H

#include "core/tiadash.h"
#include "core/strmap.h"
#include "core/util.h"

#include <sqlite3.h>
#include <stdatomic.h>

/* The schema version this tiadash writes; older stores are migrated up. */
#define STORE_SCHEMA_VERSION 19
/* day_of (core/timeutil.h) of an SQL expression of window time, in SQL. */
#define STORE_DAY_SQL(at) "(CASE WHEN " at " >= 0 THEN " at " / 86400000" \
	" ELSE -((-" at " + 86399999) / 86400000) END)"
/* PRAGMA application_id of a tiadash store: "TIAD". */
#define STORE_APPLICATION_ID 0x54494144

enum store_mode {
	STORE_EXISTING, /* the store must exist (readers) */
	STORE_CREATE,   /* create it (and its directory) when missing */
};

struct store {
	sqlite3 *db;
	char *path;
	int busy_ms;
	struct store_stmt_cache {
		const char *sql; /* the static SQL text is the key */
		sqlite3_stmt *stmt;
	} *stmts;
	size_t nr_stmts, alloc_stmts;
	struct strmap names; /* name text -> id, valid in the open transaction */
	struct store_text {  /* name id -> text (store_name_text), open addressing */
		int64_t id;
		char *text;  /* NULL: a free slot */
	} *texts;
	size_t nr_texts, cap_texts;
	int depth; /* open transactions: 1 is BEGIN, deeper ones savepoints */
	int64_t changes_at_begin; /* sqlite3_total_changes64 at the outermost BEGIN */
	const atomic_bool *cancel; /* see store_set_cancel (NULL: none) */
};

/*
 * Interrupt this connection's statements once *flag is true (they fail
 * with SQLITE_INTERRUPT); NULL removes it. The flag is the caller's and
 * must outlive the connection. A connection a reader opens beside this one
 * for the same work (metrics' blind spots) takes the same flag, so a
 * cancel stops both.
 */
void store_set_cancel(struct store *s, const atomic_bool *flag);

/*
 * Open (and migrate) the store at path. On failure returns -1 after error()
 * naming the path and the reason (missing, locked, not a database, written
 * by a newer tiadash); *out is then NULL. Release with store_close().
 */
int store_open(struct store **out, const char *path, enum store_mode mode);
void store_close(struct store *s);

/*
 * A cached prepared statement for a static SQL string (the pointer is the
 * cache key, so pass string literals). It comes back reset and unbound.
 * Dies with BUG() on SQL that does not compile.
 */
sqlite3_stmt *store_stmt(struct store *s, const char *sql);

/* Report the store's current SQLite error with context; returns -1. */
int store_error(struct store *s, const char *what);

/* Step a statement that returns no rows; -1 after store_error on failure. */
int store_exec_stmt(struct store *s, sqlite3_stmt *st, const char *what);
/* Run literal SQL (no parameters); -1 after store_error on failure. */
int store_exec(struct store *s, const char *sql);

/*
 * Transactions nest: the outermost store_begin is BEGIN IMMEDIATE, inner ones
 * are savepoints, so a source can be atomic inside a batch of sources.
 * store_commit releases the innermost level (COMMIT at the outermost);
 * store_rollback undoes it and drops the name cache.
 */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);
/*
 * Run fn, which writes, in a transaction that does not wait: a savepoint
 * of the caller's when one is open (fn failing is then an error naming
 * what), else BEGIN IMMEDIATE when the write lock is free now. 0 when fn
 * ran and committed; 1 when it could not be now (another process holds
 * the lock, a read-only store, fn failed for a reader, who then reads the
 * tables instead); -1 after error(). For the caches readers keep fresh.
 */
int store_write_now(struct store *s, int (*fn)(struct store *s, void *data), void *data,
		    const char *what);

/*
 * The store's generation into *out: a count the outermost store_commit of
 * every write transaction that changed a row bumps, so figures kept under it (metrics/
 * figcache.h) are fresh while it stays. store_write_now's transactions do
 * not bump it: they write only what the tables give again. -1 after error().
 */
int store_generation(struct store *s, int64_t *out);

/* Id of `text` in the name table, inserted if new (inside a transaction). */
int store_name_id(struct store *s, const char *text, size_t len, int64_t *id);
/*
 * The text of name id, read once per connection (a name never changes):
 * the store's until store_close or a rollback. NULL after error() when the
 * name is missing or cannot be read.
 */
const char *store_name_text(struct store *s, int64_t id);

/*
 * A list of strings as one blob: sorted, deduplicated, front-coded (each
 * entry is varint(prefix shared with the previous), varint(length of the
 * rest), the rest). encode sorts l in place; decode appends to out and
 * returns -1 on a corrupt blob.
 */
void store_strings_encode(struct strlist *l, struct strbuf *out);
int store_strings_decode(const void *blob, size_t len, struct strlist *out);
/*
 * Call fn with each string of such a blob (borrowed, NUL-terminated, n its
 * length) until it returns non-zero, which is returned; -1 on a corrupt blob.
 */
int store_strings_each(const void *blob, size_t len,
		       int (*fn)(const char *s, size_t n, void *data), void *data);

/*
 * Ascending ids as one blob: varints of the differences. encode BUGs on
 * input that is not strictly ascending; decode appends to the caller's
 * growable array (ALLOC_GROW) and returns -1 on a corrupt blob.
 */
void store_ints_encode(const int64_t *v, size_t n, struct strbuf *out);
int store_ints_decode(const void *blob, size_t len, int64_t **out, size_t *nr,
		      size_t *alloc);

/*
 * Non-negative ints in any order (ids in pairs) as one blob: a varint
 * each. encode BUGs on a negative one; decode as store_ints_decode.
 */
void store_varints_encode(const int64_t *v, size_t n, struct strbuf *out);
int store_varints_decode(const void *blob, size_t len, int64_t **out, size_t *nr,
			 size_t *alloc);

/* Bind helpers: NULL / NaN / negative sentinel become SQL NULL. */
void store_bind_text(sqlite3_stmt *st, int col, const char *text);
void store_bind_opt_int(sqlite3_stmt *st, int col, bool has, int64_t v);
void store_bind_opt_double(sqlite3_stmt *st, int col, double v);

/* Column helpers: text of NULL is "" (never NULL); double of NULL is NAN. */
const char *store_col_text(sqlite3_stmt *st, int col);
double store_col_double(sqlite3_stmt *st, int col);
bool store_col_is_null(sqlite3_stmt *st, int col);

/* The schema's version as stored (for tests and `status`). */
int store_schema_version(struct store *s);

#endif
