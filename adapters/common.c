/* What the adapters share: reading answers, JSON and YAML documents with their lines, inserting text into them. */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/json.h"

/* ---- small things ---- */

const char *conf_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Does path end with the directory components "dir/" + its base name? */
bool conf_in_dir(const char *path, const char *dir)
{
	const char *base = conf_base_name(path);
	size_t n = strlen(dir);

	if ((size_t)(base - path) < n + 1)
		return false;
	return !strncmp(base - n - 1, dir, n) && base[-1] == '/' &&
	       (base - n - 1 == path || base[-n - 2] == '/');
}

bool conf_yaml_name(const char *base)
{
	return ends_with(base, ".yml") || ends_with(base, ".yaml");
}

void conf_glob_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("*?[]{}\\", *s))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

bool conf_has_extglob(const char *g)
{
	for (const char *p = g; *p; p++)
		if (strchr("@!+*?", *p) && p[1] == '(')
			return true;
	return false;
}

/* ---- JSON ---- */

/*
 * A JSONC text as JSON of the same length: comments and trailing commas
 * (turbo reads both) become blanks, newlines kept, so every offset and
 * line stays the text's own. Strings are copied as they are. Caller frees.
 */
static char *jsonc_blanked(const char *t, size_t len)
{
	char *s = xmemdup(t, len + 1);
	size_t comma = SIZE_MAX; /* the last ',' outside strings, until a token follows */

	s[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"') {
			for (i++; i < len && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			comma = SIZE_MAX;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			for (; i < len && s[i] != '\n'; i++)
				s[i] = ' ';
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			size_t end = i + 2;

			while (end + 1 < len && !(s[end] == '*' && s[end + 1] == '/'))
				end++;
			if (end + 1 >= len)
				break; /* unterminated: left for the parser to refuse */
			for (; i <= end + 1; i++)
				if (s[i] != '\n')
					s[i] = ' ';
			i--;
		} else if (s[i] == ',') {
			comma = i;
		} else if ((s[i] == ']' || s[i] == '}') && comma != SIZE_MAX) {
			s[comma] = ' ';
			comma = SIZE_MAX;
		} else if (!strchr(" \t\r\n", s[i])) {
			comma = SIZE_MAX;
		}
	}
	return s;
}

/* Parse without printing; JSONC (comments, trailing commas) when allowed. */
static cJSON *json_quiet(const char *text, size_t len, bool allow_comments,
			 size_t *err_off)
{
	const char *end = NULL;
	char *copy = allow_comments ? jsonc_blanked(text, len) : NULL;
	const char *in = copy ? copy : text;
	cJSON *root = cJSON_ParseWithLengthOpts(in, len + 1, &end, 1);

	if (!root && err_off)
		*err_off = end && end >= in ? (size_t)(end - in) : 0;
	free(copy);
	return root;
}

cJSON *conf_json_parse(const char *text, size_t len, const char *name,
			   const char *what, bool allow_comments)
{
	size_t off = 0, last = len;
	cJSON *root;

	if (json_refuse_nul(text, len, name) < 0)
		return NULL;
	root = json_quiet(text, len, allow_comments, &off);

	while (last > 0 && strchr(" \t\r\n", text[last - 1]))
		last--;
	/* A document cut short ends in neither bracket. */
	if (!root && (off >= len || (last && text[last - 1] != '}' && text[last - 1] != ']')))
		error("%s:%d: %s: unexpected end of input (truncated?)", name,
		      line_of_offset(text, len, last ? last - 1 : 0), what);
	else if (!root)
		error("%s:%d: %s: invalid JSON", name, line_of_offset(text, len, off),
		      what);
	return root;
}

cJSON *conf_json_quiet(const char *text, size_t len, bool allow_comments)
{
	return json_quiet(text, len, allow_comments, NULL);
}

const cJSON *jget(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNull(v) ? NULL : v;
}

/* The line of the first "value" in the text (0: not found). */
int conf_json_value_line(const char *text, size_t len, const char *value)
{
	char *needle = xstrfmt("\"%s\"", value);
	const char *hit = memmem(text, len, needle, strlen(needle));

	free(needle);
	return hit ? line_of_offset(text, len, (size_t)(hit - text)) : 0;
}

char *conf_where_json(const char *path, const char *text, size_t len,
			const char *value)
{
	int line = conf_json_value_line(text, len, value);

	return line ? xstrfmt("%s:%d", path, line) : xstrdup(path);
}

