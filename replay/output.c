/* Replay reports: aligned text for terminals, markdown, JSON and CSV (the tables through core/table.h). */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "replay/replay.h"

#include <pthread.h>

#define WIDTH 80

/* A table of the columns single, or pair's with a proposal (static arrays both). */
#define RUN_TABLE(run, single, pair)                                            \
	((run)->has_proposal ? (struct table){ .cols = (pair), .nr_cols = ARRAY_SIZE(pair) } \
			     : (struct table){ .cols = (single), .nr_cols = ARRAY_SIZE(single) })

static void join(struct strbuf *sb, const struct strlist *l, const char *sep)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (i)
			strbuf_addstr(sb, sep);
		strbuf_addstr(sb, l->items[i]);
	}
}

static void print_line(FILE *f, struct strbuf *line)
{
	while (line->len && line->buf[line->len - 1] == ' ')
		strbuf_setlen(line, line->len - 1);
	fprintf(f, "%s\n", line->buf);
	strbuf_reset(line);
}

/* "    LABEL: VALUE", sanitized and cut at 80 columns. */
static void print_note(FILE *f, const char *label, const char *value)
{
	struct strbuf line = STRBUF_INIT;
	size_t used;

	strbuf_addf(&line, "    %s: ", label);
	used = line.len;
	sanitize_cut(&line, value, WIDTH > used ? WIDTH - used : 0, "...");
	print_line(f, &line);
	strbuf_release(&line);
}

static void print_header(const struct replay_run *run, FILE *f)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addstr(&line, "replay of ");
	sanitize_cut(&line, run->branch ? run->branch : "HEAD", 50, "...");
	strbuf_addf(&line, " at %.12s", run->history.tip);
	print_line(f, &line);
	strbuf_addstr(&line, "window: ");
	time_format(&line, run->since);
	strbuf_addstr(&line, " to ");
	if (run->until == INT64_MAX)
		strbuf_addstr(&line, "now");
	else
		time_format(&line, run->until);
	print_line(f, &line);
	strbuf_addf(&line, "rules: %zu in effect", run->baseline.nr);
	for (size_t i = 0; i < run->rule_files.nr; i++) {
		strbuf_addstr(&line, i ? ", " : " from ");
		sanitize_cut(&line, run->rule_files.items[i], 40, "...");
	}
	if (run->has_proposal)
		strbuf_addf(&line, ", proposal %zu", run->proposal.nr);
	if (run->builtin.nr)
		strbuf_addf(&line, ", %zu built-in what-if", run->builtin.nr);
	strbuf_addf(&line, "; selector: %s; store: %s",
		    run->selector.cmd ? "yes" : "none", run->has_store ? "yes" : "none");
	print_line(f, &line);
	strbuf_release(&line);
}

/* Each line of sb to f, its trailing spaces (an empty last cell's gap) cut. */
static void print_lines(FILE *f, const struct strbuf *sb)
{
	struct strbuf line = STRBUF_INIT;

	for (const char *p = sb->buf, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		strbuf_add(&line, p, (size_t)(nl - p));
		print_line(f, &line);
		if (!*nl)
			break;
	}
	strbuf_release(&line);
}

/* A table in text, its lines as print_lines writes them. */
static void print_table(FILE *f, const struct table *t)
{
	struct strbuf sb = STRBUF_INIT;

	table_write(t, FORMAT_TEXT, &sb);
	print_lines(f, &sb);
	strbuf_release(&sb);
}

/*
 * The text's change rows: columns of fixed widths (text_width), so every
 * row, a table of its own (print_rows streams them), lines up under the
 * header. A wider cell (a PR of eight digits) widens its row alone.
 */
#define TEXT_CHANGE_COLUMNS                                                             \
	{ .key = "commit", .head = "COMMIT", .type = CELL_ID, .text_width = 10 },         \
	{ .key = "pr", .head = "PR", .type = CELL_PR, .gap = 1, .text_width = 6,          \
	  .left = true },                                                                 \
	{ .key = "date", .head = "DATE", .type = CELL_DATE, .gap = 1, .text_width = 10 }, \
	{ .key = "changed", .head = "CHG", .type = CELL_COUNT, .gap = 1, .text_width = 4, \
	  .na = "?" }

static const struct table_column text_change_columns[] = {
	TEXT_CHANGE_COLUMNS,
	{ .key = "decision", .head = "DECISION", .type = CELL_CLASS, .gap = 1, .text_width = 10 },
	{ .key = "selected", .head = "SEL", .type = CELL_COUNT, .gap = 1, .text_width = 5 },
	{ .key = "missed", .head = "MISS", .type = CELL_COUNT, .gap = 1, .text_width = 4 },
	/* Only when the line stays within WIDTH; else a "reasons:" note. */
	{ .key = "reasons", .head = "REASONS", .type = CELL_TEXT },
};

