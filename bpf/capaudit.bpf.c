// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit's kernel side: count every capability check made by the traced
 * processes, keyed by (process image, capability, verdict, kernel stack,
 * syscall) in the agg hash map.
 *
 * One hook on cap_capable() is attached, chosen by the loader:
 *   tp_btf/cap_capable                 trace event, Linux 6.14+ (preferred)
 *   tracepoint/capability/cap_capable  same event through tracefs
 *   fexit/cap_capable                  BPF trampolines (older kernels)
 *   kprobe + kretprobe on cap_capable  anything with kprobes
 * plus sched_process_{fork,exec,exit} to follow the process tree, and, with
 * --syscall-results, sys_exit to learn how syscalls with a denied check
 * ended.
 *
 * Checks are keyed by process identity (tgid and the process's start time,
 * capaudit.h), never by pid alone: a pid given out again is another
 * process. The aggregation map the programs write is the one in aggs[0];
 * the loader swaps in an empty one when it fills and drains the old one
 * (the map-in-map update waits for running programs: kernel/bpf/syscall.c
 * maybe_wait_bpf_programs(), commit 1ae80cf31938), so a busy host never
 * fills it and no count is added to a map being drained.
 *
 * Cost (docs/performance.md): walking the kernel stack (bpf_get_stackid)
 * costs about ten times the syscall itself, and a hash-map update or a
 * task-storage lookup per check costs as much as an empty program. So the
 * hot path is a per-CPU, direct-mapped cache of call sites (the per-CPU
 * array lookup is inlined by the verifier): a slot is tagged by (thread,
 * program image, syscall, user ip, first two syscall arguments, capability,
 * verdict, flags) and holds the agg key it was attributed to and a pending
 * count. Where a slot cannot tell, a path (below: whole stacks learned
 * from other walks, shared by the CPU's processes) may prove the stack
 * before it is walked. The tag is only a hash of what user space passed
 * in, so one tag can reach several call sites (clone3: the mm copy's noaudit
 * CAP_SYS_ADMIN check once per mapping, then alloc_pid's audited one; bpf:
 * bpf_prog_load's CAP_PERFMON, then bpf_check's). A hit is therefore
 * counted without a walk only when it passes the slot's proof (below);
 * anything else walks the stack. Hits are also re-walked on the first
 * CA_VERIFY_FIRST hits of a slot and every 256th after (every hit with
 * --exact-stacks), which keeps the frames above the call site and the
 * user stack fresh; a slot whose re-walk finds another stack is split
 * (the new stack gets its own agg entry) and walks on every hit from then
 * on. Counts never depend on the cache: pending counts are added to agg on
 * eviction, and by the loader from every CPU's cache after the hooks are
 * detached.
 *
 * The proof. Where the stack is walked, the walk's return addresses are
 * also looked for in the kernel stack's memory above the program's own
 * frame, from the innermost up to the call site (the first frame after the
 * capability API: cap_capable, security_capable, ns_capable, ...; the
 * loader passes their text ranges). A hit reads those words again at the
 * same distances from its own frame and must find the same addresses. Why
 * that means the same call site: the innermost slot is at a fixed distance
 * from the program's frame (the hook's own frames never change), and once
 * a return address R into function F is found at its slot, the next slot
 * is F's frame size further up, which the compiler fixed for the call
 * instruction R returns to (the unwinder's ORC data records exactly that
 * distance). So if every address matches, each one sits in its genuine
 * slot and names the same call instruction, up to the call site's: the
 * check came from the same call site. A slot whose words cannot be found
 * (a frame bigger than the search window, a site deeper than
 * CA_PROOF_FRAMES, no symbols) gets no proof: its hits always walk.
 * docs/performance.md has the cost: a few 8-byte reads per hit.
 *
 * A tracepoint or kprobe program runs with preemption disabled and is not
 * re-entered on its CPU, so a CPU's cache has one writer at a time. fexit
 * programs run preemptible: the kernel skips (and counts in the program's
 * recursion_misses) a run that would nest on the same CPU; the loader
 * reports those as lost.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "capaudit.h"
#include "arch.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define EPERM  1
#define ENOENT 2
#define EACCES 13
#define EEXIST 17
#define EINTR  4

#define CA_VERIFY_FIRST  64   /* hits of a new slot that are all re-checked */
#define CA_TIME_EVERY    16   /* last_ns is refreshed every 16th hit: a clock read costs ~30 ns */

#define PF_KTHREAD       0x00200000 /* include/linux/sched.h */
#define VM_EXEC          0x00000004 /* include/linux/mm.h */

/* Capability numbers, include/uapi/linux/capability.h. Macros are not in
 * vmlinux.h, and that header cannot be included beside it (both define
 * struct __user_cap_header_struct); user space takes them from the header
 * itself (facts/capnames.h). */
#define CAP_FSETID       4
#define CAP_SETGID       6
#define CAP_SETUID       7
#define CAP_SETPCAP      8

/* cap_capable() opts bits, include/linux/security.h (Linux 5.1+). */
#define CAP_OPT_NOAUDIT  (1U << 1)
#define CAP_OPT_INSETID  (1U << 2)

/* Set by the loader before load. */
const volatile bool cfg_all = false;   /* -a: every process but our own */
/* Paths (below): on where process starts are what costs (monitor, -a, a
 * cgroup scope); off for a command or -p, whose start-up counts more: the
 * calls below are then dead code, and the kernel here (6.18) does not
 * verify the path functions at all (the load ~65 ms of CPU less) */
const volatile bool cfg_paths = false;
const volatile __u32 self_tgid = 0;   /* alive throughout: no other process has it */
/* capaudit's output keeper (user/lib/outfile.h), alive as long; 0: none */
const volatile __u32 keeper_tgid = 0;
/* A caller that is not root (and, for -a, not in capaudit's group) sees
 * only processes acting as its own user: a process that becomes another
 * user (a setuid program) is no longer followed. */
const volatile bool cfg_only_uid = false;
const volatile __u32 cfg_uid = 0;
const volatile bool track_results = false;  /* --syscall-results */
/* After the first CA_VERIFY_FIRST hits, re-check when (hits & verify_mask)
 * is 0: 255 re-checks every 256th hit; 0 (--exact-stacks) every hit. */
const volatile __u16 verify_mask = 255;
const volatile bool cfg_user_stacks = false;  /* --user-stacks */
const volatile bool cfg_new_keys = false;  /* monitor: CA_EV_NEWKEY for each key added */
/* --cgroup, --container, --unit: with cfg_all, only tasks in the cgroup v2
 * subtree held in scope_cgroup[0] (the loader puts its directory's fd
 * there), decided in the kernel so that the rest of the host costs one
 * ancestry walk per check */
const volatile bool cfg_cgroup = false;
/* What this kernel's BPF offers (CA_KF_*, capaudit.h), probed by the
 * loader: where a bit is clear the program takes the older path beside
 * it. The verifier reads this frozen value as a constant and never
 * follows the other branch, so a helper the kernel lacks is never seen
 * (kernel/bpf/verifier.c opt_remove_dead_code(), for a loader with
 * CAP_BPF), as libbpf's usdt.bpf.h leaves out bpf_get_attach_cookie()
 * where the kernel lacks it (LINUX_HAS_BPF_COOKIE, a constant at load). */
const volatile __u32 kfeat = CA_KF_ALL;
/* Set by the loader at stop (user/tracer/tracer.c hand_over_ptrace_links()): the
 * ptrace-access hooks send nothing more. Their links are then released
 * by a process that is not the loader's (a syscall tracepoint's link
 * waits for grace periods there: 55 ms at the end of every recording). */
volatile bool hooks_stopped;
#define HAVE(f) (kfeat & (f))
/* Text ranges [lo, hi) of the capability API and tracing plumbing
 * (user/facts/callsite.c's lists, resolved by the loader from the kernel's
 * symbols once the hooks are attached), of the kernel's own text (frames
 * outside it before the first API frame are BPF or ftrace trampolines),
 * and of cap_capable() (the frames up to it are the hook's). n 0 (not yet
 * read, or no symbols): no proofs, every hit walks. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_ranges);
} ranges SEC(".maps");

/* capset(2)'s number on this architecture (set by the loader) */
const volatile __s32 nr_capset = -1;
/* set*id(2)'s numbers (set by the loader; -1: not on this architecture) */
const volatile __s32 nr_setuid = -1, nr_setgid = -1, nr_setreuid = -1, nr_setregid = -1,
	nr_setresuid = -1, nr_setresgid = -1;
/* chmod(2)'s numbers: chmod and fchmod take the mode second, fchmodat and
 * fchmodat2 third (-1: not on this architecture) */
const volatile __s32 nr_chmod = -1, nr_fchmod = -1, nr_fchmodat = -1, nr_fchmodat2 = -1;
/* the syscalls whose operation argument goes into the key (ca_key.op):
 * a bit per number below CA_OP_SYS_MAX, so that every other syscall's check
 * pays one load for it, and their numbers */
#define CA_OP_SYS_MAX 512
const volatile __u64 op_sys_mask[CA_OP_SYS_MAX / 64];
const volatile __s32 nr_setsockopt = -1, nr_getsockopt = -1, nr_socket = -1, nr_bpf = -1,
	nr_prctl = -1, nr_ioctl = -1, nr_fcntl = -1, nr_ptrace = -1, nr_keyctl = -1;
/* fsetxattr(2): its ACL makes fs/posix_acl.c posix_acl_update_mode() ask
 * CAP_FSETID whatever the file's mode */
const volatile __s32 nr_fsetxattr = -1;

/* The aggregation maps: the programs use the one in aggs[0]; the loader
 * swaps in the other (emptied, or a new one) and drains the old. */
struct agg_map {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CA_AGG_KEYS);
	__type(key, struct ca_key);
	__type(value, struct ca_val);
} agg0 SEC(".maps"), agg1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct agg_map);
} aggs SEC(".maps") = {
	.values = { &agg0 },
};

/*
 * Kernel stacks by a 64-bit hash of their frames. Not a STACK_TRACE map:
 * that one keeps one stack per bucket (the hash modulo max_entries) and
 * answers -EEXIST for a second stack in it, so with a few dozen stacks a
 * recording loses a call site now and then, and a noaudit probe without
 * its stack looks like a real denial.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CA_STACK_ENTRIES);
	__type(key, __u64);
	__type(value, struct ca_kstack);
} kstacks SEC(".maps");

/* Where a stack is walked into before it is hashed (too big for the
 * program's stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_kstack);
} kstack_buf SEC(".maps");

/*
 * Paths: whole kernel stacks a check can be proven to run on without a
 * walk, learned from walks and shared by every process on the CPU (the
 * cache's slots are a thread's own). A new process's first checks are
 * cache misses that all walked (~2 us each, ~8 a short-lived process:
 * security_vm_enough_memory_mm()'s noaudit CAP_SYS_ADMIN in execve() and
 * mmap()), though the stacks are the same from one process to the next.
 * A path holds every frame of a walked stack from the first in the
 * kernel's own text to the last walked, and where each return address
 * sat: the proof of the slots (above), carried to the last frame.
 *
 * Where: from the program's frame, up to the frame whose function moved
 * the stack pointer by a random amount (CONFIG_RANDOMIZE_KSTACK_OFFSET,
 * on in Debian's kernels: add_random_kstack_offset() in do_syscall_64(),
 * arch/x86/entry/syscall_64.c, and in invoke_syscall(),
 * arch/arm64/kernel/syscall.c, a new offset of up to 1 KiB each syscall);
 * the entry code's frames above that gap, which sit at fixed distances
 * below the task's saved registers, from the top of the stack. Which
 * frames are above the gap is learned, not guessed: two walks of the same
 * stack with different offsets show the frames that kept their distance
 * from the program's frame and those that kept theirs from the top (the
 * split; at most PATH_TOP_FRAMES above it, within PATH_TOP_SCAN of the
 * top). Until then a path proves only a check whose offset is the one it
 * was learned with. Guessing is wrong: the gap holds stale copies of
 * do_syscall_64()'s return address from earlier syscalls, so a word read
 * at a distance from the top inside it can match by chance (tried: 6 of
 * 300 processes' mmap() checks went to a stack without ksys_mmap_pgoff).
 * Matching every word means every frame (the proof's comment at the top:
 * from the program's frame each frame's size fixes where the next return
 * address is; the entry code puts its own at the same place on every
 * entry), so the same stack, whatever the process.
 *
 * Kept by (syscall, capability): PATH_WAYS paths a set, per CPU (a path is
 * written by one CPU only, never half-read). One walk in PATH_LEARN_EVERY
 * learns a path (learning reads up to twice 512 bytes a frame); every
 * PATH_VERIFY_EVERY-th proof of a path walks anyway, and the path is
 * dropped if the walk finds another stack (CA_STAT_PATH_SPLIT). Not used
 * with --exact-stacks (every check walks) nor where the kprobe walked at
 * the entry.
 */
