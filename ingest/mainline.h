/*
 * Main's line (SPEC 4, inherited): what ingest keeps of the first-parent
 * history of each repository's main branch for main's record.
 */
#ifndef TIADASH_INGEST_MAINLINE_H
#define TIADASH_INGEST_MAINLINE_H

#include "core/tiadash.h"
#include "core/repo.h"
#include "core/store.h"

/*
 * Bring main's line up to date for every repository whose full runs name
 * no PR: from the main branch's tip ($MQ_AFFECTED_BASE, origin/HEAD,
 * origin/main, origin/master, main, master) down to the oldest of those
 * runs, in one transaction. Warns about each such run newer than since_run
 * whose commit is not on the line. Nothing without a repository (r NULL).
 * -1 after error().
 */
int mainline_refresh(struct store *s, struct repo *r, int64_t since_run);

#endif
