/* lcov, Cobertura, codebase-memory-mcp answers, plain lists and manifests. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "ingest/coverage.h"
#include "ingest/lists.h"
#include "ingest/manifest.h"

#include "tests/unit/capture.h"

#include <setjmp.h>
#include <cmocka.h>

struct cov_count {
	int64_t lines, hits;
	struct strbuf files; /* first candidate of each new file */
	const char *last;
};

static int count_line(const struct cov_line *l, void *data)
{
	struct cov_count *c = data;

	c->lines++;
	c->hits += l->hit;
	if (l->paths[0] != c->last) {
		strbuf_addf(&c->files, "%s\n", l->paths[0]);
		c->last = l->paths[0];
	}
	return 0;
}

static int parse_cov(const char *path, bool cobertura, struct cov_count *c)
{
	struct input in;
	int ret;

	input_from_file(&in, path);
	ret = cobertura ? cobertura_parse(&in, count_line, c) : lcov_parse(&in, count_line, c);
	input_release(&in);
	return ret;
}

static void lcov_corpus(void **state)
{
	static const struct { const char *file; int ok; int64_t lines, hits; } cases[] = {
		{ "gcovr_nested_clang-10.info", 0, 47, 28 },
		{ "lcovtests_jacoco2lcov_lambda.info", 0, 1088, 77 },
		{ "lcovtests_names_mcdc.info", 0, 8, 8 },
		{ "reportgenerator_csharp.info", 0, 199, 124 },
		{ "reportgenerator_docs.info", 0, 108, 75 },
		{ "lcovtests_errs_badLine.info", -1, 0, 0 },
		{ "lcovtests_format_bad-numbers.info", -1, 0, 0 },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cov_count c = { 0, 0, STRBUF_INIT, NULL };
		char *path = xstrfmt("tests/data/corpus/coverage/lcov/%s", cases[i].file);
		int ret = parse_cov(path, false, &c);

		if (ret != cases[i].ok || (!ret && (c.lines != cases[i].lines ||
						   c.hits != cases[i].hits)))
			fail_msg("%s: ret %d, %" PRId64 " lines, %" PRId64 " hit",
				 cases[i].file, ret, c.lines, c.hits);
		strbuf_release(&c.files);
		free(path);
	}
}

static void lcov_windows_paths(void **state)
{
	struct cov_count c = { 0, 0, STRBUF_INIT, NULL };

	UNUSED(state);
	assert_int_equal(parse_cov("tests/data/corpus/coverage/lcov/reportgenerator_csharp.info",
				   false, &c), 0);
	assert_true(starts_with(c.files.buf, "C:/temp/AnalyzerTestClass.cs\n"));
	strbuf_release(&c.files);
}

static void cobertura_corpus(void **state)
{
	static const struct { const char *file; int64_t lines, hits; } cases[] = {
		{ "coveragepy-gold_y_xml_branch.xml", 5, 4 },
		{ "gcovr_virtual-classes_gcc-14.xml", 54, 40 },
		{ "reportgenerator_cppcoverage.xml", 2, 0 },
		{ "reportgenerator_istanbul_large.xml", 14032, 1798 },
		{ "reportgenerator_java_cobertura-2.1.1.xml", 72, 48 },
		{ "reportgenerator_swift.xml", 2, 1 },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cov_count c = { 0, 0, STRBUF_INIT, NULL };
		char *path = xstrfmt("tests/data/corpus/coverage/cobertura/%s", cases[i].file);

		if (parse_cov(path, true, &c) != 0 || c.lines != cases[i].lines ||
		    c.hits != cases[i].hits)
			fail_msg("%s: %" PRId64 " lines, %" PRId64 " hit", cases[i].file,
				 c.lines, c.hits);
		strbuf_release(&c.files);
		free(path);
	}
}

static void cobertura_sources(void **state)
{
	const char *xml = "<coverage><sources><source>/w/x/x/src\n</source><source>lib</source>"
			  "</sources><packages><package><classes>"
			  "<class filename='a\\b.py'><lines><line number='3' hits='0'/></lines></class>"
			  "</classes></package></packages></coverage>";
	struct cov_count c = { 0, 0, STRBUF_INIT, NULL };
	struct input in;
	UNUSED(state);
	input_from_memory(&in, "c.xml", xstrdup(xml), strlen(xml));
	assert_int_equal(cobertura_parse(&in, count_line, &c), 0);
	assert_string_equal(c.files.buf, "/w/x/x/src/a/b.py\n");
	assert_int_equal(c.lines, 1);
	assert_int_equal(c.hits, 0);
	input_release(&in);
	strbuf_release(&c.files);
}

