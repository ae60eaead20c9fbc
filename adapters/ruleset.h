/*
 * The rules in effect for a repository, and tiadash's built-in defaults
 * beside them as candidates (SPEC 6): the one resolver behind show, rules,
 * replay, propose, the dashboard and the report page, so that every view
 * names the same rule with the same source (core/rules.h rules_label:
 * "in effect: vitest.config.ts", "suggested: built-in").
 *
 * The rules in effect are the rule files and selector configurations
 * given, else those found at the root of the repository: each adapter's
 * first configuration that exists (vitest.config.*, turbo.json,
 * .moon/tasks/all.yml, .gstack/always-run.json, .codebase-memory.json),
 * then .tiadash/rules. Never the built-ins: a built-in that matches a path
 * no rule in effect decides is a suggestion. The files are read from the
 * working tree as they are now.
 *
 * Ownership: struct ruleset owns its rules and strings; ruleset_release.
 */
#ifndef TIADASH_ADAPTERS_RULESET_H
#define TIADASH_ADAPTERS_RULESET_H

#include "core/tiadash.h"
#include "core/rules.h"
#include "core/util.h"

struct ruleset {
	struct rules effect;   /* compiled; each rule's source is its file as shown */
	struct rules builtin;  /* compiled; the built-in candidates (none: not offered) */
	struct strlist files;  /* the files the rules in effect came from, in order, as read */
	char *root;            /* the repository's root; NULL: none found */
};
#define RULESET_INIT { RULES_INIT, RULES_INIT, STRLIST_INIT, NULL }

enum {
	RULESET_BUILTIN = 1 << 0,   /* offer the built-in candidates */
	RULESET_NEW_FIRST = 1 << 1, /* a first given file may not exist yet (an accept creates it) */
};

/*
 * Resolve the rules for the repository around repo_path (NULL: the
 * current directory's): every file of `files` in order, none given: those
 * found at its root. -1 after error() naming the file and line.
 */
int ruleset_resolve(struct ruleset *out, const struct strlist *files,
		    const char *repo_path, unsigned flags);
void ruleset_release(struct ruleset *s);

/*
 * The rule a path meets: the first rule in effect that matches it, else
 * (*suggested set) the first built-in candidate; NULL for none. A matcher
 * failure is *failed (read as run_all).
 */
const struct rule *ruleset_match(const struct ruleset *s, const char *path,
				 bool *suggested, bool *failed);

/*
 * What every view says of one changed path, appended to out (not
 * escaped): "force-full:GLOB (in effect: FILE)", "no rule", or
 * "no rule; force-full:GLOB (suggested: built-in)".
 */
void ruleset_path_text(const struct ruleset *s, const char *path, struct strbuf *out);

/*
 * The same in JSON, keys added to o: "rule" (the rule in effect's reason,
 * or null), "rule_source" (its rules_label, or null) and "suggested" (the
 * built-in candidate's reason when no rule in effect decides, or null).
 */
struct cJSON;
void ruleset_path_json(const struct ruleset *s, const char *path, struct cJSON *o);
/*
 * The same as the next three cells of t's row, string columns keyed as
 * those ("rule", "rule_source", "suggested"; a null cell for null).
 */
struct table;
void ruleset_path_cells(const struct ruleset *s, const char *path, struct table *t);

/* Read one rule file or selector configuration (adapters/adapter.h decides whose). */
int rules_load_file(struct rules *r, const char *path);
/*
 * The same, its rules in effect from it: their source is path relative to
 * root when below it (root NULL: path). skip: the file is not there yet.
 */
int ruleset_load_file(struct rules *r, const char *path, const char *root, bool skip);

#endif
