/*
 * One row model for table-shaped output (STYLE.md pattern 17). A command
 * lists its columns once, each with its JSON/CSV key, its text header and
 * its cell type, adds rows of typed cells, and table_write() renders them
 * in any format: text (aligned, fitted to the terminal by its caller's
 * text_fit), md, csv (formula-quoted), json (an array of objects, one per
 * row, keyed by the columns' keys) and html. Each cell is escaped by its
 * type in one place, table.c's cell writer for that format; a figure added
 * as a column shows in every format the column allows.
 *
 *   static const struct table_column cols[] = {
 *           { .key = "id", .head = "TEST", .type = CELL_ID },
 *           { .key = "ran", .head = "RAN", .type = CELL_COUNT },
 *   };
 *   struct table t = TABLE_INIT(cols);
 *   table_row(&t);
 *   table_str(&t, id);
 *   table_count(&t, ran);
 *   table_write(&t, FORMAT_CSV, &sb);
 *   table_release(&t);
 */
#ifndef TIADASH_CORE_TABLE_H
#define TIADASH_CORE_TABLE_H

#include "core/tiadash.h"
#include "core/cli.h"
#include "core/util.h"

#include <cJSON.h>

/*
 * How a cell is written:
 *
 *            text           md               csv          json
 *   TEXT     sanitized      md_escape        csv_field    string
 *   CLASS    sanitized      md_escape        csv_field    string
 *   ID/PATH  sanitized      code span        csv_field    string
 *   CODE     sanitized      md_escape        csv_field    string
 *   COUNT    %lld           %lld             %lld         integer
 *   RATE     12.5%          12.5%            %.17g        number
 *   SECONDS  9.5 s, 1474 s  9.5 s, 1474 s    %.17g        number
 *   MINUTES  12.5 min       12.5 min         %.17g        number
 *   TIME     the date       RFC 3339         RFC 3339     RFC 3339 string
 *   BOUND    RFC 3339       RFC 3339         RFC 3339     RFC 3339 string
 *   SETTING  %g             %g               %g           number
 *   BOOL     yes/no         yes/no           yes/no       true/false
 *   PR       #N             #N               N            integer
 *   DATE     the date       the date         RFC 3339     RFC 3339 string
 *
 * html writes md's text through html_escape, but a CODE cell (a line of
 * source, a test the seeding names) as html_code's <code>: seed's pages
 * showed them so, and its markdown as plain escaped text. A null cell
 * (table_null, a NULL string, NaN, an unbounded time) is "-" in text,
 * empty in md and csv, null in json, or the column's na text in text, md
 * and html; a BOUND (a window's end) that is unbounded is "-" in text, md
 * and csv alike.
 *
 * A list cell (table_list, in a string column) holds several strings,
 * each escaped by the column's type: joined by "<br>" in md and html, by
 * ';' in csv (the field then quoted) and by ", " in text; an array in json.
 *
 * A word cell (table_word) is a name of tiadash's own vocabulary (a
 * replay decision, run_all): md writes it as it is, unescaped, as the
 * markdown always showed those; every other format as its column's type.
 * A note (table_note) follows a string cell in the formats people read
 * (text, md, html), after a space, in tiadash's words ("(suggested:
 * built-in)"); csv and json leave it out, having the fact as a field. A
 * lead (table_lead) goes before the cell's value there, as it is (propose's
 * star on a recommended glob).
 *
 * Parts (table_part) follow a cell's value (and its note) in the formats
 * people read, each after its separator (nothing, a space, ", ", or a new
 * line: "<br>" in md and html, "; " in text) and escaped by its kind: TEXT as
 * the cell's text, CODE as an ID (a code span in md, html_code's <code> in
 * html), NOWRAP (html_nowrap's span in html) and MORE (an aside: html's
 * <span class="more">) as TEXT elsewhere. csv and json have the value
 * alone. A page's cell holds so a decision and what disagreed with it, a
 * count and the tests it counts, a file and the rule it matched.
 *
 * html: a column's cells are <td class="num"> when numeric (and their head
 * <th class="num">), or of the column's html_td_class; a cell's data-key
 * comes from its column's html_key or its own table_data (a figure of the
 * page that the tests hold to the JSON, keyed by the JSON path).
 */
