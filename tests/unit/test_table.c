/*
 * The row model (core/table.c): each format's writer, escaping by cell
 * type, and a figure added as one column showing in every format.
 */
#include "core/tiadash.h"
#include "core/table.h"
#include "core/timeutil.h"

#include <time.h>

#include <setjmp.h>
#include <cmocka.h>

static char *render(const struct table *t, enum output_format f)
{
	struct strbuf sb = STRBUF_INIT;

	table_write(t, f, &sb);
	return strbuf_detach(&sb, NULL);
}

static const struct table_column base[] = {
	{ .key = "id", .head = "TEST", .type = CELL_ID },
	{ .key = "class", .head = "CLASS", .type = CELL_CLASS },
	{ .key = "ran", .head = "RAN", .type = CELL_COUNT },
	{ .key = "rate", .head = "RATE", .type = CELL_RATE },
	{ .key = "at", .head = "WHEN", .type = CELL_TIME, .formats = FORMAT_JSON | FORMAT_CSV | FORMAT_MD },
};

/* 2026-11-03T12:00:00Z */
#define AT 1793707200000LL

static void fill(struct table *t, bool figure)
{
	table_row(t);
	table_str(t, "a|b::=cmd()");
	table_str(t, "escape");
	table_count(t, 12);
	table_number(t, 0.125);
	table_time(t, AT);
	if (figure)
		table_number(t, 42.5);
	table_row(t);
	table_str(t, "t::`x`");
	table_str(t, NULL);
	table_count(t, 3);
	table_number(t, NAN);
	table_time(t, INT64_MAX);
	if (figure)
		table_null(t);
}

static void every_format(void **state)
{
	struct table t = TABLE_INIT(base);
	char *s;

	UNUSED(state);
	fill(&t, false);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "TEST         CLASS   RAN   RATE\n"
			       "a|b::=cmd()  escape   12  12.5%\n"
			       "t::`x`       -         3      -\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "id,class,ran,rate,at\n"
			       "a|b::=cmd(),escape,12,0.125,2026-11-03T12:00:00Z\n"
			       "t::`x`,,3,,\n");
	free(s);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| TEST | CLASS | RAN | RATE | WHEN |\n"
			       "|---|---|---:|---:|---|\n"
			       "| `a\\|b::=cmd()` | escape | 12 | 12.5% | 2026-11-03T12:00:00Z |\n"
			       "| `` t::`x` `` |  | 3 |  |  |\n");
	free(s);
	s = render(&t, FORMAT_JSON);
	assert_non_null(strstr(s, "\"id\":\t\"a|b::=cmd()\""));
	assert_non_null(strstr(s, "\"rate\":\tnull"));
	assert_non_null(strstr(s, "\"at\":\t\"2026-11-03T12:00:00Z\""));
	assert_non_null(strstr(s, "\"class\":\tnull"));
	free(s);
	s = render(&t, FORMAT_HTML);
	assert_non_null(strstr(s, "<td>a|b::=cmd()</td><td>escape</td><td class=\"num\">12</td>"));
	assert_null(strstr(s, "WHEN"));
	free(s);
	table_release(&t);
}

/* Hostile strings are escaped by their column's type, in every format. */
static void hostile(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "path", .head = NULL, .type = CELL_PATH },
		{ .key = "why", .head = NULL, .type = CELL_TEXT },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "a\033[31m.py");
	table_str(&t, "=1+1 <b>*x*</b> |");
	s = render(&t, FORMAT_TEXT);
	assert_null(strchr(s, '\033'));
	free(s);
	s = render(&t, FORMAT_MD);
	assert_null(strstr(s, "<b>"));
	assert_non_null(strstr(s, "\\|"));
	free(s);
	s = render(&t, FORMAT_HTML);
	assert_non_null(strstr(s, "&lt;b&gt;"));
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_non_null(strstr(s, ",\"'=1+1 <b>*x*</b> |\"\n"));
	free(s);
	table_release(&t);
}

/*
 * Adding a figure is one column: the same rows with a "minutes" column
 * show it in text, md, csv, json and html, with nothing else changed.
 */
