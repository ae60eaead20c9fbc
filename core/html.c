/* The frame of the HTML pages: head, inline style and print CSS, figures with their JSON twins, footer. */
#include "core/tiadash.h"
#include "core/html.h"
#include "core/json.h"
#include "core/sanitize.h"
#include "core/timeutil.h"

/*
 * Screen first (a projector at 1280x800), then print: A4 sheets, charts two
 * by two. Colours are the charts' Okabe-Ito ones; nothing depends on colour
 * alone (verdicts and results are words, failures bold).
 */
static const char style[] =
	":root{--ink:#1a1a1a;--muted:#595959;--rule:#d0d0d0}\n"
	"*{box-sizing:border-box}\n"
	"html{background:#fff}\n"
	"body{margin:0 auto;max-width:1280px;padding:12px 22px;color:var(--ink);"
	"font:15px/1.35 \"DejaVu Sans\",\"Liberation Sans\",Arial,sans-serif}\n"
	"header{display:flex;flex-wrap:wrap;align-items:center;gap:4px 18px;"
	"border-bottom:2px solid var(--ink);padding-bottom:6px;margin-bottom:6px}\n"
	"h1{font-size:1.45em;margin:0}\n"
	"h2{font-size:1.1em;margin:14px 0 5px;padding-bottom:2px;border-bottom:1px solid var(--rule)}\n"
	".window{color:var(--muted)}\n"
	".verdict{font-size:1.5em;font-weight:bold;padding:1px 14px;border:3px solid;border-radius:4px}\n"
	".verdict.go{color:#00664d}\n"
	".verdict.nogo{color:#b34a00}\n"
	".tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:8px;margin:6px 0}\n"
	".tile{border:1px solid var(--rule);border-left:5px solid #0072B2;padding:3px 10px}\n"
	".tile .v{display:block;font-size:1.5em;font-weight:bold;font-variant-numeric:tabular-nums}\n"
	".tile .l{color:var(--muted);font-size:.85em}\n"
	"dl.figures{columns:3 290px;column-gap:28px;margin:4px 0}\n"
	"dl.figures div{display:flex;justify-content:space-between;gap:10px;"
	"break-inside:avoid;border-bottom:1px dotted var(--rule)}\n"
	"dl.facts{columns:2 300px}dl.facts div{justify-content:flex-start}\n"
	"dl.facts dt{flex:0 0 15em}dl.facts dd{text-align:left;white-space:normal}\n"
	"dt{color:var(--muted)}\n"
	"dd{margin:0;text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(440px,1fr));"
	"gap:10px 24px;align-items:start;margin:8px 0}\n"
	"svg.chart{max-width:100%;height:auto;display:block}\n"
	"table{border-collapse:collapse;width:100%;font-size:.9em;margin:4px 0}\n"
	"th{text-align:left;border-bottom:2px solid var(--ink);padding:2px 6px;white-space:nowrap}\n"
	"td{border-bottom:1px solid var(--rule);padding:2px 6px;vertical-align:top}\n"
	".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"table.criteria{width:auto;min-width:66%;font-size:1.1em}\n"
	".beside{display:flex;gap:14px;align-items:flex-start}.beside>p{flex:1;min-width:12em}\n"
	"table.totals{width:auto;min-width:50%}\n"
	".nowrap{white-space:nowrap}\n"
	"table.compact td:nth-child(-n+2){white-space:nowrap}\n"
	".lead{font-size:1.1em;margin:4px 0}\n"
	"code{font-family:\"DejaVu Sans Mono\",\"Liberation Mono\",monospace;font-size:.88em;"
	"overflow-wrap:break-word}\n"
	".fail{font-weight:bold}\n"
	".more,.note{color:var(--muted);font-size:.88em;margin:2px 0}\n"
	".made{margin-left:auto;color:var(--muted);font-size:.8em}\n"
	"@page{size:A4;margin:10mm}\n"
	"@media print{body{max-width:none;padding:0;font-size:8.5pt}"
	".sheet{break-after:page}.sheet:last-of-type{break-after:auto}"
	".charts{grid-template-columns:1fr 1fr;gap:2px 14px;margin:4px 0}"
	"h2{break-after:avoid;margin-top:8px}tr,svg,.tile{break-inside:avoid}"
	"table.criteria{font-size:1em}td,th{padding:1px 6px}"
	"table{font-size:.8em}dl.facts{font-size:.9em}dl.facts dt{flex-basis:14em}"
	".tiles{grid-template-columns:repeat(auto-fit,minmax(80px,1fr))}}\n";

