/* git's plain index from libgit2's: libgit2's own bytes, read by git, and the forms left to libgit2. */
#include "core/tiadash.h"
#include "core/gitindex.h"
#include "tests/unit/scratch.h"

#include <git2/sys/index.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

static char dir[] = "/tmp/tiadash-gitindex-XXXXXX";

static int setup(void **state)
{
	UNUSED(state);
	git_libgit2_init();
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	UNUSED(state);
	git_libgit2_shutdown();
	return scratch_remove(dir);
}

/* A fresh index of libgit2's at dir/NAME (no file yet). */
static git_index *open_index(const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	git_index *index;

	unlink(path);
	assert_int_equal(git_index_open(&index, path), 0);
	free(path);
	return index;
}

static void add(git_index *index, const char *path, unsigned mode, int stage, uint32_t n)
{
	git_index_entry e;

	memset(&e, 0, sizeof(e));
	e.ctime.seconds = (int32_t)(1700000000 + n);
	e.ctime.nanoseconds = 123456789u + n;
	e.mtime.seconds = (int32_t)(1700000100 + n);
	e.mtime.nanoseconds = 987654321u - n;
	e.dev = 2049;
	e.ino = 0x89abcdefu + n;
	e.uid = 1000;
	e.gid = 100;
	e.file_size = 0xfffffff0u + n; /* the low 32 bits of a large file's size */
	e.mode = mode;
	for (size_t i = 0; i < sizeof(e.id.id); i++)
		e.id.id[i] = (unsigned char)(n * 31 + i);
	e.path = path;
	GIT_INDEX_ENTRY_STAGE_SET(&e, stage);
	assert_int_equal(git_index_add(index, &e), 0);
}

/* The file libgit2 writes for index, read back whole. */
static void libgit2_bytes(git_index *index, struct strbuf *out)
{
	FILE *f;
	char buf[4096];
	size_t n;

	assert_int_equal(git_index_write(index), 0);
	f = fopen(git_index_path(index), "rb");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(out, buf, n);
	fclose(f);
}

static void assert_same_bytes(git_index *index)
{
	struct strbuf ours = STRBUF_INIT, theirs = STRBUF_INIT;

	strbuf_addstr(&ours, "kept"); /* appended to, not replaced */
	assert_int_equal(gitindex_serialize(index, &ours), 0);
	libgit2_bytes(index, &theirs);
	assert_int_equal(ours.len, 4 + theirs.len);
	assert_memory_equal(ours.buf, "kept", 4);
	assert_memory_equal(ours.buf + 4, theirs.buf, theirs.len);
	strbuf_release(&ours);
	strbuf_release(&theirs);
}

static void empty_index(void **state)
{
	git_index *index = open_index("empty");
	struct strbuf ours = STRBUF_INIT;

	UNUSED(state);
	assert_same_bytes(index);
	/* The header (DIRC, version 2, no entry) and SHA-1 of those 12 bytes. */
	assert_int_equal(gitindex_serialize(index, &ours), 0);
	assert_int_equal(ours.len, 32);
	assert_memory_equal(ours.buf, "DIRC\0\0\0\2\0\0\0\0", 12);
	assert_memory_equal(ours.buf + 12,
			    "\x39\xd8\x90\x13\x9e\xe5\x35\x6c\x7e\xf5\x72\x21\x6c\xeb\xcd\x27\xaa\x41\xf9\xdf", 20);
	strbuf_release(&ours);
	git_index_free(index);
}

/* Every mode, large stat fields, paths of 1 to 5000 bytes (the name length saturates at 0xfff). */
static void entries_as_libgit2_writes_them(void **state)
{
	git_index *index = open_index("entries");
	char *long_path = xmalloc(5001), *edge = xmalloc(0xfff + 1);

	UNUSED(state);
	memset(long_path, 'l', 5000);
	long_path[5000] = '\0';
	memset(edge, 'e', 0xfff);
	edge[0xfff] = '\0';
	add(index, "z", GIT_FILEMODE_BLOB, 0, 1);
	add(index, "a/b.c", GIT_FILEMODE_BLOB_EXECUTABLE, 0, 2);
	add(index, "a-b", GIT_FILEMODE_LINK, 0, 3);
	add(index, "sub", GIT_FILEMODE_COMMIT, 0, 4);
	add(index, long_path, GIT_FILEMODE_BLOB, 0, 5);
	add(index, edge, GIT_FILEMODE_BLOB, 0, 6);
	/* Each length mod 8, so that every padding (1 to 8 NULs) occurs. */
	add(index, "p1", GIT_FILEMODE_BLOB, 0, 7);
	add(index, "p12", GIT_FILEMODE_BLOB, 0, 8);
	add(index, "p123", GIT_FILEMODE_BLOB, 0, 9);
	add(index, "p1234", GIT_FILEMODE_BLOB, 0, 10);
	add(index, "p12345", GIT_FILEMODE_BLOB, 0, 11);
	add(index, "p123456", GIT_FILEMODE_BLOB, 0, 12);
	add(index, "p1234567", GIT_FILEMODE_BLOB, 0, 13);
	add(index, "p12345678", GIT_FILEMODE_BLOB, 0, 14);
	assert_same_bytes(index);
	free(long_path);
	free(edge);
	git_index_free(index);
}

