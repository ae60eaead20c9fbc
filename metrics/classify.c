/* Pair classification: agree, escape, non-hermetic, flaky, over-strict, incomplete, inherited, unresolved; and runs of main. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "core/rekey.h"
#include "metrics/classify.h"

static const char *const class_names[NR_CLASSES] = {
	"agree", "escape", "non-hermetic", "flaky", "over-strict", "incomplete", "inherited",
	"unresolved", "main",
};

const char *pair_class_name(enum pair_class c)
{
	return class_names[c];
}

bool pair_class_is_escape(enum pair_class c)
{
	return c == CLASS_ESCAPE || c == CLASS_NON_HERMETIC;
}

void pair_verdict_release(struct pair_verdict *v)
{
	strlist_release(&v->missed);
	strlist_release(&v->non_hermetic);
	strlist_release(&v->not_run);
	strlist_release(&v->flaky);
	strlist_release(&v->quarantined);
	strlist_release(&v->inherited);
	strlist_release(&v->latent);
	strlist_release(&v->unresolved);
	run_info_free(v->answer);
	memset(v, 0, sizeof(*v));
}

double run_diff_coverage(const struct run_info *r)
{
	if (!r || !r->has_cov || r->cov_lines <= 0)
		return NAN;
	return (double)r->cov_hit / (double)r->cov_lines;
}

double run_affected_fraction(const struct run_info *r)
{
	if (!r)
		return NAN;
	switch (r->decision) {
	case DECISION_RUN_ALL:
		return 1.0;
	case DECISION_NOTHING:
		return 0.0;
	case DECISION_SELECTED:
		if (!r->has_total || !r->has_selected || r->total_tests <= 0)
			return NAN;
		return (double)r->selected_count / (double)r->total_tests;
	default:
		return NAN;
	}
}

static int quarantine_idset(struct store *s, const struct idmap *map,
			    const struct quarantine_index *q,
			    const struct pair_verdict *v, struct idset *out)
{
	const struct run_info *runs[2] = { v->shadow, v->full };

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		struct quarantine_list entries = QUARANTINE_LIST_INIT;
		int ret = 0;

		if (q)
			quarantine_index_get(q, runs[i]->id, &entries);
		else
			ret = query_quarantine(s, runs[i]->id, &entries);

		if (!ret)
			idset_add_quarantine(out, map, &entries);
		quarantine_list_release(&entries);
		if (ret)
			return -1;
	}
	return 0;
}

struct full_scan {
	struct store *s;
	const struct idmap *map;
	struct pair_verdict *v;
	struct idset *selected;
	const struct idset *quarantine;
	const struct strlist *red_on_main; /* sorted */
	bool any_real, any_unjoined, selection_read;
	/*
	 * The selection split by whether an entry named a test the shadow run
	 * reported (ran) or none (idle; only where its results told), read at
	 * the first selected failure of a passing shadow run.
	 */
	struct idset ran, idle;
	bool split_read, split_known;
	/*
	 * The tests the run ran that no entry names by id (sorted; listed:
	 * stored, schema 16): with the entries that ran, what tells whether
	 * a test a directory, file or class entry selected ran.
	 */
	struct strlist ran_broad, skipped_named;
	bool listed;
};

/* Whether the shadow run's selection names r; read at the first question. */
static int selects(struct full_scan *fs, const struct test_result *r, bool *out)
{
	if (!fs->selection_read) {
		fs->selection_read = true;
		if (selection_idset(fs->s, fs->map, fs->v->shadow, fs->selected) < 0)
			return -1;
	}
	*out = idset_selects(fs->selected, r->suite, r->name);
	return 0;
}

/* Does the id-map in force read any of l otherwise than as stored? */
static bool map_rewrites_any(const struct idmap *map, const struct strlist *l)
{
	bool any = false;

	for (size_t i = 0; map && i < l->nr && !any; i++) {
		char *mapped = idmap_apply(map, l->items[i]);

		any = strcmp(mapped, l->items[i]) != 0;
		free(mapped);
	}
	return any;
}

/*
 * Split the selection's entries by the stored unmatched ones (above), and
 * read the tests the run ran that no entry names by id. Without those,
 * when no entry selected any test the run reported and the id-map in
 * force rewrites entries, the names did not meet at ingest (a rule added
 * since joins them): the split tells nothing of what ran. With them it
 * does: nothing matched, so they are every test the run ran.
 */
