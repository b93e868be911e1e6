/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syscall tracepoints of the ptrace-access hooks
 * (bpf/ptrace_access.bpf.h), opened as perf events before capaudit drops
 * to CAP_BPF + CAP_PERFMON: Debian's kernels default to
 * kernel.perf_event_paranoid=3, where only CAP_SYS_ADMIN opens perf events
 * (as for kprobe mode's, tracer/probe.h). The programs are attached to
 * these fds later (tracer/tracer.c).
 */
#ifndef CA_PTRACE_HOOKS_H
#define CA_PTRACE_HOOKS_H

#include <pthread.h>
#include <stdbool.h>

#define PTRACE_HOOKS_MAX 12

struct ptrace_hooks {
	int fd[PTRACE_HOOKS_MAX];   /* by ptrace_hooks.c's list; -1: not open */
	long id[PTRACE_HOOKS_MAX];  /* each event's tracepoint id; -1: none here */
	int err;                    /* the first refusal's errno, 0 if none */
	/* copies of the links of the programs attached to them, held for
	 * the closer too (ptrace_hooks_hold()) */
	int held[PTRACE_HOOKS_MAX];
	int nheld;
	bool opening;               /* ptrace_hooks_open()'s thread runs */
	pthread_t opener;
};

/* Every slot closed (-1): before open, or for a session without them. */
void ptrace_hooks_init(struct ptrace_hooks *h);
/* Opens them on a thread of its own (the caller goes on: loading the BPF
 * object takes longer): opening a tracepoint's perf event takes the
 * kernel's event_mutex, which the last close of another (a previous run's
 * closer, below) holds through grace periods, 100-130 ms a run when runs
 * follow each other. The thread keeps the caller's privileges until it
 * ends: ptrace_hooks_ready() waits for it, before the recording begins. */
void ptrace_hooks_open(struct ptrace_hooks *h);
void ptrace_hooks_ready(struct ptrace_hooks *h);
/* The events closed. They are kept open until the recording's links are
 * gone (the links then detach without the events' own teardown, and in
 * parallel: tracer_stop()); then _start hands the last references to a
 * process that closes them (the kernel takes tens of ms for each:
 * ptrace_hooks.c), not capaudit's child (nothing waits for it), and
 * returns at once. ptrace_hooks_close() closes them here and now. */
void ptrace_hooks_close_start(struct ptrace_hooks *h);
void ptrace_hooks_close(struct ptrace_hooks *h);
/* A descriptor closed with the events (by the closer): an attached link
 * whose programs were told to send nothing more (tracer_stop()); its
 * release waits for grace periods as the events' does. False when there
 * is no room (the caller closes it). */
bool ptrace_hooks_hold(struct ptrace_hooks *h, int fd);
/* The fd for a program of section "tracepoint/syscalls/NAME", or -1. */
/* Is the section's event there to be opened (its program worth loading)?
 * Known before the opening thread is done. */
bool ptrace_hook_wanted(const struct ptrace_hooks *h, const char *section);
int ptrace_hook_fd(const struct ptrace_hooks *h, const char *section);
/* Any of them open. */
bool ptrace_hooks_any(const struct ptrace_hooks *h);

#endif
