/* `tiadash ingest`: manifests, indexes, directories, URLs, or bare files as one run. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/options.h"
#include "core/commands.h"
#include "core/config.h"
#include "ingest/mainline.h"
#include "core/timeutil.h"
#include "ingest/ciapi.h"
#include "ingest/coverage.h"
#include "ingest/http.h"
#include "ingest/ingest.h"
#include "ingest/junit.h"
#include "adapters/adapter.h"

#include <unistd.h>

/* --github/--gitlab (ingest/ciapi.c): what to pull. */
struct ci_cli {
	const char *github, *gitlab, *since;
	struct ci_pull pull;
	struct strlist workflows, jobs;
};

/* What the flags say about a run of bare files. */
struct bare_opts {
	bool bare;
	const char *kind, *head, *base, *verdict, *started_at, *repo_name;
	const char *decision, *lane, *selection, *quarantine, *failed;
	const char *selection_format, *selection_root; /* adapters/adapter.h */
	const char *workdir; /* core/identity.h */
	bool has_pr, has_attempt, has_wall, has_total, has_selected, has_packages;
	int64_t pr, attempt, total, selected, packages;
	double wall;
	struct strlist reasons;
	struct ci_cli ci;
};

/* The values the option table fills (reset before each parse). */
static struct {
	struct bare_opts o;
	bool replace;
	struct http_options http;
} io;

static bool parse_count(const char *s, int64_t min, int64_t *out)
{
	return parse_int64(s, out) && *out >= min;
}

static int not_a_number(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	return usage_error(p->cmd, "--%s '%s' is not a valid number", opt->long_name, arg);
}

/* --pr, --attempt, --total-tests, --selected-count, --total-packages: counts. */
#define COUNT_CALLBACK(fn, field, lo, hi) \
	static int fn(const struct opt *opt, const char *arg, const struct opt_parse *p) \
	{ \
		io.o.has_##field = true; \
		if (!parse_count(arg, (lo), &io.o.field) || io.o.field > (hi)) \
			return not_a_number(opt, arg, p); \
		return 0; \
	}
COUNT_CALLBACK(opt_pr, pr, 0, INT64_MAX)
COUNT_CALLBACK(opt_attempt, attempt, 1, MANIFEST_MAX_ATTEMPT)
COUNT_CALLBACK(opt_total, total, 0, INT64_MAX)
COUNT_CALLBACK(opt_selected, selected, 0, INT64_MAX)
COUNT_CALLBACK(opt_packages, packages, 1, INT64_MAX)

static int opt_wall(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	io.o.has_wall = true;
	if (!parse_double(arg, &io.o.wall) || io.o.wall < 0)
		return not_a_number(opt, arg, p);
	return 0;
}

/* --timeout, --connect-timeout: seconds into the double at opt->value. */
static int opt_http_seconds(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	if (!http_parse_seconds(arg, opt->value))
		return not_a_number(opt, arg, p);
	return 0;
}

static int opt_max_size(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	if (!http_parse_size(arg, &io.http.max_size))
		return not_a_number(opt, arg, p);
	return 0;
}

static int opt_max_source(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	size_t n;

	if (!http_parse_size(arg, &n))
		return not_a_number(opt, arg, p);
	io.http.max_source = n;
	return 0;
}

static int opt_retries(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	int64_t retries;

	if (!parse_count(arg, 0, &retries) || retries > 20)
		return not_a_number(opt, arg, p);
	io.http.retries = (int)retries;
	return 0;
}

static int opt_selection_format(const struct opt *opt, const char *arg,
				const struct opt_parse *p)
{
	(void)opt;
	if (!adapter_find_answer(arg))
		return usage_error(p->cmd, "--selection-format '%s': expected one of %s",
				   arg, adapter_answer_names);
	io.o.selection_format = arg;
	return 0;
}

static int opt_selection_root(const struct opt *opt, const char *arg,
			      const struct opt_parse *p)
{
	(void)opt;
	if (arg[0] != '/')
		return usage_error(p->cmd, "--selection-root '%s': expected an absolute "
				   "directory", arg);
	io.o.selection_root = arg;
	return 0;
}