#define PATH_SETS          16
#define PATH_WAYS          4
#define PATH_SCAN          4096  /* bytes above the program's frame a proof reads at most */
#define PATH_TOP_SCAN      1024  /* bytes below the top of the stack it reads at most
				  * (arm64: a 336-byte pt_regs, then el0t_64_sync_handler()...) */
#define PATH_TOP_FRAMES    6     /* frames it may find there */
#define PATH_VERIFY_EVERY  32
#define PATH_LEARN_EVERY   4

struct path_way {
	__u64 sid;                   /* the stack's id (kstacks) */
	__u64 val[CA_STACK_DEPTH];   /* return addresses, innermost first */
	__u16 pos[CA_STACK_DEPTH];   /* where: bytes above the program's frame */
	__u16 tpos[CA_STACK_DEPTH];  /* and bytes below the top of the stack */
	__u16 base, span;            /* [base, base + span) holds every pos */
	__u8 n;                      /* frames; 0: empty */
	__u8 uses;
	/* the first frame above the random gap (found from the top), learned
	 * from two walks of this stack the gap set apart; 0: not known yet
	 * (every frame is then found from the program's frame) */
	__u8 split;
	__u8 pad;
};

struct path_set {
	struct path_way way[PATH_WAYS];
	__u32 next;    /* the way the next learn replaces when all are taken */
	__u32 walks;
};

struct path_scratch {
	__u64 w[PATH_SCAN / 8];      /* the stack above the program's frame */
	__u64 t[PATH_TOP_SCAN / 8];  /* the stack below its top */
	__u64 lval[CA_STACK_DEPTH];  /* a walk's frames, as path_walked() found them */
	__u16 lpos[CA_STACK_DEPTH];
	__u16 ltpos[CA_STACK_DEPTH];
	__u64 vsid;    /* a proof's periodic walk: what it proved */
	__s32 vway;    /* and which way (-1: none) */
	/* this check walked (kstack_buf holds its stack): kept here, not in
	 * a variable of on_check(), whose every later path the verifier
	 * would otherwise follow twice */
	__u32 walked;
	__u32 due;     /* path_walked(): learn from this walk */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PATH_SETS);
	__type(key, __u32);
	__type(value, struct path_set);
} paths SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct path_scratch);
} path_scratch SEC(".maps");

/* --user-stacks: user frames as build id + file offset, resolved by the
 * kernel while the process runs, by a hash of the frames as for kstacks
 * (the loader sets max_entries 1 otherwise) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CA_USTACK_ENTRIES);
	__type(key, __u64);
	__type(value, struct ca_ustack);
} ustacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_ustack);
} ustack_buf SEC(".maps");

/* The scope's cgroup (cfg_cgroup). */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} scope_cgroup SEC(".maps");

/* Processes followed when not recording the whole system: tgid -> the
 * process's start time, so that another process given the pid is not. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CA_PROCS_MAX);
	__type(key, __u32);
	__type(value, __u64);
} procs SEC(".maps");

/*
 * procs' tgids again, one byte a pid (eight to a word), read first by
 * outside_scope(): an array map's lookup is a few instructions the
 * verifier inlines (array_map_gen_lookup(), kernel/bpf/arraymap.c) where
 * the hash map's is a call and a jhash. Bytes, not bits: a plain store
 * sets one without disturbing its neighbours (BPF's atomic OR is 5.12+),
 * and user space sets its own through a mapping of the map (BPF_F_MMAPABLE,
 * 5.5+), never a copy of a whole word that could undo a fork hook's store
 * beside it. The loader sizes it from kernel.pid_max; a pid beyond it is
 * looked up in procs. 1 entry with -a (unused).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} procbytes SEC(".maps");

static __always_inline void mark_followed(__u32 tgid, __u8 on)
{
	__u32 w = tgid / 8;
	__u8 *b = bpf_map_lookup_elem(&procbytes, &w);

	if (b)
		b[tgid & 7] = on;
}

/* Program images already announced with CA_EV_FIRST, by tgid. */
struct seen_img {
	__u64 pstart;
	__u32 exec_id;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct seen_img);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

/* Executables' names by inode, written by the exec hook the first time it
 * sees a file (struct ca_exe_name in capaudit.h): the ring buffer drops
 * events when its reader falls behind, and a check whose exec event was
 * dropped is still named, from its own ca_meta.exe. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CA_EXE_NAMES);
	__type(key, struct ca_exe_id);
	__type(value, struct ca_exe_name);
} exe_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_exe_name);
} exe_name_buf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CA_STAT_NR);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/*
 * The flags of an event's submit. A submit that wakes a reader sleeping
 * in epoll queues an irq_work (kernel/bpf/ringbuf.c bpf_ringbuf_commit(),
 * flags 0: when the reader had caught up), whose interrupt and wake-up
 * run inside the hook: under monitor -a the fork and exit hooks cost
 * 9-17 us a run that way. So rb_wake(): wake the reader only when the
 * ring buffer is a quarter full; otherwise it finds the events at its
 * next poll (user/tracer/tracer.c tracer_poll(): every 100 ms at most).
 * RB_WAKE_NOW, whether or not the reader had caught up (a fork's event
 * left unread, flags 0 would not wake it at the exec either): for the
 * events whose handling reads what may soon be gone, an exec by a path
 * the reader must resolve through /proc or with --user-stacks, and a
 * ptrace-access event (its target's /proc). Not for a first check's
 * announce (most are an image's checks inside its own execve(), before
 * the exec event: waking for them doubled the first checks' cost), nor
 * object events (their owner, mode or name are "read after the check").
 */
#define RB_WAKE_NOW BPF_RB_FORCE_WAKEUP

static __always_inline __u64 rb_wake(void)
{
	__u64 size = bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);

	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) * 4 >= size ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* Checks that found the agg map full still count here, per cap and verdict. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CA_OVERFLOW_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} overflow SEC(".maps");

/* A new aggregation map value, built here (agg_entry()). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_val);
} val_new SEC(".maps");

/* The call-site cache: one struct ca_cache per CPU (capaudit.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ca_cache);
} cache SEC(".maps");

/* --syscall-results: the denied checks of a task's current syscall, so
 * that sys_exit learns whether it then failed with EPERM/EACCES. Only
 * tasks with a denied check get this state. */
struct task_state {
	__u32 ndenied;
	struct ca_key denied[CA_DENIED_PER_SYSCALL];
};

/* Task storage where tracing programs may use it (CA_KF_TASK_STORAGE,
 * Linux 5.12); before, the loader makes this a hash map by thread id
 * (max_entries CA_TSTATE_TIDS), whose entries sys_exit and the thread's
 * exit remove. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_state);
} tstate SEC(".maps");

/* A new task_state (the hash map fallback copies it in: too big for the
 * program's stack). Never written. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct task_state);
} tstate_new SEC(".maps");

/* --user-stacks: the leaf's return address (user_stack()) and, found by
 * bpf_find_vma(), its file (dev 0: none) and offset in it */
struct leaf_ctx {
	__u64 addr;
	__u64 ino, off;
	__u32 dev;
};

/* kprobe mode: the entry probe's arguments, for the return probe. */
struct kp_args {
	__s32 cap;
	__u32 flags;
	/* without CA_KF_KRETPROBE_STACK: the stack, walked at the entry */
	__u64 kstack;
	__s32 serr;
	__u32 pad;
	struct leaf_ctx leaf;   /* CA_LEAF_AT_ENTRY: found by the entry probe */
	bool has_leaf;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct kp_args);
} kprobe_args SEC(".maps");

static __always_inline void stat_add(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		*v += n;
}

/* The current task: a BTF pointer where the kernel has
 * bpf_get_current_task_btf() (Linux 5.11), whose fields are plain loads;
 * before, an address whose fields are read with BPF_CORE_READ (probe
 * reads), as every caller of the other kind does. */
static __always_inline struct task_struct *cur_task(void)
{
	if (HAVE(CA_KF_TASK_BTF))
		return bpf_get_current_task_btf();
	return (struct task_struct *)bpf_get_current_task();
}

/*
 * Where the kernel keeps a task's user registers: at the top of its kernel
 * stack, task->stack + THREAD_SIZE - sizeof(struct pt_regs) (task_pt_regs()
 * in arch/x86/include/asm/processor.h and arch/arm64/include/asm/processor.h;
 * TOP_OF_KERNEL_STACK_PADDING is 0 on x86-64 until FRED, 6.9). That is what
 * bpf_task_pt_regs() returns since 5.15 (kernel/trace/bpf_trace.c); before,
 * the address is computed here. THREAD_SIZE: 16 KiB on x86-64
 * (arch/x86/include/asm/page_64_types.h) and on arm64 with 4 KiB pages,
 * twice that with KASAN, which the kernels capaudit is for do not have.
 */
#define CA_THREAD_SIZE 16384ULL

static __always_inline __u64 regs_addr(struct task_struct *task)
{
	return (__u64)BPF_CORE_READ(task, stack) + CA_THREAD_SIZE - bpf_core_type_size(struct pt_regs);
}

/* The task's user registers, to read: the kernel's own copy through
 * bpf_task_pt_regs(), or (before 5.15) a copy read from regs_addr() into
 * the cache's scratch words, which nothing else uses until the caller has
 * taken what it needs from them. */
static __always_inline struct pt_regs *task_regs(struct task_struct *task, struct ca_cache *c)
{
	/* the running kernel's size, as regs_addr()'s: vmlinux.h's may be
	 * larger (arm64's pt_regs changed over releases), and a read past the
	 * top of the stack fails at its vmalloc guard page */
	__u32 n = bpf_core_type_size(struct pt_regs);

	_Static_assert(sizeof(struct pt_regs) <= sizeof(c->scan), "pt_regs fits the scratch");
	if (HAVE(CA_KF_TASK_PT_REGS))
		return (struct pt_regs *)bpf_task_pt_regs(task);
	if (n > sizeof(c->scan))
		n = sizeof(c->scan);
	if (bpf_probe_read_kernel(c->scan, n, (void *)regs_addr(task)))
		__builtin_memset(c->scan, 0, sizeof(struct pt_regs));
	return (struct pt_regs *)c->scan;
}

/* The task acts as the user the caller may see (cfg_only_uid). */
static __always_inline bool uid_allowed(struct task_struct *t)
{
	return !cfg_only_uid || BPF_CORE_READ(t, cred, euid.val) == cfg_uid;
}

/* The process (tgid, pstart) is followed. Every caller passes the current
 * task's process (the hooks run in its context: a check, a fork in the
 * parent, an exec, an exit), which the cgroup scope relies on. */
static __always_inline bool followed(__u32 tgid, __u64 pstart)
{
	__u64 *start;

	if (tgid == self_tgid || (keeper_tgid && tgid == keeper_tgid))
		return false;
	if (cfg_all)
		return !cfg_cgroup || bpf_current_task_under_cgroup(&scope_cgroup, 0) == 1;
	start = bpf_map_lookup_elem(&procs, &tgid);
	return start && *start == pstart;
}

/*
 * Outside the scope: the first thing each check program decides when the
 * scope is not the whole system (-p, record -- COMMAND, --cgroup,
 * --container, --unit and the monitor's scopes), so that the rest of the
 * host pays one byte read in procbytes (no call) or one cgroup ancestry
 * test (bpf_current_task_under_cgroup(), kernel/trace/bpf_trace.c, a walk
 * up cgroup_is_descendant()), not the credential reads, register loads
 * and hashing of a check. A process let through is still asked followed() on
 * a cache miss (its start time against a reused pid, capaudit's own
 * processes, the uid), as before. A process outside never takes a cache
 * slot, so this changes nothing for followed ones; what it changes: a
 * process moved out of a --cgroup scope stops counting at once, where its
 * cached slots used to go on counting its hits. -a alone lets every
 * process through (only capaudit's own are left out, on a miss).
 */
