/* `tiadash seed`: defect seeding around sampled changes' impact sets, stored, and its table printed. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/options.h"
#include "core/config.h"
#include "core/spawn.h"
#include "core/store.h"
#include "core/textfit.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "seed/seed.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_CHANGES 10
#define DEFAULT_MUTANTS 3
#define MAX_INVALID_EXITS 16

static const struct window all = WINDOW_ALL;

struct seed_opts {
	const char *since, *until, *branch, *repo_path;
	const char *selector, *selector_format, *setup;
	const char *test_cmd, *full_cmd, *build_cmd;
	struct strlist rules;
	bool cache, cache_given, seed_given, invalid_given, show;
	bool no_builtin;          /* accepted: the built-ins never narrow an experiment */
	int64_t show_id;          /* --show=ID; 0: the latest */
	int64_t changes, mutants, budget_ms, seed;
	double timeout_s, selector_timeout_s, confidence;
	int jobs;
	int invalid_exits[MAX_INVALID_EXITS];
	size_t nr_invalid_exits;
	enum output_format format;
};

static bool parse_count(const char *s, int64_t max, int64_t *out)
{
	return parse_int64(s, out) && *out >= 1 && *out <= max;
}

/* "2,4" (or "none"): exit statuses meaning the tests did not load the mutant. */
static bool parse_exits(const char *s, struct seed_opts *o)
{
	o->nr_invalid_exits = 0;
	if (!strcmp(s, "none"))
		return true;
	while (*s) {
		size_t n = strcspn(s, ",");
		char *one = xstrndup(s, n);
		int64_t v;
		bool ok = parse_int64(one, &v) && v >= 1 && v <= 255 &&
			  o->nr_invalid_exits < MAX_INVALID_EXITS;

		free(one);
		if (!ok)
			return false;
		o->invalid_exits[o->nr_invalid_exits++] = (int)v;
		s += n + (s[n] == ',');
	}
	return o->nr_invalid_exits > 0;
}

static struct seed_opts seed_o;

enum {
	SO_CHANGES = 1, SO_MUTANTS,
	SO_CACHE, SO_NO_CACHE, SO_INVALID_EXIT, SO_BUDGET,
	SO_SEED, SO_SHOW, SO_CONFIDENCE,
};

/* The options that need more than storing their value, by their SEED_ id. */
static int seed_option(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	struct seed_opts *o = opt->value;

	UNUSED(p);
	switch (opt->defval) {
	case SO_CACHE: o->cache = o->cache_given = true; break;
	case SO_NO_CACHE: o->cache = false; o->cache_given = true; break;
	case SO_CHANGES:
		if (!parse_count(arg, 10000, &o->changes))
			return usage_error(&cmd_seed, "--changes '%s': expected 1 to "
					   "10000 changes", arg);
		break;
	case SO_MUTANTS:
		if (!parse_count(arg, 1000, &o->mutants))
			return usage_error(&cmd_seed, "--mutants '%s': expected 1 to "
					   "1000 mutants per change", arg);
		break;
	case SO_BUDGET:
		if (!time_parse_duration(arg, &o->budget_ms))
			return usage_error(&cmd_seed, "--budget '%s': expected a duration "
					   "(90s, 30m, 2h)", arg);
		break;
	case SO_INVALID_EXIT:
		if (!parse_exits(arg, o))
			return usage_error(&cmd_seed, "--invalid-exit '%s': expected exit "
					   "statuses 1 to 255 (2,4), or none", arg);
		o->invalid_given = true;
		break;
	case SO_SEED:
		if (!parse_int64(arg, &o->seed) || o->seed < 0)
			return usage_error(&cmd_seed, "--seed '%s': expected a number "
					   "from 0", arg);
		o->seed_given = true;
		break;
	case SO_SHOW:
		o->show = true;
		if (arg && (!parse_int64(arg, &o->show_id) || o->show_id < 1))
			return usage_error(&cmd_seed, "--show=ID '%s': expected an "
					   "experiment's number", arg);
		break;
	case SO_CONFIDENCE:
		if (!metrics_parse_confidence(arg, &o->confidence))
			return usage_error(&cmd_seed, "--confidence '%s': expected 0.90, "
					   "0.95 or 0.99", arg);
		break;
	}
	return 0;
}

