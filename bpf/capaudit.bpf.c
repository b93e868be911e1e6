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
 * count. A hit is an increment, once the slot's key is confirmed to be the
 * current process's (tgid and start time, exec id, capability, verdict): a
 * thread id given to another process never inherits its slots. A miss walks the stack, makes sure the agg
 * entry exists, moves the evicted slot's count into agg. Hits are re-checked
 * by walking the stack on the first CA_VERIFY_FIRST hits of a slot and every
 * 256th after (every hit with --exact-stacks); a slot whose re-check finds
 * another stack is split (the new call site gets its own agg entry) and
 * walks the stack on every hit from then on. One syscall can reach one
 * capability from two call sites with the same tag (clone3: the mm copy's
 * noaudit CAP_SYS_ADMIN checks, then alloc_pid's): the first 64 hits catch
 * such pairs that recur; a site that first shows up later is caught at a
 * re-check, and until then counted at the cached site (docs/performance.md). Counts never depend on the cache: pending counts
 * are added to agg on eviction, and by the loader from every CPU's cache
 * after the hooks are detached.
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

char LICENSE[] SEC("license") = "GPL";

#define EPERM  1
#define ENOENT 2
#define EACCES 13
#define EEXIST 17

#define CA_VERIFY_FIRST  64   /* hits of a new slot that are all re-checked */
#define CA_TIME_EVERY    16   /* last_ns is refreshed every 16th hit: a clock read costs ~30 ns */

#define PF_KTHREAD       0x00200000 /* include/linux/sched.h */
#define VM_EXEC          0x00000004 /* include/linux/mm.h */

/* cap_capable() opts bits, include/linux/security.h (Linux 5.1+). */
#define CAP_OPT_NOAUDIT  (1U << 1)
#define CAP_OPT_INSETID  (1U << 2)

/* Set by the loader before load. */
const volatile bool cfg_all = false;   /* -a: every process but our own */
const volatile __u32 self_tgid = 0;   /* alive throughout: no other process has it */
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

/* Processes followed when not recording the whole system: tgid -> the
 * process's start time, so that another process given the pid is not. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CA_PROCS_MAX);
	__type(key, __u32);
	__type(value, __u64);
} procs SEC(".maps");

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

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_state);
} tstate SEC(".maps");

/* kprobe mode: the entry probe's arguments, for the return probe. */
struct kp_args {
	__s32 cap;
	__u32 flags;
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

/* The task acts as the user the caller may see (cfg_only_uid). */
static __always_inline bool uid_allowed(struct task_struct *t)
{
	return !cfg_only_uid || BPF_CORE_READ(t, cred, euid.val) == cfg_uid;
}

/* The process (tgid, pstart) is followed. */
static __always_inline bool followed(__u32 tgid, __u64 pstart)
{
	__u64 *start;

	if (tgid == self_tgid)
		return false;
	if (cfg_all)
		return true;
	start = bpf_map_lookup_elem(&procs, &tgid);
	return start && *start == pstart;
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
	bpf_ringbuf_submit(e, 0);
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

/* Who the current task is, for a new key. */
static __always_inline void current_meta(struct ca_meta *m, __u64 now)
{
	__builtin_memset(m, 0, sizeof(*m));
	m->first_ns = now;
	m->cgroup_id = bpf_get_current_cgroup_id();
	m->uid = (__u32)bpf_get_current_uid_gid();
	m->tid = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(m->comm, sizeof(m->comm));
}

/*
 * The entry of key in the current aggregation map, added (with count and
 * meta) when missing: on a cache miss, or when a drain took the earlier
 * one. NULL when the map is full (the caller counts the checks per
 * capability only).
 */
static __always_inline struct ca_val *agg_entry(void *agg, const struct ca_key *key,
					       __u64 count, __u64 last_ns,
					       const struct ca_meta *meta, bool *added)
{
	struct ca_val *v, nv;

	*added = false;
	if (!agg)
		return NULL;
	v = bpf_map_lookup_elem(agg, key);
	if (v)
		return v;
	__builtin_memset(&nv, 0, sizeof(nv));
	nv.count = count;
	nv.last_ns = last_ns;
	nv.meta = *meta;
	if (bpf_map_update_elem(agg, key, &nv, BPF_NOEXIST) == 0) {
		stat_add(CA_STAT_KEYS, 1);
		*added = true;
	}
	/* -EEXIST: another CPU added it first; anything else: full */
	return bpf_map_lookup_elem(agg, key);
}

/* Checks that found the map full: counted per capability and verdict. */
static __always_inline void count_overflow(const struct ca_key *key, __u64 n)
{
	__u32 idx = (__u32)(key->cap & CA_MAX_CAP) * 2 + (key->ret ? 1 : 0);
	__u64 *ov = bpf_map_lookup_elem(&overflow, &idx);

	stat_add(CA_STAT_MAP_FULL, n);
	if (ov)
		*ov += n;
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
	       a->flags == b->flags && user_eq(a, b);
}

/* --syscall-results: only denied checks pay for this. */
static __always_inline void remember_denied(struct task_struct *task, const struct ca_key *key)
{
	struct task_state *st;
	__u32 i, n;

	st = bpf_task_storage_get(&tstate, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
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

/* bpf_find_vma() callback: the file and offset of a candidate return
 * address, if it lies in a file-backed executable mapping */
struct leaf_ctx {
	__u64 addr;
	__u64 ino, off;
	__u32 dev;
};

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
 * --user-stacks, where the kernel stack is walked (never on a plain hit):
 * the frame-pointer walk as build id + offset, and the word at the user
 * stack pointer when it points into executable file-backed code: at a
 * syscall made by a leaf wrapper (libc's chown(), sethostname()), that is
 * the return address into its caller, the frame the walk cannot see.
 */
static __always_inline void user_stack(void *ctx, struct task_struct *task, __u64 sp,
				       struct ca_key *k)
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
	if (BPF_CORE_READ(task, mm, mmap_lock.count.counter) != 0)
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
	if (bpf_probe_read_user(&lc.addr, sizeof(lc.addr), (void *)sp) || !lc.addr)
		return;
	if (bpf_find_vma(task, lc.addr, leaf_vma, &lc, 0) || !lc.dev)
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

/*
 * Common path of every attach mode. flags: CA_F_* known by the hook.
 * Hot path (a hit not due for a re-check): an inlined per-CPU lookup,
 * register loads, a hash and an increment.
 */
static __always_inline int on_check(void *ctx, int cap, int ret, __u16 flags)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 zero = 0, tgid, tid, exec_id;
	struct ca_cache *c;
	struct ca_slot *s;
	struct pt_regs *regs;
	__u64 tag, now, pstart, ip = 0, a0 = 0, a1 = 0, sp = 0;
	struct ca_key uk;   /* the user part of the key: set only where the stack is walked */
	__s32 nr = -1, serr;
	__u64 sid;
	__u16 h;
	bool hit, added;

	c = bpf_map_lookup_elem(&cache, &zero);
	if (!c)
		return 0;
	tgid = task->tgid;
	tid = task->pid;
	exec_id = (__u32)task->self_exec_id;
	pstart = task->group_leader->start_time;
	if (!(task->flags & PF_KTHREAD)) {
		regs = (struct pt_regs *)bpf_task_pt_regs(task);
		nr = (__s32)regs->orig_ax;
		ip = regs->ip;
		sp = regs->sp;
		a0 = regs->di;
		a1 = regs->si;
	}
	if (cap < 0 || cap > CA_MAX_CAP)
		cap = CA_MAX_CAP;

	tag = mix64((__u64)tid << 32 | exec_id,
		    (__u64)(__u32)nr | ((__u64)cap << 32) | ((__u64)flags << 48));
	tag = mix64(tag, ip);
	tag = mix64(tag, a0);
	tag = mix64(tag, a1);
	tag = mix64(tag, (__u64)(__u32)ret);
	tag |= 1ULL << 63;  /* 0 marks an empty slot */
	s = &c->slots[tag & (CA_CACHE_SLOTS - 1)];

	/* the tag is a hash: the process and what was checked are confirmed */
	hit = s->tag == tag && s->key.tgid == tgid && s->key.pstart == pstart &&
	      s->key.exec_id == exec_id && s->key.cap == (__u16)cap && s->key.ret == ret;
	if (hit) {
		h = s->hits;
		if (h < 0xffff)
			s->hits = h + 1;
		if (!s->unstable && h >= CA_VERIFY_FIRST && (h & verify_mask)) {
			s->count++;
			if (!(h & (CA_TIME_EVERY - 1)))
				s->last_ns = bpf_ktime_get_ns();
			goto out;
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
	/* the only place that walks the stack: one call site in the program,
	 * so the program's own frame never makes two walks differ */
	sid = kernel_stack(ctx, &serr);
	if (!sid)
		stat_add(CA_STAT_STACK_ERR, 1);
	user_stack(ctx, task, sp, &uk);

	if (hit && (sid == s->key.kstack || !sid) &&
	    (!uk.ustack || user_eq(&uk, &s->key))) {
		s->count++;   /* confirmed, or no better stack to offer */
		s->last_ns = now;
		goto out;
	}
	if (hit) {
		/* another call site behind the same tag: split it off, and from
		 * now on walk the stack on every hit of this slot (unless the
		 * cached key had no stack at all: that is an upgrade) */
		if (s->key.kstack) {
			stat_add(CA_STAT_CACHE_MISMATCH, 1);
			s->unstable = 1;
		}
	} else {
		s->hits = 0;
		s->unstable = 0;
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
	s->key.ustack = uk.ustack;
	s->key.leaf_dev = uk.leaf_dev;
	s->key.leaf_ino = uk.leaf_ino;
	s->key.leaf_off = uk.leaf_off;
	current_meta(&s->meta, now);
	/* the entry exists from the first check on (its count stays in the
	 * slot): sys_exit finds it, and a full map is known at once */
	agg_entry(cur_agg(), &s->key, 0, now, &s->meta, &added);
	s->last_ns = now;
	s->count = 1;
out:
	if (ret && nr >= 0 && track_results)
		remember_denied(task, &s->key);
	return 0;
}

/* The initial user namespace is the only one at level 0. */
static __always_inline __u16 ns_flag(const struct user_namespace *ns)
{
	return ns && BPF_CORE_READ(ns, level) == 0 ? CA_F_INIT_NS : 0;
}

/* Same, for a BTF pointer (tp_btf, fexit): a direct load, no helper call. */
static __always_inline __u16 ns_flag_btf(const struct user_namespace *ns)
{
	return ns && ns->level == 0 ? CA_F_INIT_NS : 0;
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
	return on_check(ctx, cap, ret, ns_flag_btf(target_ns));
}

SEC("tracepoint/capability/cap_capable")
int tp_cap_capable(struct trace_event_raw_cap_capable *ctx)
{
	return on_check(ctx, ctx->cap, ctx->ret, ns_flag(ctx->target_ns));
}

SEC("fexit/cap_capable")
int BPF_PROG(fexit_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int opts, int ret)
{
	return on_check(ctx, cap, ret, ns_flag_btf(ns) | opts_flags(opts));
}

SEC("kprobe/cap_capable")
int BPF_KPROBE(kprobe_cap_capable, const struct cred *cred, struct user_namespace *ns, int cap,
	       unsigned int opts)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kp_args a = { .cap = cap, .flags = ns_flag(ns) | opts_flags(opts) };
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	if (!followed((__u32)(bpf_get_current_pid_tgid() >> 32), proc_start(task)) ||
	    !uid_allowed(task))
		return 0;
	bpf_map_update_elem(&kprobe_args, &tid, &a, BPF_ANY);
	return 0;
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(kretprobe_cap_capable, int ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kp_args *a = bpf_map_lookup_elem(&kprobe_args, &tid);
	struct kp_args copy;

	if (!a)
		return 0;
	copy = *a;
	bpf_map_delete_elem(&kprobe_args, &tid);
	return on_check(ctx, copy.cap, ret, (__u16)copy.flags);
}

/*
 * --syscall-results: a syscall of a task with denied checks ended; they
 * learn whether it failed with EPERM/EACCES. Tasks without such state
 * return at once.
 */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	struct task_state *st = bpf_task_storage_get(&tstate, bpf_get_current_task_btf(), 0, 0);
	struct ca_meta meta;
	void *agg;
	__u32 i, n;
	bool added;

	if (!st || !st->ndenied)
		return 0;
	n = st->ndenied;
	st->ndenied = 0;
	if (ret != -EPERM && ret != -EACCES)
		return 0;
	agg = cur_agg();
	current_meta(&meta, bpf_ktime_get_ns());
	for (i = 0; i < CA_DENIED_PER_SYSCALL; i++) {
		struct ca_val *v;

		if (i >= n)
			break;
		/* a drain may have taken the entry: a new one with count 0 */
		v = agg_entry(agg, &st->denied[i], 0, meta.first_ns, &meta, &added);
		if (v)
			__sync_fetch_and_add(&v->sys_failed, 1);
		else
			stat_add(CA_STAT_RESULT_LOST, 1);
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
	e = new_event(CA_EV_FORK, child);
	if (e) {
		/* the forking process (real_parent may differ: CLONE_PARENT) */
		e->ppid = ptgid;
		e->parent_start = pp;
		e->cgroup_id = bpf_get_current_cgroup_id();
		bpf_ringbuf_submit(e, 0);
	}
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tgid = p->tgid;
	struct seen_img img = { .pstart = p->group_leader->start_time,
				.exec_id = (__u32)p->self_exec_id };
	struct ca_event *e;

	if (!followed(tgid, img.pstart) || !uid_allowed(p))
		return 0;
	/* the exec event names the image: no CA_EV_FIRST needed for it */
	bpf_map_update_elem(&seen, &tgid, &img, BPF_ANY);
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
	__u32 tgid = p->tgid;
	struct ca_event *e;

	if (BPF_CORE_READ(p, signal, live.counter) != 0 || !followed(tgid, proc_start(p)) ||
	    !uid_allowed(p))
		return 0;  /* other threads live on, or not ours */
	e = new_event(CA_EV_EXIT, p);
	if (e) {
		e->exit_code = BPF_CORE_READ(p, exit_code);
		bpf_ringbuf_submit(e, 0);
	}
	bpf_map_delete_elem(&seen, &tgid);
	if (!cfg_all)
		bpf_map_delete_elem(&procs, &tgid);
	return 0;
}
