/*
 * tt: the test tool. Runs pure functions of core/ over data files of
 * three-line groups (jq's .test files and git's test-tool are the model):
 *
 *   tt idmatch FILE   groups: selection entries (comma-separated) / test id
 *                     SUITE::CASE / selected|not
 *   tt since FILE     groups: input / now (RFC 3339) / expected RFC 3339 or
 *                     %%FAIL
 *
 * Blank lines separate groups; lines starting with # are comments. Prints
 * TAP, one test per group.
 */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/timeutil.h"

typedef bool (*group_fn)(char **lines, struct strbuf *got);

static bool run_idmatch(char **l, struct strbuf *got)
{
	struct idset set = IDSET_INIT;
	char *entries = xstrdup(l[0]), *save = NULL, *suite, *name;
	bool sel;

	for (char *e = strtok_r(entries, ",", &save); e; e = strtok_r(NULL, ",", &save))
		if (!strcmp(e, "*"))
			set.all = true;
		else
			idset_add(&set, NULL, e);
	test_id_split(l[1], &suite, &name);
	sel = idset_selects(&set, suite, name);
	strbuf_addstr(got, sel ? "selected" : "not");
	free(entries);
	free(suite);
	free(name);
	idset_release(&set);
	return !strcmp(got->buf, l[2]);
}

static bool run_since(char **l, struct strbuf *got)
{
	int64_t now, ms;

	if (!time_parse_rfc3339(l[1], &now)) {
		strbuf_addstr(got, "bad now");
		return false;
	}
	if (!time_parse_when(l[0], now, &ms))
		strbuf_addstr(got, "%%FAIL");
	else
		time_format(got, ms);
	return !strcmp(got->buf, l[2]);
}

static const struct {
	const char *name;
	group_fn fn;
} tools[] = {
	{ "idmatch", run_idmatch },
	{ "since", run_since },
};

static int run_file(group_fn fn, const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	char *lines[3];
	int n = 0, count = 0, failed = 0, lineno = 0, start = 0;

	if (!f) {
		fprintf(stderr, "tt: cannot open %s\n", path);
		return 2;
	}
	for (;;) {
		bool eof = !fgets(buf, sizeof(buf), f);
		size_t len = eof ? 0 : strlen(buf);

		lineno += !eof;
		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (!eof && buf[0] == '#')
			continue;
		if (!eof && len) {
			if (n == 0)
				start = lineno;
			if (n < 3)
				lines[n] = xstrdup(buf);
			n++;
			continue;
		}
		if (n == 3) {
			struct strbuf got = STRBUF_INIT;
			bool ok = fn(lines, &got);

			count++;
			printf("%sok %d - %s:%d %s\n", ok ? "" : "not ", count, path,
			       start, lines[0]);
			if (!ok) {
				printf("#   expected: %s\n#        got: %s\n", lines[2], got.buf);
				failed++;
			}
			strbuf_release(&got);
		} else if (n) {
			printf("not ok %d - %s:%d: a group needs 3 lines\n", ++count, path, start);
			failed++;
		}
		for (int i = 0; i < n && i < 3; i++)
			free(lines[i]);
		n = 0;
		if (eof)
			break;
	}
	fclose(f);
	printf("1..%d\n", count);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tt TOOL FILE\n");
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (!strcmp(argv[1], tools[i].name))
			return run_file(tools[i].fn, argv[2]);
	fprintf(stderr, "tt: unknown tool '%s'\n", argv[1]);
	return 2;
}
