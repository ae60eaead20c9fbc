/* `tiadash show PR|SHA`: one pair in full, the batch twin of the dashboard's detail view. */
#include "core/tiadash.h"
#include "core/output.h"
#include "core/textfit.h"
#include "core/cli.h"
#include "core/commands.h"
#include "core/config.h"
#include "core/rules.h"
#include "adapters/ruleset.h"
#include "core/json.h"
#include "core/repo.h"
#include "core/rekey.h"
#include "core/sanitize.h"
#include "core/table.h"
#include "core/timeutil.h"
#include "metrics/blind.h"
#include "metrics/classify.h"
#include "metrics/trust.h"
#include "metrics/verifier.h"


struct show {
	struct store *store;
	bool color;         /* the class in colour (a terminal, core/output.h) */
	struct ruleset rules; /* the rules in effect and the built-ins, for each changed path */
	struct pair_info pair;
	struct pair_verdict v;
	struct diff_info diff;
	bool has_diff;
	const struct run_info *sel_run; /* latest shadow attempt, as its pair answers it */
	struct note_info *notes; /* explained notes of the head, oldest first */
	size_t nr_notes;
	bool *missed_blind;      /* per missed test: no narrowed selection ever named it */
	struct verifier verifier; /* .found: the verifier check of the PR's heads */
	struct strlist why_missed; /* per v.missed: why no entry named it */
};


static int run_failed(struct show *sh, const struct run_info *r, struct strlist *out)
{
	return query_run_failed_ids(sh->store, r->id, out);
}

/* The run whose diff the pair shows: the latest shadow attempt, else the latest full. */
static const struct run_info *diff_run(const struct show *sh)
{
	const struct run_info *r = pair_latest(&sh->pair, RUN_SHADOW);

	return r && r->diff_id ? r : pair_latest(&sh->pair, RUN_FULL);
}

static const char *pair_base(const struct show *sh)
{
	const struct run_info *r = diff_run(sh);

	return r && *r->base ? r->base : NULL;
}

static cJSON *json_strings(const struct strlist *l)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; i < l->nr; i++)
		json_push_string(arr, l->items[i]);
	return arr;
}

/* The diff's files as rows (core/table.h): JSON's "changed". */
static const struct table_column changed_columns[] = {
	{ .key = "path", .type = CELL_PATH },
	{ .key = "status", .type = CELL_CLASS },
	{ .key = "old_path", .type = CELL_PATH },
	{ .key = "rule", .type = CELL_TEXT },
	{ .key = "rule_source", .type = CELL_PATH },
	{ .key = "suggested", .type = CELL_TEXT },
};

static cJSON *json_changed(const struct show *sh)
{
	struct table t = TABLE_INIT(changed_columns);
	cJSON *arr;

	for (size_t i = 0; sh->has_diff && i < sh->diff.nr; i++) {
		const struct diff_file_info *f = &sh->diff.files[i];

		table_row(&t);
		table_str(&t, f->path);
		table_str(&t, change_status_name(f->status));
		table_str(&t, f->old_path);
		ruleset_path_cells(&sh->rules, f->path, &t);
	}
	arr = table_json(&t);
	table_release(&t);
	return arr;
}

/* The pair's runs as rows (core/table.h): JSON's "runs". */
static const struct table_column run_columns[] = {
	{ .key = "kind", .type = CELL_CLASS },
	{ .key = "attempt", .type = CELL_COUNT },
	{ .key = "verdict", .type = CELL_CLASS },
	{ .key = "wall_clock_s", .type = CELL_SECONDS },
	{ .key = "tests", .type = CELL_COUNT },
	{ .key = "failed", .type = CELL_ID },
	{ .key = "skipped", .type = CELL_COUNT },
	{ .key = "errors", .type = CELL_COUNT },
	{ .key = "started_at", .type = CELL_TIME },
	{ .key = "git", .type = CELL_CLASS },
};

