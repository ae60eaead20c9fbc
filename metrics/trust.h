/*
 * The trust figures of issue 16 as every command prints them: the bounds
 * of the rates, the trend, the blind spots and the verifier check, in JSON
 * and in text or markdown (report, summary, gate-check, show; the
 * dashboard draws the same lines). They format struct metrics; they never
 * compute.
 */
#ifndef TIADASH_METRICS_TRUST_H
#define TIADASH_METRICS_TRUST_H

#include "core/tiadash.h"
#include "core/json.h"
#include "metrics/common.h"

/* How many tests a JSON list of blind spots or new tests holds. */
#define TRUST_JSON_TESTS 100
/* ... and text or markdown. */
#define TRUST_TEXT_TESTS 20

/* rate_upper and rate_ci [lower, upper] of r into obj (rate too when with_rate). */
void trust_json_rate(cJSON *obj, const struct stats_rate *r, bool with_rate);
/* [a, b], or null when either is NaN (an interval's JSON). */
cJSON *trust_json_pair(double a, double b);
/* The escape rate's rate_upper, rate_ci, pairs_needed, days_needed, target, confidence. */
void trust_json_escape_bounds(cJSON *obj, const struct metrics *m);
/* {"previous_rate", "rate", "p_value", "direction", "previous": {since, until, pairs, escapes}} */
cJSON *trust_json_trend(const struct metrics_trend *t);
/* The blind spots: {"never_selected", "tests", "failed_in_full", ...}; null members when unknown. */
cJSON *trust_json_blind(const struct metrics_blind *b);
/* One verifier-changed finding; r (its head's row) may be NULL. */
cJSON *trust_json_verifier(const struct metrics_verifier *v, const struct metrics_row *r);
/* {"count": heads, "list": [...]} */
cJSON *trust_json_verifier_all(const struct metrics *m);

/* "N more clean pairs (about D days at this window's rate)"; "" when none are needed. */
void trust_fmt_pairs_needed(struct strbuf *sb, const struct metrics *m);
/*
 * The lines under gate-check's verdict, in every format (text, md, the
 * page): the clean pairs still needed (NO-GO), what main's record says of
 * the escapes, and the flip's trade (advisory). Pushed onto out as text.
 */
void trust_gate_notes(struct strlist *out, const struct metrics *m, const struct metrics_gate *g);
/* "flat (p = 0.62)", "rising (p = 0.012)", "n/a (no pairs before)". */
void trust_fmt_trend(struct strbuf *sb, const struct metrics_trend *t);
/* "12 of 400 tests never selected; 1 failed in full", or "n/a (...)". */
void trust_fmt_blind(struct strbuf *sb, const struct metrics_blind *b);
/* "3 first seen, 1 selected", or "n/a". */
void trust_fmt_new(struct strbuf *sb, const struct metrics_blind *b);
/* "SHA12 #N, SHA12 #N" of the identical failures. */
void trust_fmt_attempts(struct strbuf *sb, const struct metrics_attempt *a, size_t nr);

/* Text or markdown blocks for report: the bounds, the trend, blind spots, the verifier check. */
void trust_text(struct metrics_out *o, const struct metrics *m);
void trust_md(struct metrics_out *o, const struct metrics *m);

#endif
