/* SPDX-License-Identifier: GPL-2.0 */
/* What record and monitor follow, read the same way by both: -p
 * PID[,PID...], --cgroup, --container, --unit. */
#ifndef CA_CLI_SCOPE_OPTS_H
#define CA_CLI_SCOPE_OPTS_H

#include "cli/options.h"
#include "record/record.h"

/* The option values of --cgroup, --container and --unit, the same in both
 * commands' tables (above any command's own long-only values). */
enum { O_SCOPE_CGROUP = CLI_LONG_ONLY + CLI_MAX_OPTS, O_SCOPE_CONTAINER, O_SCOPE_UNIT };

/* Add the PIDs of arg to o, each pinned by a pidfd now (a process that
 * exits before recording begins is not mistaken for the next one given
 * its pid); 0, or -1 after saying which PID is wrong. */
int parse_pid_list(struct rec_opts *o, const char *arg);

/* -p (c 'p') or one of --cgroup, --container, --unit (c O_SCOPE_*) with
 * its argument arg into o; 0, or -1 (said: a bad PID, or a second scope). */
int scope_opt(struct rec_opts *o, int c, const char *arg);

#endif
