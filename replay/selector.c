/* Running the selector once per change, -j at a time, each in a worktree at the change's head, and reading its answer. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "core/digest.h"
#include "core/identity.h"
#include "core/sanitize.h"
#include "core/spawn.h"
#include "core/strmap.h"
#include "core/timeutil.h"
#include "core/worktree.h"
#include "replay/replay.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a root commit's TIADASH_BASE is: git's empty tree, so `git diff` works. */
#define EMPTY_TREE "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define MAX_OUTPUT (64u << 20)
#define MAX_STDERR 4096

struct slot {
	pid_t pid;
	size_t job;
	const char *tree; /* the worktree it runs in (the pool's) */

	int in, out, err; /* our ends; -1 when closed */
	struct strbuf input, output, errors;
	size_t written;
	double deadline;
	bool overflow;
};

void replay_selector_job_release(struct replay_selector_job *job)
{
	strlist_release(&job->lines);
	free(job->why);
	job->why = NULL;
}

static void set_error(struct replay_selector_job *job, const char *fmt, ...)
	ATTR_FORMAT(2, 3);
static void set_error(struct replay_selector_job *job, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strlist_release(&job->lines);
	free(job->why);
	job->answer = ANSWER_ERROR;
	job->why = strbuf_detach(&sb, NULL);
}

/* A reader's answer as the job's. */
static void take_answer(struct replay_selector_job *job, struct adapter_answer *a)
{
	const struct strlist *l = a->decision == DECISION_RUN_ALL ? &a->reasons : &a->entries;

	strlist_release(&job->lines);
	free(job->why);
	job->why = NULL;
	switch (a->decision) {
	case DECISION_RUN_ALL: job->answer = ANSWER_RUN_ALL; break;
	case DECISION_SELECTED: job->answer = a->entries.nr ? ANSWER_TESTS : ANSWER_NOTHING; break;
	default: job->answer = ANSWER_NOTHING; break;
	}
	for (size_t i = 0; job->answer != ANSWER_NOTHING && i < l->nr; i++)
		strlist_push(&job->lines, l->items[i]);
}

/*
 * The tree a job's answer is read against: its head's resolver, looked up
 * only when the answer needs it (entries to resolve, or projects to
 * count), not for every "nothing" (a commit and a tree read per call).
 */
struct answer_tree {
	struct identity_cache *ids;
	struct repo *repo;
	const struct replay_selector_job *job;
	struct identity *id; /* once looked up */
};

static struct identity *answer_identity(struct answer_tree *t)
{
	if (t && !t->id)
		t->id = identity_for_run(t->ids, t->repo, t->job->head, t->job->base,
					 NULL, NULL, NULL);
	return t ? t->id : NULL;
}

/*
 * The options an answer at job's head is read with: moon's project count
 * or turbo's workspace package count from the tree (t; NULL: none), as a
 * CI's --total-packages would give it (an answer that names every project
 * or package runs all).
 */
static void answer_opts_at(const struct adapter *ad, struct answer_tree *t,
			   struct adapter_opts *o)
{
	bool counts = ad == &adapter_moon || ad == &adapter_turbo;
	struct identity *id = counts ? answer_identity(t) : NULL;
	size_t projects = !id ? 0 : ad == &adapter_moon ? identity_moon_projects(id) :
			  identity_turbo_packages(id);

	o->has_total_packages = projects > 0;
	o->total_packages = (int64_t)projects;
}

/*
 * Read out with the adapter; its complaint (not printed) becomes the job's
 * why. With t (the tree at the job's head; NULL: none), the answer's
 * entries are resolved there as ingest resolves a stored selection's.
 */
static void read_answer(const struct adapter *ad, const char *root, const char *out,
			size_t len, struct replay_selector_job *job, struct answer_tree *t)
{
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	struct adapter_opts o = ADAPTER_OPTS_INIT;
	struct strbuf why = STRBUF_INIT;
	struct identity *id;
	int rc;

	o.root = root;
	answer_opts_at(ad, t, &o);
	error_capture(&why);
	rc = adapter_read_answer(ad, out, len, "stdout", &o, &a);
	error_capture(NULL);
	if (rc < 0) {
		set_error(job, "printed what its reader refuses (%s)", why.buf);
		strbuf_release(&why);
		return;
	}
	if (a.entries.nr && (id = answer_identity(t)))
		identity_resolve_list(id, &a.entries, ID_ENTRY, NULL, NULL);
	/* A reader's warning is no error, but it is not an answer either. */
	if (why.len && !a.entries.nr && a.decision != DECISION_RUN_ALL &&
	    a.decision != DECISION_NOTHING)
		set_error(job, "%s", why.buf);
	else
		take_answer(job, &a);
	adapter_answer_release(&a);
	strbuf_release(&why);
}

