/*
 * Options are data (as git's parse-options.h): one table of `struct opt`
 * rows per command gives its parser, its `--help` (fitted to 80 columns by
 * construction), and the list of options the man page's synopsis must name
 * (`tiadash help --options NAME`, checked by t0100).
 *
 *	static struct { enum output_format format; bool no_renames; } o;
 *	static const struct opt diff_opts[] = {
 *		OPT_FORMAT(&o.format, FORMAT_TEXT | FORMAT_JSON),
 *		OPT_BOOL(0, "no-renames", &o.no_renames, "a rename is ..."),
 *		OPT_END(),
 *	};
 *
 * The values live where the table can point at them before the command
 * runs (a file's static struct): the dispatcher checks the arguments
 * against the same table before it opens the store, without storing any.
 */
#ifndef TIADASH_CORE_OPTIONS_H
#define TIADASH_CORE_OPTIONS_H

#include "core/tiadash.h"
#include "core/cli.h"

enum opt_type {
	OPT_T_END,
	OPT_T_GROUP,    /* a heading in --help ("Window:"), no option */
	OPT_T_BOOL,     /* bool *value = true */
	OPT_T_SET_INT,  /* int *value = defval */
	OPT_T_STRING,   /* const char **value = the argument (points into argv) */
	OPT_T_STRING_LIST, /* struct strlist *value: each use appends */
	OPT_T_INT,      /* int *value, in [min, max] */
	OPT_T_SIZE,     /* size_t *value, in [min, max] */
	OPT_T_INT64,    /* int64_t *value, in [min, max] */
	OPT_T_DOUBLE,   /* double *value, in [min, max] */
	OPT_T_FORMAT,   /* enum output_format *value among the mask defval */
	OPT_T_OUTPUT,   /* -o FILE: the dispatcher writes the output there */
	OPT_T_CALLBACK, /* callback(o, arg, p) */
};

enum opt_flags {
	OPTF_OPTARG = 1 << 0, /* the value is optional: --color[=WHEN] */
	OPTF_HIDDEN = 1 << 1, /* parsed, but not in --help nor the man check */
	/* A number out of range is "bad value 'V' for --NAME (EXPECT1 to 9)". */
	OPTF_BAD_VALUE = 1 << 2,
};

struct opt_parse {
	const struct cmd *cmd; /* for usage errors */
	int64_t now;           /* for window bounds */
};

struct opt {
	enum opt_type type;
	int short_name;          /* 0: none */
	const char *long_name;   /* NULL: none */
	void *value;
	const char *argh;        /* the value's name: "FILE"; NULL: takes none */
	const char *help;        /* one line, any length: --help wraps it */
	unsigned flags;          /* enum opt_flags */
	long defval;             /* OPT_SET_INT's value, OPT_FORMAT's formats */
	double min, max;         /* OPT_INT, OPT_SIZE, OPT_INT64, OPT_DOUBLE */
	/*
	 * Their error: "-j '0': expected <expect>" (NULL: "a number from MIN
	 * to MAX"); with OPTF_BAD_VALUE, the words before "MIN to MAX".
	 */
	const char *expect;
	/* 0, or the exit status after usage_error(p->cmd, ...). */
	int (*callback)(const struct opt *o, const char *arg, const struct opt_parse *p);
};

#define OPT_END() { .type = OPT_T_END }
#define OPT_GROUP(h) { .type = OPT_T_GROUP, .help = (h) }
/*
 * A heading whose options a synopsis names by one placeholder,
 * "[CRITERIA...]" (the man check takes it for each of them).
 */
#define OPT_GROUP_NAMED(h, placeholder) \
	{ .type = OPT_T_GROUP, .help = (h), .argh = (placeholder) }
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPT_T_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_INT(s, l, v, i, h) \
	{ .type = OPT_T_SET_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .defval = (i), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPT_T_STRING, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_STRING_LIST(s, l, v, a, h) \
	{ .type = OPT_T_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h) }
