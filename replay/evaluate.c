/* Each replayed change's decision (rules, selector, record), its misses, and the totals. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "core/strmap.h"
#include "replay/replay.h"
#include "core/glob.h"

#include <pthread.h>

static const char *const decision_names[] = {
	"run_all", "selected", "nothing", "rules-only",
};

const char *replay_decision_name(enum replay_decision d)
{
	return decision_names[d];
}

static void push_unique(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return;
	strlist_push(l, s);
}

static void outcome_release(struct replay_outcome *o)
{
	strlist_release(&o->reasons);
	strlist_release(&o->missed);
	strlist_release(&o->selection);
	strlist_release(&o->rule_tests);
	free(o->disagreement);
	memset(o, 0, sizeof(*o));
}

/* The trees a judged rule reads the change's bytes from, looked up once. */
struct change_trees {
	struct repo *repo;
	const struct replay_commit *c;
	bool looked;
	git_tree *before, *after;
};

/* The bytes of path on one side (NULL: absent there, or no repository). */
static const char *side_bytes(struct repo *repo, git_tree *t, const char *path,
			      struct strbuf *sb)
{
	return t && repo_tree_read_file(repo, t, path, sb) == 0 ? sb->buf : NULL;
}

/* A rule's action for one path of the change (a judged rule reads both sides). */
static enum rule_action path_action(struct change_trees *ct, const struct rule *x,
				    const char *path, const char **why)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *before, *after;
	enum rule_action act;

	if (!x->judge || !ct->repo) {
		*why = x->name;
		return x->action;
	}
	if (!ct->looked) {
		ct->looked = true;
		ct->after = repo_tree_at(ct->repo, ct->c->sha);
		ct->before = *ct->c->parent ? repo_tree_at(ct->repo, ct->c->parent) : NULL;
	}
	before = side_bytes(ct->repo, ct->before, path, &b);
	after = side_bytes(ct->repo, ct->after, path, &a);
	act = rules_judge(x, before, b.len, after, a.len, why);
	strbuf_release(&a);
	strbuf_release(&b);
	return act;
}

/*
 * The rules' verdict on one change: any run_all match runs everything,
 * every path ignored selects nothing, else the change is left to the
 * selector (or the record) with what select rules named. A judged rule
 * (core/rules.h) acts as its judge says for the change's bytes.
 */
static void rules_stage(const struct rules *r, struct repo *repo,
			struct glob_scratch *scratch, const struct replay_commit *c,
			struct replay_outcome *o)
{
	struct change_trees ct = { repo, c, false, NULL, NULL };
	struct strlist run_all = STRLIST_INIT, ignored = STRLIST_INIT;
	struct strlist selected = STRLIST_INIT;
	size_t nr_ignored = 0;

	memset(o, 0, sizeof(*o));
	if (c->fail != REPLAY_OK) {
		o->decision = REPLAY_RUN_ALL;
		strlist_push(&o->reasons, replay_fail_name(c->fail));
		return;
	}
	if (!c->paths.nr) {
		o->decision = REPLAY_NOTHING;
		o->has_selected = true;
		strlist_push(&o->reasons, "no-changes");
		return;
	}
	for (size_t i = 0; i < c->paths.nr; i++) {
		int m = rules_match_in(r, c->paths.items[i], scratch);
		const struct rule *x;
		const char *why;

		if (m == RULES_MATCH_ERROR) {
			push_unique(&run_all, "rules-error");
			continue;
		}
		if (m < 0)
			continue;
		x = &r->items[m];
		switch (path_action(&ct, x, c->paths.items[i], &why)) {
		case RULE_RUN_ALL:
			push_unique(&run_all, why);
			break;
		case RULE_IGNORE:
			push_unique(&ignored, why);
			nr_ignored++;
			break;
		case RULE_SELECT:
			push_unique(&selected, why);
			for (size_t t = 0; t < x->tests.nr; t++)
				push_unique(&o->rule_tests, x->tests.items[t]);
			break;
		}
	}
	if (run_all.nr) {
		o->decision = REPLAY_RUN_ALL;
		o->reasons = run_all;
		run_all = (struct strlist)STRLIST_INIT;
		strlist_release(&o->rule_tests);
	} else if (nr_ignored == c->paths.nr) {
		o->decision = REPLAY_NOTHING;
		o->has_selected = true;
		o->reasons = ignored;
		ignored = (struct strlist)STRLIST_INIT;
	} else {
		o->decision = REPLAY_RULES_ONLY;
		o->narrowed_by_rules = true;
		o->reasons = selected;
		selected = (struct strlist)STRLIST_INIT;
	}
	strlist_release(&run_all);
	strlist_release(&ignored);
	strlist_release(&selected);
	git_tree_free(ct.before);
	git_tree_free(ct.after);
}

