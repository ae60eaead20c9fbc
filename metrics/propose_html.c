/* propose's HTML page: each candidate's closes and cost, the recommended set, the escapes' evidence. */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/html.h"
#include "core/table.h"
#include "core/sanitize.h"
#include "metrics/common.h"
#include "metrics/html.h"

/* Candidates drawn in the chart (the tables list --limit of them). */
#define CHART_CANDIDATES 15

static void header(struct strbuf *sb, const struct proposals *p,
		   const struct proposals_rules *r, const char *root, int64_t now)
{
	struct strbuf w = STRBUF_INIT, title = STRBUF_INIT;

	propose_text_window(&w, p);
	strbuf_addf(&title, "tiadash propose: %s", w.buf);
	html_begin(sb, "propose", title.buf);
	strbuf_addstr(sb, "<header><h1>Force-full proposals</h1><span class=\"window\">Window ");
	html_escape(sb, w.buf);
	strbuf_addstr(sb, "</span>");
	html_header_end(sb, now);
	strbuf_addstr(sb, "<p class=\"note\">");
	strbuf_addf(sb, "Escapes: <span data-key=\"escapes\" data-value=\"%" PRId64 "\">%" PRId64
		    "</span> unexplained: <span data-key=\"closable\" data-value=\"%" PRId64
		    "\">%" PRId64 "</span> new, %" PRId64 " closed-by-rules, %" PRId64
		    " unclosable; <span data-key=\"explained\" data-value=\"%" PRId64 "\">%"
		    PRId64 "</span> explained.<br>History: ", p->escapes, p->escapes, p->closable,
		    p->closable, p->closed_by_rules, p->unclosable, p->explained, p->explained);
	strbuf_addf(sb, "<span data-key=\"history.changes\" data-value=\"%" PRId64 "\">%" PRId64
		    "</span> changes with a shadow run; force-full %" PRId64 " (",
		    p->history_heads, p->history_heads, p->force_full_before);
	strbuf_addstr(sb, "<span");
	html_data(sb, "history.force_full_rate", p->force_full_rate_before);
	strbuf_addch(sb, '>');
	metrics_fmt_pct(sb, p->force_full_rate_before, 1);
	strbuf_addstr(sb, "</span>); shadow p95 <span");
	html_data(sb, "history.p95", p->p95_before);
	strbuf_addch(sb, '>');
	metrics_fmt_secs(sb, p->p95_before);
	strbuf_addstr(sb, "</span>.<br>Rules: ");
	strbuf_reset(&w);
	propose_text_rules(&w, r, root);
	html_escape(sb, w.buf);
	strbuf_addstr(sb, "; accepted globs go to ");
	strbuf_reset(&w);
	propose_text_target(&w, r, root);
	if (r->target)
		html_code(sb, w.buf);
	else
		html_escape(sb, w.buf);
	strbuf_addstr(sb, ".</p>\n");
	strbuf_release(&w);
	strbuf_release(&title);
}

static void tiles(struct strbuf *sb, const struct proposals *p)
{
	struct strbuf s = STRBUF_INIT;
	char *n;

	strbuf_addstr(sb, "<div class=\"tiles\">\n");
	n = xstrfmt("%" PRId64, p->escapes);
	html_tile(sb, "escapes", (double)p->escapes, n, "unexplained escapes");
	free(n);
	n = xstrfmt("%" PRId64, p->closable);
	html_tile(sb, "closable", (double)p->closable, n, "new: a glob closes them");
	free(n);
	n = xstrfmt("%" PRId64, p->rec_closes);
	html_tile(sb, "recommended_totals.closes", (double)p->rec_closes, n,
	     "closed by the recommended set");
	free(n);
	propose_text_minutes(&s, p->rec_forced_minutes);
	html_tile(sb, "recommended_totals.forced_minutes", p->rec_forced_minutes, s.buf,
	     "its added gate minutes");
	strbuf_reset(&s);
	metrics_fmt_pct(&s, p->force_full_rate_before, 1);
	html_tile(sb, "history.force_full_rate", p->force_full_rate_before, s.buf,
	     "force-full rate now");
	strbuf_reset(&s);
	metrics_fmt_pct(&s, p->rec_force_full_rate_after, 1);
	html_tile(sb, "recommended_totals.force_full_rate_after", p->rec_force_full_rate_after, s.buf,
	     "force-full rate after it");
	strbuf_release(&s);
	strbuf_addstr(sb, "</div>\n");
}