static void one_column_every_format(void **state)
{
	static const struct table_column more[] = {
		{ .key = "id", .head = "TEST", .type = CELL_ID },
		{ .key = "class", .head = "CLASS", .type = CELL_CLASS },
		{ .key = "ran", .head = "RAN", .type = CELL_COUNT },
		{ .key = "rate", .head = "RATE", .type = CELL_RATE },
		{ .key = "at", .head = "WHEN", .type = CELL_TIME, .formats = FORMAT_JSON | FORMAT_CSV | FORMAT_MD },
		{ .key = "gate_minutes", .head = "GATE", .type = CELL_MINUTES },
	};
	static const enum output_format formats[] = {
		FORMAT_TEXT, FORMAT_MD, FORMAT_CSV, FORMAT_JSON, FORMAT_HTML,
	};
	struct table before = TABLE_INIT(base), after = TABLE_INIT(more);

	UNUSED(state);
	fill(&before, false);
	fill(&after, true);
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		char *b = render(&before, formats[i]), *a = render(&after, formats[i]);
		const char *want = formats[i] == FORMAT_CSV ? "42.5" :
				   formats[i] == FORMAT_JSON ? "\"gate_minutes\":\t42.5" : "42.5 min";

		assert_null(strstr(b, "42.5"));
		assert_non_null(strstr(a, want));
		assert_non_null(strstr(a, formats[i] == FORMAT_TEXT ? "GATE" :
					  formats[i] == FORMAT_JSON || formats[i] == FORMAT_CSV
					  ? "gate_minutes" : "GATE"));
		free(b);
		free(a);
	}
	table_release(&before);
	table_release(&after);
}

/* Text keeps the order it is given, gaps as the columns say. */
static void text_order(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "id", .head = "TEST", .type = CELL_ID },
		{ .key = "ran", .head = "RAN", .type = CELL_COUNT },
		{ .key = "missed", .head = "MISSED", .type = CELL_COUNT, .gap = 1 },
	};
	static const size_t order[] = { 2, 1, 0 };
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	t.text_order = order;
	t.nr_text_order = ARRAY_SIZE(order);
	table_row(&t);
	table_str(&t, "x");
	table_count(&t, 7);
	table_count(&t, 1);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "MISSED  RAN  TEST\n     1    7  x\n");
	free(s);
	table_release(&t);
}

/*
 * A fixed layout (report --by's, queue's): text columns at least text_width
 * wide (a wider cell still widens its column), md in its own order leaving
 * a column out, an empty head (a column of row labels) "| |" in md.
 */
static void text_width_md_order(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "label", .head = "", .type = CELL_TEXT, .text_width = 8 },
		{ .key = "a", .type = CELL_COUNT, .gap = 1, .text_width = 4 },
		{ .key = "b", .head = "bee", .type = CELL_TEXT, .right = true, .gap = 1,
		  .text_width = 3 },
		{ .key = "c", .type = CELL_COUNT, .formats = FORMAT_CSV },
	};
	static const size_t order[] = { 0, 2, 3, 1 };
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	t.md_order = order;
	t.nr_md_order = ARRAY_SIZE(order);
	table_row(&t);
	table_str(&t, "x");
	table_count(&t, 7);
	table_str(&t, "n/a");
	table_count(&t, 1);
	table_row(&t);
	table_str(&t, "long label");
	table_count(&t, 123456);
	table_str(&t, "7");
	table_count(&t, 2);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "                a bee\n"
			       "x               7 n/a\n"
			       "long label 123456   7\n");
	free(s);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| | bee | a |\n|---|---:|---:|\n| x | n/a | 7 |\n"
			       "| long label | 7 | 123456 |\n");
	free(s);
	/* csv keeps the columns' own order and shows the one md and text leave out. */
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "label,a,b,c\nx,7,n/a,1\nlong label,123456,7,2\n");
	free(s);
	table_release(&t);
}

/*
 * Colour (gate-check's results): in text only when the table asks, around
 * the value and its note, the padding outside so the columns still align.
 */
