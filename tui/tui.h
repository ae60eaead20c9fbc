/*
 * The dashboard's shared parts (tig is the model): requests and their key
 * bindings in one X-macro table, the reactions handlers return, the view
 * interface, rows of cells that one drawer turns into screen lines, the
 * display (terminal, colours, script, dumps) and the session state.
 *
 * Ownership: struct tui owns its views, the figures and the rules; views own
 * their private state (freed by their .done). A struct row_data owns its
 * text; cells index into it. Every string a view puts in a cell is drawn
 * through sanitize_text() by tui_draw_row(): views never draw themselves.
 */
#ifndef TIADASH_TUI_TUI_H
#define TIADASH_TUI_TUI_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/config.h"
#include "core/output.h"
#include "core/query.h"
#include "core/rules.h"
#include "core/util.h"
#include "metrics/metrics.h"
#include "metrics/proposals.h"
#include "metrics/demote.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncursesw/curses.h>

/*
 * Every action of the dashboard: _(NAME, hint, help). `hint` (or NULL) is
 * the word the help line shows next to the key; `help` is the Help view's
 * and the man page's text. Keys are bound to these in tui/keys.c.
 */
#define REQ_INFO(_)                                                            \
	_(MOVE_DOWN, NULL, "Move the cursor down one line")                    \
	_(MOVE_UP, NULL, "Move the cursor up one line")                        \
	_(PAGE_DOWN, NULL, "Move the cursor down one page")                    \
	_(PAGE_UP, NULL, "Move the cursor up one page")                        \
	_(HALF_PAGE_DOWN, NULL, "Move the cursor down half a page")            \
	_(HALF_PAGE_UP, NULL, "Move the cursor up half a page")                \
	_(MOVE_FIRST, NULL, "Jump to the first line")                          \
	_(MOVE_LAST, NULL, "Jump to the last line")                            \
	_(ENTER, "open", "Go where the selected line points (drill in)")       \
	_(BACK, NULL, "Go back to the previous view")                          \
	_(QUIT, "back", "Go back to the previous view; quit from the overview")\
	_(QUIT_ALL, NULL, "Quit at once")                                      \
	_(NEXT_VIEW, "views", "Cycle through the main views")                  \
	_(PREV_VIEW, NULL, "Cycle backwards through the main views")           \
	_(VIEW_OVERVIEW, NULL, "Show the overview")                            \
	_(VIEW_RUNS, NULL, "Show the runs")                                    \
	_(VIEW_DISAGREE, NULL, "Show the disagreements")                       \
	_(VIEW_PROPOSALS, NULL, "Show the proposals")                          \
	_(VIEW_TESTS, NULL, "Show the tests' records; Enter opens a test's "  \
		      "history")                                               \
	_(HELP, "help", "Show the keys, the current view's first")             \
	_(FILTER, "filter", "Filter the list (runs, disagreements) or search " \
		  "the lines (other views) as you type, with a PCRE2 regular " \
		  "expression; the matches are highlighted")                   \
	_(FIND_NEXT, NULL, "Go to the next line that matches the filter or "   \
		     "search")                                                 \
	_(FIND_PREV, NULL, "Go to the previous line that matches")             \
	_(SCROLL_RIGHT, NULL, "Scroll the lines right by half a screen, to "   \
		       "the columns and the ends of ids that do not fit")      \
	_(SCROLL_LEFT, NULL, "Scroll the lines back left by half a screen")    \
	_(CLEAR, NULL, "Clear the filter or search; without one, close the "   \
		 "help, a detail or a preview")                                \
	_(JUMP, NULL, "Jump to a pull request or commit (434, #434, 8a1a282): "\
		"open its detail")                                             \
	_(COPY, NULL, "Copy the selected glob, test id or commit (OSC 52 "     \
		"where the terminal allows it, else printed on exit)")         \
	_(OPEN_COMMIT, NULL, "Open the selected commit in $TIADASH_PAGER, tig "\
		       "or git show")                                          \
	_(RELOAD, "reload", "Reload from the store and recompute the figures") \
	_(REDRAW, NULL, "Redraw the screen")                                   \
	_(PROMPT, NULL, "Run a command: a PR number or #PR (jump), "           \
		  "save-display FILE, save-view FILE, save-attrs FILE, "       \
		  "resize COLSxLINES, view NAME, quit")                        \
	_(SORT, "sort", "Sort by the next column (the header marks it with "   \
		"an arrow)")                                                   \
	_(SORT_REVERSE, NULL, "Reverse the sort order")                        \
	_(EDIT, "edit", "Edit the selected glob, with a live preview")         \
	_(ACCEPT, "accept", "Accept the selected glob: append it to the rules "\
		  "file")                                                      \
	_(EXPLAIN, "explain", "Explain the selected disagreement with a note " \
		   "kept in the store")                                        \
	_(EXPLAIN_EDITOR, NULL, "Explain it with a note written in $VISUAL or "\
			  "$EDITOR")                                           \
	_(UNDO, "undo", "Undo the last accept or explain")