/* The rules on changes [from, to), matching with the scratch given. */
struct rules_share {
	struct replay_run *run;
	struct repo *repo;
	size_t from, to;
	struct glob_scratch *scratch;
};

/* The built-in candidates for the paths no rule of the baseline matched. */
static void suggest(const struct replay_run *run, struct glob_scratch *scratch,
		    struct replay_change *ch)
{
	const struct replay_commit *c = ch->commit;

	for (size_t i = 0; run->builtin.nr && c->fail == REPLAY_OK && i < c->paths.nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		int m;

		if (rules_match_in(&run->baseline, c->paths.items[i], scratch) != -1 ||
		    (m = rules_match_in(&run->builtin, c->paths.items[i], scratch)) < 0)
			continue;
		rules_describe(&run->builtin.items[m], &sb);
		push_unique(&ch->suggested, sb.buf);
		strbuf_release(&sb);
	}
}

/* Would the built-ins force this change (its baseline not run in full)? */
bool replay_builtin_forces(const struct replay_change *ch)
{
	return ch->suggested.nr && ch->base.decision != REPLAY_RUN_ALL;
}

static void *apply_share(void *data)
{
	struct rules_share *sh = data;
	struct replay_run *run = sh->run;

	for (size_t i = sh->from; i < sh->to; i++) {
		struct replay_change *ch = &run->changes[i];

		ch->commit = &run->history.commits[i];
		rules_stage(&run->baseline, sh->repo, sh->scratch, ch->commit, &ch->base);
		suggest(run, sh->scratch, ch);
		if (run->has_proposal)
			rules_stage(&run->proposal, sh->repo, sh->scratch, ch->commit,
				    &ch->prop);
	}
	return NULL;
}

/*
 * With -j 2 or more, a second thread takes the older half of the changes: a
 * change's rules read only the rules and its own paths. Not with a judged
 * rule, which reads the change's files through the one repository.
 */
void replay_apply_rules(struct replay_run *run, struct repo *repo)
{
	struct rules_share mine = { run, repo, 0, 0, NULL }, other = mine;
	bool split;
	pthread_t t;

	run->nr = run->history.nr;
	run->changes = xcalloc(run->nr ? run->nr : 1, sizeof(*run->changes));
	split = run->threads > 1 && run->nr >= 256 && !rules_have_judge(&run->baseline) &&
		!(run->has_proposal && rules_have_judge(&run->proposal));
	mine.to = split ? run->nr / 2 : run->nr;
	if (split) {
		other.from = mine.to;
		other.to = run->nr;
		other.scratch = glob_scratch_new();
		if (pthread_create(&t, NULL, apply_share, &other)) {
			split = false;
			mine.to = run->nr;
		}
	}
	apply_share(&mine);
	if (split)
		pthread_join(t, NULL);
	glob_scratch_free(other.scratch);
}

static void report_selector_errors(const struct replay_run *run)
{
	size_t shown = 0, failed = 0;

	for (size_t i = 0; i < run->nr; i++) {
		const struct replay_selector_job *job = run->changes[i].job;

		if (!job || job->answer != ANSWER_ERROR)
			continue;
		if (++failed <= 3) {
			warning("selector failed on %.12s: %s (run_all, selector-error)",
				job->head, job->why);
			shown++;
		}
	}
	if (failed > shown)
		warning("selector failed on %zu more changes", failed - shown);
	shown = failed = 0;
	for (size_t i = 0; i < run->nr; i++) {
		const struct replay_selector_job *job = run->changes[i].job;

		if (job && job->not_reproducible && ++failed <= 3)
			warning("selector is not reproducible on %.12s: the same "
				"(selector, change) answered two ways (run_all, "
				"selector-not-reproducible)", job->head);
	}
	if (failed > 3)
		warning("selector is not reproducible on %zu more changes", failed - 3);
}

