// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit's kernel side: count every capability check made by the traced
 * processes, keyed by (process, capability, verdict, kernel stack, syscall).
 *
 * One hook on cap_capable() is attached, chosen by the loader:
 *   tp_btf/cap_capable                 trace event, Linux 6.14+ (preferred)
 *   tracepoint/capability/cap_capable  same event through tracefs
 *   fexit/cap_capable                  BPF trampolines (older kernels)
 *   kprobe + kretprobe on cap_capable  anything with kprobes
 * plus sched_process_{fork,exec,exit} to follow the process tree and
 * sys_exit to delimit syscalls.
 *
 * Cost: walking the kernel stack (bpf_get_stackid) costs about ten times the
 * syscall itself, so it is done only on a miss of a small per-task cache
 * keyed by (syscall, user ip, first two syscall args, cap, verdict, ordinal
 * of the check within the syscall). Hits are re-checked by walking the stack
 * for the first CA_VERIFY_FIRST hits of a slot and every CA_VERIFY_EVERY-th
 * after; a slot whose re-check finds another stack walks the stack on every
 * hit from then on, so a key that leads to two call sites is split, never
 * merged. Counts never depend on the cache: every check increments its key.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "capaudit.h"

char LICENSE[] SEC("license") = "GPL";

#define EPERM  1
#define EACCES 13

#define CA_VERIFY_FIRST  4
#define CA_VERIFY_EVERY  256  /* power of two */
#define CA_MAX_ORDINAL   63

#define PF_KTHREAD       0x00200000 /* include/linux/sched.h */

/* cap_capable() opts bits, include/linux/security.h (Linux 5.1+). */
#define CAP_OPT_NOAUDIT  (1U << 1)
#define CAP_OPT_INSETID  (1U << 2)

/* Set by the loader before load. */
const volatile bool cfg_all = false;   /* -a: every process but our own */
const volatile __u32 self_tgid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct ca_key);
	__type(value, struct ca_val);
} agg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, CA_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* Processes followed (by tgid) when not recording the whole system. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CA_STAT_NR);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* Checks that found the agg map full still count here, per cap and verdict. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CA_OVERFLOW_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} overflow SEC(".maps");

/*
 * One cache slot: a call site as seen from user space (the tag), the full
 * aggregation key it was last attributed to, and the checks counted here
 * but not yet added to the agg map. Slots are flushed into agg when
 * evicted, at exec and thread exit (in the task's own context), and by the
 * flush iterator at the end of the recording.
 */
struct cache_slot {
	__u64 tag;       /* 0: empty */
	struct ca_key key;
	__u64 count;     /* pending checks (atomic: the iterator may read it) */
	__u64 last_ns;
	__u16 hits;
	__u8 unstable;   /* a re-check found another stack: walk on every hit */
	__u8 in_agg;     /* key has an agg entry; else flush counts as overflow */
};

struct task_state {
	__u32 ordinal;   /* checks so far in the current syscall */
	__u32 ndenied;   /* entries used in denied[] */
	/* denied checks of the current syscall: sys_exit learns whether the
	 * syscall then failed with EPERM/EACCES (blocking) or not (advisory) */
	struct ca_key denied[CA_DENIED_PER_SYSCALL];
	/* kprobe mode: the entry probe's arguments, for the return probe */
	__u32 kp_pending;
	__s32 kp_cap;
	__u32 kp_flags;
	struct cache_slot slots[CA_CACHE_SLOTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_state);
} tstate SEC(".maps");

/* Set by the loader before running the iterator: 1 flush, 0 only count. */
int iter_flush = 0;
/* Written by the iterator when iter_flush is 0: pending checks in slots. */
__u64 iter_pending = 0;

static __always_inline void stat_add(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		*v += n;
}

static __always_inline bool tgid_followed(__u32 tgid)
{
	if (tgid == self_tgid)
		return false;
	if (cfg_all)
		return true;
	return bpf_map_lookup_elem(&procs, &tgid) != NULL;
}

static __always_inline void emit_first(struct task_struct *task)
{
	struct ca_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = CA_EV_FIRST;
	e->tgid = BPF_CORE_READ(task, tgid);
	e->tid = BPF_CORE_READ(task, pid);
	e->ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->exec_id = (__u32)BPF_CORE_READ(task, self_exec_id);
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
}