static int read_split(struct full_scan *fs)
{
	struct strlist unmatched = STRLIST_INIT;
	struct selection_entries e = SELECTION_ENTRIES_INIT;
	int64_t id = fs->v->shadow->id;
	int ret;

	fs->split_read = true;
	ret = query_selection_unmatched(fs->s, id, &unmatched, &fs->split_known);
	if (!ret && fs->split_known)
		ret = query_selection_ran(fs->s, id, &fs->ran_broad, &fs->skipped_named,
					  &fs->listed);
	if (!ret && fs->split_known && (unmatched.nr || fs->listed))
		ret = query_selection_keyed(fs->s, id, &e);
	for (size_t i = 0; !ret && i < e.entries.nr; i++)
		idset_add_keyed(strlist_sorted_has(&unmatched, e.entries.items[i]) ?
				&fs->idle : &fs->ran, fs->map, e.entries.items[i], e.keys[i]);
	if (!ret && !fs->listed && e.entries.nr && !idset_size(&fs->ran) &&
	    map_rewrites_any(fs->map, &e.entries))
		fs->split_known = false;
	selection_entries_release(&e);
	strlist_release(&unmatched);
	return ret;
}

/*
 * A selected test the shadow run did not run. It ran when an entry that
 * matched names it by id (and the run did not only skip it), or when the
 * run's list of the tests no entry names by id has it; a directory entry that selected other tests it ran
 * says nothing of this one. A run stored without that list (before schema
 * 16): only entries that named none of its reported tests select it.
 * Without its results (or with every entry matched), it ran as far as
 * anything tells.
 */
static int not_run(struct full_scan *fs, const struct test_result *r, const char *id,
		   bool *out)
{
	*out = false;
	if (!fs->split_read && read_split(fs) < 0)
		return -1;
	if (fs->split_known && fs->listed)
		*out = !(idset_names_case(&fs->ran, r->suite, r->name) &&
			 !strlist_sorted_has(&fs->skipped_named, id)) &&
		       !strlist_sorted_has(&fs->ran_broad, id);
	else if (fs->split_known && idset_size(&fs->idle))
		*out = idset_selects(&fs->idle, r->suite, r->name) &&
		       !idset_selects(&fs->ran, r->suite, r->name);
	return 0;
}

/*
 * A failing test whose name the tree at the run's head (one the repository
 * has) does not tie to a test file, and that is no declared suite name:
 * whether a selection named it cannot be told. Without a repository names
 * compare as written (the identity figure says they are unresolved).
 */
static bool unjoined(const struct run_info *full, const struct test_result *r)
{
	return full->git == RUN_GIT_OK &&
	       (r->resolved == RESOLVED_NOT || r->resolved == RESOLVED_UNDECLARED);
}

/*
 * A real failure main did not have. Not selected and tied to no test
 * file: unjoined, in no list (the pair may be unresolved). Shadow passed:
 * missed, or selected and run (non-hermetic) or not run: the escape's
 * lists. Shadow failed: when not selected, a latent miss. Most pairs with
 * a failing full run have none of these, so the selection is read at the
 * first one.
 */
static int add_real(struct full_scan *fs, const struct test_result *r, const char *id)
{
	bool selected;

	fs->any_real = true;
	if (selects(fs, r, &selected) < 0)
		return -1;
	if (!selected && unjoined(fs->v->full, r)) {
		/* Not named as written, and nothing else ties it to a test. */
		fs->any_unjoined = true;
		return 0;
	}
	if (fs->v->shadow->verdict == VERDICT_PASS && selected) {
		bool idle;

		if (not_run(fs, r, id, &idle) < 0)
			return -1;
		strlist_push(idle ? &fs->v->not_run : &fs->v->non_hermetic, id);
	} else if (fs->v->shadow->verdict == VERDICT_PASS) {
		strlist_push(&fs->v->missed, id);
	} else if (!selected)
		strlist_push(&fs->v->latent, id);
	return 0;
}

