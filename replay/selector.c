/* Running `--selector CMD` once per change, -j at a time, and reading its answer. */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "core/strmap.h"
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
	int in, out, err; /* our ends; -1 when closed */
	struct strbuf input, output, errors;
	size_t written;
	double deadline;
	bool overflow;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* Control characters, NUL, DEL, C1 or invalid UTF-8 anywhere: garbage. */
static bool check_bytes(const char *out, size_t len, struct replay_selector_job *job)
{
	const unsigned char *p = (const unsigned char *)out;
	int line = 1;

	for (size_t i = 0; i < len;) {
		int n = utf8_seq_len(p + i, len - i);

		if (p[i] == '\n') {
			line++;
			i++;
			continue;
		}
		if (p[i] == '\r' && i + 1 < len && p[i + 1] == '\n') {
			i++;
			continue;
		}
		if (n == 0) {
			set_error(job, "printed invalid UTF-8 on line %d", line);
			return false;
		}
		if ((n == 1 && (p[i] < 0x20 || p[i] == 0x7f)) ||
		    (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)) {
			set_error(job, "printed a control character (\\x%02x) on "
				  "line %d", p[i] == 0xc2 ? p[i + 1] : p[i], line);
			return false;
		}
		i += (size_t)n;
	}
	return true;
}

static void split_words(const char *s, struct strlist *out)
{
	while (*s) {
		size_t n;

		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		if (n)
			strlist_push_owned(out, xstrndup(s, n));
		s += n;
	}
}

void replay_selector_parse(const char *out, size_t len,
			   struct replay_selector_job *job)
{
	struct strlist lines = STRLIST_INIT;
	struct strmap seen = STRMAP_INIT;
	const char *p = out, *end = out + len;

	strlist_release(&job->lines);
	if (!check_bytes(out, len, job))
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		char *t = trim(line);

		if (*t)
			strlist_push(&lines, t);
		free(line);
		p = nl ? nl + 1 : end;
	}
	if (!lines.nr) {
		set_error(job, "printed nothing");
	} else if (!strcmp(lines.items[0], "run_all") ||
		   starts_with(lines.items[0], "run_all ")) {
		job->answer = ANSWER_RUN_ALL;
		split_words(lines.items[0] + 7, &job->lines);
		for (size_t i = 1; i < lines.nr; i++)
			strlist_push(&job->lines, lines.items[i]);
	} else if (!strcmp(lines.items[0], "nothing")) {
		if (lines.nr > 1)
			set_error(job, "printed 'nothing' and then test ids");
		else
			job->answer = ANSWER_NOTHING;
	} else {
		job->answer = ANSWER_TESTS;
		for (size_t i = 0; i < lines.nr; i++) {
			bool added;

			strmap_intern(&seen, lines.items[i], strlen(lines.items[i]),
				      0, &added);
			if (added)
				strlist_push(&job->lines, lines.items[i]);
		}
	}
	strmap_clear(&seen);
	strlist_release(&lines);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static ATTR_NORETURN void child(const struct replay_selector_opts *o,
				const struct replay_selector_job *job,
				int in, int out, int err)
{
	setpgid(0, 0);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	/* tiadash ignores SIGPIPE; an ignored signal would survive exec. */
	signal(SIGPIPE, SIG_DFL);
	if (o->repo_root && chdir(o->repo_root) < 0)
		_exit(126);
	setenv("TIADASH_BASE", *job->base ? job->base : EMPTY_TREE, 1);
	setenv("TIADASH_HEAD", job->head, 1);
	setenv("TIADASH_REPO", o->repo_root ? o->repo_root : ".", 1);
	execl("/bin/sh", "sh", "-c", o->cmd, (char *)NULL);
	_exit(127);
}

static int start(const struct replay_selector_opts *o,
		 struct replay_selector_job *jobs, size_t idx, struct slot *s)
{
	int pin[2], pout[2], perr[2];
	pid_t pid;