void html_begin(struct strbuf *sb, const char *kind, const char *title)
{
	strbuf_addf(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "style-src 'unsafe-inline'\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"tiadash %s\">\n<title>", TIADASH_VERSION);
	html_escape(sb, title);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body class=\"%s\">\n", style, kind);
}

void html_header_end(struct strbuf *sb, int64_t made_ms)
{
	strbuf_addstr(sb, "<span class=\"made\">made ");
	time_format(sb, made_ms);
	strbuf_addf(sb, " by tiadash %s</span></header>\n", TIADASH_VERSION);
}

void html_end(struct strbuf *sb)
{
	strbuf_addstr(sb, "</body>\n</html>\n");
}

void html_data(struct strbuf *sb, const char *key, double v)
{
	cJSON *n = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
	char *text = cJSON_PrintUnformatted(n);

	/* cJSON's own digits, so the page and the JSON say the same number. */
	if (!text)
		die("out of memory printing a number");
	strbuf_addf(sb, " data-key=\"%s\" data-value=\"%s\"", key, text);
	cJSON_free(text);
	cJSON_Delete(n);
}

void html_data_int(struct strbuf *sb, const char *key, int64_t v)
{
	strbuf_addf(sb, " data-key=\"%s\" data-value=\"%" PRId64 "\"", key, v);
}

void html_figure(struct strbuf *sb, const char *key, const char *label, double v,
		 const char *shown)
{
	strbuf_addstr(sb, "<div><dt>");
	html_escape(sb, label);
	strbuf_addstr(sb, "</dt><dd");
	html_data(sb, key, v);
	strbuf_addch(sb, '>');
	html_escape(sb, shown);
	strbuf_addstr(sb, "</dd></div>\n");
}

void html_cell(struct strbuf *sb, const char *key, double v, const char *shown)
{
	strbuf_addstr(sb, "<td class=\"num\"");
	if (key)
		html_data(sb, key, v);
	strbuf_addch(sb, '>');
	html_escape(sb, shown);
	strbuf_addstr(sb, "</td>");
}

void html_tile(struct strbuf *sb, const char *key, double v, const char *shown,
	       const char *label)
{
	strbuf_addstr(sb, "<div class=\"tile\"><span class=\"v\"");
	html_data(sb, key, v);
	strbuf_addch(sb, '>');
	html_escape(sb, shown);
	strbuf_addstr(sb, "</span><span class=\"l\">");
	html_escape(sb, label);
	strbuf_addstr(sb, "</span></div>\n");
}

void html_more(struct strbuf *sb, size_t shown, size_t total, const char *what,
	       const char *where)
{
	if (shown >= total)
		return;
	strbuf_addf(sb, "<p class=\"more\">and %zu more %s", total - shown, what);
	if (where) {
		strbuf_addstr(sb, " (");
		html_escape(sb, where);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, "</p>\n");
}

/* The length of the (sanitized, valid) UTF-8 character at s: runs are cut between characters. */
static size_t char_len(const char *s)
{
	unsigned char c = (unsigned char)*s;
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;

	for (size_t i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

void html_code(struct strbuf *sb, const char *text)
{
	struct strbuf one = STRBUF_INIT;
	char *clean = sanitized(text);
	const char *s = clean;
	size_t run = 0;

	strbuf_addstr(sb, "<code>");
	while (*s) {
		size_t n = char_len(s);
		bool after = *s == '/' || (*s == ':' && s[1] != ':' && run && s[-1] == ':');

		strbuf_reset(&one);
		strbuf_add(&one, s, n);
		html_escape(sb, one.buf);
		run = *s == ' ' ? 0 : run + 1;
		s += n;
		if (*s && (after || run >= HTML_CODE_RUN)) {
			strbuf_addstr(sb, "<wbr>");
			run = 0;
		}
	}
	strbuf_addstr(sb, "</code>");
	strbuf_release(&one);
	free(clean);
}

void html_nowrap(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<span class=\"nowrap\">");
	html_escape(sb, s);
	strbuf_addstr(sb, "</span>");
}

void html_write(struct strbuf *sb, FILE *f)
{
	fwrite(sb->buf, 1, sb->len, f);
	strbuf_release(sb);
}
