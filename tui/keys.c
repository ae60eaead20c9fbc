/* The one table that binds keys to requests (the help line, Help view and man page's
 * keys are generated from it), and key names for scripts. */
#include "core/tiadash.h"
#include "core/sanitize.h"
#include "tui/tui.h"

static const struct {
	const char *name, *hint, *help;
} requests[] = {
	{ "none", NULL, NULL },
#define REQ_ROW_(n, h, help) { #n, h, help },
	REQ_INFO(REQ_ROW_)
#undef REQ_ROW_
};

const char *tui_request_name(enum request r)
{
	return requests[r].name;
}

const char *tui_request_hint(enum request r)
{
	return requests[r].hint;
}

const char *tui_request_help(enum request r)
{
	return requests[r].help;
}

static const char *const keymap_names[] = {
#define KEYMAP_ROW_(name, str) str,
	KEYMAP_INFO(KEYMAP_ROW_)
#undef KEYMAP_ROW_
};

const char *tui_keymap_name(enum keymap m)
{
	return keymap_names[m];
}

#define CTRL(c) ((c) & 0x1f)
#define K(map, c, req) { KEYMAP_##map, { (c), false, MOUSE_NONE, 0, 0 }, REQ_##req }
#define F(map, c, req) { KEYMAP_##map, { (c), true, MOUSE_NONE, 0, 0 }, REQ_##req }

const struct tui_binding tui_bindings[] = {
	K(GENERIC, 'j', MOVE_DOWN), F(GENERIC, KEY_DOWN, MOVE_DOWN),
	K(GENERIC, 'k', MOVE_UP), F(GENERIC, KEY_UP, MOVE_UP),
	F(GENERIC, KEY_NPAGE, PAGE_DOWN), K(GENERIC, ' ', PAGE_DOWN),
	K(GENERIC, CTRL('f'), PAGE_DOWN),
	F(GENERIC, KEY_PPAGE, PAGE_UP), K(GENERIC, CTRL('b'), PAGE_UP),
	K(GENERIC, CTRL('d'), HALF_PAGE_DOWN), K(GENERIC, CTRL('u'), HALF_PAGE_UP),
	K(GENERIC, 'g', MOVE_FIRST), F(GENERIC, KEY_HOME, MOVE_FIRST),
	K(GENERIC, 'G', MOVE_LAST), F(GENERIC, KEY_END, MOVE_LAST),
	K(GENERIC, '\n', ENTER), K(GENERIC, 'l', ENTER), F(GENERIC, KEY_RIGHT, ENTER),
	K(GENERIC, 'h', BACK), F(GENERIC, KEY_LEFT, BACK),
	K(GENERIC, 'q', QUIT), K(GENERIC, 'Q', QUIT_ALL), F(GENERIC, KEY_F(10), QUIT_ALL),
	K(GENERIC, '\t', NEXT_VIEW), F(GENERIC, KEY_BTAB, PREV_VIEW),
	K(GENERIC, '?', HELP), F(GENERIC, KEY_F(1), HELP),
	K(GENERIC, '/', FILTER), K(GENERIC, 'n', FIND_NEXT), K(GENERIC, 'N', FIND_PREV),
	K(GENERIC, '>', SCROLL_RIGHT), K(GENERIC, '<', SCROLL_LEFT),
	K(GENERIC, 27, CLEAR),
	K(GENERIC, '1', VIEW_OVERVIEW), K(GENERIC, '2', VIEW_RUNS),
	K(GENERIC, '3', VIEW_DISAGREE), K(GENERIC, '4', VIEW_PROPOSALS),
	K(GENERIC, 't', VIEW_TESTS),
	K(GENERIC, '#', JUMP), K(GENERIC, 'y', COPY), K(GENERIC, 'o', OPEN_COMMIT),
	K(GENERIC, 'r', RELOAD), K(GENERIC, CTRL('l'), REDRAW), K(GENERIC, ':', PROMPT),
	K(GENERIC, 'u', UNDO),

	K(RUNS, 's', SORT), K(RUNS, 'S', SORT_REVERSE),
	K(RUNS, 'x', EXPLAIN), K(RUNS, 'X', EXPLAIN_EDITOR),

	K(DISAGREE, 'x', EXPLAIN), K(DISAGREE, 'X', EXPLAIN_EDITOR),

	K(DETAIL, 'x', EXPLAIN), K(DETAIL, 'X', EXPLAIN_EDITOR),

	K(PROPOSALS, 'e', EDIT), K(PROPOSALS, 'a', ACCEPT),
	K(PROPOSALS, 'x', EXPLAIN), K(PROPOSALS, 'X', EXPLAIN_EDITOR),
};
const size_t tui_bindings_nr = ARRAY_SIZE(tui_bindings);