static __always_inline bool outside_scope(void)
{
	__u32 tgid, w;
	__u8 *b;

	if (cfg_all)
		return cfg_cgroup && bpf_current_task_under_cgroup(&scope_cgroup, 0) != 1;
	tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	w = tgid / 8;
	b = bpf_map_lookup_elem(&procbytes, &w);
	if (b)
		return !b[tgid & 7];
	return !bpf_map_lookup_elem(&procs, &tgid);
}

/* A task's process start time (its thread-group leader's). */
static __always_inline __u64 proc_start(struct task_struct *t)
{
	return BPF_CORE_READ(t, group_leader, start_time);
}

/* The process identity fields of an event. */
static __always_inline void event_ids(struct ca_event *e, struct task_struct *t)
{
	struct task_struct *parent = BPF_CORE_READ(t, real_parent);

	e->tgid = BPF_CORE_READ(t, tgid);
	e->tid = BPF_CORE_READ(t, pid);
	e->pstart = proc_start(t);
	e->boot_start = BPF_CORE_READ(t, group_leader, start_boottime);
	e->ppid = BPF_CORE_READ(parent, tgid);
	e->parent_start = proc_start(parent);
	e->exec_id = (__u32)BPF_CORE_READ(t, self_exec_id);
}

/* Tell user space about a program image it may not know yet (-p targets
 * that existed before, -a). Once per image; cache misses only. */
static __always_inline void announce(struct task_struct *task, __u32 tgid, __u64 pstart,
				     __u32 exec_id)
{
	struct seen_img *known = bpf_map_lookup_elem(&seen, &tgid), img = {};
	struct ca_event *e;

	if (known && known->pstart == pstart && known->exec_id == exec_id)
		return;
	img.pstart = pstart;
	img.exec_id = exec_id;
	bpf_map_update_elem(&seen, &tgid, &img, BPF_ANY);
	e = bpf_ringbuf_reserve(&events, CA_EVENT_SMALL, 0);
	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return;
	}
	__builtin_memset(e, 0, CA_EVENT_SMALL);
	e->type = CA_EV_FIRST;
	event_ids(e, task);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, rb_wake());
}

static __always_inline __u64 mix64(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* The current aggregation map (aggs[0]), or NULL. */
static __always_inline void *cur_agg(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&aggs, &zero);
}

/* The inode's identity (struct ca_exe_id); zeros for NULL (no mm). */
static __always_inline void exe_id_of(struct ca_exe_id *id, struct inode *inode)
{
	id->ino = BPF_CORE_READ(inode, i_ino);
	id->gen = BPF_CORE_READ(inode, i_generation);
	id->dev = BPF_CORE_READ(inode, i_sb, s_dev);
}

/* Who the current task is, for a new key. */
static __always_inline void current_meta(struct ca_meta *m, __u64 now)
{
	struct task_struct *task = cur_task();

	__builtin_memset(m, 0, sizeof(*m));
	m->first_ns = now;
	m->cgroup_id = bpf_get_current_cgroup_id();
	m->uid = (__u32)bpf_get_current_uid_gid();
	m->tid = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(m->comm, sizeof(m->comm));
	if (HAVE(CA_KF_TASK_BTF)) {
		/* plain loads, not seven probe reads (a kernel thread's
		 * NULL mm reads as zeros): paid by each first check */
		struct inode *inode = task->mm->exe_file->f_inode;

		m->exe.ino = inode->i_ino;
		m->exe.gen = inode->i_generation;
		m->exe.dev = inode->i_sb->s_dev;
	} else {
		exe_id_of(&m->exe, BPF_CORE_READ(task, mm, exe_file, f_inode));
	}
}

/*
 * key added to the aggregation map agg with count and meta: 1 added, 0
 * there already (another CPU added it first, or an earlier slot of the
 * same key), -1 the map full (or none). One update, no lookup before or
 * after it: a new process's first checks are all new keys, and hash map
 * inserts and lookups were 41% of the check program's samples under
 * monitor -a (perf record of 3,000 process starts, docs/performance.md).
 */
static __always_inline int agg_insert(void *agg, const struct ca_key *key, __u64 count,
				      __u64 last_ns, const struct ca_meta *meta)
{
	struct ca_val *nv;
	__u32 zero = 0;
	long err;

	if (!agg)
		return -1;
	/* built in val_new, not on the stack: on_check()'s frame leaves too
	 * little of the 512 bytes for its 176 */
	nv = bpf_map_lookup_elem(&val_new, &zero);
	if (!nv)
		return -1;
	__builtin_memset(nv, 0, sizeof(*nv));
	nv->count = count;
	nv->last_ns = last_ns;
	nv->meta = *meta;
	err = bpf_map_update_elem(agg, key, nv, BPF_NOEXIST);
	if (err == 0) {
		stat_add(CA_STAT_KEYS, 1);
		return 1;
	}
	return err == -EEXIST ? 0 : -1;
}

/*
 * The entry of key in the current aggregation map, added (with count and
 * meta) when missing: when a drain took the earlier one. NULL when the
 * map is full (the caller counts the checks per capability only).
 */
static __always_inline struct ca_val *agg_entry(void *agg, const struct ca_key *key,
					       __u64 count, __u64 last_ns,
					       const struct ca_meta *meta, bool *added)
{
	struct ca_val *v;

	*added = false;
	if (!agg)
		return NULL;
	v = bpf_map_lookup_elem(agg, key);
	if (v)
		return v;
	*added = agg_insert(agg, key, count, last_ns, meta) > 0;
	return bpf_map_lookup_elem(agg, key);
}

/* Checks that found the map full and the ring buffer too: counted per
 * capability and verdict. */
static __always_inline void count_overflow(const struct ca_key *key, __u64 n)
{
	__u32 idx = (__u32)(key->cap & CA_MAX_CAP) * 2 + (key->ret ? 1 : 0);
	__u64 *ov = bpf_map_lookup_elem(&overflow, &idx);

	stat_add(CA_STAT_MAP_FULL, n);
	if (ov)
		*ov += n;
}

/* ca_spill_event.val's syscall result: none, or which counter */
enum spill_result { SPILL_NONE, SPILL_FAILED, SPILL_RESTART, SPILL_OTHER };

/*
 * A key the full map had no room for, sent whole to the recorder (struct
 * ca_spill_event): n checks, or (n 0) one denied check's syscall result.
 * Built in the ring buffer, not on the stack. False when the ring buffer
 * is full too.
 */
static __always_inline bool spill(const struct ca_key *key, __u64 n, __u64 last_ns,
				  const struct ca_meta *meta, enum spill_result res, __u32 err)
{
	struct ca_spill_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return false;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = CA_EV_SPILL;
	e->key = *key;
	e->val.count = n;
	e->val.last_ns = last_ns;
	e->val.meta = *meta;
	if (res == SPILL_FAILED)
		e->val.sys_failed = 1;
	else if (res == SPILL_RESTART)
		e->val.sys_restart = 1;
	else if (res == SPILL_OTHER) {
		e->val.sys_other = 1;
		e->val.sys_errno = err;
	}
	bpf_ringbuf_submit(e, rb_wake());
	if (n)
		stat_add(CA_STAT_SPILLED, n);
	return true;
}

/* Move a slot's pending count into the current aggregation map. */
static __always_inline void flush_slot(struct ca_slot *s)
{
	struct ca_val *v;
	bool added;

	if (!s->tag || !s->count)
		return;
	v = agg_entry(cur_agg(), &s->key, s->count, s->last_ns, &s->meta, &added);
	if (!v) {
		if (!spill(&s->key, s->count, s->last_ns, &s->meta, SPILL_NONE, 0))
			count_overflow(&s->key, s->count);  /* lose only the attribution */
	} else if (!added) {
		__sync_fetch_and_add(&v->count, s->count);
		if (s->last_ns > v->last_ns)
			v->last_ns = s->last_ns;
	}
	s->count = 0;
}

/* The --user-stacks part of a key. */
static __always_inline bool user_eq(const struct ca_key *a, const struct ca_key *b)
{
	return a->ustack == b->ustack && a->leaf_ino == b->leaf_ino &&
	       a->leaf_off == b->leaf_off && a->leaf_dev == b->leaf_dev;
}

static __always_inline bool key_eq(const struct ca_key *a, const struct ca_key *b)
{
	return a->tgid == b->tgid && a->exec_id == b->exec_id && a->pstart == b->pstart &&
	       a->kstack == b->kstack && a->stack_err == b->stack_err &&
	       a->syscall == b->syscall && a->ret == b->ret && a->cap == b->cap &&
	       a->flags == b->flags && a->op == b->op && user_eq(a, b);
}

/* The current task's task_state: in its task storage, or (before 5.12)
 * in the hash map by thread id; created when asked. */
