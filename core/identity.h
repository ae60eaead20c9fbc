/*
 * Test identity through the repository tree (SPEC 3.3): the names a JUnit
 * producer, a selector or a test list gives a test are resolved, at
 * ingest, to the repository path they mean in the tree at the run's head,
 * so every reader joins on paths whatever the producer wrote.
 *
 * A suite key (the `file` attribute, a classname, a suite's name; a
 * selection entry; the suite part of a listed test id) resolves, in order:
 *
 *   1. as a path: under the run's workdir (the directory, relative to the
 *      root, its runner ran in), else from the root, when the tree has that
 *      file or directory;
 *   2. a Go import path (go-junit-report, gotestsum): through the module
 *      path of a go.mod to the package directory;
 *   3. a dotted classname: Python's `tests.exports.test_csv.TestWidth` to
 *      tests/exports/test_csv.py (the rest, TestWidth, is the class part of
 *      the case name); Java, Kotlin, Scala and Groovy's `com.acme.FooTest`
 *      (or `com.acme.FooTest$Inner`) to the one **\/com/acme/FooTest.java
 *      (.kt, .scala, .groovy); a .NET `Acme.Tests.FooTests` (or
 *      `...FooTests+Inner`) to its one FooTests.cs, the one whose
 *      directories carry most of the namespace;
 *   4. a relative path that is not at the root, under exactly one package
 *      directory of the tree (core/treeindex.h), or, when several have it,
 *      exactly one of those the run's change touches;
 *   5. selection entries only: a Turborepo package name or a moon project
 *      id, to its directory.
 *
 * A listed id (identity_test_id) that is Go's bare `TestX` or `TestX/sub`
 * and resolves to no path becomes `pkg/dir::TestX` when the *_test.go
 * files of exactly one package directory (or one under the workdir) define
 * `func TestX(`; several: ambiguous.
 *
 * A bare token (`money`, `ledger_io`: letters, digits, '_' and '-', no '/'
 * or '.') that none of these resolves is a suite name, not a path: ctest,
 * googletest's suites and codebase-memory-mcp name tests that way on both
 * sides of the join, so it is its own identity (ID_NAME), joined as
 * written and not counted as unresolved.
 *
 * What does not resolve is never guessed: an ambiguous name (two
 * FooTest.java), one with a `..` component or an absolute path, one the
 * tree does not have, and every name of a run whose head is not in the
 * repository stay as written and are counted as unresolved. For JUnit
 * suite keys and listed failures the config's id-map rules (core/idmatch.h)
 * are tried on a name that does not resolve to a path as written (a suite
 * name too), before resolving again.
 *
 * Resolution is cached per key, and the tree's index per head (a few heads
 * per thread), so a report of 10^5 cases costs one look-up per distinct
 * suite. Not thread-safe: one cache per thread.
 */
#ifndef TIADASH_CORE_IDENTITY_H
#define TIADASH_CORE_IDENTITY_H

#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/repo.h"

enum id_state {
	ID_RESOLVED,
	ID_NAME,       /* a suite name that claims no place in the tree (see above) */
	ID_NOT_FOUND,  /* the tree has nothing by that name */
	ID_AMBIGUOUS,  /* it names several paths */
	ID_OUTSIDE,    /* an absolute path, or a ".." component */
	ID_NO_TREE,    /* no repository, or its head is not in it */
};
/* "resolved", "a suite name", "not found", "ambiguous", "outside the tree", "no tree". */
const char *id_state_name(enum id_state s);

struct id_result {
	const char *key;    /* the repository path, or the name as written */
	const char *suffix; /* a classname's class part ("TestWidth", "Outer::Inner"), or "" */
	enum id_state state;
};

/* Flags of identity_suite and identity_test_id. */
#define ID_ENTRY (1u << 0) /* a selection entry: package names and project ids too */
#define ID_MAP (1u << 1)   /* a reported name: the id-map may rewrite it */

/* Is the name joined: resolved to a path, or a suite name that claims none? */
static inline bool id_state_joined(enum id_state s)
{
	return s == ID_RESOLVED || s == ID_NAME;
}

struct identity_cache;
struct identity_cache *identity_cache_new(void);
void identity_cache_free(struct identity_cache *c);

