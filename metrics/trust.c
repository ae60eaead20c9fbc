/* The bounds, trend, blind spots and verifier check as JSON, text and markdown. */
#include "core/tiadash.h"
#include <ctype.h>
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/trust.h"

/* ---- JSON ---- */

cJSON *trust_json_pair(double a, double b)
{
	cJSON *arr = cJSON_CreateArray();

	if (isnan(a) || isnan(b)) {
		cJSON_Delete(arr);
		return cJSON_CreateNull();
	}
	cJSON_AddItemToArray(arr, cJSON_CreateNumber(a));
	cJSON_AddItemToArray(arr, cJSON_CreateNumber(b));
	return arr;
}

void trust_json_rate(cJSON *obj, const struct stats_rate *r, bool with_rate)
{
	if (with_rate)
		json_add_number(obj, "rate", r->rate);
	json_add_number(obj, "rate_upper", r->upper);
	cJSON_AddItemToObject(obj, "rate_ci", trust_json_pair(r->ci[0], r->ci[1]));
}

void trust_json_escape_bounds(cJSON *obj, const struct metrics *m)
{
	trust_json_rate(obj, &m->escape_bounds, false);
	json_add_opt_int(obj, "pairs_needed", m->pairs_needed >= 0, m->pairs_needed);
	json_add_number(obj, "days_needed", m->days_needed);
	json_add_number(obj, "target", m->escape_target);
	json_add_number(obj, "confidence", m->confidence);
}

cJSON *trust_json_trend(const struct metrics_trend *t)
{
	cJSON *o = cJSON_CreateObject(), *prev;

	json_add_number(o, "previous_rate", t->previous_rate);
	json_add_number(o, "rate", t->rate);
	json_add_number(o, "p_value", t->p_value);
	json_add_string_or_null(o, "direction", trend_direction_name(t->direction));
	if (!t->known) {
		cJSON_AddNullToObject(o, "previous");
		return o;
	}
	prev = cJSON_AddObjectToObject(o, "previous");
	json_add_time(prev, "since", t->since);
	json_add_time(prev, "until", t->until);
	json_add_int(prev, "pairs", t->pairs);
	json_add_int(prev, "escapes", t->escapes);
	return o;
}

static cJSON *json_first(const struct strlist *l, size_t limit)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < l->nr && i < limit; i++)
		json_push_string(arr, l->items[i]);
	return arr;
}

static void json_opt_count(cJSON *o, const char *key, bool known, size_t n)
{
	json_add_opt_int(o, key, known, (int64_t)n);
}

cJSON *trust_json_blind(const struct metrics_blind *b)
{
	cJSON *o = cJSON_CreateObject(), *fresh, *list;

	json_opt_count(o, "never_selected", b->known, b->never.nr);
	cJSON_AddItemToObject(o, "tests", json_first(&b->never, TRUST_JSON_TESTS));
	json_opt_count(o, "failed_in_full", b->known, b->failed.nr);
	cJSON_AddItemToObject(o, "failed_in_full_tests", json_first(&b->failed, TRUST_JSON_TESTS));
	json_add_opt_int(o, "tests_in_full_runs", b->known, b->tests);
	json_add_int(o, "full_runs", b->full_runs);
	json_add_int(o, "full_runs_with_tests", b->listed_runs);
	json_add_int(o, "narrowed_runs", b->narrowed_runs);
	fresh = cJSON_AddObjectToObject(o, "new");
	json_opt_count(fresh, "count", b->new_known, b->new_tests.nr);
	json_add_opt_int(fresh, "selected", b->new_known, b->new_selected_count);
	list = cJSON_AddArrayToObject(fresh, "tests");
	for (size_t i = 0; i < b->new_tests.nr && i < TRUST_JSON_TESTS; i++) {
		cJSON *t = cJSON_CreateObject();

		json_add_string(t, "id", b->new_tests.items[i]);
		json_add_bool(t, "selected", b->new_selected[i]);
		cJSON_AddItemToArray(list, t);
	}
	return o;
}

static cJSON *json_attempt(const struct metrics_attempt *a)
{
	cJSON *o = cJSON_CreateObject();

	json_add_string(o, "head", a->sha);
	json_add_int(o, "attempt", a->attempt);
	return o;
}

