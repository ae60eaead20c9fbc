/* Replay's HTML page: force-full rate and misses of the baseline against the what-if, the totals, the changes. */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/html.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "replay/replay.h"

/* Rows of the changes table before "and N more"; tests per cell; bars. */
#define PAGE_CHANGES 300
#define PAGE_TESTS 5
#define CHART_REASONS 12

static void window_text(struct strbuf *sb, const struct replay_run *run)
{
	time_format(sb, run->since);
	strbuf_addstr(sb, " to ");
	if (run->until == INT64_MAX)
		strbuf_addstr(sb, "now");
	else
		time_format(sb, run->until);
}

static void header(struct strbuf *sb, const struct replay_run *run, int64_t now)
{
	const char *branch = run->branch ? run->branch : "HEAD";
	struct strbuf title = STRBUF_INIT, line = STRBUF_INIT;

	strbuf_addf(&title, "tiadash replay of %s at %.12s", branch, run->history.tip);
	html_begin(sb, "replay", title.buf);
	strbuf_addstr(sb, "<header><h1>tiadash replay</h1><span class=\"window\">of ");
	html_code(sb, branch);
	strbuf_addf(sb, " at <code data-key=\"tip\" data-value=\"%s\">%.12s</code>, ",
		    run->history.tip, run->history.tip);
	window_text(&line, run);
	html_escape(sb, line.buf);
	strbuf_addstr(sb, "</span>");
	html_header_end(sb, now);
	strbuf_addstr(sb, "<p class=\"note\">rules: ");
	if (run->has_proposal)
		strbuf_addf(sb, "baseline %zu, proposal %zu", run->baseline.nr, run->proposal.nr);
	else
		strbuf_addf(sb, "%zu in effect", run->baseline.nr);
	for (size_t i = 0; i < run->rule_files.nr; i++) {
		strbuf_addstr(sb, i ? ", " : " from ");
		html_code(sb, run->rule_files.items[i]);
	}
	if (run->builtin.nr)
		strbuf_addf(sb, ", %zu built-in what-if", run->builtin.nr);
	strbuf_addstr(sb, "; selector: ");
	if (run->selector.cmd)
		html_code(sb, run->selector.cmd);
	else
		strbuf_addstr(sb, "none");
	strbuf_addf(sb, "; store: %s</p>\n", run->has_store ? "yes" : "none");
	strbuf_release(&title);
	strbuf_release(&line);
}

/* A big figure: its JSON key and value, shown as the text shows it. */
static void tile_count(struct strbuf *sb, const char *key, size_t n, const char *label)
{
	char *shown = xstrfmt("%zu", n);

	html_tile(sb, key, (double)n, shown, label);
	free(shown);
}

static void tile_rate(struct strbuf *sb, const char *key, double v, const char *label)
{
	char *shown = isnan(v) ? xstrdup("n/a") : xstrfmt("%.1f%%", 100.0 * v);

	html_tile(sb, key, v, shown, label);
	free(shown);
}

static void tile_minutes(struct strbuf *sb, const char *key, double v, const char *label)
{
	char *shown = replay_text_minutes(v);

	html_tile(sb, key, v, shown, label);
	free(shown);
}

static void tiles(struct strbuf *sb, const struct replay_run *run)
{
	const struct replay_totals *t = &run->tb;

	strbuf_addstr(sb, "<div class=\"tiles\">\n");
	tile_count(sb, "totals.changes", t->changes, "changes replayed");
	if (!run->has_proposal) {
		tile_rate(sb, "totals.force_full_rate", replay_rate(t->force_full, t->changes),
			  "force-full rate");
		tile_count(sb, "totals.misses", t->misses, "missed tests");
		tile_count(sb, "totals.missed_changes", t->missed_changes, "changes with a miss");
		tile_minutes(sb, "totals.gate_minutes", t->minutes, "estimated gate minutes");
	} else {
		tile_rate(sb, "comparison.force_full_rate_before",
			  replay_rate(t->force_full, t->changes), "force-full rate, baseline");
		tile_rate(sb, "comparison.force_full_rate_after",
			  replay_rate(run->tp.force_full, run->tp.changes), "force-full rate, what-if");
		tile_count(sb, "baseline.misses", t->misses, "missed tests, baseline");
		tile_count(sb, "proposal.misses", run->tp.misses, "missed tests, what-if");
		tile_count(sb, "comparison.escapes_closed", run->escapes_closed, "escapes closed");
		tile_count(sb, "comparison.escapes_opened", run->escapes_opened, "escapes opened");
		tile_count(sb, "comparison.extra_force_full", run->extra_force_full,
			   "extra force-full runs");
	}
	strbuf_addstr(sb, "</div>\n");
}

