/* SPDX-License-Identifier: GPL-2.0 */
/* -p PID[,PID...]: read the same way by record and monitor. */
#ifndef CA_CLI_PID_OPTS_H
#define CA_CLI_PID_OPTS_H

#include "record/record.h"

/* Add the PIDs of arg to o, each pinned by a pidfd now (a process that
 * exits before recording begins is not mistaken for the next one given
 * its pid); 0, or -1 after saying which PID is wrong. */
int parse_pid_list(struct rec_opts *o, const char *arg);

#endif
