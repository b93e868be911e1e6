// SPDX-License-Identifier: GPL-2.0
/*
 * Choose the PID of a new process, the two ways CRIU restores PIDs and the
 * two operations CAP_CHECKPOINT_RESTORE (first proposed as CAP_RESTORE) was
 * made for (cf. the test programs of the CAP_RESTORE patch):
 *
 *   set-pid clone3 [PID]       clone3() with set_tid = PID
 *   set-pid ns_last_pid [PID]  write PID-1 to /proc/sys/kernel/ns_last_pid, fork
 *   set-pid clone3-loop N      N times clone3() with set_tid, each to a free PID
 *
 * Without PID, a free PID is used: for clone3 one below 300, which no
 * fork() gives out once the kernel's pid counter has passed 300, so other
 * processes forking meanwhile cannot take it; for ns_last_pid one near the
 * top of the range, chosen again (up to 10 times) when a process forking
 * elsewhere took it between the write and the fork. Exit 0 when the child
 * got the PID, 1 when the kernel refused or it went to another process, 2
 * on usage errors.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* include/linux/pid.h: once the kernel's pid counter has passed it, fork()
 * gives out pids from here up only (alloc_pid() wraps to it) */
#define RESERVED_PIDS 300

/* No process or thread has pid. Asked of /proc, not kill(pid, 0): for
 * another user's process that makes a CAP_KILL check (granted to root,
 * denied to others), which would be counted as this program's. */
static int pid_free(long pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	return stat(path, &st) && errno == ENOENT;
}

/* The pid the kernel gave out last (its counter, minus one). */
static long last_pid(void)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
	long last = 0;

	if (f) {
		if (fscanf(f, "%ld", &last) != 1)
			last = 0;
		fclose(f);
	}
	return last;
}

/*
 * A free pid to ask for. For clone3 (low), one below RESERVED_PIDS when the
 * counter has passed it: no fork() takes such a pid, so no other process
 * can take it between this choice and the clone3() (near the top of the
 * range, a host forking through the whole range did, and clone3() failed
 * with EEXIST). Only set_tid or ns_last_pid, as here, give those out. For
 * ns_last_pid, and when the counter is still low (a new pid namespace),
 * one near the top: writing a low pid would send every fork of the host
 * back below RESERVED_PIDS.
 */
static pid_t free_pid(int low)
{
	FILE *f;
	long max = 32768, pid, i;

	if (low && last_pid() >= RESERVED_PIDS)
		for (i = 0; i < RESERVED_PIDS - 2; i++) {
			pid = RESERVED_PIDS - 1 - (getpid() + i) % (RESERVED_PIDS - 2);
			if (pid_free(pid))
				return (pid_t)pid;
		}
	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 32768;
		fclose(f);
	}
	for (pid = max - 1000 - (getpid() % 1000); pid > RESERVED_PIDS; pid--)
		if (pid_free(pid))
			return (pid_t)pid;
	return -1;
}

/* The kernel took the write, but a process forking elsewhere on the host
 * between it and our fork() was given the pid. */
#define GOT_OTHER 3
/* times a free pid is chosen again after GOT_OTHER */
#define NS_LAST_PID_TRIES 10

static int check_child(pid_t got, pid_t want)
{
	if (got < 0) {
		printf("set-pid: %s\n", strerror(errno));
		return 1;
	}
	if (got == 0)
		_exit(0);
	waitpid(got, NULL, 0);
	printf("set-pid: child got pid %d (wanted %d)\n", (int)got, (int)want);
	return got == want ? 0 : GOT_OTHER;
}

static int by_clone3(pid_t want)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&want;
	args.set_tid_size = 1;
	return check_child((pid_t)syscall(SYS_clone3, &args, sizeof(args)), want);
}

static int by_ns_last_pid(pid_t want)
{
	char buf[32];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_RDWR), n, rc;

	if (fd < 0 || flock(fd, LOCK_EX)) {
		printf("set-pid: ns_last_pid: %s\n", strerror(errno));
		return 1;
	}
	n = snprintf(buf, sizeof(buf), "%d", (int)want - 1);
	if (write(fd, buf, (size_t)n) != n) {
		printf("set-pid: write ns_last_pid: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	rc = check_child(fork(), want);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	pid_t want;
	char *end;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "clone3-loop")) {
		long n = strtol(argv[2], &end, 10), i;
		int failed = 0;

		if (*end || n < 1) {
			fprintf(stderr, "set-pid: invalid count '%s'\n", argv[2]);
			return 2;
		}
		for (i = 0; i < n && !failed; i++) {
			if ((want = free_pid(1)) < 0)
				return 1;
			failed = by_clone3(want);
		}
		return failed ? 1 : 0;
	}
	if (argc < 2 || argc > 3 || (strcmp(argv[1], "clone3") && strcmp(argv[1], "ns_last_pid"))) {
		fprintf(stderr, "usage: set-pid clone3|ns_last_pid [PID] | clone3-loop N\n");
		return 2;
	}
	if (argc == 3) {
		errno = 0;
		want = (pid_t)strtol(argv[2], &end, 10);
		if (errno || *end || want < 2) {
			fprintf(stderr, "set-pid: invalid PID '%s'\n", argv[2]);
			return 2;
		}
	} else if ((want = free_pid(strcmp(argv[1], "ns_last_pid") != 0)) < 0) {
		fprintf(stderr, "set-pid: no free PID found\n");
		return 1;
	}
	if (!strcmp(argv[1], "clone3"))
		return by_clone3(want) ? 1 : 0;
	/* a pid of our own choosing is chosen again when another process took
	 * it: the write (the capability check) is what callers record */
	for (int i = 0; i < NS_LAST_PID_TRIES; i++) {
		int rc = by_ns_last_pid(want);

		if (rc != GOT_OTHER || argc == 3)
			return rc ? 1 : 0;
		if ((want = free_pid(0)) < 0)
			break;
	}
	return 1;
}
