/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_RECORD_H
#define CA_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "facts/attach.h"

#define MAX_PIDS 1024

struct launch;
struct service;

struct rec_opts {
	pid_t pids[MAX_PIDS];
	int pidfds[MAX_PIDS];     /* -p: each PID's process, pinned when named
				   * (-errno if it could not be) */
	size_t npids;
	bool all;
	/* --cgroup, --container, --unit: a cgroup v2 subtree (record/scope.h's
	 * enum scope_kind; 0: none) and the argument that names it */
	int scope_kind;
	const char *scope_arg;
	bool scope_wait;          /* --wait: the container is yet to start */
	char **cmd;               /* -- COMMAND ARGS */
	const struct launch *launch;  /* how to start cmd (run --caps), or NULL */
	const struct service *service;  /* record --service: the unit cmd is of, or NULL */
	const char *out;
	double duration;          /* seconds, 0 = unbounded */
	struct attach_list modes;   /* --attach; n == 0: auto */
	bool verbose, quiet;
	bool syscall_results;     /* --syscall-results */
	bool exact_stacks;        /* --exact-stacks */
	bool user_stacks;         /* --user-stacks */
	/* --ptrace-access: watch ptrace access the kernel allows without a
	 * check (tracer/ptrace_hooks.h); by default only for -- COMMAND and
	 * --service, as the hooks slow every syscall on the system */
	enum { PTRACE_ACCESS_DEFAULT, PTRACE_ACCESS_ON, PTRACE_ACCESS_OFF } ptrace_access;
	uint32_t max_keys;        /* --max-keys: aggregation map entries, 0 = sized here */
	uint32_t ringbuf_kb;      /* --ringbuf-kb: event buffer, 0 = default */
	bool cmd_stdout_to_stderr; /* the command's standard output goes to our
				   * standard error (run/verify --format json) */
	/* results */
	bool recorded;            /* the record file was written */
	int cmd_status;           /* -- COMMAND: its shell-style status */
	int stop_signal;          /* the recording was stopped by this signal
				   * (SIGINT, SIGTERM, SIGHUP), 0 if not */
	int exec_errno;           /* -- COMMAND: why execve() failed, 0 if it did not */
};

/* Record as o says; returns capaudit record's exit code. */
int record_run(struct rec_opts *o, int all_argc, char **all_argv);

#endif
