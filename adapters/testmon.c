/* The pytest-testmon adapter: `pytest --testmon --collect-only -q` answers (its force-full list is a plain glob list: the lists adapter's). */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/input.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

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
	struct adapter_read *c;
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
	struct adapter_read *c = st->c;
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
			return answer_error(c, lineno, "the summary does not add up "
					   "(%" PRId64 " + %" PRId64 " deselected is "
					   "not %" PRId64 ")", st->selected, desel, all);
		return 0;
	}
	if (st->summary_line) {
		/* After the summary: only "!!! Interrupted: ... !!!". */
		if (line[0] == '!' && is_section_line(line, len))
			return 0;
		return answer_error(c, lineno, "unexpected line after the summary: '%.*s'",
				   (int)(len > 80 ? 80 : len), line);
	}
	if (is_section_line(line, len)) {
		st->in_section = true;
		return 0;
	}
	if (st->in_section)
		return 0;
	if (line[0] == ' ' || line[0] == '\t' || !memmem(line, len, "::", 2))
		return answer_error(c, lineno, "not a test node id (PATH::NAME): "
				   "'%.*s' (give pytest -q --collect-only output)",
				   (int)(len > 80 ? 80 : len), line);
	if (!st->first_id_line)
		st->first_id_line = lineno;
	st->ids++;
	answer_add_entry(c, line);
	return 0;
}

static int read_pytest(struct adapter_read *c, struct input *in)
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
		ret = answer_error(c, 0, "no summary line (\"N tests collected in "
				  "Xs\"): truncated, or not pytest -q "
				  "--collect-only output");
	if (!ret && st.errors > 0) {
		/* A selector that errored selects nothing it can vouch for. */
		strlist_release(&c->out->entries);
		c->out->decision = DECISION_RUN_ALL;
		answer_add_reason(c, "selector-error");
	} else if (!ret) {
		if (st.ids != st.selected)
			ret = answer_error(c, st.summary_line, "the summary counts %" PRId64
					  " tests but %" PRId64 " node ids are listed "
					  "(truncated?)", st.selected, st.ids);
		else if (c->out->entries.nr != (size_t)st.ids)
			ret = answer_error(c, st.first_id_line, "a node id is listed twice");
		c->out->decision = st.ids ? DECISION_SELECTED : DECISION_NOTHING;
		c->out->has_selected = true;
		c->out->selected_count = st.ids;
	}
	pcre2_match_data_free(st.md);
	pcre2_code_free(st.re);
	return ret;
}

static int testmon_answer(struct adapter_read *c)
{
	struct input in;
	int ret;

	/* The line reader's rules (CR, NUL, long lines) apply to a listing too. */
	input_from_memory(&in, c->name, xmemdup(c->text, c->len), c->len);
	ret = read_pytest(c, &in);
	input_release(&in);
	return ret;
}

static int testmon_detect(const char *path, const char *base)
{
	(void)path;
	(void)base;
	return 0; /* its force-full list is a plain glob list */
}

static const char *const testmon_aliases[] = { "pytest", "pytest-testmon", NULL };

const struct adapter adapter_testmon = {
	.name = "testmon",
	.aliases = testmon_aliases,
	.answer_what = "pytest collect-only output",
	.config_what = "pytest-testmon force-full list",
	.detect_name = testmon_detect,
	.read_answer = testmon_answer,
	.command = "pytest --testmon --collect-only -q",
};
