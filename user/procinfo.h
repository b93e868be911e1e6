/* SPDX-License-Identifier: GPL-2.0 */
/* What /proc says about a live process. */
#ifndef CA_PROCINFO_H
#define CA_PROCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct procinfo {
	uint32_t pid, ppid, uid;
	char comm[64];
	char exe[4096];   /* empty when unreadable (kernel thread, gone, no permission) */
};

/* 0 and *out filled, or -1 (errno ENOENT/ESRCH when it does not exist). */
int procinfo_read(pid_t pid, struct procinfo *out);
/* Is pid a live process (thread-group leader)? */
bool proc_alive(pid_t pid);
/* Live descendants of root (not root itself); caller frees *out. */
size_t proc_descendants(pid_t root, pid_t **out);

#endif
