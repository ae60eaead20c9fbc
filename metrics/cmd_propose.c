/* `tiadash propose`: force-full globs for the window's escapes, accepting one, explaining an escape. */
#include "core/tiadash.h"
#include "core/textfit.h"
#include "core/commands.h"
#include "core/config.h"
#include "core/json.h"
#include "core/notes.h"
#include "core/rekey.h"
#include "adapters/adapter.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/blind.h"
#include "metrics/common.h"
#include "metrics/demote.h"
#include "metrics/html.h"
#include "metrics/proposals.h"

#define DEFAULT_LIMIT 20

struct propose_args {
	struct metrics_args m;
	struct strlist rules, previews;
	bool no_builtin; /* --no-builtin-rules */
	const char *accept, *explain, *note;
	bool demote;
	const char *selector, *selector_format, *setup; /* --demote's selector */
	int64_t limit; /* candidates shown in text and md; -1: all */
};

/* ---- shared pieces ---- */

static void add_safe(struct strbuf *sb, const char *s, bool md)
{
	if (md)
		md_escape(sb, s);
	else
		sanitize_text(sb, s, strlen(s));
}

static void fmt_window(struct strbuf *sb, const struct proposals *p, bool md)
{
	if (p->since == INT64_MIN && p->until == INT64_MAX) {
		strbuf_addstr(sb, "all time");
	} else {
		metrics_fmt_bound(sb, p->since);
		strbuf_addstr(sb, " .. ");
		metrics_fmt_bound(sb, p->until);
	}
	strbuf_addstr(sb, ", ");
	if (*p->repo)
		add_safe(sb, p->repo, md);
	else
		strbuf_addstr(sb, "all repos");
}

static void fmt_escape_name(struct strbuf *sb, const struct proposal_escape *e)
{
	if (e->has_pr)
		strbuf_addf(sb, "PR %" PRId64, e->pr);
	else
		strbuf_addf(sb, "commit %.12s", e->sha);
}

static void fmt_minutes(struct strbuf *sb, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, "%+.1f", v);
}

static void fmt_evidence(struct strbuf *sb, const struct proposal_evidence *ev, bool md)
{
	switch (ev->state) {
	case EVIDENCE_NO_REPO:
		strbuf_addstr(sb, "source n/a (no repository)");
		return;
	case EVIDENCE_NO_COMMIT:
		strbuf_addstr(sb, "source n/a (head commit not in the repository)");
		return;
	case EVIDENCE_NOT_A_FILE:
		strbuf_addstr(sb, "source n/a (the suite is not a file at head)");
		return;
	case EVIDENCE_READ:
		break;
	}
	strbuf_addstr(sb, "source ");
	add_safe(sb, ev->source, md);
	if (!ev->mentions.nr) {
		strbuf_addstr(sb, " mentions no changed file's name");
		return;
	}
	strbuf_addstr(sb, " mentions ");
	for (size_t i = 0; i < ev->mentions.nr; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		add_safe(sb, ev->mentions.items[i], md);
	}
}

static const char *evidence_state_name(enum evidence_state s)
{
	static const char *const names[] = { "no-repository", "no-commit",
					     "not-a-file", "read" };

	return names[s];
}

/* The rule a changed path meets first, for people. */
static void fmt_path_rule(struct strbuf *sb, const struct proposals_rules *r,
			  const char *path, bool md)
{
	struct strbuf w = STRBUF_INIT;

	ruleset_path_text(&r->set, path, &w);
	add_safe(sb, w.buf, md);
	strbuf_release(&w);
}

/* Does candidate item close escape e, or catch latent miss e? */
static bool item_takes(const struct proposals *p, const struct proposal *item,
		       const struct proposal_escape *e)
{
	const struct proposal_escape *list = e->latent ? p->latent_list : p->escapes_list;
	const size_t *idx = e->latent ? item->catches : item->closes;
	size_t nr = e->latent ? item->nr_catches : item->nr_closes;

	for (size_t j = 0; j < nr; j++)
		if (&list[idx[j]] == e)
			return true;
	return false;
}

/*
 * The recommended globs that close e; a latent miss no recommended glob
 * catches names the best-ranked candidate that would.
 */
static void fmt_closable_by(struct strbuf *sb, const struct proposals *p,
			    const struct proposal_escape *e, bool md)
{
	const char *verb = e->latent ? " (caught by " : " (closable by ";
	bool first = true;

	for (size_t i = 0; i < p->nr_recommended; i++) {
		const struct proposal *item = &p->items[p->recommended[i]];

		if (!item_takes(p, item, e))
			continue;
		strbuf_addstr(sb, first ? verb : ", ");
		add_safe(sb, item->glob, md);
		first = false;
	}
	for (size_t i = 0; first && e->latent && i < p->nr; i++) {
		if (!item_takes(p, &p->items[i], e))
			continue;
		strbuf_addstr(sb, " (caught by candidate ");
		add_safe(sb, p->items[i].glob, md);
		first = false;
	}
	if (!first)
		strbuf_addch(sb, ')');
}

static void fmt_state(struct strbuf *sb, const struct proposals *p,
		      const struct proposal_escape *e, bool md)
{
	strbuf_addstr(sb, proposal_state_name(e->state));
	if (e->state == PROPOSAL_CLOSABLE) {
		fmt_closable_by(sb, p, e, md);
	} else if (e->state == PROPOSAL_CLOSED_BY_RULES) {
		strbuf_addstr(sb, " (");
		add_safe(sb, e->why, md);
		if (e->rule_source) {
			strbuf_addstr(sb, " (");
			add_safe(sb, e->rule_source, md);
			strbuf_addch(sb, ')');
		}
		strbuf_addch(sb, ')');
	} else {
		strbuf_addstr(sb, ": ");
		add_safe(sb, e->why, md);
	}
}

/* ---- text ---- */

/* A rules file's name: below root relative to it, else as people here read it. */
static void add_rules_path(struct strbuf *sb, const char *path, const char *root)
{
	const char *shown = root ? path_below(root, path) : NULL;

	if (!shown)
		shown = path_for_people(path);
	sanitize_text(sb, shown, strlen(shown));
}

