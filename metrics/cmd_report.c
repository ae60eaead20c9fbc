/* `tiadash report`: the window's calibration figures as text, markdown, JSON or per-pair CSV. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "adapters/ruleset.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "metrics/html.h"
#include "metrics/mainrec.h"
#include "metrics/queue.h"
#include "metrics/report_by.h"
#include "metrics/trust.h"

/* ---- JSON ---- */

static cJSON *json_obj(cJSON *parent, const char *key)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(parent, key, o);
	return o;
}

/* Keys made of untrusted text (reasons) must be valid UTF-8 as well. */
static void json_add_keyed(cJSON *obj, const char *key, cJSON *item)
{
	struct strbuf k = STRBUF_INIT;

	utf8_repair(&k, key, strlen(key));
	cJSON_AddItemToObject(obj, k.buf, item);
	strbuf_release(&k);
}

static cJSON *json_number(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void json_affected(cJSON *root, const struct metrics *m)
{
	cJSON *a = json_obj(root, "affected_fraction");

	json_add_number(a, "p50", m->affected.p50);
	json_add_number(a, "p95", m->affected.p95);
	json_add_number(a, "mean", m->affected.mean);
	json_add_number(a, "narrowed_p50", m->narrowed.p50);
	json_add_number(a, "narrowed_p95", m->narrowed.p95);
	json_add_number(a, "narrowed_mean", m->narrowed.mean);
	json_add_int(a, "runs", (int64_t)m->affected.n);
	json_add_int(a, "narrowed_runs", (int64_t)m->narrowed.n);
}

static void json_wall(cJSON *root, const struct metrics *m)
{
	cJSON *w = json_obj(root, "wall_clock_s");
	cJSON *sh = json_obj(w, "shadow"), *fu = json_obj(w, "full");
	cJSON *sv = json_obj(w, "saving");

	json_add_number(sh, "p50", m->wall_shadow.p50);
	json_add_number(sh, "p95", m->wall_shadow.p95);
	json_add_int(sh, "runs", (int64_t)m->wall_shadow.n);
	json_add_number(fu, "p50", m->wall_full.p50);
	json_add_number(fu, "p95", m->wall_full.p95);
	json_add_int(fu, "runs", (int64_t)m->wall_full.n);
	json_add_number(sv, "p50", m->saving_p50);
	json_add_number(sv, "p95", m->saving_p95);
}

static void json_force_full(cJSON *root, const struct metrics *m)
{
	cJSON *f = json_obj(root, "force_full");
	cJSON *by = cJSON_CreateObject(), *mins = cJSON_CreateObject();
	cJSON *ranked = cJSON_CreateArray();

	json_add_int(f, "count", m->force_full);
	json_add_number(f, "rate", m->force_full_rate);
	trust_json_rate(f, &m->force_full_bounds, false);
	for (size_t i = 0; i < m->nr_reasons; i++) {
		const struct metrics_reason *r = &m->reasons[i];
		cJSON *o = cJSON_CreateObject();

		json_add_keyed(by, r->reason, cJSON_CreateNumber((double)r->runs));
		json_add_keyed(mins, r->reason, json_number(r->minutes));
		json_add_string(o, "reason", r->reason);
		json_add_int(o, "runs", r->runs);
		json_add_number(o, "minutes", r->minutes);
		cJSON_AddItemToArray(ranked, o);
	}
	cJSON_AddItemToObject(f, "by_reason", by);
	cJSON_AddItemToObject(f, "minutes_by_reason", mins);
	cJSON_AddItemToObject(f, "ranked", ranked);
	json_add_number(f, "narrowed_wall_clock_p50", m->narrowed_wall_p50);
}

static void json_savings(cJSON *root, const struct metrics *m)
{
	const struct metrics_savings *sv = &m->savings;
	cJSON *o = json_obj(root, "savings"), *by = cJSON_CreateObject();

	json_add_int(o, "pairs", sv->pairs);
	json_add_number(o, "full_minutes", sv->full_minutes);
	json_add_number(o, "shadow_minutes", sv->shadow_minutes);
	json_add_number(o, "saved_minutes", sv->saved_minutes);
	json_add_number(o, "saved_minutes_per_day", sv->saved_minutes_per_day);
	json_add_number(o, "saved_minutes_per_week", sv->saved_minutes_per_week);
	json_add_number(o, "given_back_minutes", sv->given_back_minutes);
	json_add_number(o, "given_back_share", sv->given_back_share);
	for (size_t i = 0; i < m->nr_reasons; i++)
		json_add_keyed(by, m->reasons[i].reason, json_number(m->reasons[i].given_back));
	cJSON_AddItemToObject(o, "given_back_by_reason", by);
	o = json_obj(root, "escapes_per_week");
	json_add_number(o, "expected", sv->escapes_per_week);
	json_add_number(o, "upper", sv->escapes_per_week_upper);
	cJSON_AddItemToObject(o, "ci", trust_json_pair(sv->escapes_per_week_ci[0], sv->escapes_per_week_ci[1]));
}

static void json_escapes(cJSON *root, const struct metrics *m)
{
	cJSON *e = json_obj(root, "escapes");
	cJSON *prs = cJSON_CreateArray();

	json_add_int(e, "count", m->escapes);
	json_add_number(e, "rate", m->escape_rate);
	trust_json_escape_bounds(e, m);
	for (size_t i = 0; i < m->nr_escape_prs; i++)
		cJSON_AddItemToArray(prs, cJSON_CreateNumber((double)m->escape_prs[i]));
	cJSON_AddItemToObject(e, "prs", prs);
	json_add_int(e, "explained", m->escapes_explained);
	json_add_int(e, "unexplained", m->escapes - m->escapes_explained);
	/* 10^4 escapes and their tests: one node at a time (escape_node). */
	cJSON_AddItemToObject(e, "list", json_stream_slot());
}

/*
 * An escape's columns, once for json's list and md's table (core/table.h):
 * md names the change and lists the tests a pair ran but did not report
 * after the non-hermetic ones; json has each list and the facts apart.
 */
static const struct table_column escape_columns[] = {
	{ .key = "pr", .type = CELL_PR, .formats = FORMAT_JSON },
	{ .key = "head", .type = CELL_ID, .formats = FORMAT_JSON },
	{ .key = "repo", .type = CELL_TEXT, .formats = FORMAT_JSON },
	{ .key = "at", .type = CELL_TIME, .formats = FORMAT_JSON },
	{ .key = "change", .type = CELL_TEXT, .formats = FORMAT_MD },
	{ .key = "class", .type = CELL_CLASS, .formats = FORMAT_JSON | FORMAT_MD },
	{ .key = "missed", .head = "missed tests", .type = CELL_TEXT,
	  .formats = FORMAT_JSON | FORMAT_MD },
	{ .key = "missed_blind_spots", .type = CELL_TEXT, .formats = FORMAT_JSON },
	{ .key = "non_hermetic", .type = CELL_TEXT, .formats = FORMAT_JSON },
	{ .key = "selected (non-hermetic)", .type = CELL_TEXT, .formats = FORMAT_MD },
	{ .key = "not_run", .type = CELL_TEXT, .formats = FORMAT_JSON },
	{ .key = "explained", .type = CELL_BOOL, .formats = FORMAT_JSON },
	{ .key = "explained", .type = CELL_TEXT, .formats = FORMAT_MD },
	{ .key = "note", .type = CELL_TEXT, .formats = FORMAT_JSON },
};

static void escape_row(struct table *t, const struct metrics *m, const struct metrics_escape *x)
{
	const struct metrics_row *r = &m->rows[x->row];
	struct strlist blind = STRLIST_INIT, ran = STRLIST_INIT;
	struct strbuf change = STRBUF_INIT;

	for (size_t j = 0; j < x->missed.nr; j++)
		if (x->missed_blind[j])
			strlist_push(&blind, x->missed.items[j]);
	/* md: the selected tests that failed, then those not run, marked so */
	for (size_t j = 0; j < x->non_hermetic.nr; j++)
		strlist_push(&ran, x->non_hermetic.items[j]);
	for (size_t j = 0; j < x->not_run.nr; j++)
		strlist_push_owned(&ran, j ? xstrdup(x->not_run.items[j])
					   : xstrfmt("not run: %s", x->not_run.items[j]));
	metrics_fmt_change(&change, r);
	table_row(t);
	table_pr(t, r->has_pr, r->pr);
	table_str(t, r->sha);
	table_str(t, r->repo);
	table_time(t, r->at);
	/* "PR #434 8a1a2820ad6c": tiadash's words and numbers */
	table_word(t, change.buf);
	table_str(t, pair_class_name(r->cls));
	table_list(t, &x->missed);
	table_list(t, &blind);
	table_list(t, &x->non_hermetic);
	table_list(t, &ran);
	table_list(t, &x->not_run);
	table_bool(t, x->explained);
	table_str(t, x->explained && x->note ? x->note : x->explained ? "" : "no");
	table_str(t, x->note);
	strlist_release(&blind);
	strlist_release(&ran);
	strbuf_release(&change);
}

/* One escape's json object, from a table of its one row. */
static cJSON *json_escape(const struct metrics *m, const struct metrics_escape *x)
{
	struct table t = TABLE_INIT(escape_columns);
	cJSON *o;

	escape_row(&t, m, x);
	o = table_json_object(&t);
	table_release(&t);
	return o;
}

static cJSON *escape_node(size_t i, void *data)
{
	const struct metrics *m = data;

	return json_escape(m, &m->escape_list[i]);
}

static void json_classes(cJSON *root, const struct metrics *m)
{
	cJSON *c = json_obj(root, "classes");
	cJSON *inc = json_obj(root, "incomplete"), *why = cJSON_CreateObject();

	for (int i = 0; i < NR_PAIR_CLASSES; i++)
		json_add_int(c, pair_class_name((enum pair_class)i), m->class_counts[i]);
	json_add_int(json_obj(root, "non_hermetic"), "count", m->non_hermetic);
	{
		cJSON *o = json_obj(root, "over_strict");

		json_add_int(o, "count", m->class_counts[CLASS_OVER_STRICT]);
		trust_json_rate(o, &m->over_strict_bounds, true);
	}
	{
		cJSON *f = json_obj(root, "flaky");

		json_add_int(f, "count", m->class_counts[CLASS_FLAKY]);
		json_add_int(f, "tests", m->flaky_tests);
	}
	{
		cJSON *q = json_obj(root, "quarantined");

		json_add_int(q, "pairs", m->quarantined_pairs);
		json_add_int(q, "tests", m->quarantined_tests);
	}
	json_add_int(inc, "count", m->class_counts[CLASS_INCOMPLETE]);
	for (size_t i = 0; i < m->nr_incomplete; i++)
		json_add_int(why, m->incomplete[i].why, m->incomplete[i].heads);
	cJSON_AddItemToObject(inc, "by_reason", why);
}

static void json_days(cJSON *root, const struct metrics *m)
{
	cJSON *days = cJSON_CreateArray();

	for (size_t i = 0; i < m->nr_days; i++) {
		const struct metrics_day *d = &m->days[i];
		struct strbuf date = STRBUF_INIT;
		cJSON *o = cJSON_CreateObject();

		time_format_date(&date, d->day);
		json_add_string(o, "date", date.buf);
		report_by_json_figures(o, d);
		cJSON_AddItemToArray(days, o);
		strbuf_release(&date);
	}
	cJSON_AddItemToObject(root, "days", days);
}

/* The window's seeding experiment (metrics/seeded.h) and its escapes; null when none. */
static void json_seeded(cJSON *root, const struct metrics *m)
{
	const struct metrics_seeded *sd = &m->seeded;
	cJSON *o, *list;

	if (!sd->known) {
		cJSON_AddItemToObject(root, "seeded", cJSON_CreateNull());
		return;
	}
	o = json_obj(root, "seeded");
	metrics_seeded_json(o, sd);
	list = cJSON_CreateArray();
	for (size_t i = 0; i < sd->info.nr_mutants; i++) {
		const struct seed_mutant_info *x = &sd->info.mutants[i];
		cJSON *e;

		if (x->verdict != SEED_FULL)
			continue;
		e = cJSON_CreateObject();
		json_add_string(e, "path", x->path);
		json_add_int(e, "line", x->line);
		json_add_string(e, "operator", x->op);
		json_add_bool(e, "timed_out", x->timed_out);
		cJSON_AddItemToObject(e, "caught_by", json_strlist(&x->caught_by));
		cJSON_AddItemToArray(list, e);
	}
	cJSON_AddItemToObject(o, "escapes", list);
}

/* The merge queue with each gate, batches of 1 on one runner (`tiadash queue`). */
static void json_queue(cJSON *root, const struct metrics *m)
{
	struct queue_result cheap, full;
	cJSON *q = json_obj(root, "queue");

	queue_of_metrics(m, 1, 1, &cheap, &full);
	cJSON_AddItemToObject(q, "cheap", queue_json(&cheap));
	cJSON_AddItemToObject(q, "full", queue_json(&full));
}

static void print_json(const struct metrics *m)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *dc;

	metrics_json_window(root, m);
	json_add_int(root, "heads", m->heads);
	json_add_int(root, "shadow_runs", m->shadow_runs);
	json_add_int(root, "full_runs", m->full_runs);
	json_add_int(root, "pairs", m->pairs);
	json_affected(root, m);
	json_wall(root, m);
	json_force_full(root, m);
	json_savings(root, m);
	json_escapes(root, m);
	json_classes(root, m);
	mainrec_json(root, m);
	dc = json_obj(root, "diff_coverage");
	json_add_number(dc, "p50", m->diff_coverage.p50);
	json_add_number(dc, "mean", m->diff_coverage.mean);
	json_add_int(dc, "below_threshold", m->below_threshold);
	json_add_number(dc, "threshold", m->threshold);
	json_add_int(dc, "runs", (int64_t)m->diff_coverage.n);
	json_add_int(root, "shadow_days", m->shadow_days);
	json_add_number(root, "confidence", m->confidence);
	cJSON_AddItemToObject(root, "trend", trust_json_trend(&m->trend));
	cJSON_AddItemToObject(root, "blind_spots", trust_json_blind(&m->blind));
	cJSON_AddItemToObject(root, "verifier_changed", trust_json_verifier_all(m));
	json_add_identity(root, "identity", &m->identity);
	json_seeded(root, m);
	json_queue(root, m);
	json_days(root, m);
	json_print_nodes(root, stdout, m->nr_escape_list, escape_node, (void *)m);
}

