/*
 * One run from its inputs: parse results, lists, selection and coverage,
 * read the three-dot diff, map coverage onto the changed lines, and hand
 * the result to the writer in one transaction.
 */
#include "core/tiadash.h"
#include "core/idmatch.h"
#include "core/paircache.h"
#include "core/rekey.h"
#include "core/sanitize.h"
#include "core/timeutil.h"
#include "ingest/coverage.h"
#include "ingest/ingest.h"
#include "ingest/junit.h"
#include "ingest/lists.h"
#include "adapters/adapter.h"
#include "ingest/run_data.h"

#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

void run_source_init(struct run_source *rs)
{
	memset(rs, 0, sizeof(*rs));
	manifest_init(&rs->m);
	rs->head_bytes = (struct strbuf)STRBUF_INIT;
}

void run_source_set_head(struct run_source *rs, const char *bytes, size_t len)
{
	strbuf_reset(&rs->head_bytes);
	strbuf_add(&rs->head_bytes, bytes, len);
}

static void release_inputs(struct input *ins, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		input_release(&ins[i]);
	free(ins);
}

void run_source_release(struct run_source *rs)
{
	free(rs->uri);
	strbuf_release(&rs->head_bytes);
	manifest_release(&rs->m);
	release_inputs(rs->results, rs->nr_results);
	free(rs->result_refs);
	release_inputs(rs->coverage, rs->nr_coverage);
	input_release(&rs->selected_file);
	input_release(&rs->engine_file);
	input_release(&rs->quarantine);
	input_release(&rs->failed_file);
	memset(rs, 0, sizeof(*rs));
}

static void push_input(struct input **arr, size_t *nr, struct input *in)
{
	*arr = xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = *in;
	memset(in, 0, sizeof(*in));
}

void run_source_add_result(struct run_source *rs, struct input *in)
{
	push_input(&rs->results, &rs->nr_results, in);
}

void run_source_add_coverage(struct run_source *rs, struct input *in)
{
	push_input(&rs->coverage, &rs->nr_coverage, in);
}

/* What a manifest's references are resolved against on disk. */
struct disk_refs {
	const char *uri;  /* the manifest, for messages */
	const char *dir;  /* its folder, as named */
	char *root;       /* the same, resolved: no reference may leave it */
};

/*
 * A name without a slash that is not a symbolic link resolves to root's
 * own child: one lstat, not realpath's readlink of every component (a
 * thousand small runs name two files each).
 */
static bool plain_name_inside(const char *path, const char *ref, const char *root,
			      char **real)
{
	struct stat st;

	if (!*ref || strchr(ref, '/') || !strcmp(ref, ".") || !strcmp(ref, "..") ||
	    lstat(path, &st) < 0 || S_ISLNK(st.st_mode))
		return false;
	*real = path_join(root, ref);
	return true;
}

/*
 * A reference on disk: `..` and absolute paths are refused by the manifest
 * parser; a symbolic link anywhere along the way that leads out of the
 * manifest's folder is refused here. The input reads the resolved path
 * without following links, so the check cannot be raced at the last step.
 */
static int open_ref(struct input *in, const char *ref, void *data)
{
	struct disk_refs *dr = data;
	char *path = path_join(dr->dir, ref), *real;
	int rc = !dr->root ? -1 : plain_name_inside(path, ref, dr->root, &real) ? 0 :
		 path_resolve_inside(path, dr->root, &real);

	if (rc == 1) {
		error("%s: '%s' leads to '%s', outside the manifest's folder '%s' "
		      "(a symbolic link?): refused", dr->uri, ref, real, dr->root);
		free(real);
		free(path);
		return -1;
	}
	input_from_file(in, path);
	if (rc == 0) {
		free(in->path);
		in->path = real;
		in->no_follow = true;
	}
	free(path);
	return 0;
}

/* The same file named again in one list: what identifies it. */
static const char *input_key(const struct input *in)
{
	return in->path ? in->path : in->name;
}

/*
 * Open a list's references; a file named more than once (five `results`
 * naming one report, or `a.xml` and `./a.xml`) is read and counted once,
 * with one warning for it.
 */
static int open_list(struct run_source *rs, const struct strlist *refs, const char *key,
		     run_ref_fn fn, void *data, struct input **arr, size_t *nr,
		     size_t **from)
{
	struct strmap seen = { 0 };
	size_t *times = xcalloc(refs->nr + 1, sizeof(*times));
	size_t *first = xcalloc(refs->nr + 1, sizeof(*first));
	size_t start = *nr;
	int ret = 0;

	for (size_t i = 0; i < refs->nr; i++) {
		struct input in;
		struct strmap_entry *e;
		bool added;

		if (fn(&in, refs->items[i], data) < 0) {
			ret = -1;
			break;
		}
		e = strmap_intern(&seen, input_key(&in), strlen(input_key(&in)),
				  (int64_t)(*nr - start), &added);
		if (added) {
			first[*nr - start] = i;
			times[*nr - start] = 1;
			if (from) {
				*from = xrealloc(*from, (*nr + 1) * sizeof(**from));
				(*from)[*nr] = i;
			}
			push_input(arr, nr, &in);
		} else {
			times[e->value]++;
			input_release(&in);
		}
	}
	for (size_t k = 0; !ret && k < *nr - start; k++)
		if (times[k] > 1)
			warning("%s: '%s' names '%s' %zu times: read once", rs->uri, key,
				refs->items[first[k]], times[k]);
	strmap_clear(&seen);
	free(times);
	free(first);
	return ret;
}

int run_source_open_refs_with(struct run_source *rs, run_ref_fn fn, void *data)
{
	struct manifest *m = &rs->m;

	if (open_list(rs, &m->results, "results", fn, data, &rs->results,
		      &rs->nr_results, &rs->result_refs) < 0 ||
	    open_list(rs, &m->coverage, "coverage", fn, data, &rs->coverage,
		      &rs->nr_coverage, NULL) < 0)
		return -1;
	if (m->sel.selected_file) {
		if (fn(&rs->selected_file, m->sel.selected_file, data) < 0)
			return -1;
		rs->has_selected_file = true;
	}
	if (m->sel.engine_file) {
		if (fn(&rs->engine_file, m->sel.engine_file, data) < 0)
			return -1;
		rs->has_engine_file = true;
	}
	if (m->quarantine) {
		if (fn(&rs->quarantine, m->quarantine, data) < 0)
			return -1;
		rs->has_quarantine = true;
	}
	return 0;
}