enum request {
	REQ_NONE,
#define REQ_ENUM_(name, hint, help) REQ_##name,
	REQ_INFO(REQ_ENUM_)
#undef REQ_ENUM_
	NR_REQUESTS
};

/* Request names ("move-down"), hints and help texts, from REQ_INFO. */
const char *tui_request_name(enum request r);
const char *tui_request_hint(enum request r);
const char *tui_request_help(enum request r);

/* Keymaps: the generic one applies in every view, below the view's own. */
#define KEYMAP_INFO(_)                                                         \
	_(GENERIC, "generic")                                                  \
	_(OVERVIEW, "overview")                                                \
	_(RUNS, "runs")                                                        \
	_(DISAGREE, "disagreements")                                           \
	_(DETAIL, "detail")                                                    \
	_(PROPOSALS, "proposals")                                              \
	_(TESTS, "tests")                                                      \
	_(HELP, "help")

enum keymap {
#define KEYMAP_ENUM_(name, str) KEYMAP_##name,
	KEYMAP_INFO(KEYMAP_ENUM_)
#undef KEYMAP_ENUM_
	NR_KEYMAPS
};
const char *tui_keymap_name(enum keymap m);

/*
 * A key: a curses KEY_* code (fn) or a Unicode code point (controls too).
 * A mouse event is KEY_MOUSE with its kind and the screen cell (0-based).
 */
enum tui_mouse {
	MOUSE_NONE,
	MOUSE_CLICK,
	MOUSE_DOUBLE_CLICK,
	MOUSE_WHEEL_UP,
	MOUSE_WHEEL_DOWN,
};
struct tui_key {
	int code;
	bool fn;
	enum tui_mouse mouse;
	int x, y;
};

struct tui_binding {
	enum keymap map;
	struct tui_key key;
	enum request req;
};
/* The default bindings, in the order Help and the man page list them. */
extern const struct tui_binding tui_bindings[];
extern const size_t tui_bindings_nr;

/* The request key is bound to in map (falling back to generic), or REQ_NONE. */
enum request tui_key_request(enum keymap map, struct tui_key key);
/* Append a key's name: "j", "<Down>", "<C-l>", "<Tab>", "<F5>". */
void tui_key_name(struct strbuf *sb, struct tui_key key);
/*
 * Parse one key at s ("<Down>", "<lt>", "<F1>", one UTF-8 character, or a
 * mouse event "<Click X Y>", "<DoubleClick X Y>", "<WheelUp X Y>",
 * "<WheelDown X Y>" at screen column X and line Y, both from 0). Returns
 * the bytes consumed, 0 when s holds no valid key.
 */
size_t tui_key_parse(const char *s, struct tui_key *out);
/* Append the keys bound to req in map: "j, <Down>". */
void tui_keys_of(struct strbuf *sb, enum keymap map, enum request req);
/* Is binding i the first of its request in its keymap (one line per request)? */
bool tui_binding_is_first(size_t i);
/* Print the key table as text (for people) or roff (the man page part). */
void tui_keys_print(FILE *f, bool roff);

/* What a handler changed; the loop alone reloads, lays out and draws. */
enum reaction {
	R_NONE = 0,
	R_REDRAW = 1,
	R_RELOAD = 2,
	R_RESIZE = 4,
	R_QUIT = 8,
	R_UNHANDLED = 16,
};