void propose_text_rules(struct strbuf *sb, const struct proposals_rules *r, const char *root)
{
	strbuf_addf(sb, "%zu in effect, ", r->set.effect.nr);
	if (!r->set.files.nr)
		strbuf_addstr(sb, "no rule file or selector config");
	for (size_t i = 0; i < r->set.files.nr; i++) {
		strbuf_addstr(sb, i ? ", " : "from ");
		add_rules_path(sb, r->set.files.items[i], root);
	}
	if (r->builtin_candidates)
		strbuf_addf(sb, "; %zu built-in defaults offered as candidates",
			    rules_builtin_nr);
}

void propose_text_target(struct strbuf *sb, const struct proposals_rules *r, const char *root)
{
	if (r->target)
		add_rules_path(sb, r->target, root);
	else
		strbuf_addstr(sb, "no file (give --rules FILE)");
}


static void text_header(struct strbuf *sb, const struct proposals *p,
			const struct proposals_rules *r)
{
	strbuf_addstr(sb, "propose      ");
	fmt_window(sb, p, false);
	strbuf_addf(sb, "\nescapes      %" PRId64 " unexplained: %" PRId64 " new, %" PRId64
		    " closed-by-rules, %" PRId64 " unclosable; %" PRId64 " explained\n",
		    p->escapes, p->closable, p->closed_by_rules, p->unclosable,
		    p->explained);
	if (p->nr_latent)
		strbuf_addf(sb, "latent       %zu latent miss%s (the gate held; the selector "
			    "missed a failing\n             test): evidence, not escapes; %"
			    PRId64 " a glob would catch\n", p->nr_latent,
			    p->nr_latent == 1 ? "" : "es", p->latent_closable);
	strbuf_addf(sb, "history      %" PRId64 " changes with a shadow run; "
		    "force-full %" PRId64 " (", p->history_heads, p->force_full_before);
	metrics_fmt_pct(sb, p->force_full_rate_before, 1);
	strbuf_addstr(sb, "); shadow p95 ");
	metrics_fmt_secs(sb, p->p95_before);
	strbuf_addstr(sb, "\nrules        ");
	propose_text_rules(sb, r, NULL);
	strbuf_addstr(sb, "\naccept into  ");
	propose_text_target(sb, r, NULL);
	strbuf_addch(sb, '\n');
}

/* The table's columns take 45; the glob column what is left of 80. */
#define TABLE_GLOB_ROOM 35

static void text_row(struct strbuf *sb, const struct proposals *p,
		     const struct proposal *it)
{
	struct strbuf mins = STRBUF_INIT, rate = STRBUF_INIT, p95 = STRBUF_INIT;

	fmt_minutes(&mins, it->forced_minutes);
	metrics_fmt_pct(&rate, it->force_full_rate_after, 1);
	metrics_fmt_secs(&p95, it->p95_after);
	struct strbuf glob = STRBUF_INIT, esc = STRBUF_INIT;

	/* 80 columns: a long glob on a line of its own, the escapes under it. */
	sanitize_text(&glob, it->glob, strlen(it->glob));
	if (it->form == FORM_BUILTIN)
		strbuf_addstr(&glob, " (suggested: built-in)");
	proposals_name_evidence(&esc, p, it);
	if (glob.len > TABLE_GLOB_ROOM)
		strbuf_addf(sb, "  %s\n", glob.buf);
	strbuf_addf(sb, "  %6zu %6" PRId64 " %8s %8s %9s  ", it->nr_closes,
		    it->forced, mins.buf, rate.buf, p95.buf);
	if (glob.len <= TABLE_GLOB_ROOM)
		strbuf_addf(sb, "%s%s", glob.buf, glob.len + esc.len + 4 <= TABLE_GLOB_ROOM ?
			    "  " : "\n                                             ");
	strbuf_addf(sb, "(%s)\n", esc.buf);
	strbuf_release(&glob);
	strbuf_release(&esc);
	strbuf_release(&mins);
	strbuf_release(&rate);
	strbuf_release(&p95);
}

static const char table_head[] =
	"  CLOSES  +RUNS     +MIN FF AFTER P95 AFTER  GLOB (ESCAPES)\n";

static void text_recommended(struct strbuf *sb, const struct proposals *p)
{
	if (!p->closable) {
		strbuf_addstr(sb, "\nrecommended  nothing to close\n");
		return;
	}
	strbuf_addf(sb, "\nrecommended  %zu glob%s closing %" PRId64 " of %" PRId64
		    " new escapes: %+" PRId64 " force-full runs, ",
		    p->nr_recommended, p->nr_recommended == 1 ? "" : "s",
		    p->rec_closes, p->closable, p->rec_forced);
	fmt_minutes(sb, p->rec_forced_minutes);
	strbuf_addstr(sb, " min; force-full ");
	metrics_fmt_pct(sb, p->rec_force_full_rate_after, 1);
	strbuf_addstr(sb, ", shadow p95 ");
	metrics_fmt_secs(sb, p->rec_p95_after);
	strbuf_addch(sb, '\n');
	strbuf_addstr(sb, table_head);
	for (size_t i = 0; i < p->nr_recommended; i++)
		text_row(sb, p, &p->items[p->recommended[i]]);
}

static void text_candidates(struct strbuf *sb, const struct proposals *p, int64_t limit)
{
	size_t shown = limit < 0 || (uint64_t)limit > p->nr ? p->nr : (size_t)limit;

	strbuf_addf(sb, "\ncandidates   %zu, ranked", p->nr);
	if (shown < p->nr)
		strbuf_addf(sb, " (the first %zu; --limit N for more)", shown);
	strbuf_addch(sb, '\n');
	if (!p->nr)
		return;
	strbuf_addstr(sb, table_head);
	for (size_t i = 0; i < shown; i++)
		text_row(sb, p, &p->items[i]);
}

