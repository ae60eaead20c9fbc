/* The option tables of core/options.h: parsing, --help and the names the man page lists. */
#include "core/tiadash.h"
#include "core/options.h"
#include "core/output.h"
#include "core/textfit.h"

#include <getopt.h>
#include <math.h>

/*
 * getopt_long's value of row i of a table: its short option when it has
 * one (so --output is 'o' to the dispatcher too), else this above them.
 */
#define OPT_VAL_BASE 256

static bool takes_value(const struct opt *o)
{
	return o->type == OPT_T_STRING || o->type == OPT_T_STRING_LIST ||
	       o->type == OPT_T_INT || o->type == OPT_T_SIZE || o->type == OPT_T_INT64 ||
	       o->type == OPT_T_DOUBLE || o->type == OPT_T_FORMAT ||
	       o->type == OPT_T_OUTPUT || (o->type == OPT_T_CALLBACK && o->argh);
}

static bool is_option(const struct opt *o)
{
	return o->type != OPT_T_GROUP && (o->short_name || o->long_name);
}

void opt_getopt_build(struct opt_getopt *g, const struct opt *table, bool in_order)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, i;

	for (i = 0; table[i].type != OPT_T_END; i++)
		n++;
	g->longopts = xcalloc(n + 1, sizeof(*g->longopts));
	if (in_order)
		strbuf_addch(&sb, '+');
	n = 0;
	for (i = 0; table[i].type != OPT_T_END; i++) {
		const struct opt *o = &table[i];
		int has_arg = !takes_value(o) ? no_argument :
			      (o->flags & OPTF_OPTARG) ? optional_argument : required_argument;

		if (!is_option(o))
			continue;
		if (o->long_name) {
			g->longopts[n].name = o->long_name;
			g->longopts[n].has_arg = has_arg;
			g->longopts[n].val = o->short_name ? o->short_name
							   : OPT_VAL_BASE + (int)i;
			n++;
		}
		if (o->short_name) {
			strbuf_addch(&sb, (char)o->short_name);
			if (has_arg != no_argument)
				strbuf_addstr(&sb, has_arg == optional_argument ? "::" : ":");
		}
	}
	g->shortopts = strbuf_detach(&sb, NULL);
}

void opt_getopt_release(struct opt_getopt *g)
{
	free(g->longopts);
	free(g->shortopts);
	g->longopts = NULL;
	g->shortopts = NULL;
}

/* "-j" when it has a short form, else "--jobs": the option, for messages. */
static void opt_name(struct strbuf *sb, const struct opt *o)
{
	if (o->short_name)
		strbuf_addf(sb, "-%c", o->short_name);
	else
		strbuf_addf(sb, "--%s", o->long_name);
}

static int bad_number(const struct opt_parse *p, const struct opt *o, const char *arg)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	opt_name(&name, o);
	if (o->flags & OPTF_BAD_VALUE)
		ret = usage_error(p->cmd, "bad value '%s' for %s (%s%g to %g)", arg, name.buf,
				  o->expect ? o->expect : "", o->min, o->max);
	else if (o->expect)
		ret = usage_error(p->cmd, "%s '%s': expected %s", name.buf, arg, o->expect);
	else
		ret = usage_error(p->cmd, "%s '%s': expected a number from %g to %g",
				  name.buf, arg, o->min, o->max);
	strbuf_release(&name);
	return ret;
}

static int store_value(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	int64_t i;
	double d;

	switch (o->type) {
	case OPT_T_BOOL:
		*(bool *)o->value = true;
		return 0;
	case OPT_T_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_STRING_LIST:
		strlist_push(o->value, arg);
		return 0;
	case OPT_T_INT:
	case OPT_T_SIZE:
	case OPT_T_INT64:
		if (!parse_int64(arg, &i) || (double)i < o->min || (double)i > o->max)
			return bad_number(p, o, arg);
		if (o->type == OPT_T_INT)
			*(int *)o->value = (int)i;
		else if (o->type == OPT_T_SIZE)
			*(size_t *)o->value = (size_t)i;
		else
			*(int64_t *)o->value = i;
		return 0;
	case OPT_T_DOUBLE:
		if (!parse_double(arg, &d) || !(d >= o->min) || d > o->max)
			return bad_number(p, o, arg);
		*(double *)o->value = d;
		return 0;
	case OPT_T_FORMAT:
		if (!parse_format(arg, (unsigned)o->defval, o->value))
			return usage_error(p->cmd, "unknown format '%s'", arg);
		return 0;
	case OPT_T_OUTPUT: /* core/dispatch.c writes the output to the file */
		return 0;
	case OPT_T_CALLBACK:
		return o->callback(o, arg, p);
	case OPT_T_END:
	case OPT_T_GROUP:
		break;
	}
	return 0;
}