int run_source_open_refs(struct run_source *rs, const char *base, const char *real_base)
{
	struct disk_refs dr = { rs->uri, base,
				real_base ? xstrdup(real_base) : realpath(base, NULL) };
	int ret = run_source_open_refs_with(rs, open_ref, &dr);

	free(dr.root);
	return ret;
}

/* Every input of a source, in a fixed order (the digest depends on it). */
static size_t source_inputs(struct run_source *rs, struct input **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->nr_results && n < max; i++)
		out[n++] = &rs->results[i];
	for (size_t i = 0; i < rs->nr_coverage && n < max; i++)
		out[n++] = &rs->coverage[i];
	if (rs->has_selected_file && n < max)
		out[n++] = &rs->selected_file;
	if (rs->has_engine_file && n < max)
		out[n++] = &rs->engine_file;
	if (rs->has_quarantine && n < max)
		out[n++] = &rs->quarantine;
	if (rs->has_failed_file && n < max)
		out[n++] = &rs->failed_file;
	return n;
}

static size_t count_inputs(const struct run_source *rs)
{
	return rs->nr_results + rs->nr_coverage + rs->has_selected_file +
	       rs->has_engine_file + rs->has_quarantine + rs->has_failed_file;
}

struct input **run_source_list_inputs(struct run_source *rs, size_t *nr)
{
	size_t n = count_inputs(rs);
	struct input **ins = xmalloc((n ? n : 1) * sizeof(*ins));

	*nr = source_inputs(rs, ins, n);
	return ins;
}

static int skip_chunk(const char *buf, size_t len, bool last, void *data)
{
	UNUSED(buf), UNUSED(len), UNUSED(last), UNUSED(data);
	return 0;
}

/*
 * The source's digest: its manifest bytes, then each input's digest in a
 * fixed order (parsers read inputs in their own order).
 */
static void source_digest(struct run_source *rs, char hex[33])
{
	size_t n = count_inputs(rs);
	struct input **ins = xmalloc((n ? n : 1) * sizeof(*ins));
	struct digest d;

	digest_init(&d);
	digest_add(&d, rs->head_bytes.buf, rs->head_bytes.len);
	digest_boundary(&d);
	source_inputs(rs, ins, n);
	for (size_t i = 0; i < n; i++) {
		char part[33];

		digest_hex(&ins[i]->digest, part);
		digest_add(&d, part, 32);
	}
	free(ins);
	digest_hex(&d, hex);
}

/* Digest every input without parsing (to recognise an unchanged source). */
static int digest_only(struct run_source *rs, char hex[33])
{
	size_t n = count_inputs(rs);
	struct input **ins = xmalloc((n ? n : 1) * sizeof(*ins));
	int ret = 0;

	source_inputs(rs, ins, n);
	for (size_t i = 0; i < n && !ret; i++)
		ret = input_read_chunks(ins[i], skip_chunk, NULL);
	free(ins);
	source_digest(rs, hex);
	return ret;
}

void run_data_init(struct run_data *d)
{
	memset(d, 0, sizeof(*d));
	d->entries_blob = (struct strbuf)STRBUF_INIT;
	d->keys_blob = (struct strbuf)STRBUF_INIT;
	d->unmatched_blob = (struct strbuf)STRBUF_INIT;
	d->ran_broad_blob = (struct strbuf)STRBUF_INIT;
	d->skipped_named_blob = (struct strbuf)STRBUF_INIT;
	testset_init(&d->tests);
}

static void tally_release(struct identity_tally *t)
{
	free(t->example);
}

void run_data_release(struct run_data *d)
{
	strmap_clear(&d->failures);
	strmap_clear(&d->detail_index);
	for (size_t i = 0; i < d->nr_details; i++)
		free(d->details[i].excerpt);
	free(d->details);
	testset_release(&d->tests);
	for (size_t i = 0; i < d->nr_rows; i++)
		free(d->rows[i].raw);
	free(d->rows);
	tally_release(&d->failing_ids);
	tally_release(&d->entry_ids);
	tally_release(&d->quarantine_ids);
	for (size_t i = 0; d->quarantine_at && i < d->quarantine.nr; i++)
		free(d->quarantine_at[i].key);
	free(d->quarantine_at);
	strlist_release(&d->entries);
	strbuf_release(&d->entries_blob);
	keyed_entries_release(&d->keyed);
	free(d->entry_keyed);
	strbuf_release(&d->keys_blob);
	strbuf_release(&d->unmatched_blob);
	strlist_release(&d->ran_broad);
	strbuf_release(&d->ran_broad_blob);
	strlist_release(&d->skipped_named);
	strbuf_release(&d->skipped_named_blob);
	strlist_release(&d->reasons);
	strlist_release(&d->quarantine);
	strlist_release(&d->declared);
	for (size_t i = 0; i < d->diff.nr && d->executable; i++) {
		lineset_release(&d->executable[i]);
		lineset_release(&d->executed[i]);
	}
	repo_diff_release(&d->diff);
	free(d->executable);
	free(d->executed);
	free(d->cov_seen);
	free(d->old_digest);
	free(d->old_uri);
	memset(d, 0, sizeof(*d));
}

enum outcome fail_row_outcome(const struct fail_row *f)
{
	return f->failed ? OUTCOME_FAILED : f->errors ? OUTCOME_ERROR : OUTCOME_FLAKY;
}

int64_t fail_row_cases(const struct fail_row *f)
{
	return f->failed + f->errors ? f->failed + f->errors : f->flaky;
}

static void tally(struct identity_tally *t, const char *name, enum id_state state)
{
	t->total++;
	if (id_state_joined(state))
		return;
	t->unresolved++;
	if (!t->example) {
		t->example = xstrdup(name);
		t->example_state = state;
	}
}

static void key_of(struct strbuf *key, const char *suite, const char *name)
{
	strbuf_reset(key);
	strbuf_addstr(key, suite);
	strbuf_addch(key, '\0');
	strbuf_addstr(key, name);
}

/* The row of SUITE::CASE (key_of form), a new one when there is none. */
static struct fail_row *row_for(struct run_data *d, const struct strbuf *key,
				enum id_state state, bool *added)
{
	struct strmap_entry *e = strmap_intern(&d->failures, key->buf, key->len,
					       (int64_t)d->nr_rows, added);

	if (*added) {
		ALLOC_GROW(d->rows, d->nr_rows + 1, d->alloc_rows);
		memset(&d->rows[d->nr_rows], 0, sizeof(*d->rows));
		d->rows[d->nr_rows++].state = state;
	}
	return &d->rows[e->value];
}

