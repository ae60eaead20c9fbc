/* The coverage a change's clean full run wrote to $TIADASH_COVERAGE (lcov or Cobertura), and
 * whether it executed a mutant's line: evidence for telling a verifier gap from an equivalent. */
#include "core/tiadash.h"
#include "ingest/coverage.h"
#include "core/input.h"
#include "seed/seed.h"

#include <unistd.h>

struct cov_read {
	struct run_coverage *out;
	const char *tree;
};

/* The record of path (made when new). */
static struct coverage_info *file_of(struct run_coverage *c, const char *path)
{
	struct coverage_info *f;

	/* Reports list a file's lines together: the last record is the usual hit. */
	for (size_t i = c->nr; i-- > 0;)
		if (!strcmp(c->files[i].path, path))
			return &c->files[i];
	ALLOC_GROW(c->files, c->nr + 1, c->alloc);
	f = &c->files[c->nr++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	return f;
}

/* Every candidate path of the line gets it, relative to the worktree when under it. */
static int on_line(const struct cov_line *l, void *data)
{
	struct cov_read *cr = data;
	size_t tlen = strlen(cr->tree);

	for (size_t i = 0; i < l->nr_paths; i++) {
		const char *p = l->paths[i];
		struct coverage_info *f;

		if (!strncmp(p, cr->tree, tlen) && p[tlen] == '/')
			p += tlen + 1;
		while (p[0] == '.' && p[1] == '/')
			p += 2;
		f = file_of(cr->out, p);
		lineset_add(&f->executable, l->line);
		if (l->hit)
			lineset_add(&f->executed, l->line);
	}
	return 0;
}

static int parse(struct input *in, struct cov_read *cr)
{
	char head[512];
	size_t n;

	if (input_peek(in, head, sizeof(head), &n) < 0)
		return -1;
	if (cobertura_sniff(head, n))
		return cobertura_parse(in, on_line, cr);
	if (lcov_sniff(head, n))
		return lcov_parse(in, on_line, cr);
	return error("%s: neither an lcov tracefile nor a Cobertura report", in->name);
}

void seed_coverage_read(const char *file, const char *tree, struct run_coverage *out)
{
	struct cov_read cr = { out, tree };
	struct strbuf why = STRBUF_INIT;
	struct input in;

	run_coverage_release(out);
	if (access(file, F_OK) < 0)
		return;
	input_from_file(&in, file);
	/* The file is removed with the runner's directory: say what wrote it. */
	free(in.name);
	in.name = xstrdup("$TIADASH_COVERAGE");
	error_capture(&why);
	if (parse(&in, &cr) < 0)
		run_coverage_release(out);
	error_capture(NULL);
	if (why.len)
		warning("the full suite's coverage report cannot be read: %s", why.buf);
	input_release(&in);
	strbuf_release(&why);
}

/* path itself, else a report path that ends with /path (a root the worktree's is not). */
static const struct coverage_info *find(const struct run_coverage *c, const char *path)
{
	size_t len = strlen(path);
	const struct coverage_info *suffix = NULL;

	for (size_t i = 0; i < c->nr; i++) {
		const char *p = c->files[i].path;
		size_t plen = strlen(p);

		if (!strcmp(p, path))
			return &c->files[i];
		if (!suffix && plen > len && p[plen - len - 1] == '/' && !strcmp(p + plen - len, path))
			suffix = &c->files[i];
	}
	return suffix;
}

enum seed_executed seed_coverage_executed(const struct run_coverage *c, const char *path,
					  int line)
{
	const struct coverage_info *f;

	if (!c->nr)
		return SEED_EXEC_NO_COVERAGE;
	if (!(f = find(c, path)))
		return SEED_EXEC_NO_FILE;
	if (line < 1 || !lineset_has(&f->executable, (uint32_t)line))
		return SEED_EXEC_NO_LINE;
	return lineset_has(&f->executed, (uint32_t)line) ? SEED_EXEC_YES : SEED_EXEC_NO;
}
