/* The experiment: clean runs, then mutants applied, asked about, built and tested in pool worktrees, -j at a time, in one event loop. */
#include "core/tiadash.h"
#include "adapters/adapter.h"
#include "core/idmatch.h"
#include "core/sanitize.h"
#include "core/spawn.h"
#include "core/timeutil.h"
#include "core/tiadir.h"
#include "core/worktree.h"
#include "ingest/junit.h"
#include "seed/seed.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A change gets at most this many invalid mutants per valid one asked for. */
#define INVALID_PER_MUTANT 3
#define MAX_ANSWER (64u << 20)
#define BASELINE_TIMEOUT_S 3600.0

const char *seed_stop_name(enum seed_stop s)
{
	static const char *const names[] = { "done", "budget", "interrupted" };

	return names[s];
}

enum step {
	ST_BASE_BUILD, ST_BASE_SUBSET, ST_BASE_FULL, /* the clean head */
	ST_REACH, ST_BUILD, ST_SUBSET, ST_FULL,      /* a mutant */
};

struct slot {
	size_t k;
	struct seed_change *c;   /* NULL: idle */
	const char *tree;        /* the pool's */
	enum step step;
	pid_t pid;               /* 0: nothing runs */
	double started, deadline;
	double build_s;          /* the clean build's wall-clock */
	/* Its files in the runner's directory. */
	char *ids, *paths, *out, *log, *junit, *cov;
	/* The mutant in flight (path NULL: none). */
	char *path, *abs;
	size_t file;             /* path's index in the change's files */
	struct strbuf original;
	struct seed_site site;
	char *before, *after;
	double subset_s, full_s;
};

struct runner {
	const struct seed_run_opts *o;
	struct seed_sample *s;
	struct worktree_pool *pool;
	struct seed_ops *ops;
	struct slot *slots;
	int width;
	size_t next_change;
	size_t pos;              /* the next mutant's number in the store */
	char *dir;               /* the runner's files */
	double start;
	int64_t counts[4];       /* by enum seed_verdict */
	bool reach_warned;
	int ret;
};

/* ---- the runner's files: ROOT/.tiadash/seed/PID ---- */

static int write_text(const char *path, const char *text, size_t len, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | flags, 0666);
	bool ok;

	if (fd < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	ok = (size_t)write(fd, text, len) == len;
	if (close(fd) < 0 || !ok)
		return error("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
	return 0;
}

/* Remove a directory of plain files (never following a link). */
static void remove_flat_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			char *p = path_join(dir, de->d_name);

			unlink(p);
			free(p);
		}
	}
	closedir(d);
	rmdir(dir);
}

/* The directories of runs that are gone (killed): as the pool cleans its worktrees. */
static void clean_stale(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (end != de->d_name && !*end && pid > 0 && kill((pid_t)pid, 0) < 0 &&
		    errno == ESRCH) {
			char *p = path_join(base, de->d_name);

			remove_flat_dir(p);
			free(p);
		}
	}
	closedir(d);
}

static int make_dir(struct runner *r)
{
	char *base = path_join(r->o->repo->root, ".tiadash/seed");

	clean_stale(base);
	r->dir = xstrfmt("%s/%ld", base, (long)getpid());
	free(base);
	if (tiadir_prepare(r->dir) < 0 || mkdir_for_file(r->dir) < 0 || (mkdir(r->dir, 0700) < 0 && errno != EEXIST))
		return error("cannot make '%s': %s", r->dir, strerror(errno));
	return 0;
}

static void slot_files(struct runner *r, struct slot *sl)
{
	sl->ids = xstrfmt("%s/%zu.selected", r->dir, sl->k);
	sl->paths = xstrfmt("%s/%zu.paths", r->dir, sl->k);
	sl->out = xstrfmt("%s/%zu.out", r->dir, sl->k);
	sl->log = xstrfmt("%s/%zu.log", r->dir, sl->k);
	sl->junit = xstrfmt("%s/%zu.junit.xml", r->dir, sl->k);
	sl->cov = xstrfmt("%s/%zu.coverage", r->dir, sl->k);
}

/* ---- running one step ---- */

static bool is_mutant_step(enum step st)
{
	return st >= ST_REACH;
}