/* Keep raw's names on a new row (NULL: an id-map cannot change its key). */
static void keep_raw(struct fail_row *f, const struct raw_name *raw)
{
	struct strbuf sb = STRBUF_INIT;

	if (!raw)
		return;
	raw_name_encode(raw, &sb);
	f->raw_len = sb.len;
	f->raw = strbuf_detach(&sb, NULL);
}

/*
 * A non-passing case: every case counts, repeated ids included (SPEC 3.3).
 * raw: its names, when an id-map could key it otherwise (else NULL).
 */
static void add_failure(struct run_data *d, const struct strbuf *key, enum id_state state,
			enum junit_outcome o, const struct raw_name *raw)
{
	bool added;
	struct fail_row *f = row_for(d, key, state, &added);

	if (added)
		keep_raw(f, raw);
	f->failed += o == JUNIT_FAILED;
	f->errors += o == JUNIT_ERROR;
	f->flaky += o == JUNIT_FLAKY;
}

/*
 * The resolved name of the case being read. Consecutive cases mostly share
 * a suite, so the last answer is kept.
 */
struct case_names {
	struct strbuf file, classname, suite_key; /* what the last answer was for */
	struct strbuf suite, cls, name, key;
	const char *suite_name, *case_name; /* as stored: into suite and name, or the case's */
	enum id_state state;
	bool rewrites; /* identity_rewrites(): names may change */
	bool valid;
	/* Entry matching (run_data.has_unmatched): the entries, and which select a test. */
	struct idset entries;
	const char **entry_at; /* index -> the entry (borrowed from run_data.entries) */
	bool *hit;
	bool named; /* match_entries: an entry names the last case by its id */
	struct raw_name raw; /* the failing case's names (junit_raw) */
};

static bool same(const struct strbuf *sb, const char *s)
{
	return !strcmp(sb->buf, s);
}

/*
 * Name the case (cn->suite_name, cn->case_name, cn->state); true when its
 * suite is not the last case's.
 */
static bool name_case(struct run_data *d, struct case_names *cn, const struct junit_case *c,
		      bool failing)
{
	bool fresh;

	if (!cn->rewrites) {
		/*
		 * Names stay as written: JUnit's own choice of key, copied only
		 * when the suite changes (c->suite is the parser's buffer, which
		 * the next case may move); the state only when a failure is
		 * stored under it.
		 */
		fresh = !cn->valid || !same(&cn->suite, c->suite);
		if (fresh) {
			strbuf_reset(&cn->suite);
			strbuf_addstr(&cn->suite, c->suite);
		}
		cn->suite_name = cn->suite.buf;
		cn->valid = true;
		strbuf_reset(&cn->cls);
		if (*c->file && *c->classname)
			identity_class_part(c->file, c->classname, &cn->cls);
		if (failing)
			cn->state = identity_junit_case(d->ids, c->file, c->classname,
							c->suite_key, NULL, &cn->cls);
	} else {
		fresh = !cn->valid || !same(&cn->file, c->file) ||
			!same(&cn->classname, c->classname) || !same(&cn->suite_key, c->suite_key);
		if (fresh) {
			cn->state = identity_junit_case(d->ids, c->file, c->classname,
							c->suite_key, &cn->suite, &cn->cls);
			/* Most reports name one suite for many cases: remember what this was for. */
			strbuf_reset(&cn->file);
			strbuf_addstr(&cn->file, c->file);
			strbuf_reset(&cn->classname);
			strbuf_addstr(&cn->classname, c->classname);
			strbuf_reset(&cn->suite_key);
			strbuf_addstr(&cn->suite_key, c->suite_key);
			cn->valid = true;
		}
		cn->suite_name = cn->suite.buf;
	}
	cn->case_name = c->name;
	if (cn->cls.len) {
		strbuf_reset(&cn->name);
		strbuf_add(&cn->name, cn->cls.buf, cn->cls.len);
		strbuf_add(&cn->name, "::", 2);
		strbuf_addstr(&cn->name, c->name);
		cn->case_name = cn->name.buf;
	}
	return fresh;
}

static bool mark_hit(int64_t index, void *data)
{
	((bool *)data)[index] = true;
	return false;
}

static bool mark_named(int64_t index, void *data)
{
	struct case_names *cn = data;

	cn->hit[index] = cn->named = true;
	return false;
}

/*
 * Which entries select this case; the suite-wide ones when the suite
 * changes. cn->named: an entry names the case by its id.
 */
static void match_entries(struct case_names *cn, bool new_suite)
{
	if (new_suite)
		idset_suite_matches(&cn->entries, cn->suite_name, mark_hit, cn->hit);
	cn->named = false;
	idset_id_matches(&cn->entries, cn->suite_name, cn->case_name, mark_named, cn);
	idset_class_matches(&cn->entries, cn->suite_name, cn->case_name, mark_hit, cn->hit);
}

/*
 * What the case tells of what ran, while the lists fit: one that ran and
 * that no entry names by id onto d->ran_broad, one an entry names by id
 * that was skipped onto d->skipped_named. (One an entry names that ran:
 * the entry's match says so.)
 */
static void keep_ran(struct run_data *d, const struct case_names *cn, bool skipped)
{
	struct strlist *l = cn->named ? &d->skipped_named : &d->ran_broad;
	struct strbuf id = STRBUF_INIT;

	if (!d->ran_broad_kept || cn->named != skipped)
		return;
	test_id_format(&id, cn->suite_name, cn->case_name);
	d->ran_broad_bytes += id.len + 1;
	if (d->ran_broad_bytes > TESTSET_MAX_BYTES) {
		d->ran_broad_kept = false;
		strlist_release(&d->ran_broad);
		strlist_release(&d->skipped_named);
	} else {
		strlist_push(l, id.buf);
	}
	strbuf_release(&id);
}

/* The first failure of a case (key_of form): its digest and excerpt (the verifier check). */
static void add_detail(struct run_data *d, const struct strbuf *key, const struct junit_case *c)
{
	struct failure_detail *fd;
	bool added;

	strmap_intern(&d->detail_index, key->buf, key->len, (int64_t)d->nr_details, &added);
	if (!added)
		return;
	ALLOC_GROW(d->details, d->nr_details + 1, d->alloc_details);
	fd = &d->details[d->nr_details++];
	failure_digest(c->message, c->text, fd->digest);
	/* A report failing everywhere keeps its digests, not megabytes of text. */
	fd->excerpt = NULL;
	if (d->excerpt_bytes < FAILURE_EXCERPT_BUDGET) {
		fd->excerpt = failure_excerpt(c->message, c->text);
		d->excerpt_bytes += strlen(fd->excerpt);
	}
}

