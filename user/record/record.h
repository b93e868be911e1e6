/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_RECORD_H
#define CA_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "facts/attach.h"

#define MAX_PIDS 1024

struct launch;
struct service;
struct ca_meta;

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
	bool stop_started;        /* run: what the command started and still runs
				   * when the recording ends (a signal ended it) is
				   * stopped, wherever it moved: capaudit is the
				   * command's child subreaper (lib/proctree.h) */
	/* results */
	bool recorded;            /* the record file was written */
	int cmd_status;           /* -- COMMAND: its shell-style status */
	int stop_signal;          /* the recording was stopped by this signal
				   * (SIGINT, SIGTERM, SIGHUP), 0 if not */
	int exec_errno;           /* -- COMMAND: why execve() failed, 0 if it did not */
};

/* Record as o says; returns capaudit record's exit code. */
int record_run(struct rec_opts *o, int all_argc, char **all_argv);

/*
 * One recording's phases, for capaudit monitor (monitor/monitor.c), which
 * runs them without a command and drains the maps itself: struct session
 * is record/session.c's own; these are all that is seen of it.
 */
struct session;
struct ca_event;
struct ca_obj_event;
struct ksyms;
struct outfile;
struct rec_header;
struct rec_lost;
struct rec_process;
struct record;
struct tracer;

struct session *session_new(struct rec_opts *o);
/* the monitor's: on_newkey(ctx, e) for each CA_EV_NEWKEY event (NULL:
 * none asked of the kernel); before session_start() */
void session_monitor(struct session *s, void (*on_newkey)(void *ctx, const struct ca_event *e),
		     void *ctx);
/* the monitor's: on_object(ctx, e) for each CA_EV_OBJECT event (the
 * monitor keeps them bounded on its rows; same ctx as on_newkey) */
void session_monitor_objects(struct session *s,
			     void (*on_object)(void *ctx, const struct ca_obj_event *e), void *ctx);
/* Before the drop: the output keeper for -o and the files of more (NULL
 * entries left out). 0, or -1 (said). */
int session_keep_outputs(struct session *s, const char *const *more, size_t nmore);
/* check the caller, read what needs privileges, drop them, open the
 * output, attach, read the kernel's symbols; 0 or -1 (said) */
int session_start(struct session *s, const char *argv0);
void session_header(struct session *s, struct rec_header *h, const char *stop, int all_argc,
		    char **all_argv);
/* The signal that came last (SIGINT, SIGTERM, SIGHUP), cleared: 0 if none. */
int session_take_signal(void);
void session_free(struct session *s);

/* what it holds: the attached tracer, the live process table (a record's
 * process lines), the output file (-o) */
struct tracer *session_tracer(struct session *s);
struct record *session_record(struct session *s);
struct outfile *session_outfile(struct session *s);
/* a kernel CLOCK_MONOTONIC time as the record's epoch ns */
int64_t session_to_epoch(const struct session *s, uint64_t mono);
/* when recording began (attached), epoch ns */
int64_t session_real0(const struct session *s);
/* once started: the kernel's symbols for call sites (read from the kernel
 * now if the start read none), or NULL; and where they came from */
const struct ksyms *session_ksyms(struct session *s);
const char *session_ksyms_source(const struct session *s);
/* what the kernel side could not store so far (the header's "lost") */
void session_lost_so_far(struct session *s, struct rec_lost *l);
/* A kernel stack's frames, symbolized, without the hook's own
 * (facts/callsite.h callsite_hook_frames()); ks NULL: every frame, as an
 * address. *nf of them. */
char **symbolize_kstack(const struct ksyms *ks, const uint64_t *ips, size_t n, size_t *nf);
/* a cgroup id's path (NULL: unknown) */
const char *session_cgroup_path(struct session *s, uint64_t cgroup_id);
/* p's cgroup (cgroup_id: its check's, if p has none yet), container and unit */
void session_attribute(struct session *s, struct rec_process *p, uint64_t cgroup_id);
/* The image of a check (pid, process start, exec id), made from the
 * check's ca_meta when no event named it (the ring buffer was full),
 * its executable named from meta->exe if it has none */
struct rec_process *session_image_of_check(struct session *s, uint32_t tgid, uint64_t pstart,
					   uint32_t exec_id, const struct ca_meta *meta);

#endif
