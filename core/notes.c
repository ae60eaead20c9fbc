/* Writing explained-escape notes into the store (the dashboard's and propose's writer). */
#include "core/tiadash.h"
#include "core/notes.h"
#include "core/util.h"

static bool blank_text(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return false;
	return true;
}

int notes_add(struct store *s, int64_t head_id, const char *text, int64_t now,
	      int64_t *note_id)
{
	static const char sql[] =
		"INSERT INTO note (head_id, kind, text, created_at)"
		" VALUES (?1, 'explained', ?2, ?3)";
	sqlite3_stmt *st;

	if (blank_text(text))
		return error("an explained note needs some text");
	if (store_begin(s) < 0)
		return -1;
	st = store_stmt(s, sql);
	sqlite3_bind_int64(st, 1, head_id);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	if (store_exec_stmt(s, st, "cannot store the note") < 0) {
		store_rollback(s);
		return -1;
	}
	if (note_id)
		*note_id = sqlite3_last_insert_rowid(s->db);
	return store_commit(s);
}

int notes_remove(struct store *s, int64_t note_id)
{
	static const char sql[] = "DELETE FROM note WHERE id = ?1 AND kind = 'explained'";
	sqlite3_stmt *st;
	int changed;

	if (store_begin(s) < 0)
		return -1;
	st = store_stmt(s, sql);
	sqlite3_bind_int64(st, 1, note_id);
	if (store_exec_stmt(s, st, "cannot remove the note") < 0) {
		store_rollback(s);
		return -1;
	}
	changed = sqlite3_changes(s->db);
	if (store_commit(s) < 0)
		return -1;
	return changed ? 0 : 1;
}
