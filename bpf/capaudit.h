/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI shared by the BPF program and the loader: map keys and values,
 * ringbuf events, counter indices. Fixed-width types only, no pointers;
 * both sides include this file, so keep it free of kernel or libc headers.
 */
#ifndef CAPAUDIT_H
#define CAPAUDIT_H

#define CA_COMM_LEN      16
#define CA_PATH_LEN      256
#define CA_DNAME_LEN     64   /* an executable's own name (its dentry's) */
#define CA_STACK_DEPTH   32   /* kernel frames kept per stack */
#define CA_STACK_ENTRIES 16384 /* distinct kernel stacks kept */
#define CA_USTACK_DEPTH  32   /* user frames kept per stack (--user-stacks) */
#define CA_USTACK_ENTRIES 4096 /* distinct user stacks kept (--user-stacks) */
#define CA_CACHE_SLOTS   64   /* per-CPU call-site cache slots, power of two */
#define CA_MAX_CAP       63   /* checks with a larger number are clamped here */
#define CA_DENIED_PER_SYSCALL 8 /* denied keys remembered until the syscall returns */
#define CA_AGG_KEYS      65536 /* entries of each aggregation map: -a's least */
#define CA_AGG_KEYS_TREE 4096  /* ... a command or -p tree's first size (it grows) */
#define CA_PROCS_MAX     65536 /* processes followed at once (not -a) */
#define CA_PROOF_FRAMES  8    /* frames a cache hit proves, up to the call site */
#define CA_SKIP_RANGES   128  /* kernel text ranges of the capability API and plumbing */
#define CA_TSTATE_TIDS   16384 /* threads in a syscall with a denied check, before task storage */
#define CA_OBJ_KEEP      4    /* objects the hook reads per key (per aggregation map entry) */
#define CA_PATH_DEPTH    32   /* directories a path walk climbs (bpf/objects.bpf.h) */
#define CA_OBJ_NAME_LEN  32   /* a file system type, a short name */

/* ca_key.flags */
#define CA_F_INIT_NS     0x01 /* checked against the initial user namespace */
#define CA_F_OPTS_KNOWN  0x02 /* the hook saw cap_capable()'s opts argument */
#define CA_F_NOAUDIT     0x04 /* opts had CAP_OPT_NOAUDIT (only with OPTS_KNOWN) */
#define CA_F_INSETID     0x08 /* opts had CAP_OPT_INSETID (only with OPTS_KNOWN) */
/* The checking credentials live in a user namespace other than the initial
 * one: their capabilities there decided, not the host's capability sets. */
#define CA_F_CRED_USERNS 0x10
/* Credentials of the initial namespace, target namespace a child whose
 * level-1 ancestor the credentials' euid owns: granted without any
 * capability (security/commoncap.c cap_capable_helper()). */
#define CA_F_NS_OWNER    0x20
/* The answer could not change the outcome: capset()'s CAP_SETPCAP check
 * (cap_inh_is_capped()) when the new inheritable set stays within the old
 * inheritable and permitted sets (security/commoncap.c cap_capset()). */
#define CA_F_NO_EFFECT   0x40
/* The checked credentials are not the task's own: an override is active
 * (override_creds(): current->cred is not current->real_cred) and they
 * hold a capability outside the task's permitted set or another uid.
 * overlayfs checks as its mounter (ovl_override_creds()), a container's
 * copy-up with the container engine's credentials. */
#define CA_F_FOREIGN_CRED 0x80
/* The hook read the syscall's arguments and decided the kernel's plain
 * rule that allows without the capability, which some kernels ask after
 * the capability (docs/capsites.md): set*id(2)'s CAP_SETUID/CAP_SETGID
 * (the ids asked for are all the caller's own, kernel/sys.c), chmod(2)'s
 * CAP_FSETID (the mode has no S_ISGID, fs/attr.c setattr_prepare()).
 * NO_EFFECT says the rule held; without it the capability was needed. */
#define CA_F_ARGS_CHECKED 0x100

/*
 * A process is (tgid, pstart): pstart is the thread-group leader's
 * task->start_time (CLOCK_MONOTONIC ns at fork; a non-leader exec takes the
 * leader's, fs/exec.c de_thread()). A pid is given out again only after its
 * process is gone, so no two processes share both. A program image is the
 * process plus its exec_id.
 */

