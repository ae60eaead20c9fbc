/* The candidate globs of a changed path, their match keys, and the greedy cover of the recommended set. */
#include "core/tiadash.h"
#include "metrics/candidates.h"
#include "core/util.h"

static const char *const form_names[] = { "file", "name", "dir-ext", "dir", "ext", "builtin" };

const char *proposal_form_name(enum proposal_form f)
{
	return form_names[f];
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* Append s[0..n) with glob syntax escaped, so the glob means exactly s. */
static void glob_escape(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (strchr("*?[]\\{},! \t#", c))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, c);
	}
}

size_t proposals_ext_dot(const char *name, size_t n)
{
	for (size_t i = n; i-- > 1;)
		if (name[i] == '.')
			return i + 1 < n ? i : 0;
	return 0;
}

static void add_candidate(struct proposal_candidates *out, enum proposal_form form,
			  struct strbuf *glob, struct strbuf *key)
{
	struct proposal_candidate *c;

	ALLOC_GROW(out->items, out->nr + 1, out->alloc);
	c = &out->items[out->nr++];
	c->form = form;
	c->glob = strbuf_detach(glob, NULL);
	c->key = strbuf_detach(key, NULL);
}

/* path[0..len) as a glob: each component escaped, the slashes kept. */
static void glob_escape_path(struct strbuf *glob, const char *path, size_t len)
{
	const char *end = path + len;

	for (const char *q = path; q < end;) {
		const char *slash = memchr(q, '/', (size_t)(end - q));
		size_t n = slash ? (size_t)(slash - q) : (size_t)(end - q);

		glob_escape(glob, q, n);
		q += n;
		if (q < end)
			strbuf_addch(glob, *q++);
	}
}

void proposals_path_candidates(const char *path, struct proposal_candidates *out)
{
	struct strbuf glob = STRBUF_INIT, key = STRBUF_INIT;
	const char *base = strrchr(path, '/');
	size_t blen, dot;

	if (!*path || has_control(path) || *path == '/' || ends_with(path, "/"))
		return;
	base = base ? base + 1 : path;
	blen = strlen(base);
	dot = proposals_ext_dot(base, blen);

	/* The file itself: anchored (a root file as "/name"). */
	if (base == path)
		strbuf_addch(&glob, '/');
	glob_escape_path(&glob, path, strlen(path));
	strbuf_addf(&key, "L:%s", path);
	add_candidate(out, FORM_FILE, &glob, &key);

	/* dir/ ** at each level, from the top. */
	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		size_t dlen = (size_t)(p - path);

		glob_escape_path(&glob, path, dlen);
		strbuf_addstr(&glob, "/**");
		strbuf_addf(&key, "D:%.*s", (int)dlen, path);
		add_candidate(out, FORM_DIR, &glob, &key);
	}

	strbuf_addstr(&glob, "**/");
	glob_escape(&glob, base, blen);
	strbuf_addf(&key, "N:%s", base);
	add_candidate(out, FORM_NAME, &glob, &key);

	if (!dot)
		goto out;
	strbuf_addstr(&glob, "**/*.");
	glob_escape(&glob, base + dot + 1, blen - dot - 1);
	strbuf_addf(&key, "E:%s", base + dot + 1);
	add_candidate(out, FORM_EXT, &glob, &key);

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		size_t dlen = (size_t)(p - path);

		glob_escape_path(&glob, path, dlen);
		strbuf_addstr(&glob, "/**/*.");
		glob_escape(&glob, base + dot + 1, blen - dot - 1);
		strbuf_addf(&key, "X:%.*s/%s", (int)dlen, path, base + dot + 1);
		add_candidate(out, FORM_DIR_EXT, &glob, &key);
	}
out:
	strbuf_release(&glob);
	strbuf_release(&key);
}

void proposal_candidates_release(struct proposal_candidates *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->items[i].glob);
		free(c->items[i].key);
	}
	free(c->items);
	memset(c, 0, sizeof(*c));
}

/*
 * Call fn with every key path answers to (gitignore semantics, where a
 * pattern also matches a path below what it names):
 *   L:prefix    each leading directory and the path itself (anchored literal)
 *   D:dir       each leading directory (dir/ ** needs something below)
 *   N:name      each component ( ** /name matches directories too)
 *   E:ext       each component, each suffix after a '.' ( ** / *.ext)
 *   X:dir/ext   each leading directory, and each later component's suffixes
 * The key is in sb (reset before each call); fn returns true to stop.
 */
