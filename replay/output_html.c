/* Replay's HTML page: force-full rate and misses of the baseline against the what-if, the totals, the changes. */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/html.h"
#include "core/sanitize.h"
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

static void total_row(struct strbuf *sb, const char *label, const char *key_a, double a,
		      const char *shown_a, const char *key_b, double b, const char *shown_b,
		      bool pair)
{
	strbuf_addstr(sb, "<tr><td>");
	html_escape(sb, label);
	strbuf_addstr(sb, "</td>");
	html_cell(sb, key_a, a, shown_a);
	if (pair)
		html_cell(sb, key_b, b, shown_b);
	strbuf_addstr(sb, "</tr>\n");
}

/* A count in each column: baseline (totals.KEY or baseline.KEY) and proposal. */
static void total_counts(struct strbuf *sb, const struct replay_run *run, const char *label,
			 const char *key, size_t a, size_t b)
{
	char *ka = key ? xstrfmt("%s.%s", run->has_proposal ? "baseline" : "totals", key) : NULL;
	char *kb = key ? xstrfmt("proposal.%s", key) : NULL;
	char *sa = xstrfmt("%zu", a), *sbs = xstrfmt("%zu", b);

	total_row(sb, label, ka, (double)a, sa, kb, (double)b, sbs, run->has_proposal);
	free(ka), free(kb), free(sa), free(sbs);
}

static void totals(struct strbuf *sb, const struct replay_run *run)
{
	const struct replay_totals *a = &run->tb, *b = &run->tp;
	const struct replay_totals *main = run->has_proposal ? b : a;
	size_t *order = replay_reason_order(main);
	char *ma = replay_text_minutes(a->minutes), *mb = replay_text_minutes(b->minutes);
	double ra = replay_rate(a->force_full, a->changes), rb = replay_rate(b->force_full, b->changes);
	char *sa = isnan(ra) ? xstrfmt("%zu", a->force_full) :
		   xstrfmt("%zu (%.1f%%)", a->force_full, 100.0 * ra);
	char *sbs = isnan(rb) ? xstrfmt("%zu", b->force_full) :
		    xstrfmt("%zu (%.1f%%)", b->force_full, 100.0 * rb);
	const char *pre = run->has_proposal ? "baseline" : "totals";
	char *k;

	strbuf_addstr(sb, "<table class=\"totals\">\n<tr><th>total</th>");
	strbuf_addstr(sb, run->has_proposal ? "<th class=\"num\">baseline</th>"
		      "<th class=\"num\">what-if</th></tr>\n" : "<th class=\"num\">replay</th></tr>\n");
	total_counts(sb, run, "changes", "changes", a->changes, b->changes);
	k = xstrfmt("%s.force_full", pre);
	total_row(sb, "force-full", k, (double)a->force_full, sa, "proposal.force_full",
		  (double)b->force_full, sbs, run->has_proposal);
	free(k);
	for (size_t i = 0; i < main->reason_names.nr; i++) {
		const char *name = main->reason_names.items[order[i]];
		char *label = xstrfmt("  %s", name);

		total_counts(sb, run, label, NULL, replay_reason_count(a, name),
			     replay_reason_count(b, name));
		free(label);
	}
	for (size_t i = 0; run->has_proposal && i < a->reason_names.nr; i++) {
		char *label;

		if (replay_reason_count(b, a->reason_names.items[i]))
			continue;
		label = xstrfmt("  %s", a->reason_names.items[i]);
		total_counts(sb, run, label, NULL, a->reason_counts[i], 0);
		free(label);
	}
	if (!run->has_proposal) {
		total_counts(sb, run, "selected", "decisions.selected", a->selected, 0);
		total_counts(sb, run, "rules-only", "decisions.rules-only", a->rules_only, 0);
		total_counts(sb, run, "nothing", "decisions.nothing", a->nothing, 0);
	}
	total_counts(sb, run, "misses (failing tests missed)", "misses", a->misses, b->misses);
	total_counts(sb, run, "missed changes", "missed_changes", a->missed_changes,
		     b->missed_changes);
	total_counts(sb, run, "disagreements with the record", "disagreements", a->disagreements,
		     b->disagreements);
	k = xstrfmt("%s.gate_minutes", pre);
	total_row(sb, "gate minutes", k, a->minutes, ma, "proposal.gate_minutes", b->minutes, mb,
		  run->has_proposal);
	free(k);
	if (run->has_proposal) {
		char *c = xstrfmt("%zu", run->escapes_closed), *o = xstrfmt("%zu", run->escapes_opened);
		char *e = xstrfmt("%zu", run->extra_force_full);

		total_row(sb, "escapes closed", NULL, 0, "", "comparison.escapes_closed",
			  (double)run->escapes_closed, c, true);
		total_row(sb, "escapes opened", NULL, 0, "", "comparison.escapes_opened",
			  (double)run->escapes_opened, o, true);
		total_row(sb, "extra force-full", NULL, 0, "", "comparison.extra_force_full",
			  (double)run->extra_force_full, e, true);
		free(c), free(o), free(e);
	}
	strbuf_addstr(sb, "</table>\n");
	if (!run->has_store)
		strbuf_addstr(sb, "<p class=\"note\">No store: no measured wall-clock.</p>\n");
	else
		strbuf_addf(sb, "<p class=\"note\">Gate minutes: run_all changes times the store's "
			    "median full run, narrowed ones times its median narrowed shadow run "
			    "(%zu full runs, %zu narrowed shadow runs); nothing: 0.</p>\n",
			    run->record.full_n, run->record.narrowed_n);
	free(order);
	free(ma), free(mb), free(sa), free(sbs);
}

