/* The adapters' registry: finding a selector by name or by its file, and what every adapter does alike (reading, planning an added glob, writing it). */
#include "core/tiadash.h"
#include "adapters/common.h"
#include "core/glob.h"
#include "core/sanitize.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Detection order: names first (moon before the harness's any-YAML), then content; lists last. */
const struct adapter *const adapters[] = {
	&adapter_vitest, &adapter_turbo, &adapter_moon, &adapter_testmon,
	&adapter_harness, &adapter_gstack, &adapter_cbm, &adapter_lists,
};
const size_t adapters_nr = ARRAY_SIZE(adapters);

const char adapter_answer_names[] = "vitest, turbo, testmon, moon, gstack, cbm";

const struct adapter *adapter_find_answer(const char *name)
{
	const struct adapter *a = adapter_find(name);

	return a && a->read_answer && a != &adapter_lists ? a : NULL;
}

const struct adapter *adapter_find(const char *name)
{
	for (size_t i = 0; i < adapters_nr; i++) {
		const struct adapter *a = adapters[i];

		if (!strcmp(a->name, name))
			return a;
		for (size_t k = 0; a->aliases && a->aliases[k]; k++)
			if (!strcmp(a->aliases[k], name))
				return a;
	}
	return NULL;
}

const struct adapter *adapter_detect(const char *path, const char *text, size_t len,
				     int *variant)
{
	const char *base = conf_base_name(path), *s = text;
	int v;

	*variant = 0;
	for (size_t i = 0; i < adapters_nr; i++)
		if ((v = adapters[i]->detect_name(path, base)) > 0) {
			*variant = v;
			return adapters[i];
		}
	while (s < text + len && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	if (ends_with(base, ".json") || (s < text + len && *s == '{'))
		for (size_t i = 0; i < adapters_nr; i++)
			if (adapters[i]->detect_text && adapters[i]->detect_text(text, len)) {
				*variant = 1;
				return adapters[i];
			}
	return &adapter_lists;
}

void adapter_answer_release(struct adapter_answer *a)
{
	strlist_release(&a->reasons);
	strlist_release(&a->entries);
	a->decision = DECISION_NONE;
	a->has_selected = false;
	a->selected_count = 0;
}

int adapter_read_answer(const struct adapter *a, const char *text, size_t len,
			const char *name, const struct adapter_opts *opts,
			struct adapter_answer *out)
{
	static const struct adapter_opts none = ADAPTER_OPTS_INIT;
	struct adapter_read c = { text, len, name, a->answer_what, opts ? opts : &none,
				  out, STRMAP_INIT };
	int ret;

	if (!a->read_answer)
		BUG("%s has no answer reader", a->name);
	ret = a->read_answer(&c);
	strmap_clear(&c.seen);
	if (ret < 0)
		adapter_answer_release(out);
	return ret;
}

int adapter_read_rules(struct rules *r, const char *text, size_t len, const char *path)
{
	int variant;
	const struct adapter *a = adapter_detect(path, text, len, &variant);

	return a->read_rules(r, text, len, path, variant);
}

/* ---- writing ---- */

/* ---- writing: the diff ---- */

struct lines {
	const char **at;  /* start of each line */
	size_t *len;      /* with its newline, if any */
	size_t nr;
};

static void split_lines(const char *s, size_t n, struct lines *l)
{
	size_t alloc = 0;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : n;

		if (l->nr + 1 > alloc) {
			alloc = alloc * 2 + 16;
			l->at = xrealloc(l->at, alloc * sizeof(*l->at));
			l->len = xrealloc(l->len, alloc * sizeof(*l->len));
		}
		l->at[l->nr] = s + i;
		l->len[l->nr++] = end - i;
		i = end;
	}
}