static size_t shown_of(const struct proposals *p, int64_t limit)
{
	return limit < 0 || (uint64_t)limit > p->nr ? p->nr : (size_t)limit;
}

/*
 * The candidates of the chart: the recommended set (in the order the cover
 * took them), then the ranked others, at most `max` (indexes into items).
 */
static size_t chart_order(const struct proposals *p, size_t max, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_recommended && n < max; i++)
		out[n++] = p->recommended[i];
	for (size_t i = 0; i < p->nr && n < max; i++)
		if (!p->items[i].recommended)
			out[n++] = i;
	return n;
}

/* Each candidate with the escapes it closes and what it costs. */
static void chart_candidates(struct strbuf *sb, const struct proposals *p, int64_t limit)
{
	size_t max = shown_of(p, limit) < CHART_CANDIDATES ? shown_of(p, limit) : CHART_CANDIDATES;
	size_t *order = xcalloc(max + 1, sizeof(*order));
	size_t n = chart_order(p, max, order);
	const char **rows = xcalloc(n + 1, sizeof(*rows));
	bool *marked = xcalloc(n + 1, sizeof(*marked));
	double *closes = xcalloc(n + 1, sizeof(*closes)), *cost = xcalloc(n + 1, sizeof(*cost));
	char **close_notes = xcalloc(n + 1, sizeof(*close_notes));
	char **cost_notes = xcalloc(n + 1, sizeof(*cost_notes));
	char *more = p->nr > n ? xstrfmt("and %zu more candidates", p->nr - n) : NULL;
	struct strbuf title = STRBUF_INIT;
	struct chart_hbar_col cols[2] = {
		{ "escapes closed", closes, (const char *const *)close_notes, CHART_COUNT,
		  CHART_BLUE },
		{ "extra gate minutes", cost, (const char *const *)cost_notes, CHART_MINUTES,
		  CHART_ORANGE },
	};
	struct chart_hbar c = { { "chart-candidates", NULL, 760, 0 }, n, rows, marked,
				"recommended", cols, 2, more };

	strbuf_addstr(&title, "Each candidate's closes and cost (the recommended set first), ");
	propose_text_window(&title, p);
	c.c.title = title.buf;
	for (size_t i = 0; i < n; i++) {
		const struct proposal *it = &p->items[order[i]];
		struct strbuf note = STRBUF_INIT;

		rows[i] = it->glob;
		marked[i] = it->recommended;
		closes[i] = (double)it->nr_closes;
		cost[i] = it->forced_minutes;
		strbuf_addf(&note, "%zu: ", it->nr_closes);
		proposals_name_escapes(&note, p, it->closes, it->nr_closes);
		close_notes[i] = strbuf_detach(&note, NULL);
		propose_text_minutes(&note, it->forced_minutes);
		strbuf_addf(&note, " min, %+" PRId64 " runs", it->forced);
		cost_notes[i] = strbuf_detach(&note, NULL);
	}
	chart_hbar_svg(sb, &c);
	for (size_t i = 0; i < n; i++) {
		free(close_notes[i]);
		free(cost_notes[i]);
	}
	free(close_notes);
	free(cost_notes);
	free(order);
	free(rows);
	free(marked);
	free(closes);
	free(cost);
	free(more);
	strbuf_release(&title);
}

/*
 * The text's table of candidates: its figures keyed as the JSON's
 * proposals.INDEX.FIELD (core/table.h's html_key), the glob as code.
 */
static const struct table_column candidate_columns[] = {
	{ .key = "closes", .type = CELL_COUNT },
	{ .key = "+runs", .type = CELL_COUNT, .html_key = "forced" },
	{ .key = "+min", .type = CELL_MINUTES, .delta = true, .na = "n/a",
	  .html_key = "forced_minutes" },
	{ .key = "FF after", .type = CELL_RATE, .na = "n/a", .html_key = "force_full_rate_after" },
	{ .key = "p95 after", .type = CELL_SECONDS, .na = "n/a", .html_key = "p95_after" },
	{ .key = "glob", .type = CELL_CODE },
	{ .key = "escapes", .type = CELL_TEXT },
};

