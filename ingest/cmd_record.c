/* `tiadash record -- CMD`: run a CI job's command unchanged, then write its run folder. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/options.h"
#include "core/spawn.h"
#include "core/commands.h"
#include "core/timeutil.h"
#include "adapters/adapter.h"
#include "ingest/manifest.h"
#include "ingest/record.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The values the option table fills (reset before each parse). */
static struct record_opts ro;
static bool ro_has_kind;

static bool parse_count(const char *s, int64_t min, int64_t max, int64_t *out)
{
	return parse_int64(s, out) && *out >= min && *out <= max;
}

static int not_a_number(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	return usage_error(p->cmd, "--%s '%s' is not a valid number", opt->long_name, arg);
}

/* --total-packages, --total-tests, --selected-count, --pr, --attempt: counts. */
#define COUNT_CALLBACK(fn, has, field, lo, hi) \
	static int fn(const struct opt *opt, const char *arg, const struct opt_parse *p) \
	{ \
		ro.has = true; \
		if (!parse_count(arg, (lo), (hi), &ro.field)) \
			return not_a_number(opt, arg, p); \
		return 0; \
	}
COUNT_CALLBACK(opt_total_packages, has_total_packages, total_packages, 1, INT64_MAX)
COUNT_CALLBACK(opt_total, has_total, total, 0, INT64_MAX)
COUNT_CALLBACK(opt_selected, has_selected_count, selected_count, 0, INT64_MAX)
COUNT_CALLBACK(opt_pr, has_pr, pr, 1, INT64_MAX)
COUNT_CALLBACK(opt_attempt, has_attempt, attempt, 1, MANIFEST_MAX_ATTEMPT)

static int opt_kind(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	(void)opt;
	ro_has_kind = true;
	if (!run_kind_parse(arg, &ro.kind))
		return usage_error(p->cmd, "--kind must be shadow or full, not '%s'", arg);
	return 0;
}

static int opt_selection_format(const struct opt *opt, const char *arg,
				const struct opt_parse *p)
{
	(void)opt;
	ro.format = adapter_find_answer(arg);
	if (!ro.format && strcmp(arg, "list"))
		return usage_error(p->cmd, "--selection-format must be list or one of %s, "
				   "not '%s'", adapter_answer_names, arg);
	return 0;
}

static int opt_decision(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	enum decision d;

	(void)opt;
	if (!decision_parse(arg, &d))
		return usage_error(p->cmd, "--decision must be selected, run_all or "
				   "nothing, not '%s'", arg);
	ro.decision = arg;
	return 0;
}

static int opt_started(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	(void)opt;
	ro.has_started = true;
	if (!time_parse_rfc3339(arg, &ro.started))
		return usage_error(p->cmd, "--started-at must be an RFC 3339 time, not '%s'",
				   arg);
	return 0;
}

static int opt_wall(const struct opt *opt, const char *arg, const struct opt_parse *p)
{
	ro.has_wall = true;
	if (!parse_double(arg, &ro.wall) || !(ro.wall >= 0) || !isfinite(ro.wall))
		return not_a_number(opt, arg, p);
	return 0;
}