static bool line_eq(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

static void diff_line(struct strbuf *out, char mark, const char *s, size_t n)
{
	strbuf_addch(out, mark);
	strbuf_add(out, s, n);
	if (!n || s[n - 1] != '\n')
		strbuf_addstr(out, "\n\\ No newline at end of file\n");
}

void adapter_diff(struct strbuf *out, const char *a_name, const char *a, size_t alen,
		  const char *b_name, const char *b, size_t blen)
{
	struct lines la, lb;
	size_t pre = 0, suf = 0, start, a_end, b_end, ctx_a, ctx_b;

	split_lines(a, alen, &la);
	split_lines(b, blen, &lb);
	while (pre < la.nr && pre < lb.nr && line_eq(&la, pre, &lb, pre))
		pre++;
	while (suf < la.nr - pre && suf < lb.nr - pre &&
	       line_eq(&la, la.nr - 1 - suf, &lb, lb.nr - 1 - suf))
		suf++;
	if (pre == la.nr && pre == lb.nr)
		goto out;
	start = pre > 3 ? pre - 3 : 0;
	a_end = la.nr - suf;
	b_end = lb.nr - suf;
	ctx_a = a_end + (suf > 3 ? 3 : suf);
	ctx_b = b_end + (ctx_a - a_end);
	strbuf_addf(out, "--- %s\n+++ %s\n", a_name, b_name);
	strbuf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n",
		    ctx_a > start ? start + 1 : start, ctx_a - start,
		    ctx_b > start ? start + 1 : start, ctx_b - start);
	for (size_t i = start; i < pre; i++)
		diff_line(out, ' ', la.at[i], la.len[i]);
	for (size_t i = pre; i < a_end; i++)
		diff_line(out, '-', la.at[i], la.len[i]);
	for (size_t i = pre; i < b_end; i++)
		diff_line(out, '+', lb.at[i], lb.len[i]);
	for (size_t i = a_end; i < ctx_a; i++)
		diff_line(out, ' ', la.at[i], la.len[i]);
out:
	free(la.at);
	free(la.len);
	free(lb.at);
	free(lb.len);
}

static bool has_rule(const struct rules *r, enum rule_action a, const char *glob)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->items[i].action == a && !strcmp(r->items[i].glob, glob))
			return true;
	return false;
}

void adapter_edit_release(struct adapter_edit *e)
{
	strbuf_release(&e->old_text);
	strbuf_release(&e->new_text);
	free(e->snippet);
	strlist_release(&e->notes);
	team_file_close(&e->file);
	memset(e, 0, sizeof(*e));
	e->old_text = (struct strbuf)STRBUF_INIT;
	e->new_text = (struct strbuf)STRBUF_INIT;
}

int adapter_check_glob(const char *glob)
{
	struct strbuf why = STRBUF_INIT, safe = STRBUF_INIT;
	struct glob_set *gs;
	size_t n = strlen(glob);
	int ret = 0;

	/* What sanitize_text would change cannot go into a file raw. */
	sanitize_text(&safe, glob, n);
	if (safe.len != n || memcmp(safe.buf, glob, n)) {
		ret = error("'%s': a glob must not hold control characters, "
			    "bidirectional formatting characters or invalid UTF-8",
			    safe.buf);
		strbuf_release(&safe);
		return ret;
	}
	strbuf_release(&safe);
	if (!*glob || glob[0] == ' ' || glob[0] == '\t' ||
	    glob[n - 1] == ' ' || glob[n - 1] == '\t')
		return error("'%s': a glob must not be empty or start or end with a blank",
			     glob);
	if (glob[0] == '!')
		return error("'%s': a negated glob is not a force-full trigger", glob);
	gs = glob_set_new();
	if (glob_set_add(gs, glob, 0, &why) < 0)
		ret = error("'%s': %s", glob, why.buf);
	glob_set_free(gs);
	strbuf_release(&why);
	return ret;
}

static char *reads_as(const struct adapter *a, const char *glob)
{
	return a->reads_as ? a->reads_as(glob) : xstrdup(glob);
}

static int parse_as(const struct adapter_edit *e, struct rules *r, const char *text,
		    size_t len, const char *path)
{
	return e->adapter->read_rules(r, text, len, path, e->variant);
}

/*
 * The new text reads as the old rules plus one with the glob added. The
 * readers' warnings were printed when the file was read for the plan:
 * here they are kept, and shown only when the edit does not read back.
 */
static int read_back(const struct adapter_edit *e, const char *path, const char *glob)
{
	struct rules before = RULES_INIT, after = RULES_INIT;
	struct strbuf said = STRBUF_INIT, *prev = error_capture(&said);
	char *want = reads_as(e->adapter, glob);
	bool same = (!e->exists ||
		     parse_as(e, &before, e->old_text.buf, e->old_text.len, path) == 0) &&
		    parse_as(e, &after, e->new_text.buf, e->new_text.len, path) == 0 &&
		    after.nr == before.nr + 1 && has_rule(&after, e->adapter->adds, want);
	int ret = 0;

	error_capture(prev);
	if (!same)
		ret = error("%s: the edit does not read back as one more rule '%s' "
			    "(not written)%s%s", path, want, said.len ? ": " : "", said.buf);
	strbuf_release(&said);
	free(want);
	rules_release(&before);
	rules_release(&after);
	return ret;
}

