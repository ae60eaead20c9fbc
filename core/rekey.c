/* Failing results, quarantine lines and selection entries keyed again when the id-map in force is not the one they were keyed under. */
#include "core/tiadash.h"
#include "core/rekey.h"
#include "core/blob.h"
#include "core/query.h"

/* ---- the raw names ---- */

/* name through id's id-map: its test id into key when it resolves, else nothing. */
static enum id_state key_through_map(struct identity *id, const char *name, unsigned flags,
				     struct strbuf *key)
{
	enum id_state state;

	strbuf_reset(key);
	state = identity_test_id(id, name, flags | ID_MAP, key);
	if (state != ID_RESOLVED)
		strbuf_reset(key);
	return state;
}

enum id_state quarantine_line_key(struct identity *id, const char *line, struct strbuf *key)
{
	return key_through_map(id, line, 0, key);
}

enum id_state selection_entry_key(struct identity *id, const char *entry, struct strbuf *key)
{
	return key_through_map(id, entry, ID_ENTRY, key);
}

char *selection_entry_rewritten(const struct idmap *map, const char *entry, const char *key)
{
	return key ? xstrdup(key) : map ? idmap_apply(map, entry) : NULL;
}

/* ---- a selection's keyed entries ---- */

/* Marks without a key, below KEYED_NONE; the others index k. */
#define KEYED_NO_KEY(joined) (KEYED_NONE - 1 - (uint32_t)(joined))

uint32_t keyed_entry_mark(struct keyed_entries *k, const char *key, bool joined)
{
	if (!key || !*key)
		return KEYED_NO_KEY(joined);
	if (k->nr >= KEYED_NO_KEY(true))
		die("more selection entries with keys than %u", (unsigned)KEYED_NO_KEY(true));
	ALLOC_GROW(k->at, k->nr + 1, k->alloc);
	k->at[k->nr] = (struct keyed_entry){ 0, NULL, xstrdup(key), true, 1 };
	return (uint32_t)k->nr++;
}

const char *keyed_entry_key(const struct keyed_entries *k, uint32_t mark)
{
	return mark < k->nr ? k->at[mark].key : NULL;
}

static void put_keyed(struct strbuf *out, size_t step, const char *key, bool joined,
		      uint64_t count)
{
	blob_put_u(out, step);
	blob_put_str(out, key ? key : "");
	blob_put_u(out, joined);
	blob_put_u(out, count);
}

void keyed_entries_store(const struct keyed_entries *k, struct strlist *entries, uint32_t *mark,
			 struct strbuf *out)
{
	size_t pos = 0, last = 0;
	bool any = false;

	strlist_sort_carry(entries, mark);
	for (size_t i = 0, n; i < entries->nr; i = n, pos++) {
		/* Repeats have their first's place, and its mark: the same string. */
		for (n = i + 1; n < entries->nr && !strcmp(entries->items[i], entries->items[n]); n++)
			;
		if (mark[i] == KEYED_NONE)
			continue;
		put_keyed(out, pos - (any ? last : 0), keyed_entry_key(k, mark[i]),
			  mark[i] < k->nr || mark[i] == KEYED_NO_KEY(true), n - i);
		last = pos;
		any = true;
	}
}

void keyed_entries_encode(const struct keyed_entries *k, struct strbuf *out)
{
	for (size_t i = 0; i < k->nr; i++)
		put_keyed(out, k->at[i].pos - (i ? k->at[i - 1].pos : 0), k->at[i].key,
			  k->at[i].joined, k->at[i].count);
}

int keyed_entries_decode(const void *blob, size_t len, const struct strlist *entries,
			 struct keyed_entries *out)
{
	struct blob_reader rd = BLOB_READER(blob, len);
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (rd.p < rd.end && !rd.bad) {
		uint64_t step = blob_get_u(&rd);
		struct keyed_entry *e;
		char *key = blob_get_str(&rd);

		/* Places rise, within the entries. */
		if (!key || (out->nr && !step) || step >= entries->nr - pos) {
			free(key);
			goto corrupt;
		}
		if (!*key) {
			free(key);
			key = NULL;
		}
		pos += step;
		ALLOC_GROW(out->at, out->nr + 1, out->alloc);
		e = &out->at[out->nr++];
		e->pos = pos;
		e->entry = entries->items[pos];
		e->key = key;
		e->joined = blob_get_u(&rd) != 0;
		e->count = blob_get_u(&rd);
	}
	if (blob_done(&rd))
		return 0;
corrupt:
	keyed_entries_release(out);
	return -1;
}