static void colored_cells(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "result", .type = CELL_CLASS },
		{ .key = "n", .type = CELL_COUNT },
		{ .key = "what", .type = CELL_TEXT },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "FAIL");
	table_note(&t, "(advisory)");
	table_color(&t, "\033[33m");
	table_count(&t, 7);
	table_color(&t, "\033[1m");
	table_str(&t, "x");
	table_row(&t);
	table_str(&t, "PASS");
	table_color(&t, "\033[32m");
	table_count(&t, 12);
	table_str(&t, "y");
	table_color(&t, "\033[31m");
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "result            n  what\n"
			       "FAIL (advisory)   7  x\n"
			       "PASS             12  y\n");
	free(s);
	t.color = true;
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "result            n  what\n"
			       "\033[33mFAIL (advisory)\033[m   \033[1m7\033[m  x\n"
			       "\033[32mPASS\033[m             12  \033[31my\033[m\n");
	free(s);
	/* No colour in the formats files keep. */
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| result | n | what |\n|---|---:|---|\n"
			       "| FAIL (advisory) | 7 | x |\n| PASS | 12 | y |\n");
	free(s);
	table_release(&t);
}

/*
 * A transposed table (queue's gates): text and md turned, a line a figure
 * under a head line of the rows' names; csv as rows, and its columns the
 * turned formats leave out.
 */
static void transposed(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "gate", .type = CELL_TEXT, .formats = FORMAT_CSV },
		{ .key = "name", .head = "", .type = CELL_TEXT,
		  .formats = FORMAT_TEXT | FORMAT_MD, .text_width = 12, .gap = 3 },
		{ .key = "per_hour", .head = "PRs per hour", .type = CELL_RATE, .plain = true,
		  .na = "n/a" },
		{ .key = "batches", .type = CELL_COUNT },
		{ .key = "wait_p50_s", .head = "wait p50", .type = CELL_SECONDS },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	t.transposed = true;
	table_row(&t);
	table_str(&t, "cheap");
	table_str(&t, "cheap gate");
	table_number(&t, 7.25);
	table_count(&t, 12);
	table_number(&t, 0);
	table_row(&t);
	table_str(&t, "full");
	table_str(&t, "full gate");
	table_number(&t, NAN);
	table_count(&t, 12345);
	table_number(&t, 13603.4);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "               cheap gate   full gate\n"
			       "PRs per hour          7.2         n/a\n"
			       "batches                12       12345\n"
			       "wait p50            0.0 s     13603 s\n");
	free(s);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| | cheap gate | full gate |\n|---|---:|---:|\n"
			       "| PRs per hour | 7.2 | n/a |\n| batches | 12 | 12345 |\n"
			       "| wait p50 | 0.0 s | 13603 s |\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "gate,per_hour,batches,wait_p50_s\ncheap,7.25,12,0\n"
			       "full,,12345,13603.4\n");
	free(s);
	table_release(&t);
}

/* A list cell and a code column (seed's tables), a null's own text, a page table's class. */
static void lists_and_code(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "mutant", .type = CELL_CODE },
		{ .key = "caught by", .type = CELL_CODE },
		{ .key = "rate", .type = CELL_RATE, .na = "n/a" },
	};
	struct table t = TABLE_INIT(cols);
	struct strlist l = STRLIST_INIT;
	char *s;

	UNUSED(state);
	strlist_push(&l, "t::a<b>");
	strlist_push(&l, "t::(c)");
	table_row(&t);
	table_str(&t, "a/b.js:3");
	table_list(&t, &l);
	table_number(&t, NAN);
	t.html_class = "escapes";
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| mutant | caught by | rate |\n|---|---|---:|\n"
			       "| a/b.js:3 | t::a&lt;b&gt;<br>t::\\(c\\) | n/a |\n");
	free(s);
	s = render(&t, FORMAT_HTML);
	assert_non_null(strstr(s, "<table class=\"escapes\">"));
	assert_non_null(strstr(s, "<tr><td><code>a/<wbr>b.js:3</code></td><td><code>t::<wbr>a&lt;b&gt;"
				  "</code><br><code>t::<wbr>(c)</code></td><td class=\"num\">n/a</td></tr>"));
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "mutant,caught by,rate\na/b.js:3,\"t::a<b>;t::(c)\",\n");
	free(s);
	s = render(&t, FORMAT_JSON);
	assert_non_null(strstr(s, "\"caught by\":\t[\"t::a<b>\", \"t::(c)\"]"));
	free(s);
	strlist_release(&l);
	table_release(&t);
}