/* ---- YAML: refusing a shared list ---- */

/* Count the ways from n to target, stopping at 2 or when the budget runs out. */
static void yways(struct ydoc *y, yaml_node_t *n, yaml_node_t *target, int depth,
		  int *ways, long *budget)
{
	if (!n || *ways > 1)
		return;
	if (--*budget < 0 || depth > 64) {
		*ways = 2; /* too deep or too wide to tell: taken as shared */
		return;
	}
	if (n == target) {
		++*ways;
		return;
	}
	if (n->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *it = n->data.sequence.items.start;
		     it < n->data.sequence.items.top; it++)
			yways(y, ynode(y, *it), target, depth + 1, ways, budget);
	if (n->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++)
			yways(y, ynode(y, p->value), target, depth + 1, ways, budget);
}

bool ynode_shared(struct ydoc *y, yaml_node_t *target)
{
	int ways = 0;
	long budget = 100000;

	yways(y, yroot(y), target, 0, &ways, &budget);
	return ways > 1;
}

int yaml_shared_list_error(const char *path, int line, const char *what,
			   const char *key, const char *glob)
{
	return error("%s:%d: %s: %s is a list shared through a YAML anchor or "
		     "merge key (used in more than one place): a glob added to it "
		     "would land in each; add '%s' by hand where it belongs",
		     path, line, what, key, glob);
}

/* ---- writing: inserting JSON text, checked with cJSON ---- */

static bool json_equals(const char *text, size_t len, const cJSON *want, bool jsonc)
{
	cJSON *got = json_quiet(text, len, jsonc, NULL);
	bool same = got && cJSON_Compare(got, want, true);

	cJSON_Delete(got);
	return same;
}

/*
 * Offsets of the `open` character that follows `"key"` and ':' (blanks
 * between), or, for key NULL, of the document's first non-blank character
 * when it is `open`.
 */
static void json_anchors(const char *t, size_t len, const char *key, char open,
			 struct strbuf *out)
{
	char *needle;
	const char *p = t;

	if (!key) {
		size_t i = 0;

		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i < len && t[i] == open)
			strbuf_add(out, &i, sizeof(i));
		return;
	}
	needle = xstrfmt("\"%s\"", key);
	while ((p = memmem(p, (size_t)(t + len - p), needle, strlen(needle))) != NULL) {
		size_t i = (size_t)(p - t) + strlen(needle);

		p++;
		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i >= len || t[i] != ':')
			continue;
		i++;
		while (i < len && strchr(" \t\r\n", t[i]))
			i++;
		if (i < len && t[i] == open)
			strbuf_add(out, &i, sizeof(i));
	}
	free(needle);
}

/* The blanks that start the line holding offset i. */
void conf_line_indent(const char *t, size_t i, struct strbuf *out)
{
	size_t s = i;

	while (s > 0 && t[s - 1] != '\n')
		s--;
	while (s < i && (t[s] == ' ' || t[s] == '\t'))
		strbuf_addch(out, t[s++]);
}

/*
 * The new element after the last one (ending at q, before the ']' at e),
 * on a line of its own in a list of lines. In JSONC, what follows the
 * last element on its line (a comment, a trailing comma: blanks in s)
 * stays with it, and a trailing comma is kept after the new one too.
 */
static void json_add_element(const char *t, const char *s, size_t len, size_t q,
			     size_t e, const char *value, struct strbuf *out)
{
	struct strbuf indent = STRBUF_INIT;
	size_t eol = q;
	bool trailing = false, kept = false;

	if (!memchr(s + q, '\n', e - q)) {
		strbuf_add(out, t, q);
		strbuf_addf(out, ", %s", value);
		strbuf_add(out, t + q, len - q);
		return;
	}
	for (; s[eol] != '\n'; eol++)
		kept |= t[eol] != s[eol];
	for (size_t k = q; k < e; k++)
		trailing |= t[k] == ',' && s[k] != ',';
	conf_line_indent(t, q - 1, &indent);
	if (!kept) {
		strbuf_add(out, t, q);
		strbuf_addf(out, ",\n%s%s", indent.buf, value);
		strbuf_add(out, t + q, len - q);
	} else {
		strbuf_add(out, t, q);
		if (!trailing)
			strbuf_addch(out, ',');
		strbuf_add(out, t + q, eol - q);
		strbuf_addf(out, "\n%s%s%s", indent.buf, value, trailing ? "," : "");
		strbuf_add(out, t + eol, len - eol);
	}
	strbuf_release(&indent);
}