static __always_inline struct task_state *task_state(struct task_struct *task, bool create)
{
	__u32 tid, zero = 0;
	struct task_state *st, *fresh;

	if (HAVE(CA_KF_TASK_STORAGE))
		return bpf_task_storage_get(&tstate, task, 0,
					    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	tid = (__u32)bpf_get_current_pid_tgid();
	st = bpf_map_lookup_elem(&tstate, &tid);
	if (st || !create)
		return st;
	fresh = bpf_map_lookup_elem(&tstate_new, &zero);
	if (!fresh)
		return NULL;
	bpf_map_update_elem(&tstate, &tid, fresh, BPF_NOEXIST);
	return bpf_map_lookup_elem(&tstate, &tid);
}

/* --syscall-results: only denied checks pay for this. */
static __always_inline void remember_denied(struct task_struct *task, const struct ca_key *key)
{
	struct task_state *st;
	__u32 i, n;

	st = task_state(task, true);
	if (!st) {
		stat_add(CA_STAT_RESULT_LOST, 1);
		return;
	}
	n = st->ndenied;
	for (i = 0; i < CA_DENIED_PER_SYSCALL; i++) {
		if (i >= n)
			break;
		if (key_eq(&st->denied[i], key))
			return;
	}
	if (n >= CA_DENIED_PER_SYSCALL) {
		stat_add(CA_STAT_RESULT_LOST, 1);
		return;
	}
	st->denied[n] = *key;
	st->ndenied = n + 1;
}

static long leaf_vma(struct task_struct *task, struct vm_area_struct *vma, struct leaf_ctx *lc)
{
	struct file *f = vma->vm_file;

	if (!f || !(vma->vm_flags & VM_EXEC))
		return 0;
	lc->ino = BPF_CORE_READ(f, f_inode, i_ino);
	lc->dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
	lc->off = lc->addr - vma->vm_start + ((__u64)vma->vm_pgoff << 12);
	return 0;
}

/*
 * Would mmap_read_trylock() on task's mm fail? It does (and the user
 * stack's build ids become bare addresses, bpf_find_vma() -EBUSY) while a
 * writer holds the lock or waits for it: the count's bits 0-2 (writer
 * locked, waiters, handoff; kernel/locking/rwsem.c, since 64489e78004c in
 * 5.3). Readers alone (bits 8 and up: anyone reading the process's
 * /proc/PID/cmdline or maps, a monitoring agent's ps) let it succeed: such
 * checks keep their user stack (testing the whole count dropped 71 of 250
 * under a reader of /proc/PID/cmdline). A PREEMPT_RT kernel's rwsem has no
 * count: tried, as bpf_get_stack() falls back safely.
 */
static __always_inline bool mmap_lock_busy(struct task_struct *task)
{
	struct mm_struct *mm = BPF_CORE_READ(task, mm);

	if (!bpf_core_field_exists(mm->mmap_lock.count))
		return false;
	return BPF_CORE_READ(mm, mmap_lock.count.counter) & 7;
}

/*
 * The leaf's return address, into lc: x86's call instruction left it at
 * the user stack pointer, arm64's is in the link register, lr
 * (arch.bpf.h); and its file and offset when it points into executable
 * file-backed code.
 */
static __always_inline void find_leaf(struct task_struct *task, __u64 sp, __u64 lr,
				      struct leaf_ctx *lc)
{
	lc->dev = 0;
	lc->addr = lr;
	if (!lr && bpf_probe_read_user(&lc->addr, sizeof(lc->addr), (void *)sp))
		return;
	if (!lc->addr || bpf_find_vma(task, lc->addr, leaf_vma, lc, 0))
		lc->dev = 0;
}

/*
 * --user-stacks, where the kernel stack is walked (never on a plain hit):
 * the frame-pointer walk as build id + offset, and the leaf's return
 * address when it points into executable file-backed code: at a syscall
 * made by a leaf wrapper (libc's chown(), sethostname()), that is the
 * return address into its caller, the frame the walk cannot see. pre: the
 * leaf as the kprobe's entry found it (CA_LEAF_AT_ENTRY), or NULL.
 */
static __always_inline void user_stack(void *ctx, struct task_struct *task, __u64 sp, __u64 lr,
				       const struct leaf_ctx *pre, struct ca_key *k,
				       const bool find_vma)
{
	struct leaf_ctx lc = {};
	struct ca_ustack *b;
	__u64 h = 0x84222325cbf29ce4ULL, *w;
	__u32 zero = 0, i;
	long n;

	k->ustack = 0;
	k->leaf_dev = 0;
	k->leaf_ino = 0;
	k->leaf_off = 0;
	if (!cfg_user_stacks || !sp)
		return;
	/* Under the mm's mmap_lock (fork's dup_mmap, mmap's own probes) the
	 * kernel cannot take it again to read build ids and gives bare
	 * addresses, of no use once the process is gone. Such checks (noaudit
	 * probing, mostly) get none. */
	if (mmap_lock_busy(task))
		return;
	b = bpf_map_lookup_elem(&ustack_buf, &zero);
	if (!b)
		return;
	_Static_assert(sizeof(struct bpf_stack_build_id) == CA_USTACK_FRAME_WORDS * 8, "frame");
	__builtin_memset(b, 0, sizeof(*b));
	n = bpf_get_stack(ctx, b->words, sizeof(b->words), BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
	if (n > 0) {
		w = b->words;
		for (i = 0; i < CA_USTACK_DEPTH * CA_USTACK_FRAME_WORDS; i++) {
			/* a frame's first word holds its status: empty ends it */
			if (!(i % CA_USTACK_FRAME_WORDS) &&
			    ((struct bpf_stack_build_id *)&w[i])->status == BPF_STACK_BUILD_ID_EMPTY)
				break;
			h = mix64(h, w[i]);
		}
		h |= 1;   /* 0 means none */
		if (bpf_map_lookup_elem(&ustacks, &h) ||
		    !bpf_map_update_elem(&ustacks, &h, b, BPF_NOEXIST) ||
		    bpf_map_lookup_elem(&ustacks, &h))
			k->ustack = h;
	}
	/* find_vma: a constant of the calling program. Without it (kernels
	 * before 5.17) the program never names leaf_vma (find_leaf()): a
	 * callback's address (ld_imm64 BPF_PSEUDO_FUNC, Linux 5.13) would be
	 * refused at load even in code that never runs (kernel/bpf/verifier.c
	 * resolve_pseudo_ldimm64()) */
	if (pre)
		lc = *pre;
	else if (find_vma && HAVE(CA_KF_FIND_VMA))
		find_leaf(task, sp, lr, &lc);
	if (!lc.dev)
		return;
	k->leaf_dev = lc.dev;
	k->leaf_ino = lc.ino;
	k->leaf_off = lc.off;
}

/*
 * The kernel stack, stored in kstacks under a hash of its frames: the key,
 * or 0 with *err = -errno (walk failed, or kstacks full).
 */
static __always_inline __u64 kernel_stack(void *ctx, __s32 *err)
{
	struct ca_kstack *b;
	__u32 zero = 0, i;
	__u64 h = 0x84222325cbf29ce4ULL;
	long n;

	*err = 0;
	b = bpf_map_lookup_elem(&kstack_buf, &zero);
	if (!b) {
		*err = -ENOENT;
		return 0;
	}
	__builtin_memset(b, 0, sizeof(*b));
	n = bpf_get_stack(ctx, b->ips, sizeof(b->ips), 0);
	if (n <= 0) {
		*err = n < 0 ? (__s32)n : -ENOENT;
		return 0;
	}
	for (i = 0; i < CA_STACK_DEPTH; i++) {
		if (!b->ips[i])
			break;
		h = mix64(h, b->ips[i]);
	}
	h |= 1;   /* 0 means no stack */
	if (bpf_map_lookup_elem(&kstacks, &h))
		return h;
	n = bpf_map_update_elem(&kstacks, &h, b, BPF_NOEXIST);
	if (n && n != -EEXIST) {   /* EEXIST: another CPU stored it first */
		*err = (__s32)n;
		return 0;
	}
	return h;
}

/* An address of the capability API or tracing plumbing. Global: verified
 * once, not once per caller's path. */
__noinline int skipped_text(__u64 ip)
{
	__u32 zero = 0, i;
	struct ca_ranges *r = bpf_map_lookup_elem(&ranges, &zero);

	if (!r)
		return 0;
	for (i = 0; i < CA_SKIP_RANGES; i++) {
		if (i >= r->n)
			break;
		if (ip >= r->lo[i] && ip < r->hi[i])
			return 1;
	}
	return 0;
}

/*
 * The frames a proof covers in the walked stack (kstack_buf): from first, the first
 * frame in the kernel's own text (before it: the program's own frame, at
 * its call to bpf_get_stack(), and BPF or ftrace trampolines, none of
 * which a check that does not walk has), up to the call site, the first
 * frame after the capability API that is not plumbing itself. The call
 * site's index, first << 8 and (the index after the hook's own frames) <<
 * 16, or -1. Global, so that its caller sees numbers, not a path per
 * frame.
 */
__noinline long proof_frames(void)
{
	__u32 zero = 0;
	struct ca_kstack *b = bpf_map_lookup_elem(&kstack_buf, &zero);
	struct ca_ranges *r = bpf_map_lookup_elem(&ranges, &zero);
	struct path_scratch *sc = bpf_map_lookup_elem(&path_scratch, &zero);
	long first, cut, site;
	__u64 ip;

	/* kstack_buf holds this check's stack only if it was walked */
	if (!b || !r || !sc || !sc->walked)
		return -1;
	/* one loop per answer: the verifier then follows one number at a
	 * time, not every combination of them */
	for (first = 0; first < CA_PROOF_FRAMES + 4; first++) {
		ip = b->ips[first & (CA_STACK_DEPTH - 1)];
		if (!ip)
			return -1;
		if (ip >= r->text_lo && ip < r->text_hi)
			break;
	}
	for (site = first; site < CA_PROOF_FRAMES + 4; site++) {
		ip = b->ips[site & (CA_STACK_DEPTH - 1)];
		if (!ip)
			return -1;
		if (!skipped_text(ip))
			break;
	}
	if (site == first || site >= CA_PROOF_FRAMES + 4)
		return -1;   /* no capability API frame before it, or none found */
	/* fexit: cap_capable has returned, none of its frames is here */
	cut = first - 1;
	for (long i = first; i < CA_PROOF_FRAMES + 4; i++) {
		if (i >= site)
			break;
		ip = b->ips[i & (CA_STACK_DEPTH - 1)];
		if (ip >= r->capcap_lo && ip < r->capcap_hi)
			cut = i;   /* the hook's own frames end here */
	}
	return site | first << 8 | (cut + 1) << 16;
}

/* The offset in bytes, from at, of the first word in [at, min(at + 512,
 * top)) that equals want, or -1. Global: the caller's verification sees an
 * unknown number, and does not branch on every offset. */
__noinline long locate(__u64 want, __u64 at, __u64 top)
{
	__u32 zero = 0, w;
	struct ca_cache *c = bpf_map_lookup_elem(&cache, &zero);
	__u64 len;

	if (!c || at >= top)
		return -1;
	len = top - at;
	if (len > sizeof(c->scan))
		len = sizeof(c->scan);
	if (len < 8 || bpf_probe_read_kernel(c->scan, len, (void *)at))
		return -1;
	for (w = 0; w < 64; w++) {
		if (w * 8 >= len)
			break;
		if (CA_KRET_WORD(c->scan[w]) == want)
			return (long)w * 8;
	}
	return -1;
}

/* The offset from at of the first word that equals want within two
 * windows of locate() (1024 bytes), or -1: where a proof or a path looks
 * for the next frame. Inline: a global function here would make the calls
 * from the program down to locate() four deep. */
static __always_inline long locate_near(__u64 want, __u64 at, __u64 top)
{
	const __u64 window = sizeof(((struct ca_cache *)0)->scan);   /* locate()'s */
	long off = locate(want, at, top);

	if (off >= 0)
		return off;
	off = locate(want, at + window, top);
	return off < 0 ? -1 : off + (long)window;
}

/*
 * Learn the proof of cache slot idx (on this CPU) from the stack just
 * walked into kstack_buf, whose frames pf (proof_frames(), called by the
 * caller: the stack of nested calls stays under 512 bytes on 6.1) names:
 * find each return address, innermost first, in
 * the stack memory above fp (within 1024 bytes of the previous one, below
 * top). A proof is one read of at most 512 bytes: where the frames found
 * span more, the innermost are left out of it. That is arm64's kretprobe:
 * the return address it restored into its exception frame's pc, then 552
 * bytes up to the caller's frame record (Debian's 6.12); the frames kept
 * still sit where the hook's own frames and their callers' fixed frame
 * sizes put them. Sets the slot's nproof (0: none). A global function:
 * the verifier checks it once, not once per path of its callers.
 */
__noinline int learn_proof(__u32 idx, __u64 fp, __u64 top, long pf)
{
	__u32 zero = 0;
	struct ca_cache *c = bpf_map_lookup_elem(&cache, &zero);
	struct ca_kstack *b = bpf_map_lookup_elem(&kstack_buf, &zero);
	struct ca_ranges *r = bpf_map_lookup_elem(&ranges, &zero);
	struct ca_slot *s;
	__u64 at = fp;   /* where the search for the next frame starts */
	int site, first, cut, k, n, d, i;

	if (!c || !b || !r || idx >= CA_CACHE_SLOTS)
		return 0;
	s = &c->slots[idx];
	s->nproof = 0;
	if (!r->n)
		return 0;
	if (pf < 0)
		return 0;
	site = pf & 0xff;
	first = (pf >> 8) & 0xff;
	cut = (int)((pf >> 16) & 0xff) - 1;
	if (site - first >= CA_PROOF_FRAMES + 4)
		return 0;
	n = site - cut;        /* the frames after the hook's, up to the call site */
	if (n < 1 || n > CA_PROOF_FRAMES)
		return 0;
	/* every frame from the first is found, in order, so that each one
	 * is looked for above the one before; those after cut are kept */
	for (k = 0; k < CA_PROOF_FRAMES + 4; k++) {
		__u64 want = b->ips[(first + k) & (CA_STACK_DEPTH - 1)], pos;
		int j = first + k - cut - 1;
		long off;

		if (first + k > site)
			break;
		off = locate_near(want, at, top);
		if (off < 0)
			return 0;
		pos = at + off - fp;
		at += off + 8;
		if (j < 0)
			continue;
		if (pos > 0xfff8)
			return 0;
		s->ppos[j & (CA_PROOF_FRAMES - 1)] = (__u16)pos;
		s->pval[j & (CA_PROOF_FRAMES - 1)] = want;
	}
	/* the innermost frames that one read cannot take with the rest */
	for (d = 0; d < CA_PROOF_FRAMES - 1; d++) {
		if (d >= n - 1 || s->ppos[(n - 1) & (CA_PROOF_FRAMES - 1)] + 8 -
				  s->ppos[d & (CA_PROOF_FRAMES - 1)] <= sizeof(c->scan))
			break;
	}
	for (i = 0; d && i < CA_PROOF_FRAMES; i++) {
		if (i + d >= n)
			break;
		s->ppos[i & (CA_PROOF_FRAMES - 1)] = s->ppos[(i + d) & (CA_PROOF_FRAMES - 1)];
		s->pval[i & (CA_PROOF_FRAMES - 1)] = s->pval[(i + d) & (CA_PROOF_FRAMES - 1)];
	}
	n -= d;
	if (n < 1 || s->ppos[(n - 1) & (CA_PROOF_FRAMES - 1)] + 8 - s->ppos[0] > sizeof(c->scan))
		return 0;
	s->pbase = s->ppos[0];
	s->pspan = s->ppos[(n - 1) & (CA_PROOF_FRAMES - 1)] + 8 - s->ppos[0];
	s->nproof = (__u8)n;
	return n;
}

/* Does the current check pass the slot's proof? One read of the words it
 * covers, then a compare of each. */
static __always_inline bool proven(struct ca_cache *c, const struct ca_slot *s, __u64 fp)
{
	__u32 i, n = s->nproof, len = s->pspan;

	if (!n || len < 8 || len > sizeof(c->scan) ||
	    bpf_probe_read_kernel(c->scan, len, (void *)(fp + s->pbase)))
		return false;
	for (i = 0; i < CA_PROOF_FRAMES; i++) {
		if (i >= n)
			break;
		if (CA_KRET_WORD(c->scan[((__u32)(s->ppos[i] - s->pbase) / 8) & 63]) != s->pval[i])
			return false;
	}
	return true;
}

/*
 * The id of the kernel stack this check runs on, proven by a path of set
 * (paths, above): its words read again at the same distances from the
 * program's frame fp, in one read, and those above the random gap at
 * their distances from top, in another. 0: no path proves it, or the
 * path's periodic walk is due (path_scratch's vway names it, for
 * path_walked()). Global: verified once.
 */
__noinline __u64 path_proven(__u32 set, __u64 fp, __u64 top)
{
	__u32 zero = 0, w, i, j, n, lim, lo = 0xffff, hi = 0, len, tlen;
	bool ok;
	struct path_set *ps = bpf_map_lookup_elem(&paths, &set);
	struct path_scratch *b = bpf_map_lookup_elem(&path_scratch, &zero);

	if (!ps || !b)
		return 0;
	b->vway = -1;
	b->walked = 0;
	/* on the task's own stack only (not an interrupt's) */
	if (fp >= top || top - fp > CA_THREAD_SIZE)
		return 0;
	for (w = 0; w < PATH_WAYS; w++) {
		if (!ps->way[w].n)
			continue;
		if (ps->way[w].base < lo)
			lo = ps->way[w].base;
		if ((__u32)ps->way[w].base + ps->way[w].span > hi)
			hi = (__u32)ps->way[w].base + ps->way[w].span;
	}
	/* the stack may end sooner than it did (a smaller random gap) */
	if (fp + hi > top)
		hi = (__u32)(top - fp);
	if (hi <= lo)
		return 0;
	len = hi - lo;
	if (len < 8 || len > PATH_SCAN || bpf_probe_read_kernel(b->w, len, (void *)(fp + lo)))
		return 0;
	for (w = 0; w < PATH_WAYS; w++) {
		struct path_way *p = &ps->way[w];

		n = p->n;
		if (!n || n > CA_STACK_DEPTH)
			continue;
		lim = p->split ? p->split : n;
		/* (a flag, not the counter, says how a loop ended: the
		 * verifier then follows what comes after once, not once for
		 * every place the loop may have stopped) */
		ok = true;
		for (i = 0; i < CA_STACK_DEPTH; i++) {
			__u32 at = p->pos[i & (CA_STACK_DEPTH - 1)];

			if (i >= lim)
				break;
			if (at < lo || at + 8 > hi ||
			    CA_KRET_WORD(b->w[((at - lo) / 8) & (PATH_SCAN / 8 - 1)]) !=
			    p->val[i & (CA_STACK_DEPTH - 1)]) {
				ok = false;
				break;
			}
		}
		if (!ok)
			continue;
		if (lim < n) {
			/* above the gap: the first is the farthest from the top */
			tlen = p->tpos[lim & (CA_STACK_DEPTH - 1)];
			if (tlen < 8 || tlen > PATH_TOP_SCAN || top - fp < tlen + 8 ||
			    bpf_probe_read_kernel(b->t, tlen, (void *)(top - tlen)))
				continue;
			for (j = 0; j < PATH_TOP_FRAMES + 1; j++) {
				__u32 k = (lim + j) & (CA_STACK_DEPTH - 1), d = p->tpos[k];

				if (lim + j >= n)
					break;
				if (j == PATH_TOP_FRAMES || d < 8 || d > tlen ||
				    CA_KRET_WORD(b->t[((tlen - d) / 8) & (PATH_TOP_SCAN / 8 - 1)]) !=
				    p->val[k]) {
					ok = false;
					break;
				}
			}
			if (!ok)
				continue;
		}
		p->uses++;
		if (!(p->uses & (PATH_VERIFY_EVERY - 1))) {
			b->vway = (__s32)w;
			b->vsid = p->sid;
			return 0;
		}
		stat_add(CA_STAT_PATH_PROVEN, 1);
		return p->sid;
	}
	return 0;
}

/*
 * The frames of the stack just walked (kstack_buf) as a path has them,
 * into path_scratch's lval/lpos/ltpos: every frame from the first in the
 * kernel's own text (before it: the program's call to bpf_get_stack() and
 * trampolines, which a check that does not walk lacks) to the last
 * walked, found in order in the stack memory above fp, each within 1024
 * bytes of the one before, all within PATH_SCAN bytes. How many, or 0: a
 * frame not found, or no learning due (path_walked() decides). Called by
 * the program itself: the calls down to locate() must stay three deep
 * (the sum of their frames within 512 bytes). Global: verified once.
 */
__noinline int path_frames(__u64 fp, __u64 top)
{
	__u32 zero = 0, k, first;
	struct path_scratch *sc = bpf_map_lookup_elem(&path_scratch, &zero);
	struct ca_kstack *b = bpf_map_lookup_elem(&kstack_buf, &zero);
	struct ca_ranges *r = bpf_map_lookup_elem(&ranges, &zero);
	__u64 at = fp, ip;
	long off;

	if (!sc || !b || !r || !sc->due || !r->n || fp >= top || top - fp > CA_THREAD_SIZE)
		return 0;
	for (first = 0; first < CA_PROOF_FRAMES + 4; first++) {
		ip = b->ips[first & (CA_STACK_DEPTH - 1)];
		if (!ip)
			return 0;
		if (ip >= r->text_lo && ip < r->text_hi)
			break;
	}
	if (first == CA_PROOF_FRAMES + 4)
		return 0;
	for (k = 0; k < CA_STACK_DEPTH; k++) {
		__u64 want, pos;

		if (first + k >= CA_STACK_DEPTH)
			break;
		want = b->ips[(first + k) & (CA_STACK_DEPTH - 1)];
		if (!want)
			break;
		off = locate_near(want, at, top);
		if (off < 0)
			return 0;
		pos = at + off - fp;
		at += off + 8;
		if (pos + 8 > PATH_SCAN)
			return 0;
		sc->lpos[k & (CA_STACK_DEPTH - 1)] = (__u16)pos;
		sc->ltpos[k & (CA_STACK_DEPTH - 1)] = (__u16)(top - fp - pos);
		sc->lval[k & (CA_STACK_DEPTH - 1)] = want;
	}
	return (int)k;
}

/*
 * After a walk that found stack sid (0: none): mark the check walked; with
 * paths in use, check the path whose periodic walk this was, else decide
 * whether to learn from it (path_scratch's due, for path_frames() and
 * path_learn()): one walk in PATH_LEARN_EVERY (a stack whose frames
 * cannot all be found would otherwise pay for the search on every walk),
 * unless the path that has this stack is known in full. Global.
 */
__noinline int path_walked(__u32 set, __u64 sid)
{
	__u32 zero = 0, w;
	struct path_set *ps = bpf_map_lookup_elem(&paths, &set);
	struct path_scratch *sc = bpf_map_lookup_elem(&path_scratch, &zero);

	if (!ps || !sc)
		return 0;
	sc->walked = 1;
	sc->due = 0;
	if (!cfg_paths || !sid)
		return 0;   /* --exact-stacks, or a command's recording: no paths */
	if (sc->vway >= 0) {
		w = (__u32)sc->vway & (PATH_WAYS - 1);
		sc->vway = -1;
		if (ps->way[w].sid == sc->vsid && sc->vsid != sid) {
			ps->way[w].n = 0;
			stat_add(CA_STAT_PATH_SPLIT, 1);
		}
		return 0;
	}
	if (ps->walks++ % PATH_LEARN_EVERY)
		return 0;
	for (w = 0; w < PATH_WAYS; w++)
		if (ps->way[w].n && ps->way[w].sid == sid)
			break;
	if (w < PATH_WAYS && ps->way[w].split)
		return 0;   /* known in full: nothing to learn */
	sc->due = 1;
	return 1;
}

/*
 * Learn from the n frames path_frames() found (0: none, or not due): the
 * split of the path that has stack sid, if the gap moved it since; or a
 * new path, into an empty way, else the ways in turn. Global.
 */
__noinline int path_learn(__u32 set, __u64 sid, int n)
{
	__u32 zero = 0, w, k, j;
	struct path_set *ps = bpf_map_lookup_elem(&paths, &set);
	struct path_scratch *sc = bpf_map_lookup_elem(&path_scratch, &zero);
	struct path_way *p;

	if (!ps || !sc || !sc->due)
		return 0;
	sc->due = 0;
	if (n <= 0 || n > CA_STACK_DEPTH)
		return 0;
	for (w = 0; w < PATH_WAYS; w++)
		if (ps->way[w].n && ps->way[w].sid == sid)
			break;
	if (w < PATH_WAYS) {
		/* the same stack again: where did the gap move it? */
		p = &ps->way[w];
		if (p->n != n)
			return 0;
		for (k = 0; k < CA_STACK_DEPTH; k++)
			if (k >= (__u32)n || sc->lpos[k] != p->pos[k])
				break;
		if (k >= (__u32)n || !k || n - k > PATH_TOP_FRAMES)
			return 0;   /* the same offset, or no split that fits */
		for (j = k; j < CA_STACK_DEPTH; j++) {
			if (j >= (__u32)n)
				break;
			if (sc->ltpos[j] != p->tpos[j] || sc->lval[j] != p->val[j])
				return 0;
		}
		p->split = (__u8)k;
		return n;
	}
	for (w = 0; w < PATH_WAYS; w++)
		if (!ps->way[w].n)
			break;
	if (w == PATH_WAYS)
		w = ps->next++ % PATH_WAYS;
	p = &ps->way[w & (PATH_WAYS - 1)];
	for (k = 0; k < CA_STACK_DEPTH; k++) {
		p->pos[k] = sc->lpos[k];
		p->tpos[k] = sc->ltpos[k];
		p->val[k] = sc->lval[k];
	}
	p->base = p->pos[0];
	p->span = p->pos[(n - 1) & (CA_STACK_DEPTH - 1)] + 8 - p->pos[0];
	p->sid = sid;
	p->uses = 0;
	p->split = 0;
	p->n = (__u8)n;
	return n;
}

/*
 * set*id(2): are the ids asked for (-1: unchanged) ones the caller already
 * has? kernel/sys.c lets a process do that without CAP_SETUID/CAP_SETGID:
 * setuid()/setgid() to its real or saved id; setreuid()'s real id to its
 * real or effective one and its effective id to any of the three;
 * setresuid() each to any of the three. Some kernels ask the capability
 * before that rule (__sys_setuid(), and __sys_setresuid() before 6.x),
 * so a granted check there says nothing until the ids are compared.
 * The ids are the caller's namespace's; called for credentials of the
 * initial user namespace only, where they are the kernel's.
 */
static __always_inline bool id_own(__u32 id, __u32 r, __u32 e, __u32 s, bool any)
{
	return id == (__u32)-1 || id == r || id == s || (any && id == e);
}

static __always_inline bool ids_held(struct task_struct *task, __s32 nr, __u64 a0, __u64 a1,
				     __u64 a2)
{
	const struct cred *cr = BPF_CORE_READ(task, cred);
	bool gid = nr == nr_setgid || nr == nr_setregid || nr == nr_setresgid;
	__u32 r, e, s;

	if (gid) {
		r = BPF_CORE_READ(cr, gid.val);
		e = BPF_CORE_READ(cr, egid.val);
		s = BPF_CORE_READ(cr, sgid.val);
	} else {
		r = BPF_CORE_READ(cr, uid.val);
		e = BPF_CORE_READ(cr, euid.val);
		s = BPF_CORE_READ(cr, suid.val);
	}
	if (nr == nr_setuid || nr == nr_setgid)
		return (__u32)a0 != (__u32)-1 && id_own((__u32)a0, r, e, s, false);
	if (nr == nr_setreuid || nr == nr_setregid)
		return ((__u32)a0 == (__u32)-1 || (__u32)a0 == r || (__u32)a0 == e) &&
		       id_own((__u32)a1, r, e, s, true);
	return id_own((__u32)a0, r, e, s, true) && id_own((__u32)a1, r, e, s, true) &&
	       id_own((__u32)a2, r, e, s, true);
}

/* The file the task has open as fd, or NULL. */
static __always_inline struct file *fd_file(struct task_struct *task, int fd)
{
	struct file **fds, *f = NULL;
	unsigned int max;

	if (fd < 0)
		return NULL;
	max = BPF_CORE_READ(task, files, fdt, max_fds);
	if ((unsigned int)fd >= max)
		return NULL;
	fds = BPF_CORE_READ(task, files, fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]))
		return NULL;
	return f;
}