static int scan_result(const struct test_result *r, void *data)
{
	struct full_scan *fs = data;
	struct strbuf id = STRBUF_INIT;
	int ret = 0;

	test_id_format(&id, r->suite, r->name);
	if (r->outcome != OUTCOME_FLAKY) {
		fs->v->failing++;
		fs->v->resolved += r->resolved == RESOLVED_PATH || r->resolved == RESOLVED_NAME;
		fs->v->by_name += r->resolved == RESOLVED_NAME;
		if (r->resolved != RESOLVED_PATH && r->resolved != RESOLVED_NAME)
			strlist_push(&fs->v->unresolved, id.buf);
	}
	if (r->outcome == OUTCOME_FLAKY) {
		strlist_push(&fs->v->flaky, id.buf);
	} else if (idset_selects(fs->quarantine, r->suite, r->name)) {
		strlist_push(&fs->v->quarantined, id.buf);
	} else if (strlist_sorted_has(fs->red_on_main, id.buf)) {
		strlist_push(&fs->v->inherited, id.buf);
	} else {
		ret = add_real(fs, r, id.buf);
	}
	strbuf_release(&id);
	return ret;
}

/* The shadow run as its pair answers it (core/answer.h), owned by v. */
static int read_answer(struct store *s, const struct idmap *map, struct pair_verdict *v)
{
	if (pair_answer(s, map, v->shadow, v->full, &v->answer) < 0)
		return -1;
	if (v->answer)
		v->shadow = v->answer;
	return 0;
}

/* The identity figure's entries that select no test, with the id-map in force. */
static int entries_unmatched(struct store *s, const struct idmap *map, struct pair_verdict *v)
{
	const struct run_info *sh = v->shadow;

	if (sh->decision != DECISION_SELECTED || !sh->has_unmatched)
		return 0;
	return selection_unmatched_now(s, map, sh->id, v->full->id, sh->entries_unmatched,
				       &v->entries_unmatched) < 0 ? -1 : 0;
}

static bool full_attempt_failed(const struct run_info *r, const struct run_info *latest)
{
	return r->kind == RUN_FULL && r->attempt < latest->attempt &&
	       (r->verdict == VERDICT_FAIL || r->failures > 0);
}

/* An earlier full attempt failed while the latest passed its tests: a flake. */
static bool earlier_full_failed(const struct pair_info *p, const struct run_info *latest)
{
	for (size_t i = 0; i < p->nr; i++)
		if (full_attempt_failed(&p->runs[i], latest))
			return true;
	return false;
}

/*
 * The shadow run failed, the full run passed, and the full run saw a flake:
 * is the flake what failed the shadow run? Yes when every test the shadow
 * run failed is one the full run showed flaky (passed on an in-run rerun,
 * or failed in an earlier full attempt of the head). A shadow failure the
 * flakes do not explain keeps the pair over-strict, so in-run reruns
 * (Surefire's flakyFailure) never hide one; without the shadow run's
 * failing tests nothing tells them apart, and the flake is the likelier.
 */
static int shadow_failed_on_flakes(struct store *s, const struct pair_info *p,
				   const struct pair_verdict *v, bool *out)
{
	struct strlist failed = STRLIST_INIT, flakes = STRLIST_INIT;
	int ret = query_run_failed_ids(s, v->shadow->id, &failed);

	for (size_t i = 0; i < v->flaky.nr; i++)
		strlist_push(&flakes, v->flaky.items[i]);
	for (size_t i = 0; !ret && i < p->nr; i++)
		if (full_attempt_failed(&p->runs[i], v->full))
			ret = query_run_failed_ids(s, p->runs[i].id, &flakes);
	strlist_sort(&flakes);
	*out = true;
	for (size_t i = 0; !ret && i < failed.nr; i++)
		if (!strlist_sorted_has(&flakes, failed.items[i]))
			*out = false;
	strlist_release(&failed);
	strlist_release(&flakes);
	return ret;
}

static const char *incomplete_reason(const struct pair_verdict *v)
{
	if (!v->shadow)
		return "no shadow run";
	if (!v->full)
		return "no full run";
	if (v->shadow->verdict == VERDICT_ERROR)
		return "the shadow run errored before a verdict";
	if (v->full->verdict == VERDICT_ERROR)
		return "the full run errored before a verdict";
	if (v->shadow->git == RUN_GIT_UNKNOWN || v->full->git == RUN_GIT_UNKNOWN)
		return "a commit is not in the repository (git-unknown)";
	return NULL;
}

/* Shadow failed, full passed after a flake: flaky or over-strict (above). */
static int decide_shadow_failure(struct store *s, const struct pair_info *p,
				 struct pair_verdict *v)
{
	bool flakes;

	if (shadow_failed_on_flakes(s, p, v, &flakes) < 0)
		return -1;
	v->cls = flakes ? CLASS_FLAKY : CLASS_OVER_STRICT;
	return 0;
}

