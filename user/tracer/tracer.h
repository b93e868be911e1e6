/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF side's lifecycle: open, choose programs, load, attach, drain. */
#ifndef CA_TRACER_H
#define CA_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>
#include <linux/types.h>

#include "tracer/aggtab.h"
#include "capaudit.h"
#include "tracer/probe.h"

struct capaudit_bpf;
struct ptrace_hooks;
struct ring_buffer;
struct bpf_link;

struct tracer_cfg {
	struct attach_list modes;   /* tried in order; n == 0: auto */
	bool all;                /* record every process but ours */
	uint32_t self_tgid;
	uint32_t keeper_tgid;     /* our output keeper (lib/outfile.h), or 0: not followed either */
	bool only_uid;           /* follow only processes acting as uid */
	uint32_t uid;
	bool verbose;            /* pass libbpf's log through */
	bool syscall_results;    /* attach sys_exit: blocking vs advisory denials */
	bool exact_stacks;       /* walk the stack on every check */
	bool paths;              /* prove new processes' first checks by paths
				  * (ignored with exact_stacks) */
	bool user_stacks;        /* capture user stacks with the kernel ones */
	bool new_keys;           /* CA_EV_NEWKEY for each key added (monitor) */
	uint32_t max_keys;       /* entries of each aggregation map; 0: CA_AGG_KEYS */
	bool fixed_keys;         /* keep max_keys (--max-keys); else grow when draining
				  * cannot keep up */
	uint32_t ringbuf_bytes;  /* event ringbuf size (power of 2 pages); 0: default */
	/* with all: only tasks in the subtree of the cgroup v2 directory
	 * open as cgroup_fd */
	bool cgroup;
	int cgroup_fd;
	/* kprobe mode: perf events opened before the privilege drop, or NULL */
	const struct kprobe_events *kprobe_events;
	/* the ptrace-access hooks' perf events (tracer/ptrace_hooks.h), or
	 * NULL: none */
	struct ptrace_hooks *ptrace_hooks;   /* waited for (ptrace_hooks_ready()), then attached */
};

typedef int (*tracer_event_fn)(void *ctx, const struct ca_event *e);

/* A hash map of the kernel side copied out (tracer_stop()): its 64-bit
 * keys in ascending order, each with its value of vsize bytes. */
struct map_copy {
	size_t n, vsize;
	uint64_t *keys;
	unsigned char *vals;
};

/* An entry of the "exe_names" map (struct ca_exe_name), kept at stop. */
struct exe_name_copy {
	struct ca_exe_id id;
	struct ca_exe_name name;
};

struct tracer {
	struct capaudit_bpf *skel;
	struct ring_buffer *rb;
	enum attach_mode mode;   /* the mode that attached */
	uint32_t kfeat;          /* the kernel's BPF features its programs use (KF_*) */
	bool stopped;
	int ptrace_hooks;        /* ptrace-access hooks attached */
	struct ptrace_hooks *pth; /* their events (the session's): the links
				     go there at stop, for its closer */
	uint64_t skipped;        /* runs the kernel skipped (recursion_misses) */
	/* Aggregation: the programs add to the map in aggs[0], agg_fd[cur];
	 * tracer_drain() swaps in the other one and moves the old one's
	 * entries into tab. */
	struct aggtab tab;
	int agg_fd[2];
	uint32_t agg_max[2];     /* their max_entries */
	bool agg_owned[2];       /* created here (grown): ours to close */
	int cur;
	bool fixed_keys;
	uint64_t keys_at_swap;   /* CA_STAT_KEYS when agg_fd[cur] went in */
	uint64_t spilled_since_swap;  /* CA_EV_SPILL events since: agg_fd[cur] filled */
	int64_t last_swap_ns;
	uint64_t drains;         /* swaps done while recording */
	uint32_t agg_max_used;   /* the largest map size used */
	tracer_event_fn on_event;
	void *ctx;
	int poll_fd;             /* with has_poll_fd: an epoll set of the ring
				  * buffer's and tracer_wake_fd()'s fd */
	bool has_poll_fd;
	/* After tracer_stop(): what the record still reads from the kernel,
	 * copied while capaudit holds CAP_BPF. Before Linux 5.19, with
	 * kernel.unprivileged_bpf_disabled set, a process without it may
	 * make no bpf() call at all, not even a lookup in a map it holds
	 * (kernel/bpf/syscall.c __sys_bpf(); commit c8644cd0efe7 left the
	 * check to map and program creation), and the record is collected
	 * with no capability. */
	struct map_copy kstacks, ustacks;
	/* "exe_names", copied at stop (sorted by id) */
	struct exe_name_copy *exe_names;
	size_t nexe_names;
	uint64_t stats[CA_STAT_NR], overflow[CA_OVERFLOW_SLOTS];
	/* why each mode that was tried did not work, for messages and doctor */
	char why[ATTACH_NR][320];
	/* the procbytes map (capaudit.bpf.c: one byte a followed pid),
	 * mapped by the first tracer_follow() */
	uint8_t *procbytes;
	size_t procbytes_len;
};

