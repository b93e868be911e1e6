/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cgroup of its own for each run verify makes (engines/verify.c): the
 * run starts inside it, so whatever it leaves behind (a daemon that
 * forked away, a process of another session) is still found there,
 * named, and stopped before the next run. Without a writable cgroup v2
 * hierarchy a run is followed by its process group only, and that is
 * said.
 */
#ifndef CA_ENGINES_RUNBOX_H
#define CA_ENGINES_RUNBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct runbox {
	char dir[512];          /* the cgroup's directory, "" when there is none */
	char why_none[200];     /* why there is none */
};

/* A fresh cgroup below the caller's own, named after tag and n; 0, or -1
 * with b->why_none set (the run then goes without). */
int runbox_open(struct runbox *b, const char *tag, int n);

/* In the forked child, before exec: move into the box (and into a
 * process group of its own when there is no box). */
void runbox_enter(const struct runbox *b);

/* "PID (COMM), ..." of the processes in the box but skip (0: none), at
 * most eight, into buf; how many there are. */
size_t runbox_names(const struct runbox *b, pid_t skip, char *buf, size_t len);

/* Stop everything in the box (cgroup.kill, else SIGKILL to each; without a
 * box, the process group pgid) and wait, up to a few seconds, until it is
 * empty; 0 when it is. */
int runbox_kill(const struct runbox *b, pid_t pgid);

/* Remove the (empty) box. */
void runbox_close(struct runbox *b);

#endif