/* ---- CSV: one row per head of the window ---- */

/* One row per head (and per run of main), every format's columns in one list. */
static const struct table_column head_columns[] = {
	{ .key = "pr", .type = CELL_COUNT },
	{ .key = "repo", .type = CELL_TEXT },
	{ .key = "head", .type = CELL_ID },
	{ .key = "at", .type = CELL_TIME },
	{ .key = "class", .type = CELL_CLASS },
	{ .key = "why", .type = CELL_TEXT },
	{ .key = "decision", .type = CELL_CLASS },
	{ .key = "affected_fraction", .type = CELL_RATE },
	{ .key = "shadow_wall_clock_s", .type = CELL_SECONDS },
	{ .key = "full_wall_clock_s", .type = CELL_SECONDS },
	{ .key = "diff_coverage", .type = CELL_RATE },
	{ .key = "missed", .type = CELL_COUNT },
	{ .key = "explained", .type = CELL_CLASS },
	{ .key = "shadow_attempts", .type = CELL_COUNT },
	{ .key = "full_attempts", .type = CELL_COUNT },
	{ .key = "missed_blind_spots", .type = CELL_COUNT },
	{ .key = "verifier_changed", .type = CELL_CLASS },
};

static void head_row(struct table *t, const struct metrics_row *r)
{
	table_row(t);
	table_count_known(t, r->has_pr, r->pr);
	table_str(t, r->repo);
	table_str(t, r->sha);
	table_time(t, r->at);
	table_str(t, pair_class_name(r->cls));
	table_str(t, r->why);
	table_str(t, r->decision == DECISION_NONE ? NULL : decision_name(r->decision));
	table_number(t, r->affected);
	table_number(t, r->shadow_wall_s);
	table_number(t, r->full_wall_s);
	table_number(t, r->diff_coverage);
	table_count(t, (int64_t)r->missed);
	table_str(t, r->explained ? "yes" : pair_class_is_escape(r->cls) ? "no" : NULL);
	table_count(t, r->shadow_attempts);
	table_count(t, r->full_attempts);
	table_count(t, (int64_t)r->missed_blind);
	table_str(t, r->verifier_changed ? "yes" : NULL);
}