/*
 * Insert value (JSON text) as the last element of an array opened at one
 * of the anchors (key as in json_anchors), trying each ']' after it until
 * the text parses to `want`. Places are found in the text with its JSONC
 * comments blanked, and the text itself is spliced, so comments stay. 0
 * with the new text in out, -1 if no place works.
 */
int conf_json_insert_element(const char *t, size_t len, const char *key,
			     const char *value, const cJSON *want, bool jsonc,
			     struct strbuf *out)
{
	struct strbuf anchors = STRBUF_INIT;
	char *blanked = jsonc ? jsonc_blanked(t, len) : NULL;
	const char *s = blanked ? blanked : t;
	size_t nr, tries = 0;
	int ret = -1;

	json_anchors(s, len, key, '[', &anchors);
	nr = anchors.len / sizeof(size_t);
	for (size_t k = 0; k < nr && ret && tries < 512; k++) {
		size_t b;

		memcpy(&b, anchors.buf + k * sizeof(size_t), sizeof(b));
		for (size_t e = b + 1; e < len && ret && tries < 512; e++) {
			size_t q = e;

			if (s[e] != ']')
				continue;
			tries++;
			while (q > b + 1 && strchr(" \t\r\n", s[q - 1]))
				q--;
			strbuf_reset(out);
			if (q == b + 1) {
				strbuf_add(out, t, b + 1);
				strbuf_addstr(out, value);
				strbuf_add(out, t + b + 1, len - b - 1);
			} else {
				json_add_element(t, s, len, q, e, value, out);
			}
			if (json_equals(out->buf, out->len, want, jsonc))
				ret = 0;
		}
	}
	strbuf_release(&anchors);
	free(blanked);
	return ret;
}

/* Insert member ("\"k\": v") first in an object opened at an anchor; as above. */
int conf_json_insert_member(const char *t, size_t len, const char *key,
			    const char *member, const cJSON *want, bool jsonc,
			    struct strbuf *out)
{
	struct strbuf anchors = STRBUF_INIT, indent = STRBUF_INIT;
	char *blanked = jsonc ? jsonc_blanked(t, len) : NULL;
	const char *s = blanked ? blanked : t;
	size_t nr;
	int ret = -1;

	json_anchors(s, len, key, '{', &anchors);
	nr = anchors.len / sizeof(size_t);
	for (size_t k = 0; k < nr && ret; k++) {
		size_t b, n;

		memcpy(&b, anchors.buf + k * sizeof(size_t), sizeof(b));
		n = b + 1;
		while (n < len && strchr(" \t\r\n", s[n]))
			n++;
		strbuf_reset(out);
		strbuf_add(out, t, b + 1);
		if (n < len && s[n] == '}') {
			strbuf_addstr(out, member);
		} else if (memchr(s + b + 1, '\n', n - b - 1)) {
			strbuf_reset(&indent);
			conf_line_indent(t, n, &indent);
			strbuf_addf(out, "\n%s%s,", indent.buf, member);
		} else {
			strbuf_addf(out, "%s, ", member);
		}
		strbuf_add(out, t + b + 1, len - b - 1);
		if (json_equals(out->buf, out->len, want, jsonc))
			ret = 0;
	}
	strbuf_release(&anchors);
	strbuf_release(&indent);
	free(blanked);
	return ret;
}

char *conf_json_quote(const char *s)
{
	cJSON *str = cJSON_CreateString(s);
	char *p = cJSON_PrintUnformatted(str);
	char *out = xstrdup(p);

	cJSON_free(p);
	cJSON_Delete(str);
	return out;
}

/* ---- writing: YAML, checked with libyaml ---- */