/* ca_key.op of syscall nr from its first three arguments (capaudit.h). */
static __always_inline __u32 syscall_op(__s32 nr, __u64 a0, __u64 a1, __u64 a2)
{
	if (nr < 0 || nr >= CA_OP_SYS_MAX ||
	    !((op_sys_mask[(__u32)nr / 64] >> ((__u32)nr % 64)) & 1))
		return 0;
	if (nr == nr_setsockopt || nr == nr_getsockopt)
		return CA_OP_SOCKOPT(a1, a2);
	if (nr == nr_bpf || nr == nr_prctl || nr == nr_ptrace || nr == nr_keyctl)
		return (__u32)a0;
	if (nr == nr_ioctl || nr == nr_fcntl)
		return (__u32)a1;
	if (nr == nr_socket)
		return CA_OP_SOCKET(a0, a1);
	if (nr == nr_chmod || nr == nr_fchmod)
		return (__u32)a1 & CA_OP_MODE_BITS;
	if (nr == nr_fchmodat || nr == nr_fchmodat2)
		return (__u32)a2 & CA_OP_MODE_BITS;
	return 0;
}

#include "objects.bpf.h"

static __always_inline bool is_setid(__s32 nr)
{
	return nr >= 0 && (nr == nr_setuid || nr == nr_setgid || nr == nr_setreuid ||
			   nr == nr_setregid || nr == nr_setresuid || nr == nr_setresgid);
}