static const struct opt record_opts[] = {
	OPT_CALLBACK(0, "kind", NULL, "K", "shadow or full (required)", opt_kind),
	OPT_STRING(0, "out", &ro.out, "DIR", "the run's folder (default: "
		   ".tiadash/runs/KIND-HEAD-ATTEMPT in the repository root)"),
	OPT_STRING_LIST(0, "results", &ro.results, "GLOB",
			"JUnit XML reports (repeatable; `**` spans directories)"),
	OPT_STRING_LIST(0, "coverage", &ro.coverage, "GLOB",
			"lcov or Cobertura files (repeatable)"),
	OPT_STRING(0, "selection", &ro.selection, "FILE",
		   "the tests the selector chose (shadow runs)"),
	OPT_CALLBACK(0, "selection-format", NULL, "F",
		     "list (one id a line, default), or the selector's own answer: vitest, "
		     "turbo, moon, testmon, gstack, cbm (codebase-memory-mcp's "
		     "selection-engine.json)", opt_selection_format),
	OPT_STRING(0, "lane", &ro.lane, "NAME", "lane of a cbm answer (default unit)"),
	OPT_CALLBACK(0, "total-packages", NULL, "N",
		     "how many packages (turbo) or projects (moon) exist", opt_total_packages),
	OPT_CALLBACK(0, "decision", NULL, "D",
		     "selected, run_all or nothing (default: from the list)", opt_decision),
	OPT_STRING(0, "decision-file", &ro.decision_file, "FILE",
		   "what the job decided at run time, one line: run_all REASON..., selected "
		   "or nothing (default .mq-decision when the command wrote it)"),
	OPT_STRING_LIST(0, "reason", &ro.reasons, "R",
			"why it ran everything, e.g. force-full:**/go.mod (repeatable)"),
	OPT_CALLBACK(0, "total-tests", NULL, "N", "the suite's total test count", opt_total),
	OPT_CALLBACK(0, "selected-count", NULL, "N", "how many tests the selection runs",
		     opt_selected),
	OPT_STRING(0, "quarantine", &ro.quarantine, "FILE",
		   "the quarantine list (default .mq/quarantine.txt if present)"),
	OPT_STRING(0, "failed", &ro.failed, "FILE", "failing test ids (default "
		   ".mq-failed-tests.txt when the command wrote it)"),
	OPT_GROUP("\nWhat the CI knows, given explicitly (revisions resolve in the repository):"),
	OPT_STRING(0, "head", &ro.head, "REV", "the tested commit (default HEAD)"),
	OPT_STRING(0, "base", &ro.base, "REV", "the base (default $MQ_AFFECTED_BASE, else "
		   "origin/main, a remote's HEAD, main, master; see tiadash(1))"),
	OPT_CALLBACK(0, "pr", NULL, "N", "pull request number (default: from the CI)", opt_pr),
	OPT_STRING(0, "repo-name", &ro.repo_name, "NAME",
		   "e.g. acme/ledger (default: from the CI)"),
	OPT_CALLBACK(0, "attempt", NULL, "N", "attempt number (default: the CI's retry "
		     "count, else one more than the records of this head and kind)", opt_attempt),
	OPT_CALLBACK(0, "started-at", NULL, "TIME", "RFC 3339 start (default: now)",
		     opt_started),
	OPT_CALLBACK(0, "wall-clock", NULL, "SECS", "the job's wall-clock (default: measured)",
		     opt_wall),
	OPT_END(),
};

/* Options, then `--` and the command; usage errors stop before anything runs. */
static int parse_record_options(int argc, char **argv, struct cmd_context *ctx,
				struct record_opts *o)
{
	int rest, ret;

	memset(&ro, 0, sizeof(ro));
	ro_has_kind = false;
	/* In order: the first word that is not an option ends them (the command's own follow). */
	ret = parse_options(argc, argv, &cmd_record, ctx, &rest);
	*o = ro; /* the caller releases its lists */
	memset(&ro, 0, sizeof(ro));
	if (ret)
		return EXIT_INPUT_ERROR;
	if (rest >= argc || strcmp(argv[rest - 1], "--"))
		return usage_error(&cmd_record, "give the command to run after '--'");
	o->argv = argv + rest;
	if (!ro_has_kind)
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
	spawn_foreign_handlers(); /* forward_signal, below */
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
	int ret = parse_record_options(argc, argv, ctx, &o);

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
	.flags = OPTS_IN_ORDER,
	.usage = "tiadash record --kind shadow|full [--out DIR] [--results GLOB]... "
		 "[--coverage GLOB]... [--selection FILE] [--selection-format F] "
		 "[--lane NAME] [--total-packages N] [--decision D] [--decision-file FILE] "
		 "[--reason R]... [--total-tests N] [--selected-count N] "
		 "[--quarantine FILE] [--failed FILE] [--head REV] [--base REV] [--pr N] "
		 "[--repo-name NAME] [--attempt N] [--started-at TIME] "
		 "[--wall-clock SECS] -- COMMAND [ARG]...",
	.summary = "Run a CI job's command and record it as a run (a folder with a manifest).",
	.intro = "Runs COMMAND (no shell) with the same stdin, stdout and stderr, and exits\n"
		 "with its exit status (128+N when signal N killed it). Then it copies the\n"
		 "files it names into one folder with a tiadash.run.v1 manifest\n"
		 "(tiadash-run.json), ready to upload and to ingest. If recording fails it\n"
		 "says so on stderr and still exits with the command's status.\n",
	.opts = record_opts,
	.notes = "GitHub Actions, GitLab CI, Buildkite and Jenkins are read; see tiadash(1).\n",
};
