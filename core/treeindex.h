/*
 * The tree at one commit, read through libgit2 (no checkout) for resolving
 * test names (core/identity.h). Path look-ups go straight to the tree; the
 * rest is built on first need by one walk of it (node_modules left out):
 * paths by base name, the package directories (those holding a package
 * manifest: package.json, go.mod, moon.yml, pyproject.toml, pom.xml,
 * build.gradle, Cargo.toml, a *.csproj, ...), the Go modules of its go.mod
 * files, and the directories of Turborepo packages (the root package.json's
 * "workspaces" or pnpm-workspace.yaml, each package's package.json "name")
 * and of moon projects (.moon/workspace.yml "projects", a project's moon.yml
 * "id"). A workspace file that does not parse names nothing.
 *
 * Ownership: strings returned are owned by the index and live until
 * tree_index_free. Not thread-safe: one index per thread.
 */
#ifndef TIADASH_CORE_TREEINDEX_H
#define TIADASH_CORE_TREEINDEX_H

#include "core/tiadash.h"
#include "core/repo.h"

struct tree_index;

/* Is a file of this base name a package manifest (its directory a package)? */
bool tree_is_package_manifest(const char *base);

/* An index of tree (which it takes over) in r. */
struct tree_index *tree_index_new(struct repo *r, git_tree *tree);
void tree_index_free(struct tree_index *t);

enum tree_kind { TREE_ABSENT = 0, TREE_FILE = 1, TREE_DIR = 2 };
/* Is path ("" and "." are the root) a file, a directory, or absent? */
enum tree_kind tree_index_kind(struct tree_index *t, const char *path);

/* Every path (file or directory) whose last component is base; *nr of them. */
const char *const *tree_index_by_base(struct tree_index *t, const char *base, size_t *nr);

/* Is dir ("" is the root) a package directory? */
bool tree_index_is_package(struct tree_index *t, const char *dir);
/* The package directory nearest above path ("" for the root when none); NULL when none. */
const char *tree_index_package_of(struct tree_index *t, const char *path);

/*
 * The directory of a Go import path through the module path of a go.mod
 * (the longest that prefixes it), when it is a directory of the tree: 1 and
 * the path in *dir (caller frees; "." for the root), else 0.
 */
int tree_index_go_package(struct tree_index *t, const char *import_path, char **dir);

/* Is name[0..n) a Go test function's name (TestX, Test_x, BenchmarkX, FuzzX, ExampleX)? */
bool tree_go_test_name(const char *name, size_t n);
/*
 * The *_test.go files that define the top-level function name (`func
 * name(` at the start of a line); *nr of them. Read on first need, every
 * test file of the tree once, and only when the tree has a go.mod.
 */
const char *const *tree_index_go_test_files(struct tree_index *t, const char *name, size_t *nr);
/*
 * The directory of a Turborepo package name or a moon project id: 1 and the
 * directory (owned by the index), 0 when nothing has that name, -1 when
 * two directories do.
 */
int tree_index_named_package(struct tree_index *t, const char *name, const char **dir);

/* How many moon projects (directories) the workspace has; 0 without one. */
size_t tree_index_moon_projects(struct tree_index *t);
/* How many named workspace packages (Turborepo's, directories) it has; 0 without any. */
size_t tree_index_turbo_packages(struct tree_index *t);

#endif
