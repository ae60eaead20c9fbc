/* The selectors' own outputs (vitest, turbo, pytest-testmon, moon, gstack, cbm) read as selections. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/ruleconf.h"
#include "core/strmap.h"
#include "ingest/cbm.h"
#include "ingest/native.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static const struct {
	const char *name;
	enum native_format f;
	const char *what; /* how messages name the output */
} formats[] = {
	{ "vitest", NATIVE_VITEST, "vitest list output" },
	{ "turbo", NATIVE_TURBO, "turbo output" },
	{ "testmon", NATIVE_TESTMON, "pytest collect-only output" },
	{ "pytest", NATIVE_TESTMON, "pytest collect-only output" },
	{ "moon", NATIVE_MOON, "moon query output" },
	{ "gstack", NATIVE_GSTACK, "gstack key output" },
	{ "cbm", NATIVE_CBM, "codebase-memory-mcp answer" },
	{ "codebase-memory-mcp", NATIVE_CBM, "codebase-memory-mcp answer" },
};

const char native_format_list[] = "vitest, turbo, testmon, moon, gstack, cbm";

bool native_format_parse(const char *name, enum native_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(name, formats[i].name)) {
			*out = formats[i].f;
			return true;
		}
	}
	return false;
}

const char *native_format_name(enum native_format f)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i].f == f)
			return formats[i].name;
	BUG("unknown native format %d", (int)f);
}

static const char *format_what(enum native_format f)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i].f == f)
			return formats[i].what;
	BUG("unknown native format %d", (int)f);
}

void native_answer_release(struct native_answer *a)
{
	strlist_release(&a->reasons);
	strlist_release(&a->entries);
	a->decision = DECISION_NONE;
	a->has_selected = false;
	a->selected_count = 0;
}

/* One read: the text, its name, what to call it, and the entries seen. */
struct nctx {
	const char *text;
	size_t len;
	const char *name;
	const char *what;
	const struct native_opts *opts;
	struct native_answer *out;
	struct strmap seen;
};

/* Line of the first occurrence of needle in the text, or 0. */
static int line_of(const struct nctx *c, const char *needle)
{
	const char *hit;

	if (!needle || !*needle)
		return 0;
	hit = memmem(c->text, c->len, needle, strlen(needle));
	return hit ? line_of_offset(c->text, c->len, (size_t)(hit - c->text)) : 0;
}

static int shape_error(const struct nctx *c, int line, const char *fmt, ...)
	ATTR_FORMAT(3, 4);

static int shape_error(const struct nctx *c, int line, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (line > 0)
		error("%s:%d: %s: %s", c->name, line, c->what, msg.buf);
	else
		error("%s: %s: %s", c->name, c->what, msg.buf);
	strbuf_release(&msg);
	return -1;
}

/* The line of a JSON string value ("value" as written), or 0. */
static int value_line(const struct nctx *c, const char *value)
{
	char *needle = xstrfmt("\"%s\"", value);
	int line = line_of(c, needle);

	free(needle);
	return line;
}

static void add_entry(struct nctx *c, const char *e)
{
	bool added;

	strmap_intern(&c->seen, e, strlen(e), 0, &added);
	if (added)
		strlist_push(&c->out->entries, e);
}

static void add_reason(struct nctx *c, const char *r)
{
	for (size_t i = 0; i < c->out->reasons.nr; i++)
		if (!strcmp(c->out->reasons.items[i], r))
			return;
	strlist_push(&c->out->reasons, r);
}

/*
 * A repository-relative path from one a tool printed: an absolute path
 * loses the root (which it must be under), "./" is dropped, and ".."
 * segments are refused. Caller frees *out.
 */