static const struct opt ingest_opts[] = {
	OPT_BOOL(0, "replace", &io.replace,
		 "a changed source replaces the run stored from it"),
	OPT_GROUP("\nURLs (http, https; TLS is always verified):"),
	OPT_CALLBACK(0, "timeout", &io.http.timeout, "SECS",
		     "give up on one attempt after this long (default 300)", opt_http_seconds),
	OPT_CALLBACK(0, "connect-timeout", &io.http.connect_timeout, "SECS",
		     "give up connecting after this long (default 10)", opt_http_seconds),
	OPT_CALLBACK(0, "max-size", NULL, "SIZE",
		     "refuse a file larger than this (default 512M)", opt_max_size),
	OPT_CALLBACK(0, "max-source-size", NULL, "SIZE",
		     "refuse a run whose files, decoded, add up to more (gzip bodies, "
		     "archive entries; default 2G)", opt_max_source),
	OPT_CALLBACK(0, "retries", NULL, "N",
		     "retries on 5xx, 429 and broken transfers (default 3)", opt_retries),
	OPT_GROUP("\nStraight from CI (the artifacts of runs hold `tiadash record` folders):"),
	OPT_STRING(0, "github", &io.o.ci.github, "OWNER/REPO",
		   "GitHub Actions: the runs of each --workflow FILE"),
	OPT_STRING(0, "gitlab", &io.o.ci.gitlab, "PROJECT",
		   "GitLab CI: the jobs named by each --job NAME"),
	OPT_STRING_LIST(0, "workflow", &io.o.ci.workflows, "FILE",
			"a GitHub workflow whose runs to pull (repeatable)"),
	OPT_STRING_LIST(0, "job", &io.o.ci.jobs, "NAME",
			"a GitLab job whose runs to pull (repeatable)"),
	OPT_STRING(0, "since", &io.o.ci.since, "WHEN", "runs created since (default 7d)"),
	OPT_STRING(0, "api-url", &io.o.ci.pull.api_url, "URL",
		   "the API (GitHub Enterprise, a GitLab instance)"),
	OPT_GROUP("\nBare files (JUnit XML, lcov, Cobertura, selection lists or answers) "
		  "as one run:"),
	OPT_STRING(0, "kind", &io.o.kind, "K", "shadow or full (required)"),
	OPT_STRING(0, "head", &io.o.head, "SHA", "the tested commit (required)"),
	OPT_STRING(0, "base", &io.o.base, "SHA",
		   "the resolved MQ_AFFECTED_BASE (for changed files)"),
	OPT_CALLBACK(0, "pr", NULL, "N", "pull request number", opt_pr),
	OPT_CALLBACK(0, "attempt", NULL, "N", "attempt number (default 1)", opt_attempt),
	OPT_STRING(0, "verdict", &io.o.verdict, "V",
		   "pass, fail or error (default: from the results)"),
	OPT_STRING(0, "started-at", &io.o.started_at, "TIME", "RFC 3339 start (default: now)"),
	OPT_CALLBACK(0, "wall-clock", NULL, "SECS", "the job's gate wall-clock", opt_wall),
	OPT_STRING(0, "repo-name", &io.o.repo_name, "NAME",
		   "the repository's name, e.g. acme/ledger"),
	OPT_STRING(0, "decision", &io.o.decision, "D", "selected, run_all or nothing"),
	OPT_STRING_LIST(0, "reason", &io.o.reasons, "R", "a force-full reason (repeatable)"),
	OPT_CALLBACK(0, "total-tests", NULL, "N", "the suite's total test count", opt_total),
	OPT_CALLBACK(0, "selected-count", NULL, "N", "how many tests the selection runs",
		     opt_selected),
	OPT_STRING(0, "selection", &io.o.selection, "FILE",
		   "the selection list (test-only.txt form)"),
	OPT_CALLBACK(0, "selection-format", NULL, "NAME",
		     "the selection is a selector's own output: vitest, turbo, testmon, "
		     "moon, gstack or cbm", opt_selection_format),
	OPT_CALLBACK(0, "selection-root", NULL, "DIR",
		     "the directory the selector ran in (stripped from the absolute paths "
		     "vitest prints)", opt_selection_root),
	OPT_CALLBACK(0, "total-packages", NULL, "N",
		     "turbo, moon: how many packages/projects exist", opt_packages),
	OPT_STRING(0, "failed", &io.o.failed, "FILE",
		   "failing test ids (.mq-failed-tests.txt form)"),
	OPT_STRING(0, "quarantine", &io.o.quarantine, "FILE", "the quarantine list in effect"),
	OPT_STRING(0, "lane", &io.o.lane, "NAME",
		   "lane of a codebase-memory-mcp answer (default unit)"),
	OPT_STRING(0, "workdir", &io.o.workdir, "DIR",
		   "the directory the runner ran in, relative to the repository root "
		   "(its relative names start there)"),
	OPT_END(),
};