cJSON *trust_json_verifier(const struct metrics_verifier *v, const struct metrics_row *r)
{
	cJSON *o = cJSON_CreateObject(), *failed, *changed;

	if (r) {
		json_add_opt_int(o, "pr", r->has_pr, r->pr);
		json_add_string(o, "repo", r->repo);
		json_add_string(o, "head", r->sha);
	}
	json_add_string(o, "test", v->test);
	json_add_string(o, "digest", v->digest);
	failed = cJSON_AddArrayToObject(o, "failed");
	for (size_t i = 0; i < v->nr_failed; i++)
		cJSON_AddItemToArray(failed, json_attempt(&v->failed[i]));
	cJSON_AddItemToObject(o, "passed", json_attempt(&v->passed));
	changed = cJSON_AddArrayToObject(o, "changed");
	for (size_t i = 0; i < v->changed.nr; i++)
		json_push_string(changed, v->changed.items[i]);
	json_add_string(o, "change_from", v->from_git ? "git" : "stored diffs");
	return o;
}

cJSON *trust_json_verifier_all(const struct metrics *m)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *list = cJSON_AddArrayToObject(o, "list");

	json_add_int(o, "count", m->verifier_heads);
	for (size_t i = 0; i < m->nr_verifier; i++)
		cJSON_AddItemToArray(list, trust_json_verifier(&m->verifier[i],
							       &m->rows[m->verifier[i].row]));
	return o;
}

/* ---- one-line forms ---- */

void trust_fmt_pairs_needed(struct strbuf *sb, const struct metrics *m)
{
	if (m->pairs_needed <= 0)
		return;
	strbuf_addf(sb, "%" PRId64 " more clean pair%s", m->pairs_needed,
		    m->pairs_needed == 1 ? "" : "s");
	if (!isnan(m->days_needed))
		strbuf_addf(sb, " (about %.0f day%s at this window's rate)", m->days_needed,
			    m->days_needed == 1 ? "" : "s");
}

void trust_fmt_trend(struct strbuf *sb, const struct metrics_trend *t)
{
	if (!t->known) {
		strbuf_addstr(sb, "n/a (the window has no start)");
		return;
	}
	if (t->direction == TREND_NONE) {
		strbuf_addstr(sb, "n/a (no pairs in one of the windows)");
		return;
	}
	strbuf_addf(sb, "%s (p = %.3g)", trend_direction_name(t->direction), t->p_value);
}

void trust_fmt_blind(struct strbuf *sb, const struct metrics_blind *b)
{
	if (!b->known) {
		strbuf_addstr(sb, "n/a (no full run of the window has its test list)");
		return;
	}
	strbuf_addf(sb, "%zu of %" PRId64 " tests never selected; %zu failed in full",
		    b->never.nr, b->tests, b->failed.nr);
}

void trust_fmt_new(struct strbuf *sb, const struct metrics_blind *b)
{
	if (!b->new_known) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addf(sb, "%zu first seen in the window, %" PRId64 " of them selected",
		    b->new_tests.nr, b->new_selected_count);
}

void trust_fmt_attempts(struct strbuf *sb, const struct metrics_attempt *a, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%.12s #%d", i ? ", " : "", a[i].sha, a[i].attempt);
}

/* ---- text and markdown ---- */

static void label(struct metrics_out *o, const char *s)
{
	strbuf_addf(&o->sb, "%-13s", s);
}

static void rate_row(struct metrics_out *o, const char *what, const struct stats_rate *r)
{
	struct strbuf rate = STRBUF_INIT, up = STRBUF_INIT;

	metrics_fmt_pct(&rate, r->rate, 2);
	metrics_fmt_pct(&up, r->upper, 2);
	strbuf_addf(&o->sb, "  %-37s %8s %8s  ", what, rate.buf, up.buf);
	metrics_fmt_ci(&o->sb, r->ci, 2);
	strbuf_addch(&o->sb, '\n');
	strbuf_release(&rate);
	strbuf_release(&up);
}

static void text_bounds(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	label(o, "Bounds");
	metrics_fmt_confidence(sb, m->confidence);
	strbuf_addf(sb, " exact (Clopper-Pearson)%8s %8s  interval\n", "rate", "upper");
	rate_row(o, "escape rate", &m->escape_bounds);
	rate_row(o, "over-strict rate", &m->over_strict_bounds);
	rate_row(o, "force-full rate", &m->force_full_bounds);
	label(o, "Clean pairs");
	if (m->pairs_needed < 0) {
		strbuf_addstr(sb, "n/a\n");
	} else if (!m->pairs_needed) {
		strbuf_addstr(sb, "none needed: the escape rate's upper bound is at most ");
		metrics_fmt_pct(sb, m->escape_target, 2);
		strbuf_addch(sb, '\n');
	} else {
		strbuf_addf(sb, "%" PRId64 " more bring the escape rate's upper bound to ",
			    m->pairs_needed);
		metrics_fmt_pct(sb, m->escape_target, 2);
		strbuf_addch(sb, '\n');
		if (!isnan(m->days_needed)) {
			label(o, "");
			strbuf_addf(sb, "(about %.0f day%s at this window's rate)\n",
				    m->days_needed, m->days_needed == 1 ? "" : "s");
		}
	}
}