/* Replay's cells: a PR, a day, a decision word (as it is in md, escaped elsewhere). */
static void pr_date_word(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "pr", .head = "PR", .type = CELL_PR },
		{ .key = "date", .type = CELL_DATE },
		{ .key = "decision", .type = CELL_CLASS },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_pr(&t, true, 782);
	table_time(&t, AT);
	table_word(&t, "run_all");
	table_row(&t);
	table_pr(&t, false, 0);
	table_time(&t, AT);
	table_str(&t, "run_all");
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| PR | date | decision |\n|---:|---|---|\n"
			       "| #782 | 2026-11-03 | run_all |\n|  | 2026-11-03 | run\\_all |\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "pr,date,decision\n782,2026-11-03T12:00:00Z,run_all\n"
			       ",2026-11-03T12:00:00Z,run_all\n");
	free(s);
	s = render(&t, FORMAT_JSON);
	assert_non_null(strstr(s, "\"pr\":\t782,"));
	assert_non_null(strstr(s, "\"pr\":\tnull,"));
	free(s);
	table_release(&t);
}

/* Propose's cells: a note for people, a change in minutes, seconds as people read them. */
static void note_delta_seconds(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "glob", .type = CELL_TEXT },
		{ .key = "added min", .type = CELL_MINUTES, .delta = true, .na = "n/a" },
		{ .key = "p95", .type = CELL_SECONDS },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "**/x_y/**");
	table_note(&t, "(suggested: built-in)");
	table_number(&t, 39.74);
	table_number(&t, 1474.4);
	table_row(&t);
	table_str(&t, "a");
	table_number(&t, NAN);
	table_number(&t, 9.54);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| glob | added min | p95 |\n|---|---:|---:|\n"
			       "| \\*\\*/x\\_y/\\*\\* (suggested: built-in) | +39.7 | 1474 s |\n"
			       "| a | n/a | 9.5 s |\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "glob,added min,p95\n**/x_y/**,39.740000000000002,1474.4000000000001\n"
			       "a,,9.5399999999999991\n");
	free(s);
	table_release(&t);
}

/* A one-row table's object is table_json's one element, the columns json shows. */
static void json_object(void **state)
{
	struct table t = TABLE_INIT(base);
	cJSON *o;
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "t::x");
	table_str(&t, NULL);
	table_count(&t, 3);
	table_number(&t, 0.5);
	table_time(&t, AT);
	o = table_json_object(&t);
	s = cJSON_PrintUnformatted(o);
	assert_string_equal(s, "{\"id\":\"t::x\",\"class\":null,\"ran\":3,\"rate\":0.5,"
			       "\"at\":\"2026-11-03T12:00:00Z\"}");
	free(s);
	cJSON_Delete(o);
	table_release(&t);
}

/* Report's per-day md: decimals by column, padded to the text's widths; csv as ever. */
static void places_md_width(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "pairs", .type = CELL_COUNT, .md_width = 6 },
		{ .key = "p50", .type = CELL_RATE, .plain = true, .places = 3, .na = "n/a",
		  .md_width = 9 },
		{ .key = "rate", .type = CELL_RATE, .places = 2 },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_count(&t, 58);
	table_number(&t, 0.0771);
	table_number(&t, 0.05172);
	table_row(&t);
	table_count(&t, 1234567);
	table_number(&t, NAN);
	table_number(&t, 0);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| pairs | p50 | rate |\n|---:|---:|---:|\n"
			       "|     58 |     0.077 | 5.17% |\n"
			       "| 1234567 |       n/a | 0.00% |\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "pairs,p50,rate\n58,0.077100000000000002,0.051720000000000002\n"
			       "1234567,,0\n");
	free(s);
	table_release(&t);
}

