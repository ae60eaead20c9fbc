/*
 * The program's entry: global options, the command table, and running a
 * command with its store and repository opened according to its flags.
 */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/output.h"
#include "core/repo.h"
#include "core/store.h"
#include "core/timeutil.h"

#include <signal.h>
#include <unistd.h>

struct sigaction sigpipe_at_start; /* set by main() */

const struct cmd *const command_table[] = {
	&cmd_init,
	&cmd_ingest,
	&cmd_record,
	&cmd_status,
	&cmd_diff,
	&cmd_show,
	&cmd_report,
	&cmd_gate_check,
	&cmd_summary,
	&cmd_propose,
	&cmd_replay, &cmd_rules,
	&cmd_tui,
	&cmd_help,
	NULL,
};

static const char program_usage[] =
	"usage: tiadash [--db PATH] [--repo PATH] COMMAND [ARGS...]\n"
	"       tiadash --version | --help\n";

const struct cmd *find_command(const char *name)
{
	for (const struct cmd *const *c = command_table; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

static void print_program_help(FILE *f)
{
	fputs(program_usage, f);
	fputs("\nShadow-run calibration for test-impact analysis: ingest CI "
	      "artifacts,\nmeasure the cheap gate, replay history, propose "
	      "force-full globs.\n\nCommands:\n", f);
	for (const struct cmd *const *c = command_table; *c; c++)
		fprintf(f, "  %-11s %s\n", (*c)->name, (*c)->summary);
	fputs("\nGlobal options:\n"
	      "  --db PATH     the store (default: $TIADASH_DB, else "
	      ".tiadash/tiadash.db\n"
	      "                in the repository root)\n"
	      "  --repo PATH   the git repository (default: the one around "
	      "the current\n"
	      "                directory)\n"
	      "  --version     print the version\n"
	      "\nRun 'tiadash COMMAND --help' for a command's options; "
	      "'man tiadash' for more.\n", f);
}

void print_command_help(FILE *f, const struct cmd *c)
{
	fprintf(f, "usage: %s\n\n%s\n", c->usage, c->summary);
	if (c->help && *c->help)
		fprintf(f, "\n%s", c->help);
}

int usage_error(const struct cmd *c, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	strbuf_release(&msg);
	if (c)
		fprintf(stderr, "usage: %s\n", c->usage);
	else
		fputs(program_usage, stderr);
	return EXIT_INPUT_ERROR;
}

bool parse_format(const char *s, unsigned allowed, enum output_format *out)
{
	static const struct { const char *name; enum output_format f; } names[] = {
		{ "text", FORMAT_TEXT }, { "md", FORMAT_MD },
		{ "json", FORMAT_JSON }, { "csv", FORMAT_CSV },
		{ "html", FORMAT_HTML },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name) && (allowed & names[i].f)) {
			*out = names[i].f;
			return true;
		}
	}
	return false;
}

bool parse_window_bound(const char *opt, const char *value, int64_t now, int64_t *out)
{
	if (time_parse_when(value, now, out))
		return true;
	error("%s '%s': expected 7d, 24h, a date (2026-11-01) or an RFC 3339 "
	      "time", opt, value);
	return false;
}

static int cmd_help_run(int argc, char **argv, struct cmd_context *ctx)
{
	const struct cmd *c;

	UNUSED(ctx);
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		print_program_help(stdout);
		return EXIT_OKAY;
	}
	if (argc > 2)
		return usage_error(&cmd_help, "too many arguments");
	c = find_command(argv[1]);
	if (!c)
		return usage_error(&cmd_help, "unknown command '%s'", argv[1]);
	print_command_help(stdout, c);
	return EXIT_OKAY;
}

const struct cmd cmd_help = {
	.name = "help",
	.fn = cmd_help_run,
	.usage = "tiadash help [COMMAND]",
	.summary = "Show the commands, or one command's options.",
};

/* The store path: --db, $TIADASH_DB, else .tiadash/tiadash.db at the repo root. */
static char *default_db_path(struct cmd_context *ctx)
{
	const char *env = getenv("TIADASH_DB");
	char *root;
	char *path;

	if (env && *env)
		return xstrdup(env);
	root = repo_discover_root(ctx->repo_path);
	if (!root) {
		error("not in a git repository: give --db PATH (or TIADASH_DB), "
		      "or --repo PATH");
		return NULL;
	}
	path = path_join(root, ".tiadash/tiadash.db");
	free(root);
	return path;
}

