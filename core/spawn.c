/* Child processes: posix_spawn in a process group of their own, with a scrubbed environment. */
#include "core/tiadash.h"
#include "core/spawn.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *const spawn_scrubbed[] = {
	"TIADASH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN", NULL,
};

static bool name_is(const char *var, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(var, name, n) && var[n] == '=';
}

static bool scrubbed(const char *var, const struct strlist *also)
{
	for (size_t i = 0; spawn_scrubbed[i]; i++)
		if (name_is(var, spawn_scrubbed[i]))
			return true;
	for (size_t i = 0; also && i < also->nr; i++)
		if (name_is(var, also->items[i]))
			return true;
	return false;
}

void spawn_env_init(struct spawn_env *e, const struct strlist *also)
{
	size_t n = 0;

	for (char **v = environ; v && *v; v++)
		n++;
	e->vars = xcalloc(n + 1, sizeof(*e->vars));
	e->nr = 0;
	for (char **v = environ; v && *v; v++)
		if (!scrubbed(*v, also))
			e->vars[e->nr++] = xstrdup(*v);
	e->base = e->nr;
	e->vars[e->nr] = NULL;
}

void spawn_env_copy(struct spawn_env *dst, const struct spawn_env *src)
{
	spawn_env_release(dst);
	dst->vars = xcalloc(src->nr + 1, sizeof(*dst->vars));
	for (size_t i = 0; i < src->nr; i++)
		dst->vars[dst->nr++] = xstrdup(src->vars[i]);
	dst->base = dst->nr;
}

void spawn_env_set(struct spawn_env *e, const char *name, const char *value)
{
	char *var = xstrfmt("%s=%s", name, value);

	for (size_t i = 0; i < e->nr; i++) {
		if (name_is(e->vars[i], name)) {
			free(e->vars[i]);
			e->vars[i] = var;
			return;
		}
	}
	e->vars = xrealloc(e->vars, (e->nr + 2) * sizeof(*e->vars));
	e->vars[e->nr++] = var;
	e->vars[e->nr] = NULL;
}

void spawn_env_release(struct spawn_env *e)
{
	for (size_t i = 0; i < e->nr; i++)
		free(e->vars[i]);
	free(e->vars);
	e->vars = NULL;
	e->nr = e->base = 0;
}

/*
 * A command that is one absolute path of an executable, with nothing the
 * shell would interpret, is what `sh -c` would run itself: started
 * directly, it saves the shell's own start (a millisecond a call, as git's
 * run-command does). Anything else goes through /bin/sh.
 */
static bool plain_program(const char *cmd)
{
	return cmd[0] == '/' && !cmd[strcspn(cmd, " \t\n|&;<>()$`\\\"'*?[]#~=%{}!")] &&
	       access(cmd, X_OK) == 0;
}

/* Exec cmd itself; a file the kernel cannot exec (a script without #!) goes to sh as before. */
static int spawn_plain(pid_t *pid, const char *cmd, const posix_spawn_file_actions_t *fa,
		       const posix_spawnattr_t *attr, char *const envp[])
{
	char *const direct[] = { (char *)cmd, NULL };
	char *const sh[] = { "sh", "-c", (char *)cmd, NULL };
	int rc = posix_spawn(pid, cmd, fa, attr, direct, envp);

	if (rc == ENOEXEC)
		rc = posix_spawn(pid, "/bin/sh", fa, attr, sh, envp);
	return rc;
}

/* ---- the fast start: vfork, and only our own handlers reset ---- */

/*
 * A vforked child shares our memory until it execs, so no handler of ours
 * may run in it: it resets the signals we catch (spawn_watch's) and the
 * one we ignore (SIGPIPE, which would survive exec) before it unblocks
 * any. posix_spawn cannot know which those are and asks the kernel about
 * every signal: 120 system calls a start, a tenth of a selector call's
 * cost on a virtual machine. Once code lets a library catch signals we
 * cannot name (ncurses), spawn_foreign_handlers sends every start to
 * posix_spawn.
 */
static atomic_bool foreign_handlers;

