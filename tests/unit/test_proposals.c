/* Proposals: candidate globs and their match keys, the greedy cover, accept and undo. */
#include "core/tiadash.h"
#include "core/glob.h"
#include "core/notes.h"
#include "core/query.h"
#include "core/store.h"
#include "core/util.h"
#include "metrics/proposals.h"

#include <setjmp.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

/* "form glob" lines of a path's candidates, one string. */
static char *candidates_of(const char *path)
{
	struct proposal_candidates c = PROPOSAL_CANDIDATES_INIT;
	struct strbuf sb = STRBUF_INIT;

	proposals_path_candidates(path, &c);
	for (size_t i = 0; i < c.nr; i++)
		strbuf_addf(&sb, "%s %s\n", proposal_form_name(c.items[i].form),
			    c.items[i].glob);
	proposal_candidates_release(&c);
	return strbuf_detach(&sb, NULL);
}

static void expect_candidates(const char *path, const char *want)
{
	char *got = candidates_of(path);

	assert_string_equal(got, want);
	free(got);
}

static void candidates_of_paths(void **state)
{
	UNUSED(state);
	expect_candidates("config/registry.toml",
			  "file config/registry.toml\n"
			  "dir config/**\n"
			  "name **/registry.toml\n"
			  "ext **/*.toml\n"
			  "dir-ext config/**/*.toml\n");
	expect_candidates("tests/fixtures/a.json",
			  "file tests/fixtures/a.json\n"
			  "dir tests/**\n"
			  "dir tests/fixtures/**\n"
			  "name **/a.json\n"
			  "ext **/*.json\n"
			  "dir-ext tests/**/*.json\n"
			  "dir-ext tests/fixtures/**/*.json\n");
	/* A root file is anchored; no extension, no ext forms. */
	expect_candidates("Makefile", "file /Makefile\nname **/Makefile\n");
	/* The last extension only; a dotfile has none. */
	expect_candidates("a/b.tar.gz",
			  "file a/b.tar.gz\ndir a/**\nname **/b.tar.gz\n"
			  "ext **/*.gz\ndir-ext a/**/*.gz\n");
	expect_candidates("web/.env", "file web/.env\ndir web/**\nname **/.env\n");
	expect_candidates("x.", "file /x.\nname **/x.\n");
	/* Glob characters, blanks, a leading '#' or '!' are escaped. */
	expect_candidates("#a b/[x]*.json",
			  "file \\#a\\ b/\\[x\\]\\*.json\n"
			  "dir \\#a\\ b/**\n"
			  "name **/\\[x\\]\\*.json\n"
			  "ext **/*.json\n"
			  "dir-ext \\#a\\ b/**/*.json\n");
	expect_candidates("!{a,b}?", "file /\\!\\{a\\,b\\}\\?\nname **/\\!\\{a\\,b\\}\\?\n");
	/* No candidates for what cannot be a repository file path. */
	expect_candidates("a/b\nc", "");
	expect_candidates("a\x1b[31m", "");
	expect_candidates("", "");
	expect_candidates("/abs", "");
}

static bool has_key(const struct strlist *keys, const char *key)
{
	for (size_t i = 0; i < keys->nr; i++)
		if (!strcmp(keys->items[i], key))
			return true;
	return false;
}

/*
 * The key walk answers exactly what core/glob.h answers for every
 * candidate: candidates of source paths against probe paths, including
 * directories named like files, repeated names and odd characters.
 */