#define SEED_OPT(l, id, a, h) \
	{ .type = OPT_T_CALLBACK, .long_name = (l), .value = &seed_o, .argh = (a), \
	  .help = (h), .defval = (id), .callback = seed_option }

static const struct opt seed_opts[] = {
	OPT_STRING(0, "test", &seed_o.test_cmd, "CMD", "runs the selected tests (/bin/sh "
		   "-c, in the worktree): the subset's ids are its arguments (\"$@\"), and "
		   "one per line on stdin and in the file $TIADASH_SELECTED (a CMD naming "
		   "TIADASH_SELECTED gets no arguments); write a JUnit report to "
		   "$TIADASH_JUNIT to name the tests that caught a mutant"),
	OPT_STRING(0, "full", &seed_o.full_cmd, "CMD", "runs the full suite (default: "
		   "--test with nothing selected)"),
	OPT_STRING(0, "build", &seed_o.build_cmd, "CMD", "compiles the tree; its failure "
		   "makes a mutant invalid"),
	OPT_STRING(0, "since", &seed_o.since, "WHEN", "the history to sample (default "
		   "30d; replay's window)"),
	OPT_STRING(0, "until", &seed_o.until, "WHEN", "sample changes before this date "
		   "(default: all)"),
	OPT_STRING(0, "branch", &seed_o.branch, "REF", "the branch whose first parents "
		   "are sampled (HEAD)"),
	OPT_STRING(0, "repo", &seed_o.repo_path, "PATH", "the git repository (also a "
		   "global option)"),
	SEED_OPT("changes", SO_CHANGES, "N", "changes with an impact set to seed around "
		 "(default 10)"),
	SEED_OPT("mutants", SO_MUTANTS, "N", "valid mutants per change, one per file a "
		 "round while a file has sites left (default 3)"),
	OPT_STRING(0, "selector", &seed_o.selector, "NAME|CMD", "the selector, as replay "
		   "runs it (vitest, turbo, moon, testmon, or a line-protocol CMD); without "
		   "it the rules' select entries are the map"),
	OPT_CALLBACK(0, "selector-format", &seed_o.selector_format, "F",
		     "read CMD's answer as adapter F's", replay_opt_selector_format),
	OPT_CALLBACK(0, "selector-timeout", &seed_o.selector_timeout_s, "S",
		     "seconds per selector call (default 60)", opt_seconds),
	SEED_OPT("selector-cache", SO_CACHE, NULL,
		 "reuse replay's answers by (selector, change)"),
	SEED_OPT("no-selector-cache", SO_NO_CACHE, NULL, "do not reuse them"),
	OPT_STRING(0, "setup", &seed_o.setup, "CMD", "run once in each worktree (link "
		   "node_modules)"),
	OPT_STRING_LIST(0, "rules", &seed_o.rules, "FILE", "the rules (default: the rules "
			"in effect, the rule files and selector configs at the root); files "
			"they force full runs for are never mutated"),
	OPT_BOOL(0, "no-builtin-rules", &seed_o.no_builtin, "accepted as by replay: the "
		 "built-ins are suggestions and never narrow an experiment"),
	SEED_OPT("invalid-exit", SO_INVALID_EXIT, "N,...", "exit statuses of --test/--full "
		 "meaning the mutant did not load (default 2 when CMD runs pytest, else "
		 "none)"),
	OPT_CALLBACK(0, "timeout", &seed_o.timeout_s, "SECS", "a run's limit (default: 3 x "
		     "the clean run + 10 s); a run past it counts as caught, marked timed out",
		     opt_seconds),
	SEED_OPT("budget", SO_BUDGET, "DURATION", "stop after this long (90s, 30m, 2h), "
		 "keeping what finished"),
	OPT_INT('j', "jobs", &seed_o.jobs, "N", 1, 64, "1 to 64 worktrees",
		"worktrees in parallel (default 1)"),
	SEED_OPT("seed", SO_SEED, "N", "the random choices (default: from the clock, "
		 "printed)"),
	SEED_OPT("confidence", SO_CONFIDENCE, "C", "of the intervals: 0.90, 0.95 "
		 "(default) or 0.99"),
	{ .type = OPT_T_CALLBACK, .long_name = "show", .value = &seed_o, .argh = "ID",
	  .help = "print the latest stored experiment (or number ID) again, without "
		  "running anything", .defval = SO_SHOW, .callback = seed_option,
	  .flags = OPTF_OPTARG },
	OPT_FORMAT_HELP(&seed_o.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON | FORMAT_CSV |
			FORMAT_HTML, "text (default), md, json, csv (a row per mutant) or html"),
	OPT_OUTPUT(),
	OPT_END(),
};