void replay_selector_parse(const char *out, size_t len,
			   struct replay_selector_job *job)
{
	read_answer(&adapter_lists, NULL, out, len, job, NULL);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Does o run a built-in command of an npm package's tool (struct adapter's node_tool)? */
static bool runs_node_tool(const struct replay_selector_opts *o)
{
	return o->cmd == o->adapter->command && o->adapter->node_tool;
}

void replay_selector_env(const struct replay_selector_opts *o, const char *tree,
			 struct spawn_env *env)
{
	const char *path = getenv("PATH");
	char *bin;

	if (!runs_node_tool(o))
		return;
	bin = xstrfmt("%s/node_modules/.bin:%s", tree, path ? path : "/usr/bin:/bin");
	spawn_env_set(env, "PATH", bin);
	free(bin);
}

/* The shell's "not found" (127): link or install node_modules in the worktree with --setup. */
char *replay_selector_not_found(const struct replay_selector_opts *o, int status)
{
	if (!runs_node_tool(o) || !WIFEXITED(status) || WEXITSTATUS(status) != 127)
		return NULL;
	return xstrfmt("%s: not found in the worktree's node_modules; see --setup",
		       o->adapter->name);
}

static int start(const struct replay_selector_opts *o, struct replay_selector_job *jobs,
		 size_t idx, struct slot *s, const char *tree, const struct spawn_env *base)
{
	struct spawn_env env = SPAWN_ENV_INIT;
	int pin[2], pout[2], perr[2];
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->in = s->out = s->err = -1;
	s->job = idx;
	s->tree = tree;
	if (pipe2(pin, O_CLOEXEC) < 0)
		return error("cannot run the selector: %s", strerror(errno));
	if (pipe2(pout, O_CLOEXEC) < 0) {
		close(pin[0]), close(pin[1]);
		return error("cannot run the selector: %s", strerror(errno));
	}
	if (pipe2(perr, O_CLOEXEC) < 0) {
		close(pin[0]), close(pin[1]), close(pout[0]), close(pout[1]);
		return error("cannot run the selector: %s", strerror(errno));
	}
	spawn_env_copy(&env, base);
	spawn_env_set(&env, "TIADASH_BASE", *jobs[idx].base ? jobs[idx].base : EMPTY_TREE);
	spawn_env_set(&env, "TIADASH_HEAD", jobs[idx].head);
	spawn_env_set(&env, "TIADASH_TREE", tree);
	spawn_env_set(&env, "TIADASH_REPO", o->repo->root);
	replay_selector_env(o, tree, &env);
	pid = spawn_start(o->cmd, NULL, tree, &env, pin[0], pout[1], perr[1], "the selector");
	spawn_env_release(&env);
	close(pin[0]), close(pout[1]), close(perr[1]);
	if (pid < 0) {
		close(pin[1]), close(pout[0]), close(perr[0]);
		return -1;
	}
	s->pid = pid;
	s->in = pin[1];
	s->out = pout[0];
	s->err = perr[0];
	fcntl(s->in, F_SETFL, fcntl(s->in, F_GETFL) | O_NONBLOCK);
	s->input = (struct strbuf)STRBUF_INIT;
	s->output = (struct strbuf)STRBUF_INIT;
	s->errors = (struct strbuf)STRBUF_INIT;
	for (size_t i = 0; i < jobs[idx].paths->nr; i++) {
		git_quote_path(&s->input, jobs[idx].paths->items[i]);
		strbuf_addch(&s->input, '\n');
	}
	s->deadline = time_monotonic_s() + o->timeout_s;
	return 0;
}