static void keys_agree_with_globs(void **state)
{
	static const char *const sources[] = {
		"config/registry.toml", "tests/fixtures/a.json", "Makefile",
		"a/b.tar.gz", "web/.env", "a/a/a.a", "x.json/y.json", "#a b/[x]*.json",
		"deep/er/still/f.c", "a.b/c",
	};
	static const char *const probes[] = {
		"config/registry.toml", "config/registry.toml/inner", "config",
		"config/other.toml", "sub/config/registry.toml", "registry.toml",
		"x/registry.toml/y", "tests/fixtures/a.json", "tests/fixtures/b.json",
		"tests/a.json", "tests/fixtures/sub/a.json", "a.json", "tests",
		"Makefile", "sub/Makefile", "Makefile/x", "Makefilex",
		"a/b.tar.gz", "a/x.gz", "a/b/c/d.gz", "b.gz", "a.gz/z", "a/.gz",
		"a/b.tar", "web/.env", "web/x/.env", ".env", "a/a/a.a", "a/a",
		"a/x.a", "a/a/x/y.a", "b/a.a", "x.json/y.json", "x.json",
		"q/x.json/z", "#a b/[x]*.json", "#a b/y.json", "[x]*.json",
		"deep/er/still/f.c", "deep/f.c", "deep/er/x/y/z.c", "deep/erx/f.c",
		"a.b/c", "a.b/c/d", "z/a.b/c", "", "a",
	};
	size_t checked = 0;

	UNUSED(state);
	for (size_t s = 0; s < ARRAY_SIZE(sources); s++) {
		struct proposal_candidates c = PROPOSAL_CANDIDATES_INIT;

		proposals_path_candidates(sources[s], &c);
		assert_true(c.nr > 0);
		for (size_t i = 0; i < c.nr; i++) {
			struct glob_set *gs = glob_set_new();
			struct strbuf why = STRBUF_INIT;

			if (glob_set_add(gs, c.items[i].glob, 0, &why) < 0)
				fail_msg("'%s': %s", c.items[i].glob, why.buf);
			assert_int_equal(glob_set_compile(gs, 0), 0);
			for (size_t p = 0; p < ARRAY_SIZE(probes); p++) {
				struct strlist keys = STRLIST_INIT;
				bool by_glob, by_key;

				if (!*probes[p])
					continue;
				proposals_path_keys(probes[p], &keys);
				by_glob = glob_set_match(gs, probes[p]) == 0;
				by_key = has_key(&keys, c.items[i].key);
				if (by_glob != by_key)
					fail_msg("'%s' on '%s': glob says %d, keys say %d",
						 c.items[i].glob, probes[p], by_glob, by_key);
				strlist_release(&keys);
				checked++;
			}
			glob_set_free(gs);
			strbuf_release(&why);
		}
		proposal_candidates_release(&c);
	}
	assert_true(checked > 1000);
}

static void path_keys_exact(void **state)
{
	struct strlist keys = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	UNUSED(state);
	proposals_path_keys("a/b.c/d.e", &keys);
	for (size_t i = 0; i < keys.nr; i++)
		strbuf_addf(&sb, "%s\n", keys.items[i]);
	assert_string_equal(sb.buf,
			    "L:a\nD:a\nN:a\n"
			    "L:a/b.c\nD:a/b.c\nN:b.c\nE:c\nX:a/c\n"
			    "L:a/b.c/d.e\nN:d.e\nE:e\nX:a/e\nX:a/b.c/e\n");
	strlist_release(&keys);
	strbuf_release(&sb);
}

/* ---- the greedy cover ---- */

static size_t cover(const struct proposals_cover_item *items, size_t n,
		    size_t elements, size_t *chosen)
{
	return proposals_cover(items, n, elements, chosen);
}

static void cover_cheapest_per_element(void **state)
{
	static const size_t c01[] = { 0, 1 }, c2[] = { 2 }, c012[] = { 0, 1, 2 },
		c0[] = { 0 }, c1[] = { 1 };
	/* 0+1 for 4 (2 each), 2 for 1: cheaper than 0+1+2 for 9 (3 each). */
	const struct proposals_cover_item items[] = {
		{ c012, 3, 9.0, 5, 0, "all" },
		{ c01, 2, 4.0, 2, 0, "pair" },
		{ c2, 1, 1.0, 1, 0, "two" },
		{ c0, 1, 3.0, 1, 0, "zero" },
		{ c1, 1, 3.0, 1, 0, "one" },
	};
	size_t chosen[ARRAY_SIZE(items)];
	size_t n;

	UNUSED(state);
	n = cover(items, ARRAY_SIZE(items), 3, chosen);
	assert_int_equal(n, 2);
	assert_int_equal(chosen[0], 2); /* 1 per element */
	assert_int_equal(chosen[1], 1); /* then 2 per element */
}