/* The escapes, or the latent misses, each with its paths and evidence. */
static void text_changes(struct strbuf *sb, const struct proposals *p,
			 const struct proposals_rules *r, const char *title,
			 const struct proposal_escape *list, size_t nr)
{
	if (!nr)
		return;
	strbuf_addstr(sb, title);
	for (size_t i = 0; i < nr; i++) {
		const struct proposal_escape *e = &list[i];
		size_t width = 0;

		for (size_t j = 0; j < e->paths.nr; j++) {
			struct strbuf tmp = STRBUF_INIT;

			sanitize_text(&tmp, e->paths.items[j], strlen(e->paths.items[j]));
			if (tmp.len > width)
				width = tmp.len;
			strbuf_release(&tmp);
		}
		strbuf_addstr(sb, "  ");
		fmt_escape_name(sb, e);
		strbuf_addf(sb, "  head %.12s  %s  ", e->sha, pair_class_name(e->cls));
		fmt_state(sb, p, e, false);
		strbuf_addch(sb, '\n');
		if (!e->diff_known)
			strbuf_addstr(sb, "    changed  unknown\n");
		for (size_t j = 0; j < e->paths.nr; j++) {
			size_t start;

			strbuf_addstr(sb, j ? "             " : "    changed  ");
			start = sb->len;
			sanitize_text(sb, e->paths.items[j], strlen(e->paths.items[j]));
			while (sb->len - start < width)
				strbuf_addch(sb, ' ');
			strbuf_addstr(sb, "  ");
			fmt_path_rule(sb, r, e->paths.items[j], false);
			strbuf_addch(sb, '\n');
		}
		for (size_t j = 0; j < e->nr_evidence; j++) {
			const struct proposal_evidence *ev = &e->evidence[j];

			strbuf_addstr(sb, j ? "             " : (e->cls == CLASS_NON_HERMETIC
					? "    failed   " : "    missed   "));
			sanitize_text(sb, ev->test, strlen(ev->test));
			strbuf_addstr(sb, "\n               ");
			fmt_evidence(sb, ev, false);
			strbuf_addch(sb, '\n');
		}
	}
}

/* The blind spots' test files and the always-run rules that close them. */
struct always_run {
	struct blind_file *files;
	size_t nr;
};

static void always_run_list(struct strbuf *sb, const struct always_run *ar, int64_t limit,
			    bool md)
{
	size_t shown = limit < 0 || (uint64_t)limit > ar->nr ? ar->nr : (size_t)limit;

	if (!ar->nr)
		return;
	strbuf_addf(sb, md ? "\n## Blind spots\n\n%zu test file%s with tests no narrowed "
			     "selection named; an always-run rule each (append it last to "
			     "the rules file):\n\n"
			   : "\nblind spots  %zu test file%s with tests no narrowed selection "
			     "named;\n             an always-run rule each (append it last "
			     "to the rules file):\n",
		    ar->nr, ar->nr == 1 ? "" : "s");
	for (size_t i = 0; i < shown; i++) {
		const struct blind_file *f = &ar->files[i];

		strbuf_addstr(sb, md ? "- " : "  ");
		add_safe(sb, f->rule, md);
		strbuf_addf(sb, "%s%" PRId64 " test%s, %" PRId64 " failed in full\n",
			    md ? ": " : "  ", f->tests, f->tests == 1 ? "" : "s", f->failed);
	}
	if (shown < ar->nr)
		strbuf_addf(sb, "%s... and %zu more (--limit N)\n", md ? "- " : "  ",
			    ar->nr - shown);
}

static void print_text(const struct proposals *p, const struct proposals_rules *r,
		       int64_t limit, const struct always_run *ar)
{
	struct strbuf sb = STRBUF_INIT;

	text_header(&sb, p, r);
	text_recommended(&sb, p);
	text_candidates(&sb, p, limit);
	text_changes(&sb, p, r, "\nescapes\n", p->escapes_list, p->nr_escapes);
	text_changes(&sb, p, r, "\nlatent misses (evidence, not escapes)\n", p->latent_list,
		     p->nr_latent);
	always_run_list(&sb, ar, limit, false);
	metrics_flush(&sb);
}

/* ---- markdown ---- */

/* The candidates' table (core/table.h): a glob's cost and what it closes. */
static const struct table_column glob_columns[] = {
	{ .key = "glob", .type = CELL_TEXT },
	{ .key = "closes", .type = CELL_COUNT },
	{ .key = "escapes", .type = CELL_TEXT },
	{ .key = "added force-full", .type = CELL_COUNT },
	{ .key = "added min", .type = CELL_MINUTES, .delta = true, .na = "n/a" },
	{ .key = "force-full after", .type = CELL_RATE, .na = "n/a" },
	{ .key = "p95 after", .type = CELL_SECONDS, .na = "n/a" },
};

static void glob_row(struct table *t, const struct proposals *p, const struct proposal *it)
{
	struct strbuf esc = STRBUF_INIT;

	proposals_name_evidence(&esc, p, it);
	table_row(t);
	table_str(t, it->glob);
	if (it->form == FORM_BUILTIN)
		table_note(t, "(suggested: built-in)");
	table_count(t, (int64_t)it->nr_closes);
	/* "PR 434, 688; latent PR 414": tiadash's words and numbers */
	table_word(t, esc.buf);
	table_count(t, it->forced);
	table_number(t, it->forced_minutes);
	table_number(t, it->force_full_rate_after);
	table_number(t, it->p95_after);
	strbuf_release(&esc);
}

/* The escapes, or the latent misses, a section each. */
static void md_changes(struct strbuf *sb, const struct proposals *p,
		       const struct proposals_rules *r, const char *title,
		       const struct proposal_escape *list, size_t nr)
{
	if (nr)
		strbuf_addstr(sb, title);
	for (size_t i = 0; i < nr; i++) {
		const struct proposal_escape *e = &list[i];

		strbuf_addstr(sb, "\n### ");
		fmt_escape_name(sb, e);
		strbuf_addf(sb, " (%.12s, %s)\n\n- state: ", e->sha, pair_class_name(e->cls));
		fmt_state(sb, p, e, true);
		strbuf_addch(sb, '\n');
		for (size_t j = 0; j < e->paths.nr; j++) {
			strbuf_addstr(sb, "- changed: ");
			md_escape(sb, e->paths.items[j]);
			strbuf_addstr(sb, " (");
			fmt_path_rule(sb, r, e->paths.items[j], true);
			strbuf_addstr(sb, ")\n");
		}
		for (size_t j = 0; j < e->nr_evidence; j++) {
			strbuf_addstr(sb, e->cls == CLASS_NON_HERMETIC ? "- failed: "
									: "- missed: ");
			md_escape(sb, e->evidence[j].test);
			strbuf_addstr(sb, "; ");
			fmt_evidence(sb, &e->evidence[j], true);
			strbuf_addch(sb, '\n');
		}
	}
}

