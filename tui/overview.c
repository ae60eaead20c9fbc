/* The Overview view: the window's figures (SPEC 4) as struct metrics holds them,
 * sparklines of its daily (a long window: weekly) series, and the gate-check verdict. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/trust.h"
#include "tui/tui.h"

/* Where Enter goes from a line: a view, filtered or sorted as the line says. */
struct target {
	enum view_id view;     /* VIEW_OVERVIEW: nowhere */
	char *filter;          /* the view's `/` pattern, or NULL */
	const char *sort;      /* the runs' sort column, or NULL */
	bool desc;
};

struct overview {
	struct row_list rows;
	struct target *targets; /* one per line */
	size_t alloc_targets;
	int64_t generation;    /* of the figures the rows show (-1: none) */
	int cols;
	bool ready;
};

#define LABEL 11

/* A line: label, value, and a sparkline at the right (spark may be NULL). */
static struct row_data *line(struct overview *o, enum view_id target, const char *label)
{
	struct row_data *r = row_list_add(&o->rows);

	ALLOC_GROW(o->targets, o->rows.nr, o->alloc_targets);
	o->targets[o->rows.nr - 1] = (struct target){ target, NULL, NULL, false };
	row_add_str(r, LABEL, ROLE_LABEL, label);
	return r;
}

/* The last line points to view, filtered by filter (copied) and sorted by sort. */
static void points_to(struct overview *o, enum view_id view, const char *filter,
		      const char *sort, bool desc)
{
	struct target *tg = &o->targets[o->rows.nr - 1];

	tg->view = view;
	tg->filter = filter ? xstrdup(filter) : NULL;
	tg->sort = sort;
	tg->desc = desc;
}

static void targets_clear(struct overview *o)
{
	for (size_t i = 0; i < o->rows.nr; i++)
		free(o->targets[i].filter);
}

/* The disagreements filter of the escapes the gate counts, and of the others. */
#define UNEXPLAINED_ESCAPES "^(escape|non-hermetic) (?!explained)"
#define ALL_ESCAPES "^(escape|non-hermetic) "
#define OTHER_DISAGREEMENTS "^(over-strict|flaky) "
#define VERIFIER_CHANGED "^verifier "

/*
 * The periods the sparklines draw: the window's days, or its ISO weeks
 * when it spans more days than a sparkline shows (metrics_by_period).
 */
struct sparks {
	struct metrics_day *weeks; /* owned; NULL: the days */
	const struct metrics_day *v;
	size_t n;
	int width;
	const char *unit;
};

static void sparks_init(struct sparks *sp, const struct tui *t, const struct metrics *m)
{
	int w = t->cols >= 100 ? 31 : 14;

	sp->weeks = NULL;
	sp->v = m->days;
	sp->n = m->nr_days;
	sp->unit = "day";
	if (m->nr_days > 31) {
		sp->n = metrics_by_period(m, PERIOD_WEEK, &sp->weeks);
		sp->v = sp->weeks;
		sp->unit = "week";
	}
	sp->width = sp->n < (size_t)w ? (int)sp->n : w;
}

/* The last `width` periods of one series as a sparkline cell. */
static void spark(struct row_data *r, const struct sparks *sp,
		  double (*get)(const struct metrics_day *d))
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = (size_t)sp->width, from = sp->n - n;
	double *v = xcalloc(n ? n : 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = get(&sp->v[from + i]);
	tui_sparkline(&sb, v, n);
	row_add_str(r, -sp->width, ROLE_SPARK, sb.buf);
	strbuf_release(&sb);
	free(v);
}

static double day_pairs(const struct metrics_day *d) { return (double)d->pairs; }
static double day_escapes(const struct metrics_day *d) { return (double)d->escapes; }
static double day_affected(const struct metrics_day *d) { return d->affected_p50; }
static double day_wall(const struct metrics_day *d) { return d->shadow_wall_p95; }
static double day_ff(const struct metrics_day *d) { return d->force_full_rate; }
static double day_dc(const struct metrics_day *d) { return d->diff_coverage_mean; }

