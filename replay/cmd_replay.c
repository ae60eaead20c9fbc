/* `tiadash replay`: merged history through the rules, the selector and the record. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "core/textfit.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/commands.h"
#include "core/store.h"
#include "core/timeutil.h"
#include "replay/replay.h"

#include <getopt.h>
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

struct replay_opts {
	const char *since, *until, *branch, *repo_path, *selector;
	const char *setup, *selector_format;
	struct strlist rules, what_if;
	double timeout_s;
	int jobs;
	bool builtin, cache, cache_given, recheck;
	enum output_format format;
};

static const struct option replay_options[] = {
	{ "since", required_argument, NULL, 's' },
	{ "until", required_argument, NULL, 'u' },
	{ "branch", required_argument, NULL, 'b' },
	{ "repo", required_argument, NULL, 'R' },
	{ "rules", required_argument, NULL, 'r' },
	{ "what-if", required_argument, NULL, 'w' },
	{ "selector", required_argument, NULL, 'S' },
	{ "selector-timeout", required_argument, NULL, 'T' },
	{ "selector-format", required_argument, NULL, 'F' },
	{ "setup", required_argument, NULL, 'P' },
	{ "selector-cache", no_argument, NULL, 'C' },
	{ "no-selector-cache", no_argument, NULL, 'N' },
	{ "selector-recheck", no_argument, NULL, 'K' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-builtin-rules", no_argument, NULL, 'B' },
	{ "format", required_argument, NULL, 'f' },
	OUTPUT_OPTION,
	{ NULL, 0, NULL, 0 },
};

static int parse_opts(int argc, char **argv, struct replay_opts *o)
{
	int64_t n;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:j:o:", replay_options, NULL)) != -1) {
		switch (c) {
		case 's': o->since = optarg; break;
		case 'u': o->until = optarg; break;
		case 'b': o->branch = optarg; break;
		case 'R': o->repo_path = optarg; break;
		case 'r': strlist_push(&o->rules, optarg); break;
		case 'w': strlist_push(&o->what_if, optarg); break;
		case 'S': o->selector = optarg; break;
		case 'P': o->setup = optarg; break;
		case 'C': o->cache = o->cache_given = true; break;
		case 'N': o->cache = false; o->cache_given = true; break;
		case 'K': o->recheck = true; break;
		case 'F':
			if (!adapter_find_answer(optarg) && strcmp(optarg, "lists"))
				return usage_error(&cmd_replay, "--selector-format '%s': "
						   "expected lists or one of %s", optarg,
						   adapter_answer_names);
			o->selector_format = optarg;
			break;
		case 'B': o->builtin = false; break;
		case 'T':
			if (!parse_double(optarg, &o->timeout_s) || o->timeout_s <= 0 ||
			    o->timeout_s > 86400)
				return usage_error(&cmd_replay, "--selector-timeout "
						   "'%s': expected seconds, more "
						   "than 0", optarg);
			break;
		case 'j':
			if (!parse_int64(optarg, &n) || n < 1 || n > 256)
				return usage_error(&cmd_replay, "-j '%s': expected "
						   "1 to 256 parallel selectors", optarg);
			o->jobs = (int)n;
			break;
		case 'f':
			if (!parse_format(optarg, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
					  FORMAT_CSV | FORMAT_HTML, &o->format))
				return usage_error(&cmd_replay, "unknown format '%s'", optarg);
			break;
		case 'o': /* core/dispatch.c writes the output to the file */
			break;
		case ':':
			return usage_error(&cmd_replay, "missing value for option '%s'",
					   argv[optind - 1]);
		default:
			return usage_error(&cmd_replay, "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_replay, "unexpected argument '%s'", argv[optind]);
	if (!o->since)
		return usage_error(&cmd_replay, "--since is required");
	if (!o->selector && (o->setup || o->selector_format || o->cache_given || o->recheck))
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
static int load_rules(struct replay_run *run, const struct replay_opts *o)
{
	struct strlist first = STRLIST_INIT;
	struct ruleset set = RULESET_INIT;
	int ret;

	if (o->rules.nr)
		strlist_push(&first, o->rules.items[0]);
	ret = ruleset_resolve(&set, &first, o->repo_path, o->builtin ? RULESET_BUILTIN : 0);
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
	struct replay_opts o = {
		.rules = STRLIST_INIT, .what_if = STRLIST_INIT, .timeout_s = 60,
		.jobs = 1, .builtin = true, .format = FORMAT_TEXT,
		.repo_path = ctx->repo_path,
	};
	struct replay_run run = { .baseline = RULES_INIT, .proposal = RULES_INIT };
	struct replay_progress progress;
	struct repo *repo = NULL;
	struct store *store = NULL;
	struct config cfg = CONFIG_INIT;
	char *slug = NULL;
	bool walked;
	int ret = parse_opts(argc, argv, &o);

	if (ret)
		goto out;
	ret = EXIT_INPUT_ERROR;
	run.until = INT64_MAX;
	if (!parse_window_bound("--since", o.since, ctx->now, &run.since) ||
	    (o.until && !parse_window_bound("--until", o.until, ctx->now, &run.until)))
		goto out;
	run.branch = o.branch;
	run.threads = o.jobs;
	if (repo_open(&repo, o.repo_path) < 0 || load_rules(&run, &o) < 0 ||
	    open_store(ctx, repo, &store) < 0)
		goto out;
	run.has_store = store != NULL;
	slug = replay_origin_slug(repo);
	if (store && config_load(&cfg, store->path) < 0)
		goto out;
	if (replay_record_load(&run.record, store, cfg.idmap, slug) < 0)
		goto out;
	replay_progress_init(&progress, "replay: commits");
	walked = replay_walk_diff(repo, o.branch, run.since, run.until, o.jobs,
				  replay_progress_cb, &progress, &run.history) == 0;
	replay_progress_done(&progress);
	if (!walked)
		goto out;
	replay_apply_rules(&run, repo);
	if (o.selector) {
		replay_progress_init(&progress, "replay: selector");
		if (replay_selector_config(&run.selector, o.selector, o.selector_format,
					   o.cache_given, o.cache, repo, &cfg) < 0)
			goto out;
		run.selector.setup = o.setup;
		run.selector.recheck = o.recheck;
		run.selector.timeout_s = o.timeout_s;
		run.selector.jobs = o.jobs;
		run.selector.progress = replay_progress_cb;
		run.selector.data = &progress;
	}
	if (replay_finish(&run) < 0)
		goto out;
	if (o.selector)
		replay_progress_done(&progress);
	switch (o.format) {
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
	strlist_release(&o.rules);
	strlist_release(&o.what_if);
	return ret;
}

const struct cmd cmd_replay = {
	.name = "replay",
	.fn = run_replay,
	.usage = "tiadash replay --since DATE [--until DATE] [--branch REF] "
		 "[--repo PATH] [--rules FILE]... [--what-if GLOB]... "
		 "[--selector NAME|CMD] [--selector-format F] [--setup CMD] "
		 "[--selector-cache|--no-selector-cache] [--selector-recheck] "
		 "[--selector-timeout SECS] [-j N] "
		 "[--no-builtin-rules] [--format text|md|json|csv|html] [-o FILE]",
	.summary = "Replay merged first-parent history through the rules, "
		   "the selector and the record.",
	.help =
	"  --since DATE          first commit date to replay (7d, 2026-11-01, RFC 3339)\n"
	"  --until DATE          replay commits before this date (default: all)\n"
	"  --branch REF          the branch whose first parents are walked (HEAD)\n"
	"  --repo PATH           the git repository (also a global option)\n"
	"  --rules FILE          the baseline rule file (default .tiadash/rules);\n"
	"                        more --rules files are a proposal added to it\n"
	"  --what-if GLOB        propose a force-full glob, tried before all rules\n"
	"                        (repeatable): baseline and proposal side by side\n"
	"  --selector NAME|CMD   run a selector for each narrowed change, in a\n"
	"                        worktree at its head (.tiadash/worktrees/): NAME\n"
	"                        is vitest, turbo, moon or testmon (its own command\n"
	"                        and answer); a CMD (via /bin/sh -c) gets the\n"
	"                        changed paths on stdin (quoted as git diff\n"
	"                        --name-only does), TIADASH_BASE, TIADASH_HEAD,\n"
	"                        TIADASH_TREE and TIADASH_REPO, and prints test\n"
	"                        ids, or 'run_all' and reasons, or 'nothing' (or\n"
	"                        nothing at all)\n"
	"  --selector-format F   read CMD's answer as adapter F's (cbm, gstack, ...)\n"
	"  --setup CMD           run once in each worktree before its first call\n"
	"                        (install or link node_modules, a virtualenv)\n"
	"  --selector-cache, --no-selector-cache\n"
	"                        reuse answers by (selector, change); on for a NAME\n"
	"  --selector-recheck    call even when cached; a different answer is\n"
	"                        reported as not reproducible\n"
	"  --selector-timeout S  seconds per selector call (default 60)\n"
	"  -j, --jobs N          selector calls and tree comparisons in parallel\n"
	"                        (default 1)\n"
	"  --no-builtin-rules    leave the built-in force-full defaults out\n"
	"  --format F            text (default), md, json, csv or html (one\n"
	"                        self-contained page with charts)\n"
	"  -o FILE               write to FILE (atomically) instead of standard output\n",
	.options = replay_options,
	.shortopts = "+j:o:",
};
