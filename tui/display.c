/* The terminal: curses up and down (restored on every exit), stderr parked, colours,
 * signals, keys from the terminal or a script (TIADASH_SCRIPT), and screen dumps. */
#include "core/tiadash.h"
#include "core/spawn.h"
#include "tui/tui.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

static struct {
	bool active;
	SCREEN *screen;
	FILE *out, *in;      /* headless: /dev/null both ways */
	int saved_stderr;    /* the real stderr while curses is up */
	FILE *parked;        /* what was written to stderr meanwhile */
	bool use_color;
	attr_t attrs[NR_ROLES];
	FILE *script;
	char *script_line;   /* keys of the current script line not yet read */
	size_t script_pos;
	bool headless;
} d = { .saved_stderr = -1 };

static volatile sig_atomic_t pending_signal;

static void on_signal(int sig)
{
	pending_signal = sig;
}

int tui_pending_signal(void)
{
	return pending_signal;
}

static void quit_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* The handler only notes the signal; the loop sees it (wait_key) and cleans up. */
static void catch_signals(void)
{
	struct sigaction sa;

	/* ncurses catches its own (SIGWINCH, SIGTSTP): children start by posix_spawn. */
	spawn_foreign_handlers();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void tui_block_signals(sigset_t *old)
{
	sigset_t set;

	quit_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static int park_stderr(void)
{
	fflush(stderr);
	d.parked = tmpfile();
	if (!d.parked)
		return error("cannot create a temporary file for stderr: %s",
			     strerror(errno));
	d.saved_stderr = dup(STDERR_FILENO);
	if (d.saved_stderr < 0 || dup2(fileno(d.parked), STDERR_FILENO) < 0) {
		fclose(d.parked);
		d.parked = NULL;
		return error("cannot redirect stderr: %s", strerror(errno));
	}
	return 0;
}

static void replay_stderr(void)
{
	char buf[4096];
	size_t n;

	if (d.saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(d.saved_stderr, STDERR_FILENO);
	close(d.saved_stderr);
	d.saved_stderr = -1;
	rewind(d.parked);
	while ((n = fread(buf, 1, sizeof(buf), d.parked)) > 0)
		if (fwrite(buf, 1, n, stderr) != n)
			break;
	fflush(stderr);
	fclose(d.parked);
	d.parked = NULL;
}

/*
 * Colour or monochrome, decided here only (STYLE pattern 4): --color=never
 * and NO_COLOR (unless --color=always) leave the monochrome attributes.
 */
static void init_colors(enum color_when when)
{
	static const struct { short fg, bg; attr_t mono; } roles[] = {
#define ROLE_ROW_(name, fg, bg, mono) { fg, bg, mono },
		ROLE_INFO(ROLE_ROW_)
#undef ROLE_ROW_
	};
	const char *no_color = getenv("NO_COLOR");

	d.use_color = has_colors() && when != COLOR_NEVER &&
		      (when == COLOR_ALWAYS || !(no_color && *no_color));
	if (d.use_color && start_color() == OK) {
		use_default_colors();
		for (int i = 0; i < NR_ROLES; i++) {
			if (i == ROLE_DEFAULT) {
				d.attrs[i] = A_NORMAL;
				continue;
			}
			init_pair((short)(i + 1), roles[i].fg, roles[i].bg);
			d.attrs[i] = COLOR_PAIR(i + 1) | (roles[i].mono & A_BOLD);
		}
		return;
	}
	d.use_color = false;
	for (int i = 0; i < NR_ROLES; i++)
		d.attrs[i] = roles[i].mono;
}

attr_t tui_role_attr(enum tui_role role)
{
	return d.attrs[role];
}

bool tui_use_color(void)
{
	return d.use_color;
}

bool tui_scripted(void)
{
	return d.script != NULL || d.headless;
}

bool tui_headless(void)
{
	return d.headless;
}

int tui_real_stderr(void)
{
	return d.saved_stderr >= 0 ? d.saved_stderr : STDERR_FILENO;
}

void tui_display_suspend(void)
{
	if (!d.active || d.headless)
		return;
	def_prog_mode();
	endwin();
}

void tui_display_resume(void)
{
	if (!d.active || d.headless)
		return;
	reset_prog_mode();
	clearok(curscr, TRUE);
}

int tui_terminal_write(const char *s)
{
	FILE *f = d.headless ? d.out : stdout;

	if (!d.active || !f || fputs(s, f) == EOF || fflush(f))
		return -1;
	return 0;
}

void tui_display_done(void)
{
	if (d.active) {
		endwin();
		delscreen(d.screen);
		d.screen = NULL;
		d.active = false;
		if (d.out)
			fclose(d.out);
		if (d.in)
			fclose(d.in);
		d.out = d.in = NULL;
	}
	replay_stderr();
	if (d.script) {
		fclose(d.script);
		d.script = NULL;
	}
	free(d.script_line);
	d.script_line = NULL;
}

int tui_display_init(struct tui *t)
{
	const char *headless = getenv("TIADASH_NO_DISPLAY");
	const char *script = getenv("TIADASH_SCRIPT");

	d.headless = headless && *headless;
	if (script && *script) {
		d.script = fopen(script, "r");
		if (!d.script)
			return error("cannot open the script '%s': %s", script,
				     strerror(errno));
	}
	if (!d.headless && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		tui_display_done();
		return error("the dashboard needs a terminal (stdin and stdout); "
			     "try 'tiadash report'");
	}
	if (park_stderr() < 0) {
		tui_display_done();
		return -1;
	}
	catch_signals();
	if (d.headless) {
		/* Tests and CI: no terminal at all, not even /dev/tty. */
		d.out = fopen("/dev/null", "w");
		d.in = fopen("/dev/null", "r");
		if (d.out && d.in)
			d.screen = newterm(strcmp(headless, "1") ? headless : "dumb",
					   d.out, d.in);
	} else {
		d.screen = newterm(NULL, stdout, stdin);
	}
	if (!d.screen) {
		tui_display_done();
		return error("cannot set up the terminal (TERM=%s)",
			     getenv("TERM") ? getenv("TERM") : "");
	}
	d.active = true;
	set_die_cleanup(tui_display_done);
	set_term(d.screen);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	curs_set(0);
	if (!getenv("ESCDELAY"))
		set_escdelay(50);
	/* Clicks, double clicks and the wheel (Shift+drag still selects text). */
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
		  BUTTON5_PRESSED, NULL);
	init_colors(t->opts.color);
	getmaxyx(stdscr, t->lines, t->cols);
	return 0;
}

void tui_resize(struct tui *t, int lines, int cols)
{
	if (lines > 0 && cols > 0)
		resizeterm(lines, cols);
	getmaxyx(stdscr, t->lines, t->cols);
	clearok(curscr, TRUE);
}

/* A mouse event as the dashboard's key; MOUSE_NONE for the ones it ignores. */
static struct tui_key mouse_key(void)
{
	struct tui_key k = { KEY_MOUSE, true, MOUSE_NONE, 0, 0 };
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return k;
	k.x = ev.x;
	k.y = ev.y;
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		k.mouse = MOUSE_DOUBLE_CLICK;
	else if (ev.bstate & BUTTON1_CLICKED)
		k.mouse = MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED)
		k.mouse = MOUSE_WHEEL_UP;
	else if (ev.bstate & BUTTON5_PRESSED)
		k.mouse = MOUSE_WHEEL_DOWN;
	return k;
}

/* Normalise what the terminal sends: Enter is '\n', Backspace <BS>. */
static struct tui_key normal_key(int rc, wint_t wch)
{
	struct tui_key k = { (int)wch, rc == KEY_CODE_YES, MOUSE_NONE, 0, 0 };

	if (k.fn && k.code == KEY_MOUSE)
		k = mouse_key();
	else if ((!k.fn && k.code == '\r') || (k.fn && k.code == KEY_ENTER))
		k = (struct tui_key){ '\n', false, MOUSE_NONE, 0, 0 };
	else if (!k.fn && (k.code == 127 || k.code == 8))
		k = (struct tui_key){ KEY_BACKSPACE, true, MOUSE_NONE, 0, 0 };
	return k;
}

/* The next script item: 1 key, 0 a command was run, -1 end of script. */
static int script_next(struct tui *t, struct tui_key *key, enum reaction *r)
{
	for (;;) {
		size_t n;
		ssize_t len;

		if (d.script_line && d.script_line[d.script_pos]) {
			n = tui_key_parse(d.script_line + d.script_pos, key);
			if (n) {
				d.script_pos += n;
				return 1;
			}
			die("script: cannot read a key at '%s'",
			    d.script_line + d.script_pos);
		}
		free(d.script_line);
		d.script_line = NULL;
		d.script_pos = 0;
		{
			size_t cap = 0;

			len = getline(&d.script_line, &cap, d.script);
		}
		if (len < 0)
			return -1;
		while (len > 0 && (d.script_line[len - 1] == '\n' ||
				   d.script_line[len - 1] == '\r'))
			d.script_line[--len] = '\0';
		if (!len || d.script_line[0] == '#')
			continue;
		if (d.script_line[0] == ':') {
			*r = tui_run_command(t, d.script_line + 1);
			free(d.script_line);
			d.script_line = NULL;
			return 0;
		}
	}
}

/*
 * A key, or ERR on a signal or (when busy) after 25 ms. A signal that comes
 * while a frame is drawn must not wait for a key: the quit signals are blocked
 * from the flag check until ppoll unblocks them atomically, so one cannot fall
 * between the check and the wait. Keys ncurses already holds come first (ppoll
 * sees only the descriptor); SIGWINCH ends the wait and the next call reads
 * its KEY_RESIZE.
 */
static int wait_key(bool busy, wint_t *wch)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	struct timespec tick = { 0, 25 * 1000 * 1000 };
	sigset_t old;
	int rc;

	wtimeout(stdscr, 0);
	rc = wget_wch(stdscr, wch);
	if (rc != ERR)
		return rc;
	tui_block_signals(&old);
	if (!pending_signal && ppoll(&in, 1, busy ? &tick : NULL, &old) > 0)
		rc = wget_wch(stdscr, wch);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int tui_get_key(struct tui *t, bool busy, struct tui_key *key, enum reaction *r)
{
	wint_t wch;
	int rc;

	*r = R_NONE;
	if (d.script) {
		if (busy)
			return 0;
		return script_next(t, key, r);
	}
	if (d.headless)
		return busy ? 0 : -1;
	rc = wait_key(busy, &wch);
	if (rc == ERR)
		return 0;
	*key = normal_key(rc, wch);
	return 1;
}

/* Text of screen line y with attributes as {BR}-style tokens when attrs. */
static void dump_line(int y, int cols, bool attrs, struct strbuf *out)
{
	char cur[16] = "";
	size_t keep = out->len;

	for (int x = 0; x < cols; x++) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t a;
		short pair;
		char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
		size_t n = 0;
		int w;

		if (mvwin_wch(stdscr, y, x, &cc) == ERR)
			break;
		if (getcchar(&cc, wch, &a, &pair, NULL) == ERR)
			break;
		if (attrs) {
			char tok[16];
			int k = 0;

			if (a & A_BOLD)
				tok[k++] = 'B';
			if (a & A_REVERSE)
				tok[k++] = 'R';
			if (a & A_UNDERLINE)
				tok[k++] = 'U';
			if (a & A_DIM)
				tok[k++] = 'D';
			tok[k] = '\0';
			if (pair)
				snprintf(tok + k, sizeof(tok) - (size_t)k, "c%d", pair);
			if (strcmp(tok, cur)) {
				strbuf_addf(out, "{%s}", *tok ? tok : "-");
				snprintf(cur, sizeof(cur), "%s", tok);
			}
		}
		for (size_t i = 0; wch[i] && i < CCHARW_MAX; i++) {
			mbstate_t st;
			size_t k;

			memset(&st, 0, sizeof(st));
			k = wcrtomb(mb + n, wch[i], &st);
			if (k != (size_t)-1)
				n += k;
		}
		if (!n)
			mb[n++] = ' ';
		strbuf_add(out, mb, n);
		w = wcwidth(wch[0]);
		if (w > 1)
			x += w - 1;
		if (out->buf[out->len - 1] != ' ')
			keep = out->len;
	}
	strbuf_setlen(out, keep);
	strbuf_addch(out, '\n');
}