static void print_csv(const struct metrics *m)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t = TABLE_INIT(head_columns);

	for (size_t i = 0; i < m->nr_rows; i++) {
		head_row(&t, &m->rows[i]);
		/* In chunks: a year of a million heads stays out of memory. */
		if (t.nr_rows == 1024 || i + 1 == m->nr_rows) {
			table_write(&t, FORMAT_CSV, &sb);
			table_release(&t);
			t.no_header = true;
			fwrite(sb.buf, 1, sb.len, stdout);
			strbuf_reset(&sb);
		}
	}
	if (!m->nr_rows)
		table_write(&t, FORMAT_CSV, &sb);
	metrics_flush(&sb);
}

/* ---- text and markdown ---- */

static const char *plural(int64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void text_label(struct metrics_out *o, const char *label)
{
	strbuf_addf(&o->sb, "%-13s", label);
}

static void dist_text(struct metrics_out *o, const struct metrics_dist *d, const char *unit)
{
	strbuf_addstr(&o->sb, "p50 ");
	metrics_fmt(&o->sb, "%.3f", d->p50);
	strbuf_addstr(&o->sb, "  p95 ");
	metrics_fmt(&o->sb, "%.3f", d->p95);
	strbuf_addstr(&o->sb, "  mean ");
	metrics_fmt(&o->sb, "%.3f", d->mean);
	strbuf_addf(&o->sb, "  (%zu %s)\n", d->n, unit);
}

static void text_overview(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	text_label(o, "Window");
	metrics_fmt_window(sb, m, false);
	strbuf_addch(sb, '\n');
	text_label(o, "Runs");
	strbuf_addf(sb, "%" PRId64 " shadow, %" PRId64 " full (every attempt)\n",
		    m->shadow_runs, m->full_runs);
	text_label(o, "Pairs");
	strbuf_addf(sb, "%" PRId64 " of %" PRId64 " heads; %" PRId64 " incomplete\n",
		    m->pairs, m->heads, m->class_counts[CLASS_INCOMPLETE]);
	for (size_t i = 0; i < m->nr_incomplete; i++) {
		text_label(o, "");
		strbuf_addf(sb, "  %" PRId64 " %s\n", m->incomplete[i].heads,
			    m->incomplete[i].why);
	}
	text_label(o, "Affected");
	dist_text(o, &m->affected, "runs");
	text_label(o, "  narrowed");
	dist_text(o, &m->narrowed, "runs");
}

static void wall_cell(struct strbuf *sb, double v, bool pct)
{
	struct strbuf cell = STRBUF_INIT;

	if (pct)
		metrics_fmt_pct(&cell, v, 1);
	else
		metrics_fmt_secs(&cell, v);
	strbuf_addf(sb, "%10s", cell.buf);
	strbuf_release(&cell);
}

static void text_wall(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	text_label(o, "Wall-clock");
	strbuf_addf(sb, "%-8s%10s%10s\n", "", "p50", "p95");
	text_label(o, "");
	strbuf_addf(sb, "%-8s", "shadow");
	wall_cell(sb, m->wall_shadow.p50, false);
	wall_cell(sb, m->wall_shadow.p95, false);
	strbuf_addf(sb, "  (%zu runs)\n", m->wall_shadow.n);
	text_label(o, "");
	strbuf_addf(sb, "%-8s", "full");
	wall_cell(sb, m->wall_full.p50, false);
	wall_cell(sb, m->wall_full.p95, false);
	strbuf_addf(sb, "  (%zu runs)\n", m->wall_full.n);
	text_label(o, "");
	strbuf_addf(sb, "%-8s", "saving");
	wall_cell(sb, m->saving_p50, true);
	wall_cell(sb, m->saving_p95, true);
	strbuf_addch(sb, '\n');
}

/* "1234.5 of 5678.9 gate minutes over 295 pairs (98.0 a week)". */
static void fmt_saved(struct strbuf *sb, const struct metrics_savings *sv)
{
	metrics_fmt(sb, "%.1f", sv->saved_minutes);
	strbuf_addstr(sb, " of ");
	metrics_fmt(sb, "%.1f", sv->full_minutes);
	strbuf_addf(sb, " gate minutes over %" PRId64 " %s (", sv->pairs,
		    plural(sv->pairs, "pair", "pairs"));
	metrics_fmt(sb, "%.1f", sv->saved_minutes_per_week);
	strbuf_addstr(sb, " a week)");
}

/* "123.4 minutes (9.1% of the saving)". */
static void fmt_given_back(struct strbuf *sb, const struct metrics_savings *sv)
{
	metrics_fmt(sb, "%.1f", sv->given_back_minutes);
	strbuf_addstr(sb, " minutes (");
	metrics_fmt_pct(sb, sv->given_back_share, 1);
	strbuf_addstr(sb, " of the saving)");
}

static void text_savings(struct metrics_out *o, const struct metrics *m)
{
	text_label(o, "Saved");
	fmt_saved(&o->sb, &m->savings);
	strbuf_addch(&o->sb, '\n');
	text_label(o, "");
	strbuf_addstr(&o->sb, "force-full runs gave back ");
	fmt_given_back(&o->sb, &m->savings);
	strbuf_addch(&o->sb, '\n');
	text_label(o, "The trade");
	metrics_fmt_trade(&o->sb, m);
	strbuf_addch(&o->sb, '\n');
}

static void text_force_full(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	text_label(o, "Force-full");
	strbuf_addf(sb, "%" PRId64 " of %" PRId64 " shadow runs (", m->force_full,
		    m->shadow_heads);
	metrics_fmt_pct(sb, m->force_full_rate, 1);
	strbuf_addstr(sb, "); narrowed p50 ");
	metrics_fmt_secs(sb, m->narrowed_wall_p50);
	strbuf_addch(sb, '\n');
	if (!m->nr_reasons)
		return;
	text_label(o, "");
	strbuf_addf(sb, "%6s %9s  %s\n", "runs", "minutes",
		    "reason (minutes beyond the narrowed p50)");
	for (size_t i = 0; i < m->nr_reasons; i++) {
		const struct metrics_reason *r = &m->reasons[i];
		struct strbuf mins = STRBUF_INIT;

		metrics_fmt(&mins, "%.1f", r->minutes);
		text_label(o, "");
		strbuf_addf(sb, "%6" PRId64 " %9s  ", r->runs, mins.buf);
		metrics_put_text(o, r->reason);
		strbuf_addch(sb, '\n');
		strbuf_release(&mins);
	}
}

/* Test ids on lines of their own, indented 4, so ids up to 76 columns fit. */
static void text_test_list(struct metrics_out *o, const struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		strbuf_addstr(&o->sb, "    ");
		metrics_put_text(o, l->items[i]);
		strbuf_addch(&o->sb, '\n');
	}
}