static void print_md(const struct proposals *p, const struct proposals_rules *r,
		     int64_t limit, const struct always_run *ar)
{
	struct table rec = TABLE_INIT(glob_columns), cand = TABLE_INIT(glob_columns);
	struct strbuf sb = STRBUF_INIT;
	size_t shown = limit < 0 || (uint64_t)limit > p->nr ? p->nr : (size_t)limit;

	strbuf_addstr(&sb, "# Force-full proposals\n\n");
	fmt_window(&sb, p, true);
	strbuf_addf(&sb, "\n\n- escapes: %" PRId64 " unexplained: %" PRId64 " new, %" PRId64
		    " closed-by-rules, %" PRId64 " unclosable; %" PRId64 " explained\n",
		    p->escapes, p->closable, p->closed_by_rules, p->unclosable,
		    p->explained);
	if (p->nr_latent)
		strbuf_addf(&sb, "- latent misses: %zu (the gate held; the selector missed a "
			    "failing test): evidence, not escapes; %" PRId64 " a glob would "
			    "catch\n", p->nr_latent, p->latent_closable);
	strbuf_addf(&sb, "- history: %" PRId64 " changes with a shadow run, "
		    "force-full %" PRId64 " (", p->history_heads, p->force_full_before);
	metrics_fmt_pct(&sb, p->force_full_rate_before, 1);
	strbuf_addstr(&sb, "), shadow p95 ");
	metrics_fmt_secs(&sb, p->p95_before);
	strbuf_addstr(&sb, "\n\n## Recommended\n\n");
	if (!p->nr_recommended) {
		strbuf_addstr(&sb, "Nothing to close.\n");
	} else {
		strbuf_addf(&sb, "Together: closes %" PRId64 " of %" PRId64
			    " new escapes, %+" PRId64 " force-full runs, ",
			    p->rec_closes, p->closable, p->rec_forced);
		fmt_minutes(&sb, p->rec_forced_minutes);
		strbuf_addstr(&sb, " min, force-full ");
		metrics_fmt_pct(&sb, p->rec_force_full_rate_after, 1);
		strbuf_addstr(&sb, ", shadow p95 ");
		metrics_fmt_secs(&sb, p->rec_p95_after);
		strbuf_addstr(&sb, ".\n\n");
		for (size_t i = 0; i < p->nr_recommended; i++)
			glob_row(&rec, p, &p->items[p->recommended[i]]);
		table_write(&rec, FORMAT_MD, &sb);
	}
	strbuf_addf(&sb, "\n## Candidates (%zu of %zu)\n\n", shown, p->nr);
	for (size_t i = 0; i < shown; i++)
		glob_row(&cand, p, &p->items[i]);
	if (shown)
		table_write(&cand, FORMAT_MD, &sb);
	table_release(&rec);
	table_release(&cand);
	md_changes(&sb, p, r, "\n## Escapes\n", p->escapes_list, p->nr_escapes);
	md_changes(&sb, p, r, "\n## Latent misses (evidence, not escapes)\n", p->latent_list,
		   p->nr_latent);
	always_run_list(&sb, ar, limit, true);
	metrics_flush(&sb);
}

/* ---- JSON ---- */

/* KEY: the PRs of list[idx[0..nr)], KEY_heads: their heads. */
static void json_changes(cJSON *o, const char *key, const struct proposal_escape *list,
			 const size_t *idx, size_t nr)
{
	cJSON *prs = cJSON_CreateArray(), *heads = cJSON_CreateArray();
	char *hkey = xstrfmt("%s_heads", key);

	for (size_t i = 0; i < nr; i++) {
		const struct proposal_escape *e = &list[idx[i]];

		if (e->has_pr)
			cJSON_AddItemToArray(prs, cJSON_CreateNumber((double)e->pr));
		json_push_string(heads, e->sha);
	}
	cJSON_AddItemToObject(o, key, prs);
	cJSON_AddItemToObject(o, hkey, heads);
	free(hkey);
}

/* p NULL: no store, nothing closed. */
static void json_closes(cJSON *o, const struct proposals *p, const size_t *closes,
			size_t nr)
{
	json_changes(o, "closes", p ? p->escapes_list : NULL, closes, nr);
}

static cJSON *json_proposal(const struct proposals *p, const struct proposal *it)
{
	cJSON *o = cJSON_CreateObject();

	json_add_string(o, "glob", it->glob);
	json_add_string(o, "form", proposal_form_name(it->form));
	json_add_bool(o, "builtin", it->form == FORM_BUILTIN);
	json_closes(o, p, it->closes, it->nr_closes);
	json_changes(o, "catches_latent", p->latent_list, it->catches, it->nr_catches);
	json_add_int(o, "matched_changes", it->matched_heads);
	json_add_int(o, "extra_force_full", it->extra_force_full);
	json_add_int(o, "closes_other", it->closes_other);
	json_add_number(o, "extra_minutes", it->extra_minutes);
	json_add_int(o, "forced", it->forced);
	json_add_number(o, "forced_minutes", it->forced_minutes);
	json_add_number(o, "force_full_rate_after", it->force_full_rate_after);
	json_add_number(o, "p95_after", it->p95_after);
	json_add_bool(o, "recommended", it->recommended);
	return o;
}

static cJSON *json_escape(const struct proposals_rules *r, const struct proposal_escape *e)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *changed = cJSON_CreateArray(), *tests = cJSON_CreateArray();

	json_add_opt_int(o, "pr", e->has_pr, e->pr);
	json_add_string(o, "head", e->sha);
	json_add_time(o, "at", e->at);
	json_add_string(o, "class", pair_class_name(e->cls));
	json_add_string(o, "state", proposal_state_name(e->state));
	json_add_string_or_null(o, "why", e->state == PROPOSAL_CLOSABLE ? NULL : e->why);
	json_add_bool(o, "closed_by_recommended", e->closed_by_recommended);
	json_add_bool(o, "diff_known", e->diff_known);
	for (size_t i = 0; i < e->paths.nr; i++) {
		cJSON *c = cJSON_CreateObject();
		json_add_string(c, "path", e->paths.items[i]);
		ruleset_path_json(&r->set, e->paths.items[i], c);
		cJSON_AddItemToArray(changed, c);
	}
	cJSON_AddItemToObject(o, "changed", changed);
	cJSON_AddItemToObject(o, "unmatched", json_strlist(&e->unmatched));
	for (size_t i = 0; i < e->nr_evidence; i++) {
		const struct proposal_evidence *ev = &e->evidence[i];
		cJSON *t = cJSON_CreateObject();
		struct strbuf sb = STRBUF_INIT;

		json_add_string(t, "test", ev->test);
		json_add_string_or_null(t, "source", ev->source);
		json_add_string(t, "evidence", evidence_state_name(ev->state));
		if (ev->state == EVIDENCE_READ)
			cJSON_AddItemToObject(t, "mentions", json_strlist(&ev->mentions));
		else
			cJSON_AddNullToObject(t, "mentions");
		fmt_evidence(&sb, ev, false);
		json_add_string(t, "text", sb.buf);
		strbuf_release(&sb);
		cJSON_AddItemToArray(tests, t);
	}
	cJSON_AddItemToObject(o, e->cls == CLASS_NON_HERMETIC ? "failed" : "missed", tests);
	return o;
}