/* Is b's tree a's, with one more scalar `extra` last in b's node `target`? */
bool ytree_equal(struct ydoc *a, yaml_node_t *na, struct ydoc *b,
			yaml_node_t *nb, yaml_node_t *target, const char *extra)
{
	if (!na || !nb || na->type != nb->type)
		return false;
	switch (na->type) {
	case YAML_SCALAR_NODE:
		return na->data.scalar.length == nb->data.scalar.length &&
		       !memcmp(na->data.scalar.value, nb->data.scalar.value,
			       na->data.scalar.length);
	case YAML_SEQUENCE_NODE: {
		ptrdiff_t n = na->data.sequence.items.top - na->data.sequence.items.start;
		ptrdiff_t m = nb->data.sequence.items.top - nb->data.sequence.items.start;

		if (m != n + (nb == target))
			return false;
		for (ptrdiff_t i = 0; i < n; i++)
			if (!ytree_equal(a, ynode(a, na->data.sequence.items.start[i]), b,
					 ynode(b, nb->data.sequence.items.start[i]),
					 target, extra))
				return false;
		return nb != target ||
		       yscalar_is(ynode(b, nb->data.sequence.items.start[n]), extra);
	}
	case YAML_MAPPING_NODE: {
		ptrdiff_t n = na->data.mapping.pairs.top - na->data.mapping.pairs.start;

		if (nb->data.mapping.pairs.top - nb->data.mapping.pairs.start != n)
			return false;
		for (ptrdiff_t i = 0; i < n; i++) {
			yaml_node_pair_t *pa = &na->data.mapping.pairs.start[i];
			yaml_node_pair_t *pb = &nb->data.mapping.pairs.start[i];

			if (!ytree_equal(a, ynode(a, pa->key), b, ynode(b, pb->key), target, extra) ||
			    !ytree_equal(a, ynode(a, pa->value), b, ynode(b, pb->value),
					 target, extra))
				return false;
		}
		return true;
	}
	case YAML_NO_NODE:
		break;
	}
	return false;
}

void yaml_quote(struct strbuf *out, const char *s, bool single)
{
	strbuf_addch(out, single ? '\'' : '"');
	for (; *s; s++) {
		if (single && *s == '\'')
			strbuf_addch(out, '\'');
		else if (!single && (*s == '"' || *s == '\\'))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, single ? '\'' : '"');
}

/* The new text with glob appended to the sequence list; -1 when no plain insertion fits. */
int yaml_insert(const char *t, size_t len, struct ydoc *y, yaml_node_t *list,
		       const char *glob, struct strbuf *out)
{
	yaml_node_item_t *items = list->data.sequence.items.start;
	ptrdiff_t n = list->data.sequence.items.top - items;
	yaml_node_t *last = n ? ynode(y, items[n - 1]) : NULL;
	struct strbuf q = STRBUF_INIT;
	bool single = last && last->type == YAML_SCALAR_NODE &&
		      last->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE;
	int ret = -1;

	yaml_quote(&q, glob, single);
	if (list->data.sequence.style == YAML_FLOW_SEQUENCE_STYLE) {
		size_t close = list->end_mark.index;

		if (close == 0 || close > len || t[close - 1] != ']')
			goto out;
		if (!last) {
			strbuf_add(out, t, close - 1);
			strbuf_add(out, q.buf, q.len);
			strbuf_add(out, t + close - 1, len - close + 1);
		} else {
			size_t end = last->end_mark.index;

			strbuf_add(out, t, end);
			strbuf_addstr(out, ", ");
			strbuf_add(out, q.buf, q.len);
			strbuf_add(out, t + end, len - end);
		}
		ret = 0;
	} else if (last && last->type == YAML_SCALAR_NODE &&
		   last->start_mark.line == last->end_mark.line) {
		size_t s = last->start_mark.index, eol = last->end_mark.index, ls = s;
		size_t k;

		while (ls > 0 && t[ls - 1] != '\n')
			ls--;
		for (k = ls; k < s && (t[k] == ' ' || t[k] == '\t'); k++)
			;
		if (k >= s || t[k] != '-')
			goto out;
		for (k++; k < s; k++)
			if (t[k] != ' ' && t[k] != '\t')
				goto out;
		while (eol < len && t[eol] != '\n')
			eol++;
		strbuf_add(out, t, eol);
		strbuf_addch(out, '\n');
		strbuf_add(out, t + ls, s - ls);
		strbuf_add(out, q.buf, q.len);
		strbuf_add(out, t + eol, len - eol);
		ret = 0;
	}
out:
	strbuf_release(&q);
	return ret;
}


/*
 * Insert `key:` and a one-item block sequence at the end of the block
 * mapping map, indented like its keys (two more for the item).
 */