/* Does every line of the text end in CRLF (and one at least)? */
static bool all_crlf(const char *t, size_t len)
{
	const char *nl = memchr(t, '\n', len);

	if (!nl)
		return false;
	for (; nl; nl = memchr(nl + 1, '\n', len - (size_t)(nl + 1 - t)))
		if (nl == t || nl[-1] != '\r')
			return false;
	return true;
}

/* The lines an adapter inserted end as the file's others do: CRLF in a CRLF file. */
static void keep_crlf(struct adapter_edit *e)
{
	struct strbuf crlf = STRBUF_INIT;

	if (!e->writable || !all_crlf(e->old_text.buf, e->old_text.len))
		return;
	for (size_t i = 0; i < e->new_text.len; i++) {
		if (e->new_text.buf[i] == '\n' && (!i || e->new_text.buf[i - 1] != '\r'))
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, e->new_text.buf[i]);
	}
	strbuf_release(&e->new_text);
	e->new_text = crlf;
}

int adapter_plan_add(const char *path, const char *glob, int64_t now,
		     struct adapter_edit *out)
{
	struct rules cur = RULES_INIT;
	char *want;
	int ret;

	if (adapter_check_glob(glob) < 0)
		return -1;
	if (team_file_open(&out->file, path, 16 << 20) < 0)
		return -1;
	out->exists = out->file.exists;
	strbuf_add(&out->old_text, out->file.text.buf, out->file.text.len);
	out->adapter = adapter_detect(path, out->old_text.buf, out->old_text.len,
				      &out->variant);
	if (!out->exists && out->adapter != &adapter_lists)
		return error("cannot read '%s': %s", path, strerror(ENOENT));
	/* The file must read as rules now; is the glob there already? */
	if (out->exists && parse_as(out, &cur, out->old_text.buf, out->old_text.len,
				    path) < 0) {
		rules_release(&cur);
		return -1;
	}
	want = reads_as(out->adapter, glob);
	out->present = has_rule(&cur, out->adapter->adds, want);
	free(want);
	rules_release(&cur);
	if (out->present)
		return 0;
	if (!out->adapter->plan_add)
		return error("%s: tiadash does not write %s configurations", path,
			     out->adapter->name);
	ret = out->adapter->plan_add(out, path, glob, now);
	if (!ret)
		keep_crlf(out);
	if (!ret && out->writable && read_back(out, path, glob) < 0) {
		out->writable = false;
		ret = -1;
	}
	return ret;
}

/* ---- writing: the file ---- */

int adapter_apply(struct adapter_edit *e)
{
	if (!e->writable)
		BUG("adapter_apply of a plan that is not writable");
	return team_file_replace(&e->file, e->new_text.buf, e->new_text.len);
}

int adapter_add(const char *path, const char *glob, bool dry_run, int64_t now)
{
	struct adapter_edit e = ADAPTER_EDIT_INIT;
	struct strbuf diff = STRBUF_INIT;
	int ret = adapter_plan_add(path, glob, now, &e);

	if (ret < 0)
		goto out;
	if (e.present) {
		note("'%s' already forces a full run in %s: nothing to do", glob, path);
		goto out;
	}
	for (size_t i = 0; i < e.notes.nr; i++)
		note("%s: %s", path, e.notes.items[i]);
	if (!e.writable) {
		fputs(e.snippet, stdout);
		goto out;
	}
	adapter_diff(&diff, e.exists ? path : "/dev/null", e.old_text.buf, e.old_text.len,
		     path, e.new_text.buf, e.new_text.len);
	fwrite(diff.buf, 1, diff.len, stdout);
	fflush(stdout);
	if (dry_run) {
		note("dry run: %s not changed", path);
		goto out;
	}
	ret = adapter_apply(&e);
	if (!ret && e.exists)
		note("wrote %s", path);
	else if (!ret)
		note("created %s", path);
out:
	strbuf_release(&diff);
	adapter_edit_release(&e);
	return ret;
}
