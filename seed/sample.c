/* The seeded choices: which changes of the window, their impact sets (replay's rules and selector), and the files outside them. */
#include "core/tiadash.h"
#include "core/strmap.h"
#include "seed/seed.h"

/* ---- the random streams ---- */

uint64_t seed_rng_next(struct seed_rng *r)
{
	uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * FNV-1a of the salt: fixed here, not core/strmap.h's strhash, which may
 * change for speed (and reads words in the machine's byte order), while
 * a --seed must draw the same choices on every build and machine.
 */
static uint64_t salt_hash(const char *salt)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (const unsigned char *p = (const unsigned char *)salt; *p; p++) {
		h ^= *p;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

void seed_rng_init(struct seed_rng *r, uint64_t seed, const char *salt)
{
	r->state = seed ^ salt_hash(salt);
	seed_rng_next(r);
}

size_t seed_rng_below(struct seed_rng *r, size_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = seed_rng_next(r);
	while (x >= limit);
	return (size_t)(x % n);
}

void seed_shuffle(size_t *idx, size_t n, struct seed_rng *r)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = seed_rng_below(r, i), t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

/* ---- the sampled changes ---- */

static void change_release(struct seed_change *c)
{
	strlist_release(&c->subset);
	strlist_release(&c->reasons);
	strlist_release(&c->files);
	strlist_release(&c->no_site);
	free(c->done);
	free(c->skipped);
	run_coverage_release(&c->cov);
}

void seed_sample_release(struct seed_sample *s)
{
	for (size_t i = 0; i < s->nr; i++)
		change_release(&s->changes[i]);
	free(s->changes);
	replay_run_release(&s->run);
	memset(s, 0, sizeof(*s));
}

static struct seed_change *add_change(struct seed_sample *s, const struct replay_change *rc)
{
	struct seed_change *c;

	ALLOC_GROW(s->changes, s->nr + 1, s->alloc);
	c = &s->changes[s->nr];
	memset(c, 0, sizeof(*c));
	c->commit = rc->commit;
	c->pos = s->nr++;
	c->subset_s = c->full_s = NAN;
	return c;
}

static void push_unique(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return;
	strlist_push(l, s);
}

static void skip_run_all(struct seed_change *c, const struct strlist *reasons)
{
	struct strbuf sb = STRBUF_INIT;

	c->decision = "run_all";
	for (size_t i = 0; i < reasons->nr; i++) {
		strlist_push(&c->reasons, reasons->items[i]);
		strbuf_addf(&sb, "%s%s", i ? ", " : "", reasons->items[i]);
	}
	c->skipped = xstrfmt("%s: no file is outside the impact set",
			     sb.len ? sb.buf : "the selector runs everything");
	strbuf_release(&sb);
}

/* The subset of a narrowed change: the selector's entries, then what select rules named. */
static void take_answer(struct seed_change *c, const struct replay_outcome *o,
			const struct replay_selector_job *job)
{
	switch (job ? job->answer : ANSWER_NOTHING) {
	case ANSWER_TESTS:
	case ANSWER_NOTHING:
		for (size_t i = 0; job && i < job->lines.nr; i++)
			push_unique(&c->subset, job->lines.items[i]);
		for (size_t i = 0; i < o->rule_tests.nr; i++)
			push_unique(&c->subset, o->rule_tests.items[i]);
		c->decision = c->subset.nr ? "selected" : "nothing";
		break;
	case ANSWER_RUN_ALL:
		skip_run_all(c, &job->lines);
		break;
	case ANSWER_ERROR:
		c->decision = "error";
		strlist_push(&c->reasons, job->why ? job->why : "selector-error");
		c->skipped = xstrfmt("the selector failed: %s", job->why ? job->why : "no answer");
		break;
	}
}

/* Sample the changes of idx[from..to): the rules first, then the selector for the narrowed ones. */
static int sample_batch(struct seed_sample *s, const struct seed_sample_opts *o,
			const size_t *idx, size_t from, size_t to, size_t *usable)
{
	const struct replay_run *run = &s->run;
	struct replay_selector_job *jobs = xcalloc(to - from + 1, sizeof(*jobs));
	size_t *owner = xcalloc(to - from + 1, sizeof(*owner)), nr_jobs = 0, first = s->nr;
	bool selector = o->selector && o->selector->cmd;
	int ret = 0;

	for (size_t k = from; k < to; k++) {
		const struct replay_change *rc = &run->changes[idx[k]];
		struct seed_change *c = add_change(s, rc);

		if (rc->base.decision == REPLAY_RUN_ALL) {
			skip_run_all(c, &rc->base.reasons);
		} else if (rc->base.decision == REPLAY_NOTHING) {
			c->decision = "nothing";
		} else if (selector) {
			jobs[nr_jobs].base = rc->commit->parent;
			jobs[nr_jobs].head = rc->commit->sha;
			jobs[nr_jobs].paths = &rc->commit->paths;
			jobs[nr_jobs].tree = rc->commit->tree;
			jobs[nr_jobs].parent_tree = rc->commit->parent_tree;
			owner[nr_jobs++] = c->pos;
		} else {
			take_answer(c, &rc->base, NULL);
		}
	}
	if (nr_jobs && replay_selector_run(o->selector, jobs, nr_jobs) < 0)
		ret = -1;
	for (size_t j = 0; !ret && j < nr_jobs; j++) {
		struct seed_change *c = &s->changes[owner[j]];
		const struct replay_change *rc = &run->changes[idx[from + (owner[j] - first)]];

		s->selector_calls += !jobs[j].cached;
		take_answer(c, &rc->base, &jobs[j]);
	}
	for (size_t i = first; i < s->nr; i++)
		*usable += !s->changes[i].skipped;
	for (size_t j = 0; j < nr_jobs; j++)
		replay_selector_job_release(&jobs[j]);
	free(jobs);
	free(owner);
	return ret;
}

int seed_sample_changes(struct seed_sample *s, const struct seed_sample_opts *o)
{
	const struct replay_run *run = &s->run;
	size_t *idx = xcalloc(run->nr + 1, sizeof(*idx)), n = 0, k = 0, usable = 0;
	struct seed_rng rng;
	int ret = 0;

	for (size_t i = 0; i < run->nr; i++) {
		const struct replay_commit *c = run->changes[i].commit;

		if (c->fail == REPLAY_OK && c->paths.nr)
			idx[n++] = i;
	}
	s->eligible = n;
	seed_rng_init(&rng, o->seed, "changes");
	seed_shuffle(idx, n, &rng);
	/* A skipped change makes room for the next one of the seeded order. */
	while (!ret && usable < o->changes && k < n) {
		size_t to = k + (o->changes - usable);

		ret = sample_batch(s, o, idx, k, to < n ? to : n, &usable);
		k = to < n ? to : n;
	}
	free(idx);
	return ret;
}

/* ---- the files outside ---- */

#define MAX_MUTATED_FILE (1u << 20)

struct tree_walk {
	struct repo *repo;
	const struct rules *rules;
	struct seed_change *c;
	struct strmap changed;
	git_odb *odb;
	struct strlist *out;
};

static bool named_by_subset(const struct seed_change *c, const char *path)
{
	struct strlist one = { (char *[]){ (char *)path }, 1, 1 };

	return seed_entries_overlap(&c->subset, &one);
}

/* Why path is not a file to mutate (SEED_NR_PASS: it is one). */
static enum seed_pass passed_over(struct tree_walk *w, const char *path,
				  const git_tree_entry *e)
{
	int m = rules_match(w->rules, path);
	size_t size = 0;
	git_object_t type;

	if (seed_lang_of(path) == LANG_NONE)
		return SEED_PASS_LANG;
	if (seed_is_test_path(path))
		return SEED_PASS_TEST;
	if (strmap_has(&w->changed, path))
		return SEED_PASS_CHANGED;
	if (named_by_subset(w->c, path))
		return SEED_PASS_SUBSET;
	if (m == RULES_MATCH_ERROR || (m >= 0 && w->rules->items[m].action == RULE_RUN_ALL))
		return SEED_PASS_RULE;
	if (git_odb_read_header(&size, &type, w->odb, git_tree_entry_id(e)) < 0 ||
	    size > MAX_MUTATED_FILE)
		return SEED_PASS_BIG;
	return SEED_NR_PASS;
}

static int on_entry(const char *root, const git_tree_entry *e, void *data)
{
	struct tree_walk *w = data;
	git_filemode_t mode = git_tree_entry_filemode(e);
	enum seed_pass why;
	char *path;

	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE)
		return 0; /* trees are walked; links and submodules are never written */
	path = xstrfmt("%s%s", root, git_tree_entry_name(e));
	why = passed_over(w, path, e);
	if (why == SEED_NR_PASS)
		strlist_push(w->out, path);
	else
		w->c->passed[why]++;
	free(path);
	return 0;
}

int seed_outside_files(struct repo *repo, const struct rules *rules,
		       struct seed_change *c, uint64_t seed)
{
	struct tree_walk w = { repo, rules, c, STRMAP_INIT, NULL, &c->files };
	git_tree *tree = repo_tree_at(repo, c->commit->sha);
	struct seed_rng rng;
	size_t *idx;
	struct strlist sorted = STRLIST_INIT;

	if (!tree || git_repository_odb(&w.odb, repo->git) < 0) {
		git_tree_free(tree);
		return error("cannot read the tree of %.12s", c->commit->sha);
	}
	for (size_t i = 0; i < c->commit->paths.nr; i++)
		strmap_put(&w.changed, c->commit->paths.items[i],
			   strlen(c->commit->paths.items[i]), 1);
	strlist_release(&c->files);
	memset(c->passed, 0, sizeof(c->passed));
	git_tree_walk(tree, GIT_TREEWALK_PRE, on_entry, &w);
	git_tree_free(tree);
	git_odb_free(w.odb);
	strmap_clear(&w.changed);
	strlist_sort(&c->files);
	idx = xcalloc(c->files.nr + 1, sizeof(*idx));
	for (size_t i = 0; i < c->files.nr; i++)
		idx[i] = i;
	seed_rng_init(&rng, seed, c->commit->sha);
	seed_shuffle(idx, c->files.nr, &rng);
	for (size_t i = 0; i < c->files.nr; i++)
		strlist_push(&sorted, c->files.items[idx[i]]);
	strlist_release(&c->files);
	c->files = sorted;
	c->next_file = 0;
	c->round = 0;
	c->placed = false;
	free(c->done);
	c->done = xcalloc(c->files.nr + 1, sizeof(*c->done));
	free(idx);
	return 0;
}

/* ---- do two answers meet ---- */

/* Does the shorter entry name the longer one: equal, or its directory, or its file (at "::")? */
static bool names(const char *shorter, const char *longer)
{
	size_t n = strlen(shorter);

	while (n && shorter[n - 1] == '/')
		n--; /* "tests/" is the directory tests */
	if (!n || strncmp(shorter, longer, n))
		return false;
	return !longer[n] || longer[n] == '/' || !strncmp(longer + n, "::", 2);
}

static bool entry_meets(const char *a, const char *b)
{
	return strlen(a) <= strlen(b) ? names(a, b) : names(b, a);
}

bool seed_entries_overlap(const struct strlist *subset, const struct strlist *answer)
{
	for (size_t i = 0; i < answer->nr; i++)
		for (size_t j = 0; j < subset->nr; j++)
			if (entry_meets(answer->items[i], subset->items[j]))
				return true;
	return false;
}

/* ---- why a change has no mutant ---- */

static void add_count(struct strbuf *sb, bool *first, int64_t n, const char *one,
		      const char *many)
{
	if (!n)
		return;
	strbuf_addf(sb, "%s%" PRId64 " %s", *first ? "" : ", ", n, n == 1 ? one : many);
	*first = false;
}

static void add_no_site(struct strbuf *sb, bool *first, const struct seed_change *c)
{
	int64_t n = c->passed[SEED_PASS_NO_SITE];

	if (!n)
		return;
	add_count(sb, first, n, "matched no operator", "matched no operator");
	strbuf_addstr(sb, " (");
	for (size_t i = 0; i < c->no_site.nr; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", c->no_site.items[i]);
	if ((int64_t)c->no_site.nr < n)
		strbuf_addf(sb, ", %" PRId64 " more", n - (int64_t)c->no_site.nr);
	strbuf_addch(sb, ')');
}

char *seed_no_mutant_reason(const struct seed_change *c)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t tree = (int64_t)c->files.nr;
	bool first = true;

	for (int k = SEED_PASS_LANG; k <= SEED_PASS_BIG; k++)
		tree += c->passed[k];
	if (!c->files.nr) {
		strbuf_addf(&sb, "no source file outside the impact set (of %" PRId64 " %s: ",
			    tree, tree == 1 ? "file" : "files");
		if (!tree)
			strbuf_addstr(&sb, "none");
		add_count(&sb, &first, c->passed[SEED_PASS_LANG], "in no language seed mutates",
			  "in no language seed mutates");
		add_count(&sb, &first, c->passed[SEED_PASS_TEST], "test file", "test files");
		add_count(&sb, &first, c->passed[SEED_PASS_CHANGED], "changed by it",
			  "changed by it");
		add_count(&sb, &first, c->passed[SEED_PASS_SUBSET], "named by the subset",
			  "named by the subset");
		add_count(&sb, &first, c->passed[SEED_PASS_RULE], "forced full by a rule",
			  "forced full by a rule");
		add_count(&sb, &first, c->passed[SEED_PASS_BIG], "over 1 MiB", "over 1 MiB");
		strbuf_addch(&sb, ')');
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addf(&sb, "no mutant: of %zu %s outside the impact set, ", c->files.nr,
		    c->files.nr == 1 ? "file" : "files");
	add_no_site(&sb, &first, c);
	add_count(&sb, &first, c->reached, "reached by the selector",
		  "reached by the selector");
	add_count(&sb, &first, c->passed[SEED_PASS_UNREADABLE], "not readable in the worktree",
		  "not readable in the worktree");
	add_count(&sb, &first, c->invalid, "gave an invalid mutant", "gave invalid mutants");
	if (first)
		strbuf_addstr(&sb, "none was tried");
	return strbuf_detach(&sb, NULL);
}
