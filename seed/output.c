/* `tiadash seed` output: the table, the changes, the escapes with what would have caught them, the uncaught by file; text, md, json, csv, html. */
#include "core/tiadash.h"
#include "core/html.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/common.h"
#include "seed/seed.h"

/* ---- what the formats share ---- */

static const struct seed_change_info *change_of(const struct seed_info *i, int64_t pos)
{
	for (size_t k = 0; k < i->nr_changes; k++)
		if (i->changes[k].pos == pos)
			return &i->changes[k];
	return NULL;
}

/* "0123456789ab (#12)" or "0123456789ab" of a mutant's change. */
static void fmt_change(struct strbuf *sb, const struct seed_info *i, int64_t pos)
{
	const struct seed_change_info *c = change_of(i, pos);

	if (!c) {
		strbuf_addch(sb, '?');
		return;
	}
	strbuf_addf(sb, "%.12s", c->sha);
	if (c->has_pr)
		strbuf_addf(sb, " (#%" PRId64 ")", c->pr);
}

static int64_t count_in_change(const struct seed_info *i, int64_t pos, bool valid)
{
	int64_t n = 0;

	for (size_t k = 0; k < i->nr_mutants; k++)
		if (i->mutants[k].change == pos && (i->mutants[k].verdict != SEED_INVALID) == valid)
			n++;
	return n;
}

/* The uncaught mutants' indexes, by path then line (stable). */
static size_t *uncaught_by_file(const struct seed_info *i, size_t *nr)
{
	size_t *v = xcalloc(i->nr_mutants + 1, sizeof(*v));

	*nr = 0;
	for (size_t k = 0; k < i->nr_mutants; k++)
		if (i->mutants[k].verdict == SEED_NONE)
			v[(*nr)++] = k;
	/* insertion sort: lists are short, and it keeps equal keys in order */
	for (size_t a = 1; a < *nr; a++) {
		size_t x = v[a], b = a;

		while (b > 0) {
			const struct seed_mutant_info *p = &i->mutants[v[b - 1]], *q = &i->mutants[x];
			int c = strcmp(p->path, q->path);

			if (c < 0 || (c == 0 && p->line <= q->line))
				break;
			v[b] = v[b - 1];
			b--;
		}
		v[b] = x;
	}
	return v;
}

/* The rule-file line: blanks and backslashes in test names escaped (core/rules.h). */
static void select_rule(struct strbuf *sb, const struct seed_select *s)
{
	strbuf_addf(sb, "select %s", s->glob);
	for (size_t t = 0; t < s->tests.nr; t++) {
		strbuf_addch(sb, ' ');
		for (const char *p = s->tests.items[t]; *p; p++) {
			if (*p == ' ' || *p == '\t' || *p == '\\')
				strbuf_addch(sb, '\\');
			strbuf_addch(sb, *p);
		}
	}
}

static const char *stop_note(const struct seed_report *r)
{
	switch (r->stop) {
	case SEED_BUDGET: return "stopped at the budget: what finished is counted";
	case SEED_INTERRUPTED: return "interrupted: what finished is counted";
	case SEED_DONE: break;
	}
	return NULL;
}

/* ---- text ---- */

static void put(struct metrics_out *o, const char *s)
{
	metrics_put_text(o, s);
}

static void text_header(struct metrics_out *o, const struct seed_report *r)
{
	const struct metrics_seeded *f = r->fig;
	const struct seed_info *i = &f->info;
	struct strbuf *sb = &o->sb;

	strbuf_addstr(sb, "Seeded       ");
	metrics_seeded_summary(sb, f);
	strbuf_addstr(sb, "\nSelector     ");
	put(o, i->selector);
	strbuf_addstr(sb, "\nSubset       ");
	put(o, i->test_cmd);
	strbuf_addstr(sb, "\nFull suite   ");
	put(o, i->full_cmd);
	strbuf_addf(sb, "\nTimed out    %" PRId64 " (counted as caught)\n", f->timeouts);
	if (stop_note(r))
		strbuf_addf(sb, "Note         %s\n", stop_note(r));
	strbuf_addf(sb, "\n%-30s %5s  rate [", "", "count");
	metrics_fmt_confidence(sb, f->confidence);
	strbuf_addstr(sb, " interval]\n");
	metrics_seeded_rows(sb, f, "");
}