static int repo_path(const struct nctx *c, const char *p, int line, char **out)
{
	const char *root = c->opts->root;
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (p[0] == '/') {
		size_t n;

		if (!root || !*root)
			return shape_error(c, line, "'%s' is an absolute path: give the "
					   "directory the tool ran in (\"root\" in the "
					   "manifest's selection, --selection-root) so it "
					   "can be made repository-relative", p);
		n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			n--;
		if (strncmp(p, root, n) || (p[n] != '/' && n != 1))
			return shape_error(c, line, "'%s' is not under the root '%s'",
					   p, root);
		p += n == 1 ? 1 : n + 1;
	}
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	strbuf_addstr(&sb, p);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (!sb.len || !path_is_contained(sb.buf)) {
		shape_error(c, line, "'%s' is not a path inside the repository", p);
		strbuf_release(&sb);
		return -1;
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static const cJSON *item(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNull(v) ? NULL : v;
}

/* ---- vitest list --json ---- */

/*
 * `vitest list --json` prints an array of {"name", "file", "projectName"?,
 * "location"?}, one per test; with --filesOnly, {"file", "projectName"?}
 * per test file. "file" is the module id: an absolute path.
 */
static int read_vitest(struct nctx *c, const cJSON *root)
{
	const cJSON *el;
	int64_t tests = 0, files_only = 0;
	size_t i = 0;

	if (!cJSON_IsArray(root))
		return shape_error(c, 1, "expected an array of {\"name\", \"file\"} "
				   "(vitest list --json)");
	cJSON_ArrayForEach(el, root) {
		const cJSON *file = item(el, "file"), *name = item(el, "name");
		char *path;
		int line;

		if (!cJSON_IsObject(el))
			return shape_error(c, 0, "element %zu is not an object", i);
		if (!cJSON_IsString(file) || !*file->valuestring)
			return shape_error(c, name && cJSON_IsString(name) ?
					   value_line(c, name->valuestring) : 0,
					   "element %zu has no \"file\" string", i);
		line = value_line(c, file->valuestring);
		if (name && !cJSON_IsString(name))
			return shape_error(c, line, "element %zu: \"name\" is not a string", i);
		if (item(el, "projectName") && !cJSON_IsString(item(el, "projectName")))
			return shape_error(c, line, "element %zu: \"projectName\" is "
					   "not a string", i);
		if (repo_path(c, file->valuestring, line, &path) < 0)
			return -1;
		add_entry(c, path);
		free(path);
		if (name)
			tests++;
		else
			files_only++;
		i++;
	}
	if (tests && files_only)
		return shape_error(c, 0, "mixes tests (with \"name\") and files "
				   "(without): not one vitest list");
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	if (!files_only) {
		c->out->has_selected = true;
		c->out->selected_count = tests;
	}
	return 0;
}

/* ---- turbo ---- */

static void total_packages(struct nctx *c, size_t nr, const char *reason)
{
	if (nr && c->opts->has_total_packages &&
	    (int64_t)nr == c->opts->total_packages) {
		c->out->decision = DECISION_RUN_ALL;
		add_reason(c, reason);
	}
}

/* A turbo directory: OS separators to '/'. Caller frees. */
static char *slashed(const char *s)
{
	char *d = xstrdup(s);

	for (char *p = d; *p; p++)
		if (*p == '\\')
			*p = '/';
	return d;
}

/* Is task name t among the names of the requested tasks? */
static bool has_name(const struct strlist *l, const char *t)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], t))
			return true;
	return false;
}

/*
 * `turbo run T --affected --dry=json`: {"tasks": [{"taskId", "task",
 * "package", "directory", "dependencies", "dependents", ...}], ...}. The
 * requested tasks are those named like a task that nothing in the run
 * depends on (T itself; its dependencies, such as ^build, have dependents).
 */
static int read_turbo_dry(struct nctx *c, const cJSON *root, const cJSON *tasks)
{
	const cJSON *monorepo = item(root, "monorepo"), *t;
	struct strlist wanted = STRLIST_INIT;
	struct strmap packages = STRMAP_INIT;
	bool single = cJSON_IsFalse(monorepo);
	size_t i = 0;
	int ret = 0;

	if (monorepo && !cJSON_IsBool(monorepo))
		return shape_error(c, line_of(c, "\"monorepo\""), "\"monorepo\" is "
				   "not a boolean");
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *id = item(t, "taskId"), *task = item(t, "task");
		const cJSON *deps = item(t, "dependents");

		if (!cJSON_IsObject(t) || !cJSON_IsString(id) || !cJSON_IsString(task)) {
			ret = shape_error(c, 0, "tasks[%zu] has no \"taskId\" and "
					  "\"task\" strings", i);
			goto out;
		}
		if (deps && !cJSON_IsArray(deps)) {
			ret = shape_error(c, value_line(c, id->valuestring), "%s: "
					  "\"dependents\" is not an array", id->valuestring);
			goto out;
		}
		if (!cJSON_GetArraySize(deps) && !has_name(&wanted, task->valuestring))
			strlist_push(&wanted, task->valuestring);
		i++;
	}
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *id = item(t, "taskId"), *task = item(t, "task");
		const cJSON *pkg = item(t, "package"), *dir = item(t, "directory");
		int line = value_line(c, id->valuestring);
		char *d, *path;

		if (!has_name(&wanted, task->valuestring))
			continue;
		if (single) {
			c->out->decision = DECISION_RUN_ALL;
			add_reason(c, "turbo:single-package");
			continue;
		}
		if (!cJSON_IsString(pkg) || !cJSON_IsString(dir)) {
			ret = shape_error(c, line, "%s: a monorepo task without "
					  "\"package\" and \"directory\" strings",
					  id->valuestring);
			goto out;
		}
		if (!strcmp(pkg->valuestring, "//")) {
			c->out->decision = DECISION_RUN_ALL;
			add_reason(c, "turbo:root-task");
			continue;
		}
		d = slashed(dir->valuestring);
		ret = repo_path(c, d, line, &path);
		free(d);
		if (ret < 0)
			goto out;
		add_entry(c, path);
		strmap_intern(&packages, pkg->valuestring, strlen(pkg->valuestring), 0, NULL);
		free(path);
	}
	if (c->out->decision != DECISION_RUN_ALL)
		c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	total_packages(c, packages.nr, "turbo:all-packages-affected");
