/* `propose --demote`: each force-full rule in effect, the gate minutes it cost and what dropping it would have missed (metrics/demote.h). */
#include "core/tiadash.h"
#include "metrics/demote.h"
#include "metrics/stats.h"

const char *demote_full_name(enum demote_full f)
{
	static const char *const names[] = { "no full run", "full run passed",
					     "full run failed" };

	return names[f];
}

/* Copy the compiled rules of from into out (compiled), leaving out rule `skip` (SIZE_MAX: none). */
static int copy_rules(const struct rules *from, size_t skip, struct rules *out)
{
	for (size_t i = 0; i < from->nr; i++) {
		const struct rule *x = &from->items[i];

		if (i == skip)
			continue;
		if (rules_add(out, x->action, x->id, x->glob, x->origin, x->name,
			      &x->tests) < 0)
			return -1;
		if (x->judge)
			rules_set_judge(out, x->judge);
		if (x->source)
			rules_set_source(out, out->nr - 1, x->source);
	}
	return rules_compile(out);
}

static bool names_rule(const struct replay_outcome *o, const struct rule *x)
{
	if (o->decision != REPLAY_RUN_ALL)
		return false;
	for (size_t i = 0; i < o->reasons.nr; i++)
		if (!strcmp(o->reasons.items[i], x->name))
			return true;
	return false;
}

/*
 * The gate seconds a narrowed change saves: what its recorded head spent
 * (shadow, else full, else the median full run) less the narrowed gate.
 */
static double saved_seconds(const struct replay_record *rec, const struct replay_head *h,
			    enum replay_decision after)
{
	double spent = rec->full_s;
	double cost = after == REPLAY_NOTHING ? 0 : rec->narrowed_s;

	if (h && !isnan(h->shadow_wall_s))
		spent = h->shadow_wall_s;
	else if (h && !isnan(h->full_wall_s))
		spent = h->full_wall_s;
	return spent - cost;
}

/* What the record says of one change's full run: failures that count. */
static int full_of(const struct replay_record *rec, const struct replay_head *h,
		   enum demote_full *out)
{
	struct replay_failure *fails = NULL;
	size_t nr = 0;

	*out = DEMOTE_FULL_NONE;
	if (!h || !h->full_run)
		return 0;
	if (replay_record_failures(rec, h, &fails, &nr) < 0)
		return -1;
	*out = nr ? DEMOTE_FULL_FAILED : DEMOTE_FULL_PASSED;
	replay_failures_release(fails, nr);
	return 0;
}

/* One forced change as the run without the rule left it (selector: its answer is in). */
static int judge_change(const struct replay_run *run, const struct replay_change *ch,
			bool selector, struct demote_rule *r, struct demote_change *out)
{
	const struct replay_head *h = replay_record_find(&run->record, ch->commit);

	memcpy(out->sha, ch->commit->sha, sizeof(out->sha));
	out->has_pr = ch->commit->has_pr;
	out->pr = ch->commit->pr;
	out->after = ch->prop.decision;
	out->narrowed = out->after != REPLAY_RUN_ALL;
	out->saved_s = NAN;
	if (full_of(&run->record, h, &out->full) < 0)
		return -1;
	if (!out->narrowed)
		return 0;
	r->narrowed++;
	out->saved_s = saved_seconds(&run->record, h, out->after);
	if (out->full == DEMOTE_FULL_NONE)
		return 0;
	if (!selector && out->full == DEMOTE_FULL_FAILED) {
		r->unknown++;
		return 0;
	}
	out->evaluated = true;
	r->evaluated++;
	for (size_t i = 0; selector && i < ch->prop.missed.nr; i++) {
		strlist_push(&out->missed, ch->prop.missed.items[i]);
		strlist_push(&r->missed, ch->prop.missed.items[i]);
	}
	r->missed_changes += out->missed.nr > 0;
	return 0;
}

static void sum_up(struct demote_rule *r, double confidence)
{
	double s = 0;

	for (size_t i = 0; i < r->nr_changes; i++)
		if (r->changes[i].narrowed)
			s += r->changes[i].saved_s;
	r->saved_minutes = s / 60;
	strlist_sort(&r->missed);
	strlist_uniq(&r->missed);
	r->miss_upper = r->evaluated && !r->unknown ?
		stats_cp_upper(r->missed_changes, r->evaluated, confidence) : NAN;
	r->candidate = r->narrowed && r->evaluated && !r->missed_changes && !r->unknown;
}

/*
 * Replay the changes scan forced by rule `at` of effect without it: a run
 * borrowing scan's commits and record, its baseline the rules in effect,
 * its proposal them less the rule (replay's what-if), the selector asked
 * only for the changes that proposal narrows.
 */