enum cell_type {
	CELL_TEXT,
	CELL_CLASS,
	CELL_ID,
	CELL_PATH,
	CELL_CODE,	/* source text: <code> in html, escaped text in md */
	CELL_COUNT,
	CELL_RATE,
	CELL_SECONDS,
	CELL_MINUTES,
	CELL_TIME,
	CELL_BOOL,
	CELL_BOUND,	/* a window's since or until (table_time) */
	CELL_SETTING,	/* a value as the user set it: a confidence, a target (table_number) */
	CELL_PR,	/* a pull request's number (table_pr) */
	CELL_DATE,	/* a day: the date where people read it, RFC 3339 in data (table_time) */
};

/* What a part (table_part) is, which decides its escaping, and what goes before it. */
enum part_kind { PART_TEXT, PART_CODE, PART_NOWRAP, PART_MORE };
enum part_sep { PART_JOINED, PART_SPACE, PART_COMMA, PART_LINE };

struct table_part {
	char *s;
	enum part_kind kind;
	enum part_sep sep;
};

struct table_column {
	const char *key;	/* json and csv key; md and html header unless head */
	const char *head;	/* text header (and md's, html's); NULL: key */
	enum cell_type type;
	unsigned formats;	/* the formats that show it (a mask); 0: every one */
	int gap;		/* text: spaces before it (0: 2; none for the first) */
	int text_width;		/* text: at least this wide, so a fixed layout (--by's
				 * columns) keeps its widths when its cells are short;
				 * 0: its head's and cells' widest */
	int decimals;		/* csv: a fractional number's fixed decimals (0: %.17g) */
	const char *na;		/* text, md, html: a null cell's text (NULL: as above) */
	bool delta;		/* text, md, html: a fractional number as a change, %+.1f, no unit */
	bool plain;		/* text, md, html: a fractional number as %.1f, no unit (the head's) */
	bool right;		/* text, md, html: aligned right, as numbers are */
	bool left;		/* text: aligned left though a number (replay's PR column) */
	bool text_fixed;	/* text: each cell padded to text_width alone, in
				 * characters, as printf's "%-*s" pads it: a longer cell
				 * widens its own line, never its column (a layout kept
				 * across tables, as replay's totals) */
	bool text_cut;		/* text, with text_fixed: a longer cell cut to
				 * text_width, ending in "..." */
	int places;		/* text, md, html: a rate's (as a percentage), a delta's or a
				 * plain number's decimals (0: one) */
	int md_width;		/* md: a cell padded on the left to this width (report's
				 * per-day table keeps its text's alignment); 0: none */
	bool md_tight;		/* md: an empty cell is "| |", as a table written by
				 * hand had it (replay's totals), not "|  |" */
	const char *html_key;	/* html: the cell's data-key is the table's html_row_key,
				 * the row's JSON index and this ("proposals.3.forced"),
				 * its data-value the JSON's number (a page's figure the
				 * tests check against the JSON); NULL: none */
	const char *html_td_class; /* html: the cells' class in place of a number's
				    * "num" ("nowrap"; "": none); the head is
				    * class="num" only where the cells are */
	bool html_nowrap;	/* html: the value never breaks (html_nowrap: a decision) */
};

struct table_cell {
	bool null;
	bool word;		/* md: as it is (table_word) */
	uint32_t nr_items;	/* a list cell's strings (table_list) */
	int64_t i;
	double d;
	char *s;
	char **items;
	const char *note;	/* text, md, html: after the value (table_note); static */
	const char *lead;	/* text, md, html: before the value (table_lead); static */
	uint32_t nr_parts;
	struct table_part *parts;	/* text, md, html: after the value (table_part) */
	const char *sgr;	/* text: the cell's colour when the table is in colour
				 * (table_color); static */
	char *data_key;		/* html: the cell's data-key (table_data); NULL: none */
	char *data_word;	/* its data-value when a word, else data_num's */
	double data_num;
};

