/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record file: JSON Lines. Line 1 is the header, then one line per
 * process (program image), one per distinct kernel stack (symbolized at
 * record time), one per user stack (--user-stacks), one per aggregated
 * check, and the end line with their counts. The format is documented in
 * docs/record-format.md. A C interface without libbpf: model.c holds the
 * record in memory, fields.c its fields (one table per object, which
 * the writer and the reader follow), write.c the writer, read.cpp the
 * reader (C++ on simdjson); load.h loads a record for a subcommand.
 */
#ifndef CA_RECFILE_H
#define CA_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "facts/callsite.h"

#define REC_FORMAT  "capaudit-record"
/* the record file when none is named: record -o, report -i, check */
#define DEFAULT_RECORD "capaudit-record.jsonl"
/* what report and check say when DEFAULT_RECORD is not there: record
 * writes it when no -o is given */
#define RECORD_FIRST_HINT "record one first: capaudit record -- COMMAND (or -p PID, -a)"
/* 2: processes named by (pid, start_ns, exec_id); 3: checks say what
 * decided them as to user namespaces (userns) and when their answer could
 * not matter (no_effect), processes the sets they asked capset() for, the
 * header the call-site cache's work; 4: processes say where they ran
 * (cgroup, container, unit) and whether their exec gained privilege, the
 * header the scope's target; 5: the header names the architecture
 * (arch), whose table numbers the checks' syscalls, and the BPF features
 * the recording kernel lacked (kernel_bpf); 6: checks say which
 * operation their syscall asked for (op); 7: checks say what they were
 * about (objects: the file, the process, the option, the message) */
#define REC_VERSION 7
#define REC_MAX_CAP 63
#define REC_ARCH_MIXED "mixed"
#define REC_MAX_LINE (1 << 20)   /* longer lines are rejected */
#define REC_MAX_UFRAMES 128     /* user frames per ustack line */
#define REC_MAX_OBJECTS 16      /* objects per check line (the rest: objects_more) */

/* Counts of what the kernel side could not store. Never silent. Every
 * member is a kind of loss in rec_lost_kinds[] (model.c), the one list
 * that the record, the report (text and JSON), the recorder's status and
 * last lines and check read. */
struct rec_lost {
	uint64_t map_full;      /* checks counted only per capability */
	uint64_t ringbuf_full;  /* process events dropped */
	uint64_t stack_errors;  /* checks whose stack could not be stored */
	uint64_t proc_full;     /* processes not followed */
	uint64_t result_lost;   /* denied checks whose syscall result was not kept */
	uint64_t hook_skipped;  /* checks the kernel ran no program for (recursion) */
};

/* Checks counted while the agg map was full: no process, no stack. */
struct rec_overflow {
	int cap;
	bool denied;
	uint64_t count;
};