/*
 * The state of the current task if it is traced, creating it on the first
 * check of a thread that belongs to a followed process. A task without state
 * costs one procs lookup per check.
 */
static __always_inline struct task_state *traced_state(struct task_struct *task)
{
	struct task_state *st;
	__u32 tgid;

	st = bpf_task_storage_get(&tstate, task, 0, 0);
	if (st)
		return st;
	tgid = BPF_CORE_READ(task, tgid);
	if (!tgid_followed(tgid))
		return NULL;
	st = bpf_task_storage_get(&tstate, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (st)
		emit_first(task);
	return st;
}

static __always_inline __u64 mix64(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* Make sure key has an agg entry (metadata of the current task); false
 * when the map is full. Called on cache misses only. */
static __always_inline bool agg_ensure(const struct ca_key *key, __u64 now)
{
	struct ca_val nv;

	if (bpf_map_lookup_elem(&agg, key))
		return true;
	__builtin_memset(&nv, 0, sizeof(nv));
	nv.first_ns = now;
	nv.last_ns = now;
	nv.cgroup_id = bpf_get_current_cgroup_id();
	nv.uid = (__u32)bpf_get_current_uid_gid();
	nv.tid = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(nv.comm, sizeof(nv.comm));
	/* -EEXIST: another CPU inserted it first; anything else: full */
	return bpf_map_update_elem(&agg, key, &nv, BPF_NOEXIST) == 0 ||
	       bpf_map_lookup_elem(&agg, key) != NULL;
}

/* Move a slot's pending count into agg (or the overflow counters). */
static __always_inline void flush_slot(struct cache_slot *s)
{
	struct ca_val *v = NULL;
	__u64 n;
	__u32 idx;
	__u64 *ov;

	if (!s->tag || !s->count)
		return;
	n = __sync_lock_test_and_set(&s->count, 0);
	if (!n)
		return;
	if (s->in_agg)
		v = bpf_map_lookup_elem(&agg, &s->key);
	if (v) {
		__sync_fetch_and_add(&v->count, n);
		if (s->last_ns > v->last_ns)
			v->last_ns = s->last_ns;
		return;
	}
	/* map full: keep the count, lose only the attribution */
	stat_add(CA_STAT_MAP_FULL, n);
	idx = (__u32)(s->key.cap & CA_MAX_CAP) * 2 + (s->key.ret ? 1 : 0);
	ov = bpf_map_lookup_elem(&overflow, &idx);
	if (ov)
		*ov += n;
}

static __always_inline void flush_all(struct task_state *st)
{
	int i;

	for (i = 0; i < CA_CACHE_SLOTS; i++)
		flush_slot(&st->slots[i]);
}

static __always_inline bool key_eq(const struct ca_key *a, const struct ca_key *b)
{
	return a->tgid == b->tgid && a->exec_id == b->exec_id && a->stack_id == b->stack_id &&
	       a->syscall == b->syscall && a->ret == b->ret && a->cap == b->cap &&
	       a->flags == b->flags;
}

/* Only denied checks pay for this; granted ones never get here. */
static __always_inline void remember_denied(struct task_state *st, const struct ca_key *key)
{
	__u32 i, n = st->ndenied;

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

/*
 * Common path of every attach mode. flags: CA_F_* known by the hook.
 * Hot path (a cache hit not due for a re-check): one task-storage lookup,
 * register loads, a hash, an atomic add and a coarse clock read.
 */
static __always_inline int on_check(void *ctx, struct task_state *st, int cap, int ret, __u16 flags)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct cache_slot *s;
	struct pt_regs *regs;
	__u64 tag, now, ip = 0, a0 = 0, a1 = 0;
	__s32 nr = -1, sid;
	__u32 ord;
	__u16 h;
	bool hit;

	if (!(task->flags & PF_KTHREAD)) {
		regs = (struct pt_regs *)bpf_task_pt_regs(task);
		nr = (__s32)regs->orig_ax;
		ip = regs->ip;
		a0 = regs->di;
		a1 = regs->si;
	}
	ord = st->ordinal;
	if (ord < CA_MAX_ORDINAL)
		st->ordinal = ord + 1;
	if (cap < 0 || cap > CA_MAX_CAP)
		cap = CA_MAX_CAP;

	tag = mix64(0, (__u64)(__u32)nr | ((__u64)cap << 32) | ((__u64)flags << 48));
	tag = mix64(tag, ip);
	tag = mix64(tag, a0);
	tag = mix64(tag, a1);
	tag = mix64(tag, (__u64)(__u32)ret | ((__u64)ord << 32));
	tag |= 1ULL << 63;  /* 0 marks an empty slot */
	s = &st->slots[tag & (CA_CACHE_SLOTS - 1)];
	now = bpf_ktime_get_ns();

	hit = s->tag == tag;
	if (hit) {
		h = s->hits;
		if (h < 0xffff)
			s->hits = h + 1;
		if (!s->unstable && h >= CA_VERIFY_FIRST && (h & (CA_VERIFY_EVERY - 1))) {
			__sync_fetch_and_add(&s->count, 1);
			s->last_ns = now;
			goto out;
		}
		stat_add(CA_STAT_CACHE_VERIFY, 1);
	} else {
		stat_add(CA_STAT_CACHE_MISS, 1);
	}

	/* the only place that walks the stack: one call site in the program,
	 * so the program's own frame never makes two walks differ */
	sid = bpf_get_stackid(ctx, &stacks, 0);
	if (sid < 0)
		stat_add(CA_STAT_STACK_ERR, 1);

	if (hit && (sid == s->key.stack_id || sid < 0)) {
		__sync_fetch_and_add(&s->count, 1);   /* confirmed, or no better stack */
		s->last_ns = now;
		goto out;
	}
	if (hit) {
		/* another call site behind the same tag: split it off, and from
		 * now on walk the stack on every hit of this slot (unless the
		 * cached key had no stack at all: that is an upgrade) */
		if (s->key.stack_id >= 0) {
			stat_add(CA_STAT_CACHE_MISMATCH, 1);
			s->unstable = 1;
		}
	} else {
		s->hits = 0;
		s->unstable = 0;
	}
	flush_slot(s);
	s->tag = tag;
	s->key.tgid = task->tgid;
	s->key.exec_id = (__u32)task->self_exec_id;
	s->key.stack_id = sid;
	s->key.syscall = nr;
	s->key.ret = ret;
	s->key.cap = (__u16)cap;
	s->key.flags = flags;
	s->in_agg = agg_ensure(&s->key, now);
	s->last_ns = now;
	__sync_fetch_and_add(&s->count, 1);
out:
	if (ret && nr >= 0)
		remember_denied(st, &s->key);
	return 0;
}

static __always_inline __u16 ns_flag(const struct user_namespace *ns)
{
	/* the initial user namespace is the only one at level 0 */
	return ns && BPF_CORE_READ(ns, level) == 0 ? CA_F_INIT_NS : 0;
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
	struct task_state *st = traced_state(bpf_get_current_task_btf());

	if (!st)
		return 0;
	return on_check(ctx, st, cap, ret, ns_flag(target_ns));
}

SEC("tracepoint/capability/cap_capable")
int tp_cap_capable(struct trace_event_raw_cap_capable *ctx)
{
	struct task_state *st = traced_state(bpf_get_current_task_btf());

	if (!st)
		return 0;
	return on_check(ctx, st, ctx->cap, ctx->ret, ns_flag(ctx->target_ns));
}

SEC("fexit/cap_capable")
int BPF_PROG(fexit_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int opts, int ret)
{
	struct task_state *st = traced_state(bpf_get_current_task_btf());

	if (!st)
		return 0;
	return on_check(ctx, st, cap, ret, ns_flag(ns) | opts_flags(opts));
}

SEC("kprobe/cap_capable")
int BPF_KPROBE(kprobe_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	       unsigned int opts)
{
	struct task_state *st = traced_state(bpf_get_current_task_btf());

	if (!st)
		return 0;
	st->kp_pending = 1;
	st->kp_cap = cap;
	st->kp_flags = ns_flag(ns) | opts_flags(opts);
	return 0;
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(kretprobe_cap_capable, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_state *st = bpf_task_storage_get(&tstate, task, 0, 0);

	if (!st || !st->kp_pending)
		return 0;
	st->kp_pending = 0;
	return on_check(ctx, st, st->kp_cap, ret, (__u16)st->kp_flags);
}

/*
 * A syscall ended: the next check starts a new ordinal sequence, and the
 * denied checks it made learn whether it failed with EPERM/EACCES. Tasks
 * we do not follow have no state and return at once.
 */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	struct task_state *st = bpf_task_storage_get(&tstate, bpf_get_current_task_btf(), 0, 0);
	__u32 i, n;

	if (!st || !st->ordinal)
		return 0;
	st->ordinal = 0;
	n = st->ndenied;
	if (!n)
		return 0;
	st->ndenied = 0;
	if (ret != -EPERM && ret != -EACCES)
		return 0;
	for (i = 0; i < CA_DENIED_PER_SYSCALL; i++) {
		struct ca_val *v;

		if (i >= n)
			break;
		v = bpf_map_lookup_elem(&agg, &st->denied[i]);
		if (v)
			__sync_fetch_and_add(&v->sys_failed, 1);
	}
	return 0;
}

static __always_inline struct ca_event *new_event(__u32 type, struct task_struct *p)
{
	struct ca_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		stat_add(CA_STAT_RINGBUF_FULL, 1);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = type;
	e->tgid = BPF_CORE_READ(p, tgid);
	e->tid = BPF_CORE_READ(p, pid);
	e->ppid = BPF_CORE_READ(p, real_parent, tgid);
	e->uid = BPF_CORE_READ(p, cred, uid.val);
	e->exec_id = (__u32)BPF_CORE_READ(p, self_exec_id);
	e->ts_ns = bpf_ktime_get_ns();
	BPF_CORE_READ_STR_INTO(&e->comm, p, comm);
	return e;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	struct ca_event *e;
	__u8 one = 1;

	if (child->pid != ctgid || !tgid_followed(ptgid))
		return 0;  /* a new thread, or a process we do not follow */
	if (!cfg_all && bpf_map_update_elem(&procs, &ctgid, &one, BPF_ANY)) {
		stat_add(CA_STAT_PROC_FULL, 1);
		return 0;
	}
	e = new_event(CA_EV_FORK, child);
	if (e) {
		e->ppid = ptgid;
		e->cgroup_id = bpf_get_current_cgroup_id();
		bpf_ringbuf_submit(e, 0);
	}
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_state *st;
	struct ca_event *e;

	/* the old image's user addresses mean nothing now */
	st = bpf_task_storage_get(&tstate, p, 0, 0);
	if (st) {
		flush_all(st);
		__builtin_memset(st->slots, 0, sizeof(st->slots));
	}
	if (!tgid_followed(p->tgid))
		return 0;
	e = new_event(CA_EV_EXEC, p);
	if (!e)
		return 0;
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_probe_read_kernel_str(e->filename, sizeof(e->filename), BPF_CORE_READ(bprm, filename));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p)
{
	struct task_state *st = bpf_task_storage_get(&tstate, p, 0, 0);
	__u32 tgid = p->tgid;
	struct ca_event *e;

	/* every thread: its storage goes with it, its pending counts must not */
	if (st)
		flush_all(st);
	if (BPF_CORE_READ(p, signal, live.counter) != 0 || !tgid_followed(tgid))
		return 0;  /* other threads live on, or not ours */
	e = new_event(CA_EV_EXIT, p);
	if (e) {
		e->exit_code = BPF_CORE_READ(p, exit_code);
		bpf_ringbuf_submit(e, 0);
	}
	if (!cfg_all)
		bpf_map_delete_elem(&procs, &tgid);
	return 0;
}

/*
 * Run by the loader (bpf_iter_create) over every task: with iter_flush set,
 * move all pending counts into agg (at the end, after the check hooks are
 * detached); without, only add them up in iter_pending (live status).
 */
SEC("iter/task")
int flush_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct task_state *st;
	int i;

	if (!task)
		return 0;
	st = bpf_task_storage_get(&tstate, task, 0, 0);
	if (!st)
		return 0;
	if (iter_flush) {
		flush_all(st);
		return 0;
	}
	for (i = 0; i < CA_CACHE_SLOTS; i++)
		if (st->slots[i].tag)
			iter_pending += st->slots[i].count;
	return 0;
}
