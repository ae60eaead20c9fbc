/*
 * A libgit2 index in git's plain on-disk form, as bytes: what a worktree
 * checkout writes over its index file in place (libgit2 writes an index
 * only as a new lock file renamed over the old one, and hashes it with
 * SHA-1DC: 0.2 ms of each replay selector call on a 300-file tree).
 */
#ifndef TIADASH_CORE_GITINDEX_H
#define TIADASH_CORE_GITINDEX_H

#include "core/tiadash.h"
#include "core/util.h"

#include <git2.h>

/*
 * Append index to out as git's index version 2 (the header, the entries in
 * libgit2's order, no extension, the SHA-1 trailer): the bytes libgit2's
 * git_index_write puts in the file for an index without a tree cache. 1,
 * and nothing appended, when that form cannot hold index (another version,
 * an entry's intent-to-add or skip-worktree flag, conflict names,
 * resolve-undo records, or case-folded order): libgit2 must write it then.
 */
int gitindex_serialize(git_index *index, struct strbuf *out);

#endif