/*
 * A selector that never ran answers run_all at every change: a history
 * that reads as all force-full. Said last, under the report: the
 * commonest failure when it is most calls' (a warning); -1 after error()
 * when no call answered.
 */
int replay_selector_verdict(const struct replay_run *run)
{
	struct strmap ways = STRMAP_INIT; /* why -> how many calls */
	const char *most = NULL;
	size_t failed = 0, most_nr = 0;

	for (size_t i = 0; i < run->nr_jobs; i++) {
		const struct replay_selector_job *job = &run->jobs[i];
		struct strmap_entry *e;
		bool added;

		if (job->cached || job->answer != ANSWER_ERROR)
			continue;
		failed++;
		e = strmap_intern(&ways, job->why, strlen(job->why), 0, &added);
		if ((size_t)++e->value > most_nr) {
			most_nr = (size_t)e->value;
			most = job->why;
		}
	}
	strmap_clear(&ways);
	if (failed && failed == run->selector_calls)
		return error("the selector failed on every call (%zu)%s: %s", failed,
			     most_nr == failed ? "" : "; the commonest way", most);
	if (most_nr * 2 <= run->selector_calls)
		return 0;
	warning("the selector failed the same way on %zu of its %zu calls: %s",
		most_nr, run->selector_calls, most);
	return 0;
}

/* Sorted, without duplicates: entry lists as sets. */
static void as_set(const struct strlist *in, struct strlist *out)
{
	size_t k = 0;

	for (size_t i = 0; i < in->nr; i++)
		strlist_push(out, in->items[i]);
	strlist_sort(out);
	for (size_t i = 0; i < out->nr; i++) {
		if (k && !strcmp(out->items[i], out->items[k - 1])) {
			free(out->items[i]);
			continue;
		}
		out->items[k++] = out->items[i];
	}
	out->nr = k;
}

static bool same_entries(const struct strlist *a, const struct strlist *b)
{
	struct strlist x = STRLIST_INIT, y = STRLIST_INIT;
	bool same;

	as_set(a, &x);
	as_set(b, &y);
	same = x.nr == y.nr;
	for (size_t i = 0; same && i < x.nr; i++)
		same = !strcmp(x.items[i], y.items[i]);
	strlist_release(&x);
	strlist_release(&y);
	return same;
}

/* What the store says about a change's shadow run, loaded once when needed. */
struct recorded {
	bool loaded, judged;
	struct selection_entries entries; /* its selection, sorted, with the keys */
	struct idset selection;  /* the same, for matching */
	struct strmap failed;    /* SUITE::CASE keys that failed in it */
};

static int load_recorded(const struct replay_run *run, const struct replay_head *h,
			 struct recorded *rec)
{
	if (rec->loaded)
		return 0;
	rec->loaded = true;
	return replay_record_selection(&run->record, h, &rec->entries);
}

static void recorded_release(struct recorded *rec)
{
	selection_entries_release(&rec->entries);
	idset_release(&rec->selection);
	strmap_clear(&rec->failed);
}

/*
 * Non-hermetic (SPEC 4): the recorded shadow run selected the test and it
 * did not fail there, though it failed in the full run.
 */
static int non_hermetic(const struct replay_run *run, const struct replay_head *h,
			struct recorded *rec, const struct replay_failure *f,
			bool *out)
{
	struct strbuf id = STRBUF_INIT;

	*out = false;
	if (!h || !h->shadow_decision || !h->shadow_verdict)
		return 0;
	if (!rec->judged) {
		rec->judged = true;
		if (load_recorded(run, h, rec) < 0 ||
		    replay_record_shadow_failed(&run->record, h, &rec->failed) < 0)
			return -1;
		rec->selection.all = !strcmp(h->shadow_decision, "run_all");
		for (size_t i = 0; i < rec->entries.entries.nr; i++)
			idset_add_keyed(&rec->selection, run->record.idmap,
					rec->entries.entries.items[i], rec->entries.keys[i]);
	}
	if (!idset_selects(&rec->selection, f->suite, f->name))
		return 0;
	test_id_format(&id, f->suite, f->name);
	*out = !strmap_has(&rec->failed, id.buf);
	strbuf_release(&id);
	return 0;
}