/* Semantic colours: _(NAME, foreground, background, monochrome attribute). */
#define ROLE_INFO(_)                                                           \
	_(DEFAULT, -1, -1, A_NORMAL)                                           \
	_(HEADER, COLOR_YELLOW, -1, A_BOLD)                                    \
	_(STATUS, COLOR_WHITE, COLOR_BLUE, A_REVERSE)                          \
	_(CURSOR, COLOR_BLACK, COLOR_CYAN, A_REVERSE)                          \
	_(HELP, COLOR_CYAN, -1, A_NORMAL)                                      \
	_(LABEL, COLOR_CYAN, -1, A_BOLD)                                       \
	_(GOOD, COLOR_GREEN, -1, A_NORMAL)                                     \
	_(BAD, COLOR_RED, -1, A_BOLD)                                          \
	_(WARN, COLOR_YELLOW, -1, A_NORMAL)                                    \
	_(DIM, COLOR_BLUE, -1, A_NORMAL)                                       \
	_(SPARK, COLOR_MAGENTA, -1, A_NORMAL)                                  \
	_(ERROR, COLOR_RED, -1, A_BOLD)                                        \
	_(MATCH, COLOR_BLACK, COLOR_YELLOW, A_UNDERLINE | A_BOLD)              \
	_(TAB, COLOR_WHITE, COLOR_BLUE, A_NORMAL)                              \
	_(TAB_CURRENT, COLOR_BLACK, COLOR_CYAN, A_REVERSE | A_BOLD)

enum tui_role {
#define ROLE_ENUM_(name, fg, bg, mono) ROLE_##name,
	ROLE_INFO(ROLE_ENUM_)
#undef ROLE_ENUM_
	NR_ROLES
};

/* One line of a view: cells of text, each with a width and a role. */
#define ROW_MAX_CELLS 16
struct cell {
	size_t off;     /* into row_data.text */
	int width;      /* columns; 0: the rest of the line */
	bool right;     /* right-aligned */
	enum tui_role role;
};
struct row_data {
	struct strbuf text; /* the cells' texts, NUL-separated */
	struct cell cells[ROW_MAX_CELLS];
	size_t nr;
	enum tui_role role; /* the whole line's role (ROLE_DEFAULT: per cell) */
};
#define ROW_DATA_INIT { STRBUF_INIT, { { 0, 0, false, ROLE_DEFAULT } }, 0, ROLE_DEFAULT }
void row_reset(struct row_data *r);
void row_release(struct row_data *r);
/* Add a cell (width 0: the rest of the line; negative: right-aligned). */
void row_add(struct row_data *r, int width, enum tui_role role, const char *fmt, ...)
	ATTR_FORMAT(4, 5);
/* Add a cell holding s as is (an untrusted string: sanitized when drawn). */
void row_add_str(struct row_data *r, int width, enum tui_role role, const char *s);
/* The row's text with the cells joined by single spaces (filters match this). */
void row_text(const struct row_data *r, struct strbuf *out);
/* Copy src over dst (dst's storage is reused). */
void row_copy(struct row_data *dst, const struct row_data *src);

/* A list of rows built once (text views: overview, detail, help). */
struct row_list {
	struct row_data *rows;
	size_t nr, alloc;
};
#define ROW_LIST_INIT { NULL, 0, 0 }
/* A new empty row at the end of the list (valid until the next add). */
struct row_data *row_list_add(struct row_list *l);
void row_list_clear(struct row_list *l);
void row_list_release(struct row_list *l);
/* Write every row's text to f (for :save-view). */
void row_list_save(const struct row_list *l, FILE *f);

struct tui;
struct view;

/* A compiled PCRE2 pattern (tui/search.c): filters, searches, highlights. */
struct tui_regex;
/* NULL with the reason in err ("missing ) at offset 3") when it does not compile. */
struct tui_regex *tui_regex_compile(const char *pattern, struct strbuf *err);
void tui_regex_free(struct tui_regex *re);
bool tui_regex_match(struct tui_regex *re, const char *s, size_t len);
/* The first match at or after off: true with its bytes [*start, *end). */
bool tui_regex_find(struct tui_regex *re, const char *s, size_t len, size_t off,
		    size_t *start, size_t *end);

/*
 * One view: a const table of functions (STYLE pattern 1). A view is a list
 * of lines; the loop moves the cursor, asks row_data for each visible line
 * and draws it. Functions other than name/title/keymap/row_data are optional.
 */