/* ---- charts ---- */

/* Force-full rate, misses and minutes of the baseline (and the what-if). */
static void chart_before_after(struct strbuf *sb, const struct replay_run *run)
{
	const struct replay_totals *t[2] = { &run->tb, &run->tp };
	size_t n = run->has_proposal ? 2 : 1;
	const char *rows[2] = { run->has_proposal ? "baseline" : "the rules", "what-if" };
	double rate[2], misses[2], minutes[2];
	char *rate_notes[2] = { NULL }, *miss_notes[2] = { NULL }, *min_notes[2] = { NULL };
	struct strbuf title = STRBUF_INIT;
	struct chart_hbar_col cols[3] = {
		{ "force-full rate", rate, (const char *const *)rate_notes, CHART_RATE, CHART_BLUE },
		{ "missed tests", misses, (const char *const *)miss_notes, CHART_COUNT, CHART_ORANGE },
		{ "gate minutes", minutes, (const char *const *)min_notes, CHART_MINUTES, CHART_SKY },
	};
	struct chart_hbar c = { { "chart-before-after", NULL, 760, 0 }, n, rows, NULL, NULL,
				cols, 3, NULL };

	strbuf_addstr(&title, run->has_proposal ? "Force-full rate and misses before and after "
			      "the what-if, " : "Force-full rate and misses of the replayed rules, ");
	window_text(&title, run);
	c.c.title = title.buf;
	for (size_t i = 0; i < n; i++) {
		rate[i] = replay_rate(t[i]->force_full, t[i]->changes);
		misses[i] = (double)t[i]->misses;
		minutes[i] = t[i]->minutes;
		rate_notes[i] = isnan(rate[i]) ? xstrdup("n/a") :
				xstrfmt("%.1f%% (%zu of %zu)", 100.0 * rate[i], t[i]->force_full,
					t[i]->changes);
		miss_notes[i] = xstrfmt("%zu in %zu changes", t[i]->misses, t[i]->missed_changes);
		min_notes[i] = replay_text_minutes(t[i]->minutes);
	}
	chart_hbar_svg(sb, &c);
	for (size_t i = 0; i < n; i++) {
		free(rate_notes[i]);
		free(miss_notes[i]);
		free(min_notes[i]);
	}
	strbuf_release(&title);
}

/* Force-full changes by rule, in the text's order (the proposal's, with one). */
static void chart_reasons(struct strbuf *sb, const struct replay_run *run)
{
	const struct replay_totals *main = run->has_proposal ? &run->tp : &run->tb;
	size_t *order = replay_reason_order(main);
	size_t n = main->reason_names.nr < CHART_REASONS ? main->reason_names.nr : CHART_REASONS;
	const char **rows = xcalloc(n + 1, sizeof(*rows));
	double *base = xcalloc(n + 1, sizeof(*base)), *prop = xcalloc(n + 1, sizeof(*prop));
	char **base_notes = xcalloc(n + 1, sizeof(*base_notes));
	char **prop_notes = xcalloc(n + 1, sizeof(*prop_notes));
	char *more = main->reason_names.nr > n ?
		     xstrfmt("and %zu more rules (the totals list them)", main->reason_names.nr - n) :
		     NULL;
	struct strbuf title = STRBUF_INIT;
	struct chart_hbar_col cols[2] = {
		{ "changes forced full, baseline", base, (const char *const *)base_notes,
		  CHART_COUNT, CHART_BLUE },
		{ "what-if", prop, (const char *const *)prop_notes, CHART_COUNT, CHART_ORANGE },
	};
	struct chart_hbar c = { { "chart-reasons", NULL, 0, 0 }, n, rows, NULL, NULL, cols,
				run->has_proposal ? 2 : 1, more };

	if (!run->has_proposal)
		cols[0].name = "changes forced full";
	strbuf_addstr(&title, "Force-full changes by rule, ");
	window_text(&title, run);
	c.c.title = title.buf;
	for (size_t k = 0; k < n; k++) {
		const char *name = main->reason_names.items[order[k]];

		rows[k] = name;
		base[k] = (double)replay_reason_count(&run->tb, name);
		prop[k] = (double)replay_reason_count(&run->tp, name);
		base_notes[k] = xstrfmt("%.0f", base[k]);
		prop_notes[k] = xstrfmt("%.0f", prop[k]);
	}
	chart_hbar_svg(sb, &c);
	for (size_t k = 0; k < n; k++) {
		free(base_notes[k]);
		free(prop_notes[k]);
	}
	free(base_notes);
	free(prop_notes);
	free(rows);
	free(base);
	free(prop);
	free(order);
	free(more);
	strbuf_release(&title);
}