/* Every answer of codebase-memory-mcp's consumer contract (EXPECTED.tsv). */
static void cbm_answers(void **state)
{
	static const struct { const char *file; int ret; enum decision d; const char *tokens; } cases[] = {
		{ "narrowed.json", 0, DECISION_SELECTED, "alpha,beta:b_one,beta:b_two" },
		{ "conditional.json", 0, DECISION_SELECTED, "alpha,gamma" },
		{ "skipped.json", 0, DECISION_NOTHING, "" },
		{ "bad_token.json", 0, DECISION_RUN_ALL, "" },
		{ "disagrees.json", 0, DECISION_RUN_ALL, "" },
		{ "empty_tests.json", 0, DECISION_RUN_ALL, "" },
		{ "encoding.json", 0, DECISION_RUN_ALL, "" },
		{ "lane_run_all.json", 0, DECISION_RUN_ALL, "" },
		{ "no_filter.json", 0, DECISION_RUN_ALL, "" },
		{ "other_lane.json", 0, DECISION_RUN_ALL, "" },
		{ "run_all.json", 0, DECISION_RUN_ALL, "" },
		{ "skip_with_suites.json", 0, DECISION_RUN_ALL, "" },
		{ "stale.json", 0, DECISION_RUN_ALL, "" },
		/* What its consumer cannot read runs everything (selector-error). */
		{ "schema.json", 0, DECISION_RUN_ALL, "" },
		{ "truncated.json", 0, DECISION_RUN_ALL, "" },
		/* No file: nothing to read (record and ingest say so). */
		{ "missing.json", -1, DECISION_NONE, "" },
	};
	static const struct { const char *file, *reason, *warning; } closed[] = {
		{ "schema.json", "selector-error: unknown schema cbm.test_impact.v9",
		  "tiadash: warning: tests/data/cbm/answers/schema.json:1: codebase-memory-mcp "
		  "answer: unknown schema cbm.test_impact.v9 (expected cbm.test_impact.v0): "
		  "taken as run_all (selector-error), as its consumer runs everything\n" },
		{ "truncated.json", "selector-error: truncated answer",
		  "tiadash: warning: tests/data/cbm/answers/truncated.json:1: codebase-memory-mcp "
		  "answer: unexpected end of input: taken as run_all (selector-error), as its "
		  "consumer runs everything\n" },
	};

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct adapter_answer a = ADAPTER_ANSWER_INIT;
		struct adapter_opts o = ADAPTER_OPTS_INIT;
		struct strbuf tokens = STRBUF_INIT, text = STRBUF_INIT;
		char *path = xstrfmt("tests/data/cbm/answers/%s", cases[i].file);
		int ret;

		o.lane = "unit";
		ret = read_file_limit(&text, path, 0);
		capture_begin();
		if (!ret)
			ret = adapter_read_answer(&adapter_cbm, text.buf, text.len, path,
						  &o, &a);
		free(capture_end());
		for (size_t j = 0; j < a.entries.nr; j++)
			strbuf_addf(&tokens, "%s%s", j ? "," : "", a.entries.items[j]);
		if (ret != cases[i].ret || (!ret && (a.decision != cases[i].d ||
						    strcmp(tokens.buf, cases[i].tokens))))
			fail_msg("%s: ret %d decision %s tokens '%s'", cases[i].file, ret,
				 decision_name(a.decision), tokens.buf);
		if (a.decision == DECISION_RUN_ALL && !a.reasons.nr)
			fail_msg("%s: run_all without a reason", cases[i].file);
		strbuf_release(&tokens);
		strbuf_release(&text);
		adapter_answer_release(&a);
		free(path);
	}
	for (size_t i = 0; i < ARRAY_SIZE(closed); i++) {
		struct adapter_answer a = ADAPTER_ANSWER_INIT;
		struct strbuf text = STRBUF_INIT;
		char *path = xstrfmt("tests/data/cbm/answers/%s", closed[i].file), *msg;

		assert_int_equal(read_file_limit(&text, path, 0), 0);
		capture_begin();
		assert_int_equal(adapter_read_answer(&adapter_cbm, text.buf, text.len, path,
						     NULL, &a), 0);
		msg = capture_end();
		assert_string_equal(msg, closed[i].warning);
		assert_int_equal(a.reasons.nr, 1);
		assert_string_equal(a.reasons.items[0], closed[i].reason);
		free(msg);
		strbuf_release(&text);
		adapter_answer_release(&a);
		free(path);
	}
}