/* capset(2): the sets asked for, and whether CAP_SETPCAP can matter. The
 * check is cap_inh_is_capped() in cap_capset(), made on every capset();
 * its answer is used only when the new inheritable set is not within the
 * old inheritable and permitted sets. */
struct capset_req {
	__u64 eff, prm, inh;
	bool ok;
};

static __always_inline void read_capset(struct task_struct *task, __u64 hdr_p, __u64 data_p,
					struct capset_req *r)
{
	struct { __u32 version; __s32 pid; } hdr;
	struct { __u32 eff, prm, inh; } d[2] = {};

	r->ok = false;
	if (bpf_probe_read_user(&hdr, sizeof(hdr), (void *)hdr_p))
		return;
	/* _LINUX_CAPABILITY_VERSION_1 has one 32-bit set, 2 and 3 two */
	if (bpf_probe_read_user(d, hdr.version == 0x19980330 ? sizeof(d[0]) : sizeof(d),
				(void *)data_p))
		return;
	r->eff = d[0].eff | (__u64)d[1].eff << 32;
	r->prm = d[0].prm | (__u64)d[1].prm << 32;
	r->inh = d[0].inh | (__u64)d[1].inh << 32;
	r->ok = true;
}

/* The caller's inheritable and permitted sets before the capset():
 * kernel_cap_t is one u64 since 6.3 and two u32 before, 8 bytes either
 * way. */
static __always_inline bool old_sets(struct task_struct *task, __u64 *inh, __u64 *prm)
{
	const struct cred *cred = BPF_CORE_READ(task, cred);

	*inh = *prm = 0;
	return !bpf_probe_read_kernel(inh, 8, &cred->cap_inheritable) &&
	       !bpf_probe_read_kernel(prm, 8, &cred->cap_permitted);
}

static __always_inline void capset_event(struct task_struct *task, const struct capset_req *r)
{
	struct ca_event *e;

	if (!r->ok)
		return;
	e = bpf_ringbuf_reserve(&events, CA_EVENT_SMALL, 0);
	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return;
	}
	__builtin_memset(e, 0, CA_EVENT_SMALL);
	e->type = CA_EV_CAPSET;
	event_ids(e, task);
	e->set_effective = r->eff;
	e->set_permitted = r->prm;
	e->set_inheritable = r->inh;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, rb_wake());
}

/* A value stored and loaded back through the map value: at run time the
 * same, to the verifier a number it knows nothing of (one store and one
 * load). For a pointer, a number (the loader holds CAP_PERFMON, so the
 * verifier allows it). */
#define FORGET(slot, v) ({ (slot) = (__u64)(v); *(volatile __u64 *)&(slot); })
#define ADDR_NUM(slot, ptr) FORGET(slot, ptr)

/*
 * Common path of every attach mode. flags: CA_F_* known by the hook.
 * Hot path (a hit not due for a re-check): an inlined per-CPU lookup,
 * register loads, a hash and an increment.
 */
/* monitor: a key new to the map, sent at once (a first use within about
 * a second, without reading the whole map); small, as fork events are */
static __always_inline void newkey_event(struct task_struct *task, const struct ca_key *k,
					 const struct ca_meta *m)
{
	struct ca_event *e = bpf_ringbuf_reserve(&events, CA_EVENT_SMALL, 0);

	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return;
	}
	__builtin_memset(e, 0, CA_EVENT_SMALL);
	e->type = CA_EV_NEWKEY;
	e->tgid = k->tgid;
	e->tid = m->tid;
	e->uid = m->uid;
	e->exec_id = k->exec_id;
	e->pstart = k->pstart;
	e->key_cgroup = m->cgroup_id;
	e->kstack = k->kstack;
	e->syscall = k->syscall;
	e->ret = k->ret;
	e->cap = k->cap;
	e->kflags = k->flags;
	e->key_op = k->op;
	e->ts_ns = m->first_ns;
	__builtin_memcpy(e->comm, m->comm, CA_COMM_LEN);
	bpf_ringbuf_submit(e, rb_wake());
}

/*
 * One capability check by task, the current one (cur_task(): the hook
 * takes it once for cred_flags() and this). find_vma: a constant of the calling program
 * (user_stack()); entry: kprobe mode's entry probe's arguments (NULL in
 * the other modes), read in place in their map, with the stack it walked
 * (before 5.15) and the leaf it found (CA_LEAF_AT_ENTRY).
 */