void keyed_entries_release(struct keyed_entries *k)
{
	for (size_t i = 0; i < k->nr; i++)
		free(k->at[i].key);
	free(k->at);
	memset(k, 0, sizeof(*k));
}

void raw_name_encode(const struct raw_name *r, struct strbuf *out)
{
	blob_put_u(out, (uint64_t)r->kind);
	blob_put_u(out, (uint64_t)r->tree | (uint64_t)r->spaced << 1);
	blob_put_str(out, r->workdir ? r->workdir : "");
	if (r->kind == RAW_LISTED) {
		blob_put_str(out, r->id);
		return;
	}
	blob_put_str(out, r->file ? r->file : "");
	blob_put_str(out, r->classname ? r->classname : "");
	blob_put_str(out, r->suite_key ? r->suite_key : "");
	blob_put_str(out, r->name ? r->name : "");
}

/* The next string of rd, kept in r->owned. */
static const char *owned_str(struct raw_name *r, struct blob_reader *rd)
{
	char *s = blob_get_str(rd);

	if (!s)
		return "";
	strlist_push_owned(&r->owned, s);
	return s;
}

int raw_name_decode(const void *blob, size_t len, struct raw_name *out)
{
	struct blob_reader rd = BLOB_READER(blob, len);
	uint64_t flags;

	memset(out, 0, sizeof(*out));
	out->kind = (enum raw_kind)blob_enum(&rd, (int64_t)blob_get_u(&rd), RAW_LISTED + 1);
	flags = blob_get_u(&rd);
	out->tree = flags & 1;
	out->spaced = flags & 2;
	out->workdir = owned_str(out, &rd);
	if (out->kind == RAW_LISTED) {
		out->id = owned_str(out, &rd);
	} else {
		out->file = owned_str(out, &rd);
		out->classname = owned_str(out, &rd);
		out->suite_key = owned_str(out, &rd);
		out->name = owned_str(out, &rd);
	}
	if (!blob_done(&rd)) {
		raw_name_release(out);
		return -1;
	}
	return 0;
}

void raw_name_release(struct raw_name *r)
{
	strlist_release(&r->owned);
	memset(r, 0, sizeof(*r));
}

enum id_state raw_name_key(struct identity *id, const struct raw_name *r,
			   struct strbuf *suite, struct strbuf *name)
{
	struct strbuf cls = STRBUF_INIT;
	enum id_state state;

	identity_use_workdir(id, r->workdir);
	strbuf_reset(name);
	if (r->kind == RAW_JUNIT) {
		state = identity_junit_case(id, r->file, r->classname, r->suite_key, suite, &cls);
		if (cls.len)
			strbuf_addf(name, "%s::", cls.buf);
		strbuf_addstr(name, r->name);
	} else {
		char *s, *n;

		strbuf_reset(&cls);
		state = identity_test_id(id, r->id, ID_MAP, &cls);
		test_id_split(cls.buf, &s, &n);
		strbuf_reset(suite);
		strbuf_addstr(suite, s);
		if (r->spaced)
			test_name_spaced(n, name);
		else
			strbuf_addstr(name, n);
		free(s);
		free(n);
	}
	strbuf_release(&cls);
	return state;
}

/* ---- keying again ---- */

/* A failing result to key again, as stored. */
struct old_result {
	int64_t suite_id, case_id, count;
	char *outcome, *digest, *excerpt;
	struct strbuf raw;
};

/* A quarantine line to judge again: its name, and where ingest judged it from. */
struct old_line {
	int64_t name_id;
	char *workdir; /* relative to the repository root; NULL: the root */
};

/* A selection's keyed entries to judge again, where ingest judged them from, and its count. */
struct old_selection {
	struct strlist stored;       /* its entries, as stored */
	struct keyed_entries entries; /* those keyed, borrowing stored's */
	char *workdir; /* relative to the repository root; NULL: the root */
	int64_t unresolved;
};

/* A run with something to key again, and what its resolver needs. */
struct rekey_run {
	int64_t run_id, diff_id;
	char head[41], base[41];
	struct old_result *rows;
	size_t nr, alloc;
	struct old_line *lines;
	size_t nr_lines, alloc_lines;
	struct old_selection *selection; /* NULL: none to key */
};