struct rec_header {
	int version;
	char *capaudit_version;
	char *kernel;           /* uname -r of the recording machine */
	char *machine;          /* uname -m */
	/* uname -n of the recording machine (version 5, optional: older
	 * records lack it; report --fleet then names the host by the file) */
	char *host;
	/* version 5: the architecture whose syscall table numbers the
	 * checks' syscalls (facts/syscalls.h: "x86_64", "arm64"); NULL in
	 * older records, which were all x86_64; REC_ARCH_MIXED: a merge of
	 * records of several (each check has its name, if known) */
	char *arch;
	char *attach;           /* tp_btf | tracepoint | fexit | kprobe */
	char *scope;            /* pid | all | command | cgroup | container | unit | service */
	/* version 4, the scope's target (NULL when not known or not scoped
	 * so): the cgroup v2 path recorded, the container (id, name), the
	 * unit, the unit file (record --service) */
	char *target_cgroup, *target_container, *target_name, *target_unit, *target_service;
	/* record --service (version 4): what the unit granted its commands,
	 * as applied: the bounding and ambient sets and the uid they ran as
	 * (analyze/service.h reads the granted set and its removal
	 * candidates from them) */
	bool has_service_caps;
	uint64_t service_bounding, service_ambient;
	uint32_t service_uid;
	char *symbols;          /* where kernel symbols came from, or "unavailable" */
	/* the header's "kernel_bpf", written only when the kernel lacked one
	 * of the BPF features the hooks prefer: which (facts/kfeat.h KF_*),
	 * and what the record lacks for it, one sentence each */
	uint32_t kernel_missing;
	char **degraded;
	size_t ndegraded;
	char **argv;            /* capaudit's own command line */
	size_t argc;
	int64_t start_ns, end_ns;  /* epoch ns */
	uint64_t checks;        /* all checks seen by the hook for traced tasks */
	bool syscall_results;   /* checks carry syscall_failed */
	bool ptrace_watched;    /* processes carry ptrace_access (their targets) */
	bool has_ptrace_watched;  /* the header says either way (absent: older) */
	struct rec_lost lost;
	struct rec_overflow *overflow;
	size_t noverflow;
	bool has_exit_status;   /* -- COMMAND: the command's status */
	int exit_status;
	char *stop;             /* why recording ended: exited | duration | signal, or NULL */
	bool command_running;   /* -- COMMAND: still running then: the record is partial */
	/* the call-site cache (version 3): stack walks on misses and on hits,
	 * hits split off to a stack of their own, hits whose proof failed */
	bool has_cache;
	uint64_t cache_misses, cache_hit_walks, cache_splits, cache_unproven;
	/* stacks a learned path proved without a walk; paths a walk dropped */
	uint64_t cache_path_proofs, cache_path_splits;
	double loader_cpu_s;    /* the recorder's own CPU time (user + system) */
	long loader_rss_kb;     /* and its peak resident set */
	uint64_t pids_reused;   /* pids that two or more processes had during the
				 * recording (each has its own lines) */
	uint64_t agg_drains;    /* aggregation maps drained while recording */
	uint32_t agg_keys;      /* entries of the largest aggregation map used */
	uint64_t agg_spilled;   /* checks that found the map full, sent whole
				 * through the ring buffer instead (kept, with
				 * their process and call site) */
	/* capaudit monitor (scope "monitor"): a checkpoint, written every
	 * interval seconds since since_ns (epoch ns); checkpoint counts from 1 */
	bool has_monitor;
	double monitor_interval;
	uint64_t monitor_checkpoint;
	int64_t monitor_since_ns;
	/* version 7, absent when 0: the process table's images after the
	 * checkpoint's prune, those forgotten so far, and the folds between
	 * checkpoints that kept the table bounded (MON_PRUNE_BACKLOG) */
	uint64_t monitor_images, monitor_forgotten, monitor_extra_folds;
	/* version 7, absent when 0: folds of checks whose program identity or
	 * row did not fit the monitor's bounds (monitor/monfold.h) */
	uint64_t monitor_ids_past, monitor_rows_past;
};

/*
 * A process line is one program image: (pid, start_ns, exec_id). pid and
 * the process's start time name the process (a pid given out again is
 * another process, with another start); exec_id is the kernel's
 * task->self_exec_id, which changes at each execve(), so `setpriv ... CMD`
 * is two images of one process and setpriv's own checks are not blamed on
 * CMD. Version 1 records have no start time: start_ns is 0 there.
 */
