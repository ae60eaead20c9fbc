/* `tiadash ingest`: manifests, indexes, directories, URLs, or bare files as one run. */
#include "core/tiadash.h"
#include "core/cli.h"
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

#include <getopt.h>
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

enum {
	OPT_REPLACE = 256, OPT_KIND, OPT_HEAD, OPT_BASE, OPT_PR, OPT_ATTEMPT,
	OPT_VERDICT, OPT_STARTED, OPT_WALL, OPT_REPO_NAME, OPT_DECISION,
	OPT_REASON, OPT_TOTAL, OPT_SELECTED_COUNT, OPT_SELECTION, OPT_QUARANTINE,
	OPT_FAILED, OPT_LANE, OPT_TIMEOUT, OPT_CONNECT_TIMEOUT, OPT_MAX_SIZE,
	OPT_RETRIES, OPT_SELECTION_FORMAT, OPT_SELECTION_ROOT, OPT_TOTAL_PACKAGES,
	OPT_GITHUB, OPT_GITLAB, OPT_WORKFLOW, OPT_JOB, OPT_SINCE, OPT_API_URL,
	OPT_MAX_SOURCE_SIZE, OPT_WORKDIR,
};

static const struct option options[] = {
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "head", required_argument, NULL, OPT_HEAD },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "pr", required_argument, NULL, OPT_PR },
	{ "attempt", required_argument, NULL, OPT_ATTEMPT },
	{ "verdict", required_argument, NULL, OPT_VERDICT },
	{ "started-at", required_argument, NULL, OPT_STARTED },
	{ "wall-clock", required_argument, NULL, OPT_WALL },
	{ "repo-name", required_argument, NULL, OPT_REPO_NAME },
	{ "decision", required_argument, NULL, OPT_DECISION },
	{ "reason", required_argument, NULL, OPT_REASON },
	{ "total-tests", required_argument, NULL, OPT_TOTAL },
	{ "selected-count", required_argument, NULL, OPT_SELECTED_COUNT },
	{ "selection", required_argument, NULL, OPT_SELECTION },
	{ "quarantine", required_argument, NULL, OPT_QUARANTINE },
	{ "failed", required_argument, NULL, OPT_FAILED },
	{ "lane", required_argument, NULL, OPT_LANE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "max-source-size", required_argument, NULL, OPT_MAX_SOURCE_SIZE },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "selection-format", required_argument, NULL, OPT_SELECTION_FORMAT },
	{ "selection-root", required_argument, NULL, OPT_SELECTION_ROOT },
	{ "total-packages", required_argument, NULL, OPT_TOTAL_PACKAGES },
	{ "github", required_argument, NULL, OPT_GITHUB },
	{ "gitlab", required_argument, NULL, OPT_GITLAB },
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "api-url", required_argument, NULL, OPT_API_URL },
	{ "workdir", required_argument, NULL, OPT_WORKDIR },
	{ NULL, 0, NULL, 0 },
};

static bool parse_count(const char *s, int64_t min, int64_t *out)
{
	return parse_int64(s, out) && *out >= min;
}

static int parse_options(int argc, char **argv, struct bare_opts *o, bool *replace,
			 struct http_options *http)
{
	int64_t retries;

	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		const char *bad = NULL;

