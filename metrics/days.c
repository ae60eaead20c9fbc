/* The figures per day and per period (week, month) of a window: from its rows, or from a lean pass's sums. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "metrics/pass.h"

static const char *const period_names[] = { "day", "week", "month" };

bool metrics_period_parse(const char *s, enum metrics_period *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(period_names); i++)
		if (!strcmp(s, period_names[i])) {
			*out = (enum metrics_period)i;
			return true;
		}
	return false;
}

const char *metrics_period_name(enum metrics_period p)
{
	return period_names[p];
}

/* The first day of the period holding day (days since 1970-01-01, a Thursday). */
int64_t period_first_day(int64_t day, enum metrics_period by)
{
	int64_t y;
	unsigned mo, d;

	switch (by) {
	case PERIOD_WEEK:
		return day - (((day + 3) % 7) + 7) % 7; /* back to Monday */
	case PERIOD_MONTH:
		civil_from_days(day, &y, &mo, &d);
		return days_from_civil(y, mo, 1);
	default:
		return day;
	}
}

static int64_t period_next_day(int64_t first, enum metrics_period by)
{
	int64_t y;
	unsigned mo, d;

	switch (by) {
	case PERIOD_WEEK:
		return first + 7;
	case PERIOD_MONTH:
		civil_from_days(first, &y, &mo, &d);
		return mo == 12 ? days_from_civil(y + 1, 1, 1) : days_from_civil(y, mo + 1, 1);
	default:
		return first + 1;
	}
}

/* Row r into day (period) d. */
static void day_acc_add(struct metrics_day *d, struct day_acc *da, const struct metrics_row *r)
{
	if (r->cls == CLASS_MAIN)
		return;
	d->heads++;
	d->pairs += r->shadow_attempts > 0 && r->full_attempts > 0;
	d->escapes += pair_class_is_escape(r->cls);
	d->shadow_runs += r->shadow_attempts > 0;
	d->force_full += r->decision == DECISION_RUN_ALL;
	if (!isnan(r->affected))
		dvec_push(&da->aff, r->affected);
	if (!isnan(r->shadow_wall_s))
		dvec_push(&da->wall, r->shadow_wall_s);
	if (!isnan(r->diff_coverage)) {
		da->dc_sum += r->diff_coverage;
		da->dc_n++;
	}
}

/* Day d's figures from what day_acc_add gathered; da is emptied for the next day. */
static void day_acc_close(const struct metrics *m, struct metrics_day *d, struct day_acc *da)
{
	stats_rate_of(d->escapes, d->pairs, m->confidence, &d->escape);
	d->force_full_rate = d->shadow_runs ? (double)d->force_full / (double)d->shadow_runs : NAN;
	d->escape_rate = d->pairs ? (double)d->escapes / (double)d->pairs : NAN;
	d->affected_p50 = metrics_quantile(da->aff.v, da->aff.nr, 0.5);
	d->shadow_wall_p95 = metrics_quantile(da->wall.v, da->wall.nr, 0.95);
	d->diff_coverage_mean = da->dc_n ? da->dc_sum / (double)da->dc_n : NAN;
	da->aff.nr = da->wall.nr = 0;
	da->dc_sum = 0;
	da->dc_n = 0;
}

static void day_acc_release(struct day_acc *da)
{
	free(da->aff.v);
	free(da->wall.v);
	memset(da, 0, sizeof(*da));
}

/*
 * A period's figures into d, its days [first, next): from the rows or the
 * sums that fill_fn's data holds. *cursor starts at 0 for the first period
 * and is the fill's own from one period to the next.
 */
typedef void (*fill_fn)(const struct metrics *m, struct metrics_day *d, int64_t first,
			int64_t next, size_t *cursor, void *data);

/*
 * The periods by `by` from the one holding day first to the one holding
 * day last into *out; SIZE_MAX (nothing kept) when they are more than
 * METRICS_MAX_DAYS.
 */
static size_t lay_periods(const struct metrics *m, enum metrics_period by, int64_t first,
			  int64_t last, fill_fn fill, void *data, struct metrics_day **out)
{
	size_t n = 0, alloc = 0, cursor = 0;

	for (int64_t p = period_first_day(first, by); p <= last; p = period_next_day(p, by)) {
		int64_t next = period_next_day(p, by);
		struct metrics_day *d;

		if (n == METRICS_MAX_DAYS) {
			free(*out);
			*out = NULL;
			return SIZE_MAX;
		}
		ALLOC_GROW(*out, n + 1, alloc);
		d = memset(&(*out)[n++], 0, sizeof(**out));
		fill(m, d, p, next, &cursor, data);
		/* Partial when the window begins or ends inside it. */
		d->day = p * MS_PER_DAY;
		d->end = next * MS_PER_DAY;
		d->partial = (m->since > d->day && m->since < d->end) ||
			     (m->until > d->day && m->until < d->end);
	}
	return n;
}

