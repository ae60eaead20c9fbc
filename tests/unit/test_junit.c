/* JUnit parser: every report of the real-world corpus, counted as its producers count. */
#include "core/tiadash.h"
#include "ingest/junit.h"
#include "ingest/testset.h"

#include <setjmp.h>
#include <cmocka.h>

#define CORPUS "tests/data/corpus/junit/"

static const struct expect {
	const char *file;
	int64_t tests, failed, errors, flaky, skipped;
} corpus[] = {
	{ "catch2_report.xml", 1, 1, 0, 0, 0 },
	{ "container-structure-test.xml", 3, 0, 0, 0, 0 },
	{ "cunit_testFailure.xml", 4, 1, 0, 0, 0 },
	{ "eslint-junit-formatter.xml", 1, 0, 0, 0, 0 },
	{ "go-junit-report_012-subtests.xml", 11, 4, 0, 0, 1 },
	{ "go-junit-report_030-stdout.xml", 17, 9, 0, 0, 0 },
	{ "gotestsum_junitxml-report.xml", 60, 13, 0, 0, 5 },
	{ "jest-junit_empty-testsuite.xml", 0, 0, 0, 0, 0 },
	{ "jest-junit_large.xml", 4239, 2, 0, 0, 30 },
	{ "jest-junit_test-errors.xml", 2, 0, 2, 0, 0 },
	{ "junit_empty-failures.xml", 3, 1, 0, 0, 0 },
	{ "marathon-android_DummyUtilTest.xml", 1, 1, 0, 0, 0 },
	{ "marathon-android_flaky-failure.xml", 1, 0, 0, 1, 0 },
	{ "mocha-junit-reporter_15k.xml", 1, 0, 0, 0, 0 },
	{ "nested_junit.xml", 5, 3, 0, 0, 0 },
	{ "nested_multi-level.xml", 3, 0, 0, 0, 0 },
	{ "nette-tester_v1.7.xml", 65, 1, 0, 0, 3 },
	{ "nextest_basic.xml", 3, 1, 0, 0, 0 },
	{ "perl_result.xml", 1, 0, 0, 0, 0 },
	{ "phpunit_basic.xml", 12, 2, 0, 0, 0 },
	{ "phpunit_empty.xml", 0, 0, 0, 0, 0 },
	{ "pytest_report-flaky.xml", 4, 2, 0, 0, 0 },
	{ "pytest_xunit.xml", 10, 2, 0, 0, 2 },
	{ "python-unittest_xunit.xml", 8, 1, 1, 0, 2 },
	{ "surefire_EmailAddressTest.xml", 9, 2, 5, 0, 0 },
	{ "surefire_TEST-org.apache.pulsar.AddMissingPatchVersionTest.xml", 2, 1, 0, 0, 1 },
	{ "surefire_flaky.xml", 1, 0, 0, 1, 0 },
	{ "surefire_pulsar-aggregate.xml", 808, 1, 0, 0, 14 },
	{ "swift_xunit.xml", 3, 1, 0, 0, 0 },
	{ "testmo_conventions.xml", 1, 0, 0, 0, 0 },
	{ "testmo_junit-complete.xml", 8, 1, 1, 0, 1 },
	{ "testmo_testcase-properties.xml", 1, 0, 0, 0, 0 },
	{ "tst_testDisabled.xml", 22, 4, 2, 0, 10 },
	{ "xunit-c_report.xml", 4, 1, 0, 0, 0 },
};

static void corpus_counts(void **state)
{
	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(corpus); i++) {
		struct junit_stats st = { 0 };
		struct input in;
		char *path = xstrfmt(CORPUS "%s", corpus[i].file);

		input_from_file(&in, path);
		if (junit_parse(&in, NULL, NULL, &st) != 0)
			fail_msg("%s did not parse", corpus[i].file);
		if (st.tests != corpus[i].tests || st.failed != corpus[i].failed ||
		    st.errors != corpus[i].errors || st.flaky != corpus[i].flaky ||
		    st.skipped != corpus[i].skipped)
			fail_msg("%s: got %" PRId64 "/%" PRId64 "/%" PRId64 "/%" PRId64
				 "/%" PRId64, corpus[i].file, st.tests, st.failed,
				 st.errors, st.flaky, st.skipped);
		input_release(&in);
		free(path);
	}
}

struct seen {
	struct strbuf ids;
};

static int record(const struct junit_case *c, void *data)
{
	struct seen *s = data;
	static const char outcome[] = "PFEKS";

	strbuf_addf(&s->ids, "%c %s::%s\n", outcome[c->outcome], c->suite, c->name);
	return 0;
}