/* Resolve a commit given on the command line (a sha, or a ref when a repository is there). */
static int resolve_commit(struct cmd_context *ctx, const char *opt, const char *rev, char out[41])
{
	if (strlen(rev) == 40 && is_hex_sha(rev)) {
		memcpy(out, rev, 41);
		return 0;
	}
	if (!cmd_repo(ctx))
		return error("%s '%s' is not a 40-hex commit id (and there is no "
			     "repository to resolve it in)", opt, rev);
	return repo_resolve(cmd_repo(ctx), rev, out);
}

static int bare_manifest(struct cmd_context *ctx, const struct bare_opts *o, struct manifest *m)
{
	if (!o->kind || !o->head)
		return usage_error(&cmd_ingest, "bare files need both --kind and --head");
	if (!run_kind_parse(o->kind, &m->kind))
		return usage_error(&cmd_ingest, "--kind must be shadow or full");
	if (resolve_commit(ctx, "--head", o->head, m->head) < 0 ||
	    (o->base && resolve_commit(ctx, "--base", o->base, m->base) < 0))
		return EXIT_INPUT_ERROR;
	if (o->verdict && !verdict_parse(o->verdict, &m->verdict))
		return usage_error(&cmd_ingest, "--verdict must be pass, fail or error");
	m->started_at = ctx->now;
	if (o->started_at && !time_parse_rfc3339(o->started_at, &m->started_at))
		return usage_error(&cmd_ingest, "--started-at must be an RFC 3339 time");
	free(m->repo);
	m->repo = xstrdup(o->repo_name ? o->repo_name : "");
	m->has_pr = o->has_pr;
	m->pr = o->pr;
	m->attempt = o->has_attempt ? (int)o->attempt : 1;
	m->wall_clock_s = o->has_wall ? o->wall : NAN;
	if (o->workdir && *o->workdir && !path_is_contained(o->workdir))
		return usage_error(&cmd_ingest, "--workdir must be a directory relative "
				   "to the repository root, not '%s'", o->workdir);
	m->workdir = o->workdir && *o->workdir ? xstrdup(o->workdir) : NULL;
	return 0;
}

static void bare_selection(const struct bare_opts *o, struct manifest *m, bool has_list,
			   bool has_engine)
{
	struct manifest_selection *s = &m->sel;

	if (!o->decision && !has_list && !has_engine && !o->reasons.nr && !o->has_total)
		return;
	s->present = true;
	s->decision = has_list || has_engine ? DECISION_SELECTED : DECISION_RUN_ALL;
	if (o->decision)
		decision_parse(o->decision, &s->decision);
	for (size_t i = 0; i < o->reasons.nr; i++)
		strlist_push(&s->reasons, o->reasons.items[i]);
	s->has_total = o->has_total;
	s->total_tests = o->total;
	s->has_selected_count = o->has_selected;
	s->selected_count = o->selected;
	s->lane = xstrdup(o->lane ? o->lane : "unit");
	if (has_engine)
		s->engine_file = xstrdup("(bare)");
	else if (has_list)
		s->selected_file = xstrdup("(bare)");
	if (has_list && !has_engine && o->selection_format) {
		s->format = xstrdup(adapter_find_answer(o->selection_format)->name);
		s->root = o->selection_root ? xstrdup(o->selection_root) : NULL;
		s->has_decision = o->decision != NULL;
		s->has_total_packages = o->has_packages;
		s->total_packages = o->packages;
	}
}