static void text_changes(struct metrics_out *o, const struct seed_info *i)
{
	struct strbuf *sb = &o->sb;

	if (!i->nr_changes)
		return;
	strbuf_addstr(sb, "\nChanges\n");
	for (size_t k = 0; k < i->nr_changes; k++) {
		const struct seed_change_info *c = &i->changes[k];

		strbuf_addstr(sb, "  ");
		fmt_change(sb, i, c->pos);
		strbuf_addf(sb, "  %s", c->decision);
		if (c->selected >= 0)
			strbuf_addf(sb, " %" PRId64, c->selected);
		if (c->skipped) {
			strbuf_addstr(sb, ": ");
			put(o, c->skipped);
		} else {
			strbuf_addf(sb, "; %" PRId64 " files outside, %" PRId64 " reached by the "
				    "selector; %" PRId64 " mutants, %" PRId64 " invalid", c->candidates,
				    c->reached, count_in_change(i, c->pos, true),
				    count_in_change(i, c->pos, false));
		}
		strbuf_addch(sb, '\n');
	}
}

static void text_mutant(struct metrics_out *o, const struct seed_info *i,
			const struct seed_mutant_info *m)
{
	struct strbuf *sb = &o->sb;

	strbuf_addstr(sb, "  ");
	put(o, m->path);
	strbuf_addf(sb, ":%" PRId64 "  %s  change ", m->line, m->op);
	fmt_change(sb, i, m->change);
	if (m->timed_out)
		strbuf_addstr(sb, "  (timed out)");
	strbuf_addstr(sb, "\n    - ");
	put(o, m->before);
	strbuf_addstr(sb, "\n    + ");
	put(o, m->after);
	strbuf_addch(sb, '\n');
}

static void text_escapes(struct metrics_out *o, const struct seed_report *r)
{
	const struct seed_info *i = &r->fig->info;
	const struct seed_candidates *c = r->cand;
	struct strbuf *sb = &o->sb;

	if (!r->fig->counts[SEED_FULL])
		return;
	strbuf_addstr(sb, "\nEscapes (caught only by the full suite)\n");
	for (size_t k = 0; k < i->nr_mutants; k++) {
		const struct seed_mutant_info *m = &i->mutants[k];

		if (m->verdict != SEED_FULL)
			continue;
		text_mutant(o, i, m);
		if (!m->caught_by.nr)
			strbuf_addstr(sb, "    caught by: (no JUnit report: write one to "
				      "$TIADASH_JUNIT)\n");
		for (size_t t = 0; t < m->caught_by.nr; t++) {
			strbuf_addstr(sb, t ? "               " : "    caught by  ");
			put(o, m->caught_by.items[t]);
			strbuf_addch(sb, '\n');
		}
	}
	if (!c)
		return;
	strbuf_addf(sb, "\nWhat would have caught them (measured on the %" PRId64
		    " %s of the window)\n", c->history, c->history == 1 ? "change" : "changes");
	for (size_t k = 0; k < c->nr_selects; k++) {
		struct strbuf rule = STRBUF_INIT;

		select_rule(&rule, &c->selects[k]);
		strbuf_addstr(sb, "  ");
		put(o, rule.buf);
		strbuf_addf(sb, "\n      closes %zu, touched by %" PRId64 " %s\n",
			    c->selects[k].nr_closes, c->selects[k].changes,
			    c->selects[k].changes == 1 ? "change" : "changes");
		strbuf_release(&rule);
	}
	for (size_t k = 0; k < c->nr_globs; k++) {
		const struct seed_glob *g = &c->globs[k];

		strbuf_addstr(sb, "  force-full ");
		put(o, g->glob);
		strbuf_addf(sb, "\n      %s: closes %zu, forces %" PRId64 " of %" PRId64
			    " %s%s\n", g->form, g->nr_closes, g->forced, c->history,
			    c->history == 1 ? "change" : "changes",
			    g->recommended ? " (recommended)" : "");
	}
}