static void value(struct row_data *r, enum tui_role role, const struct strbuf *sb)
{
	row_add_str(r, 0, role, sb->buf);
}

/* "p50 0.053", or "p50 n/a": the label stays when the value is undefined. */
static void labelled(struct strbuf *sb, const char *label, const char *fmt, double v)
{
	strbuf_addstr(sb, label);
	metrics_fmt(sb, fmt, v);
}


static void build_pending(struct tui *t, struct overview *o)
{
	struct row_data *r;
	struct metrics shell = { .since = t->opts.window.since, .until = t->opts.window.until,
				 .repo = (char *)(t->opts.window.repo ? t->opts.window.repo : "") };
	struct strbuf sb = STRBUF_INIT;

	r = line(o, VIEW_OVERVIEW, "Window");
	metrics_fmt_window(&sb, &shell, false);
	value(r, ROLE_DEFAULT, &sb);
	strbuf_reset(&sb);
	r = line(o, VIEW_RUNS, "Heads");
	strbuf_addf(&sb, "%" PRId64 " in the window", t->heads);
	value(r, ROLE_DEFAULT, &sb);
	r = line(o, VIEW_OVERVIEW, "");
	r = line(o, VIEW_OVERVIEW, "");
	row_add_str(r, 0, ROLE_DIM, "computing the figures...");
	strbuf_release(&sb);
}

static void build_reasons(struct overview *o, const struct metrics *m)
{
	size_t n = m->nr_reasons < 3 ? m->nr_reasons : 3;

	for (size_t i = 0; i < n; i++) {
		const struct metrics_reason *re = &m->reasons[i];
		struct row_data *r = line(o, VIEW_RUNS, "");
		struct strbuf sb = STRBUF_INIT;
		char *pattern = tui_literal_pattern(re->reason);

		points_to(o, VIEW_RUNS, pattern, NULL, false);
		free(pattern);
		strbuf_addf(&sb, "%" PRId64 " runs", re->runs);
		row_add_str(r, -11, ROLE_DEFAULT, sb.buf);
		strbuf_reset(&sb);
		metrics_fmt(&sb, "%.1f min", re->minutes);
		row_add_str(r, -13, ROLE_DEFAULT, sb.buf);
		row_add_str(r, 0, ROLE_DEFAULT, re->reason);
		strbuf_release(&sb);
	}
}

/* The bound of the escape rate, the trend, blind spots and the verifier check. */
static void build_trust(struct overview *o, const struct metrics *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct row_data *r = line(o, VIEW_OVERVIEW, "Confidence");
	enum tui_role role;

	metrics_fmt_confidence(&sb, m->confidence);
	strbuf_addstr(&sb, ": upper ");
	metrics_fmt_pct(&sb, m->escape_bounds.upper, 2);
	if (!isnan(m->escape_bounds.upper)) {
		/* An undefined bound has no interval either: one n/a, not two. */
		strbuf_addch(&sb, ' ');
		metrics_fmt_ci(&sb, m->escape_bounds.ci, 2);
	}
	role = m->escape_bounds.upper > m->escape_target ? ROLE_BAD : ROLE_GOOD;
	value(r, role, &sb);
	if (m->pairs_needed > 0) {
		/* gate-check's words and estimate, and the window they are of. */
		r = line(o, VIEW_OVERVIEW, "");
		strbuf_reset(&sb);
		trust_fmt_pairs_needed(&sb, m);
		value(r, role, &sb);
	}
	r = line(o, VIEW_OVERVIEW, "Trend");
	strbuf_reset(&sb);
	if (m->trend.known && m->trend.pairs) {
		strbuf_addstr(&sb, "previous window ");
		metrics_fmt_pct(&sb, m->trend.previous_rate, 2);
		strbuf_addstr(&sb, ": ");
	}
	trust_fmt_trend(&sb, &m->trend);
	value(r, m->trend.direction == TREND_RISING ? ROLE_BAD : ROLE_DEFAULT, &sb);
	r = line(o, VIEW_OVERVIEW, "Blind spots");
	strbuf_reset(&sb);
	trust_fmt_blind(&sb, &m->blind);
	if (m->blind.new_known)
		strbuf_addf(&sb, "; %zu new", m->blind.new_tests.nr);
	value(r, m->blind.failed.nr ? ROLE_BAD : ROLE_DEFAULT, &sb);
	r = line(o, VIEW_DISAGREE, "Verifier");
	points_to(o, VIEW_DISAGREE, VERIFIER_CHANGED, NULL, false);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " head%s green after a change to tests, fixtures or "
		    "config only", m->verifier_heads, m->verifier_heads == 1 ? "" : "s");
	value(r, m->verifier_heads ? ROLE_WARN : ROLE_DEFAULT, &sb);
	strbuf_release(&sb);
}