static int save_screen(const char *path, bool attrs)
{
	struct strbuf sb = STRBUF_INIT;
	int lines, cols;
	FILE *f;

	getmaxyx(stdscr, lines, cols);
	for (int y = 0; y < lines; y++)
		dump_line(y, cols, attrs, &sb);
	f = fopen(path, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f)) {
		strbuf_release(&sb);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	strbuf_release(&sb);
	return 0;
}

static int save_view(struct tui *t, const char *path)
{
	struct view *v = tui_current(t);
	FILE *f = fopen(path, "w");

	if (!f)
		return error("cannot write '%s': %s", path, strerror(errno));
	fprintf(f, "view %s\nlines %zu\ncursor %zu\noffset %zu\n", v->ops->name,
		v->ops->lines(t, v), v->lineno, v->offset);
	if (v->ops->save)
		v->ops->save(t, v, f);
	if (fclose(f))
		return error("cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static enum reaction command_view(struct tui *t, const char *name)
{
	for (int i = 0; i < NR_VIEWS; i++) {
		if (i != VIEW_DETAIL && i != VIEW_TEST && !strcmp(name, t->views[i].ops->name))
			return tui_push(t, (enum view_id)i);
	}
	tui_message(t, true, "no view '%s'", name);
	return R_REDRAW;
}

/* A PR number, or a sha prefix of 4 hex digits or more. */
static bool names_change(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return s[n] == '\0' && (n >= 4 || (n && strspn(s, "0123456789") == n));
}

enum reaction tui_run_command(struct tui *t, const char *line)
{
	char *copy = xstrdup(line), *arg;
	enum reaction r = R_REDRAW;

	trim(copy);
	arg = copy + strcspn(copy, " \t");
	if (*arg)
		*arg++ = '\0';
	arg = trim(arg);
	if (!strcmp(copy, "save-display") && *arg) {
		tui_draw(t);
		if (save_screen(arg, false) < 0)
			tui_message(t, true, "cannot write '%s'", arg);
		r = R_NONE;
	} else if (!strcmp(copy, "save-attrs") && *arg) {
		tui_draw(t);
		if (save_screen(arg, true) < 0)
			tui_message(t, true, "cannot write '%s'", arg);
		r = R_NONE;
	} else if (!strcmp(copy, "save-view") && *arg) {
		if (save_view(t, arg) < 0)
			tui_message(t, true, "cannot write '%s'", arg);
		r = R_NONE;
	} else if (!strcmp(copy, "resize")) {
		int cols, lines;
		char end;

		if (sscanf(arg, "%dx%d%c", &cols, &lines, &end) != 2 || cols < 1 ||
		    lines < 1) {
			tui_message(t, true, "resize: expected COLSxLINES, e.g. 120x40");
		} else {
			tui_resize(t, lines, cols);
			r = R_RESIZE | R_REDRAW;
		}
	} else if (!strcmp(copy, "view") && *arg) {
		r = command_view(t, arg);
	} else if (!strcmp(copy, "quit")) {
		r = R_QUIT;
	} else if (*copy == '#' || names_change(copy)) {
		/* `:434`, `:#434`, `:8a1a282`: vi's go-to, for a change. */
		r = tui_jump(t, copy);
	} else if (!strcmp(copy, "die")) {
		/* For the tests of the terminal's restore on a fatal error. */
		die("%s", *arg ? arg : "fatal error requested");
	} else if (*copy) {
		tui_message(t, true, "unknown command '%s'", copy);
	}
	free(copy);
	return r;
}