static void text_uncaught(struct metrics_out *o, const struct seed_info *i)
{
	size_t nr, *v = uncaught_by_file(i, &nr);
	struct strbuf *sb = &o->sb;

	if (nr)
		strbuf_addstr(sb, "\nCaught by no test, by file (equivalent mutants, which no test "
			      "can catch, too)\n");
	for (size_t k = 0; k < nr; k++) {
		const struct seed_mutant_info *m = &i->mutants[v[k]];

		if (!k || strcmp(i->mutants[v[k - 1]].path, m->path)) {
			size_t n = 0;

			while (k + n < nr && !strcmp(i->mutants[v[k + n]].path, m->path))
				n++;
			strbuf_addstr(sb, "  ");
			put(o, m->path);
			strbuf_addf(sb, "  %zu\n", n);
		}
		/* Before and after: whether the two can differ is the reader's call. */
		strbuf_addf(sb, "    :%" PRId64 "  %s  ", m->line, m->op);
		fmt_change(sb, i, m->change);
		strbuf_addstr(sb, "\n      - ");
		put(o, m->before);
		strbuf_addstr(sb, "\n      + ");
		put(o, m->after);
		strbuf_addf(sb, "\n      executed by the full suite: %s\n",
			    seed_executed_name(m->executed));
	}
	free(v);
}

static void text_invalid(struct metrics_out *o, const struct seed_info *i)
{
	bool any = false;

	for (size_t k = 0; k < i->nr_mutants; k++) {
		const struct seed_mutant_info *m = &i->mutants[k];

		if (m->verdict != SEED_INVALID)
			continue;
		if (!any)
			strbuf_addstr(&o->sb, "\nInvalid (replaced)\n");
		any = true;
		strbuf_addstr(&o->sb, "  ");
		put(o, m->path);
		/* What failed on a line of its own: a compiler's or pytest's line is long. */
		strbuf_addf(&o->sb, ":%" PRId64 "  %s\n    ", m->line, m->op);
		put(o, m->why ? m->why : "");
		strbuf_addch(&o->sb, '\n');
	}
}

void seed_print_text(const struct seed_report *r, FILE *f)
{
	struct metrics_out o = { STRBUF_INIT, false };

	text_header(&o, r);
	text_changes(&o, &r->fig->info);
	text_escapes(&o, r);
	text_uncaught(&o, &r->fig->info);
	text_invalid(&o, &r->fig->info);
	fwrite(o.sb.buf, 1, o.sb.len, f);
	strbuf_release(&o.sb);
}

/* ---- the tables of md and html (core/table.h): each column once, by the formats that show it ---- */

#define MD FORMAT_MD
#define HTML FORMAT_HTML

static const struct table_column rate_columns[] = {
	{ .key = "seeded defects", .type = CELL_CLASS },
	{ .key = "count", .type = CELL_COUNT },
	{ .key = "rate", .type = CELL_RATE, .na = "n/a" },
	{ .key = "interval", .type = CELL_TEXT },
};

/* The share of each class with its interval, as the markdown's table. */
static void rate_table(struct table *t, const struct metrics_seeded *fig)
{
	for (int k = 0; k < NR_SEED_CLASSES; k++) {
		const struct stats_rate *x = &fig->rates[k];
		struct strbuf ci = STRBUF_INIT;

		if (isnan(x->rate))
			strbuf_addstr(&ci, "n/a");
		else
			strbuf_addf(&ci, "%.1f%% to %.1f%%", x->ci[0] * 100, x->ci[1] * 100);
		table_row(t);
		table_str(t, metrics_seeded_label((enum seed_verdict)k));
		table_count(t, x->x);
		table_number(t, x->rate);
		table_str(t, ci.buf);
		strbuf_release(&ci);
	}
}

