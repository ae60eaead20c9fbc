/* The Tests view, the dashboard's `tiadash tests`: per test id the records metrics/testrec.c
 * computes, most missed first, unquarantine candidates marked; Enter opens one test's history. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "metrics/testrec.h"
#include "tui/tui.h"

/* The count columns, in `tiadash tests`'s order: _(ID, title, field). */
#define TESTS_COUNTS(_)                                                        \
	_(MISSED, "MISSED", escaped)                                           \
	_(FAILED, "FAILED", failed)                                            \
	_(INHER, "INHER", inherited)                                           \
	_(FLAKY, "FLAKY", flaky)                                               \
	_(QUAR, "QUAR", quarantined)                                           \
	_(SELECT, "SELECT", selected)                                          \
	_(RAN, "RAN", ran)

enum tests_count {
#define TCOUNT_ENUM_(id, title, field) TCOUNT_##id,
	TESTS_COUNTS(TCOUNT_ENUM_)
#undef TCOUNT_ENUM_
	NR_TCOUNTS
};

static const struct {
	const char *title;
	size_t field;
} counts[] = {
#define TCOUNT_ROW_(id, title, field) { title, offsetof(struct test_record, field) },
	TESTS_COUNTS(TCOUNT_ROW_)
#undef TCOUNT_ROW_
};

#define DATE_WIDTH 10

struct tests {
	struct test_records r;
	bool loaded;             /* r holds the window's records */
	size_t *shown;           /* indexes into r.items that pass the filter */
	size_t nr_shown;
	char *filter;
	int width[NR_TCOUNTS];   /* each as wide as its title or its widest value */
};

/* The first-seen date gives way first: the ids need the room (it is in the history). */
static bool wide(const struct tui *t)
{
	return t->cols >= 100;
}

static int64_t count_of(const struct test_record *rec, size_t k)
{
	return *(const int64_t *)((const char *)rec + counts[k].field);
}

static void fmt_date(struct strbuf *sb, int64_t ms)
{
	if (ms == INT64_MAX || ms == INT64_MIN)
		strbuf_addstr(sb, "-");
	else
		time_format_date(sb, ms);
}

/*
 * The window's records, as `tiadash tests` computes them (the store's
 * id-map, --green's window): 0, or -1 after a message.
 */
static int compute(struct tui *t, const char *only_id, struct test_records *out)
{
	int green = t->opts.green_days ? t->opts.green_days : TEST_RECORDS_GREEN_DAYS;

	memset(out, 0, sizeof(*out));
	if (test_records_compute(t->store, &t->opts.window, t->cfg.idmap, green, t->ctx->now,
				 only_id, out) < 0) {
		tui_message(t, true, "cannot read the tests' records from the store");
		return -1;
	}
	return 0;
}

static void size_columns(struct tests *ts)
{
	for (size_t k = 0; k < NR_TCOUNTS; k++) {
		ts->width[k] = (int)strlen(counts[k].title);
		for (size_t i = 0; i < ts->r.nr; i++) {
			int n = snprintf(NULL, 0, "%" PRId64, count_of(&ts->r.items[i], k));

			if (n > ts->width[k])
				ts->width[k] = n;
		}
	}
}

static bool candidate(const struct tests *ts, const struct test_record *rec)
{
	return strlist_sorted_has(&ts->r.unquarantine, rec->id);
}

static void cells(struct tui *t, const struct tests *ts, const struct test_record *rec,
		  struct row_data *row)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < NR_TCOUNTS; k++) {
		int64_t n = count_of(rec, k);
		enum tui_role role = ROLE_DEFAULT;

		if (k == TCOUNT_MISSED && n)
			role = ROLE_BAD;
		else if (!n)
			role = ROLE_DIM;
		row_add(row, -ts->width[k], role, "%" PRId64, n);
	}
	row_add_str(row, 1, ROLE_GOOD, candidate(ts, rec) ? "*" : " ");
	if (wide(t)) {
		fmt_date(&sb, rec->first_at);
		row_add_str(row, DATE_WIDTH, ROLE_DEFAULT, sb.buf);
		strbuf_reset(&sb);
	}
	fmt_date(&sb, rec->last_at);
	row_add_str(row, DATE_WIDTH, ROLE_DEFAULT, sb.buf);
	row_add_str(row, 0, ROLE_DEFAULT, rec->id);
	strbuf_release(&sb);
}

