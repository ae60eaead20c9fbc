/*
 * Starting child processes cheaply and cleanly: vfork+exec (posix_spawn
 * for a program found on PATH, or once a library catches signals; either
 * way a 200 MB tiadash costs no page-table copy per call), the
 * child in its own process group, SIGPIPE back at its default, and an
 * environment scrubbed of the credentials tiadash holds. Replay's selector
 * calls and the worktree pool's git commands go through here.
 */
#ifndef TIADASH_CORE_SPAWN_H
#define TIADASH_CORE_SPAWN_H

#include "core/tiadash.h"
#include "core/util.h"

#include <sys/types.h>

/* Variables no child ever sees: the tokens tiadash itself may hold. */
extern const char *const spawn_scrubbed[];

/*
 * An environment for children: this process's, less spawn_scrubbed and the
 * names in `also` (may be NULL), plus `set` ("NAME=VALUE" strings, which
 * replace a variable of the same name; may be NULL). Owns its strings.
 */
struct spawn_env {
	char **vars; /* NULL-terminated, for posix_spawn */
	size_t nr, base; /* base: how many come from the environment */
};
#define SPAWN_ENV_INIT { NULL, 0, 0 }
void spawn_env_init(struct spawn_env *e, const struct strlist *also);
/* dst (released first) becomes a copy of src. */
void spawn_env_copy(struct spawn_env *dst, const struct spawn_env *src);
/* Set NAME=VALUE (replacing an earlier set of the same name). */
void spawn_env_set(struct spawn_env *e, const char *name, const char *value);
void spawn_env_release(struct spawn_env *e);

/*
 * Start `/bin/sh -c cmd` (argv NULL; a cmd that is one absolute path of an
 * executable is started without the shell) or argv[0] found on PATH, in cwd (NULL:
 * ours), with env, its stdin/stdout/stderr the given descriptors (-1:
 * /dev/null), in a new process group whose id is its pid. Returns the pid,
 * or -1 after error() naming what.
 */
pid_t spawn_start(const char *cmd, char *const argv[], const char *cwd,
		  const struct spawn_env *env, int in, int out, int err,
		  const char *what);

/*
 * Some library of this process catches signals spawn does not know of
 * (ncurses): start children with posix_spawn from now on, which resets
 * every handler, not the vfork of spawn_start's commands, which resets
 * only spawn_watch's.
 */
void spawn_foreign_handlers(void);

/*
 * Run argv (on PATH) in cwd and wait: 0 when it exits 0, else -1 after
 * error() with the first line of what it said on stderr.
 */
int spawn_run(char *const argv[], const char *cwd, const struct spawn_env *env,
	      const char *what);

/* Run `/bin/sh -c cmd` in cwd and wait; as spawn_run. */
int spawn_run_shell(const char *cmd, const char *cwd, const struct spawn_env *env,
		    const char *what);

/*
 * Kill (SIGKILL), with its whole process group, every process of this user
 * whose environment holds NAME=VALUE exactly: the children a killed
 * tiadash left, found by the TIADASH_TREE it gave them (a fresh directory,
 * so no process of anyone else's carries it, and a recycled process id
 * cannot point the kill at a stranger). Never our own group. Reads /proc;
 * returns how many processes it found.
 */
size_t spawn_kill_marked(const char *name, const char *value);

/*
 * Waiting for children without pidfd (valgrind does not know it): while
 * the watch is on, SIGCHLD writes a byte to a self-pipe whose read end
 * spawn_watch_fd gives (poll it; spawn_watch_drain empties it), and
 * SIGINT, SIGTERM and SIGHUP are only recorded (spawn_watch_signal), so
 * the caller can stop its children and clean up first. spawn_watch(false)
 * puts the default dispositions back; the caller raises the signal again
 * (or exits as it says) when it is done.
 */
void spawn_watch(bool on);
/* The self-pipe's read end, or -1 when it could not be made. */
int spawn_watch_fd(void);
void spawn_watch_drain(void);
/* The stop signal caught since spawn_watch(true), or 0. */
int spawn_watch_signal(void);

#endif