/* The markdown names a mutant's change; the page shows its before and after. */
static const struct table_column escape_columns[] = {
	{ .key = "mutant", .type = CELL_CODE },
	{ .key = "operator", .type = CELL_CLASS },
	{ .key = "change", .type = CELL_TEXT, .formats = MD },
	{ .key = "before / after", .type = CELL_CODE, .formats = HTML },
	{ .key = "caught by", .type = CELL_CODE },
};

/* The markdown has the file and line apart, before and after apart; the page each in one. */
static const struct table_column uncaught_columns[] = {
	{ .key = "file", .type = CELL_CODE, .formats = MD },
	{ .key = "line", .type = CELL_COUNT, .formats = MD },
	{ .key = "mutant", .type = CELL_CODE, .formats = HTML },
	{ .key = "operator", .type = CELL_CLASS },
	{ .key = "before", .type = CELL_CODE, .formats = MD },
	{ .key = "after", .type = CELL_CODE, .formats = MD },
	{ .key = "before / after", .type = CELL_CODE, .formats = HTML },
	{ .key = "executed by the full suite", .type = CELL_CLASS },
};

/* "path:line" of a mutant into sb (reset). */
static const char *where_of(struct strbuf *sb, const struct seed_mutant_info *m)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s:%" PRId64, m->path, m->line);
	return sb->buf;
}

static void before_after(struct strlist *l, const struct seed_mutant_info *m)
{
	strlist_push(l, m->before);
	strlist_push(l, m->after);
}

/* The escapes (verdict full), in the mutants' order. */
static void escape_table(struct table *t, const struct seed_info *i)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < i->nr_mutants; k++) {
		const struct seed_mutant_info *m = &i->mutants[k];
		struct strlist both = STRLIST_INIT;

		if (m->verdict != SEED_FULL)
			continue;
		table_row(t);
		table_str(t, where_of(&sb, m));
		table_str(t, m->op);
		strbuf_reset(&sb);
		fmt_change(&sb, i, m->change);
		table_str(t, sb.buf);
		before_after(&both, m);
		table_list(t, &both);
		table_list(t, &m->caught_by);
		strlist_release(&both);
	}
	strbuf_release(&sb);
}

/* The mutants no test caught, by file then line; false when there is none. */
static bool uncaught_table(struct table *t, const struct seed_info *i)
{
	size_t nr, *v = uncaught_by_file(i, &nr);
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < nr; k++) {
		const struct seed_mutant_info *m = &i->mutants[v[k]];
		struct strlist both = STRLIST_INIT;

		table_row(t);
		table_str(t, m->path);
		table_count(t, m->line);
		table_str(t, where_of(&sb, m));
		table_str(t, m->op);
		table_str(t, m->before);
		table_str(t, m->after);
		before_after(&both, m);
		table_list(t, &both);
		table_str(t, seed_executed_name(m->executed));
		strlist_release(&both);
	}
	strbuf_release(&sb);
	free(v);
	return nr > 0;
}

/* ---- markdown ---- */