static const char *step_what(enum step st)
{
	switch (st) {
	case ST_BASE_BUILD: case ST_BUILD: return "the build (--build)";
	case ST_BASE_SUBSET: case ST_SUBSET: return "the subset (--test)";
	case ST_BASE_FULL: case ST_FULL: return "the full suite";
	case ST_REACH: return "the selector";
	}
	return "?";
}

/* Three times the clean run, plus 10 s; or --timeout. */
static double step_timeout(const struct runner *r, const struct slot *sl, enum step st)
{
	double clean;

	if (st == ST_REACH)
		return r->o->selector->timeout_s > 0 ? r->o->selector->timeout_s : 60;
	if (r->o->timeout_s > 0)
		return r->o->timeout_s;
	switch (st) {
	case ST_BUILD: clean = sl->build_s; break;
	case ST_SUBSET: clean = sl->c->subset_s; break;
	case ST_FULL: clean = sl->c->full_s; break;
	default: return BASELINE_TIMEOUT_S;
	}
	return 3 * (isnan(clean) ? BASELINE_TIMEOUT_S / 3 : clean) + 10;
}

static int open_in(const char *path)
{
	return path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
}

static void start_step(struct runner *r, struct slot *sl, enum step st)
{
	const struct seed_run_opts *o = r->o;
	const struct seed_change *c = sl->c;
	struct spawn_env env = SPAWN_ENV_INIT;
	struct strbuf cmd = STRBUF_INIT;
	char **argv = NULL;
	const char *in_path = NULL;
	int in = -1, out = -1, err;
	size_t nargs = 0;

	sl->step = st;
	spawn_env_copy(&env, worktree_pool_env(r->pool));
	spawn_env_set(&env, "TIADASH_TREE", sl->tree);
	spawn_env_set(&env, "TIADASH_REPO", o->repo->root);
	spawn_env_set(&env, "TIADASH_HEAD", c->commit->sha);
	spawn_env_set(&env, "TIADASH_BASE", *c->commit->parent ? c->commit->parent :
		      "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
	/* A same-size mutant within a second of the byte-code would run stale code. */
	spawn_env_set(&env, "PYTHONDONTWRITEBYTECODE", "1");
	if (is_mutant_step(st)) {
		char *where = xstrfmt("%s:%d", sl->path, sl->site.line);

		spawn_env_set(&env, "TIADASH_MUTANT", where);
		free(where);
	}
	switch (st) {
	case ST_BASE_BUILD:
	case ST_BUILD:
		strbuf_addstr(&cmd, o->build_cmd);
		break;
	case ST_BASE_SUBSET:
	case ST_SUBSET:
		/* The ids as arguments ("$@": no quoting, no 128 KiB string), and on stdin. */
		strbuf_addstr(&cmd, o->test_cmd);
		if (!strstr(o->test_cmd, "TIADASH_SELECTED"))
			strbuf_addstr(&cmd, " \"$@\"");
		spawn_env_set(&env, "TIADASH_SELECTED", sl->ids);
		spawn_env_set(&env, "TIADASH_JUNIT", sl->junit);
		in_path = sl->ids;
		argv = xcalloc(c->subset.nr + 5, sizeof(*argv));
		argv[nargs++] = "sh";
		argv[nargs++] = "-c";
		argv[nargs++] = cmd.buf;
		argv[nargs++] = "tiadash-seed";
		for (size_t i = 0; i < c->subset.nr; i++)
			argv[nargs++] = c->subset.items[i];
		break;
	case ST_BASE_FULL:
	case ST_FULL:
		strbuf_addstr(&cmd, o->full_cmd ? o->full_cmd : o->test_cmd);
		spawn_env_set(&env, "TIADASH_JUNIT", sl->junit);
		/* The clean tree's coverage: the mutants' lines are its lines. */
		if (st == ST_BASE_FULL)
			spawn_env_set(&env, "TIADASH_COVERAGE", sl->cov);
		break;
	case ST_REACH:
		strbuf_addstr(&cmd, o->selector->cmd);
		/* The mutant is the only change: the head against its own tree. */
		spawn_env_set(&env, "TIADASH_BASE", c->commit->sha);
		replay_selector_env(o->selector, sl->tree, &env);
		in_path = sl->paths;
		break;
	}
	unlink(sl->junit);
	unlink(sl->cov);
	err = open(sl->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	out = st == ST_REACH ? open(sl->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
			     : (err >= 0 ? dup(err) : -1);
	in = open_in(in_path);
	if (err < 0 || out < 0 || (in_path && in < 0)) {
		r->ret = error("cannot open the files of %s in '%s': %s", step_what(st), r->dir,
			       strerror(errno));
	} else {
		sl->pid = spawn_start(argv ? NULL : cmd.buf, argv, sl->tree, &env, in, out, err,
				      step_what(st));
		if (sl->pid < 0) {
			sl->pid = 0;
			r->ret = -1;
		}
	}
	sl->started = time_monotonic_s();
	sl->deadline = sl->started + step_timeout(r, sl, st);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	free(argv);
	strbuf_release(&cmd);
	spawn_env_release(&env);
}

/* ---- results ---- */

struct failed_ids {
	struct strlist *out;
	struct strbuf id;
};

static int on_case(const struct junit_case *jc, void *data)
{
	struct failed_ids *f = data;

	if (jc->outcome != JUNIT_FAILED && jc->outcome != JUNIT_ERROR)
		return 0;
	strbuf_reset(&f->id);
	test_id_format(&f->id, jc->suite, jc->name);
	strlist_push(f->out, f->id.buf);
	return 0;
}

/* The failing tests of the JUnit file a run wrote to $TIADASH_JUNIT (none: nothing). */
static void read_failed(const char *junit, struct strlist *out)
{
	struct failed_ids f = { out, STRBUF_INIT };
	struct junit_stats stats = { 0 };
	struct strbuf why = STRBUF_INIT;
	struct input in;

	if (access(junit, F_OK) < 0)
		return;
	input_from_file(&in, junit);
	/* The file is removed with the runner's directory: say what wrote it. */
	free(in.name);
	in.name = xstrdup("$TIADASH_JUNIT");
	error_capture(&why);
	if (junit_parse(&in, on_case, &f, &stats) < 0)
		strlist_release(out);
	error_capture(NULL);
	if (why.len)
		warning("the tests' JUnit report cannot be read: %s", why.buf);
	input_release(&in);
	strbuf_release(&f.id);
	strbuf_release(&why);
	strlist_sort(out);
}

static bool invalid_exit(const struct seed_run_opts *o, int status)
{
	if (!WIFEXITED(status))
		return false;
	for (size_t i = 0; i < o->nr_invalid_exits; i++)
		if (WEXITSTATUS(status) == o->invalid_exits[i])
			return true;
	return false;
}

static char *exit_text(int status)
{
	if (WIFSIGNALED(status))
		return xstrfmt("killed by signal %d", WTERMSIG(status));
	return xstrfmt("exit status %d", WEXITSTATUS(status));
}

/* A copy of line with every "TREE/" dropped: the worktree is gone when it is read. */
static char *without_tree(const char *line, size_t n, const char *tree)
{
	struct strbuf sb = STRBUF_INIT;
	size_t t = tree ? strlen(tree) : 0;
	const char *p = line, *end = line + n, *hit;

	while (t && (hit = memmem(p, (size_t)(end - p), tree, t)) && hit + t < end &&
	       hit[t] == '/') {
		strbuf_add(&sb, p, (size_t)(hit - p));
		p = hit + t + 1;
	}
	strbuf_add(&sb, p, (size_t)(end - p));
	return strbuf_detach(&sb, NULL);
}

/*
 * What a run said went wrong, for a message: its last line naming an
 * error ("E   ImportError: ...", "x.c:3: error: ..."), else its last
 * line; NULL when it printed nothing. Lines naming the runner's own
 * files (dir: "JUNIT report written to .../0.junit.xml") are passed over
 * and the worktree's paths made relative, as both are removed before
 * anyone reads the message. Caller frees.
 */
static char *log_tail(const char *log, const char *dir, const char *tree)
{
	struct strbuf sb = STRBUF_INIT;
	const char *best = NULL, *last = NULL, *p;
	size_t best_n = 0, last_n = 0;
	char *tail;

	if (read_file_limit(&sb, log, 4u << 20) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	for (p = sb.buf; p < sb.buf + sb.len;) {
		const char *nl = memchr(p, '\n', sb.len - (size_t)(p - sb.buf));
		size_t n = nl ? (size_t)(nl - p) : sb.len - (size_t)(p - sb.buf);

		while (n && (p[n - 1] == '\r' || p[n - 1] == ' '))
			n--;
		if (n && !memmem(p, n, dir, strlen(dir))) {
			last = p;
			last_n = n;
			if (memmem(p, n, "Error", 5) || memmem(p, n, "error:", 6)) {
				best = p;
				best_n = n;
			}
		}
		p = nl ? nl + 1 : sb.buf + sb.len;
	}
	if (!best) {
		best = last;
		best_n = last_n;
	}
	tail = best ? without_tree(best, best_n > 200 ? 200 : best_n, tree) : NULL;
	strbuf_release(&sb);
	return tail;
}

/* "exit status 1: LAST LINE", "timed out", ...; caller frees. */
static char *outcome_text(const struct runner *r, const struct slot *sl, int status,
			  bool timed_out)
{
	char *e = timed_out ? xstrdup("timed out") : exit_text(status);
	char *tail = timed_out ? NULL : log_tail(sl->log, r->dir, sl->tree), *text;

	text = tail ? xstrfmt("%s: %s", e, tail) : xstrdup(e);
	free(e);
	free(tail);
	return text;
}

/* ---- the mutant in flight ---- */

static void drop_mutant(struct slot *sl)
{
	free(sl->path);
	free(sl->abs);
	free(sl->site.to);
	free(sl->before);
	free(sl->after);
	strbuf_release(&sl->original);
	sl->path = sl->abs = sl->before = sl->after = NULL;
	sl->site.to = NULL;
}

/* Put the file back as it was, and the worktree as checked out. */
static void restore(struct runner *r, struct slot *sl)
{
	if (sl->path && write_text(sl->abs, sl->original.buf, sl->original.len, O_NOFOLLOW) < 0)
		r->ret = -1;
	if (worktree_pool_reset(r->pool, sl->k) < 0)
		r->ret = -1;
	drop_mutant(sl);
}

/* "seed: 5/30 mutants (subset 1, full 3, none 1, invalid 1), ETA 2m30s", when stderr is a terminal. */
static void progress(struct runner *r)
{
	int64_t valid = r->counts[SEED_SUBSET] + r->counts[SEED_FULL] + r->counts[SEED_NONE];
	int64_t planned = 0;

	if (!r->o->progress)
		return;
	for (size_t i = 0; i < r->s->nr; i++) {
		const struct seed_change *c = &r->s->changes[i];

		if (!c->skipped)
			planned += c->finished ? c->valid : (int64_t)r->o->mutants;
	}
	fprintf(stderr, "\rseed: %" PRId64 "/%" PRId64 " mutants (subset %" PRId64
		", full %" PRId64 ", none %" PRId64 ", invalid %" PRId64 ")", valid, planned,
		r->counts[SEED_SUBSET], r->counts[SEED_FULL], r->counts[SEED_NONE],
		r->counts[SEED_INVALID]);
	if (valid && planned > valid) {
		double eta = (time_monotonic_s() - r->start) / (double)valid * (double)(planned - valid);

		fprintf(stderr, ", ETA %dm%02ds", (int)(eta / 60), (int)eta % 60);
	}
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void next_mutant(struct runner *r, struct slot *sl);

static void finish_mutant(struct runner *r, struct slot *sl, enum seed_verdict v,
			  bool timed_out, const char *why)
{
	struct strlist caught = STRLIST_INIT;
	struct seed_mutant m = {
		.change = sl->c->pos, .path = sl->path, .line = sl->site.line,
		.col = sl->site.col, .op = sl->site.op, .before = sl->before,
		.after = sl->after, .verdict = v, .timed_out = timed_out, .why = why,
		.subset_s = sl->subset_s, .full_s = sl->full_s, .caught_by = &caught,
		.executed = seed_coverage_executed(&sl->c->cov, sl->path, sl->site.line),
	};

	if (v == SEED_SUBSET || v == SEED_FULL)
		read_failed(sl->junit, &caught);
	if (seed_store_mutant(r->o->store, r->o->experiment, r->pos++, &m) < 0)
		r->ret = -1;
	strlist_release(&caught);
	r->counts[v]++;
	if (v == SEED_INVALID)
		sl->c->invalid++;
	else
		sl->c->valid++;
	restore(r, sl);
	progress(r);
	next_mutant(r, sl);
}

/* The first step after the reach question: the build, the subset, else the full suite. */
static void start_tests(struct runner *r, struct slot *sl)
{
	if (r->o->build_cmd)
		start_step(r, sl, ST_BUILD);
	else if (sl->c->subset.nr)
		start_step(r, sl, ST_SUBSET);
	else
		start_step(r, sl, ST_FULL);
}

/* The rules' half of the reach: a select rule naming a test of the subset. */
static bool rules_reach(const struct rules *rules, const struct seed_change *c, const char *path)
{
	int m = rules_match(rules, path);

	if (m == RULES_MATCH_ERROR)
		return true;
	return m >= 0 && rules->items[m].action == RULE_SELECT &&
	       seed_entries_overlap(&c->subset, &rules->items[m].tests);
}

/* Read the selector's answer to the reach question: true when the file is inside. */
static bool answer_reaches(struct runner *r, struct slot *sl, int status, bool timed_out)
{
	struct adapter_answer a = ADAPTER_ANSWER_INIT;
	struct adapter_opts ao = ADAPTER_OPTS_INIT;
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	bool reached = true;

	ao.root = sl->tree;
	if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char *e = timed_out ? NULL : replay_selector_not_found(r->o->selector, status);

		if (!e)
			e = outcome_text(r, sl, status, timed_out);
		strbuf_addstr(&why, e);
		free(e);
	} else if (read_file_limit(&text, sl->out, MAX_ANSWER) < 0) {
		strbuf_addstr(&why, "its answer cannot be read");
	} else {
		int rc;

		error_capture(&why);
		rc = adapter_read_answer(r->o->selector->adapter, text.buf, text.len, "stdout",
					 &ao, &a);
		error_capture(NULL);
		if (rc == 0) {
			strbuf_reset(&why); /* a reader's warning is no failure */
			reached = a.decision == DECISION_RUN_ALL ||
				  seed_entries_overlap(&sl->c->subset, &a.entries);
		}
	}
	if (why.len && !r->reach_warned) {
		/* A file it cannot answer for counts as inside: said once. */
		warning("the selector cannot answer for a change of '%s' alone at %.12s: %s",
			sl->path, sl->c->commit->sha, why.buf);
		r->reach_warned = true;
	}
	adapter_answer_release(&a);
	strbuf_release(&text);
	strbuf_release(&why);
	return reached;
}

/* How many files without a site a change's reason names. */
#define NO_SITE_NAMED 3


/*
 * A file's site for this round: its sites in a seeded order, round 0's the
 * first draw of rng and each later round's a draw among those left (so
 * more mutants never move the first ones); nr > round.
 */
static size_t site_of_round(struct seed_rng *rng, size_t nr, size_t round)
{
	size_t *idx = xcalloc(nr, sizeof(*idx)), pick;

	for (size_t i = 0; i < nr; i++)
		idx[i] = i;
	for (size_t j = 0; j <= round; j++) {
		size_t k = j + seed_rng_below(rng, nr - j), t = idx[j];

		idx[j] = idx[k];
		idx[k] = t;
	}
	pick = idx[round];
	free(idx);
	return pick;
}

/*
 * The next file of the round, or, past the last, of the next round (one
 * that placed nothing ends them): its index, or false when none is left.
 */
static bool next_file(struct seed_change *c, size_t *file)
{
	for (;;) {
		while (c->next_file < c->files.nr) {
			*file = c->next_file++;
			if (!c->done[*file])
				return true;
		}
		if (!c->placed)
			return false;
		c->round++;
		c->placed = false;
		c->next_file = 0;
	}
}

/*
 * Read the next file, choose and apply its site of the round; false when
 * none is left. A file gets a mutant a round while it has sites left, so
 * --mutants can exceed the files outside.
 */
static bool apply_next(struct runner *r, struct slot *sl)
{
	struct seed_change *c = sl->c;
	size_t file;

	while (next_file(c, &file)) {
		const char *path = c->files.items[file];
		struct seed_sites sites = SEED_SITES_INIT;
		struct strbuf mutated = STRBUF_INIT;
		struct seed_rng rng;
		struct stat st;
		char *abs = path_join(sl->tree, path), *real = NULL, *salt;
		size_t pick;

		if (lstat(abs, &st) < 0 || !S_ISREG(st.st_mode) ||
		    path_resolve_inside(abs, sl->tree, &real) != 0 ||
		    read_file_limit(&sl->original, abs, 2u << 20) < 0) {
			c->passed[SEED_PASS_UNREADABLE]++;
			c->done[file] = true;
			free(abs);
			free(real);
			strbuf_release(&sl->original);
			continue;
		}
		free(real);
		seed_find_sites(r->ops, seed_lang_of(path), sl->original.buf, sl->original.len,
				&sites);
		if (sites.nr <= c->round) {
			c->done[file] = true;
			/* Only a file without any site says why; later rounds used its sites up. */
			if (!sites.nr && c->passed[SEED_PASS_NO_SITE]++ < NO_SITE_NAMED)
				strlist_push(&c->no_site, path);
			free(abs);
			strbuf_release(&sl->original);
			seed_sites_release(&sites);
			continue;
		}
		salt = xstrfmt("%s\n%s", c->commit->sha, path);
		seed_rng_init(&rng, r->o->seed, salt);
		free(salt);
		pick = site_of_round(&rng, sites.nr, c->round);
		sl->site = sites.items[pick];
		sites.items[pick].to = NULL;
		seed_sites_release(&sites);
		seed_apply(sl->original.buf, sl->original.len, &sl->site, &mutated,
			   &sl->before, &sl->after);
		sl->path = xstrdup(path);
		sl->file = file;
		sl->abs = abs;
		sl->subset_s = sl->full_s = NAN;
		c->tried++;
		c->placed = true;
		if (write_text(abs, mutated.buf, mutated.len, O_NOFOLLOW) < 0)
			r->ret = -1;
		strbuf_release(&mutated);
		return r->ret == 0;
	}
	return false;
}

static void change_done(struct runner *r, struct slot *sl);

static void next_mutant(struct runner *r, struct slot *sl)
{
	struct seed_change *c = sl->c;

	while (!r->ret) {
		if (c->valid >= (int64_t)r->o->mutants ||
		    c->invalid >= INVALID_PER_MUTANT * (int64_t)r->o->mutants ||
		    !apply_next(r, sl)) {
			if (!c->valid && !r->ret)
				c->skipped = seed_no_mutant_reason(c);
			change_done(r, sl);
			return;
		}
		if (!c->subset.nr) {
			/* An empty subset reaches nothing: every file is outside. */
			start_tests(r, sl);
			return;
		}
		if (!rules_reach(&r->s->run.baseline, c, sl->path)) {
			if (!r->o->selector->cmd) {
				start_tests(r, sl);
				return;
			}
			{
				struct strbuf line = STRBUF_INIT;

				git_quote_path(&line, sl->path);
				strbuf_addch(&line, '\n');
				if (write_text(sl->paths, line.buf, line.len, 0) < 0)
					r->ret = -1;
				strbuf_release(&line);
			}
			if (!r->ret)
				start_step(r, sl, ST_REACH);
			return;
		}
		c->reached++;
		c->done[sl->file] = true; /* inside: no later round asks again */
		restore(r, sl);
	}
}

/* ---- changes ---- */

static void skip_change(struct runner *r, struct slot *sl, int status, bool timed_out)
{
	char *e = outcome_text(r, sl, status, timed_out);

	sl->c->skipped = xstrfmt("%s fails without a mutant (%s)", step_what(sl->step), e);
	free(e);
	if (worktree_pool_reset(r->pool, sl->k) < 0)
		r->ret = -1;
	change_done(r, sl);
}

static void take_change(struct runner *r, struct slot *sl);

static void change_done(struct runner *r, struct slot *sl)
{
	if (sl->c)
		sl->c->finished = true;
	if (sl->c && seed_store_change_end(r->o->store, r->o->experiment, sl->c) < 0)
		r->ret = -1;
	sl->c = NULL;
	if (!r->ret)
		take_change(r, sl);
}

static void take_change(struct runner *r, struct slot *sl)
{
	struct seed_sample *s = r->s;

	while (!r->ret && r->next_change < s->nr) {
		struct seed_change *c = &s->changes[r->next_change++];
		struct strbuf ids = STRBUF_INIT;

		if (c->skipped)
			continue;
		if (seed_outside_files(r->o->repo, &s->run.baseline, c, r->o->seed) < 0) {
			r->ret = -1;
			return;
		}
		if (!c->files.nr) {
			c->skipped = seed_no_mutant_reason(c);
			if (seed_store_change_end(r->o->store, r->o->experiment, c) < 0)
				r->ret = -1;
			continue;
		}
		if (worktree_pool_checkout(r->pool, sl->k, c->commit->sha, &sl->tree) < 0) {
			r->ret = -1;
			return;
		}
		for (size_t i = 0; i < c->subset.nr; i++)
			strbuf_addf(&ids, "%s\n", c->subset.items[i]);
		if (write_text(sl->ids, ids.buf, ids.len, 0) < 0)
			r->ret = -1;
		strbuf_release(&ids);
		sl->c = c;
		sl->build_s = NAN;
		if (!r->ret)
			start_step(r, sl, r->o->build_cmd ? ST_BASE_BUILD :
				   c->subset.nr ? ST_BASE_SUBSET : ST_BASE_FULL);
		return;
	}
}

static void base_done(struct runner *r, struct slot *sl, bool passed, int status,
		      bool timed_out, double secs)
{
	struct seed_change *c = sl->c;

	if (sl->step == ST_BASE_BUILD)
		sl->build_s = secs;
	else if (sl->step == ST_BASE_SUBSET)
		c->subset_s = secs;
	else
		c->full_s = secs;
	if (passed && sl->step == ST_BASE_FULL)
		seed_coverage_read(sl->cov, sl->tree, &c->cov);
	if (!passed)
		skip_change(r, sl, status, timed_out);
	else if (sl->step == ST_BASE_BUILD)
		start_step(r, sl, c->subset.nr ? ST_BASE_SUBSET : ST_BASE_FULL);
	else if (sl->step == ST_BASE_SUBSET)
		start_step(r, sl, ST_BASE_FULL);
	else if (worktree_pool_reset(r->pool, sl->k) < 0)
		r->ret = -1; /* what the clean runs left is gone before the first mutant */
	else
		next_mutant(r, sl);
}

static void invalid(struct runner *r, struct slot *sl, const char *what, int status,
		    bool timed_out)
{
	char *e = outcome_text(r, sl, status, timed_out), *why = xstrfmt("%s: %s", what, e);

	finish_mutant(r, sl, SEED_INVALID, false, why);
	free(e);
	free(why);
}

static void tests_done(struct runner *r, struct slot *sl, bool passed, int status,
		       bool timed_out, double secs)
{
	bool subset = sl->step == ST_SUBSET;

	if (subset)
		sl->subset_s = secs;
	else
		sl->full_s = secs;
	if (passed && subset)
		start_step(r, sl, ST_FULL);
	else if (passed)
		finish_mutant(r, sl, SEED_NONE, false, NULL);
	else if (!timed_out && invalid_exit(r->o, status))
		invalid(r, sl, subset ? "the subset did not load it" :
			"the full suite did not load it", status, false);
	else
		finish_mutant(r, sl, subset ? SEED_SUBSET : SEED_FULL, timed_out, NULL);
}

/* A step's process ended (or was stopped at its deadline): on to the next. */
static void step_done(struct runner *r, struct slot *sl, int status, bool timed_out)
{
	double secs = time_monotonic_s() - sl->started;
	bool passed = !timed_out && WIFEXITED(status) && !WEXITSTATUS(status);

	sl->pid = 0;
	switch (sl->step) {
	case ST_BASE_BUILD:
	case ST_BASE_SUBSET:
	case ST_BASE_FULL:
		base_done(r, sl, passed, status, timed_out, secs);
		break;
	case ST_REACH:
		if (answer_reaches(r, sl, status, timed_out)) {
			sl->c->reached++;
			sl->c->done[sl->file] = true;
			restore(r, sl);
			next_mutant(r, sl);
		} else {
			start_tests(r, sl);
		}
		break;
	case ST_BUILD:
		if (passed)
			start_step(r, sl, sl->c->subset.nr ? ST_SUBSET : ST_FULL);
		else
			invalid(r, sl, "the build failed", status, timed_out);
		break;
	case ST_SUBSET:
	case ST_FULL:
		tests_done(r, sl, passed, status, timed_out, secs);
		break;
	}
}

/* ---- the loop ---- */

static void stop_slot(struct runner *r, struct slot *sl)
{
	int status;

	if (sl->pid) {
		kill(-sl->pid, SIGKILL);
		kill(sl->pid, SIGKILL);
		while (waitpid(sl->pid, &status, 0) < 0 && errno == EINTR)
			;
		sl->pid = 0;
	}
	if (sl->path)
		restore(r, sl);
	/* A change stopped half way keeps its counters. */
	if (sl->c && seed_store_change_end(r->o->store, r->o->experiment, sl->c) < 0)
		r->ret = -1;
	sl->c = NULL;
}

/* Reap what ended and stop what ran past its deadline. */
static void reap(struct runner *r)
{
	double now = time_monotonic_s();

	for (int k = 0; k < r->width && !r->ret; k++) {
		struct slot *sl = &r->slots[k];
		int status = 0;
		pid_t w;

		if (!sl->pid)
			continue;
		w = waitpid(sl->pid, &status, WNOHANG);
		if (w == sl->pid) {
			/* What it left running in its group goes with it. */
			kill(-sl->pid, SIGKILL);
			step_done(r, sl, status, false);
		} else if (w == 0 && now >= sl->deadline) {
			kill(-sl->pid, SIGKILL);
			kill(sl->pid, SIGKILL);
			while (waitpid(sl->pid, &status, 0) < 0 && errno == EINTR)
				;
			step_done(r, sl, status, true);
		} else if (w < 0 && errno != EINTR) {
			r->ret = error("cannot wait for %s: %s", step_what(sl->step),
				       strerror(errno));
		}
	}
}

static bool busy(const struct runner *r)
{
	for (int k = 0; k < r->width; k++)
		if (r->slots[k].pid)
			return true;
	return false;
}

static void wait_a_while(const struct runner *r, double budget_end)
{
	double now = time_monotonic_s(), until = budget_end;
	struct pollfd pfd = { spawn_watch_fd(), POLLIN, 0 };

	for (int k = 0; k < r->width; k++)
		if (r->slots[k].pid && r->slots[k].deadline < until)
			until = r->slots[k].deadline;
	if (until - now > 1)
		until = now + 1; /* a lost wake-up costs a second at most */
	if (poll(&pfd, pfd.fd >= 0 ? 1 : 0, until > now ? (int)((until - now) * 1000) + 1 : 0) > 0)
		spawn_watch_drain();
}

int seed_run(const struct seed_run_opts *o, struct seed_sample *s, enum seed_stop *stop)
{
	struct worktree_opts wo = { o->setup, o->scrub };
	struct runner r = { .o = o, .s = s, .width = o->jobs > 0 ? o->jobs : 1 };
	double budget_end;

	*stop = SEED_DONE;
	r.start = time_monotonic_s();
	budget_end = o->budget_ms ? r.start + (double)o->budget_ms / 1000 : INFINITY;
	if (make_dir(&r) < 0) {
		free(r.dir);
		return -1;
	}
	r.ops = seed_ops_new();
	r.slots = xcalloc((size_t)r.width, sizeof(*r.slots));
	for (int k = 0; k < r.width; k++) {
		r.slots[k].k = (size_t)k;
		r.slots[k].original = (struct strbuf)STRBUF_INIT;
		slot_files(&r, &r.slots[k]);
	}
	spawn_watch(true);
	if (worktree_pool_open(&r.pool, o->repo, (size_t)r.width, &wo) < 0)
		r.ret = -1;
	for (int k = 0; k < r.width && !r.ret; k++)
		take_change(&r, &r.slots[k]);
	while (!r.ret && busy(&r)) {
		wait_a_while(&r, budget_end);
		if (spawn_watch_signal()) {
			*stop = SEED_INTERRUPTED;
			break;
		}
		if (time_monotonic_s() >= budget_end) {
			*stop = SEED_BUDGET;
			break;
		}
		reap(&r);
		/* A change that ended without a run hands its slot on. */
		for (int k = 0; k < r.width && !r.ret; k++)
			if (!r.slots[k].c)
				take_change(&r, &r.slots[k]);
	}
	for (int k = 0; k < r.width; k++)
		stop_slot(&r, &r.slots[k]);
	worktree_pool_close(r.pool);
	spawn_watch(false);
	if (o->progress)
		fputs("\r\033[K", stderr);
	for (int k = 0; k < r.width; k++) {
		struct slot *sl = &r.slots[k];

		free(sl->ids);
		free(sl->paths);
		free(sl->out);
		free(sl->log);
		free(sl->junit);
		free(sl->cov);
		drop_mutant(sl);
	}
	seed_ops_free(r.ops);
	free(r.slots);
	remove_flat_dir(r.dir);
	{
		char *base = path_dirname(r.dir);

		rmdir(base); /* when no other run uses it */
		free(base);
	}
	free(r.dir);
	return r.ret;
}
