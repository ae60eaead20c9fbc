/* `tiadash diff BASE HEAD`: the change of a run exactly as ingest reads it (SPEC 3.4). */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/json.h"
#include "core/options.h"
#include "core/repo.h"
#include "core/sanitize.h"

static struct {
	enum output_format format;
	bool no_renames;
} diff;

static const struct opt diff_opts[] = {
	OPT_FORMAT(&diff.format, FORMAT_TEXT | FORMAT_JSON),
	OPT_BOOL(0, "no-renames", &diff.no_renames, "a renamed file is a deletion and an "
		 "addition, as `git diff --no-renames` shows it"),
	OPT_END(),
};

/* The added lines as [[first, last], ...]: the ranges lineset_format writes. */
static cJSON *ranges_json(const struct lineset *s)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < s->nr;) {
		size_t j = i;
		cJSON *r = cJSON_CreateArray();

		while (j + 1 < s->nr && s->v[j + 1] == s->v[j] + 1)
			j++;
		cJSON_AddItemToArray(r, cJSON_CreateNumber(s->v[i]));
		cJSON_AddItemToArray(r, cJSON_CreateNumber(s->v[j]));
		cJSON_AddItemToArray(arr, r);
		i = j + 1;
	}
	return arr;
}

static void print_json(const char *base, const char *head, const struct repo_diff *d)
{
	cJSON *root = cJSON_CreateObject(), *files;

	json_add_string(root, "base", base);
	json_add_string(root, "head", head);
	json_add_string(root, "merge_base", d->merge_base);
	files = cJSON_AddArrayToObject(root, "files");
	for (size_t i = 0; i < d->nr; i++) {
		const struct changed_file *f = &d->files[i];
		cJSON *o = cJSON_CreateObject();

		json_add_string(o, "path", f->path);
		json_add_string(o, "status", change_status_name(f->status));
		if (f->old_path)
			json_add_string(o, "old_path", f->old_path);
		cJSON_AddItemToObject(o, "added", ranges_json(&f->added));
		cJSON_AddItemToArray(files, o);
	}
	json_print_free(root, stdout);
}

static void print_text(const char *base, const char *head, const struct repo_diff *d)
{
	struct strbuf sb = STRBUF_INIT;
	size_t lines = 0;

	for (size_t i = 0; i < d->nr; i++)
		lines += d->files[i].added.nr;
	printf("%.12s...%.12s (merge base %.12s): %zu %s, %zu added %s\n", base, head,
	       d->merge_base, d->nr, d->nr == 1 ? "file" : "files", lines,
	       lines == 1 ? "line" : "lines");
	for (size_t i = 0; i < d->nr; i++) {
		const struct changed_file *f = &d->files[i];

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%c  ", f->status);
		sanitize_text(&sb, f->path, strlen(f->path));
		if (f->old_path) {
			strbuf_addstr(&sb, " (from ");
			sanitize_text(&sb, f->old_path, strlen(f->old_path));
			strbuf_addch(&sb, ')');
		}
		if (f->added.nr) {
			strbuf_addstr(&sb, "  +");
			lineset_format(&f->added, &sb);
		}
		puts(sb.buf);
	}
	strbuf_release(&sb);
}

static int run_diff(int argc, char **argv, struct cmd_context *ctx)
{
	struct repo_diff d = REPO_DIFF_INIT;
	char base[41], head[41];
	const char *missing;
	unsigned flags;
	int rc, argi;

	diff.format = FORMAT_TEXT;
	diff.no_renames = false;
	if (parse_options(argc, argv, &cmd_diff, ctx, &argi))
		return EXIT_INPUT_ERROR;
	flags = diff.no_renames ? REPO_DIFF_NO_RENAMES : 0;
	if (argc - argi != 2)
		return usage_error(&cmd_diff, "give BASE and HEAD");
	if (repo_resolve(ctx->repo, argv[argi], base) < 0 ||
	    repo_resolve(ctx->repo, argv[argi + 1], head) < 0)
		return EXIT_INPUT_ERROR;
	rc = repo_diff_three_dot(ctx->repo, base, head, flags, &d, &missing);
	if (rc == REPO_UNKNOWN_COMMIT)
		rc = error("%s...%s: no %s in the repository at '%s'", argv[argi],
			   argv[argi + 1], missing, ctx->repo->root);
	if (rc == 0 && diff.format == FORMAT_JSON)
		print_json(base, head, &d);
	else if (rc == 0)
		print_text(base, head, &d);
	repo_diff_release(&d);
	return rc < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_diff = {
	.name = "diff",
	.fn = run_diff,
	.flags = NEED_REPO,
	.usage = "tiadash diff [--format text|json] [--no-renames] BASE HEAD",
	.summary = "Print a change as ingest reads it: the three-dot diff's files and added lines.",
	.opts = diff_opts,
};
