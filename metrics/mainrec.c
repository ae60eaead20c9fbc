/* Main's record in the figures: red spans from main's runs, the pairs that inherited them, latent misses. */
#include "core/tiadash.h"
#include "core/timeutil.h"
#include "metrics/mainrec.h"

/* The span of test open in repo's runs so far, or -1. */
static long open_span(const struct metrics *m, size_t from, const char *test)
{
	for (size_t i = from; i < m->nr_red_spans; i++)
		if (!m->red_spans[i].green_sha[0] && !strcmp(m->red_spans[i].test, test))
			return (long)i;
	return -1;
}

static void open_new(struct metrics *m, size_t *alloc, const struct main_run *r,
		     const char *test)
{
	struct metrics_red_span *sp;

	ALLOC_GROW(m->red_spans, m->nr_red_spans + 1, *alloc);
	sp = &m->red_spans[m->nr_red_spans++];
	memset(sp, 0, sizeof(*sp));
	sp->repo = xstrdup(r->repo);
	sp->test = xstrdup(test);
	memcpy(sp->red_sha, r->sha, sizeof(sp->red_sha));
	sp->red_at = r->started_at;
	sp->red_seq = r->seq;
	sp->green_seq = INT64_MAX;
	sp->minutes = NAN;
	sp->escape = -1;
}

/*
 * One run of main: its red tests open spans or go on with them; a run with
 * a verdict closes the open spans of the tests it did not fail. A run that
 * errored before a verdict says nothing of what passed.
 */
static void add_run(struct metrics *m, size_t *alloc, size_t from, const struct main_run *r)
{
	for (size_t i = 0; i < r->red.nr; i++) {
		long k = open_span(m, from, r->red.items[i]);

		if (k < 0)
			open_new(m, alloc, r, r->red.items[i]);
		else
			m->red_spans[k].runs++;
	}
	for (size_t i = from; r->verdict != VERDICT_ERROR && i < m->nr_red_spans; i++) {
		struct metrics_red_span *sp = &m->red_spans[i];

		if (sp->green_sha[0] || sp->red_seq == r->seq ||
		    strlist_sorted_has(&r->red, sp->test))
			continue;
		memcpy(sp->green_sha, r->sha, sizeof(sp->green_sha));
		sp->green_at = r->started_at;
		sp->green_seq = r->seq;
		sp->minutes = (double)(sp->green_at - sp->red_at) / 60000.0;
	}
}

/* Spans from every run of main (by repo, then line order); runs of a span start at 1. */
static void build_spans(struct metrics *m, const struct main_run *runs, size_t nr)
{
	size_t alloc = 0, from = 0;

	for (size_t i = 0; i < nr; i++) {
		if (i && strcmp(runs[i].repo, runs[i - 1].repo))
			from = m->nr_red_spans;
		add_run(m, &alloc, from, &runs[i]);
	}
	for (size_t i = 0; i < m->nr_red_spans; i++)
		m->red_spans[i].runs++;
}

/* Only the spans that overlap the window stay. */
static void keep_in_window(struct metrics *m, const struct window *w)
{
	size_t kept = 0;
	double sum = 0;
	int64_t closed = 0;

	for (size_t i = 0; i < m->nr_red_spans; i++) {
		struct metrics_red_span *sp = &m->red_spans[i];

		if (sp->green_sha[0] && sp->green_at < w->since) {
			free(sp->test);
			free(sp->repo);
			continue;
		}
		if (!isnan(sp->minutes)) {
			sum += sp->minutes;
			closed++;
		}
		m->red_spans[kept++] = *sp;
	}
	m->nr_red_spans = kept;
	m->red_minutes_mean = closed ? sum / (double)closed : NAN;
}

static long find_span(const struct metrics *m, const char *repo, const char *test, int64_t seq)
{
	for (size_t i = 0; i < m->nr_red_spans; i++) {
		const struct metrics_red_span *sp = &m->red_spans[i];

		if (!strcmp(sp->repo, repo) && !strcmp(sp->test, test) && sp->red_seq <= seq &&
		    seq < sp->green_seq)
			return (long)i;
	}
	return -1;
}

/* "REPO\nSHA" -> seq of every run of main: each inherited pair asks once. */
static void index_runs(const struct main_run *runs, size_t nr, struct strmap *out)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s\n%s", runs[i].repo, runs[i].sha);
		strmap_put(out, key.buf, key.len, runs[i].seq);
	}
	strbuf_release(&key);
}

static int64_t seq_of(const struct strmap *index, const char *repo, const char *sha)
{
	struct strbuf key = STRBUF_INIT;
	int64_t seq = INT64_MIN;

	strbuf_addf(&key, "%s\n%s", repo, sha);
	strmap_get(index, key.buf, &seq);
	strbuf_release(&key);
	return seq;
}