/* A criterion's line points to what it measured. */
static void criterion_target(struct overview *o, const struct metrics_criterion *c)
{
	static const struct {
		const char *name;
		enum view_id view;
		const char *filter, *sort;
		bool desc;
	} to[] = {
		{ "shadow_days", VIEW_RUNS, NULL, "date", false },
		{ "pairs", VIEW_RUNS, NULL, "date", false },
		{ "unexplained_escapes", VIEW_DISAGREE, UNEXPLAINED_ESCAPES, NULL, false },
		{ "escape_rate_upper", VIEW_DISAGREE, ALL_ESCAPES, NULL, false },
		{ "affected_fraction_p50", VIEW_RUNS, NULL, "affected", true },
		{ "wall_clock_p95_saving", VIEW_RUNS, NULL, "shadow", true },
		{ "diff_coverage_p50", VIEW_RUNS, NULL, "diff-coverage", false },
		{ "verifier_changed", VIEW_DISAGREE, VERIFIER_CHANGED, NULL, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(to); i++)
		if (!strcmp(c->name, to[i].name))
			points_to(o, to[i].view, to[i].filter, to[i].sort, to[i].desc);
}

static void build_gate(struct overview *o, const struct metrics_gate *g)
{
	struct row_data *r = line(o, VIEW_OVERVIEW, "Gate check");

	/* The verdict is the Window line's; `gate-check` alone judges another. */
	row_add_str(r, 6, g->go ? ROLE_GOOD : ROLE_BAD, g->go ? "GO" : "NO-GO");
	row_add(r, 0, ROLE_DIM, "on the window above (gate-check alone: the last %d days)",
		METRICS_DEFAULT_DAYS);
	for (size_t i = 0; i < g->nr; i++) {
		const struct metrics_criterion *c = &g->criteria[i];
		struct strbuf label = STRBUF_INIT, thr = STRBUF_INIT, val = STRBUF_INIT;

		r = line(o, VIEW_OVERVIEW, "");
		criterion_target(o, c);
		strbuf_addstr(&label, c->label);
		if (c->advisory)
			strbuf_addstr(&label, " (advisory)");
		strbuf_addf(&thr, "%s ", metrics_op_name(c->op));
		metrics_fmt_criterion(&thr, c, c->threshold);
		metrics_fmt_criterion(&val, c, c->value);
		row_add_str(r, 34, ROLE_DEFAULT, label.buf);
		row_add_str(r, -9, ROLE_DEFAULT, thr.buf);
		row_add_str(r, -9, ROLE_DEFAULT, val.buf);
		row_add_str(r, 0, c->pass ? ROLE_GOOD : c->advisory ? ROLE_WARN : ROLE_BAD,
			    c->pass ? "PASS" : "FAIL");
		strbuf_release(&label);
		strbuf_release(&thr);
		strbuf_release(&val);
	}
}

/* Main's record, when the store has one or an escape needs one. */
static void build_main(struct overview *o, const struct metrics *m, struct strbuf *sb)
{
	struct row_data *r;

	if (!m->main_runs && !m->escapes_base_unrun)
		return;
	r = line(o, VIEW_RUNS, "Main");
	points_to(o, VIEW_RUNS, "\\binherited\\b", NULL, false);
	strbuf_reset(sb);
	strbuf_addf(sb, "%" PRId64 " runs, %" PRId64 " pairs inherited, %zu red %s",
		    m->main_runs, m->class_counts[CLASS_INHERITED], m->nr_red_spans,
		    m->nr_red_spans == 1 ? "span" : "spans");
	if (!isnan(m->red_minutes_mean)) {
		strbuf_addstr(sb, " (");
		metrics_fmt(sb, "%.0f", m->red_minutes_mean);
		strbuf_addstr(sb, " min)");
	}
	if (m->escapes_base_unrun)
		strbuf_addf(sb, "; %" PRId64 " escapes on a base main never ran",
			    m->escapes_base_unrun);
	value(r, m->escapes_base_unrun ? ROLE_WARN : ROLE_DEFAULT, sb);
	/* The latest red spans, as the force-full reasons: minutes, who inherited, the test. */
	for (size_t i = 0; i < m->nr_red_spans && i < 3; i++) {
		const struct metrics_red_span *rs = &m->red_spans[m->nr_red_spans - 1 - i];

		r = line(o, VIEW_RUNS, "");
		points_to(o, VIEW_RUNS, "\\binherited\\b", NULL, false);
		strbuf_reset(sb);
		if (isnan(rs->minutes))
			strbuf_addstr(sb, "red now");
		else
			strbuf_addf(sb, "%.0f min", rs->minutes);
		row_add_str(r, -11, ROLE_DEFAULT, sb->buf);
		strbuf_reset(sb);
		strbuf_addf(sb, "%" PRId64 " inherited", rs->inherited_pairs);
		row_add_str(r, -13, ROLE_DEFAULT, sb->buf);
		row_add_str(r, 0, ROLE_DEFAULT, rs->test);
	}
}

/* A line of fixed text. */
static void text_line(struct overview *o, const char *label, enum tui_role role,
		      const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, text);
	value(line(o, VIEW_OVERVIEW, label), role, &sb);
	strbuf_release(&sb);
}