out:
	strlist_release(&wanted);
	strmap_clear(&packages);
	return ret;
}

/* `turbo ls --affected --output=json`: {"packageManager", "packages": {"count", "items": [{"name", "path"}]}}. */
static int read_turbo_ls(struct nctx *c, const cJSON *packages)
{
	const cJSON *count = item(packages, "count"), *items = item(packages, "items");
	const cJSON *p;
	size_t i = 0;

	if (!cJSON_IsArray(items) || !cJSON_IsNumber(count))
		return shape_error(c, line_of(c, "\"packages\""), "\"packages\" has no "
				   "\"count\" and \"items\" (turbo ls --output=json)");
	if (count->valuedouble != (double)cJSON_GetArraySize(items))
		return shape_error(c, line_of(c, "\"count\""), "\"count\" is %g but "
				   "there are %d items (truncated?)", count->valuedouble,
				   cJSON_GetArraySize(items));
	cJSON_ArrayForEach(p, items) {
		const cJSON *name = item(p, "name"), *path = item(p, "path");
		char *d, *rel;
		int line, rc;

		if (!cJSON_IsString(name) || !cJSON_IsString(path))
			return shape_error(c, 0, "packages.items[%zu] has no \"name\" and "
					   "\"path\" strings", i);
		line = value_line(c, name->valuestring);
		d = slashed(path->valuestring);
		rc = repo_path(c, d, line, &rel);
		free(d);
		if (rc < 0)
			return -1;
		add_entry(c, rel);
		free(rel);
		i++;
	}
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	total_packages(c, c->out->entries.nr, "turbo:all-packages-affected");
	return 0;
}

static int read_turbo(struct nctx *c, const cJSON *root)
{
	const cJSON *tasks = item(root, "tasks"), *packages = item(root, "packages");

	if (cJSON_IsObject(root) && cJSON_IsArray(tasks))
		return read_turbo_dry(c, root, tasks);
	if (cJSON_IsObject(root) && cJSON_IsObject(packages))
		return read_turbo_ls(c, packages);
	return shape_error(c, 1, "neither a dry run ({\"tasks\": [...]}, turbo run "
			   "--dry=json) nor a package list ({\"packages\": "
			   "{\"items\": [...]}}, turbo ls --output=json)");
}

/* ---- moon query ---- */

static int moon_affected(struct nctx *c, const cJSON *root)
{
	const cJSON *options = item(root, "options");

	if (!cJSON_IsObject(item(options, "affected")))
		return shape_error(c, line_of(c, "\"options\""), "not an --affected "
				   "query (\"options\".\"affected\" is missing): every "
				   "project would count as selected");
	return 0;
}

/* `moon query projects --affected`: {"projects": [{"id", "source", ...}], "options"}. */
static int read_moon_projects(struct nctx *c, const cJSON *projects)
{
	const cJSON *p;
	size_t i = 0;

	cJSON_ArrayForEach(p, projects) {
		const cJSON *id = item(p, "id"), *source = item(p, "source");
		char *rel;
		int line;

		if (!cJSON_IsObject(p) || !cJSON_IsString(id) || !cJSON_IsString(source))
			return shape_error(c, 0, "projects[%zu] has no \"id\" and "
					   "\"source\" strings", i);
		line = value_line(c, id->valuestring);
		i++;
		if (!strcmp(source->valuestring, ".") || !*source->valuestring) {
			c->out->decision = DECISION_RUN_ALL;
			add_reason(c, "moon:root-project");
			continue;
		}
		if (repo_path(c, source->valuestring, line, &rel) < 0)
			return -1;
		add_entry(c, rel);
		free(rel);
	}
	if (c->out->decision != DECISION_RUN_ALL)
		c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	total_packages(c, i, "moon:all-projects-affected");
	return 0;
}