/* A narrowed change's answer: the selector's, else the record's, else none. */
static int resolve(const struct replay_run *run, struct replay_change *ch,
		   struct replay_outcome *o, struct strlist *chosen,
		   struct recorded *rec)
{
	const struct replay_selector_job *job = ch->job;
	const struct replay_head *h = ch->head;

	if (job && job->not_reproducible) {
		/* Two answers for one (selector, change): neither is to be trusted. */
		o->decision = REPLAY_RUN_ALL;
		strlist_release(&o->reasons);
		strlist_push(&o->reasons, "selector-not-reproducible");
		return 0;
	}
	if (job) {
		switch (job->answer) {
		case ANSWER_TESTS:
		case ANSWER_NOTHING:
			/* The selector's lines are distinct already. */
			for (size_t i = 0; i < job->lines.nr; i++)
				strlist_push(chosen, job->lines.items[i]);
			for (size_t i = 0; i < o->rule_tests.nr; i++)
				push_unique(chosen, o->rule_tests.items[i]);
			o->decision = chosen->nr ? REPLAY_SELECTED : REPLAY_NOTHING;
			o->has_selected = true;
			o->selected = (int64_t)chosen->nr;
			break;
		case ANSWER_RUN_ALL:
			o->decision = REPLAY_RUN_ALL;
			strlist_release(&o->reasons);
			for (size_t i = 0; i < job->lines.nr; i++)
				push_unique(&o->reasons, job->lines.items[i]);
			if (!o->reasons.nr)
				strlist_push(&o->reasons, "selector:run_all");
			break;
		case ANSWER_ERROR:
			o->decision = REPLAY_RUN_ALL;
			strlist_release(&o->reasons);
			strlist_push(&o->reasons, "selector-error");
			break;
		}
		return 0;
	}
	if (h && h->shadow_decision) {
		strlist_release(&o->reasons);
		for (size_t i = 0; i < h->shadow_reasons.nr; i++)
			strlist_push(&o->reasons, h->shadow_reasons.items[i]);
		if (!strcmp(h->shadow_decision, "run_all")) {
			o->decision = REPLAY_RUN_ALL;
			return 0;
		}
		o->decision = strcmp(h->shadow_decision, "nothing") ?
			REPLAY_SELECTED : REPLAY_NOTHING;
		if (load_recorded(run, h, rec) < 0)
			return -1;
		for (size_t i = 0; i < rec->entries.entries.nr; i++)
			strlist_push(chosen, rec->entries.entries.items[i]);
		for (size_t i = 0; i < o->rule_tests.nr; i++)
			push_unique(chosen, o->rule_tests.items[i]);
		o->has_selected = h->has_selected || o->decision == REPLAY_NOTHING;
		o->selected = o->decision == REPLAY_NOTHING ? 0 : h->selected_count;
		return 0;
	}
	for (size_t i = 0; i < o->rule_tests.nr; i++)
		push_unique(chosen, o->rule_tests.items[i]);
	return 0;
}