static void header(struct tui *t, const struct tests *ts, struct row_data *row)
{
	for (size_t k = 0; k < NR_TCOUNTS; k++)
		row_add_str(row, -ts->width[k], ROLE_DEFAULT, counts[k].title);
	row_add_str(row, 1, ROLE_DEFAULT, "*");
	if (wide(t))
		row_add_str(row, DATE_WIDTH, ROLE_DEFAULT, "FIRST SEEN");
	row_add_str(row, DATE_WIDTH, ROLE_DEFAULT, "LAST SEEN");
	row_add_str(row, 0, ROLE_DEFAULT, "TEST");
}

static void apply_filter(struct tui *t, struct tests *ts)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct tui_regex *re = ts->filter ? tui_regex_compile(ts->filter, &err) : NULL;
	struct row_data row = ROW_DATA_INIT;

	free(ts->shown);
	ts->shown = xmalloc((ts->r.nr ? ts->r.nr : 1) * sizeof(*ts->shown));
	ts->nr_shown = 0;
	for (size_t i = 0; i < ts->r.nr; i++) {
		if (re) {
			row_reset(&row);
			strbuf_reset(&text);
			cells(t, ts, &ts->r.items[i], &row);
			row_text(&row, &text);
			if (!tui_regex_match(re, text.buf, text.len))
				continue;
		}
		ts->shown[ts->nr_shown++] = i;
	}
	row_release(&row);
	strbuf_release(&text);
	strbuf_release(&err);
	tui_regex_free(re);
}

/* The records, read at the first need after an open or a reload. */
static void sync_records(struct tui *t, struct tests *ts)
{
	if (ts->loaded)
		return;
	test_records_release(&ts->r);
	ts->loaded = true;
	if (compute(t, NULL, &ts->r) < 0)
		test_records_release(&ts->r);
	size_columns(ts);
	apply_filter(t, ts);
}

static int tests_open(struct tui *t, struct view *v)
{
	UNUSED(t);
	v->priv = xcalloc(1, sizeof(struct tests));
	return 0;
}

static void tests_reload(struct tui *t, struct view *v)
{
	struct tests *ts = v->priv;

	UNUSED(t);
	ts->loaded = false;
}

static size_t tests_lines(struct tui *t, struct view *v)
{
	struct tests *ts = v->priv;

	sync_records(t, ts);
	return ts->nr_shown;
}

static void tests_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct tests *ts = v->priv;

	sync_records(t, ts);
	if (lineno == SIZE_MAX)
		header(t, ts, row);
	else if (lineno < ts->nr_shown)
		cells(t, ts, &ts->r.items[ts->shown[lineno]], row);
}

static const struct test_record *selected(struct tui *t, struct view *v)
{
	struct tests *ts = v->priv;

	sync_records(t, ts);
	return v->lineno < ts->nr_shown ? &ts->r.items[ts->shown[v->lineno]] : NULL;
}

static enum reaction tests_request(struct tui *t, struct view *v, enum request req)
{
	const struct test_record *rec = selected(t, v);

	if (req == REQ_ENTER)
		return rec ? tui_open_test(t, rec->id) : R_REDRAW;
	return R_UNHANDLED;
}

static bool tests_copy(struct tui *t, struct view *v, struct strbuf *out)
{
	const struct test_record *rec = selected(t, v);

	if (rec)
		strbuf_addstr(out, rec->id);
	return rec != NULL;
}

static void tests_filter(struct tui *t, struct view *v, const char *pattern)
{
	struct tests *ts = v->priv;

	free(ts->filter);
	ts->filter = pattern ? xstrdup(pattern) : NULL;
	if (ts->loaded)
		apply_filter(t, ts);
}

static void tests_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct tests *ts = v->priv;

	sync_records(t, ts);
	if (ts->filter) {
		strbuf_addf(sb, "%zu of %zu match /%s/", ts->nr_shown, ts->r.nr, ts->filter);
		return;
	}
	test_records_span(sb, &ts->r);
	strbuf_addf(sb, "; %zu to unquarantine (*)", ts->r.unquarantine.nr);
}

