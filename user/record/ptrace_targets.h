/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CA_EV_PTRACE event (bpf/ptrace_access.bpf.h) into the image's record:
 * the target's permitted set, read from /proc while the target runs, when
 * the kernel's subset rule let the access through without a check.
 */
#ifndef CA_PTRACE_TARGETS_H
#define CA_PTRACE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "tracer/abi.h"
#include "recfile/recfile.h"

/* ours(ctx, target, caller): the process target was made by the caller,
 * or by the recorded command, as the record's process table says: run
 * with the suggested set it inherits that set (a child's credentials are
 * its parent's), which then covers it whatever it held while recorded */
void ptrace_target_note(struct rec_process *p, const struct ca_event *e,
			bool (*ours)(void *ctx, uint32_t target, uint32_t caller), void *ctx);

#endif
