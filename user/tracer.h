/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF side's lifecycle: open, choose programs, load, attach, drain. */
#ifndef CA_TRACER_H
#define CA_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>
#include <linux/types.h>

#include "capaudit.h"
#include "probe.h"

struct capaudit_bpf;
struct ring_buffer;
struct bpf_link;

struct tracer_cfg {
	struct attach_list modes;   /* tried in order; n == 0: auto */
	bool all;                /* record every process but ours */
	uint32_t self_tgid;
	bool verbose;            /* pass libbpf's log through */
	bool syscall_results;    /* attach sys_exit: blocking vs advisory denials */
	bool exact_stacks;       /* walk the stack on every check */
	bool user_stacks;        /* capture user stacks with the kernel ones */
	uint32_t max_keys;       /* agg map entries; 0: the BPF object's default */
	uint32_t ringbuf_bytes;  /* event ringbuf size (power of 2 pages); 0: default */
	/* kprobe mode: perf events opened before the privilege drop, or NULL */
	const struct kprobe_events *kprobe_events;
};

typedef int (*tracer_event_fn)(void *ctx, const struct ca_event *e);

struct tracer {
	struct capaudit_bpf *skel;
	struct ring_buffer *rb;
	enum attach_mode mode;   /* the mode that attached */
	bool stopped;
	/* counts folded in by tracer_stop() that found no agg entry */
	uint64_t extra_overflow[CA_OVERFLOW_SLOTS];
	uint64_t extra_map_full;
	uint64_t skipped;        /* runs the kernel skipped (recursion_misses) */
	tracer_event_fn on_event;
	void *ctx;
	/* why each mode that was tried did not work, for messages and doctor */
	char why[ATTACH_NR][320];
};

/* Load and attach the first of cfg->modes that works (auto: the
 * attach_auto_order). On failure err holds one line naming each mode tried
 * and why it failed. */
int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, tracer_event_fn fn, void *ctx,
		 char *err, size_t errlen);
int tracer_follow(struct tracer *t, uint32_t tgid);
/* Number of processes still followed (not exited); forgets those that
 * exited without an exit event (before the hooks were attached). */
size_t tracer_followed(struct tracer *t);
int tracer_poll(struct tracer *t, int timeout_ms);
void tracer_stats(struct tracer *t, uint64_t out[CA_STAT_NR]);
/* Checks counted in the per-task caches, not yet in the agg map. */
uint64_t tracer_pending(struct tracer *t);
/*
 * End of recording: detach every hook, let programs in flight finish, add
 * every CPU's pending cache counts to the agg map. Maps stay readable.
 * Idempotent.
 */
void tracer_stop(struct tracer *t);
/* Iterate every aggregated check. */
int tracer_foreach_check(struct tracer *t,
			 int (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx);
/* The frames of a stack id; returns the number of frames, or -1. */
int tracer_stack(struct tracer *t, int32_t id, uint64_t ips[CA_STACK_DEPTH]);
/* --user-stacks: a user stack's frames (build id + offset, or a bare ip);
 * the number of frames, -1 if the id is not in the map */
int tracer_ustack(struct tracer *t, int32_t id, struct bpf_stack_build_id *out);
/* Counts per [cap][denied] of checks that found the agg map full. */
void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS]);
void tracer_close(struct tracer *t);

#endif
