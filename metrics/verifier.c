/* The verifier check: identical failures that went green after a change to tests, fixtures or config only. */
#include "core/tiadash.h"
#include "core/glob.h"
#include "core/repo.h"
#include "metrics/verifier.h"

enum path_class { PATH_CODE, PATH_TEST, PATH_FIXTURE, PATH_CONFIG };

/* First match wins: lockfiles are code before *.json and *.yaml are config. */
static const struct {
	const char *glob;
	enum path_class cls;
} path_globs[] = {
	{ "package-lock.json", PATH_CODE }, { "npm-shrinkwrap.json", PATH_CODE },
	{ "pnpm-lock.yaml", PATH_CODE }, { "yarn.lock", PATH_CODE },
	{ "*.lock", PATH_CODE }, { "go.sum", PATH_CODE },
	{ "test/", PATH_TEST }, { "tests/", PATH_TEST }, { "__tests__/", PATH_TEST },
	{ "spec/", PATH_TEST }, { "test_*.*", PATH_TEST }, { "*_test.*", PATH_TEST },
	{ "*.test.*", PATH_TEST }, { "*.spec.*", PATH_TEST }, { "*Test.java", PATH_TEST },
	{ "*Tests.java", PATH_TEST }, { "*Test.kt", PATH_TEST }, { "*_spec.rb", PATH_TEST },
	{ "conftest.py", PATH_TEST },
	{ "fixtures/", PATH_FIXTURE }, { "__fixtures__/", PATH_FIXTURE },
	{ "testdata/", PATH_FIXTURE }, { "__snapshots__/", PATH_FIXTURE },
	{ "*.snap", PATH_FIXTURE },
	{ "*.toml", PATH_CONFIG }, { "*.ini", PATH_CONFIG }, { "*.cfg", PATH_CONFIG },
	{ "*.conf", PATH_CONFIG }, { "*.yaml", PATH_CONFIG }, { "*.yml", PATH_CONFIG },
	{ "*.json", PATH_CONFIG }, { "*.xml", PATH_CONFIG }, { "*.properties", PATH_CONFIG },
	{ ".env*", PATH_CONFIG },
};

void metrics_verifier_release(struct metrics_verifier *v)
{
	free(v->test);
	free(v->digest);
	free(v->failed);
	strlist_release(&v->changed);
	memset(v, 0, sizeof(*v));
}

void verifier_add_head(struct verifier_attempt **att, size_t *nr, size_t *alloc,
		       const struct pair_info *p, size_t row)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct run_info *r = &p->runs[i];
		struct verifier_attempt *a;

		if (r->kind != RUN_SHADOW)
			continue;
		ALLOC_GROW(*att, *nr + 1, *alloc);
		a = &(*att)[(*nr)++];
		a->row = row;
		a->run_id = r->id;
		a->diff_id = r->diff_id;
		a->started_at = r->started_at;
		a->sha = NULL;
		a->attempt = r->attempt;
		a->verdict = r->verdict;
	}
}

int verifier_init(struct verifier *v, struct store *s, struct repo_later *repo)
{
	struct strbuf why = STRBUF_INIT;

	memset(v, 0, sizeof(*v));
	v->store = s;
	v->repo = repo;
	v->globs = glob_set_new();
	for (size_t i = 0; i < ARRAY_SIZE(path_globs); i++)
		if (glob_set_add(v->globs, path_globs[i].glob, (int)path_globs[i].cls, &why) < 0)
			BUG("verifier glob '%s': %s", path_globs[i].glob, why.buf);
	strbuf_release(&why);
	return glob_set_compile(v->globs, 0);
}

void verifier_release(struct verifier *v)
{
	glob_set_free(v->globs);
	v->globs = NULL;
}

/* A run of identical failures of one test. */
struct streak {
	char *suite, *digest, *excerpt;
	size_t first, last; /* attempt indexes */
	int count;
};

struct streaks {
	struct strmap index; /* SUITE::CASE -> index into items */
	struct streak *items;
	struct strlist ids;
	size_t alloc;
	size_t at, prev; /* the attempt being read, the one before it */
	bool has_prev;
};

static void streaks_clear(struct streaks *st)
{
	for (size_t i = 0; i < st->ids.nr; i++) {
		free(st->items[i].suite);
		free(st->items[i].digest);
		free(st->items[i].excerpt);
	}
	strlist_release(&st->ids);
	strmap_clear(&st->index);
}