static void lists(void **state)
{
	const char *text = "# quarantine\r\n  a::b  \n\n#x\nc:d\r\nlast";
	struct strlist l = STRLIST_INIT;
	struct input in;

	UNUSED(state);
	input_from_memory(&in, "q.txt", xstrdup(text), strlen(text));
	assert_int_equal(list_parse(&in, &l), 0);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.items[0], "a::b");
	assert_string_equal(l.items[1], "c:d");
	assert_string_equal(l.items[2], "last");
	input_release(&in);
	strlist_release(&l);
	input_from_memory(&in, "bin.txt", xmemdup("a\0b\n", 4), 4);
	assert_int_equal(list_parse(&in, &l), -1);
	input_release(&in);
	strlist_release(&l);
}

#define SHA_A "0123456789abcdef0123456789abcdef01234567"
#define SHA_B "89abcdef0123456789abcdef0123456789abcdef"

static int parse_manifest(const char *fields, struct manifest *m)
{
	char *text = xstrfmt("{\"schema\": \"tiadash.run.v1\", \"base\": \"" SHA_A "\",\n"
			     " \"head\": \"" SHA_B "\", \"started_at\": \"2026-11-02T10:00:00Z\",\n"
			     " \"verdict\": \"pass\"%s}", fields);
	int ret;

	manifest_init(m);
	ret = manifest_parse(text, strlen(text), "m.json", m);
	free(text);
	return ret;
}

static void manifests(void **state)
{
	struct manifest m;

	UNUSED(state);
	assert_int_equal(parse_manifest(", \"kind\": \"shadow\", \"pr\": 12, \"attempt\": 2,"
					" \"wall_clock_s\": 90.5, \"selection\": {\"decision\":"
					" \"selected\", \"selected\": [\"a\", \"b\"], \"total_tests\": 10},"
					" \"results\": [\"r/j.xml\"], \"failed\": [\"a::b\"]", &m), 0);
	assert_int_equal(m.kind, RUN_SHADOW);
	assert_int_equal(m.pr, 12);
	assert_int_equal(m.attempt, 2);
	assert_true(m.wall_clock_s == 90.5);
	assert_int_equal(m.sel.selected.nr, 2);
	assert_int_equal(m.sel.total_tests, 10);
	assert_int_equal(m.results.nr, 1);
	assert_true(m.has_failed);
	manifest_release(&m);

	/* Each of these is refused. */
	{
		static const char *const bad[] = {
			"",                                              /* no kind */
			", \"kind\": \"nightly\"",
			", \"kind\": \"full\", \"attempt\": 0",
			", \"kind\": \"full\", \"pr\": 1.5",
			", \"kind\": \"full\", \"results\": [\"../etc/passwd\"]",
			", \"kind\": \"full\", \"results\": [\"/etc/passwd\"]",
			", \"kind\": \"full\", \"coverage\": [\"http://evil/x\"]",
			", \"kind\": \"full\", \"selection\": {\"decision\": \"run_all\"}",
			", \"kind\": \"shadow\", \"selection\": {\"decision\": \"selected\"}",
			", \"kind\": \"shadow\", \"selection\": {\"decision\": \"maybe\"}",
			", \"kind\": \"shadow\", \"wall_clock_s\": -1",
			", \"kind\": \"shadow\", \"results\": \"j.xml\"",
			", \"kind\": \"shadow\", \"quarantine\": \"a/../../q.txt\"",
		};

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			if (parse_manifest(bad[i], &m) != -1)
				fail_msg("accepted: %s", bad[i]);
			manifest_release(&m);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lcov_corpus),
		cmocka_unit_test(lcov_windows_paths),
		cmocka_unit_test(cobertura_corpus),
		cmocka_unit_test(cobertura_sources),
		cmocka_unit_test(cbm_answers),
		cmocka_unit_test(lists),
		cmocka_unit_test(manifests),
	};

	return cmocka_run_group_tests_name("formats", tests, NULL, NULL);
}