static int decide(const struct replay_run *run, struct replay_change *ch,
		  struct replay_outcome *o, const struct replay_failure *fails,
		  size_t nr_fails, struct recorded *rec)
{
	struct strlist chosen = STRLIST_INIT;
	struct idset sel = IDSET_INIT;
	const struct replay_head *h = ch->head;
	struct strbuf id = STRBUF_INIT;
	bool caught = false;
	int ret = 0;

	if (o->narrowed_by_rules && resolve(run, ch, o, &chosen, rec) < 0) {
		strlist_release(&chosen);
		return -1;
	}
	sel.all = o->decision == REPLAY_RUN_ALL;
	for (size_t i = 0; i < chosen.nr; i++) {
		/* The record's entries are matched as the figures match them: by their keys. */
		const char *key = !ch->job && rec->loaded ?
				  selection_entry_key_of(&rec->entries, chosen.items[i]) : NULL;

		idset_add_keyed(&sel, run->record.idmap, chosen.items[i], key);
	}
	if (o->decision != REPLAY_RUN_ALL)
		as_set(&chosen, &o->selection);
	/*
	 * A gate that runs one of the failing tests fails and stops the
	 * change: it misses nothing (a non-hermetic test stops nothing).
	 * Otherwise the failing tests it does not run are missed.
	 */
	for (size_t i = 0; i < nr_fails && !caught; i++) {
		bool nonherm;

		if (!idset_selects(&sel, fails[i].suite, fails[i].name)) {
			strbuf_reset(&id);
			test_id_format(&id, fails[i].suite, fails[i].name);
			strlist_push(&o->missed, id.buf);
			continue;
		}
		if (non_hermetic(run, h, rec, &fails[i], &nonherm) < 0) {
			ret = -1;
			break;
		}
		caught = !nonherm;
	}
	if (caught)
		strlist_release(&o->missed);
	if (!ret && h && h->shadow_decision) {
		const char *mine = replay_decision_name(o->decision);

		o->compared = true;
		if (strcmp(mine, h->shadow_decision)) {
			o->disagrees = true;
			o->disagreement = xstrfmt("replayed %s, recorded %s", mine,
						  h->shadow_decision);
		} else if (o->decision == REPLAY_SELECTED && ch->job) {
			if (load_recorded(run, h, rec) < 0)
				ret = -1;
			else if (!same_entries(&chosen, &rec->entries.entries)) {
				o->disagrees = true;
				o->disagreement = xstrfmt("replayed selection of %zu "
							  "entries, recorded %zu",
							  chosen.nr, rec->entries.entries.nr);
			}
		}
	}
	strlist_release(&chosen);
	idset_release(&sel);
	strbuf_release(&id);
	return ret;
}

static void count_reason(struct replay_totals *t, const char *reason)
{
	for (size_t i = 0; i < t->reason_names.nr; i++) {
		if (!strcmp(t->reason_names.items[i], reason)) {
			t->reason_counts[i]++;
			return;
		}
	}
	strlist_push(&t->reason_names, reason);
	t->reason_counts = xrealloc(t->reason_counts,
				    t->reason_names.nr * sizeof(*t->reason_counts));
	t->reason_counts[t->reason_names.nr - 1] = 1;
}

static void add_to_totals(struct replay_totals *t, const struct replay_outcome *o)
{
	t->changes++;
	switch (o->decision) {
	case REPLAY_RUN_ALL:
		t->force_full++;
		t->runs_full++;
		for (size_t i = 0; i < o->reasons.nr; i++)
			count_reason(t, o->reasons.items[i]);
		break;
	case REPLAY_SELECTED:
		t->selected++;
		t->runs_narrowed++;
		break;
	case REPLAY_RULES_ONLY:
		t->rules_only++;
		t->runs_narrowed++;
		break;
	case REPLAY_NOTHING:
		t->nothing++;
		break;
	}
	t->misses += o->missed.nr;
	t->missed_changes += o->missed.nr > 0;
	t->recorded += o->compared;
	t->disagreements += o->disagrees;
	t->not_reproducible += o->reasons.nr && o->decision == REPLAY_RUN_ALL &&
			       !strcmp(o->reasons.items[0], "selector-not-reproducible");
}

/*
 * Minutes: every run_all change costs the median full-run wall-clock, every
 * narrowed one the median wall-clock of the store's narrowed shadow runs,
 * and a change that runs nothing costs nothing. NAN when a median that is
 * needed is not in the store.
 */
static void estimate(struct replay_totals *t, const struct replay_record *rec)
{
	double s = 0;

	if (t->runs_full) {
		if (isnan(rec->full_s)) {
			t->minutes = NAN;
			return;
		}
		s += (double)t->runs_full * rec->full_s;
	}
	if (t->runs_narrowed) {
		if (isnan(rec->narrowed_s)) {
			t->minutes = NAN;
			return;
		}
		s += (double)t->runs_narrowed * rec->narrowed_s;
	}
	t->minutes = s / 60;
}