static void print_json(const struct proposals *p, const struct proposals_rules *r,
		       const struct always_run *ar)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *w = cJSON_CreateObject(), *h = cJSON_CreateObject();
	cJSON *items = cJSON_CreateArray(), *rec = cJSON_CreateArray();
	cJSON *rt = cJSON_CreateObject(), *unc = cJSON_CreateArray();
	cJSON *cbr = cJSON_CreateArray(), *ev = cJSON_CreateArray();

	json_add_time(w, "since", p->since);
	json_add_time(w, "until", p->until);
	json_add_string_or_null(w, "repo", *p->repo ? p->repo : NULL);
	cJSON_AddItemToObject(root, "window", w);
	json_add_int(root, "escapes", p->escapes);
	json_add_int(root, "explained", p->explained);
	json_add_int(root, "closable", p->closable);
	json_add_string_or_null(root, "rules_file", r->target);
	json_add_int(h, "changes", p->history_heads);
	json_add_int(h, "force_full", p->force_full_before);
	json_add_number(h, "force_full_rate", p->force_full_rate_before);
	json_add_number(h, "p95", p->p95_before);
	json_add_number(h, "median_shadow_s", p->median_shadow_s);
	json_add_number(h, "median_full_s", p->median_full_s);
	cJSON_AddItemToObject(root, "history", h);
	for (size_t i = 0; i < p->nr; i++)
		cJSON_AddItemToArray(items, json_proposal(p, &p->items[i]));
	cJSON_AddItemToObject(root, "proposals", items);
	for (size_t i = 0; i < p->nr_recommended; i++)
		json_push_string(rec, p->items[p->recommended[i]].glob);
	cJSON_AddItemToObject(root, "recommended", rec);
	json_add_int(rt, "closes", p->rec_closes);
	json_add_int(rt, "extra_force_full", p->rec_extra_force_full);
	json_add_int(rt, "closes_other", p->rec_closes_other);
	json_add_number(rt, "extra_minutes", p->rec_extra_minutes);
	json_add_int(rt, "forced", p->rec_forced);
	json_add_number(rt, "forced_minutes", p->rec_forced_minutes);
	json_add_number(rt, "force_full_rate_after", p->rec_force_full_rate_after);
	json_add_number(rt, "p95_after", p->rec_p95_after);
	cJSON_AddItemToObject(root, "recommended_totals", rt);
	for (size_t i = 0; i < p->nr_escapes; i++) {
		const struct proposal_escape *e = &p->escapes_list[i];
		cJSON *o;

		cJSON_AddItemToArray(ev, json_escape(r, e));
		if (e->state == PROPOSAL_CLOSABLE)
			continue;
		o = cJSON_CreateObject();
		json_add_opt_int(o, "pr", e->has_pr, e->pr);
		json_add_string(o, "head", e->sha);
		json_add_string(o, e->state == PROPOSAL_UNCLOSABLE ? "why" : "rule", e->why);
		if (e->state == PROPOSAL_CLOSED_BY_RULES)
			json_add_string_or_null(o, "source", e->rule_source);
		cJSON_AddItemToArray(e->state == PROPOSAL_UNCLOSABLE ? unc : cbr, o);
	}
	cJSON_AddItemToObject(root, "unclosable", unc);
	cJSON_AddItemToObject(root, "closed_by_rules", cbr);
	cJSON_AddItemToObject(root, "evidence", ev);
	json_add_int(root, "latent", (int64_t)p->nr_latent);
	json_add_int(root, "latent_closable", p->latent_closable);
	ev = cJSON_AddArrayToObject(root, "latent_misses");
	for (size_t i = 0; i < p->nr_latent; i++)
		cJSON_AddItemToArray(ev, json_escape(r, &p->latent_list[i]));
	{
		cJSON *arr = cJSON_AddArrayToObject(root, "always_run");

		for (size_t i = 0; i < ar->nr; i++) {
			cJSON *o = cJSON_CreateObject();

			json_add_string(o, "suite", ar->files[i].suite);
			json_add_int(o, "tests", ar->files[i].tests);
			json_add_int(o, "failed_in_full", ar->files[i].failed);
			json_add_string(o, "rule", ar->files[i].rule);
			cJSON_AddItemToArray(arr, o);
		}
	}
	json_print_free(root, stdout);
}

/* The window's blind spots as test files (metrics/blind.h). */
static int load_always_run(struct cmd_context *ctx, const struct idmap *map,
			   const struct window *w, struct always_run *ar)
{
	struct idset selected = IDSET_INIT;
	struct metrics_blind b = { 0 };
	struct blind_input in = BLIND_INPUT_INIT;
	int ret = blind_selected_union(ctx->store, map, w, &selected, &in);

	if (!ret)
		ret = blind_compute(ctx->store, w, &in, &selected, &b);
	if (!ret)
		blind_files(&b, &ar->files, &ar->nr);
	blind_release(&b);
	idset_release(&selected);
	blind_input_release(&in);
	return ret;
}

/* ---- --accept and --explain ---- */

