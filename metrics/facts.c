/* A pair's facts for the metrics pass: made from its verdict, kept as a pair cache blob, read back. */
#include "core/tiadash.h"
#include "core/blob.h"
#include "core/digest.h"
#include "metrics/facts.h"

/* Change it with the blob's layout or with what a class means: facts of another are made again. */
#define FACTS_FORMAT "tiadash pair facts 7"

int64_t pair_facts_key(const struct idmap *map, const char *class_stamp)
{
	struct digest d;
	char hex[33];

	digest_init(&d);
	digest_add(&d, FACTS_FORMAT, strlen(FACTS_FORMAT));
	digest_boundary(&d);
	idmap_fingerprint(map, hex);
	digest_add(&d, hex, strlen(hex));
	digest_boundary(&d);
	digest_add(&d, class_stamp, strlen(class_stamp));
	digest_hex(&d, hex);
	hex[16] = '\0';
	return (int64_t)strtoull(hex, NULL, 16);
}

static void move_list(struct strlist *dst, struct strlist *src)
{
	strlist_release(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

void pair_facts_of(const struct pair_info *p, struct pair_verdict *v, struct pair_facts *out)
{
	const struct run_info *sh = v->shadow, *fu = v->full;

	out->head_id = p->head_id;
	out->at = p->at;
	out->repo = p->repo ? p->repo : "";
	memcpy(out->sha, p->sha, sizeof(out->sha));
	out->has_pr = p->has_pr;
	out->pr = p->pr;
	out->cls = v->cls;
	free(out->why);
	out->why = v->why ? xstrdup(v->why) : NULL;
	out->shadow_attempts = (int)pair_count(p, RUN_SHADOW);
	out->full_attempts = (int)pair_count(p, RUN_FULL);
	out->decision = sh ? sh->decision : DECISION_NONE;
	out->affected = run_affected_fraction(sh);
	out->shadow_wall_s = sh ? sh->wall_clock_s : NAN;
	out->full_wall_s = fu ? fu->wall_clock_s : NAN;
	out->diff_coverage = run_diff_coverage(sh);
	out->quarantined = (int64_t)v->quarantined.nr;
	out->flaky = (int64_t)v->flaky.nr;
	out->failing = v->failing;
	out->resolved = v->resolved;
	out->by_name = v->by_name;
	out->has_entries = sh && sh->decision == DECISION_SELECTED && sh->has_entry_counts;
	out->has_unmatched = out->has_entries && sh->has_unmatched;
	out->entries_total = out->has_entries ? sh->entries_total : 0;
	out->entries_unresolved = out->has_entries ? sh->entries_unresolved : 0;
	out->entries_unmatched = !out->has_unmatched ? 0 : v->entries_unmatched >= 0 ?
				v->entries_unmatched : sh->entries_unmatched;
	strlist_release(&out->reasons);
	for (size_t i = 0; sh && sh->decision == DECISION_RUN_ALL && i < sh->reasons.nr; i++)
		strlist_push(&out->reasons, sh->reasons.items[i]);
	move_list(&out->unresolved, &v->unresolved);
	move_list(&out->missed, &v->missed);
	move_list(&out->non_hermetic, &v->non_hermetic);
	move_list(&out->not_run, &v->not_run);
	move_list(&out->inherited, &v->inherited);
	move_list(&out->latent, &v->latent);
	memcpy(out->main_sha, v->cover.sha, sizeof(out->main_sha));
	out->base_unrun = pair_class_is_escape(v->cls) && !v->cover.run_id;
}

/* ---- the blob ---- */

enum { HAS_PR = 1, HAS_WHY = 2, HAS_ENTRIES = 4, HAS_UNMATCHED = 8, BASE_UNRUN = 16 };
#define FACT_INTS 11

static void put_list(struct strbuf *out, const struct strlist *l)
{
	blob_put_u(out, l->nr);
	for (size_t i = 0; i < l->nr; i++)
		blob_put_str(out, l->items[i]);
}

void pair_facts_encode(const struct pair_facts *f, struct strbuf *out)
{
	unsigned flags = (f->has_pr ? HAS_PR : 0) | (f->why ? HAS_WHY : 0) |
			 (f->has_entries ? HAS_ENTRIES : 0) | (f->has_unmatched ? HAS_UNMATCHED : 0) |
			 (f->base_unrun ? BASE_UNRUN : 0);
	const int64_t v[] = {
		flags, f->pr, f->cls, f->shadow_attempts, f->full_attempts, f->decision,
		f->quarantined, f->flaky, f->failing, f->resolved, f->by_name,
	};
	_Static_assert(sizeof(v) / sizeof(v[0]) == FACT_INTS, "pair_facts_decode reads FACT_INTS");

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		blob_put_i(out, v[i]);
	if (f->has_entries) {
		blob_put_i(out, f->entries_total);
		blob_put_i(out, f->entries_unresolved);
		blob_put_i(out, f->entries_unmatched);
	}
	blob_put_double(out, f->affected);
	blob_put_double(out, f->shadow_wall_s);
	blob_put_double(out, f->full_wall_s);
	blob_put_double(out, f->diff_coverage);
	blob_put_str(out, f->sha);
	if (f->why)
		blob_put_str(out, f->why);
	put_list(out, &f->reasons);
	put_list(out, &f->unresolved);
	put_list(out, &f->missed);
	put_list(out, &f->non_hermetic);
	put_list(out, &f->not_run);
	put_list(out, &f->inherited);
	put_list(out, &f->latent);
	if (f->inherited.nr)
		blob_put_str(out, f->main_sha);
}

/* A list of the blob into l (emptied first); a count beyond the blob's bytes is corrupt. */
static void get_list(struct blob_reader *rd, struct strlist *l)
{
	uint64_t n = blob_get_u(rd);

	strlist_release(l);
	if (n > (uint64_t)(rd->end - rd->p)) {
		rd->bad = true;
		return;
	}
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		char *s = blob_get_str(rd);

		if (s)
			strlist_push_owned(l, s);
	}
}

int pair_facts_decode(const struct pair_fact_row *row, struct pair_facts *out)
{
	struct blob_reader rd = BLOB_READER(row->data, row->len);
	int64_t v[FACT_INTS], e[3] = { 0, 0, 0 };

	blob_get_ints(&rd, v, FACT_INTS);
	out->head_id = row->head_id;
	out->at = row->at;
	out->repo = row->repo;
	out->has_pr = v[0] & HAS_PR;
	out->has_entries = v[0] & HAS_ENTRIES;
	out->has_unmatched = v[0] & HAS_UNMATCHED;
	out->base_unrun = v[0] & BASE_UNRUN;
	out->pr = v[1];
	out->cls = (enum pair_class)blob_enum(&rd, v[2], NR_CLASSES);
	out->shadow_attempts = (int)v[3];
	out->full_attempts = (int)v[4];
	out->decision = (enum decision)blob_enum(&rd, v[5], DECISION_NOTHING + 1);
	out->quarantined = v[6];
	out->flaky = v[7];
	out->failing = v[8];
	out->resolved = v[9];
	out->by_name = v[10];
	if (out->has_entries)
		blob_get_ints(&rd, e, 3);
	out->entries_total = e[0];
	out->entries_unresolved = e[1];
	out->entries_unmatched = e[2];
	out->affected = blob_get_double(&rd);
	out->shadow_wall_s = blob_get_double(&rd);
	out->full_wall_s = blob_get_double(&rd);
	out->diff_coverage = blob_get_double(&rd);
	blob_get_sha(&rd, out->sha);
	free(out->why);
	out->why = v[0] & HAS_WHY ? blob_get_str(&rd) : NULL;
	get_list(&rd, &out->reasons);
	get_list(&rd, &out->unresolved);
	get_list(&rd, &out->missed);
	get_list(&rd, &out->non_hermetic);
	get_list(&rd, &out->not_run);
	get_list(&rd, &out->inherited);
	get_list(&rd, &out->latent);
	out->main_sha[0] = '\0';
	if (out->inherited.nr)
		blob_get_sha(&rd, out->main_sha);
	return blob_done(&rd) ? 0 : -1;
}

void pair_facts_release(struct pair_facts *f)
{
	free(f->why);
	strlist_release(&f->reasons);
	strlist_release(&f->unresolved);
	strlist_release(&f->missed);
	strlist_release(&f->non_hermetic);
	strlist_release(&f->not_run);
	strlist_release(&f->inherited);
	strlist_release(&f->latent);
	memset(f, 0, sizeof(*f));
}
