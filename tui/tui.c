/* `tiadash tui`: the command, the main loop (keys -> requests -> reactions -> draw),
 * the view stack, and the figures computed on a worker so the first frame never waits. */
#include "core/tiadash.h"
#include "core/commands.h"
#include "core/options.h"
#include "core/rekey.h"
#include "core/store.h"
#include "metrics/common.h"
#include "metrics/testrec.h"
#include "tui/tui.h"

#include <locale.h>
#include <signal.h>
#include <unistd.h>

static const struct view_ops *const view_table[NR_VIEWS] = {
	[VIEW_OVERVIEW] = &overview_view_ops,
	[VIEW_RUNS] = &runs_view_ops,
	[VIEW_DISAGREE] = &disagree_view_ops,
	[VIEW_PROPOSALS] = &proposals_view_ops,
	[VIEW_DETAIL] = &detail_view_ops,
	[VIEW_HELP] = &help_view_ops,
	[VIEW_TESTS] = &tests_view_ops,
	[VIEW_TEST] = &test_view_ops,
};

struct view *tui_current(struct tui *t)
{
	return &t->views[t->stack[t->depth - 1]];
}

void tui_message(struct tui *t, bool is_error, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&t->message);
	va_start(ap, fmt);
	strbuf_vaddf(&t->message, fmt, ap);
	va_end(ap);
	t->message_error = is_error;
}

static int open_view(struct tui *t, enum view_id id)
{
	struct view *v = &t->views[id];

	if (v->opened)
		return 0;
	v->opened = true;
	if (v->ops->open && v->ops->open(t, v) < 0) {
		v->opened = false;
		return -1;
	}
	return 0;
}

/* Push id on top of the stack as it is (q comes back here). */
static void stack_push(struct tui *t, enum view_id id)
{
	if (t->stack[t->depth - 1] == id)
		return;
	if (t->depth == ARRAY_SIZE(t->stack)) {
		memmove(t->stack + 1, t->stack + 2, sizeof(t->stack) - 2 * sizeof(t->stack[0]));
		t->depth--;
	}
	t->stack[t->depth++] = id;
}

enum reaction tui_push(struct tui *t, enum view_id id)
{
	if (open_view(t, id) < 0) {
		tui_message(t, true, "cannot open the %s view", view_table[id]->name);
		return R_REDRAW;
	}
	if (id < NR_MAIN_VIEWS) {
		t->depth = 1;
		if (id != VIEW_OVERVIEW)
			t->stack[t->depth++] = id;
	} else {
		stack_push(t, id);
	}
	return R_REDRAW;
}

enum reaction tui_open_detail(struct tui *t, int64_t head_id)
{
	if (open_view(t, VIEW_DETAIL) < 0 || tui_detail_set(t, head_id) < 0) {
		tui_message(t, true, "cannot read that change from the store");
		return R_REDRAW;
	}
	t->views[VIEW_DETAIL].lineno = t->views[VIEW_DETAIL].offset = 0;
	return tui_push(t, VIEW_DETAIL);
}


int tui_load_pair(struct tui *t, int64_t head_id, struct pair_info *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = query_pairs_by_ids(t->store, &head_id, 1, pair_info_take_first, out);
	return rc == 1 ? 0 : rc < 0 ? -1 : 1;
}

/* The main view under the top of the stack (what Tab cycles from). */
static enum view_id current_main(const struct tui *t)
{
	for (size_t i = t->depth; i-- > 0;)
		if (t->stack[i] < NR_MAIN_VIEWS)
			return t->stack[i];
	return VIEW_OVERVIEW;
}

/* The figures and proposals, on a worker thread. */

struct tui_job {
	struct tui_figures *f;
	const char *db_path;
	const char *repo_path;
	struct repo_later *repo;
	int64_t now;
	struct window w;
	const struct strlist *rules_files;
	bool do_metrics, do_props;
	bool kept_first;   /* the figures kept, when fresh, before computing them */
	bool kept;         /* m holds kept figures: no rows */
	bool rows;         /* the rows behind kept figures (start_rows) */
	bool threaded;
	atomic_bool cancel, finished;
	int rc;
	struct metrics m;
	struct proposals props;
	struct proposals_rules props_rules;
	struct demote demote;
};

static int job_props(struct tui_job *j, struct cmd_context *wctx)
{
	struct config cfg = CONFIG_INIT;
	struct proposals_opts opts = PROPOSALS_OPTS_INIT;
	struct repo *repo;
	int ret;

	if (config_load(&cfg, j->db_path) < 0 ||
	    proposals_rules_load(&j->props_rules, j->rules_files, j->repo_path, true, true) < 0) {
		config_release(&cfg);
		return -1;
	}
	opts.idmap = cfg.idmap;
	repo = cmd_repo(wctx);
	opts.evidence = repo != NULL;
	ret = proposals_compute(wctx->store, repo, &j->props_rules, &j->w, &opts,
				&j->props);
	if (!ret && repo) {
		struct demote_opts d = { j->w.since, j->w.until, 0.95, cfg.idmap, NULL };

		ret = demote_compute(repo, wctx->store, &j->props_rules.set.effect, &d,
				     &j->demote);
	}
	config_release(&cfg);
	return ret;
}