		switch (c) {
		case OPT_REPLACE: *replace = true; break;
		case OPT_KIND: o->kind = optarg; break;
		case OPT_HEAD: o->head = optarg; break;
		case OPT_BASE: o->base = optarg; break;
		case OPT_PR: o->has_pr = true; if (!parse_count(optarg, 0, &o->pr)) bad = "--pr"; break;
		case OPT_ATTEMPT: o->has_attempt = true; if (!parse_count(optarg, 1, &o->attempt) || o->attempt > MANIFEST_MAX_ATTEMPT) bad = "--attempt"; break;
		case OPT_VERDICT: o->verdict = optarg; break;
		case OPT_STARTED: o->started_at = optarg; break;
		case OPT_WALL: o->has_wall = true; if (!parse_double(optarg, &o->wall) || o->wall < 0) bad = "--wall-clock"; break;
		case OPT_REPO_NAME: o->repo_name = optarg; break;
		case OPT_DECISION: o->decision = optarg; break;
		case OPT_REASON: strlist_push(&o->reasons, optarg); break;
		case OPT_TOTAL: o->has_total = true; if (!parse_count(optarg, 0, &o->total)) bad = "--total-tests"; break;
		case OPT_SELECTED_COUNT: o->has_selected = true; if (!parse_count(optarg, 0, &o->selected)) bad = "--selected-count"; break;
		case OPT_SELECTION: o->selection = optarg; break;
		case OPT_QUARANTINE: o->quarantine = optarg; break;
		case OPT_FAILED: o->failed = optarg; break;
		case OPT_LANE: o->lane = optarg; break;
		case OPT_WORKDIR: o->workdir = optarg; break;
		case OPT_TIMEOUT: if (!http_parse_seconds(optarg, &http->timeout)) bad = "--timeout"; break;
		case OPT_CONNECT_TIMEOUT: if (!http_parse_seconds(optarg, &http->connect_timeout)) bad = "--connect-timeout"; break;
		case OPT_MAX_SIZE: if (!http_parse_size(optarg, &http->max_size)) bad = "--max-size"; break;
		case OPT_MAX_SOURCE_SIZE: {
			size_t n;

			if (!http_parse_size(optarg, &n))
				bad = "--max-source-size";
			else
				http->max_source = n;
			break;
		}
		case OPT_RETRIES: if (!parse_count(optarg, 0, &retries) || retries > 20) bad = "--retries"; else http->retries = (int)retries; break;
		case OPT_SELECTION_FORMAT: {
			if (!adapter_find_answer(optarg))
				return usage_error(&cmd_ingest, "--selection-format '%s': "
						   "expected one of %s", optarg,
						   adapter_answer_names);
			o->selection_format = optarg;
			break;
		}
		case OPT_SELECTION_ROOT:
			if (optarg[0] != '/')
				return usage_error(&cmd_ingest, "--selection-root '%s': "
						   "expected an absolute directory", optarg);
			o->selection_root = optarg;
			break;
		case OPT_TOTAL_PACKAGES: o->has_packages = true; if (!parse_count(optarg, 1, &o->packages)) bad = "--total-packages"; break;
		case OPT_GITHUB: o->ci.github = optarg; break;
		case OPT_GITLAB: o->ci.gitlab = optarg; break;
		case OPT_WORKFLOW: strlist_push(&o->ci.workflows, optarg); break;
		case OPT_JOB: strlist_push(&o->ci.jobs, optarg); break;
		case OPT_SINCE: o->ci.since = optarg; break;
		case OPT_API_URL: o->ci.pull.api_url = optarg; break;
		default: return usage_error(&cmd_ingest, "unknown option");
		}
		if (bad)
			return usage_error(&cmd_ingest, "%s '%s' is not a valid number", bad, optarg);
	}
	o->bare = o->kind || o->head;
	return 0;
}

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

/* Every option and argument, checked: 0, or a usage error's status. */
static int parse_all(int argc, char **argv, int64_t now, struct bare_opts *o,
		     bool *replace, struct http_options *http)
{
	if (http_options_init(http) < 0)
		return EXIT_INPUT_ERROR;
	if (parse_options(argc, argv, o, replace, http) ||
	    ci_options(&o->ci, o, argc - optind, now))
		return EXIT_INPUT_ERROR;
	if (optind >= argc && !o->ci.pull.project &&
	    !(o->bare && (o->selection || o->failed || o->verdict || selects_nothing(o))))
		return usage_error(&cmd_ingest, "nothing to ingest");
	return 0;
}

/* Before the store is opened (created): a usage error leaves nothing behind. */
static int check_ingest(int argc, char **argv, struct cmd_context *ctx)
{
	struct bare_opts o = { 0 };
	struct http_options http;
	bool replace = false;
	int ret = parse_all(argc, argv, ctx->now, &o, &replace, &http);

	bare_opts_release(&o);
	return ret;
}