/* p: the window's proposals, or NULL without a store (no history to score on). */
static int accept_glob(struct propose_args *a, struct proposals *p,
		       const struct proposals_rules *r, int64_t now)
{
	struct proposal_preview pv = PROPOSAL_PREVIEW_INIT;
	struct proposal_accept acc = PROPOSAL_ACCEPT_INIT;
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	int ret = -1;

	if (!r->target) {
		error("no rules file to append to: give --rules FILE, or run "
		      "inside the repository (its .tiadash/rules)");
		goto out;
	}
	if (!p ? adapter_check_glob(a->accept) < 0 :
	    proposals_preview(p, a->accept, &pv, &why) < 0) {
		if (p)
			error("bad glob '%s': %s", a->accept, why.buf);
		goto out;
	}
	if (proposals_accept(r->target, a->accept, p, pv.closes, pv.nr_closes, now, &acc) < 0)
		goto out;
	if (a->m.format == FORMAT_JSON) {
		cJSON *o = cJSON_CreateObject();

		json_add_string(o, "rules_file", acc.path);
		json_add_string(o, acc.whole ? "written" : "appended", acc.text.buf);
		json_add_bool(o, "created", acc.created);
		json_add_bool(o, "whole", acc.whole);
		json_add_string(o, "glob", a->accept);
		json_add_bool(o, "scored", p != NULL);
		json_closes(o, p, pv.closes, pv.nr_closes);
		json_changes(o, "catches_latent", p ? p->latent_list : NULL, pv.catches,
			     pv.nr_catches);
		if (p) {
			json_add_int(o, "matched_changes", (int64_t)pv.nr_changes);
			json_add_int(o, "extra_force_full", pv.extra_force_full);
			json_add_int(o, "closes_other", pv.closes_other);
			json_add_number(o, "extra_minutes", pv.extra_minutes);
			json_add_number(o, "force_full_rate_after", pv.force_full_rate_after);
			json_add_number(o, "p95_after", pv.p95_after);
		}
		json_print_free(o, stdout);
	} else {
		struct strbuf diff = STRBUF_INIT;
		const char *shown = acc.text.buf;

		if (acc.whole) {
			adapter_diff(&diff, acc.created ? "/dev/null" : acc.path, acc.before.buf,
				      acc.before.len, acc.path, acc.text.buf, acc.text.len);
			shown = diff.buf;
		}
		strbuf_addstr(&sb, acc.whole ? "wrote " : "appended to ");
		sanitize_text(&sb, acc.path, strlen(acc.path));
		strbuf_addstr(&sb, acc.created ? " (new file):\n" : ":\n");
		for (const char *l = shown; *l;) {
			size_t n = strcspn(l, "\n");

			sanitize_text(&sb, l, n);
			strbuf_addch(&sb, '\n');
			l += n + (l[n] == '\n');
		}
		strbuf_release(&diff);
		if (!p) {
			strbuf_addstr(&sb, "\nno store: not scored on any history\n");
			metrics_flush(&sb);
			ret = 0;
			goto out;
		}
		strbuf_addstr(&sb, "\nit closes ");
		proposals_name_escapes(&sb, p, pv.closes, pv.nr_closes);
		strbuf_addf(&sb, "; matches %zu changes, ", pv.nr_changes);
		proposals_preview_cost(&sb, &pv);
		strbuf_addstr(&sb, "; force-full ");
		metrics_fmt_pct(&sb, pv.force_full_rate_after, 1);
		strbuf_addstr(&sb, ", shadow p95 ");
		metrics_fmt_secs(&sb, pv.p95_after);
		strbuf_addch(&sb, '\n');
		metrics_flush(&sb);
	}
	ret = 0;
out:
	strbuf_release(&why);
	strbuf_release(&sb);
	proposal_preview_release(&pv);
	proposal_accept_release(&acc);
	return ret;
}

static int explain(struct cmd_context *ctx, const struct idmap *map,
		   const char *what, const char *text, enum output_format format)
{
	struct pair_info pair;
	struct pair_verdict v = { 0 };
	int64_t note_id = 0;
	int rc = query_pair_lookup(ctx->store, what, &pair);

	if (rc == 1)
		return error("no pair for '%s' in the store (give a PR number or "
			     "a commit)", what);
	if (rc < 0)
		return -1;
	rc = classify_pair(ctx->store, map, &pair, &v);
	if (!rc && !pair_class_is_escape(v.cls))
		rc = error("'%s' is not an escape (its class is %s): only escapes "
			   "are explained", what, pair_class_name(v.cls));
	if (!rc)
		rc = notes_add(ctx->store, pair.head_id, text, ctx->now, &note_id);
	if (!rc && format == FORMAT_JSON) {
		cJSON *o = cJSON_CreateObject();

		json_add_opt_int(o, "pr", pair.has_pr, pair.pr);
		json_add_string(o, "head", pair.sha);
		json_add_int(o, "note", note_id);
		json_add_string(o, "text", text);
		json_print_free(o, stdout);
	} else if (!rc) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "explained ");
		if (pair.has_pr)
			strbuf_addf(&sb, "PR %" PRId64, pair.pr);
		else
			strbuf_addstr(&sb, "push");
		strbuf_addf(&sb, " (head %.12s, note %" PRId64 "): ", pair.sha, note_id);
		sanitize_text(&sb, text, strlen(text));
		strbuf_addch(&sb, '\n');
		metrics_flush(&sb);
	}
	pair_verdict_release(&v);
	pair_info_release(&pair);
	return rc;
}

/* --preview GLOB...: the what-if of each glob, the batch twin of the dashboard's preview. */
static int preview_globs(struct propose_args *a, struct proposals *p)
{
	struct proposal_preview pv = PROPOSAL_PREVIEW_INIT;
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	cJSON *arr = cJSON_CreateArray();
	int ret = 0;

	for (size_t i = 0; i < a->previews.nr && !ret; i++) {
		const char *glob = a->previews.items[i];

		strbuf_reset(&why);
		if (proposals_preview(p, glob, &pv, &why) < 0) {
			ret = error("bad glob '%s': %s", glob, why.buf);
			break;
		}
		if (a->m.format == FORMAT_JSON) {
			cJSON *o = cJSON_CreateObject(), *ch = cJSON_CreateArray();

			json_add_string(o, "glob", glob);
			json_add_int(o, "matched_paths", pv.matched_paths);
			cJSON_AddItemToObject(o, "sample_paths", json_strlist(&pv.sample));
			for (size_t j = 0; j < pv.nr_changes; j++) {
				cJSON *c = cJSON_CreateObject();

				json_add_opt_int(c, "pr", pv.changes[j].has_pr, pv.changes[j].pr);
				json_add_bool(c, "forced", pv.changes[j].forced);
				json_add_bool(c, "closes", pv.changes[j].escape >= 0);
				cJSON_AddItemToArray(ch, c);
			}
			cJSON_AddItemToObject(o, "changes", ch);
			json_closes(o, p, pv.closes, pv.nr_closes);
			json_changes(o, "catches_latent", p->latent_list, pv.catches,
				     pv.nr_catches);
			json_add_int(o, "forced", pv.forced);
			json_add_number(o, "forced_minutes", pv.forced_minutes);
			json_add_int(o, "extra_force_full", pv.extra_force_full);
			json_add_int(o, "closes_other", pv.closes_other);
			json_add_number(o, "extra_minutes", pv.extra_minutes);
			json_add_number(o, "force_full_rate_after", pv.force_full_rate_after);
			json_add_number(o, "p95_after", pv.p95_after);
			cJSON_AddItemToArray(arr, o);
			continue;
		}
		strbuf_addstr(&sb, "preview  ");
		add_safe(&sb, glob, a->m.format == FORMAT_MD);
		strbuf_addf(&sb, "\n  matches  %" PRId64 " changed paths, %zu changes\n",
			    pv.matched_paths, pv.nr_changes);
		for (size_t j = 0; j < pv.sample.nr; j++) {
			strbuf_addstr(&sb, "           ");
			add_safe(&sb, pv.sample.items[j], a->m.format == FORMAT_MD);
			strbuf_addch(&sb, '\n');
		}
		if ((int64_t)pv.sample.nr < pv.matched_paths)
			strbuf_addf(&sb, "           ... (%" PRId64 " more)\n",
				    pv.matched_paths - (int64_t)pv.sample.nr);
		strbuf_addstr(&sb, "  closes   ");
		proposals_name_escapes(&sb, p, pv.closes, pv.nr_closes);
		strbuf_addstr(&sb, "\n  cost     ");
		proposals_preview_cost(&sb, &pv);
		strbuf_addstr(&sb, "\n  after    force-full ");
		metrics_fmt_pct(&sb, pv.force_full_rate_after, 1);
		strbuf_addstr(&sb, ", shadow p95 ");
		metrics_fmt_secs(&sb, pv.p95_after);
		strbuf_addch(&sb, '\n');
	}
	if (!ret && a->m.format == FORMAT_JSON)
		json_print_free(arr, stdout);
	else
		cJSON_Delete(arr);
	if (!ret)
		metrics_flush(&sb);
	strbuf_release(&sb);
	strbuf_release(&why);
	proposal_preview_release(&pv);
	return ret;
}