struct case_ctx {
	struct run_data *d;
	struct case_names names;
};

/* A failing case's names, unless its key is beyond any id-map (NULL). */
static const struct raw_name *junit_raw(struct run_data *d, const struct junit_case *c,
					struct raw_name *out)
{
	if (identity_junit_fixed(d->ids, c->file, c->classname, c->suite_key))
		return NULL;
	*out = (struct raw_name){ .kind = RAW_JUNIT, .tree = identity_has_tree(d->ids),
				  .workdir = d->workdir, .file = c->file,
				  .classname = c->classname, .suite_key = c->suite_key,
				  .name = c->name };
	return out;
}

static int on_case(const struct junit_case *c, void *data)
{
	struct case_ctx *cc = data;
	struct run_data *d = cc->d;
	bool failing = c->outcome == JUNIT_FAILED || c->outcome == JUNIT_ERROR ||
		       c->outcome == JUNIT_FLAKY, fresh;
	bool kept = d->keep_tests && c->outcome != JUNIT_SKIPPED;

	if (!failing && !d->has_unmatched && !kept && !c->message)
		return 0;
	fresh = name_case(d, &cc->names, c, failing);
	if (d->has_unmatched) {
		match_entries(&cc->names, fresh);
		keep_ran(d, &cc->names, c->outcome == JUNIT_SKIPPED);
	}
	if (kept)
		testset_add(&d->tests, cc->names.suite_name, cc->names.case_name);
	if (failing || c->message)
		key_of(&cc->names.key, cc->names.suite_name, cc->names.case_name);
	if (c->message)
		add_detail(d, &cc->names.key, c);
	if (failing)
		add_failure(d, &cc->names.key, cc->names.state, c->outcome,
			    junit_raw(d, c, &cc->names.raw));
	return 0;
}

static void case_ctx_init(struct case_ctx *cc, struct run_data *d)
{
	memset(cc, 0, sizeof(*cc));
	cc->d = d;
	cc->names = (struct case_names){ STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
					 STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, NULL, NULL,
					 ID_NOT_FOUND, false, false, IDSET_INIT, NULL, NULL, false,
					 { 0 } };
	cc->names.rewrites = identity_rewrites(d->ids, ID_MAP);
	if (!d->has_unmatched)
		return;
	idset_reserve_hashed(&cc->names.entries, d->entries.nr);
	cc->names.entry_at = xcalloc(d->entries.nr + 1, sizeof(*cc->names.entry_at));
	for (size_t i = 0; i < d->entries.nr; i++) {
		/* Matched as the figures will read it. */
		char *mapped = selection_entry_rewritten(d->idmap, d->entries.items[i],
							 keyed_entry_key(&d->keyed, d->entry_keyed[i]));
		int64_t at = idset_add_hashed(&cc->names.entries,
					      mapped ? mapped : d->entries.items[i]);

		free(mapped);
		if (at >= 0 && !cc->names.entry_at[at])
			cc->names.entry_at[at] = d->entries.items[i];
	}
	cc->names.hit = xcalloc(idset_size(&cc->names.entries) + 1, sizeof(bool));
}

/* The entries no case of the run matched: counted, and kept for the store. */
static void settle_unmatched(struct case_names *cn, struct run_data *d)
{
	struct strlist unmatched = STRLIST_INIT;

	for (size_t i = 0; i < idset_size(&cn->entries); i++) {
		if (cn->hit[i])
			continue;
		d->entries_unmatched++;
		strlist_push(&unmatched, cn->entry_at[i]);
	}
	store_strings_encode(&unmatched, &d->unmatched_blob);
	strlist_release(&unmatched);
	if (d->ran_broad_kept) {
		store_strings_encode(&d->ran_broad, &d->ran_broad_blob);
		store_strings_encode(&d->skipped_named, &d->skipped_named_blob);
	}
	strlist_release(&d->ran_broad);
	strlist_release(&d->skipped_named);
}

static void case_ctx_release(struct case_ctx *cc)
{
	struct case_names *cn = &cc->names;

	if (cc->d->has_unmatched)
		settle_unmatched(cn, cc->d);
	strbuf_release(&cn->file);
	strbuf_release(&cn->classname);
	strbuf_release(&cn->suite_key);
	strbuf_release(&cn->suite);
	strbuf_release(&cn->cls);
	strbuf_release(&cn->name);
	strbuf_release(&cn->key);
	idset_release(&cn->entries);
	free(cn->entry_at);
	free(cn->hit);
}

/* The directory the runner of results[i] ran in: its own, else the run's. */
static const char *result_workdir(const struct run_source *rs, size_t i)
{
	const char *own = rs->result_refs && rs->m.result_workdirs ?
			  rs->m.result_workdirs[rs->result_refs[i]] : NULL;

	return own ? own : rs->m.workdir;
}

static int parse_results(struct run_source *rs, struct run_data *d)
{
	struct case_ctx cc;
	int ret = 0;

	d->keep_tests = rs->m.kind == RUN_FULL && rs->nr_results > 0;
	/* A shadow run's own results say which entries named no test. */
	d->has_unmatched = rs->nr_results && d->decision == DECISION_SELECTED &&
			   d->entries.nr;
	d->ran_broad_kept = d->has_unmatched;
	case_ctx_init(&cc, d);
	for (size_t i = 0; i < rs->nr_results && !ret; i++) {
		const char *wd = result_workdir(rs, i);

		identity_use_workdir(d->ids, wd);
		d->workdir = wd;
		cc.names.valid = false;
		cc.names.rewrites = identity_rewrites(d->ids, ID_MAP);
		if (junit_parse(&rs->results[i], on_case, &cc, &d->stats) < 0)
			ret = -1;
	}
	identity_use_workdir(d->ids, rs->m.workdir);
	d->workdir = rs->m.workdir;
	case_ctx_release(&cc);
	if (!ret && d->tests.dropped)
		warning("%s: more test cases than a test list holds (%u MiB): the "
			"run keeps its failures, and the blind spots leave it out",
			rs->uri, TESTSET_MAX_BYTES >> 20);
	return ret;
}

/*
 * An explicit failed list replaces the failures the reports show; the
 * reports still say which of them errored, how many cases failed, and
 * which tests were flaky.
 */
