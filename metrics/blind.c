/* Blind spots: the tests the window's full runs ran that no narrowed selection named. */
#include "core/tiadash.h"
#include "metrics/blind.h"

struct union_acc {
	struct idset *set;
	const struct idmap *map;
	struct strmap seen; /* the entries as stored, each added once */
};

/* Entries remembered as stored: a 10^6-entry selection does not keep a second copy. */
#define UNION_SEEN_MAX 4096

/*
 * 10^5 selections name a few dozen entries between them: an entry seen
 * before skips the id-map and the set's own parsing and hashing (adding
 * it again would change nothing).
 */
static int add_entry(const char *entry, size_t len, void *data)
{
	struct union_acc *u = data;

	if (strmap_find(&u->seen, entry, len))
		return 0;
	if (u->seen.nr < UNION_SEEN_MAX)
		strmap_put(&u->seen, entry, len, 0);
	idset_add(u->set, u->map, entry);
	return 0;
}

int blind_selected_union(struct store *s, const struct idmap *map, const struct window *w,
			 struct idset *out, struct blind_input *in)
{
	struct union_acc u = { out, map, STRMAP_INIT };
	int ret = blind_gather(s, w, add_entry, &u, in);

	strmap_clear(&u.seen);
	return ret;
}

bool blind_id_selected(const struct idset *selected, const char *id)
{
	char *suite, *name;
	bool yes;

	test_id_split(id, &suite, &name);
	yes = idset_selects(selected, suite, name);
	free(suite);
	free(name);
	return yes;
}

/* What is known of each test of the window (the map's values). */
enum {
	T_SELECTED = 1 << 0, /* a narrowed selection named it */
	T_LISTED = 1 << 1,   /* in a stored test list (not only a failure) */
	T_OLD = 1 << 2,      /* first run before the window, or in the baseline */
	T_FAILED = 1 << 3,   /* failed in a full run */
};

struct tests_acc {
	const struct idset *selected;
	struct strmap tests; /* SUITE::CASE -> T_* flags */
	struct strbuf id;
};

/* The entry of one test, made with its flags when new. */
static struct strmap_entry *test_entry(struct tests_acc *t, const char *suite,
				       const char *name)
{
	struct strmap_entry *e;
	bool added;

	strbuf_reset(&t->id);
	test_id_format(&t->id, suite, name);
	e = strmap_intern(&t->tests, t->id.buf, t->id.len, 0, &added);
	if (added && idset_selects(t->selected, suite, name))
		e->value |= T_SELECTED;
	return e;
}

static int add_group(const struct test_group *g, void *data)
{
	struct tests_acc *t = data;

	for (size_t i = 0; i < g->cases->nr; i++)
		test_entry(t, g->suite, g->cases->items[i])->value |= T_LISTED;
	return 0;
}

/* The failures: suite and case name ids, in pairs (the texts live as long as the connection). */
static int add_failures(struct store *s, struct tests_acc *t, const struct int_vec *f)
{
	for (size_t i = 0; i + 1 < f->nr; i += 2) {
		const char *suite = store_name_text(s, f->v[i]);
		const char *name = suite ? store_name_text(s, f->v[i + 1]) : NULL;

		if (!name)
			return -1;
		test_entry(t, suite, name)->value |= T_FAILED;
	}
	return 0;
}

static int mark_old(const struct test_group *g, void *data)
{
	struct tests_acc *t = data;

	for (size_t i = 0; i < g->cases->nr; i++) {
		struct strmap_entry *e;

		strbuf_reset(&t->id);
		test_id_format(&t->id, g->suite, g->cases->items[i]);
		e = strmap_find(&t->tests, t->id.buf, t->id.len);
		if (e)
			e->value |= T_OLD;
	}
	return 0;
}