/* The escapes, their classes in colour when color (a terminal's). */
static void text_escapes(struct metrics_out *o, const struct metrics *m, bool color)
{
	struct strbuf *sb = &o->sb;

	text_label(o, "Escapes");
	strbuf_addf(sb, "%" PRId64 " of %" PRId64 " pairs (", m->escapes, m->pairs);
	metrics_fmt_pct(sb, m->escape_rate, 2);
	strbuf_addf(sb, "); %" PRId64 " explained, %" PRId64 " non-hermetic\n",
		    m->escapes_explained, m->non_hermetic);
	for (size_t i = 0; i < m->nr_escape_list; i++) {
		const struct metrics_escape *e = &m->escape_list[i];
		const struct metrics_row *r = &m->rows[e->row];

		strbuf_addstr(sb, "  ");
		metrics_fmt_change(sb, r);
		strbuf_addch(sb, ' ');
		metrics_put_class(o, r->cls, color);
		if (*r->repo && !*m->repo) {
			strbuf_addch(sb, ' ');
			metrics_put_text(o, r->repo);
		}
		if (e->missed.nr)
			strbuf_addf(sb, ", %zu missed", e->missed.nr);
		if (e->non_hermetic.nr)
			strbuf_addf(sb, ", %zu selected and failed", e->non_hermetic.nr);
		if (e->not_run.nr)
			strbuf_addf(sb, ", %zu selected, not run", e->not_run.nr);
		strbuf_addch(sb, '\n');
		text_test_list(o, &e->missed);
		if (e->missed.nr && e->non_hermetic.nr)
			strbuf_addstr(sb, "   selected and failed:\n");
		text_test_list(o, &e->non_hermetic);
		if (e->not_run.nr && (e->missed.nr || e->non_hermetic.nr))
			strbuf_addstr(sb, "   selected, not run:\n");
		text_test_list(o, &e->not_run);
		if (e->explained) {
			strbuf_addstr(sb, "    explained: ");
			metrics_put_text(o, e->note);
			strbuf_addch(sb, '\n');
		}
	}
}