static __always_inline int on_check(void *ctx, struct task_struct *task, int cap, int ret,
				    __u16 flags, const bool find_vma, const struct kp_args *entry)
{
	__u32 zero = 0, tgid, tid, exec_id, idx;
	struct ca_cache *c;
	struct ca_slot *s;
	struct pt_regs *regs;
	__u64 tag, now, pstart, ip = 0, a0 = 0, a1 = 0, a2 = 0, sp = 0, lr = 0;
	struct ca_uregs ur;
	struct ca_key uk;   /* the user part of the key: set only where the stack is walked */
	struct capset_req req;   /* capset(): the sets asked for, if the event is due */
	__s32 nr = -1, serr;
	__u32 op;
	__u64 sid, fp, top;
	__u16 h;
	bool hit, added, kthread;
	__u32 pset;
	/* a kernel that cannot walk a stack past a kretprobe (before 5.15:
	 * the walk ends at kretprobe_trampoline) had it walked at the entry
	 * probe, for every check: a proof looks for the walk's frames above
	 * this program's own frame, so there is none, and no hit is counted
	 * without that walk */
	const bool entry_walk = entry && !HAVE(CA_KF_KRETPROBE_STACK);
	const struct leaf_ctx *leaf = CA_LEAF_AT_ENTRY && entry && entry->has_leaf ?
				      &entry->leaf : NULL;

	c = bpf_map_lookup_elem(&cache, &zero);
	if (!c)
		return 0;
	if (HAVE(CA_KF_TASK_BTF)) {
		tgid = task->tgid;
		tid = task->pid;
		exec_id = (__u32)task->self_exec_id;
		pstart = task->group_leader->start_time;
		kthread = task->flags & PF_KTHREAD;
	} else {
		tgid = BPF_CORE_READ(task, tgid);
		tid = BPF_CORE_READ(task, pid);
		exec_id = (__u32)BPF_CORE_READ(task, self_exec_id);
		pstart = proc_start(task);
		kthread = BPF_CORE_READ(task, flags) & PF_KTHREAD;
	}
	if (!kthread) {
		/* the kernel's pt_regs, or task_regs()'s copy of them in the
		 * cache's scratch words: both plain loads */
		regs = task_regs(task, c);
		ca_uregs_read(regs, &ur);
		nr = ur.nr;
		ip = ur.ip;
		sp = ur.sp;
		lr = ur.lr;
		a0 = ur.a0;
		a1 = ur.a1;
		a2 = ur.a2;
	}
	if (cap < 0 || cap > CA_MAX_CAP)
		cap = CA_MAX_CAP;
	req.ok = false;
	if ((cap == CAP_SETUID || cap == CAP_SETGID) && is_setid(nr) &&
	    !(flags & CA_F_CRED_USERNS)) {
		flags |= CA_F_ARGS_CHECKED;
		if (ids_held(task, nr, a0, a1, a2))
			flags |= CA_F_NO_EFFECT;
	}
	/* chmod(2): setattr_prepare() asks CAP_FSETID (in_group_or_capable())
	 * before looking at the mode, and only clears S_ISGID from it when
	 * refused (fs/attr.c): a mode without S_ISGID makes it no matter */
	if (cap == CAP_FSETID && nr >= 0 && (nr == nr_chmod || nr == nr_fchmod ||
					      nr == nr_fchmodat || nr == nr_fchmodat2)) {
		__u64 mode = nr == nr_chmod || nr == nr_fchmod ? a1 : a2;

		flags |= CA_F_ARGS_CHECKED;
		if (!(mode & 02000))
			flags |= CA_F_NO_EFFECT;
	}
	/* fsetxattr(2) of an ACL: fs/posix_acl.c posix_acl_update_mode() asks
	 * CAP_FSETID (in_group_or_capable()) whatever the file's mode, and a
	 * refusal only clears S_ISGID from that mode: a file without it makes
	 * it no matter. Rare (CAP_FSETID in one syscall): a few reads */
	if (cap == CAP_FSETID && nr >= 0 && nr == nr_fsetxattr) {
		struct file *f = fd_file(task, (int)a0);

		if (f) {
			flags |= CA_F_ARGS_CHECKED;
			if (!(BPF_CORE_READ(f, f_inode, i_mode) & 02000))
				flags |= CA_F_NO_EFFECT;
		}
	}
	if (cap == CAP_SETPCAP && nr == nr_capset && nr >= 0) {
		__u64 old_inh, old_prm;

		/* rare: every capset() of every process comes here */
		if (!followed(tgid, pstart) || !uid_allowed(task))
			return 0;
		read_capset(task, a0, a1, &req);
		if (req.ok && old_sets(task, &old_inh, &old_prm)) {
			if (!(req.inh & ~(old_inh | old_prm)))
				flags |= CA_F_NO_EFFECT;
			/* a capset() that keeps the whole permitted set it had
			 * asks for nothing in particular (libcap's get, change
			 * the effective set, set): only one that drops some
			 * says which capabilities the program wants to keep
			 * (the event is sent at the end: after the image's) */
			req.ok = req.prm != old_prm;
		} else {
			req.ok = false;
		}
	}

	op = syscall_op(nr, a0, a1, a2);
	/* The branches above each taught the verifier a constant (nr ==
	 * nr_chmod, cap == CAP_SETUID, a flag set or not, the op's kind), and
	 * it verified all of what follows once for every mix of them:
	 * 226,196 processed instructions in tp_btf mode on 6.18 for a
	 * 5,500-instruction program, most of the loader's start-up. What
	 * follows needs none of it (every use is bounds-checked again), so
	 * the values go through the map and come back as plain numbers:
	 * 52,295, and the object loads in about half the CPU time. */
	nr = (__s32)FORGET(c->forget[0], nr);
	cap = (int)FORGET(c->forget[1], cap);
	flags = (__u16)FORGET(c->forget[2], flags);
	op = (__u32)FORGET(c->forget[3], op);
	tag = mix64((__u64)tid << 32 | exec_id,
		    (__u64)(__u32)nr | ((__u64)cap << 32) | ((__u64)flags << 48));
	tag = mix64(tag, ip);
	tag = mix64(tag, a0);
	tag = mix64(tag, a1);
	tag = mix64(tag, (__u64)op << 32 | (__u32)ret);
	tag |= 1ULL << 63;  /* 0 marks an empty slot */
	idx = (__u32)(tag & (CA_CACHE_SLOTS - 1));
	s = &c->slots[idx];

	/* the tag is a hash: the process and what was checked are confirmed */
	hit = s->tag == tag && s->key.tgid == tgid && s->key.pstart == pstart &&
	      s->key.exec_id == exec_id && s->key.cap == (__u16)cap && s->key.ret == ret;
	fp = ADDR_NUM(c->fp_num, &tag);
	if (hit) {
		h = s->hits;
		if (h < 0xffff)
			s->hits = h + 1;
		if (h >= CA_VERIFY_FIRST && (h & verify_mask)) {
			if (proven(c, s, fp)) {
				s->count++;
				if (!(h & (CA_TIME_EVERY - 1)))
					s->last_ns = bpf_ktime_get_ns();
				goto out;
			}
			stat_add(CA_STAT_UNPROVEN, 1);
		}
		stat_add(CA_STAT_CACHE_VERIFY, 1);
	} else {
		/* only followed processes take a slot */
		if (!followed(tgid, pstart) || !uid_allowed(task))
			return 0;
		stat_add(CA_STAT_CACHE_MISS, 1);
		announce(task, tgid, pstart, exec_id);
	}

	now = bpf_ktime_get_ns();
	/* the top of the task's kernel stack: the search for proofs ends there */
	if (HAVE(CA_KF_TASK_PT_REGS))
		top = ADDR_NUM(c->top_num, bpf_task_pt_regs(task)) + sizeof(struct pt_regs);
	else
		top = regs_addr(task) + bpf_core_type_size(struct pt_regs);
	/* the only place that walks the stack: one call site in the program,
	 * so the program's own frame never makes two walks differ; or
	 * (kretprobe without CA_KF_KRETPROBE_STACK) the walk at the entry.
	 * A learned path may prove the whole stack instead (paths, above) */
	if (entry_walk) {
		sid = entry->kstack;
		serr = entry->serr;
	} else {
		pset = (__u32)mix64((__u64)(__u32)nr, cap) & (PATH_SETS - 1);
		serr = 0;
		sid = cfg_paths ? path_proven(pset, fp, top) : 0;
		if (!sid) {
			sid = kernel_stack(ctx, &serr);
			/* three calls, none branched on here: each says in
			 * path_scratch whether the next has work (the first
			 * also that kstack_buf holds this walk, which the
			 * call-site cache's proofs learn from: always) */
			path_walked(pset, sid);
			if (cfg_paths)
				path_learn(pset, sid, path_frames(fp, top));
		}
		/* the same unknown numbers whichever way they came (a proof or
		 * one of the walk's outcomes), so that the verifier follows the
		 * rest of the check once, not once per way */
		sid = ADDR_NUM(c->sid_num, sid);
		serr = (__s32)ADDR_NUM(c->serr_num, (__s64)serr);
	}
	if (!sid)
		stat_add(CA_STAT_STACK_ERR, 1);
	user_stack(ctx, task, sp, lr, leaf, &uk, find_vma);

	if (hit && sid && sid == s->key.kstack && (!uk.ustack || user_eq(&uk, &s->key))) {
		s->count++;   /* confirmed: the proof is learned again if it failed */
		s->last_ns = now;
		if (!entry_walk && !proven(c, s, fp))
			learn_proof(idx, fp, top, proof_frames());
		/* a hit that walked looks at its object too, among the
		 * slot's first CA_OBJ_HIT_LOOKS: the same arguments can point
		 * at other contents (a buffer reused) */
		if (h < CA_OBJ_HIT_LOOKS && has_object(nr) &&
		    capture_object(idx, nr, a0, a1, a2))
			send_object(idx);
		goto out;
	}
	if (hit && !sid && !s->key.kstack) {
		s->count++;   /* no stack now nor before: nothing to tell them apart */
		s->last_ns = now;
		goto out;
	}
	if (hit) {
		/* another stack behind the same tag: split it off; the next
		 * check of the old stack fails the new proof and comes back (the
		 * slot's window of re-walked hits is not opened again) */
		if (s->key.kstack && sid)
			stat_add(CA_STAT_CACHE_MISMATCH, 1);
	} else {
		s->hits = 0;
	}
	flush_slot(s);
	s->tag = tag;
	s->key.tgid = tgid;
	s->key.exec_id = exec_id;
	s->key.pstart = pstart;
	s->key.kstack = sid;
	s->key.stack_err = serr;
	s->key.syscall = nr;
	s->key.ret = ret;
	s->key.cap = (__u16)cap;
	s->key.flags = flags;
	s->key.op = op;
	s->key.ustack = uk.ustack;
	s->key.leaf_dev = uk.leaf_dev;
	s->key.leaf_ino = uk.leaf_ino;
	s->key.leaf_off = uk.leaf_off;
	current_meta(&s->meta, now);
	/* the entry exists from the first check on: sys_exit finds it, and a
	 * full map is known at once. A new entry counts this check itself,
	 * so that a slot checked once leaves nothing to flush (no lookup when
	 * it is taken over: most keys of a short-lived process); else the
	 * check waits in the slot as its hits do */
	added = agg_insert(cur_agg(), &s->key, 1, now, &s->meta) > 0;
	if (added && cfg_new_keys)
		newkey_event(task, &s->key, &s->meta);
	/* what it was about (objects.bpf.h): here only, where a new slot
	 * was taken, never on a hit; other syscalls pay one load */
	if (has_object(nr) && capture_object(idx, nr, a0, a1, a2))
		send_object(idx);
	s->last_ns = now;
	s->count = added ? 0 : 1;
	s->nproof = 0;
	if (sid && !entry_walk)
		learn_proof(idx, fp, top, proof_frames());
out:
	if (ret && nr >= 0 && track_results)
		remember_denied(task, &s->key);
	if (req.ok)
		capset_event(task, &req);
	return 0;
}

/*
 * What decided a check, as far as user namespaces go (CA_F_INIT_NS,
 * CA_F_CRED_USERNS, CA_F_NS_OWNER), following cap_capable_helper() in
 * security/commoncap.c: credentials in a user namespace other than the
 * initial one are judged by their capabilities there; credentials of the
 * initial namespace asking about a child namespace have every capability
 * in it when their euid owns its level-1 ancestor, and otherwise need the
 * capability in their own (host) effective set. Only checks against a
 * child namespace walk its ancestors (at most 32 levels).
 */
#define NS_FLAGS_BODY(LEVEL, PARENT, OWNER)					\
	do {									\
		__u32 tl, cl, i;						\
									\
		if (!target || !cred_ns)					\
			return 0;						\
		tl = LEVEL(target);						\
		cl = LEVEL(cred_ns);						\
		if (cl)								\
			return CA_F_CRED_USERNS | (tl == 0 ? CA_F_INIT_NS : 0);	\
		if (tl == 0)							\
			return CA_F_INIT_NS;					\
		for (i = 0; i < 32; i++) {					\
			if (LEVEL(target) <= 1)					\
				break;						\
			target = PARENT(target);				\
			if (!target)						\
				return 0;					\
		}								\
		return LEVEL(target) == 1 && OWNER(target) == euid ? CA_F_NS_OWNER : 0; \
	} while (0)

#define BTF_LEVEL(ns) ((ns)->level)
#define BTF_PARENT(ns) ((ns)->parent)
#define BTF_OWNER(ns) ((ns)->owner.val)
#define CORE_LEVEL(ns) BPF_CORE_READ(ns, level)
#define CORE_PARENT(ns) BPF_CORE_READ(ns, parent)
#define CORE_OWNER(ns) BPF_CORE_READ(ns, owner.val)

/* BTF pointers (tp_btf, fexit): direct loads, no helper calls. */
static __always_inline __u16 ns_flags_btf(const struct cred *cred,
					  const struct user_namespace *target)
{
	const struct user_namespace *cred_ns = cred ? cred->user_ns : NULL;
	__u32 euid = cred ? cred->euid.val : 0;

	NS_FLAGS_BODY(BTF_LEVEL, BTF_PARENT, BTF_OWNER);
}

/* Raw pointers (tracepoint, kprobe). */
static __always_inline __u16 ns_flags(const struct cred *cred, const struct user_namespace *target)
{
	const struct user_namespace *cred_ns = BPF_CORE_READ(cred, user_ns);
	__u32 euid = BPF_CORE_READ(cred, euid.val);

	NS_FLAGS_BODY(CORE_LEVEL, CORE_PARENT, CORE_OWNER);
}

/*
 * CA_F_FOREIGN_CRED: the credentials cap_capable() was given are not the
 * current task's own. current->cred differs from current->real_cred only
 * while override_creds() is in force; an override that keeps the task's
 * uid and stays within its permitted set (faccessat() checking with the
 * real ids: fs/open.c access_override_creds()) is still the task's own
 * privilege, one with another uid or more capabilities (overlayfs acting
 * as its mounter: fs/overlayfs ovl_override_creds()) is not. kernel_cap_t
 * is 8 bytes on every kernel (one u64 since 6.3, two u32 before).
 */
static __always_inline __u16 cred_flags(const struct cred *cred, struct task_struct *task)
{
	const struct cred *real = HAVE(CA_KF_TASK_BTF) ? task->real_cred :
				  BPF_CORE_READ(task, real_cred);
	__u64 eff = 0, prm = 0;

	if (!cred || cred == real)
		return 0;
	if (bpf_probe_read_kernel(&eff, 8, &cred->cap_effective) ||
	    bpf_probe_read_kernel(&prm, 8, &real->cap_permitted))
		return 0;
	if (!(eff & ~prm) && BPF_CORE_READ(cred, uid.val) == BPF_CORE_READ(real, uid.val))
		return 0;
	return CA_F_FOREIGN_CRED;
}

static __always_inline __u16 opts_flags(unsigned int opts)
{
	return CA_F_OPTS_KNOWN | (opts & CAP_OPT_NOAUDIT ? CA_F_NOAUDIT : 0) |
	       (opts & CAP_OPT_INSETID ? CA_F_INSETID : 0);
}

SEC("tp_btf/cap_capable")
int BPF_PROG(tp_btf_cap_capable, const struct cred *cred, struct user_namespace *target_ns,
	     const struct user_namespace *capable_ns, int cap, int ret)
{
	struct task_struct *task;

	if (outside_scope())
		return 0;
	task = cur_task();
	return on_check(ctx, task, cap, ret, ns_flags_btf(cred, target_ns) | cred_flags(cred, task),
			true, NULL);
}

/* The event's record (include/trace/events/capability.h, Linux 6.14),
 * declared here: an older kernel's vmlinux.h (arm64's, vmlinux/README.md)
 * lacks it. CO-RE finds the kernel's by the name before "___". */
struct trace_event_raw_cap_capable___ca {
	struct trace_entry ent;
	const struct cred *cred;
	struct user_namespace *target_ns;
	const struct user_namespace *capable_ns;
	int cap;
	int ret;
} __attribute__((preserve_access_index));

SEC("tracepoint/capability/cap_capable")
int tp_cap_capable(struct trace_event_raw_cap_capable___ca *ctx)
{
	struct task_struct *task;

	if (outside_scope())
		return 0;
	task = cur_task();
	return on_check(ctx, task, ctx->cap, ctx->ret,
			ns_flags(ctx->cred, ctx->target_ns) | cred_flags(ctx->cred, task), true, NULL);
}

/* fexit and kretprobe also run on kernels older than bpf_find_vma()
 * (5.17): each comes twice, the _noleaf copy without the --user-stacks
 * leaf frame (user_stack()); the loader loads the one the kernel takes.
 * The trace event is 6.14+: one copy. */
#define FEXIT_BODY(find_vma)								\
	({										\
		struct task_struct *task = outside_scope() ? NULL : cur_task();		\
											\
		task ? on_check(ctx, task, cap, ret, ns_flags_btf(cred, ns) |		\
				opts_flags(opts) | cred_flags(cred, task), find_vma, NULL) : 0; \
	})