struct rec_process {
	uint32_t pid, exec_id, ppid, uid;
	int64_t start_ns;       /* the process's start, ns since the epoch */
	char *comm;
	char *exe;              /* may be NULL */
	char *build_id;         /* the executable's GNU build id, hex (version 4,
				 * optional); NULL when not known */
	bool exited;
	int exit_code;          /* shell-style: code, or 128 + signal */
	/* capset(2) (version 3): the union of the sets the image asked for */
	bool has_capset;
	uint64_t capset_eff, capset_prm, capset_inh;
	/* Processes the image reached through a ptrace access check that the
	 * kernel let through without asking for CAP_SYS_PTRACE, because the
	 * image's own set covered the target's (security/commoncap.c
	 * cap_ptrace_access_check(); bpf/ptrace_access.bpf.h). A set that
	 * does not cover ptrace_prm needs CAP_SYS_PTRACE. */
	uint32_t ptrace_targets;   /* in the image's user namespace, sets read */
	uint32_t ptrace_unknown;   /* whose sets or namespace could not be read */
	uint64_t ptrace_prm;       /* the union of the targets' permitted sets */
	uint32_t ptrace_ex_pid;    /* one target, for the reader: pid, name, how */
	char *ptrace_ex_comm;      /* NULL: none */
	char *ptrace_ex_via;       /* "ptrace", "/proc/PID/mem", ... */
	/* where it ran (version 4; NULL when not known): its cgroup v2 path
	 * below the hierarchy's root ("/system.slice/cron.service"), and
	 * what that path names (facts/workload.h): a container, by id, the
	 * runtime's name for it and the runtime, or a systemd unit */
	uint64_t cgroup_id;     /* the recorder's: not in the file */
	char *cgroup;
	char *container_id, *container_name, *container_runtime;
	char *unit;
	/* its exec gained privilege (setuid, setgid or file capabilities:
	 * the kernel set AT_SECURE, bprm->secureexec), version 4 */
	bool secure_exec;
	/* a container runtime setting the container up (runc init before it
	 * execs the container's program: facts/workload.h), version 4; its
	 * checks are the runtime's, never the container's requirement */
	bool runtime_setup;
	/* a monitor's line is a program identity, not one image (version 4,
	 * optional): the distinct program images it stands for; 0: one */
	uint64_t pids;
	uint32_t mon_gen;       /* the monitor's: when its exit was seen (not in the file) */
	/* a merged record's (record_merge; not in the file): the input it
	 * came from (index in record.inputs), and its pid and ppid as that
	 * file has them: pid and ppid above may have been renumbered so that
	 * no two inputs' processes share a pid */
	uint32_t input;
	uint32_t file_pid, file_ppid;
};

/* What decided a check as to user namespaces. */
enum rec_userns {
	RU_HOST = 0,    /* the credentials' capabilities in the initial namespace */
	RU_INSIDE,      /* credentials in another user namespace: its capabilities */
	RU_OWNER,       /* the euid owns the (child) target namespace: no capability */
	RU_CHILD,       /* a record before version 3: a child namespace was the
			 * target, which of the two above is not known */
};

struct rec_check {
	uint32_t pid, exec_id, tid, uid;
	int64_t start_ns;       /* with pid and exec_id: the image (struct rec_process) */
	char *comm;
	uint64_t cgroup;
	int cap;
	int ret;                /* 0 granted, < 0 denied (-errno) */
	uint64_t count;
	int syscall;            /* -1: none; numbered as the record's arch numbers them */
	/* version 6: what the syscall asked for where a check's effect depends
	 * on it (facts/sysops.h: setsockopt's level and option, bpf's command,
	 * ...); -1: not recorded (another syscall, or an older record) */
	int64_t op;
	/* its name: the record's syscall_name, else the record's arch's
	 * table's (facts/syscalls.h), never the reading machine's; static or
	 * interned in the record; NULL: none, or not known */
	const char *sysname;
	bool init_ns;
	enum rec_userns userns;
	bool no_effect;         /* the answer could not change the outcome */
	bool args_checked;       /* set*id(2): the ids asked for were compared with
				 * the caller's (no_effect: all its own) */
	bool foreign_cred;      /* version 4: checked against credentials not the
				 * task's own (an override: overlayfs as its mounter) */
	bool opts_known;        /* the attach mode saw cap_capable()'s opts */
	bool opt_noaudit, opt_insetid;
	int64_t first_ns, last_ns;
	uint64_t sys_failed;    /* times the syscall then failed with EPERM/EACCES */
	uint64_t sys_other;     /* ... with another error (version 3), the last: */
	int sys_errno;          /* errno number, 0 if none */
	uint64_t sys_restart;   /* ... was interrupted (EINTR, ERESTART*): inconclusive */
	int stack;              /* index in record.stacks, -1: none */
	int ustack;             /* index in record.ustacks (--user-stacks), -1: none */
	uint32_t line;          /* line of the record file it was read from */
	char *stack_error;      /* why there is no stack, or NULL */
	/* version 7: what it was about, at most REC_MAX_OBJECTS, and how many
	 * checks were about something else that did not fit */
	struct rec_object *objects;
	size_t nobjects;
	uint64_t objects_more;
};

/*
 * What one check was about (format version 7, docs/record-format.md
 * "objects"): the file, process, socket option, netlink message, ...
 * that the syscall named, as the hook saw it when the check's key was
 * new or its short list of objects not yet full. Unknown parts stay
 * NULL / -1.
 */