void seed_print_md(const struct seed_report *r, FILE *f)
{
	const struct metrics_seeded *fig = r->fig;
	const struct seed_info *i = &fig->info;
	struct table rates = TABLE_INIT(rate_columns), esc = TABLE_INIT(escape_columns);
	struct table unc = TABLE_INIT(uncaught_columns);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "# tiadash seed\n\n");
	metrics_seeded_summary(&sb, fig);
	strbuf_addstr(&sb, ".\n\nSelector: ");
	md_escape(&sb, i->selector);
	strbuf_addstr(&sb, "\n\n");
	rate_table(&rates, fig);
	table_write(&rates, FORMAT_MD, &sb);
	if (stop_note(r))
		strbuf_addf(&sb, "\n%s.\n", stop_note(r));
	if (fig->counts[SEED_FULL]) {
		strbuf_addstr(&sb, "\n## Escapes\n\n");
		escape_table(&esc, i);
		table_write(&esc, FORMAT_MD, &sb);
	}
	if (uncaught_table(&unc, i)) {
		strbuf_addstr(&sb, "\n## Caught by no test\n\nEquivalent mutants, which no test "
			      "can catch, are among them.\n\n");
		table_write(&unc, FORMAT_MD, &sb);
	}
	table_release(&rates);
	table_release(&esc);
	table_release(&unc);
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
}

/* ---- json ---- */

static cJSON *json_mutant(const struct seed_info *i, const struct seed_mutant_info *m)
{
	cJSON *o = cJSON_CreateObject();
	const struct seed_change_info *c = change_of(i, m->change);

	json_add_string_or_null(o, "commit", c ? c->sha : NULL);
	json_add_opt_int(o, "pr", c && c->has_pr, c ? c->pr : 0);
	json_add_string(o, "path", m->path);
	json_add_int(o, "line", m->line);
	json_add_int(o, "column", m->col + 1);
	json_add_string(o, "operator", m->op);
	json_add_string(o, "before", m->before);
	json_add_string(o, "after", m->after);
	json_add_string(o, "verdict", seed_verdict_name(m->verdict));
	json_add_bool(o, "timed_out", m->timed_out);
	cJSON_AddItemToObject(o, "caught_by", json_strlist(&m->caught_by));
	json_add_string_or_null(o, "invalid", m->why);
	json_add_number(o, "subset_s", m->subset_s);
	json_add_number(o, "full_s", m->full_s);
	if (seed_executed_unknown(m->executed))
		cJSON_AddNullToObject(o, "executed");
	else
		json_add_bool(o, "executed", m->executed == SEED_EXEC_YES);
	json_add_string_or_null(o, "executed_unknown", seed_executed_unknown(m->executed));
	return o;
}

static void json_changes(cJSON *root, const struct seed_info *i)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t k = 0; k < i->nr_changes; k++) {
		const struct seed_change_info *c = &i->changes[k];
		cJSON *o = cJSON_CreateObject();

		json_add_string(o, "commit", c->sha);
		json_add_opt_int(o, "pr", c->has_pr, c->pr);
		json_add_string(o, "decision", c->decision);
		json_add_opt_int(o, "selected", c->selected >= 0, c->selected);
		json_add_int(o, "outside", c->candidates);
		json_add_int(o, "reached", c->reached);
		json_add_int(o, "mutants", count_in_change(i, c->pos, true));
		json_add_int(o, "invalid", count_in_change(i, c->pos, false));
		json_add_string_or_null(o, "skipped", c->skipped);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddItemToObject(root, "changes", a);
}

