/*
 * -o FILE (--output FILE): a command's standard output written to FILE,
 * atomically. Every command with --format takes it; the dispatcher begins
 * the redirection before the command runs and ends it after, so commands
 * only list OUTPUT_OPTION (core/cli.h) and skip 'o' in their option loop.
 */
#ifndef TIADASH_CORE_OUTPUT_H
#define TIADASH_CORE_OUTPUT_H

#include "core/tiadash.h"

/*
 * Send standard output to a temporary file beside `path` (same directory,
 * so the final rename is atomic). "-" means standard output itself. A pipe
 * (a FIFO, the /dev/fd/N of `-o >(cmd)`) or a terminal is written
 * straight, as a shell's `>` would. A symbolic link and anything else that
 * is not a regular file (a device, a socket) are refused ("'PATH' is a
 * symbolic link: refused, nothing written"): the rename would put a
 * regular file in its place. Returns 0, or -1 after error() naming the
 * file.
 */
int output_begin(const char *path);

/* Is standard output going to an -o file? */
bool output_active(void);

/*
 * End the redirection and give the command's exit status. The temporary
 * file is renamed onto the target only when the command succeeded or said
 * no (status 0 or 1) and every byte was written (write_errno 0: the errno
 * of a failed write or flush otherwise); else it is removed and the target
 * stays as it was; after the rename the directory is synced. A failure to
 * write or rename is reported naming the target and gives status 2.
 */
int output_end(int status, int write_errno);

#endif