/* One aggregated capability check: the key of the aggregation hash maps. */
struct ca_key {
	__u32 tgid;
	__u32 exec_id;   /* task->self_exec_id: changes at each execve() */
	__u64 pstart;    /* the process's start time: see above */
	__u64 kstack;    /* key of the kernel stack in "kstacks" (a hash of its
			  * frames); 0: none, stack_err says why */
	__s32 syscall;   /* syscall in progress, -1 if none (kernel thread) */
	__s32 ret;       /* cap_capable() verdict: 0 granted, -EPERM denied */
	__u16 cap;
	__u16 flags;     /* CA_F_* */
	__s32 stack_err; /* kstack 0: -errno of the stack walk or store */
	/* --user-stacks (else zeros): the user stack, as build id + file
	 * offset frames in the "ustacks" map under a hash of its frames (the
	 * kernel walks frame pointers), and the return address found at the
	 * user stack pointer, which is the caller of a leaf syscall wrapper
	 * (libc's have no frame pointer, so the walk skips exactly that
	 * frame): its file as device and inode, and its offset in that file. */
	__u32 leaf_dev;  /* kernel dev_t (MAJOR << 20 | MINOR); 0: no leaf frame */
	__u32 op;        /* what the syscall asked for, where its effect depends on
			  * it (CA_OP_*); 0 for other syscalls */
	__u64 ustack;    /* key in "ustacks"; 0: none */
	__u64 leaf_ino;
	__u64 leaf_off;
};

/*
 * ca_key.op: the syscall's own argument that says which operation it
 * asked for, for the syscalls where a capability check's effect depends
 * on it (docs/record-format.md "op"): setsockopt(2)/getsockopt(2) level <<
 * 16 | option name (sk_setsockopt() refuses SO_RCVBUFFORCE, which programs
 * try before SO_RCVBUF); socket(2) family << 16 | type (without its
 * flags); bpf(2) the command; prctl(2) the option; ioctl(2) the request;
 * fcntl(2) the command; ptrace(2) the request; keyctl(2) the operation;
 * chmod(2) and its forms the mode's set-ID and sticky bits (07000).
 */
#define CA_OP_SOCKOPT(level, name) (((__u32)(level) & 0xffff) << 16 | ((__u32)(name) & 0xffff))
#define CA_OP_SOCKET(family, type) (((__u32)(family) & 0xffff) << 16 | ((__u32)(type) & 0xf))
#define CA_OP_MODE_BITS 07000

/* A kernel stack, innermost frame first, zero-filled after the last. */
struct ca_kstack {
	__u64 ips[CA_STACK_DEPTH];
};

/* A user stack (--user-stacks): CA_USTACK_DEPTH struct bpf_stack_build_id
 * (32 bytes each: status, build id, offset), innermost first, zero-filled
 * (status BPF_STACK_BUILD_ID_EMPTY) after the last. Words here, so that
 * this header needs no kernel header. */
#define CA_USTACK_FRAME_WORDS 4
struct ca_ustack {
	__u64 words[CA_USTACK_DEPTH * CA_USTACK_FRAME_WORDS];
};

/* An executable file, as the kernel knows it: the inode's number, its
 * generation (a reused number is another file) and the kernel's dev_t of
 * its filesystem (major << 20 | minor). All zero: none (a kernel thread). */
struct ca_exe_id {
	__u64 ino;
	__u32 gen;
	__u32 dev;
};

/* Who made the first check of a key, and when. */
struct ca_meta {
	__u64 first_ns;  /* CLOCK_MONOTONIC (bpf_ktime_get_ns); 0: not known */
	__u64 cgroup_id;
	__u32 uid;       /* real uid */
	__u32 tid;       /* thread */
	char comm[CA_COMM_LEN];
	/* the program the process runs (mm->exe_file): its checks keep their
	 * executable when its exec or fork event was lost (ringbuf full),
	 * named through the "exe_names" map (see there) */
	struct ca_exe_id exe;
};

/* "exe_names": what the exec hook saw of an executable, by its inode
 * (struct ca_exe_id), for checks whose exec event was lost. LRU: a host
 * runs far fewer distinct programs than it starts processes. */
#define CA_EXE_NAMES 4096
struct ca_exe_name {
	char filename[CA_PATH_LEN]; /* the path as passed to execve() */
	char exe_name[CA_DNAME_LEN];/* the file's own name (its dentry's) */
	__u32 flags;                /* CA_EVF_EXE_UNLINKED */
	__u32 pad;
};

