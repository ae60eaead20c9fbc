/* The codebase-memory-mcp adapter: .codebase-memory.json's test_impact.rules (read and written), selection-engine.json answers decided as its CI consumer decides. */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/json.h"


/* codebase-memory-mcp's built-in rules (seed 004), applied after the file's. */
static const struct cbm_builtin {
	const char *id;
	enum rule_action action;
	const char *globs[16];
} cbm_builtin[] = {
	{ "builtin:test-impact-config", RULE_RUN_ALL, { ".codebase-memory.json" } },
	{ "builtin:build", RULE_RUN_ALL,
	  { "Makefile*", "CMakeLists.txt", "*.cmake", "meson.build", "BUILD*",
	    "WORKSPACE", "package*.json", "go.mod", "go.sum", "Cargo.*",
	    "pom.xml", "build.gradle*", "pyproject.toml", "setup.*",
	    "requirements*.txt" } },
	{ "builtin:ci", RULE_RUN_ALL,
	  { ".github/**", ".gitlab-ci.yml", ".circleci/**", "Jenkinsfile*",
	    ".buildkite/**", "azure-pipelines*.yml" } },
	{ "builtin:vendor", RULE_RUN_ALL, { "vendor*/**", "third_party/**" } },
	{ "builtin:conftest", RULE_RUN_ALL, { "conftest.py" } },
	{ "builtin:documentation", RULE_IGNORE, { "docs/**", "**/*.md", "LICENSE*" } },
};

/* What codebase-memory-mcp narrows by itself; everything else unmapped runs all. */
static const char cbm_c_family[] =
	"*.{c,h,cc,cp,cpp,cxx,c++,hh,hpp,hxx,h++,inc,inl,ipp,tcc,m,mm}";


/*
 * The line of each rule's "id" (the first of each value), from one pass
 * over the text: a file of 20,000 rules used to be searched from its start
 * for every one of them.
 */
static void index_id_lines(const char *text, size_t len, struct strmap *out)
{
	int line = 1;

	for (size_t i = 0; i < len; i++) {
		size_t q, start;

		if (text[i] == '\n')
			line++;
		if (text[i] != '"' || len - i < 4 || memcmp(text + i, "\"id\"", 4))
			continue;
		q = i + 4;
		while (q < len && strchr(" \t\r\n", text[q]))
			q++;
		if (q >= len || text[q] != ':')
			continue;
		q++;
		while (q < len && strchr(" \t\r\n", text[q]))
			q++;
		if (q >= len || text[q] != '"')
			continue;
		start = ++q;
		while (q < len && text[q] != '"' && text[q] != '\\' && text[q] != '\n')
			q++;
		if (q < len && text[q] == '"' && !strmap_find(out, text + start, q - start))
			strmap_intern(out, text + start, q - start, line, NULL);
		/* The lines between i and q hold no newline (q stops at one). */
		i = q;
	}
}

static char *cbm_where(const struct strmap *lines, const char *path, size_t i,
		       const char *id)
{
	int64_t line = 0;

	if (id && strmap_get(lines, id, &line) && line)
		return xstrfmt("%s:%" PRId64 ": rule '%s'", path, line, id);
	if (id)
		return xstrfmt("%s: test_impact.rules[%zu] ('%s')", path, i, id);
	return xstrfmt("%s: test_impact.rules[%zu]", path, i);
}

/* Append the strings of a JSON array to out; false if it is not one. */
static bool string_array(const cJSON *arr, struct strlist *out)
{
	const cJSON *it;

	if (!cJSON_IsArray(arr))
		return false;
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it))
			return false;
		strlist_push(out, it->valuestring);
	}
	return true;
}

/* The suites of the named lanes, where test_impact.lanes names them. */
static void lane_suites(const cJSON *ti, const struct strlist *names,
			struct strlist *out)
{
	const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(ti, "lanes");
	const cJSON *lane;

	cJSON_ArrayForEach(lane, lanes) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(lane, "name");
		const cJSON *suites = cJSON_GetObjectItemCaseSensitive(lane, "suites");
		const cJSON *s;

		if (!cJSON_IsString(name))
			continue;
		for (size_t i = 0; i < names->nr; i++) {
			if (strcmp(names->items[i], name->valuestring))
				continue;
			cJSON_ArrayForEach(s, suites)
				if (cJSON_IsString(s) && s->valuestring[0] != '@' &&
				    strcmp(s->valuestring, "*"))
					strlist_push(out, s->valuestring);
		}
	}
}