/* "12 of 14 failing tests resolved (2 by suite name)" */
static void identity_failing(struct strbuf *sb, const struct identity_figures *f)
{
	strbuf_addf(sb, "%" PRId64 " of %" PRId64 " failing %s resolved", f->resolved,
		    f->failing_tests, plural(f->failing_tests, "test", "tests"));
	if (f->by_name)
		strbuf_addf(sb, " (%" PRId64 " by suite name)", f->by_name);
}

/* "3 of 120 selection entries select no test" (empty when no run could tell) */
static void identity_entries(struct strbuf *sb, const struct identity_figures *f)
{
	if (f->has_unmatched)
		strbuf_addf(sb, "%" PRId64 " of %" PRId64 " selection %s no test",
			    f->entries_unmatched, f->selection_entries,
			    f->selection_entries == 1 ? "entry selects" : "entries select");
}

/* "2 of 9 quarantine lines name no test file or suite" (empty when every one does) */
static void identity_quarantine(struct strbuf *sb, const struct identity_figures *f)
{
	if (f->quarantine_unresolved)
		strbuf_addf(sb, "%" PRId64 " of %" PRId64 " quarantine %s no test file or suite",
			    f->quarantine_unresolved, f->quarantine_lines,
			    f->quarantine_lines == 1 ? "line names" : "lines name");
}

/* The unresolved ids shown in text and markdown; the json lists IDENTITY_LISTED. */
#define IDENTITY_SHOWN 5

/* Up to IDENTITY_SHOWN of l, one a line, and how many more there are of all. */
static void text_names(struct metrics_out *o, const struct strlist *l, int64_t all,
		       const char *what)
{
	for (size_t i = 0; i < l->nr && i < IDENTITY_SHOWN; i++) {
		strbuf_addstr(&o->sb, "    ");
		metrics_put_text(o, l->items[i]);
		strbuf_addch(&o->sb, '\n');
	}
	if (l->nr > IDENTITY_SHOWN)
		strbuf_addf(&o->sb, "    ... (%" PRId64 " %s in all; --format json "
			    "lists them)\n", all, what);
}

static void text_identity(struct metrics_out *o, const struct metrics *m)
{
	const struct strlist *l = &m->identity.unresolved;

	text_label(o, "Identity");
	identity_failing(&o->sb, &m->identity);
	strbuf_addch(&o->sb, '\n');
	if (m->identity.has_unmatched) {
		text_label(o, "");
		identity_entries(&o->sb, &m->identity);
		strbuf_addch(&o->sb, '\n');
	}
	text_names(o, l, m->identity.failing_tests - m->identity.resolved, "unresolved");
	if (m->identity.quarantine_unresolved) {
		text_label(o, "");
		identity_quarantine(&o->sb, &m->identity);
		strbuf_addch(&o->sb, '\n');
		text_names(o, &m->identity.quarantine_names, m->identity.quarantine_unresolved,
			   "such lines");
	}
}

static void text_seeded(struct metrics_out *o, const struct metrics *m)
{
	if (!m->seeded.known)
		return;
	text_label(o, "Seeded");
	metrics_seeded_summary(&o->sb, &m->seeded);
	strbuf_addch(&o->sb, '\n');
	metrics_seeded_rows(&o->sb, &m->seeded, "               ");
}

/* The merge queue with each gate, batches of 1 on one runner (`tiadash queue`). */
static void text_queue(struct metrics_out *o, const struct metrics *m)
{
	struct queue_result cheap, full;

	queue_of_metrics(m, 1, 1, &cheap, &full);
	text_label(o, "Queue, cheap");
	queue_fmt_line(&o->sb, &cheap);
	strbuf_addch(&o->sb, '\n');
	text_label(o, "Queue, full");
	queue_fmt_line(&o->sb, &full);
	strbuf_addch(&o->sb, '\n');
}