/* The built-ins' what-if beside the baseline, as JSON's "builtin" has it. */
static void builtin_totals(struct strbuf *sb, const struct replay_run *run)
{
	double after = replay_rate(run->tb.force_full + run->builtin_forced, run->tb.changes);
	char *rate = isnan(after) ? xstrdup("n/a") : xstrfmt("%.1f%%", 100.0 * after);
	char *n[4] = {
		xstrfmt("%zu", run->builtin.nr), xstrfmt("+%zu", run->builtin_forced),
		xstrfmt("%zu", run->builtin_misses_closed),
		xstrfmt("%zu", run->builtin_changes_closed),
	};

	strbuf_addstr(sb, "<h2>Built-in what-if (suggested: built-in)</h2>\n"
		      "<table class=\"totals\">\n<tr><th>the built-ins beside the baseline</th>"
		      "<th class=\"num\">what-if</th></tr>\n");
	total_row(sb, "candidates", "builtin.candidates", (double)run->builtin.nr, n[0],
		  NULL, 0, NULL, false);
	total_row(sb, "extra force-full", "builtin.extra_force_full",
		  (double)run->builtin_forced, n[1], NULL, 0, NULL, false);
	total_row(sb, "force-full rate after", "builtin.force_full_rate_after", after, rate,
		  NULL, 0, NULL, false);
	total_row(sb, "missed tests closed", "builtin.misses_closed",
		  (double)run->builtin_misses_closed, n[2], NULL, 0, NULL, false);
	total_row(sb, "missed changes closed", "builtin.missed_changes_closed",
		  (double)run->builtin_changes_closed, n[3], NULL, 0, NULL, false);
	strbuf_addstr(sb, "</table>\n<p class=\"note\">The built-in rules are suggestions, "
		      "not in effect: each change's built-in column says which would force a "
		      "full run where the rules in effect do not.</p>\n");
	free(rate);
	for (size_t i = 0; i < 4; i++)
		free(n[i]);
}

/* ---- the changes ---- */

static void test_list(struct strbuf *sb, const struct strlist *l)
{
	size_t n = l->nr < PAGE_TESTS ? l->nr : PAGE_TESTS;

	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, "<br>");
		html_code(sb, l->items[i]);
	}
	if (l->nr > n)
		strbuf_addf(sb, "<br><span class=\"more\">+%zu more</span>", l->nr - n);
}