/* Load and attach the first of cfg->modes that works (auto: the
 * attach_auto_order). On failure err holds one line naming each mode tried
 * and why it failed. */
int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, tracer_event_fn fn, void *ctx,
		 char *err, size_t errlen);
/* Follow the process (tgid, pstart) (struct ca_key): another process given
 * the pid later is not followed. */
int tracer_follow(struct tracer *t, uint32_t tgid, uint64_t pstart);
/* From now on, follow only the tasks under this cgroup (a cfg->cgroup
 * tracer: record --container --wait narrowing the whole hierarchy to the
 * container once it has started). */
int tracer_set_scope(struct tracer *t, int cgroup_fd);
/* The object is loaded (its maps may be written). */
bool tracer_loaded(const struct tracer *t);
/* The text ranges the call-site cache's proofs need (until they are set,
 * every cache hit walks the stack). */
int tracer_set_ranges(struct tracer *t, const struct ca_ranges *r);
int tracer_poll(struct tracer *t, int timeout_ms);
/* tracer_poll() also ends its wait when fd is readable (the caller's
 * signal pipe: the hooks' events wake it only in bulk). Its reader drains it. */
int tracer_wake_fd(struct tracer *t, int fd);
/* Drain the aggregation map into t->tab when it is half full (swapping in
 * the spare, grown if the last drain was recent). 1 if it drained. */
int tracer_drain_if_full(struct tracer *t);
/* Swap and drain now, and grow the spare only if may_grow: a drain on a
 * clock (monitor's interval) says nothing of how fast keys come */
int tracer_drain_grow(struct tracer *t, bool may_grow);
/* Checks counted so far, wherever they are (table, map, caches, overflow). */
uint64_t tracer_checks(struct tracer *t);
void tracer_stats(struct tracer *t, uint64_t out[CA_STAT_NR]);
/* Checks the kernel ran no program for (recursion_misses), so far; after
 * tracer_stop(), all of them (t->skipped). */
uint64_t tracer_skipped(struct tracer *t);
/*
 * End of recording: detach every hook, let programs in flight finish,
 * drain the aggregation map and add every CPU's pending cache counts to
 * t->tab; copy the stacks and counters out (t->kstacks, ...: read from
 * there from now on, with no capability needed). Idempotent.
 */
void tracer_stop(struct tracer *t);
/* Iterate every aggregated check (after tracer_stop: all of them). */
int tracer_foreach_check(struct tracer *t,
			 int (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx);
/* The frames of a kernel stack (struct ca_key.kstack); returns the number
 * of frames, or -1. */
int tracer_stack(struct tracer *t, uint64_t kstack, uint64_t ips[CA_STACK_DEPTH]);
/* Take the stack out of the kernel's map (the monitor, once it has its
 * frames): the map holds the stacks of an interval, not of weeks. A check
 * that walks it again stores it again under the same key. */
void tracer_forget_stack(struct tracer *t, uint64_t kstack);
/* --user-stacks: a user stack's frames (build id + offset, or a bare ip)
 * by its key (struct ca_key.ustack); the number of frames, -1 if it is not
 * in the map */
int tracer_ustack(struct tracer *t, uint64_t ustack, struct bpf_stack_build_id *out);
/* What the exec hook kept of the executable id ("exe_names": its path as
 * passed to execve(), its own name): 0, or -1 when the map has no such
 * entry (not exec'd while recording, or let go: it is an LRU). */
int tracer_exe_name(struct tracer *t, const struct ca_exe_id *id, struct ca_exe_name *out);
/* Every CPU's pending call-site cache counts, read while the hooks run
 * (not taken: they reach the map later); fn gets each slot with a count. */
void tracer_peek_pending(struct tracer *t,
			 void (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx);
/* Counts per [cap][denied] of checks that found the agg map full. */
void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS]);
void tracer_close(struct tracer *t);

#endif
