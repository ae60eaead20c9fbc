/*
 * The command line: the command table, the context a command runs in (store
 * and repository opened according to its flags), and option helpers shared
 * by every command (output formats, window bounds, usage text).
 */
#ifndef TIADASH_CORE_CLI_H
#define TIADASH_CORE_CLI_H

#include "core/tiadash.h"
#include "core/util.h"


struct store;
struct repo;
struct repo_later;
struct opt;

enum cmd_flags {
	NEED_DB_RO = 1 << 0,   /* open an existing store */
	NEED_DB_RW = 1 << 1,   /* open the store, creating it when missing */
	NEED_REPO = 1 << 2,    /* a git repository is required */
	WANT_REPO = 1 << 3,    /* the git repository when there is one, opened at first use */
	DB_IF_EXISTS = 1 << 4, /* with NEED_DB_RO: an absent store is no store (store NULL) */
	OPTS_IN_ORDER = 1 << 5, /* options end at the first operand (getopt's "+") */
};

struct cmd_context {
	const char *db_path;   /* resolved store path (may be NULL before open) */
	const char *repo_path; /* --repo, or NULL: the one around the cwd */
	struct store *store;   /* opened per NEED_DB_* */
	struct repo *repo;     /* opened per NEED_REPO, else NULL */
	struct repo_later *repo_later; /* per WANT_REPO (cmd_repo), else NULL */
	int64_t now;           /* time_now_ms() at start */
};

/*
 * A WANT_REPO command's repository, opened now if it was not yet (from any
 * thread); NULL when there is none. NEED_REPO commands use ctx->repo.
 */
struct repo *cmd_repo(struct cmd_context *ctx);

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmd_context *ctx);
	unsigned flags;
	const char *usage;   /* "tiadash ingest [options] SOURCE..." */
	const char *summary; /* one line for `tiadash help` */
	/*
	 * The command's option table (core/options.h): its parser, its
	 * --help and the options its man-page synopsis names. The dispatcher
	 * checks the arguments against it before opening the store, so a
	 * usage error is reported as one even when the store is missing.
	 * NULL: the command takes no options.
	 */
	const struct opt *opts;
	/* Paragraphs --help prints before and after the options, or NULL. */
	const char *intro;
	const char *notes;
	/*
	 * Optional: check the arguments before the store and repository are
	 * opened (a usage error creates nothing). 0, or the exit status.
	 */
	int (*check)(int argc, char **argv, struct cmd_context *ctx);
};

/*
 * Each command defines its `const struct cmd cmd_NAME` beside its code and
 * is listed once in core/commands.h and the table in core/dispatch.c.
 */
const struct cmd *find_command(const char *name);
/* The table, NULL-terminated, for help and the man-page check. */
extern const struct cmd *const command_table[];

/* SIGPIPE's disposition when tiadash started (core/main.c ignores it). */
struct sigaction;
extern struct sigaction sigpipe_at_start;

/* Run the program; returns the exit status. */
int tiadash_main(int argc, char **argv);

/*
 * After an unknown name: print git's "The most similar command is ..."
 * to stderr for the names of nr within a small edit distance of typed
 * (each shown with prefix, "--" for options). Nothing when none is close.
 */
void suggest_similar(const char *what, const char *typed, const char *const *names,
		     size_t nr, const char *prefix);

/* "usage: tiadash [--db PATH] ..." of the program, two lines. */
extern const char program_usage[];
/* Print a command's usage and help to f (fitted to 80 columns). */
void print_command_help(FILE *f, const struct cmd *c);
/* Print "usage: ..." of a command to f. */
void print_command_usage(FILE *f, const struct cmd *c);
/* Report a usage error for command c ("error: ...", then its usage); returns 2. */
int usage_error(const struct cmd *c, const char *fmt, ...) ATTR_FORMAT(2, 3);

enum output_format {
	FORMAT_TEXT = 1 << 0,
	FORMAT_MD = 1 << 1,
	FORMAT_JSON = 1 << 2,
	FORMAT_CSV = 1 << 3,
	FORMAT_HTML = 1 << 4,
};
/* Parse a --format value among `allowed` (a mask); false if not allowed. */
bool parse_format(const char *s, unsigned allowed, enum output_format *out);

/*
 * The window of SPEC 4: since inclusive, until exclusive; INT64_MIN /
 * INT64_MAX when unbounded; repo "" for every repo.
 */
struct window {
	int64_t since, until;
	const char *repo;
};
#define WINDOW_ALL { INT64_MIN, INT64_MAX, "" }
/* Parse one bound; false (after error()) on junk. */
bool parse_window_bound(const char *opt, const char *value, int64_t now, int64_t *out);

#endif