static void cover_counts_only_new_elements(void **state)
{
	static const size_t a[] = { 0, 1, 2 }, b[] = { 2, 3 }, c[] = { 3 };
	/* After a (1 each), b covers one new element for 2.5, c one for 2.0. */
	const struct proposals_cover_item items[] = {
		{ a, 3, 3.0, 3, 0, "a" },
		{ b, 2, 2.5, 1, 0, "b" },
		{ c, 1, 2.0, 2, 0, "c" },
	};
	size_t chosen[3];

	UNUSED(state);
	assert_int_equal(cover(items, 3, 4, chosen), 2);
	assert_int_equal(chosen[0], 0);
	assert_int_equal(chosen[1], 2);
}

static void cover_ties(void **state)
{
	static const size_t e0[] = { 0 }, e01[] = { 0, 1 }, e1[] = { 1 };
	/*
	 * Zero cost everywhere: the specific form first, even where a broader
	 * glob closes more at the same cost (two file globs, not their dir).
	 */
	const struct proposals_cover_item more[] = {
		{ e0, 1, 0.0, 0, 0, "a" },
		{ e01, 2, 0.0, 0, 3, "b" },
	};
	/* Same ratio and count: fewer runs, then the specific form, then the name. */
	const struct proposals_cover_item runs[] = {
		{ e0, 1, 1.0, 3, 0, "a" },
		{ e0, 1, 1.0, 2, 4, "b" },
	};
	const struct proposals_cover_item form[] = {
		{ e0, 1, 1.0, 2, 4, "**/*.toml" },
		{ e0, 1, 1.0, 2, 0, "config/registry.toml" },
	};
	const struct proposals_cover_item name[] = {
		{ e1, 1, 1.0, 2, 1, "b" },
		{ e1, 1, 1.0, 2, 1, "a" },
	};
	size_t chosen[2];

	UNUSED(state);
	assert_int_equal(cover(more, 2, 2, chosen), 2);
	assert_int_equal(chosen[0], 0);
	assert_int_equal(chosen[1], 1);
	assert_int_equal(cover(runs, 2, 1, chosen), 1);
	assert_int_equal(chosen[0], 1);
	assert_int_equal(cover(form, 2, 1, chosen), 1);
	assert_int_equal(chosen[0], 1);
	assert_int_equal(cover(name, 2, 2, chosen), 1);
	assert_int_equal(chosen[0], 1);
}

static void cover_unknown_costs_last(void **state)
{
	static const size_t e01[] = { 0, 1 }, e0[] = { 0 }, e1[] = { 1 };
	const struct proposals_cover_item items[] = {
		{ e01, 2, NAN, 0, 0, "unknown" },
		{ e0, 1, 50.0, 9, 0, "dear" },
		{ e1, 1, NAN, 1, 0, "unknown-too" },
	};
	size_t chosen[3];

	UNUSED(state);
	/* Known 50 first; then both unknown cover one new element: fewer runs. */
	assert_int_equal(cover(items, 3, 2, chosen), 2);
	assert_int_equal(chosen[0], 1);
	assert_int_equal(chosen[1], 0);
}

static void cover_nothing(void **state)
{
	static const size_t e5[] = { 5 };
	const struct proposals_cover_item items[] = { { e5, 1, 1.0, 0, 0, "out" } };
	size_t chosen[1];

	UNUSED(state);
	assert_int_equal(cover(items, 0, 0, chosen), 0);
	/* An element beyond the universe is ignored. */
	assert_int_equal(cover(items, 1, 2, chosen), 0);
}

/* ---- accept and undo ---- */

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_file_limit(&sb, path, 0) < 0)
		return NULL;
	return strbuf_detach(&sb, NULL);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Two escapes to name: PR 434 and a push. */
static void fake_proposals(struct proposals *p, struct proposal_escape e[3])
{
	memset(p, 0, sizeof(*p));
	memset(e, 0, 3 * sizeof(*e));
	e[0].has_pr = true;
	e[0].pr = 434;
	e[1].has_pr = false;
	memcpy(e[1].sha, "0123456789abcdef0123456789abcdef01234567", 41);
	e[2].has_pr = true;
	e[2].pr = 498;
	p->escapes_list = e;
	p->nr_escapes = 3;
}

#define NOW INT64_C(1794096000000) /* 2026-11-08T00:00:00Z */

