/* Run manifests (tiadash.run.v1) and indexes (tiadash.index.v1), checked field by field. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/timeutil.h"
#include "ingest/manifest.h"
#include "adapters/adapter.h"

struct mparse {
	const char *text;
	size_t len;
	const char *name;
};

/* Line of the first `"key":` in the text, so messages can say file:line. */
static int key_line(const struct mparse *mp, const char *key)
{
	struct strbuf needle = STRBUF_INIT;
	const char *p = mp->text, *end = mp->text + mp->len;
	int line = 1;

	strbuf_addf(&needle, "\"%s\"", key);
	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), needle.buf, needle.len);
		const char *q;

		if (!hit)
			break;
		q = hit + needle.len;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
			q++;
		if (q < end && *q == ':') {
			line = line_of_offset(mp->text, mp->len, (size_t)(hit - mp->text));
			break;
		}
		p = hit + 1;
	}
	strbuf_release(&needle);
	return line;
}

static int field_error(const struct mparse *mp, const char *key, const char *fmt, ...)
	ATTR_FORMAT(3, 4);

static int field_error(const struct mparse *mp, const char *key, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s:%d: '%s' %s", mp->name, key_line(mp, key), key, msg.buf);
	strbuf_release(&msg);
	return -1;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNull(v) ? NULL : v;
}

static int get_string(const struct mparse *mp, const cJSON *obj, const char *key,
		      bool required, const char **out)
{
	const cJSON *v = get(obj, key);

	*out = NULL;
	if (!v)
		return required ? field_error(mp, key, "is required") : 0;
	if (!cJSON_IsString(v))
		return field_error(mp, key, "must be a string");
	*out = v->valuestring;
	return 0;
}

static int get_int(const struct mparse *mp, const cJSON *obj, const char *key,
		   int64_t min, int64_t max, bool *has, int64_t *out)
{
	const cJSON *v = get(obj, key);

	*has = false;
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < (double)min || v->valuedouble > (double)max)
		return field_error(mp, key, "must be an integer from %" PRId64 " to %"
				   PRId64, min, max);
	*has = true;
	*out = (int64_t)v->valuedouble;
	return 0;
}

static int get_sha(const struct mparse *mp, const cJSON *obj, const char *key,
		   char out[41])
{
	const char *s;
	char lower[41];

	if (get_string(mp, obj, key, true, &s) < 0)
		return -1;
	if (strlen(s) != 40)
		return field_error(mp, key, "must be a 40-hex commit id, not '%s'", s);
	for (int i = 0; i < 40; i++)
		lower[i] = (char)(s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 'a' : s[i]);
	lower[40] = '\0';
	if (!is_hex_sha(lower))
		return field_error(mp, key, "must be a 40-hex commit id, not '%s'", s);
	memcpy(out, lower, 41);
	return 0;
}

/*
 * "base" is required, and null when the recording could not resolve one
 * (record: the base unknown): the run is kept, without its changed files.
 */
static int get_base(const struct mparse *mp, const cJSON *root, char out[41])
{
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "base"))) {
		out[0] = '\0';
		return 0;
	}
	return get_sha(mp, root, "base", out);
}

/* A relative reference below the manifest's own location. */
static int check_ref(const struct mparse *mp, const char *key, const char *ref)
{
	if (!path_is_contained(ref))
		return field_error(mp, key, "names '%s', which is not a relative "
				   "path inside the manifest's directory", ref);
	return 0;
}

static int get_ref(const struct mparse *mp, const cJSON *obj, const char *key, char **out)
{
	const char *s;

	if (get_string(mp, obj, key, false, &s) < 0)
		return -1;
	if (s && check_ref(mp, key, s) < 0)
		return -1;
	*out = s ? xstrdup(s) : NULL;
	return 0;
}

/* "workdir": the runner's directory, relative to the repository root. */
static int get_workdir(const struct mparse *mp, const cJSON *obj, char **out)
{
	const char *s;

	if (get_string(mp, obj, "workdir", false, &s) < 0)
		return -1;
	if (s && *s && !path_is_contained(s))
		return field_error(mp, "workdir", "must be a directory relative to the "
				   "repository root, not '%s'", s);
	*out = s && *s ? xstrdup(s) : NULL;
	return 0;
}

/*
 * "results": report paths, each a string or {"path": P, "workdir": D}: D is
 * the directory, relative to the root, its runner ran in ("" the root), for
 * that report alone (tiadash record writes it for a report it found inside
 * a package of a monorepo).
 */