/* Each inherited failure to its span; every test red on main once into red_on_main. */
static void attach_inherited(struct metrics *m, const struct main_run *runs, size_t nr)
{
	struct strmap index = STRMAP_INIT;

	index_runs(runs, nr, &index);
	for (size_t i = 0; i < m->nr_pair_notes; i++) {
		const struct metrics_pair_note *n = &m->pair_notes[i];
		const struct metrics_row *r = &m->rows[n->row];
		int64_t seq = n->inherited.nr ? seq_of(&index, r->repo, n->main_sha) : INT64_MIN;

		m->latent_pairs += n->latent.nr > 0;
		m->latent_tests += (int64_t)n->latent.nr;
		for (size_t k = 0; k < n->inherited.nr; k++) {
			long sp = find_span(m, r->repo, n->inherited.items[k], seq);

			strlist_push(&m->red_on_main, n->inherited.items[k]);
			if (sp < 0)
				continue;
			m->red_spans[sp].inherited_pairs++;
			if (r->has_pr)
				int_vec_push(&m->red_spans[sp].prs, r->pr);
		}
	}
	strmap_clear(&index);
	strlist_uniq(&m->red_on_main);
	for (size_t i = 0; i < m->nr_red_spans; i++)
		int_vec_sort_unique(&m->red_spans[i].prs);
}

/* The latest escape of the window at or before the span whose missed tests include it. */
static void attach_escapes(struct metrics *m)
{
	for (size_t i = 0; i < m->nr_red_spans; i++) {
		struct metrics_red_span *sp = &m->red_spans[i];

		for (size_t k = m->nr_escape_list; k-- > 0;) {
			const struct metrics_escape *e = &m->escape_list[k];
			const struct metrics_row *r = &m->rows[e->row];

			if (r->at <= sp->red_at && !strcmp(r->repo, sp->repo) &&
			    strlist_sorted_has(&e->missed, sp->test)) {
				sp->escape = (long)k;
				break;
			}
		}
	}
}

int metrics_main_record(struct store *s, const struct window *w, struct metrics *m)
{
	struct main_run *runs = NULL;
	size_t nr = 0;
	int ret = query_main_runs(s, w->repo && *w->repo ? w->repo : NULL, w->until, &runs, &nr);

	if (!ret) {
		build_spans(m, runs, nr);
		keep_in_window(m, w);
		attach_inherited(m, runs, nr);
		attach_escapes(m);
	}
	main_runs_release(runs, nr);
	return ret;
}

void metrics_main_release(struct metrics *m)
{
	for (size_t i = 0; i < m->nr_red_spans; i++) {
		free(m->red_spans[i].test);
		free(m->red_spans[i].repo);
		int_vec_release(&m->red_spans[i].prs);
	}
	for (size_t i = 0; i < m->nr_pair_notes; i++) {
		strlist_release(&m->pair_notes[i].inherited);
		strlist_release(&m->pair_notes[i].latent);
	}
	free(m->red_spans);
	free(m->pair_notes);
	strlist_release(&m->red_on_main);
}

/* ---- in report's formats ---- */

static const struct metrics_row *span_escape_row(const struct metrics *m,
						 const struct metrics_red_span *sp)
{
	return sp->escape < 0 ? NULL : &m->rows[m->escape_list[sp->escape].row];
}

static cJSON *json_span(const struct metrics *m, const struct metrics_red_span *sp)
{
	const struct metrics_row *e = span_escape_row(m, sp);
	cJSON *o = cJSON_CreateObject(), *prs = cJSON_AddArrayToObject(o, "prs");

	json_add_string(o, "repo", sp->repo);
	json_add_string(o, "test", sp->test);
	json_add_string(o, "red_head", sp->red_sha);
	json_add_time(o, "red_at", sp->red_at);
	json_add_string_or_null(o, "green_head", sp->green_sha[0] ? sp->green_sha : NULL);
	if (sp->green_sha[0])
		json_add_time(o, "green_at", sp->green_at);
	else
		cJSON_AddNullToObject(o, "green_at");
	json_add_number(o, "minutes", sp->minutes);
	json_add_int(o, "runs", sp->runs);
	json_add_int(o, "inherited_pairs", sp->inherited_pairs);
	for (size_t i = 0; i < sp->prs.nr; i++)
		cJSON_AddItemToArray(prs, cJSON_CreateNumber((double)sp->prs.v[i]));
	json_add_opt_int(o, "escape_pr", e && e->has_pr, e ? e->pr : 0);
	json_add_string_or_null(o, "escape_head", e ? e->sha : NULL);
	return o;
}

static cJSON *json_latent(const struct metrics *m)
{
	cJSON *o = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(o, "list");

	json_add_int(o, "pairs", m->latent_pairs);
	json_add_int(o, "tests", m->latent_tests);
	for (size_t i = 0; i < m->nr_pair_notes; i++) {
		const struct metrics_pair_note *n = &m->pair_notes[i];
		const struct metrics_row *r = &m->rows[n->row];
		cJSON *p, *tests;

		if (!n->latent.nr)
			continue;
		p = cJSON_CreateObject();
		json_add_opt_int(p, "pr", r->has_pr, r->pr);
		json_add_string(p, "head", r->sha);
		tests = cJSON_AddArrayToObject(p, "tests");
		for (size_t k = 0; k < n->latent.nr; k++)
			json_push_string(tests, n->latent.items[k]);
		cJSON_AddItemToArray(list, p);
	}
	return o;
}