int replay_finish(struct replay_run *run)
{
	size_t nr_jobs = 0;

	if (run->selector.cmd) {
		run->jobs = xcalloc(run->nr ? run->nr : 1, sizeof(*run->jobs));
		for (size_t i = 0; i < run->nr; i++) {
			struct replay_change *ch = &run->changes[i];

			if (!ch->base.narrowed_by_rules &&
			    !(run->has_proposal && ch->prop.narrowed_by_rules))
				continue;
			run->jobs[nr_jobs].base = ch->commit->parent;
			run->jobs[nr_jobs].head = ch->commit->sha;
			run->jobs[nr_jobs].paths = &ch->commit->paths;
			run->jobs[nr_jobs].tree = ch->commit->tree;
			run->jobs[nr_jobs].parent_tree = ch->commit->parent_tree;
			ch->job = &run->jobs[nr_jobs++];
		}
		run->nr_jobs = nr_jobs;
		if (replay_selector_run(&run->selector, run->jobs, nr_jobs) < 0)
			return -1;
		for (size_t i = 0; i < nr_jobs; i++) {
			run->selector_cached += run->jobs[i].cached;
			run->selector_calls += !run->jobs[i].cached;
		}
		report_selector_errors(run);
	}
	for (size_t i = 0; i < run->nr; i++) {
		struct replay_change *ch = &run->changes[i];
		const struct replay_commit *c = ch->commit;
		struct replay_failure *fails = NULL;
		struct recorded rec = { false, false, SELECTION_ENTRIES_INIT, IDSET_INIT, STRMAP_INIT };
		size_t nr_fails = 0;
		int ret;

		ch->head = replay_record_find(&run->record, c);
		ret = replay_record_failures(&run->record, ch->head, &fails, &nr_fails);
		if (!ret)
			ret = decide(run, ch, &ch->base, fails, nr_fails, &rec);
		if (!ret && run->has_proposal)
			ret = decide(run, ch, &ch->prop, fails, nr_fails, &rec);
		replay_failures_release(fails, nr_fails);
		recorded_release(&rec);
		if (ret < 0)
			return -1;
		add_to_totals(&run->tb, &ch->base);
		if (replay_builtin_forces(ch)) {
			run->builtin_forced++;
			run->builtin_misses_closed += ch->base.missed.nr;
			run->builtin_changes_closed += ch->base.missed.nr > 0;
		}
		if (run->has_proposal) {
			add_to_totals(&run->tp, &ch->prop);
			if (ch->base.missed.nr && !ch->prop.missed.nr)
				run->escapes_closed++;
			if (!ch->base.missed.nr && ch->prop.missed.nr)
				run->escapes_opened++;
			if (ch->prop.decision == REPLAY_RUN_ALL &&
			    ch->base.decision != REPLAY_RUN_ALL)
				run->extra_force_full++;
		}
	}
	estimate(&run->tb, &run->record);
	if (run->has_proposal)
		estimate(&run->tp, &run->record);
	return 0;
}

static void totals_release(struct replay_totals *t)
{
	strlist_release(&t->reason_names);
	free(t->reason_counts);
	memset(t, 0, sizeof(*t));
}

void replay_run_release(struct replay_run *run)
{
	for (size_t i = 0; i < run->nr; i++) {
		outcome_release(&run->changes[i].base);
		outcome_release(&run->changes[i].prop);
		strlist_release(&run->changes[i].suggested);
	}
	free(run->changes);
	for (size_t i = 0; i < run->nr_jobs; i++)
		replay_selector_job_release(&run->jobs[i]);
	free(run->jobs);
	totals_release(&run->tb);
	totals_release(&run->tp);
	rules_release(&run->baseline);
	rules_release(&run->proposal);
	rules_release(&run->builtin);
	strlist_release(&run->rule_files);
	replay_record_release(&run->record);
	replay_history_release(&run->history);
	run->changes = NULL;
	run->jobs = NULL;
	run->nr = run->nr_jobs = 0;
}