static void json_candidates(cJSON *root, const struct seed_candidates *c)
{
	cJSON *o = cJSON_CreateObject(), *sel = cJSON_CreateArray(), *globs = cJSON_CreateArray();
	cJSON *rec = cJSON_CreateArray();

	json_add_int(o, "history", c->history);
	for (size_t k = 0; k < c->nr_selects; k++) {
		cJSON *s = cJSON_CreateObject();
		struct strbuf rule = STRBUF_INIT;

		select_rule(&rule, &c->selects[k]);
		json_add_string(s, "path", c->selects[k].path);
		cJSON_AddItemToObject(s, "tests", json_strlist(&c->selects[k].tests));
		json_add_string(s, "rule", rule.buf);
		json_add_int(s, "closes", (int64_t)c->selects[k].nr_closes);
		json_add_int(s, "changes", c->selects[k].changes);
		cJSON_AddItemToArray(sel, s);
		strbuf_release(&rule);
	}
	for (size_t k = 0; k < c->nr_globs; k++) {
		const struct seed_glob *g = &c->globs[k];
		cJSON *x = cJSON_CreateObject();

		json_add_string(x, "glob", g->glob);
		json_add_string(x, "form", g->form);
		json_add_int(x, "closes", (int64_t)g->nr_closes);
		json_add_int(x, "forced", g->forced);
		json_add_bool(x, "recommended", g->recommended);
		cJSON_AddItemToArray(globs, x);
	}
	for (size_t k = 0; k < c->nr_recommended; k++)
		json_push_string(rec, c->globs[c->recommended[k]].glob);
	cJSON_AddItemToObject(o, "select", sel);
	cJSON_AddItemToObject(o, "globs", globs);
	cJSON_AddItemToObject(o, "recommended", rec);
	cJSON_AddItemToObject(root, "candidates", o);
}

void seed_print_json(const struct seed_report *r, FILE *f)
{
	const struct seed_info *i = &r->fig->info;
	cJSON *root = cJSON_CreateObject(), *list = cJSON_CreateArray();
	cJSON *esc = cJSON_CreateArray(), *unc = cJSON_CreateArray(), *group = NULL;
	size_t nr, *v;

	metrics_seeded_json(root, r->fig);
	json_add_string(root, "stopped", seed_stop_name(r->stop));
	json_changes(root, i);
	for (size_t k = 0; k < i->nr_mutants; k++) {
		cJSON_AddItemToArray(list, json_mutant(i, &i->mutants[k]));
		if (i->mutants[k].verdict == SEED_FULL)
			cJSON_AddItemToArray(esc, json_mutant(i, &i->mutants[k]));
	}
	cJSON_AddItemToObject(root, "list", list);
	cJSON_AddItemToObject(root, "escapes", esc);
	v = uncaught_by_file(i, &nr);
	for (size_t k = 0; k < nr; k++) {
		const struct seed_mutant_info *m = &i->mutants[v[k]];

		if (!k || strcmp(i->mutants[v[k - 1]].path, m->path)) {
			cJSON *g = cJSON_CreateObject();

			json_add_string(g, "path", m->path);
			group = cJSON_CreateArray();
			cJSON_AddItemToObject(g, "mutants", group);
			cJSON_AddItemToArray(unc, g);
		}
		cJSON_AddItemToArray(group, json_mutant(i, m));
	}
	free(v);
	cJSON_AddItemToObject(root, "uncaught", unc);
	if (r->cand)
		json_candidates(root, r->cand);
	json_print_free(root, f);
}

/* ---- csv: one row per mutant ---- */

static const struct table_column mutant_columns[] = {
	{ .key = "commit", .type = CELL_ID },
	{ .key = "pr", .type = CELL_COUNT },
	{ .key = "path", .type = CELL_PATH },
	{ .key = "line", .type = CELL_COUNT },
	{ .key = "column", .type = CELL_COUNT },
	{ .key = "operator", .type = CELL_CLASS },
	{ .key = "before", .type = CELL_TEXT },
	{ .key = "after", .type = CELL_TEXT },
	{ .key = "verdict", .type = CELL_CLASS },
	{ .key = "timed_out", .type = CELL_BOOL },
	{ .key = "caught_by", .type = CELL_TEXT },
	{ .key = "invalid", .type = CELL_TEXT },
	{ .key = "subset_s", .type = CELL_SECONDS, .decimals = 3 },
	{ .key = "full_s", .type = CELL_SECONDS, .decimals = 3 },
	{ .key = "executed", .type = CELL_CLASS },
};