static void text_trend(struct metrics_out *o, const struct metrics *m)
{
	const struct metrics_trend *t = &m->trend;

	label(o, "Trend");
	if (t->known) {
		strbuf_addstr(&o->sb, "previous window ");
		metrics_fmt_pct(&o->sb, t->previous_rate, 2);
		strbuf_addf(&o->sb, " (%" PRId64 " of %" PRId64 "): ", t->escapes, t->pairs);
	}
	trust_fmt_trend(&o->sb, t);
	strbuf_addch(&o->sb, '\n');
}

/*
 * The first TRUST_TEXT_TESTS of a list, one a line ("    " in text, "- "
 * in markdown), each with its flag's word when flag is given.
 */
static void test_lines(struct metrics_out *o, const struct strlist *l, const bool *flag,
		       const char *yes, const char *no)
{
	size_t n = l->nr < TRUST_TEXT_TESTS ? l->nr : TRUST_TEXT_TESTS;

	if (o->md && l->nr)
		strbuf_addch(&o->sb, '\n');
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(&o->sb, o->md ? "- " : "    ");
		metrics_put_text(o, l->items[i]);
		if (flag)
			strbuf_addf(&o->sb, " (%s)", flag[i] ? yes : no);
		strbuf_addch(&o->sb, '\n');
	}
	if (l->nr > n)
		strbuf_addf(&o->sb, o->md ? "- and %zu more\n"
				      : "    ... and %zu more (--format json lists %d)\n",
			    l->nr - n, TRUST_JSON_TESTS);
}

static void text_blind(struct metrics_out *o, const struct metrics *m)
{
	const struct metrics_blind *b = &m->blind;

	label(o, "Blind spots");
	trust_fmt_blind(&o->sb, b);
	if (b->known)
		strbuf_addf(&o->sb, " (%" PRId64 " narrowed runs)", b->narrowed_runs);
	strbuf_addch(&o->sb, '\n');
	if (b->failed.nr) {
		strbuf_addstr(&o->sb, "   failed in full:\n");
		test_lines(o, &b->failed, NULL, NULL, NULL);
	}
	if (b->never.nr) {
		strbuf_addstr(&o->sb, "   never selected:\n");
		test_lines(o, &b->never, NULL, NULL, NULL);
	}
	label(o, "New tests");
	trust_fmt_new(&o->sb, b);
	strbuf_addch(&o->sb, '\n');
	test_lines(o, &b->new_tests, b->new_selected, "selected", "never selected");
}

static void text_verifier(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	label(o, "Verifier");
	strbuf_addf(sb, "%" PRId64 " head%s went green after a change to tests, "
		    "fixtures or config only\n", m->verifier_heads,
		    m->verifier_heads == 1 ? "" : "s");
	for (size_t i = 0; i < m->nr_verifier; i++) {
		const struct metrics_verifier *v = &m->verifier[i];

		strbuf_addstr(sb, "  ");
		metrics_fmt_change(sb, &m->rows[v->row]);
		strbuf_addch(sb, ' ');
		metrics_put_text(o, v->test);
		strbuf_addstr(sb, "\n    failed identically in ");
		trust_fmt_attempts(sb, v->failed, v->nr_failed);
		strbuf_addstr(sb, "; green in ");
		trust_fmt_attempts(sb, &v->passed, 1);
		strbuf_addf(sb, " after (%s):\n", v->from_git ? "git" : "stored diffs");
		test_lines(o, &v->changed, NULL, NULL, NULL);
	}
}

void trust_text(struct metrics_out *o, const struct metrics *m)
{
	text_bounds(o, m);
	text_trend(o, m);
	text_blind(o, m);
	text_verifier(o, m);
}

/* The confidence table: a rate's count, value, upper bound and interval. */
static const struct table_column rate_columns[] = {
	{ .key = "rate", .type = CELL_CLASS },
	{ .key = "count", .type = CELL_TEXT, .right = true },
	{ .key = "value", .type = CELL_RATE, .places = 2, .na = "n/a" },
	{ .key = "upper bound", .type = CELL_RATE, .places = 2, .na = "n/a" },
	{ .key = "interval", .type = CELL_TEXT },
};

