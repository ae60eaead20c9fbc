/*
 * Proposals (SPEC 6): from the window's unexplained escapes to force-full
 * globs, each scored on the whole stored history, a recommended set, the
 * what-if of one edited glob (the dashboard's live preview), and writing an
 * accepted glob to the rules file (with undo). `tiadash propose` and the
 * dashboard's Proposals view are both built on this API.
 *
 * Definitions (where SPEC 6 leaves a choice, the choice is written here):
 *
 *   escapes      the window's heads of class escape or non-hermetic
 *                (metrics/classify.h) without an explained note. Each gets
 *                a state:
 *                  new             (closable) a glob on one of its changed
 *                                  paths would have made it run_all
 *                  closed-by-rules one of its changed paths is already
 *                                  force-full under the current rules (the
 *                                  recorded selector did not have them)
 *                  unclosable      non-hermetic (the failing tests were
 *                                  selected and passed in the shadow run:
 *                                  running everything would not have
 *                                  stopped it), no changed paths known,
 *                                  or every changed
 *                                  path is decided first by a rule that is
 *                                  not force-full (an appended glob would
 *                                  never fire); `why` says which
 *   current rules
 *                the rule files given (else .tiadash/rules at the repository
 *                root when present), then the built-in defaults. An accepted
 *                glob is appended to the first file, so it sits after that
 *                file's rules and before the others: a path whose first
 *                matching rule comes before that point (whatever its
 *                action), or whose first rule is run_all, is not *eligible*:
 *                a glob there would change nothing.
 *   changed paths
 *                of a head: its latest shadow run's diff (else the latest
 *                full run's), new and old side of renames.
 *   candidates   from every eligible changed path of a closable escape:
 *                the file itself (a root file as "/name", anchored), "dir/ **"
 *                at each directory level, "** /name", "** / *.ext" (the
 *                last extension) and "dir/ ** / *.ext" at each level.
 *                (In this header a space follows every slash that precedes
 *                a star, which a C comment cannot hold: "dir/ **" is the
 *                glob dir/ followed by two stars.) Glob
 *                characters in path components are escaped, so a candidate
 *                matches exactly what its form says.
 *   history      every head of the store (the window's repo filter applies)
 *                with a shadow run: the whole record, not the window, so a
 *                glob's cost is measured on every change it would have hit
 *                (SPEC 6: "measured on history"); the window only decides
 *                which escapes need closing.
 *   matches      a glob matches a head when it matches one of the head's
 *                eligible changed paths (gitignore semantics, core/glob.h)
 *   closes       the closable escapes it matches (benefit)
 *   extra_force_full
 *                history heads it matches whose latest shadow decision is
 *                not run_all and whose class is not escape: the runs it
 *                would have forced on changes that did not need it (cost).
 *                Escapes outside the window, and explained ones, that it
 *                matches are counted apart (closes_other): a benefit too,
 *                but not one the recommended set is asked for
 *   extra_minutes
 *                sum over those heads of (full wall-clock - shadow
 *                wall-clock) / 60, each the head's measured latest attempt,
 *                else the window's median (of latest attempts); NAN when
 *                neither exists
 *   force_full_rate_after
 *                (heads already run_all + every head it newly forces,
 *                closed escapes included) / history heads with a shadow run
 *   p95_after    the p95 of shadow wall-clock over history heads with a
 *                measured shadow wall-clock, each newly forced one's value
 *                replaced by its full wall-clock (else the window's median
 *                full); NAN when a replacement is unknown
 *   ranking      closes (count) descending, then catches (latent misses)
 *                descending, then extra_minutes ascending
 *                (NAN last), then the glob text
 *   builtin      tiadash's built-in defaults are not current rules (the
 *                selector never applied them); a built-in glob that matches
 *                an eligible changed path of a closable escape is a
 *                candidate of form "builtin", scored like the others
 *   recommended  greedy weighted set cover of the closable escapes: take
 *                the candidate with the lowest extra_minutes per newly
 *                closed escape; ties: fewer extra_force_full, then the
 *                more specific form (file, name, dir-ext, dir, ext,
 *                builtin: of globs that cost the same on history, the
 *                narrower ones cost less on the future, so two file globs
 *                beat the directory glob that closes both at the same
 *                cost), then more newly closed, then the glob text. Then
 *                a glob whose matched paths another glob of the set
 *                matches too is dropped: the set never holds a glob that
 *                another of its globs covers on history
 *   latent misses
 *                the window's pairs whose shadow run failed (the gate
 *                held) while the full run also failed tests the selection
 *                did not name (metrics/classify.h): not escapes, but the
 *                same blind spot. Each is settled like an escape (new,
 *                closed-by-rules, unclosable) and is evidence: a closable
 *                one's changed paths give candidates, a candidate counts
 *                the ones it would have caught (catches), and the ranking
 *                breaks a tie in closes by catches. The recommended set
 *                covers escapes only: it is what the gate's trust needs
 *   evidence     per escape: its changed paths no current rule matches, its
 *                missed tests (non-hermetic: the selected failing ones), and
 *                per test whether its source file at the head commit (the
 *                suite key, when that is a file there) mentions a changed
 *                file's name: its basename anywhere, or its basename without
 *                extension (3 characters or more) between non-alphanumeric
 *                characters
 *
 * Ownership: struct proposals owns everything it points to (release with
 * proposals_release) and borrows nothing once proposals_compute returns
 * (the rules, store and repository may go). struct proposal_preview and
 * struct proposal_accept own their contents. No global state: separate
 * computations may run on separate threads (each with its own store
 * connection); one struct proposals is not to be shared between threads.
 */
