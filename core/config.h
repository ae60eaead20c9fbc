/*
 * The team's settings for a store: the file `config` beside the store (or
 * $TIADASH_CONFIG). Lines `key = value`, `#` comments. Keys:
 *   id-map = PATTERN => REPLACEMENT   (repeatable; core/idmatch.h)
 *   selector-scrub = NAME             (repeatable) an environment variable
 *                                     replay's selector must not see, besides
 *                                     the tokens (core/spawn.h)
 */
#ifndef TIADASH_CORE_CONFIG_H
#define TIADASH_CORE_CONFIG_H

#include "core/tiadash.h"
#include "core/idmatch.h"

struct config {
	char *path;          /* the file read, or NULL when there is none */
	struct idmap *idmap; /* NULL when no id-map rules */
	struct strlist selector_scrub;
};
#define CONFIG_INIT { NULL, NULL, STRLIST_INIT }

/*
 * Load the config for the store at db_path; a missing file is fine. -1 after
 * error(), with c released (nothing for the caller to free).
 */
int config_load(struct config *c, const char *db_path);
void config_release(struct config *c);

#endif
