/* The per-store config file: id-map rules and other team settings. */
#include "core/tiadash.h"
#include "core/config.h"

#include <unistd.h>

static int apply(struct config *c, const char *key, const char *value, const char *where)
{
	if (!strcmp(key, "id-map")) {
		if (!c->idmap)
			c->idmap = idmap_new();
		return idmap_add_rule(c->idmap, value, where);
	}
	if (!strcmp(key, "selector-scrub")) {
		strlist_push(&c->selector_scrub, value);
		return 0;
	}
	return error("%s: unknown setting '%s'", where, key);
}

static int parse(struct config *c, char *text)
{
	int lineno = 0, ret = 0;
	char *next;

	for (char *line = text; line && !ret; line = next) {
		char *eq, *key, *value, *where;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = trim(line);
		if (!*line || *line == '#')
			continue;
		where = xstrfmt("%s:%d", c->path, lineno);
		eq = strchr(line, '=');
		if (!eq) {
			ret = error("%s: expected 'key = value'", where);
		} else {
			key = xstrdup_trimmed(line, (size_t)(eq - line));
			value = xstrdup_trimmed(eq + 1, strlen(eq + 1));
			ret = apply(c, key, value, where);
			free(key);
			free(value);
		}
		free(where);
	}
	return ret;
}

int config_load(struct config *c, const char *db_path)
{
	const char *env = getenv("TIADASH_CONFIG");
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (env && *env) {
		c->path = xstrdup(env);
	} else {
		char *dir = path_dirname(db_path ? db_path : ".");

		c->path = path_join(dir, "config");
		free(dir);
		if (access(c->path, F_OK) != 0) {
			free(c->path);
			c->path = NULL;
			return 0;
		}
	}
	ret = read_file_limit(&text, c->path, 1 << 20);
	if (!ret)
		ret = parse(c, text.buf);
	strbuf_release(&text);
	if (ret)
		config_release(c);
	return ret;
}

void config_release(struct config *c)
{
	idmap_free(c->idmap);
	free(c->path);
	strlist_release(&c->selector_scrub);
	c->idmap = NULL;
	c->path = NULL;
}
