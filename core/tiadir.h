/*
 * tiadash's own folder in a repository (.tiadash/): whoever makes it
 * (init, the store, record's runs, replay's worktrees and selector cache,
 * seed's run files) makes it with its .gitignore, so `git status` never
 * shows what tiadash keeps there; the rules and the config are the team's.
 */
#ifndef TIADASH_CORE_TIADIR_H
#define TIADASH_CORE_TIADIR_H

#include "core/tiadash.h"

/*
 * Write DIR/.gitignore (DIR a .tiadash folder) unless one is there: the
 * store, runs/, seed/, worktrees/, selector-cache/; by_init: a file to
 * commit, else one that ignores itself too. 1 when written, 0 when there
 * already, -1 after error().
 */
int tiadir_write_gitignore(const char *dir, bool by_init);

/*
 * Before making path: when it lies at or below a folder named .tiadash
 * that does not exist yet, make that folder (and its parents) with its
 * .gitignore (one that ignores itself). 0, or -1 after error().
 */
int tiadir_prepare(const char *path);

#endif