static bool key_eq(struct tui_key a, struct tui_key b)
{
	return a.code == b.code && a.fn == b.fn && a.mouse == b.mouse;
}

enum request tui_key_request(enum keymap map, struct tui_key key)
{
	for (int pass = 0; pass < 2; pass++) {
		enum keymap m = pass ? KEYMAP_GENERIC : map;

		for (size_t i = 0; i < tui_bindings_nr; i++)
			if (tui_bindings[i].map == m && key_eq(tui_bindings[i].key, key))
				return tui_bindings[i].req;
	}
	return REQ_NONE;
}

#define KN(name, code, fn) { name, { (code), (fn), MOUSE_NONE, 0, 0 } }
static const struct {
	const char *name;
	struct tui_key key;
} key_names[] = {
	KN("Down", KEY_DOWN, true), KN("Up", KEY_UP, true),
	KN("Left", KEY_LEFT, true), KN("Right", KEY_RIGHT, true),
	KN("PgDn", KEY_NPAGE, true), KN("PgUp", KEY_PPAGE, true),
	KN("Home", KEY_HOME, true), KN("End", KEY_END, true),
	KN("Enter", '\n', false), KN("Tab", '\t', false),
	KN("S-Tab", KEY_BTAB, true), KN("Esc", 27, false),
	KN("BS", KEY_BACKSPACE, true), KN("Space", ' ', false),
	KN("Del", KEY_DC, true), KN("lt", '<', false),
	KN("Resize", KEY_RESIZE, true),
};

/* Mouse events in scripts: "<Click 12 3>". */
static const struct {
	const char *name;
	enum tui_mouse mouse;
} mouse_names[] = {
	{ "Click", MOUSE_CLICK }, { "DoubleClick", MOUSE_DOUBLE_CLICK },
	{ "WheelUp", MOUSE_WHEEL_UP }, { "WheelDown", MOUSE_WHEEL_DOWN },
};

#define MAX_FKEY 12

void tui_key_name(struct strbuf *sb, struct tui_key key)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_names); i++) {
		if (key_eq(key_names[i].key, key) && key.code != '<') {
			strbuf_addf(sb, "<%s>", key_names[i].name);
			return;
		}
	}
	if (key.fn && key.code == KEY_MOUSE) {
		for (size_t i = 0; i < ARRAY_SIZE(mouse_names); i++)
			if (mouse_names[i].mouse == key.mouse)
				strbuf_addf(sb, "<%s %d %d>", mouse_names[i].name, key.x, key.y);
	} else if (key.fn && key.code >= KEY_F(1) && key.code <= KEY_F(MAX_FKEY)) {
		strbuf_addf(sb, "<F%d>", key.code - KEY_F0);
	} else if (key.fn) {
		strbuf_addf(sb, "<key-%d>", key.code);
	} else if (key.code < 0x20) {
		strbuf_addf(sb, "<C-%c>", key.code + 'a' - 1);
	} else if (key.code < 0x80) {
		strbuf_addch(sb, key.code);
	} else {
		char mb[8];
		mbstate_t st;
		size_t n;

		memset(&st, 0, sizeof(st));
		n = wcrtomb(mb, (wchar_t)key.code, &st);
		if (n == (size_t)-1)
			strbuf_addf(sb, "<U+%04X>", (unsigned)key.code);
		else
			strbuf_add(sb, mb, n);
	}
}

/* "F5" (the len bytes at s) as KEY_F(5). */
static bool parse_fkey(const char *s, size_t len, struct tui_key *out)
{
	int n = 0;

	if (len < 2 || len > 3 || s[0] != 'F')
		return false;
	for (size_t i = 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		n = n * 10 + (s[i] - '0');
	}
	if (n < 1 || n > MAX_FKEY)
		return false;
	*out = (struct tui_key){ KEY_F(n), true, MOUSE_NONE, 0, 0 };
	return true;
}