struct rekey {
	struct store *s;
	struct repo_later *rl;
	const struct idmap *map;
	char fingerprint[33];
	struct rekey_run *runs;
	size_t nr, alloc;
	struct identity_cache *ids;
	int64_t keyed; /* results and lines keyed again */
	int64_t kept;  /* and kept as they were: ingest had the tree, we do not */
};

static char *col_dup(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL
							  : xstrdup(store_col_text(st, i));
}

/* The run of run_id, the last one or a new one (rows come ordered by run). */
static struct rekey_run *run_of(struct rekey *k, sqlite3_stmt *st, int at)
{
	int64_t run_id = sqlite3_column_int64(st, at);
	struct rekey_run *r;

	if (k->nr && k->runs[k->nr - 1].run_id == run_id)
		return &k->runs[k->nr - 1];
	ALLOC_GROW(k->runs, k->nr + 1, k->alloc);
	r = &k->runs[k->nr++];
	memset(r, 0, sizeof(*r));
	r->run_id = run_id;
	snprintf(r->head, sizeof(r->head), "%s", store_col_text(st, at + 1));
	snprintf(r->base, sizeof(r->base), "%s", store_col_text(st, at + 2));
	r->diff_id = sqlite3_column_int64(st, at + 3);
	return r;
}

#define RUN_OF(t)                                                               \
	" JOIN run ru ON ru.id = " t ".run_id JOIN head h ON h.id = ru.head_id"

/*
 * Every row of sql (?1: the id-map's fingerprint, so that only rows keyed
 * under another are read) to row, until one fails; failing is the message
 * when the rows cannot be read.
 */
static int load_each(struct rekey *k, const char *sql,
		     int (*row)(struct rekey *k, sqlite3_stmt *st), const char *failing)
{
	sqlite3_stmt *st = store_stmt(k->s, sql);
	int rc, ret = 0;

	sqlite3_bind_text(st, 1, k->fingerprint, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = row(k, st);
	sqlite3_reset(st);
	if (!ret && rc != SQLITE_DONE)
		ret = store_error(k->s, failing);
	return ret;
}

static int result_row(struct rekey *k, sqlite3_stmt *st)
{
	struct rekey_run *run = run_of(k, st, 7);
	struct old_result *o;

	ALLOC_GROW(run->rows, run->nr + 1, run->alloc);
	o = &run->rows[run->nr++];
	o->suite_id = sqlite3_column_int64(st, 0);
	o->case_id = sqlite3_column_int64(st, 1);
	o->count = sqlite3_column_int64(st, 2);
	o->outcome = xstrdup(store_col_text(st, 3));
	o->digest = col_dup(st, 4);
	o->excerpt = col_dup(st, 5);
	o->raw = (struct strbuf)STRBUF_INIT;
	strbuf_add(&o->raw, sqlite3_column_blob(st, 6), (size_t)sqlite3_column_bytes(st, 6));
	return 0;
}

static int line_row(struct rekey *k, sqlite3_stmt *st)
{
	struct rekey_run *run = run_of(k, st, 2);
	struct old_line *l;

	ALLOC_GROW(run->lines, run->nr_lines + 1, run->alloc_lines);
	l = &run->lines[run->nr_lines++];
	l->name_id = sqlite3_column_int64(st, 0);
	l->workdir = col_dup(st, 1);
	return 0;
}

static int selection_row(struct rekey *k, sqlite3_stmt *st)
{
	struct rekey_run *run = run_of(k, st, 4);
	struct old_selection *o = xcalloc(1, sizeof(*o));

	run->selection = o;
	o->workdir = col_dup(st, 2);
	o->unresolved = sqlite3_column_int64(st, 3);
	if (store_strings_decode(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
				 &o->stored) < 0 ||
	    keyed_entries_decode(sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1),
				 &o->stored, &o->entries) < 0)
		return error("store '%s': the keyed entries of run %" PRId64 "'s selection "
			     "are corrupt", k->s->path, run->run_id);
	return 0;
}

static int load_results(struct rekey *k)
{
	return load_each(k, "SELECT r.suite_id, r.case_id, r.count, r.outcome, r.digest, r.excerpt,"
			 " r.raw, r.run_id, h.sha, coalesce(ru.base, ''), coalesce(ru.diff_id, 0)"
			 " FROM result r" RUN_OF("r")
			 " WHERE r.raw IS NOT NULL AND r.keyed_by <> ?1 ORDER BY r.run_id",
			 result_row, "cannot read the results to key again");
}