enum bare_role { ROLE_RESULTS, ROLE_COVERAGE, ROLE_ENGINE, ROLE_LIST, ROLE_FAILED,
		 ROLE_QUARANTINE };

/* What a bare file is, from its first bytes (and its name for plain lists). */
static int sniff_role(struct input *in, enum run_kind kind, enum bare_role *role)
{
	char head[4096];
	const char *path = in->name;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = 0;

	if (input_peek(in, head, sizeof(head), &n) < 0)
		return -1;
	if (junit_sniff(head, n))
		*role = ROLE_RESULTS;
	else if (cobertura_sniff(head, n) || lcov_sniff(head, n))
		*role = ROLE_COVERAGE;
	else if (manifest_sniff(head, n) != JSON_OTHER)
		return error("%s: a manifest or index: ingest it without --kind/--head", path);
	else if (adapter_cbm_sniff(head, n))
		*role = ROLE_ENGINE;
	else if (memchr(head, '\0', n))
		return error("%s: binary data; expected JUnit XML, lcov, Cobertura, a "
			     "selection answer or a list", path);
	else if (!strcmp(base, ".mq-failed-tests.txt"))
		*role = ROLE_FAILED;
	else if (!strcmp(base, "quarantine.txt"))
		*role = ROLE_QUARANTINE;
	else if (kind == RUN_SHADOW)
		*role = ROLE_LIST;
	else
		return error("%s: cannot tell what this is (not JUnit XML, lcov or "
			     "Cobertura; give --failed or --quarantine for a list)", path);
	return 0;
}

static const char *const role_names[] = { "results", "coverage", "engine", "list",
					   "failed", "quarantine" };

/* Add a bare input (moved into rs, or released on error). */
static int add_bare_input(struct run_source *rs, struct input *in, enum bare_role role,
			  struct strbuf *desc)
{
	struct input *slot = NULL;
	bool *flag = NULL;

	strbuf_addf(desc, "input %s\n", role_names[role]);
	switch (role) {
	case ROLE_RESULTS: run_source_add_result(rs, in); return 0;
	case ROLE_COVERAGE: run_source_add_coverage(rs, in); return 0;
	case ROLE_ENGINE: slot = &rs->engine_file; flag = &rs->has_engine_file; break;
	case ROLE_LIST: slot = &rs->selected_file; flag = &rs->has_selected_file; break;
	case ROLE_FAILED: slot = &rs->failed_file; flag = &rs->has_failed_file; break;
	case ROLE_QUARANTINE: slot = &rs->quarantine; flag = &rs->has_quarantine; break;
	}
	if (*flag) {
		int ret = error("%s: more than one %s file for one run", in->name,
				role_names[role]);

		input_release(in);
		return ret;
	}
	*slot = *in;
	memset(in, 0, sizeof(*in));
	*flag = true;
	return 0;
}

/* A file or a URL given with --selection, --failed or --quarantine. */
static int add_bare_file(struct ingest *ing, struct run_source *rs, const char *name,
			 enum bare_role role, struct strbuf *desc)
{
	struct input in;
	char *names[1] = { (char *)name };

	memset(&in, 0, sizeof(in));
	if (!http_is_url(name))
		input_from_file(&in, name);
	else if (http_fetch_inputs(ing, names, 1, &in) < 0)
		return -1;
	return add_bare_input(rs, &in, role, desc);
}

