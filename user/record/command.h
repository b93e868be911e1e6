/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command under audit (command.c), inside the record layer: started
 * stopped, released once the hooks follow it, reaped.
 */
#ifndef CA_RECORD_COMMAND_H
#define CA_RECORD_COMMAND_H

#include <stdbool.h>
#include <sys/types.h>

#include "record/launch.h"

/* What the command's child tells the recorder through its close-on-exec
 * pipe. */
enum child_msg { CHILD_READY = 1, CHILD_LAUNCH_FAILED, CHILD_EXEC_FAILED };

struct child_report {
	int msg;                 /* enum child_msg */
	int err;                 /* errno */
	char stage[64];          /* launch_apply's failing step */
};

pid_t spawn_stopped(char **cmd, const struct launch *l, bool stdout_taken, int *go_fd,
		    int *msg_fd);
ssize_t read_report(int fd, struct child_report *r);
/* child, once it has ended: *done, and its wait status in *status */
void reap_child(pid_t child, bool *done, int *status);
/* The same, and every other child of ours that has exited but keep (the
 * output keeper, reaped at its own end): the orphans of the command's
 * processes, ours as their subreaper (rec_opts.stop_started). */
void reap_children(pid_t child, pid_t keep, bool *done, int *status);
int status_to_exit(int st);

#endif
