/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake tracer for the record layer's unit tests (test_proctable.c).
 *
 * The seam is tracer/tracer.h and tracer/tasks_iter.h themselves: the
 * recorder's process table (record/proctable.c, attribute.c) and its end
 * (record/collect.c) reach the kernel only through those functions. The
 * unit-test binary links the record/ objects with fake_tracer.c instead of
 * tracer.o and tasks_iter.o (Makefile: UNIT_RECORD_OBJS), so it needs no
 * libbpf, no BPF and no root: the "kernel" is the table below, which a
 * test fills with aggregated checks, stacks, counters and a process
 * snapshot, and the events are struct ca_event values it passes to
 * proctable_on_event() itself, as the ringbuf callback would.
 */
#ifndef CA_FAKE_TRACER_H
#define CA_FAKE_TRACER_H

#include <stddef.h>
#include <stdint.h>

#include "tracer/tracer.h"
#include "tracer/tasks_iter.h"
#include "tracer/aggtab.h"

#define FAKE_KEYS   64
#define FAKE_STACKS 8
#define FAKE_TASKS  16
#define FAKE_FOLLOW 32

struct fake_kernel {
	/* the aggregated checks (tracer_foreach_check): as the real table
	 * holds them (aggtab_objs() finds a value's objects beside it) */
	struct agg_entry entries[FAKE_KEYS];
	size_t nkeys;
	/* the stack map (tracer_stack) */
	uint64_t stack_id[FAKE_STACKS];
	uint64_t stack_ips[FAKE_STACKS][CA_STACK_DEPTH];
	int stack_n[FAKE_STACKS];
	size_t nstacks;
	uint64_t stats[CA_STAT_NR], overflow[CA_OVERFLOW_SLOTS], skipped;
	/* what tasks_snapshot() returns (copied; sorted there) */
	struct ca_task tasks[FAKE_TASKS];
	size_t ntasks;
	int snapshots;           /* tasks_snapshot() calls */
	/* the exec hook's "exe_names" map (tracer_exe_name) */
	struct exe_name_copy exe_names[4];
	size_t nexe_names;
	/* tracer_follow() calls */
	struct { uint32_t tgid; uint64_t pstart; } followed[FAKE_FOLLOW];
	size_t nfollowed;
};

extern struct fake_kernel fake_kernel;

/* Empty the fake kernel; t: a tracer as the session's after
 * tracer_start() (zeroed, a non-NULL skel that nothing dereferences). */
void fake_tracer_reset(struct tracer *t);
/* One aggregated check: its key (tgid, pstart, exec_id, cap, ret, kstack)
 * and count; the value's meta names the thread (tid, uid, comm). */
struct ca_val *fake_check(uint32_t tgid, uint64_t pstart, uint32_t exec_id, int cap, int ret,
			  uint64_t kstack, uint64_t count, const char *comm);
void fake_stack(uint64_t id, const uint64_t *ips, int n);
/* What the exec hook kept of the executable (dev, ino, gen) */
void fake_exe_name(uint32_t dev, uint64_t ino, uint32_t gen, const char *filename,
		   const char *exe_name, uint32_t flags);

#endif
