/*
 * The producer contract: run manifests (`tiadash.run.v1`, SPEC 3.1) and
 * indexes (`tiadash.index.v1`). Parsing checks every field's type and says
 * which field of which file is wrong; it does not open referenced files.
 */
#ifndef TIADASH_INGEST_MANIFEST_H
#define TIADASH_INGEST_MANIFEST_H

/*
 * What one manifest may say, so that no run steers every sum: a job of 30
 * days at most, 1000 attempts, a PR number git hosts give, a suite or a
 * workspace of 100 million tests or packages. Out of range: file:line error.
 * record writes nothing ingest would refuse.
 */
#define MANIFEST_MAX_WALL_CLOCK_S 2592000.0
#define MANIFEST_MAX_ATTEMPT INT64_C(1000)
#define MANIFEST_MAX_PR INT64_C(2147483647)
#define MANIFEST_MAX_COUNT INT64_C(100000000)

#include "core/tiadash.h"
#include "core/query.h"

struct manifest_selection {
	bool present;
	enum decision decision;
	struct strlist reasons;
	bool has_total, has_selected_count;
	int64_t total_tests, selected_count;
	/* One of the three forms, or none. */
	bool has_selected;
	struct strlist selected;
	char *selected_file;
	char *engine_file;
	char *lane; /* engine_file lane, default "unit" */
	/*
	 * A selector's own output ("format": NAME, "file": PATH; adapters/adapter.h):
	 * the file is read from selected_file as that format (format "cbm" is
	 * an engine_file), and its decision is the run's unless the manifest
	 * gives one (has_decision). root: the directory the tool ran in;
	 * total_packages: how many packages (turbo) or projects (moon) exist.
	 */
	char *format;
	char *root;
	bool has_decision, has_total_packages;
	int64_t total_packages;
};

struct manifest {
	char *repo; /* "" when absent */
	bool has_pr;
	int64_t pr;
	char base[41], head[41];
	enum run_kind kind;
	int attempt;
	int64_t started_at;
	double wall_clock_s; /* NAN when absent */
	enum verdict verdict;
	struct manifest_selection sel;
	struct strlist results, coverage;
	char **result_workdirs; /* per result: its own workdir, or NULL for the run's */
	bool has_failed;
	struct strlist failed;
	char *quarantine;
	/*
	 * The directory the test runner ran in, relative to the repository
	 * root (NULL: the root): relative names in its reports and selection
	 * resolve below it first (core/identity.h).
	 */
	char *workdir;
};

void manifest_init(struct manifest *m);
void manifest_release(struct manifest *m);

/*
 * Parse manifest text (NUL-terminated at len). Returns 0, or -1 after
 * error() naming `name:line` and the field.
 */
int manifest_parse(const char *text, size_t len, const char *name, struct manifest *m);

/* Parse an index into the list of run references it names. */
int index_parse(const char *text, size_t len, const char *name, struct strlist *runs);

enum json_kind { JSON_OTHER, JSON_MANIFEST, JSON_INDEX };
/* Which tiadash schema a JSON text declares (cheap, for sniffing). */
enum json_kind manifest_sniff(const char *head, size_t len);

#endif