/*
 * No run in the window: what to run to get some (README: CI jobs), rather
 * than a screen of zeros and n/a.
 */
static void build_empty(struct overview *o, const struct metrics *m)
{
	bool all_time = m->since == INT64_MIN && m->until == INT64_MAX;

	text_line(o, "Store", ROLE_WARN, all_time ? "no runs yet; to fill it:"
		  : "no runs in this window (widen --since); to add some:");
	text_line(o, "Ingest", ROLE_DEFAULT, "tiadash ingest DIR|URL...  the run folders of CI");
	text_line(o, "Record", ROLE_DEFAULT, "tiadash record --kind shadow|full -- CMD  in each");
	text_line(o, "", ROLE_DEFAULT, "CI job (README: CI jobs, for GitHub and GitLab)");
	text_line(o, "Try", ROLE_DEFAULT, "make demo  the sample week, ingested and opened");
}

static void build(struct tui *t, struct overview *o)
{
	const struct metrics *m = &t->fig.m;
	struct sparks sp;
	int sw;
	struct strbuf sb = STRBUF_INIT;
	struct row_data *r;

	sparks_init(&sp, t, m);
	sw = sp.width;
	r = line(o, VIEW_OVERVIEW, "Window");
	metrics_fmt_window(&sb, m, false);
	value(r, ROLE_DEFAULT, &sb);
	if (!m->shadow_runs && !m->full_runs && !m->main_runs && !m->seeded.known) {
		build_empty(o, m);
		strbuf_release(&sb);
		return;
	}

	r = line(o, VIEW_RUNS, "Pairs");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " of %" PRId64 " heads; %" PRId64 " incomplete",
		    m->pairs, m->heads, m->class_counts[CLASS_INCOMPLETE]);
	value(r, ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_pairs);

	r = line(o, VIEW_RUNS, "Runs");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " shadow, %" PRId64 " full (every attempt)",
		    m->shadow_runs, m->full_runs);
	value(r, ROLE_DEFAULT, &sb);

	r = line(o, VIEW_DISAGREE, "Escapes");
	points_to(o, VIEW_DISAGREE, ALL_ESCAPES, NULL, false);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " of %" PRId64 " pairs (", m->escapes, m->pairs);
	metrics_fmt_pct(&sb, m->escape_rate, 2);
	strbuf_addf(&sb, "); %" PRId64 " explained, %" PRId64 " non-hermetic",
		    m->escapes_explained, m->non_hermetic);
	value(r, m->escapes > m->escapes_explained ? ROLE_BAD : ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_escapes);
	build_trust(o, m);

	r = line(o, VIEW_RUNS, "Affected");
	points_to(o, VIEW_RUNS, NULL, "affected", true);
	strbuf_reset(&sb);
	labelled(&sb, "p50 ", "%.3f", m->affected.p50);
	labelled(&sb, "  p95 ", "%.3f", m->affected.p95);
	labelled(&sb, "  mean ", "%.3f", m->affected.mean);
	labelled(&sb, "; narrowed p50 ", "%.3f", m->narrowed.p50);
	value(r, ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_affected);

	r = line(o, VIEW_RUNS, "Wall-clock");
	points_to(o, VIEW_RUNS, NULL, "shadow", true);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "shadow p50 ");
	metrics_fmt_secs(&sb, m->wall_shadow.p50);
	strbuf_addstr(&sb, " p95 ");
	metrics_fmt_secs(&sb, m->wall_shadow.p95);
	strbuf_addstr(&sb, "; full p50 ");
	metrics_fmt_secs(&sb, m->wall_full.p50);
	strbuf_addstr(&sb, " p95 ");
	metrics_fmt_secs(&sb, m->wall_full.p95);
	value(r, ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_wall);

	r = line(o, VIEW_RUNS, "Saving");
	strbuf_reset(&sb);
	metrics_fmt_pct(&sb, m->saving_p50, 1);
	strbuf_addstr(&sb, " at p50, ");
	metrics_fmt_pct(&sb, m->saving_p95, 1);
	strbuf_addstr(&sb, " at p95");
	value(r, ROLE_DEFAULT, &sb);

	r = line(o, VIEW_RUNS, "Trade");
	strbuf_reset(&sb);
	metrics_fmt(&sb, "%.1f", m->savings.saved_minutes_per_week / 60);
	strbuf_addstr(&sb, " runner-h saved a week; ");
	metrics_fmt(&sb, "%.1f", m->savings.escapes_per_week);
	strbuf_addstr(&sb, " escapes a week (at most ");
	metrics_fmt(&sb, "%.1f", m->savings.escapes_per_week_upper);
	strbuf_addch(&sb, ')');
	value(r, ROLE_DEFAULT, &sb);

	r = line(o, VIEW_RUNS, "Force-full");
	points_to(o, VIEW_RUNS, "\\brun_all\\b", NULL, false);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " of %" PRId64 " shadow runs (", m->force_full,
		    m->shadow_heads);
	metrics_fmt_pct(&sb, m->force_full_rate, 1);
	strbuf_addstr(&sb, ")");
	value(r, ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_ff);
	build_reasons(o, m);

	r = line(o, VIEW_DISAGREE, "Other");
	points_to(o, VIEW_DISAGREE, OTHER_DISAGREEMENTS, NULL, false);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64 " over-strict, %" PRId64 " flaky, %" PRId64
		    " quarantined", m->class_counts[CLASS_OVER_STRICT],
		    m->class_counts[CLASS_FLAKY], m->quarantined_pairs);
	value(r, ROLE_DEFAULT, &sb);

	build_main(o, m, &sb);

	r = line(o, VIEW_RUNS, "Diff cov.");
	points_to(o, VIEW_RUNS, NULL, "diff-coverage", false);
	strbuf_reset(&sb);
	labelled(&sb, "p50 ", "%.3f", m->diff_coverage.p50);
	labelled(&sb, "  mean ", "%.3f", m->diff_coverage.mean);
	strbuf_addf(&sb, "; %" PRId64 " of %zu below %.2f", m->below_threshold,
		    m->diff_coverage.n, m->threshold);
	value(r, ROLE_DEFAULT, &sb);
	if (sw)
		spark(r, &sp, day_dc);

	r = line(o, VIEW_OVERVIEW, "Shadow days");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%" PRId64, m->shadow_days);
	if (sw) {
		strbuf_addf(&sb, "; sparklines per %s, ", sp.unit);
		time_format_date(&sb, sp.v[sp.n - (size_t)sw].day);
		strbuf_addstr(&sb, " .. ");
		time_format_date(&sb, sp.v[sp.n - 1].day);
	}
	value(r, ROLE_DEFAULT, &sb);

	if (m->seeded.known) {
		const struct metrics_seeded *sd = &m->seeded;

		r = line(o, VIEW_OVERVIEW, "Seeded");
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%" PRId64 " mutants: subset %" PRId64 ", full %" PRId64
			    ", none %" PRId64 "; escape ", sd->valid, sd->counts[SEED_SUBSET],
			    sd->counts[SEED_FULL], sd->counts[SEED_NONE]);
		metrics_seeded_fmt_rate(&sb, &sd->rates[SEED_FULL]);
		value(r, sd->counts[SEED_FULL] ? ROLE_WARN : ROLE_DEFAULT, &sb);
	}
	build_gate(o, &t->fig.gate);
	strbuf_release(&sb);
	free(sp.weeks);
}