struct view_ops {
	const char *name;  /* "runs": for `:view NAME` and save-view */
	const char *title; /* "Runs" */
	enum keymap keymap;
	bool header;       /* row_data(SIZE_MAX) is a column header line */
	/* Set up private state (v->priv); -1 after error(). */
	int (*open)(struct tui *t, struct view *v);
	/* The store or the figures changed: reload what the view shows. */
	void (*reload)(struct tui *t, struct view *v);
	/* Lines in the view (may grow while a job runs). */
	size_t (*lines)(struct tui *t, struct view *v);
	/* Fill row for line lineno; a header line is asked with lineno SIZE_MAX. */
	void (*row_data)(struct tui *t, struct view *v, size_t lineno, struct row_data *row);
	/* A request the view handles itself; R_UNHANDLED when it does not. */
	enum reaction (*request)(struct tui *t, struct view *v, enum request req);
	/* The status line's left part ("sort: date, filter: /x/"). */
	void (*status)(struct tui *t, struct view *v, struct strbuf *sb);
	/* Background work step; true while more is pending (redraw after). */
	bool (*step)(struct tui *t, struct view *v);
	/* :save-view: the model, one fact per line. */
	void (*save)(struct tui *t, struct view *v, FILE *f);
	void (*done)(struct view *v);
	/*
	 * A list view hides the lines the pattern does not match (NULL: show
	 * every line again; the pattern compiles). Views without it are
	 * searched instead: the cursor goes to the matching lines.
	 */
	void (*filter)(struct tui *t, struct view *v, const char *pattern);
	/* Sort by the column named (an Enter elsewhere points here sorted). */
	void (*sort)(struct tui *t, struct view *v, const char *column, bool desc);
	/* A click at column x of the header line. */
	enum reaction (*click_header)(struct tui *t, struct view *v, int x);
	/* The change (head) the selected line is about: false when none. */
	bool (*selected_head)(struct tui *t, struct view *v, int64_t *head_id);
	/* What `y` copies from the selected line (a glob, a test id): false for its head's sha. */
	bool (*copy_text)(struct tui *t, struct view *v, struct strbuf *out);
};

/* A view's `/` pattern: it filters (views with .filter) or searches. */
struct view_search {
	char *pattern;            /* NULL: none */
	struct tui_regex *re;
	/* When the prompt opened: the pattern (shown again while the text is
	 * empty) and the cursor (where a search that matches nothing goes back). */
	char *from_pattern;
	size_t from_lineno, from_offset;
};

struct view {
	const struct view_ops *ops;
	void *priv;
	size_t offset, lineno; /* first visible line, cursor line */
	int xoffset;           /* columns scrolled right (< and >) */
	bool opened;
	struct view_search search;
};

/* The main views that Tab cycles, then the drill-in views. */
enum view_id {
	VIEW_OVERVIEW,
	VIEW_RUNS,
	VIEW_DISAGREE,
	VIEW_PROPOSALS,
	NR_MAIN_VIEWS,
	VIEW_DETAIL = NR_MAIN_VIEWS,
	VIEW_HELP,
	VIEW_TESTS,
	VIEW_TEST,
	NR_VIEWS
};

extern const struct view_ops overview_view_ops, runs_view_ops,
	disagree_view_ops, proposals_view_ops, detail_view_ops, help_view_ops,
	tests_view_ops, test_view_ops;

/*
 * The figures and the proposals, computed on a worker thread with its own
 * store connection (metrics_compute over 10^5 pairs takes most of a second;
 * the first frame must not wait for it). The main thread reads m, gate and
 * props only while no worker runs, and swaps in a worker's results whole.
 */
struct tui_figures {
	pthread_t thread;
	bool running;            /* a worker was started and not joined yet */
	bool ready;              /* m and gate hold the window's figures */
	bool rows_ready;         /* m holds its rows too (not kept figures alone) */
	bool rows_wanted;        /* a view reads the rows (tui_figures_rows) */
	bool rows_failed;        /* computing them failed (until the next reload) */
	int64_t generation;      /* bumped when new figures arrive */
	struct metrics m;
	struct metrics_gate gate;
	bool props_wanted;       /* the proposals view was opened */
	bool props_ready;
	int64_t props_generation;
	struct proposals props;  /* borrows props_rules (previews) */
	struct proposals_rules props_rules;
	struct demote demote;    /* the rules in effect ranked, on the record only */
	struct tui_job *job;     /* the running worker's job */
};

struct tui_opts {
	struct window window;
	struct strlist rules_files; /* --rules, in order */
	long max_frames;            /* --max-frames N: quit after N frames (0: no limit) */
	enum color_when color;      /* --color[=WHEN]: never is monochrome (bold, reverse) */
	int green_days;             /* --green N: the tests view's green window (0: default) */
};