struct ca_val {
	__u64 count;
	__u64 last_ns;
	__u64 sys_failed; /* times the syscall then failed with EPERM/EACCES */
	__u64 sys_other;  /* ... failed with another error (the last: sys_errno) */
	__u64 sys_restart; /* ... was interrupted (EINTR, ERESTART*): inconclusive */
	__u32 sys_errno;
	__u32 pad;
	struct ca_meta meta;
	/* What the checks were about (bpf/objects.bpf.h): the fingerprints
	 * of the first CA_OBJ_KEEP objects the hook read for this key (0:
	 * free), each sent once as a CA_EV_OBJECT event, and the checks it
	 * saw with each. Once the list is full the hook reads no more
	 * objects: obj_more counts the checks it looked at then. Only a
	 * cache miss looks (never a hit): see "Hot path" in capaudit.bpf.c. */
	__u64 obj_fp[CA_OBJ_KEEP];
	__u32 obj_count[CA_OBJ_KEEP];
	__u64 obj_more;
};

/*
 * The per-CPU call-site cache (see capaudit.bpf.c). The loader reads every
 * CPU's copy after detaching the hooks and adds the pending counts to its
 * own table.
 */
struct ca_slot {
	__u64 tag;       /* 0: empty */
	struct ca_key key;
	__u64 count;     /* checks counted here, not yet in an aggregation map */
	__u64 last_ns;
	struct ca_meta meta;  /* the slot's first check: its agg entry may be
			       * gone (drained) when the count is moved */
	__u16 hits;
	__u8 pad0;
	/* The proof a hit must pass to be counted without a stack walk: the
	 * return addresses the walk found, from the innermost frame up to
	 * and including the call site, and where they sat on the kernel
	 * stack, in bytes above the program's own frame (the frames up to
	 * cap_capable itself are the hook's and never change: they are
	 * found, not proven). nproof 0: the slot
	 * cannot be proven (no call site within CA_PROOF_FRAMES, no symbols,
	 * a slot not found): every hit walks. capaudit.bpf.c says why a
	 * passing proof means the same call site. */
	__u8 nproof;
	__u8 pad;
	__u16 pbase;     /* the first proven word's offset; a hit reads */
	__u16 pspan;     /* [pbase, pbase + pspan) in one read */
	__u16 ppos[CA_PROOF_FRAMES];
	__u64 pval[CA_PROOF_FRAMES];
};

struct ca_cache {
	struct ca_slot slots[CA_CACHE_SLOTS];
	/* scratch for the program: addresses turned into numbers, and the
	 * words of the kernel stack searched for return addresses */
	__u64 fp_num, top_num, sid_num, serr_num;
	__u64 forget[4];   /* FORGET(): values the verifier is to forget */
	__u64 scan[64];
};

enum ca_event_type {
	CA_EV_FORK  = 1, /* a traced process created a process */
	CA_EV_EXEC  = 2, /* a traced process exec'd */
	CA_EV_EXIT  = 3, /* the last thread of a traced process exited */
	CA_EV_FIRST = 4, /* first check by a thread we had not seen (-a) */
	CA_EV_CAPSET = 5, /* a followed process called capset(): the sets it asked for */
	/* a check added a key to the aggregation map (monitor only): the
	 * first occurrence since the last drain, user space dedupes */
	CA_EV_NEWKEY = 6,
	/* a followed process reached another through a ptrace access check
	 * (bpf/ptrace_access.bpf.h): once per (process, target, way) */
	CA_EV_PTRACE = 7,
	/* what a check was about: struct ca_obj_event, once per object
	 * fingerprint per key (bpf/objects.bpf.h) */
	CA_EV_OBJECT = 8,
	/* a check (or a denied check's syscall result) that found the
	 * aggregation map full, sent with its whole key and value instead:
	 * struct ca_spill_event */
	CA_EV_SPILL = 9,
};

/* ca_obj_event.kind: the same kinds as the record's (recfile.h enum
 * rec_obj_kind), numbered alike */
enum ca_obj_kind {
	CA_OBJ_FILE = 1,    /* path (+ base), inode's uid/gid/mode with CA_OBJF_INODE */
	CA_OBJ_PROCESS = 2, /* pid */
	CA_OBJ_SOCKOPT = 3, /* detail: level; num: option */
	CA_OBJ_SOCKET = 4,  /* detail: family; sub: type; num: protocol */
	CA_OBJ_BIND = 5,    /* detail: family; num: port */
	CA_OBJ_NETLINK = 6, /* detail: protocol; num: message type (-1: not read) */
	CA_OBJ_IOCTL = 7,   /* num: request; path: the fd's file */
	CA_OBJ_BPF = 8,     /* num: command; detail: program or map type (-1: none) */
	CA_OBJ_MOUNT = 9,   /* path: target; name: file system type */
	CA_OBJ_SYSCTL = 10, /* (made by user space from a /proc/sys/ file) */
	CA_OBJ_FLAGS = 11,  /* num: flags; detail: CA_FLAGS_* (what they are of) */
};

