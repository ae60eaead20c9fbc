/* tiadash: shadow-run calibration for test-impact analysis. */
#include "core/tiadash.h"
#include "core/cli.h"

#include <malloc.h>
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
	/*
	 * glibc gives the top of the heap back above a threshold that moves
	 * with what was freed before, so ingest's speed hung on what ran
	 * first: without libgit2's CA bundle parsed before it, its parser
	 * threads shrank and regrew the heap 5,500 times for 10^6 rows (each
	 * shrink a TLB flush on every CPU), 1.6 s instead of 1.0. A fixed
	 * threshold: at most 4 MiB kept. (Only a NO_MIMALLOC=1 build's malloc
	 * is glibc's: see the Makefile.)
	 */
	mallopt(M_TRIM_THRESHOLD, 4 << 20);
	return tiadash_main(argc, argv);
}
