/*
 * JSON output through cJSON, with the conventions of every tiadash command:
 * untrusted strings repaired to valid UTF-8, NaN as null, times as RFC 3339.
 */
#ifndef TIADASH_CORE_JSON_H
#define TIADASH_CORE_JSON_H

#include "core/tiadash.h"

#include <cJSON.h>

/* A string node holding s with invalid UTF-8 replaced by U+FFFD. */
cJSON *json_string(const char *s);
void json_add_string(cJSON *obj, const char *key, const char *s);
/* s may be NULL: null. */
void json_add_string_or_null(cJSON *obj, const char *key, const char *s);
void json_add_int(cJSON *obj, const char *key, int64_t v);
/* has == false: null. */
void json_add_opt_int(cJSON *obj, const char *key, bool has, int64_t v);
/* NaN: null (a figure that cannot be computed is null, never 0). */
void json_add_number(cJSON *obj, const char *key, double v);
void json_add_bool(cJSON *obj, const char *key, bool v);
/* INT64_MIN / INT64_MAX (unbounded): null. */
void json_add_time(cJSON *obj, const char *key, int64_t ms);
/* Append a string to an array. */
void json_push_string(cJSON *arr, const char *s);

struct identity_figures;
/*
 * The "identity" object of report and status (SPEC 3.3): failing_tests,
 * resolved, unresolved (ids), selection_entries, entries_matching_no_test
 * (null when no run could tell), and by_name, entries_unresolved.
 */
void json_add_identity(cJSON *obj, const char *key, const struct identity_figures *f);

/* Print obj (indented) and a newline to f, then free it. */
void json_print_free(cJSON *obj, FILE *f);

/*
 * Parse text (NUL-terminated at len) with cJSON, refusing trailing garbage
 * and NUL characters (json_refuse_nul); on failure returns NULL after
 * error() naming `source:line` and what was found there.
 */
cJSON *json_parse_source(const char *text, size_t len, const char *source);

/*
 * cJSON's strings end at a NUL, so "a\u0000b" would come back as "a" and
 * two distinct ids as one: refuse JSON text holding a NUL, escaped or raw.
 * Returns 0, or -1 after error() naming `source:line`.
 */
int json_refuse_nul(const char *text, size_t len, const char *source);

#endif