struct table {
	const struct table_column *cols;
	size_t nr_cols;
	struct table_cell *cells;	/* nr_rows * nr_cols, row-major */
	size_t nr_rows, nr_cells, alloc;
	const size_t *text_order;	/* text's column order; NULL: as listed */
	size_t nr_text_order;
	const size_t *md_order;		/* md's column order (a column not in it is not
					 * shown); NULL: as listed */
	size_t nr_md_order;
	bool no_header;		/* rows only: a later chunk of a long table */
	bool transposed;	/* text and md: turned, see table_write */
	const char *html_class;	/* html: the <table>'s class (NULL: none) */
	bool html_bare;		/* html: the head row and the rows without <thead>, <tbody> */
	const char *html_row_key; /* html: the JSON array the rows are ("proposals"),
				   * for the columns' html_key; NULL: no data-key */
	const size_t *html_rows;  /* html: each row's JSON index (NULL: its own) */
	bool color;		/* text: the cells in their colours (table_color) */
};

/* Designated, so a field added to struct table starts zero everywhere. */
#define TABLE_INIT(columns) { .cols = (columns), .nr_cols = ARRAY_SIZE(columns) }

/* Free the rows (the columns are the caller's); the table can take rows again. */
void table_release(struct table *t);

/* Start a row; its cells follow, one per column, in the columns' order. */
void table_row(struct table *t);
/* The next cell of the row (the type must be the column's). */
void table_str(struct table *t, const char *s);	/* TEXT CLASS ID PATH CODE; copied */
/* A list cell of l's strings, copied (TEXT CLASS ID PATH CODE). */
void table_list(struct table *t, const struct strlist *l);
/* A string cell of tiadash's own vocabulary, unescaped in md; NULL: a null cell. */
void table_word(struct table *t, const char *s);
/* A note of tiadash's own after the row's last string cell; note is static. */
void table_note(struct table *t, const char *note);
/* A mark of tiadash's own before the row's last string cell (a star); lead is static. */
void table_lead(struct table *t, const char *lead);
/* A pull request's number when known, else a null cell. */
void table_pr(struct table *t, bool known, int64_t pr);
void table_count(struct table *t, int64_t v);
/* v when known, else a null cell (an absent PR, an unknown trend). */
void table_count_known(struct table *t, bool known, int64_t v);
void table_number(struct table *t, double v);		/* RATE SECONDS MINUTES SETTING */
void table_time(struct table *t, int64_t ms);		/* TIME BOUND DATE */
void table_bool(struct table *t, bool v);
void table_null(struct table *t);
/*
 * The row's last cell in colour sgr (an SGR sequence of core/output.h,
 * static) in text when the table's color is set: value, note and parts,
 * the padding outside. Other formats have no colour.
 */
void table_color(struct table *t, const char *sgr);
/* A part after the row's last cell's value: s is copied, escaped by kind. */
void table_part(struct table *t, enum part_sep sep, enum part_kind kind, const char *s);
/*
 * The row's last cell's html data-key (copied) and data-value: v as cJSON
 * prints it (table_data) or a word of tiadash's (table_data_word, copied).
 */
void table_data(struct table *t, const char *key, double v);
void table_data_word(struct table *t, const char *key, const char *word);

/*
 * Append the table in format f to sb: text (a header line of the heads,
 * numbers right-aligned, the last column unpadded), md (a pipe table; an
 * empty head is "| |", a row's label column), csv
 * (a header line of the keys), json (the array, printed as
 * json_print_free would) or html (a <table>). A long table (csv of a
 * million heads) is written in chunks: table_write, table_release, set
 * no_header, add the next rows (csv, md and text).
 *
 * A transposed table (a few rows of many figures: queue's gates) is
 * written turned in text and md: its first column (in the format's order)
 * names the rows in a head line, under its own head, and every other
 * column is a line, its head then its cell of each row, aligned right. In
 * text the first column is at least its text_width wide, and its gap (0:
 * 2) goes before each row's column. csv, json and html write it as rows.
 */
void table_write(const struct table *t, enum output_format f, struct strbuf *sb);
/* The rows as a JSON array of objects, for a command's own document. */
cJSON *table_json(const struct table *t);
/*
 * A one-row table's row as a JSON object, keyed as table_json's; the
 * caller owns it (a record or an escape streamed one at a time).
 */
cJSON *table_json_object(const struct table *t);
/* table_write to out; text fitted to TEXT_WIDTH. -1 when writing failed. */
int table_print(const struct table *t, enum output_format f, FILE *out);

#endif