static bool ext_keys(struct strbuf *sb, const char *prefix, size_t plen,
		     const char *comp, size_t n, proposals_key_fn fn, void *data)
{
	for (size_t i = 0; i < n; i++) {
		if (comp[i] != '.')
			continue;
		strbuf_reset(sb);
		strbuf_add(sb, prefix, plen);
		strbuf_add(sb, comp + i + 1, n - i - 1);
		if (fn(sb, data))
			return true;
	}
	return false;
}

bool proposals_each_path_key(const char *path, struct strbuf *sb, proposals_key_fn fn,
			     void *data)
{
	struct strbuf prefix = STRBUF_INIT;
	bool stop = false;

	for (const char *p = path; !stop;) {
		size_t n = strcspn(p, "/");
		size_t upto = (size_t)(p - path) + n;
		bool last = !p[n];

		strbuf_reset(sb);
		strbuf_addstr(sb, "L:");
		strbuf_add(sb, path, upto);
		stop = fn(sb, data);
		if (!stop && !last) {
			strbuf_reset(sb);
			strbuf_addstr(sb, "D:");
			strbuf_add(sb, path, upto);
			stop = fn(sb, data);
		}
		if (!stop) {
			strbuf_reset(sb);
			strbuf_addstr(sb, "N:");
			strbuf_add(sb, p, n);
			stop = fn(sb, data);
		}
		if (!stop)
			stop = ext_keys(sb, "E:", 2, p, n, fn, data);
		/* X: every leading directory before this component. */
		for (const char *d = strchr(path, '/'); !stop && d && d < p;
		     d = strchr(d + 1, '/')) {
			strbuf_reset(&prefix);
			strbuf_addstr(&prefix, "X:");
			strbuf_add(&prefix, path, (size_t)(d - path));
			strbuf_addch(&prefix, '/');
			stop = ext_keys(sb, prefix.buf, prefix.len, p, n, fn, data);
		}
		if (last)
			break;
		p += n + 1;
	}
	strbuf_release(&prefix);
	return stop;
}

static bool push_key(const struct strbuf *key, void *data)
{
	strlist_push(data, key->buf);
	return false;
}

void proposals_path_keys(const char *path, struct strlist *out)
{
	struct strbuf sb = STRBUF_INIT;

	proposals_each_path_key(path, &sb, push_key, out);
	strbuf_release(&sb);
}

/* ---- greedy weighted set cover ---- */

struct cover_pick {
	size_t item, fresh;
	double ratio;
};

/* Is candidate a better pick than b (b.fresh == 0: no pick yet)? */
static bool cover_better(const struct proposals_cover_item *items,
			 const struct cover_pick *a, const struct cover_pick *b)
{
	const struct proposals_cover_item *x = &items[a->item], *y = &items[b->item];
	int cmp;

	if (!b->fresh)
		return true;
	if (isnan(a->ratio) != isnan(b->ratio))
		return !isnan(a->ratio);
	if (!isnan(a->ratio) && a->ratio != b->ratio)
		return a->ratio < b->ratio;
	if (x->runs != y->runs)
		return x->runs < y->runs;
	if (x->specificity != y->specificity)
		return x->specificity < y->specificity;
	if (a->fresh != b->fresh)
		return a->fresh > b->fresh;
	cmp = strcmp(x->name, y->name);
	return cmp ? cmp < 0 : a->item < b->item;
}

size_t proposals_cover(const struct proposals_cover_item *items, size_t nr_items,
		       size_t nr_elements, size_t *chosen)
{
	bool *covered = xcalloc(nr_elements + 1, sizeof(*covered));
	bool *used = xcalloc(nr_items + 1, sizeof(*used));
	size_t n = 0;

	for (;;) {
		struct cover_pick best = { 0, 0, NAN };

		for (size_t i = 0; i < nr_items; i++) {
			struct cover_pick c = { i, 0, NAN };

			if (used[i])
				continue;
			for (size_t j = 0; j < items[i].nr_covers; j++)
				c.fresh += items[i].covers[j] < nr_elements &&
					   !covered[items[i].covers[j]];
			if (!c.fresh)
				continue;
			c.ratio = items[i].cost / (double)c.fresh;
			if (cover_better(items, &c, &best))
				best = c;
		}
		if (!best.fresh)
			break;
		used[best.item] = true;
		chosen[n++] = best.item;
		for (size_t j = 0; j < items[best.item].nr_covers; j++)
			if (items[best.item].covers[j] < nr_elements)
				covered[items[best.item].covers[j]] = true;
	}
	free(covered);
	free(used);
	return n;
}