/*
 * `moon query tasks --affected`: {"tasks": {PROJECT: {TASK: {"target",
 * "type", ...}}}, "options"}. A task names no directory, so the entries
 * are the ids of the projects with an affected task of type "test".
 */
static int read_moon_tasks(struct nctx *c, const cJSON *tasks)
{
	const cJSON *proj, *task;
	size_t projects = 0;

	cJSON_ArrayForEach(proj, tasks) {
		if (!cJSON_IsObject(proj))
			return shape_error(c, line_of(c, proj->string), "tasks.%s is not "
					   "an object of tasks", proj->string);
		projects++;
		cJSON_ArrayForEach(task, proj) {
			const cJSON *target = item(task, "target"), *type = item(task, "type");

			if (!cJSON_IsObject(task) || !cJSON_IsString(target) ||
			    !cJSON_IsString(type))
				return shape_error(c, line_of(c, task->string), "tasks.%s.%s "
						   "has no \"target\" and \"type\" strings",
						   proj->string, task->string);
			if (!strcmp(type->valuestring, "test"))
				add_entry(c, proj->string);
		}
	}
	c->out->decision = c->out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
	total_packages(c, projects, "moon:all-projects-affected");
	return 0;
}

static int read_moon(struct nctx *c, const cJSON *root)
{
	const cJSON *projects = item(root, "projects"), *tasks = item(root, "tasks");

	if (!cJSON_IsObject(root) || (!cJSON_IsArray(projects) && !cJSON_IsObject(tasks)))
		return shape_error(c, 1, "neither {\"projects\": [...]} (moon query "
				   "projects) nor {\"tasks\": {...}} (moon query tasks)");
	if (moon_affected(c, root) < 0)
		return -1;
	return cJSON_IsArray(projects) ? read_moon_projects(c, projects)
				       : read_moon_tasks(c, tasks);
}

/* ---- gstack test-impact key --json ---- */

/*
 * An array of {"file", "key"}: a key when main's receipt for the same key
 * can be reused, null and "reasons" (or "reason") when the file has none
 * and so runs. The shape is tiadash's reading of gstack's documentation
 * (docs/test-impact.md, seed 001); see tests/data/native/README.
 */
static int read_gstack(struct nctx *c, const cJSON *root)
{
	const cJSON *el;
	struct strlist why = STRLIST_INIT;
	size_t i = 0, keyless = 0;
	int ret = 0;

	if (!cJSON_IsArray(root))
		return shape_error(c, 1, "expected an array of {\"file\", \"key\"} "
				   "(scripts/test-impact.ts key --json)");
	cJSON_ArrayForEach(el, root) {
		const cJSON *file = item(el, "file"), *key = cJSON_GetObjectItemCaseSensitive(el, "key");
		const cJSON *reasons = item(el, "reasons"), *reason = item(el, "reason"), *r;
		char *rel;
		int line;

		if (!cJSON_IsObject(el) || !cJSON_IsString(file)) {
			ret = shape_error(c, 0, "element %zu has no \"file\" string", i);
			goto out;
		}
		line = value_line(c, file->valuestring);
		i++;
		if (cJSON_IsString(key) && *key->valuestring)
			continue;
		if (!cJSON_IsNull(key)) {
			ret = shape_error(c, line, "%s: \"key\" is neither a key nor null",
					  file->valuestring);
			goto out;
		}
		if (cJSON_IsString(reason) && *reason->valuestring && !reasons) {
			strlist_push(&why, reason->valuestring);
		} else if (cJSON_IsArray(reasons) && cJSON_GetArraySize(reasons) && !reason) {
			cJSON_ArrayForEach(r, reasons) {
				if (!cJSON_IsString(r) || !*r->valuestring) {
					ret = shape_error(c, line, "%s: \"reasons\" holds a "
							  "non-string", file->valuestring);
					goto out;
				}
				strlist_push(&why, r->valuestring);
			}
		} else {
			ret = shape_error(c, line, "%s: no key and no reason (gstack "
					  "says why a file has no key)", file->valuestring);
			goto out;
		}
		if (repo_path(c, file->valuestring, line, &rel) < 0) {
			ret = -1;
			goto out;
		}
		add_entry(c, rel);
		free(rel);
		keyless++;
	}
	if (keyless && keyless == i) {
		c->out->decision = DECISION_RUN_ALL;
		for (size_t k = 0; k < why.nr; k++) {
			char *r = xstrfmt("gstack:%s", why.items[k]);

			add_reason(c, r);
			free(r);
		}
	} else {
		c->out->decision = keyless ? DECISION_SELECTED : DECISION_NOTHING;
	}
out:
	strlist_release(&why);
	return ret;
}