static int cbm_rule(struct rules *r, const cJSON *ti, const cJSON *rule,
		    const struct strmap *lines, const char *path, size_t i)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(rule, "id");
	const cJSON *paths = cJSON_GetObjectItemCaseSensitive(rule, "paths");
	const cJSON *action = cJSON_GetObjectItemCaseSensitive(rule, "action");
	struct strlist globs = STRLIST_INIT, tests = STRLIST_INIT;
	enum rule_action act;
	char *where = cbm_where(lines, path, i,
				cJSON_IsString(id) ? id->valuestring : NULL);
	const char *a;
	int ret = 0;

	if (!cJSON_IsObject(rule)) {
		ret = error("%s: not an object", where);
		goto out;
	}
	if (!cJSON_IsString(id) || !*id->valuestring) {
		ret = error("%s: \"id\" must be a non-empty string", where);
		goto out;
	}
	if (!string_array(paths, &globs) || !globs.nr) {
		ret = error("%s: \"paths\" must be a non-empty list of globs", where);
		goto out;
	}
	if (!cJSON_IsString(action)) {
		ret = error("%s: \"action\" must be a string", where);
		goto out;
	}
	a = action->valuestring;
	if (!strcmp(a, "run_all")) {
		act = RULE_RUN_ALL;
	} else if (!strcmp(a, "ignore")) {
		act = RULE_IGNORE;
	} else if (!strcmp(a, "referencing_tests")) {
		act = RULE_SELECT;
	} else if (!strcmp(a, "suites")) {
		act = RULE_SELECT;
		if (!string_array(cJSON_GetObjectItemCaseSensitive(rule, "suites"),
				  &tests) || !tests.nr) {
			ret = error("%s: action \"suites\" needs a non-empty "
				    "\"suites\" list", where);
			goto out;
		}
	} else if (!strcmp(a, "lanes")) {
		struct strlist names = STRLIST_INIT;

		act = RULE_SELECT;
		if (!string_array(cJSON_GetObjectItemCaseSensitive(rule, "lanes"),
				  &names) || !names.nr) {
			strlist_release(&names);
			ret = error("%s: action \"lanes\" needs a non-empty "
				    "\"lanes\" list", where);
			goto out;
		}
		lane_suites(ti, &names, &tests);
		strlist_release(&names);
	} else {
		ret = error("%s: unknown action '%s' (expected run_all, ignore, "
			    "suites, referencing_tests or lanes)", where, a);
		goto out;
	}
	for (size_t g = 0; g < globs.nr && !ret; g++)
		ret = rules_add(r, act, id->valuestring, globs.items[g], where,
				NULL, &tests);
out:
	strlist_release(&globs);
	strlist_release(&tests);
	free(where);
	return ret;
}

static void cbm_builtins(struct rules *r, const char *path)
{
	char *origin = xstrfmt("%s (codebase-memory-mcp built-in)", path);

	for (size_t i = 0; i < ARRAY_SIZE(cbm_builtin); i++)
		for (size_t g = 0; g < ARRAY_SIZE(cbm_builtin[i].globs) &&
				   cbm_builtin[i].globs[g]; g++)
			if (rules_add(r, cbm_builtin[i].action, cbm_builtin[i].id,
				      cbm_builtin[i].globs[g], origin, NULL, NULL) < 0)
				BUG("bad codebase-memory-mcp glob");
	free(origin);
	origin = xstrfmt("%s (codebase-memory-mcp unmapped_files)", path);
	if (rules_add(r, RULE_SELECT, "cbm:c-family", cbm_c_family, origin,
		      NULL, NULL) < 0 ||
	    rules_add(r, RULE_RUN_ALL, "cbm:unmapped", "*", origin,
		      "UNMAPPED_FILE", NULL) < 0)
		BUG("bad codebase-memory-mcp glob");
	free(origin);
}

/*
 * test_impact.coverage.compatibility_paths (seed 004, the configuration
 * table): the files the coverage map depends on. Changing the bytes of one
 * makes the map incompatible, and a refused map runs every suite whole,
 * whatever rule the path meets: so these come first, run_all.
 */
