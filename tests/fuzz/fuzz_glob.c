/* Fuzz target: the glob compiler. Input: patterns, a blank line, paths; the set
 * compiled with and without its fast paths must answer the same. */
#include "core/tiadash.h"
#include "core/glob.h"
#include "tests/fuzz/fuzz.h"

FUZZ_QUIET_STDERR()

static void split_lines(char *text, struct strlist *pats, struct strlist *paths)
{
	struct strlist *into = pats;

	for (char *p = text; p; ) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (!*p && into == pats)
			into = paths;
		else if (*p)
			strlist_push(into, p);
		p = nl ? nl + 1 : NULL;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct strlist pats = STRLIST_INIT, paths = STRLIST_INIT;
	struct glob_set *fast = glob_set_new(), *slow = glob_set_new();
	struct strbuf why = STRBUF_INIT, re = STRBUF_INIT;
	bool ok = true;

	if (memchr(data, '\0', size))
		goto out; /* patterns and paths are C strings */
	split_lines(text, &pats, &paths);
	if (pats.nr > 64)
		goto out;
	for (size_t i = 0; i < pats.nr; i++) {
		struct strlist alts = STRLIST_INIT;

		strbuf_reset(&why);
		glob_expand_braces(pats.items[i], &alts, &why);
		for (size_t k = 0; k < alts.nr; k++) {
			strbuf_reset(&re);
			strbuf_reset(&why);
			glob_translate(alts.items[k], &re, &why);
		}
		strlist_release(&alts);
		strbuf_reset(&why);
		if (glob_set_add(fast, pats.items[i], (int)i, &why) < 0) {
			ok = false;
			continue;
		}
		strbuf_reset(&why);
		if (glob_set_add(slow, pats.items[i], (int)i, &why) < 0)
			BUG("glob_set_add is not deterministic for '%s'", pats.items[i]);
	}
	if (!ok || glob_set_compile(fast, 0) < 0 ||
	    glob_set_compile(slow, GLOB_NO_FAST_PATHS) < 0)
		goto out;
	if (glob_set_size(fast) != glob_set_size(slow))
		BUG("sizes differ");
	for (size_t i = 0; i < paths.nr; i++) {
		int a = glob_set_match(fast, paths.items[i]);
		int b = glob_set_match(slow, paths.items[i]);

		if (a != GLOB_MATCH_ERROR && b != GLOB_MATCH_ERROR && a != b)
			BUG("path '%s': fast paths say %d, the regex says %d",
			    paths.items[i], a, b);
	}
out:
	glob_set_free(fast);
	glob_set_free(slow);
	strlist_release(&pats);
	strlist_release(&paths);
	strbuf_release(&why);
	strbuf_release(&re);
	free(text);
	return 0;
}