/* ca_obj_event.detail of CA_OBJ_FLAGS */
enum ca_flags_of { CA_FLAGS_CLONE = 1, CA_FLAGS_UNSHARE = 2, CA_FLAGS_PRCTL = 3, CA_FLAGS_CLONE3 = 4 };

/* How the hook finds the object of a syscall (the loader's table
 * obj_how[], by this architecture's syscall numbers: tracer/objhow.c). */
enum ca_obj_how {
	CA_OH_NONE = 0,
	CA_OH_PATH0,      /* a path in a0, from the cwd */
	CA_OH_PATH1,      /* a path in a1, from the cwd (symlink's new name) */
	CA_OH_AT0_PATH1,  /* dirfd a0, path a1; a NULL path names a0's file (utimensat) */
	CA_OH_AT1_PATH2,  /* dirfd a1, path a2 (symlinkat) */
	CA_OH_FD0,        /* fd a0: its file, or its socket (netlink: the message at a1) */
	CA_OH_WRITEV,     /* fd a0, struct iovec a1 */
	CA_OH_SENDMSG,    /* fd a0, struct msghdr a1 */
	CA_OH_IOCTL,      /* fd a0, request a1 */
	CA_OH_PID0,       /* pid a0 */
	CA_OH_PID1,       /* pid a1 (ptrace) */
	CA_OH_PRIO,       /* setpriority: which a0 (PRIO_PROCESS 0), who a1 */
	CA_OH_IOPRIO,     /* ioprio_set: which a0 (IOPRIO_WHO_PROCESS 1), who a1 */
	CA_OH_SOCKOPT,    /* level a1, option a2 */
	CA_OH_SOCKET,     /* family a0, type a1, protocol a2 */
	CA_OH_BIND,       /* fd a0, sockaddr a1 */
	CA_OH_BPF,        /* command a0, union bpf_attr a1 */
	CA_OH_MOUNT,      /* source a0, target a1, file system type a2 */
	CA_OH_UMOUNT,     /* target a0 */
	CA_OH_CLONE,      /* flags a0 */
	CA_OH_CLONE3,     /* struct clone_args a0 (flags first) */
	CA_OH_UNSHARE,    /* flags a0 */
	CA_OH_PRCTL,      /* option a0 */
	CA_OH_NR
};

/* ca_obj_event.oflags */
#define CA_OBJF_INODE    0x01 /* uid, gid, mode read from the file's inode by the hook */
#define CA_OBJF_REL      0x02 /* path is relative to base (a directory the hook resolved) */
#define CA_OBJF_BASE_CUT 0x04 /* base (or an fd's path) is cut: deeper than CA_PATH_DEPTH,
			       * longer than CA_PATH_LEN, or on a mount the walk cannot cross */
#define CA_OBJF_PIDNS    0x08 /* the caller is in a child pid namespace: pid is its number there */
#define CA_OBJF_NOBASE   0x10 /* relative path, its directory not found (a bad dirfd) */
#define CA_OBJF_PATH_CUT 0x20 /* the user's string did not fit CA_PATH_LEN */
#define CA_OBJF_MNTNS    0x40 /* the caller's mount namespace is not the recorder's:
			       * its paths name files the recorder cannot stat() */

/* A CA_EV_OBJECT event: the check's key, so that the recorder puts the
 * object on its check line, the object's fingerprint (as kept in
 * ca_val.obj_fp) and what the hook read of it. */
struct ca_obj_event {
	__u32 type;        /* CA_EV_OBJECT */
	__u16 kind;        /* enum ca_obj_kind */
	__u16 oflags;      /* CA_OBJF_* */
	struct ca_key key;
	__u64 fp;
	__s64 num;         /* -1: none */
	__s64 detail;      /* -1: none */
	__s32 pid;         /* CA_OBJ_PROCESS: as the syscall named it; 0: none */
	__u32 sub;
	__u32 uid, gid, mode;  /* with CA_OBJF_INODE */
	__u32 pad;
	char name[CA_OBJ_NAME_LEN];
	char path[CA_PATH_LEN];
	char base[CA_PATH_LEN];
};