static int run_rows(struct show *sh, struct table *t)
{
	for (size_t i = 0; i < sh->pair.nr; i++) {
		const struct run_info *r = &sh->pair.runs[i];
		struct strlist failed = STRLIST_INIT;

		if (run_failed(sh, r, &failed) < 0)
			return -1;
		table_row(t);
		table_str(t, run_kind_name(r->kind));
		table_count(t, r->attempt);
		table_str(t, verdict_name(r->verdict));
		table_number(t, r->wall_clock_s);
		table_count(t, r->tests);
		table_list(t, &failed);
		table_count(t, r->skipped);
		table_count(t, r->errors);
		table_time(t, r->started_at);
		table_str(t, git_state_name(r->git));
		strlist_release(&failed);
	}
	return 0;
}

static int count_entry(const char *entry, size_t len, void *data)
{
	UNUSED(entry), UNUSED(len);
	(*(size_t *)data)++;
	return 0;
}

/*
 * The selection, its entries streamed when printed (json_print_streamed):
 * a selection of 10^6 entries is never held as a list. NULL after error()
 * (a corrupt selection, found before anything is printed).
 */
static cJSON *json_selection(struct show *sh, const struct run_info *r)
{
	size_t n = 0;
	cJSON *o;

	if (!r || r->decision == DECISION_NONE)
		return cJSON_CreateNull();
	if (query_selection_each(sh->store, r->id, count_entry, &n) < 0)
		return NULL;
	o = cJSON_CreateObject();
	json_add_string(o, "decision", decision_name(r->decision));
	cJSON_AddItemToObject(o, "reasons", json_strings(&r->reasons));
	json_add_opt_int(o, "selected_count", r->has_selected, r->selected_count);
	json_add_opt_int(o, "total_tests", r->has_total, r->total_tests);
	json_add_number(o, "affected_fraction", run_affected_fraction(r));
	cJSON_AddItemToObject(o, "entries", json_stream_slot());
	return o;
}

struct entries_out {
	json_put_fn put;
	void *out;
};

static int put_entry(const char *entry, size_t len, void *data)
{
	struct entries_out *eo = data;

	return eo->put(entry, len, eo->out);
}

static int each_entry(json_put_fn put, void *out, void *data)
{
	struct show *sh = data;
	struct entries_out eo = { put, out };

	return query_selection_each(sh->store, sh->sel_run->id, put_entry, &eo);
}

static int print_json(struct show *sh)
{
	cJSON *root = cJSON_CreateObject();
	struct table runs = TABLE_INIT(run_columns);
	cJSON *sel;

	json_add_opt_int(root, "pr", sh->pair.has_pr, sh->pair.pr);
	json_add_string(root, "repo", sh->pair.repo);
	json_add_string(root, "head", sh->pair.sha);
	json_add_string_or_null(root, "base", pair_base(sh));
	json_add_string(root, "class", pair_class_name(sh->v.cls));
	json_add_string_or_null(root, "why", sh->v.why);
	cJSON_AddItemToObject(root, "changed", json_changed(sh));
	if (run_rows(sh, &runs) < 0) {
		table_release(&runs);
		cJSON_Delete(root);
		return -1;
	}
	cJSON_AddItemToObject(root, "runs", table_json(&runs));
	table_release(&runs);
	sel = json_selection(sh, sh->sel_run);
	if (!sel) {
		cJSON_Delete(root);
		return -1;
	}
	cJSON_AddItemToObject(root, "selection", sel);
	cJSON_AddItemToObject(root, "missed", json_strings(&sh->v.missed));
	{
		cJSON *blind = cJSON_AddArrayToObject(root, "missed_blind_spots");
		cJSON *vc = cJSON_AddArrayToObject(root, "verifier_changed");

		for (size_t i = 0; i < sh->v.missed.nr; i++)
			if (sh->missed_blind[i])
				json_push_string(blind, sh->v.missed.items[i]);
		for (size_t i = 0; i < sh->verifier.nr; i++)
			cJSON_AddItemToArray(vc, trust_json_verifier(&sh->verifier.found[i], NULL));
	}
	cJSON_AddItemToObject(root, "why_missed", json_strings(&sh->why_missed));
	cJSON_AddItemToObject(root, "non_hermetic", json_strings(&sh->v.non_hermetic));
	cJSON_AddItemToObject(root, "not_run", json_strings(&sh->v.not_run));
	cJSON_AddItemToObject(root, "flaky", json_strings(&sh->v.flaky));
	cJSON_AddItemToObject(root, "quarantined", json_strings(&sh->v.quarantined));
	cJSON_AddItemToObject(root, "inherited", json_strings(&sh->v.inherited));
	cJSON_AddItemToObject(root, "latent_missed", json_strings(&sh->v.latent));
	cJSON_AddItemToObject(root, "unresolved", json_strings(&sh->v.unresolved));
	json_add_string_or_null(root, "main_run", sh->v.cover.run_id ? sh->v.cover.sha : NULL);
	json_add_number(root, "diff_coverage", run_diff_coverage(sh->sel_run));
	json_add_bool(root, "explained", sh->nr_notes > 0);
	json_add_string_or_null(root, "note",
				sh->nr_notes ? sh->notes[sh->nr_notes - 1].text : NULL);
	return json_print_streamed(root, stdout, each_entry, sh) < 0 ? -1 : 0;
}

