/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cgroup of its own for each run verify makes (engines/verify.c): the
 * run starts inside it, so whatever it leaves behind (a daemon that
 * forked away, a process of another session) is still found there,
 * named, and stopped before the next run. A run may leave its cgroup: a
 * command as uid 0 owns every cgroup's cgroup.procs, and may write itself
 * into any of them without a capability (kernel/cgroup/cgroup.c
 * cgroup_procs_write_permission(): write access to the destination's and
 * the common ancestor's cgroup.procs; refused only across a cgroup
 * namespace where cgroup2 is mounted with nsdelegate). So verify is also
 * its runs' child subreaper (lib/proctree.h): what moved out is still its
 * descendant, and is found, named and stopped with the rest. Without a
 * writable cgroup v2 hierarchy a run is followed by its process group and
 * that tree, and that is said.
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

/* The run's processes that still run, in the box or anywhere below this
 * process (its descendants: a subreaper's, whatever cgroup they moved
 * to), but the run itself (capaudit run, pid run; 0: none) and capaudit's
 * own helpers (its output keeper): "PID (COMM), ..." of at most eight
 * into buf; how many there are. */
size_t runbox_left(const struct runbox *b, pid_t run, char *buf, size_t len);

/* Stop everything in the box (cgroup.kill, else SIGKILL to each; without a
 * box, the process group pgid) and every descendant of this process
 * (lib/proctree.h), and wait, up to a few seconds, until none is left; 0
 * when none is. */
int runbox_kill(const struct runbox *b, pid_t pgid);

/* Reap this process's exited children (orphans a subreaper took on among
 * them): run's status into *st when it is one of them; run when it was, 0
 * when it still runs, -1 with errno (ECHILD: it is not a child). */
pid_t runbox_reap(pid_t run, int *st);

/* Remove the (empty) box. */
void runbox_close(struct runbox *b);

#endif