static const struct table_column text_change_columns_pair[] = {
	TEXT_CHANGE_COLUMNS,
	{ .key = "baseline", .head = "BASELINE", .type = CELL_CLASS, .gap = 1, .text_width = 10 },
	{ .key = "missed", .head = "MISS", .type = CELL_COUNT, .gap = 1, .text_width = 4 },
	{ .key = "proposal", .head = "PROPOSAL", .type = CELL_CLASS, .text_width = 10 },
	{ .key = "proposal_missed", .head = "MISS", .type = CELL_COUNT, .gap = 1,
	  .text_width = 4 },
	/* "*" where the proposal decides otherwise. */
	{ .key = "differs", .head = "", .type = CELL_TEXT },
};

static struct table text_change_table(const struct replay_run *run)
{
	return RUN_TABLE(run, text_change_columns, text_change_columns_pair);
}

/* A change's text row into t; reasons is the baseline's, or NULL: a proposal's row. */
static void text_change_row(struct table *t, const struct replay_change *ch,
			    const char *reasons)
{
	const struct replay_commit *c = ch->commit;
	char *shortsha = xstrndup(c->sha, 10);

	table_row(t);
	table_str(t, shortsha);
	table_pr(t, c->has_pr, c->pr);
	table_time(t, c->date);
	table_count_known(t, replay_paths_known(c), (int64_t)c->paths.nr);
	table_str(t, replay_decision_name(ch->base.decision));
	if (reasons) {
		table_count_known(t, ch->base.has_selected, ch->base.selected);
		table_count(t, (int64_t)ch->base.missed.nr);
		table_str(t, reasons);
	} else {
		table_count(t, (int64_t)ch->base.missed.nr);
		table_str(t, replay_decision_name(ch->prop.decision));
		table_count(t, (int64_t)ch->prop.missed.nr);
		table_str(t, ch->base.decision != ch->prop.decision ? "*" : "");
	}
	free(shortsha);
}

/* A change's text row, then its notes (prose lines under it). */
static void print_row(const struct replay_run *run, const struct replay_change *ch,
		      FILE *f)
{
	struct table t = text_change_table(run);
	struct strbuf line = STRBUF_INIT, reasons = STRBUF_INIT;

	t.no_header = true;
	if (!run->has_proposal) {
		join(&reasons, &ch->base.reasons, ", ");
		text_change_row(&t, ch, reasons.buf);
		table_write(&t, FORMAT_TEXT, &line);
		/* The reasons in the row when it stays within WIDTH (the cells
		 * are sanitized: a character a column). */
		if (utf8_chars(line.buf, line.len - 1) <= WIDTH) {
			strbuf_reset(&reasons);
		} else {
			table_release(&t);
			strbuf_reset(&line);
			text_change_row(&t, ch, "");
			table_write(&t, FORMAT_TEXT, &line);
		}
	} else {
		text_change_row(&t, ch, NULL);
		table_write(&t, FORMAT_TEXT, &line);
	}
	print_lines(f, &line);
	table_release(&t);
	if (!run->has_proposal && reasons.len)
		print_note(f, "reasons", reasons.buf);
	if (run->has_proposal && ch->base.decision != ch->prop.decision) {
		strbuf_reset(&reasons);
		join(&reasons, &ch->prop.reasons, ", ");
		print_note(f, "proposal", reasons.buf);
	}
	for (size_t i = 0; i < ch->base.missed.nr; i++)
		print_note(f, run->has_proposal ? "missed (baseline)" : "missed",
			   ch->base.missed.items[i]);
	for (size_t i = 0; run->has_proposal && i < ch->prop.missed.nr; i++)
		print_note(f, "missed (proposal)", ch->prop.missed.items[i]);
	if (replay_builtin_forces(ch)) {
		strbuf_reset(&reasons);
		strbuf_addstr(&reasons, "run_all, ");
		join(&reasons, &ch->suggested, ", ");
		print_note(f, "built-in", reasons.buf);
	}
	if (ch->base.disagrees)
		print_note(f, "disagrees", ch->base.disagreement);
	strbuf_release(&line);
	strbuf_release(&reasons);
}

static char *minutes_text(double m)
{
	return isnan(m) ? xstrdup("n/a") : xstrfmt("%.1f", m);
}

static size_t reason_count(const struct replay_totals *t, const char *name)
{
	for (size_t i = 0; i < t->reason_names.nr; i++)
		if (!strcmp(t->reason_names.items[i], name))
			return t->reason_counts[i];
	return 0;
}

