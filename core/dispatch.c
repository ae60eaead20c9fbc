/*
 * The program's entry: global options, the command table, and running a
 * command with its store and repository opened according to its flags.
 */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/manpage.h"
#include "core/options.h"
#include "core/output.h"
#include "core/repo.h"
#include "core/store.h"
#include "core/timeutil.h"

#include <ctype.h>
#include <getopt.h>
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
	&cmd_queue,
	&cmd_tests,
	&cmd_propose,
	&cmd_replay, &cmd_rules,
	&cmd_seed,
	&cmd_tui,
	&cmd_help,
	&cmd_version,
	NULL,
};

const struct cmd *find_command(const char *name)
{
	for (const struct cmd *const *c = command_table; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

static void suggest_command(const char *typed)
{
	const char *names[64];
	size_t nr = 0;

	for (const struct cmd *const *c = command_table; *c && nr < ARRAY_SIZE(names); c++)
		names[nr++] = (*c)->name;
	suggest_similar("command", typed, names, nr, "");
}

/* "  name        summary", the summary wrapped at spaces under itself within 80 columns. */
static void add_command_line(struct strbuf *sb, const char *name, const char *summary)
{
	const size_t indent = 14, room = TEXT_WIDTH - indent;
	const char *s = summary;

	strbuf_addf(sb, "  %-11s ", name);
	while (strlen(s) > room) {
		size_t cut = room;

		while (cut && s[cut] != ' ')
			cut--;
		if (!cut)
			break;
		strbuf_add(sb, s, cut);
		strbuf_addf(sb, "\n%*s", (int)indent, "");
		s += cut + 1;
	}
	strbuf_addf(sb, "%s\n", s);
}

/* Fitted to 80 columns, as every command's --help. */
static void print_program_help(FILE *f)
{
	struct strbuf sb = STRBUF_INIT, fitted = STRBUF_INIT;

	strbuf_addstr(&sb, program_usage);
	strbuf_addstr(&sb, "\nShadow-run calibration for test-impact analysis: ingest CI "
	      "artifacts,\nmeasure the cheap gate, replay history, propose "
	      "force-full globs.\n\nCommands:\n");
	for (const struct cmd *const *c = command_table; *c; c++)
		add_command_line(&sb, (*c)->name, (*c)->summary);
	strbuf_addstr(&sb, "\nGlobal options:\n"
	      "  --db PATH     the store (default: $TIADASH_DB, else "
	      ".tiadash/tiadash.db\n"
	      "                in the repository root)\n"
	      "  --repo PATH   the git repository (default: the one around "
	      "the current\n"
	      "                directory)\n"
	      "  --version     print the version\n"
	      "\nRun 'tiadash COMMAND --help' for a command's options, 'tiadash help "
	      "COMMAND'\nfor its section of the manual, 'tiadash help TOPIC' for one of "
	      "the manual's\nsections (windows, keys, rules, environment, examples, "
	      "...).\n");
	text_fit(&fitted, sb.buf, sb.len, TEXT_WIDTH);
	fwrite(fitted.buf, 1, fitted.len, f);
	strbuf_release(&sb);
	strbuf_release(&fitted);
}

/* Through $PAGER (default less) when stdout is a terminal, as git's help does. */
static int page_out(const char *text, size_t len)
{
	const char *pager = getenv("PAGER");
	FILE *f = NULL;
	int rc = 0;

	if (isatty(STDOUT_FILENO) && !(pager && !*pager)) {
		fflush(stdout);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		f = popen(pager ? pager : "less", "w");
	}
	if (!f)
		return fwrite(text, 1, len, stdout) == len ? 0 : -1;
	if (fwrite(text, 1, len, f) != len && errno != EPIPE)
		rc = -1;
	pclose(f);
	return rc;
}

/* The commands, and the words of the manual's section titles ("windows"). */
static void suggest_topic(const char *typed)
{
	struct strlist names = STRLIST_INIT, titles = STRLIST_INIT;

	for (const struct cmd *const *c = command_table; *c; c++)
		strlist_push(&names, (*c)->name);
	man_topics(tiadash_man_page, &titles);
	for (size_t i = 0; i < titles.nr; i++) {
		for (char *w = strtok(titles.items[i], " "); w; w = strtok(NULL, " ")) {
			for (char *p = w; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (strlen(w) > 3 && !find_command(w))
				strlist_push(&names, w);
		}
	}
	suggest_similar("topic", typed, (const char *const *)names.items, names.nr, "");
	strlist_release(&names);
	strlist_release(&titles);
}

static int cmd_help_run(int argc, char **argv, struct cmd_context *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	UNUSED(ctx);
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		print_program_help(stdout);
		return EXIT_OKAY;
	}
	/* Hidden, for t0100: the options of a command's table, one a line. */
	if (argc == 3 && !strcmp(argv[1], "--options")) {
		const struct cmd *c = find_command(argv[2]);

		if (!c || !c->opts) {
			error("'%s' has no option table", argv[2]);
			return EXIT_INPUT_ERROR;
		}
		opt_list_names(stdout, c->opts);
		return EXIT_OKAY;
	}
	if (argc > 2)
		return usage_error(&cmd_help, "too many arguments");
	/* The command's (or topic's) section of the manual, from the binary. */
	if (man_render_topic(&sb, tiadash_man_page, argv[1], TEXT_WIDTH) == 0) {
		rc = page_out(sb.buf, sb.len);
		strbuf_release(&sb);
		return rc < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
	}
	strbuf_release(&sb);
	if (find_command(argv[1])) {
		print_command_help(stdout, find_command(argv[1]));
		return EXIT_OKAY;
	}
	error("no command or manual section '%s' (try 'tiadash help')", argv[1]);
	suggest_topic(argv[1]);
	return EXIT_INPUT_ERROR;
}

const struct cmd cmd_help = {
	.name = "help",
	.fn = cmd_help_run,
	.usage = "tiadash help [COMMAND|TOPIC]",
	.summary = "Show the commands, or a command's (a topic's) section of the manual.",
};

static void print_version(void)
{
	printf("tiadash %s\n", TIADASH_VERSION);
}

static int cmd_version_run(int argc, char **argv, struct cmd_context *ctx)
{
	UNUSED(argv);
	UNUSED(ctx);
	if (argc > 1)
		return usage_error(&cmd_version, "unexpected argument '%s'", argv[1]);
	print_version();
	return EXIT_OKAY;
}

/* `tiadash version` as `git version`: what --version prints, as a command too. */
const struct cmd cmd_version = {
	.name = "version",
	.fn = cmd_version_run,
	.usage = "tiadash version",
	.summary = "Print the version (as --version does).",
};

struct repo *cmd_repo(struct cmd_context *ctx)
{
	return ctx->repo_later ? repo_later_get(ctx->repo_later) : NULL;
}

/* The store path: --db, $TIADASH_DB, else .tiadash/tiadash.db at the repo root. */
static char *default_db_path(struct cmd_context *ctx)
{
	const char *env = getenv("TIADASH_DB");
	struct repo *repo;
	char *root;
	char *path;

	if (env && *env)
		return xstrdup(env);
	/* The repository the command opens is the one to find (one libgit2 start). */
	repo = ctx->repo ? ctx->repo : cmd_repo(ctx);
	root = repo ? xstrdup(repo->root) : repo_discover_root(ctx->repo_path);
	if (!root) {
		error("not in a git repository: give --db PATH (or TIADASH_DB), "
		      "or --repo PATH");
		return NULL;
	}
	path = path_join(root, ".tiadash/tiadash.db");
	free(root);
	return path;
}

/* A reader's store is missing: say where its path came from, and what creates one. */
static int no_store(const char *path, bool given)
{
	const char *env = getenv("TIADASH_DB");

	if (given)
		return error("no store at '%s' (the --db given); 'tiadash ingest' "
			     "creates one", path);
	if (env && *env)
		return error("no store at '%s' (TIADASH_DB); 'tiadash ingest' "
			     "creates one", path);
	return error("no store at '%s' (run 'tiadash ingest' first, or give --db)",
		     path);
}

static int open_context(const struct cmd *c, struct cmd_context *ctx,
			char **owned_db)
{
	if (c->flags & NEED_REPO) {
		if (repo_open(&ctx->repo, ctx->repo_path) < 0)
			return -1;
	} else if (c->flags & WANT_REPO) {
		struct repo *given = NULL;

		/* A --repo that is no repository is an error now; none around the cwd is fine. */
		if (ctx->repo_path && repo_open(&given, ctx->repo_path) < 0)
			return -1;
		ctx->repo_later = xmalloc(sizeof(*ctx->repo_later));
		repo_later_init(ctx->repo_later, given);
	}
	if (c->flags & (NEED_DB_RO | NEED_DB_RW)) {
		if (!ctx->db_path) {
			*owned_db = default_db_path(ctx);
			if (!*owned_db)
				return -1;
			ctx->db_path = *owned_db;
		}
		if ((c->flags & DB_IF_EXISTS) && access(ctx->db_path, F_OK) != 0)
			return 0;
		if (!(c->flags & NEED_DB_RW) && access(ctx->db_path, F_OK) != 0)
			return no_store(ctx->db_path, !*owned_db);
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
	bool failed = text_fit_stdout_end() < 0;
	int err;

	failed = fflush(stdout) || ferror(stdout) || failed;
	err = failed ? (errno ? errno : EIO) : 0;
	if (output_active())
		return output_end(status, err);
	if (failed) {
		if (err != EPIPE)
			error("cannot write output: %s", strerror(err));
		return EXIT_INPUT_ERROR;
	}
	return status;
}

static const struct option *find_long(const struct option *opts, const char *name,
				      size_t len)
{
	for (const struct option *o = opts; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

/* A command's getopt_long tables, built from its option table (none without one). */
struct cmd_getopt {
	const struct option *longopts;
	const char *shortopts;
	struct opt_getopt built;
};

static void cmd_getopt_init(struct cmd_getopt *g, const struct cmd *c)
{
	memset(g, 0, sizeof(*g));
	if (c->opts) {
		opt_getopt_build(&g->built, c->opts, c->flags & OPTS_IN_ORDER);
		g->longopts = g->built.longopts;
		g->shortopts = g->built.shortopts;
	}
}

static void suggest_option(const struct cmd_getopt *g, const char *typed)
{
	const char *names[64];
	size_t nr = 0;
	char *name = xstrndup(typed, strcspn(typed, "="));

	for (const struct option *o = g->longopts; o->name && nr < ARRAY_SIZE(names) - 2; o++)
		names[nr++] = o->name;
	/* The global options are accepted after the command too. */
	if (!find_long(g->longopts, "db", 2))
		names[nr++] = "db";
	if (!find_long(g->longopts, "repo", 4))
		names[nr++] = "repo";
	suggest_similar("option", name, names, nr, "--");
	free(name);
}

/*
 * Check argv against the command's option table without acting on it;
 * *output is the value of its last -o (OPT_OUTPUT), or NULL.
 */
static int check_options(const struct cmd *c, const struct cmd_getopt *g, int argc,
			 char **argv, const char **output)
{
	const char *shortopts = g->shortopts ? g->shortopts : "";
	bool in_order = *shortopts == '+';
	char *optstring = xstrfmt("%s:%s", in_order ? "+" : "", shortopts + in_order);
	int saved = opterr, ch, ret = 0;

	if (!g->longopts) {
		free(optstring);
		return 0;
	}
	opterr = 0;
	optind = 0;
	*output = NULL;
	while ((ch = getopt_long(argc, argv, optstring, g->longopts, NULL)) != -1) {
		if (ch == 'o')
			*output = optarg;
		if (ch == '?' || ch == ':') {
			const char *bad = argv[optind - 1];

			ret = usage_error(c, "%s option '%s'",
					  ch == ':' ? "missing value for" : "unknown", bad);
			if (ch == '?' && starts_with(bad, "--"))
				suggest_option(g, bad + 2);
			break;
		}
	}
	opterr = saved;
	optind = 0;
	free(optstring);
	return ret;
}

/* Does short option ch take a value in shortopts ("+j:")? */
static bool short_takes_value(const char *shortopts, char ch)
{
	const char *p = shortopts ? strchr(shortopts, ch) : NULL;

	return p && ch != '+' && ch != ':' && p[1] == ':';
}

/*
 * The global options given after the command name (tiadash status --db X)
 * when the command has no option of that name itself: taken out of argv
 * into ctx. Values of the command's own options are skipped, and so is
 * everything after "--" (and, for in-order commands, after the first
 * operand: record's job command line). 0, or a usage error's status.
 */
static int take_global_options(const struct cmd *c, const struct cmd_getopt *g,
			       int *argc, char **argv, struct cmd_context *ctx)
{
	bool in_order = g->shortopts && *g->shortopts == '+';

	for (int i = 1; i < *argc; i++) {
		const char *arg = argv[i], *val;
		size_t len;
		int take = 0;

		if (!strcmp(arg, "--"))
			break;
		if (arg[0] != '-' || !arg[1]) {
			if (in_order)
				break;
			continue;
		}
		if (arg[1] != '-') {
			/* -j4 or -j 4: skip the value. */
			if (short_takes_value(g->shortopts, arg[1]) && !arg[2])
				i++;
			continue;
		}
		len = strcspn(arg + 2, "=");
		if (find_long(g->longopts, arg + 2, len)) {
			const struct option *o = find_long(g->longopts, arg + 2, len);

			if (o->has_arg == required_argument && !arg[2 + len])
				i++;
			continue;
		}
		if ((len != 2 || strncmp(arg + 2, "db", 2)) &&
		    (len != 4 || strncmp(arg + 2, "repo", 4)))
			continue;
		if (arg[2 + len] == '=') {
			val = arg + 3 + len;
			take = 1;
		} else if (i + 1 < *argc) {
			val = argv[i + 1];
			take = 2;
		} else {
			return usage_error(c, "%s needs a value", arg);
		}
		if (!*val)
			return usage_error(c, "--%.*s needs a value", (int)len, arg + 2);
		if (len == 2)
			ctx->db_path = val;
		else
			ctx->repo_path = val;
		memmove(argv + i, argv + i + take, (size_t)(*argc - i - take + 1) * sizeof(*argv));
		*argc -= take;
		i--;
	}
	return 0;
}

static int run_command(const struct cmd *c, int argc, char **argv,
		       struct cmd_context *ctx)
{
	char *owned_db = NULL;
	const char *output = NULL;
	struct cmd_getopt g;
	int status;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_command_help(stdout, c);
			return finish_stdout(EXIT_OKAY);
		}
	}
	cmd_getopt_init(&g, c);
	status = take_global_options(c, &g, &argc, argv, ctx) ||
		 check_options(c, &g, argc, argv, &output);
	opt_getopt_release(&g.built);
	if (status)
		return EXIT_INPUT_ERROR;
	ctx->now = time_now_ms();
	/* Arguments first: a usage error must not create a store, nor the -o file. */
	if (c->check && (status = c->check(argc, argv, ctx)) != 0)
		return finish_stdout(status);
	if (output && output_begin(output) < 0)
		return EXIT_INPUT_ERROR;
	if (open_context(c, ctx, &owned_db) < 0)
		status = EXIT_INPUT_ERROR;
	else
		status = c->fn(argc, argv, ctx);
	store_close(ctx->store);
	repo_close(ctx->repo);
	if (ctx->repo_later) {
		repo_later_release(ctx->repo_later);
		free(ctx->repo_later);
	}
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
			print_version();
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

		const char *headless = getenv("TIADASH_NO_DISPLAY");

		/* A terminal, or the headless dashboard the tests ask for. */
		if (tui && ((isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) ||
			    (headless && *headless))) {
			char *tui_argv[] = { "tui", NULL };

			return run_command(tui, 1, tui_argv, &ctx);
		}
		return usage_error(NULL, "no command given (try 'tiadash help')");
	}
	c = find_command(argv[0]);
	if (!c) {
		error("'%s' is not a tiadash command (see 'tiadash help')", argv[0]);
		suggest_command(argv[0]);
		return EXIT_INPUT_ERROR;
	}
	return run_command(c, argc, argv, &ctx);
}