static void *worker(void *data)
{
	struct tui_job *j = data;
	/* The repository for the verifier check; now for the trend of an open window. */
	struct cmd_context wctx = { .db_path = j->db_path, .repo_later = j->repo, .now = j->now };

	j->rc = -1;
	/* Its own connection: SQLite connections are not shared between threads. */
	if (store_open(&wctx.store, j->db_path, STORE_EXISTING) == 0) {
		store_set_cancel(wctx.store, &j->cancel);
		j->rc = 0;
		if (j->do_metrics && j->kept_first) {
			j->rc = metrics_load_kept(&wctx, &j->w, METRICS_DEFAULT_THRESHOLD, &j->m);
			j->kept = j->rc == 0;
			if (j->rc > 0)
				j->rc = 0;
		}
		if (j->do_metrics && !j->kept && !j->rc)
			j->rc = metrics_load(&wctx, &j->w, METRICS_DEFAULT_THRESHOLD, &j->m);
		if (!j->rc && j->do_props && !atomic_load(&j->cancel))
			j->rc = job_props(j, &wctx);
		store_close(wctx.store);
	}
	atomic_store(&j->finished, true);
	return NULL;
}

static void job_free(struct tui_job *j)
{
	metrics_release(&j->m);
	proposals_release(&j->props);
	proposals_rules_release(&j->props_rules);
	demote_release(&j->demote);
	free(j);
}

/*
 * Errors the dashboard shows itself (a cancelled worker's, an ambiguous
 * jump's) are not the session's: what they printed to the parked stderr
 * goes, and they do not make the exit status.
 */
struct quiet {
	off_t mark;
	int errors;
};

static struct quiet quiet_begin(void)
{
	struct quiet q;

	fflush(stderr);
	q.mark = lseek(STDERR_FILENO, 0, SEEK_END);
	q.errors = error_count();
	return q;
}

static void quiet_end(struct tui *t, struct quiet q)
{
	fflush(stderr);
	t->ignored_errors += error_count() - q.errors;
	if (q.mark >= 0 && ftruncate(STDERR_FILENO, q.mark) == 0)
		lseek(STDERR_FILENO, q.mark, SEEK_SET);
}

/* Stop a running worker; what it printed while being cancelled goes. */
static void figures_cancel(struct tui *t)
{
	struct tui_figures *f = &t->fig;
	struct quiet q;

	if (!f->running)
		return;
	q = quiet_begin();
	atomic_store(&f->job->cancel, true);
	if (f->job->threaded)
		pthread_join(f->thread, NULL);
	f->running = false;
	job_free(f->job);
	f->job = NULL;
	quiet_end(t, q);
}

static void start_job(struct tui *t, bool do_metrics, bool do_props, bool kept_first)
{
	struct tui_figures *f = &t->fig;
	struct tui_job *j = xcalloc(1, sizeof(*j));
	sigset_t old;

	figures_cancel(t);
	j->f = f;
	j->db_path = t->ctx->db_path;
	j->repo_path = t->ctx->repo_path;
	j->repo = t->ctx->repo_later;
	j->now = t->ctx->now;
	j->w = t->opts.window;
	j->rules_files = &t->opts.rules_files;
	j->do_metrics = do_metrics;
	j->do_props = do_props;
	j->kept_first = do_metrics && kept_first;
	f->job = j;
	f->running = true;
	/* The quit signals go to the loop's thread, never to a worker (nor its threads). */
	tui_block_signals(&old);
	j->threaded = !pthread_create(&f->thread, NULL, worker, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!j->threaded)
		worker(j); /* no thread: the first frame waits */
}

void tui_figures_start(struct tui *t)
{
	/* The kept figures at once, unless a view wants the rows anyway. */
	t->fig.rows_failed = false;
	start_job(t, true, t->fig.props_wanted, !t->fig.rows_wanted);
}

/* The rows behind kept figures, computed (and the figures with them). */
static void start_rows(struct tui *t)
{
	/* Not the proposals: they were asked for apart (and may have failed). */
	start_job(t, true, false, false);
	t->fig.job->rows = true;
}

bool tui_figures_rows(struct tui *t, bool wait)
{
	struct tui_figures *f = &t->fig;

	f->rows_wanted = true;
	/* Once per figures: a failed computation is said once, not again each frame. */
	if (!f->running && f->ready && !f->rows_ready && !f->rows_failed)
		start_rows(t);
	while (wait && f->running && !(f->ready && f->rows_ready))
		tui_figures_poll(t, true);
	return f->ready && f->rows_ready;
}

void tui_proposals_want(struct tui *t)
{
	struct tui_figures *f = &t->fig;

	if (f->props_wanted)
		return;
	f->props_wanted = true;
	if (f->running) {
		bool rows = f->job->rows;

		start_job(t, f->job->do_metrics, true, f->job->kept_first);
		f->job->rows = rows;
	} else {
		start_job(t, false, true, false);
	}
}