/* Propose's page: a bare table whose figures name their JSON keys, a lead before a glob. */
static void html_keys_lead(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "+runs", .type = CELL_COUNT, .html_key = "forced" },
		{ .key = "FF", .type = CELL_RATE, .na = "n/a", .html_key = "rate" },
		{ .key = "glob", .type = CELL_CODE },
	};
	static const size_t rows[] = { 30, 7 };
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	t.html_class = "candidates";
	t.html_bare = true;
	t.html_row_key = "proposals";
	t.html_rows = rows;
	table_row(&t);
	table_count(&t, 2);
	table_number(&t, 0.25);
	table_str(&t, "a<b");
	table_lead(&t, "* ");
	table_note(&t, "(suggested: built-in)");
	table_row(&t);
	table_count(&t, 0);
	table_number(&t, NAN);
	table_str(&t, "c");
	s = render(&t, FORMAT_HTML);
	assert_string_equal(s, "<table class=\"candidates\">\n<tr><th class=\"num\">+runs</th>"
			       "<th class=\"num\">FF</th><th>glob</th></tr>\n"
			       "<tr><td class=\"num\" data-key=\"proposals.30.forced\" data-value=\"2\">2"
			       "</td><td class=\"num\" data-key=\"proposals.30.rate\" data-value=\"0.25\">"
			       "25.0%</td><td>* <code>a&lt;b</code> (suggested: built-in)</td></tr>\n"
			       "<tr><td class=\"num\" data-key=\"proposals.7.forced\" data-value=\"0\">0"
			       "</td><td class=\"num\" data-key=\"proposals.7.rate\" data-value=\"null\">"
			       "n/a</td><td><code>c</code></td></tr>\n</table>\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	/* A key that a spreadsheet would read as a formula is quoted as any field. */
	assert_string_equal(s, "\"'+runs\",FF,glob\n2,0.25,a<b\n0,,c\n");
	free(s);
	table_release(&t);
}

/*
 * Replay's page: cells of their own class, a decision that never breaks
 * keyed by its JSON path as a word, parts after a value (a count and its
 * tests, a file and its rule's source), escaped by their kind; csv has the
 * values alone.
 */
static void html_parts_data(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "commit", .type = CELL_CODE, .html_td_class = "nowrap" },
		{ .key = "PR", .type = CELL_PR, .na = "-", .html_td_class = "" },
		{ .key = "decision", .type = CELL_TEXT, .html_nowrap = true },
		{ .key = "missed", .type = CELL_COUNT, .html_td_class = "" },
		{ .key = "file", .type = CELL_PATH },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	t.html_class = "changes";
	t.html_bare = true;
	table_row(&t);
	table_str(&t, "d74e109b0e");
	table_pr(&t, true, 782);
	table_data(&t, "changes.0.pr", 782);
	table_word(&t, "run_all");
	table_data_word(&t, "changes.0.decision", "run_<all>");
	table_part(&t, PART_LINE, PART_MORE, "disagrees: a<b");
	table_count(&t, 2);
	table_part(&t, PART_LINE, PART_CODE, "t/a::x");
	table_part(&t, PART_LINE, PART_MORE, "+1 more");
	table_str(&t, "p|q");
	table_part(&t, PART_SPACE, PART_NOWRAP, "(suggested: built-in)");
	table_part(&t, PART_COMMA, PART_CODE, "r|s");
	table_row(&t);
	table_str(&t, "abc");
	table_pr(&t, false, 0);
	table_word(&t, "nothing");
	table_count(&t, 0);
	table_null(&t);
	s = render(&t, FORMAT_HTML);
	assert_string_equal(s, "<table class=\"changes\">\n<tr><th>commit</th><th>PR</th>"
			       "<th>decision</th><th>missed</th><th>file</th></tr>\n"
			       "<tr><td class=\"nowrap\"><code>d74e109b0e</code></td>"
			       "<td data-key=\"changes.0.pr\" data-value=\"782\">#782</td>"
			       "<td data-key=\"changes.0.decision\" data-value=\"run_&lt;all&gt;\">"
			       "<span class=\"nowrap\">run_all</span><br><span class=\"more\">"
			       "disagrees: a&lt;b</span></td>"
			       "<td>2<br><code>t/<wbr>a::<wbr>x</code><br><span class=\"more\">+1 more"
			       "</span></td>"
			       "<td>p|q <span class=\"nowrap\">(suggested: built-in)</span>, "
			       "<code>r|s</code></td></tr>\n"
			       "<tr><td class=\"nowrap\"><code>abc</code></td><td>-</td>"
			       "<td><span class=\"nowrap\">nothing</span></td><td>0</td><td></td>"
			       "</tr>\n</table>\n");
	free(s);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "commit        PR  decision                             missed  file\n"
			       "d74e109b0e  #782  run_all; disagrees: a<b  2; t/a::x; +1 more  "
			       "p|q (suggested: built-in), r|s\n"
			       "abc            -  nothing                                   0  -\n");
	free(s);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| commit | PR | decision | missed | file |\n"
			       "|---|---:|---|---:|---|\n"
			       "| d74e109b0e | #782 | run_all<br>disagrees: a&lt;b | "
			       "2<br>`t/a::x`<br>+1 more | `p\\|q` \\(suggested: built-in\\), "
			       "`r\\|s` |\n"
			       "| abc | - | nothing | 0 |  |\n");
	free(s);
	s = render(&t, FORMAT_CSV);
	assert_string_equal(s, "commit,PR,decision,missed,file\nd74e109b0e,782,run_all,2,p|q\n"
			       "abc,,nothing,0,\n");
	free(s);
	table_release(&t);
}

