/* `tiadash replay`: merged history through the rules, the selector and the record. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "core/textfit.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/commands.h"
#include "core/options.h"
#include "core/store.h"
#include "core/timeutil.h"
#include "replay/replay.h"

#include <time.h>
#include <unistd.h>

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void replay_progress_init(struct replay_progress *p, const char *label)
{
	p->label = label;
	p->on = isatty(STDERR_FILENO);
	p->start_ms = mono_ms();
	p->last_ms = 0;
}

void replay_progress_cb(size_t done, size_t total, void *data)
{
	struct replay_progress *p = data;
	int64_t now, elapsed;

	if (!p->on)
		return;
	now = mono_ms();
	if (done < total && now - p->last_ms < 100)
		return;
	p->last_ms = now;
	elapsed = now - p->start_ms;
	fprintf(stderr, "\r%s %zu/%zu (%.0f/s)\033[K", p->label, done, total,
		(double)done * 1000.0 / (double)(elapsed > 0 ? elapsed : 1));
	fflush(stderr);
}

void replay_progress_done(struct replay_progress *p)
{
	if (p->on && p->last_ms) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

static struct replay_args {
	const char *since, *until, *branch, *repo_path, *selector;
	const char *setup, *selector_format;
	struct strlist rules, what_if;
	double timeout_s;
	int jobs;
	int cache; /* -1: neither --selector-cache nor --no-selector-cache */
	bool no_builtin, recheck;
	enum output_format format;
} replay;

static const struct opt replay_opts[] = {
	OPT_STRING(0, "since", &replay.since, "DATE",
		   "first commit date to replay (7d, 2026-11-01, RFC 3339)"),
	OPT_STRING(0, "until", &replay.until, "DATE",
		   "replay commits before this date (default: all)"),
	OPT_STRING(0, "branch", &replay.branch, "REF",
		   "the branch whose first parents are walked (HEAD)"),
	OPT_STRING(0, "repo", &replay.repo_path, "PATH",
		   "the git repository (also a global option)"),
	OPT_STRING_LIST(0, "rules", &replay.rules, "FILE",
			"the baseline rule file (default .tiadash/rules); more --rules "
			"files are a proposal added to it"),
	OPT_STRING_LIST(0, "what-if", &replay.what_if, "GLOB",
			"propose a force-full glob, tried before all rules (repeatable): "
			"baseline and proposal side by side"),
	OPT_STRING(0, "selector", &replay.selector, "NAME|CMD",
		   "run a selector for each narrowed change, in a worktree at its head "
		   "(.tiadash/worktrees/): NAME is vitest, turbo, moon or testmon (its "
		   "own command and answer); a CMD (via /bin/sh -c) gets the changed "
		   "paths on stdin (quoted as git diff --name-only does), TIADASH_BASE, "
		   "TIADASH_HEAD, TIADASH_TREE and TIADASH_REPO, and prints test ids, or "
		   "'run_all' and reasons, or 'nothing' (or nothing at all)"),
	OPT_CALLBACK(0, "selector-format", &replay.selector_format, "F",
		     "read CMD's answer as adapter F's (cbm, gstack, ...)",
		     replay_opt_selector_format),
	OPT_STRING(0, "setup", &replay.setup, "CMD",
		   "run once in each worktree before its first call (install or link "
		   "node_modules, a virtualenv)"),
	OPT_SET_INT(0, "selector-cache", &replay.cache, 1,
		    "reuse answers by (selector, change); on for a NAME"),
	OPT_SET_INT(0, "no-selector-cache", &replay.cache, 0,
		    "reuse no answer (the default for a CMD)"),
	OPT_BOOL(0, "selector-recheck", &replay.recheck,
		 "call even when cached; a different answer is reported as not "
		 "reproducible"),
	OPT_CALLBACK(0, "selector-timeout", &replay.timeout_s, "SECS",
		     "seconds per selector call (default 60)", opt_seconds),
	OPT_INT('j', "jobs", &replay.jobs, "N", 1, 256, "1 to 256 parallel selectors",
		"selector calls and tree comparisons in parallel (default 1)"),
	OPT_BOOL(0, "no-builtin-rules", &replay.no_builtin,
		 "leave the built-in force-full defaults out"),
	OPT_FORMAT_HELP(&replay.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			FORMAT_CSV | FORMAT_HTML, "text (default), md, json, csv or html "
			"(one self-contained page with charts)"),
	OPT_OUTPUT(),
	OPT_END(),
};

