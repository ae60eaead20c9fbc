/* `tiadash rules`: show the built-in rules, the effective list, or which rule a path hits. */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/options.h"
#include "core/json.h"
#include "core/rules.h"
#include "adapters/adapter.h"
#include "adapters/ruleset.h"
#include "core/sanitize.h"
#include "replay/replay.h"

#include <unistd.h>

enum rules_mode { MODE_NONE, MODE_BUILTIN, MODE_TEST, MODE_LIST, MODE_ADD };

static cJSON *rule_json(const struct rule *x)
{
	struct strbuf label = STRBUF_INIT;
	cJSON *o = cJSON_CreateObject();
	cJSON *tests = cJSON_AddArrayToObject(o, "tests");

	json_add_string(o, "id", x->id);
	json_add_string(o, "action", rules_action_name(x->action));
	json_add_string(o, "glob", x->glob);
	json_add_string(o, "name", x->name);
	json_add_string(o, "origin", x->origin);
	strbuf_reset(&label);
	rules_label(x, &label);
	json_add_string(o, "source", label.buf);
	if (x->judge)
		json_add_string(o, "judged", x->judge->when);
	for (size_t i = 0; i < x->tests.nr; i++)
		json_push_string(tests, x->tests.items[i]);
	strbuf_release(&label);
	return o;
}

static int glob_width(const struct rules *r, int w)
{
	for (size_t i = 0; i < r->nr; i++) {
		int n = (int)strlen(r->items[i].glob);

		if (n > w)
			w = n;
	}
	return w > 36 ? 36 : w;
}

/* "  (LABEL)", escaped for the terminal. */
static void print_label_text(const char *label)
{
	char *safe = sanitized(label);

	printf("  (%s)", safe);
	free(safe);
}

/* "  (LABEL)" of a rule (rules_label). */
static void print_label(const struct rule *x)
{
	struct strbuf label = STRBUF_INIT;

	rules_label(x, &label);
	print_label_text(label.buf);
	strbuf_release(&label);
}

/*
 * --list's one label: a rule whose id does not say where it is written
 * (vitest:forceRerunTriggers) names the place ("in effect:
 * vitest.config.js:9") instead of the file alone.
 */
static void print_list_label(const struct rule *x)
{
	struct strbuf label = STRBUF_INIT;

	if (x->source && strcmp(x->id, x->origin))
		strbuf_addf(&label, "in effect: %s", x->origin);
	else
		rules_label(x, &label);
	print_label_text(label.buf);
	strbuf_release(&label);
}

/* One aligned line per rule: action, glob, id, origin, where it comes from, tests. */
static void print_rules_text(const struct rules *r, int w)
{
	for (size_t i = 0; i < r->nr; i++) {
		const struct rule *x = &r->items[i];
		char *glob = sanitized(x->glob), *id = sanitized(x->id);

		printf("%-7s  %-*s  %s", rules_action_name(x->action), w, glob, id);
		print_list_label(x);
		for (size_t t = 0; t < x->tests.nr; t++) {
			char *test = sanitized(x->tests.items[t]);

			printf("%s%s", t ? " " : "  -> ", test);
			free(test);
		}
		if (x->judge)
			printf("  [%s]", x->judge->when);
		putchar('\n');
		free(glob);
		free(id);
	}
}

/* The rules in effect, then the built-in candidates. */
static void print_rules_json(const struct ruleset *s)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "rules");

	for (size_t i = 0; i < s->effect.nr; i++)
		cJSON_AddItemToArray(arr, rule_json(&s->effect.items[i]));
	for (size_t i = 0; i < s->builtin.nr; i++)
		cJSON_AddItemToArray(arr, rule_json(&s->builtin.items[i]));
	json_print_free(root, stdout);
}

static int test_paths(const struct ruleset *s, const struct strlist *paths,
		      enum output_format format)
{
	cJSON *root = NULL, *arr = NULL;
	int w = 4;