/* Text output: labels in a column, untrusted strings sanitized. */
static void put_label(const char *label)
{
	printf("%-12s", label);
}

static void put_safe(const char *s)
{
	char *clean = sanitized(s);

	fputs(clean, stdout);
	free(clean);
}

static void put_list(const char *label, const struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		put_label(i ? "" : label);
		put_safe(l->items[i]);
		putchar('\n');
	}
}

static void put_class(const struct show *sh)
{
	const char *sgr = sh->color ? metrics_class_color(sh->v.cls) : NULL;

	printf("%s%s%s", sgr ? sgr : "", pair_class_name(sh->v.cls), sgr ? COLOR_RESET : "");
}

static void text_header(const struct show *sh)
{
	const char *base = pair_base(sh);

	if (sh->pair.has_pr)
		printf("PR #%" PRId64 "  ", sh->pair.pr);
	else
		fputs("push  ", stdout);
	if (*sh->pair.repo) {
		put_safe(sh->pair.repo);
		fputs("  ", stdout);
	}
	printf("head %.12s  base %.12s\n", sh->pair.sha, base ? base : "-");
	put_label("class");
	put_class(sh);
	if (sh->v.why)
		printf(" (%s)", sh->v.why);
	putchar('\n');
}

static void text_missed(const struct show *sh)
{
	for (size_t i = 0; i < sh->v.missed.nr; i++) {
		put_label(i ? "" : "missed");
		put_safe(sh->v.missed.items[i]);
		if (sh->missed_blind[i])
			fputs("  (blind spot: no narrowed selection names it)", stdout);
		putchar('\n');
		if (i < sh->why_missed.nr) {
			put_label("");
			fputs("  why: ", stdout);
			put_safe(sh->why_missed.items[i]);
			putchar('\n');
		}
	}
}

static void text_verifier(const struct show *sh)
{
	for (size_t i = 0; i < sh->verifier.nr; i++) {
		const struct metrics_verifier *v = &sh->verifier.found[i];
		struct strbuf sb = STRBUF_INIT;

		/* A line each, so that the text fits 80 columns. */
		put_label(i ? "" : "verifier");
		put_safe(v->test);
		putchar('\n');
		put_label("");
		fputs("failed identically in ", stdout);
		trust_fmt_attempts(&sb, v->failed, v->nr_failed);
		fputs(sb.buf, stdout);
		strbuf_reset(&sb);
		trust_fmt_attempts(&sb, &v->passed, 1);
		putchar('\n');
		put_label("");
		printf("and went green in %s after a change to tests,\n", sb.buf);
		put_label("");
		printf("fixtures or config only (%s):\n", v->from_git ? "git" : "stored diffs");
		for (size_t j = 0; j < v->changed.nr; j++) {
			put_label("");
			fputs("  ", stdout);
			put_safe(v->changed.items[j]);
			putchar('\n');
		}
		strbuf_release(&sb);
	}
}