/* ---- the totals, in the text's order ---- */

/*
 * The totals' columns: a label, then the baseline's figure (and the
 * what-if's), each cell keyed by the JSON path of its figure.
 */
static const struct table_column total_columns[] = {
	{ .key = "total", .type = CELL_TEXT },
	{ .key = "replay", .type = CELL_TEXT, .right = true },
	{ .key = "what-if", .type = CELL_TEXT, .right = true },
};

/* A figure's cell: shown as the text shows it, keyed when key is not NULL. */
static void total_cell(struct table *t, const char *key, double v, const char *shown)
{
	table_str(t, shown);
	if (key)
		table_data(t, key, v);
}

static void total_row(struct table *t, const char *label, const char *key_a, double a,
		      const char *shown_a, const char *key_b, double b, const char *shown_b)
{
	table_row(t);
	table_str(t, label);
	total_cell(t, key_a, a, shown_a);
	if (t->nr_cols > 2)
		total_cell(t, key_b, b, shown_b);
}

/* A count in each column: baseline (totals.KEY or baseline.KEY) and proposal. */
static void total_counts(struct table *t, const struct replay_run *run, const char *label,
			 const char *key, size_t a, size_t b)
{
	char *ka = key ? xstrfmt("%s.%s", run->has_proposal ? "baseline" : "totals", key) : NULL;
	char *kb = key ? xstrfmt("proposal.%s", key) : NULL;
	char *sa = xstrfmt("%zu", a), *sbs = xstrfmt("%zu", b);

	total_row(t, label, ka, (double)a, sa, kb, (double)b, sbs);
	free(ka), free(kb), free(sa), free(sbs);
}

/* The force-full changes by rule, the main run's rules first, then the baseline's others. */
static void total_reasons(struct table *t, const struct replay_run *run)
{
	const struct replay_totals *a = &run->tb, *b = &run->tp;
	const struct replay_totals *main = run->has_proposal ? b : a;
	size_t *order = replay_reason_order(main);

	for (size_t i = 0; i < main->reason_names.nr; i++) {
		const char *name = main->reason_names.items[order[i]];
		char *label = xstrfmt("  %s", name);

		total_counts(t, run, label, NULL, replay_reason_count(a, name),
			     replay_reason_count(b, name));
		free(label);
	}
	for (size_t i = 0; run->has_proposal && i < a->reason_names.nr; i++) {
		char *label;

		if (replay_reason_count(b, a->reason_names.items[i]))
			continue;
		label = xstrfmt("  %s", a->reason_names.items[i]);
		total_counts(t, run, label, NULL, a->reason_counts[i], 0);
		free(label);
	}
	free(order);
}

/* What the what-if changed: only its column has them. */
static void total_comparison(struct table *t, const struct replay_run *run)
{
	char *c = xstrfmt("%zu", run->escapes_closed), *o = xstrfmt("%zu", run->escapes_opened);
	char *e = xstrfmt("%zu", run->extra_force_full);

	total_row(t, "escapes closed", NULL, 0, "", "comparison.escapes_closed",
		  (double)run->escapes_closed, c);
	total_row(t, "escapes opened", NULL, 0, "", "comparison.escapes_opened",
		  (double)run->escapes_opened, o);
	total_row(t, "extra force-full", NULL, 0, "", "comparison.extra_force_full",
		  (double)run->extra_force_full, e);
	free(c), free(o), free(e);
}

