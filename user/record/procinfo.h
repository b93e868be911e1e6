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
	uint64_t start_ticks;   /* /proc/PID/stat field 22: start, in clock ticks
				 * since boot (the kernel's start_boottime) */
	char comm[64];
	char exe[4096];   /* empty when unreadable (kernel thread, gone, no permission) */
};

/* 0 and *out filled, or -1 (errno ENOENT/ESRCH when it does not exist). */
int procinfo_read(pid_t pid, struct procinfo *out);
/*
 * The same, for one process only: 0 when /proc/PID is the process that
 * started at boot_ns (start_boottime) with name comm (NULL: any), -1 when
 * it is gone or another process now has the pid.
 */
int procinfo_read_exact(pid_t pid, uint64_t boot_ns, const char *comm, struct procinfo *out);

/* pid is a thread of another process (its Tgid is not pid). */
bool proc_is_thread(pid_t pid);
/* A pidfd for the process pid (pidfd_open(2), Linux 5.3+), or -1 with
 * errno (ESRCH: none). */
int pidfd_of(pid_t pid);
/* 1: the pidfd's process has not exited; 0: it has; -1: error. */
int pidfd_alive(int fd);

#endif
