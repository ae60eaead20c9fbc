/* The blind spots' day summaries: a window's whole days read a row each, rebuilt where stale. */
#include "core/tiadash.h"
#include "core/blindday.h"
#include "core/paircache.h"
#include "core/timeutil.h"

/* A day whose narrowed selections name more distinct entries keeps none (NULL): the tables have them. */
#define DAY_ENTRIES_MAX 65536

void blind_input_release(struct blind_input *in)
{
	int_vec_release(&in->groups);
	int_vec_release(&in->failures);
	memset(in, 0, sizeof(*in));
}

/* The input of the heads of window w, from the tables. */
static int gather_tables(struct store *s, const struct window *w, entry_fn fn, void *data,
			 struct blind_input *in)
{
	struct window_runs wr = WINDOW_RUNS_INIT;
	int64_t narrowed = 0, listed = 0;
	int ret = query_window_runs(s, w, &wr);

	if (!ret)
		ret = query_narrowed_selections(s, &wr, fn, data, &narrowed);
	if (!ret && !in->union_only)
		ret = query_window_group_ids(s, &wr, &in->groups, &listed);
	if (!ret && !in->union_only)
		ret = query_window_failure_ids(s, &wr, &in->failures);
	in->narrowed += narrowed;
	in->listed += listed;
	window_runs_release(&wr);
	return ret;
}

static struct window day_window(int64_t day)
{
	return (struct window){ day * MS_PER_DAY, (day + 1) * MS_PER_DAY, NULL };
}

/* ---- rebuilding a day ---- */

struct day_entries {
	struct strmap seen;
	bool too_many;
};

static int keep_entry(const char *entry, size_t len, void *data)
{
	struct day_entries *d = data;

	if (d->too_many || strmap_find(&d->seen, entry, len))
		return 0;
	if (d->seen.nr == DAY_ENTRIES_MAX) {
		d->too_many = true;
		strmap_clear(&d->seen);
		return 0;
	}
	strmap_put(&d->seen, entry, len, 0);
	return 0;
}