enum parse_result parse_options(int argc, char **argv, const struct cmd *c,
				const struct cmd_context *ctx, int *rest)
{
	struct opt_parse p = { c, ctx ? ctx->now : 0 };
	struct opt_getopt g;
	char *optstring;
	int saved = opterr, ch, ret = PARSE_OK;

	opt_getopt_build(&g, c->opts, c->flags & OPTS_IN_ORDER);
	optstring = xstrfmt("%s:%s", *g.shortopts == '+' ? "+" : "",
			    g.shortopts + (*g.shortopts == '+'));
	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, optstring, g.longopts, NULL)) != -1) {
		const struct opt *o = NULL;

		if (ch == '?' || ch == ':') {
			usage_error(c, "%s option '%s'",
				    ch == ':' ? "missing value for" : "unknown", argv[optind - 1]);
			ret = PARSE_ERROR;
			break;
		}
		if (ch >= OPT_VAL_BASE) {
			o = &c->opts[ch - OPT_VAL_BASE];
		} else {
			for (const struct opt *t = c->opts; t->type != OPT_T_END; t++)
				if (is_option(t) && t->short_name == ch)
					o = t;
		}
		if (!o || store_value(o, optarg, &p)) {
			ret = PARSE_ERROR;
			break;
		}
	}
	*rest = optind;
	opterr = saved;
	free(optstring);
	opt_getopt_release(&g);
	return ret;
}

int opt_color(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	if (!color_parse(arg, o->value))
		return usage_error(p->cmd, "--color is always, auto or never, not '%s'", arg);
	return 0;
}

int opt_seconds(const struct opt *o, const char *arg, const struct opt_parse *p)
{
	double *secs = o->value;

	if (!parse_double(arg, secs) || !(*secs > 0) || *secs > 86400)
		return usage_error(p->cmd, "--%s '%s': expected seconds, more than 0",
				   o->long_name, arg);
	return 0;
}

/* "text (default), md or json" of a format mask. */
static void format_help(struct strbuf *sb, unsigned mask)
{
	static const struct { const char *name; unsigned f; } names[] = {
		{ "text", FORMAT_TEXT }, { "md", FORMAT_MD }, { "json", FORMAT_JSON },
		{ "csv", FORMAT_CSV }, { "html", FORMAT_HTML },
	};
	size_t n = 0, k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		n += !!(mask & names[i].f);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(mask & names[i].f))
			continue;
		if (k)
			strbuf_addstr(sb, k + 1 == n ? " or " : ", ");
		strbuf_addstr(sb, names[i].name);
		if (!k)
			strbuf_addstr(sb, " (default)");
		k++;
	}
}

/* "-o, --output FILE", "--color[=WHEN]", "-j N". */
static void left_part(struct strbuf *sb, const struct opt *o)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		strbuf_addstr(sb, ", ");
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	if (o->argh && takes_value(o))
		strbuf_addf(sb, (o->flags & OPTF_OPTARG) ? "[=%s]" : " %s", o->argh);
}

/* The longest option column a table gets; a longer option has its text after two spaces. */
#define HELP_MAX_COLUMN 30

void opt_help(struct strbuf *sb, const struct opt *table)
{
	struct strbuf left = STRBUF_INIT, text = STRBUF_INIT;
	size_t col = 0;

	for (const struct opt *o = table; o->type != OPT_T_END; o++) {
		if (!is_option(o) || (o->flags & OPTF_HIDDEN))
			continue;
		strbuf_reset(&left);
		left_part(&left, o);
		if (left.len + 2 > col)
			col = left.len + 2;
	}
	if (col > HELP_MAX_COLUMN)
		col = HELP_MAX_COLUMN;
	for (const struct opt *o = table; o->type != OPT_T_END; o++) {
		const char *s;
		size_t at;

		if (o->type == OPT_T_GROUP) {
			strbuf_addf(sb, "%s\n", o->help);
			continue;
		}
		if (!is_option(o) || (o->flags & OPTF_HIDDEN))
			continue;
		strbuf_reset(&left);
		strbuf_reset(&text);
		left_part(&left, o);
		if (o->type == OPT_T_FORMAT && !o->help)
			format_help(&text, (unsigned)o->defval);
		else
			strbuf_addstr(&text, o->help ? o->help : "");
		strbuf_add(sb, left.buf, left.len);
		at = left.len;
		if (at + 2 > col) {
			strbuf_addstr(sb, "  ");
			at += 2;
		} else {
			strbuf_addf(sb, "%*s", (int)(col - at), "");
			at = col;
		}
		/* The text, wrapped at spaces under itself within TEXT_WIDTH. */
		s = text.buf;
		while (strlen(s) > TEXT_WIDTH - at) {
			size_t cut = TEXT_WIDTH - at;

			while (cut && s[cut] != ' ')
				cut--;
			if (!cut)
				break;
			strbuf_add(sb, s, cut);
			strbuf_addf(sb, "\n%*s", (int)col, "");
			at = col;
			s += cut + 1;
		}
		strbuf_addf(sb, "%s\n", s);
	}
	strbuf_release(&left);
	strbuf_release(&text);
}

void opt_list_names(FILE *f, const struct opt *table)
{
	const char *placeholder = NULL;

	for (const struct opt *o = table; o->type != OPT_T_END; o++) {
		if (o->type == OPT_T_GROUP)
			placeholder = o->argh;
		if (!is_option(o) || (o->flags & OPTF_HIDDEN))
			continue;
		if (placeholder)
			fprintf(f, "[%s...] ", placeholder);
		if (o->long_name)
			fprintf(f, "--%s", o->long_name);
		if (o->short_name)
			fprintf(f, "%s-%c", o->long_name ? " " : "", o->short_name);
		fputc('\n', f);
	}
}