/* The first line of what the selector said on stderr, for the warning. */
static void add_stderr_hint(struct replay_selector_job *job, const struct strbuf *err)
{
	size_t n = strcspn(err->buf, "\n");
	char *why;

	if (!n || job->answer != ANSWER_ERROR)
		return;
	why = xstrfmt("%s: %.*s", job->why, (int)(n > 200 ? 200 : n), err->buf);
	free(job->why);
	job->why = why;
}

static void finish(const struct replay_selector_opts *o,
		   struct replay_selector_job *job, struct slot *s, int status,
		   bool timed_out, struct identity_cache *ids)
{
	char *missing = NULL;

	if (timed_out)
		set_error(job, "timed out after %g s", o->timeout_s);
	else if (WIFSIGNALED(status))
		set_error(job, "killed by signal %d", WTERMSIG(status));
	else if ((missing = replay_selector_not_found(o, status))) {
		set_error(job, "%s", missing);
		strbuf_reset(&s->errors); /* the shell's words, said better above */
	} else if (WIFEXITED(status) && WEXITSTATUS(status))
		set_error(job, "exited with status %d", WEXITSTATUS(status));
	else if (s->overflow)
		set_error(job, "printed more than %u MiB", MAX_OUTPUT >> 20);
	else
		read_answer(o->adapter, s->tree, s->output.buf, s->output.len, job,
			    &(struct answer_tree){ ids, o->repo, job, NULL });
	free(missing);
	add_stderr_hint(job, &s->errors);
	close_fd(&s->in);
	close_fd(&s->out);
	close_fd(&s->err);
	strbuf_release(&s->input);
	strbuf_release(&s->output);
	strbuf_release(&s->errors);
	s->pid = 0;
}

static void drain(int *fd, struct strbuf *sb, size_t cap, bool *overflow)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	if (sb->len + (size_t)n > cap) {
		/* Keep reading (so it is not blocked), keep nothing more. */
		if (overflow)
			*overflow = true;
		strbuf_add(sb, buf, cap > sb->len ? cap - sb->len : 0);
		return;
	}
	strbuf_add(sb, buf, (size_t)n);
}

static void feed(struct slot *s)
{
	while (s->written < s->input.len) {
		ssize_t n = write(s->in, s->input.buf + s->written,
				  s->input.len - s->written);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close_fd(&s->in); /* EPIPE: it stopped reading, fine */
			return;
		}
		s->written += (size_t)n;
	}
	close_fd(&s->in);
}

/* ---- the cache: one file per (selector, change) key ---- */

/* The key: the selector (adapter, command, setup) and the change (its two trees). */
static void job_key(const struct replay_selector_opts *o, struct replay_selector_job *job)
{
	struct digest d;
	char hex[GIT_OID_HEXSZ + 1];

	digest_init(&d);
	/* v3: entries resolved in the tree, moon's projects and turbo's packages counted. */
	digest_add(&d, "tiadash selector v3", 19);
	digest_boundary(&d);
	digest_add(&d, o->adapter->name, strlen(o->adapter->name));
	digest_boundary(&d);
	digest_add(&d, o->cmd, strlen(o->cmd));
	digest_boundary(&d);
	if (o->setup)
		digest_add(&d, o->setup, strlen(o->setup));
	digest_boundary(&d);
	git_oid_tostr(hex, sizeof(hex), &job->parent_tree);
	digest_add(&d, hex, strlen(hex));
	digest_boundary(&d);
	git_oid_tostr(hex, sizeof(hex), &job->tree);
	digest_add(&d, hex, strlen(hex));
	digest_hex(&d, job->key);
}

/* An answer as text: what is cached, and what two answers are compared by. */
static void answer_text(const struct replay_selector_job *job, struct strbuf *out)
{
	static const char *const names[] = { "tests", "run_all", "nothing", "error" };
	struct strlist sorted = STRLIST_INIT;

	strbuf_addf(out, "%s\n", names[job->answer]);
	for (size_t i = 0; i < job->lines.nr; i++)
		strlist_push(&sorted, job->lines.items[i]);
	if (job->answer == ANSWER_TESTS)
		strlist_sort(&sorted);
	for (size_t i = 0; i < sorted.nr; i++)
		strbuf_addf(out, "%s\n", sorted.items[i]);
	strlist_release(&sorted);
}