static int add_failure(const struct test_result *r, void *data)
{
	struct streaks *st = data;
	struct strbuf id = STRBUF_INIT;
	struct streak *s;
	bool added;
	struct strmap_entry *e;

	if (r->outcome == OUTCOME_FLAKY)
		return 0;
	test_id_format(&id, r->suite, r->name);
	e = strmap_intern(&st->index, id.buf, id.len, (int64_t)st->ids.nr, &added);
	if (added) {
		strlist_push(&st->ids, id.buf);
		ALLOC_GROW(st->items, st->ids.nr, st->alloc);
		memset(&st->items[e->value], 0, sizeof(*st->items));
	}
	s = &st->items[e->value];
	if (!added && st->has_prev && s->last == st->prev && r->digest && s->digest &&
	    !strcmp(r->digest, s->digest)) {
		s->count++;
		s->last = st->at;
	} else {
		free(s->suite);
		free(s->digest);
		free(s->excerpt);
		s->suite = xstrdup(r->suite);
		s->digest = r->digest ? xstrdup(r->digest) : NULL;
		s->excerpt = xstrdup(r->excerpt ? r->excerpt : "");
		s->first = s->last = st->at;
		s->count = 1;
	}
	strbuf_release(&id);
	return 0;
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == '/';
}

/* Does text name needle as a path (the whole of it, or after a '/')? */
static bool names_path(const char *text, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return false;
	for (const char *p = text; (p = strstr(p, needle)); p++) {
		bool before = p == text || !path_char(p[-1]) || p[-1] == '/';

		if (before && !path_char(p[n]))
			return true;
	}
	return false;
}

/* Does the failure's text name this file, by its path or its base name? */
static bool failure_names(const char *excerpt, const char *path)
{
	const char *base = strrchr(path, '/');

	return names_path(excerpt, path) || (base && names_path(excerpt, base + 1));
}

static enum path_class classify_path(struct verifier *v, const char *path, const char *suite)
{
	int tag;

	if (!strcmp(path, suite))
		return PATH_TEST;
	tag = glob_set_match(v->globs, path);
	return tag < 0 ? PATH_CODE : (enum path_class)tag;
}

/* A diff's paths with what changed in each ("status added-lines old-path"). */
static void diff_signature(const struct diff_info *d, struct strmap *paths, struct strlist *sig)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < d->nr; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%c ", d->files[i].status);
		lineset_format(&d->files[i].added, &sb);
		strbuf_addf(&sb, " %s", d->files[i].old_path ? d->files[i].old_path : "");
		strmap_put(paths, d->files[i].path, strlen(d->files[i].path), (int64_t)sig->nr);
		strlist_push(sig, sb.buf);
	}
	strbuf_release(&sb);
}

/* Paths whose stored diffs differ between two heads. 1: a diff is not known. */
static int stored_change(struct store *s, int64_t from_id, int64_t to_id, struct strlist *out)
{
	struct diff_info from = { 0 }, to = { 0 };
	struct strmap fp = STRMAP_INIT, tp = STRMAP_INIT;
	struct strlist fs = STRLIST_INIT, ts = STRLIST_INIT;
	int ret = 1;

	if (!from_id || !to_id)
		return 1;
	if (query_diff(s, from_id, &from) < 0 || query_diff(s, to_id, &to) < 0) {
		ret = -1;
		goto out;
	}
	if (from.unknown || to.unknown)
		goto out;
	diff_signature(&from, &fp, &fs);
	diff_signature(&to, &tp, &ts);
	for (size_t i = 0; i < to.nr; i++) {
		const char *p = to.files[i].path;
		int64_t k;

		if (!strmap_get(&fp, p, &k) || strcmp(fs.items[k], ts.items[i]))
			strlist_push(out, p);
	}
	for (size_t i = 0; i < from.nr; i++)
		if (!strmap_has(&tp, from.files[i].path))
			strlist_push(out, from.files[i].path);
	ret = 0;
out:
	diff_info_release(&from);
	diff_info_release(&to);
	strmap_clear(&fp);
	strmap_clear(&tp);
	strlist_release(&fs);
	strlist_release(&ts);
	return ret;
}

/*
 * What changed from attempt a's head to attempt b's: git's three-dot diff
 * when both commits are there, else the stored diffs compared. 1: unknown.
 */
