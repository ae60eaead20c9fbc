/* The figures of a defect-seeding experiment: counts per class, rates and their exact intervals. */
#include "core/tiadash.h"
#include "metrics/seeded.h"
#include "core/html.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "metrics/common.h"

const char *metrics_seeded_label(enum seed_verdict v)
{
	switch (v) {
	case SEED_SUBSET: return "caught by the subset anyway";
	case SEED_FULL: return "caught only by the full suite";
	case SEED_NONE: return "caught by no test";
	case SEED_INVALID: return "invalid (did not compile or import)";
	}
	return "?";
}

void metrics_seeded_of(struct seed_info *info, double confidence, struct metrics_seeded *out)
{
	bool *mutated = xcalloc(info->nr_changes + 1, sizeof(*mutated));

	memset(out, 0, sizeof(*out));
	out->known = true;
	out->info = *info;
	memset(info, 0, sizeof(*info));
	out->confidence = confidence;
	for (size_t i = 0; i < out->info.nr_mutants; i++) {
		const struct seed_mutant_info *m = &out->info.mutants[i];

		if (m->verdict == SEED_INVALID) {
			out->invalid++;
			continue;
		}
		out->valid++;
		out->counts[m->verdict]++;
		out->timeouts += m->timed_out;
		for (size_t c = 0; c < out->info.nr_changes; c++)
			if (out->info.changes[c].pos == m->change)
				mutated[c] = true;
	}
	for (size_t c = 0; c < out->info.nr_changes; c++)
		out->changes_mutated += mutated[c];
	for (int k = 0; k < NR_SEED_CLASSES; k++)
		stats_rate_of(out->counts[k], out->valid, confidence, &out->rates[k]);
	free(mutated);
}

int metrics_seeded_compute(struct store *s, const struct window *w, double confidence,
			   struct metrics_seeded *out)
{
	struct seed_info info;
	int rc = query_seed_latest(s, w, &info);

	memset(out, 0, sizeof(*out));
	out->confidence = confidence;
	for (int k = 0; k < NR_SEED_CLASSES; k++)
		stats_rate_of(0, 0, confidence, &out->rates[k]);
	if (rc == 0)
		metrics_seeded_of(&info, confidence, out);
	seed_info_release(&info);
	return rc < 0 ? -1 : 0;
}

void metrics_seeded_release(struct metrics_seeded *m)
{
	seed_info_release(&m->info);
	memset(m, 0, sizeof(*m));
}

