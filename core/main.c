/* tiadash: shadow-run calibration for test-impact analysis. */
#include "core/tiadash.h"
#include "core/cli.h"

#include <signal.h>

int main(int argc, char **argv)
{
	/* A closed pipe (tiadash report | head) is a write error, not a kill. */
	signal(SIGPIPE, SIG_IGN);
	return tiadash_main(argc, argv);
}
