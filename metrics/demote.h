/*
 * Rules that cost more than they catch (`propose --demote`, the dashboard's
 * Proposals view): each force-full rule in effect, what it cost on the
 * window's merged history and what dropping it would have missed.
 *
 * Definitions (man/tiadash.1, PROPOSE, says the same):
 *
 *   rules        the force-full rules in effect (adapters/ruleset.h): rule
 *                files and selector configs. Built-ins are suggestions,
 *                never candidates here.
 *   changes      the first-parent history of the repository's HEAD in the
 *                window, pushed through the rules in effect as `replay`
 *                does (replay/evaluate.c); a change is *forced* by a rule
 *                when its decision is run_all with the rule among the
 *                reasons.
 *   without      each rule's forced changes replayed again with every rule
 *                in effect but that one (replay's proposal): a change that
 *                another rule (or a failed diff) still forces saves
 *                nothing; the others are *narrowed*. With a selector, a
 *                narrowed change gets the selector's answer at its head
 *                (replay/selector.c, as `replay --selector`), and an answer
 *                of run_all (or an error) makes it forced again.
 *   saved        per narrowed change: the gate time actually spent on its
 *                recorded head (the shadow run's wall-clock; unmeasured:
 *                the full run's; no record: the store's median full run)
 *                minus what the narrowed gate takes (the store's median
 *                narrowed shadow wall-clock; 0 for a change that selects
 *                nothing); NAN when one of them is unknown. A rule's
 *                saved_minutes is the sum over its narrowed changes / 60,
 *                NAN when one is unknown.
 *   evaluated    a narrowed change whose head has a recorded full run.
 *                With a selector: its missed tests are that full run's
 *                failures (not flaky, not quarantined, not inherited from
 *                main) the selector's answer does not run (replay's
 *                misses). Without one: a full run with no such failure
 *                missed nothing (the only sound reading of the record);
 *                one with failures is *unknown* and not evaluated.
 *   bound        the one-sided exact (Clopper-Pearson, metrics/stats.h)
 *                upper bound of missed_changes / evaluated at the
 *                confidence; NAN with nothing evaluated or an unknown.
 *   candidate    narrowed >= 1, evaluated >= 1, nothing missed, no unknown.
 *   ranking      saved_minutes descending (NAN last), then forced
 *                descending, then the rule's reason.
 *
 * Ownership: struct demote owns everything it points to (demote_release);
 * it borrows nothing once demote_compute returns.
 */
#ifndef TIADASH_METRICS_DEMOTE_H
#define TIADASH_METRICS_DEMOTE_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/idmatch.h"
#include "core/repo.h"
#include "core/rules.h"
#include "core/store.h"
#include "replay/replay.h"

enum demote_full {
	DEMOTE_FULL_NONE,   /* no recorded full run */
	DEMOTE_FULL_PASSED, /* no failure that counts */
	DEMOTE_FULL_FAILED,
};

struct demote_change {
	char sha[41];                /* the commit on the walked branch */
	bool has_pr;
	int64_t pr;
	bool narrowed;               /* dropping the rule narrows it */
	enum replay_decision after;  /* its decision without the rule */
	enum demote_full full;
	bool evaluated;
	struct strlist missed;       /* SUITE::CASE, as replay reports them */
	double saved_s;              /* narrowed: the gate seconds saved; NAN: unknown */
};

struct demote_rule {
	char *rule;       /* its reason, "force-full:GLOB" */
	char *glob;
	char *source;     /* rules_label: "in effect: FILE" */
	int64_t forced, narrowed, evaluated, unknown, missed_changes;
	struct strlist missed;       /* distinct SUITE::CASE over its changes, sorted */
	double saved_minutes;        /* NAN: unknown */
	double miss_upper;           /* NAN: not bounded */
	bool candidate;
	struct demote_change *changes; /* the changes it forced, newest first */
	size_t nr_changes;
};

struct demote {
	int64_t since, until;
	char *selector;              /* what --selector named; NULL: none */
	double confidence;
	int64_t changes;             /* walked */
	double full_median_s, narrowed_median_s; /* the store's; NAN: none */
	struct demote_rule *items;   /* ranked */
	size_t nr;
};
#define DEMOTE_INIT { 0, 0, NULL, 0, 0, 0, 0, NULL, 0 }

struct demote_opts {
	int64_t since, until;
	double confidence;
	const struct idmap *idmap;             /* the store config's; NULL: none */
	const struct replay_selector_opts *selector; /* NULL: none (the record only) */
};

/*
 * Rank the force-full rules of effect (compiled, borrowed) on repo's
 * history and the store's record (s may be NULL: nothing recorded). -1
 * after error(); out is always safe to release.
 */
int demote_compute(struct repo *repo, struct store *s, const struct rules *effect,
		   const struct demote_opts *opts, struct demote *out);
void demote_release(struct demote *d);

/* "full run passed", "full run failed", "no full run". */
const char *demote_full_name(enum demote_full f);

/* ---- output (metrics/propose_demote.c) ---- */

/*
 * One rule's verdict, the words every view uses: "candidate: narrow or
 * drop", "keep: dropping it misses tests", "unknown: full runs failed
 * (give --selector)", "nothing to gain" (dropping it narrows nothing), or
 * "not evaluated" (no recorded full run).
 */
const char *demote_verdict(const struct demote_rule *r, bool selector);
/* "PR 21" or "commit 0123456789ab". */
void demote_change_name(struct strbuf *sb, const struct demote_change *c);

/*
 * `propose --demote` in text, md, json or html (now: the page's date);
 * limit: changes listed per rule in text, md and html (-1: all). Untrusted
 * strings are sanitized (text), escaped (md, html).
 */
void demote_print(const struct demote *d, enum output_format format, int64_t limit,
		  int64_t now, FILE *f);

#endif
