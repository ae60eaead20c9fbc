/*
 * Writing explained-escape notes (the store's `note` table, kind
 * 'explained'): the dashboard's and `propose --explain`'s one writer.
 * Reading them is core/query.h's query_notes.
 */
#ifndef TIADASH_CORE_NOTES_H
#define TIADASH_CORE_NOTES_H

#include "core/tiadash.h"
#include "core/store.h"

/*
 * Store an explained note on a head, created at `now` (ms), in its own
 * transaction. text must be non-empty after trimming blanks (stored as
 * given). *note_id (may be NULL) receives the new note's id, for undo.
 * Returns 0, or -1 after error().
 */
int notes_add(struct store *s, int64_t head_id, const char *text, int64_t now,
	      int64_t *note_id);

/* Delete one note (undo of notes_add). Returns 0, 1 when no such note, or -1 after error(). */
int notes_remove(struct store *s, int64_t note_id);

#endif
