/* `propose --demote` printed: the force-full rules in effect ranked by the minutes they cost, as text, md, json and html. */
#include "core/tiadash.h"
#include "core/html.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "metrics/common.h"
#include "metrics/demote.h"

const char *demote_verdict(const struct demote_rule *r, bool selector)
{
	if (r->candidate)
		return "candidate: narrow or drop";
	if (r->missed_changes)
		return "keep: dropping it misses tests";
	if (r->unknown && !selector)
		return "unknown: full runs failed (give --selector)";
	if (!r->narrowed)
		return "nothing to gain";
	return "not evaluated";
}

void demote_change_name(struct strbuf *sb, const struct demote_change *c)
{
	if (c->has_pr)
		strbuf_addf(sb, "PR %" PRId64, c->pr);
	else
		strbuf_addf(sb, "commit %.12s", c->sha);
}

static void add_minutes(struct strbuf *sb, double m)
{
	if (isnan(m))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%.1f", m);
}

static void add_bound(struct strbuf *sb, const struct demote *d, const struct demote_rule *r)
{
	if (isnan(r->miss_upper)) {
		strbuf_addstr(sb, "not bounded");
		return;
	}
	strbuf_addstr(sb, "miss rate at most ");
	metrics_fmt_pct(sb, r->miss_upper, 1);
	strbuf_addf(sb, " at %.0f%%", d->confidence * 100);
}

static size_t shown_of(size_t nr, int64_t limit)
{
	return limit < 0 || (uint64_t)limit > nr ? nr : (size_t)limit;
}

/* ---- text and markdown (one builder, escaped for its format) ---- */

static void put_header(struct metrics_out *o, const struct demote *d)
{
	bool md = o->md;

	strbuf_addstr(&o->sb, md ? "# Force-full rules to demote\n\n- window: " : "demote       ");
	if (d->since == INT64_MIN && d->until == INT64_MAX) {
		strbuf_addstr(&o->sb, "all time");
	} else {
		metrics_fmt_bound(&o->sb, d->since);
		strbuf_addstr(&o->sb, " .. ");
		metrics_fmt_bound(&o->sb, d->until);
	}
	strbuf_addf(&o->sb, ", %" PRId64 " changes of HEAD's first-parent history\n",
		    d->changes);
	strbuf_addstr(&o->sb, md ? "- selector: " : "selector     ");
	if (d->selector) {
		metrics_put_text(o, d->selector);
		strbuf_addstr(&o->sb, " (replayed at the changes each rule forced)\n");
	} else {
		strbuf_addstr(&o->sb, md ? "none: the record only (a full run that "
				"passed missed nothing; one that failed is unknown: give "
				"--selector)\n" :
			      "none: the record only (a full run that passed missed\n"
			      "             nothing; one that failed is unknown: give "
			      "--selector)\n");
	}
	strbuf_addstr(&o->sb, md ? "- gate: median full run " : "gate         median full run ");
	add_minutes(&o->sb, d->full_median_s / 60);
	strbuf_addstr(&o->sb, " min, narrowed shadow run ");
	add_minutes(&o->sb, d->narrowed_median_s / 60);
	strbuf_addf(&o->sb, " min\n%s%zu force-full rule%s in effect, ranked by the gate "
		    "minutes they cost\n", md ? "- rules: " : "rules        ", d->nr,
		    d->nr == 1 ? "" : "s");
}

static void put_change(struct metrics_out *o, const struct demote_change *c)
{
	size_t start;

	strbuf_addstr(&o->sb, o->md ? "- " : "    ");
	start = o->sb.len;
	demote_change_name(&o->sb, c);
	while (!o->md && o->sb.len - start < 22)
		strbuf_addch(&o->sb, ' ');
	if (o->md)
		strbuf_addstr(&o->sb, ": ");
	if (!c->narrowed) {
		strbuf_addstr(&o->sb, "still run_all without it\n");
		return;
	}
	strbuf_addf(&o->sb, "%s, %s, saves ", replay_decision_name(c->after),
		    demote_full_name(c->full));
	add_minutes(&o->sb, c->saved_s / 60);
	strbuf_addstr(&o->sb, " min\n");
	for (size_t i = 0; i < c->missed.nr; i++) {
		strbuf_addstr(&o->sb, o->md ? "  - missed: " : "      missed  ");
		metrics_put_text(o, c->missed.items[i]);
		strbuf_addch(&o->sb, '\n');
	}
}