static void total_rows(struct table *t, const struct replay_run *run)
{
	const struct replay_totals *a = &run->tb, *b = &run->tp;
	char *ma = replay_text_minutes(a->minutes), *mb = replay_text_minutes(b->minutes);
	double ra = replay_rate(a->force_full, a->changes), rb = replay_rate(b->force_full, b->changes);
	char *sa = isnan(ra) ? xstrfmt("%zu", a->force_full) :
		   xstrfmt("%zu (%.1f%%)", a->force_full, 100.0 * ra);
	char *sbs = isnan(rb) ? xstrfmt("%zu", b->force_full) :
		    xstrfmt("%zu (%.1f%%)", b->force_full, 100.0 * rb);
	const char *pre = run->has_proposal ? "baseline" : "totals";
	char *k;

	total_counts(t, run, "changes", "changes", a->changes, b->changes);
	k = xstrfmt("%s.force_full", pre);
	total_row(t, "force-full", k, (double)a->force_full, sa, "proposal.force_full",
		  (double)b->force_full, sbs);
	free(k);
	total_reasons(t, run);
	if (!run->has_proposal) {
		total_counts(t, run, "selected", "decisions.selected", a->selected, 0);
		total_counts(t, run, "rules-only", "decisions.rules-only", a->rules_only, 0);
		total_counts(t, run, "nothing", "decisions.nothing", a->nothing, 0);
	}
	total_counts(t, run, "misses (failing tests missed)", "misses", a->misses, b->misses);
	total_counts(t, run, "missed changes", "missed_changes", a->missed_changes,
		     b->missed_changes);
	total_counts(t, run, "disagreements with the record", "disagreements", a->disagreements,
		     b->disagreements);
	k = xstrfmt("%s.gate_minutes", pre);
	total_row(t, "gate minutes", k, a->minutes, ma, "proposal.gate_minutes", b->minutes, mb);
	free(k);
	if (run->has_proposal)
		total_comparison(t, run);
	free(ma), free(mb), free(sa), free(sbs);
}

static void totals(struct strbuf *sb, const struct replay_run *run)
{
	struct table_column cols[ARRAY_SIZE(total_columns)];
	struct table t = TABLE_INIT(cols);

	memcpy(cols, total_columns, sizeof(cols));
	if (run->has_proposal)
		cols[1].key = "baseline";
	else
		t.nr_cols = 2;
	t.html_class = "totals";
	t.html_bare = true;
	total_rows(&t, run);
	table_write(&t, FORMAT_HTML, sb);
	table_release(&t);
	if (!run->has_store)
		strbuf_addstr(sb, "<p class=\"note\">No store: no measured wall-clock.</p>\n");
	else
		strbuf_addf(sb, "<p class=\"note\">Gate minutes: run_all changes times the store's "
			    "median full run, narrowed ones times its median narrowed shadow run "
			    "(%zu full runs, %zu narrowed shadow runs); nothing: 0.</p>\n",
			    run->record.full_n, run->record.narrowed_n);
}

/* The built-ins' what-if beside the baseline, as JSON's "builtin" has it. */
static void builtin_totals(struct strbuf *sb, const struct replay_run *run)
{
	static const struct table_column cols[] = {
		{ .key = "the built-ins beside the baseline", .type = CELL_TEXT },
		{ .key = "what-if", .type = CELL_TEXT, .right = true },
	};
	struct table t = TABLE_INIT(cols);
	double after = replay_rate(run->tb.force_full + run->builtin_forced, run->tb.changes);
	char *rate = isnan(after) ? xstrdup("n/a") : xstrfmt("%.1f%%", 100.0 * after);
	char *n[4] = {
		xstrfmt("%zu", run->builtin.nr), xstrfmt("+%zu", run->builtin_forced),
		xstrfmt("%zu", run->builtin_misses_closed),
		xstrfmt("%zu", run->builtin_changes_closed),
	};

	t.html_class = "totals";
	t.html_bare = true;
	total_row(&t, "candidates", "builtin.candidates", (double)run->builtin.nr, n[0],
		  NULL, 0, NULL);
	total_row(&t, "extra force-full", "builtin.extra_force_full",
		  (double)run->builtin_forced, n[1], NULL, 0, NULL);
	total_row(&t, "force-full rate after", "builtin.force_full_rate_after", after, rate,
		  NULL, 0, NULL);
	total_row(&t, "missed tests closed", "builtin.misses_closed",
		  (double)run->builtin_misses_closed, n[2], NULL, 0, NULL);
	total_row(&t, "missed changes closed", "builtin.missed_changes_closed",
		  (double)run->builtin_changes_closed, n[3], NULL, 0, NULL);
	strbuf_addstr(sb, "<h2>Built-in what-if (suggested: built-in)</h2>\n");
	table_write(&t, FORMAT_HTML, sb);
	table_release(&t);
	strbuf_addstr(sb, "<p class=\"note\">The built-in rules are suggestions, "
		      "not in effect: each change's built-in column says which would force a "
		      "full run where the rules in effect do not.</p>\n");
	free(rate);
	for (size_t i = 0; i < 4; i++)
		free(n[i]);
}