static void apply_failed_list(struct run_data *d, const struct strlist *ids)
{
	struct strmap from_reports = d->failures;
	struct fail_row *rows = d->rows;
	size_t nr_rows = d->nr_rows;
	struct strbuf id = STRBUF_INIT, key = STRBUF_INIT, spaced = STRBUF_INIT;

	memset(&d->failures, 0, sizeof(d->failures));
	d->rows = NULL;
	d->nr_rows = d->alloc_rows = 0;
	for (size_t i = 0; i < from_reports.cap; i++) {
		struct strmap_entry *e = &from_reports.slots[i];
		bool added;

		if (e->key && fail_row_outcome(&rows[e->value]) == OUTCOME_FLAKY) {
			strbuf_reset(&key);
			strbuf_add(&key, e->key, e->keylen);
			*row_for(d, &key, rows[e->value].state, &added) = rows[e->value];
			rows[e->value].raw = NULL; /* moved with the row */
		}
	}
	for (size_t i = 0; i < ids->nr; i++) {
		struct raw_name raw = { .kind = RAW_LISTED, .tree = identity_has_tree(d->ids),
					.workdir = d->workdir, .id = ids->items[i] };
		char *suite, *name;
		enum id_state state;
		struct strmap_entry *e;
		struct fail_row *f;
		bool added;

		strbuf_reset(&id);
		state = identity_test_id(d->ids, ids->items[i], ID_MAP, &id);
		test_id_split(id.buf, &suite, &name);
		key_of(&key, suite, name);
		e = strmap_find(&from_reports, key.buf, key.len);
		if (!e && strstr(name, " > ")) {
			/* `path > describe > title` names jest's case "describe title" too. */
			strbuf_reset(&spaced);
			test_name_spaced(name, &spaced);
			key_of(&key, suite, spaced.buf);
			e = strmap_find(&from_reports, key.buf, key.len);
			raw.spaced = e != NULL;
			if (!e)
				key_of(&key, suite, name);
		}
		f = row_for(d, &key, state, &added);
		if (e && fail_row_outcome(&rows[e->value]) != OUTCOME_FLAKY) {
			f->failed = rows[e->value].failed;
			f->errors = rows[e->value].errors;
			f->flaky = rows[e->value].flaky;
			f->state = rows[e->value].state;
		} else if (added) {
			f->failed = 1;
			f->flaky = 0;
		}
		if (added && !identity_id_fixed(d->ids, ids->items[i]))
			keep_raw(f, &raw);
		free(suite);
		free(name);
	}
	strmap_clear(&from_reports);
	for (size_t i = 0; i < nr_rows; i++)
		free(rows[i].raw);
	free(rows);
	strbuf_release(&id);
	strbuf_release(&key);
	strbuf_release(&spaced);
}

static int parse_failed(struct run_source *rs, struct run_data *d)
{
	struct strlist ids = STRLIST_INIT;
	int ret = 0;

	if (rs->has_failed_file)
		ret = list_parse(&rs->failed_file, &ids);
	else if (rs->m.has_failed)
		for (size_t i = 0; i < rs->m.failed.nr; i++)
			strlist_push(&ids, rs->m.failed.items[i]);
	if (!ret && (rs->has_failed_file || rs->m.has_failed))
		apply_failed_list(d, &ids);
	strlist_release(&ids);
	return ret;
}

/* A manifest may repeat the reasons of the engine answer it names. */
static void push_unique(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return;
	strlist_push(l, s);
}

/*
 * A selector's own answer: a native output (adapters/adapter.h) in the
 * selected_file slot, or a codebase-memory-mcp answer in engine_file. Its
 * decision is the run's (a native output's only when the manifest gave
 * none); its test count, when it has one, counts as the selected count.
 */
static int parse_answer(struct run_source *rs, struct run_data *d, struct input *in,
			const struct adapter *f, bool manifest_decides)
{
	const struct manifest_selection *sel = &rs->m.sel;
	struct adapter_opts o = { sel->root, sel->lane, sel->has_total_packages,
				 sel->total_packages, sel->has_total, sel->total_tests };
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret = input_read_all(in, &sb, INPUT_JSON_LIMIT);

	if (!ret)
		ret = adapter_read_answer(f, sb.buf, sb.len, in->name, &o, &a);
	strbuf_release(&sb);

	if (!ret) {
		if (!manifest_decides)
			d->decision = a.decision;
		for (size_t i = 0; i < a.reasons.nr; i++)
			push_unique(&d->reasons, a.reasons.items[i]);
		for (size_t i = 0; i < a.entries.nr; i++)
			strlist_push(&d->entries, a.entries.items[i]);
		d->has_engine_tests = a.has_selected;
		d->engine_tests = a.selected_count;
	}
	adapter_answer_release(&a);
	return ret;
}

static int parse_selection(struct run_source *rs, struct run_data *d)
{
	const struct manifest_selection *sel = &rs->m.sel;
	const struct adapter *f;
	int ret = 0;

	if (!sel->present)
		return 0;
	d->decision = sel->decision;
	for (size_t i = 0; i < sel->reasons.nr; i++)
		strlist_push(&d->reasons, sel->reasons.items[i]);
	d->has_total = sel->has_total;
	d->total_tests = sel->total_tests;
	for (size_t i = 0; i < sel->selected.nr; i++)
		strlist_push(&d->entries, sel->selected.items[i]);
	if (rs->has_selected_file && sel->format) {
		if (!(f = adapter_find_answer(sel->format)))
			BUG("unknown answer format '%s'", sel->format);
		ret = parse_answer(rs, d, &rs->selected_file, f, sel->has_decision);
	} else if (rs->has_selected_file) {
		ret = list_parse_selection(&rs->selected_file, &d->entries);
	}
	if (!ret && rs->has_engine_file)
		ret = parse_answer(rs, d, &rs->engine_file, &adapter_cbm, false);
	return ret;
}

/* Selected count: as given, else the engine's totals, else the run's test cases. */
static void settle_selected_count(struct run_source *rs, struct run_data *d)
{
	if (rs->m.sel.has_selected_count) {
		d->has_selected = true;
		d->selected_count = rs->m.sel.selected_count;
	} else if (d->has_engine_tests) {
		d->has_selected = true;
		d->selected_count = d->engine_tests;
	} else if (rs->nr_results) {
		d->has_selected = true;
		d->selected_count = d->stats.tests;
	}
}

static void warn_no_repo(struct ingest *ing)
{
	bool first;

	pthread_mutex_lock(&ing->lock);
	first = !ing->warned_no_repo;
	ing->warned_no_repo = true;
	pthread_mutex_unlock(&ing->lock);
	if (first)
		warning("no git repository: changed files, diff coverage and test "
			"identity are not computed (give --repo PATH)");
}