static int load_lines(struct rekey *k)
{
	return load_each(k, "SELECT q.name_id, q.workdir, q.run_id, h.sha, coalesce(ru.base, ''),"
			 " coalesce(ru.diff_id, 0)"
			 " FROM quarantine q" RUN_OF("q")
			 " WHERE q.keyed_by IS NOT NULL AND q.keyed_by <> ?1 ORDER BY q.run_id",
			 line_row, "cannot read the quarantine lines");
}

static int load_selections(struct rekey *k)
{
	return load_each(k, "SELECT s.entries, s.keys, s.workdir, coalesce(s.entries_unresolved, 0),"
			 " s.run_id, h.sha, coalesce(ru.base, ''), coalesce(ru.diff_id, 0)"
			 " FROM selection s" RUN_OF("s")
			 " WHERE s.keyed_by IS NOT NULL AND s.keyed_by <> ?1 ORDER BY s.run_id",
			 selection_row, "cannot read the selections to key again");
}

/* The resolver for run: its head, base and change, the id-map in force. */
static struct identity *resolver_of(struct rekey *k, const struct rekey_run *run)
{
	struct repo_diff change = REPO_DIFF_INIT;
	struct diff_info di;
	struct identity *id;

	if (run->diff_id && query_diff(k->s, run->diff_id, &di) == 0) {
		for (size_t i = 0; i < di.nr; i++) {
			ALLOC_GROW(change.files, change.nr + 1, change.alloc);
			memset(&change.files[change.nr], 0, sizeof(*change.files));
			change.files[change.nr++].path = xstrdup(di.files[i].path);
		}
		diff_info_release(&di);
	}
	id = identity_for_run(k->ids, k->rl ? repo_later_get(k->rl) : NULL, run->head,
			      *run->base ? run->base : NULL, NULL, &change, k->map);
	repo_diff_release(&change);
	return id;
}

static int resolved_of(enum id_state state)
{
	return state == ID_RESOLVED ? RESOLVED_PATH : state == ID_NAME ? RESOLVED_NAME
								       : RESOLVED_NOT;
}

static int delete_result(struct store *s, int64_t run_id, const struct old_result *o)
{
	static const char sql[] =
		"DELETE FROM result WHERE run_id = ?1 AND suite_id = ?2 AND case_id = ?3";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, o->suite_id);
	sqlite3_bind_int64(st, 3, o->case_id);
	return store_exec_stmt(s, st, "cannot key a result again");
}

/*
 * o under its new key. Onto a row the key already has, as ingest adds a
 * repeated test's cases: failed over error over flaky, and the failing
 * cases counted (the flaky ones only where none failed).
 */
static int insert_result(struct store *s, int64_t run_id, const struct old_result *o,
			 int64_t suite_id, int64_t case_id, int resolved, const char *fingerprint)
{
	static const char sql[] =
		"INSERT INTO result (run_id, suite_id, case_id, outcome, digest, excerpt, count,"
		" resolved, raw, keyed_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
		" ON CONFLICT (run_id, suite_id, case_id) DO UPDATE SET"
		" count = CASE WHEN (outcome = 'flaky') = (excluded.outcome = 'flaky')"
		"  THEN count + excluded.count WHEN outcome = 'flaky' THEN excluded.count"
		"  ELSE count END,"
		" outcome = CASE WHEN 'failed' IN (outcome, excluded.outcome) THEN 'failed'"
		"  WHEN 'error' IN (outcome, excluded.outcome) THEN 'error' ELSE 'flaky' END,"
		" digest = coalesce(digest, excluded.digest),"
		" excerpt = coalesce(excerpt, excluded.excerpt)";
	sqlite3_stmt *st = store_stmt(s, sql);

	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, suite_id);
	sqlite3_bind_int64(st, 3, case_id);
	sqlite3_bind_text(st, 4, o->outcome, -1, SQLITE_STATIC);
	store_bind_text(st, 5, o->digest);
	store_bind_text(st, 6, o->excerpt);
	sqlite3_bind_int64(st, 7, o->count);
	sqlite3_bind_int(st, 8, resolved);
	sqlite3_bind_blob(st, 9, o->raw.buf, (int)o->raw.len, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, fingerprint, -1, SQLITE_STATIC);
	return store_exec_stmt(s, st, "cannot key a result again");
}

/* A failing result's new key: its name ids and resolution; 1: keep it as it is. */
struct new_key {
	int64_t suite_id, case_id;
	int resolved;
	bool keep;
};