static int write_day(struct store *s, int64_t day, struct day_entries *d,
		     const struct blind_input *in)
{
	static const char put_sql[] =
		"INSERT OR REPLACE INTO blind_day (day, narrowed, listed, entries, groups, failures)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	struct strlist entries = STRLIST_INIT;
	struct strbuf eb = STRBUF_INIT, gb = STRBUF_INIT, fb = STRBUF_INIT;
	sqlite3_stmt *st = store_stmt(s, put_sql);
	int rc;

	for (size_t i = 0; i < d->seen.cap; i++)
		if (d->seen.slots[i].key)
			strlist_push(&entries, d->seen.slots[i].key);
	store_strings_encode(&entries, &eb);
	store_ints_encode(in->groups.v, in->groups.nr, &gb);
	store_varints_encode(in->failures.v, in->failures.nr, &fb);
	sqlite3_bind_int64(st, 1, day);
	sqlite3_bind_int64(st, 2, in->narrowed);
	sqlite3_bind_int64(st, 3, in->listed);
	if (d->too_many)
		sqlite3_bind_null(st, 4);
	else
		sqlite3_bind_blob(st, 4, eb.buf, (int)eb.len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, gb.buf, (int)gb.len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, fb.buf, (int)fb.len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	strlist_release(&entries);
	strbuf_release(&eb);
	strbuf_release(&gb);
	strbuf_release(&fb);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int rebuild_day(struct store *s, int64_t day)
{
	struct window w = day_window(day);
	struct day_entries d = { STRMAP_INIT, false };
	struct blind_input in = BLIND_INPUT_INIT;
	int ret = gather_tables(s, &w, keep_entry, &d, &in);

	if (!ret) {
		int_vec_sort_unique(&in.groups);
		int_vec_sort_unique_pairs(&in.failures);
		ret = write_day(s, day, &d, &in);
	}
	strmap_clear(&d.seen);
	blind_input_release(&in);
	return ret;
}

/* The stale days in [lo, hi], ascending. */
static int stale_days(struct store *s, int64_t lo, int64_t hi, struct int_vec *out)
{
	static const char sql[] = "SELECT day FROM blind_stale WHERE day BETWEEN ?1 AND ?2";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc;

	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		int_vec_push(out, sqlite3_column_int64(st, 0));
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int rebuild_days(struct store *s, void *data)
{
	static const char done_sql[] = "DELETE FROM blind_stale WHERE day = ?1";
	const struct int_vec *days = data;

	for (size_t i = 0; i < days->nr; i++) {
		sqlite3_stmt *st;
		int rc;

		if (rebuild_day(s, days->v[i]) < 0)
			return -1;
		st = store_stmt(s, done_sql);
		sqlite3_bind_int64(st, 1, days->v[i]);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

/*
 * Bring the days in [lo, hi] up to date: 0 when they are, 1 when they
 * could not be now (store_write_now), -1 after error().
 */
static int refresh_days(struct store *s, int64_t lo, int64_t hi)
{
	struct int_vec days = INT_VEC_INIT;
	int ret = stale_days(s, lo, hi, &days) < 0 ? 1 : 0;

	if (!ret && days.nr)
		ret = store_write_now(s, rebuild_days, &days,
				      "cannot rebuild the blind spots' day summaries");
	int_vec_release(&days);
	return ret;
}

/* ---- reading ---- */

/* Append a blob's ints (decode: store_ints_decode or store_varints_decode). */
static int append_blob(sqlite3_stmt *st, int col, struct int_vec *v,
		       int (*decode)(const void *, size_t, int64_t **, size_t *, size_t *))
{
	return decode(sqlite3_column_blob(st, col), (size_t)sqlite3_column_bytes(st, col),
		      &v->v, &v->nr, &v->alloc);
}

/* The summaries of the days in [lo, hi]; the days that kept no entries into *bare. */
static int read_days(struct store *s, int64_t lo, int64_t hi, entry_fn fn, void *data,
		     struct blind_input *in, struct int_vec *bare)
{
	static const char sql[] =
		"SELECT day, narrowed, listed, entries, groups, failures FROM blind_day"
		" WHERE day BETWEEN ?1 AND ?2";
	sqlite3_stmt *st = store_stmt(s, sql);
	int rc, ret = 0;

	sqlite3_bind_int64(st, 1, lo);
	sqlite3_bind_int64(st, 2, hi);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t day = sqlite3_column_int64(st, 0);

		in->narrowed += sqlite3_column_int64(st, 1);
		in->listed += sqlite3_column_int64(st, 2);
		if (sqlite3_column_type(st, 3) == SQLITE_NULL)
			int_vec_push(bare, day);
		else
			ret = store_strings_each(sqlite3_column_blob(st, 3),
						 (size_t)sqlite3_column_bytes(st, 3), fn, data);
		if (!ret && (append_blob(st, 4, &in->groups, store_ints_decode) < 0 ||
			     append_blob(st, 5, &in->failures, store_varints_decode) < 0))
			ret = -1;
		if (ret < 0)
			ret = error("store '%s': the blind spots' summary of day %" PRId64
				    " is corrupt", s->path, day);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(s, "cannot read the blind spots' day summaries");
	sqlite3_reset(st);
	return ret;
}

/* The entries of the narrowed selections of the days in bare, from the tables. */
static int read_bare_entries(struct store *s, const struct int_vec *bare, entry_fn fn,
			     void *data)
{
	int ret = 0;

	for (size_t i = 0; i < bare->nr && !ret; i++) {
		struct window w = day_window(bare->v[i]);
		struct window_runs wr = WINDOW_RUNS_INIT;

		ret = query_window_runs(s, &w, &wr);
		if (!ret)
			ret = query_narrowed_selections(s, &wr, fn, data, NULL);
		window_runs_release(&wr);
	}
	return ret;
}

/*
 * The whole days of w, [*lo, *hi] (INT64_MIN, INT64_MAX: open ends);
 * false when it holds none.
 */
static bool whole_days(const struct window *w, int64_t *lo, int64_t *hi)
{
	int64_t start, end;

	*lo = w->since == INT64_MIN ? INT64_MIN : day_of(w->since - 1) + 1;
	*hi = w->until == INT64_MAX ? INT64_MAX : day_of(w->until) - 1;
	/* Window times far outside any day's milliseconds: no whole day to speak of. */
	if ((*lo != INT64_MIN && __builtin_mul_overflow(*lo, MS_PER_DAY, &start)) ||
	    (*hi != INT64_MAX && __builtin_mul_overflow(*hi + 1, MS_PER_DAY, &end)))
		return false;
	return *lo <= *hi;
}

/* The window's parts around its whole days, from the tables. */
static int gather_edges(struct store *s, const struct window *w, int64_t lo, int64_t hi,
			entry_fn fn, void *data, struct blind_input *in)
{
	int ret = 0;

	/* An open end has no part beyond its whole days (whole_days: no overflow). */
	if (lo != INT64_MIN && w->since < lo * MS_PER_DAY) {
		struct window before = { w->since, lo * MS_PER_DAY, NULL };

		ret = gather_tables(s, &before, fn, data, in);
	}
	if (!ret && hi != INT64_MAX && (hi + 1) * MS_PER_DAY < w->until) {
		struct window after = { (hi + 1) * MS_PER_DAY, w->until, NULL };

		ret = gather_tables(s, &after, fn, data, in);
	}
	return ret;
}

static int gather_days(struct store *s, const struct window *w, int64_t lo, int64_t hi,
		       entry_fn fn, void *data, struct blind_input *out)
{
	struct int_vec bare = INT_VEC_INIT;
	int ret = read_days(s, lo, hi, fn, data, out, &bare);

	if (!ret)
		ret = read_bare_entries(s, &bare, fn, data);
	if (!ret)
		ret = gather_edges(s, w, lo, hi, fn, data, out);
	int_vec_release(&bare);
	return ret;
}

int blind_gather(struct store *s, const struct window *w, entry_fn fn, void *data,
		 struct blind_input *out)
{
	int64_t lo, hi;
	int ret = 1;

	/* A project's window, a window within a day, a cache not fresh: the tables. */
	if ((!w->repo || !*w->repo) && whole_days(w, &lo, &hi) && pair_cache_refresh(s) == 0)
		ret = refresh_days(s, lo, hi);
	if (!ret)
		ret = gather_days(s, w, lo, hi, fn, data, out);
	else if (ret == 1)
		ret = gather_tables(s, w, fn, data, out);
	int_vec_sort_unique(&out->groups);
	int_vec_sort_unique_pairs(&out->failures);
	return ret;
}