/* The bytes that identify a bare run: its flags, then its files' roles. */
static void describe(struct strbuf *sb, const struct manifest *m)
{
	strbuf_addf(sb, "tiadash bare run\nrepo %s\nkind %s\nhead %s\nbase %s\n",
		    m->repo, run_kind_name(m->kind), m->head, m->base);
	strbuf_addf(sb, "pr %s%" PRId64 "\nattempt %d\nstarted %" PRId64 "\n",
		    m->has_pr ? "" : "-", m->pr, m->attempt, m->started_at);
	strbuf_addf(sb, "wall %.17g\nselection %d %s %d %" PRId64 " %d %" PRId64 "\n",
		    m->wall_clock_s, m->sel.present, decision_name(m->sel.decision),
		    m->sel.has_total, m->sel.total_tests, m->sel.has_selected_count,
		    m->sel.selected_count);
	for (size_t i = 0; i < m->sel.reasons.nr; i++)
		strbuf_addf(sb, "reason %s\n", m->sel.reasons.items[i]);
	if (m->sel.format)
		strbuf_addf(sb, "format %s %d\nroot %s\npackages %d %" PRId64 "\n",
			    m->sel.format, m->sel.has_decision,
			    m->sel.root ? m->sel.root : "-", m->sel.has_total_packages,
			    m->sel.total_packages);
	if (m->workdir)
		strbuf_addf(sb, "workdir %s\n", m->workdir);
}

static bool selects_nothing(const struct bare_opts *o)
{
	enum decision d;

	return o->decision && decision_parse(o->decision, &d) && d == DECISION_NOTHING;
}

static int ingest_bare(struct ingest *ing, struct cmd_context *ctx,
		       const struct bare_opts *o, int nfiles, char **files)
{
	struct run_source rs;
	struct strbuf desc = STRBUF_INIT, uri = STRBUF_INIT;
	bool has_list = o->selection, has_engine = false;
	struct input *ins = xcalloc((size_t)nfiles + 1, sizeof(*ins));
	int ret;

	run_source_init(&rs);
	ret = bare_manifest(ctx, o, &rs.m);
	/* URLs among the files are downloaded first, together. */
	if (!ret)
		ret = http_fetch_inputs(ing, files, (size_t)nfiles, ins);
	for (int i = 0; i < nfiles && !ret; i++) {
		enum bare_role role = ROLE_RESULTS;
		char *real = http_is_url(files[i]) ? NULL : realpath(files[i], NULL);

		if (!ins[i].name)
			input_from_file(&ins[i], files[i]);
		strbuf_addf(&uri, "%s%s", i ? "," : "bare:", real ? real : ins[i].name);
		ret = sniff_role(&ins[i], rs.m.kind, &role);
		if (!ret) {
			has_list |= role == ROLE_LIST;
			has_engine |= role == ROLE_ENGINE;
			ret = add_bare_input(&rs, &ins[i], role, &desc);
		}
		free(real);
	}
	for (int i = 0; i < nfiles; i++)
		input_release(&ins[i]);
	free(ins);
	if (!ret && o->selection)
		ret = add_bare_file(ing, &rs, o->selection, ROLE_LIST, &desc);
	if (!ret && o->failed)
		ret = add_bare_file(ing, &rs, o->failed, ROLE_FAILED, &desc);
	if (!ret && o->quarantine)
		ret = add_bare_file(ing, &rs, o->quarantine, ROLE_QUARANTINE, &desc);
	/* A shadow run's selection may say nothing ran (ingest_prepare reads it). */
	rs.verdict_if_nothing = !o->verdict && !rs.nr_results && !rs.has_failed_file &&
				rs.m.kind == RUN_SHADOW &&
				(has_list || has_engine || selects_nothing(o));
	if (!ret && !o->verdict && !rs.nr_results && !rs.has_failed_file &&
	    !rs.verdict_if_nothing)
		ret = usage_error(&cmd_ingest, "give --verdict (there are no results "
				  "to derive it from%s)", rs.m.kind == RUN_SHADOW ?
				  ", nor a selection that names nothing" : "");
	if (!ret && o->selection_format && !has_list && !has_engine)
		ret = usage_error(&cmd_ingest, "--selection-format %s names no file: "
				  "give it as --selection FILE", o->selection_format);
	if (!ret) {
		struct strbuf head = STRBUF_INIT;

		bare_selection(o, &rs.m, has_list, has_engine);
		rs.verdict_from_results = !o->verdict;
		describe(&head, &rs.m);
		strbuf_add(&head, desc.buf, desc.len);
		run_source_set_head(&rs, head.buf, head.len);
		rs.uri = strbuf_detach(&uri, NULL);
		strbuf_release(&head);
		ret = ingest_run(ing, &rs);
	} else {
		ing->stats.sources++;
		ing->stats.failed++;
	}
	strbuf_release(&desc);
	strbuf_release(&uri);
	run_source_release(&rs);
	return ret;
}