void spawn_foreign_handlers(void)
{
	foreign_handlers = true;
}

/* What the child does between vfork and exec; err is what it failed with. */
struct child_plan {
	const char *path;
	char *const *argv, *const *envp;
	const char *cwd;
	int fds[3];
	int err;
};

/* Only system calls: the child runs on our stack, in our memory. */
static _Noreturn void child_exec(struct child_plan *p)
{
	static const int reset[] = { SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP };
	struct sigaction dfl;
	sigset_t none;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < ARRAY_SIZE(reset); i++)
		sigaction(reset[i], &dfl, NULL);
	if (setpgid(0, 0) < 0)
		goto fail;
	for (int k = 0; k < 3; k++) {
		int fd = p->fds[k];

		if (fd < 0 && (fd = open("/dev/null", (k ? O_WRONLY : O_RDONLY) | O_CLOEXEC)) < 0)
			goto fail;
		/* /dev/null opened as k itself (ours was closed) must survive the exec. */
		if (fd == k ? p->fds[k] < 0 && fcntl(k, F_SETFD, 0) < 0 : dup2(fd, k) < 0)
			goto fail;
	}
	if (p->cwd && chdir(p->cwd) < 0)
		goto fail;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(p->path, (char *const *)p->argv, (char *const *)p->envp);
fail:
	p->err = errno;
	_exit(127);
}

/* Start p; the pid, or -1 with errno set (what the child failed with). */
static pid_t start_fast(struct child_plan *p)
{
	sigset_t all, old;
	pid_t pid;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	p->err = 0;
	pid = vfork();
	if (pid == 0)
		child_exec(p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid > 0 && p->err) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = p->err;
		return -1;
	}
	return pid;
}

/* /bin/sh -c cmd, or cmd itself when it is a plain program (a file without #! to sh). */
static int spawn_fast(pid_t *pid, const char *cmd, const char *cwd, char *const envp[],
		      const int fds[3])
{
	char *const direct[] = { (char *)cmd, NULL };
	char *const sh[] = { "sh", "-c", (char *)cmd, NULL };
	struct child_plan p = { "/bin/sh", sh, envp, cwd, { fds[0], fds[1], fds[2] }, 0 };

	if (plain_program(cmd)) {
		p.path = cmd;
		p.argv = direct;
		*pid = start_fast(&p);
		if (*pid >= 0 || errno != ENOEXEC)
			return *pid < 0 ? errno : 0;
		p.path = "/bin/sh";
		p.argv = sh;
	}
	*pid = start_fast(&p);
	return *pid < 0 ? errno : 0;
}

pid_t spawn_start(const char *cmd, char *const argv[], const char *cwd,
		  const struct spawn_env *env, int in, int out, int err,
		  const char *what)
{
	char *const sh[] = { "sh", "-c", (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t def, none;
	pid_t pid;
	int rc, fds[3] = { in, out, err };

	if (!argv && !foreign_handlers) {
		rc = spawn_fast(&pid, cmd, cwd, env ? env->vars : environ, fds);
		if (rc) {
			error("cannot run %s: %s", what, strerror(rc));
			return -1;
		}
		return pid;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	for (int k = 0; k < 3; k++) {
		if (fds[k] < 0)
			posix_spawn_file_actions_addopen(&fa, k, "/dev/null",
							 k ? O_WRONLY : O_RDONLY, 0);
		else if (fds[k] != k)
			posix_spawn_file_actions_adddup2(&fa, fds[k], k);
	}
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	/* tiadash ignores SIGPIPE; an ignored signal would survive exec. */
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETPGROUP);
	if (argv)
		rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, env ? env->vars : environ);
	else if (plain_program(cmd))
		rc = spawn_plain(&pid, cmd, &fa, &attr, env ? env->vars : environ);
	else
		rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, sh, env ? env->vars : environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		error("cannot run %s: %s", what, strerror(rc));
		return -1;
	}
	return pid;
}

