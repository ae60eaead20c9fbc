/* What the store recorded for replayed changes: selections, failures, wall-clock. */
#include "core/tiadash.h"
#include "core/answer.h"
#include "core/query.h"
#include "replay/replay.h"

static void put_pr(struct replay_record *rec, const char *repo, int64_t pr,
		   size_t idx)
{
	char key[64 + 24];
	struct strmap_entry *e;
	bool added;
	int n;

	/* "\nPR" for any repo, "REPO\nPR" for one; the latest head wins. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			n = snprintf(key, sizeof(key), "\n%" PRId64, pr);
		else if (strlen(repo) < 64)
			n = snprintf(key, sizeof(key), "%s\n%" PRId64, repo, pr);
		else
			break;
		e = strmap_intern(&rec->by_pr, key, (size_t)n, (int64_t)idx, &added);
		if (!added) {
			const struct replay_head *old = &rec->heads[e->value];
			const struct replay_head *cur = &rec->heads[idx];

			if (cur->at > old->at || (cur->at == old->at &&
						  cur->head_id > old->head_id))
				e->value = (int64_t)idx;
		}
	}
}

struct loader {
	struct replay_record *rec;
	double *full, *narrowed;
	size_t nr_full, nr_narrowed, alloc_full, alloc_narrowed;
};

/*
 * The tests red on main's run covering the pair's fork point (SPEC 4,
 * inherited): failures the change brought from main, not missed tests.
 */
static int read_inherited(struct store *s, const struct pair_info *p, const struct run_info *full,
			  const struct run_info *shadow, struct replay_head *h)
{
	struct main_cover cover;
	int64_t diff_id = full->diff_id ? full->diff_id : shadow ? shadow->diff_id : 0;

	if (query_main_cover(s, p->repo, diff_id, p->head_id, &cover) < 0)
		return -1;
	return cover.run_id ? query_run_failed_ids(s, cover.run_id, &h->inherited) : 0;
}

static int load_head(const struct pair_info *p, void *data)
{
	struct loader *l = data;
	struct replay_record *rec = l->rec;
	const struct run_info *shadow = pair_latest(p, RUN_SHADOW);
	const struct run_info *full = pair_latest(p, RUN_FULL);
	struct run_info *answer;
	struct replay_head *h;

	/* The recorded selection as its pair answers it, as report reads it. */
	if (pair_answer(rec->store, rec->idmap, shadow, full, &answer) < 0)
		return -1;
	if (answer)
		shadow = answer;
	ALLOC_GROW(rec->heads, rec->nr + 1, rec->alloc);
	h = &rec->heads[rec->nr];
	memset(h, 0, sizeof(*h));
	h->head_id = p->head_id;
	memcpy(h->sha, p->sha, sizeof(h->sha));
	h->repo = xstrdup(p->repo);
	h->has_pr = p->has_pr;
	h->pr = p->pr;
	h->at = p->at;
	h->shadow_wall_s = shadow ? shadow->wall_clock_s : NAN;
	h->full_wall_s = full ? full->wall_clock_s : NAN;
	if (shadow) {
		h->shadow_run = shadow->id;
		h->shadow_verdict = shadow->verdict != VERDICT_ERROR;
		if (shadow->decision != DECISION_NONE) {
			h->shadow_decision = decision_name(shadow->decision);
			for (size_t i = 0; i < shadow->reasons.nr; i++)
				strlist_push(&h->shadow_reasons, shadow->reasons.items[i]);
			h->has_selected = shadow->has_selected;
			h->selected_count = shadow->selected_count;
		}
		if (shadow->decision == DECISION_SELECTED &&
		    !isnan(shadow->wall_clock_s)) {
			ALLOC_GROW(l->narrowed, l->nr_narrowed + 1, l->alloc_narrowed);
			l->narrowed[l->nr_narrowed++] = shadow->wall_clock_s;
		}
	}
	h->of_main = !p->has_pr && !shadow;
	if (full && full->failures > 0 && !h->of_main &&
	    read_inherited(rec->store, p, full, shadow, h) < 0)
		return -1;
	if (full) {
		h->full_run = full->id;
		if (!isnan(full->wall_clock_s)) {
			ALLOC_GROW(l->full, l->nr_full + 1, l->alloc_full);
			l->full[l->nr_full++] = full->wall_clock_s;
		}
	}
	strmap_intern(&rec->by_sha, h->sha, strlen(h->sha), (int64_t)rec->nr, NULL);
	rec->nr++;
	run_info_free(answer);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* numpy's median: the middle value, or the mean of the middle two. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* When the store holds several repos, use the one named like origin. */
static void pick_repo(struct replay_record *rec, const char *slug)
{
	struct strmap repos = STRMAP_INIT;
	bool slug_seen = false;

	for (size_t i = 0; i < rec->nr; i++) {
		const char *r = rec->heads[i].repo;

		if (!*r)
			continue;
		strmap_intern(&repos, r, strlen(r), 0, NULL);
		if (slug && !strcmp(r, slug))
			slug_seen = true;
	}
	if (repos.nr > 1) {
		if (slug_seen)
			rec->repo = xstrdup(slug);
		else
			warning("the store holds %zu repositories and none is "
				"this repository's origin%s%s%s: PR numbers are "
				"matched across all of them", repos.nr,
				slug ? " (" : "", slug ? slug : "", slug ? ")" : "");
	}
	strmap_clear(&repos);
}

int replay_record_load(struct replay_record *rec, struct store *s,
		       const struct idmap *idmap, const char *repo_slug)
{
	struct window all = WINDOW_ALL;
	struct loader l = { .rec = rec };
	int ret;

	memset(rec, 0, sizeof(*rec));
	rec->full_s = rec->narrowed_s = NAN;
	rec->store = s;
	rec->idmap = idmap;
	if (!s)
		return 0;
	ret = query_pairs(s, &all, load_head, &l);
	if (!ret) {
		pick_repo(rec, repo_slug);
		for (size_t i = 0; i < rec->nr; i++)
			if (rec->heads[i].has_pr && (!rec->repo ||
						     !strcmp(rec->heads[i].repo, rec->repo)))
				put_pr(rec, rec->heads[i].repo, rec->heads[i].pr, i);
		rec->full_n = l.nr_full;
		rec->narrowed_n = l.nr_narrowed;
		rec->full_s = median(l.full, l.nr_full);
		rec->narrowed_s = median(l.narrowed, l.nr_narrowed);
	}
	free(l.full);
	free(l.narrowed);
	return ret < 0 ? -1 : 0;
}

void replay_record_release(struct replay_record *rec)
{
	for (size_t i = 0; i < rec->nr; i++) {
		free(rec->heads[i].repo);
		strlist_release(&rec->heads[i].shadow_reasons);
		strlist_release(&rec->heads[i].inherited);
	}
	free(rec->heads);
	strmap_clear(&rec->by_sha);
	strmap_clear(&rec->by_pr);
	free(rec->repo);
	memset(rec, 0, sizeof(*rec));
}

const struct replay_head *replay_record_find(const struct replay_record *rec,
					     const struct replay_commit *c)
{
	char key[64 + 24];
	int64_t idx;
	int n;

	if (!rec->nr)
		return NULL;
	/* A run of main on a PR's merge commit is main's record, not the PR's. */
	if (strmap_get(&rec->by_sha, c->sha, &idx) && !(c->has_pr && rec->heads[idx].of_main))
		return &rec->heads[idx];
	if (c->has_pr) {
		n = snprintf(key, sizeof(key), "%s\n%" PRId64, rec->repo ? rec->repo : "", c->pr);
		if (n > 0 && (size_t)n < sizeof(key) && strmap_get(&rec->by_pr, key, &idx))
			return &rec->heads[idx];
	} else if (*c->merged && strmap_get(&rec->by_sha, c->merged, &idx)) {
		return &rec->heads[idx];
	}
	return NULL;
}

struct failure_list {
	struct replay_failure *v;
	size_t nr, alloc;
	const struct idset *quarantined;
	const struct strlist *inherited;
};

static bool is_inherited(const struct failure_list *l, const struct test_result *r)
{
	struct strbuf id = STRBUF_INIT;
	bool yes;

	if (!l->inherited->nr)
		return false;
	test_id_format(&id, r->suite, r->name);
	yes = strlist_sorted_has(l->inherited, id.buf);
	strbuf_release(&id);
	return yes;
}

static int add_failure(const struct test_result *r, void *data)
{
	struct failure_list *l = data;

	if (r->outcome == OUTCOME_FLAKY ||
	    idset_selects(l->quarantined, r->suite, r->name) || is_inherited(l, r))
		return 0;
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].suite = xstrdup(r->suite);
	l->v[l->nr].name = xstrdup(r->name);
	l->nr++;
	return 0;
}

static int add_quarantine(const struct replay_record *rec, int64_t run, struct idset *set)
{
	struct quarantine_list q = QUARANTINE_LIST_INIT;
	int ret = run ? query_quarantine(rec->store, run, &q) : 0;

	if (!ret)
		idset_add_quarantine(set, rec->idmap, &q);
	quarantine_list_release(&q);
	return ret;
}

int replay_record_failures(const struct replay_record *rec,
			   const struct replay_head *h,
			   struct replay_failure **out, size_t *nr)
{
	struct idset quarantined = IDSET_INIT;
	struct failure_list l = { .quarantined = &quarantined, .inherited = h ? &h->inherited : NULL };
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!rec->store || !h || !h->full_run)
		return 0;
	/* Quarantined tests do not gate, whichever run's list names them. */
	if (add_quarantine(rec, h->shadow_run, &quarantined) < 0 ||
	    add_quarantine(rec, h->full_run, &quarantined) < 0 ||
	    query_run_results(rec->store, h->full_run, add_failure, &l) < 0)
		ret = -1;
	idset_release(&quarantined);
	if (ret) {
		replay_failures_release(l.v, l.nr);
		return -1;
	}
	*out = l.v;
	*nr = l.nr;
	return 0;
}

