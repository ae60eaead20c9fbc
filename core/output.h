/*
 * -o FILE (--output FILE): a command's standard output written to FILE,
 * atomically. Every command with --format takes it; the dispatcher begins
 * the redirection before the command runs and ends it after, so commands
 * only list OPT_OUTPUT() (core/options.h) in their option table.
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

/*
 * Colour in text output, as git's --color[=WHEN]: always, never, or auto
 * (the default): standard output a terminal, TERM set and not "dumb",
 * and NO_COLOR unset or empty. An explicit always or never wins.
 */
enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
/* WHEN of --color[=WHEN] (NULL: always); false when it is none of the three. */
bool color_parse(const char *when, enum color_when *out);
bool color_wanted(enum color_when when);
/* SGR sequences: a colour (e.g. COLOR_RED) and the reset, "" without colour. */
#define COLOR_RED "\033[31m"
#define COLOR_GREEN "\033[32m"
#define COLOR_YELLOW "\033[33m"
#define COLOR_BOLD_RED "\033[1;31m"
#define COLOR_BOLD_GREEN "\033[1;32m"
#define COLOR_RESET "\033[m"

#endif