/* Check --github/--gitlab and their options; 0, or a usage error's status. */
static int ci_options(struct ci_cli *c, const struct bare_opts *o, int nargs, int64_t now)
{
	struct ci_pull *p = &c->pull;
	const char *since = c->since ? c->since : "7d";
	bool any = c->github || c->gitlab;

	if (c->github && c->gitlab)
		return usage_error(&cmd_ingest, "give --github or --gitlab, not both");
	if (!any && (c->workflows.nr || c->jobs.nr || c->since || p->api_url))
		return usage_error(&cmd_ingest, "--workflow, --job, --since and --api-url "
				   "go with --github or --gitlab");
	if (!any)
		return 0;
	if (c->github ? c->jobs.nr : c->workflows.nr)
		return usage_error(&cmd_ingest, c->github ? "--job is for --gitlab; "
				   "--github takes --workflow" : "--workflow is for "
				   "--github; --gitlab takes --job");
	if (c->github ? !c->workflows.nr : !c->jobs.nr)
		return usage_error(&cmd_ingest, c->github ? "--github needs one or more "
				   "--workflow FILE" : "--gitlab needs one or more --job NAME");
	if (nargs || o->bare || o->selection || o->failed || o->verdict)
		return usage_error(&cmd_ingest, "--github and --gitlab pull runs: they "
				   "take no SOURCE and no bare-file options");
	if (!time_parse_when(since, now, &p->since))
		return usage_error(&cmd_ingest, "--since '%s': expected 1y, 7d, 24h, a date "
				   "or RFC 3339 time", since);
	p->provider = c->github ? CI_GITHUB : CI_GITLAB;
	p->project = c->github ? c->github : c->gitlab;
	p->pipelines = c->github ? c->workflows : c->jobs;
	return 0;
}

static void print_summary(const struct ingest_stats *st)
{
	printf("%d new run%s, %d unchanged", st->added, st->added == 1 ? "" : "s",
	       st->unchanged);
	if (st->replaced)
		printf(", %d replaced", st->replaced);
	if (st->failed)
		printf(", %d failed", st->failed);
	if (st->git_unknown)
		printf(" (%d with unknown commits)", st->git_unknown);
	putchar('\n');
}

static void bare_opts_release(struct bare_opts *o)
{
	strlist_release(&o->reasons);
	strlist_release(&o->ci.workflows);
	strlist_release(&o->ci.jobs);
}

/* Every option and argument, checked: 0, or a usage error's status; *rest the first operand. */
static int parse_all(int argc, char **argv, struct cmd_context *ctx, int *rest)
{
	memset(&io, 0, sizeof(io));
	if (http_options_init(&io.http) < 0)
		return EXIT_INPUT_ERROR;
	if (parse_options(argc, argv, &cmd_ingest, ctx, rest))
		return EXIT_INPUT_ERROR;
	io.o.bare = io.o.kind || io.o.head;
	if (ci_options(&io.o.ci, &io.o, argc - *rest, ctx->now))
		return EXIT_INPUT_ERROR;
	if (*rest >= argc && !io.o.ci.pull.project &&
	    !(io.o.bare && (io.o.selection || io.o.failed || io.o.verdict ||
			    selects_nothing(&io.o))))
		return usage_error(&cmd_ingest, "nothing to ingest");
	return 0;
}