/* The three-dot diff of the run. */
static int read_diff(struct ingest_env *env, struct run_source *rs, struct run_data *d)
{
	struct ingest *ing = env->ing;
	const struct manifest *m = &rs->m;
	const char *missing;
	int rc;

	d->git = RUN_GIT_NONE;
	if (!*m->base)
		return 0;
	if (!env->repo) {
		warn_no_repo(ing);
		return 0;
	}
	rc = repo_diff_three_dot(env->repo, m->base, m->head, 0, &d->diff, &missing);
	if (rc < 0)
		return error("%s: cannot diff %.12s...%.12s", rs->uri, m->base, m->head);
	if (rc == REPO_UNKNOWN_COMMIT) {
		d->git = RUN_GIT_UNKNOWN;
		if (m->has_pr)
			warning("%s: PR %" PRId64 ": commit %s is not in the repository "
				"at '%s': the run is stored, marked git-unknown",
				rs->uri, m->pr, missing, env->repo->root);
		else
			warning("%s: commit %s is not in the repository at '%s': the "
				"run is stored, marked git-unknown",
				rs->uri, missing, env->repo->root);
		return 0;
	}
	d->git = RUN_GIT_OK;
	return 0;
}

/*
 * A selection entry's state: counted; and when it is a suite name (a bare
 * word, `money` or `money:adds`), that name is a declared suite, one the
 * selector uses, so a report's suite of that name joins it (SPEC 4). One
 * that does not resolve as written is judged through the id-map too, and
 * kept with its key to be judged again when the id-map changes
 * (core/rekey.h).
 */
static void entry_seen(const char *name, enum id_state state, void *data)
{
	struct run_data *d = data;
	enum id_state keyed = state;
	uint32_t *at = &d->entry_keyed[d->entries_seen++];

	*at = KEYED_NONE;
	if (state != ID_RESOLVED && identity_has_tree(d->ids)) {
		struct strbuf key = STRBUF_INIT;

		/* One the id-map leaves alone keys as written: no second look-up. */
		if (identity_map_touches(d->ids, name))
			keyed = selection_entry_key(d->ids, name, &key);
		*at = keyed_entry_mark(&d->keyed, key.buf, id_state_joined(keyed));
		strbuf_release(&key);
	}
	tally(&d->entry_ids, name, keyed);
	if (state == ID_NAME)
		strlist_push_owned(&d->declared, xstrndup(name, strcspn(name, ":")));
}

struct quarantine_seen {
	struct run_data *d;
	size_t next;
};

/*
 * A quarantine line's state: counted, and kept for the store. One that does
 * not resolve as written is judged through the id-map too, and again when
 * it changes (core/rekey.h).
 */
static void quarantine_seen(const char *name, enum id_state state, void *data)
{
	struct quarantine_seen *q = data;
	struct run_data *d = q->d;
	struct quarantine_judged *j = &d->quarantine_at[q->next++];

	j->keyed = state != ID_RESOLVED && identity_has_tree(d->ids);
	if (j->keyed && d->idmap) {
		struct strbuf key = STRBUF_INIT;

		state = quarantine_line_key(d->ids, name, &key);
		if (key.len)
			j->key = strbuf_detach(&key, NULL);
		strbuf_release(&key);
	}
	tally(&d->quarantine_ids, name, state);
	j->joined = state == ID_NO_TREE ? -1 : state == ID_RESOLVED ? 1 : state == ID_NAME ? 2 : 0;
}

/* The quarantine list, each line resolved like a failing test's id. */
static int parse_quarantine(struct run_source *rs, struct run_data *d)
{
	struct quarantine_seen q = { d, 0 };

	if (!rs->has_quarantine)
		return 0;
	if (list_parse(&rs->quarantine, &d->quarantine) < 0)
		return -1;
	d->quarantine_at = xcalloc(d->quarantine.nr + 1, sizeof(*d->quarantine_at));
	identity_resolve_list(d->ids, &d->quarantine, 0, quarantine_seen, &q);
	return 0;
}

/*
 * Everything but the coverage, in the order identity needs: the selection
 * and the diff first (the change's packages help resolve names), then the
 * reports, whose cases resolve as they stream by.
 */
static int parse_inputs(struct ingest_env *env, struct run_source *rs, struct run_data *d)
{
	if (parse_selection(rs, d) < 0 || read_diff(env, rs, d) < 0)
		return -1;
	d->idmap = env->ing->idmap;
	d->ids = identity_for_run(env->ids, env->repo, rs->m.head, rs->m.base,
				  rs->m.workdir, &d->diff, d->idmap);
	d->workdir = rs->m.workdir;
	/* Selection entries and quarantined ids as repository paths. */
	d->entry_keyed = xcalloc(d->entries.nr + 1, sizeof(*d->entry_keyed));
	identity_resolve_list(d->ids, &d->entries, ID_ENTRY, entry_seen, d);
	if (parse_results(rs, d) < 0 || parse_failed(rs, d) < 0)
		return -1;
	if (parse_quarantine(rs, d) < 0)
		return -1;
	settle_selected_count(rs, d);
	return 0;
}

struct cov_state {
	struct run_data *d;
	git_tree *tree;
	struct strmap changed;  /* changed path -> index in d->diff.files */
	struct strmap mapped;   /* candidate key -> file index, or -1 */
};

/* Is `suffix` a whole-component suffix of `path`? */
static bool component_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), m = strlen(suffix);

	return n >= m && !strcmp(path + n - m, suffix) &&
	       (n == m || path[n - m - 1] == '/');
}

/* Longest suffix of path (whole components) that is a file in the tree. */
static const char *longest_existing_suffix(git_tree *tree, const char *path)
{
	for (const char *p = path; p && *p; ) {
		while (*p == '/')
			p++;
		if (*p && repo_tree_has_file(tree, p))
			return p;
		p = strchr(p, '/');
	}
	return NULL;
}

/* Could any changed file be a suffix of this report path? (Skips tree look-ups.) */
static bool may_be_changed(struct cov_state *cs, const char *path)
{
	for (size_t i = 0; i < cs->d->diff.nr; i++)
		if (component_suffix(path, cs->d->diff.files[i].path))
			return true;
	return false;
}

static int64_t map_candidates(struct cov_state *cs, const struct cov_line *l)
{
	const char *best = NULL;
	int64_t idx = -1;

	for (size_t i = 0; i < l->nr_paths; i++) {
		const char *hit;

		if (!may_be_changed(cs, l->paths[i]))
			continue;
		hit = longest_existing_suffix(cs->tree, l->paths[i]);
		if (hit && (!best || strlen(hit) > strlen(best)))
			best = hit;
	}
	if (best)
		strmap_get(&cs->changed, best, &idx);
	return idx;
}