static void outcome_cells(struct strbuf *sb, size_t i, const char *which,
			  const struct replay_outcome *o, bool reasons)
{
	strbuf_addf(sb, "<td data-key=\"changes.%zu.%sdecision\" data-value=\"%s\">", i, which,
		    replay_decision_name(o->decision));
	html_nowrap(sb, replay_decision_name(o->decision));
	if (o->disagrees) {
		strbuf_addstr(sb, "<br><span class=\"more\">disagrees: ");
		html_escape(sb, o->disagreement);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td>");
	if (reasons) {
		char *sel = replay_text_selected(o);

		strbuf_addf(sb, "<td class=\"num\">%s</td><td>", sel);
		for (size_t k = 0; k < o->reasons.nr; k++) {
			if (k)
				strbuf_addstr(sb, ", ");
			html_code(sb, o->reasons.items[k]);
		}
		strbuf_addstr(sb, "</td>");
		free(sel);
	}
	strbuf_addf(sb, "<td>%zu", o->missed.nr);
	test_list(sb, &o->missed);
	strbuf_addstr(sb, "</td>");
}

/*
 * "force-full:GLOB (suggested: built-in)": the rule as code, its source
 * whole on one line (never "built-" / "in").
 */
static void rule_with_source(struct strbuf *sb, const char *reason)
{
	const char *src = NULL;
	struct strbuf rule = STRBUF_INIT;

	/* The last " (": a glob may hold one of its own. */
	for (const char *p = strstr(reason, " ("); p; p = strstr(p + 1, " ("))
		src = p;
	if (!src || reason[strlen(reason) - 1] != ')') {
		html_code(sb, reason);
		return;
	}
	strbuf_add(&rule, reason, (size_t)(src - reason));
	html_code(sb, rule.buf);
	strbuf_addch(sb, ' ');
	html_nowrap(sb, src + 1);
	strbuf_release(&rule);
}

/* What the built-ins would decide where they force more than the rules in effect. */
static void builtin_cell(struct strbuf *sb, size_t i, const struct replay_change *ch)
{
	if (!replay_builtin_forces(ch)) {
		strbuf_addstr(sb, "<td></td>");
		return;
	}
	strbuf_addf(sb, "<td data-key=\"changes.%zu.builtin.decision\" data-value=\"run_all\">",
		    i);
	html_nowrap(sb, "run_all");
	for (size_t k = 0; k < ch->suggested.nr; k++) {
		strbuf_addstr(sb, k ? ", " : "<br>");
		rule_with_source(sb, ch->suggested.items[k]);
	}
	strbuf_addstr(sb, "</td>");
}

static void changes(struct strbuf *sb, const struct replay_run *run)
{
	size_t n = run->nr < PAGE_CHANGES ? run->nr : PAGE_CHANGES;

	strbuf_addstr(sb, "<table class=\"changes\">\n<tr><th>commit</th><th>PR</th><th>date</th>"
		      "<th class=\"num\">changed</th>");
	if (run->has_proposal)
		strbuf_addstr(sb, "<th>baseline</th><th>missed</th><th>what-if</th>"
			      "<th>missed</th>");
	else
		strbuf_addstr(sb, "<th>decision</th><th class=\"num\">selected</th><th>reasons</th>"
			      "<th>missed</th>");
	strbuf_addstr(sb, run->builtin.nr ? "<th>built-in</th></tr>\n" : "</tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct replay_change *ch = &run->changes[i];
		const struct replay_commit *c = ch->commit;
		char *pr = replay_text_pr(c), *date = replay_text_date(c->date);
		char *chg = replay_text_changed(c);

		strbuf_addf(sb, "<tr><td class=\"nowrap\"><code>%.10s</code></td><td", c->sha);
		if (c->has_pr) {
			char *k = xstrfmt("changes.%zu.pr", i);

			html_data_int(sb, k, c->pr);
			free(k);
		}
		strbuf_addf(sb, ">%s</td><td class=\"nowrap\">%s</td><td class=\"num\">%s</td>", pr,
			    date, chg);
		outcome_cells(sb, i, "", &ch->base, !run->has_proposal);
		if (run->has_proposal)
			outcome_cells(sb, i, "proposal.", &ch->prop, false);
		if (run->builtin.nr)
			builtin_cell(sb, i, ch);
		strbuf_addstr(sb, "</tr>\n");
		free(pr), free(date), free(chg);
	}
	strbuf_addstr(sb, "</table>\n");
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
