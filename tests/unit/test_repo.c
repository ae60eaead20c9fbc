/* Git access: the three-dot diff with renames and added lines, unknown commits, trees. */
#include "core/tiadash.h"
#include "core/repo.h"
#include "tests/unit/scratch.h"

#include <setjmp.h>
#include <cmocka.h>

static char dir[] = "/tmp/tiadash-repo-XXXXXX";
static char base[41], head[41], other[41];

static void rev(struct repo *r, const char *name, char out[41])
{
	assert_int_equal(repo_resolve(r, name, out), 0);
}

/*
 * main:  init -> m2 (changes b.txt)          base = m2
 *          \
 * topic:    t1 (edits a.c, renames old.txt, deletes gone.txt, adds bin.dat)
 * island: an unrelated root commit
 */
static int setup(void **state)
{
	struct repo *r;

	UNUSED(state);
	if (!mkdtemp(dir))
		return -1;
	scratch_run(dir, SCRATCH_GIT_ENV "git init -q -b main . && "
	   "printf '1\\n2\\n3\\n' >a.c && printf 'b\\n' >b.txt && "
	   "printf 'same\\nold\\ncontent\\nhere\\n' >old.txt && echo bye >gone.txt && "
	   "git add -A && git commit -qm init && "
	   "git checkout -qb topic && printf '1\\nnew\\n2\\n3\\nend\\n' >a.c && "
	   "git mv old.txt new.txt && git rm -q gone.txt && "
	   "printf '\\000\\001\\002' >bin.dat && git add -A && git commit -qm t1 && "
	   "git checkout -q main && printf 'b\\nb2\\n' >b.txt && git commit -qam m2 && "
	   "git checkout -q --orphan island && git rm -rfq . && echo x >x && "
	   "git add x && git commit -qm island && git checkout -q main");
	if (repo_open(&r, dir) < 0)
		return -1;
	rev(r, "main", base);
	rev(r, "topic", head);
	rev(r, "island", other);
	repo_close(r);
	return 0;
}

static int teardown(void **state)
{
	UNUSED(state);
	return scratch_remove(dir);
}

static void three_dot(void **state)
{
	struct repo *r;
	struct repo_diff d = REPO_DIFF_INIT;
	const char *missing = NULL;
	struct strbuf lines = STRBUF_INIT;

	UNUSED(state);
	assert_int_equal(repo_open(&r, dir), 0);
	assert_int_equal(repo_diff_three_dot(r, base, head, 0, &d, &missing), 0);
	/* b.txt changed on main after the fork: not part of the change. */
	assert_int_equal(d.nr, 4);
	assert_string_equal(d.files[0].path, "a.c");
	assert_int_equal(d.files[0].status, CHANGE_MODIFIED);
	lineset_format(&d.files[0].added, &lines);
	assert_string_equal(lines.buf, "2,5");
	assert_string_equal(d.files[1].path, "bin.dat");
	assert_int_equal(d.files[1].status, CHANGE_ADDED);
	assert_int_equal(d.files[1].added.nr, 0);
	assert_string_equal(d.files[2].path, "gone.txt");
	assert_int_equal(d.files[2].status, CHANGE_DELETED);
	assert_string_equal(d.files[3].path, "new.txt");
	assert_int_equal(d.files[3].status, CHANGE_RENAMED);
	assert_string_equal(d.files[3].old_path, "old.txt");
	repo_diff_release(&d);
	strbuf_release(&lines);
	repo_close(r);
}

static void unknown_commits(void **state)
{
	struct repo *r;
	struct repo_diff d = REPO_DIFF_INIT;
	const char *missing = NULL;
	const char *ghost = "1111111111111111111111111111111111111111";

	UNUSED(state);
	assert_int_equal(repo_open(&r, dir), 0);
	assert_int_equal(repo_diff_three_dot(r, base, ghost, 0, &d, &missing), REPO_UNKNOWN_COMMIT);
	assert_string_equal(missing, ghost);
	assert_int_equal(repo_diff_three_dot(r, ghost, head, 0, &d, &missing), REPO_UNKNOWN_COMMIT);
	assert_string_equal(missing, ghost);
	/* Unrelated histories have no merge base. */
	assert_int_equal(repo_diff_three_dot(r, other, head, 0, &d, &missing), REPO_UNKNOWN_COMMIT);
	assert_string_equal(missing, "merge base");
	assert_int_equal(repo_diff_three_dot(r, base, "not-a-sha", 0, &d, &missing), REPO_UNKNOWN_COMMIT);
	assert_false(repo_has_commit(r, ghost));
	assert_true(repo_has_commit(r, head));
	repo_diff_release(&d);
	repo_close(r);
}

static void trees(void **state)
{
	struct repo *r;
	git_tree *t;
	struct strbuf sb = STRBUF_INIT;

	UNUSED(state);
	assert_int_equal(repo_open(&r, dir), 0);
	t = repo_tree_at(r, head);
	assert_non_null(t);
	assert_true(repo_tree_has_file(t, "new.txt"));
	assert_false(repo_tree_has_file(t, "old.txt"));
	assert_false(repo_tree_has_file(t, "nope/a.c"));
	assert_int_equal(repo_tree_read_file(r, t, "a.c", &sb), 0);
	assert_string_equal(sb.buf, "1\nnew\n2\n3\nend\n");
	assert_int_equal(repo_tree_read_file(r, t, "missing", &sb), -1);
	git_tree_free(t);
	assert_null(repo_tree_at(r, "1111111111111111111111111111111111111111"));
	strbuf_release(&sb);
	repo_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_dot),
		cmocka_unit_test(unknown_commits),
		cmocka_unit_test(trees),
	};

	return cmocka_run_group_tests_name("repo", tests, setup, teardown);
}