static int replay_without(struct repo *repo, const struct replay_run *scan,
			  const struct rules *effect, size_t at,
			  const struct demote_opts *o, struct demote_rule *r)
{
	struct replay_run run = { .baseline = RULES_INIT, .proposal = RULES_INIT };
	const struct rule *x = &effect->items[at];
	int ret = -1;

	run.threads = 1;
	run.has_proposal = true;
	run.has_store = scan->has_store;
	run.history.commits = xcalloc(scan->nr ? scan->nr : 1, sizeof(*run.history.commits));
	for (size_t i = 0; i < scan->nr; i++)
		if (names_rule(&scan->changes[i].base, x))
			run.history.commits[run.history.nr++] = *scan->changes[i].commit;
	run.record = scan->record;
	if (copy_rules(effect, SIZE_MAX, &run.baseline) < 0 ||
	    copy_rules(effect, at, &run.proposal) < 0)
		goto out;
	replay_apply_rules(&run, repo);
	if (o->selector) {
		run.selector = *o->selector;
		if (replay_finish(&run) < 0 || replay_selector_verdict(&run) < 0)
			goto out;
	}
	r->forced = (int64_t)run.nr;
	r->changes = xcalloc(run.nr ? run.nr : 1, sizeof(*r->changes));
	r->nr_changes = run.nr;
	for (size_t i = 0; i < run.nr; i++)
		if (judge_change(&run, &run.changes[i], o->selector != NULL, r,
				 &r->changes[i]) < 0)
			goto out;
	sum_up(r, o->confidence);
	ret = 0;
out:
	/* Hand back what the run borrowed before releasing the rest. */
	free(run.history.commits);
	memset(&run.history, 0, sizeof(run.history));
	memset(&run.record, 0, sizeof(run.record));
	replay_run_release(&run);
	return ret;
}

static int cmp_rule(const void *a, const void *b)
{
	const struct demote_rule *x = a, *y = b;

	if (isnan(x->saved_minutes) != isnan(y->saved_minutes))
		return isnan(x->saved_minutes) ? 1 : -1;
	if (!isnan(x->saved_minutes) && x->saved_minutes != y->saved_minutes)
		return x->saved_minutes > y->saved_minutes ? -1 : 1;
	if (x->forced != y->forced)
		return x->forced > y->forced ? -1 : 1;
	return strcmp(x->rule, y->rule);
}

int demote_compute(struct repo *repo, struct store *s, const struct rules *effect,
		   const struct demote_opts *opts, struct demote *out)
{
	struct replay_run scan = { .baseline = RULES_INIT, .proposal = RULES_INIT };
	char *slug = replay_origin_slug(repo);
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->since = opts->since;
	out->until = opts->until;
	out->confidence = opts->confidence;
	out->selector = opts->selector ? xstrdup(opts->selector->name) : NULL;
	scan.threads = 1;
	scan.has_store = s != NULL;
	if (replay_record_load(&scan.record, s, opts->idmap, slug) < 0 ||
	    copy_rules(effect, SIZE_MAX, &scan.baseline) < 0 ||
	    replay_walk_diff(repo, NULL, opts->since, opts->until, 1, NULL, NULL,
			     &scan.history) < 0)
		goto out;
	replay_apply_rules(&scan, repo);
	out->changes = (int64_t)scan.nr;
	out->full_median_s = scan.record.full_s;
	out->narrowed_median_s = scan.record.narrowed_s;
	out->items = xcalloc(effect->nr ? effect->nr : 1, sizeof(*out->items));
	for (size_t i = 0; i < effect->nr; i++) {
		const struct rule *x = &effect->items[i];
		struct demote_rule *r = &out->items[out->nr];
		struct strbuf label = STRBUF_INIT;

		if (x->action != RULE_RUN_ALL)
			continue;
		memset(r, 0, sizeof(*r));
		r->rule = xstrdup(x->name);
		r->glob = xstrdup(x->glob);
		rules_label(x, &label);
		r->source = strbuf_detach(&label, NULL);
		out->nr++;
		if (replay_without(repo, &scan, effect, i, opts, r) < 0)
			goto out;
	}
	qsort(out->items, out->nr, sizeof(*out->items), cmp_rule);
	ret = 0;
out:
	replay_run_release(&scan);
	free(slug);
	return ret;
}

void demote_release(struct demote *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		struct demote_rule *r = &d->items[i];

		for (size_t j = 0; j < r->nr_changes; j++)
			strlist_release(&r->changes[j].missed);
		free(r->changes);
		free(r->rule);
		free(r->glob);
		free(r->source);
		strlist_release(&r->missed);
	}
	free(d->items);
	free(d->selector);
	memset(d, 0, sizeof(*d));
}