/* Candidate `index`'s row: closes, +runs, +min, FF after, p95 after, glob, escapes. */
static void candidate_row(struct table *t, const struct proposals *p, size_t index)
{
	const struct proposal *it = &p->items[index];
	struct strbuf s = STRBUF_INIT;

	table_row(t);
	table_count(t, (int64_t)it->nr_closes);
	table_count(t, it->forced);
	table_number(t, it->forced_minutes);
	table_number(t, it->force_full_rate_after);
	table_number(t, it->p95_after);
	table_str(t, it->glob);
	if (it->recommended)
		table_lead(t, "\xe2\x98\x85 ");
	if (it->form == FORM_BUILTIN)
		table_note(t, "(suggested: built-in)");
	proposals_name_evidence(&s, p, it);
	table_str(t, s.buf);
	strbuf_release(&s);
}

/* The candidates rows (rows[i]: the index in p->items) as the page's table. */
static void candidate_table(struct strbuf *sb, const struct proposals *p, const size_t *rows,
			    size_t n)
{
	struct table t = TABLE_INIT(candidate_columns);

	t.html_class = "candidates";
	t.html_bare = true;
	t.html_row_key = "proposals";
	t.html_rows = rows;
	for (size_t i = 0; i < n; i++)
		candidate_row(&t, p, rows ? rows[i] : i);
	table_write(&t, FORMAT_HTML, sb);
	table_release(&t);
}

static void recommended(struct strbuf *sb, const struct proposals *p)
{
	struct strbuf s = STRBUF_INIT;

	strbuf_addstr(sb, "<h2>Recommended</h2>\n");
	if (!p->closable) {
		strbuf_addstr(sb, "<p>Nothing to close.</p>\n");
		return;
	}
	strbuf_addf(sb, "<p>%zu glob%s closing %" PRId64 " of %" PRId64 " new escapes: %+"
		    PRId64 " force-full runs, ", p->nr_recommended,
		    p->nr_recommended == 1 ? "" : "s", p->rec_closes, p->closable,
		    p->rec_forced);
	propose_text_minutes(&s, p->rec_forced_minutes);
	strbuf_addf(sb, "%s min; force-full ", s.buf);
	strbuf_reset(&s);
	metrics_fmt_pct(&s, p->rec_force_full_rate_after, 1);
	strbuf_addf(sb, "%s, shadow p95 ", s.buf);
	strbuf_reset(&s);
	metrics_fmt_secs(&s, p->rec_p95_after);
	strbuf_addf(sb, "%s.</p>\n", s.buf);
	candidate_table(sb, p, p->recommended, p->nr_recommended);
	strbuf_release(&s);
}

static void candidates(struct strbuf *sb, const struct proposals *p, int64_t limit)
{
	size_t shown = shown_of(p, limit);

	strbuf_addf(sb, "<h2>Candidates: %zu, ranked</h2>\n", p->nr);
	if (!p->nr)
		return;
	candidate_table(sb, p, NULL, shown);
	html_more(sb, shown, p->nr, "candidates", "--limit N or --limit all lists more");
}

/*
 * The escapes' and the latent misses' columns (the heads are the escapes';
 * escape_table names the latent misses' own): each cell a value and its
 * parts (core/table.h), a file with the rule it matched, a test with why
 * it was chosen.
 */
static const struct table_column escape_columns[] = {
	{ .key = "escape", .type = CELL_TEXT },
	{ .key = "state", .type = CELL_TEXT },
	{ .key = "changed (first rule)", .type = CELL_TEXT },
	{ .key = "missed or failed test, and its source", .type = CELL_TEXT },
};

/* The change: its name (keyed by its PR when known), its commit and its class. */
static void escape_cell(struct table *t, const struct proposal_escape *e, const char *list,
			size_t i)
{
	struct strbuf s = STRBUF_INIT;
	char *sha = xstrndup(e->sha, 12);

	propose_text_escape_name(&s, e);
	table_str(t, s.buf);
	if (e->has_pr) {
		char *k = xstrfmt("%s.%zu.pr", list, i);

		table_data(t, k, (double)e->pr);
		free(k);
	}
	table_part(t, PART_LINE, PART_CODE, sha);
	table_part(t, PART_SPACE, PART_NOWRAP, pair_class_name(e->cls));
	free(sha);
	strbuf_release(&s);
}

