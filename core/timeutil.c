/* RFC 3339 and window-bound parsing; the pinned clock for tests. */
#include "core/tiadash.h"
#include "core/timeutil.h"

#include <time.h>

/* Howard Hinnant's civil-calendar algorithms (public domain). */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

int64_t day_of(int64_t ms)
{
	return ms >= 0 ? ms / MS_PER_DAY : -((-ms + MS_PER_DAY - 1) / MS_PER_DAY);
}

static bool digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static unsigned days_in_month(int y, int m)
{
	static const unsigned dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : dm[m - 1];
}

/* Parse YYYY-MM-DD at s; returns the day number. */
static bool parse_date(const char *s, int64_t *days)
{
	int y, m, d;

	if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &m) ||
	    s[7] != '-' || !digits(s + 8, 2, &d))
		return false;
	if (m < 1 || m > 12 || d < 1 || (unsigned)d > days_in_month(y, m))
		return false;
	*days = days_from_civil(y, (unsigned)m, (unsigned)d);
	return true;
}

bool time_parse_rfc3339(const char *s, int64_t *ms)
{
	int64_t days, frac_ms = 0;
	int hh, mm, ss, oh, om;
	const char *p;

	if (!s || strlen(s) < 20 || !parse_date(s, &days))
		return false;
	if (s[10] != 'T' && s[10] != 't' && s[10] != ' ')
		return false;
	if (!digits(s + 11, 2, &hh) || s[13] != ':' || !digits(s + 14, 2, &mm) ||
	    s[16] != ':' || !digits(s + 17, 2, &ss))
		return false;
	if (hh > 23 || mm > 59 || ss > 60)
		return false;
	p = s + 19;
	if (*p == '.') {
		int scale = 100, n = 0;

		for (p++; *p >= '0' && *p <= '9'; p++, n++) {
			frac_ms += (*p - '0') * scale;
			scale /= 10;
		}
		if (!n)
			return false;
	}
	*ms = (days * 86400 + hh * 3600 + mm * 60 + (ss == 60 ? 59 : ss)) * 1000 +
	      frac_ms;
	if ((*p == 'Z' || *p == 'z') && !p[1])
		return true;
	if ((*p != '+' && *p != '-') || !digits(p + 1, 2, &oh) || p[3] != ':' ||
	    !digits(p + 4, 2, &om) || p[6] || oh > 23 || om > 59)
		return false;
	*ms -= (int64_t)(*p == '+' ? 1 : -1) * (oh * 3600 + om * 60) * 1000;
	/*
	 * Hardening (issue 7, fuzz_time): an offset can move the instant out
	 * of years 0000-9999, which tiadash then printed as "-001-12-31T..."
	 * or "10000-01-01T...", not RFC 3339. Refuse those.
	 */
	return *ms >= days_from_civil(0, 1, 1) * MS_PER_DAY &&
	       *ms < days_from_civil(10000, 1, 1) * MS_PER_DAY;
}

/*
 * "7d", "24h", "90m", "2w", "1y" (365 days; and "30s" when seconds): a
 * count and a unit, in ms.
 */
static bool parse_span(const char *s, bool seconds, int64_t *ms)
{
	int64_t n, unit;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno || end[0] == '\0' || end[1] != '\0')
		return false;
	switch (*end) {
	case 'y': unit = 365 * MS_PER_DAY; break;
	case 'w': unit = 7 * MS_PER_DAY; break;
	case 'd': unit = MS_PER_DAY; break;
	case 'h': unit = 3600000; break;
	case 'm': unit = 60000; break;
	case 's': unit = 1000; if (seconds) break; return false;
	default: return false;
	}
	if (n > INT64_MAX / unit / 2)
		return false;
	*ms = n * unit;
	return true;
}

bool time_parse_when(const char *s, int64_t now, int64_t *ms)
{
	int64_t days, span;

	if (!s || !*s)
		return false;
	if (strlen(s) == 10 && parse_date(s, &days)) {
		*ms = days * MS_PER_DAY;
		return true;
	}
	if (time_parse_rfc3339(s, ms))
		return true;
	if (!parse_span(s, false, &span))
		return false;
	*ms = now - span;
	return true;
}

bool time_parse_duration(const char *s, int64_t *ms)
{
	return s && parse_span(s, true, ms) && *ms > 0;
}

void time_format_date(struct strbuf *sb, int64_t ms)
{
	int64_t y;
	unsigned m, d;

	civil_from_days(day_of(ms), &y, &m, &d);
	strbuf_addint(sb, y, 4);
	strbuf_addch(sb, '-');
	strbuf_addint(sb, m, 2);
	strbuf_addch(sb, '-');
	strbuf_addint(sb, d, 2);
}

void time_format(struct strbuf *sb, int64_t ms)
{
	int64_t sec_of_day = ms - day_of(ms) * MS_PER_DAY;

	time_format_date(sb, ms);
	strbuf_addch(sb, 'T');
	strbuf_addint(sb, sec_of_day / 3600000, 2);
	strbuf_addch(sb, ':');
	strbuf_addint(sb, sec_of_day / 60000 % 60, 2);
	strbuf_addch(sb, ':');
	strbuf_addint(sb, sec_of_day / 1000 % 60, 2);
	if (sec_of_day % 1000) {
		strbuf_addch(sb, '.');
		strbuf_addint(sb, sec_of_day % 1000, 3);
	}
	strbuf_addch(sb, 'Z');
}

double time_monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int64_t time_now_ms(void)
{
	const char *pinned = getenv("TIADASH_NOW");
	struct timespec ts;
	int64_t ms;

	if (pinned && *pinned) {
		if (!time_parse_rfc3339(pinned, &ms))
			die("TIADASH_NOW is not an RFC 3339 time: '%s'", pinned);
		return ms;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