/*
 * Propose's escapes: a cell all parts (an empty value, its first part
 * joined to it), or a word with a part joined; json has the value alone.
 */
static void parts_joined(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "changed", .type = CELL_TEXT },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "");
	table_part(&t, PART_JOINED, PART_CODE, "a/b.json");
	table_part(&t, PART_SPACE, PART_MORE, "no rule");
	table_part(&t, PART_LINE, PART_CODE, "c<d");
	table_row(&t);
	table_str(&t, "unknown");
	table_part(&t, PART_JOINED, PART_CODE, "e");
	s = render(&t, FORMAT_HTML);
	assert_string_equal(s, "<table>\n<thead><tr><th>changed</th></tr></thead>\n<tbody>\n"
			       "<tr><td><code>a/<wbr>b.json</code> <span class=\"more\">no rule"
			       "</span><br><code>c&lt;d</code></td></tr>\n"
			       "<tr><td>unknown<code>e</code></td></tr>\n</tbody>\n</table>\n");
	free(s);
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "changed\na/b.json no rule; c<d\nunknowne\n");
	free(s);
	s = render(&t, FORMAT_JSON);
	assert_string_equal(s, "[{\n\t\t\"changed\":\t\"\"\n\t}, {\n\t\t\"changed\":\t"
			       "\"unknown\"\n\t}]\n");
	free(s);
	table_release(&t);
}

/*
 * Replay's text, printf's layout: a PR aligned left (left), a label cut
 * to its width with "..." and padded in characters, figures padded to
 * their width alone (text_fixed: a wider one widens its own line), an
 * empty last cell's gap left for the caller to trim; md's empty cell of
 * an md_tight column is "| |".
 */