	if (format == FORMAT_JSON) {
		root = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(root, "paths");
	}
	for (size_t i = 0; i < paths->nr; i++) {
		int n = (int)strlen(paths->items[i]);

		if (n > w)
			w = n;
	}
	if (w > 40)
		w = 40;
	for (size_t i = 0; i < paths->nr; i++) {
		const char *path = paths->items[i];
		bool suggested, failed;
		const struct rule *x = ruleset_match(s, path, &suggested, &failed);

		if (failed)
			return error("cannot match '%s' against the rules", path);
		if (format == FORMAT_JSON) {
			cJSON *o = cJSON_CreateObject();

			json_add_string(o, "path", path);
			cJSON_AddItemToObject(o, "rule", x && !suggested ? rule_json(x)
							  : cJSON_CreateNull());
			cJSON_AddItemToObject(o, "suggested", suggested ? rule_json(x)
							  : cJSON_CreateNull());
			cJSON_AddItemToArray(arr, o);
		} else {
			char *p = sanitized(path);

			if (x) {
				char *glob = sanitized(x->glob), *id = sanitized(x->id);

				printf("%-*s  %-7s  %s  %s", w, p,
				       rules_action_name(x->action), glob, id);
				print_label(x);
				printf("%s%s%s\n", x->judge ? "  [" : "",
				       x->judge ? x->judge->when : "", x->judge ? "]" : "");
				free(glob);
				free(id);
			} else {
				printf("%-*s  %-7s  (no rule)\n", w, p, "-");
			}
			free(p);
		}
	}
	if (root)
		json_print_free(root, stdout);
	return 0;
}

/* Paths one per line from stdin (for long lists and scripts). */
static int read_paths(FILE *in, struct strlist *out)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(in)) {
		strbuf_release(&sb);
		return error("cannot read paths from standard input: %s",
			     strerror(errno));
	}
	for (const char *line = sb.buf, *end = sb.buf + sb.len; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (len)
			strlist_push_owned(out, xstrndup(line, len));
		line = nl ? nl + 1 : end;
	}
	strbuf_release(&sb);
	return 0;
}

/* What `tiadash rules` was asked: one mode, the rule files and paths it names. */
struct rules_args {
	struct strlist files, paths;
	enum output_format format;
	enum rules_mode mode;
	const char *repo_path;
	const char *add_glob, *into; /* --add: adapters/adapter.h */
	bool no_builtin, dry_run;
};

static struct rules_args rules;

/* --builtin, --test, --list and --add: one mode, or a usage error. */
static int opt_mode(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	enum rules_mode m = !strcmp(o->long_name, "builtin") ? MODE_BUILTIN :
			    !strcmp(o->long_name, "test") ? MODE_TEST :
			    !strcmp(o->long_name, "list") ? MODE_LIST : MODE_ADD;

	if (rules.mode != MODE_NONE && m != rules.mode)
		return m == MODE_ADD || rules.mode == MODE_ADD ?
		       usage_error(p->cmd, "--add goes alone (not with --builtin, "
				   "--test or --list)") :
		       usage_error(p->cmd, "give one of --builtin, --test and --list");
	rules.mode = m;
	if (m == MODE_ADD)
		rules.add_glob = arg;
	return 0;
}

static const struct opt rules_opts[] = {
	OPT_CALLBACK(0, "builtin", NULL, NULL,
		     "print tiadash's built-in force-full rules", opt_mode),
	OPT_CALLBACK(0, "list", NULL, NULL,
		     "print the rules in effect, first match first", opt_mode),
	OPT_CALLBACK(0, "test", NULL, NULL, "say which rule each PATH operand matches "
		     "first (paths from standard input, one a line, when none given)",
		     opt_mode),
	OPT_STRING_LIST(0, "rules", &rules.files, "FILE",
			"a rule file (repeatable, read in order): tiadash's own format, a "
			".codebase-memory.json, or a selector's config (vitest.config.*, "
			"turbo.json, .moon/tasks.yml, moon.yml, a harness YAML, "
			".gstack/always-run.json); default .tiadash/rules in the "
			"repository root, if present"),
	OPT_BOOL(0, "no-builtin-rules", &rules.no_builtin,
		 "leave the built-in force-full defaults out"),
	OPT_STRING(0, "repo", &rules.repo_path, "PATH",
		   "the repository whose .tiadash/rules is the default"),
	OPT_FORMAT(&rules.format, FORMAT_TEXT | FORMAT_JSON),
	OPT_OUTPUT(),
	OPT_CALLBACK(0, "add", NULL, "GLOB", "add GLOB as a force-full trigger to the "
		     "--into FILE (any --rules format): the diff first, then the file; "
		     "for a vitest or moon config, the snippet to paste", opt_mode),
	OPT_STRING(0, "into", &rules.into, "FILE", "the file --add writes to"),
	OPT_BOOL(0, "dry-run", &rules.dry_run, "with --add: show the diff, write nothing"),
	OPT_END(),
};

