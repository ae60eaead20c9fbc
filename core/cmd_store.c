/* `tiadash init` and `tiadash status`: create the store, say what it holds. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/config.h"
#include "core/json.h"
#include "core/options.h"
#include "core/query.h"
#include "core/rekey.h"
#include "core/store.h"
#include "core/timeutil.h"
#include "core/tiadir.h"

#include <unistd.h>

static const struct opt no_opts[] = { OPT_END() };

static int check_init(int argc, char **argv, struct cmd_context *ctx)
{
	UNUSED(ctx);
	if (argc > 1)
		return usage_error(&cmd_init, "unexpected argument '%s'", argv[1]);
	return 0;
}

/*
 * A store in a .tiadash/ folder gets a .gitignore there (once): the store,
 * the run folders of `tiadash record`, replay's worktrees and selector
 * cache stay out of git; the rules and the config are the team's, committed.
 */
static int write_gitignore(const char *db_path)
{
	char *dir = path_dirname(db_path);
	const char *base = strrchr(dir, '/');
	int ret = 0;

	if (!strcmp(base ? base + 1 : dir, ".tiadash"))
		ret = tiadir_write_gitignore(dir, true);
	if (ret > 0)
		printf("wrote %s/.gitignore: the store, runs/, seed/, worktrees/ and "
		       "selector-cache/ stay out of git\n", dir);
	free(dir);
	return ret < 0 ? -1 : 0;
}

static int run_init(int argc, char **argv, struct cmd_context *ctx)
{
	if (check_init(argc, argv, ctx))
		return EXIT_INPUT_ERROR;
	printf("store %s ready (schema %d)\n", ctx->db_path,
	       store_schema_version(ctx->store));
	return write_gitignore(ctx->db_path) < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_init = {
	.name = "init",
	.fn = run_init,
	.check = check_init,
	.flags = NEED_DB_RW,
	.usage = "tiadash init",
	.summary = "Create the store (or upgrade an older one in place) and its .gitignore.",
	.opts = no_opts,
};

static void print_time_or_dash(const char *label, int64_t ms)
{
	struct strbuf sb = STRBUF_INIT;

	if (ms == INT64_MIN || ms == INT64_MAX)
		strbuf_addstr(&sb, "-");
	else
		time_format(&sb, ms);
	printf("%-9s %s\n", label, sb.buf);
	strbuf_release(&sb);
}

/* How far the join of test names held (SPEC 3.3); the selections' part on a line of its own. */
static void print_identity_text(const struct identity_figures *f)
{
	printf("%-9s %" PRId64 " of %" PRId64 " failing tests resolved", "identity",
	       f->resolved, f->failing_tests);
	if (f->has_unmatched)
		printf(",\n%-9s %" PRId64 " of %" PRId64 " selection entries select no test",
		       "", f->entries_unmatched, f->selection_entries);
	if (f->quarantine_unresolved)
		printf(",\n%-9s %" PRId64 " of %" PRId64 " quarantine lines name no test file",
		       "", f->quarantine_unresolved, f->quarantine_lines);
	putchar('\n');
}

static void print_status_text(const struct store_status *st, const char *path)
{
	printf("%-9s %s\n", "store", path);
	printf("%-9s %" PRId64 "\n", "sources", st->sources);
	printf("%-9s %" PRId64 " shadow, %" PRId64 " full\n", "runs",
	       st->shadow_runs, st->full_runs);
	printf("%-9s %" PRId64 "\n", "pairs", st->pairs);
	printf("%-9s %" PRId64 "\n", "tests", st->tests);
	printf("%-9s %" PRId64 "\n", "failures", st->failures);
	print_time_or_dash("first", st->first);
	print_time_or_dash("last", st->last);
	print_identity_text(&st->identity);
}

static void print_status_json(const struct store_status *st)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *runs = cJSON_AddObjectToObject(root, "runs");

	json_add_int(runs, "shadow", st->shadow_runs);
	json_add_int(runs, "full", st->full_runs);
	json_add_int(root, "pairs", st->pairs);
	json_add_int(root, "tests", st->tests);
	json_add_int(root, "failures", st->failures);
	json_add_int(root, "sources", st->sources);
	json_add_time(root, "first", st->first);
	json_add_time(root, "last", st->last);
	json_add_identity(root, "identity", &st->identity);
	json_print_free(root, stdout);
}

static enum output_format status_format;

static const struct opt status_opts[] = {
	OPT_FORMAT(&status_format, FORMAT_TEXT | FORMAT_JSON),
	OPT_OUTPUT(),
	OPT_END(),
};

static int run_status(int argc, char **argv, struct cmd_context *ctx)
{
	struct store_status st;
	struct config cfg = CONFIG_INIT;
	int argi;

	status_format = FORMAT_TEXT;
	if (parse_options(argc, argv, &cmd_status, ctx, &argi))
		return EXIT_INPUT_ERROR;
	if (argi < argc)
		return usage_error(&cmd_status, "unexpected argument '%s'", argv[argi]);
	/* The identity figure reads the selections with the id-map in force, as the figures do. */
	if (rekey_config_load(&cfg, ctx) < 0)
		return EXIT_INPUT_ERROR;
	if (query_status(ctx->store, &st) < 0 ||
	    identity_unmatched_now(ctx->store, cfg.idmap, &st.identity) < 0) {
		identity_figures_release(&st.identity);
		config_release(&cfg);
		return EXIT_INPUT_ERROR;
	}
	config_release(&cfg);
	if (status_format == FORMAT_JSON)
		print_status_json(&st);
	else
		print_status_text(&st, ctx->db_path);
	identity_figures_release(&st.identity);
	return EXIT_OKAY;
}

const struct cmd cmd_status = {
	.name = "status",
	.fn = run_status,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash status [--format text|json] [-o FILE]",
	.summary = "Say what the store holds: runs, pairs, tests, sources, time span.",
	.opts = status_opts,
};
