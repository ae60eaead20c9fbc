/* Proposals: loading the current rules, and appending an accepted glob to the rules file (with undo). */
#include "core/tiadash.h"
#include "metrics/proposals.h"
#include "core/glob.h"
#include "adapters/adapter.h"
#include "core/timeutil.h"

#include <unistd.h>

/*
 * Where a glob appended to the first file lands: after that file's rules,
 * except in a .codebase-memory.json, where it goes last in
 * test_impact.rules (adapters/cbm.c), before codebase-memory-mcp's own
 * rules that rules_parse_cbm adds after the file's ("builtin:", "cbm:").
 */
static size_t insert_point(const struct rules *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const char *id = r->items[i].id;

		if (strcmp(r->items[i].source, r->items[0].source))
			break; /* the second file's first rule */
		if (starts_with(id, "builtin:") || starts_with(id, "cbm:"))
			break;
	}
	return i;
}

int proposals_rules_load(struct proposals_rules *out, const struct strlist *files,
			 const char *repo_path, bool builtin, bool new_target)
{
	unsigned flags = (builtin ? RULESET_BUILTIN : 0) | (new_target ? RULESET_NEW_FIRST : 0);

	memset(out, 0, sizeof(*out));
	out->builtin_candidates = builtin;
	if (ruleset_resolve(&out->set, files, repo_path, flags) < 0)
		return -1;
	if (out->set.files.nr) {
		out->target = xstrdup(out->set.files.items[0]);
		out->insert_at = insert_point(&out->set.effect);
	} else if (out->set.root) {
		/* None yet: an accepted glob starts .tiadash/rules. */
		out->target = path_join(out->set.root, ".tiadash/rules");
	}
	return 0;
}

void proposals_rules_release(struct proposals_rules *r)
{
	ruleset_release(&r->set);
	free(r->target);
	memset(r, 0, sizeof(*r));
}

void proposal_accept_release(struct proposal_accept *a)
{
	free(a->path);
	strbuf_release(&a->text);
	strbuf_release(&a->before);
	a->path = NULL;
	a->created = a->whole = false;
}

/* A selector's own configuration: its adapter plans and writes the edit. */
static int accept_native(const char *path, const char *glob, int64_t now,
			 struct proposal_accept *out)
{
	struct adapter_edit e = ADAPTER_EDIT_INIT;
	int ret = adapter_plan_add(path, glob, now, &e);

	if (!ret && e.present)
		ret = error("'%s' already forces a full run for '%s'", path, glob);
	if (!ret && !e.writable)
		ret = error("tiadash does not write %s configurations: 'tiadash rules "
			    "--add %s --into %s' prints what to add by hand",
			    e.adapter->name, glob, path);
	for (size_t i = 0; !ret && i < e.notes.nr; i++)
		note("%s: %s", path, e.notes.items[i]);
	if (!ret)
		ret = adapter_apply(&e);
	if (!ret) {
		out->path = xstrdup(path);
		out->whole = true;
		out->created = !e.exists;
		strbuf_add(&out->before, e.old_text.buf, e.old_text.len);
		strbuf_add(&out->text, e.new_text.buf, e.new_text.len);
	}
	adapter_edit_release(&e);
	return ret;
}

/* The PRs (then the commits) of list[idx[0..nr)]: "PR 434, 498", or "-". */
static void name_changes(struct strbuf *sb, const struct proposal_escape *list,
			 const size_t *idx, size_t nr)
{
	bool prs = false;

	for (size_t i = 0; i < nr; i++) {
		const struct proposal_escape *e = &list[idx[i]];

		if (!e->has_pr)
			continue;
		strbuf_addstr(sb, prs ? ", " : "PR ");
		strbuf_addf(sb, "%" PRId64, e->pr);
		prs = true;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct proposal_escape *e = &list[idx[i]];

		if (e->has_pr)
			continue;
		strbuf_addf(sb, "%scommit %.12s", prs ? ", " : "", e->sha);
		prs = true;
	}
	if (!prs)
		strbuf_addstr(sb, "-");
}

void proposals_name_escapes(struct strbuf *sb, const struct proposals *p,
			    const size_t *closes, size_t nr)
{
	name_changes(sb, p->escapes_list, closes, nr);
}

void proposals_name_evidence(struct strbuf *sb, const struct proposals *p,
			     const struct proposal *it)
{
	if (it->nr_closes || !it->nr_catches)
		name_changes(sb, p->escapes_list, it->closes, it->nr_closes);
	if (!it->nr_catches)
		return;
	strbuf_addstr(sb, it->nr_closes ? "; latent " : "latent ");
	name_changes(sb, p->latent_list, it->catches, it->nr_catches);
}