static char *cases_of_bytes(const char *xml, size_t len)
{
	struct seen s = { STRBUF_INIT };
	struct junit_stats st = { 0 };
	struct input in;

	input_from_memory(&in, "mem.xml", xmemdup(xml, len), len);
	if (junit_parse(&in, record, &s, &st) != 0)
		strbuf_addstr(&s.ids, "ERROR");
	input_release(&in);
	return strbuf_detach(&s.ids, NULL);
}

static char *cases_of(const char *xml)
{
	return cases_of_bytes(xml, strlen(xml));
}

static int record_detail(const struct junit_case *c, void *data)
{
	struct seen *s = data;

	if (c->message)
		strbuf_addf(&s->ids, "%s [%s] [%s]\n", c->name, c->message, c->text);
	else
		strbuf_addf(&s->ids, "%s -\n", c->name);
	return 0;
}

/* A failure's message and text (CDATA, nested elements) reach the callback, cut short. */
static void failure_details(void **state)
{
	static const char xml[] =
		"<testsuite><testcase name='a'/>"
		"<testcase name='b'><failure message='m1'>line 1\n<![CDATA[x < y]]></failure>"
		"<error message='second'>ignored</error><system-out>out</system-out></testcase>"
		"<testcase name='c'><error message='e'><stackTrace>at f()</stackTrace></error></testcase>"
		"<testcase name='d'><flakyFailure message='once'>t</flakyFailure></testcase>"
		"<testcase name='e'><failure/></testcase></testsuite>";
	struct seen s = { STRBUF_INIT };
	struct junit_stats st = { 0 };
	struct strbuf big = STRBUF_INIT;
	struct input in;

	UNUSED(state);
	input_from_memory(&in, "mem.xml", xmemdup(xml, sizeof(xml) - 1), sizeof(xml) - 1);
	assert_int_equal(junit_parse(&in, record_detail, &s, &st), 0);
	assert_string_equal(s.ids.buf, "a -\nb [m1] [line 1\nx < y]\nc [e] [at f()]\nd -\ne [] []\n");
	input_release(&in);
	strbuf_reset(&s.ids);
	/* A huge text is kept to JUNIT_TEXT_MAX bytes. */
	strbuf_addstr(&big, "<testsuite><testcase name='h'><failure message='m'>");
	for (int i = 0; i < 2 * JUNIT_TEXT_MAX; i++)
		strbuf_addch(&big, 'x');
	strbuf_addstr(&big, "</failure></testcase></testsuite>");
	input_from_memory(&in, "big.xml", xmemdup(big.buf, big.len), big.len);
	assert_int_equal(junit_parse(&in, record_detail, &s, &st), 0);
	assert_int_equal(s.ids.len, strlen("h [m] []\n") + JUNIT_TEXT_MAX);
	input_release(&in);
	strbuf_release(&big);
	strbuf_release(&s.ids);
}

/* The same failure twice is one digest: white space and addresses do not count. */
static void failure_digests(void **state)
{
	char a[17], b[17], c[17], d[17];
	char *ex;

	UNUSED(state);
	failure_digest("assert 3 == 4", "  def t():\n\n>  assert f() == 4\nE at 0x7f3a2c1e90\nrest 1", a);
	failure_digest("assert  3 == 4 ", "def t():\n>  assert   f() == 4\nE at 0x00aa11bb22\nrest 2", b);
	failure_digest("assert 5 == 4", "def t():\n>  assert f() == 4\nE at 0x7f3a2c1e90", c);
	failure_digest("assert 3 == 4", "def t():\n>  assert g() == 4\nE at 0x7f3a2c1e90", d);
	assert_int_equal(strlen(a), 16);
	assert_string_equal(a, b); /* the fourth line is not read */
	assert_string_not_equal(a, c); /* another actual value */
	assert_string_not_equal(a, d); /* another line in the first three */
	ex = failure_excerpt("msg", "text");
	assert_string_equal(ex, "msg\ntext");
	free(ex);
}

/* Reports from Windows tools: UTF-16 with a BOM, single-byte code pages. */
static void encodings(void **state)
{
	static const char utf16le[] =
		"\xff\xfe<\0t\0e\0s\0t\0s\0u\0i\0t\0e\0>\0<\0t\0e\0s\0t\0c\0a\0s\0e\0"
		" \0n\0a\0m\0e\0=\0'\0\xe9\0'\0/\0>\0<\0/\0t\0e\0s\0t\0s\0u\0i\0t\0e\0>\0";
	char *got;

	UNUSED(state);
	assert_true(junit_sniff(utf16le, sizeof(utf16le) - 1));
	got = cases_of_bytes(utf16le, sizeof(utf16le) - 1);
	assert_string_equal(got, "P ::\xc3\xa9\n");
	free(got);
	got = cases_of("<?xml version='1.0' encoding='windows-1252'?>"
		       "<testsuite><testcase classname='Caf\xe9' name='\x80'><failure/></testcase></testsuite>");
	assert_string_equal(got, "F Caf\xc3\xa9::\xe2\x82\xac\n");
	free(got);
	got = cases_of("<?xml version='1.0' encoding='shift_jis'?><testsuite/>");
	assert_string_equal(got, "ERROR");
	free(got);
}

