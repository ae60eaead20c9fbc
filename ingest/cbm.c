/* codebase-memory-mcp selection answers, decided as its CI consumer decides. */
#include "core/tiadash.h"
#include "core/json.h"
#include "core/strmap.h"
#include "ingest/cbm.h"

void cbm_answer_release(struct cbm_answer *a)
{
	strlist_release(&a->reasons);
	strlist_release(&a->entries);
	a->decision = DECISION_NONE;
}

/* Everything runs, and why (the consumer's exit 10). */
static int run_all(struct cbm_answer *out, const char *why)
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
static int selected_lane(const cJSON *lane, struct cbm_answer *out)
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

static int decide_lane(const cJSON *root, const char *lane_name, struct cbm_answer *out)
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

int cbm_parse_text(const char *text, size_t len, const char *name,
		   const char *lane, struct cbm_answer *out)
{
	cJSON *root = json_parse_source(text, len, name);
	const cJSON *schema, *decision, *totals, *tests;
	int ret = -1;

	if (!root)
		return -1;
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	decision = cJSON_GetObjectItemCaseSensitive(root, "decision");
	if (!cJSON_IsString(schema) ||
	    (strcmp(schema->valuestring, "cbm.test_impact.v0") &&
	     strcmp(schema->valuestring, "cbm.test_impact.v1"))) {
		error("%s: unknown selection answer schema '%s' (expected "
		      "cbm.test_impact.v0)", name,
		      cJSON_IsString(schema) ? schema->valuestring : "");
		goto out;
	}
	if (!cJSON_IsString(decision))
		goto shape;
	totals = cJSON_GetObjectItemCaseSensitive(root, "totals");
	tests = cJSON_GetObjectItemCaseSensitive(totals, "tests");
	if (cJSON_IsNumber(tests) && tests->valuedouble >= 0) {
		out->has_tests = true;
		out->tests = (int64_t)tests->valuedouble;
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
	ret = error("%s: not a codebase-memory-mcp selection answer (unexpected "
		    "shape; see cbm.test_impact.v0)", name);
out:
	cJSON_Delete(root);
	return ret;
}

int cbm_parse(struct input *in, const char *lane, struct cbm_answer *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = input_read_all(in, &sb, INPUT_JSON_LIMIT);

	if (!ret)
		ret = cbm_parse_text(sb.buf, sb.len, in->name, lane, out);
	strbuf_release(&sb);
	return ret;
}

bool cbm_sniff(const char *head, size_t len)
{
	return memmem(head, len, "\"cbm.test_impact.", 17) != NULL;
}