/*
 * The window's periods: from its bounds, or from its first and last head
 * where it has none; those from the first head to the last when the
 * window holds more than METRICS_MAX_DAYS. Returns how many (0: none).
 */
static size_t window_periods(const struct metrics *m, enum metrics_period by, bool any,
			     int64_t first_at, int64_t last_at, fill_fn fill, void *data,
			     struct metrics_day **out)
{
	int64_t first, last;
	size_t n;

	*out = NULL;
	if ((m->since == INT64_MIN || m->until == INT64_MAX) && !any)
		return 0;
	first = day_of(m->since != INT64_MIN ? m->since : first_at);
	last = day_of(m->until != INT64_MAX ? m->until - 1 : last_at);
	if (last < first)
		return 0;
	n = lay_periods(m, by, first, last, fill, data, out);
	if (n == SIZE_MAX && any)
		n = lay_periods(m, by, day_of(first_at), day_of(last_at), fill, data, out);
	return n == SIZE_MAX ? 0 : n;
}

/* A period from the rows (in window order) of its days: fill_fn over m->rows. */
static void fill_from_rows(const struct metrics *m, struct metrics_day *d, int64_t first,
			   int64_t next, size_t *i, void *data)
{
	struct day_acc *da = data;

	while (*i < m->nr_rows && m->rows[*i].at < first * MS_PER_DAY)
		(*i)++;
	for (; *i < m->nr_rows && m->rows[*i].at < next * MS_PER_DAY; (*i)++)
		day_acc_add(d, da, &m->rows[*i]);
	day_acc_close(m, d, da);
}

static size_t periods_of_rows(const struct metrics *m, enum metrics_period by,
			      struct metrics_day **out)
{
	struct day_acc da = { 0 };
	bool any = m->nr_rows > 0;
	size_t n = window_periods(m, by, any, any ? m->rows[0].at : 0,
				  any ? m->rows[m->nr_rows - 1].at : 0, fill_from_rows, &da, out);

	day_acc_release(&da);
	return n;
}

void days_of_rows(struct metrics *m)
{
	int64_t prev_shadow_day = INT64_MIN;

	/* Shadow days: rows are in window order, so equal days are adjacent. */
	for (size_t j = 0; j < m->nr_rows; j++) {
		int64_t day = day_of(m->rows[j].at);

		if (m->rows[j].shadow_attempts > 0 && day != prev_shadow_day) {
			m->shadow_days++;
			prev_shadow_day = day;
		}
	}
	m->nr_days = periods_of_rows(m, PERIOD_DAY, &m->days);
}

void period_sums_add(const struct metrics *m, struct period_sums *s, int64_t first,
		     const struct metrics_row *r)
{
	if (!s->nr || s->v[s->nr - 1].day != first) {
		if (s->nr)
			day_acc_close(m, &s->v[s->nr - 1], &s->acc);
		ALLOC_GROW(s->v, s->nr + 1, s->alloc);
		memset(&s->v[s->nr], 0, sizeof(*s->v));
		s->v[s->nr++].day = first;
	}
	day_acc_add(&s->v[s->nr - 1], &s->acc, r);
}

void period_sums_release(struct period_sums *s)
{
	free(s->v);
	day_acc_release(&s->acc);
	memset(s, 0, sizeof(*s));
}

/* A period from the sums: those of a period with heads, else empty. */
static void fill_from_sums(const struct metrics *m, struct metrics_day *d, int64_t first,
			   int64_t next, size_t *j, void *data)
{
	struct period_sums *s = data;

	UNUSED(next);
	while (*j < s->nr && s->v[*j].day < first)
		(*j)++;
	if (*j < s->nr && s->v[*j].day == first)
		*d = s->v[*j];
	else
		day_acc_close(m, d, &s->acc);
}

size_t periods_of_sums(const struct metrics *m, enum metrics_period by, struct period_sums *s,
		       bool any, int64_t heads_first_at, int64_t heads_last_at,
		       struct metrics_day **out)
{
	/* The last period is still open: the others were closed as the next began. */
	if (s->nr)
		day_acc_close(m, &s->v[s->nr - 1], &s->acc);
	return window_periods(m, by, any, heads_first_at, heads_last_at, fill_from_sums, s, out);
}

size_t metrics_by_period(const struct metrics *m, enum metrics_period by,
			 struct metrics_day **out)
{
	*out = NULL;
	if (m->rows_sparse) {
		/* A lean pass made them (metrics_opts.by): a copy, as made here. */
		if (m->periods_by_ != (int)by + 1)
			BUG("periods by %s of a lean pass that made none", metrics_period_name(by));
		if (m->nr_periods_) {
			*out = xmalloc(m->nr_periods_ * sizeof(**out));
			memcpy(*out, m->periods_, m->nr_periods_ * sizeof(**out));
		}
		return m->nr_periods_;
	}
	return periods_of_rows(m, by, out);
}