/* A CA_EV_SPILL event: what the map had no room for, added by the
 * recorder to its table as a drained entry is (tracer/aggtab.c), so that
 * a full map costs ring buffer space, not the checks' process and call
 * site. Only when the ring buffer is full too are they counted per
 * capability alone (CA_STAT_MAP_FULL). */
struct ca_spill_event {
	__u32 type;        /* CA_EV_SPILL */
	__u32 pad;
	struct ca_key key;
	struct ca_val val;
};

/* CA_EV_PTRACE: the way the target was reached */
enum ca_ptrace_via {
	CA_PT_PTRACE = 1,     /* ptrace(PTRACE_ATTACH or PTRACE_SEIZE) */
	CA_PT_VM_RW = 2,      /* process_vm_readv/writev */
	CA_PT_KCMP = 3,
	CA_PT_ROBUST_LIST = 4, /* get_robust_list */
	CA_PT_PERF = 5,       /* perf_event_open on a process */
	CA_PT_PIDFD = 6,      /* pidfd_getfd: the target is not known */
	CA_PT_PROC = 7,       /* a /proc/PID file: pt_entry names it */
	CA_PT_NR,
};

/* /proc/PID entries whose open (or readlink) asks ptrace_may_access()
 * and fails without it; pt_entry is 1 + the index. Those of
 * CA_PROC_ENTRY_DIRS (fd, ns) count only with a name below them. */
#define CA_PROC_ENTRY_NAMES \
	"mem", "environ", "auxv", "maps", "smaps", "smaps_rollup", "numa_maps", "pagemap", \
	"map_files", "fd", "fdinfo", "ns", "root", "cwd", "exe", "stack", "syscall", \
	"personality", "io"
#define CA_PROC_ENTRIES 19
#define CA_PROC_ENTRY_DIRS ((1U << 9) | (1U << 11))
/* the bytes of a path the hook reads (a power of two) */
#define CA_PT_PATH 128

struct ca_event {
	__u32 type;      /* enum ca_event_type */
	__u32 tgid;
	__u32 tid;
	__u32 ppid;
	__u32 uid;
	__u32 exec_id;   /* task->self_exec_id after the event */
	__s32 exit_code; /* CA_EV_EXIT: wait(2)-style status */
	__u32 flags;     /* CA_EVF_* */
	__u64 pstart;    /* the process (tgid, pstart): see struct ca_key */
	union {
		struct {
			__u64 parent_start; /* the parent process (ppid, parent_start) */
			__u64 boot_start;   /* task->start_boottime: what /proc/PID/stat shows */
			__u64 cgroup_id;
			/* CA_EV_EXEC: the executable's inode (the file the
			 * kernel ran, whatever its path now names): the
			 * number, the generation (a reused number is
			 * another file) and the kernel's dev_t of its
			 * filesystem (major << 20 | minor) */
			__u64 exe_ino;
			__u32 exe_gen;
			__u32 exe_dev;
		};
		struct {            /* CA_EV_CAPSET: the new sets, as capset() was given them */
			__u64 set_effective;
			__u64 set_permitted;
			__u64 set_inheritable;
		};
		struct {            /* CA_EV_PTRACE */
			__u64 pt_caller_prm;  /* the caller's permitted set */
			__u64 pt_caller_eff;  /* and effective set */
			__u32 pt_target;      /* pid or tid, as the caller named it; 0: unknown */
			__u32 pt_userns;      /* the caller's user namespace (inode number) */
			__u32 pt_pidns_level; /* its pid namespace's depth: 0 the initial one */
			__u16 pt_via;         /* enum ca_ptrace_via */
			__u16 pt_entry;       /* CA_PT_PROC: 1 + index in CA_PROC_ENTRY_NAMES */
		};
		struct {            /* CA_EV_NEWKEY: the new key's check */
			__u64 key_cgroup;
			__u64 kstack;   /* struct ca_key.kstack */
			__s32 syscall;
			__s32 ret;
			__u16 cap;
			__u16 kflags;   /* CA_F_* */
			__u32 key_op;   /* struct ca_key.op */
		};
	};
	__u64 ts_ns;
	char comm[CA_COMM_LEN];
	char filename[CA_PATH_LEN]; /* CA_EV_EXEC only: the others end before it */
	/* CA_EV_EXEC: the file's own name, for a path that names no file once
	 * the process is gone (/proc/self/fd/N of a memfd: "memfd:NAME") */
	char exe_name[CA_DNAME_LEN];
};

