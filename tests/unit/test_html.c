/*
 * The HTML pages' pieces: html_escape, the binning of chart values, and
 * golden SVG charts with fixed data (the .svg files of tests/data/chart, exact bytes;
 * TIADASH_UPDATE_GOLDEN=1 rewrites them, to be looked at before committing).
 */
#include "core/tiadash.h"
#include "core/chart.h"
#include "core/html.h"
#include "core/sanitize.h"

#include <setjmp.h>
#include <cmocka.h>

#define GOLDEN "tests/data/chart/"

static char *escaped(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	html_escape(&sb, s);
	return strbuf_detach(&sb, NULL);
}

static void test_html_escape(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain text, ok", "plain text, ok" },
		{ "<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;" },
		{ "a & b", "a &amp; b" },
		{ "\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;" },
		{ "\" onmouseover=\"x", "&quot; onmouseover=&quot;x" },
		{ "&lt; stays text", "&amp;lt; stays text" },
		{ "esc \033[31m bel \007", "esc \\x1b[31m bel \\x07" },
		{ "csi \xc2\x9b nel \xc2\x85", "csi \\xc2\\x9b nel \\xc2\\x85" },
		{ "rlo \xe2\x80\xae lri \xe2\x81\xa6", "rlo \\xe2\\x80\\xae lri \\xe2\\x81\\xa6" },
		{ "bad \xff byte", "bad \\xff byte" },
		{ "new\nline", "new\\x0aline" },
		{ "caf\xc3\xa9 \xe2\x98\x85", "caf\xc3\xa9 \xe2\x98\x85" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = escaped(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

static char *coded(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	html_code(&sb, s);
	return strbuf_detach(&sb, NULL);
}

/* An id may break after "/" and "::", and in a run of 40 without one; nowhere else. */
static void test_html_code(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "tests/registry/test_plugins.py::test_rounding_plugin_loaded",
		  "<code>tests/<wbr>registry/<wbr>test_plugins.py::<wbr>test_rounding_plugin_loaded</code>" },
		{ "web/ui.test.js::Toolbar > hides <b>",
		  "<code>web/<wbr>ui.test.js::<wbr>Toolbar &gt; hides &lt;b&gt;</code>" },
		{ "a:b:::c/", "<code>a:b:::<wbr>c/</code>" },
		{ "esc \033[31m/x", "<code>esc \\x1b[31m/<wbr>x</code>" },
		{ "0123456789012345678901234567890123456789012345",
		  "<code>0123456789012345678901234567890123456789<wbr>012345</code>" },
		{ "caf\xc3\xa9 \xe2\x98\x85/x", "<code>caf\xc3\xa9 \xe2\x98\x85/<wbr>x</code>" },
		{ "", "<code></code>" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = coded(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

static void test_bins(void **state)
{
	double c[4] = { 0 };

	(void)state;
	chart_bin_add(c, 4, 0, 1, 0);      /* the lower edge: the first bin */
	chart_bin_add(c, 4, 0, 1, 0.25);   /* an inner edge: the bin above it */
	chart_bin_add(c, 4, 0, 1, 0.2499);
	chart_bin_add(c, 4, 0, 1, 1);      /* the upper edge: the last bin, closed */
	chart_bin_add(c, 4, 0, 1, 1.0001); /* outside, NaN: not counted */
	chart_bin_add(c, 4, 0, 1, -0.1);
	chart_bin_add(c, 4, 0, 1, NAN);
	assert_true(c[0] == 2 && c[1] == 1 && c[2] == 0 && c[3] == 1);
}

static void test_round_up(void **state)
{
	size_t bins;

	(void)state;
	assert_true(chart_round_up(1566, 36, &bins) == 1600 && bins == 32);
	assert_true(chart_round_up(600, 36, &bins) == 600 && bins == 30);
	assert_true(chart_round_up(0, 36, &bins) == 1 && bins == 1);
	assert_true(chart_round_up(NAN, 36, &bins) == 1 && bins == 1);
}

/* sb equals the golden file's bytes (or rewrites it when asked). */
static void assert_golden(struct strbuf *sb, const char *name)
{
	char *path = xstrfmt(GOLDEN "%s", name);
	struct strbuf want = STRBUF_INIT;
	const char *update = getenv("TIADASH_UPDATE_GOLDEN");

	if (update && *update) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		fwrite(sb->buf, 1, sb->len, f);
		assert_int_equal(fclose(f), 0);
	}
	assert_int_equal(read_file_limit(&want, path, 0), 0);
	if (want.len != sb->len || memcmp(want.buf, sb->buf, sb->len)) {
		size_t i = 0, line = 1;

		while (i < want.len && i < sb->len && want.buf[i] == sb->buf[i])
			line += want.buf[i++] == '\n';
		print_error("%s differs from the chart at line %zu, byte %zu\n", path, line, i);
		fail();
	}
	strbuf_release(&want);
	free(path);
}

static void test_golden_line(void **state)
{
	static const char *const labels[] = { "11-01", "11-02", "11-03", "11-04", "11-05",
					      "11-06", "11-07" };
	static const char *const notes[] = { "14 pairs", "58 pairs", "56 pairs", "52 pairs",
					     "48 pairs", "0 pairs", "7 pairs" };
	static const double rate[] = { 0, 0.0517, 0.0357, 0.0577, 0.0417, NAN, 0 };
	static const double lo[] = { 0, 0.0144, 0.0043, 0.012, 0.005, NAN, 0 };
	static const double hi[] = { 0.232, 0.1431, 0.1231, 0.16, 0.1425, NAN, 0.41 };
	struct chart_series s = { .name = "escape rate", .v = rate, .lo = lo, .hi = hi,
				  .band_name = "95% interval", .style = CHART_BLUE,
				  .value_labels = true };
	struct chart_line c = {
		.c = { "golden-line", "Escape rate per day, 2026-11-01 to 2026-11-07, all repos", 0, 0 },
		.nr = 7, .labels = labels, .notes = notes, .x_label = "day (UTC), with its pairs",
		.y_label = "escapes / pairs", .y_fmt = CHART_RATE, .y_at_least = 0.05,
		.series = &s, .nr_series = 1,
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	chart_line_svg(&sb, &c);
	assert_golden(&sb, "line.svg");
	strbuf_release(&sb);
}

static void test_golden_hist(void **state)
{
	static const double shadow[10] = { 3, 41, 12, 2, 0, 0, 1, 4, 6, 2 };
	static const double full[10] = { 0, 0, 0, 0, 0, 1, 9, 30, 22, 8 };
	struct chart_marker sm[] = { { 142, "p50 142 s", CHART_BLACK, false },
				     { 874, "p95 874 s", CHART_VERMILION, true } };
	struct chart_marker fm[] = { { 780, "p50 780 s", CHART_BLACK, false },
				     { 905, "p95 905 s", CHART_VERMILION, true } };
	struct chart_series series[] = {
		{ .name = "shadow runs (71)", .v = shadow, .style = CHART_BLUE },
		{ .name = "full runs (70)", .v = full, .style = CHART_ORANGE },
	};
	struct chart_panel panels[] = {
		{ "shadow runs (71)", &series[0], 1, false, sm, 2 },
		{ "full runs (70)", &series[1], 1, false, fm, 2 },
	};
	struct chart_hist c = { { "golden-hist", "Gate wall-clock, shadow against full, "
				  "2026-11-01 to 2026-11-07, acme/<ledger>", 0, 220 },
				0, 1000, 10, "gate wall-clock of each head's latest run", "runs",
				CHART_SECONDS, panels, 2 };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	chart_hist_svg(&sb, &c);
	assert_golden(&sb, "hist.svg");
	strbuf_release(&sb);
}

static void test_golden_hbar(void **state)
{
	static const char *const rows[] = { "force-full:**/package-lock.json", "UNMAPPED_FILE",
					    "<b>\"quoted\" \033[31m reason</b>" };
	static const double minutes[] = { 312.9, 41.5, NAN };
	static const char *const notes[] = { "312.9 min, 15 runs", "41.5 min, 2 runs",
					     "n/a, 1 run" };
	static const bool marked[] = { false, true, false };
	struct chart_hbar_col col = { "gate minutes beyond a narrowed run", minutes, notes,
				      CHART_MINUTES, CHART_BLUE };
	struct chart_hbar c = { { "golden-hbar", "Force-full reasons by gate minutes", 0, 0 },
				3, rows, marked, "recommended", &col, 1, "and 2 more" };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	chart_hbar_svg(&sb, &c);
	assert_golden(&sb, "hbar.svg");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_html_code),
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_round_up),
		cmocka_unit_test(test_golden_line),
		cmocka_unit_test(test_golden_hist),
		cmocka_unit_test(test_golden_hbar),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
