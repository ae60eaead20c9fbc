/*
 * The selectors' own force-full configurations, read as tiadash rules
 * (core/rules.h) and written back: rules_load_file hands every file to
 * ruleconf_parse first, so `replay --rules`, `rules --rules` and `propose
 * --rules` take any of them.
 *
 *   file (detected by name, then content)       read as
 *   vitest.config.* / vite.config.*             forceRerunTriggers: run_all
 *   turbo.json, turbo.jsonc                     globalDependencies, turbo.json
 *                                               itself, and with futureFlags.
 *                                               affectedUsingTaskInputs the
 *                                               $TURBO_ROOT$ inputs of tasks:
 *                                               run_all
 *   .moon/tasks.yml, .moon/tasks/ *.yml          workspace-relative ("/...")
 *                                               inputs and implicitInputs of
 *                                               inherited tasks: run_all
 *   moon.yml (a project's)                      workspace-relative inputs of
 *                                               its tasks: select the project
 *   other *.yml, *.yaml                         a harness config:
 *                                               selection.no_subset_paths: run_all
 *   .gstack/always-run.json                     gstack's documented full-run
 *                                               triggers (its key code and the
 *                                               inputs of every key): run_all;
 *                                               each always-run test file:
 *                                               select that file
 *   .codebase-memory.json, other JSON           rules_parse_cbm (core/rules.h)
 *   anything else                               a tiadash rule file; a plain
 *                                               glob list (the pytest-testmon
 *                                               wrapper's force-full list) is one
 *
 * Glob dialects are translated to gitignore-style globs (core/glob.h) with
 * the selector's own meaning: turbo's root-relative globs are anchored
 * ("x" -> "/x"); moon's "/x" is already anchored; vitest matches
 * forceRerunTriggers (picomatch) against absolute paths, so only "**"-led
 * globs can ever fire there: others are left out with a warning saying so.
 * What a dialect has and tiadash's rules cannot say (negated globs,
 * extglobs) is an input error, or, where leaving it out only makes the
 * rules fire more often (a turbo or moon negation), a warning.
 *
 * Writing (ruleconf_plan_add, ruleconf_apply): the glob is added as the
 * last entry of the list that means "force a full run" in that format,
 * by inserting text (the rest of the file, comments included, is kept
 * byte for byte), and the result is parsed again with the format's own
 * library (cJSON, libyaml) and must equal the old document plus exactly
 * that entry, or nothing is written. vitest (TypeScript) and moon configs
 * are never written: the plan is a snippet to paste.
 */
#ifndef TIADASH_CORE_RULECONF_H
#define TIADASH_CORE_RULECONF_H

#include "core/tiadash.h"
#include "core/rules.h"
#include "core/util.h"

#include <cJSON.h>

enum ruleconf_format {
	RULECONF_TIADASH,      /* tiadash rule file or plain glob list */
	RULECONF_CBM,          /* .codebase-memory.json */
	RULECONF_VITEST,
	RULECONF_TURBO,
	RULECONF_MOON_TASKS,   /* .moon/tasks.yml, .moon/tasks/ *.yml */
	RULECONF_MOON_PROJECT, /* moon.yml */
	RULECONF_HARNESS,      /* YAML with selection.no_subset_paths */
	RULECONF_GSTACK,       /* .gstack/always-run.json */
};

/* Which format path (with text, NUL-terminated at len) is. */
enum ruleconf_format ruleconf_detect(const char *path, const char *text, size_t len);
/* "tiadash", "codebase-memory-mcp", "vitest", "turbo", "moon", "moon", "harness", "gstack". */
const char *ruleconf_format_name(enum ruleconf_format f);

/* ruleconf_parse's answer for a tiadash rule file or a .codebase-memory.json. */
#define RULECONF_NOT_NATIVE 1

/*
 * Append the rules a selector's configuration means (see the table above)
 * to r. Returns 0, -1 after error() ("FILE:LINE: vitest config: ..."), or
 * RULECONF_NOT_NATIVE when the file is tiadash's own format or a
 * .codebase-memory.json, which rules_load_file reads itself.
 */
int ruleconf_parse(struct rules *r, const char *text, size_t len, const char *path);

/*
 * Parse JSON (NUL-terminated at len) with cJSON; with allow_comments, a
 * text cJSON refuses is tried again without its // and block comments
 * (turbo.json is JSONC). NULL after error("NAME:LINE: WHAT: invalid JSON")
 * or "... unexpected end of input (truncated?)". Caller deletes.
 */
cJSON *ruleconf_json_parse(const char *text, size_t len, const char *name,
			   const char *what, bool allow_comments);

/* ---- writing ---- */

/* A planned addition; owns its strings. */
struct ruleconf_edit {
	enum ruleconf_format format;
	bool exists;         /* the file existed (a tiadash rule file may be created) */
	bool present;        /* the glob is there already: nothing to do */
	bool writable;       /* new_text is the file after the edit */
	struct strbuf old_text, new_text;
	char *snippet;       /* !writable: what to paste, and where */
	struct strlist notes;/* what the user should know (dialect changes) */
};
#define RULECONF_EDIT_INIT { RULECONF_TIADASH, false, false, false, STRBUF_INIT, \
			     STRBUF_INIT, NULL, STRLIST_INIT }
void ruleconf_edit_release(struct ruleconf_edit *e);

/*
 * Plan adding glob (a tiadash glob) to the configuration at path as a
 * force-full trigger. A tiadash rule file that does not exist is created.
 * Refused (-1 after error()): a glob that does not compile, holds control
 * characters or leading/trailing blanks, is negated, or that the format
 * cannot hold; a file that does not parse; an edit that does not read back
 * as exactly one more entry. now (ms) dates the comment of a tiadash rule
 * file.
 */
int ruleconf_plan_add(const char *path, const char *glob, int64_t now,
		      struct ruleconf_edit *out);

/*
 * Write a writable plan: path.orig gets the old bytes (when the file
 * existed), then the new text replaces path atomically (same directory,
 * same mode). 0, or -1 after error(), with path untouched.
 */
int ruleconf_apply(const struct ruleconf_edit *e, const char *path);

/*
 * A unified diff (one hunk, 3 lines of context) from a to b, with the
 * header "--- a_name" / "+++ b_name"; nothing when they are equal.
 */
void ruleconf_diff(struct strbuf *out, const char *a_name, const char *a, size_t alen,
		   const char *b_name, const char *b, size_t blen);

/*
 * `tiadash rules --add GLOB --into FILE [--dry-run]`: plan, print the diff
 * (or the snippet) on stdout, then write unless dry_run. Returns 0 (written,
 * dry run, already present, or a snippet printed), or -1 after error().
 */
int ruleconf_add(const char *path, const char *glob, bool dry_run, int64_t now);

#endif