/*
 * Under the git directory (the common one, which worktrees share), never in
 * the work tree: a commit cannot plant an answer there, and the tree under
 * test is never read for one. git_repository_commondir ends in '/'.
 */
static char *cache_path(const struct replay_selector_opts *o, const char *key)
{
	return xstrfmt("%stiadash/selector-cache/%.2s/%s",
		       git_repository_commondir(o->repo->git), key, key + 2);
}

/* A cached answer into job (0), or 1 when there is none. */
static int cache_read(const struct replay_selector_opts *o, struct replay_selector_job *job)
{
	char *path = cache_path(o, job->key);
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end;
	int ret = 1;

	if (access(path, R_OK) == 0 && read_file_limit(&sb, path, MAX_OUTPUT) == 0) {
		p = sb.buf;
		end = sb.buf + sb.len;
		strlist_release(&job->lines);
		if (starts_with(p, "tests\n"))
			job->answer = ANSWER_TESTS;
		else if (starts_with(p, "run_all\n"))
			job->answer = ANSWER_RUN_ALL;
		else if (starts_with(p, "nothing\n"))
			job->answer = ANSWER_NOTHING;
		else
			goto out;
		p = strchr(p, '\n') + 1;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			if (!nl)
				break;
			strlist_push_owned(&job->lines, xstrndup(p, (size_t)(nl - p)));
			p = nl + 1;
		}
		job->cached = true;
		ret = 0;
	}
out:
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* Keep an answer (never an error: the next run tries again). Quietly best-effort. */
static void cache_write(const struct replay_selector_opts *o, const struct replay_selector_job *job)
{
	char *path = cache_path(o, job->key), *tmp = xstrfmt("%s.%ld", path, (long)getpid());
	struct strbuf sb = STRBUF_INIT;
	FILE *f;

	answer_text(job, &sb);
	if (job->answer != ANSWER_ERROR && mkdir_for_file(path) == 0 &&
	    (f = fopen(tmp, "w")) != NULL) {
		bool ok = fwrite(sb.buf, 1, sb.len, f) == sb.len;

		if (fclose(f) == 0 && ok)
			rename(tmp, path);
		unlink(tmp);
	}
	strbuf_release(&sb);
	free(tmp);
	free(path);
}

/* Jobs of one key that answered two ways are not reproducible; mark each. */
static void check_reproducible(struct replay_selector_job *jobs, size_t nr)
{
	struct strmap first = STRMAP_INIT; /* key -> job index */
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		int64_t j;
		bool added;
		struct strmap_entry *e = strmap_intern(&first, jobs[i].key, 32,
						       (int64_t)i, &added);

		if (added || jobs[i].answer == ANSWER_ERROR)
			continue;
		j = e->value;
		if (jobs[j].answer == ANSWER_ERROR)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		answer_text(&jobs[i], &a);
		answer_text(&jobs[j], &b);
		if (strcmp(a.buf, b.buf))
			jobs[i].not_reproducible = jobs[j].not_reproducible = true;
	}
	strmap_clear(&first);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* One replay_selector_run: its jobs, the slots running them, the worktrees. */
struct selector_run {
	const struct replay_selector_opts *o;
	struct replay_selector_job *jobs;
	size_t nr, next, done;
	int width;
	struct slot *slots;
	struct pollfd *fds; /* what the next poll waits on */
	nfds_t nfds;
	struct worktree_pool *pool;
	struct replay_selector_job *cached; /* with recheck: the cache's answers */
	struct identity_cache *ids;
	int ret;
};

/*
 * Key every job and answer it from the cache where the cache has it; with
 * recheck, the cache's answer is kept aside and the selector called again.
 */
static void answer_from_cache(struct selector_run *r)
{
	const struct replay_selector_opts *o = r->o;

	for (size_t i = 0; i < r->nr; i++) {
		struct replay_selector_job *job = &r->jobs[i];

		job->answer = ANSWER_ERROR;
		job->lines = (struct strlist)STRLIST_INIT;
		job->why = NULL;
		job_key(o, job);
		if (!o->cache || cache_read(o, job) != 0)
			continue;
		if (o->recheck) {
			/* Keep what the cache says, and call again. */
			r->cached[i] = *job;
			job->lines = (struct strlist)STRLIST_INIT;
			job->cached = false;
		}
	}
}

