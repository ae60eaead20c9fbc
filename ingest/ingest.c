/* Finding sources: manifests, indexes and directories on disk. */
#include "core/tiadash.h"
#include "ingest/ingest.h"
#include "ingest/http.h"

#include <dirent.h>
#include <sys/stat.h>

/* Manifests and indexes are small; anything bigger is not one. */
#define MANIFEST_LIMIT (64u << 20)

void ingest_init(struct ingest *ing, struct store *s, struct repo *r, int64_t now)
{
	memset(ing, 0, sizeof(*ing));
	ing->store = s;
	ing->repo = r;
	ing->now = now;
}

void ingest_release(struct ingest *ing)
{
	http_client_free(ing->http);
	ing->http = NULL;
	strmap_clear(&ing->seen);
}

static bool is_url(const char *s)
{
	return starts_with(s, "http://") || starts_with(s, "https://");
}

/* The canonical name of a file source, so the same file is not read twice. */
static char *canonical(const char *path)
{
	char *real = realpath(path, NULL);

	return real ? real : xstrdup(path);
}

static bool already_seen(struct ingest *ing, const char *uri)
{
	bool added;

	strmap_intern(&ing->seen, uri, strlen(uri), 0, &added);
	return !added;
}

static int ingest_manifest_text(struct ingest *ing, const char *path,
				const struct strbuf *text)
{
	struct run_source rs;
	char *dir;
	int ret;

	run_source_init(&rs);
	rs.uri = canonical(path);
	if (already_seen(ing, rs.uri)) {
		run_source_release(&rs);
		return 0;
	}
	run_source_set_head(&rs, text->buf, text->len);
	if (manifest_parse(text->buf, text->len, path, &rs.m) < 0) {
		ing->stats.sources++;
		ing->stats.failed++;
		run_source_release(&rs);
		return -1;
	}
	dir = path_dirname(path);
	ret = run_source_open_refs(&rs, dir);
	if (!ret)
		ret = ingest_run(ing, &rs);
	free(dir);
	run_source_release(&rs);
	return ret;
}

static int ingest_index(struct ingest *ing, const char *path, const struct strbuf *text)
{
	struct strlist runs = STRLIST_INIT;
	char *dir;
	int ret = 0;

	if (index_parse(text->buf, text->len, path, &runs) < 0)
		return -1;
	dir = path_dirname(path);
	for (size_t i = 0; i < runs.nr; i++) {
		const char *ref = runs.items[i];
		char *target;

		if (is_url(ref)) {
			/* A file names no trusted origin: no token for its URLs. */
			ret |= ingest_url_untrusted(ing, ref);
			continue;
		}
		if (!path_is_contained(ref)) {
			ret = error("%s: run '%s' is not a relative path inside the "
				    "index's directory", path, ref);
			continue;
		}
		target = path_join(dir, ref);
		ret |= ingest_path(ing, target);
		free(target);
	}
	free(dir);
	strlist_release(&runs);
	return ret ? -1 : 0;
}

static int ingest_json_file(struct ingest *ing, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (read_file_limit(&text, path, MANIFEST_LIMIT) < 0) {
		ing->stats.sources++;
		ing->stats.failed++;
		return -1;
	}
	switch (manifest_sniff(text.buf, text.len)) {
	case JSON_INDEX:
		ret = ingest_index(ing, path, &text);
		break;
	case JSON_MANIFEST:
		ret = ingest_manifest_text(ing, path, &text);
		break;
	default:
		ing->stats.sources++;
		ing->stats.failed++;
		ret = error("%s: neither a run manifest (tiadash.run.v1) nor an "
			    "index (tiadash.index.v1); to ingest bare files give "
			    "--kind and --head", path);
	}
	strbuf_release(&text);
	return ret;
}

static bool is_manifest_name(const char *name)
{
	return !strcmp(name, "tiadash-run.json") || ends_with(name, ".tiadash.json");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Manifests below dir, depth first, in name order (so runs ingest in a fixed order). */
static int walk(struct ingest *ing, const char *dir, int *found)
{
	struct strlist names = STRLIST_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return error("cannot read directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, ".git"))
			strlist_push(&names, e->d_name);
	closedir(d);
	qsort(names.items, names.nr, sizeof(*names.items), cmp_names);
	for (size_t i = 0; i < names.nr; i++) {
		char *path = path_join(dir, names.items[i]);
		struct stat st;

		/* lstat: never follow a symlinked directory (no loops). */
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			ret |= walk(ing, path, found);
		} else if (is_manifest_name(names.items[i])) {
			(*found)++;
			ret |= ingest_json_file(ing, path);
		}
		free(path);
	}
	strlist_release(&names);
	return ret ? -1 : 0;
}

int ingest_path(struct ingest *ing, const char *path)
{
	struct stat st;
	int found = 0, ret;

	if (is_url(path))
		return ingest_url(ing, path);
	if (stat(path, &st) < 0) {
		ing->stats.sources++;
		ing->stats.failed++;
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return ingest_json_file(ing, path);
	ret = walk(ing, path, &found);
	if (!found)
		warning("no run manifests (*.tiadash.json, tiadash-run.json) "
			"below '%s'", path);
	return ret;
}
