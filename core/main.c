/* tiadash: shadow-run calibration for test-impact analysis. */
#include "core/tiadash.h"
#include "core/cli.h"

#include <signal.h>

int main(int argc, char **argv)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN };

	/*
	 * A closed pipe (tiadash report | head) is a write error, not a kill.
	 * `record` gives the job it runs the disposition tiadash started with.
	 */
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, &sigpipe_at_start);
	return tiadash_main(argc, argv);
}