static void sync_rows(struct tui *t, struct overview *o)
{
	int64_t gen = t->fig.ready ? t->fig.generation : -1;

	if (o->generation == gen && o->cols == t->cols && o->rows.nr)
		return;
	targets_clear(o);
	row_list_clear(&o->rows);
	if (t->fig.ready)
		build(t, o);
	else
		build_pending(t, o);
	o->generation = gen;
	o->cols = t->cols;
}

static int overview_open(struct tui *t, struct view *v)
{
	struct overview *o = xcalloc(1, sizeof(*o));

	UNUSED(t);
	o->generation = -2;
	v->priv = o;
	return 0;
}

static void overview_reload(struct tui *t, struct view *v)
{
	struct overview *o = v->priv;

	UNUSED(t);
	o->generation = -2;
}

static size_t overview_lines(struct tui *t, struct view *v)
{
	sync_rows(t, v->priv);
	return ((struct overview *)v->priv)->rows.nr;
}

static void overview_row(struct tui *t, struct view *v, size_t lineno, struct row_data *row)
{
	struct overview *o = v->priv;

	sync_rows(t, o);
	if (lineno < o->rows.nr)
		row_copy(row, &o->rows.rows[lineno]);
}

static enum reaction overview_request(struct tui *t, struct view *v, enum request req)
{
	struct overview *o = v->priv;
	const struct target *tg;