static int get_results(const struct mparse *mp, const cJSON *obj, struct manifest *m)
{
	const cJSON *v = get(obj, "results"), *item;
	size_t i = 0;

	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return field_error(mp, "results", "must be an array of paths");
	m->result_workdirs = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(char *));
	cJSON_ArrayForEach(item, v) {
		const cJSON *path = cJSON_IsObject(item) ? get(item, "path") : item;
		const cJSON *wd = cJSON_IsObject(item) ? get(item, "workdir") : NULL;

		if (!cJSON_IsString(path) || (wd && !cJSON_IsString(wd)))
			return field_error(mp, "results", "must be an array of paths or "
					   "{\"path\", \"workdir\"} objects");
		if (check_ref(mp, "results", path->valuestring) < 0)
			return -1;
		if (wd && *wd->valuestring && !path_is_contained(wd->valuestring))
			return field_error(mp, "results", "workdir must be a directory "
					   "relative to the repository root, not '%s'",
					   wd->valuestring);
		strlist_push(&m->results, path->valuestring);
		m->result_workdirs[i++] = wd ? xstrdup(wd->valuestring) : NULL;
	}
	return 0;
}

static int get_strings(const struct mparse *mp, const cJSON *obj, const char *key,
		       bool refs, bool *has, struct strlist *out)
{
	const cJSON *v = get(obj, key), *item;

	if (has)
		*has = v != NULL;
	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return field_error(mp, key, "must be an array of strings");
	cJSON_ArrayForEach(item, v) {
		if (!cJSON_IsString(item))
			return field_error(mp, key, "must be an array of strings");
		if (refs && check_ref(mp, key, item->valuestring) < 0)
			return -1;
		strlist_push(out, item->valuestring);
	}
	return 0;
}

/* "format" and "file": a selector's own output (adapters/adapter.h). */
static int parse_native(const struct mparse *mp, const cJSON *sel,
			struct manifest_selection *s, char **file)
{
	const char *format, *root;
	const struct adapter *a = NULL;

	if (get_string(mp, sel, "format", false, &format) < 0 ||
	    get_ref(mp, sel, "file", file) < 0 ||
	    get_string(mp, sel, "root", false, &root) < 0 ||
	    get_int(mp, sel, "total_packages", 0, MANIFEST_MAX_COUNT, &s->has_total_packages,
		    &s->total_packages) < 0)
		return -1;
	if (format && !(a = adapter_find_answer(format)))
		return field_error(mp, "format", "must be one of %s, not '%s'",
				   adapter_answer_names, format);
	if (format && !*file)
		return field_error(mp, "format", "needs \"file\": the output to read");
	if (*file && !format)
		return field_error(mp, "file", "needs \"format\" (one of %s)",
				   adapter_answer_names);
	if (root && root[0] != '/')
		return field_error(mp, "root", "must be an absolute directory, not '%s'",
				   root);
	if (a && a != &adapter_cbm)
		s->format = xstrdup(a->name);
	s->root = root ? xstrdup(root) : NULL;
	return 0;
}

static int parse_selection(const struct mparse *mp, const cJSON *sel,
			   struct manifest_selection *s)
{
	const char *decision, *lane;
	char *file = NULL;
	int forms;

	if (!cJSON_IsObject(sel))
		return field_error(mp, "selection", "must be an object");
	s->present = true;
	if (get_ref(mp, sel, "selected_file", &s->selected_file) < 0 ||
	    get_ref(mp, sel, "engine_file", &s->engine_file) < 0 ||
	    parse_native(mp, sel, s, &file) < 0 ||
	    get_strings(mp, sel, "selected", false, &s->has_selected, &s->selected) < 0 ||
	    get_strings(mp, sel, "reasons", false, NULL, &s->reasons) < 0 ||
	    get_int(mp, sel, "total_tests", 0, MANIFEST_MAX_COUNT, &s->has_total,
		    &s->total_tests) < 0 ||
	    get_int(mp, sel, "selected_count", 0, MANIFEST_MAX_COUNT, &s->has_selected_count,
		    &s->selected_count) < 0 ||
	    get_string(mp, sel, "lane", false, &lane) < 0 ||
	    get_string(mp, sel, "decision", !s->engine_file && !file, &decision) < 0) {
		free(file);
		return -1;
	}
	s->lane = xstrdup(lane ? lane : "unit");
	s->has_decision = decision != NULL;
	forms = s->has_selected + !!s->selected_file + !!s->engine_file + !!file;
	if (forms > 1) {
		free(file);
		return field_error(mp, "selection", "has more than one of selected, "
				   "selected_file, engine_file and file");
	}
	if (file && s->format)
		s->selected_file = file;
	else if (file)
		s->engine_file = file;
	if (decision && !decision_parse(decision, &s->decision))
		return field_error(mp, "decision", "must be selected, run_all or "
				   "nothing, not '%s'", decision);
	if (decision && s->decision == DECISION_SELECTED && !forms)
		return field_error(mp, "decision", "is 'selected' but the selection "
				   "names no tests (selected, selected_file or "
				   "engine_file)");
	return 0;
}

