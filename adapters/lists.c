/*
 * The plain-lists adapter: tiadash rule files and plain glob lists (the
 * pytest-testmon wrapper's force-full list is one), and the line protocol
 * a plain selector command (`make check-affected`, a script) answers in.
 */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/sanitize.h"
#include "core/timeutil.h"

#include <ctype.h>

/* Control characters, NUL, DEL, C1 or invalid UTF-8 anywhere: garbage. */
static int check_bytes(struct adapter_read *c)
{
	const unsigned char *p = (const unsigned char *)c->text;
	size_t len = c->len;
	int line = 1;

	for (size_t i = 0; i < len;) {
		int n = utf8_seq_len(p + i, len - i);

		if (p[i] == '\n') {
			line++;
			i++;
			continue;
		}
		if (p[i] == '\r' && i + 1 < len && p[i + 1] == '\n') {
			i++;
			continue;
		}
		if (n == 0)
			return answer_error(c, line, "invalid UTF-8");
		if ((n == 1 && (p[i] < 0x20 || p[i] == 0x7f)) ||
		    (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0))
			return answer_error(c, line, "a control character (\\x%02x)",
					    p[i] == 0xc2 ? p[i + 1] : p[i]);
		i += (size_t)n;
	}
	return 0;
}

static void split_words(struct adapter_read *c, const char *s)
{
	while (*s) {
		size_t n;
		char *w;

		while (*s == ' ')
			s++;
		n = strcspn(s, " ");
		if (n) {
			w = xstrndup(s, n);
			answer_add_reason(c, w);
			free(w);
		}
		s += n;
	}
}

/*
 * The line protocol: test ids (or suites, directories) one per line; or
 * "run_all" and reasons on its first line (more reasons on the lines
 * after); or "nothing"; an answer without a line is "nothing" too. Lines
 * are trimmed, blank ones skipped, repeated ids kept once.
 */
static int lists_answer(struct adapter_read *c)
{
	struct strlist lines = STRLIST_INIT;
	const char *p = c->text, *end = c->text + c->len;
	int ret = 0;

	if (check_bytes(c) < 0)
		return -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		char *t = trim(line);

		if (*t)
			strlist_push(&lines, t);
		free(line);
		p = nl ? nl + 1 : end;
	}
	if (!lines.nr) {
		c->out->decision = DECISION_NOTHING;
	} else if (!strcmp(lines.items[0], "run_all") ||
		   starts_with(lines.items[0], "run_all ")) {
		c->out->decision = DECISION_RUN_ALL;
		split_words(c, lines.items[0] + 7);
		for (size_t i = 1; i < lines.nr; i++)
			answer_add_reason(c, lines.items[i]);
	} else if (!strcmp(lines.items[0], "nothing")) {
		if (lines.nr > 1)
			ret = answer_error(c, 2, "'nothing' and then test ids");
		else
			c->out->decision = DECISION_NOTHING;
	} else {
		c->out->decision = DECISION_SELECTED;
		for (size_t i = 0; i < lines.nr; i++)
			answer_add_entry(c, lines.items[i]);
	}
	strlist_release(&lines);
	return ret;
}

/*
 * ---- another tool's config under a name no adapter claims ----
 *
 * Every line of a tiadash rule file is a glob, so a YAML, JSON or JS file
 * (a moon config's backup, all.yml.orig) would read as run_all globs
 * without a word. No glob a rule file needs looks like their lines: a
 * column-0 "key:" (then a blank or the line's end), "---", a JSON array,
 * an import, export or defineConfig.
 */
struct foreign {
	const char *what;  /* "YAML": the format */
	const char *tool;  /* the adapter that reads it */
	const char *names; /* the file names it reads it as */
};

static bool yaml_key_line(const char *s, size_t n, const char *key)
{
	size_t k = 0;

	if (key)
		return n > strlen(key) && !memcmp(s, key, strlen(key)) &&
		       s[strlen(key)] == ':';
	while (k < n && s[k] && (isalnum((unsigned char)s[k]) || strchr("_$.-", s[k])))
		k++;
	return k && k < n && s[k] == ':' && !isdigit((unsigned char)s[0]) &&
	       (k + 1 == n || s[k + 1] == ' ' || s[k + 1] == '\t' || s[k + 1] == '\r');
}

static bool js_line(const char *s, size_t n)
{
	static const char *const starts[] = {
		"import ", "import{", "export ", "module.exports", "require(", NULL,
	};

	for (size_t i = 0; starts[i]; i++)
		if (n >= strlen(starts[i]) && !memcmp(s, starts[i], strlen(starts[i])))
			return true;
	return memmem(s, n, "defineConfig(", 13) != NULL;
}

