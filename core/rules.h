/*
 * Force-full rules: an ordered list of (action, glob) pairs where, for each
 * changed path, the first rule whose glob matches decides what the path
 * does to a change (core/glob.h has the glob syntax).
 *
 *   run_all   the change runs every test (a force-full trigger)
 *   ignore    the path selects nothing
 *   select    the path selects the tests, suites or directories named
 *
 * Sources, in the order a caller adds them:
 *   - tiadash rule files: one glob per line (= run_all), or
 *     "ACTION GLOB [TEST...]" lines; '#' comments and blank lines;
 *   - a selector's own configuration, read by its adapter
 *     (adapters/adapter.h: vitest, turbo, moon, harness, gstack, cbm);
 *   - tiadash's built-in force-full defaults (rules_add_builtin).
 * The rules in effect are the first two, never the third: the built-ins
 * are candidates (SPEC 6). adapters/ruleset.h finds and reads them for a
 * repository; rules_label says where a rule comes from, in every view.
 *
 * Every rule holds exactly one glob (a rule-file line or one entry of a cbm
 * rule's "paths"); rules from one source line or one cbm rule share an id.
 *
 * Ownership: struct rules owns its rules and their strings; release with
 * rules_release. Matching borrows nothing from the caller.
 */
#ifndef TIADASH_CORE_RULES_H
#define TIADASH_CORE_RULES_H

#include "core/tiadash.h"
#include "core/util.h"

struct glob_set;

enum rule_action {
	RULE_RUN_ALL,
	RULE_IGNORE,
	RULE_SELECT,
};

/*
 * A rule whose action depends on what the change did to the file, as its
 * selector decides (an adapter's: turbo's lockfile). judge gets the file's
 * bytes before and after the change (NULL: absent on that side) and
 * returns the action that applies, with *why the reason when it is not the
 * rule's own. Where the bytes are not at hand (`rules --test`, proposals),
 * the rule's own action stands, and `when` says what the judge looks at.
 */
struct rule_judge {
	enum rule_action (*judge)(const char *before, size_t blen,
				  const char *after, size_t alen, const char **why);
	const char *when; /* "run_all when ..." */
};

struct rule {
	enum rule_action action;
	char *id;     /* "builtin:lockfile", a cbm rule id, or "FILE:LINE" */
	char *glob;   /* as written, braces and all */
	char *name;   /* the reason it gives: "force-full:GLOB", "ignore:GLOB", "select:GLOB" */
	char *origin; /* where it came from: "FILE:LINE", "built-in", ... */
	char *source; /* the rule file or selector config it is in effect from, as
		       * shown (adapters/ruleset.h sets it); NULL: not in effect */
	struct strlist tests; /* select: test ids, suite keys or directories */
	const struct rule_judge *judge; /* NULL: the glob alone decides */
};

struct rules {
	struct rule *items;
	size_t nr, alloc;
	struct glob_set *set; /* built by rules_compile */
};
#define RULES_INIT { NULL, 0, 0, NULL }

void rules_release(struct rules *r);

const char *rules_action_name(enum rule_action a);
bool rules_action_parse(const char *s, enum rule_action *out);

/*
 * Append one rule. name NULL: the default "force-full:GLOB" form. tests may
 * be NULL. The glob is checked here; -1 after error() naming `origin`.
 */
int rules_add(struct rules *r, enum rule_action action, const char *id,
	      const char *glob, const char *origin, const char *name,
	      const struct strlist *tests);

/* Give the rule added last a judge (static; borrowed). */
void rules_set_judge(struct rules *r, const struct rule_judge *j);

/*
 * The action rule x takes for one change of its path: its judge's verdict
 * on the bytes (before/after NULL: absent), else its own. *why: the reason
 * the change gives (the rule's name, or the judge's).
 */
enum rule_action rules_judge(const struct rule *x, const char *before, size_t blen,
			     const char *after, size_t alen, const char **why);

/* Append tiadash's built-in force-full defaults (ids "builtin:..."). */
void rules_add_builtin(struct rules *r);

/* Is x one of tiadash's built-in defaults (a candidate, never in effect)? */
bool rules_is_builtin(const struct rule *x);
/* Give rules [from, nr) their source (copied): the file they are in effect from. */
void rules_set_source(struct rules *r, size_t from, const char *source);
/*
 * Where a rule comes from, the one way every view says it, appended to
 * out: "in effect: SOURCE" (a rule file or selector config),
 * "suggested: built-in" (a built-in candidate), else its origin
 * ("--what-if"). Not escaped: the caller escapes for its format.
 */
void rules_label(const struct rule *x, struct strbuf *out);
/* The rule's reason and its label: "force-full:GLOB (suggested: built-in)". */
void rules_describe(const struct rule *x, struct strbuf *out);

/*
 * Parse a tiadash rule file's text; `path` names it in errors
 * ("PATH:LINE: why"). Stops at the first error: -1 after error(), and the
 * rules added so far stay (callers fail the whole load).
 */
int rules_parse_tiadash(struct rules *r, const char *text, size_t len,
			const char *path);

/* Build the matcher; call after the last add. -1 after error(). */
int rules_compile(struct rules *r);

/* rules_match's answer when the matcher failed: treat as run_all. */
#define RULES_MATCH_ERROR (-2)

/* Index of the first rule matching path, -1 for none, or RULES_MATCH_ERROR. */
int rules_match(const struct rules *r, const char *path);
/* The same from any thread, each with a scratch of its own (core/glob.h; NULL: rules_match). */
struct glob_scratch;
int rules_match_in(const struct rules *r, const char *path, struct glob_scratch *s);
/* Does a rule have a judge (it reads the repository: one thread at a time)? */
bool rules_have_judge(const struct rules *r);

/* The built-in table, for `tiadash rules --builtin` and the man page. */
struct rule_builtin {
	const char *id, *glob;
};
extern const struct rule_builtin rules_builtin[];
extern const size_t rules_builtin_nr;

#endif