/* A one-line text prompt on the last line (filter, note, glob, command). */
typedef enum reaction (*prompt_fn)(struct tui *t, const char *text, bool done);
struct tui_prompt {
	bool active;
	const char *label;    /* "/", "note: ", ":" */
	struct strbuf text;
	prompt_fn fn;         /* called with done=false on each edit (live preview) */
};

struct tui {
	struct cmd_context *ctx;
	struct store *store;     /* the main thread's connection */
	struct tui_opts opts;
	struct config cfg;       /* the store's config: the id-map */
	struct proposals_rules rules;    /* the current rules, built-ins last (tui_rules) */
	bool rules_loaded;
	int64_t heads;           /* heads in the window (cheap count) */
	struct tui_figures fig;

	struct view views[NR_VIEWS];
	enum view_id stack[8];
	size_t depth;
	int64_t detail_head;     /* the head the detail view shows */

	int lines, cols;         /* the screen size */
	struct strbuf message;   /* the help line's message, until the next key */
	bool message_error;
	struct tui_prompt prompt;
	long frames;
	int ignored_errors;      /* error() calls of cancelled workers */
	enum keymap help_first;  /* the keymap the help view lists first */
	struct strlist copied;   /* `y` without OSC 52: printed on exit */
};

/* The view on top of the stack. */
struct view *tui_current(struct tui *t);
/* Run a request in the current view (the view's handler, else the generic one). */
enum reaction tui_request(struct tui *t, enum request req);
/* Open the detail of a PR number ("434", "#434") or commit (a sha prefix). */
enum reaction tui_jump(struct tui *t, const char *what);
/* Push a view (open it first if needed); the detail view for head_id. */
enum reaction tui_push(struct tui *t, enum view_id id);
enum reaction tui_open_detail(struct tui *t, int64_t head_id);
/*
 * Where a line points: push view id with the `/` pattern filter (NULL:
 * none, as after Esc) and, for a view that sorts, the sort column (NULL:
 * leave it). The cursor starts on the first line.
 */
enum reaction tui_goto(struct tui *t, enum view_id id, const char *filter,
		       const char *sort, bool desc);
/* Set (NULL: clear) view v's `/` pattern, which compiles. */
void tui_set_search(struct tui *t, struct view *v, const char *pattern);
/* The `/` pattern in a way a regex cannot misread: \Qtext\E. Caller frees. */
char *tui_literal_pattern(const char *text);
/* A message on the help line until the next key; error ones in ROLE_ERROR. */
void tui_message(struct tui *t, bool is_error, const char *fmt, ...) ATTR_FORMAT(3, 4);
/* Start a prompt; fn sees every edit and the final text (done). */
void tui_prompt_start(struct tui *t, const char *label, const char *initial, prompt_fn fn);
/* Restart the figures' computation (cancelling a running one). */
void tui_figures_start(struct tui *t);
/*
 * The rows of the figures (metrics.rows, the escapes' evidence), which kept
 * figures (metrics/figcache.h) do not have: true when m has them; else
 * they are computed (wait: block for them). Every view that reads them
 * asks first; from then on the figures are computed with their rows.
 */
bool tui_figures_rows(struct tui *t, bool wait);
/* Ask for the proposals too (computed after the figures). */
void tui_proposals_want(struct tui *t);
/* Take a finished worker's results (wait: block for it); true if any arrived. */
bool tui_figures_poll(struct tui *t, bool wait);
/* Body lines available to views (screen minus status and help lines). */
int tui_body_lines(const struct tui *t);
/* Re-read the --rules files (after an accept); -1 after error(). */
int tui_load_rules(struct tui *t);
/*
 * The rules, read at the first need when no --rules was given: finding the
 * repository's own rule files starts libgit2, which the figures do not need.
 * A failure is said in the message line, and there are no rules then.
 */
const struct proposals_rules *tui_rules(struct tui *t);

/* Display (tui/display.c). */
int tui_display_init(struct tui *t);
/* End curses, put stderr back and replay what was written to it. Idempotent. */
void tui_display_done(void);
/* attr for a role, decided once by tui_display_init (colour or monochrome). */
attr_t tui_role_attr(enum tui_role role);
bool tui_use_color(void);
/* Keys from a script or from nowhere (TIADASH_SCRIPT, TIADASH_NO_DISPLAY)? */
bool tui_scripted(void);
/*
 * The next input. Returns 1 with a key, 0 after running a script command or
 * on a timeout (nothing to do), -1 at the end of the script (quit). While
 * busy the terminal is polled (timeout); scripts only go on when idle.
 */