static int parse_opts(int argc, char **argv, struct cmd_context *ctx)
{
	int argi;

	strlist_release(&replay.rules);
	strlist_release(&replay.what_if);
	replay.since = replay.until = replay.branch = replay.selector = NULL;
	replay.setup = replay.selector_format = NULL;
	replay.repo_path = ctx->repo_path;
	replay.timeout_s = 60;
	replay.jobs = 1;
	replay.cache = -1;
	replay.no_builtin = replay.recheck = false;
	replay.format = FORMAT_TEXT;
	if (parse_options(argc, argv, &cmd_replay, ctx, &argi))
		return EXIT_INPUT_ERROR;
	if (argi < argc)
		return usage_error(&cmd_replay, "unexpected argument '%s'", argv[argi]);
	if (!replay.since)
		return usage_error(&cmd_replay, "--since is required");
	if (!replay.selector && (replay.setup || replay.selector_format ||
				 replay.cache >= 0 || replay.recheck))
		return usage_error(&cmd_replay, "--setup, --selector-format and the "
				   "selector cache options need --selector");
	return 0;
}

/*
 * Baseline: the rules in effect (adapters/ruleset.h): the first --rules
 * file, else the rule files and selector configs found at the root; the
 * built-ins beside it as a what-if (unless --no-builtin-rules). Proposal,
 * when there are --what-if globs or more --rules files: the what-if globs
 * first (run_all), then the baseline's files, the extra files in order.
 */
static int load_rules(struct replay_run *run, const struct replay_args *o)
{
	struct strlist first = STRLIST_INIT;
	struct ruleset set = RULESET_INIT;
	int ret;

	if (o->rules.nr)
		strlist_push(&first, o->rules.items[0]);
	ret = ruleset_resolve(&set, &first, o->repo_path, !o->no_builtin ? RULESET_BUILTIN : 0);
	strlist_release(&first);
	for (size_t i = 0; !ret && i < set.files.nr; i++) {
		const char *f = set.files.items[i];
		const char *below = set.root ? path_below(set.root, f) : NULL;

		strlist_push(&run->rule_files, below ? below : f);
	}
	/* The set's rules, compiled, become the run's. */
	run->baseline = set.effect;
	run->builtin = set.builtin;
	set.effect = (struct rules)RULES_INIT;
	set.builtin = (struct rules)RULES_INIT;
	run->has_proposal = o->what_if.nr || o->rules.nr > 1;
	for (size_t i = 0; !ret && run->has_proposal && i < o->what_if.nr; i++)
		ret = rules_add(&run->proposal, RULE_RUN_ALL, "what-if",
				o->what_if.items[i], "--what-if", NULL, NULL);
	for (size_t i = 0; !ret && run->has_proposal && i < set.files.nr; i++)
		ret = ruleset_load_file(&run->proposal, set.files.items[i], set.root, false);
	for (size_t i = 1; !ret && i < o->rules.nr; i++)
		ret = ruleset_load_file(&run->proposal, o->rules.items[i], set.root, false);
	if (!ret && run->has_proposal)
		ret = rules_compile(&run->proposal);
	ruleset_release(&set);
	return ret;
}

/*
 * The store: --db or $TIADASH_DB must exist when given; the default
 * .tiadash/tiadash.db may be absent, and the replay then has no record.
 */
static int open_store(struct cmd_context *ctx, struct repo *repo, struct store **out)
{
	const char *env = getenv("TIADASH_DB");
	char *path;
	int ret;

	*out = NULL;
	if (ctx->db_path)
		return store_open(out, ctx->db_path, STORE_EXISTING);
	if (env && *env)
		return store_open(out, env, STORE_EXISTING);
	path = path_join(repo->root, ".tiadash/tiadash.db");
	ret = access(path, F_OK) == 0 ? store_open(out, path, STORE_EXISTING) : 0;
	free(path);
	return ret;
}

char *replay_origin_slug(struct repo *repo)
{
	git_config *cfg = NULL;
	const char *url;
	char *slug = NULL;

	if (git_repository_config_snapshot(&cfg, repo->git) == 0 &&
	    git_config_get_string(&url, cfg, "remote.origin.url") == 0)
		slug = replay_repo_slug(url);
	git_config_free(cfg);
	return slug;
}

int replay_opt_selector_format(const struct opt *o, const char *arg,
			       const struct opt_parse *p)
{
	if (!adapter_find_answer(arg) && strcmp(arg, "lists"))
		return usage_error(p->cmd, "--selector-format '%s': expected lists or one of %s",
				   arg, adapter_answer_names);
	*(const char **)o->value = arg;
	return 0;
}

