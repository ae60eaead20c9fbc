/* HTTP(S) sources. */
#include "core/tiadash.h"
#include "ingest/ingest.h"

int ingest_url(struct ingest *ing, const char *url)
{
	ing->stats.sources++;
	ing->stats.failed++;
	return error("%s: HTTP(S) ingest is not built in yet", url);
}