static int change_between(struct verifier *v, const struct verifier_attempt *a,
			  const struct verifier_attempt *b, struct strlist *out, bool *from_git)
{
	struct repo *repo = v->repo ? repo_later_get(v->repo) : NULL;

	*from_git = false;
	if (repo) {
		struct repo_diff d = REPO_DIFF_INIT;
		const char *missing;
		int rc = repo_diff_three_dot(repo, a->sha, b->sha, 0, &d, &missing);

		for (size_t i = 0; rc == 0 && i < d.nr; i++) {
			strlist_push(out, d.files[i].path);
			if (d.files[i].old_path)
				strlist_push(out, d.files[i].old_path);
		}
		repo_diff_release(&d);
		if (rc != REPO_UNKNOWN_COMMIT) {
			*from_git = rc == 0;
			return rc;
		}
	}
	return stored_change(v->store, a->diff_id, b->diff_id, out);
}

static void flag(struct verifier *v, const struct verifier_attempt *att, const char *id,
		 const struct streak *s, size_t green, struct strlist *changed, bool from_git)
{
	struct metrics_verifier *f;

	ALLOC_GROW(v->found, v->nr + 1, v->alloc);
	f = &v->found[v->nr++];
	memset(f, 0, sizeof(*f));
	f->row = att[green].row;
	f->test = xstrdup(id);
	f->digest = xstrdup(s->digest);
	f->failed = xcalloc((size_t)s->count, sizeof(*f->failed));
	for (size_t k = s->first; k <= s->last; k++) {
		if (att[k].verdict == VERDICT_ERROR || f->nr_failed == (size_t)s->count)
			continue;
		memcpy(f->failed[f->nr_failed].sha, att[k].sha, 41);
		f->failed[f->nr_failed++].attempt = att[k].attempt;
	}
	memcpy(f->passed.sha, att[green].sha, 41);
	f->passed.attempt = att[green].attempt;
	strlist_sort(changed);
	f->changed = *changed;
	memset(changed, 0, sizeof(*changed));
	f->from_git = from_git;
}

/* A streak that ended in the green attempt `green`: flag it when the change was the verifier's only. */
static int judge(struct verifier *v, const struct verifier_attempt *att, const char *id,
		 const struct streak *s, size_t green)
{
	struct strlist changed = STRLIST_INIT;
	bool from_git, verifier_only = true;
	int rc;

	if (!strcmp(att[s->last].sha, att[green].sha))
		return 0;
	rc = change_between(v, &att[s->last], &att[green], &changed, &from_git);
	if (rc < 0)
		return -1;
	for (size_t i = 0; !rc && i < changed.nr && verifier_only; i++) {
		enum path_class c = classify_path(v, changed.items[i], s->suite);

		verifier_only = c != PATH_CODE &&
				(c == PATH_TEST || !failure_names(s->excerpt, changed.items[i]));
	}
	if (!rc && changed.nr && verifier_only)
		flag(v, att, id, s, green, &changed, from_git);
	strlist_release(&changed);
	return 0;
}

static int cmp_attempt(const void *pa, const void *pb)
{
	const struct verifier_attempt *a = pa, *b = pb;
	int c;

	if (a->started_at != b->started_at)
		return a->started_at < b->started_at ? -1 : 1;
	c = strcmp(a->sha, b->sha);
	return c ? c : (a->attempt > b->attempt) - (a->attempt < b->attempt);
}

int verifier_check(struct verifier *v, struct verifier_attempt *att, size_t nr)
{
	struct streaks st = { 0 };
	int ret = 0;

	if (nr < 3)
		return 0; /* two identical failures and a green attempt at least */
	qsort(att, nr, sizeof(*att), cmp_attempt);
	for (size_t k = 0; k < nr && !ret; k++) {
		if (att[k].verdict == VERDICT_ERROR)
			continue;
		st.at = k;
		if (att[k].verdict == VERDICT_FAIL) {
			ret = query_run_results(v->store, att[k].run_id, add_failure, &st);
		} else if (st.has_prev) {
			for (size_t i = 0; i < st.ids.nr && !ret; i++) {
				const struct streak *s = &st.items[i];

				if (s->last == st.prev && s->count >= 2 && s->digest)
					ret = judge(v, att, st.ids.items[i], s, k);
			}
			streaks_clear(&st);
		}
		st.prev = k;
		st.has_prev = true;
	}
	streaks_clear(&st);
	free(st.items);
	return ret;
}