/* Which tool's a YAML text is: harness's selection, else moon's. */
static void yaml_owner(const char *text, size_t len, struct foreign *f)
{
	const char *p = text, *end = text + len;
	bool moon = memmem(text, len, "moonrepo.dev", 12) != NULL;

	f->what = "YAML";
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (yaml_key_line(p, n, "selection")) {
			f->tool = "harness";
			f->names = "*.yml or *.yaml, with selection.no_subset_paths";
			return;
		}
		moon = moon || yaml_key_line(p, n, "fileGroups") ||
		       yaml_key_line(p, n, "tasks") || yaml_key_line(p, n, "implicitInputs");
		p = nl ? nl + 1 : end;
	}
	f->tool = moon ? "moon" : "harness or moon";
	f->names = moon ? "moon.yml, .moon/tasks.yml or .moon/tasks/*.yml"
		        : "*.yml or *.yaml (harness), moon.yml or "
			  ".moon/tasks/*.yml (moon)";
}

/*
 * A JSON array (a JSON object is the JSON adapters' already): gstack's
 * list. "[ab]*.txt" is a glob; a whole text that parses is not.
 */
static int json_array_line(const char *text, size_t len)
{
	size_t b = strspn(text, " \t\r\n");
	cJSON *root;

	if (b >= len || text[b] != '[' || !(root = conf_json_quiet(text, len, false)))
		return 0;
	cJSON_Delete(root);
	return line_of_offset(text, len, b);
}

/* The first line that is another format's (0: none), and whose. */
static int foreign_line(const char *text, size_t len, struct foreign *f)
{
	const char *p = text, *end = text + len;
	int lineno = json_array_line(text, len);

	if (lineno) {
		*f = (struct foreign){ "JSON", "gstack", ".gstack/always-run.json" };
		return lineno;
	}

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), b = 0;

		lineno++;
		while (b < n && (p[b] == ' ' || p[b] == '\t'))
			b++;
		if (js_line(p + b, n - b)) {
			*f = (struct foreign){ "a JS/TS config", "vitest",
					       "vitest.config.* or vite.config.*" };
			return lineno;
		}
		if ((n >= 3 && !memcmp(p, "---", 3) && (n == 3 || p[3] == '\r')) ||
		    yaml_key_line(p, n, NULL)) {
			yaml_owner(text, len, f);
			return lineno;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

static int lists_rules(struct rules *r, const char *text, size_t len, const char *path,
		       int variant)
{
	struct foreign f;
	int line = foreign_line(text, len, &f);

	(void)variant;
	if (line)
		return error("%s:%d: %s, not a tiadash rule file: the %s adapter reads "
			     "it (as %s)", path, line, f.what, f.tool, f.names);
	return rules_parse_tiadash(r, text, len, path);
}

static int lists_plan(struct adapter_edit *e, const char *path, const char *glob,
		      int64_t now)
{
	struct strbuf *t = &e->new_text;
	enum rule_action a;

	(void)path;
	if (rules_action_parse(glob, &a))
		return error("'%s' would read as an action, not a glob, in a rule file",
			     glob);
	strbuf_addstr(t, e->old_text.buf);
	if (t->len && t->buf[t->len - 1] != '\n')
		strbuf_addch(t, '\n');
	strbuf_addstr(t, "# added by tiadash rules --add, ");
	time_format_date(t, now);
	strbuf_addch(t, '\n');
	if (glob[0] == '#')
		strbuf_addch(t, '\\');
	strbuf_addf(t, "%s\n", glob);
	e->writable = true;
	return 0;
}

/* A leading '#' is written escaped, and read as written. */
static char *lists_reads_as(const char *glob)
{
	return glob[0] == '#' ? xstrfmt("\\%s", glob) : xstrdup(glob);
}

static int lists_detect(const char *path, const char *base)
{
	(void)path;
	(void)base;
	return 0; /* what no other adapter claims */
}

static const char *const lists_configs[] = { ".tiadash/rules", NULL };

const struct adapter adapter_lists = {
	.name = "lists",
	.answer_what = "line protocol",
	.config_what = "rule file",
	.detect_name = lists_detect,
	.read_answer = lists_answer,
	.read_rules = lists_rules,
	.plan_add = lists_plan,
	.reads_as = lists_reads_as,
	.adds = RULE_RUN_ALL,
	/* A plain command (`--selector 'make -s check-affected-list'`) is run as given. */
	.command = NULL,
	.config_files = lists_configs,
};
