/* The rules in effect for a repository and the built-in candidates beside them: the one resolver every view uses. */
#include "core/tiadash.h"
#include "adapters/ruleset.h"
#include "adapters/adapter.h"
#include "core/repo.h"
#include "core/json.h"
#include "core/table.h"

#include <sys/stat.h>
#include <unistd.h>

int rules_load_file(struct rules *r, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ret;

	/* A FIFO would block until a writer comes (/dev/null, empty rules, is fine). */
	if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return error("'%s' is %s, not a regular file: refused, as reading it "
			     "could block or never end", path, file_type_name(st.st_mode));
	if (read_file_limit(&sb, path, 16 << 20) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	/* Whose file it is decides how it reads. */
	ret = adapter_read_rules(r, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

/*
 * The files a repository's selectors read, found at its root: each
 * adapter's first configuration that exists, then .tiadash/rules (the
 * lists adapter's, last in the table).
 */
static void find_configs(const char *root, struct strlist *out)
{
	for (size_t i = 0; i < adapters_nr; i++) {
		const struct adapter *a = adapters[i];

		for (size_t k = 0; a->config_files && a->config_files[k]; k++) {
			char *path = path_join(root, a->config_files[k]);
			bool there = access(path, F_OK) == 0;

			if (there)
				strlist_push(out, path);
			free(path);
			if (there)
				break;
		}
	}
}

int ruleset_load_file(struct rules *r, const char *path, const char *root, bool skip)
{
	size_t from = r->nr;
	const char *below = root ? path_below(root, path) : NULL;

	if (!skip && rules_load_file(r, path) < 0)
		return -1;
	rules_set_source(r, from, below ? below : path);
	return 0;
}

static int load_effect(struct ruleset *s, const char *path, bool skip)
{
	if (ruleset_load_file(&s->effect, path, s->root, skip) < 0)
		return -1;
	strlist_push(&s->files, path);
	return 0;
}

int ruleset_resolve(struct ruleset *out, const struct strlist *files,
		    const char *repo_path, unsigned flags)
{
	struct strlist found = STRLIST_INIT;
	const struct strlist *read = files && files->nr ? files : &found;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->root = repo_discover_root(repo_path);
	if (read == &found && out->root)
		find_configs(out->root, &found);
	for (size_t i = 0; i < read->nr && !ret; i++)
		ret = load_effect(out, read->items[i], read == files && !i &&
				  (flags & RULESET_NEW_FIRST) &&
				  access(read->items[0], F_OK) != 0);
	strlist_release(&found);
	if (!ret && (flags & RULESET_BUILTIN))
		rules_add_builtin(&out->builtin);
	if (!ret)
		ret = rules_compile(&out->effect);
	if (!ret)
		ret = rules_compile(&out->builtin);
	return ret;
}

void ruleset_release(struct ruleset *s)
{
	rules_release(&s->effect);
	rules_release(&s->builtin);
	strlist_release(&s->files);
	free(s->root);
	memset(s, 0, sizeof(*s));
}

const struct rule *ruleset_match(const struct ruleset *s, const char *path,
				 bool *suggested, bool *failed)
{
	int m = rules_match(&s->effect, path);

	*suggested = *failed = false;
	if (m == RULES_MATCH_ERROR) {
		*failed = true;
		return NULL;
	}
	if (m >= 0)
		return &s->effect.items[m];
	m = s->builtin.nr ? rules_match(&s->builtin, path) : -1;
	if (m < 0)
		return NULL; /* a built-in that fails to match suggests nothing */
	*suggested = true;
	return &s->builtin.items[m];
}

void ruleset_path_text(const struct ruleset *s, const char *path, struct strbuf *out)
{
	bool suggested, failed;
	const struct rule *x = ruleset_match(s, path, &suggested, &failed);

	if (failed) {
		strbuf_addstr(out, "rule matcher failed: run_all");
		return;
	}
	if (!x || suggested)
		strbuf_addstr(out, x ? "no rule; " : "no rule");
	if (x)
		rules_describe(x, out);
}

/* The three facts of ruleset_path_json; label holds rule_source's text. */
static void path_facts(const struct ruleset *s, const char *path, const char **rule,
		       struct strbuf *label, const char **suggested_rule)
{
	bool suggested, failed;
	const struct rule *x = ruleset_match(s, path, &suggested, &failed);

	if (x && !suggested)
		rules_label(x, label);
	*rule = failed ? "(rule matcher failed: run_all)" : x && !suggested ? x->name : NULL;
	*suggested_rule = suggested ? x->name : NULL;
}

void ruleset_path_json(const struct ruleset *s, const char *path, cJSON *o)
{
	const char *rule, *suggested;
	struct strbuf label = STRBUF_INIT;

	path_facts(s, path, &rule, &label, &suggested);
	json_add_string_or_null(o, "rule", rule);
	json_add_string_or_null(o, "rule_source", label.len ? label.buf : NULL);
	json_add_string_or_null(o, "suggested", suggested);
	strbuf_release(&label);
}

void ruleset_path_cells(const struct ruleset *s, const char *path, struct table *t)
{
	const char *rule, *suggested;
	struct strbuf label = STRBUF_INIT;

	path_facts(s, path, &rule, &label, &suggested);
	table_str(t, rule);
	table_str(t, label.len ? label.buf : NULL);
	table_str(t, suggested);
	strbuf_release(&label);
}