#ifndef TIADASH_METRICS_PROPOSALS_H
#define TIADASH_METRICS_PROPOSALS_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/idmatch.h"
#include "core/query.h"
#include "core/repo.h"
#include "core/rules.h"
#include "adapters/ruleset.h"
#include "core/util.h"
#include "metrics/candidates.h"
#include "metrics/classify.h"

/* ---- the current rules ---- */

struct proposals_rules {
	struct ruleset set;     /* set.effect: the rules in effect, compiled */
	char *target;           /* the file an accepted glob goes to; NULL: none known */
	size_t insert_at;       /* the index in set.effect.items an appended glob would take */
	bool builtin_candidates;/* offer tiadash's built-in defaults as candidates */
};
#define PROPOSALS_RULES_INIT { RULESET_INIT, NULL, 0, false }

/*
 * Load the current rules (adapters/ruleset.h: the rules in effect are the
 * selector's, never tiadash's built-in defaults). The target is the first
 * file (none found: .tiadash/rules, even when it does not exist yet; NULL
 * without a repository). With new_target, a first file that does not
 * exist is fine (an accept will create it); any other missing file is an
 * error. `builtin`: the built-in defaults that would close an escape are
 * offered as candidates (marked builtin). -1 after error().
 */
int proposals_rules_load(struct proposals_rules *out, const struct strlist *files,
			 const char *repo_path, bool builtin, bool new_target);
void proposals_rules_release(struct proposals_rules *r);

/* ---- computing ---- */

/*
 * The one state model of an escape, with the names every output uses: new
 * (a glob can close it), closed-by-rules, unclosable, and explained (a
 * note; such escapes are counted, not listed, by proposals_compute).
 */
enum proposal_state {
	PROPOSAL_CLOSABLE,
	PROPOSAL_CLOSED_BY_RULES,
	PROPOSAL_UNCLOSABLE,
	PROPOSAL_EXPLAINED,
};
/* "new", "closed-by-rules", "unclosable", "explained". */
const char *proposal_state_name(enum proposal_state s);

enum evidence_state {
	EVIDENCE_NO_REPO,    /* n/a (no repository) */
	EVIDENCE_NO_COMMIT,  /* n/a (head commit not in the repository) */
	EVIDENCE_NOT_A_FILE, /* n/a (the suite key is not a file at head) */
	EVIDENCE_READ,       /* source read: mentions says what it names */
};

struct proposal_evidence {
	char *test;     /* SUITE::CASE */
	char *source;   /* the suite key read at head (EVIDENCE_READ), else NULL */
	enum evidence_state state;
	struct strlist mentions; /* changed paths whose name the source mentions, sorted */
};

struct proposal_escape {
	int64_t head_id;
	char sha[41];
	bool has_pr;
	int64_t pr;
	int64_t at;              /* window time (ms) */
	enum pair_class cls;     /* CLASS_ESCAPE or CLASS_NON_HERMETIC */
	enum proposal_state state;
	char *why;               /* not closable: the reason; closed-by-rules: the rule's name */
	char *rule_source;       /* closed-by-rules: where the rule is in effect from (rules_label) */
	bool diff_known;         /* changed paths recorded */
	struct strlist paths;    /* changed paths (both sides of renames), sorted */
	struct strlist unmatched;/* changed paths no current rule matches, sorted */
	struct strlist missed;   /* missed tests; non-hermetic: the selected failing ones */
	struct proposal_evidence *evidence; /* one per missed test */
	size_t nr_evidence;
	bool closed_by_recommended; /* closable and matched by a recommended glob */
	bool latent;             /* a latent miss (missed: the latent tests), not an escape */
};

