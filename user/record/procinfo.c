// SPDX-License-Identifier: GPL-2.0
#include "record/procinfo.h"

#include <errno.h>
#include <poll.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int procinfo_read(pid_t pid, struct procinfo *out)
{
	char path[64], status[4096], *p;
	ssize_t n;
	unsigned tgid = 0;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_file(path, status, sizeof(status)))
		return -1;
	p = strstr(status, "\nTgid:");
	if (p)
		sscanf(p, "\nTgid: %u", &tgid);
	if (tgid != (unsigned)pid) {   /* a thread id, not a process */
		errno = ESRCH;
		return -1;
	}
	out->pid = (uint32_t)pid;
	p = strstr(status, "\nPPid:");
	if (p)
		sscanf(p, "\nPPid: %u", &out->ppid);
	p = strstr(status, "\nUid:");
	if (p)
		sscanf(p, "\nUid: %u", &out->uid);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!read_file(path, status, sizeof(status)) && (p = strrchr(status, ')'))) {
		unsigned long long v;
		int field = 2;   /* ")" ends field 2, comm */
		char *end;

		for (p++; *p && field < 22; p++)
			if (*p == ' ')
				field++;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (field == 22 && end != p && !errno)
			out->start_ticks = v;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!read_file(path, out->comm, sizeof(out->comm)))
		out->comm[strcspn(out->comm, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, out->exe, sizeof(out->exe) - 1);
	out->exe[n > 0 ? n : 0] = '\0';
	return 0;
}

/* The clock ticks /proc shows for a start_boottime of ns. */
static uint64_t proc_boot_ticks(uint64_t ns)
{
	static long hz;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	/* nsec_to_clock_t() in kernel/time/time.c */
	return ns / (1000000000ULL / (uint64_t)hz);
}

int procinfo_read_exact(pid_t pid, uint64_t boot_ns, const char *comm, struct procinfo *out)
{
	if (procinfo_read(pid, out))
		return -1;
	/* the same start tick and name: a pid given out again within one
	 * tick to a process of the same name is all this cannot tell apart */
	if (out->start_ticks != proc_boot_ticks(boot_ns) || (comm && strcmp(comm, out->comm))) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

bool proc_is_thread(pid_t pid)
{
	struct procinfo pi;

	/* /proc/PID/status is there (a thread has one) but names another Tgid */
	return procinfo_read(pid, &pi) && errno == ESRCH;
}

int pidfd_of(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

int pidfd_alive(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	/* a pidfd polls readable once its process has exited (a zombie
	 * included: it makes no more checks) */
	if (fd < 0)
		return -1;
	if (poll(&p, 1, 0) < 0)
		return -1;
	return !(p.revents & (POLLIN | POLLHUP | POLLERR));
}