void replay_failures_release(struct replay_failure *f, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(f[i].suite);
		free(f[i].name);
	}
	free(f);
}

int replay_record_selection(const struct replay_record *rec,
			    const struct replay_head *h, struct selection_entries *out)
{
	if (!rec->store || !h || !h->shadow_run)
		return 0;
	return query_selection_keyed(rec->store, h->shadow_run, out);
}

static int add_failed(const struct test_result *r, void *data)
{
	struct strmap *out = data;
	struct strbuf id = STRBUF_INIT;

	if (r->outcome != OUTCOME_FLAKY) {
		test_id_format(&id, r->suite, r->name);
		strmap_intern(out, id.buf, id.len, 0, NULL);
	}
	strbuf_release(&id);
	return 0;
}

int replay_record_shadow_failed(const struct replay_record *rec,
				const struct replay_head *h, struct strmap *out)
{
	if (!rec->store || !h || !h->shadow_run)
		return 0;
	return query_run_results(rec->store, h->shadow_run, add_failed, out) < 0 ? -1 : 0;
}

char *replay_repo_slug(const char *url)
{
	size_t n = strlen(url);
	const char *end, *name, *owner;

	while (n && url[n - 1] == '/')
		n--;
	if (n >= 4 && !memcmp(url + n - 4, ".git", 4))
		n -= 4;
	end = url + n;
	name = end;
	while (name > url && name[-1] != '/' && name[-1] != ':')
		name--;
	if (name == end || name == url)
		return NULL;
	owner = name - 1;
	while (owner > url && owner[-1] != '/' && owner[-1] != ':')
		owner--;
	if (owner == name - 1)
		return NULL;
	return xstrfmt("%.*s/%.*s", (int)(name - 1 - owner), owner,
		       (int)(end - name), name);
}
