/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live processes, with the identity capaudit's hooks use (tgid and
 * start time), from the iter/task BPF iterator (bpf/tasks.bpf.c). This is
 * how a pid named on the command line, or found in /proc, is tied to one
 * process: /proc gives start times only in clock ticks.
 */
#ifndef CA_TASKS_ITER_H
#define CA_TASKS_ITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "capaudit.h"

struct task_snap {
	struct ca_task *t;       /* sorted by tgid */
	size_t n;
};

/* Every live process, now. 0, or -1 with one line in err. */
int tasks_snapshot(struct task_snap *s, char *err, size_t errlen);
/* Sort s->t by tgid, as tasks_find() needs it (tasks_snapshot() does). */
void tasks_sort(struct task_snap *s);
/* The process with this tgid in the snapshot, or NULL. */
const struct ca_task *tasks_find(const struct task_snap *s, uint32_t tgid);
/*
 * The descendants of the processes in roots (identities, n of them) in the
 * snapshot, by parent identity, roots excluded; caller frees. A process
 * whose parent died is the reaper's child by then (as in /proc).
 */
size_t tasks_descendants(const struct task_snap *s, const struct ca_task *const *roots,
			 size_t nroots, const struct ca_task ***out);
void tasks_free(struct task_snap *s);

#endif
