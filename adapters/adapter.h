/*
 * Selector adapters: everything tiadash knows about one test selector
 * lives in one file of adapters/, behind one const ops table (tig's
 * `view_ops` shape). Ingest, rules, replay and propose reach a selector
 * only through its table; core/ keeps what all of them share (globs,
 * rules).
 *
 *   adapter     config (detected by name, then content)   answer (what it prints)
 *   vitest      vitest.config.* / vite.config.*:           vitest list --changed B --json
 *               forceRerunTriggers, setupFiles: run_all    [--filesOnly]: test files
 *                                                          (all of them: run_all)
 *   turbo       turbo.json(c): globalDependencies,         turbo run T --affected
 *               turbo.json itself, $TURBO_ROOT$ task       --dry=json, turbo ls
 *               inputs (affectedUsingTaskInputs): run_all; --affected: package dirs
 *               the lockfile, judged by its edit
 *   moon        .moon/tasks/ *.yml: workspace inputs,      moon query projects|tasks
 *               implicitInputs, the file: run_all;         --affected: project dirs
 *               moon.yml: select the project; both:        or project ids
 *               /.moon/ *.yml (moon's implicit inputs)
 *   testmon     (its wrapper's force-full list is a plain  pytest --testmon
 *               glob list: the lists adapter)              --collect-only -q: node ids
 *   harness     any other YAML: selection.no_subset_paths  (none)
 *   gstack      .gstack/always-run.json: the documented     test-impact.ts key --json:
 *               full-run triggers, each listed file         keyless test files
 *   cbm         .codebase-memory.json, other JSON:          selection-engine.json
 *               test_impact.rules and codebase-memory-      (cbm.test_impact.v0)
 *               mcp's built-ins
 *   lists       tiadash rule files, plain glob lists       one test id per line,
 *               (anything else)                            "run_all"/"nothing" first
 *
 * Each table says how to run the selector for a replayed change (`replay
 * --selector NAME`): a shell command run in a worktree checked out at the
 * change's head (replay/selector.c), whose stdout the table's answer reader
 * reads. Globs are translated between each selector's dialect and
 * tiadash's gitignore-style globs (core/glob.h) with the selector's own
 * meaning; what a dialect has and tiadash's rules cannot say is an input
 * error, or a warning where leaving it out only makes the rules fire more
 * often.
 *
 * Writing back (adapter_plan_add, adapter_apply): an accepted glob is added
 * to the list that means "force a full run" in the selector's own file, by
 * inserting text (the rest of the file, comments and formatting included,
 * is kept byte for byte); the result is read again (with the format's own
 * library where there is one) and must read as the old rules plus exactly
 * that glob, or nothing is written. What the target cannot express is
 * refused with the reason.
 */
#ifndef TIADASH_ADAPTERS_ADAPTER_H
#define TIADASH_ADAPTERS_ADAPTER_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/rules.h"
#include "core/util.h"
#include "core/teamfile.h"

/* ---- answers ---- */

struct adapter_opts {
	const char *root;         /* directory stripped from absolute paths; NULL: none */
	const char *lane;         /* cbm: the lane (NULL: "unit") */
	bool has_total_packages;  /* turbo, moon: how many packages there are */
	int64_t total_packages;
	bool has_total_tests;     /* vitest: how many tests the suite has */
	int64_t total_tests;
};
#define ADAPTER_OPTS_INIT { NULL, NULL, false, 0, false, 0 }

/* What a selector's answer says; owns its lists. */
struct adapter_answer {
	enum decision decision;
	struct strlist reasons;
	struct strlist entries;   /* distinct, in the answer's order */
	bool has_selected;
	int64_t selected_count;
};
#define ADAPTER_ANSWER_INIT { DECISION_NONE, STRLIST_INIT, STRLIST_INIT, false, 0 }
void adapter_answer_release(struct adapter_answer *a);

/* One reading of an answer (adapters/common.h has the helpers readers share). */
struct adapter_read;

/* ---- writing ---- */

/* A planned addition; owns its strings. */
struct adapter_edit {
	const struct adapter *adapter;
	int variant;         /* the adapter's own kind of file (moon: tasks or project) */
	bool exists;         /* the file existed (a tiadash rule file may be created) */
	bool present;        /* the glob is there already: nothing to do */
	bool writable;       /* new_text is the file after the edit */
	struct strbuf old_text, new_text;
	char *snippet;       /* !writable: what to paste, and where */
	struct strlist notes;/* what the user should know (dialect changes) */
	struct team_file file; /* read and locked by the plan, written by adapter_apply */
};
#define ADAPTER_EDIT_INIT { NULL, 0, false, false, false, STRBUF_INIT, STRBUF_INIT, \
			    NULL, STRLIST_INIT, TEAM_FILE_INIT }
void adapter_edit_release(struct adapter_edit *e);

/* ---- the ops table ---- */

struct adapter {
	const char *name;              /* "vitest" */
	const char *const *aliases;    /* other names it answers to; NULL-terminated or NULL */
	const char *answer_what;       /* how messages name its answer; NULL: it has none */
	const char *config_what;       /* how messages name its configuration */

	/*
	 * Is the file at path (its base name given) this selector's
	 * configuration, judged by its name? >0: yes, the variant; 0: no.
	 */
	int (*detect_name)(const char *path, const char *base);
	/* A JSON-looking file of another name: is it this selector's? */
	bool (*detect_text)(const char *text, size_t len);