/* Before the store is opened (created): a usage error leaves nothing behind. */
static int check_ingest(int argc, char **argv, struct cmd_context *ctx)
{
	int rest;
	int ret = parse_all(argc, argv, ctx, &rest);

	bare_opts_release(&io.o);
	return ret;
}

static int run_ingest(int argc, char **argv, struct cmd_context *ctx)
{
	struct bare_opts *o = &io.o;
	struct config cfg = CONFIG_INIT;
	struct ingest ing;
	int64_t since_run;
	int rest;
	int ret = parse_all(argc, argv, ctx, &rest);

	if (ret) {
		bare_opts_release(o);
		return ret;
	}
	if (config_load(&cfg, ctx->db_path) < 0) {
		bare_opts_release(o);
		return EXIT_INPUT_ERROR;
	}
	if (query_newest_run(ctx->store, &since_run) < 0) {
		bare_opts_release(o);
		config_release(&cfg);
		return EXIT_INPUT_ERROR;
	}
	ingest_init(&ing, ctx->store, cmd_repo(ctx), ctx->now);
	ing.idmap = cfg.idmap;
	ing.replace = io.replace;
	ing.progress = isatty(STDERR_FILENO);
	ing.http_opts = &io.http;
	if (o->ci.pull.project)
		ret = ci_ingest(&ing, &o->ci.pull);
	else if (o->bare)
		ret = ingest_bare(&ing, ctx, o, argc - rest, argv + rest);
	else
		for (int i = rest; i < argc; i++)
			ret |= ingest_path(&ing, argv[i]);
	if (ingest_flush(&ing) < 0)
		ret = -1;
	if (mainline_refresh(ctx->store, ing.repo, since_run) < 0)
		ret = -1;
	if (ing.progress)
		fputc('\n', stderr);
	print_summary(&ing.stats);
	ingest_release(&ing);
	config_release(&cfg);
	bare_opts_release(o);
	return ret || ing.stats.failed ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_ingest = {
	.name = "ingest",
	.fn = run_ingest,
	.check = check_ingest,
	.flags = NEED_DB_RW | WANT_REPO,
	.usage = "tiadash ingest [--replace] [--timeout SECS] [--connect-timeout SECS] "
		 "[--max-size SIZE] [--max-source-size SIZE] [--retries N] SOURCE...\n"
		 "       tiadash ingest --kind shadow|full --head SHA [--base SHA] [--pr N] "
		 "[--attempt N] [--verdict V] [--started-at TIME] [--wall-clock SECS] "
		 "[--repo-name NAME] [--decision D] [--reason R]... [--total-tests N] "
		 "[--selected-count N] [--selection FILE] [--selection-format NAME] "
		 "[--selection-root DIR] [--total-packages N] [--failed FILE] "
		 "[--quarantine FILE] [--lane NAME] [--workdir DIR] FILE...\n"
		 "       tiadash ingest --github OWNER/REPO --workflow FILE... [--since WHEN] [--api-url URL]\n"
		 "       tiadash ingest --gitlab PROJECT --job NAME... [--since WHEN] [--api-url URL]",
	.summary = "Ingest run manifests, indexes, directories or URLs (or bare files as one run).",
	.intro = "A SOURCE is a run manifest (tiadash.run.v1), an index (tiadash.index.v1),\n"
		 "a directory searched for *.tiadash.json and tiadash-run.json, or a URL.\n"
		 "Each source is atomic and idempotent.\n",
	.opts = ingest_opts,
	.notes = "TIADASH_TOKEN is sent as a bearer token to the origin of the URL given,\n"
		 "never to another; see tiadash(1) for the TIADASH_HTTP_* variables.\n"
		 "GITHUB_TOKEN / GITLAB_TOKEN (else TIADASH_TOKEN) goes to the API only.\n",
};