enum rec_obj_kind {
	OBJ_NONE = 0,
	OBJ_FILE,      /* path; uid, gid, mode of the file when known */
	OBJ_PROCESS,   /* pid; name: its comm; uid: its real uid */
	OBJ_SOCKOPT,   /* detail: the level (SOL_SOCKET); name: the option; num: its number */
	OBJ_SOCKET,    /* detail: the family (AF_INET); name: the type (SOCK_RAW); num: protocol */
	OBJ_BIND,      /* detail: the family; num: the port */
	OBJ_NETLINK,   /* detail: the protocol (NETLINK_ROUTE); name: the message type
			* (RTM_NEWLINK, NFT_MSG_NEWTABLE); num: its number */
	OBJ_IOCTL,     /* name: the request's name; num: the request; path: the file */
	OBJ_BPF,       /* name: the command (BPF_PROG_LOAD); detail: the program or map type */
	OBJ_MOUNT,     /* path: the target; detail: the file system type; name: the operation */
	OBJ_SYSCTL,    /* name: net.ipv4.ip_forward; path: /proc/sys/... */
	OBJ_FLAGS,     /* name: the flags' names (CLONE_NEWNET|CLONE_NEWNS); num: their value;
			* detail: what they are of (clone, unshare, prctl's option, capset) */
	OBJ_KIND_NR
};

struct rec_object {
	int kind;               /* enum rec_obj_kind */
	char *path;             /* NULL: none */
	char *name;
	char *detail;
	int64_t pid;            /* -1: none */
	int64_t uid, gid;       /* -1: not known */
	int64_t mode;           /* st_mode's type and permission bits; -1: not known */
	int64_t num;            /* -1: none */
	uint64_t count;         /* checks seen with it, of those the hook looked at */
	bool late;              /* uid/gid/mode/name read by the recorder after
				 * the check, not by the hook at it */
};

/* objects.c: two objects are the same object (kind, path, name, detail,
 * pid and num; counts and what was read of owner and mode aside) */
bool rec_object_same(const struct rec_object *a, const struct rec_object *b);
void rec_object_clear(struct rec_object *o);   /* frees its strings */
void rec_check_objects_free(struct rec_check *c);
/* o into c's objects: counted with the same object, else added while
 * fewer than REC_MAX_OBJECTS, else counted in objects_more; o is taken
 * (its strings moved or freed) */
void rec_check_objects_add(struct rec_check *c, struct rec_object *o);
/* from's objects into into's (from is left with none) */
void rec_check_objects_union(struct rec_check *into, struct rec_check *from);

/* A kernel stack, shared by every check that came through it. */
struct rec_stack {
	char **frames;          /* "func+0xoff" or "func+0xoff [mod]", innermost first */
	size_t n;
	int site;               /* index of the call site frame, -1 if none */
	const char *site_func;  /* its function name (interned in the record), or "?" */
	unsigned long site_off; /* the call site frame's offset ("+0x1c1"), 0 if none */
	int noaudit;            /* enum noaudit_source from the frames */
};

/*
 * A user-space frame (record --user-stacks), symbolized at record time
 * while the binaries were there. What is unknown stays NULL / 0: a
 * stripped binary keeps build id + offset, a deleted one offset only.
 */
struct rec_uframe {
	char *build_id;         /* hex, NULL if unknown */
	uint64_t offset;        /* offset in the mapped file */
	char *object;           /* the mapped file's path, NULL if not found */
	char *function;         /* NULL if unknown */
	uint64_t func_off;
	char *source;           /* source file (from DWARF), NULL if unknown */
	int line;               /* 0 if unknown */
	bool leaf;              /* read at the user stack pointer: the caller of
				 * a leaf syscall wrapper */
	bool address;           /* offset is a virtual address: the kernel could
				 * not read the mapped file's build id */
};

struct rec_ustack {
	struct rec_uframe *frames;   /* innermost first */
	size_t n;
};

/* How a record was read: a lenient read leaves lines out (all zero when strict). */
struct rec_input {
	bool lenient;
	bool truncated;         /* no end line */
	size_t lines, skipped;  /* lines read, lines left out */
	size_t missing;         /* lines the end line counts but the file lacks */
};

/* One of the records a merged record was made of (record_merge): its
 * name, and its header and read as they were. */