/* ca_event.flags */
/* CA_EV_EXEC: the exec gained privilege (setuid, setgid, file
 * capabilities): bprm->secureexec, which sets AT_SECURE */
#define CA_EVF_SECURE_EXEC 0x01
/* CA_EV_EXEC: the file had no link left (a memfd, a deleted file) */
#define CA_EVF_EXE_UNLINKED 0x02

/* The size of every event but CA_EV_EXEC: a quarter of an exec event, so
 * that the ringbuf holds four times as many forks and exits. */
#define CA_EVENT_SMALL __builtin_offsetof(struct ca_event, filename)

/* Indices into the per-CPU "stats" array. (No counter of all checks: the
 * loader adds up the aggregated counts, tracer_checks(), and the hook
 * does not pay for a second increment.) */
enum ca_stat {
	CA_STAT_MAP_FULL = 0,   /* checks not attributed: agg map full */
	CA_STAT_RINGBUF_FULL,   /* events dropped: ringbuf full */
	CA_STAT_STACK_ERR,      /* stacks not stored (map full, collision) */
	CA_STAT_CACHE_MISS,     /* call-site cache misses: stack walked */
	CA_STAT_CACHE_VERIFY,   /* cache hits re-checked by walking the stack */
	CA_STAT_CACHE_MISMATCH, /* re-checks that found another call site */
	CA_STAT_PROC_FULL,      /* processes not followed: procs map full */
	CA_STAT_RESULT_LOST,    /* denied checks whose syscall result was not kept */
	CA_STAT_KEYS,           /* entries added to the aggregation maps */
	CA_STAT_UNPROVEN,       /* cache hits whose proof failed: stack walked */
	CA_STAT_SPILLED,        /* checks sent as CA_EV_SPILL: the map was full */
	CA_STAT_PATH_PROVEN,    /* stacks proven by a learned path: not walked */
	CA_STAT_PATH_SPLIT,     /* a path's periodic walk found another stack */
	CA_STAT_NR,
};

/* A process, as the iter/task snapshot (bpf/tasks.bpf.c) gives it. */
#define CA_TASK_EXITING 0x01  /* exiting or a zombie: makes no more checks */

struct ca_task {
	__u32 tgid;
	__u32 ppid;
	__u32 exec_id;
	__u32 uid;       /* real uid */
	__u32 flags;     /* CA_TASK_* */
	__u32 euid;      /* the user it acts as */
	__u64 pstart;    /* see struct ca_key */
	__u64 parent_start;
	__u64 boot_start;
	__u64 cgroup_id; /* its cgroup v2 id (the directory's inode number) */
	char comm[CA_COMM_LEN];
};

/* Kernel text the call-site cache's proofs skip over (capaudit.bpf.c):
 * the capability API and tracing plumbing, the kernel's own text, and
 * cap_capable() itself. n 0: none known, no proofs. */
struct ca_ranges {
	__u32 n;
	__u32 pad;
	__u64 lo[CA_SKIP_RANGES], hi[CA_SKIP_RANGES];
	__u64 text_lo, text_hi;
	__u64 capcap_lo, capcap_hi;
};

/* Overflow counts when the agg map is full: [cap][denied]. */
#define CA_OVERFLOW_SLOTS ((CA_MAX_CAP + 1) * 2)

/*
 * What the kernel's BPF offers the hooks (the program's kfeat, set by the
 * loader from its probes: tracer/probe.c kfeat_probe()). Where one is
 * missing the program takes another path (capaudit.bpf.c), and
 * facts/kfeat.c says what that costs. The same bits as facts/kfeat.h's KF_*.
 */
#define CA_KF_TASK_BTF     0x01 /* bpf_get_current_task_btf(): Linux 5.11 */
#define CA_KF_TASK_PT_REGS 0x02 /* bpf_task_pt_regs(): 5.15 */
#define CA_KF_FIND_VMA     0x04 /* bpf_find_vma(): 5.17 */
#define CA_KF_TASK_STORAGE 0x08 /* task storage in tracing programs: 5.12 */
#define CA_KF_KRETPROBE_STACK 0x10 /* stacks walked past a kretprobe: 5.15 */
#define CA_KF_ALL          0x1f

#endif /* CAPAUDIT_H */