static int parse_fields(const struct mparse *mp, const cJSON *root, struct manifest *m)
{
	const char *repo, *kind, *verdict, *started;
	const cJSON *wall, *sel;
	bool has_attempt;
	int64_t attempt = 1;

	if (get_string(mp, root, "repo", false, &repo) < 0 ||
	    get_int(mp, root, "pr", 0, MANIFEST_MAX_PR, &m->has_pr, &m->pr) < 0 ||
	    get_base(mp, root, m->base) < 0 ||
	    get_sha(mp, root, "head", m->head) < 0 ||
	    get_string(mp, root, "kind", true, &kind) < 0 ||
	    get_int(mp, root, "attempt", 1, MANIFEST_MAX_ATTEMPT, &has_attempt, &attempt) < 0 ||
	    get_string(mp, root, "started_at", true, &started) < 0 ||
	    get_string(mp, root, "verdict", true, &verdict) < 0)
		return -1;
	free(m->repo);
	m->repo = xstrdup(repo ? repo : "");
	if (!run_kind_parse(kind, &m->kind))
		return field_error(mp, "kind", "must be shadow or full, not '%s'", kind);
	m->attempt = (int)attempt;
	if (!time_parse_rfc3339(started, &m->started_at))
		return field_error(mp, "started_at", "must be an RFC 3339 time, not '%s'",
				   started);
	if (!verdict_parse(verdict, &m->verdict))
		return field_error(mp, "verdict", "must be pass, fail or error, not '%s'",
				   verdict);
	wall = get(root, "wall_clock_s");
	if (wall && (!cJSON_IsNumber(wall) || !(wall->valuedouble >= 0) ||
		     !(wall->valuedouble <= MANIFEST_MAX_WALL_CLOCK_S)))
		return field_error(mp, "wall_clock_s", "must be a number of seconds "
				   "from 0 to %.0f (30 days)", MANIFEST_MAX_WALL_CLOCK_S);
	m->wall_clock_s = wall ? wall->valuedouble : NAN;
	sel = get(root, "selection");
	if (sel && m->kind != RUN_SHADOW)
		return field_error(mp, "selection", "is only for shadow runs");
	if (sel && parse_selection(mp, sel, &m->sel) < 0)
		return -1;
	if (get_results(mp, root, m) < 0 ||
	    get_strings(mp, root, "coverage", true, NULL, &m->coverage) < 0 ||
	    get_strings(mp, root, "failed", false, &m->has_failed, &m->failed) < 0 ||
	    get_ref(mp, root, "quarantine", &m->quarantine) < 0)
		return -1;
	return get_workdir(mp, root, &m->workdir);
}

static int check_schema(const struct mparse *mp, const cJSON *root, const char *want)
{
	const char *schema;

	if (!cJSON_IsObject(root))
		return error("%s:1: not a JSON object", mp->name);
	if (get_string(mp, root, "schema", true, &schema) < 0)
		return -1;
	if (strcmp(schema, want))
		return field_error(mp, "schema", "is '%s', expected '%s'", schema, want);
	return 0;
}

void manifest_init(struct manifest *m)
{
	memset(m, 0, sizeof(*m));
	m->attempt = 1;
	m->wall_clock_s = NAN;
}

void manifest_release(struct manifest *m)
{
	free(m->repo);
	strlist_release(&m->sel.reasons);
	strlist_release(&m->sel.selected);
	free(m->sel.selected_file);
	free(m->sel.engine_file);
	free(m->sel.lane);
	free(m->sel.format);
	free(m->sel.root);
	for (size_t i = 0; m->result_workdirs && i < m->results.nr; i++)
		free(m->result_workdirs[i]);
	free(m->result_workdirs);
	strlist_release(&m->results);
	strlist_release(&m->coverage);
	strlist_release(&m->failed);
	free(m->quarantine);
	free(m->workdir);
	manifest_init(m);
}

int manifest_parse(const char *text, size_t len, const char *name, struct manifest *m)
{
	struct mparse mp = { text, len, name };
	cJSON *root = json_parse_source(text, len, name);
	int ret = -1;

	if (root && check_schema(&mp, root, "tiadash.run.v1") == 0)
		ret = parse_fields(&mp, root, m);
	cJSON_Delete(root);
	return ret;
}

int index_parse(const char *text, size_t len, const char *name, struct strlist *runs)
{
	struct mparse mp = { text, len, name };
	cJSON *root = json_parse_source(text, len, name);
	int ret = -1;

	if (root && check_schema(&mp, root, "tiadash.index.v1") == 0) {
		const cJSON *list = get(root, "runs");

		if (!cJSON_IsArray(list))
			ret = field_error(&mp, "runs", "must be an array of manifest "
					  "paths or URLs");
		else
			ret = get_strings(&mp, root, "runs", false, NULL, runs);
	}
	cJSON_Delete(root);
	return ret;
}

enum json_kind manifest_sniff(const char *head, size_t len)
{
	if (memmem(head, len, "\"tiadash.run.v1\"", 16))
		return JSON_MANIFEST;
	if (memmem(head, len, "\"tiadash.index.v1\"", 18))
		return JSON_INDEX;
	return JSON_OTHER;
}