	/* Read an answer into c's out (0, or -1 after error() naming the place). */
	int (*read_answer)(struct adapter_read *c);
	/* Append the rules its configuration means. 0, or -1 after error(). */
	int (*read_rules)(struct rules *r, const char *text, size_t len,
			  const char *path, int variant);
	/*
	 * Plan adding a checked tiadash glob to e->old_text (the file at path,
	 * e->exists says whether it was there): fill e->new_text and set
	 * e->writable, or e->snippet; 0, or -1 after error() saying why the
	 * target cannot hold it.
	 */
	int (*plan_add)(struct adapter_edit *e, const char *path, const char *glob,
			int64_t now);
	/* The glob an added glob reads back as (its dialect's round trip); NULL: itself. */
	char *(*reads_as)(const char *glob);
	enum rule_action adds;         /* the action an added glob reads back with */

	/*
	 * `replay --selector NAME`: the shell command (/bin/sh -c, in the
	 * worktree, TIADASH_BASE/HEAD/TREE set, the paths on stdin) whose
	 * stdout is its answer; NULL: it cannot be run by name.
	 */
	const char *command;
	/*
	 * The command's tool is an npm package's bin: it runs with the
	 * worktree's node_modules/.bin first on PATH, as npx --no-install
	 * would find it, without npm's half second of start-up a call.
	 */
	bool node_tool;
	/* Configuration files (repository-relative) tiadash finds by itself; NULL-terminated or NULL. */
	const char *const *config_files;
};

extern const struct adapter adapter_vitest, adapter_turbo, adapter_moon,
	adapter_testmon, adapter_harness, adapter_gstack, adapter_cbm, adapter_lists;

/* Every adapter, in detection order (lists last). */
extern const struct adapter *const adapters[];
extern const size_t adapters_nr;

/* An adapter by name or alias ("vitest", "pytest", "codebase-memory-mcp"), or NULL. */
const struct adapter *adapter_find(const char *name);
/*
 * An adapter whose answer a manifest or --selection-format may name (the
 * lists adapter's line protocol is replay's), or NULL; and their names,
 * for messages: "vitest, turbo, ...".
 */
const struct adapter *adapter_find_answer(const char *name);
extern const char adapter_answer_names[];

/*
 * Whose configuration the file at path (its text, NUL-terminated at len)
 * is, and which variant; never NULL (a tiadash rule file is the lists
 * adapter's).
 */
const struct adapter *adapter_detect(const char *path, const char *text, size_t len,
				     int *variant);

/*
 * Read a selector's answer (text NUL-terminated at len), named `name` in
 * messages. 0, or -1 after error() ("FILE:LINE: vitest list output: ...");
 * out is released on failure.
 */
int adapter_read_answer(const struct adapter *a, const char *text, size_t len,
			const char *name, const struct adapter_opts *opts,
			struct adapter_answer *out);

/* Append the rules the configuration at path (its text) means. -1 after error(). */
int adapter_read_rules(struct rules *r, const char *text, size_t len, const char *path);

/*
 * Plan adding glob (a tiadash glob) to the configuration at path as a
 * force-full trigger. A tiadash rule file that does not exist is created.
 * The file is read through core/teamfile.h (a symbolic link, a file that
 * is not a regular file, one leading out of the repository: refused) and
 * its directory stays locked until adapter_edit_release.
 * Refused (-1 after error()): a glob that does not compile, holds control
 * characters (C0, DEL, C1), bidirectional formatting characters or invalid
 * UTF-8, leading or trailing blanks, is negated, or that the target cannot
 * hold; a file that does not parse; an edit that does not read back as
 * exactly one more rule. now (ms) dates a rule file's comment.
 */
int adapter_plan_add(const char *path, const char *glob, int64_t now,
		     struct adapter_edit *out);

/* Is glob free of what no rule file may hold (see adapter_plan_add)? -1 after error(). */
int adapter_check_glob(const char *glob);

/*
 * Write a writable plan: the new text replaces the file atomically (same
 * directory, same mode: team_file_replace), refused when the file changed
 * since the plan read it. No backup is left: the diff is shown first, and
 * the history is git's. 0, or -1 after error().
 */
int adapter_apply(struct adapter_edit *e);

/*
 * A unified diff (one hunk, 3 lines of context) from a to b, with the
 * header "--- a_name" / "+++ b_name"; nothing when they are equal.
 */
void adapter_diff(struct strbuf *out, const char *a_name, const char *a, size_t alen,
		  const char *b_name, const char *b, size_t blen);

/*
 * `tiadash rules --add GLOB --into FILE [--dry-run]`: plan, print the diff
 * on stdout, then write unless dry_run. 0, or -1 after error().
 */
int adapter_add(const char *path, const char *glob, bool dry_run, int64_t now);

/* ---- codebase-memory-mcp (adapters/cbm.c) ---- */

/*
 * Parse a .codebase-memory.json and append its test_impact.rules, then
 * codebase-memory-mcp's built-in rules (builtin:test-impact-config,
 * builtin:build, builtin:ci, builtin:vendor, builtin:conftest,
 * builtin:documentation), then its treatment of unmapped files. Actions:
 *   run_all            -> run_all
 *   ignore             -> ignore
 *   suites             -> select the rule's "suites"
 *   lanes              -> select the suites of the named lanes, when the
 *                         file's test_impact.lanes lists them by name
 *   referencing_tests  -> select, naming no tests: which tests mention the
 *                         path is the selector's (or the record's) answer
 * "unmapped_files": "run_all" (the only value, and the default): a path no
 * rule matches runs everything unless it is C-family source, which the
 * engine narrows (rules cbm:c-family, select, and cbm:unmapped, run_all
 * with reason UNMAPPED_FILE).
 */
int rules_parse_cbm(struct rules *r, const char *text, size_t len,
		    const char *path);
/* Does this JSON text carry a cbm.test_impact schema? (For sniffing.) */
bool adapter_cbm_sniff(const char *head, size_t len);

#endif