/* ---- --demote ---- */

/* The force-full rules in effect ranked by what they cost and catch (metrics/demote.h). */
static int demote(struct propose_args *a, struct cmd_context *ctx, struct repo *repo,
		  const struct config *cfg)
{
	struct ruleset set = RULESET_INIT;
	struct replay_selector_opts sel;
	struct demote_opts o = { a->m.window.since, a->m.window.until,
				 a->m.confidence, cfg->idmap, NULL };
	struct demote d = DEMOTE_INIT;
	int ret = -1;

	if (!repo)
		return error("--demote replays the repository's history: run it "
			     "inside the repository, or give the global --repo PATH");
	if (ruleset_resolve(&set, &a->rules, repo->root, 0) < 0)
		goto out;
	if (a->selector) {
		if (replay_selector_config(&sel, a->selector, a->selector_format, false,
					   false, repo, cfg) < 0)
			goto out;
		sel.setup = a->setup;
		sel.timeout_s = 60;
		sel.jobs = 1;
		o.selector = &sel;
	}
	if (demote_compute(repo, ctx->store, &set.effect, &o, &d) < 0)
		goto out;
	demote_print(&d, a->m.format, a->limit, ctx->now, stdout);
	ret = 0;
out:
	demote_release(&d);
	ruleset_release(&set);
	return ret;
}

/* ---- the command ---- */

static struct propose_args propose_args;

static int opt_limit(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	int64_t *limit = o->value;

	if (!strcmp(arg, "all"))
		*limit = -1;
	else if (!parse_int64(arg, limit) || *limit < 0)
		return usage_error(p->cmd, "--limit '%s': expected a count or 'all'", arg);
	return 0;
}

static const struct opt propose_opts[] = {
	OPT_METRICS_WINDOW(&propose_args.m),
	OPT_STRING_LIST(0, "rules", &propose_args.rules, "FILE", "a rule file or selector "
			"config in effect (repeatable; default: the selector configs found "
			"at the repository root, then .tiadash/rules); an accepted glob "
			"goes to the first"),
	OPT_BOOL(0, "no-builtin-rules", &propose_args.no_builtin, "offer no built-in "
		 "default as a candidate"),
	OPT_FORMAT_HELP(&propose_args.m.format, FORMAT_TEXT | FORMAT_MD | FORMAT_JSON |
			FORMAT_HTML, "text (default), md, json or html (one page with charts)"),
	OPT_OUTPUT(),
	OPT_CALLBACK(0, "limit", &propose_args.limit, "N|all", "candidates listed in "
		     "text, md and html (default 20)", opt_limit),
	OPT_STRING_LIST(0, "preview", &propose_args.previews, "GLOB", "what GLOB would "
			"match, close and cost (repeatable)"),
	OPT_STRING(0, "accept", &propose_args.accept, "GLOB", "append GLOB to the rules "
		   "file, with a comment naming the escapes it closes and the date"),
	OPT_STRING(0, "explain", &propose_args.explain, "PR", "mark the escape of PR "
		   "(or a commit) explained..."),
	OPT_STRING(0, "note", &propose_args.note, "TEXT", "...with this note (kept in "
		   "the store)"),
	OPT_BOOL(0, "demote", &propose_args.demote, "rank the force-full rules in effect "
		 "by the gate minutes they cost on HEAD's first-parent history in the "
		 "window, and what dropping each would have missed against its forced "
		 "changes' full runs"),
	OPT_STRING(0, "selector", &propose_args.selector, "NAME|CMD", "--demote: replay "
		   "this selector at the changes a rule forced (as replay --selector); "
		   "without it only a full run that passed counts (nothing missed), one "
		   "that failed is unknown"),
	OPT_CALLBACK(0, "selector-format", &propose_args.selector_format, "F",
		     "read CMD's answer as adapter F's", replay_opt_selector_format),
	OPT_STRING(0, "setup", &propose_args.setup, "CMD", "run once in each selector "
		   "worktree"),
	OPT_END(),
};

static int check_args(struct propose_args *a)
{
	if (!a->explain != !a->note)
		return usage_error(&cmd_propose, "--explain PR and --note TEXT go together");
	if (!!a->explain + !!a->accept + !!a->previews.nr + a->demote > 1)
		return usage_error(&cmd_propose, "--accept, --explain, --preview and "
				   "--demote are separate runs");
	if (!a->demote && (a->selector || a->selector_format || a->setup))
		return usage_error(&cmd_propose, "--selector, --selector-format and "
				   "--setup go with --demote");
	if (!a->selector && (a->selector_format || a->setup))
		return usage_error(&cmd_propose, "--selector-format and --setup need "
				   "--selector");
	return metrics_args_check(&a->m);
}