static void rate_table_row(struct table *t, const char *what, const struct stats_rate *r)
{
	struct strbuf count = STRBUF_INIT, ci = STRBUF_INIT;

	strbuf_addf(&count, "%" PRId64 " / %" PRId64, r->x, r->n);
	metrics_fmt_ci(&ci, r->ci, 2);
	table_row(t);
	table_word(t, what);
	table_word(t, count.buf);
	table_number(t, r->rate);
	table_number(t, r->upper);
	table_word(t, ci.buf);
	strbuf_release(&count);
	strbuf_release(&ci);
}

/* The heads that went green on a change to the verifier alone. */
static const struct table_column verifier_columns[] = {
	{ .key = "change", .type = CELL_TEXT },
	{ .key = "test", .type = CELL_TEXT },
	{ .key = "failed identically", .type = CELL_TEXT },
	{ .key = "green", .type = CELL_TEXT },
	{ .key = "changed", .type = CELL_TEXT },
};

static void verifier_table_row(struct table *t, const struct metrics *m,
			       const struct metrics_verifier *v)
{
	struct strbuf change = STRBUF_INIT, failed = STRBUF_INIT, green = STRBUF_INIT;

	metrics_fmt_change(&change, &m->rows[v->row]);
	trust_fmt_attempts(&failed, v->failed, v->nr_failed);
	trust_fmt_attempts(&green, &v->passed, 1);
	table_row(t);
	/* Words of tiadash's own: "PR #12 1a2b3c4d5e6f", "1a2b3c4d5e6f #2". */
	table_word(t, change.buf);
	table_str(t, v->test);
	table_word(t, failed.buf);
	table_word(t, green.buf);
	table_list(t, &v->changed);
	strbuf_release(&change);
	strbuf_release(&failed);
	strbuf_release(&green);
}

void trust_md(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;
	const struct metrics_blind *b = &m->blind;
	struct table rates = TABLE_INIT(rate_columns), heads = TABLE_INIT(verifier_columns);

	strbuf_addstr(sb, "\n## Confidence\n\nExact (Clopper-Pearson) bounds at ");
	metrics_fmt_confidence(sb, m->confidence);
	strbuf_addstr(sb, ".\n\n");
	rate_table_row(&rates, "escape", &m->escape_bounds);
	rate_table_row(&rates, "over-strict", &m->over_strict_bounds);
	rate_table_row(&rates, "force-full", &m->force_full_bounds);
	table_write(&rates, FORMAT_MD, sb);
	table_release(&rates);
	strbuf_addstr(sb, "\nClean pairs to bring the escape rate's upper bound to ");
	metrics_fmt_pct(sb, m->escape_target, 2);
	strbuf_addstr(sb, ": ");
	if (m->pairs_needed < 0)
		strbuf_addstr(sb, "n/a");
	else if (!m->pairs_needed)
		strbuf_addstr(sb, "none needed");
	else
		trust_fmt_pairs_needed(sb, m);
	strbuf_addstr(sb, ".\n\nTrend against the previous window: ");
	if (m->trend.known) {
		metrics_fmt_pct(sb, m->trend.previous_rate, 2);
		strbuf_addf(sb, " (%" PRId64 " of %" PRId64 ") before, ", m->trend.escapes,
			    m->trend.pairs);
	}
	trust_fmt_trend(sb, &m->trend);
	strbuf_addstr(sb, ".\n\n## Blind spots\n\n");
	trust_fmt_blind(sb, b);
	strbuf_addstr(sb, ".\n");
	test_lines(o, &b->failed, NULL, NULL, NULL);
	strbuf_addstr(sb, "\nNew tests: ");
	trust_fmt_new(sb, b);
	strbuf_addstr(sb, ".\n");
	test_lines(o, &b->new_tests, b->new_selected, "selected", "never selected");
	strbuf_addf(sb, "\n## Verifier changed\n\n%" PRId64 " head%s went green after a "
		    "change to tests, fixtures or config only.\n", m->verifier_heads,
		    m->verifier_heads == 1 ? "" : "s");
	if (!m->nr_verifier)
		return;
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < m->nr_verifier; i++)
		verifier_table_row(&heads, m, &m->verifier[i]);
	table_write(&heads, FORMAT_MD, sb);
	table_release(&heads);
}

/* A line of notes, from sb, reset after. */
static void push_note(struct strlist *out, struct strbuf *sb)
{
	strlist_push(out, sb->buf);
	strbuf_reset(sb);
}

