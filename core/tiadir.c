/* tiadash's own .tiadash/ folder: made with the .gitignore that keeps its store, runs and worktrees out of git. */
#include "core/tiadash.h"
#include "core/tiadir.h"
#include "core/util.h"

#include <sys/stat.h>
#include <unistd.h>

int tiadir_write_gitignore(const char *dir, bool by_init)
{
	static const char by_init_head[] =
		"# Written by tiadash init: commit the rules and the config, not these.\n";
	/* Made in passing: the user's `git status` stays as it was, this file too. */
	static const char in_passing_head[] =
		"# Written by tiadash when it made this folder: commit the rules and the\n"
		"# config, not these (nor this file; `tiadash init` writes one to commit).\n"
		".gitignore\n";
	static const char lines[] =
		"tiadash.db\n"
		"tiadash.db-*\n"
		"runs/\n"
		"seed/\n"
		"worktrees/\n"
		"selector-cache/\n";
	char *path = path_join(dir, ".gitignore");
	char *in_passing = xstrfmt("%s%s", in_passing_head, lines);
	struct strbuf cur = STRBUF_INIT;
	FILE *f;
	int ret = 0;

	/* init makes the one a command made in passing the one to commit. */
	if (access(path, F_OK) != 0 ||
	    (by_init && read_regular_file(&cur, path, 4096) == 0 &&
	     !strcmp(cur.buf, in_passing))) {
		f = fopen(path, "w");
		if (!f || fputs(by_init ? by_init_head : in_passing_head, f) == EOF ||
		    fputs(lines, f) == EOF || fclose(f))
			ret = error("cannot write '%s': %s", path, strerror(errno));
		else
			ret = 1;
	}
	strbuf_release(&cur);
	free(in_passing);
	free(path);
	return ret;
}

/* The end of the first ".tiadash" component of path, or NULL. */
static const char *tiadash_component(const char *path)
{
	for (const char *p = path; (p = strstr(p, ".tiadash")) != NULL; p++)
		if ((p == path || p[-1] == '/') && (p[8] == '/' || !p[8]))
			return p + 8;
	return NULL;
}

int tiadir_prepare(const char *path)
{
	const char *end = tiadash_component(path);
	char *dir, *probe;
	int ret = 0;

	if (!end)
		return 0;
	dir = xstrndup(path, (size_t)(end - path));
	if (access(dir, F_OK) != 0) {
		probe = path_join(dir, ".gitignore");
		ret = mkdir_for_file(probe);
		free(probe);
		if (!ret && tiadir_write_gitignore(dir, false) < 0)
			ret = -1;
	}
	free(dir);
	return ret;
}