static void count_done(struct selector_run *r)
{
	r->done++;
	if (r->o->progress)
		r->o->progress(r->done, r->nr, r->o->data);
}

/* Start the next jobs in the free slots; those answered already need no call. */
static void start_jobs(struct selector_run *r)
{
	for (int k = 0; k < r->width && r->next < r->nr && !r->ret; k++) {
		const char *tree;

		if (r->slots[k].pid)
			continue;
		while (r->next < r->nr && r->jobs[r->next].cached) {
			r->next++;
			count_done(r);
		}
		if (r->next >= r->nr)
			break;
		if (worktree_pool_checkout(r->pool, (size_t)k, r->jobs[r->next].head, &tree) < 0 ||
		    start(r->o, r->jobs, r->next, &r->slots[k], tree,
			  worktree_pool_env(r->pool)) < 0)
			r->ret = -1;
		else
			r->next++;
	}
}

/*
 * With one worktree, its next change is read ahead while the selector
 * runs in it (the checkout then only writes); with more, the other
 * worktrees' checkouts overlap the running selectors already.
 */
static void read_ahead(struct selector_run *r)
{
	size_t next = r->next;

	if (r->width != 1 || !r->slots[0].pid)
		return;
	while (next < r->nr && r->jobs[next].cached)
		next++;
	if (next < r->nr)
		worktree_pool_read_ahead(r->pool, 0, r->jobs[next].head);
}

/*
 * The descriptors to wait on (r->fds) and for how long: till the first
 * deadline, or a moment when a selector has closed its pipes but not yet
 * exited. False when, after an error, nothing is left to wait for.
 */
static bool wait_set(struct selector_run *r, double now, double *wait_s)
{
	bool lingering = false;

	r->nfds = 0;
	*wait_s = 3600;
	for (int k = 0; k < r->width; k++) {
		struct slot *s = &r->slots[k];

		if (!s->pid)
			continue;
		if (s->in >= 0)
			r->fds[r->nfds++] = (struct pollfd){ s->in, POLLOUT, 0 };
		if (s->out >= 0)
			r->fds[r->nfds++] = (struct pollfd){ s->out, POLLIN, 0 };
		if (s->err >= 0)
			r->fds[r->nfds++] = (struct pollfd){ s->err, POLLIN, 0 };
		if (s->in < 0 && s->out < 0 && s->err < 0)
			lingering = true;
		if (s->deadline - now < *wait_s)
			*wait_s = s->deadline - now;
	}
	if (r->ret && !r->nfds && !lingering)
		return false;
	if (spawn_watch_fd() >= 0)
		r->fds[r->nfds++] = (struct pollfd){ spawn_watch_fd(), POLLIN, 0 };
	else if (lingering && *wait_s > 0.005)
		*wait_s = 0.005;
	if (*wait_s < 0)
		*wait_s = 0;
	return true;
}