static void tests_save(struct tui *t, struct view *v, FILE *f)
{
	struct tests *ts = v->priv;
	struct row_data row = ROW_DATA_INIT;
	struct strbuf sb = STRBUF_INIT;

	sync_records(t, ts);
	fprintf(f, "filter %s\n", ts->filter ? ts->filter : "-");
	for (size_t i = 0; i < ts->nr_shown; i++) {
		row_reset(&row);
		strbuf_reset(&sb);
		cells(t, ts, &ts->r.items[ts->shown[i]], &row);
		row_text(&row, &sb);
		fprintf(f, "%c %s\n", i == v->lineno ? '>' : ' ', sb.buf);
	}
	row_release(&row);
	strbuf_release(&sb);
}

static void tests_done(struct view *v)
{
	struct tests *ts = v->priv;

	test_records_release(&ts->r);
	free(ts->shown);
	free(ts->filter);
	free(ts);
	v->priv = NULL;
}

const struct view_ops tests_view_ops = {
	.name = "tests",
	.title = "Tests",
	.keymap = KEYMAP_TESTS,
	.header = true,
	.open = tests_open,
	.reload = tests_reload,
	.lines = tests_lines,
	.row_data = tests_row,
	.request = tests_request,
	.status = tests_status,
	.save = tests_save,
	.done = tests_done,
	.filter = tests_filter,
	.copy_text = tests_copy,
};

/* One test's history: what `tiadash tests --id ID` prints. */

struct history {
	char *id;
	struct row_list rows;
	char **shas;        /* per row: the change it names, or NULL */
	size_t alloc_shas;
};

static struct row_data *add_row(struct history *h, const char *sha)
{
	struct row_data *r = row_list_add(&h->rows);

	ALLOC_GROW(h->shas, h->rows.nr, h->alloc_shas);
	h->shas[h->rows.nr - 1] = sha ? xstrdup(sha) : NULL;
	return r;
}

static void history_clear(struct history *h)
{
	for (size_t i = 0; i < h->rows.nr; i++)
		free(h->shas[i]);
	row_list_clear(&h->rows);
}

static enum tui_role outcome_role(const char *outcome)
{
	if (!strcmp(outcome, "missed"))
		return ROLE_BAD;
	if (!strcmp(outcome, "failed") || !strcmp(outcome, "flaky"))
		return ROLE_WARN;
	if (!strcmp(outcome, "passed"))
		return ROLE_GOOD;
	return ROLE_DEFAULT;
}

static void history_event(struct history *h, const struct test_event *e)
{
	struct row_data *r = add_row(h, e->sha);
	struct strbuf sb = STRBUF_INIT;

	tui_fmt_time(&sb, e->at);
	row_add_str(r, 16, ROLE_DEFAULT, sb.buf);
	if (e->has_pr)
		row_add(r, -6, ROLE_DEFAULT, "#%" PRId64, e->pr);
	else
		row_add_str(r, -6, ROLE_DIM, "push");
	row_add(r, 7, ROLE_DEFAULT, "%.7s", e->sha);
	row_add_str(r, 12, ROLE_DEFAULT, e->class_name);
	row_add_str(r, 11, outcome_role(e->outcome), e->outcome);
	row_add_str(r, 0, ROLE_DEFAULT, e->selected ? "yes" : "no");
	strbuf_release(&sb);
}

static const struct test_record *find_record(const struct test_records *r, const char *id)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].id, id))
			return &r->items[i];
	return NULL;
}

/* The id, its counts (zero when the window never saw it), then a line per pair. */
static void history_build(struct tui *t, struct history *h)
{
	struct test_records r;
	const struct test_record *rec;
	struct row_data *row;
	struct strbuf sb = STRBUF_INIT;

	history_clear(h);
	if (!h->id || compute(t, h->id, &r) < 0)
		return;
	rec = find_record(&r, h->id);
	row_add_str(add_row(h, NULL), 0, ROLE_HEADER, h->id);
	strbuf_addf(&sb, "ran %" PRId64 ", selected %" PRId64 ", failed %" PRId64 ", missed %"
		    PRId64 ", inherited %" PRId64 ", flaky %" PRId64 ", quarantined %" PRId64,
		    rec ? rec->ran : 0, rec ? rec->selected : 0, rec ? rec->failed : 0,
		    rec ? rec->escaped : 0, rec ? rec->inherited : 0, rec ? rec->flaky : 0,
		    rec ? rec->quarantined : 0);
	row_add_str(add_row(h, NULL), 0, ROLE_DEFAULT, sb.buf);
	if (strlist_sorted_has(&r.unquarantine, h->id)) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "* unquarantine: passed in every full run since ");
		fmt_date(&sb, r.green_since);
		strbuf_addf(&sb, " (%d days)", r.green_days);
		row_add_str(add_row(h, NULL), 0, ROLE_GOOD, sb.buf);
	}
	add_row(h, NULL);
	row = add_row(h, NULL);
	row->role = ROLE_LABEL;
	row_add_str(row, 16, ROLE_DEFAULT, "WHEN");
	row_add_str(row, -6, ROLE_DEFAULT, "PR");
	row_add_str(row, 7, ROLE_DEFAULT, "HEAD");
	row_add_str(row, 12, ROLE_DEFAULT, "CLASS");
	row_add_str(row, 11, ROLE_DEFAULT, "OUTCOME");
	row_add_str(row, 0, ROLE_DEFAULT, "SELECTED");
	for (size_t i = 0; i < r.nr_history; i++)
		history_event(h, &r.history[i]);
	strbuf_release(&sb);
	test_records_release(&r);
}

