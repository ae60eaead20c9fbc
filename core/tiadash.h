/* Umbrella header: every .c file of tiadash includes this first. */
#ifndef TIADASH_CORE_TIADASH_H
#define TIADASH_CORE_TIADASH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIADASH_VERSION "0.1.0"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ATTR_FORMAT(fmt, args) __attribute__((format(printf, fmt, args)))
#define ATTR_NORETURN __attribute__((noreturn))
#define UNUSED(x) ((void)(x))

/* Exit statuses of SPEC 8: 0 ok, 1 the check said no, 2 usage or input error. */
enum {
	EXIT_OKAY = 0,
	EXIT_CHECK_FAILED = 1,
	EXIT_INPUT_ERROR = 2,
};

#endif