struct proposal {
	char *glob;
	enum proposal_form form;
	size_t *closes;            /* indexes into proposals.escapes, ascending */
	size_t nr_closes;
	int64_t matched_heads;     /* history heads it matches */
	int64_t extra_force_full;  /* newly forced changes that agreed (SPEC 6's cost) */
	int64_t closes_other;      /* other escapes of the history it matches (benefit, not cost) */
	size_t *catches;           /* indexes into proposals.latent_list it would have caught */
	size_t nr_catches;
	double extra_minutes;      /* NAN: unknown */
	/*
	 * Every change it newly forces, the escapes it closes too, and their
	 * gate minutes: what the force-full rate after counts, and the +RUNS
	 * and +MIN of every table (as the preview's cost, proposals_preview).
	 */
	int64_t forced;
	double forced_minutes;
	double force_full_rate_after;
	double p95_after;          /* NAN: unknown */
	bool recommended;
};

struct proposals_opts {
	const struct idmap *idmap; /* applied to selections (NULL: none) */
	bool evidence;             /* read test sources at head (needs a repository) */
};
#define PROPOSALS_OPTS_INIT { NULL, true }

struct proposals {
	int64_t since, until;  /* the window */
	char *repo;            /* the repo filter, "" for all */

	/* The window's escapes. */
	int64_t escapes;       /* unexplained escapes (nr_escapes) */
	int64_t explained;     /* escapes with a note, left out */
	int64_t closable, closed_by_rules, unclosable;
	struct proposal_escape *escapes_list; /* window order */
	size_t nr_escapes;

	/* The window's latent misses (evidence, not escapes), window order. */
	struct proposal_escape *latent_list;
	size_t nr_latent;
	int64_t latent_closable; /* of them, a glob on a changed path would catch */

	/* Candidates, ranked. */
	struct proposal *items;
	size_t nr;

	/* The recommended set: indexes into items, in the order the cover took them. */
	size_t *recommended;
	size_t nr_recommended;
	int64_t rec_extra_force_full; /* the set together */
	int64_t rec_forced;           /* as struct proposal's forced, for the set */
	double rec_forced_minutes;
	int64_t rec_closes_other;
	double rec_extra_minutes, rec_force_full_rate_after, rec_p95_after;
	int64_t rec_closes;

	/* The history the candidates are scored on, before any glob. */
	int64_t history_heads;     /* heads with a shadow run */
	int64_t force_full_before; /* of them, latest shadow decision run_all */
	double force_full_rate_before;
	double p95_before;         /* shadow wall-clock p95; NAN: none measured */
	double median_shadow_s, median_full_s; /* the window's, for unmeasured heads */

	struct proposals_ctx *ctx_; /* private: what proposals_preview reuses */
};
#define PROPOSALS_INIT { 0 }

/*
 * Compute the window's proposals. repo may be NULL (evidence is then
 * "n/a (no repository)"). Reads the store only through core/query.h (and
 * metrics_compute). Returns 0, or -1 after error(); out is always safe to
 * release.
 */
int proposals_compute(struct store *s, struct repo *repo,
		      const struct proposals_rules *rules, const struct window *w,
		      const struct proposals_opts *opts, struct proposals *out);
void proposals_release(struct proposals *p);

/* ---- the live preview of one glob ---- */

struct proposal_change {
	int64_t head_id;
	bool has_pr;
	int64_t pr;
	bool forced;  /* newly forced (its recorded decision was not run_all) */
	int escape;   /* index into escapes_list when it is a closable escape, else -1 */
};