	memset(s, 0, sizeof(*s));
	s->in = s->out = s->err = -1;
	s->job = idx;
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
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pin[0]), close(pin[1]), close(pout[0]), close(pout[1]);
		close(perr[0]), close(perr[1]);
		return error("cannot run the selector: %s", strerror(e));
	}
	if (pid == 0)
		child(o, &jobs[idx], pin[0], pout[1], perr[1]);
	setpgid(pid, pid); /* either side may win the race; both ask the same */
	close(pin[0]), close(pout[1]), close(perr[1]);
	s->pid = pid;
	s->in = pin[1];
	s->out = pout[0];
	s->err = perr[0];
	fcntl(s->in, F_SETFL, fcntl(s->in, F_GETFL) | O_NONBLOCK);
	s->input = (struct strbuf)STRBUF_INIT;
	s->output = (struct strbuf)STRBUF_INIT;
	s->errors = (struct strbuf)STRBUF_INIT;
	for (size_t i = 0; i < jobs[idx].paths->nr; i++)
		strbuf_addf(&s->input, "%s\n", jobs[idx].paths->items[i]);
	s->deadline = now_s() + o->timeout_s;
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
		   bool timed_out)
{
	if (timed_out)
		set_error(job, "timed out after %g s", o->timeout_s);
	else if (WIFSIGNALED(status))
		set_error(job, "killed by signal %d", WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		set_error(job, "exited with status %d", WEXITSTATUS(status));
	else if (s->overflow)
		set_error(job, "printed more than %u MiB", MAX_OUTPUT >> 20);
	else
		replay_selector_parse(s->output.buf, s->output.len, job);
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

int replay_selector_run(const struct replay_selector_opts *o,
			struct replay_selector_job *jobs, size_t nr)
{
	int width = o->jobs > 0 ? o->jobs : 1;
	struct slot *slots = xcalloc((size_t)width, sizeof(*slots));
	struct pollfd *fds = xcalloc((size_t)width * 3, sizeof(*fds));
	size_t next = 0, done = 0;
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		jobs[i].answer = ANSWER_ERROR;
		jobs[i].lines = (struct strlist)STRLIST_INIT;
		jobs[i].why = NULL;
	}
	while (done < nr) {
		nfds_t nfds = 0;
		double now = now_s(), wait_s = 3600;
		bool lingering = false;

		for (int k = 0; k < width && next < nr && !ret; k++) {
			if (slots[k].pid)
				continue;
			if (start(o, jobs, next, &slots[k]) < 0)
				ret = -1;
			else
				next++;
		}
		for (int k = 0; k < width; k++) {
			struct slot *s = &slots[k];

			if (!s->pid)
				continue;
			if (s->in >= 0)
				fds[nfds++] = (struct pollfd){ s->in, POLLOUT, 0 };
			if (s->out >= 0)
				fds[nfds++] = (struct pollfd){ s->out, POLLIN, 0 };
			if (s->err >= 0)
				fds[nfds++] = (struct pollfd){ s->err, POLLIN, 0 };
			if (s->in < 0 && s->out < 0 && s->err < 0)
				lingering = true;
			if (s->deadline - now < wait_s)
				wait_s = s->deadline - now;
		}
		if (ret && !nfds && !lingering)
			break;
		if (lingering && wait_s > 0.005)
			wait_s = 0.005;
		if (wait_s < 0)
			wait_s = 0;
		if (poll(fds, nfds, (int)(wait_s * 1000) + 1) < 0 && errno != EINTR) {
			ret = error("cannot wait for the selector: %s", strerror(errno));
			break;
		}
		for (nfds_t f = 0; f < nfds; f++) {
			if (!fds[f].revents)
				continue;
			for (int k = 0; k < width; k++) {
				struct slot *s = &slots[k];

				if (!s->pid)
					continue;
				if (fds[f].fd == s->in)
					feed(s);
				else if (fds[f].fd == s->out)
					drain(&s->out, &s->output, MAX_OUTPUT, &s->overflow);
				else if (fds[f].fd == s->err)
					drain(&s->err, &s->errors, MAX_STDERR, NULL);
			}
		}
		now = now_s();
		for (int k = 0; k < width; k++) {
			struct slot *s = &slots[k];
			int status = 0;
			pid_t w;

			if (!s->pid)
				continue;
			if (now >= s->deadline) {
				kill(-s->pid, SIGKILL);
				kill(s->pid, SIGKILL);
				while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
					;
				finish(o, &jobs[s->job], s, status, true);
			} else if (s->out < 0 && s->err < 0) {
				siginfo_t info = { 0 };

				/* Exited? Look without reaping: the group id stays ours. */
				if (waitid(P_PID, (id_t)s->pid, &info,
					   WEXITED | WNOHANG | WNOWAIT) == 0 &&
				    info.si_pid == 0)
					continue;
				/* Grandchildren it left behind go with it. */
				kill(-s->pid, SIGKILL);
				while ((w = waitpid(s->pid, &status, 0)) < 0 && errno == EINTR)
					;
				if (w < 0)
					status = 255 << 8;
				finish(o, &jobs[s->job], s, status, false);
			} else {
				continue;
			}
			done++;
			if (o->progress)
				o->progress(done, nr, o->data);
		}
	}
	/* Only after an error: stop what still runs. */
	for (int k = 0; k < width; k++) {
		if (slots[k].pid) {
			int status;

			kill(-slots[k].pid, SIGKILL);
			waitpid(slots[k].pid, &status, 0);
			set_error(&jobs[slots[k].job], "not run");
			finish(o, &jobs[slots[k].job], &slots[k], status, false);
		}
	}
	free(slots);
	free(fds);
	return ret;
}