SEC("fexit/cap_capable")
int BPF_PROG(fexit_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int opts, int ret)
{
	return FEXIT_BODY(true);
}

SEC("fexit/cap_capable")
int BPF_PROG(fexit_cap_capable_noleaf, const struct cred *cred, struct user_namespace *ns,
	     int cap, unsigned int opts, int ret)
{
	return FEXIT_BODY(false);
}

/*
 * CA_LEAF_AT_ENTRY (arm64): the leaf, looked up by the entry probe for
 * the return probe (arch.bpf.h says why). find_vma: as on_check()'s, a
 * constant of the calling program.
 */
static __always_inline void entry_leaf(struct kp_args *a, const bool find_vma)
{
	struct task_struct *t;
	struct ca_uregs ur;
	struct ca_cache *c;
	__u32 zero = 0;

	if (!CA_LEAF_AT_ENTRY || !find_vma || !HAVE(CA_KF_FIND_VMA) || !cfg_user_stacks)
		return;
	/* a kernel with bpf_find_vma() has a BTF task pointer
	 * (tracer/probe.c kfeat_use()); its registers may still be the
	 * task stack's copy (CAPAUDIT_WITHOUT=task_pt_regs) */
	t = cur_task();
	c = bpf_map_lookup_elem(&cache, &zero);
	if (!c || (t->flags & PF_KTHREAD) || mmap_lock_busy(t))
		return;
	ca_uregs_read(task_regs(t, c), &ur);
	find_leaf(t, ur.sp, ur.lr, &a->leaf);
	a->has_leaf = true;
}

static __always_inline int kprobe_entry(struct pt_regs *ctx, const struct cred *cred,
					struct user_namespace *ns, int cap, unsigned int opts,
					const bool find_vma)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kp_args a = { .cap = cap };
	struct task_struct *task;

	if (outside_scope())
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	if (!followed((__u32)(bpf_get_current_pid_tgid() >> 32), proc_start(task)) ||
	    !uid_allowed(task))
		return 0;
	/* cur_task(): a BTF pointer where the kernel has one (task above is
	 * read with BPF_CORE_READ) */
	a.flags = ns_flags(cred, ns) | opts_flags(opts) | cred_flags(cred, cur_task());
	/* the return probe's walk would end at kretprobe_trampoline */
	if (!HAVE(CA_KF_KRETPROBE_STACK))
		a.kstack = kernel_stack(ctx, &a.serr);
	entry_leaf(&a, find_vma);
	bpf_map_update_elem(&kprobe_args, &tid, &a, BPF_ANY);
	return 0;
}

/* kprobe mode comes in two pairs as fexit does: the entry probe's _noleaf
 * copy never names bpf_find_vma()'s callback either (it differs from the
 * other only where CA_LEAF_AT_ENTRY) */
SEC("kprobe/cap_capable")
int BPF_KPROBE(kprobe_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	       unsigned int opts)
{
	return kprobe_entry(ctx, cred, ns, cap, opts, true);
}

SEC("kprobe/cap_capable")
int BPF_KPROBE(kprobe_cap_capable_noleaf, const struct cred *cred, struct user_namespace *ns,
	       int cap, unsigned int opts)
{
	return kprobe_entry(ctx, cred, ns, cap, opts, false);
}

/* The return probe: the entry's arguments read in place (a copy on the
 * stack would take the room 6.1's verifier allows the program and the
 * proofs' functions together, 512 bytes) and deleted once done: nothing
 * else writes this thread's entry meanwhile. */
static __always_inline int kretprobe_check(struct pt_regs *ctx, int ret, const bool find_vma)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kp_args *a = bpf_map_lookup_elem(&kprobe_args, &tid);
	int r;

	if (!a)
		return 0;
	r = on_check(ctx, cur_task(), a->cap, ret, (__u16)a->flags, find_vma, a);
	bpf_map_delete_elem(&kprobe_args, &tid);
	return r;
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(kretprobe_cap_capable, int ret)
{
	return kretprobe_check(ctx, ret, true);
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(kretprobe_cap_capable_noleaf, int ret)
{
	return kretprobe_check(ctx, ret, false);
}

/* The syscall with the denied checks in st ended with ret. */
static __always_inline void syscall_ended(struct task_state *st, long ret)
{
	struct ca_meta meta;
	void *agg;
	__u32 i, n;
	bool added, restart;

	n = st->ndenied;
	st->ndenied = 0;
	if (ret >= 0 || ret < -4095)
		return;   /* it succeeded */
	/* EINTR, and the kernel's ERESTARTSYS..ERESTART_RESTARTBLOCK
	 * (include/linux/errno.h), which user space never sees */
	restart = ret == -EINTR || (ret <= -512 && ret >= -516);
	agg = cur_agg();
	current_meta(&meta, bpf_ktime_get_ns());
	for (i = 0; i < CA_DENIED_PER_SYSCALL; i++) {
		struct ca_val *v;

		if (i >= n)
			break;
		/* a drain may have taken the entry: a new one with count 0 */
		v = agg_entry(agg, &st->denied[i], 0, meta.first_ns, &meta, &added);
		if (!v) {
			enum spill_result res = ret == -EPERM || ret == -EACCES ? SPILL_FAILED :
						restart ? SPILL_RESTART : SPILL_OTHER;

			if (!spill(&st->denied[i], 0, meta.first_ns, &meta, res, (__u32)-ret))
				stat_add(CA_STAT_RESULT_LOST, 1);
		} else if (ret == -EPERM || ret == -EACCES) {
			__sync_fetch_and_add(&v->sys_failed, 1);
		} else if (restart) {
			__sync_fetch_and_add(&v->sys_restart, 1);
		} else {
			__sync_fetch_and_add(&v->sys_other, 1);
			v->sys_errno = (__u32)-ret;
		}
	}
}

/*
 * --syscall-results: a syscall of a task with denied checks ended; they
 * learn whether it failed with EPERM/EACCES, with another error, or was
 * interrupted. Tasks without such state return at once.
 */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	struct task_state *st = task_state(cur_task(), false);
	__u32 tid;

	if (!st || !st->ndenied)
		return 0;
	syscall_ended(st, ret);
	if (!HAVE(CA_KF_TASK_STORAGE)) {
		/* by thread id: the entry goes with the syscall */
		tid = (__u32)bpf_get_current_pid_tgid();
		bpf_map_delete_elem(&tstate, &tid);
	}
	return 0;
}

/* A new event; only an exec event has room for a file name. */
static __always_inline struct ca_event *new_event(__u32 type, struct task_struct *p)
{
	__u32 size = type == CA_EV_EXEC ? sizeof(struct ca_event) : CA_EVENT_SMALL;
	struct ca_event *e = bpf_ringbuf_reserve(&events, size, 0);

	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return NULL;
	}
	__builtin_memset(e, 0, size);
	e->type = type;
	event_ids(e, p);
	e->uid = BPF_CORE_READ(p, cred, uid.val);
	e->ts_ns = bpf_ktime_get_ns();
	BPF_CORE_READ_STR_INTO(&e->comm, p, comm);
	return e;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u64 pp = parent->group_leader->start_time, cstart = child->start_time;
	struct ca_event *e;

	if (child->pid != ctgid || !followed(ptgid, pp) || !uid_allowed(parent))
		return 0;  /* a new thread, or a process we do not follow */
	if (!cfg_all && bpf_map_update_elem(&procs, &ctgid, &cstart, BPF_ANY)) {
		stat_add(CA_STAT_PROC_FULL, 1);
		return 0;
	}
	if (!cfg_all)
		mark_followed(ctgid, 1);
	e = new_event(CA_EV_FORK, child);
	if (e) {
		/* the forking process (real_parent may differ: CLONE_PARENT) */
		e->ppid = ptgid;
		e->parent_start = pp;
		e->cgroup_id = bpf_get_current_cgroup_id();
		bpf_ringbuf_submit(e, rb_wake());
	}
	return 0;
}

/* The executable's names in "exe_names", the first time the hook sees the
 * file (a lookup for every later exec of it). */
static __always_inline void keep_exe_name(const struct ca_exe_id *id, struct linux_binprm *bprm)
{
	struct ca_exe_name *n;
	__u32 zero = 0;

	if (!id->ino || bpf_map_lookup_elem(&exe_names, id))
		return;
	n = bpf_map_lookup_elem(&exe_name_buf, &zero);
	if (!n)
		return;
	bpf_probe_read_kernel_str(n->filename, sizeof(n->filename), BPF_CORE_READ(bprm, filename));
	bpf_probe_read_kernel_str(n->exe_name, sizeof(n->exe_name),
				  BPF_CORE_READ(bprm, file, f_path.dentry, d_name.name));
	n->flags = BPF_CORE_READ(bprm, file, f_inode, i_nlink) == 0 ? CA_EVF_EXE_UNLINKED : 0;
	bpf_map_update_elem(&exe_names, id, n, BPF_NOEXIST);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tgid = p->tgid;
	struct seen_img img = { .pstart = p->group_leader->start_time,
				.exec_id = (__u32)p->self_exec_id };
	struct ca_exe_id id;
	struct ca_event *e;

	if (!followed(tgid, img.pstart) || !uid_allowed(p))
		return 0;
	/* the exec event names the image: no CA_EV_FIRST needed for it */
	bpf_map_update_elem(&seen, &tgid, &img, BPF_ANY);
	exe_id_of(&id, BPF_CORE_READ(bprm, file, f_inode));
	keep_exe_name(&id, bprm);
	e = new_event(CA_EV_EXEC, p);
	if (!e)
		return 0;
	e->cgroup_id = bpf_get_current_cgroup_id();
	if (BPF_CORE_READ_BITFIELD_PROBED(bprm, secureexec))
		e->flags |= CA_EVF_SECURE_EXEC;
	e->exe_ino = id.ino;
	e->exe_gen = id.gen;
	e->exe_dev = id.dev;
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), BPF_CORE_READ(bprm, filename));
	bpf_probe_read_kernel_str(e->exe_name, sizeof(e->exe_name),
				  BPF_CORE_READ(bprm, file, f_path.dentry, d_name.name));
	if (BPF_CORE_READ(bprm, file, f_inode, i_nlink) == 0)
		e->flags |= CA_EVF_EXE_UNLINKED;
	/* the reader names the image by the path alone where it is absolute
	 * (user/record/proctable.c resolve_exe(), exeid.c: the path's inode
	 * must be the one the kernel ran); a relative path, an fd's name
	 * (/dev/fd/N, /proc/self/fd/N) or an unlinked file is named through
	 * /proc/PID while the process lives: then at once; with
	 * --user-stacks always (the image's files are named from what it
	 * maps, user/record/ustacks.c, while they are there) */
	bpf_ringbuf_submit(e, cfg_user_stacks || e->filename[0] != '/' ||
			      (e->flags & CA_EVF_EXE_UNLINKED) ||
			      (e->filename[1] == 'd' && e->filename[2] == 'e' && e->filename[3] == 'v') ||
			      (e->filename[1] == 'p' && e->filename[2] == 'r' && e->filename[3] == 'o') ?
			      RB_WAKE_NOW : rb_wake());
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p)
{
	__u32 tgid = p->tgid, tid = p->pid;
	struct ca_event *e;

	/* a thread ending in a syscall with denied checks (exit_group()
	 * never returns to sys_exit): its hash map entry goes with it */
	if (track_results && !HAVE(CA_KF_TASK_STORAGE))
		bpf_map_delete_elem(&tstate, &tid);
	if (BPF_CORE_READ(p, signal, live.counter) != 0 || !followed(tgid, proc_start(p)) ||
	    !uid_allowed(p))
		return 0;  /* other threads live on, or not ours */
	e = new_event(CA_EV_EXIT, p);
	if (e) {
		e->exit_code = BPF_CORE_READ(p, exit_code);
		/* still in its cgroup: do_exit() leaves it later (cgroup_exit()) */
		e->cgroup_id = bpf_get_current_cgroup_id();
		bpf_ringbuf_submit(e, rb_wake());
	}
	bpf_map_delete_elem(&seen, &tgid);
	if (!cfg_all) {
		bpf_map_delete_elem(&procs, &tgid);
		mark_followed(tgid, 0);
	}
	return 0;
}
#include "ptrace_access.bpf.h"