static void accept_creates_and_undo_removes(void **state)
{
	char dir[] = "/tmp/tiadash-accept-XXXXXX";
	struct proposal_accept a = PROPOSAL_ACCEPT_INIT;
	struct proposals p;
	struct proposal_escape e[3];
	const size_t closes[] = { 0, 2 };
	char *path, *text;
	struct stat st;

	UNUSED(state);
	fake_proposals(&p, e);
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/.tiadash/rules", dir);
	assert_int_equal(proposals_accept(path, "config/registry.toml", &p, closes, 2,
					  NOW, &a), 0);
	assert_true(a.created);
	text = slurp(path);
	assert_string_equal(text, "# accepted 2026-11-08: closes escapes of PR 434, 498 "
			    "(tiadash propose)\nconfig/registry.toml\n");
	assert_string_equal(a.text.buf, text);
	free(text);
	assert_int_equal(proposals_undo_accept(&a), 0);
	assert_int_equal(stat(path, &st), -1);
	proposal_accept_release(&a);
	free(path);
	path = xstrfmt("%s/.tiadash", dir);
	rmdir(path);
	free(path);
	assert_int_equal(rmdir(dir), 0);
}

static void accept_appends_and_undo_restores(void **state)
{
	char dir[] = "/tmp/tiadash-accept-XXXXXX";
	struct proposal_accept a = PROPOSAL_ACCEPT_INIT, b = PROPOSAL_ACCEPT_INIT;
	struct proposals p;
	struct proposal_escape e[3];
	const size_t one[] = { 1 }, both[] = { 0, 1 };
	const char before[] = "# team rules\nignore docs/**\n**/*.lock";
	char *path, *text;

	UNUSED(state);
	fake_proposals(&p, e);
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/rules", dir);
	spit(path, before);
	/* No newline at the end: one is added first, and undone with the rest. */
	assert_int_equal(proposals_accept(path, "**/a.json", &p, one, 1, NOW, &a), 0);
	assert_false(a.created);
	text = slurp(path);
	assert_string_equal(text, "# team rules\nignore docs/**\n**/*.lock\n"
			    "# accepted 2026-11-08: closes the escape of commit "
			    "0123456789ab (tiadash propose)\n**/a.json\n");
	free(text);
	assert_int_equal(proposals_accept(path, "a\\ b/**", &p, both, 2, NOW, &b), 0);
	assert_string_equal(b.text.buf, "# accepted 2026-11-08: closes escapes of PR 434, "
			    "commit 0123456789ab (tiadash propose)\na\\ b/**\n");
	/* Undo out of order: the file no longer ends with a's text. */
	assert_int_equal(proposals_undo_accept(&a), -1);
	assert_int_equal(proposals_undo_accept(&b), 0);
	assert_int_equal(proposals_undo_accept(&a), 0);
	text = slurp(path);
	assert_string_equal(text, before);
	free(text);
	proposal_accept_release(&a);
	proposal_accept_release(&b);
	unlink(path);
	free(path);
	assert_int_equal(rmdir(dir), 0);
}