static int new_key_of(struct rekey *k, struct identity *id, const struct old_result *o,
		      struct new_key *out)
{
	struct strbuf suite = STRBUF_INIT, name = STRBUF_INIT;
	struct raw_name r;
	int ret = 0;

	if (raw_name_decode(o->raw.buf, o->raw.len, &r) < 0)
		return error("store '%s': the names of a failing result are corrupt", k->s->path);
	out->keep = r.tree && !identity_has_tree(id);
	k->keyed += !out->keep;
	k->kept += out->keep;
	if (!out->keep) {
		out->resolved = resolved_of(raw_name_key(id, &r, &suite, &name));
		ret = store_name_id(k->s, suite.buf, suite.len, &out->suite_id) < 0 ||
		      store_name_id(k->s, name.buf, name.len, &out->case_id) < 0 ? -1 : 0;
	}
	raw_name_release(&r);
	strbuf_release(&suite);
	strbuf_release(&name);
	return ret;
}

/*
 * The run's results under their new keys: every old row out first, then
 * each in, so two that trade keys do not meet on the way.
 */
static int rekey_results(struct rekey *k, struct identity *id, const struct rekey_run *run)
{
	struct new_key *keys = xcalloc(run->nr + 1, sizeof(*keys));
	int ret = 0;

	for (size_t i = 0; i < run->nr && !ret; i++)
		ret = new_key_of(k, id, &run->rows[i], &keys[i]);
	for (size_t i = 0; i < run->nr && !ret; i++)
		if (!keys[i].keep)
			ret = delete_result(k->s, run->run_id, &run->rows[i]);
	for (size_t i = 0; i < run->nr && !ret; i++)
		if (!keys[i].keep)
			ret = insert_result(k->s, run->run_id, &run->rows[i], keys[i].suite_id,
					    keys[i].case_id, keys[i].resolved, k->fingerprint);
	free(keys);
	return ret;
}

static int rekey_lines(struct rekey *k, struct identity *id, const struct rekey_run *run)
{
	static const char sql[] =
		"UPDATE quarantine SET resolved = ?3, keyed_by = ?4, key = ?5"
		" WHERE run_id = ?1 AND name_id = ?2";
	struct strbuf key = STRBUF_INIT;
	int ret = 0;

	/* Lines ingest judged without a tree have no keyed_by: these had one. */
	if (!identity_has_tree(id)) {
		k->kept += (int64_t)run->nr_lines;
		return 0;
	}
	k->keyed += (int64_t)run->nr_lines;
	for (size_t i = 0; i < run->nr_lines && !ret; i++) {
		const struct old_line *l = &run->lines[i];
		const char *line = store_name_text(k->s, l->name_id);
		enum id_state state;
		sqlite3_stmt *st;

		if (!line) {
			ret = -1;
			break;
		}
		identity_use_workdir(id, l->workdir);
		st = store_stmt(k->s, sql);
		sqlite3_bind_int64(st, 1, run->run_id);
		sqlite3_bind_int64(st, 2, l->name_id);
		state = quarantine_line_key(id, line, &key);
		sqlite3_bind_int(st, 3, resolved_of(state));
		sqlite3_bind_text(st, 4, k->fingerprint, -1, SQLITE_STATIC);
		store_bind_text(st, 5, key.len ? key.buf : NULL);
		ret = store_exec_stmt(k->s, st, "cannot judge a quarantine line again");
	}
	strbuf_release(&key);
	return ret;
}

/*
 * The run's keyed selection entries judged again from their directory:
 * their keys, and the count of entries that join none, moved by theirs.
 */
static int rekey_selection(struct rekey *k, struct identity *id, const struct rekey_run *run)
{
	static const char sql[] =
		"UPDATE selection SET keys = ?2, keyed_by = ?3, entries_unresolved = ?4"
		" WHERE run_id = ?1";
	struct old_selection *o = run->selection;
	struct strbuf key = STRBUF_INIT, keys = STRBUF_INIT;
	sqlite3_stmt *st;
	int ret;

	if (!o)
		return 0;
	if (!identity_has_tree(id)) {
		k->kept += (int64_t)o->entries.nr;
		return 0;
	}
	k->keyed += (int64_t)o->entries.nr;
	identity_use_workdir(id, o->workdir);
	for (size_t i = 0; i < o->entries.nr; i++) {
		struct keyed_entry *e = &o->entries.at[i];
		bool joined = id_state_joined(selection_entry_key(id, e->entry, &key));

		o->unresolved += (int64_t)e->count * ((int)e->joined - (int)joined);
		free(e->key);
		e->key = key.len ? xstrdup(key.buf) : NULL;
		e->joined = joined;
	}
	keyed_entries_encode(&o->entries, &keys);
	st = store_stmt(k->s, sql);
	sqlite3_bind_int64(st, 1, run->run_id);
	sqlite3_bind_blob(st, 2, keys.buf, (int)keys.len, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, k->fingerprint, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, o->unresolved);
	ret = store_exec_stmt(k->s, st, "cannot key a selection's entries again");
	strbuf_release(&key);
	strbuf_release(&keys);
	return ret;
}