static void put_rule(struct metrics_out *o, const struct demote *d,
		     const struct demote_rule *r, int64_t limit)
{
	size_t shown = shown_of(r->nr_changes, limit);

	strbuf_addstr(&o->sb, o->md ? "\n## " : "\n");
	metrics_put_text(o, r->rule);
	strbuf_addstr(&o->sb, " (");
	metrics_put_text(o, r->source);
	strbuf_addf(&o->sb, ")%s%s\n", o->md ? "\n\n- " : "\n  ",
		    demote_verdict(r, d->selector != NULL));
	strbuf_addf(&o->sb, "%sforced %" PRId64 " change%s; dropping it narrows %" PRId64
		    ", saving ", o->md ? "- " : "  ", r->forced, r->forced == 1 ? "" : "s",
		    r->narrowed);
	add_minutes(&o->sb, r->saved_minutes);
	strbuf_addf(&o->sb, " min\n%smissed tests on %" PRId64 " of %" PRId64
		    " evaluated change%s", o->md ? "- " : "  ", r->missed_changes,
		    r->evaluated, r->evaluated == 1 ? "" : "s");
	if (r->unknown)
		strbuf_addf(&o->sb, ", %" PRId64 " unknown", r->unknown);
	strbuf_addstr(&o->sb, "; ");
	add_bound(&o->sb, d, r);
	strbuf_addch(&o->sb, '\n');
	for (size_t i = 0; i < r->missed.nr; i++) {
		strbuf_addstr(&o->sb, o->md ? "- missed: " : "  missed  ");
		metrics_put_text(o, r->missed.items[i]);
		strbuf_addch(&o->sb, '\n');
	}
	if (o->md && shown)
		strbuf_addstr(&o->sb, "\nChanges it forced:\n\n");
	for (size_t i = 0; i < shown; i++)
		put_change(o, &r->changes[i]);
	if (shown < r->nr_changes)
		strbuf_addf(&o->sb, "%s... and %zu more (--limit N)\n", o->md ? "- " : "    ",
			    r->nr_changes - shown);
}

static void print_words(const struct demote *d, bool md, int64_t limit)
{
	struct metrics_out o = { STRBUF_INIT, md };

	put_header(&o, d);
	if (!d->nr)
		strbuf_addstr(&o.sb, md ? "\nNo force-full rule in effect.\n" :
			      "\nno force-full rule in effect\n");
	for (size_t i = 0; i < d->nr; i++)
		put_rule(&o, d, &d->items[i], limit);
	metrics_flush(&o.sb);
}

/* ---- json ---- */

static cJSON *json_change(const struct demote_change *c)
{
	cJSON *o = cJSON_CreateObject();

	json_add_string(o, "commit", c->sha);
	json_add_opt_int(o, "pr", c->has_pr, c->pr);
	json_add_bool(o, "narrowed", c->narrowed);
	json_add_string(o, "after", replay_decision_name(c->after));
	if (c->full == DEMOTE_FULL_NONE)
		cJSON_AddNullToObject(o, "full");
	else
		json_add_string(o, "full", c->full == DEMOTE_FULL_PASSED ? "passed" : "failed");
	json_add_bool(o, "evaluated", c->evaluated);
	cJSON_AddItemToObject(o, "missed", json_strlist(&c->missed));
	json_add_number(o, "saved_minutes", c->narrowed ? c->saved_s / 60 : NAN);
	return o;
}

static void print_json(const struct demote *d, FILE *f)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray(), *w;

	w = cJSON_AddObjectToObject(root, "window");
	json_add_time(w, "since", d->since);
	json_add_time(w, "until", d->until);
	if (d->selector)
		json_add_string(root, "selector", d->selector);
	else
		cJSON_AddNullToObject(root, "selector");
	json_add_int(root, "changes", d->changes);
	json_add_number(root, "full_median_s", d->full_median_s);
	json_add_number(root, "narrowed_median_s", d->narrowed_median_s);
	json_add_number(root, "confidence", d->confidence);
	for (size_t i = 0; i < d->nr; i++) {
		const struct demote_rule *r = &d->items[i];
		cJSON *o = cJSON_CreateObject(), *ch = cJSON_CreateArray();

		json_add_string(o, "rule", r->rule);
		json_add_string(o, "glob", r->glob);
		json_add_string(o, "source", r->source);
		json_add_int(o, "forced", r->forced);
		json_add_int(o, "narrowed", r->narrowed);
		json_add_int(o, "evaluated", r->evaluated);
		json_add_int(o, "unknown", r->unknown);
		json_add_int(o, "missed_changes", r->missed_changes);
		cJSON_AddItemToObject(o, "missed", json_strlist(&r->missed));
		json_add_number(o, "saved_minutes", r->saved_minutes);
		json_add_number(o, "miss_rate_upper", r->miss_upper);
		json_add_bool(o, "candidate", r->candidate);
		json_add_string(o, "verdict", demote_verdict(r, d->selector != NULL));
		for (size_t j = 0; j < r->nr_changes; j++)
			cJSON_AddItemToArray(ch, json_change(&r->changes[j]));
		cJSON_AddItemToObject(o, "changes", ch);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddItemToObject(root, "rules", arr);
	json_print_free(root, f);
}