/*
 * The class from the lists scan_result filled. Flaky means a flake decided
 * the verdicts: a full attempt that failed before a rerun of the head
 * passed, or a shadow failure that only flakes explain. Tests that passed
 * on an in-run rerun while both gates passed leave the pair agree (they
 * are counted as flaky tests all the same).
 */
static int decide(struct store *s, const struct pair_info *p, struct pair_verdict *v,
		  bool any_real, bool any_unjoined)
{
	bool rerun = earlier_full_failed(p, v->full), flake = rerun || v->flaky.nr;

	if (!any_real && v->inherited.nr)
		v->cls = CLASS_INHERITED;
	else if (v->shadow->verdict == VERDICT_PASS && any_real)
		v->cls = v->missed.nr || v->not_run.nr ? CLASS_ESCAPE :
			 any_unjoined ? CLASS_UNRESOLVED : CLASS_NON_HERMETIC;
	else if (v->shadow->verdict == VERDICT_PASS)
		v->cls = rerun ? CLASS_FLAKY : CLASS_AGREE;
	else if (v->full->verdict == VERDICT_PASS && flake)
		return decide_shadow_failure(s, p, v);
	else
		v->cls = v->full->verdict == VERDICT_PASS ? CLASS_OVER_STRICT : CLASS_AGREE;
	return 0;
}

int classify_pair(struct store *s, const struct idmap *map,
		  const struct pair_info *p, struct pair_verdict *out)
{
	return classify_pair_with(s, map, NULL, p, out);
}

/* A head whose only runs are full runs without a PR, on main's line: a run of main. */
static int is_main_run(struct store *s, const struct pair_info *p)
{
	int64_t seq;

	for (size_t i = 0; i < p->nr; i++)
		if (p->runs[i].kind != RUN_FULL || p->runs[i].has_pr)
			return 0;
	return p->nr ? query_mainline_seq(s, p->repo, p->sha, &seq) : 0;
}

/* The run of main that covers v, and the tests red there (sorted) into red. */
static int read_main_cover(struct store *s, const struct pair_info *p, struct pair_verdict *v,
			   struct strlist *red)
{
	int64_t diff_id = v->full->diff_id ? v->full->diff_id : v->shadow->diff_id;

	if (query_main_cover(s, p->repo, diff_id, p->head_id, &v->cover) < 0)
		return -1;
	return v->cover.run_id ? query_run_failed_ids(s, v->cover.run_id, red) : 0;
}

int classify_pair_with(struct store *s, const struct idmap *map,
		       const struct quarantine_index *q, const struct pair_info *p,
		       struct pair_verdict *out)
{
	struct idset selected = IDSET_INIT, quarantine = IDSET_INIT;
	struct strlist red = STRLIST_INIT;
	struct full_scan fs = { s, map, out, &selected, &quarantine, &red, false, false, false,
				IDSET_INIT, IDSET_INIT, false, false, STRLIST_INIT, STRLIST_INIT,
				false };
	int ret;

	memset(out, 0, sizeof(*out));
	out->entries_unmatched = -1;
	out->shadow = pair_latest(p, RUN_SHADOW);
	out->full = pair_latest(p, RUN_FULL);
	ret = out->shadow ? 0 : is_main_run(s, p);
	if (ret) {
		out->cls = CLASS_MAIN;
		return ret < 0 ? -1 : 0;
	}
	out->why = incomplete_reason(out);
	if (out->why) {
		out->cls = CLASS_INCOMPLETE;
		return 0;
	}
	if (read_answer(s, map, out) < 0 || entries_unmatched(s, map, out) < 0)
		return -1;
	/* Most pairs have a clean full run: no need to read any list. */
	if (out->full->failures == 0 && out->full->flaky == 0)
		return decide(s, p, out, false, false);
	ret = quarantine_idset(s, map, q, out, &quarantine);
	if (!ret && out->full->failures)
		ret = read_main_cover(s, p, out, &red);
	if (!ret)
		ret = query_run_results_unordered(s, out->full->id, scan_result, &fs);
	if (!ret)
		ret = decide(s, p, out, fs.any_real, fs.any_unjoined);
	if (!pair_class_is_escape(out->cls)) {
		/* Missed tests are an escape's (SPEC 4): when both runs failed
		 * the shadow gate caught the change, whatever it left out. */
		strlist_release(&out->missed);
		strlist_release(&out->non_hermetic);
		strlist_release(&out->not_run);
	}
	if (out->cls != CLASS_AGREE)
		strlist_release(&out->latent);
	strlist_sort(&out->missed);
	strlist_sort(&out->non_hermetic);
	strlist_sort(&out->not_run);
	strlist_sort(&out->flaky);
	strlist_sort(&out->quarantined);
	strlist_sort(&out->inherited);
	strlist_sort(&out->latent);
	idset_release(&selected);
	idset_release(&quarantine);
	idset_release(&fs.ran);
	idset_release(&fs.idle);
	strlist_release(&fs.ran_broad);
	strlist_release(&fs.skipped_named);
	strlist_release(&red);
	return ret;
}

