// SPDX-License-Identifier: GPL-2.0
/* The snapshot itself, from the iter/task program (libbpf); the rest of
 * tasks_iter.h, which reads a snapshot, is tasks.c's. */
#include "tracer/tasks_iter.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/bpfiter.h"
#include "tracer/probe.h"
#include "tasks.skel.h"
#include "lib/util.h"

int tasks_snapshot(struct task_snap *s, char *err, size_t errlen)
{
	struct tasks_bpf *skel;
	char *buf;
	size_t len;
	int rc;

	memset(s, 0, sizeof(*s));
	skel = tasks_bpf__open_and_load();
	if (!skel) {
		char hint[300];
		int e = errno;

		snprintf(err, errlen, "iter/task: load failed: %s%s%s", strerror(e),
			 bpf_memlock_hint(e, hint, sizeof(hint))[0] ? ": " : "", hint);
		return -1;
	}
	rc = bpf_iter_read_all(skel->progs.dump_task, "iter/task", &buf, &len, err, errlen);
	tasks_bpf__destroy(skel);
	if (rc)
		return -1;
	s->n = len / sizeof(struct ca_task);
	s->t = xcalloc(s->n + 1, sizeof(*s->t));
	memcpy(s->t, buf, s->n * sizeof(*s->t));
	tasks_sort(s);
	free(buf);
	return 0;
}