/* ---- html ---- */

static void html_rule_row(struct strbuf *sb, const struct demote *d,
			  const struct demote_rule *r, size_t at, int64_t limit)
{
	struct strbuf s = STRBUF_INIT, key = STRBUF_INIT;
	size_t shown = shown_of(r->nr_changes, limit);

	strbuf_addstr(sb, "<tr><td>");
	html_code(sb, r->rule);
	strbuf_addstr(sb, "<br><span class=\"more\">");
	html_escape(sb, r->source);
	strbuf_addstr(sb, "</span></td><td>");
	html_escape(sb, demote_verdict(r, d->selector != NULL));
	strbuf_addf(sb, "</td><td class=\"num\">%" PRId64 "</td><td class=\"num\">%" PRId64
		    "</td>", r->forced, r->narrowed);
	add_minutes(&s, r->saved_minutes);
	strbuf_addf(&key, "rules.%zu.saved_minutes", at);
	html_cell(sb, key.buf, r->saved_minutes, s.buf);
	strbuf_addf(sb, "<td class=\"num\">%" PRId64 " of %" PRId64 "</td>",
		    r->missed_changes, r->evaluated);
	strbuf_reset(&s);
	add_bound(&s, d, r);
	strbuf_reset(&key);
	strbuf_addf(&key, "rules.%zu.miss_rate_upper", at);
	html_cell(sb, key.buf, r->miss_upper, s.buf);
	strbuf_addstr(sb, "<td>");
	for (size_t i = 0; i < r->missed.nr; i++) {
		strbuf_addstr(sb, i ? "<br>" : "");
		html_code(sb, r->missed.items[i]);
	}
	for (size_t i = 0; i < shown; i++) {
		strbuf_reset(&s);
		demote_change_name(&s, &r->changes[i]);
		strbuf_addstr(sb, i || r->missed.nr ? "<br><span class=\"more\">" :
			      "<span class=\"more\">");
		html_escape(sb, s.buf);
		strbuf_addstr(sb, ": ");
		strbuf_addstr(sb, r->changes[i].narrowed ?
			      replay_decision_name(r->changes[i].after) : "still run_all");
		strbuf_addstr(sb, "</span>");
	}
	if (shown < r->nr_changes)
		strbuf_addf(sb, "<br><span class=\"more\">... and %zu more</span>",
			    r->nr_changes - shown);
	strbuf_addstr(sb, "</td></tr>\n");
	strbuf_release(&s);
	strbuf_release(&key);
}

static void print_html(const struct demote *d, int64_t limit, int64_t now, FILE *f)
{
	struct strbuf sb = STRBUF_INIT, head = STRBUF_INIT;
	struct metrics_out o = { STRBUF_INIT, false };

	html_begin(&sb, "propose", "tiadash propose --demote");
	strbuf_addstr(&sb, "<header><h1>Force-full rules to demote</h1>");
	html_header_end(&sb, now);
	put_header(&o, d);
	strbuf_addstr(&sb, "<p class=\"note\">");
	for (const char *l = o.sb.buf; *l;) {
		size_t n = strcspn(l, "\n");

		strbuf_add(&head, l, n);
		html_escape(&sb, head.buf);
		strbuf_addstr(&sb, "<br>");
		strbuf_reset(&head);
		l += n + (l[n] == '\n');
	}
	strbuf_addstr(&sb, "</p>\n<section class=\"sheet\">\n<table>\n<tr><th>rule</th>"
		      "<th>verdict</th><th>forced</th><th>narrowed</th><th>saved min</th>"
		      "<th>missed on</th><th>bound</th><th>missed tests; changes</th></tr>\n");
	for (size_t i = 0; i < d->nr; i++)
		html_rule_row(&sb, d, &d->items[i], i, limit);
	strbuf_addstr(&sb, "</table>\n</section>\n");
	html_end(&sb);
	html_write(&sb, f);
	strbuf_release(&o.sb);
	strbuf_release(&head);
}

void demote_print(const struct demote *d, enum output_format format, int64_t limit,
		  int64_t now, FILE *f)
{
	switch (format) {
	case FORMAT_JSON: print_json(d, f); break;
	case FORMAT_HTML: print_html(d, limit, now, f); break;
	case FORMAT_MD: print_words(d, true, limit); break;
	default: print_words(d, false, limit); break;
	}
}