static void text_rest(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;
	int64_t unresolved = m->class_counts[CLASS_UNRESOLVED];

	if (unresolved) {
		text_label(o, "Unresolved");
		strbuf_addf(sb, "%" PRId64 " %s: a failing test names no test file, not escapes"
			    " (Identity)\n", unresolved, plural(unresolved, "pair", "pairs"));
	}

	text_label(o, "Over-strict");
	strbuf_addf(sb, "%" PRId64 " %s (shadow failed, full passed)\n",
		    m->class_counts[CLASS_OVER_STRICT],
		    plural(m->class_counts[CLASS_OVER_STRICT], "pair", "pairs"));
	text_label(o, "Flaky");
	strbuf_addf(sb, "%" PRId64 " %s (%" PRId64 " %s passed on a rerun)\n",
		    m->class_counts[CLASS_FLAKY],
		    plural(m->class_counts[CLASS_FLAKY], "pair", "pairs"),
		    m->flaky_tests, plural(m->flaky_tests, "test", "tests"));
	text_label(o, "Quarantined");
	strbuf_addf(sb, "%" PRId64 " %s (%" PRId64 " quarantined %s failed)\n",
		    m->quarantined_pairs, plural(m->quarantined_pairs, "pair", "pairs"),
		    m->quarantined_tests, plural(m->quarantined_tests, "test", "tests"));
	text_label(o, "Diff cov.");
	strbuf_addstr(sb, "p50 ");
	metrics_fmt(sb, "%.3f", m->diff_coverage.p50);
	strbuf_addstr(sb, "  mean ");
	metrics_fmt(sb, "%.3f", m->diff_coverage.mean);
	strbuf_addf(sb, "  below %.2f: %" PRId64 " of %zu runs\n", m->threshold,
		    m->below_threshold, m->diff_coverage.n);
	text_label(o, "Shadow days");
	strbuf_addf(sb, "%" PRId64 "\n", m->shadow_days);
	text_identity(o, m);
	text_queue(o, m);
}

/*
 * The per-day table in f, text or md (report_by.h's, shared with --by's):
 * after a blank line, in md under its heading; md's interval names the
 * confidence.
 */
static void write_days(struct metrics_out *o, const struct metrics *m, enum output_format f)
{
	struct period_table pt;

	if (!m->nr_days)
		return;
	report_period_table(&pt, PERIODS_OF_REPORT, PERIOD_DAY, m->confidence);
	for (size_t i = 0; i < m->nr_days; i++)
		report_period_row(&pt, &m->days[i]);
	strbuf_addstr(&o->sb, f == FORMAT_MD ? "\n## Per day\n\n" : "\n");
	table_write(&pt.t, f, &o->sb);
	report_period_release(&pt);
}

static void print_text(const struct metrics *m, bool color)
{
	struct metrics_out o = { STRBUF_INIT, false };

	text_overview(&o, m);
	text_wall(&o, m);
	text_savings(&o, m);
	text_force_full(&o, m);
	text_escapes(&o, m, color);
	mainrec_text(&o, m);
	text_rest(&o, m);
	trust_text(&o, m);
	text_seeded(&o, m);
	write_days(&o, m, FORMAT_TEXT);
	metrics_flush(&o.sb);
}

/* The overview's figures, a row each: tiadash's labels and sentences (md as written). */
static const struct table_column figure_columns[] = {
	{ .key = "figure", .type = CELL_TEXT },
	{ .key = "value", .type = CELL_TEXT },
};

static void md_row(struct table *t, const char *figure, const char *value)
{
	table_row(t);
	table_word(t, figure);
	table_word(t, value);
}

static void md_dist(struct table *o, const char *what, const struct metrics_dist *d)
{
	struct strbuf v = STRBUF_INIT;

	metrics_fmt(&v, "%.3f", d->p50);
	strbuf_addstr(&v, " / ");
	metrics_fmt(&v, "%.3f", d->p95);
	strbuf_addstr(&v, " / ");
	metrics_fmt(&v, "%.3f", d->mean);
	strbuf_addf(&v, " (%zu runs)", d->n);
	md_row(o, what, v.buf);
	strbuf_release(&v);
}

static void md_queue(struct table *o, const struct metrics *m)
{
	struct queue_result cheap, full;
	struct strbuf v = STRBUF_INIT;

	queue_of_metrics(m, 1, 1, &cheap, &full);
	queue_fmt_line(&v, &cheap);
	md_row(o, "merge queue, cheap gate (batches of 1)", v.buf);
	strbuf_reset(&v);
	queue_fmt_line(&v, &full);
	md_row(o, "merge queue, full gate (batches of 1)", v.buf);
	strbuf_release(&v);
}

