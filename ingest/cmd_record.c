/* `tiadash record -- CMD`: run a CI job's command unchanged, then write its run folder. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/timeutil.h"
#include "adapters/adapter.h"
#include "ingest/manifest.h"
#include "ingest/record.h"

#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
	OPT_KIND = 256, OPT_OUT, OPT_RESULTS, OPT_COVERAGE, OPT_SELECTION,
	OPT_SELECTION_FORMAT, OPT_LANE, OPT_DECISION, OPT_REASON, OPT_TOTAL,
	OPT_SELECTED_COUNT, OPT_QUARANTINE, OPT_FAILED, OPT_HEAD, OPT_BASE, OPT_PR,
	OPT_REPO_NAME, OPT_ATTEMPT, OPT_STARTED, OPT_WALL, OPT_DECISION_FILE,
	OPT_TOTAL_PACKAGES,
};

static const struct option options[] = {
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "coverage", required_argument, NULL, OPT_COVERAGE },
	{ "selection", required_argument, NULL, OPT_SELECTION },
	{ "selection-format", required_argument, NULL, OPT_SELECTION_FORMAT },
	{ "lane", required_argument, NULL, OPT_LANE },
	{ "decision", required_argument, NULL, OPT_DECISION },
	{ "decision-file", required_argument, NULL, OPT_DECISION_FILE },
	{ "total-packages", required_argument, NULL, OPT_TOTAL_PACKAGES },
	{ "reason", required_argument, NULL, OPT_REASON },
	{ "total-tests", required_argument, NULL, OPT_TOTAL },
	{ "selected-count", required_argument, NULL, OPT_SELECTED_COUNT },
	{ "quarantine", required_argument, NULL, OPT_QUARANTINE },
	{ "failed", required_argument, NULL, OPT_FAILED },
	{ "head", required_argument, NULL, OPT_HEAD },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "pr", required_argument, NULL, OPT_PR },
	{ "repo-name", required_argument, NULL, OPT_REPO_NAME },
	{ "attempt", required_argument, NULL, OPT_ATTEMPT },
	{ "started-at", required_argument, NULL, OPT_STARTED },
	{ "wall-clock", required_argument, NULL, OPT_WALL },
	{ NULL, 0, NULL, 0 },
};

static bool parse_count(const char *s, int64_t min, int64_t max, int64_t *out)
{
	return parse_int64(s, out) && *out >= min && *out <= max;
}

static int parse_value(int c, const char *arg, struct record_opts *o)
{
	const char *bad = NULL;
	enum decision d;

	switch (c) {
	case OPT_KIND:
		if (!run_kind_parse(arg, &o->kind))
			return usage_error(&cmd_record, "--kind must be shadow or full, "
					   "not '%s'", arg);
		break;
	case OPT_OUT: o->out = arg; break;
	case OPT_RESULTS: strlist_push(&o->results, arg); break;
	case OPT_COVERAGE: strlist_push(&o->coverage, arg); break;
	case OPT_SELECTION: o->selection = arg; break;
	case OPT_SELECTION_FORMAT:
		o->format = adapter_find_answer(arg);
		if (!o->format && strcmp(arg, "list"))
			return usage_error(&cmd_record, "--selection-format must be "
					   "list or one of %s, not '%s'",
					   adapter_answer_names, arg);
		break;
	case OPT_DECISION_FILE: o->decision_file = arg; break;
	case OPT_TOTAL_PACKAGES:
		o->has_total_packages = true;
		if (!parse_count(arg, 1, INT64_MAX, &o->total_packages))
			bad = "--total-packages";
		break;
	case OPT_LANE: o->lane = arg; break;
	case OPT_DECISION:
		if (!decision_parse(arg, &d))
			return usage_error(&cmd_record, "--decision must be selected, "
					   "run_all or nothing, not '%s'", arg);
		o->decision = arg;
		break;
	case OPT_REASON: strlist_push(&o->reasons, arg); break;
	case OPT_TOTAL:
		o->has_total = true;
		if (!parse_count(arg, 0, INT64_MAX, &o->total))
			bad = "--total-tests";
		break;
	case OPT_SELECTED_COUNT:
		o->has_selected_count = true;
		if (!parse_count(arg, 0, INT64_MAX, &o->selected_count))
			bad = "--selected-count";
		break;
	case OPT_QUARANTINE: o->quarantine = arg; break;
	case OPT_FAILED: o->failed = arg; break;
	case OPT_HEAD: o->head = arg; break;
	case OPT_BASE: o->base = arg; break;
	case OPT_PR:
		o->has_pr = true;
		if (!parse_count(arg, 1, INT64_MAX, &o->pr))
			bad = "--pr";
		break;
	case OPT_REPO_NAME: o->repo_name = arg; break;
	case OPT_ATTEMPT:
		o->has_attempt = true;
		if (!parse_count(arg, 1, MANIFEST_MAX_ATTEMPT, &o->attempt))
			bad = "--attempt";
		break;
	case OPT_STARTED:
		o->has_started = true;
		if (!time_parse_rfc3339(arg, &o->started))
			return usage_error(&cmd_record, "--started-at must be an RFC "
					   "3339 time, not '%s'", arg);
		break;
	case OPT_WALL:
		o->has_wall = true;
		if (!parse_double(arg, &o->wall) || !(o->wall >= 0) || !isfinite(o->wall))
			bad = "--wall-clock";
		break;
	default:
		return usage_error(&cmd_record, "unknown option");
	}
	if (bad)
		return usage_error(&cmd_record, "%s '%s' is not a valid number", bad, arg);
	return 0;
}

/* Options, then `--` and the command; usage errors stop before anything runs. */
static int parse_options(int argc, char **argv, struct record_opts *o)
{
	bool has_kind = false;
	int c, ret;

	optind = 0;
	/* "+": the first word that is not an option ends them (the command's own follow) */
	while ((c = getopt_long(argc, argv, "+", options, NULL)) != -1) {
		has_kind |= c == OPT_KIND;
		if ((ret = parse_value(c, optarg, o)))
			return ret;
	}
	if (optind >= argc || strcmp(argv[optind - 1], "--"))
		return usage_error(&cmd_record, "give the command to run after '--'");
	o->argv = argv + optind;
	if (!has_kind)
		return usage_error(&cmd_record, "--kind shadow|full is required");
	if (o->kind != RUN_SHADOW && (o->selection || o->decision || o->reasons.nr ||
				      o->has_total || o->has_selected_count))
		return usage_error(&cmd_record, "a selection (--selection, --decision, "
				   "--reason, --total-tests, --selected-count) is "
				   "for shadow runs only");
	if (!o->selection && o->decision && !strcmp(o->decision, "selected"))
		return usage_error(&cmd_record, "--decision selected needs --selection "
				   "FILE (the tests it selected)");
	if (!o->selection && !o->decision && (o->reasons.nr || o->has_total ||
					      o->has_selected_count))
		return usage_error(&cmd_record, "--reason, --total-tests and "
				   "--selected-count describe a selection: give "
				   "--selection or --decision too");
	if ((o->format || o->lane || o->has_total_packages) && !o->selection)
		return usage_error(&cmd_record, "--selection-format, --lane and "
				   "--total-packages need --selection FILE");
	if (o->lane && o->format != &adapter_cbm)
		return usage_error(&cmd_record, "--lane is for --selection-format cbm");
	if (o->has_total_packages && o->format != &adapter_turbo &&
	    o->format != &adapter_moon)
		return usage_error(&cmd_record, "--total-packages is for "
				   "--selection-format turbo or moon");
	if (o->kind != RUN_SHADOW && o->decision_file)
		return usage_error(&cmd_record, "--decision-file is for shadow runs only");
	return 0;
}

