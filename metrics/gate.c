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
	/*
	 * An escape computed on an unresolved id is not evidence (SPEC 3.3);
	 * a window without failing tests has no join to doubt.
	 */
	add(out, "identity_resolved", "failing tests resolved", OP_GE, c->min_identity,
	    m->identity_share, false, false)->pass |= isnan(m->identity_share);
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