static int cbm_compat_rules(struct rules *r, const cJSON *ti, const char *path,
			    const char *text, size_t len)
{
	const cJSON *cov = cJSON_GetObjectItemCaseSensitive(ti, "coverage");
	const cJSON *paths = jget(cov, "compatibility_paths"), *it;
	struct strbuf glob = STRBUF_INIT;
	int ret = 0;

	if (cov && !cJSON_IsObject(cov))
		return error("%s: test_impact.coverage must be an object", path);
	if (paths && !cJSON_IsArray(paths))
		return error("%s: test_impact.coverage.compatibility_paths must be a "
			     "list of files", path);
	cJSON_ArrayForEach(it, paths) {
		char *where;

		if (!cJSON_IsString(it) || !*it->valuestring ||
		    !path_is_contained(it->valuestring)) {
			strbuf_release(&glob);
			return error("%s:%d: test_impact.coverage.compatibility_paths: "
				     "an entry is not a repository-relative file", path,
				     conf_json_value_line(text, len, "compatibility_paths"));
		}
		where = conf_where_json(path, text, len, it->valuestring);
		strbuf_reset(&glob);
		strbuf_addch(&glob, '/');
		conf_glob_escape(&glob, it->valuestring);
		ret = rules_add(r, RULE_RUN_ALL, "cbm:coverage.compatibility_paths",
				glob.buf, where, NULL, NULL);
		free(where);
		if (ret)
			break;
	}
	strbuf_release(&glob);
	return ret;
}

int rules_parse_cbm(struct rules *r, const char *text, size_t len, const char *path)
{
	cJSON *root = json_parse_source(text, len, path);
	const cJSON *ti, *list, *version, *unmapped, *rule;
	struct strmap lines = STRMAP_INIT;
	size_t i = 0;
	int ret = 0;

	if (!root)
		return -1;
	ti = cJSON_GetObjectItemCaseSensitive(root, "test_impact");
	if (!cJSON_IsObject(ti)) {
		ret = error("%s: no \"test_impact\" object", path);
		goto out;
	}
	version = cJSON_GetObjectItemCaseSensitive(ti, "version");
	if (version && (!cJSON_IsNumber(version) || version->valuedouble != 1)) {
		ret = error("%s: test_impact.version must be 1", path);
		goto out;
	}
	unmapped = cJSON_GetObjectItemCaseSensitive(ti, "unmapped_files");
	if (unmapped && (!cJSON_IsString(unmapped) ||
			 strcmp(unmapped->valuestring, "run_all"))) {
		ret = error("%s: test_impact.unmapped_files must be \"run_all\"", path);
		goto out;
	}
	list = cJSON_GetObjectItemCaseSensitive(ti, "rules");
	if (list && !cJSON_IsArray(list)) {
		ret = error("%s: test_impact.rules must be a list", path);
		goto out;
	}
	if ((ret = cbm_compat_rules(r, ti, path, text, len)) < 0)
		goto out;
	index_id_lines(text, len, &lines);
	cJSON_ArrayForEach(rule, list) {
		ret = cbm_rule(r, ti, rule, &lines, path, i++);
		if (ret)
			goto out;
	}
	cbm_builtins(r, path);
out:
	strmap_clear(&lines);
	cJSON_Delete(root);
	return ret;
}


/* A free "tiadash-force-full[-N]" rule id in a .codebase-memory.json. */
static char *cbm_free_id(const cJSON *rules)
{
	for (int n = 1;; n++) {
		char *id = n == 1 ? xstrdup("tiadash-force-full")
				  : xstrfmt("tiadash-force-full-%d", n);
		const cJSON *it;
		bool used = false;

		cJSON_ArrayForEach(it, rules) {
			const cJSON *v = jget(it, "id");

			used |= cJSON_IsString(v) && !strcmp(v->valuestring, id);
		}
		if (!used)
			return id;
		free(id);
	}
}