/* "Click 12 3" (the len bytes at s). */
static bool parse_mouse(const char *s, size_t len, struct tui_key *out)
{
	char buf[64], name[16], end;
	int x, y;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sscanf(buf, "%15s %d %d%c", name, &x, &y, &end) != 3 || x < 0 || y < 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(mouse_names); i++) {
		if (!strcmp(name, mouse_names[i].name)) {
			*out = (struct tui_key){ KEY_MOUSE, true, mouse_names[i].mouse, x, y };
			return true;
		}
	}
	return false;
}

size_t tui_key_parse(const char *s, struct tui_key *out)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	if (*s == '<') {
		const char *end = strchr(s, '>');
		size_t len = end ? (size_t)(end - s - 1) : 0;

		for (size_t i = 0; end && i < ARRAY_SIZE(key_names); i++) {
			if (strlen(key_names[i].name) == len &&
			    !strncmp(s + 1, key_names[i].name, len)) {
				*out = key_names[i].key;
				return len + 2;
			}
		}
		if (end && len == 3 && s[1] == 'C' && s[2] == '-' &&
		    s[3] >= 'a' && s[3] <= 'z') {
			*out = (struct tui_key){ CTRL(s[3]), false, MOUSE_NONE, 0, 0 };
			return 5;
		}
		if (end && parse_fkey(s + 1, len, out))
			return len + 2;
		if (end && parse_mouse(s + 1, len, out))
			return len + 2;
		/* A lone '<' is the key itself. */
		*out = (struct tui_key){ '<', false, MOUSE_NONE, 0, 0 };
		return 1;
	}
	if (!*s)
		return 0;
	n = utf8_seq_len(p, strlen(s));
	if (n <= 0)
		return 0;
	if (n == 1) {
		*out = (struct tui_key){ p[0], false, MOUSE_NONE, 0, 0 };
	} else {
		wchar_t wc;
		mbstate_t st;

		memset(&st, 0, sizeof(st));
		if (mbrtowc(&wc, s, (size_t)n, &st) != (size_t)n)
			return 0;
		*out = (struct tui_key){ (int)wc, false, MOUSE_NONE, 0, 0 };
	}
	return (size_t)n;
}

void tui_keys_of(struct strbuf *sb, enum keymap map, enum request req)
{
	bool first = true;

	for (size_t i = 0; i < tui_bindings_nr; i++) {
		if (tui_bindings[i].map != map || tui_bindings[i].req != req)
			continue;
		if (!first)
			strbuf_addstr(sb, ", ");
		tui_key_name(sb, tui_bindings[i].key);
		first = false;
	}
}

bool tui_binding_is_first(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (tui_bindings[j].map == tui_bindings[i].map &&
		    tui_bindings[j].req == tui_bindings[i].req)
			return false;
	return true;
}

static void roff_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '-')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void tui_keys_print(FILE *f, bool roff)
{
	for (int m = 0; m < NR_KEYMAPS; m++) {
		bool any = false;

		for (size_t i = 0; i < tui_bindings_nr; i++) {
			const struct tui_binding *b = &tui_bindings[i];
			struct strbuf keys = STRBUF_INIT;

			if ((int)b->map != m || !tui_binding_is_first(i))
				continue;
			if (!any) {
				if (roff)
					fprintf(f, ".PP\n.I %s\n", m == KEYMAP_GENERIC ?
						"In every view:" : keymap_names[m]);
				else
					fprintf(f, "%s%s\n", m ? "\n" : "", m == KEYMAP_GENERIC ?
						"In every view:" : keymap_names[m]);
				any = true;
			}
			tui_keys_of(&keys, b->map, b->req);
			if (roff) {
				fputs(".TP\n.B ", f);
				roff_escaped(f, keys.buf);
				fputc('\n', f);
				roff_escaped(f, tui_request_help(b->req));
				fputc('\n', f);
			} else {
				fprintf(f, "  %-20s %s\n", keys.buf, tui_request_help(b->req));
			}
			strbuf_release(&keys);
		}
	}
}