static int rekey_all(struct store *s, void *data)
{
	struct rekey *k = data;
	int ret = 0;

	for (size_t i = 0; i < k->nr && !ret; i++) {
		struct identity *id = resolver_of(k, &k->runs[i]);

		ret = rekey_results(k, id, &k->runs[i]);
		if (!ret)
			ret = rekey_lines(k, id, &k->runs[i]);
		if (!ret)
			ret = rekey_selection(k, id, &k->runs[i]);
	}
	/* The tables changed, not a cache of them: figures kept before are stale. */
	return ret || !k->keyed ? ret : store_exec(s, "UPDATE generation SET n = n + 1");
}

/* Is anything keyed under another id-map? Two probes of the partial indexes. */
static int anything_to_rekey(struct store *s, const char *fingerprint, bool *any)
{
	static const char *const sql[] = {
		"SELECT 1 FROM result WHERE raw IS NOT NULL AND keyed_by <> ?1 LIMIT 1",
		"SELECT 1 FROM quarantine WHERE keyed_by IS NOT NULL AND keyed_by <> ?1 LIMIT 1",
		"SELECT 1 FROM selection WHERE keyed_by IS NOT NULL AND keyed_by <> ?1 LIMIT 1",
	};

	*any = false;
	for (size_t i = 0; i < ARRAY_SIZE(sql) && !*any; i++) {
		sqlite3_stmt *st = store_stmt(s, sql[i]);
		int rc;

		sqlite3_bind_text(st, 1, fingerprint, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return store_error(s, "cannot read what the id-map keyed");
		*any = rc == SQLITE_ROW;
	}
	return 0;
}

static void rekey_release(struct rekey *k)
{
	for (size_t i = 0; i < k->nr; i++) {
		struct rekey_run *run = &k->runs[i];

		for (size_t j = 0; j < run->nr; j++) {
			free(run->rows[j].outcome);
			free(run->rows[j].digest);
			free(run->rows[j].excerpt);
			strbuf_release(&run->rows[j].raw);
		}
		free(run->rows);
		for (size_t j = 0; j < run->nr_lines; j++)
			free(run->lines[j].workdir);
		free(run->lines);
		if (run->selection) {
			keyed_entries_release(&run->selection->entries);
			strlist_release(&run->selection->stored);
			free(run->selection->workdir);
			free(run->selection);
		}
	}
	free(k->runs);
	identity_cache_free(k->ids);
}

int rekey_store(struct store *s, struct repo_later *rl, const struct idmap *map)
{
	struct rekey k = { .s = s, .rl = rl, .map = map };
	bool any;
	int ret;

	idmap_fingerprint(map, k.fingerprint);
	if (anything_to_rekey(s, k.fingerprint, &any) < 0)
		return -1;
	if (!any)
		return 0;
	k.ids = identity_cache_new();
	ret = load_results(&k);
	if (!ret)
		ret = load_lines(&k);
	if (!ret)
		ret = load_selections(&k);
	if (!ret)
		ret = store_write_now(s, rekey_all, &k, "cannot key the results again");
	if (ret == 1)
		warning("store '%s': names keyed under another id-map, and the store cannot "
			"be written now: the figures read them as they were keyed", s->path);
	else if (!ret && k.kept)
		warning("store '%s': %" PRId64 " names were keyed under another id-map, and "
			"their runs' heads are not in a repository here: they keep their keys "
			"(give --repo)", s->path, k.kept);
	rekey_release(&k);
	return ret;
}

int rekey_config_load(struct config *c, struct cmd_context *ctx)
{
	if (config_load(c, ctx->db_path) < 0)
		return -1;
	if (ctx->store && rekey_store(ctx->store, ctx->repo_later, c->idmap) < 0) {
		config_release(c);
		return -1;
	}
	return 0;
}