struct rec_source {
	char *name;
	struct rec_header hdr;
	struct rec_input input;
	size_t nprocs, nchecks;  /* its process and check lines */
	size_t renumbered;       /* its processes given another pid in the merge */
};

struct record {
	struct rec_header hdr;  /* merged: the sums, identity the first input's */
	struct rec_input input; /* merged: the sums */
	char *name;             /* the file it was read from (messages), or NULL */
	/* merged (record_merge): every input in order, the record merged
	 * into first; NULL and 0 for a record as read */
	struct rec_source *inputs;
	size_t ninputs;
	struct rec_process *procs;
	size_t nprocs, cap_procs;
	struct rec_check *checks;
	size_t nchecks, cap_checks;
	struct rec_stack *stacks;
	size_t nstacks, cap_stacks;
	struct rec_ustack *ustacks;
	size_t nustacks, cap_ustacks;
	uint32_t *pidtab;       /* image -> 1 + index in procs; 0 = empty */
	size_t pidcap;
	char **strtab;          /* interned strings (check comms), open addressing */
	size_t nstr, strcap;
};

/* A new process line for the image (pid, start_ns, exec_id), which must
 * not be in r yet. */
struct rec_process *record_add_process(struct record *r, uint32_t pid, int64_t start_ns,
				       uint32_t exec_id);
struct rec_check *record_add_check(struct record *r);
/* s (len bytes) stored once per record; the pointer lives as long as r. */
char *record_intern(struct record *r, const char *s, size_t len);
/* A new stack from frames (ownership passes to r); returns its index. */
int record_add_stack(struct record *r, char **frames, size_t n);
/* Takes frames (and the strings in them); returns the new ustack's index. */
int record_add_ustack(struct record *r, struct rec_uframe *frames, size_t n);
void rec_uframe_free(struct rec_uframe *f);
/* A user frame as JSON: the record's ustack lines and report --format json
 * write the same object (jansson's json_t). */
struct json_t;
struct json_t *rec_uframe_json(const struct rec_uframe *f);
/* The check's user stack, or NULL. */
const struct rec_ustack *check_ustack(const struct record *r, const struct rec_check *c);
/* The stack of a check, or NULL. */
const struct rec_stack *check_stack(const struct record *r, const struct rec_check *c);
/* Whether a check is noaudit, and how that was decided: the hook's opts
 * (fexit, kprobe), else the frames of its stack (docs/noaudit.md). */
enum noaudit_source check_noaudit(const struct record *r, const struct rec_check *c);
struct rec_process *record_find_process(const struct record *r, uint32_t pid, int64_t start_ns,
					uint32_t exec_id);
/* The image that made a check, or NULL. */
struct rec_process *check_process(const struct record *r, const struct rec_check *c);
/* Keep only the processes whose keep[i] (parallel to r->procs) is true,
 * and the checks they made; a check without a process goes too. The
 * header (its lost counters and overflow) stays the whole record's. */
void record_keep_processes(struct record *r, const bool *keep);
/*
 * Merge src (a record as read, not itself merged) into dst, so that
 * records copied from many nodes or runs read as one: src's processes,
 * checks, stacks and user stacks are appended (stack indexes shifted,
 * strings interned in dst), its header's counts summed into dst's (checks,
 * every kind of loss, overflow rows, drains, cache counts, pids reused;
 * version the oldest, start and end the span, syscall results only if all
 * have them), the first header's identity kept (kernel, attach, scope,
 * argv, exit status) and its target only where every input has the same.
 * A src process whose pid dst has already (another host's pid 1, a
 * monitor's synthetic pids) gets a fresh pid, and its checks and its
 * children's ppid follow; file_pid and file_ppid keep the file's. Each
 * input is listed in dst->inputs (names: record.name). src is left empty
 * (record_free it). Returns 0, or -1 with one line in err naming src's
 * file and why, dst and src then unchanged.
 */
int record_merge(struct record *dst, struct record *src, char *err, size_t errlen);
/* The pid and ppid of p as its own file has them (record_merge may have
 * renumbered them), and the name of that file when r is merged, else NULL. */
uint32_t rec_process_file_pid(const struct record *r, const struct rec_process *p);
uint32_t rec_process_file_ppid(const struct record *r, const struct rec_process *p);
const char *rec_process_input(const struct record *r, const struct rec_process *p);
/* The oldest kernel of a merged record's inputs (the header's otherwise):
 * what kernel facts with a first version are judged against, since what
 * the report proposes must hold on every node. */
