/* The gate-check criteria of SPEC 8, judged on computed metrics. */
#include "core/tiadash.h"
#include "metrics/metrics.h"

const char *metrics_op_name(enum metrics_op op)
{
	switch (op) {
	case OP_GE: return ">=";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	}
	return "?";
}

static bool holds(enum metrics_op op, double value, double threshold)
{
	if (isnan(value))
		return false;
	switch (op) {
	case OP_GE: return value >= threshold;
	case OP_LE: return value <= threshold;
	case OP_GT: return value > threshold;
	}
	return false;
}

static struct metrics_criterion *add(struct metrics_gate *g, const char *name,
				      const char *label, enum metrics_op op,
				      double threshold, double value, bool integer,
				      bool advisory)
{
	struct metrics_criterion *c;

	if (g->nr >= METRICS_MAX_CRITERIA)
		BUG("too many gate-check criteria");
	c = &g->criteria[g->nr++];
	c->name = name;
	c->label = label;
	c->op = op;
	c->threshold = threshold;
	c->value = value;
	c->integer = integer;
	c->decimals = 3;
	c->advisory = advisory;
	c->pass = holds(op, value, threshold);
	return c;
}

static const char *bound_label(double confidence)
{
	if (fabs(confidence - 0.90) < 1e-9)
		return "escape rate upper bound (90%)";
	if (fabs(confidence - 0.99) < 1e-9)
		return "escape rate upper bound (99%)";
	if (fabs(confidence - 0.95) < 1e-9)
		return "escape rate upper bound (95%)";
	return "escape rate upper bound";
}

/*
 * The joined share of n names of which bad are not, into *share and
 * *label when lower (below 1 when *share is n/a, so a window where every
 * name joined reads as before: failing tests, or n/a).
 */
static void weakest(double *share, const char **label, int64_t n, int64_t bad,
		    const char *what)
{
	double v = n > 0 ? (double)(n - bad) / (double)n : NAN;

	if (!isnan(v) && v < (isnan(*share) ? 1.0 : *share)) {
		*share = v;
		*label = what;
	}
}

/*
 * An escape computed on an unresolved id is not evidence (SPEC 3.3), nor
 * is one a quarantine line that names nothing failed to excuse, nor a
 * selection whose entries select none of the tests their run ran. The criterion is the lowest of
 * the three shares, labelled with its kind; a window without any such
 * name has no join to doubt.
 */
static void add_identity(struct metrics_gate *out, const struct metrics *m,
			 const struct metrics_criteria *c)
{
	const struct identity_figures *f = &m->identity;
	const char *label = "failing tests resolved";
	double share = m->identity_share;
	/* An entry that selects none of the tests its run ran is the join failing. */
	int64_t entries_bad = f->has_unmatched ? f->entries_unmatched : 0;

	weakest(&share, &label, f->quarantine_lines, f->quarantine_unresolved,
		"quarantine lines resolved");
	weakest(&share, &label, f->selection_entries, entries_bad, "selection entries joined");
	add(out, "identity_resolved", label, OP_GE, c->min_identity, share, false,
	    false)->pass |= isnan(share);
}

void metrics_gate_check(const struct metrics *m, const struct metrics_criteria *c,
			struct metrics_gate *out)
{
	memset(out, 0, sizeof(*out));
	out->go = true;
	add(out, "shadow_days", "days with shadow runs", OP_GE, (double)c->min_days,
	    (double)m->shadow_days, true, false);
	add(out, "pairs", "pairs", OP_GE, (double)c->min_pairs, (double)m->pairs,
	    true, false);
	add(out, "unexplained_escapes", "unexplained escapes", OP_LE,
	    (double)c->max_escapes, (double)(m->escapes - m->escapes_explained),
	    true, false);
	add(out, "escape_rate_upper", bound_label(m->confidence), OP_LE,
	    m->escape_target, m->escape_bounds.upper, false, false);
	out->criteria[out->nr - 1].decimals = 4;
	add_identity(out, m, c);
	add(out, "affected_fraction_p50", "affected fraction p50", OP_LE,
	    c->max_affected_p50, m->affected.p50, false, false);
	if (c->p95_saving)
		add(out, "wall_clock_p95_saving",
		    "p95 wall-clock saving", OP_GT, c->min_p95_saving,
		    m->saving_p95, false, false);
	add(out, "diff_coverage_p50", "diff coverage p50", OP_GE,
	    c->min_diff_coverage, m->diff_coverage.p50, false, !c->strict);
	add(out, "verifier_changed", "verifier-changed heads", OP_LE, 0,
	    (double)m->verifier_heads, true, true);
	if (m->seeded.known)
		add(out, "seeded_escape_rate", "seeded escape rate", OP_LE,
		    c->max_seeded_escape_rate, m->seeded.rates[SEED_FULL].rate, false, true);
	for (size_t i = 0; i < out->nr; i++)
		if (!out->criteria[i].pass && !out->criteria[i].advisory)
			out->go = false;
}