/* A conflict's three stages are entries of their own, told apart by the stage bits. */
static void conflict_stages(void **state)
{
	git_index *index = open_index("conflict");

	UNUSED(state);
	add(index, "c.txt", GIT_FILEMODE_BLOB, 1, 1);
	add(index, "c.txt", GIT_FILEMODE_BLOB, 2, 2);
	add(index, "c.txt", GIT_FILEMODE_BLOB, 3, 3);
	add(index, "d.txt", GIT_FILEMODE_BLOB, 0, 4);
	assert_same_bytes(index);
	git_index_free(index);
}

/* An index of one entry, "a", at dir/NAME. */
static git_index *index_of_a(const char *name)
{
	git_index *index = open_index(name);

	add(index, "a", GIT_FILEMODE_BLOB, 0, 1);
	return index;
}

/* gitindex_serialize leaves index to libgit2: 1, nothing appended. Frees index. */
static void assert_left_to_libgit2(git_index *index)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(gitindex_serialize(index, &out), 1);
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
	git_index_free(index);
}

/* What version 2 without extensions cannot say is left to libgit2. */
static void forms_left_to_libgit2(void **state)
{
	struct strbuf out = STRBUF_INIT;
	git_index *index = index_of_a("versions");
	git_index_entry e;

	UNUSED(state);
	assert_int_equal(git_index_set_version(index, 4), 0);
	assert_int_equal(gitindex_serialize(index, &out), 1);
	assert_int_equal(git_index_set_version(index, 3), 0);
	assert_int_equal(gitindex_serialize(index, &out), 1);
	assert_int_equal(out.len, 0);
	assert_int_equal(git_index_set_version(index, 2), 0);
	assert_int_equal(gitindex_serialize(index, &out), 0);
	strbuf_release(&out);

	/* git add -N: intent to add, an extended flag (version 3). */
	memcpy(&e, git_index_get_bypath(index, "a", 0), sizeof(e));
	e.flags_extended |= GIT_INDEX_ENTRY_INTENT_TO_ADD;
	assert_int_equal(git_index_add(index, &e), 0);
	assert_left_to_libgit2(index);

	index = index_of_a("reuc");
	assert_int_equal(git_index_reuc_add(index, "r", GIT_FILEMODE_BLOB, &e.id, GIT_FILEMODE_BLOB,
					    &e.id, GIT_FILEMODE_BLOB, &e.id), 0);
	assert_left_to_libgit2(index);

	index = index_of_a("names");
	assert_int_equal(git_index_name_add(index, "a", "a", "b"), 0);
	assert_left_to_libgit2(index);

	index = index_of_a("icase");
	assert_int_equal(git_index_set_caps(index, GIT_INDEX_CAPABILITY_IGNORE_CASE), 0);
	assert_left_to_libgit2(index);
}

/*
 * git's own index of a real tree (with the tree cache it adds), read by
 * libgit2 and written back in our form over it: git reads it, finds the
 * same entries, and the tree clean.
 */
static void git_reads_it(void **state)
{
	git_index *index;
	struct strbuf out = STRBUF_INIT;
	char *path = xstrfmt("%s/repo/.git/index", dir);
	FILE *f;

	UNUSED(state);
	scratch_run(dir, SCRATCH_GIT_ENV "git init -q -b main repo && cd repo && "
	   "mkdir -p d/e && echo 1 >d/e/f.txt && echo 2 >g.sh && chmod +x g.sh && "
	   "ln -s g.sh link && echo 3 >'sp ace' && git add -A && git commit -qm one && "
	   "git ls-files -s --debug >../before");
	assert_int_equal(git_index_open(&index, path), 0);
	assert_int_equal(git_index_read(index, true), 0);
	assert_int_equal(gitindex_serialize(index, &out), 0);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(out.buf, 1, out.len, f), out.len);
	assert_int_equal(fclose(f), 0);
	scratch_run(dir, "cd repo && git ls-files -s --debug >../after && cmp ../before ../after && "
	   "test -z \"$(git status --porcelain)\" && git fsck --no-dangling --no-progress");
	/* And libgit2 reads it back, its checksum verified, the same four entries. */
	assert_int_equal(git_index_read(index, true), 0);
	assert_int_equal(git_index_entrycount(index), 4);
	assert_string_equal(git_index_get_byindex(index, 3)->path, "sp ace");
	git_index_free(index);
	strbuf_release(&out);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_index),
		cmocka_unit_test(entries_as_libgit2_writes_them),
		cmocka_unit_test(conflict_stages),
		cmocka_unit_test(forms_left_to_libgit2),
		cmocka_unit_test(git_reads_it),
	};

	return cmocka_run_group_tests_name("gitindex", tests, setup, teardown);
}