	if (req != REQ_ENTER)
		return R_UNHANDLED;
	if (v->lineno >= o->rows.nr || o->targets[v->lineno].view == VIEW_OVERVIEW) {
		tui_message(t, false, "nothing to open on this line");
		return R_REDRAW;
	}
	tg = &o->targets[v->lineno];
	return tui_goto(t, tg->view, tg->filter, tg->sort, tg->desc);
}

static void overview_status(struct tui *t, struct view *v, struct strbuf *sb)
{
	UNUSED(v);
	if (!t->fig.ready)
		strbuf_addstr(sb, "computing the figures...");
	else
		strbuf_addf(sb, "%s", t->fig.gate.go ? "GO" : "NO-GO");
}

static void overview_save(struct tui *t, struct view *v, FILE *f)
{
	struct overview *o = v->priv;

	sync_rows(t, o);
	fprintf(f, "ready %s\n", t->fig.ready ? "yes" : "no");
	row_list_save(&o->rows, f);
}

static void overview_done(struct view *v)
{
	struct overview *o = v->priv;

	targets_clear(o);
	row_list_release(&o->rows);
	free(o->targets);
	free(o);
	v->priv = NULL;
}

const struct view_ops overview_view_ops = {
	.name = "overview",
	.title = "Overview",
	.keymap = KEYMAP_OVERVIEW,
	.open = overview_open,
	.reload = overview_reload,
	.lines = overview_lines,
	.row_data = overview_row,
	.request = overview_request,
	.status = overview_status,
	.save = overview_save,
	.done = overview_done,
};