static int open_context(const struct cmd *c, struct cmd_context *ctx,
			char **owned_db)
{
	if ((c->flags & NEED_REPO) || ((c->flags & WANT_REPO) && ctx->repo_path)) {
		if (repo_open(&ctx->repo, ctx->repo_path) < 0)
			return -1;
	} else if (c->flags & WANT_REPO) {
		char *root = repo_discover_root(NULL);

		/* No repository around the cwd is fine for these commands. */
		if (root && repo_open(&ctx->repo, root) < 0) {
			free(root);
			return -1;
		}
		free(root);
	}
	if (c->flags & (NEED_DB_RO | NEED_DB_RW)) {
		if (!ctx->db_path) {
			*owned_db = default_db_path(ctx);
			if (!*owned_db)
				return -1;
			ctx->db_path = *owned_db;
		}
		if (store_open(&ctx->store, ctx->db_path,
			       (c->flags & NEED_DB_RW) ? STORE_CREATE
						       : STORE_EXISTING) < 0)
			return -1;
	}
	return 0;
}

/* A write error on stdout (a full disk, a closed pipe) is an error too. */
static int finish_stdout(int status)
{
	bool failed = fflush(stdout) || ferror(stdout);
	int err = failed ? (errno ? errno : EIO) : 0;

	if (output_active())
		return output_end(status, err);
	if (failed) {
		if (err != EPIPE)
			error("cannot write output: %s", strerror(err));
		return EXIT_INPUT_ERROR;
	}
	return status;
}

/*
 * Check argv against the command's option table without acting on it;
 * *output is the value of its last -o (OUTPUT_OPTION), or NULL.
 */
static int check_options(const struct cmd *c, int argc, char **argv,
			 const char **output)
{
	const char *shortopts = c->shortopts ? c->shortopts : "";
	bool in_order = *shortopts == '+';
	char *optstring = xstrfmt("%s:%s", in_order ? "+" : "", shortopts + in_order);
	int saved = opterr, ch, ret = 0;

	if (!c->options) {
		free(optstring);
		return 0;
	}
	opterr = 0;
	optind = 0;
	*output = NULL;
	while ((ch = getopt_long(argc, argv, optstring, c->options, NULL)) != -1) {
		if (ch == 'o')
			*output = optarg;
		if (ch == '?' || ch == ':') {
			ret = usage_error(c, "%s option '%s'",
					  ch == ':' ? "missing value for" : "unknown",
					  argv[optind - 1]);
			break;
		}
	}
	opterr = saved;
	optind = 0;
	free(optstring);
	return ret;
}

static int run_command(const struct cmd *c, int argc, char **argv,
		       struct cmd_context *ctx)
{
	char *owned_db = NULL;
	const char *output = NULL;
	int status;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_command_help(stdout, c);
			return finish_stdout(EXIT_OKAY);
		}
	}
	if (check_options(c, argc, argv, &output))
		return EXIT_INPUT_ERROR;
	if (output && output_begin(output) < 0)
		return EXIT_INPUT_ERROR;
	ctx->now = time_now_ms();
	if (open_context(c, ctx, &owned_db) < 0)
		status = EXIT_INPUT_ERROR;
	else
		status = c->fn(argc, argv, ctx);
	store_close(ctx->store);
	repo_close(ctx->repo);
	free(owned_db);
	return finish_stdout(status);
}

/* Global options come before the command name, as with git -C. */
static int parse_global(int *argc, char ***argv, struct cmd_context *ctx)
{
	while (*argc > 0 && (*argv)[0][0] == '-') {
		const char *arg = (*argv)[0];
		const char *val = NULL;

		if (!strcmp(arg, "--version")) {
			printf("tiadash %s\n", TIADASH_VERSION);
			return 1;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			print_program_help(stdout);
			return 1;
		}
		if (!strcmp(arg, "--db") || !strcmp(arg, "--repo")) {
			if (*argc < 2)
				return usage_error(NULL, "%s needs a value", arg);
			val = (*argv)[1];
			(*argc)--, (*argv)++;
		} else if (starts_with(arg, "--db=") || starts_with(arg, "--repo=")) {
			val = strchr(arg, '=') + 1;
		} else {
			return usage_error(NULL, "unknown option '%s'", arg);
		}
		if (!*val)
			return usage_error(NULL, "%.*s needs a value",
					   (int)strcspn(arg, "="), arg);
		if (starts_with(arg, "--db"))
			ctx->db_path = val;
		else
			ctx->repo_path = val;
		(*argc)--, (*argv)++;
	}
	return 0;
}

int tiadash_main(int argc, char **argv)
{
	struct cmd_context ctx = { 0 };
	const struct cmd *c;
	int rc;

	argc--, argv++;
	rc = parse_global(&argc, &argv, &ctx);
	if (rc)
		return finish_stdout(rc == 1 ? EXIT_OKAY : rc);
	if (argc == 0) {
		const struct cmd *tui = find_command("tui");

		if (tui && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
			char *tui_argv[] = { "tui", NULL };

			return run_command(tui, 1, tui_argv, &ctx);
		}
		return usage_error(NULL, "no command given (try 'tiadash help')");
	}
	c = find_command(argv[0]);
	if (!c)
		return usage_error(NULL, "unknown command '%s' (try 'tiadash help')",
				   argv[0]);
	return run_command(c, argc, argv, &ctx);
}