const char *record_oldest_kernel(const struct record *r);
/* qsort order of two struct rec_process pointers: by pid, then start
 * time (one process's images next to each other, a pid given out again
 * after the earlier process). */
int rec_process_ptr_cmp(const void *a, const void *b);
/* Pids that more than one process had (each pid counted once per extra
 * process), from the process lines. */
uint64_t record_count_reused_pids(const struct record *r);
void record_free(struct record *r);
/* Move src's checks (appended in order) and interned strings into r;
 * src keeps nothing of them. */
void record_take_checks(struct record *r, struct record *src);
/*
 * Checks with the same identity: DEDUP_MERGE adds later ones into the
 * first (the recorder, when aliased exec ids meet), DEDUP_DROP removes
 * them (a lenient reader: a pasted file must not count twice), DEDUP_FAIL
 * changes nothing and returns -1 with the indexes of the first duplicate
 * and of the check it repeats. *removed: checks merged or dropped.
 */
enum dedup { DEDUP_FAIL, DEDUP_DROP, DEDUP_MERGE };
int record_dedup_checks(struct record *r, enum dedup how, size_t *removed,
			size_t *dup, size_t *orig);
/* A kind of loss: its key in the record's and report --format json's
 * "lost" object, its words, its counter in struct rec_lost. */
struct rec_lost_kind {
	const char *key;        /* "map_full" */
	const char *what;       /* "checks without process or call site (map full)" */
	size_t off;             /* offsetof(struct rec_lost, map_full) */
};
extern const struct rec_lost_kind rec_lost_kinds[];
extern const size_t rec_lost_nkinds;
static inline uint64_t rec_lost_count(const struct rec_lost *l, const struct rec_lost_kind *k)
{
	return *(const uint64_t *)(const void *)((const char *)l + k->off);
}
/* Everything lost: the sum of every kind (saturating). 0 is "nothing lost". */
uint64_t rec_lost_total(const struct rec_lost *l);
/*
 * What the kernel side could not store, in words ("nothing lost", or the
 * nonzero counters: "12 checks without process or call site (map full),
 * 3 process events dropped (ringbuf full), ..."). Returns rec_lost_total().
 * One wording for the report and the recorder's last line.
 */
uint64_t rec_lost_describe(const struct rec_lost *l, char *buf, size_t len);
/* The "lost" object, every kind by its key (the record's header and
 * report --format json write the same object; jansson's json_t). */
struct json_t *rec_lost_json(const struct rec_lost *l);
/* The header's target object (record --cgroup/--container/--unit/--service),
 * as the record and report --format json write it; NULL when there is none. */
struct json_t *rec_target_json(const struct rec_header *h);
/* The header's "kernel_bpf" object (the BPF features the kernel lacked and
 * what the record lacks for it), as the record and report --format json
 * write it; NULL when nothing was missing. */
struct json_t *rec_kernel_bpf_json(const struct rec_header *h);
/* Free a header's contents and zero it. */
void record_clear_header(struct rec_header *h);

/* Write r as JSON Lines. Returns 0, or -1 with errno set. */
int recfile_write(FILE *f, const struct record *r);

/* How to read, and what reading found. */
struct rec_read {
	bool lenient;           /* skip bad lines instead of failing */
	/* results */
	size_t lines;           /* lines read */
	size_t skipped;         /* lines left out (lenient) */
	bool truncated;         /* no end line (lenient) */
	size_t missing;         /* lines the end line counts that are neither here
				 * nor skipped: lost from the middle (lenient) */
	char first_problem[400];  /* "FILE:LINE: why" of the first skipped line */
};

/*
 * Read a record file strictly. On error returns -1 and writes one line
 * "FILE:LINE: what is wrong" into err. name is used in messages. The file
 * must end with its "end" line, whose counts must match (so a file cut
 * short is never taken for a complete one). rd may be NULL (strict).
 */
int recfile_read(FILE *f, const char *name, struct record *r, char *err, size_t errlen);
int recfile_load(const char *path, struct record *r, char *err, size_t errlen);
int recfile_read_opts(FILE *f, const char *name, struct record *r, struct rec_read *rd,
		      char *err, size_t errlen);

#endif