static int on_cov_line(const struct cov_line *l, void *data)
{
	struct cov_state *cs = data;
	struct strbuf key = STRBUF_INIT;
	struct strmap_entry *e;
	struct changed_file *f;
	int64_t idx;

	for (size_t i = 0; i < l->nr_paths; i++) {
		strbuf_addstr(&key, l->paths[i]);
		strbuf_addch(&key, '\0');
	}
	e = strmap_find(&cs->mapped, key.buf, key.len);
	if (e) {
		idx = e->value;
	} else {
		idx = map_candidates(cs, l);
		strmap_put(&cs->mapped, key.buf, key.len, idx);
	}
	strbuf_release(&key);
	if (idx < 0)
		return 0;
	cs->d->cov_seen[idx] = true;
	f = &cs->d->diff.files[idx];
	if (!lineset_has(&f->added, l->line))
		return 0;
	lineset_add(&cs->d->executable[idx], l->line);
	if (l->hit)
		lineset_add(&cs->d->executed[idx], l->line);
	return 0;
}

static int parse_one_coverage(struct input *in, struct cov_state *cs)
{
	char head[512];
	size_t n;

	/* Sniff the first bytes to tell lcov from Cobertura. */
	if (input_peek(in, head, sizeof(head), &n) < 0)
		return -1;
	if (cobertura_sniff(head, n))
		return cobertura_parse(in, on_cov_line, cs);
	if (lcov_sniff(head, n))
		return lcov_parse(in, on_cov_line, cs);
	if (n == 0)
		return error("%s: empty coverage file", in->name);
	return error("%s: neither an lcov tracefile nor a Cobertura report", in->name);
}

/*
 * Coverage is always parsed (a malformed report is an input error), but it
 * only counts when the diff is known: the changed lines are its subject.
 */
static int parse_coverage(struct ingest_env *env, struct run_source *rs, struct run_data *d)
{
	struct cov_state cs = { .d = d };
	size_t slots = d->diff.nr ? d->diff.nr : 1;
	int ret = 0;

	if (!rs->nr_coverage)
		return 0;
	d->executable = xcalloc(slots, sizeof(*d->executable));
	d->executed = xcalloc(slots, sizeof(*d->executed));
	d->cov_seen = xcalloc(slots, sizeof(*d->cov_seen));
	if (d->git == RUN_GIT_OK) {
		cs.tree = repo_tree_at(env->repo, rs->m.head);
		d->has_coverage = cs.tree != NULL;
	}
	for (size_t i = 0; i < d->diff.nr; i++)
		strmap_put(&cs.changed, d->diff.files[i].path,
			   strlen(d->diff.files[i].path), (int64_t)i);
	for (size_t i = 0; i < rs->nr_coverage && !ret; i++)
		ret = parse_one_coverage(&rs->coverage[i], &cs);
	git_tree_free(cs.tree);
	strmap_clear(&cs.changed);
	strmap_clear(&cs.mapped);
	return ret;
}

static void sum_coverage(struct run_data *d)
{
	if (!d->has_coverage)
		return;
	for (size_t i = 0; i < d->diff.nr; i++) {
		d->cov_lines += (int64_t)d->executable[i].nr;
		d->cov_hit += (int64_t)d->executed[i].nr;
	}
}

/*
 * The run's counts, every case counted (SPEC 3.3): failing cases (failed
 * or errored), errored ones, and cases of tests that only passed on a
 * rerun. The failing ids' identity tally takes, as its example, the first
 * unresolved id the reports gave.
 */
static void count_failing(struct run_data *d)
{
	struct identity_tally *t = &d->failing_ids;
	struct strbuf id = STRBUF_INIT;
	int64_t first = -1;

	for (size_t i = 0; i < d->failures.cap; i++) {
		const struct strmap_entry *e = &d->failures.slots[i];
		const struct fail_row *f;

		if (!e->key)
			continue;
		f = &d->rows[e->value];
		if (fail_row_outcome(f) == OUTCOME_FLAKY) {
			d->nr_flaky += f->flaky;
			continue;
		}
		d->nr_failing += f->failed + f->errors;
		d->nr_errors += f->errors;
		t->total++;
		if (id_state_joined(f->state))
			continue;
		t->unresolved++;
		if (first < 0 || e->value < first) {
			first = e->value;
			strbuf_reset(&id);
			test_id_format(&id, e->key, e->key + strlen(e->key) + 1);
			free(t->example);
			t->example = xstrdup(id.buf);
			t->example_state = f->state;
		}
	}
	strbuf_release(&id);
}

/*
 * What to do about names that resolve to nothing, by why they do not (s);
 * bare: a run of ingest's flags, whose workdir is --workdir. Caller frees.
 */
static char *identity_fix(enum id_state s, bool bare)
{
	const char *workdir = bare ? "--workdir" : "the manifest's \"workdir\"";

	switch (s) {
	case ID_OUTSIDE:
		return xstrdup("have the producer write paths relative to the repository, or "
			       "add an id-map rule that strips the prefix (man tiadash, "
			       "TEST IDENTITY)");
	case ID_AMBIGUOUS:
		return xstrfmt("give %s (the directory the runner ran in) so one of the "
			       "candidates is meant", workdir);
	default:
		return xstrfmt("give %s (the directory, relative to the repository root, "
			       "the runner ran in), or an id-map rule (man tiadash, TEST "
			       "IDENTITY)", workdir);
	}
}

/*
 * Say so when more than a tenth of the names of a kind resolve to nothing
 * (every_one: when any does; a quarantine line that names nothing turns
 * the failures it meant into escapes).
 */
static void warn_tally(const struct run_source *rs, const struct identity_tally *t,
		       const char *what, bool every_one, const struct input *from)
{
	/* A bare run of flags alone (--selection FILE) has no uri: name its file. */
	const char *source = *rs->uri ? rs->uri :
			     from && from->name ? from->name : "the command line";
	bool bare = !*rs->uri || starts_with(rs->uri, "bare:");
	char *ex, *fix;

	if (!t->unresolved || (!every_one && t->unresolved * 10 <= t->total) ||
	    t->example_state == ID_NO_TREE)
		return;
	ex = sanitized(t->example);
	fix = identity_fix(t->example_state, bare);
	warning("%s: %" PRId64 " of %" PRId64 " %s name no path in the tree at %.12s "
		"(e.g. '%s': %s): %s", source, t->unresolved, t->total, what,
		rs->m.head, ex, id_state_name(t->example_state),
		fix);
	free(ex);
	free(fix);
}

