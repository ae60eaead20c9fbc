/* Every command tiadash has, each defined in its module. */
#ifndef TIADASH_CORE_COMMANDS_H
#define TIADASH_CORE_COMMANDS_H

#include "core/cli.h"

extern const struct cmd cmd_init;     /* core/cmd_store.c */
extern const struct cmd cmd_status;   /* core/cmd_store.c */
extern const struct cmd cmd_diff;     /* core/cmd_diff.c */
extern const struct cmd cmd_ingest;   /* ingest/cmd_ingest.c */
extern const struct cmd cmd_record;   /* ingest/cmd_record.c */
extern const struct cmd cmd_show;     /* metrics/cmd_show.c */
extern const struct cmd cmd_report;   /* metrics/cmd_report.c */
extern const struct cmd cmd_gate_check; /* metrics/cmd_gate_check.c */
extern const struct cmd cmd_summary;  /* metrics/cmd_summary.c */
extern const struct cmd cmd_queue;    /* metrics/cmd_queue.c */
extern const struct cmd cmd_tests;    /* metrics/cmd_tests.c */
extern const struct cmd cmd_propose;  /* metrics/cmd_propose.c */
extern const struct cmd cmd_tui;      /* tui/tui.c */
extern const struct cmd cmd_help;     /* core/dispatch.c */
extern const struct cmd cmd_version;  /* core/dispatch.c */
extern const struct cmd cmd_rules; extern const struct cmd cmd_replay; /* replay/ */
extern const struct cmd cmd_seed;     /* seed/cmd_seed.c */

#endif