void seed_print_csv(const struct seed_report *r, FILE *f)
{
	const struct seed_info *i = &r->fig->info;
	struct table t = TABLE_INIT(mutant_columns);
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < i->nr_mutants; k++) {
		const struct seed_mutant_info *m = &i->mutants[k];
		const struct seed_change_info *c = change_of(i, m->change);
		struct strbuf tests = STRBUF_INIT;

		for (size_t n = 0; n < m->caught_by.nr; n++)
			strbuf_addf(&tests, "%s%s", n ? " " : "", m->caught_by.items[n]);
		table_row(&t);
		table_str(&t, c ? c->sha : NULL);
		table_count_known(&t, c && c->has_pr, c ? c->pr : 0);
		table_str(&t, m->path);
		table_count(&t, m->line);
		table_count(&t, m->col + 1);
		table_str(&t, m->op);
		table_str(&t, m->before);
		table_str(&t, m->after);
		table_str(&t, seed_verdict_name(m->verdict));
		table_bool(&t, m->timed_out);
		table_str(&t, tests.buf);
		table_str(&t, m->why);
		table_number(&t, m->subset_s);
		table_number(&t, m->full_s);
		table_str(&t, seed_executed_name(m->executed));
		strbuf_release(&tests);
	}
	table_write(&t, FORMAT_CSV, &sb);
	table_release(&t);
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
}

/* ---- html ---- */

void seed_print_html(const struct seed_report *r, int64_t now, FILE *f)
{
	const struct metrics_seeded *fig = r->fig;
	struct table esc = TABLE_INIT(escape_columns), unc = TABLE_INIT(uncaught_columns);
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT, shown = STRBUF_INIT;

	metrics_seeded_summary(&line, fig);
	html_begin(&sb, "seed", "tiadash seed");
	strbuf_addstr(&sb, "<header><h1>tiadash seed</h1><span class=\"window\">");
	html_escape(&sb, line.buf);
	strbuf_addstr(&sb, "</span>");
	html_header_end(&sb, now);
	strbuf_addstr(&sb, "<section class=\"sheet\">\n<div class=\"tiles\">\n");
	strbuf_addf(&shown, "%" PRId64, fig->valid);
	html_tile(&sb, "mutants", (double)fig->valid, shown.buf, "valid mutants");
	strbuf_reset(&shown);
	metrics_fmt_pct(&shown, fig->rates[SEED_FULL].rate, 1);
	html_tile(&sb, "seeded_escape_rate", fig->rates[SEED_FULL].rate, shown.buf,
		  "seeded escape rate");
	strbuf_addstr(&sb, "</div>\n<p class=\"lead\">Selector ");
	html_code(&sb, fig->info.selector ? fig->info.selector : "");
	strbuf_addstr(&sb, "; subset ");
	html_code(&sb, fig->info.test_cmd ? fig->info.test_cmd : "");
	strbuf_addstr(&sb, "</p>\n");
	if (stop_note(r)) {
		strbuf_addstr(&sb, "<p class=\"note\">");
		html_escape(&sb, stop_note(r));
		strbuf_addstr(&sb, "</p>\n");
	}
	metrics_seeded_html_table(&sb, fig, "");
	if (fig->counts[SEED_FULL]) {
		strbuf_addstr(&sb, "<h2>Escapes (caught only by the full suite)</h2>\n");
		esc.html_class = "escapes";
		escape_table(&esc, &fig->info);
		table_write(&esc, FORMAT_HTML, &sb);
	}
	/* Before and after, and whether the full suite ran the line: is it a gap or an equivalent? */
	if (uncaught_table(&unc, &fig->info)) {
		strbuf_addstr(&sb, "<h2>Caught by no test</h2>\n<p>Equivalent mutants, which no "
			      "test can catch, are among them.</p>\n");
		unc.html_class = "uncaught";
		table_write(&unc, FORMAT_HTML, &sb);
	}
	table_release(&esc);
	table_release(&unc);
	strbuf_addstr(&sb, "</section>\n");
	html_end(&sb);
	html_write(&sb, f);
	strbuf_release(&line);
	strbuf_release(&shown);
}