static int parse_opts(int argc, char **argv, struct cmd_context *ctx, struct seed_opts *o)
{
	int argi;
	enum parse_result r;

	seed_o = *o;
	r = parse_options(argc, argv, &cmd_seed, ctx, &argi);
	*o = seed_o;
	seed_o.rules = (struct strlist)STRLIST_INIT;
	if (r)
		return EXIT_INPUT_ERROR;
	if (argi < argc)
		return usage_error(&cmd_seed, "unexpected argument '%s'", argv[argi]);
	if (o->show)
		return 0;
	if (!o->test_cmd || !*o->test_cmd)
		return usage_error(&cmd_seed, "--test is required: the command that runs "
				   "the selected tests");
	if (!o->selector && (o->selector_format || o->cache_given || o->selector_timeout_s))
		return usage_error(&cmd_seed, "--selector-format, --selector-timeout and "
				   "the cache options need --selector");
	/* pytest exits 2 when collection is interrupted: a module that does not import. */
	if (!o->invalid_given && strstr(o->test_cmd, "pytest"))
		o->invalid_exits[o->nr_invalid_exits++] = 2;
	return 0;
}

/* --db, $TIADASH_DB, else ROOT/.tiadash/tiadash.db: made when missing. */
static int open_store(struct cmd_context *ctx, struct repo *repo, struct store **out)
{
	const char *env = getenv("TIADASH_DB");
	char *path = ctx->db_path ? xstrdup(ctx->db_path) : env && *env ? xstrdup(env) :
		     path_join(repo->root, ".tiadash/tiadash.db");
	int ret = store_open(out, path, STORE_CREATE);

	free(path);
	return ret;
}

/*
 * The rules the cheap gate narrows with: the rules in effect (--rules, else
 * the rule files and selector configs at the root: adapters/ruleset.h),
 * never the built-ins, which are only suggestions.
 */
static int load_rules(struct seed_sample *s, const struct seed_opts *o)
{
	struct ruleset set = RULESET_INIT;
	int ret = ruleset_resolve(&set, &o->rules, o->repo_path, 0);

	if (!ret) {
		rules_release(&s->run.baseline);
		s->run.baseline = set.effect;
		set.effect = (struct rules)RULES_INIT;
	}
	ruleset_release(&set);
	return ret;
}

/* The history sampled: the window's first parents, their paths, the rules' stage. */
static int walk(struct seed_sample *s, struct repo *repo, const struct seed_opts *o,
		int64_t since, int64_t until)
{
	struct replay_progress p;

	if (load_rules(s, o) < 0 ||
	    replay_walk(repo, o->branch, since, until, &s->run.history) < 0)
		return -1;
	s->run.since = since;
	s->run.until = until;
	replay_progress_init(&p, "seed: commits");
	replay_diff_commits(repo, &s->run.history, 1, replay_progress_cb, &p);
	replay_progress_done(&p);
	replay_apply_rules(&s->run, repo);
	return 0;
}

/* The figures of a stored experiment (read back: what report shows), its candidates, printed. */
static int print(struct store *st, int64_t id, const struct seed_sample *s,
		 enum seed_stop stop, const struct seed_opts *o, int64_t now)
{
	struct seed_info info;
	struct metrics_seeded fig;
	struct seed_candidates cand;
	struct seed_report r = { &fig, &cand, s, stop };
	int rc = id ? query_seed_by_id(st, id, &info) : query_seed_latest(st, &all, &info);