/* file, then classname, then the enclosing suite's file, then its name. */
static void suite_keys(void **state)
{
	char *got;

	UNUSED(state);
	got = cases_of("<testsuites><testsuite name='S' file='s.js'>"
		       "<testcase file='a.py' classname='a' name='t1'/>"
		       "<testcase classname='pkg.A' name='t2'/>"
		       "<testcase classname='' name='t3'/>"
		       "<testsuite name='inner'><testcase name='t4'/></testsuite>"
		       "</testsuite></testsuites>");
	assert_string_equal(got, "P a.py::t1\nP pkg.A::t2\nP s.js::t3\nP inner::t4\n");
	free(got);
}

/* Only direct children decide; a failure wins over flaky and skipped. */
static void outcomes(void **state)
{
	char *got;

	UNUSED(state);
	got = cases_of("<testsuite name='s'>"
		       "<testcase classname='c' name='f'><failure/><rerunFailure/></testcase>"
		       "<testcase classname='c' name='e'><error><![CDATA[<failure/>]]></error></testcase>"
		       "<testcase classname='c' name='k'><flakyFailure/><system-out/></testcase>"
		       "<testcase classname='c' name='s'><skipped/></testcase>"
		       "<testcase classname='c' name='p'><system-out><failure/></system-out></testcase>"
		       "</testsuite>");
	assert_string_equal(got, "F c::f\nE c::e\nK c::k\nS c::s\nP c::p\n");
	free(got);
}

/* googletest and ctest say "not run" in attributes, sometimes with no child. */
static void skipped_by_status(void **state)
{
	char *got;

	UNUSED(state);
	got = cases_of("<testsuite name='s'>"
		       "<testcase classname='g' name='d' status='notrun' result='suppressed'/>"
		       "<testcase classname='g' name='k' status='run' result='skipped'><skipped/></testcase>"
		       "<testcase classname='c' name='off' status='disabled'/>"
		       "<testcase classname='c' name='bad' status='fail'><failure/></testcase>"
		       "<testcase classname='g' name='ok' status='run' result='completed'/>"
		       "</testsuite>");
	assert_string_equal(got, "S g::d\nS g::k\nS c::off\nF c::bad\nP g::ok\n");
	free(got);
}

static void expect_error(const char *xml)
{
	struct junit_stats st = { 0 };
	struct input in;

	input_from_memory(&in, "bad.xml", xstrdup(xml), strlen(xml));
	assert_int_equal(junit_parse(&in, NULL, NULL, &st), -1);
	input_release(&in);
}

static void malformed(void **state)
{
	struct junit_stats st = { 0 };
	struct input in;
	const char *bad[] = { "surefire_corrupt_TEST-test.CorruptTest.xml",
			      "web-test-runner_expectedRetries.xml" };

	UNUSED(state);
	expect_error("");
	expect_error("<testsuites><testsuite name='x'><testcase name='a'/>");
	expect_error("<coverage/>");
	expect_error("\x7f\x45\x4c\x46\x02\x01\x01");
	expect_error("<!DOCTYPE x [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>"
		     "<!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'><!ENTITY d '&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;'>"
		     "<!ENTITY e '&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;'><!ENTITY f '&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;'>"
		     "<!ENTITY g '&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;'><!ENTITY h '&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;'>]>"
		     "<testsuite><testcase name='&h;&h;&h;&h;&h;&h;'/></testsuite>");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *path = xstrfmt(CORPUS "%s", bad[i]);

		input_from_file(&in, path);
		assert_int_equal(junit_parse(&in, NULL, NULL, &st), -1);
		input_release(&in);
		free(path);
	}
}

static void deep_nesting(void **state)
{
	struct strbuf xml = STRBUF_INIT;

	UNUSED(state);
	for (int i = 0; i < 20000; i++)
		strbuf_addstr(&xml, "<testsuite>");
	expect_error(xml.buf);
	strbuf_release(&xml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_counts),
		cmocka_unit_test(suite_keys),
		cmocka_unit_test(outcomes),
		cmocka_unit_test(skipped_by_status),
		cmocka_unit_test(encodings),
		cmocka_unit_test(malformed),
		cmocka_unit_test(deep_nesting),
		cmocka_unit_test(failure_details),
		cmocka_unit_test(failure_digests),
	};

	return cmocka_run_group_tests_name("junit", tests, NULL, NULL);
}