static void text_notes(const struct show *sh)
{
	for (size_t i = 0; i < sh->nr_notes; i++) {
		struct strbuf when = STRBUF_INIT;

		time_format_date(&when, sh->notes[i].created_at);
		put_label(i ? "" : "explained");
		put_safe(sh->notes[i].text);
		printf(" (%s)\n", when.buf);
		strbuf_release(&when);
	}
}

static void text_selection(const struct run_info *r)
{
	double af = run_affected_fraction(r);

	put_label("selection");
	if (!r || r->decision == DECISION_NONE) {
		puts("-");
		return;
	}
	fputs(decision_name(r->decision), stdout);
	if (r->has_selected && r->has_total)
		printf(", %" PRId64 " of %" PRId64 " tests", r->selected_count, r->total_tests);
	if (!isnan(af))
		printf(" (affected %.2f)", af);
	putchar('\n');
	put_list("reasons", &r->reasons);
}

static void text_coverage(const struct run_info *r)
{
	double dc = run_diff_coverage(r);

	put_label("diff cov");
	if (isnan(dc))
		puts("n/a");
	else
		printf("%.2f (%" PRId64 " of %" PRId64 " changed executable lines run)\n",
		       dc, r->cov_hit, r->cov_lines);
}

static void text_changed(const struct show *sh)
{
	struct strbuf rule = STRBUF_INIT;

	put_label("changed");
	if (!sh->has_diff) {
		puts(sh->diff.unknown ? "unknown (the commits are not in the repository)"
				      : "unknown (no diff recorded: no base, or no repository at ingest)");
		return;
	}
	if (!sh->diff.nr)
		puts("(nothing)");
	for (size_t i = 0; i < sh->diff.nr; i++) {
		const struct diff_file_info *f = &sh->diff.files[i];

		if (i)
			put_label("");
		printf("%c ", f->status);
		put_safe(f->path);
		if (f->old_path) {
			fputs(" <- ", stdout);
			put_safe(f->old_path);
		}
		strbuf_reset(&rule);
		ruleset_path_text(&sh->rules, f->path, &rule);
		if (strcmp(rule.buf, "no rule")) {
			fputs("  [", stdout);
			put_safe(rule.buf);
			putchar(']');
		}
		putchar('\n');
	}
	strbuf_release(&rule);
}

static int text_runs(struct show *sh)
{
	for (size_t i = 0; i < sh->pair.nr; i++) {
		const struct run_info *r = &sh->pair.runs[i];
		struct strbuf when = STRBUF_INIT;
		struct strlist failed = STRLIST_INIT;

		if (run_failed(sh, r, &failed) < 0)
			return -1;
		/* The detail view's line: it fits 80 columns (JSON has the time whole). */
		time_format(&when, r->started_at);
		put_label(i ? "" : "runs");
		printf("%-6s #%-2d %-5s %.5s %.5s ", run_kind_name(r->kind), r->attempt,
		       verdict_name(r->verdict), when.buf + 5, when.buf + 11);
		if (isnan(r->wall_clock_s))
			fputs("    - s", stdout);
		else
			printf("%5.0f s", r->wall_clock_s);
		printf(" %" PRId64 " tests, %zu failed, %" PRId64 " skipped\n",
		       r->tests, failed.nr, r->skipped);
		for (size_t j = 0; j < failed.nr; j++) {
			put_label("");
			fputs("  failed ", stdout);
			put_safe(failed.items[j]);
			putchar('\n');
		}
		strbuf_release(&when);
		strlist_release(&failed);
	}
	return 0;
}