	if (rc) {
		seed_info_release(&info);
		if (rc < 0)
			return -1;
		return id ? error("no seeding experiment %" PRId64 " in '%s'", id, st->path)
			  : error("no seeding experiment in '%s' (run tiadash seed --test CMD)",
				  st->path);
	}
	metrics_seeded_of(&info, o->confidence, &fig);
	seed_candidates_compute(&fig.info, &s->run, &cand);
	switch (o->format) {
	case FORMAT_JSON: seed_print_json(&r, stdout); break;
	case FORMAT_MD: seed_print_md(&r, stdout); break;
	case FORMAT_CSV: seed_print_csv(&r, stdout); break;
	case FORMAT_HTML: seed_print_html(&r, now, stdout); break;
	default: text_fit_stdout(); seed_print_text(&r, stdout); break;
	}
	seed_candidates_release(&cand);
	metrics_seeded_release(&fig);
	seed_info_release(&info);
	return 0;
}

/*
 * --show[=ID]: a stored experiment printed again (any format), its
 * candidates measured on the history it sampled, walked again.
 */
static int show(struct store *st, struct repo *repo, struct seed_opts *o, int64_t now)
{
	struct seed_sample s = { .run = { .baseline = RULES_INIT, .proposal = RULES_INIT } };
	struct seed_info info;
	enum seed_stop stop = SEED_DONE;
	int rc = o->show_id ? query_seed_by_id(st, o->show_id, &info)
			    : query_seed_latest(st, &all, &info);

	if (!rc) {
		stop = !strcmp(info.state, "budget") ? SEED_BUDGET :
		       strcmp(info.state, "done") ? SEED_INTERRUPTED : SEED_DONE;
		o->show_id = info.id;
		rc = walk(&s, repo, o, info.since, info.until);
	}
	seed_info_release(&info);
	if (rc > 0)
		rc = o->show_id ? error("no seeding experiment %" PRId64 " in '%s'", o->show_id,
					st->path)
				: error("no seeding experiment in '%s' (run tiadash seed "
					"--test CMD)", st->path);
	if (!rc)
		rc = print(st, o->show_id, &s, stop, o, now);
	seed_sample_release(&s);
	return rc;
}

/* Did the experiment make a valid mutant? None: it measured nothing. */
static bool made_valid_mutant(const struct seed_sample *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->changes[i].valid)
			return true;
	return false;
}

/* The default seed: the clock's, printed with the table so a run can be repeated. */
static int64_t clock_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)(((uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^
			  (uint64_t)getpid()) & INT32_MAX);
}