/* ---- running the command ---- */

static volatile sig_atomic_t command_pid;
static int passed_status; /* what die() exits with once the command has run */

static const int forwarded[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 };

/*
 * A signal sent to tiadash alone (kill, a CI runner cancelling the job) goes
 * on to the command. One from the terminal (SI_KERNEL) reached the whole
 * foreground process group, the command included, so it is not sent twice.
 */
static void forward_signal(int sig, siginfo_t *si, void *uctx)
{
	pid_t pid = (pid_t)command_pid;

	UNUSED(uctx);
	if (pid > 0 && si->si_code != SI_KERNEL && si->si_pid != pid)
		kill(pid, sig);
}

/* A fatal error after the command ran must not change the job's status. */
static void die_passing_status(void)
{
	static const char msg[] = "tiadash: record: a fatal error stopped the "
				  "recording; the command's exit status is "
				  "passed through\n";

	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing left to tell */
	}
	_exit(passed_status);
}

static double elapsed_s(const struct timespec *a, const struct timespec *b)
{
	double s = (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;

	return round(s * 1000.0) / 1000.0; /* milliseconds are enough */
}

/* In the child: the signals as tiadash found them, then the command; errno up the pipe. */
static ATTR_NORETURN void exec_child(char **argv, int report_fd, const struct sigaction *old,
				     const sigset_t *mask)
{
	int e;

	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaction(forwarded[i], &old[i], NULL);
	/* main() ignores SIGPIPE for tiadash; the job gets what tiadash was given. */
	sigaction(SIGPIPE, &sigpipe_at_start, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(argv[0], argv);
	e = errno;
	if (write(report_fd, &e, sizeof(e)) < 0) {
		/* the parent sees an exit status without a reason */
	}
	_exit(e == ENOENT ? 127 : 126);
}

/*
 * fork/exec the command with tiadash's stdin, stdout and stderr, and wait
 * for it. When fork itself fails, the command replaces tiadash (exec
 * without fork): the job then runs as it would without tiadash, unrecorded.
 */
static void run_command(char **argv, struct record_outcome *out)
{
	struct sigaction sa, old[ARRAY_SIZE(forwarded)];
	struct timespec t0, t1;
	sigset_t block, saved;
	int fds[2], wstatus = 0, e = 0;
	pid_t pid;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++) {
		sigaction(forwarded[i], NULL, &old[i]);
		/* A signal ignored when tiadash started stays ignored (nohup, &). */
		if (old[i].sa_handler != SIG_IGN)
			sigaction(forwarded[i], &sa, NULL);
		sigaddset(&block, forwarded[i]);
	}
	fflush(stdout);
	fflush(stderr);
	if (pipe2(fds, O_CLOEXEC) < 0)
		fds[0] = fds[1] = -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Blocked until command_pid is set, so no signal falls between. */
	sigprocmask(SIG_BLOCK, &block, &saved);
	pid = fork();
	if (pid == 0)
		exec_child(argv, fds[1], old, &saved);
	if (pid < 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, &saved, NULL);
		for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
			sigaction(forwarded[i], &old[i], NULL);
		error("cannot fork: %s; running '%s' unrecorded", strerror(e), argv[0]);
		execvp(argv[0], argv);
		e = errno;
		error("cannot run '%s': %s", argv[0], strerror(e));
		out->not_run = true;
		out->status = e == ENOENT ? 127 : 126;
		if (fds[0] >= 0) {
			close(fds[0]);
			close(fds[1]);
		}
		return;
	}
	command_pid = pid;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (fds[1] >= 0)
		close(fds[1]);
	/* Closed by exec (O_CLOEXEC), or the child's errno when exec failed. */
	do
		n = fds[0] >= 0 ? read(fds[0], &e, sizeof(e)) : 0;
	while (n < 0 && errno == EINTR);
	if (fds[0] >= 0)
		close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	command_pid = 0;
	for (size_t i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaction(forwarded[i], &old[i], NULL);
	out->wall_clock_s = elapsed_s(&t0, &t1);
	if (n == (ssize_t)sizeof(e)) {
		error("cannot run '%s': %s", argv[0], strerror(e));
		out->not_run = true;
		out->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 127;
	} else if (WIFSIGNALED(wstatus)) {
		out->signal = WTERMSIG(wstatus);
		out->status = 128 + out->signal;
	} else {
		out->status = WEXITSTATUS(wstatus);
	}
}

static int run_record(int argc, char **argv, struct cmd_context *ctx)
{
	struct record_opts o = RECORD_OPTS_INIT;
	struct record_outcome out;
	struct record r;
	int ret = parse_options(argc, argv, &o);

	if (ret) {
		record_opts_release(&o);
		return ret;
	}
	record_prepare(&r, &o, ctx);
	run_command(o.argv, &out);
	passed_status = out.status;
	set_die_cleanup(die_passing_status);
	/* A file size limit then fails a write (EFBIG) instead of killing tiadash. */
	signal(SIGXFSZ, SIG_IGN);
	if (record_finish(&r, &out) < 0)
		note("record: no run recorded; passing the command's exit status "
		     "(%d) through", out.status);
	set_die_cleanup(NULL);
	record_release(&r);
	record_opts_release(&o);
	return out.status;
}

const struct cmd cmd_record = {
	.name = "record",
	.fn = run_record,
	.usage = "tiadash record --kind shadow|full [OPTIONS] -- COMMAND [ARGS...]",
	.summary = "Run a CI job's command and record it as a run (a folder with a manifest).",
	.help =
		"Runs COMMAND (no shell) with the same stdin, stdout and stderr, and exits\n"
		"with its exit status (128+N when signal N killed it). Then it copies the\n"
		"files it names into one folder with a tiadash.run.v1 manifest\n"
		"(tiadash-run.json), ready to upload and to ingest. If recording fails it\n"
		"says so on stderr and still exits with the command's status.\n\n"
		"  --kind K             shadow or full (required)\n"
		"  --out DIR            the run's folder (default:\n"
		"                       .tiadash/runs/KIND-HEAD-ATTEMPT in the repository\n"
		"                       root)\n"
		"  --results GLOB       JUnit XML reports (repeatable; `**` spans directories)\n"
		"  --coverage GLOB      lcov or Cobertura files (repeatable)\n"
		"  --selection FILE     the tests the selector chose (shadow runs)\n"
		"  --selection-format F list (one id a line, default), or the selector's\n"
		"                       own answer: vitest, turbo, moon, testmon, gstack,\n"
		"                       cbm (codebase-memory-mcp's selection-engine.json)\n"
		"  --lane NAME          lane of a cbm answer (default unit)\n"
		"  --total-packages N   how many packages (turbo) or projects (moon) exist\n"
		"  --decision D         selected, run_all or nothing (default: from the list)\n"
		"  --decision-file FILE what the job decided at run time, one line:\n"
		"                       run_all REASON..., selected or nothing (default\n"
		"                       .mq-decision when the command wrote it)\n"
		"  --reason R           why it ran everything, e.g. force-full:**/go.mod\n"
		"                       (repeatable)\n"
		"  --total-tests N      the suite's total test count\n"
		"  --selected-count N   how many tests the selection runs\n"
		"  --quarantine FILE    the quarantine list (default .mq/quarantine.txt if\n"
		"                       present)\n"
		"  --failed FILE        failing test ids (default .mq-failed-tests.txt when\n"
		"                       the command wrote it)\n\n"
		"What the CI knows, given explicitly (revisions resolve in the repository):\n"
		"  --head REV           the tested commit (default HEAD)\n"
		"  --base REV           the base (default $MQ_AFFECTED_BASE, else origin/main,\n"
		"                       a remote's HEAD, main, master; see tiadash(1))\n"
		"  --pr N               pull request number (default: from the CI)\n"
		"  --repo-name NAME     e.g. acme/ledger (default: from the CI)\n"
		"  --attempt N          attempt number (default: the CI's retry count, else\n"
		"                       one more than the records of this head and kind)\n"
		"  --started-at TIME    RFC 3339 start (default: now)\n"
		"  --wall-clock SECS    the job's wall-clock (default: measured)\n\n"
		"GitHub Actions, GitLab CI, Buildkite and Jenkins are read; see tiadash(1).\n",
	.options = options,
};