/* jest-junit's default: a classname of describe titles, "Toolbar" or "Toolbar renders". */
static bool jest_titles(const char *suite, const char *name)
{
	size_t n = strlen(suite);

	return strchr(suite, ' ') || (!strncmp(name, suite, n) && name[n] == ' ');
}

/* A word with no path or package in it, `webhooks` or `TaxTest`. */
static bool bare_word(const char *s)
{
	return *s && !strpbrk(s, "/.\\ ");
}

/*
 * What fixes the failing tests' names, read from their shape: the setting
 * of the producer that wrote them (man tiadash, TEST IDENTITY).
 */
static const char *failing_tests_fix(const struct strlist *ids)
{
	const char *fix = NULL;

	for (size_t i = 0; i < ids->nr && !fix; i++) {
		char *suite, *name;

		test_id_split(ids->items[i], &suite, &name);
		if (jest_titles(suite, name))
			fix = "jest-junit: set addFileAttribute: \"true\" or classNameTemplate:"
			      " \"{filepath}\" in its options";
		else if (bare_word(suite) && !strncmp(name, "Test", 4))
			fix = "gotestsum: keep --junitfile-testcase-classname at its default"
			      " (full, the import path); short names no package";
		else if (bare_word(suite) && isupper((unsigned char)*suite))
			fix = "the classname has no package (Surefire writes it with one):"
			      " report the full class name, or add an id-map rule";
		free(suite);
		free(name);
	}
	return fix ? fix : "give the manifest's \"workdir\" or an id-map rule";
}

/* The identity criterion failed: which kind of name, and what fixes it. */
static void identity_note(struct strlist *out, const struct metrics *m,
			  const struct metrics_criterion *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "identity: %s below %.2f; ", c->label, c->threshold);
	if (!strcmp(c->label, "quarantine lines resolved"))
		strbuf_addstr(&sb, "write quarantine lines as the reports name tests (a path,"
			      " SUITE::CASE, Class#method with its package, path > describe >"
			      " title)");
	else if (!strcmp(c->label, "selection entries joined"))
		strbuf_addstr(&sb, "the selector names tests as no report does: write entries"
			      " as paths, SUITE::CASE or Class#method with its package");
	else
		strbuf_addstr(&sb, failing_tests_fix(&m->identity.unresolved));
	strbuf_addstr(&sb, " (man tiadash, TEST IDENTITY)");
	push_note(out, &sb);
	strbuf_release(&sb);
}

void trust_gate_notes(struct strlist *out, const struct metrics *m, const struct metrics_gate *g)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t inherited = m->class_counts[CLASS_INHERITED];

	if (!g->go && m->pairs_needed > 0) {
		strbuf_addstr(&sb, "escape rate: ");
		trust_fmt_pairs_needed(&sb, m);
		push_note(out, &sb);
		strbuf_addstr(&sb, "bring its ");
		metrics_fmt_confidence(&sb, m->confidence);
		strbuf_addstr(&sb, " upper bound to ");
		metrics_fmt_pct(&sb, m->escape_target, 2);
		strbuf_addstr(&sb, " (with no escape among them)");
		push_note(out, &sb);
	}
	for (size_t i = 0; i < g->nr; i++)
		if (!strcmp(g->criteria[i].name, "identity_resolved") && !g->criteria[i].pass)
			identity_note(out, m, &g->criteria[i]);
	if (m->class_counts[CLASS_UNRESOLVED]) {
		strbuf_addf(&sb, "%" PRId64 " %s failed on tests whose names join no test file:"
			    " unresolved, not escapes", m->class_counts[CLASS_UNRESOLVED],
			    m->class_counts[CLASS_UNRESOLVED] == 1 ? "pair" : "pairs");
		push_note(out, &sb);
	}
	if (inherited) {
		strbuf_addf(&sb, "%" PRId64 " %s failed only on tests red on main: inherited, not "
			    "escapes", inherited, inherited == 1 ? "pair" : "pairs");
		push_note(out, &sb);
	}
	if (m->escapes_base_unrun) {
		strbuf_addf(&sb, "%" PRId64 " of %" PRId64 " escapes rest on a base no run of main "
			    "covers: record main's post-merge runs (tiadash record, no PR)",
			    m->escapes_base_unrun, m->escapes);
		push_note(out, &sb);
	}
	/* Advisory: what the flip trades, which no criterion decides. */
	strbuf_addstr(&sb, "the trade (advisory): ");
	metrics_fmt_trade(&sb, m);
	push_note(out, &sb);
	strbuf_release(&sb);
}