struct identity;

/*
 * The resolver for a run: its head and base commits (40-hex), the
 * directory its runner ran in (NULL or "": the root), its change (for the
 * package fallback; NULL: none) and the id-map (NULL: none). r NULL or a
 * head not in it: every name stays as written (ID_NO_TREE). The resolver
 * lives in c, until c has been asked for four other runs' resolvers; a run
 * of the same head, base and map shares it (with its own workdir).
 */
struct identity *identity_for_run(struct identity_cache *c, struct repo *r,
				  const char *head, const char *base,
				  const char *workdir, const struct repo_diff *change,
				  const struct idmap *map);

/*
 * Resolve what follows as written by a runner that ran in workdir (NULL
 * or "": the root), e.g. one report of a monorepo's run.
 */
void identity_use_workdir(struct identity *id, const char *workdir);

/* Can resolving change a name? Not without a tree and an id-map. */
bool identity_rewrites(const struct identity *id, unsigned flags);

/*
 * Resolve one suite key. The answer is borrowed and valid only until the
 * next look-up on id (which may grow, so move, the answers); its key and
 * suffix strings stay valid as long as id.
 */
const struct id_result *identity_suite(struct identity *id, const char *key,
				       unsigned flags);

/*
 * A JUnit case's stored suite key (into suite, reset first) from its
 * `file` attribute, its classname and the enclosing suite's file or name
 * (each NULL or "" when absent), tried in that order: the first that
 * resolves to a path wins, else the first given, as written. The suite's
 * is not tried after a classname that is a suite name (ctest's suites). Into cls (reset first) the class
 * part of a classname, which goes in front of the case name
 * ("TestWidth::test_x"), also when a `file` attribute names the module
 * the classname starts with (pytest's legacy reports). suite may be NULL
 * when !identity_rewrites(id, ID_MAP): the key is then the first given.
 */
enum id_state identity_junit_case(struct identity *id, const char *file,
				  const char *classname, const char *suite_key,
				  struct strbuf *suite, struct strbuf *cls);

/*
 * Can no id-map change the key of a case with these names
 * (identity_junit_case's), or of a listed id (identity_test_id's)? Only
 * when its first name resolves to a path as written: the rules are tried
 * on a name that does not (core/rekey.h keeps the others' names).
 */
bool identity_junit_fixed(struct identity *id, const char *file, const char *classname,
			  const char *suite_key);
bool identity_id_fixed(struct identity *id, const char *text);

/* Does id resolve through a tree (the head is in the repository)? */
bool identity_has_tree(const struct identity *id);

/*
 * Append the class part a classname gives beyond the module a `file`
 * attribute names ("tests/a.py", "tests.a.TestA.TestB": "TestA::TestB");
 * nothing when it names none.
 */
void identity_class_part(const char *file, const char *classname, struct strbuf *out);

/*
 * A test id or selection entry in any accepted form (SUITE::CASE,
 * suite:case, SUITE; core/idmatch.h) with its suite part resolved, into
 * out (appended). out may be NULL when !identity_rewrites(id, flags): the
 * name stays as written, only its state is wanted.
 */
enum id_state identity_test_id(struct identity *id, const char *text,
			       unsigned flags, struct strbuf *out);

/*
 * Does the id-map rewrite a name identity_test_id looks up for text (its
 * suite part, or the class part before its last '.')? When not, text
 * resolves through the id-map as it does without it.
 */
bool identity_map_touches(const struct identity *id, const char *text);

/*
 * Every name of l resolved in place by identity_test_id: a selector's
 * entries (ID_ENTRY: a moon project id becomes its directory) as ingest
 * stores them and replay compares them. seen (NULL: none) is told each
 * name as written with its state.
 */
void identity_resolve_list(struct identity *id, struct strlist *l, unsigned flags,
			   void (*seen)(const char *name, enum id_state state, void *data),
			   void *data);

/* How many moon projects the run's tree has (0: none, or no tree). */
size_t identity_moon_projects(struct identity *id);
/* How many workspace packages (turbo's) the run's tree has (0: none, or no tree). */
size_t identity_turbo_packages(struct identity *id);

#endif
