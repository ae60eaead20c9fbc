/*
 * JSON output through cJSON, with the conventions of every tiadash command:
 * untrusted strings repaired to valid UTF-8, NaN as null, times as RFC 3339.
 */
#ifndef TIADASH_CORE_JSON_H
#define TIADASH_CORE_JSON_H

#include "core/tiadash.h"
#include "core/util.h"

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

/* A new array of l's strings, in order. */
cJSON *json_strlist(const struct strlist *l);

/* Print obj (indented) and a newline to f, then free it. */
void json_print_free(cJSON *obj, FILE *f);
/*
 * A list of strings too long to hold as cJSON nodes (a selection of 10^6
 * entries): json_stream_slot() stands in its place in obj, and
 * json_print_streamed prints obj as json_print_free does, the slot as an
 * array of the strings that each() hands to put (same escaping), one at a
 * time. each's status is returned (-1: an error, the output is cut short).
 */
typedef int (*json_put_fn)(const char *s, size_t len, void *out);
typedef int (*json_each_fn)(json_put_fn put, void *out, void *data);
cJSON *json_stream_slot(void);
int json_print_streamed(cJSON *obj, FILE *f, json_each_fn each, void *data);
/*
 * Or n nodes (objects, say) at the slot: node(i, data) makes the i-th,
 * printed as in obj, then freed. Nodes are made on two threads at once:
 * node must only read what it shares with its other calls.
 */
typedef cJSON *(*json_node_fn)(size_t i, void *data);
void json_print_nodes(cJSON *obj, FILE *f, size_t n, json_node_fn node, void *data);

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