static int run_ingest(int argc, char **argv, struct cmd_context *ctx)
{
	struct bare_opts o = { 0 };
	struct http_options http;
	struct config cfg = CONFIG_INIT;
	struct ingest ing;
	bool replace = false;
	int64_t since_run;
	int ret = parse_all(argc, argv, ctx->now, &o, &replace, &http);

	if (ret) {
		bare_opts_release(&o);
		return ret;
	}
	if (config_load(&cfg, ctx->db_path) < 0) {
		bare_opts_release(&o);
		return EXIT_INPUT_ERROR;
	}
	if (query_newest_run(ctx->store, &since_run) < 0) {
		bare_opts_release(&o);
		config_release(&cfg);
		return EXIT_INPUT_ERROR;
	}
	ingest_init(&ing, ctx->store, cmd_repo(ctx), ctx->now);
	ing.idmap = cfg.idmap;
	ing.replace = replace;
	ing.progress = isatty(STDERR_FILENO);
	ing.http_opts = &http;
	if (o.ci.pull.project)
		ret = ci_ingest(&ing, &o.ci.pull);
	else if (o.bare)
		ret = ingest_bare(&ing, ctx, &o, argc - optind, argv + optind);
	else
		for (int i = optind; i < argc; i++)
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
	bare_opts_release(&o);
	return ret || ing.stats.failed ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_ingest = {
	.name = "ingest",
	.fn = run_ingest,
	.check = check_ingest,
	.flags = NEED_DB_RW | WANT_REPO,
	.usage = "tiadash ingest [--replace] SOURCE...\n"
		 "       tiadash ingest --kind shadow|full --head SHA [--base SHA] [--pr N] [OPTIONS] FILE...\n"
		 "       tiadash ingest --github OWNER/REPO --workflow FILE... [--since WHEN] [--api-url URL]\n"
		 "       tiadash ingest --gitlab PROJECT --job NAME... [--since WHEN] [--api-url URL]",
	.summary = "Ingest run manifests, indexes, directories or URLs (or bare files as one run).",
	.help =
		"A SOURCE is a run manifest (tiadash.run.v1), an index (tiadash.index.v1),\n"
		"a directory searched for *.tiadash.json and tiadash-run.json, or a URL.\n"
		"Each source is atomic and idempotent.\n\n"
		"  --replace            a changed source replaces the run stored from it\n\n"
		"URLs (http, https; TLS is always verified):\n"
		"  --timeout SECS       give up on one attempt after this long (default 300)\n"
		"  --connect-timeout SECS  give up connecting after this long (default 10)\n"
		"  --max-size SIZE      refuse a file larger than this (default 512M)\n"
		"  --max-source-size SIZE  refuse a run whose files, decoded, add up to\n"
		"                       more (gzip bodies, archive entries; default 2G)\n"
		"  --retries N          retries on 5xx, 429 and broken transfers (default 3)\n"
		"  TIADASH_TOKEN is sent as a bearer token to the origin of the URL given,\n"
		"  never to another; see tiadash(1) for the TIADASH_HTTP_* variables.\n\n"
		"Straight from CI (the artifacts of runs hold `tiadash record` folders):\n"
		"  --github OWNER/REPO  GitHub Actions: the runs of each --workflow FILE\n"
		"  --gitlab PROJECT     GitLab CI: the jobs named by each --job NAME\n"
		"  --since WHEN         runs created since (default 7d)\n"
		"  --api-url URL        the API (GitHub Enterprise, a GitLab instance)\n"
		"  GITHUB_TOKEN / GITLAB_TOKEN (else TIADASH_TOKEN) goes to the API only.\n\n"
		"Bare files (JUnit XML, lcov, Cobertura, selection lists or answers) as one run:\n"
		"  --kind K             shadow or full (required)\n"
		"  --head SHA           the tested commit (required)\n"
		"  --base SHA           the resolved MQ_AFFECTED_BASE (for changed files)\n"
		"  --pr N               pull request number\n"
		"  --attempt N          attempt number (default 1)\n"
		"  --verdict V          pass, fail or error (default: from the results)\n"
		"  --started-at TIME    RFC 3339 start (default: now)\n"
		"  --wall-clock SECS    the job's gate wall-clock\n"
		"  --repo-name NAME     the repository's name, e.g. acme/ledger\n"
		"  --decision D         selected, run_all or nothing\n"
		"  --reason R           a force-full reason (repeatable)\n"
		"  --total-tests N      the suite's total test count\n"
		"  --selected-count N   how many tests the selection runs\n"
		"  --selection FILE     the selection list (test-only.txt form)\n"
		"  --selection-format NAME  the selection is a selector's own output:\n"
		"                       vitest, turbo, testmon, moon, gstack or cbm\n"
		"  --selection-root DIR the directory the selector ran in (stripped\n"
		"                       from the absolute paths vitest prints)\n"
		"  --total-packages N   turbo, moon: how many packages/projects exist\n"
		"  --failed FILE        failing test ids (.mq-failed-tests.txt form)\n"
		"  --quarantine FILE    the quarantine list in effect\n"
		"  --lane NAME          lane of a codebase-memory-mcp answer (default unit)\n"
		"  --workdir DIR        the directory the runner ran in, relative to the\n"
		"                       repository root (its relative names start there)\n",
	.options = options,
};