/* ---- pytest --collect-only -q ---- */

/*
 * pytest -q --collect-only prints each collected item's node id, a blank
 * line and the summary line (_pytest/terminal.py,
 * _build_collect_only_summary_stats_line); sections ("=== warnings summary
 * ===", errors) come between them. Nothing else is accepted.
 */
static const char summary_re[] =
	"^(?:no tests collected(?: \\((\\d+) deselected\\))?"
	"|(\\d+) tests? collected"
	"|(\\d+)/(\\d+) tests collected \\((\\d+) deselected\\))"
	"(?:, (\\d+) errors?)?"
	" in \\d+\\.\\d\\ds(?: \\((?:\\d+ days?, )?\\d+:\\d\\d:\\d\\d\\))?$";

struct pytest_state {
	struct nctx *c;
	pcre2_code *re;
	pcre2_match_data *md;
	bool in_section;   /* after a "===" line: skipped until the summary */
	int summary_line;  /* 0: none yet */
	int64_t ids, selected, errors;
	int first_id_line;
};

static int64_t group_int(const struct pytest_state *st, const char *line, int g)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(st->md);
	int64_t v = -1;

	if (ov[2 * g] != PCRE2_UNSET) {
		char *s = xstrndup(line + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);

		if (!parse_int64(s, &v))
			v = -1;
		free(s);
	}
	return v;
}

static bool is_section_line(const char *line, size_t len)
{
	/* "=== warnings summary ===", "!!! Interrupted: ... !!!", "___ ERROR collecting x ___" */
	return len >= 3 && (line[0] == '=' || line[0] == '!' || line[0] == '_') &&
	       line[1] == line[0] && line[2] == line[0];
}

static int on_pytest_line(char *line, size_t len, int lineno, void *data)
{
	struct pytest_state *st = data;
	struct nctx *c = st->c;
	int rc;

	if (!len)
		return 0;
	rc = pcre2_match(st->re, (PCRE2_SPTR)line, len, 0, 0, st->md, NULL);
	if (rc >= 0) {
		int64_t all, desel;

		st->summary_line = lineno;
		st->errors = group_int(st, line, 6);
		if ((st->selected = group_int(st, line, 2)) < 0 &&
		    (st->selected = group_int(st, line, 3)) < 0)
			st->selected = 0;
		all = group_int(st, line, 4);
		desel = group_int(st, line, 5);
		if (all >= 0 && st->selected + desel != all)
			return shape_error(c, lineno, "the summary does not add up "
					   "(%" PRId64 " + %" PRId64 " deselected is "
					   "not %" PRId64 ")", st->selected, desel, all);
		return 0;
	}
	if (st->summary_line) {
		/* After the summary: only "!!! Interrupted: ... !!!". */
		if (line[0] == '!' && is_section_line(line, len))
			return 0;
		return shape_error(c, lineno, "unexpected line after the summary: '%.*s'",
				   (int)(len > 80 ? 80 : len), line);
	}
	if (is_section_line(line, len)) {
		st->in_section = true;
		return 0;
	}
	if (st->in_section)
		return 0;
	if (line[0] == ' ' || line[0] == '\t' || !memmem(line, len, "::", 2))
		return shape_error(c, lineno, "not a test node id (PATH::NAME): "
				   "'%.*s' (give pytest -q --collect-only output)",
				   (int)(len > 80 ? 80 : len), line);
	if (!st->first_id_line)
		st->first_id_line = lineno;
	st->ids++;
	add_entry(c, line);
	return 0;
}