bool tui_figures_poll(struct tui *t, bool wait)
{
	static const struct metrics_criteria criteria = METRICS_CRITERIA_INIT;
	struct tui_figures *f = &t->fig;
	struct tui_job *j = f->job;

	if (!f->running || (!wait && !atomic_load(&j->finished)))
		return false;
	if (j->threaded)
		pthread_join(f->thread, NULL);
	f->running = false;
	f->job = NULL;
	if (j->rc == 0) {
		if (j->do_metrics) {
			metrics_release(&f->m);
			f->m = j->m;
			memset(&j->m, 0, sizeof(j->m));
			metrics_gate_check(&f->m, &criteria, &f->gate);
			f->ready = true;
			f->rows_ready = !j->kept;
			f->generation++;
		}
		if (j->do_props) {
			proposals_release(&f->props);
			proposals_rules_release(&f->props_rules);
			f->props = j->props;
			f->props_rules = j->props_rules;
			demote_release(&f->demote);
			f->demote = j->demote;
			memset(&j->demote, 0, sizeof(j->demote));
			memset(&j->props, 0, sizeof(j->props));
			memset(&j->props_rules, 0, sizeof(j->props_rules));
			f->props_ready = true;
			f->props_generation++;
		}
	} else {
		f->rows_failed |= j->rows;
		tui_message(t, true, "cannot compute the figures (the reason is "
			    "printed when the dashboard closes)");
	}
	/*
	 * Kept figures have no rows: computed now when a view wants them, or
	 * ahead of one on a terminal (a script waits only for what it opens).
	 */
	if (j->rc == 0 && j->kept && (f->rows_wanted || !tui_scripted()))
		start_rows(t);
	job_free(j);
	return true;
}

int tui_load_rules(struct tui *t)
{
	struct proposals_rules all;

	if (proposals_rules_load(&all, &t->opts.rules_files, t->ctx->repo_path, true, true) < 0) {
		proposals_rules_release(&all);
		return -1;
	}
	proposals_rules_release(&t->rules);
	t->rules = all;
	t->rules_loaded = true;
	return 0;
}

const struct proposals_rules *tui_rules(struct tui *t)
{
	if (!t->rules_loaded && tui_load_rules(t) < 0) {
		/* None then, said once (not at every frame). */
		t->rules_loaded = true;
		proposals_rules_release(&t->rules);
		if (rules_compile(&t->rules.set.effect) < 0 ||
		    rules_compile(&t->rules.set.builtin) < 0)
			BUG("an empty rule set does not compile");
		tui_message(t, true, "cannot read the rules (see the messages after quitting)");
	}
	return &t->rules;
}

static void reload(struct tui *t)
{
	figures_cancel(t);
	if (query_window_count(t->store, &t->opts.window, &t->heads) < 0)
		tui_message(t, true, "cannot read the store");
	if (tui_load_rules(t) < 0)
		tui_message(t, true, "cannot read the rules (see the messages after quitting)");
	tui_figures_start(t);
	for (int i = 0; i < NR_VIEWS; i++)
		if (t->views[i].opened && t->views[i].ops->reload)
			t->views[i].ops->reload(t, &t->views[i]);
}

/* The prompt line: edits, live preview, Enter, Esc. */

void tui_prompt_start(struct tui *t, const char *label, const char *initial, prompt_fn fn)
{
	strbuf_reset(&t->message);
	t->prompt.active = true;
	t->prompt.label = label;
	t->prompt.fn = fn;
	strbuf_reset(&t->prompt.text);
	strbuf_addstr(&t->prompt.text, initial ? initial : "");
}

static void utf8_put(struct strbuf *sb, int cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xc0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xe0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else {
		strbuf_addch(sb, 0xf0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3f));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	}
}

static enum reaction prompt_key(struct tui *t, struct tui_key key)
{
	struct tui_prompt *p = &t->prompt;
	prompt_fn fn = p->fn;
	enum reaction r = R_REDRAW;

	if (!key.fn && key.code == '\n') {
		p->active = false;
		r |= fn(t, p->text.buf, true);
		return r;
	}
	if (!key.fn && key.code == 27) {
		p->active = false;
		return r | fn(t, NULL, true);
	}
	if (key.fn && key.code == KEY_BACKSPACE) {
		size_t n = p->text.len;

		/* Back over one whole UTF-8 sequence. */
		while (n > 0 && ((unsigned char)p->text.buf[n - 1] & 0xc0) == 0x80)
			n--;
		if (n > 0)
			n--;
		strbuf_setlen(&p->text, n);
	} else if (!key.fn && key.code == ('u' & 0x1f)) {
		strbuf_reset(&p->text);
	} else if (!key.fn && key.code >= 0x20 && key.code != 0x7f) {
		utf8_put(&p->text, key.code);
	} else {
		return r;
	}
	return r | fn(t, p->text.buf, false);
}

static enum reaction command_prompt(struct tui *t, const char *text, bool done)
{
	if (!done || !text)
		return R_NONE;
	return tui_run_command(t, text);
}

/* Searches and filters: `/`, n, N, Esc. */