static void say_progress(struct ingest *ing)
{
	if (ing->progress)
		fprintf(stderr, "\ringest: %d sources, %d new, %d unchanged, %d failed",
			ing->stats.sources, ing->stats.added, ing->stats.unchanged,
			ing->stats.failed);
}

static int conflict(struct run_source *rs, struct run_data *d)
{
	return error("%s: %s run %.12s attempt %d is already stored from '%s' "
		     "with different content (give --replace to replace it)",
		     rs->uri, run_kind_name(rs->m.kind), rs->m.head, rs->m.attempt,
		     d->old_uri ? d->old_uri : "?");
}

/* Read before the entries are encoded (and released). */
static bool selected_nothing(const struct run_data *d)
{
	return d->decision == DECISION_NOTHING ||
	       (d->decision == DECISION_SELECTED && !d->entries.nr);
}

int ingest_prepare(struct ingest_env *env, struct run_source *rs, struct run_data *d)
{
	char hex[33];
	int stored = write_find_run(env->store, rs->m.repo, rs->m.head, rs->m.kind,
				    rs->m.attempt, &d->old_source, &d->old_digest,
				    &d->old_uri);

	if (stored < 0)
		return PREPARE_FAILED;
	if (stored) {
		if (digest_only(rs, hex) < 0)
			return PREPARE_FAILED;
		if (!strcmp(hex, d->old_digest))
			return PREPARE_UNCHANGED;
		if (!env->ing->replace)
			return conflict(rs, d), PREPARE_FAILED;
	} else {
		d->old_source = 0;
	}
	if (parse_inputs(env, rs, d) < 0 || parse_coverage(env, rs, d) < 0)
		return PREPARE_FAILED;
	sum_coverage(d);
	count_failing(d);
	if (rs->verdict_if_nothing && !selected_nothing(d))
		return error("the shadow run of %.12s selected %s: give --verdict "
			     "(there are no results to derive it from)", rs->m.head,
			     d->decision == DECISION_RUN_ALL ? "every test" : "tests"),
		       PREPARE_FAILED;
	warn_tally(rs, &d->failing_ids, "failing tests", false,
		   rs->has_failed_file ? &rs->failed_file : NULL);
	warn_tally(rs, &d->entry_ids, "selection entries", false,
		   rs->has_selected_file ? &rs->selected_file :
		   rs->has_engine_file ? &rs->engine_file : NULL);
	warn_tally(rs, &d->quarantine_ids, "quarantine lines", true,
		   rs->has_quarantine ? &rs->quarantine : NULL);
	keyed_entries_store(&d->keyed, &d->entries, d->entry_keyed, &d->keys_blob);
	store_strings_encode(&d->entries, &d->entries_blob);
	/* Only the blob is written. Free the entries on the thread that made them. */
	strlist_release(&d->entries);
	if (rs->verdict_from_results)
		rs->m.verdict = d->nr_failing ? VERDICT_FAIL : VERDICT_PASS;
	source_digest(rs, d->digest);
	return PREPARE_NEW;
}

static int64_t monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Sources are written in batches, one transaction each: committing every
 * small source (rewriting the same index pages into the WAL each time) would
 * cost several times the inserts themselves. Every way a source can be bad
 * is found before it reaches the batch, so the batch only fails with the
 * store itself (disk full, I/O error); then the whole batch is rolled back
 * and its sources are reported as not stored (a rerun ingests them). A batch
 * is committed after BATCH_MS or BATCH_RUNS, so the write lock is held briefly.
 */
#define BATCH_MS 250
#define BATCH_RUNS 500

static int open_batch(struct ingest *ing)
{
	if (ing->batch.open)
		return 0;
	if (store_begin(ing->store) < 0)
		return -1;
	ing->batch.open = true;
	ing->batch.started = monotonic_ms();
	ing->batch.added = ing->batch.replaced = ing->batch.runs = 0;
	return 0;
}

/* The batch is lost: nothing of it stays, and its sources count as failed. */
static void abort_batch(struct ingest *ing)
{
	store_rollback(ing->store);
	ing->batch.open = false;
	ing->stats.added -= ing->batch.added;
	ing->stats.replaced -= ing->batch.replaced;
	ing->stats.failed += ing->batch.runs;
	if (ing->batch.runs)
		error("the %d sources written before it in the same transaction "
		      "were not stored either; ingest them again", ing->batch.runs);
}

int ingest_flush(struct ingest *ing)
{
	if (!ing->batch.open)
		return 0;
	/* The batch's heads leave their pair cache rows fresh for the readers. */
	if (pair_cache_refresh(ing->store) == 0 && store_commit(ing->store) == 0) {
		ing->batch.open = false;
		return 0;
	}
	ing->batch.open = true; /* store_commit rolled back: count the loss */
	abort_batch(ing);
	return -1;
}

int ingest_commit(struct ingest *ing, struct run_source *rs, struct run_data *d,
		  int prepared)
{
	int ret = prepared == PREPARE_FAILED ? -1 : 0;

	ing->stats.sources++;
	if (prepared == PREPARE_UNCHANGED) {
		ing->stats.unchanged++;
	} else if (prepared == PREPARE_NEW) {
		ret = open_batch(ing);
		if (!ret)
			ret = write_run(ing, rs, d);
		if (ret < 0 && ing->batch.open) {
			abort_batch(ing);
		} else if (ret == WRITE_UNCHANGED) {
			ing->stats.unchanged++;
			ret = 0;
		} else if (ret == WRITE_REFUSED) {
			ret = -1;
		} else if (ret == 0) {
			ing->stats.git_unknown += d->git == RUN_GIT_UNKNOWN;
			if (d->old_source)
				ing->stats.replaced++, ing->batch.replaced++;
			else
				ing->stats.added++, ing->batch.added++;
			ing->batch.runs++;
		}
	}
	if (ret < 0)
		ing->stats.failed++;
	if (ing->batch.open && (ing->batch.runs >= BATCH_RUNS ||
				monotonic_ms() - ing->batch.started >= BATCH_MS) &&
	    ingest_flush(ing) < 0)
		ret = -1;
	say_progress(ing);
	return ret < 0 ? -1 : 0;
}

int ingest_run(struct ingest *ing, struct run_source *rs)
{
	struct ingest_env env = { ing, ing->store, ing->repo, ing->ids };
	struct run_data d;
	int ret;

	run_data_init(&d);
	ret = ingest_commit(ing, rs, &d, ingest_prepare(&env, rs, &d));
	run_data_release(&d);
	return ret;
}