struct proposal_preview {
	int64_t matched_paths;     /* distinct stored changed paths it matches (eligible ones) */
	struct strlist sample;     /* the first PROPOSALS_PREVIEW_SAMPLE of them, sorted */
	struct proposal_change *changes; /* history heads it matches, in window-time order */
	size_t nr_changes;
	size_t *closes;            /* indexes into escapes_list */
	size_t nr_closes;
	size_t *catches;           /* indexes into latent_list */
	size_t nr_catches;
	int64_t extra_force_full, closes_other;
	double extra_minutes, force_full_rate_after, p95_after;
	/*
	 * Every run it newly forces (the escapes it closes, other escapes and
	 * extra_force_full) and their gate minutes: the cost that moves
	 * force_full_rate_after, which is (force-full before + forced) / heads.
	 */
	int64_t forced, forced_closing;
	double forced_minutes;
};
#define PROPOSALS_PREVIEW_SAMPLE 20
#define PROPOSAL_PREVIEW_INIT { 0, STRLIST_INIT, NULL, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/*
 * The what-if of one glob (as typed: any glob core/glob.h accepts) over the
 * history p was computed on: one matcher walked over the distinct stored
 * paths, no store access, so it can run on every keystroke (10^4 PRs: a
 * few milliseconds). out is reset first. Returns 0, or -1 with the reason
 * in *why (a glob that does not compile; not printed).
 */
int proposals_preview(struct proposals *p, const char *glob,
		      struct proposal_preview *out, struct strbuf *why);
void proposal_preview_release(struct proposal_preview *pv);

/*
 * Append a preview's cost, the one its force-full rate comes from: "+5
 * force-full runs, +103.9 min (3 closing, 2 extra)": closing (the
 * escapes it closes), other escapes and extra; the kinds of
 * run in parentheses only when it forces any.
 */
void proposals_preview_cost(struct strbuf *sb, const struct proposal_preview *pv);

/* ---- accept and undo ---- */

/* What an accept wrote, so it can be undone exactly. */
struct proposal_accept {
	char *path;           /* the rules file */
	struct strbuf text;   /* the bytes appended; whole: the file after */
	struct strbuf before; /* whole: the file before */
	bool created;         /* the file did not exist before */
	bool whole;           /* a selector's configuration, rewritten whole */
};
#define PROPOSAL_ACCEPT_INIT { NULL, STRBUF_INIT, STRBUF_INIT, false, false }
void proposal_accept_release(struct proposal_accept *a);

/*
 * Append glob to the tiadash rules file at rules_path, after a comment
 *   # accepted 2026-11-08: closes escapes of PR 434, 498 (tiadash propose)
 * naming the escapes closes[] (indexes into p->escapes_list; p is NULL
 * when there is no store: "no store, scored on no history") and the UTC
 * date of now (ms). A file that does not
 * end in a newline gets one first (part of the appended text). The file and
 * its directory are created when missing. Refused: a glob that does not
 * compile, holds control characters, or would not read back from the file
 * as exactly this one run_all glob; a glob the file already has as run_all.
 * A selector's own configuration (adapters/adapter.h: vitest, turbo,
 * moon, a harness YAML, gstack, .codebase-memory.json) gets the glob as
 * adapter_plan_add plans it, in its own format and without the comment:
 * the file is rewritten whole and `whole` is set; what the target cannot
 * hold is refused with the reason. Either way the file is read and
 * replaced through core/teamfile.h: a symbolic link, a file that is not a
 * regular file or one leading out of the repository is refused, and one
 * that changed between the read and the rename is not written.
 * out must be initialized (PROPOSAL_ACCEPT_INIT). Returns 0 and fills out,
 * or -1 after error().
 */
int proposals_accept(const char *rules_path, const char *glob,
		     const struct proposals *p, const size_t *closes,
		     size_t nr_closes, int64_t now, struct proposal_accept *out);

/*
 * Undo an accept: when the file still ends with exactly the appended text,
 * take it away (a file the accept created is removed); a whole rewrite
 * is undone when the file is still exactly what it wrote. The old text goes
 * back through the same atomic replacement (core/teamfile.h), never
 * truncated in place. Otherwise -1 after error() and the file is left alone.
 */
int proposals_undo_accept(const struct proposal_accept *a);

/*
 * Append "PR 434, 498, commit 0123456789ab": the escapes closes[] names
 * (indexes into escapes_list); "-" when none.
 */
void proposals_name_escapes(struct strbuf *sb, const struct proposals *p,
			    const size_t *closes, size_t nr);
/*
 * Append what a candidate has as evidence: the escapes it closes, then
 * "; latent PR 414" for the latent misses it catches ("latent PR 414"
 * alone when it closes none; "-" when neither).
 */
void proposals_name_evidence(struct strbuf *sb, const struct proposals *p,
			     const struct proposal *it);

#endif