char *tui_literal_pattern(const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	/* \Q...\E quotes all but "\E" itself, which is spliced in escaped. */
	strbuf_addstr(&sb, "\\Q");
	for (const char *p = text; *p; p++) {
		if (p[0] == '\\' && p[1] == 'E') {
			strbuf_addstr(&sb, "\\E\\\\E\\Q");
			p++;
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	strbuf_addstr(&sb, "\\E");
	return strbuf_detach(&sb, NULL);
}

void tui_set_search(struct tui *t, struct view *v, const char *pattern)
{
	struct view_search *s = &v->search;

	free(s->pattern);
	tui_regex_free(s->re);
	s->pattern = NULL;
	s->re = NULL;
	if (pattern && *pattern) {
		struct strbuf err = STRBUF_INIT;

		s->re = tui_regex_compile(pattern, &err);
		if (s->re)
			s->pattern = xstrdup(pattern);
		strbuf_release(&err);
	}
	if (v->ops->filter)
		v->ops->filter(t, v, s->pattern);
}

static bool line_matches(struct tui *t, struct view *v, size_t line, struct row_data *row,
			 struct strbuf *text)
{
	row_reset(row);
	strbuf_reset(text);
	v->ops->row_data(t, v, line, row);
	row_text(row, text);
	return tui_regex_match(v->search.re, text->buf, text->len);
}

/*
 * The first line from `from` on (backwards when back) that the search
 * matches, going round the end; SIZE_MAX when none does.
 */
static size_t find_match(struct tui *t, struct view *v, size_t from, bool back)
{
	size_t nr = v->ops->lines(t, v), found = SIZE_MAX;
	struct row_data row = ROW_DATA_INIT;
	struct strbuf text = STRBUF_INIT;

	for (size_t k = 0; nr && k < nr && v->search.re; k++) {
		size_t line = back ? (from + nr - k % nr) % nr : (from + k) % nr;

		if (line_matches(t, v, line, &row, &text)) {
			found = line;
			break;
		}
	}
	row_release(&row);
	strbuf_release(&text);
	return found;
}

/* In a searched view: go to the first match from the line the prompt opened on. */
static void search_jump(struct tui *t, struct view *v)
{
	size_t line = find_match(t, v, v->search.from_lineno, false);

	if (line == SIZE_MAX) {
		v->lineno = v->search.from_lineno;
		v->offset = v->search.from_offset;
		tui_message(t, true, "no line matches /%s/", v->search.pattern);
		return;
	}
	v->lineno = line;
}

static enum reaction search_prompt(struct tui *t, const char *text, bool done)
{
	struct view *v = tui_current(t);
	struct strbuf err = STRBUF_INIT;
	struct tui_regex *re;

	strbuf_reset(&t->message);
	if (!text || !*text) {
		/*
		 * Esc, or Enter on nothing: no pattern. While the text is
		 * empty: the pattern the prompt started from.
		 */
		char *keep = !done && v->search.from_pattern ? xstrdup(v->search.from_pattern) : NULL;

		tui_set_search(t, v, keep);
		free(keep);
		if (!v->ops->filter && !v->search.re) {
			v->lineno = v->search.from_lineno;
			v->offset = v->search.from_offset;
		}
		return R_REDRAW;
	}
	re = tui_regex_compile(text, &err);
	if (!re) {
		/* Half-typed patterns are normal: keep the last good one. */
		tui_message(t, true, "%s", err.buf);
		strbuf_release(&err);
		return R_REDRAW;
	}
	tui_regex_free(re);
	strbuf_release(&err);
	tui_set_search(t, v, text);
	if (v->ops->filter)
		v->lineno = v->offset = 0;
	else
		search_jump(t, v);
	if (done && !t->message.len && !v->ops->filter)
		tui_message(t, false, "/%s: n and N go to the next and previous match, "
			    "Esc clears", text);
	return R_REDRAW;
}

static enum reaction find_next(struct tui *t, struct view *v, bool back)
{
	size_t nr = v->ops->lines(t, v), line;

	if (!v->search.re) {
		tui_message(t, true, "no search: / starts one");
		return R_REDRAW;
	}
	if (!nr)
		return R_REDRAW;
	if (v->ops->filter) {
		/* A filtered list holds matches only (some on text not drawn). */
		line = back ? (v->lineno + nr - 1) % nr : (v->lineno + 1) % nr;
	} else {
		line = find_match(t, v, back ? (v->lineno + nr - 1) % nr : (v->lineno + 1) % nr,
				  back);
	}
	if (line == SIZE_MAX) {
		tui_message(t, true, "no line matches /%s/", v->search.pattern);
		return R_REDRAW;
	}
	if (back ? line > v->lineno : line < v->lineno)
		tui_message(t, false, "search went round the %s", back ? "top" : "end");
	v->lineno = line;
	return R_REDRAW;
}

enum reaction tui_goto(struct tui *t, enum view_id id, const char *filter,
		       const char *sort, bool desc)
{
	struct view *v = &t->views[id];
	enum reaction r = R_REDRAW;

	/* From a drill-in view, q comes back to it; from a main view, Tab's way. */
	if (t->stack[t->depth - 1] >= NR_MAIN_VIEWS && open_view(t, id) == 0)
		stack_push(t, id);
	else
		r = tui_push(t, id);
	if (!v->opened)
		return r;
	v->lineno = v->offset = 0;
	v->search.from_lineno = v->search.from_offset = 0;
	tui_set_search(t, v, filter);
	if (sort && v->ops->sort)
		v->ops->sort(t, v, sort, desc);
	if (v->search.re && !v->ops->filter)
		search_jump(t, v);
	return r;
}

/* Jump: a PR number or a commit. */

enum reaction tui_jump(struct tui *t, const char *what)
{
	struct pair_info p;
	struct quiet q;
	int rc;

	while (*what == ' ' || *what == '#')
		what++;
	if (!*what) {
		tui_message(t, true, "jump: give a PR number or a commit");
		return R_REDRAW;
	}
	q = quiet_begin();
	rc = query_pair_lookup(t->store, what, &p);
	quiet_end(t, q);
	if (rc < 0) {
		tui_message(t, true, "'%s' names more than one commit, or the store "
			    "cannot be read", what);
		return R_REDRAW;
	}
	if (rc > 0) {
		tui_message(t, true, "no pull request or commit '%s' in the store", what);
		return R_REDRAW;
	}
	{
		enum reaction r = tui_open_detail(t, p.head_id);

		pair_info_release(&p);
		return r;
	}
}

static enum reaction jump_prompt(struct tui *t, const char *text, bool done)
{
	if (!done || !text)
		return R_NONE;
	return tui_jump(t, text);
}

/* What the selected line is about, for y, o and x. */

static bool selected_head(struct tui *t, struct view *v, int64_t *head)
{
	return v->ops->selected_head && v->ops->selected_head(t, v, head);
}

static bool head_sha(struct tui *t, int64_t head, char sha[41])
{
	struct pair_info p;

	if (tui_load_pair(t, head, &p))
		return false;
	memcpy(sha, p.sha, 41);
	pair_info_release(&p);
	return true;
}

static enum reaction copy_selected(struct tui *t, struct view *v)
{
	struct strbuf sb = STRBUF_INIT;
	enum reaction r;
	int64_t head;
	char sha[41];

	if (v->ops->copy_text && v->ops->copy_text(t, v, &sb)) {
		r = tui_copy(t, sb.buf);
	} else if (selected_head(t, v, &head) && head_sha(t, head, sha)) {
		r = tui_copy(t, sha);
	} else {
		tui_message(t, true, "nothing to copy on this line");
		r = R_REDRAW;
	}
	strbuf_release(&sb);
	return r;
}

static enum reaction open_selected(struct tui *t, struct view *v)
{
	int64_t head;
	char sha[41];

	if (!selected_head(t, v, &head) || !head_sha(t, head, sha)) {
		tui_message(t, true, "no commit on this line");
		return R_REDRAW;
	}
	return tui_open_commit(t, sha);
}

static enum reaction explain_selected(struct tui *t, struct view *v, bool editor)
{
	int64_t head;

	if (!selected_head(t, v, &head)) {
		tui_message(t, true, "select a disagreement to explain");
		return R_REDRAW;
	}
	return tui_explain(t, head, editor);
}

static void move_by(struct view *v, size_t nr, size_t n, bool down)
{
	if (!nr)
		return;
	if (down)
		v->lineno = v->lineno + n < nr ? v->lineno + n : nr - 1;
	else
		v->lineno = v->lineno > n ? v->lineno - n : 0;
}

/* Requests every view has: cursor moves, view switching, quit. */
static enum reaction generic_request(struct tui *t, struct view *v, enum request req)
{
	size_t nr = v->ops->lines(t, v);
	size_t page = (size_t)(tui_body_lines(t) - (v->ops->header ? 1 : 0));
	enum view_id main = current_main(t);

	if (!page)
		page = 1;
	switch (req) {
	case REQ_MOVE_DOWN:
		move_by(v, nr, 1, true);
		return R_REDRAW;
	case REQ_MOVE_UP:
		move_by(v, nr, 1, false);
		return R_REDRAW;
	case REQ_PAGE_DOWN:
		move_by(v, nr, page, true);
		v->offset += page;
		if (v->offset + page > nr)
			v->offset = nr > page ? nr - page : 0;
		return R_REDRAW;
	case REQ_PAGE_UP:
		move_by(v, nr, page, false);
		v->offset = v->offset > page ? v->offset - page : 0;
		return R_REDRAW;
	case REQ_HALF_PAGE_DOWN:
	case REQ_HALF_PAGE_UP: {
		size_t half = page > 1 ? page / 2 : 1;
		bool down = req == REQ_HALF_PAGE_DOWN;

		move_by(v, nr, half, down);
		if (down)
			v->offset = v->offset + half + page > nr ? (nr > page ? nr - page : 0)
								  : v->offset + half;
		else
			v->offset = v->offset > half ? v->offset - half : 0;
		return R_REDRAW;
	}
	case REQ_SCROLL_RIGHT:
		v->xoffset += t->cols / 2 > 1 ? t->cols / 2 : 1; /* tui_draw pulls it back */
		return R_REDRAW;
	case REQ_SCROLL_LEFT:
		v->xoffset = v->xoffset > t->cols / 2 ? v->xoffset - t->cols / 2 : 0;
		return R_REDRAW;
	case REQ_MOVE_FIRST:
		v->lineno = 0;
		return R_REDRAW;
	case REQ_MOVE_LAST:
		v->lineno = nr ? nr - 1 : 0;
		return R_REDRAW;
	case REQ_BACK:
		if (t->depth > 1)
			t->depth--;
		return R_REDRAW;
	case REQ_QUIT:
		if (t->depth > 1) {
			t->depth--;
			return R_REDRAW;
		}
		return R_QUIT;
	case REQ_QUIT_ALL:
		return R_QUIT;
	case REQ_NEXT_VIEW:
		return tui_push(t, (enum view_id)((main + 1) % NR_MAIN_VIEWS));
	case REQ_PREV_VIEW:
		return tui_push(t, (enum view_id)((main + NR_MAIN_VIEWS - 1) % NR_MAIN_VIEWS));
	case REQ_VIEW_OVERVIEW:
		return tui_push(t, VIEW_OVERVIEW);
	case REQ_VIEW_RUNS:
		return tui_push(t, VIEW_RUNS);
	case REQ_VIEW_DISAGREE:
		return tui_push(t, VIEW_DISAGREE);
	case REQ_VIEW_PROPOSALS:
		return tui_push(t, VIEW_PROPOSALS);
	case REQ_VIEW_TESTS:
		return tui_push(t, VIEW_TESTS);
	case REQ_HELP: {
		struct view *h = &t->views[VIEW_HELP];

		if (v == h) {
			t->depth--;
			return R_REDRAW;
		}
		t->help_first = v->ops->keymap;
		if (h->opened && h->ops->reload)
			h->ops->reload(t, h);
		h->lineno = h->offset = 0;
		return tui_push(t, VIEW_HELP);
	}
	case REQ_FILTER:
		free(v->search.from_pattern);
		v->search.from_pattern = v->search.pattern ? xstrdup(v->search.pattern) : NULL;
		v->search.from_lineno = v->lineno;
		v->search.from_offset = v->offset;
		tui_prompt_start(t, "/", NULL, search_prompt);
		return R_REDRAW;
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
		return find_next(t, v, req == REQ_FIND_PREV);
	case REQ_CLEAR:
		if (v->search.pattern) {
			tui_set_search(t, v, NULL);
			tui_message(t, false, "%s cleared", v->ops->filter ? "filter" : "search");
		} else if (t->depth > 1 && t->stack[t->depth - 1] >= NR_MAIN_VIEWS) {
			/* Back out of the help or a detail, as in tig and lazygit. */
			t->depth--;
		}
		return R_REDRAW;
	case REQ_JUMP:
		tui_prompt_start(t, "jump to #", NULL, jump_prompt);
		return R_REDRAW;
	case REQ_COPY:
		return copy_selected(t, v);
	case REQ_OPEN_COMMIT:
		return open_selected(t, v);
	case REQ_EXPLAIN:
	case REQ_EXPLAIN_EDITOR:
		return explain_selected(t, v, req == REQ_EXPLAIN_EDITOR);
	case REQ_RELOAD:
		tui_message(t, false, "reloading from the store");
		return R_RELOAD;
	case REQ_REDRAW:
		clearok(curscr, TRUE);
		return R_REDRAW;
	case REQ_PROMPT:
		tui_prompt_start(t, ":", NULL, command_prompt);
		return R_REDRAW;
	case REQ_UNDO:
		return tui_proposals_undo(t);
	case REQ_NONE:
		return R_NONE;
	default:
		tui_message(t, false, "%s: not in the %s view", tui_request_hint(req) ?
			    tui_request_hint(req) : tui_request_name(req), v->ops->name);
		return R_REDRAW;
	}
}

enum reaction tui_request(struct tui *t, enum request req)
{
	struct view *v = tui_current(t);
	enum reaction r = v->ops->request ? v->ops->request(t, v, req) : R_UNHANDLED;

	if (r & R_UNHANDLED)
		r = generic_request(t, v, req);
	return r;
}

/* The mouse: a click selects (on a tab: that view; on a hint: its key), a
 * double click opens, the wheel scrolls. */
static enum reaction handle_mouse(struct tui *t, struct tui_key key)
{
	struct view *v = tui_current(t);
	size_t nr = v->ops->lines(t, v), line;
	int top = tui_list_top(t, v), height = tui_body_lines(t) - (top - 1);
	size_t step = 3;

	if (t->prompt.active)
		return R_NONE;
	switch (key.mouse) {
	case MOUSE_WHEEL_UP:
	case MOUSE_WHEEL_DOWN:
		if (key.mouse == MOUSE_WHEEL_DOWN) {
			size_t max = nr > (size_t)height ? nr - (size_t)height : 0;

			v->offset = v->offset + step < max ? v->offset + step : max;
			if (v->lineno < v->offset)
				v->lineno = v->offset;
		} else {
			v->offset = v->offset > step ? v->offset - step : 0;
			if (height > 0 && v->lineno >= v->offset + (size_t)height)
				v->lineno = v->offset + (size_t)height - 1;
		}
		return R_REDRAW;
	case MOUSE_CLICK:
	case MOUSE_DOUBLE_CLICK:
		break;
	case MOUSE_NONE:
		return R_NONE;
	}
	if (key.y == 0) {
		enum view_id id = tui_tab_at(t, key.x);

		return id < NR_VIEWS ? tui_push(t, id) : R_NONE;
	}
	if (v->ops->header && key.y == top - 1)
		return v->ops->click_header ? v->ops->click_header(t, v, key.x + v->xoffset) :
			R_NONE;
	if (key.y == t->lines - 1) {
		enum request req = tui_hint_at(t, key.x);

		return req == REQ_NONE ? R_NONE : tui_request(t, req);
	}
	if (key.y < top || key.y >= top + height)
		return R_NONE;
	line = v->offset + (size_t)(key.y - top);
	if (line >= nr)
		return R_NONE;
	v->lineno = line;
	return key.mouse == MOUSE_DOUBLE_CLICK ? tui_request(t, REQ_ENTER) : R_REDRAW;
}

static enum reaction handle_key(struct tui *t, struct tui_key key)
{
	struct view *v = tui_current(t);
	enum request req;

	if (key.fn && key.code == KEY_RESIZE)
		return R_RESIZE | R_REDRAW;
	if (key.fn && key.code == KEY_MOUSE) {
		strbuf_reset(&t->message);
		return handle_mouse(t, key);
	}
	if (t->prompt.active)
		return prompt_key(t, key);
	strbuf_reset(&t->message);
	req = tui_key_request(v->ops->keymap, key);
	if (req == REQ_NONE) {
		struct strbuf name = STRBUF_INIT;

		tui_key_name(&name, key);
		tui_message(t, false, "%s is not bound here (? shows the keys)", name.buf);
		strbuf_release(&name);
		return R_REDRAW;
	}
	return tui_request(t, req);
}

/* One step of every view's background work; true while any is pending. */
static bool step_views(struct tui *t)
{
	bool busy = false;

	for (int i = 0; i < NR_VIEWS; i++) {
		struct view *v = &t->views[i];

		if (v->opened && v->ops->step)
			busy |= v->ops->step(t, v);
	}
	return busy;
}

static int main_loop(struct tui *t)
{
	enum reaction r = R_REDRAW;
	bool scripted = tui_scripted();

	for (;;) {
		struct tui_key key;
		bool busy;
		int rc;

		if (tui_pending_signal() || (r & R_QUIT))
			break;
		if (r & R_RELOAD)
			reload(t);
		if (r & R_RESIZE)
			tui_resize(t, 0, 0);
		if (tui_figures_poll(t, false))
			r |= R_REDRAW;
		busy = step_views(t);
		if (busy)
			r |= R_REDRAW;
		if (r & (R_REDRAW | R_RESIZE | R_RELOAD)) {
			tui_draw(t);
			doupdate();
			t->frames++;
			if (t->opts.max_frames && t->frames >= t->opts.max_frames)
				break;
		}
		r = R_NONE;
		busy |= t->fig.running;
		if (scripted && busy) {
			/* Scripts go on only once everything has loaded. */
			if (t->fig.running && !step_views(t))
				r |= tui_figures_poll(t, true) ? R_REDRAW : R_NONE;
			r |= R_REDRAW;
			continue;
		}
		rc = tui_get_key(t, busy, &key, &r);
		if (rc < 0)
			break;
		if (rc > 0)
			r |= handle_key(t, key);
	}
	return tui_pending_signal();
}

/* Options: the window options of report (no --format: the dashboard is the format). */

static struct metrics_args tui_args;
static struct tui_opts tui_o;
static bool tui_print_keys;
static const char *tui_keys_form;

static int tui_opt_max_frames(const struct opt *opt, const char *arg,
			      const struct opt_parse *p)
{
	int64_t n;

	(void)opt;
	if (!parse_int64(arg, &n) || n < 1 || n > LONG_MAX)
		return usage_error(p->cmd, "--max-frames '%s': expected a positive number",
				   arg);
	tui_o.max_frames = (long)n;
	return 0;
}

static int tui_opt_print_keys(const struct opt *opt, const char *arg,
			      const struct opt_parse *p)
{
	(void)opt;
	if (arg && strcmp(arg, "roff") && strcmp(arg, "text"))
		return usage_error(p->cmd, "--print-keys=%s: expected text or roff", arg);
	tui_print_keys = true;
	tui_keys_form = arg;
	return 0;
}

static const struct opt tui_opts[] = {
	OPT_METRICS_WINDOW(&tui_args),
	OPT_STRING_LIST(0, "rules", &tui_o.rules_files, "FILE",
			"force-full rules (repeatable); accepting a proposal appends to "
			"the first one"),
	OPT_INT_BAD_VALUE(0, "green", &tui_o.green_days, "N", 1, TEST_RECORDS_MAX_GREEN_DAYS,
			  "days, ", "the tests view's unquarantine candidates: quarantined "
			  "tests green in every full run of the last N days (default 14, "
			  "as tiadash tests)"),
	OPT_COLOR(&tui_o.color, "in colour: always, never (monochrome: bold, reverse), "
		  "or auto (default: on a terminal)"),
	OPT_CALLBACK(0, "max-frames", NULL, "N", "quit after drawing N frames (smoke tests)",
		     tui_opt_max_frames),
	OPT_CALLBACK_OPTARG(0, "print-keys", NULL, "text|roff",
			    "print the key table and exit", tui_opt_print_keys),
	OPT_END(),
};

/* 0 to run, 1 done (printed the keys), or an exit status > 1. */
static int tui_parse_args(int argc, char **argv, struct cmd_context *ctx,
			 struct tui_opts *o)
{
	int argi, ret;

	metrics_args_init(&tui_args, &cmd_tui, 0);
	memset(&tui_o, 0, sizeof(tui_o));
	tui_print_keys = false;
	tui_keys_form = NULL;
	ret = parse_options(argc, argv, &cmd_tui, ctx, &argi);
	*o = tui_o; /* the caller releases its list */
	memset(&tui_o, 0, sizeof(tui_o));
	if (ret)
		return EXIT_INPUT_ERROR;
	if (tui_print_keys) {
		setlocale(LC_ALL, "");
		tui_keys_print(stdout, tui_keys_form && !strcmp(tui_keys_form, "roff"));
		return 1;
	}
	if (argi < argc)
		return usage_error(&cmd_tui, "unexpected argument '%s'", argv[argi]);
	o->window = tui_args.window;
	return metrics_args_check(&tui_args);
}

static void tui_release(struct tui *t)
{
	figures_cancel(t);
	for (int i = 0; i < NR_VIEWS; i++) {
		struct view *v = &t->views[i];

		if (v->opened && v->ops->done)
			v->ops->done(v);
		free(v->search.pattern);
		free(v->search.from_pattern);
		tui_regex_free(v->search.re);
	}
	metrics_release(&t->fig.m);
	proposals_release(&t->fig.props);
	proposals_rules_release(&t->fig.props_rules);
	demote_release(&t->fig.demote);
	proposals_rules_release(&t->rules);
	tui_undo_release();
	config_release(&t->cfg);
	strlist_release(&t->opts.rules_files);
	strbuf_release(&t->message);
	strbuf_release(&t->prompt.text);
}

static int run_tui(int argc, char **argv, struct cmd_context *ctx)
{
	struct tui t = { .ctx = ctx, .store = ctx->store };
	int ret, sig;

	ret = tui_parse_args(argc, argv, ctx, &t.opts);
	if (ret) {
		strlist_release(&t.opts.rules_files);
		return ret == 1 ? EXIT_OKAY : ret;
	}
	for (int i = 0; i < NR_VIEWS; i++)
		t.views[i].ops = view_table[i];
	t.stack[0] = VIEW_OVERVIEW;
	t.depth = 1;
	if (rekey_config_load(&t.cfg, ctx) < 0) {
		tui_release(&t);
		return EXIT_INPUT_ERROR;
	}
	keep_freed_memory();
	tui_figures_start(&t);
	/* --rules files now, to stop at a bad one; the repository's own at first need (tui_rules). */
	if (t.opts.rules_files.nr && tui_load_rules(&t) < 0) {
		tui_release(&t);
		return EXIT_INPUT_ERROR;
	}
	/* The dashboard reads pages, not whole tables: a small cache will do. */
	store_exec(t.store, "PRAGMA cache_size = -8192");
	setlocale(LC_ALL, "");
	if (tui_display_init(&t) < 0) {
		tui_release(&t);
		return EXIT_INPUT_ERROR;
	}
	/* While the worker computes (its own connection): the count the placeholder shows. */
	if (query_window_count(t.store, &t.opts.window, &t.heads) < 0) {
		tui_release(&t);
		tui_display_done();
		set_die_cleanup(NULL);
		return EXIT_INPUT_ERROR;
	}
	ret = open_view(&t, VIEW_OVERVIEW);
	if (!ret)
		sig = main_loop(&t);
	else
		sig = 0;
	tui_release(&t);
	tui_display_done();
	/* After the terminal is back: what `y` could not copy. */
	tui_print_copied(&t);
	strlist_release(&t.copied);
	set_die_cleanup(NULL);
	if (sig) {
		/* The terminal is back: die of the signal as if we had not caught it. */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return ret < 0 || error_count() > t.ignored_errors ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_tui = {
	.name = "tui",
	.fn = run_tui,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash tui [--since WHEN] [--until WHEN] [--project NAME] "
		 "[--rules FILE]... [--green N] [--color[=WHEN]] [--max-frames N] "
		 "[--print-keys[=text|roff]]",
	.summary = "Open the dashboard: overview, runs, disagreements, detail, proposals.",
	.opts = tui_opts,
	.notes = "Keys: ? in the dashboard lists them; see also 'man tiadash'.\n"
		 "TIADASH_NO_DISPLAY=1 runs without a terminal and TIADASH_SCRIPT=FILE\n"
		 "reads keys and :commands from FILE (for tests).\n",
};
