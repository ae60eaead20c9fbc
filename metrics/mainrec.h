/*
 * Main's record in the figures (SPEC 4, inherited): the red spans of main,
 * the tests the window's pairs inherited, the latent misses.
 */
#ifndef TIADASH_METRICS_MAINREC_H
#define TIADASH_METRICS_MAINREC_H

#include "core/tiadash.h"
#include "core/query.h"
#include "core/json.h"
#include "metrics/common.h"
#include "metrics/metrics.h"

/*
 * After the pass over w's pairs (m's rows, escapes and pair notes): main's
 * red spans that overlap w, which pairs inherited each and the escape that
 * most likely brought it, the tests red on main, the latent misses.
 * -1 after error().
 */
int metrics_main_record(struct store *s, const struct window *w, struct metrics *m);
/* Report's JSON keys "main" and "latent_misses" into root. */
void mainrec_json(cJSON *root, const struct metrics *m);
/* Report's text (o->md: markdown) lines of main's record and the latent misses. */
void mainrec_text(struct metrics_out *o, const struct metrics *m);
/* What metrics_main_record and the pass's pair notes hold. */
void metrics_main_release(struct metrics *m);

#endif