static int read_pytest(struct nctx *c, struct input *in)
{
	struct pytest_state st = { .c = c };
	int errcode;
	PCRE2_SIZE erroff;
	int ret;

	st.re = pcre2_compile((PCRE2_SPTR)summary_re, PCRE2_ZERO_TERMINATED, 0,
			      &errcode, &erroff, NULL);
	if (!st.re)
		BUG("pytest summary regex does not compile at %zu", (size_t)erroff);
	st.md = pcre2_match_data_create_from_pattern(st.re, NULL);
	ret = input_read_lines(in, on_pytest_line, &st);
	if (!ret && !st.summary_line)
		ret = shape_error(c, 0, "no summary line (\"N tests collected in "
				  "Xs\"): truncated, or not pytest -q "
				  "--collect-only output");
	if (!ret && st.errors > 0) {
		/* A selector that errored selects nothing it can vouch for. */
		strlist_release(&c->out->entries);
		c->out->decision = DECISION_RUN_ALL;
		add_reason(c, "selector-error");
	} else if (!ret) {
		if (st.ids != st.selected)
			ret = shape_error(c, st.summary_line, "the summary counts %" PRId64
					  " tests but %" PRId64 " node ids are listed "
					  "(truncated?)", st.selected, st.ids);
		else if (c->out->entries.nr != (size_t)st.ids)
			ret = shape_error(c, st.first_id_line, "a node id is listed twice");
		c->out->decision = st.ids ? DECISION_SELECTED : DECISION_NOTHING;
		c->out->has_selected = true;
		c->out->selected_count = st.ids;
	}
	pcre2_match_data_free(st.md);
	pcre2_code_free(st.re);
	return ret;
}

/* ---- dispatch ---- */

static int read_json(struct nctx *c, enum native_format f)
{
	cJSON *root;
	int ret = -1;
	const char *s = c->text;

	while (s < c->text + c->len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	if (s == c->text + c->len)
		return shape_error(c, 1, "empty file%s", f == NATIVE_VITEST ?
				   " (vitest prints [] when it selects nothing)" : "");
	root = ruleconf_json_parse(c->text, c->len, c->name, c->what, false);
	if (!root)
		return -1;
	switch (f) {
	case NATIVE_VITEST: ret = read_vitest(c, root); break;
	case NATIVE_TURBO: ret = read_turbo(c, root); break;
	case NATIVE_MOON: ret = read_moon(c, root); break;
	case NATIVE_GSTACK: ret = read_gstack(c, root); break;
	case NATIVE_TESTMON: case NATIVE_CBM: BUG("not a JSON reader");
	}
	cJSON_Delete(root);
	return ret;
}

static int from_cbm(const char *text, size_t len, const char *name,
		    const struct native_opts *opts, struct native_answer *out)
{
	struct cbm_answer a = CBM_ANSWER_INIT;
	int ret = cbm_parse_text(text, len, name, opts->lane, &a);

	if (!ret) {
		out->decision = a.decision;
		for (size_t i = 0; i < a.reasons.nr; i++)
			strlist_push(&out->reasons, a.reasons.items[i]);
		for (size_t i = 0; i < a.entries.nr; i++)
			strlist_push(&out->entries, a.entries.items[i]);
		out->has_selected = a.has_tests;
		out->selected_count = a.tests;
	}
	cbm_answer_release(&a);
	return ret;
}

static int finish(struct nctx *c, int ret)
{
	strmap_clear(&c->seen);
	if (ret < 0)
		native_answer_release(c->out);
	return ret;
}

int native_parse_text(const char *text, size_t len, const char *name,
		      enum native_format f, const struct native_opts *opts,
		      struct native_answer *out)
{
	static const struct native_opts none = NATIVE_OPTS_INIT;
	struct nctx c = { text, len, name, format_what(f), opts ? opts : &none, out,
			  STRMAP_INIT };

	if (f == NATIVE_CBM)
		return finish(&c, from_cbm(text, len, name, c.opts, out));
	if (f == NATIVE_TESTMON) {
		struct input in;
		int ret;

		input_from_memory(&in, name, xmemdup(text, len), len);
		ret = finish(&c, read_pytest(&c, &in));
		input_release(&in);
		return ret;
	}
	return finish(&c, read_json(&c, f));
}

int native_parse(struct input *in, enum native_format f,
		 const struct native_opts *opts, struct native_answer *out)
{
	static const struct native_opts none = NATIVE_OPTS_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (f == NATIVE_TESTMON) {
		/* Line by line: a collect-only listing can be long. */
		struct nctx c = { "", 0, in->name, format_what(f), opts ? opts : &none,
				  out, STRMAP_INIT };

		return finish(&c, read_pytest(&c, in));
	}
	ret = input_read_all(in, &sb, INPUT_JSON_LIMIT);
	if (!ret)
		ret = native_parse_text(sb.buf, sb.len, in->name, f, opts, out);
	strbuf_release(&sb);
	return ret;
}