enum reaction tui_open_test(struct tui *t, const char *id)
{
	struct view *v = &t->views[VIEW_TEST];
	enum reaction r = tui_push(t, VIEW_TEST);
	struct history *h = v->priv;

	if (!v->opened)
		return r;
	free(h->id);
	h->id = xstrdup(id);
	history_build(t, h);
	v->lineno = v->offset = 0;
	v->xoffset = 0;
	return r;
}

static int history_open(struct tui *t, struct view *v)
{
	UNUSED(t);
	v->priv = xcalloc(1, sizeof(struct history));
	return 0;
}

static void history_reload(struct tui *t, struct view *v)
{
	history_build(t, v->priv);
}

static size_t history_lines(struct tui *t, struct view *v)
{
	UNUSED(t);
	return ((struct history *)v->priv)->rows.nr;
}

static void history_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct history *h = v->priv;

	UNUSED(t);
	if (lineno < h->rows.nr)
		row_copy(row, &h->rows.rows[lineno]);
}

static const char *history_sha(struct view *v)
{
	struct history *h = v->priv;

	return v->lineno < h->rows.nr ? h->shas[v->lineno] : NULL;
}

/* Enter on a pair opens its change's detail; elsewhere, nothing to open. */
static enum reaction history_request(struct tui *t, struct view *v, enum request req)
{
	const char *sha = history_sha(v);

	if (req != REQ_ENTER)
		return R_UNHANDLED;
	if (!sha) {
		tui_message(t, false, "Enter on a pair opens its change");
		return R_REDRAW;
	}
	return tui_jump(t, sha);
}

static bool history_copy(struct tui *t, struct view *v, struct strbuf *out)
{
	struct history *h = v->priv;

	UNUSED(t);
	/* A pair's line copies its commit (below); the others, the test id. */
	if (history_sha(v) || !h->id)
		return false;
	strbuf_addstr(out, h->id);
	return true;
}

static bool history_head(struct tui *t, struct view *v, int64_t *head_id)
{
	const char *sha = history_sha(v);
	struct pair_info p;

	if (!sha)
		return false;
	if (query_pair_lookup(t->store, sha, &p))
		return false;
	*head_id = p.head_id;
	pair_info_release(&p);
	return true;
}

static void history_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	struct history *h = v->priv;
	size_t events = h->rows.nr;

	UNUSED(t);
	for (size_t i = 0; i < h->rows.nr; i++)
		events -= !h->shas[i];
	strbuf_addf(sb, "%zu %s in its history; Enter on one opens its change", events,
		    events == 1 ? "run" : "runs");
}

static void history_save(struct tui *t, struct view *v, FILE *f)
{
	UNUSED(t);
	row_list_save(&((struct history *)v->priv)->rows, f);
}

static void history_done(struct view *v)
{
	struct history *h = v->priv;

	history_clear(h);
	row_list_release(&h->rows);
	free(h->shas);
	free(h->id);
	free(h);
	v->priv = NULL;
}

const struct view_ops test_view_ops = {
	.name = "test",
	.title = "Test",
	.keymap = KEYMAP_TESTS,
	.open = history_open,
	.reload = history_reload,
	.lines = history_lines,
	.row_data = history_row,
	.request = history_request,
	.status = history_status,
	.save = history_save,
	.done = history_done,
	.copy_text = history_copy,
	.selected_head = history_head,
};
