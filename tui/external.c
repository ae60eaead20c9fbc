/* Where the dashboard reaches outside itself: the clipboard (OSC 52, else a
 * list printed on exit), a pager for a commit, an editor for a note. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/repo.h"
#include "core/sanitize.h"
#include "tui/tui.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <term.h>
#include <unistd.h>

static void base64(struct strbuf *sb, const char *s, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		strbuf_addch(sb, abc[v >> 18 & 63]);
		strbuf_addch(sb, abc[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? abc[v >> 6 & 63] : '=');
		strbuf_addch(sb, i + 2 < n ? abc[v & 63] : '=');
	}
}

/*
 * The terminal's "set the selection" string (terminfo's Ms, as tmux reads
 * it), or NULL: then the terminal is not known to take OSC 52.
 */
static const char *osc52_capability(void)
{
	char *ms;

	if (tui_headless())
		return NULL;
	ms = tigetstr("Ms");
	return ms && ms != (char *)-1 ? ms : NULL;
}

enum reaction tui_copy(struct tui *t, const char *text)
{
	struct strbuf safe = STRBUF_INIT, b64 = STRBUF_INIT;
	const char *ms = osc52_capability();

	/* What is pasted later must be as harmless as what is drawn. */
	sanitize_text(&safe, text, strlen(text));
	base64(&b64, safe.buf, safe.len);
	if (ms && tui_terminal_write(tiparm(ms, "c", b64.buf)) == 0) {
		tui_message(t, false, "copied %s", safe.buf);
	} else {
		strlist_push(&t->copied, safe.buf);
		tui_message(t, false, "%s: printed when the dashboard closes (this terminal "
			    "takes no OSC 52)", safe.buf);
	}
	strbuf_release(&safe);
	strbuf_release(&b64);
	return R_REDRAW;
}

void tui_print_copied(struct tui *t)
{
	for (size_t i = 0; i < t->copied.nr; i++)
		printf("copied: %s\n", t->copied.items[i]);
	fflush(stdout);
}

/* Is there an executable `name` on $PATH? */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	bool found = false;

	while (path && *path && !found) {
		size_t n = strcspn(path, ":");
		char *dir = xstrndup(path, n), *file = path_join(*dir ? dir : ".", name);

		found = access(file, X_OK) == 0;
		free(dir);
		free(file);
		path += n + (path[n] == ':');
	}
	return found;
}

/*
 * Run `sh -c script sh arg` in dir with the terminal (curses off, the real
 * stderr). The dashboard ignores SIGINT meanwhile: a Ctrl-C is the
 * program's. Returns its exit status, or -1 when it could not run.
 */
static int run_outside(const char *script, const char *arg, const char *dir)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	int status = -1;
	pid_t pid;

	fflush(stdout);
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &old);
	tui_display_suspend();
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		sigaction(SIGPIPE, &sigpipe_at_start, NULL);
		dup2(tui_real_stderr(), STDERR_FILENO);
		if (dir && chdir(dir) < 0)
			_exit(126);
		execl("/bin/sh", "sh", "-c", script, "sh", arg, (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	tui_display_resume();
	sigaction(SIGINT, &old, NULL);
	return status;
}

enum reaction tui_open_commit(struct tui *t, const char *sha)
{
	const char *pager = getenv("TIADASH_PAGER");
	struct repo *repo;
	char *script;
	int rc;

	if (!is_hex_sha(sha))
		BUG("not a commit sha");
	if (pager && *pager)
		script = xstrfmt("%s \"$1\"", pager);
	else if (on_path("tig"))
		script = xstrdup("tig show \"$1\"");
	else
		script = xstrdup("git show \"$1\"");
	repo = cmd_repo(t->ctx);
	rc = run_outside(script, sha, repo ? repo->root : NULL);
	if (rc)
		tui_message(t, true, "'%.*s %.12s' exited with status %d",
			    (int)(strlen(script) - 5), script, sha, rc);
	free(script);
	return R_REDRAW;
}

int tui_edit_text(struct tui *t, const char *template, struct strbuf *out)
{
	const char *editor = getenv("VISUAL");
	const char *tmpdir = getenv("TMPDIR");
	struct strbuf text = STRBUF_INIT;
	char *path, *script, *line, *save = NULL;
	int fd, rc;

	if (!editor || !*editor)
		editor = getenv("EDITOR");
	if (!editor || !*editor)
		editor = "vi";
	path = xstrfmt("%s/tiadash-note-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, template, strlen(template)) != (ssize_t)strlen(template) ||
	    close(fd) < 0) {
		tui_message(t, true, "cannot write a note file in %s", tmpdir ? tmpdir : "/tmp");
		if (fd >= 0)
			unlink(path);
		free(path);
		return -1;
	}
	script = xstrfmt("%s \"$1\"", editor);
	rc = run_outside(script, path, NULL);
	free(script);
	if (rc || read_file_limit(&text, path, 1 << 20) < 0) {
		tui_message(t, true, rc ? "the editor exited with status %d: no note stored" :
			    "cannot read the note back: none stored", rc);
		unlink(path);
		free(path);
		strbuf_release(&text);
		return -1;
	}
	unlink(path);
	free(path);
	/* Drop the template's comments; keep the lines, one note. */
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (*line == '#')
			continue;
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_addstr(out, trim(line));
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		strbuf_setlen(out, out->len - 1);
	strbuf_release(&text);
	return 0;
}