/* The sorted lists of the figures from the flags. */
static void fill_lists(struct tests_acc *t, struct metrics_blind *out)
{
	struct strlist fresh = STRLIST_INIT;

	for (size_t i = 0; i < t->tests.cap; i++) {
		const struct strmap_entry *e = &t->tests.slots[i];

		if (!e->key)
			continue;
		out->tests++;
		if (!(e->value & T_SELECTED)) {
			strlist_push(&out->never, e->key);
			if (e->value & T_FAILED)
				strlist_push(&out->failed, e->key);
		}
		if ((e->value & T_LISTED) && !(e->value & T_OLD))
			strlist_push(&fresh, e->key);
	}
	strlist_sort(&out->never);
	strlist_sort(&out->failed);
	strlist_sort(&fresh);
	out->new_tests = fresh;
	out->new_selected = xcalloc(fresh.nr ? fresh.nr : 1, sizeof(*out->new_selected));
	for (size_t i = 0; i < fresh.nr; i++) {
		const struct strmap_entry *e = strmap_find(&t->tests, fresh.items[i],
							   strlen(fresh.items[i]));

		out->new_selected[i] = e->value & T_SELECTED;
		out->new_selected_count += out->new_selected[i];
	}
}

int blind_compute(struct store *s, const struct window *w, const struct blind_input *in,
		  const struct idset *selected, struct metrics_blind *out)
{
	struct tests_acc t = { selected, STRMAP_INIT, STRBUF_INIT };
	int ret;

	out->listed_runs = in->listed;
	out->known = out->listed_runs > 0;
	ret = query_groups_each(s, in->groups.v, in->groups.nr, add_group, &t);
	if (!ret && out->known)
		ret = add_failures(s, &t, &in->failures);
	if (!ret && out->known)
		ret = query_tests_before(s, w->repo, w->since, mark_old, &t);
	out->new_known = out->known;
	if (!ret && out->known)
		fill_lists(&t, out);
	strmap_clear(&t.tests);
	strbuf_release(&t.id);
	return ret;
}

void blind_release(struct metrics_blind *b)
{
	strlist_release(&b->never);
	strlist_release(&b->failed);
	strlist_release(&b->new_tests);
	free(b->new_selected);
	memset(b, 0, sizeof(*b));
}

/* A suite key that names a file of the repository (not a dotted class name). */
static bool suite_is_file(const char *suite)
{
	static const char *const exts[] = {
		".py", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".rb", ".rs",
		".c", ".cc", ".cpp", ".java", ".kt", ".php", ".cs", ".swift", ".scala",
		".ex", ".exs",
	};
	size_t n = strlen(suite);

	for (const unsigned char *p = (const unsigned char *)suite; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false; /* no place in a rule file's line */
	if (*suite == '/')
		return false; /* not a repository path */
	if (!n || strchr(suite, '/'))
		return n && suite[n - 1] != '/';
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		size_t e = strlen(exts[i]);

		if (n > e && !strcmp(suite + n - e, exts[i]))
			return true;
	}
	return false;
}

/* A rule-file token: blanks, '#' and backslashes escaped. */
static void rule_token(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '#' || *s == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

static int cmp_file(const void *pa, const void *pb)
{
	const struct blind_file *a = pa, *b = pb;

	if (a->failed != b->failed)
		return a->failed > b->failed ? -1 : 1;
	if (a->tests != b->tests)
		return a->tests > b->tests ? -1 : 1;
	return strcmp(a->suite, b->suite);
}

void blind_files(const struct metrics_blind *b, struct blind_file **out, size_t *nr)
{
	struct strmap index = STRMAP_INIT, failed = STRMAP_INIT;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; i < b->failed.nr; i++)
		strmap_put(&failed, b->failed.items[i], strlen(b->failed.items[i]), 1);
	for (size_t i = 0; i < b->never.nr; i++) {
		const char *id = b->never.items[i];
		char *suite, *name;
		bool added;
		struct strmap_entry *e;

		test_id_split(id, &suite, &name);
		if (suite_is_file(suite)) {
			e = strmap_intern(&index, suite, strlen(suite), (int64_t)*nr, &added);
			if (added) {
				struct strbuf rule = STRBUF_INIT;

				ALLOC_GROW(*out, *nr + 1, alloc);
				strbuf_addstr(&rule, "select ** ");
				rule_token(&rule, suite);
				(*out)[*nr] = (struct blind_file){ xstrdup(suite),
					strbuf_detach(&rule, NULL), 0, 0 };
				(*nr)++;
			}
			(*out)[e->value].tests++;
			(*out)[e->value].failed += strmap_has(&failed, id);
		}
		free(suite);
		free(name);
	}
	if (*nr > 1)
		qsort(*out, *nr, sizeof(**out), cmp_file);
	strmap_clear(&index);
	strmap_clear(&failed);
}

void blind_files_release(struct blind_file *f, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(f[i].suite);
		free(f[i].rule);
	}
	free(f);
}
