/*
 * Time: RFC 3339 parsing and printing, the --since/--until grammar, and the
 * one now() that TIADASH_NOW pins for reproducible tests. All times are
 * milliseconds since the Unix epoch, UTC.
 */
#ifndef TIADASH_CORE_TIMEUTIL_H
#define TIADASH_CORE_TIMEUTIL_H

#include "core/tiadash.h"
#include "core/util.h"

#define MS_PER_DAY INT64_C(86400000)

/* Now, or TIADASH_NOW (RFC 3339) when set; dies on a malformed TIADASH_NOW. */
int64_t time_now_ms(void);
/* Seconds of the monotonic clock: for deadlines and durations, never dates. */
double time_monotonic_s(void);

/* RFC 3339 date-time with an offset or Z; fractions kept to the millisecond. */
bool time_parse_rfc3339(const char *s, int64_t *ms);

/*
 * A window bound: `7d`, `24h`, `90m`, `2w` (that long before now), a date
 * `2026-11-01` (00:00 UTC), or an RFC 3339 time. Returns false on junk.
 */
bool time_parse_when(const char *s, int64_t now, int64_t *ms);
/* A duration of more than nothing: `90s`, `30m`, `2h`, `1d`, `1w`, in ms. */
bool time_parse_duration(const char *s, int64_t *ms);

/* Append `2026-11-08T12:00:00Z` (with .mmm when not whole seconds). */
void time_format(struct strbuf *sb, int64_t ms);
/* Append the date `2026-11-08` of ms. */
void time_format_date(struct strbuf *sb, int64_t ms);

/* Days since 1970-01-01 of a civil date, and back. */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d);
void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

/* Floor division that is right for negative times too. */
int64_t day_of(int64_t ms);

#endif