/* The changed files, each with the first rule that matches it ("unknown" without a diff). */
static void paths_cell(struct table *t, const struct proposals_rules *r,
		       const struct proposal_escape *e)
{
	struct strbuf s = STRBUF_INIT;

	table_str(t, e->diff_known ? "" : "unknown");
	for (size_t j = 0; j < e->paths.nr; j++) {
		table_part(t, j ? PART_LINE : PART_JOINED, PART_CODE, e->paths.items[j]);
		strbuf_reset(&s);
		propose_text_path_rule(&s, r, e->paths.items[j]);
		table_part(t, PART_SPACE, PART_MORE, s.buf);
	}
	strbuf_release(&s);
}

/* The missed (or failed) tests, each with the evidence that names it. */
static void evidence_cell(struct table *t, const struct proposal_escape *e)
{
	struct strbuf s = STRBUF_INIT;

	table_str(t, "");
	for (size_t j = 0; j < e->nr_evidence; j++) {
		table_part(t, j ? PART_LINE : PART_JOINED, PART_CODE, e->evidence[j].test);
		strbuf_reset(&s);
		propose_text_evidence(&s, &e->evidence[j]);
		table_part(t, PART_LINE, PART_MORE, s.buf);
	}
	strbuf_release(&s);
}

/* An escape (JSON key evidence) or a latent miss (latent_misses), its row. */
static void escape_row(struct table *t, const struct proposals *p,
		       const struct proposals_rules *r, size_t i, bool latent)
{
	const struct proposal_escape *e = latent ? &p->latent_list[i] : &p->escapes_list[i];
	struct strbuf s = STRBUF_INIT;

	table_row(t);
	escape_cell(t, e, latent ? "latent_misses" : "evidence", i);
	propose_text_state(&s, p, e);
	table_str(t, s.buf);
	paths_cell(t, r, e);
	evidence_cell(t, e);
	strbuf_release(&s);
}

/* The escapes' table, or the latent misses' (their first and last heads their own). */
static void escape_table(struct strbuf *sb, const struct proposals *p,
			 const struct proposals_rules *r, bool latent)
{
	struct table_column cols[ARRAY_SIZE(escape_columns)];
	struct table t = TABLE_INIT(cols);
	size_t n = latent ? p->nr_latent : p->nr_escapes;

	memcpy(cols, escape_columns, sizeof(cols));
	if (latent) {
		cols[0].key = "change";
		cols[3].key = "missed test, and its source";
	}
	t.html_class = "escapes";
	t.html_bare = true;
	for (size_t i = 0; i < n; i++)
		escape_row(&t, p, r, i, latent);
	table_write(&t, FORMAT_HTML, sb);
	table_release(&t);
}

static void escapes(struct strbuf *sb, const struct proposals *p, const struct proposals_rules *r)
{
	if (!p->nr_escapes)
		return;
	strbuf_addstr(sb, "<h2>Escapes and their evidence</h2>\n");
	escape_table(sb, p, r, false);
}

static void latent_misses(struct strbuf *sb, const struct proposals *p,
			  const struct proposals_rules *r)
{
	if (!p->nr_latent)
		return;
	strbuf_addstr(sb, "<h2>Latent misses: evidence, not escapes</h2>\n<p>The gate held (the "
		      "shadow run failed), but the selector missed a test the full run "
		      "failed too.</p>\n");
	escape_table(sb, p, r, true);
}

void propose_print_html(const struct proposals *p, const struct proposals_rules *r,
			const char *root, int64_t limit, int64_t now, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	header(&sb, p, r, root, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n");
	tiles(&sb, p);
	strbuf_addstr(&sb, "<div class=\"charts\">\n");
	chart_candidates(&sb, p, limit);
	strbuf_addstr(&sb, "</div>\n");
	recommended(&sb, p);
	candidates(&sb, p, limit);
	strbuf_addstr(&sb, "</section>\n<section class=\"sheet\">\n");
	escapes(&sb, p, r);
	latent_misses(&sb, p, r);
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
}