static void md_overview(struct metrics_out *out, const struct metrics *m)
{
	struct strbuf v = STRBUF_INIT, label = STRBUF_INIT;
	struct table figures = TABLE_INIT(figure_columns), *o = &figures;

	strbuf_addstr(&out->sb, "# tiadash report\n\nWindow: ");
	metrics_fmt_window(&out->sb, m, true);
	strbuf_addstr(&out->sb, "\n\n");
	strbuf_addf(&v, "%" PRId64 " shadow, %" PRId64 " full", m->shadow_runs, m->full_runs);
	md_row(o, "runs (every attempt)", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64 " of %" PRId64 " heads, %" PRId64 " incomplete",
		    m->pairs, m->heads, m->class_counts[CLASS_INCOMPLETE]);
	md_row(o, "pairs", v.buf);
	md_dist(o, "affected fraction p50 / p95 / mean", &m->affected);
	md_dist(o, "narrowed affected fraction p50 / p95 / mean", &m->narrowed);
	strbuf_reset(&v);
	metrics_fmt_secs(&v, m->wall_shadow.p50);
	strbuf_addstr(&v, " / ");
	metrics_fmt_secs(&v, m->wall_shadow.p95);
	md_row(o, "shadow wall-clock p50 / p95", v.buf);
	strbuf_reset(&v);
	metrics_fmt_secs(&v, m->wall_full.p50);
	strbuf_addstr(&v, " / ");
	metrics_fmt_secs(&v, m->wall_full.p95);
	md_row(o, "full wall-clock p50 / p95", v.buf);
	strbuf_reset(&v);
	metrics_fmt_pct(&v, m->saving_p50, 1);
	strbuf_addstr(&v, " / ");
	metrics_fmt_pct(&v, m->saving_p95, 1);
	md_row(o, "saving p50 / p95", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64 " of %" PRId64 " (", m->force_full, m->shadow_heads);
	metrics_fmt_pct(&v, m->force_full_rate, 1);
	strbuf_addch(&v, ')');
	md_row(o, "force-full runs", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64 " of %" PRId64 " pairs (", m->escapes, m->pairs);
	metrics_fmt_pct(&v, m->escape_rate, 2);
	strbuf_addf(&v, "), %" PRId64 " explained, %" PRId64 " non-hermetic",
		    m->escapes_explained, m->non_hermetic);
	md_row(o, "escapes", v.buf);
	if (m->class_counts[CLASS_UNRESOLVED]) {
		strbuf_reset(&v);
		strbuf_addf(&v, "%" PRId64 " (not escapes: a failing test names no test file)",
			    m->class_counts[CLASS_UNRESOLVED]);
		md_row(o, "unresolved pairs", v.buf);
	}
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64, m->class_counts[CLASS_OVER_STRICT]);
	md_row(o, "over-strict pairs", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64 " (%" PRId64 " tests)", m->class_counts[CLASS_FLAKY],
		    m->flaky_tests);
	md_row(o, "flaky pairs", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64 " (%" PRId64 " tests)", m->quarantined_pairs,
		    m->quarantined_tests);
	md_row(o, "pairs with quarantined failures", v.buf);
	strbuf_reset(&v);
	metrics_fmt(&v, "%.3f", m->diff_coverage.p50);
	strbuf_addstr(&v, " / ");
	metrics_fmt(&v, "%.3f", m->diff_coverage.mean);
	strbuf_addf(&v, "; %" PRId64 " of %zu runs below %.2f", m->below_threshold,
		    m->diff_coverage.n, m->threshold);
	md_row(o, "diff coverage p50 / mean", v.buf);
	strbuf_reset(&v);
	strbuf_addf(&v, "%" PRId64, m->shadow_days);
	md_row(o, "days with shadow runs", v.buf);
	strbuf_reset(&v);
	identity_failing(&v, &m->identity);
	if (m->identity.has_unmatched)
		strbuf_addstr(&v, "; ");
	identity_entries(&v, &m->identity);
	if (m->identity.quarantine_unresolved)
		strbuf_addstr(&v, "; ");
	identity_quarantine(&v, &m->identity);
	md_row(o, "test identity", v.buf);
	strbuf_reset(&v);
	fmt_saved(&v, &m->savings);
	md_row(o, "gate minutes saved", v.buf);
	strbuf_reset(&v);
	fmt_given_back(&v, &m->savings);
	md_row(o, "given back by force-full runs", v.buf);
	strbuf_reset(&v);
	metrics_fmt_trade(&v, m);
	md_row(o, "the trade", v.buf);
	md_queue(o, m);
	for (int k = 0; m->seeded.known && k < NR_SEED_CLASSES; k++) {
		strbuf_reset(&v);
		strbuf_addf(&v, "%" PRId64 " of %" PRId64 ": ", m->seeded.counts[k],
			    m->seeded.valid);
		metrics_seeded_fmt_rate(&v, &m->seeded.rates[k]);
		strbuf_reset(&label);
		strbuf_addf(&label, "seeded defects %s",
			    metrics_seeded_label((enum seed_verdict)k));
		md_row(o, label.buf, v.buf);
	}
	table_write(&figures, FORMAT_MD, &out->sb);
	table_release(&figures);
	strbuf_release(&label);
	strbuf_release(&v);
}

static const struct table_column reason_columns[] = {
	{ .key = "reason", .type = CELL_TEXT },
	{ .key = "runs", .type = CELL_COUNT },
	{ .key = "minutes", .type = CELL_MINUTES, .plain = true, .na = "n/a" },
};

static void md_force_full(struct metrics_out *o, const struct metrics *m)
{
	struct table t = TABLE_INIT(reason_columns);

	if (!m->nr_reasons)
		return;
	strbuf_addstr(&o->sb, "\n## Force-full reasons\n\n"
		      "Ranked by the gate minutes beyond a narrowed run (p50 ");
	metrics_fmt_secs(&o->sb, m->narrowed_wall_p50);
	strbuf_addstr(&o->sb, ").\n\n");
	for (size_t i = 0; i < m->nr_reasons; i++) {
		table_row(&t);
		table_str(&t, m->reasons[i].reason);
		table_count(&t, m->reasons[i].runs);
		table_number(&t, m->reasons[i].minutes);
	}
	table_write(&t, FORMAT_MD, &o->sb);
	table_release(&t);
}

static void md_escapes(struct metrics_out *o, const struct metrics *m)
{
	struct table t = TABLE_INIT(escape_columns);

	if (!m->nr_escape_list)
		return;
	strbuf_addstr(&o->sb, "\n## Escapes\n\n");
	for (size_t i = 0; i < m->nr_escape_list; i++)
		escape_row(&t, m, &m->escape_list[i]);
	table_write(&t, FORMAT_MD, &o->sb);
	table_release(&t);
}

static void print_md(const struct metrics *m)
{
	struct metrics_out o = { STRBUF_INIT, true };

	md_overview(&o, m);
	md_force_full(&o, m);
	md_escapes(&o, m);
	mainrec_text(&o, m);
	trust_md(&o, m);
	write_days(&o, m, FORMAT_MD);
	metrics_flush(&o.sb);
}