int replay_selector_config(struct replay_selector_opts *out, const char *selector,
			   const char *format, bool cache_given, bool cache,
			   struct repo *repo, const struct config *cfg)
{
	const struct adapter *a = adapter_find(selector);

	memset(out, 0, sizeof(*out));
	out->name = selector;
	if (a && a->command) {
		out->cmd = a->command;
		out->adapter = a;
		out->cache = !cache_given || cache;
	} else if (a) {
		return error("the %s adapter has no command of its own: give the "
			     "command (--selector CMD%s%s)", a->name,
			     a->read_answer && a != &adapter_lists ?
			     " --selector-format " : "",
			     a->read_answer && a != &adapter_lists ? a->name : "");
	} else {
		out->cmd = selector;
		out->adapter = format ? adapter_find(format) : &adapter_lists;
		out->cache = cache;
	}
	if (a && format)
		return error("--selector-format is for a command; %s reads its own answer",
			     a->name);
	out->repo = repo;
	out->scrub = &cfg->selector_scrub;
	return 0;
}

static int run_replay(int argc, char **argv, struct cmd_context *ctx)
{
	struct replay_run run = { .baseline = RULES_INIT, .proposal = RULES_INIT };
	struct replay_progress progress;
	struct repo *repo = NULL;
	struct store *store = NULL;
	struct config cfg = CONFIG_INIT;
	char *slug = NULL;
	bool walked;
	int ret = parse_opts(argc, argv, ctx);

	if (ret)
		goto out;
	ret = EXIT_INPUT_ERROR;
	run.until = INT64_MAX;
	if (!parse_window_bound("--since", replay.since, ctx->now, &run.since) ||
	    (replay.until && !parse_window_bound("--until", replay.until, ctx->now, &run.until)))
		goto out;
	run.branch = replay.branch;
	run.threads = replay.jobs;
	if (repo_open(&repo, replay.repo_path) < 0 || load_rules(&run, &replay) < 0 ||
	    open_store(ctx, repo, &store) < 0)
		goto out;
	run.has_store = store != NULL;
	slug = replay_origin_slug(repo);
	if (store && config_load(&cfg, store->path) < 0)
		goto out;
	if (replay_record_load(&run.record, store, cfg.idmap, slug) < 0)
		goto out;
	replay_progress_init(&progress, "replay: commits");
	walked = replay_walk_diff(repo, replay.branch, run.since, run.until, replay.jobs,
				  replay_progress_cb, &progress, &run.history) == 0;
	replay_progress_done(&progress);
	if (!walked)
		goto out;
	replay_apply_rules(&run, repo);
	if (replay.selector) {
		replay_progress_init(&progress, "replay: selector");
		if (replay_selector_config(&run.selector, replay.selector, replay.selector_format,
					   replay.cache >= 0, replay.cache == 1, repo, &cfg) < 0)
			goto out;
		run.selector.setup = replay.setup;
		run.selector.recheck = replay.recheck;
		run.selector.timeout_s = replay.timeout_s;
		run.selector.jobs = replay.jobs;
		run.selector.progress = replay_progress_cb;
		run.selector.data = &progress;
	}
	if (replay_finish(&run) < 0)
		goto out;
	if (replay.selector)
		replay_progress_done(&progress);
	switch (replay.format) {
	case FORMAT_JSON: replay_print_json(&run, stdout); break;
	case FORMAT_MD: replay_print_md(&run, stdout); break;
	case FORMAT_CSV: replay_print_csv(&run, stdout); break;
	case FORMAT_HTML: replay_print_html(&run, ctx->now, stdout); break;
	default: text_fit_stdout(); replay_print_text(&run, stdout); break;
	}
	ret = replay_selector_verdict(&run) < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
out:
	replay_run_release(&run);
	config_release(&cfg);
	store_close(store);
	repo_close(repo);
	free(slug);
	strlist_release(&replay.rules);
	strlist_release(&replay.what_if);
	return ret;
}

const struct cmd cmd_replay = {
	.name = "replay",
	.fn = run_replay,
	.flags = OPTS_IN_ORDER,
	.usage = "tiadash replay --since DATE [--until DATE] [--branch REF] "
		 "[--repo PATH] [--rules FILE]... [--what-if GLOB]... "
		 "[--selector NAME|CMD] [--selector-format F] [--setup CMD] "
		 "[--selector-cache|--no-selector-cache] [--selector-recheck] "
		 "[--selector-timeout SECS] [-j N] "
		 "[--no-builtin-rules] [--format text|md|json|csv|html] [-o FILE]",
	.summary = "Replay merged first-parent history through the rules, "
		   "the selector and the record.",
	.opts = replay_opts,
};