/* The run of main the pair's failures were read against, or why there is none. */
static void text_main(const struct show *sh)
{
	if (sh->v.cover.run_id) {
		put_label("main");
		printf("read against main's run at %.12s: red there on %zu of its failures\n",
		       sh->v.cover.sha, sh->v.inherited.nr);
	} else if (pair_class_is_escape(sh->v.cls)) {
		put_label("main");
		fputs("no run of main covers its base: record main's post-merge runs\n", stdout);
	}
}

static int print_text(struct show *sh)
{
	text_header(sh);
	text_notes(sh);
	text_verifier(sh);
	text_missed(sh);
	put_list("selected", &sh->v.non_hermetic);
	put_list("not run", &sh->v.not_run);
	put_list("flaky", &sh->v.flaky);
	put_list("quarantined", &sh->v.quarantined);
	put_list("inherited", &sh->v.inherited);
	put_list("latent miss", &sh->v.latent);
	put_list("unresolved", &sh->v.unresolved);
	text_main(sh);
	text_selection(sh->sel_run);
	text_coverage(sh->sel_run);
	text_changed(sh);
	return text_runs(sh);
}

/* Which missed tests no narrowed selection of the store (this repo) ever named. */
static int load_blind(struct show *sh, const struct idmap *map)
{
	struct window all = { INT64_MIN, INT64_MAX, sh->pair.repo };
	struct idset selected = IDSET_INIT;
	struct blind_input in = { .union_only = true };
	int ret = 0;

	sh->missed_blind = xcalloc(sh->v.missed.nr ? sh->v.missed.nr : 1,
				   sizeof(*sh->missed_blind));
	if (sh->v.missed.nr)
		ret = blind_selected_union(sh->store, map, &all, &selected, &in);
	for (size_t i = 0; !ret && i < sh->v.missed.nr; i++)
		sh->missed_blind[i] = !blind_id_selected(&selected, sh->v.missed.items[i]);
	idset_release(&selected);
	blind_input_release(&in);
	return ret;
}

struct pr_attempts {
	struct verifier_attempt *att;
	size_t nr, alloc;
	struct strlist shas; /* of the heads (the attempts' row) */
};

static int add_pr_head(const struct pair_info *p, void *data)
{
	struct pr_attempts *a = data;

	verifier_add_head(&a->att, &a->nr, &a->alloc, p, a->shas.nr);
	strlist_push(&a->shas, p->sha);
	return 0;
}

/* The verifier check over the shadow attempts of the pair's PR (or its head). */
static int load_verifier(struct show *sh, struct cmd_context *ctx)
{
	struct pr_attempts a = { 0 };
	int ret = verifier_init(&sh->verifier, ctx->store, ctx->repo_later);

	if (!ret && sh->pair.has_pr)
		ret = query_pr_heads(ctx->store, sh->pair.repo, sh->pair.pr, add_pr_head, &a);
	else if (!ret)
		add_pr_head(&sh->pair, &a);
	for (size_t i = 0; i < a.nr; i++)
		a.att[i].sha = a.shas.items[a.att[i].row];
	if (!ret)
		ret = verifier_check(&sh->verifier, a.att, a.nr);
	free(a.att);
	strlist_release(&a.shas);
	return ret;
}

static int load(struct show *sh, struct cmd_context *ctx, const char *what)
{
	struct config cfg = CONFIG_INIT;
	const struct run_info *dr;
	int rc = query_pair_lookup(ctx->store, what, &sh->pair);

	if (rc == 1)
		return error("no pair for '%s' in the store (give a PR number or "
			     "a commit)", what);
	if (rc < 0 || rekey_config_load(&cfg, ctx) < 0)
		return -1;
	rc = classify_pair(ctx->store, cfg.idmap, &sh->pair, &sh->v);
	if (!rc)
		rc = load_blind(sh, cfg.idmap);
	if (!rc)
		rc = explain_missed(ctx->store, cfg.idmap, &sh->v, &sh->why_missed);
	config_release(&cfg);
	if (!rc)
		rc = load_verifier(sh, ctx);
	if (rc < 0)
		return -1;
	sh->sel_run = sh->v.shadow; /* as its pair answers it (SPEC 4, whole-suite) */
	dr = diff_run(sh);
	if (dr && dr->diff_id) {
		rc = query_diff(ctx->store, dr->diff_id, &sh->diff);
		if (rc < 0)
			return -1;
		sh->has_diff = rc == 0 && !sh->diff.unknown;
	}
	return query_notes(ctx->store, sh->pair.head_id, &sh->notes, &sh->nr_notes);
}