static int cbm_plan(struct adapter_edit *e, const char *path, const char *glob,
		    int64_t now)
{
	const char *t = e->old_text.buf;
	size_t len = e->old_text.len;
	cJSON *root = conf_json_parse(t, len, path, "codebase-memory-mcp config", false);
	cJSON *want, *ti, *rules, *rule;
	char *id, *q = conf_json_quote(glob), *value;
	int ret = 0;

	(void)now;
	if (!root) {
		free(q);
		return -1;
	}
	want = cJSON_Duplicate(root, true);
	ti = cJSON_GetObjectItemCaseSensitive(want, "test_impact");
	rules = cJSON_GetObjectItemCaseSensitive(ti, "rules");
	id = cbm_free_id(rules);
	value = xstrfmt("{\"id\": \"%s\", \"paths\": [%s], \"action\": \"run_all\"}", id, q);
	if (!cJSON_IsObject(ti)) {
		e->snippet = xstrfmt("%s has no \"test_impact\" object; add one "
				     "(codebase-memory-mcp docs: SMART_CI.md):\n\n"
				     "  \"test_impact\": {\"version\": 1, \"rules\": [\n"
				     "    %s\n  ]}\n", path, value);
		goto out;
	}
	rule = cJSON_Parse(value);
	if (rules && !cJSON_IsArray(rules)) {
		cJSON_Delete(rule);
		ret = error("%s: codebase-memory-mcp config: test_impact.rules is not "
			    "a list", path);
		goto out;
	}
	if (rules) {
		cJSON_AddItemToArray(rules, rule);
		ret = conf_json_insert_element(t, len, "rules", value, want, false, &e->new_text);
	} else {
		char *member = xstrfmt("\"rules\": [%s]", value);

		rules = cJSON_AddArrayToObject(ti, "rules");
		cJSON_AddItemToArray(rules, rule);
		ret = conf_json_insert_member(t, len, "test_impact", member, want, false,
					 &e->new_text);
		free(member);
	}
	if (ret < 0) {
		strbuf_reset(&e->new_text);
		e->snippet = xstrfmt("tiadash found no safe place to write in %s; add "
				     "this rule to test_impact.rules:\n\n    %s\n",
				     path, value);
		ret = 0;
	} else {
		e->writable = true;
		strlist_push_owned(&e->notes, xstrfmt("rule \"%s\" goes last in "
						      "test_impact.rules: an earlier rule "
						      "matching the same path wins", id));
	}
out:
	free(id);
	free(q);
	free(value);
	cJSON_Delete(want);
	cJSON_Delete(root);
	return ret;
}


/* ---- the answer ---- */


/* Everything runs, and why (the consumer's exit 10). */
static int run_all(struct adapter_answer *out, const char *why)
{
	out->decision = DECISION_RUN_ALL;
	strlist_release(&out->entries);
	if (!out->reasons.nr)
		strlist_push_owned(&out->reasons, xstrfmt("cbm-answer:%s", why));
	return 0;
}

static bool token_ok(const char *t)
{
	/* ^[A-Za-z_]\w*(:[A-Za-z_]\w*)?$ */
	bool after_colon = true;
	int colons = 0;

	for (const char *p = t; ; p++) {
		char c = *p;
		bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    c == '_' || (c >= '0' && c <= '9');

		if (after_colon) {
			if (!word || (c >= '0' && c <= '9'))
				return false;
			after_colon = false;
		} else if (c == ':') {
			if (++colons > 1)
				return false;
			after_colon = true;
		} else if (c == '\0') {
			return true;
		} else if (!word) {
			return false;
		}
	}
}

static const cJSON *find_lane(const cJSON *lanes, const char *lane, int *count)
{
	const cJSON *found = NULL, *l;

	*count = 0;
	cJSON_ArrayForEach(l, lanes) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(l, "lane");

		if (cJSON_IsString(name) && !strcmp(name->valuestring, lane)) {
			found = l;
			(*count)++;
		}
	}
	return found;
}

/* Tokens the lane's suites promise: whole suites, and suite:test ids. */
static int expected_tokens(const cJSON *suites, struct strmap *out, bool *empty_tests)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, suites) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(s, "suite");
		const cJSON *mode = cJSON_GetObjectItemCaseSensitive(s, "mode");
		const cJSON *tests = cJSON_GetObjectItemCaseSensitive(s, "tests");
		const cJSON *t;

		if (!cJSON_IsString(name) || !cJSON_IsString(mode))
			return -1;
		if (!strcmp(mode->valuestring, "whole")) {
			strmap_intern(out, name->valuestring, strlen(name->valuestring), 0, NULL);
			continue;
		}
		if (strcmp(mode->valuestring, "tests") || !cJSON_IsArray(tests))
			return -1;
		if (!cJSON_GetArraySize(tests))
			*empty_tests = true;
		cJSON_ArrayForEach(t, tests) {
			const cJSON *test = cJSON_GetObjectItemCaseSensitive(t, "test");
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(t, "id");
			char *tok;

			if (cJSON_IsString(id))
				tok = xstrdup(id->valuestring);
			else if (cJSON_IsString(test))
				tok = xstrfmt("%s:%s", name->valuestring, test->valuestring);
			else
				return -1;
			strmap_intern(out, tok, strlen(tok), 0, NULL);
			free(tok);
		}
	}
	return 0;
}