int yaml_insert_key(const char *t, size_t len, struct ydoc *y, yaml_node_t *map,
		    const char *key, const char *glob, struct strbuf *out)
{
	yaml_node_pair_t *pairs, *last;
	yaml_node_t *k, *v;
	struct strbuf indent = STRBUF_INIT, q = STRBUF_INIT;
	size_t end, ks;

	if (!map || map->type != YAML_MAPPING_NODE ||
	    map->data.mapping.style == YAML_FLOW_MAPPING_STYLE)
		return -1;
	pairs = map->data.mapping.pairs.start;
	if (pairs == map->data.mapping.pairs.top)
		return -1;
	last = map->data.mapping.pairs.top - 1;
	k = ynode(y, pairs->key);
	v = ynode(y, last->value);
	ks = k->start_mark.index;
	while (ks > 0 && t[ks - 1] != '\n')
		ks--;
	for (size_t i = ks; i < k->start_mark.index; i++) {
		if (t[i] != ' ')
			goto fail;
		strbuf_addch(&indent, ' ');
	}
	/* After the last value's line (a block value ends at the next key's line). */
	end = v->end_mark.index;
	if (end > len)
		goto fail;
	while (end > 0 && end < len && t[end - 1] != '\n' && t[end] != '\n')
		end++;
	if (end < len && t[end] == '\n')
		end++;
	strbuf_add(out, t, end);
	if (end && t[end - 1] != '\n')
		strbuf_addch(out, '\n');
	yaml_quote(&q, glob, true);
	strbuf_addf(out, "%s%s:\n%s  - %s\n", indent.buf, key, indent.buf, q.buf);
	strbuf_add(out, t + end, len - end);
	strbuf_release(&indent);
	strbuf_release(&q);
	return 0;
fail:
	strbuf_release(&indent);
	return -1;
}

/* ---- reading answers ---- */

int answer_error(const struct adapter_read *c, int line, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (line > 0)
		error("%s:%d: %s: %s", c->name, line, c->what, msg.buf);
	else
		error("%s: %s: %s", c->name, c->what, msg.buf);
	strbuf_release(&msg);
	return -1;
}

int answer_line_of(const struct adapter_read *c, const char *needle)
{
	const char *hit;

	if (!needle || !*needle)
		return 0;
	hit = memmem(c->text, c->len, needle, strlen(needle));
	return hit ? line_of_offset(c->text, c->len, (size_t)(hit - c->text)) : 0;
}

int answer_value_line(const struct adapter_read *c, const char *value)
{
	char *needle = xstrfmt("\"%s\"", value);
	int line = answer_line_of(c, needle);

	free(needle);
	return line;
}

void answer_add_entry(struct adapter_read *c, const char *e)
{
	bool added;

	strmap_intern(&c->seen, e, strlen(e), 0, &added);
	if (added)
		strlist_push(&c->out->entries, e);
}

void answer_add_reason(struct adapter_read *c, const char *r)
{
	for (size_t i = 0; i < c->out->reasons.nr; i++)
		if (!strcmp(c->out->reasons.items[i], r))
			return;
	strlist_push(&c->out->reasons, r);
}

int answer_repo_path(const struct adapter_read *c, const char *p, int line, char **out)
{
	const char *root = c->opts->root;
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (p[0] == '/') {
		size_t n;

		if (!root || !*root)
			return answer_error(c, line, "'%s' is an absolute path: give the "
					    "directory the tool ran in (\"root\" in the "
					    "manifest's selection, --selection-root) so it "
					    "can be made repository-relative", p);
		n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			n--;
		if (strncmp(p, root, n) || (p[n] != '/' && n != 1))
			return answer_error(c, line, "'%s' is not under the root '%s'",
					    p, root);
		p += n == 1 ? 1 : n + 1;
	}
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	strbuf_addstr(&sb, p);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (!sb.len || !path_is_contained(sb.buf)) {
		answer_error(c, line, "'%s' is not a path inside the repository", p);
		strbuf_release(&sb);
		return -1;
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

cJSON *answer_json(const struct adapter_read *c, const char *empty)
{
	const char *s = c->text;

	while (s < c->text + c->len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	if (s == c->text + c->len) {
		answer_error(c, 1, "empty file%s", empty ? empty : "");
		return NULL;
	}
	return conf_json_parse(c->text, c->len, c->name, c->what, false);
}

int answer_read_json(struct adapter_read *c, int (*read)(struct adapter_read *c,
							 const cJSON *root))
{
	cJSON *root = answer_json(c, NULL);
	int ret;

	if (!root)
		return -1;
	ret = read(c, root);
	cJSON_Delete(root);
	return ret;
}

void answer_total_packages(struct adapter_read *c, size_t nr, const char *reason)
{
	if (nr && c->opts->has_total_packages &&
	    (int64_t)nr == c->opts->total_packages) {
		c->out->decision = DECISION_RUN_ALL;
		answer_add_reason(c, reason);
	}
}