static void accept_refuses(void **state)
{
	char dir[] = "/tmp/tiadash-accept-XXXXXX";
	struct proposal_accept a = PROPOSAL_ACCEPT_INIT;
	const char before[] = "config/**\n";
	char *path, *json, *text;

	UNUSED(state);
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/rules", dir);
	json = xstrfmt("%s/.codebase-memory.json", dir);
	spit(path, before);
	assert_int_equal(proposals_accept(path, "config/**", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(path, "a[", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(path, "a\nb", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(path, "", NULL, NULL, 0, NOW, &a), -1);
	/* These would read back as something else. */
	assert_int_equal(proposals_accept(path, "#x", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(path, "ignore x", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(path, "!x", NULL, NULL, 0, NOW, &a), -1);
	assert_int_equal(proposals_accept(json, "x/**", NULL, NULL, 0, NOW, &a), -1);
	text = slurp(path);
	assert_string_equal(text, before);
	free(text);
	/* No store, no proposals: the comment says so. */
	assert_int_equal(proposals_accept(path, "x/**", NULL, NULL, 0, NOW, &a), 0);
	assert_string_equal(a.text.buf, "# accepted 2026-11-08: no store, scored on no "
			    "history (tiadash propose)\nx/**\n");
	/* A file changed after the accept is left alone. */
	spit(path, "changed\n");
	assert_int_equal(proposals_undo_accept(&a), -1);
	text = slurp(path);
	assert_string_equal(text, "changed\n");
	free(text);
	proposal_accept_release(&a);
	unlink(path);
	free(path);
	free(json);
	assert_int_equal(rmdir(dir), 0);
}

static void accept_native_and_undo(void **state)
{
	char dir[] = "/tmp/tiadash-accept-XXXXXX";
	struct proposal_accept a = PROPOSAL_ACCEPT_INIT;
	const char before[] = "{\"test_impact\": {\"rules\": []}}\n";
	char *path, *orig, *text;

	UNUSED(state);
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/.codebase-memory.json", dir);
	orig = xstrfmt("%s.orig", path);
	spit(path, before);
	/* A selector's own configuration: rewritten whole by its adapter. */
	assert_int_equal(proposals_accept(path, "config/**", NULL, NULL, 0, NOW, &a), 0);
	assert_true(a.whole);
	assert_false(a.created);
	assert_string_equal(a.before.buf, before);
	text = slurp(path);
	assert_string_equal(text, a.text.buf);
	assert_non_null(strstr(text, "\"paths\": [\"config/**\"], \"action\": \"run_all\""));
	free(text);
	assert_int_equal(proposals_undo_accept(&a), 0);
	text = slurp(path);
	assert_string_equal(text, before);
	free(text);
	/* Twice is refused: the file is no longer what the accept wrote. */
	assert_int_equal(proposals_undo_accept(&a), -1);
	proposal_accept_release(&a);
	unlink(path);
	unlink(orig);
	free(path);
	free(orig);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- explained notes ---- */

static void notes_add_and_remove(void **state)
{
	char dir[] = "/tmp/tiadash-notes-XXXXXX";
	struct store *s;
	struct note_info *notes;
	size_t nr;
	int64_t id = 0, head_id;
	char *path;

	UNUSED(state);
	assert_non_null(mkdtemp(dir));
	path = xstrfmt("%s/s.db", dir);
	assert_int_equal(store_open(&s, path, STORE_CREATE), 0);
	assert_int_equal(store_exec(s, "INSERT INTO head (repo, sha, pr, at) "
				    "VALUES ('acme/x', 'abc', 7, 0)"), 0);
	head_id = sqlite3_last_insert_rowid(s->db);
	assert_int_equal(notes_add(s, head_id, "known flake", NOW, &id), 0);
	assert_true(id > 0);
	assert_int_equal(query_notes(s, head_id, &notes, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(notes[0].id, id);
	assert_int_equal(notes[0].created_at, NOW);
	assert_string_equal(notes[0].text, "known flake");
	notes_release(notes, nr);
	/* Blank text is refused; removing twice says there is nothing. */
	assert_int_equal(notes_add(s, head_id, " \t\n", NOW, NULL), -1);
	assert_int_equal(notes_remove(s, id), 0);
	assert_int_equal(notes_remove(s, id), 1);
	assert_int_equal(query_notes(s, head_id, &notes, &nr), 0);
	assert_int_equal(nr, 0);
	notes_release(notes, nr);
	/* A head that does not exist: the foreign key refuses it. */
	assert_int_equal(notes_add(s, head_id + 100, "x", NOW, NULL), -1);
	store_close(s);
	unlink(path);
	free(path);
	path = xstrfmt("%s/s.db-wal", dir);
	unlink(path);
	free(path);
	path = xstrfmt("%s/s.db-shm", dir);
	unlink(path);
	free(path);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(candidates_of_paths),
		cmocka_unit_test(keys_agree_with_globs),
		cmocka_unit_test(path_keys_exact),
		cmocka_unit_test(cover_cheapest_per_element),
		cmocka_unit_test(cover_counts_only_new_elements),
		cmocka_unit_test(cover_ties),
		cmocka_unit_test(cover_unknown_costs_last),
		cmocka_unit_test(cover_nothing),
		cmocka_unit_test(accept_creates_and_undo_removes),
		cmocka_unit_test(accept_appends_and_undo_restores),
		cmocka_unit_test(accept_refuses),
		cmocka_unit_test(accept_native_and_undo),
		cmocka_unit_test(notes_add_and_remove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