static struct metrics_args report_args;
static enum metrics_period report_by;
static bool report_by_period;

static int report_by_cb(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	UNUSED(o);
	if (!metrics_period_parse(arg, &report_by))
		return usage_error(p->cmd, "bad value '%s' for --by (day, week or month)", arg);
	report_by_period = true;
	return 0;
}

static const struct opt report_opts[] = {
	OPT_METRICS_SINCE(&report_args, "window start, inclusive: 1y, 7d, 24h, 90m (before "
			  "now), a date (00:00 UTC) or an RFC 3339 time (default: unbounded)"),
	OPT_METRICS_UNTIL(&report_args, "window end, exclusive (default: unbounded)"),
	OPT_METRICS_PROJECT(&report_args),
	OPT_METRICS_THRESHOLD(&report_args, "diff-coverage threshold (default 0.7)"),
	OPT_METRICS_CONFIDENCE(&report_args, "of the bounds: 0.90, 0.95 (default) or 0.99"),
	OPT_CALLBACK(0, "by", NULL, "P", "the headline figures per day, week (from Monday) "
		     "or month instead, a row (a chart in html) each", report_by_cb),
	OPT_FORMAT_HELP(&report_args.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			FORMAT_CSV | FORMAT_HTML, "text (default), md, json, csv (one row per "
			"head, or per period), or html (one self-contained page with charts)"),
	OPT_OUTPUT(),
	OPT_METRICS_COLOR(&report_args, "the escapes' classes " METRICS_COLOR_HELP),
	OPT_END(),
};

/* The rules in effect or built-ins the changed paths of one head meet, once each. */
static char *head_rules(struct store *st, const struct ruleset *set, const char *sha)
{
	struct pair_info pair;
	struct diff_info diff;
	const struct run_info *r;
	struct strbuf sb = STRBUF_INIT;

	if (query_pair_by_sha(st, sha, &pair) != 0)
		return NULL;
	r = pair_latest(&pair, RUN_SHADOW);
	if (!r || !r->diff_id)
		r = pair_latest(&pair, RUN_FULL);
	if (r && r->diff_id && query_diff(st, r->diff_id, &diff) == 0) {
		for (size_t i = 0; i < diff.nr; i++) {
			struct strbuf rule = STRBUF_INIT;

			/* Only the paths a rule speaks of: the page has two sheets. */
			ruleset_path_text(set, diff.files[i].path, &rule);
			if (strcmp(rule.buf, "no rule") && !strstr(sb.buf, rule.buf))
				strbuf_addf(&sb, "%s%s", sb.len ? "; " : "", rule.buf);
			strbuf_release(&rule);
		}
		diff_info_release(&diff);
	}
	pair_info_release(&pair);
	return sb.len ? strbuf_detach(&sb, NULL) : (strbuf_release(&sb), NULL);
}

/*
 * The page's escapes name each changed path's rule as every view does: the
 * rules in effect found in the repository, the built-ins as suggestions.
 */
static int escape_rules(struct cmd_context *ctx, struct metrics *m)
{
	struct ruleset set = RULESET_INIT;

	if (ruleset_resolve(&set, NULL, ctx->repo_path, RULESET_BUILTIN) < 0) {
		ruleset_release(&set);
		return -1;
	}
	for (size_t i = 0; i < m->nr_escape_list; i++)
		m->escape_list[i].rules = head_rules(ctx->store, &set,
						     m->rows[m->escape_list[i].row].sha);
	ruleset_release(&set);
	return 0;
}

static int run_report(int argc, char **argv, struct cmd_context *ctx)
{
	struct metrics_args a;
	struct metrics m;
	enum metrics_period by;
	bool by_period;
	int argi, rc;

	metrics_args_init(&report_args, &cmd_report, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			  FORMAT_CSV | FORMAT_HTML);
	report_by_period = false;
	if (parse_options(argc, argv, &cmd_report, ctx, &argi))
		return EXIT_INPUT_ERROR;
	a = report_args;
	by = report_by;
	by_period = report_by_period;
	if (argi < argc)
		return usage_error(&cmd_report, "unexpected argument '%s'", argv[argi]);
	if ((rc = metrics_args_check(&a)))
		return rc;
	/* Only csv (a row a head) and html (its charts) read every head's row. */
	if ((a.format == FORMAT_HTML || (!by_period && a.format == FORMAT_CSV)
	     ? metrics_load_args(ctx, &a, &m)
	     : metrics_load_figures(ctx, &a, by_period ? (int)by + 1 : 0, &m)) < 0) {
		metrics_release(&m);
		return EXIT_INPUT_ERROR;
	}
	if (by_period) {
		if (a.format == FORMAT_TEXT)
			text_fit_stdout();
		report_by_print(&m, by, a.format, ctx->now);
		metrics_release(&m);
		return EXIT_OKAY;
	}
	switch (a.format) {
	case FORMAT_JSON: print_json(&m); break;
	case FORMAT_CSV: print_csv(&m); break;
	case FORMAT_MD: print_md(&m); break;
	case FORMAT_HTML:
		if (escape_rules(ctx, &m) < 0) {
			metrics_release(&m);
			return EXIT_INPUT_ERROR;
		}
		metrics_html_report(&m, ctx->now, stdout);
		break;
	default: text_fit_stdout(); print_text(&m, color_wanted(a.color)); break;
	}
	metrics_release(&m);
	return EXIT_OKAY;
}

const struct cmd cmd_report = {
	.name = "report",
	.fn = run_report,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash report [--since WHEN] [--until WHEN] [--project NAME] "
		 "[--threshold X] [--confidence C] [--escape-target X] [--by day|week|month] "
		 "[--format text|md|json|csv|html] [-o FILE] [--color[=WHEN]]",
	.summary = "The calibration figures of a window (text, md, json, csv).",
	.opts = report_opts,
};
