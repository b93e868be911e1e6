/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording, inside the record layer: the session's state and the
 * functions its files share (session.c runs the phases; proctable.c keeps
 * the process images and their events; spawn.c starts the command;
 * symbols.c reads kernel symbols; collect.c turns the maps into a record).
 */
#ifndef CA_RECORD_SESSION_H
#define CA_RECORD_SESSION_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/ksyms.h"
#include "lib/outfile.h"
#include "tracer/probe.h"
#include "recfile/recfile.h"
#include "record/launch.h"
#include "lib/cgroup.h"
#include "record/exeid.h"
#include "record/procset.h"
#include "tracer/ptrace_hooks.h"
#include "record/record.h"
#include "record/scope.h"
#include "tracer/tasks_iter.h"
#include "tracer/tracer.h"
#include "record/ustacks.h"

struct session {
	struct rec_opts *o;
	struct tracer tr;
	struct record rec;
	int64_t epoch_off;        /* CLOCK_REALTIME - CLOCK_MONOTONIC, at the start */
	int64_t real0;            /* when recording began (attached), epoch ns */
	pid_t child;
	uint64_t child_start;     /* its process start time (struct ca_key) */
	int child_status;
	bool child_done;
	bool tree_announced;     /* said that the command's tree runs on */
	/* -p: the processes still followed, and whether an exit event may
	 * have been lost (then they are checked against a snapshot) */
	struct procset live;
	uint64_t ringbuf_lost_seen;
	/* -a: the processes that ran before recording, with the executables
	 * /proc showed while we could read it (before the privilege drop) */
	struct task_snap before;
	char **before_exe;        /* [i]: of before.t[i], or NULL */
	/* --cgroup, --container, --unit: what is recorded, and the cgroup ids
	 * of its subtree when recording began (which processes of the
	 * snapshot are in it) */
	struct scope scope;
	uint64_t *scope_ids;
	size_t nscope_ids;
	/* every process's cgroup path, container and unit (attribute.c) */
	struct cgroup_names cgn;
	/* executables' build ids, by inode (exeid.c) */
	struct exe_ids exes;
	/* who may see what (caller_policy()) */
	uid_t uid;
	bool only_uid;            /* follow only processes acting as uid */
	struct ksyms *ksyms;      /* read before dropping privileges, if needed */
	struct ksyms *ksyms_start; /* read once attached (call-site proofs; the end) */
	const char *ksyms_start_source;
	char ksyms_start_err[256];
	pthread_t symbols_tid;    /* reading them */
	bool symbols_thread_started;
	char *modules_start;      /* /proc/modules' names and sizes then */
	struct ca_ranges ranges;  /* the call-site proofs' text ranges ... */
	bool ranges_read, ranges_set; /* ... read as root at the start, and set */
	const char *ksyms_source;
	char ksyms_err[512];
	/* see alias_exec() */
	bool launcher_known, cmd_known;
	uint32_t launcher_exec_id, cmd_exec_id;
	struct ustacks *us;       /* --user-stacks: which files the build ids name */
	/* the phases' own: the command's pipes, perf events opened before the
	 * drop (kprobe mode), the output file, the exit status so far */
	int go_fd, exec_err_fd;
	struct kprobe_events kpe;
	struct ptrace_hooks pth;  /* the ptrace-access hooks' events (not in monitor) */
	struct outfile outf;
	int rc;
	/* capaudit monitor (monitor/monitor.c): its state, and what it does
	 * with a CA_EV_NEWKEY event (the proctable passes those on) */
	bool monitor;
	void *mon;
	void (*on_newkey)(struct session *s, const struct ca_event *e);
};

enum stop_reason { STOP_EXITED, STOP_DURATION, STOP_SIGNAL };


/* What the command's child tells the recorder through its close-on-exec
 * pipe (spawn.c). */
enum child_msg { CHILD_READY = 1, CHILD_LAUNCH_FAILED, CHILD_EXEC_FAILED };

struct child_report {
	int msg;                 /* enum child_msg */
	int err;                 /* errno */
	char stage[64];          /* launch_apply's failing step */
};


/* session.c: the phases record_run() and monitor_run() share */
void session_init(struct session *s, struct rec_opts *o);
/* check the caller, read what needs privileges, drop them, open the
 * output, attach, read the kernel's symbols; 0 or -1 (said) */
int session_start(struct session *s, const char *argv0);
void session_header(struct session *s, struct rec_header *h, const char *stop, int all_argc,
		    char **all_argv);
int session_open_out(const char *out, struct outfile *o);
/* Before the drop: the output keeper for -o and the files of more (NULL
 * entries left out). 0, or -1 (said). */
int session_keep_outputs(struct session *s, const char *const *more, size_t nmore);
/* write r to o and put it in place; 0 or -1 (said) */
int session_finish_out(struct outfile *o, const struct record *r);
int session_take_signal(void);
void session_cleanup(struct session *s);

/* proctable.c */
int64_t to_epoch(const struct session *s, uint64_t mono);
uint32_t alias_exec(struct session *s, uint32_t pid, uint64_t pstart, uint32_t exec_id);
void set_str(char **dst, const char *src);
struct rec_process *image(struct session *s, uint32_t pid, uint64_t pstart,
				 uint32_t exec_id, const char *comm, uint64_t boot_ns);
int on_event(void *ctx, const struct ca_event *e);
int refresh_followed(struct session *s);
bool any_followed(struct session *s);
int name_processes(struct session *s);
void follow_named(void *ctx, uint32_t tgid, uint64_t start);
bool is_child(const struct session *s, uint32_t pid, uint64_t pstart);

/* collect.c */
void collect(struct session *s, struct ksyms *ks, const char *kerr);
/* What the kernel side could not store so far (the record header's
 * "lost"; while recording, what the hooks have counted until now). */
void lost_so_far(struct session *s, struct rec_lost *l);

/* attribute.c */
/* record --container NAME --wait: it has started (s->scope names it) */
void session_container_started(struct session *s);
/* A process's cgroup, noted at its first event (while its path can still
 * be read); the rest is looked up at the end. */
void attribute_note(struct session *s, struct rec_process *p, uint64_t cgroup_id);
/* One process line's cgroup path, container and unit (from its cgroup_id). */
void attribute(struct session *s, struct rec_process *p);
/* Every process line's cgroup path, container and unit. */
void attribute_processes(struct session *s);

/* symbols.c */
/* A kernel stack's frames, symbolized, without the hook's own
 * (facts/callsite.h callsite_hook_frames()); ks NULL: every frame, as an
 * address. *nf of them. */
char **symbolize_kstack(const struct ksyms *ks, const uint64_t *ips, size_t n, size_t *nf);
void start_symbols(struct session *s);
void join_symbols(struct session *s);
struct ksyms *end_symbols(struct session *s, char *kerr, size_t n);

/* spawn.c */
pid_t spawn_stopped(char **cmd, const struct launch *l, bool stdout_taken, int *go_fd,
			   int *msg_fd);
ssize_t read_report(int fd, struct child_report *r);
void reap_child(struct session *s);
int status_to_exit(int st);

#endif