/* The options and arguments into rules; EXIT_OKAY, or the usage error's status. */
static int parse_rules_args(int argc, char **argv, struct cmd_context *ctx)
{
	struct rules_args *a = &rules;
	int argi;

	strlist_release(&a->files);
	strlist_release(&a->paths);
	a->format = FORMAT_TEXT;
	a->mode = MODE_NONE;
	a->repo_path = ctx->repo_path;
	a->add_glob = a->into = NULL;
	a->no_builtin = a->dry_run = false;
	if (parse_options(argc, argv, &cmd_rules, ctx, &argi))
		return EXIT_INPUT_ERROR;
	if (a->mode == MODE_NONE)
		return usage_error(&cmd_rules, "give one of --builtin, --test "
				   "and --list");
	if ((a->mode == MODE_ADD) != (a->into != NULL) ||
	    (a->dry_run && a->mode != MODE_ADD))
		return usage_error(&cmd_rules, a->mode == MODE_ADD ? "--add needs --into FILE"
				   : "--into and --dry-run go with --add");
	if (a->mode != MODE_TEST && argi < argc)
		return usage_error(&cmd_rules, "unexpected argument '%s'", argv[argi]);
	for (int i = argi; i < argc; i++)
		strlist_push(&a->paths, argv[i]);
	return EXIT_OKAY;
}

/* --builtin, --test and --list over the rules in effect (or the built-ins). */
static int show_rules(struct rules_args *a, struct ruleset *r)
{
	if (a->mode == MODE_BUILTIN)
		rules_add_builtin(&r->builtin);
	else if (ruleset_resolve(r, &a->files, a->repo_path,
				 !a->no_builtin ? RULESET_BUILTIN : 0) < 0)
		return EXIT_INPUT_ERROR;
	if (a->mode == MODE_TEST) {
		if (!a->paths.nr && read_paths(stdin, &a->paths) < 0)
			return EXIT_INPUT_ERROR;
		if (test_paths(r, &a->paths, a->format) < 0)
			return EXIT_INPUT_ERROR;
	} else if (a->format == FORMAT_JSON) {
		print_rules_json(r);
	} else {
		int w = glob_width(&r->builtin, glob_width(&r->effect, 4));

		print_rules_text(&r->effect, w);
		print_rules_text(&r->builtin, w);
	}
	return EXIT_OKAY;
}

static int run_rules(int argc, char **argv, struct cmd_context *ctx)
{
	struct rules_args *a = &rules;
	struct ruleset r = RULESET_INIT;
	int ret = parse_rules_args(argc, argv, ctx);

	if (ret == EXIT_OKAY && a->mode == MODE_ADD)
		ret = adapter_add(a->into, a->add_glob, a->dry_run, ctx->now) < 0 ?
		      EXIT_INPUT_ERROR : EXIT_OKAY;
	else if (ret == EXIT_OKAY)
		ret = show_rules(a, &r);
	ruleset_release(&r);
	strlist_release(&a->files);
	strlist_release(&a->paths);
	return ret;
}

const struct cmd cmd_rules = {
	.name = "rules",
	.fn = run_rules,
	.flags = OPTS_IN_ORDER,
	.usage = "tiadash rules [--rules FILE]... [--no-builtin-rules] [--repo PATH] "
		 "(--builtin | --list | --test [PATH]...) [--format text|json] [-o FILE]\n"
		 "       tiadash rules --add GLOB --into FILE [--dry-run]",
	.summary = "Show the force-full rules, or which rule each path matches.",
	.opts = rules_opts,
};