/* ---- the changes ---- */

/*
 * Every column the changes table may have; change_table picks them by the
 * run: decision, selected, reasons and missed without a what-if, the
 * baseline's and the what-if's decision and missed with one, and the
 * built-ins' decision when there are built-ins. A decision is keyed by
 * its JSON path (changes.N.decision), and so is a known PR.
 */
enum change_col {
	COL_COMMIT, COL_PR, COL_DATE, COL_CHANGED, COL_DECISION, COL_SELECTED, COL_REASONS,
	COL_MISSED, COL_WHAT_IF, COL_WHAT_IF_MISSED, COL_BUILTIN,
};

static const struct table_column change_columns[] = {
	[COL_COMMIT] = { .key = "commit", .type = CELL_CODE, .html_td_class = "nowrap" },
	[COL_PR] = { .key = "PR", .type = CELL_PR, .na = "-", .html_td_class = "" },
	[COL_DATE] = { .key = "date", .type = CELL_DATE, .html_td_class = "nowrap" },
	[COL_CHANGED] = { .key = "changed", .type = CELL_COUNT, .na = "?" },
	[COL_DECISION] = { .key = "decision", .type = CELL_TEXT, .html_nowrap = true },
	[COL_SELECTED] = { .key = "selected", .type = CELL_COUNT, .na = "-" },
	[COL_REASONS] = { .key = "reasons", .type = CELL_CODE },
	[COL_MISSED] = { .key = "missed", .type = CELL_COUNT, .html_td_class = "" },
	[COL_WHAT_IF] = { .key = "what-if", .type = CELL_TEXT, .html_nowrap = true },
	[COL_WHAT_IF_MISSED] = { .key = "missed", .type = CELL_COUNT, .html_td_class = "" },
	[COL_BUILTIN] = { .key = "built-in", .type = CELL_TEXT, .html_nowrap = true },
};

/* The missed tests: how many, the first PAGE_TESTS of them, and how many more. */
static void missed_cell(struct table *t, const struct strlist *l)
{
	size_t n = l->nr < PAGE_TESTS ? l->nr : PAGE_TESTS;

	table_count(t, (int64_t)l->nr);
	for (size_t i = 0; i < n; i++)
		table_part(t, PART_LINE, PART_CODE, l->items[i]);
	if (l->nr > n) {
		char *more = xstrfmt("+%zu more", l->nr - n);

		table_part(t, PART_LINE, PART_MORE, more);
		free(more);
	}
}

/* A decision keyed as changes.I.WHICHdecision, and what disagreed with it. */
static void decision_cell(struct table *t, size_t i, const char *which,
			  const struct replay_outcome *o)
{
	char *key = xstrfmt("changes.%zu.%sdecision", i, which);

	table_word(t, replay_decision_name(o->decision));
	table_data_word(t, key, replay_decision_name(o->decision));
	if (o->disagrees) {
		char *why = xstrfmt("disagrees: %s", o->disagreement);

		table_part(t, PART_LINE, PART_MORE, why);
		free(why);
	}
	free(key);
}

static void reasons_cell(struct table *t, const struct strlist *reasons)
{
	if (!reasons->nr) {
		table_null(t);
		return;
	}
	table_str(t, reasons->items[0]);
	for (size_t k = 1; k < reasons->nr; k++)
		table_part(t, PART_COMMA, PART_CODE, reasons->items[k]);
}

static void outcome_cells(struct table *t, size_t i, const char *which,
			  const struct replay_outcome *o, bool reasons)
{
	decision_cell(t, i, which, o);
	if (reasons) {
		table_count_known(t, o->has_selected, o->selected);
		reasons_cell(t, &o->reasons);
	}
	missed_cell(t, &o->missed);
}

