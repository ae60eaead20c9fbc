/* The dashboard's regular expressions (PCRE2, UTF-8): one wrapper for the
 * filters, the searches and the highlighting of what they match. */
#include "core/tiadash.h"
#include "tui/tui.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

struct tui_regex {
	pcre2_code *code;
	pcre2_match_data *md;
};

struct tui_regex *tui_regex_compile(const char *pattern, struct strbuf *err)
{
	struct tui_regex *re;
	pcre2_code *code;
	int rc;
	PCRE2_SIZE off;

	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &rc,
			     &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(rc, msg, sizeof(msg));
		strbuf_addf(err, "invalid regex at offset %zu: %s", (size_t)off,
			    (const char *)msg);
		return NULL;
	}
	pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	re = xcalloc(1, sizeof(*re));
	re->code = code;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	return re;
}

void tui_regex_free(struct tui_regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re);
}

bool tui_regex_find(struct tui_regex *re, const char *s, size_t len, size_t off,
		    size_t *start, size_t *end)
{
	PCRE2_SIZE *ov;

	if (off > len || pcre2_match(re->code, (PCRE2_SPTR)s, len, off, 0, re->md, NULL) < 0)
		return false;
	ov = pcre2_get_ovector_pointer(re->md);
	*start = ov[0];
	*end = ov[1];
	return *start <= *end && *end <= len;
}

bool tui_regex_match(struct tui_regex *re, const char *s, size_t len)
{
	size_t a, b;

	return tui_regex_find(re, s, len, 0, &a, &b);
}
