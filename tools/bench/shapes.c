// SPDX-License-Identifier: GPL-2.0
/*
 * Shapes of capability checks that share one call-site cache tag (same
 * thread, syscall, user ip and first two arguments, capability, verdict)
 * but come from different kernel call sites, in an order chosen by a seed:
 * the test that the cache never counts a check at another call site
 * (tests/e2e/cache.bats) records it with the cache and with --exact-stacks
 * and compares every audited stack's count.
 *
 *   shapes SEED STEPS
 *
 * Each step is one of, drawn from the seed (rand_r):
 *   maps K     K more private writable mappings (each later fork/clone
 *              copies them: one noaudit CAP_SYS_ADMIN check each)
 *   syslog K   K klogctl(SIZE_BUFFER) calls (CAP_SYSLOG, do_syslog; the
 *              caller sets kernel.dmesg_restrict=1)
 *   set_tid K  K clone3() with set_tid (alloc_pid: CAP_CHECKPOINT_RESTORE,
 *              then CAP_SYS_ADMIN when that is denied), through the same
 *              clone_args buffer as the next two
 *   newuts K   K clone3() with CLONE_NEWUTS (copy_namespaces: CAP_SYS_ADMIN)
 *   plain K    K clone3() with neither (only the mm copy's noaudit checks)
 * The clone3() calls all pass the same two registers (the address of one
 * static clone_args and its size) from one syscall instruction. Prints
 * "steps=N checks_made=..." for the record; exit 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE_BUFFER 10

static struct clone_args args;   /* one buffer for every clone3() */
static pid_t want;

static long num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "shapes: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

/* No process or thread has pid: no /proc entry. Not kill(pid, 0), which
 * for another user's process makes a CAP_KILL check of its own. */
static bool pid_free(pid_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) && errno == ENOENT;
}

/*
 * A pid no process has. Below 300 (RESERVED_PIDS) once the kernel's pid
 * counter has passed it: fork() never gives those out again, so another
 * process forking meanwhile cannot take it before the clone3() (near the
 * top of the range it could: EEXIST). Else near the top.
 */
static pid_t free_pid(void)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
	long last = 0;
	pid_t pid;
	int i;

	if (f) {
		if (fscanf(f, "%ld", &last) != 1)
			last = 0;
		fclose(f);
	}
	if (last >= 300)
		for (i = 0; i < 298; i++) {
			pid = 299 - (getpid() + i) % 298;
			if (pid_free(pid))
				return pid;
		}
	for (pid = 30000 - (getpid() % 2000); pid > 300; pid--)
		if (pid_free(pid))
			return pid;
	return -1;
}

/* One clone3() through the shared buffer; the child exits at once. */
static int clone_once(uint64_t flags, bool set_tid)
{
	long r;

	memset(&args, 0, sizeof(args));
	args.flags = flags;
	args.exit_signal = SIGCHLD;
	if (set_tid) {
		want = free_pid();
		args.set_tid = (uint64_t)(uintptr_t)&want;
		args.set_tid_size = 1;
	}
	r = syscall(SYS_clone3, &args, sizeof(args));
	if (r == 0)
		_exit(0);
	if (r > 0)
		waitpid((pid_t)r, NULL, 0);
	return r < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int seed;
	long steps, i, k, j, maps = 0;
	static const char *const names[] = { "maps", "syslog", "set_tid", "newuts", "plain" };
	long done[5] = { 0 };

	if (argc != 3) {
		fprintf(stderr, "usage: shapes SEED STEPS\n");
		return 2;
	}
	seed = (unsigned int)num(argv[1]);
	steps = num(argv[2]);
	for (i = 0; i < steps; i++) {
		int op = rand_r(&seed) % 5;

		k = 1 + rand_r(&seed) % 40;
		switch (op) {
		case 0:
			for (j = 0; j < k && maps < 400; j++, maps++) {
				void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

				if (p == MAP_FAILED)
					return 1;
				*(volatile char *)p = 1;
				/* neighbours would merge into one mapping */
				if (mprotect(p, 4096, j & 1 ? PROT_READ : PROT_READ | PROT_WRITE))
					return 1;
			}
			break;
		case 1:
			for (j = 0; j < k; j++)
				klogctl(SIZE_BUFFER, NULL, 0);
			break;
		case 2:
			for (j = 0; j < k; j++)
				clone_once(0, true);
			break;
		case 3:
			for (j = 0; j < k; j++)
				clone_once(CLONE_NEWUTS, false);
			break;
		default:
			for (j = 0; j < k; j++)
				clone_once(0, false);
			break;
		}
		done[op] += k;
	}
	printf("steps=%ld", steps);
	for (i = 0; i < 5; i++)
		printf(" %s=%ld", names[i], done[i]);
	printf("\n");
	return 0;
}