static void fixed_left_tight(void **state)
{
	static const struct table_column cols[] = {
		{ .key = "total", .head = "", .type = CELL_TEXT, .text_width = 8,
		  .text_fixed = true, .text_cut = true },
		{ .key = "pr", .head = "PR", .type = CELL_PR, .gap = 1, .text_width = 6,
		  .left = true },
		{ .key = "n", .head = "N", .type = CELL_COUNT, .gap = 1, .text_width = 4,
		  .text_fixed = true, .md_tight = true },
		{ .key = "what", .head = "WHAT", .type = CELL_TEXT, .gap = 1 },
	};
	struct table t = TABLE_INIT(cols);
	char *s;

	UNUSED(state);
	table_row(&t);
	table_str(&t, "dócs/ñandú");
	table_pr(&t, true, 12);
	table_count(&t, 123456);
	table_str(&t, "");
	table_row(&t);
	table_str(&t, "añb");
	table_pr(&t, false, 0);
	table_null(&t);
	table_str(&t, "x");
	table_row(&t);
	table_str(&t, "esc\x1b]0;");
	table_pr(&t, true, 12345678);
	table_count(&t, 7);
	table_str(&t, "y");
	s = render(&t, FORMAT_TEXT);
	assert_string_equal(s, "         PR           N WHAT\n"
			       "dócs/... #12       123456 \n"
			       "añb      -            - x\n"
			       "esc\\x... #12345678    7 y\n");
	free(s);
	s = render(&t, FORMAT_MD);
	assert_string_equal(s, "| | PR | N | WHAT |\n|---|---:|---:|---|\n"
			       "| dócs/ñandú | #12 | 123456 |  |\n"
			       "| añb |  | | x |\n"
			       "| esc\\\\x1b\\]0; | #12345678 | 7 | y |\n");
	free(s);
	table_release(&t);
}

/* The padding and numbers the text tables write without printf: printf's. */
static void addint_as_printf(void **state)
{
	static const int64_t values[] = { 0, 1, 7, 9, 10, 99, 100, 2026, 99999, -1, -5, -10,
					  -2026, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	char want[64];

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		for (int width = 0; width <= 6; width++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, "x");
			strbuf_addint(&sb, values[i], width);
			snprintf(want, sizeof(want), "x%0*" PRId64, width, values[i]);
			assert_string_equal(sb.buf, want);
			strbuf_release(&sb);
		}
}

static void addchars_pads(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	UNUSED(state);
	strbuf_addchars(&sb, ' ', 0);
	assert_int_equal(sb.len, 0);
	strbuf_addstr(&sb, "a");
	strbuf_addchars(&sb, ' ', 3);
	strbuf_addchars(&sb, '0', 2);
	assert_string_equal(sb.buf, "a   00");
	strbuf_release(&sb);
}

/* RFC 3339 times in UTC as gmtime and strftime write them, to the millisecond. */
static void time_format_as_gmtime(void **state)
{
	static const int64_t ms[] = { 0, 1, 999, 1000, 86399999, 86400000, -1, -86400000,
				      951782400000, 1767225599123, 1796694747930,
				      253402300799999 };
	char want[64], frac[8];

	UNUSED(state);
	for (size_t i = 0; i < ARRAY_SIZE(ms); i++) {
		struct strbuf sb = STRBUF_INIT, date = STRBUF_INIT;
		time_t sec = (time_t)(ms[i] >= 0 ? ms[i] / 1000 : -((999 - ms[i]) / 1000));
		int64_t rest = ms[i] - (int64_t)sec * 1000;
		struct tm tm;

		gmtime_r(&sec, &tm);
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(frac, sizeof(frac), ".%03d", (int)rest);
		strcat(want, rest ? frac : "");
		strcat(want, "Z");
		time_format(&sb, ms[i]);
		assert_string_equal(sb.buf, want);
		time_format_date(&date, ms[i]);
		assert_int_equal(date.len, 10);
		assert_memory_equal(date.buf, want, 10);
		strbuf_release(&sb);
		strbuf_release(&date);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_format),
		cmocka_unit_test(addint_as_printf),
		cmocka_unit_test(addchars_pads),
		cmocka_unit_test(time_format_as_gmtime),
		cmocka_unit_test(hostile),
		cmocka_unit_test(one_column_every_format),
		cmocka_unit_test(text_order),
		cmocka_unit_test(text_width_md_order),
		cmocka_unit_test(colored_cells),
		cmocka_unit_test(transposed),
		cmocka_unit_test(lists_and_code),
		cmocka_unit_test(pr_date_word),
		cmocka_unit_test(note_delta_seconds),
		cmocka_unit_test(json_object),
		cmocka_unit_test(places_md_width),
		cmocka_unit_test(html_keys_lead),
		cmocka_unit_test(html_parts_data),
		cmocka_unit_test(parts_joined),
		cmocka_unit_test(fixed_left_tight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
