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
#include "tracer/iters.h"
#include "tracer/ksyms_iter.h"
#include "tracer/probe.h"
#include "tasks.skel.h"
#include "lib/util.h"

static struct tasks_bpf *iters;
static bool keep;

static struct tasks_bpf *iters_load(bool ksym)
{
	struct tasks_bpf *skel = tasks_bpf__open();

	if (!skel)
		return NULL;
	bpf_program__set_autoload(skel->progs.dump_ksym, ksym);
	if (tasks_bpf__load(skel)) {
		int e = errno;

		tasks_bpf__destroy(skel);
		errno = e;
		return NULL;
	}
	return skel;
}

struct tasks_bpf *iters_get(char *err, size_t errlen)
{
	if (iters)
		return iters;
	/* iter/ksym where the kernel has it; should it not load, iter/task
	 * alone (the symbols then come from /proc/kallsyms, or not at all) */
	iters = ksym_iter_supported() ? iters_load(true) : NULL;
	if (!iters)
		iters = iters_load(false);
	if (!iters) {
		char hint[300];
		int e = errno;

		snprintf(err, errlen, "load failed: %s%s%s", strerror(e),
			 bpf_memlock_hint(e, hint, sizeof(hint))[0] ? ": " : "", hint);
		errno = e;
	}
	return iters;
}

void iters_keep(void)
{
	keep = true;
}

void iters_put(void)
{
	if (!keep)
		iters_release();
}

void iters_release(void)
{
	tasks_bpf__destroy(iters);
	iters = NULL;
	keep = false;
}

int tasks_snapshot(struct task_snap *s, char *err, size_t errlen)
{
	struct tasks_bpf *skel;
	char *buf, why[512];
	size_t len;
	int rc;

	memset(s, 0, sizeof(*s));
	skel = iters_get(why, sizeof(why));
	if (!skel) {
		snprintf(err, errlen, "iter/task: %s", why);
		return -1;
	}
	rc = bpf_iter_read_all(skel->progs.dump_task, "iter/task", &buf, &len, err, errlen);
	iters_put();
	if (rc)
		return -1;
	s->n = len / sizeof(struct ca_task);
	s->t = xcalloc(s->n + 1, sizeof(*s->t));
	memcpy(s->t, buf, s->n * sizeof(*s->t));
	tasks_sort(s);
	free(buf);
	return 0;
}
