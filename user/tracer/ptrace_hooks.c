// SPDX-License-Identifier: GPL-2.0
#include "tracer/ptrace_hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracer/probe.h"

/* the SEC names of bpf/ptrace_access.bpf.h, after "tracepoint/syscalls/"
 * (the tracepoints' names), NULL-terminated; open and readlink do not exist on arm64 (their tracepoints neither) */
static const char *const ptrace_hook_names[] = {
	"sys_enter_ptrace", "sys_enter_process_vm_readv", "sys_enter_process_vm_writev",
	"sys_enter_kcmp", "sys_enter_get_robust_list", "sys_enter_perf_event_open",
	"sys_enter_pidfd_getfd", "sys_enter_openat", "sys_enter_openat2",
	"sys_enter_readlinkat", "sys_enter_open", "sys_enter_readlink", NULL,
};

_Static_assert(sizeof(ptrace_hook_names) / sizeof(ptrace_hook_names[0]) == PTRACE_HOOKS_MAX + 1,
	       "a slot per tracepoint");

/* One event per tracepoint, on CPU 0: a BPF program attached to a
 * tracepoint runs on every CPU (kernel/trace/trace_syscalls.c
 * perf_syscall_enter() runs the event's program array before looking at
 * the CPU's own list), as libbpf opens them. */
static long tracepoint_id(const char *tfs, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/events/syscalls/%s/id", tfs, name);
	return read_sysctl(path, -1);
}

static int open_tracepoint(long id)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (__u64)id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	return (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
}

void ptrace_hooks_init(struct ptrace_hooks *h)
{
	int i;

	for (i = 0; i < PTRACE_HOOKS_MAX; i++) {
		h->fd[i] = -1;
		h->id[i] = -1;
	}
	h->nheld = 0;
	h->err = 0;
	h->opening = false;
}

bool ptrace_hooks_hold(struct ptrace_hooks *h, int fd)
{
	if (h->nheld >= (int)(sizeof(h->held) / sizeof(h->held[0])))
		return false;
	h->held[h->nheld++] = fd;
	return true;
}

static void *open_all(void *arg)
{
	struct ptrace_hooks *h = arg;
	sigset_t all;
	int i;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);   /* signals are the main thread's */
	for (i = 0; i < PTRACE_HOOKS_MAX; i++) {
		if (h->id[i] < 0)
			continue;
		h->fd[i] = open_tracepoint(h->id[i]);
		if (h->fd[i] < 0 && !h->err)
			h->err = errno;
	}
	return NULL;
}

void ptrace_hooks_open(struct ptrace_hooks *h)
{
	const char *tfs = tracefs_dir();
	int i;

	/* which events exist, now (tracefs is root's): the programs to load
	 * are chosen by it while the events are still being opened */
	h->err = tfs ? 0 : ENOENT;
	for (i = 0; i < PTRACE_HOOKS_MAX; i++)
		h->id[i] = tfs ? tracepoint_id(tfs, ptrace_hook_names[i]) : -1;
	h->opening = !pthread_create(&h->opener, NULL, open_all, h);
	if (!h->opening)
		open_all(h);
}

void ptrace_hooks_ready(struct ptrace_hooks *h)
{
	if (!h->opening)
		return;
	pthread_join(h->opener, NULL);
	h->opening = false;
}

static void close_all(struct ptrace_hooks *h)
{
	int i;

	for (i = 0; i < h->nheld; i++)
		close(h->held[i]);
	h->nheld = 0;
	for (i = 0; i < PTRACE_HOOKS_MAX; i++) {
		if (h->fd[i] >= 0)
			close(h->fd[i]);
		h->fd[i] = -1;
	}
}

/* The last close of a tracepoint's perf event waits for grace periods in
 * the kernel (perf_trace_destroy(): tracepoint_synchronize_unregister(),
 * under a mutex that every such close takes): 25-40 ms each on a 2-core
 * VM, one after the other however many threads close them, 0.3-0.5 s for
 * the twelve. Nothing waits on it once the links are gone: a process that
 * is not ours holds the last references and closes them, while the
 * recording ends without it. Not ours: a child of a child that exits at
 * once, with the subreaper bit cleared meanwhile (record's --stop-started
 * and run stop what is left below capaudit, and wait for it). Between
 * fork() and _exit() only system calls (the loader may have threads). */
void ptrace_hooks_close_start(struct ptrace_hooks *h)
{
	int keep[2 * PTRACE_HOOKS_MAX + 1], n = 0, i, j, fd, reaper = 0, go[2];
	pid_t pid;
	char c;

	ptrace_hooks_ready(h);
	if (!ptrace_hooks_any(h))
		return;
	/* the closer waits for EOF here: until ours are closed, so that its
	 * closes are the last (had ours come after its own, ours would be
	 * the last, and the wait ours again) */
	if (pipe2(go, O_CLOEXEC)) {
		close_all(h);
		return;
	}
	for (i = 0; i < h->nheld; i++)
		keep[n++] = h->held[i];
	for (i = 0; i < PTRACE_HOOKS_MAX; i++)
		if (h->fd[i] >= 0)
			keep[n++] = h->fd[i];
	keep[n++] = go[0];
	for (i = 1; i < n; i++)   /* sorted, for the gaps between them */
		for (j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			fd = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = fd;
		}
	if (prctl(PR_GET_CHILD_SUBREAPER, &reaper))
		reaper = 0;
	if (reaper)
		prctl(PR_SET_CHILD_SUBREAPER, 0);
	pid = fork();
	if (pid == 0) {
		struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct none[2] = { { 0 } };
		int null;

		if (fork() != 0)
			_exit(0);   /* the closer is orphaned: init's (or an outer subreaper's) */
		/* nothing of the loader's but the events: not its output, its
		 * pipes (a caller reading them to their end), its maps */
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		fd = 3;
		for (i = 0; i < n; i++) {
			if (keep[i] > fd)
				syscall(SYS_close_range, fd, keep[i] - 1, 0);
			fd = keep[i] + 1;
		}
		syscall(SYS_close_range, fd, ~0U, 0);
		syscall(SYS_capset, &hdr, none);
		prctl(PR_SET_NAME, "capaudit-close");
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		for (i = 0; i < n; i++)
			close(keep[i]);
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	if (reaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	close_all(h);   /* ours first: the closer's are the last (without one: the wait is ours) */
	close(go[0]);
	close(go[1]);   /* the closer goes on */
}

void ptrace_hooks_close(struct ptrace_hooks *h)
{
	ptrace_hooks_ready(h);
	close_all(h);
}

static int hook_index(const struct ptrace_hooks *h, const char *section)
{
	static const char prefix[] = "tracepoint/syscalls/";
	int i;

	if (!h || strncmp(section, prefix, sizeof(prefix) - 1))
		return -1;
	for (i = 0; i < PTRACE_HOOKS_MAX; i++)
		if (!strcmp(section + sizeof(prefix) - 1, ptrace_hook_names[i]))
			return i;
	return -1;
}

int ptrace_hook_fd(const struct ptrace_hooks *h, const char *section)
{
	int i = hook_index(h, section);

	return i < 0 ? -1 : h->fd[i];
}

bool ptrace_hook_wanted(const struct ptrace_hooks *h, const char *section)
{
	int i = hook_index(h, section);

	return i >= 0 && h->id[i] >= 0;
}

bool ptrace_hooks_any(const struct ptrace_hooks *h)
{
	int i;

	for (i = 0; h && i < PTRACE_HOOKS_MAX; i++)
		if (h->fd[i] >= 0)
			return true;
	return false;
}