static struct {
	enum output_format format;
	struct strlist rule_files;
	bool no_builtin;
	enum color_when color;
} show_o;

static const struct opt show_opts[] = {
	OPT_FORMAT(&show_o.format, FORMAT_TEXT | FORMAT_JSON),
	OPT_OUTPUT(),
	OPT_STRING_LIST(0, "rules", &show_o.rule_files, "FILE", "a rule file or selector "
			"config in effect (repeatable; default: those found at the repository "
			"root)"),
	OPT_BOOL(0, "no-builtin-rules", &show_o.no_builtin,
		 "suggest no built-in force-full default"),
	OPT_COLOR(&show_o.color, "the class in colour: always, never, or auto (on a "
		  "terminal, unless NO_COLOR is set)"),
	OPT_END(),
};

static int run_show(int argc, char **argv, struct cmd_context *ctx)
{
	struct show sh = { .store = ctx->store, .rules = RULESET_INIT };
	struct strlist rule_files = STRLIST_INIT;
	enum output_format format;
	enum color_when color;
	bool builtin;
	int argi, ret;

	memset(&show_o, 0, sizeof(show_o));
	show_o.format = FORMAT_TEXT;
	show_o.color = COLOR_AUTO;
	ret = parse_options(argc, argv, &cmd_show, ctx, &argi);
	rule_files = show_o.rule_files;
	format = show_o.format;
	color = show_o.color;
	builtin = !show_o.no_builtin;
	if (ret) {
		strlist_release(&rule_files);
		return EXIT_INPUT_ERROR;
	}
	if (argi + 1 != argc) {
		strlist_release(&rule_files);
		return usage_error(&cmd_show, "give one PR number or commit");
	}
	ret = ruleset_resolve(&sh.rules, &rule_files, ctx->repo_path,
			      builtin ? RULESET_BUILTIN : 0);
	if (!ret)
		ret = load(&sh, ctx, argv[argi]);
	sh.color = color_wanted(color);
	if (!ret && format == FORMAT_TEXT)
		text_fit_stdout();
	if (!ret)
		ret = format == FORMAT_JSON ? print_json(&sh) : print_text(&sh);
	pair_verdict_release(&sh.v);
	strlist_release(&sh.why_missed);
	pair_info_release(&sh.pair);
	free(sh.missed_blind);
	for (size_t i = 0; i < sh.verifier.nr; i++)
		metrics_verifier_release(&sh.verifier.found[i]);
	free(sh.verifier.found);
	verifier_release(&sh.verifier);
	notes_release(sh.notes, sh.nr_notes);
	diff_info_release(&sh.diff);
	ruleset_release(&sh.rules);
	strlist_release(&rule_files);
	return ret < 0 ? EXIT_INPUT_ERROR : EXIT_OKAY;
}

const struct cmd cmd_show = {
	.name = "show",
	.fn = run_show,
	.flags = NEED_DB_RO | WANT_REPO,
	.usage = "tiadash show [--format text|json] [-o FILE] [--rules FILE]... "
		 "[--no-builtin-rules] [--color[=WHEN]] PR|SHA",
	.summary = "Show one pair: class, missed tests, changed files, runs, diff coverage.",
	.intro = "PR is a pull request number (or #N); SHA a commit or a unique prefix.\n"
		 "Each changed file is shown with the first rule in effect it matches, else\n"
		 "the built-in it would (suggested: built-in).\n",
	.opts = show_opts,
};