static int run_propose(int argc, char **argv, struct cmd_context *ctx)
{
	struct propose_args a;
	struct proposals_rules rules = PROPOSALS_RULES_INIT;
	struct proposals p = PROPOSALS_INIT;
	struct proposals_opts opts = PROPOSALS_OPTS_INIT;
	struct config cfg = CONFIG_INIT;
	struct always_run ar = { NULL, 0 };
	struct repo *repo;
	int ret, argi;

	propose_args = (struct propose_args){ .rules = STRLIST_INIT,
					      .previews = STRLIST_INIT,
					      .limit = DEFAULT_LIMIT };
	metrics_args_init(&propose_args.m, &cmd_propose,
			  FORMAT_TEXT | FORMAT_MD | FORMAT_JSON | FORMAT_HTML);
	ret = parse_options(argc, argv, &cmd_propose, ctx, &argi) ? EXIT_INPUT_ERROR : 0;
	a = propose_args;
	propose_args.rules = (struct strlist)STRLIST_INIT;
	propose_args.previews = (struct strlist)STRLIST_INIT;
	if (!ret && argi < argc)
		ret = usage_error(&cmd_propose, "unexpected argument '%s'", argv[argi]);
	if (!ret)
		ret = check_args(&a);
	if (ret)
		goto out;
	if (a.m.format == FORMAT_TEXT)
		text_fit_stdout();
	ret = EXIT_INPUT_ERROR;
	/* Accepting a glob writes a rules file: it needs no history. */
	if (!ctx->store && !a.accept &&
	    store_open(&ctx->store, ctx->db_path, STORE_EXISTING) < 0)
		goto out;
	if (rekey_config_load(&cfg, ctx) < 0)
		goto out;
	if (a.explain) {
		if (a.m.format == FORMAT_MD || a.m.format == FORMAT_HTML) {
			ret = usage_error(&cmd_propose, "--explain prints text or json");
			goto out;
		}
		if (!explain(ctx, cfg.idmap, a.explain, a.note, a.m.format))
			ret = EXIT_OKAY;
		goto out;
	}
	repo = cmd_repo(ctx);
	if (a.demote) {
		if (demote(&a, ctx, repo, &cfg) == 0)
			ret = EXIT_OKAY;
		goto out;
	}
	if (proposals_rules_load(&rules, &a.rules, repo ? repo->root : ctx->repo_path,
				 !a.no_builtin, a.accept != NULL) < 0)
		goto out;
	opts.idmap = cfg.idmap;
	if (ctx->store &&
	    proposals_compute(ctx->store, repo, &rules, &a.m.window, &opts, &p) < 0)
		goto out;
	if (a.previews.nr) {
		if (a.m.format == FORMAT_HTML) {
			ret = usage_error(&cmd_propose, "--preview prints text, md or json");
			goto out;
		}
		if (preview_globs(&a, &p) < 0)
			goto out;
	} else if (a.accept) {
		if (a.m.format == FORMAT_MD || a.m.format == FORMAT_HTML) {
			ret = usage_error(&cmd_propose, "--accept prints text or json");
			goto out;
		}
		if (accept_glob(&a, ctx->store ? &p : NULL, &rules, ctx->now) < 0)
			goto out;
	} else if (a.m.format == FORMAT_HTML) {
		propose_print_html(&p, &rules, repo ? repo->root : NULL, a.limit, ctx->now,
				   stdout);
	} else {
		if (load_always_run(ctx, cfg.idmap, &a.m.window, &ar) < 0)
			goto out;
		if (a.m.format == FORMAT_JSON)
			print_json(&p, &rules, &ar);
		else if (a.m.format == FORMAT_MD)
			print_md(&p, &rules, a.limit, &ar);
		else
			print_text(&p, &rules, a.limit, &ar);
	}
	ret = EXIT_OKAY;
out:
	blind_files_release(ar.files, ar.nr);
	proposals_release(&p);
	proposals_rules_release(&rules);
	config_release(&cfg);
	strlist_release(&a.rules);
	strlist_release(&a.previews);
	return ret;
}

const struct cmd cmd_propose = {
	.name = "propose",
	.fn = run_propose,
	.flags = NEED_DB_RO | DB_IF_EXISTS | WANT_REPO,
	.usage = "tiadash propose [--since WHEN] [--until WHEN] [--project NAME] "
		 "[--rules FILE]... [--no-builtin-rules] [--format text|md|json|html] [-o FILE] "
		 "[--limit N|all] [--preview GLOB]... [--accept GLOB] "
		 "[--explain PR --note TEXT] "
		 "[--demote [--selector NAME|CMD [--selector-format F] [--setup CMD]]]",
	.summary = "Propose force-full globs that close the window's escapes, scored on history.",
	.opts = propose_opts,
	.notes =
	"Candidates come from the changed paths of the window's unexplained\n"
	"escapes; each is scored on every stored change: the escapes it closes,\n"
	"the extra force-full runs and gate minutes it costs, and the force-full\n"
	"rate and shadow p95 wall-clock after. The evidence of each escape reads\n"
	"the missed tests' sources at the head commit (global --repo PATH).\n"
	"\n"
	"--demote: a rule saves, per change dropping it narrows, the gate time its\n"
	"head spent (shadow wall-clock, else full) minus the median narrowed\n"
	"shadow run (0 when nothing is selected); the miss rate's exact upper\n"
	"bound (95%) is over the evaluated changes. See tiadash(1).\n",
};

/* ---- the text forms the HTML page shows (metrics/html.h) ---- */

void propose_text_window(struct strbuf *sb, const struct proposals *p)
{
	fmt_window(sb, p, false);
}

void propose_text_escape_name(struct strbuf *sb, const struct proposal_escape *e)
{
	fmt_escape_name(sb, e);
}

void propose_text_state(struct strbuf *sb, const struct proposals *p,
			const struct proposal_escape *e)
{
	fmt_state(sb, p, e, false);
}

void propose_text_evidence(struct strbuf *sb, const struct proposal_evidence *ev)
{
	fmt_evidence(sb, ev, false);
}

void propose_text_path_rule(struct strbuf *sb, const struct proposals_rules *r,
			    const char *path)
{
	fmt_path_rule(sb, r, path, false);
}

void propose_text_minutes(struct strbuf *sb, double v)
{
	fmt_minutes(sb, v);
}