#define OPT_INT(s, l, v, a, lo, hi, e, h) \
	{ .type = OPT_T_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .min = (lo), .max = (hi), .expect = (e), .help = (h) }
#define OPT_SIZE(s, l, v, a, lo, hi, e, h) \
	{ .type = OPT_T_SIZE, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .min = (lo), .max = (hi), .expect = (e), .help = (h) }
#define OPT_INT64(s, l, v, a, lo, hi, e, h) \
	{ .type = OPT_T_INT64, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .min = (lo), .max = (hi), .expect = (e), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, lo, hi, e, h) \
	{ .type = OPT_T_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .min = (lo), .max = (hi), .expect = (e), .help = (h) }
/* An integer in [lo, hi] refused as "bad value 'V' for --NAME (<e>LO to HI)". */
#define OPT_INT_BAD_VALUE(s, l, v, a, lo, hi, e, h) \
	{ .type = OPT_T_INT, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .min = (lo), .max = (hi), .expect = (e), .help = (h), \
	  .flags = OPTF_BAD_VALUE }
#define OPT_CALLBACK(s, l, v, a, h, fn) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (fn) }
/* The same with an optional value (--color[=WHEN]): fn gets NULL without one. */
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, fn) \
	{ .type = OPT_T_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .callback = (fn), .flags = OPTF_OPTARG }

/* --format F among the formats of mask (enum output_format); the help says which. */
#define OPT_FORMAT(v, mask) OPT_FORMAT_HELP(v, mask, NULL)
/* The same with its own help line (h NULL: "text (default), md or json"). */
#define OPT_FORMAT_HELP(v, mask, h) \
	{ .type = OPT_T_FORMAT, .long_name = "format", .value = (v), .argh = "F", \
	  .defval = (long)(mask), .help = (h) }
/* -o FILE / --output FILE, beside every --format (core/output.h). */
#define OPT_OUTPUT() \
	{ .type = OPT_T_OUTPUT, .short_name = 'o', .long_name = "output", .argh = "FILE", \
	  .help = "write to FILE (atomically) instead of standard output" }

/* --color[=WHEN] into an enum color_when (core/output.h). */
#define OPT_COLOR(v, h) OPT_CALLBACK_OPTARG(0, "color", (v), "WHEN", (h), opt_color)
int opt_color(const struct opt *o, const char *arg, const struct opt_parse *p);
/*
 * A time limit in seconds into the double *o->value: more than 0, at most
 * a day ("--timeout '0': expected seconds, more than 0").
 */
int opt_seconds(const struct opt *o, const char *arg, const struct opt_parse *p);

enum parse_result {
	PARSE_OK = 0,
	PARSE_EXIT = 1,  /* --help was printed: exit 0 */
	PARSE_ERROR = 2, /* a usage error was reported: exit 2 */
};

/*
 * Parse argv (argv[0] the command) against the command's table c->opts,
 * storing the values. *rest is the index of the first operand (getopt
 * order: the operands are moved after the options). ctx gives `now`.
 */
enum parse_result parse_options(int argc, char **argv, const struct cmd *c,
				const struct cmd_context *ctx, int *rest);

/*
 * The getopt_long form of a table, for the dispatcher's checks before the
 * store opens: long options (NULL-terminated) and the short-option string
 * ("+" first when in_order). Release with opt_getopt_release.
 */
struct opt_getopt {
	struct option *longopts;
	char *shortopts;
};
void opt_getopt_build(struct opt_getopt *g, const struct opt *table, bool in_order);
void opt_getopt_release(struct opt_getopt *g);

/* Append the table's option lines to sb, as --help prints them. */
void opt_help(struct strbuf *sb, const struct opt *table);
/* Print the option names of a table, one a line ("--format", "-o"), for t0100. */
void opt_list_names(FILE *f, const struct opt *table);

#endif
