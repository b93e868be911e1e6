/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This process's descendants, found by their parents in /proc, and stopped
 * wherever they went: another cgroup, a session or process group of their
 * own. A process that called proctree_subreaper() keeps every process it
 * started among its descendants for as long as it lives: when one exits,
 * its orphans go to the nearest ancestor that is a child subreaper, not to
 * init (kernel/exit.c find_new_reaper()), and no process can leave the
 * tree otherwise.
 */
#ifndef CA_LIB_PROCTREE_H
#define CA_LIB_PROCTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proctree_proc {
	pid_t pid, ppid;
	uint64_t start_ticks;    /* /proc/PID/stat field 22 */
	bool own_exe;            /* it runs this program's executable */
	char comm[17];
};

/* PR_SET_CHILD_SUBREAPER: 0, or -1 with errno. */
int proctree_subreaper(void);

/*
 * The descendants of this process that still run (zombies left out), in
 * /proc order, none of skip[] nor below them: their number, the list in
 * *out (free() it; NULL when there is none).
 */
size_t proctree_list(const pid_t *skip, size_t nskip, struct proctree_proc **out);

/*
 * SIGKILL each descendant (but skip[] and those below them) until none is
 * left or about five seconds have passed: each through a pidfd opened
 * while /proc still shows it as found (same start time, a parent in the
 * tree), so that a pid reused meanwhile is never signalled. Orphans of a
 * killed process come back to the caller if it is a subreaper, and are
 * killed in the next round. The processes it found, at most max into
 * found[] (may be NULL), their number in *nfound (may be NULL); 0 when
 * none is left, -1 otherwise (errno: EPERM when the kernel refused a
 * signal, ETIMEDOUT).
 */
int proctree_kill(const pid_t *skip, size_t nskip, struct proctree_proc *found, size_t max,
		  size_t *nfound);

/* "PID (COMM), ..." of at most eight of p[0..n), ", ..." after them. */
void proctree_names(const struct proctree_proc *p, size_t n, char *buf, size_t len);

#endif