void mainrec_json(cJSON *root, const struct metrics *m)
{
	cJSON *o = cJSON_CreateObject(), *red = cJSON_AddArrayToObject(o, "red_tests");
	cJSON *spans;

	json_add_int(o, "runs", m->main_runs);
	json_add_int(o, "inherited_pairs", m->class_counts[CLASS_INHERITED]);
	for (size_t i = 0; i < m->red_on_main.nr; i++)
		json_push_string(red, m->red_on_main.items[i]);
	json_add_int(o, "escapes_base_unrun", m->escapes_base_unrun);
	json_add_number(o, "red_minutes_mean", m->red_minutes_mean);
	spans = cJSON_AddArrayToObject(o, "red_spans");
	for (size_t i = 0; i < m->nr_red_spans; i++)
		cJSON_AddItemToArray(spans, json_span(m, &m->red_spans[i]));
	cJSON_AddItemToObject(root, "main", o);
	cJSON_AddItemToObject(root, "latent_misses", json_latent(m));
}

static const char *plural(int64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* One line of text, or a markdown list item. */
static void line_start(struct metrics_out *o)
{
	strbuf_addstr(&o->sb, o->md ? "- " : "  ");
}

static void text_span(struct metrics_out *o, const struct metrics *m,
		      const struct metrics_red_span *sp)
{
	const struct metrics_row *e = span_escape_row(m, sp);
	struct strbuf *sb = &o->sb;

	line_start(o);
	metrics_put_text(o, sp->test);
	strbuf_addf(sb, ": red from %.12s (", sp->red_sha);
	time_format(sb, sp->red_at);
	if (sp->green_sha[0]) {
		strbuf_addf(sb, ") to %.12s (", sp->green_sha);
		time_format(sb, sp->green_at);
		strbuf_addf(sb, "), %.0f min", sp->minutes);
	} else {
		strbuf_addstr(sb, "), still red");
	}
	strbuf_addf(sb, "; %" PRId64 " %s inherited it", sp->inherited_pairs,
		    plural(sp->inherited_pairs, "pair", "pairs"));
	for (size_t i = 0; i < sp->prs.nr; i++)
		strbuf_addf(sb, "%s#%" PRId64, i ? ", " : " (", sp->prs.v[i]);
	if (sp->prs.nr)
		strbuf_addch(sb, ')');
	if (e) {
		strbuf_addstr(sb, "; likely from ");
		metrics_fmt_change(sb, e);
	}
	strbuf_addch(sb, '\n');
}

void mainrec_text(struct metrics_out *o, const struct metrics *m)
{
	struct strbuf *sb = &o->sb;

	if (o->md)
		strbuf_addstr(sb, "\n## Main's record\n\n");
	else
		strbuf_addf(sb, "%-13s", "Main");
	if (o->md)
		line_start(o);
	strbuf_addf(sb, "%" PRId64 " %s of main; %" PRId64 " %s failed only on tests red "
		    "on main (%zu %s), outside the escape rate\n", m->main_runs,
		    plural(m->main_runs, "run", "runs"), m->class_counts[CLASS_INHERITED],
		    plural(m->class_counts[CLASS_INHERITED], "pair", "pairs"),
		    m->red_on_main.nr, m->red_on_main.nr == 1 ? "test" : "tests");
	if (m->escapes_base_unrun) {
		line_start(o);
		strbuf_addf(sb, "%" PRId64 " of %" PRId64 " escapes rest on a base no run of "
			    "main covers: record main's post-merge runs (tiadash record, no PR)\n",
			    m->escapes_base_unrun, m->escapes);
	}
	for (size_t i = 0; i < m->nr_red_spans; i++)
		text_span(o, m, &m->red_spans[i]);
	if (!m->latent_pairs)
		return;
	line_start(o);
	strbuf_addf(sb, "latent misses: %" PRId64 " %s failed in both runs and the full run "
		    "also failed %" PRId64 " unselected %s (not escapes)\n", m->latent_pairs,
		    plural(m->latent_pairs, "pair", "pairs"), m->latent_tests,
		    plural(m->latent_tests, "test", "tests"));
	for (size_t i = 0; i < m->nr_pair_notes; i++) {
		const struct metrics_pair_note *n = &m->pair_notes[i];

		for (size_t k = 0; k < n->latent.nr; k++) {
			strbuf_addstr(sb, o->md ? "  - " : "    ");
			metrics_fmt_change(sb, &m->rows[n->row]);
			strbuf_addch(sb, ' ');
			metrics_put_text(o, n->latent.items[k]);
			strbuf_addch(sb, '\n');
		}
	}
}