static int wait_for(pid_t pid, int errfd, const char *what)
{
	char buf[4096];
	struct strbuf msg = STRBUF_INIT;
	ssize_t n;
	int status = 0;

	while ((n = read(errfd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (msg.len < 4096)
			strbuf_add(&msg, buf, (size_t)n);
	}
	close(errfd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		strbuf_release(&msg);
		return 0;
	}
	msg.len = strcspn(msg.buf, "\n");
	msg.buf[msg.len] = '\0';
	if (WIFSIGNALED(status))
		error("%s: killed by signal %d", what, WTERMSIG(status));
	else
		error("%s: exit status %d%s%s", what, WEXITSTATUS(status),
		      msg.len ? ": " : "", msg.buf);
	strbuf_release(&msg);
	return -1;
}

static int run(const char *cmd, char *const argv[], const char *cwd,
	       const struct spawn_env *env, const char *what)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return error("cannot run %s: %s", what, strerror(errno));
	pid = spawn_start(cmd, argv, cwd, env, -1, -1, p[1], what);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	return wait_for(pid, p[0], what);
}

int spawn_run(char *const argv[], const char *cwd, const struct spawn_env *env,
	      const char *what)
{
	return run(NULL, argv, cwd, env, what);
}

int spawn_run_shell(const char *cmd, const char *cwd, const struct spawn_env *env,
		    const char *what)
{
	return run(cmd, NULL, cwd, env, what);
}

/* ---- what a killed tiadash left: found by a variable it set ---- */

/* Does /proc/PID/environ hold var ("NAME=VALUE") as one of its entries? */
static bool environ_holds(const char *pid, const char *var)
{
	char *path = xstrfmt("/proc/%s/environ", pid);
	struct strbuf sb = STRBUF_INIT;
	bool found = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	free(path);
	if (fd < 0)
		return false;
	for (;;) {
		char buf[8192];
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || sb.len > (1u << 20))
			break;
		strbuf_add(&sb, buf, (size_t)n);
	}
	close(fd);
	strbuf_addch(&sb, '\0');
	for (size_t i = 0; i < sb.len && !found; i += strlen(sb.buf + i) + 1)
		found = !strcmp(sb.buf + i, var);
	strbuf_release(&sb);
	return found;
}

/* One pass over /proc: kill the groups of the marked processes. */
static size_t kill_marked_pass(const char *var)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid(), own_group = getpgrp();
	size_t found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		pid_t pid, group;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)atol(de->d_name);
		if (pid == self || !environ_holds(de->d_name, var))
			continue;
		found++;
		group = getpgid(pid);
		if (group > 1 && group != own_group)
			kill(-group, SIGKILL);
		kill(pid, SIGKILL);
	}
	closedir(d);
	return found;
}

size_t spawn_kill_marked(const char *name, const char *value)
{
	char *var = xstrfmt("%s=%s", name, value);
	size_t total = 0, n;

	/* Again while one is found: a child may have forked as we read. */
	for (int pass = 0; pass < 5 && (n = kill_marked_pass(var)) > 0; pass++)
		total += n;
	free(var);
	return total;
}

/* ---- the watch: a self-pipe for SIGCHLD, stop signals recorded ---- */

static volatile sig_atomic_t stop_signal;
static int exited[2] = { -1, -1 };

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	int e = errno;
	ssize_t n = write(exited[1], "x", 1);

	(void)sig;
	(void)n;
	errno = e;
}

void spawn_watch(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (on) {
		stop_signal = 0;
		if (exited[0] < 0 && pipe2(exited, O_CLOEXEC | O_NONBLOCK) < 0)
			exited[0] = exited[1] = -1;
	}
	sa.sa_handler = on && exited[1] >= 0 ? on_child : SIG_DFL;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = on ? on_stop : SIG_DFL;
	sa.sa_flags = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (!on && exited[0] >= 0) {
		close(exited[0]);
		close(exited[1]);
		exited[0] = exited[1] = -1;
	}
}

int spawn_watch_fd(void)
{
	return exited[0];
}

void spawn_watch_drain(void)
{
	char buf[64];

	while (exited[0] >= 0 && read(exited[0], buf, sizeof(buf)) > 0)
		;
}

int spawn_watch_signal(void)
{
	return (int)stop_signal;
}
