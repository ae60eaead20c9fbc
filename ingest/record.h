/*
 * `tiadash record`, the producer side: what the CI already knows about a job
 * (head, base, pull request, repository, attempt), the files the job names
 * (globs with `**`), and the self-contained folder with a tiadash.run.v1
 * manifest that the job uploads as one artifact. ingest/cmd_record.c runs
 * the command; this is everything around it. Nothing here may fail the job:
 * problems are reported and make the recording, not the command, fail.
 */
#ifndef TIADASH_INGEST_RECORD_H
#define TIADASH_INGEST_RECORD_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/util.h"

struct cmd_context;
struct adapter;

/* What a CI's environment says about the job (see tiadash(1)); each field optional. */
struct record_ci {
	const char *name; /* "github-actions", "gitlab-ci", "buildkite", "jenkins", or NULL */
	char *repo;       /* owner/name (owned), or NULL */
	bool has_pr, has_attempt;
	int64_t pr, attempt;
	const char *attempt_from; /* the variable the attempt came from */
};

/* The command line of `tiadash record`. Init with RECORD_OPTS_INIT. */
struct record_opts {
	enum run_kind kind;
	const char *out;                  /* --out, or NULL: .tiadash/runs/... */
	struct strlist results, coverage; /* patterns */
	const char *selection;            /* the selection file */
	const struct adapter *format;     /* --selection-format: whose answer; NULL: a list */
	const char *lane;                 /* lane of a cbm answer, or NULL */
	const char *decision;             /* checked by the caller */
	const char *decision_file;        /* --decision-file, or NULL: .mq-decision */
	struct strlist reasons;
	bool has_total_packages;          /* turbo, moon answers */
	int64_t total_packages;
	const char *quarantine, *failed;  /* explicit lists, or NULL: the defaults */
	const char *head, *base, *repo_name;
	bool has_total, has_selected_count, has_pr, has_attempt, has_started, has_wall;
	int64_t total, selected_count, pr, attempt, started;
	double wall;
	char **argv; /* the command, NULL-terminated (points into main's argv) */
};
#define RECORD_OPTS_INIT { .results = STRLIST_INIT, .coverage = STRLIST_INIT, \
			   .reasons = STRLIST_INIT }
void record_opts_release(struct record_opts *o);

/* How the command ended. */
struct record_outcome {
	int status;       /* what tiadash exits with: the command's exit status,
			   * 128+N when signal N killed it, 126/127 when it did not run */
	int signal;       /* the signal that killed it, or 0 */
	bool not_run;     /* it could not be started */
	double wall_clock_s;
};

/*
 * A file as it was before the command ran: whether it existed, its inode
 * and its last change to the nanosecond, so a file the command writes is
 * told from one an earlier attempt left (on any file system, whatever its
 * timestamp granularity, and without moving the job's files).
 */
struct record_mark {
	bool exists;
	uint64_t dev, ino, size;
	int64_t mtime_ns, ctime_ns;
};

/* One recording: what is known before the command runs, then the folder. */
struct record {
	const struct record_opts *opts;
	bool broken; /* something needed is missing (already reported): no record */
	char head[41], base[41];
	char *root;  /* the repository's root (the cwd outside one) */
	char *workdir; /* the cwd relative to root ("" at the root, NULL outside it) */
	char *repo_name;
	bool has_pr, has_attempt;
	int64_t pr, attempt;
	int64_t started_at;
	struct record_ci ci;
	struct record_mark failed_before; /* the default failed list, before the command */
	struct record_mark decision_before; /* the default decision file, before it */
	char *dir;   /* after record_finish: the folder written */
};

/*
 * Before the command runs: read the CI's environment and resolve head and
 * base in the repository (closed again before returning, so the command
 * inherits nothing). Problems are reported and set r->broken.
 */
void record_prepare(struct record *r, const struct record_opts *o,
		    const struct cmd_context *ctx);

/*
 * After the command: collect its files, decide the verdict, copy everything
 * into the run's folder and write tiadash-run.json there. Returns 0, or -1
 * after error() with nothing left behind.
 */
int record_finish(struct record *r, const struct record_outcome *out);
void record_release(struct record *r);

#endif