static void add_reasons(struct strlist *out, const cJSON *arr)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, arr)
		if (cJSON_IsString(r))
			strlist_push(out, r->valuestring);
}

/* A lane whose decision is "selected": check its filter against its suites. */
static int selected_lane(const cJSON *lane, struct adapter_answer *out)
{
	const cJSON *suites = cJSON_GetObjectItemCaseSensitive(lane, "suites");
	const cJSON *filter = cJSON_GetObjectItemCaseSensitive(lane, "runner_filter");
	const cJSON *enc, *value;
	struct strmap want = STRMAP_INIT, got = STRMAP_INIT;
	bool empty_tests = false;
	char *lines, *save = NULL;
	int ret = 0;

	if (!cJSON_IsArray(suites))
		return run_all(out, "lane-without-suites");
	if (!cJSON_IsObject(filter))
		return run_all(out, "no-runner-filter");
	enc = cJSON_GetObjectItemCaseSensitive(filter, "encoding");
	value = cJSON_GetObjectItemCaseSensitive(filter, "value");
	if (!cJSON_IsString(enc) || strcmp(enc->valuestring, "cbm-test-only-lines") ||
	    !cJSON_IsString(value))
		return run_all(out, "unknown-filter-encoding");
	if (expected_tokens(suites, &want, &empty_tests) < 0) {
		strmap_clear(&want);
		return -2;
	}
	lines = xstrdup(value->valuestring);
	for (char *tok = strtok_r(lines, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
		char *t = trim(tok);

		if (!*t)
			continue;
		if (!token_ok(t)) {
			ret = run_all(out, "bad-token");
			goto done;
		}
		if (!strmap_has(&got, t)) {
			strmap_intern(&got, t, strlen(t), 0, NULL);
			strlist_push(&out->entries, t);
		}
	}
	if (empty_tests)
		ret = run_all(out, "suite-without-tests");
	else if (got.nr != want.nr)
		ret = run_all(out, "filter-disagrees-with-suites");
	else
		for (size_t i = 0; i < got.cap && !ret; i++)
			if (got.slots[i].key && !strmap_has(&want, got.slots[i].key))
				ret = run_all(out, "filter-disagrees-with-suites");
	if (!ret && out->decision != DECISION_RUN_ALL)
		out->decision = out->entries.nr ? DECISION_SELECTED : DECISION_NOTHING;
done:
	free(lines);
	strmap_clear(&want);
	strmap_clear(&got);
	return ret;
}

static int decide_lane(const cJSON *root, const char *lane_name, struct adapter_answer *out)
{
	const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(root, "lanes");
	const cJSON *lane, *decision, *suites;
	int count;

	if (!cJSON_IsArray(lanes))
		return run_all(out, "no-lanes");
	lane = find_lane(lanes, lane_name, &count);
	if (!lane)
		return run_all(out, "lane-missing");
	if (count > 1)
		return run_all(out, "lane-duplicated");
	decision = cJSON_GetObjectItemCaseSensitive(lane, "decision");
	if (!cJSON_IsString(decision))
		return -2;
	if (!strcmp(decision->valuestring, "run_all")) {
		const cJSON *because = cJSON_GetObjectItemCaseSensitive(lane, "because");

		add_reasons(&out->reasons, cJSON_GetObjectItemCaseSensitive(because, "reasons"));
		return run_all(out, "lane-run_all");
	}
	if (!strcmp(decision->valuestring, "skip")) {
		suites = cJSON_GetObjectItemCaseSensitive(lane, "suites");
		if (cJSON_GetArraySize(suites) > 0)
			return run_all(out, "skipped-lane-with-suites");
		out->decision = DECISION_NOTHING;
		return 0;
	}
	if (!strcmp(decision->valuestring, "selected"))
		return selected_lane(lane, out);
	return -2;
}

/*
 * An answer codebase-memory-mcp's consumer cannot read makes it run
 * everything (scripts/test-impact/selection.py: exit 10 on an unknown
 * schema, a file that does not parse, any other shape): so does tiadash,
 * as run_all with reason "selector-error: WHY", and a warning saying
 * where and what is wrong ("NAME:LINE: what").
 */
static int fail_closed(struct adapter_answer *out, const char *why, const char *place,
		       const char *what)
{
	warning("%s: codebase-memory-mcp answer: %s: taken as run_all (selector-error), "
		"as its consumer runs everything", place, what);
	adapter_answer_release(out);
	out->decision = DECISION_RUN_ALL;
	strlist_push_owned(&out->reasons, xstrfmt("selector-error: %s", why));
	return 0;
}

static int cbm_parse_text(const char *text, size_t len, const char *name,
			  const char *lane, struct adapter_answer *out)
{
	struct strbuf where = STRBUF_INIT;
	struct strbuf *prev = error_capture(&where);
	cJSON *root = json_parse_source(text, len, name);
	const cJSON *schema, *decision, *totals, *tests;
	int ret = -1;

	error_capture(prev);
	if (!root) {
		/* "NAME:LINE: what": split after the place. */
		const char *what = strstr(where.buf + strlen(name), ": ");
		char *place = what ? xstrndup(where.buf, (size_t)(what - where.buf))
				   : xstrdup(name);

		ret = fail_closed(out, strstr(where.buf, "unexpected end of input") ?
				  "truncated answer" : "not JSON", place,
				  what ? what + 2 : where.buf);
		free(place);
		strbuf_release(&where);
		return ret;
	}
	strbuf_release(&where);
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	decision = cJSON_GetObjectItemCaseSensitive(root, "decision");
	if (!cJSON_IsString(schema) ||
	    (strcmp(schema->valuestring, "cbm.test_impact.v0") &&
	     strcmp(schema->valuestring, "cbm.test_impact.v1"))) {
		char *v = cJSON_IsString(schema) ? xstrfmt("unknown schema %s",
							    schema->valuestring)
						 : xstrdup("no schema");
		char *place = xstrfmt("%s:%d", name, conf_json_value_line(text, len, "schema"));
		char *what = xstrfmt("%s (expected cbm.test_impact.v0)", v);

		ret = fail_closed(out, v, place, what);
		free(v);
		free(place);
		free(what);
		goto out;
	}
	if (!cJSON_IsString(decision))
		goto shape;
	totals = cJSON_GetObjectItemCaseSensitive(root, "totals");
	tests = cJSON_GetObjectItemCaseSensitive(totals, "tests");
	if (cJSON_IsNumber(tests) && tests->valuedouble >= 0) {
		out->has_selected = true;
		out->selected_count = (int64_t)tests->valuedouble;
	}
	if (!strcmp(decision->valuestring, "run_all")) {
		add_reasons(&out->reasons,
			    cJSON_GetObjectItemCaseSensitive(root, "run_all_reasons"));
		ret = run_all(out, "run_all");
	} else if (!strcmp(decision->valuestring, "nothing")) {
		out->decision = DECISION_NOTHING;
		ret = 0;
	} else if (!strcmp(decision->valuestring, "selected")) {
		ret = decide_lane(root, lane ? lane : "unit", out);
	}
	if (ret == 0)
		goto out;
shape:
	ret = fail_closed(out, "unexpected shape", name, "not the shape of "
			  "cbm.test_impact.v0");
out:
	cJSON_Delete(root);
	return ret;
}

bool adapter_cbm_sniff(const char *head, size_t len)
{
	return memmem(head, len, "\"cbm.test_impact.", 17) != NULL;
}

static int cbm_answer(struct adapter_read *c)
{
	return cbm_parse_text(c->text, c->len, c->name, c->opts->lane, c->out);
}

static int cbm_rules(struct rules *r, const char *text, size_t len, const char *path,
		     int variant)
{
	(void)variant;
	return rules_parse_cbm(r, text, len, path);
}

static int cbm_detect(const char *path, const char *base)
{
	(void)path;
	return !strcmp(base, ".codebase-memory.json");
}

/* Any other JSON configuration (turbo's came first) is codebase-memory-mcp's. */
static bool cbm_text(const char *text, size_t len)
{
	(void)text;
	(void)len;
	return true;
}

static const char *const cbm_aliases[] = { "codebase-memory-mcp", NULL };
static const char *const cbm_configs[] = { ".codebase-memory.json", NULL };

const struct adapter adapter_cbm = {
	.name = "cbm",
	.aliases = cbm_aliases,
	.answer_what = "codebase-memory-mcp answer",
	.config_what = "codebase-memory-mcp config",
	.detect_name = cbm_detect,
	.detect_text = cbm_text,
	.read_answer = cbm_answer,
	.read_rules = cbm_rules,
	.plan_add = cbm_plan,
	.adds = RULE_RUN_ALL,
	/*
	 * No command of its own: each repository wires its engine
	 * (seed 004: "you need your own equivalent"); `replay --selector CMD
	 * --selector-format cbm` reads a CMD that prints its answer.
	 */
	.command = NULL,
	.config_files = cbm_configs,
};