/* ---- why a missed test was not selected ---- */

/* How many leading path components a and b share. */
static size_t shared_dirs(const char *a, const char *b)
{
	size_t n = 0;

	for (size_t i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			n++;
	return n;
}

struct missed_scan {
	struct strmap resolved; /* SUITE::CASE -> enum resolved */
};

static int note_resolved(const struct test_result *r, void *data)
{
	struct missed_scan *ms = data;
	struct strbuf id = STRBUF_INIT;

	test_id_format(&id, r->suite, r->name);
	strmap_put(&ms->resolved, id.buf, id.len, r->resolved);
	strbuf_release(&id);
	return 0;
}

/* One missed test's sentence. */
static void why_one(struct strbuf *sb, const struct strlist *entries, const char *id,
		    enum resolved resolved)
{
	char *suite, *name;
	const char *nearest = NULL;
	size_t best = 0, same_file = 0;

	test_id_split(id, &suite, &name);
	if (resolved == RESOLVED_UNKNOWN) {
		strbuf_addf(sb, "stored before tiadash resolved suite keys: ingest the run "
			    "again with --replace");
	} else if (resolved == RESOLVED_NOT) {
		strbuf_addf(sb, "its suite key names no path of the tree at the head "
			    "(identity in tiadash report)");
	} else if (resolved == RESOLVED_UNDECLARED) {
		strbuf_addf(sb, "its suite key is a word no selection uses and no test file "
			    "is named by (identity in tiadash report)");
	} else if (!entries->nr) {
		strbuf_addstr(sb, "the selection names no tests");
	} else {
		for (size_t i = 0; i < entries->nr; i++) {
			const char *e = entries->items[i];
			size_t n = strlen(suite), d;

			if (!strncmp(e, suite, n) && e[n] == ':')
				same_file++;
			d = shared_dirs(e, suite);
			if (d > best) {
				best = d;
				nearest = e;
			}
		}
		if (same_file)
			strbuf_addf(sb, "%zu %s other cases of its file", same_file,
				    same_file == 1 ? "entry names" : "entries name");
		else if (nearest)
			strbuf_addf(sb, "no entry names it or its directories; nearest: %s",
				    nearest);
		else
			strbuf_addf(sb, "none of the %zu entries shares a directory with it",
				    entries->nr);
	}
	free(suite);
	free(name);
}

int explain_missed(struct store *s, const struct idmap *map, const struct pair_verdict *v,
		   struct strlist *why)
{
	struct missed_scan ms = { STRMAP_INIT };
	struct selection_entries raw = SELECTION_ENTRIES_INIT;
	struct strlist entries = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (!v->missed.nr)
		return 0;
	if (v->shadow->decision == DECISION_SELECTED)
		ret = query_selection_keyed(s, v->shadow->id, &raw);
	if (!ret)
		ret = query_run_results(s, v->full->id, note_resolved, &ms);
	for (size_t i = 0; i < raw.entries.nr; i++) {
		const char *entry = raw.entries.items[i];
		char *matched = selection_entry_rewritten(map, entry, raw.keys[i]);

		strlist_push_owned(&entries, matched ? matched : xstrdup(entry));
	}
	strlist_sort(&entries);
	for (size_t i = 0; !ret && i < v->missed.nr; i++) {
		int64_t r = RESOLVED_UNKNOWN;

		strmap_get(&ms.resolved, v->missed.items[i], &r);
		strbuf_reset(&sb);
		why_one(&sb, &entries, v->missed.items[i], (enum resolved)r);
		strlist_push(why, sb.buf);
	}
	strbuf_release(&sb);
	selection_entries_release(&raw);
	strlist_release(&entries);
	strmap_clear(&ms.resolved);
	return ret;
}
