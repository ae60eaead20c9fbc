/*
 * What every command shares on its command line: usage text and usage
 * errors, the "most similar" suggestions, --format and window bounds.
 */
#include "core/tiadash.h"
#include "core/cli.h"
#include "core/textfit.h"
#include "core/options.h"
#include "core/timeutil.h"

const char program_usage[] =
	"usage: tiadash [--db PATH] [--repo PATH] COMMAND [ARGS...]\n"
	"       tiadash --version | --help\n";

/* Edit distance with adjacent transpositions (optimal string alignment). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d;
	size_t *row = xcalloc(3 * (lb + 1), sizeof(*row));
	size_t *prev2 = row, *prev = row + lb + 1, *cur = row + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		{
			size_t *t = prev2;

			prev2 = prev;
			prev = cur;
			cur = t;
		}
	}
	d = prev[lb];
	free(row);
	return d;
}

void suggest_similar(const char *what, const char *typed, const char *const *names,
		     size_t nr, const char *prefix)
{
	size_t len = strlen(typed), best = SIZE_MAX, n = 0;
	size_t limit = len < 4 ? 1 : len < 8 ? 2 : 3;
	size_t *d = xcalloc(nr ? nr : 1, sizeof(*d));

	for (size_t i = 0; i < nr; i++) {
		d[i] = edit_distance(typed, names[i]);
		/* A name cut short ("gate" for gate-check) is as close as can be. */
		if (len >= 3 && starts_with(names[i], typed) && d[i] > limit)
			d[i] = limit;
		if (d[i] <= limit && d[i] < best)
			best = d[i];
	}
	for (size_t i = 0; i < nr; i++)
		n += d[i] == best;
	if (n)
		fprintf(stderr, "\nThe most similar %s%s\n", what, n > 1 ? "s are" : " is");
	for (size_t i = 0; i < nr && n; i++)
		if (d[i] == best)
			fprintf(stderr, "\t%s%s\n", prefix, names[i]);
	free(d);
}

void print_command_help(FILE *f, const struct cmd *c)
{
	struct strbuf sb = STRBUF_INIT, fitted = STRBUF_INIT;

	strbuf_addf(&sb, "usage: %s\n\n%s\n", c->usage, c->summary);
	if (c->opts && c->intro)
		strbuf_addf(&sb, "\n%s", c->intro);
	if (c->opts && c->opts->type != OPT_T_END) {
		strbuf_addch(&sb, '\n');
		opt_help(&sb, c->opts);
		if (c->notes)
			strbuf_addf(&sb, "\n%s", c->notes);
	}
	text_fit(&fitted, sb.buf, sb.len, TEXT_WIDTH);
	fwrite(fitted.buf, 1, fitted.len, f);
	strbuf_release(&sb);
	strbuf_release(&fitted);
}

void print_command_usage(FILE *f, const struct cmd *c)
{
	struct strbuf sb = STRBUF_INIT, fitted = STRBUF_INIT;

	strbuf_addf(&sb, "usage: %s\n", c->usage);
	text_fit(&fitted, sb.buf, sb.len, TEXT_WIDTH);
	fwrite(fitted.buf, 1, fitted.len, f);
	strbuf_release(&sb);
	strbuf_release(&fitted);
}

int usage_error(const struct cmd *c, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	strbuf_release(&msg);
	if (c)
		print_command_usage(stderr, c);
	else
		fputs(program_usage, stderr);
	return EXIT_INPUT_ERROR;
}

bool parse_format(const char *s, unsigned allowed, enum output_format *out)
{
	static const struct { const char *name; enum output_format f; } names[] = {
		{ "text", FORMAT_TEXT }, { "md", FORMAT_MD },
		{ "json", FORMAT_JSON }, { "csv", FORMAT_CSV },
		{ "html", FORMAT_HTML },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name) && (allowed & names[i].f)) {
			*out = names[i].f;
			return true;
		}
	}
	return false;
}

bool parse_window_bound(const char *opt, const char *value, int64_t now, int64_t *out)
{
	if (time_parse_when(value, now, out))
		return true;
	error("%s '%s': expected 1y, 7d, 24h, a date or RFC 3339 time", opt, value);
	return false;
}