int tui_get_key(struct tui *t, bool busy, struct tui_key *key, enum reaction *r);
/* Headless (TIADASH_NO_DISPLAY): no terminal, nothing is really drawn. */
bool tui_headless(void);
/* The real stderr while curses is up (stderr itself is parked). */
int tui_real_stderr(void);
/* Give the terminal to another program, and take it back. */
void tui_display_suspend(void);
void tui_display_resume(void);
/* Write s to the terminal as is (an escape sequence); -1 when it cannot. */
int tui_terminal_write(const char *s);
/* Run one `:command` line; the reaction to apply. */
enum reaction tui_run_command(struct tui *t, const char *line);
/* A pending signal (SIGINT, SIGTERM): 0 when none. */
int tui_pending_signal(void);
/* Block SIGINT, SIGTERM, SIGHUP in this thread and those it starts; old: the mask before. */
void tui_block_signals(sigset_t *old);
/* Resize to lines x cols (the :resize command and KEY_RESIZE). */
void tui_resize(struct tui *t, int lines, int cols);

/* Drawing (tui/draw.c). */
void tui_draw(struct tui *t);
/*
 * Draw a row at screen line y across the full width (selected: cursor),
 * what hl matches highlighted (hl may be NULL).
 */
void tui_draw_row(int y, int width, const struct row_data *row, bool selected,
		  struct tui_regex *hl);
/* The screen line of a view's first list line (below the tab bar and header). */
int tui_list_top(const struct tui *t, const struct view *v);
/* The main view whose tab is at column x of the tab bar, else NR_VIEWS. */
enum view_id tui_tab_at(struct tui *t, int x);
/* The request whose hint is at column x of the help line, else REQ_NONE. */
enum request tui_hint_at(struct tui *t, int x);
/* Display width of a UTF-8 string (after sanitizing, as it will be drawn). */
int tui_text_width(const char *s);

/* Formatting helpers shared by the views. */
void tui_fmt_time(struct strbuf *sb, int64_t ms);   /* 2026-11-03 10:13 */
void tui_fmt_short_time(struct strbuf *sb, int64_t ms); /* 11-03 10:13 */
enum tui_role tui_class_role(enum pair_class c);
/* A sparkline of n values (NAN: a gap) scaled from 0 to the maximum. */
void tui_sparkline(struct strbuf *sb, const double *v, size_t n);

/* One head with all its runs, by id: 0, 1 when it is gone, -1 after error(). */
int tui_load_pair(struct tui *t, int64_t head_id, struct pair_info *out);

/* The proposals view's preview of glob (an Enter on a changed path). */
enum reaction tui_proposals_preview(struct tui *t, const char *glob);

/* The history of test id (the tests view's Enter). */
enum reaction tui_open_test(struct tui *t, const char *id);

/* Detail view: the row the runs and disagreement views open. */
int tui_detail_set(struct tui *t, int64_t head_id);

/*
 * Explain a disagreement with a note (the prompt, or $VISUAL/$EDITOR when
 * editor), and undo: the same in every view (tui/propose.c).
 */
enum reaction tui_explain(struct tui *t, int64_t head_id, bool editor);
enum reaction tui_proposals_undo(struct tui *t);
void tui_undo_release(void);

/*
 * The one state model of a disagreement (SPEC 6), as metrics/proposals.h
 * computes it: an escape is new (a glob can close it), unclosable,
 * closed-by-rules (why: the rule) or explained (a note); the other
 * disagreements are new or explained. False while the proposals are
 * computed, and for agreeing pairs.
 */
bool tui_pair_state(struct tui *t, int64_t head_id, enum pair_class cls, bool explained,
		    enum proposal_state *state, const char **why);

/* Outside the dashboard (tui/external.c): copy with OSC 52, the commit in a pager. */
enum reaction tui_copy(struct tui *t, const char *text);
enum reaction tui_open_commit(struct tui *t, const char *sha);
/*
 * Let the user write a text in $VISUAL, else $EDITOR, else vi, starting
 * from template ('#' lines are dropped from what comes back). 0 with the
 * text (trimmed; may be empty), -1 after a message.
 */
int tui_edit_text(struct tui *t, const char *template, struct strbuf *out);
/* Print what `y` could not put on the clipboard (after curses ended). */
void tui_print_copied(struct tui *t);

#endif