/*
 * "force-full:GLOB (suggested: built-in)": the rule as code, its source
 * whole on one line (never "built-" / "in").
 */
static void rule_with_source(struct table *t, enum part_sep sep, const char *reason)
{
	const char *src = NULL;
	char *rule;

	/* The last " (": a glob may hold one of its own. */
	for (const char *p = strstr(reason, " ("); p; p = strstr(p + 1, " ("))
		src = p;
	if (!src || reason[strlen(reason) - 1] != ')') {
		table_part(t, sep, PART_CODE, reason);
		return;
	}
	rule = xstrndup(reason, (size_t)(src - reason));
	table_part(t, sep, PART_CODE, rule);
	table_part(t, PART_SPACE, PART_NOWRAP, src + 1);
	free(rule);
}

/* What the built-ins would decide where they force more than the rules in effect. */
static void builtin_cell(struct table *t, size_t i, const struct replay_change *ch)
{
	char *key;

	if (!replay_builtin_forces(ch)) {
		table_null(t);
		return;
	}
	key = xstrfmt("changes.%zu.builtin.decision", i);
	table_word(t, "run_all");
	table_data_word(t, key, "run_all");
	for (size_t k = 0; k < ch->suggested.nr; k++)
		rule_with_source(t, k ? PART_COMMA : PART_LINE, ch->suggested.items[k]);
	free(key);
}

static void change_row(struct table *t, const struct replay_run *run, size_t i)
{
	const struct replay_change *ch = &run->changes[i];
	const struct replay_commit *c = ch->commit;
	char *sha = xstrndup(c->sha, 10);

	table_row(t);
	table_str(t, sha);
	table_pr(t, c->has_pr, c->pr);
	if (c->has_pr) {
		char *k = xstrfmt("changes.%zu.pr", i);

		table_data(t, k, (double)c->pr);
		free(k);
	}
	table_time(t, c->date);
	table_count_known(t, replay_paths_known(c), (int64_t)c->paths.nr);
	outcome_cells(t, i, "", &ch->base, !run->has_proposal);
	if (run->has_proposal)
		outcome_cells(t, i, "proposal.", &ch->prop, false);
	if (run->builtin.nr)
		builtin_cell(t, i, ch);
	free(sha);
}

static void changes(struct strbuf *sb, const struct replay_run *run)
{
	static const enum change_col plain[] = {
		COL_COMMIT, COL_PR, COL_DATE, COL_CHANGED, COL_DECISION, COL_SELECTED,
		COL_REASONS, COL_MISSED, COL_BUILTIN,
	};
	static const enum change_col what_if[] = {
		COL_COMMIT, COL_PR, COL_DATE, COL_CHANGED, COL_DECISION, COL_MISSED,
		COL_WHAT_IF, COL_WHAT_IF_MISSED, COL_BUILTIN,
	};
	const enum change_col *pick = run->has_proposal ? what_if : plain;
	struct table_column cols[ARRAY_SIZE(plain)];
	struct table t = TABLE_INIT(cols);
	size_t n = run->nr < PAGE_CHANGES ? run->nr : PAGE_CHANGES;

	for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
		cols[k] = change_columns[pick[k]];
	if (run->has_proposal)
		cols[4].key = "baseline";
	/* The built-in column is the last: without built-ins, the table stops before it. */
	t.nr_cols = ARRAY_SIZE(cols) - !run->builtin.nr;
	t.html_class = "changes";
	t.html_bare = true;
	for (size_t i = 0; i < n; i++)
		change_row(&t, run, i);
	table_write(&t, FORMAT_HTML, sb);
	table_release(&t);
	html_more(sb, n, run->nr, "changes", "tiadash replay --format csv lists them all");
}

void replay_print_html(const struct replay_run *run, int64_t now, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	header(&sb, run, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n");
	tiles(&sb, run);
	chart_before_after(&sb, run);
	strbuf_addstr(&sb, "<div class=\"charts\">\n");
	chart_reasons(&sb, run);
	/* The tables in the text's order: the changes, then the totals. */
	strbuf_addstr(&sb, "</div>\n</section>\n<section class=\"sheet\">\n<h2>Changes</h2>\n");
	changes(&sb, run);
	strbuf_addstr(&sb, "<h2>Totals</h2>\n");
	totals(&sb, run);
	if (run->builtin.nr)
		builtin_totals(&sb, run);
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
}