/* Does the line read back as exactly one run_all rule with this glob? */
static int check_line(const char *glob, const char *line)
{
	struct rules r = RULES_INIT;
	struct strbuf why = STRBUF_INIT;
	struct glob_set *gs = glob_set_new();
	int ret = 0;

	if (!*glob)
		ret = error("cannot accept an empty glob");
	if (!ret && *glob == '!')
		ret = error("'%s' would be a negation: write '\\!' for a literal '!'", glob);
	if (!ret && glob_set_add(gs, glob, 0, &why) < 0)
		ret = error("bad glob '%s': %s", glob, why.buf);
	glob_set_free(gs);
	if (!ret && (rules_parse_tiadash(&r, line, strlen(line), "(accepted glob)") < 0 ||
		     r.nr != 1 || r.items[0].action != RULE_RUN_ALL ||
		     strcmp(r.items[0].glob, glob)))
		ret = error("'%s' would not read back from a rule file as that "
			    "glob (escape blanks, a leading '#' or '!', and an "
			    "action word with '\\')", glob);
	rules_release(&r);
	strbuf_release(&why);
	return ret;
}

static int already_has(const char *path, const char *text, size_t len, const char *glob)
{
	struct rules r = RULES_INIT;
	int ret = 0;

	if (rules_parse_tiadash(&r, text, len, path) < 0) {
		rules_release(&r);
		return -1;
	}
	for (size_t i = 0; i < r.nr; i++)
		if (r.items[i].action == RULE_RUN_ALL && !strcmp(r.items[i].glob, glob))
			ret = error("'%s' already has '%s' (%s)", path, glob,
				    r.items[i].origin);
	rules_release(&r);
	return ret;
}

int proposals_accept(const char *rules_path, const char *glob,
		     const struct proposals *p, const size_t *closes,
		     size_t nr_closes, int64_t now, struct proposal_accept *out)
{
	struct team_file f = TEAM_FILE_INIT;
	struct strbuf line = STRBUF_INIT, whole = STRBUF_INIT;
	int variant, ret = -1;

	out->path = NULL;
	strbuf_reset(&out->text);
	strbuf_reset(&out->before);
	out->whole = false;
	if (team_file_open(&f, rules_path, 0) < 0)
		goto out;
	out->created = !f.exists;
	if (adapter_detect(rules_path, f.text.buf, f.text.len, &variant) != &adapter_lists) {
		/* The adapter's plan reads and locks the file again itself. */
		team_file_close(&f);
		ret = accept_native(rules_path, glob, now, out);
		goto out;
	}
	strbuf_addf(&line, "%s\n", glob);
	/* What no file may hold raw (controls, bidi, bad UTF-8): one refusal. */
	if ((*glob && adapter_check_glob(glob) < 0) || check_line(glob, line.buf) < 0 ||
	    (f.exists && already_has(rules_path, f.text.buf, f.text.len, glob) < 0))
		goto out;

	if (f.text.len && f.text.buf[f.text.len - 1] != '\n')
		strbuf_addch(&out->text, '\n');
	strbuf_addstr(&out->text, "# accepted ");
	time_format_date(&out->text, now);
	if (nr_closes) {
		strbuf_addstr(&out->text, nr_closes == 1 ? ": closes the escape of "
							 : ": closes escapes of ");
		proposals_name_escapes(&out->text, p, closes, nr_closes);
	} else if (!p) {
		strbuf_addstr(&out->text, ": no store, scored on no history");
	} else {
		strbuf_addstr(&out->text, ": closes no escape of the window");
	}
	strbuf_addstr(&out->text, " (tiadash propose)\n");
	strbuf_addstr(&out->text, line.buf);

	strbuf_add(&out->before, f.text.buf, f.text.len);
	strbuf_add(&whole, f.text.buf, f.text.len);
	strbuf_add(&whole, out->text.buf, out->text.len);
	if (team_file_replace(&f, whole.buf, whole.len) < 0)
		goto out;
	out->path = xstrdup(rules_path);
	ret = 0;
out:
	team_file_close(&f);
	strbuf_release(&line);
	strbuf_release(&whole);
	return ret;
}

int proposals_undo_accept(const struct proposal_accept *a)
{
	struct team_file f = TEAM_FILE_INIT;
	const struct strbuf *cur = &f.text;
	int ret = -1;

	if (!a->path || !a->text.len)
		return error("nothing to undo");
	if (team_file_open(&f, a->path, 0) < 0)
		goto out;
	if (!f.exists || cur->len < a->text.len || (a->whole && cur->len != a->text.len) ||
	    memcmp(cur->buf + cur->len - a->text.len, a->text.buf, a->text.len)) {
		error("'%s' has changed since the glob was accepted: not undoing", a->path);
		goto out;
	}
	/* Through the same checked, locked, atomic replacement as the accept. */
	if (a->whole && !a->created)
		ret = team_file_replace(&f, a->before.buf, a->before.len);
	else if (a->created && cur->len == a->text.len)
		ret = team_file_remove(&f);
	else
		ret = team_file_replace(&f, cur->buf, cur->len - a->text.len);
out:
	team_file_close(&f);
	return ret;
}