/* Poll r->fds; -1 after error() when poll fails or a stop signal came. */
static int wait_ready(struct selector_run *r, double wait_s)
{
	if (poll(r->fds, r->nfds, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR)
		return r->ret = error("cannot wait for the selector: %s", strerror(errno));
	if (spawn_watch_signal())
		return r->ret = error("interrupted (signal %d): the worktrees are removed",
				      spawn_watch_signal());
	return 0;
}

/* Feed the selectors' input and drain their output where poll found them ready. */
static void serve_ready(struct selector_run *r)
{
	for (nfds_t f = 0; f < r->nfds; f++) {
		if (!r->fds[f].revents)
			continue;
		if (r->fds[f].fd == spawn_watch_fd()) {
			spawn_watch_drain();
			continue;
		}
		for (int k = 0; k < r->width; k++) {
			struct slot *s = &r->slots[k];

			if (!s->pid)
				continue;
			if (r->fds[f].fd == s->in)
				feed(s);
			else if (r->fds[f].fd == s->out)
				drain(&s->out, &s->output, MAX_OUTPUT, &s->overflow);
			else if (r->fds[f].fd == s->err)
				drain(&s->err, &s->errors, MAX_STDERR, NULL);
		}
	}
}

/* A selector past its deadline: killed with what it started, its job timed out. */
static void finish_late(struct selector_run *r, struct slot *s)
{
	int status = 0;

	kill(-s->pid, SIGKILL);
	kill(s->pid, SIGKILL);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	finish(r->o, &r->jobs[s->job], s, status, true, r->ids);
}

/* A selector whose pipes are closed: its answer once it has exited (true). */
static bool finish_exited(struct selector_run *r, struct slot *s)
{
	siginfo_t info = { 0 };
	int status = 0;
	pid_t w;

	/* Exited? Look without reaping: the group id stays ours. */
	if (waitid(P_PID, (id_t)s->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	    info.si_pid == 0)
		return false;
	/* Grandchildren it left behind go with it. */
	kill(-s->pid, SIGKILL);
	while ((w = waitpid(s->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (w < 0)
		status = 255 << 8;
	finish(r->o, &r->jobs[s->job], s, status, false, r->ids);
	return true;
}

/* Settle the slots whose selector exited or ran out of time. */
static void reap_slots(struct selector_run *r)
{
	double now = time_monotonic_s();

	for (int k = 0; k < r->width; k++) {
		struct slot *s = &r->slots[k];

		if (!s->pid)
			continue;
		if (now >= s->deadline)
			finish_late(r, s);
		else if (s->out >= 0 || s->err >= 0 || !finish_exited(r, s))
			continue;
		count_done(r);
	}
}

/* Only after an error: stop what still runs, its job "not run". */
static void stop_slots(struct selector_run *r)
{
	for (int k = 0; k < r->width; k++) {
		struct slot *s = &r->slots[k];

		if (s->pid) {
			int status;

			kill(-s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
			set_error(&r->jobs[s->job], "not run");
			finish(r->o, &r->jobs[s->job], s, status, false, r->ids);
		}
	}
}

/*
 * Mark the answers that are not reproducible (two of one key, or with
 * recheck, the cache's and the call's, differ) and keep the others.
 */
static void settle_answers(struct selector_run *r)
{
	const struct replay_selector_opts *o = r->o;

	check_reproducible(r->jobs, r->nr);
	for (size_t i = 0; i < r->nr; i++) {
		struct replay_selector_job *job = &r->jobs[i];

		if (o->recheck && r->cached[i].cached) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

			answer_text(job, &a);
			answer_text(&r->cached[i], &b);
			if (job->answer != ANSWER_ERROR && strcmp(a.buf, b.buf))
				job->not_reproducible = true;
			strbuf_release(&a);
			strbuf_release(&b);
			replay_selector_job_release(&r->cached[i]);
		}
		if (!r->ret && o->cache && !job->cached && !job->not_reproducible)
			cache_write(o, job);
	}
}

static void selector_run_release(struct selector_run *r)
{
	free(r->slots);
	free(r->fds);
	identity_cache_free(r->ids);
}

int replay_selector_run(const struct replay_selector_opts *o,
			struct replay_selector_job *jobs, size_t nr)
{
	struct worktree_opts wo = { o->setup, o->scrub };
	struct selector_run r = { .o = o, .jobs = jobs, .nr = nr };

	r.width = o->jobs > 0 ? o->jobs : 1;
	r.slots = xcalloc((size_t)r.width, sizeof(*r.slots));
	r.fds = xcalloc((size_t)r.width * 4, sizeof(*r.fds));
	r.cached = xcalloc(nr + 1, sizeof(*r.cached));
	r.ids = identity_cache_new();
	answer_from_cache(&r);
	/* A stop signal removes the pool first; it is raised again at the end. */
	spawn_watch(true);
	if (worktree_pool_open(&r.pool, o->repo, (size_t)r.width, &wo) < 0) {
		spawn_watch(false);
		selector_run_release(&r);
		free(r.cached);
		return -1;
	}
	while (r.done < nr) {
		double now = time_monotonic_s(), wait_s;

		start_jobs(&r);
		if (r.done >= nr)
			break;
		read_ahead(&r);
		if (!wait_set(&r, now, &wait_s) || wait_ready(&r, wait_s) < 0)
			break;
		serve_ready(&r);
		reap_slots(&r);
	}
	stop_slots(&r);
	worktree_pool_close(r.pool);
	spawn_watch(false);
	if (spawn_watch_signal())
		raise(spawn_watch_signal());
	selector_run_release(&r);
	settle_answers(&r);
	free(r.cached);
	return r.ret;
}