void metrics_seeded_fmt_rate(struct strbuf *sb, const struct stats_rate *r)
{
	if (isnan(r->rate)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	strbuf_addf(sb, "%.1f%% [%.1f%%, %.1f%%]", r->rate * 100, r->ci[0] * 100, r->ci[1] * 100);
}

void metrics_seeded_rows(struct strbuf *sb, const struct metrics_seeded *m, const char *indent)
{
	for (int k = 0; k < NR_SEED_CLASSES; k++) {
		strbuf_addf(sb, "%s%-30s %5" PRId64 "  ", indent,
			    metrics_seeded_label((enum seed_verdict)k), m->counts[k]);
		metrics_seeded_fmt_rate(sb, &m->rates[k]);
		strbuf_addch(sb, '\n');
	}
}

void metrics_seeded_summary(struct strbuf *sb, const struct metrics_seeded *m)
{
	const struct seed_info *i = &m->info;

	strbuf_addf(sb, "%" PRId64 " %s outside %" PRId64 " %s (%" PRId64
		    " invalid; seed %" PRId64 ", %s)", m->valid,
		    m->valid == 1 ? "mutant" : "mutants", m->changes_mutated,
		    m->changes_mutated == 1 ? "impact set" : "impact sets", m->invalid, i->seed,
		    i->state);
}

static void json_rate(cJSON *parent, const char *key, const struct stats_rate *r)
{
	cJSON *o = cJSON_CreateObject(), *iv = cJSON_CreateArray();

	json_add_int(o, "count", r->x);
	json_add_number(o, "rate", r->rate);
	cJSON_AddItemToArray(iv, isnan(r->rate) ? cJSON_CreateNull() : cJSON_CreateNumber(r->ci[0]));
	cJSON_AddItemToArray(iv, isnan(r->rate) ? cJSON_CreateNull() : cJSON_CreateNumber(r->ci[1]));
	cJSON_AddItemToObject(o, "interval", iv);
	cJSON_AddItemToObject(parent, key, o);
}

void metrics_seeded_json(cJSON *obj, const struct metrics_seeded *m)
{
	const struct seed_info *i = &m->info;
	cJSON *e = cJSON_CreateObject(), *w = cJSON_CreateObject(), *classes = cJSON_CreateObject();

	json_add_int(e, "id", i->id);
	json_add_string(e, "repo", i->repo ? i->repo : "");
	json_add_time(e, "started_at", i->started_at);
	json_add_time(e, "finished_at", i->finished_at);
	json_add_string_or_null(e, "state", i->state);
	json_add_int(e, "seed", i->seed);
	json_add_time(w, "since", i->since);
	json_add_time(w, "until", i->until);
	cJSON_AddItemToObject(e, "window", w);
	json_add_string_or_null(e, "selector", i->selector);
	json_add_string_or_null(e, "test", i->test_cmd);
	json_add_string_or_null(e, "full", i->full_cmd);
	json_add_int(e, "changes_wanted", i->changes_wanted);
	json_add_int(e, "mutants_per_change", i->mutants_wanted);
	cJSON_AddItemToObject(obj, "experiment", m->known ? e : cJSON_CreateNull());
	if (!m->known)
		cJSON_Delete(e);
	json_add_number(obj, "confidence", m->confidence);
	json_add_int(obj, "mutants", m->valid);
	json_add_int(obj, "invalid", m->invalid);
	json_add_int(obj, "timeouts", m->timeouts);
	json_add_int(obj, "changes_mutated", m->changes_mutated);
	for (int k = 0; k < NR_SEED_CLASSES; k++)
		json_rate(classes, seed_verdict_name((enum seed_verdict)k), &m->rates[k]);
	cJSON_AddItemToObject(obj, "classes", classes);
	json_add_number(obj, "seeded_escape_rate", m->rates[SEED_FULL].rate);
}

static void html_pct_cell(struct strbuf *sb, const char *key, double v)
{
	struct strbuf shown = STRBUF_INIT;

	metrics_fmt_pct(&shown, v, 1);
	html_cell(sb, key, v, shown.buf);
	strbuf_release(&shown);
}

void metrics_seeded_html_table(struct strbuf *sb, const struct metrics_seeded *fig,
			       const char *prefix)
{
	strbuf_addstr(sb, "<table class=\"totals\">\n<tr><th>seeded defects</th>"
		      "<th class=\"num\">count</th><th class=\"num\">rate</th>"
		      "<th class=\"num\">from</th><th class=\"num\">to</th></tr>\n");
	for (int k = 0; k < NR_SEED_CLASSES; k++) {
		const struct stats_rate *x = &fig->rates[k];
		const char *name = seed_verdict_name((enum seed_verdict)k);
		struct strbuf key = STRBUF_INIT, shown = STRBUF_INIT;

		strbuf_addstr(sb, "<tr><td>");
		html_escape(sb, metrics_seeded_label((enum seed_verdict)k));
		strbuf_addstr(sb, "</td>");
		strbuf_addf(&key, "%sclasses.%s.count", prefix, name);
		strbuf_addf(&shown, "%" PRId64, x->x);
		html_cell(sb, key.buf, (double)x->x, shown.buf);
		strbuf_reset(&key);
		strbuf_addf(&key, "%sclasses.%s.rate", prefix, name);
		html_pct_cell(sb, key.buf, x->rate);
		strbuf_reset(&key);
		strbuf_addf(&key, "%sclasses.%s.interval.0", prefix, name);
		html_pct_cell(sb, key.buf, isnan(x->rate) ? NAN : x->ci[0]);
		strbuf_reset(&key);
		strbuf_addf(&key, "%sclasses.%s.interval.1", prefix, name);
		html_pct_cell(sb, key.buf, isnan(x->rate) ? NAN : x->ci[1]);
		strbuf_addstr(sb, "</tr>\n");
		strbuf_release(&key);
		strbuf_release(&shown);
	}
	strbuf_addstr(sb, "</table>\n");
}