/* Reasons by how often they fired (ties: first seen first). */
static size_t *reason_order(const struct replay_totals *t)
{
	size_t *order = xcalloc(t->reason_names.nr + 1, sizeof(*order));

	for (size_t i = 0; i < t->reason_names.nr; i++) {
		size_t j = i;

		while (j && t->reason_counts[order[j - 1]] < t->reason_counts[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return order;
}

/* The label column: wide enough for "  REASON", within `max`. */
static int label_width(const struct replay_totals *t, const struct replay_totals *u,
		       int min, int max)
{
	int w = min;

	for (int k = 0; k < 2; k++) {
		const struct replay_totals *x = k ? u : t;

		for (size_t i = 0; x && i < x->reason_names.nr; i++) {
			int n = (int)sanitized_chars(x->reason_names.items[i]) + 2;

			if (n > w)
				w = n;
		}
	}
	return w > max ? max : w;
}

/*
 * The text totals: a label column cut to label_width's width (set at run
 * time) and figures of fixed widths (text_fixed), so the counts, the gate
 * minutes and the proposal-only figures, tables of their own, line up as
 * one; a wider figure widens its own line alone.
 */
#define TOTAL_LABEL_COLUMN \
	{ .key = "total", .head = "", .type = CELL_TEXT, .text_fixed = true, .text_cut = true }

/* The baseline alone: a count, then what it means ("tests in 3 changes"). */
static const struct table_column total_columns[] = {
	TOTAL_LABEL_COLUMN,
	{ .key = "baseline", .type = CELL_COUNT, .gap = 1, .text_width = 8, .text_fixed = true },
	{ .key = "meaning", .type = CELL_TEXT, .gap = 1 },
};

static const struct table_column total_minutes_columns[] = {
	TOTAL_LABEL_COLUMN,
	{ .key = "baseline", .type = CELL_MINUTES, .plain = true, .na = "n/a", .gap = 1,
	  .text_width = 8, .text_fixed = true },
};

/* Baseline and proposal side by side; a proposal-only figure has no baseline. */
static const struct table_column pair_columns[] = {
	TOTAL_LABEL_COLUMN,
	{ .key = "baseline", .type = CELL_COUNT, .gap = 1, .text_width = 12, .text_fixed = true,
	  .na = "" },
	{ .key = "proposal", .type = CELL_COUNT, .gap = 1, .text_width = 12, .text_fixed = true },
};

static const struct table_column pair_minutes_columns[] = {
	TOTAL_LABEL_COLUMN,
	{ .key = "baseline", .type = CELL_MINUTES, .plain = true, .na = "n/a", .gap = 1,
	  .text_width = 12, .text_fixed = true },
	{ .key = "proposal", .type = CELL_MINUTES, .plain = true, .na = "n/a", .gap = 1,
	  .text_width = 12, .text_fixed = true },
};

/* A totals table of cols (n of them), its label column lw wide; free cols' copy after. */
static struct table totals_table(const struct table_column *cols, size_t n, int lw)
{
	struct table_column *own = xcalloc(n, sizeof(*own));
	struct table t = { .cols = own, .nr_cols = n, .no_header = true };

	memcpy(own, cols, n * sizeof(*own));
	own[0].text_width = lw;
	return t;
}

#define TOTALS_TABLE(cols, lw) totals_table((cols), ARRAY_SIZE(cols), (lw))

/* print_table, then table_release and the columns' copy freed. */
static void print_totals_table(FILE *f, struct table *t)
{
	print_table(f, t);
	table_release(t);
	free((void *)t->cols);
}

/* A baseline count's row: label, the figure, what it means (NULL: nothing). */
static void total_row(struct table *t, const char *label, size_t n, const char *meaning)
{
	table_row(t);
	table_str(t, label);
	table_count(t, (int64_t)n);
	table_str(t, meaning ? meaning : "");
}

/*
 * A row of the baseline's count (NULL: none, a proposal-only figure) and
 * the proposal's, when t has its column (md's totals without a proposal
 * have two columns).
 */
static void counts_row(struct table *t, const char *label, const size_t *a, size_t b)
{
	table_row(t);
	table_str(t, label);
	table_count_known(t, a, a ? (int64_t)*a : 0);
	if (t->nr_cols > 2)
		table_count(t, (int64_t)b);
}

/* "(4.9%)", the force-full share of the changes; NULL without changes. Caller frees. */
static char *force_full_share(const struct replay_totals *t)
{
	return t->changes ? xstrfmt("(%.1f%%)", 100.0 * (double)t->force_full /
				    (double)t->changes) : NULL;
}

/* The gate minutes' row, the baseline's and (b) the proposal's. */
static void print_minutes(FILE *f, int lw, double a, const double *b)
{
	struct table t = b ? TOTALS_TABLE(pair_minutes_columns, lw)
			   : TOTALS_TABLE(total_minutes_columns, lw);

	table_row(&t);
	table_str(&t, "gate minutes");
	table_number(&t, a);
	if (b)
		table_number(&t, *b);
	print_totals_table(f, &t);
}

/* How the minutes were estimated. */
static void print_estimate_note(const struct replay_run *run, const char *which,
				const struct replay_totals *t, FILE *f)
{
	const struct replay_record *rec = &run->record;
	char *full = minutes_text(rec->full_s / 60);
	char *narrow = minutes_text(rec->narrowed_s / 60);

	fprintf(f, "  %s%s%zu run_all x %s min + %zu narrowed x %s min\n",
		which ? which : "", which ? ": " : "= ", t->runs_full, full,
		t->runs_narrowed, narrow);
	free(full);
	free(narrow);
}

static void print_estimate_basis(const struct replay_run *run, FILE *f)
{
	fprintf(f, "  (store medians: %zu full runs, %zu narrowed shadow runs; "
		"nothing: 0)\n", run->record.full_n, run->record.narrowed_n);
}

static void print_totals_single(const struct replay_run *run, FILE *f)
{
	const struct replay_totals *t = &run->tb;
	size_t *order = reason_order(t);
	int lw = label_width(t, NULL, 16, 46);
	struct table x = TOTALS_TABLE(total_columns, lw);
	char *meaning;

	fputc('\n', f);
	total_row(&x, "changes", t->changes, NULL);
	meaning = force_full_share(t);
	total_row(&x, "force-full", t->force_full, meaning);
	free(meaning);
	for (size_t k = 0; k < t->reason_names.nr; k++) {
		char *label = xstrfmt("  %s", t->reason_names.items[order[k]]);

		total_row(&x, label, t->reason_counts[order[k]], NULL);
		free(label);
	}
	total_row(&x, "selected", t->selected, NULL);
	total_row(&x, "rules-only", t->rules_only, NULL);
	total_row(&x, "nothing", t->nothing, NULL);
	meaning = xstrfmt("tests in %zu changes", t->missed_changes);
	total_row(&x, "misses", t->misses, meaning);
	free(meaning);
	meaning = xstrfmt("of %zu recorded", t->recorded);
	total_row(&x, "disagreements", t->disagreements, meaning);
	free(meaning);
	print_totals_table(f, &x);
	print_minutes(f, lw, t->minutes, NULL);
	if (!run->has_store) {
		fputs("  (no store: no measured wall-clock)\n", f);
	} else {
		print_estimate_note(run, NULL, t, f);
		print_estimate_basis(run, f);
	}
	free(order);
}

/* A force-full count and (when there are changes) its rate, "12 (4.9%)". */
static void force_full_cell(struct table *x, const struct replay_totals *t)
{
	char *share = force_full_share(t);

	table_count(x, (int64_t)t->force_full);
	if (share)
		table_part(x, PART_SPACE, PART_TEXT, share);
	free(share);
}

static void print_totals_pair(const struct replay_run *run, FILE *f)
{
	const struct replay_totals *a = &run->tb, *b = &run->tp;
	int lw = label_width(a, b, 24, 52);
	struct table x = TOTALS_TABLE(pair_columns, lw);
	size_t *order = reason_order(b);

	fputc('\n', f);
	x.no_header = false;
	counts_row(&x, "changes", &a->changes, b->changes);
	table_row(&x);
	table_str(&x, "force-full");
	force_full_cell(&x, a);
	force_full_cell(&x, b);
	for (size_t k = 0; k < b->reason_names.nr; k++) {
		const char *name = b->reason_names.items[order[k]];
		char *label = xstrfmt("  %s", name);
		size_t n = reason_count(a, name);

		counts_row(&x, label, &n, b->reason_counts[order[k]]);
		free(label);
	}
	for (size_t i = 0; i < a->reason_names.nr; i++) {
		char *label;

		if (reason_count(b, a->reason_names.items[i]))
			continue;
		label = xstrfmt("  %s", a->reason_names.items[i]);
		counts_row(&x, label, &a->reason_counts[i], 0);
		free(label);
	}
	counts_row(&x, "misses", &a->misses, b->misses);
	counts_row(&x, "missed changes", &a->missed_changes, b->missed_changes);
	counts_row(&x, "disagreements", &a->disagreements, b->disagreements);
	print_totals_table(f, &x);
	print_minutes(f, lw, a->minutes, &b->minutes);
	x = TOTALS_TABLE(pair_columns, lw);
	counts_row(&x, "escapes closed", NULL, run->escapes_closed);
	counts_row(&x, "escapes opened", NULL, run->escapes_opened);
	counts_row(&x, "extra force-full", NULL, run->extra_force_full);
	print_totals_table(f, &x);
	if (!run->has_store) {
		fputs("  (no store: no measured wall-clock)\n", f);
	} else {
		print_estimate_note(run, "baseline", a, f);
		print_estimate_note(run, "proposal", b, f);
		print_estimate_basis(run, f);
	}
	free(order);
}

typedef void row_fn(const struct replay_run *run, const struct replay_change *ch,
		    FILE *f);

/* The rows [from, to), into a memory stream of their own (a second thread's). */
struct rows_share {
	const struct replay_run *run;
	row_fn *row;
	size_t from, to;
	char *buf;
	size_t len;
	bool ok;
};

static void *print_share(void *data)
{
	struct rows_share *sh = data;
	FILE *m = open_memstream(&sh->buf, &sh->len);

	if (!m)
		return NULL;
	for (size_t i = sh->from; i < sh->to; i++)
		sh->row(sh->run, &sh->run->changes[i], m);
	sh->ok = fclose(m) == 0;
	return NULL;
}

/*
 * Every change's row, in order. With -j 2 or more, a second thread formats
 * the older half meanwhile, written after the first (rows read only the
 * run).
 */
static void print_rows(const struct replay_run *run, FILE *f, row_fn *row)
{
	struct rows_share sh = { run, row, run->nr, run->nr, NULL, 0, false };
	pthread_t t;
	bool split = run->threads > 1 && run->nr >= 512;

	if (split) {
		sh.from = run->nr / 2;
		split = pthread_create(&t, NULL, print_share, &sh) == 0;
		if (!split)
			sh.from = run->nr;
	}
	for (size_t i = 0; i < sh.from; i++)
		row(run, &run->changes[i], f);
	if (split)
		pthread_join(t, NULL);
	if (sh.ok)
		fwrite(sh.buf, 1, sh.len, f);
	else
		for (size_t i = sh.from; i < sh.to; i++)
			row(run, &run->changes[i], f);
	free(sh.buf);
}

/* The built-ins' what-if beside the baseline, one line under the totals. */
static void builtin_line(const struct replay_run *run, struct strbuf *sb)
{
	strbuf_addf(sb, "built-in what-if (suggested: built-in): +%zu force-full, "
		    "closes %zu missed tests in %zu changes", run->builtin_forced,
		    run->builtin_misses_closed, run->builtin_changes_closed);
}

void replay_print_text(const struct replay_run *run, FILE *f)
{
	struct table head = text_change_table(run);

	print_header(run, f);
	fputc('\n', f);
	print_table(f, &head);
	print_rows(run, f, print_row);
	if (run->has_proposal)
		print_totals_pair(run, f);
	else
		print_totals_single(run, f);
	if (run->builtin.nr) {
		struct strbuf line = STRBUF_INIT;

		builtin_line(run, &line);
		fputc('\n', f);
		print_line(f, &line);
		strbuf_release(&line);
	}
}

/* ---- the changes as a table (core/table.h): md and csv ---- */

#define MD FORMAT_MD
#define CSV FORMAT_CSV

/*
 * An outcome's columns: the markdown heads them the same for the baseline
 * and the proposal, the csv keys the proposal's apart.
 */
#define OUTCOME_COLUMNS(pre, decision_head)                                            \
	{ .key = pre "decision", .head = decision_head, .type = CELL_CLASS },           \
	{ .key = pre "reasons", .head = "reasons", .type = CELL_TEXT },                 \
	{ .key = pre "selected", .head = "selected", .type = CELL_COUNT, .na = "-" },   \
	{ .key = pre "missed", .head = "missed", .type = CELL_TEXT },                   \
	{ .key = pre "disagrees", .type = CELL_BOOL, .formats = CSV }

/* The markdown shows a short commit and the recorded decision or the disagreement. */
#define CHANGE_COLUMNS_BEGIN                                                           \
	{ .key = "commit", .type = CELL_ID, .formats = MD },                        \
	{ .key = "commit", .type = CELL_ID, .formats = CSV },                           \
	{ .key = "pr", .head = "PR", .type = CELL_PR },                                 \
	{ .key = "date", .type = CELL_DATE },                                           \
	{ .key = "changed", .type = CELL_COUNT, .na = "?" }

#define CHANGE_COLUMNS_END                                                             \
	{ .key = "recorded", .type = CELL_TEXT, .formats = MD },                        \
	{ .key = "recorded_decision", .type = CELL_CLASS, .formats = CSV },             \
	{ .key = "builtin_decision", .type = CELL_CLASS, .formats = CSV },              \
	{ .key = "builtin_reasons", .type = CELL_TEXT, .formats = CSV }

static const struct table_column change_columns[] = {
	CHANGE_COLUMNS_BEGIN,
	OUTCOME_COLUMNS("", "decision"),
	CHANGE_COLUMNS_END,
};

static const struct table_column change_columns_pair[] = {
	CHANGE_COLUMNS_BEGIN,
	OUTCOME_COLUMNS("", "baseline"),
	OUTCOME_COLUMNS("proposal_", "proposal"),
	CHANGE_COLUMNS_END,
};

static void outcome_cells(struct table *t, const struct replay_outcome *o)
{
	table_word(t, replay_decision_name(o->decision));
	table_list(t, &o->reasons);
	table_count_known(t, o->has_selected, o->selected);
	table_list(t, &o->missed);
	if (o->compared)
		table_bool(t, o->disagrees);
	else
		table_null(t);
}

static void change_row(struct table *t, const struct replay_run *run,
		       const struct replay_change *ch)
{
	const struct replay_commit *c = ch->commit;
	const char *recorded = ch->head ? ch->head->shadow_decision : NULL;
	char *shortsha = xstrndup(c->sha, 10);

	table_row(t);
	table_str(t, shortsha);
	table_str(t, c->sha);
	table_pr(t, c->has_pr, c->pr);
	table_time(t, c->date);
	table_count_known(t, replay_paths_known(c), (int64_t)c->paths.nr);
	outcome_cells(t, &ch->base);
	if (run->has_proposal)
		outcome_cells(t, &ch->prop);
	/* The recorded decision, or how the baseline disagrees with it. */
	if (ch->base.disagrees)
		table_str(t, ch->base.disagreement);
	else
		table_word(t, recorded ? recorded : "");
	table_word(t, recorded ? recorded : "");
	/* The built-ins' what-if, as JSON's "builtin" (empty: they force nothing). */
	if (replay_builtin_forces(ch)) {
		table_word(t, "run_all");
		table_list(t, &ch->suggested);
	} else {
		table_word(t, "");
		table_word(t, "");
	}
	free(shortsha);
}

static struct table change_table(const struct replay_run *run)
{
	return RUN_TABLE(run, change_columns, change_columns_pair);
}

/* One change's row alone (print_rows' row: a table of one row, headless). */
static void change_line(const struct replay_run *run, const struct replay_change *ch,
			FILE *f, enum output_format fmt)
{
	struct table t = change_table(run);

	t.no_header = true;
	change_row(&t, run, ch);
	table_print(&t, fmt, f);
	table_release(&t);
}

static void md_row(const struct replay_run *run, const struct replay_change *ch, FILE *f)
{
	change_line(run, ch, f, FORMAT_MD);
}

static void csv_row(const struct replay_run *run, const struct replay_change *ch, FILE *f)
{
	change_line(run, ch, f, FORMAT_CSV);
}

/*
 * Every change's row in format f (md or csv) after the header: a row at
 * a time, as print_rows formats them (the older half in a second thread
 * with -j 2), so a million changes are never held whole.
 */
static void print_changes(const struct replay_run *run, enum output_format f, FILE *out)
{
	struct table head = change_table(run);

	table_print(&head, f, out);
	print_rows(run, out, f == FORMAT_MD ? md_row : csv_row);
}

/* ---- markdown ---- */

static const struct table_column reason_columns[] = {
	{ .key = "force-full reason", .type = CELL_TEXT },
	{ .key = "changes", .type = CELL_COUNT },
};

/* The totals, the proposal's column only with a proposal; an empty cell "| |". */
static const struct table_column md_total_columns[] = {
	{ .key = "total", .type = CELL_TEXT },
	{ .key = "baseline", .type = CELL_COUNT, .md_tight = true },
	{ .key = "proposal", .type = CELL_COUNT },
};

static const struct table_column md_minutes_columns[] = {
	{ .key = "total", .type = CELL_TEXT },
	{ .key = "baseline", .type = CELL_MINUTES, .plain = true, .na = "n/a" },
	{ .key = "proposal", .type = CELL_MINUTES, .plain = true, .na = "n/a" },
};

static void print_md_totals(const struct replay_run *run, FILE *f)
{
	const struct replay_totals *a = &run->tb, *b = &run->tp;
	size_t nr_cols = run->has_proposal ? 3 : 2;
	struct table t = TABLE_INIT(md_total_columns), m = TABLE_INIT(md_minutes_columns);

	t.nr_cols = m.nr_cols = nr_cols;
	counts_row(&t, "changes", &a->changes, b->changes);
	counts_row(&t, "force-full", &a->force_full, b->force_full);
	counts_row(&t, "misses", &a->misses, b->misses);
	counts_row(&t, "missed changes", &a->missed_changes, b->missed_changes);
	counts_row(&t, "disagreements", &a->disagreements, b->disagreements);
	fputc('\n', f);
	table_print(&t, FORMAT_MD, f);
	table_release(&t);
	/* The minutes and the proposal's escapes: rows of their own types, headless. */
	m.no_header = t.no_header = true;
	table_row(&m);
	table_str(&m, "gate minutes");
	table_number(&m, a->minutes);
	if (run->has_proposal)
		table_number(&m, b->minutes);
	table_print(&m, FORMAT_MD, f);
	table_release(&m);
	if (run->has_proposal) {
		counts_row(&t, "escapes closed", NULL, run->escapes_closed);
		counts_row(&t, "escapes opened", NULL, run->escapes_opened);
		table_print(&t, FORMAT_MD, f);
		table_release(&t);
	}
}

void replay_print_md(const struct replay_run *run, FILE *f)
{
	struct strbuf sb = STRBUF_INIT, branch = STRBUF_INIT;
	const struct replay_totals *t = &run->tb;

	md_escape(&branch, run->branch ? run->branch : "HEAD");
	fprintf(f, "## Replay of %s at `%.12s`\n\n", branch.buf, run->history.tip);
	print_changes(run, FORMAT_MD, f);
	print_md_totals(run, f);
	if (run->builtin.nr) {
		struct strbuf line = STRBUF_INIT;

		strbuf_reset(&sb);
		builtin_line(run, &line);
		md_escape(&sb, line.buf);
		fprintf(f, "\n%s\n", sb.buf);
		strbuf_release(&line);
	}
	if (t->reason_names.nr) {
		struct table r = TABLE_INIT(reason_columns);
		size_t *order = reason_order(t);

		for (size_t k = 0; k < t->reason_names.nr; k++) {
			table_row(&r);
			table_str(&r, t->reason_names.items[order[k]]);
			table_count(&r, (int64_t)t->reason_counts[order[k]]);
		}
		fputc('\n', f);
		table_print(&r, FORMAT_MD, f);
		table_release(&r);
		free(order);
	}
	strbuf_release(&sb);
	strbuf_release(&branch);
}

/* ---- JSON ---- */

static void json_list(cJSON *obj, const char *key, const struct strlist *l)
{
	cJSON *arr = cJSON_AddArrayToObject(obj, key);

	for (size_t i = 0; i < l->nr; i++)
		json_push_string(arr, l->items[i]);
}

/* An outcome's keys, the change's after its own and the proposal's object. */
#define OUTCOME_JSON_COLUMNS                                                     \
	{ .key = "decision", .type = CELL_CLASS },                               \
	{ .key = "reasons", .type = CELL_TEXT },                                 \
	{ .key = "selected", .type = CELL_COUNT },                               \
	{ .key = "missed", .type = CELL_ID },                                    \
	{ .key = "selection", .type = CELL_ID },                                 \
	{ .key = "disagrees", .type = CELL_BOOL },                               \
	{ .key = "disagreement", .type = CELL_TEXT }

static const struct table_column json_change_columns[] = {
	{ .key = "commit", .type = CELL_TEXT },
	{ .key = "pr", .type = CELL_PR },
	{ .key = "date", .type = CELL_TIME },
	{ .key = "subject", .type = CELL_TEXT },
	{ .key = "changed", .type = CELL_COUNT },
	{ .key = "paths", .type = CELL_PATH },
	OUTCOME_JSON_COLUMNS,
};

static const struct table_column json_outcome_columns[] = {
	OUTCOME_JSON_COLUMNS,
};

/* A decision another than the replay's own: the recorded one, the built-ins'. */
static const struct table_column json_decision_columns[] = {
	{ .key = "decision", .type = CELL_CLASS },
	{ .key = "reasons", .type = CELL_TEXT },
	{ .key = "head", .type = CELL_TEXT },
};

static void json_outcome_cells(struct table *t, const struct replay_outcome *x)
{
	table_str(t, replay_decision_name(x->decision));
	table_list(t, &x->reasons);
	table_count_known(t, x->has_selected, x->selected);
	table_list(t, &x->missed);
	table_list(t, &x->selection);
	if (x->compared)
		table_bool(t, x->disagrees);
	else
		table_null(t);
	table_str(t, x->disagreement);
}

/* The proposal's outcome as its own object; the caller owns it. */
static cJSON *json_outcome(const struct replay_outcome *x)
{
	struct table t = TABLE_INIT(json_outcome_columns);
	cJSON *o;

	table_row(&t);
	json_outcome_cells(&t, x);
	o = table_json_object(&t);
	table_release(&t);
	return o;
}

/* A decision's object (head NULL: no "head" key); the caller owns it. */
static cJSON *json_decision(const char *decision, const struct strlist *reasons,
			    const char *head)
{
	struct table t = TABLE_INIT(json_decision_columns);
	cJSON *o;

	if (!head)
		t.nr_cols--;
	table_row(&t);
	table_str(&t, decision);
	table_list(&t, reasons);
	if (head)
		table_str(&t, head);
	o = table_json_object(&t);
	table_release(&t);
	return o;
}

/*
 * One change's object: its row of the change columns, then the recorded
 * decision, the proposal's outcome and the built-ins' what-if (objects or
 * null); the caller owns it.
 */
static cJSON *json_change(const struct replay_run *run, const struct replay_change *ch)
{
	const struct replay_commit *c = ch->commit;
	struct table t = TABLE_INIT(json_change_columns);
	cJSON *o;

	table_row(&t);
	table_str(&t, c->sha);
	table_pr(&t, c->has_pr, c->pr);
	table_time(&t, c->date);
	table_str(&t, c->subject);
	table_count_known(&t, replay_paths_known(c), (int64_t)c->paths.nr);
	table_list(&t, &c->paths);
	json_outcome_cells(&t, &ch->base);
	o = table_json_object(&t);
	table_release(&t);
	if (ch->head && ch->head->shadow_decision)
		cJSON_AddItemToObject(o, "recorded",
				      json_decision(ch->head->shadow_decision,
						    &ch->head->shadow_reasons, ch->head->sha));
	else
		cJSON_AddNullToObject(o, "recorded");
	if (run->has_proposal)
		cJSON_AddItemToObject(o, "proposal", json_outcome(&ch->prop));
	if (replay_builtin_forces(ch))
		cJSON_AddItemToObject(o, "builtin", json_decision("run_all", &ch->suggested, NULL));
	else
		cJSON_AddNullToObject(o, "builtin");
	return o;
}

static double rate(size_t n, size_t of)
{
	return of ? (double)n / (double)of : NAN;
}

static cJSON *json_totals(const struct replay_run *run, const struct replay_totals *t)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *by, *dec, *est;
	size_t *order = reason_order(t);

	json_add_int(o, "changes", (int64_t)t->changes);
	json_add_int(o, "force_full", (int64_t)t->force_full);
	json_add_number(o, "force_full_rate", rate(t->force_full, t->changes));
	by = cJSON_AddObjectToObject(o, "by_reason");
	for (size_t k = 0; k < t->reason_names.nr; k++)
		json_add_int(by, t->reason_names.items[order[k]],
			     (int64_t)t->reason_counts[order[k]]);
	json_add_int(o, "misses", (int64_t)t->misses);
	json_add_int(o, "missed_changes", (int64_t)t->missed_changes);
	dec = cJSON_AddObjectToObject(o, "decisions");
	json_add_int(dec, "run_all", (int64_t)t->force_full);
	json_add_int(dec, "selected", (int64_t)t->selected);
	json_add_int(dec, "nothing", (int64_t)t->nothing);
	json_add_int(dec, "rules-only", (int64_t)t->rules_only);
	json_add_int(o, "recorded", (int64_t)t->recorded);
	json_add_int(o, "disagreements", (int64_t)t->disagreements);
	if (run->selector.cmd)
		json_add_int(o, "not_reproducible", (int64_t)t->not_reproducible);
	json_add_number(o, "gate_minutes", t->minutes);
	est = cJSON_AddObjectToObject(o, "estimate");
	json_add_int(est, "full_runs", (int64_t)t->runs_full);
	json_add_int(est, "narrowed_runs", (int64_t)t->runs_narrowed);
	json_add_number(est, "full_run_s", run->record.full_s);
	json_add_number(est, "narrowed_run_s", run->record.narrowed_s);
	free(order);
	return o;
}

void replay_print_json(const struct replay_run *run, FILE *f)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *win = cJSON_AddObjectToObject(root, "window");
	cJSON *changes;

	json_add_time(win, "since", run->since);
	json_add_time(win, "until", run->until);
	json_add_string(root, "branch", run->branch ? run->branch : "HEAD");
	json_add_string(root, "tip", run->history.tip);
	json_add_string_or_null(root, "selector", run->selector.cmd ? run->selector.name : NULL);
	if (run->selector.cmd) {
		cJSON *sel = cJSON_AddObjectToObject(root, "selector_run");

		json_add_string(sel, "command", run->selector.cmd);
		json_add_string(sel, "format", run->selector.adapter->name);
		json_add_int(sel, "calls", (int64_t)run->selector_calls);
		json_add_int(sel, "cached", (int64_t)run->selector_cached);
	}
	json_add_bool(root, "store", run->has_store);
	changes = cJSON_AddArrayToObject(root, "changes");
	for (size_t i = 0; i < run->nr; i++)
		cJSON_AddItemToArray(changes, json_change(run, &run->changes[i]));
	cJSON_AddItemToObject(root, "totals", json_totals(run, &run->tb));
	json_list(root, "rules_in_effect", &run->rule_files);
	if (run->builtin.nr) {
		cJSON *b = cJSON_AddObjectToObject(root, "builtin");

		json_add_int(b, "candidates", (int64_t)run->builtin.nr);
		json_add_int(b, "extra_force_full", (int64_t)run->builtin_forced);
		json_add_number(b, "force_full_rate_after",
				rate(run->tb.force_full + run->builtin_forced, run->tb.changes));
		json_add_int(b, "misses_closed", (int64_t)run->builtin_misses_closed);
		json_add_int(b, "missed_changes_closed", (int64_t)run->builtin_changes_closed);
	} else {
		cJSON_AddNullToObject(root, "builtin");
	}
	if (run->has_proposal) {
		cJSON *cmp;

		cJSON_AddItemToObject(root, "baseline", json_totals(run, &run->tb));
		cJSON_AddItemToObject(root, "proposal", json_totals(run, &run->tp));
		cmp = cJSON_AddObjectToObject(root, "comparison");
		json_add_int(cmp, "escapes_closed", (int64_t)run->escapes_closed);
		json_add_int(cmp, "escapes_opened", (int64_t)run->escapes_opened);
		json_add_int(cmp, "extra_force_full", (int64_t)run->extra_force_full);
		json_add_number(cmp, "force_full_rate_before",
				rate(run->tb.force_full, run->tb.changes));
		json_add_number(cmp, "force_full_rate_after",
				rate(run->tp.force_full, run->tp.changes));
		json_add_number(cmp, "gate_minutes_before", run->tb.minutes);
		json_add_number(cmp, "gate_minutes_after", run->tp.minutes);
	}
	json_print_free(root, f);
}

/* ---- CSV ---- */

void replay_print_csv(const struct replay_run *run, FILE *f)
{
	print_changes(run, FORMAT_CSV, f);
}

/* ---- the pieces the HTML page (output_html.c) shows as these formats do ---- */

char *replay_text_minutes(double m)
{
	return minutes_text(m);
}

double replay_rate(size_t n, size_t of)
{
	return rate(n, of);
}

size_t *replay_reason_order(const struct replay_totals *t)
{
	return reason_order(t);
}

size_t replay_reason_count(const struct replay_totals *t, const char *name)
{
	return reason_count(t, name);
}