static int run_seed(int argc, char **argv, struct cmd_context *ctx)
{
	struct seed_opts o = {
		.rules = STRLIST_INIT, .changes = DEFAULT_CHANGES,
		.mutants = DEFAULT_MUTANTS, .jobs = 1, .format = FORMAT_TEXT,
		.confidence = METRICS_DEFAULT_CONFIDENCE,
		.repo_path = ctx->repo_path,
	};
	struct seed_sample s = { .run = { .baseline = RULES_INIT, .proposal = RULES_INIT } };
	struct replay_selector_opts sel;
	struct replay_progress progress;
	struct config cfg = CONFIG_INIT;
	struct repo *repo = NULL;
	struct store *st = NULL;
	int64_t since, until = INT64_MAX, id = 0;
	enum seed_stop stop = SEED_DONE;
	char *slug = NULL;
	int ret = parse_opts(argc, argv, ctx, &o);

	memset(&sel, 0, sizeof(sel));
	if (ret)
		goto out;
	ret = EXIT_INPUT_ERROR;
	if (!o.seed_given)
		o.seed = clock_seed();
	if (!parse_window_bound("--since", o.since ? o.since : "30d", ctx->now, &since) ||
	    (o.until && !parse_window_bound("--until", o.until, ctx->now, &until)))
		goto out;
	if (repo_open(&repo, o.repo_path) < 0 || open_store(ctx, repo, &st) < 0)
		goto out;
	if (o.show) {
		ret = show(st, repo, &o, ctx->now) < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
		goto out;
	}
	if (config_load(&cfg, st->path) < 0 || walk(&s, repo, &o, since, until) < 0)
		goto out;
	if (o.selector) {
		if (replay_selector_config(&sel, o.selector, o.selector_format, o.cache_given,
					   o.cache, repo, &cfg) < 0)
			goto out;
		sel.setup = o.setup;
		sel.timeout_s = o.selector_timeout_s ? o.selector_timeout_s : 60;
		sel.jobs = o.jobs;
		replay_progress_init(&progress, "seed: impact sets");
		sel.progress = replay_progress_cb;
		sel.data = &progress;
	}
	{
		struct seed_sample_opts so = { &sel, (uint64_t)o.seed, (size_t)o.changes };

		if (seed_sample_changes(&s, &so) < 0)
			goto out;
		if (o.selector)
			replay_progress_done(&progress);
	}
	slug = replay_origin_slug(repo);
	{
		struct seed_experiment_meta meta = {
			slug ? slug : "", ctx->now, since, until, (uint64_t)o.seed,
			o.selector ? o.selector : "(the rules)", o.test_cmd,
			o.full_cmd ? o.full_cmd : o.test_cmd, (size_t)o.changes, (size_t)o.mutants,
		};
		struct seed_run_opts ro = {
			.repo = repo, .selector = &sel, .test_cmd = o.test_cmd,
			.full_cmd = o.full_cmd, .build_cmd = o.build_cmd, .setup = o.setup,
			.scrub = &cfg.selector_scrub, .invalid_exits = o.invalid_exits,
			.nr_invalid_exits = o.nr_invalid_exits, .timeout_s = o.timeout_s,
			.budget_ms = o.budget_ms, .mutants = (size_t)o.mutants,
			.seed = (uint64_t)o.seed, .jobs = o.jobs,
			.progress = isatty(STDERR_FILENO), .store = st,
		};

		if (seed_store_begin(st, &meta, &id) < 0 || seed_store_changes(st, id, &s) < 0)
			goto out;
		ro.experiment = id;
		if (seed_run(&ro, &s, &stop) < 0) {
			/* What finished is stored; the experiment says it stopped. */
			seed_store_end(st, id, SEED_INTERRUPTED, time_now_ms());
			goto out;
		}
		if (seed_store_end(st, id, stop, time_now_ms()) < 0)
			goto out;
	}
	if (print(st, id, &s, stop, &o, ctx->now) < 0)
		goto out;
	ret = stop == SEED_INTERRUPTED ? 128 + spawn_watch_signal() : EXIT_OKAY;
	if (stop == SEED_DONE && !made_valid_mutant(&s)) {
		error("seed: experiment %" PRId64 " made no valid mutant: each change "
		      "says why (tiadash seed --show=%" PRId64 ")", id, id);
		ret = EXIT_INPUT_ERROR;
	}
out:
	seed_sample_release(&s);
	config_release(&cfg);
	store_close(st);
	repo_close(repo);
	free(slug);
	strlist_release(&o.rules);
	return ret;
}

const struct cmd cmd_seed = {
	.name = "seed",
	.fn = run_seed,
	.usage = "tiadash seed --test CMD [--full CMD] [--build CMD] [--since WHEN] "
		 "[--until WHEN] [--branch REF] [--repo PATH] [--changes N] [--mutants N] "
		 "[--selector NAME|CMD] [--selector-format F] [--selector-timeout S] "
		 "[--selector-cache|--no-selector-cache] [--setup CMD] "
		 "[--rules FILE]... [--no-builtin-rules] [--invalid-exit N,...] "
		 "[--timeout SECS] [--budget DURATION] [-j N] [--seed N] [--confidence C] "
		 "[--format text|md|json|csv|html] [-o FILE]\n"
		 "       tiadash seed --show[=ID] [--confidence C] [--format text|md|json|csv|html] [-o FILE]",
	.summary = "Seed defects outside sampled changes' impact sets: what the subset, "
		   "the full suite and nothing catch.",
	.flags = OPTS_IN_ORDER,
	.opts = seed_opts,
};
