/*
 * Native selection outputs: what each selector prints about a change, read
 * as a shadow run's selection (SPEC 3.1) without converting it first. A
 * manifest names one with "selection": {"format": NAME, "file": PATH, ...};
 * `tiadash ingest --selection-format NAME` does the same for a bare file.
 *
 *   name     the tool's output                     entries (SPEC 3.3 terms)
 *   vitest   vitest list [--changed B] --json       test file paths
 *            [--filesOnly]
 *   turbo    turbo run T --affected --dry=json, or  package directories
 *            turbo ls --affected --output=json
 *   testmon  pytest --testmon --collect-only -q     pytest node ids, as is
 *   moon     moon query projects --affected [--json] project source dirs
 *            moon query tasks --affected [--json]   project ids (see below)
 *   gstack   scripts/test-impact.ts key --json      test files without a key
 *   cbm      selection-engine.json                  (ingest/cbm.h)
 *
 * Decisions:
 *   vitest   an empty list: nothing; else selected. vitest prints the whole
 *            list when a forceRerunTriggers glob fires and says nothing
 *            about it, so a run_all is only known from the manifest.
 *   turbo    no tasks / packages: nothing; a single-package repository's
 *            task, or a root task (//#T): run_all ("turbo:single-package",
 *            "turbo:root-task"); every package, when total_packages says
 *            how many there are: run_all ("turbo:all-packages-affected");
 *            else selected. turbo does not say why a package is affected.
 *   testmon  "no tests collected": nothing; a summary that counts errors:
 *            run_all ("selector-error"); else selected.
 *   moon     none: nothing; a root-level project (source "."): run_all
 *            ("moon:root-project"); every project (total_packages): run_all
 *            ("moon:all-projects-affected"); else selected.
 *   gstack   no keyless file: nothing; every file keyless: run_all, with
 *            the reasons ("gstack:REASON"); else selected.
 * A "decision" in the manifest (or --decision) overrides the reader's.
 *
 * Paths: vitest prints absolute paths (the test module ids); `root` (the
 * directory the tool ran in, "root" in the manifest, --selection-root) is
 * stripped from them, and an absolute path without a root, or outside it,
 * is an input error. Other relative paths are kept, without "./".
 *
 * selected_count is the number of tests where the output says it (vitest
 * list without --filesOnly: its entries; testmon: the collected count);
 * total_tests is never taken from an output (testmon's "N/M" counts only
 * the files it did not skip).
 *
 * Every reader is strict about the shape it relies on: an unknown format
 * name, a truncated file, or a shape other than the documented one is an
 * input error naming the format and the place ("FILE:LINE: vitest list
 * output: ..."), never a partial read. tests/data/native/README says where
 * each shape comes from.
 */
#ifndef TIADASH_INGEST_NATIVE_H
#define TIADASH_INGEST_NATIVE_H

#include "core/tiadash.h"
#include "core/query.h"
#include "ingest/input.h"

enum native_format {
	NATIVE_VITEST,
	NATIVE_TURBO,
	NATIVE_TESTMON,
	NATIVE_MOON,
	NATIVE_GSTACK,
	NATIVE_CBM,
};

/* A format by name ("vitest", ...; "pytest" and "codebase-memory-mcp" too). */
bool native_format_parse(const char *name, enum native_format *out);
const char *native_format_name(enum native_format f);
/* "vitest, turbo, testmon, moon, gstack, cbm", for messages. */
extern const char native_format_list[];

struct native_opts {
	const char *root;         /* directory stripped from absolute paths; NULL: none */
	const char *lane;         /* cbm: the lane (NULL: "unit") */
	bool has_total_packages;  /* turbo, moon: how many packages there are */
	int64_t total_packages;
};
#define NATIVE_OPTS_INIT { NULL, NULL, false, 0 }

/* What a native output says; owns its lists. */
struct native_answer {
	enum decision decision;
	struct strlist reasons;
	struct strlist entries;   /* distinct, in the output's order */
	bool has_selected;
	int64_t selected_count;
};
#define NATIVE_ANSWER_INIT { DECISION_NONE, STRLIST_INIT, STRLIST_INIT, false, 0 }
void native_answer_release(struct native_answer *a);

/* Read in (its whole text) as format f. 0, or -1 after error(). */
int native_parse(struct input *in, enum native_format f,
		 const struct native_opts *opts, struct native_answer *out);
/* The same for text in memory (NUL-terminated at len), named `name`. */
int native_parse_text(const char *text, size_t len, const char *name,
		      enum native_format f, const struct native_opts *opts,
		      struct native_answer *out);

#endif
